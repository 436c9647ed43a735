/* SPDX-License-Identifier: MIT */
/*
 * test_follower_stress.c - long random event streams through every follower
 * node: thousands of set_destination / set_value events at uneven ticks
 * (zero steps, long gaps, bursts at one time, events stamped before the last
 * update, a clock stepping back), with a small and a large transition
 * buffer. Checks at every tick: the state stays within its bound, the output
 * is finite and inside what the inputs allow (the FIR and the filters only
 * mix values they were given), a follower at rest shows exactly its
 * destination; at the end the last destination is reached. A scalar chaser
 * with room for every transition must equal the FIR computed from the whole
 * event history, without folding.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "test_util.h"

#define EVENTS 5000
#define POINTS 5
#define PI     3.14159265358979323846

static uint64_t rng_state;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_random() >> 11) / 9007199254740992.0;
}

typedef struct stream {
    kf_follower_node node;
    int rotation, color, linear;
    uint32_t numbers;                     /* authored numbers per value */
    uint32_t components;                  /* runtime floats per value */
    float lo[POINTS * 3], hi[POINTS * 3]; /* linear: every value seen, per component */
} stream;

/* A random authored value (axis-angle, RGB in [0,1], or numbers). */
static void random_value(const stream *st, double *out)
{
    for (uint32_t i = 0; i < st->numbers; i++)
        out[i] = st->color ? uniform(0.0, 1.0) : uniform(-10.0, 10.0);
    if (st->rotation)
        out[3] = uniform(-2 * PI, 2 * PI);
    /* Now and then a grey, whose hue is undefined. */
    if (st->color && next_random() % 5 == 0)
        out[1] = out[2] = out[0];
}

static void to_runtime(const stream *st, const double *authored, float *out)
{
    if (st->rotation) {
        const float aa[4] = {(float)authored[0], (float)authored[1], (float)authored[2],
                             (float)authored[3]};
        kf_axis_angle_to_quat(aa, out);
        return;
    }
    for (uint32_t i = 0; i < st->numbers; i++)
        out[i] = (float)authored[i];
}

static void widen(stream *st, const float *v)
{
    if (!st->linear)
        return;
    for (uint32_t i = 0; i < st->components; i++) {
        st->lo[i] = fminf(st->lo[i], v[i]);
        st->hi[i] = fmaxf(st->hi[i], v[i]);
    }
}

/* Every tick's checks; returns the number of failures (so a broken stream
 * reports once, not thousands of times). */
static int check_tick(const stream *st, const kf_follower_state *s, uint32_t capacity,
                      const float *dest, const char *name, double t)
{
    const int before = kf_test_failures;
    const float *v = kf_follower_value(s);
    int damper = kf_follower_node_is_damper(st->node);
    CHECK(kf_follower_pending(s) <= (damper ? 0 : capacity), "%s t=%g: %u transitions held", name,
          t, kf_follower_pending(s));
    for (uint32_t i = 0; i < st->components; i++) {
        CHECK(isfinite(v[i]), "%s t=%g: component %u is %g", name, t, i, v[i]);
        if (st->linear)
            CHECK(v[i] >= st->lo[i] - 1e-5f * (1 + fabsf(st->lo[i])) &&
                      v[i] <= st->hi[i] + 1e-5f * (1 + fabsf(st->hi[i])),
                  "%s t=%g: component %u = %g outside [%g, %g]", name, t, i, v[i], st->lo[i],
                  st->hi[i]);
        if (st->color)
            CHECK(v[i] >= 0.0f && v[i] <= 1.0f, "%s t=%g: colour %g", name, t, v[i]);
    }
    if (st->rotation) {
        double n2 = 0.0;
        for (int i = 0; i < 4; i++)
            n2 += (double)v[i] * v[i];
        CHECK(fabs(n2 - 1.0) < 1e-5, "%s t=%g: |q|^2 = %.9g", name, t, n2);
    }
    if (!kf_follower_is_active(s)) {
        if (st->rotation)
            CHECK(test_rotation_angle_f(v, dest) < 1e-6, "%s t=%g: resting off the destination",
                  name, t);
        else
            CHECK(memcmp(v, dest, st->components * sizeof *v) == 0,
                  "%s t=%g: resting off the destination", name, t);
    }
    return kf_test_failures - before;
}

