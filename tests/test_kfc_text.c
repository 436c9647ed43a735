/* SPDX-License-Identifier: MIT */
/*
 * test_kfc_text.c - what kfc and kfplay print as it is and what as \xNN
 * (runtime/kf_text.h, compiler/kfc_text.h): C0 controls, DEL, the C1 controls (UTF-8 C2 80 to
 * C2 9F) and every byte of what is not UTF-8 (a Latin-1 byte, a sequence
 * cut short, an overlong form, a surrogate, past U+10FFFF) escaped; other
 * characters, of one to four bytes, as they are. Then the writers built on
 * it: a message's (only those bytes), a name's (a backslash too, and in a
 * quote the quote, so that two names never print alike), kfc_quote (which
 * never cuts a character in two), kfc_shell_word and kfc_diag_print.
 */
#include <stdio.h>
#include <string.h>

#include "kf_test.h"
#include "kfc_diag.h"
#include "kfc_text.h"

/* kfc_text_write of `text` (as_name < 0), or kfc_text_put_name (quoted
 * when as_name is 1), as a string. */
static const char *written(const char *text, int as_name)
{
    static char out[256];
    FILE *f = tmpfile();
    if (!f)
        return "(no tmpfile)";
    if (as_name < 0)
        kfc_text_write(f, text);
    else
        kfc_text_put_name(f, text, as_name);
    rewind(f);
    const size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    return out;
}

