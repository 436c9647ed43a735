/* SPDX-License-Identifier: MIT */
/* The `followers:` section: name -> X3D chaser or damper (clause 39). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_schema.h"
#include "kfc_section.h"

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

/* What a follower is read into. */
typedef struct follower_in {
    kf_follower_desc desc;
    int array;                               /* an array node: its fields are lists of points */
    uint32_t element;                        /* numbers per value or point */
    uint32_t value_count, destination_count; /* numbers read */
} follower_in;

/* What a follower is written from. */
typedef struct follower_out {
    kf_follower_info info;
    kf_follower_desc defaults;
    float *value, *destination;
    float x3d[4];     /* X3D's initial value of a single-value node */
    uint32_t numbers; /* in each initial field */
    int damper, array;
} follower_out;

static const char *node_name(int index)
{
    return kf_follower_node_name((kf_follower_node)index);
}

/*
 * An initial field into the values scratch array from `offset` on: a number
 * or a list of numbers for a single value, a list of points (each a list of
 * `element` numbers) for an array node. *count receives the numbers read.
 */
static kfc_status read_field(kfc_source *src, const kfc_node *field, int array, uint32_t element,
                             size_t offset, uint32_t *count)
{
    kfc_status st, first = KFC_OK;
    *count = 0;
    /* To the builder no numbers mean "not given"; an empty list is an X3D
     * empty array, which only the array nodes have. */
    if (!array && field->kind == KFC_NODE_SEQUENCE && field->count == 0)
        return kfc_fail(src->diag, KFC_INVALID, field->mark, "expected %lu number%s, not none",
                        (unsigned long)element, element == 1 ? "" : "s");
    if (!array && field->kind == KFC_NODE_SCALAR) {
        if ((st = kfc_reserve(src, KFC_SCRATCH_VALUES, offset + 1)))
            return st;
        *count = 1;
        return kfc_get_float(field, &src->scratch[KFC_SCRATCH_VALUES].data[offset], src->diag);
    }
    if ((st = kfc_expect_list(field, src->diag)))
        return st;
    if (!array) {
        if ((st = kfc_reserve(src, KFC_SCRATCH_VALUES, offset + field->count)))
            return st;
        *count = field->count;
        return kfc_get_floats(field->as.items, field->count,
                              src->scratch[KFC_SCRATCH_VALUES].data + offset, src->diag);
    }
    if (field->count == 0)
        return KFC_OK; /* an empty array: the field is not given */
    if ((size_t)field->count > (SIZE_MAX - offset) / element)
        return kfc_fail_nomem(src->diag);
    if ((st = kfc_reserve(src, KFC_SCRATCH_VALUES, offset + (size_t)field->count * element)))
        return st;
    /* Each point's errors, of every point. */
    double *out = src->scratch[KFC_SCRATCH_VALUES].data + offset;
    for (uint32_t p = 0; p < field->count; p++, out += element) {
        const kfc_node *point = &field->as.items[p];
        if (point->kind != KFC_NODE_SEQUENCE || point->count != element) {
            if ((st = kfc_recover_next(src->diag,
                                       kfc_fail(src->diag, KFC_INVALID, point->mark,
                                                "expected a point of %lu numbers [x, y%s]",
                                                (unsigned long)element, element == 3 ? ", z" : ""),
                                       &first)))
                return st;
            continue;
        }
        if ((st = kfc_recover_next(
                 src->diag, kfc_get_floats(point->as.items, element, out, src->diag), &first)))
            return st;
    }
    if (first)
        return first;
    if ((uint64_t)field->count * element > UINT32_MAX)
        return kfc_fail(src->diag, KFC_INVALID, field->mark, "too many points");
    *count = field->count * element;
    return KFC_OK;
}

/* An orientation follower's rotation [x, y, z, angle] of more than a turn
 * (-Wangle-range). */
