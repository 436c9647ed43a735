/*
 * kfc_arena.h - bump allocation for kfc's syntax tree.
 *
 * A source file turns into millions of small nodes and strings that all live
 * exactly as long as the tree; an arena makes each allocation a pointer bump
 * and releases them all with one call.
 */
#ifndef KFC_ARENA_H
#define KFC_ARENA_H

#include <stddef.h>

typedef struct kfc_arena_block kfc_arena_block;

typedef struct kfc_arena {
    kfc_arena_block *blocks;     /* newest first */
    char            *cursor;     /* free space of blocks[0] */
    char            *end;
    size_t           next_size;  /* size of the next block to allocate */
} kfc_arena;

/* An empty arena; allocates nothing until used. */
void kfc_arena_init(kfc_arena *arena);

/* `size` bytes aligned to `align` (a power of two, at most
 * _Alignof(max_align_t)), or NULL when memory runs out. The memory is not
 * zeroed. */
void *kfc_arena_alloc(kfc_arena *arena, size_t size, size_t align);

/* Releases every allocation; the arena is empty and reusable afterwards. */
void kfc_arena_free(kfc_arena *arena);

#endif /* KFC_ARENA_H */
