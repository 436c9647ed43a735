/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of kfc's YAML layer (compiler/kfc_yaml.c): tree shape, marks,
 * and every limit, with the exact diagnostics; and the held diagnostics
 * the source reads a section's entries under (kfc_diag_hold).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kfc_yaml.h"

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* Parses `text`; expects failure with `status` at line:col and `message`. */
static void expect_error(const char *text, size_t size, const kfc_yaml_limits *limits,
                         kfc_status status, unsigned line, unsigned col, const char *message)
{
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    kfc_status st = kfc_yaml_parse(text, size, limits, NULL, &doc, &diag);
    if (st != status || diag.mark.line != line || diag.mark.column != col ||
        strcmp(diag.message, message) != 0) {
        fprintf(stderr, "input %.40s...\n  expected %d %u:%u: %s\n  got      %d %lu:%lu: %s\n",
                text, (int)status, line, col, message, (int)st, (unsigned long)diag.mark.line,
                (unsigned long)diag.mark.column, diag.message);
        failures++;
    }
    kfc_document_free(&doc);
}

/* The value of the pair whose key is `key` in mapping `map`, or NULL. */
static const kfc_node *map_find(const kfc_node *map, const char *key)
{
    for (uint32_t i = 0; i < map->count; i++)
        if (kfc_scalar_is(kfc_map_key(map, i), key))
            return kfc_map_value(map, i);
    return NULL;
}

static void expect_error_str(const char *text, unsigned line, unsigned col, const char *message)
{
    expect_error(text, strlen(text), NULL, KFC_INVALID, line, col, message);
}

static void test_tree(void)
{
    const char *text = "a: 1\n"
                       "b: [x, 'y', {c: d}]\n"
                       "e: &k {f: 2}\n"
                       "g: *k\n";
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(text, strlen(text), NULL, NULL, &doc, &diag) == KFC_OK);
    const kfc_node *root = &doc.root;
    CHECK(root->kind == KFC_NODE_MAPPING && root->count == 4);
    CHECK(root->mark.line == 1 && root->mark.column == 1);
    const kfc_node *a = map_find(root, "a");
    CHECK(a && kfc_scalar_is(a, "1") && a->plain && a->mark.line == 1 && a->mark.column == 4);
    const kfc_node *b = map_find(root, "b");
    CHECK(b && b->kind == KFC_NODE_SEQUENCE && b->count == 3);
    CHECK(b->mark.line == 2 && b->mark.column == 4);
    CHECK(kfc_scalar_is(&b->as.items[1], "y") && !b->as.items[1].plain);
    CHECK(b->as.items[1].mark.column == 8);
    CHECK(b->as.items[2].kind == KFC_NODE_MAPPING && b->as.items[2].count == 1);
    const kfc_node *g = map_find(root, "g");
    CHECK(g && g->kind == KFC_NODE_MAPPING && g->mark.line == 4 && g->mark.column == 4);
    CHECK(g && kfc_scalar_is(map_find(g, "f"), "2"));
    CHECK(map_find(root, "zz") == NULL);
    kfc_document_free(&doc);
}

static void test_syntax(void)
{
    expect_error_str("a: [1, 2]]\n", 1, 10,
                     "did not find expected key (while parsing a block mapping at 1:1)");
    expect_error_str("a: [1 2,\n", 2, 1,
                     "did not find expected node content (while parsing a flow node at 2:1)");
    expect_error_str("a:\n\tb: 1\n", 2, 1,
                     "found character that cannot start any token (while scanning for the next "
                     "token at 2:1): a tab, and YAML indents with spaces");
    expect_error_str("a: @b\n", 1, 4,
                     "found character that cannot start any token (while scanning for the next "
                     "token at 1:4)");
    expect_error_str("a: 1\nb: [c: d: e]\n", 2, 9,
                     "did not find expected ',' or ']' (while parsing a flow sequence at 2:4)");
    expect_error_str("", 1, 1, "the input holds no YAML document");
    expect_error_str("# only a comment\n", 1, 1, "the input holds no YAML document");
    expect_error_str("a: 1\n---\nb: 2\n", 2, 1, "expected a single YAML document");
}

/* Bytes that are not UTF-8: named at the first of them, at the line and
 * column (characters) libyaml's scanner would give there, whatever byte
 * libyaml stopped at. */
