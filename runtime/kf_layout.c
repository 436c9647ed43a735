/* SPDX-License-Identifier: MIT */
/*
 * kf_layout.c - packs a loaded animation's sequences into the blocks the
 * player's kernels read (kf_layout.h), and copies every other array its
 * objects read beside them, so that the decoded section can be freed: the
 * layout is the animation's one copy of its numbers. Built once, at the
 * end of loading; read-only afterwards, so one layout serves every player
 * of the animation on any thread.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf_layout.h"
#include "kf_math.h"

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>

/* The first n (1 to 4) floats at p into the low lanes, reading no float
 * past them. */
KF_ALWAYS_INLINE __m128 load_floats(const float *p, uint32_t n)
{
    switch (n) {
    case 1:
        return _mm_load_ss(p);
    case 2:
        return _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)p));
    case 3:
        return _mm_movelh_ps(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)p)),
                             _mm_load_ss(p + 2));
    default:
        return _mm_loadu_ps(p);
    }
}

/* uint16 out of int32 in [0, 65535], the low four lanes: less 2^15, packed
 * with signed saturation (exact there), the top bit turned back. */
KF_ALWAYS_INLINE __m128i to_u16(__m128i a, __m128i b)
{
    const __m128i half = _mm_set1_epi32(32768);
    return _mm_xor_si128(_mm_packs_epi32(_mm_sub_epi32(a, half), _mm_sub_epi32(b, half)),
                         _mm_set1_epi16((short)0x8000));
}
#endif

/* Zeroed floats after the last row: a vector kernel reads a quantized
 * block's key's low bytes sixteen at a time (kf_kernels_avx2.c,
 * q_low3: three fields have twelve, a key's first three or a SQUAD key's
 * last three), four past a last block's. */
#define KF_SLACK_FLOATS 4u

/* Floats of rows filled at a time (kf_layout_build): about 64 KiB. Smaller
 * tiles reread the sources' lines, larger ones write each line twice
 * (cachegrind on W: 16 Ki floats load with as many misses as one block at
 * a time did). */
#define FILL_TILE_FLOATS 16384

/* Floats per key and lane. */
static uint32_t fields_of(const struct kf_sequence *s)
{
    return kf_block_fields(s->interpolation, s->components);
}

/* What the sort and the runs below compare of a sequence, packed into
 * words that order as those fields do (key_of), so that comparing two
 * sequences reads 32 bytes of one array rather than both records. */
typedef struct seq_key {
    uint64_t w[4];
} seq_key;

/* The sequences being laid out, and per sequence whether its lane is
 * quantized (quantize, below), which a block's lanes share. */
typedef struct lay {
    const struct kf_sequence *seq;
    const uint8_t *quant;
    const uint8_t *bits; /* a quantized lane's width (kf_block.qbits) */
    const seq_key *keys; /* key_of each sequence */
} lay;

/* Whether sequence s goes into a block: one wider than KF_BLOCK_COMPONENTS
 * is played on its own (kf_player.c's runs), so that a lone wide sequence
 * costs neither the three empty lanes of a block in memory nor their
 * evaluation in every update. */
static int packed(const struct kf_sequence *s)
{
    return s->components <= KF_BLOCK_COMPONENTS;
}

/* A float's bits as an unsigned integer of the same order (-0 as +0,
 * which compare equal as floats). */
static uint32_t float_order(float f)
{
    uint32_t u;
    if (f == 0.0f)
        f = 0.0f;
    memcpy(&u, &f, sizeof u);
    return u >> 31 ? ~u : u | 0x80000000u;
}

_Static_assert(sizeof(uintptr_t) <= sizeof(uint64_t), "a key times address fits a key word");

/* The layout's order of sequences: by clock (key times array, valid keys,
 * repeat, duration: what a player's group shares), then by kind
 * (interpolation, components, quantization, width: what a block's lanes
 * share), then by index. w[0] to the top half of w[2] are the clock. */
static seq_key key_of(const struct kf_sequence *s, uint8_t quant, uint8_t bits)
{
    seq_key k;
    k.w[0] = (uint64_t)(uintptr_t)s->times;
    k.w[1] = (uint64_t)s->valid_count << 32 | (uint64_t)s->repeat;
    k.w[2] = (uint64_t)float_order(s->duration) << 32 | (uint64_t)s->interpolation;
    k.w[3] = (uint64_t)s->components << 32 | (uint64_t)quant << 8 | bits;
    return k;
}

static int compare_sequences(uint32_t ia, uint32_t ib, const lay *ly)
{
    const seq_key *a = &ly->keys[ia], *b = &ly->keys[ib];
    for (int w = 0; w < 4; w++)
        if (a->w[w] != b->w[w])
            return a->w[w] < b->w[w] ? -1 : 1;
    return (ia > ib) - (ia < ib);
}

static int same_clock(const lay *ly, uint32_t ia, uint32_t ib)
{
    const seq_key *a = &ly->keys[ia], *b = &ly->keys[ib];
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] >> 32 == b->w[2] >> 32;
}

static int same_block(const lay *ly, uint32_t ia, uint32_t ib)
{
    const seq_key *a = &ly->keys[ia], *b = &ly->keys[ib];
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3];
}

/* Whether a lane needs the saturating kernel (kf_lerp1, kf_hermite1): the
 * fast float forms cannot overflow while LINEAR's values stay below
 * FLT_MAX / 2 in magnitude (b - a is finite), nor while a Hermite segment's
 * bound does: |h0 a + h1 b| <= max |value| (h0, h1 >= 0, h0 + h1 = 1) and
 * |h2|, |h3| <= 4/27 on [0, 1]. */
static uint32_t is_wide(const struct kf_sequence *s)
{
    const size_t n = (size_t)s->valid_count * s->components;
    if (s->interpolation != KFB_INTERP_LINEAR && s->interpolation != KFB_INTERP_SPLINE &&
        s->interpolation != KFB_INTERP_HERMITE)
        return 0;
    const float value = kf_max_abs(s->values, n);
    const float out = s->interpolation != KFB_INTERP_LINEAR ? kf_max_abs(s->tangent_out, n) : 0.0f;
    const float in = s->interpolation != KFB_INTERP_LINEAR ? kf_max_abs(s->tangent_in, n) : 0.0f;
    const double tangents = 4.0 / 27.0 * ((double)out + in);
    return !((double)value + tangents <= FLT_MAX / 2);
}

/* is_wide from the reader's facts (kf_value_facts) where they cover a
 * sequence's values, every key valid: 1 with *wide set, or 0 where its
 * floats must answer. A LINEAR sequence's largest magnitude is its largest
 * q's float. A HERMITE one's scaled tangents are each a key tangent times
 * a segment no longer than the duration, rounded: bounded by its largest
 * key tangent times the duration, with room for the roundings; where that
 * bound keeps it narrow, so do its tangents. */
static int width_known(const struct kf_sequence *s, const kf_value_facts *facts, uint32_t *wide)
{
    if (facts && facts->narrow) { /* every value and tangent below 2^KF_NARROW_EXPONENT */
        *wide = 0;
        return 1;
    }
    const int hermite = s->interpolation == KFB_INTERP_HERMITE && s->key_tangents &&
                        2 * s->components <= KF_TANGENT_FACT_COLUMNS;
    if (!facts || (s->interpolation != KFB_INTERP_LINEAR && !hermite) ||
        s->valid_count != s->key_count || s->components > KF_FACT_COLUMNS)
        return 0;
    const double value = kf_column_facts_most(facts->column, s->components);
    if (value < 0.0)
        return 0;
    if (!hermite) {
        *wide = !(value <= FLT_MAX / 2);
        return 1;
    }
    const double tangent = kf_column_facts_most(facts->tangent, 2 * s->components);
    if (tangent < 0.0 || !(value + 4.0 / 27.0 * 2.0 * tangent * s->duration * 1.001 <= FLT_MAX / 2))
        return 0;
    *wide = 0;
    return 1;
}

/* The scaled tangents of HERMITE sequence s that the reader left to the
 * layout (kf_value_facts.tangents_pending), into the room it gave them
 * (load scratch the reader allocated: writable, though a sequence's arrays
 * are read-only to everything else): for a lane that keeps them as floats,
 * or whose width its facts do not bound. */
static void scale_tangents(const struct kf_sequence *s)
{
    kf_hermite_tangents(s->times, s->key_tangents, s->valid_count, s->components, s->duration,
                        s->repeat, (float *)(uintptr_t)s->tangent_out,
                        (float *)(uintptr_t)s->tangent_in);
}

/* A SLERP sequence's w that the reader left to be rebuilt
 * (kf_value_facts.w_pending), for a lane that keeps them as floats: each
 * what x, y and z leave of unit length (which the reader checked they
 * do), of the sign the word there has in its sign bit. */
static void rebuild_w(const struct kf_sequence *s)
{
    float *v = (float *)(uintptr_t)s->values;
    for (uint32_t k = 0; k < s->key_count; k++, v += 4)
        kf_unit_rest(v, 4, 3, signbit(v[3]) != 0, &v[3]);
}

/* Keys a sequence needs for its lane to be quantized: a lane saves 2 bytes
 * per field and key, and its base and scale cost 8 per field. */
#define QUANTIZE_KEYS 8
/* The largest q (a SLERP lane's: KF_QSLERP_TOP, its x keeping a sign). */
#define QUANTIZE_TOP 65535u

_Static_assert(KF_QSLERP_GRID *KF_LANES / 2 == KF_QSLERP_KEY, "a quantized SLERP key: x, y, z");
_Static_assert(KF_QSLERP_TOP < 1u << 15, "a quantized SLERP's x leaves w's sign a bit");

/* The scale of a grid from lo to hi in `top` steps: the least power of two
 * that spans it; 0 (and a scale of 1, not used) where that would not be a
 * normal float (or would let a value overflow). */
static int grid_step(float lo, float hi, uint32_t top, float *scale)
{
    const double step = ((double)hi - lo) / top;
    /* the least power of two at or above step, from its bits: step is
     * normal (at least the least float step over 2^16) and finite */
    uint64_t bits;
    memcpy(&bits, &step, sizeof bits);
    const int e = (int)(bits >> 52 & 0x7FF) - 1023;
    const double p2 = step == 0.0 ? 1.0 : kf_pow2((bits & 0xFFFFFFFFFFFFFu) ? e + 1 : e);
    *scale = 1.0f;
    if (!(p2 >= FLT_MIN && p2 <= 0x1p100))
        return 0;
    *scale = (float)p2;
    return 1;
}

/* Per component of the n keys of c components at v (validated finite), the
 * least value as its base and as its scale the least power of two that
 * spans its range in `top` steps; 0 where a scale of a component in
 * `check` (bit m: component m) would not be a normal float (or would let a
 * value overflow). Inlined into a copy per width (grid_of). */
KF_ALWAYS_INLINE int grid_of_c(const float *v, uint32_t c, uint32_t n, unsigned check, uint32_t top,
                               float *base, float *scale)
{
    float hi[KF_BLOCK_COMPONENTS];
    for (uint32_t m = 0; m < c; m++)
        base[m] = hi[m] = v[m];
    uint32_t k = 1;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Four keys a step: c vectors, whose float p of vector t is component
     * (4t + p) % c; reduced to the components at the end. Not for
     * quantize's first test, of QUANTIZE_KEYS keys, whose vectors would
     * cost more to set up and reduce than the loop below takes. */
    if (n > QUANTIZE_KEYS) {
        __m128 lo[KF_BLOCK_COMPONENTS], up[KF_BLOCK_COMPONENTS];
        for (uint32_t t = 0; t < c; t++)
            lo[t] = up[t] = _mm_loadu_ps(v + 4 * t);
        for (k = 4; k + 4 <= n; k += 4) {
            const float *x = v + (size_t)k * c;
            for (uint32_t t = 0; t < c; t++) {
                const __m128 a = _mm_loadu_ps(x + 4 * t);
                lo[t] = _mm_min_ps(lo[t], a);
                up[t] = _mm_max_ps(up[t], a);
            }
        }
        for (uint32_t t = 0; t < c; t++) {
            float a[4], b[4];
            _mm_storeu_ps(a, lo[t]);
            _mm_storeu_ps(b, up[t]);
            for (uint32_t p = 0; p < 4; p++) {
                const uint32_t m = (4 * t + p) % c;
                base[m] = a[p] < base[m] ? a[p] : base[m];
                hi[m] = b[p] > hi[m] ? b[p] : hi[m];
            }
        }
    }
#endif
    for (; k < n; k++) {
        const float *x = v + (size_t)k * c;
        for (uint32_t m = 0; m < c; m++) {
            base[m] = x[m] < base[m] ? x[m] : base[m];
            hi[m] = x[m] > hi[m] ? x[m] : hi[m];
        }
    }
    for (uint32_t m = 0; m < c; m++)
        if (!grid_step(base[m], hi[m], top, &scale[m]) && (check >> m & 1))
            return 0;
    return 1;
}

