/* SPDX-License-Identifier: MIT */
#include "kfc_args.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>
#include <jansson.h>
#include <yaml.h>
#include <zlib.h>

#include "kf_build.h"
#include "kfc_getopt.h"
#include "kfc_suggest.h"

static const char usage_text[] =
    "Usage: kfc [OPTION...] [-o OUT.kfb] SRC.yaml\n"
    "       kfc [OPTION...] [-o OUT.kfb] [-a NAME|INDEX] [--loop] MODEL.gltf|.glb\n"
    "       kfc [OPTION...] -s [-o PATTERN] [--loop] MODEL.gltf|MODEL.glb\n"
    "       kfc [OPTION...] [-o OUT.kfb] MODEL.m3g\n"
    "       kfc [OPTION...] [-o OUT.kfb] SCENE.x3d|SCENE.x3dv|SCENE.wrl (gzipped too)\n"
    "       kfc -d [-o OUT.yaml] IN.kfb\n"
    "\n"
    "Compiles an animation into a .kfb file: kfb's YAML source (see\n"
    "formats/yaml.md), a glTF 2.0 model, an M3G file or an X3D scene; or writes\n"
    "a .kfb file back as source YAML that compiles to the same bytes. An input\n"
    "named is read from a regular file only; '-' reads standard input (a pipe).\n"
    "Times are seconds (a controller's speed scales them: speed 1000 plays keys\n"
    "written in milliseconds); rotation angles are radians.\n"
    "\n"
    "Options:\n"
    "  -o, --output=FILE  write FILE; '-' is standard output. Default: the input\n"
    "                     name with its extension replaced by .kfb (.yaml when\n"
    "                     decompiling, never over an existing file: name it with\n"
    "                     -o to replace it), a gzipped X3D scene's two together\n"
    "                     (door.x3d.gz: door.kfb); standard output when the input\n"
    "                     is '-'\n"
    "  -d, --decompile    read a .kfb file and write YAML source\n"
    "  -z, --compression=LEVEL\n"
    "                     zlib level 1-9 for the sections of the .kfb (default 6),\n"
    "                     0 to store them uncompressed (larger, faster to load), or\n"
    "                     'runs' to deflate nothing but leave the zero runs out of\n"
    "                     the arrays (loads about as fast as 0; small where -e\n"
    "                     quantized)\n"
    "  -e, --max-error=SPEC\n"
    "                     error-bounded compile: SPEC is comma-separated KIND=VALUE\n"
    "                     with KIND translation (absolute, source units),\n"
    "                     orientation (degrees), scale (relative) or other\n"
    "                     (absolute); kinds left out stay lossless. The bound\n"
    "                     holds for the sampled result at any time\n"
    "  -a, --animation=NAME|INDEX\n"
    "                     glTF input: import only this animation (default: all);\n"
    "                     digits are its index (from 0) when the file has that\n"
    "                     many, else a name\n"
    "      --asset-root=DIR\n"
    "                     glTF input: the folder the buffer files it names must\n"
    "                     lie in (default: the input's own folder; for standard\n"
    "                     input, the current one)\n"
    "      --loop         glTF input: each animation repeats over its length (its\n"
    "                     longest channel), as a game loops a clip\n"
    "  -s, --split        glTF input: one .kfb per animation, named by -o PATTERN\n"
    "                     with '*' for the animation's controller name (default:\n"
    "                     the input's name with _*.kfb for its extension)\n"
    "  -v, --verbose      report what was compiled on standard error: objects\n"
    "                     per kind, keys, bytes per section, ratio, time; for\n"
    "                     glTF and M3G input, also what was left out and why;\n"
    "                     for X3D input, what was skipped and where\n"
    "  -q, --quiet        report nothing but errors, no warnings (cancels -v)\n"
    "      --max-errors=N stop after N errors (default 20; 0: report them all)\n";

