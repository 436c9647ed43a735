/* SPDX-License-Identifier: MIT */
/*
 * kfc_output.h - writing an output file all at once or not at all.
 *
 * A named output is written to a temporary file beside it and renamed into
 * place only when everything was written and closed without error; on any
 * failure the temporary file is removed, so a failed run leaves no partial
 * file and a previous output untouched. "-" writes standard output. An
 * existing output that is not a regular file (/dev/null, a FIFO) is written
 * in place, since it cannot be replaced by renaming. The temporary file is
 * named .kfc-XXXXXX in the output's directory (so any output name up to
 * NAME_MAX works), and SIGINT, SIGTERM or SIGHUP while it exists remove it
 * before the process ends as the signal says.
 */
#ifndef KFC_OUTPUT_H
#define KFC_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "kfc_diag.h"

typedef struct kfc_output {
    FILE *file;
    const char *path; /* as given; "-" for standard output */
    char *temp_path;  /* NULL unless writing through a temporary file */
    int error;        /* errno of the first failed write, or 0 */
} kfc_output;

/* Opens `path` for writing. KFC_IO (with diag->file = path) on failure. */
kfc_status kfc_output_open(kfc_output *out, const char *path, kfc_diag *diag);

/*
 * Writes `size` bytes; a kf_write_fn (`user` is the kfc_output). Returns 0 on
 * success, non-zero after a write error, which kfc_output_commit reports.
 */
int kfc_output_write(void *user, const void *data, size_t size);

/* Flushes and closes the output and renames it into place. On failure the
 * output is discarded as by kfc_output_abort, and KFC_IO is returned. */
kfc_status kfc_output_commit(kfc_output *out, kfc_diag *diag);

/* After a kfc_output_write failed: discards the output and reports that
 * write error (KFC_IO, diag->file = the output path). */
kfc_status kfc_output_write_failed(kfc_output *out, kfc_diag *diag);

/* Closes and removes an output that must not be kept. Idempotent. */
void kfc_output_abort(kfc_output *out);

#endif /* KFC_OUTPUT_H */
