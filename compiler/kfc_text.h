/* SPDX-License-Identifier: MIT */
/*
 * kfc_text.h - names and messages on a terminal, as kfc and kfplay write
 * them: by the rule of runtime/kf_text.h (bytes a terminal acts on as
 * \xNN; in a name, a backslash as \\, and in a quoted one a quote as \'),
 * which the library's own messages follow too. kfc's diagnostics and
 * notes, and kfplay's list, rows, dump, plots and messages, write every
 * name so, where they quote it (kf_text_name, kfc_text_put_name); a whole
 * message is written through kfc_text_write or kfc_text_escape, which
 * escape only the bytes not shown, so that a name the message quotes is
 * not escaped twice.
 */
#ifndef KFC_TEXT_H
#define KFC_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "kf_text.h"

/* 1 when every byte of `text` (`length` bytes) prints as it is. */
int kfc_text_plain(const char *text, size_t length);

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