/* Apart from usage_text: C11 promises strings of 4095 characters. */
static const char usage_warnings[] =
    "  -WNAME, -Wno-NAME  turn warning NAME on (all are by default) or off; NAME\n"
    "                     is uncontrolled-track, unused-sequence,\n"
    "                     unused-interpolator, unused-follower, unused-controller\n"
    "                     (all four: unused), quaternion-length, custom-property,\n"
    "                     long-duration, fraction-range, empty, x3d-unknown,\n"
    "                     x3d-dropped, x3d-lenient, angle-range, gltf-unknown,\n"
    "                     gltf-dropped, or all\n"
    "  -Werror[=NAME]     report warnings (or NAME) as errors; -Wno-error[=NAME]\n"
    "                     undoes it\n"
    "  -w                 no warnings\n"
    "      --color[=WHEN] colour the diagnostics: auto (default: only on a\n"
    "                     terminal, and not when NO_COLOR is set), always, never\n"
    "  -MD                also write a dependency file for make and ninja: the\n"
    "                     output depends on every file kfc read\n"
    "  -M                 write that rule instead of the output (to -MF FILE or\n"
    "                     standard output): the input is compiled, nothing else\n"
    "                     is written\n"
    "  -MF FILE           the dependency file (default: the output name + .d, or\n"
    "                     with -M standard output; '-' is standard output)\n"
    "  -MT TARGET         the rule's target (default: the output name; needed when\n"
    "                     the output is standard output)\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the versions of kfc and the libraries it uses (libkf,\n"
    "                     libyaml, jansson, expat, zlib, and what libkf inflates\n"
    "                     with) and exit\n";

/* Apart from usage_text: C11 promises strings of 4095 characters. */
static const char usage_end[] =
    "\n"
    "Short options combine (-qv) and take their value attached or apart (-z9,\n"
    "-z 9); long ones take theirs as --opt=VALUE or --opt VALUE; '--' ends the\n"
    "options. An input of '-' is standard input. Errors are reported as\n"
    "FILE:LINE:COL: error: MESSAGE, every one kfc finds in the run; a failed run\n"
    "leaves no output file behind and an existing output untouched.\n"
    "\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  invalid input (a source in any format, or a .kfb file)\n"
    "  2  usage error\n"
    "  3  I/O error (cannot read the input or write the output)\n"
    "  4  out of memory\n";

const char *const kfc_bound_names[KF_BOUND_COUNT] = {"translation", "orientation", "scale",
                                                     "other"};

void kfc_options_init(kfc_options *o)
{
    memset(o, 0, sizeof *o);
    o->compression = KFC_DEFAULT_COMPRESSION;
    o->color = KFC_COLOR_AUTO;
    o->max_errors = KFC_DEFAULT_MAX_ERRORS;
}

/* The error for an item of -e's SPEC without '=': a bare number (the
 * likeliest slip: a bound without its kind) and a bare kind get told what
 * is missing. */
static kfc_status no_kind_value(const char *item, size_t len, kfc_diag *diag)
{
    char quoted[KFC_QUOTE_SIZE];
    kfc_quote(quoted, item, len);
    for (int k = 0; k < KF_BOUND_COUNT; k++)
        if (strcmp(item, kfc_bound_names[k]) == 0)
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                            "--max-error: %s is not KIND=VALUE: give it a bound, as in %s=0.001",
                            quoted, kfc_bound_names[k]);
    char *stop;
    const double value = strtod(item, &stop);
    /* A count is what --max-errors, one letter longer, takes. */
    const int count = value >= 1.0 && value <= 1e9 && value == floor(value);
    if (*item && !*stop && isfinite(value) && value > 0.0)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "--max-error: %s is not KIND=VALUE: say what it bounds, as in "
                        "translation=%s (KIND translation, orientation, scale or other; kinds "
                        "left out stay lossless)%s%s",
                        quoted, item,
                        count ? "; to report up to that many errors: --max-errors=" : "",
                        count ? item : "");
    return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                    "--max-error: %s is not KIND=VALUE (KIND translation, orientation, scale "
                    "or other)",
                    quoted);
}

/* -e SPEC: "kind=value[,kind=value...]", each kind at most once, each value
 * a positive finite number. A later -e sets again the kinds it gives, as a
 * compiler's later flag wins: a build's own flags may follow its defaults. */
