/* SPDX-License-Identifier: MIT */
/*
 * kf_kernels_simd.h - the vector block kernels (kf_layout.h), written once
 * for every instruction set. Each vector file (kf_kernels_sse2.c,
 * kf_kernels_neon.c, kf_kernels_avx2.c) defines the few operations below
 * for its registers and then includes this file, which gives it the whole
 * kernel set. Every operation is the scalar kernels' (kf_sample.h) in the
 * same order, and nothing here fuses a multiply with an add, so every set
 * gives the scalar results bit for bit (tests/test_player_kernels.c).
 *
 * What the including file defines first:
 *   vf, vm          a vector of floats and a comparison's result
 *   v_set1 v_add v_sub v_mul v_div v_sqrt v_abs
 *   v_lt v_le v_gt v_ge (-> vm, false for NaN), m_or m_and m_not
 *   v_select(m, a, b)   a where m is set, else b
 *   m_bits(m)           lane l's result in bit l
 *   job, keys           (kf_kernels_one_block.h for SSE2 and NEON)
 *                       what one kernel call plays (one block of four
 *                       lanes, or two blocks), and where one of its keys is
 *   JOB_STEP, job_at(jobs, count, k)   the job at jobs[k], JOB_STEP apart
 *   job_key(jb, at) (a key: `at` floats into each block of the job; the
 *                       JOBS loop gives key i and j of the run's stride),
 *   v_load(keys, field)
 *   qkeys, job_qkey(jb, at)   the same for a quantized block
 *                       (kf_block.dequant), and for its lanes of q:
 *   vq, q_lanes(qkeys, field)   a field's lanes, widened, of 16 bits;
 *   q_lanes12, q_lanes8 the same of 12 and 8 bits (kf_block.qbits)
 *   q_lanes12_3, q_lanes8_3(qkeys, vq[3])   fields 0 to 2 at once, where
 *                       the set does better than field by field
 *                       (SET_Q_THREE; else defined here, as q_lanes_3 is)
 *   q_float(vq)         them as floats (qkeys.d: the bases and scales, two
 *                       fields per field, read with v_load)
 *   q_field_at(qkeys, f, bytes)   the key from its field f on, as a key
 *                       (a quantized SQUAD key's a and b)
 *   q_sign(vq, &rest)   bit 0 of each as a float's sign, and the rest
 *   v_unit_rest(x, y, z)   kf_unit_rest of every lane (in double), v_or
 *   job_block(jb) (the first block: shape, interpolation), job_lanes(jb)
 *   (lanes to finish), lane_block(jb, l), lane_out(jb, l)
 *   store4, store3 (components in registers -> each lane's output),
 *   store1 (component m)
 *   SET_NAME, SET_GETTER  the set's name and its kf_kernels_* function
 */

#include "kf_sample.h"

/* ---- quantized keys ----------------------------------------------------- */

/* Four floats at k.d (or each of a job's blocks' k.d), f fields of four
 * on: a set reads a pair of blocks' bases or scales at once where it can
 * (SET_DQ_LOAD, AVX2). */
#ifndef SET_DQ_LOAD
KF_KERNEL vf dq_load(qkeys k, uint32_t f)
{
    return v_load(k.d, f);
}
#endif

/* q of field f dequantized (kf_dequantize): its bases and scales are at
 * k.d, KF_DEQUANT_FIELD floats a field. */
KF_KERNEL vf v_dequant(qkeys k, uint32_t f, vq q)
{
    return v_add(dq_load(k, 4 * f), v_mul(q_float(q), dq_load(k, 4 * f + 2)));
}

/* Fields 0 to 2 field by field: always at 16 bits (a uint16 load a field
 * is the best a set can do), narrower where the set has nothing better. */
#define Q_THREE(W)                                                                                 \
    static inline void q_lanes##W##_3(qkeys k, vq q[3])                                            \
    {                                                                                              \
        q[0] = q_lanes##W(k, 0);                                                                   \
        q[1] = q_lanes##W(k, 1);                                                                   \
        q[2] = q_lanes##W(k, 2);                                                                   \
    }
Q_THREE()
#ifndef SET_Q_THREE
Q_THREE(12)
Q_THREE(8)
#endif

/* Fields 0 to 2 of a float block's key. */
KF_KERNEL void v_load3(keys k, vf v[3])
{
    v[0] = v_load(k, 0);
    v[1] = v_load(k, 1);
    v[2] = v_load(k, 2);
}

/* kf_unit_rest of every lane in float, which gives its bits where the
 * block's keys are whole numbers of 2^-12 (kf_block.float_w): every
 * operation before the square root is exact there. */
