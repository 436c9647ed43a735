/* SPDX-License-Identifier: MIT */
/*
 * fuzz_gltf.c - libFuzzer target for kfc's glTF importer. Each input is read
 * as a .gltf or .glb document in the sandbox folder of fuzz_sandbox.h:
 * beside the document, buffer files (the seed corpus's *.bin and a few of
 * its own), a folder, a FIFO, a link loop, links in and links out (to a
 * secret, to /dev/zero), and outside the folder the secrets themselves. Whatever a document names:
 *
 *  - every file the import read lies inside the document's folder (its real
 *    path, links resolved); a FIFO opened would block the run, which
 *    libFuzzer's -timeout reports;
 *  - a failure is clean: a non-empty one-line message without control bytes;
 *  - whatever imports encodes (or is refused by the player's memory bound,
 *    as the loader would), loads, and decompiles to YAML that compiles to
 *    the same bytes (node and animation names reach the YAML as the file has
 *    them).
 */
/* fuzz_sandbox.h: mkdtemp, mkfifo, symlink, realpath, nftw are POSIX (XSI). */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_import.h"
#include "kf_build.h"
#include "kfc_gltf.h"
#include "kfc_input.h"
#include "fuzz_sandbox.h"
#include "test_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_sandbox_make(*argc, *argv, "fuzz.gltf");
    return 0;
}

static void check_message(const kfc_diag *diag)
{
    if (diag->message[0] == '\0')
        abort();
    for (const char *p = diag->message; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            fprintf(stderr, "a control byte in the message: %s\n", diag->message);
            abort();
        }
}

/* An input starting with byte 1 (which no JSON or GLB starts with) is a
 * buffer URI: the rest, as a JSON string, in a document whose one buffer of
 * 32 bytes (data.bin's size, and the secrets') it names. The fuzzer then
 * mutates paths alone, with gltf.dict's pieces ("../", "up/", "%2e%2e/"). */
static unsigned char *uri_document(const uint8_t *uri, size_t n, size_t *size)
{
    static const char head[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"buffers\":[{\"byteLength\":32,"
        "\"uri\":\"";
    static const char tail[] =
        "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,"
        "\"byteOffset\":8,\"byteLength\":24}],\"accessors\":[{\"bufferView\":0,"
        "\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},{\"bufferView\":1,"
        "\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],\"animations\":[{"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
        "\"samplers\":[{\"input\":0,\"output\":1}]}]}";
    unsigned char *doc = malloc(sizeof head + 6 * n + sizeof tail);
    if (!doc)
        abort();
    size_t o = sizeof head - 1;
    memcpy(doc, head, o);
    for (size_t i = 0; i < n; i++) {
        if (uri[i] == '"' || uri[i] == '\\') {
            doc[o++] = '\\';
            doc[o++] = uri[i];
        } else if (uri[i] < 0x20 || uri[i] >= 0x7f) {
            o += (size_t)sprintf((char *)doc + o, "\\u%04x", uri[i]);
        } else {
            doc[o++] = uri[i];
        }
    }
    memcpy(doc + o, tail, sizeof tail - 1);
    *size = o + sizeof tail - 1;
    return doc;
}

static int import_one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 1 && data[0] == 1) {
        size_t n;
        unsigned char *doc = uri_document(data + 1, size - 1, &n);
        import_one(doc, n);
        free(doc);
        return 0;
    }
    return import_one(data, size);
}

static int import_one(const uint8_t *data, size_t size)
{
    kf_builder *builder;
    kfc_diag diag;
    kfc_files_read files = {0};
    memset(&diag, 0, sizeof diag);
    diag.files_read = &files;
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    kfc_import_options options = {.path = fuzz_document};
    int ok = kfc_gltf_compile(data, size, &options, builder, &diag) == KFC_OK;
    fuzz_sandbox_check_reads(&files);
    kfc_files_read_free(&files);
    if (!ok)
        check_message(&diag);
    if (ok)
        fuzz_import_round_trip(builder);
    kf_builder_destroy(builder);
    return 0;
}
