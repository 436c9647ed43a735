/* SPDX-License-Identifier: MIT */
/* The `interpolators:` section: name -> X3D interpolator node (clause 19),
 * with X3D's field names. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kfc_schema.h"
#include "kfc_section.h"
#include "kfc_suggest.h"

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

/* What an interpolator is read into. */
typedef struct interpolator_in {
    kf_interpolator_desc desc;
    uint32_t dimension;
    int ease; /* an EaseInEaseOut */
    /* Where the list fields go in src->values (desc's const views). */
    double *key_value, *key_velocity, *ease_in_ease_out;
} interpolator_in;

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

/* Reads the entries of an MF field (a list) into out[0 ..
 * count*dimension-1]: numbers when `dimension` is 1, else lists of
 * `dimension` numbers. Each entry's errors are reported, of every entry. */
static kfc_status read_entries(kfc_source *src, const kfc_node *field, uint32_t dimension,
                               const char *shape, double *out)
{
    kfc_status first = KFC_OK, st;
    /* Numbers in a row, as an X3D file writes an MF field of vectors: one
     * error at the list, not one a number. */
    uint32_t numbers = 0;
    while (dimension > 1 && numbers < field->count &&
           field->as.items[numbers].kind == KFC_NODE_SCALAR)
        numbers++;
    if (numbers && numbers == field->count)
        return kfc_fail(src->diag, KFC_INVALID, field->mark,
                        "expected a list of %s, one a key, not %lu numbers in a row (X3D's "
                        "way of writing the field)",
                        shape, (unsigned long)numbers);
    for (uint32_t i = 0; i < field->count; i++, out += dimension) {
        const kfc_node *entry = &field->as.items[i];
        if (dimension == 1) {
            if ((st = kfc_recover_next(src->diag, kfc_get_float(entry, out, src->diag), &first)))
                return st;
            continue;
        }
        if (entry->kind != KFC_NODE_SEQUENCE || entry->count != dimension) {
            if ((st = kfc_recover_next(src->diag,
                                       kfc_fail(src->diag, KFC_INVALID, entry->mark,
                                                "expected a list of %lu numbers %s",
                                                (unsigned long)dimension, shape),
                                       &first)))
                return st;
            continue;
        }
        if ((st = kfc_recover_next(
                 src->diag, kfc_get_floats(entry->as.items, dimension, out, src->diag), &first)))
            return st;
    }
    return first;
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
    kfc_suggest sg;
    kfc_suggest_begin(&sg, src->diag, field->as.text, field->count);
    for (int i = 0; i < KF_NODE_COUNT; i++)
        kfc_suggest_offer(&sg, kf_node_name((kf_node)i), strlen(kf_node_name((kf_node)i)));
    char quoted[KFC_QUOTE_SIZE], mean[160];
    return kfc_fail(src->diag, KFC_INVALID, field->mark,
                    "unknown node %s (expected an X3D interpolator node such as "
                    "ScalarInterpolator or EaseInEaseOut)%s",
                    kfc_quote(quoted, field->as.text, field->count),
                    kfc_suggest_text(&sg, mean, sizeof mean));
}

/* A TimeSensor's fraction runs from 0 to 1: a key outside never plays. */
static kfc_status read_key(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    (void)entry;
    const double *key = src->scratch[KFC_SCRATCH_TIMES].data;
    kfc_status st = kfc_expect_list(value, src->diag);
    if (!st)
        st = read_entries(src, value, 1, "", src->scratch[KFC_SCRATCH_TIMES].data);
    uint32_t first = 0;
    const uint32_t outside = st ? 0 : kfc_keys_outside_fraction(key, value->count, &first);
    if (st || !outside)
        return st;
    return kfc_warn_fraction_range(src->diag, value->as.items[first].mark, first, key[first],
                                   outside - 1);
}

/*
 * A field the node does not have is passed unread, for the builder to name
 * (EaseInEaseOut's keyValue, another node's easeInEaseOut).
 */
static kfc_status read_key_value(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    interpolator_in *in = entry->state;
    kfc_status st = kfc_expect_list(value, src->diag);
    if (st || in->ease)
        return st;
    if ((st = read_entries(src, value, in->dimension, entry_shape(in->desc.node), in->key_value)))
        return st;
    if (in->desc.node == KF_NODE_ORIENTATION_INTERPOLATOR ||
        in->desc.node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR)
        return kfc_warn_angles(src, value, 1, in->key_value, value->count);
    return KFC_OK;
}

static kfc_status read_key_velocity(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    interpolator_in *in = entry->state;
    kfc_status st = kfc_expect_list(value, src->diag);
    if (st)
        return st;
    return read_entries(src, value, in->dimension, entry_shape(in->desc.node), in->key_velocity);
}

