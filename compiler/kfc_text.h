/* SPDX-License-Identifier: MIT */
/*
 * kfc_text.h - names and messages as they may be shown on a terminal.
 *
 * A name comes from a file (a .kfb from a third party, a source, a scene)
 * and may hold bytes a terminal acts on: C0 controls and DEL, the C1
 * controls U+0080 to U+009F (UTF-8 C2 80 to C2 9F, which terminals that act
 * on C1 take as CSI, OSC and the others), and bytes that are not UTF-8
 * (which a terminal may read as C1 in another encoding). Those bytes are
 * not shown: they print as \xNN, one escape a byte.
 *
 * A name (or any text of a file or the command line that a message quotes,
 * a file's name too) prints as it is but for those bytes and a backslash,
 * written \\; in a quote, a quote is written \'. So the text printed reads
 * back as one name: a name holding ESC shows as \x1b, one holding the four
 * characters \x1b as \\x1b. kfc's diagnostics and notes, and kfplay's
 * list, rows, dump and messages, write every name so, where they quote it
 * (kfc_text_name, kfc_text_put_name); a whole message is written through
 * kfc_text_write or kfc_text_escape, which escape only the bytes not shown,
 * so that a name the message quotes is not escaped twice.
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

/* The name `text` (`length` bytes, not necessarily NUL-terminated) into
 * `out` (`size` bytes, at least 8; NUL-terminated), between single quotes
 * when `quoted`; where it does not fit, cut between characters with "...".
 * Returns `out`. */
char *kfc_text_name(char *out, size_t size, const char *text, size_t length, int quoted);

/* Writes the NUL-terminated name `text` to `out` whole, between single
 * quotes when `quoted`. */
void kfc_text_put_name(FILE *out, const char *text, int quoted);

/* A message `text` into `out` (`size` bytes, NUL-terminated, cut to fit
 * between characters), each byte not shown as \xNN: a message held before
 * it is printed (one line, whatever the names it quotes hold). */
void kfc_text_escape(char *out, size_t size, const char *text);

/* Writes the NUL-terminated message `text` to `out`, each byte not shown
 * as \xNN. */
void kfc_text_write(FILE *out, const char *text);

#endif /* KFC_TEXT_H */
