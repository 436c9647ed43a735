/* SPDX-License-Identifier: MIT */
/*
 * kfc_depfile.h - dependency files (-MD -MF FILE -MT TARGET) in the syntax
 * make and ninja both read: "TARGET: DEPENDENCY...", one rule.
 */
#ifndef KFC_DEPFILE_H
#define KFC_DEPFILE_H

#include <stdio.h>

#include "kfc_diag.h"
#include "kfc_input.h"
#include "kfc_output.h"

/* KFC_OK when the target and every file can be written so that GNU make and
 * ninja both read them back as written (kfc_depfile.c lists what they cannot:
 * a line break, ';', '=', wildcards, ...); else KFC_USAGE with a message
 * naming the name, what it has and what to do instead (`deps_only`: for -M,
 * which writes the rule alone, else -MD). Run before the output is committed,
 * so that a refused dependency file leaves no output either. */
kfc_status kfc_depfile_check(const char *target, const kfc_files_read *files, int deps_only,
                             kfc_diag *diag);

/* The rule's target given on the command line (-MT, or the output name it
 * defaults to; `what`, "-MT target" or "target", names it in the message)
 * checked as kfc_depfile_check checks it, before anything is read: a name
 * make and ninja cannot read back is a usage error (KFC_USAGE). */
kfc_status kfc_depfile_check_target(const char *target, const char *what, kfc_diag *diag);

/* Writes the rule "target: files..." to `path` (kfc_output), each name
 * escaped for make and ninja ("\ " for a space, the backslashes before it
 * doubled, "\#", "\:", "$$"), after kfc_depfile_check, and closes it
 * (kfc_output_close): complete, waiting for the caller's kfc_output_commit
 * (or kfc_output_commit_all, with the output it describes). On failure
 * `out` is discarded. `notes`: as kfc_output.notes. */
kfc_status kfc_depfile_prepare(kfc_output *out, const char *path, const char *target,
                               const kfc_files_read *files, FILE *notes, kfc_diag *diag);

/* kfc_depfile_prepare, then kfc_output_commit: the dependency file alone
 * (-M). */
kfc_status kfc_depfile_write(const char *path, const char *target, const kfc_files_read *files,
                             FILE *notes, kfc_diag *diag);

#endif /* KFC_DEPFILE_H */
