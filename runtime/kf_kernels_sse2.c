/*
 * kf_kernels_sse2.c - the block kernels (kf_layout.h) with SSE2, four lanes
 * per instruction. SSE2 is part of x86-64 itself, so no build flag and no
 * CPU check is needed. Every operation is the scalar kernels' (kf_sample.h)
 * in the same order, without contraction, so the results are theirs bit
 * for bit (tests/test_player_kernels.c). Building with KF_NO_SIMD (scons
 * SIMD=0) leaves this set out.
 */
#include "kf_layout.h"

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>

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

#define LOAD(p, f) _mm_load_ps((p) + (size_t)(f)*KF_LANES)

/* Component m of every lane in r[m] -> each lane's output: a 4x4
 * transpose; for three components, the missing row is r[2] again and only
 * three floats per lane are stored. */
KF_KERNEL void store4(__m128 r0, __m128 r1, __m128 r2, __m128 r3, float *const out[KF_LANES])
{
    /* The pointers first: a store through one could change them for all
     * the compiler knows. */
    float *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(o0, r0);
    _mm_storeu_ps(o1, r1);
    _mm_storeu_ps(o2, r2);
    _mm_storeu_ps(o3, r3);
}

KF_KERNEL void store3(__m128 r0, __m128 r1, __m128 r2, float *const out[KF_LANES])
{
    const __m128 xy01 = _mm_unpacklo_ps(r0, r1), xy23 = _mm_unpackhi_ps(r0, r1);
    const __m128 z01 = _mm_unpacklo_ps(r2, r2), z23 = _mm_unpackhi_ps(r2, r2);
    float *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
    _mm_storel_pi((__m64 *)(void *)o0, xy01);
    _mm_store_ss(o0 + 2, z01);
    _mm_storeh_pi((__m64 *)(void *)o1, xy01);
    _mm_store_ss(o1 + 2, _mm_movehl_ps(z01, z01));
    _mm_storel_pi((__m64 *)(void *)o2, xy23);
    _mm_store_ss(o2 + 2, z23);
    _mm_storeh_pi((__m64 *)(void *)o3, xy23);
    _mm_store_ss(o3 + 2, _mm_movehl_ps(z23, z23));
}

/* Any other count of components, one at a time. */
static void store1(__m128 r, uint32_t m, float *const out[KF_LANES])
{
    float lane[KF_LANES];
    _mm_storeu_ps(lane, r);
    for (uint32_t l = 0; l < KF_LANES; l++)
        out[l][m] = lane[l];
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
static inline __m128 lerp(const float *a, const float *e, __m128 vu, uint32_t m)
{
    const __m128 x = LOAD(a, m);
    return _mm_add_ps(x, _mm_mul_ps(vu, _mm_sub_ps(LOAD(e, m), x)));
}

KF_KERNEL unsigned linear_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                              float *const out[KF_LANES])
{
    (void)exact_u;
    const __m128 vu = _mm_set1_ps(u);
    const float *a = key_at(b, i), *e = key_at(b, j);
    for (uint32_t m = 0; m < b->components; m++)
        store1(lerp(a, e, vu, m), m, out);
    return 0xf;
}

KF_KERNEL unsigned linear3_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                               float *const out[KF_LANES])
{
    (void)exact_u;
    const __m128 vu = _mm_set1_ps(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_LINEAR, 3), *e = KEY_AT(b, j, KFB_INTERP_LINEAR, 3);
    store3(lerp(a, e, vu, 0), lerp(a, e, vu, 1), lerp(a, e, vu, 2), out);
    return 0xf;
}

KF_KERNEL unsigned linear4_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                               float *const out[KF_LANES])
{
    (void)exact_u;
    const __m128 vu = _mm_set1_ps(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_LINEAR, 4), *e = KEY_AT(b, j, KFB_INTERP_LINEAR, 4);
    store4(lerp(a, e, vu, 0), lerp(a, e, vu, 1), lerp(a, e, vu, 2), lerp(a, e, vu, 3), out);
    return 0xf;
}

/* ---- SPLINE ------------------------------------------------------------ */

typedef struct basis4 {
    __m128 h0, h1, h2, h3;
} basis4;

static inline basis4 basis(float u)
{
    float h[4];
    kf_hermite_basis_f(u, h);
    return (basis4){_mm_set1_ps(h[0]), _mm_set1_ps(h[1]), _mm_set1_ps(h[2]), _mm_set1_ps(h[3])};
}