static kfc_status check_angle(kfc_source *src, const kfc_node *field, const follower_in *in,
                              size_t offset, uint32_t count)
{
    if ((in->desc.node != KF_FOLLOWER_NODE_ORIENTATION_CHASER &&
         in->desc.node != KF_FOLLOWER_NODE_ORIENTATION_DAMPER) ||
        count != 4 || field->kind != KFC_NODE_SEQUENCE)
        return KFC_OK;
    return kfc_warn_angles(src, field, 0, src->scratch[KFC_SCRATCH_VALUES].data + offset, 1);
}

static kfc_status read_initial_value(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    follower_in *in = entry->state;
    kfc_status st = read_field(src, value, in->array, in->element, 0, &in->value_count);
    return st ? st : check_angle(src, value, in, 0, in->value_count);
}

/* After the initial value in the same scratch array. */
static kfc_status read_initial_destination(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    follower_in *in = entry->state;
    kfc_status st =
        read_field(src, value, in->array, in->element, in->value_count, &in->destination_count);
    return st ? st : check_angle(src, value, in, in->value_count, in->destination_count);
}

static kfc_status read_duration(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_animator_seconds(src, value, entry, KFC_LONG_SECONDS, "duration", "follower",
                                    &((follower_in *)entry->state)->desc.duration);
}

static kfc_status read_tau(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_animator_seconds(src, value, entry, KFC_LONG_TAU, "tau", "follower",
                                    &((follower_in *)entry->state)->desc.tau);
}

static kfc_status read_order(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    uint32_t order;
    kfc_status st = kfc_get_uint(value, 0, INT32_MAX, &order, src->diag);
    if (!st)
        ((follower_in *)entry->state)->desc.order = (int32_t)order;
    return st;
}

static kfc_status read_tolerance(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_float(value, &((follower_in *)entry->state)->desc.tolerance, src->diag);
}

static kfc_status emit_node(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, kf_follower_node_name(((const follower_out *)out)->info.node));
}

/* An initial field: a number (Scalar nodes), a flow list, or a list of
 * points (Coordinate and TexCoord nodes). */
static kfc_status emit_initial(kfc_emitter *e, const follower_out *o, const float *v)
{
    const uint32_t element = kf_follower_node_field_components(o->info.node);
    kfc_status st;
    if (!o->array && element == 1)
        return kfc_emit_float(e, v[0]);
    if (o->array && (st = kfc_emit_list_start(e, 1)))
        return st;
    for (uint32_t p = 0; p < o->info.element_count; p++) {
        if ((st = kfc_emit_list_start(e, 1)))
            return st;
        for (uint32_t c = 0; c < element; c++)
            if ((st = kfc_emit_float(e, v[p * element + c])))
                return st;
        if ((st = kfc_emit_list_end(e)))
            return st;
    }
    return o->array ? kfc_emit_list_end(e) : KFC_OK;
}

/* Whether two stored fields are the same floats, bit for bit (-0 is not 0). */
static int same_floats(const float *a, const float *b, size_t count)
{
    return memcmp(a, b, count * sizeof *a) == 0;
}

/* Defaults left out: X3D's field values for single values; an array's
 * destination equal to its value (an array field left out copies the
 * other). */
static int initial_value_written(const void *out)
{
    const follower_out *o = out;
    return o->array || !same_floats(o->value, o->x3d, o->numbers);
}

static kfc_status emit_initial_value(kfc_emitter *e, const void *out)
{
    return emit_initial(e, out, ((const follower_out *)out)->value);
}

static int initial_destination_written(const void *out)
{
    const follower_out *o = out;
    return !same_floats(o->destination, o->array ? o->value : o->x3d, o->numbers);
}

static kfc_status emit_initial_destination(kfc_emitter *e, const void *out)
{
    return emit_initial(e, out, ((const follower_out *)out)->destination);
}