/* Whether each of the n keys of c components at v is, in each component
 * in `check`, to the bit, what a kernel dequantizes (kf_dequantize) from
 * some q in [0, top] with `base` and `scale`: the one guarantee a
 * quantized lane rests on. Where it is, per component m in `check`, the
 * OR of every q in any[m] and the largest in most[m] (0 for the others),
 * which narrow reads. Inlined into a copy per width (on_grid). */
KF_ALWAYS_INLINE int on_grid_c(const float *v, uint32_t c, uint32_t n, unsigned check, uint32_t top,
                               const float *base, const float *scale, uint32_t *any, uint32_t *most)
{
    for (uint32_t m = 0; m < c; m++)
        any[m] = most[m] = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Four keys a step, as grid_of; the rest below (and quantize's first
     * test, as grid_of's: the loop below also stops at the first key off
     * the grid, which is where a lane of floats usually leaves it). */
    if (n > QUANTIZE_KEYS) {
        __m128 b[KF_BLOCK_COMPONENTS], inv[KF_BLOCK_COMPONENTS], sc[KF_BLOCK_COMPONENTS];
        __m128i mask[KF_BLOCK_COMPONENTS];
        for (uint32_t t = 0; t < c; t++) {
            float pb[4], pi[4], ps[4];
            int32_t pm[4];
            for (uint32_t p = 0; p < 4; p++) {
                const uint32_t m = (4 * t + p) % c;
                pb[p] = base[m];
                ps[p] = scale[m];
                pi[p] = 1.0f / scale[m];
                pm[p] = check >> m & 1 ? -1 : 0;
            }
            b[t] = _mm_loadu_ps(pb);
            inv[t] = _mm_loadu_ps(pi);
            sc[t] = _mm_loadu_ps(ps);
            mask[t] = _mm_loadu_si128((const __m128i *)(const void *)pm);
        }
        const __m128 zero = _mm_setzero_ps(), highest = _mm_set1_ps((float)top);
        __m128i bad = _mm_setzero_si128(), bits[KF_BLOCK_COMPONENTS];
        __m128 largest[KF_BLOCK_COMPONENTS];
        for (uint32_t t = 0; t < c; t++) {
            bits[t] = _mm_setzero_si128();
            largest[t] = _mm_setzero_ps();
        }
        uint32_t k = 0;
        for (; k + 4 <= n; k += 4) {
            const float *x = v + (size_t)k * c;
            for (uint32_t t = 0; t < c; t++) {
                const __m128 a = _mm_loadu_ps(x + 4 * t);
                const __m128 q = _mm_mul_ps(_mm_sub_ps(a, b[t]), inv[t]);
                const __m128 out = _mm_or_ps(_mm_cmplt_ps(q, zero), _mm_cmpgt_ps(q, highest));
                const __m128i whole = _mm_cvttps_epi32(q);
                const __m128 y = _mm_add_ps(b[t], _mm_mul_ps(_mm_cvtepi32_ps(whole), sc[t]));
                bad = _mm_or_si128(
                    bad, _mm_and_si128(mask[t], _mm_or_si128(_mm_castps_si128(out),
                                                             _mm_xor_si128(_mm_castps_si128(a),
                                                                           _mm_castps_si128(y)))));
                /* (exact integers in [0, top] wherever the test holds) */
                bits[t] = _mm_or_si128(bits[t], _mm_and_si128(mask[t], whole));
                largest[t] = _mm_max_ps(largest[t], _mm_and_ps(_mm_castsi128_ps(mask[t]), q));
            }
            /* A lane of floats off the grid whose first keys hold still
             * (a pose held, then motion) passes quantize's test of its
             * first keys and fails here where it moves: asked every 32
             * keys, not only at the end (`bad` only grows: the same
             * answer). */
            if (k % 32 == 0 &&
                _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF)
                return 0;
        }
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF)
            return 0;
        for (uint32_t t = 0; t < c; t++) {
            float pm[4];
            uint32_t po[4];
            _mm_storeu_ps(pm, largest[t]);
            _mm_storeu_si128((__m128i *)(void *)po, bits[t]);
            for (uint32_t p = 0; p < 4; p++) {
                const uint32_t m = (4 * t + p) % c;
                any[m] |= po[p];
                most[m] = (uint32_t)pm[p] > most[m] ? (uint32_t)pm[p] : most[m];
            }
        }
        v += (size_t)k * c;
        n -= k;
    }
#endif
    for (uint32_t m = 0; m < c; m++) {
        if (!(check >> m & 1))
            continue;
        const float b = base[m], sc = scale[m], inv = 1.0f / sc;
        for (uint32_t k = 0; k < n; k++) {
            const float x = v[(size_t)k * c + m], q = (x - b) * inv;
            if (!(q >= 0.0f && q <= (float)top))
                return 0;
            const float y = kf_dequantize((uint16_t)q, b, sc);
            uint32_t bx, by;
            memcpy(&bx, &x, sizeof bx);
            memcpy(&by, &y, sizeof by);
            if (bx != by)
                return 0;
            any[m] |= (uint32_t)q;
            most[m] = (uint32_t)q > most[m] ? (uint32_t)q : most[m];
        }
    }
    return 1;
}

/* grid_of_c and on_grid_c, compiled for the usual widths (vectors,
 * quaternions) with the width a constant: a pass twice as fast. */
static int grid_of(const float *v, uint32_t c, uint32_t n, unsigned check, uint32_t top,
                   float *base, float *scale)
{
    switch (c) {
    case 3:
        return grid_of_c(v, 3, n, check, top, base, scale);
    case 4:
        return grid_of_c(v, 4, n, check, top, base, scale);
    case 6: /* a vector's key tangents */
        return grid_of_c(v, 6, n, check, top, base, scale);
    default:
        return grid_of_c(v, c, n, check, top, base, scale);
    }
}

/* on_grid_c; `spans` (may be NULL): its any and most, for narrow. */
typedef struct q_spans {
    uint32_t any[KF_BLOCK_COMPONENTS], most[KF_BLOCK_COMPONENTS];
} q_spans;

static int on_grid(const float *v, uint32_t c, uint32_t n, unsigned check, uint32_t top,
                   const float *base, const float *scale, q_spans *spans)
{
    q_spans unused;
    q_spans *o = spans ? spans : &unused;
    switch (c) {
    case 3:
        return on_grid_c(v, 3, n, check, top, base, scale, o->any, o->most);
    case 4:
        return on_grid_c(v, 4, n, check, top, base, scale, o->any, o->most);
    case 6:
        return on_grid_c(v, 6, n, check, top, base, scale, o->any, o->most);
    default:
        return on_grid_c(v, c, n, check, top, base, scale, o->any, o->most);
    }
}

/* grid_of and on_grid over every key of a sequence's values, from what the
 * reader learned of their columns while decoding them (kf_value_facts)
 * rather than from the floats: 1 where the keys are on the grid, 0 where
 * not, with the same base, scale and spans; -1 where a component in
 * `check` has no facts (the floats are read then). The same answers,
 * because each value is exactly q 2^e (kf_column_facts.integers): base
 * and top are the least and greatest q's floats, and a key is on the
 * grid exactly where (q - least) 2^e is a multiple of the scale 2^s of at
 * most `top` steps, which every q less the least is where they all share
 * the low s - e bits of the first (`differ`). There on_grid's float
 * operations are exact, so it finds the same; elsewhere its dequantized
 * float, a float on the grid, cannot be the key's, which is not (the two
 * differ by at least 2^e, no less than the key's unit in the last place). */
static int grid_of_facts(const kf_column_facts *col, uint32_t c, unsigned check, uint32_t top,
                         float *base, float *scale, q_spans *spans)
{
    for (uint32_t m = 0; m < c; m++)
        if ((check >> m & 1) && !col[m].integers)
            return -1;
    for (uint32_t m = 0; m < c; m++) {
        spans->any[m] = spans->most[m] = 0;
        base[m] = 0.0f; /* (not used) */
        scale[m] = 1.0f;
        if (!(check >> m & 1))
            continue;
        const kf_column_facts *f = &col[m];
        const double unit = kf_pow2(f->exponent); /* (q 2^e exact in double) */
        base[m] = (float)(f->least * unit);
        if (!grid_step(base[m], (float)(f->most * unit), top, &scale[m]))
            return 0;
        uint32_t scale_bits; /* scale = 2^s, a normal float (grid_step) */
        memcpy(&scale_bits, &scale[m], sizeof scale_bits);
        const long s = (long)(scale_bits >> 23 & 0xFF) - 127;
        const long d = (long)f->exponent - s; /* each q on the grid: (q - least) 2^d */
        const uint32_t span = (uint32_t)((int64_t)f->most - f->least); /* below 2^25 */
        uint32_t most = 0;
        long z = 0; /* the trailing zeros all q on the grid share */
        if (d >= 0) {
            if (span && (d >= 16 || span > top >> d))
                return 0;
            most = span ? span << d : 0;
            z = f->differ ? (long)kf_trailing_zeros(f->differ) + d : 0;
        } else {
            const long k = -d;
            if (f->differ && (k >= 32 || (f->differ & ((1u << k) - 1)) != 0))
                return 0;
            most = k >= 32 ? 0 : span >> k;
            if (most > top)
                return 0;
            z = f->differ ? (long)kf_trailing_zeros(f->differ) - k : 0;
        }
        spans->most[m] = most;
        spans->any[m] = f->differ ? 1u << (z < 31 ? z : 31) : 0;
    }
    return 1;
}

/* How a sequence's lane is kept (lay.quant): as floats; quantized, every
 * component; a SLERP lane, x, y and z quantized and w, which the file
 * rebuilt from them, rebuilt by the kernels (kf_layout.h, KF_QSLERP_*); a
 * HERMITE lane, its values and key tangents quantized and its segments'
 * lengths floats (kf_layout.h, kf_qhermite_key); or a SQUAD lane, its
 * keys, a and b each as a SLERP lane's keys (kf_layout.h, KF_QSQUAD_*). */
enum { QUANT_NONE, QUANT_ALL, QUANT_XYZ, QUANT_HERMITE, QUANT_SQUAD };
/* With QUANT_HERMITE and QUANT_SQUAD: the incoming fields are the outgoing
 * ones, kept once (kf_block_shared); a lane of its own kind. */
#define QUANT_SHARED  0x10
#define QUANT_KIND(q) ((q)&0x0F)

/* The length of the segment from valid key k of s that a quantized HERMITE
 * lane keeps (kf_quantized_segment): the played one's, as a float, or 0
 * where none is played from k (the last key but in LOOP) or it is empty. */
static float hermite_segment(const struct kf_sequence *s, uint32_t k)
{
    if (k + 1 >= s->valid_count && s->repeat != KFB_REPEAT_LOOP)
        return 0.0f;
    const double length = kf_sequence_segment_duration(s, k);
    return length > 0.0 ? (float)length : 0.0f;
}

/* Whether every key of HERMITE sequence s has one key tangent, incoming and
 * outgoing the same floats. */
static int smooth_keys(const struct kf_sequence *s)
{
    const size_t c = s->components;
    size_t k = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* A vector's key: its first four floats against the four from its
     * outgoing tangent on (the last key's would read past the array), four
     * keys a step, then one */
#define SAME(t)                                                                                    \
    _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(const void *)(t)),                           \
                    _mm_loadu_si128((const __m128i *)(const void *)((t) + 3)))
    for (; c == 3 && k + 4 < s->key_count; k += 4) {
        const float *t = s->key_tangents + 6 * k;
        const __m128i same = _mm_and_si128(_mm_and_si128(SAME(t), SAME(t + 6)),
                                           _mm_and_si128(SAME(t + 12), SAME(t + 18)));
        if ((_mm_movemask_epi8(same) & 0xFFF) != 0xFFF)
            return 0;
    }
#undef SAME
    for (; c == 3 && k + 1 < s->key_count; k++) {
        const float *t = s->key_tangents + 6 * k;
        const __m128i in = _mm_loadu_si128((const __m128i *)(const void *)t),
                      out = _mm_loadu_si128((const __m128i *)(const void *)(t + 3));
        if ((_mm_movemask_epi8(_mm_cmpeq_epi32(in, out)) & 0xFFF) != 0xFFF)
            return 0;
    }
#endif
    /* (words compared in place: a call a key cost more than the compare) */
    for (; k < s->key_count; k++) {
        const float *t = s->key_tangents + 2 * c * k;
        uint32_t differ = 0;
        for (size_t m = 0; m < c; m++) {
            uint32_t in, out;
            memcpy(&in, &t[m], 4);
            memcpy(&out, &t[c + m], 4);
            differ |= in ^ out;
        }
        if (differ)
            return 0;
    }
    return 1;
}

