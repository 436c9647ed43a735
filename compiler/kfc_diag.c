/* SPDX-License-Identifier: MIT */
#include "kfc_diag.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kf_math.h"
#include "kfc_grow.h"
#include "kfc_text.h"

kfc_status kfc_fail(kfc_diag *diag, kfc_status status, kfc_mark mark, const char *format, ...)
{
    if (diag) {
        va_list args;
        diag->status = status;
        diag->mark = mark;
        diag->file = NULL;
        diag->pointer[0] = '\0';
        diag->printed = 0;
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
    }
    return status;
}

kfc_status kfc_fail_at(kfc_diag *diag, const char *where, const char *format, ...)
{
    if (diag) {
        va_list args;
        diag->status = KFC_INVALID;
        diag->mark = KFC_NO_MARK;
        diag->file = NULL;
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
        snprintf(diag->pointer, sizeof diag->pointer, "%s", where);
        diag->printed = 0;
    }
    return KFC_INVALID;
}

kfc_status kfc_fail_nomem(kfc_diag *diag)
{
    return kfc_fail(diag, KFC_NOMEM, KFC_NO_MARK, "out of memory");
}

/* A line's severity (print_line, kfc_diag_held). */
enum { LINE_ERROR = 0, LINE_WARNING = 1, LINE_NOTE = 2 };

static void report_line(kfc_diag *diag, const char *file, kfc_mark mark, const char *pointer,
                        int severity, const char *message, const char *suffix);

/* FNV-1a over the error's place and text. */
static uint64_t error_hash(const kfc_diag *diag)
{
    uint64_t h = 0xcbf29ce484222325u;
    const char *parts[3] = {diag->file ? diag->file : "", diag->pointer, diag->message};
    const uint32_t at[2] = {diag->mark.line, diag->mark.column};
    for (int p = 0; p < 3; p++)
        for (const char *c = parts[p]; *c; c++)
            h = (h ^ (unsigned char)*c) * 0x100000001b3u;
    for (int i = 0; i < 2; i++)
        h = (h ^ at[i]) * 0x100000001b3u;
    return h | 1; /* never 0, the value of "none yet" */
}

kfc_status kfc_recover(kfc_diag *diag, kfc_status status)
{
    if (status != KFC_INVALID || !diag || diag->error_limit == 0)
        return status;
    const uint64_t h = error_hash(diag);
    diag->printed = 1;
    if (h == diag->last_printed)
        return KFC_OK;
    /* One error past the limit: held back, and the run stops. */
    if (diag->errors >= diag->error_limit) {
        diag->held_back = 1;
        return KFC_INVALID;
    }
    diag->last_printed = h;
    report_line(diag,
                diag->file     ? diag->file
                : diag->source ? diag->source
                               : "kfc",
                diag->mark, diag->pointer, LINE_ERROR, diag->message, "");
    diag->errors++;
    return KFC_OK;
}

kfc_status kfc_recover_next(kfc_diag *diag, kfc_status status, kfc_status *first)
{
    if (status != KFC_OK && *first == KFC_OK)
        *first = status;
    return kfc_recover(diag, status);
}

int kfc_diag_stopped(const kfc_diag *diag)
{
    return diag->held_back;
}

int kfc_shell_word(char *out, size_t size, const char *name)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_./+,:=@%-";
    const size_t length = strlen(name);
    size_t quotes = 0;
    int plain = length > 0;
    const int shown = kfc_text_plain(name, length);
    for (size_t i = 0; i < length; i++) {
        const unsigned char c = (unsigned char)name[i];
        plain &= strchr(safe, c) != NULL;
        quotes += c == '\'';
    }
    /* "./" before a name an option's dash starts; quotes around it, and
     * each quote in it closed, escaped and opened again */
    const char *dot = name[0] == '-' ? "./" : "";
    if (!shown || length + 3 * quotes + 5 > size) {
        snprintf(out, size, "FILE");
        return 0;
    }
    if (plain) {
        snprintf(out, size, "%s%s", dot, name);
        return 1;
    }
    size_t n = 0;
    out[n++] = '\'';
    for (const char *d = dot; *d; d++)
        out[n++] = *d;
    for (size_t i = 0; i < length; i++) {
        if (name[i] == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            out[n++] = name[i];
        }
    }
    out[n++] = '\'';
    out[n] = '\0';
    return 1;
}

char *kfc_quote(char out[KFC_QUOTE_SIZE], const char *text, size_t length)
{
    return kf_text_name(out, KFC_QUOTE_SIZE, text, length, 1);
}

