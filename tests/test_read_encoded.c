/* SPDX-License-Identifier: MIT */
/*
 * test_read_encoded.c - format version 2's encoded arrays (formats/kfb.md,
 * "Encoded arrays"): a version 2 file and a version 1 file (every array
 * plain) of the same animation load to the same numbers, bit for bit, and
 * play the same (sizes are the benchmark's: `scons bench`); crafted version 2 files whose
 * arrays overlap an encoded array are refused (decoding twice, or after
 * another object was validated on the same words, would change what was
 * checked), while plain arrays may still share words; version 2 computes
 * the slerp arcs at load (the same floats version 1 stores), and a record
 * asking for more arcs than the data section has words is refused before
 * anything is allocated for them. The writer's stored files hold arrays of
 * float bits as rows (2.5), which load to the same numbers from aligned and
 * unaligned memory, and whose headers are refused unless every one is the
 * rows bit alone, in 2.5 on; the files crafted here to test encoded arrays
 * are stored with every array encoded (KF_WRITE_STORED_ENCODED).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf_layout.h"
#include "kf_math.h"
#include "kf_offline.h"
#include "kf_private.h"
#include "kf_test.h"
#include "kf_write.h"
#include "kfb_craft.h"
#include "test_util.h"

/* `compression` 0: stored, every array encoded (KF_WRITE_STORED_ENCODED),
 * the arrays the tests below craft. */
static test_bytes encode(const kf_builder *b, int compression, uint32_t major)
{
    test_bytes out = {0};
    if (compression == 0) {
        const kf_allocator a = kf_allocator_or_default(NULL);
        CHECK(kf_write_objects(&a, &b->objects, KF_WRITE_STORED_ENCODED,
                               major == 1 ? 1 : KFB_VERSION_MAJOR, NULL, test_bytes_write, &out,
                               NULL) == KF_OK,
              "encode stored v%u", (unsigned)major);
        return out;
    }
    kf_encode_options o = {sizeof o, compression, major};
    CHECK(kf_builder_encode(b, &o, test_bytes_write, &out, NULL) == KF_OK, "encode v%u",
          (unsigned)major);
    return out;
}

static int same_floats(const float *a, const float *b, size_t n)
{
    return n == 0 || (a && b && memcmp(a, b, n * sizeof *a) == 0);
}

/* Sequence s's array `base` (values, tangent_out or tangent_in), `keys`
 * keys of it, as plain floats in `out`: a loaded sequence's floats are a
 * lane of a block (kf_private.h). */
static void flat(const struct kf_sequence *s, const float *base, size_t keys, float *out)
{
    for (size_t k = 0; k < keys; k++)
        for (uint32_t m = 0; m < s->components; m++)
            out[k * s->components + m] = kf_key_float(s, base, k, m);
}

/* Whether `keys` keys of arrays pa of a and pb of b have the same bits. */
static int same_keys(const struct kf_sequence *a, const float *pa, const struct kf_sequence *b,
                     const float *pb, size_t keys)
{
    if (!pa || !pb)
        return keys == 0 || pa == pb;
    for (size_t k = 0; k < keys; k++)
        for (uint32_t m = 0; m < a->components; m++) {
            const float x = kf_key_float(a, pa, k, m), y = kf_key_float(b, pb, k, m);
            if (memcmp(&x, &y, sizeof x) != 0)
                return 0;
        }
    return 1;
}

static void versions_agree(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes v1 = encode(b, 9, 1), v2 = encode(b, 9, 0), v2s = encode(b, 0, 2);
    /* The writer's own stored file: its arrays of float bits as rows. */
    test_bytes v2r = {0};
    const kf_encode_options stored = {sizeof stored, 0, 0};
    CHECK(kf_builder_encode(b, &stored, test_bytes_write, &v2r, NULL) == KF_OK, "encode rows");
    CHECK(v2r.size >= v2s.size && v2r.size - v2s.size < 4 &&
              memcmp(v2r.data + v2r.size - 200, v2s.data + v2s.size - 200, 200) != 0,
          "rows take the words encoded arrays take, the names padded to a word (%zu, %zu "
          "bytes), and differ",
          v2r.size, v2s.size);
    /* ... read where they lie, and from memory a byte off the alignment of
     * floats (copied) */
    unsigned char *odd = malloc(v2r.size + 1);
    if (odd)
        memcpy(odd + 1, v2r.data, v2r.size);
    CHECK(craft_get(v1.data + KFB_IDENTIFIER_SIZE) == KFB_VERSION(1, KFB_VERSION_1_MINOR),
          "version 1 header: %08x", (unsigned)craft_get(v1.data + KFB_IDENTIFIER_SIZE));
    CHECK(craft_get(v2.data + KFB_IDENTIFIER_SIZE) ==
              KFB_VERSION(KFB_VERSION_MAJOR, KFB_VERSION_MINOR),
          "version 2 header");
    kf_anim *a1 = NULL, *a2 = NULL, *a3 = NULL, *a4 = NULL, *a5 = NULL;
    CHECK(kf_load_memory(v1.data, v1.size, NULL, &a1, NULL) == KF_OK, "version 1 loads");
    CHECK(kf_load_memory(v2.data, v2.size, NULL, &a2, NULL) == KF_OK, "version 2 loads");
    CHECK(kf_load_memory(v2s.data, v2s.size, NULL, &a3, NULL) == KF_OK, "stored version 2 loads");
    CHECK(kf_load_memory(v2r.data, v2r.size, NULL, &a4, NULL) == KF_OK, "rows load");
    CHECK(odd && kf_load_memory(odd + 1, v2r.size, NULL, &a5, NULL) == KF_OK,
          "rows load from unaligned memory");
    if (a1 && a2 && a3 && a4 && a5) {
        const struct kf_objects *o1 = &a1->objects, *o2 = &a2->objects, *o3 = &a3->objects;
        CHECK(o1->count[KF_KIND_SEQUENCE] == o2->count[KF_KIND_SEQUENCE] &&
                  o1->count[KF_KIND_SEQUENCE] > 5,
              "sequences: %u", (unsigned)o1->count[KF_KIND_SEQUENCE]);
        for (uint32_t i = 0; i < o1->count[KF_KIND_SEQUENCE]; i++) {
            const struct kf_sequence *s1 = &o1->sequences[i], *s2 = &o2->sequences[i],
                                     *s3 = &o3->sequences[i], *s4 = &a4->objects.sequences[i],
                                     *s5 = &a5->objects.sequences[i];
            const size_t n = s1->key_count, c = s1->components;
            const size_t tc = (size_t)kfb_sequence_tangent_floats(s1->interpolation,
                                                                  s1->valid_count, s1->components);
            const struct kf_sequence *other[4] = {s2, s3, s4, s5};
            static const char *const how[4] = {"zlib", "stored", "rows", "rows, unaligned"};
            for (int k = 0; k < 4; k++) {
                const struct kf_sequence *s = other[k];
                CHECK(same_floats(s1->times, s->times, n) &&
                          same_keys(s1, s1->values, s, s->values, n) &&
                          same_keys(s1, s1->tangent_out, s, s->tangent_out, tc / c) &&
                          same_keys(s1, s1->tangent_in, s, s->tangent_in, tc / c) &&
                          same_floats(s1->tcb, s->tcb, s1->tcb ? 3 * n : 0) &&
                          same_floats(s1->key_tangents, s->key_tangents,
                                      s1->key_tangents ? 2 * n * c : 0) &&
                          (s1->arc_length != NULL) == (s->arc_length != NULL),
                      "sequence %u '%s': the same numbers from version 1 and 2 (%s)", (unsigned)i,
                      s1->name, how[k]);
            }
        }
        /* And they play the same. */
        kf_player *p1 = NULL, *p2 = NULL;
        CHECK(kf_player_create(a1, NULL, &p1) == KF_OK && kf_player_create(a2, NULL, &p2) == KF_OK,
              "players");
        for (int t = -100; p1 && p2 && t <= 2000; t += 37) {
            kf_player_update(p1, t);
            kf_player_update(p2, t);
            for (uint32_t g = 0; g < kf_anim_count(a1, KF_KIND_TARGET); g++) {
                kf_target_info info;
                kf_anim_target_info(a1, g, &info);
                CHECK(same_floats(kf_player_value(p1, g), kf_player_value(p2, g), info.components),
                      "target %u at %d", (unsigned)g, t);
            }
        }
        kf_player_destroy(p1);
        kf_player_destroy(p2);
    }
    printf("  rich animation: version 1 %zu bytes, version 2 %zu bytes (zlib 9)\n", v1.size,
           v2.size);
    kf_anim_free(a1);
    kf_anim_free(a2);
    kf_anim_free(a3);
    kf_anim_free(a4);
    kf_anim_free(a5);
    free(odd);
    free(v1.data);
    free(v2.data);
    free(v2s.data);
    free(v2r.data);
    kf_builder_destroy(b);
}

