/* SPDX-License-Identifier: MIT */
/*
 * kf_validate.c - the semantic rules of stored objects (docs/math.md §1.6, §2, §4).
 *
 * The builder runs these before encoding and the loader after decoding, so a
 * file is accepted exactly when kfc could have written it. Structural facts
 * (counts, ranges) are checked before the arrays they size are read.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kf_private.h"
#include "kf_math.h"

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>
#endif

/* The sizes are layout facts (formats/kfb_format.h); these narrow them for
 * sequences whose header passed kf_validate_sequence_header. */
uint32_t kf_sequence_tangent_count(uint32_t interpolation, uint32_t valid_count,
                                   uint32_t components)
{
    return (uint32_t)kfb_sequence_tangent_floats(interpolation, valid_count, components);
}

uint32_t kf_sequence_arc_count(uint32_t interpolation, uint32_t valid_count)
{
    return (uint32_t)kfb_sequence_arc_floats(interpolation, valid_count);
}

uint64_t kf_sequence_derived_count(uint32_t interpolation, uint32_t valid_count,
                                   uint32_t components)
{
    return kfb_sequence_derived_floats(interpolation, valid_count, components);
}

static int all_finite(const float *v, size_t n, size_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            *bad = i;
            return 0;
        }
    }
    return 1;
}

/* The bits of the least magnitude all_clean flags: infinity (finiteness
 * alone), or 2^KF_NARROW_EXPONENT's (finite and below it). */
#define INFINITY_BITS 0x7F800000u
#define NARROW_BITS   ((uint32_t)(127 + KF_NARROW_EXPONENT) << 23)

/* A flag whose bit 31 marks a bad number: |bits| + 2^31 - limit carries
 * into it exactly for a magnitude of `limit`'s bits or more (with
 * INFINITY_BITS: Inf and NaN, every exponent bit set; no NaN is below any
 * limit, its bits being above infinity's), and b & (2^31 - b) has it
 * exactly for a negative number (-0, 0x80000000, is no negative time);
 * `sign` is 2^31 where negatives are bad, else 0. */
static inline uint32_t bad_flag(uint32_t b, uint32_t sign, uint32_t limit)
{
    return ((b & 0x7FFFFFFFu) + (0x80000000u - limit)) | (b & (0x80000000u - b) & sign);
}

/* Whether n floats are all finite and, with `nonnegative`, none below 0;
 * with NARROW_BITS for `limit`, all below 2^KF_NARROW_EXPONENT in magnitude as
 * well: one pass without branches (8 numbers per step in SSE2's registers
 * where there are some). The loops that name the first bad number run
 * only when this fails. */
static int all_clean(const float *v, size_t n, int nonnegative, uint32_t limit)
{
    const uint32_t sign = nonnegative ? 0x80000000u : 0u;
    uint32_t bad = 0;
    size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    const __m128i magnitude = _mm_set1_epi32(0x7FFFFFFF),
                  carry = _mm_set1_epi32((int)(0x80000000u - limit));
    const __m128i top = _mm_set1_epi32((int)0x80000000u), signs = _mm_set1_epi32((int)sign);
    __m128i f0 = _mm_setzero_si128(), f1 = _mm_setzero_si128();
    for (; !nonnegative && i + 8 <= n; i += 8) { /* finiteness alone */
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(v + i + 4));
        f0 = _mm_or_si128(f0, _mm_add_epi32(_mm_and_si128(a, magnitude), carry));
        f1 = _mm_or_si128(f1, _mm_add_epi32(_mm_and_si128(b, magnitude), carry));
    }
    for (; i + 8 <= n; i += 8) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(v + i + 4));
        f0 = _mm_or_si128(f0, _mm_add_epi32(_mm_and_si128(a, magnitude), carry));
        f1 = _mm_or_si128(f1, _mm_add_epi32(_mm_and_si128(b, magnitude), carry));
        f0 = _mm_or_si128(f0, _mm_and_si128(_mm_and_si128(a, signs), _mm_sub_epi32(top, a)));
        f1 = _mm_or_si128(f1, _mm_and_si128(_mm_and_si128(b, signs), _mm_sub_epi32(top, b)));
    }
    bad = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(f0, f1)));
#endif
    for (; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], 4);
        bad |= bad_flag(b, sign, limit) >> 31;
    }
    return bad == 0;
}

