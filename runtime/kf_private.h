/* SPDX-License-Identifier: MIT */
/*
 * kf_private.h - libkf's private structures and helpers: what every runtime
 * file shares, and what the offline library (offline/) builds on.
 *
 * The loaded form mirrors the stored form (formats/kfb_format.h) with offsets
 * turned into pointers. Whatever writes a file fills the same structures
 * before encoding them, so writing and reading are mirror images and the
 * validation here (kf_validate.c) serves both sides.
 */
#ifndef KF_PRIVATE_H
#define KF_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "kf.h"
#include "kfb_format.h"
#include "kf_text.h"

/* A helper whose every call must inline: its constant arguments make a
 * copy of the loop around it per case (the kernels, kf_sample.h; the
 * decoder's rows, kf_read.c; the layout's grids and blocks, kf_layout.c). */
#if defined(__GNUC__)
#define KF_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define KF_ALWAYS_INLINE static inline
#endif

/* KF_HOT: what a pose executes, placed together (the compiler's hot text:
 * GCC and Clang put it in .text.hot, which linkers gather), so that a pose
 * after the caches were evicted fetches its code from few pages.
 * KF_NOINLINE: what it rarely runs, kept out of those functions so that
 * their code stays compact. */
#if defined(__GNUC__)
#define KF_HOT      __attribute__((hot))
#define KF_NOINLINE __attribute__((noinline))
#else
#define KF_HOT
#define KF_NOINLINE
#endif

/* ---- memory (kf_alloc.c) ---------------------------------------------- */

/* The allocator to use: `a` itself, or the malloc/free one if NULL (or
 * incomplete: the library's own callers pass NULL or a checked one). */
kf_allocator kf_allocator_or_default(const kf_allocator *a);
/* A caller's allocator, as kf.h's Memory paragraph has it: NULL for
 * malloc/free, else both functions. KF_ERROR_ARGUMENT (with a message in
 * `error`, which may be NULL) for one without the other; *out is then
 * untouched. */
kf_result kf_allocator_take(const kf_allocator *a, kf_allocator *out, kf_error *error);

void *kf_alloc(const kf_allocator *a, size_t size);
void *kf_calloc(const kf_allocator *a, size_t count, size_t size); /* checked, zeroed */
void kf_free(const kf_allocator *a, void *ptr, size_t size);

/* a * b into *out unless it would overflow size_t (returns 0 then). */
int kf_mul_size(size_t a, size_t b, size_t *out);

/* zalloc/zfree for zlib streams; `opaque` is a const kf_allocator *. */
void *kf_zlib_alloc(void *opaque, unsigned items, unsigned size);
void kf_zlib_free(void *opaque, void *ptr);

/* ---- checksums (kf_crc32.c) --------------------------------------------- */

/* zlib's crc32(crc, data, size), bit for bit: ISA-L's where the build
 * found ISA-L (carry-less multiplication where the CPU has it), zlib's
 * otherwise. */
uint32_t kf_crc32(uint32_t crc, const void *data, size_t size);

/* ---- inflating (kf_inflate.c) ------------------------------------------- */

#ifdef KF_HAVE_ISAL
/* To call after each call into ISA-L (kf_inflate.c says why). */
void kf_isal_settle(void);
#endif

/* How raw deflate data ended (the same for either library). */
typedef enum kf_inflate_status {
    KF_INFLATE_END,     /* the stream ended */
    KF_INFLATE_FULL,    /* the output filled, or the sink stopped, first */
    KF_INFLATE_CORRUPT, /* invalid data, or the input ends inside the stream */
    KF_INFLATE_MEMORY   /* the allocator refused the state */
} kf_inflate_status;

/* Bytes of the window kf_inflate_to hands to its sink: zlib's inflateBack
 * inflates into deflate's 32 KiB window itself; igzip keeps the last 32 KiB
 * of each call's output as its history, so a larger window copies less. */
#ifdef KF_HAVE_ISAL
#define KF_INFLATE_WINDOW 131072u
#else
#define KF_INFLATE_WINDOW 32768u
#endif

/* Whether to go on (0) or stop (non-zero) after `len` more bytes of the
 * stream at `buf`. */
typedef int (*kf_inflate_sink)(void *desc, const unsigned char *buf, size_t len);

/* Inflates the raw deflate data `in` (n bytes) into `out` (capacity
 * bytes): *produced bytes written, *consumed read, *message a static
 * description of corrupt data (or NULL). The state is the allocator's,
 * freed before returning. */
kf_inflate_status kf_inflate(const kf_allocator *a, const unsigned char *in, size_t n,
                             unsigned char *out, size_t capacity, size_t *produced,
                             size_t *consumed, const char **message);
/* The same, the output handed to `sink` a window at a time: `window` is
 * KF_INFLATE_WINDOW bytes of the caller's; KF_INFLATE_FULL when the sink
 * stopped. */
kf_inflate_status kf_inflate_to(const kf_allocator *a, const unsigned char *in, size_t n,
                                unsigned char *window, kf_inflate_sink sink, void *desc,
                                size_t *consumed, const char **message);

/* ---- options structs (kf.h's rule) -------------------------------------- */

/* Whether `size`, an options struct's first field, is acceptable for a
 * struct the library knows as `known` bytes. */
#define KF_OPTIONS_SIZE_OK(size, known) ((size) >= sizeof(size_t) && (size) <= (known))
/* Field `field` of options *o if it lies within o->size, else `fallback`. */
#define KF_OPTION(o, type, field, fallback)                                                        \
    ((o)->size >= offsetof(type, field) + sizeof((o)->field) ? (o)->field : (fallback))

