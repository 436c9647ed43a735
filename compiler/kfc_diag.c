/* SPDX-License-Identifier: MIT */
#include "kfc_diag.h"

#include <stdarg.h>
#include <string.h>

kfc_status kfc_fail(kfc_diag *diag, kfc_status status, kfc_mark mark, const char *format, ...)
{
    if (diag) {
        va_list args;
        diag->status = status;
        diag->mark = mark;
        diag->file = NULL;
        diag->pointer[0] = '\0';
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
    }
    return status;
}

kfc_status kfc_fail_at(kfc_diag *diag, const char *where, const char *format, ...)
{
    if (diag) {
        va_list args;
        diag->status = KFC_INVALID;
        diag->mark = KFC_NO_MARK;
        diag->file = NULL;
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
        snprintf(diag->pointer, sizeof diag->pointer, "%s", where);
    }
    return KFC_INVALID;
}

kfc_status kfc_fail_nomem(kfc_diag *diag)
{
    return kfc_fail(diag, KFC_NOMEM, KFC_NO_MARK, "out of memory");
}

char *kfc_quote(char out[KFC_QUOTE_SIZE], const char *text, size_t length)
{
    static const char hex[] = "0123456789abcdef";
    /* Room for the closing quote, "..." and the NUL, whatever the last
     * escape was. */
    const size_t limit = KFC_QUOTE_SIZE - 6;
    size_t n = 0;
    out[n++] = '\'';
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (n + 4 > limit) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        if (c == '\'' || c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            /* Keeps the diagnostic on one line and the terminal sane. */
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[c >> 4];
            out[n++] = hex[c & 15];
        } else {
            out[n++] = (char)c;
        }
    }
    out[n++] = '\'';
    out[n] = '\0';
    return out;
}

/* `text` with its control bytes as \xNN: one diagnostic stays one line
 * whatever a file is named or a message quotes. */
static void put_line_safe(FILE *stream, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(stream, "\\x%02x", *p);
        else
            fputc(*p, stream);
    }
}

void kfc_diag_print(FILE *stream, const char *file, const kfc_diag *diag)
{
    const char *bold = diag->color ? "\033[1m" : "";
    const char *red = diag->color ? "\033[1;31m" : "";
    const char *reset = diag->color ? "\033[0m" : "";
    if (diag->file)
        file = diag->file;
    fputs(bold, stream);
    put_line_safe(stream, file);
    if (diag->pointer[0]) {
        fputs(": ", stream);
        put_line_safe(stream, diag->pointer);
    } else if (diag->mark.line > 0) {
        fprintf(stream, ":%lu:%lu", (unsigned long)diag->mark.line,
                (unsigned long)diag->mark.column);
    }
    fprintf(stream, ":%s %serror:%s ", reset, red, reset);
    put_line_safe(stream, diag->message);
    fputc('\n', stream);
}
