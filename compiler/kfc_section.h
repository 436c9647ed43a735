/* SPDX-License-Identifier: MIT */
/*
 * kfc_section.h - one table per top-level section of a source document,
 * from which the section is both read (YAML -> kf_builder) and written
 * (loaded kf_anim -> YAML), so that a field is added in one place.
 *
 * A section file (kfc_section_<name>.c) defines one kfc_section: per field
 * its YAML key, whether it is required, which kf_field builder errors about
 * it point at, how it is read and how it is written; plus the few
 * entry-level hooks that concern several fields. kfc_section.c walks the
 * tables; kfc_source.c lists the sections for reading, kfc_decompile.c for
 * writing.
 *
 * Adding a field is one row in its section's table (with its read and emit
 * functions beside it; a field of a kind other fields do not have may also
 * need a member in the section's state, or a KFC_SCRATCH_ array for bulk
 * data). An item of a sequence key is one row of the key item table in
 * kfc_section_sequences.c.
 */
#ifndef KFC_SECTION_H
#define KFC_SECTION_H

#include <stddef.h>

#include "kf_build.h"
#include "kfc_diag.h"
#include "kfc_emit.h"
#include "kfc_names.h"
#include "kfc_yaml.h"

/* Scratch arrays of doubles for bulk data (key times, values, ...), reused
 * from one entry to the next. */
enum {
    KFC_SCRATCH_TIMES,
    KFC_SCRATCH_VALUES,
    KFC_SCRATCH_TCB,      /* tension, continuity, bias per key */
    KFC_SCRATCH_TANGENTS, /* hermite: in-, then out-tangent per key */
    KFC_SCRATCH_COUNT
};

/* The most fields one section has (each table checks it). */
#define KFC_FIELDS_MAX 12

/* A time on an animator's clock (a sequence's duration, a chaser's
 * duration, a damper's tau) long enough to have been written in
 * milliseconds, held until the tracks tell the speed it plays at
 * (kfc_warn_long_times). */
typedef struct kfc_long_time {
    kfc_mark mark;
    double seconds, most;
    const char *field, *clock; /* as kfc_warn_long_time takes them */
    size_t animator;           /* its index in src->names */
} kfc_long_time;

typedef struct kfc_source {
    kf_builder *builder;
    kfc_diag *diag;
    kfc_names names; /* the animators and controllers defined so far */
    struct {
        kfc_mark *targets; /* each one's target, by its index in the builder */
        size_t count, capacity;
    } tracks;          /* the tracks read without error */
    int tracks_failed; /* the tracks section had an error: what a track plays is not all known */
    unsigned unknown_names; /* names a track gave that none defines, so far */
    struct {
        kfc_long_time *items;
        size_t count, capacity;
    } long_times;
    struct {
        double *data;
        size_t capacity;
    } scratch[KFC_SCRATCH_COUNT];
    /* The "missing required field" errors of the last entry read, held
     * (kfc_diag_hold) until its section's next key that is not named as
     * one of the section's fields (kfc_section_entry). A key so named
     * before it is a field written at the entry's indentation: when the
     * entry is missing that field, the error the key gets replaces the
     * entry's. */
    struct {
        const struct kfc_section *section; /* NULL: nothing held */
        unsigned fields;                   /* bit per table row: reported missing */
        size_t held[KFC_FIELDS_MAX];       /* each one's kfc_diag_held_count */
    } missing;
} kfc_source;

/* One entry being read. */
typedef struct kfc_entry {
    const kfc_node *name;                   /* the key in a mapping section, NULL in a list */
    const kfc_node *node;                   /* the entry */
    const kfc_node *fields[KFC_FIELDS_MAX]; /* per table row, NULL when absent */
    void *state;                            /* the section's: the builder description and more */
    kfc_name *defined;                      /* its name in src->names (mapping sections), or NULL */
    int skip; /* set by the check hook: it depends on an object that failed to build, whose
                 error was reported; the entry is left out without a message */
    unsigned suggested; /* bit per table row: an unknown field was suggested for it */
    /* Bit per table row: the field is missing (required) or did not read, its
     * error reported; what depends on it is not read (kfc_entry_fail). */
    unsigned failed;
    unsigned errors; /* the entry's errors: it is not built */
} kfc_entry;

