/* SPDX-License-Identifier: MIT */
/*
 * test_sequence_arc_length.c - distance along LINEAR and SPLINE sequences, and their
 * derivatives, through the C API (builder -> bytes -> loader).
 *
 *   - segment and total lengths against fine polylines of the independent
 *     reference (tcb_reference.py), relative error < 1e-5, with and without
 *     stored distance tables; Eberly's own 5-point estimates, loosely;
 *   - sampling by distance: the returned time's distance along the curve,
 *     measured here by a fine polyline of the stored curve, matches the
 *     request within 1e-5 of the total length; the value is the sequence's
 *     value at that time; kf_sequence_distance inverts it;
 *   - velocity and acceleration against finite differences of the curve;
 *   - the distance domain: CONSTANT clamps, LOOP wraps, jumps and held
 *     values, argument errors.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_private.h"
#include "kf_math.h"
#include "kf_test.h"
#include "tcb_oracle.h"
#include "test_util.h"

#define POLY_PIECES 4000

/* The worst errors seen, printed at the end (the bounds are the checks'). */
static double worst_length, worst_distance, worst_eberly;

/* ---- the stored curve in double, for polylines and finite differences -------------- */

static void curve_point(const kf_sequence *s, uint32_t k, double u, double *p)
{
    const uint32_t c = s->components, j = k + 1 < s->valid_count ? k + 1 : 0;
    double h[4] = {1.0 - u, u, 0.0, 0.0};
    if (s->interpolation == KFB_INTERP_SPLINE)
        kf_hermite_basis(u, h);
    for (uint32_t i = 0; i < c; i++) {
        p[i] = h[0] * kf_key_float(s, s->values, k, i) + h[1] * kf_key_float(s, s->values, j, i);
        if (s->interpolation == KFB_INTERP_SPLINE)
            p[i] += h[2] * kf_key_float(s, s->tangent_out, k, i) +
                    h[3] * kf_key_float(s, s->tangent_in, j, i);
    }
}

static double dist(const double *p, const double *q, uint32_t n)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++)
        sum += (p[i] - q[i]) * (p[i] - q[i]);
    return sqrt(sum);
}

/* Chord length of segment k from u = 0 to u (0 for a jump). */
static double polyline(const kf_sequence *s, uint32_t k, double u)
{
    if (!(kf_sequence_segment_duration(s, k) > 0.0) || u <= 0.0)
        return 0.0;
    double p[TCB_MAX_COMPONENTS], q[TCB_MAX_COMPONENTS], sum = 0.0;
    curve_point(s, k, 0.0, p);
    const int pieces = (int)ceil(POLY_PIECES * u);
    for (int i = 1; i <= pieces; i++) {
        curve_point(s, k, u * i / pieces, q);
        sum += dist(p, q, s->components);
        memcpy(p, q, sizeof p);
    }
    return sum;
}

/* Distance along the curve to sequence time t (t inside the first period). */
static double polyline_to_time(const kf_sequence *s, double t)
{
    kf_curve_position pos;
    kf_curve_locate(s, t, NULL, &pos);
    double d = 0.0;
    for (uint32_t k = 0; k < pos.key; k++)
        d += polyline(s, k, 1.0);
    return pos.on_curve ? d + polyline(s, pos.key, pos.u) : d;
}

/* ---- lengths ---------------------------------------------------------------------------- */

static void check_lengths(const tcb_case *c, const kf_sequence *s, const char *how)
{
    double total;
    CHECK(kf_sequence_length(s, &total) == KF_OK, "%s: length", c->name);
    worst_length = fmax(worst_length, fabs(total - c->length) / c->length);
    CHECK(fabs(total - c->length) <= 1e-5 * c->length, "%s %s: total length %.12g, polyline %.12g",
          c->name, how, total, c->length);
    for (unsigned j = 0; j < c->segment_count; j++) {
        unsigned key = (c->first + j) % c->key_count;
        double len;
        CHECK(kf_sequence_segment_length(s, key, &len) == KF_OK, "%s: segment length", c->name);
        worst_length = fmax(worst_length,
                            fabs(len - c->segment_lengths[j]) / fmax(c->segment_lengths[j], 1e-3));
        CHECK(fabs(len - c->segment_lengths[j]) <= 1e-5 * fmax(c->segment_lengths[j], 1e-3),
              "%s %s: segment %u length %.12g, polyline %.12g", c->name, how, j, len,
              c->segment_lengths[j]);
    }
    if (c->eberly_length > 0) {
        /* Eberly's domain is segments 1 .. N-3; he integrates each with one
         * 5-point Gauss-Legendre rule in float, a rougher estimate. */
        double sum = 0.0, len;
        for (unsigned key = 1; key + 2 < c->key_count; key++) {
            kf_sequence_segment_length(s, key, &len);
            sum += len;
        }
        worst_eberly = fmax(worst_eberly, fabs(sum - c->eberly_length) / c->eberly_length);
        CHECK(fabs(sum - c->eberly_length) <= 1e-3 * c->eberly_length,
              "%s: length on Eberly's domain %.9g, his estimate %.9g", c->name, sum,
              c->eberly_length);
    }
}

