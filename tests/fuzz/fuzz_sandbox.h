/* SPDX-License-Identifier: MIT */
/*
 * fuzz_sandbox.h - the folder the file-reading fuzz targets (fuzz_gltf,
 * fuzz_files) run in, made at start under TMPDIR and removed at exit:
 *
 *     ROOT/secret.bin, ROOT/data.bin    outside: must never be read
 *     ROOT/doc/                         the document's folder
 *         data.bin (32 bytes: two float times, two VEC3s), quat.bin (40),
 *         bytes.bin, sub/data.bin       files to read
 *         in.bin -> sub/data.bin        a link inside
 *         out.bin -> ../secret.bin, sub/out.bin -> ../../secret.bin,
 *         up -> .., abs.bin -> ROOT/secret.bin, dev.bin -> /dev/zero
 *                                       links out
 *         loop -> loop, fifo.bin (a FIFO)
 *         and the *.bin files of the corpus folders given on the command line
 *
 * fuzz_sandbox_check_reads aborts when a file listed as read lies outside
 * the document's folder (its real path, links resolved), or differs from
 * what was read.
 */
#ifndef FUZZ_SANDBOX_H
#define FUZZ_SANDBOX_H

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfc_input.h"

static char fuzz_root[4096];     /* the sandbox's root */
static char fuzz_folder[4096];   /* its real path + "/doc/": where reads must stay */
static char fuzz_document[4096]; /* the document's name, in that folder */

static void write_file(const char *dir, const char *name, const void *data, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_sandbox(void)
{
    nftw(fuzz_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The seed corpus's buffer files (the generated fixtures name them), up to
 * 64 of a megabyte at most, into the document's folder. */
static void copy_buffers(const char *dir, const char *to)
{
    DIR *d = opendir(dir);
    int copied = 0;
    for (struct dirent *e; d && copied < 64 && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".bin") != 0)
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        static unsigned char buffer[1 << 20];
        size_t got = f ? fread(buffer, 1, sizeof buffer, f) : 0;
        if (f)
            fclose(f);
        if (got > 0 && got < sizeof buffer) {
            write_file(to, e->d_name, buffer, got);
            copied++;
        }
    }
    if (d)
        closedir(d);
}

/* Makes the sandbox; the document is DOC/`name`. */
static void fuzz_sandbox_make(int argc, char **argv, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_root, sizeof fuzz_root, "%s/kfb-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fuzz_root))
        abort();
    atexit(remove_sandbox);
    char doc[4200], path[4200];
    snprintf(doc, sizeof doc, "%s/doc", fuzz_root);
    if (mkdir(doc, 0700) != 0)
        abort();
    /* Two float times and two VEC3s (32 bytes), two VEC4s (48), bytes. */
    const float small[8] = {0, 1, 0, 0, 0, 1, 2, 3};
    const float quat[10] = {0, 1, 0, 0, 0, 1, 0, 0.7071068f, 0, 0.7071068f};
    const unsigned char bytes[16] = {0, 0, 0, 0, 0, 0, 128, 63, 0, 64, 128, 255, 1, 2, 3, 4};
    write_file(doc, "data.bin", small, sizeof small);
    write_file(doc, "quat.bin", quat, sizeof quat);
    write_file(doc, "bytes.bin", bytes, sizeof bytes);
    /* Outside the folder, secrets as long as data.bin, one under its name:
     * "../data.bin" or "up/data.bin" must not read it. */
    write_file(fuzz_root, "secret.bin", small, sizeof small);
    write_file(fuzz_root, "data.bin", small, sizeof small);
    snprintf(path, sizeof path, "%s/sub", doc);
    if (mkdir(path, 0700) != 0)
        abort();
    write_file(path, "data.bin", small, sizeof small);
    static const char *const links[][2] = {
        {"in.bin", "sub/data.bin"}, {"out.bin", "../secret.bin"},        {"up", ".."},
        {"loop", "loop"},           {"sub/out.bin", "../../secret.bin"},
    };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", doc, links[i][0]);
        if (symlink(links[i][1], path) != 0)
            abort();
    }
    char target[4200], device[4200];
    snprintf(path, sizeof path, "%s/abs.bin", doc);
    snprintf(target, sizeof target, "%s/secret.bin", fuzz_root);
    snprintf(device, sizeof device, "%s/dev.bin", doc);
    if (symlink(target, path) != 0 || symlink("/dev/zero", device) != 0)
        abort();
    snprintf(path, sizeof path, "%s/fifo.bin", doc);
    if (mkfifo(path, 0600) != 0)
        abort();
    for (int i = 1; i < argc; i++)
        if (argv[i][0] != '-')
            copy_buffers(argv[i], doc);
    char *real = realpath(doc, NULL);
    if (!real)
        abort();
    snprintf(fuzz_folder, sizeof fuzz_folder, "%s/", real);
    free(real);
    snprintf(fuzz_document, sizeof fuzz_document, "%s/%s", doc, name);
}

/* Every file read lies inside the document's folder. */
static inline void fuzz_sandbox_check_reads(const kfc_files_read *files)
{
    for (size_t i = 0; i < files->count; i++) {
        char *real = realpath(files->items[i].path, NULL);
        if (!real || strncmp(real, fuzz_folder, strlen(fuzz_folder)) != 0) {
            fprintf(stderr, "read outside the document's folder: %s (%s)\n", files->items[i].path,
                    real ? real : "?");
            abort();
        }
        free(real);
    }
}

#endif /* FUZZ_SANDBOX_H */
