/* SPDX-License-Identifier: MIT */
/* fileno and fstat are POSIX's. */
#define _POSIX_C_SOURCE 200809L

#include "kfplay_input.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfb_format.h"
#include "kfc_diag.h"
#include "kfc_file_kind.h"
#include "kfc_sniff.h"
#include "kfplay_args.h"

const char *kfp_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* Reads from `f` until `*length` is `limit` or the stream ends (*ended);
 * NULL, or why it could not and the exit status that goes with it
 * (*status: out of memory, or the stream's error). */
static const char *read_up_to(FILE *f, kfp_input *in, size_t *capacity, size_t limit, int *ended,
                              int *status)
{
    *ended = 0;
    while (in->size < limit) {
        if (in->size == *capacity) {
            size_t grown = *capacity ? *capacity * 2 : (size_t)1 << 16;
            grown = grown < limit ? grown : limit;
            unsigned char *bigger = realloc(in->data, grown);
            if (!bigger) {
                *status = KFP_EXIT_NOMEM;
                return "out of memory";
            }
            in->data = bigger;
            *capacity = grown;
        }
        const size_t got = fread(in->data + in->size, 1, *capacity - in->size, f);
        in->size += got;
        if (got == 0) {
            if (ferror(f)) {
                *status = KFP_EXIT_IO;
                return strerror(errno);
            }
            *ended = 1;
            break;
        }
    }
    return NULL;
}

/* The file size a .kfb header declares, or 0 where `data` starts with none. */
static uint32_t declared_size(const unsigned char *data, size_t size)
{
    if (size < KFB_HEADER_SIZE || memcmp(data, KFB_IDENTIFIER, KFB_IDENTIFIER_SIZE) != 0)
        return 0;
    kfb_header h;
    memcpy(&h, data + KFB_IDENTIFIER_SIZE, sizeof h);
    kfb_word_swap(&h, KFB_WORDS(kfb_header));
    return h.file_size;
}

/* How much of a stream to read, its first bytes read: what its header
 * declares and one byte more, which tells trailing data (none past the
 * most kfplay reads); not a .kfb, enough to tell what it is instead. */
static size_t stream_limit(const unsigned char *data, size_t size)
{
    const uint32_t declared = declared_size(data, size);
    if (!declared)
        return KFP_SNIFF_SIZE;
    if (declared > KFP_MAX_FILE)
        return KFB_HEADER_SIZE;
    return (declared > KFB_HEADER_SIZE ? declared : KFB_HEADER_SIZE) + 1;
}

int kfp_read_input(const char *path, kfp_input *in)
{
    memset(in, 0, sizeof *in);
    const int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        kfp_file_error(path, "cannot open: %s", strerror(errno));
        return KFP_EXIT_IO;
    }
    /* A file or a pipe is read; a device named may have no end (a
     * gibibyte of /dev/zero is not worth reading to refuse), and a folder
     * has no bytes. (Standard input is what the shell gave.) */
    struct stat st;
    const int known = fstat(fileno(f), &st) == 0;
    const char *kind = !is_stdin && known ? kfc_file_kind(st.st_mode) : NULL;
    if (kind && !S_ISFIFO(st.st_mode)) {
        kfp_file_error(path, "cannot read %s: kfplay reads a .kfb from a file or a pipe", kind);
        fclose(f);
        return KFP_EXIT_IO;
    }
    size_t capacity = 0;
    int ended = 0, status = KFP_EXIT_INVALID; /* (a file too large; read_up_to says others) */
    const char *problem = NULL;
    if (known && S_ISREG(st.st_mode)) {
        /* A file says its size: one past the limit is refused unread. It
         * is read to its end (it may have grown), which a trailing-data
         * message counts. */
        if ((uintmax_t)st.st_size > KFP_MAX_FILE)
            problem = "larger than 1 GiB";
        else
            problem = read_up_to(f, in, &capacity, KFP_MAX_FILE + 1, &ended, &status);
        if (!problem && !ended)
            problem = "larger than 1 GiB";
    } else {
        /* A stream says nothing of its size but in the header: read first,
         * and only as much after it as it declares. */
        problem = read_up_to(f, in, &capacity, KFB_HEADER_SIZE, &ended, &status);
        if (!problem && !ended)
            problem =
                read_up_to(f, in, &capacity, stream_limit(in->data, in->size), &ended, &status);
        in->cut = !ended;
    }
    if (!is_stdin)
        fclose(f);
    if (problem) {
        kfp_file_error(kfp_input_name(path), "cannot read: %s", problem);
        kfp_input_free(in);
        return status;
    }
    return 0;
}

