/* SPDX-License-Identifier: MIT */
#include "kfc_yaml_hint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kfc_text.h"

/* One line of the source, without its line break. */
typedef struct line_view {
    const unsigned char *text;
    size_t length;
    size_t indent;  /* leading spaces */
    size_t content; /* bytes before a comment and the blanks before it */
} line_view;

/* The line that starts at byte `at` into *l. (Every walk below over the
 * source's lines goes once, forward or back: a hint costs at most a few
 * passes over the source, whatever its lines.) */
static void view_at(const unsigned char *data, size_t size, size_t at, line_view *l)
{
    const unsigned char *nl = at < size ? memchr(data + at, '\n', size - at) : NULL;
    size_t end = nl ? (size_t)(nl - data) : size;
    if (end > at && data[end - 1] == '\r')
        end--;
    l->text = data + at;
    l->length = end - at;
    l->indent = 0;
    while (l->indent < l->length && l->text[l->indent] == ' ')
        l->indent++;
    /* A comment: '#' first or after a blank, outside quotes. */
    char quote = 0;
    size_t c = l->indent;
    for (; c < l->length; c++) {
        const unsigned char ch = l->text[c];
        if (quote) {
            if (ch == (unsigned char)quote)
                quote = 0;
        } else if (ch == '"' || ch == '\'') {
            quote = (char)ch;
        } else if (ch == '#' && (c == 0 || l->text[c - 1] == ' ' || l->text[c - 1] == '\t')) {
            break;
        }
    }
    while (c > l->indent && (l->text[c - 1] == ' ' || l->text[c - 1] == '\t'))
        c--;
    l->content = c;
}

/* Where line `index` (0-based) starts; SIZE_MAX where the source has
 * fewer lines. */
static size_t line_start(const unsigned char *data, size_t size, size_t index)
{
    size_t at = 0;
    for (size_t i = 0; i < index; i++) {
        const unsigned char *nl = at < size ? memchr(data + at, '\n', size - at) : NULL;
        if (!nl)
            return SIZE_MAX;
        at = (size_t)(nl - data) + 1;
    }
    return at;
}

/* Line `index` into *l: 0 where the source has fewer lines. */
static int get_line(const unsigned char *data, size_t size, size_t index, line_view *l)
{
    const size_t at = line_start(data, size, index);
    if (at == SIZE_MAX)
        return 0;
    view_at(data, size, at, l);
    return 1;
}

static int blank(const line_view *l)
{
    return l->content <= l->indent;
}

/* The line with text before line `index`, at or after line `first`. */
static int line_before(const unsigned char *data, size_t size, size_t index, size_t first,
                       size_t *found, line_view *l)
{
    size_t at = line_start(data, size, index);
    if (at == SIZE_MAX)
        return 0;
    while (index-- > first && at > 0) {
        /* back to the start of the line before */
        at--;
        while (at > 0 && data[at - 1] != '\n')
            at--;
        view_at(data, size, at, l);
        if (!blank(l)) {
            *found = index;
            return 1;
        }
    }
    return 0;
}

/* Characters (libyaml's columns) before byte `byte` of l, and back. */
static size_t column_of(const line_view *l, size_t byte)
{
    size_t column = 0;
    for (size_t i = 0; i < byte && i < l->length; i++)
        column += (l->text[i] & 0xC0) != 0x80;
    return column;
}

static size_t byte_of(const line_view *l, size_t column)
{
    size_t i = 0;
    for (; i < l->length; i++)
        if ((l->text[i] & 0xC0) != 0x80 && column-- == 0)
            break;
    return i;
}

/* The byte of a key's ':' (a ':' before a blank or the end of the text)
 * in [from, l->content), outside quotes and brackets; SIZE_MAX: none. */
static size_t key_colon(const line_view *l, size_t from)
{
    char quote = 0;
    int depth = 0;
    for (size_t c = from; c < l->content; c++) {
        const unsigned char ch = l->text[c];
        if (quote) {
            quote = ch == (unsigned char)quote ? 0 : quote;
        } else if (ch == '"' || ch == '\'') {
            quote = (char)ch;
        } else if (ch == '[' || ch == '{') {
            depth++;
        } else if (ch == ']' || ch == '}') {
            depth--;
        } else if (ch == ':' && depth == 0 &&
                   (c + 1 == l->content || l->text[c + 1] == ' ' || l->text[c + 1] == '\t')) {
            return c;
        }
    }
    return SIZE_MAX;
}

/* Whether the text of l from `from` on could be a plain key (not a list
 * item, a flow collection, a quoted or special scalar). */
static int plain_text(const line_view *l, size_t from)
{
    return from < l->content && !strchr("-[]{}\"'&*!|>%@`,?", l->text[from]);
}

