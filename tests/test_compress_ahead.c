/* SPDX-License-Identifier: MIT */
/*
 * test_compress_ahead.c - kf_builder_compress_ahead changes when deflate
 * runs, never what it writes: with it, a file is byte for byte the file
 * written without it, at the same level, at another level, encoded twice,
 * and with sequences added after encoding; and it loads. Both deflate the
 * DATA section as the pieces an independent reading of format 2.3's rule
 * gives (zero runs left out), for float keys and for keys on a grid. The
 * writer does not lay out again what a packer laid out (only its room),
 * and writes the whole section where the packer's stream does not go out.
 */
#include <math.h>
#include <stdlib.h>

#include "kf_offline.h"
#include "kf_test.h"
#include "kf_write.h"
#include "kfb_craft.h"
#include "test_util.h"

static test_bytes encode(const kf_builder *b, int level)
{
    test_bytes out = {0};
    kf_encode_options o = {sizeof o, level, 0};
    CHECK(kf_builder_encode(b, &o, test_bytes_write, &out, NULL) == KF_OK, "encode at %d", level);
    return out;
}

static void same(const test_bytes *a, const test_bytes *b, const char *what)
{
    CHECK(a->size == b->size && memcmp(a->data, b->data, a->size) == 0, "%s: %zu vs %zu bytes",
          what, a->size, b->size);
}

/* A builder with many sequences, so the worker has real work. */
static kf_builder *keyed_builder(int ahead_level, uint32_t sequences, int grid)
{
    kf_builder *b = test_rich_builder();
    if (ahead_level)
        CHECK(kf_builder_compress_ahead(b, ahead_level) == KF_OK, "compress ahead");
    double times[40], values[120];
    for (uint32_t i = 0; i < sequences; i++) {
        for (int k = 0; k < 40; k++) {
            times[k] = 25.0 * k + (grid || i % 3 == 0 ? 0 : i % 7); /* some key times shared */
            for (int c = 0; c < 3; c++)
                values[3 * k + c] =
                    grid ? nearbyint(
                               (900 + (i * 53 + c * 29) % 700) *
                               sin(0.04 * k * (1 + (i * 37 + c * 11) % 17 / 8.0) + 1.3 * i + c)) /
                               64
                         : (double)((i * 7919u + (unsigned)k * 104729u + (unsigned)c) % 1000) / 7;
        }
        char name[32];
        snprintf(name, sizeof name, "extra%u", (unsigned)i);
        kf_sequence_desc d = {name,
                              i & 1 && !grid ? KF_INTERPOLATION_SPLINE : KF_INTERPOLATION_LINEAR,
                              KF_REPEAT_LOOP,
                              1000,
                              3,
                              40,
                              times,
                              values,
                              0,
                              39,
                              NULL,
                              0,
                              NULL};
        kf_error e;
        CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "add %u: %s", (unsigned)i, e.message);
    }
    return b;
}

static kf_builder *big_builder(int ahead_level, uint32_t sequences)
{
    return keyed_builder(ahead_level, sequences, 0);
}

/* The 2.3 stream of a raw DATA section (kfb_format.h, KFB_ZERO_RUN_WORDS),
 * written out word by word as the rule says: runs of 16 zero words and
 * more left out, a piece closed at 16384 words. Returns its size in `out`
 * (room for 3 bytes per raw byte, plus 8). */
static size_t pieces_of(const unsigned char *raw, size_t size, unsigned char *out)
{
    size_t n = 0, literal = 0, start = 0, zeros = 0;
    const size_t words = size / 4;
    /* A piece: its header at `start`, `literal` words after it. */
#define CLOSE(z)                                                                                   \
    do {                                                                                           \
        craft_put(out + start, (uint32_t)literal);                                                 \
        craft_put(out + start + 4, (uint32_t)(z));                                                 \
        start = n;                                                                                 \
        n += 8;                                                                                    \
        literal = 0;                                                                               \
    } while (0)
#define PUT(p)                                                                                     \
    do {                                                                                           \
        memcpy(out + n, (p), 4);                                                                   \
        n += 4;                                                                                    \
        if (++literal == KFB_PIECE_WORDS)                                                          \
            CLOSE(0);                                                                              \
    } while (0)
    static const unsigned char zero[4] = {0, 0, 0, 0};
    n = 8;
    for (size_t i = 0; i <= words; i++) {
        if (i < words && memcmp(raw + 4 * i, zero, 4) == 0) {
            zeros++;
            continue;
        }
        if (zeros >= KFB_ZERO_RUN_WORDS) {
            CLOSE(zeros);
        } else {
            for (; zeros; zeros--)
                PUT(zero);
        }
        zeros = 0;
        if (i < words)
            PUT(raw + 4 * i);
    }
    if (literal)
        CLOSE(0);
    return start; /* the header opened last holds nothing */
#undef PUT
#undef CLOSE
}

