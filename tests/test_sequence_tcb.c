/* SPDX-License-Identifier: MIT */
/*
 * test_sequence_tcb.c - Kochanek-Bartels sequences through the C API: kf_builder ->
 * .kfb bytes -> kf_load_memory -> sample, velocity, acceleration.
 *
 *   - Eberly's own results (oracle/eberly.json): positions, velocities and
 *     accelerations per unit time, squad rotations, the leg animation, and
 *     the leg in the looping form of fixtures/leg_walk.yaml;
 *   - cases computed by the independent reference tcb_reference.py (LOOP,
 *     wrapped valid ranges, coincident keys, zero-length wrap segments);
 *   - a hand-derived key, tangent by tangent;
 *   - TCB at zero: the same bytes as plain SPLINE/SQUAD for every M3G
 *     oracle case;
 *   - the builder's and the loader's checks of the new fields.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_private.h"
#include "kf_test.h"
#include "kfb_craft.h"
#include "m3g_oracle.h"
#include "tcb_oracle.h"
#include "test_util.h"

#define TOL 1e-5

/* |got - want| <= tol * max(1, scale). */
static int near(double got, double want, double tol, double scale)
{
    return fabs(got - want) <= tol * fmax(1.0, scale);
}

static double max_abs(const tcb_case *c, int which)
{
    double m = 0.0;
    for (unsigned i = 0; i < c->sample_count; i++) {
        const tcb_sample *s = &c->samples[i];
        const double *v = which == 1 ? s->velocity : s->acceleration;
        for (unsigned k = 0; k < c->components && s->derivatives != TCB_VALUE_ONLY; k++)
            m = fmax(m, fabs(v[k]));
    }
    return m;
}

static void check_vector(const tcb_case *c, const char *what, const tcb_sample *s, const float *got,
                         const double *want, double tol, double scale)
{
    for (unsigned k = 0; k < c->components; k++)
        CHECK(near(got[k], want[k], tol, scale),
              "%s (%s) %s t=%.9g%s component %u: got %.9g, want %.9g", c->name, c->source, what,
              s->t, s->derivatives == TCB_LEFT ? " (left)" : "", k, got[k], want[k]);
}

static void run_case(const tcb_case *c)
{
    kf_anim *anim = tcb_case_load(c, 0);
    CHECK(anim != NULL, "%s: build, encode and load", c->name);
    if (!anim)
        return;
    const kf_sequence *s = kf_anim_sequence(anim, 0);
    kf_sequence_info info;
    kf_sequence_get_info(s, &info);
    int any = 0;
    for (unsigned i = 0; i < c->key_count; i++) {
        float tcb[3];
        kf_sequence_key_tcb(s, i, tcb);
        for (int k = 0; k < 3; k++) {
            CHECK(tcb[k] == (float)c->keys[i].tcb[k], "%s key %u tcb[%d]: %g", c->name, i, k,
                  tcb[k]);
            any |= c->keys[i].tcb[k] != 0.0;
        }
    }
    CHECK(info.tcb == any, "%s: info.tcb %d", c->name, info.tcb);

    const double vscale = max_abs(c, 1), ascale = max_abs(c, 2);
    const int has_derivatives =
        c->interpolation == KF_INTERPOLATION_LINEAR || c->interpolation == KF_INTERPOLATION_SPLINE;
    kf_cursor cursor = KF_CURSOR_INIT;
    float v[TCB_MAX_COMPONENTS], d1[TCB_MAX_COMPONENTS], d2[TCB_MAX_COMPONENTS];
    for (unsigned i = 0; i < c->sample_count; i++) {
        const tcb_sample *e = &c->samples[i];
        /* The left limit at a key: a hair before it, inside the segment
         * that ends there (the derivatives are continuous inside). Times
         * are placed among the keys at float32 precision (kf.h), so the
         * hair is a few float steps: a time that rounds to the key is the
         * key's. */
        double t = e->derivatives == TCB_LEFT ? e->t - 1e-6 * fmax(1.0, fabs(e->t)) : e->t;
        kf_sequence_sample(s, t, &cursor, v);
        check_vector(c, "value", e, v, e->v, TOL, c->scale);
        kf_result r1 = kf_sequence_velocity(s, t, NULL, d1);
        kf_result r2 = kf_sequence_acceleration(s, t, &cursor, d2);
        if (!has_derivatives) {
            CHECK(r1 == KF_ERROR_ARGUMENT && r2 == KF_ERROR_ARGUMENT && d1[0] == 0.0f,
                  "%s: derivatives of %s", c->name, kf_interpolation_name(info.interpolation));
            continue;
        }
        CHECK(r1 == KF_OK && r2 == KF_OK, "%s: derivatives failed", c->name);
        if (e->derivatives == TCB_VALUE_ONLY)
            continue;
        check_vector(c, "velocity", e, d1, e->velocity, 2 * TOL, vscale);
        check_vector(c, "acceleration", e, d2, e->acceleration, 2 * TOL, ascale);
    }
    kf_anim_free(anim);
}

