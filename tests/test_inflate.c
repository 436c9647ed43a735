/* SPDX-License-Identifier: MIT */
/*
 * test_inflate.c - kf_inflate and kf_inflate_to (runtime/kf_inflate.c),
 * whichever library the build chose, against zlib's own inflate: the same
 * bytes, the same bytes read and the same verdict, on raw deflate streams
 * of several kinds of data at every zlib level and strategy, whole and
 * through the sink, with the output a byte short, the input cut short and
 * single bits flipped.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kf_private.h"
#include "kf_test.h"

enum { MAX_RAW = 300000 };

/* zlib's verdict on raw deflate data `in` into `cap` bytes: END, FULL
 * (output filled first) or CORRUPT, with the bytes written and read. */
static kf_inflate_status reference(const unsigned char *in, size_t n, unsigned char *out,
                                   size_t cap, size_t *produced, size_t *consumed)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK)
        return KF_INFLATE_MEMORY;
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    const int s = inflate(&z, Z_FINISH);
    *produced = z.total_out;
    *consumed = z.total_in;
    inflateEnd(&z);
    if (s == Z_STREAM_END)
        return KF_INFLATE_END;
    if (s == Z_BUF_ERROR && *produced == cap)
        return KF_INFLATE_FULL;
    return KF_INFLATE_CORRUPT;
}

static size_t deflate_raw(const unsigned char *raw, size_t n, int level, int strategy,
                          unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK)
        return 0;
    z.next_in = (unsigned char *)raw;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    const int s = deflate(&z, Z_FINISH);
    const size_t got = z.total_out;
    deflateEnd(&z);
    return s == Z_STREAM_END ? got : 0;
}

/* kf_inflate_to's sink: the pieces appended to `collect`, stopping once it
 * holds `limit` bytes. */
typedef struct collect {
    unsigned char *data;
    size_t size, limit;
    int calls;
} collect;

static int append(void *desc, const unsigned char *buf, size_t len)
{
    collect *c = desc;
    c->calls++;
    if (len > KF_INFLATE_WINDOW || c->size + len > MAX_RAW)
        return 1;
    memcpy(c->data + c->size, buf, len);
    c->size += len;
    return c->size >= c->limit;
}

static unsigned char window[KF_INFLATE_WINDOW];
static kf_allocator heap;

/* The same verdict as zlib's, and where both end, the same bytes. */
static void agree(const unsigned char *in, size_t n, size_t cap, const unsigned char *raw,
                  size_t raw_n, const char *what)
{
    static unsigned char got[MAX_RAW + 1], want[MAX_RAW + 1];
    size_t gp = 0, gc = 0, wp = 0, wc = 0;
    const char *message = NULL;
    const kf_inflate_status g = kf_inflate(&heap, in, n, got, cap, &gp, &gc, &message);
    const kf_inflate_status w = reference(in, n, want, cap, &wp, &wc);
    CHECK(g == w, "%s: verdict %d, zlib's %d", what, (int)g, (int)w);
    if (g == KF_INFLATE_END && w == KF_INFLATE_END) {
        CHECK(gp == wp && gc == wc && memcmp(got, want, gp) == 0,
              "%s: %zu bytes from %zu, zlib's %zu from %zu", what, gp, gc, wp, wc);
        if (raw)
            CHECK(gp == raw_n && memcmp(got, raw, raw_n) == 0, "%s: the original bytes", what);
    }
    if (g == KF_INFLATE_FULL)
        CHECK(gp == cap, "%s: full at %zu of %zu", what, gp, cap);
    /* Through the sink, with no limit on the output. */
    collect c = {got, 0, (size_t)-1, 0};
    size_t sc = 0;
    const kf_inflate_status s = kf_inflate_to(&heap, in, n, window, append, &c, &sc, &message);
    const kf_inflate_status sw = reference(in, n, want, MAX_RAW + 1, &wp, &wc);
    CHECK(s == sw, "%s: through the sink, verdict %d, zlib's %d", what, (int)s, (int)sw);
    if (s == KF_INFLATE_END && sw == KF_INFLATE_END)
        CHECK(c.size == wp && sc == wc && memcmp(got, want, wp) == 0,
              "%s: through the sink, %zu bytes from %zu, zlib's %zu from %zu", what, c.size, sc, wp,
              wc);
}

