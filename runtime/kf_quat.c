/* SPDX-License-Identifier: MIT */
/* kf_quat.c - quaternion algebra and the Hermite basis (kf_math.h). */
#include <math.h>

#include "kf.h"
#include "kf_math.h"

double kf_qdot(const double a[4], const double b[4])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

void kf_qmul(const double a[4], const double b[4], double out[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

void kf_qconj(const double q[4], double out[4])
{
    out[0] = -q[0];
    out[1] = -q[1];
    out[2] = -q[2];
    out[3] = q[3];
}

void kf_qnormalize(const double q[4], double out[4])
{
    double n2 = kf_qdot(q, q);
    if (!(n2 > KF_QUAT_EPSILON)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    double inv = 1.0 / sqrt(n2);
    for (int i = 0; i < 4; i++)
        out[i] = q[i] * inv;
}

void kf_qlog(const double q[4], double out[3])
{
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    double k = len > KF_QUAT_EPSILON ? atan2(len, q[3]) / len : 0.0;
    out[0] = q[0] * k;
    out[1] = q[1] * k;
    out[2] = q[2] * k;
}

void kf_qexp(const double v[3], double out[4])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > KF_QUAT_EPSILON)) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    double k = sin(len) / len;
    out[0] = v[0] * k;
    out[1] = v[1] * k;
    out[2] = v[2] * k;
    out[3] = cos(len);
}

void kf_qslerp(const double a[4], const double b[4], double s, double out[4])
{
    double c = kf_qdot(a, b);
    double ka, kb;
    if (c >= 1.0 - KF_QUAT_EPSILON) {
        ka = 1.0 - s;
        kb = s;
    } else if (c <= -1.0 + KF_QUAT_EPSILON) {
        /* No arc is defined between opposite quaternions: turn through the
         * perpendicular p instead, ending at p (Nokia's choice). */
        const double p[4] = {-a[1], a[0], -a[3], a[2]};
        ka = sin((1.0 - s) * (KF_PI / 2));
        kb = sin(s * (KF_PI / 2));
        for (int i = 0; i < 4; i++)
            out[i] = ka * a[i] + kb * p[i];
        return;
    } else {
        double theta = acos(c);
        double inv = 1.0 / sin(theta);
        ka = sin((1.0 - s) * theta) * inv;
        kb = sin(s * theta) * inv;
    }
    for (int i = 0; i < 4; i++)
        out[i] = ka * a[i] + kb * b[i];
}

void kf_qslerp_short(const double a[4], const double b[4], double s, double out[4])
{
    if (kf_qdot(a, b) < 0.0) {
        const double nb[4] = {-b[0], -b[1], -b[2], -b[3]};
        kf_qslerp(a, nb, s, out);
    } else {
        kf_qslerp(a, b, s, out);
    }
}

void kf_hermite_basis(double s, double h[4])
{
    double s2 = s * s, s3 = s2 * s;
    h[0] = 2.0 * s3 - 3.0 * s2 + 1.0;
    h[1] = -2.0 * s3 + 3.0 * s2;
    h[2] = s3 - 2.0 * s2 + s;
    h[3] = s3 - s2;
}

void kf_hermite_basis_d1(double s, double h[4])
{
    double s2 = s * s;
    h[0] = 6.0 * s2 - 6.0 * s;
    h[1] = -6.0 * s2 + 6.0 * s;
    h[2] = 3.0 * s2 - 4.0 * s + 1.0;
    h[3] = 3.0 * s2 - 2.0 * s;
}

void kf_hermite_basis_d2(double s, double h[4])
{
    h[0] = 12.0 * s - 6.0;
    h[1] = -12.0 * s + 6.0;
    h[2] = 6.0 * s - 4.0;
    h[3] = 6.0 * s - 2.0;
}

