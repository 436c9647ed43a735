/* SPDX-License-Identifier: MIT */
/*
 * kfc_diag.h - kfc's diagnostics: one error record, one printer.
 *
 * Every layer of kfc (input, YAML tree, source schema, builder, output)
 * reports a failure by filling a kfc_diag and returning its status. Where
 * the work can go on past an error (the next entry of a section, the next
 * field of an entry, the next channel of a glTF animation), the layer hands
 * the status to kfc_recover, which prints the error and lets it continue
 * until diag->error_limit errors were reported; the run then fails with no
 * output, every error it could find reported. Otherwise the error goes up
 * and kfc_main prints it. Every message has the same shape:
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

/*
 * Warnings: what compiles but is almost surely a mistake. Each has a name
 * (kfc_warning_names) that -Wno-NAME turns off and -Werror=NAME turns into
 * an error; formats/yaml.md lists them. Printed as
 *
 *     FILE:LINE:COL: warning: MESSAGE [-WNAME]
 *     FILE:LINE:COL: error: MESSAGE [-Werror=NAME]     (as an error)
 */
typedef enum kfc_warning {
    KFC_WARN_UNCONTROLLED_TRACK, /* a track without a controller never plays */
    KFC_WARN_UNUSED_SEQUENCE,    /* in a file with tracks, no track plays it */
    KFC_WARN_UNUSED_INTERPOLATOR,
    KFC_WARN_UNUSED_FOLLOWER,
    KFC_WARN_UNUSED_CONTROLLER,
    KFC_WARN_QUATERNION_LENGTH, /* a slerp or squad key far from unit length */
    KFC_WARN_CUSTOM_PROPERTY,   /* a custom property one edit from a built-in one */
    KFC_WARN_LONG_DURATION,     /* a duration, cycle or tau of many minutes: written in
                                   milliseconds? (kfc_warn_long_time) */
    KFC_WARN_FRACTION_RANGE,    /* an X3D key a TimeSensor's fraction never reaches */
    KFC_WARN_EMPTY,             /* an imported file with nothing that animates */
    KFC_WARN_X3D_UNKNOWN,       /* a name an X3D scene's animation uses that X3D or the
                                   scene does not define: a node type, DEF name or field */
    KFC_WARN_X3D_DROPPED,       /* a part of an X3D scene's animation the importer drops:
                                   a ROUTE browsers refuse, an interpolator it refuses */
    KFC_WARN_X3D_LENIENT,       /* what X3D's grammar does not allow and X3D browsers read
                                   anyway (VRML's true, a misplaced UNIT): read as X_ITE
                                   reads it */
    KFC_WARN_ANGLE_RANGE,       /* an axis-angle rotation of more than a turn: written in
                                   degrees, where angles are radians */
    KFC_WARN_GLTF_UNKNOWN,      /* a glTF channel path glTF does not define, close to one
                                   it does (a typo): the channel is skipped */
    KFC_WARN_GLTF_DROPPED,      /* a glTF channel the importer skips although the file
                                   animates something with it: a KHR_animation_pointer
                                   target other than a node's TRS or weights */
    KFC_WARN_COUNT
} kfc_warning;

/* "uncontrolled-track", ..., in kfc_warning order. */
extern const char *const kfc_warning_names[KFC_WARN_COUNT];

