/* SPDX-License-Identifier: MIT */
/*
 * kf_sample.h - the sampling kernels of M3G KeyframeSequences, shared by
 * kf_sequence_sample and the player (static inline: a player evaluates every
 * track of a group at one segment, in one loop).
 *
 * Sampling is two steps: kf_locate maps a time to a segment (docs/math.md
 * §0, §1.3), kf_evaluate interpolates one sequence there (§1.4). This is the
 * fast path: float arithmetic, and slerp through the arcs the writer stored
 * (formats/kfb_format.h) with sin(x)/x as a polynomial, so that no libm call
 * is made. The exact path, kf_sequence_sample_exact (kf_sequence.c: double,
 * libm), is the reference; tests/test_sequence_accuracy.c measures the
 * difference on every path (documented there and in README.md).
 */
#ifndef KF_SAMPLE_H
#define KF_SAMPLE_H

#include <float.h>
#include <math.h>
#include <string.h>

#include "kf_private.h"
#include "kf_math.h"

/* The kernels below run in the player's loop over a group of tracks, so
 * they must inline there. */
#define KF_KERNEL KF_ALWAYS_INLINE

/* Where a sequence is: the value of key i (hold), or between keys i and j
 * (j = i + 1, or 0 for the LOOP wrap) at fraction u. */
typedef struct kf_segment {
    uint32_t i, j;
    double u;
    int hold;
} kf_segment;

/* LOOP: t' = t_0 + ((t - t_0) mod D), floored, in [t_0, t_0 + D). fmod is
 * exact, so positions far from zero loop without drift; a time already in
 * the period (playback's usual case) skips it. */
static inline double kf_loop_time(double t, double t0, double duration)
{
    double x = t - t0;
    if (x >= 0.0 && x < duration)
        return t;
    double r = fmod(x, duration);
    if (r < 0.0) {
        r += duration;
        if (r >= duration) /* -tiny + D rounded up to D */
            r = 0.0;
    }
    return t0 + r;
}

/* Whether key i is the last with times[i] <= t. */
static inline int kf_is_segment(const float *times, uint32_t count, double t, uint32_t i)
{
    return times[i] <= t && (i + 1 >= count || times[i + 1] > t);
}

/* The last key i with times[i] <= t, given times[0] <= t. Coincident keys
 * thus resolve to the later one. The cursor's key and its successor are
 * tried first, then the key where t would be if the keys were evenly
 * spaced (baked animation is), then a binary search (never a scan from the
 * start): a jump to a random time costs one division instead of a chain of
 * log2(count) dependent loads, on which the whole frame waits. */
static inline uint32_t kf_find_segment(const float *times, uint32_t count, double t, uint32_t hint)
{
    if (hint < count && times[hint] <= t) {
        if (hint + 1 >= count || times[hint + 1] > t)
            return hint;
        if (hint + 2 >= count || times[hint + 2] > t)
            return hint + 1;
    }
    const double span = (double)times[count - 1] - times[0];
    if (span > 0.0) {
        const double at = (t - times[0]) / span * (count - 1);
        const uint32_t guess = !(at > 0.0) ? 0 : at >= count - 1 ? count - 1 : (uint32_t)at;
        if (kf_is_segment(times, count, t, guess))
            return guess;
    }
    /* times[lo] <= t and the answer is in [lo, lo + n). The halving does
     * not depend on the comparison, which becomes a conditional move: a
     * jump to a random time costs no mispredicted branches. */
    uint32_t lo = 0, n = count;
    while (n > 1) {
        const uint32_t half = n / 2;
        lo = times[lo + half] <= t ? lo + half : lo;
        n -= half;
    }
    return lo;
}

/* Key times are float32, and a time is placed among them at their
 * precision: the segment is chosen by the time rounded to the nearest
 * float32, so that a time written as a key's own decimal (0.458 for the key
 * stored as 0.458f) plays that key, as glTF asks, while the fraction inside
 * the segment keeps the double time. A LOOP time is wrapped in double
 * first, so positions far from zero lose nothing. */