kf_result kf_validate_sequence_header(const struct kf_sequence *s, kf_error *error)
{
    const uint32_t n = s->key_count, c = s->components, v = s->valid_count;

    if (s->interpolation >= KFB_INTERP_COUNT)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_INTERPOLATION, KF_NO_INDEX,
                          "unknown interpolation %u", (unsigned)s->interpolation);
    if (s->repeat >= KFB_REPEAT_COUNT)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_REPEAT, KF_NO_INDEX,
                          "unknown repeat mode %u", (unsigned)s->repeat);
    if (c < 1)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_COMPONENTS, KF_NO_INDEX,
                          "a key needs at least 1 component");
    if ((s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD) && c != 4) {
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_COMPONENTS, KF_NO_INDEX,
                          s->interpolation == KFB_INTERP_SLERP
                              ? "slerp needs 4 components (quaternion x y z w), not %u"
                              : "squad needs 4 components (quaternion x y z w), not %u",
                          (unsigned)c);
    }
    if (n < 1)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEYS, KF_NO_INDEX,
                          "a sequence needs at least one key");
    if (s->valid_first >= n)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_VALID_RANGE, 0,
                          "valid range index %u is out of bounds (%u keys)",
                          (unsigned)s->valid_first, (unsigned)n);
    if (v < 1 || v > n)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_VALID_RANGE, 1,
                          "valid range holds %u keys of %u", (unsigned)v, (unsigned)n);
    if (!(isfinite(s->duration) && s->duration > 0.0f))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_DURATION, KF_NO_INDEX,
                          "duration must be greater than 0, not %g", (double)s->duration);

    return KF_OK;
}

/* Key j's time finite and not negative, its values finite. */
static kf_result key_in_range(const struct kf_sequence *s, uint32_t j, kf_error *error)
{
    const uint32_t c = s->components;
    size_t bad;
    if (!isfinite(s->times[j]))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, kf_authored_key(s, j),
                          "key %u time is not a finite number", (unsigned)kf_authored_key(s, j));
    if (s->times[j] < 0.0f)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, kf_authored_key(s, j),
                          "key %u time %g is negative", (unsigned)kf_authored_key(s, j),
                          (double)s->times[j]);
    if (!all_finite(s->values + (size_t)j * c, c, &bad))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, kf_authored_key(s, j),
                          "key %u component %u is not a finite number",
                          (unsigned)kf_authored_key(s, j), (unsigned)bad);
    return KF_OK;
}

/* |q|^2 of a quaternion, in double. */
static double quat_norm2(const float *q)
{
    return (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* Whether the n quaternions at q (n a multiple of 4) surely pass
 * all_unit: |q|^2 summed in float, four quaternions a step, within
 * UNIT_SURELY of 1. Where such a sum lies within 1 + 7e-7, each of its
 * four products and three sums is rounded by at most 2^-24 of its own
 * magnitude, at most about 1: less than 2.4e-7 all told, so the double
 * sum lies within 1e-6 too. A sum further out, or not a number, says
 * nothing: the double test decides. */
#define UNIT_SURELY 7e-7f
static int units_surely(const float *q, uint32_t n)
{
    const __m128 one = _mm_set1_ps(1.0f), margin = _mm_set1_ps(UNIT_SURELY);
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    __m128 ok = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (uint32_t j = 0; j < n; j += 4) {
        __m128 x = _mm_loadu_ps(q + (size_t)j * 4), y = _mm_loadu_ps(q + (size_t)j * 4 + 4),
               z = _mm_loadu_ps(q + (size_t)j * 4 + 8), w = _mm_loadu_ps(q + (size_t)j * 4 + 12);
        _MM_TRANSPOSE4_PS(x, y, z, w);
        __m128 n2 = _mm_mul_ps(x, x);
        n2 = _mm_add_ps(n2, _mm_mul_ps(y, y));
        n2 = _mm_add_ps(n2, _mm_mul_ps(z, z));
        n2 = _mm_add_ps(n2, _mm_mul_ps(w, w));
        ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_and_ps(_mm_sub_ps(n2, one), magnitude), margin));
    }
    return _mm_movemask_ps(ok) == 15;
}
#endif

/* Whether each of the n quaternions at q is unit to
 * KF_UNIT_QUAT_TOLERANCE, |q|^2 summed in double (no infinite or NaN
 * component passes): without a branch per quaternion, where SSE2 has
 * them first in float (units_surely), then two a step in double. */
