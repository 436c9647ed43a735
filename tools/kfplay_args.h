/* SPDX-License-Identifier: MIT */
/*
 * kfplay_args.h - kfplay's command line: options, numbers and times.
 *
 * One grammar with kfc's (compiler/kfc_args.h), parsed by getopt_long:
 * options go anywhere, short ones combine and take their value attached
 * or apart (-fcsv, -f csv), long ones as --opt=value or --opt value, "--"
 * ends the options, "-" names standard input or output. A negative number
 * ("-1.25") is an operand, never an option. Numbers are kfc's
 * (compiler/kfc_number.h): decimal, finite.
 *
 * Diagnostics are "kfplay: error: MESSAGE" on standard error; a usage
 * error adds "Try 'kfplay --help' for more information." and exits 2. An
 * option's value that is malformed or out of its range is a usage error,
 * as it is to kfc; an operand that is (a time) is invalid input, 1.
 */
#ifndef KFPLAY_ARGS_H
#define KFPLAY_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_diag.h"
#include "kfplay_format.h"

/* The exit statuses, kfc's (kfc_diag.h's kfc_status), so that a code means
 * the same for both tools: an invalid file, name or number; a usage error;
 * an input that cannot be opened or read, or an output that cannot be
 * written; out of memory. */
enum {
    KFP_EXIT_INVALID = KFC_INVALID,
    KFP_EXIT_USAGE = KFC_USAGE,
    KFP_EXIT_IO = KFC_IO,
    KFP_EXIT_NOMEM = KFC_NOMEM
};

/* How rotations print: as the animator states them (X3D interpolators
 * and followers axis-angle, sequences and targets quaternions), or all
 * one way. */
typedef enum kfp_rotation {
    KFP_ROTATION_AUTHORED,
    KFP_ROTATION_QUATERNION,
    KFP_ROTATION_AXIS_ANGLE
} kfp_rotation;

/* One bit per option, for "COMMAND takes no --OPTION". */
enum {
    KFP_OPT_FORMAT = 1 << 0,
    KFP_OPT_OUTPUT = 1 << 1,
    KFP_OPT_FROM = 1 << 2,
    KFP_OPT_TO = 1 << 3,
    KFP_OPT_STEP = 1 << 4,
    KFP_OPT_SAMPLES = 1 << 5,
    KFP_OPT_TANGENTS = 1 << 6,
    KFP_OPT_TICK = 1 << 7,
    KFP_OPT_UNTIL = 1 << 8,
    KFP_OPT_CAPACITY = 1 << 9,
    KFP_OPT_EVENT = 1 << 10,
    KFP_OPT_ROTATION = 1 << 11,
    KFP_OPT_COUNT = 12
};

typedef struct kfp_options {
    unsigned given; /* KFP_OPT_ bits */
    kfp_format format;
    const char *output;
    double from, to, step, samples;
    int tangents;
    double tick, until, capacity;
    const char **events; /* --event values, in order */
    int event_count;
    kfp_rotation rotation;
} kfp_options;

typedef struct kfp_command_line {
    kfp_options options;
    char **operands; /* in order: FILE, COMMAND, ... (or COMMAND, FILE, ...) */
    int operand_count;
    int help, version;
    void *memory; /* what the parse allocated */
} kfp_command_line;

/* Parses argv. Returns 0, KFP_EXIT_USAGE (an option's value that is not a
 * number among them) or KFP_EXIT_NOMEM, the error reported. Free with
 * kfp_command_line_free in every case. */
int kfp_args_parse(int argc, char **argv, kfp_command_line *cl);

void kfp_command_line_free(kfp_command_line *cl);

/* "--name" of a KFP_OPT_ bit. */
const char *kfp_option_name(unsigned bit);

/* Messages name what the file and the command line hold: each name is
 * quoted as kfc quotes one (kfp_quote), and the message written with the
 * bytes a terminal acts on as \xNN (kfc_text.h). */

