/* SPDX-License-Identifier: MIT */
/*
 * kf_layout.h - the playback layout, built once at load (kf_layout.c) from
 * the decoded arrays, which it replaces: it is the loaded animation's one
 * copy of its numbers (the objects point into it), and the kernels run
 * over it, four tracks at a
 * time (kf_kernels_scalar.c; kf_kernels_simd.h through kf_kernels_sse2.c and
 * kf_kernels_neon.c) or two blocks, eight tracks, at a time
 * (kf_kernels_avx2.c).
 *
 * Sequences that share key times (one array, formats/kfb.md), repeat,
 * interpolation and components are packed four to a block, structure of
 * arrays across the four: for each key, each field (value components, then
 * tangents or squad's a/b, then arcs) holds the four lanes side by side, so
 * one segment of four tracks is one contiguous run of memory and every
 * operation of a kernel is one 4-wide operation. The blocks of one clock
 * (key times, count, repeat and duration: what a player's group shares)
 * are interleaved key by key, one row per key holding every block's fields
 * (the blocks of one interpolation and component count, a stripe, next to
 * each other), so one segment of the whole group is one contiguous run of
 * memory, which a frame at a random time reads as one stream instead of
 * two places per block. The player evaluates a block where it would have
 * evaluated its members one by one.
 *
 * STEP and LINEAR sequences whose keys lie on a 16-bit grid (what kfc -e
 * writes), SLERP ones whose x, y and z do, HERMITE ones whose keys and
 * key tangents do, and SQUAD ones whose keys, a and b do, make quantized
 * stripes of their own (kf_block.dequant):
 * the same rows, with four lanes of integers per field on the grid (16,
 * 12 or 8 bits: kf_block.qbits) instead of floats, which the q kernels
 * dequantize in their registers to the very floats the keys were loaded
 * as.
 */
#ifndef KF_LAYOUT_H
#define KF_LAYOUT_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kf_private.h"

/* KF_LANES (kf_private.h): sequences per block. KF_BLOCK_COMPONENTS
 * (kf_private.h): the most components a sequence in a
 * block has; a wider one is played on its own (kf_layout.c), and a block's
 * lanes are at most this wide (a player's scratch for them, kf_player.c). */

typedef struct kf_block {
    uint32_t interpolation; /* KFB_INTERP_* */
    uint32_t components;
    uint32_t fields;    /* per key: fields of four lanes each (floats; in a
                           quantized block, q: HERMITE 3c, or 2c where the
                           incoming key tangents are the outgoing ones;
                           SQUAD 9, or 6 where every b is its a:
                           kf_block_shared) */
    uint32_t key_count; /* valid keys */
    uint32_t wide;      /* LINEAR, SPLINE, HERMITE: some lane's values (and
                             tangents) are so large that the float forms can
                             overflow; played by kf_lerp1 / kf_hermite1 */
    uint32_t stride;    /* floats from a key to the next: the row of its
                           clock, every block's fields * KF_LANES */
    const float *data;  /* key 0, 16-aligned; key k at data + k * stride */
    /* NULL, or the block is quantized: STEP or LINEAR lanes whose every
     * value the layout found to be base + q * scale, q < 2^16 and the scale
     * a power of two (kf_layout.c, quantize; SLERP, SQUAD and HERMITE lanes below
     * keep some fields so), are kept as the q, four
     * lanes' uint16 per field (field f of key k at ((const uint16_t *)
     * (data + k * stride))[f * KF_LANES + l]), or narrower (qbits), and
     * `dequant` holds per field the four lanes' bases, then their scales,
     * KF_DEQUANT_FIELD floats a field (kf_private.h: blocks in pairs, so
     * that a kernel playing two reads both with one load). A kernel
     * dequantizes in its registers (kf_dequantize) and gets the loaded
     * floats back to the bit, so a quantized block plays exactly as its
     * float form would, in half the memory or less. */
    const float *dequant;
    /* A quantized block's q may be narrower (the layout takes the
     * narrowest that holds all four lanes' every field, after moving
     * each lane's and field's common trailing zero bits of q into its
     * scale, which gives the same products): `qbits` 16, the uint16 above;
     * 8, a byte per lane and field (field f of key k at ((const uint8_t *)
     * (data + k * stride))[f * KF_LANES + l]); or 12, those bytes as the
     * low 8 bits and, `high` bytes on in the same row, a uint16 per field
     * holding the four lanes' high 4 bits, lane l's at bit 4l. */
    uint16_t qbits;
    /* A quantized SLERP or SQUAD block whose every x, y and z (a's and
     * b's too) is a whole number of 2^-12: their squares, the sums of
     * those and what the sum leaves of 1 are then floats exactly (each a
     * whole number of 2^-24 within [0, 1]), and the square root rounded
     * once to float is the rebuild in double rounded to float (double's
     * 53 bits are more than twice float's 24 and two: rounding twice
     * gives the same square root). Its kernels rebuild w in float
     * (kf_kernels.qslerp_fw), as kfc -e's grids of orientations allow. */
    uint16_t float_w;
    uint32_t high;
} kf_block;

