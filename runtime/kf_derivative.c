/*
 * kf_derivative.c - velocity and acceleration of LINEAR and SPLINE sequences
 * (kf.h), and the per-segment curve evaluation that arc length shares.
 *
 * A segment's curve is P(u), u in [0, 1] over a duration L, so
 * dP/dt = P'(u) / L and d2P/dt2 = P''(u) / L^2.
 */
#include <math.h>
#include <string.h>

#include "kf_internal.h"
#include "kf_math.h"

void kf_segment_of(const struct kf_sequence *s, uint32_t key, kf_segment *seg)
{
    const uint32_t c = s->components;
    const uint32_t next = key + 1 < s->valid_count ? key + 1 : 0;
    seg->components = c;
    seg->spline = s->interpolation == KFB_INTERP_SPLINE;
    seg->a = s->values + (size_t)key * c;
    seg->b = s->values + (size_t)next * c;
    seg->ta = seg->spline ? s->tangent_out + (size_t)key * c : NULL;
    seg->tb = seg->spline ? s->tangent_in + (size_t)next * c : NULL;
}

/* The weights of a, b, ta, tb in the order-th derivative at u. */
static void weights(const kf_segment *seg, int order, double u, double h[4])
{
    if (seg->spline) {
        if (order == 0)
            kf_hermite_basis(u, h);
        else if (order == 1)
            kf_hermite_basis_d1(u, h);
        else
            kf_hermite_basis_d2(u, h);
        return;
    }
    static const double linear[3][2] = {{1.0, 0.0}, {-1.0, 1.0}, {0.0, 0.0}};
    h[0] = order == 0 ? 1.0 - u : linear[order][0];
    h[1] = order == 0 ? u : linear[order][1];
    h[2] = h[3] = 0.0;
}

double kf_segment_component(const kf_segment *seg, const double h[4], uint32_t k)
{
    double v = h[0] * seg->a[k] + h[1] * seg->b[k];
    if (seg->spline)
        v += h[2] * seg->ta[k] + h[3] * seg->tb[k];
    return v;
}

void kf_segment_eval(const kf_segment *seg, int order, double u, double scale, float *out)
{
    double h[4];
    weights(seg, order, u, h);
    for (uint32_t k = 0; k < seg->components; k++)
        out[k] = (float)(kf_segment_component(seg, h, k) * scale);
}

double kf_segment_speed(const kf_segment *seg, double u)
{
    double h[4], sum = 0.0;
    weights(seg, 1, u, h);
    for (uint32_t k = 0; k < seg->components; k++) {
        double d = kf_segment_component(seg, h, k);
        sum += d * d;
    }
    return sqrt(sum);
}

static int has_derivatives(const struct kf_sequence *s)
{
    return s->interpolation == KFB_INTERP_LINEAR || s->interpolation == KFB_INTERP_SPLINE;
}

static kf_result derivative(const kf_sequence *s, int order, double t, kf_cursor *cursor,
                            float *out)
{
    memset(out, 0, s->components * sizeof *out);
    if (!has_derivatives(s))
        return KF_ERROR_ARGUMENT;
    kf_span span;
    kf_sequence_locate(s, t, cursor, &span);
    if (span.held)
        return KF_OK;
    kf_segment seg;
    kf_segment_of(s, span.key, &seg);
    const double scale = order == 1 ? 1.0 / span.length : 1.0 / (span.length * span.length);
    kf_segment_eval(&seg, order, span.u, scale, out);
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
