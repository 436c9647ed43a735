/* SPDX-License-Identifier: MIT */
/*
 * kfb_format.h - the on-disk layout of a .kfb file.
 *
 * This header is the single definition of the binary format: record
 * layouts, codes, and the functions below that size every DATA array. The
 * writer (offline/kf_write.c) and the reader (runtime/kf_read.c) both build
 * on it; kfb_codes.h ties its codes to kf.h's enums; formats/kfb.md explains
 * the format in prose.
 *
 * Everything after the 8 identifier bytes is a sequence of little-endian
 * 32-bit words: every record below is a struct made only of 32-bit fields,
 * so a record is converted between host and file order one word at a time
 * (kfb_word_swap) and never depends on compiler padding.
 */
#ifndef KFB_FORMAT_H
#define KFB_FORMAT_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* File header                                                              */
/* ------------------------------------------------------------------------ */

/*
 * The identifier catches the usual transfer damage, as PNG's and M3G's do:
 * 0xAB has the high bit set (7-bit channels), "\r\n" catches line-ending
 * conversion in either direction, 0x1A stops a DOS `type`, the final "\n"
 * catches "\n" -> "\r\n".
 */
#define KFB_IDENTIFIER                                                                             \
    "\xAB"                                                                                         \
    "KFB\r\n\x1A\n"
#define KFB_IDENTIFIER_SIZE 8u

#define KFB_VERSION_MAJOR 2u
#define KFB_VERSION_MINOR 7u
/* Version 1 files (1.0, 1.1) store every data array plain; a reader still
 * reads them (formats/kfb.md, Versioning). */
#define KFB_VERSION_1_MINOR 1u

/* A version as kfb_header.version holds it, and its two parts. */
#define KFB_VERSION(major, minor) ((uint32_t)(major) << 16 | (uint32_t)(minor))
#define KFB_MAJOR_OF(version)     ((uint32_t)(version) >> 16)
#define KFB_MINOR_OF(version)     (0xFFFFu & (uint32_t)(version))
/* The version of major 2 that brought each of its features (formats/kfb.md,
 * Versioning), for kfb_has. */
#define KFB_SINCE_ZIGZAG    KFB_VERSION(2, 1) /* zigzag differences, predictors, unit columns */
#define KFB_SINCE_KEY_GUESS KFB_VERSION(2, 2) /* KFB_PREDICT_KEYS; no stored HERMITE tangents */
#define KFB_SINCE_PIECES    KFB_VERSION(2, 3) /* DATA's zlib stream as pieces (zero runs) */
#define KFB_SINCE_RUNS      KFB_VERSION(2, 4) /* DATA stored as its pieces, KFB_COMPRESSION_RUNS */
#define KFB_SINCE_ROWS      KFB_VERSION(2, 5) /* arrays held as rows, KFB_COLUMN_ROWS */
#define KFB_SINCE_F64_CYCLE KFB_VERSION(2, 6) /* kfb_track's cycle_interval f64 */
#define KFB_SINCE_LATEST    KFB_VERSION(2, 7) /* KFB_TARGET_LATEST */
/* A new minor version brings a feature: its line goes above with it. */
_Static_assert(KFB_SINCE_LATEST == KFB_VERSION(KFB_VERSION_MAJOR, KFB_VERSION_MINOR),
               "the newest feature is the current version's");
/* A file of `version` has what `since` brought: a later major version may
 * have dropped it, so only the same major counts. */
static inline int kfb_has(uint32_t version, uint32_t since)
{
    return KFB_MAJOR_OF(version) == KFB_MAJOR_OF(since) && version >= since;
}

/*
 * Zero runs (2.3; formats/kfb.md, "Zero runs"). The zlib stream of a
 * compressed DATA section holds the section as pieces: a word L, a word Z,
 * then L words of the section, which are followed in the section by Z zero
 * words that the stream leaves out. Byte planes of quantized keys and
 * constant columns are mostly zero words, which inflating would otherwise
 * write one byte at a time. A writer leaves out every run of at least
 * KFB_ZERO_RUN_WORDS zero words and no shorter one, and closes a piece
 * whenever it holds KFB_PIECE_WORDS words of the section, so that it may
 * produce the stream a piece at a time -- unless the section would then
 * declare more than a reader accepts (kfb_zlib_ratio_ok): then it leaves
 * out no run. A reader needs only L + Z >= 1 and the pieces to end where
 * the section does. An uncompressed section is stored as it is; from 2.4
 * on, DATA may also be stored as its pieces, not deflated
 * (KFB_COMPRESSION_RUNS: the same pieces and the same ratio rule, a
 * section a reader places without inflating anything).
 */
#define KFB_ZERO_RUN_WORDS 16u
#define KFB_PIECE_WORDS    16384u
/* A piece of `literal` words then `zeros` zero words is one a reader
 * accepts where `words_left` words of the section remain: not empty, and
 * within them. */
static inline int kfb_piece_fits(uint32_t literal, uint32_t zeros, uint64_t words_left)
{
    return (uint64_t)literal + zeros != 0 && (uint64_t)literal + zeros <= words_left;
}

/* zlib cannot expand a stream by more than about 1032:1: a compressed
 * section declaring more raw bytes than KFB_ZLIB_MAX_RATIO * stored +
 * KFB_ZLIB_RATIO_SLACK is refused, which bounds what a small file makes a
 * reader allocate (zero runs left out included: a writer keeps within it). */
#define KFB_ZLIB_MAX_RATIO   1032u
#define KFB_ZLIB_RATIO_SLACK 64u
static inline int kfb_zlib_ratio_ok(uint64_t raw_size, uint64_t stored_size)
{
    return raw_size <= stored_size * KFB_ZLIB_MAX_RATIO + KFB_ZLIB_RATIO_SLACK;
}