/* `text` with the bytes a terminal acts on as \xNN (kfc_text.h): one
 * diagnostic stays one line, and the terminal as it was, whatever a
 * message quotes. */
static void put_line_safe(FILE *stream, const char *text)
{
    kfc_text_write(stream, text);
}

/* One diagnostic line: the place in bold, the severity in its colour (as
 * gcc and clang colour theirs: errors red, warnings magenta, notes cyan). */
static void print_line(FILE *stream, int color, const char *file, kfc_mark mark,
                       const char *pointer, int severity, const char *message, const char *suffix)
{
    static const char *const label[] = {"error:", "warning:", "note:"};
    static const char *const tints[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};
    const char *bold = color ? "\033[1m" : "";
    const char *tint = color ? tints[severity] : "";
    const char *reset = color ? "\033[0m" : "";
    fputs(bold, stream);
    kfc_text_put_name(stream, file, 0); /* a file's name is shown as a name is */
    if (pointer[0]) {
        fputs(": ", stream);
        put_line_safe(stream, pointer);
    } else if (mark.line > 0) {
        fprintf(stream, ":%lu:%lu", (unsigned long)mark.line, (unsigned long)mark.column);
    }
    fprintf(stream, ":%s %s%s%s ", reset, tint, label[severity], reset);
    put_line_safe(stream, message);
    put_line_safe(stream, suffix);
    fputc('\n', stream);
}

void kfc_diag_print(FILE *stream, const char *file, const kfc_diag *diag)
{
    print_line(stream, diag->color, diag->file ? diag->file : file, diag->mark, diag->pointer,
               LINE_ERROR, diag->message, "");
}

typedef struct kfc_diag_held {
    const char *file;
    kfc_mark mark;
    size_t order;  /* the qsort is not stable */
    int severity;  /* LINE_* */
    int withdrawn; /* kfc_diag_withdraw */
    char pointer[sizeof((kfc_diag *)0)->pointer];
    char message[sizeof((kfc_diag *)0)->message];
    char suffix[64];
} kfc_diag_held;

/* print_line on diag->stream, or held while diag->holding. */
static void report_line(kfc_diag *diag, const char *file, kfc_mark mark, const char *pointer,
                        int severity, const char *message, const char *suffix)
{
    /* Held also without a stream: what is held is what can be withdrawn,
     * which uncounts it. */
    if (!diag->stream && !diag->holding)
        return;
    if (diag->holding) {
        kfc_diag_held *held =
            kfc_grow(diag->held, diag->held_count, &diag->held_capacity, sizeof *held, 8);
        if (held)
            diag->held = held;
    }
    if (!diag->holding || diag->held_count == diag->held_capacity) {
        if (diag->stream)
            print_line(diag->stream, diag->color, file, mark, pointer, severity, message, suffix);
        return;
    }
    kfc_diag_held *h = &diag->held[diag->held_count];
    h->file = file;
    h->mark = mark;
    h->order = diag->held_count++;
    h->severity = severity;
    h->withdrawn = 0;
    snprintf(h->pointer, sizeof h->pointer, "%s", pointer);
    snprintf(h->message, sizeof h->message, "%s", message);
    snprintf(h->suffix, sizeof h->suffix, "%s", suffix);
}

void kfc_diag_hold(kfc_diag *diag)
{
    diag->holding++;
}

size_t kfc_diag_held_count(const kfc_diag *diag)
{
    return diag->holding ? diag->held_count : 0;
}

int kfc_diag_withdraw(kfc_diag *diag, size_t index)
{
    if (!diag->holding || index >= diag->held_count || diag->held[index].severity != LINE_ERROR ||
        diag->held[index].withdrawn)
        return 0;
    diag->held[index].withdrawn = 1;
    diag->errors--;
    return 1;
}

