/* SPDX-License-Identifier: MIT */
/*
 * kf_kernels_neon.c - the block kernels (kf_layout.h) with NEON, one block,
 * four lanes, per instruction. NEON (Advanced SIMD) is part of AArch64
 * itself, so no build flag and no CPU check is needed. The kernels are
 * kf_kernels_simd.h's; this file gives them NEON's registers (never vfma:
 * multiplies and adds stay apart, as the build's -ffp-contract=off keeps
 * them). Building with KF_NO_SIMD (scons SIMD=0) leaves this set out.
 */
#include "kf_layout.h"

#if defined(__aarch64__) && !defined(KF_NO_SIMD)
#include <arm_neon.h>

#include "kf_sample.h"

typedef float32x4_t vf;
typedef uint32x4_t vm;

static inline vf v_set1(float x)
{
    return vdupq_n_f32(x);
}
static inline vf v_add(vf a, vf b)
{
    return vaddq_f32(a, b);
}
static inline vf v_sub(vf a, vf b)
{
    return vsubq_f32(a, b);
}
static inline vf v_mul(vf a, vf b)
{
    return vmulq_f32(a, b);
}
static inline vf v_div(vf a, vf b)
{
    return vdivq_f32(a, b);
}
static inline vf v_sqrt(vf a)
{
    return vsqrtq_f32(a);
}
static inline vf v_abs(vf a)
{
    return vabsq_f32(a);
}
static inline vm v_lt(vf a, vf b)
{
    return vcltq_f32(a, b);
}
static inline vm v_le(vf a, vf b)
{
    return vcleq_f32(a, b);
}
static inline vm v_gt(vf a, vf b)
{
    return vcgtq_f32(a, b);
}
static inline vm v_ge(vf a, vf b)
{
    return vcgeq_f32(a, b);
}
static inline vm m_or(vm a, vm b)
{
    return vorrq_u32(a, b);
}
static inline vm m_and(vm a, vm b)
{
    return vandq_u32(a, b);
}
static inline vm m_not(vm a)
{
    return vmvnq_u32(a);
}
static inline vf v_select(vm m, vf a, vf b)
{
    return vbslq_f32(m, a, b);
}

static inline unsigned m_bits(vm m)
{
    const uint32x4_t bit = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(m, bit));
}

/* A job is one block (job, keys, qkeys and the rest); the loads are
 * this set's. */
#include "kf_kernels_one_block.h"

/* Field f of the four lanes' key (16-aligned). */
static inline vf v_load(keys p, uint32_t f)
{
    return vld1q_f32(p + (size_t)f * KF_LANES);
}

/* Field f's four q of a quantized block's key (16, 12 or 8 bits, a
 * constant in each kernel), widened. */
typedef uint32x4_t vq;
static inline vq q_lanes(qkeys k, uint32_t f)
{
    return vmovl_u16(vld1_u16((const uint16_t *)(const void *)k.q + (size_t)f * KF_LANES));
}

static inline vq q_lanes8(qkeys k, uint32_t f)
{
    const uint8x8_t b = vreinterpret_u8_s32(vdup_n_s32(q_low(k, f)));
    return vmovl_u16(vget_low_u16(vmovl_u8(b)));
}

/* The high nibbles: lane l's shifted down by 4l, then up to bits 8 to 11. */
static inline vq q_lanes12(qkeys k, uint32_t f)
{
    const int32x4_t down = {0, -4, -8, -12};
    const uint32x4_t high = vandq_u32(vshlq_u32(vdupq_n_u32(q_high(k, f)), down), vdupq_n_u32(15));
    return vorrq_u32(q_lanes8(k, f), vshlq_n_u32(high, 8));
}

static inline vf q_float(vq q)
{
    return vcvtq_f32_u32(q);
}

/* q's bit 0 as a float's sign (KF_QSLERP_SIGN); *rest: the q above it. */
static inline vf q_sign(vq q, vq *rest)
{
    *rest = vshrq_n_u32(q, 1);
    return vreinterpretq_f32_u32(vshlq_n_u32(q, 31));
}

