/* SPDX-License-Identifier: MIT */
/*
 * kf_kernels_avx2.c - the block kernels (kf_layout.h) with AVX2: two blocks
 * of a run, eight lanes, per instruction. Only this file is compiled with
 * -mavx2 (runtime/SConscript), and kf_kernels_best() hands its set out only
 * where the CPU and the OS say AVX2 works, so the library still runs on
 * every x86-64 machine. The kernels are kf_kernels_simd.h's; this file
 * gives them AVX2's registers (no FMA: -mavx2 does not enable it).
 *
 * The layout stays four lanes wide (what SSE2, NEON and the scalar set
 * read); a field of two blocks is one load and one insert, which costs less
 * than a second pass through every operation. A run with an odd number of
 * blocks plays its last block as both halves, and finishes it once.
 */
#include "kf_layout.h"

#if defined(__AVX2__) && !defined(KF_NO_SIMD)
#include <immintrin.h>
#include <string.h>

#include "kf_sample.h"

typedef __m256 vf;
typedef __m256 vm;

static inline vf v_set1(float x)
{
    return _mm256_set1_ps(x);
}
static inline vf v_add(vf a, vf b)
{
    return _mm256_add_ps(a, b);
}
static inline vf v_sub(vf a, vf b)
{
    return _mm256_sub_ps(a, b);
}
static inline vf v_mul(vf a, vf b)
{
    return _mm256_mul_ps(a, b);
}
static inline vf v_div(vf a, vf b)
{
    return _mm256_div_ps(a, b);
}
static inline vf v_sqrt(vf a)
{
    return _mm256_sqrt_ps(a);
}
static inline vf v_abs(vf a)
{
    return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
}
static inline vm v_lt(vf a, vf b)
{
    return _mm256_cmp_ps(a, b, _CMP_LT_OQ);
}
static inline vm v_le(vf a, vf b)
{
    return _mm256_cmp_ps(a, b, _CMP_LE_OQ);
}
static inline vm v_gt(vf a, vf b)
{
    return _mm256_cmp_ps(a, b, _CMP_GT_OQ);
}
static inline vm v_ge(vf a, vf b)
{
    return _mm256_cmp_ps(a, b, _CMP_GE_OQ);
}
static inline vm m_or(vm a, vm b)
{
    return _mm256_or_ps(a, b);
}
static inline vm m_and(vm a, vm b)
{
    return _mm256_and_ps(a, b);
}
static inline vm m_not(vm a)
{
    return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1)));
}
static inline vf v_select(vm m, vf a, vf b)
{
    return _mm256_blendv_ps(b, a, m);
}
static inline unsigned m_bits(vm m)
{
    return (unsigned)_mm256_movemask_ps(m);
}

/* A job is two blocks of a run (the same one twice for an odd last block):
 * lanes 0-3 are the first's, 4-7 the second's. */
typedef struct job {
    const kf_lanes *x, *y;
    int paired; /* quantized blocks whose bases and scales are paired
                   (KF_DEQUANT_FIELD): a constant in each copy of a
                   kernel (kf_kernels_simd.h, QJOBS) */
} job;
typedef struct keys {
    const float *a, *b; /* the two blocks' key */
} keys;
#define JOB_STEP 2

static inline job job_at(const kf_lanes *jobs, uint32_t count, uint32_t k)
{
    return (job){jobs + k, k + 1 < count ? jobs + k + 1 : jobs + k, 0};
}

/* Whether the run of quantized blocks `jobs` begins with a pair (its blocks
 * are a stripe's, in order, so then every job of two blocks is one). */
static inline int jobs_paired(const kf_lanes *jobs, uint32_t count)
{
    return count > 1 && jobs[1].block->dequant == jobs[0].block->dequant + KF_LANES;
}

static inline job job_paired(job jb, int paired)
{
    jb.paired = paired;
    return jb;
}

