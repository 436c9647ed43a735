/* SPDX-License-Identifier: MIT */
/* kfc_files.c - referenced files, opened inside one folder (kfc_files.h). */
/* openat, fstatat, readlinkat and O_NOFOLLOW are POSIX 2008; realpath is XSI. */
#define _XOPEN_SOURCE 700

#include "kfc_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfc_file_kind.h"
#include "kfc_input.h"
#include "kfc_text.h"

/* Symbolic links followed for one reference, as the kernel's own bound. */
#define MAX_LINKS 40

void kfc_files_init(kfc_files *files, const char *document, const char *root)
{
    memset(files, 0, sizeof *files);
    files->document = document;
    files->root = root;
    files->root_fd = -1;
}

struct kfc_files_held {
    uint64_t dev, ino;
    kfc_input in;
};

void kfc_files_free(kfc_files *files)
{
    for (size_t i = 0; i < files->held_capacity; i++) {
        if (files->held[i]) {
            kfc_input_close(&files->held[i]->in);
            free(files->held[i]);
        }
    }
    free(files->held);
    if (files->root_fd >= 0)
        close(files->root_fd);
    free(files->root_real);
    free(files->prefix);
    free(files->failure);
    kfc_files_init(files, files->document, files->root);
}

/* The length of the document's folder in its path, slash included ("" for a
 * name without a folder, or standard input). */
static size_t folder_length(const char *document)
{
    if (!document || strcmp(document, "-") == 0)
        return 0;
    const char *slash = strrchr(document, '/');
    return slash ? (size_t)(slash - document) + 1 : 0;
}