/* The mark just after the text of line `index`, and at its first
 * character. */
static kfc_mark end_of(size_t index, const line_view *l)
{
    return (kfc_mark){(uint32_t)index + 1, (uint32_t)column_of(l, l->content) + 1};
}

static kfc_mark start_of(size_t index, const line_view *l)
{
    return (kfc_mark){(uint32_t)index + 1, (uint32_t)column_of(l, l->indent) + 1};
}

/* Bytes [from, to) of l as at most 40 of them (ending between
 * characters), for a message. */
static int shown(const line_view *l, size_t from, size_t to)
{
    size_t n = to > from ? to - from : 0;
    if (n > 40)
        for (n = 40; n > 0 && (l->text[from + n] & 0xC0) == 0x80; n--) {
        }
    return (int)n;
}

/* The room for a quote of up to two excerpts of `shown`'s 40 bytes. */
#define EXCERPT_SIZE 128

/* Bytes [from, to) of l, cut as `shown` cuts them, quoted as a name is
 * (kfc_text.h): the source's text as it stands, a backslash doubled. */
static const char *excerpt(char out[EXCERPT_SIZE], const line_view *l, size_t from, size_t to)
{
    return kf_text_name(out, EXCERPT_SIZE, (const char *)l->text + from, (size_t)shown(l, from, to),
                        1);
}

/* "KEY: VALUE", the fix of a key's ':', quoted as one excerpt. */
static const char *key_value(char out[EXCERPT_SIZE], const line_view *l, size_t key, size_t key_end,
                             size_t value, size_t value_end)
{
    char text[EXCERPT_SIZE];
    snprintf(text, sizeof text, "%.*s: %.*s", shown(l, key, key_end), (const char *)l->text + key,
             shown(l, value, value_end), (const char *)l->text + value);
    return kf_text_name(out, EXCERPT_SIZE, text, strlen(text), 1);
}

/* Line `at` (l) from byte `from`, a key whose ':' has no blank after it
 * ("duration:2", one word to YAML): said with the fix. */
static int glued_colon(size_t at, const line_view *l, size_t from, kfc_mark *mark, char *out,
                       size_t n)
{
    const unsigned char *colon = memchr(l->text + from, ':', l->content - from);
    const size_t c = colon ? (size_t)(colon - l->text) : l->content;
    if (c + 1 >= l->content || l->text[c + 1] == ' ' || l->text[c + 1] == '\t')
        return 0;
    *mark = (kfc_mark){(uint32_t)at + 1, (uint32_t)column_of(l, c) + 1};
    char fix[EXCERPT_SIZE];
    snprintf(out, n, "a ':' ends a key only before a space: write %s",
             key_value(fix, l, from, c, c + 1, l->content));
    return 1;
}

/* Line `at` (p), plain text without a key's ':' before line l: a key
 * without its ':', said as "expected ':' after 'hip'" (with the fix where
 * its text is two words, "interpolation linear"). */
static int missing_colon(size_t at, const line_view *p, const line_view *l, kfc_mark *mark,
                         char *out, size_t n)
{
    if (key_colon(p, p->indent) != SIZE_MAX || !plain_text(p, p->indent) || l->indent < p->indent)
        return 0;
    if (glued_colon(at, p, p->indent, mark, out, n))
        return 1;
    *mark = end_of(at, p);
    const unsigned char *text = p->text + p->indent;
    const unsigned char *gap = memchr(text, ' ', p->content - p->indent);
    if (gap) {
        const size_t key = (size_t)(gap - p->text);
        size_t value = key;
        while (value < p->content && p->text[value] == ' ')
            value++;
        char quoted[EXCERPT_SIZE], fix[EXCERPT_SIZE];
        snprintf(out, n, "expected ':' after %s: write %s", excerpt(quoted, p, p->indent, key),
                 key_value(fix, p, p->indent, key, value, p->content));
    } else {
        char quoted[EXCERPT_SIZE];
        snprintf(out, n, "expected ':' after %s%s", excerpt(quoted, p, p->indent, p->content),
                 l->indent > p->indent ? " (the line below is indented under it)" : "");
    }
    return 1;
}

/* YAML 1.1 ends an implicit key 1024 characters after its start: the
 * scanner no longer takes what comes before a later ':' for a key. */
#define IMPLICIT_KEY_MAX 1024

/* Line l's key, its ':' at byte `colon`, when longer than an implicit key
 * may be: only a '? ' key of its own reads as one, and the ':' after it
 * is all libyaml says of it. */
