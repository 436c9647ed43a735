/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_gzip.h - gzipped X3D files (.x3dz, .x3dvz, .wrz, *.gz): the
 * whole text inflated into memory before it is read.
 */
#ifndef KFC_X3D_GZIP_H
#define KFC_X3D_GZIP_H

#include <stddef.h>

#include "kfc_diag.h"

/* The most bytes a gzipped scene may inflate to. */
#define KFC_X3D_MAX_INFLATED ((size_t)256 << 20)

/* 1 when `data` starts with gzip's magic bytes. */
int kfc_x3d_is_gzip(const unsigned char *data, size_t size);

/* Inflates the gzip stream (its first member) into a malloc'ed buffer with
 * a NUL after the last byte; *out, *out_size. Errors: a damaged stream, one
 * that inflates past KFC_X3D_MAX_INFLATED, out of memory. */
kfc_status kfc_x3d_gunzip(const unsigned char *data, size_t size, char **out, size_t *out_size,
                          kfc_diag *diag);

#endif /* KFC_X3D_GZIP_H */
