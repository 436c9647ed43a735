/* SPDX-License-Identifier: MIT */
/*
 * kfplay_names.h - the names a file's objects go by, and "did you mean" for
 * a name that names none of them, shared by the commands that take names
 * (sample and its kin, follow, plot).
 */
#ifndef KFPLAY_NAMES_H
#define KFPLAY_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "kf.h"

/* The name of object `index` of `kind`: a sequence, interpolator,
 * follower, target or controller. */
const char *kfp_object_name(const kf_anim *anim, kf_kind kind, uint32_t index);

/* "; did you mean 'A', 'B' or 'C'?" into `out` (`size` bytes), or "": up
 * to three of the objects of `kinds` (`count` of them, searched in that
 * order) whose names hold `name` (a name given short, as 'hip' for
 * 'hip_position'), or where none does, those one or two edits away (a name
 * mistyped, 'hip_postion'), as kfc suggests names (kfc_suggest.h). */
void kfp_names_like(const kf_anim *anim, const kf_kind *kinds, int count, const char *name,
                    char *out, size_t size);

#endif /* KFPLAY_NAMES_H */
