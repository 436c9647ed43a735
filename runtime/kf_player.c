/*
 * kf_player.c - per-instance playback: controllers, track cursors, blending
 * (SPEC-NOTES 2). Everything a player changes lives in its one allocation;
 * the kf_anim is only read.
 */
#include <math.h>
#include <string.h>

#include "kf_internal.h"

struct kf_player {
    const kf_anim *anim;
    kf_allocator   allocator;
    size_t         size;
    struct kf_controller *controllers; /* the player's own copies */
    kf_cursor     *cursors;            /* per track */
    float         *values;             /* per target, at kf_target.value_offset */
    /* Scratch for kf_player_update, sized at creation. */
    double        *sums;               /* weighted sums, like values */
    double        *weights;            /* total weight per target */
    double        *positions;          /* per controller, this update */
    unsigned char *active;             /* per controller, this update */
    float         *sample;             /* one track's sample */
};

/* Appends an array to a layout being measured (base == NULL) or carved. */
static void *carve(unsigned char *base, size_t *at, size_t count, size_t size, int *ok)
{
    size_t bytes, start = (*at + 7) & ~(size_t)7;
    if (!kf_mul_size(count, size, &bytes) || start < *at || bytes > SIZE_MAX - start) {
        *ok = 0;
        return NULL;
    }
    *at = start + bytes;
    return base ? base + start : NULL;
}

static size_t layout(const kf_anim *anim, kf_player *p, unsigned char *base, int *ok)
{
    const kf_objects *o = &anim->objects;
    uint32_t widest = 1;
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++)
        if (o->targets[i].components > widest)
            widest = o->targets[i].components;
    size_t at = 0;
    *ok = 1;
    carve(base, &at, 1, sizeof *p, ok);
    p->controllers = carve(base, &at, o->count[KF_KIND_CONTROLLER], sizeof *p->controllers, ok);
    p->cursors = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->cursors, ok);
    p->values = carve(base, &at, anim->value_count, sizeof *p->values, ok);
    p->sums = carve(base, &at, anim->value_count, sizeof *p->sums, ok);
    p->weights = carve(base, &at, o->count[KF_KIND_TARGET], sizeof *p->weights, ok);
    p->positions = carve(base, &at, o->count[KF_KIND_CONTROLLER], sizeof *p->positions, ok);
    p->active = carve(base, &at, o->count[KF_KIND_CONTROLLER], 1, ok);
    p->sample = carve(base, &at, widest, sizeof *p->sample, ok);
    return at;
}

kf_result kf_player_create(const kf_anim *anim, const kf_allocator *allocator, kf_player **out)
{
    if (!out)
        return KF_ERROR_ARGUMENT;
    *out = NULL;
    if (!anim)
        return KF_ERROR_ARGUMENT;
    kf_player probe;
    int ok;
    size_t size = layout(anim, &probe, NULL, &ok);
    if (!ok)
        return KF_ERROR_OUT_OF_MEMORY;
    kf_allocator a = kf_allocator_or_default(allocator);
    unsigned char *base = kf_alloc(&a, size);
    if (!base)
        return KF_ERROR_OUT_OF_MEMORY;
    kf_player *p = (kf_player *)base;
    layout(anim, p, base, &ok);
    p->anim = anim;
    p->allocator = a;
    p->size = size;
    kf_player_reset(p);
    *out = p;
    return KF_OK;
}

void kf_player_destroy(kf_player *p)
{
    if (p) {
        kf_allocator a = p->allocator;
        kf_free(&a, p, p->size);
    }
}

void kf_player_reset(kf_player *p)
{
    const kf_objects *o = &p->anim->objects;
    if (o->count[KF_KIND_CONTROLLER])
        memcpy(p->controllers, o->controllers, o->count[KF_KIND_CONTROLLER] * sizeof *p->controllers);
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++)
        p->cursors[i] = (kf_cursor)KF_CURSOR_INIT;
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++) {
        const kf_target *t = &o->targets[i];
        kf_property_rest_value((kf_property)t->property, t->components, p->values + t->value_offset);
    }
}

/* A blended orientation is a weighted sum of unit quaternions; when they
 * cancel out (|sum| tiny against the total weight) it has no direction and
 * becomes the identity. */
static void normalize_orientation(const double *q, double weight, float *out)
{
    double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (!(n2 > 1e-10 * weight * weight) || !isfinite(n2)) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    double inv = 1.0 / sqrt(n2);
    for (int i = 0; i < 4; i++)
        out[i] = (float)(q[i] * inv);
}

void kf_player_update(kf_player *p, double world_time)
{
    const kf_objects *o = &p->anim->objects;
    for (uint32_t i = 0; i < o->count[KF_KIND_CONTROLLER]; i++) {
        const kf_controller *c = &p->controllers[i];
        p->active[i] = kf_controller_is_active(c, world_time) && c->weight > 0.0;
        p->positions[i] = kf_controller_position(c, world_time);
    }
    memset(p->weights, 0, o->count[KF_KIND_TARGET] * sizeof *p->weights);
    memset(p->sums, 0, p->anim->value_count * sizeof *p->sums);

    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        if (t->controller == KF_NO_INDEX || !p->active[t->controller])
            continue;
        const double w = p->controllers[t->controller].weight;
        const kf_target *target = &o->targets[t->target];
        const double position = p->positions[t->controller];
        if (t->animator_kind == KFB_ANIMATOR_INTERPOLATOR) {
            double fraction = kf_track_fraction(t, position);
            if (t->ease != KF_NO_INDEX)
                fraction = kf_interpolator_ease(&o->interpolators[t->ease], fraction);
            kf_interpolator_sample(&o->interpolators[t->animator], fraction, &p->cursors[i],
                                   p->sample);
        } else {
            kf_sequence_sample(&o->sequences[t->animator], position, &p->cursors[i], p->sample);
        }
        double *sum = p->sums + target->value_offset;
        for (uint32_t k = 0; k < target->components; k++)
            sum[k] += w * p->sample[k];
        p->weights[t->target] += w;
    }

    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++) {
        if (!(p->weights[i] > 0.0))
            continue; /* no active track: the target keeps its value */
        const kf_target *t = &o->targets[i];
        float *value = p->values + t->value_offset;
        const double *sum = p->sums + t->value_offset;
        if (t->property == KF_PROPERTY_ORIENTATION) {
            normalize_orientation(sum, p->weights[i], value);
        } else {
            for (uint32_t k = 0; k < t->components; k++)
                value[k] = (float)sum[k];
            kf_property_clamp(t->property, t->components, value);
        }
    }
}

const float *kf_player_value(const kf_player *p, uint32_t target)
{
    if (!p || target >= p->anim->objects.count[KF_KIND_TARGET])
        return NULL;
    return p->values + p->anim->objects.targets[target].value_offset;
}

kf_result kf_player_set_value(kf_player *p, uint32_t target, const float *value)
{
    if (!p || !value || target >= p->anim->objects.count[KF_KIND_TARGET])
        return KF_ERROR_ARGUMENT;
    const kf_target *t = &p->anim->objects.targets[target];
    memcpy(p->values + t->value_offset, value, t->components * sizeof *value);
    return KF_OK;
}

kf_controller *kf_player_controller(kf_player *p, uint32_t index)
{
    if (!p || index >= p->anim->objects.count[KF_KIND_CONTROLLER])
        return NULL;
    return &p->controllers[index];
}

const kf_controller *kf_player_controller_const(const kf_player *p, uint32_t index)
{
    if (!p || index >= p->anim->objects.count[KF_KIND_CONTROLLER])
        return NULL;
    return &p->controllers[index];
}
