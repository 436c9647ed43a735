/* SPDX-License-Identifier: MIT */
/*
 * kf_kernels_sse2.c - the block kernels (kf_layout.h) with SSE2, one block,
 * four lanes, per instruction. SSE2 is part of x86-64 itself, so no build
 * flag and no CPU check is needed. The kernels are kf_kernels_simd.h's;
 * this file gives them SSE2's registers. Building with KF_NO_SIMD (scons
 * SIMD=0) leaves this set out.
 */
#include "kf_layout.h"

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>

#include "kf_sample.h"

typedef __m128 vf;
typedef __m128 vm;

static inline vf v_set1(float x)
{
    return _mm_set1_ps(x);
}
static inline vf v_add(vf a, vf b)
{
    return _mm_add_ps(a, b);
}
static inline vf v_sub(vf a, vf b)
{
    return _mm_sub_ps(a, b);
}
static inline vf v_mul(vf a, vf b)
{
    return _mm_mul_ps(a, b);
}
static inline vf v_div(vf a, vf b)
{
    return _mm_div_ps(a, b);
}
static inline vf v_sqrt(vf a)
{
    return _mm_sqrt_ps(a);
}
static inline vf v_abs(vf a)
{
    return _mm_andnot_ps(_mm_set1_ps(-0.0f), a);
}
static inline vm v_lt(vf a, vf b)
{
    return _mm_cmplt_ps(a, b);
}
static inline vm v_le(vf a, vf b)
{
    return _mm_cmple_ps(a, b);
}
static inline vm v_gt(vf a, vf b)
{
    return _mm_cmpgt_ps(a, b);
}
static inline vm v_ge(vf a, vf b)
{
    return _mm_cmpge_ps(a, b);
}
static inline vm m_or(vm a, vm b)
{
    return _mm_or_ps(a, b);
}
static inline vm m_and(vm a, vm b)
{
    return _mm_and_ps(a, b);
}
static inline vm m_not(vm a)
{
    return _mm_xor_ps(a, _mm_castsi128_ps(_mm_set1_epi32(-1)));
}
static inline vf v_select(vm m, vf a, vf b)
{
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}
static inline unsigned m_bits(vm m)
{
    return (unsigned)_mm_movemask_ps(m);
}

/* A job is one block (job, keys, qkeys and the rest); the loads are
 * this set's. */
#include "kf_kernels_one_block.h"

/* Field f of the four lanes' key (16-aligned). */
static inline vf v_load(keys p, uint32_t f)
{
    return _mm_load_ps(p + (size_t)f * KF_LANES);
}

/* Field f's four q of a quantized block's key (16, 12 or 8 bits, a
 * constant in each kernel), widened. */
typedef __m128i vq;
static inline vq q_lanes(qkeys k, uint32_t f)
{
    const __m128i w =
        _mm_loadl_epi64((const __m128i *)(const void *)(k.q + (size_t)f * 2 * KF_LANES));
    return _mm_unpacklo_epi16(w, _mm_setzero_si128());
}

static inline vq q_lanes8(qkeys k, uint32_t f)
{
    const __m128i zero = _mm_setzero_si128();
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(q_low(k, f)), zero), zero);
}

/* The high nibbles: lane l's moved to the top of its uint16 (times
 * 2^(12 - 4l)), then down to bits 8 to 11. */
static inline vq q_lanes12(qkeys k, uint32_t f)
{
    const __m128i zero = _mm_setzero_si128();
    const __m128i low = _mm_unpacklo_epi8(_mm_cvtsi32_si128(q_low(k, f)), zero);
    __m128i high = _mm_mullo_epi16(_mm_set1_epi16((short)q_high(k, f)),
                                   _mm_setr_epi16(4096, 256, 16, 1, 0, 0, 0, 0));
    high = _mm_and_si128(_mm_srli_epi16(high, 4), _mm_set1_epi16(0x0F00));
    return _mm_unpacklo_epi16(_mm_or_si128(low, high), zero);
}

/* Fields 0 to 2 at once: the key's sixteen bytes from its low bytes
 * (twelve, then what follows them in the row, or the layout's slack after
 * the last row, kf_layout.c) widened to two vectors of uint16, and for 12
 * bits its three uint16 of nibbles (with the two bytes before them, the
 * stripe's low bytes) in one load, each field's given to its four lanes
 * by a shuffle and moved to bits 8 to 11 as q_lanes12 moves them. */
#define SET_Q_THREE
static inline void q_low3(qkeys k, __m128i *w01, __m128i *w2)
{
    const __m128i low = _mm_loadu_si128((const __m128i *)(const void *)k.q);
    *w01 = _mm_unpacklo_epi8(low, _mm_setzero_si128());
    *w2 = _mm_unpackhi_epi8(low, _mm_setzero_si128());
}

static inline void q_lanes8_3(qkeys k, vq q[3])
{
    const __m128i zero = _mm_setzero_si128();
    __m128i w01, w2;
    q_low3(k, &w01, &w2);
    q[0] = _mm_unpacklo_epi16(w01, zero);
    q[1] = _mm_unpackhi_epi16(w01, zero);
    q[2] = _mm_unpacklo_epi16(w2, zero);
}