static void test_encoding(void)
{
    static const char latin1[] = "(is the file Latin-1 or Windows-1252? save it as UTF-8)";
    char m[160];
    snprintf(m, sizeof m, "byte 0xE9 is not UTF-8 %s", latin1);
    expect_error_str("a: caf\xe9 b\n", 1, 7, m); /* libyaml: at the ' ' */
    expect_error_str("a: caf\xe9\n", 1, 7, m);   /* at the line break */
    expect_error_str("a: caf\xe9", 1, 7, m);     /* at the end */
    expect_error_str("a: \xc3\xaf\xe2\x82\xac\xf0\x9f\x98\x80\xe9\n", 1, 7, m);
    /* a byte order mark is no column; "\r\n", "\r", U+0085 and U+2028 end lines */
    expect_error_str("\xef\xbb\xbf"
                     "a: \xe9\n",
                     1, 4, m);
    expect_error_str("a: 1\r\nb: 2\rc: \xe9\n", 3, 4, m);
    expect_error_str("a: 1\n# \xc2\x85"
                     "c: \xe9\n",
                     3, 4, m);
    expect_error_str("a: 1\n# \xe2\x80\xa8"
                     "c: \xe9\n",
                     3, 4, m);
    snprintf(m, sizeof m, "byte 0xFF is not UTF-8 %s", latin1);
    expect_error_str("a: \xff\n", 1, 4, m);
    snprintf(m, sizeof m, "byte 0x80 is not UTF-8 %s", latin1);
    expect_error_str("a: b\x80\n", 1, 5, m);
    snprintf(m, sizeof m, "bytes 0xF0 0x9F 0x98 are not UTF-8 %s", latin1);
    expect_error_str("a: \xf0\x9f\x98x\n", 1, 4, m);
    expect_error_str("a: b\xe2\x82", 1, 5,
                     "the file ends inside a UTF-8 character: bytes 0xE2 0x82 begin one of 3 bytes "
                     "(is the file cut short?)");
    expect_error_str("a: \xc1\xbf\n", 1, 4,
                     "byte 0xC1 is not UTF-8 (is the file Latin-1 or Windows-1252? save it as "
                     "UTF-8)");
    expect_error_str("a: \xf0\x80\x80\x80\n", 1, 4,
                     "bytes 0xF0 0x80 0x80 0x80 are not UTF-8: they write U+0000 in more bytes "
                     "than UTF-8 does");
    expect_error_str("a: \xed\xbf\xbf\n", 1, 4,
                     "bytes 0xED 0xBF 0xBF are not UTF-8: they write U+DFFF, half of a UTF-16 "
                     "surrogate pair (UTF-8 writes the pair's character in 4 bytes)");
    expect_error_str("a: \xf7\xbf\xbf\xbf\n", 1, 4,
                     "byte 0xF7 is not UTF-8 (is the file Latin-1 or Windows-1252? save it as "
                     "UTF-8)");
    /* the first thing libyaml cannot read is said, not a later one */
    expect_error_str("a: \x07\xe9\n", 1, 4, "control characters are not allowed (U+0007)");
    expect_error_str("a: \xef\xbf\xbe\n", 1, 4, "control characters are not allowed (U+FFFE)");
}

/* A key longer than YAML 1.1's implicit key (1024 characters), which
 * libyaml meets as a ':' in a value: said at the key, with the explicit
 * form that reads. */
