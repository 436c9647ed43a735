/* SPDX-License-Identifier: MIT */
/*
 * kfc_m3g.h - M3G (JSR-184) files -> kf_builder: the animation of the
 * file, as M3G plays it (docs/import-m3g.md).
 *
 * Every AnimationController becomes a controller and every
 * KeyframeSequence a sequence; every AnimationTrack that an object owns
 * becomes a track into that object's property. Names: the class and
 * object index, with the userID when it is not 0 ("Group7_uid12"), so
 * "Group7_uid12.orientation" for a target. Key times stay as the file has
 * them (sequence time units, milliseconds by M3G's convention); a
 * controller is mapped so that kfb world time w seconds plays what M3G
 * plays at world time w * 1000 ms: speed x 1000, reference world time and
 * active interval / 1000. The file format is kfc_m3g_file.c's.
 */
#ifndef KFC_M3G_H
#define KFC_M3G_H

#include <stddef.h>

#include "kfc_import.h"

/* The importer's entry in kfc_import.c's table. */
extern const kfc_importer kfc_m3g_importer;

/* 1 when the data starts with the M3G file identifier, or `path` ends in
 * .m3g (any case): kfc_sniff_m3g (kfc_sniff.h), which kfplay asks too. */
int kfc_m3g_detect(const char *path, const unsigned char *data, size_t size);

/* Adds the file's animation to `builder`. */
kfc_status kfc_m3g_compile(const unsigned char *data, size_t size,
                           const kfc_import_options *options, kf_builder *builder, kfc_diag *diag);

#endif /* KFC_M3G_H */
