/* SPDX-License-Identifier: MIT */
/*
 * test_load_bound.c - what loading and playing a file may cost, per file
 * byte (kf.h: KF_LOAD_BYTES_PER_FILE_BYTE, KF_PLAYER_BYTES_PER_FILE_BYTE),
 * on hostile files the test builds itself:
 *  - a lone wide STEP sequence of zeros, written uncompressed (it loads),
 *    then deflated by hand to a few kilobytes (format 2.3's pieces, as a
 *    writer that ignored the bound would): refused with KF_ERROR_LIMIT,
 *    allocating no more than the bound on the way; the builder refuses to
 *    write it compressed in the first place;
 *  - many sequences of one component, each on a clock of its own (each a
 *    lone lane of a block: the layout's padding), treated the same way;
 *  - every load here, refused or not, stays within the bound (a counting
 *    allocator);
 *  - a sequence wider than a block is played on its own: its player holds
 *    no four-lane scratch for it, and plays the right values.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

static size_t load_bound(size_t file_bytes)
{
    return file_bytes * KF_LOAD_BYTES_PER_FILE_BYTE + KF_LOAD_FIXED_BYTES;
}

/* Loads `f` through a counting allocator: the result, and the most it
 * held at once, which must stay within the bound whatever the result. */
static kf_result load_counted(const test_bytes *f, const char *what, size_t *peak)
{
    test_counter c = {0};
    kf_allocator a = test_counting_allocator(&c);
    kf_load_options o = {sizeof o, &a, 0};
    kf_anim *anim = NULL;
    kf_error e;
    const kf_result r = kf_load_memory(f->data, f->size, &o, &anim, &e);
    printf("  %s: %zu-byte file: %s, at most %zu bytes held (%.0f per file byte)%s%s\n", what,
           f->size, kf_result_name(r), c.peak, (double)c.peak / (double)f->size, r ? ": " : "",
           r ? e.message : "");
    CHECK(c.peak <= load_bound(f->size), "%s: %zu bytes held, over the bound %zu", what, c.peak,
          load_bound(f->size));
    kf_anim_free(anim);
    CHECK(c.live == 0, "%s: %zu bytes left", what, c.live);
    if (peak)
        *peak = c.peak;
    return r;
}

/* ---- deflating a file by hand --------------------------------------------- */

static void put_word(test_bytes *b, uint32_t w)
{
    unsigned char bytes[4];
    craft_put(bytes, w);
    test_bytes_write(b, bytes, 4);
}

/* `f`, an uncompressed file, with every section deflated at level 9 (DATA
 * as the pieces of format 2.3: one piece of all its words, no zero run
 * left out, which keeps within zlib's ratio), checksums and size fixed:
 * the bytes a writer would make if it did not check the bounds. */
static test_bytes deflated(const test_bytes *f)
{
    craft_section s[3];
    test_bytes out = {0};
    if (!craft_sections(f->data, f->size, s))
        return out;
    test_bytes_write(&out, f->data, KFB_HEADER_SIZE);
    for (int i = 0; i < 3; i++) {
        const unsigned char *raw = f->data + s[i].stored;
        const uint32_t raw_size = s[i].stored_size;
        test_bytes stream = {0};
        if (i == KFB_SECTION_DATA) {
            put_word(&stream, raw_size / 4);
            put_word(&stream, 0);
        }
        test_bytes_write(&stream, raw, raw_size);
        uLongf packed_size = compressBound((uLong)stream.size);
        unsigned char *packed = malloc(packed_size);
        const int ok = compress2(packed, &packed_size, stream.data, (uLong)stream.size, 9) == Z_OK;
        CHECK(ok, "deflate");
        const size_t header = out.size;
        put_word(&out, craft_get(f->data + s[i].header));
        put_word(&out, KFB_COMPRESSION_ZLIB);
        put_word(&out, (uint32_t)packed_size);
        put_word(&out, raw_size);
        test_bytes_write(&out, packed, packed_size);
        put_word(&out, (uint32_t)crc32(0L, out.data + header, (uInt)(out.size - header)));
        free(packed);
        free(stream.data);
    }
    craft_put(out.data + KFB_HEADER_AT(file_size), (uint32_t)out.size);
    craft_put(out.data + KFB_HEADER_AT(header_crc),
              (uint32_t)crc32(0L, out.data, KFB_HEADER_AT(header_crc)));
    return out;
}

