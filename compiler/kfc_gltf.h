/*
 * kfc_gltf.h - glTF 2.0 animations (.gltf, .glb) -> kf_builder.
 *
 * Each glTF animation becomes a controller, each of its channels a sequence
 * and a track into "NODE.translation", "NODE.orientation", "NODE.scale" or
 * "NODE.morph_weights" (a node without a unique name is "node<index>").
 * Times are in milliseconds (a key at 0.5 s is at 500), so that world time
 * W plays what glTF gives at W / 1000 seconds. Errors name the JSON line and
 * column for syntax, the JSON pointer of the element otherwise
 * (kfc_diag.pointer).
 */
#ifndef KFC_GLTF_H
#define KFC_GLTF_H

#include <stddef.h>
#include <stdio.h>

#include "kf_build.h"
#include "kfc_diag.h"

typedef struct kfc_gltf_options {
    const char *path;      /* the document's file: relative URIs resolve against its
                                   directory; NULL or "-": the current directory */
    const char *animation; /* NULL: every animation; else a name, or an index */
    FILE *notes;           /* notes (ignored extensions, skipped channels), or NULL */
    int no_files;          /* refuse external buffer files (fuzzing) */
} kfc_gltf_options;

/* 1 when `path` ends in .gltf or .glb (any case), or the data starts with
 * the GLB magic "glTF". */
int kfc_gltf_detect(const char *path, const unsigned char *data, size_t size);

/* Adds the document's animations to `builder`. */
kfc_status kfc_gltf_compile(const unsigned char *data, size_t size, const kfc_gltf_options *options,
                            kf_builder *builder, kfc_diag *diag);

#endif /* KFC_GLTF_H */
