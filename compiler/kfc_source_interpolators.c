/* The `interpolators:` section: name -> X3D interpolator node (clause 19),
 * with X3D's field names. */
#include <stdint.h>
#include <string.h>

#include "kfc_schema.h"
#include "kfc_source_sections.h"

enum {
    F_NODE,
    F_KEY,
    F_KEY_VALUE,
    F_KEY_VELOCITY,
    F_EASE_IN_EASE_OUT,
    F_CLOSED,
    F_NORMALIZE_VELOCITY,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {
    "node", "key", "keyValue", "keyVelocity", "easeInEaseOut", "closed", "normalizeVelocity",
};

/* The nodes of one interpolator, kept to place the builder's errors. */
typedef struct interpolator_nodes {
    const kfc_node *name; /* the mapping key */
    const kfc_node *fields[F_COUNT];
} interpolator_nodes;

/* How an entry of `node`'s keyValue is written, for messages. */
static const char *entry_shape(kf_node node)
{
    switch (node) {
    case KF_NODE_POSITION_INTERPOLATOR_2D:
    case KF_NODE_COORDINATE_INTERPOLATOR_2D:
    case KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D:
        return "[x, y]";
    case KF_NODE_COLOR_INTERPOLATOR:
        return "[r, g, b]";
    case KF_NODE_ORIENTATION_INTERPOLATOR:
    case KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR:
        return "[x, y, z, angle]";
    case KF_NODE_EASE_IN_EASE_OUT:
        return "[easeIn, easeOut]";
    default:
        return "[x, y, z]";
    }
}

/* Reads the entries of an MF field into out[0 .. count*dimension-1]: numbers
 * when `dimension` is 1, else lists of `dimension` numbers. */
static kfc_status read_entries(kfc_source *src, const kfc_node *field, uint32_t dimension,
                               const char *shape, double *out)
{
    for (uint32_t i = 0; i < field->count; i++) {
        const kfc_node *entry = &field->as.items[i];
        kfc_status st;
        if (dimension == 1) {
            if ((st = kfc_get_float(entry, out++, src->diag)))
                return st;
            continue;
        }
        if (entry->kind != KFC_NODE_SEQUENCE || entry->count != dimension)
            return kfc_fail(src->diag, KFC_INVALID, entry->mark,
                            "expected a list of %lu numbers %s", (unsigned long)dimension, shape);
        for (uint32_t k = 0; k < dimension; k++)
            if ((st = kfc_get_float(&entry->as.items[k], out++, src->diag)))
                return st;
    }
    return KFC_OK;
}

/* Entry `item` of the list `field`, or the field itself. */
static const kfc_node *entry_node(const kfc_node *field, uint32_t item)
{
    if (field && field->kind == KFC_NODE_SEQUENCE && item < field->count)
        return &field->as.items[item];
    return field;
}

/* The node a builder error about `field` / `item` is reported at. */
static const kfc_node *error_node(const interpolator_nodes *n, const kf_error *error)
{
    const kfc_node *at = NULL;
    switch (error->field) {
    case KF_FIELD_NODE:
        at = n->fields[F_NODE];
        break;
    case KF_FIELD_KEYS:
        at = n->fields[F_KEY];
        break;
    case KF_FIELD_KEY_TIME:
        at = entry_node(n->fields[F_KEY], error->item);
        break;
    case KF_FIELD_KEY_VALUE:
    case KF_FIELD_TANGENTS: /* a tangent too large for float32: its key's value */
        at = entry_node(n->fields[F_KEY_VALUE], error->item);
        break;
    case KF_FIELD_KEY_VELOCITY:
        at = entry_node(n->fields[F_KEY_VELOCITY], error->item);
        break;
    case KF_FIELD_EASE_IN_EASE_OUT:
        at = entry_node(n->fields[F_EASE_IN_EASE_OUT], error->item);
        break;
    case KF_FIELD_CLOSED:
        at = n->fields[F_CLOSED];
        break;
    case KF_FIELD_NORMALIZE_VELOCITY:
        at = n->fields[F_NORMALIZE_VELOCITY];
        break;
    default:
        break;
    }
    return at ? at : n->name;
}

/* The node type named by `field`. */
static kfc_status read_node(kfc_source *src, const kfc_node *field, kf_node *out)
{
    const char *text;
    kfc_status st = kfc_get_string(field, &text, src->diag);
    if (st)
        return st;
    for (int i = 0; i < KF_NODE_COUNT; i++) {
        if (strcmp(kf_node_name((kf_node)i), text) == 0) {
            *out = (kf_node)i;
            return KFC_OK;
        }
    }
    char quoted[KFC_QUOTE_SIZE];
    return kfc_fail(src->diag, KFC_INVALID, field->mark,
                    "unknown node %s (expected an X3D interpolator node such as "
                    "ScalarInterpolator or EaseInEaseOut)",
                    kfc_quote(quoted, field->as.text, field->count));
}

kfc_status kfc_source_interpolator(kfc_source *src, const kfc_node *name, const kfc_node *body)
{
    interpolator_nodes n;
    n.name = name;
    kfc_status st = kfc_fields(body, field_names, F_COUNT, n.fields, src->diag);
    if (st)
        return st;
    if ((st = kfc_require(name, n.fields[F_NODE], "node", src->diag))
        || (st = kfc_require(name, n.fields[F_KEY], "key", src->diag)))
        return st;

    kf_interpolator_desc desc;
    kf_interpolator_desc_init(&desc);
    if ((st = kfc_get_string(name, &desc.name, src->diag))
        || (st = read_node(src, n.fields[F_NODE], &desc.node)))
        return st;
    const int ease = desc.node == KF_NODE_EASE_IN_EASE_OUT;
    if ((st = kfc_require(name, n.fields[ease ? F_EASE_IN_EASE_OUT : F_KEY_VALUE],
                          field_names[ease ? F_EASE_IN_EASE_OUT : F_KEY_VALUE], src->diag)))
        return st;
    for (int f = F_KEY; f <= F_EASE_IN_EASE_OUT; f++)
        if (n.fields[f] && (st = kfc_expect_list(n.fields[f], src->diag)))
            return st;

    /* key into src->times; keyValue, keyVelocity and easeInEaseOut one after
     * the other into src->values. */
    const uint32_t d = kf_node_dimension(desc.node);
    const kfc_node *key = n.fields[F_KEY], *value = n.fields[F_KEY_VALUE];
    const kfc_node *velocity = n.fields[F_KEY_VELOCITY], *pairs = n.fields[F_EASE_IN_EASE_OUT];
    desc.key_count = key->count;
    desc.value_count = value ? value->count : 0;
    desc.velocity_count = velocity ? velocity->count : 0;
    desc.ease_count = pairs ? pairs->count : 0;
    const size_t numbers = ((size_t)desc.value_count + desc.velocity_count) * d +
                           (size_t)desc.ease_count * 2;
    if ((st = kfc_source_reserve(src, &src->times, &src->times_capacity, desc.key_count + 1))
        || (st = kfc_source_reserve(src, &src->values, &src->values_capacity, numbers + 1))
        || (st = read_entries(src, key, 1, "", src->times)))
        return st;
    /* A field the node does not have is passed unread, for the builder to
     * name (EaseInEaseOut's keyValue, another node's easeInEaseOut). */
    double *at = src->values;
    if (value && !ease && (st = read_entries(src, value, d, entry_shape(desc.node), at)))
        return st;
    desc.key = src->times;
    desc.key_value = at;
    at += (size_t)desc.value_count * d;
    if (velocity && (st = read_entries(src, velocity, d, entry_shape(desc.node), at)))
        return st;
    desc.key_velocity = at;
    at += (size_t)desc.velocity_count * d;
    if (pairs && ease && (st = read_entries(src, pairs, 2, entry_shape(KF_NODE_EASE_IN_EASE_OUT), at)))
        return st;
    desc.ease_in_ease_out = at;
    if ((n.fields[F_CLOSED] && (st = kfc_get_bool(n.fields[F_CLOSED], &desc.closed, src->diag)))
        || (n.fields[F_NORMALIZE_VELOCITY]
            && (st = kfc_get_bool(n.fields[F_NORMALIZE_VELOCITY], &desc.normalize_velocity,
                                  src->diag))))
        return st;

    kf_error error;
    kf_result r = kf_builder_add_interpolator(src->builder, &desc, &error);
    if (r != KF_OK)
        return kfc_source_builder_failed(src, r, &error, error_node(&n, &error));
    return KFC_OK;
}
