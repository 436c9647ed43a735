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
        const size_t step = kfc_text_char(p + i, length - i, &shown);
        char one[24]; /* (a character of 4 bytes, each escaped, is never cut) */
        for (const char *c = kfc_text_name(one, sizeof one, name + i, step, 0); *c; c++) {
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
