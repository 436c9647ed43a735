/* SPDX-License-Identifier: MIT */
/*
 * follower_oracle.h - the follower cases of oracle/x3d.json as C data,
 * planned by follower_oracle.py (the comparison rules of oracle/README.md).
 * gen_follower_oracle.py writes follower_oracle_data.c at build time.
 */
#ifndef X3D_FOLLOWERS_ORACLE_H
#define X3D_FOLLOWERS_ORACLE_H

enum {
    XF_MODE_IDEAL,   /* vector chasers: expect = the exact FIR */
    XF_MODE_XITE,    /* rotation/colour chasers: expect = X_ITE, wake-up events replayed */
    XF_MODE_FORMULA, /* expect_quat = one slerp transition at a time */
    XF_MODE_DAMPER   /* compare while both run; rest exactly at the destination */
};

typedef struct xf_event {
    double time;
    int set_value;       /* 0: set_destination */
    const double *value; /* value_count numbers, as authored */
} xf_event;

typedef struct xf_case {
    const char *id;
    const char *node;     /* X3D node name */
    int mode;             /* XF_MODE_* */
    unsigned points;      /* array nodes: points per value; others 1 */
    unsigned value_count; /* numbers per value, as authored (axis-angle: 4) */
    const double *initial_value, *initial_destination;
    /* Fields as authored: has_* 0 means the X3D default applies. */
    int has_duration, has_tau, has_order, has_tolerance;
    double duration, tau, tolerance;
    int order;
    double tick;
    unsigned ticks;
    unsigned event_count;
    const xf_event *events;
    const double *expect;      /* ticks * value_count, or NULL */
    const double *expect_quat; /* rotations: ticks * 4 quaternions, or NULL */
    const signed char *active; /* chasers: isActive per tick; NULL for dampers */
    const double *xite_value;  /* ticks * value_count */
    const unsigned char *xite_active;
    const unsigned char *xite_stop; /* X_ITE went idle at this tick */
    const double *destination;      /* ticks * value_count: the destination in force */
    double rest_slack;              /* dampers: X_ITE's distance to a destination ours rests at */
} xf_case;

extern const int xf_oracle_present;
extern const unsigned xf_case_count;
extern const xf_case xf_cases[];

#endif /* X3D_FOLLOWERS_ORACLE_H */
