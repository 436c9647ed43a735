/* SPDX-License-Identifier: MIT */
/*
 * kfc_args.h - kfc's command line.
 *
 * Parsed the standard way, by getopt_long, with kfplay's conventions:
 * short options combine (-qv), take their value attached or apart (-z9,
 * -z 9), long ones as --opt=value or --opt value, "--" ends the options,
 * and "-" names standard input or output wherever a file is named. gcc's
 * -MD, -MF FILE and -MT TARGET are kept as gcc spells them. --help and
 * --version print on standard output; a usage error is one line (the
 * caller adds "Try 'kfc --help'").
 */
#ifndef KFC_ARGS_H
#define KFC_ARGS_H

#include <stdint.h>

#include "kf_build.h"
#include "kfc_diag.h"

#define KFC_VERSION "0.1.0"

/* zlib's default level: on the encoded arrays of format 2 it saves 5%
 * over level 1 (workload W), level 9 under 1% more at twice the deflate
 * time. Deflating the data section runs on a second thread while the
 * source is parsed (kf_builder_compress_ahead), so the level adds little
 * to the compile time. */
#define KFC_DEFAULT_COMPRESSION 6

typedef enum kfc_color_when { KFC_COLOR_AUTO, KFC_COLOR_ALWAYS, KFC_COLOR_NEVER } kfc_color_when;

typedef struct kfc_options {
    const char *input;
    const char *output; /* NULL: derived from the input */
    int decompile;
    int compression; /* zlib level 0-9, or KF_COMPRESSION_RUNS */
    int verbose;     /* -v; -q sets 0 */
    int quiet;       /* -q (errors only, not even notes); -v sets 0 */
    kfc_color_when color;
    int depfile;   /* -MD */
    int deps_only; /* -M: the rule, not the output */
    const char *depfile_path;
    const char *depfile_target;
    const char *animation;            /* glTF: NULL, or the one animation to import */
    const char *asset_root;           /* NULL, or where referenced files must lie */
    int loop;                         /* --loop: imported clips repeat */
    int split;                        /* --split: one output per imported clip */
    int lossy;                        /* -e given */
    double max_error[KF_BOUND_COUNT]; /* -e: 0 = lossless */
    unsigned max_errors;              /* --max-errors: errors before stopping, 0: all */
    uint32_t warnings_off;            /* -Wno-NAME, -w: bit per kfc_warning */
    uint32_t warnings_error;          /* -Werror, -Werror=NAME: bit per kfc_warning */
} kfc_options;

/* Errors reported before kfc stops, by default (clang's -ferror-limit). */
#define KFC_DEFAULT_MAX_ERRORS 20

/* The names of the -e kinds, in kf_bound_kind order. */
extern const char *const kfc_bound_names[KF_BOUND_COUNT];

/* Fills the defaults. */
void kfc_options_init(kfc_options *o);

/*
 * Parses argv into `o` (initialized by the caller). --help and --version
 * print on standard output and set *exit_now. A usage error returns
 * KFC_USAGE with a one-line message in `diag`. Uses getopt_long's globals:
 * call once per process (tests reset optind).
 */
kfc_status kfc_args_parse(int argc, char **argv, kfc_options *o, int *exit_now, kfc_diag *diag);

#endif /* KFC_ARGS_H */