/*
 * Encoded arrays (version 2; formats/kfb.md, "Encoded arrays"). A
 * sequence's arrays other than its key times are stored column by column
 * (`stride` columns: the components of a key), each word (the float's
 * bits, or an integer, as the column's header says) less its prediction
 * from the words before it in its column, modulo 2^32 -- the incoming
 * tangents less the outgoing ones at the same index -- and the differences
 * (zigzag-coded from 2.1 on: small negatives become small odd numbers)
 * split into KFB_PLANES byte planes, byte p (bits 8p..8p+7) of every
 * difference in plane p, planes in order, each `count` bytes. Neighbouring
 * keys share sign, exponent and high mantissa bits: the differences have
 * zero high bytes, and the planes put them together for zlib.
 */
#define KFB_PLANES 4u
/* Words of DATA an encoded array of `count` floats takes: a header word per
 * column (`stride` columns; 0 for an array stored against another: the
 * incoming tangents), then the planes; nothing when it is empty. */
static inline uint64_t kfb_encoded_words(uint64_t count, uint64_t stride)
{
    return count ? count + stride : 0;
}
/* An encoded array without a reference array starts with a header word
 * per column. Bits 0-15, h: 0, the column's words are the floats' bits;
 * h != 0, they are integers q (two's complement) and each float is exactly
 * q * 2^(h - KFB_COLUMN_EXPONENT_BIAS), |q| < 2^24. Quantized keys (kfc -e)
 * and many plain columns whose values share an exponent are exact integers
 * at some scale, and fixed point predicts far better than float bits.
 * KFB_COLUMN_FLOAT_BITS stands for h = 0 in code; it is not stored.
 * From 2.1 on, bits 16-17 choose the predictor (KFB_PREDICT_*) and bit 18
 * (KFB_COLUMN_UNIT) says the column is the rest of a unit vector: its words
 * are signs (0: +, 1: -) and each value is the sign times
 * sqrt(1 - the sum of the other columns' squares), kf_unit_rest. */
#define KFB_COLUMN_EXPONENT_BIAS   1024
#define KFB_COLUMN_FLOAT_BITS      (-1000000)
#define KFB_COLUMN_EXPONENT_MASK   0xFFFFu
#define KFB_COLUMN_PREDICTOR_SHIFT 16
#define KFB_COLUMN_PREDICTOR_MASK  (3u << KFB_COLUMN_PREDICTOR_SHIFT)
#define KFB_COLUMN_UNIT            (1u << 18)
/* The bits a 2.1 header may have set; 2.0's headers have only h. */
#define KFB_COLUMN_HEADER_BITS                                                                     \
    (KFB_COLUMN_EXPONENT_MASK | KFB_COLUMN_PREDICTOR_MASK | KFB_COLUMN_UNIT)
/* From 2.5 on, an array whose every header is exactly KFB_COLUMN_ROWS holds
 * its `count` floats after the headers as they are, in rows (the f32 bits,
 * no prediction, no planes); an incoming tangent array after outgoing ones
 * so held is held the same way. A writer stores so in a DATA section it does
 * not compress, where prediction would serve nothing, and a reader then
 * reads the floats where they lie. */
#define KFB_COLUMN_ROWS (1u << 19)

/* A column's predictor: the word expected at row i from the words w1, w2,
 * w3 before it (mod 2^32). LINEAR extrapolates the last two (the only one
 * version 2.0 has), PREVIOUS repeats the last, QUADRATIC extrapolates the
 * last three (smooth motion sampled densely). Rows without enough history
 * use the longest predictor they can: 0, then w1, then 2 w1 - w2.
 * KEYS (2.2) predicts a column of the outgoing tangents (SQUAD: of the
 * intermediates a) from the sequence's decoded keys instead, with
 * kfb_key_guess: only there, and only on float bits (h = 0). */
enum {
    KFB_PREDICT_LINEAR = 0,
    KFB_PREDICT_PREVIOUS = 1,
    KFB_PREDICT_QUADRATIC = 2,
    KFB_PREDICT_KEYS = 3,
    KFB_PREDICT_COUNT = 4
};

static inline uint32_t kfb_predicted(uint32_t predictor, size_t row, uint32_t w1, uint32_t w2,
                                     uint32_t w3)
{
    if (row == 0)
        return 0;
    if (row == 1 || predictor == KFB_PREDICT_PREVIOUS)
        return w1;
    if (row == 2 || predictor == KFB_PREDICT_LINEAR)
        return 2u * w1 - w2;
    return 3u * w1 - 3u * w2 + w3;
}

/* Zigzag coding of a difference (2.1): 0, -1, 1, -2 ... become 0, 1, 2, 3 ...,
 * so the high byte planes of small negative differences are zero too. */
static inline uint32_t kfb_zigzag(uint32_t d)
{
    return (d << 1) ^ (0u - (d >> 31));
}

static inline uint32_t kfb_unzigzag(uint32_t z)
{
    return (z >> 1) ^ (0u - (z & 1u));
}

/* Probe values: a writer with the wrong byte order or float format is caught
 * before any real field is trusted (as Lua's LUAC_INT / LUAC_NUM). */
#define KFB_PROBE_INT   0x04030201u /* bytes 01 02 03 04 on disk */
#define KFB_PROBE_FLOAT (-370.5f)   /* bits 0xC3B94000 */

