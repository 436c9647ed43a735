/* SPDX-License-Identifier: MIT */
/*
 * kfc_yaml_hint.h - what a YAML syntax error most likely means. libyaml
 * words an error by what its scanner met, which is often a line after the
 * mistake ("mapping values are not allowed in this context" where the line
 * before lacks its ':'); the source's lines usually tell which mistake it
 * was. Only the common ones are named; any other error is left as libyaml
 * words it. The same holds of the bytes libyaml cannot read as UTF-8: it
 * names the byte it stopped at, often the one after them.
 */
#ifndef KFC_YAML_HINT_H
#define KFC_YAML_HINT_H

#include <stddef.h>

#include "kfc_diag.h"

/* What libyaml reported: its problem and context (NULL: none) and their
 * marks, 0-based lines and columns (characters). */
typedef struct kfc_yaml_error {
    const char *problem;
    size_t problem_line, problem_column;
    const char *context;
    size_t context_line, context_column;
} kfc_yaml_error;

/* The error's message and place, for a mistake the source's lines show: 1,
 * with *mark and `message` (NUL-terminated, cut to `size`) set; else 0. */
int kfc_yaml_hint(const unsigned char *data, size_t size, const kfc_yaml_error *e, kfc_mark *mark,
                  char *message, size_t size_message);

/* Where a source libyaml could not read as UTF-8 is not UTF-8: 1, with
 * *at set to its first byte that is not (bytes [0, *at) are UTF-8) and
 * `message` naming the bytes and what they most likely are (a file in
 * Latin-1, cut short); 0 where the whole source is UTF-8. */
int kfc_yaml_utf8_hint(const unsigned char *data, size_t size, size_t *at, char *message,
                       size_t size_message);

#endif /* KFC_YAML_HINT_H */
