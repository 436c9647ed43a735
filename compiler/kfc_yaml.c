/* SPDX-License-Identifier: MIT */
#include "kfc_yaml.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "kf_index.h"
#include "kfc_grow.h"
#include "kfc_yaml_hint.h"

/*
 * The tree is built bottom-up from the event stream. Finished nodes are
 * pushed, by value, on a `pending` stack; a collection's start opens a frame
 * that remembers where its children begin on that stack, and its end copies
 * those children into one arena array and pushes the collection in their
 * place. Every node is thus copied a bounded number of times and the whole
 * build is linear in the number of events.
 */

/* A mapping's keys are checked against the earlier ones pairwise up to
 * this many; past it, through a hash table of the mapping's own. */
#define SMALL_MAPPING 16u

typedef struct frame {
    kfc_node_kind kind;
    kfc_mark mark;
    size_t start;       /* index of the first child on `pending` */
    uint64_t weight;    /* nodes in the subtree, aliases expanded */
    const char *anchor; /* in the arena, or NULL */
    size_t anchor_length;
    uint32_t *key_slots; /* mappings past SMALL_MAPPING: pair index + 1, 0 empty */
    size_t key_slot_capacity;
    uint64_t key_secret[2]; /* the table's hash key, drawn when it is built */
    int drop_value;         /* the key just pushed repeats an earlier one: its value is
                               left out of the tree (a placeholder) once complete */
} frame;

typedef struct anchor {
    const char *name; /* NULL: empty slot */
    size_t length;
    uint64_t hash;
    kfc_node node;
    uint64_t weight;
} anchor;

typedef struct builder {
    const kfc_yaml_limits *limits;
    kfc_arena *arena;
    kfc_diag *diag;
    frame *frames; /* limits->max_depth entries */
    uint32_t depth;
    kfc_node *pending;
    size_t pending_count;
    size_t pending_capacity;
    uint64_t alias_nodes; /* nodes added by aliases so far */
    anchor *anchors;      /* open addressing, power-of-two capacity */
    size_t anchor_count;
    size_t anchor_capacity;
    uint64_t anchor_secret[2]; /* the anchor table's hash key */
    uint64_t anchors_defined;  /* ever, redefinitions included */
    int have_root;
    const kfc_yaml_consumer *consumer;
    kfc_arena_mark entry_mark; /* where the current section entry began */
    uint64_t entry_anchors;    /* anchors_defined then */
} builder;

void kfc_yaml_limits_default(kfc_yaml_limits *limits)
{
    limits->max_input = KFC_YAML_MAX_INPUT;
    limits->max_depth = KFC_YAML_MAX_DEPTH;
    limits->max_alias_nodes = KFC_YAML_MAX_ALIAS_NODES;
    limits->probes = NULL;
}

static kfc_mark mark_of(yaml_mark_t m)
{
    /* libyaml counts from 0; diagnostics count from 1. The input limit keeps
     * both within 32 bits. */
    kfc_mark r;
    r.line = (uint32_t)m.line + 1;
    r.column = (uint32_t)m.column + 1;
    return r;
}

/* Keys and anchor names come from the source: hashed under a secret of
 * their table's own (kf_index.h), names crafted to collide cost no more
 * than any others. */
static uint64_t hash_text(const uint64_t key[2], const char *text, size_t length)
{
    return kf_hash_keyed(key, text, length);
}

static void count_probe(const builder *b)
{
    if (b->limits->probes)
        ++*b->limits->probes;
}

static const char *arena_text(builder *b, const unsigned char *text, size_t length)
{
    char *copy = kfc_arena_alloc(b->arena, length + 1, 1);
    if (!copy)
        return NULL;
    if (length)
        memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
}

/* ---- anchors ------------------------------------------------------------ */

static anchor *anchor_slot(const builder *b, anchor *table, size_t capacity, const char *name,
                           size_t length, uint64_t hash)
{
    size_t i = (size_t)hash & (capacity - 1);
    for (;;) {
        anchor *a = &table[i];
        count_probe(b);
        if (!a->name ||
            (a->hash == hash && a->length == length && memcmp(a->name, name, length) == 0))
            return a;
        i = (i + 1) & (capacity - 1);
    }
}