KF_KERNEL vf v_unit_rest_fw(vf x, vf y, vf z)
{
    vf sum = v_mul(x, x);
    sum = v_add(sum, v_mul(y, y));
    sum = v_add(sum, v_mul(z, z));
    return v_sqrt(v_sub(v_set1(1.0f), sum));
}

/* Per width W of q (16: none, 12, 8): field f of a quantized block's key,
 * dequantized (v_loadq##W), and fields 0 to 2 (v_loadq##W##_3). */
#define Q_LOADS(W)                                                                                 \
    KF_KERNEL vf v_loadq##W(qkeys k, uint32_t f)                                                   \
    {                                                                                              \
        return v_dequant(k, f, q_lanes##W(k, f));                                                  \
    }                                                                                              \
    KF_KERNEL void v_loadq##W##_3(qkeys k, vf v[3])                                                \
    {                                                                                              \
        vq q[3];                                                                                   \
        q_lanes##W##_3(k, q);                                                                      \
        v[0] = v_dequant(k, 0, q[0]);                                                              \
        v[1] = v_dequant(k, 1, q[1]);                                                              \
        v[2] = v_dequant(k, 2, q[2]);                                                              \
    }
Q_LOADS()
Q_LOADS(12)
Q_LOADS(8)

/* A quantized SLERP block's key (kf_layout.h, KF_QSLERP_*), per width W
 * of q: x without w's sign, y, z, and w rebuilt from them as the reader
 * rebuilt it, by REST (v_unit_rest; v_unit_rest_fw where the block is
 * float_w, F _fw). */
#define Q_SLERP_LOAD(W, F, REST)                                                                   \
    KF_KERNEL void v_loadq_slerp##W##F(qkeys k, vf q[4])                                           \
    {                                                                                              \
        vq three[3], x;                                                                            \
        q_lanes##W##_3(k, three);                                                                  \
        const vf sign = q_sign(three[0], &x);                                                      \
        q[0] = v_dequant(k, 0, x);                                                                 \
        q[1] = v_dequant(k, 1, three[1]);                                                          \
        q[2] = v_dequant(k, 2, three[2]);                                                          \
        q[3] = v_or(REST(q[0], q[1], q[2]), sign);                                                 \
    }
Q_SLERP_LOAD(, , v_unit_rest)
Q_SLERP_LOAD(12, , v_unit_rest)
Q_SLERP_LOAD(8, , v_unit_rest)
Q_SLERP_LOAD(, _fw, v_unit_rest_fw)
Q_SLERP_LOAD(12, _fw, v_unit_rest_fw)
Q_SLERP_LOAD(8, _fw, v_unit_rest_fw)

/* ---- arithmetic shared by the kernels ---------------------------------- */

/* kf_sinc, a lane at a time. */
KF_KERNEL vf v_sinc(vf z)
{
    vf t = v_mul(z, v_set1(2.60510774e-06f));
    t = v_mul(z, v_add(v_set1(-0.000198090172f), t));
    t = v_mul(z, v_add(v_set1(0.00833304971f), t));
    t = v_mul(z, v_add(v_set1(-0.166666582f), t));
    return v_add(v_set1(1.0f), t);
}

/* kf_acos_over_sqrt, a lane at a time. */
KF_KERNEL vf v_acos_over_sqrt(vf c)
{
    vf t = v_mul(c, v_set1(-0.0012624911f));
    t = v_mul(c, v_add(v_set1(0.0066700901f), t));
    t = v_mul(c, v_add(v_set1(-0.0170881256f), t));
    t = v_mul(c, v_add(v_set1(0.0308918810f), t));
    t = v_mul(c, v_add(v_set1(-0.0501743046f), t));
    t = v_mul(c, v_add(v_set1(0.0889789874f), t));
    t = v_mul(c, v_add(v_set1(-0.2145988016f), t));
    return v_add(v_set1(1.5707963050f), t);
}

/* kf_arc_weights, every lane's arc at one u. */
KF_KERNEL void v_arc_weights(vf theta, vf r, vf vu, vf w[2])
{
    const vf vv = v_sub(v_set1(1.0f), vu);
    const vf x0 = v_mul(vv, theta), x1 = v_mul(vu, theta);
    w[0] = v_mul(v_mul(vv, r), v_sinc(v_mul(x0, x0)));
    w[1] = v_mul(v_mul(vu, r), v_sinc(v_mul(x1, x1)));
}

/* wa qa + wb qb. */
KF_KERNEL vf v_combine(vf wa, vf qa, vf wb, vf qb)
{
    return v_add(v_mul(wa, qa), v_mul(wb, qb));
}

/* Every lane's dot product of quaternions a and b (components in a[m]). */
KF_KERNEL vf v_dot4(const vf a[4], const vf b[4])
{
    vf c = v_mul(a[0], b[0]);
    c = v_add(c, v_mul(a[1], b[1]));
    c = v_add(c, v_mul(a[2], b[2]));
    return v_add(c, v_mul(a[3], b[3]));
}

/* kf_arc_of for every lane whose dot product is c: theta in arc[0], theta /
 * sin theta in arc[1], {0, 1} where the keys are nearly equal (the
 * general lanes' are left to the caller). */
KF_KERNEL void v_arc_of(vf c, vf arc[2])
{
    const vf one = v_set1(1.0f);
    const vm near = v_ge(c, v_set1(1.0f - (float)KF_QUAT_EPSILON));
    const vf p = v_acos_over_sqrt(c);
    arc[0] = v_select(near, v_set1(0.0f), v_mul(v_sqrt(v_sub(one, c)), p));
    arc[1] = v_select(near, one, v_div(p, v_sqrt(v_add(one, c))));
}

/* kf_slerp_played's weights at u for every lane whose quaternions' dot
 * product is c (the general lanes' are left to the caller). */
KF_KERNEL void v_played_weights(vf c, vf vu, vf w[2])
{
    vf arc[2];
    v_arc_of(c, arc);
    v_arc_weights(arc[0], arc[1], vu, w);
}

/* kf_normalize_single on every lane's quaternion, component m in r[m]. */
KF_KERNEL void v_normalize(vf r[4])
{
    vf n2 = v_mul(r[0], r[0]);
    n2 = v_add(n2, v_mul(r[1], r[1]));
    n2 = v_add(n2, v_mul(r[2], r[2]));
    n2 = v_add(n2, v_mul(r[3], r[3]));
    const vf one = v_set1(1.0f), zero = v_set1(0.0f);
    const vm near = v_lt(v_abs(v_sub(n2, one)), v_set1(1.0f / 4096));
    const vm ok = m_and(v_gt(n2, v_set1(1e-10f)), v_le(n2, v_set1(FLT_MAX)));
    const vf inv =
        v_select(near, v_sub(v_set1(1.5f), v_mul(v_set1(0.5f), n2)), v_div(one, v_sqrt(n2)));
    const vm identity = m_not(m_or(near, ok));
    r[0] = v_select(identity, zero, v_mul(r[0], inv));
    r[1] = v_select(identity, zero, v_mul(r[1], inv));
    r[2] = v_select(identity, zero, v_mul(r[2], inv));
    r[3] = v_select(identity, one, v_mul(r[3], inv));
}

typedef struct v_basis {
    vf h0, h1, h2, h3;
} v_basis;

KF_KERNEL v_basis v_hermite_basis(float u)
{
    float h[4];
    kf_hermite_basis_f(u, h);
    return (v_basis){v_set1(h[0]), v_set1(h[1]), v_set1(h[2]), v_set1(h[3])};
}

/* h0 a + h1 b + h2 ta + h3 tb, component m of c. */
KF_KERNEL vf v_hermite(keys a, keys e, const v_basis *h, uint32_t c, uint32_t m)
{
    vf x = v_mul(h->h0, v_load(a, m));
    x = v_add(x, v_mul(h->h1, v_load(e, m)));
    x = v_add(x, v_mul(h->h2, v_load(a, c + m)));
    return v_add(x, v_mul(h->h3, v_load(e, 2 * c + m)));
}

/* ---- the kernels -------------------------------------------------------- */

/* Each returns the lanes whose result may not be unit (bit l: lane l), for
 * the JOBS loop to normalize when asked. `oi`, `oj`: where keys i and j
 * are in each block of the job (the run's stride times the key). */
#define ALL_LANES 0xffu

/* The kernels that read only the keys' values, once for each kind of
 * block: floats (keys, job_key, v_load), and quantized (qkeys, job_qkey,
 * v_loadq), whose loads give the floats back to the bit, so that the same
 * arithmetic gives the same results. Four-component quantized blocks
 * (orientations) take the any-width kernels, normalized lane by lane
 * (JOBS). P prefixes the names. */
#define VALUE_KERNELS(P, KEYS, JOB_KEY, LOAD, LOAD3)                                               \
    /* a + u (b - a), component m. */                                                              \
    static inline vf P##v_lerp(KEYS a, KEYS e, vf vu, uint32_t m)                                  \
    {                                                                                              \
        const vf x = LOAD(a, m);                                                                   \
        return v_add(x, v_mul(vu, v_sub(LOAD(e, m), x)));                                          \
    }                                                                                              \
    /* STEP and holds: key i. */                                                                   \
    KF_KERNEL unsigned P##key_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,   \
                                  double exact_u)                                                  \
    {                                                                                              \
        (void)i, (void)j, (void)oj, (void)u, (void)exact_u;                                        \
        const kf_block *b = job_block(jb);                                                         \
        const KEYS a = JOB_KEY(jb, oi);                                                            \
        for (uint32_t m = 0; m < b->components; m++)                                               \
            store1(LOAD(a, m), m, jb);                                                             \
        return ALL_LANES;                                                                          \
    }                                                                                              \
    KF_KERNEL unsigned P##key3_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,  \
                                   double exact_u)                                                 \
    {                                                                                              \
        (void)i, (void)j, (void)oj, (void)u, (void)exact_u;                                        \
        vf x[3];                                                                                   \
        LOAD3(JOB_KEY(jb, oi), x);                                                                 \
        store3(x[0], x[1], x[2], jb);                                                              \
        return ALL_LANES;                                                                          \
    }                                                                                              \
    KF_KERNEL unsigned P##linear_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj,         \
                                     float u, double exact_u)                                      \
    {                                                                                              \
        (void)i, (void)j, (void)exact_u;                                                           \
        const vf vu = v_set1(u);                                                                   \
        const kf_block *b = job_block(jb);                                                         \
        const KEYS a = JOB_KEY(jb, oi), e = JOB_KEY(jb, oj);                                       \
        for (uint32_t m = 0; m < b->components; m++)                                               \
            store1(P##v_lerp(a, e, vu, m), m, jb);                                                 \
        return ALL_LANES;                                                                          \
    }                                                                                              \
    KF_KERNEL unsigned P##linear3_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj,        \
                                      float u, double exact_u)                                     \
    {                                                                                              \
        (void)i, (void)j, (void)exact_u;                                                           \
        const vf vu = v_set1(u);                                                                   \
        vf x[3], y[3];                                                                             \
        LOAD3(JOB_KEY(jb, oi), x);                                                                 \
        LOAD3(JOB_KEY(jb, oj), y);                                                                 \
        store3(v_add(x[0], v_mul(vu, v_sub(y[0], x[0]))),                                          \
               v_add(x[1], v_mul(vu, v_sub(y[1], x[1]))),                                          \
               v_add(x[2], v_mul(vu, v_sub(y[2], x[2]))), jb);                                     \
        return ALL_LANES;                                                                          \
    }

