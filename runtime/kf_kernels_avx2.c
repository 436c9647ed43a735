/*
 * kf_kernels_avx2.c - the block kernels (kf_layout.h) with AVX2: two blocks
 * of a run, eight lanes, per instruction. Only this file is compiled with
 * -mavx2 (runtime/SConscript), and kf_kernels_best() hands its set out only
 * where the CPU and the OS say AVX2 works, so the library still runs on
 * every x86-64 machine. No FMA: every operation is the scalar kernels'
 * (kf_sample.h) in the same order, so the results are theirs bit for bit
 * (tests/test_player_kernels.c), as the SSE2 set's are.
 *
 * The layout stays four lanes wide (what SSE2 and the scalar set read);
 * a field of two blocks is one load and one insert, which costs less than
 * a second pass through every operation. A run with an odd number of
 * blocks plays its last block as both halves.
 */
#include "kf_layout.h"

#if defined(__AVX2__) && !defined(KF_NO_SIMD)
#include <immintrin.h>
#include <string.h>

#include "kf_sample.h"

typedef struct pair {
    const float *a, *b; /* the two blocks' keys */
} pair;

static inline pair key_pair(const kf_block *x, const kf_block *y, uint32_t k, uint32_t fields)
{
    const size_t at = (size_t)k * fields * KF_LANES;
    return (pair){x->data + at, y->data + at};
}

/* Field f of both blocks' key: lanes 0-3 from the first, 4-7 from the
 * second. */
static inline __m256 load2(pair p, uint32_t f)
{
    const size_t at = (size_t)f * KF_LANES;
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(p.a + at)),
                                _mm_load_ps(p.b + at), 1);
}

/* Component m of every lane in r[m] -> each lane's output. */
KF_KERNEL void store4(__m256 r0, __m256 r1, __m256 r2, __m256 r3, float *const out0[KF_LANES],
                      float *const out1[KF_LANES])
{
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    const __m256 l0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 l1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 l2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 l3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    /* The pointers first: a store through one could change them for all
     * the compiler knows. */
    float *a0 = out0[0], *a1 = out0[1], *a2 = out0[2], *a3 = out0[3];
    float *b0 = out1[0], *b1 = out1[1], *b2 = out1[2], *b3 = out1[3];
    _mm_storeu_ps(a0, _mm256_castps256_ps128(l0));
    _mm_storeu_ps(a1, _mm256_castps256_ps128(l1));
    _mm_storeu_ps(a2, _mm256_castps256_ps128(l2));
    _mm_storeu_ps(a3, _mm256_castps256_ps128(l3));
    _mm_storeu_ps(b0, _mm256_extractf128_ps(l0, 1));
    _mm_storeu_ps(b1, _mm256_extractf128_ps(l1, 1));
    _mm_storeu_ps(b2, _mm256_extractf128_ps(l2, 1));
    _mm_storeu_ps(b3, _mm256_extractf128_ps(l3, 1));
}

/* Element k of v to *p (one extractps). */
#define STORE_LANE(p, v, k)                                                                        \
    do {                                                                                           \
        const int bits_ = _mm_extract_ps(v, k);                                                    \
        memcpy(p, &bits_, sizeof bits_);                                                           \
    } while (0)

/* Four lanes' x, y (xy01: x0 y0 x1 y1, xy23) and z (z: z0 z1 z2 z3). */
KF_KERNEL void store3_half(__m128 xy01, __m128 xy23, __m128 z, float *const out[KF_LANES])
{
    float *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
    _mm_storel_pi((__m64 *)(void *)o0, xy01);
    STORE_LANE(o0 + 2, z, 0);
    _mm_storeh_pi((__m64 *)(void *)o1, xy01);
    STORE_LANE(o1 + 2, z, 1);
    _mm_storel_pi((__m64 *)(void *)o2, xy23);
    STORE_LANE(o2 + 2, z, 2);
    _mm_storeh_pi((__m64 *)(void *)o3, xy23);
    STORE_LANE(o3 + 2, z, 3);
}

KF_KERNEL void store3(__m256 r0, __m256 r1, __m256 r2, float *const out0[KF_LANES],
                      float *const out1[KF_LANES])
{
    const __m256 xy01 = _mm256_unpacklo_ps(r0, r1), xy23 = _mm256_unpackhi_ps(r0, r1);
    store3_half(_mm256_castps256_ps128(xy01), _mm256_castps256_ps128(xy23),
                _mm256_castps256_ps128(r2), out0);
    store3_half(_mm256_extractf128_ps(xy01, 1), _mm256_extractf128_ps(xy23, 1),
                _mm256_extractf128_ps(r2, 1), out1);
}