/* Whether the w of each of the n quaternions at v (a SLERP sequence's
 * keys, a SQUAD one's keys, a or b) is, to the bit, what x, y and z leave
 * of unit length with w's sign (kf_unit_rest, as the reader rebuilt it
 * and as kf_lane_w and the kernels do). */
static int w_rebuilt(const float *values, uint32_t n)
{
    uint32_t k = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Two keys a step, kf_unit_rest's operations in double, as the reader's
     * decoder takes them; the keys of a step whose sum of squares is past 1
     * are left to the loop below, which refuses them. */
    const __m128d one = _mm_set1_pd(1.0);
    const __m128 sign = _mm_set1_ps(-0.0f);
    for (; k + 2 <= n; k += 2) {
        const __m128 a = _mm_loadu_ps(values + (size_t)k * 4),
                     b = _mm_loadu_ps(values + (size_t)k * 4 + 4);
        const __m128 xy = _mm_unpacklo_ps(a, b), zw = _mm_unpackhi_ps(a, b);
        const __m128d x = _mm_cvtps_pd(xy), y = _mm_cvtps_pd(_mm_movehl_ps(xy, xy)),
                      z = _mm_cvtps_pd(zw);
        __m128d sum = _mm_mul_pd(x, x);
        sum = _mm_add_pd(sum, _mm_mul_pd(y, y));
        sum = _mm_add_pd(sum, _mm_mul_pd(z, z));
        if (_mm_movemask_pd(_mm_cmple_pd(sum, one)) != 3)
            break;
        const __m128 w = _mm_movehl_ps(zw, zw);
        const __m128 rest =
            _mm_or_ps(_mm_cvtpd_ps(_mm_sqrt_pd(_mm_sub_pd(one, sum))), _mm_and_ps(w, sign));
        if ((_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_castps_si128(rest), _mm_castps_si128(w))) &
             0xFF) != 0xFF)
            return 0;
    }
#endif
    for (; k < n; k++) {
        const float *v = values + (size_t)k * 4;
        float w;
        if (!kf_unit_rest(v, 4, 3, signbit(v[3]) != 0, &w) || memcmp(&w, &v[3], sizeof w))
            return 0;
    }
    return 1;
}

/* The narrowest width of q (kf_block.qbits: 8, 12 or 16 bits) that holds
 * the keys whose q on_grid found (`spans`), in the first `grid` components
 * (of `scale`), once the trailing zero
 * bits that all of a component's q share are moved into its scale, which
 * this sets: base + (q >> z) * (scale * 2^z) is base + q * scale, both
 * products exact (a power of two times an integer below 2^16), so the
 * narrower q give the very floats back. kfc -e's grids are coarser than
 * the finest power of two a lane's range allows, and a lane spans few of
 * their steps. A SLERP lane's x (`slerp`) keeps a bit for w's sign. (A
 * SLERP lane's w, off the grid, gives its component garbage, unread.) */
static uint32_t narrow(const q_spans *spans, uint32_t grid, int slerp, float *scale)
{
    const uint32_t *any = spans->any;
    uint32_t top[KF_BLOCK_COMPONENTS], bits = 8;
    memcpy(top, spans->most, sizeof top);
    for (uint32_t m = 0; m < grid; m++) {
        /* (at most 15: q below 2^16) */
        uint32_t z = any[m] ? kf_trailing_zeros(any[m]) : 0;
        z = z < 15 ? z : 15;
        const float coarse = scale[m] * (float)(1u << z); /* (exact: z <= 15) */
        if (coarse <= FLT_MAX)
            scale[m] = coarse;
        else
            z = 0;
        top[m] >>= z;
        if (slerp && m == 0)
            top[m] = 2 * top[m] + 1;
        const uint32_t need = top[m] < 256u ? 8 : top[m] < 4096u ? 12 : 16;
        bits = need > bits ? need : bits;
    }
    return bits;
}

/* A quantized lane's grid per field, as its block keeps it (kf_block.dequant):
 * the base, then the scale with narrow's shift in it. quantize finds them
 * and put_dequant places them, so that no lane's keys are read a third
 * time for them. */
typedef struct grid_field {
    float base, scale;
} grid_field;

/* The most fields a lane of s can keep on grids: quantize's kinds. */
static uint32_t grid_fields_most(const struct kf_sequence *s)
{
    if (!packed(s) || s->key_count < QUANTIZE_KEYS)
        return 0;
    switch (s->interpolation) {
    case KFB_INTERP_STEP:
    case KFB_INTERP_LINEAR:
        return s->components;
    case KFB_INTERP_SLERP:
        return s->components == 4 ? KF_QSLERP_GRID : 0;
    case KFB_INTERP_SQUAD:
        return s->components == 4 ? KF_QSQUAD_GRID : 0;
    case KFB_INTERP_HERMITE:
        return 2 * s->components <= KF_BLOCK_COMPONENTS ? 3 * s->components : 0;
    default:
        return 0;
    }
}

/* Keeps n grids (`base`, `scale`, narrowed) as fields first + m, or as key
 * tangent columns (`columns`). */
static void keep_grid(grid_field *grid, const float *base, const float *scale, uint32_t n,
                      uint32_t c, int columns, uint32_t first)
{
    for (uint32_t m = 0; m < n; m++) {
        /* key tangent column m: incoming (field 2c + m), then outgoing */
        const uint32_t f = !columns ? first + m : m < c ? 2 * c + m : m;
        grid[f].base = base[m];
        grid[f].scale = scale[m];
    }
}

/* The quaternions a quantized SQUAD lane keeps: its keys, a and b. */
static const float *squad_quats(const struct kf_sequence *s, uint32_t part)
{
    return part == 0 ? s->values : part == 1 ? s->tangent_out : s->tangent_in;
}

/* quantize's question for SQUAD sequence s (every key valid), whose keys'
 * x, y and z it found on the grid of `base` and `scale`: whether a's and
 * b's are on 15-bit grids too, and every w rebuilt; then its width and
 * grids, as for SLERP's keys. */
static int quantize_squad(const struct kf_sequence *s, const kf_value_facts *facts, float *base,
                          float *scale, q_spans *spans, uint32_t *bits, grid_field *grid)
{
    const uint32_t n = s->key_count;
    const int shared = memcmp(s->tangent_out, s->tangent_in, 4 * (size_t)n * sizeof(float)) == 0;
    *bits = 8;
    for (uint32_t part = 0; part < (shared ? 2u : 3u); part++) {
        const float *q = squad_quats(s, part);
        /* a from the reader's facts where it has them (b it decoded
         * against a: none) */
        const int known = part == 1 && facts ? grid_of_facts(facts->tangent, 4, 7u, KF_QSLERP_TOP,
                                                             base, scale, spans)
                                             : -1;
        const int rebuilt = facts && (part == 0   ? facts->w_rebuilt
                                      : part == 1 ? facts->tangent_w_rebuilt
                                                  : 0);
        if (known == 0 ||
            (part != 0 && known < 0 &&
             !(grid_of(q, 4, n, 7u, KF_QSLERP_TOP, base, scale) &&
               on_grid(q, 4, n, 7u, KF_QSLERP_TOP, base, scale, spans))) ||
            !(rebuilt || w_rebuilt(q, n)))
            return QUANT_NONE;
        const uint32_t w = narrow(spans, KF_QSLERP_GRID, 1, scale);
        keep_grid(grid, base, scale, KF_QSLERP_GRID, 4, 0, part * KF_QSLERP_GRID);
        *bits = w > *bits ? w : *bits;
    }
    return QUANT_SQUAD | (shared ? QUANT_SHARED : 0);
}

/* How sequence s's lane is kept: quantized (kf_block.dequant) where it is a
 * STEP or LINEAR sequence in a block, not wide, of at least QUANTIZE_KEYS
 * keys, each component of which is at every key base + q * scale for some
 * q in [0, 2^16) (grid_of, on_grid), or a SLERP one whose x, y and z are,
 * q in [0, 2^15), and whose w is what they leave of unit length (the
 * kernels rebuild it): what kfc -e writes (values on a grid of a power of
 * two; a quaternion's largest component rebuilt from the others), and any
 * other keys that happen to be so. Keys that a grid holds exactly pass the same test on
 * their first keys, whose grid is finer or the same; keys of full
 * precision fail it there, so that a lossless clip pays a few keys per
 * sequence for the question. */
static int quantize(const struct kf_sequence *s, const kf_value_facts *facts, int wide,
                    uint32_t *bits, grid_field *grid)
{
    *bits = 16;
    const int squad = s->interpolation == KFB_INTERP_SQUAD && s->components == 4 &&
                      s->tangent_out && s->tangent_in && s->valid_count == s->key_count;
    const int quat = (s->interpolation == KFB_INTERP_SLERP && s->components == 4) || squad;
    const int hermite = s->interpolation == KFB_INTERP_HERMITE && s->key_tangents &&
                        s->tangent_out && s->tangent_in &&
                        2 * s->components <= KF_BLOCK_COMPONENTS && s->valid_count == s->key_count;
    if ((s->interpolation != KFB_INTERP_STEP && s->interpolation != KFB_INTERP_LINEAR && !quat &&
         !hermite) ||
        !packed(s) || s->key_count < QUANTIZE_KEYS)
        return QUANT_NONE;
    const uint32_t c = s->components;
    const unsigned check = quat ? 7u : (1u << c) - 1;
    float base[KF_BLOCK_COMPONENTS], scale[KF_BLOCK_COMPONENTS];
    const uint32_t top = quat ? KF_QSLERP_TOP : QUANTIZE_TOP;
    q_spans spans;
    /* From the reader's facts where it has them; else a few keys first,
     * which a lossless clip's fail, then all. */
    const int known = facts && c <= KF_FACT_COLUMNS
                          ? grid_of_facts(facts->column, c, check, top, base, scale, &spans)
                          : -1;
    if (known == 0 ||
        (known < 0 && !(grid_of(s->values, c, QUANTIZE_KEYS, check, top, base, scale) &&
                        on_grid(s->values, c, QUANTIZE_KEYS, check, top, base, scale, NULL))) ||
        wide ||
        (known < 0 && !(grid_of(s->values, c, s->key_count, check, top, base, scale) &&
                        on_grid(s->values, c, s->key_count, check, top, base, scale, &spans))))
        return QUANT_NONE;
    if (squad)
        return quantize_squad(s, facts, base, scale, &spans, bits, grid);
    if (quat) {
        if (!(facts && facts->w_rebuilt) && !w_rebuilt(s->values, s->key_count))
            return QUANT_NONE;
        *bits = narrow(&spans, KF_QSLERP_GRID, 1, scale);
        keep_grid(grid, base, scale, KF_QSLERP_GRID, c, 0, 0);
        return QUANT_XYZ;
    }
    const uint32_t values = narrow(&spans, c, 0, scale);
    keep_grid(grid, base, scale, c, c, 0, 0);
    if (!hermite) {
        *bits = values;
        return QUANT_ALL;
    }
    /* Its key tangents too, and the scaled ones from them. */
    const uint32_t w = 2 * c;
    const unsigned all = (1u << w) - 1;
    const int tangents_known =
        facts && w <= KF_TANGENT_FACT_COLUMNS
            ? grid_of_facts(facts->tangent, w, all, QUANTIZE_TOP, base, scale, &spans)
            : -1;
    if (tangents_known == 0 ||
        (tangents_known < 0 &&
         !(grid_of(s->key_tangents, w, s->key_count, all, QUANTIZE_TOP, base, scale) &&
           on_grid(s->key_tangents, w, s->key_count, all, QUANTIZE_TOP, base, scale, &spans))) ||
        /* the scaled tangents what the lane computes, to the bit: the
         * reader's answer, or asked here of the builder's */
        !(facts ? facts->hermite_exact
                : kf_hermite_exact(s->times, s->key_tangents, s->valid_count, s->components,
                                   s->duration, s->repeat)))
        return QUANT_NONE;
    const uint32_t tangents = narrow(&spans, w, 0, scale);
    keep_grid(grid, base, scale, w, c, 1, 0);
    *bits = values > tangents ? values : tangents;
    return QUANT_HERMITE | (smooth_keys(s) ? QUANT_SHARED : 0);
}

/* Fields of q per key of a quantized lane of kind q (QUANT_*, with
 * QUANT_SHARED) of sequence s (kf_block.fields). */
