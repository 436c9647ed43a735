/* SPDX-License-Identifier: MIT */
/*
 * kfc_yaml.h - a YAML document as a tree of nodes with source positions.
 *
 * kfc_yaml_parse reads one YAML document through libyaml's event parser and
 * builds the tree itself, so that it can enforce what libyaml 0.2.5 does
 * not, and fail with a located message instead of exhausting memory:
 *
 *   - the input is at most `max_input` bytes (default 256 MiB);
 *   - collections nest at most `max_depth` levels (default 64); nothing is
 *     recursive, so deep input costs neither stack nor time;
 *   - an alias refers to an anchor defined (and completed) earlier, and all
 *     aliases together add at most `max_alias_nodes` nodes to the tree
 *     (default 1,000,000), so a "billion laughs" document fails after a few
 *     hundred events; an alias shares the anchored subtree, it is not copied;
 *   - mapping keys are scalars, and no mapping has two equal keys (compared
 *     by their text as each key arrives, so the second one is reported;
 *     linear time per mapping);
 *   - there is exactly one document, and no node carries an explicit tag.
 *
 * A duplicate key and a tag are reported through kfc_recover (kfc_diag.h):
 * the parse goes on, so that the errors after them are found too; the
 * value of a duplicate key is a KFC_NODE_CONSUMED placeholder, which
 * readers skip.
 *
 * Nodes live in an arena owned by the kfc_document; kfc_document_free
 * releases them all. The tree is read-only once built.
 *
 * A consumer may compile the document while it is parsed: it sees each
 * entry of a top-level section (a pair or item of a collection that is a
 * value of the root mapping) as soon as the entry is complete, and may take
 * it, in which case the entry's subtree is freed and replaced in the tree by
 * a KFC_NODE_CONSUMED placeholder. The tree then never holds more than one
 * large entry, whatever the size of the file.
 */
#ifndef KFC_YAML_H
#define KFC_YAML_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_arena.h"
#include "kfc_diag.h"

typedef enum kfc_node_kind {
    KFC_NODE_SCALAR = 1,
    KFC_NODE_SEQUENCE,
    KFC_NODE_MAPPING,
    KFC_NODE_CONSUMED /* an entry a consumer took while parsing, or the value of a
                         repeated key (no content) */
} kfc_node_kind;

typedef struct kfc_node kfc_node;

struct kfc_node {
    uint8_t kind;   /* kfc_node_kind */
    uint8_t plain;  /* scalar written in plain style (not quoted, not a block scalar) */
    uint32_t count; /* scalar: bytes of text; sequence: items; mapping: pairs */
    kfc_mark mark;  /* where the node starts (for an alias: where the alias is) */
    union {
        const char *text;      /* scalar: `count` bytes plus a NUL */
        const kfc_node *items; /* sequence: `count` nodes; mapping: 2 * `count`
                                   nodes, each key followed by its value */
    } as;
};

typedef struct kfc_yaml_limits {
    size_t max_input;         /* bytes of input; at most 1 GiB */
    uint32_t max_depth;       /* nesting levels of collections */
    uint64_t max_alias_nodes; /* nodes all aliases together may add */
    uint64_t *probes;         /* if not NULL, counts the slots the duplicate-key and anchor
                                  tables visit (a test hook; default NULL) */
} kfc_yaml_limits;

#define KFC_YAML_MAX_INPUT       ((size_t)256 << 20)
#define KFC_YAML_MAX_DEPTH       64u
#define KFC_YAML_MAX_ALIAS_NODES 1000000u

/* The defaults above. */
void kfc_yaml_limits_default(kfc_yaml_limits *limits);

typedef struct kfc_document {
    kfc_node root;
    kfc_arena arena;
} kfc_document;

/*
 * Called when an entry of the root mapping is complete (`section` NULL, `key`
 * the root key, `value` its value), and when an entry of a top-level section
 * is (`section` the root key whose value holds it, `key` the entry's key for
 * a mapping or NULL for a list item, `value` the entry). Setting *consumed
 * for a section entry frees it; the nodes passed are valid only during the
 * call. Anything but KFC_OK stops the parse with that status, and the
 * consumer has filled `diag`.
 */
typedef kfc_status (*kfc_entry_fn)(void *user, const kfc_node *section, const kfc_node *key,
                                   const kfc_node *value, int *consumed, kfc_diag *diag);

typedef struct kfc_yaml_consumer {
    kfc_entry_fn entry;
    void *user;
} kfc_yaml_consumer;

/*
 * Parses `size` bytes of YAML (UTF-8, or UTF-16 with a byte-order mark).
 * `limits` NULL means the defaults; `consumer` may be NULL. On success fills
 * `doc`; on failure leaves `doc` empty (safe to free), fills `diag` and
 * returns KFC_INVALID (syntax or limit), KFC_NOMEM, or the consumer's
 * status.
 */
kfc_status kfc_yaml_parse(const void *data, size_t size, const kfc_yaml_limits *limits,
                          const kfc_yaml_consumer *consumer, kfc_document *doc, kfc_diag *diag);

void kfc_document_free(kfc_document *doc);

/* Mapping accessors: pair `i` < node->count. */
static inline const kfc_node *kfc_map_key(const kfc_node *map, uint32_t i)
{
    return &map->as.items[2 * (size_t)i];
}

static inline const kfc_node *kfc_map_value(const kfc_node *map, uint32_t i)
{
    return &map->as.items[2 * (size_t)i + 1];
}

/* Whether `node` is a scalar whose text is exactly `text`. */
int kfc_scalar_is(const kfc_node *node, const char *text);

#endif /* KFC_YAML_H */
