/* SPDX-License-Identifier: MIT */
/*
 * test_player_bound.c - a player's memory is bounded by its file's bytes
 * (kf.h):
 *  - kf_player_size is what kf_player_create keeps, and creating it stays
 *    within the bound (its plan's scratch included);
 *  - many targets sharing one wide animator: the builder refuses to write
 *    it, and the same file crafted by hand is refused by the loader, both
 *    with KF_ERROR_LIMIT (a near copy with few targets loads: the patches
 *    themselves are sound);
 *  - follower tracks of a wide chaser get a capacity below the default,
 *    chosen by the bound;
 *  - a stream or file declaring far more bytes than it holds is
 *    KF_ERROR_TRUNCATED under an allocator that refuses large requests, and
 *    never asks for more than it has read (a counting allocator).
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

/* The most a player of a file of `file_bytes` may allocate (kf.h). */
static size_t bound_of(size_t file_bytes)
{
    return file_bytes * KF_PLAYER_BYTES_PER_FILE_BYTE + KF_PLAYER_FIXED_BYTES;
}

/* Loads `bytes` through a counting allocator; returns the anim's bytes. */
static kf_anim *load_counted(const test_bytes *bytes, test_counter *c, kf_result *r)
{
    kf_allocator a = test_counting_allocator(c);
    kf_load_options o = {sizeof o, &a, 0};
    kf_anim *anim = NULL;
    kf_error e;
    *r = kf_load_memory(bytes->data, bytes->size, &o, &anim, &e);
    if (*r != KF_OK)
        printf("  load: %s\n", e.message);
    return anim;
}

/* The player of `anim` keeps exactly kf_player_size bytes, inside the
 * bound of its file's bytes. */
static void check_size(const test_bytes *bytes, const char *what)
{
    test_counter lc = {0};
    kf_result r;
    kf_anim *anim = load_counted(bytes, &lc, &r);
    CHECK(anim != NULL, "%s loads", what);
    if (!anim)
        return;
    size_t predicted = 0;
    CHECK(kf_player_size(anim, &predicted) == KF_OK, "%s: size", what);
    test_counter pc = {0};
    kf_allocator a = test_counting_allocator(&pc);
    kf_player *p;
    CHECK(kf_player_create(anim, &a, &p) == KF_OK, "%s: player", what);
    CHECK(pc.live == predicted, "%s: player keeps %zu, kf_player_size says %zu", what, pc.live,
          predicted);
    CHECK(pc.peak <= bound_of(bytes->size),
          "%s: creating a player took %zu bytes, over the bound of a %zu-byte file", what, pc.peak,
          bytes->size);
    printf("  %s: file %zu bytes, anim %zu, player %zu\n", what, bytes->size, lc.peak, pc.peak);
    kf_player_destroy(p);
    kf_anim_free(anim);
}

enum { WIDE = 4000 };

/* Sequences "one" (1 component) and "wide" (WIDE); "wide" plays w.v,
 * "one" plays t0.v ... t<k-1>.v (custom targets: any component count). */
static kf_builder *wide_builder(unsigned k, int all_wide, kf_result *r)
{
    static double t2[2] = {0, 1}, v2[2] = {0, 1}, vw[2 * WIDE];
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_sequence_desc one = {
        "one", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 1, 1, 2, t2, v2, 0, 1, NULL, 0, NULL};
    kf_sequence_desc wide = {
        "wide", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 1, WIDE, 2, t2, vw, 0, 1, NULL, 0,
        NULL};
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc tw = {"wide", "c", "w.v", WIDE};
    *r = kf_builder_add_sequence(b, &one, &e);
    if (*r == KF_OK)
        *r = kf_builder_add_sequence(b, &wide, &e);
    if (*r == KF_OK)
        *r = kf_builder_add_controller(b, &c, &e);
    if (*r == KF_OK)
        *r = kf_builder_add_track(b, &tw, &e);
    for (unsigned i = 0; i < k && *r == KF_OK; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%u.v", i);
        kf_track_desc t = {all_wide ? "wide" : "one", "c", name, all_wide ? WIDE : 1};
        *r = kf_builder_add_track(b, &t, &e);
    }
    if (*r != KF_OK)
        printf("  wide builder: %s\n", e.message);
    return b;
}

/* The k-target file with every "one" track patched to play "wide" (and
 * its target widened to match): what no kfc would write for large k. */