static uint32_t q_fields_of(const struct kf_sequence *s, int q)
{
    const uint32_t shared = (q & QUANT_SHARED) != 0;
    switch (QUANT_KIND(q)) {
    case QUANT_XYZ:
        return KF_QSLERP_GRID;
    case QUANT_SQUAD: /* key, a, b; or key, a */
        return KF_QSQUAD_GRID - shared * KF_QSLERP_GRID;
    case QUANT_HERMITE:
        return (3 - shared) * s->components;
    default:
        return fields_of(s);
    }
}

static uint32_t q_fields(const lay *ly, uint32_t si)
{
    return q_fields_of(&ly->seq[si], ly->quant[si]);
}

/* Bytes per key of a 12-bit block's high nibbles (kf_block.high): a uint16
 * per field on the grid; else 0. */
static size_t high_bytes(const lay *ly, uint32_t si)
{
    return ly->bits[si] == 12 ? 2 * (size_t)q_fields(ly, si) : 0;
}

/* Whether a HERMITE sequence's authored key tangents can be kept quantized
 * (kf_key_tangent), and then per column (incoming, then outgoing, per
 * component) its base and scale: what kfc -e writes (its tangents on a
 * grid), checked as quantize checks keys. Up to 8 components (a column
 * mask and grid_of's room). */
static int quantize_key_tangents(const struct kf_sequence *s)
{
    float base[KF_BLOCK_COMPONENTS], scale[KF_BLOCK_COMPONENTS];
    const uint32_t w = 2 * s->components;
    if (s->interpolation != KFB_INTERP_HERMITE || !s->key_tangents || w > KF_BLOCK_COMPONENTS ||
        s->key_count < QUANTIZE_KEYS)
        return 0;
    const unsigned all = (1u << w) - 1;
    return grid_of(s->key_tangents, w, QUANTIZE_KEYS, all, QUANTIZE_TOP, base, scale) &&
           on_grid(s->key_tangents, w, QUANTIZE_KEYS, all, QUANTIZE_TOP, base, scale, NULL) &&
           grid_of(s->key_tangents, w, s->key_count, all, QUANTIZE_TOP, base, scale) &&
           on_grid(s->key_tangents, w, s->key_count, all, QUANTIZE_TOP, base, scale, NULL);
}

/* The n keys of c components at v (on_grid holds) as uint16 at q, row by
 * row: (x - base) * (1 / scale), truncated, as fill_quantized does; four
 * keys a step in SSE2 (component (4t + p) % c at float p of vector t, as
 * grid_of). */
static void put_grid(uint16_t *q, const float *v, uint32_t c, uint32_t n, const float *base,
                     const float *scale)
{
    uint32_t k = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    __m128 b[KF_BLOCK_COMPONENTS], inv[KF_BLOCK_COMPONENTS];
    for (uint32_t t = 0; t < c; t++) {
        float pb[4], pi[4];
        for (uint32_t p = 0; p < 4; p++) {
            pb[p] = base[(4 * t + p) % c];
            pi[p] = 1.0f / scale[(4 * t + p) % c];
        }
        b[t] = _mm_loadu_ps(pb);
        inv[t] = _mm_loadu_ps(pi);
    }
    for (; k + 4 <= n; k += 4) {
        const float *x = v + (size_t)k * c;
        uint16_t *to = q + (size_t)k * c;
        for (uint32_t t = 0; t < c; t++) {
            const __m128i r =
                _mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(x + 4 * t), b[t]), inv[t]));
            _mm_storel_epi64((__m128i *)(void *)(to + 4 * t), to_u16(r, r));
        }
    }
#endif
    for (; k < n; k++)
        for (uint32_t m = 0; m < c; m++)
            q[(size_t)k * c + m] = (uint16_t)((v[(size_t)k * c + m] - base[m]) * (1.0f / scale[m]));
}

/* Floats a HERMITE sequence's quantized key tangents take: the uint16,
 * then a base and a scale per column. */
static uint64_t key_tangent_floats(const struct kf_sequence *s)
{
    const uint64_t w = 2 * (uint64_t)s->components;
    return ((uint64_t)s->key_count * w + 1) / 2 + 2 * w;
}

/* Floats per key of a block of sequence si's kind: four lanes of floats
 * per field, or of q per field of q (q_fields: a quantized SLERP block's
 * KF_QSLERP_GRID, a SQUAD block's KF_QSQUAD_GRID or fewer) where
 * quantized, and a quantized HERMITE block's lengths (kf_qhermite_key). */
static size_t key_floats(const lay *ly, uint32_t si)
{
    const size_t fields = fields_of(&ly->seq[si]);
    switch (QUANT_KIND(ly->quant[si])) {
    case QUANT_ALL: /* (12 bits: the low 8 here, the rest after the stripe) */
        return ly->bits[si] == 16 ? fields * KF_LANES / 2 : fields * KF_LANES / 4;
    case QUANT_XYZ:
    case QUANT_SQUAD: /* (as QUANT_ALL, of their fields on the grid) */
        return ly->bits[si] == 16 ? q_fields(ly, si) * KF_LANES / 2
                                  : q_fields(ly, si) * KF_LANES / 4;
    case QUANT_HERMITE: /* (12 bits: as QUANT_ALL) */
        return kf_qhermite_key(q_fields(ly, si), ly->bits[si]);
    default:
        return fields * KF_LANES;
    }
}

/* Floats of bases and scales a block of sequence si's kind holds: two per
 * lane and field of q (half a pair's, KF_DEQUANT_FIELD). */
static size_t dequant_floats(const lay *ly, uint32_t si)
{
    return ly->quant[si] == QUANT_NONE ? 0 : (size_t)q_fields(ly, si) * 2 * KF_LANES;
}

/* The segment lengths a tile's quantized HERMITE blocks of one clock
 * share (fill_quantized_floats): the first block's, rows `step` floats
 * apart from key k0's, written up to key `end`. */
typedef struct shared_lengths {
    const float *from;
    uint32_t end;
} shared_lengths;

/* A quantized lane's floats of keys [k0, k1) of lane l of sequence s
 * (`row`: key k0's row, rows `step` floats apart): a HERMITE block's
 * segment lengths, which its lanes share (lane 0's, which a block always
 * has), and every HERMITE block of its clock too: computed for the first
 * of a tile, copied from it for the others (*shared). */
static void fill_quantized_floats(float *row, size_t step, uint32_t k0, uint32_t k1, uint32_t l,
                                  const struct kf_sequence *s, const kf_block *bk,
                                  shared_lengths *shared)
{
    if (k1 > s->key_count)
        k1 = s->key_count;
    if (s->interpolation != KFB_INTERP_HERMITE || l)
        return;
    float *to = row + kf_qhermite_segment(bk->fields, bk->qbits);
    if (shared->from && k1 <= shared->end) {
        const float *from = shared->from;
        for (uint32_t k = k0; k < k1; k++, to += step, from += step)
            *to = *from;
        return;
    }
    shared->from = to;
    shared->end = k1;
    for (uint32_t k = k0; k < k1; k++, to += step)
        *to = hermite_segment(s, k);
}

/* Whether field m of a quantized lane of s is a quaternion's x, whose q
 * carries its w's sign (KF_QSLERP_SIGN). */
static int sign_field(const struct kf_sequence *s, uint32_t m)
{
    return (s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD) &&
           m % KF_QSLERP_GRID == 0;
}

/* Where field f of a quantized lane of s comes from: key 0's float, keys
 * *stride floats apart (the values, or HERMITE's outgoing, then incoming
 * key tangents, as kf_key_tangent reads them back), the float *column of
 * its key's. */
static const float *grid_source(const struct kf_sequence *s, uint32_t f, uint32_t *stride,
                                uint32_t *column)
{
    const uint32_t c = s->components;
    *stride = c;
    if (s->interpolation == KFB_INTERP_SQUAD) { /* keys, a, b: x, y, z each */
        *column = f % KF_QSLERP_GRID;
        return squad_quats(s, f / KF_QSLERP_GRID) + *column;
    }
    *column = f < 2 * c ? f : f - 2 * c;
    if (f < c)
        return s->values + f;
    *stride = 2 * c;
    return s->key_tangents + *column;
}

/* The bases and scales of quantized lane l of s into its block's `d`
 * (per field the four lanes' bases, then their scales): `grid`, quantize's
 * (a SQUAD or HERMITE lane whose incoming fields are its outgoing ones
 * keeps those once). */
static void put_dequant(const struct kf_sequence *s, int q, float *d, uint32_t l,
                        const grid_field *grid)
{
    const uint32_t fields = q_fields_of(s, q);
    for (uint32_t f = 0; f < fields; f++) {
        d[(size_t)f * KF_DEQUANT_FIELD + l] = grid[f].base;
        d[(size_t)f * KF_DEQUANT_FIELD + 2 * KF_LANES + l] = grid[f].scale;
    }
}

/* Whether every value of a quantized lane's `fields` grids, base + q *
 * scale, is a whole number of 2^-12 (kf_block.float_w): the base is, and
 * the scale, a power of two, is no finer. */
static int on_float_w_grid(const grid_field *grid, uint32_t fields)
{
    for (uint32_t f = 0; f < fields; f++) {
        const float steps = grid[f].base * 4096.0f; /* (exact) */
        if (!(fabsf(grid[f].base) <= 1.0f && grid[f].scale >= 1.0f / 4096 &&
              steps == floorf(steps)))
            return 0;
    }
    return 1;
}

/* q of lane l and field m into the row of a quantized block of `bits`
 * (kf_block.qbits; `high`: kf_block.high) at `row`, whose high nibbles (12
 * bits) were zeroed. */
static inline void put_q(float *row, uint32_t bits, uint32_t high, uint32_t m, uint32_t l,
                         uint32_t q)
{
    unsigned char *at = (unsigned char *)row;
    switch (bits) {
    case 8:
        at[m * KF_LANES + l] = (unsigned char)q;
        break;
    case 12:
        at[m * KF_LANES + l] = (unsigned char)q;
        ((uint16_t *)(void *)(at + high))[m] |= (uint16_t)((q >> 8) << (4 * l));
        break;
    default:
        ((uint16_t *)(void *)row)[m * KF_LANES + l] = (uint16_t)q;
        break;
    }
}

/* Keys [k0, k1) of quantized lane l of sequence s into block b (`row`:
 * key k0's row, rows `step` floats apart; b->dequant: the bases and scales
 * put_dequant gave): its components on the grid as q of b's width, then
 * its floats. */
static void fill_quantized(float *row, size_t step, uint32_t k0, uint32_t k1, uint32_t l,
                           const struct kf_sequence *s, const kf_block *bk, shared_lengths *shared)
{
    const float *d = bk->dequant;
    fill_quantized_floats(row, step, k0, k1, l, s, bk, shared);
    if (k1 > s->key_count)
        k1 = s->key_count;
    for (uint32_t m = 0; m < bk->fields; m++) {
        const float b = d[(size_t)m * KF_DEQUANT_FIELD + l],
                    inv = 1.0f / d[(size_t)m * KF_DEQUANT_FIELD + 2 * KF_LANES + l];
        float *to = row;
        uint32_t c, column;
        const float *from = grid_source(s, m, &c, &column) + (size_t)k0 * c;
        /* a quaternion's x carries w's sign (kf_layout.h) */
        const int sign = sign_field(s, m);
        for (uint32_t k = k0; k < k1; k++, to += step, from += c) {
            const uint32_t q = (uint32_t)((*from - b) * inv); /* as on_grid found it */
            put_q(to, bk->qbits, bk->high, m, l,
                  sign ? q << 1 | (signbit(from[3]) ? KF_QSLERP_SIGN : 0u) : q);
        }
    }
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)

/* The first n (an even count, up to 16) bytes of v at `to`. */
KF_ALWAYS_INLINE void store_bytes(unsigned char *to, __m128i v, uint32_t n)
{
    if (n == 16) {
        _mm_storeu_si128((__m128i *)(void *)to, v);
        return;
    }
    if (n >= 8) {
        _mm_storel_epi64((__m128i *)(void *)to, v);
        v = _mm_srli_si128(v, 8);
        to += 8;
        n -= 8;
    }
    const uint32_t word = (uint32_t)_mm_cvtsi128_si32(v);
    if (n >= 4) {
        memcpy(to, &word, 4);
        const uint32_t next = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(v, 4));
        if (n > 4)
            memcpy(to + 4, &next, 2);
    } else if (n) {
        memcpy(to, &word, 2);
    }
}

/* put_q for the four lanes of g (1 to 4) fields from m0 on, q[j] field
 * m0 + j's (a lane each; those past g are 0), into the row at `to`. */
