/* SPDX-License-Identifier: MIT */
/* kf_index.c - open-addressing hash indices (kf_index.h). */
#include <string.h>
#include <time.h>

/* glibc 2.25 and later declare getrandom (Linux 3.17 and later serve it). */
#if defined(__linux__) && defined(__GLIBC__) &&                                                    \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
#include <sys/random.h>
#define KF_HAVE_GETRANDOM 1
#endif

#include "kf_index.h"
#include "kf_private.h"

/*
 * Keyed hashing. Names come from files and sources an attacker may write;
 * against any fixed hash they can be crafted to share one bucket, which
 * makes every check quadratic. Each index therefore hashes with its own
 * secret key (SipHash-1-3, a keyed function built for exactly this), drawn
 * when its table is allocated and again at each growth, when every entry
 * is rehashed anyway. No state is shared between indices.
 *
 * The key must be something a file's author cannot predict. Addresses are
 * not: where they are not randomized (a static build without PIE, a system
 * without ASLR, a table freed and allocated again at the same place) they
 * repeat from run to run. So each key is drawn from the system's random
 * source (getrandom, without blocking: 16 bytes, well under a microsecond,
 * a few times per load as the tables grow), which also keeps the library
 * free of global state: no seed is cached or shared. Drawing per table
 * rather than once per load keeps the key inside this file, where the
 * tables are. Only where there is no such source, or it fails (the first
 * seconds after boot, a sandbox that forbids the call), is the key mixed
 * from the time in nanoseconds and the addresses, as unpredictable as the
 * platform allows.
 */
#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

/* Inlined, so that the state stays in registers: called as a function,
 * its four words went through memory every round, a third of a name's
 * hash. */
KF_ALWAYS_INLINE void sip_round(uint64_t v[4])
{
    v[0] += v[1];
    v[1] = ROTL(v[1], 13);
    v[1] ^= v[0];
    v[0] = ROTL(v[0], 32);
    v[2] += v[3];
    v[3] = ROTL(v[3], 16);
    v[3] ^= v[2];
    v[0] += v[3];
    v[3] = ROTL(v[3], 21);
    v[3] ^= v[0];
    v[2] += v[1];
    v[1] = ROTL(v[1], 17);
    v[1] ^= v[2];
    v[2] = ROTL(v[2], 32);
}