/* Two LINEAR sequences with their own key times, stored, version 2. */
static test_bytes two_sequences(void)
{
    static const double ta[3] = {0, 1, 2}, tb[3] = {0, 1, 3};
    static const double va[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, vb[9] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc a = {
        "a", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 3, 3, 3, ta, va, 0, 2, NULL, 0, NULL};
    kf_sequence_desc s2 = a;
    s2.name = "b";
    s2.times = tb;
    s2.values = vb;
    CHECK(kf_builder_add_sequence(b, &a, NULL) == KF_OK &&
              kf_builder_add_sequence(b, &s2, NULL) == KF_OK,
          "two sequences");
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    return f;
}

/* Word `field` of sequence `n`'s record (kfb_sequence order). */
enum { F_TIMES = 8, F_VALUES = 9, F_TANGENTS = 10 };

/* kf_load_memory of f through `counter`'s allocator, each new block filled
 * with garbage, as reused memory holds anything: a reader must not take it
 * for cleared (the counter must outlive the anim, which allocates and
 * frees through it). */
static kf_result load_filled(const test_bytes *f, test_counter *counter, kf_anim **anim,
                             kf_error *e)
{
    *counter = (test_counter){0};
    counter->fill = 0xA5;
    const kf_allocator filling = test_counting_allocator(counter);
    const kf_load_options options = {sizeof options, &filling, 0};
    return kf_load_memory(f->data, f->size, &options, anim, e);
}

/* two_sequences with word `field` of sequence n's record set to word
 * `from_field` of sequence from_n's (and, with `swap`, that one set to
 * this one's), loaded; a's first value, where it loads, in *first. */
static kf_result patched_as(int n, int field, int from_n, int from_field, int swap, float *first)
{
    test_bytes f = two_sequences();
    size_t to = craft_object(f.data, f.size, (unsigned)n);
    size_t from = craft_object(f.data, f.size, (unsigned)from_n);
    CHECK(to && from, "records");
    kf_result r = KF_ERROR_ARGUMENT;
    if (to && from) {
        const uint32_t was = craft_get(f.data + to + 4 * (size_t)field);
        craft_put(f.data + to + 4 * (size_t)field,
                  craft_get(f.data + from + 4 * (size_t)from_field));
        if (swap)
            craft_put(f.data + from + 4 * (size_t)from_field, was);
        craft_fix_crcs(f.data, f.size);
        kf_anim *anim = NULL;
        kf_error e;
        test_counter counter; /* (marks that no claim cleared are not free) */
        r = load_filled(&f, &counter, &anim, &e);
        if (r != KF_OK)
            printf("  %s\n", e.message);
        float v[3] = {0};
        if (r == KF_OK && first) {
            kf_sequence_sample(kf_anim_sequence(anim, 0), 0.0, NULL, v);
            *first = v[0];
        }
        kf_anim_free(anim);
    }
    free(f.data);
    return r;
}

static kf_result patched(int n, int field, int from_n, int from_field)
{
    return patched_as(n, field, from_n, from_field, 0, NULL);
}

static void overlaps(void)
{
    CHECK(patched(0, F_TIMES, 0, F_TIMES) == KF_OK, "the unpatched file loads");
    /* Plain arrays may share words: b's times at a's. */
    CHECK(patched(1, F_TIMES, 0, F_TIMES) == KF_OK, "two sequences sharing key times");
    /* An encoded array shares none. */
    kf_result r = patched(1, F_VALUES, 0, F_VALUES);
    CHECK(r == KF_ERROR_REFERENCE, "two sequences sharing encoded values: %s", kf_result_name(r));
    r = patched(1, F_TIMES, 0, F_VALUES);
    CHECK(r == KF_ERROR_REFERENCE, "key times on encoded values: %s", kf_result_name(r));
    r = patched(0, F_VALUES, 0, F_TIMES);
    CHECK(r == KF_ERROR_REFERENCE, "encoded values on key times: %s", kf_result_name(r));
    /* Arrays out of a writer's order: a's values where b's were, past
     * every word claimed before them, and b's in the words they skipped. */
    float first = 0.0f;
    r = patched_as(0, F_VALUES, 1, F_VALUES, 1, &first);
    CHECK(r == KF_OK && first == 9.0f, "two sequences' values swapped: %s, a starts at %g",
          kf_result_name(r), (double)first);
    r = patched(0, F_VALUES, 1, F_VALUES);
    CHECK(r == KF_ERROR_REFERENCE, "a's values on b's, claimed before them: %s", kf_result_name(r));
}

/* A stored DATA section is read where it lies: plain arrays are copied out
 * of it as they are claimed, but for the words an earlier plain array
 * copied. Two ScalarInterpolators' arrays (keys and values of each, in
 * that order), I1's values moved two words into I2's keys: I1's own
 * values are skipped, and I2's keys are then copied in two runs (the two
 * words before I1's values, and the two after them) around the four that
 * I1's values copied. Loaded through memory filled with garbage, each
 * array reads the words it names. */
static void plain_arrays_copied(void)
{
    static const double k1[4] = {0, 0.25, 0.5, 1}, v1[4] = {10, 11, 12, 13};
    static const double k2[8] = {0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 1};
    static const double v2[8] = {20, 21, 22, 23, 24, 25, 26, 27};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_interpolator_desc d;
    kf_interpolator_desc_init(&d);
    d.key_count = d.value_count = 4;
    d.name = "i1";
    d.key = k1;
    d.key_value = v1;
    CHECK(kf_builder_add_interpolator(b, &d, NULL) == KF_OK, "i1");
    d.key_count = d.value_count = 8;
    d.name = "i2";
    d.key = k2;
    d.key_value = v2;
    CHECK(kf_builder_add_interpolator(b, &d, NULL) == KF_OK, "i2");
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    enum { KEYS = 6, VALUES = 7 }; /* words of kfb_interpolator */
    const size_t i1 = craft_object(f.data, f.size, 0), i2 = craft_object(f.data, f.size, 1);
    CHECK(i1 && i2, "records");
    if (i1 && i2) {
        const uint32_t keys1 = craft_get(f.data + i1 + 4 * KEYS),
                       values1 = craft_get(f.data + i1 + 4 * VALUES),
                       keys2 = craft_get(f.data + i2 + 4 * KEYS),
                       values2 = craft_get(f.data + i2 + 4 * VALUES);
        CHECK(values1 == keys1 + 4 && keys2 == values1 + 4 && values2 == keys2 + 8,
              "the arrays in a writer's order");
        craft_put(f.data + i1 + 4 * VALUES, keys2 + 2);
        craft_fix_crcs(f.data, f.size);
        test_counter counter;
        kf_anim *anim = NULL;
        kf_error e;
        const kf_result r = load_filled(&f, &counter, &anim, &e);
        CHECK(r == KF_OK, "the patched file loads: %s", r == KF_OK ? "" : e.message);
        if (anim) {
            const struct kf_interpolator *in = anim->objects.interpolators;
            const float *got[4] = {in[0].keys, in[0].values, in[1].keys, in[1].values};
            static const char *const what[4] = {"i1's keys", "i1's values", "i2's keys",
                                                "i2's values"};
            const double *want[4] = {k1, k2 + 2, k2, v2};
            const size_t n[4] = {4, 4, 8, 8};
            for (int a = 0; a < 4; a++)
                for (size_t i = 0; i < n[a]; i++)
                    CHECK(got[a] && got[a][i] == (float)want[a][i], "%s[%zu]: %g, not %g", what[a],
                          i, got[a] ? (double)got[a][i] : 0.0, want[a][i]);
        }
        kf_anim_free(anim);
        CHECK(counter.live == 0, "the load freed what it allocated");
    }
    free(f.data);
}

/* A HERMITE sequence whose valid_count claims 2^31 - 1 keys: 2^34 floats of
 * scaled tangents (which the reader computes) from a file of a few hundred
 * bytes. */
static void computed_counted_before_allocating(void)
{
    static const double t[2] = {0, 1}, v[6] = {0, 1, 2, 3, 4, 5}, kt[12] = {0};
    const kf_sequence_desc d = {
        "h", KF_INTERPOLATION_HERMITE, KF_REPEAT_CONSTANT, 1, 3, 2, t, v, 0, 1, NULL, 0, kt};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "hermite sequence");
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    const size_t body = craft_object(f.data, f.size, 0);
    CHECK(body != 0, "the sequence's record");
    if (body) {
        craft_put(f.data + body + 4 * 6, 0x7fffffffu); /* valid_count */
        craft_fix_crcs(f.data, f.size);
        kf_anim *anim = NULL;
        kf_error e;
        kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, &e);
        CHECK(r == KF_ERROR_VALUE && strstr(e.message, "to compute"), "%s: %s", kf_result_name(r),
              e.message);
        kf_anim_free(anim);
    }
    free(f.data);
}

/* A SPLINE sequence of float bits (no column integers at a scale) and a
 * LINEAR one of small integers, stored by the writer: the first's values
 * and tangents as rows (every header KFB_COLUMN_ROWS, the floats as they
 * are, the incoming tangents right after the outgoing), the second's
 * encoded, its facts noted for the layout. Through memory filled with
 * garbage they load to the numbers the compressed file gives. Rows whose
 * headers are not all the rows bit alone, or in a 2.4 file, are refused. */
