/* SPDX-License-Identifier: MIT */
/*
 * test_read_pieces.c - format 2.3's zero runs (formats/kfb.md, "Zero
 * runs"): a compressed DATA section's stream holds pieces (L words of the
 * section, then Z zero words it leaves out). Streams written here by hand,
 * from an uncompressed file's section, load to the same objects whatever
 * their pieces (one, many, every zero run left out or none), arrays of
 * rows (2.5) among them; streams whose
 * pieces do not tile the section exactly are refused with KF_ERROR_INFLATE,
 * as are streams that end early or go on; the writer's own files carry
 * fewer bytes than the section and load to the same objects. Format 2.4's
 * runs (the pieces stored as they are, nothing deflated) load and are
 * refused alike, only in DATA and only from 2.4 on, and within the ratio a
 * zlib stream has. Every load goes through memory filled with garbage: the
 * reader writes a long run's zeros only where an array reads them, and
 * reads a quantized column's zero high planes as zeros without writing
 * them, so a run it forgot would show.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kf_private.h"
#include "kf_test.h"
#include "kf_write.h"
#include "kfb_craft.h"
#include "test_util.h"

static test_bytes encode(const kf_builder *b, int compression)
{
    test_bytes out = {0};
    kf_encode_options o = {sizeof o, compression, 0};
    CHECK(kf_builder_encode(b, &o, test_bytes_write, &out, NULL) == KF_OK, "encode at %d",
          compression);
    return out;
}

/* A growable stream of words, file order. */
typedef struct stream {
    unsigned char *data;
    size_t size, capacity;
} stream;

static void put(stream *s, const void *bytes, size_t n)
{
    if (s->size + n > s->capacity) {
        s->capacity = 2 * (s->size + n) + 64;
        s->data = realloc(s->data, s->capacity);
        if (!s->data)
            abort();
    }
    if (n)
        memcpy(s->data + s->size, bytes, n);
    s->size += n;
}

static void put_piece(stream *s, uint32_t words, uint32_t zeros, const unsigned char *from)
{
    unsigned char h[8];
    craft_put(h, words);
    craft_put(h + 4, zeros);
    put(s, h, 8);
    put(s, from, 4 * (size_t)words);
}

/* `plain` (an uncompressed file) with its DATA section replaced by the zlib
 * stream of `pieces`, or with `runs`, by the pieces themselves (2.4's
 * KFB_COMPRESSION_RUNS); header and section sizes and CRCs made
 * consistent. */
static test_bytes with_stream(const test_bytes *plain, const stream *pieces, int runs)
{
    craft_section s[3];
    test_bytes out = {0};
    CHECK(craft_sections(plain->data, plain->size, s), "sections");
    uLongf zsize = runs ? pieces->size : compressBound(pieces->size);
    unsigned char *z = malloc(zsize ? zsize : 1);
    if (runs && z && zsize)
        memcpy(z, pieces->data, zsize);
    CHECK(z && (runs || compress2(z, &zsize, pieces->data, pieces->size, 6) == Z_OK), "deflate");
    const size_t head = s[KFB_SECTION_DATA].stored; /* everything before DATA's bytes */
    out.size = head + zsize + KFB_SECTION_CRC_SIZE;
    out.data = malloc(out.size);
    memcpy(out.data, plain->data, head);
    memcpy(out.data + head, z, zsize);
    craft_put(out.data + s[KFB_SECTION_DATA].header + 4,
              runs ? KFB_COMPRESSION_RUNS : KFB_COMPRESSION_ZLIB);
    craft_put(out.data + s[KFB_SECTION_DATA].header + 8, (uint32_t)zsize);
    craft_put(out.data + KFB_HEADER_AT(file_size), (uint32_t)out.size);
    craft_fix_crcs(out.data, out.size);
    free(z);
    return out;
}

/* The objects of `bytes` written again uncompressed: equal to `plain`
 * when the two load to the same objects. */
static int loads_as(const test_bytes *bytes, const test_bytes *plain, kf_result *r)
{
    kf_anim *anim = NULL;
    kf_error e;
    test_counter garbage = {0};
    garbage.fill = 0xA5;
    const kf_allocator filling = test_counting_allocator(&garbage);
    const kf_load_options options = {sizeof options, &filling, 0};
    *r = kf_load_memory(bytes->data, bytes->size, &options, &anim, &e);
    if (*r != KF_OK) {
        printf("  load: %s\n", e.message);
        return 0;
    }
    test_bytes again = {0};
    const kf_allocator a = kf_allocator_or_default(NULL);
    const int same = kf_write_objects(&a, &anim->objects, 0, KFB_VERSION_MAJOR, NULL,
                                      test_bytes_write, &again, NULL) == KF_OK &&
                     again.size == plain->size && memcmp(again.data, plain->data, plain->size) == 0;
    free(again.data);
    kf_anim_free(anim);
    return same;
}

