/* SPDX-License-Identifier: MIT */
/*
 * m3g_oracle.h - the M3G reference vectors (oracle/m3g.json) as C data.
 * gen_m3g_oracle.py writes m3g_oracle_data.c from the JSON at build time.
 */
#ifndef M3G_ORACLE_H
#define M3G_ORACLE_H

#define M3G_MAX_COMPONENTS 6

typedef struct m3g_key {
    double t;
    double v[M3G_MAX_COMPONENTS];
} m3g_key;

typedef struct m3g_sample {
    double t;
    double v[M3G_MAX_COMPONENTS];
    /* 1: Nokia has a quirk here (docs/math.md §1.7); `v` was computed from our
     * rule instead, by the generator's own reference formulas. */
    int from_rule;
} m3g_sample;

typedef struct m3g_tangent {
    unsigned key;                                           /* authored index */
    double out[M3G_MAX_COMPONENTS], in[M3G_MAX_COMPONENTS]; /* SQUAD: a, b */
} m3g_tangent;

typedef struct m3g_case {
    const char *name;
    int interpolation; /* kf_interpolation */
    int repeat;        /* kf_repeat */
    double duration;
    unsigned first, last, components, key_count;
    const m3g_key *keys;
    const m3g_key *keys_stored; /* after normalization */
    unsigned sample_count;
    const m3g_sample *samples;
    unsigned tangent_count;
    const m3g_tangent *tangents;
} m3g_case;

/* Controller cases, as a script of operations. */
enum {
    OP_SEQUENCE_INVALID, /* a = sequence: the builder must reject it */
    OP_TRACK,            /* a = node (-1: a probe object), b = sequence, c = controller
                            (-1: none), prop; expect 0 ok / 1 refused */
    OP_SET_POSITION,     /* a = controller, x = sequence time, y = world time */
    OP_SET_SPEED,        /* a = controller, x = speed, y = world time */
    OP_SET_WEIGHT,       /* a = controller, x = weight, expect */
    OP_SET_ACTIVE,       /* a = controller, x = start, y = end, expect */
    OP_GET_POSITION,     /* a = controller, y = world, x = position, b = active */
    OP_ANIMATE,          /* a = node, y = world, state */
    OP_PROBE             /* prop = a named argument check that must fail */
};

typedef struct m3g_state {
    double translation[3], orientation[4], scale[3];
    int alpha_u16, picking, rendering;
    int light; /* the fields below are set */
    double intensity, spot_angle, spot_exponent;
    unsigned color_rgb;
    /* 1: a controller position was fractional, where Nokia rounds; the
     * generator computed the state at the exact position instead. */
    int from_rule;
} m3g_state;

typedef struct m3g_op {
    int op;
    int a, b, c;
    const char *prop;
    double x, y;
    int expect;
    m3g_state state;
} m3g_op;

typedef struct m3g_controller_case {
    const char *name;
    unsigned sequence_count;
    const m3g_case *sequences; /* without samples */
    unsigned controller_count;
    unsigned op_count;
    const m3g_op *ops;
} m3g_controller_case;

extern const int m3g_oracle_present;
extern const char *const m3g_oracle_path;
extern const unsigned m3g_case_count;
extern const m3g_case m3g_cases[];
extern const unsigned m3g_controller_case_count;
extern const m3g_controller_case m3g_controller_cases[];

#endif /* M3G_ORACLE_H */
