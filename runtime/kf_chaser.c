/* SPDX-License-Identifier: MIT */
/*
 * kf_chaser.c - X3D chasers as the exact FIR of docs/math.md §4.2 (no time
 * slots):
 *
 *     O(t) = d_{k-1} + sum_{n>=k} (d_n - d_{n-1}) R((t - T_n) / duration)
 *     R(x) = 0 (x <= 0), (1 - cos(pi x)) / 2 (0 < x < 1), 1 (x >= 1)
 *
 * Each set_destination holds one transition (T_n, d_n); a transition whose
 * R has reached 1 is folded into the base d_{k-1}, which then simply
 * becomes d_n: a transition is constant once complete, so folding is exact
 * and the base never accumulates rounding. Rotations chain slerps
 * (result := slerp(result, delta_n (x) result, R), delta_n = d_n (x)
 * conj(d_{n-1})); colours sum HSV differences, hue the short way round.
 */
#include <math.h>
#include <string.h>

#include "kf_follower_state.h"
#include "kf_math.h"

/* R((t - start) / duration); a zero duration is a step at `start`. */
static double core(double t, double start, double duration)
{
    double x = t - start;
    if (!(duration > 0.0))
        return x >= 0.0 ? 1.0 : 0.0;
    x /= duration;
    if (!(x > 0.0))
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    return 0.5 * (1.0 - cos(KF_PI * x));
}

static uint32_t ring_index(const kf_follower_state *s, uint32_t i)
{
    uint32_t j = s->head + i;
    return j >= s->capacity ? j - s->capacity : j;
}

/* The destination transition i (0 = oldest held) leads to. */
static double *target(const kf_follower_state *s, uint32_t i)
{
    return s->targets + (size_t)ring_index(s, i) * s->n;
}

static double start_time(const kf_follower_state *s, uint32_t i)
{
    return s->times[ring_index(s, i)];
}

/* Where transition i starts from. */
static const double *source(const kf_follower_state *s, uint32_t i)
{
    return i ? target(s, i - 1) : s->base;
}

/* Whether two working values are the same value (a rotation equals its
 * negation). */
static int same(const kf_follower_state *s, const double *a, const double *b)
{
    int equal = 1, opposite = s->values == KF_VALUES_ROTATION;
    for (uint32_t i = 0; i < s->n; i++) {
        equal &= a[i] == b[i];
        opposite &= a[i] == -b[i];
    }
    return equal || opposite;
}

/* Completes the oldest transition: the base becomes its destination. */
static void fold_oldest(kf_follower_state *s)
{
    memcpy(s->base, target(s, 0), s->n * sizeof *s->base);
    s->head = ring_index(s, 1);
    s->count--;
}

/* Adds a transition towards `value` starting at `time`. A full buffer
 * completes its oldest transition first (kf.h explains the bound). */
static void push(kf_follower_state *s, double time, const double *value)
{
    if (s->count == s->capacity)
        fold_oldest(s);
    uint32_t j = ring_index(s, s->count++);
    s->times[j] = time;
    memcpy(s->targets + (size_t)j * s->n, value, s->n * sizeof *value);
}

/* ---- colours: which hue a grey takes ------------------------------------- */

/*
 * A grey's hue is undefined; docs/math.md §4.5 has it take the other
 * operand's. In a chain of destinations that means: a grey destination keeps
 * the hue of the one before it (fading to grey does not turn the hue), and a
 * colour after greys gives them its hue when the whole held state is grey
 * (the output shows no hue, so nothing jumps). Otherwise, after a grey whose
 * transition is still under way, the hue turns from the one the grey kept,
 * which is continuous.
 */
static void adopt_hues(kf_follower_state *s, double *incoming)
{
    if (s->values != KF_VALUES_COLOR)
        return;
    if (incoming[1] == 0.0) {
        incoming[0] = s->destination[0];
        return;
    }
    if (s->base[1] != 0.0)
        return;
    for (uint32_t i = 0; i < s->count; i++)
        if (target(s, i)[1] != 0.0)
            return;
    s->base[0] = incoming[0];
    for (uint32_t i = 0; i < s->count; i++)
        target(s, i)[0] = incoming[0];
    s->destination[0] = incoming[0];
}

/* ---- the follower interface ------------------------------------------------ */

static void finish_event(kf_follower_state *s)
{
    s->active = s->count > 0;
    if (!s->active)
        memcpy(s->value, s->destination_value, s->components * sizeof *s->value);
}

