/* SPDX-License-Identifier: MIT */
#include "kfplay_args.h"

#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_getopt.h"
#include "kfc_number.h"
#include "kfc_text.h"

static void vreport(const char *subject, const char *severity, const char *format, va_list args)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

/* "SUBJECT: SEVERITY: MESSAGE", the subject (a file's name) written as a
 * name is, the message with the bytes a terminal acts on escaped
 * (kfc_text.h): the names it quotes are already written as names are
 * (kfp_quote, and the loader's messages likewise), and what else it holds
 * is kept to one line. */
static void vreport(const char *subject, const char *severity, const char *format, va_list args)
{
    char small[512];
    va_list again;
    va_copy(again, args);
    const int n = vsnprintf(small, sizeof small, format, args);
    char *text = n < 0 ? strcpy(small, "?") : small;
    if (n >= (int)sizeof small) {
        /* (a message past the buffer is still written whole where memory allows) */
        char *whole = malloc((size_t)n + 1);
        if (whole && vsnprintf(whole, (size_t)n + 1, format, again) == n)
            text = whole;
        else
            free(whole);
    }
    va_end(again);
    kfc_text_put_name(stderr, subject, 0);
    fprintf(stderr, ": %s: ", severity);
    kfc_text_write(stderr, text);
    fputc('\n', stderr);
    if (text != small)
        free(text);
}

void kfp_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport("kfplay", "error", format, args);
    va_end(args);
}

void kfp_warning(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport("kfplay", "warning", format, args);
    va_end(args);
}

void kfp_file_error(const char *file, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport(file, "error", format, args);
    va_end(args);
}

int kfp_usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport("kfplay", "error", format, args);
    va_end(args);
    fputs("Try 'kfplay --help' for more information.\n", stderr);
    return KFP_EXIT_USAGE;
}

const char *kfp_quote(char out[KFP_QUOTE_SIZE], const char *text)
{
    return kf_text_name(out, KFP_QUOTE_SIZE, text, strlen(text), 1);
}

/* Numbers are read in kfc's grammar (kfc_number.h): a number one tool
 * takes, the other takes too. A number written with a unit of time gets
 * kfc's answer to it, the seconds meant. Returns 1, or 0 with the message
 * in `message`. */
static int read_number(const char *what, const char *text, double *out, char *message, size_t size)
{
    char q[KFP_QUOTE_SIZE];
    const char *head = what ? what : "", *colon = what ? ": " : "";
    double seconds;
    switch (kfc_parse_number(text, strlen(text), out)) {
    case KFC_NUMBER_OK:
        return 1;
    case KFC_NUMBER_RANGE:
        snprintf(message, size, "%s%sout of range: %s", head, colon, kfp_quote(q, text));
        return 0;
    default:
        if (kfc_number_time_unit(text, strlen(text), &seconds))
            snprintf(message, size, "%s%snot a decimal number: %s: " KFC_NUMBER_NO_UNIT, head,
                     colon, kfp_quote(q, text), seconds);
        else
            snprintf(message, size, "%s%snot a decimal number: %s (" KFC_NUMBER_FORMS ")", head,
                     colon, kfp_quote(q, text));
        return 0;
    }
}

int kfp_parse_number(const char *what, const char *text, double *out)
{
    char message[512];
    if (read_number(what, text, out, message, sizeof message))
        return 1;
    kfp_error("%s", message);
    return 0;
}

int kfp_option_number(const char *what, const char *text, double *out)
{
    char message[512];
    if (read_number(what, text, out, message, sizeof message))
        return 0;
    return kfp_usage_error("%s", message);
}

int kfp_event_split(const kfp_options *o, char **words, int count, char *fixed, size_t size)
{
    if (!(o->given & KFP_OPT_EVENT) || o->event_count < 1 || count < 1 || size == 0)
        return 0;
    const char *event = o->events[o->event_count - 1];
    const char *value = strchr(event, '=');
    double number;
    /* Only an event whose value is one number, the first of those split
     * off: a value with a comma was written as meant. */
    if (!value || !value[1] || strchr(value, ','))
        return 0;
    for (int i = 0; i < count; i++)
        if (kfc_parse_number(words[i], strlen(words[i]), &number) != KFC_NUMBER_OK)
            return 0;
    size_t at = (size_t)snprintf(fixed, size, "%s", event);
    for (int i = 0; i < count && at < size; i++)
        at += (size_t)snprintf(fixed + at, size - at, ",%s", words[i]);
    return 1;
}

