/* SPDX-License-Identifier: MIT */
/*
 * kfc - the kfb compiler: YAML animation source (formats/yaml.md) to .kfb,
 * and back with --decompile.
 */
/* isatty and clock_gettime are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kf_build.h"
#include "kfb_format.h"
#include "kfc_args.h"
#include "kfc_decompile.h"
#include "kfc_depfile.h"
#include "kfc_diag.h"
#include "kfc_grow.h"
#include "kfc_import.h"
#include "kfc_input.h"
#include "kfc_output.h"
#include "kfc_source.h"
#include "kfc_stats.h"
#include "kfc_yaml.h"

/* `input` with the extension of its last path component replaced by `ext`
 * (or `ext` appended); a gzipped X3D scene's two (door.x3d.gz, door.wrl.gz)
 * are replaced together. Every name kfc makes up from its input's comes
 * from here: the output's, --split's pattern, and through the output the
 * dependency file's and its rule's target. free() the result. */
static char *derived_name(const char *input, const char *ext)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - input) : strlen(input);
    size_t gzipped = kfc_import_suffix(base);
    if (gzipped && gzipped < strlen(base))
        stem = (size_t)(base - input) + strlen(base) - gzipped;
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
 * every file read so far) or the other output, and the dependency file
 * (`depfile`, or none) can list what it must. */
static kfc_status check_outputs(const char *output, const char *depfile, const kfc_options *o,
                                kfc_diag *diag)
{
    kfc_status st = kfc_output_check(output, "output", diag->files_read,
                                     o->depfile ? depfile : NULL, "dependency file", diag);
    if (!st && o->depfile)
        st = kfc_output_check(depfile, "dependency file", diag->files_read, NULL, NULL, diag);
    if (!st && o->depfile)
        st = kfc_depfile_check(o->depfile_target ? o->depfile_target : output, diag->files_read, 0,
                               diag);
    return st;
}

/* --split: the builders of the clips, in the order imported, and the
 * files they go into. */
typedef struct clip {
    kf_builder *builder;
    char *name; /* the controller's */
    size_t index;
    char *file, *depfile; /* named by write_clips; NULL until then */
} clip;

typedef struct clip_list {
    clip *items;
    size_t count, capacity;
    const kfc_options *o;
} clip_list;

static kf_builder *new_builder(const kfc_options *o, kfc_diag *diag)
{
    kf_builder *builder = NULL;
    if (kf_builder_create(NULL, &builder) != KF_OK ||
        (o->compression > 0 && !o->lossy &&
         kf_builder_compress_ahead(builder, o->compression) != KF_OK)) {
        kf_builder_destroy(builder);
        kfc_fail_nomem(diag);
        return NULL;
    }
    return builder;
}

/* kfc_import_options.clip: a builder of its own for each clip. */
static kf_builder *next_clip(void *user, size_t index, const char *name, kfc_diag *diag)
{
    clip_list *list = user;
    clip *grown = kfc_grow(list->items, list->count, &list->capacity, sizeof *grown, 8);
    if (!grown) {
        kfc_fail_nomem(diag);
        return NULL;
    }
    list->items = grown;
    clip *c = &list->items[list->count];
    c->index = index;
    c->file = c->depfile = NULL;
    c->name = malloc(strlen(name) + 1);
    c->builder = c->name ? new_builder(list->o, diag) : NULL;
    if (!c->builder) {
        if (!c->name)
            kfc_fail_nomem(diag);
        free(c->name);
        return NULL;
    }
    strcpy(c->name, name);
    list->count++;
    return c->builder;
}

/* After the run's error is reported: it may name a clip's file. */
static void clip_list_free(clip_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        kf_builder_destroy(list->items[i].builder);
        free(list->items[i].name);
        free(list->items[i].file);
        free(list->items[i].depfile);
    }
    free(list->items);
}

/* Whether `file` would be written where the file of one of the `count`
 * clips before it is (or, with dependency files, `file` and its FILE.d
 * where any of theirs is). */
