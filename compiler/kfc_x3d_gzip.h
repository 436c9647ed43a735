/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_gzip.h - gzipped X3D files (.x3dz, .x3dvz, .wrz, *.gz): the
 * whole text inflated into memory before it is read.
 */
#ifndef KFC_X3D_GZIP_H
#define KFC_X3D_GZIP_H

#include <stddef.h>

#include "kfc_diag.h"

/* The most bytes a gzipped scene may inflate to: 256 MiB, and 32 times
 * its compressed size plus 1 MiB. X3D text compresses 3 to 20 times; the
 * importer's memory is in proportion to the inflated text
 * (KFC_X3D_BUDGET_PER_BYTE), so the ratio is what keeps it in proportion
 * to the file (docs/limits.md). */
#define KFC_X3D_MAX_INFLATED ((size_t)256 << 20)
#define KFC_X3D_GZIP_RATIO   32u
#define KFC_X3D_GZIP_FLOOR   ((size_t)1 << 20)

/* The most bytes a gzip stream of `size` bytes may inflate to. */
size_t kfc_x3d_gunzip_limit(size_t size);

/* Inflates the gzip stream (its first member) into a malloc'ed buffer with
 * a NUL after the last byte; *out, *out_size. Errors: a damaged stream, one
 * that inflates past kfc_x3d_gunzip_limit, out of memory. */
kfc_status kfc_x3d_gunzip(const unsigned char *data, size_t size, char **out, size_t *out_size,
                          kfc_diag *diag);

#endif /* KFC_X3D_GZIP_H */
