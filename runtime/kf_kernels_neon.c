/*
 * kf_kernels_neon.c - the block kernels (kf_layout.h) with NEON, four lanes
 * per instruction. NEON (Advanced SIMD) is part of AArch64 itself, so no
 * build flag and no CPU check is needed. Every operation is the scalar
 * kernels' (kf_sample.h) in the same order; multiplies and adds stay
 * separate (no vfma, and the build says -ffp-contract=off), so the results
 * are theirs bit for bit (tests/test_player_kernels.c), as on x86-64. This
 * file follows kf_kernels_neon.c operation for operation; read them side by
 * side. Building with KF_NO_SIMD (scons SIMD=0) leaves this set out.
 */
#include "kf_layout.h"

#if defined(__aarch64__) && !defined(KF_NO_SIMD)
#include <arm_neon.h>

#include "kf_sample.h"

/* Key k's fields (16-aligned, kf_layout.c). */
static inline const float *key_at(const kf_block *b, uint32_t k)
{
    return b->data + (size_t)k * b->fields * KF_LANES;
}

/* The same where a kernel knows the block's interpolation and components,
 * so its fields are a constant: no load, no multiply. */
#define KEY_AT(b, k, interpolation, components)                                                    \
    ((b)->data + (size_t)(k) * (kf_block_fields(interpolation, components) * KF_LANES))

#define LOAD(p, f) vld1q_f32((p) + (size_t)(f)*KF_LANES)

/* Component m of every lane in r[m] -> each lane's output: a 4x4
 * transpose. */
KF_KERNEL void store4(float32x4_t r0, float32x4_t r1, float32x4_t r2, float32x4_t r3,
                      float *const out[KF_LANES])
{
    /* The pointers first: a store through one could change them for all
     * the compiler knows. */
    float *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
    const float32x4_t xy01 = vzip1q_f32(r0, r1), xy23 = vzip2q_f32(r0, r1);
    const float32x4_t zw01 = vzip1q_f32(r2, r3), zw23 = vzip2q_f32(r2, r3);
    vst1q_f32(o0, vcombine_f32(vget_low_f32(xy01), vget_low_f32(zw01)));
    vst1q_f32(o1, vcombine_f32(vget_high_f32(xy01), vget_high_f32(zw01)));
    vst1q_f32(o2, vcombine_f32(vget_low_f32(xy23), vget_low_f32(zw23)));
    vst1q_f32(o3, vcombine_f32(vget_high_f32(xy23), vget_high_f32(zw23)));
}

KF_KERNEL void store3(float32x4_t r0, float32x4_t r1, float32x4_t r2, float *const out[KF_LANES])
{
    float *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
    const float32x4_t xy01 = vzip1q_f32(r0, r1), xy23 = vzip2q_f32(r0, r1);
    vst1_f32(o0, vget_low_f32(xy01));
    vst1q_lane_f32(o0 + 2, r2, 0);
    vst1_f32(o1, vget_high_f32(xy01));
    vst1q_lane_f32(o1 + 2, r2, 1);
    vst1_f32(o2, vget_low_f32(xy23));
    vst1q_lane_f32(o2 + 2, r2, 2);
    vst1_f32(o3, vget_high_f32(xy23));
    vst1q_lane_f32(o3 + 2, r2, 3);
}

/* Any other count of components, one at a time. */
static void store1(float32x4_t r, uint32_t m, float *const out[KF_LANES])
{
    float lane[KF_LANES];
    vst1q_f32(lane, r);
    for (uint32_t l = 0; l < KF_LANES; l++)
        out[l][m] = lane[l];
}

/* Bit l set where lane l of a comparison is true (SSE2's movemask). */
static inline int movemask(uint32x4_t m)
{
    const uint32x4_t bit = {1, 2, 4, 8};
    return (int)vaddvq_u32(vandq_u32(m, bit));
}

/* ---- STEP and holds ---------------------------------------------------- */