/* ---- options ------------------------------------------------------------ */

enum {
    OPT_FROM = 256,
    OPT_TO,
    OPT_STEP,
    OPT_SAMPLES,
    OPT_TANGENTS,
    OPT_TICK,
    OPT_UNTIL,
    OPT_CAPACITY,
    OPT_EVENT,
    OPT_ROTATION
};

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"step", required_argument, NULL, OPT_STEP},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"tangents", no_argument, NULL, OPT_TANGENTS},
    {"tick", required_argument, NULL, OPT_TICK},
    {"until", required_argument, NULL, OPT_UNTIL},
    {"capacity", required_argument, NULL, OPT_CAPACITY},
    {"event", required_argument, NULL, OPT_EVENT},
    {"rotation", required_argument, NULL, OPT_ROTATION},
    {NULL, 0, NULL, 0},
};

/* '-': operands in order (as option 1), whatever POSIXLY_CORRECT says;
 * ':': a missing value comes back as ':'. */
static const char short_options[] = "-:hVf:o:";

/* The KFP_OPT_ bit of each option with a value or flag, in bit order. */
static const struct {
    int code;
    const char *name;
} option_bits[KFP_OPT_COUNT] = {
    {'f', "--format"},
    {'o', "--output"},
    {OPT_FROM, "--from"},
    {OPT_TO, "--to"},
    {OPT_STEP, "--step"},
    {OPT_SAMPLES, "--samples"},
    {OPT_TANGENTS, "--tangents"},
    {OPT_TICK, "--tick"},
    {OPT_UNTIL, "--until"},
    {OPT_CAPACITY, "--capacity"},
    {OPT_EVENT, "--event"},
    {OPT_ROTATION, "--rotation"},
};

const char *kfp_option_name(unsigned bit)
{
    for (int i = 0; i < KFP_OPT_COUNT; i++)
        if (bit == 1u << i)
            return option_bits[i].name;
    return "?";
}

static unsigned bit_of(int code)
{
    for (int i = 0; i < KFP_OPT_COUNT; i++)
        if (option_bits[i].code == code)
            return 1u << i;
    return 0;
}

/* A negative number is an operand: getopt would take "-1.5" for options
 * '1', '.' and '5'. Such elements are handed to getopt with a space in
 * front (so that it sees an operand) and given back without it. What
 * strtod reads is more than kfplay takes ("-inf", "-0x10"): such an
 * element is then refused as the number it is meant to be, not as
 * options. */
static int is_negative_number(const char *s)
{
    char *end;
    if (s[0] != '-' || !s[1])
        return 0;
    (void)strtod(s, &end);
    return *end == '\0';
}

typedef struct shield {
    char *block; /* the shielded copies, each " " + the element + NUL */
    size_t size;
} shield;

static const char *unshield(const shield *s, const char *arg)
{
    return s->block && arg >= s->block && arg < s->block + s->size ? arg + 1 : arg;
}

static int number_option(int c, const char *value, double *out)
{
    return kfp_option_number(kfp_option_name(bit_of(c)), value, out);
}

static int take_option(int c, const char *value, kfp_options *o)
{
    char q[KFP_QUOTE_SIZE];
    o->given |= bit_of(c);
    switch (c) {
    case 'f':
        if (!kfp_format_parse(value, &o->format))
            return kfp_usage_error("unknown format %s: text, csv or json", kfp_quote(q, value));
        return 0;
    case 'o':
        if (!value[0])
            return kfp_usage_error("empty output file name");
        o->output = value;
        return 0;
    case OPT_FROM:
        return number_option(c, value, &o->from);
    case OPT_TO:
        return number_option(c, value, &o->to);
    case OPT_STEP:
        return number_option(c, value, &o->step);
    case OPT_SAMPLES:
        return number_option(c, value, &o->samples);
    case OPT_TANGENTS:
        o->tangents = 1;
        return 0;
    case OPT_TICK:
        return number_option(c, value, &o->tick);
    case OPT_UNTIL:
        return number_option(c, value, &o->until);
    case OPT_CAPACITY:
        return number_option(c, value, &o->capacity);
    case OPT_EVENT:
        o->events[o->event_count++] = value;
        return 0;
    case OPT_ROTATION:
        if (strcmp(value, "quaternion") == 0)
            o->rotation = KFP_ROTATION_QUATERNION;
        else if (strcmp(value, "axis-angle") == 0)
            o->rotation = KFP_ROTATION_AXIS_ANGLE;
        else
            return kfp_usage_error("unknown rotation form %s: quaternion or axis-angle",
                                   kfp_quote(q, value));
        return 0;
    default:
        return 0;
    }
}

