/* SPDX-License-Identifier: MIT */
/*
 * kf_text.c - names as text: whether one is UTF-8 text YAML can write back
 * (the loader's and the builder's check), and how one is shown (kf_text.h).
 */
#include "kf_text.h"

#include <stdint.h>
#include <string.h>

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

size_t kf_text_char(const unsigned char *p, size_t left, int *shown)
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

size_t kf_text_shown(char *out, const unsigned char *p, size_t step, int shown, kf_text_as as)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (as != KF_TEXT_MESSAGE && step == 1 &&
        (p[0] == '\\' || (as == KF_TEXT_QUOTED && p[0] == '\''))) {
        out[n++] = '\\';
        out[n++] = (char)p[0];
    } else if (!shown) {
        for (size_t k = 0; k < step; k++) {
            out[n++] = '\\';
            out[n++] = 'x';
            out[n++] = hex[p[k] >> 4];
            out[n++] = hex[p[k] & 15];
        }
    } else {
        memcpy(out, p, step);
        n = step;
    }
    return n;
}

char *kf_text_name(char *out, size_t size, const char *text, size_t length, int quoted)
{
    /* Room for the closing quote, "..." and the NUL, whatever the last
     * character was. */
    const size_t limit = size - 6;
    const unsigned char *p = (const unsigned char *)text;
    size_t n = 0;
    if (quoted)
        out[n++] = '\'';
    for (size_t i = 0; i < length;) {
        int shown;
        char c[KF_TEXT_SHOWN_MAX];
        const size_t step = kf_text_char(p + i, length - i, &shown);
        const size_t need =
            kf_text_shown(c, p + i, step, shown, quoted ? KF_TEXT_QUOTED : KF_TEXT_NAME);
        /* A character whole or not at all: a cut never splits UTF-8. */
        if (n + (need > 4 ? need : 4) > limit) {
            memcpy(out + n, "...", 3);
            n += 3;
            break;
        }
        memcpy(out + n, c, need);
        n += need;
        i += step;
    }
    if (quoted)
        out[n++] = '\'';
    out[n] = '\0';
    return out;
}

const char *kf_quote(char *out, size_t size, const char *text)
{
    return kf_text_name(out, size, text, strlen(text), 1);
}
