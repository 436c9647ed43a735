/* SPDX-License-Identifier: MIT */
/*
 * kf_write.c - the .kfb writer. Its mirror is runtime/kf_read.c: the two
 * files have the same functions in the same order (write_header /
 * read_header, write_sections / read_sections, write_sequence /
 * read_sequence ... write_objects / read_objects), so that a change to the
 * layout is reviewed side by side. Every layout fact (records, codes, array
 * sizes) comes from formats/kfb_format.h and formats/kfb_codes.h.
 *
 * kf_write_objects, last, runs the parts in the reverse of file order
 * (objects, sections, header): the header carries the file size.
 */
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kf_index.h"
#include "kf_layout.h"
#include "kf_math.h"
#include "kf_write.h"
#include "kf_zero_runs.h"
#include "kfb_codes.h"

typedef kf_bytes buffer;

/* ---- primitives ---------------------------------------------------------- */

/* Appends `count` host-order words in file order. */
static void put_words(buffer *b, const void *words, uint32_t count)
{
    unsigned char *at = kf_bytes_grow(b, (size_t)count * 4);
    if (!at)
        return;
    memcpy(at, words, (size_t)count * 4);
    kfb_word_swap(at, count);
}

static void put_bytes(buffer *b, const void *bytes, size_t size)
{
    unsigned char *at = kf_bytes_grow(b, size);
    if (at && size)
        memcpy(at, bytes, size);
}

/* Offset of `name` in the string table, appended. */
static uint32_t put_string(buffer *strings, const char *name)
{
    uint32_t offset = (uint32_t)strings->size;
    put_bytes(strings, name, strlen(name) + 1);
    return offset;
}

/* Word offset of `count` floats appended to the data section. */
static uint32_t put_floats(buffer *data, const float *f, size_t count)
{
    uint32_t offset = (uint32_t)(data->size / 4);
    put_words(data, f, (uint32_t)count);
    return offset;
}

static uint32_t bits_of(const float *f)
{
    uint32_t w;
    memcpy(&w, f, 4);
    return w;
}

/* Significant bits of x (0 for 0). */
static unsigned bit_length(uint32_t x)
{
#if defined(__GNUC__)
    return x ? 32u - (unsigned)__builtin_clz(x) : 0u;
#else
    unsigned n = 0;
    for (unsigned step = 16; step; step /= 2)
        if (x >> step) {
            x >>= step;
            n += step;
        }
    return n + (x != 0);
#endif
}

/* A finite float as sign, significand and exponent: |v| = m * 2^x, read off
 * its bits (a subnormal's significand has no implicit bit). */
typedef struct float_parts {
    uint32_t m;
    int x;
    int negative;
} float_parts;

static float_parts parts_of(float v)
{
    const uint32_t b = bits_of(&v), e = b >> 23 & 0xFFu;
    const float_parts p = {(b & 0x7FFFFFu) | (e ? 0x800000u : 0u), e ? (int)e - 150 : -149,
                           (int)(b >> 31)};
    return p;
}

/* The exponent e of a column whose floats are all q * 2^e with |q| < 2^24
 * (decoded exactly as ldexpf((float)q, e)), or KFB_COLUMN_FLOAT_BITS where
 * there is none: a non-finite value or -0 (q would lose its sign), or
 * magnitudes too far apart. Quantized keys (kfc -e) are such columns, and
 * so are many plain ones whose values share an exponent. */
static int column_exponent(const float *f, size_t rows, size_t stride)
{
    /* From the bits: each value's lowest set bit is at most as fine as e,
     * and its highest less than 24 bits above e. */
    int e = INT_MAX, high = INT_MIN;
    for (size_t i = 0; i < rows; i++) {
        const float v = f[i * stride];
        if (!isfinite(v) || (v == 0.0f && signbit(v)))
            return KFB_COLUMN_FLOAT_BITS;
        if (v == 0.0f)
            continue;
        const float_parts p = parts_of(v);
        const int low = p.x + (int)kf_trailing_zeros(p.m), top = p.x + (int)bit_length(p.m) - 1;
        e = low < e ? low : e;
        high = top > high ? top : high;
    }
    if (e == INT_MAX)
        return 0; /* all zero */
    return high - e < 24 ? e : KFB_COLUMN_FLOAT_BITS;
}

/* Whether column m is the rest of a unit vector in every row (kfb_format.h,
 * KFB_COLUMN_UNIT): to the bit, so the reader rebuilds exactly these floats.
 * The error-bounded compile stores quaternions so; wider arrays are not
 * tried (each try sums a row, so it would cost columns^2 per row). */
static int unit_column(const float *f, size_t rows, size_t stride, size_t m)
{
    if (stride < 2 || stride > 4)
        return 0;
    for (size_t i = 0; i < rows; i++) {
        const float *v = f + i * stride;
        float rest;
        if (!kf_unit_rest(v, (uint32_t)stride, (uint32_t)m, signbit(v[m]) != 0, &rest) ||
            memcmp(&rest, &v[m], 4) != 0)
            return 0;
    }
    return 1;
}

/* Word i of a column as the predictor sees it: the float's bits, q, or the
 * sign of a unit column. */
static uint32_t column_word(float v, int e, int unit)
{
    if (unit)
        return signbit(v) ? 1u : 0u;
    if (e == KFB_COLUMN_FLOAT_BITS)
        return bits_of(&v);
    /* v / 2^e, an integer below 2^24 (column_exponent): the shift drops
     * only zero bits. */
    const float_parts p = parts_of(v);
    if (p.m == 0)
        return 0;
    const uint32_t q = p.x >= e ? p.m << (p.x - e) : p.m >> (e - p.x);
    return p.negative ? 0u - q : q;
}

/* The valid keys a column of outgoing tangents may be guessed from
 * (KFB_PREDICT_KEYS; the mirror of kf_read.c's key_guess). */
typedef struct key_guess {
    const float *keys;
    size_t rows;
    uint32_t interpolation;
} key_guess;

/* The keys' guess for every row and column of an array of `stride`
 * columns, as f32 bits: each squad row is guessed (and normalized) once,
 * not once per column and per pass. */
