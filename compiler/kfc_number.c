/* SPDX-License-Identifier: MIT */
#include "kfc_number.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Powers of ten that are exact in a double. */
static const double exact_powers[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_yaml_nonfinite(const char *t, size_t n)
{
    if (n > 0 && (t[0] == '+' || t[0] == '-')) {
        t++;
        n--;
        return n == 4 && (memcmp(t, ".inf", 4) == 0 || memcmp(t, ".Inf", 4) == 0 ||
                          memcmp(t, ".INF", 4) == 0);
    }
    return n == 4 &&
           (memcmp(t, ".inf", 4) == 0 || memcmp(t, ".Inf", 4) == 0 || memcmp(t, ".INF", 4) == 0 ||
            memcmp(t, ".nan", 4) == 0 || memcmp(t, ".NaN", 4) == 0 || memcmp(t, ".NAN", 4) == 0);
}

/* A digit's value, or 10 or more for any other byte (the closing '\0'
 * among them, which ends every loop below: none needs a bound). */
static unsigned digit_of(unsigned char c)
{
    return (unsigned)c - '0';
}

kfc_number_result kfc_parse_number(const char *text, size_t length, double *out)
{
    const unsigned char *p = (const unsigned char *)text, *end = p + length;
    int negative = 0;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';

    /* Every digit goes into the mantissa; past 19 digits it may wrap
     * (unsigned, so defined), and such numbers take the slow path. */
    uint64_t mantissa = 0;
    unsigned d;
    const unsigned char *digits = p;
    while ((d = digit_of(*p)) < 10) {
        mantissa = mantissa * 10 + d;
        p++;
    }
    ptrdiff_t int_digits = p - digits, frac_digits = 0;
    if (*p == '.') {
        const unsigned char *frac = ++p;
        while ((d = digit_of(*p)) < 10) {
            mantissa = mantissa * 10 + d;
            p++;
        }
        frac_digits = p - frac;
    }
    if (int_digits + frac_digits == 0)
        return is_yaml_nonfinite(text, length) ? KFC_NUMBER_NONFINITE : KFC_NUMBER_SYNTAX;
    long exponent = 0;
    if (*p == 'e' || *p == 'E') {
        int exp_negative = 0;
        p++;
        if (*p == '+' || *p == '-')
            exp_negative = *p++ == '-';
        if (digit_of(*p) >= 10)
            return KFC_NUMBER_SYNTAX;
        for (; (d = digit_of(*p)) < 10; p++)
            if (exponent < 100000) /* far past any double; keeps the sum in range */
                exponent = exponent * 10 + (long)d;
        if (exp_negative)
            exponent = -exponent;
    }
    if (p != end)
        return KFC_NUMBER_SYNTAX;
    exponent -= (long)frac_digits;

    /* Clinger's fast path: both operands exact, so the one operation rounds
     * correctly. (Below 2^53 the mantissa converts as a signed integer,
     * which is one instruction where an unsigned one is several.) */
    if (int_digits + frac_digits <= 19 && mantissa <= ((uint64_t)1 << 53) && exponent >= -22 &&
        exponent <= 22) {
        double m = (double)(int64_t)mantissa;
        double v = exponent >= 0 ? m * exact_powers[exponent] : m / exact_powers[-exponent];
        *out = negative ? -v : v;
        return KFC_NUMBER_OK;
    }
    char *stop;
    double v = strtod(text, &stop);
    if (stop != (const char *)end)
        return KFC_NUMBER_SYNTAX;
    if (isinf(v))
        return KFC_NUMBER_RANGE;
    /* An underflow still gives the nearest value (0 or subnormal). */
    *out = v;
    return KFC_NUMBER_OK;
}

int kfc_fits_float(double value)
{
    /* FLT_MAX plus half an ulp: from there on, rounding to float gives
     * infinity (ties go to even, and FLT_MAX's mantissa is odd). */
    return fabs(value) < 0x1.ffffffp+127;
}

void kfc_format_float(char *out, float value)
{
    for (int digits = 6; digits <= 9; digits++) {
        double parsed;
        snprintf(out, KFC_NUMBER_TEXT, "%.*g", digits, (double)value);
        /* Compare bits: -0 must stay -0. Nine digits always round-trip. */
        if (kfc_parse_number(out, strlen(out), &parsed) == KFC_NUMBER_OK) {
            float back = (float)parsed;
            if (memcmp(&back, &value, sizeof value) == 0)
                return;
        }
    }
}

void kfc_format_double(char *out, double value)
{
    for (int digits = 6; digits <= 17; digits++) {
        double parsed;
        snprintf(out, KFC_NUMBER_TEXT, "%.*g", digits, value);
        if (kfc_parse_number(out, strlen(out), &parsed) == KFC_NUMBER_OK &&
            memcmp(&parsed, &value, sizeof value) == 0)
            return;
    }
}

int kfc_number_time_unit(const char *text, size_t length, double *seconds)
{
    static const struct {
        const char *unit;
        double seconds;
    } units[] = {
        {"s", 1},     {"sec", 1},     {"secs", 1},           {"second", 1},         {"seconds", 1},
        {"ms", 1e-3}, {"msec", 1e-3}, {"millisecond", 1e-3}, {"milliseconds", 1e-3}};
    size_t head = length;
    while (head > 0 && ((text[head - 1] >= 'a' && text[head - 1] <= 'z') ||
                        (text[head - 1] >= 'A' && text[head - 1] <= 'Z')))
        head--;
    const size_t unit = head;
    while (head > 0 && text[head - 1] == ' ')
        head--;
    double number;
    if (unit == length || head == 0 || kfc_parse_number(text, head, &number) != KFC_NUMBER_OK)
        return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].unit) == length - unit &&
            strncmp(units[i].unit, text + unit, length - unit) == 0) {
            *seconds = number * units[i].seconds;
            return 1;
        }
    return 0;
}