static inline vf v_or(vf a, vf b)
{
    return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}

/* kf_unit_rest of two lanes. */
KF_KERNEL float32x2_t unit_rest2(float64x2_t x, float64x2_t y, float64x2_t z)
{
    float64x2_t sum = vmulq_f64(x, x);
    sum = vaddq_f64(sum, vmulq_f64(y, y));
    sum = vaddq_f64(sum, vmulq_f64(z, z));
    return vcvt_f32_f64(vsqrtq_f64(vsubq_f64(vdupq_n_f64(1.0), sum)));
}

/* kf_unit_rest of every lane. */
KF_KERNEL vf v_unit_rest(vf x, vf y, vf z)
{
    const float32x2_t lo = unit_rest2(vcvt_f64_f32(vget_low_f32(x)), vcvt_f64_f32(vget_low_f32(y)),
                                      vcvt_f64_f32(vget_low_f32(z)));
    const float32x2_t hi =
        unit_rest2(vcvt_high_f64_f32(x), vcvt_high_f64_f32(y), vcvt_high_f64_f32(z));
    return vcombine_f32(lo, hi);
}

/* Component m of every lane in r[m] -> each lane's output: a 4x4
 * transpose. */
KF_KERNEL void store4(vf r0, vf r1, vf r2, vf r3, job jb)
{
    /* The pointers first: a store through one could change them for all
     * the compiler knows. */
    float *o0 = kf_lanes_out(jb, 0), *o1 = kf_lanes_out(jb, 1), *o2 = kf_lanes_out(jb, 2),
          *o3 = kf_lanes_out(jb, 3);
    const vf xy01 = vzip1q_f32(r0, r1), xy23 = vzip2q_f32(r0, r1);
    const vf zw01 = vzip1q_f32(r2, r3), zw23 = vzip2q_f32(r2, r3);
    vst1q_f32(o0, vcombine_f32(vget_low_f32(xy01), vget_low_f32(zw01)));
    vst1q_f32(o1, vcombine_f32(vget_high_f32(xy01), vget_high_f32(zw01)));
    vst1q_f32(o2, vcombine_f32(vget_low_f32(xy23), vget_low_f32(zw23)));
    vst1q_f32(o3, vcombine_f32(vget_high_f32(xy23), vget_high_f32(zw23)));
}

/* Three components: eight bytes and four per lane. */
KF_KERNEL void store3(vf r0, vf r1, vf r2, job jb)
{
    float *o0 = kf_lanes_out(jb, 0), *o1 = kf_lanes_out(jb, 1), *o2 = kf_lanes_out(jb, 2),
          *o3 = kf_lanes_out(jb, 3);
    const vf xy01 = vzip1q_f32(r0, r1), xy23 = vzip2q_f32(r0, r1);
    vst1_f32(o0, vget_low_f32(xy01));
    vst1q_lane_f32(o0 + 2, r2, 0);
    vst1_f32(o1, vget_high_f32(xy01));
    vst1q_lane_f32(o1 + 2, r2, 1);
    vst1_f32(o2, vget_low_f32(xy23));
    vst1q_lane_f32(o2 + 2, r2, 2);
    vst1_f32(o3, vget_high_f32(xy23));
    vst1q_lane_f32(o3 + 2, r2, 3);
}

/* Any other count of components, component m. */
static void store1(vf r, uint32_t m, job jb)
{
    float lane[KF_LANES];
    vst1q_f32(lane, r);
    for (uint32_t l = 0; l < KF_LANES; l++)
        kf_lanes_out(jb, l)[m] = lane[l];
}

#define SET_NAME   "neon"
#define SET_GETTER kf_kernels_neon
#include "kf_kernels_simd.h"

#else

const kf_kernels *kf_kernels_neon(void)
{
    return NULL;
}

#endif
