/* SPDX-License-Identifier: MIT */
/*
 * test_index_collisions.c - names crafted to collide cost no more than any
 * others. The names share the low 24 bits of FNV-1a (32-bit: the hash the
 * name indices and kfc's X3D DEF table used; 64-bit: the one kfc's YAML
 * tables used), so under
 * those hashes every one of them lands in one bucket of any table up to
 * 2^24 slots and each check scans all earlier names. They are built as a
 * multicollision: 17 stages, each a pair of 4-letter blocks that take the
 * same state to the same state, so any choice of one block per stage
 * collides (2^17 names).
 *
 * Checked by counting table probes (the indices' own counters, the YAML
 * layer's test hook), never by timing: at most PROBES_PER_NAME per name,
 * where the colliding scheme needs n/2 on average. Then the same names go
 * end to end: 100k controllers through the builder, the encoder and the
 * loader's uniqueness check, 100k DEFs of one X3D scene, and 100k keys of
 * one YAML mapping; and key-time arrays crafted the same way spread over the
 * writer's table as any others. First: the
 * hash is SipHash-1-3 (CPython's, its reference below), and the keys
 * themselves are not derived from addresses (the same table and owner
 * draw different keys).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_index.h"
#include "kf_private.h"
#include "kf_test.h"
#include "kf_write.h"
#include "kfc_x3d_scene.h"
#include "kfc_yaml.h"
#include "test_util.h"

enum { STAGES = 17, BLOCK = 4, NAMES = 100000, CANDIDATES = 8192 };
#define PROBES_PER_NAME 16
#define LOW24           0xFFFFFFu

typedef struct fnv {
    uint64_t basis, prime;
} fnv;

static const fnv fnv32 = {2166136261u, 16777619u};
static const fnv fnv64 = {14695981039346656037u, 1099511628211u};

static uint64_t step(const fnv *f, uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * f->prime;
    return f->prime == fnv32.prime ? h & 0xFFFFFFFFu : h;
}

typedef struct candidate {
    uint32_t state;
    char block[BLOCK];
} candidate;

static int by_state(const void *x, const void *y)
{
    const candidate *a = x, *b = y;
    return (a->state > b->state) - (a->state < b->state);
}

/* pairs[stage][0/1]: blocks colliding in the low 24 bits from that stage's
 * state. Deterministic (a fixed LCG). */
static void craft(const fnv *f, char pairs[STAGES][2][BLOCK])
{
    static candidate c[CANDIDATES];
    uint64_t h = f->basis, rng = 12345;
    for (int s = 0; s < STAGES; s++) {
        for (int found = 0; !found;) {
            for (int i = 0; i < CANDIDATES; i++) {
                for (int k = 0; k < BLOCK; k++) {
                    rng = rng * 6364136223846793005u + 1442695040888963407u;
                    c[i].block[k] = (char)('a' + (rng >> 33) % 26);
                }
                c[i].state = (uint32_t)(step(f, h, c[i].block, BLOCK) & LOW24);
            }
            qsort(c, CANDIDATES, sizeof *c, by_state);
            for (int i = 1; i < CANDIDATES && !found; i++)
                if (c[i].state == c[i - 1].state && memcmp(c[i].block, c[i - 1].block, BLOCK)) {
                    memcpy(pairs[s][0], c[i - 1].block, BLOCK);
                    memcpy(pairs[s][1], c[i].block, BLOCK);
                    found = 1;
                }
        }
        h = step(f, h, pairs[s][0], BLOCK);
    }
}

/* Name i: one block per stage, chosen by the bits of i. */
static char *names_of(const fnv *f, const char *prefix)
{
    static char pairs[STAGES][2][BLOCK];
    craft(f, pairs);
    const size_t p = strlen(prefix), len = p + STAGES * BLOCK + 1;
    char *all = malloc((size_t)NAMES * len);
    for (uint32_t i = 0; i < NAMES; i++) {
        char *n = all + (size_t)i * len;
        memcpy(n, prefix, p);
        for (int s = 0; s < STAGES; s++)
            memcpy(n + p + BLOCK * s, pairs[s][(i >> s) & 1], BLOCK);
        n[len - 1] = '\0';
    }
    /* They do collide, as crafted. */
    const uint64_t h0 = step(f, f->basis, all, len - 1) & LOW24;
    int same = 1;
    for (uint32_t i = 0; i < NAMES; i++)
        same &= (step(f, f->basis, all + (size_t)i * len, len - 1) & LOW24) == h0;
    CHECK(same, "the crafted names share their low 24 hash bits");
    return all;
}

static size_t name_length(void)
{
    return STAGES * BLOCK + 1;
}

