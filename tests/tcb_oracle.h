/*
 * tcb_oracle.h - Kochanek-Bartels expectations as C data, written at build
 * time by gen_tcb_oracle.py: Eberly's own results (oracle/eberly.json, when
 * present) and cases computed by the independent reference tcb_reference.py.
 */
#ifndef TCB_ORACLE_H
#define TCB_ORACLE_H

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
    const char *source;   /* "eberly" or "reference" */
    int interpolation;    /* kf_interpolation */
    int repeat;           /* kf_repeat */
    double duration;
    unsigned first, last, components, key_count;
    const tcb_key *keys;
    unsigned sample_count;
    const tcb_sample *samples;
    double scale;         /* tolerances are relative to max(1, scale) */
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

#endif /* TCB_ORACLE_H */