static void key_guesses(const key_guess *guess, size_t stride, uint32_t *g)
{
    float row[4];
    for (size_t i = 0; i < guess->rows; i++) {
        if (guess->interpolation == KFB_INTERP_SQUAD && stride == 4) {
            kfb_key_guess_row(guess->keys, guess->rows, stride, guess->interpolation, i, row);
            memcpy(g + 4 * i, row, sizeof row);
            continue;
        }
        for (size_t m = 0; m < stride; m++) {
            const float x =
                kfb_key_guess(guess->keys, guess->rows, stride, guess->interpolation, i, m);
            g[i * stride + m] = bits_of(&x);
        }
    }
}

/* Column m's words in form e (column_word) into w. */
static void column_words(const float *f, size_t rows, size_t stride, size_t m, int e, int unit,
                         uint32_t *w)
{
    for (size_t i = 0; i < rows; i++)
        w[i] = column_word(f[i * stride + m], e, unit);
}

/* The bits a column's differences take under each predictor, roughly: to
 * choose its form and predictor. `g`, the keys' guesses `stride` words
 * apart, only for float bits (KFB_PREDICT_KEYS gets UINT64_MAX without). */
static void residual_bits(const uint32_t *w, size_t rows, const uint32_t *g, size_t stride,
                          uint64_t bits[KFB_PREDICT_COUNT])
{
    for (uint32_t p = 0; p < KFB_PREDICT_COUNT; p++)
        bits[p] = p == KFB_PREDICT_KEYS && !g ? UINT64_MAX : 0;
    uint32_t w1 = 0, w2 = 0, w3 = 0;
    for (size_t i = 0; i < rows; i++) {
        const uint32_t x = w[i];
        if (i < 3) { /* the short rows' predictions (kfb_predicted) */
            for (uint32_t p = 0; p < KFB_PREDICT_KEYS; p++)
                bits[p] += bit_length(kfb_zigzag(x - kfb_predicted(p, i, w1, w2, w3)));
        } else { /* the same, without a branch per predictor */
            bits[KFB_PREDICT_PREVIOUS] += bit_length(kfb_zigzag(x - w1));
            bits[KFB_PREDICT_LINEAR] += bit_length(kfb_zigzag(x - (2u * w1 - w2)));
            bits[KFB_PREDICT_QUADRATIC] += bit_length(kfb_zigzag(x - (3u * w1 - 3u * w2 + w3)));
        }
        if (g)
            bits[KFB_PREDICT_KEYS] += bit_length(kfb_zigzag(x - g[i * stride]));
        w3 = w2;
        w2 = w1;
        w1 = x;
    }
}

/* The planes of `rows` differences, from k on (KFB_PLANES planes of
 * `count` bytes at `at`). */
_Static_assert(KFB_PLANES == 4, "put_planes writes four planes");
static void put_planes(unsigned char *at, size_t count, size_t k, const uint32_t *w,
                       const uint32_t *predicted, size_t step, uint32_t predictor, size_t rows)
{
    uint32_t w1 = 0, w2 = 0, w3 = 0;
    for (size_t i = 0; i < rows; i++, k++) {
        const uint32_t x = w[i];
        const uint32_t r = kfb_zigzag(
            x - (predicted ? predicted[i * step] : kfb_predicted(predictor, i, w1, w2, w3)));
        at[k] = (unsigned char)r; /* KFB_PLANES of them */
        at[count + k] = (unsigned char)(r >> 8);
        at[2 * count + k] = (unsigned char)(r >> 16);
        at[3 * count + k] = (unsigned char)(r >> 24);
        w3 = w2;
        w2 = w1;
        w1 = x;
    }
}

/* Word offset of `count` floats appended as an encoded array (the mirror of
 * decode; kfb_format.h, KFB_PLANES): without `against`, a header word per
 * column (`stride` columns) saying its form and predictor, then, column by
 * column, each word less its prediction from the words before it in its
 * column; with `against`, each word less against[k]. The differences,
 * zigzag-coded, go into byte planes. Each column takes the form and
 * predictor whose differences come out smallest (a unit column always: its
 * words are signs); `guess`, for outgoing tangents, adds the keys' guess
 * to the predictors. */
static uint32_t put_encoded(buffer *data, const float *f, size_t count, size_t stride,
                            const float *against, const key_guess *guess)
{
    const uint32_t offset = (uint32_t)(data->size / 4);
    if (count == 0)
        return offset;
    const size_t rows = against ? count : count / stride, columns = against ? 0 : stride;
    /* Room for the headers and planes, and past them scratch words (a
     * column's words in each form, the keys' guesses), given back before
     * returning. */
    const size_t array = 4 * (size_t)kfb_encoded_words(count, columns);
    const size_t scratch = 4 * (2 * rows + (guess ? count : 0));
    unsigned char *at = kf_bytes_grow(data, array + scratch);
    if (!at)
        return offset;
    unsigned char *headers = at, *planes = at + 4 * columns;
    uint32_t *w = (uint32_t *)(void *)(at + array), *g = guess ? w + 2 * rows : NULL;
    uint32_t *const words[2] = {w, w + rows}; /* float bits; integers */
    if (g)
        key_guesses(guess, stride, g);
    if (against) {
        for (size_t i = 0; i < rows; i++) {
            words[0][i] = bits_of(&f[i]);
            words[1][i] = bits_of(&against[i]);
        }
        put_planes(planes, count, 0, words[0], words[1], 1, 0, rows);
        data->size -= scratch;
        return offset;
    }
    int have_unit = 0;
    for (size_t m = 0; m < columns; m++) {
        uint32_t header;
        const int unit = !have_unit && unit_column(f, rows, stride, m);
        int chosen = 0; /* the form whose words go in: words[chosen] */
        if (unit) {
            have_unit = 1;
            header = KFB_COLUMN_UNIT | (uint32_t)KFB_PREDICT_PREVIOUS << KFB_COLUMN_PREDICTOR_SHIFT;
            column_words(f, rows, stride, m, KFB_COLUMN_FLOAT_BITS, 1, words[0]);
        } else {
            const int exact = column_exponent(f + m, rows, stride);
            const int forms[2] = {KFB_COLUMN_FLOAT_BITS, exact};
            uint64_t best = UINT64_MAX;
            header = 0;
            for (int k = 0; k < (exact == KFB_COLUMN_FLOAT_BITS ? 1 : 2); k++) {
                uint64_t bits[KFB_PREDICT_COUNT];
                column_words(f, rows, stride, m, forms[k], 0, words[k]);
                residual_bits(words[k], rows, forms[k] == KFB_COLUMN_FLOAT_BITS && g ? g + m : NULL,
                              stride, bits);
                for (uint32_t p = 0; p < KFB_PREDICT_COUNT; p++) {
                    if (bits[p] < best) {
                        best = bits[p];
                        chosen = k;
                        header = (forms[k] == KFB_COLUMN_FLOAT_BITS
                                      ? 0
                                      : (uint32_t)(forms[k] + KFB_COLUMN_EXPONENT_BIAS)) |
                                 p << KFB_COLUMN_PREDICTOR_SHIFT;
                    }
                }
            }
        }
        memcpy(headers + 4 * m, &header, 4);
        kfb_word_swap(headers + 4 * m, 1);
        const uint32_t predictor =
            (header & KFB_COLUMN_PREDICTOR_MASK) >> KFB_COLUMN_PREDICTOR_SHIFT;
        put_planes(planes, count, m * rows, words[chosen],
                   predictor == KFB_PREDICT_KEYS ? g + m : NULL, stride, predictor, rows);
    }
    data->size -= scratch;
    return offset;
}