static kfc_status parse_max_error(const char *spec, kfc_options *o, kfc_diag *diag)
{
    const char *p = spec;
    unsigned given = 0; /* kinds this SPEC gave */
    if (!*p)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "--max-error needs KIND=VALUE[,KIND=VALUE...] with KIND translation, "
                        "orientation, scale or other");
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[128], quoted[KFC_QUOTE_SIZE];
        if (len == 0 || len >= sizeof item)
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "--max-error: %s is not KIND=VALUE",
                            kfc_quote(quoted, p, len));
        memcpy(item, p, len);
        item[len] = 0;
        char *eq = strchr(item, '=');
        if (!eq)
            return no_kind_value(item, len, diag);
        *eq = 0;
        int kind = -1;
        for (int k = 0; k < KF_BOUND_COUNT; k++)
            if (strcmp(item, kfc_bound_names[k]) == 0)
                kind = k;
        if (kind < 0) {
            /* Other tools' names for the kinds, as for target properties. */
            static const kfc_alias aliases[] = {
                {"rotation", "orientation"}, {"position", "translation"}, {NULL, NULL}};
            const char *const kinds[] = {kfc_bound_names[0], kfc_bound_names[1], kfc_bound_names[2],
                                         kfc_bound_names[3], NULL};
            _Static_assert(KF_BOUND_COUNT == 4, "every kind a candidate");
            char mean[160];
            const char *alias = kfc_suggest_alias(aliases, item, strlen(item));
            if (alias)
                snprintf(mean, sizeof mean, "; did you mean '%s'?", alias);
            else
                kfc_suggest_among(diag, item, strlen(item), kinds, mean, sizeof mean);
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                            "--max-error: unknown kind %s (translation, orientation, scale or "
                            "other)%s",
                            kfc_quote(quoted, item, strlen(item)), mean);
        }
        if (given & 1u << kind)
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "--max-error: %s given twice",
                            kfc_bound_names[kind]);
        given |= 1u << kind;
        char *stop;
        const char *text = eq + 1;
        double value = strtod(text, &stop);
        if (!*text || *stop || !isfinite(value) || !(value > 0.0))
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                            "--max-error: %s needs a positive number, not %s",
                            kfc_bound_names[kind], kfc_quote(quoted, text, strlen(text)));
        o->max_error[kind] = value;
        p += len;
        if (*p == ',') {
            p++;
            if (!*p)
                return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                                "--max-error: nothing after the last ','");
        }
    }
    o->lossy = 1;
    return KFC_OK;
}

/* "WHAT 'ARG'" as a usage error. */
static kfc_status usage_error(kfc_diag *diag, const char *what, const char *arg)
{
    char quoted[KFC_QUOTE_SIZE];
    return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "%s %s", what,
                    kfc_quote(quoted, arg, strlen(arg)));
}

/* -W forms, in order (each later one overrides for the warnings it
 * names): NAME, no-NAME, error (all as errors but those -Wno-error=NAME
 * exempts), no-error, error=NAME (also turns NAME on), no-error=NAME; NAME
 * may be "unused" (the four unused-*) or "all". -w turns every warning off. */
typedef struct warning_state {
    uint32_t on, off;          /* as named */
    uint32_t error, not_error; /* -Werror=NAME, -Wno-error=NAME */
    int all_errors;            /* -Werror */
    int none;                  /* -w */
} warning_state;

#define ALL_WARNINGS ((1u << KFC_WARN_COUNT) - 1)

/* The warnings `name` stands for, or 0. */
static uint32_t warning_bits(const char *name)
{
    if (strcmp(name, "all") == 0)
        return ALL_WARNINGS;
    if (strcmp(name, "unused") == 0)
        return 1u << KFC_WARN_UNUSED_SEQUENCE | 1u << KFC_WARN_UNUSED_INTERPOLATOR |
               1u << KFC_WARN_UNUSED_FOLLOWER | 1u << KFC_WARN_UNUSED_CONTROLLER;
    for (int w = 0; w < KFC_WARN_COUNT; w++)
        if (strcmp(name, kfc_warning_names[w]) == 0)
            return 1u << w;
    return 0;
}

static kfc_status unknown_warning(const char *option, const char *name, kfc_diag *diag)
{
    kfc_suggest sg;
    kfc_suggest_begin(&sg, diag, name, strlen(name));
    for (int w = 0; w < KFC_WARN_COUNT; w++)
        kfc_suggest_offer(&sg, kfc_warning_names[w], strlen(kfc_warning_names[w]));
    kfc_suggest_offer(&sg, "unused", 6);
    kfc_suggest_offer(&sg, "all", 3);
    char quoted[KFC_QUOTE_SIZE], mean[160];
    kfc_suggest_text(&sg, mean, sizeof mean);
    return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "unknown warning %s%s%s",
                    kfc_quote(quoted, option, strlen(option)),
                    mean[0] ? "" : " (kfc --help lists them)", mean);
}

