/*
 * test_util.h - building an animation in memory for the C tests:
 * kf_builder -> encoded bytes -> kf_load_memory, the path every file takes.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "kf_build.h"

typedef struct test_bytes {
    unsigned char *data;
    size_t size, capacity;
} test_bytes;

static inline int test_bytes_write(void *user, const void *data, size_t size)
{
    test_bytes *b = user;
    if (size > b->capacity - b->size) {
        size_t cap = b->capacity ? b->capacity : 1024;
        while (cap - b->size < size)
            cap *= 2;
        unsigned char *p = realloc(b->data, cap);
        if (!p)
            return 1;
        b->data = p;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    return 0;
}

/* Encodes `builder` and loads the bytes back; NULL on any failure (printed).
 * `bytes` (optional) receives the encoding, to be freed by the caller. */
static inline kf_anim *test_encode_load(const kf_builder *builder, test_bytes *bytes)
{
    test_bytes local = {0};
    test_bytes *b = bytes ? bytes : &local;
    memset(b, 0, sizeof *b);
    kf_error err;
    kf_anim *anim = NULL;
    if (kf_builder_encode(builder, NULL, test_bytes_write, b, &err) != KF_OK)
        fprintf(stderr, "encode: %s\n", err.message);
    else if (kf_load_memory(b->data, b->size, NULL, &anim, &err) != KF_OK)
        fprintf(stderr, "load: %s\n", err.message);
    if (!bytes)
        free(local.data);
    return anim;
}

#endif /* TEST_UTIL_H */
