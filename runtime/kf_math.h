/* SPDX-License-Identifier: MIT */
/*
 * kf_math.h - the interpolation math shared by precomputation (builder) and
 * sampling (runtime). Quaternions are [x, y, z, w], Hamilton product.
 * Everything is double: inputs are the stored float32 values, widened.
 */
#ifndef KF_MATH_H
#define KF_MATH_H

#include <float.h>
#include <stdint.h>
#include <string.h>

/* Below this, |q.xyz| is treated as zero by log/exp, and dot products this
 * close to +-1 take the lerp / antipodal branches of slerp (M3G's epsilon). */
#define KF_QUAT_EPSILON 1e-5

#define KF_PI 3.14159265358979323846

/* Stored float32 values into double for computing, and results back. */
static inline void kf_widen(const float *in, uint32_t n, double *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = in[i];
}

/* A double to the nearest float, +-FLT_MAX beyond the float range (NaN
 * stays NaN): blended and weighted values stay finite. */
static inline float kf_narrow_saturate(double x)
{
    return x > FLT_MAX ? FLT_MAX : x < -FLT_MAX ? -FLT_MAX : (float)x;
}

/* Trailing zero bits of x (not 0): the encoder's column scales and the
 * layout's quantized grids. */
static inline unsigned kf_trailing_zeros(uint32_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(x);
#else
    unsigned n = 0;
    while (!(x >> n & 1))
        n++;
    return n;
#endif
}

/* 2^e for |e| <= 1022, from its bits: ldexp(1.0, e), without the call
 * (the loader's column scales, held to +-400, and the layout's grids). */
static inline double kf_pow2(int e)
{
    const uint64_t bits = (uint64_t)(e + 1023) << 52;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static inline void kf_narrow(const double *in, uint32_t n, float *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = (float)in[i];
}

double kf_qdot(const double a[4], const double b[4]);
void kf_qmul(const double a[4], const double b[4], double out[4]); /* a (x) b */
void kf_qconj(const double q[4], double out[4]);
/* q / |q|; a quaternion with |q|^2 <= KF_QUAT_EPSILON becomes identity. */
void kf_qnormalize(const double q[4], double out[4]);
/* Logarithm of a unit quaternion, as a 3-vector (0 near identity). */
void kf_qlog(const double q[4], double out[3]);
/* Exponential of a 3-vector, as a unit quaternion. */
void kf_qexp(const double v[3], double out[4]);

/* M3G slerp: along the great arc from a to b as given (no hemisphere flip);
 * near-equal keys lerp, antipodal keys turn through the perpendicular
 * (-a.y, a.x, -a.w, a.z) (docs/math.md §1.4). */
void kf_qslerp(const double a[4], const double b[4], double s, double out[4]);
/* Shortest-arc slerp: b is negated first when a.b < 0 (X3D). */
void kf_qslerp_short(const double a[4], const double b[4], double s, double out[4]);

/* The arc a slerp follows from unit quaternion p to q (formats/kfb_format.h):
 * {theta, theta / sin theta}, or {0, 1} where M3G lerps (p.q >= 1 - 1e-5),
 * or {-1, 0} where p.q < 0. Computed from the stored floats in double. The
 * writer stores arcs in version 1 files; the reader computes version 2's
 * with this same function, so both give the same floats. */
void kf_quat_arc(const float *p, const float *q, float arc[2]);
/* Arc i from from[i] to to[(i + 1) % count], for i < count (quaternions):
 * key arcs with from = to = the keys, control arcs with from = a, to = b. */
void kf_quat_arcs(const float *from, const float *to, uint32_t count, float *arcs);
/* Component k of a unit vector of n floats from the others: the sign
 * (negative: -) times sqrt(1 - their squares' sum), summed in double in
 * index order. The error-bounded compile stores quaternions so; version
 * 2.1's writer finds such columns and its reader rebuilds them, with this
 * one function. Returns 0, *out unset, where the others exceed unit length. */
int kf_unit_rest(const float *v, uint32_t n, uint32_t k, int negative, float *out);

/* Hermite basis at s: value = h[0] a + h[1] b + h[2] out_a + h[3] in_b. */
void kf_hermite_basis(double s, double h[4]);
/* Its first and second derivatives with respect to s. */
void kf_hermite_basis_d1(double s, double h[4]);
void kf_hermite_basis_d2(double s, double h[4]);

/* An X3D SFRotation (axis x y z, angle in radians) as a unit quaternion; a
 * zero axis gives the identity. */
void kf_rotation_to_quat(const float rotation[4], double q[4]);

/* Great-arc interpolation of two unit 3-vectors, without a hemisphere flip
 * (X3D NormalInterpolator); opposite vectors turn about an axis
 * perpendicular to a, chosen from a alone. The result is normalized. */
void kf_vslerp(const double a[3], const double b[3], double s, double out[3]);

/* RGB <-> HSV (Foley's hexcone), h in sectors of the hexcone: sixths of a
 * turn, so [0, 6) stands for [0, 2pi). kf_rgb_to_hsv gives s = 0 (and h = 0)
 * for greys and black; kf_hsv_to_rgb takes any real h (kf_color.c). */
void kf_rgb_to_hsv(const double rgb[3], double hsv[3]);
void kf_hsv_to_rgb(const double hsv[3], double rgb[3]);
/* A hue wrapped into [0, 6) (0 for a non-finite one). */
double kf_hue_wrap(double h);
/* The hue change from `from` to `to` (both in [0, 6)) the short way round,
 * in [-3, 3]: exactly half a turn goes the direct way. */
double kf_hue_difference(double from, double to);

#endif /* KF_MATH_H */