static void rows_arrays(void)
{
    enum { N = 9 };
    double t[N], v[3 * N], iv[3 * N];
    for (int k = 0; k < N; k++) {
        t[k] = k / 3.0;
        for (int m = 0; m < 3; m++) {
            v[3 * k + m] = sin(0.7 * k + m) * (m + 0.3);
            iv[3 * k + m] = k + m;
        }
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.name = "spline"; /* names of 11 bytes: STRS padded to 12 */
    d.interpolation = KF_INTERPOLATION_SPLINE;
    d.duration = 3;
    d.components = 3;
    d.key_count = N;
    d.times = t;
    d.values = v;
    d.valid_last = N - 1;
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "spline");
    d.name = "lin";
    d.interpolation = KF_INTERPOLATION_LINEAR;
    d.values = iv;
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "linear");
    test_bytes f = {0}, z = encode(b, 9, 0);
    const kf_encode_options stored = {sizeof stored, 0, 0};
    CHECK(kf_builder_encode(b, &stored, test_bytes_write, &f, NULL) == KF_OK, "stored");
    kf_builder_destroy(b);
    const size_t values = craft_array(f.data, f.size, 0, F_VALUES),
                 tangents = craft_array(f.data, f.size, 0, F_TANGENTS),
                 integers = craft_array(f.data, f.size, 1, F_VALUES);
    craft_section sections[3];
    CHECK(values && tangents && integers && craft_sections(f.data, f.size, sections) &&
              sections[KFB_SECTION_STRINGS].stored_size == 12 &&
              sections[KFB_SECTION_DATA].stored % 4 == 0,
          "records; the names padded to a word, DATA's floats at whole words");
    if (!values || !tangents || !integers) {
        free(f.data);
        free(z.data);
        return;
    }
    for (int m = 0; m < 3; m++) {
        CHECK(craft_get(f.data + values + 4 * m) == KFB_COLUMN_ROWS &&
                  craft_get(f.data + tangents + 4 * m) == KFB_COLUMN_ROWS,
              "column %d of the spline's values and tangents: rows (%08x, %08x)", m,
              (unsigned)craft_get(f.data + values + 4 * m),
              (unsigned)craft_get(f.data + tangents + 4 * m));
        CHECK((craft_get(f.data + integers + 4 * m) & KFB_COLUMN_EXPONENT_MASK) ==
                  KFB_COLUMN_EXPONENT_BIAS,
              "column %d of the integers: encoded (%08x)", m,
              (unsigned)craft_get(f.data + integers + 4 * m));
    }
    uint32_t word;
    memcpy(&word, &(float){(float)v[3]}, 4);
    CHECK(craft_get(f.data + values + 12 + 12) == word, "key 1's x as it is");
    kf_anim *rows = NULL, *zipped = NULL;
    test_counter counter;
    kf_error e;
    CHECK(load_filled(&f, &counter, &rows, &e) == KF_OK, "rows load: %s", e.message);
    CHECK(kf_load_memory(z.data, z.size, NULL, &zipped, NULL) == KF_OK, "compressed loads");
    if (rows && zipped)
        for (uint32_t i = 0; i < 2; i++) {
            const struct kf_sequence *a = &rows->objects.sequences[i],
                                     *c = &zipped->objects.sequences[i];
            CHECK(same_keys(a, a->values, c, c->values, N) &&
                      same_keys(a, a->tangent_out, c, c->tangent_out, i ? 0 : N) &&
                      same_keys(a, a->tangent_in, c, c->tangent_in, i ? 0 : N),
                  "sequence %u: the same numbers as rows and compressed", (unsigned)i);
        }
    kf_anim_free(rows);
    kf_anim_free(zipped);
    /* Headers that are not all the rows bit alone; rows in the version before
     * them. */
    const struct {
        size_t at;
        uint32_t word;
        const char *what;
    } cases[] = {
        {values + 4, KFB_COLUMN_ROWS | 1, "column 1 (header 00080001)"},
        {values + 8, 0, "column 2 (header 00000000)"},
        {tangents + 4, KFB_COLUMN_ROWS | KFB_COLUMN_UNIT, "column 1 (header 000c0000)"},
        {KFB_IDENTIFIER_SIZE, KFB_SINCE_ROWS - 1, "column 0 (header 00080000)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_bytes g = {malloc(f.size), f.size, f.size};
        memcpy(g.data, f.data, f.size);
        craft_put(g.data + cases[i].at, cases[i].word);
        craft_fix_crcs(g.data, g.size);
        kf_anim *anim = NULL;
        const kf_result r = kf_load_memory(g.data, g.size, NULL, &anim, &e);
        CHECK(r == KF_ERROR_VALUE && strstr(e.message, cases[i].what), "case %zu: %s (%s)", i,
              kf_result_name(r), r == KF_OK ? "" : e.message);
        kf_anim_free(anim);
        free(g.data);
    }
    free(f.data);
    free(z.data);
}

/* The values of two_sequences() are small integers: their columns are
 * stored as integers at scale 2^0 (header 1024, with a predictor). A
 * crafted scale overflows the floats, a crafted 0 reads the integers as
 * float bits: refused, or loaded as other finite numbers, never outside
 * the array. Header bits no writer sets, the keys' guess outside tangents
 * or on integers, a unit column
 * that also has a scale, two unit columns, and signs other than 0 and 1
 * are refused. */
static void column_headers(void)
{
    test_bytes f = two_sequences();
    const size_t at = craft_array(f.data, f.size, 0, F_VALUES);
    CHECK(at != 0, "records");
    if (at) {
        const uint32_t h0 = craft_get(f.data + at);
        CHECK((h0 & KFB_COLUMN_EXPONENT_MASK) == KFB_COLUMN_EXPONENT_BIAS &&
                  (h0 & ~KFB_COLUMN_HEADER_BITS) == 0,
              "integer column at scale 1: %08x", (unsigned)h0);
        const uint32_t unit = KFB_COLUMN_UNIT;
        const struct {
            uint32_t word[2]; /* columns 0 and 1 */
            kf_result want;
        } cases[] = {
            {{0xFFFFFFFFu, h0}, KF_ERROR_VALUE},
            {{1u << 19 | h0, h0}, KF_ERROR_VALUE},
            {{3u << KFB_COLUMN_PREDICTOR_SHIFT | KFB_COLUMN_EXPONENT_BIAS, h0}, KF_ERROR_VALUE},
            /* the keys' guess, on the keys themselves */
            {{(uint32_t)KFB_PREDICT_KEYS << KFB_COLUMN_PREDICTOR_SHIFT, h0}, KF_ERROR_VALUE},
            {{KFB_COLUMN_EXPONENT_BIAS + 200, h0}, KF_ERROR_VALUE},
            {{unit | KFB_COLUMN_EXPONENT_BIAS, h0}, KF_ERROR_VALUE},
            {{unit, unit}, KF_ERROR_VALUE},
            {{h0, unit}, KF_ERROR_VALUE}, /* its words 2 5 8 are no signs */
            {{0, h0}, KF_OK},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            test_bytes g = {malloc(f.size), f.size, f.size};
            memcpy(g.data, f.data, f.size);
            craft_put(g.data + at, cases[i].word[0]);
            craft_put(g.data + at + 4, cases[i].word[1]);
            craft_fix_crcs(g.data, g.size);
            kf_anim *anim = NULL;
            kf_error e;
            kf_result r = kf_load_memory(g.data, g.size, NULL, &anim, &e);
            CHECK(r == cases[i].want, "column headers %08x %08x: %s (%s)",
                  (unsigned)cases[i].word[0], (unsigned)cases[i].word[1], kf_result_name(r),
                  r == KF_OK ? "" : e.message);
            if (anim) { /* the integers read as float bits: tiny, finite numbers */
                const struct kf_sequence *q = &anim->objects.sequences[0];
                CHECK(kf_key_float(q, q->values, 0, 0) > 0.0f &&
                          kf_key_float(q, q->values, 0, 0) < 1e-40f,
                      "value 0 as bits: %g", (double)kf_key_float(q, q->values, 0, 0));
            }
            kf_anim_free(anim);
            free(g.data);
        }
    }
    free(f.data);
}

/* A builder of one SLERP sequence "name" of four keys: x, y and z of each
 * from `xyz` (four floats a key, the fourth unused), w the rest of unit
 * length, negative in the keys of `negative` (bit j: key j); `spoil`: key
 * 1's w one ulp off the rest. */
static kf_builder *rotations(const char *name, const float xyz[16], unsigned negative, int spoil)
{
    static const double t[4] = {0, 1, 2, 3};
    float q[16];
    double v[16];
    memcpy(q, xyz, sizeof q);
    for (int j = 0; j < 4; j++)
        CHECK(kf_unit_rest(q + 4 * j, 4, 3, negative >> j & 1, &q[4 * j + 3]), "rest %d", j);
    if (spoil) /* one ulp off: no longer the rest */
        q[7] = nextafterf(q[7], 0.0f);
    for (int i = 0; i < 16; i++)
        v[i] = q[i];
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc d = {
        name, KF_INTERPOLATION_SLERP, KF_REPEAT_CONSTANT, 4, 4, 4, t, v, 0, 3, NULL, 0, NULL};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
    return b;
}

/* Integer columns come back as q 2^e rounded once to float, whichever way
 * the reader converts them (in float, where every q is within 24 bits and
 * every q 2^e a normal float: exact there; else in double): a crafted
 * scale from subnormal to near FLT_MAX, and a crafted q past 2^24, which
 * rounds, over a LINEAR sequence of three components and six keys (the
 * decoder's row at a time path), each against ldexp in double. A value
 * past FLT_MAX is refused. */
static void integer_conversion(void)
{
    static const double t[6] = {0, 1, 2, 3, 4, 5};
    static const double v[18] = {1, 2, 3, 5, 4, 1, 9, 6, 2, 7, 8, 3, 3, 10, 4, 11, 12, 5};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc d = {
        "i", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 6, 3, 6, t, v, 0, 5, NULL, 0, NULL};
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "integer sequence");
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    const size_t at = craft_array(f.data, f.size, 0, F_VALUES);
    CHECK(at != 0, "records");
    if (!at) {
        free(f.data);
        return;
    }
    uint32_t h[3];
    int scale[3]; /* the writer's: column 1's values are even, its q halves */
    for (int m = 0; m < 3; m++) {
        h[m] = craft_get(f.data + at + 4 * m);
        scale[m] = (int)(h[m] & KFB_COLUMN_EXPONENT_MASK) - KFB_COLUMN_EXPONENT_BIAS;
        CHECK((h[m] & KFB_COLUMN_EXPONENT_MASK) != 0 && scale[m] >= 0 && scale[m] <= 1,
              "column %d: integers (%08x)", m, (unsigned)h[m]);
    }
    CHECK(scale[0] == 0, "column 0 at scale 1, its first q 1");
    /* Column 0's first word is its first q (1, zigzag-coded: 2); a byte B
     * in its top plane makes it 2 + B 2^24, every q of the column B 2^23
     * more (each is predicted from it). */
    const size_t top_plane = at + 12 + 3 * 18;
    const struct {
        int e, top;
    } cases[] = {{0, 0},   {-126, 0}, {-130, 0}, {-149, 0}, {103, 0},
                 {104, 0}, {0, 4},    {-20, 3},  {90, 255}, {120, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_bytes g = {malloc(f.size), f.size, f.size};
        memcpy(g.data, f.data, f.size);
        for (int m = 0; m < 3; m++)
            craft_put(g.data + at + 4 * m, (h[m] & ~KFB_COLUMN_EXPONENT_MASK) |
                                               (uint32_t)(KFB_COLUMN_EXPONENT_BIAS + cases[i].e));
        g.data[top_plane] = (unsigned char)cases[i].top;
        craft_fix_crcs(g.data, g.size);
        int finite = 1;
        float want[18];
        for (int k = 0; k < 6; k++)
            for (int m = 0; m < 3; m++) {
                const double q =
                    ldexp(v[3 * k + m], -scale[m]) + (m == 0 ? cases[i].top * 8388608.0 : 0.0);
                const double x = ldexp(q, cases[i].e);
                finite &= fabs(x) <= FLT_MAX;
                want[3 * k + m] = (float)x;
            }
        kf_anim *a = NULL;
        kf_error e;
        const kf_result r = kf_load_memory(g.data, g.size, NULL, &a, &e);
        CHECK(r == (finite ? KF_OK : KF_ERROR_VALUE), "scale 2^%d, top byte %d: %s (%s)",
              cases[i].e, cases[i].top, kf_result_name(r), r ? e.message : "");
        if (a) {
            float got[18];
            flat(&a->objects.sequences[0], a->objects.sequences[0].values, 6, got);
            for (int n = 0; n < 18; n++)
                CHECK(memcmp(&got[n], &want[n], sizeof got[n]) == 0,
                      "scale 2^%d, top byte %d: value %d is %a, want %a", cases[i].e, cases[i].top,
                      n, (double)got[n], (double)want[n]);
        }
        kf_anim_free(a);
        free(g.data);
    }
    free(f.data);
}