uint64_t kf_hash_keyed(const uint64_t key[2], const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t v[4] = {key[0] ^ 0x736f6d6570736575u, key[1] ^ 0x646f72616e646f6du,
                     key[0] ^ 0x6c7967656e657261u, key[1] ^ 0x7465646279746573u};
    const uint64_t last = (uint64_t)n << 56;
    const int little = kfb_host_little_endian();
    for (; n >= 8; n -= 8, p += 8) {
        /* The eight bytes as a little-endian word: one load where the host
         * is little-endian. */
        uint64_t m = 0;
        if (little)
            memcpy(&m, p, 8);
        else
            for (int i = 0; i < 8; i++)
                m |= (uint64_t)p[i] << (8 * i);
        v[3] ^= m;
        sip_round(v);
        v[0] ^= m;
    }
    uint64_t m = last;
    for (size_t i = 0; i < n; i++)
        m |= (uint64_t)p[i] << (8 * i);
    v[3] ^= m;
    sip_round(v);
    v[0] ^= m;
    v[2] ^= 0xff;
    sip_round(v);
    sip_round(v);
    sip_round(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void kf_hash_key_draw(uint64_t key[2], const void *table, const void *index)
{
#ifdef KF_HAVE_GETRANDOM
    if (getrandom(key, 2 * sizeof *key, GRND_NONBLOCK) == (ssize_t)(2 * sizeof *key))
        return;
#endif
    const unsigned char here = 0;
    struct timespec now = {0, 0};
    timespec_get(&now, TIME_UTC);
    const uint64_t t = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    key[0] = mix64((uint64_t)(uintptr_t)table ^ mix64((uint64_t)(uintptr_t)&here ^ mix64(t)));
    key[1] = mix64((uint64_t)(uintptr_t)index + key[0] + t);
}

static uint32_t hash_name(const uint64_t key[2], const char *s)
{
    return (uint32_t)kf_hash_keyed(key, s, strlen(s));
}

static uint32_t hash_key(const uint64_t key[2], const uint32_t k[KF_KEY_WORDS])
{
    /* The words as little-endian bytes, which they are already on such a
     * host: packing them byte by byte cost a third of a binding's hash. */
    if (kfb_host_little_endian())
        return (uint32_t)kf_hash_keyed(key, k, KF_KEY_WORDS * sizeof *k);
    unsigned char bytes[KF_KEY_WORDS * 4];
    for (int i = 0; i < KF_KEY_WORDS; i++)
        for (int b = 0; b < 4; b++)
            bytes[4 * i + b] = (unsigned char)(k[i] >> (8 * b));
    return (uint32_t)kf_hash_keyed(key, bytes, sizeof bytes);
}

/* The slot holding `name` (of hash h), or the empty one where it goes: the
 * one probe of finding, adding and claiming (x has slots). */
static kf_name_slot *name_slot(kf_name_index *x, const char *name, uint32_t h)
{
    const uint32_t mask = x->capacity - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        kf_name_slot *s = &x->slots[i];
        x->probes++;
        if (!s->name || (s->hash == h && strcmp(s->name, name) == 0))
            return s;
    }
}

const kf_name_slot *kf_name_find(const kf_name_index *cx, const char *name)
{
    kf_name_index *x = (kf_name_index *)cx; /* only the probe count changes */
    if (!x->capacity)
        return NULL;
    const kf_name_slot *s = name_slot(x, name, hash_name(x->key, name));
    return s->name ? s : NULL;
}

static void name_put(kf_name_index *x, kf_name_slot entry)
{
    *name_slot(x, entry.name, entry.hash) = entry;
}

/* The capacity, from `capacity` (0 or a power of two) doubled, that holds
 * `count` entries at most half full, so that probes stay short: at least
 * 16; 0 where it would pass 2^31. */
static uint32_t grown_for(uint32_t capacity, uint64_t count)
{
    uint64_t grown = capacity ? capacity : 16;
    while (grown < 2 * count)
        grown *= 2;
    return grown > (uint64_t)1 << 31 ? 0 : (uint32_t)grown;
}

const kf_name_slot *kf_name_claim(kf_name_index *x, const char *name, uint32_t kind, uint32_t index)
{
    const uint32_t h = hash_name(x->key, name);
    kf_name_slot *s = name_slot(x, name, h);
    if (s->name)
        return s;
    *s = (kf_name_slot){name, h, kind, index};
    x->count++;
    return NULL;
}

int kf_name_reserve_n(kf_name_index *x, const kf_allocator *a, uint32_t more)
{
    if ((uint64_t)x->count + more > x->capacity / 2) {
        const uint32_t grown = grown_for(x->capacity, (uint64_t)x->count + more);
        if (!grown)
            return 0;
        kf_name_slot *slots = kf_calloc(a, grown, sizeof *slots);
        if (!slots)
            return 0;
        kf_name_index next = {slots, grown, 0, {0, 0}, x->probes};
        kf_hash_key_draw(next.key, slots, x);
        for (uint32_t i = 0; i < x->capacity; i++)
            if (x->slots[i].name) {
                kf_name_slot e = x->slots[i];
                e.hash = hash_name(next.key, e.name);
                name_put(&next, e);
            }
        kf_free(a, x->slots, (size_t)x->capacity * sizeof *x->slots);
        next.count = x->count;
        *x = next;
    }
    return 1;
}

int kf_name_reserve(kf_name_index *x, const kf_allocator *a)
{
    return kf_name_reserve_n(x, a, 1);
}

void kf_name_add(kf_name_index *x, const char *name, uint32_t kind, uint32_t index)
{
    name_put(x, (kf_name_slot){name, hash_name(x->key, name), kind, index});
    x->count++;
}

void kf_name_index_free(kf_name_index *x, const kf_allocator *a)
{
    kf_free(a, x->slots, (size_t)x->capacity * sizeof *x->slots);
    memset(x, 0, sizeof *x);
}

enum { USED = KF_KEY_WORDS, VALUE, KEY_WORDS }; /* the key, 1 if used, its value */
_Static_assert(KEY_WORDS == KF_KEY_SLOT_WORDS, "a slot is the key, its use and its value");

/* The slot holding `key`, or the empty one where it goes (x has slots). */
static uint32_t *key_slot(kf_key_index *x, const uint32_t key[KF_KEY_WORDS])
{
    const uint32_t mask = x->capacity - 1;
    for (uint32_t i = hash_key(x->key, key) & mask;; i = (i + 1) & mask) {
        uint32_t *s = x->slots + (size_t)i * KEY_WORDS;
        x->probes++;
        if (!s[USED] || memcmp(s, key, KF_KEY_WORDS * sizeof *key) == 0)
            return s;
    }
}

uint32_t kf_key_find(const kf_key_index *cx, const uint32_t key[KF_KEY_WORDS])
{
    kf_key_index *x = (kf_key_index *)cx; /* only the probe count changes */
    if (!x->capacity)
        return KF_NO_INDEX;
    const uint32_t *s = key_slot(x, key);
    return s[USED] ? s[VALUE] : KF_NO_INDEX;
}

/* Puts `key` and its value into the empty slot s. */
static void key_fill(uint32_t *s, const uint32_t key[KF_KEY_WORDS], uint32_t value)
{
    memcpy(s, key, KF_KEY_WORDS * sizeof *key);
    s[USED] = 1;
    s[VALUE] = value;
}

uint32_t kf_key_claim(kf_key_index *x, const uint32_t key[KF_KEY_WORDS], uint32_t value)
{
    uint32_t *s = key_slot(x, key);
    if (s[USED])
        return s[VALUE];
    key_fill(s, key, value);
    x->count++;
    return KF_NO_INDEX;
}

int kf_key_reserve_n(kf_key_index *x, const kf_allocator *a, uint32_t more)
{
    if ((uint64_t)x->count + more > x->capacity / 2) {
        const uint32_t grown = grown_for(x->capacity, (uint64_t)x->count + more);
        if (!grown)
            return 0;
        uint32_t *slots = kf_calloc(a, (size_t)grown * KEY_WORDS, sizeof *slots);
        if (!slots)
            return 0;
        kf_key_index next = {slots, grown, 0, {0, 0}, x->probes};
        kf_hash_key_draw(next.key, slots, x);
        for (uint32_t i = 0; i < x->capacity; i++) {
            const uint32_t *s = x->slots + (size_t)i * KEY_WORDS;
            if (s[USED])
                key_fill(key_slot(&next, s), s, s[VALUE]);
        }
        kf_free(a, x->slots, (size_t)x->capacity * KEY_WORDS * sizeof *x->slots);
        next.count = x->count;
        *x = next;
    }
    return 1;
}

int kf_key_reserve(kf_key_index *x, const kf_allocator *a)
{
    return kf_key_reserve_n(x, a, 1);
}

void kf_key_add(kf_key_index *x, const uint32_t key[KF_KEY_WORDS], uint32_t value)
{
    key_fill(key_slot(x, key), key, value);
    x->count++;
}

void kf_key_index_free(kf_key_index *x, const kf_allocator *a)
{
    kf_free(a, x->slots, (size_t)x->capacity * KEY_WORDS * sizeof *x->slots);
    memset(x, 0, sizeof *x);
}

void kf_track_binding(const kf_track *t, uint32_t key[KF_KEY_WORDS])
{
    uint64_t cycle_bits;
    memcpy(&cycle_bits, &t->cycle_interval, sizeof cycle_bits);
    const uint32_t k[KF_KEY_WORDS] = {t->animator_kind,
                                      t->animator,
                                      t->controller,
                                      t->target,
                                      (uint32_t)cycle_bits,
                                      (uint32_t)(cycle_bits >> 32),
                                      t->loop,
                                      t->ease};
    memcpy(key, k, sizeof k);
}
