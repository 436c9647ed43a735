/* SPDX-License-Identifier: MIT */
#include "kfc_text.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at `p`, or 0 (RFC 3629: no
 * overlong form, no surrogate, nothing past U+10FFFF). */
static size_t utf8_length(const unsigned char *p, size_t left)
{
    const unsigned char c = p[0];
    size_t n;
    unsigned char low = 0x80, high = 0xbf; /* the second byte's range */
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        low = c == 0xe0 ? 0xa0 : 0x80;
        high = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        low = c == 0xf0 ? 0x90 : 0x80;
        high = c == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (left < n || p[1] < low || p[1] > high)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

size_t kfc_text_char(const unsigned char *p, size_t left, int *shown)
{
    const size_t n = utf8_length(p, left);
    if (n == 0) {
        *shown = 0;
        return 1;
    }
    if (n == 1)
        *shown = p[0] >= 0x20 && p[0] != 0x7f;
    else
        *shown = !(p[0] == 0xc2 && p[1] <= 0x9f);
    return n;
}

int kfc_text_plain(const char *text, size_t length)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < length;) {
        int shown;
        i += kfc_text_char(p + i, length - i, &shown);
        if (!shown)
            return 0;
    }
    return 1;
}

void kfc_text_escape(char *out, size_t size, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    const size_t length = strlen(text);
    size_t n = 0;
    for (size_t i = 0; i < length;) {
        int shown;
        const size_t step = kfc_text_char(p + i, length - i, &shown);
        const size_t need = shown ? step : step * KFC_TEXT_ESCAPE_SIZE;
        if (n + need + 1 > size)
            break; /* cut before a character, never inside one */
        for (size_t k = 0; k < step; k++) {
            if (shown)
                out[n++] = (char)p[i + k];
            else
                n += (size_t)snprintf(out + n, size - n, "\\x%02x", p[i + k]);
        }
        i += step;
    }
    if (size)
        out[n] = '\0';
}

void kfc_text_write(FILE *out, const char *text, const char *also)
{
    const unsigned char *p = (const unsigned char *)text;
    const size_t length = strlen(text);
    for (size_t i = 0; i < length;) {
        int shown;
        const size_t n = kfc_text_char(p + i, length - i, &shown);
        if (shown && n == 1 && also && strchr(also, p[i]))
            shown = 0;
        for (size_t k = 0; k < n; k++) {
            if (shown)
                putc(p[i + k], out);
            else
                fprintf(out, "\\x%02x", p[i + k]);
        }
        i += n;
    }
}