static int all_unit(const float *q, uint32_t n)
{
    int units = 1;
    uint32_t j0 = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    if (units_surely(q, n & ~3u)) {
        j0 = n & ~3u;
    } else {
        __m128d ok = _mm_castsi128_pd(_mm_set1_epi32(-1));
        const __m128d tolerance = _mm_set1_pd(KF_UNIT_QUAT_TOLERANCE), one = _mm_set1_pd(1.0);
        const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7FFFFFFFFFFFFFFF));
        for (; j0 + 2 <= n; j0 += 2) {
            const __m128 a = _mm_loadu_ps(q + (size_t)j0 * 4),
                         b = _mm_loadu_ps(q + (size_t)j0 * 4 + 4);
            const __m128 lo = _mm_unpacklo_ps(a, b), hi = _mm_unpackhi_ps(a, b);
            const __m128d x0 = _mm_cvtps_pd(lo), x1 = _mm_cvtps_pd(_mm_movehl_ps(lo, lo));
            const __m128d x2 = _mm_cvtps_pd(hi), x3 = _mm_cvtps_pd(_mm_movehl_ps(hi, hi));
            __m128d n2 = _mm_mul_pd(x0, x0);
            n2 = _mm_add_pd(n2, _mm_mul_pd(x1, x1));
            n2 = _mm_add_pd(n2, _mm_mul_pd(x2, x2));
            n2 = _mm_add_pd(n2, _mm_mul_pd(x3, x3));
            ok =
                _mm_and_pd(ok, _mm_cmple_pd(_mm_and_pd(_mm_sub_pd(n2, one), magnitude), tolerance));
        }
        units = _mm_movemask_pd(ok) == 3;
    }
#endif
    for (uint32_t j = j0; j < n; j++)
        units &= fabs(quat_norm2(q + (size_t)j * 4) - 1.0) <= KF_UNIT_QUAT_TOLERANCE;
    return units;
}

/* Whether the `count` floats at v are finite: with `narrow` (or NULL),
 * *narrow set to whether they are all below 2^KF_NARROW_EXPONENT in magnitude,
 * at the cost of a second pass only where one is not. */
static int clean_values(const float *v, size_t count, int *narrow)
{
    if (narrow && (*narrow = all_clean(v, count, 0, NARROW_BITS)) != 0)
        return 1;
    return all_clean(v, count, 0, INFINITY_BITS);
}

/* kf_validate_sequence, knowing what kf_validate_sequence_known says. */
static kf_result validate_sequence(const struct kf_sequence *s, int times_known, int values_known,
                                   int *narrow, kf_error *error)
{
    const uint32_t n = s->key_count, c = s->components, v = s->valid_count;
    kf_result r = kf_validate_sequence_header(s, error);
    if (r != KF_OK)
        return r;

    /* Every key is checked for range, valid or not: M3G refuses a negative
     * time at setKeyframe, before any valid range applies. Quaternions are
     * tested for unit length alone (all_unit), which no infinite or NaN
     * component passes; the loop below, which names the first bad key,
     * runs only when a test fails. */
    const int unit = s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD;
    if (narrow)
        *narrow = 0;
    const int values_ok = values_known || (unit ? all_unit(s->values, n)
                                                : clean_values(s->values, (size_t)n * c, narrow));
    const int clean = (times_known || all_clean(s->times, n, 1, INFINITY_BITS)) && values_ok;
    const int units = !unit || values_ok;
    for (uint32_t j = 0; j < n && (!clean || (unit && !units)); j++) {
        if (!clean && (r = key_in_range(s, j, error)) != KF_OK)
            return r;
        if (unit) {
            const double n2 = quat_norm2(s->values + (size_t)j * c);
            if (!(fabs(n2 - 1.0) <= KF_UNIT_QUAT_TOLERANCE))
                return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, kf_authored_key(s, j),
                                  "key %u is not a unit quaternion (|q|^2 = %g)",
                                  (unsigned)kf_authored_key(s, j), n2);
        }
    }
    /* The times are finite now: their order without a branch per key,
     * then the loop that names the first key out of order. */
    int ordered = 1;
    for (uint32_t j = 1; !times_known && j < v; j++)
        ordered &= s->times[j] >= s->times[j - 1];
    for (uint32_t j = 1; !ordered && j < v; j++) {
        if (s->times[j] < s->times[j - 1]) {
            uint32_t key = kf_authored_key(s, j);
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, key,
                              "key time %g is less than the previous valid key's time %g",
                              (double)s->times[j], (double)s->times[j - 1]);
        }
    }
    if (s->times[v - 1] > s->duration) {
        uint32_t key = kf_authored_key(s, v - 1);
        /* A hundred times it or more: key times written in milliseconds,
         * most likely, beside a duration in seconds. */
        const int hundredfold = s->times[v - 1] >= 100.0 * s->duration;
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, key,
                          "last valid key time %g exceeds the duration %g%s",
                          (double)s->times[v - 1], (double)s->duration,
                          hundredfold ? " (key times in milliseconds? times are seconds, as the "
                                        "duration's are)"
                                      : "");
    }

    return KF_OK;
}