static kfc_status define_anchor(builder *b, const char *name, size_t length, const kfc_node *node,
                                uint64_t weight)
{
    if (2 * (b->anchor_count + 1) > b->anchor_capacity) {
        size_t capacity = b->anchor_capacity ? 2 * b->anchor_capacity : 16;
        anchor *table = calloc(capacity, sizeof *table);
        if (!table)
            return kfc_fail_nomem(b->diag);
        kf_hash_key_draw(b->anchor_secret, table, b);
        for (size_t i = 0; i < b->anchor_capacity; i++) {
            anchor old = b->anchors[i];
            if (old.name) {
                old.hash = hash_text(b->anchor_secret, old.name, old.length);
                *anchor_slot(b, table, capacity, old.name, old.length, old.hash) = old;
            }
        }
        free(b->anchors);
        b->anchors = table;
        b->anchor_capacity = capacity;
    }
    uint64_t hash = hash_text(b->anchor_secret, name, length);
    anchor *a = anchor_slot(b, b->anchors, b->anchor_capacity, name, length, hash);
    if (!a->name)
        b->anchor_count++;
    b->anchors_defined++;
    /* YAML lets a later anchor of the same name replace the earlier one for
     * the aliases that follow it. */
    a->name = name;
    a->length = length;
    a->hash = hash;
    a->node = *node;
    a->weight = weight;
    return KFC_OK;
}

static const anchor *find_anchor(const builder *b, const unsigned char *name)
{
    if (!b->anchor_count)
        return NULL;
    size_t length = strlen((const char *)name);
    const anchor *a = anchor_slot(b, b->anchors, b->anchor_capacity, (const char *)name, length,
                                  hash_text(b->anchor_secret, (const char *)name, length));
    return a->name ? a : NULL;
}

/* ---- duplicate keys -------------------------------------------------------- */

static int same_key(const kfc_node *a, const kfc_node *b)
{
    return a->count == b->count && memcmp(a->as.text, b->as.text, a->count) == 0;
}

static kfc_status duplicate_key(builder *b, const kfc_node *first, const kfc_node *second)
{
    char quoted[KFC_QUOTE_SIZE];
    return kfc_fail(b->diag, KFC_INVALID, second->mark, "duplicate key %s (first at %lu:%lu)",
                    kfc_quote(quoted, second->as.text, second->count),
                    (unsigned long)first->mark.line, (unsigned long)first->mark.column);
}

/* Inserts pair `index` of mapping `f` into its table, or finds its twin. */
static const kfc_node *key_table_insert(builder *b, frame *f, uint32_t index)
{
    const kfc_node *key = &b->pending[f->start + 2 * (size_t)index];
    size_t mask = f->key_slot_capacity - 1;
    size_t s = (size_t)hash_text(f->key_secret, key->as.text, key->count) & mask;
    for (count_probe(b); f->key_slots[s]; count_probe(b)) {
        const kfc_node *other = &b->pending[f->start + 2 * (size_t)(f->key_slots[s] - 1)];
        if (same_key(other, key))
            return other;
        s = (s + 1) & mask;
    }
    f->key_slots[s] = index + 1;
    return NULL;
}

/* Checks the key just pushed as pair `index` of mapping `f` against the
 * mapping's earlier keys. */
static kfc_status check_new_key(builder *b, frame *f, uint32_t index)
{
    const kfc_node *key = &b->pending[f->start + 2 * (size_t)index];
    if (index < SMALL_MAPPING) {
        for (uint32_t i = 0; i < index; i++)
            if (same_key(&b->pending[f->start + 2 * (size_t)i], key)) {
                f->drop_value = 1;
                return kfc_recover(b->diag,
                                   duplicate_key(b, &b->pending[f->start + 2 * (size_t)i], key));
            }
        return KFC_OK;
    }
    if (2 * ((size_t)index + 1) > f->key_slot_capacity) {
        /* (Re)build the table at twice the size: amortized constant. */
        size_t capacity = f->key_slot_capacity ? 2 * f->key_slot_capacity : 4 * SMALL_MAPPING;
        uint32_t *slots = calloc(capacity, sizeof *slots);
        if (!slots)
            return kfc_fail_nomem(b->diag);
        free(f->key_slots);
        f->key_slots = slots;
        f->key_slot_capacity = capacity;
        kf_hash_key_draw(f->key_secret, slots, f);
        for (uint32_t i = 0; i < index; i++)
            key_table_insert(b, f, i);
    }
    const kfc_node *first = key_table_insert(b, f, index);
    if (!first)
        return KFC_OK;
    f->drop_value = 1;
    return kfc_recover(b->diag, duplicate_key(b, first, key));
}