static char *copy_of(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* A folder's name in full where it fits, quoted as a name is (kfc_text.h). */
#define FOLDER_QUOTE_SIZE 256

static char *failure_text(const char *what, const char *folder, int err)
{
    char text[FOLDER_QUOTE_SIZE + 128], quoted[FOLDER_QUOTE_SIZE];
    kf_text_name(quoted, sizeof quoted, folder, strlen(folder), 1);
    snprintf(text, sizeof text, "cannot use the folder %s %s: %s", quoted, what, strerror(err));
    return copy_of(text, strlen(text));
}

/* Opens the root and finds the document's folder below it. Returns 0 when
 * memory ran out; a root that cannot be used is recorded in ->failure. */
static int set_up(kfc_files *f)
{
    f->ready = 1;
    size_t n = folder_length(f->document);
    char *folder = n ? copy_of(f->document, n) : copy_of(".", 1);
    if (!folder)
        return 0;
    const char *root = f->root ? f->root : folder;
    char *doc_real = realpath(folder, NULL);
    int err = errno;
    if (!doc_real) {
        f->failure = failure_text("of the input", folder, err);
        free(folder);
        return f->failure != NULL;
    }
    f->root_real = realpath(root, NULL);
    err = errno;
    if (f->root_real)
        f->root_fd = open(f->root_real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (f->root_fd < 0) {
        err = f->root_real ? errno : err;
        f->failure = failure_text("for referenced files", root, err);
        free(folder);
        free(doc_real);
        return f->failure != NULL;
    }
    size_t r = strlen(f->root_real);
    if (strcmp(f->root_real, "/") == 0)
        r = 0;
    if (strcmp(doc_real, f->root_real) == 0) {
        f->prefix = copy_of("", 0);
    } else if (strncmp(doc_real, f->root_real, r) == 0 && doc_real[r] == '/') {
        size_t below = strlen(doc_real + r + 1);
        f->prefix = malloc(below + 2);
        if (f->prefix) {
            memcpy(f->prefix, doc_real + r + 1, below);
            memcpy(f->prefix + below, "/", 2);
        }
    } else {
        f->prefix = NULL; /* every reference is refused, with a reason */
        free(folder);
        free(doc_real);
        return 1;
    }
    free(folder);
    free(doc_real);
    return f->prefix != NULL;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A refusal of the reference: "URI 'uri' <reason> ['folder']". The folder
 * is given in full where it fits; the reference, the input's text, cut
 * shorter. */
static kfc_status refuse(kfc_diag *diag, const char *uri, size_t length, const char *reason,
                         const char *folder)
{
    char quoted[KFC_QUOTE_SIZE], place[FOLDER_QUOTE_SIZE];
    kfc_quote(quoted, uri, length);
    if (folder)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "URI %s %s %s", quoted, reason,
                        kf_text_name(place, sizeof place, folder, strlen(folder), 1));
    return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "URI %s %s", quoted, reason);
}

/* The reference as a relative path, percent-decoded; NULL with the reason
 * in `diag` (KFC_INVALID or KFC_NOMEM). free() the result. */
static char *decode(const char *uri, size_t length, kfc_diag *diag)
{
    if (length == 0) {
        refuse(diag, uri, length, "is empty", NULL);
        return NULL;
    }
    /* A ':' before any '/' makes the first segment a scheme (RFC 3986,
     * 4.2: a relative path with a colon there must start with "./"). */
    for (size_t i = 0; i < length && uri[i] != '/'; i++) {
        if (uri[i] == ':') {
            refuse(diag, uri, length, "has a scheme; only a relative reference names a file", NULL);
            return NULL;
        }
    }
    if (uri[0] == '/') {
        refuse(diag, uri, length, "is an absolute path; a reference must be relative", NULL);
        return NULL;
    }
    char *path = malloc(length + 1);
    if (!path) {
        kfc_fail_nomem(diag);
        return NULL;
    }
    size_t o = 0;
    const char *reason = NULL;
    for (size_t i = 0; i < length && !reason; i++) {
        char c = uri[i];
        if (c == '?' || c == '#') {
            reason = "has a query or a fragment ('?', '#'), which no file has";
        } else if (c == '%') {
            int hi = i + 2 < length ? hex_value(uri[i + 1]) : -1;
            int lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;
            if (lo < 0)
                reason = "has a '%' that is not a percent-escape (%XX)";
            else
                c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (!reason && c == '\0')
            reason = "has a NUL byte";
        path[o++] = c;
    }
    path[o] = '\0';
    if (!reason && path[0] == '/')
        reason = "is an absolute path once decoded; a reference must be relative";
    if (reason) {
        refuse(diag, uri, length, reason, NULL);
        free(path);
        return NULL;
    }
    return path;
}

/* Removes the dot segments of relative `path` in place, from its text alone
 * (RFC 3986, 5.2.4), as a URI reference is resolved before any file is
 * looked at: "a/../b" is "b" whether or not a folder "a" exists. Empty
 * segments go too; a path that named a folder ("a/", "a/.", "b/a/..")
 * still ends with '/' (or is empty). A ".." with nothing left to remove is kept where
 * `keep_up` (the path is a document's reference, which may climb out of
 * the document's folder), else the path climbs above the folder it is
 * taken from: returns 0. */
static int remove_dot_segments(char *path, int keep_up)
{
    /* Writing never passes reading: a segment is copied at most as far
     * along as it was, and a '/' only where one was read. */
    size_t o = 0, kept_up = 0; /* bytes written; of them, leading "../" */
    const char *p = path;
    while (*p) {
        const char *end = strchr(p, '/');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (o > kept_up) { /* drop the last segment written, and its '/' */
                o--;
                while (o > kept_up && path[o - 1] != '/')
                    o--;
            } else if (keep_up) {
                path[o++] = '.';
                path[o++] = '.';
                if (end)
                    path[o++] = '/';
                kept_up = o;
            } else {
                return 0;
            }
        } else if (n > 0 && !(n == 1 && p[0] == '.')) {
            memmove(path + o, p, n);
            o += n;
            if (end)
                path[o++] = '/';
        }
        p += n + (end != NULL);
    }
    path[o] = '\0';
    return 1;
}

/* The refusal of a reference that climbs above the root. */
static kfc_status leads_outside(const kfc_files *f, const char *uri, size_t length, kfc_diag *diag)
{
    char quoted[KFC_QUOTE_SIZE], place[FOLDER_QUOTE_SIZE];
    return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                    "URI %s leads outside the folder %s (kfc --asset-root DIR reads "
                    "from DIR and the folders in it)",
                    kfc_quote(quoted, uri, length),
                    kf_text_name(place, sizeof place, f->root_real, strlen(f->root_real), 1));
}

/* The walk: a stack of open folders from the root down. */
typedef struct walk {
    int *fds; /* fds[0] is the root's (not ours to close) */
    size_t depth, capacity;
} walk;

static int walk_push(walk *w, int fd)
{
    if (w->depth + 1 == w->capacity) {
        size_t capacity = w->capacity * 2;
        int *grown = realloc(w->fds, capacity * sizeof *grown);
        if (!grown)
            return 0;
        w->fds = grown;
        w->capacity = capacity;
    }
    w->fds[++w->depth] = fd;
    return 1;
}