typedef struct kfb_header {
    uint32_t version;       /* (major << 16) | minor */
    uint32_t probe_int;     /* KFB_PROBE_INT */
    float probe_float;      /* KFB_PROBE_FLOAT */
    uint32_t section_count; /* KFB_SECTION_COUNT */
    uint32_t file_size;     /* total bytes, identifier included */
    uint32_t header_crc;    /* CRC-32 of the identifier and the 5 words above */
} kfb_header;

#define KFB_HEADER_SIZE (KFB_IDENTIFIER_SIZE + (uint32_t)sizeof(kfb_header))
/* The file offset of a header field: where a reader reports a fault in it.
 * KFB_HEADER_AT(header_crc) is also how many bytes the header CRC covers. */
#define KFB_HEADER_AT(field) (KFB_IDENTIFIER_SIZE + (uint32_t)offsetof(kfb_header, field))

/* ------------------------------------------------------------------------ */
/* Sections                                                                 */
/* ------------------------------------------------------------------------ */

/*
 * A file has exactly KFB_SECTION_COUNT sections, in this order. Each is a
 * kfb_section_header, `stored_size` bytes, then a CRC-32 word over the
 * section header and the stored bytes.
 */
enum {
    KFB_SECTION_STRINGS = 0, /* NUL-terminated UTF-8 names, referenced by byte offset */
    KFB_SECTION_OBJECTS = 1, /* object records (kfb_object + body) */
    KFB_SECTION_DATA = 2,    /* float32 arrays, referenced by word offset */
    KFB_SECTION_COUNT = 3
};

#define KFB_FOURCC(a, b, c, d)                                                                     \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/* Tag of section i: "STRS", "OBJS", "DATA". */
#define KFB_TAG_STRINGS KFB_FOURCC('S', 'T', 'R', 'S')
#define KFB_TAG_OBJECTS KFB_FOURCC('O', 'B', 'J', 'S')
#define KFB_TAG_DATA    KFB_FOURCC('D', 'A', 'T', 'A')

enum {
    KFB_COMPRESSION_NONE = 0,
    KFB_COMPRESSION_ZLIB = 1, /* a zlib stream (RFC 1950) of exactly raw_size bytes */
    /* (2.4, DATA only) the section's pieces (KFB_ZERO_RUN_WORDS), not
     * deflated: its zero runs are left out, and nothing is to inflate */
    KFB_COMPRESSION_RUNS = 2
};
/* A zlib stream's bytes around its deflate data: the 2-byte header (CMF,
 * FLG) and the 4-byte Adler-32 trailer. */
#define KFB_ZLIB_OVERHEAD 6u

typedef struct kfb_section_header {
    uint32_t tag;         /* KFB_TAG_* of this position */
    uint32_t compression; /* KFB_COMPRESSION_* */
    uint32_t stored_size; /* bytes that follow in the file */
    uint32_t raw_size;    /* bytes after decompression (== stored_size if NONE) */
} kfb_section_header;

#define KFB_SECTION_HEADER_SIZE ((uint32_t)sizeof(kfb_section_header))
#define KFB_SECTION_CRC_SIZE    4u

/* ------------------------------------------------------------------------ */
/* Objects                                                                  */
/* ------------------------------------------------------------------------ */

/* Every object in the OBJECTS section starts with this; `size` bytes of body
 * follow. Version 1.0 bodies have exactly the size of their record struct. */
typedef struct kfb_object {
    uint32_t type; /* KFB_OBJECT_* */
    uint32_t size; /* body size in bytes */
} kfb_object;

enum {
    KFB_OBJECT_SEQUENCE = 1,     /* kfb_sequence */
    KFB_OBJECT_CONTROLLER = 2,   /* kfb_controller */
    KFB_OBJECT_TARGET = 3,       /* kfb_target */
    KFB_OBJECT_TRACK = 4,        /* kfb_track */
    KFB_OBJECT_INTERPOLATOR = 5, /* kfb_interpolator */
    KFB_OBJECT_FOLLOWER = 6      /* kfb_follower */
};

/* "No reference": an optional index or data offset that is absent. */
#define KFB_NONE 0xFFFFFFFFu

/* A float64 split in two words, low word first (little-endian order). */
typedef struct kfb_f64 {
    uint32_t lo, hi;
} kfb_f64;

/* Interpolation and repeat codes (M3G's order of mention). */
enum {
    KFB_INTERP_STEP = 0,
    KFB_INTERP_LINEAR = 1,
    KFB_INTERP_SPLINE = 2,
    KFB_INTERP_SLERP = 3,
    KFB_INTERP_SQUAD = 4,
    KFB_INTERP_HERMITE = 5, /* since 1.1: explicit tangents per key */
    KFB_INTERP_COUNT = 6
};

/*
 * The guess KFB_PREDICT_KEYS makes for valid key i's outgoing tangent
 * (SPLINE, HERMITE) or squad intermediate a (SQUAD), all components, from
 * the `rows` valid keys of `stride` components (`keys`, decoded), their
 * neighbours taken cyclically. A tangent is close to the central difference
 * (n - p) / 2 (Catmull-Rom's between evenly spaced keys, to the last bits);
 * an intermediate to q + (2q - p - n) / 4 normalized (squad's
 * q exp((log(q*p) - log(q*n)) / 4) to first order, p and n in q's
 * hemisphere, and a unit quaternion like it). A guess, not the tangent:
 * the file stores the tangent's bits less the guess's, so kfc's precompute
 * stays the only one (formats/kfb.md, "Encoded arrays"). Every step is a
 * float operation whose result is assigned, so writer and reader agree to
 * the bit wherever float arithmetic is IEEE single.
 */
