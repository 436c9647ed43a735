/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d.h - X3D scenes (.x3d XML, .x3dv ClassicVRML, .wrl VRML97, each
 * also gzipped) -> kf_builder: the importer's entry in kfc_import.c's
 * table. It inflates a gzipped file, picks the encoding's reader
 * (kfc_x3d_read.h), which builds the scene graph (kfc_x3d_scene.h), and
 * maps the animation graph to the builder (kfc_x3d_map.h).
 */
#ifndef KFC_X3D_H
#define KFC_X3D_H

#include <stddef.h>

#include "kfc_import.h"

extern const kfc_importer kfc_x3d_importer;

/* 1 when `path` ends in .x3d, .x3dv, .wrl, .x3dz, .x3dvz or .wrz (also
 * followed by .gz), any case, or the data starts (after a byte-order mark
 * and white space) with "#VRML V2.0", "#X3D V", an XML declaration or
 * element that names X3D, or gzip's magic: kfc_sniff_x3d (kfc_sniff.h),
 * which kfplay asks too. A gzipped scene's two extensions are
 * kfc_sniff_x3d_gzip_suffix's. */
int kfc_x3d_detect(const char *path, const unsigned char *data, size_t size);

kfc_status kfc_x3d_compile(const unsigned char *data, size_t size,
                           const kfc_import_options *options, kf_builder *builder, kfc_diag *diag);

#endif /* KFC_X3D_H */