kf_result kf_validate_sequence(const struct kf_sequence *s, kf_error *error)
{
    return validate_sequence(s, 0, 0, NULL, error);
}

kf_result kf_validate_sequence_known(const struct kf_sequence *s, int times_known, int values_known,
                                     int *narrow, kf_error *error)
{
    return validate_sequence(s, times_known, values_known, narrow, error);
}

/* An arc as formats/kfb_format.h allows it. Sampling relies on the ranges:
 * they bound its polynomial's argument and the slerp weights. */
static int arc_in_range(const float *arc)
{
    const float half_pi = 1.57079637f; /* pi/2 rounded up to float */
    if (arc[0] == -1.0f)
        return arc[1] == 0.0f;
    if (arc[0] == 0.0f)
        return arc[1] == 1.0f;
    return arc[0] > 0.0f && arc[0] <= half_pi && arc[1] >= 1.0f && arc[1] <= half_pi;
}

kf_result kf_validate_tangents(const struct kf_sequence *s, kf_error *error)
{
    return kf_validate_tangents_known(s, 0, NULL, error);
}

kf_result kf_validate_tangents_known(const struct kf_sequence *s, int out_known, int *narrow,
                                     kf_error *error)
{
    uint32_t tc = kf_sequence_tangent_count(s->interpolation, s->valid_count, s->components);
    uint32_t ac = kf_sequence_arc_count(s->interpolation, s->valid_count);
    const uint32_t v = s->valid_count;
    /* SQUAD's intermediates are rotations, stored normalized as its keys
     * are (what a source that gives them compiles to, formats/yaml.md):
     * unit length alone, which no infinite or NaN component passes, clears
     * them; the checks below, which name the first bad one, run only when
     * it fails. */
    const int squad = tc && s->interpolation == KFB_INTERP_SQUAD;
    const int cleared =
        squad && (out_known || all_unit(s->tangent_out, v)) && all_unit(s->tangent_in, v);
    size_t bad;
    int narrow_out = 0, narrow_in = 0;
    if (narrow)
        *narrow = 0;
    if (tc && !cleared &&
        !((out_known || clean_values(s->tangent_out, tc, narrow ? &narrow_out : NULL)) &&
          clean_values(s->tangent_in, tc, narrow ? &narrow_in : NULL)) &&
        (!all_finite(s->tangent_out, tc, &bad) || !all_finite(s->tangent_in, tc, &bad))) {
        uint32_t key = kf_authored_key(s, bad / s->components);
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, key,
                          "the precomputed tangent of key %u is not a finite number",
                          (unsigned)key);
    }
    if (narrow)
        *narrow = narrow_out && narrow_in;
    for (int side = out_known; squad && !cleared && side < 2; side++) {
        const float *q = side ? s->tangent_in : s->tangent_out;
        if (all_unit(q, v))
            continue;
        for (uint32_t j = 0; j < v; j++) {
            const double n2 = quat_norm2(q + 4 * (size_t)j);
            if (!(fabs(n2 - 1.0) <= KF_UNIT_QUAT_TOLERANCE)) {
                const uint32_t key = kf_authored_key(s, j);
                return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, key,
                                  "the intermediate %s of key %u is not a unit quaternion "
                                  "(|q|^2 = %g)",
                                  side ? "b" : "a", (unsigned)key, n2);
            }
        }
    }
    for (uint32_t i = 0; s->arcs && i < ac; i += KFB_ARC_FLOATS) {
        if (!arc_in_range(s->arcs + i)) {
            uint32_t segment = i / KFB_ARC_FLOATS % s->valid_count;
            uint32_t key = kf_authored_key(s, segment);
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, key,
                              "the precomputed %s arc of key %u (%g, %g) is out of range",
                              i / KFB_ARC_FLOATS < s->valid_count ? "key" : "control",
                              (unsigned)key, (double)s->arcs[i], (double)s->arcs[i + 1]);
        }
    }
    return KF_OK;
}

