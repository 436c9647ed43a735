/* The `controllers:` section: name -> AnimationController initial state. */
#include "kfc_schema.h"
#include "kfc_source_sections.h"

enum {
    F_SPEED,
    F_WEIGHT,
    F_ACTIVE_INTERVAL,
    F_REFERENCE,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {
    "speed", "weight", "active_interval", "reference",
};

static const kfc_node *error_node(const kfc_node *name, const kfc_node *const *fields,
                                  const kf_error *error)
{
    const kfc_node *at = NULL;
    switch (error->field) {
    case KF_FIELD_SPEED:
        at = fields[F_SPEED];
        break;
    case KF_FIELD_WEIGHT:
        at = fields[F_WEIGHT];
        break;
    case KF_FIELD_ACTIVE_INTERVAL:
        at = fields[F_ACTIVE_INTERVAL];
        break;
    case KF_FIELD_REFERENCE:
        at = fields[F_REFERENCE];
        break;
    default:
        break;
    }
    return at ? at : name;
}

kfc_status kfc_source_controller(kfc_source *src, const kfc_node *name, const kfc_node *body)
{
    const kfc_node *fields[F_COUNT];
    kfc_status st = kfc_fields(body, field_names, F_COUNT, fields, src->diag);
    if (st)
        return st;
    kf_controller_desc desc;
    kf_controller_desc_init(&desc);
    double pair[2];
    if ((st = kfc_get_string(name, &desc.name, src->diag)))
        return st;
    if (fields[F_SPEED] && (st = kfc_get_number(fields[F_SPEED], &desc.speed, src->diag)))
        return st;
    if (fields[F_WEIGHT] && (st = kfc_get_number(fields[F_WEIGHT], &desc.weight, src->diag)))
        return st;
    if (fields[F_ACTIVE_INTERVAL]) {
        if ((st = kfc_get_number_pair(fields[F_ACTIVE_INTERVAL], "[start, end]", 0, pair,
                                      src->diag)))
            return st;
        desc.active_start = pair[0];
        desc.active_end = pair[1];
    }
    if (fields[F_REFERENCE]) {
        if ((st = kfc_get_number_pair(fields[F_REFERENCE], "[world, sequence]", 0, pair,
                                      src->diag)))
            return st;
        desc.ref_world = pair[0];
        desc.ref_sequence = pair[1];
    }
    kf_error error;
    kf_result r = kf_builder_add_controller(src->builder, &desc, &error);
    if (r != KF_OK)
        return kfc_source_builder_failed(src, r, &error, error_node(name, fields, &error));
    return KFC_OK;
}