/* The quantized widths (kf_block.qbits), as kernel tables index them. */
#define KF_QWIDTHS 3
static inline int kf_qwidth(uint32_t bits)
{
    return bits == 16 ? 0 : bits == 12 ? 1 : 2;
}

/* A quantized SLERP block (kf_block.dequant, interpolation SLERP): lanes
 * whose x, y and z lie on a 15-bit grid and whose w the file rebuilt from
 * them (kfc -e: kf_unit_rest, the sum of squares in double, its rest
 * rounded once), a key of which is x, y and z as four lanes of q each
 * (uint16, or narrower: kf_block.qbits), x's bit 0 w's sign
 * (KF_QSLERP_SIGN) and its own q above it: the kernels rebuild w in their
 * registers as the reader did, to the bit. (No block holds slerp arcs
 * either: the kernels compute them from the keys, kf_slerp_played.) */
#define KF_QSLERP_KEY 6u /* floats per key at 16 bits: 3 fields of uint16 */
/* KF_QSLERP_GRID (kf_private.h): its components on the grid, 3. */
#define KF_QSLERP_TOP 32767u /* the largest q of x, y and z (x's shifted up for the sign) */

/* A quantized SQUAD block (kf_block.dequant, interpolation SQUAD): lanes
 * whose keys, a and b are each as a quantized SLERP block's keys (x, y and
 * z on a 15-bit grid, w rebuilt: kfc -e puts a and b on grids too), a key
 * of which is those three quaternions' x, y and z, nine fields of four
 * lanes of q (uint16, or narrower: kf_block.qbits), each x's bit 0 its
 * w's sign; or six, the key and a, where every b of its lanes is its a
 * (as between evenly spaced keys: kf_block_shared). The kernels read key
 * i's key and a, and key j's key and b, each as a SLERP key (fields 0,
 * KF_QSLERP_GRID and, b, fields - KF_QSLERP_GRID on). */
#define KF_QSQUAD_GRID (3u * KF_QSLERP_GRID)

/* A quantized HERMITE block (kf_block.dequant, interpolation HERMITE):
 * lanes whose values and authored key tangents lie on 16-bit grids (kfc
 * -e) and whose scaled tangents are those times the segment's length, to
 * the bit. A key is 3c fields of four lanes of q (values, outgoing, then
 * incoming key tangents: the float block's order; uint16, or the low
 * bytes of narrower q, kf_block.qbits), or 2c where every incoming key
 * tangent of its lanes is the outgoing one (kf_block_shared; what kfc -e
 * writes where the curve is smooth at every key), then, as a float, the length of
 * the segment from the key (the lanes share their key times; 0 where none
 * is played); the next block follows (every load of q is unaligned). A
 * kernel scales the key tangents by the length in its registers: the
 * length at this float offset into the key. */
/* Floats per key of a quantized HERMITE block of `fields` fields of q (the
 * length at kf_qhermite_segment, kf_private.h). */
static inline uint32_t kf_qhermite_key(uint32_t fields, uint32_t bits)
{
    return kf_qhermite_segment(fields, bits) + 1;
}

/* Whether quantized block b keeps its lanes' incoming fields once, as
 * their outgoing ones (kf_block.fields; KF_LANE_SHARED). */
static inline int kf_block_shared(const kf_block *b)
{
    return b->dequant &&
           ((b->interpolation == KFB_INTERP_HERMITE && b->fields == 2 * b->components) ||
            (b->interpolation == KFB_INTERP_SQUAD && b->fields < KF_QSQUAD_GRID));
}

/* Lane l of block b as a sequence (its keys, tangents and arcs; what the
 * general slerp and squad read): an empty lane is zeros. */
static inline struct kf_sequence kf_block_lane(const kf_block *b, uint32_t l)
{
    struct kf_sequence s;
    memset(&s, 0, sizeof s);
    s.interpolation = b->interpolation;
    s.components = b->components;
    s.valid_count = s.key_count = b->key_count;
    s.row = b->stride;
    if (b->dequant) {
        s.qbits = (uint16_t)b->qbits;
        s.lane = (uint16_t)(l | (kf_block_shared(b) ? KF_LANE_SHARED : 0u));
        if (b->qbits == 16)
            s.quantized = (const uint16_t *)(const void *)b->data + l;
        else
            s.qbytes = (const uint8_t *)(const void *)b->data + l;
        if (b->qbits == 12)
            s.qhigh =
                (const uint16_t *)(const void *)((const uint8_t *)(const void *)b->data + b->high);
        s.dequant = b->dequant + l;
        return s;
    }
    s.values = b->data + l;
    if (b->interpolation == KFB_INTERP_SQUAD) {
        s.tangent_out = s.values + 4 * KF_LANES; /* KF_FIELD_SQUAD_A */
        s.tangent_in = s.values + 8 * KF_LANES;  /* KF_FIELD_SQUAD_B */
    }
    return s;
}