/* `text` as a message quotes it, quotes included (kf_text_name: a
 * backslash as \\, a quote as \', the bytes a terminal acts on as \xNN;
 * cut with "..." only past about 240 bytes, so that what the command line
 * gave is seen whole): a name from the file, or what the command line
 * gave. Returns `out`, for a "%s". */
#define KFP_QUOTE_SIZE 256
const char *kfp_quote(char out[KFP_QUOTE_SIZE], const char *text);

/* "kfplay: error: MESSAGE" on standard error. */
void kfp_error(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* "kfplay: warning: MESSAGE" on standard error: done, but not all of it. */
void kfp_warning(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* "FILE: error: MESSAGE" on standard error: about the file read. */
void kfp_file_error(const char *file, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* kfp_error, then the "Try 'kfplay --help'" line; returns KFP_EXIT_USAGE. */
int kfp_usage_error(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Parses one number (kfc_number.h) into *out; otherwise reports it on
 * stderr, after `what` (say "sample takes times"; NULL: nothing), and
 * returns 0. A number with a unit of time ("16ms") is told the seconds
 * meant, as kfc tells it. */
int kfp_parse_number(const char *what, const char *text, double *out);

/* The same for an option's value (`what`: "--tick", "event '1:value=x'"),
 * refused as a usage error: returns 0 or KFP_EXIT_USAGE. */
int kfp_option_number(const char *what, const char *text, double *out);

/* Whether `words` (count > 0) are numbers the shell split off the last
 * --event's value, as "--event 0.5:destination=1 2 0" is split (X3D
 * writes a vector with spaces; the event's value is then one number):
 * then `fixed` holds the event as meant,
 * "0.5:destination=1,2,0" (truncated to `size`), and 1 is returned. */
int kfp_event_split(const kfp_options *o, char **words, int count, char *fixed, size_t size);

/*
 * The times (fractions, distances) a command evaluates: the numbers given
 * as operands, or a range: --from A (default 0) --to B (default `end`)
 * with --step S (A, A+S, ... up to B) or --samples N (N evenly spaced,
 * both ends included). Never both, never neither.
 */
typedef struct kfp_times {
    double *list; /* operands, or NULL for a range */
    uint64_t count;
    double from, to, step;
    double reach; /* a --step range's last time this near --to is --to */
    int by_samples;
    int places; /* a --step range's decimal places (kfp_time_places) */
} kfp_times;

/* How far past `end` a time of steps of `step` may land and still be
 * `end`'s own, run and printed at `end`: a step written to a few digits
 * (0.0166667 for 1/60) puts it a little past, by its rounding times the
 * steps. No more than 1e-5 of `end` and never half a step, so that it
 * cannot be the step after; at least rounding's 1e-9 of a step. Follow's
 * ticks and --step ranges both end so. */
double kfp_time_reach(double step, double end);

/* The decimal places of the decimals a range of `step` from `from` steps
 * through: 1 for 0.1 from 0, 2 for 0.02 from 1408703701.25; more than 17
 * when one is no short decimal (1/60). */
int kfp_time_places(double from, double step);

/* `at`, a time a range makes by multiplying (from + i * step), as the
 * decimal of `places` places it is within rounding of: 3 * 0.1 is 0.3,
 * not 0.30000000000000004, so that a time prints as the range asked for
 * and still reads back as the time played. */
double kfp_time_decimal(double at, int places);

/* The most times a range may hold: one row each. */
#define KFP_MAX_TIMES 1e9

/* Sets up `t` for `command`, whose operands (after NAME) are `args`.
 * `what` names them in messages ("times", "fractions"); `end` is the
 * default --to (NaN: none, --to is needed). Returns 0, KFP_EXIT_INVALID
 * (an operand that is no number), KFP_EXIT_USAGE (a range's options) or
 * KFP_EXIT_NOMEM (reported); free with kfp_times_free in
 * every case. */
int kfp_times_init(kfp_times *t, const kfp_options *o, char **args, int count, double end,
                   const char *command, const char *what);

/* Time i < t->count. */
double kfp_times_at(const kfp_times *t, uint64_t i);

void kfp_times_free(kfp_times *t);

#endif /* KFPLAY_ARGS_H */
