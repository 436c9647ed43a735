/* SPDX-License-Identifier: MIT */
/*
 * kf_index.h - hash indices of names and bindings, so that the builder's
 * and the reader's uniqueness checks cost O(n) expected, whatever the names
 * (keyed hashing, kf_index.c), rather than a scan per name.
 */
#ifndef KF_INDEX_H
#define KF_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "kf.h"

/* SipHash-1-3 of `n` bytes under a 128-bit secret `key`: a hash that names
 * cannot be crafted against without the key. Every hash table of what files
 * or sources hold uses it: here, kfc's YAML, name and X3D DEF tables, and
 * the writer's tables of key times. */
uint64_t kf_hash_keyed(const uint64_t key[2], const void *data, size_t n);
/* A fresh secret for one table, from the system's random source (getrandom);
 * where there is none, from the time and the addresses of the table, its
 * owner and a stack slot. No global state (kf_index.c says why). */
void kf_hash_key_draw(uint64_t key[2], const void *table, const void *owner);

/* Names of one namespace, each with the object it names. Names are not
 * copied: they must outlive the index (the builder owns them). */
typedef struct kf_name_slot {
    const char *name; /* NULL: empty slot */
    uint32_t hash;
    uint32_t kind;
    uint32_t index;
} kf_name_slot;

/* Zero-initialized when empty. `key` is the index's own hash secret
 * (kf_index.c); `probes` counts the slots every call has visited, so tests
 * can check that crafted names cost no more than any others. */
typedef struct kf_name_index {
    kf_name_slot *slots;
    uint32_t capacity; /* 0 or a power of two */
    uint32_t count;
    uint64_t key[2];
    uint64_t probes;
} kf_name_index;

/* The slot holding `name`, or NULL. */
const kf_name_slot *kf_name_find(const kf_name_index *x, const char *name);
/* Makes room for one more name; 0 if memory ran out (the index is unchanged).
 * After it, one kf_name_add cannot fail: callers reserve everything first and
 * commit only when nothing can fail any more. */
int kf_name_reserve(kf_name_index *x, const kf_allocator *a);
/* Makes room for `more` more names at once (a reader knows how many). */
int kf_name_reserve_n(kf_name_index *x, const kf_allocator *a, uint32_t more);
/* Adds `name` (absent) into reserved room. */
void kf_name_add(kf_name_index *x, const char *name, uint32_t kind, uint32_t index);
/* kf_name_find, then, where `name` is absent, kf_name_add into reserved
 * room, hashing it once: the slot already holding it, or NULL once added. */
const kf_name_slot *kf_name_claim(kf_name_index *x, const char *name, uint32_t kind,
                                  uint32_t index);
void kf_name_index_free(kf_name_index *x, const kf_allocator *a);

/* A set of fixed-size keys of KF_KEY_WORDS words, each with a value: a
 * track's binding (animator kind and index, controller, target, and an
 * interpolator track's TimeSensor: cycle interval bits, loop, ease) and
 * the index of the track that has it. */
#define KF_KEY_WORDS 8

/* The words of one slot: the key, 1 if used, its value (kf_load_peak
 * counts the index by it). */
#define KF_KEY_SLOT_WORDS (KF_KEY_WORDS + 2)

typedef struct kf_key_index {
    uint32_t *slots;   /* KF_KEY_SLOT_WORDS each: key, 1 if used, value */
    uint32_t capacity; /* 0 or a power of two */
    uint32_t count;
    uint64_t key[2]; /* as kf_name_index */
    uint64_t probes;
} kf_key_index;

/* The value added with `key`, or KF_NO_INDEX where it is absent. */
uint32_t kf_key_find(const kf_key_index *x, const uint32_t key[KF_KEY_WORDS]);
/* As kf_name_reserve / kf_name_add. */
int kf_key_reserve(kf_key_index *x, const kf_allocator *a);
int kf_key_reserve_n(kf_key_index *x, const kf_allocator *a, uint32_t more);
void kf_key_add(kf_key_index *x, const uint32_t key[KF_KEY_WORDS], uint32_t value);
/* As kf_name_claim: the value of `key` where it was there, else
 * KF_NO_INDEX, added with `value`. */
uint32_t kf_key_claim(kf_key_index *x, const uint32_t key[KF_KEY_WORDS], uint32_t value);
void kf_key_index_free(kf_key_index *x, const kf_allocator *a);

/* A track's binding key: what no two tracks of one file may share. */
struct kf_track;
void kf_track_binding(const struct kf_track *t, uint32_t key[KF_KEY_WORDS]);

#endif /* KF_INDEX_H */