void kf_chaser_reset(kf_follower_state *s, double time)
{
    s->head = s->count = 0;
    /* The initial transition runs from initialValue (the base) to
     * initialDestination: a grey one of the two takes the other's hue. */
    if (s->values == KF_VALUES_COLOR) {
        if (s->destination[1] == 0.0)
            s->destination[0] = s->base[0];
        else if (s->base[1] == 0.0)
            s->base[0] = s->destination[0];
    }
    if (!same(s, s->base, s->destination))
        push(s, time, s->destination);
    finish_event(s);
}

void kf_chaser_set_destination(kf_follower_state *s, double time)
{
    double *incoming = s->scratch;
    adopt_hues(s, incoming);
    if (same(s, incoming, s->destination))
        return; /* no change, no transition */
    if (s->values == KF_VALUES_LINEAR && s->count > 0 && start_time(s, s->count - 1) == time) {
        /* Two transitions starting together are one: d_{l-1} -> d_l -> d
         * sums to d_{l-1} -> d. Exact for sums only. */
        memcpy(target(s, s->count - 1), incoming, s->n * sizeof *incoming);
        if (same(s, incoming, source(s, s->count - 1)))
            s->count--;
    } else {
        push(s, time, incoming);
    }
    memcpy(s->destination, incoming, s->n * sizeof *incoming);
    memcpy(s->destination_value, s->scratch_value, s->components * sizeof *s->value);
    finish_event(s);
}

void kf_chaser_set_value(kf_follower_state *s, double time)
{
    double *incoming = s->scratch;
    if (s->values == KF_VALUES_COLOR) {
        if (incoming[1] == 0.0)
            incoming[0] = s->destination[0];
        else if (s->destination[1] == 0.0)
            s->destination[0] = incoming[0];
    }
    /* Every transition ends; the output rests at `incoming` and heads for
     * the destination as if it had always been there (docs/math.md §4.2). */
    memcpy(s->base, incoming, s->n * sizeof *incoming);
    s->head = s->count = 0;
    if (!same(s, incoming, s->destination))
        push(s, time, s->destination);
    s->active = s->count > 0; /* s->value already holds the jump */
}

static void evaluate_linear(const kf_follower_state *s, double t, double duration, double *out)
{
    memcpy(out, s->base, s->n * sizeof *out);
    for (uint32_t i = 0; i < s->count; i++) {
        double r = core(t, start_time(s, i), duration);
        if (r == 0.0)
            continue;
        const double *from = source(s, i), *to = target(s, i);
        for (uint32_t k = 0; k < s->n; k++)
            out[k] += (to[k] - from[k]) * r;
    }
}

static void evaluate_color(const kf_follower_state *s, double t, double duration, double *out)
{
    memcpy(out, s->base, 3 * sizeof *out);
    for (uint32_t i = 0; i < s->count; i++) {
        double r = core(t, start_time(s, i), duration);
        if (r == 0.0)
            continue;
        const double *from = source(s, i), *to = target(s, i);
        out[0] += kf_hue_difference(from[0], to[0]) * r;
        out[1] += (to[1] - from[1]) * r;
        out[2] += (to[2] - from[2]) * r;
    }
    out[0] = kf_hue_wrap(out[0]);
}

static void evaluate_rotation(const kf_follower_state *s, double t, double duration, double *out)
{
    double result[4];
    memcpy(result, s->base, sizeof result);
    for (uint32_t i = 0; i < s->count; i++) {
        double r = core(t, start_time(s, i), duration);
        if (r == 0.0)
            continue;
        /* delta_n = d_n (x) conj(d_{n-1}) is the change in the world frame:
         * X3D's "A.multiply(B)" is "A then B", Hamilton B (x) A. */
        double conj[4], delta[4], moved[4], next[4];
        kf_qconj(source(s, i), conj);
        kf_qmul(target(s, i), conj, delta);
        kf_qmul(delta, result, moved);
        kf_qslerp_short(result, moved, r, next);
        memcpy(result, next, sizeof result);
    }
    memcpy(out, result, sizeof result);
}

void kf_chaser_update(kf_follower_state *s, double t)
{
    const double duration = s->def->duration;
    while (s->count > 0 && t - start_time(s, 0) >= duration)
        fold_oldest(s);
    if (s->count == 0) {
        finish_event(s);
        return;
    }
    switch (s->values) {
    case KF_VALUES_ROTATION:
        evaluate_rotation(s, t, duration, s->scratch);
        break;
    case KF_VALUES_COLOR:
        evaluate_color(s, t, duration, s->scratch);
        break;
    default:
        evaluate_linear(s, t, duration, s->scratch);
        break;
    }
    kf_follower_give_value(s, s->scratch, s->value);
    s->active = 1;
}
