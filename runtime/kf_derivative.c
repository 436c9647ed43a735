/* SPDX-License-Identifier: MIT */
/*
 * kf_derivative.c - velocity and acceleration of LINEAR and SPLINE sequences
 * (kf.h), and the per-segment curves that arc length shares.
 *
 * A segment's curve is P(u), u in [0, 1] over a duration L, so
 * dP/dt = P'(u) / L and d2P/dt2 = P''(u) / L^2. Everything is evaluated in
 * double from the stored float32 keys and tangents.
 */
#include <math.h>
#include <string.h>

#include "kf_private.h"
#include "kf_math.h"
#include "kf_sample.h"

double kf_sequence_segment_duration(const struct kf_sequence *s, uint32_t i)
{
    if (i + 1 < s->valid_count)
        return (double)s->times[i + 1] - s->times[i];
    return (double)s->duration - s->times[i] + s->times[0];
}

void kf_curve_locate(const struct kf_sequence *s, double t, kf_cursor *cursor,
                     kf_curve_position *pos)
{
    const uint32_t count = s->valid_count;
    pos->on_curve = 0;
    pos->key = 0;
    pos->u = pos->length = 0.0;
    /* kf_locate holds the value in these cases and at key times alike;
     * only the first are held around t. */
    if (count == 1 || isnan(t))
        return;
    if (s->repeat == KFB_REPEAT_LOOP) {
        if (isinf(t))
            return;
    } else if (t < s->times[0]) {
        return;
    } else if (t >= s->times[count - 1]) {
        pos->key = count - 1;
        return;
    }
    kf_segment seg;
    uint32_t hint = cursor ? cursor->key : 0;
    kf_locate(s, t, &hint, &seg);
    if (cursor)
        cursor->key = hint;
    pos->key = seg.i;
    pos->length = kf_sequence_segment_duration(s, seg.i);
    /* A segment of no duration is only reached through rounding: its start
     * key holds. */
    if (!(pos->length > 0.0))
        return;
    pos->on_curve = 1;
    pos->u = seg.hold ? 0.0 : seg.u;
}

void kf_curve_of(const struct kf_sequence *s, uint32_t key, kf_curve *curve)
{
    const uint32_t c = s->components;
    const uint32_t next = key + 1 < s->valid_count ? key + 1 : 0;
    curve->components = c;
    curve->spline = s->interpolation == KFB_INTERP_SPLINE || s->interpolation == KFB_INTERP_HERMITE;
    curve->a = kf_key_floats(s, s->values, key, curve->keys[0]);
    curve->b = kf_key_floats(s, s->values, next, curve->keys[1]);
    curve->ta = curve->spline ? kf_key_floats(s, s->tangent_out, key, curve->keys[2]) : NULL;
    curve->tb = curve->spline ? kf_key_floats(s, s->tangent_in, next, curve->keys[3]) : NULL;
}

/* The weights of a, b, ta, tb in the order-th derivative at u. */
static void weights(const kf_curve *curve, int order, double u, double h[4])
{
    if (curve->spline) {
        if (order == 0)
            kf_hermite_basis(u, h);
        else if (order == 1)
            kf_hermite_basis_d1(u, h);
        else
            kf_hermite_basis_d2(u, h);
        return;
    }
    h[0] = order == 0 ? 1.0 - u : order == 1 ? -1.0 : 0.0;
    h[1] = order == 0 ? u : order == 1 ? 1.0 : 0.0;
    h[2] = h[3] = 0.0;
}

static double component(const kf_curve *curve, const double h[4], uint32_t k)
{
    double v = h[0] * curve->a[k] + h[1] * curve->b[k];
    if (curve->spline)
        v += h[2] * curve->ta[k] + h[3] * curve->tb[k];
    return v;
}

void kf_curve_eval(const kf_curve *curve, int order, double u, double scale, float *out)
{
    double h[4];
    weights(curve, order, u, h);
    for (uint32_t k = 0; k < curve->components; k++)
        out[k] = kf_narrow_saturate(component(curve, h, k) * scale);
}

double kf_curve_speed(const kf_curve *curve, double u)
{
    double h[4], sum = 0.0;
    weights(curve, 1, u, h);
    for (uint32_t k = 0; k < curve->components; k++) {
        double d = component(curve, h, k);
        sum += d * d;
    }
    return sqrt(sum);
}

static kf_result derivative(const kf_sequence *s, int order, double t, kf_cursor *cursor,
                            float *out)
{
    if (!s || !out)
        return KF_ERROR_ARGUMENT;
    memset(out, 0, s->components * sizeof *out);
    if (s->interpolation != KFB_INTERP_LINEAR && s->interpolation != KFB_INTERP_SPLINE &&
        s->interpolation != KFB_INTERP_HERMITE)
        return KF_ERROR_ARGUMENT;
    kf_curve_position pos;
    kf_curve_locate(s, t, cursor, &pos);
    if (!pos.on_curve)
        return KF_OK;
    kf_curve curve;
    kf_curve_of(s, pos.key, &curve);
    const double scale = order == 1 ? 1.0 / pos.length : 1.0 / (pos.length * pos.length);
    kf_curve_eval(&curve, order, pos.u, scale, out);
    return KF_OK;
}

kf_result kf_sequence_velocity(const kf_sequence *s, double t, kf_cursor *cursor, float *out)
{
    return derivative(s, 1, t, cursor, out);
}

kf_result kf_sequence_acceleration(const kf_sequence *s, double t, kf_cursor *cursor, float *out)
{
    return derivative(s, 2, t, cursor, out);
}
