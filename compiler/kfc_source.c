/* SPDX-License-Identifier: MIT */
#include "kfc_source.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_schema.h"
#include "kfc_section.h"

#define KFC_SOURCE_VERSION 1u

/*
 * The sections in build order: animators before the tracks that name them,
 * controllers before the tracks that name them. Animators depend on nothing,
 * so they are built while the document is parsed, wherever they stand in it
 * (and they are the bulk of a file); the rest waits for the end.
 */
static const kfc_section *const sections[] = {
    &kfc_section_sequences,   &kfc_section_interpolators, &kfc_section_followers,
    &kfc_section_controllers, &kfc_section_tracks,
};

#define SECTION_COUNT (sizeof sections / sizeof sections[0])
#define FIELD_COUNT   (1 + SECTION_COUNT) /* "kfb" and the sections */

static void field_names(const char *names[FIELD_COUNT])
{
    names[0] = "kfb";
    for (size_t i = 0; i < SECTION_COUNT; i++)
        names[1 + i] = sections[i]->name;
}

/* The version is checked as soon as it is parsed, once. */
static kfc_status check_version(kfc_source *src, const kfc_node *value)
{
    uint32_t version = 0;
    kfc_status st = kfc_get_uint(value, 0, UINT32_MAX, &version, src->diag);
    if (!st && version != KFC_SOURCE_VERSION)
        st = kfc_fail(src->diag, KFC_INVALID, value->mark,
                      "unsupported kfb version %lu (expected %u)", (unsigned long)version,
                      KFC_SOURCE_VERSION);
    return st;
}

/* Whether every key of the mapping `value` is a field of `s`. */
static int fields_of(const kfc_section *s, const kfc_node *value)
{
    const char *names[KFC_FIELDS_MAX];
    kfc_section_field_names(s, names);
    for (uint32_t i = 0; i < value->count; i++) {
        size_t f = 0;
        while (f < s->field_count && !kfc_scalar_is(kfc_map_key(value, i), names[f]))
            f++;
        if (f == s->field_count)
            return 0;
    }
    return 1;
}

/* The one other animator section (they are the streamed ones) whose
 * fields an entry of `s` has, every one, where `s` lacks some: where the
 * entry was meant to go. NULL where none or several. */
static const kfc_section *meant_section(const kfc_section *s, const kfc_node *value)
{
    if (value->kind != KFC_NODE_MAPPING || value->count == 0 || fields_of(s, value))
        return NULL;
    const kfc_section *meant = NULL;
    for (size_t i = 0; i < SECTION_COUNT; i++) {
        if (sections[i] == s || !sections[i]->streamed || !fields_of(sections[i], value))
            continue;
        if (meant)
            return NULL;
        meant = sections[i];
    }
    return meant;
}

/* Called by the parser as entries complete (kfc_entry_fn). */
static kfc_status on_entry(void *user, const kfc_node *section, const kfc_node *key,
                           const kfc_node *value, int *consumed, kfc_diag *diag)
{
    kfc_source *src = user;
    (void)diag; /* src->diag is the same record */
    if (!section) {
        /* The section, if that is one, is complete: its last entry has no
         * key of it to wait for. */
        kfc_section_end(src);
        /* A top-level field: check what can be checked now, so that a wrong
         * version or section name is reported before what follows it. */
        const char *names[FIELD_COUNT];
        field_names(names);
        for (size_t i = 0; i < FIELD_COUNT; i++)
            if (kfc_scalar_is(key, names[i]))
                return i == 0 ? kfc_recover(src->diag, check_version(src, value)) : KFC_OK;
        return kfc_recover(src->diag, kfc_unknown_field(key, names, FIELD_COUNT, src->diag));
    }
    for (size_t i = 0; i < SECTION_COUNT; i++) {
        const kfc_section *s = sections[i];
        if (s->streamed && kfc_scalar_is(section, s->name) &&
            (key != NULL) == (s->shape == KFC_NODE_MAPPING)) {
            *consumed = 1;
            return kfc_section_entry(src, s, key, value, key ? meant_section(s, value) : NULL);
        }
    }
    return KFC_OK;
}

/* Builds the entries of one section that were not built while parsing. */
static kfc_status build_section(kfc_source *src, const kfc_section *s, const kfc_node *value)
{
    kfc_status st = kfc_section_expect(s, value, src->diag);
    if (st)
        return kfc_recover(src->diag, st);
    if (s->shape == KFC_NODE_MAPPING) {
        for (uint32_t i = 0; i < value->count && !st; i++)
            if (kfc_map_value(value, i)->kind != KFC_NODE_CONSUMED)
                st =
                    kfc_section_entry(src, s, kfc_map_key(value, i), kfc_map_value(value, i), NULL);
    } else {
        for (uint32_t i = 0; i < value->count && !st; i++)
            if (value->as.items[i].kind != KFC_NODE_CONSUMED)
                st = kfc_section_entry(src, s, NULL, &value->as.items[i], NULL);
    }
    kfc_section_end(src);
    return st;
}

