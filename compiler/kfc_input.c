/* SPDX-License-Identifier: MIT */
/* open, fstat and mmap are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "kfc_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfc_file_kind.h"
#include "kfc_grow.h"

/* Reads `fd` until its end or `limit` bytes. */
static kfc_status read_all(kfc_input *in, int fd, size_t limit, kfc_diag *diag)
{
    size_t capacity = 0, length = 0;
    for (;;) {
        if (length == capacity) {
            if (capacity >= limit)
                break;
            capacity = capacity == 0 ? 64 << 10 : capacity > limit / 2 ? limit : capacity * 2;
            unsigned char *grown = realloc(in->buffer, capacity);
            if (!grown)
                return kfc_fail_nomem(diag);
            in->buffer = grown;
        }
        ssize_t got = read(fd, in->buffer + length, capacity - length);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read: %s", strerror(errno));
        if (got == 0)
            break;
        length += (size_t)got;
    }
    in->data = in->buffer;
    in->size = length;
    return KFC_OK;
}

/* An input above the limit is refused whole, whatever reads it: never
 * taken as its first max_size bytes. */
static kfc_status too_large(size_t max_size, kfc_diag *diag)
{
    if (max_size % ((size_t)1 << 20) == 0)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "input is larger than %llu MiB",
                        (unsigned long long)(max_size >> 20));
    return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "input is larger than %llu bytes",
                    (unsigned long long)max_size);
}

static kfc_status refuse(const char *what, kfc_diag *diag)
{
    return kfc_fail(diag, KFC_IO, KFC_NO_MARK,
                    "cannot read %s: kfc reads a named input only from a regular file ('-' "
                    "reads standard input)",
                    what);
}

kfc_status kfc_input_open_named(const char *path, int *fd, kfc_diag *diag)
{
    /* The kind is checked before the open too, so that nothing is opened
     * that an open could block on or act on (a FIFO without a writer, a
     * device), and again on the descriptor, which is what is read. */
    *fd = -1;
    struct stat info;
    if (stat(path, &info) != 0)
        return kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot open: %s", strerror(errno));
    const char *why = kfc_file_kind(info.st_mode);
    if (why)
        return refuse(why, diag);
    int opened = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (opened < 0)
        return kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot open: %s", strerror(errno));
    kfc_status st = KFC_OK;
    if (fstat(opened, &info) != 0)
        st = kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read: %s", strerror(errno));
    else if ((why = kfc_file_kind(info.st_mode)) != NULL)
        st = refuse(why, diag);
    else if (kfc_file_on_kernel_fs(opened))
        st = refuse("a file of /proc or /sys, the kernel's state", diag);
    if (st) {
        close(opened);
        return st;
    }
    *fd = opened;
    return KFC_OK;
}

FILE *kfc_input_stream(const char *path, kfc_diag *diag)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    int fd;
    if (kfc_input_open_named(path, &fd, diag))
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read: %s", strerror(errno));
        close(fd);
    }
    return f;
}

kfc_status kfc_input_open(kfc_input *in, const char *path, size_t max_size, kfc_diag *diag)
{
    memset(in, 0, sizeof *in);
    static const unsigned char empty[1] = {0};
    size_t limit = max_size < SIZE_MAX ? max_size + 1 : SIZE_MAX;
    int is_stdin = strcmp(path, "-") == 0;
    int fd = STDIN_FILENO;
    if (!is_stdin) {
        kfc_status opened = kfc_input_open_named(path, &fd, diag);
        if (opened)
            return opened;
    }

    kfc_status st = KFC_OK;
    struct stat info;
    const int regular = fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
    if (regular && (uintmax_t)info.st_size > max_size) {
        st = too_large(max_size, diag);
    } else if (regular && info.st_size > 0) {
        size_t size = (uintmax_t)info.st_size < limit ? (size_t)info.st_size : limit;
        void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            in->mapping = p;
            in->mapping_size = size;
            in->data = p;
            in->size = size;
        } else {
            st = read_all(in, fd, limit, diag);
        }
    } else {
        st = read_all(in, fd, limit, diag);
    }
    if (!st && in->size > max_size)
        st = too_large(max_size, diag);
    if (!is_stdin)
        close(fd);
    if (!st && is_stdin && diag && diag->files_read)
        diag->files_read->stdin_read = 1;
    if (!st && !is_stdin && diag && diag->files_read)
        st = kfc_files_read_add(diag->files_read, path, NULL, NULL, diag);
    if (st) {
        kfc_input_close(in);
        return st;
    }
    if (!in->data)
        in->data = empty;
    return KFC_OK;
}

kfc_status kfc_input_read_fd(kfc_input *in, int fd, size_t max_size, kfc_diag *diag)
{
    static const unsigned char empty[1] = {0};
    memset(in, 0, sizeof *in);
    kfc_status st = read_all(in, fd, max_size < SIZE_MAX ? max_size + 1 : SIZE_MAX, diag);
    if (st) {
        kfc_input_close(in);
        return st;
    }
    if (!in->data)
        in->data = empty;
    return KFC_OK;
}

void kfc_input_close(kfc_input *in)
{
    if (in->mapping)
        munmap(in->mapping, in->mapping_size);
    free(in->buffer);
    memset(in, 0, sizeof *in);
}

kfc_status kfc_files_read_add(kfc_files_read *files, const char *path, const char *named_in,
                              const char *named_at, kfc_diag *diag)
{
    for (size_t i = 0; i < files->count; i++)
        if (strcmp(files->items[i].path, path) == 0)
            return KFC_OK;
    kfc_file_read *items = kfc_grow(files->items, files->count, &files->capacity, sizeof *items, 4);
    if (!items)
        return kfc_fail_nomem(diag);
    files->items = items;
    kfc_file_read r = {strdup(path), named_in ? strdup(named_in) : NULL,
                       named_at ? strdup(named_at) : NULL};
    if (!r.path || (named_in && !r.named_in) || (named_at && !r.named_at)) {
        free(r.path);
        free(r.named_in);
        free(r.named_at);
        return kfc_fail_nomem(diag);
    }
    items[files->count++] = r;
    return KFC_OK;
}

void kfc_files_read_free(kfc_files_read *files)
{
    for (size_t i = 0; i < files->count; i++) {
        free(files->items[i].path);
        free(files->items[i].named_in);
        free(files->items[i].named_at);
    }
    free(files->items);
    memset(files, 0, sizeof *files);
}
