/* SPDX-License-Identifier: MIT */
/*
 * kf_bytes.h - the growable byte buffer the writer builds sections in.
 */
#ifndef KF_BYTES_H
#define KF_BYTES_H

#include <stddef.h>

#include "kf.h"

/* `failed` latches the first allocation failure, so callers check once at
 * the end instead of after every append. */
typedef struct kf_bytes {
    const kf_allocator *allocator;
    unsigned char *data;
    size_t size, capacity;
    int failed;
} kf_bytes;

/* Room for `bytes` more at the end (returned), or NULL (failed set). NULL
 * without failing for 0 bytes: an empty buffer has nothing to point at. */
unsigned char *kf_bytes_grow(kf_bytes *b, size_t bytes);
void kf_bytes_free(kf_bytes *b);

#endif /* KF_BYTES_H */
