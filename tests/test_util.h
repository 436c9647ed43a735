/* SPDX-License-Identifier: MIT */
/*
 * test_util.h - building an animation in memory for the C tests:
 * kf_builder -> encoded bytes -> kf_load_memory, the path every file takes.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"

typedef struct test_bytes {
    unsigned char *data;
    size_t size, capacity;
} test_bytes;

static inline int test_bytes_write(void *user, const void *data, size_t size)
{
    test_bytes *b = user;
    if (size > b->capacity - b->size) {
        size_t cap = b->capacity ? b->capacity : 1024;
        while (cap - b->size < size)
            cap *= 2;
        unsigned char *p = realloc(b->data, cap);
        if (!p)
            return 1;
        b->data = p;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    return 0;
}

/* An allocator that counts: the bytes live now, the most live at once, the
 * largest request and the number of allocations; a request above `limit`
 * (0: none) fails, as a game's bounded allocator would. `fill` (0: none)
 * fills each new block with that byte, as reused memory would hold
 * anything: a reader must not take it for cleared. */
typedef struct test_counter {
    size_t live, peak, largest, limit, allocs;
    unsigned char fill;
} test_counter;

static inline void *test_counter_alloc(void *user, size_t size)
{
    test_counter *c = user;
    if (size > c->largest)
        c->largest = size;
    if (c->limit && size > c->limit)
        return NULL;
    void *p = malloc(size ? size : 1);
    if (p && c->fill)
        memset(p, c->fill, size);
    if (p) {
        c->live += size;
        c->allocs++;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return p;
}

static inline void test_counter_free(void *user, void *p, size_t size)
{
    test_counter *c = user;
    if (p)
        c->live -= size;
    free(p);
}

static inline kf_allocator test_counting_allocator(test_counter *c)
{
    kf_allocator a = {test_counter_alloc, test_counter_free, c};
    return a;
}

/* Encodes `builder` and loads the bytes back; NULL on any failure (printed).
 * `bytes` (optional) receives the encoding, to be freed by the caller. */
static inline kf_anim *test_encode_load(const kf_builder *builder, test_bytes *bytes)
{
    test_bytes local = {0};
    test_bytes *b = bytes ? bytes : &local;
    memset(b, 0, sizeof *b);
    kf_error err;
    kf_anim *anim = NULL;
    if (kf_builder_encode(builder, NULL, test_bytes_write, b, &err) != KF_OK)
        fprintf(stderr, "encode: %s\n", err.message);
    else if (kf_load_memory(b->data, b->size, NULL, &anim, &err) != KF_OK)
        fprintf(stderr, "load: %s\n", err.message);
    if (!bytes)
        free(local.data);
    return anim;
}

/* Followers of each value kind (vector, rotation, colour, array; chasers
 * and dampers), played into targets through controllers "a" and "b". */
static inline kf_result test_add_followers(kf_builder *b, kf_error *e)
{
    static const double p3[3] = {1, 2, 3}, rot[4] = {0, 1, 0, 2}, rgb[3] = {0.2, 0.4, 1};
    static const double pts[6] = {0, 1, 2, 3, 4, 5};
    static const struct {
        const char *name;
        kf_follower_node node;
        const double *value;
        uint32_t count;
        int order;
        const char *controller, *target;
    } f[] = {
        {"pos", KF_FOLLOWER_NODE_POSITION_CHASER, p3, 3, 0, "a", "n.translation"},
        {"turn", KF_FOLLOWER_NODE_ORIENTATION_CHASER, rot, 4, 0, "b", "n.orientation"},
        {"tint", KF_FOLLOWER_NODE_COLOR_DAMPER, rgb, 3, 2, "a", "m.color"},
        {"mesh", KF_FOLLOWER_NODE_COORDINATE_DAMPER, pts, 6, 5, "b", "k.morph_weights"},
        {"turn2", KF_FOLLOWER_NODE_ORIENTATION_DAMPER, rot, 4, 1, "a", "k.orientation"},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        kf_follower_desc d;
        kf_follower_desc_init(&d, f[i].node);
        d.name = f[i].name;
        d.initial_value = f[i].value;
        d.initial_value_count = f[i].count;
        d.duration = 0.5;
        d.order = f[i].order;
        kf_track_desc t = {f[i].name, f[i].controller, f[i].target, 0};
        kf_result r = kf_builder_add_follower(b, &d, e);
        if (r == KF_OK)
            r = kf_builder_add_track(b, &t, e);
        if (r != KF_OK)
            return r;
    }
    return KF_OK;
}

/* One sequence built, encoded and loaded back; NULL (the reason printed)
 * if any step fails. */
static inline kf_anim *test_load_sequence(const kf_sequence_desc *d)
{
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    kf_anim *anim = NULL;
    if (kf_builder_add_sequence(b, d, &err) != KF_OK)
        fprintf(stderr, "%s: %s\n", d->name, err.message);
    else
        anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    return anim;
}

/* The angle between the rotations of two (not quite unit) quaternions. */
static inline double test_rotation_angle(const double a[4], const double b[4])
{
    double c = 0.0, na = 0.0, nb = 0.0;
    for (int i = 0; i < 4; i++) {
        c += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    c = fabs(c) / sqrt(na * nb);
    return 2.0 * acos(c < 1.0 ? c : 1.0);
}

static inline double test_rotation_angle_f(const float a[4], const float b[4])
{
    const double x[4] = {a[0], a[1], a[2], a[3]}, y[4] = {b[0], b[1], b[2], b[3]};
    return test_rotation_angle(x, y);
}

/* A small animation using every interpolation and repeat mode, a wrapped
 * valid range, coincident keys, two controllers and blended targets, and
 * followers (test_add_followers). */
static inline kf_builder *test_rich_builder(void)
{
    static const double t5[5] = {0, 250, 250, 600, 1000};
    static const double v15[15] = {0, 0, 0, 1, 2, 3, -1, 0, 2, 4, 4, 4, 0, 1, 0};
    static const double q4[16] = {0, 0, 0, 1, 0, 0.7071, 0, 0.7071, 0, 0, 1, 0, 0.5, 0.5, 0.5, 0.5};
    static const double tq[4] = {0, 300, 700, 900};
    static const double t1[1] = {40}, v1[1] = {0.5};
    static const double tw[5] = {400, 500, 9999, 0, 100}; /* valid: keys 3, 4, 0, 1 */
    /* Kochanek-Bartels tension, continuity, bias per key. */
    static const double tcb5[15] = {0.5, 0, -1, -0.25, 1, 0.5, 0, 0, 0, 1, -1, 0.75, 0, 0.3, 0};
    static const double tcb4[12] = {0, 0, 0.5, -1, 0.25, 0, 0.5, 0.5, 0.5, 0, 0, 0};
    const kf_sequence_desc seqs[] = {
        {"step", KF_INTERPOLATION_STEP, KF_REPEAT_CONSTANT, 1000, 3, 5, t5, v15, 0, 4, NULL, 0,
         NULL},
        {"lin", KF_INTERPOLATION_LINEAR, KF_REPEAT_LOOP, 1200, 3, 5, t5, v15, 1, 4, NULL, 1, NULL},
        {"spl", KF_INTERPOLATION_SPLINE, KF_REPEAT_LOOP, 1000, 3, 5, t5, v15, 0, 4, tcb5, 1, NULL},
        {"wrap", KF_INTERPOLATION_SPLINE, KF_REPEAT_CONSTANT, 1000, 1, 5, tw, v15, 3, 1, tcb5, 0,
         NULL},
        {"slerp", KF_INTERPOLATION_SLERP, KF_REPEAT_LOOP, 1000, 4, 4, tq, q4, 0, 3, NULL, 0, NULL},
        {"squad", KF_INTERPOLATION_SQUAD, KF_REPEAT_CONSTANT, 1000, 4, 4, tq, q4, 0, 3, tcb4, 0,
         NULL},
        {"one", KF_INTERPOLATION_LINEAR, KF_REPEAT_LOOP, 100, 1, 1, t1, v1, 0, 0, NULL, 1, NULL},
    };
    const kf_track_desc tracks[] = {
        {"step", "a", "n.translation", 0},  {"lin", "b", "n.translation", 0},
        {"spl", "a", "m.color", 0},         {"wrap", "b", "n.alpha", 0},
        {"slerp", "a", "n.orientation", 0}, {"squad", "b", "n.orientation", 0},
        {"one", "a", "n.extra", 1},         {"lin", NULL, "m.translation", 0},
    };
    kf_builder *b;
    kf_error e;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++)
        if (kf_builder_add_sequence(b, &seqs[i], &e) != KF_OK)
            goto fail;
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "a";
    c.speed = 1.5;
    c.weight = 0.5;
    if (kf_builder_add_controller(b, &c, &e) != KF_OK)
        goto fail;
    c.name = "b";
    c.speed = -1;
    c.active_start = 100;
    c.active_end = 5000;
    c.ref_world = 30;
    if (kf_builder_add_controller(b, &c, &e) != KF_OK)
        goto fail;
    for (size_t i = 0; i < sizeof tracks / sizeof tracks[0]; i++)
        if (kf_builder_add_track(b, &tracks[i], &e) != KF_OK)
            goto fail;
    /* X3D interpolators: a closed spline with velocities, a squad, a
     * colour, an EaseInEaseOut easing one of them, and their tracks. */
    static const double k4[4] = {0, 0.25, 0.25, 1}, sp[4] = {1, 3, -2, 1}, vel[2] = {4, -4};
    static const double rot[8] = {0, 1, 0, 0.5, 1, 0, 0, 2};
    static const double rgb[6] = {1, 0, 0.25, 0.5, 0.5, 0.5}, eio[4] = {0, 0.4, 0.3, 0};
    kf_interpolator_desc p[4];
    for (int i = 0; i < 4; i++)
        kf_interpolator_desc_init(&p[i]);
    p[0].name = "x3d_spline";
    p[0].node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR;
    p[0].key_count = p[0].value_count = 4;
    p[0].key = k4;
    p[0].key_value = sp;
    p[0].velocity_count = 2;
    p[0].key_velocity = vel;
    p[0].normalize_velocity = 1;
    p[1].name = "x3d_squad";
    p[1].node = KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
    p[1].key_count = p[1].value_count = 2;
    p[1].key = k4 + 2;
    p[1].key_value = rot;
    p[1].closed = 1;
    p[2].name = "x3d_color";
    p[2].node = KF_NODE_COLOR_INTERPOLATOR;
    p[2].key_count = p[2].value_count = 2;
    p[2].key = k4 + 2;
    p[2].key_value = rgb;
    p[3].name = "x3d_ease";
    p[3].node = KF_NODE_EASE_IN_EASE_OUT;
    p[3].key_count = p[3].ease_count = 2;
    p[3].key = k4 + 2;
    p[3].ease_in_ease_out = eio;
    for (int i = 0; i < 4; i++)
        if (kf_builder_add_interpolator(b, &p[i], &e) != KF_OK)
            goto fail;
    const kf_track_desc x3d_tracks[3] = {
        {"x3d_spline", "a", "n.x3d", 1},
        {"x3d_squad", "b", "n.orientation", 0},
        {"x3d_color", "b", "n.diffuse_color", 0},
    };
    const kf_time_sensor_desc sensors[3] = {
        {700, 1, "x3d_ease"},
        {1500, 0, NULL},
        {250, 1, NULL},
    };
    for (size_t i = 0; i < 3; i++)
        if (kf_builder_add_interpolator_track(b, &x3d_tracks[i], &sensors[i], &e) != KF_OK)
            goto fail;
    if (test_add_followers(b, &e) != KF_OK)
        goto fail;
    return b;
fail:
    fprintf(stderr, "test_rich_builder: %s\n", e.message);
    kf_builder_destroy(b);
    return NULL;
}

/* A LINEAR sequence `name` of n keys of three components (values) at
 * `times` 1/30 s apart, n/30 s long. */
static inline kf_result test_add_linear3(kf_builder *b, const char *name, uint32_t n,
                                         const double *times, const double *values)
{
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.name = name;
    d.interpolation = KF_INTERPOLATION_LINEAR;
    d.duration = n / 30.0;
    d.components = 3;
    d.key_count = n;
    d.times = times;
    d.values = values;
    return kf_builder_add_sequence(b, &d, NULL);
}

/* A LINEAR sequence of 301 keys whose three columns walk a grid of
 * quarter steps, as kfc -e writes keys: integer columns whose differences
 * fit 16 bits, so that their two high byte planes are zeros. And a
 * PositionInterpolator that stays at the origin: a plain array of 150
 * zeros. */
static inline kf_builder *test_grid_builder(void)
{
    static double times[301], values[301 * 3];
    double v[3] = {10.0, -3.0, 0.5};
    uint32_t x = 12345;
    for (int k = 0; k < 301; k++) {
        times[k] = k / 30.0;
        for (int m = 0; m < 3; m++) {
            x = x * 1103515245u + 12345u;
            v[m] += ((int)(x >> 16) % 41 - 20) * 0.25;
            values[3 * k + m] = v[m];
        }
    }
    kf_builder *b = NULL;
    kf_builder_create(NULL, &b);
    if (!b || test_add_linear3(b, "grid", 301, times, values) != KF_OK)
        goto fail;
    static double key[50], origin[50 * 3];
    for (int k = 0; k < 50; k++)
        key[k] = k / 49.0;
    kf_interpolator_desc i;
    kf_interpolator_desc_init(&i);
    i.name = "origin";
    i.node = KF_NODE_POSITION_INTERPOLATOR;
    i.key_count = i.value_count = 50;
    i.key = key;
    i.key_value = origin;
    if (kf_builder_add_interpolator(b, &i, NULL) != KF_OK)
        goto fail;
    return b;
fail:
    fprintf(stderr, "test_grid_builder: could not add its objects\n");
    kf_builder_destroy(b);
    return NULL;
}

/* A LINEAR sequence of 200 keys at the origin (every difference of its
 * values 0, their headers too) and a SQUAD one of 120 evenly spaced keys
 * (each key's b is its a, and b is stored against a: zeros): arrays whose
 * every plane one zero run holds in a compressed file. */
static inline kf_builder *test_flat_builder(void)
{
    static double times[200], rest[200 * 3], turns[120 * 4];
    for (int k = 0; k < 200; k++) {
        times[k] = k / 30.0;
        rest[3 * k] = rest[3 * k + 1] = rest[3 * k + 2] = 0.0;
    }
    for (int k = 0; k < 120; k++) {
        const double h = 0.5 * sin(0.7 * k), x = cos(1.3 * k), z = sin(1.3 * k);
        turns[4 * k] = x * sin(h);
        turns[4 * k + 1] = 0.0;
        turns[4 * k + 2] = z * sin(h);
        turns[4 * k + 3] = cos(h);
    }
    kf_builder *b;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.name = "turns";
    d.interpolation = KF_INTERPOLATION_SQUAD;
    d.duration = 4.0;
    d.components = 4;
    d.key_count = 120;
    d.times = times;
    d.values = turns;
    if (test_add_linear3(b, "rest", 200, times, rest) == KF_OK &&
        kf_builder_add_sequence(b, &d, NULL) == KF_OK)
        return b;
    fprintf(stderr, "test_flat_builder: could not add its sequences\n");
    kf_builder_destroy(b);
    return NULL;
}

/* Samples every sequence at awkward times and plays a player over a range
 * of world times; returns a sum of everything so nothing is optimized away.
 * Whatever loaded must survive this without undefined behaviour. */
static inline double test_exercise(const kf_anim *anim)
{
    static const double times[] = {-2e9,    -1e-300, 0,    1e-7, 99.5, 250,      600,
                                   999.999, 1000,    1e12, 2e9,  NAN,  INFINITY, -INFINITY};
    double sum = 0;
    float v[64];
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_SEQUENCE); i++) {
        const kf_sequence *s = kf_anim_sequence(anim, i);
        if (kf_sequence_components(s) > 64)
            continue;
        kf_cursor cursor = KF_CURSOR_INIT;
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
            kf_sequence_sample(s, times[k], k & 1 ? &cursor : NULL, v);
            for (uint32_t c = 0; c < kf_sequence_components(s); c++)
                sum += v[c] == v[c] ? v[c] : 1.0;
        }
        /* Derivatives and distances: a few awkward arguments each (distance
         * sampling integrates, and the sweeps load thousands of files). */
        double length = 0, d = 0, t = 0;
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k += 3) {
            kf_sequence_velocity(s, times[k], &cursor, v);
            sum += v[0] == v[0] ? v[0] : 1.0;
            kf_sequence_acceleration(s, times[k], NULL, v);
            sum += v[0] == v[0] ? v[0] : 1.0;
        }
        if (kf_sequence_length(s, &length) == KF_OK) {
            static const double fractions[] = {-0.5, 0.37, 1.0, 2.75, NAN};
            for (size_t k = 0; k < sizeof fractions / sizeof fractions[0]; k++) {
                kf_sequence_sample_distance(s, fractions[k] * length, v, &t);
                sum += (v[0] == v[0] ? v[0] : 1.0) + (t == t ? t : 1.0);
            }
            kf_sequence_distance(s, 333.0, &d);
            kf_sequence_segment_length(s, 0, &length);
            sum += (d == d ? d : 1.0) + (length == length ? length : 1.0);
        }
    }
    /* Followers: events and updates at the same awkward times. */
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_FOLLOWER); i++) {
        const kf_follower *f = kf_anim_follower(anim, i);
        kf_follower_state *s;
        if (kf_follower_components(f) > 64 || kf_follower_state_create(f, 3, NULL, &s) != KF_OK)
            continue;
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
            for (uint32_t c = 0; c < kf_follower_components(f); c++)
                v[c] = (float)(k % 3 == 2 ? times[(k + c) % 12] : (double)c - (double)k);
            if (k & 1)
                kf_follower_set_destination(s, v, times[(k + 5) % 14]);
            else
                kf_follower_set_value(s, v, times[k]);
            kf_follower_update(s, times[k]);
            for (uint32_t c = 0; c < kf_follower_components(f); c++) {
                float x = kf_follower_value(s)[c];
                sum += x == x ? x : 1.0;
            }
        }
        kf_follower_state_destroy(s);
    }
    static const double fractions[] = {-1e30, -0.5, 0, 1e-9, 0.25,     0.5,
                                       0.999, 1,    7, NAN,  INFINITY, -INFINITY};
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_INTERPOLATOR); i++) {
        const kf_interpolator *ip = kf_anim_interpolator(anim, i);
        if (kf_interpolator_components(ip) > 64)
            continue;
        kf_cursor cursor = KF_CURSOR_INIT;
        for (size_t k = 0; k < sizeof fractions / sizeof fractions[0]; k++) {
            kf_interpolator_sample(ip, fractions[k], k & 1 ? &cursor : NULL, v);
            for (uint32_t c = 0; c < kf_interpolator_components(ip); c++)
                sum += v[c] == v[c] ? v[c] : 1.0;
            sum += kf_interpolator_ease(ip, fractions[k]) == 0.5;
        }
    }
    kf_player *p;
    if (kf_player_create(anim, NULL, &p) == KF_OK) {
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
            kf_player_update(p, times[k]);
            for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++)
                sum += kf_player_value(p, t)[0];
        }
        kf_player_destroy(p);
    }
    return sum;
}

#endif /* TEST_UTIL_H */
