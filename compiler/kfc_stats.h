/* SPDX-License-Identifier: MIT */
/*
 * kfc_stats.h - what `kfc -v` reports about a compiled file: objects per
 * kind, keys, bytes per section (stored and raw), compression ratio, time.
 */
#ifndef KFC_STATS_H
#define KFC_STATS_H

#include <stddef.h>
#include <stdio.h>

/* Describes the .kfb bytes kfc just wrote (`bytes`, `size`) on `stream`.
 * The sections are read through formats/kfb_format.h, the objects through
 * libkf; bytes that are not a loadable file are only counted. */
void kfc_stats_print(FILE *stream, const char *input, const char *output,
                     const unsigned char *bytes, size_t size, double seconds);

#endif /* KFC_STATS_H */
