/* SPDX-License-Identifier: MIT */
#include "kfplay_format.h"

#include <math.h>
#include <string.h>

#include "kfc_number.h"
#include "kfc_text.h"

int kfp_format_parse(const char *name, kfp_format *format)
{
    static const struct {
        const char *name;
        kfp_format format;
    } names[] = {{"text", KFP_FORMAT_TEXT}, {"csv", KFP_FORMAT_CSV}, {"json", KFP_FORMAT_JSON}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *format = names[i].format;
            return 1;
        }
    }
    return 0;
}

/* A CSV field (RFC 4180): quoted when it holds a separator, quote or line break. */
static void csv_string(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

/* A name as a CSV field: written as the text format writes it
 * (kfc_text.h), so that CSV is as safe on a terminal and reads back as one
 * name, then quoted as RFC 4180 quotes a field. Escaped, a name holds no
 * line break: only a comma or a quote, which are shown, makes it quoted. */
static void csv_name(FILE *out, const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    const size_t length = strlen(name);
    const int quoted = strpbrk(name, ",\"") != NULL;
    if (quoted)
        putc('"', out);
    for (size_t i = 0; i < length;) {
        int shown;
        const size_t step = kf_text_char(p + i, length - i, &shown);
        char one[24]; /* (a character of 4 bytes, each escaped, is never cut) */
        for (const char *c = kf_text_name(one, sizeof one, name + i, step, 0); *c; c++) {
            if (*c == '"')
                putc('"', out);
            putc(*c, out);
        }
        i += step;
    }
    if (quoted)
        putc('"', out);
}

/* A JSON string (RFC 8259) that decodes to `s` (names are UTF-8): quotes
 * and backslashes escaped, and the controls a terminal acts on, C0, DEL
 * and C1 (U+0080 to U+009F, C2 80 to C2 9F), as \u00XX: JSON read on a
 * terminal is as safe as the text format. */
static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
            fprintf(out, "\\u%04x", (unsigned char)*++s);
        else
            putc(c, out);
    }
    putc('"', out);
}

/* %.9g round-trips a float32; JSON has no NaN or infinity, so those are null
 * there (and "nan"/"inf" in text and CSV, as printf writes them). */
static void number(FILE *out, kfp_format format, double x)
{
    if (format == KFP_FORMAT_JSON && !isfinite(x))
        fputs("null", out);
    else
        fprintf(out, "%.9g", x + 0.0); /* + 0: print -0 as 0 */
}

/* A row's key, a double (a world time may be seconds since 1970): the
 * shortest text that reads back, so that distinct keys print distinctly. */
static void key_number(FILE *out, kfp_format format, double x)
{
    char text[KFC_NUMBER_TEXT];
    if (format == KFP_FORMAT_JSON && !isfinite(x)) {
        fputs("null", out);
        return;
    }
    kfc_format_double(text, x + 0.0);
    fputs(text, out);
}

void kfp_rows_begin(kfp_rows *rows, FILE *out, kfp_format format, const char *key,
                    const char *label, const char *flag, uint32_t components)
{
    rows->out = out;
    rows->format = format;
    rows->key = key;
    rows->label = label;
    rows->flag = flag;
    rows->columns = components;
    rows->count = 0;
    if (format == KFP_FORMAT_CSV) {
        csv_string(out, key);
        if (label)
            fprintf(out, ",%s", label);
        for (uint32_t i = 0; i < components; i++)
            fprintf(out, ",v%u", (unsigned)i);
        if (flag)
            fprintf(out, ",%s", flag);
        fputs("\r\n", out);
    } else if (format == KFP_FORMAT_JSON) {
        fputc('[', out);
    }
}

void kfp_rows_add(kfp_rows *rows, double key, const char *label, const float *values,
                  uint32_t count, int flag)
{
    FILE *out = rows->out;
    switch (rows->format) {
    case KFP_FORMAT_TEXT:
        key_number(out, rows->format, key);
        /* (a target's name, as a terminal may show it: kfc_text.h) */
        if (rows->label) {
            putc(' ', out);
            kfc_text_put_name(out, label, 0);
        }
        for (uint32_t i = 0; i < count; i++) {
            putc(' ', out);
            number(out, rows->format, (double)(values[i] + 0.0f));
        }
        if (rows->flag)
            fprintf(out, " %d", flag);
        putc('\n', out);
        break;
    case KFP_FORMAT_CSV:
        key_number(out, rows->format, key);
        if (rows->label) {
            putc(',', out);
            csv_name(out, label);
        }
        for (uint32_t i = 0; i < count; i++) {
            putc(',', out);
            number(out, rows->format, (double)(values[i] + 0.0f));
        }
        for (uint32_t i = count; i < rows->columns; i++)
            putc(',', out);
        if (rows->flag)
            fprintf(out, ",%d", flag);
        fputs("\r\n", out);
        break;
    case KFP_FORMAT_JSON:
        fputs(rows->count ? ",\n {" : "\n {", out);
        json_string(out, rows->key);
        putc(':', out);
        key_number(out, rows->format, key);
        if (rows->label) {
            putc(',', out);
            json_string(out, rows->label);
            putc(':', out);
            json_string(out, label);
        }
        fputs(",\"value\":[", out);
        for (uint32_t i = 0; i < count; i++) {
            if (i)
                putc(',', out);
            number(out, rows->format, (double)(values[i] + 0.0f));
        }
        putc(']', out);
        if (rows->flag) {
            putc(',', out);
            json_string(out, rows->flag);
            fputs(flag ? ":true" : ":false", out);
        }
        putc('}', out);
        break;
    }
    rows->count++;
}

