/* SPDX-License-Identifier: MIT */
#include "kfc_schema.h"

#include <math.h>
#include <string.h>

#include "kfc_number.h"
#include "kfc_suggest.h"

/* What an empty value (a key with nothing after it, a section whose every
 * entry is commented out) is, said where another node was expected. */
static const char *got(const kfc_node *node)
{
    return kfc_node_empty(node) ? ", got nothing (an empty value)" : "";
}

int kfc_node_empty(const kfc_node *node)
{
    return node->kind == KFC_NODE_SCALAR && node->plain && node->count == 0;
}

kfc_status kfc_expect_mapping_hint(const kfc_node *node, const char *hint, kfc_diag *diag)
{
    if (node->kind == KFC_NODE_MAPPING)
        return KFC_OK;
    return kfc_fail(diag, KFC_INVALID, node->mark, "expected a mapping%s%s%s", got(node),
                    hint ? ": " : "", hint ? hint : "");
}

kfc_status kfc_expect_mapping(const kfc_node *node, kfc_diag *diag)
{
    return kfc_expect_mapping_hint(node, NULL, diag);
}

/* Whether a scalar is numbers in a row, as X3D writes a field ("0 1",
 * "0 1 0 0, 0 1 0 1.57"): digits, signs, points and exponents, split by
 * spaces or commas. */
static int numbers_in_a_row(const kfc_node *node)
{
    if (node->kind != KFC_NODE_SCALAR)
        return 0;
    int digits = 0, splits = 0;
    for (size_t i = 0; i < node->count; i++) {
        const char c = node->as.text[i];
        if (c >= '0' && c <= '9')
            digits = 1;
        else if (c == ' ' || c == ',' || c == '\t')
            splits = digits;
        else if (c == '\0' || !strchr("+-.eE", c))
            return 0;
    }
    return digits && splits;
}

kfc_status kfc_expect_list_hint(const kfc_node *node, const char *hint, kfc_diag *diag)
{
    if (node->kind == KFC_NODE_SEQUENCE)
        return KFC_OK;
    if (numbers_in_a_row(node))
        return kfc_fail(diag, KFC_INVALID, node->mark,
                        "expected a list, not numbers in a row as X3D writes a field: write them "
                        "as a YAML list, [0, 1]");
    return kfc_fail(diag, KFC_INVALID, node->mark, "expected a list%s%s%s", got(node),
                    hint ? ": " : "", hint ? hint : "");
}

kfc_status kfc_expect_list(const kfc_node *node, kfc_diag *diag)
{
    return kfc_expect_list_hint(node, NULL, diag);
}

/* The field names closest to `key`, as a kfc_suggest. */
static void suggest_field(kfc_suggest *sg, const kfc_node *key, const char *const *names,
                          size_t count, kfc_diag *diag)
{
    kfc_suggest_begin(sg, diag, key->as.text, key->count);
    for (size_t f = 0; f < count; f++)
        kfc_suggest_offer(sg, names[f], strlen(names[f]));
}

static kfc_status unknown_field(const kfc_node *key, const char *const *names, size_t count,
                                const kfc_suggest *sg, kfc_diag *diag)
{
    char quoted[KFC_QUOTE_SIZE], expected[160], mean[160];
    if (kfc_scalar_is(key, "<<"))
        return kfc_fail(diag, KFC_INVALID, key->mark,
                        "merge keys ('<<') are not supported: give the fields, or share a whole "
                        "entry with an alias (*name)");
    size_t n = 0;
    expected[0] = '\0';
    for (size_t f = 0; f < count && n < sizeof expected; f++)
        n += (size_t)snprintf(expected + n, sizeof expected - n, "%s%s", f ? ", " : "", names[f]);
    return kfc_fail(diag, KFC_INVALID, key->mark, "unknown field %s (expected %s)%s",
                    kfc_quote(quoted, key->as.text, key->count), expected,
                    kfc_suggest_text(sg, mean, sizeof mean));
}

