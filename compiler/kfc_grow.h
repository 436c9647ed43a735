/* SPDX-License-Identifier: MIT */
/*
 * kfc_grow.h - arrays that grow an item at a time (realloc, doubling).
 *
 * kfc keeps many such lists (held diagnostics, names, clips, the tracks'
 * targets, the YAML builder's pending nodes); each needs the same few
 * steps, and the one that is easy to forget, the check that the doubled
 * size still fits a size_t, is written here once.
 */
#ifndef KFC_GROW_H
#define KFC_GROW_H

#include <stddef.h>

/*
 * Room for item `count` of an array of `size`-byte items at `items` that
 * has room for *capacity: `items` itself where there is room already, else
 * the array reallocated to twice its capacity (`first` items for an empty
 * one), *capacity updated. NULL when out of memory: `items` and *capacity
 * are then unchanged, and still the caller's to free.
 */
void *kfc_grow(void *items, size_t count, size_t *capacity, size_t size, size_t first);

#endif
