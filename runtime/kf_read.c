/* SPDX-License-Identifier: MIT */
/*
 * kf_read.c - the .kfb reader. Its mirror is offline/kf_write.c: the two
 * files have the same functions in the same order (read_header /
 * write_header, read_sections / write_sections, read_sequence /
 * write_sequence ... read_objects / write_objects). Layout facts come from
 * formats/kfb_format.h and formats/kfb_codes.h. The entry points
 * (kf_load_memory, kf_load_stream, kf_load_file) follow the mirrored part:
 * they frame the input and call load(), which runs the readers in file
 * order.
 *
 * Loading is framing checks on the raw bytes, inflate, then one pass over the
 * object records that checks every field, turns data offsets into pointers
 * and runs the builder's own validation. Nothing is trusted before it is
 * checked: sizes are compared by subtraction, counts against what remains,
 * and allocations are sized from checked numbers only.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
#include <emmintrin.h>
#endif

#include "kf_index.h"
#include "kf_private.h"
#include "kf_math.h"
#include "kfb_codes.h"
#include "kf_layout.h"

static const uint32_t section_tags[KFB_SECTION_COUNT] = {KFB_TAG_STRINGS, KFB_TAG_OBJECTS,
                                                         KFB_TAG_DATA};
static const char *const section_names[KFB_SECTION_COUNT] = {"STRS", "OBJS", "DATA"};

typedef struct section {
    kfb_section_header header;
    const unsigned char *stored;
    size_t file_offset; /* of the section header */
} section;

/* The clock of the last sequence that passed its checks (read_sequence):
 * its key times, key and valid counts, duration and repeat, and whether
 * its every segment's length is a float (kf_hermite_exact of no key
 * tangents; -1: not asked). The sequences that share it share answers. */
typedef struct checked_clock {
    const float *times;
    uint32_t keys, valid, repeat;
    double duration;
    int float_lengths;
} checked_clock;

typedef struct loader {
    kf_allocator allocator;
    size_t max_section;
    kf_error *error;
    const unsigned char *file;
    size_t size;
    section sections[KFB_SECTION_COUNT];
    /* Uncompressed sections. */
    const char *strings;
    size_t strings_size;
    const float *data;
    size_t data_words;
    /* A stored DATA section's own bytes (in the caller's memory, or the
     * buffer the file was read into), when the arrays are read from them
     * rather than from a copy: encoded arrays decode into `data_rw`, and
     * plain ones are copied there as they are claimed. NULL: `data_rw`
     * already holds the section. */
    const unsigned char *source;
    /* Version 2: encoded arrays (kfb_format.h, KFB_PLANES). `marks` has a
     * byte per data word below marks_high (MARK_*; claim), `scratch` room for the largest encoded
     * array decoded so far (it grows; it never exceeds the data words). */
    int encoded;
    int zigzag;       /* 2.1 on: zigzag-coded differences, full column headers */
    uint32_t version; /* the header's: kfb_has says what the file may hold */
    float *data_rw;
    float *room; /* for the floats still to compute (kfb_sequence_computed_floats) */
    size_t room_left;
    unsigned char *marks;
    size_t marks_high; /* every word claimed so far lies below this one */
    uint32_t *scratch;
    size_t scratch_words;
    checked_clock checked;
    /* Per sequence, what decoding its values showed (kf_value_facts, for
     * the playback layout); `column_facts`: where the array being decoded
     * puts its columns', or NULL. */
    kf_value_facts *facts;
    kf_column_facts *column_facts;
    size_t column_facts_count; /* columns column_facts has room for */
    size_t unit_column;        /* the last array decoded: its unit column, or SIZE_MAX */
    /* The last array decoded, where it was held as rows (KFB_COLUMN_ROWS):
     * where its floats lie (in `source`, or data_rw); else NULL. */
    const float *rows_at;
    /* DATA's zero runs of at least RUN_MIN_WORDS that placing its pieces
     * left unwritten (pieces_out): each a word offset and a length, in
     * section order. A run is written where a claim reaches it
     * (fill_zeros), except for the high byte planes the decoder knows to
     * be zeros and so does not read (decode). */
    uint32_t (*runs)[2];
    size_t run_count, run_capacity;
    /* Bytes from DATA's start to the end of the scratch it lies in, which
     * nothing uses yet when DATA is inflated (inflate_pieces). */
    size_t data_room;
    /* The values being decoded are a SLERP sequence's, whose quaternions'
     * w, should the file rebuild it, decode leaves to the layout
     * (kf_value_facts.w_pending). */
    int defer_w;
    size_t run_hint;        /* first_run's last answer */
    size_t plain_filled[2]; /* the words of the last plain array filled */
} loader;

/* A zero run shorter than this is written as it is placed: few bytes,
 * where a list entry and a search would cost more. */
#define RUN_MIN_WORDS 64u

enum { MARK_FREE, MARK_PLAIN, MARK_ENCODED };

/* ---- primitives ---------------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static kf_result
fail(loader *L, kf_result result, uint32_t section_index, uint32_t object, uint64_t offset,
     const char *format, ...)
{
    kf_error *e = L->error;
    kf_error_clear(e);
    if (e) {
        e->section = section_index;
        e->object = object;
        e->offset = offset;
    }
    va_list ap;
    va_start(ap, format);
    kf_failv(e, result, format, ap);
    va_end(ap);
    return result;
}

static void read_words(void *dst, const unsigned char *src, uint32_t count)
{
    memcpy(dst, src, (size_t)count * 4);
    kfb_word_swap(dst, count);
}

static double f64(kfb_f64 w)
{
    uint64_t bits = (uint64_t)w.hi << 32 | w.lo;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* A checked name: inside the string table, terminated, non-empty. */
static kf_result get_name(loader *L, uint32_t offset, uint32_t index, size_t pos, const char **out)
{
    if (offset >= L->strings_size)
        return fail(L, KF_ERROR_STRING, KFB_SECTION_OBJECTS, index, pos,
                    "object %u: name offset %u is outside the %zu-byte string table",
                    (unsigned)index, (unsigned)offset, L->strings_size);
    const char *s = L->strings + offset;
    const char *end = memchr(s, '\0', L->strings_size - offset);
    if (!end)
        return fail(L, KF_ERROR_STRING, KFB_SECTION_OBJECTS, index, pos,
                    "object %u: name at offset %u is not terminated", (unsigned)index,
                    (unsigned)offset);
    if (!*s)
        return fail(L, KF_ERROR_STRING, KFB_SECTION_OBJECTS, index, pos, "object %u: empty name",
                    (unsigned)index);
    if (!kf_text_valid(s, (size_t)(end - s)))
        return fail(L, KF_ERROR_STRING, KFB_SECTION_OBJECTS, index, pos,
                    "object %u: name at offset %u is not UTF-8 text of Unicode scalar values",
                    (unsigned)index, (unsigned)offset);
    *out = s;
    return KF_OK;
}

/* The word after run r's last. */
#define RUN_END(L, r) ((size_t)(L)->runs[r][0] + (L)->runs[r][1])

/* The first unwritten run that ends after word `from`. Arrays are mostly
 * claimed in section order (key times that many sequences share aside),
 * so a few runs on from the last answer are tried before a search. */
static size_t first_run(loader *L, size_t from)
{
    size_t r = L->run_hint, lo = 0, hi = L->run_count;
    if (r <= L->run_count && (r == 0 || RUN_END(L, r - 1) <= from)) {
        for (size_t k = 0; k < 8 && r < L->run_count && RUN_END(L, r) <= from; k++)
            r++;
        if (r == L->run_count || RUN_END(L, r) > from)
            return L->run_hint = r;
        lo = r;
    }
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (RUN_END(L, mid) <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return L->run_hint = lo;
}

/* Writes the zeros of the unwritten runs (loader.runs) that lie in words
 * [from, to). A claim writes those of its own words: an encoded array's
 * words are its own (its decoded floats land on them), and a plain array
 * shares words only with plain ones, which hold the same zeros. So no
 * word an array has read or written is written again, and each claim
 * costs a search and the runs it covers. */
static void fill_zeros(loader *L, size_t from, size_t to)
{
    if (from >= to)
        return;
    for (size_t r = first_run(L, from); r < L->run_count && L->runs[r][0] < to; r++) {
        const size_t a = L->runs[r][0] > from ? L->runs[r][0] : from, b = RUN_END(L, r);
        memset(L->data_rw + a, 0, ((b < to ? b : to) - a) * 4);
    }
}

/* Copies a plain array's words out of the stored section (loader.source)
 * into data_rw, except those an earlier plain array copied: the words of
 * its first `seen` (the ones below marks_high) that are marked plain. Key
 * times that many sequences share are copied once. */
static void copy_plain(loader *L, size_t offset, size_t count, size_t seen)
{
    const unsigned char *m = L->marks + offset;
    size_t k = seen && !memchr(m, MARK_FREE, seen) ? seen : 0;
    while (k < count) {
        if (k < seen && m[k] != MARK_FREE) {
            k++;
            continue;
        }
        size_t end = k + 1;
        while (end < count && (end >= seen || m[end] == MARK_FREE))
            end++;
        memcpy(L->data_rw + offset + k, L->source + (offset + k) * 4, (end - k) * 4);
        k = end;
    }
}

/* The kf_field of the array named `what` in a message; KF_FIELD_NONE for
 * the precomputed arrays, which no field describes. Looked up by its name
 * so that the field and the message cannot disagree. */
static kf_field array_field(const char *what)
{
    static const struct {
        const char *what;
        kf_field field;
    } fields[] = {
        {"key times", KF_FIELD_KEYS}, /* as a whole (KEY_TIME names one) */
        {"key values", KF_FIELD_KEY_VALUE},
        {"tangents", KF_FIELD_TANGENTS},
        {"key tangents", KF_FIELD_TANGENTS},
        {"tension/continuity/bias", KF_FIELD_TCB},
        {"distance table", KF_FIELD_ARC_LENGTH},
        {"keys", KF_FIELD_KEYS}, /* an interpolator's `key` */
        {"values", KF_FIELD_KEY_VALUE},
        {"velocities", KF_FIELD_KEY_VELOCITY},
        {"initialValue", KF_FIELD_INITIAL_VALUE},
        {"initialDestination", KF_FIELD_INITIAL_DESTINATION},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(what, fields[i].what) == 0)
            return fields[i].field;
    return KF_FIELD_NONE;
}

/* `r`, an error about the array `what`, with its field named. */
static kf_result array_failed(loader *L, kf_result r, const char *what)
{
    if (L->error)
        L->error->field = array_field(what);
    return r;
}

/* Claims words [offset, offset + count) for one array. Plain arrays may
 * share words (equal key times are written once); an encoded array shares
 * none: decoding it twice, or after another object read its words, would
 * change what was validated. */
static kf_result claim(loader *L, uint32_t offset, uint64_t count, int mark, uint32_t index,
                       size_t pos, const char *what)
{
    if (!L->marks || count == 0)
        return KF_OK;
    unsigned char *m = L->marks + offset;
    /* An encoded array needs every word free, a plain one none encoded
     * (MARK_FREE is 0: an OR over the marks, 8 at a time). Words from
     * marks_high on are free: their marks are neither read nor written
     * until a claim reaches them (the words it skips are marked free
     * then), so that the marks need no clearing first, and an array past
     * every word claimed so far (as a writer lays them out) looks at none. */
    const size_t high = L->marks_high,
                 seen =
                     offset >= high ? 0 : (offset + count < high ? (size_t)count : high - offset);
    if (offset > high)
        memset(L->marks + high, MARK_FREE, offset - high);
    if (offset + count > high)
        L->marks_high = offset + (size_t)count;
    uint64_t used = 0;
    if (mark == MARK_ENCODED) {
        size_t k = 0;
        for (; k + 8 <= seen; k += 8) {
            uint64_t eight;
            memcpy(&eight, m + k, 8);
            used |= eight;
        }
        for (; k < seen; k++)
            used |= m[k];
    }
    if (mark == MARK_ENCODED ? used != 0 : seen && memchr(m, MARK_ENCODED, seen) != NULL)
        return array_failed(L,
                            fail(L, KF_ERROR_REFERENCE, KFB_SECTION_OBJECTS, index, pos,
                                 "object %u: %s (%llu floats at word %u) overlap another array",
                                 (unsigned)index, what, (unsigned long long)count,
                                 (unsigned)offset),
                            what);
    if (mark == MARK_PLAIN && L->source)
        copy_plain(L, offset, (size_t)count, seen);
    /* An encoded array's zeros: decode. Key times that many sequences
     * share are claimed again and again, and filled once. */
    if (mark == MARK_PLAIN && L->run_count &&
        !(offset >= L->plain_filled[0] && offset + count <= L->plain_filled[1])) {
        fill_zeros(L, offset, offset + (size_t)count);
        L->plain_filled[0] = offset;
        L->plain_filled[1] = offset + (size_t)count;
    }
    memset(m, mark, (size_t)count);
    return KF_OK;
}

/* A checked data array of `count` floats at word `offset`. */
static kf_result get_floats(loader *L, uint32_t offset, uint64_t count, uint32_t index, size_t pos,
                            const char *what, const float **out)
{
    if (offset > L->data_words || count > L->data_words - offset)
        return array_failed(L,
                            fail(L, KF_ERROR_REFERENCE, KFB_SECTION_OBJECTS, index, pos,
                                 "object %u: %s (%llu floats at word %u) lie outside the %zu-word "
                                 "data section",
                                 (unsigned)index, what, (unsigned long long)count, (unsigned)offset,
                                 L->data_words),
                            what);
    *out = L->data + offset;
    return claim(L, offset, count, MARK_PLAIN, index, pos, what);
}

/* A difference from its four plane bytes. */
static inline uint32_t unplane(uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3, int zigzag)
{
    const uint32_t e = b0 | b1 << 8 | b2 << 16 | b3 << 24;
    return zigzag ? kfb_unzigzag(e) : e;
}

/* The decoded valid keys a KFB_PREDICT_KEYS column is guessed from. */
typedef struct key_guess {
    const float *keys;
    size_t rows; /* valid keys */
    uint32_t interpolation;
} key_guess;

static int guessed(const float *headers, size_t m)
{
    uint32_t h;
    memcpy(&h, &headers[m], 4);
    return (h & KFB_COLUMN_PREDICTOR_MASK) >> KFB_COLUMN_PREDICTOR_SHIFT == KFB_PREDICT_KEYS;
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* kfb_key_guess_row for the four squad rows from i on (i + 4 <= n keys at
 * k, with its wraps) in SSE2, a row a lane: g[m] is their component m's.
 * The same operations in the same order, so the same bits: the dot
 * products and the sum of squares added component by component from 0. */
static void squad_guess_rows(const float *k, size_t n, size_t i, __m128 g[4])
{
    /* (written out: loops over the components stay loops at -O2, their
     * registers in memory) */
    __m128 q0 = _mm_loadu_ps(k + i * 4), q1 = _mm_loadu_ps(k + (i + 1) * 4),
           q2 = _mm_loadu_ps(k + (i + 2) * 4), q3 = _mm_loadu_ps(k + (i + 3) * 4);
    __m128 p0 = _mm_loadu_ps(k + (i ? i - 1 : n - 1) * 4), p1 = q0, p2 = q1, p3 = q2;
    __m128 x0 = q1, x1 = q2, x2 = q3, x3 = _mm_loadu_ps(k + (i + 4 < n ? i + 4 : 0) * 4);
    _MM_TRANSPOSE4_PS(q0, q1, q2, q3);
    _MM_TRANSPOSE4_PS(p0, p1, p2, p3);
    _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
    const __m128 zero = _mm_setzero_ps(), sign = _mm_set1_ps(-0.0f);
    __m128 dp = _mm_add_ps(zero, _mm_mul_ps(q0, p0)), dn = _mm_add_ps(zero, _mm_mul_ps(q0, x0));
    dp = _mm_add_ps(dp, _mm_mul_ps(q1, p1));
    dn = _mm_add_ps(dn, _mm_mul_ps(q1, x1));
    dp = _mm_add_ps(dp, _mm_mul_ps(q2, p2));
    dn = _mm_add_ps(dn, _mm_mul_ps(q2, x2));
    dp = _mm_add_ps(dp, _mm_mul_ps(q3, p3));
    dn = _mm_add_ps(dn, _mm_mul_ps(q3, x3));
    const __m128 flip_p = _mm_and_ps(_mm_cmplt_ps(dp, zero), sign),
                 flip_n = _mm_and_ps(_mm_cmplt_ps(dn, zero), sign);
    const __m128 six = _mm_set1_ps(6.0f), quarter = _mm_set1_ps(0.25f);
#define GUESS(q, p, x)                                                                             \
    _mm_mul_ps(quarter, _mm_sub_ps(_mm_sub_ps(_mm_mul_ps(six, q), _mm_xor_ps(p, flip_p)),          \
                                   _mm_xor_ps(x, flip_n)))
    g[0] = GUESS(q0, p0, x0);
    g[1] = GUESS(q1, p1, x1);
    g[2] = GUESS(q2, p2, x2);
    g[3] = GUESS(q3, p3, x3);
#undef GUESS
    __m128 n2 = _mm_add_ps(zero, _mm_mul_ps(g[0], g[0]));
    n2 = _mm_add_ps(n2, _mm_mul_ps(g[1], g[1]));
    n2 = _mm_add_ps(n2, _mm_mul_ps(g[2], g[2]));
    n2 = _mm_add_ps(n2, _mm_mul_ps(g[3], g[3]));
    /* normalized where n2 is positive and finite, as kfb_key_guess_row */
    const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(n2, zero), _mm_cmple_ps(n2, _mm_set1_ps(FLT_MAX)));
    const __m128 length = _mm_sqrt_ps(n2);
    for (size_t m = 0; m < 4; m++)
        g[m] = _mm_or_ps(_mm_and_ps(ok, _mm_div_ps(g[m], length)), _mm_andnot_ps(ok, g[m]));
}
#endif

/* Adds the squad keys' guess to each KFB_PREDICT_KEYS column of the four
 * in w (column-major, `rows` each, decode checked their headers). A squad
 * row's guess is normalized as a whole: one row at a time, for all its
 * guessed columns. */
static void add_squad_guesses(const key_guess *guess, const float *headers, size_t rows,
                              uint32_t *w)
{
    const uint32_t col[4] = {guessed(headers, 0) ? ~0u : 0u, guessed(headers, 1) ? ~0u : 0u,
                             guessed(headers, 2) ? ~0u : 0u, guessed(headers, 3) ? ~0u : 0u};
    size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Four rows a step, as columns to be added. */
    for (; i + 4 <= rows && i + 4 <= guess->rows; i += 4) {
        __m128 g[4];
        squad_guess_rows(guess->keys, guess->rows, i, g);
        for (size_t m = 0; m < 4; m++) {
            __m128i *at = (__m128i *)(void *)(w + m * rows + i);
            const __m128i add = _mm_and_si128(_mm_castps_si128(g[m]), _mm_set1_epi32((int)col[m]));
            _mm_storeu_si128(at, _mm_add_epi32(_mm_loadu_si128(at), add));
        }
    }
#endif
    for (; i < rows; i++) {
        float g[4];
        kfb_key_guess_row(guess->keys, guess->rows, 4, guess->interpolation, i, g);
        for (size_t m = 0; m < 4; m++) {
            uint32_t a;
            memcpy(&a, &g[m], 4);
            w[m * rows + i] += col[m] & a;
        }
    }
}

/* The bits of kfb_central_guess of row i, column m (its operations; its
 * wrap only at the ends). */
static uint32_t central_guess_bits(const key_guess *guess, size_t stride, size_t i, size_t m)
{
    float g;
    if (i == 0 || i + 1 >= guess->rows) {
        g = kfb_central_guess(guess->keys, guess->rows, stride, i, m);
    } else {
        const float d = guess->keys[(i + 1) * stride + m] - guess->keys[(i - 1) * stride + m];
        g = 0.5f * d;
    }
    uint32_t a;
    memcpy(&a, &g, 4);
    return a;
}

/* Adds the keys' central differences to each KFB_PREDICT_KEYS column of
 * the `stride` columns in w (column-major, `rows` each). */
static void add_column_guesses(const key_guess *guess, const float *headers, size_t rows,
                               size_t stride, uint32_t *w)
{
    for (size_t m = 0; m < stride; m++)
        if (guessed(headers, m))
            for (size_t i = 0; i < rows; i++)
                w[m * rows + i] += central_guess_bits(guess, stride, i, m);
}

/* add_column_guesses for a vector of 3 or 4 components (`keyed`: bit m
 * for column m), in its `rows` rows at out, once the columns are rows
 * (over the headers, which are read before): the guesses are rows already,
 * the keys' own. */
static void add_row_guesses(const key_guess *guess, unsigned keyed, size_t rows, size_t stride,
                            uint32_t *out)
{
    size_t done = 1; /* rows [1, done) have their guesses */
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* A row of the keys' interior a step, all its columns at once: its
     * next row's four floats lie inside the keys, and so do its own four
     * words inside the array (a row of three adds 0 to the next row's
     * first). */
    if (rows == guess->rows) {
        const float *keys = guess->keys;
        const __m128i col = _mm_set_epi32(keyed >> 3 & 1 ? -1 : 0, keyed >> 2 & 1 ? -1 : 0,
                                          keyed >> 1 & 1 ? -1 : 0, keyed & 1 ? -1 : 0);
        const __m128 half = _mm_set1_ps(0.5f);
#define ADD_GUESS(r)                                                                               \
    do {                                                                                           \
        const __m128 g = _mm_mul_ps(half, _mm_sub_ps(_mm_loadu_ps(keys + ((r) + 1) * stride),      \
                                                     _mm_loadu_ps(keys + ((r)-1) * stride)));      \
        __m128i *at = (__m128i *)(void *)(out + (r)*stride);                                       \
        _mm_storeu_si128(                                                                          \
            at, _mm_add_epi32(_mm_loadu_si128(at), _mm_and_si128(_mm_castps_si128(g), col)));      \
    } while (0)
        for (; done + 3 + 3 <= rows; done += 4) {
            ADD_GUESS(done);
            ADD_GUESS(done + 1);
            ADD_GUESS(done + 2);
            ADD_GUESS(done + 3);
        }
        for (; done + 3 <= rows; done++)
            ADD_GUESS(done);
#undef ADD_GUESS
    }
#endif
    for (size_t i = 0; i < rows; i = i ? i + 1 : done)
        for (size_t m = 0; m < stride; m++)
            if (keyed >> m & 1)
                out[i * stride + m] += central_guess_bits(guess, stride, i, m);
}

/* The power of two of an integer column's header `exponent`, held to
 * +-400: past any double's range either way, which every use sees. */
static int column_scale(uint32_t exponent)
{
    const long e = (long)exponent - KFB_COLUMN_EXPONENT_BIAS;
    return e < -400 ? -400 : e > 400 ? 400 : (int)e;
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* Whether integers at scale 2^e convert in float to the double path's bits:
 * q rounded to float (as the double's rounding rounds it) times a power of
 * two that keeps every product of |q| <= 2^31 normal and finite (the SSE2
 * paths' conversion). */
static inline int float_scale(int e)
{
    return e >= -126 && e <= 96;
}
#endif

/* A column's facts (kf_column_facts) from its least and greatest q and the
 * OR of each XOR the first, at scale 2^(exponent - KFB_COLUMN_EXPONENT_BIAS). */
static void put_column_facts(int32_t least, int32_t most, uint32_t differ, uint32_t exponent,
                             kf_column_facts *f)
{
    const int e = column_scale(exponent);
    f->least = least;
    f->most = most;
    f->differ = differ;
    f->exponent = (int16_t)e;
    /* q 2^e is a float to the bit: 24 bits of q, its lowest at or above
     * the least normal float's (none subnormal, which a thread's flush to
     * zero would change), its highest below FLT_MAX's exponent. */
    f->integers = least > -(1 << 24) && most < (1 << 24) && e >= -126 && e <= 104;
}

_Static_assert(sizeof(kf_value_facts) == 200, "formats/kfb.md counts 200 bytes a sequence");

void kf_column_facts_of(const uint32_t *x, size_t rows, uint32_t exponent, kf_column_facts *f)
{
    int32_t least = INT32_MAX, most = INT32_MIN;
    uint32_t differ = 0;
    size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Four rows a step (SSE2 has no 32-bit minimum: a compare and a
     * select); the rest below. */
    if (rows >= 4) {
        __m128i lo = _mm_set1_epi32(INT32_MAX), hi = _mm_set1_epi32(INT32_MIN);
        __m128i any = _mm_setzero_si128();
        const __m128i first = _mm_set1_epi32((int)x[0]);
        for (; i + 4 <= rows; i += 4) {
            const __m128i q = _mm_loadu_si128((const __m128i *)(const void *)(x + i));
            const __m128i below = _mm_cmpgt_epi32(lo, q), above = _mm_cmpgt_epi32(q, hi);
            lo = _mm_or_si128(_mm_and_si128(below, q), _mm_andnot_si128(below, lo));
            hi = _mm_or_si128(_mm_and_si128(above, q), _mm_andnot_si128(above, hi));
            any = _mm_or_si128(any, _mm_xor_si128(q, first));
        }
        int32_t l[4], h[4];
        uint32_t a[4];
        _mm_storeu_si128((__m128i *)(void *)l, lo);
        _mm_storeu_si128((__m128i *)(void *)h, hi);
        _mm_storeu_si128((__m128i *)(void *)a, any);
        for (int k = 0; k < 4; k++) {
            least = l[k] < least ? l[k] : least;
            most = h[k] > most ? h[k] : most;
            differ |= a[k];
        }
    }
#endif
    for (; i < rows; i++) {
        const int32_t q = (int32_t)x[i];
        least = q < least ? q : least;
        most = q > most ? q : most;
        differ |= x[i] ^ x[0];
    }
    put_column_facts(least, most, differ, exponent, f);
    f->integers &= rows > 0;
}

/* Whether decode can rebuild an array a row at a time (fused_rows): 3, 4
 * or 6 to 8 columns (a HERMITE vector's key tangents: 6) of at least 4
 * rows, each predicted from its own words (not the keys' guess, nor
 * against another array). */
static int fusable(const float *headers, size_t columns, const float *against, size_t rows)
{
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    if (against || columns < 3 || columns == 5 || columns > 8 || rows < 4)
        return 0;
    for (size_t m = 0; m < columns; m++) {
        uint32_t h;
        memcpy(&h, &headers[m], 4);
        if ((h & KFB_COLUMN_PREDICTOR_MASK) >> KFB_COLUMN_PREDICTOR_SHIFT == KFB_PREDICT_KEYS)
            return 0;
    }
    return 1;
#else
    (void)headers, (void)columns, (void)against, (void)rows;
    return 0;
#endif
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)

/* put_column_facts from the least and greatest of the column's floats,
 * which are q 2^e exactly where the facts hold: a float of magnitude
 * 2^24 2^e or more (or infinite) is of a q that is not exact, or of none
 * in 24 bits. */
static void put_float_facts(float least, float most, uint32_t differ, uint32_t exponent,
                            kf_column_facts *f)
{
    const int scale = column_scale(exponent);
    const double limit = kf_pow2(24 + scale);
    if (!(fabs((double)least) < limit && fabs((double)most) < limit)) {
        f->integers = 0;
        return;
    }
    /* (each product exact: a float times a power of two in double's range) */
    const double unscale = kf_pow2(-scale);
    put_column_facts((int32_t)(least * unscale), (int32_t)(most * unscale), differ, exponent, f);
}

/* What fused_rows needs of an array's columns, a lane each. */
typedef struct lanes {
    __m128i mq, ml, mp; /* the lanes of each predictor (all ones) */
    __m128 mi;          /* the lanes of integers */
    __m128d f01, f23;   /* their scales */
    __m128 fs;          /* the same in float (row_floats' FAST_INTS) */
} lanes;

/* row_floats' integer conversions: none (no integer lanes), in double
 * (q 2^e exact, then rounded once to float, infinite past FLT_MAX), or in
 * float (FAST_INTS, where every scale is a float_scale: the same bits);
 * ALL_INTS: FAST_INTS with every lane converted, the unit column's signs
 * and the lanes past the columns too (at scale 1: 0 and 1 become 0.0 and
 * 1.0, which decode takes back as signs, and any other word another
 * float; zeros stay zeros); SIGNED_INTS: ALL_INTS with the signs of a
 * SLERP quaternion's w, which the layout rebuilds, at scale -1 (plus 0), so
 * that a row's w is 0.0 or -1.0: its sign in its sign bit, as the layout
 * reads it (kf_value_facts.w_pending). */
enum { NO_INTS, INTS, FAST_INTS, ALL_INTS, SIGNED_INTS };

/* Row `row` (>= 2) of the running sums, every lane by its own predictor. */
KF_ALWAYS_INLINE __m128i sum_row(__m128i x, __m128i *a, __m128i *d, __m128i *v, const lanes *c,
                                 int mixed)
{
    if (!mixed) { /* every lane quadratic: W's common case */
        *a = _mm_add_epi32(*a, x);
        *d = _mm_add_epi32(*d, *a);
        *v = _mm_add_epi32(*v, *d);
        return *v;
    }
    /* x enters at its predictor's level; the levels above it stay 0 (a
     * in LINEAR and PREVIOUS lanes, d in PREVIOUS ones: fused_body) */
    *a = _mm_add_epi32(*a, _mm_and_si128(x, c->mq));
    *d = _mm_add_epi32(*d, _mm_add_epi32(*a, _mm_and_si128(x, c->ml)));
    *v = _mm_add_epi32(*v, _mm_add_epi32(*d, _mm_and_si128(x, c->mp)));
    return *v;
}

/* A row's words as floats: integer lanes converted as decode's column path
 * converts them, the others the words' own bits. */
KF_ALWAYS_INLINE __m128 row_floats(__m128i v, const lanes *c, int ints)
{
    if (ints == NO_INTS)
        return _mm_castsi128_ps(v);
    if (ints == ALL_INTS)
        return _mm_mul_ps(_mm_cvtepi32_ps(v), c->fs);
    if (ints == SIGNED_INTS) /* (+0: a sign 0 times -1 is -0) */
        return _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(v), c->fs), _mm_setzero_ps());
    if (ints == FAST_INTS) {
        const __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(v), c->fs);
        return _mm_or_ps(_mm_and_ps(c->mi, f), _mm_andnot_ps(c->mi, _mm_castsi128_ps(v)));
    }
    const __m128d most = _mm_set1_pd(FLT_MAX);
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7FFFFFFFFFFFFFFF));
    const __m128d d0 = _mm_mul_pd(_mm_cvtepi32_pd(v), c->f01);
    const __m128d d1 =
        _mm_mul_pd(_mm_cvtepi32_pd(_mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2))), c->f23);
    const __m128 q = _mm_movelh_ps(_mm_cvtpd_ps(d0), _mm_cvtpd_ps(d1));
    const __m128 over = _mm_shuffle_ps(_mm_castpd_ps(_mm_cmpgt_pd(_mm_and_pd(d0, magnitude), most)),
                                       _mm_castpd_ps(_mm_cmpgt_pd(_mm_and_pd(d1, magnitude), most)),
                                       _MM_SHUFFLE(2, 0, 2, 0));
    const __m128 infinite = _mm_or_ps(_mm_and_ps(q, _mm_set1_ps(-0.0f)), _mm_set1_ps(INFINITY));
    const __m128 f = _mm_or_ps(_mm_and_ps(over, infinite), _mm_andnot_ps(over, q));
    return _mm_or_ps(_mm_and_ps(c->mi, f), _mm_andnot_ps(c->mi, _mm_castsi128_ps(v)));
}

