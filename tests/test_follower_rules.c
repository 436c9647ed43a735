/* SPDX-License-Identifier: MIT */
/*
 * test_follower_rules.c - docs/math.md §4 by hand: values worked out on paper
 * for set_destination, set_value and isActive, the damper cascade and its
 * end test, pass-through, rotations, HSV colours and grey hues, the chaser
 * bound and its degradation, and the argument checks.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "test_util.h"

#define EPS 1e-6

static double R(double x)
{
    return x <= 0.0 ? 0.0 : x >= 1.0 ? 1.0 : 0.5 * (1.0 - cos(3.14159265358979323846 * x));
}

/* An anim holding one follower described by `d`. */
static kf_anim *one_follower(const kf_follower_desc *d)
{
    kf_builder *b;
    kf_error err;
    kf_anim *anim = NULL;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    if (kf_builder_add_follower(b, d, &err) == KF_OK)
        anim = test_encode_load(b, NULL);
    else
        fprintf(stderr, "add_follower: %s\n", err.message);
    kf_builder_destroy(b);
    return anim;
}

static kf_anim *scalar(kf_follower_node node, double from, double to, double time_constant,
                       int order, double tolerance)
{
    kf_follower_desc d;
    kf_follower_desc_init(&d, node);
    d.name = "f";
    d.initial_value = &from;
    d.initial_value_count = 1;
    d.initial_destination = &to;
    d.initial_destination_count = 1;
    d.duration = time_constant;
    d.tau = time_constant;
    d.order = order;
    d.tolerance = tolerance;
    return one_follower(&d);
}

static kf_follower_state *state_of(const kf_anim *anim, uint32_t capacity)
{
    kf_follower_state *s = NULL;
    if (!anim || kf_follower_state_create(kf_anim_follower(anim, 0), capacity, NULL, &s) != KF_OK)
        return NULL;
    return s;
}

#define VALUE(s) ((double)kf_follower_value(s)[0])

static void set_destination(kf_follower_state *s, double v, double t)
{
    float f = (float)v;
    CHECK(kf_follower_set_destination(s, &f, t) == KF_OK, "set_destination %g at %g", v, t);
}

static void set_value(kf_follower_state *s, double v, double t)
{
    float f = (float)v;
    CHECK(kf_follower_set_value(s, &f, t) == KF_OK, "set_value %g at %g", v, t);
}

static void at(kf_follower_state *s, double t, double want, int active, int line)
{
    kf_follower_update(s, t);
    CHECK(fabs(VALUE(s) - want) <= EPS, "line %d t=%g: value %.9g, want %.9g", line, t, VALUE(s),
          want);
    CHECK(kf_follower_is_active(s) == active, "line %d t=%g: isActive %d, want %d", line, t,
          kf_follower_is_active(s), active);
}
#define AT(s, t, want, active) at(s, t, want, active, __LINE__)

