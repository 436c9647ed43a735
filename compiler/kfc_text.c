/* SPDX-License-Identifier: MIT */
#include "kfc_text.h"

#include <string.h>

int kfc_text_plain(const char *text, size_t length)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < length;) {
        int shown;
        i += kf_text_char(p + i, length - i, &shown);
        if (!shown)
            return 0;
    }
    return 1;
}

/* `text` on `out` as written `as`, whole. */
static void put(FILE *out, const char *text, kf_text_as as)
{
    const unsigned char *p = (const unsigned char *)text;
    const size_t length = strlen(text);
    for (size_t i = 0; i < length;) {
        int shown;
        char c[KF_TEXT_SHOWN_MAX];
        const size_t step = kf_text_char(p + i, length - i, &shown);
        fwrite(c, 1, kf_text_shown(c, p + i, step, shown, as), out);
        i += step;
    }
}

void kfc_text_put_name(FILE *out, const char *text, int quoted)
{
    if (quoted)
        putc('\'', out);
    put(out, text, quoted ? KF_TEXT_QUOTED : KF_TEXT_NAME);
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
        char c[KF_TEXT_SHOWN_MAX];
        const size_t step = kf_text_char(p + i, length - i, &shown);
        const size_t need = kf_text_shown(c, p + i, step, shown, KF_TEXT_MESSAGE);
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
    put(out, text, KF_TEXT_MESSAGE);
}
