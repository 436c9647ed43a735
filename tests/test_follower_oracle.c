/* SPDX-License-Identifier: MIT */
/*
 * test_follower_oracle.c - every follower case of oracle/x3d.json through the
 * C API: kf_builder -> .kfb bytes -> kf_load_memory -> kf_follower_state,
 * driven tick by tick with kfplay's rule (tick k at k * tick, events applied
 * before the first tick at or after their time, a chaser's transition
 * starting at the event's own time). follower_oracle.py plans what each tick
 * is compared with (oracle/README.md's rules); this file applies the plan.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "test_util.h"
#include "follower_oracle.h"

#define TOL       1e-6 /* values, relative to max(1, |v|) */
#define ANGLE_TOL 1e-5 /* rotations, radians */

typedef struct stats {
    unsigned compared, rested;
    double worst_value, worst_angle;
} stats;

/* An authored value (axis-angle for rotations) as the follower takes it. */
static void to_runtime(int rotation, const double *authored, unsigned n, float *out)
{
    if (rotation) {
        const float aa[4] = {(float)authored[0], (float)authored[1], (float)authored[2],
                             (float)authored[3]};
        kf_axis_angle_to_quat(aa, out);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = (float)authored[i];
}

static void compare_value(const xf_case *c, unsigned k, const float *got, const double *want,
                          const double *want_quat, stats *st)
{
    if (want_quat) {
        double q[4] = {got[0], got[1], got[2], got[3]};
        double a = test_rotation_angle(q, want_quat);
        st->worst_angle = fmax(st->worst_angle, a);
        CHECK(a < ANGLE_TOL, "%s t=%.9g: rotation %.3g rad from the expected", c->id,
              (k + 1) * c->tick, a);
        return;
    }
    for (unsigned i = 0; i < c->value_count; i++) {
        double e = fabs(got[i] - want[i]) / fmax(1.0, fabs(want[i]));
        st->worst_value = fmax(st->worst_value, e);
        CHECK(e <= TOL, "%s t=%.9g component %u: got %.9g, want %.9g", c->id, (k + 1) * c->tick, i,
              got[i], want[i]);
    }
}

/* Dampers: ours rests exactly at the destination; X_ITE, if it still runs,
 * is near it. */
static void check_rest(const xf_case *c, int rotation, unsigned k, const float *got,
                       const float *dest, stats *st)
{
    const double t = (k + 1) * c->tick;
    st->rested++;
    if (rotation) {
        double q[4] = {got[0], got[1], got[2], got[3]}, d[4] = {dest[0], dest[1], dest[2], dest[3]};
        CHECK(test_rotation_angle(q, d) < 1e-6, "%s t=%.9g: resting away from the destination",
              c->id, t);
    } else {
        for (unsigned i = 0; i < c->value_count; i++)
            CHECK(got[i] == dest[i], "%s t=%.9g component %u: resting at %.9g, destination %.9g",
                  c->id, t, i, got[i], dest[i]);
    }
    if (!c->xite_active[k])
        return;
    const double *x = c->xite_value + (size_t)k * c->value_count;
    double far = 0.0;
    if (rotation) {
        double d[4] = {dest[0], dest[1], dest[2], dest[3]};
        far = test_rotation_angle(c->expect_quat + (size_t)k * 4, d);
    } else {
        for (unsigned i = 0; i < c->value_count; i++)
            far = fmax(far, fabs(x[i] - dest[i]));
    }
    CHECK(far <= c->rest_slack, "%s t=%.9g: ours rests, X_ITE runs %.3g from the destination",
          c->id, t, far);
}

static void run_case(const xf_case *c)
{
    kf_follower_node node;
    CHECK(kf_follower_node_from_name(c->node, &node), "%s: node %s", c->id, c->node);
    const int rotation =
        node == KF_FOLLOWER_NODE_ORIENTATION_CHASER || node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER;
    kf_follower_desc d;
    kf_follower_desc_init(&d, node);
    d.name = c->id;
    d.initial_value = c->initial_value;
    d.initial_value_count = c->value_count;
    d.initial_destination = c->initial_destination;
    d.initial_destination_count = c->value_count;
    if (c->has_duration)
        d.duration = c->duration;
    if (c->has_tau)
        d.tau = c->tau;
    if (c->has_order)
        d.order = c->order;
    if (c->has_tolerance)
        d.tolerance = c->tolerance;

    kf_builder *b;
    kf_error err;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    kf_result r = kf_builder_add_follower(b, &d, &err);
    CHECK(r == KF_OK, "%s: %s", c->id, err.message);
    kf_anim *anim = r == KF_OK ? test_encode_load(b, NULL) : NULL;
    kf_builder_destroy(b);
    CHECK(anim != NULL, "%s: encode/load", c->id);
    if (!anim)
        return;
    const kf_follower *f = kf_anim_follower(anim, 0);
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    CHECK(info.node == node && info.element_count == c->points &&
              info.components == (rotation ? 4 : c->value_count),
          "%s: info node %d points %u components %u", c->id, (int)info.node, info.element_count,
          info.components);

    kf_follower_state *s;
    CHECK(kf_follower_state_create(f, 0, NULL, &s) == KF_OK, "%s: state", c->id);
    float *event = calloc(c->value_count, sizeof *event);
    float *dest = calloc(c->value_count, sizeof *dest);
    stats st = {0, 0, 0.0, 0.0};
    unsigned next = 0;
    for (unsigned k = 0; k < c->ticks; k++) {
        const double t = (double)(k + 1) * c->tick;
        for (; next < c->event_count && c->events[next].time - 1e-9 * c->tick <= t; next++) {
            const xf_event *e = &c->events[next];
            to_runtime(rotation, e->value, c->value_count, event);
            r = e->set_value ? kf_follower_set_value(s, event, e->time)
                             : kf_follower_set_destination(s, event, e->time);
            CHECK(r == KF_OK, "%s: event at %g", c->id, e->time);
        }
        kf_follower_update(s, t);
        const float *got = kf_follower_value(s);
        const int active = kf_follower_is_active(s);
        const double *want = c->expect ? c->expect + (size_t)k * c->value_count : NULL;
        const double *want_quat = c->expect_quat ? c->expect_quat + (size_t)k * 4 : NULL;
        if (c->mode != XF_MODE_DAMPER) {
            st.compared++;
            compare_value(c, k, got, want, want_quat, &st);
            CHECK(active == c->active[k], "%s t=%.9g: isActive %d, want %d", c->id, t, active,
                  c->active[k]);
            continue;
        }
        to_runtime(rotation, c->destination + (size_t)k * c->value_count, c->value_count, dest);
        if (!active) {
            check_rest(c, rotation, k, got, dest, &st);
        } else {
            /* Ours runs: so must X_ITE, or have stopped this very frame
             * (its last output is computed like ours). */
            CHECK(c->xite_active[k] || c->xite_stop[k],
                  "%s t=%.9g: ours still runs, X_ITE stopped before", c->id, t);
            st.compared++;
            compare_value(c, k, got, c->xite_value + (size_t)k * c->value_count, want_quat, &st);
        }
    }
    CHECK(next == c->event_count, "%s: %u of %u events applied", c->id, next, c->event_count);
    /* A pass-through damper (order 0 or tau 0) only ever rests, and is
     * checked exactly there. */
    const int pass_through = c->mode == XF_MODE_DAMPER && (info.order == 0 || info.tau == 0.0);
    CHECK(st.compared > c->ticks / 4 || (pass_through && st.rested == c->ticks),
          "%s: only %u of %u ticks compared", c->id, st.compared, c->ticks);
    printf("  %-36s %-18s %4u compared, %4u at rest, worst %.2e (value) %.2e rad\n", c->id, c->node,
           st.compared, st.rested, st.worst_value, st.worst_angle);
    free(event);
    free(dest);
    kf_follower_state_destroy(s);
    kf_anim_free(anim);
}

int main(void)
{
    if (!xf_oracle_present) {
        printf("test_follower_oracle: FAILED: no x3d.json in the oracle folder\n");
        return 1;
    }
    CHECK(xf_case_count >= 21, "%u follower cases", xf_case_count);
    for (unsigned i = 0; i < xf_case_count; i++)
        run_case(&xf_cases[i]);
    return kf_test_report("test_follower_oracle");
}
