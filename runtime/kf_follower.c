/* SPDX-License-Identifier: MIT */
/*
 * kf_follower.c - a running X3D follower: its memory, initialization,
 * events and output (kf.h). The filters themselves are in kf_chaser.c and
 * kf_damper.c.
 */
#include <math.h>
#include <string.h>

#include "kf_follower_state.h"
#include "kf_math.h"

/* ---- memory ------------------------------------------------------------- */

/* Appends an array to a layout being measured (base == NULL) or carved;
 * every array starts 8-aligned. */
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

/* Measures (base NULL) or carves the state; returns the size, 0 on overflow. */
static size_t layout(const struct kf_follower *f, uint32_t capacity, kf_follower_state *s,
                     unsigned char *base)
{
    const int damper = kf_follower_node_is_damper((kf_follower_node)f->node);
    /* The working form has as many numbers as the value (HSV as RGB, one
     * quaternion as one quaternion). */
    const size_t n = kf_follower_value_floats(f), c = n;
    const size_t ring = damper ? 0 : capacity;
    const size_t stages = damper ? (f->order ? f->order : 1) : 0;
    size_t at = 0, targets, stage_doubles;
    int ok = 1;
    carve(base, &at, 1, sizeof *s, &ok);
    if (!kf_mul_size(ring, n, &targets) || !kf_mul_size(stages, n, &stage_doubles))
        return 0;
    s->times = carve(base, &at, ring, sizeof(double), &ok);
    s->targets = carve(base, &at, targets, sizeof(double), &ok);
    s->base = carve(base, &at, damper ? 0 : n, sizeof(double), &ok);
    s->stages = carve(base, &at, stage_doubles, sizeof(double), &ok);
    s->destination = carve(base, &at, n, sizeof(double), &ok);
    s->scratch = carve(base, &at, n, sizeof(double), &ok);
    s->destination_value = carve(base, &at, c, sizeof(float), &ok);
    s->value = carve(base, &at, c, sizeof(float), &ok);
    s->scratch_value = carve(base, &at, c, sizeof(float), &ok);
    return ok ? at : 0;
}

size_t kf_follower_state_size(const kf_follower *f, uint32_t capacity)
{
    if (!f)
        return 0;
    kf_follower_state probe;
    return layout(f, capacity ? capacity : KF_FOLLOWER_DEFAULT_CAPACITY, &probe, NULL);
}

kf_follower_state *kf_follower_state_init(void *memory, size_t size, const kf_follower *f,
                                          uint32_t capacity)
{
    if (!memory || !f)
        return NULL;
    if (!capacity)
        capacity = KF_FOLLOWER_DEFAULT_CAPACITY;
    size_t need = kf_follower_state_size(f, capacity);
    if (!need || size < need)
        return NULL;
    kf_follower_state *s = memory;
    memset(s, 0, sizeof *s);
    layout(f, capacity, s, memory);
    s->def = f;
    s->damper = (uint32_t)kf_follower_node_is_damper((kf_follower_node)f->node);
    s->n = kf_follower_value_floats(f);
    s->components = kf_follower_value_floats(f);
    s->element = kf_follower_node_field_components((kf_follower_node)f->node);
    s->capacity = s->damper ? 0 : capacity;
    switch (f->node) {
    case KFB_FOLLOWER_ORIENTATION_CHASER:
    case KFB_FOLLOWER_ORIENTATION_DAMPER:
        s->values = KF_VALUES_ROTATION;
        break;
    case KFB_FOLLOWER_COLOR_CHASER:
    case KFB_FOLLOWER_COLOR_DAMPER:
        s->values = KF_VALUES_COLOR;
        break;
    default:
        s->values = KF_VALUES_LINEAR;
        break;
    }
    kf_follower_reset(s, 0.0);
    return s;
}

kf_result kf_follower_state_create(const kf_follower *f, uint32_t capacity,
                                   const kf_allocator *allocator, kf_follower_state **out)
{
    if (!out)
        return KF_ERROR_ARGUMENT;
    *out = NULL;
    kf_allocator a;
    if (!f || kf_allocator_take(allocator, &a, NULL) != KF_OK)
        return KF_ERROR_ARGUMENT;
    size_t size = kf_follower_state_size(f, capacity);
    if (!size)
        return KF_ERROR_OUT_OF_MEMORY;
    void *memory = kf_alloc(&a, size);
    if (!memory)
        return KF_ERROR_OUT_OF_MEMORY;
    kf_follower_state *s = kf_follower_state_init(memory, size, f, capacity);
    s->allocator = a;
    s->size = size;
    *out = s;
    return KF_OK;
}

void kf_follower_state_destroy(kf_follower_state *s)
{
    if (s && s->size) {
        kf_allocator a = s->allocator;
        kf_free(&a, s, s->size);
    }
}

/* ---- initialization and events --------------------------------------------- */

void kf_follower_reset(kf_follower_state *s, double time)
{
    if (!s)
        return;
    if (!isfinite(time))
        time = 0.0;
    const struct kf_follower *f = s->def;
    const int rotation = s->values == KF_VALUES_ROTATION;
    const float *value = rotation ? f->rotations : f->initial_value;
    const float *destination = rotation ? f->rotations + 4 : f->initial_destination;
    kf_follower_take_value(s, destination, s->destination, s->destination_value);
    if (s->damper) {
        kf_follower_take_value(s, value, s->stages, s->value);
        kf_damper_reset(s, time);
    } else {
        kf_follower_take_value(s, value, s->base, s->value);
        kf_chaser_reset(s, time);
    }
}

/* Whether every number is finite. */
static int finite_value(const kf_follower_state *s, const float *v)
{
    for (uint32_t i = 0; i < s->components; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

kf_result kf_follower_set_destination(kf_follower_state *s, const float *value, double time)
{
    if (!s || !value || !isfinite(time) || !finite_value(s, value))
        return KF_ERROR_ARGUMENT;
    kf_follower_take_value(s, value, s->scratch, s->scratch_value);
    if (s->damper)
        kf_damper_set_destination(s);
    else
        kf_chaser_set_destination(s, time);
    return KF_OK;
}

kf_result kf_follower_set_value(kf_follower_state *s, const float *value, double time)
{
    if (!s || !value || !isfinite(time) || !finite_value(s, value))
        return KF_ERROR_ARGUMENT;
    kf_follower_take_value(s, value, s->scratch, s->scratch_value);
    memcpy(s->value, s->scratch_value, s->components * sizeof *s->value);
    if (s->damper)
        kf_damper_set_value(s);
    else
        kf_chaser_set_value(s, time);
    return KF_OK;
}

void kf_follower_update(kf_follower_state *s, double time)
{
    if (!s || !isfinite(time))
        return;
    if (s->damper)
        kf_damper_update(s, time);
    else
        kf_chaser_update(s, time);
}

const float *kf_follower_value(const kf_follower_state *s)
{
    return s ? s->value : NULL;
}

int kf_follower_is_active(const kf_follower_state *s)
{
    return s ? s->active : 0;
}

const kf_follower *kf_follower_state_follower(const kf_follower_state *s)
{
    return s ? s->def : NULL;
}

uint32_t kf_follower_pending(const kf_follower_state *s)
{
    return s ? s->count : 0;
}

uint32_t kf_follower_capacity(const kf_follower_state *s)
{
    return s ? s->capacity : 0;
}