/* Both blocks are of one run, whose blocks share rows (kf_layout.c). */
static inline keys job_key(job jb, size_t at)
{
    return (keys){jb.x->data + at, jb.y->data + at};
}

/* Field f of both blocks' key (16-aligned, kf_layout.c). */
static inline vf v_load(keys p, uint32_t f)
{
    const size_t at = (size_t)f * KF_LANES;
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(p.a + at)),
                                _mm_load_ps(p.b + at), 1);
}

/* Both blocks' quantized key: their rows of q (kf_block.qbits), the high
 * nibbles of 12-bit ones, and their bases and scales (a field each, read
 * as keys' fields are). */
typedef struct qkeys {
    const uint8_t *qa, *qb, *ha, *hb;
    keys d;
    int paired; /* d.b is d.a + KF_LANES */
} qkeys;

static inline qkeys job_qkey(job jb, size_t at)
{
    const uint8_t *qa = (const uint8_t *)(const void *)(jb.x->data + at),
                  *qb = (const uint8_t *)(const void *)(jb.y->data + at);
    return (qkeys){qa,
                   qb,
                   qa + jb.x->block->high,
                   qb + jb.y->block->high,
                   {jb.x->block->dequant, jb.y->block->dequant},
                   jb.paired};
}

/* Both blocks' keys from their field f on, as keys whose field 0 is that
 * one (kf_kernels_one_block.h, q_field_at). */
static inline qkeys q_field_at(qkeys k, uint32_t f, size_t bytes)
{
    const size_t q = (size_t)f * KF_LANES * bytes, d = (size_t)f * KF_DEQUANT_FIELD;
    return (qkeys){
        k.qa + q, k.qb + q, k.ha + 2 * (size_t)f, k.hb + 2 * (size_t)f, {k.d.a + d, k.d.b + d},
        k.paired};
}

/* Both blocks' bases or scales: one load where the blocks are a pair. */
#define SET_DQ_LOAD
static inline vf dq_load(qkeys k, uint32_t f)
{
    if (k.paired)
        return _mm256_loadu_ps(k.d.a + (size_t)f * KF_LANES);
    return v_load(k.d, f);
}

/* Field f's eight q of both blocks' quantized key (16, 12 or 8 bits, a
 * constant in each kernel), widened at once. */
typedef __m256i vq;
static inline vq q_lanes(qkeys p, uint32_t f)
{
    const size_t at = (size_t)f * 2 * KF_LANES;
    const __m128i w =
        _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(p.qa + at)),
                           _mm_loadl_epi64((const __m128i *)(const void *)(p.qb + at)));
    return _mm256_cvtepu16_epi32(w);
}

static inline int32_t load32(const uint8_t *p)
{
    int32_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

static inline vq q_lanes8(qkeys p, uint32_t f)
{
    const size_t at = (size_t)f * KF_LANES;
    return _mm256_cvtepu8_epi32(
        _mm_insert_epi32(_mm_cvtsi32_si128(load32(p.qa + at)), load32(p.qb + at), 1));
}

/* Fields 0 to 2 at once: each block's sixteen bytes from its key's low
 * bytes (twelve, then what follows them in the row, or the layout's slack
 * after the last row, kf_layout.c) in one 128-bit half each, and each
 * field's four bytes spread to 32-bit lanes by one byte shuffle. */
#define SET_Q_THREE
static inline __m256i q_low3(qkeys p)
{
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p.qa)),
        _mm_loadu_si128((const __m128i *)(const void *)p.qb), 1);
}

static inline __m256i q_spread(__m256i low, uint32_t f)
{
    const char z = (char)0x80, b = (char)(4 * f);
    const __m256i mask = _mm256_setr_epi8(b, z, z, z, (char)(b + 1), z, z, z, (char)(b + 2), z, z,
                                          z, (char)(b + 3), z, z, z, b, z, z, z, (char)(b + 1), z,
                                          z, z, (char)(b + 2), z, z, z, (char)(b + 3), z, z, z);
    return _mm256_shuffle_epi8(low, mask);
}