static void test_long_keys(void)
{
    static const char said[] = "a key longer than 1024 characters must be written as an "
                               "explicit key: '? NAME' on its own line, then ': ...'";
    char text[1200], key[1031];
    memset(key, 'a', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    snprintf(text, sizeof text, "s:\n  %s: 1\n", key);
    expect_error_str(text, 2, 3, said);
    snprintf(text, sizeof text, "s:\n  - \"%s\": 1\n", key + 3);
    expect_error_str(text, 2, 5, said);
    /* characters, not bytes: 1025 just past it ("\xc3\xa9" is one) */
    snprintf(text, sizeof text, "s:\n  \xc3\xa9%s: 1\n", key + 6);
    expect_error_str(text, 2, 3, said);
    /* 1024 characters read, and so does the explicit key */
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    snprintf(text, sizeof text, "s:\n  %s: 1\n", key + 6);
    CHECK(kfc_yaml_parse(text, strlen(text), NULL, NULL, &doc, &diag) == KFC_OK);
    kfc_document_free(&doc);
    snprintf(text, sizeof text, "s:\n  \xc3\xa9%s: 1\n", key + 7);
    CHECK(kfc_yaml_parse(text, strlen(text), NULL, NULL, &doc, &diag) == KFC_OK);
    kfc_document_free(&doc);
    snprintf(text, sizeof text, "s:\n  ? %s\n  : 1\n", key);
    CHECK(kfc_yaml_parse(text, strlen(text), NULL, NULL, &doc, &diag) == KFC_OK);
    kfc_document_free(&doc);
}

/* What a syntax error most likely means, from the source's lines
 * (kfc_yaml_hint.c), at the mistake. */
static void test_syntax_hints(void)
{
    /* a key without its ':', the line below indented under it (after a
     * comment, a blank line, CRLF); a field without it (two words) */
    expect_error_str("s:\n  hip\n    a: 1\n", 2, 6,
                     "expected ':' after 'hip' (the line below is indented under it)");
    expect_error_str("s:\r\n  hip   # the hip\r\n\r\n  # its fields\r\n    a: 1\r\n", 2, 6,
                     "expected ':' after 'hip' (the line below is indented under it)");
    expect_error_str("s:\n  h\xc3\xafp\n    a: 1\n", 2, 6,
                     "expected ':' after 'h\xc3\xafp' (the line below is indented under it)");
    expect_error_str("s:\n  hip:\n    interpolation linear\n    duration: 2\n", 3, 25,
                     "expected ':' after 'interpolation': write 'interpolation: linear'");
    /* no blank after a key's ':' */
    expect_error_str("s:\n  duration:2\n  keys: []\n", 2, 11,
                     "a ':' ends a key only before a space: write 'duration: 2'");
    expect_error_str("s:\n  a: 1\n  duration:2\n", 3, 11,
                     "a ':' ends a key only before a space: write 'duration: 2'");
    /* a line indented under a key: value */
    expect_error_str("a: 1\n b: 2\n", 2, 2,
                     "this line is indented more than 'a: 1' above it, so it is read as more of "
                     "that value: the fields of one entry line up");
    /* a second ': ' in a value */
    expect_error_str("a: 1\nnote: loops: twice\n", 2, 12,
                     "mapping values are not allowed in this context: a value that holds ': ' "
                     "needs quotes");
    /* an indentation no line above has */
    expect_error_str("s:\n  t:\n    a: 1\n   b: 2\n", 4, 4,
                     "did not find expected key: this line's indentation (3 spaces) lines up "
                     "with no line above it; the fields of one entry line up, as do the items "
                     "of one list");
    expect_error_str("k:\n  - 1\n - 2\n", 3, 2,
                     "did not find expected key: this line's indentation (1 space) lines up "
                     "with no line above it; the fields of one entry line up, as do the items "
                     "of one list");
    /* a flow collection not closed by the end of its line */
    expect_error_str("a: [1, 2\n", 1, 9,
                     "the list opened at 1:4 is not closed: expected ']' at the end of this "
                     "line, or a ',' before the next item");
    expect_error_str("a: [[0, 1],\n    [1, 2]\n    [2, 3]]\n", 2, 11,
                     "the list opened at 1:4 is not closed: expected ']' at the end of this "
                     "line, or a ',' before the next item");
    expect_error_str("a: {b: 1\nc: 2\n", 1, 9,
                     "the mapping opened at 1:4 is not closed: expected '}' at the end of this "
                     "line, or a ',' before the next field");
    /* nothing the lines show: libyaml's words */
    expect_error_str("kfb: 1\n- a\n", 2, 1,
                     "did not find expected key (while parsing a block mapping at 1:1)");
    test_long_keys();
}

static void test_schema_free_checks(void)
{
    expect_error_str("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first at 1:1)");
    expect_error_str("{x: 1, 'x': 2}", 1, 8, "duplicate key 'x' (first at 1:2)");
    expect_error_str("? [a]\n: 1\n", 1, 3, "a mapping key must be a scalar");
    expect_error_str("a: !!str 1\n", 1, 4,
                     "tags are not supported (found 'tag:yaml.org,2002:str')");
    expect_error_str("a: *nope\n", 1, 4, "undefined alias 'nope'");
    expect_error_str("a: &x [*x]\n", 1, 8, "undefined alias 'x'");
    expect_error_str("\"a\\nb\": 1\n\"a\\nb\": 2\n", 2, 1,
                     "duplicate key 'a\\x0ab' (first at 1:1)");

    /* A large mapping goes through the hash path; the duplicate is last. */
    size_t n = 5000, cap = n * 16 + 64, len = 0;
    char *big = malloc(cap);
    CHECK(big != NULL);
    if (!big)
        return;
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(big + len, cap - len, "k%zu: %zu\n", i, i);
    len += (size_t)snprintf(big + len, cap - len, "k17: 0\n");
    expect_error(big, len, NULL, KFC_INVALID, (unsigned)n + 1, 1,
                 "duplicate key 'k17' (first at 18:1)");
    /* Without the duplicate it parses. */
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(big, len - 8, NULL, NULL, &doc, &diag) == KFC_OK);
    CHECK(doc.root.count == n);
    kfc_document_free(&doc);
    free(big);
}