/* ---- the pending stack ----------------------------------------------------- */

/* Whether the node starting now (or just finished) at the current depth is
 * an entry: a value in a mapping, or an item in a sequence. */
static int at_entry(const builder *b)
{
    const frame *parent = &b->frames[b->depth - 1];
    return parent->kind == KFC_NODE_SEQUENCE || (b->pending_count - parent->start) % 2 == 1;
}

/* Whether the node starting now (or just finished) is an entry of a
 * top-level section, with a consumer to give it to. */
static int at_section_entry(const builder *b)
{
    /* The section must be a value of the root mapping, not a (complex) key. */
    return b->consumer && b->depth == 2 && b->frames[0].kind == KFC_NODE_MAPPING &&
           (b->frames[1].start - b->frames[0].start) % 2 == 1 && at_entry(b);
}

/* Called before anything of a new node is allocated. */
static void node_starts(builder *b)
{
    if (at_section_entry(b)) {
        b->entry_mark = kfc_arena_save(b->arena);
        b->entry_anchors = b->anchors_defined;
    }
}

/* Offers a finished entry to the consumer; `node` may become a placeholder. */
static kfc_status offer_entry(builder *b, kfc_node *node)
{
    int consumed = 0;
    if (b->depth == 1) {
        if (b->frames[0].kind != KFC_NODE_MAPPING || !at_entry(b))
            return KFC_OK;
        return b->consumer->entry(b->consumer->user, NULL, &b->pending[b->pending_count - 1], node,
                                  &consumed, b->diag);
    }
    if (!at_section_entry(b))
        return KFC_OK;
    const frame *section = &b->frames[1];
    const kfc_node *key =
        section->kind == KFC_NODE_MAPPING ? &b->pending[b->pending_count - 1] : NULL;
    kfc_status st = b->consumer->entry(b->consumer->user, &b->pending[section->start - 1], key,
                                       node, &consumed, b->diag);
    if (st || !consumed)
        return st;
    kfc_node placeholder;
    placeholder.kind = KFC_NODE_CONSUMED;
    placeholder.plain = 0;
    placeholder.count = 0;
    placeholder.mark = node->mark;
    placeholder.as.items = NULL;
    *node = placeholder;
    /* An anchor defined inside still points into the entry's memory. */
    if (b->anchors_defined == b->entry_anchors)
        kfc_arena_rewind(b->arena, b->entry_mark);
    return KFC_OK;
}

/* Adds a finished node (with `weight` nodes in its expanded subtree) to the
 * collection being built, or makes it the root (pending[0]). */
static kfc_status push_node(builder *b, kfc_node node, uint64_t weight)
{
    frame *parent = b->depth ? &b->frames[b->depth - 1] : NULL;
    int is_key =
        parent && parent->kind == KFC_NODE_MAPPING && (b->pending_count - parent->start) % 2 == 0;
    if (is_key && node.kind != KFC_NODE_SCALAR)
        return kfc_fail(b->diag, KFC_INVALID, node.mark, "a mapping key must be a scalar");
    if (!is_key && parent && parent->drop_value) {
        /* The value of a repeated key (reported, recovered from): nobody
         * reads it, so nothing follows from it. */
        parent->drop_value = 0;
        node.kind = KFC_NODE_CONSUMED;
        node.plain = 0;
        node.count = 0;
        node.as.items = NULL;
    } else if (!is_key && parent && b->consumer && b->depth <= 2) {
        kfc_status st = offer_entry(b, &node);
        if (st)
            return st;
    }
    kfc_node *grown =
        kfc_grow(b->pending, b->pending_count, &b->pending_capacity, sizeof *grown, 256);
    if (!grown)
        return kfc_fail_nomem(b->diag);
    b->pending = grown;
    b->pending[b->pending_count++] = node;
    if (!parent) {
        b->have_root = 1; /* a second document is refused at its start */
        return KFC_OK;
    }
    parent->weight += weight;
    if (is_key)
        return check_new_key(b, parent, (uint32_t)((b->pending_count - 1 - parent->start) / 2));
    return KFC_OK;
}