/* Row i of the columns as a register (a lane per column, 0 past them). */
KF_ALWAYS_INLINE __m128i gather_row(const uint32_t *w, size_t rows, size_t columns, size_t i)
{
    return _mm_set_epi32(columns > 3 ? (int)w[3 * rows + i] : 0,
                         columns > 2 ? (int)w[2 * rows + i] : 0, (int)w[rows + i], (int)w[i]);
}

/* What column_facts gathers, a lane per column: the OR of each word XOR
 * the first row's, and the least and greatest floats (SSE2 has no 32-bit
 * integer minimum; an integer column's floats order as its q do, and give
 * them back where they are exact, which is where the facts hold). */
typedef struct lane_facts {
    __m128 least, most;
    __m128i differ, first;
} lane_facts;

/* Row v, whose floats are y, into *f. */
KF_ALWAYS_INLINE __m128 track_row(__m128i v, __m128 y, lane_facts *f, int track)
{
    if (track) {
        f->least = _mm_min_ps(f->least, y);
        f->most = _mm_max_ps(f->most, y);
        f->differ = _mm_or_si128(f->differ, _mm_xor_si128(v, f->first));
    }
    return y;
}

/* The next row's floats, summed and tracked. */
#define NEXT_ROW(x)                                                                                \
    (sum_row(x, &a, &d, &v, c, mixed), track_row(v, row_floats(v, c, ints), f, track))

/* Rows 2 .. rows - 2 four at a time (each group of four loaded from the
 * columns and turned into rows by one 4x4 transposition), then the rest a
 * row at a time; the last row is stored as its own columns alone. `track`:
 * the rows' facts into *f as well. `stride`: the floats from one row of out
 * to the next, more than `columns` (2 to 4) where these are the last of a
 * wider array's: a row's store then reaches into the next row, whose
 * first columns are written after. */
KF_ALWAYS_INLINE void fused_body(const uint32_t *w, size_t rows, size_t columns, size_t stride,
                                 float *out, const lanes *c, int mixed, int ints, int track,
                                 lane_facts *f)
{
    __m128i v = gather_row(w, rows, columns, 0);
    __m128i x = gather_row(w, rows, columns, 1);
    __m128i d = _mm_andnot_si128(c->mp, x), a = _mm_setzero_si128();
    const __m128 y0 = row_floats(v, c, ints);
    if (track)
        f->least = f->most = y0, f->first = v, f->differ = _mm_setzero_si128();
    _mm_storeu_ps(out, y0);
    v = _mm_add_epi32(v, x);
    _mm_storeu_ps(out + stride, track_row(v, row_floats(v, c, ints), f, track));
    size_t i = 2;
    for (; i + 4 < rows; i += 4) {
        __m128 r0 = _mm_loadu_ps((const float *)(const void *)(w + i));
        __m128 r1 = _mm_loadu_ps((const float *)(const void *)(w + rows + i));
        __m128 r2 = columns > 2 ? _mm_loadu_ps((const float *)(const void *)(w + 2 * rows + i))
                                : _mm_setzero_ps();
        __m128 r3 = columns > 3 ? _mm_loadu_ps((const float *)(const void *)(w + 3 * rows + i))
                                : _mm_setzero_ps();
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        float *to = out + i * stride;
#define ROW(r) NEXT_ROW(_mm_castps_si128(r))
        _mm_storeu_ps(to, ROW(r0));
        _mm_storeu_ps(to + stride, ROW(r1));
        _mm_storeu_ps(to + 2 * stride, ROW(r2));
        _mm_storeu_ps(to + 3 * stride, ROW(r3));
#undef ROW
    }
    for (; i < rows; i++) {
        const __m128 y = NEXT_ROW(gather_row(w, rows, columns, i));
        float *to = out + i * stride;
        if (i + 1 < rows || columns == 4) {
            _mm_storeu_ps(to, y); /* lanes past the columns land on the next row, written next */
        } else {
            _mm_storel_pi((__m64 *)(void *)to, y);
            if (columns > 2)
                _mm_store_ss(to + 2, _mm_movehl_ps(y, y));
        }
    }
}
#undef NEXT_ROW

/* decode's running sums, conversion and transposition for `columns` (2 to
 * 4) columns of a fusable array, every one at once, a lane each: the same
 * operations as the column at a time path, so the same words. w: each
 * column's differences; out: the rows, `stride` floats apart; `facts` (or
 * NULL): the integer columns' (column_facts). `pending`: a unit column is
 * a SLERP w the layout rebuilds (SIGNED_INTS, where every lane converts).
 * Returns the unit column's sign words (sign_of's `one`: 1 as they are,
 * else the float they became), and (SIGNED_INTS, tracking facts) in
 * *signs_known whether every one of them is a sign. */
static uint32_t fused_group(const float *headers, const uint32_t *w, size_t rows, size_t columns,
                            size_t stride, float *out, kf_column_facts *facts, int pending,
                            int *signs_known)
{
    uint32_t quad[4] = {0}, lin[4] = {0}, prev[4] = {0}, ints[4] = {0}, exponents[4] = {0};
    double factor[4] = {1.0, 1.0, 1.0, 1.0};
    float fast_factor[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    int any_ints = 0, mixed = 0, all_ints = 1, fast = 1;
    size_t unit = 4;
    for (size_t m = 0; m < 4; m++) {
        uint32_t h = 0;
        if (m < columns)
            memcpy(&h, &headers[m], 4);
        const uint32_t predictor = (h & KFB_COLUMN_PREDICTOR_MASK) >> KFB_COLUMN_PREDICTOR_SHIFT;
        /* A missing fourth column sums zeros, as any predictor does. */
        quad[m] = m >= columns || predictor == KFB_PREDICT_QUADRATIC ? ~0u : 0u;
        lin[m] = m < columns && predictor == KFB_PREDICT_LINEAR ? ~0u : 0u;
        prev[m] = m < columns && predictor == KFB_PREDICT_PREVIOUS ? ~0u : 0u;
        mixed |= !quad[m];
        const uint32_t exponent = h & KFB_COLUMN_EXPONENT_MASK;
        exponents[m] = exponent; /* (out overwrites the headers) */
        all_ints &= m >= columns || exponent || (h & KFB_COLUMN_UNIT);
        if (m < columns && (h & KFB_COLUMN_UNIT)) {
            unit = m;
            if (pending)
                fast_factor[m] = -1.0f;
        }
        if (exponent) {
            const int e = column_scale(exponent);
            factor[m] = kf_pow2(e);
            fast_factor[m] = (float)factor[m];
            fast &= float_scale(e);
            ints[m] = ~0u;
            any_ints = 1;
        }
    }
    const lanes c = {_mm_loadu_si128((const __m128i *)(const void *)quad),
                     _mm_loadu_si128((const __m128i *)(const void *)lin),
                     _mm_loadu_si128((const __m128i *)(const void *)prev),
                     _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)ints)),
                     _mm_loadu_pd(factor),
                     _mm_loadu_pd(factor + 2),
                     _mm_loadu_ps(fast_factor)};
    lane_facts f = {_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_si128(), _mm_setzero_si128()};
    /* Facts where they can answer: every column integers (or a quaternion's
     * rebuilt w), as an error-bounded file's; a lossless one's floats,
     * some columns of which may happen to be integers, do without. */
    const int track = facts && any_ints && all_ints;