/* The sections, once the whole document is parsed. Each top-level key was
 * checked as it was parsed (on_entry). */
static kfc_status build_document(kfc_source *src, const kfc_node *root, kfc_mark *tracks_mark)
{
    const char *names[FIELD_COUNT];
    const kfc_node *values[FIELD_COUNT] = {NULL};
    field_names(names);
    kfc_status st = kfc_expect_mapping(root, src->diag);
    if (st)
        return st;
    for (uint32_t i = 0; i < root->count; i++)
        for (size_t f = 0; f < FIELD_COUNT; f++)
            if (kfc_scalar_is(kfc_map_key(root, i), names[f]) &&
                kfc_map_value(root, i)->kind != KFC_NODE_CONSUMED)
                values[f] = kfc_map_value(root, i);
    st = kfc_recover(src->diag, kfc_require(root, values[0], "kfb", src->diag));
    for (size_t i = 0; i < SECTION_COUNT && !st; i++)
        if (values[1 + i]) {
            const unsigned before = src->diag->errors - src->diag->promoted;
            if (sections[i] == &kfc_section_tracks)
                *tracks_mark = values[1 + i]->mark;
            st = build_section(src, sections[i], values[1 + i]);
            if (sections[i] == &kfc_section_tracks)
                src->tracks_failed = src->diag->errors - src->diag->promoted != before;
        }
    return st;
}

/* In a file with tracks, what no track plays (a file without any is a
 * library of animators a program samples). Not after an error: what a
 * failed track would have used would be reported too. */
static kfc_status warn_unused(kfc_source *src)
{
    static const struct {
        kfc_warning warning;
        const char *what, *unused;
    } kinds[] = {
        [KFC_NAME_SEQUENCE] = {KFC_WARN_UNUSED_SEQUENCE, "sequence", "no track plays it"},
        [KFC_NAME_INTERPOLATOR] = {KFC_WARN_UNUSED_INTERPOLATOR, "interpolator",
                                   "no track plays it or eases with it"},
        [KFC_NAME_FOLLOWER] = {KFC_WARN_UNUSED_FOLLOWER, "follower", "no track plays it"},
        [KFC_NAME_CONTROLLER] = {KFC_WARN_UNUSED_CONTROLLER, "controller", "no track has it"},
    };
    kfc_status st = KFC_OK;
    for (size_t i = 0; i < src->names.count && src->tracks.count && !st; i++) {
        const kfc_name *n = &src->names.names[i];
        if (n->used || n->failed)
            continue;
        char quoted[KFC_QUOTE_SIZE];
        st = kfc_warn(src->diag, kinds[n->kind].warning, n->mark, "%s %s is unused: %s",
                      kinds[n->kind].what, kfc_quote(quoted, n->text, n->length),
                      kinds[n->kind].unused);
    }
    return st;
}

kfc_status kfc_source_compile(const void *data, size_t size, const kfc_yaml_limits *limits,
                              kf_builder *builder, kfc_mark *tracks_mark, kfc_diag *diag)
{
    kfc_mark unused;
    if (!tracks_mark)
        tracks_mark = &unused;
    *tracks_mark = KFC_NO_MARK;
    kfc_source src;
    memset(&src, 0, sizeof src);
    src.builder = builder;
    src.diag = diag;
    kfc_names_init(&src.names);
    const unsigned errors = diag->errors, promoted = diag->promoted;
    kfc_yaml_consumer consumer = {on_entry, &src};
    kfc_document doc;
    kfc_status st = kfc_yaml_parse(data, size, limits, &consumer, &doc, diag);
    /* Before a syntax error that stopped the parse, which the caller
     * prints: it is further down. */
    kfc_section_end(&src);
    if (!st)
        st = build_document(&src, &doc.root, tracks_mark);
    if (!st)
        st = kfc_warn_long_times(&src);
    if (!st && diag->errors - diag->promoted == errors - promoted)
        st = warn_unused(&src);
    /* Errors reported and recovered from fail the compile all the same. */
    if (!st && diag->errors != errors) {
        st = KFC_INVALID;
        diag->printed = 1; /* each one was */
    }
    kfc_document_free(&doc);
    kfc_names_free(&src.names);
    free(src.long_times.items);
    free(src.tracks.targets);
    for (int i = 0; i < KFC_SCRATCH_COUNT; i++)
        free(src.scratch[i].data);
    return st;
}
