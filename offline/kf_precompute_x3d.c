/* SPDX-License-Identifier: MIT */
/*
 * kf_precompute_x3d.c - what X3D interpolators store beyond their fields
 * (docs/math.md §3): which velocity and which time-scale factors each spline
 * key gets, squad control quaternions, rotations as quaternions, colours in
 * HSV. The tangent and squad arithmetic itself is the per-key core of
 * kf_precompute.c, shared with M3G.
 */
#include <math.h>
#include <string.h>

#include "kf_offline.h"
#include "kf_math.h"
#include "kf_precompute.h"

/* Vec3f is the widest spline value. */
#define MAX_SPLINE_COMPONENTS 3

void kf_x3d_time_scales(double d_prev, double d_next, double *f_in, double *f_out)
{
    const double sum = d_prev + d_next;
    if (sum == 0.0) {
        *f_in = *f_out = 0.0;
        return;
    }
    *f_in = 2.0 * d_next / sum;
    *f_out = 2.0 * d_prev / sum;
}

static int same_value(const float *a, const float *b, uint32_t components)
{
    for (uint32_t c = 0; c < components; c++)
        if (a[c] != b[c])
            return 0;
    return 1;
}

static double distance(const float *a, const float *b, uint32_t components)
{
    double sum = 0.0;
    for (uint32_t c = 0; c < components; c++) {
        double d = (double)a[c] - b[c];
        sum += d * d;
    }
    return sqrt(sum);
}

/* keyVelocity entry `given` as the velocity T_i: as written, or with
 * normalizeVelocity scaled to length `total` (a zero vector stays zero). */
static void velocity(const float *given, uint32_t components, int normalize, double total,
                     double *t)
{
    double len = 0.0;
    for (uint32_t c = 0; c < components; c++)
        len += (double)given[c] * given[c];
    len = sqrt(len);
    const double k = normalize ? (len > 0.0 ? total / len : 0.0) : 1.0;
    for (uint32_t c = 0; c < components; c++)
        t[c] = k * given[c];
}

void kf_x3d_spline_tangents(const float *keys, const float *values, uint32_t count,
                            uint32_t components, const float *velocities, uint32_t velocity_count,
                            int closed, int normalize_velocity, float *out, float *in)
{
    const uint32_t c = components, last = count - 1;
    const int given_all = velocity_count == count;
    const int given_ends = given_all || velocity_count == 2;
    /* Dtot: the length of the polyline through the values. */
    double total = 0.0;
    for (uint32_t i = 0; normalize_velocity && given_ends && i < last; i++)
        total += distance(values + (size_t)i * c, values + (size_t)(i + 1) * c, c);
    closed =
        closed && count >= 2 && !given_ends && same_value(values, values + (size_t)last * c, c);

    for (uint32_t i = 0; i < count; i++) {
        const float *given = NULL;
        if (given_all)
            given = velocities + (size_t)i * c;
        else if (given_ends && i == 0)
            given = velocities;
        else if (given_ends && i == last)
            given = velocities + c;
        double t[MAX_SPLINE_COMPONENTS];
        if (given)
            velocity(given, c, normalize_velocity, total, t);
        float *o = out + (size_t)i * c, *n = in + (size_t)i * c;

        if ((i == 0 || i == last) && !closed) {
            /* Open ends: the given velocity unscaled, else no velocity. */
            if (given) {
                kf_key_velocity_tangents(t, c, 1.0, 1.0, o, n);
            } else {
                memset(o, 0, c * sizeof *o);
                memset(n, 0, c * sizeof *n);
            }
            continue;
        }
        /* Interior keys, and the ends of a closed curve, which wrap:
         * t_-1 = t_N-2, v_-1 = v_N-2, t_N = t_1, v_N = v_1. */
        const uint32_t prev = i ? i - 1 : last - 1, next = i < last ? i + 1 : 1;
        const double d_prev =
            i ? (double)keys[i] - keys[i - 1] : (double)keys[last] - keys[last - 1];
        const double d_next = i < last ? (double)keys[i + 1] - keys[i] : (double)keys[1] - keys[0];
        double f_in, f_out;
        kf_x3d_time_scales(d_prev, d_next, &f_in, &f_out);
        if (given)
            kf_key_velocity_tangents(t, c, f_in, f_out, o, n);
        else
            kf_key_tangents(values + (size_t)prev * c, values + (size_t)i * c,
                            values + (size_t)next * c, c, &kf_catmull_rom_weights, f_in, f_out, o,
                            n);
    }
}