/* Stored as float32 (kfb_follower). */
static int duration_written(const void *out)
{
    const follower_out *o = out;
    return !o->damper && (float)o->info.duration != (float)o->defaults.duration;
}

static kfc_status emit_duration(kfc_emitter *e, const void *out)
{
    return kfc_emit_float(e, (float)((const follower_out *)out)->info.duration);
}

static int tau_written(const void *out)
{
    const follower_out *o = out;
    return o->damper && (float)o->info.tau != (float)o->defaults.tau;
}

static kfc_status emit_tau(kfc_emitter *e, const void *out)
{
    return kfc_emit_float(e, (float)((const follower_out *)out)->info.tau);
}

static int order_written(const void *out)
{
    const follower_out *o = out;
    return o->damper && o->info.order != (uint32_t)o->defaults.order;
}

static kfc_status emit_order(kfc_emitter *e, const void *out)
{
    return kfc_emit_uint(e, ((const follower_out *)out)->info.order);
}

static int tolerance_written(const void *out)
{
    const follower_out *o = out;
    return o->damper && (float)o->info.tolerance != (float)o->defaults.tolerance;
}

static kfc_status emit_tolerance(kfc_emitter *e, const void *out)
{
    return kfc_emit_float(e, (float)((const follower_out *)out)->info.tolerance);
}

/* A chaser has a duration, a damper tau, order and tolerance (see begin). */
_Static_assert(F_COUNT <= KFC_FIELDS_MAX, "raise KFC_FIELDS_MAX");

static const kfc_field fields[F_COUNT] = {
    /* key, required, pass, builder field, entry field, read, written, emit */
    [F_NODE] = {"node", 1, 0, KF_FIELD_NODE, KF_FIELD_NONE, NULL /* begin */, NULL, emit_node},
    [F_INITIAL_VALUE] = {"initialValue", 0, 0, KF_FIELD_INITIAL_VALUE, KF_FIELD_NONE,
                         read_initial_value, initial_value_written, emit_initial_value},
    [F_INITIAL_DESTINATION] = {"initialDestination", 0, 0, KF_FIELD_INITIAL_DESTINATION,
                               KF_FIELD_NONE, read_initial_destination, initial_destination_written,
                               emit_initial_destination},
    [F_DURATION] = {"duration", 0, 0, KF_FIELD_DURATION, KF_FIELD_NONE, read_duration,
                    duration_written, emit_duration},
    [F_TAU] = {"tau", 0, 0, KF_FIELD_TAU, KF_FIELD_NONE, read_tau, tau_written, emit_tau},
    [F_ORDER] = {"order", 0, 0, KF_FIELD_ORDER, KF_FIELD_NONE, read_order, order_written,
                 emit_order},
    [F_TOLERANCE] = {"tolerance", 0, 0, KF_FIELD_TOLERANCE, KF_FIELD_NONE, read_tolerance,
                     tolerance_written, emit_tolerance},
};

/* The node decides the description's defaults and which fields exist, so
 * it is read first (without it, nothing is). */
static kfc_status begin(kfc_source *src, kfc_entry *entry)
{
    follower_in *in = entry->state;
    if (entry->failed & 1u << F_NODE) {
        entry->skip = 1;
        return KFC_OK;
    }
    int code;
    kfc_status st = kfc_get_enum(entry->fields[F_NODE], node_name, "node", NULL, &code, src->diag);
    if (st)
        return st;
    const kf_follower_node node = (kf_follower_node)code;
    const int damper = kf_follower_node_is_damper(node);
    /* The other family's fields are a mistake, not something to ignore:
     * each is reported, and the others are read. */
    for (int f = F_DURATION; f <= F_TOLERANCE; f++) {
        const int damper_field = f != F_DURATION;
        if (entry->fields[f] && damper_field != damper &&
            (st = kfc_entry_fail(
                 src, entry, (size_t)f,
                 kfc_fail(
                     src->diag, KFC_INVALID, entry->fields[f]->mark, "%s %s has no field '%s' (%s)",
                     strchr("AEIOU", kf_follower_node_name(node)[0]) ? "an" : "a",
                     kf_follower_node_name(node), fields[f].key,
                     damper ? "dampers have tau, order, tolerance" : "chasers have duration"))))
            return st;
    }
    kf_follower_desc_init(&in->desc, node);
    in->array = kf_follower_node_is_array(node);
    in->element = kf_follower_node_field_components(node);
    return kfc_get_string(entry->name, &in->desc.name, src->diag);
}