static inline float kfb_central_guess(const float *keys, size_t rows, size_t stride, size_t i,
                                      size_t m)
{
    const float *p = keys + (i ? i - 1 : rows - 1) * stride;
    const float *n = keys + (i + 1 < rows ? i + 1 : 0) * stride;
    const float d = n[m] - p[m];
    return 0.5f * d;
}

static inline void kfb_key_guess_row(const float *keys, size_t rows, size_t stride,
                                     uint32_t interpolation, size_t i, float *out)
{
    if (interpolation != KFB_INTERP_SQUAD || stride != 4) {
        for (size_t m = 0; m < stride; m++)
            out[m] = kfb_central_guess(keys, rows, stride, i, m);
        return;
    }
    const float *q = keys + i * stride;
    const float *p = keys + (i ? i - 1 : rows - 1) * stride;
    const float *n = keys + (i + 1 < rows ? i + 1 : 0) * stride;
    float dp = 0.0f, dn = 0.0f;
    for (size_t k = 0; k < 4; k++) {
        const float xp = q[k] * p[k], xn = q[k] * n[k];
        dp = dp + xp;
        dn = dn + xn;
    }
    float n2 = 0.0f;
    for (size_t k = 0; k < 4; k++) {
        const float pk = dp < 0.0f ? -p[k] : p[k], nk = dn < 0.0f ? -n[k] : n[k];
        const float six = 6.0f * q[k];
        const float sum = six - pk;
        const float all = sum - nk;
        const float gk = 0.25f * all;
        const float sq = gk * gk;
        out[k] = gk;
        n2 = n2 + sq;
    }
    /* Keys a reader refuses later may make n2 0, infinite or NaN: then the
     * guess stays unnormalized (any guess decodes; only its bits matter). */
    if (!(n2 > 0.0f && n2 <= FLT_MAX))
        return;
    const float length = sqrtf(n2);
    for (size_t k = 0; k < 4; k++)
        out[k] = out[k] / length;
}

/* Component m of kfb_key_guess_row, without computing the rest of the row
 * where the components are independent (all but squad's). */
static inline float kfb_key_guess(const float *keys, size_t rows, size_t stride,
                                  uint32_t interpolation, size_t i, size_t m)
{
    if (interpolation != KFB_INTERP_SQUAD || stride != 4)
        return kfb_central_guess(keys, rows, stride, i, m);
    float row[4];
    kfb_key_guess_row(keys, rows, stride, interpolation, i, row);
    return row[m];
}

enum { KFB_REPEAT_CONSTANT = 0, KFB_REPEAT_LOOP = 1, KFB_REPEAT_COUNT = 2 };

/*
 * KeyframeSequence.
 *
 * Keys are stored rotated so that the valid ones come first, in valid order:
 * stored key j is authored key (valid_first + j) mod key_count, and stored
 * keys 0 .. valid_count-1 are the valid range. Sampling then walks one
 * contiguous array; keys outside the valid range follow only so that the
 * source can be reproduced.
 *
 * DATA arrays (word offsets):
 *   times      key_count floats; sequences with equal key times may share one
 *              array (the writer shares them, so a player finds the segment
 *              once for all of them)
 *   values     key_count * components floats
 *   tangents   what sampling needs beyond the keys, computed by the writer:
 *              SPLINE, HERMITE: valid_count*components outgoing, then as many
 *                      incoming, each multiplied by the length of the
 *                      segment it shapes (the Hermite basis' tangents;
 *                      from 2.2 on HERMITE stores none: the reader
 *                      computes them, kfb_sequence_computed_floats);
 *              SLERP:  valid_count key arcs;
 *              SQUAD:  valid_count*4 "a" quaternions, then valid_count*4 "b",
 *                      then valid_count key arcs, then valid_count control arcs;
 *              other interpolations: KFB_NONE.
 *   tcb        SPLINE and SQUAD only, optional: key_count * 3 floats, the
 *              tension, continuity and bias of each key (stored order), each
 *              in [-1, 1], not all 0. KFB_NONE: every key 0 (Catmull-Rom).
 *              HERMITE, required: key_count * 2 * components floats, each
 *              key's authored tangents (stored order): the incoming one,
 *              then the outgoing one, in value units per unit of sequence
 *              time. Sampling uses `tangents`; these reproduce the source,
 *              and an exact sampler scales them in double.
 *   arc_length LINEAR and SPLINE only, optional: the distance table,
 *              kfb_arc_length_floats() floats (below). KFB_NONE: none.
 *
 * An arc is the great arc a slerp follows from quaternion p to q, as
 * KFB_ARC_FLOATS floats: the angle theta = acos(p.q) and theta / sin(theta),
 * so that sampling needs no inverse trigonometry. Key arc i runs from valid
 * key i to the next valid key (key 0 after the last); control arc i from
 * a_i to b_next. Two encodings are special: {0, 1} when p.q >= 1 - 1e-5
 * (M3G interpolates linearly there) and {-1, 0} when p.q < 0 (the arc is
 * longer than a quarter turn, or undefined: sampling takes the general path).
 * Otherwise 0 < theta <= pi/2 and 1 <= theta / sin(theta) <= pi/2.
 */
#define KFB_ARC_FLOATS 2u

typedef struct kfb_sequence {
    uint32_t name;          /* STRINGS offset */
    uint32_t interpolation; /* KFB_INTERP_* */
    uint32_t repeat;        /* KFB_REPEAT_* */
    uint32_t components;    /* >= 1; 4 for SLERP and SQUAD */
    uint32_t key_count;     /* >= 1 */
    uint32_t valid_first;   /* authored index of the first valid key */
    uint32_t valid_count;   /* 1 .. key_count */
    float duration;         /* > 0 */
    uint32_t times;         /* DATA offset */
    uint32_t values;        /* DATA offset */
    uint32_t tangents;      /* DATA offset or KFB_NONE */
    uint32_t tcb;           /* DATA offset or KFB_NONE (HERMITE: key tangents) */
    uint32_t arc_length;    /* DATA offset or KFB_NONE */
} kfb_sequence;

