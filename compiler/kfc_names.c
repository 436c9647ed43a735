/* SPDX-License-Identifier: MIT */
#include "kfc_names.h"

#include <stdlib.h>
#include <string.h>

#include "kf_index.h"
#include "kfc_grow.h"

void kfc_names_init(kfc_names *names)
{
    memset(names, 0, sizeof *names);
    kfc_arena_init(&names->text);
}

void kfc_names_free(kfc_names *names)
{
    free(names->names);
    free(names->slots);
    kfc_arena_free(&names->text);
    memset(names, 0, sizeof *names);
}

static int is_controller(kfc_name_kind kind)
{
    return kind == KFC_NAME_CONTROLLER;
}

static uint64_t hash(const kfc_names *names, int controller, const char *text, size_t length)
{
    /* The namespace in the hash: an animator and a controller may share a
     * name. */
    return kf_hash_keyed(names->key, text, length) ^ (uint64_t)controller;
}

/* The slot of the name, or of the empty slot where it would go. */
static uint32_t *slot_of(const kfc_names *names, int controller, const char *text, size_t length)
{
    const size_t mask = names->slot_capacity - 1;
    size_t i = (size_t)hash(names, controller, text, length) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t *slot = &names->slots[i];
        if (!*slot)
            return slot;
        const kfc_name *n = &names->names[*slot - 1];
        if (is_controller((kfc_name_kind)n->kind) == controller && n->length == length &&
            memcmp(n->text, text, length) == 0)
            return slot;
    }
}

kfc_name *kfc_names_find(const kfc_names *names, kfc_name_kind kind, const char *text,
                         size_t length)
{
    if (!names->slot_capacity)
        return NULL;
    const uint32_t *slot = slot_of(names, is_controller(kind), text, length);
    return *slot ? &names->names[*slot - 1] : NULL;
}

kfc_status kfc_names_add(kfc_names *names, kfc_name_kind kind, const char *text, size_t length,
                         kfc_mark mark, size_t *index, kfc_diag *diag)
{
    kfc_name *known = kfc_names_find(names, kind, text, length);
    if (known) {
        *index = (size_t)(known - names->names);
        return KFC_OK;
    }
    if (names->count >= UINT32_MAX - 1)
        return kfc_fail_nomem(diag);
    kfc_name *grown = kfc_grow(names->names, names->count, &names->capacity, sizeof *grown, 64);
    if (!grown)
        return kfc_fail_nomem(diag);
    names->names = grown;
    if (2 * (names->count + 1) > names->slot_capacity) {
        size_t capacity = names->slot_capacity ? 2 * names->slot_capacity : 128;
        uint32_t *slots = calloc(capacity, sizeof *slots);
        if (!slots)
            return kfc_fail_nomem(diag);
        free(names->slots);
        names->slots = slots;
        names->slot_capacity = capacity;
        kf_hash_key_draw(names->key, slots, names);
        for (size_t i = 0; i < names->count; i++) {
            const kfc_name *n = &names->names[i];
            *slot_of(names, is_controller((kfc_name_kind)n->kind), n->text, n->length) =
                (uint32_t)i + 1;
        }
    }
    char *copy = kfc_arena_alloc(&names->text, length + 1, 1);
    if (!copy)
        return kfc_fail_nomem(diag);
    memcpy(copy, text, length);
    copy[length] = '\0';
    kfc_name *n = &names->names[names->count];
    memset(n, 0, sizeof *n);
    n->text = copy;
    n->length = length;
    n->mark = mark;
    n->kind = (uint8_t)kind;
    *slot_of(names, is_controller(kind), copy, length) = (uint32_t)names->count + 1;
    *index = names->count++;
    return KFC_OK;
}