static inline void q_lanes12_3(qkeys k, vq q[3])
{
    const __m128i zero = _mm_setzero_si128(), nibble = _mm_set1_epi16(0x0F00),
                  up = _mm_setr_epi16(4096, 256, 16, 1, 4096, 256, 16, 1);
    __m128i w01, w2;
    q_low3(k, &w01, &w2);
    /* words: the two bytes before, then fields 0, 1 and 2's nibbles */
    const __m128i h = _mm_loadl_epi64((const __m128i *)(const void *)(k.h - 2));
    __m128i h01 = _mm_shufflehi_epi16(_mm_shufflelo_epi16(_mm_unpacklo_epi64(h, h), 0x55), 0xAA);
    h01 = _mm_and_si128(_mm_srli_epi16(_mm_mullo_epi16(h01, up), 4), nibble);
    __m128i h2 = _mm_shufflelo_epi16(h, 0xFF);
    h2 = _mm_and_si128(_mm_srli_epi16(_mm_mullo_epi16(h2, up), 4), nibble);
    w01 = _mm_or_si128(w01, h01);
    q[0] = _mm_unpacklo_epi16(w01, zero);
    q[1] = _mm_unpackhi_epi16(w01, zero);
    q[2] = _mm_unpacklo_epi16(_mm_or_si128(w2, h2), zero);
}

static inline vf q_float(vq q)
{
    return _mm_cvtepi32_ps(q);
}

/* q's bit 0 as a float's sign (KF_QSLERP_SIGN); *rest: the q above it. */
static inline vf q_sign(vq q, vq *rest)
{
    *rest = _mm_srli_epi32(q, 1);
    return _mm_castsi128_ps(_mm_slli_epi32(q, 31));
}

static inline vf v_or(vf a, vf b)
{
    return _mm_or_ps(a, b);
}

/* kf_unit_rest of two lanes (x, y, z in the low two floats of each). */
KF_KERNEL __m128 unit_rest2(__m128 x, __m128 y, __m128 z)
{
    const __m128d dx = _mm_cvtps_pd(x), dy = _mm_cvtps_pd(y), dz = _mm_cvtps_pd(z);
    __m128d sum = _mm_mul_pd(dx, dx);
    sum = _mm_add_pd(sum, _mm_mul_pd(dy, dy));
    sum = _mm_add_pd(sum, _mm_mul_pd(dz, dz));
    return _mm_cvtpd_ps(_mm_sqrt_pd(_mm_sub_pd(_mm_set1_pd(1.0), sum)));
}

/* kf_unit_rest of every lane. */
KF_KERNEL vf v_unit_rest(vf x, vf y, vf z)
{
    return _mm_movelh_ps(unit_rest2(x, y, z),
                         unit_rest2(_mm_movehl_ps(x, x), _mm_movehl_ps(y, y), _mm_movehl_ps(z, z)));
}

/* Component m of every lane in r[m] -> each lane's output: a 4x4
 * transpose. */
KF_KERNEL void store4(vf r0, vf r1, vf r2, vf r3, job jb)
{
    /* The pointers first: a store through one could change them for all
     * the compiler knows. */
    float *o0 = kf_lanes_out(jb, 0), *o1 = kf_lanes_out(jb, 1), *o2 = kf_lanes_out(jb, 2),
          *o3 = kf_lanes_out(jb, 3);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps(o0, r0);
    _mm_storeu_ps(o1, r1);
    _mm_storeu_ps(o2, r2);
    _mm_storeu_ps(o3, r3);
}

/* Three components: eight bytes and four per lane. */
KF_KERNEL void store3(vf r0, vf r1, vf r2, job jb)
{
    const vf xy01 = _mm_unpacklo_ps(r0, r1), xy23 = _mm_unpackhi_ps(r0, r1);
    const vf z01 = _mm_unpacklo_ps(r2, r2), z23 = _mm_unpackhi_ps(r2, r2);
    float *o0 = kf_lanes_out(jb, 0), *o1 = kf_lanes_out(jb, 1), *o2 = kf_lanes_out(jb, 2),
          *o3 = kf_lanes_out(jb, 3);
    _mm_storel_pi((__m64 *)(void *)o0, xy01);
    _mm_store_ss(o0 + 2, z01);
    _mm_storeh_pi((__m64 *)(void *)o1, xy01);
    _mm_store_ss(o1 + 2, _mm_movehl_ps(z01, z01));
    _mm_storel_pi((__m64 *)(void *)o2, xy23);
    _mm_store_ss(o2 + 2, z23);
    _mm_storeh_pi((__m64 *)(void *)o3, xy23);
    _mm_store_ss(o3 + 2, _mm_movehl_ps(z23, z23));
}

/* Any other count of components, component m. */
static void store1(vf r, uint32_t m, job jb)
{
    float lane[KF_LANES];
    _mm_storeu_ps(lane, r);
    for (uint32_t l = 0; l < KF_LANES; l++)
        kf_lanes_out(jb, l)[m] = lane[l];
}

#define SET_NAME   "sse2"
#define SET_GETTER kf_kernels_sse2
#include "kf_kernels_simd.h"

#else

const kf_kernels *kf_kernels_sse2(void)
{
    return NULL;
}

#endif