kf_result kf_validate_tcb(const struct kf_sequence *s, kf_error *error)
{
    static const char *const names[3] = {"tension", "continuity", "bias"};
    if (!s->tcb)
        return KF_OK;
    if (s->interpolation != KFB_INTERP_SPLINE && s->interpolation != KFB_INTERP_SQUAD)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TCB, KF_NO_INDEX,
                          "tension, continuity and bias apply to spline and squad sequences, "
                          "not %s",
                          kf_interpolation_name((kf_interpolation)s->interpolation));
    int any = 0;
    for (uint32_t j = 0; j < s->key_count; j++) {
        uint32_t key = kf_authored_key(s, j);
        for (int k = 0; k < 3; k++) {
            float x = s->tcb[3 * (size_t)j + k];
            /* The negated test also catches NaN. */
            if (!(x >= -1.0f && x <= 1.0f))
                return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TCB, key,
                                  "key %u %s %g is outside [-1, 1]", (unsigned)key, names[k],
                                  (double)x);
            any |= x != 0.0f;
        }
    }
    /* All zero is stored as no array: one form per curve keeps
     * decompile -> compile byte-identical. */
    if (!any)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TCB, KF_NO_INDEX,
                          "a tension/continuity/bias array of zeros must be left out");
    return KF_OK;
}

kf_result kf_validate_key_tangents(const struct kf_sequence *s, int finite_known, kf_error *error)
{
    const int hermite = s->interpolation == KFB_INTERP_HERMITE;
    if (!hermite && s->key_tangents)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, KF_NO_INDEX,
                          "key tangents apply to hermite sequences, not %s",
                          kf_interpolation_name((kf_interpolation)s->interpolation));
    if (!hermite)
        return KF_OK;
    if (!s->key_tangents)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, KF_NO_INDEX,
                          "a hermite sequence needs the tangents of its keys");
    size_t bad;
    const size_t count = 2 * (size_t)s->key_count * s->components;
    if (!finite_known && !all_clean(s->key_tangents, count, 0, INFINITY_BITS) &&
        !all_finite(s->key_tangents, count, &bad)) {
        uint32_t j = (uint32_t)(bad / (2 * (size_t)s->components));
        uint32_t key = kf_authored_key(s, j);
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, key,
                          "the %s tangent of key %u is not a finite number",
                          bad / s->components % 2 ? "outgoing" : "incoming", (unsigned)key);
    }
    return KF_OK;
}

double kf_column_facts_most(const kf_column_facts *f, uint32_t n)
{
    double most = 0.0;
    for (uint32_t m = 0; m < n; m++) {
        if (!f[m].integers)
            return -1.0;
        const double least = fabs(f[m].least * kf_pow2(f[m].exponent)),
                     top = fabs(f[m].most * kf_pow2(f[m].exponent));
        most = least > most ? least : most;
        most = top > most ? top : most;
    }
    return most;
}

/* The largest magnitude of n floats (validated finite: plain comparisons,
 * eight at a time in SSE2's registers where there are some). */
float kf_max_abs(const float *v, size_t n)
{
    float m = 0.0f;
    size_t k = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    __m128 a = _mm_setzero_ps(), b = _mm_setzero_ps();
    for (; k + 8 <= n; k += 8) {
        a = _mm_max_ps(a, _mm_and_ps(_mm_loadu_ps(v + k), magnitude));
        b = _mm_max_ps(b, _mm_and_ps(_mm_loadu_ps(v + k + 4), magnitude));
    }
    float lanes[4];
    _mm_storeu_ps(lanes, _mm_max_ps(a, b));
    for (int l = 0; l < 4; l++)
        m = lanes[l] > m ? lanes[l] : m;
#endif
    for (; k < n; k++) {
        const float x = fabsf(v[k]);
        m = x > m ? x : m;
    }
    return m;
}

kf_result kf_validate_tangent_range(const struct kf_sequence *s, int values_narrow,
                                    double key_tangents_most, kf_error *error)
{
    const size_t c = s->components;
    /* The values are finite (kf_validate_sequence): their magnitudes' bits
     * against the limit's, eight at a time where SSE2 has them, and the
     * loop that names the first beyond it only when one is. */
    int within = s->interpolation != KFB_INTERP_SPLINE || values_narrow;
    if (!within) {
        const float limit = KF_TANGENT_VALUE_LIMIT;
        uint32_t most;
        memcpy(&most, &limit, 4);
        const size_t n = (size_t)s->valid_count * c;
        size_t k = 0;
        uint32_t over = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
        const __m128i magnitude = _mm_set1_epi32(0x7FFFFFFF), bound = _mm_set1_epi32((int)most);
        __m128i o = _mm_setzero_si128();
        for (; k + 8 <= n; k += 8) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s->values + k));
            const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s->values + k + 4));
            o = _mm_or_si128(o, _mm_cmpgt_epi32(_mm_and_si128(a, magnitude), bound));
            o = _mm_or_si128(o, _mm_cmpgt_epi32(_mm_and_si128(b, magnitude), bound));
        }
        over = (uint32_t)_mm_movemask_epi8(o);