static int by_position(const void *a, const void *b)
{
    const kfc_diag_held *x = a, *y = b;
    const uint64_t px = x->mark.line ? (uint64_t)x->mark.line << 32 | x->mark.column : UINT64_MAX;
    const uint64_t py = y->mark.line ? (uint64_t)y->mark.line << 32 | y->mark.column : UINT64_MAX;
    if (px != py)
        return px < py ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

void kfc_diag_release(kfc_diag *diag)
{
    if (!diag->holding || --diag->holding)
        return;
    if (diag->held_count > 1)
        qsort(diag->held, diag->held_count, sizeof *diag->held, by_position);
    for (size_t i = 0; i < diag->held_count && diag->stream; i++) {
        const kfc_diag_held *h = &diag->held[i];
        if (!h->withdrawn)
            print_line(diag->stream, diag->color, h->file, h->mark, h->pointer, h->severity,
                       h->message, h->suffix);
    }
    free(diag->held);
    diag->held = NULL;
    diag->held_count = diag->held_capacity = 0;
}

void kfc_diag_note(kfc_diag *diag, const char *file, kfc_mark mark, const char *message)
{
    /* (a note longer than a held line is printed whole, at once) */
    if (diag->holding && strlen(message) >= sizeof diag->held->message) {
        if (diag->stream)
            print_line(diag->stream, diag->color, file, mark, "", LINE_NOTE, message, "");
        return;
    }
    report_line(diag, file, mark, "", LINE_NOTE, message, "");
}

void kfc_diag_hold_failure(kfc_diag *diag)
{
    if (!diag->holding || diag->printed || diag->status == KFC_OK || diag->status == KFC_USAGE)
        return;
    report_line(diag,
                diag->file     ? diag->file
                : diag->source ? diag->source
                               : "kfc",
                diag->mark, diag->pointer, LINE_ERROR, diag->message, "");
    diag->printed = 1;
}

const char *const kfc_warning_names[KFC_WARN_COUNT] = {
    "uncontrolled-track",  "unused-sequence",
    "unused-interpolator", "unused-follower",
    "unused-controller",   "quaternion-length",
    "custom-property",     "long-duration",
    "fraction-range",      "empty",
    "x3d-unknown",         "x3d-dropped",
    "x3d-lenient",         "angle-range",
    "gltf-unknown",        "gltf-dropped",
};

#define KFC_TURN (2 * KF_PI)

uint32_t kfc_angles_over_turn(const double *v, uint32_t count, uint32_t *first)
{
    /* (a turn written to a few digits, 6.2832, is a turn) */
    uint32_t over = 0;
    for (uint32_t i = 0; i < count; i++)
        if (fabs(v[4 * (size_t)i + 3]) > KFC_TURN + 1e-3 && over++ == 0)
            *first = i;
    return over;
}

uint32_t kfc_keys_outside_fraction(const double *key, uint32_t count, uint32_t *first)
{
    uint32_t outside = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!(key[i] >= 0.0 && key[i] <= 1.0) && outside++ == 0)
            *first = i;
    return outside;
}

/* " (and N more keys)" of the key warnings below, or "" where there are none. */
static char *more_keys(char out[64], uint32_t more)
{
    out[0] = '\0';
    if (more)
        snprintf(out, 64, " (and %lu more key%s)", (unsigned long)more, more > 1 ? "s" : "");
    return out;
}

kfc_status kfc_warn_fraction_range(kfc_diag *diag, kfc_mark mark, uint32_t first, double key,
                                   uint32_t more)
{
    char others[64];
    more_keys(others, more);
    return kfc_warn(diag, KFC_WARN_FRACTION_RANGE, mark,
                    "key %lu (%.9g) is outside [0, 1]%s: the fraction a TimeSensor gives never "
                    "reaches it (cycleInterval sets the time)",
                    (unsigned long)first, key, others);
}

kfc_status kfc_warn_angle_range(kfc_diag *diag, kfc_mark mark, const char *what, double angle,
                                uint32_t more, const char *unit)
{
    char others[64];
    more_keys(others, more);
    if (unit)
        return kfc_warn(diag, KFC_WARN_ANGLE_RANGE, mark,
                        "%s an angle of %.9g, more than a turn%s: %s", what, angle, others, unit);
    return kfc_warn(diag, KFC_WARN_ANGLE_RANGE, mark,
                    "%s an angle of %.9g, more than a turn%s: angles are radians (%.9g degrees "
                    "is %.6g)",
                    what, angle, others, angle, angle * KFC_TURN / 360);
}

/* How far a quaternion's length may be from 1 before it is more likely
 * something else (axis and angle) than a rounded quaternion. */
#define UNIT_TOLERANCE 0.01

uint32_t kfc_quaternions_off_unit(const double *q, uint32_t count, uint32_t *first)
{
    uint32_t far = 0;
    for (uint32_t i = 0; i < count; i++) {
        const double *p = q + 4 * (size_t)i;
        if (fabs(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]) - 1.0) >
                UNIT_TOLERANCE &&
            far++ == 0)
            *first = i;
    }
    return far;
}

/* kfc_warn and kfc_warn_pointer: at `mark`, or at JSON pointer `pointer`
 * (NULL: none). */
