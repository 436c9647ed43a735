/* SPDX-License-Identifier: MIT */
/*
 * kfc - the kfb compiler: YAML animation source (formats/yaml.md) to .kfb,
 * and back with --decompile.
 */
/* isatty and clock_gettime are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kf_build.h"
#include "kfc_args.h"
#include "kfc_decompile.h"
#include "kfc_depfile.h"
#include "kfc_diag.h"
#include "kfc_import.h"
#include "kfc_input.h"
#include "kfc_output.h"
#include "kfc_source.h"
#include "kfc_stats.h"
#include "kfc_yaml.h"

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

static kfc_status compile(const char *input, const char *output, const kfc_options *o,
                          kfc_diag *diag)
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
        kfc_import_options import = {input, o->animation, o->verbose ? stderr : NULL, 0};
        st = importer->compile(in.data, in.size, &import, builder, diag);
    } else if (!st) {
        st = kfc_source_compile(in.data, in.size, &limits, builder, &tracks_mark, diag);
    }
    /* Errors recovered from (kfc_recover) fail the compile all the same. */
    if (!st && diag->errors) {
        st = KFC_INVALID;
        diag->printed = 1; /* each one was */
    }
    kfc_input_close(&in);
    double worst[KF_BOUND_COUNT] = {0};
    if (!st && o->lossy) {
        kf_result r = kf_builder_reduce(builder, o->max_error, worst, &error);
        if (r != KF_OK)
            st = builder_failed(r, &error, diag);
    }

    /* The output is created only once the whole source has been accepted. */
    kfc_output out;
    tee copy = {&out, NULL, 0, 0};
    if (o->verbose) {
        copy.copy = malloc(4096);
        copy.capacity = copy.copy ? 4096 : 0;
    }
    if (!st && !(st = kfc_output_open(&out, output, diag))) {
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
                fprintf(stderr, " %s %.3g%s (max %.3g)", kfc_bound_names[k], worst[k],
                        k == KF_BOUND_ORIENTATION ? " deg" : "", o->max_error[k]);
            else
                fprintf(stderr, " %s lossless", kfc_bound_names[k]);
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

static kfc_status decompile(const char *input, const char *output, const kfc_options *o,
                            kfc_diag *diag)
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
    kfc_status st = kfc_output_open(&out, output, diag);
    if (!st) {
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

/* A usage error: one line, then where to read more. */
static int usage_failed(kfc_diag *diag)
{
    kfc_diag_print(stderr, "kfc", diag);
    fputs("Try 'kfc --help' for more information.\n", stderr);
    return KFC_USAGE;
}

int main(int argc, char **argv)
{
    kfc_options o;
    kfc_diag diag;
    int exit_now;
    kfc_options_init(&o);
    memset(&diag, 0, sizeof diag);

    kfc_status st = kfc_args_parse(argc, argv, &o, &exit_now, &diag);
    /* NO_COLOR (no-color.org): set and not empty turns automatic colour off. */
    const char *no_color = getenv("NO_COLOR");
    diag.color =
        o.color == KFC_COLOR_ALWAYS ||
        (o.color == KFC_COLOR_AUTO && isatty(fileno(stderr)) && !(no_color && no_color[0]));
    if (st)
        return usage_failed(&diag);
    if (exit_now)
        return fflush(stdout) == 0 ? KFC_OK : KFC_IO;
    const char *shown = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input;
    diag.stream = stderr;
    diag.source = shown;
    diag.error_limit = o.max_errors ? o.max_errors : UINT_MAX;
    diag.warnings_error = o.warnings_error;
    /* -q: errors only, warnings made errors included. */
    diag.warnings_off = o.warnings_off | (o.quiet ? ~o.warnings_error : 0);

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
                free(derived);
                return usage_failed(&diag);
            }
            output = derived;
        }
    }

    kfc_files_read files = {NULL, 0, 0};
    char *depfile_derived = NULL;
    const char *depfile = o.depfile_path;
    if (o.depfile) {
        diag.files_read = &files;
        if (!depfile && strcmp(output, "-") == 0) {
            st = kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                          "-MD with the output on standard output needs -MF FILE");
        } else if (depfile && strcmp(depfile, "-") == 0 && strcmp(output, "-") == 0) {
            st = kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                          "the output and the dependency file cannot both be standard output");
        } else if (!depfile) {
            depfile_derived = malloc(strlen(output) + 3);
            if (depfile_derived)
                strcat(strcpy(depfile_derived, output), ".d");
            else
                st = kfc_fail_nomem(&diag);
            depfile = depfile_derived;
        }
    }
    if (!st)
        st = o.decompile ? decompile(o.input, output, &o, &diag)
                         : compile(o.input, output, &o, &diag);
    /* Written after the output: a build system never sees a dependency file
     * newer than a failed or missing output. */
    if (!st && o.depfile)
        st =
            kfc_depfile_write(depfile, o.depfile_target ? o.depfile_target : output, &files, &diag);
    if (st == KFC_USAGE)
        usage_failed(&diag);
    else if (st && !diag.printed)
        kfc_diag_print(stderr, shown, &diag);
    if (kfc_diag_stopped(&diag))
        fprintf(stderr, "kfc: stopped after %u errors (--max-errors=0 reports them all)\n",
                diag.errors);
    kfc_files_read_free(&files);
    free(depfile_derived);
    free(derived);
    return (int)st;
}