/* Floats in each of the outgoing and incoming tangent arrays (SPLINE: the
 * tangents; SQUAD: the "a" then "b" quaternions), 0 for other
 * interpolations. 64-bit: the counts come from files. */
static inline uint64_t kfb_sequence_tangent_floats(uint32_t interpolation, uint32_t valid_count,
                                                   uint32_t components)
{
    if (interpolation == KFB_INTERP_SPLINE || interpolation == KFB_INTERP_SQUAD ||
        interpolation == KFB_INTERP_HERMITE)
        return (uint64_t)valid_count * components;
    return 0;
}

/* Floats of slerp arcs: valid_count key arcs (SLERP), then as many control
 * arcs (SQUAD). */
static inline uint64_t kfb_sequence_arc_floats(uint32_t interpolation, uint32_t valid_count)
{
    if (interpolation == KFB_INTERP_SLERP)
        return (uint64_t)valid_count * KFB_ARC_FLOATS;
    if (interpolation == KFB_INTERP_SQUAD)
        return 2 * (uint64_t)valid_count * KFB_ARC_FLOATS;
    return 0;
}

/* Floats at kfb_sequence.tangents: outgoing, incoming, arcs, back to back. */
static inline uint64_t kfb_sequence_derived_floats(uint32_t interpolation, uint32_t valid_count,
                                                   uint32_t components)
{
    return 2 * kfb_sequence_tangent_floats(interpolation, valid_count, components) +
           kfb_sequence_arc_floats(interpolation, valid_count);
}

/* Floats stored at `tangents` in a file of `version`: version 1
 * stores the derived floats above; version 2 the tangents (or SQUAD's a,
 * b) only: zlib cannot shrink the arcs, and computing them as they play
 * costs less than inflating them. From 2.2 on HERMITE stores none:
 * its scaled tangents are its key tangents times segment lengths, one
 * product each (kf_hermite_tangents), which the reader computes too. */
static inline uint64_t kfb_sequence_stored_derived_floats(uint32_t version, uint32_t interpolation,
                                                          uint32_t valid_count, uint32_t components)
{
    const uint64_t tc = kfb_sequence_tangent_floats(interpolation, valid_count, components);
    if (KFB_MAJOR_OF(version) < 2)
        return kfb_sequence_derived_floats(interpolation, valid_count, components);
    if (interpolation == KFB_INTERP_HERMITE && kfb_has(version, KFB_SINCE_KEY_GUESS))
        return 0;
    return tc ? 2 * tc + components : 0; /* outgoing with its column headers, incoming */
}

/* Floats a reader computes for a sequence, into room it counts from the
 * records before allocating: HERMITE's scaled tangents (outgoing, then
 * incoming). Files of every version play these computed floats: where a
 * version stores them (up to 2.1), the stored ones are checked, then
 * replaced, so that a file plays the same whichever version it was written
 * in. They are fewer than the sequence's own key tangent floats. No arc is
 * computed at load: sampling computes each slerp's arc from its
 * quaternions' dot product in float (runtime/kf_sample.h, kf_arc_of), and
 * 1.x's stored arcs are checked, then dropped. */
static inline uint64_t kfb_sequence_computed_floats(uint32_t interpolation, uint32_t valid_count,
                                                    uint32_t components)
{
    return interpolation == KFB_INTERP_HERMITE
               ? 2 * kfb_sequence_tangent_floats(interpolation, valid_count, components)
               : 0;
}

/*
 * The distance table of a sequence (arc_length; not to be confused with the
 * slerp arcs above). A segment is the curve from a valid key to the next
 * one; there are valid_count - 1 segments in CONSTANT and valid_count in
 * LOOP (the last one is the wrap segment back to the first key). Each
 * segment is cut into KFB_ARC_LENGTH_STEPS equal steps of its curve
 * parameter; entry k * KFB_ARC_LENGTH_STEPS + j is the distance along the
 * curve from the first valid key to step j of segment k, and the last entry
 * is the total length (CONSTANT) or the length of one period (LOOP). A
 * segment of zero duration is a jump, not travelled: its length is 0.
 */
#define KFB_ARC_LENGTH_STEPS 8u

static inline uint64_t kfb_arc_length_floats(uint32_t repeat, uint32_t valid_count)
{
    uint64_t segments = repeat == KFB_REPEAT_LOOP ? valid_count : valid_count - (uint64_t)1;
    return segments * KFB_ARC_LENGTH_STEPS + 1;
}

/* AnimationController: the initial state a player starts from. */
typedef struct kfb_controller {
    uint32_t name; /* STRINGS offset */
    kfb_f64 speed;
    kfb_f64 weight;       /* >= 0 */
    kfb_f64 active_start; /* world time; start == end: always active */
    kfb_f64 active_end;   /* >= active_start */
    kfb_f64 ref_world;    /* reference point: world time ... */
    kfb_f64 ref_sequence; /* ... and the sequence time it maps to */
} kfb_controller;