KF_KERNEL unsigned key_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                           float *const out[KF_LANES])
{
    (void)j, (void)u, (void)exact_u;
    const float *a = key_at(b, i);
    for (uint32_t m = 0; m < b->components; m++)
        store1(LOAD(a, m), m, out);
    return 0xf;
}

KF_KERNEL unsigned key3_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                            float *const out[KF_LANES])
{
    (void)j, (void)u, (void)exact_u;
    const float *a = key_at(b, i);
    store3(LOAD(a, 0), LOAD(a, 1), LOAD(a, 2), out);
    return 0xf;
}

/* ---- LINEAR ------------------------------------------------------------ */

/* a + u (b - a), component m. */
static inline float32x4_t lerp(const float *a, const float *e, float32x4_t vu, uint32_t m)
{
    const float32x4_t x = LOAD(a, m);
    return vaddq_f32(x, vmulq_f32(vu, vsubq_f32(LOAD(e, m), x)));
}

KF_KERNEL unsigned linear_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                              float *const out[KF_LANES])
{
    (void)exact_u;
    const float32x4_t vu = vdupq_n_f32(u);
    const float *a = key_at(b, i), *e = key_at(b, j);
    for (uint32_t m = 0; m < b->components; m++)
        store1(lerp(a, e, vu, m), m, out);
    return 0xf;
}

KF_KERNEL unsigned linear3_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                               float *const out[KF_LANES])
{
    (void)exact_u;
    const float32x4_t vu = vdupq_n_f32(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_LINEAR, 3), *e = KEY_AT(b, j, KFB_INTERP_LINEAR, 3);
    store3(lerp(a, e, vu, 0), lerp(a, e, vu, 1), lerp(a, e, vu, 2), out);
    return 0xf;
}

KF_KERNEL unsigned linear4_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                               float *const out[KF_LANES])
{
    (void)exact_u;
    const float32x4_t vu = vdupq_n_f32(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_LINEAR, 4), *e = KEY_AT(b, j, KFB_INTERP_LINEAR, 4);
    store4(lerp(a, e, vu, 0), lerp(a, e, vu, 1), lerp(a, e, vu, 2), lerp(a, e, vu, 3), out);
    return 0xf;
}

/* ---- SPLINE ------------------------------------------------------------ */

typedef struct basis4 {
    float32x4_t h0, h1, h2, h3;
} basis4;

static inline basis4 basis(float u)
{
    float h[4];
    kf_hermite_basis_f(u, h);
    return (basis4){vdupq_n_f32(h[0]), vdupq_n_f32(h[1]), vdupq_n_f32(h[2]), vdupq_n_f32(h[3])};
}

/* h0 a + h1 b + h2 ta + h3 tb, component m of c. */
static inline float32x4_t hermite(const float *a, const float *e, const basis4 *h, uint32_t c,
                                  uint32_t m)
{
    float32x4_t x = vmulq_f32(h->h0, LOAD(a, m));
    x = vaddq_f32(x, vmulq_f32(h->h1, LOAD(e, m)));
    x = vaddq_f32(x, vmulq_f32(h->h2, LOAD(a, c + m)));
    return vaddq_f32(x, vmulq_f32(h->h3, LOAD(e, 2 * c + m)));
}

KF_KERNEL unsigned spline_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                              float *const out[KF_LANES])
{
    (void)exact_u;
    const basis4 h = basis(u);
    const float *a = key_at(b, i), *e = key_at(b, j);
    for (uint32_t m = 0; m < b->components; m++)
        store1(hermite(a, e, &h, b->components, m), m, out);
    return 0xf;
}

KF_KERNEL unsigned spline3_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                               float *const out[KF_LANES])
{
    (void)exact_u;
    const basis4 h = basis(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_SPLINE, 3), *e = KEY_AT(b, j, KFB_INTERP_SPLINE, 3);
    store3(hermite(a, e, &h, 3, 0), hermite(a, e, &h, 3, 1), hermite(a, e, &h, 3, 2), out);
    return 0xf;
}