static void test_depth(void)
{
    char text[256];
    size_t n = 0;
    for (int i = 0; i < 64; i++)
        text[n++] = '[';
    for (int i = 0; i < 64; i++)
        text[n++] = ']';
    text[n] = '\0';
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(text, n, NULL, NULL, &doc, &diag) == KFC_OK);
    kfc_document_free(&doc);

    /* (An event is handled once the next one has parsed, so the input
     * goes on past the 65th level.) */
    n = 0;
    for (int i = 0; i < 66; i++)
        text[n++] = '[';
    text[n] = '\0';
    expect_error(text, n, NULL, KFC_INVALID, 1, 65, "nesting deeper than 64 levels");

    /* Far deeper input fails as fast: nothing is built past the limit. */
    size_t huge = (size_t)8 << 20;
    char *deep = malloc(huge);
    CHECK(deep != NULL);
    if (!deep)
        return;
    memset(deep, '[', huge);
    clock_t start = clock();
    expect_error(deep, huge, NULL, KFC_INVALID, 1, 65, "nesting deeper than 64 levels");
    CHECK((double)(clock() - start) / CLOCKS_PER_SEC < 1.0);
    free(deep);

    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    limits.max_depth = 2;
    expect_error("a: {b: [c]}", 11, &limits, KFC_INVALID, 1, 8, "nesting deeper than 2 levels");
    /* A syntax error right after a node is reported before the node. */
    expect_error_str("a: {b: [c]]", 1, 11,
                     "did not find expected ',' or '}' (while parsing a "
                     "flow mapping at 1:4)");
}

static void test_aliases(void)
{
    /* Billion laughs: 10 levels of 9 aliases each. */
    const char *bomb = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
                       "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                       "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                       "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                       "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
                       "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
                       "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
    clock_t start = clock();
    expect_error_str(bomb, 7, 8, "aliases expand to more than 1000000 nodes");
    CHECK((double)(clock() - start) / CLOCKS_PER_SEC < 0.5);

    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    limits.max_alias_nodes = 3;
    const char *small = "a: &a [1, 2]\nb: *a\nc: *a\n";
    expect_error(small, strlen(small), &limits, KFC_INVALID, 3, 4,
                 "aliases expand to more than 3 nodes");
    limits.max_alias_nodes = 6;
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(small, strlen(small), &limits, NULL, &doc, &diag) == KFC_OK);
    const kfc_node *c = map_find(&doc.root, "c");
    CHECK(c && c->kind == KFC_NODE_SEQUENCE && c->count == 2 &&
          kfc_scalar_is(&c->as.items[1], "2"));
    kfc_document_free(&doc);
}

/* A consumer that records what it is offered and takes the entries of
 * section "take". */
typedef struct offers {
    char log[512];
    size_t length;
    int fail_at; /* offer number that fails, or -1 */
    int count;
} offers;