/* h0 a + h1 b + h2 ta + h3 tb, component m of c. */
static inline __m128 hermite(const float *a, const float *e, const basis4 *h, uint32_t c,
                             uint32_t m)
{
    __m128 x = _mm_mul_ps(h->h0, LOAD(a, m));
    x = _mm_add_ps(x, _mm_mul_ps(h->h1, LOAD(e, m)));
    x = _mm_add_ps(x, _mm_mul_ps(h->h2, LOAD(a, c + m)));
    return _mm_add_ps(x, _mm_mul_ps(h->h3, LOAD(e, 2 * c + m)));
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
static inline __m128 sinc4(__m128 z)
{
    __m128 t = _mm_mul_ps(z, _mm_set1_ps(2.60510774e-06f));
    t = _mm_mul_ps(z, _mm_add_ps(_mm_set1_ps(-0.000198090172f), t));
    t = _mm_mul_ps(z, _mm_add_ps(_mm_set1_ps(0.00833304971f), t));
    t = _mm_mul_ps(z, _mm_add_ps(_mm_set1_ps(-0.166666582f), t));
    return _mm_add_ps(_mm_set1_ps(1.0f), t);
}

/* kf_acos_over_sqrt, four at a time. */
static inline __m128 acos_over_sqrt4(__m128 c)
{
    __m128 t = _mm_mul_ps(c, _mm_set1_ps(-0.0012624911f));
    t = _mm_mul_ps(c, _mm_add_ps(_mm_set1_ps(0.0066700901f), t));
    t = _mm_mul_ps(c, _mm_add_ps(_mm_set1_ps(-0.0170881256f), t));
    t = _mm_mul_ps(c, _mm_add_ps(_mm_set1_ps(0.0308918810f), t));
    t = _mm_mul_ps(c, _mm_add_ps(_mm_set1_ps(-0.0501743046f), t));
    t = _mm_mul_ps(c, _mm_add_ps(_mm_set1_ps(0.0889789874f), t));
    t = _mm_mul_ps(c, _mm_add_ps(_mm_set1_ps(-0.2145988016f), t));
    return _mm_add_ps(_mm_set1_ps(1.5707963050f), t);
}

/* kf_arc_weights, four arcs at one u. */
static inline void arc_weights4(__m128 theta, __m128 r, __m128 vu, __m128 w[2])
{
    const __m128 vv = _mm_sub_ps(_mm_set1_ps(1.0f), vu);
    const __m128 x0 = _mm_mul_ps(vv, theta), x1 = _mm_mul_ps(vu, theta);
    w[0] = _mm_mul_ps(_mm_mul_ps(vv, r), sinc4(_mm_mul_ps(x0, x0)));
    w[1] = _mm_mul_ps(_mm_mul_ps(vu, r), sinc4(_mm_mul_ps(x1, x1)));
}

/* wa qa + wb qb, component m. */
static inline __m128 combine(__m128 wa, __m128 qa, __m128 wb, __m128 qb)
{
    return _mm_add_ps(_mm_mul_ps(wa, qa), _mm_mul_ps(wb, qb));
}

KF_KERNEL unsigned slerp_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                             float *const out[KF_LANES])
{
    (void)exact_u;
    const float *a = KEY_AT(b, i, KFB_INTERP_SLERP, 4), *e = KEY_AT(b, j, KFB_INTERP_SLERP, 4);
    const __m128 theta = LOAD(a, KF_FIELD_ARC(4));
    __m128 w[2];
    arc_weights4(theta, LOAD(a, KF_FIELD_ARC(4) + 1), _mm_set1_ps(u), w);
    store4(combine(w[0], LOAD(a, 0), w[1], LOAD(e, 0)), combine(w[0], LOAD(a, 1), w[1], LOAD(e, 1)),
           combine(w[0], LOAD(a, 2), w[1], LOAD(e, 2)), combine(w[0], LOAD(a, 3), w[1], LOAD(e, 3)),
           out);
    const int nonunit = _mm_movemask_ps(_mm_cmpngt_ps(theta, _mm_setzero_ps()));
    if (nonunit) {
        const int general = _mm_movemask_ps(_mm_cmplt_ps(theta, _mm_setzero_ps()));
        for (uint32_t l = 0; l < KF_LANES; l++)
            if (general >> l & 1)
                kf_block_slerp_general(b, l, i, j, u, out[l]);
    }
    return (unsigned)nonunit;
}