KF_KERNEL unsigned spline4_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                               float *const out[KF_LANES])
{
    (void)exact_u;
    const basis4 h = basis(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_SPLINE, 4), *e = KEY_AT(b, j, KFB_INTERP_SPLINE, 4);
    store4(hermite(a, e, &h, 4, 0), hermite(a, e, &h, 4, 1), hermite(a, e, &h, 4, 2),
           hermite(a, e, &h, 4, 3), out);
    return 0xf;
}

/* ---- SLERP and SQUAD --------------------------------------------------- */

/* kf_sinc, four at a time. */
static inline float32x4_t sinc4(float32x4_t z)
{
    float32x4_t t = vmulq_f32(z, vdupq_n_f32(2.60510774e-06f));
    t = vmulq_f32(z, vaddq_f32(vdupq_n_f32(-0.000198090172f), t));
    t = vmulq_f32(z, vaddq_f32(vdupq_n_f32(0.00833304971f), t));
    t = vmulq_f32(z, vaddq_f32(vdupq_n_f32(-0.166666582f), t));
    return vaddq_f32(vdupq_n_f32(1.0f), t);
}

/* kf_acos_over_sqrt, four at a time. */
static inline float32x4_t acos_over_sqrt4(float32x4_t c)
{
    float32x4_t t = vmulq_f32(c, vdupq_n_f32(-0.0012624911f));
    t = vmulq_f32(c, vaddq_f32(vdupq_n_f32(0.0066700901f), t));
    t = vmulq_f32(c, vaddq_f32(vdupq_n_f32(-0.0170881256f), t));
    t = vmulq_f32(c, vaddq_f32(vdupq_n_f32(0.0308918810f), t));
    t = vmulq_f32(c, vaddq_f32(vdupq_n_f32(-0.0501743046f), t));
    t = vmulq_f32(c, vaddq_f32(vdupq_n_f32(0.0889789874f), t));
    t = vmulq_f32(c, vaddq_f32(vdupq_n_f32(-0.2145988016f), t));
    return vaddq_f32(vdupq_n_f32(1.5707963050f), t);
}

/* kf_arc_weights, four arcs at one u. */
static inline void arc_weights4(float32x4_t theta, float32x4_t r, float32x4_t vu, float32x4_t w[2])
{
    const float32x4_t vv = vsubq_f32(vdupq_n_f32(1.0f), vu);
    const float32x4_t x0 = vmulq_f32(vv, theta), x1 = vmulq_f32(vu, theta);
    w[0] = vmulq_f32(vmulq_f32(vv, r), sinc4(vmulq_f32(x0, x0)));
    w[1] = vmulq_f32(vmulq_f32(vu, r), sinc4(vmulq_f32(x1, x1)));
}

/* wa qa + wb qb, component m. */
static inline float32x4_t combine(float32x4_t wa, float32x4_t qa, float32x4_t wb, float32x4_t qb)
{
    return vaddq_f32(vmulq_f32(wa, qa), vmulq_f32(wb, qb));
}

KF_KERNEL unsigned slerp_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                             float *const out[KF_LANES])
{
    (void)exact_u;
    const float *a = KEY_AT(b, i, KFB_INTERP_SLERP, 4), *e = KEY_AT(b, j, KFB_INTERP_SLERP, 4);
    const float32x4_t theta = LOAD(a, KF_FIELD_ARC(4));
    float32x4_t w[2];
    arc_weights4(theta, LOAD(a, KF_FIELD_ARC(4) + 1), vdupq_n_f32(u), w);
    store4(combine(w[0], LOAD(a, 0), w[1], LOAD(e, 0)), combine(w[0], LOAD(a, 1), w[1], LOAD(e, 1)),
           combine(w[0], LOAD(a, 2), w[1], LOAD(e, 2)), combine(w[0], LOAD(a, 3), w[1], LOAD(e, 3)),
           out);
    const int nonunit = movemask(vmvnq_u32(vcgtq_f32(theta, vdupq_n_f32(0.0f))));
    if (nonunit) {
        const int general = movemask(vcltq_f32(theta, vdupq_n_f32(0.0f)));
        for (uint32_t l = 0; l < KF_LANES; l++)
            if (general >> l & 1)
                kf_block_slerp_general(b, l, i, j, u, out[l]);
    }
    return (unsigned)nonunit;
}

