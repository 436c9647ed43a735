/* SPDX-License-Identifier: MIT */
/*
 * kf_bytes.c - the growable byte buffer (kf_bytes.h).
 */
#include <stdint.h>
#include <string.h>

#include "kf_bytes.h"
#include "kf_private.h"

void kf_bytes_free(kf_bytes *b)
{
    kf_free(b->allocator, b->data, b->capacity);
    b->data = NULL;
    b->size = b->capacity = 0;
}

unsigned char *kf_bytes_grow(kf_bytes *b, size_t bytes)
{
    if (b->failed || bytes == 0) /* nothing to point at in an empty buffer */
        return NULL;
    if (bytes > b->capacity - b->size) {
        size_t want = b->capacity ? b->capacity : 256;
        while (want - b->size < bytes) {
            if (want > SIZE_MAX / 2) {
                b->failed = 1;
                return NULL;
            }
            want *= 2;
        }
        unsigned char *p = kf_alloc(b->allocator, want);
        if (!p) {
            b->failed = 1;
            return NULL;
        }
        if (b->size)
            memcpy(p, b->data, b->size);
        kf_free(b->allocator, b->data, b->capacity);
        b->data = p;
        b->capacity = want;
    }
    unsigned char *at = b->data + b->size;
    b->size += bytes;
    return at;
}