/* Animatable properties (M3G AnimationTrack's set), plus custom ones. */
enum {
    KFB_PROPERTY_CUSTOM = 0,
    KFB_PROPERTY_ALPHA,
    KFB_PROPERTY_AMBIENT_COLOR,
    KFB_PROPERTY_COLOR,
    KFB_PROPERTY_CROP,
    KFB_PROPERTY_DENSITY,
    KFB_PROPERTY_DIFFUSE_COLOR,
    KFB_PROPERTY_EMISSIVE_COLOR,
    KFB_PROPERTY_FAR_DISTANCE,
    KFB_PROPERTY_FIELD_OF_VIEW,
    KFB_PROPERTY_INTENSITY,
    KFB_PROPERTY_MORPH_WEIGHTS,
    KFB_PROPERTY_NEAR_DISTANCE,
    KFB_PROPERTY_ORIENTATION,
    KFB_PROPERTY_PICKABILITY,
    KFB_PROPERTY_SCALE,
    KFB_PROPERTY_SHININESS,
    KFB_PROPERTY_SPECULAR_COLOR,
    KFB_PROPERTY_SPOT_ANGLE,
    KFB_PROPERTY_SPOT_EXPONENT,
    KFB_PROPERTY_TRANSLATION,
    KFB_PROPERTY_VISIBILITY,
    KFB_PROPERTY_COUNT
};

/* A blended destination: "object.property". */
typedef struct kfb_target {
    uint32_t name;       /* STRINGS offset of "object.property" */
    uint32_t property;   /* KFB_PROPERTY_* in the low 16 bits, KFB_TARGET_* flags above */
    uint32_t components; /* allowed by the property (see kf_property_accepts) */
} kfb_target;

/* kfb_target.property: the property, and how its tracks make its value.
 * Without a flag, the weighted sum of the tracks (M3G's AnimationTrack
 * blending). KFB_TARGET_LATEST (since 2.7): X3D's fan-in, where a field
 * keeps the last value sent to it (formats/kfb.md, Targets; docs/math.md
 * §2.3). Only interpolator and follower tracks play such a target. */
#define KFB_TARGET_PROPERTY_MASK 0xFFFFu
#define KFB_TARGET_LATEST        0x10000u

/* Kinds of animator a track can play. */
enum {
    KFB_ANIMATOR_SEQUENCE = 0,
    KFB_ANIMATOR_INTERPOLATOR = 1,
    KFB_ANIMATOR_FOLLOWER = 2,
    KFB_ANIMATOR_KIND_COUNT = 3
};

/*
 * AnimationTrack: an animator played through a controller into a target.
 *
 * An interpolator track turns the controller's position into a fraction as
 * an X3D TimeSensor does (fraction = position / cycle_interval, wrapped
 * into [0,1) when looping, clamped to [0,1] otherwise), optionally passes it
 * through an EaseInEaseOut, and samples the interpolator at the result.
 * A sequence track samples at the position itself and stores 0, 0, NONE.
 */
typedef struct kfb_track {
    uint32_t animator_kind; /* KFB_ANIMATOR_* */
    uint32_t animator;      /* index among the objects of that kind */
    uint32_t controller;    /* controller index, or KFB_NONE: contributes nothing */
    uint32_t target;        /* target index */
    kfb_f64 cycle_interval; /* interpolator tracks: > 0 */
    uint32_t loop;          /* interpolator tracks: 0 clamp, 1 wrap */
    uint32_t ease;          /* interpolator index of an EaseInEaseOut, or KFB_NONE */
} kfb_track;

/* The track record before 2.6 (and of version 1). Its f32 cycle interval
 * drifts a looping track's phase: X3D world time is seconds since 1970, so
 * 0.35 s held as 0.3499999940 puts the fraction 0.6 off today. */
typedef struct kfb_track_f32 {
    uint32_t animator_kind;
    uint32_t animator;
    uint32_t controller;
    uint32_t target;
    float cycle_interval;
    uint32_t loop;
    uint32_t ease;
} kfb_track_f32;

/* ------------------------------------------------------------------------ */
/* X3D interpolators                                                        */
/* ------------------------------------------------------------------------ */

/* Node types: the 13 nodes of X3D clause 19. */
enum {
    KFB_NODE_SCALAR_INTERPOLATOR = 0,
    KFB_NODE_POSITION_INTERPOLATOR = 1,
    KFB_NODE_POSITION_INTERPOLATOR_2D = 2,
    KFB_NODE_COLOR_INTERPOLATOR = 3,
    KFB_NODE_COORDINATE_INTERPOLATOR = 4,
    KFB_NODE_COORDINATE_INTERPOLATOR_2D = 5,
    KFB_NODE_NORMAL_INTERPOLATOR = 6,
    KFB_NODE_ORIENTATION_INTERPOLATOR = 7,
    KFB_NODE_SPLINE_SCALAR_INTERPOLATOR = 8,
    KFB_NODE_SPLINE_POSITION_INTERPOLATOR = 9,
    KFB_NODE_SPLINE_POSITION_INTERPOLATOR_2D = 10,
    KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR = 11,
    KFB_NODE_EASE_IN_EASE_OUT = 12,
    KFB_NODE_COUNT = 13
};

/* kfb_interpolator.flags: the SFBool fields of the non-linear nodes. */
enum { KFB_INTERPOLATOR_CLOSED = 1u << 0, KFB_INTERPOLATOR_NORMALIZE_VELOCITY = 1u << 1 };

/*
 * An X3D interpolator node, or EaseInEaseOut.
 *
 * The authored fields are stored as written (float32), so that the source
 * can be reproduced; `derived` holds what sampling needs beyond them,
 * computed by the writer from the stored fields (formats/kfb.md).
 *
 * DATA arrays (word offsets), with d = numbers per value (1 scalar, 2 Vec2f,
 * 3 Vec3f / Color, 4 Rotation as axis x y z and angle, 2 for easeInEaseOut):
 *   keys        key_count floats
 *   values      value_count * d floats: keyValue, or easeInEaseOut
 *   velocities  velocity_count * d floats (keyVelocity), or KFB_NONE when 0
 *   derived     Color: key_count HSV triples; Orientation: key_count
 *               quaternions; Spline*: key_count*d outgoing tangents, then
 *               as many incoming; SquadOrientation: key_count quaternions,
 *               then key_count squad control quaternions; other nodes:
 *               KFB_NONE.
 */