KF_ALWAYS_INLINE void put_q_fields(unsigned char *to, uint32_t bits, uint32_t high, uint32_t m0,
                                   uint32_t g, const __m128i q[4])
{
    if (bits == 16) {
        store_bytes(to + 2 * m0 * KF_LANES, to_u16(q[0], q[1]), g < 2 ? 8 * g : 16);
        if (g > 2)
            store_bytes(to + 2 * (m0 + 2) * KF_LANES, to_u16(q[2], q[3]), 8 * (g - 2));
        return;
    }
    /* 8 or 12 bits: q < 2^15, which signed saturation keeps */
    const __m128i p01 = _mm_packs_epi32(q[0], q[1]), p23 = _mm_packs_epi32(q[2], q[3]);
    const __m128i byte = _mm_set1_epi16(0xFF);
    store_bytes(to + m0 * KF_LANES,
                _mm_packus_epi16(_mm_and_si128(p01, byte), _mm_and_si128(p23, byte)), KF_LANES * g);
    if (bits != 12)
        return;
    /* the high nibbles as bytes (a field's four lanes in turn), then each
     * two lanes' nibbles in one byte: a uint16 a field, lane l's at 4l */
    const __m128i nibbles = _mm_packus_epi16(_mm_srli_epi16(p01, 8), _mm_srli_epi16(p23, 8));
    const __m128i pairs =
        _mm_or_si128(_mm_and_si128(nibbles, _mm_set1_epi16(0x000F)),
                     _mm_and_si128(_mm_srli_epi16(nibbles, 4), _mm_set1_epi16(0x00F0)));
    store_bytes(to + high + 2 * m0, _mm_packus_epi16(pairs, pairs), 2 * g);
}

/* One group of fill_quantized_block (the constant arguments of its calls
 * make a loop of each kind of group, its fields in registers): fields
 * [m0, m0 + g) of the four lanes of keys [k, k1), whose sources are g
 * neighbouring floats of a key (p[l]: key k's, keys `stride` floats
 * apart), and for a quaternion's x, y and z (`sign`) its w after them;
 * `width` floats of a key read (4, or past the array's end at its last
 * key, the group's own: g, or 4 with w). b, inv: the fields' bases and
 * reciprocal scales. */
KF_ALWAYS_INLINE void group_rows(unsigned char *to, size_t step, uint32_t k, uint32_t k1,
                                 const float *const p[KF_LANES], uint32_t stride, uint32_t width,
                                 const __m128 b[4], const __m128 inv[4], uint32_t m0, uint32_t g,
                                 int sign, uint32_t bits, uint32_t high)
{
    const float *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];
    const __m128i zero = _mm_setzero_si128();
    for (; k < k1; k++, to += step, p0 += stride, p1 += stride, p2 += stride, p3 += stride) {
        __m128 r0 = load_floats(p0, width), r1 = load_floats(p1, width),
               r2 = load_floats(p2, width), r3 = load_floats(p3, width);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        /* as on_grid found it (written out: a loop over g stays a loop
         * at -O2, its registers in memory) */
#define Q(r, j) (g > j ? _mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(r, b[j]), inv[j])) : zero)
        __m128i q[4] = {Q(r0, 0), Q(r1, 1), Q(r2, 2), Q(r3, 3)};
#undef Q
        /* a quaternion's x carries w's sign (kf_layout.h) in bit 0 */
        if (sign)
            q[0] = _mm_or_si128(_mm_slli_epi32(q[0], 1), _mm_srli_epi32(_mm_castps_si128(r3), 31));
        put_q_fields(to, bits, high, m0, g, q);
    }
}

/* fill_quantized_block's group of fields [m0, m0 + g) (group_rows), from
 * src[l] (key k0's floats of lane l); `safe`: the keys from which four
 * floats may be read. */
static void fill_quantized_group(float *row, size_t step, uint32_t k0, uint32_t k1,
                                 const kf_block *bk, uint32_t m0, uint32_t g, int sign,
                                 const float *const src[KF_LANES], uint32_t stride, uint32_t safe)
{
    __m128 b[4], inv[4];
    for (uint32_t j = 0; j < 4; j++) {
        const float *d = bk->dequant + (size_t)(m0 + (j < g ? j : 0)) * KF_DEQUANT_FIELD;
        b[j] = _mm_load_ps(d);
        inv[j] = _mm_div_ps(_mm_set1_ps(1.0f), _mm_load_ps(d + 2 * KF_LANES));
    }
    unsigned char *to = (unsigned char *)row;
    const size_t bytes = step * sizeof(float);
    const uint32_t full = k1 < safe ? k1 : safe > k0 ? safe : k0, bits = bk->qbits, high = bk->high;
#define ROWS(G, SIGN, BITS)                                                                        \
    group_rows(to, bytes, k0, full, src, stride, 4, b, inv, m0, G, SIGN, BITS, high)
#define BY_BITS(G, SIGN)                                                                           \
    (bits == 12 ? ROWS(G, SIGN, 12) : bits == 8 ? ROWS(G, SIGN, 8) : ROWS(G, SIGN, 16))
    if (sign)
        BY_BITS(3, 1);
    else if (g == 3)
        BY_BITS(3, 0);
    else if (g == 4)
        BY_BITS(4, 0);
    else if (g == 2)
        BY_BITS(2, 0);
    else
        BY_BITS(1, 0);
#undef BY_BITS
#undef ROWS
    if (full < k1) {
        const float *p[KF_LANES];
        for (uint32_t l = 0; l < KF_LANES; l++)
            p[l] = src[l] + (size_t)(full - k0) * stride;
        /* (a group's last key: any kind of group, at run time) */
        group_rows(to + (full - k0) * bytes, bytes, full, k1, p, stride, sign ? 4 : g, b, inv, m0,
                   g, sign, bits, high);
    }
}
#endif

/* fill_quantized for the four lanes of a block whose lanes have all their
 * keys valid (full_block), with the arithmetic of fill_quantized lane by
 * lane: in SSE2, its fields in groups of up to four whose sources are
 * neighbouring floats of a key (a vector's components, a quaternion's x,
 * y and z), each key's group of the four lanes read as four rows and
 * turned into fields by one 4x4 transposition. */
static void fill_quantized_block(float *row, size_t step, uint32_t k0, uint32_t k1,
                                 const struct kf_sequence *const s[KF_LANES], const kf_block *bk,
                                 shared_lengths *shared)
{
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    for (uint32_t m = 0, g; m < bk->fields; m += g) {
        uint32_t stride, column, next_stride, next_column;
        const float *first = grid_source(s[0], m, &stride, &column);
        const int sign = sign_field(s[0], m);
        /* a group ends at four fields, at the next quaternion or where
         * the next field is read from elsewhere */
        for (g = 1; g < 4 && m + g < bk->fields && !sign_field(s[0], m + g) &&
                    grid_source(s[0], m + g, &next_stride, &next_column) == first + g &&
                    next_stride == stride;
             g++) {
        }
        const float *src[KF_LANES];
        for (uint32_t l = 0; l < KF_LANES; l++)
            src[l] = grid_source(s[l], m, &next_stride, &next_column) + (size_t)k0 * stride;
        /* Four floats from a key's group on stay in its array (whose keys
         * are the lanes' rows: full_block) but past the end of its key
         * at its last key. */
        const uint32_t safe = column + 4 <= stride ? UINT32_MAX : s[0]->key_count - 1;
        fill_quantized_group(row, step, k0, k1, bk, m, g, sign, src, stride, safe);
    }
    for (uint32_t l = 0; l < KF_LANES; l++)
        fill_quantized_floats(row, step, k0, k1, l, s[l], bk, shared);
#else
    for (uint32_t l = 0; l < KF_LANES; l++)
        fill_quantized(row, step, k0, k1, l, s[l], bk, shared);
#endif
}

/* Fields [f, f + n) of lane l of keys [k0, k1) (rows `step` floats
 * apart, from the one of key k0) from n columns of `src`, a row of `stride`
 * floats per key. */
static void put_fields(float *data, size_t step, uint32_t k0, uint32_t k1, uint32_t f, uint32_t n,
                       uint32_t l, const float *src, uint32_t stride)
{
    for (uint32_t m = 0; m < n; m++) {
        float *to = data + (size_t)(f + m) * KF_LANES + l;
        const float *from = src + (size_t)k0 * stride + m;
        for (uint32_t k = k0; k < k1; k++, to += step, from += stride)
            *to = *from;
    }
}

/* Keys [k0, k1) of sequence s into lane l (`data`: key k0's row): values
 * up to its key count (keys outside the valid range are kept for the
 * source's sake), the rest up to its valid count. */
static void fill_lane(float *data, size_t step, uint32_t k0, uint32_t k1, uint32_t l,
                      const struct kf_sequence *s)
{
    const uint32_t c = s->components, n = s->valid_count;
    if (k0 < s->key_count)
        put_fields(data, step, k0, k1 < s->key_count ? k1 : s->key_count, 0, c, l, s->values, c);
    if (k1 > n)
        k1 = n;
    if (k0 >= k1)
        return;
    switch (s->interpolation) {
    case KFB_INTERP_SPLINE:
    case KFB_INTERP_HERMITE: /* the stored tangents are scaled alike */
        put_fields(data, step, k0, k1, c, c, l, s->tangent_out, c);
        put_fields(data, step, k0, k1, 2 * c, c, l, s->tangent_in, c);
        break;
    case KFB_INTERP_SQUAD:
        put_fields(data, step, k0, k1, KF_FIELD_SQUAD_A, 4, l, s->tangent_out, 4);
        put_fields(data, step, k0, k1, KF_FIELD_SQUAD_B, 4, l, s->tangent_in, 4);
        break;
    default:
        break;
    }
}

/* Whether the four sequences at `order` are the four lanes of one block,
 * in lane order, each with all its `rows` keys valid (fill_block's case). */
static int full_block(const struct kf_sequence *seq, const uint32_t *order,
                      const uint32_t *block_of, uint32_t rows)
{
    for (uint32_t l = 0; l < KF_LANES; l++) {
        const struct kf_sequence *s = &seq[order[l]];
        if (block_of[order[l]] != block_of[order[0]] || s->key_count != rows ||
            s->valid_count != rows)
            return 0;
    }
    return 1;
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* Keys [k, k1) of put_block_fields' loop for n (2 to 4) fields, n a
 * constant in each copy: each key's `width` floats of each lane read (n,
 * or 4 where that stays inside the array). */
KF_ALWAYS_INLINE void block_rows(float *row, size_t step, uint32_t k, uint32_t k1,
                                 const float *const p[KF_LANES], uint32_t stride, uint32_t n,
                                 uint32_t width)
{
    const float *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];
    for (; k < k1; k++, row += step, p0 += stride, p1 += stride, p2 += stride, p3 += stride) {
        __m128 r0 = load_floats(p0, width), r1 = load_floats(p1, width),
               r2 = load_floats(p2, width), r3 = load_floats(p3, width);
        if (n == 2) {
            const __m128 t0 = _mm_unpacklo_ps(r0, r1), t1 = _mm_unpacklo_ps(r2, r3);
            _mm_store_ps(row, _mm_movelh_ps(t0, t1));
            _mm_store_ps(row + KF_LANES, _mm_movehl_ps(t1, t0));
            continue;
        }
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        _mm_store_ps(row, r0);
        _mm_store_ps(row + KF_LANES, r1);
        _mm_store_ps(row + 2 * KF_LANES, r2);
        if (n == 4)
            _mm_store_ps(row + 3 * KF_LANES, r3);
    }
}

/* block_rows over keys [k0, k1) of arrays of `rows` keys: four floats of
 * every key but the last (which a row of fewer reads only its own of). */
KF_ALWAYS_INLINE void block_rows_of(float *row, size_t step, uint32_t k0, uint32_t k1,
                                    const float *const src[KF_LANES], uint32_t stride, uint32_t n,
                                    uint32_t rows)
{
    const uint32_t whole = n == 4 || k1 < rows ? k1 : rows > k0 + 1 ? rows - 1 : k0;
    const float *p[KF_LANES];
    for (uint32_t l = 0; l < KF_LANES; l++)
        p[l] = src[l] + (size_t)k0 * stride;
    block_rows(row, step, k0, whole, p, stride, n, 4);
    for (uint32_t l = 0; l < KF_LANES; l++)
        p[l] = src[l] + (size_t)whole * stride;
    block_rows(row + (size_t)(whole - k0) * step, step, whole, k1, p, stride, n, n);
}
#endif

/* put_fields for the four lanes at once: fields [f, f + n) of keys
 * [k0, k1) from n columns of each lane's source (`src[l]`, `rows` rows of
 * `stride` floats), four fields of the four lanes a step, turned from
 * rows of each lane into fields of four lanes by a 4x4 transposition
 * (SSE2), or lane by lane. */
