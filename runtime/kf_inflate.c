/* SPDX-License-Identifier: MIT */
/*
 * kf_inflate.c - the raw deflate data of a file's compressed sections,
 * inflated by ISA-L's igzip where the build found it (KF_HAVE_ISAL: Debian
 * libisal-dev), by zlib otherwise: the same bytes and the same verdicts
 * either way (tests/test_inflate.c compares the two).
 *
 * igzip keeps its state where its caller puts it and allocates nothing, so
 * the state comes from the load's kf_allocator, as zlib's does through
 * kf_zlib_alloc.
 */
#include <string.h>
#include <zlib.h>

#ifdef KF_HAVE_ISAL
#include <isa-l.h>
#endif

#include "kf_private.h"

#define STR_(x) #x
#define STR(x)  STR_(x)

const char *kf_inflate_library(void)
{
#ifdef KF_HAVE_ISAL
    return "ISA-L " STR(ISAL_MAJOR_VERSION) "." STR(ISAL_MINOR_VERSION) "." STR(
        ISAL_PATCH_VERSION) " (igzip inflate, crc32_gzip_refl)";
#else
    return "zlib " ZLIB_VERSION " (inflate, crc32)";
#endif
}

#ifdef KF_HAVE_ISAL
/*
 * ISA-L 2.30's CRC-32 returns with the upper halves of the vector
 * registers still in use (its AVX-512 code path ends without vzeroupper),
 * and the SSE code of the rest of the load then runs slowly: W2's load took
 * 2.5 ms instead of 1.8 ms, its -z 0 file's 1.18 ms instead of 0.51 ms.
 * Clearing them after every call costs a cycle where the CPU has AVX and
 * is skipped where it has not (the instruction would be illegal there).
 */
void kf_isal_settle(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx"))
        __asm__ volatile("vzeroupper" ::: "memory");
#endif
}

/* What an igzip error means, in the words zlib would use. */
static const char *isal_message(int ret)
{
    switch (ret) {
    case ISAL_INVALID_BLOCK:
        return "invalid block";
    case ISAL_INVALID_SYMBOL:
        return "invalid code";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
    default:
        return NULL;
    }
}

static struct inflate_state *isal_begin(const kf_allocator *a, const unsigned char *in, size_t n)
{
    struct inflate_state *st = kf_alloc(a, sizeof *st);
    if (!st)
        return NULL;
    isal_inflate_init(st);
    st->crc_flag = ISAL_DEFLATE;
    st->next_in = (uint8_t *)in;
    st->avail_in = (uint32_t)n;
    return st;
}
#endif

kf_inflate_status kf_inflate(const kf_allocator *a, const unsigned char *in, size_t n,
                             unsigned char *out, size_t capacity, size_t *produced,
                             size_t *consumed, const char **message)
{
    *message = NULL;
#ifdef KF_HAVE_ISAL
    struct inflate_state *st = isal_begin(a, in, n);
    if (!st) {
        *produced = *consumed = 0;
        return KF_INFLATE_MEMORY;
    }
    st->next_out = out;
    st->avail_out = (uint32_t)capacity;
    /* One call for the whole output: the stateless decoder writes straight
     * into it and gives back what it read ahead at the end. */
    const int ret = isal_inflate_stateless(st);
    kf_isal_settle();
    *produced = capacity - st->avail_out;
    *consumed = n - st->avail_in;
    kf_free(a, st, sizeof *st);
    if (ret == ISAL_DECOMP_OK)
        return KF_INFLATE_END;
    if (ret == ISAL_OUT_OVERFLOW)
        return KF_INFLATE_FULL;
    *message = isal_message(ret);
    return KF_INFLATE_CORRUPT;
#else
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = kf_zlib_alloc;
    z.zfree = kf_zlib_free;
    z.opaque = (void *)a;
    if (inflateInit2(&z, -15) != Z_OK) {
        *produced = *consumed = 0;
        return KF_INFLATE_MEMORY;
    }
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)capacity;
    const int s = inflate(&z, Z_FINISH);
    *produced = z.total_out;
    *consumed = z.total_in;
    /* zlib's messages are static strings: they outlive the stream. */
    *message = z.msg;
    inflateEnd(&z);
    if (s == Z_STREAM_END)
        return KF_INFLATE_END;
    if (s == Z_MEM_ERROR)
        return KF_INFLATE_MEMORY;
    if (s == Z_BUF_ERROR && *produced == capacity)
        return KF_INFLATE_FULL;
    return KF_INFLATE_CORRUPT;
#endif
}

#ifndef KF_HAVE_ISAL
/* inflateBack's input: all of it was given in next_in. */
static unsigned no_more_input(void *desc, z_const unsigned char **buf)
{
    (void)desc;
    *buf = NULL;
    return 0;
}

typedef struct sink_call {
    kf_inflate_sink sink;
    void *desc;
    int stopped;
} sink_call;

static int to_sink(void *desc, unsigned char *buf, unsigned len)
{
    sink_call *c = desc;
    c->stopped = c->sink(c->desc, buf, len);
    return c->stopped;
}
#endif

kf_inflate_status kf_inflate_to(const kf_allocator *a, const unsigned char *in, size_t n,
                                unsigned char *window, kf_inflate_sink sink, void *desc,
                                size_t *consumed, const char **message)
{
    *message = NULL;
    *consumed = 0;
#ifdef KF_HAVE_ISAL
    struct inflate_state *st = isal_begin(a, in, n);
    if (!st)
        return KF_INFLATE_MEMORY;
    kf_inflate_status status = KF_INFLATE_CORRUPT;
    for (;;) {
        const uint32_t in_before = st->avail_in;
        const int32_t bits_before = st->read_in_length;
        const int state_before = (int)st->block_state;
        st->next_out = window;
        st->avail_out = KF_INFLATE_WINDOW;
        const int ret = isal_inflate(st);
        kf_isal_settle();
        const size_t got = KF_INFLATE_WINDOW - st->avail_out;
        if (ret < 0) {
            *message = isal_message(ret);
            break;
        }
        if (got && sink(desc, window, got)) {
            status = KF_INFLATE_FULL;
            break;
        }
        if (st->block_state == ISAL_BLOCK_FINISH) {
            status = KF_INFLATE_END;
            break;
        }
        /* A call that neither read nor wrote: the input ends inside the
         * stream. */
        if (!got && st->avail_in == in_before && st->read_in_length == bits_before &&
            (int)st->block_state == state_before)
            break;
    }
    /* Bytes igzip read ahead but did not use are not consumed. */
    *consumed = n - st->avail_in - (size_t)(st->read_in_length > 0 ? st->read_in_length / 8 : 0);
    kf_free(a, st, sizeof *st);
    return status;
#else
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = kf_zlib_alloc;
    z.zfree = kf_zlib_free;
    z.opaque = (void *)a;
    /* inflateBack's window is the output: no byte is copied twice, where
     * inflate() would also keep a copy of its last 32 KiB after each call. */
    if (inflateBackInit(&z, 15, window) != Z_OK)
        return KF_INFLATE_MEMORY;
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)n;
    sink_call c = {sink, desc, 0};
    const int s = inflateBack(&z, no_more_input, NULL, to_sink, &c);
    *consumed = n - z.avail_in;
    *message = z.msg;
    inflateBackEnd(&z);
    if (s == Z_STREAM_END)
        return KF_INFLATE_END;
    if (s == Z_MEM_ERROR)
        return KF_INFLATE_MEMORY;
    if (c.stopped)
        return KF_INFLATE_FULL;
    return KF_INFLATE_CORRUPT;
#endif
}