/* Word offset of `words` words of DATA that a packer already holds
 * (kf_data_packer.laid_out): room, its bytes never read. */
static uint32_t put_room(buffer *data, uint64_t words)
{
    const uint32_t offset = (uint32_t)(data->size / 4);
    if (words)
        kf_bytes_grow(data, (size_t)words * 4);
    return offset;
}

/* Word offset of `count` floats appended as an array of rows (2.5): a
 * header word per column (`stride` columns, none with `against`), each
 * KFB_COLUMN_ROWS, then the floats as they are. The mirror of decode's
 * rows. */
static uint32_t put_rows(buffer *data, const float *f, size_t count, size_t stride)
{
    const uint32_t offset = (uint32_t)(data->size / 4);
    if (count == 0)
        return offset;
    const uint32_t header = KFB_COLUMN_ROWS;
    for (size_t m = 0; m < stride; m++)
        put_words(data, &header, 1);
    put_words(data, f, (uint32_t)count);
    return offset;
}

/* Whether an array of `stride` columns goes into a stored DATA as its rows:
 * unless every column is integers at a scale. Of such an array alone the
 * reader notes facts as it decodes it (its columns' ranges and grids),
 * from which the loader quantizes lanes without reading their keys again
 * (kf_layout.c); any other array's prediction only serves deflate, which
 * a stored section does without. */
static int rows_form(const float *f, size_t count, size_t stride)
{
    for (size_t m = 0; m < stride; m++)
        if (column_exponent(f + m, count / stride, stride) == KFB_COLUMN_FLOAT_BITS)
            return 1;
    return 0;
}

/* How a sequence's arrays go into DATA: encoded (version 2) or plain
 * (version 1); or, where a packer already holds them, only their room.
 * `stored`: DATA is written stored (compression level 0), and `rows` this
 * array goes in as its rows (for_array). */
typedef struct array_mode {
    int encoded;
    int room;
    int stored;
    int rows;
} array_mode;

/* `mode` for an array of `count` floats in `stride` columns at f. */
static array_mode for_array(array_mode mode, const float *f, size_t count, size_t stride)
{
    mode.rows = mode.encoded && mode.stored && count && rows_form(f, count, stride);
    return mode;
}

/* An encoded array (or one of rows) in version 2, plain floats in version
 * 1. The encoded words of rows are as many as any other form's. */
static uint32_t put_array(buffer *data, const float *f, size_t count, size_t stride,
                          const float *against, const key_guess *guess, array_mode mode)
{
    if (mode.room)
        return put_room(data,
                        mode.encoded ? kfb_encoded_words(count, against ? 0 : stride) : count);
    if (!mode.encoded)
        return put_floats(data, f, count);
    return mode.rows ? put_rows(data, f, count, against ? 0 : stride)
                     : put_encoded(data, f, count, stride, against, guess);
}

static void put_object(buffer *objects, uint32_t type, const void *record, uint32_t words)
{
    kfb_object header = {type, words * 4};
    put_words(objects, &header, KFB_WORDS(kfb_object));
    put_words(objects, record, words);
}

static kfb_f64 f64(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    kfb_f64 w = {(uint32_t)bits, (uint32_t)(bits >> 32)};
    return w;
}

/* ---- header -------------------------------------------------------------- */

/* The identifier and header of a file of `file_size` bytes, CRC last. */
static void write_header(buffer *out, uint32_t file_size, uint32_t major)
{
    const uint32_t version = major == 1 ? KFB_VERSION(1, KFB_VERSION_1_MINOR)
                                        : KFB_VERSION(KFB_VERSION_MAJOR, KFB_VERSION_MINOR);
    kfb_header h = {version, KFB_PROBE_INT, KFB_PROBE_FLOAT, KFB_SECTION_COUNT, file_size, 0};
    put_bytes(out, KFB_IDENTIFIER, KFB_IDENTIFIER_SIZE);
    put_words(out, &h, KFB_WORDS(kfb_header) - 1);
    if (out->failed)
        return;
    uint32_t crc = (uint32_t)crc32(0L, out->data, (uInt)out->size);
    put_words(out, &crc, 1);
}

/* ---- sections ------------------------------------------------------------ */

static const uint32_t section_tags[KFB_SECTION_COUNT] = {KFB_TAG_STRINGS, KFB_TAG_OBJECTS,
                                                         KFB_TAG_DATA};

/* The sections as they go out: each one's header and stored bytes. */
typedef struct packed_sections {
    kfb_section_header headers[KFB_SECTION_COUNT];
    const buffer *stored[KFB_SECTION_COUNT];
    uint32_t packed_crc; /* of DATA's stored bytes, when the packer kept it */
    int packed_crc_known;
    int unwritten; /* DATA is needed whole, and only its room was written */
    uint64_t file_size;
} packed_sections;

enum { COMPRESS_NO_MEMORY = -2, COMPRESS_FAILED = -1 };

