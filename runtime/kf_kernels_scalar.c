/* SPDX-License-Identifier: MIT */
/*
 * kf_kernels_scalar.c - the block kernels (kf_layout.h) one lane at a time:
 * the arithmetic of kf_sample.h, in the same order, so that every kernel
 * set gives these results bit for bit. The path for machines without a
 * vector kernel set, and the reference the vector sets are tested against.
 */
#include "kf_layout.h"
#include "kf_sample.h"

/* Lane l of a quantized block whose q are `bits` wide (b->qbits, a
 * constant in the kernels of one width), as kf_lane_field reads it. */
KF_KERNEL kf_qlane qlane_w(const kf_block *b, uint32_t l, uint32_t bits)
{
    const void *q = bits == 16 ? (const void *)((const uint16_t *)(const void *)b->data + l)
                               : (const void *)((const uint8_t *)(const void *)b->data + l);
    const kf_qlane a = {
        q,
        (const uint16_t *)(const void *)((const uint8_t *)(const void *)b->data + b->high),
        b->dequant + l,
        b->stride,
        bits,
        l,
        b->interpolation == KFB_INTERP_SLERP || b->interpolation == KFB_INTERP_SQUAD};
    return a;
}

/* Lane l of field f at key k of a quantized block (kf_lane_field). */
static inline float qat(const kf_block *b, uint32_t k, uint32_t f, uint32_t l)
{
    const kf_qlane a = qlane_w(b, l, b->qbits);
    return kf_lane_field(&a, k, f);
}

/* Lane l of field f at key k of a float block. */
static inline float at(const kf_block *b, uint32_t k, uint32_t f, uint32_t l)
{
    return b->data[(size_t)k * b->stride + (size_t)f * KF_LANES + l];
}

/* The same of a quantized block of each width W: dequantized (any_at##W;
 * a quaternion's w is no field: quat_at##W); and key k of lane l of a
 * float block (quat_at) or of a quantized SLERP or SQUAD block of each
 * width (quat_at##W: x, y and z read once, w rebuilt, kf_lane_quat) as a
 * quaternion. */
#define Q_READERS(W)                                                                               \
    static inline float any_at##W(const kf_block *b, uint32_t k, uint32_t f, uint32_t l)           \
    {                                                                                              \
        const kf_qlane a = qlane_w(b, l, W);                                                       \
        return kf_lane_field(&a, k, f);                                                            \
    }                                                                                              \
    static inline void quat_at##W(const kf_block *b, uint32_t k, uint32_t l, float q[4])           \
    {                                                                                              \
        const kf_qlane a = qlane_w(b, l, W);                                                       \
        kf_lane_quat(&a, k, 0, q);                                                                 \
    }
Q_READERS(16)
Q_READERS(12)
Q_READERS(8)

static inline void quat_at(const kf_block *b, uint32_t k, uint32_t l, float q[4])
{
    for (uint32_t m = 0; m < 4; m++)
        q[m] = at(b, k, m, l);
}

/* How a kernel reads a field, and a quaternion key. The kernels that
 * quantized blocks play are written once, with the readers parameters
 * (inlined: constants in each copy). */
typedef float (*field_reader)(const kf_block *b, uint32_t k, uint32_t f, uint32_t l);
typedef void (*quat_reader)(const kf_block *b, uint32_t k, uint32_t l, float q[4]);

void kf_block_slerp_general(const kf_block *b, uint32_t l, uint32_t i, uint32_t j, float u,
                            float *out)
{
    const struct kf_sequence s = kf_block_lane(b, l);
    float qa[4] = {0}, qb[4] = {0};
    kf_slerp_general(kf_key_floats(&s, s.values, i, qa), kf_key_floats(&s, s.values, j, qb), u,
                     out);
}

KF_KERNEL unsigned key_with(field_reader get, const kf_block *b, uint32_t i,
                            float *const out[KF_LANES])
{
    for (uint32_t l = 0; l < KF_LANES; l++)
        for (uint32_t m = 0; m < b->components; m++)
            out[l][m] = get(b, i, m, l);
    return 0xf;
}