static kfc_status warn_at(kfc_diag *diag, kfc_warning w, kfc_mark mark, const char *pointer,
                          const char *format, va_list args)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 0)))
#endif
    ;

static kfc_status warn_at(kfc_diag *diag, kfc_warning w, kfc_mark mark, const char *pointer,
                          const char *format, va_list args)
{
    const uint32_t bit = 1u << w;
    if (!diag || (diag->warnings_off & bit))
        return KFC_OK;
    const int as_error = (diag->warnings_error & bit) != 0;
    char message[sizeof diag->message], suffix[64];
    vsnprintf(message, sizeof message, format, args);
    snprintf(suffix, sizeof suffix, " [-W%s%s]", as_error ? "error=" : "", kfc_warning_names[w]);
    if (as_error && diag->error_limit > 0 && diag->errors >= diag->error_limit) {
        /* One error past the limit: held back, and the run stops. */
        diag->held_back = 1;
        kfc_fail(diag, KFC_INVALID, mark, "%s%s", message, suffix);
        if (pointer)
            snprintf(diag->pointer, sizeof diag->pointer, "%s", pointer);
        diag->printed = 1;
        return KFC_INVALID;
    }
    report_line(diag, diag->source ? diag->source : "kfc", mark, pointer ? pointer : "",
                as_error ? LINE_ERROR : LINE_WARNING, message, suffix);
    if (!as_error) {
        diag->warnings++;
        return KFC_OK;
    }
    /* An error like any other, already printed; what it is about was read
     * without error and is built. */
    diag->errors++;
    diag->promoted++;
    if (diag->error_limit == 0) {
        kfc_fail(diag, KFC_INVALID, mark, "%s%s", message, suffix);
        if (pointer)
            snprintf(diag->pointer, sizeof diag->pointer, "%s", pointer);
        diag->printed = diag->stream != NULL;
        return KFC_INVALID;
    }
    return KFC_OK;
}

kfc_status kfc_warn(kfc_diag *diag, kfc_warning w, kfc_mark mark, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    const kfc_status st = warn_at(diag, w, mark, NULL, format, args);
    va_end(args);
    return st;
}

kfc_status kfc_warn_pointer(kfc_diag *diag, kfc_warning w, const char *pointer, const char *format,
                            ...)
{
    va_list args;
    va_start(args, format);
    const kfc_status st = warn_at(diag, w, KFC_NO_MARK, pointer, format, args);
    va_end(args);
    return st;
}

kfc_status kfc_warn_long_seconds(kfc_diag *diag, kfc_mark mark, const char *pointer,
                                 const char *field, double seconds, const char *clock)
{
    char text[sizeof diag->message];
    snprintf(text, sizeof text,
             "a %s of %.9g s is %.3g minutes: %s times are seconds (milliseconds?)", field, seconds,
             seconds / 60.0, clock);
    return pointer ? kfc_warn_pointer(diag, KFC_WARN_LONG_DURATION, pointer, "%s", text)
                   : kfc_warn(diag, KFC_WARN_LONG_DURATION, mark, "%s", text);
}

kfc_status kfc_warn_quaternion_length(kfc_diag *diag, kfc_mark mark, const char *pointer,
                                      const char *what, const double *q, uint32_t count,
                                      const char *hint)
{
    uint32_t first = 0;
    const uint32_t far = kfc_quaternions_off_unit(q, count, &first);
    if (!far)
        return KFC_OK;
    /* Played normalized, and one of about no length as the identity, as
     * kf_qnormalize makes it (the builder's keys, the player's result). */
    int none = 0;
    for (uint32_t i = first; i < count; i++) {
        const double *p = q + 4 * (size_t)i;
        none |= p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] <= KF_QUAT_EPSILON;
    }
    const double *p = q + 4 * (size_t)first;
    char others[64], text[sizeof diag->message];
    more_keys(others, far - 1);
    snprintf(text, sizeof text,
             "key %lu has length %.3g, not 1%s: %s are quaternions [x, y, z, w], played "
             "normalized%s%s",
             (unsigned long)first, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]),
             others, what, none ? ", and one of about no length as no rotation, [0, 0, 0, 1]" : "",
             hint ? hint : "");
    return pointer ? kfc_warn_pointer(diag, KFC_WARN_QUATERNION_LENGTH, pointer, "%s", text)
                   : kfc_warn(diag, KFC_WARN_QUATERNION_LENGTH, mark, "%s", text);
}
