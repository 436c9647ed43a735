/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_map.h - what an X3D scene animates -> kf_builder: TimeSensors as
 * controllers, interpolators and followers as animators, the fields their
 * ROUTEs reach as tracks (docs/import-x3d.md states the rules).
 */
#ifndef KFC_X3D_MAP_H
#define KFC_X3D_MAP_H

#include "kf_build.h"
#include "kfc_x3d_scene.h"

/* Adds the scene's animation to `builder`; what it cannot import is noted
 * (kfc_x3d_note) and skipped, or, where the scene animates it, warned
 * about (-Wx3d-unknown, -Wx3d-dropped; an error with -Werror). Errors: a malformed value in a field it reads,
 * too many tracks, out of memory. */
kfc_status kfc_x3d_map(kfc_x3d_scene *scene, kf_builder *builder, kfc_diag *diag);

#endif /* KFC_X3D_MAP_H */
