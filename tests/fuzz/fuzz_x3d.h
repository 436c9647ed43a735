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

#include "fuzz_import.h"
#include "kf_build.h"
#include "kfc_x3d_map.h"
#include "kfc_x3d_read.h"

typedef kfc_status (*fuzz_x3d_reader)(kfc_x3d_scene *scene, const char *data, size_t size,
                                      kfc_diag *diag);

static int fuzz_x3d_one(fuzz_x3d_reader reader, const uint8_t *data, size_t size)
{
    kf_builder *builder;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    kfc_import_options options = {.path = "fuzz", .no_files = 1};
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
        fuzz_import_round_trip(builder);
    kfc_x3d_scene_free(&scene);
    free(text);
    kf_builder_destroy(builder);
    return 0;
}

#endif /* FUZZ_X3D_H */
