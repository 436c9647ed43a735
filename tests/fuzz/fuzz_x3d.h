/* SPDX-License-Identifier: MIT */
/*
 * fuzz_x3d.h - what the X3D importer's fuzz targets share: one input read
 * by one encoding's reader (fuzz_x3d_xml.c, fuzz_x3d_vrml.c), then the
 * scene's animation mapped to a builder. Whatever imports must encode and
 * load, and decompile to YAML that compiles to the same bytes; failures
 * must be clean: no crash, no leak, a one-line message with a position.
 */
#ifndef FUZZ_X3D_H
#define FUZZ_X3D_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"
#include "kfc_decompile.h"
#include "kfc_source.h"
#include "kfc_x3d_map.h"
#include "kfc_x3d_read.h"
#include "test_util.h"

typedef kfc_status (*fuzz_x3d_reader)(kfc_x3d_scene *scene, const char *data, size_t size,
                                      kfc_diag *diag);

static void fuzz_x3d_check_round_trip(kf_builder *builder)
{
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    test_bytes kfb = {0};
    kf_encode_options encode = {sizeof encode, 0, 0};
    kf_error error;
    kf_result r = kf_builder_encode(builder, &encode, test_bytes_write, &kfb, &error);
    if (r == KF_ERROR_LIMIT) {
        free(kfb.data);
        return; /* the player's memory bound: kfc reports it */
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

static int fuzz_x3d_one(fuzz_x3d_reader reader, const uint8_t *data, size_t size)
{
    kf_builder *builder;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    kfc_import_options options = {"fuzz", NULL, NULL, 1, NULL};
    kfc_x3d_scene scene;
    kfc_x3d_scene_init(&scene, &options);
    /* The readers are given the text as kfc gives it: NUL after the end. */
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    kfc_status st = reader(&scene, text, size, &diag);
    if (!st)
        st = kfc_x3d_scene_finish(&scene, &diag);
    if (!st)
        st = kfc_x3d_map(&scene, builder, &diag);
    if (st && (diag.message[0] == '\0' || strchr(diag.message, '\n')))
        abort();
    if (st == KFC_INVALID && diag.mark.line == 0 && !strstr(diag.message, "tracks"))
        abort(); /* every syntax error has a position */
    if (!st)
        fuzz_x3d_check_round_trip(builder);
    kfc_x3d_scene_free(&scene);
    free(text);
    kf_builder_destroy(builder);
    return 0;
}

#endif /* FUZZ_X3D_H */
