/* SPDX-License-Identifier: MIT */
/*
 * test_read_pieces.c - format 2.3's zero runs (formats/kfb.md, "Zero
 * runs"): a compressed DATA section's stream holds pieces (L words of the
 * section, then Z zero words it leaves out). Streams written here by hand,
 * from an uncompressed file's section, load to the same objects whatever
 * their pieces (one, many, every zero run left out or none); streams whose
 * pieces do not tile the section exactly are refused with KF_ERROR_INFLATE,
 * as are streams that end early or go on; the writer's own files carry
 * fewer bytes than the section and load to the same objects.
 */
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
 * stream of `pieces`; header and section sizes and CRCs made consistent. */
static test_bytes with_stream(const test_bytes *plain, const stream *pieces)
{
    craft_section s[3];
    test_bytes out = {0};
    CHECK(craft_sections(plain->data, plain->size, s), "sections");
    uLongf zsize = compressBound(pieces->size);
    unsigned char *z = malloc(zsize);
    CHECK(z && compress2(z, &zsize, pieces->data, pieces->size, 6) == Z_OK, "deflate");
    const size_t head = s[KFB_SECTION_DATA].stored; /* everything before DATA's bytes */
    out.size = head + zsize + KFB_SECTION_CRC_SIZE;
    out.data = malloc(out.size);
    memcpy(out.data, plain->data, head);
    memcpy(out.data + head, z, zsize);
    craft_put(out.data + s[KFB_SECTION_DATA].header + 4, KFB_COMPRESSION_ZLIB);
    craft_put(out.data + s[KFB_SECTION_DATA].header + 8, (uint32_t)zsize);
    craft_put(out.data + KFB_IDENTIFIER_SIZE + 16, (uint32_t)out.size);
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
    *r = kf_load_memory(bytes->data, bytes->size, NULL, &anim, &e);
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

static void check_refused(const test_bytes *plain, const stream *pieces, const char *what)
{
    test_bytes bad = with_stream(plain, pieces);
    kf_anim *anim = NULL;
    kf_error e;
    const kf_result r = kf_load_memory(bad.data, bad.size, NULL, &anim, &e);
    CHECK(r == KF_ERROR_INFLATE && anim == NULL, "%s: refused (%s: %s)", what, kf_result_name(r),
          r == KF_OK ? "" : e.message);
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

    /* One piece of every word. */
    stream one = {0};
    put_piece(&one, words, 0, raw);
    test_bytes f = with_stream(&plain, &one);
    CHECK(loads_as(&f, &plain, &r), "one piece");
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
    f = with_stream(&plain, &many);
    CHECK(loads_as(&f, &plain, &r), "a piece per word, %u zeros left out", (unsigned)left_out);
    free(f.data);

    /* Pieces that do not tile the section. */
    stream bad = {0};
    put_piece(&bad, 0, 0, raw);
    put_piece(&bad, words, 0, raw);
    check_refused(&plain, &bad, "a piece of nothing");
    bad.size = 0;
    put_piece(&bad, words - 1, 2, raw);
    check_refused(&plain, &bad, "zeros past the end");
    bad.size = 0;
    put_piece(&bad, 2, 0, raw);
    put_piece(&bad, 0, UINT32_MAX, raw);
    check_refused(&plain, &bad, "a run of 2^32 - 1 zero words");
    bad.size = 0;
    put_piece(&bad, 1, 0, raw);
    put_piece(&bad, words - 1, 0, raw + 4);
    craft_put(bad.data + 12, UINT32_MAX); /* the words there are, claiming more */
    check_refused(&plain, &bad, "a piece of 2^32 - 1 words");
    bad.size = 0;
    put_piece(&bad, words - 1, 0, raw);
    check_refused(&plain, &bad, "pieces that end a word short");
    bad.size = 0;
    put_piece(&bad, words, 0, raw);
    bad.size -= 4;
    check_refused(&plain, &bad, "a stream that ends inside a piece's words");
    bad.size = 0;
    put_piece(&bad, words - 1, 0, raw);
    bad.size += 4; /* half a header */
    check_refused(&plain, &bad, "a stream that ends inside a piece's header");
    bad.size = 0;
    put_piece(&bad, words, 0, raw);
    put_piece(&bad, 1, 0, raw);
    check_refused(&plain, &bad, "a piece after the section is whole");
    bad.size = 0;
    put_piece(&bad, words, 0, raw);
    put(&bad, "x", 1);
    check_refused(&plain, &bad, "a byte after the last piece");

    free(one.data);
    free(many.data);
    free(bad.data);
    free(plain.data);
    free(zipped.data);
    kf_builder_destroy(b);
    return kf_test_report("test_read_pieces");
}
