/* SPDX-License-Identifier: MIT */
/*
 * kfplay_format.h - kfplay's rows of numbers as text, CSV or JSON.
 *
 * Every command that prints numbers prints rows of the same shape: a key
 * (time, fraction, distance), optionally a label (a target's name), the
 * values, optionally a flag (a follower's isActive). The text format is
 * kfplay's historical one ("key [label] v... [flag]"); CSV has a header row
 * and one row per line, every row as many fields as the header; JSON is one
 * array of objects. A name is written in CSV as in the text (kfc_text.h),
 * in JSON as a string that decodes to it, its controls as \u00XX: neither
 * writes a byte a terminal acts on.
 */
#ifndef KFPLAY_FORMAT_H
#define KFPLAY_FORMAT_H

#include <stdint.h>
#include <stdio.h>

typedef enum kfp_format { KFP_FORMAT_TEXT, KFP_FORMAT_CSV, KFP_FORMAT_JSON } kfp_format;

typedef struct kfp_rows {
    FILE *out;
    kfp_format format;
    const char *key;   /* column name of the key, e.g. "t" */
    const char *label; /* column name of the label, or NULL: no label */
    const char *flag;  /* column name of the flag, or NULL: no flag */
    uint32_t columns;  /* value columns of the CSV header */
    uint64_t count;    /* rows written */
} kfp_rows;

/* Parses "text", "csv" or "json"; 0 if `name` is none of them. */
int kfp_format_parse(const char *name, kfp_format *format);

/* Starts the output: the CSV header names `components` value columns
 * v0, v1, ... Rows may hold fewer values; in CSV their other columns are
 * empty, so that every row has the header's columns. */
void kfp_rows_begin(kfp_rows *rows, FILE *out, kfp_format format, const char *key,
                    const char *label, const char *flag, uint32_t components);

/* One row; `label` / `flag` are ignored when the columns do not exist. */
void kfp_rows_add(kfp_rows *rows, double key, const char *label, const float *values,
                  uint32_t count, int flag);

/* Ends the output (closes JSON's array). */
void kfp_rows_end(kfp_rows *rows);

#endif /* KFPLAY_FORMAT_H */
