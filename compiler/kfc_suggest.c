/* SPDX-License-Identifier: MIT */
#include "kfc_suggest.h"

#include <string.h>

#define NO_MATCH 0xffffffffu

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int same_but_case(const char *a, size_t n, const char *b, size_t m)
{
    if (n != m)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
            return 0;
    return 1;
}

/* Whether a and b spell one name but for case and the '_' or '-' between
 * its words (key_value, keyValue; cycle-interval), a slip no edit distance
 * limited by the name's length would forgive in a short name. */
static int same_but_spelling(const char *a, size_t n, const char *b, size_t m)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < n && (a[i] == '_' || a[i] == '-'))
            i++;
        while (j < m && (b[j] == '_' || b[j] == '-'))
            j++;
        if (i == n || j == m)
            return i == n && j == m;
        if (lower((unsigned char)a[i++]) != lower((unsigned char)b[j++]))
            return 0;
    }
}

const char *kfc_suggest_alias(const kfc_alias *aliases, const char *word, size_t length)
{
    for (; aliases && (*aliases)[0]; aliases++)
        if (same_but_case((*aliases)[0], strlen((*aliases)[0]), word, length))
            return (*aliases)[1];
    return NULL;
}

/* The optimal string alignment distance of a and b (bytes; both at most
 * KFC_SUGGEST_MAX_LENGTH), or more than `limit` once it must be: a row's
 * cells come from the row before or, by a swap, the one before that, so
 * two rows above the limit end the search. */
static unsigned distance(const char *a, size_t n, const char *b, size_t m, unsigned limit)
{
    unsigned rows[3][KFC_SUGGEST_MAX_LENGTH + 1];
    unsigned *before = rows[0], *previous = rows[1], *current = rows[2];
    for (size_t j = 0; j <= m; j++)
        previous[j] = (unsigned)j;
    unsigned previous_best = 0;
    for (size_t i = 1; i <= n; i++) {
        current[0] = (unsigned)i;
        unsigned row_best = current[0];
        for (size_t j = 1; j <= m; j++) {
            const unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
            unsigned d = previous[j - 1] + cost;
            if (previous[j] + 1 < d)
                d = previous[j] + 1;
            if (current[j - 1] + 1 < d)
                d = current[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + 1 < d)
                d = before[j - 2] + 1;
            current[j] = d;
            if (d < row_best)
                row_best = d;
        }
        if (row_best > limit && previous_best > limit)
            return limit + 1;
        previous_best = row_best;
        unsigned *t = before;
        before = previous;
        previous = current;
        current = t;
    }
    return previous[m];
}

void kfc_suggest_begin(kfc_suggest *s, kfc_diag *diag, const char *word, size_t length)
{
    memset(s, 0, sizeof *s);
    s->diag = diag;
    s->word = word;
    s->length = length;
    s->best = NO_MATCH;
}

static void keep(kfc_suggest *s, unsigned d, const char *candidate, size_t length)
{
    if (d < s->best) {
        s->best = d;
        s->matches = 0;
    }
    /* A name offered again (two animations of one name) is named once. */
    for (unsigned i = 0; d == s->best && i < s->matches; i++)
        if (s->match_length[i] == length && memcmp(s->match[i], candidate, length) == 0)
            return;
    if (d == s->best && s->matches < KFC_SUGGEST_MAX_NAMED) {
        s->match[s->matches] = candidate;
        s->match_length[s->matches] = length;
        s->matches++;
    }
}

void kfc_suggest_offer(kfc_suggest *s, const char *candidate, size_t length)
{
    s->offered++;
    if (s->length == length && memcmp(s->word, candidate, length) == 0)
        return; /* the word itself is no suggestion */
    if (same_but_spelling(s->word, s->length, candidate, length)) {
        keep(s, 0, candidate, length);
        return;
    }
    if (s->best == 0 || s->length > KFC_SUGGEST_MAX_LENGTH || length > KFC_SUGGEST_MAX_LENGTH)
        return;
    const size_t shorter = s->length < length ? s->length : length;
    const size_t longer = s->length < length ? length : s->length;
    size_t limit = (shorter + 1) / 5 > 1 ? (shorter + 1) / 5 : 1;
    if (limit >= shorter) /* a suggestion keeps something of the word */
        limit = shorter ? shorter - 1 : 0;
    if (s->best < limit) /* only as close as the best, or closer */
        limit = s->best;
    if (limit == 0 || longer - shorter > limit)
        return;
    const uint64_t cells = (uint64_t)(s->length + 1) * (length + 1);
    if (s->diag) {
        if (s->diag->suggest_cells > KFC_SUGGEST_MAX_CELLS - cells)
            return;
        s->diag->suggest_cells += cells;
    }
    const unsigned d = distance(s->word, s->length, candidate, length, (unsigned)limit);
    if (d <= limit)
        keep(s, d, candidate, length);
}

char *kfc_suggest_text(const kfc_suggest *s, char *out, size_t size)
{
    return kfc_suggest_text_as(s, "", out, size);
}

char *kfc_suggest_text_as(const kfc_suggest *s, const char *prefix, char *out, size_t size)
{
    out[0] = '\0';
    if (!s->matches)
        return out;
    size_t n = (size_t)snprintf(out, size, "; did you mean ");
    for (unsigned i = 0; i < s->matches && n < size; i++) {
        char quoted[KFC_QUOTE_SIZE], named[KFC_QUOTE_SIZE];
        const char *joint = i == 0 ? "" : i + 1 == s->matches ? " or " : ", ";
        snprintf(named, sizeof named, "%s%.*s", prefix,
                 (int)(s->match_length[i] < 64 ? s->match_length[i] : 64), s->match[i]);
        n += (size_t)snprintf(out + n, size - n, "%s%s", joint,
                              kfc_quote(quoted, named, strlen(named)));
    }
    if (n < size)
        snprintf(out + n, size - n, "?");
    return out;
}

char *kfc_suggest_among(kfc_diag *diag, const char *word, size_t length,
                        const char *const *candidates, char *out, size_t size)
{
    kfc_suggest s;
    kfc_suggest_begin(&s, diag, word, length);
    for (size_t i = 0; candidates[i]; i++)
        kfc_suggest_offer(&s, candidates[i], strlen(candidates[i]));
    return kfc_suggest_text(&s, out, size);
}