void kf_rotation_to_quat(const float rotation[4], double q[4])
{
    const double x = rotation[0], y = rotation[1], z = rotation[2];
    const double len = sqrt(x * x + y * y + z * z);
    if (!(len > 0.0) || !isfinite(len)) {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
        return;
    }
    const double half = 0.5 * (double)rotation[3], k = sin(half) / len;
    q[0] = x * k;
    q[1] = y * k;
    q[2] = z * k;
    q[3] = cos(half);
}

static void normalize3(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0)
        for (int i = 0; i < 3; i++)
            v[i] /= len;
}

void kf_vslerp(const double a[3], const double b[3], double s, double out[3])
{
    const double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if (c <= -1.0 + KF_QUAT_EPSILON) {
        /* No great arc is defined between opposite vectors: turn about the
         * axis a x e, e the unit axis along a's smallest component. */
        int k = fabs(a[0]) <= fabs(a[1]) ? (fabs(a[0]) <= fabs(a[2]) ? 0 : 2)
                                         : (fabs(a[1]) <= fabs(a[2]) ? 1 : 2);
        double e[3] = {0.0, 0.0, 0.0}, p[3];
        e[k] = 1.0;
        p[0] = a[1] * e[2] - a[2] * e[1];
        p[1] = a[2] * e[0] - a[0] * e[2];
        p[2] = a[0] * e[1] - a[1] * e[0];
        normalize3(p);
        /* Half a turn in the plane of a and p, from a through p to -a. */
        const double ka = cos(s * KF_PI), kp = sin(s * KF_PI);
        for (int i = 0; i < 3; i++)
            out[i] = ka * a[i] + kp * p[i];
    } else {
        /* The quaternion slerp restricted to w = 0 is the 3-vector slerp. */
        const double qa[4] = {a[0], a[1], a[2], 0.0}, qb[4] = {b[0], b[1], b[2], 0.0};
        double q[4];
        kf_qslerp(qa, qb, s, q);
        out[0] = q[0];
        out[1] = q[1];
        out[2] = q[2];
    }
    normalize3(out);
}

void kf_axis_angle_to_quat(const float axis_angle[4], float quat[4])
{
    if (!axis_angle || !quat)
        return;
    double q[4];
    kf_rotation_to_quat(axis_angle, q);
    for (int i = 0; i < 4; i++)
        quat[i] = (float)q[i];
}

void kf_quat_arc(const float *p, const float *q, float arc[2])
{
    double c = 0.0;
    for (int k = 0; k < 4; k++)
        c += (double)p[k] * q[k];
    /* The same tests as kf_qslerp, on the same numbers, so the fast path
     * branches exactly where the exact one does. */
    if (c >= 1.0 - KF_QUAT_EPSILON) {
        arc[0] = 0.0f;
        arc[1] = 1.0f;
    } else if (c < 0.0) {
        arc[0] = -1.0f;
        arc[1] = 0.0f;
    } else {
        /* sin(acos c) = sqrt(1 - c^2), with 1 - c^2 formed as (1 - c)(1 + c),
         * exact to double's last bits for c < 1 - 1e-5: no sine needed. */
        double theta = acos(c);
        double ratio = theta / sqrt((1.0 - c) * (1.0 + c));
        arc[0] = (float)theta;
        arc[1] = (float)(ratio < 1.0 ? 1.0 : ratio); /* >= 1 in exact arithmetic */
    }
}

void kf_quat_arcs(const float *from, const float *to, uint32_t count, float *arcs)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t next = i + 1 < count ? i + 1 : 0;
        kf_quat_arc(from + 4 * (size_t)i, to + 4 * (size_t)next, arcs + 2 * (size_t)i);
    }
}

int kf_unit_rest(const float *v, uint32_t n, uint32_t k, int negative, float *out)
{
    double sum = 0.0;
    for (uint32_t j = 0; j < n; j++)
        if (j != k)
            sum += (double)v[j] * v[j];
    if (!(sum <= 1.0))
        return 0;
    const double rest = sqrt(1.0 - sum);
    *out = (float)(negative ? -rest : rest);
    return 1;
}