VALUE_KERNELS(, keys, job_key, v_load, v_load3)
VALUE_KERNELS(q, qkeys, job_qkey, v_loadq, v_loadq_3)
VALUE_KERNELS(q12, qkeys, job_qkey, v_loadq12, v_loadq12_3)
VALUE_KERNELS(q8, qkeys, job_qkey, v_loadq8, v_loadq8_3)

KF_KERNEL unsigned linear4_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                               double exact_u)
{
    (void)i, (void)j, (void)exact_u;
    const vf vu = v_set1(u);
    const keys a = job_key(jb, oi), e = job_key(jb, oj);
    store4(v_lerp(a, e, vu, 0), v_lerp(a, e, vu, 1), v_lerp(a, e, vu, 2), v_lerp(a, e, vu, 3), jb);
    return ALL_LANES;
}

KF_KERNEL unsigned spline_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                              double exact_u)
{
    (void)i, (void)j, (void)exact_u;
    const v_basis h = v_hermite_basis(u);
    const kf_block *b = job_block(jb);
    const keys a = job_key(jb, oi), e = job_key(jb, oj);
    for (uint32_t m = 0; m < b->components; m++)
        store1(v_hermite(a, e, &h, b->components, m), m, jb);
    return ALL_LANES;
}

KF_KERNEL unsigned spline3_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                               double exact_u)
{
    (void)i, (void)j, (void)exact_u;
    const v_basis h = v_hermite_basis(u);
    const keys a = job_key(jb, oi), e = job_key(jb, oj);
    store3(v_hermite(a, e, &h, 3, 0), v_hermite(a, e, &h, 3, 1), v_hermite(a, e, &h, 3, 2), jb);
    return ALL_LANES;
}