typedef struct kfc_field {
    const char *key;
    int required;
    /* Fields are read in table order, those of a higher pass after all of
     * a lower one (when one field's reading depends on another's): each
     * field, also after another failed; a read that depends on another
     * field finds whether it failed in entry->failed. */
    int pass;
    /* Builder errors about the field as a whole, and those whose item is
     * an entry of the field's list, are reported at it (KF_FIELD_NONE for
     * neither). */
    kf_field field;
    kf_field entry_field;
    /* The value node into entry->state; NULL when a hook reads it. */
    kfc_status (*read)(kfc_source *src, const kfc_node *value, kfc_entry *entry);
    /* Whether the loaded object has the field off its default (NULL:
     * always written), and its value. */
    int (*written)(const void *out);
    kfc_status (*emit)(kfc_emitter *e, const void *out);
} kfc_field;

typedef struct kfc_section {
    const char *name;
    kfc_node_kind shape; /* KFC_NODE_MAPPING (name -> entry) or _SEQUENCE */
    int streamed;        /* built as each entry is parsed */
    kf_kind kind;        /* what kf_anim holds the entries as */
    int flow;            /* entries written as {k: v, ...} */
    const kfc_field *fields;
    size_t field_count;

    /* Reading: builds one entry (`key` NULL in a list section): declares
     * the section's state and calls kfc_section_read. */
    kfc_status (*read)(kfc_source *src, const kfc_node *key, const kfc_node *value);
    /* After the required fields are checked (entry->failed has those that
     * are missing), before any field is read. An error it returns stops
     * the entry; one about a field it reports itself (kfc_entry_fail),
     * and the other fields are read. Sets entry->skip when a field it
     * needs is missing. */
    kfc_status (*begin)(kfc_source *src, kfc_entry *entry);
    /* The builder call. */
    kf_result (*add)(kfc_source *src, kfc_entry *entry, kf_error *error);
    /* Where a builder error goes when the table does not say (NULL: the
     * table's answer, else the entry's name, else the entry). */
    const kfc_node *(*error_node)(const kfc_entry *entry, const kf_error *error);

    /* Writing: every entry of `anim` (nothing when there are none): sets up
     * the section's state and calls kfc_section_emit. */
    kfc_status (*emit)(kfc_emitter *e, const kf_anim *anim);
    /* Loads entry `index` into the state; *name is its key (NULL in a list). */
    kfc_status (*load)(kfc_emitter *e, const kf_anim *anim, uint32_t index, void *out,
                       const char **name);

    /* Reading, once the fields were read (NULL: none), of those that read
     * (not in entry->failed): the checks the source can word better than
     * the builder (names that do not exist, with a suggestion), reported
     * through kfc_recover; may set entry->skip. */
    kfc_status (*check)(kfc_source *src, kfc_entry *entry);
    /* Reading, once the builder took the entry (NULL: none): the warnings
     * about what was built (kfc_warn). */
    kfc_status (*built)(kfc_source *src, kfc_entry *entry);
} kfc_section;

/* The sections, defined in kfc_section_<name>.c. */
extern const kfc_section kfc_section_sequences;
extern const kfc_section kfc_section_interpolators;
extern const kfc_section kfc_section_followers;
extern const kfc_section kfc_section_controllers;
extern const kfc_section kfc_section_tracks;

/*
 * Reads one entry with `section`'s table into `state` and builds it,
 * reporting every error it finds through kfc_recover: each unknown field,
 * each missing required one (unless an unknown field was suggested for
 * it; in a mapping section, held until the section's next entry:
 * kfc_section_entry), each field that does not read, also after another
 * did not (a read leaves out what depends on a failed field:
 * entry->failed); the entry is built only when all of it was read. Its
 * name (in a mapping section) is defined in src->names first and marked
 * failed when the entry is not built. Returns KFC_OK when the caller may
 * go on (errors reported or not: compare diag->errors).
 */
kfc_status kfc_section_read(kfc_source *src, const kfc_section *section, const kfc_node *key,
                            const kfc_node *value, void *state);

/* "expected a mapping" (or list) unless `value`, the value of section `s`,
 * is of the section's shape, with what to write where the other shape was
 * written for it: entries each started with '- ' in a mapping section (no
 * '- ' before 'hip:'), entries under names or without their '- ' in a
 * list section. */
kfc_status kfc_section_expect(const kfc_section *s, const kfc_node *value, kfc_diag *diag);

/* The field names of `section` in table order (at least KFC_FIELDS_MAX). */
void kfc_section_field_names(const kfc_section *section, const char **names);

