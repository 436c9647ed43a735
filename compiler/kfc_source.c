#include "kfc_source.h"

#include <stdint.h>
#include <stdlib.h>

#include "kfc_schema.h"
#include "kfc_source_sections.h"

#define KFC_SOURCE_VERSION 1u

/* Build order: animators before the tracks that name them, controllers
 * before the tracks that name them. */
static const struct {
    const char    *name;
    kfc_section_fn build;
} sections[] = {
    {"sequences", kfc_source_sequences},
    {"controllers", kfc_source_controllers},
    {"tracks", kfc_source_tracks},
};

#define SECTION_COUNT (sizeof sections / sizeof sections[0])

kfc_status kfc_source_build(const kfc_node *root, kf_builder *builder, kfc_diag *diag)
{
    const char *names[1 + SECTION_COUNT];
    const kfc_node *values[1 + SECTION_COUNT];
    names[0] = "kfb";
    for (size_t i = 0; i < SECTION_COUNT; i++)
        names[1 + i] = sections[i].name;

    kfc_status st = kfc_fields(root, names, 1 + SECTION_COUNT, values, diag);
    if (!st)
        st = kfc_require(root, values[0], "kfb", diag);
    uint32_t version = 0;
    if (!st)
        st = kfc_get_uint(values[0], 0, UINT32_MAX, &version, diag);
    if (!st && version != KFC_SOURCE_VERSION)
        st = kfc_fail(diag, KFC_INVALID, values[0]->mark,
                      "unsupported kfb version %lu (expected %u)", (unsigned long)version,
                      KFC_SOURCE_VERSION);
    if (st)
        return st;

    kfc_source src = {builder, diag, NULL, 0, NULL, 0};
    for (size_t i = 0; i < SECTION_COUNT && !st; i++)
        if (values[1 + i])
            st = sections[i].build(&src, values[1 + i]);
    free(src.times);
    free(src.values);
    return st;
}

kfc_status kfc_source_builder_failed(kfc_source *src, kf_result result, const kf_error *error,
                                     const kfc_node *at)
{
    kfc_status status = result == KF_ERROR_OUT_OF_MEMORY ? KFC_NOMEM
                        : result == KF_ERROR_IO          ? KFC_IO
                                                         : KFC_INVALID;
    const char *message = error->message[0] ? error->message : kf_result_message(result);
    return kfc_fail(src->diag, status, at->mark, "%s", message);
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
