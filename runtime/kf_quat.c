/* SPDX-License-Identifier: MIT */
/* kf_quat.c - quaternion algebra and the Hermite basis (kf_math.h). */
#include <math.h>

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>
#endif

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

/* acos(x) for 0 <= x < 1, in double, by the rational approximations of
 * fdlibm's e_acos.c (Sun Microsystems, 1993: acos(x) = pi/2 - asin(x) with
 * asin(x) = x + x^3 R(x^2) below 1/2, 2 asin(sqrt((1 - x)/2)) above, R a
 * (6,4) rational function): within a few ulps of double. */
static const double pio2_hi = 1.57079632679489655800e+00, pio2_lo = 6.12323399573676603587e-17,
                    ps[6] = {1.66666666666666657415e-01, -3.25565818622400915405e-01,
                             2.01212532134862925881e-01, -4.00555345006794114027e-02,
                             7.91534994289814532176e-04, 3.47933107596021167570e-05},
                    qs[5] = {1.0, -2.40339491173441421878e+00, 2.02094576023350569471e+00,
                             -6.88283971605453293030e-01, 7.70381505559019352791e-02};

static double acos_rational(double x)
{
    const int low = x < 0.5;
    const double z = low ? x * x : (1.0 - x) * 0.5;
    const double p =
        z * (ps[0] + z * (ps[1] + z * (ps[2] + z * (ps[3] + z * (ps[4] + z * ps[5])))));
    const double q = qs[0] + z * (qs[1] + z * (qs[2] + z * (qs[3] + z * qs[4])));
    const double r = p / q;
    if (low)
        return pio2_hi - (x - (pio2_lo - x * r));
    /* fdlibm refines sqrt(z) further for its last bit; a few ulps of
     * double are far inside what kf_quat_arc needs (rounds_surely). */
    const double s = sqrt(z);
    return 2.0 * (s + s * r);
}

/* Whether every double within 2^-40 relative of x rounds to the same float
 * as x: then so does any close approximation of the same number (libm's
 * acos and acos_rational are both within a few ulps of double of acos). */
static int rounds_surely(double x)
{
    return (float)(x * (1.0 - 0x1p-40)) == (float)(x * (1.0 + 0x1p-40));
}

void kf_quat_arc(const float *p, const float *q, float arc[2])
{
    /* The dot product summed in component order, as kf_qdot sums it. */
    const double c =
        (double)p[0] * q[0] + (double)p[1] * q[1] + (double)p[2] * q[2] + (double)p[3] * q[3];
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
         * exact to double's last bits for c < 1 - 1e-5: no sine needed. The
         * arc is the float of libm's acos; acos_rational gives the same
         * floats at less than half the cost, and libm is asked only where
         * a float boundary is too near to tell (tests/test_read_arcs.c
         * compares the two on every arc of millions of random keys). */
        const double s = sqrt((1.0 - c) * (1.0 + c));
        double theta = acos_rational(c);
        double ratio = theta / s;
        if (!rounds_surely(theta) || !rounds_surely(ratio)) {
            theta = acos(c);
            ratio = theta / s;
        }
        arc[0] = (float)theta;
        arc[1] = (float)(ratio < 1.0 ? 1.0 : ratio); /* >= 1 in exact arithmetic */
    }
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* Two lanes of float pairs as doubles: lanes 0, 1 of v (high: 2, 3). */
static inline __m128d doubles(__m128 v, int high)
{
    return _mm_cvtps_pd(high ? _mm_movehl_ps(v, v) : v);
}

/* rounds_surely, two lanes (all ones where it holds). */
static inline __m128d surely(__m128d x)
{
    const __m128 lo = _mm_cvtpd_ps(_mm_mul_pd(x, _mm_set1_pd(1.0 - 0x1p-40)));
    const __m128 hi = _mm_cvtpd_ps(_mm_mul_pd(x, _mm_set1_pd(1.0 + 0x1p-40)));
    const __m128 same = _mm_cmpeq_ps(lo, hi);
    return _mm_castps_pd(_mm_unpacklo_ps(same, same));
}

static inline __m128d select(__m128d m, __m128d a, __m128d b)
{
    return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}

/* kf_quat_arc for two arcs side by side in double (p0 to q0 into arcs[0,
 * 1], p1 to q1 into arcs[2, 3]): the same operations, so the same floats.
 * A lane whose float boundary is too near to tell, or whose dot product is
 * not a number, is done again by kf_quat_arc, which asks libm. */