static test_bytes encode(kf_builder *b, int level, kf_result *r)
{
    test_bytes f = {0};
    kf_encode_options o = {sizeof o, level, 0};
    kf_error e;
    *r = kf_builder_encode(b, &o, test_bytes_write, &f, &e);
    if (*r != KF_OK)
        printf("  encode at level %d: %s\n", level, e.message);
    return f;
}

/* ---- hostile files ------------------------------------------------------ */

/* A STEP sequence of `components` zeros and two keys, on one target. */
static kf_builder *wide_step(uint32_t components)
{
    static const double times[2] = {0, 1};
    double *values = calloc(2 * (size_t)components, sizeof *values);
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_sequence_desc d = {"wide",
                          KF_INTERPOLATION_STEP,
                          KF_REPEAT_CONSTANT,
                          2,
                          components,
                          2,
                          times,
                          values,
                          0,
                          1,
                          NULL,
                          0,
                          NULL};
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc t = {"wide", "c", "mesh.morph_weights", 0};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK &&
              kf_builder_add_controller(b, &c, &e) == 0 && kf_builder_add_track(b, &t, &e) == KF_OK,
          "wide STEP: %s", e.message);
    free(values);
    return b;
}

/* `count` LINEAR sequences of one component (zeros), sharing key times but
 * each with its own duration: a clock each, so a block each, three of
 * whose four lanes are padding. */
static kf_builder *lone_lanes(uint32_t count, uint32_t keys)
{
    double *times = malloc(keys * sizeof *times), *values = calloc(keys, sizeof *values);
    /* Key times in steps of 100 keys: they deflate about as well as the
     * values' zeros. */
    for (uint32_t k = 0; k < keys; k++)
        times[k] = k / 100;
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_error e;
    kf_result r = kf_builder_add_controller(b, &c, &e);
    for (uint32_t i = 0; i < count && r == KF_OK; i++) {
        char name[32], target[48];
        snprintf(name, sizeof name, "s%u", (unsigned)i);
        snprintf(target, sizeof target, "o%u.alpha", (unsigned)i);
        kf_sequence_desc d = {name,
                              KF_INTERPOLATION_LINEAR,
                              KF_REPEAT_CONSTANT,
                              keys + i,
                              1,
                              keys,
                              times,
                              values,
                              0,
                              keys - 1,
                              NULL,
                              0,
                              NULL};
        kf_track_desc t = {name, "c", target, 0};
        r = kf_builder_add_sequence(b, &d, &e);
        if (r == KF_OK)
            r = kf_builder_add_track(b, &t, &e);
    }
    CHECK(r == KF_OK, "lone lanes: %s", e.message);
    free(times);
    free(values);
    return b;
}

/* Written uncompressed, the file loads within the bound of its own size;
 * deflated by hand it is refused, within the bound of the small size; the
 * builder refuses to write it compressed. */
static void refused_when_deflated(kf_builder *b, const char *what)
{
    kf_result r;
    test_bytes plain = encode(b, 0, &r);
    CHECK(r == KF_OK, "%s: the uncompressed file is written", what);
    CHECK(load_counted(&plain, what, NULL) == KF_OK, "%s: the uncompressed file loads", what);
    test_bytes small = deflated(&plain);
    CHECK(small.size > 0 && small.size * 20 < plain.size, "%s: deflated to %zu bytes", what,
          small.size);
    CHECK(load_counted(&small, what, NULL) == KF_ERROR_LIMIT, "%s: deflated, refused", what);
    test_bytes packed = encode(b, 9, &r);
    CHECK(r == KF_ERROR_LIMIT, "%s: the builder refuses it at level 9: %s", what,
          kf_result_name(r));
    free(plain.data);
    free(small.data);
    free(packed.data);
}