typedef struct kfb_interpolator {
    uint32_t name;           /* STRINGS offset; unique among animators */
    uint32_t node;           /* KFB_NODE_* */
    uint32_t key_count;      /* n >= 1 */
    uint32_t value_count;    /* n, or n*m for the Coordinate and Normal nodes */
    uint32_t velocity_count; /* 0, 2 or n; spline nodes only */
    uint32_t flags;          /* KFB_INTERPOLATOR_*; non-linear nodes only */
    uint32_t keys;           /* DATA offset */
    uint32_t values;         /* DATA offset */
    uint32_t velocities;     /* DATA offset or KFB_NONE */
    uint32_t derived;        /* DATA offset or KFB_NONE */
} kfb_interpolator;

/* d above: numbers per keyValue (and keyVelocity) entry of `node`; 0 for an
 * unknown node. */
static inline uint32_t kfb_node_dimension(uint32_t node)
{
    static const unsigned char dimension[KFB_NODE_COUNT] = {
        [KFB_NODE_SCALAR_INTERPOLATOR] = 1,
        [KFB_NODE_POSITION_INTERPOLATOR] = 3,
        [KFB_NODE_POSITION_INTERPOLATOR_2D] = 2,
        [KFB_NODE_COLOR_INTERPOLATOR] = 3,
        [KFB_NODE_COORDINATE_INTERPOLATOR] = 3,
        [KFB_NODE_COORDINATE_INTERPOLATOR_2D] = 2,
        [KFB_NODE_NORMAL_INTERPOLATOR] = 3,
        [KFB_NODE_ORIENTATION_INTERPOLATOR] = 4,
        [KFB_NODE_SPLINE_SCALAR_INTERPOLATOR] = 1,
        [KFB_NODE_SPLINE_POSITION_INTERPOLATOR] = 3,
        [KFB_NODE_SPLINE_POSITION_INTERPOLATOR_2D] = 2,
        [KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR] = 4,
        [KFB_NODE_EASE_IN_EASE_OUT] = 2,
    };
    return node < KFB_NODE_COUNT ? dimension[node] : 0;
}

