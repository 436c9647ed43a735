/* SPDX-License-Identifier: MIT */
/*
 * kfc_decompile.h - a loaded animation back to kfc source YAML.
 *
 * The YAML is canonical: written by libyaml's emitter (kfc_emit.h) from the
 * section tables (kfc_section.h), fields in table order, fields at their
 * default value left out, one key per line in flow style, numbers as the
 * shortest decimal that reads back to the same float32 (sequence data) or
 * double (controllers). Keys keep their authored order and the authored
 * valid range, so compiling the output again gives the same .kfb byte for
 * byte. (A target that no track uses cannot be
 * written in the source format and is left out.)
 */
#ifndef KFC_DECOMPILE_H
#define KFC_DECOMPILE_H

#include "kf_build.h"
#include "kfc_diag.h"

/*
 * Writes `anim` as YAML through `write`. Fails with KFC_IO when `write`
 * fails (the caller knows why), KFC_NOMEM, or KFC_INVALID when the
 * animation cannot be expressed as source (a name that is not UTF-8, an
 * animator kind the source format lacks).
 */
kfc_status kfc_decompile(const kf_anim *anim, kf_write_fn write, void *user, kfc_diag *diag);

#endif /* KFC_DECOMPILE_H */