static void put_block_fields(float *data, size_t step, uint32_t k0, uint32_t k1, uint32_t f,
                             uint32_t n, const float *const src[KF_LANES], uint32_t stride,
                             uint32_t rows)
{
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    float *row = data + (size_t)f * KF_LANES;
    switch (n) { /* (a copy of the loop per width: its tests out of it) */
    case 2:
        block_rows_of(row, step, k0, k1, src, stride, 2, rows);
        return;
    case 3:
        block_rows_of(row, step, k0, k1, src, stride, 3, rows);
        return;
    case 4:
        block_rows_of(row, step, k0, k1, src, stride, 4, rows);
        return;
    default:
        break;
    }
#else
    (void)rows;
#endif
    for (uint32_t l = 0; l < KF_LANES; l++)
        put_fields(data, step, k0, k1, f, n, l, src[l], stride);
}

/* fill_lane for the four lanes of a block whose lanes have all their keys
 * valid (full_block). */
static void fill_block(float *data, size_t step, uint32_t k0, uint32_t k1,
                       const struct kf_sequence *const s[KF_LANES])
{
    const uint32_t c = s[0]->components;
    const float *src[KF_LANES];
#define FIELDS(f, count, array, offset, stride)                                                    \
    do {                                                                                           \
        for (uint32_t l = 0; l < KF_LANES; l++)                                                    \
            src[l] = s[l]->array + (offset);                                                       \
        put_block_fields(data, step, k0, k1, f, count, src, stride, s[0]->key_count);              \
    } while (0)
    FIELDS(0, c, values, 0, c);
    switch (s[0]->interpolation) {
    case KFB_INTERP_SPLINE:
    case KFB_INTERP_HERMITE:
        FIELDS(c, c, tangent_out, 0, c);
        FIELDS(2 * c, c, tangent_in, 0, c);
        break;
    case KFB_INTERP_SQUAD:
        FIELDS(KF_FIELD_SQUAD_A, 4, tangent_out, 0, 4);
        FIELDS(KF_FIELD_SQUAD_B, 4, tangent_in, 0, 4);
        break;
    default:
        break;
    }
#undef FIELDS
}

/* The end of the run of sequences from order[i] on (before `end`) that
 * `same` finds equal to it. */
static uint32_t run_end(const lay *ly, const uint32_t *order, uint32_t i, uint32_t end,
                        int (*same)(const lay *, uint32_t, uint32_t))
{
    uint32_t k = i + 1;
    while (k < end && same(ly, order[i], order[k]))
        k++;
    return k;
}

/* Floats per key of a stripe of `blocks` blocks of sequence order[k]'s
 * kind: four lanes of floats per field, or of q for a quantized stripe
 * (12 bits: every block's low bytes, then every block's high nibbles),
 * rounded up to four floats so that the next stripe's fields stay
 * 16-aligned; 0 if that leaves 32 bits. */
static size_t stripe_width(const lay *ly, uint32_t si, uint32_t blocks)
{
    size_t w = 0, high = 0;
    if (!kf_mul_size(blocks, key_floats(ly, si), &w) ||
        !kf_mul_size(blocks, high_bytes(ly, si), &high) || w > SIZE_MAX / 2 - high)
        return 0;
    w += (high + sizeof(float) - 1) / sizeof(float);
    return (w + KF_LANES - 1) / KF_LANES * KF_LANES;
}

/* Floats per key of the row of the clock order[i .. end): every stripe's
 * blocks' fields; 0 if that leaves 32 bits. Its blocks are added to
 * *blocks, the floats of the quantized ones' bases and scales to *dequant. */
static size_t row_width(const lay *ly, const uint32_t *order, uint32_t i, uint32_t end,
                        uint32_t *blocks, size_t *dequant)
{
    size_t width = 0;
    for (uint32_t k = i, next; k < end; k = next) {
        next = run_end(ly, order, k, end, same_block);
        const uint32_t stripe = (next - k + KF_LANES - 1) / KF_LANES;
        const size_t w = stripe_width(ly, order[k], stripe);
        if (!w || w > UINT32_MAX - width)
            return 0;
        width += w;
        *blocks += stripe;
        *dequant += (size_t)(stripe + 1) / 2 * 2 * dequant_floats(ly, order[k]);
    }
    return width;
}

/* Rows of the clock order[i .. end): the most keys of its sequences (they
 * share key times, but a crafted file may share a longer array's start). */
static uint32_t clock_rows(const struct kf_sequence *seq, const uint32_t *order, uint32_t i,
                           uint32_t end)
{
    uint32_t rows = 0;
    for (uint32_t k = i; k < end; k++)
        rows = seq[order[k]].key_count > rows ? seq[order[k]].key_count : rows;
    return rows;
}

/* Whether every member of the clock order[i .. end) has all its keys
 * valid and as many as the rows (fill_lane writes its values up to its
 * key count, the other fields up to its valid count): then its members
 * write every float of their lanes' rows. */
static int fills_lanes(const struct kf_sequence *seq, const uint32_t *order, uint32_t i,
                       uint32_t end, uint32_t rows)
{
    for (uint32_t k = i; k < end; k++)
        if (seq[order[k]].key_count != rows || seq[order[k]].valid_count != rows)
            return 0;
    return 1;
}

/* Whether the stripes of the clock order[i .. end) leave nothing of its
 * rows to no member: every block full, and no quantized stripe rounded up
 * (stripe_width). */
static int fills_stripes(const lay *ly, const uint32_t *order, uint32_t i, uint32_t end)
{
    for (uint32_t k = i, next; k < end; k = next) {
        next = run_end(ly, order, k, end, same_block);
        if ((next - k) % KF_LANES || (next - k) / KF_LANES * key_floats(ly, order[k]) % KF_LANES ||
            high_bytes(ly, order[k])) /* (its nibbles are put together) */
            return 0;
    }
    return 1;
}

/* Zeroes, in rows [k0, k1) of the clock order[i .. end) (rows `width`
 * floats apart), what no member writes where fills_lanes holds: the empty
 * lanes of each stripe's last block, and a quantized stripe's rounding. */
static void zero_gaps(const lay *ly, const struct kf_layout *L, const uint32_t *order, uint32_t i,
                      uint32_t end, size_t width, uint32_t k0, uint32_t k1)
{
    for (uint32_t k = i, next; k < end; k = next) {
        next = run_end(ly, order, k, end, same_block);
        const uint32_t members = next - k, used = members % KF_LANES;
        const uint32_t blocks = (members + KF_LANES - 1) / KF_LANES;
        const kf_block *last = &L->blocks[L->block_of[order[next - 1]]];
        const size_t per = key_floats(ly, order[k]);
        const size_t pad = stripe_width(ly, order[k], blocks) - blocks * per;
        const int kind = QUANT_KIND(ly->quant[order[k]]);
        /* fields of floats, and of q, with empty lanes to zero (a
         * quantized HERMITE block's floats are its lanes' shared ones);
         * the pad holds a 12-bit stripe's nibbles */
        const size_t floats = kind == QUANT_NONE ? last->fields : 0;
        const size_t qs = kind == QUANT_NONE ? 0 : q_fields(ly, order[k]);
        const int wide_q = kind != QUANT_NONE && last->qbits == 16;
        float *row = (float *)last->data + (size_t)k0 * width;
        for (uint32_t r = k0; r < k1; r++, row += width) {
            uint16_t *half = (uint16_t *)(void *)row;
            unsigned char *byte = (unsigned char *)row;
            for (size_t m = 0; m < qs && used; m++)
                for (uint32_t l = used; l < KF_LANES; l++) {
                    if (wide_q)
                        half[m * KF_LANES + l] = 0;
                    else
                        byte[m * KF_LANES + l] = 0;
                }
            for (size_t m = 0; m < floats && used; m++)
                for (uint32_t l = used; l < KF_LANES; l++)
                    row[m * KF_LANES + l] = 0.0f;
            for (size_t p = 0; p < pad; p++)
                row[per + p] = 0.0f;
        }
    }
}

/* Floats a sequence keeps outside the blocks: its own arrays when no block
 * holds it (values, and SPLINE's and HERMITE's tangents: nothing wider than
 * a block has arcs), and the ones no kernel reads. */
static uint64_t plain_floats(const struct kf_sequence *s, int in_block, int key_tangents_q,
                             int key_tangents_in_block)
{
    const uint64_t n = s->key_count, c = s->components;
    uint64_t floats = 0;
    if (!in_block)
        floats += n * c + 2 *
                              (uint64_t)kf_sequence_tangent_count(s->interpolation, s->valid_count,
                                                                  s->components) *
                              (s->tangent_out != NULL);
    if (s->tcb)
        floats += 3 * n;
    if (s->key_tangents && !key_tangents_in_block)
        floats += key_tangents_q ? key_tangent_floats(s) : 2 * n * c;
    if (s->arc_length)
        floats += kfb_arc_length_floats(s->repeat, s->valid_count);
    return floats;
}

/* The floats of an interpolator's and a follower's arrays. */
static uint64_t interpolator_floats(const struct kf_interpolator *p)
{
    const uint64_t d = kfb_node_dimension(p->node);
    return p->key_count + (uint64_t)p->value_count * d + (uint64_t)p->velocity_count * d +
           (p->derived ? kf_interpolator_derived_count(p) : 0);
}

static uint64_t follower_floats(const struct kf_follower *f)
{
    return 2 * (uint64_t)kf_follower_field_floats(f) + (f->rotations ? 8 : 0);
}

/* `count` floats of `from` to *at, which moves past them; the copy. */
static const float *keep(float **at, const float *from, uint64_t count)
{
    if (!from)
        return NULL;
    float *to = *at;
    if (count)
        memcpy(to, from, (size_t)count * sizeof *to);
    *at += count;
    return to;
}

/* Appends `count` * `size` bytes aligned to `align` to a layout being sized. */
static int add(size_t *total, size_t count, size_t size, size_t align, size_t *offset)
{
    size_t bytes;
    if (!kf_mul_size(count, size, &bytes) || *total > SIZE_MAX - align)
        return 0;
    const size_t start = (*total + align - 1) & ~(align - 1);
    if (bytes > SIZE_MAX - start)
        return 0;
    *offset = start;
    *total = start + bytes;
    return 1;
}

/* The class of each of the n sequences of `order` among at most
 * SORT_CLASSES distinct keys, which class_of finds by a scan: a clip's
 * sequences fall in few (a skeleton's translations, rotations and scales
 * on one clock), and so a counting sort orders them in a few passes. */
#define SORT_CLASSES 16

static uint32_t class_of(const lay *ly, const uint32_t *rep, uint32_t classes, uint32_t si)
{
    for (uint32_t c = 0; c < classes; c++)
        if (same_block(ly, rep[c], si))
            return c;
    return classes;
}

/* Orders `order` (ascending indices, n of them) by compare_sequences,
 * with `scratch` of n words: by counting where there are few classes (at
 * most SORT_CLASSES scans a sequence), else by a bottom-up merge sort (n
 * log n whatever the file holds; qsort has no context argument in C11,
 * and the comparison needs the keys). */
static void sort_sequences(uint32_t *order, uint32_t *scratch, uint32_t n, const lay *ly)
{
    uint32_t rep[SORT_CLASSES], count[SORT_CLASSES], rank[SORT_CLASSES], classes = 0;
    uint32_t i = 0;
    for (; i < n; i++) {
        const uint32_t c = class_of(ly, rep, classes, order[i]);
        if (c == classes) {
            if (classes == SORT_CLASSES)
                break;
            rep[classes] = order[i];
            count[classes++] = 0;
        }
        count[c]++;
        scratch[i] = c;
    }
    if (i == n) {
        /* The classes in key order (each represented by its first, that
         * is least, index), then each one's sequences in index order. */
        for (uint32_t c = 0; c < classes; c++)
            rank[c] = c;
        for (uint32_t c = 1; c < classes; c++)
            for (uint32_t d = c; d > 0 && compare_sequences(rep[rank[d]], rep[rank[d - 1]], ly) < 0;
                 d--) {
                const uint32_t t = rank[d];
                rank[d] = rank[d - 1];
                rank[d - 1] = t;
            }
        uint32_t at[SORT_CLASSES];
        for (uint32_t c = 0, sum = 0; c < classes; c++) {
            at[rank[c]] = sum;
            sum += count[rank[c]];
        }
        /* Each sequence's place, from its class, then each moved there
         * (every swap puts one in its place). */
        for (i = 0; i < n; i++)
            scratch[i] = at[scratch[i]]++;
        for (i = 0; i < n; i++)
            while (scratch[i] != i) {
                const uint32_t j = scratch[i], o = order[j];
                order[j] = order[i];
                order[i] = o;
                scratch[i] = scratch[j];
                scratch[j] = j;
            }
        return;
    }
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            const uint32_t mid = lo + width < n ? lo + width : n;
            const uint32_t hi = mid + width < n ? mid + width : n;
            uint32_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                scratch[o++] =
                    compare_sequences(order[b], order[a], ly) < 0 ? order[b++] : order[a++];
            while (a < mid)
                scratch[o++] = order[a++];
            while (b < hi)
                scratch[o++] = order[b++];
        }
        memcpy(order, scratch, (size_t)n * sizeof *order);
        if (width > UINT32_MAX / 2)
            break;
    }
}