static kfc_status read_ease_in_ease_out(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    interpolator_in *in = entry->state;
    kfc_status st = kfc_expect_list(value, src->diag);
    if (st || !in->ease)
        return st;
    return read_entries(src, value, 2, entry_shape(KF_NODE_EASE_IN_EASE_OUT), in->ease_in_ease_out);
}

static kfc_status read_closed(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_bool(value, &((interpolator_in *)entry->state)->desc.closed, src->diag);
}

static kfc_status read_normalize_velocity(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_bool(value, &((interpolator_in *)entry->state)->desc.normalize_velocity,
                        src->diag);
}

static kfc_status emit_node(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, kf_node_name(((const kf_interpolator_info *)out)->node));
}

/* `count` entries of `dimension` floats: a flow list of numbers when the
 * dimension is 1, else a block list of flow lists. */
static kfc_status emit_entries(kfc_emitter *e, const float *v, uint32_t count, uint32_t dimension)
{
    kfc_status st;
    if ((st = kfc_emit_list_start(e, dimension == 1)))
        return st;
    for (uint32_t i = 0; i < count; i++) {
        if (dimension > 1 && (st = kfc_emit_list_start(e, 1)))
            return st;
        for (uint32_t k = 0; k < dimension; k++)
            if ((st = kfc_emit_float(e, v[(size_t)i * dimension + k])))
                return st;
        if (dimension > 1 && (st = kfc_emit_list_end(e)))
            return st;
    }
    return kfc_emit_list_end(e);
}

static kfc_status emit_key(kfc_emitter *e, const void *out)
{
    const kf_interpolator_info *info = out;
    return emit_entries(e, info->key, info->key_count, 1);
}

static int key_value_written(const void *out)
{
    return ((const kf_interpolator_info *)out)->key_value != NULL;
}

static kfc_status emit_key_value(kfc_emitter *e, const void *out)
{
    const kf_interpolator_info *info = out;
    return emit_entries(e, info->key_value, info->value_count, info->dimension);
}

static int key_velocity_written(const void *out)
{
    return ((const kf_interpolator_info *)out)->velocity_count != 0;
}

static kfc_status emit_key_velocity(kfc_emitter *e, const void *out)
{
    const kf_interpolator_info *info = out;
    return emit_entries(e, info->key_velocity, info->velocity_count, info->dimension);
}

static int ease_in_ease_out_written(const void *out)
{
    return ((const kf_interpolator_info *)out)->ease_in_ease_out != NULL;
}

static kfc_status emit_ease_in_ease_out(kfc_emitter *e, const void *out)
{
    const kf_interpolator_info *info = out;
    return emit_entries(e, info->ease_in_ease_out, info->key_count, 2);
}

/* false is the default: only true is written. */
static int closed_written(const void *out)
{
    return ((const kf_interpolator_info *)out)->closed;
}

static int normalize_velocity_written(const void *out)
{
    return ((const kf_interpolator_info *)out)->normalize_velocity;
}

static kfc_status emit_true(kfc_emitter *e, const void *out)
{
    (void)out;
    return kfc_emit_bool(e, 1);
}

_Static_assert(F_COUNT <= KFC_FIELDS_MAX, "raise KFC_FIELDS_MAX");

static const kfc_field fields[F_COUNT] = {
    /* key, required, pass, builder field, entry field, read, written, emit */
    [F_NODE] = {"node", 1, 0, KF_FIELD_NODE, KF_FIELD_NONE, NULL /* begin */, NULL, emit_node},
    [F_KEY] = {"key", 1, 0, KF_FIELD_KEYS, KF_FIELD_KEY_TIME, read_key, NULL, emit_key},
    [F_KEY_VALUE] = {"keyValue", 0, 0, KF_FIELD_NONE, KF_FIELD_KEY_VALUE, read_key_value,
                     key_value_written, emit_key_value},
    [F_KEY_VELOCITY] = {"keyVelocity", 0, 0, KF_FIELD_NONE, KF_FIELD_KEY_VELOCITY,
                        read_key_velocity, key_velocity_written, emit_key_velocity},
    [F_EASE_IN_EASE_OUT] = {"easeInEaseOut", 0, 0, KF_FIELD_NONE, KF_FIELD_EASE_IN_EASE_OUT,
                            read_ease_in_ease_out, ease_in_ease_out_written, emit_ease_in_ease_out},
    [F_CLOSED] = {"closed", 0, 0, KF_FIELD_CLOSED, KF_FIELD_NONE, read_closed, closed_written,
                  emit_true},
    [F_NORMALIZE_VELOCITY] = {"normalizeVelocity", 0, 0, KF_FIELD_NORMALIZE_VELOCITY, KF_FIELD_NONE,
                              read_normalize_velocity, normalize_velocity_written, emit_true},
};