typedef struct kfc_diag {
    kfc_status status;
    kfc_mark mark;
    const char *file;  /* the file the message is about, when it is not the
                                 one kfc_diag_print is given (an output file) */
    char message[512]; /* one line, no trailing newline */
    char pointer[128]; /* where, when a line and column cannot say it: a JSON pointer
                          (RFC 6901) into a glTF document, a byte offset and object
                          index in a binary input (kfc_fail_at), or "" */

    /* Settings of the run, which every layer is handed with the diag;
     * kfc_fail leaves them alone. A diag starts zeroed (memset): no colour,
     * nothing recorded, stop at the first error. */
    int color;                         /* kfc_diag_print marks up for a terminal */
    struct kfc_files_read *files_read; /* kfc_input_open records each file it reads
                                          (kfc_input.h), for dependency files */
    FILE *stream;                      /* where kfc_recover prints errors, or NULL */
    const char *source;                /* the input's name in those messages */
    unsigned error_limit;              /* errors kfc_recover reports before the run stops;
                                          0: it never recovers (the first error stops) */
    uint32_t warnings_off;             /* bit per kfc_warning: not reported */
    uint32_t warnings_error;           /* bit per kfc_warning: reported as an error */

    /* The run's state. */
    unsigned errors;            /* errors kfc_recover reported */
    int held_back;              /* an error past error_limit was met, not reported */
    int printed;                /* the error in the record was printed */
    uint64_t last_printed;      /* a hash of the last error kfc_recover printed */
    unsigned warnings;          /* warnings printed (as warnings) */
    unsigned promoted;          /* warnings printed as errors (counted in `errors` too) */
    uint64_t suggest_cells;     /* work spent on "did you mean" (kfc_suggest.h) */
    unsigned holding;           /* kfc_diag_hold depth */
    struct kfc_diag_held *held; /* what kfc_recover and kfc_warn printed while holding */
    size_t held_count, held_capacity;
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
 * Where the work can go on after `status`: KFC_OK passes through; an
 * invalid-input error (KFC_INVALID) is printed on diag->stream and counted,
 * and KFC_OK comes back, so that the caller skips what failed and goes on,
 * until diag->error_limit errors were reported; the next one is held back
 * (not printed, diag->held_back set) and KFC_INVALID comes back. The same
 * error at the same place as the last one printed (a broken buffer every
 * channel reads) is not printed again. Any other
 * status (out of memory, I/O), or any status when error_limit is 0, is
 * returned unprinted for the caller to stop with.
 */
kfc_status kfc_recover(kfc_diag *diag, kfc_status status);

/*
 * kfc_recover for one of several independent checks of one object (each
 * key of a list, each number of a key), which are all made: `status` is
 * reported as kfc_recover reports it, and the first that was not KFC_OK is
 * kept in *first. Returns kfc_recover's answer: not KFC_OK when the run
 * stops. Once every check is made, the object's reader returns *first: an
 * error that is already reported, which kfc_recover, the last error printed
 * being the same, does not print or count again.
 */
kfc_status kfc_recover_next(kfc_diag *diag, kfc_status status, kfc_status *first);

/* Whether the run stopped at an error past diag->error_limit, which was
 * not reported (reaching the limit alone goes on, to find whether one
 * follows). */
int kfc_diag_stopped(const kfc_diag *diag);

/*
 * Reports warning `w` at `mark` on diag->stream, unless diag->warnings_off
 * has it; as an error (counted as kfc_recover counts them) when
 * diag->warnings_error has it. Leaves the error record alone, unless it
 * returns KFC_INVALID: once an error so reported reaches the error limit
 * (or stops a run that does not recover); the record then holds it,
 * printed.
 */
kfc_status kfc_warn(kfc_diag *diag, kfc_warning w, kfc_mark mark, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* kfc_warn at a JSON pointer (a glTF element), where a line and column
 * cannot say where. */
kfc_status kfc_warn_pointer(kfc_diag *diag, kfc_warning w, const char *pointer, const char *format,
                            ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/*
 * -Wangle-range, of `count` axis-angle rotations [x, y, z, angle] at v:
 * the angles of more than a turn (which one written in degrees is, where
 * angles are radians) are warned of at `mark` (the first's), `what` (say
 * "key 1 has", or "PositionDamper 'cam' has") saying whose, with how many
 * more. *first: that rotation's index. `angle` is the angle as written;
 * `unit`, when not NULL, says why it is more than a turn in radians (an
 * X3D scene's UNIT angle), in place of "angles are radians".
 */
uint32_t kfc_angles_over_turn(const double *v, uint32_t count, uint32_t *first);
kfc_status kfc_warn_angle_range(kfc_diag *diag, kfc_mark mark, const char *what, double angle,
                                uint32_t more, const char *unit);

/*
 * -Wfraction-range, of an X3D interpolator's `count` keys at `key`: the
 * fraction a TimeSensor gives runs from 0 to 1, so a key outside never
 * plays (keys written as milliseconds, say). kfc_keys_outside_fraction
 * counts them, *first: the first's index; kfc_warn_fraction_range warns of
 * it at `mark`, with how many more.
 */
uint32_t kfc_keys_outside_fraction(const double *key, uint32_t count, uint32_t *first);
kfc_status kfc_warn_fraction_range(kfc_diag *diag, kfc_mark mark, uint32_t first, double key,
                                   uint32_t more);

/*
 * -Wquaternion-length, of `count` quaternions [x, y, z, w] at q, which are
 * played normalized: the first key whose length is more than 0.01 from 1
 * (more likely something else, as an axis and angle, than a rounded
 * quaternion) is warned of, at `mark` or at JSON pointer `pointer` (when
 * not NULL), with how many more and how they play; `what` says what the
 * keys are ("slerp keys"), `hint` (or NULL) ends the message.
 * kfc_quaternions_off_unit counts such keys; *first: the first's index.
 */
uint32_t kfc_quaternions_off_unit(const double *q, uint32_t count, uint32_t *first);
kfc_status kfc_warn_quaternion_length(kfc_diag *diag, kfc_mark mark, const char *pointer,
                                      const char *what, const double *q, uint32_t count,
                                      const char *hint);

/* Times are seconds (kf.h): a time that plays this many world seconds (a
 * sequence's or chaser's duration, a cycle, a glTF clip), or a damper's
 * tau (which settles in about five of it) of KFC_LONG_TAU, was most likely
 * written in milliseconds. */
#define KFC_LONG_SECONDS 1000.0
#define KFC_LONG_TAU     100.0

/* -Wlong-duration: `seconds` of `field` ("duration", "cycleInterval"), a
 * time of `clock`'s ("sequence", "TimeSensor", "glTF"), at `mark` or at
 * JSON pointer `pointer` (when not NULL): "a duration of 2000 s is 33.3
 * minutes: sequence times are seconds (milliseconds?)". */
kfc_status kfc_warn_long_seconds(kfc_diag *diag, kfc_mark mark, const char *pointer,
                                 const char *field, double seconds, const char *clock);

/*
 * From kfc_diag_hold to the matching kfc_diag_release, what kfc_recover
 * and kfc_warn print on diag->stream is held, and printed at the release
 * in order of position (the order made at one position kept; a line
 * without one last). Errors are counted, and the run stops, as they are
 * met: only the printing waits. An object read in an order its fields'
 * dependencies set (one YAML entry) is thus reported in the order of its
 * text, as an editor's "first error" expects. Holds nest; what cannot be
 * held for want of memory is printed at once.
 */
void kfc_diag_hold(kfc_diag *diag);
void kfc_diag_release(kfc_diag *diag);

/*
 * A note (what kfc -v says it skipped, and why): "FILE:LINE:COL: note:
 * MESSAGE" on diag->stream, or, while holding, held with the warnings and
 * errors, so that each line takes its place in the order of positions.
 */
void kfc_diag_note(kfc_diag *diag, const char *file, kfc_mark mark, const char *message);

/*
 * While holding, the error in the record that stops the run (not printed
 * yet; not a usage error) is held too, in its place among the lines held,
 * and marked printed, so that kfc prints it at the release and not again.
 */
void kfc_diag_hold_failure(kfc_diag *diag);

/*
 * While holding, the lines held so far: the number the next one gets
 * (also without diag->stream, where nothing is printed). An error
 * kfc_recover held as number N (the count was N before it and N + 1
 * after) can be withdrawn until the release: neither printed nor counted,
 * toward the limit or the run's errors. It is for an error that what is
 * read after it shows to be the wrong one, the right one being reported
 * instead. kfc_diag_withdraw returns whether it withdrew the error: not a
 * warning, nor a line printed at once for want of memory to hold it.
 */
size_t kfc_diag_held_count(const kfc_diag *diag);
int kfc_diag_withdraw(kfc_diag *diag, size_t index);

/*
 * Writes `text` (`length` bytes, not necessarily NUL-terminated) into `out`
 * as a single-quoted, single-line excerpt, as every name a message quotes
 * is written (kfc_text.h; libkf quotes names in its messages so too): the
 * bytes not shown (controls, C1, what is not UTF-8) as \xNN, quotes and
 * backslashes after a backslash, and text longer than about 48 bytes cut
 * with "..." (between characters). `out` is always NUL-terminated. Returns
 * `out`, so the result can be passed straight to kfc_fail's "%s".
 */
#define KFC_QUOTE_SIZE 64
char *kfc_quote(char out[KFC_QUOTE_SIZE], const char *text, size_t length);

/*
 * Writes the file name `name` into `out` (`size` bytes) as one word a POSIX
 * shell reads back as the name, for a command a message suggests: as it is
 * where that is safe, after "./" where it starts with '-', else in single
 * quotes (a quote in it as '\''). Returns 0, writing "FILE", where the name
 * holds a byte kfc_text.h escapes (no command on one line can show it) or
 * does not fit.
 */
int kfc_shell_word(char *out, size_t size, const char *name);

/* Prints the diagnostic as "file:line:col: error: message\n" (or
 * "file: error: message\n" when it has no position) on `stream`; `file` is
 * used unless the diagnostic names its own. With diag->color, the location
 * is bold and "error:" bold red (ANSI SGR, as gcc and clang colour theirs).
 * Control bytes in the file name, pointer or message, and the others
 * kfc_text.h escapes, print as \xNN: one diagnostic is one line. */
void kfc_diag_print(FILE *stream, const char *file, const kfc_diag *diag);

#endif /* KFC_DIAG_H */