KF_KERNEL unsigned linear_with(field_reader get, const kf_block *b, uint32_t i, uint32_t j, float u,
                               float *const out[KF_LANES])
{
    for (uint32_t l = 0; l < KF_LANES; l++)
        for (uint32_t m = 0; m < b->components; m++) {
            const float a = get(b, i, m, l);
            out[l][m] = a + u * (get(b, j, m, l) - a);
        }
    return 0xf;
}

KF_KERNEL unsigned quat_key_with(quat_reader get, const kf_block *b, uint32_t i,
                                 float *const out[KF_LANES])
{
    for (uint32_t l = 0; l < KF_LANES; l++)
        get(b, i, l, out[l]);
    return 0xf;
}

/* Returns the lanes that may not be unit (kf_slerp_played's linear and
 * general ones). */
KF_KERNEL unsigned slerp_with(quat_reader get, const kf_block *b, uint32_t i, uint32_t j, float u,
                              float *const out[KF_LANES])
{
    unsigned nonunit = 0;
    for (uint32_t l = 0; l < KF_LANES; l++) {
        float qa[4], qb[4];
        get(b, i, l, qa);
        get(b, j, l, qb);
        const int how = kf_slerp_played(qa, qb, u, out[l]);
        if (how != KF_SLERP_ARC)
            nonunit |= 1u << l;
        if (how == KF_SLERP_GENERAL)
            kf_block_slerp_general(b, l, i, j, u, out[l]);
    }
    return nonunit;
}

/* A kernel of the set with reader `get` (P: its name's prefix). */
#define KERNEL_WITH(P, name, GET, call)                                                            \
    static unsigned P##name##_one(const kf_block *b, uint32_t i, uint32_t j, float u,              \
                                  double exact_u, float *const out[KF_LANES])                      \
    {                                                                                              \
        (void)i, (void)j, (void)u, (void)exact_u;                                                  \
        const GET##_type get = GET;                                                                \
        return call;                                                                               \
    }
typedef field_reader at_type, any_at16_type, any_at12_type, any_at8_type;
typedef quat_reader quat_at_type, quat_at16_type, quat_at12_type, quat_at8_type;
/* Each kernel of the set and its quantized twins, one per width. */
#define KERNELS(name, FLOATS, QUANTIZED, call)                                                     \
    KERNEL_WITH(, name, FLOATS, call)                                                              \
    KERNEL_WITH(q, name, QUANTIZED##16, call)                                                      \
    KERNEL_WITH(q12, name, QUANTIZED##12, call)                                                    \
    KERNEL_WITH(q8, name, QUANTIZED##8, call)
KERNELS(key, at, any_at, key_with(get, b, i, out))
/* Quantized quaternion holds (float ones are key_with's): each key read
 * whole. */
KERNEL_WITH(q, quat_key, quat_at16, quat_key_with(get, b, i, out))
KERNEL_WITH(q12, quat_key, quat_at12, quat_key_with(get, b, i, out))
KERNEL_WITH(q8, quat_key, quat_at8, quat_key_with(get, b, i, out))
KERNELS(linear, at, any_at, linear_with(get, b, i, j, u, out))
KERNELS(slerp, quat_at, quat_at, slerp_with(get, b, i, j, u, out))

static unsigned linear_wide_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                                float *const out[KF_LANES])
{
    (void)exact_u;
    for (uint32_t l = 0; l < KF_LANES; l++)
        for (uint32_t m = 0; m < b->components; m++)
            out[l][m] = kf_lerp1(at(b, i, m, l), at(b, j, m, l), u);
    return 0xf;
}

static unsigned spline_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                           float *const out[KF_LANES])
{
    (void)exact_u;
    const uint32_t c = b->components;
    float h[4];
    kf_hermite_basis_f(u, h);
    for (uint32_t l = 0; l < KF_LANES; l++)
        for (uint32_t m = 0; m < c; m++)
            out[l][m] = h[0] * at(b, i, m, l) + h[1] * at(b, j, m, l) + h[2] * at(b, i, c + m, l) +
                        h[3] * at(b, j, 2 * c + m, l);
    return 0xf;
}

static unsigned spline_wide_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                                float *const out[KF_LANES])
{
    (void)exact_u;
    const uint32_t c = b->components;
    float h[4];
    kf_hermite_basis_f(u, h);
    for (uint32_t l = 0; l < KF_LANES; l++)
        for (uint32_t m = 0; m < c; m++)
            out[l][m] = kf_hermite1(h, at(b, i, m, l), at(b, j, m, l), at(b, i, c + m, l),
                                    at(b, j, 2 * c + m, l));
    return 0xf;
}