static void name_index(const char *names)
{
    const kf_allocator a = kf_allocator_or_default(NULL);
    kf_name_index x = {0};
    int ok = 1;
    for (uint32_t i = 0; i < NAMES && ok; i++) {
        const char *n = names + (size_t)i * name_length();
        ok = !kf_name_find(&x, n) && kf_name_reserve(&x, &a);
        if (ok)
            kf_name_add(&x, n, KF_KIND_CONTROLLER, i);
    }
    CHECK(ok && x.count == NAMES, "100k distinct names indexed");
    for (uint32_t i = 0; i < NAMES; i += 7) {
        const kf_name_slot *s = kf_name_find(&x, names + (size_t)i * name_length());
        CHECK(s && s->index == i, "name %u found", i);
    }
    printf("  name index: %llu probes for %u names (%.2f per name)\n", (unsigned long long)x.probes,
           (unsigned)NAMES, (double)x.probes / NAMES);
    CHECK(x.probes <= (uint64_t)PROBES_PER_NAME * NAMES, "probes %llu",
          (unsigned long long)x.probes);
    kf_name_index_free(&x, &a);

    /* Binding keys of one target and controller, many animators. */
    kf_key_index k = {0};
    for (uint32_t i = 0; i < NAMES && ok; i++) {
        const uint32_t key[KF_KEY_WORDS] = {0, i, 0, 0, 0, 0, KF_NO_INDEX};
        ok = kf_key_find(&k, key) == KF_NO_INDEX && kf_key_reserve(&k, &a);
        if (ok)
            kf_key_add(&k, key, i);
    }
    CHECK(ok && k.probes <= (uint64_t)PROBES_PER_NAME * NAMES, "binding probes %llu",
          (unsigned long long)k.probes);
    for (uint32_t i = 0; i < NAMES; i += 7) {
        const uint32_t key[KF_KEY_WORDS] = {0, i, 0, 0, 0, 0, KF_NO_INDEX};
        CHECK(kf_key_find(&k, key) == i, "binding %u found with its value", i);
    }
    kf_key_index_free(&k, &a);

    /* As the reader checks a file's names: room for all at once (the
     * least power of two that keeps them half full), each claimed once,
     * then each a second time, which finds the first. */
    kf_name_index y = {0};
    CHECK(kf_name_reserve_n(&y, &a, NAMES) && y.capacity == 262144, "room for %u names: %u",
          (unsigned)NAMES, (unsigned)y.capacity);
    for (uint32_t i = 0; i < NAMES && ok; i++)
        ok = !kf_name_claim(&y, names + (size_t)i * name_length(), KF_KIND_TARGET, i);
    CHECK(ok && y.count == NAMES && y.capacity == 262144, "100k names claimed in their room");
    for (uint32_t i = 0; i < NAMES; i += 7) {
        const kf_name_slot *s =
            kf_name_claim(&y, names + (size_t)i * name_length(), KF_KIND_CONTROLLER, i + 1);
        CHECK(s && s->index == i && s->kind == KF_KIND_TARGET && y.count == NAMES,
              "name %u claimed again: the first", i);
    }
    CHECK(y.probes <= (uint64_t)PROBES_PER_NAME * 2 * NAMES, "claim probes %llu",
          (unsigned long long)y.probes);
    kf_name_index_free(&y, &a);
    kf_key_index m = {0};
    CHECK(kf_key_reserve_n(&m, &a, NAMES) && m.capacity == 262144, "room for %u bindings",
          (unsigned)NAMES);
    for (uint32_t i = 0; i < NAMES && ok; i++) {
        const uint32_t key[KF_KEY_WORDS] = {0, i, 0, 0, 0, 0, KF_NO_INDEX};
        ok = kf_key_claim(&m, key, i) == KF_NO_INDEX && kf_key_claim(&m, key, i + 1) == i &&
             m.count == i + 1;
    }
    CHECK(ok && m.capacity == 262144 && m.probes <= (uint64_t)PROBES_PER_NAME * 2 * NAMES,
          "bindings claimed, then found: %llu probes", (unsigned long long)m.probes);
    kf_key_index_free(&m, &a);
}

static void end_to_end(const char *names)
{
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_error e;
    kf_result r = KF_OK;
    for (uint32_t i = 0; i < NAMES && r == KF_OK; i++) {
        kf_controller_desc c;
        kf_controller_desc_init(&c);
        c.name = names + (size_t)i * name_length();
        r = kf_builder_add_controller(b, &c, &e);
    }
    CHECK(r == KF_OK, "100k crafted controllers added: %s", e.message);
    kf_controller_desc again;
    kf_controller_desc_init(&again);
    again.name = names + (size_t)(NAMES / 2) * name_length();
    CHECK(kf_builder_add_controller(b, &again, &e) == KF_ERROR_DUPLICATE, "a repeat is refused");
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim && kf_anim_count(anim, KF_KIND_CONTROLLER) == NAMES, "and load");
    kf_anim_free(anim);
}