static int file_taken(const char *file, const clip *taken, size_t count, int depfiles)
{
    const size_t n = strlen(file);
    for (size_t i = 0; i < count; i++) {
        const char *other = taken[i].file;
        const size_t t = strlen(other);
        if (strcmp(other, file) == 0 ||
            (depfiles &&
             ((n == t + 2 && strncmp(file, other, t) == 0 && !strcmp(file + t, ".d")) ||
              (t == n + 2 && strncmp(other, file, n) == 0 && !strcmp(other + n, ".d")))))
            return 1;
    }
    return 0;
}

/* The file of clip `c`: `pattern` with each '*' replaced by the clip's
 * name, kept to letters, digits, '-', '_' and '.' (not first), and UTF-8,
 * every other byte '_'; a name a clip before it took gets "_<index>", and
 * should that be taken too, "_<index>_2", "_<index>_3" ... `taken` holds
 * the clips named so far (`depfiles`: each file with its FILE.d). Free()
 * the result. */
static char *clip_file(const char *pattern, const clip *c, const clip *taken, size_t count,
                       int depfiles)
{
    const size_t n = strlen(c->name);
    char *word = malloc(n + 48);
    if (!word)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const unsigned char ch = (unsigned char)c->name[i];
        const int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                         (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch >= 0x80 ||
                         (ch == '.' && i > 0);
        word[i] = keep ? (char)ch : '_';
    }
    word[n] = '\0';
    size_t stars = 0;
    for (const char *p = pattern; *p; p++)
        stars += *p == '*';
    char *file = NULL;
    /* Each attempt's name differs from every other's, and each file taken
     * rules out three at most (itself, FILE.d, and the FILE whose .d it
     * is): one of the first 3 count + 1 is free. */
    for (size_t attempt = 0; word; attempt++) {
        if (attempt == 1)
            snprintf(word + n, 48, "_%lu", (unsigned long)c->index);
        else if (attempt > 1)
            snprintf(word + n, 48, "_%lu_%lu", (unsigned long)c->index, (unsigned long)attempt);
        const size_t w = strlen(word);
        free(file);
        file = malloc(strlen(pattern) + stars * w + 1);
        if (!file)
            break;
        char *q = file;
        for (const char *p = pattern; *p; p++) {
            if (*p == '*') {
                memcpy(q, word, w);
                q += w;
            } else {
                *q++ = *p;
            }
        }
        *q = '\0';
        if (!file_taken(file, taken, count, depfiles))
            break;
    }
    free(word);
    return file;
}

/* The rule's target of `output`'s dependency file. */
static const char *depfile_target(const kfc_options *o, const char *output)
{
    return o->depfile_target ? o->depfile_target : output;
}

/* One .kfb and its dependency file (-MD), each complete in its temporary
 * file before either is renamed into place, so that a run that fails at
 * either leaves neither (and earlier ones untouched); then what -v says of
 * it. Zeroed before use; not moved once prepared (kfc_output.h). */
typedef struct kfb_file {
    const char *output;
    const char *depfile; /* NULL: none */
    kfc_output out, dep;
    tee copy; /* -v */
    double worst[KF_BOUND_COUNT];
} kfb_file;

/* The builder's content, made lossy (-e) and encoded, into f->output's
 * temporary file, and the dependency file into its own. */
