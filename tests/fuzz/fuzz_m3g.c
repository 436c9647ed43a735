/* SPDX-License-Identifier: MIT */
/*
 * fuzz_m3g.c - libFuzzer target for kfc's M3G importer. Whatever imports
 * must encode and load, and decompile to YAML that compiles to the same
 * bytes; a failure must be clean: no crash, no leak, a one-line message
 * with a location.
 *
 * The first byte of an input chooses what the target repairs before kfc
 * sees the rest, so that mutations reach past the checksums: bit 0, the
 * Adler-32 of every section; bit 1, the header's TotalFileSize; bit 2,
 * the zlib sections, whose bodies the input then holds inflated (the
 * target deflates them and sets their lengths). With 0 the bytes go to
 * kfc as they are.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "fuzz_import.h"
#include "kf_build.h"
#include "kfc_m3g.h"
#include "test_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

typedef struct buffer {
    uint8_t *data;
    size_t size, cap;
} buffer;

static int room(buffer *b, size_t more)
{
    if (b->cap - b->size >= more)
        return 1;
    size_t cap = b->cap * 2 > b->size + more ? b->cap * 2 : b->size + more;
    uint8_t *grown = realloc(b->data, cap);
    if (!grown)
        return 0;
    b->data = grown;
    b->cap = cap;
    return 1;
}

/* `in` with the repairs `mode` asks for, in a new buffer. */
static int repair(unsigned mode, const uint8_t *in, size_t size, buffer *o)
{
    size_t pos = size < 12 ? size : 12;
    if (!room(o, pos + 64))
        return 0;
    memcpy(o->data, in, pos);
    o->size = pos;
    while (size - pos >= 13) {
        const uint32_t stored = le32(in + pos + 1);
        if (stored < 13 || stored > size - pos)
            break;
        const uLong body_size = stored - 13;
        uint32_t total = stored;
        if ((mode & 4) && in[pos] == 1) {
            uLongf packed = compressBound(body_size);
            if (!room(o, packed + 13) ||
                compress2(o->data + o->size + 9, &packed, in + pos + 9, body_size, 6) != Z_OK)
                return 0;
            total = (uint32_t)packed + 13;
            o->data[o->size] = 1;
            put32(o->data + o->size + 1, total);
            put32(o->data + o->size + 5, (uint32_t)body_size);
        } else {
            if (!room(o, total))
                return 0;
            memcpy(o->data + o->size, in + pos, total);
        }
        if (mode & 1)
            put32(o->data + o->size + total - 4,
                  (uint32_t)adler32(adler32(0L, Z_NULL, 0), o->data + o->size, total - 4));
        o->size += total;
        pos += stored;
    }
    if (!room(o, size - pos))
        return 0;
    memcpy(o->data + o->size, in + pos, size - pos);
    o->size += size - pos;
    /* The header object, section 0's first: its TotalFileSize. */
    uint8_t *d = o->data;
    if ((mode & 2) && o->size >= 12 + 9 + 5 + 7 + 4) {
        put32(d + 12 + 9 + 5 + 3, (uint32_t)o->size);
        uint32_t total = le32(d + 12 + 1);
        if ((mode & 1) && total >= 13 && total <= o->size - 12)
            put32(d + 12 + total - 4, (uint32_t)adler32(adler32(0L, Z_NULL, 0), d + 12, total - 4));
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    buffer file = {NULL, 0, 0};
    if (!repair(data[0], data + 1, size - 1, &file)) {
        free(file.data);
        return 0;
    }
    kf_builder *builder;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    kfc_import_options options = {.path = "fuzz.m3g", .no_files = 1};
    int ok = kfc_m3g_compile(file.data, file.size, &options, builder, &diag) == KFC_OK;
    /* Every refusal has a message on one line and, but for running out of
     * memory, says where. */
    if (!ok && (diag.message[0] == '\0' || strchr(diag.message, '\n') ||
                (diag.status == KFC_INVALID && diag.pointer[0] == '\0')))
        abort();
    if (ok)
        fuzz_import_round_trip(builder);
    kf_builder_destroy(builder);
    free(file.data);
    return 0;
}
