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

/*
 * `list`'s objects, each a kind, an index among its kind, a name (NULL: a
 * track, which has none) and fields. Text: "NAME KIND key=value ... flag"
 * ("#INDEX track ..."); CSV: one row per field, "kind,index,name,field,value",
 * the value as text writes it; JSON: an array of objects {"kind", "index",
 * "name", the fields}, numbers as numbers, a pair as an array of two, a
 * flag as true or false. Text leaves out an unset flag and a word at its
 * default; CSV and JSON hold them.
 */
typedef struct kfp_list {
    FILE *out;
    kfp_format format;
    uint64_t count; /* objects written */
    const char *kind, *name;
    uint32_t index;
} kfp_list;

void kfp_list_begin(kfp_list *list, FILE *out, kfp_format format);
void kfp_list_object(kfp_list *list, const char *kind, uint32_t index, const char *name);
/* A word of kfb's vocabulary ("linear"); a name from the file (NULL: none, "-"). */
void kfp_list_word(kfp_list *list, const char *key, const char *word);
void kfp_list_name(kfp_list *list, const char *key, const char *name);
void kfp_list_count(kfp_list *list, const char *key, uint64_t count);
/* `is_double`: the shortest text that reads back, else %.9g (a float32). */
void kfp_list_number(kfp_list *list, const char *key, double x, int is_double);
/* Two numbers, written in text as A`between`B ("0..3"). */
void kfp_list_pair(kfp_list *list, const char *key, double a, double b, const char *between,
                   int is_double);
/* A flag: in text only when set, as its bare key. */
void kfp_list_flag(kfp_list *list, const char *key, int set);
/* A word with a default ("blend", "sum"): in text only when it is not the
 * default, as key=word; CSV and JSON always hold it. */
void kfp_list_choice(kfp_list *list, const char *key, const char *word, int is_default);
void kfp_list_end_object(kfp_list *list);
void kfp_list_end(kfp_list *list);

#endif /* KFPLAY_FORMAT_H */