/* Quaternions whose x, y and z are integer columns and whose w the file
 * rebuilds are unit by construction, which the reader relies on; a w that
 * is stored some other way is checked: the sign words of the rebuilt w,
 * read as integers (a crafted header), make keys far from unit length,
 * which are refused. */
static void rebuilt_quaternions(void)
{
    static const float xyz[16] = {0.25f, 0.5f, 0.25f, 0, 0.5f,    -0.5f, 0.5f, 0,
                                  0,     0,    0,     0, -0.125f, 0.25f, 0.5f, 0};
    kf_builder *b = rotations("r", xyz, 0x2, 0);
    kf_error e;
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    const size_t at = craft_array(f.data, f.size, 0, F_VALUES);
    CHECK(at != 0, "records");
    if (at) {
        for (int m = 0; m < 3; m++)
            CHECK((craft_get(f.data + at + 4 * m) & KFB_COLUMN_EXPONENT_MASK) != 0,
                  "x, y, z: integer columns (%08x)", (unsigned)craft_get(f.data + at + 4 * m));
        const uint32_t h3 = craft_get(f.data + at + 12);
        CHECK((h3 & KFB_COLUMN_UNIT) != 0, "w rebuilt (%08x)", (unsigned)h3);
        kf_anim *a = NULL;
        CHECK(kf_load_memory(f.data, f.size, NULL, &a, NULL) == KF_OK, "loads");
        kf_anim_free(a);
        craft_put(f.data + at + 12, (h3 & ~KFB_COLUMN_UNIT) | KFB_COLUMN_EXPONENT_BIAS);
        craft_fix_crcs(f.data, f.size);
        a = NULL;
        const kf_result r = kf_load_memory(f.data, f.size, NULL, &a, &e);
        CHECK(r == KF_ERROR_VALUE && strstr(e.message, "unit quaternion"), "w of 0 and 1: %s (%s)",
              kf_result_name(r), r ? e.message : "loaded");
        kf_anim_free(a);
    }
    free(f.data);
}

/* A HERMITE key tangent times the duration must stay within the float
 * range (a stored tangent is a key tangent times its segment, which the
 * duration bounds): the largest, 3e30, with the record's duration crafted
 * to 1e8 loads, and to 2e8 is refused, naming the key. */
static void key_tangent_range(void)
{
    static const double t[4] = {0, 1, 2, 3}, v[4] = {0, 1, 0, 1};
    static const double kt[8] = {1, 1, -2, 2, 3e30, 0.5, 0, 0};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc d = {
        "h", KF_INTERPOLATION_HERMITE, KF_REPEAT_CONSTANT, 4, 1, 4, t, v, 0, 3, NULL, 0, kt};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "hermite sequence: %s", e.message);
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    const size_t body = craft_object(f.data, f.size, 0);
    CHECK(body != 0, "the sequence's record");
    for (int i = 0; body && i < 2; i++) {
        const float duration = i ? 2e8f : 1e8f;
        uint32_t bits;
        memcpy(&bits, &duration, 4);
        craft_put(f.data + body + 4 * 7, bits);
        craft_fix_crcs(f.data, f.size);
        kf_anim *a = NULL;
        const kf_result r = kf_load_memory(f.data, f.size, NULL, &a, &e);
        if (i)
            CHECK(r == KF_ERROR_VALUE && strstr(e.message, "key 2") &&
                      strstr(e.message, "times the duration"),
                  "3e30 x 2e8: %s (%s)", kf_result_name(r), r ? e.message : "loaded");
        else
            CHECK(r == KF_OK, "3e30 x 1e8: %s (%s)", kf_result_name(r), r ? e.message : "");
        kf_anim_free(a);
    }
    free(f.data);
}

/* Column m of an encoded array (`array`: its first header word; `columns`
 * columns of `rows` rows) rewritten as the words w (predicted from the
 * previous row, zigzagged: version 2.1 on) under header h. */
static void put_column(unsigned char *array, size_t columns, size_t rows, size_t m, uint32_t h,
                       const uint32_t *w)
{
    const size_t count = columns * rows;
    unsigned char *planes = array + 4 * columns;
    craft_put(array + 4 * m, h | (uint32_t)KFB_PREDICT_PREVIOUS << KFB_COLUMN_PREDICTOR_SHIFT);
    for (size_t i = 0; i < rows; i++) {
        const uint32_t r = kfb_zigzag(w[i] - (i ? w[i - 1] : 0u));
        for (unsigned p = 0; p < KFB_PLANES; p++)
            planes[p * count + m * rows + i] = (unsigned char)(r >> 8 * p);
    }
}

/* What the reader knows of arrays stored as integer columns, it need not
 * check again: SQUAD's intermediates a whose x, y and z are integers and
 * whose w the file rebuilt are unit, and HERMITE key tangents in integer
 * columns finite. Each is checked where the file stored it otherwise. The
 * a of a reduced SQUAD (on a grid, w rebuilt) written as such columns by
 * hand (which a writer chooses where they take fewer bits than the keys'
 * guess) loads; its w turned from rebuilt to integers (0 and 1, not the
 * rest) is refused as not unit, naming a. A key tangent column whose scale
 * puts its values past FLT_MAX is refused as not finite (before the range
 * check would see the infinity times the duration). A sign of a's w other
 * than 0 and 1 is refused. */