/* Deflates `raw` into `out` with zlib's default strategy at `level`
 * (KF_DEFLATE_MEM_LEVEL), as the compress-ahead worker does, so the bytes
 * do not depend on which of them deflated; returns Z_OK or zlib's error. (Up to format 2.2, Z_RLE was
 * tried too and the smaller stream kept: it won by 3-6 % on the zero runs
 * of quantized byte planes, which 2.3 leaves out of the stream, and then
 * loses by 4-27 % on every workload W file.) */
static int deflate_with(const kf_allocator *a, const buffer *raw, int level, buffer *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = kf_zlib_alloc;
    z.zfree = kf_zlib_free;
    z.opaque = (void *)a;
    int status =
        deflateInit2(&z, level, Z_DEFLATED, MAX_WBITS, KF_DEFLATE_MEM_LEVEL, Z_DEFAULT_STRATEGY);
    if (status != Z_OK)
        return status;
    uLong bound = deflateBound(&z, (uLong)raw->size);
    out->size = 0;
    unsigned char *at = kf_bytes_grow(out, bound);
    if (!at) {
        deflateEnd(&z);
        return Z_MEM_ERROR;
    }
    z.next_in = raw->data;
    z.avail_in = (uInt)raw->size;
    z.next_out = at;
    z.avail_out = (uInt)bound;
    status = deflate(&z, Z_FINISH);
    out->size = z.total_out;
    deflateEnd(&z);
    return status == Z_STREAM_END ? Z_OK : Z_STREAM_ERROR;
}

/* DATA's pieces (kf_zero_runs.h) into `out`, its zero runs left out if
 * `leave_out`; 0 when out of memory. */
static int put_pieces(const kf_allocator *a, const buffer *raw, int leave_out, buffer *out)
{
    kf_zero_runs r;
    kf_zero_runs_init(&r, a, leave_out);
    out->size = 0;
    const int ok = kf_zero_runs_feed(&r, raw->data, raw->size, out) && kf_zero_runs_finish(&r, out);
    kf_zero_runs_free(&r);
    return ok && !out->failed;
}

/* Compresses `raw` into `out` if that makes it smaller; `pieces`: as DATA
 * is from 2.3 on (kf_zero_runs.h), its zero runs left out unless that
 * would expand past what a reader accepts (a section of little but zeros,
 * kfb_zlib_ratio_ok), then with none left out. At KF_COMPRESSION_RUNS,
 * DATA's pieces are stored as they are (2.4), where they are smaller and
 * within the ratio, and the other sections stored. Returns the compression
 * used, or COMPRESS_*. The mirror of unpack_section. */
static int pack_section(const kf_allocator *a, const buffer *raw, int level, int pieces,
                        buffer *out)
{
    if (level == 0 || raw->size == 0 || (level == KF_COMPRESSION_RUNS && !pieces))
        return KFB_COMPRESSION_NONE;
    if (level == KF_COMPRESSION_RUNS) {
        if (!put_pieces(a, raw, 1, out))
            return COMPRESS_NO_MEMORY;
        return out->size < raw->size && kfb_zlib_ratio_ok(raw->size, out->size)
                   ? KFB_COMPRESSION_RUNS
                   : KFB_COMPRESSION_NONE;
    }
    buffer stream = {a, NULL, 0, 0, 0};
    int status = Z_OK;
    for (int leave_out = 1; leave_out >= 0; leave_out--) {
        if (pieces && !put_pieces(a, raw, leave_out, &stream)) {
            status = Z_MEM_ERROR;
            break;
        }
        status = deflate_with(a, pieces ? &stream : raw, level, out);
        if (status != Z_OK || !pieces || kfb_zlib_ratio_ok(raw->size, out->size))
            break;
    }
    kf_bytes_free(&stream);
    if (status != Z_OK)
        return status == Z_MEM_ERROR ? COMPRESS_NO_MEMORY : COMPRESS_FAILED;
    return out->size < raw->size ? KFB_COMPRESSION_ZLIB : KFB_COMPRESSION_NONE;
}

/* Compresses every section (DATA through `packer` first, if any) and sizes
 * the file. `held`: DATA's first bytes are only room, which the packer laid
 * out; where its stream is not what goes out, out->unwritten says so. */
static kf_result pack_sections(const kf_allocator *a, buffer raw[KFB_SECTION_COUNT],
                               buffer packed[KFB_SECTION_COUNT], int compression, uint32_t major,
                               const kf_data_packer *packer, uint64_t held, packed_sections *out,
                               kf_error *error)
{
    out->file_size = KFB_HEADER_SIZE;
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        if (raw[i].failed)
            return kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
        if (raw[i].size > UINT32_MAX)
            return kf_fail(error, KF_ERROR_TOO_LARGE, "section %d exceeds 4 GiB", i);
        int method;
        if (i == KFB_SECTION_DATA && compression > 0 && packer &&
            packer->pack(packer->user, compression, &raw[i], &packed[i], &out->packed_crc) &&
            kfb_zlib_ratio_ok(raw[i].size, packed[i].size) && packed[i].size < raw[i].size) {
            method = KFB_COMPRESSION_ZLIB;
            out->packed_crc_known = 1;
        } else if (i == KFB_SECTION_DATA && held) {
            out->unwritten = 1;
            return KF_OK;
        } else {
            /* (A packer's stream no smaller than the section is what
             * pack_section deflates too, which stores the section.) */
            method = pack_section(a, &raw[i], compression, i == KFB_SECTION_DATA && major != 1,
                                  &packed[i]);
        }
        if (method == COMPRESS_NO_MEMORY)
            return kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory compressing section %d",
                           i);
        if (method < 0)
            return kf_fail(error, KF_ERROR_IO, "zlib failed compressing section %d", i);
        out->stored[i] = method == KFB_COMPRESSION_NONE ? &raw[i] : &packed[i];
        out->headers[i] =
            (kfb_section_header){section_tags[i], (uint32_t)method, (uint32_t)out->stored[i]->size,
                                 (uint32_t)raw[i].size};
        out->file_size += KFB_SECTION_HEADER_SIZE + out->stored[i]->size + KFB_SECTION_CRC_SIZE;
    }
    if (out->file_size > UINT32_MAX)
        return kf_fail(error, KF_ERROR_TOO_LARGE, "the file would exceed 4 GiB");
    return KF_OK;
}

/* Each section's header, stored bytes and CRC, through `out` (a small
 * buffer; the stored bytes go straight to `write`). Returns 0 on success. */