KF_KERNEL unsigned spline4_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                               double exact_u)
{
    (void)i, (void)j, (void)exact_u;
    const v_basis h = v_hermite_basis(u);
    const keys a = job_key(jb, oi), e = job_key(jb, oj);
    store4(v_hermite(a, e, &h, 4, 0), v_hermite(a, e, &h, 4, 1), v_hermite(a, e, &h, 4, 2),
           v_hermite(a, e, &h, 4, 3), jb);
    return ALL_LANES;
}

/* Every lane's slerp from qa to qb at u, as kf_slerp_played: the arc from
 * the keys, stored; the lanes more than a quarter turn apart then take the
 * double path. Returns the lanes that may not be unit (linear, general). */
KF_KERNEL unsigned slerp_lanes(job jb, const vf qa[4], const vf qb[4], uint32_t i, uint32_t j,
                               float u)
{
    const vf c = v_dot4(qa, qb);
    vf w[2];
    v_played_weights(c, v_set1(u), w);
    store4(v_combine(w[0], qa[0], w[1], qb[0]), v_combine(w[0], qa[1], w[1], qb[1]),
           v_combine(w[0], qa[2], w[1], qb[2]), v_combine(w[0], qa[3], w[1], qb[3]), jb);
    const unsigned general = m_bits(m_not(v_ge(c, v_set1(0.0f))));
    if (general)
        for (uint32_t l = 0; l < job_lanes(jb); l++)
            if (general >> l & 1)
                kf_block_slerp_general(lane_block(jb, l), l % KF_LANES, i, j, u, lane_out(jb, l));
    return general | m_bits(v_ge(c, v_set1(1.0f - (float)KF_QUAT_EPSILON)));
}

