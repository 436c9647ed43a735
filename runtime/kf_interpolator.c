/* SPDX-License-Identifier: MIT */
/*
 * kf_interpolator.c - sampling X3D interpolators and EaseInEaseOut
 * (docs/math.md §3), and the TimeSensor that drives them from a track (§2.4).
 *
 * Everything that depends only on the fields (quaternions, HSV, tangents,
 * squad control points) was computed when the file was written; sampling
 * finds the segment and evaluates, in double, with no allocation.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kf_private.h"
#include "kf_math.h"
#include "kf_sample.h"

const kf_interpolator *kf_anim_interpolator(const kf_anim *anim, uint32_t index)
{
    if (!anim || index >= anim->objects.count[KF_KIND_INTERPOLATOR])
        return NULL;
    return &anim->objects.interpolators[index];
}

static uint32_t values_per_key(const struct kf_interpolator *p)
{
    return p->node == KFB_NODE_EASE_IN_EASE_OUT ? 1 : p->value_count / p->key_count;
}

uint32_t kf_interpolator_components(const kf_interpolator *p)
{
    if (!p)
        return 0;
    if (p->node == KFB_NODE_EASE_IN_EASE_OUT)
        return 1;
    return values_per_key(p) * kf_node_dimension((kf_node)p->node);
}

void kf_interpolator_get_info(const kf_interpolator *p, kf_interpolator_info *info)
{
    if (!info)
        return;
    if (!p) {
        memset(info, 0, sizeof *info);
        info->name = "";
        return;
    }
    const int ease = p->node == KFB_NODE_EASE_IN_EASE_OUT;
    memset(info, 0, sizeof *info);
    info->name = p->name;
    info->node = (kf_node)p->node;
    info->key_count = p->key_count;
    info->key = p->keys;
    info->value_count = ease ? 0 : p->value_count;
    info->dimension = ease ? 0 : kf_node_dimension((kf_node)p->node);
    info->key_value = ease ? NULL : p->values;
    info->velocity_count = p->velocity_count;
    info->key_velocity = p->velocities;
    info->ease_in_ease_out = ease ? p->values : NULL;
    info->closed = (p->flags & KFB_INTERPOLATOR_CLOSED) != 0;
    info->normalize_velocity = (p->flags & KFB_INTERPOLATOR_NORMALIZE_VELOCITY) != 0;
    info->components = kf_interpolator_components(p);
}

void kf_quat_to_axis_angle(const float quat[4], float axis_angle[4])
{
    if (!quat || !axis_angle)
        return;
    double q[4] = {quat[0], quat[1], quat[2], quat[3]};
    if (q[3] < 0.0) /* the same rotation, with an angle in [0, pi] */
        for (int k = 0; k < 4; k++)
            q[k] = -q[k];
    const double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    if (!(s > 0.0)) {
        axis_angle[0] = axis_angle[1] = axis_angle[3] = 0.0f;
        axis_angle[2] = 1.0f;
        return;
    }
    for (int k = 0; k < 3; k++)
        axis_angle[k] = (float)(q[k] / s);
    axis_angle[3] = (float)(2.0 * atan2(s, q[3]));
}

/* ---- segments ------------------------------------------------------------ */

/* Where `fraction` falls: at key *key (returns 0), or inside the segment
 * [key, key+1) at local fraction *u in (0, 1) (returns 1). As for sequences
 * (kf_locate), the key is chosen at float32 precision (X3D's set_fraction is
 * an SFFloat), the local fraction from the double. */
static int locate(const struct kf_interpolator *p, double fraction, kf_cursor *cursor,
                  uint32_t *key, double *u)
{
    const uint32_t n = p->key_count;
    const float *k = p->keys;
    const double placed = kf_key_precision(fraction);
    if (n == 1 || isnan(fraction) || placed <= k[0]) {
        *key = 0;
        return 0;
    }
    if (placed >= k[n - 1]) {
        *key = n - 1;
        return 0;
    }
    /* k[0] < placed < k[n-1]: the segment found has positive length. */
    uint32_t i = kf_find_segment(k, n, placed, cursor ? cursor->key : 0);
    if (cursor)
        cursor->key = i;
    *key = i;
    if (placed == k[i])
        return 0;
    *u = (fraction - k[i]) / ((double)k[i + 1] - k[i]);
    return *u > 0.0;
}

