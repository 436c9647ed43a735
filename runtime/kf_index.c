/* kf_index.c - open-addressing hash indices for the builder (kf_index.h). */
#include <string.h>

#include "kf_index.h"
#include "kf_private.h"

/* FNV-1a: names are short; any decent spread will do. */
static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static uint32_t hash_key(const uint32_t k[KF_KEY_WORDS])
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < KF_KEY_WORDS; i++) {
        h ^= k[i];
        h *= 0x9E3779B1u;
        h ^= h >> 15;
    }
    return h;
}

const kf_name_slot *kf_name_find(const kf_name_index *x, const char *name)
{
    if (!x->capacity)
        return NULL;
    uint32_t h = hash_name(name), mask = x->capacity - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        const kf_name_slot *s = &x->slots[i];
        if (!s->name)
            return NULL;
        if (s->hash == h && strcmp(s->name, name) == 0)
            return s;
    }
}

static void name_put(kf_name_slot *slots, uint32_t capacity, kf_name_slot entry)
{
    uint32_t mask = capacity - 1, i = entry.hash & mask;
    while (slots[i].name)
        i = (i + 1) & mask;
    slots[i] = entry;
}

int kf_name_reserve(kf_name_index *x, const kf_allocator *a)
{
    /* Kept at most half full, so probes stay short. */
    if ((uint64_t)(x->count + 1) * 2 > x->capacity) {
        if (x->capacity > UINT32_MAX / 4)
            return 0;
        uint32_t grown = x->capacity ? x->capacity * 2 : 16;
        kf_name_slot *slots = kf_calloc(a, grown, sizeof *slots);
        if (!slots)
            return 0;
        for (uint32_t i = 0; i < x->capacity; i++)
            if (x->slots[i].name)
                name_put(slots, grown, x->slots[i]);
        kf_free(a, x->slots, (size_t)x->capacity * sizeof *x->slots);
        x->slots = slots;
        x->capacity = grown;
    }
    return 1;
}

void kf_name_add(kf_name_index *x, const char *name, uint32_t kind, uint32_t index)
{
    name_put(x->slots, x->capacity, (kf_name_slot){name, hash_name(name), kind, index});
    x->count++;
}

void kf_name_index_free(kf_name_index *x, const kf_allocator *a)
{
    kf_free(a, x->slots, (size_t)x->capacity * sizeof *x->slots);
    memset(x, 0, sizeof *x);
}

enum { KEY_WORDS = KF_KEY_WORDS + 1 }; /* the key, then 1 if used */

int kf_key_contains(const kf_key_index *x, const uint32_t key[KF_KEY_WORDS])
{
    if (!x->capacity)
        return 0;
    uint32_t mask = x->capacity - 1;
    for (uint32_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
        const uint32_t *s = x->slots + (size_t)i * KEY_WORDS;
        if (!s[KF_KEY_WORDS])
            return 0;
        if (memcmp(s, key, KF_KEY_WORDS * sizeof *key) == 0)
            return 1;
    }
}

static void key_put(uint32_t *slots, uint32_t capacity, const uint32_t key[KF_KEY_WORDS])
{
    uint32_t mask = capacity - 1, i = hash_key(key) & mask;
    while (slots[(size_t)i * KEY_WORDS + KF_KEY_WORDS])
        i = (i + 1) & mask;
    memcpy(slots + (size_t)i * KEY_WORDS, key, KF_KEY_WORDS * sizeof *key);
    slots[(size_t)i * KEY_WORDS + KF_KEY_WORDS] = 1;
}

int kf_key_reserve(kf_key_index *x, const kf_allocator *a)
{
    if ((uint64_t)(x->count + 1) * 2 > x->capacity) {
        if (x->capacity > UINT32_MAX / 4)
            return 0;
        uint32_t grown = x->capacity ? x->capacity * 2 : 16;
        uint32_t *slots = kf_calloc(a, (size_t)grown * KEY_WORDS, sizeof *slots);
        if (!slots)
            return 0;
        for (uint32_t i = 0; i < x->capacity; i++)
            if (x->slots[(size_t)i * KEY_WORDS + KF_KEY_WORDS])
                key_put(slots, grown, x->slots + (size_t)i * KEY_WORDS);
        kf_free(a, x->slots, (size_t)x->capacity * KEY_WORDS * sizeof *x->slots);
        x->slots = slots;
        x->capacity = grown;
    }
    return 1;
}

void kf_key_add(kf_key_index *x, const uint32_t key[KF_KEY_WORDS])
{
    key_put(x->slots, x->capacity, key);
    x->count++;
}

void kf_key_index_free(kf_key_index *x, const kf_allocator *a)
{
    kf_free(a, x->slots, (size_t)x->capacity * KEY_WORDS * sizeof *x->slots);
    memset(x, 0, sizeof *x);
}
