/* SPDX-License-Identifier: MIT */
/*
 * kfc_gltf.h - glTF 2.0 animations (.gltf, .glb) -> kf_builder.
 *
 * Each glTF animation becomes a controller, each of its channels a sequence
 * and a track into "NODE.translation", "NODE.orientation", "NODE.scale" or
 * "NODE.morph_weights" (a node without a unique name is "node<index>").
 * Times are seconds, as in glTF and on kfb's clock (kf.h), and key times
 * are kept exactly as the file's float32 values, so that world time W plays
 * what glTF gives at W seconds and a key's own time plays the key. Errors
 * name the JSON line and column for syntax, the JSON pointer of the element
 * otherwise (kfc_diag.pointer).
 */
#ifndef KFC_GLTF_H
#define KFC_GLTF_H

#include <stddef.h>
#include <stdio.h>

#include "kfc_import.h"

/* The importer's entry in kfc_import.c's table. */
extern const kfc_importer kfc_gltf_importer;

/* 1 when `path` ends in .gltf or .glb (any case), or the data starts with
 * the GLB magic "glTF". */
int kfc_gltf_detect(const char *path, const unsigned char *data, size_t size);

/* Adds the document's animations to `builder`. */
kfc_status kfc_gltf_compile(const unsigned char *data, size_t size,
                            const kfc_import_options *options, kf_builder *builder, kfc_diag *diag);

#endif /* KFC_GLTF_H */
