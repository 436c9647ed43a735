/* SPDX-License-Identifier: MIT */
/* kfplay_dump.h - `kfplay dump FILE`: a .kfb file's layout, record by record. */
#ifndef KFPLAY_DUMP_H
#define KFPLAY_DUMP_H

#include "kfplay_input.h"

/* Prints the header, the sections and every object of the file `name`
 * (the bytes kfp_read_input read of it) on stdout, and whether libkf loads
 * it.
 * Reads the bytes itself (through formats/kfb_format.h), so a damaged file
 * is described up to its damage. Returns 0 when the file is sound,
 * KFP_EXIT_INVALID when anything is wrong with it, KFP_EXIT_NOMEM when
 * memory ran out before it could all be checked. */
int kfp_dump(const char *name, const kfp_input *in);

#endif /* KFPLAY_DUMP_H */
