/* SPDX-License-Identifier: MIT */
/*
 * kf_sequence.c - sampling an M3G KeyframeSequence (docs/math.md §1.3, §1.4).
 *
 * Keys are stored with the valid range first (kf_private.h), so everything
 * here works on keys 0 .. valid_count-1; the segment after the last valid key
 * is the LOOP wrap segment back to key 0. The fast kernels are in
 * kf_sample.h; the exact path they are measured against is here.
 */
#include <math.h>
#include <string.h>

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>
#endif

#include "kf_private.h"
#include "kf_math.h"
#include "kf_sample.h"

void kf_sequence_sample(const kf_sequence *s, double t, kf_cursor *cursor, float *out)
{
    if (!s || !out)
        return;
    kf_segment seg;
    uint32_t hint = cursor ? cursor->key : 0;
    kf_locate(s, t, &hint, &seg);
    if (cursor)
        cursor->key = hint;
    kf_evaluate(s, &seg, out);
}

/* A stored quaternion key, widened and normalized in double. The builder
 * keeps a key that is unit to float precision as written (kf_build.c), but
 * near-opposite keys make the slerp ill-conditioned (its weights grow as
 * 1 / sin theta): a key off unit length by a float rounding moves the result
 * by that over sin^2 theta, 1e-3 in keys 0.4 degrees from opposite. */
static void widen_unit(const float *in, double out[4])
{
    double q[4];
    kf_widen(in, 4, q);
    kf_qnormalize(q, out);
}

void kf_slerp_general(const float *a, const float *b, float u, float *out)
{
    double qa[4], qb[4], q[4];
    widen_unit(a, qa);
    widen_unit(b, qb);
    kf_qslerp(qa, qb, u, q);
    kf_narrow(q, 4, out);
}

void kf_squad_general(const struct kf_sequence *s, size_t i, size_t j, double u, float *out)
{
    double qa[4], qb[4], sa[4], sb[4], q1[4], q2[4], q[4];
    float buf[4] = {0};
    widen_unit(kf_key_floats(s, s->values, i, buf), qa);
    widen_unit(kf_key_floats(s, s->values, j, buf), qb);
    kf_widen(kf_key_floats(s, s->tangent_out, i, buf), 4, sa);
    kf_widen(kf_key_floats(s, s->tangent_in, j, buf), 4, sb);
    kf_qslerp(qa, qb, u, q1);
    kf_qslerp(sa, sb, u, q2);
    kf_qslerp(q1, q2, 2.0 * u * (1.0 - u), q);
    kf_narrow(q, 4, out);
}

/* The reference: docs/math.md §1.4 in double precision through libm, with
 * nothing precomputed but what the format stores for every reader (the
 * tangents and squad intermediates). Its results are rounded once, to the
 * output float. */