/* q, negated if that brings it into the hemisphere of `ref`. */
static void hemisphere(const float *q, const float *ref, float *out)
{
    double dot = 0.0;
    for (int k = 0; k < 4; k++)
        dot += (double)q[k] * ref[k];
    for (int k = 0; k < 4; k++)
        out[k] = dot < 0.0 ? -q[k] : q[k];
}

void kf_x3d_squad(const float *quats, uint32_t count, int closed, float *s)
{
    const uint32_t last = count - 1;
    if (closed && count >= 2) {
        double dot = 0.0;
        for (int k = 0; k < 4; k++)
            dot += (double)quats[k] * quats[4 * (size_t)last + k];
        closed = fabs(dot) >= 1.0 - 1e-6;
    } else {
        closed = 0;
    }
    for (uint32_t i = 0; i < count; i++) {
        const float *q = quats + 4 * (size_t)i;
        if ((i == 0 || i == last) && !closed) {
            memcpy(s + 4 * (size_t)i, q, 4 * sizeof *s);
            continue;
        }
        const uint32_t prev = i ? i - 1 : last - 1, next = i < last ? i + 1 : 1;
        float p[4], n[4], unused[4];
        hemisphere(quats + 4 * (size_t)prev, q, p);
        hemisphere(quats + 4 * (size_t)next, q, n);
        /* With Catmull-Rom weights and unit factors both intermediates
         * are Shoemake's q_i exp(-(log(q_i^-1 q_n) + log(q_i^-1 q_p)) / 4). */
        kf_key_squad(p, q, n, &kf_catmull_rom_weights, 1.0, 1.0, s + 4 * (size_t)i, unused);
    }
}

void kf_precompute_interpolator(const struct kf_interpolator *p, float *derived)
{
    const uint32_t n = p->key_count;
    switch (p->node) {
    case KFB_NODE_COLOR_INTERPOLATOR:
        for (uint32_t i = 0; i < n; i++) {
            const double rgb[3] = {p->values[3 * i], p->values[3 * i + 1], p->values[3 * i + 2]};
            double hsv[3];
            kf_rgb_to_hsv(rgb, hsv);
            for (int k = 0; k < 3; k++)
                derived[3 * (size_t)i + k] = (float)hsv[k];
            /* Keep h below a full turn after rounding to float. */
            if (derived[3 * (size_t)i] >= 6.0f)
                derived[3 * (size_t)i] = 0.0f;
        }
        break;
    case KFB_NODE_ORIENTATION_INTERPOLATOR:
    case KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR:
        for (uint32_t i = 0; i < n; i++) {
            double q[4];
            kf_rotation_to_quat(p->values + 4 * (size_t)i, q);
            kf_narrow(q, 4, derived + 4 * (size_t)i);
        }
        if (p->node == KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR)
            kf_x3d_squad(derived, n, (p->flags & KFB_INTERPOLATOR_CLOSED) != 0,
                         derived + 4 * (size_t)n);
        break;
    case KFB_NODE_SPLINE_SCALAR_INTERPOLATOR:
    case KFB_NODE_SPLINE_POSITION_INTERPOLATOR:
    case KFB_NODE_SPLINE_POSITION_INTERPOLATOR_2D: {
        const uint32_t d = kf_node_dimension((kf_node)p->node);
        kf_x3d_spline_tangents(p->keys, p->values, n, d, p->velocities, p->velocity_count,
                               (p->flags & KFB_INTERPOLATOR_CLOSED) != 0,
                               (p->flags & KFB_INTERPOLATOR_NORMALIZE_VELOCITY) != 0, derived,
                               derived + (size_t)n * d);
        break;
    }
    default:
        break;
    }
}