static void arc_pair(const float *p0, const float *q0, const float *p1, const float *q1,
                     float *arcs)
{
    const __m128 a = _mm_loadu_ps(p0), b = _mm_loadu_ps(p1), x = _mm_loadu_ps(q0),
                 y = _mm_loadu_ps(q1);
    const __m128 ab_lo = _mm_unpacklo_ps(a, b), ab_hi = _mm_unpackhi_ps(a, b);
    const __m128 xy_lo = _mm_unpacklo_ps(x, y), xy_hi = _mm_unpackhi_ps(x, y);
    __m128d c = _mm_mul_pd(doubles(ab_lo, 0), doubles(xy_lo, 0));
    c = _mm_add_pd(c, _mm_mul_pd(doubles(ab_lo, 1), doubles(xy_lo, 1)));
    c = _mm_add_pd(c, _mm_mul_pd(doubles(ab_hi, 0), doubles(xy_hi, 0)));
    c = _mm_add_pd(c, _mm_mul_pd(doubles(ab_hi, 1), doubles(xy_hi, 1)));
    const __m128d one = _mm_set1_pd(1.0), half = _mm_set1_pd(0.5), two = _mm_set1_pd(2.0);
    const __m128d linear = _mm_cmpge_pd(c, _mm_set1_pd(1.0 - KF_QUAT_EPSILON));
    const __m128d general = _mm_cmplt_pd(c, _mm_setzero_pd());
    /* acos_rational, both of its branches, selected. */
    const __m128d low = _mm_cmplt_pd(c, half);
    const __m128d z = select(low, _mm_mul_pd(c, c), _mm_mul_pd(_mm_sub_pd(one, c), half));
    __m128d pz = _mm_set1_pd(ps[5]), qz = _mm_set1_pd(qs[4]);
    for (int k = 4; k >= 0; k--)
        pz = _mm_add_pd(_mm_set1_pd(ps[k]), _mm_mul_pd(z, pz));
    pz = _mm_mul_pd(z, pz);
    for (int k = 3; k >= 0; k--)
        qz = _mm_add_pd(_mm_set1_pd(qs[k]), _mm_mul_pd(z, qz));
    const __m128d r = _mm_div_pd(pz, qz);
    const __m128d sz = _mm_sqrt_pd(z);
    const __m128d theta_low = _mm_sub_pd(
        _mm_set1_pd(pio2_hi), _mm_sub_pd(c, _mm_sub_pd(_mm_set1_pd(pio2_lo), _mm_mul_pd(c, r))));
    const __m128d theta_high = _mm_mul_pd(two, _mm_add_pd(sz, _mm_mul_pd(sz, r)));
    const __m128d theta = select(low, theta_low, theta_high);
    const __m128d s = _mm_sqrt_pd(_mm_mul_pd(_mm_sub_pd(one, c), _mm_add_pd(one, c)));
    const __m128d ratio = _mm_div_pd(theta, s);
    const __m128d sure = _mm_and_pd(surely(theta), surely(ratio));
    /* (ratio < 1 ? 1 : ratio), as kf_quat_arc writes it. */
    const __m128d clamped = select(_mm_cmplt_pd(ratio, one), one, ratio);
    float t[4], q[4];
    _mm_storeu_ps(t, _mm_cvtpd_ps(theta));
    _mm_storeu_ps(q, _mm_cvtpd_ps(clamped));
    const int lin = _mm_movemask_pd(linear), gen = _mm_movemask_pd(general),
              ok = _mm_movemask_pd(sure);
    const float *ps_[2] = {p0, p1}, *qs_[2] = {q0, q1};
    for (int l = 0; l < 2; l++) {
        float *arc = arcs + 2 * l;
        if (lin >> l & 1) {
            arc[0] = 0.0f;
            arc[1] = 1.0f;
        } else if (gen >> l & 1) {
            arc[0] = -1.0f;
            arc[1] = 0.0f;
        } else if (ok >> l & 1) {
            arc[0] = t[l];
            arc[1] = q[l];
        } else {
            kf_quat_arc(ps_[l], qs_[l], arc);
        }
    }
}
#endif

void kf_quat_arcs(const float *from, const float *to, uint32_t count, float *arcs)
{
    uint32_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    for (; i + 2 < count; i += 2)
        arc_pair(from + 4 * (size_t)i, to + 4 * (size_t)(i + 1), from + 4 * (size_t)(i + 1),
                 to + 4 * (size_t)(i + 2), arcs + 2 * (size_t)i);
#endif
    for (; i < count; i++) {
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