/* One key worked by hand (docs/math.md §5.1, Eberly eqs. 2-3): times 0 1 3 4,
 * values 0 2 3 7, key 1 with tension 0.5, continuity -0.5, bias 0.25. */
static void hand_derived(void)
{
    static const double times[4] = {0, 1, 3, 4}, values[4] = {0, 2, 3, 7};
    static const double tcb[12] = {0, 0, 0, 0.5, -0.5, 0.25, 0, 0, 0, 0, 0, 0};
    kf_sequence_desc d = {
        "hand", KF_INTERPOLATION_SPLINE, KF_REPEAT_CONSTANT, 4, 1, 4, times, values, 0, 3, tcb, 0,
        NULL};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "hand: build");
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "hand: load");
    if (!anim)
        return;
    const kf_sequence *s = kf_anim_sequence(anim, 0);
    /* F- = 2*1/3, F+ = 2*2/3; d- = 2, d+ = 1.
     * out = 4/3 (0.5*0.5*0.5*1.25 * 2 + 0.5*0.5*1.5*0.75 * 1) = 0.791666...
     * in  = 2/3 (0.5*0.5*1.5*1.25 * 2 + 0.5*0.5*0.5*0.75 * 1) = 0.6875 */
    CHECK(kf_key_float(s, s->tangent_out, 1, 0) == (float)(4.0 / 3.0 * 0.59375), "hand: out %.9g",
          kf_key_float(s, s->tangent_out, 1, 0));
    CHECK(kf_key_float(s, s->tangent_in, 1, 0) == 0.6875f, "hand: in %.9g",
          kf_key_float(s, s->tangent_in, 1, 0));
    /* Per unit time: out / (t2 - t1) leaving key 1, in / (t1 - t0) arriving. */
    float v;
    kf_sequence_velocity(s, 1.0, NULL, &v);
    CHECK(fabs(v - 0.59375 * 4.0 / 3.0 / 2.0) < 1e-6, "hand: velocity leaving key 1: %.9g", v);
    /* The last float32 before the key: times are placed among the keys at
     * float32 precision, so 1 - 1e-9 would be the key itself. */
    kf_sequence_velocity(s, nextafterf(1.0f, 0.0f), NULL, &v);
    CHECK(fabs(v - 0.6875) < 1e-6, "hand: velocity arriving at key 1: %.9g", v);
    /* CONSTANT: held outside, and zero end tangents. */
    kf_sequence_velocity(s, -1.0, NULL, &v);
    CHECK(v == 0.0f, "hand: velocity before the keys %g", v);
    kf_sequence_velocity(s, 4.0, NULL, &v);
    CHECK(v == 0.0f, "hand: velocity at the last key %g", v);
    kf_sequence_velocity(s, 0.0, NULL, &v);
    CHECK(v == 0.0f, "hand: velocity at the first key %g", v);
    kf_sequence_acceleration(s, 5.0, NULL, &v);
    CHECK(v == 0.0f, "hand: acceleration after the keys %g", v);
    kf_sequence_velocity(s, NAN, NULL, &v);
    CHECK(v == 0.0f, "hand: velocity at NaN %g", v);
    /* Hermite at s = 1/2 of [1, 3]: (a + b)/2 + (out - in)/8. */
    float x;
    kf_sequence_sample(s, 2.0, NULL, &x);
    CHECK(fabs(x - (2.5 + (4.0 / 3.0 * 0.59375 - kf_key_float(s, s->tangent_in, 2, 0)) / 8.0)) <
              1e-6,
          "hand: value at 2: %.9g", x);
    kf_anim_free(anim);
}

