#include "kfc_number.h"

#include <errno.h>
#include <math.h>
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
        return n == 4 && (memcmp(t, ".inf", 4) == 0 || memcmp(t, ".Inf", 4) == 0
                          || memcmp(t, ".INF", 4) == 0);
    }
    return n == 4 && (memcmp(t, ".inf", 4) == 0 || memcmp(t, ".Inf", 4) == 0
                      || memcmp(t, ".INF", 4) == 0 || memcmp(t, ".nan", 4) == 0
                      || memcmp(t, ".NaN", 4) == 0 || memcmp(t, ".NAN", 4) == 0);
}

kfc_number_result kfc_parse_number(const char *text, size_t length, double *out)
{
    size_t i = 0;
    int negative = 0;
    if (i < length && (text[i] == '+' || text[i] == '-'))
        negative = text[i++] == '-';

    /* Up to 19 significant digits fit a uint64_t; more only matter to the
     * slow path, which rereads the text. */
    uint64_t mantissa = 0;
    int significant = 0, exponent = 0, exact = 1, digits = 0;
    for (; i < length && is_digit(text[i]); i++, digits++) {
        if (mantissa == 0 && text[i] == '0')
            continue;
        if (significant < 19) {
            mantissa = mantissa * 10 + (uint64_t)(text[i] - '0');
            significant++;
        } else {
            exponent++;
            exact = 0;
        }
    }
    if (i < length && text[i] == '.') {
        for (i++; i < length && is_digit(text[i]); i++, digits++) {
            if (mantissa == 0 && text[i] == '0') {
                exponent--;
                continue;
            }
            if (significant < 19) {
                mantissa = mantissa * 10 + (uint64_t)(text[i] - '0');
                significant++;
                exponent--;
            } else {
                exact = 0;
            }
        }
    }
    if (digits == 0)
        return is_yaml_nonfinite(text, length) ? KFC_NUMBER_NONFINITE : KFC_NUMBER_SYNTAX;
    if (i < length && (text[i] == 'e' || text[i] == 'E')) {
        int exp_negative = 0, exp_value = 0;
        i++;
        if (i < length && (text[i] == '+' || text[i] == '-'))
            exp_negative = text[i++] == '-';
        if (i == length || !is_digit(text[i]))
            return KFC_NUMBER_SYNTAX;
        for (; i < length && is_digit(text[i]); i++)
            if (exp_value < 100000) /* far past any double; keeps the sum in int */
                exp_value = exp_value * 10 + (text[i] - '0');
        exponent += exp_negative ? -exp_value : exp_value;
    }
    if (i != length)
        return KFC_NUMBER_SYNTAX;

    /* Clinger's fast path: both operands exact, so the one operation rounds
     * correctly. */
    if (exact && mantissa <= ((uint64_t)1 << 53) && exponent >= -22 && exponent <= 22) {
        double m = (double)mantissa;
        double v = exponent >= 0 ? m * exact_powers[exponent] : m / exact_powers[-exponent];
        *out = negative ? -v : v;
        return KFC_NUMBER_OK;
    }
    if (mantissa == 0) {
        *out = negative ? -0.0 : 0.0;
        return KFC_NUMBER_OK;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end != text + length)
        return KFC_NUMBER_SYNTAX;
    if (isinf(v))
        return KFC_NUMBER_RANGE;
    /* ERANGE from underflow still gives the nearest value (0 or subnormal). */
    *out = v;
    return KFC_NUMBER_OK;
}

int kfc_fits_float(double value)
{
    /* FLT_MAX plus half an ulp: from there on, rounding to float gives
     * infinity (ties go to even, and FLT_MAX's mantissa is odd). */
    return fabs(value) < 0x1.ffffffp+127;
}
