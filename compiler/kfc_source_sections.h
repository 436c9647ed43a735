/*
 * kfc_source_sections.h - what the files of the source layer share.
 *
 * Each top-level section of a source document has its own file
 * (kfc_source_<section>.c) with one entry point that builds one entry of the
 * section; kfc_source.c lists the sections in the order they are built and
 * walks them. Adding a section is one file and one table row.
 */
#ifndef KFC_SOURCE_SECTIONS_H
#define KFC_SOURCE_SECTIONS_H

#include <stddef.h>

#include "kf_build.h"
#include "kfc_diag.h"
#include "kfc_yaml.h"

typedef struct kfc_source {
    kf_builder *builder;
    kfc_diag   *diag;
    /* Scratch arrays for key data, reused from one sequence to the next. */
    double     *times;
    size_t      times_capacity;
    double     *values;
    size_t      values_capacity;
    double     *tcb;            /* tension, continuity, bias per key */
    size_t      tcb_capacity;
    double     *tangents;       /* hermite: in-, then out-tangent per key */
    size_t      tangents_capacity;
} kfc_source;

/* Builds one entry of a section: `key` is the entry's name in a section
 * that is a mapping, NULL in one that is a list; `value` is the entry. */
typedef kfc_status (*kfc_entry_build_fn)(kfc_source *src, const kfc_node *key,
                                         const kfc_node *value);

kfc_status kfc_source_sequence(kfc_source *src, const kfc_node *name, const kfc_node *body);
kfc_status kfc_source_interpolator(kfc_source *src, const kfc_node *name, const kfc_node *body);
kfc_status kfc_source_follower(kfc_source *src, const kfc_node *name, const kfc_node *body);
kfc_status kfc_source_controller(kfc_source *src, const kfc_node *name, const kfc_node *body);
kfc_status kfc_source_track(kfc_source *src, const kfc_node *unused, const kfc_node *track);

/* Reports a failed builder call (`error` as the builder filled it) at `at`,
 * the node the caller mapped error->field and error->item to. */
kfc_status kfc_source_builder_failed(kfc_source *src, kf_result result, const kf_error *error,
                                     const kfc_node *at);

/* Grows a scratch array to hold `count` doubles. */
kfc_status kfc_source_reserve(kfc_source *src, double **array, size_t *capacity, size_t count);

#endif /* KFC_SOURCE_SECTIONS_H */