/*
 * The node decides which value field is required and the size of every
 * entry: it is read first, and the scratch arrays are laid out for all the
 * list fields before any is read: key into the times; keyValue,
 * keyVelocity and easeInEaseOut one after the other into the values.
 */
static kfc_status begin(kfc_source *src, kfc_entry *entry)
{
    interpolator_in *in = entry->state;
    kf_interpolator_desc *desc = &in->desc;
    const kfc_node *const *f = entry->fields;
    kfc_status st;
    if (entry->failed & 1u << F_NODE) {
        entry->skip = 1;
        return KFC_OK;
    }
    if ((st = kfc_get_string(entry->name, &desc->name, src->diag)) ||
        (st = read_node(src, f[F_NODE], &desc->node)))
        return st;
    in->ease = desc->node == KF_NODE_EASE_IN_EASE_OUT;
    if (entry->defined)
        entry->defined->ease = (uint8_t)in->ease;
    /* A missing value field is reported, and the other fields read. */
    const int needed = in->ease ? F_EASE_IN_EASE_OUT : F_KEY_VALUE;
    if (!f[needed] &&
        (st = kfc_entry_missing(src, entry, &kfc_section_interpolators, (size_t)needed)))
        return st;
    /* (a field that is not a list, which its read reports, holds nothing) */
    uint32_t counts[F_COUNT] = {0};
    for (int i = F_KEY; i <= F_EASE_IN_EASE_OUT; i++)
        counts[i] = f[i] && f[i]->kind == KFC_NODE_SEQUENCE ? f[i]->count : 0;

    const uint32_t d = in->dimension = kf_node_dimension(desc->node);
    desc->key_count = counts[F_KEY];
    desc->value_count = counts[F_KEY_VALUE];
    desc->velocity_count = counts[F_KEY_VELOCITY];
    desc->ease_count = counts[F_EASE_IN_EASE_OUT];
    const size_t numbers =
        ((size_t)desc->value_count + desc->velocity_count) * d + (size_t)desc->ease_count * 2;
    if ((st = kfc_reserve(src, KFC_SCRATCH_TIMES, desc->key_count + 1)) ||
        (st = kfc_reserve(src, KFC_SCRATCH_VALUES, numbers + 1)))
        return st;
    double *at = src->scratch[KFC_SCRATCH_VALUES].data;
    desc->key = src->scratch[KFC_SCRATCH_TIMES].data;
    desc->key_value = in->key_value = at;
    at += (size_t)desc->value_count * d;
    desc->key_velocity = in->key_velocity = at;
    at += (size_t)desc->velocity_count * d;
    desc->ease_in_ease_out = in->ease_in_ease_out = at;
    return KFC_OK;
}

static kf_result add(kfc_source *src, kfc_entry *entry, kf_error *error)
{
    return kf_builder_add_interpolator(src->builder, &((interpolator_in *)entry->state)->desc,
                                       error);
}

/* A tangent too large for float32: its key's value. */
static const kfc_node *error_node(const kfc_entry *entry, const kf_error *error)
{
    if (error->field == KF_FIELD_TANGENTS)
        return kfc_entry_node(entry->fields[F_KEY_VALUE], error->item);
    return NULL;
}

static kfc_status read_entry(kfc_source *src, const kfc_node *key, const kfc_node *value)
{
    interpolator_in in;
    kf_interpolator_desc_init(&in.desc);
    in.dimension = 0;
    in.ease = 0;
    in.key_value = in.key_velocity = in.ease_in_ease_out = NULL;
    return kfc_section_read(src, &kfc_section_interpolators, key, value, &in);
}

static kfc_status load(kfc_emitter *e, const kf_anim *anim, uint32_t index, void *out,
                       const char **name)
{
    (void)e;
    kf_interpolator_info *info = out;
    kf_interpolator_get_info(kf_anim_interpolator(anim, index), info);
    *name = info->name;
    return KFC_OK;
}

static kfc_status emit_section(kfc_emitter *e, const kf_anim *anim)
{
    kf_interpolator_info info;
    return kfc_section_emit(e, &kfc_section_interpolators, anim, &info);
}

const kfc_section kfc_section_interpolators = {
    "interpolators",
    KFC_NODE_MAPPING,
    1,
    KF_KIND_INTERPOLATOR,
    0,
    fields,
    F_COUNT,
    read_entry,
    begin,
    add,
    error_node,
    emit_section,
    load,
    NULL,
    NULL,
};