kfc_status kfc_fields_suggesting(const kfc_node *map, const char *const *names, size_t count,
                                 const kfc_node **values, unsigned *suggested, kfc_diag *diag)
{
    kfc_status st = kfc_expect_mapping(map, diag);
    if (st)
        return st;
    for (size_t f = 0; f < count; f++)
        values[f] = NULL;
    for (uint32_t i = 0; i < map->count; i++) {
        const kfc_node *key = kfc_map_key(map, i);
        if (kfc_map_value(map, i)->kind == KFC_NODE_CONSUMED)
            continue; /* a repeated key, reported by the parser */
        size_t f = 0;
        while (f < count && !kfc_scalar_is(key, names[f]))
            f++;
        if (f < count) {
            values[f] = kfc_map_value(map, i);
            continue;
        }
        /* A merge key (<<) stood for fields, any of them: none is then
         * reported missing. */
        if (suggested && kfc_scalar_is(key, "<<"))
            *suggested = ~0u;
        kfc_suggest sg;
        suggest_field(&sg, key, names, count, diag);
        for (unsigned m = 0; suggested && m < sg.matches; m++)
            for (size_t k = 0; k < count && k < 32; k++)
                if (names[k] == sg.match[m])
                    *suggested |= 1u << k;
        if ((st = kfc_recover(diag, unknown_field(key, names, count, &sg, diag))))
            return st;
    }
    return KFC_OK;
}

kfc_status kfc_fields(const kfc_node *map, const char *const *names, size_t count,
                      const kfc_node **values, kfc_diag *diag)
{
    return kfc_fields_suggesting(map, names, count, values, NULL, diag);
}

kfc_status kfc_unknown_field(const kfc_node *key, const char *const *names, size_t count,
                             kfc_diag *diag)
{
    kfc_suggest sg;
    suggest_field(&sg, key, names, count, diag);
    return unknown_field(key, names, count, &sg, diag);
}

kfc_status kfc_require(const kfc_node *map, const kfc_node *value, const char *name, kfc_diag *diag)
{
    if (value)
        return KFC_OK;
    return kfc_fail(diag, KFC_INVALID, map->mark, "missing required field '%s'", name);
}

kfc_status kfc_get_number(const kfc_node *node, double *out, kfc_diag *diag)
{
    char quoted[KFC_QUOTE_SIZE];
    if (node->kind != KFC_NODE_SCALAR)
        return kfc_fail(diag, KFC_INVALID, node->mark, "expected a number");
    if (!node->plain)
        return kfc_fail(diag, KFC_INVALID, node->mark,
                        "expected a number, got the quoted string %s (numbers are not quoted)",
                        kfc_quote(quoted, node->as.text, node->count));
    switch (kfc_parse_number(node->as.text, node->count, out)) {
    case KFC_NUMBER_OK:
        return KFC_OK;
    case KFC_NUMBER_NONFINITE:
        return kfc_fail(diag, KFC_INVALID, node->mark, "numbers must be finite, got %s",
                        kfc_quote(quoted, node->as.text, node->count));
    case KFC_NUMBER_RANGE:
        return kfc_fail(diag, KFC_INVALID, node->mark, "number %s is out of range",
                        kfc_quote(quoted, node->as.text, node->count));
    default:
        break;
    }
    /* "0,3": a decimal comma, most likely. */
    const char *t = node->as.text, *comma = memchr(t, ',', node->count);
    const size_t head = comma ? (size_t)(comma - t) : 0,
                 sign = head && (t[0] == '-' || t[0] == '+');
    int digits = comma && head > sign && head + 1 < node->count;
    for (size_t i = sign; digits && i < node->count; i++)
        digits = i == head || (t[i] >= '0' && t[i] <= '9');
    if (digits) {
        return kfc_fail(diag, KFC_INVALID, node->mark,
                        "expected a number, got %s: decimals are written with '.' (%.*s.%.*s)",
                        kfc_quote(quoted, node->as.text, node->count), (int)head, node->as.text,
                        (int)(node->count - head - 1), comma + 1);
    }
    double seconds;
    if (kfc_number_time_unit(node->as.text, node->count, &seconds))
        return kfc_fail(diag, KFC_INVALID, node->mark,
                        "expected a number, got %s: " KFC_NUMBER_NO_UNIT,
                        kfc_quote(quoted, node->as.text, node->count), seconds);
    return kfc_fail(diag, KFC_INVALID, node->mark, "expected a number, got %s (%s)",
                    kfc_quote(quoted, node->as.text, node->count), KFC_NUMBER_FORMS);
}

kfc_status kfc_get_float(const kfc_node *node, double *out, kfc_diag *diag)
{
    kfc_status st = kfc_get_number(node, out, diag);
    if (st || kfc_fits_float(*out))
        return st;
    char quoted[KFC_QUOTE_SIZE];
    return kfc_fail(diag, KFC_INVALID, node->mark, "number %s is out of float32 range",
                    kfc_quote(quoted, node->as.text, node->count));
}