static int write_sections(buffer *out, const packed_sections *p, kf_write_fn write, void *user)
{
    int failed = 0;
    for (int i = 0; i < KFB_SECTION_COUNT && !failed; i++) {
        const buffer *stored = p->stored[i];
        out->size = 0;
        put_words(out, &p->headers[i], KFB_WORDS(kfb_section_header));
        if (out->failed)
            break;
        uint32_t crc = (uint32_t)crc32(0L, out->data, (uInt)out->size);
        if (i == KFB_SECTION_DATA && p->packed_crc_known) /* the compressor kept it */
            crc = (uint32_t)crc32_combine(crc, p->packed_crc, (z_off_t)stored->size);
        else if (stored->size) /* zlib restarts the checksum on a NULL buffer */
            crc = (uint32_t)crc32_z(crc, stored->data, stored->size);
        failed = write(user, out->data, out->size) != 0 ||
                 (stored->size && write(user, stored->data, stored->size) != 0);
        out->size = 0;
        put_words(out, &crc, 1);
        failed = failed || out->failed || write(user, out->data, out->size) != 0;
    }
    return failed || out->failed;
}

/* ---- sequences ----------------------------------------------------------- */

/* Sequences' key times, so that equal arrays are written once
 * (formats/kfb.md: a player then finds the segment once for all of them):
 * `at` holds each written sequence's times offset, `slots` is a hash table
 * of sequence indices + 1 (0: empty), at most half full. The reader needs no
 * counterpart: a shared array is just two records with one offset. */
typedef struct times_table {
    uint32_t *at;
    uint32_t *slots;
    uint32_t mask;
    uint64_t key[2]; /* the table's hash secret */
} times_table;

uint32_t kf_hash_times(const uint64_t key[2], const float *times, uint32_t count)
{
    return (uint32_t)kf_hash_keyed(key, times, (size_t)count * sizeof *times);
}

/* The data offset of sequence i's key times: an earlier equal array's, or
 * a new one's (only its room, with `room`). */
static uint32_t put_times(buffer *data, const kf_objects *o, uint32_t i, times_table *t, int room)
{
    const struct kf_sequence *s = &o->sequences[i];
    uint32_t slot = kf_hash_times(t->key, s->times, s->key_count) & t->mask;
    for (; t->slots[slot]; slot = (slot + 1) & t->mask) {
        const struct kf_sequence *e = &o->sequences[t->slots[slot] - 1];
        if (e->key_count == s->key_count &&
            memcmp(e->times, s->times, (size_t)s->key_count * sizeof *s->times) == 0)
            return t->at[t->slots[slot] - 1];
    }
    t->slots[slot] = i + 1;
    return room ? put_room(data, s->key_count) : put_floats(data, s->times, s->key_count);
}

/* A loaded sequence, whose floats are a lane of a block (kf_private.h,
 * kf_sequence.row), as arrays of its own in `room` (plain_floats). */
static size_t plain_floats(const struct kf_sequence *s)
{
    return (size_t)s->key_count * s->components +
           2 * (size_t)kf_sequence_tangent_count(s->interpolation, s->valid_count, s->components) +
           kf_sequence_arc_count(s->interpolation, s->valid_count) +
           (s->key_tangents ? 2 * (size_t)s->key_count * s->components : 0);
}

static struct kf_sequence unblocked(const struct kf_sequence *s, float *room)
{
    struct kf_sequence t = *s;
    const uint32_t c = s->components, v = s->valid_count;
    const size_t tc = kf_sequence_tangent_count(s->interpolation, v, c);
    float *at = room;
    t.row = 0;
    t.values = at;
    for (uint32_t k = 0; k < s->key_count; k++)
        for (uint32_t m = 0; m < c; m++)
            *at++ = kf_key_float(s, s->values, k, m);
    if (s->tangent_out && tc) {
        t.tangent_out = at;
        for (uint32_t k = 0; k < v; k++)
            for (uint32_t m = 0; m < c; m++)
                *at++ = kf_key_float(s, s->tangent_out, k, m);
        t.tangent_in = at;
        for (uint32_t k = 0; k < v; k++)
            for (uint32_t m = 0; m < c; m++)
                *at++ = kf_key_float(s, s->tangent_in, k, m);
    }
    /* HERMITE's key tangents, which the layout may keep quantized (in the
     * lane, or apart: kf_key_tangent), and which share a union with no
     * arcs, as floats. */
    t.arcs = NULL;
    if (s->key_tangents) {
        t.key_tangents = at;
        for (uint32_t k = 0; k < s->key_count; k++)
            for (uint32_t m = 0; m < 2 * c; m++)
                *at++ = kf_key_tangent(s, k, m);
    }
    /* The arcs version 1 stores, which a loaded sequence keeps none of:
     * computed from its keys (and SQUAD's a, b), as a builder's are
     * (kf_sequence_precompute). */
    if (kf_sequence_arc_count(s->interpolation, v)) {
        t.arcs = at;
        kf_quat_arcs(t.values, t.values, v, at);
        if (s->interpolation == KFB_INTERP_SQUAD)
            kf_quat_arcs(t.tangent_out, t.tangent_in, v, at + (size_t)v * KFB_ARC_FLOATS);
    }
    return t;
}