int kfp_args_parse(int argc, char **argv, kfp_command_line *cl)
{
    memset(cl, 0, sizeof *cl);
    kfp_options *o = &cl->options;
    o->format = KFP_FORMAT_TEXT;
    o->rotation = KFP_ROTATION_AUTHORED;
    /* One allocation: the operands, the events, the shielded argv and the
     * shielded copies. */
    size_t text = 0;
    for (int i = 0; i < argc; i++)
        if (is_negative_number(argv[i]))
            text += strlen(argv[i]) + 2;
    const size_t n = (size_t)argc + 1;
    char *memory = malloc(3 * n * sizeof(char *) + text + 1);
    if (!memory) {
        kfp_error("out of memory");
        return KFP_EXIT_NOMEM;
    }
    cl->memory = memory;
    cl->operands = (char **)memory;
    o->events = (const char **)(memory + n * sizeof(char *));
    char **args = (char **)(memory + 2 * n * sizeof(char *));
    shield s = {memory + 3 * n * sizeof(char *), text};
    char *next = s.block;
    for (int i = 0; i < argc; i++) {
        args[i] = argv[i];
        if (is_negative_number(argv[i])) {
            args[i] = next;
            *next++ = ' ';
            strcpy(next, argv[i]);
            next += strlen(argv[i]) + 1;
        }
    }
    args[argc] = NULL;

    opterr = 0;
    optind = 0; /* a full reinitialization (glibc, musl) */
    int c, status = 0;
    for (;;) {
        const int at = optind > 0 ? optind : 1; /* the element a long option is read from */
        int which = -1;
        if (status || (c = getopt_long(argc, args, short_options, long_options, &which)) == -1)
            break;
        const char *element = optind > 0 && optind <= argc ? args[optind - 1] : NULL;
        char option[64], refused[KFC_GETOPT_MESSAGE_SIZE];
        if (at < argc && kfc_getopt_abbreviation(long_options, args[at], which, refused)) {
            status = kfp_usage_error("%s", refused);
            break;
        }
        switch (c) {
        case 1:
            cl->operands[cl->operand_count++] = (char *)unshield(&s, optarg);
            break;
        case 'h':
            cl->help = 1;
            break;
        case 'V':
            cl->version = 1;
            break;
        case ':':
            kfc_getopt_text(option, element, optopt);
            status = kfp_usage_error("%s needs a value", option);
            break;
        case '?':
            status = kfp_usage_error(
                "%s", kfc_getopt_refused(long_options, short_options, element, optopt, refused));
            break;
        default:
            status = take_option(c, optarg ? unshield(&s, optarg) : NULL, o);
            break;
        }
    }
    for (; !status && optind < argc; optind++) /* after "--" */
        cl->operands[cl->operand_count++] = (char *)unshield(&s, args[optind]);
    return status;
}

void kfp_command_line_free(kfp_command_line *cl)
{
    free(cl->memory);
    memset(cl, 0, sizeof *cl);
}

/* ---- times -------------------------------------------------------------- */