kfc_status kfc_get_uint(const kfc_node *node, uint32_t min, uint32_t max, uint32_t *out,
                        kfc_diag *diag)
{
    double v;
    kfc_status st = kfc_get_number(node, &v, diag);
    if (st)
        return st;
    char quoted[KFC_QUOTE_SIZE];
    if (v != floor(v))
        return kfc_fail(diag, KFC_INVALID, node->mark, "expected an integer, got %s",
                        kfc_quote(quoted, node->as.text, node->count));
    if (v < (double)min || v > (double)max)
        return kfc_fail(
            diag, KFC_INVALID, node->mark, "integer %s is out of range (expected %lu to %lu)",
            kfc_quote(quoted, node->as.text, node->count), (unsigned long)min, (unsigned long)max);
    *out = (uint32_t)v;
    return KFC_OK;
}

kfc_status kfc_get_number_pair(const kfc_node *node, const char *shape, int as_float, double out[2],
                               kfc_diag *diag)
{
    if (node->kind != KFC_NODE_SEQUENCE || node->count != 2)
        return kfc_fail(diag, KFC_INVALID, node->mark, "expected a list of two numbers %s", shape);
    kfc_status first = KFC_OK, st;
    for (uint32_t i = 0; i < 2; i++)
        if ((st = kfc_recover_next(diag,
                                   as_float ? kfc_get_float(&node->as.items[i], &out[i], diag)
                                            : kfc_get_number(&node->as.items[i], &out[i], diag),
                                   &first)))
            return st;
    return first;
}

kfc_status kfc_get_floats(const kfc_node *items, uint32_t count, double *out, kfc_diag *diag)
{
    kfc_status first = KFC_OK, st;
    for (uint32_t c = 0; c < count; c++) {
        double discard;
        if ((st = kfc_recover_next(diag, kfc_get_float(&items[c], out ? &out[c] : &discard, diag),
                                   &first)))
            return st;
    }
    return first;
}

kfc_status kfc_get_bool(const kfc_node *node, int *out, kfc_diag *diag)
{
    if (node->kind == KFC_NODE_SCALAR && node->plain) {
        if (kfc_scalar_is(node, "true") || kfc_scalar_is(node, "false")) {
            *out = kfc_scalar_is(node, "true");
            return KFC_OK;
        }
    }
    if (node->kind != KFC_NODE_SCALAR)
        return kfc_fail(diag, KFC_INVALID, node->mark, "expected true or false");
    char quoted[KFC_QUOTE_SIZE];
    return kfc_fail(diag, KFC_INVALID, node->mark, "expected true or false, got %s",
                    kfc_quote(quoted, node->as.text, node->count));
}

kfc_status kfc_get_string(const kfc_node *node, const char **out, kfc_diag *diag)
{
    if (node->kind != KFC_NODE_SCALAR)
        return kfc_fail(diag, KFC_INVALID, node->mark, "expected a string");
    if (memchr(node->as.text, '\0', node->count))
        return kfc_fail(diag, KFC_INVALID, node->mark, "a string must not contain NUL characters");
    *out = node->as.text;
    return KFC_OK;
}

kfc_status kfc_get_enum(const kfc_node *node, kfc_enum_name_fn name_of, const char *what,
                        const kfc_alias *aliases, int *out, kfc_diag *diag)
{
    const char *text = NULL; /* gcc -O3 cannot see kfc_get_string set it */
    kfc_status st = kfc_get_string(node, &text, diag);
    if (st)
        return st;
    const char *name;
    char expected[256]; /* the 14 follower nodes */
    size_t n = 0;
    expected[0] = '\0';
    kfc_suggest sg;
    kfc_suggest_begin(&sg, diag, node->as.text, node->count);
    for (int i = 0; (name = name_of(i)) != NULL; i++) {
        if (strcmp(name, text) == 0) {
            *out = i;
            return KFC_OK;
        }
        if (n < sizeof expected)
            n += (size_t)snprintf(expected + n, sizeof expected - n, "%s%s", i ? ", " : "", name);
        kfc_suggest_offer(&sg, name, strlen(name));
    }
    char quoted[KFC_QUOTE_SIZE], mean[160];
    const char *alias = kfc_suggest_alias(aliases, node->as.text, node->count);
    if (alias)
        snprintf(mean, sizeof mean, "; did you mean '%s'?", alias);
    else
        kfc_suggest_text(&sg, mean, sizeof mean);
    return kfc_fail(diag, KFC_INVALID, node->mark, "unknown %s %s (expected %s)%s", what,
                    kfc_quote(quoted, node->as.text, node->count), expected, mean);
}
