/* SPDX-License-Identifier: MIT */
/*
 * kf_damper.c - X3D dampers: `order` cascaded first-order filters
 * (docs/math.md §4.4). At each update, for each stage j in order,
 *
 *     o_j := in_j + (o_j - in_j) exp(-dt / tau)
 *
 * with in_1 the destination and in_j the just-updated o_{j-1}. Before
 * updating, if every stage is within `tolerance` of its input, the output
 * snaps to the destination and the damper stops (isActive 0). Rotations
 * update by shortest-arc slerp, colours in HSV.
 */
#include <math.h>
#include <string.h>

#include "kf_follower_state.h"
#include "kf_math.h"

/* X3D's -1 leaves the end test to the browser; clause 39 suggests .001
 * (docs/math.md §4.4). */
#define DEFAULT_TOLERANCE 0.001

static uint32_t stage_count(const kf_follower_state *s)
{
    return s->def->order;
}

static double *stage(const kf_follower_state *s, uint32_t j)
{
    return s->stages + (size_t)j * s->n;
}

/* tau = 0 or order = 0: the output is the destination at once. */
static int pass_through(const kf_follower_state *s)
{
    return stage_count(s) == 0 || !(s->def->duration > 0.0f);
}

/* The distance the tolerance applies to: Euclidean (the largest over the
 * points of an array), rotation angle, or Euclidean in RGB for colours. */
static double distance(const kf_follower_state *s, const double *a, const double *b)
{
    switch (s->values) {
    case KF_VALUES_ROTATION: {
        double c = fabs(kf_qdot(a, b));
        return 2.0 * acos(c < 1.0 ? c : 1.0);
    }
    case KF_VALUES_COLOR: {
        double ra[3], rb[3];
        kf_hsv_to_rgb(a, ra);
        kf_hsv_to_rgb(b, rb);
        return sqrt((ra[0] - rb[0]) * (ra[0] - rb[0]) + (ra[1] - rb[1]) * (ra[1] - rb[1]) +
                    (ra[2] - rb[2]) * (ra[2] - rb[2]));
    }
    default: {
        double worst = 0.0;
        for (uint32_t i = 0; i < s->n; i += s->element) {
            double d2 = 0.0;
            for (uint32_t k = 0; k < s->element; k++)
                d2 += (a[i + k] - b[i + k]) * (a[i + k] - b[i + k]);
            if (!(d2 <= worst)) /* NaN counts as far */
                worst = d2;
        }
        return sqrt(worst);
    }
    }
}

/* Whether every stage is within tolerance of its input ("below that limit
 * or equal to it": tolerance 0 asks for equality). */
static int settled(const kf_follower_state *s)
{
    const double tolerance = s->def->tolerance < 0.0f ? DEFAULT_TOLERANCE : s->def->tolerance;
    for (uint32_t j = 0; j < stage_count(s); j++) {
        const double *in = j ? stage(s, j - 1) : s->destination;
        if (!(distance(s, stage(s, j), in) <= tolerance))
            return 0;
    }
    return 1;
}

/* The end of a transition: every stage at the destination. */
static void snap(kf_follower_state *s)
{
    for (uint32_t j = 0; j < stage_count(s); j++)
        memcpy(stage(s, j), s->destination, s->n * sizeof *s->destination);
    memcpy(s->value, s->destination_value, s->components * sizeof *s->value);
    s->active = 0;
}

/* o := in + (o - in) * alpha, in the value's own terms. */
static void step(const kf_follower_state *s, const double *in, double *o, double alpha)
{
    switch (s->values) {
    case KF_VALUES_ROTATION: {
        double q[4];
        kf_qslerp_short(in, o, alpha, q);
        kf_qnormalize(q, o);
        break;
    }
    case KF_VALUES_COLOR: {
        /* A grey operand takes the other's hue (docs/math.md §4.5). */
        const int grey_in = in[1] == 0.0, grey_o = o[1] == 0.0;
        const double from = grey_in ? o[0] : in[0];
        const double dh = grey_in || grey_o ? 0.0 : kf_hue_difference(in[0], o[0]);
        o[0] = kf_hue_wrap(from + dh * alpha);
        o[1] = in[1] + (o[1] - in[1]) * alpha;
        o[2] = in[2] + (o[2] - in[2]) * alpha;
        break;
    }
    default:
        for (uint32_t k = 0; k < s->n; k++)
            o[k] = in[k] + (o[k] - in[k]) * alpha;
        break;
    }
}

static void set_active(kf_follower_state *s)
{
    s->active = !pass_through(s) && !settled(s);
}

void kf_damper_reset(kf_follower_state *s, double time)
{
    for (uint32_t j = 1; j < stage_count(s); j++)
        memcpy(stage(s, j), stage(s, 0), s->n * sizeof *s->stages);
    s->last_time = time;
    set_active(s);
}

void kf_damper_set_destination(kf_follower_state *s)
{
    memcpy(s->destination, s->scratch, s->n * sizeof *s->destination);
    memcpy(s->destination_value, s->scratch_value, s->components * sizeof *s->value);
    set_active(s);
}

void kf_damper_set_value(kf_follower_state *s)
{
    /* Stage 0 always exists in memory, so order 0 keeps the value too. */
    memcpy(stage(s, 0), s->scratch, s->n * sizeof *s->stages);
    for (uint32_t j = 1; j < stage_count(s); j++)
        memcpy(stage(s, j), s->scratch, s->n * sizeof *s->stages);
    set_active(s);
}

void kf_damper_update(kf_follower_state *s, double t)
{
    /* Time only moves forward; dt is measured from the previous update,
     * also when the damper was idle (docs/math.md §4.1). */
    double dt = 0.0;
    if (t > s->last_time) {
        dt = t - s->last_time;
        s->last_time = t;
    }
    if (pass_through(s) || settled(s)) {
        snap(s);
        return;
    }
    const double alpha = exp(-dt / (double)s->def->duration);
    for (uint32_t j = 0; j < stage_count(s); j++)
        step(s, j ? stage(s, j - 1) : s->destination, stage(s, j), alpha);
    kf_follower_give_value(s, stage(s, stage_count(s) - 1), s->value);
    s->active = 1;
}