static void walk_to_root(walk *w)
{
    while (w->depth > 0)
        close(w->fds[w->depth--]);
}

/* `path` (below the root; freed here) opened as a regular file: the
 * descriptor, with its status in *st, or -1 with the reason in `diag`. */
static int open_beneath(kfc_files *f, char *path, const char *uri, size_t length, struct stat *st,
                        kfc_diag *diag)
{
    walk w = {malloc(8 * sizeof(int)), 0, 8};
    if (!w.fds) {
        kfc_fail_nomem(diag);
        free(path);
        return -1;
    }
    w.fds[0] = f->root_fd;
    int links = 0, fd = -1;
    char *p = path;
    for (;;) {
        while (*p == '/')
            p++;
        if (!*p) { /* "a/", ".", "a/..": the path ends at a folder */
            refuse(diag, uri, length, "names a folder, not a regular file", NULL);
            break;
        }
        char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *next = p + n;
        while (*next == '/')
            next++;
        const int last = *next == '\0';
        /* "name/" names a folder, as the kernel reads it. */
        const int trailing_slash = last && p[n] == '/';
        if (n == 1 && p[0] == '.') {
            if (last) {
                refuse(diag, uri, length, "names a folder, not a regular file", NULL);
                break;
            }
            p = next;
            continue;
        }
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (w.depth == 0) {
                leads_outside(f, uri, length, diag);
                break;
            }
            close(w.fds[w.depth--]);
            if (last) {
                refuse(diag, uri, length, "names a folder, not a regular file", NULL);
                break;
            }
            p = next;
            continue;
        }
        char saved = p[n];
        p[n] = '\0';
        const int top = w.fds[w.depth];
        if (fstatat(top, p, st, AT_SYMLINK_NOFOLLOW) != 0) {
            /* Where it was looked for: beside the file read, which for a
             * link is the link's folder, for standard input the current
             * one; and a Windows exporter's '\\' is no separator. */
            const int err = errno;
            char quoted[KFC_QUOTE_SIZE], place[FOLDER_QUOTE_SIZE],
                where[FOLDER_QUOTE_SIZE + 96] = "";
            if (err == ENOENT)
                snprintf(where, sizeof where, " (looked for under %s%s)",
                         kf_text_name(place, sizeof place, f->root_real, strlen(f->root_real), 1),
                         memchr(uri, '\\', length) ? "; URIs separate folders with '/', not '\\\\'"
                                                   : "");
            kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read URI %s: %s%s",
                     kfc_quote(quoted, uri, length), strerror(err), where);
            break;
        }
        if (S_ISLNK(st->st_mode)) {
            if (++links > MAX_LINKS) {
                refuse(diag, uri, length, "goes through too many symbolic links", NULL);
                break;
            }
            /* The target, then what followed the link's name. */
            size_t room =
                st->st_size > 0 && st->st_size < PATH_MAX ? (size_t)st->st_size + 1 : PATH_MAX;
            size_t rest = strlen(next);
            char *target = malloc(room + 1 + rest + 1);
            if (!target) {
                kfc_fail_nomem(diag);
                break;
            }
            ssize_t got = readlinkat(top, p, target, room);
            if (got <= 0 || (size_t)got >= room) {
                char quoted[KFC_QUOTE_SIZE];
                kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read URI %s: %s",
                         kfc_quote(quoted, uri, length),
                         got < 0 ? strerror(errno) : "a symbolic link changed while read");
                free(target);
                break;
            }
            char *start = target;
            target[got] = '\0';
            if (target[0] == '/') {
                /* Absolute: followed only when it points inside the root,
                 * from the root's own descriptor. */
                size_t r = strcmp(f->root_real, "/") == 0 ? 0 : strlen(f->root_real);
                if (strncmp(target, f->root_real, r) != 0 ||
                    (target[r] != '/' && target[r] != '\0')) {
                    refuse(diag, uri, length,
                           "goes through a symbolic link that leads outside the folder",
                           f->root_real);
                    free(target);
                    break;
                }
                walk_to_root(&w);
                start = target + r;
            }
            size_t t = strlen(start);
            memmove(target, start, t);
            target[t] = '/';
            memcpy(target + t + (rest > 0 || trailing_slash), next, rest + 1);
            free(path);
            path = p = target;
            continue;
        }
        if (!last) {
            int dir = S_ISDIR(st->st_mode)
                          ? openat(top, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                          : -1;
            int err = S_ISDIR(st->st_mode) ? errno : ENOTDIR;
            if (dir < 0 || !walk_push(&w, dir)) {
                char quoted[KFC_QUOTE_SIZE];
                if (dir >= 0)
                    close(dir);
                kfc_fail(diag, dir < 0 ? KFC_IO : KFC_NOMEM, KFC_NO_MARK, "cannot read URI %s: %s",
                         kfc_quote(quoted, uri, length), dir < 0 ? strerror(err) : "out of memory");
                break;
            }
            p[n] = saved;
            p = next;
            continue;
        }
        /* The file: refused from its entry unless regular (opening a FIFO
         * could block, a device do anything), then opened without blocking
         * and checked again on the descriptor, which is what will be read. */
        if (S_ISREG(st->st_mode) && trailing_slash) {
            /* "data.bin/": the kernel's ENOTDIR, though the file is
             * there; the '/' is the slip, and the name without it is the
             * one meant (from a link, the link's). */
            size_t named = length;
            for (;;)
                if (named > 0 && uri[named - 1] == '/')
                    named--;
                else if (named > 2 && uri[named - 3] == '%' && uri[named - 2] == '2' &&
                         (uri[named - 1] == 'F' || uri[named - 1] == 'f'))
                    named -= 3;
                else
                    break;
            char quoted[KFC_QUOTE_SIZE], file[KFC_QUOTE_SIZE];
            kfc_quote(quoted, uri, length);
            if (named < length)
                kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                         "URI %s ends in '/', but %s is a file (remove the '/')", quoted,
                         kfc_quote(file, uri, named));
            else if (links == 0) /* "data.bin/.": dot segments, resolved to "data.bin/" */
                refuse(diag, uri, length, "names a folder, not a regular file", NULL);
            else /* the '/' ends a symbolic link's target */
                kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                         "URI %s goes through a symbolic link to a file by a name that ends "
                         "in '/'",
                         quoted);
            break;
        }
        if (!S_ISREG(st->st_mode)) {
            char why[64];
            snprintf(why, sizeof why, "names %s, not a regular file", kfc_file_kind(st->st_mode));
            refuse(diag, uri, length, why, NULL);
            break;
        }
        const dev_t dev = st->st_dev;
        const ino_t ino = st->st_ino;
        fd = openat(top, p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            char quoted[KFC_QUOTE_SIZE];
            kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read URI %s: %s",
                     kfc_quote(quoted, uri, length), strerror(errno));
            break;
        }
        if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_dev != dev || st->st_ino != ino) {
            refuse(diag, uri, length, "names a file that changed while it was opened", NULL);
            close(fd);
            fd = -1;
        } else if (kfc_file_on_kernel_fs(fd)) {
            refuse(diag, uri, length, "names a file of /proc, /sys or another kernel file system",
                   NULL);
            close(fd);
            fd = -1;
        }
        break;
    }
    walk_to_root(&w);
    free(w.fds);
    free(path);
    return fd;
}