/* ---- STEP and holds ---------------------------------------------------- */

KF_KERNEL unsigned key3_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j, float u,
                            double exact_u)
{
    (void)j, (void)u, (void)exact_u;
    /* Holds play every interpolation's blocks: the fields are the block's. */
    const pair a = key_pair(x->block, y->block, i, x->block->fields);
    store3(load2(a, 0), load2(a, 1), load2(a, 2), x->out, y->out);
    return 0xff;
}

/* ---- LINEAR ------------------------------------------------------------ */

static inline __m256 lerp(pair a, pair e, __m256 vu, uint32_t m)
{
    const __m256 x = load2(a, m);
    return _mm256_add_ps(x, _mm256_mul_ps(vu, _mm256_sub_ps(load2(e, m), x)));
}

KF_KERNEL unsigned linear3_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j,
                               float u, double exact_u)
{
    (void)exact_u;
    const __m256 vu = _mm256_set1_ps(u);
    const uint32_t f = kf_block_fields(KFB_INTERP_LINEAR, 3);
    const pair a = key_pair(x->block, y->block, i, f), e = key_pair(x->block, y->block, j, f);
    store3(lerp(a, e, vu, 0), lerp(a, e, vu, 1), lerp(a, e, vu, 2), x->out, y->out);
    return 0xff;
}

KF_KERNEL unsigned linear4_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j,
                               float u, double exact_u)
{
    (void)exact_u;
    const __m256 vu = _mm256_set1_ps(u);
    const uint32_t f = kf_block_fields(KFB_INTERP_LINEAR, 4);
    const pair a = key_pair(x->block, y->block, i, f), e = key_pair(x->block, y->block, j, f);
    store4(lerp(a, e, vu, 0), lerp(a, e, vu, 1), lerp(a, e, vu, 2), lerp(a, e, vu, 3), x->out,
           y->out);
    return 0xff;
}

/* ---- SPLINE ------------------------------------------------------------ */

typedef struct basis8 {
    __m256 h0, h1, h2, h3;
} basis8;

static inline basis8 basis(float u)
{
    float h[4];
    kf_hermite_basis_f(u, h);
    return (basis8){_mm256_set1_ps(h[0]), _mm256_set1_ps(h[1]), _mm256_set1_ps(h[2]),
                    _mm256_set1_ps(h[3])};
}

/* h0 a + h1 b + h2 ta + h3 tb, component m of c. */
static inline __m256 hermite(pair a, pair e, const basis8 *h, uint32_t c, uint32_t m)
{
    __m256 v = _mm256_mul_ps(h->h0, load2(a, m));
    v = _mm256_add_ps(v, _mm256_mul_ps(h->h1, load2(e, m)));
    v = _mm256_add_ps(v, _mm256_mul_ps(h->h2, load2(a, c + m)));
    return _mm256_add_ps(v, _mm256_mul_ps(h->h3, load2(e, 2 * c + m)));
}

KF_KERNEL unsigned spline3_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j,
                               float u, double exact_u)
{
    (void)exact_u;
    const basis8 h = basis(u);
    const uint32_t f = kf_block_fields(KFB_INTERP_SPLINE, 3);
    const pair a = key_pair(x->block, y->block, i, f), e = key_pair(x->block, y->block, j, f);
    store3(hermite(a, e, &h, 3, 0), hermite(a, e, &h, 3, 1), hermite(a, e, &h, 3, 2), x->out,
           y->out);
    return 0xff;
}

KF_KERNEL unsigned spline4_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j,
                               float u, double exact_u)
{
    (void)exact_u;
    const basis8 h = basis(u);
    const uint32_t f = kf_block_fields(KFB_INTERP_SPLINE, 4);
    const pair a = key_pair(x->block, y->block, i, f), e = key_pair(x->block, y->block, j, f);
    store4(hermite(a, e, &h, 4, 0), hermite(a, e, &h, 4, 1), hermite(a, e, &h, 4, 2),
           hermite(a, e, &h, 4, 3), x->out, y->out);
    return 0xff;
}

/* ---- SLERP and SQUAD --------------------------------------------------- */

