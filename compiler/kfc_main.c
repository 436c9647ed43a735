/*
 * kfc - the kfb compiler: YAML animation source (formats/yaml.md) to .kfb,
 * and back with --decompile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>
#include <zlib.h>

#include "kf_build.h"
#include "kfc_decompile.h"
#include "kfc_diag.h"
#include "kfc_gltf.h"
#include "kfc_input.h"
#include "kfc_output.h"
#include "kfc_source.h"
#include "kfc_yaml.h"

#define KFC_VERSION "0.1.0"

/* zlib's fastest level by default: on float keyframe data the higher
 * levels save well under 1% more and cost up to twice the time. Deflating
 * the data section runs on a second thread while the source is parsed
 * (kf_builder_compress_ahead), so it adds little to the compile time. */
#define KFC_DEFAULT_COMPRESSION 1

static const char usage_text[] =
    "Usage: kfc [-o OUT.kfb] SRC.yaml\n"
    "       kfc [-o OUT.kfb] [--animation NAME|INDEX] [-v] MODEL.gltf|MODEL.glb\n"
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
    "                     zlib level 1-9 for the sections of the .kfb (default 1),\n"
    "                     or 0 to store them uncompressed\n"
    "  -a, --animation NAME|INDEX\n"
    "                     glTF input: import only this animation (default: all)\n"
    "  -v, --verbose      glTF input: note what is ignored (extensions, channels)\n"
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

typedef struct options {
    const char *input;
    const char *output;
    int         decompile;
    int         compression; /* zlib level 0-9 */
    const char *animation;   /* glTF: NULL, or the one animation to import */
    int         verbose;
} options;

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
        } else if (strcmp(arg, "-a") == 0 || strcmp(arg, "--animation") == 0) {
            if (i + 1 == argc)
                return usage_error(diag, "missing animation name or index after", arg);
            o->animation = argv[++i];
        } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            o->verbose = 1;
        } else if (strcmp(arg, "-d") == 0 || strcmp(arg, "--decompile") == 0) {
            o->decompile = 1;
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

static kfc_status compile(const char *input, const char *output, int compression,
                          const options *o, kfc_diag *diag)
{
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    kfc_input in;
    kfc_status st = kfc_input_open(&in, input, limits.max_input, diag);
    if (st)
        return st;
    kf_builder *builder = NULL;
    kf_error error;
    if (kf_builder_create(NULL, &builder) != KF_OK ||
        (compression && kf_builder_compress_ahead(builder, compression) != KF_OK))
        st = kfc_fail_nomem(diag);
    if (!st && kfc_gltf_detect(input, in.data, in.size)) {
        kfc_gltf_options gltf = {input, o->animation, o->verbose ? stderr : NULL, 0};
        st = kfc_gltf_compile(in.data, in.size, &gltf, builder, diag);
    } else if (!st) {
        st = kfc_source_compile(in.data, in.size, &limits, builder, diag);
    }
    kfc_input_close(&in);

    /* The output is created only once the whole source has been accepted. */
    kfc_output out;
    if (!st && !(st = kfc_output_open(&out, output, diag))) {
        kf_encode_options encode = {sizeof encode, compression};
        kf_result r = kf_builder_encode(builder, &encode, kfc_output_write, &out, &error);
        if (r != KF_OK && out.error)
            st = kfc_output_write_failed(&out, diag);
        else if (r != KF_OK) {
            kfc_output_abort(&out);
            st = builder_failed(r, &error, diag);
        } else {
            st = kfc_output_commit(&out, diag);
        }
    }
    kf_builder_destroy(builder);
    return st;
}

static size_t read_stream(void *user, void *buffer, size_t size)
{
    FILE *f = user;
    size_t n = fread(buffer, 1, size, f);
    return n == 0 && ferror(f) ? (size_t)-1 : n;
}

static kfc_status decompile(const char *input, const char *output, kfc_diag *diag)
{
    kf_anim *anim;
    kf_error error;
    kf_result r = strcmp(input, "-") == 0
                      ? kf_load_stream(read_stream, stdin, NULL, &anim, &error)
                      : kf_load_file(input, NULL, &anim, &error);
    if (r != KF_OK)
        return builder_failed(r, &error, diag);
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
    kf_anim_free(anim);
    return st;
}

int main(int argc, char **argv)
{
    options o = {NULL, NULL, 0, KFC_DEFAULT_COMPRESSION, NULL, 0};
    kfc_diag diag;
    int exit_now;
    memset(&diag, 0, sizeof diag);

    kfc_status st = parse_args(argc, argv, &o, &exit_now, &diag);
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

    st = o.decompile ? decompile(o.input, output, &diag)
                     : compile(o.input, output, o.compression, &o, &diag);
    if (st)
        kfc_diag_print(stderr, strcmp(o.input, "-") == 0 ? "<stdin>" : o.input, &diag);
    free(derived);
    return (int)st;
}