/* The FIR over the whole history since the last set_value (no folding). */
typedef struct history {
    double base;
    double *times, *values;
    size_t count, capacity;
} history;

static void history_push(history *h, double t, double v)
{
    if (h->count == h->capacity) {
        h->capacity = h->capacity ? 2 * h->capacity : 1024;
        h->times = realloc(h->times, h->capacity * sizeof *h->times);
        h->values = realloc(h->values, h->capacity * sizeof *h->values);
    }
    h->times[h->count] = t;
    h->values[h->count++] = v;
}

static double history_fir(const history *h, double t, double duration)
{
    double out = h->base, prev = h->base;
    for (size_t i = 0; i < h->count; i++) {
        double x = (t - h->times[i]) / duration;
        double r = x <= 0 ? 0 : x >= 1 ? 1 : 0.5 * (1 - cos(PI * x));
        out += (h->values[i] - prev) * r;
        prev = h->values[i];
    }
    return out;
}

static void run(kf_follower_node node, int order, uint32_t capacity, uint64_t seed)
{
    rng_state = seed;
    stream st;
    memset(&st, 0, sizeof st);
    st.node = node;
    st.rotation =
        node == KF_FOLLOWER_NODE_ORIENTATION_CHASER || node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER;
    st.color = node == KF_FOLLOWER_NODE_COLOR_CHASER || node == KF_FOLLOWER_NODE_COLOR_DAMPER;
    st.linear = !st.rotation && !st.color;
    st.numbers =
        kf_follower_node_field_components(node) * (kf_follower_node_is_array(node) ? POINTS : 1);
    st.components = st.rotation ? 4 : st.numbers;
    for (uint32_t i = 0; i < st.components; i++) {
        st.lo[i] = INFINITY;
        st.hi[i] = -INFINITY;
    }
    char name[96];
    snprintf(name, sizeof name, "%s order %d capacity %u", kf_follower_node_name(node), order,
             (unsigned)capacity);

    double iv[POINTS * 3], id[POINTS * 3], authored[POINTS * 3];
    random_value(&st, iv);
    random_value(&st, id);
    kf_follower_desc d;
    kf_follower_desc_init(&d, node);
    d.name = "stress";
    d.initial_value = iv;
    d.initial_value_count = st.numbers;
    d.initial_destination = id;
    d.initial_destination_count = st.numbers;
    d.duration = 0.5;
    d.tau = 0.2;
    d.order = order;
    kf_builder *b;
    kf_error err;
    kf_builder_create(NULL, &b);
    kf_result r = kf_builder_add_follower(b, &d, &err);
    CHECK(r == KF_OK, "%s: %s", name, err.message);
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    kf_follower_state *s = NULL;
    if (!anim || kf_follower_state_create(kf_anim_follower(anim, 0), capacity, NULL, &s) != KF_OK) {
        CHECK(0, "%s: no state", name);
        kf_anim_free(anim);
        return;
    }

    float value[POINTS * 3], dest[POINTS * 3];
    to_runtime(&st, iv, value);
    widen(&st, value);
    to_runtime(&st, id, dest);
    widen(&st, dest);
    const int exact = node == KF_FOLLOWER_NODE_SCALAR_CHASER && capacity >= EVENTS;
    history h = {(float)iv[0], NULL, NULL, 0, 0};
    if (dest[0] != value[0])
        history_push(&h, 0.0, dest[0]);

    double t = 0.0, latest = 0.0, worst = 0.0, last_when = 0.0;
    uint32_t most = 0;
    int failures = 0;
    for (int e = 0; e < EVENTS && failures == 0;) {
        /* Uneven ticks: mostly small steps, some zero, some long gaps, and
         * now and then the clock steps back. */
        uint64_t kind = next_random() % 20;
        t += kind < 14   ? uniform(0.0, 0.05)
             : kind < 16 ? 0.0
             : kind < 19 ? uniform(0.05, 1.0)
                         : -uniform(0.0, 0.02);
        int burst = next_random() % 10 == 0 ? 4 : next_random() % 2;
        /* Events stamped a little before this tick, some at the same time;
         * in order (the range check relies on it: out of order, the FIR
         * itself may leave the range of its inputs). */
        double when = fmax(last_when, t - (next_random() % 3 ? uniform(0.0, 0.01) : 0.0));
        last_when = when;
        for (int k = 0; k < burst && e < EVENTS; k++, e++) {
            random_value(&st, authored);
            float v[POINTS * 3];
            to_runtime(&st, authored, v);
            widen(&st, v);
            int set_value = next_random() % 5 == 0;
            r = set_value ? kf_follower_set_value(s, v, when)
                          : kf_follower_set_destination(s, v, when);
            CHECK(r == KF_OK, "%s: event %d", name, e);
            if (set_value) {
                h.base = v[0];
                h.count = 0;
                if (dest[0] != v[0])
                    history_push(&h, when, dest[0]);
            } else {
                if (v[0] != dest[0])
                    history_push(&h, when, v[0]);
                /* What the follower reports for a destination: clamped,
                 * normalized; at rest it shows exactly that. */
                memcpy(dest, v, st.components * sizeof *v);
                if (st.rotation) {
                    double n = 0;
                    for (int i = 0; i < 4; i++)
                        n += (double)v[i] * v[i];
                    for (int i = 0; i < 4; i++)
                        dest[i] = (float)(v[i] / sqrt(n));
                }
            }
        }
        kf_follower_update(s, t);
        if (kf_follower_pending(s) > most)
            most = kf_follower_pending(s);
        failures += check_tick(&st, s, capacity, dest, name, t);
        if (exact && t >= latest) {
            double want = history_fir(&h, t, 0.5);
            double got = kf_follower_value(s)[0];
            worst = fmax(worst, fabs(got - want));
            CHECK(fabs(got - want) <= 1e-5 * fmax(1.0, fabs(want)), "%s t=%g: %.9g, FIR %.9g", name,
                  t, got, want);
        }
        latest = fmax(latest, t);
    }

    /* The end: one last destination is reached and the follower stops. */
    random_value(&st, authored);
    to_runtime(&st, authored, value);
    latest += 1.0;
    kf_follower_set_destination(s, value, latest);
    int settled = 0;
    for (int k = 1; k <= 2000 && !settled; k++) {
        kf_follower_update(s, latest + 0.01 * k);
        settled = !kf_follower_is_active(s);
    }
    CHECK(settled, "%s: never came to rest", name);
    const float *v = kf_follower_value(s);
    if (st.rotation)
        CHECK(test_rotation_angle_f(v, value) < 1e-6, "%s: ends off the last destination", name);
    else if (st.color)
        for (int i = 0; i < 3; i++)
            CHECK(v[i] == value[i], "%s: ends off the last destination", name);
    else
        CHECK(memcmp(v, value, st.components * sizeof *v) == 0, "%s: ends off the last destination",
              name);
    printf("  %-44s most held %4u%s", name, most, exact ? "" : "\n");
    if (exact)
        printf(", worst |FIR - ours| %.2e\n", worst);
    free(h.times);
    free(h.values);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

int main(void)
{
    for (int node = 0; node < KF_FOLLOWER_NODE_COUNT; node++) {
        int damper = kf_follower_node_is_damper((kf_follower_node)node);
        uint64_t seed = 0x5EED0000u + (uint64_t)node;
        if (damper) {
            for (int order = 0; order <= 5; order += 1)
                run((kf_follower_node)node, order, 0, seed + 97u * (uint64_t)order);
        } else {
            run((kf_follower_node)node, 0, 4, seed);
            run((kf_follower_node)node, 0, EVENTS, seed);
        }
    }
    return kf_test_report("test_follower_stress");
}
