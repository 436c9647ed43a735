/* SPDX-License-Identifier: MIT */
/* The `controllers:` section: name -> AnimationController initial state. */
#include <math.h>

#include "kfc_schema.h"
#include "kfc_section.h"

static kfc_status read_speed(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    kf_controller_desc *desc = entry->state;
    return kfc_get_number(value, &desc->speed, src->diag);
}

static kfc_status read_weight(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    kf_controller_desc *desc = entry->state;
    return kfc_get_number(value, &desc->weight, src->diag);
}

static kfc_status read_active_interval(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    kf_controller_desc *desc = entry->state;
    double pair[2];
    kfc_status st = kfc_get_number_pair(value, "[start, end]", 0, pair, src->diag);
    if (!st) {
        desc->active_start = pair[0];
        desc->active_end = pair[1];
    }
    return st;
}

static kfc_status read_reference(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    kf_controller_desc *desc = entry->state;
    double pair[2];
    kfc_status st = kfc_get_number_pair(value, "[world, sequence]", 0, pair, src->diag);
    if (!st) {
        desc->ref_world = pair[0];
        desc->ref_sequence = pair[1];
    }
    return st;
}

static int is_zero(double v)
{
    return v == 0 && !signbit(v);
}

static int speed_written(const void *out)
{
    return ((const kf_controller_info *)out)->speed != 1;
}

static kfc_status emit_speed(kfc_emitter *e, const void *out)
{
    return kfc_emit_double(e, ((const kf_controller_info *)out)->speed);
}

static int weight_written(const void *out)
{
    return ((const kf_controller_info *)out)->weight != 1;
}

static kfc_status emit_weight(kfc_emitter *e, const void *out)
{
    return kfc_emit_double(e, ((const kf_controller_info *)out)->weight);
}

static kfc_status emit_pair(kfc_emitter *e, double first, double second)
{
    kfc_status st;
    if ((st = kfc_emit_list_start(e, 1)) || (st = kfc_emit_double(e, first)) ||
        (st = kfc_emit_double(e, second)))
        return st;
    return kfc_emit_list_end(e);
}

static int active_interval_written(const void *out)
{
    const kf_controller_info *c = out;
    return !is_zero(c->active_start) || !is_zero(c->active_end);
}

static kfc_status emit_active_interval(kfc_emitter *e, const void *out)
{
    const kf_controller_info *c = out;
    return emit_pair(e, c->active_start, c->active_end);
}

static int reference_written(const void *out)
{
    const kf_controller_info *c = out;
    return !is_zero(c->ref_world) || !is_zero(c->ref_sequence);
}

static kfc_status emit_reference(kfc_emitter *e, const void *out)
{
    const kf_controller_info *c = out;
    return emit_pair(e, c->ref_world, c->ref_sequence);
}

static const kfc_field fields[] = {
    /* key, required, pass, builder field, entry field, read, written, emit */
    {"speed", 0, 0, KF_FIELD_SPEED, KF_FIELD_NONE, read_speed, speed_written, emit_speed},
    {"weight", 0, 0, KF_FIELD_WEIGHT, KF_FIELD_NONE, read_weight, weight_written, emit_weight},
    {"active_interval", 0, 0, KF_FIELD_ACTIVE_INTERVAL, KF_FIELD_NONE, read_active_interval,
     active_interval_written, emit_active_interval},
    {"reference", 0, 0, KF_FIELD_REFERENCE, KF_FIELD_NONE, read_reference, reference_written,
     emit_reference},
};

_Static_assert(sizeof fields / sizeof fields[0] <= KFC_FIELDS_MAX, "raise KFC_FIELDS_MAX");

static kfc_status begin(kfc_source *src, kfc_entry *entry)
{
    kf_controller_desc *desc = entry->state;
    return kfc_get_string(entry->name, &desc->name, src->diag);
}

static kf_result add(kfc_source *src, kfc_entry *entry, kf_error *error)
{
    return kf_builder_add_controller(src->builder, entry->state, error);
}

/* The speed the times of the animators its tracks play are judged by
 * (kfc_warn_long_times). */
static kfc_status built(kfc_source *src, kfc_entry *entry)
{
    (void)src;
    if (entry->defined)
        entry->defined->speed = ((const kf_controller_desc *)entry->state)->speed;
    return KFC_OK;
}

static kfc_status read_entry(kfc_source *src, const kfc_node *key, const kfc_node *value)
{
    kf_controller_desc desc;
    kf_controller_desc_init(&desc);
    return kfc_section_read(src, &kfc_section_controllers, key, value, &desc);
}

static kfc_status load(kfc_emitter *e, const kf_anim *anim, uint32_t index, void *out,
                       const char **name)
{
    (void)e;
    kf_controller_info *c = out;
    kf_anim_controller_info(anim, index, c);
    *name = c->name;
    return KFC_OK;
}

static kfc_status emit_section(kfc_emitter *e, const kf_anim *anim)
{
    kf_controller_info info;
    return kfc_section_emit(e, &kfc_section_controllers, anim, &info);
}

const kfc_section kfc_section_controllers = {
    "controllers",
    KFC_NODE_MAPPING,
    0,
    KF_KIND_CONTROLLER,
    1,
    fields,
    sizeof fields / sizeof fields[0],
    read_entry,
    begin,
    add,
    NULL,
    emit_section,
    load,
    NULL,
    built,
};