static kfc_status record(void *user, const kfc_node *section, const kfc_node *key,
                         const kfc_node *value, int *consumed, kfc_diag *diag)
{
    offers *o = user;
    if (o->count++ == o->fail_at)
        return kfc_fail(diag, KFC_INVALID, value->mark, "refused");
    if (o->length < sizeof o->log - 64)
        o->length +=
            (size_t)snprintf(o->log + o->length, sizeof o->log - o->length, "%.16s/%.16s:%d@%lu ",
                             section ? section->as.text : "-", key ? key->as.text : "-",
                             (int)value->kind, (unsigned long)value->mark.line);
    if (section && kfc_scalar_is(section, "take"))
        *consumed = 1;
    return KFC_OK;
}

static void test_consumer(void)
{
    const char *text = "keep: {a: 1, b: [2]}\n"
                       "take:\n"
                       "  x: [1, 2, 3]\n"
                       "  y: &y {deep: [1, 2]}\n"
                       "  z: *y\n"
                       "list: [p, [q]]\n"
                       "again: *y\n";
    offers o = {{0}, 0, -1, 0};
    kfc_yaml_consumer consumer = {record, &o};
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(text, strlen(text), NULL, &consumer, &doc, &diag) == KFC_OK);
    const char *expected = "keep/a:1@1 keep/b:2@1 -/keep:3@1 take/x:2@3 take/y:3@4 take/z:3@5 "
                           "-/take:3@3 list/-:1@6 list/-:2@6 -/list:2@6 -/again:3@7 ";
    if (strcmp(o.log, expected) != 0) {
        fprintf(stderr, "consumer saw   %s\nexpected       %s\n", o.log, expected);
        failures++;
    }
    const kfc_node *take = map_find(&doc.root, "take");
    CHECK(take && take->count == 3);
    CHECK(take && kfc_map_value(take, 0)->kind == KFC_NODE_CONSUMED);
    CHECK(take && kfc_map_value(take, 0)->mark.line == 3 &&
          kfc_map_value(take, 0)->mark.column == 6);
    CHECK(take && kfc_scalar_is(kfc_map_key(take, 2), "z"));
    /* The anchored entry was taken, but its alias still reads it. */
    const kfc_node *again = map_find(&doc.root, "again");
    CHECK(again && again->kind == KFC_NODE_MAPPING &&
          map_find(again, "deep")->as.items[1].as.text[0] == '2');
    const kfc_node *keep = map_find(&doc.root, "keep");
    CHECK(keep && kfc_scalar_is(map_find(keep, "a"), "1"));
    kfc_document_free(&doc);

    /* A consumer's error stops the parse with its message. */
    o = (offers){{0}, 0, 3, 0};
    CHECK(kfc_yaml_parse(text, strlen(text), NULL, &consumer, &doc, &diag) == KFC_INVALID);
    CHECK(strcmp(diag.message, "refused") == 0 && diag.mark.line == 3 && diag.mark.column == 6);
    kfc_document_free(&doc);

    /* A duplicate section entry is refused before the consumer sees it. */
    o = (offers){{0}, 0, -1, 0};
    const char *dup = "take:\n  x: 1\n  x: 2\n";
    CHECK(kfc_yaml_parse(dup, strlen(dup), NULL, &consumer, &doc, &diag) == KFC_INVALID);
    CHECK(strcmp(diag.message, "duplicate key 'x' (first at 2:3)") == 0);
    CHECK(strcmp(o.log, "take/x:1@2 ") == 0);
    kfc_document_free(&doc);

    /* A collection used as a root key is no section. */
    o = (offers){{0}, 0, -1, 0};
    const char *complex = "? [a, b]\n: {}\n";
    CHECK(kfc_yaml_parse(complex, strlen(complex), NULL, &consumer, &doc, &diag) == KFC_INVALID);
    CHECK(strcmp(diag.message, "a mapping key must be a scalar") == 0 && o.count == 0);
    kfc_document_free(&doc);

    /* Entries taken one after another reuse the same memory. */
    size_t n = 20000, cap = n * 40 + 16, len = 0;
    char *big = malloc(cap);
    CHECK(big != NULL);
    if (!big)
        return;
    len += (size_t)snprintf(big + len, cap - len, "take:\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(big + len, cap - len, "  k%zu: [1, 2, 3, 4, 5, 6, 7, 8]\n", i);
    o = (offers){{0}, 0, -1, 0};
    CHECK(kfc_yaml_parse(big, len, NULL, &consumer, &doc, &diag) == KFC_OK);
    size_t taken = kfc_arena_size(&doc.arena);
    kfc_document_free(&doc);
    CHECK(kfc_yaml_parse(big, len, NULL, NULL, &doc, &diag) == KFC_OK);
    size_t kept = kfc_arena_size(&doc.arena);
    kfc_document_free(&doc);
    /* What remains is the section's keys and placeholders. */
    if (taken * 3 > kept) {
        fprintf(stderr, "arena: %zu bytes with entries taken, %zu without\n", taken, kept);
        failures++;
    }
    free(big);
}