/* ---- events ---------------------------------------------------------------- */

static kfc_status no_tag(builder *b, const yaml_char_t *tag, yaml_mark_t mark)
{
    if (!tag)
        return KFC_OK;
    char quoted[KFC_QUOTE_SIZE];
    /* The node reads on as if untagged. */
    return kfc_recover(
        b->diag, kfc_fail(b->diag, KFC_INVALID, mark_of(mark), "tags are not supported (found %s)",
                          kfc_quote(quoted, (const char *)tag, strlen((const char *)tag))));
}

static kfc_status on_scalar(builder *b, const yaml_event_t *e)
{
    kfc_status st = no_tag(b, e->data.scalar.tag, e->start_mark);
    if (st)
        return st;
    node_starts(b);
    kfc_node node;
    node.kind = KFC_NODE_SCALAR;
    node.plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    node.count = (uint32_t)e->data.scalar.length;
    node.mark = mark_of(e->start_mark);
    node.as.text = arena_text(b, e->data.scalar.value, e->data.scalar.length);
    if (!node.as.text)
        return kfc_fail_nomem(b->diag);
    if (e->data.scalar.anchor) {
        const unsigned char *name = e->data.scalar.anchor;
        size_t length = strlen((const char *)name);
        const char *copy = arena_text(b, name, length);
        if (!copy)
            return kfc_fail_nomem(b->diag);
        if ((st = define_anchor(b, copy, length, &node, 1)) != KFC_OK)
            return st;
    }
    return push_node(b, node, 1);
}

static kfc_status on_alias(builder *b, const yaml_event_t *e)
{
    const anchor *a = find_anchor(b, e->data.alias.anchor);
    char quoted[KFC_QUOTE_SIZE];
    if (!a)
        return kfc_fail(b->diag, KFC_INVALID, mark_of(e->start_mark), "undefined alias %s",
                        kfc_quote(quoted, (const char *)e->data.alias.anchor,
                                  strlen((const char *)e->data.alias.anchor)));
    if (a->weight > b->limits->max_alias_nodes - b->alias_nodes)
        return kfc_fail(b->diag, KFC_INVALID, mark_of(e->start_mark),
                        "aliases expand to more than %llu nodes",
                        (unsigned long long)b->limits->max_alias_nodes);
    b->alias_nodes += a->weight;
    node_starts(b);
    kfc_node node = a->node;
    node.mark = mark_of(e->start_mark);
    return push_node(b, node, a->weight);
}

static kfc_status on_collection_start(builder *b, kfc_node_kind kind, const yaml_char_t *tag,
                                      const yaml_char_t *anchor_name, yaml_mark_t mark)
{
    kfc_status st = no_tag(b, tag, mark);
    if (st)
        return st;
    if (b->depth >= b->limits->max_depth)
        return kfc_fail(b->diag, KFC_INVALID, mark_of(mark), "nesting deeper than %lu levels",
                        (unsigned long)b->limits->max_depth);
    node_starts(b);
    frame *f = &b->frames[b->depth++];
    f->kind = kind;
    f->mark = mark_of(mark);
    f->start = b->pending_count;
    f->weight = 1;
    f->anchor = NULL;
    f->anchor_length = 0;
    f->key_slots = NULL;
    f->key_slot_capacity = 0;
    f->drop_value = 0;
    if (anchor_name) {
        f->anchor_length = strlen((const char *)anchor_name);
        f->anchor = arena_text(b, anchor_name, f->anchor_length);
        if (!f->anchor)
            return kfc_fail_nomem(b->diag);
    }
    return KFC_OK;
}

static kfc_status on_collection_end(builder *b)
{
    frame f = b->frames[--b->depth];
    free(f.key_slots);
    b->frames[b->depth].key_slots = NULL;
    size_t children = b->pending_count - f.start;
    kfc_node node;
    node.kind = (uint8_t)f.kind;
    node.plain = 0;
    node.mark = f.mark;
    node.count = (uint32_t)(f.kind == KFC_NODE_MAPPING ? children / 2 : children);
    node.as.items = NULL;
    if (children) {
        kfc_node *items = kfc_arena_alloc(b->arena, children * sizeof *items, alignof(kfc_node));
        if (!items)
            return kfc_fail_nomem(b->diag);
        memcpy(items, b->pending + f.start, children * sizeof *items);
        node.as.items = items;
    }
    b->pending_count = f.start;
    if (f.anchor) {
        kfc_status st = define_anchor(b, f.anchor, f.anchor_length, &node, f.weight);
        if (st)
            return st;
    }
    return push_node(b, node, f.weight);
}