/* ---- sampling by distance ------------------------------------------------------------------ */

static void check_sampling(const tcb_case *c, const kf_sequence *s, const kf_sequence *plain)
{
    double total;
    kf_sequence_length(s, &total);
    const int loop = c->repeat == KF_REPEAT_LOOP;
    float v[TCB_MAX_COMPONENTS], w[TCB_MAX_COMPONENTS];
    for (int i = 0; i <= 40; i++) {
        const double d = total * i / 40.0;
        double t, t_plain, back;
        (void)t_plain;
        CHECK(kf_sequence_sample_distance(s, d, v, &t) == KF_OK, "%s: sample_distance", c->name);
        kf_sequence_sample(s, t, NULL, w);
        for (unsigned k = 0; k < c->components; k++)
            CHECK(
                kf_test_close(v[k], w[k], 1e-5 * fmax(1.0, c->scale)),
                "%s: value at distance %.9g (%.9g) differs from the value at its time %.9g (%.9g)",
                c->name, d, v[k], t, w[k]);
        if (!(d < total) && !loop) {
            CHECK(t == s->times[s->valid_count - 1], "%s: the end of the curve at t=%.9g", c->name,
                  t);
            continue;
        }
        double measured = polyline_to_time(s, t);
        if (loop && i == 40)
            measured += total; /* one full period wraps to its start */
        worst_distance = fmax(worst_distance, fabs(measured - d) / total);
        CHECK(fabs(measured - d) <= 1e-5 * total,
              "%s: distance %.12g gave t=%.12g, %.12g along the curve (error %.3g of the length)",
              c->name, d, t, measured, fabs(measured - d) / total);
        kf_sequence_distance(s, t, &back);
        CHECK(fabs(back - (loop && i == 40 ? 0.0 : d)) <= 1e-9 * total,
              "%s: kf_sequence_distance(%.12g) = %.12g, not %.12g", c->name, t, back, d);
        /* Without tables: the same point, to the float32 precision of the
         * table (points, not times: where the curve is slow, a small
         * difference in distance is a large one in time). A whole period
         * is left out: one table's period may end a float32 rounding before
         * the other's, and a loop that jumps back there differs by the jump. */
        kf_sequence_sample_distance(plain, d, w, &t_plain);
        for (unsigned k = 0; k < c->components && !(loop && i == 40); k++)
            CHECK(fabs(w[k] - v[k]) <= 1e-5 * fmax(1.0, total), "%s: tables move the point at %.9g",
                  c->name, d);
        for (int periods = -2; loop && periods <= 3; periods += 5) {
            /* Whole periods either way land on the same point. */
            double t2;
            kf_sequence_sample_distance(s, d + periods * total, w, &t2);
            for (unsigned k = 0; k < c->components; k++)
                CHECK(fabs(w[k] - v[k]) <= 1e-5 * fmax(1.0, total),
                      "%s: d %+d periods: %.9g vs %.9g", c->name, periods, w[k], v[k]);
        }
    }
    double t;
    kf_sequence_sample_distance(s, -1.0, v, &t);
    if (!loop) {
        CHECK(t == s->times[0] && v[0] == kf_key_float(s, s->values, 0, 0), "%s: before the start",
              c->name);
        kf_sequence_sample_distance(s, total * 1.5, v, &t);
        CHECK(t == s->times[s->valid_count - 1], "%s: past the end", c->name);
    }
    kf_sequence_sample_distance(s, NAN, v, &t);
    CHECK(t == s->times[0], "%s: NaN distance", c->name);
}

/* ---- derivatives by finite differences ------------------------------------------------------- */

static void curve_at_time(const kf_sequence *s, double t, double *p)
{
    kf_curve_position pos;
    kf_curve_locate(s, t, NULL, &pos);
    curve_point(s, pos.key, pos.u, p);
}