static void characters(void)
{
    static const struct {
        const char *bytes;
        size_t length;
        int shown;
    } cases[] = {
        {"a", 1, 1},
        {"\x1b", 1, 0},
        {"\x7f", 1, 0},
        {"\t", 1, 0},
        {"\xc2\x80", 2, 0},         /* U+0080, the first C1 control */
        {"\xc2\x9b", 2, 0},         /* CSI */
        {"\xc2\x9f", 2, 0},         /* U+009F, the last */
        {"\xc2\xa0", 2, 1},         /* U+00A0, past them */
        {"\xc3\xa9", 2, 1},         /* e acute */
        {"\xe2\x82\xac", 3, 1},     /* the euro sign */
        {"\xf0\x9f\x98\x80", 4, 1}, /* U+1F600 */
        {"\xf4\x8f\xbf\xbf", 4, 1}, /* U+10FFFF */
        {"\xe9", 1, 0},             /* Latin-1 e acute */
        {"\xe9t", 1, 0},
        {"\xc0\xaf", 1, 0},         /* an overlong '/' */
        {"\xe0\x80\xaf", 1, 0},     /* another */
        {"\xed\xa0\x80", 1, 0},     /* a surrogate */
        {"\xf4\x90\x80\x80", 1, 0}, /* past U+10FFFF */
        {"\xf5\x80\x80\x80", 1, 0},
        {"\x80", 1, 0},     /* a continuation byte alone */
        {"\xe2\x82", 1, 0}, /* cut short */
        {"\xe2\x82x", 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int shown = -1;
        const size_t n =
            kf_text_char((const unsigned char *)cases[i].bytes, strlen(cases[i].bytes), &shown);
        CHECK(n == cases[i].length && shown == cases[i].shown,
              "case %zu: %zu bytes, shown %d; want %zu, %d", i, n, shown, cases[i].length,
              cases[i].shown);
    }
    CHECK(kfc_text_plain("hip \xc3\xa9\xe2\x82\xac", 9) && !kfc_text_plain("a\xc2\x9b", 3) &&
              kfc_text_plain("", 0),
          "plain text");
}

static void writing(void)
{
    const struct {
        const char *text;
        int as_name; /* -1 a message, 0 a name, 1 a quoted name */
        const char *want;
    } cases[] = {
        {"\x1b]0;PWNED\a\x1b[2J", -1, "\\x1b]0;PWNED\\x07\\x1b[2J"},
        {"\xc2\x9b"
         "2J",
         -1, "\\xc2\\x9b2J"},
        {"Lat\xe9.set_translation", -1, "Lat\\xe9.set_translation"},
        {"caf\xc3\xa9 \xe2\x82\xac", -1, "caf\xc3\xa9 \xe2\x82\xac"},
        /* A message's backslashes are its own (the names it quotes are
         * escaped already): kept. */
        {"it's a\\b", -1, "it's a\\b"},
        {"\xf0\x9f\x98", -1, "\\xf0\\x9f\\x98"},
        /* A name: ESC and the four characters \x1b print apart. */
        {"a\x1b"
         "b",
         0, "a\\x1bb"},
        {"a\\x1bb", 0, "a\\\\x1bb"},
        {"it's a\\b", 0, "it's a\\\\b"},
        {"it's a\\b", 1, "'it\\'s a\\\\b'"},
        {"\xc2\x9b\\\xe9", 1, "'\\xc2\\x9b\\\\\\xe9'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = written(cases[i].text, cases[i].as_name);
        CHECK(strcmp(got, cases[i].want) == 0, "case %zu: '%s', want '%s'", i, got, cases[i].want);
    }
}

static void quoting(void)
{
    char q[KFC_QUOTE_SIZE];
    CHECK(strcmp(kfc_quote(q,
                           "\xc2\x9b"
                           "2J\x1b[2Jlinear",
                           14),
                 "'\\xc2\\x9b2J\\x1b[2Jlinear'") == 0,
          "C1 in a quote: %s", q);
    CHECK(strcmp(kfc_quote(q, "it's", 4), "'it\\'s'") == 0, "a quote: %s", q);
    CHECK(strcmp(kfc_quote(q, "a\\x1bb", 6), "'a\\\\x1bb'") == 0 && strcmp(kfc_quote(q,
                                                                                     "a\x1b"
                                                                                     "b",
                                                                                     3),
                                                                           "'a\\x1bb'") == 0,
          "a backslash in a quote: %s", q);
    /* kf_text_name: as kfc_quote, in a buffer of any size, quoted or not. */
    char wide[128];
    CHECK(strcmp(kf_text_name(wide, sizeof wide, "/tmp/a\\b\x1b'", 10, 0), "/tmp/a\\\\b\\x1b'") ==
              0,
          "a file's name: %s", wide);
    CHECK(strcmp(kf_text_name(wide, 12, "abcdefgh", 8, 1), "'ab...'") == 0, "cut to 12: %s", wide);
    /* Long text of two-byte characters: cut between them, never inside. */
    char long_text[200];
    for (size_t i = 0; i + 1 < sizeof long_text; i += 2)
        memcpy(long_text + i, "\xc3\xa9", 2);
    kfc_quote(q, long_text, sizeof long_text);
    const size_t n = strlen(q);
    CHECK(n > 40 && strcmp(q + n - 4, "...'") == 0 && kfc_text_plain(q, n),
          "cut between characters: %s", q);
    char word[64];
    CHECK(!kfc_shell_word(word, sizeof word, "a\xc2\x9b.yaml") && strcmp(word, "FILE") == 0,
          "a C1 control in a file name: no command shows it");
    CHECK(!kfc_shell_word(word, sizeof word, "a\xe9.yaml"), "nor a byte that is not UTF-8");
    CHECK(kfc_shell_word(word, sizeof word, "caf\xc3\xa9.yaml") &&
              strcmp(word, "'caf\xc3\xa9.yaml'") == 0,
          "UTF-8 is shown: %s", word);
}

static void diagnostics(void)
{
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    kfc_fail(&diag, KFC_INVALID, (kfc_mark){3, 5},
             "unknown '\xc2\x9b"
             "2J' in \xe9t\xc3\xa9");
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    if (!f)
        return;
    kfc_diag_print(f, "s\x1b.yaml", &diag);
    /* A file's name is shown as a name is: its backslash doubled. */
    kfc_diag_print(f, "s\\x1b.yaml", &diag);
    rewind(f);
    char line[256] = "", other[256] = "";
    CHECK(fgets(line, sizeof line, f) != NULL && fgets(other, sizeof other, f) != NULL, "lines");
    fclose(f);
    CHECK(strcmp(line, "s\\x1b.yaml:3:5: error: unknown '\\xc2\\x9b2J' in \\xe9t\xc3\xa9\n") == 0,
          "the diagnostic: %s", line);
    CHECK(strcmp(other, "s\\\\x1b.yaml:3:5: error: unknown '\\xc2\\x9b2J' in \\xe9t\xc3\xa9\n") ==
              0,
          "the diagnostic of another file: %s", other);
}

int main(void)
{
    characters();
    writing();
    quoting();
    diagnostics();
    return kf_test_report("test_kfc_text");
}