static void known_arrays_checked(void)
{
    enum { N = 12 };
    double t[N], q[4 * N], v[N], kt[2 * N];
    for (int i = 0; i < N; i++) {
        t[i] = 0.25 * i;
        const double angle = 0.3 * i + 0.2 * sin(1.7 * i),
                     axis[3] = {0.6, 0.3 * cos(2.3 * i), 0.8 + 0.2 * sin(0.9 * i)};
        const double norm = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        for (int m = 0; m < 3; m++)
            q[4 * i + m] = sin(angle / 2) * axis[m] / norm;
        q[4 * i + 3] = cos(angle / 2);
        v[i] = (i * 7 % 5) * 0.25;
        kt[2 * i] = kt[2 * i + 1] = (i % 4) * 0.5 - 0.75;
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc squad = {
        "sq", KF_INTERPOLATION_SQUAD, KF_REPEAT_LOOP, 4.0, 4, N, t, q, 0, N - 1, NULL, 0, NULL};
    const kf_sequence_desc hermite = {
        "h", KF_INTERPOLATION_HERMITE, KF_REPEAT_LOOP, 4.0, 1, N, t, v, 0, N - 1, NULL, 0, kt};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &squad, &e) == KF_OK, "squad: %s", e.message);
    CHECK(kf_builder_add_sequence(b, &hermite, &e) == KF_OK, "hermite: %s", e.message);
    double bound[KF_BOUND_COUNT] = {0}, worst[KF_BOUND_COUNT] = {0};
    bound[KF_BOUND_ORIENTATION] = 0.5;
    bound[KF_BOUND_OTHER] = 1e-3;
    CHECK(kf_builder_reduce(b, bound, worst, &e) == KF_OK, "reduce: %s", e.message);
    /* a as reduced: x, y, z on a grid of 2^e (the finest any needs), w
     * what they leave of unit length */
    float ax[4 * N];
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    kf_anim *a = NULL;
    CHECK(kf_load_memory(f.data, f.size, NULL, &a, &e) == KF_OK, "loads: %s", e.message);
    if (!a) {
        free(f.data);
        return;
    }
    flat(kf_anim_sequence(a, 0), kf_anim_sequence(a, 0)->tangent_out, N, ax);
    kf_anim_free(a);
    for (int i = 0; i < N; i++) /* (the rest, where the reduction rebuilt another) */
        CHECK(kf_unit_rest(ax + 4 * i, 4, 3, signbit(ax[4 * i + 3]) != 0, &ax[4 * i + 3]),
              "a of key %d: a rest", i);
    int e2 = 0;
    for (int k = 0; k < 3 * N; k++) {
        const float x = ax[k / 3 * 4 + k % 3];
        for (int z = -60; x != 0.0f && z < 0; z++)
            if (ldexp(x, -z) != floor(ldexp(x, -z))) {
                e2 = z - 1 < e2 ? z - 1 : e2;
                break;
            }
    }
    const size_t at = craft_array(f.data, f.size, 0, F_TANGENTS),
                 tcb = craft_array(f.data, f.size, 1, F_TANGENTS + 1);
    CHECK(at && tcb && e2 > -40, "records, a's grid 2^%d", e2);
    if (!(at && tcb && e2 > -40)) {
        free(f.data);
        return;
    }
    for (uint32_t m = 0; m < 4; m++) {
        uint32_t w[N];
        for (int i = 0; i < N; i++) {
            const float x = ax[4 * i + m];
            w[i] = m < 3 ? (uint32_t)(int32_t)ldexp(x, -e2) : signbit(x) ? 1u : 0u;
        }
        put_column(f.data + at, 4, N, m,
                   m < 3 ? (uint32_t)(e2 + KFB_COLUMN_EXPONENT_BIAS) : KFB_COLUMN_UNIT, w);
    }
    craft_fix_crcs(f.data, f.size);
    a = NULL;
    CHECK(kf_load_memory(f.data, f.size, NULL, &a, &e) == KF_OK, "a as integers loads: %s",
          a ? "" : e.message);
    if (a) {
        const kf_sequence *s = kf_anim_sequence(a, 0);
        float got[4 * N];
        flat(s, s->tangent_out, N, got);
        int first = -1;
        for (int k = 4 * N - 1; k >= 0; k--)
            first = memcmp(&got[k], &ax[k], 4) ? k : first;
        CHECK(first < 0, "a read back as reduced: component %d %.9g, reduced %.9g", first,
              first < 0 ? 0.0 : got[first], first < 0 ? 0.0 : ax[first]);
    }
    kf_anim_free(a);
    const uint32_t k0 = craft_get(f.data + tcb);
    CHECK((k0 & KFB_COLUMN_EXPONENT_MASK) != 0, "key tangents: integer columns (%08x)",
          (unsigned)k0);
    for (int k = 0; k < 2; k++) {
        test_bytes g = {malloc(f.size), f.size, f.size};
        memcpy(g.data, f.data, f.size);
        if (k == 0)
            craft_put(g.data + at + 12,
                      KFB_COLUMN_EXPONENT_BIAS | (uint32_t)KFB_PREDICT_PREVIOUS
                                                     << KFB_COLUMN_PREDICTOR_SHIFT);
        else
            craft_put(g.data + tcb,
                      (k0 & ~KFB_COLUMN_EXPONENT_MASK) | (KFB_COLUMN_EXPONENT_BIAS + 200));
        craft_fix_crcs(g.data, g.size);
        a = NULL;
        const kf_result r = kf_load_memory(g.data, g.size, NULL, &a, &e);
        CHECK(r == KF_ERROR_VALUE && strstr(e.message, k ? "tangent of key" : "intermediate a") &&
                  strstr(e.message, k ? "not a finite number" : "not a unit quaternion"),
              "%s: %s (%s)", k ? "key tangents past FLT_MAX" : "a's w of 0 and 1",
              kf_result_name(r), r ? e.message : "loaded");
        kf_anim_free(a);
        free(g.data);
    }
    /* A's signs: a word other than 0 and 1 is refused, the word of 1.0 too
     * (the row at a time decoder makes the words floats first). */
    const uint32_t bad[2] = {2u, 0x3F800000u};
    for (int k = 0; k < 2; k++) {
        test_bytes g = {malloc(f.size), f.size, f.size};
        memcpy(g.data, f.data, f.size);
        uint32_t w[N];
        for (int i = 0; i < N; i++)
            w[i] = i == 5 ? bad[k] : signbit(ax[4 * i + 3]) ? 1u : 0u;
        put_column(g.data + at, 4, N, 3, KFB_COLUMN_UNIT, w);
        craft_fix_crcs(g.data, g.size);
        a = NULL;
        const kf_result r = kf_load_memory(g.data, g.size, NULL, &a, &e);
        CHECK(r == KF_ERROR_VALUE, "a's sign of key 5 %08x: %s (%s)", (unsigned)bad[k],
              kf_result_name(r), r ? e.message : "loaded");
        kf_anim_free(a);
        free(g.data);
    }
    free(f.data);
}

/* A HERMITE lane's width (kf_block.wide: the saturating kernel) is taken
 * from the facts of its integer columns where they bound it, and from its
 * scaled tangents (which the layout then computes) where they do not. Its
 * values and key tangents written by hand as integer columns: q from 2^23
 * on at 2^104, the largest scale whose values the facts cover, are past
 * FLT_MAX / 2 and make the lane wide; the same q at 2^-10 leave it
 * narrow; values of 0.8 x 2^127 with key tangents of 2^124 over a key
 * seven seconds from the next leave the facts' bound (the key tangent
 * times the duration) past FLT_MAX / 2, and the scaled tangents make the
 * lane wide. */
static void hermite_width_from_facts(void)
{
    enum { N = 9, C = 3 };
    double t[N], v[N * C], kt[N * 2 * C];
    for (int i = 0; i < N; i++) {
        t[i] = i + 1 < N ? 0.125 * i : 7.875;
        for (int m = 0; m < C; m++)
            v[i * C + m] = i + m;
        for (int m = 0; m < 2 * C; m++)
            kt[i * 2 * C + m] = (i + m) % 3 - 1;
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc d = {
        "h", KF_INTERPOLATION_HERMITE, KF_REPEAT_CONSTANT, 8.0, C, N, t, v, 0, N - 1, NULL, 0, kt};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "hermite: %s", e.message);
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    const size_t values = craft_array(f.data, f.size, 0, F_VALUES),
                 tangents = craft_array(f.data, f.size, 0, F_TANGENTS + 1);
    CHECK(values && tangents, "records");
    static const int value_scale[3] = {-10, 104, 104}, wide[3] = {0, 1, 1};
    static const uint32_t value_q[3] = {1u << 23, 1u << 23, 6710886u /* 0.8 x 2^23 */};
    for (int k = 0; values && tangents && k < 3; k++) {
        uint32_t w[N];
        for (uint32_t m = 0; m < C; m++) {
            for (int i = 0; i < N; i++)
                w[i] = value_q[k] + 37u * (uint32_t)i + m;
            put_column(f.data + values, C, N, m,
                       (uint32_t)(KFB_COLUMN_EXPONENT_BIAS + value_scale[k]), w);
        }
        for (uint32_t m = 0; m < 2 * C; m++) {
            for (int i = 0; i < N; i++)
                w[i] = k == 2 ? 1u << 23 : (uint32_t)((i + (int)m) % 3 - 1);
            put_column(f.data + tangents, 2 * C, N, m,
                       (uint32_t)(KFB_COLUMN_EXPONENT_BIAS + (k == 2 ? 101 : 0)), w);
        }
        craft_fix_crcs(f.data, f.size);
        kf_anim *a = NULL;
        CHECK(kf_load_memory(f.data, f.size, NULL, &a, &e) == KF_OK, "case %d: %s", k,
              a ? "" : e.message);
        if (!a)
            continue;
        const uint32_t block = a->layout->block_of[0];
        CHECK(block != KF_NO_INDEX && (a->layout->blocks[block].wide != 0) == wide[k],
              "case %d: wide %u, want %d", k,
              block != KF_NO_INDEX ? a->layout->blocks[block].wide : 0u, wide[k]);
        kf_anim_free(a);
    }
    /* Key tangents of 2^127, integers (which the range check takes the
     * largest of from the facts) whose product with the duration leaves
     * the float range: refused, naming the first. */
    for (uint32_t m = 0; values && tangents && m < 2 * C; m++) {
        uint32_t w[N];
        for (int i = 0; i < N; i++)
            w[i] = m == 4 && i == 6 ? 1u << 23 : (uint32_t)((i + (int)m) % 3 - 1);
        put_column(f.data + tangents, 2 * C, N, m, (uint32_t)(KFB_COLUMN_EXPONENT_BIAS + 104), w);
    }
    craft_fix_crcs(f.data, f.size);
    kf_anim *a = NULL;
    const kf_result r = kf_load_memory(f.data, f.size, NULL, &a, &e);
    CHECK(r == KF_ERROR_VALUE && strstr(e.message, "outgoing tangent of key 6") &&
              strstr(e.message, "leaves the float range"),
          "key tangents of 2^127 over 8 s: %s (%s)", kf_result_name(r), r ? e.message : "loaded");
    kf_anim_free(a);
    free(f.data);
}

/* Whether a HERMITE lane's scaled tangents are what its quantized form
 * plays (kf_hermite_exact) is asked once for sequences of one clock whose
 * every segment's length is a float. Two sequences share key times (stored
 * once) but not their repeat: a holds its ends (no wrap), b loops over a
 * period of 2^24 + 2 s, whose wrap (2^24 - 0.75 s) is no float, and its
 * last key's tangents times it round otherwise than times its float. a's
 * lane is quantized, b's kept floats. */
static void hermite_exact_per_clock(void)
{
    enum { N = 12, C = 3 };
    double t[N], v[N * C], kt[N * 2 * C];
    for (int i = 0; i < N; i++) {
        t[i] = 0.25 * i;
        for (int m = 0; m < C; m++)
            v[i * C + m] = (i * 7 + m * 3) % 5 * 0.5;
        for (int m = 0; m < 2 * C; m++)
            kt[i * 2 * C + m] = ((i + m) % 5 - 2) / 128.0;
    }
    const double period = 16777218.0, played = period - t[N - 1] + t[0];
    int found = 0;
    for (int g = 1; g < 1024 && !found; g++)
        if ((float)(g / 128.0 * played) != (float)(g / 128.0) * (float)played) {
            /* the x of the last key's tangents and the first's */
            kt[(N - 1) * 2 * C] = kt[(N - 1) * 2 * C + C] = kt[0] = kt[C] = g / 128.0;
            found = 1;
        }
    CHECK(found, "a tangent the wrap's length rounds otherwise");
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_sequence_desc d = {"a",
                          KF_INTERPOLATION_HERMITE,
                          KF_REPEAT_CONSTANT,
                          t[N - 1] + 0.25,
                          C,
                          N,
                          t,
                          v,
                          0,
                          N - 1,
                          NULL,
                          0,
                          kt};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "a: %s", e.message);
    d.name = "b";
    d.repeat = KF_REPEAT_LOOP;
    d.duration = period;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "b: %s", e.message);
    test_bytes f = encode(b, 0, 0);
    kf_builder_destroy(b);
    kf_anim *a = NULL;
    CHECK(kf_load_memory(f.data, f.size, NULL, &a, &e) == KF_OK, "loads: %s", a ? "" : e.message);
    if (a) {
        const struct kf_sequence *s = a->objects.sequences;
        const uint32_t *block_of = a->layout->block_of;
        CHECK(s[0].times == s[1].times, "one key times array");
        CHECK(block_of[0] != KF_NO_INDEX && a->layout->blocks[block_of[0]].dequant, "a: quantized");
        CHECK(block_of[1] != KF_NO_INDEX && !a->layout->blocks[block_of[1]].dequant, "b: floats");
    }
    kf_anim_free(a);
    free(f.data);
}