static void sequence_data(kf_bytes *data, const struct kf_sequence *s, kfb_sequence *r,
                          array_mode mode)
{
    const int encoded = mode.encoded;
    if (s->row && !mode.room) {
        /* Writing a loaded animation again: its sequences' own copy. */
        const size_t floats = plain_floats(s);
        float *room = kf_alloc(data->allocator, floats * sizeof *room);
        if (!room) {
            data->failed = 1;
            return;
        }
        const struct kf_sequence t = unblocked(s, room);
        sequence_data(data, &t, r, mode);
        kf_free(data->allocator, room, floats * sizeof *room);
        return;
    }
    const uint32_t c = s->components;
    /* What this version stores of the derived floats (version 2 leaves the
     * arcs, and 2.2 HERMITE's scaled tangents, to the reader). */
    const uint64_t stored = kfb_sequence_stored_derived_floats(
        encoded ? KFB_VERSION(KFB_VERSION_MAJOR, KFB_VERSION_MINOR)
                : KFB_VERSION(1, KFB_VERSION_1_MINOR),
        s->interpolation, s->valid_count, c);
    const uint64_t tc =
        stored ? kfb_sequence_tangent_floats(s->interpolation, s->valid_count, c) : 0;
    const uint64_t ac = kfb_sequence_arc_floats(s->interpolation, s->valid_count);
    const size_t n = s->key_count;
    r->values =
        put_array(data, s->values, n * c, c, NULL, NULL, for_array(mode, s->values, n * c, c));
    r->tangents = r->tcb = r->arc_length = KFB_NONE;
    if (stored) {
        r->tangents = (uint32_t)(data->size / 4);
        if (tc) {
            const key_guess guess = {s->values, s->valid_count, s->interpolation};
            /* (the incoming tangents go as the outgoing do) */
            const array_mode t = for_array(mode, s->tangent_out, (size_t)tc, c);
            put_array(data, s->tangent_out, (size_t)tc, c, NULL, &guess, t);
            put_array(data, s->tangent_in, (size_t)tc, 0, s->tangent_out, NULL, t);
        }
        if (ac && !encoded && mode.room)
            put_room(data, ac);
        else if (ac && !encoded)
            put_floats(data, s->arcs, (size_t)ac);
    }
    if (s->tcb)
        r->tcb = put_array(data, s->tcb, 3 * n, 3, NULL, NULL, for_array(mode, s->tcb, 3 * n, 3));
    if (s->key_tangents)
        r->tcb = put_array(data, s->key_tangents, 2 * n * c, 2 * (size_t)c, NULL, NULL,
                           for_array(mode, s->key_tangents, 2 * n * c, 2 * (size_t)c));
    if (s->arc_length) {
        const size_t an = (size_t)kfb_arc_length_floats(s->repeat, s->valid_count);
        r->arc_length = put_array(data, s->arc_length, an, 1, NULL, NULL,
                                  for_array(mode, s->arc_length, an, 1));
    }
}

void kf_write_sequence_data(kf_bytes *data, const struct kf_sequence *s, kfb_sequence *r,
                            int encoded)
{
    sequence_data(data, s, r, (array_mode){encoded, 0, 0, 0});
}

uint32_t kf_write_floats(kf_bytes *data, const float *f, size_t count)
{
    return put_floats(data, f, count);
}

/* Sequence i; with `room`, only the room of its arrays, which a packer
 * already holds. */
static void write_sequence(buffer *strings, buffer *objects, buffer *data, const kf_objects *o,
                           uint32_t i, times_table *times, array_mode mode)
{
    const struct kf_sequence *s = &o->sequences[i];
    times->at[i] = put_times(data, o, i, times, mode.room);
    kfb_sequence r = {
        .name = put_string(strings, s->name),
        .interpolation = s->interpolation,
        .repeat = s->repeat,
        .components = s->components,
        .key_count = s->key_count,
        .valid_first = s->valid_first,
        .valid_count = s->valid_count,
        .duration = s->duration,
        .times = times->at[i],
    };
    sequence_data(data, s, &r, mode);
    put_object(objects, KFB_OBJECT_SEQUENCE, &r, KFB_WORDS(r));
}

/* ---- interpolators ------------------------------------------------------- */

static void write_interpolator(buffer *strings, buffer *objects, buffer *data,
                               const struct kf_interpolator *p)
{
    const size_t d = kfb_node_dimension(p->node);
    const uint64_t derived = kfb_interpolator_derived_floats(p->node, p->key_count);
    kfb_interpolator r = {
        .name = put_string(strings, p->name),
        .node = p->node,
        .key_count = p->key_count,
        .value_count = p->value_count,
        .velocity_count = p->velocity_count,
        .flags = p->flags,
        .keys = put_floats(data, p->keys, p->key_count),
        .values = put_floats(data, p->values, p->value_count * d),
        .velocities = KFB_NONE,
        .derived = KFB_NONE,
    };
    if (p->velocity_count)
        r.velocities = put_floats(data, p->velocities, p->velocity_count * d);
    if (derived)
        r.derived = put_floats(data, p->derived, (size_t)derived);
    put_object(objects, KFB_OBJECT_INTERPOLATOR, &r, KFB_WORDS(r));
}

/* ---- followers ----------------------------------------------------------- */

static void write_follower(buffer *strings, buffer *objects, buffer *data,
                           const struct kf_follower *f)
{
    const size_t field = (size_t)kfb_follower_field_floats(f->node, f->element_count);
    const uint32_t rotations = kfb_follower_rotation_floats(f->node);
    kfb_follower r = {
        .name = put_string(strings, f->name),
        .node = f->node,
        .element_count = f->element_count,
        .duration = f->duration,
        .order = f->order,
        .tolerance = f->tolerance,
        .initial_value = put_floats(data, f->initial_value, field),
        .initial_destination = put_floats(data, f->initial_destination, field),
        .rotations = KFB_NONE,
    };
    if (rotations)
        r.rotations = put_floats(data, f->rotations, rotations);
    put_object(objects, KFB_OBJECT_FOLLOWER, &r, KFB_WORDS(r));
}

/* ---- controllers, targets, tracks ---------------------------------------- */

static void write_controller(buffer *strings, buffer *objects, const struct kf_controller *c)
{
    kfb_controller r = {put_string(strings, c->name), f64(c->speed),      f64(c->weight),
                        f64(c->active_start),         f64(c->active_end), f64(c->ref_world),
                        f64(c->ref_sequence)};
    put_object(objects, KFB_OBJECT_CONTROLLER, &r, KFB_WORDS(r));
}

static void write_target(buffer *strings, buffer *objects, const kf_target *t)
{
    kfb_target r = {put_string(strings, t->name),
                    t->property | (t->blend == KF_BLEND_LATEST ? KFB_TARGET_LATEST : 0),
                    t->components};
    put_object(objects, KFB_OBJECT_TARGET, &r, KFB_WORDS(r));
}

/* Version 1's record holds the cycle as f32 (kf_write_objects checks that
 * it holds it). */