static kfc_status warning_option(const char *value, warning_state *w, kfc_diag *diag)
{
    char option[80];
    snprintf(option, sizeof option, "-W%.70s", value);
    const int no = strncmp(value, "no-", 3) == 0;
    const char *rest = no ? value + 3 : value;
    if (strcmp(rest, "error") == 0) {
        w->all_errors = !no;
        return KFC_OK;
    }
    const int error = strncmp(rest, "error=", 6) == 0;
    const char *name = error ? rest + 6 : rest;
    const uint32_t bits = warning_bits(name);
    if (!bits)
        return unknown_warning(option, name, diag);
    if (error && !no) {
        w->error |= bits;
        w->not_error &= ~bits;
        w->on |= bits;
        w->off &= ~bits;
    } else if (error) {
        w->not_error |= bits;
        w->error &= ~bits;
    } else if (no) {
        w->off |= bits;
        w->on &= ~bits;
    } else {
        w->on |= bits;
        w->off &= ~bits;
    }
    return KFC_OK;
}

/* Long options only (no short letter) have these codes. */
enum { OPT_COLOR = 256, OPT_MAX_ERRORS, OPT_LOOP, OPT_ASSET_ROOT };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"decompile", no_argument, NULL, 'd'},
    {"compression", required_argument, NULL, 'z'},
    {"max-error", required_argument, NULL, 'e'},
    {"animation", required_argument, NULL, 'a'},
    {"loop", no_argument, NULL, OPT_LOOP},
    {"asset-root", required_argument, NULL, OPT_ASSET_ROOT},
    {"split", no_argument, NULL, 's'},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"color", optional_argument, NULL, OPT_COLOR},
    {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* '-': operands come back in order as option 1, so the parse does not
 * depend on POSIXLY_CORRECT; ':': a missing value is reported as ':'. */
static const char short_options[] = "-:o:dz:e:a:svqhVM::W:w";

/* What an option's value is, for "missing ... after '-o'". */
static const char *value_name(int option)
{
    switch (option) {
    case 'o':
        return "file name";
    case 'z':
        return "level";
    case 'e':
        return "KIND=VALUE list";
    case 'a':
        return "animation name or index";
    case OPT_ASSET_ROOT:
        return "folder";
    default:
        return "value";
    }
}

/* gcc's -M, -MD, -MF FILE, -MT TARGET: getopt sees -M with the rest of the
 * element, if any, as its value (NULL, "D", "F", "Ffile"). */
static kfc_status depfile_option(int argc, char **argv, const char *value, kfc_options *o,
                                 kfc_diag *diag)
{
    if (!value) {
        o->deps_only = 1;
        return KFC_OK;
    }
    char text[64];
    snprintf(text, sizeof text, "-M%.40s", value);
    if (strcmp(value, "D") == 0) {
        o->depfile = 1;
        return KFC_OK;
    }
    if (value[0] != 'F' && value[0] != 'T')
        return usage_error(diag, "unknown option", text);
    const char *name = value + 1;
    if (!*name) {
        if (optind >= argc || !argv[optind][0])
            return usage_error(diag, "missing name after", text);
        name = argv[optind++];
    }
    *(value[0] == 'F' ? &o->depfile_path : &o->depfile_target) = name;
    return KFC_OK;
}

static kfc_status operand(const char *arg, kfc_options *o, kfc_diag *diag)
{
    if (o->input) {
        char quoted[KFC_QUOTE_SIZE];
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "more than one input file: %s (kfc reads one: -o goes before the "
                        "output's name)",
                        kfc_quote(quoted, arg, strlen(arg)));
    }
    o->input = arg;
    return KFC_OK;
}