/* The slot of the file (dev, ino) in the table: the one holding it, or the
 * empty one where it goes. The table has an empty slot. */
static size_t held_slot(const kfc_files *f, uint64_t dev, uint64_t ino)
{
    const size_t mask = f->held_capacity - 1;
    uint64_t h = (dev * 0x9E3779B97F4A7C15u) ^ ino;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 32;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask)
        if (!f->held[i] || (f->held[i]->dev == dev && f->held[i]->ino == ino))
            return i;
}

/* Room for one more file in the table, kept at most half full. */
static int held_room(kfc_files *f)
{
    if (2 * (f->held_count + 1) <= f->held_capacity)
        return 1;
    const size_t capacity = f->held_capacity ? 2 * f->held_capacity : 8;
    if (capacity > SIZE_MAX / sizeof *f->held)
        return 0;
    kfc_files_held **old = f->held;
    const size_t old_capacity = f->held_capacity;
    f->held = calloc(capacity, sizeof *f->held);
    if (!f->held) {
        f->held = old;
        return 0;
    }
    f->held_capacity = capacity;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i])
            f->held[held_slot(f, old[i]->dev, old[i]->ino)] = old[i];
    free(old);
    return 1;
}

kfc_status kfc_files_open(kfc_files *f, const char *uri, size_t length, const char *place,
                          uint64_t size, uint64_t max_size, const kfc_input **in, int *first,
                          kfc_diag *diag)
{
    *in = NULL;
    if (first)
        *first = 0;
    char *decoded = decode(uri, length, diag);
    if (!decoded)
        return diag->status;
    if (!f->ready && !set_up(f)) {
        free(decoded);
        return kfc_fail_nomem(diag);
    }
    if (f->failure) {
        free(decoded);
        return kfc_fail(diag, KFC_IO, KFC_NO_MARK, "%s", f->failure);
    }
    if (!f->prefix) {
        char quoted[KFC_QUOTE_SIZE], root[FOLDER_QUOTE_SIZE];
        free(decoded);
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                        "URI %s: the input is not inside %s, the folder for referenced files",
                        kfc_quote(quoted, uri, length),
                        kf_text_name(root, sizeof root, f->root_real, strlen(f->root_real), 1));
    }
    /* The dependency as a build system names it: the input's folder as
     * given, joined to the decoded reference. */
    const size_t folder = folder_length(f->document), d = strlen(decoded);
    char *named = malloc(folder + d + 1);
    const size_t prefix = strlen(f->prefix);
    char *below = malloc(prefix + d + 1);
    if (!named || !below) {
        free(named);
        free(below);
        free(decoded);
        return kfc_fail_nomem(diag);
    }
    memcpy(named, f->document, folder);
    memcpy(named + folder, decoded, d + 1);
    memcpy(below, f->prefix, prefix);
    memcpy(below + prefix, decoded, d + 1);
    free(decoded);
    /* The reference resolved from its text first: a '..' that climbs above
     * the root is refused by what the URI says, whichever folders exist. */
    remove_dot_segments(named + folder, 1);
    if (!remove_dot_segments(below, 0)) {
        free(named);
        free(below);
        return leads_outside(f, uri, length, diag);
    }

    struct stat st;
    kfc_status status = KFC_OK;
    int fd = open_beneath(f, below, uri, length, &st, diag); /* takes `below` */
    if (fd < 0) {
        free(named);
        return diag->status;
    }
    char quoted[KFC_QUOTE_SIZE];
    const uint64_t dev = (uint64_t)st.st_dev, ino = (uint64_t)st.st_ino;
    kfc_files_held *held = NULL;
    if (f->held_count > 0) {
        held = f->held[held_slot(f, dev, ino)];
        if (held)
            st.st_size = (off_t)held->in.size; /* what was read, not what it is now */
    }
    const uint64_t bytes = (uint64_t)st.st_size;
    if (size != KFC_FILES_ANY_SIZE && bytes != size)
        status = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                          "URI %s names a file of %llu bytes, not the %llu the reference states",
                          kfc_quote(quoted, uri, length), (unsigned long long)bytes,
                          (unsigned long long)size);
    else if (bytes > max_size || bytes > SIZE_MAX - 1)
        status = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                          "URI %s names a file of %llu bytes, more than kfc reads (%llu)",
                          kfc_quote(quoted, uri, length), (unsigned long long)bytes,
                          (unsigned long long)max_size);
    if (!status && !held) {
        held = calloc(1, sizeof *held);
        if (!held || !held_room(f)) {
            free(held);
            held = NULL;
            status = kfc_fail_nomem(diag);
        }
    }
    if (!status && held && !held->in.data) {
        kfc_diag io;
        memset(&io, 0, sizeof io);
        status = kfc_input_read_fd(&held->in, fd, (size_t)bytes, &io);
        if (status == KFC_NOMEM)
            kfc_fail_nomem(diag);
        else if (status)
            kfc_fail(diag, status, KFC_NO_MARK, "cannot read URI %s: %s",
                     kfc_quote(quoted, uri, length), io.message);
        else if (held->in.size != bytes)
            status =
                refuse(diag, uri, length, "names a file that changed size while it was read", NULL);
        if (status) {
            kfc_input_close(&held->in);
            free(held);
            held = NULL;
        } else {
            held->dev = dev;
            held->ino = ino;
            f->held[held_slot(f, dev, ino)] = held;
            f->held_count++;
            if (first)
                *first = 1;
        }
    }
    close(fd);
    if (!status && diag && diag->files_read)
        status = kfc_files_read_add(
            diag->files_read, named,
            f->document && strcmp(f->document, "-") != 0 ? f->document : "<stdin>", place, diag);
    if (!status)
        *in = &held->in;
    else if (first)
        *first = 0;
    free(named);
    return status;
}