/* The DATA section's stored bytes in `zipped`, and what zlib's default
 * strategy makes of the section's 2.3 stream (from the stored file), at
 * level 6 with the window and memory level formats/kfb.md names. */
static void data_sizes(const test_bytes *zipped, const test_bytes *stored, size_t *chosen,
                       size_t *by_default)
{
    craft_section z[3] = {{0}}, r[3] = {{0}};
    *chosen = *by_default = 0;
    CHECK(craft_sections(zipped->data, zipped->size, z) &&
              craft_sections(stored->data, stored->size, r),
          "sections");
    *chosen = z[KFB_SECTION_DATA].stored_size;
    const size_t raw_size = r[KFB_SECTION_DATA].stored_size;
    unsigned char *stream = malloc(3 * raw_size + 8);
    const size_t stream_size =
        stream ? pieces_of(stored->data + r[KFB_SECTION_DATA].stored, raw_size, stream) : 0;
    uLongf size = compressBound(stream_size);
    unsigned char *out = malloc(size);
    z_stream s;
    memset(&s, 0, sizeof s);
    if (stream && out && deflateInit2(&s, 6, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY) == Z_OK) {
        s.next_in = stream;
        s.avail_in = (uInt)stream_size;
        s.next_out = out;
        s.avail_out = (uInt)size;
        if (deflate(&s, Z_FINISH) == Z_STREAM_END)
            *by_default = s.total_out;
        deflateEnd(&s);
    }
    free(out);
    free(stream);
}

static void strategies(void)
{
    for (int grid = 0; grid < 2; grid++) {
        kf_builder *plain = keyed_builder(0, 200, grid), *ahead = keyed_builder(6, 200, grid);
        test_bytes want = encode(plain, 6), got = encode(ahead, 6), stored = {0};
        /* the section as a compressed one holds it: its arrays encoded */
        const kf_allocator a = kf_allocator_or_default(NULL);
        CHECK(kf_write_objects(&a, &plain->objects, KF_WRITE_STORED_ENCODED, KFB_VERSION_MAJOR,
                               NULL, test_bytes_write, &stored, NULL) == KF_OK,
              "stored, encoded");
        same(&want, &got, grid ? "grid keys, ahead" : "float keys, ahead");
        /* The stream an independent reading of the rule gives, deflated
         * by zlib alone: the writer's, to the byte count. */
        size_t chosen, by_default;
        data_sizes(&got, &stored, &chosen, &by_default);
        CHECK(chosen == by_default, "%s: DATA %zu bytes, %zu from the pieces of the section",
              grid ? "grid keys" : "float keys", chosen, by_default);
        free(want.data);
        free(got.data);
        free(stored.data);
        kf_builder_destroy(plain);
        kf_builder_destroy(ahead);
    }
}

/* Fresh memory holds this byte, so that a test can tell bytes written. */
#define FRESH 0xA5

static void *fresh_alloc(void *user, size_t size)
{
    (void)user;
    void *p = malloc(size);
    if (p)
        memset(p, FRESH, size);
    return p;
}

static void fresh_free(void *user, void *p, size_t size)
{
    (void)user, (void)size;
    free(p);
}

/* A packer that says it laid out DATA's first `held` bytes, and records
 * whether the writer left them as the allocator gave them; it then fails
 * (as a packer whose stream would not shrink the section does). */
typedef struct fake_packer {
    uint64_t held;
    int packs, untouched;
} fake_packer;

static uint64_t fake_laid_out(void *user, int level)
{
    (void)level;
    return ((const fake_packer *)user)->held;
}

static int fake_pack(void *user, int level, const kf_bytes *raw, kf_bytes *packed,
                     uint32_t *packed_crc)
{
    (void)level, (void)packed, (void)packed_crc;
    fake_packer *f = user;
    f->packs++;
    f->untouched = raw->size >= f->held;
    for (uint64_t i = 0; f->untouched && i < f->held; i++)
        f->untouched = raw->data[i] == FRESH;
    return 0;
}

static test_bytes write_with(const kf_builder *b, const kf_allocator *a, fake_packer *f)
{
    test_bytes out = {0};
    const kf_data_packer packer = {fake_pack, fake_laid_out, f};
    CHECK(kf_write_objects(a, &b->objects, 6, KFB_VERSION_MAJOR, f ? &packer : NULL,
                           test_bytes_write, &out, NULL) == KF_OK,
          "write");
    return out;
}

/* The bytes sequence 0 takes at the start of DATA: its key times, then its
 * arrays (kf_write_sequence_data). */
static uint64_t first_sequence_bytes(const kf_builder *b)
{
    kf_allocator a = {fresh_alloc, fresh_free, NULL};
    kf_bytes data = {&a, NULL, 0, 0, 0};
    const struct kf_sequence *s = &b->objects.sequences[0];
    kfb_sequence record = {0};
    kf_write_floats(&data, s->times, s->key_count);
    kf_write_sequence_data(&data, s, &record, 1);
    const uint64_t size = data.failed ? 0 : data.size;
    kf_bytes_free(&data);
    return size;
}