/* The initial fields share src->values: pointers are taken once both are
 * read. */
static kf_result add(kfc_source *src, kfc_entry *entry, kf_error *error)
{
    follower_in *in = entry->state;
    double *values = src->scratch[KFC_SCRATCH_VALUES].data;
    in->desc.initial_value = in->value_count ? values : NULL;
    in->desc.initial_value_count = in->value_count;
    in->desc.initial_destination = in->destination_count ? values + in->value_count : NULL;
    in->desc.initial_destination_count = in->destination_count;
    return kf_builder_add_follower(src->builder, &in->desc, error);
}

/* An array's item names its point. */
static const kfc_node *error_node(const kfc_entry *entry, const kf_error *error)
{
    if (error->field != KF_FIELD_INITIAL_VALUE && error->field != KF_FIELD_INITIAL_DESTINATION)
        return NULL;
    const kfc_node *at =
        entry->fields[error->field == KF_FIELD_INITIAL_VALUE ? F_INITIAL_VALUE
                                                             : F_INITIAL_DESTINATION];
    return ((const follower_in *)entry->state)->array ? kfc_entry_node(at, error->item) : at;
}

static kfc_status read_entry(kfc_source *src, const kfc_node *key, const kfc_node *value)
{
    follower_in in;
    memset(&in, 0, sizeof in);
    return kfc_section_read(src, &kfc_section_followers, key, value, &in);
}

static kfc_status load(kfc_emitter *e, const kf_anim *anim, uint32_t index, void *out,
                       const char **name)
{
    (void)e;
    follower_out *o = out;
    const kf_follower *f = kf_anim_follower(anim, index);
    kf_follower_get_info(f, &o->info);
    kf_follower_initial(f, o->value, o->destination);
    o->numbers = o->info.element_count * kf_follower_node_field_components(o->info.node);
    o->damper = kf_follower_node_is_damper(o->info.node);
    o->array = kf_follower_node_is_array(o->info.node);
    kf_follower_desc_init(&o->defaults, o->info.node);
    memset(o->x3d, 0, sizeof o->x3d);
    kf_follower_node_initial(o->info.node, o->x3d);
    *name = o->info.name;
    return KFC_OK;
}

static kfc_status emit_section(kfc_emitter *e, const kf_anim *anim)
{
    uint32_t count = kf_anim_count(anim, KF_KIND_FOLLOWER);
    if (count == 0)
        return KFC_OK;
    size_t widest = 1;
    for (uint32_t i = 0; i < count; i++) {
        kf_follower_info info;
        kf_follower_get_info(kf_anim_follower(anim, i), &info);
        size_t n = (size_t)info.element_count * kf_follower_node_field_components(info.node);
        if (n > widest)
            widest = n;
    }
    follower_out out;
    out.value = malloc(2 * widest * sizeof *out.value);
    if (!out.value)
        return kfc_fail_nomem(e->diag);
    out.destination = out.value + widest;
    kfc_status st = kfc_section_emit(e, &kfc_section_followers, anim, &out);
    free(out.value);
    return st;
}

const kfc_section kfc_section_followers = {
    "followers", KFC_NODE_MAPPING,
    1,           KF_KIND_FOLLOWER,
    0,           fields,
    F_COUNT,     read_entry,
    begin,       add,
    error_node,  emit_section,
    load,        NULL,
    NULL,
};
