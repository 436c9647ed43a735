/* SPDX-License-Identifier: MIT */
/*
 * fuzz_files.c - libFuzzer target for kfc_files, the rule every importer
 * follows for the files an input names (compiler/kfc_files.h). Each input is
 * a URI reference, opened from a document in the sandbox of fuzz_sandbox.h
 * (links in and out, '..', a FIFO, /dev/zero, secrets beside the folder);
 * an input starting with byte 2 is opened with the sandbox's root as the
 * root folder (kfc --asset-root), so that one '..' may climb and two not.
 *
 *  - what opens lies inside the root (its real path, links resolved), and
 *    holds the bytes of the file the path names: kfc's walk reads what the
 *    kernel would, or refuses;
 *  - a refusal is a non-empty one-line message without control bytes, with
 *    nothing read;
 *  - nothing blocks (a FIFO opened would: libFuzzer's -timeout reports it).
 */
/* fuzz_sandbox.h: mkdtemp, mkfifo, symlink, realpath, nftw are POSIX (XSI). */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_files.h"
#include "fuzz_sandbox.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_sandbox_make(*argc, *argv, "fuzz.doc");
    return 0;
}

/* The bytes of the file `path` names, as the kernel resolves it, equal
 * `data`. */
static int same_bytes(const char *path, const unsigned char *data, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static unsigned char buffer[1 << 20];
    size_t got = fread(buffer, 1, sizeof buffer, f);
    fclose(f);
    return got == size && memcmp(buffer, data, size) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const int wider = size > 0 && data[0] == 2;
    const char *uri = (const char *)data + wider;
    const size_t length = size - (size_t)wider;
    char root[4200];
    snprintf(root, sizeof root, "%.*s", (int)(strlen(fuzz_folder) - 4), fuzz_folder);
    kfc_files files;
    kfc_files_init(&files, fuzz_document, wider ? root : NULL);
    kfc_files_read read = {0};
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    diag.files_read = &read;
    const kfc_input *in = NULL;
    int first = 0;
    kfc_status st =
        kfc_files_open(&files, uri, length, NULL, KFC_FILES_ANY_SIZE, 1 << 20, &in, &first, &diag);
    if (st == KFC_OK) {
        if (read.count != 1 || !first)
            abort();
        char *real = realpath(read.items[0].path, NULL);
        const char *inside = wider ? root : fuzz_folder;
        if (!real || strncmp(real, inside, strlen(inside)) != 0 ||
            !same_bytes(real, in->data, in->size)) {
            fprintf(stderr, "opened %s (%s): outside %s, or other bytes\n", read.items[0].path,
                    real ? real : "?", inside);
            abort();
        }
        free(real);
    } else {
        if (read.count != 0 || diag.message[0] == '\0')
            abort();
        for (const char *p = diag.message; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                abort();
    }
    kfc_files_read_free(&read);
    kfc_files_free(&files);
    return 0;
}
