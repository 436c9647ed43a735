#include "kfc_arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

struct kfc_arena_block {
    kfc_arena_block *next;
    max_align_t      data[];
};

enum {
    FIRST_BLOCK = 64 << 10,
    /* Blocks stop growing here so that the memory wasted at the end of the
     * last block stays small next to the tree. */
    MAX_BLOCK = 8 << 20
};

void kfc_arena_init(kfc_arena *arena)
{
    arena->blocks = NULL;
    arena->cursor = NULL;
    arena->end = NULL;
    arena->next_size = FIRST_BLOCK;
}

static kfc_arena_block *new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(kfc_arena_block))
        return NULL;
    return malloc(sizeof(kfc_arena_block) + size);
}

void *kfc_arena_alloc(kfc_arena *arena, size_t size, size_t align)
{
    uintptr_t cur = (uintptr_t)arena->cursor;
    uintptr_t pad = (align - (cur & (align - 1))) & (align - 1);
    if (arena->cursor && pad <= (size_t)(arena->end - arena->cursor)
        && size <= (size_t)(arena->end - arena->cursor) - pad) {
        char *p = arena->cursor + pad;
        arena->cursor = p + size;
        return p;
    }
    if (size > arena->next_size / 4) {
        /* A big allocation gets a block of its own, linked behind the
         * current one, so the current block's free space is not lost. */
        kfc_arena_block *b = new_block(size);
        if (!b)
            return NULL;
        if (arena->blocks) {
            b->next = arena->blocks->next;
            arena->blocks->next = b;
        } else {
            b->next = NULL;
            arena->blocks = b;
            arena->cursor = arena->end = (char *)b->data + size;
        }
        return b->data;
    }
    kfc_arena_block *b = new_block(arena->next_size);
    if (!b)
        return NULL;
    b->next = arena->blocks;
    arena->blocks = b;
    arena->cursor = (char *)b->data + size;
    arena->end = (char *)b->data + arena->next_size;
    if (arena->next_size < MAX_BLOCK)
        arena->next_size *= 2;
    return b->data;
}

void kfc_arena_free(kfc_arena *arena)
{
    kfc_arena_block *b = arena->blocks;
    while (b) {
        kfc_arena_block *next = b->next;
        free(b);
        b = next;
    }
    kfc_arena_init(arena);
}