/* Each name DEF'd once, each found, and one given again: the scene's DEF
 * table, as both X3D readers fill it. */
static void x3d_defs(const char *names)
{
    kfc_import_options options;
    memset(&options, 0, sizeof options);
    kfc_x3d_scene scene;
    kfc_x3d_scene_init(&scene, &options);
    int ok = 1;
    for (uint32_t i = 0; i < NAMES && ok; i++)
        ok = kfc_x3d_add_node(&scene, "Group", names + (size_t)i * name_length(),
                              (kfc_mark){i + 1, 1}, 0) != NULL;
    CHECK(ok && scene.table_used == NAMES, "100k DEFs bound");
    for (uint32_t i = 0; i < NAMES; i += 7) {
        const kfc_x3d_node *n = kfc_x3d_lookup(&scene, names + (size_t)i * name_length());
        CHECK(n && n->index == i, "DEF %u found", i);
    }
    const char *again = names + (size_t)777 * name_length();
    const kfc_x3d_node *n = kfc_x3d_add_node(&scene, "Group", again, (kfc_mark){NAMES + 1, 1}, 0);
    CHECK(n && n->name && strcmp(n->name, again) != 0 && kfc_x3d_lookup(&scene, again) == n &&
              scene.table_used == NAMES,
          "a DEF given again binds the later node, renamed");
    printf("  X3D DEFs: %llu probes for %u names (%.2f per name)\n",
           (unsigned long long)scene.table_probes, (unsigned)NAMES,
           (double)scene.table_probes / NAMES);
    CHECK(scene.table_probes <= (uint64_t)PROBES_PER_NAME * 2 * NAMES, "DEF probes %llu",
          (unsigned long long)scene.table_probes);
    kfc_x3d_scene_free(&scene);
}

/* Key-time arrays of a source, which the writer and the compress-ahead
 * worker each index (by kf_hash_times) to store an array once. Crafted as
 * the names are, against the FNV-1a that hash was (its basis xor the key
 * count), the names' bytes taken as 17 floats: under the secret of a table
 * of 2^18 buckets, none holds more than PROBES_PER_NAME of them. */
static void key_times(void)
{
    enum { BUCKETS = 1 << 18 };
    const fnv times_fnv = {fnv32.basis ^ STAGES, fnv32.prime};
    char *names = names_of(&times_fnv, "");
    static uint32_t load[BUCKETS];
    uint64_t key[2];
    kf_hash_key_draw(key, load, names);
    uint32_t most = 0;
    for (uint32_t i = 0; i < NAMES; i++) {
        float times[STAGES];
        memcpy(times, names + (size_t)i * name_length(), sizeof times);
        const uint32_t b = kf_hash_times(key, times, STAGES) & (BUCKETS - 1);
        if (++load[b] > most)
            most = load[b];
    }
    printf("  key times: at most %u of %u arrays in one bucket\n", (unsigned)most, (unsigned)NAMES);
    CHECK(most <= PROBES_PER_NAME, "%u arrays share a bucket", (unsigned)most);
    free(names);
}

static void yaml_keys(void)
{
    char *names = names_of(&fnv64, "");
    const size_t len = name_length();
    char *text = malloc((size_t)NAMES * (len + 8) + 64);
    size_t at = 0;
    for (uint32_t i = 0; i < NAMES; i++)
        at += (size_t)sprintf(text + at, "%s: 1\n", names + (size_t)i * len);
    uint64_t probes = 0;
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    limits.probes = &probes;
    kfc_document doc;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(text, at, &limits, NULL, &doc, &diag) == KFC_OK, "100k keys parse");
    CHECK(doc.root.count == NAMES, "all keys");
    kfc_document_free(&doc);
    printf("  YAML keys: %llu probes for %u keys (%.2f per key)\n", (unsigned long long)probes,
           (unsigned)NAMES, (double)probes / NAMES);
    CHECK(probes <= (uint64_t)PROBES_PER_NAME * NAMES, "YAML probes %llu",
          (unsigned long long)probes);

    /* A repeat of a crafted key is still found, at its place. */
    at += (size_t)sprintf(text + at, "%s: 2\n", names + (size_t)777 * len);
    memset(&diag, 0, sizeof diag);
    CHECK(kfc_yaml_parse(text, at, NULL, NULL, &doc, &diag) == KFC_INVALID &&
              diag.mark.line == NAMES + 1 && strstr(diag.message, "duplicate key"),
          "repeat found: %s", diag.message);
    kfc_document_free(&doc);
    free(text);
    free(names);
}