static void check_derivatives(const tcb_case *c, const kf_sequence *s)
{
    const double h = 1e-4;
    for (unsigned i = 0; i < c->sample_count; i++) {
        double t = c->samples[i].t;
        kf_curve_position at, lo, hi;
        kf_curve_locate(s, t - h, NULL, &lo);
        kf_curve_locate(s, t, NULL, &at);
        kf_curve_locate(s, t + h, NULL, &hi);
        /* Only inside one segment: derivatives jump at keys. */
        if (!at.on_curve || !lo.on_curve || !hi.on_curve || lo.key != at.key || hi.key != at.key)
            continue;
        double pm[TCB_MAX_COMPONENTS], p0[TCB_MAX_COMPONENTS], pp[TCB_MAX_COMPONENTS];
        curve_at_time(s, t - h, pm);
        curve_at_time(s, t, p0);
        curve_at_time(s, t + h, pp);
        float v[TCB_MAX_COMPONENTS], a[TCB_MAX_COMPONENTS];
        kf_sequence_velocity(s, t, NULL, v);
        kf_sequence_acceleration(s, t, NULL, a);
        for (unsigned k = 0; k < c->components; k++) {
            double fd1 = (pp[k] - pm[k]) / (2 * h), fd2 = (pp[k] - 2 * p0[k] + pm[k]) / (h * h);
            CHECK(kf_test_close(v[k], fd1, 1e-5 * fmax(1.0, c->scale)),
                  "%s: velocity at %.9g [%u]: %.9g, differences %.9g", c->name, t, k, v[k], fd1);
            CHECK(kf_test_close(a[k], fd2, 1e-4 * fmax(1.0, c->scale)),
                  "%s: acceleration at %.9g [%u]: %.9g, differences %.9g", c->name, t, k, a[k],
                  fd2);
        }
    }
}

static void run_case(const tcb_case *c)
{
    kf_anim *tabled = tcb_case_load(c, 1), *plain = tcb_case_load(c, 0);
    CHECK(tabled && plain, "%s: build, encode and load", c->name);
    if (tabled && plain) {
        const kf_sequence *s = kf_anim_sequence(tabled, 0), *p = kf_anim_sequence(plain, 0);
        kf_sequence_info info;
        kf_sequence_get_info(s, &info);
        CHECK(info.arc_length, "%s: tables stored", c->name);
        kf_sequence_get_info(p, &info);
        CHECK(!info.arc_length, "%s: no tables asked for", c->name);
        check_lengths(c, s, "with tables");
        check_lengths(c, p, "without tables");
        check_sampling(c, s, p);
        check_sampling(c, p, s);
        check_derivatives(c, p);
    }
    kf_anim_free(tabled);
    kf_anim_free(plain);
}

/* ---- hand-made edge cases --------------------------------------------------------------------- */

static kf_anim *build_one(const kf_sequence_desc *d)
{
    kf_anim *anim = test_load_sequence(d);
    CHECK(anim != NULL, "%s: build, encode and load", d->name);
    return anim;
}