#define BODY(ints, track)                                                                          \
    (mixed ? fused_body(w, rows, columns, stride, out, &c, 1, ints, track, &f)                     \
           : fused_body(w, rows, columns, stride, out, &c, 0, ints, track, &f))
    const int signed_ints = fast && all_ints && pending && unit < 4;
    if (!any_ints)
        BODY(NO_INTS, 0);
    else if (signed_ints)
        track ? BODY(SIGNED_INTS, 1) : BODY(SIGNED_INTS, 0);
    else if (fast && all_ints)
        track ? BODY(ALL_INTS, 1) : BODY(ALL_INTS, 0);
    else if (fast)
        track ? BODY(FAST_INTS, 1) : BODY(FAST_INTS, 0);
    else
        track ? BODY(INTS, 1) : BODY(INTS, 0);
#undef BODY
    if (track) {
        float least[4], most[4];
        uint32_t differ[4];
        _mm_storeu_ps(least, f.least);
        _mm_storeu_ps(most, f.most);
        _mm_storeu_si128((__m128i *)(void *)differ, f.differ);
        for (size_t m = 0; m < columns; m++)
            if (ints[m])
                put_float_facts(least[m], most[m], differ[m], exponents[m], &facts[m]);
        /* (a word other than 0 and 1 converts to a float outside [-1, 0]) */
        if (signed_ints && least[unit] >= -1.0f && most[unit] <= 0.0f)
            *signs_known = 1;
    }
    if (!(any_ints && fast && all_ints))
        return 1;
    return signed_ints ? 0xBF800000u : 0x3F800000u;
}

/* fused_group over a fusable array (fusable: 3, 4 or 6 to 8 columns, at
 * least 4 rows): its columns past the fourth first, whose rows' stores
 * reach into the next rows' first four, then those. What the unit
 * column's (`unit`, or SIZE_MAX: none) sign words became (sign_of's `one`). */
static uint32_t fused_rows(const float *headers, const uint32_t *w, size_t rows, size_t columns,
                           float *out, kf_column_facts *facts, size_t unit, int pending,
                           int *signs_known)
{
    uint32_t high = 1;
    if (columns > 4)
        high = fused_group(headers + 4, w + 4 * rows, rows, columns - 4, columns, out + 4,
                           facts ? facts + 4 : NULL, 0, signs_known);
    const uint32_t low = fused_group(headers, w, rows, columns < 4 ? columns : 4, columns, out,
                                     facts, pending, signs_known);
    return unit >= 4 ? high : low;
}
#endif

/* The sign of a unit column's row (0 or 1, anything else one no writer
 * writes) from its word, which fused_rows may have made a float: `one`, the
 * word of sign 1 (1 itself, or the float it became). */
static inline uint32_t sign_of(uint32_t word, uint32_t one)
{
    return word == 0 ? 0u : word == one ? 1u : 2u;
}

/* Whether facts f of a quaternion's x, y and z (integer columns) bound
 * every row's sum of squares a margin below 1: each |q| 2^e at most its
 * column's greatest magnitude, whose squares (of 48 bits) are exact in
 * double and their sum rounded by at most 2^-52 of it, so that
 * kf_unit_rest, summing a row's exact squares in double, finds it at most 1. */
static int inside_unit(const kf_column_facts f[3])
{
    double sum = 0.0;
    for (size_t m = 0; m < 3; m++) {
        if (!f[m].integers)
            return 0;
        const double least = fabs((double)f[m].least), most = fabs((double)f[m].most);
        const double top = (least > most ? least : most) * kf_pow2(f[m].exponent);
        sum += top * top;
    }
    return sum <= 1.0 - 0x1p-20;
}

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* Eight zigzagged halfwords (a column's differences whose high planes are
 * zero) unzigzagged, as halfwords (their results, in [-2^15, 2^15), are
 * the words' low halves), and widened with their signs to eight words at x. */
KF_ALWAYS_INLINE void put_halfwords(uint32_t *x, __m128i h)
{
    h = _mm_xor_si128(_mm_srli_epi16(h, 1),
                      _mm_sub_epi16(_mm_setzero_si128(), _mm_and_si128(h, _mm_set1_epi16(1))));
    const __m128i sign = _mm_srai_epi16(h, 15);
    _mm_storeu_si128((__m128i *)(void *)x, _mm_unpacklo_epi16(h, sign));
    _mm_storeu_si128((__m128i *)(void *)(x + 4), _mm_unpackhi_epi16(h, sign));
}
#endif

#if defined(__SSE2__) && !defined(KF_NO_SIMD)
/* Rows [i, i + 16) of a column (decode) from its two low planes, its high
 * ones zero. */
KF_ALWAYS_INLINE void halfwords16(uint32_t *x, const unsigned char *b0, const unsigned char *b1,
                                  size_t i)
{
    const __m128i p0 = _mm_loadu_si128((const __m128i *)(const void *)(b0 + i));
    const __m128i p1 = _mm_loadu_si128((const __m128i *)(const void *)(b1 + i));
    put_halfwords(x + i, _mm_unpacklo_epi8(p0, p1));
    put_halfwords(x + i + 8, _mm_unpackhi_epi8(p0, p1));
}

/* Rows [i, i + 16) of a column from its four planes: their bytes
 * interleaved into words (unpacking bytes, then byte pairs), unzigzagged
 * where `zigzag`. */
KF_ALWAYS_INLINE void words16(uint32_t *x, const unsigned char *b0, const unsigned char *b1,
                              const unsigned char *b2, const unsigned char *b3, size_t i,
                              int zigzag)
{
    const __m128i p0 = _mm_loadu_si128((const __m128i *)(const void *)(b0 + i));
    const __m128i p1 = _mm_loadu_si128((const __m128i *)(const void *)(b1 + i));
    const __m128i p2 = _mm_loadu_si128((const __m128i *)(const void *)(b2 + i));
    const __m128i p3 = _mm_loadu_si128((const __m128i *)(const void *)(b3 + i));
    const __m128i lo01 = _mm_unpacklo_epi8(p0, p1), hi01 = _mm_unpackhi_epi8(p0, p1);
    const __m128i lo23 = _mm_unpacklo_epi8(p2, p3), hi23 = _mm_unpackhi_epi8(p2, p3);
    __m128i e0 = _mm_unpacklo_epi16(lo01, lo23), e1 = _mm_unpackhi_epi16(lo01, lo23);
    __m128i e2 = _mm_unpacklo_epi16(hi01, hi23), e3 = _mm_unpackhi_epi16(hi01, hi23);
    if (zigzag) { /* (written out: a loop over the four stays one at -O2) */
        const __m128i one = _mm_set1_epi32(1), zero = _mm_setzero_si128();
#define UNZIGZAG(e) _mm_xor_si128(_mm_srli_epi32(e, 1), _mm_sub_epi32(zero, _mm_and_si128(e, one)))
        e0 = UNZIGZAG(e0);
        e1 = UNZIGZAG(e1);
        e2 = UNZIGZAG(e2);
        e3 = UNZIGZAG(e3);
#undef UNZIGZAG
    }
    _mm_storeu_si128((__m128i *)(void *)(x + i), e0);
    _mm_storeu_si128((__m128i *)(void *)(x + i + 4), e1);
    _mm_storeu_si128((__m128i *)(void *)(x + i + 8), e2);
    _mm_storeu_si128((__m128i *)(void *)(x + i + 12), e3);
}
#endif

/* Columns of `rows` words at w (one after another) into rows of `columns`
 * floats at out, the common widths written out so that a row is a few
 * moves (a loop over the columns cost more than the moves). */
static void columns_to_rows(const uint32_t *w, size_t rows, size_t columns, float *out)
{
    const size_t n = rows;
    size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Four rows a step: the columns' four words each, turned into rows by
     * one 4x4 transposition (a fourth column of zeros for three; two for
     * six's last two). A row of three is stored as four floats, the last
     * of which the next row's store writes again: the step stops a row
     * short of the end so that every store lies within the array. */
#define COL(m) _mm_loadu_ps((const float *)(const void *)(w + (m)*n + i))
    switch (columns) {
    case 2:
        for (; i + 4 <= rows; i += 4) {
            const __m128 a = COL(0), b = COL(1);
            _mm_storeu_ps(out + 2 * i, _mm_unpacklo_ps(a, b));
            _mm_storeu_ps(out + 2 * i + 4, _mm_unpackhi_ps(a, b));
        }
        break;
    case 3:
    case 4:
        for (; i + 5 <= rows; i += 4) {
            __m128 a = COL(0), b = COL(1), c = COL(2), d = columns == 4 ? COL(3) : _mm_setzero_ps();
            _MM_TRANSPOSE4_PS(a, b, c, d);
            float *r = out + columns * i;
            _mm_storeu_ps(r, a);
            _mm_storeu_ps(r + columns, b);
            _mm_storeu_ps(r + 2 * columns, c);
            _mm_storeu_ps(r + 3 * columns, d);
        }
        break;
    case 6:
        for (; i + 4 <= rows; i += 4) {
            __m128 a = COL(0), b = COL(1), c = COL(2), d = COL(3);
            const __m128 e = COL(4), f = COL(5);
            _MM_TRANSPOSE4_PS(a, b, c, d);
            const __m128 lo = _mm_unpacklo_ps(e, f), hi = _mm_unpackhi_ps(e, f);
            float *r = out + 6 * i;
            _mm_storeu_ps(r, a);
            _mm_storel_pi((__m64 *)(void *)(r + 4), lo);
            _mm_storeu_ps(r + 6, b);
            _mm_storeh_pi((__m64 *)(void *)(r + 10), lo);
            _mm_storeu_ps(r + 12, c);
            _mm_storel_pi((__m64 *)(void *)(r + 16), hi);
            _mm_storeu_ps(r + 18, d);
            _mm_storeh_pi((__m64 *)(void *)(r + 22), hi);
        }
        break;
    default:
        break;
    }
#undef COL
#endif
    switch (columns) {
    case 1:
        memcpy(out, w, rows * 4);
        return;
    case 2:
        for (; i < rows; i++) {
            const uint32_t r[2] = {w[i], w[n + i]};
            memcpy(out + 2 * i, r, sizeof r);
        }
        return;
    case 3:
        for (; i < rows; i++) {
            const uint32_t r[3] = {w[i], w[n + i], w[2 * n + i]};
            memcpy(out + 3 * i, r, sizeof r);
        }
        return;
    case 4:
        for (; i < rows; i++) {
            const uint32_t r[4] = {w[i], w[n + i], w[2 * n + i], w[3 * n + i]};
            memcpy(out + 4 * i, r, sizeof r);
        }
        return;
    case 6: /* a vector's key tangents, incoming and outgoing */
        for (; i < rows; i++) {
            const uint32_t r[6] = {w[i],         w[n + i],     w[2 * n + i],
                                   w[3 * n + i], w[4 * n + i], w[5 * n + i]};
            memcpy(out + 6 * i, r, sizeof r);
        }
        return;
    default:
        for (; i < rows; i++)
            for (size_t m = 0; m < columns; m++)
                memcpy(&out[i * columns + m], &w[m * rows + i], 4);
    }
}

/* Writes the zeros an encoded array of `count` floats at word `offset`,
 * `head` header words and `rows` rows, reads (fill_zeros). Returns
 * ALL_PLANES_ZERO, writing none of the planes, where one unwritten run
 * holds them all (every difference is 0: a column predicted exactly, as a
 * spline's tangents guessed from its keys are); HIGH_PLANES_ZERO, writing
 * none of planes 2 and 3, where one unwritten run holds those planes'
 * every whole word and the bytes beside them are zeros too (an SSE2
 * decoder, of 2.1's zigzagged differences, on a little-endian host, the
 * one that has a path for small differences); else 0. The decoder then
 * takes those planes as zeros without reading them. */
enum { HIGH_PLANES_ZERO = 1, ALL_PLANES_ZERO = 2 };
static int fill_array_zeros(loader *L, size_t offset, size_t count, size_t head, size_t rows)
{
    const size_t end = offset + head + count;
    if (!L->run_count)
        return 0;
    /* Planes 2 and 3 in the section's bytes [from, to), their whole words
     * [inner, outer). */
    const size_t from = 4 * (offset + head) + 2 * count, to = from + 2 * count;
    const size_t inner = (from + 3) / 4, outer = to / 4;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    const int may = L->zigzag && rows >= 16 && kfb_host_little_endian() && inner < outer;
#else
    const int may = 0;
    (void)rows;
#endif
    const size_t planes = offset + head; /* (their first word) */
    int skipped = 0;
    for (size_t r = first_run(L, offset); r < L->run_count && L->runs[r][0] < end; r++) {
        const size_t a = L->runs[r][0] > offset ? L->runs[r][0] : offset,
                     b = RUN_END(L, r) < end ? RUN_END(L, r) : end;
        if (L->runs[r][0] <= planes && RUN_END(L, r) >= end && count) {
            memset(L->data_rw + a, 0, (planes - a) * 4);
            return ALL_PLANES_ZERO; /* (the runs do not overlap: none is left) */
        } else if (may && L->runs[r][0] <= inner && RUN_END(L, r) >= outer) {
            memset(L->data_rw + a, 0, (inner - a) * 4);
            memset(L->data_rw + outer, 0, (b - outer) * 4);
            skipped = 1;
        } else {
            memset(L->data_rw + a, 0, (b - a) * 4);
        }
    }
    if (!skipped)
        return 0;
    /* The planes' bytes in the words beside: zeros too? */
    const unsigned char *bytes = (const unsigned char *)L->data_rw;
    int zero = 1;
    for (size_t b = from; b < 4 * inner; b++)
        zero &= bytes[b] == 0;
    for (size_t b = 4 * outer; b < to; b++)
        zero &= bytes[b] == 0;
    if (!zero)
        memset(L->data_rw + inner, 0, (outer - inner) * 4);
    return zero ? HIGH_PLANES_ZERO : 0;
}

/* The floats of words [word, word + count) of an array held as rows:
 * where a stored section is read in place, read where they lie if they are
 * aligned as floats (read only during the load: the layout copies them,
 * as it does every array), else copied; else in data_rw, its zero runs
 * written. */
static const float *rows_where(loader *L, size_t word, size_t count)
{
    if (L->source) {
        const unsigned char *p = L->source + word * 4;
        if ((uintptr_t)p % _Alignof(float) == 0)
            return (const float *)(const void *)p;
        memcpy(L->data_rw + word, p, count * 4);
    } else {
        fill_zeros(L, word, word + count);
    }
    return L->data + word;
}

/* Whether an array of `head` header words at word `offset` is held as rows:
 * its first header has KFB_COLUMN_ROWS (read, for a section not read in
 * place, after the zeros of the headers' runs are written). */
static int held_as_rows(loader *L, size_t offset, size_t head)
{
    uint32_t h;
    if (L->source) {
        memcpy(&h, L->source + offset * 4, 4);
    } else {
        fill_zeros(L, offset, offset + head);
        memcpy(&h, L->data + offset, 4);
    }
    return (h & KFB_COLUMN_ROWS) != 0;
}

/* An array held as rows (2.5): `head` headers, each exactly KFB_COLUMN_ROWS,
 * then `count` floats as they are (loader.rows_at). Returns KF_OK, or the
 * column whose header is not, in *bad, with its header. */
static kf_result read_rows(loader *L, size_t offset, size_t count, size_t head, size_t *bad,
                           uint32_t *bad_header)
{
    for (size_t m = 0; m < head; m++) {
        uint32_t h;
        memcpy(&h, L->source ? L->source + (offset + m) * 4 : (const void *)(L->data + offset + m),
               4);
        if (h != KFB_COLUMN_ROWS || !kfb_has(L->version, KFB_SINCE_ROWS)) {
            *bad = m;
            *bad_header = h;
            return KF_ERROR_VALUE;
        }
    }
    L->rows_at = rows_where(L, offset + head, count);
    L->unit_column = SIZE_MAX;
    return KF_OK;
}

/* Decodes, in place, `count` encoded floats at word `offset` (the mirror of
 * put_encoded): planes back into differences, each added to the prediction
 * from the words already decoded (or, KFB_PREDICT_KEYS, from `guess`);
 * integer columns to floats; a unit column last, from the others. The planes are file bytes; on a big-endian host
 * the section's words were swapped, so file byte b sits at b ^ 3. Returns
 * KF_OK, or the column whose header or signs no writer of the file's
 * version writes, in *bad, with its header. */
static kf_result decode(loader *L, uint32_t offset, size_t count, size_t stride,
                        const float *against, const key_guess *guess, size_t *bad,
                        uint32_t *bad_header)
{
    const size_t flip = kfb_host_little_endian() ? 0 : 3;
    const size_t rows = against ? count : count / stride, columns = against ? 1 : stride;
    L->rows_at = NULL;
    if (!against && held_as_rows(L, offset, columns))
        return read_rows(L, offset, count, columns, bad, bad_header);
    const int zero_planes = fill_array_zeros(L, offset, count, against ? 0 : columns, rows);
    const int high_zero = zero_planes == HIGH_PLANES_ZERO;
    (void)high_zero;                                 /* (read by the SSE2 decoder alone) */
    if (zero_planes == ALL_PLANES_ZERO && against) { /* every word its against's */
        memcpy(L->data_rw + offset, against, count * 4);
        L->unit_column = SIZE_MAX;
        return KF_OK;
    }
    /* The column headers are read from the array's first words, where the
     * stored section is read in place too (loader.source): copied there
     * first. */
    const unsigned char *stored =
        L->source ? L->source + (size_t)offset * 4 : (const unsigned char *)(L->data + offset);
    if (L->source && !against)
        memcpy(L->data_rw + offset, stored, columns * 4);
    const float *headers = L->data + offset;
    const unsigned char *bytes = stored + (against ? 0 : columns * 4);
    const uint32_t allowed = L->zigzag ? KFB_COLUMN_HEADER_BITS : KFB_COLUMN_EXPONENT_MASK;
    const int zigzag = L->zigzag;
    /* Each column is rebuilt contiguously in the scratch words, then all
     * are stored in rows over the array's own words (which hold the planes
     * until then, where the section is not read in place). */
    uint32_t *w = L->scratch;
    float *out = L->data_rw + offset;
    size_t unit = SIZE_MAX;
    int any_keys = 0;
    const int fused = fusable(headers, columns, against, rows);
    uint32_t sign_one = 1; /* the word of sign 1 (sign_of) */
    int signs_known = 0;   /* (fused_rows) */
    for (size_t m = 0; m < columns; m++) {
        uint32_t h = 0;
        if (!against)
            memcpy(&h, &headers[m], 4);
        const uint32_t predictor = (h & KFB_COLUMN_PREDICTOR_MASK) >> KFB_COLUMN_PREDICTOR_SHIFT;
        const uint32_t exponent = h & KFB_COLUMN_EXPONENT_MASK;
        const int keys = predictor == KFB_PREDICT_KEYS;
        if ((h & ~allowed) ||
            ((h & KFB_COLUMN_UNIT) && (exponent || unit != SIZE_MAX || columns < 2)) ||
            (keys && (!kfb_has(L->version, KFB_SINCE_KEY_GUESS) || !guess || exponent ||
                      (h & KFB_COLUMN_UNIT)))) {
            *bad = m;
            *bad_header = h;
            return KF_ERROR_VALUE;
        }
        if (h & KFB_COLUMN_UNIT)
            unit = m;
        /* The column's differences out of the planes: in groups of 8 rows,
         * a count compilers vectorize even at -O2. */
        uint32_t *x = w + m * rows;
        const size_t k = m * rows;
        if (zero_planes == ALL_PLANES_ZERO) {
            memset(x, 0, rows * sizeof *x);
        } else if (flip == 0) {
            const unsigned char *b0 = bytes + k, *b1 = b0 + count, *b2 = b1 + count,
                                *b3 = b2 + count;
            size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
            /* 16 rows a step: the four planes' bytes interleaved into
             * words (unpacking bytes, then byte pairs), unzigzagged. The
             * last rows short of 16 go with the ones before them (overlap):
             * a row's word is its planes' alone, so a row done twice comes
             * out the same. */
            const __m128i one = _mm_set1_epi32(1), zero = _mm_setzero_si128();
            /* A column whose two high planes are zero (small differences,
             * as a quantized column's are) holds a zigzagged halfword a
             * row (put_halfwords). Taken where the first 16 rows' high
             * bytes are zero; should a later row's not be, the column is
             * done again below. */
#define HIGH(i)                                                                                    \
    _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(b2 + (i))),                       \
                 _mm_loadu_si128((const __m128i *)(const void *)(b3 + (i))))
            if (high_zero) { /* planes 2 and 3 are zeros, unread */
                for (; i + 16 <= rows; i += 16)
                    halfwords16(x, b0, b1, i);
                if (i < rows && rows >= 16) { /* (overlap: see above) */
                    halfwords16(x, b0, b1, rows - 16);
                    i = rows;
                }
                if (i + 8 <= rows) {
                    const __m128i p0 = _mm_loadl_epi64((const __m128i *)(const void *)(b0 + i));
                    const __m128i p1 = _mm_loadl_epi64((const __m128i *)(const void *)(b1 + i));
                    put_halfwords(x + i, _mm_unpacklo_epi8(p0, p1));
                    i += 8;
                }
                for (; i < rows; i++)
                    x[i] = unplane(b0[i], b1[i], 0, 0, zigzag);
            } else if (zigzag && rows >= 16 &&
                       _mm_movemask_epi8(_mm_cmpeq_epi8(HIGH(0), zero)) == 0xFFFF) {
                __m128i high = zero;
                for (; i + 16 <= rows; i += 16) {
                    const __m128i p0 = _mm_loadu_si128((const __m128i *)(const void *)(b0 + i));
                    const __m128i p1 = _mm_loadu_si128((const __m128i *)(const void *)(b1 + i));
                    high = _mm_or_si128(high, HIGH(i));
                    put_halfwords(x + i, _mm_unpacklo_epi8(p0, p1));
                    put_halfwords(x + i + 8, _mm_unpackhi_epi8(p0, p1));
                }
                if (i + 8 <= rows) { /* 8 more rows the same way */
                    const __m128i p0 = _mm_loadl_epi64((const __m128i *)(const void *)(b0 + i));
                    const __m128i p1 = _mm_loadl_epi64((const __m128i *)(const void *)(b1 + i));
                    high = _mm_or_si128(
                        high,
                        _mm_or_si128(_mm_loadl_epi64((const __m128i *)(const void *)(b2 + i)),
                                     _mm_loadl_epi64((const __m128i *)(const void *)(b3 + i))));
                    put_halfwords(x + i, _mm_unpacklo_epi8(p0, p1));
                    i += 8;
                }
                if (_mm_movemask_epi8(_mm_cmpeq_epi8(high, zero)) != 0xFFFF)
                    i = 0;
            }
#undef HIGH
            if (zigzag) /* (a loop each: the test out of the loop) */
                for (; i + 16 <= rows; i += 16)
                    words16(x, b0, b1, b2, b3, i, 1);
            else
                for (; i + 16 <= rows; i += 16)
                    words16(x, b0, b1, b2, b3, i, 0);
            if (i < rows && rows >= 16) { /* (overlap: see above) */
                words16(x, b0, b1, b2, b3, rows - 16, zigzag);
                i = rows;
            }
            if (i + 8 <= rows) { /* 8 more rows the same way */
                const __m128i p0 = _mm_loadl_epi64((const __m128i *)(const void *)(b0 + i));
                const __m128i p1 = _mm_loadl_epi64((const __m128i *)(const void *)(b1 + i));
                const __m128i p2 = _mm_loadl_epi64((const __m128i *)(const void *)(b2 + i));
                const __m128i p3 = _mm_loadl_epi64((const __m128i *)(const void *)(b3 + i));
                const __m128i lo01 = _mm_unpacklo_epi8(p0, p1), lo23 = _mm_unpacklo_epi8(p2, p3);
                __m128i e0 = _mm_unpacklo_epi16(lo01, lo23), e1 = _mm_unpackhi_epi16(lo01, lo23);
                if (zigzag) {
                    e0 = _mm_xor_si128(_mm_srli_epi32(e0, 1),
                                       _mm_sub_epi32(zero, _mm_and_si128(e0, one)));
                    e1 = _mm_xor_si128(_mm_srli_epi32(e1, 1),
                                       _mm_sub_epi32(zero, _mm_and_si128(e1, one)));
                }
                _mm_storeu_si128((__m128i *)(void *)(x + i), e0);
                _mm_storeu_si128((__m128i *)(void *)(x + i + 4), e1);
                i += 8;
            }
#endif
            for (; i + 8 <= rows; i += 8) {
                /* Copies first: the planes are bytes, which may alias x. */
                unsigned char p[4][8];
                uint32_t e[8];
                memcpy(p[0], b0 + i, 8);
                memcpy(p[1], b1 + i, 8);
                memcpy(p[2], b2 + i, 8);
                memcpy(p[3], b3 + i, 8);
                for (size_t j = 0; j < 8; j++)
                    e[j] = unplane(p[0][j], p[1][j], p[2][j], p[3][j], zigzag);
                memcpy(x + i, e, sizeof e);
            }
            for (; i < rows; i++)
                x[i] = unplane(b0[i], b1[i], b2[i], b3[i], zigzag);
        } else {
            for (size_t i = 0; i < rows; i++) {
                unsigned char e[KFB_PLANES];
                for (size_t p = 0; p < KFB_PLANES; p++)
                    e[p] = bytes[(p * count + k + i) ^ flip];
                x[i] = unplane(e[0], e[1], e[2], e[3], zigzag);
            }
        }
        /* Each difference plus its prediction. Predicting the last word
         * (PREVIOUS), extrapolating two (LINEAR) or three (QUADRATIC) makes
         * the differences the column's first, second or third differences,
         * so running sums undo them (kfb_predicted's short rows included:
         * a difference sums into what its row's predictor extrapolates). */
        if (fused) {
            continue; /* sums and floats a row at a time, below */
        } else if (against) {
            size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
            for (; i + 4 <= rows; i += 4)
                _mm_storeu_si128(
                    (__m128i *)(void *)(x + i),
                    _mm_add_epi32(_mm_loadu_si128((const __m128i *)(const void *)(x + i)),
                                  _mm_loadu_si128((const __m128i *)(const void *)(against + i))));
#endif
            for (; i < rows; i++) {
                uint32_t a;
                memcpy(&a, &against[i], 4);
                x[i] += a;
            }
        } else if (keys) {
            any_keys = 1; /* its guesses are added below */
        } else if (predictor == KFB_PREDICT_PREVIOUS) {
            for (size_t i = 1; i < rows; i++)
                x[i] += x[i - 1];
        } else if (rows > 1) {
            uint32_t v = x[0], d = 0, a = 0;
            d += x[1];
            v += d;
            x[1] = v;
            if (predictor == KFB_PREDICT_LINEAR) {
                for (size_t i = 2; i < rows; i++) {
                    d += x[i];
                    v += d;
                    x[i] = v;
                }
            } else {
                for (size_t i = 2; i < rows; i++) {
                    a += x[i];
                    d += a;
                    v += d;
                    x[i] = v;
                }
            }
        }
        if (exponent && L->column_facts && m < L->column_facts_count)
            kf_column_facts_of(x, rows, exponent, &L->column_facts[m]);
        if (exponent) {
            /* Integers q at scale 2^e back to floats: exact for every q a
             * writer stores (|q| < 2^24); a crafted q or e rounds or
             * overflows, which the validation that follows sees. */
            const int scale = column_scale(exponent);
            /* A power of two in double's range: the product is ldexp's. */
            const double factor = kf_pow2(scale);
            size_t i = 0;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
            /* Four at a time, the same operations: signed integers to
             * double, the product, rounded to float, and beyond FLT_MAX
             * infinity of the product's sign. */
            const __m128d f2 = _mm_set1_pd(factor), most = _mm_set1_pd(FLT_MAX);
            const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7FFFFFFFFFFFFFFF));
            const __m128 inf = _mm_set1_ps(INFINITY), sign = _mm_set1_ps(-0.0f);
            if (float_scale(scale)) { /* in float: the same bits (FAST_INTS) */
                const __m128 fs = _mm_set1_ps((float)factor);
                for (; i + 4 <= rows; i += 4)
                    _mm_storeu_ps((float *)(void *)(x + i),
                                  _mm_mul_ps(_mm_cvtepi32_ps(_mm_loadu_si128(
                                                 (const __m128i *)(const void *)(x + i))),
                                             fs));
            }
            for (; i + 4 <= rows; i += 4) {
                const __m128i q = _mm_loadu_si128((const __m128i *)(const void *)(x + i));
                const __m128d d0 = _mm_mul_pd(_mm_cvtepi32_pd(q), f2);
                const __m128d d1 =
                    _mm_mul_pd(_mm_cvtepi32_pd(_mm_shuffle_epi32(q, _MM_SHUFFLE(1, 0, 3, 2))), f2);
                const __m128 v = _mm_movelh_ps(_mm_cvtpd_ps(d0), _mm_cvtpd_ps(d1));
                const __m128 over =
                    _mm_shuffle_ps(_mm_castpd_ps(_mm_cmpgt_pd(_mm_and_pd(d0, magnitude), most)),
                                   _mm_castpd_ps(_mm_cmpgt_pd(_mm_and_pd(d1, magnitude), most)),
                                   _MM_SHUFFLE(2, 0, 2, 0));
                const __m128 infinite = _mm_or_ps(_mm_and_ps(v, sign), inf);
                _mm_storeu_ps((float *)(void *)(x + i),
                              _mm_or_ps(_mm_and_ps(over, infinite), _mm_andnot_ps(over, v)));
            }
#endif
            for (; i < rows; i++) {
                const uint32_t q = x[i];
                const double d = (q >= 0x80000000u ? (double)q - 4294967296.0 : (double)q) * factor;
                const float v = fabs(d) <= FLT_MAX ? (float)d : d > 0 ? INFINITY : -INFINITY;
                memcpy(&x[i], &v, 4);
            }
        }
    }
    /* A vector's guesses are added once its columns are rows (for the
     * usual widths), a squad's and the others' to the columns. */
    const int row_keys =
        any_keys && guess->interpolation != KFB_INTERP_SQUAD && (stride == 3 || stride == 4);
    unsigned keyed = 0;
    if (row_keys)
        for (size_t m = 0; m < stride; m++)
            keyed |= (unsigned)guessed(headers, m) << m;
    else if (any_keys && guess->interpolation == KFB_INTERP_SQUAD && stride == 4)
        add_squad_guesses(guess, headers, rows, w);
    else if (any_keys)
        add_column_guesses(guess, headers, rows, stride, w);
    L->unit_column = unit;
    uint32_t unit_header = 0;
    if (unit != SIZE_MAX)
        memcpy(&unit_header, &headers[unit], 4);
        /* Only now over the planes: columns to rows. */
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    if (fused) {
        sign_one = fused_rows(headers, w, rows, columns, out, L->column_facts, unit,
                              L->defer_w && unit == 3 && columns == 4, &signs_known);
    } else
