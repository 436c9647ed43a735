/* The `sequences:` section: name -> M3G KeyframeSequence. */
#include <stdint.h>

#include "kfc_schema.h"
#include "kfc_source_sections.h"

enum {
    F_INTERPOLATION,
    F_REPEAT,
    F_DURATION,
    F_VALID_RANGE,
    F_ARC_LENGTH,
    F_KEYS,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {
    "interpolation", "repeat", "duration", "valid_range", "arc_length", "keys",
};

/* The optional third item of a key: Kochanek-Bartels parameters, or on a
 * hermite sequence the key's tangents. */
static const char *const tcb_names[3] = {"tension", "continuity", "bias"};
static const char *const tangent_names[2] = {"in", "out"};

/* The nodes of one sequence, kept to place the builder's errors. */
typedef struct sequence_nodes {
    const kfc_node *name;   /* the mapping key */
    const kfc_node *fields[F_COUNT];
} sequence_nodes;

static const char *interpolation_name(int index)
{
    return kf_interpolation_name((kf_interpolation)index);
}

static const char *repeat_name(int index)
{
    return kf_repeat_name((kf_repeat)index);
}

/* A key's value: a number (one component) or a list of numbers. */
static const kfc_node *value_items(const kfc_node *value, uint32_t *count)
{
    if (value->kind == KFC_NODE_SEQUENCE) {
        *count = value->count;
        return value->as.items;
    }
    *count = 1;
    return value;
}

/* A hermite tangent: `components` numbers like the key's value. */
static kfc_status read_tangent(kfc_source *src, const kfc_node *node, uint32_t components,
                               double *out)
{
    uint32_t count;
    const kfc_node *items = value_items(node, &count);
    if (count != components)
        return kfc_fail(src->diag, KFC_INVALID, node->mark,
                        "a tangent has %lu component%s, expected %lu like the key's value",
                        (unsigned long)count, count == 1 ? "" : "s", (unsigned long)components);
    kfc_status st = KFC_OK;
    for (uint32_t c = 0; c < count && !st; c++)
        st = kfc_get_float(&items[c], &out[c], src->diag);
    return st;
}

/* A key's third item: {tension, continuity, bias} into tcb[0..2], absent
 * fields 0 (their range is the builder's to check); on a hermite sequence
 * {in, out} into tangents[0 .. 2*components-1], absent ones 0 (flat). */
static kfc_status read_key_map(kfc_source *src, const kfc_node *map, int hermite,
                               uint32_t components, double *tcb, double *tangents,
                               int *has_tcb)
{
    if (map->kind != KFC_NODE_MAPPING)
        return kfc_fail(src->diag, KFC_INVALID, map->mark,
                        hermite ? "expected a mapping {in, out} of tangents"
                                : "expected a mapping {tension, continuity, bias}");
    const kfc_node *values[3];
    kfc_status st;
    if (hermite) {
        st = kfc_fields(map, tangent_names, 2, values, src->diag);
        for (uint32_t i = 0; i < 2 && !st; i++)
            if (values[i])
                st = read_tangent(src, values[i], components, tangents + i * components);
        return st;
    }
    *has_tcb = 1;
    st = kfc_fields(map, tcb_names, 3, values, src->diag);
    for (int i = 0; i < 3 && !st; i++) {
        tcb[i] = 0.0;
        if (values[i])
            st = kfc_get_float(values[i], &tcb[i], src->diag);
    }
    return st;
}

/* Reads every key into src->times / src->values (and src->tcb, setting
 * *has_tcb when some key gives the map; hermite: src->tangents), fixing
 * the component count from the first key. */
static kfc_status read_keys(kfc_source *src, const kfc_node *keys, int hermite,
                            uint32_t *components, int *has_tcb)
{
    kfc_status st = kfc_expect_list(keys, src->diag);
    if (st)
        return st;
    *components = 0;
    *has_tcb = 0;
    if (keys->count == 0)
        return KFC_OK; /* the builder reports "no keys" */
    if ((st = kfc_source_reserve(src, &src->times, &src->times_capacity, keys->count)))
        return st;
    /* count is 32-bit: 3 * count fits in size_t. */
    if ((st = kfc_source_reserve(src, &src->tcb, &src->tcb_capacity, 3 * (size_t)keys->count)))
        return st;
    double *values = NULL;
    for (uint32_t k = 0; k < keys->count; k++) {
        const kfc_node *key = &keys->as.items[k];
        if (key->kind != KFC_NODE_SEQUENCE || key->count < 2 || key->count > 3)
            return kfc_fail(src->diag, KFC_INVALID, key->mark,
                            "expected a key [time, value] or [time, [value, ...]], "
                            "optionally followed by {tension, continuity, bias}");
        double *tcb = src->tcb + 3 * (size_t)k;
        tcb[0] = tcb[1] = tcb[2] = 0.0;
        if ((st = kfc_get_float(&key->as.items[0], &src->times[k], src->diag)))
            return st;
        uint32_t count;
        const kfc_node *items = value_items(&key->as.items[1], &count);
        if (k == 0) {
            *components = count;
            if (count > SIZE_MAX / 2 / keys->count)
                return kfc_fail_nomem(src->diag);
            if ((st = kfc_source_reserve(src, &src->values, &src->values_capacity,
                                         (size_t)keys->count * count)) ||
                (hermite && (st = kfc_source_reserve(src, &src->tangents,
                                                     &src->tangents_capacity,
                                                     2 * (size_t)keys->count * count))))
                return st;
            values = src->values;
        } else if (count != *components) {
            return kfc_fail(src->diag, KFC_INVALID, key->as.items[1].mark,
                            "key %lu has %lu component%s, expected %lu like key 0",
                            (unsigned long)k, (unsigned long)count, count == 1 ? "" : "s",
                            (unsigned long)*components);
        }
        for (uint32_t c = 0; c < count; c++)
            if ((st = kfc_get_float(&items[c], values++, src->diag)))
                return st;
        double *tangents = hermite ? src->tangents + 2 * (size_t)k * count : NULL;
        for (uint32_t c = 0; tangents && c < 2 * count; c++)
            tangents[c] = 0.0;
        if (key->count == 3 && (st = read_key_map(src, &key->as.items[2], hermite, count, tcb,
                                                  tangents, has_tcb)))
            return st;
    }
    return KFC_OK;
}

static const kfc_node *key_part(const kfc_node *keys, uint32_t item, uint32_t part)
{
    if (item >= keys->count || keys->as.items[item].kind != KFC_NODE_SEQUENCE
        || part >= keys->as.items[item].count)
        return keys;
    return &keys->as.items[item].as.items[part];
}

/* Where a builder error about tension/continuity/bias belongs: for key
 * `item`, the value the builder refused (the first outside [-1, 1] once
 * stored as float32), else that key's map; for the sequence as a whole
 * (KF_NO_INDEX: its interpolation takes none), the first key's map. */
static const kfc_node *tcb_error_node(const kfc_node *keys, uint32_t item)
{
    for (uint32_t k = 0; k < keys->count; k++) {
        const kfc_node *map = key_part(keys, k, 2);
        if (map == keys || (item != KF_NO_INDEX && k != item))
            continue;
        if (item == KF_NO_INDEX || map->kind != KFC_NODE_MAPPING)
            return map;
        for (uint32_t f = 0; f < map->count; f++) {
            const kfc_node *value = kfc_map_value(map, f);
            double x;
            if (kfc_get_number(value, &x, NULL) == KFC_OK &&
                !((float)x >= -1.0f && (float)x <= 1.0f))
                return value;
        }
        return map;
    }
    return keys;
}

/* The node a builder error about `field` / `item` is reported at. */
static const kfc_node *error_node(const sequence_nodes *n, const kf_error *error)
{
    const kfc_node *keys = n->fields[F_KEYS];
    const kfc_node *at = NULL;
    switch (error->field) {
    case KF_FIELD_NAME:
        return n->name;
    case KF_FIELD_INTERPOLATION:
        at = n->fields[F_INTERPOLATION];
        break;
    case KF_FIELD_REPEAT:
        at = n->fields[F_REPEAT];
        break;
    case KF_FIELD_DURATION:
        at = n->fields[F_DURATION];
        break;
    case KF_FIELD_VALID_RANGE:
        /* item names the index (0 first, 1 last); a defaulted range is the
         * key list's. */
        at = n->fields[F_VALID_RANGE];
        if (at && error->item < 2 && at->kind == KFC_NODE_SEQUENCE && at->count == 2)
            at = &at->as.items[error->item];
        else if (!at)
            at = keys;
        break;
    case KF_FIELD_COMPONENTS:
        at = key_part(keys, 0, 1);
        break;
    case KF_FIELD_KEYS:
        at = keys;
        break;
    case KF_FIELD_KEY_TIME:
        at = key_part(keys, error->item, 0);
        break;
    case KF_FIELD_KEY_VALUE:
        at = key_part(keys, error->item, 1);
        break;
    case KF_FIELD_TANGENTS:
        at = error->item < keys->count ? &keys->as.items[error->item] : keys;
        break;
    case KF_FIELD_TCB:
        at = tcb_error_node(keys, error->item);
        break;
    case KF_FIELD_ARC_LENGTH:
        at = n->fields[F_ARC_LENGTH];
        break;
    default:
        break;
    }
    return at ? at : n->name;
}

kfc_status kfc_source_sequence(kfc_source *src, const kfc_node *name, const kfc_node *body)
{
    sequence_nodes n;
    n.name = name;
    kfc_status st = kfc_fields(body, field_names, F_COUNT, n.fields, src->diag);
    if (st)
        return st;
    static const int required[] = {F_INTERPOLATION, F_DURATION, F_KEYS};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if ((st = kfc_require(name, n.fields[required[i]], field_names[required[i]], src->diag)))
            return st;

    kf_sequence_desc desc;
    kf_sequence_desc_init(&desc);
    int code;
    if ((st = kfc_get_string(name, &desc.name, src->diag)))
        return st;
    if ((st = kfc_get_enum(n.fields[F_INTERPOLATION], interpolation_name, "interpolation", &code,
                           src->diag)))
        return st;
    desc.interpolation = (kf_interpolation)code;
    if (n.fields[F_REPEAT]) {
        if ((st = kfc_get_enum(n.fields[F_REPEAT], repeat_name, "repeat", &code, src->diag)))
            return st;
        desc.repeat = (kf_repeat)code;
    }
    if ((st = kfc_get_float(n.fields[F_DURATION], &desc.duration, src->diag)))
        return st;
    int has_tcb;
    const int hermite = desc.interpolation == KF_INTERPOLATION_HERMITE;
    if ((st = read_keys(src, n.fields[F_KEYS], hermite, &desc.components, &has_tcb)))
        return st;
    desc.tcb = has_tcb ? src->tcb : NULL;
    desc.tangents = hermite && n.fields[F_KEYS]->count ? src->tangents : NULL;
    if (n.fields[F_ARC_LENGTH] && (st = kfc_get_bool(n.fields[F_ARC_LENGTH], &desc.arc_length,
                                                      src->diag)))
        return st;
    desc.key_count = n.fields[F_KEYS]->count;
    if (desc.key_count == 0) {
        /* No key gives the count; take one the interpolation accepts so
         * that the builder reports the missing keys. */
        int quaternion = desc.interpolation == KF_INTERPOLATION_SLERP || desc.interpolation == KF_INTERPOLATION_SQUAD;
        desc.components = quaternion ? 4 : 1;
    }
    desc.times = src->times;
    desc.values = src->values;
    desc.valid_first = 0;
    desc.valid_last = desc.key_count ? desc.key_count - 1 : 0;
    if (n.fields[F_VALID_RANGE]) {
        const kfc_node *range = n.fields[F_VALID_RANGE];
        if (range->kind != KFC_NODE_SEQUENCE || range->count != 2)
            return kfc_fail(src->diag, KFC_INVALID, range->mark,
                            "expected a list of two key indices [first, last]");
        if ((st = kfc_get_uint(&range->as.items[0], 0, UINT32_MAX - 1, &desc.valid_first,
                               src->diag))
            || (st = kfc_get_uint(&range->as.items[1], 0, UINT32_MAX - 1, &desc.valid_last,
                                  src->diag)))
            return st;
    }

    kf_error error;
    kf_result r = kf_builder_add_sequence(src->builder, &desc, &error);
    if (r != KF_OK)
        return kfc_source_builder_failed(src, r, &error, error_node(&n, &error));
    return KFC_OK;
}
