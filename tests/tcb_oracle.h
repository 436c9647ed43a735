/* SPDX-License-Identifier: MIT */
/*
 * tcb_oracle.h - Kochanek-Bartels expectations as C data, written at build
 * time by gen_tcb_oracle.py: Eberly's own results (oracle/eberly.json, when
 * present) and cases computed by the independent reference tcb_reference.py.
 */
#ifndef TCB_ORACLE_H
#define TCB_ORACLE_H

#include "test_util.h"

#define TCB_MAX_COMPONENTS 4

typedef struct tcb_key {
    double t;
    double v[TCB_MAX_COMPONENTS];
    double tcb[3]; /* tension, continuity, bias */
} tcb_key;

enum {
    TCB_VALUE_ONLY = 0, /* no derivatives expected (rotations) */
    TCB_RIGHT = 1,      /* derivatives of the segment starting at t (our rule) */
    TCB_LEFT = 2        /* derivatives of the segment ending at t (the left limit) */
};

typedef struct tcb_sample {
    double t;
    double v[TCB_MAX_COMPONENTS];
    double velocity[TCB_MAX_COMPONENTS];
    double acceleration[TCB_MAX_COMPONENTS];
    int derivatives; /* TCB_* */
} tcb_sample;

typedef struct tcb_case {
    const char *name;
    const char *source; /* "eberly" or "reference" */
    int interpolation;  /* kf_interpolation */
    int repeat;         /* kf_repeat */
    double duration;
    unsigned first, last, components, key_count;
    const tcb_key *keys;
    unsigned sample_count;
    const tcb_sample *samples;
    double scale; /* tolerances are relative to max(1, scale) */
    /* Arc length (LINEAR/SPLINE): the length of the segment starting at
     * each valid key, in valid order (fine polyline), and the total. */
    unsigned segment_count;
    const double *segment_lengths;
    double length;        /* -1: not computed */
    double eberly_length; /* Eberly's own 5-point estimate, or -1 */
} tcb_case;

extern const int tcb_eberly_present;
extern const char *const tcb_eberly_path;
extern const unsigned tcb_case_count;
extern const tcb_case tcb_cases[];

/* Case c as a sequence, built (with distance tables if `arc_length`),
 * encoded and loaded; NULL, the reason printed, if that fails. */
static inline kf_anim *tcb_case_load(const tcb_case *c, int arc_length)
{
    double *times = calloc(c->key_count, sizeof *times);
    double *values = calloc((size_t)c->key_count * c->components, sizeof *values);
    double *tcb = calloc((size_t)c->key_count * 3, sizeof *tcb);
    for (unsigned i = 0; i < c->key_count; i++) {
        times[i] = c->keys[i].t;
        for (unsigned k = 0; k < c->components; k++)
            values[i * c->components + k] = c->keys[i].v[k];
        for (unsigned k = 0; k < 3; k++)
            tcb[i * 3 + k] = c->keys[i].tcb[k];
    }
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.key_count = c->key_count;
    d.name = c->name;
    d.interpolation = (kf_interpolation)c->interpolation;
    d.repeat = (kf_repeat)c->repeat;
    d.duration = c->duration;
    d.components = c->components;
    d.times = times;
    d.values = values;
    d.valid_first = c->first;
    d.valid_last = c->last;
    d.tcb =
        c->interpolation == KF_INTERPOLATION_SPLINE || c->interpolation == KF_INTERPOLATION_SQUAD
            ? tcb
            : NULL;
    d.arc_length = arc_length;
    kf_anim *anim = test_load_sequence(&d);
    free(times);
    free(values);
    free(tcb);
    return anim;
}

#endif /* TCB_ORACLE_H */