/* Points every object of `o` at the layout's copy of its arrays, which
 * from then on are the animation's only ones: a sequence in a block at its
 * lane (kf_private.h, kf_sequence.row), the rest at plain copies. `order`:
 * every sequence, equal key times next to each other; `quant`: per
 * sequence how its lane is kept, then whether its key tangents are
 * quantized apart (build's scratch). */
static void move_arrays(kf_objects *o, const struct kf_layout *L, const uint32_t *order,
                        const uint8_t *quant)
{
    const uint8_t *ktq = quant + o->count[KF_KIND_SEQUENCE];
    const uint32_t n = o->count[KF_KIND_SEQUENCE];
    struct kf_sequence *seq = o->sequences;
    float *at = L->plain;
    for (uint32_t i = 0, end; i < n; i = end) {
        const float *times = seq[order[i]].times;
        uint32_t keys = 0;
        for (end = i; end < n && seq[order[end]].times == times; end++)
            keys = seq[order[end]].key_count > keys ? seq[order[end]].key_count : keys;
        const float *copy = keep(&at, times, keys);
        for (uint32_t k = i; k < end; k++)
            seq[order[k]].times = copy;
    }
    for (uint32_t i = 0; i < n; i++) {
        struct kf_sequence *s = &seq[i];
        const uint64_t c = s->components, keys = s->key_count;
        float base[KF_BLOCK_COMPONENTS], scale[KF_BLOCK_COMPONENTS];
        const uint32_t w = 2 * s->components;
        s->tcb = keep(&at, s->tcb, 3 * keys);
        if (QUANT_KIND(quant[i]) == QUANT_HERMITE) {
            /* its key tangents are fields of its lane (below) */
        } else if (ktq[i] && grid_of(s->key_tangents, w, s->key_count, (1u << w) - 1, QUANTIZE_TOP,
                                     base, scale)) {
            /* its bases and scales, then the uint16 (kf_key_tangent) */
            float *d = at;
            uint16_t *q = (uint16_t *)(void *)(at + 2 * (size_t)w);
            for (uint32_t m = 0; m < w; m++) {
                d[2 * m] = base[m];
                d[2 * m + 1] = scale[m];
            }
            put_grid(q, s->key_tangents, w, s->key_count, base, scale);
            s->qkey_tangents = q;
            s->key_tangent_dequant = d;
            at += key_tangent_floats(s);
        } else {
            s->key_tangents = keep(&at, s->key_tangents, 2 * keys * c);
        }
        s->arc_length = keep(&at, s->arc_length,
                             s->arc_length ? kfb_arc_length_floats(s->repeat, s->valid_count) : 0);
        if (L->block_of[i] == KF_NO_INDEX) {
            const uint64_t tc =
                kf_sequence_tangent_count(s->interpolation, s->valid_count, s->components);
            s->values = keep(&at, s->values, keys * c);
            s->tangent_out = keep(&at, s->tangent_out, tc);
            s->tangent_in = keep(&at, s->tangent_in, tc);
            continue;
        }
        const kf_block *b = &L->blocks[L->block_of[i]];
        const float *lane = b->data + L->lane_of[i];
        s->row = b->stride;
        if (b->dequant) {
            const kf_sequence view = kf_block_lane(b, L->lane_of[i]);
            s->qbits = view.qbits;
            s->lane = view.lane;
            if (b->qbits == 16)
                s->quantized = view.quantized;
            else
                s->qbytes = view.qbytes;
            if (b->qbits == 12)
                s->qhigh = view.qhigh;
            s->dequant = view.dequant;
            if (s->interpolation == KFB_INTERP_SQUAD) /* b in its lane (kf_quantized) */
                s->tangent_in = NULL;
            if (s->interpolation == KFB_INTERP_HERMITE) { /* kf_quantized_tangent */
                s->tangent_in = NULL;
                /* (it has key tangents: in its lane, kf_key_tangent) */
                s->qkey_tangents = (const uint16_t *)(const void *)b->data;
            }
            continue;
        }
        s->values = lane;
        switch (s->interpolation) {
        case KFB_INTERP_SPLINE:
        case KFB_INTERP_HERMITE:
            s->tangent_out = lane + c * KF_LANES;
            s->tangent_in = lane + 2 * c * KF_LANES;
            break;
        case KFB_INTERP_SQUAD:
            s->tangent_out = lane + KF_FIELD_SQUAD_A * KF_LANES;
            s->tangent_in = lane + KF_FIELD_SQUAD_B * KF_LANES;
            break;
        default:
            break;
        }
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_INTERPOLATOR]; i++) {
        struct kf_interpolator *p = &o->interpolators[i];
        const uint64_t d = kfb_node_dimension(p->node);
        p->keys = keep(&at, p->keys, p->key_count);
        p->values = keep(&at, p->values, p->value_count * d);
        p->velocities = keep(&at, p->velocities, p->velocity_count * d);
        p->derived = keep(&at, p->derived, p->derived ? kf_interpolator_derived_count(p) : 0);
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_FOLLOWER]; i++) {
        struct kf_follower *f = &o->followers[i];
        const uint64_t field = kf_follower_field_floats(f);
        f->initial_value = keep(&at, f->initial_value, field);
        f->initial_destination = keep(&at, f->initial_destination, field);
        f->rotations = keep(&at, f->rotations, f->rotations ? 8 : 0);
    }
}

/* The layout of `o` into *out, if building it allocates at most `budget`
 * bytes at once (the sort's scratch included: what a load adds to its
 * peak, kf_read.c), else KF_ERROR_LIMIT; *need is set to those bytes
 * either way. With `out` NULL nothing is built (kf_layout_measure). */