/* A quantized HERMITE block (kf_layout.h, kf_qhermite_key): spline_one's sum,
 * each key tangent times the segment's length, as the reader scaled it;
 * the incoming key tangents at field `in` (2c, or c: kf_block_shared). */
static unsigned qhermite_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                             float *const out[KF_LANES])
{
    (void)exact_u;
    const uint32_t c = b->components, in = b->fields - c;
    const float length = b->data[(size_t)i * b->stride + kf_qhermite_segment(b->fields, b->qbits)];
    float h[4];
    kf_hermite_basis_f(u, h);
    for (uint32_t l = 0; l < KF_LANES; l++)
        for (uint32_t m = 0; m < c; m++)
            out[l][m] = h[0] * qat(b, i, m, l) + h[1] * qat(b, j, m, l) +
                        h[2] * (qat(b, i, c + m, l) * length) +
                        h[3] * (qat(b, j, in + m, l) * length);
    return 0xf;
}

static unsigned squad_one(const kf_block *b, uint32_t i, uint32_t j, float u, double exact_u,
                          float *const out[KF_LANES])
{
    for (uint32_t l = 0; l < KF_LANES; l++) {
        const struct kf_sequence s = kf_block_lane(b, l);
        kf_squad(&s, i, j, exact_u, out[l]);
        (void)u;
    }
    return 0xf;
}

/* The loop over a run of blocks; `normalize` as kf_block_kernel: the lanes
 * a kernel says may not be unit. */
#define JOBS(name)                                                                                 \
    static void name(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,        \
                     double exact_u, int normalize)                                                \
    {                                                                                              \
        for (const kf_lanes *end = jobs + count; jobs < end; jobs++) {                             \
            float *out[KF_LANES];                                                                  \
            for (uint32_t l = 0; l < KF_LANES; l++)                                                \
                out[l] = kf_lanes_out(jobs, l);                                                    \
            const unsigned nonunit = name##_one(jobs->block, i, j, u, exact_u, out);               \
            for (uint32_t l = 0; normalize && l < KF_LANES; l++)                                   \
                if (nonunit >> l & 1)                                                              \
                    kf_normalize_single(out[l]);                                                   \
        }                                                                                          \
    }
JOBS(key)
JOBS(linear)
JOBS(linear_wide)
JOBS(spline)
JOBS(spline_wide)
JOBS(slerp)
JOBS(squad)
JOBS(qkey)
JOBS(qlinear)
JOBS(qslerp)
JOBS(q12key)
JOBS(q12linear)
JOBS(q12slerp)
JOBS(q8key)
JOBS(q8linear)
JOBS(q8slerp)
JOBS(qhermite)
JOBS(qquat_key)
JOBS(q12quat_key)
JOBS(q8quat_key)

static const kf_kernels scalar = {
    "scalar",
    {key, key, key},
    {linear, linear, linear},
    {spline, spline, spline},
    slerp,
    squad,
    {{qkey, qkey, qkey}, {q12key, q12key, q12key}, {q8key, q8key, q8key}},
    {{qlinear, qlinear, qlinear},
     {q12linear, q12linear, q12linear},
     {q8linear, q8linear, q8linear}},
    {qslerp, q12slerp, q8slerp},
    {qquat_key, q12quat_key, q8quat_key},
    /* (its reader knows every width) */
    {{qhermite, qhermite, qhermite},
     {qhermite, qhermite, qhermite},
     {qhermite, qhermite, qhermite}},
    /* (a lane's sequence view reads a quantized one: kf_key_floats) */
    {squad, squad, squad},
    /* (w rebuilt in double: the same bits as in float, kf_block.float_w) */
    {qslerp, q12slerp, q8slerp},
    {qquat_key, q12quat_key, q8quat_key},
    {squad, squad, squad}};

void kf_block_linear_wide(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                          double exact_u, int normalize)
{
    linear_wide(jobs, count, i, j, u, exact_u, normalize);
}

void kf_block_spline_wide(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                          double exact_u, int normalize)
{
    spline_wide(jobs, count, i, j, u, exact_u, normalize);
}

const kf_kernels *kf_kernels_scalar(void)
{
    return &scalar;
}