/* ---- errors (kf_result.c) ---------------------------------------------- */

/* Fills `error` (if not NULL) and returns `result`. */
kf_result kf_fail(kf_error *error, kf_result result, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* As kf_fail, with a va_list. */
kf_result kf_failv(kf_error *error, kf_result result, const char *format, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;

/* As kf_fail, also naming the field and item the error is about. */
kf_result kf_fail_at(kf_error *error, kf_result result, kf_field field, uint32_t item,
                     const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Resets `error` to "no error, nothing located". */
void kf_error_clear(kf_error *error);

/* ---- loaded objects --------------------------------------------------- */

struct kf_sequence {
    const char *name;
    uint16_t interpolation; /* KFB_INTERP_* */
    uint16_t repeat;        /* KFB_REPEAT_* */
    /* A quantized lane (kf_quantized): the width of its q in bits (8, 12
     * or 16: kf_layout.h, kf_block.qbits) and its lane in its block, with
     * KF_LANE_SHARED (kf_quantized_in_field). (Halves, so that a sequence
     * stays 104 bytes.) */
    uint16_t qbits, lane;
    uint32_t components;
    uint32_t key_count;
    uint32_t valid_first;
    uint32_t valid_count;
    float duration;
    /* Where values, tangent_out and tangent_in keep their floats. 0:
     * arrays of their own, key after key (the builder's, and a decoding
     * reader's). Otherwise the sequence is a lane of a block of the
     * playback layout (kf_layout.h), its one copy: component m of key k at
     * [k * row + m * KF_LANES]. Read them through kf_key_floats and
     * kf_key_float. */
    uint32_t row;
    /* Rotated: key j is authored key (valid_first + j) % key_count and the
     * valid keys are 0 .. valid_count-1. */
    const float *times;
    /* A STEP, LINEAR or SLERP sequence that is a lane of a quantized block
     * (kf_layout.h; kf_quantized says which) has `quantized` (`qbytes`
     * where its q are narrower than 16 bits: qbits; and `qhigh` for 12)
     * and `dequant` in place of `values` and of the tangents it has none
     * of: component m of key k is its base plus its q times its scale
     * (kf_lane_field), exactly the float it was loaded as; SLERP's x's q
     * also holds w's sign, and w (m = 3) is rebuilt from x, y and z
     * (kf_layout.h, KF_QSLERP_*). A quantized
     * HERMITE lane has its key tangents as fields c .. 3c - 1 (outgoing,
     * then incoming; or c .. 2c - 1, both: KF_LANE_SHARED) and no
     * tangent_in: its tangents are computed (kf_quantized_tangent). A
     * quantized SQUAD lane has its keys, a and b each as a SLERP lane's
     * keys, at fields 0, 3 and kf_quantized_in_field, and no tangent_in
     * (kf_layout.h, KF_QSQUAD_GRID). Read through kf_key_floats,
     * kf_key_float and kf_key_tangent, which know. (Unions, so that every
     * sequence pays nothing for it.) */
    union {
        const float *values;
        const uint16_t *quantized;
        const uint8_t *qbytes; /* the same, of 8 or 12 bits */
    };
    /* SPLINE: outgoing/incoming tangents; SQUAD: a/b quaternions; else NULL.
     * valid_count * components each. */
    union {
        const float *tangent_out;
        const float *dequant;
    };
    const float *tangent_in;
    /* A builder's SLERP and SQUAD: the arcs version 1 files store
     * (valid_count key arcs, then SQUAD's as many control arcs,
     * KFB_ARC_FLOATS each, formats/kfb_format.h); else NULL: a loaded
     * sequence keeps none, sampling computes each arc (kf_arc_of). */
    union {
        const float *arcs;
        /* HERMITE (which has no arcs) whose key tangents the layout keeps
         * quantized apart: per column their base, then their scale
         * (kf_key_tangent); else NULL. */
        const float *key_tangent_dequant;
        /* A quantized lane of 12 bits: its block's high nibbles
         * (kf_layout.h, kf_block.high), key k's at qhigh[2 k row]. */
        const uint16_t *qhigh;
    };
    /* key_count * 3 (stored order), or NULL: every key 0. */
    const float *tcb;
    /* HERMITE: key_count * 2 * components (stored order): each key's
     * incoming, then outgoing tangent as authored; else NULL. The layout
     * may keep them as uint16 on a grid (kf_layout.c): read them through
     * kf_key_tangent. */
    union {
        const float *key_tangents;
        const uint16_t *qkey_tangents;
    };
    /* kfb_arc_length_floats() distances, or NULL: computed when asked. */
    const float *arc_length;
};

/* Stored key j's number in the source, the authored key (keys are stored
 * rotated, the valid range first: kf_sequence.times); and the reverse. */
static inline uint32_t kf_authored_key(const struct kf_sequence *s, uint32_t j)
{
    return (uint32_t)(((uint64_t)s->valid_first + j) % s->key_count);
}

static inline uint32_t kf_stored_key(const struct kf_sequence *s, uint32_t authored)
{
    return (uint32_t)(((uint64_t)authored + s->key_count - s->valid_first) % s->key_count);
}

/* Sequences side by side in a block of the playback layout (kf_layout.h). */
#define KF_LANES 4u
/* The most components of a sequence in a block of the playback layout
 * (kf_layout.h): a wider one keeps arrays of its own. */
#define KF_BLOCK_COMPONENTS 16u

/* A quantized value: base + q * scale, the arithmetic every reader of the
 * layout's quantized arrays uses (the vector kernels' v_loadq too). The
 * product is exact (q < 2^16, the scale a power of two) and so is the sum
 * (the layout quantizes only where it gives back every loaded float to the
 * bit), so a fused multiply-add gives the same float. */
static inline float kf_dequantize(uint16_t q, float base, float scale)
{
    return base + (float)q * scale;
}

/* Whether s is a lane of a quantized block. No STEP, LINEAR or SLERP
 * sequence has tangents, so `dequant` alone says it; a HERMITE or SQUAD
 * lane has them, and is quantized where it has no incoming tangents (or
 * b) of its own (tangent_in NULL, which a float lane never has:
 * kf_key_floats computes HERMITE's from the key tangents and reads
 * SQUAD's b from the lane's fields). */
static inline int kf_quantized(const struct kf_sequence *s)
{
    if (s->interpolation == KFB_INTERP_HERMITE || s->interpolation == KFB_INTERP_SQUAD)
        return s->tangent_in == NULL && s->dequant != NULL;
    return (s->interpolation <= KFB_INTERP_LINEAR || s->interpolation == KFB_INTERP_SLERP) &&
           s->dequant != NULL;
}

/* Floats from a quantized block's bases of field f to those of field f + 1
 * (kf_layout.h, kf_block.dequant): blocks are paired, and per field the
 * pair holds the first's four bases, the second's, then the first's four
 * scales and the second's; a block's `dequant` is its own bases of field
 * 0, and each field's scales are 2 KF_LANES floats after its bases. */
#define KF_DEQUANT_FIELD (4u * KF_LANES)

/* Where a quantized lane's q lie (kf_layout.h): what every reader of one
 * needs, whether it holds a sequence (kf_seq_qlane) or a block. */
typedef struct kf_qlane {
    const void *q;        /* key 0's first field of the lane: uint16 (16 bits)
                               or bytes (8 and 12: their low 8 bits) */
    const uint16_t *high; /* 12 bits: the block's high nibbles of key 0 */
    const float *d;       /* the lane's base of field 0 (kf_lane_field) */
    size_t row;           /* floats from a key's row to the next */
    uint32_t bits, lane;
    int quats; /* quaternions (SLERP, SQUAD): the q of each one's x (fields
                  0, 3 and 6) holds its w's sign (KF_QSLERP_SIGN) */
} kf_qlane;

/* In the q of a quantized quaternion's x (a SLERP key; a SQUAD key, a or
 * b): w < 0; x's own q is the rest, one bit up (the same shifts whatever
 * the width). */
#define KF_QSLERP_SIGN 1u
/* A quantized quaternion's fields: x, y and z on the grid, w rebuilt. */
#define KF_QSLERP_GRID 3u

/* The q of field f of key k of lane `a`, the SLERP sign bit included. */
static inline uint32_t kf_lane_q(const kf_qlane *a, size_t k, uint32_t f)
{
    switch (a->bits) {
    case 8:
        return ((const uint8_t *)a->q)[4 * k * a->row + (size_t)f * KF_LANES];
    case 12: /* field f's four nibbles in one uint16, lane l's at bit 4l */
        return ((const uint8_t *)a->q)[4 * k * a->row + (size_t)f * KF_LANES] |
               (uint32_t)(a->high[2 * k * a->row + f] >> (4 * a->lane) & 15u) << 8;
    default:
        return ((const uint16_t *)a->q)[2 * k * a->row + (size_t)f * KF_LANES];
    }
}

/* Field f of key k of quantized lane `a`, whose bases and scales are at
 * a->d (field f's at d[f KF_DEQUANT_FIELD] and 2 KF_LANES on); a
 * quaternion's x without the sign of w it carries. What every reader of a
 * quantized lane computes (sampling, and the scalar kernels). */
static inline float kf_lane_field(const kf_qlane *a, size_t k, uint32_t f)
{
    uint32_t v = kf_lane_q(a, k, f);
    if (a->quats && f % KF_QSLERP_GRID == 0)
        v >>= 1;
    const float *d = a->d + (size_t)f * KF_DEQUANT_FIELD;
    return kf_dequantize((uint16_t)v, d[0], d[2 * KF_LANES]);
}

/* w of key k of such a quantized SLERP or SQUAD lane, rebuilt from its
 * x, y and z with the sign x's q holds, as the reader rebuilt it
 * (kf_unit_rest). */
float kf_lane_w(const kf_qlane *a, size_t k);

/* The quaternion of key k of such a lane whose x is field f (0: the key;
 * SQUAD's a, 3, and b, 6) whole: x, y and z, and w rebuilt from them as
 * kf_lane_w does, each read once. */
void kf_lane_quat(const kf_qlane *a, size_t k, uint32_t f, float q[4]);

/* In kf_sequence.lane: the lane's incoming fields are its outgoing ones (a
 * quantized HERMITE lane whose every incoming key tangent is its outgoing
 * one, a quantized SQUAD lane whose every b is its a: kept once,
 * kf_layout.h). The lane itself is the bits below. */
#define KF_LANE_SHARED 0x100u

static inline uint32_t kf_seq_lane(const struct kf_sequence *s)
{
    return s->lane & (KF_LANES - 1);
}

/* The first field of quantized lane s's incoming key tangents (HERMITE) or
 * of its b (SQUAD, as a SLERP key's x, y and z): after the outgoing ones
 * (a), or those themselves where KF_LANE_SHARED says they are the same. */
static inline uint32_t kf_quantized_in_field(const struct kf_sequence *s)
{
    const uint32_t half = s->interpolation == KFB_INTERP_SQUAD ? KF_QSLERP_GRID : s->components;
    return (s->lane & KF_LANE_SHARED ? 1 : 2) * half;
}

/* Quantized lane s as a kf_qlane. */
static inline kf_qlane kf_seq_qlane(const struct kf_sequence *s)
{
    const kf_qlane a = {s->qbits == 16 ? (const void *)s->quantized : (const void *)s->qbytes,
                        s->qbits == 12 ? s->qhigh : NULL,
                        s->dequant,
                        s->row,
                        s->qbits,
                        kf_seq_lane(s),
                        s->interpolation == KFB_INTERP_SLERP ||
                            s->interpolation == KFB_INTERP_SQUAD};
    return a;
}

/* Field f of key k of quantized lane s (kf_lane_field). */
static inline float kf_quantized_field(const struct kf_sequence *s, size_t k, uint32_t f)
{
    const kf_qlane a = kf_seq_qlane(s);
    return kf_lane_field(&a, k, f);
}

/* Component m of key k of quantized lane s. */
static inline float kf_quantized_float(const struct kf_sequence *s, size_t k, uint32_t m)
{
    if ((s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD) && m == 3) {
        const kf_qlane a = kf_seq_qlane(s);
        return kf_lane_w(&a, k);
    }
    return kf_quantized_field(s, k, m);
}

/* The field of a quantized SQUAD lane's x of `base` (its values, its
 * tangent_out, which is its `dequant`, or its tangent_in, NULL): the key,
 * a, or b (kf_layout.h, KF_QSQUAD_*). */
static inline uint32_t kf_qsquad_field(const struct kf_sequence *s, const float *base)
{
    return base == s->values ? 0 : base != NULL ? KF_QSLERP_GRID : kf_quantized_in_field(s);
}

/* Floats from a quantized HERMITE block's key to the length of the
 * segment from it (kf_layout.h, kf_qhermite_key): after its `fields`
 * fields of q (3c, or 2c: KF_LANE_SHARED), whose low bytes only are there
 * where q are narrower than 16 bits. */
static inline uint32_t kf_qhermite_segment(uint32_t fields, uint32_t bits)
{
    return bits == 16 ? 2 * fields : fields;
}

/* The length of the segment from valid key k of a quantized HERMITE lane,
 * as a float, 0 where none is played: in its block's row, whose start is
 * the lane's first q less its lane. */
static inline float kf_quantized_segment(const struct kf_sequence *s, size_t k)
{
    const float *data = s->qbits == 16
                            ? (const float *)(const void *)(s->quantized - kf_seq_lane(s))
                            : (const float *)(const void *)(s->qbytes - kf_seq_lane(s));
    const uint32_t fields = kf_quantized_in_field(s) + s->components;
    return data[k * s->row + kf_qhermite_segment(fields, s->qbits)];
}

/* Component m of the outgoing (incoming) tangent of valid key k of a
 * quantized HERMITE lane: the authored one, on its grid, times the length
 * of the segment from (into) the key, as the reader scaled it
 * (kf_hermite_tangents): 0 where no segment is played. The layout kept the
 * lane quantized only where this gives every scaled tangent to the bit. */
static inline float kf_quantized_tangent(const struct kf_sequence *s, int incoming, size_t k,
                                         uint32_t m)
{
    const uint32_t c = s->components;
    const float seg = kf_quantized_segment(s, incoming ? (k ? k - 1 : s->valid_count - 1) : k);
    const uint32_t f = (incoming ? kf_quantized_in_field(s) : c) + m;
    return seg > 0.0f ? kf_quantized_field(s, k, f) * seg : 0.0f;
}

/* Column m (< 2 components: the incoming tangent's, then the outgoing's) of
 * valid key j's authored tangents, of a HERMITE sequence that has them:
 * as floats, or quantized by the layout, in a quantized lane's fields
 * (outgoing, then incoming, after the values) or apart (key_tangent_dequant:
 * per column its base, then its scale), which gives back the same float. */
static inline float kf_key_tangent(const struct kf_sequence *s, size_t j, uint32_t m)
{
    const size_t w = 2 * (size_t)s->components;
    if (kf_quantized(s)) {
        const uint32_t c = s->components;
        return kf_quantized_field(s, j, m < c ? kf_quantized_in_field(s) + m : m);
    }
    if (s->interpolation == KFB_INTERP_HERMITE && s->key_tangent_dequant) {
        const float *d = s->key_tangent_dequant + 2 * (size_t)m;
        return kf_dequantize(s->qkey_tangents[j * w + m], d[0], d[1]);
    }
    return s->key_tangents[j * w + m];
}

/* Key k of `base` (s's values, tangent_out or tangent_in) as `components`
 * contiguous floats: where they are, or gathered from a block's lane into
 * `buf` (KF_BLOCK_COMPONENTS floats). A quantized HERMITE lane's tangents
 * are computed (kf_quantized_tangent): its tangent_out is the lane's
 * bases and scales, and its tangent_in NULL, which tell the three apart. */
static inline const float *kf_key_floats(const struct kf_sequence *s, const float *base, size_t k,
                                         float *buf)
{
    if (kf_quantized(s)) {
        if (s->interpolation == KFB_INTERP_HERMITE && base != s->values) {
            for (uint32_t m = 0; m < s->components; m++)
                buf[m] = kf_quantized_tangent(s, base == NULL, k, m);
            return buf;
        }
        if (s->interpolation == KFB_INTERP_SQUAD) {
            const kf_qlane a = kf_seq_qlane(s);
            kf_lane_quat(&a, k, kf_qsquad_field(s, base), buf);
            return buf;
        }
        for (uint32_t m = 0; m < s->components; m++)
            buf[m] = kf_quantized_float(s, k, m);
        return buf;
    }
    if (!s->row)
        return base + k * s->components;
    const float *p = base + k * s->row;
    for (uint32_t m = 0; m < s->components; m++)
        buf[m] = p[(size_t)m * KF_LANES];
    return buf;
}

/* Component m of key k of `base` (s's values, tangent_out or tangent_in). */
static inline float kf_key_float(const struct kf_sequence *s, const float *base, size_t k,
                                 uint32_t m)
{
    if (kf_quantized(s)) {
        if (s->interpolation == KFB_INTERP_HERMITE && base != s->values)
            return kf_quantized_tangent(s, base == NULL, k, m);
        if (s->interpolation == KFB_INTERP_SQUAD) {
            float q[4];
            const kf_qlane a = kf_seq_qlane(s);
            kf_lane_quat(&a, k, kf_qsquad_field(s, base), q);
            return q[m];
        }
        return kf_quantized_float(s, k, m);
    }
    return s->row ? base[k * s->row + (size_t)m * KF_LANES] : base[k * s->components + m];
}

struct kf_controller {
    const char *name;
    double speed;
    double weight;
    double active_start;
    double active_end;
    double ref_world;
    double ref_sequence;
};

/* kf_controller_position and kf_controller_is_active of a controller (not
 * NULL), inline where a player updates: a pose then runs no code apart
 * from the player's and the kernels'. Finite arguments give a finite
 * position: speed 0 pauses whatever the time difference, and a position
 * beyond the double range saturates at +-DBL_MAX (ref_sequence is always
 * finite, so the sum is never inf - inf). */
static inline double kf_controller_position_at(const kf_controller *c, double world_time)
{
    if (c->speed == 0.0)
        return c->ref_sequence;
    const double p = c->ref_sequence + c->speed * (world_time - c->ref_world);
    if (isinf(p))
        return p > 0 ? DBL_MAX : -DBL_MAX;
    return p;
}

static inline int kf_controller_active_at(const kf_controller *c, double world_time)
{
    return c->active_start == c->active_end ||
           (world_time >= c->active_start && world_time < c->active_end);
}

typedef struct kf_target {
    const char *name;
    uint32_t property;
    uint32_t components;
    uint32_t value_offset; /* into a player's value array */
    uint32_t blend;        /* KF_BLEND_*: how several tracks make its value */
} kf_target;

/* An X3D interpolator (kfb_interpolator, formats/kfb.md). */
struct kf_interpolator {
    const char *name;
    uint32_t node; /* KFB_NODE_* */
    uint32_t key_count;
    uint32_t value_count; /* keyValue entries; EaseInEaseOut: easeInEaseOut */
    uint32_t velocity_count;
    uint32_t flags; /* KFB_INTERPOLATOR_* */
    const float *keys;
    const float *values;
    const float *velocities; /* NULL when velocity_count is 0 */
    const float *derived;    /* kf_interpolator_derived_count floats, or NULL */
};

typedef struct kf_track {
    uint32_t animator_kind;
    uint32_t animator;
    uint32_t controller; /* KF_NO_INDEX: none */
    uint32_t target;
    double cycle_interval; /* interpolator tracks; sequence tracks 0 */
    uint32_t loop;
    uint32_t ease; /* KF_NO_INDEX: none */
} kf_track;

/* An X3D follower definition. The initial fields are stored as authored
 * (axis-angle, RGB); orientation nodes also carry them as quaternions. */
struct kf_follower {
    const char *name;
    uint32_t node;                    /* KFB_FOLLOWER_* */
    uint32_t element_count;           /* 1 for single-valued nodes */
    float duration;                   /* chasers: duration; dampers: tau */
    uint32_t order;                   /* dampers 0..5; chasers 0 */
    float tolerance;                  /* dampers -1 or >= 0; chasers -1 */
    const float *initial_value;       /* element_count * field components */
    const float *initial_destination; /* as many */
    const float *rotations;           /* orientation: value, destination quaternions; else NULL */
};

/* The objects of an animation, as both a writer and a loaded kf_anim hold
 * them; the encoder writes one of these, the loader produces one. */
typedef struct kf_objects {
    uint32_t count[KF_KIND_COUNT];
    struct kf_sequence *sequences;
    struct kf_controller *controllers;
    kf_target *targets;
    kf_track *tracks;
    struct kf_interpolator *interpolators;
    struct kf_follower *followers;
} kf_objects;

/* The name of object i of `kind`; NULL for tracks, which have none. */
const char *kf_objects_name(const kf_objects *o, kf_kind kind, uint32_t i);

struct kf_anim {
    kf_allocator allocator;
    size_t size;       /* of its allocation: structures and names (the
                          arrays are in its layout, kf_layout.h) */
    size_t file_bytes; /* of the file it was loaded from: the player bound */
    kf_objects objects;
    uint32_t value_count; /* sum of target components */
    /* The player's blocks (kf_layout.h), a separate allocation; NULL when
     * there are no sequences. */
    const struct kf_layout *layout;
};

/* Where a loaded anim's parts lie in its one allocation (kf_read.c), from
 * the object counts and the raw sizes of the string and data sections; 0 if
 * the total does not fit in a size_t. The writer uses it to foresee the
 * loaded size, and so the player bound (kf.h). */
typedef struct kf_anim_layout {
    size_t total; /* the anim's allocation: structures and names */
    size_t anim, sequences, controllers, targets, tracks, interpolators, followers, strings;
    /* The load's scratch (freed once the playback layout, kf_layout.h,
     * has copied what the objects keep): DATA, the arcs and tangents the
     * reader computes, and what it learned of each sequence's values
     * (kf_value_facts). */
    size_t scratch_total, data, computed, facts;
} kf_anim_layout;
int kf_anim_layout_of(const uint32_t count[KF_KIND_COUNT], size_t data_size, size_t strings_size,
                      size_t computed_floats, kf_anim_layout *l);

/* The bytes of a player of objects `o` loaded from a file of `file_bytes`
 * (KF_OK), or KF_ERROR_LIMIT past the bound (kf_player.c). */
kf_result kf_objects_player_size(const kf_objects *o, size_t file_bytes, size_t *bytes);

/* What the reader learned of a column of integers q (an encoded array's
 * column, formats/kfb.md) while decoding it, where each value is exactly
 * q * 2^exponent (`integers`: |q| < 2^24 and a normal product no float rounds):
 * the least and greatest q, and the OR of every q XOR the first key's,
 * whose trailing zeros are those all q less the least share. From these
 * the playback layout finds a lane's grid without reading its floats
 * (kf_layout.c). */
typedef struct kf_column_facts {
    int32_t least, most;
    uint32_t differ;
    int16_t exponent;
    uint8_t integers;
} kf_column_facts;

/* Columns of a sequence's values the reader keeps facts of: vectors and
 * quaternions (a wider sequence's grid is found from its floats); and of
 * the array a quantized lane keeps beside them: SQUAD's intermediates a,
 * a HERMITE vector's key tangents (two columns a component). */
#define KF_FACT_COLUMNS         4u
#define KF_TANGENT_FACT_COLUMNS (2u * KF_FACT_COLUMNS)

typedef struct kf_value_facts {
    kf_column_facts column[KF_FACT_COLUMNS];
    kf_column_facts tangent[KF_TANGENT_FACT_COLUMNS];
    /* Four columns whose last the file stored as the rest of unit length
     * (KFB_COLUMN_UNIT): every w is what x, y and z leave, rebuilt; of the
     * values, and of SQUAD's a. */
    uint8_t w_rebuilt, tangent_w_rebuilt;
    /* SLERP: the values' w, rebuilt, are left for the layout to compute
     * where a lane keeps them as floats; until then each holds only its
     * sign, in its sign bit (a quantized lane keeps only that): 0.0 or
     * -0.0, or -1.0 where the decoder's conversion made it so. */
    uint8_t w_pending;
    /* HERMITE: the scaled tangents are what a quantized lane computes
     * (kf_hermite_exact); and they are left for the layout to compute
     * where a lane keeps them as floats (its room given, not yet filled). */
    uint8_t hermite_exact, tangents_pending;
    /* A LINEAR or SPLINE sequence's values, and SPLINE's tangents, all
     * below 2^KF_NARROW_EXPONENT in magnitude, as their checks found them. */
    uint8_t narrow;
} kf_value_facts;

/* The facts of a column of `rows` integers q at x (their words, two's
 * complement) at scale 2^(exponent - KFB_COLUMN_EXPONENT_BIAS) (kf_read.c). */
void kf_column_facts_of(const uint32_t *x, size_t rows, uint32_t exponent, kf_column_facts *f);

/* kf.h's bound on what loading a file of `file_bytes` allocates at once
 * (saturating). */
size_t kf_load_budget(size_t file_bytes);
/* What a load allocates at most at once before its playback layout (the
 * object records' copy, the anim's allocation `l`, its decoding state, the
 * name and binding indices it checks uniqueness with), from the counts and
 * raw section sizes; SIZE_MAX if that overflows. `encoded`: a version 2
 * file, whose arrays are decoded (kf_read.c). The layout's own bytes come
 * on top of l->total (kf_layout_build, kf_layout_measure). */
size_t kf_load_peak(const uint32_t count[KF_KIND_COUNT], size_t objects_size,
                    const kf_anim_layout *l, size_t data_size, int encoded);

/* ---- validation (kf_validate.c) ---------------------------------------- */

/* A SLERP/SQUAD key is stored as a unit quaternion: |q|^2 (of the floats,
 * in double) within this of 1. The builder keeps a key that is, and
 * normalizes one that is not; the reader refuses one that is not. */
#define KF_UNIT_QUAT_TOLERANCE 1e-6

/* Checks a sequence in stored (rotated) form; errors name authored key
 * indices. Used before writing and when reading. The
 * header check reads no array: it establishes the sizes the arrays have. */
kf_result kf_validate_sequence_header(const struct kf_sequence *s, kf_error *error);
kf_result kf_validate_sequence(const struct kf_sequence *s, kf_error *error);
/* kf_validate_sequence for what a reader knows already: with
 * `times_known`, the key times (the same array, key count and valid
 * count) passed it in another sequence, as shared times do; with
 * `values_known`, every value is finite and a quaternion a unit one by
 * the way they were stored (kf_value_facts: integers on a grid, or
 * SLERP's and SQUAD's w rebuilt as the rest of unit length from x, y and z
 * whose squares sum to at most 1, |q|^2 within 2^-22 of 1, well inside
 * KF_UNIT_QUAT_TOLERANCE). Only the rest is checked. */
kf_result kf_validate_sequence_known(const struct kf_sequence *s, int times_known, int values_known,
                                     int *narrow, kf_error *error);
/* Values and stored tangents below 2^KF_NARROW_EXPONENT in magnitude
 * keep a lane from needing the saturating kernels (kf_layout.c, is_wide:
 * a value plus 4/27 of two tangents stays below FLT_MAX / 2), and a SPLINE
 * sequence's values within KF_TANGENT_VALUE_LIMIT (FLT_MAX / 32, the
 * greatest float below 2^123). The checks that find every float of an
 * array finite tell with no further pass whether all lie below it
 * (`narrow`, or NULL: 1 where they do; 0 where not, where the values were
 * known, and for quaternions). */
#define KF_NARROW_EXPONENT 123
/* The largest magnitude of n finite floats. */
float kf_max_abs(const float *v, size_t n);
/* Checks the precomputed arrays of a sequence that passed the above (its
 * arcs only where it has them: a reader that computes them leaves them out). */
kf_result kf_validate_tangents(const struct kf_sequence *s, kf_error *error);
/* kf_validate_tangents for a reader that knows the outgoing array (SQUAD's
 * a) finite and unit by the way it was stored (`out_known`, as
 * kf_validate_sequence_known's values); `narrow` as there, of both arrays
 * (0 for SQUAD's). */
kf_result kf_validate_tangents_known(const struct kf_sequence *s, int out_known, int *narrow,
                                     kf_error *error);
/* Checks the optional arrays of a sequence that passed the above: TCB only
 * on SPLINE/SQUAD, each value in [-1, 1], not all 0; distance tables only on
 * LINEAR/SPLINE, starting at 0, finite and non-decreasing. */
kf_result kf_validate_tcb(const struct kf_sequence *s, kf_error *error);
/* HERMITE has authored key tangents, all finite (known so, with
 * `finite_known`, by the way they were stored); nothing else has any. */
kf_result kf_validate_key_tangents(const struct kf_sequence *s, int finite_known, kf_error *error);
/* Key values (and velocities) whose tangents the writer computes stay
 * within +-KF_TANGENT_VALUE_LIMIT: a tangent is at most 2 (time scale) x
 * 2 x 4 (Kochanek-Bartels weights) x 2 x the limit = FLT_MAX, so the
 * precompute stays in float range. kfc refuses sources beyond it and the
 * loader refuses such files, by this one rule (kfc could not write one). */
#define KF_TANGENT_VALUE_LIMIT (FLT_MAX / 32.0f)
/* The largest magnitude among n integer columns' values from their facts;
 * -1 where a column is not one (the reader's bound for the range check
 * below, and the layout's for a lane's width). */
double kf_column_facts_most(const kf_column_facts *f, uint32_t n);
/* `values_narrow`: the caller found every value below 2^KF_NARROW_EXPONENT
 * (kf_validate_sequence_known's `narrow`), so within the limit above.
 * `key_tangents_most`: HERMITE's largest key tangent magnitude where the
 * caller knows a bound of it (kf_column_facts_most), else negative. */
kf_result kf_validate_tangent_range(const struct kf_sequence *s, int values_narrow,
                                    double key_tangents_most, kf_error *error);
kf_result kf_validate_arc_length(const struct kf_sequence *s, kf_error *error);
kf_result kf_validate_controller(const struct kf_controller *c, kf_error *error);
/* Checks a track's TimeSensor fields against its animator kind; the
 * animator, controller and target indices must have been checked. */
kf_result kf_validate_track(const kf_track *t, const kf_objects *o, kf_error *error);
/* The part of kf_validate_track that depends on the target: no sequence
 * track plays a KF_BLEND_LATEST target. */
kf_result kf_validate_track_blend(uint32_t animator_kind, const kf_target *target, kf_error *error);

/* Checks a follower in stored form (node, counts, parameters, initial
 * fields, quaternions). The header check reads no array. */
kf_result kf_validate_follower_header(const struct kf_follower *f, kf_error *error);
kf_result kf_validate_follower(const struct kf_follower *f, kf_error *error);
/* One initial field (`v`: the stored floats of field KF_FIELD_INITIAL_*). */
kf_result kf_validate_follower_field(const struct kf_follower *f, const float *v, kf_field field,
                                     kf_error *error);

/* ---- followers (kf_follower_node.c) ------------------------------------ */

/* Floats in one authored field (initial_value) and in one runtime value. */
uint32_t kf_follower_field_floats(const struct kf_follower *f);
uint32_t kf_follower_value_floats(const struct kf_follower *f);
/* Floats of precomputed quaternions stored with the follower (0 or 8). */
uint32_t kf_follower_rotation_floats(uint32_t node);

/* ---- properties (kf_property.c) --------------------------------------- */

/* Applies the property's M3G clamping to a blended value, in place. */
void kf_property_clamp(uint32_t property, uint32_t components, float *value);
/* Whether kf_property_clamp can change a value of `property`. */
int kf_property_clamps(uint32_t property);

/* ---- sequences (kf_sequence.c) ----------------------------------------- */

/* Reads stored tangent arrays for sampling: the number of floats each of
 * tangent_out / tangent_in holds (0 when the interpolation has none). */
uint32_t kf_sequence_tangent_count(uint32_t interpolation, uint32_t valid_count,
                                   uint32_t components);
/* HERMITE over valid keys 0 .. count-1: each key's authored tangents
 * (key_tangents: in, then out, `components` each) times the length of the
 * segment each shapes, in double, rounded once; tangents that shape no
 * segment (CONSTANT's first in and last out) are 0. Writers of 2.1 and
 * earlier store these; the builder and the reader of every version compute
 * them (kfb_format.h, kfb_sequence_computed_floats) with this one function.
 * Callers hold the products within the float range
 * (kf_validate_tangent_range). */
void kf_hermite_tangents(const float *times, const float *key_tangents, uint32_t count,
                         uint32_t components, double duration, uint32_t repeat, float *out,
                         float *in);
/* Whether every tangent kf_hermite_tangents makes of the same arguments is
 * also, to the bit, the key tangent times its segment's length rounded to
 * float first (0 where that length is 0): what a quantized lane computes
 * (kf_quantized_tangent), so that the layout may keep the lane so. Asked
 * without the products where a segment's length is a float (all W's);
 * with no key_tangents, whether every segment's length is one. */
int kf_hermite_exact(const float *times, const float *key_tangents, uint32_t count,
                     uint32_t components, double duration, uint32_t repeat);
/* kf_sequence_sample the slow and exact way: docs/math.md §1.4 in double
 * precision through libm, no cursor. The reference the fast path
 * (kf_sample.h) is measured against (tests/test_sequence_accuracy.c). */
void kf_sequence_sample_exact(const struct kf_sequence *s, double time, float *out);

/* The number of floats `arcs` holds (0 when the interpolation has none). */
uint32_t kf_sequence_arc_count(uint32_t interpolation, uint32_t valid_count);
/* Everything precomputed, as stored at kfb_sequence.tangents: tangent_out,
 * tangent_in, arcs, back to back. 64-bit: counts come from files. */
uint64_t kf_sequence_derived_count(uint32_t interpolation, uint32_t valid_count,
                                   uint32_t components);

/* ---- segment curves (kf_derivative.c) ----------------------------------- */

/* Duration of the segment that starts at valid key i (the last one's is the
 * wrap interval to the first key one period later). */
double kf_sequence_segment_duration(const struct kf_sequence *s, uint32_t i);

/* The curve of one LINEAR or SPLINE segment, P(u) for u in [0, 1]. */
typedef struct kf_curve {
    const float *a, *b;   /* start and end values */
    const float *ta, *tb; /* SPLINE: outgoing tangent of a, incoming of b; else NULL */
    uint32_t components;
    int spline;
    /* Where a, b, ta, tb are gathered from a block's lane (kf_key_floats):
     * a curve is not to be copied. */
    float keys[4][KF_BLOCK_COMPONENTS];
} kf_curve;

/* The segment that starts at valid key `key` of a LINEAR/SPLINE sequence. */
void kf_curve_of(const struct kf_sequence *s, uint32_t key, kf_curve *curve);
/* The order-th derivative (0, 1 or 2) of P at u, times `scale`, as float. */
void kf_curve_eval(const kf_curve *curve, int order, double u, double scale, float *out);
/* |P'(u)|. */
double kf_curve_speed(const kf_curve *curve, double u);

/* Where sequence time t is on the curve, as sampling places it (kf_locate),
 * but telling a key time (u = 0 of the segment starting there) from a held
 * value: on_curve 0 means the value is key `key`'s and stays so around t
 * (before the first or from the last valid key in CONSTANT, a single key,
 * a NaN or, in LOOP, infinite time). `cursor` may be NULL. */
typedef struct kf_curve_position {
    int on_curve;
    uint32_t key;  /* the segment's start key (valid index), or the held key */
    double u;      /* in [0, 1) */
    double length; /* the segment's duration, > 0 when on_curve */
} kf_curve_position;

void kf_curve_locate(const struct kf_sequence *s, double t, kf_cursor *cursor,
                     kf_curve_position *pos);

/* ---- arc length (kf_arclength.c) ---------------------------------------- */

/* Fills the distance table of a LINEAR/SPLINE sequence whose keys and
 * tangents are final (kfb_arc_length_floats() floats). */
void kf_arc_length_fill(const struct kf_sequence *s, float *table);
/* ---- X3D interpolators (kf_interpolator_validate.c) -------------------- */

/* Floats in the `derived` array of an interpolator that passed
 * kf_validate_interpolator_header (0: none). */
uint64_t kf_interpolator_derived_count(const struct kf_interpolator *p);

/* The semantic rules of an interpolator in stored form, shared by writer
 * and loader. The header check reads no array and establishes the sizes the
 * arrays have; errors name the field and entry (kf_error.field / item). */
kf_result kf_validate_interpolator_header(const struct kf_interpolator *p, kf_error *error);
kf_result kf_validate_interpolator(const struct kf_interpolator *p, kf_error *error);
kf_result kf_validate_interpolator_derived(const struct kf_interpolator *p, kf_error *error);

/* The track's TimeSensor: position -> fraction (kf_interpolator.c). */
double kf_track_fraction(const kf_track *track, double position);

#endif /* KF_PRIVATE_H */
