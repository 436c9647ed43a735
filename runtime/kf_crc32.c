/* SPDX-License-Identifier: MIT */
/*
 * kf_crc32.c - the CRC-32 of a file's header and sections (formats/kfb.md:
 * zlib's crc32, the ISO-HDLC polynomial, reflected), with carry-less
 * multiplication where the CPU has it.
 *
 * zlib's crc32 takes about 3.9 instructions a byte, a twentieth of a
 * lossless load of workload W. Folding the message with PCLMULQDQ (Gopal et
 * al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 * Instruction", Intel, 2009) takes about 0.2: four 128-bit accumulators,
 * each multiplied by x^(512+64) and x^512 mod P every 64 bytes (k1, k2),
 * folded into one (x^(128+64), x^128: k3, k4), then to 64 bits (x^64: k5)
 * and reduced to 32 with Barrett's method (mu = x^64 / P). The constants
 * are those powers of x modulo the reflected polynomial, bit-reflected and
 * shifted left by one, as the paper derives them. The result is zlib's,
 * bit for bit (tests/test_crc32.c compares them on every length and
 * alignment up to a few blocks, and on large buffers).
 *
 * The function is compiled for PCLMULQDQ by its target attribute and called
 * only where the CPU says it has the instruction, so the library needs no
 * build flag and runs on every x86-64; elsewhere, and with KF_NO_SIMD,
 * zlib's crc32 is the whole of it.
 */
#include <zlib.h>

#include "kf_private.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(KF_NO_SIMD)
#define KF_CRC32_PCLMUL 1
#include <emmintrin.h>
#include <wmmintrin.h>

/* The buffer's first len & ~15 bytes (len >= 64), from the register state
 * `crc` (zlib's value inverted); returns the register state. */
__attribute__((target("sse2,pclmul"))) static uint32_t fold(const unsigned char *p, size_t len,
                                                            uint32_t crc)
{
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641); /* mu, P */
    const __m128i low32 = _mm_set_epi32(0, ~0, 0, ~0);
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));
    a = _mm_xor_si128(a, _mm_cvtsi32_si128((int)crc));
    p += 64;
    len -= 64;
#define FOLD(x, k, next)                                                                           \
    _mm_xor_si128(                                                                                 \
        _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next)
    for (; len >= 64; p += 64, len -= 64) {
        a = FOLD(a, k1k2, _mm_loadu_si128((const __m128i *)(const void *)p));
        b = FOLD(b, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(p + 16)));
        c = FOLD(c, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(p + 32)));
        d = FOLD(d, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(p + 48)));
    }
    /* Four accumulators into one, then the remaining 16-byte blocks. */
    a = FOLD(a, k3k4, b);
    a = FOLD(a, k3k4, c);
    a = FOLD(a, k3k4, d);
    for (; len >= 16; p += 16, len -= 16)
        a = FOLD(a, k3k4, _mm_loadu_si128((const __m128i *)(const void *)p));
#undef FOLD
    /* 128 bits to 64, then 64 to 32 (x^32 times the low half, plus the
     * high 32 bits), then Barrett: q = low32(low32(r) mu) P. */
    a = _mm_xor_si128(_mm_srli_si128(a, 8), _mm_clmulepi64_si128(a, k3k4, 0x10));
    a = _mm_xor_si128(_mm_srli_si128(a, 4),
                      _mm_clmulepi64_si128(_mm_and_si128(a, low32), k5, 0x00));
    __m128i q = _mm_clmulepi64_si128(_mm_and_si128(a, low32), poly, 0x10);
    q = _mm_clmulepi64_si128(_mm_and_si128(q, low32), poly, 0x00);
    a = _mm_xor_si128(a, q);
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(a, 4));
}

static int cpu_has_pclmul(void)
{
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
}
#endif

uint32_t kf_crc32(uint32_t crc, const void *data, size_t size)
{
    const unsigned char *p = data;
#ifdef KF_CRC32_PCLMUL
    if (size >= 64 && cpu_has_pclmul()) {
        const size_t folded = size & ~(size_t)15;
        crc = ~fold(p, folded, ~crc);
        p += folded;
        size -= folded;
    }
#endif
    return (uint32_t)crc32_z(crc, p, size);
}