/* EaseInEaseOut's local mapping u -> u' of segment i (clause 19.4.3). */
static double ease_local(const struct kf_interpolator *p, uint32_t i, double u)
{
    double e_out = p->values[2 * (size_t)i + 1], e_in = p->values[2 * (size_t)(i + 1)];
    const double sum = e_out + e_in;
    if (sum < 0.0)
        return u;
    if (sum > 1.0) {
        e_out /= sum;
        e_in /= sum;
    }
    const double t = 1.0 / (2.0 - e_out - e_in);
    if (u < e_out)
        return t / e_out * u * u;
    /* e_in = 0 never reaches the last branch: u < 1 here. */
    if (u < 1.0 - e_in || !(e_in > 0.0))
        return t * (2.0 * u - e_out);
    return 1.0 - t * (1.0 - u) * (1.0 - u) / e_in;
}

double kf_interpolator_ease(const kf_interpolator *p, double fraction)
{
    if (!p || p->node != KFB_NODE_EASE_IN_EASE_OUT)
        return fraction;
    uint32_t i;
    double u;
    if (!locate(p, fraction, NULL, &i, &u))
        return p->keys[i];
    /* Mapped back onto the keys, so that interpolators sharing them ease
     * at every key (docs/math.md §3.8). */
    return p->keys[i] + ease_local(p, i, u) * ((double)p->keys[i + 1] - p->keys[i]);
}

/* ---- values ---------------------------------------------------------------- */

static void normalize3(double v[3])
{
    const double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0)
        for (int k = 0; k < 3; k++)
            v[k] /= len;
}

/* The value at key i exactly. */
static void key_value(const struct kf_interpolator *p, uint32_t i, float *out)
{
    const uint32_t components = kf_interpolator_components(p);
    switch (p->node) {
    case KFB_NODE_EASE_IN_EASE_OUT:
        out[0] = p->keys[i];
        break;
    case KFB_NODE_ORIENTATION_INTERPOLATOR:
    case KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR:
        memcpy(out, p->derived + 4 * (size_t)i, 4 * sizeof *out);
        break;
    case KFB_NODE_NORMAL_INTERPOLATOR:
        for (uint32_t j = 0; j < components; j += 3) {
            double v[3];
            kf_widen(p->values + (size_t)i * components + j, 3, v);
            normalize3(v);
            kf_narrow(v, 3, out + j);
        }
        break;
    default:
        memcpy(out, p->values + (size_t)i * components, components * sizeof *out);
        break;
    }
}

/* ColorInterpolator: linear in HSV, hue (in sixths of a turn) the shorter
 * way round; a grey key takes the other key's hue. */
static void sample_color(const float *hsv_a, const float *hsv_b, double u, float *out)
{
    double a[3], b[3], hsv[3], rgb[3];
    kf_widen(hsv_a, 3, a);
    kf_widen(hsv_b, 3, b);
    if (a[1] == 0.0)
        a[0] = b[0];
    else if (b[1] == 0.0)
        b[0] = a[0];
    double dh = b[0] - a[0];
    if (dh > 3.0) /* exactly half a turn goes the direct way */
        dh -= 6.0;
    else if (dh < -3.0)
        dh += 6.0;
    hsv[0] = a[0] + u * dh;
    hsv[1] = a[1] + u * (b[1] - a[1]);
    hsv[2] = a[2] + u * (b[2] - a[2]);
    kf_hsv_to_rgb(hsv, rgb);
    kf_narrow(rgb, 3, out);
}