/* A LINEAR sequence of 256 keys whose three columns are constant. */
static kf_builder *still_builder(void)
{
    static double times[256], values[256 * 3];
    for (int k = 0; k < 256; k++) {
        times[k] = k / 30.0;
        for (int m = 0; m < 3; m++)
            values[3 * k + m] = 1.5 + m;
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    CHECK(test_add_linear3(b, "still", 256, times, values) == KF_OK, "the still sequence");
    return b;
}

/* A LINEAR sequence of 60 keys at the origin, then 60 that wander in
 * float bits: a stored file holds its values as rows (2.5) with a run of
 * 180 zero words in them, which a compressed section's pieces leave out. */
static kf_builder *rows_builder(void)
{
    static double times[120], values[120 * 3];
    for (int k = 0; k < 120; k++) {
        times[k] = k / 30.0;
        for (int m = 0; m < 3; m++)
            values[3 * k + m] = k < 60 ? 0.0 : sin(0.3 * k + m) * (1.7 + m);
    }
    kf_builder *b;
    kf_builder_create(NULL, &b);
    CHECK(test_add_linear3(b, "wander", 120, times, values) == KF_OK, "the wandering sequence");
    return b;
}

/* The longest run of zero words the pieces of compressed file f's DATA
 * section leave out, or 0. */
static uint32_t longest_run(const test_bytes *f)
{
    craft_section s[3];
    if (!craft_sections(f->data, f->size, s))
        return 0;
    uLongf size = 64 * (uLongf)s[KFB_SECTION_DATA].stored_size + 4096;
    unsigned char *in = malloc(size);
    uint32_t most = 0;
    if (in && uncompress(in, &size, f->data + s[KFB_SECTION_DATA].stored,
                         s[KFB_SECTION_DATA].stored_size) == Z_OK)
        for (size_t at = 0; at + 8 <= size; at += 8 + 4 * (size_t)craft_get(in + at))
            most = craft_get(in + at + 4) > most ? craft_get(in + at + 4) : most;
    free(in);
    return most;
}

/* The pieces of a section of `words` words at `raw` that leave out each
 * run of at least `least` zero words. */
static stream runs_left_out(const unsigned char *raw, uint32_t words, uint32_t least)
{
    stream s = {0};
    uint32_t start = 0; /* of the words still to put */
    for (uint32_t i = 0; i < words;) {
        uint32_t j = i;
        while (j < words && craft_get(raw + 4 * (size_t)j) == 0)
            j++;
        if (j - i >= least && j > i) {
            put_piece(&s, i - start, j - i, raw + 4 * (size_t)start);
            start = j;
        }
        i = j > i ? j : i + 1;
    }
    if (start < words)
        put_piece(&s, words - start, 0, raw + 4 * (size_t)start);
    return s;
}

/* `plain` and its pieces leaving out every run of at least `least` zero
 * words load to the same objects; or are refused alike. */
static void check_runs_left_out(const test_bytes *plain, uint32_t least, int runs, const char *what)
{
    craft_section s[3];
    CHECK(craft_sections(plain->data, plain->size, s), "%s: sections", what);
    stream pieces = runs_left_out(plain->data + s[KFB_SECTION_DATA].stored,
                                  s[KFB_SECTION_DATA].stored_size / 4, least);
    test_bytes f = with_stream(plain, &pieces, runs);
    kf_anim *anim = NULL;
    const kf_result want = kf_load_memory(plain->data, plain->size, NULL, &anim, NULL);
    kf_anim_free(anim);
    kf_result r;
    const int same = loads_as(&f, plain, &r);
    CHECK(want == KF_OK ? same : r == want, "%s, runs of %u zero words or more left out%s: %s",
          what, (unsigned)least, runs ? " (runs)" : "", kf_result_name(r));
    free(f.data);
    free(pieces.data);
}

static void check_refused(const test_bytes *plain, const stream *pieces, int runs, const char *what)
{
    test_bytes bad = with_stream(plain, pieces, runs);
    kf_anim *anim = NULL;
    kf_error e;
    const kf_result r = kf_load_memory(bad.data, bad.size, NULL, &anim, &e);
    CHECK(r == KF_ERROR_INFLATE && anim == NULL, "%s%s: refused (%s: %s)", what,
          runs ? " (runs)" : "", kf_result_name(r), r == KF_OK ? "" : e.message);
    kf_anim_free(anim);
    free(bad.data);
}

int main(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes plain = encode(b, 0), zipped = encode(b, 9);
    craft_section s[3];
    CHECK(craft_sections(plain.data, plain.size, s), "sections of the plain file");
    const unsigned char *raw = plain.data + s[KFB_SECTION_DATA].stored;
    const uint32_t words = s[KFB_SECTION_DATA].stored_size / 4;
    CHECK(words > 64, "a data section of %u words", (unsigned)words);
    kf_result r;

    /* The writer's file: smaller than the section, the same objects. */
    craft_section z[3];
    CHECK(craft_sections(zipped.data, zipped.size, z), "sections of the compressed file");
    CHECK(craft_get(zipped.data + z[KFB_SECTION_DATA].header + 4) == KFB_COMPRESSION_ZLIB,
          "the writer compresses DATA");
    CHECK(loads_as(&zipped, &plain, &r), "the writer's pieces load as the section");

    /* The writer's runs: DATA's pieces stored, the rest stored too, here of
     * a sequence whose constant columns' planes are zeros but for a byte. */
    kf_builder *still = still_builder();
    test_bytes runs_file = encode(still, KF_COMPRESSION_RUNS), still_plain = encode(still, 0);
    kf_builder_destroy(still);
    craft_section u[3], v[3];
    CHECK(craft_sections(still_plain.data, still_plain.size, v), "sections of the stored file");
    CHECK(craft_sections(runs_file.data, runs_file.size, u), "sections of the runs file");
    CHECK(craft_get(runs_file.data + u[KFB_SECTION_DATA].header + 4) == KFB_COMPRESSION_RUNS &&
              craft_get(runs_file.data + u[KFB_SECTION_OBJECTS].header + 4) ==
                  KFB_COMPRESSION_NONE &&
              2 * u[KFB_SECTION_DATA].stored_size < v[KFB_SECTION_DATA].stored_size,
          "the writer stores DATA's pieces (%u bytes of %u)",
          (unsigned)u[KFB_SECTION_DATA].stored_size, (unsigned)v[KFB_SECTION_DATA].stored_size);
    CHECK(loads_as(&runs_file, &still_plain, &r), "the writer's runs load as the section");
    /* Runs are DATA's alone, and version 2.4's. */
    test_bytes moved = {malloc(runs_file.size), runs_file.size, runs_file.size};
    memcpy(moved.data, runs_file.data, runs_file.size);
    craft_put(moved.data + u[KFB_SECTION_OBJECTS].header + 4, KFB_COMPRESSION_RUNS);
    craft_fix_crcs(moved.data, moved.size);
    kf_anim *anim = NULL;
    r = kf_load_memory(moved.data, moved.size, NULL, &anim, NULL);
    CHECK(r == KF_ERROR_SECTION && !anim, "runs in OBJS: %s", kf_result_name(r));
    memcpy(moved.data, runs_file.data, runs_file.size);
    craft_put(moved.data + KFB_IDENTIFIER_SIZE, KFB_SINCE_RUNS - 1);
    craft_fix_crcs(moved.data, moved.size);
    r = kf_load_memory(moved.data, moved.size, NULL, &anim, NULL);
    CHECK(r == KF_ERROR_SECTION && !anim, "runs in a file of the version before: %s",
          kf_result_name(r));
    free(moved.data);
    kf_anim_free(anim);
    /* As a zlib stream's, what a run declares is held to 1032 x the
     * stored bytes: one piece of 3000 zero words (12,000 bytes from 8). */
    stream lone = {0};
    put_piece(&lone, 0, 3000, raw);
    test_bytes vast = with_stream(&plain, &lone, 1);
    craft_put(vast.data + s[KFB_SECTION_DATA].header + 12, 4 * 3000u);
    craft_fix_crcs(vast.data, vast.size);
    r = kf_load_memory(vast.data, vast.size, NULL, &anim, NULL);
    CHECK(r == KF_ERROR_SECTION && !anim, "a run past the ratio: %s", kf_result_name(r));
    free(vast.data);
    free(lone.data);
    free(runs_file.data);
    free(still_plain.data);

    /* A quantized column's zero high planes, a long run: read as zeros. The
     * same file with a byte of the planes beside the run (in the word
     * that also holds plane 1's last bytes) not zero: decoded as that. */
    kf_builder *grid = test_grid_builder();
    test_bytes grid_plain = encode(grid, 0), grid_edge = encode(grid, 0),
               grid_inner = encode(grid, 0);
    kf_builder_destroy(grid);
    enum { F_VALUES = 9, GRID_COUNT = 301 * 3 }; /* words of kfb_sequence; floats */
    craft_section g[3];
    CHECK(craft_sections(grid_plain.data, grid_plain.size, g), "sections of the grid file");
    const size_t values = craft_array(grid_plain.data, grid_plain.size, 0, F_VALUES);
    CHECK(values != 0 && (values - g[KFB_SECTION_DATA].stored + 2 * GRID_COUNT) % 4 != 0,
          "the grid's high planes begin inside a word");
    int high_zero = values != 0;
    for (size_t k = 0; high_zero && k < 2 * GRID_COUNT; k++)
        high_zero = grid_plain.data[values + 4 * 3 + 2 * GRID_COUNT + k] == 0;
    CHECK(high_zero, "the grid's high planes are zeros");
    /* And with a byte of the planes' first whole word not zero. */
    if (values) {
        const size_t from = values + 4 * 3 + 2 * GRID_COUNT, data = g[KFB_SECTION_DATA].stored;
        grid_edge.data[from] = 1;
        craft_fix_crcs(grid_edge.data, grid_edge.size);
        grid_inner.data[data + (from - data + 3) / 4 * 4] = 1;
        craft_fix_crcs(grid_inner.data, grid_inner.size);
    }

    kf_anim *edge = NULL, *inner = NULL;
    r = kf_load_memory(grid_edge.data, grid_edge.size, NULL, &edge, NULL);
    CHECK(r == KF_OK, "the grid with a high byte not zero loads: %s", kf_result_name(r));
    r = kf_load_memory(grid_inner.data, grid_inner.size, NULL, &inner, NULL);
    CHECK(r == KF_OK, "the grid with a high word not zero loads: %s", kf_result_name(r));
    kf_anim_free(edge);
    kf_anim_free(inner);

    /* Arrays whose every plane a run leaves out: taken as zeros, neither
     * written nor read (an array against another, as a copy of it). */
    kf_builder *flat = test_flat_builder();
    test_bytes flat_plain = encode(flat, 0), flat_zipped = encode(flat, 9);
    kf_builder_destroy(flat);
    CHECK(longest_run(&flat_zipped) >= 119 * 4, "a run holds a whole array (%u words)",
          (unsigned)longest_run(&flat_zipped));
    CHECK(loads_as(&flat_zipped, &flat_plain, &r), "arrays of zero planes load as the section");
    kf_anim *flat_anim = NULL;
    r = kf_load_memory(flat_zipped.data, flat_zipped.size, NULL, &flat_anim, NULL);
    const kf_sequence *at_rest =
        r == KF_OK ? kf_anim_sequence(flat_anim, kf_anim_find(flat_anim, KF_KIND_SEQUENCE, "rest"))
                   : NULL;
    float at[3] = {1, 1, 1};
    if (at_rest)
        kf_sequence_sample(at_rest, 2.5, NULL, at);
    CHECK(at_rest && at[0] == 0.0f && at[1] == 0.0f && at[2] == 0.0f,
          "the sequence at rest plays 0 0 0: %g %g %g", at[0], at[1], at[2]);
    kf_anim_free(flat_anim);
    free(flat_plain.data);
    free(flat_zipped.data);

    kf_builder *wander = rows_builder();
    test_bytes rows_plain = encode(wander, 0);
    kf_builder_destroy(wander);
    const size_t rows_at = craft_array(rows_plain.data, rows_plain.size, 0, F_VALUES);
    CHECK(rows_at && craft_get(rows_plain.data + rows_at) == KFB_COLUMN_ROWS &&
              craft_get(rows_plain.data + rows_at + 12 + 4 * 179) == 0,
          "the wandering sequence's values: rows, 180 zero words first");

    for (int runs = 0; runs < 2; runs++) {
        check_runs_left_out(&rows_plain, 64, runs, "rows");
        check_runs_left_out(&rows_plain, 1, runs, "rows");
        check_runs_left_out(&plain, 64, runs, "the rich file");
        check_runs_left_out(&plain, 1, runs, "the rich file");
        check_runs_left_out(&grid_plain, 64, runs, "the grid");
        check_runs_left_out(&grid_plain, 1000, runs, "the grid");
        check_runs_left_out(&grid_plain, 1, runs, "the grid");
        check_runs_left_out(&grid_edge, 64, runs, "the grid, a high byte not zero");
        check_runs_left_out(&grid_inner, 64, runs, "the grid, a high word not zero");

        /* One piece of every word. */
        stream one = {0};
        put_piece(&one, words, 0, raw);
        test_bytes f = with_stream(&plain, &one, runs);
        CHECK(loads_as(&f, &plain, &r), "one piece%s", runs ? " (runs)" : "");
        free(f.data);

        /* A piece per word, each zero word left out as a run of one. */
        stream many = {0};
        uint32_t left_out = 0;
        for (uint32_t i = 0; i < words; i++) {
            if (craft_get(raw + 4 * (size_t)i) == 0) {
                put_piece(&many, 0, 1, raw);
                left_out++;
            } else {
                put_piece(&many, 1, 0, raw + 4 * (size_t)i);
            }
        }
        CHECK(left_out > 0, "the section has zero words (%u)", (unsigned)left_out);
        f = with_stream(&plain, &many, runs);
        CHECK(loads_as(&f, &plain, &r), "a piece per word, %u zeros left out%s", (unsigned)left_out,
              runs ? " (runs)" : "");
        free(f.data);

        /* Pieces of 16 words, no zeros left out: a stream longer than the
         * section by their headers, each piece landing below the next
         * one's header (placed from the first, where inflated whole). */
        stream sixteens = {0};
        for (uint32_t i = 0; i < words; i += 16)
            put_piece(&sixteens, words - i < 16 ? words - i : 16, 0, raw + 4 * (size_t)i);
        f = with_stream(&plain, &sixteens, runs);
        CHECK(loads_as(&f, &plain, &r), "pieces of 16 words, nothing left out%s",
              runs ? " (runs)" : "");
        free(f.data);
        free(sixteens.data);

        /* Pieces some of which land past their headers and some before:
         * two of a word each, then the grid's pieces, its long zero runs
         * left out. */
        const unsigned char *grid_raw = grid_plain.data + g[KFB_SECTION_DATA].stored;
        const uint32_t grid_words = g[KFB_SECTION_DATA].stored_size / 4;
        stream both = {0};
        put_piece(&both, 1, 0, grid_raw);
        put_piece(&both, 1, 0, grid_raw + 4);
        stream rest = runs_left_out(grid_raw + 8, grid_words - 2, 64);
        put(&both, rest.data, rest.size);
        f = with_stream(&grid_plain, &both, runs);
        CHECK(loads_as(&f, &grid_plain, &r), "pieces of a word, then runs left out%s",
              runs ? " (runs)" : "");
        free(f.data);
        free(both.data);
        free(rest.data);

        /* Pieces that do not tile the section. */
        stream bad = {0};
        put_piece(&bad, 0, 0, raw);
        put_piece(&bad, words, 0, raw);
        check_refused(&plain, &bad, runs, "a piece of nothing");
        bad.size = 0;
        put_piece(&bad, words - 1, 2, raw);
        check_refused(&plain, &bad, runs, "zeros past the end");
        bad.size = 0;
        put_piece(&bad, 2, 0, raw);
        put_piece(&bad, 0, UINT32_MAX, raw);
        check_refused(&plain, &bad, runs, "a run of 2^32 - 1 zero words");
        bad.size = 0;
        put_piece(&bad, 1, 0, raw);
        put_piece(&bad, words - 1, 0, raw + 4);
        craft_put(bad.data + 12, UINT32_MAX); /* the words there are, claiming more */
        check_refused(&plain, &bad, runs, "a piece of 2^32 - 1 words");
        bad.size = 0;
        put_piece(&bad, words - 1, 0, raw);
        check_refused(&plain, &bad, runs, "pieces that end a word short");
        bad.size = 0;
        put_piece(&bad, words, 0, raw);
        bad.size -= 4;
        check_refused(&plain, &bad, runs, "a stream that ends inside a piece's words");
        bad.size = 0;
        put_piece(&bad, words - 1, 0, raw);
        bad.size += 4; /* half a header */
        check_refused(&plain, &bad, runs, "a stream that ends inside a piece's header");
        bad.size = 0;
        put_piece(&bad, words, 0, raw);
        put_piece(&bad, 1, 0, raw);
        check_refused(&plain, &bad, runs, "a piece after the section is whole");
        bad.size = 0;
        put_piece(&bad, words, 0, raw);
        put(&bad, "x", 1);
        check_refused(&plain, &bad, runs, "a byte after the last piece");
        free(one.data);
        free(many.data);
        free(bad.data);
    }
    free(plain.data);
    free(zipped.data);
    free(grid_plain.data);
    free(rows_plain.data);
    free(grid_edge.data);
    free(grid_inner.data);
    kf_builder_destroy(b);
    return kf_test_report("test_read_pieces");
}
