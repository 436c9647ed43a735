/* SPDX-License-Identifier: MIT */
/*
 * kfc - the kfb compiler: YAML animation source (formats/yaml.md) to .kfb,
 * and back with --decompile.
 */
/* isatty and clock_gettime are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <yaml.h>
#include <zlib.h>

#include "kf_build.h"
#include "kfc_decompile.h"
#include "kfc_depfile.h"
#include "kfc_diag.h"
#include "kfc_import.h"
#include "kfc_input.h"
#include "kfc_output.h"
#include "kfc_source.h"
#include "kfc_stats.h"
#include "kfc_yaml.h"

#define KFC_VERSION "0.1.0"

/* zlib's default level: on the encoded arrays of format 2 it saves 5%
 * over level 1 (workload W), level 9 under 1% more at twice the deflate
 * time. Deflating the data section runs on a second thread while the
 * source is parsed (kf_builder_compress_ahead), so the level adds little
 * to the compile time. */
#define KFC_DEFAULT_COMPRESSION 6

static const char usage_text[] =
    "Usage: kfc [-o OUT.kfb] SRC.yaml\n"
    "       kfc [-o OUT.kfb] [--animation NAME|INDEX] [-v] MODEL.gltf|MODEL.glb\n"
    "       kfc [-o OUT.kfb] [-v] MODEL.m3g\n"
    "       kfc [-o OUT.kfb] [-v] SCENE.x3d|SCENE.x3dv|SCENE.wrl (gzipped too)\n"
    "       kfc --decompile [-o OUT.yaml] IN.kfb\n"
    "\n"
    "Compiles a YAML animation source (see formats/yaml.md) into a .kfb file,\n"
    "or writes a .kfb file back as source YAML that compiles to the same bytes.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE  write FILE; '-' is standard output. Default: the input\n"
    "                     name with its extension replaced by .kfb (.yaml when\n"
    "                     decompiling); standard output when the input is '-'\n"
    "  -d, --decompile    read a .kfb file and write YAML source\n"
    "  -z, --compression LEVEL\n"
    "                     zlib level 1-9 for the sections of the .kfb (default 6),\n"
    "                     or 0 to store them uncompressed (larger, faster to load)\n"
    "  -e, --max-error SPEC\n"
    "                     error-bounded compile: SPEC is comma-separated KIND=VALUE\n"
    "                     with KIND translation (absolute, source units),\n"
    "                     orientation (degrees), scale (relative) or other\n"
    "                     (absolute); kinds left out stay lossless. The bound\n"
    "                     holds for the sampled result at any time\n"
    "  -a, --animation NAME|INDEX\n"
    "                     glTF input: import only this animation (default: all)\n"
    "      --asset-root DIR\n"
    "                     the folder the files an input names (glTF buffers) must\n"
    "                     lie in (default: the input's own folder)\n"
    "  -v, --verbose      report what was compiled on standard error: objects\n"
    "                     per kind, keys, bytes per section, ratio, time; for\n"
    "                     glTF and M3G input, also what was left out and why;\n"
    "                     for X3D input, what was skipped and where\n"
    "  -q, --quiet        report nothing but errors (cancels -v)\n"
    "      --color[=WHEN] colour the diagnostics: auto (default: only on a\n"
    "                     terminal, and not when NO_COLOR is set), always, never\n"
    "  -MD                also write a dependency file for make and ninja: the\n"
    "                     output depends on every file kfc read\n"
    "  -MF FILE           the dependency file (default: the output name + .d)\n"
    "  -MT TARGET         the rule's target (default: the output name)\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the versions of kfc and its libraries and exit\n"
    "\n"
    "An input of '-' is standard input. Errors are reported as\n"
    "FILE:LINE:COL: error: MESSAGE; a failed run leaves no output file behind\n"
    "and an existing output untouched.\n"
    "\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  invalid input (YAML source or .kfb file)\n"
    "  2  usage error\n"
    "  3  I/O error (cannot read the input or write the output)\n"
    "  4  out of memory\n";

typedef enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_when;