KF_KERNEL void q_lanes8_3(qkeys p, vq q[3])
{
    const __m256i low = q_low3(p);
    q[0] = q_spread(low, 0);
    q[1] = q_spread(low, 1);
    q[2] = q_spread(low, 2);
}

/* The high nibbles of fields 0 to 2: each block's three uint16 and the two
 * bytes before them (the stripe's low bytes) in one 64-bit load, field f's
 * uint16 given to the top half of each of its block's lanes. */
KF_KERNEL void q_lanes12_3(qkeys p, vq q[3])
{
    const __m256i low = q_low3(p);
    const __m256i high = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(const void *)(p.ha - 2))),
        _mm_loadl_epi64((const __m128i *)(const void *)(p.hb - 2)), 1);
    const __m256i down = _mm256_setr_epi32(8, 12, 16, 20, 8, 12, 16, 20);
    const __m256i nibble = _mm256_set1_epi32(0x0F00);
    const char z = (char)0x80;
    for (uint32_t f = 0; f < 3; f++) {
        const char h = (char)(2 + 2 * f), g = (char)(3 + 2 * f);
        const __m256i top = _mm256_shuffle_epi8(
            high, _mm256_setr_epi8(z, z, h, g, z, z, h, g, z, z, h, g, z, z, h, g, z, z, h, g, z, z,
                                   h, g, z, z, h, g, z, z, h, g));
        q[f] = _mm256_or_si256(q_spread(low, f),
                               _mm256_and_si256(_mm256_srlv_epi32(top, down), nibble));
    }
}

/* The high nibbles: each block's uint16 of field f read as the top half of
 * a 32-bit word (its low half is the bytes before, which a row always
 * has: the stripe's low bytes), given to its four lanes, lane l's shifted
 * down by 8 + 4l to bits 8 to 11. */
static inline vq q_lanes12(qkeys p, uint32_t f)
{
    const size_t at = 2 * (size_t)f;
    const __m128i two =
        _mm_insert_epi32(_mm_cvtsi32_si128(load32(p.ha - 2 + at)), load32(p.hb - 2 + at), 1);
    const __m256i high = _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(two),
                                                     _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
    const __m256i nibbles =
        _mm256_and_si256(_mm256_srlv_epi32(high, _mm256_setr_epi32(8, 12, 16, 20, 8, 12, 16, 20)),
                         _mm256_set1_epi32(0x0F00));
    return _mm256_or_si256(q_lanes8(p, f), nibbles);
}

static inline vf q_float(vq q)
{
    return _mm256_cvtepi32_ps(q);
}

/* q's bit 0 as a float's sign (KF_QSLERP_SIGN); *rest: the q above it. */
static inline vf q_sign(vq q, vq *rest)
{
    *rest = _mm256_srli_epi32(q, 1);
    return _mm256_castsi256_ps(_mm256_slli_epi32(q, 31));
}

static inline vf v_or(vf a, vf b)
{
    return _mm256_or_ps(a, b);
}

/* kf_unit_rest of four lanes. */
KF_KERNEL __m128 unit_rest4(__m128 x, __m128 y, __m128 z)
{
    const __m256d dx = _mm256_cvtps_pd(x), dy = _mm256_cvtps_pd(y), dz = _mm256_cvtps_pd(z);
    __m256d sum = _mm256_mul_pd(dx, dx);
    sum = _mm256_add_pd(sum, _mm256_mul_pd(dy, dy));
    sum = _mm256_add_pd(sum, _mm256_mul_pd(dz, dz));
    return _mm256_cvtpd_ps(_mm256_sqrt_pd(_mm256_sub_pd(_mm256_set1_pd(1.0), sum)));
}