static int long_key(size_t line, const line_view *l, size_t colon, kfc_mark *mark, char *out,
                    size_t n)
{
    size_t from = l->indent;
    while (from + 1 < l->content && l->text[from] == '-' && l->text[from + 1] == ' ') {
        from += 2; /* list items' "- " */
        while (from < l->content && l->text[from] == ' ')
            from++;
    }
    if (from >= l->content || key_colon(l, from) != colon ||
        column_of(l, colon) - column_of(l, from) <= IMPLICIT_KEY_MAX)
        return 0;
    *mark = (kfc_mark){(uint32_t)line + 1, (uint32_t)column_of(l, from) + 1};
    snprintf(out, n,
             "a key longer than %d characters must be written as an explicit key: '? NAME' on "
             "its own line, then ': ...'",
             IMPLICIT_KEY_MAX);
    return 1;
}

/* "mapping values are not allowed in this context": a ':' the scanner
 * met inside a value. */
static int mapping_value(const unsigned char *data, size_t size, const kfc_yaml_error *e,
                         kfc_mark *mark, char *out, size_t n)
{
    line_view l, p;
    size_t at;
    if (!get_line(data, size, e->problem_line, &l))
        return 0;
    const size_t colon = byte_of(&l, e->problem_column);
    if (key_colon(&l, l.indent) < colon) { /* key: a: b */
        *mark = (kfc_mark){(uint32_t)e->problem_line + 1, (uint32_t)e->problem_column + 1};
        snprintf(out, n, "%s: a value that holds ': ' needs quotes", e->problem);
        return 1;
    }
    if (long_key(e->problem_line, &l, colon, mark, out, n))
        return 1;
    if (!line_before(data, size, e->problem_line, 0, &at, &p))
        return 0;
    if (missing_colon(at, &p, &l, mark, out, n))
        return 1;
    const size_t key = key_colon(&p, p.indent);
    if (l.indent > p.indent && key != SIZE_MAX &&
        key + 1 < p.content) { /* key: value, then a line indented under it */
        *mark = start_of(e->problem_line, &l);
        char quoted[EXCERPT_SIZE];
        snprintf(out, n,
                 "this line is indented more than %s above it, so it is read as more of that "
                 "value: the fields of one entry line up",
                 excerpt(quoted, &p, p.indent, p.content));
        return 1;
    }
    return 0;
}

/* "could not find expected ':'" while scanning a simple key: a key whose
 * ':' has no blank after it, or none at all. */
static int simple_key(const unsigned char *data, size_t size, const kfc_yaml_error *e,
                      kfc_mark *mark, char *out, size_t n)
{
    line_view l;
    if (!e->context || !strstr(e->context, "simple key") ||
        !get_line(data, size, e->context_line, &l))
        return 0;
    const size_t from = byte_of(&l, e->context_column);
    if (!plain_text(&l, from))
        return 0;
    if (glued_colon(e->context_line, &l, from, mark, out, n))
        return 1;
    if (memchr(l.text + from, ':', l.content - from))
        return 0;
    *mark = end_of(e->context_line, &l);
    char quoted[EXCERPT_SIZE];
    snprintf(out, n, "expected ':' after %s", excerpt(quoted, &l, from, l.content));
    return 1;
}

/* "did not find expected key" (or '-' indicator) in a block collection: a
 * line whose indentation is none of the lines' above it in the
 * collection. */
static int lost_indent(const unsigned char *data, size_t size, const kfc_yaml_error *e,
                       kfc_mark *mark, char *out, size_t n)
{
    line_view l, p;
    size_t at;
    if (!e->context || !strstr(e->context, "block") || !get_line(data, size, e->problem_line, &l) ||
        blank(&l) || e->context_line >= e->problem_line)
        return 0;
    /* (a key without its ':' before it, the collection's own first
     * line being its key) */
    if (line_before(data, size, e->problem_line, e->context_line + 1, &at, &p) &&
        missing_colon(at, &p, &l, mark, out, n))
        return 1;
    size_t from = line_start(data, size, e->context_line);
    for (size_t i = e->context_line; i < e->problem_line && from < size; i++) {
        view_at(data, size, from, &p);
        if (!blank(&p) && p.indent == l.indent)
            return 0;
        from = (size_t)(p.text - data) + p.length;
        while (from < size && data[from] != '\n')
            from++; /* (past a '\r') */
        from++;
    }
    *mark = start_of(e->problem_line, &l);
    snprintf(out, n,
             "%s: this line's indentation (%lu space%s) lines up with no line above it; the "
             "fields of one entry line up, as do the items of one list",
             e->problem, (unsigned long)l.indent, l.indent == 1 ? "" : "s");
    return 1;
}

/* "did not find expected ',' or ']'" (or '}') on a line after the one that
 * opened the flow collection: it was not closed. */