void kf_sequence_sample_exact(const kf_sequence *s, double t, float *out)
{
    kf_segment seg;
    uint32_t hint = 0;
    kf_locate(s, t, &hint, &seg);
    const uint32_t c = s->components, i = seg.i, j = seg.j;
    float ba[KF_BLOCK_COMPONENTS] = {0}, bb[KF_BLOCK_COMPONENTS] = {0},
          bta[KF_BLOCK_COMPONENTS] = {0}, btb[KF_BLOCK_COMPONENTS] = {0};
    const float *a = kf_key_floats(s, s->values, i, ba), *b = kf_key_floats(s, s->values, j, bb);
    if (seg.hold || s->interpolation == KFB_INTERP_STEP) {
        memcpy(out, a, c * sizeof *out);
        return;
    }
    const double u = seg.u;
    switch (s->interpolation) {
    case KFB_INTERP_LINEAR:
        for (uint32_t k = 0; k < c; k++)
            out[k] = (float)((1.0 - u) * a[k] + u * b[k]);
        break;
    case KFB_INTERP_SPLINE: {
        double h[4];
        kf_hermite_basis(u, h);
        const float *ta = kf_key_floats(s, s->tangent_out, i, bta);
        const float *tb = kf_key_floats(s, s->tangent_in, j, btb);
        for (uint32_t k = 0; k < c; k++)
            out[k] = kf_narrow_saturate(h[0] * a[k] + h[1] * b[k] + h[2] * ta[k] + h[3] * tb[k]);
        break;
    }
    case KFB_INTERP_HERMITE: {
        /* The authored tangents scaled here in double, not the stored
         * float products: the reference rounds once. */
        double h[4];
        kf_hermite_basis(u, h);
        const double length =
            j ? (double)s->times[j] - s->times[i] : (double)s->duration - s->times[i] + s->times[0];
        for (uint32_t k = 0; k < c; k++)
            out[k] = kf_narrow_saturate(
                h[0] * a[k] + h[1] * b[k] +
                length * (h[2] * kf_key_tangent(s, i, c + k) + h[3] * kf_key_tangent(s, j, k)));
        break;
    }
    case KFB_INTERP_SLERP: {
        double qa[4], qb[4], q[4];
        widen_unit(a, qa);
        widen_unit(b, qb);
        kf_qslerp(qa, qb, u, q);
        kf_narrow(q, 4, out);
        break;
    }
    default: /* SQUAD */
        kf_squad_general(s, i, j, u, out);
        break;
    }
}

/* Length of the segment valid key i starts where one is played; -1 for
 * CONSTANT's last key. The last key's segment in LOOP is the wrap to the
 * first key of the next period. */
static double played_segment(const float *times, uint32_t count, double duration, uint32_t repeat,
                             uint32_t i)
{
    if (i + 1 < count)
        return (double)times[i + 1] - times[i];
    if (repeat == KFB_REPEAT_LOOP && count > 1)
        return duration - times[count - 1] + times[0];
    return -1.0;
}

/* Whether segment length `length` (a played_segment) is one whose products
 * with key tangents t round as t times the length rounded to float first:
 * one that is a float answers for every t (the product of two floats is
 * exact in double, and rounds once either way), as does one not positive
 * (0 either way). */
static inline int float_length(double length)
{
    return !(length > 0.0) || (double)(float)length == length;
}

/* For a length that is not a float_length: whether any of n key tangents t
 * times it rounds otherwise than times the float length. */
static uint32_t float_length_differs(const float *t, size_t n, double length)
{
    const float single = (float)length;
    uint32_t differ = 0;
    for (size_t k = 0; k < n; k++) {
        const float d = (float)(t[k] * length), f = single > 0.0f ? t[k] * single : 0.0f;
        uint32_t a, b;
        memcpy(&a, &d, 4);
        memcpy(&b, &f, 4);
        differ |= a ^ b;
    }
    return differ;
}

/* For segment j of a HERMITE sequence's valid keys (from key j to the
 * next, the last one's the wrap to key 0) of `length`: whether a tangent
 * it scales (key j's outgoing, the next key's incoming) rounds otherwise
 * than through the float length. */
static uint32_t segment_differs(const float *key_tangents, uint32_t count, size_t c, uint32_t j,
                                double length)
{
    if (float_length(length))
        return 0;
    if (!key_tangents) /* (the lengths alone asked) */
        return 1;
    const uint32_t next = j + 1 < count ? j + 1 : 0;
    return float_length_differs(key_tangents + 2 * c * j + c, c, length) |
           float_length_differs(key_tangents + 2 * c * next, c, length);
}