typedef struct options {
    const char *input;
    const char *output;
    int decompile;
    int compression; /* zlib level 0-9 */
    int verbose;     /* -v; -q sets 0 */
    int quiet;       /* -q: not even notes */
    color_when color;
    int depfile; /* -MD */
    const char *depfile_path;
    const char *depfile_target;
    const char *animation;            /* glTF: NULL, or the one animation to import */
    const char *asset_root;           /* NULL, or where referenced files must lie */
    int lossy;                        /* -e given */
    double max_error[KF_BOUND_COUNT]; /* -e: 0 = lossless */
} options;

static const char *const bound_names[KF_BOUND_COUNT] = {"translation", "orientation", "scale",
                                                        "other"};

/* -e SPEC: "kind=value[,kind=value...]", each kind at most once, each value
 * a positive finite number. */
static kfc_status parse_max_error(const char *spec, options *o, kfc_diag *diag)
{
    const char *p = spec;
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
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "--max-error: %s is not KIND=VALUE",
                            kfc_quote(quoted, item, len));
        *eq = 0;
        int kind = -1;
        for (int k = 0; k < KF_BOUND_COUNT; k++)
            if (strcmp(item, bound_names[k]) == 0)
                kind = k;
        if (kind < 0)
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                            "--max-error: unknown kind %s (translation, orientation, scale or "
                            "other)",
                            kfc_quote(quoted, item, strlen(item)));
        if (o->max_error[kind] > 0.0)
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "--max-error: %s given twice",
                            bound_names[kind]);
        char *stop;
        const char *text = eq + 1;
        double value = strtod(text, &stop);
        if (!*text || *stop || !isfinite(value) || !(value > 0.0))
            return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                            "--max-error: %s needs a positive number, not %s", bound_names[kind],
                            kfc_quote(quoted, text, strlen(text)));
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

/* Returns KFC_OK with `*exit_now` set for --help / --version. */
static kfc_status parse_args(int argc, char **argv, options *o, int *exit_now, kfc_diag *diag)
{
    int operands_only = 0;
    *exit_now = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        if (operands_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o->input)
                return usage_error(diag, "more than one input file:", arg);
            o->input = arg;
        } else if (strcmp(arg, "--") == 0) {
            operands_only = 1;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_text, stdout);
            *exit_now = 1;
            return KFC_OK;
        } else if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
            printf("kfc %s (libkf %s, libyaml %s, zlib %s)\n", KFC_VERSION, kf_version(),
                   yaml_get_version_string(), zlibVersion());
            *exit_now = 1;
            return KFC_OK;
        } else if (strcmp(arg, "-z") == 0 || strcmp(arg, "--compression") == 0) {
            if (i + 1 == argc)
                return usage_error(diag, "missing level after", arg);
            const char *level = argv[++i];
            if (level[0] < '0' || level[0] > '9' || level[1])
                return usage_error(diag, "compression level must be 0-9, not", level);
            o->compression = level[0] - '0';
        } else if (strcmp(arg, "-e") == 0 || strcmp(arg, "--max-error") == 0 ||
                   strncmp(arg, "--max-error=", 12) == 0) {
            const char *spec = arg[1] == '-' && arg[11] == '=' ? arg + 12 : NULL;
            if (!spec && i + 1 == argc)
                return usage_error(diag, "missing KIND=VALUE list after", arg);
            kfc_status e = parse_max_error(spec ? spec : argv[++i], o, diag);
            if (e)
                return e;
        } else if (strcmp(arg, "-a") == 0 || strcmp(arg, "--animation") == 0) {
            if (i + 1 == argc)
                return usage_error(diag, "missing animation name or index after", arg);
            o->animation = argv[++i];
        } else if (strcmp(arg, "--asset-root") == 0 || strncmp(arg, "--asset-root=", 13) == 0) {
            if (!arg[12] && i + 1 == argc)
                return usage_error(diag, "missing folder after", arg);
            o->asset_root = arg[12] ? arg + 13 : argv[++i];
            if (!o->asset_root[0])
                return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "empty --asset-root folder");
        } else if (strcmp(arg, "-d") == 0 || strcmp(arg, "--decompile") == 0) {
            o->decompile = 1;
        } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            o->verbose = 1;
            o->quiet = 0;
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            o->verbose = 0;
            o->quiet = 1;
        } else if (strcmp(arg, "--color") == 0 || strncmp(arg, "--color=", 8) == 0) {
            const char *when = arg[7] ? arg + 8 : "always";
            if (strcmp(when, "auto") == 0)
                o->color = COLOR_AUTO;
            else if (strcmp(when, "always") == 0)
                o->color = COLOR_ALWAYS;
            else if (strcmp(when, "never") == 0)
                o->color = COLOR_NEVER;
            else
                return usage_error(diag, "--color takes auto, always or never, not", when);
        } else if (strcmp(arg, "-MD") == 0) {
            o->depfile = 1;
        } else if (strcmp(arg, "-MF") == 0 || strcmp(arg, "-MT") == 0) {
            if (i + 1 == argc || !argv[i + 1][0])
                return usage_error(diag, "missing name after", arg);
            *(arg[2] == 'F' ? &o->depfile_path : &o->depfile_target) = argv[++i];
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (i + 1 == argc)
                return usage_error(diag, "missing file name after", arg);
            value = argv[++i];
        } else if (strncmp(arg, "--output=", 9) == 0) {
            value = arg + 9;
        } else if (strncmp(arg, "-o", 2) == 0) {
            value = arg + 2;
        } else {
            return usage_error(diag, "unknown option", arg);
        }
        if (value) {
            if (o->output)
                return usage_error(diag, "more than one output file:", value);
            if (!value[0])
                return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "empty output file name");
            o->output = value;
        }
    }
    if (!o->input)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "no input file");
    if ((o->depfile_path || o->depfile_target) && !o->depfile)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "-MF and -MT need -MD");
    return KFC_OK;
}