static void packer_room(void)
{
    kf_builder *b = keyed_builder(0, 40, 0);
    const kf_allocator a = {fresh_alloc, fresh_free, NULL};
    test_bytes want = write_with(b, &a, NULL);
    const uint64_t first = first_sequence_bytes(b);
    CHECK(first > 0, "sequence 0 takes %llu bytes", (unsigned long long)first);

    /* What the packer laid out is only room; its stream failing, the
     * writer writes everything, and the file is the same. */
    fake_packer f = {first, 0, 0};
    test_bytes got = write_with(b, &a, &f);
    CHECK(f.packs == 1 && f.untouched, "the %llu bytes held left as room (%d packs, %s)",
          (unsigned long long)first, f.packs, f.untouched ? "untouched" : "written");
    same(&want, &got, "a packer's room, then its stream failing");
    free(got.data);

    /* A packer whose layout ends inside a sequence laid out another file:
     * the writer does not use it. */
    fake_packer g = {first + 4, 0, 0};
    got = write_with(b, &a, &g);
    CHECK(g.packs == 0, "a packer ending inside a sequence is not used (%d packs)", g.packs);
    same(&want, &got, "a packer ending inside a sequence");
    free(got.data);
    free(want.data);
    kf_builder_destroy(b);
}

int main(void)
{
    strategies();
    packer_room();
    /* An empty animation: the worker saw nothing and the DATA section has no
     * buffer (found by fuzz_builder: an offset into a null pointer). */
    {
        kf_builder *empty, *plain;
        kf_builder_create(NULL, &empty);
        kf_builder_create(NULL, &plain);
        CHECK(kf_builder_compress_ahead(empty, 1) == KF_OK, "compress ahead, empty");
        test_bytes want = encode(plain, 1), got = encode(empty, 1);
        same(&want, &got, "empty, ahead");
        free(want.data);
        free(got.data);
        kf_builder_destroy(empty);
        kf_builder_destroy(plain);
    }
    for (int level = 1; level <= 9; level += 4) {
        kf_builder *plain = big_builder(0, 300), *ahead = big_builder(level, 300);
        test_bytes want = encode(plain, level), got = encode(ahead, level);
        same(&want, &got, "ahead at the encoding level");
        kf_anim *anim = NULL;
        CHECK(kf_load_memory(got.data, got.size, NULL, &anim, NULL) == KF_OK, "loads");
        kf_anim_free(anim);

        /* Encoding again, and at other levels, falls back to the same bytes. */
        test_bytes again = encode(ahead, level);
        same(&want, &again, "encoded twice");
        test_bytes other_want = encode(plain, 10 - level), other = encode(ahead, 10 - level);
        same(&other_want, &other, "another level");
        test_bytes stored_want = encode(plain, 0), stored = encode(ahead, 0);
        same(&stored_want, &stored, "stored");
        free(want.data);
        free(got.data);
        free(again.data);
        free(other_want.data);
        free(other.data);
        free(stored_want.data);
        free(stored.data);
        kf_builder_destroy(plain);
        kf_builder_destroy(ahead);
    }

    /* Started after some sequences, and fed more after an encoding. */
    kf_builder *plain = big_builder(0, 50), *late = big_builder(0, 50);
    CHECK(kf_builder_compress_ahead(late, 6) == KF_OK, "late start");
    test_bytes want = encode(plain, 6), got = encode(late, 6);
    same(&want, &got, "started late");
    static const double t2[2] = {0, 10}, v2[2] = {1, 2};
    kf_sequence_desc d = {
        "after", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 10, 1, 2, t2, v2, 0, 1, NULL, 0,
        NULL};
    CHECK(kf_builder_add_sequence(plain, &d, NULL) == KF_OK &&
              kf_builder_add_sequence(late, &d, NULL) == KF_OK,
          "add after encoding");
    free(want.data);
    free(got.data);
    want = encode(plain, 6);
    got = encode(late, 6);
    same(&want, &got, "a sequence added after encoding");
    free(want.data);
    free(got.data);
    kf_builder_destroy(plain);
    kf_builder_destroy(late);

    /* Destroyed while the worker may still be busy. */
    kf_builder *busy = big_builder(9, 200);
    kf_builder_destroy(busy);

    CHECK(kf_builder_compress_ahead(NULL, 1) == KF_ERROR_ARGUMENT, "NULL builder");
    kf_builder *b = test_rich_builder();
    CHECK(kf_builder_compress_ahead(b, 0) == KF_ERROR_ARGUMENT, "level 0");
    CHECK(kf_builder_compress_ahead(b, 10) == KF_ERROR_ARGUMENT, "level 10");
    kf_builder_destroy(b);
    return kf_test_report("test_compress_ahead");
}
