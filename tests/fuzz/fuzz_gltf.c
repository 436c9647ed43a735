/* SPDX-License-Identifier: MIT */
/*
 * fuzz_gltf.c - libFuzzer target for kfc's glTF importer. Each input is
 * read as a .gltf or .glb document (external files refused, so only the
 * input is read); whatever imports must encode and load, and decompile to
 * YAML that compiles to the same bytes (node and animation names reach the
 * YAML as the file has them). Failures must be clean: no crash, no leak, a
 * one-line message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"
#include "kfc_decompile.h"
#include "kfc_gltf.h"
#include "kfc_source.h"
#include "test_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kf_builder *builder;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    kfc_import_options options = {"fuzz.gltf", NULL, NULL, 1};
    int ok = kfc_gltf_compile(data, size, &options, builder, &diag) == KFC_OK;
    if (!ok && (diag.message[0] == '\0' || strchr(diag.message, '\n')))
        abort();
    if (ok) {
        test_bytes kfb = {0};
        kf_encode_options encode = {sizeof encode, 0, 0};
        kf_error error;
        if (kf_builder_encode(builder, &encode, test_bytes_write, &kfb, &error) != KF_OK)
            abort();
        kf_anim *anim;
        if (kf_load_memory(kfb.data, kfb.size, NULL, &anim, &error) != KF_OK)
            abort();
        test_bytes yaml = {0}, again = {0};
        kf_builder *rebuilt;
        if (kfc_decompile(anim, test_bytes_write, &yaml, &diag) != KFC_OK ||
            kf_builder_create(NULL, &rebuilt) != KF_OK)
            abort();
        if (kfc_source_compile(yaml.data, yaml.size, NULL, rebuilt, NULL, &diag) != KFC_OK) {
            fprintf(stderr, "decompiled YAML does not compile: %s\n", diag.message);
            abort();
        }
        if (kf_builder_encode(rebuilt, &encode, test_bytes_write, &again, &error) != KF_OK ||
            again.size != kfb.size || memcmp(again.data, kfb.data, kfb.size) != 0) {
            fprintf(stderr, "decompile -> compile gives another file\n");
            abort();
        }
        kf_builder_destroy(rebuilt);
        free(yaml.data);
        free(again.data);
        kf_anim_free(anim);
        free(kfb.data);
    }
    kf_builder_destroy(builder);
    return 0;
}