void kfp_input_free(kfp_input *in)
{
    free(in->data);
    memset(in, 0, sizeof *in);
}

kf_result kfp_load(const kfp_input *in, kf_anim **anim, kf_error *err)
{
    const kf_result r = kf_load_memory(in->data, in->size, NULL, anim, err);
    if (!in->cut)
        return r;
    /* The loader was given what was read of a stream, not all of it: its
     * count of trailing bytes or of the file's size would be of that. */
    const uint32_t declared = declared_size(in->data, in->size);
    if (r == KF_ERROR_TRAILING_DATA)
        snprintf(err->message, sizeof err->message,
                 "more bytes follow the declared end of the file (its header says %u bytes)",
                 (unsigned)declared);
    else if (r == KF_ERROR_TRUNCATED && declared > KFP_MAX_FILE)
        snprintf(err->message, sizeof err->message,
                 "the header declares %u bytes, more than the 1 GiB kfplay reads",
                 (unsigned)declared);
    return r;
}

/* What the file is, and what to do. The content first, then the name, but
 * only where the content agrees that the file may be what the name says:
 * text for .gltf, .yaml and an X3D name, or gzip's magic for an X3D name,
 * as X3D is read gzipped too (a binary named .yaml is no source, and an
 * M3G file is one by its identifier alone). */
static const char *what_it_is(const char *path, const unsigned char *data, size_t size)
{
    static const char gltf[] = "a glTF file: import its animations with kfc first",
                      x3d[] = "an X3D scene: import its animations with kfc first",
                      source[] = "a YAML animation source, not a compiled .kfb: compile it with "
                                 "kfc first";
    if (kfc_sniff_gltf_magic(data, size))
        return gltf;
    if (kfc_sniff_m3g_identifier(data, size))
        return "an M3G file: import its animations with kfc first";
    if (kfc_sniff_x3d_text(data, size) != KFC_SNIFF_NOT_X3D)
        return x3d;
    if (kfc_sniff_kfb_source(data, size))
        return source;
    const int text = kfc_sniff_text(data, size);
    if (text && kfc_sniff_gltf_name(path))
        return gltf;
    if ((text || kfc_sniff_gzip(data, size)) && kfc_sniff_x3d_name(path) != KFC_SNIFF_NOT_X3D)
        return x3d;
    if (text && (kfc_sniff_extension(path, ".yaml") || kfc_sniff_extension(path, ".yml")))
        return source;
    return NULL;
}

const char *kfp_input_mixup(const char *path, const unsigned char *data, size_t size, char *buffer,
                            size_t buffer_size)
{
    if (size == 0)
        return "the file is empty";
    const char *what = what_it_is(path, data, size);
    if (!what)
        return NULL;
    if (strcmp(path, "-") == 0) {
        snprintf(buffer, buffer_size, "%s (kfc - -o OUT.kfb)", what);
        return buffer;
    }
    /* The output in the current folder, not beside the file read, which
     * may be in a source tree or a folder not the user's to write: the
     * base name as kfc_main.c's derived_name makes one, the last extension
     * dropped (a gzipped scene's two). A file already named .kfb would be
     * given its own name, which kfc refuses: OUT.kfb, a name to choose. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    const size_t gzipped = kfc_sniff_x3d_gzip_suffix(base);
    if (gzipped && gzipped < strlen(base))
        stem = strlen(base) - gzipped;
    /* (both names as the shell reads them back: a command to paste) */
    char in[512], out[512], name[512] = "OUT.kfb";
    kfc_shell_word(in, sizeof in, path);
    if (strcmp(base + stem, ".kfb") != 0 && stem + 5 <= sizeof name)
        snprintf(name, sizeof name, "%.*s.kfb", (int)stem, base);
    kfc_shell_word(out, sizeof out, name);
    snprintf(buffer, buffer_size, "%s (kfc %s -o %s)", what, in, out);
    return buffer;
}
