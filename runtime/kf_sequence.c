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

/* The last key i with times[i] <= t, given times[0] <= t. Coincident keys
 * thus resolve to the later one. The cursor's key and its successor are
 * tried before a binary search. */
static uint32_t find_segment(const float *times, uint32_t count, double t, uint32_t hint)
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

double kf_sequence_segment_duration(const struct kf_sequence *s, uint32_t i)
{
    if (i + 1 < s->valid_count)
        return (double)s->times[i + 1] - s->times[i];
    return (double)s->duration - s->times[i] + s->times[0];
}

void kf_sequence_locate(const struct kf_sequence *s, double t, kf_cursor *cursor, kf_span *span)
{
    const uint32_t count = s->valid_count;
    const float *times = s->times;
    const double t0 = times[0];

    span->held = 1;
    span->key = span->next = 0;
    span->u = span->length = 0.0;
    span->time = t;
    if (count == 1 || isnan(t))
        return;
    if (s->repeat == KFB_REPEAT_LOOP) {
        t = loop_time(t, t0, s->duration);
        span->time = t;
        if (isnan(t)) /* an infinite time has no place in the period */
            return;
    } else if (t < t0) {
        return;
    } else if (t >= times[count - 1]) {
        span->key = count - 1;
        return;
    }

    uint32_t i = find_segment(times, count, t, cursor ? cursor->key : 0);
    if (cursor)
        cursor->key = i;
    span->key = i;
    span->next = i + 1 < count ? i + 1 : 0;
    span->length = kf_sequence_segment_duration(s, i);
    /* A zero-length segment is only reachable through rounding; its start
     * key is the value there. */
    if (!(span->length > 0.0))
        return;
    span->held = 0;
    span->u = t == times[i] ? 0.0 : (t - times[i]) / span->length;
}

void kf_sequence_sample(const kf_sequence *s, double t, kf_cursor *cursor, float *out)
{
    const uint32_t c = s->components;
    kf_span span;
    kf_sequence_locate(s, t, cursor, &span);
    const uint32_t i = span.key, j = span.next;
    if (span.held || s->interpolation == KFB_INTERP_STEP || span.u == 0.0) {
        copy_key(s, i, out);
        return;
    }
    const double u = span.u;
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