static kf_result crafted_wide(unsigned k)
{
    kf_result r;
    kf_builder *b = wide_builder(k, 0, &r);
    test_bytes f = {0};
    kf_encode_options o = {sizeof o, 0, 0};
    if (r == KF_OK)
        r = kf_builder_encode(b, &o, test_bytes_write, &f, NULL);
    kf_builder_destroy(b);
    CHECK(r == KF_OK, "the %u-target base file encodes", k);
    if (r != KF_OK)
        return r;
    /* Objects: one, wide, c, targets w.v, t0.v..., tracks w, t0.... */
    for (unsigned i = 0; i < k; i++) {
        size_t target = craft_object(f.data, f.size, 4 + i);
        size_t track = craft_object(f.data, f.size, 3 + 1 + k + 1 + i);
        CHECK(target && track, "objects found");
        if (!target || !track)
            break;
        craft_put(f.data + target + 8, WIDE);
        craft_put(f.data + track + 4, 1);
    }
    craft_fix_crcs(f.data, f.size);
    kf_anim *anim = NULL;
    kf_error e;
    r = kf_load_memory(f.data, f.size, NULL, &anim, &e);
    printf("  crafted %u targets x %d components, %zu-byte file: %s%s%s\n", k, WIDE, f.size,
           kf_result_name(r), r ? ": " : "", r ? e.message : "");
    if (anim) {
        size_t bytes;
        CHECK(kf_player_size(anim, &bytes) == KF_OK, "what loads can be played");
    }
    kf_anim_free(anim);
    free(f.data);
    return r;
}

static void targets_sharing_a_wide_animator(void)
{
    kf_result r;
    kf_builder *b = wide_builder(400, 1, &r);
    CHECK(r == KF_OK, "tracks added");
    test_bytes f = {0};
    kf_error e;
    r = kf_builder_encode(b, NULL, test_bytes_write, &f, &e);
    CHECK(r == KF_ERROR_LIMIT, "the builder refuses 400 x %d values: %s", WIDE, kf_result_name(r));
    if (r)
        printf("  builder: %s\n", e.message);
    free(f.data);
    kf_builder_destroy(b);

    b = wide_builder(3, 1, &r);
    f = (test_bytes){0};
    CHECK(r == KF_OK && kf_builder_encode(b, NULL, test_bytes_write, &f, NULL) == KF_OK,
          "3 targets x %d encode", WIDE);
    check_size(&f, "3 wide targets");
    free(f.data);
    kf_builder_destroy(b);

    CHECK(crafted_wide(3) == KF_OK, "3 crafted wide targets load");
    CHECK(crafted_wide(400) == KF_ERROR_LIMIT, "400 crafted wide targets are refused");
}

/* Four tracks of one 2000-point CoordinateChaser: at the default capacity
 * its states would take 64 x 48 KB each; the bound, about 3 MB for its
 * file, makes it fewer. */
static void chaser_capacity_from_the_bound(void)
{
    enum { POINTS = 2000 };
    /* Coordinates as a mesh has them, which zlib cannot squeeze to
     * nothing: the bound is per file byte. */
    static double pts[3 * POINTS];
    uint32_t x = 12345;
    for (int i = 0; i < 3 * POINTS; i++) {
        x = x * 1103515245u + 12345u;
        pts[i] = (double)(x >> 8) / 65536.0;
    }
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_follower_desc d;
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_COORDINATE_CHASER);
    d.name = "mesh";
    d.initial_value = pts;
    d.initial_value_count = 3 * POINTS;
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_result r = kf_builder_add_follower(b, &d, &e);
    if (r == KF_OK)
        r = kf_builder_add_controller(b, &c, &e);
    for (int i = 0; i < 4 && r == KF_OK; i++) {
        char name[32];
        snprintf(name, sizeof name, "k%d.morph_weights", i);
        kf_track_desc t = {"mesh", "c", name, 0};
        r = kf_builder_add_track(b, &t, &e);
    }
    CHECK(r == KF_OK, "chaser tracks: %s", e.message);
    test_bytes f = {0};
    kf_anim *anim = r == KF_OK ? test_encode_load(b, &f) : NULL;
    kf_builder_destroy(b);
    CHECK(anim != NULL, "chaser file loads");
    if (!anim)
        return;
    check_size(&f, "4 chaser tracks of 2000 points");
    kf_player *p;
    test_counter pc = {0};
    kf_allocator a = test_counting_allocator(&pc);
    CHECK(kf_player_create(anim, &a, &p) == KF_OK, "player");
    uint32_t capacity = kf_follower_capacity(kf_player_follower(p, 0));
    printf("  chaser capacity %u, creating took %zu bytes of %zu\n", (unsigned)capacity, pc.peak,
           bound_of(f.size));
    CHECK(capacity >= 1 && capacity < KF_FOLLOWER_DEFAULT_CAPACITY, "capacity %u",
          (unsigned)capacity);
    /* The largest that fits: a chaser's every transition holds its
     * destination, 3 x 2000 doubles (kf_follower_state.h), so one more in
     * each of the four would pass the bound. */
    CHECK(pc.peak + 4 * 3 * POINTS * sizeof(double) > bound_of(f.size),
          "capacity %u is not the largest within the bound", (unsigned)capacity);
    for (uint32_t t = 1; t < 4; t++)
        CHECK(kf_follower_capacity(kf_player_follower(p, t)) == capacity, "same capacity");
    /* The reduced ring still ends at the last destination. */
    float dest[3 * POINTS];
    for (int k = 0; k < 3 * (int)capacity + 5; k++) {
        for (int i = 0; i < 3 * POINTS; i++)
            dest[i] = (float)(k + i % 3);
        CHECK(kf_player_follower_set_destination(p, 0, dest, 0.01 * k) == KF_OK, "event");
    }
    kf_player_update(p, 100.0);
    const float *v = kf_player_value(p, 0);
    CHECK(v && v[0] == dest[0] && v[3 * POINTS - 1] == dest[3 * POINTS - 1], "ends at the last");
    kf_player_destroy(p);
    kf_anim_free(anim);
    free(f.data);
}