/* ---- TCB at zero ------------------------------------------------------------------ */

/* M3G case c as a file, with `tcb` and `tangents` (SQUAD: given
 * intermediates, kf_sequence_desc) where not NULL. */
static test_bytes encode_m3g(const m3g_case *c, const double *tcb, const double *tangents)
{
    double *times = calloc(c->key_count, sizeof *times);
    double *values = calloc((size_t)c->key_count * c->components, sizeof *values);
    for (unsigned i = 0; i < c->key_count; i++) {
        times[i] = c->keys[i].t;
        for (unsigned k = 0; k < c->components; k++)
            values[i * c->components + k] = c->keys[i].v[k];
    }
    kf_sequence_desc d = {c->name,
                          (kf_interpolation)c->interpolation,
                          (kf_repeat)c->repeat,
                          c->duration,
                          c->components,
                          c->key_count,
                          times,
                          values,
                          c->first,
                          c->last,
                          tcb,
                          0,
                          tangents};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    test_bytes out = {0};
    kf_error err;
    kf_result r = kf_builder_add_sequence(b, &d, &err);
    CHECK(r == KF_OK, "%s: %s", c->name, err.message);
    if (r == KF_OK)
        kf_builder_encode(b, NULL, test_bytes_write, &out, NULL);
    kf_builder_destroy(b);
    free(times);
    free(values);
    return out;
}

static void zero_tcb_is_plain(void)
{
    unsigned compared = 0;
    for (unsigned i = 0; i < m3g_case_count; i++) {
        const m3g_case *c = &m3g_cases[i];
        if (c->interpolation != KF_INTERPOLATION_SPLINE &&
            c->interpolation != KF_INTERPOLATION_SQUAD)
            continue;
        double *zeros = calloc((size_t)c->key_count * 3, sizeof *zeros);
        test_bytes plain = encode_m3g(c, NULL, NULL), zero = encode_m3g(c, zeros, NULL);
        CHECK(plain.size > 0 && plain.size == zero.size &&
                  memcmp(plain.data, zero.data, plain.size) == 0,
              "%s: explicit zero TCB changes the bytes", c->name);
        compared++;
        free(plain.data);
        free(zero.data);
        free(zeros);
    }
    CHECK(!m3g_oracle_present || compared > 0, "no SPLINE/SQUAD case in the M3G oracle");
}

/* ---- given squad intermediates ------------------------------------------------------ */

/* A squad's intermediates given (kf_sequence_desc.tangents: each key's b,
 * then a): those its keys derive, given, are the same file byte for byte;
 * another a of key 1 is stored as given (normalized), plays otherwise in
 * the segments it shapes, and is reported as given
 * (kf_sequence_intermediates_given). Every M3G SQUAD case, with and
 * without TCB. */
