/* SPDX-License-Identifier: MIT */
#include "kfc_arena.h"

#include <stdint.h>
#include <stdlib.h>

struct kfc_arena_block {
    kfc_arena_block *next;
    size_t size; /* bytes of data */
    max_align_t data[];
};

enum {
    FIRST_BLOCK = 64 << 10,
    /* Blocks stop growing here so that the memory left unused at the end of
     * a block stays small next to the tree. */
    MAX_BLOCK = 8 << 20
};

void kfc_arena_init(kfc_arena *arena)
{
    arena->blocks = NULL;
    arena->spare = NULL;
    arena->cursor = NULL;
    arena->end = NULL;
    arena->next_size = FIRST_BLOCK;
}

/* A spare block of at least `size` bytes, or NULL. */
static kfc_arena_block *take_spare(kfc_arena *arena, size_t size)
{
    for (kfc_arena_block **link = &arena->spare; *link; link = &(*link)->next) {
        if ((*link)->size >= size) {
            kfc_arena_block *b = *link;
            *link = b->next;
            return b;
        }
    }
    return NULL;
}

static kfc_arena_block *new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(kfc_arena_block))
        return NULL;
    kfc_arena_block *b = malloc(sizeof(kfc_arena_block) + size);
    if (b)
        b->size = size;
    return b;
}

void *kfc_arena_alloc(kfc_arena *arena, size_t size, size_t align)
{
    if (arena->cursor) {
        uintptr_t pad = (align - ((uintptr_t)arena->cursor & (align - 1))) & (align - 1);
        size_t room = (size_t)(arena->end - arena->cursor);
        if (pad <= room && size <= room - pad) {
            char *p = arena->cursor + pad;
            arena->cursor = p + size;
            return p;
        }
    }
    /* Reuse before growing: after a rewind the same allocations come again.
     * A big request gets a block of its own (the rest of the current block
     * is given up: at most a quarter of a block). */
    kfc_arena_block *b = take_spare(arena, size);
    if (!b) {
        int own = size > arena->next_size / 4;
        b = new_block(own ? size : arena->next_size);
        if (!b)
            return NULL;
        if (!own && arena->next_size < MAX_BLOCK)
            arena->next_size *= 2;
    }
    b->next = arena->blocks;
    arena->blocks = b;
    arena->cursor = (char *)b->data + size;
    arena->end = (char *)b->data + b->size;
    return b->data;
}

kfc_arena_mark kfc_arena_save(const kfc_arena *arena)
{
    kfc_arena_mark m = {arena->blocks, arena->cursor};
    return m;
}

void kfc_arena_rewind(kfc_arena *arena, kfc_arena_mark mark)
{
    while (arena->blocks && arena->blocks != mark.block) {
        kfc_arena_block *b = arena->blocks;
        arena->blocks = b->next;
        b->next = arena->spare;
        arena->spare = b;
    }
    if (arena->blocks) {
        arena->cursor = mark.cursor;
        arena->end = (char *)arena->blocks->data + arena->blocks->size;
    } else {
        arena->cursor = arena->end = NULL;
    }
}

size_t kfc_arena_size(const kfc_arena *arena)
{
    size_t total = 0;
    for (const kfc_arena_block *b = arena->blocks; b; b = b->next)
        total += b->size;
    for (const kfc_arena_block *b = arena->spare; b; b = b->next)
        total += b->size;
    return total;
}

static void free_list(kfc_arena_block *b)
{
    while (b) {
        kfc_arena_block *next = b->next;
        free(b);
        b = next;
    }
}

void kfc_arena_free(kfc_arena *arena)
{
    free_list(arena->blocks);
    free_list(arena->spare);
    kfc_arena_init(arena);
}