/* kf_sinc, eight at a time. */
static inline __m256 sinc8(__m256 z)
{
    __m256 t = _mm256_mul_ps(z, _mm256_set1_ps(2.60510774e-06f));
    t = _mm256_mul_ps(z, _mm256_add_ps(_mm256_set1_ps(-0.000198090172f), t));
    t = _mm256_mul_ps(z, _mm256_add_ps(_mm256_set1_ps(0.00833304971f), t));
    t = _mm256_mul_ps(z, _mm256_add_ps(_mm256_set1_ps(-0.166666582f), t));
    return _mm256_add_ps(_mm256_set1_ps(1.0f), t);
}

/* kf_acos_over_sqrt, eight at a time. */
static inline __m256 acos_over_sqrt8(__m256 c)
{
    __m256 t = _mm256_mul_ps(c, _mm256_set1_ps(-0.0012624911f));
    t = _mm256_mul_ps(c, _mm256_add_ps(_mm256_set1_ps(0.0066700901f), t));
    t = _mm256_mul_ps(c, _mm256_add_ps(_mm256_set1_ps(-0.0170881256f), t));
    t = _mm256_mul_ps(c, _mm256_add_ps(_mm256_set1_ps(0.0308918810f), t));
    t = _mm256_mul_ps(c, _mm256_add_ps(_mm256_set1_ps(-0.0501743046f), t));
    t = _mm256_mul_ps(c, _mm256_add_ps(_mm256_set1_ps(0.0889789874f), t));
    t = _mm256_mul_ps(c, _mm256_add_ps(_mm256_set1_ps(-0.2145988016f), t));
    return _mm256_add_ps(_mm256_set1_ps(1.5707963050f), t);
}

/* kf_arc_weights, eight arcs at one u. */
static inline void arc_weights8(__m256 theta, __m256 r, __m256 vu, __m256 w[2])
{
    const __m256 vv = _mm256_sub_ps(_mm256_set1_ps(1.0f), vu);
    const __m256 x0 = _mm256_mul_ps(vv, theta), x1 = _mm256_mul_ps(vu, theta);
    w[0] = _mm256_mul_ps(_mm256_mul_ps(vv, r), sinc8(_mm256_mul_ps(x0, x0)));
    w[1] = _mm256_mul_ps(_mm256_mul_ps(vu, r), sinc8(_mm256_mul_ps(x1, x1)));
}

static inline __m256 combine(__m256 wa, __m256 qa, __m256 wb, __m256 qb)
{
    return _mm256_add_ps(_mm256_mul_ps(wa, qa), _mm256_mul_ps(wb, qb));
}

/* The lanes whose bit is set in `mask`, as out[l] of the first block
 * (bits 0-3) or the second (bits 4-7). */
static inline float *lane_out(const kf_lanes *x, const kf_lanes *y, uint32_t l)
{
    return l < KF_LANES ? x->out[l] : y->out[l - KF_LANES];
}

/* The lanes to finish: a block played as both halves is finished once
 * (normalizing twice would round twice). */
static inline uint32_t lanes(const kf_lanes *x, const kf_lanes *y)
{
    return x == y ? KF_LANES : 2 * KF_LANES;
}

static inline const kf_block *lane_block(const kf_lanes *x, const kf_lanes *y, uint32_t l)
{
    return l < KF_LANES ? x->block : y->block;
}

KF_KERNEL unsigned slerp_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j, float u,
                             double exact_u)
{
    (void)exact_u;
    const uint32_t f = kf_block_fields(KFB_INTERP_SLERP, 4);
    const pair a = key_pair(x->block, y->block, i, f), e = key_pair(x->block, y->block, j, f);
    const __m256 theta = load2(a, KF_FIELD_ARC(4));
    __m256 w[2];
    arc_weights8(theta, load2(a, KF_FIELD_ARC(4) + 1), _mm256_set1_ps(u), w);
    store4(combine(w[0], load2(a, 0), w[1], load2(e, 0)),
           combine(w[0], load2(a, 1), w[1], load2(e, 1)),
           combine(w[0], load2(a, 2), w[1], load2(e, 2)),
           combine(w[0], load2(a, 3), w[1], load2(e, 3)), x->out, y->out);
    const __m256 zero = _mm256_setzero_ps();
    const int nonunit = _mm256_movemask_ps(_mm256_cmp_ps(theta, zero, _CMP_NGT_UQ));
    if (nonunit) {
        const int general = _mm256_movemask_ps(_mm256_cmp_ps(theta, zero, _CMP_LT_OQ));
        for (uint32_t l = 0; l < lanes(x, y); l++)
            if (general >> l & 1)
                kf_block_slerp_general(lane_block(x, y, l), l % KF_LANES, i, j, u,
                                       lane_out(x, y, l));
    }
    return (unsigned)nonunit;
}