static void given_intermediates(void)
{
    unsigned compared = 0;
    for (unsigned i = 0; i < m3g_case_count; i++) {
        const m3g_case *c = &m3g_cases[i];
        if (c->interpolation != KF_INTERPOLATION_SQUAD || c->key_count < 3)
            continue;
        for (int with_tcb = 0; with_tcb < 2; with_tcb++) {
            double *tcb = calloc((size_t)c->key_count * 3, sizeof *tcb);
            double *given = calloc((size_t)c->key_count * 8, sizeof *given);
            for (unsigned k = 0; k < 3 * c->key_count; k++)
                tcb[k] = with_tcb ? 0.5 * ((k * 7 % 5) / 4.0) - 0.25 : 0.0;
            test_bytes derived = encode_m3g(c, tcb, NULL);
            kf_anim *a = NULL;
            CHECK(kf_load_memory(derived.data, derived.size, NULL, &a, NULL) == KF_OK, "%s: load",
                  c->name);
            const kf_sequence *s = a ? kf_anim_sequence(a, 0) : NULL;
            CHECK(!a || kf_sequence_intermediates_given(s) == 0, "%s: derived, not given", c->name);
            for (uint32_t k = 0; s && k < c->key_count; k++) {
                float qa[4], qb[4];
                kf_sequence_key_intermediates(s, k, qa, qb);
                for (int m = 0; m < 4; m++) {
                    given[8 * k + m] = qb[m];
                    given[8 * k + 4 + m] = qa[m];
                }
            }
            test_bytes same = encode_m3g(c, tcb, given);
            CHECK(same.size == derived.size && memcmp(same.data, derived.data, same.size) == 0,
                  "%s%s: the derived intermediates, given, change the bytes", c->name,
                  with_tcb ? " (TCB)" : "");
            /* key 1's a: another rotation (the key's own, about another axis) */
            static const double other[4] = {0.48, -0.6, 0.64, 0.0};
            double n = 0.0;
            for (int m = 0; m < 4; m++)
                n += other[m] * other[m];
            for (int m = 0; m < 4; m++)
                given[8 + 4 + m] = other[m] / sqrt(n);
            test_bytes changed = encode_m3g(c, tcb, given);
            kf_anim *b = NULL;
            CHECK(kf_load_memory(changed.data, changed.size, NULL, &b, NULL) == KF_OK,
                  "%s: load given", c->name);
            const kf_sequence *g = b ? kf_anim_sequence(b, 0) : NULL;
            if (s && g) {
                CHECK(kf_sequence_intermediates_given(g) == 1, "%s: given", c->name);
                float qa[4], qb[4], want_b[4];
                kf_sequence_key_intermediates(g, 1, qa, qb);
                kf_sequence_key_intermediates(s, 1, NULL, want_b);
                for (int m = 0; m < 4; m++)
                    CHECK(qa[m] == (float)given[12 + m] && qb[m] == want_b[m],
                          "%s: key 1's a[%d] %.9g, given %.9g", c->name, m, qa[m], given[12 + m]);
                /* the segment from key 1 plays otherwise, its keys the same */
                const double t0 = c->keys[1].t, t1 = c->keys[2].t;
                float x[4], y[4];
                int differs = 0;
                for (int k = 1; k < 8 && t1 > t0; k++) {
                    kf_sequence_sample(s, t0 + (t1 - t0) * k / 8, NULL, x);
                    kf_sequence_sample(g, t0 + (t1 - t0) * k / 8, NULL, y);
                    differs |= memcmp(x, y, sizeof x) != 0;
                }
                kf_sequence_sample(s, t0, NULL, x);
                kf_sequence_sample(g, t0, NULL, y);
                CHECK((differs || !(t1 > t0)) && memcmp(x, y, sizeof x) == 0,
                      "%s: a given a plays otherwise between keys 1 and 2, the same at key 1",
                      c->name);
            }
            compared++;
            kf_anim_free(a);
            kf_anim_free(b);
            free(derived.data);
            free(same.data);
            free(changed.data);
            free(tcb);
            free(given);
        }
    }
    CHECK(!m3g_oracle_present || compared > 0, "no SQUAD case in the M3G oracle");
}