static inline double kf_key_precision(double t)
{
    return fabs(t) <= FLT_MAX ? (double)(float)t : t;
}

/* The segment of sequence time t; *cursor is the search hint, updated. */
static inline void kf_locate(const struct kf_sequence *s, double t, uint32_t *cursor,
                             kf_segment *seg)
{
    const uint32_t count = s->valid_count;
    const float *times = s->times;
    const double t0 = times[0];
    seg->i = seg->j = 0;
    seg->u = 0.0;
    seg->hold = 1;
    if (count == 1 || isnan(t))
        return;
    double placed;
    if (s->repeat == KFB_REPEAT_LOOP) {
        t = kf_loop_time(t, t0, s->duration);
        if (isnan(t)) /* an infinite time has no place in the period */
            return;
        placed = kf_key_precision(t);
        if (placed >= t0 + s->duration) /* rounded up to the period's end: its start */
            return;
    } else if ((placed = kf_key_precision(t)) < t0) {
        return;
    } else if (placed >= times[count - 1]) {
        seg->i = count - 1;
        return;
    }
    const uint32_t i = kf_find_segment(times, count, placed, *cursor);
    const uint32_t j = i + 1 < count ? i + 1 : 0;
    const double length = j ? (double)times[j] - times[i] : s->duration - times[i] + t0;
    *cursor = i;
    seg->i = i;
    seg->j = j;
    if (placed == times[i] || !(length > 0.0))
        return;
    /* placed > times[i] and t is within half a float step of it, so t is
     * past the key too: u is in (0, 1]. */
    seg->u = (t - times[i]) / length;
    seg->hold = 0;
}

/* ---- slerp without inverse trigonometry -------------------------------- */

/* sin(x)/x for |x| <= pi/2, as a polynomial in z = x^2: interpolated at the
 * Chebyshev nodes of z in [0, (pi/2)^2], these float coefficients are within
 * 1.3e-8 relative (tests/test_sequence_accuracy.c measures the whole slerp).
 * The constant is exactly 1, so the arc {0, 1} gives M3G's linear weights. */
static inline float kf_sinc(float z)
{
    return 1.0f + z * (-0.166666582f +
                       z * (0.00833304971f + z * (-0.000198090172f + z * 2.60510774e-06f)));
}

/* The slerp weights at u along an arc {theta, theta / sin theta} with
 * 0 <= theta <= pi/2: sin((1-u) theta)/sin theta and sin(u theta)/sin theta,
 * written as (1-u) r sinc(((1-u) theta)^2) so that the arc {0, 1} gives the
 * linear weights M3G uses for nearly equal keys. */
static inline void kf_arc_weights(float theta, float r, float u, float w[2])
{
    const float v = 1.0f - u, x0 = v * theta, x1 = u * theta;
    w[0] = v * r * kf_sinc(x0 * x0);
    w[1] = u * r * kf_sinc(x1 * x1);
}

static inline void kf_quat_combine(const float *restrict a, const float *restrict b,
                                   const float w[2], float *restrict out)
{
    const float wa = w[0], wb = w[1];
    for (int k = 0; k < 4; k++)
        out[k] = wa * a[k] + wb * b[k];
}

/* The general slerp (kf_qslerp, double) on float quaternions: arcs longer
 * than a quarter turn and antipodal keys, which the polynomial does not
 * cover. Rare in animation keyed densely enough to look smooth. */
void kf_slerp_general(const float *a, const float *b, float u, float *out);
/* The general squad, all in double: for segments with such an arc, where
 * the last slerp is ill-conditioned enough that float intermediates would
 * cost accuracy (kf_sequence.c). */
void kf_squad_general(const struct kf_sequence *s, size_t i, size_t j, double u, float *out);

/* acos(c) / sqrt(1 - c) for 0 <= c <= 1: Abramowitz & Stegun 4.4.46, whose
 * acos is within 2e-8. Split off sqrt(1 - c) so that theta and sin theta
 * share it and theta / sin theta stays exact as theta -> 0. */
