/* SPDX-License-Identifier: MIT */
/*
 * test_crc32.c - kf_crc32 (runtime/kf_crc32.c) is zlib's crc32 bit for bit:
 * on every length from 0 to a few 64-byte blocks at every alignment, on
 * large buffers, continuing a running CRC, and on the check value of the
 * CRC catalogue ("123456789" -> cbf43926).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kf_private.h"
#include "kf_test.h"

int main(void)
{
    CHECK(kf_crc32(0, "123456789", 9) == 0xcbf43926u, "check value %08x",
          (unsigned)kf_crc32(0, "123456789", 9));
    const size_t size = (size_t)1 << 20;
    unsigned char *buf = malloc(size + 64);
    if (!buf)
        return 1;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < size + 64; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        buf[i] = (unsigned char)(x >> 56);
    }
    int bad = 0;
    for (size_t offset = 0; offset < 16; offset++)
        for (size_t len = 0; len <= 300; len++) {
            const uint32_t want = (uint32_t)crc32_z(0, buf + offset, len);
            const uint32_t got = kf_crc32(0, buf + offset, len);
            if (got != want && bad++ < 5)
                CHECK(got == want, "offset %zu length %zu: %08x, zlib %08x", offset, len,
                      (unsigned)got, (unsigned)want);
            /* A running CRC: the first part, then the rest. */
            const uint32_t part =
                kf_crc32(kf_crc32(0, buf + offset, len / 3), buf + offset + len / 3, len - len / 3);
            if (part != want && bad++ < 5)
                CHECK(part == want, "offset %zu length %zu in two parts: %08x, zlib %08x", offset,
                      len, (unsigned)part, (unsigned)want);
        }
    CHECK(bad == 0, "%d lengths differ from zlib", bad);
    /* All zeros and all ones, and the megabyte. */
    unsigned char *ones = malloc(4096);
    if (!ones)
        return 1;
    memset(ones, 0xff, 4096);
    CHECK(kf_crc32(7, ones, 4096) == (uint32_t)crc32_z(7, ones, 4096), "ones");
    memset(ones, 0, 4096);
    CHECK(kf_crc32(0, ones, 4096) == (uint32_t)crc32_z(0, ones, 4096), "zeros");
    CHECK(kf_crc32(0, buf, size) == (uint32_t)crc32_z(0, buf, size), "1 MiB");
    CHECK(kf_crc32(0, buf + 3, size - 5) == (uint32_t)crc32_z(0, buf + 3, size - 5),
          "1 MiB, unaligned");
    free(ones);
    free(buf);
    return kf_test_report("test_crc32");
}
