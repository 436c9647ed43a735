/*
 * fuzz_gltf.c - libFuzzer target for kfc's glTF importer. Each input is
 * read as a .gltf or .glb document (external files refused, so only the
 * input is read); whatever imports must encode and load. Failures must be
 * clean: no crash, no leak, a one-line message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"
#include "kfc_gltf.h"
#include "test_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kf_builder *builder;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    kfc_gltf_options options = {"fuzz.gltf", NULL, NULL, 1};
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
        kf_anim_free(anim);
        free(kfb.data);
    }
    kf_builder_destroy(builder);
    return 0;
}