void kf_interpolator_sample(const kf_interpolator *p, double fraction, kf_cursor *cursor,
                            float *out)
{
    uint32_t i;
    double u;
    if (!p || !out)
        return;
    if (p->node == KFB_NODE_EASE_IN_EASE_OUT) {
        out[0] = (float)kf_interpolator_ease(p, fraction);
        return;
    }
    if (!locate(p, fraction, cursor, &i, &u)) {
        key_value(p, i, out);
        return;
    }
    const uint32_t c = kf_interpolator_components(p), j = i + 1;
    const float *a = p->values + (size_t)i * c, *b = p->values + (size_t)j * c;

    switch (p->node) {
    case KFB_NODE_COLOR_INTERPOLATOR:
        sample_color(p->derived + 3 * (size_t)i, p->derived + 3 * (size_t)j, u, out);
        break;
    case KFB_NODE_NORMAL_INTERPOLATOR:
        for (uint32_t k = 0; k < c; k += 3) {
            double va[3], vb[3], v[3];
            kf_widen(a + k, 3, va);
            kf_widen(b + k, 3, vb);
            normalize3(va);
            normalize3(vb);
            kf_vslerp(va, vb, u, v);
            kf_narrow(v, 3, out + k);
        }
        break;
    case KFB_NODE_ORIENTATION_INTERPOLATOR: {
        double qa[4], qb[4], q[4], unit[4];
        kf_widen(p->derived + 4 * (size_t)i, 4, qa);
        kf_widen(p->derived + 4 * (size_t)j, 4, qb);
        kf_qslerp_short(qa, qb, u, q);
        kf_qnormalize(q, unit);
        kf_narrow(unit, 4, out);
        break;
    }
    case KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR: {
        const float *s = p->derived + 4 * (size_t)p->key_count;
        double qa[4], qb[4], sa[4], sb[4], q1[4], q2[4], q[4], unit[4];
        kf_widen(p->derived + 4 * (size_t)i, 4, qa);
        kf_widen(p->derived + 4 * (size_t)j, 4, qb);
        kf_widen(s + 4 * (size_t)i, 4, sa);
        kf_widen(s + 4 * (size_t)j, 4, sb);
        kf_qslerp_short(qa, qb, u, q1);
        kf_qslerp_short(sa, sb, u, q2);
        kf_qslerp_short(q1, q2, 2.0 * u * (1.0 - u), q);
        kf_qnormalize(q, unit);
        kf_narrow(unit, 4, out);
        break;
    }
    case KFB_NODE_SPLINE_SCALAR_INTERPOLATOR:
    case KFB_NODE_SPLINE_POSITION_INTERPOLATOR:
    case KFB_NODE_SPLINE_POSITION_INTERPOLATOR_2D: {
        /* Outgoing tangent of key i, incoming tangent of key i+1. */
        const float *t0 = p->derived + (size_t)i * c;
        const float *t1 = p->derived + ((size_t)p->key_count + j) * c;
        double h[4];
        kf_hermite_basis(u, h);
        for (uint32_t k = 0; k < c; k++)
            out[k] = kf_narrow_saturate(h[0] * a[k] + h[1] * b[k] + h[2] * t0[k] + h[3] * t1[k]);
        break;
    }
    default: /* the linear nodes */
        for (uint32_t k = 0; k < c; k++)
            out[k] = (float)(a[k] + u * ((double)b[k] - a[k]));
        break;
    }
}

/* ---- the TimeSensor of a track ---------------------------------------------- */

double kf_track_fraction(const kf_track *t, double position)
{
    const double cycle = t->cycle_interval;
    if (!t->loop) {
        double f = position / cycle;
        return f > 1.0 ? 1.0 : f > 0.0 ? f : 0.0; /* NaN: 0 */
    }
    if (!isfinite(position))
        return 0.0;
    /* fmod is exact, so positions far from zero wrap without drift. */
    double r = fmod(position, cycle);
    if (r < 0.0)
        r += cycle;
    double f = r / cycle;
    return f < 1.0 ? f : 1.0 - DBL_EPSILON / 2; /* -tiny + cycle rounds to cycle */
}