/* kf_normalize_single on four quaternions, component m in r[m]. */
static inline void normalize4(float32x4_t r[4])
{
    float32x4_t n2 = vmulq_f32(r[0], r[0]);
    n2 = vaddq_f32(n2, vmulq_f32(r[1], r[1]));
    n2 = vaddq_f32(n2, vmulq_f32(r[2], r[2]));
    n2 = vaddq_f32(n2, vmulq_f32(r[3], r[3]));
    const float32x4_t one = vdupq_n_f32(1.0f);
    const uint32x4_t near = vcltq_f32(vabsq_f32(vsubq_f32(n2, one)), vdupq_n_f32(1.0f / 4096));
    const uint32x4_t ok =
        vandq_u32(vcgtq_f32(n2, vdupq_n_f32(1e-10f)), vcleq_f32(n2, vdupq_n_f32(FLT_MAX)));
    const float32x4_t inv =
        vbslq_f32(near, vsubq_f32(vdupq_n_f32(1.5f), vmulq_f32(vdupq_n_f32(0.5f), n2)),
                  vdivq_f32(one, vsqrtq_f32(n2)));
    const uint32x4_t identity = vmvnq_u32(vorrq_u32(near, ok));
    const float32x4_t zero = vdupq_n_f32(0.0f);
    r[0] = vbslq_f32(identity, zero, vmulq_f32(r[0], inv));
    r[1] = vbslq_f32(identity, zero, vmulq_f32(r[1], inv));
    r[2] = vbslq_f32(identity, zero, vmulq_f32(r[2], inv));
    r[3] = vbslq_f32(identity, one, vmulq_f32(r[3], inv));
}

/* wa qa + wb qb for the four components at fields fa of a and fb of e
 * (written out: a loop here would keep its results on the stack). */
#define COMBINE4(r, wa, a, fa, wb, e, fb)                                                          \
    do {                                                                                           \
        (r)[0] = combine(wa, LOAD(a, (fa) + 0), wb, LOAD(e, (fb) + 0));                            \
        (r)[1] = combine(wa, LOAD(a, (fa) + 1), wb, LOAD(e, (fb) + 1));                            \
        (r)[2] = combine(wa, LOAD(a, (fa) + 2), wb, LOAD(e, (fb) + 2));                            \
        (r)[3] = combine(wa, LOAD(a, (fa) + 3), wb, LOAD(e, (fb) + 3));                            \
    } while (0)

