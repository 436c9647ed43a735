/* SPDX-License-Identifier: MIT */
/* kf_result.c - result codes, their messages, and filling kf_error. */
#include <stdio.h>
#include <string.h>

#include "kf_private.h"

static const struct {
    const char *name;
    const char *message;
} results[KF_RESULT_COUNT] = {
    [KF_OK] = {"KF_OK", "success"},
    [KF_ERROR_NOT_KFB] = {"KF_ERROR_NOT_KFB", "not a .kfb file"},
    [KF_ERROR_VERSION] = {"KF_ERROR_VERSION", "unsupported format version"},
    [KF_ERROR_PROBE] = {"KF_ERROR_PROBE", "byte order or float format mismatch"},
    [KF_ERROR_TRUNCATED] = {"KF_ERROR_TRUNCATED", "file is truncated"},
    [KF_ERROR_TRAILING_DATA] = {"KF_ERROR_TRAILING_DATA", "data after the end of the file"},
    [KF_ERROR_CHECKSUM] = {"KF_ERROR_CHECKSUM", "checksum mismatch"},
    [KF_ERROR_SECTION] = {"KF_ERROR_SECTION", "malformed section"},
    [KF_ERROR_TOO_LARGE] = {"KF_ERROR_TOO_LARGE", "size exceeds the loader's limit"},
    [KF_ERROR_INFLATE] = {"KF_ERROR_INFLATE", "corrupt compressed data"},
    [KF_ERROR_OBJECT] = {"KF_ERROR_OBJECT", "malformed object record"},
    [KF_ERROR_STRING] = {"KF_ERROR_STRING", "invalid string reference"},
    [KF_ERROR_REFERENCE] = {"KF_ERROR_REFERENCE", "reference out of range"},
    [KF_ERROR_VALUE] = {"KF_ERROR_VALUE", "invalid field value"},
    [KF_ERROR_OUT_OF_MEMORY] = {"KF_ERROR_OUT_OF_MEMORY", "out of memory"},
    [KF_ERROR_IO] = {"KF_ERROR_IO", "input/output error"},
    [KF_ERROR_ARGUMENT] = {"KF_ERROR_ARGUMENT", "invalid argument"},
    [KF_ERROR_NOT_FOUND] = {"KF_ERROR_NOT_FOUND", "no such object"},
    [KF_ERROR_DUPLICATE] = {"KF_ERROR_DUPLICATE", "duplicate name or binding"},
    [KF_ERROR_LIMIT] = {"KF_ERROR_LIMIT", "a player would exceed its memory bound"},
};

const char *kf_result_message(kf_result result)
{
    if ((unsigned)result < KF_RESULT_COUNT)
        return results[result].message;
    return "unknown result code";
}

const char *kf_result_name(kf_result result)
{
    if ((unsigned)result < KF_RESULT_COUNT)
        return results[result].name;
    return "KF_RESULT_UNKNOWN";
}

const char *kf_version(void)
{
    return KF_VERSION_STRING;
}

/* The bytes of the character at `p` (`left` bytes): *shown is 1 when it
 * prints as it is; a byte that begins no valid UTF-8 sequence is one
 * character not shown, as is a C1 control (U+0080 to U+009F: C2 80 to
 * C2 9F), which a terminal may act on. */
static size_t character(const unsigned char *p, size_t left, int *shown)
{
    const unsigned char c = p[0];
    const size_t n = c < 0x80                 ? 1
                     : c >= 0xC2 && c <= 0xDF ? 2
                     : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4
                                              : 0;
    if (n == 0 || n > left || !kf_text_valid((const char *)p, n)) {
        *shown = 0;
        return 1;
    }
    *shown = n == 1 ? c >= 0x20 && c != 0x7F : !(c == 0xC2 && p[1] <= 0x9F);
    return n;
}

const char *kf_quote(char *out, size_t size, const char *text)
{
    static const char hex[] = "0123456789abcdef";
    /* Room for "...", the closing quote and the NUL after any character. */
    const size_t limit = size - 6;
    const unsigned char *p = (const unsigned char *)text;
    const size_t length = strlen(text);
    size_t n = 0;
    out[n++] = '\'';
    for (size_t i = 0; i < length;) {
        int shown;
        const size_t step = character(p + i, length - i, &shown);
        const int escaped = step == 1 && (p[i] == '\\' || p[i] == '\'');
        const size_t need = escaped ? 2 : shown ? step : 4 * step;
        if (n + (need > 4 ? need : 4) > limit) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        for (size_t k = 0; k < step; k++) {
            if (escaped) {
                out[n++] = '\\';
                out[n++] = (char)p[i];
            } else if (shown) {
                out[n++] = (char)p[i + k];
            } else {
                out[n++] = '\\';
                out[n++] = 'x';
                out[n++] = hex[p[i + k] >> 4];
                out[n++] = hex[p[i + k] & 15];
            }
        }
        i += step;
    }
    out[n++] = '\'';
    out[n] = '\0';
    return out;
}

void kf_error_clear(kf_error *error)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->section = KF_NO_INDEX;
    error->object = KF_NO_INDEX;
    error->item = KF_NO_INDEX;
}

kf_result kf_failv(kf_error *error, kf_result result, const char *format, va_list ap)
{
    if (error) {
        error->result = result;
        vsnprintf(error->message, sizeof error->message, format, ap);
    }
    return result;
}

kf_result kf_fail(kf_error *error, kf_result result, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    kf_failv(error, result, format, ap);
    va_end(ap);
    return result;
}

kf_result kf_fail_at(kf_error *error, kf_result result, kf_field field, uint32_t item,
                     const char *format, ...)
{
    if (error) {
        error->field = field;
        error->item = item;
    }
    va_list ap;
    va_start(ap, format);
    kf_failv(error, result, format, ap);
    va_end(ap);
    return result;
}
