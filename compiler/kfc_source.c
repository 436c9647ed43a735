#include "kfc_source.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_schema.h"
#include "kfc_source_sections.h"

#define KFC_SOURCE_VERSION 1u

/*
 * The sections in build order: animators before the tracks that name them,
 * controllers before the tracks that name them. Animators depend on nothing,
 * so they are built while the document is parsed, wherever they stand in it
 * (and they are the bulk of a file); the rest waits for the end.
 */
static const struct section {
    const char        *name;
    kfc_node_kind      shape;     /* KFC_NODE_MAPPING (name -> entry) or _SEQUENCE */
    int                streamed;  /* built as each entry is parsed */
    kfc_entry_build_fn build;
} sections[] = {
    {"sequences", KFC_NODE_MAPPING, 1, kfc_source_sequence},
    {"interpolators", KFC_NODE_MAPPING, 1, kfc_source_interpolator},
    {"followers", KFC_NODE_MAPPING, 1, kfc_source_follower},
    {"controllers", KFC_NODE_MAPPING, 0, kfc_source_controller},
    {"tracks", KFC_NODE_SEQUENCE, 0, kfc_source_track},
};

#define SECTION_COUNT (sizeof sections / sizeof sections[0])
#define FIELD_COUNT   (1 + SECTION_COUNT) /* "kfb" and the sections */

static void field_names(const char *names[FIELD_COUNT])
{
    names[0] = "kfb";
    for (size_t i = 0; i < SECTION_COUNT; i++)
        names[1 + i] = sections[i].name;
}

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

/* Called by the parser as entries complete (kfc_entry_fn). */
static kfc_status on_entry(void *user, const kfc_node *section, const kfc_node *key,
                           const kfc_node *value, int *consumed, kfc_diag *diag)
{
    kfc_source *src = user;
    (void)diag; /* src->diag is the same record */
    if (!section) {
        /* A top-level field: check what can be checked now, so that a wrong
         * version or section name is reported before what follows it. */
        const char *names[FIELD_COUNT];
        field_names(names);
        for (size_t i = 0; i < FIELD_COUNT; i++)
            if (kfc_scalar_is(key, names[i]))
                return i == 0 ? check_version(src, value) : KFC_OK;
        return kfc_unknown_field(key, names, FIELD_COUNT, src->diag);
    }
    for (size_t i = 0; i < SECTION_COUNT; i++) {
        const struct section *s = &sections[i];
        if (s->streamed && kfc_scalar_is(section, s->name)
            && (key != NULL) == (s->shape == KFC_NODE_MAPPING)) {
            *consumed = 1;
            return s->build(src, key, value);
        }
    }
    return KFC_OK;
}

/* Builds the entries of one section that were not built while parsing. */
static kfc_status build_section(kfc_source *src, const struct section *s, const kfc_node *value)
{
    kfc_status st = s->shape == KFC_NODE_MAPPING ? kfc_expect_mapping(value, src->diag)
                                                 : kfc_expect_list(value, src->diag);
    if (s->shape == KFC_NODE_MAPPING) {
        for (uint32_t i = 0; i < value->count && !st; i++)
            if (kfc_map_value(value, i)->kind != KFC_NODE_CONSUMED)
                st = s->build(src, kfc_map_key(value, i), kfc_map_value(value, i));
    } else {
        for (uint32_t i = 0; i < value->count && !st; i++)
            if (value->as.items[i].kind != KFC_NODE_CONSUMED)
                st = s->build(src, NULL, &value->as.items[i]);
    }
    return st;
}

static kfc_status build_document(kfc_source *src, const kfc_node *root)
{
    const char *names[FIELD_COUNT];
    const kfc_node *values[FIELD_COUNT];
    field_names(names);
    kfc_status st = kfc_fields(root, names, FIELD_COUNT, values, src->diag);
    if (!st)
        st = kfc_require(root, values[0], "kfb", src->diag);
    if (!st)
        st = check_version(src, values[0]);
    for (size_t i = 0; i < SECTION_COUNT && !st; i++)
        if (values[1 + i])
            st = build_section(src, &sections[i], values[1 + i]);
    return st;
}

kfc_status kfc_source_compile(const void *data, size_t size, const kfc_yaml_limits *limits,
                              kf_builder *builder, kfc_diag *diag)
{
    kfc_source src = {builder, diag, NULL, 0, NULL, 0, NULL, 0, NULL, 0};
    kfc_yaml_consumer consumer = {on_entry, &src};
    kfc_document doc;
    kfc_status st = kfc_yaml_parse(data, size, limits, &consumer, &doc, diag);
    if (!st)
        st = build_document(&src, &doc.root);
    kfc_document_free(&doc);
    free(src.times);
    free(src.values);
    free(src.tcb);
    free(src.tangents);
    return st;
}

kfc_status kfc_source_builder_failed(kfc_source *src, kf_result result, const kf_error *error,
                                     const kfc_node *at)
{
    kfc_status status = result == KF_ERROR_OUT_OF_MEMORY ? KFC_NOMEM
                        : result == KF_ERROR_IO          ? KFC_IO
                                                         : KFC_INVALID;
    const char *message = error->message[0] ? error->message : kf_result_message(result);
    /* The builder quotes names as given; a name may hold a line break,
     * and a diagnostic is one line. */
    char line[sizeof error->message * 4];
    size_t n = 0;
    for (const char *c = message; *c && n + 5 < sizeof line; c++) {
        unsigned char u = (unsigned char)*c;
        if (u < 0x20 || u == 0x7f)
            n += (size_t)snprintf(line + n, sizeof line - n, "\\x%02x", u);
        else
            line[n++] = (char)u;
    }
    line[n] = '\0';
    return kfc_fail(src->diag, status, at->mark, "%s", line);
}

kfc_status kfc_source_reserve(kfc_source *src, double **array, size_t *capacity, size_t count)
{
    if (count <= *capacity)
        return KFC_OK;
    size_t grown = *capacity ? *capacity : 64;
    while (grown < count)
        grown = grown > SIZE_MAX / 2 ? count : grown * 2;
    if (grown > SIZE_MAX / sizeof **array)
        return kfc_fail_nomem(src->diag);
    double *p = realloc(*array, grown * sizeof *p);
    if (!p)
        return kfc_fail_nomem(src->diag);
    *array = p;
    *capacity = grown;
    return KFC_OK;
}
