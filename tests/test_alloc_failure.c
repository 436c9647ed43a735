/* SPDX-License-Identifier: MIT */
/*
 * test_alloc_failure.c - make the n-th allocation fail, for every n, in
 * loading (memory and stream, stored and zlib sections), building, encoding
 * and creating a player. Each failure must come back as
 * KF_ERROR_OUT_OF_MEMORY with nothing leaked; with no failure the call must
 * succeed. The allocator also checks that every free names the size that
 * was allocated. An allocator missing one of its functions is refused by
 * every function that takes one.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "test_util.h"

typedef struct counting {
    long calls, fail_at; /* fail the call numbered fail_at (0-based); -1: never */
    long live;
    size_t live_bytes;
} counting;

typedef struct block_header {
    size_t size;
    max_align_t align;
} block_header;

static void *count_alloc(void *user, size_t size)
{
    counting *c = user;
    if (c->calls++ == c->fail_at)
        return NULL;
    block_header *h = malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->live++;
    c->live_bytes += size;
    return h + 1;
}

static void count_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    block_header *h = (block_header *)ptr - 1;
    CHECK(h->size == size, "free of a %zu-byte block says %zu", h->size, size);
    c->live--;
    c->live_bytes -= h->size;
    free(h);
}

typedef struct reader {
    const unsigned char *data;
    size_t size, pos;
} reader;

static size_t read_chunk(void *user, void *buffer, size_t size)
{
    reader *r = user;
    size_t n = r->size - r->pos < size ? r->size - r->pos : size;
    if (n > 7)
        n = 7; /* short reads on purpose */
    memcpy(buffer, r->data + r->pos, n);
    r->pos += n;
    return n;
}

/* Runs `step` with failure at 0, 1, 2, ... until it succeeds. */
#define SWEEP(what, result_expr, cleanup)                                                          \
    do {                                                                                           \
        for (long n = 0;; n++) {                                                                   \
            counting c = {0, n, 0, 0};                                                             \
            kf_allocator a = {count_alloc, count_free, &c};                                        \
            (void)a;                                                                               \
            kf_result r = (result_expr);                                                           \
            if (r == KF_OK) {                                                                      \
                cleanup;                                                                           \
                CHECK(c.live == 0, "%s: %ld blocks leaked after success", what, c.live);           \
                CHECK(n > 0, "%s: allocated nothing", what);                                       \
                printf("%s: %ld allocation points\n", what, n);                                    \
                break;                                                                             \
            }                                                                                      \
            CHECK(r == KF_ERROR_OUT_OF_MEMORY, "%s: failing allocation %ld gave %s", what, n,      \
                  kf_result_name(r));                                                              \
            CHECK(c.live == 0, "%s: failing allocation %ld leaked %ld blocks", what, n, c.live);   \
            if (n > 10000 || r != KF_ERROR_OUT_OF_MEMORY)                                          \
                break;                                                                             \
        }                                                                                          \
    } while (0)

static kf_result load_memory(const test_bytes *bytes, const kf_allocator *a, kf_anim **anim)
{
    kf_load_options o = {sizeof o, a, 0};
    return kf_load_memory(bytes->data, bytes->size, &o, anim, NULL);
}

static kf_result load_stream(const test_bytes *bytes, const kf_allocator *a, kf_anim **anim)
{
    kf_load_options o = {sizeof o, a, 0};
    reader r = {bytes->data, bytes->size, 0};
    return kf_load_stream(read_chunk, &r, &o, anim, NULL);
}

/* The rich animation, built entirely through `a`. */
static kf_result build(const kf_allocator *a, kf_builder **out)
{
    static const double t[3] = {0, 10, 20}, v[6] = {0, 1, 2, 3, 4, 5};
    kf_builder *b;
    kf_result r = kf_builder_create(a, &b);
    if (r != KF_OK)
        return r;
    kf_error e;
    const char *names[4] = {"s0", "s1", "s2", "s3"};
    for (int i = 0; i < 4 && r == KF_OK; i++) {
        kf_sequence_desc d = {names[i],
                              i == 1 ? KF_INTERPOLATION_SPLINE : KF_INTERPOLATION_LINEAR,
                              KF_REPEAT_LOOP,
                              30,
                              2,
                              3,
                              t,
                              v,
                              0,
                              2,
                              NULL,
                              0,
                              NULL};
        r = kf_builder_add_sequence(b, &d, &e);
    }
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    if (r == KF_OK)
        r = kf_builder_add_controller(b, &c, &e);
    const char *targets[4] = {"o.u", "o.v", "p.u", "o.u"};
    for (int i = 0; i < 4 && r == KF_OK; i++) {
        kf_track_desc d = {names[i], "c", targets[i], 2};
        r = kf_builder_add_track(b, &d, &e);
    }
    /* An X3D interpolator and its track (TimeSensor, EaseInEaseOut). */
    static const double k[2] = {0, 1}, kv[4] = {0, 1, 2, 3}, eio[4] = {0, 0.5, 0.5, 0};
    kf_interpolator_desc p;
    kf_interpolator_desc_init(&p);
    p.name = "x";
    p.node = KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D;
    p.key_count = p.value_count = 2;
    p.key = k;
    p.key_value = kv;
    if (r == KF_OK)
        r = kf_builder_add_interpolator(b, &p, &e);
    p.name = "e";
    p.node = KF_NODE_EASE_IN_EASE_OUT;
    p.value_count = 0;
    p.ease_count = 2;
    p.ease_in_ease_out = eio;
    if (r == KF_OK)
        r = kf_builder_add_interpolator(b, &p, &e);
    kf_track_desc td = {"x", "c", "q.u", 2};
    kf_time_sensor_desc ts = {5, 1, "e"};
    if (r == KF_OK)
        r = kf_builder_add_interpolator_track(b, &td, &ts, &e);
    if (r == KF_OK) {
        /* test_add_followers plays through controllers "a" and "b". */
        c.name = "a";
        r = kf_builder_add_controller(b, &c, &e);
        c.name = "b";
        if (r == KF_OK)
            r = kf_builder_add_controller(b, &c, &e);
        if (r == KF_OK)
            r = test_add_followers(b, &e);
    }
    if (r != KF_OK) {
        kf_builder_destroy(b);
        return r;
    }
    *out = b;
    return KF_OK;
}