static kfc_status prepare_kfb(kfb_file *f, kf_builder *builder, const kfc_options *o,
                              const kfc_importer *importer, kfc_mark tracks_mark, kfc_diag *diag)
{
    kf_error error;
    kfc_status st = KFC_OK;
    if (o->lossy) {
        kf_result r = kf_builder_reduce(builder, o->max_error, f->worst, &error);
        if (r != KF_OK)
            st = builder_failed(r, &error, diag);
    }

    /* The output is created only once the whole source has been accepted,
     * and its dependency file can be written. */
    if (!st)
        st = check_outputs(f->output, f->depfile, o, diag);
    f->copy.out = &f->out;
    if (o->verbose) {
        f->copy.copy = malloc(4096);
        f->copy.capacity = f->copy.copy ? 4096 : 0;
    }
    if (!st && !(st = kfc_output_open(&f->out, f->output, diag))) {
        f->out.notes = o->quiet ? NULL : stderr;
        kf_encode_options encode = {sizeof encode, o->compression, 0};
        kf_result r = kf_builder_encode(builder, &encode, tee_write, &f->copy, &error);
        if (r != KF_OK && f->out.error)
            st = kfc_output_write_failed(&f->out, diag);
        else if (r != KF_OK) {
            kfc_output_abort(&f->out);
            st = builder_failed(r, &error, diag);
            /* The one check only encoding makes: report it where the tracks
             * that ask for the memory are. */
            if (r == KF_ERROR_LIMIT && importer && importer->limit_pointer)
                snprintf(diag->pointer, sizeof diag->pointer, "%s", importer->limit_pointer);
            else if (r == KF_ERROR_LIMIT && !importer)
                diag->mark = tracks_mark;
        } else {
            st = kfc_output_close(&f->out, diag);
        }
    }
    if (!st && f->depfile &&
        (st = kfc_depfile_prepare(&f->dep, f->depfile, depfile_target(o, f->output),
                                  diag->files_read, o->quiet ? NULL : stderr, diag)))
        kfc_output_abort(&f->out);
    return st;
}

/* What -v says of a file written. */
static void report_kfb(const kfb_file *f, const char *input, const kfc_options *o, double start)
{
    if (f->copy.copy)
        kfc_stats_print(stderr, strcmp(input, "-") == 0 ? "<stdin>" : input, f->output,
                        f->copy.copy, f->copy.size, seconds_now() - start);
    if (o->verbose && o->lossy) {
        fputs("kfc: worst error:", stderr);
        for (int k = 0; k < KF_BOUND_COUNT; k++) {
            if (o->max_error[k] > 0.0 && f->worst[k] < 0.0)
                fprintf(stderr, " %s nothing reduced (max %.3g)", kfc_bound_names[k],
                        o->max_error[k]);
            else if (o->max_error[k] > 0.0)
                fprintf(stderr, " %s %.3g%s (max %.3g)", kfc_bound_names[k], f->worst[k],
                        k == KF_BOUND_ORIENTATION ? " deg" : "", o->max_error[k]);
            else
                fprintf(stderr, " %s lossless", kfc_bound_names[k]);
            fputs(k + 1 < KF_BOUND_COUNT ? "," : "\n", stderr);
        }
    }
}

/* The builder's content into `output` (and `depfile`, or none). */
static kfc_status write_kfb(kf_builder *builder, const char *input, const char *output,
                            const char *depfile, const kfc_options *o, const kfc_importer *importer,
                            kfc_mark tracks_mark, double start, kfc_diag *diag)
{
    kfb_file f;
    memset(&f, 0, sizeof f);
    f.output = output;
    f.depfile = depfile;
    kfc_status st = prepare_kfb(&f, builder, o, importer, tracks_mark, diag);
    /* The dependency file first: should the output's rename then fail, the
     * rule lists what the output (older, or missing) is rebuilt from. */
    kfc_output *const outs[] = {depfile ? &f.dep : NULL, &f.out};
    if (!st)
        st = kfc_output_commit_all(outs, 2, diag);
    if (!st)
        report_kfb(&f, input, o, start);
    free(f.copy.copy);
    return st;
}

/* --animation, --loop and --split concern the clips of an input whose
 * importer has them: refused, with the importer's reason, for any other. */
static kfc_status clip_options(const kfc_options *o, const kfc_importer *importer, kfc_diag *diag)
{
    const char *why = !importer ? "a kfb source is compiled whole, and says which sequences "
                                  "loop (repeat: loop)"
                                : importer->no_clips;
    if (!why)
        return KFC_OK;
    const char *what = o->animation ? "--animation selects one of an input's animations"
                       : o->loop    ? "--loop repeats an input's animations"
                       : o->split   ? "--split writes one file per animation of an input"
                                    : NULL;
    return what ? kfc_fail(diag, KFC_USAGE, KFC_NO_MARK, "%s; %s", what, why) : KFC_OK;
}

