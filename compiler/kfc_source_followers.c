/* The `followers:` section: name -> X3D chaser or damper (clause 39). */
#include <stdint.h>
#include <string.h>

#include "kfc_schema.h"
#include "kfc_source_sections.h"

enum {
    F_NODE,
    F_INITIAL_VALUE,
    F_INITIAL_DESTINATION,
    F_DURATION,
    F_TAU,
    F_ORDER,
    F_TOLERANCE,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {
    "node", "initialValue", "initialDestination", "duration", "tau", "order", "tolerance",
};

/* The nodes of one follower, kept to place the builder's errors. */
typedef struct follower_nodes {
    const kfc_node *name;
    const kfc_node *fields[F_COUNT];
} follower_nodes;

static const char *node_name(int index)
{
    return kf_follower_node_name((kf_follower_node)index);
}

/*
 * An initial field into `out` (src->values from `offset` on): a number or a
 * list of numbers for a single value, a list of points (each a list of
 * `element` numbers) for an array node. *count receives the numbers read.
 */
static kfc_status read_field(kfc_source *src, const kfc_node *field, int array, uint32_t element,
                             size_t offset, uint32_t *count)
{
    kfc_status st;
    *count = 0;
    /* To the builder no numbers mean "not given"; an empty list is an X3D
     * empty array, which only the array nodes have. */
    if (!array && field->kind == KFC_NODE_SEQUENCE && field->count == 0)
        return kfc_fail(src->diag, KFC_INVALID, field->mark, "expected %lu number%s, not none",
                        (unsigned long)element, element == 1 ? "" : "s");
    if (!array && field->kind == KFC_NODE_SCALAR) {
        if ((st = kfc_source_reserve(src, &src->values, &src->values_capacity, offset + 1)))
            return st;
        *count = 1;
        return kfc_get_float(field, &src->values[offset], src->diag);
    }
    if ((st = kfc_expect_list(field, src->diag)))
        return st;
    if (!array) {
        if ((st = kfc_source_reserve(src, &src->values, &src->values_capacity,
                                     offset + field->count)))
            return st;
        for (uint32_t i = 0; i < field->count; i++)
            if ((st = kfc_get_float(&field->as.items[i], &src->values[offset + i], src->diag)))
                return st;
        *count = field->count;
        return KFC_OK;
    }
    if (field->count == 0)
        return KFC_OK; /* an empty array: the field is not given */
    if ((size_t)field->count > (SIZE_MAX - offset) / element)
        return kfc_fail_nomem(src->diag);
    if ((st = kfc_source_reserve(src, &src->values, &src->values_capacity,
                                 offset + (size_t)field->count * element)))
        return st;
    double *out = src->values + offset;
    for (uint32_t p = 0; p < field->count; p++) {
        const kfc_node *point = &field->as.items[p];
        if (point->kind != KFC_NODE_SEQUENCE || point->count != element)
            return kfc_fail(src->diag, KFC_INVALID, point->mark,
                            "expected a point of %lu numbers [x, y%s]", (unsigned long)element,
                            element == 3 ? ", z" : "");
        for (uint32_t c = 0; c < element; c++)
            if ((st = kfc_get_float(&point->as.items[c], out++, src->diag)))
                return st;
    }
    if ((uint64_t)field->count * element > UINT32_MAX)
        return kfc_fail(src->diag, KFC_INVALID, field->mark, "too many points");
    *count = field->count * element;
    return KFC_OK;
}

/* The node a builder error about `field` / `item` is reported at. */
static const kfc_node *error_node(const follower_nodes *n, int array, const kf_error *error)
{
    const kfc_node *at = NULL;
    switch (error->field) {
    case KF_FIELD_NAME:
        return n->name;
    case KF_FIELD_NODE:
        at = n->fields[F_NODE];
        break;
    case KF_FIELD_INITIAL_VALUE:
    case KF_FIELD_INITIAL_DESTINATION:
        at = n->fields[error->field == KF_FIELD_INITIAL_VALUE ? F_INITIAL_VALUE
                                                               : F_INITIAL_DESTINATION];
        /* item names the point of an array */
        if (at && array && at->kind == KFC_NODE_SEQUENCE && error->item < at->count)
            at = &at->as.items[error->item];
        break;
    case KF_FIELD_DURATION:
        at = n->fields[F_DURATION];
        break;
    case KF_FIELD_TAU:
        at = n->fields[F_TAU];
        break;
    case KF_FIELD_ORDER:
        at = n->fields[F_ORDER];
        break;
    case KF_FIELD_TOLERANCE:
        at = n->fields[F_TOLERANCE];
        break;
    default:
        break;
    }
    return at ? at : n->name;
}

kfc_status kfc_source_follower(kfc_source *src, const kfc_node *name, const kfc_node *body)
{
    follower_nodes n;
    n.name = name;
    kfc_status st = kfc_fields(body, field_names, F_COUNT, n.fields, src->diag);
    if (st || (st = kfc_require(name, n.fields[F_NODE], "node", src->diag)))
        return st;
    int code;
    if ((st = kfc_get_enum(n.fields[F_NODE], node_name, "node", &code, src->diag)))
        return st;
    const kf_follower_node node = (kf_follower_node)code;
    const int damper = kf_follower_node_is_damper(node);
    const int array = kf_follower_node_is_array(node);
    /* A chaser has a duration, a damper tau, order and tolerance: the
     * other family's fields are a mistake, not something to ignore. */
    for (int f = F_DURATION; f <= F_TOLERANCE; f++) {
        const int damper_field = f != F_DURATION;
        if (n.fields[f] && damper_field != damper)
            return kfc_fail(src->diag, KFC_INVALID, n.fields[f]->mark,
                            "%s %s has no field '%s' (%s)",
                            strchr("AEIOU", kf_follower_node_name(node)[0]) ? "an" : "a",
                            kf_follower_node_name(node), field_names[f],
                            damper ? "dampers have tau, order, tolerance"
                                   : "chasers have duration");
    }

    kf_follower_desc desc;
    kf_follower_desc_init(&desc, node);
    if ((st = kfc_get_string(name, &desc.name, src->diag)))
        return st;
    const uint32_t element = kf_follower_node_field_components(node);
    uint32_t value_count = 0, destination_count = 0;
    if (n.fields[F_INITIAL_VALUE]
        && (st = read_field(src, n.fields[F_INITIAL_VALUE], array, element, 0, &value_count)))
        return st;
    if (n.fields[F_INITIAL_DESTINATION]
        && (st = read_field(src, n.fields[F_INITIAL_DESTINATION], array, element, value_count,
                            &destination_count)))
        return st;
    /* Both fields live in src->values: read them before taking pointers. */
    desc.initial_value = value_count ? src->values : NULL;
    desc.initial_value_count = value_count;
    desc.initial_destination = destination_count ? src->values + value_count : NULL;
    desc.initial_destination_count = destination_count;
    if (n.fields[F_DURATION] && (st = kfc_get_float(n.fields[F_DURATION], &desc.duration,
                                                    src->diag)))
        return st;
    if (n.fields[F_TAU] && (st = kfc_get_float(n.fields[F_TAU], &desc.tau, src->diag)))
        return st;
    if (n.fields[F_ORDER]) {
        uint32_t order;
        if ((st = kfc_get_uint(n.fields[F_ORDER], 0, INT32_MAX, &order, src->diag)))
            return st;
        desc.order = (int32_t)order;
    }
    if (n.fields[F_TOLERANCE]
        && (st = kfc_get_float(n.fields[F_TOLERANCE], &desc.tolerance, src->diag)))
        return st;

    kf_error error;
    kf_result r = kf_builder_add_follower(src->builder, &desc, &error);
    if (r != KF_OK)
        return kfc_source_builder_failed(src, r, &error, error_node(&n, array, &error));
    return KFC_OK;
}