static void write_track(buffer *objects, const kf_track *t, int encoded)
{
    const uint32_t controller = t->controller == KF_NO_INDEX ? KFB_NONE : t->controller;
    const uint32_t ease = t->ease == KF_NO_INDEX ? KFB_NONE : t->ease;
    if (!encoded) {
        kfb_track_f32 r = {t->animator_kind,         t->animator, controller, t->target,
                           (float)t->cycle_interval, t->loop,     ease};
        put_object(objects, KFB_OBJECT_TRACK, &r, KFB_WORDS(r));
        return;
    }
    kfb_track r = {t->animator_kind,       t->animator, controller, t->target,
                   f64(t->cycle_interval), t->loop,     ease};
    put_object(objects, KFB_OBJECT_TRACK, &r, KFB_WORDS(r));
}

/* ---- objects ------------------------------------------------------------- */

/* Every record, kind by kind (the reader reads tracks last whatever the
 * order; writing them last keeps the section in one reading order). The
 * sequences that start in DATA's first `held` bytes, which a packer laid
 * out already, get only their room; returns the bytes they take, which
 * must be `held`, or every byte of DATA is written. `stored`: DATA goes
 * uncompressed, its arrays of float bits as rows (for_array). */
static size_t write_objects(const kf_objects *o, buffer *strings, buffer *objects, buffer *data,
                            times_table *times, int encoded, int stored, uint64_t held)
{
    size_t roomed = 0;
    for (uint32_t i = 0; i < o->count[KF_KIND_SEQUENCE]; i++) {
        const int room = data->size < held;
        write_sequence(strings, objects, data, o, i, times, (array_mode){encoded, room, stored, 0});
        roomed = room ? data->size : roomed;
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_INTERPOLATOR]; i++)
        write_interpolator(strings, objects, data, &o->interpolators[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_FOLLOWER]; i++)
        write_follower(strings, objects, data, &o->followers[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_CONTROLLER]; i++)
        write_controller(strings, objects, &o->controllers[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++)
        write_target(strings, objects, &o->targets[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++)
        write_track(objects, &o->tracks[i], encoded);
    return roomed;
}

static int compare_u64(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The loader refuses a file that loading, or a player of it, would take
 * more memory for than kf.h's bounds allow; the writer refuses to write
 * one, measuring with the loader's own accounting (kf_load_peak, the
 * playback layout's kf_layout_measure) and the player's. `times_at`: each
 * sequence's key times offset in DATA, which tells the layout which
 * sequences share them, as a loaded file's addresses do. */
static kf_result check_bounds(const kf_allocator *a, const kf_objects *o,
                              const buffer raw[KFB_SECTION_COUNT], const uint32_t *times_at,
                              uint64_t file_size, uint32_t major, kf_error *error)
{
    kf_anim_layout layout;
    size_t bytes;
    uint64_t computed = 0; /* at load, in the loaded anim's own room */
    for (uint32_t i = 0; i < o->count[KF_KIND_SEQUENCE]; i++) {
        const struct kf_sequence *s = &o->sequences[i];
        computed += kfb_sequence_computed_floats(s->interpolation, s->valid_count, s->components);
    }
    const size_t file_bytes = (size_t)file_size;
    if (computed > SIZE_MAX / 4 ||
        !kf_anim_layout_of(o->count, raw[KFB_SECTION_DATA].size, raw[KFB_SECTION_STRINGS].size,
                           (size_t)computed, &layout))
        return kf_fail(error, KF_ERROR_TOO_LARGE, "the animation is too large");
    if (kf_objects_player_size(o, file_bytes, &bytes) != KF_OK)
        return kf_fail(error, KF_ERROR_LIMIT,
                       "a player of this animation would need more than %u x its %zu-byte file "
                       "+ %zu bytes (targets x components, or follower tracks, out of "
                       "proportion to the data)",
                       (unsigned)KF_PLAYER_BYTES_PER_FILE_BYTE, file_bytes,
                       (size_t)KF_PLAYER_FIXED_BYTES);
    /* The layout of the sequences as the loader sees them: their floats as
     * it decodes them (a loaded animation's lanes as arrays of their own,
     * which the layout's choices read), and equal key times at one
     * address, the first of their sequences' (a HERMITE lane's segments
     * read the times too, kf_layout.c). */
    const uint32_t n = o->count[KF_KIND_SEQUENCE];
    kf_objects seen = *o;
    size_t room_floats = 0;
    for (uint32_t i = 0; i < n; i++)
        if (o->sequences[i].row)
            room_floats += plain_floats(&o->sequences[i]);
    struct kf_sequence *seq = n ? kf_alloc(a, (size_t)n * sizeof *seq) : NULL;
    uint64_t *by_offset = n ? kf_alloc(a, (size_t)n * sizeof *by_offset) : NULL;
    float *room = room_floats ? kf_alloc(a, room_floats * sizeof *room) : NULL;
    if ((n && (!seq || !by_offset)) || (room_floats && !room)) {
        kf_free(a, seq, (size_t)n * sizeof *seq);
        kf_free(a, by_offset, (size_t)n * sizeof *by_offset);
        kf_free(a, room, room_floats * sizeof *room);
        return kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct kf_sequence *s = &o->sequences[i];
        seq[i] = s->row ? unblocked(s, room + at) : *s;
        at += s->row ? plain_floats(s) : 0;
        by_offset[i] = (uint64_t)times_at[i] << 32 | i;
    }
    if (n)
        qsort(by_offset, n, sizeof *by_offset, compare_u64);
    for (uint32_t k = 1; k < n; k++)
        if (by_offset[k] >> 32 == by_offset[k - 1] >> 32)
            seq[(uint32_t)by_offset[k]].times = seq[(uint32_t)by_offset[k - 1]].times;
    seen.sequences = seq;
    size_t need = 0;
    const kf_result r = kf_layout_measure(&seen, a, &need);
    kf_free(a, seq, (size_t)n * sizeof *seq);
    kf_free(a, by_offset, (size_t)n * sizeof *by_offset);
    kf_free(a, room, room_floats * sizeof *room);
    if (r != KF_OK)
        return kf_fail(error, r, "the animation is too large");
    const size_t peak = kf_load_peak(o->count, raw[KFB_SECTION_OBJECTS].size, &layout,
                                     raw[KFB_SECTION_DATA].size, major != 1);
    const size_t before = layout.total > SIZE_MAX - layout.scratch_total
                              ? SIZE_MAX
                              : layout.total + layout.scratch_total;
    const size_t building = before > SIZE_MAX - need ? SIZE_MAX : before + need;
    if ((peak > building ? peak : building) > kf_load_budget(file_bytes))
        return kf_fail(error, KF_ERROR_LIMIT,
                       "loading this animation would take more than %u x its %zu-byte file + %zu "
                       "bytes (data out of proportion to the file: a wide animator played "
                       "alone, or little but zeros)",
                       (unsigned)KF_LOAD_BYTES_PER_FILE_BYTE, file_bytes,
                       (size_t)KF_LOAD_FIXED_BYTES);
    return KF_OK;
}

/* ---- the file ------------------------------------------------------------ */

kf_result kf_write_objects(const kf_allocator *allocator, const kf_objects *o, int compression,
                           uint32_t major, const kf_data_packer *packer, kf_write_fn write,
                           void *user, kf_error *error)
{
    const kf_allocator a = *allocator;
    const int stored = compression == 0;
    if (compression == KF_WRITE_STORED_ENCODED)
        compression = 0;
    buffer raw[KFB_SECTION_COUNT], packed[KFB_SECTION_COUNT];
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        raw[i] = (buffer){&a, NULL, 0, 0, 0};
        packed[i] = (buffer){&a, NULL, 0, 0, 0};
    }
    kf_result result = KF_OK;
    for (uint32_t i = 0; major == 1 && i < o->count[KF_KIND_TRACK]; i++) {
        const double cycle = o->tracks[i].cycle_interval;
        if (cycle != 0 && !((float)cycle > 0 && isfinite((float)cycle))) {
            kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_CYCLE_INTERVAL, KF_NO_INDEX,
                       "track %u: cycleInterval %g is outside the float32 range of a version 1 "
                       "file",
                       (unsigned)i, cycle);
            if (error)
                error->object = i;
            return KF_ERROR_VALUE;
        }
    }
    for (uint32_t i = 0; major == 1 && i < o->count[KF_KIND_TARGET]; i++)
        if (o->targets[i].blend == KF_BLEND_LATEST)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_BLEND, KF_NO_INDEX,
                              "target %s blends latest, which a version 1 file cannot say",
                              KF_QUOTED(o->targets[i].name));
    const uint32_t sequences = o->count[KF_KIND_SEQUENCE];
    if (sequences > (1u << 29))
        return kf_fail(error, KF_ERROR_TOO_LARGE, "%u sequences", (unsigned)sequences);
    uint32_t capacity = 16;
    while (capacity < 2 * (uint64_t)sequences)
        capacity *= 2;
    times_table times = {kf_calloc(&a, sequences + 1, sizeof(uint32_t)),
                         kf_calloc(&a, capacity, sizeof(uint32_t)),
                         capacity - 1,
                         {0, 0}};
    if (!times.at || !times.slots) {
        kf_free(&a, times.slots, capacity * sizeof(uint32_t));
        result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    kf_hash_key_draw(times.key, times.slots, &times);
    /* The sequences' arrays are nearly all of DATA: room for them up front
     * saves copying megabytes as the buffer doubles. */
    uint64_t data_bytes = 0;
    for (uint32_t i = 0; i < sequences; i++) {
        const struct kf_sequence *s = &o->sequences[i];
        data_bytes +=
            4 * ((uint64_t)s->key_count * (1 + (uint64_t)s->components + (s->tcb ? 3 : 0) +
                                           (s->key_tangents ? 2 * (uint64_t)s->components : 0)) +
                 kfb_sequence_derived_floats(s->interpolation, s->valid_count, s->components) +
                 (s->arc_length ? kfb_arc_length_floats(s->repeat, s->valid_count) : 0));
    }
    /* What a packer laid out already (the compress-ahead worker: every
     * sequence, encoded as here, while the source was read) is not encoded
     * again: only its room is written, and should its stream not be what
     * goes out after all, everything is written again without it. */
    uint64_t held = packer && compression > 0 && major != 1 && packer->laid_out
                        ? packer->laid_out(packer->user, compression)
                        : 0;
    packed_sections sections;
    for (;;) {
        for (int i = 0; i < KFB_SECTION_COUNT; i++) {
            raw[i].size = packed[i].size = 0;
            raw[i].failed = packed[i].failed = 0;
        }
        memset(times.slots, 0, capacity * sizeof(uint32_t));
        if (data_bytes && data_bytes <= UINT32_MAX &&
            kf_bytes_grow(&raw[KFB_SECTION_DATA], (size_t)data_bytes))
            raw[KFB_SECTION_DATA].size = 0;
        const size_t roomed =
            write_objects(o, &raw[KFB_SECTION_STRINGS], &raw[KFB_SECTION_OBJECTS],
                          &raw[KFB_SECTION_DATA], &times, major != 1, stored, held);
        /* Stored, the names end on a word, so that DATA's floats lie at file
         * offsets of whole words: a reader reading them where they lie finds
         * them aligned in memory aligned as floats (rows, formats/kfb.md). */
        while (stored && major != 1 && raw[KFB_SECTION_STRINGS].size % 4)
            put_bytes(&raw[KFB_SECTION_STRINGS], "", 1);
        sections = (packed_sections){0};
        if (held && roomed != held) {
            held = 0; /* not the sequences' bytes: the packer laid out another file */
            packer = NULL;
            continue;
        }
        if ((result = pack_sections(&a, raw, packed, compression, major, packer, held, &sections,
                                    error)) != KF_OK)
            break;
        if (!sections.unwritten)
            break;
        held = 0;
        packer = NULL;
    }
    kf_free(&a, times.slots, capacity * sizeof(uint32_t));
    if (result != KF_OK ||
        (result = check_bounds(&a, o, raw, times.at, sections.file_size, major, error)) != KF_OK)
        goto done;

    /* Header and sections go out in file order through one small buffer. */
    buffer out = {&a, NULL, 0, 0, 0};
    write_header(&out, (uint32_t)sections.file_size, major);
    int failed = out.failed || write(user, out.data, out.size) != 0;
    if (!failed)
        failed = write_sections(&out, &sections, write, user);
    if (out.failed)
        result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
    else if (failed)
        result = kf_fail(error, KF_ERROR_IO, "writing the output failed");
    kf_bytes_free(&out);

done:
    kf_free(&a, times.at, (sequences + 1) * sizeof(uint32_t));
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        kf_bytes_free(&raw[i]);
        kf_bytes_free(&packed[i]);
    }
    return result;
}
