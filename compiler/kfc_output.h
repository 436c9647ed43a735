/* SPDX-License-Identifier: MIT */
/*
 * kfc_output.h - writing an output file all at once or not at all: kfc's
 * outputs, and kfplay's pictures (it links this module from kfc's core).
 *
 * A named output is written to a temporary file beside it and renamed into
 * place only when everything was written and closed without error; on any
 * failure the temporary file is removed, so a failed run leaves no partial
 * file and a previous output untouched. A run's several outputs (a .kfb and
 * its dependency file, --split's files) are each completed in their
 * temporary files before any is renamed (kfc_output_commit_all). "-"
 * writes standard output.
 *
 * Replacing an existing output:
 *  - the new file keeps the old one's permission bits (set-user-ID,
 *    set-group-ID and sticky bits aside) and, where the system lets kfc,
 *    its owner and group; a new output gets the mode any new file would;
 *  - a symbolic link is written through: its target is replaced, the link
 *    stays; a link to nothing is refused;
 *  - a file with other hard links: the output's name gets the new file, the
 *    other names keep the earlier contents (a note says so, kfc_output.notes);
 *  - an existing output that is not a regular file (/dev/null, a FIFO) is
 *    written in place, since it cannot be replaced by renaming.
 *
 * The temporary file is named .kfc-HOST-PID-XXXXXX (HOST: the machine, PID:
 * the writing process) in the output's directory, so any output name up to
 * NAME_MAX works. While it
 * exists, every signal that would end the process and can be caught (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ, SIGSEGV, the real-time
 * signals, ...) removes it before
 * the process ends as the signal says; after SIGKILL or a power cut, the
 * next kfc or kfplay writing to that directory removes the temporary files of this
 * machine's processes that no longer run.
 */
#ifndef KFC_OUTPUT_H
#define KFC_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "kfc_diag.h"
#include "kfc_input.h"

typedef struct kfc_output {
    FILE *file;
    const char *path;                /* as given; "-" for standard output */
    char *target;                    /* the file replaced: path, or a symbolic link's target */
    char *temp_path;                 /* NULL unless writing through a temporary file */
    int error;                       /* errno of the first failed write, or 0 */
    int closed;                      /* kfc_output_close succeeded: complete, not yet in place */
    int created;                     /* path named no file when opened */
    unsigned long other_links;       /* hard links of the replaced file besides path */
    FILE *notes;                     /* where kfc_output_commit says what it did with hard
                          links; NULL (as kfc_output_open sets it): nowhere */
    struct kfc_output *next_pending; /* the temporary files a signal removes
                                        (kfc_output.c); an output is not moved
                                        while its temporary file exists */
} kfc_output;

/* Opens `path` for writing. KFC_IO (with diag->file = path) on failure. */
kfc_status kfc_output_open(kfc_output *out, const char *path, kfc_diag *diag);

/*
 * Writes `size` bytes; a kf_write_fn (`user` is the kfc_output). Returns 0 on
 * success, non-zero after a write error, which kfc_output_close reports.
 */
int kfc_output_write(void *user, const void *data, size_t size);

/* Flushes and closes the output: complete, but not yet in place (a named
 * output's temporary file waits for kfc_output_commit to rename it, or
 * kfc_output_abort to remove it). On failure the output is discarded as by
 * kfc_output_abort, and KFC_IO is returned. */
kfc_status kfc_output_close(kfc_output *out, kfc_diag *diag);

/* Closes the output (if kfc_output_close was not called) and renames it
 * into place. On failure the output is discarded as by kfc_output_abort,
 * and KFC_IO is returned. */
kfc_status kfc_output_commit(kfc_output *out, kfc_diag *diag);

/*
 * The outputs of one run, each closed (kfc_output_close), committed in
 * order (NULL entries skipped), so that none is in place before all are
 * complete. Should a rename fail, that output and the ones after it are
 * discarded, and the ones before it that were new files removed; KFC_IO.
 */
kfc_status kfc_output_commit_all(kfc_output *const *outs, size_t count, kfc_diag *diag);

/* After a kfc_output_write failed: discards the output and reports that
 * write error (KFC_IO, diag->file = the output path). */
kfc_status kfc_output_write_failed(kfc_output *out, kfc_diag *diag);

/* Closes and removes an output that must not be kept. Idempotent. */
void kfc_output_abort(kfc_output *out);

/*
 * KFC_USAGE when the output `path` ("-": the file standard output is open
 * on, if any) is the same file as one of `inputs` (by device and inode,
 * through links: another name of an input is the input), or as `other`
 * (another output of the run, which need not exist yet: then the same name
 * in the same directory; NULL: none). `what` and
 * `other_what` name them in the message ("output", "dependency file").
 */
kfc_status kfc_output_check(const char *path, const char *what, const kfc_files_read *inputs,
                            const char *other, const char *other_what, kfc_diag *diag);

#endif /* KFC_OUTPUT_H */