static int unclosed(const unsigned char *data, size_t size, const kfc_yaml_error *e, kfc_mark *mark,
                    char *out, size_t n)
{
    line_view p;
    size_t at;
    if (!e->context || e->problem_line <= e->context_line ||
        !line_before(data, size, e->problem_line, e->context_line, &at, &p))
        return 0;
    const int list = strstr(e->context, "flow sequence") != NULL;
    if (!list && !strstr(e->context, "flow mapping"))
        return 0;
    *mark = end_of(at, &p);
    snprintf(out, n,
             "the %s opened at %lu:%lu is not closed: expected '%c' at the end of this line, or "
             "a ',' before the next %s",
             list ? "list" : "mapping", (unsigned long)e->context_line + 1,
             (unsigned long)e->context_column + 1, list ? ']' : '}', list ? "item" : "field");
    return 1;
}

/* The bytes [at, at + n) of the source, "byte 0xE9" or "bytes 0xE2 0x82". */
static void name_bytes(const unsigned char *data, size_t at, size_t n, char *out, size_t size)
{
    size_t m = (size_t)snprintf(out, size, "byte%s", n > 1 ? "s" : "");
    for (size_t i = 0; i < n && m < size; i++)
        m += (size_t)snprintf(out + m, size - m, " 0x%02X", (unsigned)data[at + i]);
}

int kfc_yaml_utf8_hint(const unsigned char *data, size_t size, size_t *at, char *message,
                       size_t size_message)
{
    for (size_t i = 0; i < size;) {
        const unsigned b = data[i];
        /* (80 to BF only continue a character; C0, C1 and F5 to FF begin
         * none: they would write one in more bytes than it needs, or past
         * U+10FFFF) */
        const size_t width = b < 0x80                 ? 1
                             : b >= 0xC2 && b <= 0xDF ? 2
                             : (b & 0xF0) == 0xE0     ? 3
                             : b >= 0xF0 && b <= 0xF4 ? 4
                                                      : 0;
        size_t k = width ? 1 : 0;
        unsigned long value = width > 1 ? b & (0x7Fu >> width) : b;
        while (k < width && i + k < size && (data[i + k] & 0xC0) == 0x80)
            value = value << 6 | (data[i + k++] & 0x3Fu);
        const int cut = k < width && i + k == size && k > 1;
        const int broken = k < width || width == 0;
        const int overlong = (width == 3 && value < 0x800) || (width == 4 && value < 0x10000);
        const int surrogate = value >= 0xD800 && value <= 0xDFFF;
        if (!broken && !overlong && !surrogate && value <= 0x10FFFF) {
            i += width;
            continue;
        }
        char bytes[32];
        name_bytes(data, i, k ? k : 1, bytes, sizeof bytes);
        *at = i;
        if (cut)
            snprintf(message, size_message,
                     "the file ends inside a UTF-8 character: %s begin one of %lu bytes (is the "
                     "file cut short?)",
                     bytes, (unsigned long)width);
        else if (broken)
            /* A byte of another 8-bit encoding is its character (0xE9 'e'
             * acute), which the bytes after it do not continue as UTF-8. */
            snprintf(message, size_message,
                     "%s %s not UTF-8 (is the file Latin-1 or Windows-1252? save it as UTF-8)",
                     bytes, k > 1 ? "are" : "is");
        else if (overlong)
            snprintf(message, size_message,
                     "%s are not UTF-8: they write U+%04lX in more bytes than UTF-8 does", bytes,
                     value);
        else if (surrogate)
            snprintf(message, size_message,
                     "%s are not UTF-8: they write U+%04lX, half of a UTF-16 surrogate pair (UTF-8 "
                     "writes the pair's character in 4 bytes)",
                     bytes, value);
        else
            snprintf(message, size_message,
                     "%s are not UTF-8: they write U+%lX, past the last character U+10FFFF", bytes,
                     value);
        return 1;
    }
    return 0;
}

int kfc_yaml_hint(const unsigned char *data, size_t size, const kfc_yaml_error *e, kfc_mark *mark,
                  char *message, size_t size_message)
{
    if (!e->problem || !size_message)
        return 0;
    if (strcmp(e->problem, "mapping values are not allowed in this context") == 0)
        return mapping_value(data, size, e, mark, message, size_message);
    if (strcmp(e->problem, "could not find expected ':'") == 0)
        return simple_key(data, size, e, mark, message, size_message);
    if (strcmp(e->problem, "did not find expected key") == 0 ||
        strcmp(e->problem, "did not find expected '-' indicator") == 0)
        return lost_indent(data, size, e, mark, message, size_message);
    if (strcmp(e->problem, "did not find expected ',' or ']'") == 0 ||
        strcmp(e->problem, "did not find expected ',' or '}'") == 0)
        return unclosed(data, size, e, mark, message, size_message);
    return 0;
}