static void chaser_events(void)
{
    kf_anim *anim = scalar(KF_FOLLOWER_NODE_SCALAR_CHASER, 0.0, 0.0, 1.0, 0, -1);
    kf_follower_state *s = state_of(anim, 0);
    CHECK(s != NULL, "scalar chaser");
    if (!s)
        return;
    /* At rest: equal initial fields start no transition. */
    CHECK(!kf_follower_is_active(s) && VALUE(s) == 0.0, "initially at rest");
    AT(s, 0.5, 0.0, 0);

    /* A transition starts at its event, isActive at once, and ends exactly
     * `duration` later. */
    set_destination(s, 1.0, 1.0);
    CHECK(kf_follower_is_active(s) && kf_follower_pending(s) == 1, "active on set_destination");
    AT(s, 1.0, 0.0, 1);
    AT(s, 1.25, R(0.25), 1);
    AT(s, 1.5, 0.5, 1);
    AT(s, 2.0, 1.0, 0);
    CHECK(kf_follower_pending(s) == 0, "a complete transition is folded");

    /* Overlapping transitions add: 1 -> 3 at 3, 3 -> -1 at 3.5. */
    set_destination(s, 3.0, 3.0);
    AT(s, 3.25, 1.0 + 2.0 * R(0.25), 1);
    set_destination(s, -1.0, 3.5);
    AT(s, 3.75, 1.0 + 2.0 * R(0.75) - 4.0 * R(0.25), 1);
    AT(s, 4.0, 3.0 - 4.0 * R(0.5), 1);
    CHECK(kf_follower_pending(s) == 1, "the first transition folded at 4, the second held");
    AT(s, 4.5, -1.0, 0);

    /* set_value while running: the output jumps, isActive stays 1, and a
     * new transition to the destination starts at the event. */
    set_destination(s, 5.0, 5.0);
    AT(s, 5.5, -1.0 + 6.0 * 0.5, 1);
    set_value(s, 0.0, 5.5);
    CHECK(VALUE(s) == 0.0 && kf_follower_is_active(s), "set_value jumps, stays active");
    AT(s, 5.5, 0.0, 1);
    AT(s, 6.0, 5.0 * 0.5, 1);
    AT(s, 6.5, 5.0, 0);

    /* set_value at the destination ends the transition: isActive 0. */
    set_destination(s, 7.0, 7.0);
    AT(s, 7.5, 6.0, 1);
    set_value(s, 7.0, 7.5);
    CHECK(VALUE(s) == 7.0 && !kf_follower_is_active(s), "set_value = destination: at rest");
    AT(s, 7.75, 7.0, 0);

    /* set_value while resting elsewhere starts a transition back. */
    set_value(s, 2.0, 8.0);
    CHECK(kf_follower_is_active(s), "set_value away from the destination: active");
    AT(s, 8.5, 2.0 + 5.0 * 0.5, 1);
    AT(s, 9.0, 7.0, 0);

    /* A destination equal to the current one starts nothing. */
    set_destination(s, 7.0, 9.5);
    CHECK(!kf_follower_is_active(s) && kf_follower_pending(s) == 0, "no-op destination");

    /* Events at one time merge exactly into one transition. */
    set_destination(s, 8.0, 10.0);
    set_destination(s, 9.0, 10.0);
    CHECK(kf_follower_pending(s) == 1, "equal times merge (%u held)", kf_follower_pending(s));
    AT(s, 10.5, 7.0 + 2.0 * 0.5, 1);
    AT(s, 11.0, 9.0, 0);
    set_destination(s, 4.0, 11.0);
    set_destination(s, 9.0, 11.0); /* back where it was: nothing left to do */
    CHECK(kf_follower_pending(s) == 0 && !kf_follower_is_active(s), "a merge back to rest");

    /* A transition is a function of time: evaluating earlier is fine. */
    set_destination(s, 10.0, 12.0);
    AT(s, 12.5, 9.5, 1);
    AT(s, 12.25, 9.0 + R(0.25), 1);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* The initial transition starts at initialization. */
    anim = scalar(KF_FOLLOWER_NODE_SCALAR_CHASER, 2.0, 4.0, 0.5, 0, -1);
    s = state_of(anim, 0);
    CHECK(s && kf_follower_is_active(s) && VALUE(s) == 2.0, "initial transition");
    if (s) {
        AT(s, 0.25, 3.0, 1);
        kf_follower_reset(s, 10.0);
        CHECK(VALUE(s) == 2.0 && kf_follower_is_active(s), "reset");
        AT(s, 10.25, 3.0, 1);
        AT(s, 10.5, 4.0, 0);
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* duration 0: the destination at once. */
    anim = scalar(KF_FOLLOWER_NODE_SCALAR_CHASER, 0.0, 0.0, 0.0, 0, -1);
    s = state_of(anim, 0);
    if (s) {
        set_destination(s, 3.0, 1.0);
        AT(s, 1.0, 3.0, 0);
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

/* The bound: capacity 2, three transitions inside one duration. */
static void chaser_capacity(void)
{
    kf_anim *anim = scalar(KF_FOLLOWER_NODE_SCALAR_CHASER, 0.0, 0.0, 1.0, 0, -1);
    kf_follower_state *s = state_of(anim, 2);
    if (!s) {
        CHECK(0, "chaser");
        return;
    }
    set_destination(s, 1.0, 0.0);
    set_destination(s, 2.0, 0.1);
    CHECK(kf_follower_pending(s) == 2, "two held");
    AT(s, 0.2, R(0.2) + R(0.1), 1);
    /* Full: the oldest (0 -> 1, at R(0.2)) completes early; the output
     * jumps by 1 - R(0.2). */
    set_destination(s, 3.0, 0.2);
    CHECK(kf_follower_pending(s) == 2, "still two held");
    AT(s, 0.2, 1.0 + R(0.1), 1);
    AT(s, 0.5, 1.0 + R(0.4) + R(0.3), 1);
    AT(s, 1.2, 3.0, 0); /* the last destination is reached on time */
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

static void damper_rules(void)
{
    const double e1 = exp(-1.0), e2 = exp(-2.0), e3 = exp(-3.0);
    /* Order 1, tau 1, tolerance 0.1: the end test comes before the update. */
    kf_anim *anim = scalar(KF_FOLLOWER_NODE_SCALAR_DAMPER, 0.0, 1.0, 1.0, 1, 0.1);
    kf_follower_state *s = state_of(anim, 0);
    if (!s) {
        CHECK(0, "damper");
        return;
    }
    CHECK(kf_follower_is_active(s) && VALUE(s) == 0.0, "initial transition");
    AT(s, 1.0, 1.0 - e1, 1);
    AT(s, 2.0, 1.0 - e2, 1);
    AT(s, 3.0, 1.0 - e3, 1); /* 1 - e^-2 = 0.865 was 0.135 away: update */
    AT(s, 4.0, 1.0, 0);      /* 1 - e^-3 = 0.950 was within 0.1: snap, stop */
    CHECK(VALUE(s) == 1.0f, "snapped exactly to the destination");

    /* Idle, dt still counts from the previous update (5), not the event. */
    AT(s, 5.0, 1.0, 0);
    set_destination(s, 2.0, 5.5);
    CHECK(kf_follower_is_active(s), "active on set_destination");
    AT(s, 6.0, 2.0 - e1, 1);
    /* Time only moves forward: an earlier update changes nothing. */
    AT(s, 5.5, 2.0 - e1, 1);
    AT(s, 7.0, 2.0 - e2, 1);

    /* set_value within tolerance of the destination: at rest at once,
     * showing the value until the next update snaps. */
    set_value(s, 1.95, 7.0);
    CHECK(!kf_follower_is_active(s) && fabs(VALUE(s) - 1.95) < EPS, "set_value within tolerance");
    AT(s, 7.5, 2.0, 0);
    /* Far from it: a jump, and isActive 1. */
    set_value(s, 0.0, 8.0);
    CHECK(kf_follower_is_active(s) && VALUE(s) == 0.0, "set_value far: active");
    AT(s, 8.5, 2.0 - 2.0 * e1, 1); /* dt from the update at 7.5 */
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* Order 2: the second stage follows the just-updated first. */
    anim = scalar(KF_FOLLOWER_NODE_SCALAR_DAMPER, 0.0, 1.0, 1.0, 2, -1);
    s = state_of(anim, 0);
    if (s) {
        double s1 = 1.0 - e1, s2 = s1 * (1.0 - e1);
        AT(s, 1.0, s2, 1);
        s1 = 1.0 + (s1 - 1.0) * e1;
        s2 = s1 + (s2 - s1) * e1;
        AT(s, 2.0, s2, 1);
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* Tolerance 0: only equality ends a transition. */
    anim = scalar(KF_FOLLOWER_NODE_SCALAR_DAMPER, 0.0, 1.0, 0.01, 1, 0.0);
    s = state_of(anim, 0);
    if (s) {
        AT(s, 0.1, 1.0 - exp(-10.0), 1);
        set_value(s, 1.0, 0.1);
        CHECK(!kf_follower_is_active(s), "tolerance 0: equal stops");
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* Pass-through: order 0, or tau 0. */
    for (int i = 0; i < 2; i++) {
        anim = scalar(KF_FOLLOWER_NODE_SCALAR_DAMPER, 0.0, 1.0, i ? 0.0 : 0.5, i ? 3 : 0, -1);
        s = state_of(anim, 0);
        if (!s)
            continue;
        CHECK(!kf_follower_is_active(s), "pass-through never runs");
        AT(s, 0.1, 1.0, 0);
        set_destination(s, -4.0, 0.2);
        AT(s, 0.2, -4.0, 0);
        kf_follower_state_destroy(s);
        kf_anim_free(anim);
    }
}

static void rotations(void)
{
    /* Axis-angle <-> quaternion. */
    const float aa[4] = {0.0f, 0.0f, 2.0f, (float)(3.14159265358979323846 / 2)};
    float q[4], back[4];
    kf_axis_angle_to_quat(aa, q);
    CHECK(fabs(q[2] - sqrt(0.5)) < 1e-7 && fabs(q[3] - sqrt(0.5)) < 1e-7 && q[0] == 0.0f,
          "90 degrees about z: %g %g %g %g", q[0], q[1], q[2], q[3]);
    kf_quat_to_axis_angle(q, back);
    CHECK(fabs(back[2] - 1.0) < 1e-7 && fabs(back[3] - aa[3]) < 1e-6, "back: %g %g %g %g", back[0],
          back[1], back[2], back[3]);
    const float zero[4] = {0, 0, 0, 1.0f}, identity[4] = {0, 0, 0, 1};
    kf_axis_angle_to_quat(zero, q);
    CHECK(test_rotation_angle_f(q, identity) == 0.0, "zero axis: identity");
    const float negated[4] = {0, 0, -0.5f, -0.8660254f}; /* w < 0: 60 degrees about +z */
    kf_quat_to_axis_angle(negated, back);
    CHECK(back[2] > 0.99999f && fabs(back[3] - 3.14159265358979323846 / 3) < 1e-6,
          "angle in [0, pi]: %g %g %g %g", back[0], back[1], back[2], back[3]);

    /* OrientationChaser: identity to 90 degrees about z, halfway = 45. */
    kf_follower_desc d;
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_ORIENTATION_CHASER);
    const double from[4] = {0, 0, 1, 0}, to[4] = {0, 0, 1, 3.14159265358979323846 / 2};
    d.name = "r";
    d.initial_value = from;
    d.initial_value_count = 4;
    d.initial_destination = to;
    d.initial_destination_count = 4;
    kf_anim *anim = one_follower(&d);
    kf_follower_state *s = state_of(anim, 0);
    if (s) {
        kf_follower_update(s, 0.5);
        float want[4];
        const float aa45[4] = {0, 0, 1, (float)(3.14159265358979323846 / 4)};
        kf_axis_angle_to_quat(aa45, want);
        CHECK(test_rotation_angle_f(kf_follower_value(s), want) < 1e-6, "halfway: 45 degrees");
        kf_follower_update(s, 1.0);
        kf_axis_angle_to_quat((const float[4]){0, 0, 1, (float)(3.14159265358979323846 / 2)}, want);
        CHECK(test_rotation_angle_f(kf_follower_value(s), want) < 1e-6 && !kf_follower_is_active(s),
              "arrived");
        /* -q is the same rotation: no transition. */
        float neg[4] = {-want[0], -want[1], -want[2], -want[3]};
        CHECK(kf_follower_set_destination(s, neg, 2.0) == KF_OK && !kf_follower_is_active(s),
              "the negated destination is the same rotation");
        /* 90 -> 330 degrees goes the short way (-120, through 30), not
         * through 210. */
        kf_axis_angle_to_quat((const float[4]){0, 0, 1, (float)(3.14159265358979323846 * 11 / 6)},
                              want);
        kf_follower_set_destination(s, want, 3.0);
        kf_follower_update(s, 3.5);
        kf_axis_angle_to_quat((const float[4]){0, 0, 1, (float)(3.14159265358979323846 / 6)}, want);
        CHECK(test_rotation_angle_f(kf_follower_value(s), want) < 1e-6, "shortest arc: %g",
              test_rotation_angle_f(kf_follower_value(s), want));
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* OrientationDamper order 1, tau 1: the angle left shrinks by e^-dt. */
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_ORIENTATION_DAMPER);
    d.name = "r";
    d.initial_value = to;
    d.initial_value_count = 4;
    d.initial_destination = from;
    d.initial_destination_count = 4;
    d.tau = 1.0;
    d.order = 1;
    anim = one_follower(&d);
    s = state_of(anim, 0);
    if (s) {
        kf_follower_update(s, 1.0);
        double left = test_rotation_angle_f(kf_follower_value(s), identity);
        CHECK(fabs(left - 3.14159265358979323846 / 2 * exp(-1.0)) < 1e-6, "angle left %g", left);
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

static kf_anim *color(kf_follower_node node, const double *from, const double *to)
{
    kf_follower_desc d;
    kf_follower_desc_init(&d, node);
    d.name = "c";
    d.initial_value = from;
    d.initial_value_count = 3;
    d.initial_destination = to;
    d.initial_destination_count = 3;
    d.duration = 1.0;
    d.tau = 1.0;
    d.order = 1;
    return one_follower(&d);
}

static void check_rgb(kf_follower_state *s, double t, double r, double g, double b, int line)
{
    kf_follower_update(s, t);
    const float *v = kf_follower_value(s);
    CHECK(fabs(v[0] - r) < EPS && fabs(v[1] - g) < EPS && fabs(v[2] - b) < EPS,
          "line %d t=%g: %g %g %g, want %g %g %g", line, t, v[0], v[1], v[2], r, g, b);
}
#define RGB(s, t, r, g, b) check_rgb(s, t, r, g, b, __LINE__)

static void colors(void)
{
    const double red[3] = {1, 0, 0}, blue[3] = {0, 0, 1}, grey[3] = {0.5, 0.5, 0.5},
                 cyan[3] = {0, 1, 1};
    /* Red to blue: hue 0 -> 240 degrees the short way, through magenta. */
    kf_anim *anim = color(KF_FOLLOWER_NODE_COLOR_CHASER, red, blue);
    kf_follower_state *s = state_of(anim, 0);
    if (s) {
        RGB(s, 0.5, 1, 0, 1);
        RGB(s, 1.0, 0, 0, 1);
        /* Blue to grey: the grey keeps blue's hue; halfway s = 0.5, v = 0.75. */
        kf_follower_set_destination(s, (const float[3]){0.5f, 0.5f, 0.5f}, 2.0);
        RGB(s, 2.5, 0.375, 0.375, 0.75);
        RGB(s, 3.0, 0.5, 0.5, 0.5);
        /* Grey to red with nothing under way: the grey takes red's hue. */
        kf_follower_set_destination(s, (const float[3]){1, 0, 0}, 4.0);
        RGB(s, 4.5, 0.75, 0.375, 0.375);
        /* set_value to a grey while running: it takes the destination's hue. */
        kf_follower_set_value(s, (const float[3]){0.2f, 0.2f, 0.2f}, 4.5);
        RGB(s, 5.0, (0.2 + 1.0) / 2, (0.2 + 1.0) / 2 * 0.5, (0.2 + 1.0) / 2 * 0.5);
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* Blue to grey from the start: hue 240 throughout too. */
    anim = color(KF_FOLLOWER_NODE_COLOR_CHASER, blue, grey);
    s = state_of(anim, 0);
    if (s)
        RGB(s, 0.5, 0.375, 0.375, 0.75);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* Grey to blue from the start: hue 240 throughout. */
    anim = color(KF_FOLLOWER_NODE_COLOR_CHASER, grey, blue);
    s = state_of(anim, 0);
    if (s)
        RGB(s, 0.5, 0.375, 0.375, 0.75);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* Exactly 180 degrees goes the direct way: red -> cyan through 90. */
    anim = color(KF_FOLLOWER_NODE_COLOR_CHASER, red, cyan);
    s = state_of(anim, 0);
    if (s)
        RGB(s, 0.5, 0.5, 1, 0);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);

    /* ColorDamper order 1: hue and value in HSV; towards grey the hue
     * stays. Red -> grey: s = e^-1, v = 0.5 + 0.5 e^-1. */
    anim = color(KF_FOLLOWER_NODE_COLOR_DAMPER, red, grey);
    s = state_of(anim, 0);
    if (s) {
        const double e = exp(-1.0), v = 0.5 + 0.5 * e, p = v * (1 - e);
        RGB(s, 1.0, v, p, p);
    }
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
    /* Red -> blue damped: hue 240 + 120 e^-1 degrees (the short way, on
     * the magenta side), which is RGB (2 e^-1, 0, 1). */
    anim = color(KF_FOLLOWER_NODE_COLOR_DAMPER, red, blue);
    s = state_of(anim, 0);
    if (s)
        RGB(s, 1.0, 2.0 * exp(-1.0), 0, 1);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

static void arguments(void)
{
    kf_anim *anim = scalar(KF_FOLLOWER_NODE_SCALAR_CHASER, 0.0, 0.0, 1.0, 0, -1);
    const kf_follower *f = kf_anim_follower(anim, 0);
    kf_follower_state *s = state_of(anim, 0);
    if (!s)
        return;
    const float nan = NAN, one = 1.0f;
    CHECK(kf_follower_set_destination(s, NULL, 0) == KF_ERROR_ARGUMENT, "NULL value");
    CHECK(kf_follower_set_destination(s, &nan, 0) == KF_ERROR_ARGUMENT, "NaN value");
    CHECK(kf_follower_set_value(s, &one, NAN) == KF_ERROR_ARGUMENT, "NaN time");
    CHECK(kf_follower_set_value(s, &one, INFINITY) == KF_ERROR_ARGUMENT, "infinite time");
    CHECK(!kf_follower_is_active(s) && VALUE(s) == 0.0, "refused events change nothing");
    kf_follower_update(s, NAN);
    CHECK(VALUE(s) == 0.0, "a NaN update changes nothing");

    /* Caller memory. */
    size_t size = kf_follower_state_size(f, 8);
    CHECK(size > 0 && size < kf_follower_state_size(f, 64), "size grows with capacity");
    void *memory = malloc(size);
    CHECK(kf_follower_state_init(memory, size - 1, f, 8) == NULL, "too small");
    kf_follower_state *m = kf_follower_state_init(memory, size, f, 8);
    CHECK(m == memory && kf_follower_state_follower(m) == f, "in caller memory");
    set_destination(m, 2.0, 0.0);
    AT(m, 0.5, 1.0, 1);
    kf_follower_state_destroy(m); /* not allocated by create: ignored */
    free(memory);
    kf_follower_state *none = NULL;
    CHECK(kf_follower_state_create(NULL, 0, NULL, &none) == KF_ERROR_ARGUMENT && !none, "NULL");
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

int main(void)
{
    chaser_events();
    chaser_capacity();
    damper_rules();
    rotations();
    colors();
    arguments();
    return kf_test_report("test_follower_rules");
}