#endif
    {
        columns_to_rows(w, rows, columns, out);
        if (row_keys)
            add_row_guesses(guess, keyed, rows, stride, (uint32_t *)(void *)out);
    }
    size_t i = 0;
    /* A SLERP quaternion's w is left to the layout (loader.defer_w): here
     * x, y and z are checked as kf_unit_rest checks them and w becomes the
     * zero of its sign, the one part of it a quantized lane keeps (its sign
     * bit: kf_value_facts.w_pending). Where the facts found every sign a
     * sign and bound every row's x, y and z within unit length, the words
     * already are so (fused_group's SIGNED_INTS: 0.0 and -1.0). */
    if (L->defer_w && unit == 3 && columns == 4) {
        if (signs_known && sign_one == 0xBF800000u && L->column_facts &&
            inside_unit(L->column_facts))
            return KF_OK;
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
        /* Four rows a step, in float: a sum of squares at most this far
         * below 1 is at most 1 in double too (three products and two sums,
         * each rounded by at most 2^-24 of it); rows nearer 1, or whose sign
         * is not a writer's, go to the loop below, which asks in double. */
        const __m128i one = _mm_set1_epi32((int)sign_one);
        const __m128 below = _mm_set1_ps(1.0f - 0x1p-20f), negative = _mm_set1_ps(-0.0f);
        for (; i + 4 <= rows; i += 4) {
            float *r = out + i * 4;
            __m128 x = _mm_loadu_ps(r), y = _mm_loadu_ps(r + 4), z = _mm_loadu_ps(r + 8),
                   signs = _mm_loadu_ps(r + 12);
            _MM_TRANSPOSE4_PS(x, y, z, signs);
            const __m128 sum =
                _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
            const __m128i word = _mm_castps_si128(signs), neg = _mm_cmpeq_epi32(word, one);
            const __m128i sign = _mm_or_si128(neg, _mm_cmpeq_epi32(word, _mm_setzero_si128()));
            if ((_mm_movemask_ps(_mm_castsi128_ps(sign)) &
                 _mm_movemask_ps(_mm_cmple_ps(sum, below))) != 15)
                break;
            const __m128 zeros = _mm_and_ps(_mm_castsi128_ps(neg), negative);
            _mm_store_ss(r + 3, zeros);
            _mm_store_ss(r + 7, _mm_shuffle_ps(zeros, zeros, _MM_SHUFFLE(1, 1, 1, 1)));
            _mm_store_ss(r + 11, _mm_movehl_ps(zeros, zeros));
            _mm_store_ss(r + 15, _mm_shuffle_ps(zeros, zeros, _MM_SHUFFLE(3, 3, 3, 3)));
        }
#endif
        for (; i < rows; i++) {
            float *v = out + i * 4, rest;
            uint32_t sign;
            memcpy(&sign, &v[3], 4);
            sign = sign_of(sign, sign_one);
            if (sign > 1 || !kf_unit_rest(v, 4, 3, (int)sign, &rest)) {
                *bad = unit;
                *bad_header = unit_header;
                return KF_ERROR_VALUE;
            }
            v[3] = sign ? -0.0f : 0.0f;
        }
        return KF_OK;
    }
#if defined(__SSE2__) && !defined(KF_NO_SIMD)
    /* Quaternions four rows a step, turned into x, y, z and the signs by
     * one 4x4 transposition, then as the two row step below. */
    const __m128i one_sign = _mm_set1_epi32((int)sign_one);
    const __m128d one = _mm_set1_pd(1.0);
    for (; unit == 3 && columns == 4 && i + 4 <= rows; i += 4) {
        float *r = out + i * 4;
        __m128 x = _mm_loadu_ps(r), y = _mm_loadu_ps(r + 4), z = _mm_loadu_ps(r + 8),
               signs = _mm_loadu_ps(r + 12);
        _MM_TRANSPOSE4_PS(x, y, z, signs);
        const __m128d x0 = _mm_cvtps_pd(x), x1 = _mm_cvtps_pd(_mm_movehl_ps(x, x)),
                      y0 = _mm_cvtps_pd(y), y1 = _mm_cvtps_pd(_mm_movehl_ps(y, y)),
                      z0 = _mm_cvtps_pd(z), z1 = _mm_cvtps_pd(_mm_movehl_ps(z, z));
        const __m128d sum0 =
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(x0, x0), _mm_mul_pd(y0, y0)), _mm_mul_pd(z0, z0));
        const __m128d sum1 =
            _mm_add_pd(_mm_add_pd(_mm_mul_pd(x1, x1), _mm_mul_pd(y1, y1)), _mm_mul_pd(z1, z1));
        const __m128i word = _mm_castps_si128(signs), neg = _mm_cmpeq_epi32(word, one_sign);
        const __m128i sign = _mm_or_si128(neg, _mm_cmpeq_epi32(word, _mm_setzero_si128()));
        if (_mm_movemask_ps(_mm_castsi128_ps(sign)) != 15 ||
            (_mm_movemask_pd(_mm_cmple_pd(sum0, one)) & _mm_movemask_pd(_mm_cmple_pd(sum1, one))) !=
                3)
            break;
        const __m128 rest = _mm_movelh_ps(_mm_cvtpd_ps(_mm_sqrt_pd(_mm_sub_pd(one, sum0))),
                                          _mm_cvtpd_ps(_mm_sqrt_pd(_mm_sub_pd(one, sum1))));
        const __m128 signed_rest =
            _mm_xor_ps(rest, _mm_and_ps(_mm_castsi128_ps(neg), _mm_set1_ps(-0.0f)));
        _mm_store_ss(r + 3, signed_rest);
        _mm_store_ss(r + 7, _mm_shuffle_ps(signed_rest, signed_rest, _MM_SHUFFLE(1, 1, 1, 1)));
        _mm_store_ss(r + 11, _mm_movehl_ps(signed_rest, signed_rest));
        _mm_store_ss(r + 15, _mm_shuffle_ps(signed_rest, signed_rest, _MM_SHUFFLE(3, 3, 3, 3)));
    }
    /* Two rows a step (the signs still words in the rows; a quaternion
     * array's rows left from the four row step, and other unit columns): the
     * sum of the other columns' squares in double, in column order, as
     * kf_unit_rest takes it, its rest rounded once; the rows of a step
     * where a sign or a sum is not as a writer makes it are left to the
     * loop below, which says which. */
    for (; unit != SIZE_MAX && i + 2 <= rows; i += 2) {
        const float *r0 = out + i * stride, *r1 = r0 + stride;
        __m128d sum = _mm_setzero_pd();
        for (size_t m = 0; m < columns; m++) {
            if (m == unit)
                continue;
            const __m128d x = _mm_cvtps_pd(_mm_set_ps(0.0f, 0.0f, r1[m], r0[m]));
            sum = _mm_add_pd(sum, _mm_mul_pd(x, x));
        }
        uint32_t s0, s1;
        memcpy(&s0, &r0[unit], 4);
        memcpy(&s1, &r1[unit], 4);
        s0 = sign_of(s0, sign_one);
        s1 = sign_of(s1, sign_one);
        if ((s0 | s1) > 1 || _mm_movemask_pd(_mm_cmple_pd(sum, _mm_set1_pd(1.0))) != 3)
            break;
        float rest[4];
        _mm_storeu_ps(rest, _mm_cvtpd_ps(_mm_sqrt_pd(_mm_sub_pd(_mm_set1_pd(1.0), sum))));
        out[i * stride + unit] = s0 ? -rest[0] : rest[0];
        out[(i + 1) * stride + unit] = s1 ? -rest[1] : rest[1];
    }
#endif
    for (; unit != SIZE_MAX && i < rows; i++) {
        float *v = out + i * stride;
        uint32_t sign;
        memcpy(&sign, &v[unit], 4);
        sign = sign_of(sign, sign_one);
        if (sign > 1 || !kf_unit_rest(v, (uint32_t)stride, (uint32_t)unit, (int)sign, &v[unit])) {
            *bad = unit;
            *bad_header = unit_header;
            return KF_ERROR_VALUE;
        }
    }
    return KF_OK;
}