static kfc_status on_event(builder *b, const yaml_event_t *e)
{
    switch (e->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (b->have_root)
            return kfc_fail(b->diag, KFC_INVALID, mark_of(e->start_mark),
                            "expected a single YAML document");
        return KFC_OK;
    case YAML_SCALAR_EVENT:
        return on_scalar(b, e);
    case YAML_ALIAS_EVENT:
        return on_alias(b, e);
    case YAML_SEQUENCE_START_EVENT:
        return on_collection_start(b, KFC_NODE_SEQUENCE, e->data.sequence_start.tag,
                                   e->data.sequence_start.anchor, e->start_mark);
    case YAML_MAPPING_START_EVENT:
        return on_collection_start(b, KFC_NODE_MAPPING, e->data.mapping_start.tag,
                                   e->data.mapping_start.anchor, e->start_mark);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_collection_end(b);
    default:
        return KFC_OK;
    }
}

/* ---- syntax errors --------------------------------------------------------- */

/* Reader errors (bad encoding) carry a byte offset, not a mark: the mark
 * libyaml's scanner would give there, in UTF-8 input (a byte order mark
 * is no character; "\r\n", "\r", "\n", U+0085, U+2028 and U+2029 end a
 * line). */
static kfc_mark mark_at_offset(const unsigned char *data, size_t size, size_t offset)
{
    kfc_mark m = {1, 1};
    size_t i = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (offset > size)
        offset = size;
    while (i < offset) {
        const size_t left = size - i;
        size_t n = data[i] == '\r' && left > 1 && data[i + 1] == '\n' ? 2
                   : data[i] == '\r' || data[i] == '\n'               ? 1
                   : left > 1 && memcmp(data + i, "\xC2\x85", 2) == 0 ? 2
                   : left > 2 && (memcmp(data + i, "\xE2\x80\xA8", 3) == 0 ||
                                  memcmp(data + i, "\xE2\x80\xA9", 3) == 0)
                       ? 3
                       : 0;
        if (n) {
            m.line++;
            m.column = 1;
            i += n;
            continue;
        }
        if ((data[i] & 0xC0) != 0x80)
            m.column++;
        i++;
    }
    return m;
}

static kfc_status syntax_error(builder *b, const yaml_parser_t *p, const unsigned char *data,
                               size_t size)
{
    const char *problem = p->problem ? p->problem : "invalid YAML";
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        return kfc_fail_nomem(b->diag);
    case YAML_READER_ERROR: {
        /* libyaml names the byte it stopped at: after a byte of another
         * encoding, the byte after it. */
        size_t at;
        char message[160];
        if (p->encoding == YAML_UTF8_ENCODING &&
            (strstr(problem, "UTF-8") || strcmp(problem, "invalid Unicode character") == 0) &&
            kfc_yaml_utf8_hint(data, size, &at, message, sizeof message))
            return kfc_fail(b->diag, KFC_INVALID, mark_at_offset(data, size, at), "%s", message);
        const kfc_mark mark = mark_at_offset(data, size, p->problem_offset);
        if (strcmp(problem, "control characters are not allowed") == 0)
            return kfc_fail(b->diag, KFC_INVALID, mark, "%s (U+%04X)", problem,
                            (unsigned)p->problem_value);
        if (p->problem_value != -1)
            return kfc_fail(b->diag, KFC_INVALID, mark, "%s (0x%02X)", problem,
                            (unsigned)p->problem_value);
        return kfc_fail(b->diag, KFC_INVALID, mark, "%s", problem);
    }
    default: {
        /* libyaml names the tab only where it breaks an indentation it
         * already follows; a tab where a line's first token would start
         * (a source indented with tabs) is "a character that cannot start
         * any token". */
        const size_t at = p->problem_mark.index;
        const char *tab = at < size && data[at] == '\t' && !strstr(problem, "tab")
                              ? ": a tab, and YAML indents with spaces"
                              : "";
        const kfc_yaml_error e = {problem,    p->problem_mark.line, p->problem_mark.column,
                                  p->context, p->context_mark.line, p->context_mark.column};
        char hint[512];
        kfc_mark hint_mark;
        if (!*tab && kfc_yaml_hint(data, size, &e, &hint_mark, hint, sizeof hint))
            return kfc_fail(b->diag, KFC_INVALID, hint_mark, "%s", hint);
        if (p->context)
            return kfc_fail(b->diag, KFC_INVALID, mark_of(p->problem_mark), "%s (%s at %lu:%lu)%s",
                            problem, p->context, (unsigned long)p->context_mark.line + 1,
                            (unsigned long)p->context_mark.column + 1, tab);
        return kfc_fail(b->diag, KFC_INVALID, mark_of(p->problem_mark), "%s%s", problem, tab);
    }
    }
}