/* A quaternion column that is the rest of the unit quaternion in every key,
 * to the bit, is stored as its signs (KFB_COLUMN_UNIT) and rebuilt exactly,
 * negative ones and -0 included; a column that is so in all keys but one
 * is not. A crafted sign plane over quaternions whose other components
 * exceed unit length is refused. */
static kf_builder *unit_builder(int spoil)
{
    static const float xyz[16] = {0.25f, 0.5f, 0.125f, 0, 0,    0.6f, -0.25f, 0,
                                  0.5f,  0.5f, 0.5f,   0, 0.0f, 1.0f, 0.0f,   0};
    return rotations("u", xyz, 0xA, spoil);
}

static void unit_columns(void)
{
    for (int spoil = 0; spoil < 2; spoil++) {
        kf_builder *b = unit_builder(spoil);
        test_bytes f = encode(b, 0, 0), v1 = encode(b, 0, 1);
        kf_builder_destroy(b);
        const size_t at = craft_array(f.data, f.size, 0, F_VALUES);
        CHECK(at != 0, "records");
        if (!at)
            continue;
        const uint32_t h3 = craft_get(f.data + at + 12);
        CHECK(((h3 & KFB_COLUMN_UNIT) != 0) == !spoil, "column w %s a unit column: %08x",
              spoil ? "is not" : "is", (unsigned)h3);
        kf_anim *a = NULL, *a1 = NULL;
        CHECK(kf_load_memory(f.data, f.size, NULL, &a, NULL) == KF_OK &&
                  kf_load_memory(v1.data, v1.size, NULL, &a1, NULL) == KF_OK,
              "loads");
        if (a && a1) {
            float x[16], y[16];
            flat(&a->objects.sequences[0], a->objects.sequences[0].values, 4, x);
            flat(&a1->objects.sequences[0], a1->objects.sequences[0].values, 4, y);
            CHECK(same_floats(x, y, 16), "the plain file's floats, bit for bit");
            CHECK(signbit(x[15]) && x[15] == 0.0f, "-0 rebuilt: %g", (double)x[15]);
            CHECK(x[7] < 0.0f, "negative w rebuilt: %g", (double)x[7]);
        }
        kf_anim_free(a);
        kf_anim_free(a1);
        if (!spoil) {                      /* x of key 0 so large the others exceed unit length */
            const size_t planes = at + 16; /* after the 4 headers */
            test_bytes g = {malloc(f.size), f.size, f.size};
            memcpy(g.data, f.data, f.size);
            g.data[planes + 0] = (unsigned char)kfb_zigzag((uint32_t)(int32_t)ldexp(
                1.5, -((int)(craft_get(f.data + at) & 0xFFFF) - KFB_COLUMN_EXPONENT_BIAS)));
            craft_fix_crcs(g.data, g.size);
            kf_anim *c = NULL;
            kf_result r = kf_load_memory(g.data, g.size, NULL, &c, NULL);
            CHECK(r == KF_ERROR_VALUE, "rest of an over-long vector: %s", kf_result_name(r));
            kf_anim_free(c);
            free(g.data);
        }
        free(f.data);
        free(v1.data);
    }
}

/* A SLERP quaternion's w that the file rebuilds is left to the layout as
 * its sign. Where x, y and z are integer columns whose greatest magnitudes
 * keep every key inside unit length, the decoder takes the signs as the
 * facts it gathers find them, with no pass over the keys. Either way (keys
 * inside that bound; keys outside it, each of length at most 1; a lane
 * quantized, 12 keys, or of floats, 5) the keys load as the builder made
 * them, w's sign included; a sign word other than 0 and 1 (2, and the
 * words of 1.0 and -1.0) is refused. */
static void signs_from_facts(void)
{
    /* x, y, z a key: inside (the greatest magnitudes' squares sum to 0.75),
     * outside (to 3 x 0.5625, no key's past 0.75) */
    static const float xyz[2][4][3] = {
        {{0.25f, 0.5f, 0.25f}, {0.5f, -0.5f, 0.5f}, {0, 0, 0}, {-0.125f, 0.25f, -0.5f}},
        {{0.75f, 0, 0}, {0, -0.75f, 0}, {0, 0, 0.75f}, {0.5f, 0.5f, -0.5f}}};
    enum { N = 12 };
    for (int o = 0; o < 2; o++)
        for (int n = 5; n <= N; n += N - 5) {
            double t[N], v[4 * N];
            float q[4 * N];
            for (int k = 0; k < n; k++) {
                t[k] = k;
                for (int m = 0; m < 3; m++)
                    q[4 * k + m] = xyz[o][k % 4][m];
                CHECK(kf_unit_rest(q + 4 * k, 4, 3, k % 3 == 1, &q[4 * k + 3]), "rest %d", k);
                for (int m = 0; m < 4; m++)
                    v[4 * k + m] = q[4 * k + m];
            }
            kf_builder *b;
            kf_builder_create(NULL, &b);
            const kf_sequence_desc d = {"r",
                                        KF_INTERPOLATION_SLERP,
                                        KF_REPEAT_CONSTANT,
                                        n - 1,
                                        4,
                                        (uint32_t)n,
                                        t,
                                        v,
                                        0,
                                        (uint32_t)n - 1,
                                        NULL,
                                        0,
                                        NULL};
            kf_error e;
            CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "rotations: %s", e.message);
            test_bytes f = encode(b, 6, 0), g = encode(b, 0, 0);
            kf_builder_destroy(b);
            kf_anim *a = NULL;
            for (int z = 0; z < 2; z++) { /* compressed, stored */
                const test_bytes *file = z ? &g : &f;
                CHECK(kf_load_memory(file->data, file->size, NULL, &a, &e) == KF_OK,
                      "%s, %d keys, %d: loads (%s)", o ? "outside" : "inside", n, z, e.message);
                if (a) {
                    float x[4 * N];
                    flat(&a->objects.sequences[0], a->objects.sequences[0].values, (size_t)n, x);
                    CHECK(same_floats(x, q, 4 * (size_t)n), "%s, %d keys, %d: the builder's keys",
                          o ? "outside" : "inside", n, z);
                    CHECK(signbit(x[7]) && !signbit(x[3]), "%s, %d keys, %d: w's signs",
                          o ? "outside" : "inside", n, z);
                }
                kf_anim_free(a);
                a = NULL;
            }
            /* the sign words crafted, in the stored file's planes */
            const size_t at = craft_array(g.data, g.size, 0, F_VALUES);
            const uint32_t h3 = at ? craft_get(g.data + at + 12) : 0;
            CHECK((h3 & KFB_COLUMN_UNIT) != 0, "%d keys: w rebuilt (%08x)", n, (unsigned)h3);
            static const uint32_t bad[3] = {2u, 0x3F800000u, 0xBF800000u};
            for (int k = 0; k < 3 && (h3 & KFB_COLUMN_UNIT); k++) {
                test_bytes c = {malloc(g.size), g.size, g.size};
                memcpy(c.data, g.data, g.size);
                uint32_t w[N];
                for (int i = 0; i < n; i++)
                    w[i] = i == 3 ? bad[k] : i % 3 == 1;
                put_column(c.data + at, 4, (size_t)n, 3, KFB_COLUMN_UNIT, w);
                craft_fix_crcs(c.data, c.size);
                a = NULL;
                const kf_result r = kf_load_memory(c.data, c.size, NULL, &a, &e);
                CHECK(r == KF_ERROR_VALUE, "%s, %d keys: sign word %08x: %s (%s)",
                      o ? "outside" : "inside", n, (unsigned)bad[k], kf_result_name(r),
                      r ? e.message : "loaded");
                kf_anim_free(a);
                free(c.data);
            }
            /* inside but for key 3's x and y, 0.75 each: past unit length,
             * refused (the facts no longer bound the keys) */
            for (int m = 0; m < 2 && !o && (h3 & KFB_COLUMN_UNIT); m++) {
                const uint32_t h = craft_get(g.data + at + 4 * (size_t)m);
                const int scale = (int)(h & KFB_COLUMN_EXPONENT_MASK) - KFB_COLUMN_EXPONENT_BIAS;
                uint32_t w[N];
                for (int i = 0; i < n; i++)
                    w[i] = (uint32_t)(int32_t)ldexp(i == 3 ? 0.75 : q[4 * i + m], -scale);
                put_column(g.data + at, 4, (size_t)n, (size_t)m, h & ~KFB_COLUMN_PREDICTOR_MASK, w);
            }
            if (!o && (h3 & KFB_COLUMN_UNIT)) {
                craft_fix_crcs(g.data, g.size);
                a = NULL;
                const kf_result r = kf_load_memory(g.data, g.size, NULL, &a, &e);
                CHECK(r == KF_ERROR_VALUE && strstr(e.message, "column 3"),
                      "%d keys, x and y of 0.75: %s (%s)", n, kf_result_name(r),
                      r ? e.message : "loaded");
                kf_anim_free(a);
            }
            free(f.data);
            free(g.data);
        }
}

