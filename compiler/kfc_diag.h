/* SPDX-License-Identifier: MIT */
/*
 * kfc_diag.h - kfc's diagnostics: one error record, one printer.
 *
 * Every layer of kfc (input, YAML tree, source schema, builder, output)
 * reports a failure by filling a kfc_diag and returning its status; only
 * kfc_main prints it, through kfc_diag_print, so every message has the same
 * shape:
 *
 *     FILE:LINE:COL: error: MESSAGE     (a position in the source is known)
 *     FILE: POINTER: error: MESSAGE     (glTF: the JSON pointer of the element;
 *                                        M3G: "byte N, object K")
 *     FILE: error: MESSAGE              (otherwise)
 *
 * Lines and columns are 1-based, counted in characters as libyaml counts
 * them.
 */
#ifndef KFC_DIAG_H
#define KFC_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Process exit codes; documented in `kfc --help` and formats/yaml.md. */
typedef enum kfc_status {
    KFC_OK = 0,
    KFC_INVALID = 1, /* invalid input: YAML source or .kfb file */
    KFC_USAGE = 2,   /* bad command line */
    KFC_IO = 3,      /* cannot read the input or write the output */
    KFC_NOMEM = 4    /* out of memory */
} kfc_status;

/* A position in the source; line 0 means "no position". */
typedef struct kfc_mark {
    uint32_t line;   /* 1-based */
    uint32_t column; /* 1-based */
} kfc_mark;

#define KFC_NO_MARK ((kfc_mark){0, 0})

struct kfc_files_read;

typedef struct kfc_diag {
    kfc_status status;
    kfc_mark mark;
    const char *file;  /* the file the message is about, when it is not the
                                 one kfc_diag_print is given (an output file) */
    char message[320]; /* one line, no trailing newline */
    char pointer[128]; /* where, when a line and column cannot say it: a JSON pointer
                          (RFC 6901) into a glTF document, a byte offset and object
                          index in a binary input (kfc_fail_at), or "" */

    /* Settings of the run, which every layer is handed with the diag;
     * kfc_fail leaves them alone. Zero: no colour, nothing recorded. */
    int color;                         /* kfc_diag_print marks up for a terminal */
    struct kfc_files_read *files_read; /* kfc_input_open records each file it reads
                                          (kfc_input.h), for dependency files */
} kfc_diag;

/* Records a failure in `diag` (if not NULL) and returns `status`. The
 * formatted message is truncated to fit; it must not contain newlines.
 * diag->file is reset to NULL, diag->pointer to "". */
kfc_status kfc_fail(kfc_diag *diag, kfc_status status, kfc_mark mark, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* As kfc_fail with KFC_INVALID, at `where`: a place in an input that has
 * no lines ("byte 1234, object 7"), printed where a line and column
 * would be. */
kfc_status kfc_fail_at(kfc_diag *diag, const char *where, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Shortcut for the common out-of-memory failure. */
kfc_status kfc_fail_nomem(kfc_diag *diag);

/*
 * Writes `text` (`length` bytes, not necessarily NUL-terminated) into `out`
 * as a single-quoted, single-line excerpt (as libkf quotes names in its
 * messages): control bytes, quotes and
 * backslashes are escaped, and text longer than about 48 bytes is cut with
 * "...". `out` is always NUL-terminated. Returns `out`, so the result can be
 * passed straight to kfc_fail's "%s".
 */
#define KFC_QUOTE_SIZE 64
char *kfc_quote(char out[KFC_QUOTE_SIZE], const char *text, size_t length);

/* Prints the diagnostic as "file:line:col: error: message\n" (or
 * "file: error: message\n" when it has no position) on `stream`; `file` is
 * used unless the diagnostic names its own. With diag->color, the location
 * is bold and "error:" bold red (ANSI SGR, as gcc and clang colour theirs).
 * Control bytes in the file name, pointer or message print as \xNN: one
 * diagnostic is one line. */
void kfc_diag_print(FILE *stream, const char *file, const kfc_diag *diag);

#endif /* KFC_DIAG_H */