#endif
        for (; k < n; k++) {
            uint32_t bits;
            memcpy(&bits, &s->values[k], 4);
            over |= (bits & 0x7FFFFFFFu) > most;
        }
        within = over == 0;
    }
    for (uint32_t j = 0; !within && j < s->valid_count; j++)
        for (size_t k = 0; k < c; k++) {
            const float x = s->values[j * c + k];
            if (!(fabsf(x) <= KF_TANGENT_VALUE_LIMIT))
                return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, kf_authored_key(s, j),
                                  "key %u component %u (%g) is beyond +-%g, where the tangents "
                                  "of a spline could leave the float range",
                                  (unsigned)kf_authored_key(s, j), (unsigned)k, (double)x,
                                  (double)KF_TANGENT_VALUE_LIMIT);
        }
    /* A stored hermite tangent is a key tangent times its segment, and no
     * segment is longer than the duration. Tested without a branch per
     * number first; the loop that names the first bad one runs only when
     * one is. */
    const int hermite = s->interpolation == KFB_INTERP_HERMITE && s->key_tangents;
    /* The key tangents are finite (kf_validate_key_tangents), and each
     * product is exact in double: the largest magnitude's stands for all,
     * or a bound of it the caller knows (the reader's facts, of every key's:
     * where it fails, the loop below asks each valid key). */
    const double largest = !hermite ? 0.0
                           : key_tangents_most >= 0.0
                               ? key_tangents_most
                               : kf_max_abs(s->key_tangents, 2 * c * s->valid_count);
    const int in_range = fabs(largest * s->duration) <= FLT_MAX;
    for (uint32_t j = 0; hermite && !in_range && j < s->valid_count; j++)
        for (size_t k = 0; k < 2 * c; k++) {
            const float t = s->key_tangents[2 * c * j + k];
            if (!(fabs((double)t * s->duration) <= FLT_MAX)) {
                const uint32_t key = kf_authored_key(s, j);
                return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, key,
                                  "the %s tangent of key %u (%g) times the duration (%g) leaves "
                                  "the float range",
                                  k < c ? "incoming" : "outgoing", (unsigned)key, (double)t,
                                  (double)s->duration);
            }
        }
    return KF_OK;
}

kf_result kf_validate_arc_length(const struct kf_sequence *s, kf_error *error)
{
    if (!s->arc_length)
        return KF_OK;
    if (s->interpolation != KFB_INTERP_LINEAR && s->interpolation != KFB_INTERP_SPLINE)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ARC_LENGTH, KF_NO_INDEX,
                          "distance tables apply to linear and spline sequences, not %s",
                          kf_interpolation_name((kf_interpolation)s->interpolation));
    uint64_t n = kfb_arc_length_floats(s->repeat, s->valid_count);
    const float *d = s->arc_length;
    if (d[0] != 0.0f)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ARC_LENGTH, 0,
                          "the distance table does not start at 0");
    for (uint64_t i = 1; i < n; i++) {
        /* Negated so that NaN fails too; infinity fails the finiteness test. */
        if (!(d[i] >= d[i - 1]) || !isfinite(d[i]))
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ARC_LENGTH, (uint32_t)i,
                              "distance table entry %llu (%g) is not finite or decreases",
                              (unsigned long long)i, (double)d[i]);
    }
    /* The curve is at least as long as its chords: keys farther apart than
     * FLT_MAX along the way make a table no writer could store (a reader
     * that took it would decompile to a source that does not compile). */
    const uint32_t c = s->components, v = s->valid_count;
    const uint32_t segments = s->repeat == KFB_REPEAT_LOOP ? v : v - 1;
    double chords = 0.0;
    for (uint32_t k = 0; k < segments; k++) {
        const float *a = s->values + (size_t)k * c, *b = s->values + (size_t)((k + 1) % v) * c;
        double d2 = 0.0;
        for (uint32_t m = 0; m < c; m++)
            d2 += ((double)b[m] - a[m]) * ((double)b[m] - a[m]);
        chords += sqrt(d2);
    }
    if (!(chords <= FLT_MAX))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ARC_LENGTH, KF_NO_INDEX,
                          "the keys lie %g apart along the curve, beyond what a distance table "
                          "holds",
                          chords);
    return KF_OK;
}

