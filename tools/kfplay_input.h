/* SPDX-License-Identifier: MIT */
/*
 * kfplay_input.h - the file kfplay reads ("-": standard input), in memory,
 * and what to say when it is not a .kfb file.
 */
#ifndef KFPLAY_INPUT_H
#define KFPLAY_INPUT_H

#include <stddef.h>

#include "kf.h"

/* Far beyond any real animation file; keeps a wrong path (a huge file, a
 * stream without end) from taking memory. */
#define KFP_MAX_FILE ((size_t)1 << 30)

/* What is read of a stream that does not start with a .kfb header: enough
 * to tell what it is (kfc_sniff.h looks at 4 KiB). */
#define KFP_SNIFF_SIZE ((size_t)64 << 10)

/* The file read. */
typedef struct kfp_input {
    unsigned char *data; /* kfp_input_free */
    size_t size;         /* the bytes read */
    int cut;             /* a stream read only in part: more bytes may follow */
} kfp_input;

/* Reads `path` ("-": standard input) into `in`: a regular file whole, one
 * larger than KFP_MAX_FILE refused from its size before a byte is read; a
 * pipe or FIFO, its header first and then no more than the file size the
 * header declares and one byte (trailing data), nor than KFP_MAX_FILE (a
 * stream that is no .kfb: KFP_SNIFF_SIZE bytes). Returns 0, or reports why
 * not ("FILE: error: cannot read: REASON") and returns KFP_EXIT_IO (it
 * cannot be opened or read, or is a folder or a device), KFP_EXIT_INVALID
 * (larger than KFP_MAX_FILE) or KFP_EXIT_NOMEM. */
int kfp_read_input(const char *path, kfp_input *in);
void kfp_input_free(kfp_input *in);

/* kf_load_memory of the bytes read, its message true of the whole stream
 * where only part was read ("more bytes follow the declared end of the
 * file", as kf_load_stream says it). */
kf_result kfp_load(const kfp_input *in, kf_anim **anim, kf_error *err);

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
