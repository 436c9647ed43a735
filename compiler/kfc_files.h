/* SPDX-License-Identifier: MIT */
/*
 * kfc_files.h - the files an input names (a glTF buffer's URI, an external
 * reference of an M3G file, an X3D Inline's url), opened only inside one
 * folder.
 *
 * An input comes from a third party; it must never reach outside what it
 * names. The rule every importer follows, through kfc_files_open:
 *
 *  - a reference is a relative URI reference: no scheme ("file:", "http:"),
 *    no authority or absolute path (a leading '/'), no query or fragment
 *    ('?', '#'), and well-formed percent-escapes. Data URIs and containers
 *    (a GLB's BIN chunk) are the importer's own business, never a file;
 *  - it is percent-decoded (so "%2e%2e" is "..", "%2F" a '/', "%00" refused)
 *    and resolved against the input's folder;
 *  - the file it reaches, with every symbolic link followed, lies inside the
 *    root: the folder the user named (kfc --asset-root), by default the
 *    input's own folder. ".." may climb towards the root, never above it;
 *  - the file is a regular file, not on /proc, /sys or another kernel file
 *    system (Linux), and its size is what the reference states, checked on
 *    the open descriptor before a byte is read.
 *
 * The reference is walked from a descriptor of the root one component at a
 * time (openat with O_NOFOLLOW; each symbolic link read and its target
 * walked in turn, an absolute one only when its text begins with the root's
 * real path: nothing outside the root is looked at, not even to resolve a
 * link there that would lead back in), so
 * the file opened is the file checked: nothing can swap a component for a
 * link between a check and the open. A FIFO, device or socket is refused
 * from its directory entry, before any open that could block or have an
 * effect, and the open itself is non-blocking.
 *
 * A file is read once however many references reach it, by whatever
 * spelling ("a.bin", "./a.bin", "sub/../a.bin", a link): files opened are
 * known by their identity (device and inode), and a second reference to one
 * shares the bytes the first read. What a set of references holds is thus
 * at most the sum of the distinct files' sizes.
 */
#ifndef KFC_FILES_H
#define KFC_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_diag.h"
#include "kfc_input.h"

/* Any size (up to kfc_files_open's max_size): a reference that states none. */
#define KFC_FILES_ANY_SIZE UINT64_MAX

typedef struct kfc_files_held kfc_files_held; /* a file read, by identity */

typedef struct kfc_files {
    const char *document; /* the input: references resolve against its folder */
    const char *root;     /* the folder they must stay in, or NULL: the input's */
    /* Set up at the first kfc_files_open. */
    int ready;
    int root_fd;     /* the root, opened; -1 when it cannot be */
    char *root_real; /* its real path: where absolute links may point */
    char *prefix;    /* the input's folder below the root ("" or "a/b/"), or
                        NULL: the input lies outside the root */
    char *failure;   /* why the root cannot be used, or NULL */
    /* The files read, by (device, inode): an open-addressed table of
     * held_capacity slots (a power of two, or 0), held_count used. */
    kfc_files_held **held;
    size_t held_count, held_capacity;
} kfc_files;

/* Starts a set of references of the input `document` (NULL or "-": standard
 * input, whose folder is the current one), confined to `root` (NULL: the
 * document's folder). Allocates nothing; both strings must outlive `files`. */
void kfc_files_init(kfc_files *files, const char *document, const char *root);

/*
 * Opens the file the reference `uri` (`length` bytes, not necessarily
 * NUL-terminated) names and sets *in to all of its bytes, owned by `files`
 * (valid until kfc_files_free). A file an earlier reference of `files` read
 * (the same device and inode) is not read again: *in is the same, and
 * *first (unless `first` is NULL) is 0, where it is 1 for the reference that
 * read it. `size` is the byte count the reference states (the file must have
 * exactly that many), or KFC_FILES_ANY_SIZE; no file above `max_size` bytes
 * is read. The path, as the input's folder and the decoded reference joined,
 * is added to diag->files_read (a dependency, -MD, and a file no output may
 * be), with the input and `place`, where it names the file (a JSON pointer;
 * may be NULL).
 *
 * Fails with KFC_INVALID when the reference breaks the rule above (the
 * message quotes it and says which part), KFC_IO when the file cannot be
 * opened or read (it does not exist, permissions), KFC_NOMEM. The message
 * has no location: the importer adds its own (a JSON pointer, a line).
 * `diag` must not be NULL.
 */
kfc_status kfc_files_open(kfc_files *files, const char *uri, size_t length, const char *place,
                          uint64_t size, uint64_t max_size, const kfc_input **in, int *first,
                          kfc_diag *diag);

/* Releases what kfc_files_open set up and read. Idempotent. */
void kfc_files_free(kfc_files *files);

#endif /* KFC_FILES_H */