KF_KERNEL unsigned slerp_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                             double exact_u)
{
    (void)exact_u;
    const keys a = job_key(jb, oi), e = job_key(jb, oj);
    const vf qa[4] = {v_load(a, 0), v_load(a, 1), v_load(a, 2), v_load(a, 3)};
    const vf qb[4] = {v_load(e, 0), v_load(e, 1), v_load(e, 2), v_load(e, 3)};
    return slerp_lanes(jb, qa, qb, i, j, u);
}

/* Every lane's squad from keys qa and qb with intermediates sa (key i's
 * a) and sb (key j's b), as kf_squad; normalizes itself when asked (its
 * results are never unit); returns 0. */
KF_KERNEL unsigned squad_lanes(job jb, const vf qa[4], const vf qb[4], const vf sa[4],
                               const vf sb[4], uint32_t i, uint32_t j, float u, double exact_u,
                               int normalize)
{
    const vf vu = v_set1(u);
    const vf key_c = v_dot4(qa, qb), control_c = v_dot4(sa, sb);
    vf key[2], control[2], wk[2], wc[2], q1[4], q2[4];
    v_arc_of(key_c, key);
    v_arc_of(control_c, control);
    v_arc_weights(key[0], key[1], vu, wk);
    v_arc_weights(control[0], control[1], vu, wc);
    /* (written out: a loop here would keep its results on the stack) */
    q1[0] = v_combine(wk[0], qa[0], wk[1], qb[0]);
    q1[1] = v_combine(wk[0], qa[1], wk[1], qb[1]);
    q1[2] = v_combine(wk[0], qa[2], wk[1], qb[2]);
    q1[3] = v_combine(wk[0], qa[3], wk[1], qb[3]);
    q2[0] = v_combine(wc[0], sa[0], wc[1], sb[0]);
    q2[1] = v_combine(wc[0], sa[1], wc[1], sb[1]);
    q2[2] = v_combine(wc[0], sa[2], wc[1], sb[2]);
    q2[3] = v_combine(wc[0], sa[3], wc[1], sb[3]);
    /* The last slerp, as kf_squad takes it (kf_slerp_played). */
    const vf c = v_dot4(q1, q2);
    vf w[2];
    v_played_weights(c, v_set1(2.0f * u * (1.0f - u)), w);
    vf r[4];
    r[0] = v_combine(w[0], q1[0], w[1], q2[0]);
    r[1] = v_combine(w[0], q1[1], w[1], q2[1]);
    r[2] = v_combine(w[0], q1[2], w[1], q2[2]);
    r[3] = v_combine(w[0], q1[3], w[1], q2[3]);
    if (normalize)
        v_normalize(r);
    store4(r[0], r[1], r[2], r[3], jb);
    const vf zero = v_set1(0.0f);
    const unsigned general =
        m_bits(m_not(m_and(m_and(v_ge(key_c, zero), v_ge(control_c, zero)), v_ge(c, zero))));
    if (general)
        for (uint32_t l = 0; l < job_lanes(jb); l++) {
            if (general >> l & 1) {
                const struct kf_sequence s = kf_block_lane(lane_block(jb, l), l % KF_LANES);
                float *o = lane_out(jb, l);
                kf_squad_general(&s, i, j, exact_u, o);
                if (normalize)
                    kf_normalize_single(o);
            }
        }
    return 0;
}

