/* SPDX-License-Identifier: MIT */
/*
 * kfc_suggest.h - "did you mean ...?" for an unknown name.
 *
 * A word is compared with each candidate the caller offers. The same word
 * in another case wins (an enumeration value written "Linear"); otherwise
 * the candidates at the smallest edit distance (insertions, deletions,
 * substitutions and swaps of two neighbours, each counting 1), when that
 * distance is at most a fifth of the shorter length (at least 1) and less
 * than either length: "interpolaton", "slurp", "ball_poss", "wlak" and
 * "ColourInterpolator" are each one edit away from what was meant, and
 * "LinearInterpolator" four from any X3D node, too far. Up to three
 * candidates at that distance are named, in the order offered, each once
 * however often it is offered.
 *
 * Comparing costs up to (length + 1)^2 steps per candidate; the steps of a
 * run are counted in diag->suggest_cells and suggestions stop past
 * KFC_SUGGEST_MAX_CELLS, so that a file naming many unknown objects among
 * many known ones costs time in proportion to its size. Names longer than
 * KFC_SUGGEST_MAX_LENGTH get no suggestion.
 */
#ifndef KFC_SUGGEST_H
#define KFC_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_diag.h"

#define KFC_SUGGEST_MAX_LENGTH 128
#define KFC_SUGGEST_MAX_CELLS  ((uint64_t)200000000)
#define KFC_SUGGEST_MAX_NAMED  3

typedef struct kfc_suggest {
    kfc_diag *diag;
    const char *word;
    size_t length;
    unsigned best;    /* the best distance so far (0: same word in another case) */
    unsigned matches; /* candidates at that distance, up to KFC_SUGGEST_MAX_NAMED */
    const char *match[KFC_SUGGEST_MAX_NAMED];
    size_t match_length[KFC_SUGGEST_MAX_NAMED];
    unsigned offered; /* candidates offered */
} kfc_suggest;

/* Starts a search for `word` (`length` bytes); `diag` counts the work
 * (NULL: uncounted, for a word of a command line among a tool's options). */
void kfc_suggest_begin(kfc_suggest *s, kfc_diag *diag, const char *word, size_t length);

/* Offers a candidate (`length` bytes; it must outlive the search). */
void kfc_suggest_offer(kfc_suggest *s, const char *candidate, size_t length);

/* Writes "; did you mean 'a'?" ("'a' or 'b'", "'a', 'b' or 'c'") into `out`
 * (always NUL-terminated), or "" when no candidate is close. Returns `out`. */
char *kfc_suggest_text(const kfc_suggest *s, char *out, size_t size);
/* The same, each candidate written after `prefix` ("--" for an option
 * offered by its name). */
char *kfc_suggest_text_as(const kfc_suggest *s, const char *prefix, char *out, size_t size);

/* Another tool's name for one of kfb's, which is seldom an edit away from
 * it: {theirs, kfb's}. A list of them ends with {NULL, NULL}. */
typedef const char *const kfc_alias[2];

/* kfb's name for `word` (`length` bytes) where `aliases` (may be NULL) holds
 * it as another tool's name, ASCII case ignored; else NULL. */
const char *kfc_suggest_alias(const kfc_alias *aliases, const char *word, size_t length);

/* The same for a NULL-terminated array of candidates. */
char *kfc_suggest_among(kfc_diag *diag, const char *word, size_t length,
                        const char *const *candidates, char *out, size_t size);

#endif /* KFC_SUGGEST_H */
