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

/* How a character is written: in a message, as it is unless it is not
 * shown; in a name, a backslash escaped too (and in a quoted one, the
 * quote), so that "\x1b" in a name cannot be read as an escaped ESC. */
typedef enum text_as { AS_MESSAGE, AS_NAME, AS_QUOTED } text_as;

/* The longest a character is written: 4 bytes, each escaped. */
#define SHOWN_MAX (4 * KFC_TEXT_ESCAPE_SIZE)

/* The character of `step` bytes at `p` (kfc_text_char) as written `as`,
 * into `out` (SHOWN_MAX bytes, no NUL); returns its length. */
static size_t shown_as(char *out, const unsigned char *p, size_t step, int shown, text_as as)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (as != AS_MESSAGE && step == 1 && (p[0] == '\\' || (as == AS_QUOTED && p[0] == '\''))) {
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

char *kfc_text_name(char *out, size_t size, const char *text, size_t length, int quoted)
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
        char c[SHOWN_MAX];
        const size_t step = kfc_text_char(p + i, length - i, &shown);
        const size_t need = shown_as(c, p + i, step, shown, quoted ? AS_QUOTED : AS_NAME);
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

/* `text` on `out` as written `as`, whole. */
static void put(FILE *out, const char *text, text_as as)
{
    const unsigned char *p = (const unsigned char *)text;
    const size_t length = strlen(text);
    for (size_t i = 0; i < length;) {
        int shown;
        char c[SHOWN_MAX];
        const size_t step = kfc_text_char(p + i, length - i, &shown);
        fwrite(c, 1, shown_as(c, p + i, step, shown, as), out);
        i += step;
    }
}

void kfc_text_put_name(FILE *out, const char *text, int quoted)
{
    if (quoted)
        putc('\'', out);
    put(out, text, quoted ? AS_QUOTED : AS_NAME);
    if (quoted)
        putc('\'', out);
}

void kfc_text_escape(char *out, size_t size, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    const size_t length = strlen(text);
    size_t n = 0;
    for (size_t i = 0; i < length;) {
        int shown;
        char c[SHOWN_MAX];
        const size_t step = kfc_text_char(p + i, length - i, &shown);
        const size_t need = shown_as(c, p + i, step, shown, AS_MESSAGE);
        if (n + need + 1 > size)
            break; /* cut before a character, never inside one */
        memcpy(out + n, c, need);
        n += need;
        i += step;
    }
    if (size)
        out[n] = '\0';
}

void kfc_text_write(FILE *out, const char *text)
{
    put(out, text, AS_MESSAGE);
}