/* ---- streams ------------------------------------------------------------ */

typedef struct memory_stream {
    const unsigned char *data;
    size_t size, at;
} memory_stream;

static size_t read_memory(void *user, void *buffer, size_t size)
{
    memory_stream *m = user;
    size_t n = m->size - m->at < size ? m->size - m->at : size;
    memcpy(buffer, m->data + m->at, n);
    m->at += n;
    return n;
}

static void short_stream_declaring_a_lot(void)
{
    /* A real header whose file size says 768 MiB, and nothing after it. */
    kf_builder *b;
    kf_builder_create(NULL, &b);
    test_bytes f = {0};
    CHECK(kf_builder_encode(b, NULL, test_bytes_write, &f, NULL) == KF_OK, "empty file");
    kf_builder_destroy(b);
    craft_put(f.data + KFB_HEADER_AT(file_size), 768u << 20);
    craft_put(f.data + KFB_HEADER_AT(header_crc),
              (uint32_t)crc32(0L, f.data, KFB_HEADER_AT(header_crc)));
    test_counter c = {0, 0, 0, 1u << 20, 0, 0};
    kf_allocator a = test_counting_allocator(&c);
    kf_load_options o = {sizeof o, &a, 0};
    kf_anim *anim;
    kf_error e;
    memory_stream m = {f.data, KFB_HEADER_SIZE, 0};
    kf_result r = kf_load_stream(read_memory, &m, &o, &anim, &e);
    CHECK(r == KF_ERROR_TRUNCATED, "stream: %s (%s)", kf_result_name(r), e.message);
    CHECK(c.largest <= 64 * 1024 && c.live == 0, "stream: largest request %zu, %zu left", c.largest,
          c.live);
    printf("  %u-byte stream declaring 768 MiB: %s, largest request %zu bytes\n",
           (unsigned)KFB_HEADER_SIZE, kf_result_name(r), c.largest);

    /* The same bytes as a file. */
    char path[L_tmpnam + 16];
    snprintf(path, sizeof path, "test_player_bound.%p.kfb", (void *)&c);
    FILE *out = fopen(path, "wb");
    CHECK(out != NULL, "temporary file");
    if (out) {
        fwrite(f.data, 1, KFB_HEADER_SIZE, out);
        fclose(out);
        c = (test_counter){0, 0, 0, 1u << 20, 0, 0};
        r = kf_load_file(path, &o, &anim, &e);
        CHECK(r == KF_ERROR_TRUNCATED, "file: %s (%s)", kf_result_name(r), e.message);
        CHECK(c.largest <= 64 * 1024 && c.live == 0, "file: largest request %zu", c.largest);
        remove(path);
    }

    /* A large, genuine file still loads through the growing buffer, with
     * a bounded number of allocations. */
    kf_builder *big = wide_builder(3, 1, &r);
    test_bytes g = {0};
    kf_encode_options plain = {sizeof plain, 0, 0};
    CHECK(kf_builder_encode(big, &plain, test_bytes_write, &g, NULL) == KF_OK, "big file");
    kf_builder_destroy(big);
    c = (test_counter){0};
    m = (memory_stream){g.data, g.size, 0};
    r = kf_load_stream(read_memory, &m, &o, &anim, &e);
    CHECK(r == KF_OK, "big stream: %s", kf_result_name(r));
    kf_anim_free(anim);
    CHECK(c.live == 0, "nothing left");
    printf("  %zu-byte stream loads in %zu allocations\n", g.size, c.allocs);
    free(g.data);
    free(f.data);
}

int main(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes f = {0};
    kf_anim *anim = test_encode_load(b, &f);
    kf_builder_destroy(b);
    if (anim)
        check_size(&f, "rich");
    kf_anim_free(anim);
    free(f.data);
    targets_sharing_a_wide_animator();
    chaser_capacity_from_the_bound();
    short_stream_declaring_a_lot();
    return kf_test_report("test_player_bound");
}