/* Floats of `derived` for a node with `key_count` keys (0: none). */
static inline uint64_t kfb_interpolator_derived_floats(uint32_t node, uint32_t key_count)
{
    const uint64_t n = key_count;
    switch (node) {
    case KFB_NODE_COLOR_INTERPOLATOR:
        return 3 * n; /* HSV */
    case KFB_NODE_ORIENTATION_INTERPOLATOR:
        return 4 * n; /* quaternions */
    case KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR:
        return 8 * n; /* quaternions, control quaternions */
    case KFB_NODE_SPLINE_SCALAR_INTERPOLATOR:
    case KFB_NODE_SPLINE_POSITION_INTERPOLATOR:
    case KFB_NODE_SPLINE_POSITION_INTERPOLATOR_2D:
        return 2 * n * kfb_node_dimension(node); /* outgoing, incoming tangents */
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* X3D followers                                                            */
/* ------------------------------------------------------------------------ */

/*
 * X3D follower nodes (clause 39): chasers (FIR) then dampers (IIR).
 * Field components per element: Position 3, 2D/TexCoord 2, Scalar 1,
 * Orientation 4 (axis-angle x y z angle), Color 3 (RGB), Coordinate 3.
 */
enum {
    KFB_FOLLOWER_POSITION_CHASER = 0,
    KFB_FOLLOWER_POSITION_CHASER_2D = 1,
    KFB_FOLLOWER_SCALAR_CHASER = 2,
    KFB_FOLLOWER_ORIENTATION_CHASER = 3,
    KFB_FOLLOWER_COLOR_CHASER = 4,
    KFB_FOLLOWER_COORDINATE_CHASER = 5,
    KFB_FOLLOWER_TEXCOORD_CHASER_2D = 6,
    KFB_FOLLOWER_POSITION_DAMPER = 7,
    KFB_FOLLOWER_POSITION_DAMPER_2D = 8,
    KFB_FOLLOWER_SCALAR_DAMPER = 9,
    KFB_FOLLOWER_ORIENTATION_DAMPER = 10,
    KFB_FOLLOWER_COLOR_DAMPER = 11,
    KFB_FOLLOWER_COORDINATE_DAMPER = 12,
    KFB_FOLLOWER_TEXCOORD_DAMPER_2D = 13,
    KFB_FOLLOWER_NODE_COUNT = 14
};

/*
 * X3D follower (chaser or damper).
 *
 * DATA arrays (word offsets):
 *   initial_value        element_count * field components floats, as authored
 *   initial_destination  as many
 *   rotations            orientation nodes: the two fields above as unit
 *                        quaternions x y z w (value, then destination),
 *                        computed by the writer; other nodes: KFB_NONE.
 */
typedef struct kfb_follower {
    uint32_t name;                /* STRINGS offset */
    uint32_t node;                /* KFB_FOLLOWER_* */
    uint32_t element_count;       /* Coordinate/TexCoord: points per value (>= 1); others 1 */
    float duration;               /* chasers: duration; dampers: tau; >= 0 */
    uint32_t order;               /* dampers: 0..5; chasers: 0 */
    float tolerance;              /* dampers: -1 or >= 0; chasers: -1 */
    uint32_t initial_value;       /* DATA offset */
    uint32_t initial_destination; /* DATA offset */
    uint32_t rotations;           /* DATA offset or KFB_NONE */
} kfb_follower;

/* Field components per element of follower `node`; 0 for an unknown node. */
static inline uint32_t kfb_follower_field_components(uint32_t node)
{
    static const unsigned char components[KFB_FOLLOWER_NODE_COUNT] = {
        [KFB_FOLLOWER_POSITION_CHASER] = 3,    [KFB_FOLLOWER_POSITION_CHASER_2D] = 2,
        [KFB_FOLLOWER_SCALAR_CHASER] = 1,      [KFB_FOLLOWER_ORIENTATION_CHASER] = 4,
        [KFB_FOLLOWER_COLOR_CHASER] = 3,       [KFB_FOLLOWER_COORDINATE_CHASER] = 3,
        [KFB_FOLLOWER_TEXCOORD_CHASER_2D] = 2, [KFB_FOLLOWER_POSITION_DAMPER] = 3,
        [KFB_FOLLOWER_POSITION_DAMPER_2D] = 2, [KFB_FOLLOWER_SCALAR_DAMPER] = 1,
        [KFB_FOLLOWER_ORIENTATION_DAMPER] = 4, [KFB_FOLLOWER_COLOR_DAMPER] = 3,
        [KFB_FOLLOWER_COORDINATE_DAMPER] = 3,  [KFB_FOLLOWER_TEXCOORD_DAMPER_2D] = 2,
    };
    return node < KFB_FOLLOWER_NODE_COUNT ? components[node] : 0;
}

/* Floats of initial_value (and of initial_destination). */
static inline uint64_t kfb_follower_field_floats(uint32_t node, uint32_t element_count)
{
    return (uint64_t)element_count * kfb_follower_field_components(node);
}

/* Floats at `rotations`: 8 for the orientation nodes, else 0. */
static inline uint32_t kfb_follower_rotation_floats(uint32_t node)
{
    return node == KFB_FOLLOWER_ORIENTATION_CHASER || node == KFB_FOLLOWER_ORIENTATION_DAMPER ? 8
                                                                                              : 0;
}

/* ------------------------------------------------------------------------ */
/* Word order                                                               */
/* ------------------------------------------------------------------------ */

/* Whether the host stores words as the file does, least significant byte
 * first. */
static inline int kfb_host_little_endian(void)
{
    const uint16_t probe = 1;
    return *(const unsigned char *)&probe == 1;
}

/* Converts `count` words between file (little-endian) and host order, in
 * place; the identity on little-endian hosts. */
static inline void kfb_word_swap(void *words, uint32_t count)
{
    if (kfb_host_little_endian())
        return;
    unsigned char *p = (unsigned char *)words;
    for (uint32_t i = 0; i < count; i++, p += 4) {
        unsigned char t0 = p[0], t1 = p[1];
        p[0] = p[3];
        p[1] = p[2];
        p[2] = t1;
        p[3] = t0;
    }
}

#define KFB_WORDS(type) ((uint32_t)(sizeof(type) / 4u))

/* A file's track record: kfb_track from 2.6 on, kfb_track_f32 before. */
static inline uint32_t kfb_track_words(uint32_t version)
{
    return kfb_has(version, KFB_SINCE_F64_CYCLE) ? KFB_WORDS(kfb_track) : KFB_WORDS(kfb_track_f32);
}

/* The section header at `at` of the `size` bytes of `file`, in host order:
 * 1 where it lies inside them, else 0. Its section (the header, the stored
 * bytes, the CRC) ends at kfb_section_end. */
static inline int kfb_section_header_at(const unsigned char *file, size_t size, size_t at,
                                        kfb_section_header *h)
{
    if (at > size || size - at < KFB_SECTION_HEADER_SIZE)
        return 0;
    memcpy(h, file + at, sizeof *h);
    kfb_word_swap(h, KFB_WORDS(kfb_section_header));
    return 1;
}

static inline uint64_t kfb_section_end(size_t at, const kfb_section_header *h)
{
    return (uint64_t)at + KFB_SECTION_HEADER_SIZE + h->stored_size + KFB_SECTION_CRC_SIZE;
}

/* A section's tag as text, for a listing: its four bytes, each outside
 * printable ASCII as '?'. Returns `out`. */
static inline char *kfb_tag_text(uint32_t tag, char out[5])
{
    for (int k = 0; k < 4; k++) {
        const unsigned char c = (unsigned char)(tag >> (8 * k));
        out[k] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[4] = '\0';
    return out;
}

_Static_assert(sizeof(float) == 4, "kfb needs IEEE-754 binary32 floats");
_Static_assert(sizeof(kfb_header) == 24, "kfb_header is 6 words");
_Static_assert(sizeof(kfb_section_header) == 16, "kfb_section_header is 4 words");
_Static_assert(sizeof(kfb_object) == 8, "kfb_object is 2 words");
_Static_assert(sizeof(kfb_sequence) == 52, "kfb_sequence is 13 words");
_Static_assert(sizeof(kfb_controller) == 52, "kfb_controller is 13 words");
_Static_assert(sizeof(kfb_target) == 12, "kfb_target is 3 words");
_Static_assert(sizeof(kfb_track) == 32, "kfb_track is 8 words");
_Static_assert(sizeof(kfb_track_f32) == 28, "kfb_track_f32 is 7 words");
_Static_assert(sizeof(kfb_interpolator) == 40, "kfb_interpolator is 10 words");
_Static_assert(sizeof(kfb_follower) == 36, "kfb_follower is 9 words");

#endif /* KFB_FORMAT_H */