/* Three errors and a warning held, the first error withdrawn, with an
 * error limit of `limit`; returns the errors counted. What is printed on
 * `out` (NULL: nothing) comes back in `printed`. */
static unsigned held_run(FILE *out, unsigned limit, char *printed, size_t size)
{
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    diag.stream = out;
    diag.source = "s.yaml";
    diag.error_limit = limit;
    kfc_diag_hold(&diag);
    CHECK(kfc_diag_held_count(&diag) == 0);
    CHECK(kfc_recover(&diag, kfc_fail(&diag, KFC_INVALID, (kfc_mark){3, 3}, "missing")) == KFC_OK);
    CHECK(kfc_warn(&diag, KFC_WARN_EMPTY, (kfc_mark){4, 1}, "warned") == KFC_OK);
    CHECK(kfc_diag_held_count(&diag) == 2 && diag.errors == 1);
    /* once, and only an error held */
    CHECK(kfc_diag_withdraw(&diag, 0) == 1 && diag.errors == 0);
    CHECK(kfc_diag_withdraw(&diag, 0) == 0 && diag.errors == 0);
    CHECK(kfc_diag_withdraw(&diag, 1) == 0 && kfc_diag_withdraw(&diag, 2) == 0);
    /* The error that was taken back counts no more toward the limit. */
    CHECK(kfc_recover(&diag, kfc_fail(&diag, KFC_INVALID, (kfc_mark){6, 3}, "stray")) == KFC_OK);
    CHECK(kfc_recover(&diag, kfc_fail(&diag, KFC_INVALID, (kfc_mark){2, 1}, "early")) == KFC_OK);
    CHECK(!kfc_diag_stopped(&diag));
    kfc_diag_release(&diag);
    CHECK(kfc_diag_held_count(&diag) == 0 && kfc_diag_withdraw(&diag, 0) == 0);
    printed[0] = '\0';
    if (out) {
        rewind(out);
        size_t n = fread(printed, 1, size - 1, out);
        printed[n] = '\0';
    }
    return diag.errors;
}

static void test_withdraw(void)
{
    char printed[512];
    FILE *out = tmpfile();
    CHECK(out != NULL);
    if (!out)
        return;
    CHECK(held_run(out, 2, printed, sizeof printed) == 2);
    const char *expected = "s.yaml:2:1: error: early\n"
                           "s.yaml:4:1: warning: warned [-Wempty]\n"
                           "s.yaml:6:3: error: stray\n";
    if (strcmp(printed, expected) != 0) {
        fprintf(stderr, "held and printed:\n%s\nexpected:\n%s", printed, expected);
        failures++;
    }
    fclose(out);
    /* Without a stream the lines are held all the same, so that the
     * count is right. */
    CHECK(held_run(NULL, 2, printed, sizeof printed) == 2 && printed[0] == '\0');
}

static void test_input_limit(void)
{
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    limits.max_input = 8;
    expect_error("a: 123456", 9, &limits, KFC_INVALID, 0, 0, "input is larger than 8 bytes");
    limits.max_input = (size_t)1 << 20;
    /* The size is checked before any byte is read. */
    expect_error("a: 1", ((size_t)1 << 20) + 1, &limits, KFC_INVALID, 0, 0,
                 "input is larger than 1 MiB");
}

int main(void)
{
    test_tree();
    test_syntax();
    test_encoding();
    test_syntax_hints();
    test_schema_free_checks();
    test_depth();
    test_aliases();
    test_consumer();
    test_input_limit();
    test_withdraw();
    if (failures) {
        fprintf(stderr, "test_kfc_yaml: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_kfc_yaml: ok\n");
    return 0;
}