kf_result kf_validate_controller(const struct kf_controller *c, kf_error *error)
{
    const double fields[6] = {c->speed,      c->weight,    c->active_start,
                              c->active_end, c->ref_world, c->ref_sequence};
    static const kf_field names[6] = {KF_FIELD_SPEED,           KF_FIELD_WEIGHT,
                                      KF_FIELD_ACTIVE_INTERVAL, KF_FIELD_ACTIVE_INTERVAL,
                                      KF_FIELD_REFERENCE,       KF_FIELD_REFERENCE};
    for (int i = 0; i < 6; i++)
        if (!isfinite(fields[i]))
            return kf_fail_at(error, KF_ERROR_VALUE, names[i], (uint32_t)(i & 1),
                              "value is not a finite number");
    if (c->weight < 0.0)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_WEIGHT, KF_NO_INDEX,
                          "weight %g is negative", c->weight);
    if (c->weight > KF_MAX_WEIGHT)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_WEIGHT, KF_NO_INDEX,
                          "weight %g is above the largest a player blends (%g)", c->weight,
                          KF_MAX_WEIGHT);
    if (c->active_start > c->active_end)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ACTIVE_INTERVAL, KF_NO_INDEX,
                          "active interval starts at %g, after its end %g", c->active_start,
                          c->active_end);
    return KF_OK;
}

kf_result kf_validate_track_blend(uint32_t animator_kind, const kf_target *target, kf_error *error)
{
    /* X3D's fan-in is between sensors' events: a sequence has no sensor
     * (and the blocks that play sequences only sum). */
    if (animator_kind == KFB_ANIMATOR_SEQUENCE && target->blend == KF_BLEND_LATEST)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TARGET, KF_NO_INDEX,
                          "target %s blends latest, which only interpolator and follower "
                          "tracks play",
                          KF_QUOTED(target->name));
    return KF_OK;
}

kf_result kf_validate_track(const kf_track *t, const kf_objects *o, kf_error *error)
{
    if (t->target < o->count[KF_KIND_TARGET]) {
        const kf_result r =
            kf_validate_track_blend(t->animator_kind, &o->targets[t->target], error);
        if (r != KF_OK)
            return r;
    }
    if (t->animator_kind != KFB_ANIMATOR_INTERPOLATOR) {
        /* A sequence plays at the controller's position itself. The
         * source has no field for it, so -0 is no file kfc writes. */
        if (t->cycle_interval != 0.0 || signbit(t->cycle_interval))
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_CYCLE_INTERVAL, KF_NO_INDEX,
                              "only interpolator tracks have a cycleInterval");
        if (t->loop != 0)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_LOOP, KF_NO_INDEX,
                              "only interpolator tracks loop");
        if (t->ease != KF_NO_INDEX)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_EASE, KF_NO_INDEX,
                              "only interpolator tracks take an ease");
        return KF_OK;
    }
    if (!(isfinite(t->cycle_interval) && t->cycle_interval > 0.0))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_CYCLE_INTERVAL, KF_NO_INDEX,
                          "cycleInterval must be greater than 0, not %g", t->cycle_interval);
    /* No f32 widens to a subnormal double, and one keeps fewer bits than
     * the f32 it replaces: no cycle a writer means. */
    if (t->cycle_interval < DBL_MIN)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_CYCLE_INTERVAL, KF_NO_INDEX,
                          "cycleInterval %g is subnormal", t->cycle_interval);
    if (t->loop > 1)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_LOOP, KF_NO_INDEX,
                          "loop is %u, not 0 or 1", (unsigned)t->loop);
    if (t->ease != KF_NO_INDEX && (t->ease >= o->count[KF_KIND_INTERPOLATOR] ||
                                   o->interpolators[t->ease].node != KFB_NODE_EASE_IN_EASE_OUT))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_EASE, KF_NO_INDEX,
                          "ease must name an EaseInEaseOut interpolator");
    return KF_OK;
}

/* ---- followers (docs/math.md §4) --------------------------------------- */