int kf_hermite_exact(const float *times, const float *key_tangents, uint32_t count,
                     uint32_t components, double duration, uint32_t repeat)
{
    const size_t c = components;
    uint32_t differ = 0, j = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Four segments a step: their lengths in double, as played_segment
     * takes them, and whether each is a float (or not positive); only
     * segments that are not are looked at one by one. */
    for (; j + 4 < count; j += 4) {
        const __m128 a = _mm_loadu_ps(times + j), b = _mm_loadu_ps(times + j + 1);
        const __m128d lo = _mm_sub_pd(_mm_cvtps_pd(b), _mm_cvtps_pd(a)),
                      hi = _mm_sub_pd(_mm_cvtps_pd(_mm_movehl_ps(b, b)),
                                      _mm_cvtps_pd(_mm_movehl_ps(a, a)));
        const __m128d zero = _mm_setzero_pd();
        const __m128d other_lo = _mm_and_pd(_mm_cmpgt_pd(lo, zero),
                                            _mm_cmpneq_pd(_mm_cvtps_pd(_mm_cvtpd_ps(lo)), lo)),
                      other_hi = _mm_and_pd(_mm_cmpgt_pd(hi, zero),
                                            _mm_cmpneq_pd(_mm_cvtps_pd(_mm_cvtpd_ps(hi)), hi));
        if (_mm_movemask_pd(_mm_or_pd(other_lo, other_hi)))
            for (uint32_t k = j; k < j + 4; k++)
                differ |=
                    segment_differs(key_tangents, count, c, k, (double)times[k + 1] - times[k]);
    }
#endif
    for (; j < count; j++)
        differ |= segment_differs(key_tangents, count, c, j,
                                  played_segment(times, count, duration, repeat, j));
    return differ == 0;
}

void kf_hermite_tangents(const float *times, const float *key_tangents, uint32_t count,
                         uint32_t components, double duration, uint32_t repeat, float *out,
                         float *in)
{
    const size_t c = components;
    /* (a key's incoming segment is the one before's outgoing) */
    double prev = count ? played_segment(times, count, duration, repeat, count - 1) : 0.0;
    for (uint32_t i = 0; i < count; i++) {
        const double next = i + 1 < count ? (double)times[i + 1] - times[i]
                                          : played_segment(times, count, duration, repeat, i);
        const float *t = key_tangents + 2 * c * i;
        float *ti = in + c * i, *to = out + c * i;
        if (prev > 0.0 && next > 0.0) { /* (every key but the ends of a hold) */
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
            if (c == 3 && i + 1 < count) {
                /* A vector's six a step, the same operations in pairs;
                 * the four floats stored at ti reach the next key's first
                 * incoming one, which its own step writes again. */
                const __m128 a = _mm_loadu_ps(t), b = _mm_loadu_ps(t + 2);
                const __m128 lo = _mm_cvtpd_ps(_mm_mul_pd(_mm_cvtps_pd(a), _mm_set1_pd(prev)));
                const __m128 mid = _mm_cvtpd_ps(
                    _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(a, a)), _mm_setr_pd(prev, next)));
                const __m128 hi =
                    _mm_cvtpd_ps(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(b, b)), _mm_set1_pd(next)));
                _mm_storeu_ps(ti, _mm_movelh_ps(lo, mid));
                _mm_store_ss(to, _mm_shuffle_ps(mid, mid, 1));
                _mm_storel_epi64((__m128i *)(void *)(to + 1), _mm_castps_si128(hi));
            } else
#endif
                for (size_t k = 0; k < c; k++) {
                    ti[k] = (float)(t[k] * prev);
                    to[k] = (float)(t[c + k] * next);
                }
        } else {
            for (size_t k = 0; k < c; k++) {
                ti[k] = prev > 0.0 ? (float)(t[k] * prev) : 0.0f;
                to[k] = next > 0.0 ? (float)(t[c + k] * next) : 0.0f;
            }
        }
        prev = next;
    }
}

void kf_lane_quat(const kf_qlane *a, size_t k, uint32_t f, float q[4])
{
    q[0] = kf_lane_field(a, k, f);
    q[1] = kf_lane_field(a, k, f + 1);
    q[2] = kf_lane_field(a, k, f + 2);
    q[3] = 0.0f;
    kf_unit_rest(q, 4, 3, (kf_lane_q(a, k, f) & KF_QSLERP_SIGN) != 0, &q[3]);
}

float kf_lane_w(const kf_qlane *a, size_t k)
{
    float q[4];
    kf_lane_quat(a, k, 0, q);
    return q[3];
}
