/* SPDX-License-Identifier: MIT */
/*
 * kf_crc32.c - the CRC-32 of a file's header and sections (formats/kfb.md:
 * zlib's crc32, the ISO-HDLC polynomial, reflected): ISA-L's
 * crc32_gzip_refl where the build found ISA-L (it folds with carry-less
 * multiplication where the CPU has it, about 0.2 instructions a byte where
 * zlib's crc32 takes 3.9), zlib's crc32 otherwise. Both give the same value
 * (tests/test_crc32.c).
 */
#include <zlib.h>

#ifdef KF_HAVE_ISAL
#include <isa-l.h>
#endif

#include "kf_private.h"

uint32_t kf_crc32(uint32_t crc, const void *data, size_t size)
{
#ifdef KF_HAVE_ISAL
    /* crc32_gzip_refl takes a 64-bit length; the running value is zlib's. */
    crc = crc32_gzip_refl(crc, (const unsigned char *)data, (uint64_t)size);
    kf_isal_settle();
    return crc;
#else
    return (uint32_t)crc32_z(crc, data, size);
#endif
}