kf_result kf_validate_follower_header(const struct kf_follower *f, kf_error *error)
{
    if (f->node >= KFB_FOLLOWER_NODE_COUNT)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_NODE, KF_NO_INDEX,
                          "unknown follower node %u", (unsigned)f->node);
    const kf_follower_node node = (kf_follower_node)f->node;
    const char *name = kf_follower_node_name(node);
    if (kf_follower_node_is_array(node)) {
        if (f->element_count < 1 || f->element_count > UINT32_MAX / 4)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, KF_NO_INDEX,
                              "a %s needs 1 to %u points, not %u", name, (unsigned)(UINT32_MAX / 4),
                              (unsigned)f->element_count);
    } else if (f->element_count != 1) {
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, KF_NO_INDEX,
                          "%s %s has single values, not arrays of %u",
                          strchr("AEIOU", name[0]) ? "an" : "a", name, (unsigned)f->element_count);
    }
    const int damper = kf_follower_node_is_damper(node);
    if (!(isfinite(f->duration) && f->duration >= 0.0f))
        return kf_fail_at(error, KF_ERROR_VALUE, damper ? KF_FIELD_TAU : KF_FIELD_DURATION,
                          KF_NO_INDEX, "%s must be 0 or more, not %g", damper ? "tau" : "duration",
                          (double)f->duration);
    if (damper) {
        if (f->order > 5)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ORDER, KF_NO_INDEX,
                              "order must be 0 to 5, not %u", (unsigned)f->order);
        if (!(f->tolerance == -1.0f || (isfinite(f->tolerance) && f->tolerance >= 0.0f)))
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TOLERANCE, KF_NO_INDEX,
                              "tolerance must be -1 or 0 or more, not %g", (double)f->tolerance);
    } else {
        /* Chasers have neither field; storing anything else would make two
         * files for one source. */
        if (f->order != 0)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_ORDER, KF_NO_INDEX,
                              "a chaser has no order (%u)", (unsigned)f->order);
        if (f->tolerance != -1.0f)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TOLERANCE, KF_NO_INDEX,
                              "a chaser has no tolerance (%g)", (double)f->tolerance);
    }
    return KF_OK;
}

kf_result kf_validate_follower_field(const struct kf_follower *f, const float *v, kf_field field,
                                     kf_error *error)
{
    const uint32_t c = kf_follower_node_field_components((kf_follower_node)f->node);
    const int color = f->node == KFB_FOLLOWER_COLOR_CHASER || f->node == KFB_FOLLOWER_COLOR_DAMPER;
    const char *what = field == KF_FIELD_INITIAL_VALUE ? "initialValue" : "initialDestination";
    for (uint32_t e = 0; e < f->element_count; e++) {
        for (uint32_t k = 0; k < c; k++) {
            float x = v[(size_t)e * c + k];
            if (!isfinite(x))
                return kf_fail_at(error, KF_ERROR_VALUE, field, e,
                                  "%s element %u component %u is not a finite number", what,
                                  (unsigned)e, (unsigned)k);
            if (color && !(x >= 0.0f && x <= 1.0f))
                return kf_fail_at(error, KF_ERROR_VALUE, field, e,
                                  "%s colour component %u is %g, outside [0, 1]", what, (unsigned)k,
                                  (double)x);
        }
    }
    return KF_OK;
}

kf_result kf_validate_follower(const struct kf_follower *f, kf_error *error)
{
    kf_result r = kf_validate_follower_header(f, error);
    if (r != KF_OK)
        return r;
    r = kf_validate_follower_field(f, f->initial_value, KF_FIELD_INITIAL_VALUE, error);
    if (r == KF_OK)
        r = kf_validate_follower_field(f, f->initial_destination, KF_FIELD_INITIAL_DESTINATION,
                                       error);
    if (r != KF_OK)
        return r;
    if (kf_follower_rotation_floats(f->node)) {
        /* The stored quaternions must be the authored rotations: playback
         * uses them, decompiling prints the axis-angle. A rounding of the
         * conversion is allowed, not a different rotation. */
        const float *authored[2] = {f->initial_value, f->initial_destination};
        for (int i = 0; i < 2; i++) {
            const float *q = f->rotations + 4 * i;
            double want[4], got[4] = {q[0], q[1], q[2], q[3]};
            kf_rotation_to_quat(authored[i], want);
            double n2 = kf_qdot(got, got);
            if (!isfinite(n2) || fabs(n2 - 1.0) > 1e-5 ||
                fabs(kf_qdot(got, want)) < (1.0 - 1e-9) * sqrt(n2))
                return kf_fail_at(error, KF_ERROR_VALUE,
                                  i ? KF_FIELD_INITIAL_DESTINATION : KF_FIELD_INITIAL_VALUE, 0,
                                  "the stored quaternion of %s is not its rotation",
                                  i ? "initialDestination" : "initialValue");
        }
    }
    return KF_OK;
}