/* Version 2.2 guesses outgoing tangents and squad intermediates from the
 * decoded keys (KFB_PREDICT_KEYS, kfb_key_guess) and stores what they
 * differ by: between unevenly spaced keys (times that are thirds, rounded
 * to float, as 30 Hz keys in milliseconds are), the writer picks the guess
 * for the columns where it is closest, and the reader rebuilds the precomputed floats bit
 * for bit (the version 1 file stores them plain). The guess is refused on
 * integer columns, on unit columns and in a file that says 2.1. */
static kf_builder *guess_builder(void)
{
    double t[9], p[27], q[36];
    for (int i = 0; i < 9; i++) {
        t[i] = (float)(100.0 * i / 3.0);
        for (int k = 0; k < 3; k++)
            p[3 * i + k] = sin(0.4 * i + k) + 0.1 * k;
        const double half = 0.15 * i, axis[3] = {0.6, 0.0, 0.8};
        for (int k = 0; k < 3; k++)
            q[4 * i + k] = sin(half) * axis[k];
        q[4 * i + 3] = cos(half);
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc sp = {
        "s", KF_INTERPOLATION_SPLINE, KF_REPEAT_LOOP, 300, 3, 9, t, p, 0, 8, NULL, 0, NULL};
    const kf_sequence_desc sq = {
        "q", KF_INTERPOLATION_SQUAD, KF_REPEAT_CONSTANT, 300, 4, 9, t, q, 0, 8, NULL, 0, NULL};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &sp, &e) == KF_OK, "spline: %s", e.message);
    CHECK(kf_builder_add_sequence(b, &sq, &e) == KF_OK, "squad: %s", e.message);
    return b;
}

static void key_guess(void)
{
    kf_builder *b = guess_builder();
    test_bytes f = encode(b, 0, 0), v1 = encode(b, 0, 1);
    kf_builder_destroy(b);
    craft_section sec[3];
    CHECK(craft_sections(f.data, f.size, sec), "sections");
    kf_anim *a = NULL, *a1 = NULL;
    CHECK(kf_load_memory(f.data, f.size, NULL, &a, NULL) == KF_OK &&
              kf_load_memory(v1.data, v1.size, NULL, &a1, NULL) == KF_OK,
          "loads");
    for (unsigned n = 0; n < 2 && a && a1; n++) {
        const size_t body = craft_object(f.data, f.size, n);
        CHECK(body != 0, "record %u", n);
        if (!body)
            continue;
        const size_t at =
            sec[KFB_SECTION_DATA].stored + 4 * (size_t)craft_get(f.data + body + 4 * F_TANGENTS);
        const unsigned columns = n == 0 ? 3 : 4;
        /* The squad's y is 0 in every key (its axis has none), and its w
         * changes too little for the guess to beat the quadratic. */
        for (unsigned m = 0; m < columns; m++) {
            const uint32_t h = craft_get(f.data + at + 4 * m);
            if (n == 0 || m == 0 || m == 2)
                CHECK(h == (uint32_t)KFB_PREDICT_KEYS << KFB_COLUMN_PREDICTOR_SHIFT,
                      "sequence %u column %u guessed from the keys: %08x", n, m, (unsigned)h);
        }
        const struct kf_sequence *x = &a->objects.sequences[n], *y = &a1->objects.sequences[n];
        CHECK(same_keys(x, x->tangent_out, y, y->tangent_out, 9) &&
                  same_keys(x, x->tangent_in, y, y->tangent_in, 9),
              "sequence %u: the precomputed floats, bit for bit", n);
        float values[36], out[36];
        flat(x, x->values, 9, values);
        flat(x, x->tangent_out, 9, out);
        /* Hand-derived: valid key 3's x guess is half its neighbours'
         * difference, and the stored tangent is not that guess. */
        if (n == 0) {
            const float g = kfb_key_guess(values, 9, 3, KFB_INTERP_SPLINE, 3, 0);
            CHECK(g == 0.5f * (values[12] - values[6]) && g != out[9], "guess %.9g, tangent %.9g",
                  (double)g, (double)out[9]);
        } else { /* the squad guess: unit, within 1e-3 of a, yet not a */
            double n2 = 0.0, off = 0.0;
            int same = 1;
            for (int m = 0; m < 4; m++) {
                const float g = kfb_key_guess(values, 9, 4, KFB_INTERP_SQUAD, 3, (size_t)m);
                n2 += (double)g * g;
                off = fmax(off, fabs(g - out[12 + m]));
                same &= g == out[12 + m];
            }
            CHECK(fabs(n2 - 1.0) < 1e-6 && off < 1e-3 && !same, "squad guess: |g|^2 %.9g, off %.3g",
                  n2, off);
        }
        const uint32_t bad[3] = {
            (uint32_t)KFB_PREDICT_KEYS << KFB_COLUMN_PREDICTOR_SHIFT | KFB_COLUMN_EXPONENT_BIAS,
            (uint32_t)KFB_PREDICT_KEYS << KFB_COLUMN_PREDICTOR_SHIFT | KFB_COLUMN_UNIT,
            0xFFFFFFFFu};
        for (int k = 0; k < 4; k++) {
            test_bytes g = {malloc(f.size), f.size, f.size};
            memcpy(g.data, f.data, f.size);
            if (k < 3)
                craft_put(g.data + at, bad[k]);
            else /* the same file, saying it is of the version before the guess */
                craft_put(g.data + KFB_IDENTIFIER_SIZE, KFB_SINCE_KEY_GUESS - 1);
            craft_fix_crcs(g.data, g.size);
            kf_anim *c = NULL;
            kf_error e;
            kf_result r = kf_load_memory(g.data, g.size, NULL, &c, &e);
            CHECK(r == KF_ERROR_VALUE && strstr(e.message, "tangents"), "case %d: %s (%s)", k,
                  kf_result_name(r), r == KF_OK ? "" : e.message);
            kf_anim_free(c);
            free(g.data);
        }
    }
    kf_anim_free(a);
    kf_anim_free(a1);
    free(f.data);
    free(v1.data);
}

/* Version 2.2 stores no scaled HERMITE tangents: the reader computes them
 * from the key tangents and times (kf_hermite_tangents, the writer's own
 * function), and they are the floats the version 1 file stores, bit for
 * bit, in LOOP, in CONSTANT (whose end tangents are 0) and with a valid
 * range that wraps. A 2.2 record that names tangents anyway is refused, and
 * so is the same file saying 2.1 (which stores them); older files play the
 * computed tangents too. */
static void hermite_tangents_computed(void)
{
    static const double t[5] = {0, 0.25, 0.5, 1.25, 2}, tw[5] = {2, 0, 0, 0.5, 1};
    static const double v[10] = {0, 1, 2, 3, -1, 4, 0.5, 0.5, 2, 1};
    static const double kt[20] = {1, -2, 3,    0.5, -1, 1, 2, 2,  0, 0,
                                  7, -7, 0.25, 0.5, 1,  1, 3, -3, 4, 4};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    const kf_sequence_desc loop = {
        "loop", KF_INTERPOLATION_HERMITE, KF_REPEAT_LOOP, 3, 2, 5, t, v, 0, 4, NULL, 0, kt};
    kf_sequence_desc once = loop, wrap = loop;
    once.name = "once";
    once.repeat = KF_REPEAT_CONSTANT;
    wrap.name = "wrap"; /* valid keys 3, 4, 0 */
    wrap.times = tw;
    wrap.valid_first = 3;
    wrap.valid_last = 0;
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &loop, &e) == KF_OK &&
              kf_builder_add_sequence(b, &once, &e) == KF_OK &&
              kf_builder_add_sequence(b, &wrap, &e) == KF_OK,
          "hermite sequences: %s", e.message);
    test_bytes f = encode(b, 0, 0), v1 = encode(b, 0, 1);
    kf_builder_destroy(b);
    kf_anim *a = NULL, *a1 = NULL;
    CHECK(kf_load_memory(f.data, f.size, NULL, &a, NULL) == KF_OK &&
              kf_load_memory(v1.data, v1.size, NULL, &a1, NULL) == KF_OK,
          "loads");
    for (unsigned n = 0; n < 3 && a && a1; n++) {
        const struct kf_sequence *x = &a->objects.sequences[n], *y = &a1->objects.sequences[n];
        CHECK(x->tangent_out && same_keys(x, x->tangent_out, y, y->tangent_out, x->valid_count) &&
                  same_keys(x, x->tangent_in, y, y->tangent_in, x->valid_count),
              "%s: the version 1 file's tangents, bit for bit", x->name);
        const size_t body = craft_object(f.data, f.size, n);
        CHECK(body && craft_get(f.data + body + 4 * F_TANGENTS) == KFB_NONE,
              "%s: no tangents stored", x->name);
    }
    /* Hand-derived: LOOP's first key, incoming over the wrap (3 - 2 + 0 = 1)
     * and outgoing over 0.25; CONSTANT's first incoming tangent is 0. */
    if (a) {
        const struct kf_sequence *x = &a->objects.sequences[0], *y = &a->objects.sequences[1];
        float xi[4], xo[4], yi[4], yo[4];
        flat(x, x->tangent_in, 1, xi);
        flat(x, x->tangent_out, 1, xo);
        flat(y, y->tangent_in, 1, yi);
        flat(y, y->tangent_out, 1, yo);
        CHECK(xi[0] == 1.0f && xi[1] == -2.0f && xo[0] == 0.75f && xo[1] == 0.125f &&
                  yi[0] == 0.0f && yo[0] == 0.75f,
              "scaled: in %g %g, out %g %g; CONSTANT in %g", (double)xi[0], (double)xi[1],
              (double)xo[0], (double)xo[1], (double)yi[0]);
    }
    kf_anim_free(a);
    kf_anim_free(a1);
    const size_t body = craft_object(f.data, f.size, 0);
    for (int k = 0; k < 2 && body; k++) {
        test_bytes g = {malloc(f.size), f.size, f.size};
        memcpy(g.data, f.data, f.size);
        if (k == 0) /* tangents named: the key values' offset will do */
            craft_put(g.data + body + 4 * F_TANGENTS, craft_get(f.data + body + 4 * F_VALUES));
        else
            craft_put(g.data + KFB_IDENTIFIER_SIZE, KFB_SINCE_KEY_GUESS - 1);
        craft_fix_crcs(g.data, g.size);
        kf_anim *c = NULL;
        kf_error err;
        kf_result r = kf_load_memory(g.data, g.size, NULL, &c, &err);
        CHECK(r == (k == 0 ? KF_ERROR_VALUE : KF_ERROR_REFERENCE) &&
                  strstr(err.message, "tangents"),
              "case %d: %s (%s)", k, kf_result_name(r), r == KF_OK ? "" : err.message);
        kf_anim_free(c);
        free(g.data);
    }
    CHECK(f.size < v1.size, "2.2 %zu bytes, 1.1 %zu", f.size, v1.size);
    /* A version 1 file whose stored tangent is off, yet finite, plays the
     * computed one, as its 2.2 twin does (fuzz_load: writing such a file
     * again changed what it played). */
    const size_t at = craft_array(v1.data, v1.size, 0, F_TANGENTS);
    CHECK(at != 0, "version 1 records");
    if (at) {
        const float off = 12345.0f;
        uint32_t bits;
        memcpy(&bits, &off, 4);
        craft_put(v1.data + at, bits);
        craft_fix_crcs(v1.data, v1.size);
        kf_anim *c = NULL;
        CHECK(kf_load_memory(v1.data, v1.size, NULL, &c, NULL) == KF_OK, "off tangent loads");
        if (c)
            CHECK(kf_key_float(&c->objects.sequences[0], c->objects.sequences[0].tangent_out, 0,
                               0) == 0.75f,
                  "plays %g, not the stored one",
                  (double)kf_key_float(&c->objects.sequences[0],
                                       c->objects.sequences[0].tangent_out, 0, 0));
        kf_anim_free(c);
    }
    free(f.data);
    free(v1.data);
}

