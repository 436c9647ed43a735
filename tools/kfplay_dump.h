/* SPDX-License-Identifier: MIT */
/* kfplay_dump.h - `kfplay dump FILE`: a .kfb file's layout, record by record. */
#ifndef KFPLAY_DUMP_H
#define KFPLAY_DUMP_H

/* Prints the header, the sections and every object of the file at `path`
 * on stdout, and whether libkf loads it. Reads the bytes itself (through
 * formats/kfb_format.h), so a damaged file is described up to its damage.
 * Returns 0 when the file is sound, 1 when anything is wrong with it or it
 * cannot be read, 2 for extra arguments. */
int kfp_dump(const char *path, char **args, int count);

#endif /* KFPLAY_DUMP_H */
