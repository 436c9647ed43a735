/* SPDX-License-Identifier: MIT */
/*
 * kfc_names.h - the objects a source names: animators (sequences,
 * interpolators and followers share one namespace) and controllers, each
 * with where it is defined, whether it was built and whether a track uses
 * it.
 *
 * kfc reads on past an error (kfc_diag.h); the registry lets it skip,
 * without a second message, a track whose animator or controller failed
 * to build, suggest the name meant for one that does not exist, and warn
 * about what nothing uses. Names are copied (the source's nodes of an
 * animator are freed once it is built); lookups are keyed-hash O(1).
 */
#ifndef KFC_NAMES_H
#define KFC_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_arena.h"
#include "kfc_diag.h"

typedef enum kfc_name_kind {
    KFC_NAME_SEQUENCE,
    KFC_NAME_INTERPOLATOR,
    KFC_NAME_FOLLOWER,
    KFC_NAME_CONTROLLER
} kfc_name_kind;

typedef struct kfc_name {
    const char *text; /* NUL-terminated copy */
    size_t length;
    kfc_mark mark;  /* of the name in the source */
    uint8_t kind;   /* kfc_name_kind */
    uint8_t ease;   /* an EaseInEaseOut interpolator */
    uint8_t failed; /* its entry had an error: it was not built */
    uint8_t used;   /* a track plays it or eases with it */
    /* What -Wlong-duration judges an animator's times by. A controller:
     * its speed. An animator: whether a track with a controller plays it,
     * the speed of largest magnitude among those controllers, and whether
     * one of them failed or does not exist (its speed is not known). */
    uint8_t played;
    uint8_t speed_unknown;
    double speed;
} kfc_name;

typedef struct kfc_names {
    kfc_name *names; /* in the order defined */
    size_t count, capacity;
    uint32_t *slots; /* open addressing: index + 1, 0 empty */
    size_t slot_capacity;
    uint64_t key[2];
    kfc_arena text;
} kfc_names;

void kfc_names_init(kfc_names *names);
void kfc_names_free(kfc_names *names);

/* The name in the namespace of `kind` (controllers, or animators), or NULL.
 * The pointer is valid until the next kfc_names_add. */
kfc_name *kfc_names_find(const kfc_names *names, kfc_name_kind kind, const char *text,
                         size_t length);

/* Defines `text` as a `kind`; *index receives its index (a name defined
 * twice keeps its first definition, whose index comes back). KFC_NOMEM on
 * failure. */
kfc_status kfc_names_add(kfc_names *names, kfc_name_kind kind, const char *text, size_t length,
                         kfc_mark mark, size_t *index, kfc_diag *diag);

#endif /* KFC_NAMES_H */