/* kf_normalize_single on four quaternions, component m in r[m]. */
static inline void normalize4(__m128 r[4])
{
    __m128 n2 = _mm_mul_ps(r[0], r[0]);
    n2 = _mm_add_ps(n2, _mm_mul_ps(r[1], r[1]));
    n2 = _mm_add_ps(n2, _mm_mul_ps(r[2], r[2]));
    n2 = _mm_add_ps(n2, _mm_mul_ps(r[3], r[3]));
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 near = _mm_cmplt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), _mm_sub_ps(n2, one)),
                                     _mm_set1_ps(1.0f / 4096));
    const __m128 ok =
        _mm_and_ps(_mm_cmpgt_ps(n2, _mm_set1_ps(1e-10f)), _mm_cmple_ps(n2, _mm_set1_ps(FLT_MAX)));
    const __m128 inv = _mm_or_ps(
        _mm_and_ps(near, _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(_mm_set1_ps(0.5f), n2))),
        _mm_andnot_ps(near, _mm_div_ps(one, _mm_sqrt_ps(n2))));
    const __m128 identity =
        _mm_andnot_ps(_mm_or_ps(near, ok), _mm_castsi128_ps(_mm_set1_epi32(-1)));
    r[0] = _mm_andnot_ps(identity, _mm_mul_ps(r[0], inv));
    r[1] = _mm_andnot_ps(identity, _mm_mul_ps(r[1], inv));
    r[2] = _mm_andnot_ps(identity, _mm_mul_ps(r[2], inv));
    r[3] = _mm_or_ps(_mm_andnot_ps(identity, _mm_mul_ps(r[3], inv)), _mm_and_ps(identity, one));
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
    const __m128 vu = _mm_set1_ps(u);
    const float *a = KEY_AT(b, i, KFB_INTERP_SQUAD, 4), *e = KEY_AT(b, j, KFB_INTERP_SQUAD, 4);
    const __m128 key_theta = LOAD(a, KF_FIELD_SQUAD_KEY_ARC);
    const __m128 control_theta = LOAD(a, KF_FIELD_SQUAD_CONTROL_ARC);
    __m128 wk[2], wc[2], q1[4], q2[4];
    arc_weights4(key_theta, LOAD(a, KF_FIELD_SQUAD_KEY_ARC + 1), vu, wk);
    arc_weights4(control_theta, LOAD(a, KF_FIELD_SQUAD_CONTROL_ARC + 1), vu, wc);
    COMBINE4(q1, wk[0], a, 0, wk[1], e, 0);
    COMBINE4(q2, wc[0], a, KF_FIELD_SQUAD_A, wc[1], e, KF_FIELD_SQUAD_B);
    /* The last slerp, as kf_slerp_runtime: both of its branches, selected. */
    __m128 c = _mm_mul_ps(q1[0], q2[0]);
    c = _mm_add_ps(c, _mm_mul_ps(q1[1], q2[1]));
    c = _mm_add_ps(c, _mm_mul_ps(q1[2], q2[2]));
    c = _mm_add_ps(c, _mm_mul_ps(q1[3], q2[3]));
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 near = _mm_cmpge_ps(c, _mm_set1_ps(1.0f - (float)KF_QUAT_EPSILON));
    const __m128 p = acos_over_sqrt4(c);
    const __m128 vt = _mm_set1_ps(2.0f * u * (1.0f - u));
    __m128 w[2];
    arc_weights4(_mm_mul_ps(_mm_sqrt_ps(_mm_sub_ps(one, c)), p),
                 _mm_div_ps(p, _mm_sqrt_ps(_mm_add_ps(one, c))), vt, w);
    w[0] = _mm_or_ps(_mm_and_ps(near, _mm_sub_ps(one, vt)), _mm_andnot_ps(near, w[0]));
    w[1] = _mm_or_ps(_mm_and_ps(near, vt), _mm_andnot_ps(near, w[1]));
    __m128 r[4];
    r[0] = combine(w[0], q1[0], w[1], q2[0]);
    r[1] = combine(w[0], q1[1], w[1], q2[1]);
    r[2] = combine(w[0], q1[2], w[1], q2[2]);
    r[3] = combine(w[0], q1[3], w[1], q2[3]);
    if (normalize)
        normalize4(r);
    store4(r[0], r[1], r[2], r[3], out);
    const __m128 zero = _mm_setzero_ps();
    const int general = _mm_movemask_ps(
        _mm_or_ps(_mm_or_ps(_mm_cmplt_ps(key_theta, zero), _mm_cmplt_ps(control_theta, zero)),
                  _mm_cmpnge_ps(c, zero)));
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
        __m128 r[4] = {LOAD(a, 0), LOAD(a, 1), LOAD(a, 2), LOAD(a, 3)};
        if (normalize)
            normalize4(r);
        store4(r[0], r[1], r[2], r[3], jobs->out);
    }
}

static const kf_kernels sse2 = {
    "sse2", {key, key3, key4}, {linear, linear3, linear4}, {spline, spline3, spline4}, slerp,
    squad};

const kf_kernels *kf_kernels_sse2(void)
{
    return &sse2;
}

#else

const kf_kernels *kf_kernels_sse2(void)
{
    return NULL;
}

#endif