KF_KERNEL unsigned squad_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                             double exact_u, int normalize)
{
    const keys a = job_key(jb, oi), e = job_key(jb, oj);
    const vf qa[4] = {v_load(a, 0), v_load(a, 1), v_load(a, 2), v_load(a, 3)};
    const vf qb[4] = {v_load(e, 0), v_load(e, 1), v_load(e, 2), v_load(e, 3)};
    const vf sa[4] = {v_load(a, KF_FIELD_SQUAD_A), v_load(a, KF_FIELD_SQUAD_A + 1),
                      v_load(a, KF_FIELD_SQUAD_A + 2), v_load(a, KF_FIELD_SQUAD_A + 3)};
    const vf sb[4] = {v_load(e, KF_FIELD_SQUAD_B), v_load(e, KF_FIELD_SQUAD_B + 1),
                      v_load(e, KF_FIELD_SQUAD_B + 2), v_load(e, KF_FIELD_SQUAD_B + 3)};
    return squad_lanes(jb, qa, qb, sa, sb, i, j, u, exact_u, normalize);
}

/* Quantized SQUAD blocks, per width W of q (BYTES bytes a q in the row):
 * squad_one with each of the four quaternions read as a quantized SLERP
 * key (kf_layout.h, KF_QSQUAD_GRID): key i's key and a, key j's key and
 * b (the last three fields: a's where they are the same). */
#define QSQUAD_KERNELS(W, BYTES, F)                                                                \
    KF_KERNEL unsigned qsquad##W##F##_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj,    \
                                          float u, double exact_u, int normalize)                  \
    {                                                                                              \
        const qkeys a = job_qkey(jb, oi), e = job_qkey(jb, oj);                                    \
        vf qa[4], qb[4], sa[4], sb[4];                                                             \
        v_loadq_slerp##W##F(a, qa);                                                                \
        v_loadq_slerp##W##F(e, qb);                                                                \
        v_loadq_slerp##W##F(q_field_at(a, KF_QSLERP_GRID, BYTES), sa);                             \
        v_loadq_slerp##W##F(q_field_at(e, job_block(jb)->fields - KF_QSLERP_GRID, BYTES), sb);     \
        return squad_lanes(jb, qa, qb, sa, sb, i, j, u, exact_u, normalize);                       \
    }
QSQUAD_KERNELS(, 2, )
QSQUAD_KERNELS(12, 1, )
QSQUAD_KERNELS(8, 1, )
QSQUAD_KERNELS(, 2, _fw)
QSQUAD_KERNELS(12, 1, _fw)
QSQUAD_KERNELS(8, 1, _fw)

/* Quantized SLERP blocks, per width W of q: slerp_one with x, y and z
 * from the grid and w rebuilt from them (v_loadq_slerp##W##F; kf_layout.h,
 * KF_QSLERP_*); and their holds, key i, normalized in the registers when
 * asked (key4_one). */
#define QSLERP_KERNELS(W, F)                                                                       \
    KF_KERNEL unsigned qslerp##W##F##_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj,    \
                                          float u, double exact_u)                                 \
    {                                                                                              \
        (void)exact_u;                                                                             \
        vf ka[4], kb[4];                                                                           \
        v_loadq_slerp##W##F(job_qkey(jb, oi), ka);                                                 \
        v_loadq_slerp##W##F(job_qkey(jb, oj), kb);                                                 \
        return slerp_lanes(jb, ka, kb, i, j, u);                                                   \
    }                                                                                              \
    KF_KERNEL unsigned qslerp_key##W##F##_one(job jb, uint32_t i, uint32_t j, size_t oi,           \
                                              size_t oj, float u, double exact_u, int normalize)   \
    {                                                                                              \
        (void)i, (void)j, (void)oj, (void)u, (void)exact_u;                                        \
        vf r[4];                                                                                   \
        v_loadq_slerp##W##F(job_qkey(jb, oi), r);                                                  \
        if (normalize)                                                                             \
            v_normalize(r);                                                                        \
        store4(r[0], r[1], r[2], r[3], jb);                                                        \
        return 0;                                                                                  \
    }

QSLERP_KERNELS(, )
QSLERP_KERNELS(12, )
QSLERP_KERNELS(8, )
QSLERP_KERNELS(, _fw)
QSLERP_KERNELS(12, _fw)
QSLERP_KERNELS(8, _fw)

/* Quantized HERMITE blocks, per width W of q (BITS bits): spline_one with
 * the keys and the key tangents from the grid, each key tangent times the
 * length of the segment, as the reader scaled it (kf_layout.h,
 * kf_qhermite_key; the blocks of a job share their clock, so the first
 * one's length is every lane's, and their kind: the incoming key tangents
 * at field `in`, 2c, or c where they are the outgoing ones). */