/*
 * Entry `key` (NULL in a list section) of section `s`, `value` its value,
 * read with s->read, unless it is not an entry of `s`:
 *   - `meant` is not NULL: its fields are every one of section `meant`'s
 *     (and not of `s`): reported at its name as going under `meant`;
 *   - it is named as one of the section's fields and is not a mapping: a
 *     field written at its entry's indentation instead of under it,
 *     reported as that. The entry it belongs to is the last one read
 *     before it (the keys between them being fields as well): when that
 *     one was missing the field, the "missing required field" error is
 *     withdrawn, and this one error says what is wrong.
 * An entry not read has its name defined (failed), so that a track naming
 * it says nothing more. Returns kfc_recover's answer.
 */
kfc_status kfc_section_entry(kfc_source *src, const kfc_section *s, const kfc_node *key,
                             const kfc_node *value, const kfc_section *meant);

/* The section whose entries kfc_section_entry was given ended (or the
 * document, or the run stopped): the errors held for its last entry are
 * printed. */
void kfc_section_end(kfc_source *src);

/* Writes the section key and every entry of `anim` through `out`. */
kfc_status kfc_section_emit(kfc_emitter *e, const kfc_section *section, const kf_anim *anim,
                            void *out);

/* Reports a failed builder call (`error` as the builder filled it) at `at`. */
kfc_status kfc_section_builder_failed(kfc_source *src, kf_result result, const kf_error *error,
                                      const kfc_node *at);

/* Table row `field`, required, is missing from the entry: reported at the
 * entry's name (unless an unknown field was suggested for it, which said
 * so; withdrawn when the field follows the entry at the section's level:
 * src->missing), marked failed, and the entry not to be built. Returns
 * kfc_recover's answer: not KFC_OK when the run stops. */
kfc_status kfc_entry_missing(kfc_source *src, kfc_entry *entry, const kfc_section *section,
                             size_t field);

/* Reports `status` (KFC_OK: nothing) about table row `field` of the entry
 * (KFC_FIELDS_MAX: the entry as a whole) through kfc_recover, marking the
 * field failed and the entry not to be built. Returns kfc_recover's
 * answer: not KFC_OK when the run stops. */
kfc_status kfc_entry_fail(kfc_source *src, kfc_entry *entry, size_t field, kfc_status status);

/*
 * -Wlong-duration: `seconds`, a time on the clock of a controller whose
 * speed is `speed`, when it lasts `most` world seconds or more, which a
 * value written in milliseconds would. The speed counts by its magnitude
 * and only above 1: a slower one (0 pauses) does not make a number too
 * large for its unit, which is what the warning is about. At speed 1:
 * "a `field` of N s is M minutes: `clock` times are seconds
 * (milliseconds?)"; else "a `field` of N at speed S is M minutes of world
 * time".
 */
kfc_status kfc_warn_long_time(kfc_source *src, kfc_mark mark, double seconds, double most,
                              double speed, const char *field, const char *clock);

/* Reads a time on the clock of the controllers that play the entry's
 * animator into *seconds; one of `most` seconds or more is held for
 * kfc_warn_long_times, which knows their speed. */
kfc_status kfc_get_animator_seconds(kfc_source *src, const kfc_node *value, kfc_entry *entry,
                                    double most, const char *field, const char *clock,
                                    double *seconds);

/* Once the tracks are read: kfc_warn_long_time for each time
 * kfc_get_animator_seconds held, at the speed of the fastest controller
 * whose track plays its animator; at speed 1 when none does, unless a
 * track failed (it might have). Not when a track that plays it names a
 * controller that failed or does not exist. */
kfc_status kfc_warn_long_times(kfc_source *src);

/*
 * -Wangle-range: axis-angle rotations [x, y, z, angle] of `field` (a list
 * of them, `entries`; or one, itself a list of four numbers), read into v,
 * four numbers each, whose angle is more than a turn, as one written in
 * degrees is: a warning at the first such angle, with how many more.
 */
kfc_status kfc_warn_angles(kfc_source *src, const kfc_node *field, int entries, const double *v,
                           uint32_t count);

/* Grows scratch array `which` to hold `count` doubles. */
kfc_status kfc_reserve(kfc_source *src, int which, size_t count);

/* Entry `item` of the list `field`, or the field itself. */
const kfc_node *kfc_entry_node(const kfc_node *field, uint32_t item);

#endif /* KFC_SECTION_H */