static kf_result build(const kf_objects *o, const kf_value_facts *facts, const kf_allocator *a,
                       size_t budget, struct kf_layout **out, size_t *need, kf_objects *moved)
{
    const uint32_t n = o->count[KF_KIND_SEQUENCE], targets = o->count[KF_KIND_TARGET];
    const struct kf_sequence *seq = o->sequences;
    *need = 0;
    /* Scratch: per sequence its sort key (first, for its alignment), the
     * order, the sort's copy, a count per target, the order of every
     * sequence by key times, per sequence where its grids start, and its
     * grids (quantize's: at most 3 x 16 / 2 fields of a lane of 8 keys or
     * more, fewer floats than its keys hold), and per sequence whether its
     * lane and its key tangents are quantized, its lane's width, and
     * whether it is wide (a byte each). */
    uint64_t grid_count = 0;
    for (uint32_t i = 0; i < n; i++)
        grid_count += grid_fields_most(&seq[i]);
    size_t order_bytes, grid_bytes, key_bytes;
    const size_t per_sequence = 4;
    if (!kf_mul_size(n, sizeof(seq_key), &key_bytes) ||
        !kf_mul_size((size_t)4 * n + targets + 1, sizeof(uint32_t), &order_bytes) ||
        order_bytes > SIZE_MAX - key_bytes || grid_count > UINT32_MAX ||
        !kf_mul_size((size_t)grid_count, sizeof(grid_field), &grid_bytes) ||
        grid_bytes > SIZE_MAX - key_bytes - order_bytes ||
        n > (SIZE_MAX - key_bytes - order_bytes - grid_bytes) / per_sequence)
        return KF_ERROR_TOO_LARGE;
    order_bytes += key_bytes + grid_bytes + per_sequence * n;
    seq_key *sort_keys = kf_alloc(a, order_bytes);
    if (!sort_keys)
        return KF_ERROR_OUT_OF_MEMORY;
    uint32_t *order = (uint32_t *)(void *)(sort_keys + n);
    uint32_t *tracks_of = order + 2 * (size_t)n, *by_times = tracks_of + targets,
             *grid_at = by_times + n + 1;
    grid_field *grids = (grid_field *)(void *)(grid_at + n);
    uint8_t *quant = (uint8_t *)(grids + grid_count), *ktq = quant + n, *bits = ktq + n,
            *wides = bits + n;
    const lay ly = {seq, quant, bits, sort_keys};
    uint32_t m = 0; /* the sequences blocks hold */
    for (uint32_t i = 0, at = 0; i < n; i++) {
        uint32_t width;
        by_times[i] = i;
        grid_at[i] = at;
        at += grid_fields_most(&seq[i]);
        const kf_value_facts *known = facts ? &facts[i] : NULL;
        int pending = known && known->tangents_pending;
        uint32_t wide = 0;
        if (packed(&seq[i]) && !width_known(&seq[i], known, &wide)) {
            if (pending)
                scale_tangents(&seq[i]);
            pending = 0;
            wide = is_wide(&seq[i]);
        }
        wides[i] = (uint8_t)wide;
        quant[i] = (uint8_t)quantize(&seq[i], known, wides[i], &width, grids + grid_at[i]);
        if (pending && QUANT_KIND(quant[i]) != QUANT_HERMITE) /* a lane of floats */
            scale_tangents(&seq[i]);
        if (known && known->w_pending && QUANT_KIND(quant[i]) != QUANT_XYZ)
            rebuild_w(&seq[i]);
        bits[i] = (uint8_t)width;
        /* (a quantized HERMITE lane keeps its key tangents in its block) */
        ktq[i] = (uint8_t)(QUANT_KIND(quant[i]) != QUANT_HERMITE && quantize_key_tangents(&seq[i]));
        sort_keys[i] = key_of(&seq[i], quant[i], bits[i]);
        if (packed(&seq[i]))
            order[m++] = i;
    }
    /* Every sequence by key times (equal arrays are one copy), then the
     * blocks' ones by clock. */
    sort_sequences(by_times, order + n, n, &ly);
    sort_sequences(order, order + n, m, &ly);

    /* The targets several tracks play, and their values. */
    memset(tracks_of, 0, (size_t)targets * sizeof *tracks_of);
    for (uint32_t t = 0; t < o->count[KF_KIND_TRACK]; t++)
        if (o->tracks[t].controller != KF_NO_INDEX && o->tracks[t].target < targets &&
            tracks_of[o->tracks[t].target] < 2)
            tracks_of[o->tracks[t].target]++;
    uint32_t blend_count = 0;
    size_t blend_values = 0;
    for (uint32_t i = 0; i < targets; i++)
        if (tracks_of[i] > 1) {
            blend_count++;
            blend_values += o->targets[i].components;
        }

    /* Sizes: per clock, a row per key of every stripe (each run of equal
     * sequences, four to a block) side by side. */
    uint32_t blocks = 0;
    size_t floats = 0, dequant = 0;
    int ok = 1;
    for (uint32_t i = 0, end; i < m && ok; i = end) {
        end = run_end(&ly, order, i, m, same_clock);
        const size_t width = row_width(&ly, order, i, end, &blocks, &dequant);
        size_t per = 0;
        ok = width && kf_mul_size(width, clock_rows(seq, order, i, end), &per) &&
             per <= SIZE_MAX - floats;
        floats += per;
    }
    /* Beside the blocks, plain floats: each distinct key times array once
     * (as long as its longest user), what no block holds, and the
     * interpolators' and followers' arrays. */
    uint64_t plain = 0;
    for (uint32_t i = 0, end; i < n; i = end) {
        uint32_t keys = seq[by_times[i]].key_count;
        for (end = i + 1; end < n && seq[by_times[end]].times == seq[by_times[i]].times; end++)
            keys = seq[by_times[end]].key_count > keys ? seq[by_times[end]].key_count : keys;
        plain += keys;
    }
    for (uint32_t i = 0; i < n; i++)
        plain +=
            plain_floats(&seq[i], packed(&seq[i]), ktq[i], QUANT_KIND(quant[i]) == QUANT_HERMITE);
    for (uint32_t i = 0; i < o->count[KF_KIND_INTERPOLATOR]; i++)
        plain += interpolator_floats(&o->interpolators[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_FOLLOWER]; i++)
        plain += follower_floats(&o->followers[i]);
    size_t at_plain = 0;
    size_t total = 0, at_layout, at_blocks, at_block_of, at_lane_of, at_dequant, at_data,
           at_blend_of, at_blend_target, at_blend_offset;
    if (!ok || floats > SIZE_MAX - KF_SLACK_FLOATS ||
        !add(&total, 1, sizeof(struct kf_layout), 16, &at_layout) ||
        !add(&total, blocks, sizeof(kf_block), 16, &at_blocks) ||
        !add(&total, n, sizeof(uint32_t), 16, &at_block_of) ||
        !add(&total, blend_count ? targets : 0, sizeof(uint32_t), 16, &at_blend_of) ||
        !add(&total, blend_count, sizeof(uint32_t), 16, &at_blend_target) ||
        !add(&total, blend_count, sizeof(uint32_t), 16, &at_blend_offset) ||
        !add(&total, n, 1, 16, &at_lane_of) ||
        !add(&total, dequant, sizeof(float), 16, &at_dequant) ||
        !add(&total, floats + KF_SLACK_FLOATS, sizeof(float), 16, &at_data) ||
        plain > SIZE_MAX / sizeof(float) ||
        !add(&total, (size_t)plain, sizeof(float), 16, &at_plain)) {
        kf_free(a, sort_keys, order_bytes);
        return KF_ERROR_TOO_LARGE;
    }
    /* 16 bytes of slack: the allocator need only align to 8. */
    if (total > SIZE_MAX - 16 - order_bytes) {
        kf_free(a, sort_keys, order_bytes);
        return KF_ERROR_TOO_LARGE;
    }
    *need = order_bytes + total + 16;
    if (!out || *need > budget) {
        kf_free(a, sort_keys, order_bytes);
        return out ? KF_ERROR_LIMIT : KF_OK;
    }
    unsigned char *raw = kf_alloc(a, total + 16);
    if (!raw) {
        kf_free(a, sort_keys, order_bytes);
        return KF_ERROR_OUT_OF_MEMORY;
    }
    const size_t shift = (16 - ((uintptr_t)raw & 15)) & 15;
    unsigned char *base = raw + shift;
    /* The rows are zeroed a tile at a time as they are filled (below), while
     * the tile is in cache: zeroing them all here first was a second pass
     * over memory the size of the clip. */
    memset(base, 0, at_data);
    struct kf_layout *L = (struct kf_layout *)(base + at_layout);
    L->size = total + 16;
    L->shift = shift;
    L->block_count = blocks;
    L->blocks = (kf_block *)(base + at_blocks);
    L->block_of = (uint32_t *)(base + at_block_of);
    L->lane_of = base + at_lane_of;
    L->blend_of = blend_count ? (uint32_t *)(base + at_blend_of) : NULL;
    L->blend_target = (uint32_t *)(base + at_blend_target);
    L->blend_offset = (uint32_t *)(base + at_blend_offset);
    L->blend_count = blend_count;
    L->blend_values = blend_values;
    for (uint32_t i = 0, k = 0, v = 0; i < targets && blend_count; i++) {
        L->blend_of[i] = KF_NO_INDEX;
        if (tracks_of[i] > 1) {
            L->blend_of[i] = k;
            L->blend_target[k] = i;
            L->blend_offset[k++] = v;
            v += o->targets[i].components;
        }
    }
    float *data = (float *)(base + at_data), *dq = (float *)(base + at_dequant);
    L->plain = (float *)(base + at_plain);
    L->plain_floats = (size_t)plain;
    for (uint32_t i = 0; i < n; i++)
        L->block_of[i] = KF_NO_INDEX;
    uint32_t bi = 0;
    for (uint32_t i = 0, end; i < m; i = end) {
        /* A clock: its stripes (every block of one kind) side by side in
         * one row per key. */
        end = run_end(&ly, order, i, m, same_clock);
        uint32_t unused = 0;
        size_t unused_dequant = 0;
        const size_t width = row_width(&ly, order, i, end, &unused, &unused_dequant);
        size_t offset = 0;
        for (uint32_t k = i, next; k < end; k = next) {
            next = run_end(&ly, order, k, end, same_block);
            const struct kf_sequence *t = &seq[order[k]];
            const uint32_t fields = fields_of(t), members = next - k;
            const int q = quant[order[k]];
            const size_t stripe_at = offset, per = key_floats(&ly, order[k]);
            const uint32_t stripe = (members + KF_LANES - 1) / KF_LANES;
            for (uint32_t x = 0; x * KF_LANES < members; x++, bi++) {
                kf_block *b = &L->blocks[bi];
                b->interpolation = t->interpolation;
                b->components = t->components;
                b->fields = q ? q_fields(&ly, order[k]) : fields;
                b->key_count = t->valid_count;
                b->stride = (uint32_t)width;
                b->data = data + offset;
                offset += per;
                if (q) {
                    /* blocks in pairs (KF_DEQUANT_FIELD) */
                    b->dequant = dq + (x & 1) * KF_LANES;
                    if ((x & 1) || (x + 1) * KF_LANES >= members)
                        dq += 2 * dequant_floats(&ly, order[k]);
                    b->qbits = bits[order[k]];
                    b->float_w = QUANT_KIND(q) == QUANT_XYZ || QUANT_KIND(q) == QUANT_SQUAD;
                    /* from its low bytes to its nibbles, after the stripe's */
                    b->high = (uint32_t)((stripe - x) * per * sizeof(float) +
                                         x * high_bytes(&ly, order[k]));
                }
                for (uint32_t l = 0; l < KF_LANES && x * KF_LANES + l < members; l++) {
                    const uint32_t si = order[k + x * KF_LANES + l];
                    L->block_of[si] = bi;
                    L->lane_of[si] = (uint8_t)l;
                    b->wide |= wides[si];
                    if (q) {
                        put_dequant(&seq[si], q, (float *)b->dequant, l, grids + grid_at[si]);
                        b->float_w &=
                            on_float_w_grid(grids + grid_at[si], q_fields_of(&seq[si], q));
                    }
                }
            }
            offset = stripe_at + stripe_width(&ly, order[k], (members + KF_LANES - 1) / KF_LANES);
        }
        /* A sequence's keys are a row apart: written a tile of keys at a
         * time, every member's, so that each line is fetched once. (The
         * sizes above refused a width of 0.) */
        const size_t tile = width < FILL_TILE_FLOATS ? FILL_TILE_FLOATS / width : 1;
        const uint32_t rows = clock_rows(seq, order, i, end);
        const int whole = fills_lanes(seq, order, i, end, rows),
                  covered = whole && fills_stripes(&ly, order, i, end);
        for (uint32_t k0 = 0; k0 < rows; k0 += (uint32_t)tile) {
            const uint32_t k1 = rows - k0 > tile ? k0 + (uint32_t)tile : rows;
            /* Lanes no sequence fills stay 0 (where the members fill every
             * float of their rows, as a full clock's do, nothing is left;
             * where they fill their lanes, only the gaps between). */
            shared_lengths shared = {NULL, 0};
            if (!whole)
                memset(data + (size_t)k0 * width, 0, (size_t)(k1 - k0) * width * sizeof *data);
            else if (!covered)
                zero_gaps(&ly, L, order, i, end, width, k0, k1);
            for (uint32_t x = i; x < end;) {
                const uint32_t si = order[x];
                const kf_block *b = &L->blocks[L->block_of[si]];
                float *at = (float *)b->data + (size_t)k0 * width;
                if (x + KF_LANES <= end && full_block(seq, order + x, L->block_of, rows)) {
                    const struct kf_sequence *lanes[KF_LANES] = {
                        &seq[order[x]], &seq[order[x + 1]], &seq[order[x + 2]], &seq[order[x + 3]]};
                    if (b->dequant)
                        fill_quantized_block(at, width, k0, k1, lanes, b, &shared);
                    else
                        fill_block(at, width, k0, k1, lanes);
                    x += KF_LANES;
                } else if (b->dequant) {
                    fill_quantized(at, width, k0, k1, L->lane_of[si], &seq[si], b, &shared);
                    x++;
                } else {
                    fill_lane(at, width, k0, k1, L->lane_of[si], &seq[si]);
                    x++;
                }
            }
        }
        data += (size_t)rows * width;
    }
    memset(data, 0, KF_SLACK_FLOATS * sizeof *data);
    /* A sequence in no block may have a clock of its own. */
    L->clock_count = n - m;
    for (uint32_t i = 0; i < m; i++)
        L->clock_count += i == 0 || !same_clock(&ly, order[i - 1], order[i]);
    /* order[] is free now: a mark per sequence a played track plays. */
    memset(order, 0, (size_t)n * sizeof *order);
    for (uint32_t t = 0; t < o->count[KF_KIND_TRACK]; t++) {
        const kf_track *tr = &o->tracks[t];
        if (tr->controller == KF_NO_INDEX || tr->animator_kind != KFB_ANIMATOR_SEQUENCE ||
            tr->animator >= n)
            continue;
        L->run_tracks += order[tr->animator] || L->block_of[tr->animator] == KF_NO_INDEX;
        order[tr->animator] = 1;
    }
    move_arrays(moved, L, by_times, quant);
    kf_free(a, sort_keys, order_bytes);
    *out = L;
    return KF_OK;
}

int kf_layout_grid(const float *v, const kf_column_facts *facts, uint32_t c, uint32_t n,
                   unsigned check, uint32_t top, float *base, float *scale, uint32_t *zeros,
                   uint32_t *most)
{
    q_spans spans;
    const int r = facts ? grid_of_facts(facts, c, check, top, base, scale, &spans)
                        : grid_of(v, c, n, check, top, base, scale) &&
                              on_grid(v, c, n, check, top, base, scale, &spans);
    for (uint32_t m = 0; r == 1 && m < c; m++) {
        const uint32_t z = spans.any[m] ? kf_trailing_zeros(spans.any[m]) : 0;
        zeros[m] = z < 15 ? z : 15; /* as narrow reads them */
        most[m] = spans.most[m];
    }
    return r;
}

kf_result kf_layout_build(kf_anim *anim, const kf_value_facts *facts, size_t budget, size_t *need)
{
    struct kf_layout *L = NULL;
    anim->layout = NULL;
    const kf_result r =
        build(&anim->objects, facts, &anim->allocator, budget, &L, need, &anim->objects);
    anim->layout = L;
    return r;
}

kf_result kf_layout_measure(const kf_objects *o, const kf_allocator *a, size_t *need)
{
    return build(o, NULL, a, SIZE_MAX, NULL, need, NULL);
}

void kf_layout_free(const kf_allocator *a, struct kf_layout *layout)
{
    if (layout)
        kf_free(a, (unsigned char *)layout - layout->shift, layout->size);
}

/* Whether this CPU and OS run AVX2 (the OS saving the wide registers
 * included: GCC's and clang's check asks XGETBV too). */
static int cpu_has_avx2(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

const kf_kernels *kf_kernels_best(void)
{
    const kf_kernels *k = kf_kernels_avx2();
    if (k && cpu_has_avx2())
        return k;
    if ((k = kf_kernels_sse2()) != NULL || (k = kf_kernels_neon()) != NULL)
        return k;
    return kf_kernels_scalar();
}

kf_block_kernel kf_block_hold_of(const kf_kernels *k, const kf_block *b)
{
    const int c = b->components == 3 ? 1 : b->components == 4 ? 2 : 0;
    if (b->dequant &&
        (b->interpolation == KFB_INTERP_SLERP || b->interpolation == KFB_INTERP_SQUAD))
        return (b->float_w ? k->qslerp_key_fw : k->qslerp_key)[kf_qwidth(b->qbits)];
    return b->dequant ? k->qkey[kf_qwidth(b->qbits)][c] : k->key[c];
}

kf_block_kernel kf_block_kernel_of(const kf_kernels *k, const kf_block *b)
{
    if (b->dequant) {
        const int c = b->components == 3 ? 1 : b->components == 4 ? 2 : 0;
        const int w = kf_qwidth(b->qbits);
        switch (b->interpolation) {
        case KFB_INTERP_SLERP:
            return (b->float_w ? k->qslerp_fw : k->qslerp)[w];
        case KFB_INTERP_SQUAD:
            return (b->float_w ? k->qsquad_fw : k->qsquad)[w];
        case KFB_INTERP_HERMITE:
            return k->qhermite[w][c];
        case KFB_INTERP_LINEAR:
            return k->qlinear[w][c];
        default:
            return k->qkey[w][c];
        }
    }
    if (b->wide)
        return b->interpolation == KFB_INTERP_LINEAR ? kf_block_linear_wide : kf_block_spline_wide;
    return kf_kernel_of(k, b->interpolation, b->components);
}

kf_block_kernel kf_kernel_of(const kf_kernels *k, uint32_t interpolation, uint32_t components)
{
    const int c = components == 3 ? 1 : components == 4 ? 2 : 0;
    switch (interpolation) {
    case KFB_INTERP_STEP:
        return k->key[c];
    case KFB_INTERP_LINEAR:
        return k->linear[c];
    case KFB_INTERP_SPLINE:
    case KFB_INTERP_HERMITE:
        return k->spline[c];
    case KFB_INTERP_SLERP:
        return k->slerp;
    case KFB_INTERP_SQUAD:
        return k->squad;
    default:
        return NULL;
    }
}