/* `input` with the extension of its last path component replaced by `ext`
 * (or `ext` appended); free() the result. */
static char *derived_name(const char *input, const char *ext)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - input) : strlen(input);
    char *name = malloc(stem + strlen(ext) + 1);
    if (name) {
        memcpy(name, input, stem);
        strcpy(name + stem, ext);
    }
    return name;
}

static kfc_status builder_failed(kf_result r, const kf_error *error, kfc_diag *diag)
{
    kfc_status status = r == KF_ERROR_OUT_OF_MEMORY ? KFC_NOMEM
                        : r == KF_ERROR_IO          ? KFC_IO
                                                    : KFC_INVALID;
    return kfc_fail(diag, status, KFC_NO_MARK, "%s",
                    error->message[0] ? error->message : kf_result_message(r));
}

/* kfc_output_write that also keeps a copy of the bytes, for -v. */
typedef struct tee {
    kfc_output *out;
    unsigned char *copy; /* NULL once a copy could not be kept: no report */
    size_t size, capacity;
} tee;

static int tee_write(void *user, const void *data, size_t size)
{
    tee *t = user;
    if (t->copy && t->capacity - t->size < size) {
        size_t capacity = t->capacity * 2 > t->size + size ? t->capacity * 2 : t->size + size;
        unsigned char *grown = realloc(t->copy, capacity);
        if (!grown) {
            free(t->copy);
            t->copy = NULL;
        } else {
            t->copy = grown;
            t->capacity = capacity;
        }
    }
    if (t->copy) {
        memcpy(t->copy + t->size, data, size);
        t->size += size;
    }
    return kfc_output_write(t->out, data, size);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Before an output is written: no output is an input (diag->files_read:
 * every file read so far) or the other output, and the dependency file can
 * list what it must. */
static kfc_status check_outputs(const char *output, const options *o, kfc_diag *diag)
{
    kfc_status st = kfc_output_check(output, "output", diag->files_read,
                                     o->depfile ? o->depfile_path : NULL, "dependency file", diag);
    if (!st && o->depfile)
        st = kfc_output_check(o->depfile_path, "dependency file", diag->files_read, NULL, NULL,
                              diag);
    if (!st && o->depfile)
        st = kfc_depfile_check(o->depfile_target ? o->depfile_target : output, diag->files_read,
                               diag);
    return st;
}

static kfc_status compile(const char *input, const char *output, const options *o, kfc_diag *diag)
{
    const double start = seconds_now();
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    kfc_input in;
    kfc_status st = kfc_input_open(&in, input, limits.max_input, diag);
    if (st)
        return st;
    kf_builder *builder = NULL;
    kf_error error;
    kfc_mark tracks_mark = KFC_NO_MARK;
    const kfc_importer *importer = kfc_import_find(input, in.data, in.size);
    if (kf_builder_create(NULL, &builder) != KF_OK ||
        (o->compression && !o->lossy &&
         kf_builder_compress_ahead(builder, o->compression) != KF_OK))
        st = kfc_fail_nomem(diag);
    if (!st && importer) {
        kfc_import_options import = {input, o->animation, o->verbose ? stderr : NULL, 0,
                                     o->asset_root};
        st = importer->compile(in.data, in.size, &import, builder, diag);
    } else if (!st) {
        st = kfc_source_compile(in.data, in.size, &limits, builder, &tracks_mark, diag);
    }
    kfc_input_close(&in);
    double worst[KF_BOUND_COUNT] = {0};
    if (!st && o->lossy) {
        kf_result r = kf_builder_reduce(builder, o->max_error, worst, &error);
        if (r != KF_OK)
            st = builder_failed(r, &error, diag);
    }

    /* The output is created only once the whole source has been accepted,
     * and its dependency file can be written. */
    if (!st)
        st = check_outputs(output, o, diag);
    kfc_output out;
    tee copy = {&out, NULL, 0, 0};
    if (o->verbose) {
        copy.copy = malloc(4096);
        copy.capacity = copy.copy ? 4096 : 0;
    }
    if (!st && !(st = kfc_output_open(&out, output, diag))) {
        out.notes = o->quiet ? NULL : stderr;
        kf_encode_options encode = {sizeof encode, o->compression, 0};
        kf_result r = kf_builder_encode(builder, &encode, tee_write, &copy, &error);
        if (r != KF_OK && out.error)
            st = kfc_output_write_failed(&out, diag);
        else if (r != KF_OK) {
            kfc_output_abort(&out);
            st = builder_failed(r, &error, diag);
            /* The one check only encoding makes: report it where the tracks
             * that ask for the memory are. */
            if (r == KF_ERROR_LIMIT && importer && importer->limit_pointer)
                snprintf(diag->pointer, sizeof diag->pointer, "%s", importer->limit_pointer);
            else if (r == KF_ERROR_LIMIT && !importer)
                diag->mark = tracks_mark;
        } else {
            st = kfc_output_commit(&out, diag);
        }
    }
    if (!st && copy.copy)
        kfc_stats_print(stderr, strcmp(input, "-") == 0 ? "<stdin>" : input, output, copy.copy,
                        copy.size, seconds_now() - start);
    if (!st && o->verbose && o->lossy) {
        fputs("kfc: worst error:", stderr);
        for (int k = 0; k < KF_BOUND_COUNT; k++) {
            if (o->max_error[k] > 0.0)
                fprintf(stderr, " %s %.3g%s (max %.3g)", bound_names[k], worst[k],
                        k == KF_BOUND_ORIENTATION ? " deg" : "", o->max_error[k]);
            else
                fprintf(stderr, " %s lossless", bound_names[k]);
            fputs(k + 1 < KF_BOUND_COUNT ? "," : "\n", stderr);
        }
    }
    free(copy.copy);
    kf_builder_destroy(builder);
    return st;
}

static size_t read_stream(void *user, void *buffer, size_t size)
{
    FILE *f = user;
    size_t n = fread(buffer, 1, size, f);
    return n == 0 && ferror(f) ? (size_t)-1 : n;
}

static kfc_status decompile(const char *input, const char *output, const options *o, kfc_diag *diag)
{
    const double start = seconds_now();
    kf_anim *anim;
    kf_error error;
    kf_result r = strcmp(input, "-") == 0 ? kf_load_stream(read_stream, stdin, NULL, &anim, &error)
                                          : kf_load_file(input, NULL, &anim, &error);
    if (r != KF_OK)
        return builder_failed(r, &error, diag);
    /* libkf reads the file itself, not through kfc_input. */
    if (strcmp(input, "-") != 0 && diag->files_read &&
        kfc_files_read_add(diag->files_read, input, diag) != KFC_OK) {
        kf_anim_free(anim);
        return KFC_NOMEM;
    }
    kfc_output out;
    kfc_status st = check_outputs(output, o, diag);
    if (!st)
        st = kfc_output_open(&out, output, diag);
    if (!st) {
        out.notes = o->quiet ? NULL : stderr;
        st = kfc_decompile(anim, kfc_output_write, &out, diag);
        if (st == KFC_IO && out.error)
            st = kfc_output_write_failed(&out, diag);
        else if (st)
            kfc_output_abort(&out);
        else
            st = kfc_output_commit(&out, diag);
    }
    if (!st && o->verbose)
        fprintf(stderr, "kfc: %s -> %s in %.3f ms\n", strcmp(input, "-") == 0 ? "<stdin>" : input,
                output, (seconds_now() - start) * 1e3);
    kf_anim_free(anim);
    return st;
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    o.compression = KFC_DEFAULT_COMPRESSION;
    o.color = COLOR_AUTO;
    kfc_diag diag;
    int exit_now;
    memset(&diag, 0, sizeof diag);

    kfc_status st = parse_args(argc, argv, &o, &exit_now, &diag);
    /* NO_COLOR (no-color.org): set and not empty turns automatic colour off. */
    const char *no_color = getenv("NO_COLOR");
    diag.color = o.color == COLOR_ALWAYS ||
                 (o.color == COLOR_AUTO && isatty(fileno(stderr)) && !(no_color && no_color[0]));
    if (st) {
        kfc_diag_print(stderr, "kfc", &diag);
        fputs("Try 'kfc --help' for more information.\n", stderr);
        return (int)st;
    }
    if (exit_now)
        return fflush(stdout) == 0 ? KFC_OK : KFC_IO;

    char *derived = NULL;
    const char *output = o.output;
    if (!output) {
        if (strcmp(o.input, "-") == 0) {
            output = "-";
        } else {
            derived = derived_name(o.input, o.decompile ? ".yaml" : ".kfb");
            if (!derived) {
                kfc_fail_nomem(&diag);
                kfc_diag_print(stderr, "kfc", &diag);
                return KFC_NOMEM;
            }
            if (strcmp(derived, o.input) == 0) {
                char quoted[KFC_QUOTE_SIZE];
                kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                         "the default output name %s is the input's own; give one with -o",
                         kfc_quote(quoted, derived, strlen(derived)));
                kfc_diag_print(stderr, "kfc", &diag);
                free(derived);
                return KFC_USAGE;
            }
            output = derived;
        }
    }

    kfc_files_read files = {NULL, 0, 0};
    char *depfile_derived = NULL;
    const char *depfile = o.depfile_path;
    diag.files_read = &files; /* inputs are never outputs; -MD lists them */
    if (o.depfile) {
        if (!depfile && strcmp(output, "-") == 0) {
            st = kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                          "-MD with the output on standard output needs -MF FILE");
        } else if (!depfile) {
            depfile_derived = malloc(strlen(output) + 3);
            if (depfile_derived)
                strcat(strcpy(depfile_derived, output), ".d");
            else
                st = kfc_fail_nomem(&diag);
            depfile = depfile_derived;
        }
        o.depfile_path = depfile;
    }
    if (!st)
        st = o.decompile ? decompile(o.input, output, &o, &diag)
                         : compile(o.input, output, &o, &diag);
    /* Written after the output: a build system never sees a dependency file
     * newer than a failed or missing output. */
    if (!st && o.depfile)
        st = kfc_depfile_write(depfile, o.depfile_target ? o.depfile_target : output, &files,
                               o.quiet ? NULL : stderr, &diag);
    if (st)
        kfc_diag_print(stderr, strcmp(o.input, "-") == 0 ? "<stdin>" : o.input, &diag);
    kfc_files_read_free(&files);
    free(depfile_derived);
    free(derived);
    return (int)st;
}