static inline float kf_acos_over_sqrt(float c)
{
    return 1.5707963050f +
           c * (-0.2145988016f +
                c * (0.0889789874f +
                     c * (-0.0501743046f +
                          c * (0.0308918810f +
                               c * (-0.0170881256f + c * (0.0066700901f + c * -0.0012624911f))))));
}

/* How a slerp played: along the linear arc (nearly equal keys: M3G's
 * weights), along a polynomial arc (0 < theta <= pi/2: between unit keys
 * the result is unit), or not at all (a.b < 0: the caller takes the
 * general path). */
enum { KF_SLERP_GENERAL = 0, KF_SLERP_LINEAR = 1, KF_SLERP_ARC = 2 };

static inline float kf_quat_dot(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* Which case a slerp of quaternions whose dot product is c takes. */
static inline int kf_slerp_case(float c)
{
    if (c >= 1.0f - (float)KF_QUAT_EPSILON)
        return KF_SLERP_LINEAR;
    return c >= 0.0f ? KF_SLERP_ARC : KF_SLERP_GENERAL;
}

/* The arc {theta, theta / sin theta} a slerp follows between quaternions
 * whose dot product is c, computed here in float: theta = acos(c) and
 * theta / sin theta as sqrt(1 - c) P(c) and P(c) / sqrt(1 + c), which
 * share P and stay exact as theta -> 0. No arc is stored: computing it
 * costs a few operations a segment, storing it half as many bytes again as
 * a quaternion key. formats/kfb_format.h's encoding: {0, 1} for nearly
 * equal quaternions (kf_arc_weights then gives M3G's linear weights),
 * {-1, 0} where the general path is taken. Every kernel set takes these
 * steps in this order. */
static inline void kf_arc_of(float c, float arc[KFB_ARC_FLOATS])
{
    const int how = kf_slerp_case(c);
    if (how == KF_SLERP_ARC) {
        const float p = kf_acos_over_sqrt(c);
        arc[0] = sqrtf(1.0f - c) * p;
        arc[1] = p / sqrtf(1.0f + c);
    } else {
        arc[0] = how == KF_SLERP_LINEAR ? 0.0f : -1.0f;
        arc[1] = how == KF_SLERP_LINEAR ? 1.0f : 0.0f;
    }
}

/* slerp(a, b, u) along the arc from a to b (kf_arc_of). Writes nothing and
 * returns KF_SLERP_GENERAL when a.b < 0 (or is no number). */
KF_KERNEL int kf_slerp_played(const float *restrict a, const float *restrict b, float u,
                              float *restrict out)
{
    const float c = kf_quat_dot(a, b);
    float arc[KFB_ARC_FLOATS], w[2];
    kf_arc_of(c, arc);
    if (arc[0] < 0.0f)
        return KF_SLERP_GENERAL;
    kf_arc_weights(arc[0], arc[1], u, w);
    kf_quat_combine(a, b, w, out);
    return kf_slerp_case(c);
}

/* ---- evaluation -------------------------------------------------------- */

/* Hermite basis at u (kf_hermite_basis, in float). */
static inline void kf_hermite_basis_f(float u, float h[4])
{
    const float u2 = u * u, u3 = u2 * u;
    h[0] = 2.0f * u3 - 3.0f * u2 + 1.0f;
    h[1] = -2.0f * u3 + 3.0f * u2;
    h[2] = u3 - 2.0f * u2 + u;
    h[3] = u3 - u2;
}

/* One kernel per interpolation, between keys i and j of s at u. */

/* Key i of s: STEP, and every interpolation at a key's exact time. Vectors
 * and quaternions are copied inline: a memcpy call of a few bytes costs more
 * than the copy. */
KF_KERNEL void kf_key(const struct kf_sequence *s, size_t i, float *restrict out)
{
    const uint32_t c = s->components;
    float buf[KF_BLOCK_COMPONENTS] = {0};
    const float *a = kf_key_floats(s, s->values, i, buf);
    if (c == 3) {
        out[0] = a[0];
        out[1] = a[1];
        out[2] = a[2];
    } else if (c == 4) {
        out[0] = a[0];
        out[1] = a[1];
        out[2] = a[2];
        out[3] = a[3];
    } else {
        memcpy(out, a, c * sizeof *out);
    }
}

/* a + u (b - a), the fast form, overflows when the keys are more than
 * FLT_MAX apart (and can round past FLT_MAX next to it); the convex
 * combination in double is finite there. Finite keys, finite result. */
KF_KERNEL float kf_lerp1(float a, float b, float u)
{
    const float r = a + u * (b - a);
    if (!(fabsf(r) <= FLT_MAX))
        return (float)((1.0 - (double)u) * a + (double)u * b);
    return r;
}

KF_KERNEL void kf_lerp3(const struct kf_sequence *s, size_t i, size_t j, float u,
                        float *restrict out)
{
    float ba[KF_BLOCK_COMPONENTS] = {0}, bb[KF_BLOCK_COMPONENTS] = {0};
    const float *a = kf_key_floats(s, s->values, i, ba), *b = kf_key_floats(s, s->values, j, bb);
    out[0] = kf_lerp1(a[0], b[0], u);
    out[1] = kf_lerp1(a[1], b[1], u);
    out[2] = kf_lerp1(a[2], b[2], u);
}

KF_KERNEL void kf_lerp(const struct kf_sequence *s, size_t i, size_t j, float u,
                       float *restrict out)
{
    const uint32_t c = s->components;
    float ba[KF_BLOCK_COMPONENTS] = {0}, bb[KF_BLOCK_COMPONENTS] = {0};
    const float *a = kf_key_floats(s, s->values, i, ba), *b = kf_key_floats(s, s->values, j, bb);
    for (uint32_t k = 0; k < c; k++)
        out[k] = kf_lerp1(a[k], b[k], u);
}

/* One component of a Hermite segment. Keys and tangents near the float
 * range can overflow the float sum even where the curve does not leave it;
 * there the sum is taken in double and saturates at +-FLT_MAX, as a blend
 * does. Finite keys and tangents, finite result. */
KF_KERNEL float kf_hermite1(const float h[4], float a, float b, float ta, float tb)
{
    const float r = h[0] * a + h[1] * b + h[2] * ta + h[3] * tb;
    if (!(fabsf(r) <= FLT_MAX))
        return kf_narrow_saturate((double)h[0] * a + (double)h[1] * b + (double)h[2] * ta +
                                  (double)h[3] * tb);
    return r;
}

KF_KERNEL void kf_hermite(const struct kf_sequence *s, size_t i, size_t j, const float h[4],
                          float *restrict out)
{
    const uint32_t c = s->components;
    float ba[KF_BLOCK_COMPONENTS] = {0}, bb[KF_BLOCK_COMPONENTS] = {0},
          bta[KF_BLOCK_COMPONENTS] = {0}, btb[KF_BLOCK_COMPONENTS] = {0};
    const float *a = kf_key_floats(s, s->values, i, ba), *b = kf_key_floats(s, s->values, j, bb);
    const float *ta = kf_key_floats(s, s->tangent_out, i, bta);
    const float *tb = kf_key_floats(s, s->tangent_in, j, btb);
    for (uint32_t k = 0; k < c; k++)
        out[k] = kf_hermite1(h, a[k], b[k], ta[k], tb[k]);
}

KF_KERNEL void kf_hermite3(const struct kf_sequence *s, size_t i, size_t j, const float h[4],
                           float *restrict out)
{
    float ba[KF_BLOCK_COMPONENTS] = {0}, bb[KF_BLOCK_COMPONENTS] = {0},
          bta[KF_BLOCK_COMPONENTS] = {0}, btb[KF_BLOCK_COMPONENTS] = {0};
    const float *a = kf_key_floats(s, s->values, i, ba), *b = kf_key_floats(s, s->values, j, bb);
    const float *ta = kf_key_floats(s, s->tangent_out, i, bta);
    const float *tb = kf_key_floats(s, s->tangent_in, j, btb);
    out[0] = kf_hermite1(h, a[0], b[0], ta[0], tb[0]);
    out[1] = kf_hermite1(h, a[1], b[1], ta[1], tb[1]);
    out[2] = kf_hermite1(h, a[2], b[2], ta[2], tb[2]);
}

/* Returns whether the result is unit (a polynomial arc between unit keys;
 * the linear and general ones are not). */
KF_KERNEL int kf_slerp_key(const struct kf_sequence *s, size_t i, size_t j, float u,
                           float *restrict out)
{
    float ba[4] = {0}, bb[4] = {0};
    const float *a = kf_key_floats(s, s->values, i, ba), *b = kf_key_floats(s, s->values, j, bb);
    const int how = kf_slerp_played(a, b, u, out);
    if (how == KF_SLERP_GENERAL)
        kf_slerp_general(a, b, u, out);
    return how == KF_SLERP_ARC;
}

/* slerp(slerp(q_i, q_j, u), slerp(a_i, b_j, u), 2u(1-u)), every arc
 * computed from its quaternions' dot product (kf_arc_of). The weights of
 * both inner slerps are four sinc evaluations of one shape, written as one
 * loop so that the compiler can do them side by side. `exact_u` is for the
 * general path, whose last slerp can be ill-conditioned enough to show
 * u's rounding to float. */
KF_KERNEL void kf_squad(const struct kf_sequence *s, size_t i, size_t j, double exact_u,
                        float *restrict out)
{
    const float u = (float)exact_u;
    float bqa[4] = {0}, bqb[4] = {0}, bsa[4] = {0}, bsb[4] = {0}, key[KFB_ARC_FLOATS],
          control[KFB_ARC_FLOATS];
    const float *qa = kf_key_floats(s, s->values, i, bqa);
    const float *qb = kf_key_floats(s, s->values, j, bqb);
    const float *sa = kf_key_floats(s, s->tangent_out, i, bsa);
    const float *sb = kf_key_floats(s, s->tangent_in, j, bsb);
    kf_arc_of(kf_quat_dot(qa, qb), key);
    kf_arc_of(kf_quat_dot(sa, sb), control);
    if (key[0] < 0.0f || control[0] < 0.0f) {
        kf_squad_general(s, i, j, exact_u, out);
        return;
    }
    const float v = 1.0f - u;
    const float x[4] = {v * key[0], u * key[0], v * control[0], u * control[0]};
    const float k[4] = {v * key[1], u * key[1], v * control[1], u * control[1]};
    float w[4], q1[4], q2[4];
    for (int l = 0; l < 4; l++)
        w[l] = k[l] * kf_sinc(x[l] * x[l]);
    kf_quat_combine(qa, qb, w, q1);
    kf_quat_combine(sa, sb, w + 2, q2);
    if (kf_slerp_played(q1, q2, 2.0f * u * (1.0f - u), out) == KF_SLERP_GENERAL)
        kf_squad_general(s, i, j, exact_u, out);
}

/* Sequence s at `seg` into out[0 .. components-1]. */
static inline void kf_evaluate(const struct kf_sequence *s, const kf_segment *seg,
                               float *restrict out)
{
    const size_t i = seg->i, j = seg->j;
    const float u = (float)seg->u;
    if (seg->hold || s->interpolation == KFB_INTERP_STEP) {
        kf_key(s, i, out);
        return;
    }
    switch (s->interpolation) {
    case KFB_INTERP_LINEAR:
        kf_lerp(s, i, j, u, out);
        break;
    case KFB_INTERP_SPLINE:
    case KFB_INTERP_HERMITE: {
        float h[4];
        kf_hermite_basis_f(u, h);
        kf_hermite(s, i, j, h, out);
        break;
    }
    case KFB_INTERP_SLERP:
        kf_slerp_key(s, i, j, u, out);
        break;
    default:
        kf_squad(s, i, j, seg->u, out);
        break;
    }
}

#endif /* KF_SAMPLE_H */