/* Replaces the scratch words with `words` of them. */
static int grow_scratch(loader *L, size_t words)
{
    kf_free(&L->allocator, L->scratch, L->scratch_words * 4);
    L->scratch_words = 0;
    if (!(L->scratch = kf_alloc(&L->allocator, words * 4)))
        return 0;
    L->scratch_words = words;
    return 1;
}

/* decode, with the message for a column no writer writes. */
static kf_result decode_array(loader *L, uint32_t offset, size_t count, size_t stride,
                              const float *against, const key_guess *guess, uint32_t index,
                              size_t pos, const char *what)
{
    size_t bad = 0;
    uint32_t h = 0;
    if (count > L->scratch_words) {
        /* Scratch the size of a typical array stays in the cache; it grows
         * by doubling, up to the data section's words (count is within). */
        size_t words = L->scratch_words * 2 > count ? L->scratch_words * 2 : count;
        words = words < L->data_words ? words : L->data_words;
        if (!grow_scratch(L, words))
            return fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_OBJECTS, index, pos,
                        "out of memory for %zu bytes of decoding state", words * 4);
    }
    if (decode(L, offset, count, stride, against, guess, &bad, &h) == KF_OK)
        return KF_OK;
    return array_failed(
        L,
        fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
             "object %u: %s: column %zu (header %08x) is not as version %u.%u writes it",
             (unsigned)index, what, bad, (unsigned)h, (unsigned)KFB_MAJOR_OF(L->version),
             (unsigned)KFB_MINOR_OF(L->version)),
        what);
}

/* get_floats for an array that version 2 stores encoded with `stride`. */
static kf_result get_encoded(loader *L, uint32_t offset, uint64_t count, size_t stride,
                             const key_guess *guess, uint32_t index, size_t pos, const char *what,
                             const float **out)
{
    if (!L->encoded)
        return get_floats(L, offset, count, index, pos, what, out);
    if (offset > L->data_words || count > L->data_words - offset)
        return get_floats(L, offset, count, index, pos, what, out); /* the message */
    /* A header word per column, then the planes. */
    if (count && stride > L->data_words - offset - count)
        return get_floats(L, offset, count + stride, index, pos, what, out);
    kf_result r =
        claim(L, offset, kfb_encoded_words(count, stride), MARK_ENCODED, index, pos, what);
    if (r != KF_OK)
        return r;
    L->rows_at = NULL;
    if (count && (r = decode_array(L, offset, (size_t)count, stride, NULL, guess, index, pos,
                                   what)) != KF_OK)
        return r;
    *out = L->rows_at ? L->rows_at : L->data + offset;
    return KF_OK;
}

/* Prefixes the validator's message with where the object is. */
static kf_result located(loader *L, kf_result r, uint32_t index, size_t pos, const char *kind,
                         const char *name)
{
    kf_error *e = L->error;
    if (e) {
        char why[sizeof e->message];
        memcpy(why, e->message, sizeof why);
        e->section = KFB_SECTION_OBJECTS;
        e->object = index;
        e->offset = pos;
        /* Truncating a long name or reason is acceptable. */
        if (snprintf(e->message, sizeof e->message, "object %u (%s %s): %s", (unsigned)index, kind,
                     KF_QUOTED(name), why) < 0)
            e->message[0] = '\0';
    }
    return r;
}

/* ---- header ------------------------------------------------------------- */

/* Checks the identifier and header; `available` may be less than the file
 * when only the header has been read. Sets *file_size. */
static kf_result read_header(loader *L, const unsigned char *p, size_t available,
                             uint32_t *file_size)
{
    size_t have = available < KFB_IDENTIFIER_SIZE ? available : KFB_IDENTIFIER_SIZE;
    if (memcmp(p, KFB_IDENTIFIER, have) != 0)
        return fail(L, KF_ERROR_NOT_KFB, KF_NO_INDEX, KF_NO_INDEX, 0,
                    "the file does not start with the .kfb identifier");
    if (available < KFB_HEADER_SIZE)
        return fail(L, KF_ERROR_TRUNCATED, KF_NO_INDEX, KF_NO_INDEX, available,
                    "the file ends inside its %u-byte header", (unsigned)KFB_HEADER_SIZE);
    kfb_header h;
    read_words(&h, p + KFB_IDENTIFIER_SIZE, KFB_WORDS(kfb_header));
    /* The version comes first: a later major version may lay out anything
     * after it differently. */
    const uint32_t major = KFB_MAJOR_OF(h.version), minor = KFB_MINOR_OF(h.version);
    if (!(major == KFB_VERSION_MAJOR && minor <= KFB_VERSION_MINOR) &&
        !(major == 1 && minor <= KFB_VERSION_1_MINOR))
        return fail(L, KF_ERROR_VERSION, KF_NO_INDEX, KF_NO_INDEX, KFB_IDENTIFIER_SIZE,
                    "format version %u.%u; this reader reads 1.0 to 1.%u and %u.0 to %u.%u",
                    (unsigned)major, (unsigned)minor, KFB_VERSION_1_MINOR, KFB_VERSION_MAJOR,
                    KFB_VERSION_MAJOR, KFB_VERSION_MINOR);
    L->encoded = major >= 2;
    L->zigzag = kfb_has(h.version, KFB_SINCE_ZIGZAG);
    L->version = h.version;
    uint32_t crc = kf_crc32(0, p, KFB_HEADER_AT(header_crc));
    if (crc != h.header_crc)
        return fail(L, KF_ERROR_CHECKSUM, KF_NO_INDEX, KF_NO_INDEX, KFB_HEADER_AT(header_crc),
                    "header checksum %08x does not match the header (%08x)", (unsigned)h.header_crc,
                    (unsigned)crc);
    const float probe = KFB_PROBE_FLOAT;
    if (h.probe_int != KFB_PROBE_INT || memcmp(&h.probe_float, &probe, sizeof probe) != 0)
        return fail(L, KF_ERROR_PROBE, KF_NO_INDEX, KF_NO_INDEX, KFB_HEADER_AT(probe_int),
                    "the probe values do not read back: written with another byte order or "
                    "float format");
    if (h.section_count != KFB_SECTION_COUNT)
        return fail(L, KF_ERROR_SECTION, KF_NO_INDEX, KF_NO_INDEX, KFB_HEADER_AT(section_count),
                    "%u sections declared; files have %u", (unsigned)h.section_count,
                    (unsigned)KFB_SECTION_COUNT);
    if (h.file_size < KFB_HEADER_SIZE)
        return fail(L, KF_ERROR_SECTION, KF_NO_INDEX, KF_NO_INDEX, KFB_HEADER_AT(file_size),
                    "declared file size %u is smaller than the header", (unsigned)h.file_size);
    *file_size = h.file_size;
    return KF_OK;
}

/* ---- sections ----------------------------------------------------------- */

/* Finds and checks each section's header, bytes and CRC; the mirror of
 * write_sections. */
static kf_result read_sections(loader *L)
{
    size_t pos = KFB_HEADER_SIZE;
    for (uint32_t i = 0; i < KFB_SECTION_COUNT; i++) {
        section *s = &L->sections[i];
        s->file_offset = pos;
        if (L->size - pos < KFB_SECTION_HEADER_SIZE)
            return fail(L, KF_ERROR_TRUNCATED, i, KF_NO_INDEX, pos,
                        "the file ends inside the header of section %s", section_names[i]);
        read_words(&s->header, L->file + pos, KFB_WORDS(kfb_section_header));
        const kfb_section_header *h = &s->header;
        if (h->tag != section_tags[i])
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, pos,
                        "section %u has tag %08x, expected %s", (unsigned)i, (unsigned)h->tag,
                        section_names[i]);
        if (h->compression > KFB_COMPRESSION_RUNS)
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, pos + 4,
                        "section %s: unknown compression %u", section_names[i],
                        (unsigned)h->compression);
        if (h->compression == KFB_COMPRESSION_RUNS && i != KFB_SECTION_DATA)
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, pos + 4,
                        "section %s: compression 2 (zero runs left out) is DATA's alone",
                        section_names[i]);
        if (h->compression == KFB_COMPRESSION_RUNS && !kfb_has(L->version, KFB_SINCE_RUNS))
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, pos + 4,
                        "section DATA: compression 2 (zero runs left out) is version %u.%u's; "
                        "the file is %u.%u",
                        (unsigned)KFB_MAJOR_OF(KFB_SINCE_RUNS),
                        (unsigned)KFB_MINOR_OF(KFB_SINCE_RUNS), (unsigned)KFB_MAJOR_OF(L->version),
                        (unsigned)KFB_MINOR_OF(L->version));
        pos += KFB_SECTION_HEADER_SIZE;
        if (L->size - pos < KFB_SECTION_CRC_SIZE ||
            h->stored_size > L->size - pos - KFB_SECTION_CRC_SIZE)
            return fail(L, KF_ERROR_TRUNCATED, i, KF_NO_INDEX, pos,
                        "section %s declares %u stored bytes; the file ends first",
                        section_names[i], (unsigned)h->stored_size);
        s->stored = L->file + pos;
        uint32_t crc = kf_crc32(0, L->file + s->file_offset, KFB_SECTION_HEADER_SIZE);
        crc = kf_crc32(crc, s->stored, h->stored_size);
        pos += h->stored_size;
        uint32_t expected;
        read_words(&expected, L->file + pos, 1);
        if (crc != expected)
            return fail(L, KF_ERROR_CHECKSUM, i, KF_NO_INDEX, pos,
                        "section %s checksum %08x does not match its bytes (%08x)",
                        section_names[i], (unsigned)expected, (unsigned)crc);
        pos += KFB_SECTION_CRC_SIZE;

        if (h->compression == KFB_COMPRESSION_NONE && h->raw_size != h->stored_size)
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, s->file_offset + 12,
                        "uncompressed section %s declares %u bytes but stores %u", section_names[i],
                        (unsigned)h->raw_size, (unsigned)h->stored_size);
        if (h->raw_size > L->max_section)
            return fail(L, KF_ERROR_TOO_LARGE, i, KF_NO_INDEX, s->file_offset + 12,
                        "section %s declares %u bytes; the limit is %zu", section_names[i],
                        (unsigned)h->raw_size, L->max_section);
        if (h->compression != KFB_COMPRESSION_NONE &&
            !kfb_zlib_ratio_ok(h->raw_size, h->stored_size))
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, s->file_offset + 12,
                        "section %s declares %u bytes, more than %u stored bytes can inflate to",
                        section_names[i], (unsigned)h->raw_size, (unsigned)h->stored_size);
        if (i != KFB_SECTION_STRINGS && h->raw_size % 4 != 0)
            return fail(L, KF_ERROR_SECTION, i, KF_NO_INDEX, s->file_offset + 12,
                        "section %s size %u is not a whole number of words", section_names[i],
                        (unsigned)h->raw_size);
    }
    if (pos != L->size)
        return fail(L, KF_ERROR_SECTION, KF_NO_INDEX, KF_NO_INDEX, pos,
                    "%zu bytes after the last section, inside the declared file size",
                    L->size - pos);
    return KF_OK;
}

/* The inflating window of a DATA section's pieces (kf_inflate_to), in
 * scratch words. */
#define PIECES_STAGE_WORDS (KF_INFLATE_WINDOW / 4)

/* The pieces being placed (inflate_pieces). */
typedef struct pieces {
    loader *L;
    unsigned char *dst;
    size_t size;
    size_t at;      /* bytes of the section placed */
    size_t have;    /* header bytes gathered */
    size_t literal; /* bytes of the current piece still to place */
    size_t zeros;   /* and the zero bytes after them */
    unsigned char header[8];
    int over;       /* the stream holds more than the section */
    kf_result fail; /* a piece that does not fit, reported */
} pieces;

/* A piece's header at `at`: its words L and Z. */
static void piece_header(const unsigned char *at, uint32_t piece[2])
{
    memcpy(piece, at, 8);
    kfb_word_swap(piece, 2);
}

/* kf_inflate_to's sink: `len` bytes of the stream, placed as pieces. A
 * non-zero return stops inflating (the section is full, or a piece does
 * not fit it). */
static int pieces_out(void *desc, const unsigned char *buf, size_t len)
{
    pieces *P = desc;
    for (size_t k = 0; k < len;) {
        if (P->literal) {
            const size_t n = len - k < P->literal ? len - k : P->literal;
            memcpy(P->dst + P->at, buf + k, n);
            P->at += n;
            k += n;
            P->literal -= n;
            if (!P->literal) {
                P->at += P->zeros;
                P->zeros = 0;
            }
            continue;
        }
        if (P->at == P->size) { /* more than the section holds */
            P->over = 1;
            return 1;
        }
        const size_t n =
            len - k < sizeof P->header - P->have ? len - k : sizeof P->header - P->have;
        memcpy(P->header + P->have, buf + k, n);
        P->have += n;
        k += n;
        if (P->have < sizeof P->header)
            continue;
        P->have = 0;
        uint32_t piece[2];
        piece_header(P->header, piece);
        const size_t words = (P->size - P->at) / 4;
        if (!kfb_piece_fits(piece[0], piece[1], words)) {
            P->fail = fail(P->L, KF_ERROR_INFLATE, KFB_SECTION_DATA, KF_NO_INDEX,
                           P->L->sections[KFB_SECTION_DATA].file_offset,
                           "section DATA: a piece of %u words and %u zero words at byte %zu "
                           "does not fit the %zu-byte section",
                           (unsigned)piece[0], (unsigned)piece[1], P->at, P->size);
            return 1;
        }
        /* The zeros go in now, or where a claim reaches them (a long run,
         * loader.runs); the piece's words land before them. */
        loader *L = P->L;
        if (piece[1] >= RUN_MIN_WORDS && L->run_count < L->run_capacity) {
            L->runs[L->run_count][0] = (uint32_t)(P->at / 4 + piece[0]);
            L->runs[L->run_count++][1] = piece[1];
        } else {
            memset(P->dst + P->at + 4 * (size_t)piece[0], 0, 4 * (size_t)piece[1]);
        }
        P->literal = 4 * (size_t)piece[0];
        P->zeros = 4 * (size_t)piece[1];
        if (!P->literal) {
            P->at += P->zeros;
            P->zeros = 0;
        }
    }
    return 0;
}

/* Whether the pieces placed so far are the whole section: every byte
 * placed, none of a piece still to come. */
static int pieces_whole(const pieces *P)
{
    return P->at == P->size && !P->literal && !P->have;
}

/*
 * inflate_pieces' short way, for a stream inflated whole into `dst` (its
 * `n` bytes; dst has room for the section's `size` and more): its pieces
 * moved to their places where they lie, the zeros written (or listed, as
 * pieces_out lists them). Where every piece after the first lands at or
 * above its own header (the zero runs left out before it outweigh the
 * headers), they are moved from the last; where each lands, its zeros and
 * all, below the next one's header (a stream longer than the section),
 * from the first. Either way no piece is written over before it is moved.
 * `order` has room for `most` header offsets. Returns 0, having written
 * nothing, where the stream is not the whole section's pieces, or its
 * pieces go both ways or are more than `most`: the windowed way
 * (pieces_out) then says what is wrong, or places them.
 */
static int place_inflated(loader *L, unsigned char *dst, size_t size, size_t n, uint32_t *order,
                          size_t most)
{
    size_t count = 0, at = 0, h = 0;
    int from_last = 1, from_first = 1;
    while (h < n) {
        uint32_t piece[2];
        if (count == most || at == size || n - h < 8 || h > UINT32_MAX)
            return 0;
        piece_header(dst + h, piece);
        const size_t words = (size - at) / 4;
        if (!kfb_piece_fits(piece[0], piece[1], words) || piece[0] > (n - h - 8) / 4)
            return 0;
        /* (the first piece, moved last, clobbers nothing still to move) */
        from_last &= count == 0 || at >= h;
        order[count++] = (uint32_t)h;
        h += 8 + 4 * (size_t)piece[0];
        at += 4 * ((size_t)piece[0] + piece[1]);
        from_first &= at <= h || h == n;
    }
    if (at != size || (!from_last && !from_first))
        return 0;
    /* Zero runs listed in section order, as pieces_out lists them; a
     * listed one's header offset marked (bit 0: offsets are of words). */
    L->run_count = 0;
    for (size_t i = 0, to = 0; i < count; i++) {
        uint32_t piece[2];
        piece_header(dst + order[i], piece);
        to += 4 * (size_t)piece[0];
        if (piece[1] >= RUN_MIN_WORDS && L->run_count < L->run_capacity) {
            L->runs[L->run_count][0] = (uint32_t)(to / 4);
            L->runs[L->run_count++][1] = piece[1];
            order[i] |= 1u;
        }
        to += 4 * (size_t)piece[1];
    }
    for (size_t k = 0, to = from_last ? size : 0; k < count; k++) {
        const size_t i = from_last ? count - 1 - k : k, head = order[i] & ~(size_t)3;
        uint32_t piece[2];
        piece_header(dst + head, piece);
        const size_t bytes = 4 * (size_t)piece[0], zeros = 4 * (size_t)piece[1];
        if (from_last)
            to -= bytes + zeros;
        memmove(dst + to, dst + head + 8, bytes);
        if (!(order[i] & 1u)) /* (a listed run is written where a claim reaches it) */
            memset(dst + to + bytes, 0, zeros);
        if (!from_last)
            to += bytes + zeros;
    }
    return 1;
}

/*
 * A compressed DATA section from 2.3 on: the stream holds pieces, each a
 * word L, a word Z, then L words of the section, which Z zero words follow
 * (kfb_format.h, KFB_ZERO_RUN_WORDS). The deflate data (`in`, `size_in`
 * bytes) is inflated whole into `dst` (`room` bytes, at least the
 * section's `size`) and its pieces placed there (place_inflated), or
 * inflated a window at a time (kf_inflate_to) and its words placed into
 * `dst`, the zeros written here; every piece must advance and stay inside
 * the section's `size` bytes. Sets *status in kf_inflate's terms
 * (KF_INFLATE_END: the stream ended with the last piece; KF_INFLATE_FULL
 * with *produced == size: it goes on), *produced to the bytes placed and
 * *consumed to the deflate bytes read.
 */
static kf_result inflate_pieces(loader *L, const unsigned char *in, size_t size_in,
                                unsigned char *dst, size_t size, size_t room,
                                kf_inflate_status *status, size_t *produced, size_t *consumed,
                                const char **message)
{
    if (L->scratch_words < PIECES_STAGE_WORDS && !grow_scratch(L, PIECES_STAGE_WORDS))
        return fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_DATA, KF_NO_INDEX,
                    L->sections[KFB_SECTION_DATA].file_offset,
                    "out of memory for %u bytes of inflating state",
                    (unsigned)(4 * PIECES_STAGE_WORDS));
    /* Whole first: inflating into one buffer spares igzip copying its
     * history out of each window, and the pieces are moved once either
     * way. Whatever that way does not place goes the windowed way, from the
     * start: every verdict is that way's. */
    if (room >= size) {
        size_t n = 0, read = 0;
        const char *said = NULL;
        const kf_inflate_status s =
            kf_inflate(&L->allocator, in, size_in, dst, room, &n, &read, &said);
        if (s == KF_INFLATE_MEMORY) {
            *status = s;
            *produced = *consumed = 0;
            return KF_OK;
        }
        if (s == KF_INFLATE_END &&
            place_inflated(L, dst, size, n, L->scratch, PIECES_STAGE_WORDS)) {
            *status = KF_INFLATE_END;
            *produced = size;
            *consumed = read;
            return KF_OK;
        }
    }
    pieces P = {.L = L, .dst = dst, .size = size, .fail = KF_OK};
    kf_inflate_status s = kf_inflate_to(&L->allocator, in, size_in, (unsigned char *)L->scratch,
                                        pieces_out, &P, consumed, message);
    if (P.fail != KF_OK)
        return P.fail;
    /* A stream that ends must end with the last piece; one that stops
     * (no input left, or corrupt) ends early; one the section cannot hold
     * is longer than declared. */
    if (P.over)
        s = KF_INFLATE_FULL;
    else if (s == KF_INFLATE_END && !pieces_whole(&P))
        s = KF_INFLATE_CORRUPT;
    else if (s == KF_INFLATE_FULL)
        s = KF_INFLATE_CORRUPT;
    *produced = P.at;
    *status = s;
    return KF_OK;
}

