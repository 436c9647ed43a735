/* SPDX-License-Identifier: MIT */
#include "kfc_grow.h"

#include <stdint.h>
#include <stdlib.h>

void *kfc_grow(void *items, size_t count, size_t *capacity, size_t size, size_t first)
{
    if (count < *capacity)
        return items;
    const size_t grown = *capacity ? 2 * *capacity : first;
    if (grown < *capacity || grown > SIZE_MAX / size)
        return NULL;
    void *moved = realloc(items, grown * size);
    if (moved)
        *capacity = grown;
    return moved;
}