kfc_status kfc_args_parse(int argc, char **argv, kfc_options *o, int *exit_now, kfc_diag *diag)
{
    *exit_now = 0;
    warning_state warnings;
    memset(&warnings, 0, sizeof warnings);
    opterr = 0;
    optind = 0; /* a full reinitialization (glibc, musl) */
    kfc_status st = KFC_OK;
    for (;;) {
        const int at = optind > 0 ? optind : 1; /* the element a long option is read from */
        int which = -1, c;
        if (st || (c = getopt_long(argc, argv, short_options, long_options, &which)) == -1)
            break;
        const char *element = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
        char text[64], refused[KFC_GETOPT_MESSAGE_SIZE];
        if (at < argc && kfc_getopt_abbreviation(long_options, argv[at], which, refused)) {
            st = kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "%s", refused);
            break;
        }
        switch (c) {
        case 1:
            st = operand(optarg, o, diag);
            break;
        case 'o':
            if (o->output)
                st = usage_error(diag, "more than one output file:", optarg);
            else if (!optarg[0])
                st = kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "empty output file name");
            else
                o->output = optarg;
            break;
        case 'd':
            o->decompile = 1;
            break;
        case 'z':
            if (strcmp(optarg, "runs") == 0)
                o->compression = KF_COMPRESSION_RUNS;
            else if (optarg[0] < '0' || optarg[0] > '9' || optarg[1])
                st = usage_error(diag, "compression level must be 0-9 or 'runs', not", optarg);
            else
                o->compression = optarg[0] - '0';
            break;
        case 'e':
            st = parse_max_error(optarg, o, diag);
            break;
        case 'a':
            o->animation = optarg;
            break;
        case OPT_LOOP:
            o->loop = 1;
            break;
        case OPT_ASSET_ROOT:
            if (!optarg[0])
                st = kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "empty --asset-root folder");
            else
                o->asset_root = optarg;
            break;
        case 's':
            o->split = 1;
            break;
        case 'v':
            o->verbose = 1;
            o->quiet = 0;
            break;
        case 'q':
            o->verbose = 0;
            o->quiet = 1;
            break;
        case OPT_COLOR:
            if (!optarg || strcmp(optarg, "always") == 0)
                o->color = KFC_COLOR_ALWAYS;
            else if (strcmp(optarg, "auto") == 0)
                o->color = KFC_COLOR_AUTO;
            else if (strcmp(optarg, "never") == 0)
                o->color = KFC_COLOR_NEVER;
            else
                st = usage_error(diag, "--color takes auto, always or never, not", optarg);
            break;
        case OPT_MAX_ERRORS: {
            char *end;
            unsigned long n = strtoul(optarg, &end, 10);
            if (optarg[0] < '0' || optarg[0] > '9' || *end || n > 1000000)
                st = usage_error(
                    diag, "--max-errors takes a count from 0 (no limit) to 1000000, not", optarg);
            else
                o->max_errors = (unsigned)n;
            break;
        }
        case 'M':
            st = depfile_option(argc, argv, optarg, o, diag);
            break;
        case 'W':
            st = warning_option(optarg, &warnings, diag);
            break;
        case 'w':
            warnings.none = 1;
            break;
        case 'h':
            fputs(usage_text, stdout);
            fputs(usage_warnings, stdout);
            fputs(usage_end, stdout);
            *exit_now = 1;
            return KFC_OK;
        case 'V': {
            /* "expat_2.5.0" */
            const char *expat = XML_ExpatVersion();
            if (strncmp(expat, "expat_", 6) == 0)
                expat += 6;
            printf("kfc %s (libkf %s, libyaml %s, jansson %s, expat %s, zlib %s)\n", KFC_VERSION,
                   kf_version(), yaml_get_version_string(), jansson_version_str(), expat,
                   zlibVersion());
            /* The same line as kfplay's: libkf's own choice. */
            printf("libkf inflates with %s\n", kf_inflate_library());
        }
            *exit_now = 1;
            return KFC_OK;
        case ':':
            if (optopt == 'M' || optopt == 'W') {
                snprintf(text, sizeof text, "-%c", optopt);
                st = usage_error(diag, "unknown option", text);
                break;
            }
            kfc_getopt_text(text, element, optopt);
            char what[64];
            snprintf(what, sizeof what, "missing %s after", value_name(optopt));
            st = usage_error(diag, what, text);
            break;
        default: /* '?' */
            st =
                kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "%s",
                         kfc_getopt_refused(long_options, short_options, element, optopt, refused));
            break;
        }
    }
    for (; !st && optind < argc; optind++) /* after "--" */
        st = operand(argv[optind], o, diag);
    if (st)
        return st;
    o->warnings_off = warnings.none ? ALL_WARNINGS : warnings.off;
    o->warnings_error = (warnings.error | (warnings.all_errors ? ALL_WARNINGS : 0)) &
                        ~warnings.not_error & ~o->warnings_off;
    if (!o->input)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "no input file");
    if ((o->depfile_path || o->depfile_target) && !o->depfile && !o->deps_only)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "-MF and -MT need -MD or -M");
    if (o->deps_only && o->split)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "-M describes one output; with --split, -MD writes each one's");
    return KFC_OK;
}
