/*
 * kf_sequence.c - sampling an M3G KeyframeSequence (SPEC-NOTES 1.3, 1.4).
 *
 * Keys are stored with the valid range first (kf_internal.h), so everything
 * here works on keys 0 .. valid_count-1; the segment after the last valid key
 * is the LOOP wrap segment back to key 0.
 */
#include <math.h>
#include <string.h>

#include "kf_internal.h"
#include "kf_math.h"

static void copy_key(const struct kf_sequence *s, uint32_t key, float *out)
{
    memcpy(out, s->values + (size_t)key * s->components, s->components * sizeof(float));
}

/* LOOP: t' = t_0 + ((t - t_0) mod D), floored, in [t_0, t_0 + D). fmod is
 * exact, so positions far from zero loop without drift. */
static double loop_time(double t, double t0, double duration)
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

/* Coincident keys resolve to the later one (SPEC-NOTES 1.3, 3). */
uint32_t kf_find_segment(const float *times, uint32_t count, double t, uint32_t hint)
{
    if (hint < count && times[hint] <= t) {
        if (hint + 1 >= count || times[hint + 1] > t)
            return hint;
        if (hint + 2 >= count || times[hint + 2] > t)
            return hint + 1;
    }
    uint32_t lo = 0, hi = count; /* first index with times[i] > t is in (lo, hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void load_quat(const float *q, double out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = q[i];
}

static void store(const double *v, uint32_t n, float *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = (float)v[i];
}

void kf_sequence_sample(const kf_sequence *s, double t, kf_cursor *cursor, float *out)
{
    const uint32_t count = s->valid_count, c = s->components;
    const float *times = s->times;
    const double t0 = times[0];

    if (count == 1 || isnan(t)) {
        copy_key(s, 0, out);
        return;
    }
    if (s->repeat == KFB_REPEAT_LOOP) {
        t = loop_time(t, t0, s->duration);
        if (isnan(t)) { /* an infinite time has no place in the period */
            copy_key(s, 0, out);
            return;
        }
    } else if (t < t0) {
        copy_key(s, 0, out);
        return;
    } else if (t >= times[count - 1]) {
        copy_key(s, count - 1, out);
        return;
    }

    uint32_t i = kf_find_segment(times, count, t, cursor ? cursor->key : 0);
    if (cursor)
        cursor->key = i;
    const uint32_t j = i + 1 < count ? i + 1 : 0;
    const double length = j ? (double)times[j] - times[i] : s->duration - times[i] + t0;
    if (s->interpolation == KFB_INTERP_STEP || t == times[i] || !(length > 0.0)) {
        copy_key(s, i, out);
        return;
    }
    const double u = (t - times[i]) / length;
    const float *a = s->values + (size_t)i * c, *b = s->values + (size_t)j * c;

    switch (s->interpolation) {
    case KFB_INTERP_LINEAR:
        for (uint32_t k = 0; k < c; k++)
            out[k] = (float)((1.0 - u) * a[k] + u * b[k]);
        break;
    case KFB_INTERP_SPLINE: {
        double h[4];
        kf_hermite_basis(u, h);
        const float *ta = s->tangent_out + (size_t)i * c, *tb = s->tangent_in + (size_t)j * c;
        for (uint32_t k = 0; k < c; k++)
            out[k] = (float)(h[0] * a[k] + h[1] * b[k] + h[2] * ta[k] + h[3] * tb[k]);
        break;
    }
    case KFB_INTERP_SLERP: {
        double qa[4], qb[4], q[4];
        load_quat(a, qa);
        load_quat(b, qb);
        kf_qslerp(qa, qb, u, q);
        store(q, 4, out);
        break;
    }
    default: { /* SQUAD */
        double qa[4], qb[4], sa[4], sb[4], q1[4], q2[4], q[4];
        load_quat(a, qa);
        load_quat(b, qb);
        load_quat(s->tangent_out + 4 * (size_t)i, sa);
        load_quat(s->tangent_in + 4 * (size_t)j, sb);
        kf_qslerp(qa, qb, u, q1);
        kf_qslerp(sa, sb, u, q2);
        kf_qslerp(q1, q2, 2.0 * u * (1.0 - u), q);
        store(q, 4, out);
        break;
    }
    }
}