/* kf_unit_rest of every lane, both blocks'. */
KF_KERNEL vf v_unit_rest(vf x, vf y, vf z)
{
    const __m128 lo =
        unit_rest4(_mm256_castps256_ps128(x), _mm256_castps256_ps128(y), _mm256_castps256_ps128(z));
    const __m128 hi = unit_rest4(_mm256_extractf128_ps(x, 1), _mm256_extractf128_ps(y, 1),
                                 _mm256_extractf128_ps(z, 1));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

static inline const kf_block *job_block(job jb)
{
    return jb.x->block;
}

/* The lanes to finish: a block played as both halves is finished once
 * (normalizing twice would round twice). */
static inline uint32_t job_lanes(job jb)
{
    return jb.x == jb.y ? KF_LANES : 2 * KF_LANES;
}

static inline const kf_block *lane_block(job jb, uint32_t l)
{
    return l < KF_LANES ? jb.x->block : jb.y->block;
}

static inline float *lane_out(job jb, uint32_t l)
{
    return l < KF_LANES ? kf_lanes_out(jb.x, l) : kf_lanes_out(jb.y, l - KF_LANES);
}

/* Component m of every lane in r[m] -> each lane's output. */
KF_KERNEL void store4(vf r0, vf r1, vf r2, vf r3, job jb)
{
    const vf t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const vf t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    const vf l0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const vf l1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const vf l2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const vf l3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    /* The pointers first: a store through one could change them for all
     * the compiler knows. */
    float *a0 = kf_lanes_out(jb.x, 0), *a1 = kf_lanes_out(jb.x, 1), *a2 = kf_lanes_out(jb.x, 2),
          *a3 = kf_lanes_out(jb.x, 3);
    float *b0 = kf_lanes_out(jb.y, 0), *b1 = kf_lanes_out(jb.y, 1), *b2 = kf_lanes_out(jb.y, 2),
          *b3 = kf_lanes_out(jb.y, 3);
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
KF_KERNEL void store3_half(__m128 xy01, __m128 xy23, __m128 z, const kf_lanes *x)
{
    float *o0 = kf_lanes_out(x, 0), *o1 = kf_lanes_out(x, 1), *o2 = kf_lanes_out(x, 2),
          *o3 = kf_lanes_out(x, 3);
    _mm_storel_pi((__m64 *)(void *)o0, xy01);
    STORE_LANE(o0 + 2, z, 0);
    _mm_storeh_pi((__m64 *)(void *)o1, xy01);
    STORE_LANE(o1 + 2, z, 1);
    _mm_storel_pi((__m64 *)(void *)o2, xy23);
    STORE_LANE(o2 + 2, z, 2);
    _mm_storeh_pi((__m64 *)(void *)o3, xy23);
    STORE_LANE(o3 + 2, z, 3);
}

/* Three components: eight bytes and four per lane. */
KF_KERNEL void store3(vf r0, vf r1, vf r2, job jb)
{
    const vf xy01 = _mm256_unpacklo_ps(r0, r1), xy23 = _mm256_unpackhi_ps(r0, r1);
    store3_half(_mm256_castps256_ps128(xy01), _mm256_castps256_ps128(xy23),
                _mm256_castps256_ps128(r2), jb.x);
    store3_half(_mm256_extractf128_ps(xy01, 1), _mm256_extractf128_ps(xy23, 1),
                _mm256_extractf128_ps(r2, 1), jb.y);
}

/* Any other count of components, component m. */
static void store1(vf r, uint32_t m, job jb)
{
    float lane[2 * KF_LANES];
    _mm256_storeu_ps(lane, r);
    for (uint32_t l = 0; l < 2 * KF_LANES; l++)
        lane_out(jb, l)[m] = lane[l];
}

#define SET_NAME   "avx2"
#define SET_GETTER kf_kernels_avx2
#include "kf_kernels_simd.h"

#else

const kf_kernels *kf_kernels_avx2(void)
{
    return NULL;
}

#endif