/* A version 1 file stores the arcs; the reader checks them, then drops a
 * SLERP's (sampling computes each arc from the keys) and replaces SQUAD's
 * with the ones it computes, so the file plays as its version 2 twin does
 * even where a stored arc is off but in range (found by fuzz_load:
 * re-encoding such a file changed what it played). */
static void version1_arcs_replaced(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes v1 = encode(b, 0, 1), v2 = encode(b, 0, 0);
    kf_builder_destroy(b);
    craft_section sec[3];
    const size_t body = craft_object(v1.data, v1.size, 4);
    CHECK(body && craft_sections(v1.data, v1.size, sec), "records");
    kf_anim *a1 = NULL, *a2 = NULL;
    if (body && craft_sections(v1.data, v1.size, sec)) {
        CHECK(craft_get(v1.data + body + 4) == KFB_INTERP_SLERP, "object 4 is the SLERP sequence");
        const size_t arc =
            sec[KFB_SECTION_DATA].stored + 4 * (size_t)craft_get(v1.data + body + 40);
        float ratio;
        const uint32_t bits = craft_get(v1.data + arc + 4);
        memcpy(&ratio, &bits, 4);
        ratio *= 1.0001f;
        uint32_t patched;
        memcpy(&patched, &ratio, 4);
        craft_put(v1.data + arc + 4, patched);
        craft_fix_crcs(v1.data, v1.size);
        CHECK(kf_load_memory(v1.data, v1.size, NULL, &a1, NULL) == KF_OK, "patched arc loads");
        CHECK(kf_load_memory(v2.data, v2.size, NULL, &a2, NULL) == KF_OK, "version 2 loads");
    }
    if (a1 && a2) {
        const struct kf_sequence *s1 = &a1->objects.sequences[4], *s2 = &a2->objects.sequences[4];
        CHECK(s1->arcs == NULL && s2->arcs == NULL, "a loaded SLERP keeps no arcs");
        int differ = 0;
        for (int k = 0; k <= 64; k++) {
            const double t =
                s1->times[0] + k * (s1->times[s1->valid_count - 1] - s1->times[0]) / 64;
            float x[4], y[4];
            kf_sequence_sample(s1, t, NULL, x);
            kf_sequence_sample(s2, t, NULL, y);
            differ += memcmp(x, y, sizeof x) != 0;
        }
        CHECK(differ == 0, "the patched file plays as its version 2 twin (%d samples differ)",
              differ);
    }
    kf_anim_free(a1);
    kf_anim_free(a2);
    free(v1.data);
    free(v2.data);
}

/* A distance table the keys cannot have: a LOOP sequence whose stored
 * table is finite but whose keys lie more than FLT_MAX apart (found by
 * fuzz_load: such a file loaded, and decompiled to a source kfc refuses). */
static void distance_table_beyond_the_keys(void)
{
    static const double t[2] = {0, 1}, v[2] = {0, 4};
    kf_sequence_desc d = {
        "lin", KF_INTERPOLATION_LINEAR, KF_REPEAT_LOOP, 2, 1, 2, t, v, 0, 1, NULL, 1, NULL};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "sequence with a distance table");
    test_bytes f = encode(b, 0, 1); /* plain floats: patchable */
    kf_builder_destroy(b);
    const size_t value = craft_array(f.data, f.size, 0, F_VALUES);
    if (value) {
        const float far = -1.7014118e38f;
        uint32_t bits;
        memcpy(&bits, &far, 4);
        craft_put(f.data + value + 4, bits); /* key 1: 4 -> -1.7e38, there and back */
        craft_fix_crcs(f.data, f.size);
        kf_anim *anim = NULL;
        kf_error e;
        const kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, &e);
        CHECK(r == KF_ERROR_VALUE && strstr(e.message, "apart"), "%s: %s", kf_result_name(r),
              e.message);
        kf_anim_free(anim);
    }
    free(f.data);
}

/* Random columns of every kind a writer predicts differently (smooth
 * floats, integers at a scale, steps, exact ramps), mixed within arrays of
 * 3 to 8 components and 4 to 40 keys: version 2 loads them to the bits
 * version 1 stores, whichever way the reader rebuilds them (a row at a
 * time for whole arrays, in two groups of columns past four, a column at a
 * time otherwise). */
static void random_columns(void)
{
    uint64_t x = 0x9E3779B97F4A7C15u;
#define NEXT() (x = x * 6364136223846793005u + 1442695040888963407u, x >> 11)
    kf_builder *b;
    kf_builder_create(NULL, &b);
    enum { SEQUENCES = 80 };
    for (int n = 0; n < SEQUENCES; n++) {
        const uint32_t keys = 4 + (uint32_t)(NEXT() % 37), c = 3 + (uint32_t)(NEXT() % 6);
        double times[40], values[40 * 8];
        for (uint32_t k = 0; k < keys; k++)
            times[k] = k / 30.0;
        for (uint32_t m = 0; m < c; m++) {
            const int kind = (int)(NEXT() % 5);
            const double phase = (double)(NEXT() % 1000) / 100.0;
            for (uint32_t k = 0; k < keys; k++) {
                double v;
                switch (kind) {
                case 0: /* smooth floats */
                    v = sin(phase + k * 0.05) * 3.0;
                    break;
                case 1: /* integers at the scale 2^-10 */
                    v = ldexp(floor(sin(phase + k * 0.1) * 4000.0), -10);
                    break;
                case 2: /* steps */
                    v = (double)((k + (uint32_t)phase) / 7) * 0.25;
                    break;
                case 3: /* 0, then moving: high planes zero in the first
                         * rows only (decode's halfword path turned back) */
                    v = k < 20 ? 0.0 : sin(phase + k * 0.05) * 3.0;
                    break;
                default: /* an exact ramp */
                    v = phase + k * 0.125;
                    break;
                }
                values[k * c + m] = v;
            }
        }
        char name[16];
        snprintf(name, sizeof name, "r%d", n);
        kf_sequence_desc d;
        kf_sequence_desc_init(&d);
        d.name = name;
        d.interpolation = KF_INTERPOLATION_LINEAR;
        d.duration = keys / 30.0;
        d.components = c;
        d.key_count = keys;
        d.times = times;
        d.values = values;
        CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "sequence %d", n);
    }
#undef NEXT
    test_bytes v1 = encode(b, 9, 1), v2 = encode(b, 9, 0);
    kf_anim *a1 = NULL, *a2 = NULL;
    CHECK(kf_load_memory(v1.data, v1.size, NULL, &a1, NULL) == KF_OK &&
              kf_load_memory(v2.data, v2.size, NULL, &a2, NULL) == KF_OK,
          "random columns load");
    for (uint32_t i = 0; a1 && a2 && i < SEQUENCES; i++) {
        const struct kf_sequence *s1 = &a1->objects.sequences[i], *s2 = &a2->objects.sequences[i];
        CHECK(same_keys(s1, s1->values, s2, s2->values, s1->key_count),
              "random columns, sequence %u (%u keys, %u components): the same bits", (unsigned)i,
              (unsigned)s1->key_count, (unsigned)s1->components);
    }
    kf_anim_free(a1);
    kf_anim_free(a2);
    free(v1.data);
    free(v2.data);
    kf_builder_destroy(b);
}

int main(void)
{
    versions_agree();
    random_columns();
    overlaps();
    plain_arrays_copied();
    computed_counted_before_allocating();
    column_headers();
    rows_arrays();
    unit_columns();
    signs_from_facts();
    integer_conversion();
    rebuilt_quaternions();
    key_tangent_range();
    known_arrays_checked();
    hermite_width_from_facts();
    hermite_exact_per_clock();
    key_guess();
    hermite_tangents_computed();
    version1_arcs_replaced();
    distance_table_beyond_the_keys();
    return kf_test_report("test_read_encoded");
}
