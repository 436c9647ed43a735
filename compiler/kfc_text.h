/* SPDX-License-Identifier: MIT */
/*
 * kfc_text.h - names and messages as they may be shown on a terminal.
 *
 * A name comes from a file (a .kfb from a third party, a source, a scene)
 * and may hold bytes a terminal acts on: C0 controls and DEL, the C1
 * controls U+0080 to U+009F (UTF-8 C2 80 to C2 9F, which terminals that act
 * on C1 take as CSI, OSC and the others), and bytes that are not UTF-8
 * (which a terminal may read as C1 in another encoding). Those bytes print
 * as \xNN, one escape a byte; every other character prints as it is. kfc's
 * diagnostics and every name and message kfplay prints are written through
 * this, so that both tools show the same name the same way.
 */
#ifndef KFC_TEXT_H
#define KFC_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* The length of one escaped byte: "\xNN". */
#define KFC_TEXT_ESCAPE_SIZE 4

/* The character at `p` (`left` bytes, at least 1): returns its length in
 * bytes, and *shown is 1 when it prints as it is. A byte that starts no
 * valid UTF-8 sequence is one character, not shown; a C1 control is a
 * character of 2 bytes, not shown (each of its bytes is escaped). */
size_t kfc_text_char(const unsigned char *p, size_t left, int *shown);

/* 1 when every byte of `text` (`length` bytes) prints as it is. */
int kfc_text_plain(const char *text, size_t length);

/* `text` into `out` (`size` bytes, NUL-terminated, cut to fit between
 * characters), each byte not shown as \xNN: a message held before it is
 * printed (one line, whatever the names it quotes hold). */
void kfc_text_escape(char *out, size_t size, const char *text);

/* Writes the NUL-terminated `text` to `out`, each byte not shown as \xNN,
 * and so also the ASCII bytes `also` lists (NULL: none; a quoted name's
 * quote, say). */
void kfc_text_write(FILE *out, const char *text, const char *also);

#endif /* KFC_TEXT_H */