static void fill(unsigned char *raw, size_t n, int kind, uint64_t *x)
{
    for (size_t i = 0; i < n; i++) {
        *x = *x * 6364136223846793005u + 1442695040888963407u;
        switch (kind) {
        case 0: /* zeros */
            raw[i] = 0;
            break;
        case 1: /* random bytes */
            raw[i] = (unsigned char)(*x >> 56);
            break;
        case 2: /* a few symbols: long matches */
            raw[i] = (unsigned char)"abcab"[(*x >> 60) % 5];
            break;
        default: { /* float32 keys of a smooth curve, as a kfb DATA section holds */
            const float f = (float)(i / 4) * 0.001f;
            unsigned char b[4];
            memcpy(b, &f, 4);
            raw[i] = b[i % 4];
            break;
        }
        }
    }
}

int main(void)
{
    heap = kf_allocator_or_default(NULL);
#ifdef KF_HAVE_ISAL
    const char *library = "ISA-L ";
#else
    const char *library = "zlib ";
#endif
    CHECK(strncmp(kf_inflate_library(), library, strlen(library)) == 0, "kf_inflate_library: %s",
          kf_inflate_library());
    static unsigned char raw[MAX_RAW], packed[MAX_RAW + MAX_RAW / 8 + 1024];
    static const size_t sizes[] = {0, 1, 100, 32767, 32768, 70001, MAX_RAW};
    static const int levels[] = {0, 1, 6, 9};
    static const int strategies[] = {Z_DEFAULT_STRATEGY, Z_FIXED, Z_HUFFMAN_ONLY, Z_RLE};
    uint64_t x = 0x243F6A8885A308D3u;
    char what[96];
    int streams = 0;
    for (int kind = 0; kind < 4; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            const size_t n = sizes[si];
            fill(raw, n, kind, &x);
            for (int li = 0; li < 4; li++)
                for (int st = 0; st < 4; st++) {
                    const size_t m =
                        deflate_raw(raw, n, levels[li], strategies[st], packed, sizeof packed);
                    snprintf(what, sizeof what, "kind %d, %zu bytes, level %d, strategy %d", kind,
                             n, levels[li], strategies[st]);
                    CHECK(m > 0, "%s: deflates", what);
                    agree(packed, m, n, raw, n, what);
                    streams++;
                    if (n) { /* a byte short of room: the stream is longer than the output */
                        agree(packed, m, n - 1, NULL, 0, what);
                        agree(packed, m / 2, n, NULL, 0, what); /* input cut short */
                    }
                    agree(packed, m, n + 1, raw, n, what); /* room to spare */
                }
        }
    /* Single bits flipped in a stream of each kind: the same verdict, and
     * the same bytes where both accept it. */
    for (int kind = 1; kind < 4; kind++) {
        const size_t n = 5000;
        fill(raw, n, kind, &x);
        const size_t m = deflate_raw(raw, n, 6, Z_DEFAULT_STRATEGY, packed, sizeof packed);
        for (int t = 0; t < 400; t++) {
            static unsigned char bad[MAX_RAW];
            memcpy(bad, packed, m);
            x = x * 6364136223846793005u + 1442695040888963407u;
            const size_t bit = (size_t)(x >> 20) % (8 * m);
            bad[bit / 8] ^= (unsigned char)(1u << bit % 8);
            snprintf(what, sizeof what, "kind %d, bit %zu flipped", kind, bit);
            agree(bad, m, n, NULL, 0, what);
        }
    }
    /* The sink stops the stream when it says so. */
    fill(raw, 100000, 3, &x);
    const size_t m = deflate_raw(raw, 100000, 1, Z_DEFAULT_STRATEGY, packed, sizeof packed);
    static unsigned char got[MAX_RAW];
    collect c = {got, 0, 40000, 0};
    size_t consumed = 0;
    const char *message = NULL;
    CHECK(kf_inflate_to(&heap, packed, m, window, append, &c, &consumed, &message) ==
                  KF_INFLATE_FULL &&
              c.size >= 40000 && c.size < 40000 + KF_INFLATE_WINDOW &&
              memcmp(got, raw, c.size) == 0,
          "the sink stops it after %zu bytes", c.size);
    CHECK(streams == 4 * 7 * 16, "%d streams", streams);
    return kf_test_report("test_inflate");
}