/* Fields per key of a block of `interpolation` and `components` (a
 * constant where a kernel knows both). */
static inline uint32_t kf_block_fields(uint32_t interpolation, uint32_t components)
{
    switch (interpolation) {
    case KFB_INTERP_SPLINE:
    case KFB_INTERP_HERMITE:
        return 3 * components;
    case KFB_INTERP_SQUAD:
        return 12;
    default:
        return components;
    }
}

/* Field offsets inside a key (in fields). */
#define KF_FIELD_SQUAD_A 4u /* SQUAD: a (tangent_out) */
#define KF_FIELD_SQUAD_B 8u /* SQUAD: b (tangent_in) */

struct kf_layout {
    size_t size;  /* of the one allocation */
    size_t shift; /* from the allocation to this struct (16-alignment) */
    uint32_t block_count;
    kf_block *blocks;
    /* Everything else the animation's objects read (kf_layout.c,
     * move_arrays): the key times, the arrays of sequences in no block,
     * TCB, key tangents, distance tables, interpolators' and followers'
     * arrays. */
    float *plain;
    size_t plain_floats;
    uint32_t *block_of; /* per sequence: its block, or KF_NO_INDEX (wider
                           than KF_BLOCK_COMPONENTS) */
    uint8_t *lane_of;   /* per sequence: its lane there */
    /* What a player's plan can need at most, so that a player holds no
     * more than its animation uses (kf_player.c sizes by these). */
    uint32_t clock_count; /* at least the distinct times, counts, repeats
                             and durations (exactly, where every sequence
                             is in a block) */
    uint32_t run_tracks;  /* played sequence tracks no block plays: those
                             of a sequence an earlier played track plays
                             too, and those of sequences in no block */
    /* Targets that several tracks play (blended): per target its blend
     * slot or KF_NO_INDEX (blend_of NULL: no target is); per slot its
     * target and the offset of its weighted sums. */
    uint32_t *blend_of;
    uint32_t *blend_target;
    uint32_t *blend_offset;
    uint32_t blend_count;
    size_t blend_values;
};

/* Builds anim->layout from the decoded sequences and tracks (every loaded
 * animation has one), if that allocates at most `budget` bytes at once,
 * else KF_ERROR_LIMIT; *need is set to those bytes. KF_ERROR_OUT_OF_MEMORY
 * or KF_ERROR_TOO_LARGE. `facts` (per sequence, or NULL): what the reader
 * learned of the values while decoding them, which spare reading them
 * again to find their grids; the layout is the same with or without. */
kf_result kf_layout_build(kf_anim *anim, const kf_value_facts *facts, size_t budget, size_t *need);
/* The bytes kf_layout_build would need for objects `o` (whose sequences'
 * `times` tell shared key times by address, as a loaded file's do, and
 * hold them: HERMITE's quantized lanes depend on them), in
 * *need; KF_ERROR_OUT_OF_MEMORY or KF_ERROR_TOO_LARGE. */
kf_result kf_layout_measure(const kf_objects *o, const kf_allocator *a, size_t *need);
void kf_layout_free(const kf_allocator *a, struct kf_layout *layout);
/* The layout's question for a quantized lane: whether the n keys of c
 * components at v lie, in each component in `check`, on a grid of a
 * power-of-two scale and at most `top` steps. From the floats (`facts`
 * NULL) or from the reader's facts of their columns (c at most
 * KF_TANGENT_FACT_COLUMNS): 1, with each component's base, scale, the trailing
 * zero bits its q share (at most 15) and its largest q; 0; or -1 where a
 * component's facts do not hold. Both ways give the same (a test checks). */
int kf_layout_grid(const float *v, const kf_column_facts *facts, uint32_t c, uint32_t n,
                   unsigned check, uint32_t top, float *base, float *scale, uint32_t *zeros,
                   uint32_t *most);

/* One block to evaluate and where its lanes go (an unplayed lane's output
 * is scratch). */
typedef struct kf_lanes {
    /* block->data: a kernel of float keys reads its keys from here, not
     * from the kf_block, so that a pose after the caches were evicted
     * fetches one kf_block a run (its stride), not one a block. */
    const float *data;
    const kf_block *block;
    /* Lane l's output, in floats from this struct: both lie in one
     * player's memory (kf_player.c), and four offsets take the bytes of
     * two pointers. */
    int32_t out[KF_LANES];
} kf_lanes;

