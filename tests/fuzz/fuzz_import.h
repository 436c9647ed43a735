/* SPDX-License-Identifier: MIT */
/*
 * fuzz_import.h - the check every importer's fuzz target makes of what it
 * imported (fuzz_gltf.c, fuzz_m3g.c, fuzz_x3d.h): the builder encodes, the
 * file loads, and the file decompiles to YAML that compiles to the same
 * bytes. An importer that accepts an input must hand on something kfb can
 * write, read and write again; the player's memory bound is the one
 * refusal left to the encoder, as kfc reports it.
 */
#ifndef FUZZ_IMPORT_H
#define FUZZ_IMPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"
#include "kfc_decompile.h"
#include "kfc_source.h"
#include "test_util.h"

static void fuzz_import_round_trip(kf_builder *builder)
{
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    test_bytes kfb = {0};
    kf_encode_options encode = {sizeof encode, 0, 0};
    kf_error error;
    kf_result r = kf_builder_encode(builder, &encode, test_bytes_write, &kfb, &error);
    if (r == KF_ERROR_LIMIT) {
        free(kfb.data);
        return;
    }
    if (r != KF_OK)
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

#endif /* FUZZ_IMPORT_H */
