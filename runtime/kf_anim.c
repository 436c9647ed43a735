/* SPDX-License-Identifier: MIT */
/* kf_anim.c - looking into a loaded kf_anim. */
#include <string.h>

#include "kf_private.h"
#include "kfb_codes.h"

uint32_t kf_anim_count(const kf_anim *anim, kf_kind kind)
{
    if (!anim || (unsigned)kind >= KF_KIND_COUNT)
        return 0;
    return anim->objects.count[kind];
}

const char *kf_objects_name(const kf_objects *o, kf_kind kind, uint32_t i)
{
    switch (kind) {
    case KF_KIND_SEQUENCE:
        return o->sequences[i].name;
    case KF_KIND_CONTROLLER:
        return o->controllers[i].name;
    case KF_KIND_TARGET:
        return o->targets[i].name;
    case KF_KIND_INTERPOLATOR:
        return o->interpolators[i].name;
    case KF_KIND_FOLLOWER:
        return o->followers[i].name;
    default:
        return NULL;
    }
}

uint32_t kf_anim_find(const kf_anim *anim, kf_kind kind, const char *name)
{
    if (!anim || !name || (unsigned)kind >= KF_KIND_COUNT)
        return KF_NO_INDEX;
    for (uint32_t i = 0; i < anim->objects.count[kind]; i++) {
        const char *s = kf_objects_name(&anim->objects, kind, i);
        if (s && strcmp(s, name) == 0)
            return i;
    }
    return KF_NO_INDEX;
}

const kf_sequence *kf_anim_sequence(const kf_anim *anim, uint32_t index)
{
    if (!anim || index >= anim->objects.count[KF_KIND_SEQUENCE])
        return NULL;
    return &anim->objects.sequences[index];
}

void kf_sequence_get_info(const kf_sequence *s, kf_sequence_info *info)
{
    if (!info)
        return;
    if (!s) {
        *info = (kf_sequence_info){0};
        info->name = "";
        return;
    }
    info->name = s->name;
    info->interpolation = (kf_interpolation)s->interpolation;
    info->repeat = (kf_repeat)s->repeat;
    info->components = s->components;
    info->key_count = s->key_count;
    info->valid_first = s->valid_first;
    info->valid_last = kf_authored_key(s, s->valid_count - 1);
    info->duration = s->duration;
    info->tcb = s->tcb != NULL;
    info->arc_length = s->arc_length != NULL;
}

uint32_t kf_sequence_components(const kf_sequence *s)
{
    if (!s)
        return 0;
    return s->components;
}

void kf_sequence_key(const kf_sequence *s, uint32_t index, float *time, float *value)
{
    if (!s || index >= s->key_count)
        return;
    uint32_t j = kf_stored_key(s, index);
    if (time)
        *time = s->times[j];
    if (value) {
        float buf[KF_BLOCK_COMPONENTS] = {0};
        memcpy(value, kf_key_floats(s, s->values, j, buf), s->components * sizeof(float));
    }
}

void kf_sequence_key_tcb(const kf_sequence *s, uint32_t index, float tcb[3])
{
    if (!tcb)
        return;
    tcb[0] = tcb[1] = tcb[2] = 0.0f;
    if (!s || index >= s->key_count || !s->tcb)
        return;
    uint32_t j = kf_stored_key(s, index);
    memcpy(tcb, s->tcb + 3 * (size_t)j, 3 * sizeof(float));
}

void kf_sequence_key_tangents(const kf_sequence *s, uint32_t index, float *in, float *out)
{
    if (!s)
        return; /* no width to fill: nothing is written */
    const uint32_t c = s->components;
    if (index >= s->key_count || !s->key_tangents) {
        if (in)
            memset(in, 0, c * sizeof *in);
        if (out)
            memset(out, 0, c * sizeof *out);
        return;
    }
    uint32_t j = kf_stored_key(s, index);
    for (uint32_t m = 0; m < c; m++) {
        if (in)
            in[m] = kf_key_tangent(s, j, m);
        if (out)
            out[m] = kf_key_tangent(s, j, c + m);
    }
}