/* --asset-root bounds the files an input names: refused, with the
 * importer's reason, for a format whose files name none kfc reads. */
static kfc_status asset_root_option(const kfc_options *o, const kfc_importer *importer,
                                    kfc_diag *diag)
{
    const char *why = !importer ? "a kfb source names none" : importer->no_files;
    return o->asset_root && why ? kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                                           "--asset-root bounds the files an input names; %s", why)
                                : KFC_OK;
}

/* --split: each clip into the file `pattern` names for it (and, with -MD,
 * its dependency file beside it). Every file is named and checked before
 * any is written, so that a name kfc refuses (an input's, say) leaves no
 * clip written, and every one is complete in its temporary file before any
 * is renamed into place: a run that fails at one leaves none. The names
 * stay with the clips (the error may name one). */
static kfc_status write_clips(clip_list *clips, const char *input, const char *pattern,
                              const kfc_options *o, const kfc_importer *importer, double start,
                              kfc_diag *diag)
{
    if (clips->count == 0)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "--split: the file has no animation");
    kfc_status st = KFC_OK;
    for (size_t i = 0; i < clips->count && !st; i++) {
        clip *c = &clips->items[i];
        c->file = clip_file(pattern, c, clips->items, i, o->depfile);
        c->depfile = c->file && o->depfile ? malloc(strlen(c->file) + 3) : NULL;
        if (!c->file || (o->depfile && !c->depfile)) {
            st = kfc_fail_nomem(diag);
            break;
        }
        if (c->depfile)
            strcat(strcpy(c->depfile, c->file), ".d");
        st = check_outputs(c->file, c->depfile, o, diag);
    }
    kfb_file *files = st ? NULL : calloc(clips->count, sizeof *files);
    kfc_output **outs = files ? calloc(2 * clips->count, sizeof *outs) : NULL;
    if (!st && !outs)
        st = kfc_fail_nomem(diag);
    size_t prepared = 0;
    for (; !st && prepared < clips->count; prepared++) {
        kfb_file *f = &files[prepared];
        f->output = clips->items[prepared].file;
        f->depfile = clips->items[prepared].depfile;
        st = prepare_kfb(f, clips->items[prepared].builder, o, importer, KFC_NO_MARK, diag);
        /* As write_kfb: each dependency file before its output. */
        outs[2 * prepared] = f->depfile ? &f->dep : NULL;
        outs[2 * prepared + 1] = &f->out;
    }
    if (!st)
        st = kfc_output_commit_all(outs, 2 * clips->count, diag);
    else
        for (size_t i = 0; outs && i + 1 < prepared; i++) {
            kfc_output_abort(&files[i].out);
            kfc_output_abort(&files[i].dep);
        }
    for (size_t i = 0; files && i < clips->count; i++) {
        if (!st)
            report_kfb(&files[i], input, o, start);
        free(files[i].copy.copy);
    }
    free(outs);
    free(files);
    return st;
}

/* `output` is the file, or with --split the pattern of the files; `clips`
 * (empty) gets --split's clips. */
