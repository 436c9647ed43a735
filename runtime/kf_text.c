/* SPDX-License-Identifier: MIT */
/*
 * kf_text.c - names as text: whether one is UTF-8 text YAML can write back
 * (the loader's and the builder's check), and how a message quotes one.
 */
#include <string.h>

#include "kf_private.h"

/* YAML (and so kfc) reads and writes UTF-8 text of scalar values; a name
 * outside that could load but not decompile into a source that compiles.
 * The n bytes at p (no NUL among them) are checked eight at a time while
 * they are ASCII, as names nearly always are. */
int kf_text_valid(const char *text, size_t n)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + n;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, sizeof w);
        if (w & 0x8080808080808080u)
            break;
    }
    while (p < end) {
        uint32_t c = *p, need, min;
        if (c < 0x80) {
            p++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1, min = 0x80, c &= 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2, min = 0x800, c &= 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3, min = 0x10000, c &= 0x07;
        } else {
            return 0;
        }
        p++;
        if ((size_t)(end - p) < need)
            return 0;
        for (uint32_t k = 0; k < need; k++, p++) {
            if ((*p & 0xC0) != 0x80)
                return 0;
            c = (c << 6) | (*p & 0x3Fu);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return 0;
    }
    return 1;
}

int kf_name_valid(const char *name)
{
    return name && *name && kf_text_valid(name, strlen(name));
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
