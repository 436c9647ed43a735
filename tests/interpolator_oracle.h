/* SPDX-License-Identifier: MIT */
/*
 * interpolator_oracle.h - the X3D interpolator reference vectors (oracle/x3d.json) as
 * C data, with the oracle README's comparison rules already applied:
 * gen_interpolator_oracle.py (through tests/gen/interpolator_oracle.py) writes interpolator_oracle_data.c
 * at build time.
 */
#ifndef X3D_ORACLE_H
#define X3D_ORACLE_H

#define X3D_MAX_VALUES 12

typedef struct x3d_sample {
    double fraction;
    double want[X3D_MAX_VALUES]; /* flat; rotations as a quaternion x y z w */
    /* 1: the README excludes X_ITE's value here; `want` is our rule's, from
     * the generator's own reference formulas. */
    int from_rule;
    int has_xite; /* X_ITE's raw value follows */
    double xite[X3D_MAX_VALUES];
} x3d_sample;

typedef struct x3d_case {
    const char *name;
    int node; /* kf_node */
    unsigned key_count;
    const double *key;
    unsigned value_count; /* keyValue entries */
    const double *key_value;
    unsigned velocity_count;
    const double *key_velocity;
    unsigned ease_count;
    const double *ease_in_ease_out;
    int closed, normalize_velocity;
    unsigned components; /* of a sample */
    unsigned sample_count;
    const x3d_sample *samples;
    /* 1: max |ours - X_ITE| over every sample must equal max_diff (+-1e-6). */
    int check_max_diff;
    double max_diff;
} x3d_case;

extern const int interpolator_oracle_present;
extern const char *const interpolator_oracle_path;
extern const unsigned x3d_case_count;
extern const x3d_case x3d_cases[];

#endif /* X3D_ORACLE_H */