/* ---- entry points ---------------------------------------------------------- */

kfc_status kfc_yaml_parse(const void *data, size_t size, const kfc_yaml_limits *limits,
                          const kfc_yaml_consumer *consumer, kfc_document *doc, kfc_diag *diag)
{
    kfc_yaml_limits defaults;
    if (!limits) {
        kfc_yaml_limits_default(&defaults);
        limits = &defaults;
    }
    kfc_arena_init(&doc->arena);
    memset(&doc->root, 0, sizeof doc->root);

    size_t max_input = limits->max_input;
    if (max_input > ((size_t)1 << 30))
        max_input = (size_t)1 << 30;
    if (size > max_input) {
        if (max_input % (1u << 20) == 0)
            return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "input is larger than %lu MiB",
                            (unsigned long)(max_input >> 20));
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "input is larger than %lu bytes",
                        (unsigned long)max_input);
    }

    builder b;
    memset(&b, 0, sizeof b);
    b.limits = limits;
    b.arena = &doc->arena;
    b.diag = diag;
    b.consumer = consumer && consumer->entry ? consumer : NULL;
    b.frames = malloc((limits->max_depth ? limits->max_depth : 1) * sizeof *b.frames);
    if (!b.frames)
        return kfc_fail_nomem(diag);

    yaml_parser_t parser;
    kfc_status st = KFC_OK;
    if (!yaml_parser_initialize(&parser)) {
        free(b.frames);
        return kfc_fail_nomem(diag);
    }
    yaml_parser_set_input_string(&parser, data, size);
    /* One event of lookahead: an event is handled only once the next one
     * has parsed, so a syntax error right after an entry is reported rather
     * than what the consumer would find in the entry the error cut short. */
    yaml_event_t event, next;
    if (!yaml_parser_parse(&parser, &event)) {
        st = syntax_error(&b, &parser, data, size);
    } else {
        for (;;) {
            int done = event.type == YAML_STREAM_END_EVENT;
            if (!done && !yaml_parser_parse(&parser, &next)) {
                st = syntax_error(&b, &parser, data, size);
                yaml_event_delete(&event);
                break;
            }
            st = on_event(&b, &event);
            yaml_event_delete(&event);
            if (done)
                break;
            if (st) {
                yaml_event_delete(&next);
                break;
            }
            event = next;
        }
    }
    yaml_parser_delete(&parser);

    if (st == KFC_OK && !b.have_root)
        st = kfc_fail(diag, KFC_INVALID, (kfc_mark){1, 1}, "the input holds no YAML document");
    if (st == KFC_OK)
        doc->root = b.pending[0];
    for (uint32_t i = 0; i < b.depth; i++)
        free(b.frames[i].key_slots);
    free(b.frames);
    free(b.pending);
    free(b.anchors);
    if (st != KFC_OK)
        kfc_document_free(doc);
    return st;
}

void kfc_document_free(kfc_document *doc)
{
    kfc_arena_free(&doc->arena);
    memset(&doc->root, 0, sizeof doc->root);
}

int kfc_scalar_is(const kfc_node *node, const char *text)
{
    size_t length = strlen(text);
    return node->kind == KFC_NODE_SCALAR && node->count == length &&
           memcmp(node->as.text, text, length) == 0;
}
