/* SPDX-License-Identifier: MIT */
/*
 * kfc_gltf.h - glTF 2.0 animations (.gltf, .glb) -> kf_builder.
 *
 * Each glTF animation becomes a controller, each of its channels a sequence
 * and a track into "NODE.translation", "NODE.orientation", "NODE.scale" or
 * "NODE.morph_weights".
 *
 * Names, decided from the whole document (the same whichever animations are
 * imported, into one file or several), so that every valid file compiles:
 *   - a node is its `name` when no other node has it, or when it is the
 *     only skin joint among the nodes that have it; otherwise, and when it
 *     has none, "node<index>";
 *   - an animation's controller is its `name` when no other animation has
 *     it, else "animation<index>";
 *   - a name of the form "node<k>" ("animation<k>") for another index is
 *     that element's fallback name: it counts as taken;
 *   - a sequence is "CONTROLLER/NODE.PROPERTY"; where names holding '/'
 *     make two of one output equal, the later gets "#2" (the first free
 *     "#n"), a form no other sequence name ends in.
 * -v notes how each clash was settled. With options->loop each animation
 * repeats over its longest channel's length; with options->clip each goes
 * into a builder of its own.
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
 * the GLB magic "glTF", or is JSON text of an object with an "asset" (and
 * no "kfb": a kfb source written as JSON), as a glTF file named .json is:
 * kfc_sniff_gltf (kfc_sniff.h), which kfplay asks too. */
int kfc_gltf_detect(const char *path, const unsigned char *data, size_t size);

/* Adds the document's animations to `builder`. */
kfc_status kfc_gltf_compile(const unsigned char *data, size_t size,
                            const kfc_import_options *options, kf_builder *builder, kfc_diag *diag);

#endif /* KFC_GLTF_H */