/* kf_normalize_single on eight quaternions, component m in r[m]. */
static inline void normalize8(__m256 r[4])
{
    __m256 n2 = _mm256_mul_ps(r[0], r[0]);
    n2 = _mm256_add_ps(n2, _mm256_mul_ps(r[1], r[1]));
    n2 = _mm256_add_ps(n2, _mm256_mul_ps(r[2], r[2]));
    n2 = _mm256_add_ps(n2, _mm256_mul_ps(r[3], r[3]));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 near =
        _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), _mm256_sub_ps(n2, one)),
                      _mm256_set1_ps(1.0f / 4096), _CMP_LT_OQ);
    const __m256 ok = _mm256_and_ps(_mm256_cmp_ps(n2, _mm256_set1_ps(1e-10f), _CMP_GT_OQ),
                                    _mm256_cmp_ps(n2, _mm256_set1_ps(FLT_MAX), _CMP_LE_OQ));
    const __m256 inv =
        _mm256_or_ps(_mm256_and_ps(near, _mm256_sub_ps(_mm256_set1_ps(1.5f),
                                                       _mm256_mul_ps(_mm256_set1_ps(0.5f), n2))),
                     _mm256_andnot_ps(near, _mm256_div_ps(one, _mm256_sqrt_ps(n2))));
    const __m256 identity =
        _mm256_andnot_ps(_mm256_or_ps(near, ok), _mm256_castsi256_ps(_mm256_set1_epi32(-1)));
    r[0] = _mm256_andnot_ps(identity, _mm256_mul_ps(r[0], inv));
    r[1] = _mm256_andnot_ps(identity, _mm256_mul_ps(r[1], inv));
    r[2] = _mm256_andnot_ps(identity, _mm256_mul_ps(r[2], inv));
    r[3] = _mm256_or_ps(_mm256_andnot_ps(identity, _mm256_mul_ps(r[3], inv)),
                        _mm256_and_ps(identity, one));
}

KF_KERNEL void squad_two(const kf_lanes *x, const kf_lanes *y, uint32_t i, uint32_t j, float u,
                         double exact_u, int normalize)
{
    const __m256 vu = _mm256_set1_ps(u);
    const uint32_t f = kf_block_fields(KFB_INTERP_SQUAD, 4);
    const pair a = key_pair(x->block, y->block, i, f), e = key_pair(x->block, y->block, j, f);
    const __m256 key_theta = load2(a, KF_FIELD_SQUAD_KEY_ARC);
    const __m256 control_theta = load2(a, KF_FIELD_SQUAD_CONTROL_ARC);
    __m256 wk[2], wc[2], q1[4], q2[4];
    arc_weights8(key_theta, load2(a, KF_FIELD_SQUAD_KEY_ARC + 1), vu, wk);
    arc_weights8(control_theta, load2(a, KF_FIELD_SQUAD_CONTROL_ARC + 1), vu, wc);
    for (uint32_t m = 0; m < 4; m++) {
        q1[m] = combine(wk[0], load2(a, m), wk[1], load2(e, m));
        q2[m] =
            combine(wc[0], load2(a, KF_FIELD_SQUAD_A + m), wc[1], load2(e, KF_FIELD_SQUAD_B + m));
    }
    /* The last slerp, as kf_slerp_runtime: both of its branches, selected. */
    __m256 c = _mm256_mul_ps(q1[0], q2[0]);
    c = _mm256_add_ps(c, _mm256_mul_ps(q1[1], q2[1]));
    c = _mm256_add_ps(c, _mm256_mul_ps(q1[2], q2[2]));
    c = _mm256_add_ps(c, _mm256_mul_ps(q1[3], q2[3]));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 near = _mm256_cmp_ps(c, _mm256_set1_ps(1.0f - (float)KF_QUAT_EPSILON), _CMP_GE_OQ);
    const __m256 p = acos_over_sqrt8(c);
    const __m256 vt = _mm256_set1_ps(2.0f * u * (1.0f - u));
    __m256 w[2];
    arc_weights8(_mm256_mul_ps(_mm256_sqrt_ps(_mm256_sub_ps(one, c)), p),
                 _mm256_div_ps(p, _mm256_sqrt_ps(_mm256_add_ps(one, c))), vt, w);
    w[0] = _mm256_blendv_ps(w[0], _mm256_sub_ps(one, vt), near);
    w[1] = _mm256_blendv_ps(w[1], vt, near);
    __m256 r[4];
    for (uint32_t m = 0; m < 4; m++)
        r[m] = combine(w[0], q1[m], w[1], q2[m]);
    if (normalize)
        normalize8(r);
    store4(r[0], r[1], r[2], r[3], x->out, y->out);
    const __m256 zero = _mm256_setzero_ps();
    const int general = _mm256_movemask_ps(
        _mm256_or_ps(_mm256_or_ps(_mm256_cmp_ps(key_theta, zero, _CMP_LT_OQ),
                                  _mm256_cmp_ps(control_theta, zero, _CMP_LT_OQ)),
                     _mm256_cmp_ps(c, zero, _CMP_NGE_UQ)));
    if (general)
        for (uint32_t l = 0; l < lanes(x, y); l++) {
            const kf_block *bl = lane_block(x, y, l);
            const struct kf_sequence *s = bl->lane[l % KF_LANES];
            if ((general >> l & 1) && s) {
                float *o = lane_out(x, y, l);
                kf_squad_general(s, i, j, exact_u, o);
                if (normalize)
                    kf_normalize_single(o);
            }
        }
}

