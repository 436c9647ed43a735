/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_read.h - the two X3D encodings' readers, each filling a
 * kfc_x3d_scene: XML (kfc_x3d_xml.c, through expat) and ClassicVRML /
 * VRML97 (kfc_x3d_vrml.c, kfb's own). `data` must stay alive as long as
 * the scene: field text points into it. Errors are located at the line
 * and column of the decompressed text.
 */
#ifndef KFC_X3D_READ_H
#define KFC_X3D_READ_H

#include <stddef.h>

#include "kfc_x3d_scene.h"

kfc_status kfc_x3d_read_xml(kfc_x3d_scene *scene, const char *data, size_t size, kfc_diag *diag);
kfc_status kfc_x3d_read_vrml(kfc_x3d_scene *scene, const char *data, size_t size, kfc_diag *diag);

#endif /* KFC_X3D_READ_H */
