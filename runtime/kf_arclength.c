/* SPDX-License-Identifier: MIT */
/*
 * kf_arclength.c - distance along LINEAR and SPLINE curves (kf.h, "Arc
 * length"), and the distance tables the builder stores (kfb_format.h).
 *
 * Distance is defined step by step: segment k of the valid keys is cut into
 * KFB_ARC_LENGTH_STEPS equal steps of u, and the distance to (k, u) is the distance
 * to the start of u's step plus the integral of |P'| from there to u. Step
 * starts come from the stored table when there is one and are summed on the
 * spot otherwise, so both paths measure the same thing. Short steps keep the
 * quadrature accurate and give Newton's method a close first guess.
 */
#include <math.h>
#include <string.h>

#include "kf_private.h"

/* Relative accuracy asked of the quadrature, against a bound on |P'|. */
#define ARC_EPSILON 1e-9
/* Bisections of a step the adaptive quadrature may make, at most, and the
 * Gauss-Legendre evaluations one integral may spend: enough for the corner
 * |P'| has where P' passes through 0, and a bound whatever the input. */
#define ARC_MAX_DEPTH         32
#define ARC_BUDGET            4096
#define NEWTON_MAX_ITERATIONS 100

static const double gl_nodes[5] = {-0.90617984593866399280, -0.53846931010568309104, 0.0,
                                   0.53846931010568309104, 0.90617984593866399280};
static const double gl_weights[5] = {0.23692688505618908751, 0.47862867049936646804,
                                     0.56888888888888888889, 0.47862867049936646804,
                                     0.23692688505618908751};

typedef struct integrator {
    const kf_curve *curve;
    double tolerance; /* absolute error allowed per unit of u */
    int budget;       /* Gauss-Legendre evaluations left */
} integrator;

static double gauss5(integrator *in, double u0, double u1)
{
    const double half = 0.5 * (u1 - u0), mid = 0.5 * (u0 + u1);
    double sum = 0.0;
    for (int i = 0; i < 5; i++)
        sum += gl_weights[i] * kf_curve_speed(in->curve, mid + half * gl_nodes[i]);
    in->budget--;
    return sum * half;
}

/* Integral of |P'| over [u0, u1], given the 5-point estimate `whole`: halves
 * until the halves agree with the whole (their error is then far smaller). */
static double adapt(integrator *in, double u0, double u1, double whole, int depth)
{
    const double mid = 0.5 * (u0 + u1);
    const double left = gauss5(in, u0, mid), right = gauss5(in, mid, u1);
    const double sum = left + right;
    if (depth == 0 || in->budget <= 0 || fabs(sum - whole) <= in->tolerance * (u1 - u0))
        return sum;
    return adapt(in, u0, mid, left, depth - 1) + adapt(in, mid, u1, right, depth - 1);
}

static double norm(const float *v, uint32_t n)
{
    double sum = 0.0;
    for (uint32_t k = 0; k < n; k++)
        sum += (double)v[k] * v[k];
    return sqrt(sum);
}

/* An upper bound on |P'(u)| over the segment: the Hermite basis derivatives
 * stay within 1.5 (values) and 1 (tangents) on [0, 1]. */
static double speed_bound(const kf_curve *curve)
{
    double d = 0.0;
    for (uint32_t k = 0; k < curve->components; k++) {
        double x = (double)curve->b[k] - curve->a[k];
        d += x * x;
    }
    d = sqrt(d);
    if (!curve->spline)
        return d;
    return 1.5 * d + norm(curve->ta, curve->components) + norm(curve->tb, curve->components);
}

/* Length of the segment's curve between u0 <= u1. */
static double integrate(const kf_curve *curve, double bound, double u0, double u1)
{
    if (!(u1 > u0) || bound == 0.0)
        return 0.0;
    if (!curve->spline) /* constant speed */
        return kf_curve_speed(curve, 0.0) * (u1 - u0);
    integrator in = {curve, ARC_EPSILON * bound, ARC_BUDGET};
    return adapt(&in, u0, u1, gauss5(&in, u0, u1), ARC_MAX_DEPTH);
}

/* ---- sequences as chains of steps ----------------------------------------- */

static int has_length(const struct kf_sequence *s)
{
    return s && (s->interpolation == KFB_INTERP_LINEAR || s->interpolation == KFB_INTERP_SPLINE);
}

static uint32_t segment_count(const struct kf_sequence *s)
{
    return s->repeat == KFB_REPEAT_LOOP ? s->valid_count : s->valid_count - 1;
}