/* The loop over a run of blocks, two at a time, around an inlined kernel;
 * `normalize` as kf_block_kernel, for the lanes the kernel did not leave
 * unit. An odd last block is both halves: the same values go to the same
 * places twice. */
#define JOBS(name)                                                                                 \
    static void name(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,        \
                     double exact_u, int normalize)                                                \
    {                                                                                              \
        for (uint32_t k = 0; k < count; k += 2) {                                                  \
            const kf_lanes *x = jobs + k, *y = k + 1 < count ? x + 1 : x;                          \
            const unsigned nonunit = name##_two(x, y, i, j, u, exact_u);                           \
            if (normalize && nonunit)                                                              \
                for (uint32_t l = 0; l < lanes(x, y); l++)                                         \
                    if (nonunit >> l & 1)                                                          \
                        kf_normalize_single(lane_out(x, y, l));                                    \
        }                                                                                          \
    }
JOBS(key3)
JOBS(linear3)
JOBS(linear4)
JOBS(spline3)
JOBS(spline4)
JOBS(slerp)

static void squad(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                  double exact_u, int normalize)
{
    for (uint32_t k = 0; k < count; k += 2) {
        const kf_lanes *x = jobs + k, *y = k + 1 < count ? x + 1 : x;
        squad_two(x, y, i, j, u, exact_u, normalize);
    }
}

/* Key i of quaternion blocks; orientations are normalized as the blocks
 * are stored, eight at a time, instead of one lane at a time after. */
static void key4(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                 double exact_u, int normalize)
{
    (void)j, (void)u, (void)exact_u;
    for (uint32_t k = 0; k < count; k += 2) {
        const kf_lanes *x = jobs + k, *y = k + 1 < count ? x + 1 : x;
        /* Holds play every interpolation's blocks: the fields are the block's. */
        const pair a = key_pair(x->block, y->block, i, x->block->fields);
        __m256 r[4] = {load2(a, 0), load2(a, 1), load2(a, 2), load2(a, 3)};
        if (normalize)
            normalize8(r);
        store4(r[0], r[1], r[2], r[3], x->out, y->out);
    }
}

/* Other component counts are rare (scalars, pairs, arrays): SSE2's. */
#define SSE2(name, member, index)                                                                  \
    static void name(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,        \
                     double exact_u, int normalize)                                                \
    {                                                                                              \
        kf_kernels_sse2()->member[index](jobs, count, i, j, u, exact_u, normalize);                \
    }
SSE2(key, key, 0)
SSE2(linear, linear, 0)
SSE2(spline, spline, 0)

static const kf_kernels avx2 = {
    "avx2", {key, key3, key4}, {linear, linear3, linear4}, {spline, spline3, spline4}, slerp,
    squad};

const kf_kernels *kf_kernels_avx2(void)
{
    return &avx2;
}

#else

const kf_kernels *kf_kernels_avx2(void)
{
    return NULL;
}

#endif