void kf_sequence_key_intermediates(const kf_sequence *s, uint32_t index, float a[4], float b[4])
{
    if (!s)
        return;
    float qa[4] = {0}, qb[4] = {0}, buf[KF_BLOCK_COMPONENTS];
    if (s->interpolation == KFB_INTERP_SQUAD && index < s->key_count) {
        const uint32_t j = kf_stored_key(s, index);
        if (j < s->valid_count) {
            memcpy(qa, kf_key_floats(s, s->tangent_out, j, buf), sizeof qa);
            memcpy(qb, kf_key_floats(s, s->tangent_in, j, buf), sizeof qb);
        } else {
            memcpy(qa, kf_key_floats(s, s->values, j, buf), sizeof qa);
            memcpy(qb, qa, sizeof qb);
        }
    }
    if (a)
        memcpy(a, qa, sizeof qa);
    if (b)
        memcpy(b, qb, sizeof qb);
}

void kf_anim_controller_info(const kf_anim *anim, uint32_t index, kf_controller_info *info)
{
    if (!info)
        return;
    if (!anim || index >= anim->objects.count[KF_KIND_CONTROLLER]) {
        *info = (kf_controller_info){"", 0, 0, 0, 0, 0, 0};
        return;
    }
    const struct kf_controller *c = &anim->objects.controllers[index];
    *info = (kf_controller_info){c->name,       c->speed,     c->weight,      c->active_start,
                                 c->active_end, c->ref_world, c->ref_sequence};
}

void kf_anim_target_info(const kf_anim *anim, uint32_t index, kf_target_info *info)
{
    if (!info)
        return;
    if (!anim || index >= anim->objects.count[KF_KIND_TARGET]) {
        *info = (kf_target_info){"", KF_PROPERTY_CUSTOM, 0};
        return;
    }
    const kf_target *t = &anim->objects.targets[index];
    info->name = t->name;
    info->property = (kf_property)t->property;
    info->components = t->components;
}

kf_blend kf_anim_target_blend(const kf_anim *anim, uint32_t index)
{
    if (!anim || index >= anim->objects.count[KF_KIND_TARGET])
        return KF_BLEND_SUM;
    return (kf_blend)anim->objects.targets[index].blend;
}

void kf_anim_track_info(const kf_anim *anim, uint32_t index, kf_track_info *info)
{
    if (!info)
        return;
    if (!anim || index >= anim->objects.count[KF_KIND_TRACK]) {
        *info = (kf_track_info){KF_KIND_SEQUENCE, KF_NO_INDEX, KF_NO_INDEX, KF_NO_INDEX, 0.0, 0,
                                KF_NO_INDEX};
        return;
    }
    const kf_track *t = &anim->objects.tracks[index];
    info->animator_kind = kfb_animator_kind(t->animator_kind);
    info->animator = t->animator;
    info->controller = t->controller;
    info->target = t->target;
    info->cycle_interval = t->cycle_interval;
    info->loop = t->loop != 0;
    info->ease = t->ease;
}

const kf_follower *kf_anim_follower(const kf_anim *anim, uint32_t index)
{
    if (!anim || index >= anim->objects.count[KF_KIND_FOLLOWER])
        return NULL;
    return &anim->objects.followers[index];
}

void kf_follower_get_info(const kf_follower *f, kf_follower_info *info)
{
    if (!info)
        return;
    if (!f) {
        *info = (kf_follower_info){0};
        info->name = "";
        return;
    }
    const int damper = kf_follower_node_is_damper((kf_follower_node)f->node);
    info->name = f->name;
    info->node = (kf_follower_node)f->node;
    info->element_count = f->element_count;
    info->components = kf_follower_value_floats(f);
    info->duration = damper ? 0.0 : f->duration;
    info->tau = damper ? f->duration : 0.0;
    info->order = f->order;
    info->tolerance = f->tolerance;
}

uint32_t kf_follower_components(const kf_follower *f)
{
    if (!f)
        return 0;
    return kf_follower_value_floats(f);
}

void kf_follower_initial(const kf_follower *f, float *value, float *destination)
{
    if (!f)
        return;
    size_t bytes = (size_t)kf_follower_field_floats(f) * sizeof(float);
    if (value)
        memcpy(value, f->initial_value, bytes);
    if (destination)
        memcpy(destination, f->initial_destination, bytes);
}
