/* SPDX-License-Identifier: MIT */
/*
 * kfc_number.h - the one grammar kfc accepts for numbers, and the shortest
 * text in it that kfc and kfplay write a number as.
 *
 * A number is a plain decimal: an optional sign, digits with an optional
 * fraction (or a fraction alone), and an optional exponent:
 *
 *     [+-]? ( D+ ( '.' D* )? | '.' D+ ) ( [eE] [+-]? D+ )?
 *
 * so "-1", "2.5", "1e3", ".5", "+3" are numbers and "0x10", "1_000", "inf",
 * "1:30" are not. YAML's own spellings of infinity and NaN (".inf", "-.Inf",
 * ".nan", ...) are recognized only to be refused with a clearer message.
 */
#ifndef KFC_NUMBER_H
#define KFC_NUMBER_H

#include <stddef.h>

typedef enum kfc_number_result {
    KFC_NUMBER_OK = 0,
    KFC_NUMBER_SYNTAX,    /* not a number in the grammar above */
    KFC_NUMBER_NONFINITE, /* YAML's .inf / .nan */
    KFC_NUMBER_RANGE      /* too large for a double */
} kfc_number_result;

/*
 * Parses `length` bytes at `text` (text[length] must be '\0') into the
 * nearest double. Exact: short inputs take a fast path whose single rounding
 * is correct, everything else goes to strtod.
 */
kfc_number_result kfc_parse_number(const char *text, size_t length, double *out);

/* How numbers are written, for a message about one that is not. */
#define KFC_NUMBER_FORMS "numbers are written as 2, -0.5, .25 or 1e3"

/* A number written with a unit of time ("4s", "500 ms", "16ms"): the
 * seconds it means into `seconds` and 1, or 0 when `text` (`length` bytes)
 * is not one. Every time kfc and kfplay read is a plain number of seconds,
 * and a unit is the way a time is most often written otherwise: both tools
 * say so, with KFC_NUMBER_NO_UNIT and the seconds (a double) for its "%.6g",
 * after what they say of the text. */
int kfc_number_time_unit(const char *text, size_t length, double *seconds);
#define KFC_NUMBER_NO_UNIT "numbers have no unit, and times are seconds (%.6g)"

/* Whether `value` rounds to a finite float32. */
int kfc_fits_float(double value);

/* The shortest "%.Ng" text (at least 6 digits) that reads back as `value`
 * through kfc_parse_number, so that what one tool writes another reads to
 * the bit; NaN and infinities as printf spells them. `out` holds
 * KFC_NUMBER_TEXT bytes. */
#define KFC_NUMBER_TEXT 32
void kfc_format_float(char *out, float value);
void kfc_format_double(char *out, double value);

#endif /* KFC_NUMBER_H */