int kfp_times_init(kfp_times *t, const kfp_options *o, char **args, int count, double end,
                   const char *command, const char *what)
{
    memset(t, 0, sizeof *t);
    const unsigned range = KFP_OPT_FROM | KFP_OPT_TO | KFP_OPT_STEP | KFP_OPT_SAMPLES;
    if (count > 0 && (o->given & range))
        return kfp_usage_error("%s: give %s or a range (--from, --to, --step, --samples), not "
                               "both",
                               command, what);
    if (count > 0) {
        t->list = malloc((size_t)count * sizeof *t->list);
        if (!t->list) {
            kfp_error("out of memory");
            return KFP_EXIT_NOMEM;
        }
        /* Say what the operands are: `animate hip 0` takes a name for a
         * time. */
        char takes[96];
        snprintf(takes, sizeof takes, "%s takes %s", command, what);
        for (int i = 0; i < count; i++)
            if (!kfp_parse_number(takes, args[i], &t->list[i]))
                return KFP_EXIT_INVALID;
        t->count = (uint64_t)count;
        return 0;
    }
    const int step = (o->given & KFP_OPT_STEP) != 0, samples = (o->given & KFP_OPT_SAMPLES) != 0;
    if (step && samples)
        return kfp_usage_error("%s: --step and --samples exclude each other", command);
    if (!step && !samples) {
        if (o->given & range)
            return kfp_usage_error("%s: --from and --to need --step S or --samples N", command);
        return kfp_usage_error("%s needs %s: give them, or a range with --step S or --samples N "
                               "(and --from, --to)",
                               command, what);
    }
    t->from = o->given & KFP_OPT_FROM ? o->from : 0.0;
    t->to = o->given & KFP_OPT_TO ? o->to : end;
    if (isnan(t->to))
        return kfp_usage_error("%s: this range needs --to", command);
    /* A range is made of options alone (--to's default aside): what is
     * wrong with it is a usage error, as kfc's option values are. */
    if (!(t->to >= t->from) || !isfinite(t->to - t->from))
        return kfp_usage_error("%s: --to (%.9g) must not be before --from (%.9g)", command, t->to,
                               t->from);
    if (step) {
        t->step = o->step;
        if (!(t->step > 0.0))
            return kfp_usage_error("--step must be positive");
        /* A last time that lands on --to up to rounding, or passes it by
         * a rounded step's error (kfp_time_reach), is --to itself
         * (kfp_times_at). */
        const double steps = (t->to - t->from) / t->step;
        if (steps >= KFP_MAX_TIMES)
            return kfp_usage_error("%s: more than 1e9 %s", command, what);
        t->count = (uint64_t)floor(steps + 1e-9) + 1;
        t->reach = kfp_time_reach(t->step, t->to);
        t->places = kfp_time_places(t->from, t->step);
        if (t->from + (double)t->count * t->step <= t->to + t->reach)
            t->count++;
    } else {
        if (!(o->samples >= 1 && o->samples <= KFP_MAX_TIMES && o->samples == floor(o->samples)))
            return kfp_usage_error("--samples must be a whole number from 1 to 1e9");
        t->by_samples = 1;
        t->count = (uint64_t)o->samples;
    }
    return 0;
}

double kfp_time_reach(double step, double end)
{
    return fmax(1e-9 * step, fmin(1e-5 * fabs(end), 0.5 * step));
}

/* The decimal places of `x` written shortest. */
static int places_of(double x)
{
    char text[KFC_NUMBER_TEXT];
    kfc_format_double(text, x);
    const char *e = strchr(text, 'e'), *dot = strchr(text, '.');
    int places = dot ? (int)((e ? e : text + strlen(text)) - dot - 1) : 0;
    if (e)
        places -= atoi(e + 1);
    return places < 0 ? 0 : places;
}

int kfp_time_places(double from, double step)
{
    const int a = places_of(from), b = places_of(step);
    return a > b ? a : b;
}

double kfp_time_decimal(double at, int places)
{
    if (places > 17 || !isfinite(at) || fabs(at) >= 1e17)
        return at;
    char text[64];
    snprintf(text, sizeof text, "%.*f", places, at);
    double decimal;
    if (kfc_parse_number(text, strlen(text), &decimal) != KFC_NUMBER_OK)
        return at;
    /* (within the rounding of the product and the sum, no more) */
    return fabs(decimal - at) <= 8 * DBL_EPSILON * fabs(at) ? decimal : at;
}

double kfp_times_at(const kfp_times *t, uint64_t i)
{
    if (t->list)
        return t->list[i];
    if (!t->by_samples) {
        const double at = kfp_time_decimal(t->from + (double)i * t->step, /* no drift */
                                           t->places);
        return i + 1 == t->count && fabs(at - t->to) <= t->reach ? t->to : at;
    }
    if (t->count == 1)
        return t->from;
    if (i + 1 == t->count)
        return t->to;
    return t->from + (t->to - t->from) * (double)i / (double)(t->count - 1);
}

void kfp_times_free(kfp_times *t)
{
    free(t->list);
    memset(t, 0, sizeof *t);
}