static void edge_cases(void)
{
    /* A 3-4-5 walk with a stop: keys 1 and 2 are equal, so the curve stands
     * still from t = 2 to t = 3, then jumps at t = 4 (coincident keys). */
    static const double t[5] = {1, 2, 3, 4, 4}, v[10] = {0, 0, 3, 4, 3, 4, 3, 16, 6, 20};
    for (int arc = 0; arc < 2; arc++) {
        kf_sequence_desc d = {
            "walk", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 4, 2, 5, t, v, 0, 4, NULL, arc,
            NULL};
        kf_anim *anim = build_one(&d);
        if (!anim)
            continue;
        const kf_sequence *s = kf_anim_sequence(anim, 0);
        double len, time, dd;
        float out[2];
        kf_sequence_length(s, &len);
        CHECK(len == 17.0, "walk: length %.17g, want 5 + 0 + 12 (the jump is not travelled)", len);
        kf_sequence_segment_length(s, 1, &len);
        CHECK(len == 0.0, "walk: standing still %.17g", len);
        kf_sequence_segment_length(s, 3, &len);
        CHECK(len == 0.0, "walk: the jump %.17g", len);
        kf_sequence_segment_length(s, 4, &len);
        CHECK(len == 0.0, "walk: CONSTANT's last key starts no segment %.17g", len);
        kf_sequence_sample_distance(s, 2.5, out, &time);
        CHECK(time == 1.5 && out[0] == 1.5f && out[1] == 2.0f, "walk: halfway %.17g", time);
        /* Distance 5 is reached at t = 2 and held until 3: the latest time. */
        kf_sequence_sample_distance(s, 5.0, out, &time);
        CHECK(time == 3.0 && out[0] == 3.0f && out[1] == 4.0f, "walk: at 5: t=%.17g", time);
        kf_sequence_sample_distance(s, 11.0, out, &time);
        CHECK(fabs(time - 3.5) < 1e-12 && fabs(out[1] - 10.0f) < 1e-5, "walk: at 11: t=%.17g",
              time);
        kf_sequence_sample_distance(s, 17.0, out, &time);
        CHECK(time == 4.0 && out[0] == 6.0f && out[1] == 20.0f, "walk: the end %.17g", time);
        kf_sequence_distance(s, 2.5, &dd);
        CHECK(dd == 5.0, "walk: distance while standing %.17g", dd);
        kf_sequence_distance(s, 0.0, &dd);
        CHECK(dd == 0.0, "walk: distance before the start %.17g", dd);
        kf_sequence_distance(s, 10.0, &dd);
        CHECK(dd == 17.0, "walk: distance after the end %.17g", dd);
        CHECK(kf_sequence_segment_length(s, 7, &len) == KF_ERROR_ARGUMENT, "walk: key 7");
        kf_anim_free(anim);
    }

    /* Outside the valid range: no segment. One valid key: length 0. */
    static const double t3[3] = {0, 1, 2}, v3[3] = {5, 6, 8};
    kf_sequence_desc one = {
        "one", KF_INTERPOLATION_SPLINE, KF_REPEAT_LOOP, 2, 1, 3, t3, v3, 1, 1, NULL, 1, NULL};
    kf_anim *anim = build_one(&one);
    if (anim) {
        const kf_sequence *s = kf_anim_sequence(anim, 0);
        double len, time;
        float out;
        CHECK(kf_sequence_segment_length(s, 0, &len) == KF_ERROR_ARGUMENT, "one: invalid key");
        CHECK(kf_sequence_length(s, &len) == KF_OK && len == 0.0, "one: length %g", len);
        CHECK(kf_sequence_sample_distance(s, 3.0, &out, &time) == KF_OK && out == 6.0f &&
                  time == 1.0,
              "one: %g at %g", out, time);
        kf_anim_free(anim);
    }

    /* Rotations have no length here. */
    static const double q[8] = {0, 0, 0, 1, 0, 0, 1, 0};
    kf_sequence_desc rot = {
        "rot", KF_INTERPOLATION_SQUAD, KF_REPEAT_LOOP, 2, 4, 2, t3, q, 0, 1, NULL, 0, NULL};
    anim = build_one(&rot);
    if (anim) {
        const kf_sequence *s = kf_anim_sequence(anim, 0);
        double x = 1, time = 1;
        float out[4] = {1, 1, 1, 1};
        CHECK(kf_sequence_length(s, &x) == KF_ERROR_ARGUMENT && x == 0.0, "rot: length");
        CHECK(kf_sequence_distance(s, 0.5, &x) == KF_ERROR_ARGUMENT && x == 0.0, "rot: distance");
        CHECK(kf_sequence_sample_distance(s, 0.5, out, &time) == KF_ERROR_ARGUMENT &&
                  out[3] == 0.0f && time == 0.0,
              "rot: sample_distance");
        CHECK(kf_sequence_velocity(s, 0.5, NULL, out) == KF_ERROR_ARGUMENT && out[2] == 0.0f,
              "rot: velocity");
        kf_anim_free(anim);
    }
}

int main(void)
{
    unsigned measured = 0;
    for (unsigned i = 0; i < tcb_case_count; i++) {
        if (tcb_cases[i].length < 0)
            continue;
        run_case(&tcb_cases[i]);
        measured++;
    }
    CHECK(measured >= 6, "only %u cases with lengths", measured);
    edge_cases();
    printf("test_sequence_arc_length: lengths vs polylines: max relative error %.2g (bound 1e-5)\n",
           worst_length);
    printf("test_sequence_arc_length: sampling by distance: max error %.2g of the length (bound "
           "1e-5)\n",
           worst_distance);
    printf(
        "test_sequence_arc_length: Eberly's 5-point estimates differ by up to %.2g (bound 1e-3)\n",
        worst_eberly);
    return kf_test_report("test_sequence_arc_length");
}