static inline float *kf_lanes_out(const kf_lanes *x, uint32_t l)
{
    return (float *)(void *)((char *)(uintptr_t)x +
                             (ptrdiff_t)x->out[l] * (ptrdiff_t)sizeof(float));
}

/* A kernel: `count` blocks of one interpolation and component count between
 * keys i and j at u (exact_u: the same in double, for the general squad),
 * lane l into out[l][0 .. components-1]; `key` writes key i (STEP and
 * holds). With `normalize` (every lane an orientation of one track), each
 * result is also normalized as kf_normalize_single does, except where it
 * is unit already (slerp along a polynomial arc, kf_slerp_played). */
typedef void (*kf_block_kernel)(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j,
                                float u, double exact_u, int normalize);

/* A single track's orientation: w * q normalized is q normalized (w > 0),
 * and the test for a vanishing sum is the blend's with one weight. Samples
 * are nearly unit: for |q|^2 = 1 + d, |d| < 2^-12, 1/|q| = (3 - |q|^2)/2
 * within 3d^2/8 < 2.3e-8, without the square root. */
static inline void kf_normalize_single(float *v)
{
    const float n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    float inv;
    if (fabsf(n2 - 1.0f) < 1.0f / 4096) {
        inv = 1.5f - 0.5f * n2;
    } else if (n2 > 1e-10f && n2 <= FLT_MAX) {
        inv = 1.0f / sqrtf(n2);
    } else {
        v[0] = v[1] = v[2] = 0.0f;
        v[3] = 1.0f;
        return;
    }
    for (int k = 0; k < 4; k++)
        v[k] *= inv;
}

/* Per interpolation: any components, then 3 and 4 (vectors, quaternions),
 * which a vector set specializes. */
typedef struct kf_kernels {
    const char *name;
    kf_block_kernel key[3], linear[3], spline[3], slerp, squad;
    /* The same for quantized blocks (kf_block.dequant), per width of q
     * (kf_qwidth); qslerp_key: key i of a quantized SLERP or SQUAD block
     * (their holds); qhermite: HERMITE's; qsquad: SQUAD's. */
    kf_block_kernel qkey[KF_QWIDTHS][3], qlinear[KF_QWIDTHS][3], qslerp[KF_QWIDTHS],
        qslerp_key[KF_QWIDTHS], qhermite[KF_QWIDTHS][3], qsquad[KF_QWIDTHS];
    /* qslerp, qslerp_key and qsquad for blocks whose w is rebuilt in
     * float (kf_block.float_w): the same bits, fewer instructions. */
    kf_block_kernel qslerp_fw[KF_QWIDTHS], qslerp_key_fw[KF_QWIDTHS], qsquad_fw[KF_QWIDTHS];
} kf_kernels;

/* The kernel of a block of `interpolation` and `components`. */
kf_block_kernel kf_kernel_of(const kf_kernels *k, uint32_t interpolation, uint32_t components);
/* The kernel of block `b`: kf_kernel_of's, or for a wide block the scalar
 * kf_lerp1 / kf_hermite1 one that every set shares (rare; these saturate
 * instead of overflowing). */
kf_block_kernel kf_block_kernel_of(const kf_kernels *k, const kf_block *b);
/* The kernel that plays block `b`'s key i (holds). */
kf_block_kernel kf_block_hold_of(const kf_kernels *k, const kf_block *b);
void kf_block_linear_wide(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                          double exact_u, int normalize);
void kf_block_spline_wide(const kf_lanes *jobs, uint32_t count, uint32_t i, uint32_t j, float u,
                          double exact_u, int normalize);

/* The scalar kernels: the arithmetic of kf_sample.h, lane by lane. */
const kf_kernels *kf_kernels_scalar(void);
/* The SSE2 kernels, or NULL where this build has none. */
const kf_kernels *kf_kernels_sse2(void);
/* The NEON kernels (AArch64), or NULL where this build has none. */
const kf_kernels *kf_kernels_neon(void);
/* The AVX2 kernels, or NULL where this build has none (whether the CPU
 * runs them is kf_kernels_best's question). */
const kf_kernels *kf_kernels_avx2(void);
/* The widest kernels this build and CPU run; their results equal the
 * scalar ones bit for bit. */
const kf_kernels *kf_kernels_best(void);

/* Slerp lanes whose stored arc is general (theta < 0) take the double path
 * from the lane's own sequence; shared by every kernel set. */
void kf_block_slerp_general(const kf_block *b, uint32_t l, uint32_t i, uint32_t j, float u,
                            float *out);

/* kf_player_create with a chosen kernel set (tests run every set). */
kf_result kf_player_create_with(const kf_anim *anim, const kf_allocator *allocator,
                                const kf_kernels *kernels, kf_player **out);

#endif /* KF_LAYOUT_H */
