/* SPDX-License-Identifier: MIT */
/*
 * kfc_arena.h - bump allocation for kfc's syntax tree.
 *
 * A source file turns into millions of small nodes and strings that all live
 * exactly as long as the tree, or as long as one entry of it while that entry
 * is compiled; an arena makes each allocation a pointer bump, gives back
 * everything allocated since a saved point in one call (the memory is kept
 * for reuse, so a compiler that works entry by entry keeps reusing the same
 * cache-warm blocks), and releases all of it at the end.
 */
#ifndef KFC_ARENA_H
#define KFC_ARENA_H

#include <stddef.h>

typedef struct kfc_arena_block kfc_arena_block;

typedef struct kfc_arena {
    kfc_arena_block *blocks; /* in use, newest first */
    kfc_arena_block *spare;  /* given back by kfc_arena_rewind, for reuse */
    char *cursor;            /* free space of blocks[0] */
    char *end;
    size_t next_size; /* size of the next new block */
} kfc_arena;

/* A point in an arena's history, to rewind to. */
typedef struct kfc_arena_mark {
    kfc_arena_block *block;
    char *cursor;
} kfc_arena_mark;

/* An empty arena; allocates nothing until used. */
void kfc_arena_init(kfc_arena *arena);

/* `size` bytes aligned to `align` (a power of two, at most
 * _Alignof(max_align_t)), or NULL when memory runs out. The memory is not
 * zeroed. */
void *kfc_arena_alloc(kfc_arena *arena, size_t size, size_t align);

/* The current point, for kfc_arena_rewind. */
kfc_arena_mark kfc_arena_save(const kfc_arena *arena);

/* Frees (for reuse by the arena) everything allocated since `mark`, which
 * must come from this arena and not from before an earlier rewind. */
void kfc_arena_rewind(kfc_arena *arena, kfc_arena_mark mark);

/* Bytes the arena holds from the system (blocks in use and spare): for the
 * tests, which check that rewinding reuses blocks rather than growing. */
size_t kfc_arena_size(const kfc_arena *arena);

/* Releases every block; the arena is empty and reusable afterwards. */
void kfc_arena_free(kfc_arena *arena);

#endif /* KFC_ARENA_H */