/* ---- the builder's checks ------------------------------------------------------------ */

static kf_result try_build(kf_interpolation interp, const double *tcb, int arc_length,
                           kf_error *err)
{
    static const double times[3] = {0, 1, 2};
    static const double values[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0};
    const uint32_t c = interp == KF_INTERPOLATION_SQUAD || interp == KF_INTERPOLATION_SLERP ? 4 : 1;
    kf_sequence_desc d = {"s", interp, KF_REPEAT_LOOP, 3,   c, 3, times, values, 0,
                          2,   tcb,    arc_length,     NULL};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_result r = kf_builder_add_sequence(b, &d, err);
    kf_builder_destroy(b);
    return r;
}

/* try_build's keys with `tangents` (SQUAD: given intermediates). */
static kf_result try_given(kf_interpolation interp, const double *tangents, kf_error *err)
{
    static const double times[3] = {0, 1, 2};
    static const double values[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0};
    kf_sequence_desc d = {"s", interp, KF_REPEAT_LOOP, 3, 4,       3, times, values,
                          0,   2,      NULL,           0, tangents};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_result r = kf_builder_add_sequence(b, &d, err);
    kf_builder_destroy(b);
    return r;
}

static void builder_errors(void)
{
    kf_error e;
    double tcb[9] = {0};
    CHECK(try_build(KF_INTERPOLATION_SPLINE, tcb, 1, &e) == KF_OK, "zero TCB, arc length: %s",
          e.message);
    tcb[4] = 1.0;
    tcb[6] = -1.0;
    CHECK(try_build(KF_INTERPOLATION_SQUAD, tcb, 0, &e) == KF_OK, "TCB at the bounds: %s",
          e.message);
    tcb[4] = 1.5;
    CHECK(try_build(KF_INTERPOLATION_SPLINE, tcb, 0, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TCB && e.item == 1 && e.object == 0,
          "continuity 1.5: field %d item %u: %s", e.field, e.item, e.message);
    tcb[4] = 0.0;
    tcb[8] = -1.0000001;
    CHECK(try_build(KF_INTERPOLATION_SQUAD, tcb, 0, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TCB && e.item == 2,
          "bias -1.0000001: %s", e.message);
    tcb[8] = NAN;
    CHECK(try_build(KF_INTERPOLATION_SPLINE, tcb, 0, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TCB,
          "NaN bias: %s", e.message);
    tcb[8] = 0.0;
    CHECK(try_build(KF_INTERPOLATION_LINEAR, tcb, 0, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TCB,
          "TCB on LINEAR: %s", e.message);
    CHECK(try_build(KF_INTERPOLATION_SLERP, tcb, 0, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TCB,
          "TCB on SLERP: %s", e.message);
    CHECK(try_build(KF_INTERPOLATION_SQUAD, NULL, 1, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_ARC_LENGTH,
          "arc length on SQUAD: %s", e.message);
    CHECK(try_build(KF_INTERPOLATION_STEP, NULL, 1, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_ARC_LENGTH,
          "arc length on STEP: %s", e.message);
    CHECK(try_build(KF_INTERPOLATION_LINEAR, NULL, 1, &e) == KF_OK, "arc length on LINEAR: %s",
          e.message);
    /* given intermediates: a squad's only, and each a rotation */
    double ab[24];
    for (int k = 0; k < 24; k++)
        ab[k] = k % 4 == 3 ? 1.0 : 0.0;
    CHECK(try_given(KF_INTERPOLATION_SQUAD, ab, &e) == KF_OK, "identity intermediates: %s",
          e.message);
    CHECK(try_given(KF_INTERPOLATION_SLERP, ab, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TANGENTS,
          "intermediates on SLERP: %s", e.message);
    ab[2 * 8 + 3] = 0.0; /* key 2's b: no rotation */
    CHECK(try_given(KF_INTERPOLATION_SQUAD, ab, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TANGENTS && e.item == 2,
          "a zero intermediate: field %d item %u: %s", e.field, e.item, e.message);
    ab[2 * 8 + 3] = 1.0;
    ab[1 * 8 + 5] = NAN; /* key 1's a */
    CHECK(try_given(KF_INTERPOLATION_SQUAD, ab, &e) == KF_ERROR_VALUE &&
              e.field == KF_FIELD_TANGENTS && e.item == 1,
          "a NaN intermediate: field %d item %u: %s", e.field, e.item, e.message);
}

/* ---- the loader's checks --------------------------------------------------------------- */

enum { L_SPLINE, L_LINEAR, L_SQUAD };             /* objects of the base file */
enum { W_TANGENTS = 10, W_TCB = 11, W_ARC = 12 }; /* kfb_sequence words */

static test_bytes loader_base(void)
{
    static const double times[3] = {0, 1, 2.5}, v3[9] = {0, 0, 0, 1, 2, 0, 3, 1, 1};
    static const double q[12] = {0, 0, 0, 1, 0, 0, 0.6, 0.8, 0.6, 0, 0, 0.8};
    static const double tcb[9] = {0.5, -0.25, 1, 0, 0, 0, -1, 0.75, 0.125};
    kf_sequence_desc spline = {
        "spline", KF_INTERPOLATION_SPLINE, KF_REPEAT_LOOP, 3, 3, 3, times, v3, 0, 2, tcb, 1, NULL};
    kf_sequence_desc linear = {
        "linear", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 3, 3, 3, times, v3, 0, 2, NULL, 0,
        NULL};
    kf_sequence_desc squad = {
        "squad", KF_INTERPOLATION_SQUAD, KF_REPEAT_CONSTANT, 3, 4, 3, times, q, 0, 2, NULL, 0,
        NULL};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_error e;
    if (kf_builder_add_sequence(b, &spline, &e) || kf_builder_add_sequence(b, &linear, &e) ||
        kf_builder_add_sequence(b, &squad, &e)) {
        fprintf(stderr, "loader base: %s\n", e.message);
        exit(1);
    }
    test_bytes out = {0};
    kf_encode_options o = {sizeof o, 0, 1}; /* plain floats: patchable */
    kf_builder_encode(b, &o, test_bytes_write, &out, NULL);
    kf_builder_destroy(b);
    return out;
}

typedef struct bad_field {
    const char *what;
    unsigned object;
    int word;      /* a record word to set, or -1 */
    unsigned from; /* ... to the same word of this object (or `value` if from == 99) */
    uint32_t value;
    int array;      /* a data word to set: 1 the spline's TCB array, 2 its table, 3 the
                       squad's intermediates (version 1: a, then b) */
    unsigned index; /* ... at this index, to `value`; index 99: every entry */
    kf_result expect;
} bad_field;

static const bad_field bad_fields[] = {
    {"TCB outside the data", L_SPLINE, W_TCB, 99, 0xFFFFFFF0u, 0, 0, KF_ERROR_REFERENCE},
    {"table outside the data", L_SPLINE, W_ARC, 99, 0x7FFFFFFFu, 0, 0, KF_ERROR_REFERENCE},
    {"TCB on a LINEAR sequence", L_LINEAR, W_TCB, L_SPLINE, 0, 0, 0, KF_ERROR_VALUE},
    {"table on a SQUAD sequence", L_SQUAD, W_ARC, L_SPLINE, 0, 0, 0, KF_ERROR_VALUE},
    {"tension 1.5", L_SPLINE, -1, 0, 0x3FC00000u /* 1.5 */, 1, 3, KF_ERROR_VALUE},
    {"bias -2", L_SPLINE, -1, 0, 0xC0000000u /* -2 */, 1, 8, KF_ERROR_VALUE},
    {"NaN continuity", L_SPLINE, -1, 0, 0x7FC00000u, 1, 1, KF_ERROR_VALUE},
    {"every TCB value 0", L_SPLINE, -1, 0, 0, 1, 99, KF_ERROR_VALUE},
    {"table not starting at 0", L_SPLINE, -1, 0, 0x3F800000u, 2, 0, KF_ERROR_VALUE},
    {"table decreasing", L_SPLINE, -1, 0, 0, 2, 5, KF_ERROR_VALUE},
    {"table NaN", L_SPLINE, -1, 0, 0x7FC00000u, 2, 24, KF_ERROR_VALUE},
    {"table infinite", L_SPLINE, -1, 0, 0x7F800000u, 2, 24, KF_ERROR_VALUE},
    {"a squad's a of length below 1", L_SQUAD, -1, 0, 0x3F000000u /* 0.5 */, 3, 7, KF_ERROR_VALUE},
    {"a squad's intermediates all 0", L_SQUAD, -1, 0, 0, 3, 99, KF_ERROR_VALUE},
};

static void loader_errors(void)
{
    test_bytes base = loader_base();
    kf_anim *anim;
    CHECK(kf_load_memory(base.data, base.size, NULL, &anim, NULL) == KF_OK, "loader base loads");
    if (anim) {
        kf_sequence_info info;
        kf_sequence_get_info(kf_anim_sequence(anim, 0), &info);
        CHECK(info.tcb && info.arc_length, "loader base: tcb %d arc_length %d", info.tcb,
              info.arc_length);
        kf_sequence_get_info(kf_anim_sequence(anim, 1), &info);
        CHECK(!info.tcb && !info.arc_length, "loader base: plain linear");
    }
    kf_anim_free(anim);
    craft_section s[3];
    craft_sections(base.data, base.size, s);
    for (size_t i = 0; i < sizeof bad_fields / sizeof bad_fields[0]; i++) {
        const bad_field *t = &bad_fields[i];
        unsigned char *f = malloc(base.size);
        memcpy(f, base.data, base.size);
        size_t body = craft_object(f, base.size, t->object);
        size_t spline = craft_object(f, base.size, L_SPLINE);
        if (t->word >= 0) {
            uint32_t v =
                t->from == 99
                    ? t->value
                    : craft_get(f + craft_object(f, base.size, t->from) + 4 * (size_t)t->word);
            craft_put(f + body + 4 * (size_t)t->word, v);
        } else {
            const size_t squad = craft_object(f, base.size, L_SQUAD);
            uint32_t at = t->array == 3
                              ? craft_get(f + squad + 4 * W_TANGENTS)
                              : craft_get(f + spline + 4 * (t->array == 1 ? W_TCB : W_ARC));
            unsigned n = t->array == 1 ? 9 : t->array == 2 ? 25 : 24;
            for (unsigned k = 0; k < n; k++)
                if (t->index == 99 || t->index == k)
                    craft_put(f + s[KFB_SECTION_DATA].stored + 4 * ((size_t)at + k), t->value);
        }
        craft_fix_crcs(f, base.size);
        kf_error err;
        kf_result r = kf_load_memory(f, base.size, NULL, &anim, &err);
        CHECK(r == t->expect && !anim && err.message[0], "%s: got %s, want %s (%s)", t->what,
              kf_result_name(r), kf_result_name(t->expect), err.message);
        if (r == KF_OK)
            kf_anim_free(anim);
        free(f);
    }
    free(base.data);
}

int main(void)
{
    CHECK(tcb_eberly_present, "no Eberly oracle at %s", tcb_eberly_path);
    for (unsigned i = 0; i < tcb_case_count; i++)
        run_case(&tcb_cases[i]);
    hand_derived();
    CHECK(m3g_oracle_present, "no M3G oracle at %s", m3g_oracle_path);
    zero_tcb_is_plain();
    given_intermediates();
    builder_errors();
    loader_errors();
    return kf_test_report("test_sequence_tcb");
}