void kfp_rows_end(kfp_rows *rows)
{
    if (rows->format == KFP_FORMAT_JSON)
        fputs(rows->count ? "\n]\n" : "]\n", rows->out);
}

void kfp_list_begin(kfp_list *list, FILE *out, kfp_format format)
{
    list->out = out;
    list->format = format;
    list->count = 0;
    if (format == KFP_FORMAT_CSV)
        fputs("kind,index,name,field,value\r\n", out);
    else if (format == KFP_FORMAT_JSON)
        fputc('[', out);
}

void kfp_list_object(kfp_list *list, const char *kind, uint32_t index, const char *name)
{
    FILE *out = list->out;
    list->kind = kind;
    list->index = index;
    list->name = name;
    if (list->format == KFP_FORMAT_TEXT) {
        if (name)
            kfc_text_put_name(out, name, 0);
        else
            fprintf(out, "#%u", (unsigned)index);
        fprintf(out, " %s", kind);
    } else if (list->format == KFP_FORMAT_JSON) {
        fprintf(out, "%s{\"kind\":\"%s\",\"index\":%u", list->count ? ",\n " : "\n ", kind,
                (unsigned)index);
        if (name) {
            fputs(",\"name\":", out);
            json_string(out, name);
        }
    }
    list->count++;
}

/* A field's start: text's " key=" (or " key" for a flag), CSV's row up to
 * its value, JSON's "key": */
static void field(kfp_list *list, const char *key, int flag)
{
    FILE *out = list->out;
    if (list->format == KFP_FORMAT_TEXT) {
        fprintf(out, flag ? " %s" : " %s=", key);
    } else if (list->format == KFP_FORMAT_CSV) {
        fprintf(out, "%s,%u,", list->kind, (unsigned)list->index);
        if (list->name)
            csv_name(out, list->name);
        fprintf(out, ",%s,", key);
    } else {
        fputc(',', out);
        json_string(out, key);
        fputc(':', out);
    }
}

static void field_end(kfp_list *list)
{
    if (list->format == KFP_FORMAT_CSV)
        fputs("\r\n", list->out);
}

void kfp_list_word(kfp_list *list, const char *key, const char *word)
{
    field(list, key, 0);
    if (list->format == KFP_FORMAT_JSON)
        json_string(list->out, word);
    else
        fputs(word, list->out);
    field_end(list);
}

void kfp_list_name(kfp_list *list, const char *key, const char *name)
{
    field(list, key, 0);
    if (list->format == KFP_FORMAT_JSON && name)
        json_string(list->out, name);
    else if (list->format == KFP_FORMAT_JSON)
        fputs("null", list->out);
    else if (list->format == KFP_FORMAT_CSV && name)
        csv_name(list->out, name);
    else if (list->format == KFP_FORMAT_TEXT)
        kfc_text_put_name(list->out, name ? name : "-", 0);
    field_end(list);
}

void kfp_list_count(kfp_list *list, const char *key, uint64_t count)
{
    field(list, key, 0);
    fprintf(list->out, "%llu", (unsigned long long)count);
    field_end(list);
}

/* A number of a listed object: a float32's as %.9g, a double's as the
 * shortest text that reads back. */
static void list_number(kfp_list *list, double x, int is_double)
{
    char text[KFC_NUMBER_TEXT];
    if (list->format == KFP_FORMAT_JSON && !isfinite(x)) {
        fputs("null", list->out);
        return;
    }
    if (is_double)
        kfc_format_double(text, x + 0.0);
    else
        snprintf(text, sizeof text, "%.9g", x + 0.0);
    fputs(text, list->out);
}

void kfp_list_number(kfp_list *list, const char *key, double x, int is_double)
{
    field(list, key, 0);
    list_number(list, x, is_double);
    field_end(list);
}

void kfp_list_pair(kfp_list *list, const char *key, double a, double b, const char *between,
                   int is_double)
{
    field(list, key, 0);
    if (list->format == KFP_FORMAT_JSON)
        fputc('[', list->out);
    else if (list->format == KFP_FORMAT_CSV && strchr(between, ','))
        fputc('"', list->out);
    list_number(list, a, is_double);
    fputs(list->format == KFP_FORMAT_JSON ? "," : between, list->out);
    list_number(list, b, is_double);
    if (list->format == KFP_FORMAT_JSON)
        fputc(']', list->out);
    else if (list->format == KFP_FORMAT_CSV && strchr(between, ','))
        fputc('"', list->out);
    field_end(list);
}

void kfp_list_flag(kfp_list *list, const char *key, int set)
{
    if (list->format == KFP_FORMAT_TEXT) {
        if (set)
            field(list, key, 1);
        return;
    }
    field(list, key, 0);
    fputs(set ? "true" : "false", list->out);
    field_end(list);
}

void kfp_list_choice(kfp_list *list, const char *key, const char *word, int is_default)
{
    /* Text shows what sets the object apart, as a flag does: a line per
     * object stays as short as it was where everything is the default. */
    if (list->format == KFP_FORMAT_TEXT && is_default)
        return;
    kfp_list_word(list, key, word);
}

void kfp_list_end_object(kfp_list *list)
{
    if (list->format == KFP_FORMAT_TEXT)
        putc('\n', list->out);
    else if (list->format == KFP_FORMAT_JSON)
        putc('}', list->out);
}

void kfp_list_end(kfp_list *list)
{
    if (list->format == KFP_FORMAT_JSON)
        fputs(list->count ? "\n]\n" : "]\n", list->out);
}
