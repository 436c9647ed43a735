/* SPDX-License-Identifier: MIT */
/* kf_alloc.c - the default allocator and overflow-checked sizes. */
#include <stdlib.h>
#include <string.h>

#include "kf_private.h"

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size ? size : 1);
}

static void default_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

kf_allocator kf_allocator_or_default(const kf_allocator *a)
{
    if (a && a->alloc && a->free)
        return *a;
    kf_allocator d = {default_alloc, default_free, NULL};
    return d;
}

kf_result kf_allocator_take(const kf_allocator *a, kf_allocator *out, kf_error *error)
{
    /* Half an allocator is a forgotten field: falling back to malloc would
     * route every byte around the caller's budget without a word. */
    if (a && !(a->alloc && a->free))
        return kf_fail(error, KF_ERROR_ARGUMENT,
                       "the allocator has %s (give both, or pass NULL for malloc and free)",
                       a->alloc  ? "alloc but no free"
                       : a->free ? "free but no alloc"
                                 : "neither alloc nor free");
    *out = kf_allocator_or_default(a);
    return KF_OK;
}

void *kf_alloc(const kf_allocator *a, size_t size)
{
    return a->alloc(a->user, size);
}

void *kf_calloc(const kf_allocator *a, size_t count, size_t size)
{
    size_t total;
    if (!kf_mul_size(count, size, &total))
        return NULL;
    void *p = a->alloc(a->user, total);
    if (p)
        memset(p, 0, total);
    return p;
}

void kf_free(const kf_allocator *a, void *ptr, size_t size)
{
    if (ptr)
        a->free(a->user, ptr, size);
}

int kf_mul_size(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b)
        return 0;
    *out = a * b;
    return 1;
}

/* zlib allocates through the caller's allocator too. zlib's free does not
 * pass the size, so each block carries it in front. */
typedef union zlib_block_header {
    size_t size;
    max_align_t align;
} zlib_block_header;

void *kf_zlib_alloc(void *opaque, unsigned items, unsigned size)
{
    const kf_allocator *a = opaque;
    size_t bytes;
    if (!kf_mul_size(items, size, &bytes) || bytes > SIZE_MAX - sizeof(zlib_block_header))
        return NULL;
    bytes += sizeof(zlib_block_header);
    zlib_block_header *h = kf_alloc(a, bytes);
    if (!h)
        return NULL;
    h->size = bytes;
    return h + 1;
}

void kf_zlib_free(void *opaque, void *ptr)
{
    if (!ptr)
        return;
    zlib_block_header *h = (zlib_block_header *)ptr - 1;
    kf_free(opaque, h, h->size);
}