/* Section i stored as its pieces (KFB_COMPRESSION_RUNS, 2.4: DATA alone,
 * read_sections) placed into `dst` as inflate_pieces places an inflated
 * stream's, from the stored bytes, which must be exactly its pieces. */
static kf_result place_runs(loader *L, uint32_t i, unsigned char *dst)
{
    const section *s = &L->sections[i];
    pieces P = {.L = L, .dst = dst, .size = s->header.raw_size, .fail = KF_OK};
    const int stopped = pieces_out(&P, s->stored, s->header.stored_size);
    if (P.fail != KF_OK)
        return P.fail;
    if (stopped || !pieces_whole(&P))
        return fail(L, KF_ERROR_INFLATE, i, KF_NO_INDEX, s->file_offset + KFB_SECTION_HEADER_SIZE,
                    "section %s: its %u stored bytes %s its pieces (%zu of %u bytes placed)",
                    section_names[i], (unsigned)s->header.stored_size,
                    stopped ? "go on after" : "end before the end of", P.at,
                    (unsigned)s->header.raw_size);
    return KF_OK;
}

/* Uncompresses section i into `dst` (raw_size bytes). */
static kf_result unpack_section(loader *L, uint32_t i, unsigned char *dst)
{
    const section *s = &L->sections[i];
    const kfb_section_header *h = &s->header;
    if (h->compression == KFB_COMPRESSION_NONE) {
        if (h->raw_size)
            memcpy(dst, s->stored, h->raw_size);
        return KF_OK;
    }
    if (h->compression == KFB_COMPRESSION_RUNS)
        return place_runs(L, i, dst);
    /* The zlib stream's two header bytes are checked here and its deflate
     * data inflated raw: its Adler-32 trailer is not recomputed, because
     * the section's CRC-32 already covers every stored byte, and adding up
     * every inflated byte a second time cost as much as the whole decode. */
    const unsigned char *in = s->stored;
    const char *bad = NULL;
    if (h->stored_size < KFB_ZLIB_OVERHEAD)
        bad = "the stream is shorter than its header and trailer";
    else if ((in[0] & 0x0F) != 8)
        bad = "unknown compression method";
    else if ((in[0] >> 4) > 7)
        bad = "invalid window size";
    else if ((in[0] * 256u + in[1]) % 31u != 0)
        bad = "incorrect header check";
    else if (in[1] & 0x20)
        bad = "the stream needs a preset dictionary";
    if (bad)
        return fail(L, KF_ERROR_INFLATE, i, KF_NO_INDEX, s->file_offset + KFB_SECTION_HEADER_SIZE,
                    "section %s: %s", section_names[i], bad);
    const size_t deflated = h->stored_size - KFB_ZLIB_OVERHEAD;
    kf_inflate_status status = KF_INFLATE_CORRUPT;
    size_t produced = 0, consumed = 0;
    const char *message = NULL;
    if (i == KFB_SECTION_DATA && kfb_has(L->version, KFB_SINCE_PIECES)) {
        kf_result r = inflate_pieces(L, in + 2, deflated, dst, h->raw_size, L->data_room, &status,
                                     &produced, &consumed, &message);
        if (r != KF_OK)
            return r;
    } else {
        status = kf_inflate(&L->allocator, in + 2, deflated, dst, h->raw_size, &produced, &consumed,
                            &message);
    }
    consumed += 2;
    if (status == KF_INFLATE_MEMORY)
        return fail(L, KF_ERROR_OUT_OF_MEMORY, i, KF_NO_INDEX, s->file_offset,
                    "out of memory inflating section %s", section_names[i]);
    if (status != KF_INFLATE_END)
        return fail(L, KF_ERROR_INFLATE, i, KF_NO_INDEX,
                    s->file_offset + KFB_SECTION_HEADER_SIZE + consumed,
                    "section %s: %s after %zu bytes (declared %u)", section_names[i],
                    status == KF_INFLATE_FULL && produced == h->raw_size
                        ? "the stream is longer than declared"
                        : (message ? message : "the stream is corrupt or ends early"),
                    produced, (unsigned)h->raw_size);
    if (produced != h->raw_size || consumed + 4 != h->stored_size)
        return fail(L, KF_ERROR_INFLATE, i, KF_NO_INDEX,
                    s->file_offset + KFB_SECTION_HEADER_SIZE + consumed,
                    "section %s inflates to %zu bytes from %zu stored; declared %u from %u",
                    section_names[i], produced, consumed + 4, (unsigned)h->raw_size,
                    (unsigned)h->stored_size);
    return KF_OK;
}

/* ---- sequences ---------------------------------------------------------- */

/* `count` floats of the room count_objects made for what the reader
 * computes (kfb_sequence_computed_floats) into *out; a record asking for
 * more than it counted is refused. */
static kf_result take_room(loader *L, uint64_t count, uint32_t index, size_t pos,
                           const struct kf_sequence *s, const char *what, float **out)
{
    if (count > L->room_left)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (sequence %s): more %s than counted", (unsigned)index,
                    KF_QUOTED(s->name), what);
    *out = L->room;
    L->room += count;
    L->room_left -= (size_t)count;
    return KF_OK;
}

/* Lets the next array decoded note its integer columns' facts in `to`,
 * room for `room` columns, where it has no more columns than that. */
static void note_facts(loader *L, kf_column_facts *to, size_t room, size_t columns)
{
    L->column_facts = columns <= room ? to : NULL;
    L->column_facts_count = room;
    L->unit_column = SIZE_MAX;
}

/* Stops noting; whether the array just decoded, of `columns` columns, was
 * quaternions whose w the file rebuilt (its unit column the fourth). */
static int noted_w(loader *L, size_t columns)
{
    L->column_facts = NULL;
    return L->encoded && columns == 4 && L->unit_column == 3;
}

/* Whether the first n of `room` columns whose facts are at f were all
 * integer columns: finite values. */
static int integer_columns(const kf_column_facts *f, size_t n, size_t room)
{
    if (n > room)
        return 0;
    for (size_t m = 0; m < n; m++)
        if (!f[m].integers)
            return 0;
    return 1;
}

/* Whether sequence s's values are finite (and its quaternions unit) by the
 * way the file stored them (kf_validate_sequence_known): integer columns,
 * or a quaternion's w the rest of unit length. decode rebuilt w only where
 * x, y and z are finite and their squares sum to at most 1, so whatever
 * they are (integers or floats), the quaternion is a unit one. */
static int values_known(const struct kf_sequence *s, const kf_value_facts *facts)
{
    const int quat = s->components == 4 &&
                     (s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD);
    if (quat)
        return facts->w_rebuilt;
    return s->components <= KF_FACT_COLUMNS &&
           integer_columns(facts->column, s->components, KF_FACT_COLUMNS);
}

static kf_result read_sequence(loader *L, const unsigned char *p, uint32_t index, size_t pos,
                               struct kf_sequence *s, kf_value_facts *facts)
{
    kfb_sequence r;
    read_words(&r, p, KFB_WORDS(r));
    /* (here rather than all at once: written while it is in the cache) */
    memset(facts, 0, sizeof *facts);
    kf_result res = get_name(L, r.name, index, pos, &s->name);
    if (res != KF_OK)
        return res;
    /* The sequence keeps these codes in halves: a code past every known
     * one is refused as itself here, not read as the one its low half
     * names (which the reader's own arrays, sized from the full code,
     * would then disagree with). */
    if (r.interpolation >= KFB_INTERP_COUNT)
        return located(L,
                       kf_fail_at(L->error, KF_ERROR_VALUE, KF_FIELD_INTERPOLATION, KF_NO_INDEX,
                                  "unknown interpolation %u", (unsigned)r.interpolation),
                       index, pos, "sequence", s->name);
    if (r.repeat >= KFB_REPEAT_COUNT)
        return located(L,
                       kf_fail_at(L->error, KF_ERROR_VALUE, KF_FIELD_REPEAT, KF_NO_INDEX,
                                  "unknown repeat mode %u", (unsigned)r.repeat),
                       index, pos, "sequence", s->name);
    s->interpolation = (uint16_t)r.interpolation;
    s->repeat = (uint16_t)r.repeat;
    s->components = r.components;
    s->key_count = r.key_count;
    s->valid_first = r.valid_first;
    s->valid_count = r.valid_count;
    s->duration = r.duration;
    if ((res = kf_validate_sequence_header(s, L->error)) != KF_OK)
        return located(L, res, index, pos, "sequence", s->name);

    uint64_t n = r.key_count;
    uint64_t derived = kfb_sequence_stored_derived_floats(L->version, r.interpolation,
                                                          r.valid_count, r.components);
    uint64_t tc = kfb_sequence_tangent_floats(r.interpolation, r.valid_count, r.components);
    const uint64_t ac = kfb_sequence_arc_floats(r.interpolation, r.valid_count);
    if ((res = get_floats(L, r.times, n, index, pos, "key times", &s->times)) != KF_OK)
        return res;
    note_facts(L, facts->column, KF_FACT_COLUMNS, r.components);
    L->defer_w = r.interpolation == KFB_INTERP_SLERP;
    res = get_encoded(L, r.values, n * r.components, r.components, NULL, index, pos, "key values",
                      &s->values);
    L->defer_w = 0;
    facts->w_rebuilt = (uint8_t)noted_w(L, r.components);
    facts->w_pending = (uint8_t)(facts->w_rebuilt && r.interpolation == KFB_INTERP_SLERP);
    if (res != KF_OK)
        return res;
    if (derived) {
        const float *at = NULL, *in_at = NULL;
        if (r.tangents == KFB_NONE)
            return fail(L, KF_ERROR_REFERENCE, KFB_SECTION_OBJECTS, index, pos,
                        "object %u (sequence %s): %s needs precomputed tangents", (unsigned)index,
                        KF_QUOTED(s->name), kf_interpolation_name(r.interpolation));
        if (!L->encoded) {
            if ((res = get_floats(L, r.tangents, derived, index, pos, "tangents", &at)) != KF_OK)
                return res;
        } else {
            /* Outgoing (by key, or guessed from the keys), then incoming
             * (against outgoing). */
            const key_guess guess = {s->values, r.valid_count, r.interpolation};
            if (r.interpolation == KFB_INTERP_SQUAD) /* a, which a quantized lane keeps */
                note_facts(L, facts->tangent, KF_TANGENT_FACT_COLUMNS, r.components);
            res = get_encoded(L, r.tangents, tc, r.components, &guess, index, pos, "tangents", &at);
            const float *rows = res == KF_OK && tc ? L->rows_at : NULL;
            const int w_rebuilt = noted_w(L, r.components);
            facts->tangent_w_rebuilt = (uint8_t)(r.interpolation == KFB_INTERP_SQUAD && w_rebuilt);
            if (res != KF_OK)
                return res;
            if (derived > L->data_words - r.tangents) {
                const float *unused;
                return get_floats(L, r.tangents, derived, index, pos, "tangents", &unused);
            }
            const uint32_t in = r.tangents + (uint32_t)(tc + r.components);
            if ((res = claim(L, in, tc, MARK_ENCODED, index, pos, "tangents")) != KF_OK)
                return res;
            /* Incoming tangents held as the outgoing ones are: as rows, or
             * against them. */
            if (rows)
                in_at = rows_where(L, in, (size_t)tc);
            else if ((res = decode_array(L, in, (size_t)tc, 0, at, NULL, index, pos, "tangents")) !=
                     KF_OK)
                return res;
        }
        if (tc) {
            s->tangent_out = at;
            s->tangent_in = in_at ? in_at : at + (L->encoded ? tc + r.components : tc);
        }
        if (ac && !L->encoded)
            s->arcs = at + 2 * (size_t)tc;
    } else if (r.tangents != KFB_NONE) {
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (sequence %s): %s takes no tangents", (unsigned)index,
                    KF_QUOTED(s->name), kf_interpolation_name(r.interpolation));
    }
    if (r.interpolation == KFB_INTERP_HERMITE) {
        note_facts(L, facts->tangent, KF_TANGENT_FACT_COLUMNS, 2 * (size_t)r.components);
        res = r.tcb == KFB_NONE
                  ? KF_OK
                  : get_encoded(L, r.tcb, 2 * n * r.components, 2 * (size_t)r.components, NULL,
                                index, pos, "key tangents", &s->key_tangents);
        L->column_facts = NULL;
        if (res != KF_OK)
            return res;
    } else if (r.tcb != KFB_NONE &&
               (res = get_encoded(L, r.tcb, 3 * n, 3, NULL, index, pos, "tension/continuity/bias",
                                  &s->tcb)) != KF_OK)
        return res;
    if (r.arc_length != KFB_NONE &&
        (res = get_encoded(L, r.arc_length, kfb_arc_length_floats(r.repeat, r.valid_count), 1, NULL,
                           index, pos, "distance table", &s->arc_length)) != KF_OK)
        return res;
    /* Stored tangents and arcs are checked as stored; HERMITE's scaled
     * tangents are then computed from the key tangents (once those and the
     * times are known to keep the products in range), in every version:
     * 2.2 stores none, and older files play what 2.2 would. */
    /* Sequences that share key times share their checks (the array is
     * plain: no other array's decoding changes it). */
    checked_clock *cc = &L->checked;
    const int times_known =
                  s->times == cc->times && r.key_count == cc->keys && r.valid_count == cc->valid,
              clock_known = times_known && s->duration == cc->duration && r.repeat == cc->repeat;
    int float_lengths = clock_known ? cc->float_lengths : -1;
    /* HERMITE's key tangents stored as integer columns are finite, and
     * SQUAD's a whose w was rebuilt a unit, as the values are. */
    const int key_tangents_known =
        r.interpolation == KFB_INTERP_HERMITE && s->key_tangents &&
        integer_columns(facts->tangent, 2 * (size_t)r.components, KF_TANGENT_FACT_COLUMNS);
    const int a_known = r.interpolation == KFB_INTERP_SQUAD && r.components == 4 && L->encoded &&
                        facts->tangent_w_rebuilt;
    int values_narrow = 0, tangents_narrow = 0;
    if ((res = kf_validate_sequence_known(s, times_known, values_known(s, facts), &values_narrow,
                                          L->error)) != KF_OK ||
        (res = kf_validate_tcb(s, L->error)) != KF_OK ||
        (res = kf_validate_key_tangents(s, key_tangents_known, L->error)) != KF_OK ||
        (res = kf_validate_tangent_range(
             s, values_narrow,
             key_tangents_known ? kf_column_facts_most(facts->tangent, 2 * r.components) : -1.0,
             L->error)) != KF_OK ||
        ((s->tangent_out || !tc) &&
         (res = kf_validate_tangents_known(s, a_known, &tangents_narrow, L->error)) != KF_OK) ||
        (res = kf_validate_arc_length(s, L->error)) != KF_OK)
        return located(L, res, index, pos, "sequence", s->name);
    facts->narrow =
        (uint8_t)(values_narrow &&
                  (r.interpolation == KFB_INTERP_LINEAR ||
                   (r.interpolation == KFB_INTERP_SPLINE && s->tangent_out && tangents_narrow)));
    if (r.interpolation == KFB_INTERP_HERMITE) {
        float *out = NULL;
        if ((res = take_room(L, 2 * tc, index, pos, s, "tangents", &out)) != KF_OK)
            return res;
        /* Scaled (kf_hermite_tangents) by the layout, into this room, only
         * for a lane that keeps them as floats: a quantized lane scales its
         * key tangents as it plays, where kf_hermite_exact says it gives
         * the same bits. They need no check of their own: each is a finite
         * key tangent times a segment no longer than the duration (the
         * times lie in [0, duration], in order), a product
         * kf_validate_tangent_range held within FLT_MAX (a double's
         * rounding cannot carry it past FLT_MAX's half float step). */
        /* Where every segment's length is a float, any key tangents are
         * exact: asked once per clock (kf_hermite_exact of no key
         * tangents). */
        if (float_lengths < 0)
            float_lengths =
                kf_hermite_exact(s->times, NULL, r.valid_count, 0, s->duration, r.repeat);
        facts->hermite_exact =
            (uint8_t)(float_lengths || kf_hermite_exact(s->times, s->key_tangents, r.valid_count,
                                                        r.components, s->duration, r.repeat));
        facts->tangents_pending = 1;
        s->tangent_out = out;
        s->tangent_in = out + tc;
    }
    /* A loaded sequence keeps no arcs: sampling computes each from its
     * quaternions (kf_arc_of). Version 1's were checked above, so that a
     * file stays refused where it always was; now they are dropped, and
     * the file plays as its version 2 twin. */
    s->arcs = NULL;
    *cc =
        (checked_clock){s->times, r.key_count, r.valid_count, r.repeat, s->duration, float_lengths};
    return KF_OK;
}

/* ---- interpolators ------------------------------------------------------ */

/* An optional array: present exactly when it holds something. */
static kf_result get_optional_floats(loader *L, uint32_t offset, uint64_t count, uint32_t index,
                                     size_t pos, const char *what, const char *name,
                                     const float **out)
{
    *out = NULL;
    if (count == 0) {
        if (offset != KFB_NONE)
            return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                        "object %u (interpolator %s): %s offset given for no data", (unsigned)index,
                        KF_QUOTED(name), what);
        return KF_OK;
    }
    if (offset == KFB_NONE)
        return fail(L, KF_ERROR_REFERENCE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (interpolator %s): %s missing", (unsigned)index, KF_QUOTED(name),
                    what);
    return get_floats(L, offset, count, index, pos, what, out);
}

static kf_result read_interpolator(loader *L, const unsigned char *p, uint32_t index, size_t pos,
                                   struct kf_interpolator *s)
{
    kfb_interpolator r;
    read_words(&r, p, KFB_WORDS(r));
    kf_result res = get_name(L, r.name, index, pos, &s->name);
    if (res != KF_OK)
        return res;
    s->node = r.node;
    s->key_count = r.key_count;
    s->value_count = r.value_count;
    s->velocity_count = r.velocity_count;
    s->flags = r.flags;
    if ((res = kf_validate_interpolator_header(s, L->error)) != KF_OK)
        return located(L, res, index, pos, "interpolator", s->name);

    const uint64_t d = kfb_node_dimension(r.node);
    if ((res = get_floats(L, r.keys, r.key_count, index, pos, "keys", &s->keys)) != KF_OK ||
        (res = get_floats(L, r.values, r.value_count * d, index, pos, "values", &s->values)) !=
            KF_OK ||
        (res = get_optional_floats(L, r.velocities, r.velocity_count * d, index, pos, "velocities",
                                   s->name, &s->velocities)) != KF_OK ||
        (res =
             get_optional_floats(L, r.derived, kfb_interpolator_derived_floats(r.node, r.key_count),
                                 index, pos, "precomputed data", s->name, &s->derived)) != KF_OK)
        return res;
    if ((res = kf_validate_interpolator(s, L->error)) != KF_OK ||
        (res = kf_validate_interpolator_derived(s, L->error)) != KF_OK)
        return located(L, res, index, pos, "interpolator", s->name);
    return KF_OK;
}

