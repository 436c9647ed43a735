/* SPDX-License-Identifier: MIT */
#include "kfc_number.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Powers of ten that are exact in a double. */
static const double exact_powers[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

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

kfc_number_result kfc_parse_number(const char *text, size_t length, double *out)
{
    const char *p = text, *end = text + length;
    int negative = 0;
    if (p < end && (*p == '+' || *p == '-'))
        negative = *p++ == '-';

    /* Every digit goes into the mantissa; past 19 digits it may wrap
     * (unsigned, so defined), and such numbers take the slow path. */
    uint64_t mantissa = 0;
    const char *digits = p;
    while (p < end && is_digit(*p))
        mantissa = mantissa * 10 + (uint64_t)(*p++ - '0');
    ptrdiff_t int_digits = p - digits, frac_digits = 0;
    if (p < end && *p == '.') {
        const char *frac = ++p;
        while (p < end && is_digit(*p))
            mantissa = mantissa * 10 + (uint64_t)(*p++ - '0');
        frac_digits = p - frac;
    }
    if (int_digits + frac_digits == 0)
        return is_yaml_nonfinite(text, length) ? KFC_NUMBER_NONFINITE : KFC_NUMBER_SYNTAX;
    long exponent = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int exp_negative = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            exp_negative = *p++ == '-';
        if (p == end || !is_digit(*p))
            return KFC_NUMBER_SYNTAX;
        for (; p < end && is_digit(*p); p++)
            if (exponent < 100000) /* far past any double; keeps the sum in range */
                exponent = exponent * 10 + (*p - '0');
        if (exp_negative)
            exponent = -exponent;
    }
    if (p != end)
        return KFC_NUMBER_SYNTAX;
    exponent -= (long)frac_digits;

    /* Clinger's fast path: both operands exact, so the one operation rounds
     * correctly. */
    if (int_digits + frac_digits <= 19 && mantissa <= ((uint64_t)1 << 53) && exponent >= -22 &&
        exponent <= 22) {
        double m = (double)mantissa;
        double v = exponent >= 0 ? m * exact_powers[exponent] : m / exact_powers[-exponent];
        *out = negative ? -v : v;
        return KFC_NUMBER_OK;
    }
    char *stop;
    double v = strtod(text, &stop);
    if (stop != end)
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