/* One segment ready for integration. */
typedef struct segment {
    kf_curve curve;
    double bound;
    int travelled; /* 0: zero duration, a jump of length 0 */
} segment;

static void segment_of(const struct kf_sequence *s, uint32_t k, segment *c)
{
    kf_curve_of(s, k, &c->curve);
    c->bound = speed_bound(&c->curve);
    c->travelled = kf_sequence_segment_duration(s, k) > 0.0;
}

static double step_u(uint32_t j)
{
    return (double)j / KFB_ARC_LENGTH_STEPS;
}

static double step_length(const segment *c, uint32_t j)
{
    return c->travelled ? integrate(&c->curve, c->bound, step_u(j), step_u(j + 1)) : 0.0;
}

void kf_arc_length_fill(const struct kf_sequence *s, float *table)
{
    const uint32_t segments = segment_count(s);
    double total = 0.0;
    table[0] = 0.0f;
    for (uint32_t k = 0; k < segments; k++) {
        segment c;
        segment_of(s, k, &c);
        for (uint32_t j = 0; j < KFB_ARC_LENGTH_STEPS; j++) {
            total += step_length(&c, j);
            table[(size_t)k * KFB_ARC_LENGTH_STEPS + j + 1] = (float)total;
        }
    }
}

/* Distance from the first valid key to the start of step m (global index
 * k * KFB_ARC_LENGTH_STEPS + j), m <= steps. */
static double distance_to_step(const struct kf_sequence *s, uint64_t m)
{
    if (s->arc_length)
        return s->arc_length[m];
    double total = 0.0;
    for (uint32_t k = 0; (uint64_t)k * KFB_ARC_LENGTH_STEPS < m; k++) {
        const uint64_t first = (uint64_t)k * KFB_ARC_LENGTH_STEPS;
        segment c;
        segment_of(s, k, &c);
        for (uint32_t j = 0; j < KFB_ARC_LENGTH_STEPS && first + j < m; j++)
            total += step_length(&c, j);
    }
    return total;
}

static double total_length(const struct kf_sequence *s)
{
    return distance_to_step(s, (uint64_t)segment_count(s) * KFB_ARC_LENGTH_STEPS);
}

/* The step holding distance d, 0 <= d < total: the m with
 * start(m) <= d < start(m + 1), and those two distances. */
static void find_step(const struct kf_sequence *s, double d, uint64_t *m, double *start,
                      double *end)
{
    const uint64_t steps = (uint64_t)segment_count(s) * KFB_ARC_LENGTH_STEPS;
    if (s->arc_length) {
        const float *t = s->arc_length;
        uint64_t lo = 0, hi = steps; /* t[lo] <= d < t[hi] */
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (t[mid] <= d)
                lo = mid;
            else
                hi = mid;
        }
        *m = lo;
        *start = t[lo];
        *end = t[lo + 1];
        return;
    }
    double total = 0.0;
    for (uint32_t k = 0; k < segment_count(s); k++) {
        segment c;
        segment_of(s, k, &c);
        for (uint32_t j = 0; j < KFB_ARC_LENGTH_STEPS; j++) {
            double next = total + step_length(&c, j);
            if (d < next) {
                *m = (uint64_t)k * KFB_ARC_LENGTH_STEPS + j;
                *start = total;
                *end = next;
                return;
            }
            total = next;
        }
    }
    /* Rounding put d at the very end: the last step, at its end. */
    *m = steps - 1;
    *start = *end = total;
}

/* The u in step j of curve c whose distance from the step's start is r:
 * Newton's method, bracketed; a step that would leave the bracket (or a
 * zero speed) bisects instead. */
static double invert_step(const segment *c, uint32_t j, double r, double span)
{
    const double u0 = step_u(j), u1 = step_u(j + 1);
    double lo = u0, hi = u1;
    if (!(r > 0.0))
        return u0;
    double u = span > 0.0 && r < span ? u0 + (u1 - u0) * (r / span) : 0.5 * (u0 + u1);
    const double tolerance = 1e-12 * (span > 0.0 ? span : r);
    for (int i = 0; i < NEWTON_MAX_ITERATIONS; i++) {
        double f = integrate(&c->curve, c->bound, u0, u) - r;
        if (fabs(f) <= tolerance)
            break;
        if (f < 0.0)
            lo = u;
        else
            hi = u;
        if (hi - lo <= 1e-15)
            break;
        double speed = kf_curve_speed(&c->curve, u);
        double next = speed > 0.0 ? u - f / speed : lo;
        u = next > lo && next < hi ? next : 0.5 * (lo + hi);
    }
    return u;
}

