/* SPDX-License-Identifier: MIT */
/*
 * kf_kernels_one_block.h - jobs of one block, four lanes, for the vector
 * kernels (kf_kernels_simd.h): what the SSE2 and NEON sets share. Their
 * files include it once vf is defined, and then define the loads (v_load,
 * q_lanes, v_dequant and the rest) and stores for their registers.
 */
#ifndef KF_KERNELS_ONE_BLOCK_H
#define KF_KERNELS_ONE_BLOCK_H

#include "kf_layout.h"

/* A job is one block; its keys are 16-aligned (kf_layout.c). */
typedef const kf_lanes *job;
typedef const float *keys;
#define JOB_STEP 1

static inline job job_at(const kf_lanes *jobs, uint32_t count, uint32_t k)
{
    (void)count;
    return jobs + k;
}

static inline keys job_key(job jb, size_t at)
{
    return jb->data + at;
}

/* A quantized block's key: its row of q (kf_block.qbits), the high
 * nibbles of a 12-bit one, and the block's bases and scales (16-aligned,
 * kf_layout.c). */
typedef struct qkeys {
    const uint8_t *q;
    const uint8_t *h;
    keys d; /* the bases and scales: two fields per field */
} qkeys;

static inline qkeys job_qkey(job jb, size_t at)
{
    const uint8_t *q = (const uint8_t *)(const void *)(jb->data + at);
    return (qkeys){q, q + jb->block->high, jb->block->dequant};
}

/* The key k from its field f on, as a key whose field 0 is that one (a
 * SQUAD key's a and b: kf_layout.h, KF_QSQUAD_GRID); q `bytes` wide (2: 16
 * bits, 1: the low bytes of 12 and 8). */
static inline qkeys q_field_at(qkeys k, uint32_t f, size_t bytes)
{
    return (qkeys){k.q + (size_t)f * KF_LANES * bytes, k.h + 2 * (size_t)f,
                   k.d + (size_t)f * KF_DEQUANT_FIELD};
}

/* Field f's four nibbles of a 12-bit key (kf_block.high). */
static inline unsigned q_high(qkeys k, uint32_t f)
{
    uint16_t h;
    memcpy(&h, k.h + 2 * (size_t)f, sizeof h);
    return h;
}

/* Field f's four low bytes of an 8- or 12-bit key, as a 32-bit word. */
static inline int q_low(qkeys k, uint32_t f)
{
    int32_t w;
    memcpy(&w, k.q + (size_t)f * KF_LANES, sizeof w);
    return w;
}

/* One block a job: the quantized kernels need no pairs (kf_kernels_simd.h,
 * QJOBS). */
static inline int jobs_paired(const kf_lanes *jobs, uint32_t count)
{
    (void)jobs, (void)count;
    return 0;
}

static inline job job_paired(job jb, int paired)
{
    (void)paired;
    return jb;
}

static inline const kf_block *job_block(job jb)
{
    return jb->block;
}

static inline uint32_t job_lanes(job jb)
{
    (void)jb;
    return KF_LANES;
}

static inline const kf_block *lane_block(job jb, uint32_t l)
{
    (void)l;
    return jb->block;
}

static inline float *lane_out(job jb, uint32_t l)
{
    return kf_lanes_out(jb, l);
}

#endif /* KF_KERNELS_ONE_BLOCK_H */
