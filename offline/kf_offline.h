/* SPDX-License-Identifier: MIT */
/*
 * kf_offline.h - the offline library's private structures: the builder
 * (kf_build.c) and what it computes ahead of time. Everything here builds
 * on the runtime's private header; nothing in runtime/ includes this one.
 */
#ifndef KF_OFFLINE_H
#define KF_OFFLINE_H

#include "kf_build.h"
#include "kf_index.h"
#include "kf_private.h"

struct kf_ahead;

struct kf_builder {
    kf_allocator allocator;
    kf_objects objects;
    uint32_t capacity[KF_KIND_COUNT];
    /* Namespaces: animators of every kind share one. */
    kf_name_index animators, controllers, targets;
    kf_key_index bindings;  /* tracks' (kind, animator, controller, target) */
    struct kf_ahead *ahead; /* kf_builder_compress_ahead's worker, or NULL */
};

/* Fills `derived` (kf_interpolator_derived_count floats) from the stored
 * fields of a valid interpolator (kf_precompute_x3d.c). */
void kf_precompute_interpolator(const struct kf_interpolator *p, float *derived);

/* Fills a sequence's derived arrays (spline tangents or squad intermediates
 * into out/in, slerp arcs into arcs) from its stored times, values, TCB and
 * key tangents (kf_build.c). The builder and the error-bounded reduction
 * (kf_reduce.c) both derive through this one path. */
void kf_sequence_precompute(const struct kf_sequence *s, float *out, float *in, float *arcs);

/* The floats of a stored sequence's one block, which starts at s->times
 * (kf_build.c). */
size_t kf_sequence_block_floats(const struct kf_sequence *s);

#endif /* KF_OFFLINE_H */