static void wide_step_sequence(void)
{
    /* 2 keys x 2 M zeros: 16 MB of values, 32 MB of encoded array. */
    kf_builder *b = wide_step(2000000);
    refused_when_deflated(b, "lone STEP of 2,000,000 components");
    kf_builder_destroy(b);
    /* Smaller, the same shape loads compressed, within the bound. */
    b = wide_step(20000);
    kf_result r;
    test_bytes f = encode(b, 9, &r);
    CHECK(r == KF_OK, "20,000 components encode");
    CHECK(load_counted(&f, "lone STEP of 20,000 components", NULL) == KF_OK, "and load");
    free(f.data);
    kf_builder_destroy(b);
}

static void padded_lanes(void)
{
    kf_builder *b = lone_lanes(64, 30000);
    refused_when_deflated(b, "64 lone lanes of 30,000 keys");
    kf_builder_destroy(b);
    b = lone_lanes(64, 300);
    kf_result r;
    test_bytes f = encode(b, 9, &r);
    CHECK(r == KF_OK && load_counted(&f, "64 lone lanes of 300 keys", NULL) == KF_OK,
          "64 lone lanes of 300 keys load");
    free(f.data);
    kf_builder_destroy(b);
}

/* A file of every kind of object loads far below the bound. */
static void ordinary_file(void)
{
    kf_builder *b = test_rich_builder();
    kf_result r;
    test_bytes f = encode(b, 9, &r);
    size_t peak = 0;
    CHECK(r == KF_OK && load_counted(&f, "rich", &peak) == KF_OK, "rich file loads");
    free(f.data);
    kf_builder_destroy(b);
}

/* A 1000-component LINEAR sequence on one target: no block holds it, so
 * its player keeps no scratch for three more lanes of it, and plays it. */
static void wide_sequence_played_alone(void)
{
    enum { WIDE = 1000 };
    static const double times[2] = {0, 1};
    static double values[2 * WIDE];
    for (int m = 0; m < WIDE; m++) {
        values[m] = m;
        values[WIDE + m] = 2.0 * m + 1.0;
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_sequence_desc d = {"wide",
                          KF_INTERPOLATION_LINEAR,
                          KF_REPEAT_CONSTANT,
                          1,
                          WIDE,
                          2,
                          times,
                          values,
                          0,
                          1,
                          NULL,
                          0,
                          NULL};
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc t = {"wide", "c", "mesh.morph_weights", 0};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK &&
              kf_builder_add_controller(b, &c, &e) == 0 && kf_builder_add_track(b, &t, &e) == KF_OK,
          "wide LINEAR: %s", e.message);
    test_bytes f = {0};
    kf_anim *anim = test_encode_load(b, &f);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "wide LINEAR loads");
    if (!anim)
        return;
    size_t bytes = 0;
    CHECK(kf_player_size(anim, &bytes) == KF_OK, "player size");
    /* Its value, and the sample room of one track: no 4 x WIDE lanes. */
    printf("  a %d-component track's player: %zu bytes\n", WIDE, bytes);
    CHECK(bytes < 3 * WIDE * sizeof(float), "player of %zu bytes holds four lanes of %d", bytes,
          WIDE);
    kf_player *p;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
    kf_player_update(p, 0.25);
    const float *v = kf_player_value(p, 0);
    int right = v != NULL;
    for (int m = 0; right && m < WIDE; m++)
        right = v[m] == (float)m + 0.25f * ((float)(2 * m + 1) - (float)m);
    CHECK(right, "the wide track plays its values");
    kf_player_destroy(p);
    kf_anim_free(anim);
    free(f.data);
}

int main(void)
{
    ordinary_file();
    wide_step_sequence();
    padded_lanes();
    wide_sequence_played_alone();
    return kf_test_report("test_load_bound");
}