/* kf_hash_keyed is SipHash-1-3: CPython hashes a bytes object with it
 * (sys.hash_info.algorithm 'siphash13'), under the key 0 where
 * PYTHONHASHSEED=0 and under the 16 bytes its generator draws from a seed
 * otherwise (x = 214013 x + 2531011 mod 2^32, byte i = x >> 16 & 0xFF).
 * The values, for bytes 0, 1, ..., n - 1 (n = 1 to 17: every tail length,
 * and one, two and no whole words), are
 *   PYTHONHASHSEED=S python3 -c 'print([hash(bytes(range(n))) % 2**64
 *                                       for n in range(1, 18)])'
 * with S = 0 and S = 12345, whose key is below. */
static void siphash_reference(void)
{
    static const uint64_t keys[2][2] = {{0, 0}, {0x25556dc46dc3dca0u, 0xfc3ee4dbd06f6c90u}};
    static const uint64_t expect[2][17] = {
        {0x68a914128e01e473u, 0x010bac45c41e3669u, 0x4d4c9a4a8ef6e0adu, 0x7cc43f98813e4dbdu,
         0x5abe2169dff36275u, 0xe3c25f87624f1cdbu, 0x2f098ab0c751325au, 0xead411e67ebe2eeau,
         0x75927f9d95124362u, 0xaf9f77a65ab51a1du, 0xfe64ce8b6617fcffu, 0xa6baf4fb0f9fe1c2u,
         0xa0cf3211850f8e0du, 0x7f86049379fbfe67u, 0xf30eb725bb91c9eau, 0x8972188433a5c5b7u,
         0x4883c49a2c009c1du},
        {0xddb5fc492fbdf63au, 0xdaa4ac012a6e8f04u, 0x6925b9482f3a5127u, 0x5c698c54afa96352u,
         0x49b0ce6a7158bf6eu, 0x560b2c53e4b773c9u, 0x831edfe12fee6ffdu, 0x354edb093928c942u,
         0x09a5e47bf18abeccu, 0x2e10bf59d8c6f64au, 0xa660e1db12eef539u, 0x91f764c1d15d04a8u,
         0x8dd05b3b40032634u, 0x6cecad59115b14c9u, 0xbe8dc664d017b99eu, 0x2e932605ea370595u,
         0x76887087110a4b41u}};
    unsigned char bytes[17];
    for (int i = 0; i < 17; i++)
        bytes[i] = (unsigned char)i;
    for (int k = 0; k < 2; k++)
        for (size_t n = 1; n <= 17; n++) {
            const uint64_t h = kf_hash_keyed(keys[k], bytes, n);
            CHECK(h == expect[k][n - 1], "key %d, %zu bytes: %016llx, not %016llx", k, n,
                  (unsigned long long)h, (unsigned long long)expect[k][n - 1]);
        }
}

/* The secrets do not follow from addresses: the same table and owner (as a
 * table freed and allocated again at one place has) draw a different key
 * each time, and keys are not small or repeated. */
static void unpredictable_keys(void)
{
    enum { DRAWS = 64 };
    uint64_t keys[DRAWS][2];
    static int table, owner;
    for (int i = 0; i < DRAWS; i++)
        kf_hash_key_draw(keys[i], &table, &owner);
    int repeats = 0;
    for (int i = 0; i < DRAWS; i++)
        for (int j = 0; j < i; j++)
            repeats += keys[i][0] == keys[j][0] || keys[i][1] == keys[j][1];
    CHECK(repeats == 0, "%d of %d keys drawn for the same addresses repeat", repeats, DRAWS);
    const kf_allocator alloc = kf_allocator_or_default(NULL);
    kf_name_index a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK(kf_name_reserve(&a, &alloc) && kf_name_reserve(&b, &alloc), "reserve");
    CHECK(a.key[0] != b.key[0] || a.key[1] != b.key[1], "two indices, two keys");
    kf_name_index_free(&a, &alloc);
    kf_name_index_free(&b, &alloc);
}

int main(void)
{
    siphash_reference();
    unpredictable_keys();
    char *names = names_of(&fnv32, "");
    name_index(names);
    end_to_end(names);
    x3d_defs(names);
    free(names);
    key_times();
    yaml_keys();
    return kf_test_report("test_index_collisions");
}