static kfc_status compile(const char *input, const char *output, const kfc_options *o,
                          clip_list *clips, kfc_diag *diag)
{
    const double start = seconds_now();
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    kfc_input in;
    kfc_status st = kfc_input_open(&in, input, limits.max_input, diag);
    if (st)
        return st;
    /* A compiled file given as the source (an easy slip with a folder of
     * both) is not YAML that fails to parse: say what it is. */
    if (in.size >= KFB_IDENTIFIER_SIZE &&
        memcmp(in.data, KFB_IDENTIFIER, KFB_IDENTIFIER_SIZE) == 0) {
        kfc_input_close(&in);
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                        "a compiled .kfb file, not a source (kfc --decompile turns it back into "
                        "YAML)");
    }
    kfc_mark tracks_mark = KFC_NO_MARK;
    const kfc_importer *importer = kfc_import_find(input, in.data, in.size);
    st = clip_options(o, importer, diag);
    if (!st)
        st = asset_root_option(o, importer, diag);
    kf_builder *builder = st ? NULL : new_builder(o, diag);
    if (!st && !builder)
        st = KFC_NOMEM;
    if (!st && importer) {
        kfc_import_options import = {
            input,         o->animation, o->verbose ? stderr : NULL,  0,
            o->asset_root, o->loop,      o->split ? next_clip : NULL, clips};
        st = importer->compile(in.data, in.size, &import, builder, diag);
    } else if (!st) {
        st = kfc_source_compile(in.data, in.size, &limits, builder, &tracks_mark, diag);
    }
    /* An exported scene without its animation (a glTF written with
     * animation off, say) imports as nothing: say so rather than write a
     * file that plays nothing. (A YAML source without tracks is a library
     * of animators a program samples.) */
    if (!st && !diag->errors && importer && !o->split &&
        kf_builder_count(builder, KF_KIND_TRACK) == 0)
        st = kfc_warn(diag, KFC_WARN_EMPTY, KFC_NO_MARK,
                      "no animation was imported from this %s file, so the .kfb plays nothing",
                      importer->name);
    /* Errors recovered from (kfc_recover) fail the compile all the same. */
    if (!st && diag->errors) {
        st = KFC_INVALID;
        diag->printed = 1; /* each one was */
    }
    kfc_input_close(&in);
    if (!st && o->deps_only)
        ; /* -M: the rule, main writes it */
    else if (!st && o->split)
        st = write_clips(clips, input, output, o, importer, start, diag);
    else if (!st)
        st = write_kfb(builder, input, output, o->depfile ? o->depfile_path : NULL, o, importer,
                       tracks_mark, start, diag);
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
    /* A regular file or standard input, refused with the message kfc gives
     * any input it cannot read ("FILE: error: cannot open: REASON"). */
    FILE *file = kfc_input_stream(input, diag);
    if (!file)
        return diag->status;
    kf_result r = kf_load_stream(read_stream, file, NULL, &anim, &error);
    if (file != stdin)
        fclose(file);
    if (r == KF_ERROR_NOT_KFB)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                        "%s: --decompile reads .kfb files (a source is compiled: kfc %s)",
                        error.message[0] ? error.message : kf_result_message(r), input);
    if (r != KF_OK)
        return builder_failed(r, &error, diag);
    /* libkf reads the file itself, not through kfc_input. */
    if (diag->files_read && strcmp(input, "-") == 0)
        diag->files_read->stdin_read = 1;
    if (strcmp(input, "-") != 0 && diag->files_read &&
        kfc_files_read_add(diag->files_read, input, NULL, NULL, diag) != KFC_OK) {
        kf_anim_free(anim);
        return KFC_NOMEM;
    }
    /* As write_kfb: the output and its dependency file, renamed into place
     * once both are complete, the dependency file first. */
    kfc_output out, dep;
    const char *depfile = o->depfile ? o->depfile_path : NULL;
    kfc_status st = o->deps_only ? KFC_OK : check_outputs(output, depfile, o, diag);
    if (!st && !o->deps_only)
        st = kfc_output_open(&out, output, diag);
    if (!st && !o->deps_only) {
        out.notes = o->quiet ? NULL : stderr;
        st = kfc_decompile(anim, kfc_output_write, &out, diag);
        if (st == KFC_IO && out.error)
            st = kfc_output_write_failed(&out, diag);
        else if (st)
            kfc_output_abort(&out);
        else
            st = kfc_output_close(&out, diag);
        if (!st && depfile &&
            (st = kfc_depfile_prepare(&dep, depfile, depfile_target(o, output), diag->files_read,
                                      o->quiet ? NULL : stderr, diag)))
            kfc_output_abort(&out);
        kfc_output *const outs[] = {depfile ? &dep : NULL, &out};
        if (!st)
            st = kfc_output_commit_all(outs, 2, diag);
    }
    if (!st && o->verbose)
        fprintf(stderr, "kfc: %s -> %s in %.3g s\n", strcmp(input, "-") == 0 ? "<stdin>" : input,
                output, seconds_now() - start);
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

