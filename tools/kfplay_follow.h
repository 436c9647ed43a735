/* SPDX-License-Identifier: MIT */
/*
 * kfplay_follow.h - a follower driven by command-line events, tick by tick:
 * what `kfplay follow` prints and `kfplay plot` draws.
 */
#ifndef KFPLAY_FOLLOW_H
#define KFPLAY_FOLLOW_H

#include <stdint.h>

#include "kf.h"
#include "kfplay_args.h"

typedef struct kfp_follow_event {
    double time;
    int set_value; /* 0: set_destination */
    float *value;  /* the follower's components */
} kfp_follow_event;

typedef struct kfp_follow {
    const kf_follower *follower;
    double tick, until, capacity;
    kfp_follow_event *events;
    int event_count;
    int quaternions; /* print orientations as quaternions (--rotation) */
} kfp_follow;

/* Takes --tick DT --until T [--capacity N] [--event T:KIND=V]... from `o`
 * for `follower`, run by `command` (named in the messages). Returns 0,
 * KFP_EXIT_USAGE (their values, malformed, out of range or not the
 * follower's) or KFP_EXIT_NOMEM (reported on stderr); free with
 * kfp_follow_free in every case. */
int kfp_follow_setup(kfp_follow *run, const kf_follower *follower, const kfp_options *o,
                     const char *command);

/* Each tick's time, value (rotations as axis-angle, as authored, unless
 * the run asks for quaternions) and isActive. */
typedef void (*kfp_follow_row)(void *user, double t, const float *value, uint32_t count,
                               int active);

/* Runs the follower from t = 0: tick k at t = k*DT while t <= T, and a
 * tick past T by no more than 1e-5 T and DT/2 at T itself. Returns 0
 * or KFP_EXIT_NOMEM. */
int kfp_follow_run(const kfp_follow *run, kfp_follow_row row, void *user);

/* The number of values each row has. */
uint32_t kfp_follow_row_components(const kf_follower *follower);

void kfp_follow_free(kfp_follow *run);

#endif /* KFPLAY_FOLLOW_H */
