/* SPDX-License-Identifier: MIT */
/*
 * kf_follower_state.h - the running state of an X3D follower, shared by
 * kf_follower.c (lifecycle, events), kf_follower_value.c (working values),
 * kf_chaser.c (FIR) and kf_damper.c (IIR).
 *
 * Values are kept in a working form of `n` doubles: the numbers themselves
 * for vector, scalar and array nodes, a unit quaternion for rotations, HSV
 * (h in sixths of a turn, kf_color.c) for colours. The output and the
 * destination are also kept as the floats the caller sees, so a follower at
 * rest outputs exactly the destination it was given.
 */
#ifndef KF_FOLLOWER_STATE_H
#define KF_FOLLOWER_STATE_H

#include "kf_private.h"

/* How a follower's values combine. */
enum {
    KF_VALUES_LINEAR = 0, /* vectors and arrays: sums and differences */
    KF_VALUES_ROTATION,   /* unit quaternions: slerp along the shortest arc */
    KF_VALUES_COLOR       /* HSV, hue the short way round */
};

struct kf_follower_state {
    const struct kf_follower *def;
    kf_allocator allocator; /* kf_follower_state_create only */
    size_t size;            /* bytes allocated by create; 0 in caller memory */
    uint32_t values;        /* KF_VALUES_* */
    uint32_t damper;
    uint32_t n;          /* doubles per working value */
    uint32_t components; /* floats per value */
    uint32_t element;    /* damper distance: numbers per element (linear) */
    int active;
    /* Chasers: transitions as a ring of (start time, destination it leads
     * to); transition i goes from the destination before it (or `base` for
     * the oldest) to targets[i]. */
    uint32_t capacity;
    uint32_t head, count;
    double *times;   /* capacity */
    double *targets; /* capacity * n */
    double *base;    /* n: where the oldest held transition starts */
    /* Dampers: stage j's output; stage 0 is fed the destination. */
    double *stages;           /* max(order, 1) * n */
    double last_time;         /* of the previous update */
    double *destination;      /* n */
    float *destination_value; /* components */
    float *value;             /* components: the output */
    double *scratch;          /* n: an event's value before it is taken */
    float *scratch_value;     /* components */
};

/* Converts a caller's value (already checked finite) to the working form,
 * and to the floats the follower reports for it (normalized quaternion,
 * clamped colour). */
void kf_follower_take_value(const kf_follower_state *s, const float *in, double *work, float *out);
/* The floats of a working value. */
void kf_follower_give_value(const kf_follower_state *s, const double *work, float *out);

/* kf_chaser.c. reset: `base` and the destination hold the initial fields.
 * Events: the incoming value is in `scratch` / `scratch_value`. */
void kf_chaser_reset(kf_follower_state *s, double time);
void kf_chaser_set_destination(kf_follower_state *s, double time);
void kf_chaser_set_value(kf_follower_state *s, double time);
void kf_chaser_update(kf_follower_state *s, double time);

/* kf_damper.c. reset: stage 0 and the destination hold the initial fields.
 * Events: the incoming value is in `scratch` / `scratch_value`. */
void kf_damper_reset(kf_follower_state *s, double time);
void kf_damper_set_destination(kf_follower_state *s);
void kf_damper_set_value(kf_follower_state *s);
void kf_damper_update(kf_follower_state *s, double time);

#endif /* KF_FOLLOWER_STATE_H */