static kf_result build_and_encode(const kf_allocator *a, int level)
{
    kf_builder *b;
    kf_result r = build(a, &b);
    if (r != KF_OK)
        return r;
    test_bytes bytes = {0};
    kf_encode_options o = {sizeof o, level, 0};
    r = kf_builder_encode(b, &o, test_bytes_write, &bytes, NULL);
    free(bytes.data);
    kf_builder_destroy(b);
    return r;
}

/* Half an allocator (a forgotten field) is refused with the missing
 * function named, before anything is allocated through it or malloc. */
static void half_allocators(const test_bytes *bytes)
{
    counting c = {0, -1, 0, 0};
    const kf_allocator halves[3] = {
        {count_alloc, NULL, &c}, {NULL, count_free, &c}, {NULL, NULL, &c}};
    static const char *const missing[3] = {"the allocator has alloc but no free",
                                           "the allocator has free but no alloc",
                                           "the allocator has neither alloc nor free"};
    kf_anim *good = NULL;
    CHECK(kf_load_memory(bytes->data, bytes->size, NULL, &good, NULL) == KF_OK, "load");
    for (int k = 0; k < 3; k++) {
        kf_load_options o = {sizeof o, &halves[k], 0};
        for (int call = 0; call < 3; call++) {
            kf_anim *anim = good; /* must become NULL */
            kf_error e;
            reader rd = {bytes->data, bytes->size, 0};
            const kf_result r = call == 0 ? kf_load_memory(bytes->data, bytes->size, &o, &anim, &e)
                                : call == 1 ? kf_load_stream(read_chunk, &rd, &o, &anim, &e)
                                            : kf_load_file("/nonexistent/x.kfb", &o, &anim, &e);
            CHECK(r == KF_ERROR_ARGUMENT && !anim && e.result == r &&
                      strstr(e.message, missing[k]) &&
                      strstr(e.message, "(give both, or pass NULL for malloc and free)"),
                  "half allocator %d, load %d: %s (%s)", k, call, kf_result_name(r), e.message);
        }
        kf_player *p = (kf_player *)good;
        CHECK(kf_player_create(good, &halves[k], &p) == KF_ERROR_ARGUMENT && !p,
              "half allocator %d: player", k);
        kf_follower_state *s = (kf_follower_state *)good;
        CHECK(kf_follower_state_create(kf_anim_follower(good, 0), 0, &halves[k], &s) ==
                      KF_ERROR_ARGUMENT &&
                  !s,
              "half allocator %d: follower state", k);
        kf_builder *b = (kf_builder *)good;
        CHECK(kf_builder_create(&halves[k], &b) == KF_ERROR_ARGUMENT && !b,
              "half allocator %d: builder", k);
    }
    CHECK(c.calls == 0 && c.live == 0, "half allocators were called %ld times", c.calls);
    kf_anim_free(good);
}

int main(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes stored = {0}, zipped = {0};
    kf_encode_options o0 = {sizeof o0, 0, 0}, o9 = {sizeof o9, 9, 0};
    kf_builder_encode(b, &o0, test_bytes_write, &stored, NULL);
    kf_builder_encode(b, &o9, test_bytes_write, &zipped, NULL);
    kf_builder_destroy(b);

    kf_anim *anim = NULL;
    SWEEP("load (stored sections)", load_memory(&stored, &a, &anim), kf_anim_free(anim));
    SWEEP("load (zlib sections)", load_memory(&zipped, &a, &anim), kf_anim_free(anim));
    SWEEP("load_stream (zlib sections)", load_stream(&zipped, &a, &anim), kf_anim_free(anim));
    SWEEP("build + encode (stored)", build_and_encode(&a, 0), (void)0);
    SWEEP("build + encode (zlib)", build_and_encode(&a, 9), (void)0);

    kf_load_memory(zipped.data, zipped.size, NULL, &anim, NULL);
    kf_player *p = NULL;
    SWEEP("player", kf_player_create(anim, &a, &p), kf_player_destroy(p));
    kf_follower_state *s = NULL;
    SWEEP("follower state", kf_follower_state_create(kf_anim_follower(anim, 0), 0, &a, &s),
          kf_follower_state_destroy(s));
    kf_anim_free(anim);

    half_allocators(&zipped);

    free(stored.data);
    free(zipped.data);
    return kf_test_report("test_alloc_failure");
}
