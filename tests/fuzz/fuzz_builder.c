/* SPDX-License-Identifier: MIT */
/*
 * fuzz_builder.c - libFuzzer target for kf_builder: the bytes describe a
 * series of sequences, interpolators, followers, controllers and tracks
 * (names from a small pool, so duplicates and references happen), any of
 * which the builder may refuse. Oracle: whatever it accepts encodes (or is
 * refused as a whole with KF_ERROR_LIMIT, the player bound), and what
 * encodes loads with the same counts, whether or not it was compressed
 * ahead; and encoding is deterministic. Then, if the input asks, the
 * error-bounded compile (kf_builder_reduce) with bounds from the input:
 * the errors it reports stay within them, and what it leaves encodes and
 * loads too.
 */
#include <math.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "test_util.h"

static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static const char *const targets[] = {"x.translation",   "x.orientation", "y.alpha", "y.v",
                                      "z.morph_weights", "z.color",       "w.scale", "w.v"};
#define N(a) (uint32_t)(sizeof a / sizeof a[0])

enum { MAX_KEYS = 8, MAX_COMPONENTS = 6 };

static void numbers(fuzz_input *in, double *out, uint32_t n, double scale)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = fuzz_number(in, scale);
}

static void add_one(kf_builder *b, fuzz_input *in)
{
    double t[MAX_KEYS], v[MAX_KEYS * MAX_COMPONENTS * 3], tcb[MAX_KEYS * 3], e[MAX_KEYS * 2];
    kf_error err;
    const char *name = names[fuzz_byte(in) % N(names)];
    switch (fuzz_byte(in) % 6) {
    case 0:
    case 1: {
        kf_sequence_desc d;
        kf_sequence_desc_init(&d);
        d.name = name;
        d.interpolation = (kf_interpolation)(fuzz_byte(in) % 6);
        d.repeat = (kf_repeat)(fuzz_byte(in) % 3);
        d.components = 1 + fuzz_byte(in) % MAX_COMPONENTS;
        if (fuzz_byte(in) & 1)
            d.components = 4;
        d.key_count = 1 + fuzz_byte(in) % MAX_KEYS;
        double at = 0;
        for (uint32_t k = 0; k < d.key_count; k++)
            t[k] = at += fabs(fuzz_bounded(in, 100)) * (fuzz_byte(in) & 3 ? 1 : 0);
        numbers(in, v, d.key_count * d.components, 1e3);
        d.times = t;
        d.values = v;
        d.duration = at + fabs(fuzz_number(in, 100));
        d.valid_first = fuzz_byte(in) % d.key_count;
        d.valid_last = fuzz_byte(in) % d.key_count;
        if (fuzz_byte(in) & 1) {
            for (uint32_t k = 0; k < 3 * d.key_count; k++)
                tcb[k] = fuzz_bounded(in, 1.2);
            d.tcb = tcb;
        }
        d.arc_length = fuzz_byte(in) & 1;
        kf_builder_add_sequence(b, &d, &err);
        break;
    }
    case 2: {
        kf_interpolator_desc d;
        kf_interpolator_desc_init(&d);
        d.name = name;
        d.node = (kf_node)(fuzz_byte(in) % 16);
        d.key_count = 1 + fuzz_byte(in) % MAX_KEYS;
        double at = 0;
        for (uint32_t k = 0; k < d.key_count; k++)
            t[k] = at += fabs(fuzz_bounded(in, 0.5));
        d.key = t;
        d.value_count = d.key_count * (1 + fuzz_byte(in) % 2);
        numbers(in, v, d.value_count * 4 > N(v) ? N(v) : d.value_count * 4, 1.0);
        if (d.value_count * 4 > N(v))
            d.value_count = N(v) / 4;
        d.key_value = v;
        if (fuzz_byte(in) & 1) {
            d.velocity_count = fuzz_byte(in) & 1 ? 2 : d.key_count;
            d.key_velocity = v;
        }
        if (fuzz_byte(in) & 1) {
            numbers(in, e, 2 * d.key_count, 1.0);
            d.ease_count = d.key_count;
            d.ease_in_ease_out = e;
        }
        d.closed = fuzz_byte(in) & 1;
        d.normalize_velocity = fuzz_byte(in) & 1;
        kf_builder_add_interpolator(b, &d, &err);
        break;
    }
    case 3: {
        kf_follower_desc d;
        kf_follower_desc_init(&d, (kf_follower_node)(fuzz_byte(in) % 16));
        d.name = name;
        d.initial_value_count = fuzz_byte(in) % 10;
        d.initial_destination_count = fuzz_byte(in) % 10;
        numbers(in, v, 20, 10.0);
        d.initial_value = v;
        d.initial_destination = v + 10;
        d.duration = fuzz_number(in, 5);
        d.tau = fuzz_number(in, 5);
        d.order = (int32_t)(fuzz_byte(in) % 8) - 1;
        d.tolerance = fuzz_number(in, 1);
        kf_builder_add_follower(b, &d, &err);
        break;
    }
    case 4: {
        kf_controller_desc d;
        kf_controller_desc_init(&d);
        d.name = name;
        d.speed = fuzz_number(in, 10);
        d.weight = fuzz_number(in, 10);
        kf_builder_add_controller(b, &d, &err);
        break;
    }
    default: {
        kf_track_desc d = {name, fuzz_byte(in) & 7 ? names[fuzz_byte(in) % N(names)] : NULL,
                           targets[fuzz_byte(in) % N(targets)], fuzz_byte(in) % 8};
        if (fuzz_byte(in) & 1) {
            kf_time_sensor_desc s = {fuzz_number(in, 10), fuzz_byte(in) & 1,
                                     fuzz_byte(in) & 1 ? names[fuzz_byte(in) % N(names)] : NULL};
            kf_builder_add_interpolator_track(b, &d, fuzz_byte(in) & 1 ? &s : NULL, &err);
        } else {
            kf_builder_add_track(b, &d, &err);
        }
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0, 0};
    const int ahead = fuzz_byte(&in) % 10;
    const unsigned reduce = fuzz_byte(&in);
    double bounds[KF_BOUND_COUNT];
    for (int k = 0; k < KF_BOUND_COUNT; k++) /* 0 (lossless), or 2^-39 .. 1 */
        bounds[k] = reduce & (2u << k) ? ldexp(1.0, -(int)(fuzz_byte(&in) % 40)) : 0.0;
    kf_builder *b;
    if (kf_builder_create(NULL, &b) != KF_OK)
        abort();
    if (ahead)
        kf_builder_compress_ahead(b, ahead);
    for (int i = 0; i < 40 && !fuzz_done(&in); i++)
        add_one(b, &in);
    test_bytes f = {0}, g = {0};
    kf_encode_options o = {sizeof o, ahead, 0};
    kf_result r = kf_builder_encode(b, &o, test_bytes_write, &f, NULL);
    if (r != KF_OK && r != KF_ERROR_LIMIT)
        abort();
    if (r == KF_OK) {
        kf_anim *anim;
        if (kf_load_memory(f.data, f.size, NULL, &anim, NULL) != KF_OK)
            abort();
        for (int k = 0; k < KF_KIND_COUNT; k++)
            if (kf_anim_count(anim, (kf_kind)k) > 40)
                abort();
        kf_anim_free(anim);
        if (kf_builder_encode(b, &o, test_bytes_write, &g, NULL) != KF_OK || g.size != f.size ||
            memcmp(f.data, g.data, f.size))
            abort();
    }
    if (r == KF_OK && (reduce & 1)) {
        double worst[KF_BOUND_COUNT];
        if (kf_builder_reduce(b, bounds, worst, NULL) != KF_OK)
            abort();
        for (int k = 0; k < KF_BOUND_COUNT; k++)
            if (!(worst[k] <= bounds[k]) && !(bounds[k] == 0.0 && worst[k] == 0.0))
                abort();
        test_bytes h = {0};
        kf_anim *anim;
        if (kf_builder_encode(b, &o, test_bytes_write, &h, NULL) != KF_OK ||
            kf_load_memory(h.data, h.size, NULL, &anim, NULL) != KF_OK)
            abort();
        kf_anim_free(anim);
        free(h.data);
    }
    free(f.data);
    free(g.data);
    kf_builder_destroy(b);
    return 0;
}