/* ---- public ------------------------------------------------------------- */

kf_result kf_sequence_length(const kf_sequence *s, double *length)
{
    if (!length)
        return KF_ERROR_ARGUMENT;
    *length = 0.0;
    if (!has_length(s))
        return KF_ERROR_ARGUMENT;
    *length = total_length(s);
    return KF_OK;
}

kf_result kf_sequence_segment_length(const kf_sequence *s, uint32_t key, double *length)
{
    if (!length)
        return KF_ERROR_ARGUMENT;
    *length = 0.0;
    if (!has_length(s) || key >= s->key_count)
        return KF_ERROR_ARGUMENT;
    uint32_t k = kf_stored_key(s, key);
    if (k >= s->valid_count)
        return KF_ERROR_ARGUMENT;
    if (k >= segment_count(s))
        return KF_OK;
    if (s->arc_length) {
        *length = (double)s->arc_length[((size_t)k + 1) * KFB_ARC_LENGTH_STEPS] -
                  s->arc_length[(size_t)k * KFB_ARC_LENGTH_STEPS];
        return KF_OK;
    }
    segment c;
    segment_of(s, k, &c);
    for (uint32_t j = 0; j < KFB_ARC_LENGTH_STEPS; j++)
        *length += step_length(&c, j);
    return KF_OK;
}

kf_result kf_sequence_distance(const kf_sequence *s, double time, double *distance)
{
    if (!distance)
        return KF_ERROR_ARGUMENT;
    *distance = 0.0;
    if (!has_length(s))
        return KF_ERROR_ARGUMENT;
    kf_curve_position pos;
    kf_curve_locate(s, time, NULL, &pos);
    if (!pos.on_curve) {
        /* At the start of the held key's segment; CONSTANT holds the last
         * valid key from t_last on, which starts no segment: the total. */
        *distance = distance_to_step(s, (uint64_t)pos.key * KFB_ARC_LENGTH_STEPS);
        return KF_OK;
    }
    uint32_t j = (uint32_t)(pos.u * KFB_ARC_LENGTH_STEPS);
    if (j >= KFB_ARC_LENGTH_STEPS)
        j = KFB_ARC_LENGTH_STEPS - 1;
    segment c;
    segment_of(s, pos.key, &c);
    *distance = distance_to_step(s, (uint64_t)pos.key * KFB_ARC_LENGTH_STEPS + j) +
                integrate(&c.curve, c.bound, step_u(j), pos.u);
    return KF_OK;
}

static void held_key(const struct kf_sequence *s, uint32_t key, float *out, double *time)
{
    float buf[KF_BLOCK_COMPONENTS] = {0};
    memcpy(out, kf_key_floats(s, s->values, key, buf), s->components * sizeof *out);
    if (time)
        *time = s->times[key];
}

kf_result kf_sequence_sample_distance(const kf_sequence *s, double d, float *out, double *time)
{
    if (!s || !out) {
        if (time)
            *time = 0.0;
        return KF_ERROR_ARGUMENT;
    }
    if (!has_length(s)) {
        memset(out, 0, s->components * sizeof *out);
        if (time)
            *time = 0.0;
        return KF_ERROR_ARGUMENT;
    }
    const uint32_t last = s->valid_count - 1;
    const double total = total_length(s);
    if (isnan(d) || !(total > 0.0)) {
        held_key(s, 0, out, time);
        return KF_OK;
    }
    if (s->repeat == KFB_REPEAT_LOOP) {
        if (isinf(d)) {
            held_key(s, 0, out, time);
            return KF_OK;
        }
        if (!(d >= 0.0 && d < total)) {
            d = fmod(d, total);
            if (d < 0.0)
                d += total;
            if (!(d < total)) /* -tiny + total rounded up */
                d = 0.0;
        }
    } else if (d < 0.0) {
        held_key(s, 0, out, time);
        return KF_OK;
    } else if (d >= total) {
        held_key(s, last, out, time);
        return KF_OK;
    }

    uint64_t m;
    double start, end;
    find_step(s, d, &m, &start, &end);
    const uint32_t k = (uint32_t)(m / KFB_ARC_LENGTH_STEPS);
    const uint32_t j = (uint32_t)(m % KFB_ARC_LENGTH_STEPS);
    segment c;
    segment_of(s, k, &c);
    double u = invert_step(&c, j, d - start, end - start);
    kf_curve_eval(&c.curve, 0, u, 1.0, out);
    if (time)
        *time = s->times[k] + u * kf_sequence_segment_duration(s, k);
    return KF_OK;
}