KF_KERNEL void squad_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                         float *const out[KF_LANES], int normalize)
{
    const float32x4_t vu = vdupq_n_f32(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_SQUAD, 4), *e = KEY_AT(b, j, KFB_INTERP_SQUAD, 4);
    const float32x4_t key_theta = LOAD(a, KF_FIELD_SQUAD_KEY_ARC);
    const float32x4_t control_theta = LOAD(a, KF_FIELD_SQUAD_CONTROL_ARC);
    float32x4_t wk[2], wc[2], q1[4], q2[4];
    arc_weights4(key_theta, LOAD(a, KF_FIELD_SQUAD_KEY_ARC + 1), vu, wk);
    arc_weights4(control_theta, LOAD(a, KF_FIELD_SQUAD_CONTROL_ARC + 1), vu, wc);
    COMBINE4(q1, wk[0], a, 0, wk[1], e, 0);
    COMBINE4(q2, wc[0], a, KF_FIELD_SQUAD_A, wc[1], e, KF_FIELD_SQUAD_B);
    /* The last slerp, as kf_slerp_runtime: both of its branches, selected. */
    float32x4_t c = vmulq_f32(q1[0], q2[0]);
    c = vaddq_f32(c, vmulq_f32(q1[1], q2[1]));
    c = vaddq_f32(c, vmulq_f32(q1[2], q2[2]));
    c = vaddq_f32(c, vmulq_f32(q1[3], q2[3]));
    const float32x4_t one = vdupq_n_f32(1.0f);
    const uint32x4_t near = vcgeq_f32(c, vdupq_n_f32(1.0f - (float)KF_QUAT_EPSILON));
    const float32x4_t p = acos_over_sqrt4(c);
    const float32x4_t vt = vdupq_n_f32(2.0f * u * (1.0f - u));
    float32x4_t w[2];
    arc_weights4(vmulq_f32(vsqrtq_f32(vsubq_f32(one, c)), p),
                 vdivq_f32(p, vsqrtq_f32(vaddq_f32(one, c))), vt, w);
    w[0] = vbslq_f32(near, vsubq_f32(one, vt), w[0]);
    w[1] = vbslq_f32(near, vt, w[1]);
    float32x4_t r[4];
    r[0] = combine(w[0], q1[0], w[1], q2[0]);
    r[1] = combine(w[0], q1[1], w[1], q2[1]);
    r[2] = combine(w[0], q1[2], w[1], q2[2]);
    r[3] = combine(w[0], q1[3], w[1], q2[3]);
    if (normalize)
        normalize4(r);
    store4(r[0], r[1], r[2], r[3], out);
    const float32x4_t zero = vdupq_n_f32(0.0f);
    const int general =
        movemask(vorrq_u32(vorrq_u32(vcltq_f32(key_theta, zero), vcltq_f32(control_theta, zero)),
                           vmvnq_u32(vcgeq_f32(c, zero))));
    if (general)
        for (uint32_t l = 0; l < KF_LANES; l++)
            if ((general >> l & 1) && b->lane[l]) {
                kf_squad_general(b->lane[l], i, j, exact_u, out[l]);
                if (normalize)
                    kf_normalize_single(out[l]);
            }
}

/* The loop over a run of blocks, around an inlined kernel (constants stay
 * in registers from one block to the next); `normalize` as
 * kf_block_kernel, for the lanes the kernel did not leave unit. */
#define JOBS(name)                                                                                 \
    static void name(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,        \
                     double exact_u, int normalize)                                                \
    {                                                                                              \
        for (const kf_lanes *end = jobs + count; jobs < end; jobs++) {                             \
            const unsigned nonunit = name##_one(jobs->block, i, j, u, exact_u, jobs->out);         \
            if (normalize && nonunit)                                                              \
                for (uint32_t l = 0; l < KF_LANES; l++)                                            \
                    if (nonunit >> l & 1)                                                          \
                        kf_normalize_single(jobs->out[l]);                                         \
        }                                                                                          \
    }
JOBS(key)
JOBS(key3)
JOBS(linear)
JOBS(linear3)
JOBS(linear4)
JOBS(spline)
JOBS(spline3)
JOBS(spline4)
JOBS(slerp)

static void squad(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                  double exact_u, int normalize)
{
    for (const kf_lanes *end = jobs + count; jobs < end; jobs++)
        squad_one(jobs->block, i, j, u, exact_u, jobs->out, normalize);
}

/* Key i of quaternion blocks; orientations are normalized as the blocks
 * are stored, four at a time, instead of one lane at a time after. */
static void key4(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                 double exact_u, int normalize)
{
    (void)j, (void)u, (void)exact_u;
    for (const kf_lanes *end = jobs + count; jobs < end; jobs++) {
        const float *a = key_at(jobs->block, i);
        float32x4_t r[4] = {LOAD(a, 0), LOAD(a, 1), LOAD(a, 2), LOAD(a, 3)};
        if (normalize)
            normalize4(r);
        store4(r[0], r[1], r[2], r[3], jobs->out);
    }
}

static const kf_kernels neon = {
    "neon", {key, key3, key4}, {linear, linear3, linear4}, {spline, spline3, spline4}, slerp,
    squad};

const kf_kernels *kf_kernels_neon(void)
{
    return &neon;
}

#else

const kf_kernels *kf_kernels_neon(void)
{
    return NULL;
}

#endif
