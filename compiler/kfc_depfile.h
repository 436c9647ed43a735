/* SPDX-License-Identifier: MIT */
/*
 * kfc_depfile.h - dependency files (-MD -MF FILE -MT TARGET) in the syntax
 * make and ninja both read: "TARGET: DEPENDENCY...", one rule.
 */
#ifndef KFC_DEPFILE_H
#define KFC_DEPFILE_H

#include "kfc_diag.h"
#include "kfc_input.h"

/* Writes the rule "target: files..." to `path`, all or nothing (kfc_output).
 * File names are escaped for make ("\ " for a space, "\#", "$$"); a name
 * with a line break cannot be written and fails with KFC_IO. */
kfc_status kfc_depfile_write(const char *path, const char *target, const kfc_files_read *files,
                             kfc_diag *diag);

#endif /* KFC_DEPFILE_H */
