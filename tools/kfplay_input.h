/* SPDX-License-Identifier: MIT */
/*
 * kfplay_input.h - the file kfplay reads ("-": standard input), in memory,
 * and what to say when it is not a .kfb file.
 */
#ifndef KFPLAY_INPUT_H
#define KFPLAY_INPUT_H

#include <stddef.h>

/* Far beyond any real animation file; keeps a wrong path (a device, a huge
 * file) from taking memory. */
#define KFP_MAX_FILE ((size_t)1 << 30)

/* Reads all of `path` ("-": standard input) into *data (free()). Returns
 * 0, or reports why not ("FILE: error: cannot read: REASON") and returns
 * KFP_EXIT_INPUT. */
int kfp_read_input(const char *path, unsigned char **data, size_t *size);

/* Whether standard output is the file `path` ("-": the file standard input
 * reads) by device and inode: a shell's `1<>walk.kfb` or `>> walk.kfb`,
 * which "-o -" would write into. */
int kfp_stdout_is_input(const char *path);

/* The name messages give the input: the path, or "<stdin>" for "-". */
const char *kfp_input_name(const char *path);

/* For a file libkf refused as not a .kfb: what it looks like instead and
 * what to do (a YAML source, a glTF or M3G file, an X3D scene: the kfc
 * command that makes it a .kfb of its base name in the current folder;
 * "the file is empty"), or NULL when it looks like nothing kfplay knows.
 * Judged by the content, as kfc's importers judge it (kfc_sniff.h); the
 * name counts only where the content agrees (a binary named .yaml is not
 * called a source, nor one named .m3g an M3G file). */
const char *kfp_input_mixup(const char *path, const unsigned char *data, size_t size, char *buffer,
                            size_t buffer_size);

#endif /* KFPLAY_INPUT_H */