/* ---- followers ---------------------------------------------------------- */

static kf_result read_follower(loader *L, const unsigned char *p, uint32_t index, size_t pos,
                               struct kf_follower *f)
{
    kfb_follower r;
    read_words(&r, p, KFB_WORDS(r));
    kf_result res = get_name(L, r.name, index, pos, &f->name);
    if (res != KF_OK)
        return res;
    f->node = r.node;
    f->element_count = r.element_count;
    f->duration = r.duration;
    f->order = r.order;
    f->tolerance = r.tolerance;
    /* Node and counts first: they size the arrays. */
    if ((res = kf_validate_follower_header(f, L->error)) != KF_OK)
        return located(L, res, index, pos, "follower", f->name);
    const uint64_t field = kfb_follower_field_floats(r.node, r.element_count);
    const uint32_t rotations = kfb_follower_rotation_floats(r.node);
    if ((res = get_floats(L, r.initial_value, field, index, pos, "initialValue",
                          &f->initial_value)) != KF_OK ||
        (res = get_floats(L, r.initial_destination, field, index, pos, "initialDestination",
                          &f->initial_destination)) != KF_OK)
        return res;
    if (rotations) {
        if (r.rotations == KFB_NONE)
            return fail(L, KF_ERROR_REFERENCE, KFB_SECTION_OBJECTS, index, pos,
                        "object %u (follower %s): %s needs its quaternions", (unsigned)index,
                        KF_QUOTED(f->name), kf_follower_node_name((kf_follower_node)f->node));
        if ((res = get_floats(L, r.rotations, rotations, index, pos, "quaternions",
                              &f->rotations)) != KF_OK)
            return res;
    } else if (r.rotations != KFB_NONE) {
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (follower %s): %s takes no quaternions", (unsigned)index,
                    KF_QUOTED(f->name), kf_follower_node_name((kf_follower_node)f->node));
    }
    if ((res = kf_validate_follower(f, L->error)) != KF_OK)
        return located(L, res, index, pos, "follower", f->name);
    return KF_OK;
}

/* ---- controllers, targets, tracks --------------------------------------- */

static kf_result read_controller(loader *L, const unsigned char *p, uint32_t index, size_t pos,
                                 struct kf_controller *c)
{
    kfb_controller r;
    read_words(&r, p, KFB_WORDS(r));
    kf_result res = get_name(L, r.name, index, pos, &c->name);
    if (res != KF_OK)
        return res;
    c->speed = f64(r.speed);
    c->weight = f64(r.weight);
    c->active_start = f64(r.active_start);
    c->active_end = f64(r.active_end);
    c->ref_world = f64(r.ref_world);
    c->ref_sequence = f64(r.ref_sequence);
    if ((res = kf_validate_controller(c, L->error)) != KF_OK)
        return located(L, res, index, pos, "controller", c->name);
    return KF_OK;
}

static kf_result read_target(loader *L, const unsigned char *p, uint32_t index, size_t pos,
                             kf_target *t, uint32_t *value_count)
{
    kfb_target r;
    read_words(&r, p, KFB_WORDS(r));
    kf_result res = get_name(L, r.name, index, pos, &t->name);
    if (res != KF_OK)
        return res;
    /* The property is stored for speed but must agree with the name, which
     * is what a decompiled source carries. */
    const char *dot = strrchr(t->name, '.');
    const uint32_t flags = r.property & ~KFB_TARGET_PROPERTY_MASK;
    const uint32_t known = kfb_has(L->version, KFB_SINCE_LATEST) ? KFB_TARGET_LATEST : 0;
    if (flags & ~known)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (target %s): unknown flags 0x%x", (unsigned)index,
                    KF_QUOTED(t->name), (unsigned)(flags & ~known));
    r.property &= KFB_TARGET_PROPERTY_MASK;
    if (!dot || dot == t->name || !dot[1] || r.property >= KFB_PROPERTY_COUNT ||
        kf_property_from_name(dot + 1) != (kf_property)r.property)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (target %s): property code %u does not match the name",
                    (unsigned)index, KF_QUOTED(t->name), (unsigned)r.property);
    if (!kf_property_accepts((kf_property)r.property, r.components) ||
        r.components > UINT32_MAX - *value_count)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (target %s): %u components", (unsigned)index, KF_QUOTED(t->name),
                    (unsigned)r.components);
    t->property = r.property;
    t->components = r.components;
    t->blend = flags & KFB_TARGET_LATEST ? KF_BLEND_LATEST : KF_BLEND_SUM;
    t->value_offset = *value_count;
    *value_count += r.components;
    return KF_OK;
}

static kf_result read_track(loader *L, const unsigned char *p, uint32_t index, size_t pos,
                            const kf_objects *o, kf_track *t)
{
    /* Older records hold the same fields, the cycle interval as f32. */
    kfb_track_f32 r;
    double cycle;
    if (kfb_has(L->version, KFB_SINCE_F64_CYCLE)) {
        kfb_track w;
        read_words(&w, p, KFB_WORDS(w));
        r = (kfb_track_f32){w.animator_kind, w.animator, w.controller, w.target, 0, w.loop, w.ease};
        cycle = f64(w.cycle_interval);
    } else {
        read_words(&r, p, KFB_WORDS(r));
        cycle = r.cycle_interval;
    }
    /* Tracks are decoded last, so every count is final. */
    if (r.animator_kind >= KFB_ANIMATOR_KIND_COUNT)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (track): unknown animator kind %u", (unsigned)index,
                    (unsigned)r.animator_kind);
    const int interpolator = r.animator_kind == KFB_ANIMATOR_INTERPOLATOR;
    const int follower = r.animator_kind == KFB_ANIMATOR_FOLLOWER;
    const uint32_t animators = o->count[kfb_animator_kind(r.animator_kind)];
    if (r.animator >= animators ||
        (r.controller != KFB_NONE && r.controller >= o->count[KF_KIND_CONTROLLER]) ||
        r.target >= o->count[KF_KIND_TARGET] ||
        (r.ease != KFB_NONE && r.ease >= o->count[KF_KIND_INTERPOLATOR]))
        return fail(L, KF_ERROR_REFERENCE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (track): animator %u, controller %u, target %u or ease %u does "
                    "not exist",
                    (unsigned)index, (unsigned)r.animator, (unsigned)r.controller,
                    (unsigned)r.target, (unsigned)r.ease);
    const char *name = interpolator ? o->interpolators[r.animator].name
                       : follower   ? o->followers[r.animator].name
                                    : o->sequences[r.animator].name;
    uint32_t have = interpolator ? kf_interpolator_components(&o->interpolators[r.animator])
                    : follower   ? kf_follower_value_floats(&o->followers[r.animator])
                                 : o->sequences[r.animator].components;
    uint32_t want = o->targets[r.target].components;
    if (have != want)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, index, pos,
                    "object %u (track): animator %s has %u components, target %s %u",
                    (unsigned)index, KF_QUOTED(name), (unsigned)have,
                    KF_QUOTED(o->targets[r.target].name), (unsigned)want);
    t->cycle_interval = cycle;
    t->loop = r.loop;
    t->ease = r.ease == KFB_NONE ? KF_NO_INDEX : r.ease;
    t->animator_kind = r.animator_kind;
    t->animator = r.animator;
    t->controller = r.controller == KFB_NONE ? KF_NO_INDEX : r.controller;
    t->target = r.target;
    kf_result res = kf_validate_track(t, o, L->error);
    if (res != KF_OK)
        return located(L, res, index, pos, "track", name);
    return KF_OK;
}

/* ---- objects ------------------------------------------------------------ */

static uint32_t record_words(uint32_t version, uint32_t type)
{
    switch (type) {
    case KFB_OBJECT_SEQUENCE:
        return KFB_WORDS(kfb_sequence);
    case KFB_OBJECT_CONTROLLER:
        return KFB_WORDS(kfb_controller);
    case KFB_OBJECT_TARGET:
        return KFB_WORDS(kfb_target);
    case KFB_OBJECT_TRACK:
        return kfb_track_words(version);
    case KFB_OBJECT_INTERPOLATOR:
        return KFB_WORDS(kfb_interpolator);
    case KFB_OBJECT_FOLLOWER:
        return KFB_WORDS(kfb_follower);
    default:
        return 0;
    }
}

/* First pass: framing of every record, and the count of each kind. */
static kf_result count_objects(loader *L, const unsigned char *objs, size_t size,
                               uint32_t count[KF_KIND_COUNT], uint64_t *computed)
{
    size_t pos = 0;
    for (uint32_t index = 0; pos < size; index++) {
        if (size - pos < sizeof(kfb_object))
            return fail(L, KF_ERROR_OBJECT, KFB_SECTION_OBJECTS, index, pos,
                        "object %u: the section ends inside its header", (unsigned)index);
        kfb_object o;
        read_words(&o, objs + pos, KFB_WORDS(kfb_object));
        uint32_t words = record_words(L->version, o.type);
        if (!words)
            return fail(L, KF_ERROR_OBJECT, KFB_SECTION_OBJECTS, index, pos,
                        "object %u has unknown type %u", (unsigned)index, (unsigned)o.type);
        if (o.size != words * 4)
            return fail(L, KF_ERROR_OBJECT, KFB_SECTION_OBJECTS, index, pos + 4,
                        "object %u (%s) is %u bytes; its records are %u", (unsigned)index,
                        kf_kind_name(kfb_object_kind(o.type)), (unsigned)o.size,
                        (unsigned)(words * 4));
        pos += sizeof(kfb_object);
        if (o.size > size - pos)
            return fail(L, KF_ERROR_OBJECT, KFB_SECTION_OBJECTS, index, pos,
                        "object %u runs past the end of the section", (unsigned)index);
        if (o.type == KFB_OBJECT_SEQUENCE) {
            /* Room for what the reader computes; the record is checked
             * later, so this only counts (at most 2^35 each). */
            kfb_sequence r;
            read_words(&r, objs + pos, KFB_WORDS(r));
            *computed += kfb_sequence_computed_floats(r.interpolation, r.valid_count, r.components);
        }
        pos += o.size;
        count[kfb_object_kind(o.type)]++;
    }
    return KF_OK;
}

/* Second pass, in two rounds: everything but tracks, then tracks, which
 * refer to the others. */
static kf_result read_objects(loader *L, const unsigned char *objs, size_t size, kf_anim *anim)
{
    kf_objects *o = &anim->objects;
    uint32_t next[KF_KIND_COUNT] = {0};
    for (int round = 0; round < 2; round++) {
        size_t pos = 0;
        for (uint32_t index = 0; pos < size; index++) {
            kfb_object h;
            read_words(&h, objs + pos, KFB_WORDS(kfb_object));
            size_t at = pos;
            const unsigned char *body = objs + pos + sizeof(kfb_object);
            pos += sizeof(kfb_object) + h.size;
            kf_kind kind = kfb_object_kind(h.type);
            if ((kind == KF_KIND_TRACK) != (round == 1))
                continue;
            uint32_t k = next[kind]++;
            kf_result r = KF_OK;
            switch (kind) {
            case KF_KIND_SEQUENCE:
                r = read_sequence(L, body, index, at, &o->sequences[k], &L->facts[k]);
                break;
            case KF_KIND_CONTROLLER:
                r = read_controller(L, body, index, at, &o->controllers[k]);
                break;
            case KF_KIND_TARGET:
                r = read_target(L, body, index, at, &o->targets[k], &anim->value_count);
                break;
            case KF_KIND_INTERPOLATOR:
                r = read_interpolator(L, body, index, at, &o->interpolators[k]);
                break;
            case KF_KIND_FOLLOWER:
                r = read_follower(L, body, index, at, &o->followers[k]);
                break;
            default:
                r = read_track(L, body, index, at, o, &o->tracks[k]);
                break;
            }
            if (r != KF_OK)
                return r;
        }
    }
    return KF_OK;
}

/* kfc writes a target only for the tracks that play it, numbered in the
 * order tracks first play them: a target no track plays is not a file kfc
 * could write (and nothing would bound its component count: a player
 * allocates that many values), nor are targets in another order (a
 * decompiled file would compile to other numbers). */
static kf_result check_targets_played(loader *L, const kf_objects *o)
{
    const uint32_t n = o->count[KF_KIND_TARGET];
    uint32_t next = 0; /* the first target no track has played yet */
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const uint32_t t = o->tracks[i].target;
        if (t == next)
            next++;
        else if (t > next)
            return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                        "track %u plays target %u (%s) before any track plays target %u "
                        "(%s): targets are numbered in the order tracks first play them",
                        (unsigned)i, (unsigned)t, KF_QUOTED(o->targets[t].name), (unsigned)next,
                        KF_QUOTED(o->targets[next].name));
    }
    if (next < n)
        return fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                    "target %u (%s) is played by no track", (unsigned)next,
                    KF_QUOTED(o->targets[next].name));
    return KF_OK;
}

/* Names are unique in their namespace (animators of every kind share one),
 * as kfc makes them: lookups by name are then unambiguous, and a decompiled
 * file compiles again. */
static kf_result check_unique_names(loader *L, const kf_objects *o)
{
    static const kf_kind animators[] = {KF_KIND_SEQUENCE, KF_KIND_INTERPOLATOR, KF_KIND_FOLLOWER};
    static const kf_kind others[] = {KF_KIND_CONTROLLER, KF_KIND_TARGET};
    const struct {
        const kf_kind *kinds;
        int count;
    } spaces[3] = {{animators, 3}, {others, 1}, {others + 1, 1}};
    kf_result r = KF_OK;
    for (int n = 0; n < 3 && r == KF_OK; n++) {
        /* Room for the whole namespace at once: each name hashed once. */
        kf_name_index names = {0};
        uint64_t count = 0;
        for (int k = 0; k < spaces[n].count; k++)
            count += o->count[spaces[n].kinds[k]];
        if (count > UINT32_MAX || !kf_name_reserve_n(&names, &L->allocator, (uint32_t)count))
            r = fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                     "out of memory checking names");
        for (int k = 0; k < spaces[n].count && r == KF_OK; k++) {
            const kf_kind kind = spaces[n].kinds[k];
            for (uint32_t i = 0; i < o->count[kind] && r == KF_OK; i++) {
                const char *name = kf_objects_name(o, kind, i);
                const kf_name_slot *seen = kf_name_claim(&names, name, kind, i);
                if (seen)
                    r = fail(L, KF_ERROR_DUPLICATE, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                             "%s %u and %s %u are both named %s", kf_kind_name(seen->kind),
                             (unsigned)seen->index, kf_kind_name(kind), (unsigned)i,
                             KF_QUOTED(name));
            }
        }
        kf_name_index_free(&names, &L->allocator);
    }
    return r;
}

/* No two tracks share a binding (animator, controller, target and an
 * interpolator track's TimeSensor), as the builder makes them. */
static kf_result check_unique_bindings(loader *L, const kf_objects *o)
{
    kf_key_index keys = {0};
    kf_result r = KF_OK;
    if (!kf_key_reserve_n(&keys, &L->allocator, o->count[KF_KIND_TRACK]))
        r = fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                 "out of memory checking bindings");
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK] && r == KF_OK; i++) {
        uint32_t key[KF_KEY_WORDS];
        kf_track_binding(&o->tracks[i], key);
        if (kf_key_claim(&keys, key, i) != KF_NO_INDEX)
            r = fail(L, KF_ERROR_DUPLICATE, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                     "track %u repeats the binding of an earlier track (animator %u, "
                     "controller %u, target %u)",
                     (unsigned)i, (unsigned)o->tracks[i].animator,
                     (unsigned)o->tracks[i].controller, (unsigned)o->tracks[i].target);
    }
    kf_key_index_free(&keys, &L->allocator);
    return r;
}

/* Whatever loads can be played: its players fit kf.h's memory bound. */
static kf_result check_player_bound(loader *L, const kf_anim *anim)
{
    size_t bytes;
    kf_result r = kf_player_size(anim, &bytes);
    if (r == KF_ERROR_LIMIT)
        return fail(L, KF_ERROR_LIMIT, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                    "a player of this %zu-byte file would need more than %u x its size + "
                    "%zu bytes",
                    anim->file_bytes, (unsigned)KF_PLAYER_BYTES_PER_FILE_BYTE,
                    (size_t)KF_PLAYER_FIXED_BYTES);
    return r == KF_OK ? KF_OK : fail(L, r, KF_NO_INDEX, KF_NO_INDEX, 0, "sizing a player failed");
}

/* ---- the one allocation ---------------------------------------------------- */

/* Adds an array of `count` elements of `size` bytes to a layout, 8-aligned. */
static int layout_add(size_t *total, size_t count, size_t size, size_t *offset)
{
    size_t bytes;
    if (!kf_mul_size(count, size, &bytes) || *total > SIZE_MAX - 7 ||
        bytes > SIZE_MAX - 7 - ((*total + 7) & ~(size_t)7))
        return 0;
    *offset = (*total + 7) & ~(size_t)7;
    *total = *offset + bytes;
    return 1;
}

int kf_anim_layout_of(const uint32_t count[KF_KIND_COUNT], size_t data_size, size_t strings_size,
                      size_t computed_floats, kf_anim_layout *l)
{
    size_t total = 0;
    if (!layout_add(&total, 1, sizeof(kf_anim), &l->anim) ||
        !layout_add(&total, count[KF_KIND_SEQUENCE], sizeof(struct kf_sequence), &l->sequences) ||
        !layout_add(&total, count[KF_KIND_CONTROLLER], sizeof(struct kf_controller),
                    &l->controllers) ||
        !layout_add(&total, count[KF_KIND_TARGET], sizeof(kf_target), &l->targets) ||
        !layout_add(&total, count[KF_KIND_TRACK], sizeof(kf_track), &l->tracks) ||
        !layout_add(&total, count[KF_KIND_INTERPOLATOR], sizeof(struct kf_interpolator),
                    &l->interpolators) ||
        !layout_add(&total, count[KF_KIND_FOLLOWER], sizeof(struct kf_follower), &l->followers) ||
        !layout_add(&total, strings_size, 1, &l->strings))
        return 0;
    l->total = total;
    /* DATA and the computed floats are scratch: the playback layout copies
     * what the objects keep of them (kf_layout.c). */
    size_t scratch = 0;
    if (!layout_add(&scratch, data_size, 1, &l->data) ||
        !layout_add(&scratch, computed_floats, sizeof(float), &l->computed) ||
        !layout_add(&scratch, count[KF_KIND_SEQUENCE], sizeof(kf_value_facts), &l->facts))
        return 0;
    l->scratch_total = scratch ? scratch : 1;
    return 1;
}

size_t kf_load_budget(size_t file_bytes)
{
    size_t scaled;
    if (!kf_mul_size(file_bytes, KF_LOAD_BYTES_PER_FILE_BYTE, &scaled) ||
        scaled > SIZE_MAX - KF_LOAD_FIXED_BYTES)
        return SIZE_MAX;
    return scaled + KF_LOAD_FIXED_BYTES;
}

/* Bytes an index of `n` entries of `slot` bytes takes at most while it
 * grows (kf_index.c: kept at most half full, doubled from 16 slots, the
 * old and the new slots held at once): 3 x 2 (n + 1) slots, and the 48 of
 * the first growths. */
