/* SPDX-License-Identifier: MIT */
/*
 * kfb_craft.h - taking an uncompressed .kfb apart to damage it on purpose:
 * locate sections and objects, patch words, and recompute the checksums so
 * the damage reaches the check under test instead of the CRC.
 */
#ifndef KFB_CRAFT_H
#define KFB_CRAFT_H

#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "kfb_format.h"

typedef struct craft_section {
    size_t header; /* file offset of the section header */
    size_t stored; /* file offset of the stored bytes */
    uint32_t stored_size;
} craft_section;

static inline uint32_t craft_get(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void craft_put(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* Finds the three sections by walking the stored sizes; 0 if it cannot. */
static inline int craft_sections(const unsigned char *f, size_t size, craft_section s[3])
{
    /* Zeroed first: a caller that goes on after a failure reads zeros. */
    memset(s, 0, 3 * sizeof *s);
    size_t pos = KFB_HEADER_SIZE;
    for (int i = 0; i < 3; i++) {
        if (size < pos + KFB_SECTION_HEADER_SIZE)
            return 0;
        s[i].header = pos;
        s[i].stored = pos + KFB_SECTION_HEADER_SIZE;
        s[i].stored_size = craft_get(f + pos + 8);
        pos = s[i].stored + s[i].stored_size + KFB_SECTION_CRC_SIZE;
        if (pos > size)
            return 0;
    }
    return 1;
}

/* Recomputes the header CRC and every section CRC. */
static inline void craft_fix_crcs(unsigned char *f, size_t size)
{
    craft_put(f + KFB_HEADER_AT(header_crc), (uint32_t)crc32(0L, f, KFB_HEADER_AT(header_crc)));
    craft_section s[3];
    if (!craft_sections(f, size, s))
        return;
    for (int i = 0; i < 3; i++) {
        uint32_t crc =
            (uint32_t)crc32(0L, f + s[i].header, KFB_SECTION_HEADER_SIZE + s[i].stored_size);
        craft_put(f + s[i].stored + s[i].stored_size, crc);
    }
}

/* File offset of the body of the n-th object (file order) in an
 * uncompressed OBJS section, or 0. */
static inline size_t craft_object(const unsigned char *f, size_t size, unsigned n)
{
    craft_section s[3];
    if (!craft_sections(f, size, s))
        return 0;
    size_t pos = s[KFB_SECTION_OBJECTS].stored, end = pos + s[KFB_SECTION_OBJECTS].stored_size;
    for (unsigned i = 0; pos + 8 <= end; i++) {
        if (i == n)
            return pos + 8;
        pos += 8 + craft_get(f + pos + 4);
    }
    return 0;
}

/* File offset of the array that word `field` of the n-th object's body
 * names (a word offset into an uncompressed DATA section), or 0. */
static inline size_t craft_array(const unsigned char *f, size_t size, unsigned n, unsigned field)
{
    craft_section s[3];
    const size_t body = craft_object(f, size, n);
    if (!body || !craft_sections(f, size, s))
        return 0;
    return s[KFB_SECTION_DATA].stored + 4 * (size_t)craft_get(f + body + 4 * (size_t)field);
}

#endif /* KFB_CRAFT_H */