#define QHERMITE_KERNELS(W, BITS)                                                                  \
    KF_KERNEL vf v_q##W##hermite(qkeys a, qkeys e, const v_basis *h, vf length, uint32_t c,        \
                                 uint32_t in, uint32_t m)                                          \
    {                                                                                              \
        vf x = v_mul(h->h0, v_loadq##W(a, m));                                                     \
        x = v_add(x, v_mul(h->h1, v_loadq##W(e, m)));                                              \
        x = v_add(x, v_mul(h->h2, v_mul(v_loadq##W(a, c + m), length)));                           \
        return v_add(x, v_mul(h->h3, v_mul(v_loadq##W(e, in + m), length)));                       \
    }                                                                                              \
    KF_KERNEL vf v_segment##W(job jb, size_t oi)                                                   \
    {                                                                                              \
        const kf_block *b = job_block(jb);                                                         \
        return v_set1(b->data[oi + kf_qhermite_segment(b->fields, BITS)]);                         \
    }                                                                                              \
    KF_KERNEL unsigned q##W##hermite_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj,     \
                                         float u, double exact_u)                                  \
    {                                                                                              \
        (void)i, (void)j, (void)exact_u;                                                           \
        const v_basis h = v_hermite_basis(u);                                                      \
        const uint32_t c = job_block(jb)->components, in = job_block(jb)->fields - c;              \
        const vf length = v_segment##W(jb, oi);                                                    \
        const qkeys a = job_qkey(jb, oi), e = job_qkey(jb, oj);                                    \
        for (uint32_t m = 0; m < c; m++)                                                           \
            store1(v_q##W##hermite(a, e, &h, length, c, in, m), m, jb);                            \
        return ALL_LANES;                                                                          \
    }                                                                                              \
    KF_KERNEL unsigned q##W##hermite3_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj,    \
                                          float u, double exact_u)                                 \
    {                                                                                              \
        (void)i, (void)j, (void)exact_u;                                                           \
        const v_basis h = v_hermite_basis(u);                                                      \
        const vf length = v_segment##W(jb, oi);                                                    \
        const uint32_t in = job_block(jb)->fields - 3;                                             \
        const qkeys a = job_qkey(jb, oi), e = job_qkey(jb, oj);                                    \
        store3(v_q##W##hermite(a, e, &h, length, 3, in, 0),                                        \
               v_q##W##hermite(a, e, &h, length, 3, in, 1),                                        \
               v_q##W##hermite(a, e, &h, length, 3, in, 2), jb);                                   \
        return ALL_LANES;                                                                          \
    }
QHERMITE_KERNELS(, 16)
QHERMITE_KERNELS(12, 12)
QHERMITE_KERNELS(8, 8)

/* Quaternion holds: key i, normalized in the registers when asked. */
KF_KERNEL unsigned key4_one(job jb, uint32_t i, uint32_t j, size_t oi, size_t oj, float u,
                            double exact_u, int normalize)
{
    (void)i, (void)j, (void)oj, (void)u, (void)exact_u;
    const keys a = job_key(jb, oi);
    vf r[4] = {v_load(a, 0), v_load(a, 1), v_load(a, 2), v_load(a, 3)};
    if (normalize)
        v_normalize(r);
    store4(r[0], r[1], r[2], r[3], jb);
    return 0;
}

/* The loop over a run of blocks around an inlined kernel (constants stay in
 * registers from one job to the next, and so do the keys' offsets: the
 * blocks of a run share a clock, so their keys share rows, kf_layout.c);
 * `normalize` as kf_block_kernel: the lanes the kernel left non-unit are
 * normalized one by one (JOB_ONE), or the kernel normalizes in its
 * registers (JOB_ONE_NORMALIZING). With PAIRS, a set whose jobs are two
 * blocks (AVX2) plays the jobs of a run that are pairs of quantized
 * blocks (jobs_paired, job_paired) in a copy of the kernel that reads both
 * blocks' bases and scales at once (dq_load), and the rest in another. */
#define JOB_ONE(name, paired)                                                                      \
    do {                                                                                           \
        const job jb = job_paired(job_at(jobs, count, k), paired);                                 \
        const unsigned nonunit = name##_one(jb, i, j, oi, oj, u, exact_u);                         \
        if (normalize && nonunit)                                                                  \
            for (uint32_t l = 0; l < job_lanes(jb); l++)                                           \
                if (nonunit >> l & 1)                                                              \
                    kf_normalize_single(lane_out(jb, l));                                          \
    } while (0)
#define JOB_ONE_NORMALIZING(name, paired)                                                          \
    name##_one(job_paired(job_at(jobs, count, k), paired), i, j, oi, oj, u, exact_u, normalize)
#define RUN_JOBS(name, ONE, PAIRS, HOT)                                                            \
    HOT static void name(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,    \
                         double exact_u, int normalize)                                            \
    {                                                                                              \
        const size_t stride = jobs[0].block->stride, oi = i * stride, oj = j * stride;             \
        uint32_t k = 0;                                                                            \
        if (PAIRS && jobs_paired(jobs, count))                                                     \
            for (; k + 1 < count; k += JOB_STEP)                                                   \
                ONE(name, 1);                                                                      \
        for (; k < count; k += JOB_STEP)                                                           \
            ONE(name, 0);                                                                          \
    }
#define JOBS(name)                  RUN_JOBS(name, JOB_ONE, 0, )
#define JOBS_NORMALIZING(name)      RUN_JOBS(name, JOB_ONE_NORMALIZING, 0, )
#define QJOBS(name)                 RUN_JOBS(name, JOB_ONE, 1, )
#define QJOBS_NORMALIZING(name)     RUN_JOBS(name, JOB_ONE_NORMALIZING, 1, )
#define HOT_JOBS(name)              RUN_JOBS(name, JOB_ONE, 0, KF_HOT)
#define HOT_JOBS_NORMALIZING(name)  RUN_JOBS(name, JOB_ONE_NORMALIZING, 0, KF_HOT)
#define HOT_QJOBS(name)             RUN_JOBS(name, JOB_ONE, 1, KF_HOT)
#define HOT_QJOBS_NORMALIZING(name) RUN_JOBS(name, JOB_ONE_NORMALIZING, 1, KF_HOT)

/* HOT_: the kernels a skeleton's clips play most (translations, rotations
 * and scales; lossless, and at the widths kfc -e's bounds give W), which
 * KF_HOT places with the player's code. */
JOBS(key)
HOT_JOBS(key3)
HOT_JOBS_NORMALIZING(key4)
JOBS(linear)
HOT_JOBS(linear3)
JOBS(linear4)
JOBS(spline)
HOT_JOBS(spline3)
JOBS(spline4)
HOT_JOBS(slerp)
HOT_JOBS_NORMALIZING(squad)
QJOBS(qkey)
QJOBS(qkey3)
QJOBS(qlinear)
QJOBS(qlinear3)
QJOBS(q12key)
HOT_QJOBS(q12key3)
QJOBS(q12linear)
HOT_QJOBS(q12linear3)
QJOBS(q8key)
HOT_QJOBS(q8key3)
QJOBS(q8linear)
HOT_QJOBS(q8linear3)
QJOBS(qslerp)
QJOBS(qslerp12)
QJOBS(qslerp8)
QJOBS_NORMALIZING(qslerp_key)
QJOBS_NORMALIZING(qslerp_key12)
QJOBS_NORMALIZING(qslerp_key8)
QJOBS(qhermite)
QJOBS(qhermite3)
QJOBS(q12hermite)
HOT_QJOBS(q12hermite3)
QJOBS(q8hermite)
HOT_QJOBS(q8hermite3)
QJOBS_NORMALIZING(qsquad)
QJOBS_NORMALIZING(qsquad12)
QJOBS_NORMALIZING(qsquad8)
QJOBS(qslerp_fw)
HOT_QJOBS(qslerp12_fw)
QJOBS(qslerp8_fw)
QJOBS_NORMALIZING(qslerp_key_fw)
HOT_QJOBS_NORMALIZING(qslerp_key12_fw)
QJOBS_NORMALIZING(qslerp_key8_fw)
QJOBS_NORMALIZING(qsquad_fw)
HOT_QJOBS_NORMALIZING(qsquad12_fw)
QJOBS_NORMALIZING(qsquad8_fw)

static const kf_kernels simd_set = {
    SET_NAME,
    {key, key3, key4},
    {linear, linear3, linear4},
    {spline, spline3, spline4},
    slerp,
    squad,
    {{qkey, qkey3, qkey}, {q12key, q12key3, q12key}, {q8key, q8key3, q8key}},
    {{qlinear, qlinear3, qlinear},
     {q12linear, q12linear3, q12linear},
     {q8linear, q8linear3, q8linear}},
    {qslerp, qslerp12, qslerp8},
    {qslerp_key, qslerp_key12, qslerp_key8},
    {{qhermite, qhermite3, qhermite},
     {q12hermite, q12hermite3, q12hermite},
     {q8hermite, q8hermite3, q8hermite}},
    {qsquad, qsquad12, qsquad8},
    {qslerp_fw, qslerp12_fw, qslerp8_fw},
    {qslerp_key_fw, qslerp_key12_fw, qslerp_key8_fw},
    {qsquad_fw, qsquad12_fw, qsquad8_fw}};

const kf_kernels *SET_GETTER(void)
{
    return &simd_set;
}