static size_t index_peak(uint64_t n, size_t slot)
{
    const uint64_t bytes = (6 * (n + 1) + 48) * slot;
    return bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes;
}

static size_t add_sat(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* The room for DATA's unwritten zero runs (loader.runs): the runs are
 * disjoint, so a section of `words` holds at most words / RUN_MIN_WORDS. */
static size_t run_list_bytes(size_t words)
{
    return words / RUN_MIN_WORDS * 2 * sizeof(uint32_t);
}

size_t kf_load_peak(const uint32_t count[KF_KIND_COUNT], size_t objects_size,
                    const kf_anim_layout *l, size_t data_size, int encoded)
{
    /* Reading: the records' copy, the anim, a mark per data word and the
     * decoding scratch (at most the data words, or a stage of pieces). */
    const size_t words = data_size / 4;
    size_t reading = add_sat(add_sat(objects_size, l->total), l->scratch_total);
    if (encoded)
        reading = add_sat(add_sat(add_sat(reading, words), run_list_bytes(words)),
                          4 * (words > PIECES_STAGE_WORDS ? words : (size_t)PIECES_STAGE_WORDS));
    /* Checking, the records and scratch freed: the anim and one index (a
     * binding per track, or a name per named object). */
    uint64_t named = 0;
    for (int k = 0; k < KF_KIND_COUNT; k++)
        named += k == KF_KIND_TRACK ? 0 : count[k];
    const size_t keys = index_peak(count[KF_KIND_TRACK], KF_KEY_SLOT_WORDS * sizeof(uint32_t));
    const size_t names = index_peak(named, sizeof(kf_name_slot));
    const size_t checking =
        add_sat(add_sat(l->total, l->scratch_total), keys > names ? keys : names);
    return reading > checking ? reading : checking;
}

/* Frees the object records' copy and the decoding state, once. */
static void release_scratch(loader *L, unsigned char **objs, size_t objs_size)
{
    if (*objs)
        kf_free(&L->allocator, *objs, objs_size ? objs_size : 1);
    *objs = NULL;
    if (L->marks)
        kf_free(&L->allocator, L->marks, L->data_words);
    if (L->scratch)
        kf_free(&L->allocator, L->scratch, L->scratch_words * 4);
    if (L->runs)
        kf_free(&L->allocator, L->runs, L->run_capacity * sizeof *L->runs);
    L->runs = NULL;
    L->run_count = L->run_capacity = 0;
    L->marks = NULL;
    L->scratch = NULL;
    L->scratch_words = 0;
}

static kf_result load(loader *L, kf_anim **out)
{
    uint32_t file_size = 0;
    kf_result r = read_header(L, L->file, L->size, &file_size);
    if (r != KF_OK)
        return r;
    if (L->size < file_size)
        return fail(L, KF_ERROR_TRUNCATED, KF_NO_INDEX, KF_NO_INDEX, L->size,
                    "the file is %zu bytes; its header declares %u", L->size, (unsigned)file_size);
    if (L->size > file_size) {
        const size_t more = L->size - file_size;
        return fail(L, KF_ERROR_TRAILING_DATA, KF_NO_INDEX, KF_NO_INDEX, file_size,
                    "%zu byte%s the declared end of the file (its header says %u bytes)", more,
                    more == 1 ? " follows" : "s follow", (unsigned)file_size);
    }
    if ((r = read_sections(L)) != KF_OK)
        return r;

    /* Objects first, into scratch memory: their counts size everything. */
    const uint32_t objs_size = L->sections[KFB_SECTION_OBJECTS].header.raw_size;
    unsigned char *objs = kf_alloc(&L->allocator, objs_size ? objs_size : 1);
    if (!objs)
        return fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                    "out of memory for %u bytes of objects", (unsigned)objs_size);
    kf_anim *anim = NULL;
    unsigned char *work = NULL; /* DATA and the computed floats */
    kf_anim_layout lay = {0};
    size_t total = 0;
    uint32_t count[KF_KIND_COUNT] = {0};
    uint64_t computed = 0;
    if ((r = unpack_section(L, KFB_SECTION_OBJECTS, objs)) != KF_OK ||
        (r = count_objects(L, objs, objs_size, count, &computed)) != KF_OK)
        goto done;

    const uint32_t str_size = L->sections[KFB_SECTION_STRINGS].header.raw_size;
    const uint32_t data_size = L->sections[KFB_SECTION_DATA].header.raw_size;
    /* What the reader computes for a sequence (2.2 HERMITE's scaled
     * tangents) is fewer floats than its own stored key tangents take words
     * of DATA: more would be a file no writer made, and the room they take
     * stays within the file's size. */
    if (computed > data_size / 4) {
        r = fail(L, KF_ERROR_VALUE, KFB_SECTION_OBJECTS, KF_NO_INDEX, 0,
                 "the sequences' tangents to compute (%llu floats) outnumber the data "
                 "section's %u words",
                 (unsigned long long)computed, (unsigned)(data_size / 4));
        goto done;
    }
    if (!kf_anim_layout_of(count, data_size, str_size, (size_t)computed, &lay)) {
        r = fail(L, KF_ERROR_TOO_LARGE, KF_NO_INDEX, KF_NO_INDEX, 0, "the animation is too large");
        goto done;
    }
    total = lay.total;
    /* Everything this load allocates, counted before it is: kf.h's bound. */
    const size_t budget = kf_load_budget(L->size);
    const size_t peak = kf_load_peak(count, objs_size, &lay, data_size, L->encoded);
    if (peak > budget) {
        r = fail(L, KF_ERROR_LIMIT, KF_NO_INDEX, KF_NO_INDEX, 0,
                 "loading this %zu-byte file would take %zu bytes, more than %u x its size + %zu",
                 L->size, peak, (unsigned)KF_LOAD_BYTES_PER_FILE_BYTE, (size_t)KF_LOAD_FIXED_BYTES);
        goto done;
    }
    const size_t at_anim = lay.anim, at_seq = lay.sequences, at_ctl = lay.controllers,
                 at_tgt = lay.targets, at_trk = lay.tracks, at_ipl = lay.interpolators,
                 at_fol = lay.followers, at_str = lay.strings;
    unsigned char *block = kf_alloc(&L->allocator, total);
    work = kf_alloc(&L->allocator, lay.scratch_total);
    if (!block || !work) {
        kf_free(&L->allocator, block, total);
        r = fail(L, KF_ERROR_OUT_OF_MEMORY, KF_NO_INDEX, KF_NO_INDEX, 0,
                 "out of memory for %zu bytes", add_sat(total, lay.scratch_total));
        goto done;
    }
    memset(block, 0, at_str);
    anim = (kf_anim *)(block + at_anim);
    anim->allocator = L->allocator;
    anim->size = total;
    anim->file_bytes = L->size;
    memcpy(anim->objects.count, count, sizeof count);
    anim->objects.sequences = (struct kf_sequence *)(block + at_seq);
    anim->objects.controllers = (struct kf_controller *)(block + at_ctl);
    anim->objects.targets = (kf_target *)(block + at_tgt);
    anim->objects.tracks = (kf_track *)(block + at_trk);
    anim->objects.interpolators = (struct kf_interpolator *)(block + at_ipl);
    anim->objects.followers = (struct kf_follower *)(block + at_fol);

    /* An encoded file's stored DATA section is decoded from where it lies,
     * where copying it first was one more pass over every byte. Plain
     * arrays are copied as they are claimed; the byte planes are read as
     * bytes, so the section need not be aligned. A big-endian host copies
     * the section and swaps its words, as it does an inflated one's. */
    const section *stored_data = &L->sections[KFB_SECTION_DATA];
    const int in_place = L->encoded && data_size &&
                         stored_data->header.compression == KFB_COMPRESSION_NONE &&
                         kfb_host_little_endian();
    /* Long zero runs of an encoded DATA section's pieces are written as
     * claims reach them (loader.runs). */
    if (L->encoded && !in_place && stored_data->header.compression != KFB_COMPRESSION_NONE &&
        data_size / 4 >= RUN_MIN_WORDS) {
        const size_t bytes = run_list_bytes(data_size / 4);
        if (!(L->runs = kf_alloc(&L->allocator, bytes))) {
            r = fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_DATA, KF_NO_INDEX, 0,
                     "out of memory for %zu bytes of decoding state", bytes);
            goto done;
        }
        L->run_capacity = bytes / sizeof *L->runs;
    }
    L->data_room = lay.scratch_total - lay.data;
    if ((r = unpack_section(L, KFB_SECTION_STRINGS, block + at_str)) != KF_OK ||
        (!in_place && (r = unpack_section(L, KFB_SECTION_DATA, work + lay.data)) != KF_OK))
        goto done;
    if (!in_place)
        kfb_word_swap(work + lay.data, data_size / 4);
    L->source = in_place ? stored_data->stored : NULL;
    L->strings = (const char *)(block + at_str);
    L->strings_size = str_size;
    L->data_rw = (float *)(work + lay.data);
    L->room = (float *)(work + lay.computed);
    L->room_left = (size_t)computed;
    L->facts = (kf_value_facts *)(void *)(work + lay.facts); /* (read_sequence clears each) */
    L->data = L->data_rw;
    L->data_words = data_size / 4;
    if (L->encoded && L->data_words) {
        L->marks = kf_alloc(&L->allocator, L->data_words);
        if (!L->marks) {
            r = fail(L, KF_ERROR_OUT_OF_MEMORY, KFB_SECTION_DATA, KF_NO_INDEX, 0,
                     "out of memory for %zu bytes of decoding state", L->data_words);
            goto done;
        }
    }
    r = read_objects(L, objs, objs_size, anim);
    /* The records and the decoding state are done with: the checks and the
     * layout allocate without them (kf_load_peak counts so). */
    release_scratch(L, &objs, objs_size);
    if (r == KF_OK)
        r = check_unique_bindings(L, &anim->objects);
    if (r == KF_OK)
        r = check_targets_played(L, &anim->objects);
    if (r == KF_OK)
        r = check_unique_names(L, &anim->objects);
    if (r == KF_OK)
        r = check_player_bound(L, anim);
    /* The layout copies what the objects keep of DATA (their one copy,
     * kf_layout.c), which is then freed. */
    size_t need = 0;
    const size_t before = add_sat(total, lay.scratch_total);
    if (r == KF_OK && (r = kf_layout_build(anim, L->facts, budget > before ? budget - before : 0,
                                           &need)) != KF_OK)
        r = r == KF_ERROR_LIMIT
                ? fail(L, r, KF_NO_INDEX, KF_NO_INDEX, 0,
                       "loading this %zu-byte file would take %zu bytes with its playback "
                       "layout, more than %u x its size + %zu",
                       L->size, add_sat(before, need), (unsigned)KF_LOAD_BYTES_PER_FILE_BYTE,
                       (size_t)KF_LOAD_FIXED_BYTES)
                : fail(L, r, KF_NO_INDEX, KF_NO_INDEX, 0, "out of memory for the playback layout");

done:
    release_scratch(L, &objs, objs_size);
    if (work)
        kf_free(&L->allocator, work, lay.scratch_total);
    if (r != KF_OK && anim) {
        kf_free(&L->allocator, anim, total);
        anim = NULL;
    }
    *out = anim;
    return r;
}

/* The checks every load makes of its options and output; *out is NULL
 * first, whatever else is wrong, so that every failure leaves it so. */
static kf_result init_loader(loader *L, const kf_load_options *options, kf_anim **out,
                             kf_error *error)
{
    if (out)
        *out = NULL;
    memset(L, 0, sizeof *L);
    L->checked.float_lengths = -1;
    kf_error_clear(error);
    L->error = error;
    L->allocator = kf_allocator_or_default(NULL);
    L->max_section = KF_DEFAULT_MAX_SECTION_SIZE;
    if (options) {
        if (!KF_OPTIONS_SIZE_OK(options->size, sizeof *options))
            return kf_fail(error, KF_ERROR_ARGUMENT,
                           "options.size is %zu; set it to sizeof(kf_load_options) (%zu to %zu "
                           "are accepted)",
                           options->size, sizeof(size_t), sizeof *options);
        kf_result r = kf_allocator_take(
            KF_OPTION(options, kf_load_options, allocator, (const kf_allocator *)NULL),
            &L->allocator, error);
        if (r != KF_OK)
            return r;
        size_t max = KF_OPTION(options, kf_load_options, max_section_size, (size_t)0);
        if (max)
            L->max_section = max;
    }
    if (!out)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no output pointer");
    return KF_OK;
}

kf_result kf_load_memory(const void *data, size_t size, const kf_load_options *options,
                         kf_anim **out, kf_error *error)
{
    loader L;
    kf_result r = init_loader(&L, options, out, error);
    if (r != KF_OK)
        return r;
    if (!data && size)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no data (NULL, with a size of %zu bytes)", size);
    L.file = data ? data : (const unsigned char *)"";
    L.size = size;
    return load(&L, out);
}

void kf_anim_free(kf_anim *anim)
{
    if (anim) {
        kf_allocator a = anim->allocator;
        kf_layout_free(&a, (struct kf_layout *)anim->layout);
        kf_free(&a, anim, anim->size);
    }
}

/* ---- streams and files ----------------------------------------------------- */

/* The first read buffer of a stream load; it doubles up to the declared size. */
#define KF_STREAM_FIRST_CHUNK ((size_t)64 * 1024)

/* Reads `size` bytes (fewer at the end) into `buf`, file byte `at` on,
 * setting *got. KF_ERROR_IO, reported (`what` failed), when a read fails
 * or returns more than it was asked for. */
static kf_result read_fully(loader *L, kf_read_fn read, void *user, unsigned char *buf, size_t size,
                            size_t at, const char *what, size_t *got)
{
    *got = 0;
    while (*got < size) {
        const size_t want = size - *got, n = read(user, buf + *got, want);
        if (n == (size_t)-1)
            return fail(L, KF_ERROR_IO, KF_NO_INDEX, KF_NO_INDEX, at + *got, "%s failed", what);
        /* Whatever it wrote past `want` is not looked at. */
        if (n > want)
            return fail(L, KF_ERROR_IO, KF_NO_INDEX, KF_NO_INDEX, at + *got,
                        "the read function returned %zu bytes for a %zu-byte request", n, want);
        if (n == 0)
            break;
        *got += n;
    }
    return KF_OK;
}

kf_result kf_load_stream(kf_read_fn read, void *user, const kf_load_options *options, kf_anim **out,
                         kf_error *error)
{
    loader L;
    kf_result r = init_loader(&L, options, out, error);
    if (r != KF_OK)
        return r;
    if (!read)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no read function");

    /* The header says how much follows; check it before trusting that. */
    unsigned char header[KFB_HEADER_SIZE];
    size_t got;
    if ((r = read_fully(&L, read, user, header, sizeof header, 0, "reading the header", &got)) !=
        KF_OK)
        return r;
    uint32_t file_size = 0;
    r = read_header(&L, header, got, &file_size);
    if (r != KF_OK)
        return r;
    if ((uint64_t)file_size > (uint64_t)L.max_section * KFB_SECTION_COUNT + 4096)
        return fail(&L, KF_ERROR_TOO_LARGE, KF_NO_INDEX, KF_NO_INDEX, KFB_HEADER_AT(file_size),
                    "declared file size %u exceeds the loader's limit", (unsigned)file_size);
    /* The buffer grows as bytes arrive (doubling, so O(n) copying): a short
     * stream declaring a huge size costs what it holds, and ends as
     * KF_ERROR_TRUNCATED rather than a large allocation. */
    size_t cap = file_size < KF_STREAM_FIRST_CHUNK ? file_size : KF_STREAM_FIRST_CHUNK;
    if (cap < sizeof header)
        cap = sizeof header;
    unsigned char *file = kf_alloc(&L.allocator, cap);
    if (!file)
        return fail(&L, KF_ERROR_OUT_OF_MEMORY, KF_NO_INDEX, KF_NO_INDEX, 0,
                    "out of memory for a %zu-byte read buffer", cap);
    memcpy(file, header, sizeof header);
    size_t have = sizeof header;
    r = KF_OK;
    while (r == KF_OK && have < file_size) {
        if (have == cap) {
            size_t grown = cap > file_size / 2 ? file_size : cap * 2;
            unsigned char *bigger = kf_alloc(&L.allocator, grown);
            if (!bigger) {
                r = fail(&L, KF_ERROR_OUT_OF_MEMORY, KF_NO_INDEX, KF_NO_INDEX, have,
                         "out of memory growing the read buffer to %zu bytes", grown);
                break;
            }
            memcpy(bigger, file, have);
            kf_free(&L.allocator, file, cap);
            file = bigger;
            cap = grown;
        }
        size_t n;
        if ((r = read_fully(&L, read, user, file + have, cap - have, have, "reading the file",
                            &n)) != KF_OK)
            break;
        if (n < cap - have)
            r = fail(&L, KF_ERROR_TRUNCATED, KF_NO_INDEX, KF_NO_INDEX, have + n,
                     "the file is %zu bytes; its header declares %u", have + n,
                     (unsigned)file_size);
        else
            have += n;
    }
    unsigned char extra;
    size_t more = 0;
    if (r != KF_OK || (r = read_fully(&L, read, user, &extra, 1, file_size, "reading the file",
                                      &more)) != KF_OK) {
        /* reported above */
    } else if (more) {
        /* Counting them would mean reading them all: say only that there are. */
        r = fail(&L, KF_ERROR_TRAILING_DATA, KF_NO_INDEX, KF_NO_INDEX, file_size,
                 "more bytes follow the declared end of the file (its header says %u bytes)",
                 (unsigned)file_size);
    } else {
        L.file = file;
        L.size = file_size;
        r = load(&L, out);
    }
    kf_free(&L.allocator, file, cap);
    return r;
}

/* kf_load_file's reader: the file, and the errno of a read that failed
 * (a folder opens, then fails to read: EISDIR), for its message. */
typedef struct file_reader {
    FILE *f;
    int error;
} file_reader;

static size_t read_file(void *user, void *buffer, size_t size)
{
    file_reader *r = user;
    errno = 0;
    size_t n = fread(buffer, 1, size, r->f);
    if (n == 0 && ferror(r->f)) {
        r->error = errno;
        return (size_t)-1;
    }
    return n;
}

/* A file's name, quoted as a name is (kf_quote), with what room the message
 * leaves after the reason. */
#define PATH_QUOTE_SIZE 128

kf_result kf_load_file(const char *path, const kf_load_options *options, kf_anim **out,
                       kf_error *error)
{
    /* The arguments before the file: a bad one is reported as itself, not
     * as whatever opening the file gives. */
    loader L;
    kf_result r = init_loader(&L, options, out, error);
    if (r != KF_OK)
        return r;
    if (!path)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no path");
    FILE *f = fopen(path, "rb");
    if (!f)
        return kf_fail(error, KF_ERROR_IO, "cannot open %s: %s",
                       kf_quote((char[PATH_QUOTE_SIZE]){0}, PATH_QUOTE_SIZE, path),
                       strerror(errno));
    file_reader reader = {f, 0};
    r = kf_load_stream(read_file, &reader, options, out, error);
    fclose(f);
    if (r == KF_ERROR_IO && reader.error) {
        kf_error_clear(error);
        kf_fail(error, KF_ERROR_IO, "cannot read %s: %s",
                kf_quote((char[PATH_QUOTE_SIZE]){0}, PATH_QUOTE_SIZE, path),
                strerror(reader.error));
    }
    return r;
}
