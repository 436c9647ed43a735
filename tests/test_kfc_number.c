/* SPDX-License-Identifier: MIT */
/*
 * test_kfc_number.c - kfc's number grammar (compiler/kfc_number.c) against
 * the C library's strtod, which rounds correctly: every string the grammar
 * takes gives strtod's double to the bit, or KFC_NUMBER_RANGE where that is
 * infinite, and a string with any other byte in it is refused. The strings
 * have runs of digits of every length up to 25 (past the 19 digits and the
 * powers of ten of the exact path, to strtod's), fractions, exponents and
 * signs, and bytes just outside the digits ('/' and ':', a space, '_', 'e')
 * at every place of runs of 8 to 17 digits.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "kfc_number.h"

static uint64_t state = 0x9E3779B97F4A7C15u;

static uint32_t next(uint32_t n)
{
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(state >> 33) % n;
}

static size_t put_digits(char *at, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        at[i] = (char)('0' + next(10));
    return count;
}

/* kfc's verdict on `text` against strtod's. */
static void compare(const char *text)
{
    const size_t n = strlen(text);
    double got = 0.0;
    const kfc_number_result r = kfc_parse_number(text, n, &got);
    char *stop;
    errno = 0;
    const double want = strtod(text, &stop);
    /* (strtod skips leading white space, which the grammar does not) */
    const int whole = n > 0 && stop == text + n && text[0] != ' ';
    if (!whole) {
        CHECK(r == KFC_NUMBER_SYNTAX, "'%s': not a number, but %d", text, (int)r);
        return;
    }
    if (want == HUGE_VAL || want == -HUGE_VAL) {
        CHECK(r == KFC_NUMBER_RANGE, "'%s': out of range, but %d", text, (int)r);
        return;
    }
    CHECK(r == KFC_NUMBER_OK && memcmp(&got, &want, sizeof got) == 0, "'%s': %.17g, strtod %.17g",
          text, got, want);
}

int main(void)
{
    char text[96];
    /* Numbers of the grammar. */
    for (int i = 0; i < 200000; i++) {
        size_t at = 0;
        const uint32_t sign = next(3);
        if (sign)
            text[at++] = sign == 1 ? '-' : '+';
        const uint32_t whole = next(26), fraction = next(26);
        at += put_digits(text + at, whole);
        if (!whole || next(3)) {
            text[at++] = '.';
            at += put_digits(text + at, whole ? fraction : fraction + 1);
        }
        if (next(4) == 0) {
            text[at++] = next(2) ? 'e' : 'E';
            const uint32_t s = next(3);
            if (s)
                text[at++] = s == 1 ? '-' : '+';
            at += put_digits(text + at, 1 + next(3));
        }
        text[at] = '\0';
        compare(text);
    }
    /* Bytes beside the digits, at each place of runs of 8 to 17. */
    static const char outside[] = {'/', ':', ' ', '_', 'e'};
    for (uint32_t len = 8; len <= 17; len++)
        for (uint32_t place = 0; place < len; place++)
            for (size_t k = 0; k < sizeof outside; k++) {
                size_t at = put_digits(text, len);
                text[place] = outside[k];
                text[at] = '\0';
                compare(text);
                /* the same run after a point */
                text[0] = '.';
                compare(text);
            }
    /* The edges: runs of 8 and 9 digits, 2^53 and past it, 2^64. */
    static const char *const exact[] = {
        "99999999",   "00000000",  "12345678.87654321",   "9007199254740993",
        "0.12345678", "100000000", "9999999999999999999", "18446744073709551616",
        "0.043432254"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        compare(exact[i]);
    /* A byte 0 inside the length ends no number early: the digit loops stop
     * at it, short of the end. */
    static const char inner_nul[] = "12\0"
                                    "5";
    double v = 0.0;
    CHECK(kfc_parse_number(inner_nul, sizeof inner_nul - 1, &v) == KFC_NUMBER_SYNTAX,
          "'12\\0 5': not a number");
    CHECK(kfc_parse_number("0.5\0"
                           "e1",
                           6, &v) == KFC_NUMBER_SYNTAX,
          "'0.5\\0e1': not a number");
    return kf_test_report("test_kfc_number");
}
