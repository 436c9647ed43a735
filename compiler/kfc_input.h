/* SPDX-License-Identifier: MIT */
/*
 * kfc_input.h - a whole input file (or standard input) in memory.
 */
#ifndef KFC_INPUT_H
#define KFC_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "kfc_diag.h"

typedef struct kfc_input {
    const unsigned char *data;
    size_t size;
    unsigned char *buffer; /* read into memory, or NULL */
    void *mapping;         /* mapped from the file, or NULL */
    size_t mapping_size;
} kfc_input;

/*
 * Makes the bytes of `path` ("-": standard input) available as in->data.
 * A named input is opened by kfc_input_open_named (a regular file only).
 * A regular file is mapped (no copy, no zeroed pages; like any reader of a
 * mapped file, kfc then assumes nobody truncates it meanwhile); anything
 * else is read. An input of more than `max_size` bytes is refused with
 * KFC_INVALID ("input is larger than ..."), whatever format it is in: a
 * regular file from its size, before a byte is read, anything else once
 * `max_size` + 1 bytes are read. Fails with KFC_IO (cannot open or read) or
 * KFC_NOMEM too; in->data is then NULL.
 */
kfc_status kfc_input_open(kfc_input *in, const char *path, size_t max_size, kfc_diag *diag);

/*
 * Opens the named input `path` for reading: a regular file, not one of the
 * kernel's state (/proc, /sys). A FIFO, device, socket or folder is refused
 * from its status before any open (nothing blocks on a FIFO without a
 * writer), and the open is non-blocking and checked again on the
 * descriptor. Sets *fd to the descriptor, or fails with KFC_IO (the reason
 * in `diag`) and sets it to -1. Standard input ("-") is not named: the
 * caller reads it as it is, a pipe included.
 */
kfc_status kfc_input_open_named(const char *path, int *fd, kfc_diag *diag);

/* `path` opened as kfc_input_open_named does, as a stream; stdin for "-".
 * NULL with the reason in `diag` (which must not be NULL) on failure. */
FILE *kfc_input_stream(const char *path, kfc_diag *diag);

/* Reads all of the open descriptor `fd` (at most `max_size` + 1 bytes, as
 * kfc_input_open) into in->data, without mapping it; `fd` stays open. For a
 * file whose size was checked on `fd`: what is read is the checked file. */
kfc_status kfc_input_read_fd(kfc_input *in, int fd, size_t max_size, kfc_diag *diag);

/* Releases what kfc_input_open took. Idempotent. */
void kfc_input_close(kfc_input *in);

/*
 * Every file a run read: kfc_input_open adds each named file it opens to
 * diag->files_read when that is set, so that whatever reads its input
 * through kfc_input (the source, an importer's external buffers) is listed
 * in the dependency file (-MD) without doing anything for it.
 */
typedef struct kfc_file_read {
    char *path; /* as opened */
    /* For a file an input names (kfc_files.h): that input ("<stdin>" for
     * standard input) and where it names it (a JSON pointer); NULL for a
     * file the run was given. What an output must not be is said so. */
    char *named_in, *named_at;
} kfc_file_read;

typedef struct kfc_files_read {
    kfc_file_read *items; /* in the order first opened, no duplicate paths */
    size_t count, capacity;
    int stdin_read; /* standard input ("-") too, which no dependency file lists */
} kfc_files_read;

/* Adds `path`, named in input `named_in` at `named_at` (both NULL for a file
 * the run was given), unless it is there already. KFC_NOMEM on failure. */
kfc_status kfc_files_read_add(kfc_files_read *files, const char *path, const char *named_in,
                              const char *named_at, kfc_diag *diag);

void kfc_files_read_free(kfc_files_read *files);

#endif /* KFC_INPUT_H */