/* Whether standard output is the file `st` describes. */
static int stdout_is(const struct stat *st)
{
    struct stat out;
    return fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

/* Whether standard output is an empty regular file (a redirection). */
static int stdout_empty_file(void)
{
    struct stat out;
    return fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) && out.st_size == 0;
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
    if (exit_now) {
        /* The help or the versions: a write that failed sets the error flag
         * (and may leave nothing for fflush to fail on). */
        if (fflush(stdout) == 0 && !ferror(stdout))
            return KFC_OK;
        fputs("kfc: error: writing to standard output failed\n", stderr);
        return KFC_IO;
    }
    const char *shown = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input;
    diag.stream = stderr;
    diag.source = shown;
    diag.error_limit = o.max_errors ? o.max_errors : UINT_MAX;
    diag.warnings_error = o.warnings_error;
    /* -q: errors only, warnings made errors included. */
    diag.warnings_off = o.warnings_off | (o.quiet ? ~o.warnings_error : 0);

    /* kfc walk.yaml > walk.yaml (or -o - > walk.yaml): the shell emptied
     * the input before kfc ran, and reading it would only find it empty. */
    struct stat input_st;
    if (strcmp(o.input, "-") != 0 && stat(o.input, &input_st) == 0 && S_ISREG(input_st.st_mode) &&
        input_st.st_size == 0 && stdout_is(&input_st)) {
        char quoted[KFC_QUOTE_SIZE];
        kfc_quote(quoted, o.input, strlen(o.input));
        kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                 "the input %s is standard output, which the shell emptied before kfc ran (its "
                 "earlier contents are gone): kfc writes the file -o names, standard output "
                 "with -o -",
                 quoted);
        return usage_failed(&diag);
    }

    char *derived = NULL;
    const char *output = o.output;
    if (o.split) {
        /* The outputs' pattern: '*' the clip's name. */
        const char *why = o.decompile                      ? "--split applies to compiling"
                          : output && !strchr(output, '*') ? "--split needs an output pattern "
                                                             "with '*' for the animation's name"
                          : !output && strcmp(o.input, "-") == 0
                              ? "--split reading standard input needs -o PATTERN"
                          : o.depfile_path || o.depfile_target
                              ? "--split writes a dependency file beside each output: no -MF "
                                "or -MT"
                              : NULL;
        if (why) {
            kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK, "%s", why);
            return usage_failed(&diag);
        }
        if (!output && !(output = derived = derived_name(o.input, "_*.kfb"))) {
            kfc_fail_nomem(&diag);
            kfc_diag_print(stderr, "kfc", &diag);
            return KFC_NOMEM;
        }
    } else if (!output) {
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
                /* The name is that of what kfc would write: most likely the
                 * other direction was meant. */
                char quoted[KFC_QUOTE_SIZE], word[512];
                kfc_quote(quoted, derived, strlen(derived));
                kfc_shell_word(word, sizeof word, o.input);
                if (o.decompile)
                    kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                             "%s is named as a source, which kfc -d writes: to compile it, "
                             "kfc %s; to decompile it, name the output with -o",
                             quoted, word);
                else
                    kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                             "%s is named as a compiled file, which kfc writes: to decompile "
                             "it, kfc -d %s; to compile it, name the output with -o",
                             quoted, word);
                free(derived);
                return usage_failed(&diag);
            }
            /* A decompiled file's default name is often the source it was
             * compiled from, comments and all: replaced only when asked. */
            struct stat existing;
            if (o.decompile && !o.deps_only && lstat(derived, &existing) == 0) {
                char quoted[KFC_QUOTE_SIZE];
                kfc_quote(quoted, derived, strlen(derived));
                if (stdout_is(&existing))
                    /* kfc -d walk.kfb > walk.yaml: the shell emptied it
                     * before kfc ran, and nothing kfc does gets it back. */
                    kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                             "the default output %s is standard output, which the shell "
                             "emptied before kfc ran (its earlier contents are gone): kfc -d "
                             "writes the file -o names, standard output with -o -",
                             quoted);
                else
                    kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                             "the default output %s exists; name it with -o to replace it (or "
                             "give -o another name)",
                             quoted);
                free(derived);
                return usage_failed(&diag);
            }
            output = derived;
        }
    }

    kfc_files_read files = {0};
    char *depfile_derived = NULL;
    const char *depfile = o.depfile_path;
    diag.files_read = &files; /* inputs are never outputs; -MD lists them */
    if (o.deps_only) {
        /* -M: the rule instead of the output. */
        if (!depfile)
            depfile = "-";
        o.depfile_path = depfile;
    } else if (o.depfile) {
        if (o.split) {
            /* write_clips writes one beside each output. */
        } else if (!depfile && strcmp(output, "-") == 0) {
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
        o.depfile_path = depfile;
    }
    /* The rule's target, a command-line value: checked before anything is
     * compiled. Standard output has no name to be one. */
    if (!st && (o.depfile || o.deps_only) && !o.split) {
        if (!o.depfile_target && strcmp(output, "-") == 0)
            st = kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                          "%s with the output on standard output needs -MT TARGET (the rule's "
                          "target)",
                          o.deps_only ? "-M" : "-MD");
        else
            st = kfc_depfile_check_target(o.depfile_target ? o.depfile_target : output,
                                          o.depfile_target ? "-MT target" : "target", &diag);
    }
    /* A .kfb is binary: not written to a terminal (a forgotten -o), as gzip
     * refuses to; decompiled YAML is text, and -M writes no output. */
    if (!st && !o.decompile && !o.deps_only && !o.split && strcmp(output, "-") == 0 &&
        isatty(STDOUT_FILENO))
        st = kfc_fail(&diag, KFC_USAGE, KFC_NO_MARK,
                      "not writing a binary .kfb to a terminal: give -o FILE, or redirect "
                      "standard output");
    /* An output that is the input is refused before the input is read, so
     * that the refusal comes alone, not after what compiling the input says
     * (check_outputs checks again once the files the input names are read
     * too). */
    if (!st && !o.deps_only && !o.split && strcmp(o.input, "-") != 0) {
        kfc_files_read given = {0};
        st = kfc_files_read_add(&given, o.input, NULL, NULL, &diag);
        if (!st)
            st = kfc_output_check(output, "output", &given, NULL, NULL, &diag);
        if (!st && o.depfile)
            st = kfc_output_check(depfile, "dependency file", &given, NULL, NULL, &diag);
        kfc_files_read_free(&given);
    }
    clip_list clips = {NULL, 0, 0, &o};
    if (!st)
        st = o.decompile ? decompile(o.input, output, &o, &diag)
                         : compile(o.input, output, &o, &clips, &diag);
    /* kfc walk.yaml > out.kfb: the output went to its default name, and the
     * file the shell made for standard output stays empty. Said, as the
     * redirection shows what was expected; a file already holding
     * something is some other use of standard output. */
    if (!st && output == derived && !o.split && !o.deps_only && !o.quiet && stdout_empty_file()) {
        char quoted[KFC_QUOTE_SIZE];
        fprintf(stderr,
                "kfc: note: wrote %s; standard output, a file, is left empty (-o - writes "
                "there)\n",
                kfc_quote(quoted, output, strlen(output)));
    }
    /* -M: the rule alone (-MD's is written with the output). */
    const char *target = depfile_target(&o, output);
    if (!st && o.deps_only &&
        !(st = kfc_output_check(depfile, "dependency file", &files, NULL, NULL, &diag)) &&
        !(st = kfc_depfile_check(target, &files, 1, &diag)))
        st = kfc_depfile_write(depfile, target, &files, o.quiet ? NULL : stderr, &diag);
    if (st == KFC_USAGE)
        usage_failed(&diag);
    else if (st && !diag.printed)
        kfc_diag_print(stderr, shown, &diag);
    if (kfc_diag_stopped(&diag))
        fprintf(stderr, "kfc: stopped after %u error%s (--max-errors=0 reports them all)\n",
                diag.errors, diag.errors == 1 ? "" : "s");
    clip_list_free(&clips);
    kfc_files_read_free(&files);
    free(depfile_derived);
    free(derived);
    return (int)st;
}
