/* SPDX-License-Identifier: MIT */
/*
 * kf_interpolator_validate.c - the rules an X3D interpolator must satisfy
 * (docs/math.md §3.2), shared by the builder and the loader, and the facts about
 * node types that size its arrays.
 *
 * Where X3D leaves a result undefined (keyValue counts that do not match the
 * keys, decreasing keys) or silently ignores a field (a keyVelocity of the
 * wrong size), the source is refused: such content is a mistake.
 */
#include <math.h>
#include <stdio.h>

#include "kf_private.h"

typedef struct node_def {
    const char *name; /* X3D node name (numbers per entry: kfb_node_dimension) */
    uint8_t multi;    /* keyValue holds m entries per key */
    uint8_t spline;   /* keyVelocity, closed, normalizeVelocity */
    uint8_t squad;    /* closed, normalizeVelocity */
} node_def;

static const node_def nodes[KFB_NODE_COUNT] = {
    [KFB_NODE_SCALAR_INTERPOLATOR] = {"ScalarInterpolator", 0, 0, 0},
    [KFB_NODE_POSITION_INTERPOLATOR] = {"PositionInterpolator", 0, 0, 0},
    [KFB_NODE_POSITION_INTERPOLATOR_2D] = {"PositionInterpolator2D", 0, 0, 0},
    [KFB_NODE_COLOR_INTERPOLATOR] = {"ColorInterpolator", 0, 0, 0},
    [KFB_NODE_COORDINATE_INTERPOLATOR] = {"CoordinateInterpolator", 1, 0, 0},
    [KFB_NODE_COORDINATE_INTERPOLATOR_2D] = {"CoordinateInterpolator2D", 1, 0, 0},
    [KFB_NODE_NORMAL_INTERPOLATOR] = {"NormalInterpolator", 1, 0, 0},
    [KFB_NODE_ORIENTATION_INTERPOLATOR] = {"OrientationInterpolator", 0, 0, 0},
    [KFB_NODE_SPLINE_SCALAR_INTERPOLATOR] = {"SplineScalarInterpolator", 0, 1, 0},
    [KFB_NODE_SPLINE_POSITION_INTERPOLATOR] = {"SplinePositionInterpolator", 0, 1, 0},
    [KFB_NODE_SPLINE_POSITION_INTERPOLATOR_2D] = {"SplinePositionInterpolator2D", 0, 1, 0},
    [KFB_NODE_SQUAD_ORIENTATION_INTERPOLATOR] = {"SquadOrientationInterpolator", 0, 0, 1},
    [KFB_NODE_EASE_IN_EASE_OUT] = {"EaseInEaseOut", 0, 0, 0},
};

_Static_assert((int)KF_NODE_COUNT == (int)KFB_NODE_COUNT, "kf_node mirrors KFB_NODE_*");

const char *kf_node_name(kf_node node)
{
    return (unsigned)node < KFB_NODE_COUNT ? nodes[node].name : NULL;
}

uint32_t kf_node_dimension(kf_node node)
{
    return kfb_node_dimension((uint32_t)node);
}

uint64_t kf_interpolator_derived_count(const struct kf_interpolator *p)
{
    return kfb_interpolator_derived_floats(p->node, p->key_count);
}

kf_result kf_validate_interpolator_header(const struct kf_interpolator *p, kf_error *error)
{
    if (p->node >= KFB_NODE_COUNT)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_NODE, KF_NO_INDEX,
                          "unknown interpolator node %u", (unsigned)p->node);
    const node_def *d = &nodes[p->node];
    const uint32_t n = p->key_count, v = p->value_count;
    const int ease = p->node == KFB_NODE_EASE_IN_EASE_OUT;

    if (n < 1)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEYS, KF_NO_INDEX,
                          "%s needs at least one key", d->name);
    if (ease) {
        if (v != n)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_EASE_IN_EASE_OUT, KF_NO_INDEX,
                              "easeInEaseOut has %u entr%s; it needs one per key (%u)", (unsigned)v,
                              v == 1 ? "y" : "ies", (unsigned)n);
    } else if (d->multi) {
        if (v < n || v % n != 0)
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, KF_NO_INDEX,
                              "keyValue has %u entr%s; %s needs a positive multiple of the %u "
                              "keys",
                              (unsigned)v, v == 1 ? "y" : "ies", d->name, (unsigned)n);
    } else if (v != n) {
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, KF_NO_INDEX,
                          "keyValue has %u entr%s; %s needs exactly one per key (%u)", (unsigned)v,
                          v == 1 ? "y" : "ies", d->name, (unsigned)n);
    }
    /* Every array is addressed with 32-bit word offsets. */
    if ((uint64_t)v * kfb_node_dimension(p->node) > UINT32_MAX)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, KF_NO_INDEX,
                          "keyValue is too large");

    const uint32_t w = p->velocity_count;
    if (w != 0 && !d->spline)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY, KF_NO_INDEX,
                          "%s has no keyVelocity field", d->name);
    if (w != 0 && w != 2 && w != n)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY, KF_NO_INDEX,
                          "keyVelocity has %u entr%s; it needs 0, 2 (first and last key) or one "
                          "per key (%u)",
                          (unsigned)w, w == 1 ? "y" : "ies", (unsigned)n);

    const int nonlinear = d->spline || d->squad;
    if (p->flags & ~(uint32_t)(KFB_INTERPOLATOR_CLOSED | KFB_INTERPOLATOR_NORMALIZE_VELOCITY))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_NODE, KF_NO_INDEX,
                          "unknown interpolator flags %#x", (unsigned)p->flags);
    if ((p->flags & KFB_INTERPOLATOR_CLOSED) && !nonlinear)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_CLOSED, KF_NO_INDEX,
                          "%s has no closed field", d->name);
    if ((p->flags & KFB_INTERPOLATOR_NORMALIZE_VELOCITY) && !nonlinear)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_NORMALIZE_VELOCITY, KF_NO_INDEX,
                          "%s has no normalizeVelocity field", d->name);
    return KF_OK;
}

/* The first non-finite number among `count` entries of `dimension`, as the
 * entry index, or KF_NO_INDEX. */
static uint32_t non_finite_entry(const float *v, uint32_t count, uint32_t dimension)
{
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < dimension; k++)
            if (!isfinite(v[(size_t)i * dimension + k]))
                return i;
    return KF_NO_INDEX;
}

/* The first entry with a number beyond +-KF_TANGENT_VALUE_LIMIT, or
 * KF_NO_INDEX. */
static uint32_t entry_beyond(const float *v, uint32_t count, uint32_t dimension)
{
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < dimension; k++)
            if (!(fabsf(v[(size_t)i * dimension + k]) <= KF_TANGENT_VALUE_LIMIT))
                return i;
    return KF_NO_INDEX;
}

/* The velocities the writer computes stay in float range (kf_private.h,
 * KF_TANGENT_VALUE_LIMIT): values and given velocities within the limit (a
 * velocity is at most 2 (time scale) x 2 x the limit), and with
 * normalizeVelocity, twice the keyValue path, which bounds the length a
 * given velocity is scaled to, within the float range. */
static kf_result spline_range(const struct kf_interpolator *p, uint32_t dim, kf_error *error)
{
    uint32_t bad = entry_beyond(p->values, p->value_count, dim);
    if (bad != KF_NO_INDEX)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, bad,
                          "keyValue entry %u is beyond +-%g, where a spline's velocities could "
                          "leave the float range",
                          (unsigned)bad, (double)KF_TANGENT_VALUE_LIMIT);
    bad = entry_beyond(p->velocities, p->velocity_count, dim);
    if (bad != KF_NO_INDEX)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY, bad,
                          "keyVelocity entry %u is beyond +-%g, where a spline's velocities "
                          "could leave the float range",
                          (unsigned)bad, (double)KF_TANGENT_VALUE_LIMIT);
    if (!(p->flags & KFB_INTERPOLATOR_NORMALIZE_VELOCITY) || p->velocity_count == 0)
        return KF_OK;
    double path = 0.0;
    for (uint32_t i = 0; i + 1 < p->value_count; i++)
        for (uint32_t k = 0; k < dim; k++)
            path +=
                fabs((double)p->values[(size_t)(i + 1) * dim + k] - p->values[(size_t)i * dim + k]);
    if (!(2.0 * path <= FLT_MAX))
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, KF_NO_INDEX,
                          "the keyValue path (%g) is too long to normalize velocities to", path);
    return KF_OK;
}

kf_result kf_validate_interpolator(const struct kf_interpolator *p, kf_error *error)
{
    kf_result r = kf_validate_interpolator_header(p, error);
    if (r != KF_OK)
        return r;
    const uint32_t n = p->key_count, dim = kfb_node_dimension(p->node);
    const int ease = p->node == KFB_NODE_EASE_IN_EASE_OUT;

    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(p->keys[i]))
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, i,
                              "key %u is not a finite number", (unsigned)i);
        if (i > 0 && p->keys[i] < p->keys[i - 1])
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, i,
                              "key %u (%g) is less than the key before it (%g)", (unsigned)i,
                              (double)p->keys[i], (double)p->keys[i - 1]);
    }
    uint32_t bad = non_finite_entry(p->values, p->value_count, dim);
    if (bad != KF_NO_INDEX)
        return kf_fail_at(error, KF_ERROR_VALUE,
                          ease ? KF_FIELD_EASE_IN_EASE_OUT : KF_FIELD_KEY_VALUE, bad,
                          "%s entry %u is not a finite number", ease ? "easeInEaseOut" : "keyValue",
                          (unsigned)bad);
    if (p->node == KFB_NODE_COLOR_INTERPOLATOR) {
        for (uint32_t i = 0; i < 3 * p->value_count; i++)
            if (!(p->values[i] >= 0.0f && p->values[i] <= 1.0f))
                return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, i / 3,
                                  "keyValue entry %u: colour component %g is outside [0, 1]",
                                  (unsigned)(i / 3), (double)p->values[i]);
    }
    bad = non_finite_entry(p->velocities, p->velocity_count, dim);
    if (bad != KF_NO_INDEX)
        return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY, bad,
                          "keyVelocity entry %u is not a finite number", (unsigned)bad);
    if (nodes[p->node].spline)
        return spline_range(p, dim, error);
    return KF_OK;
}

kf_result kf_validate_interpolator_derived(const struct kf_interpolator *p, kf_error *error)
{
    const uint64_t count = kf_interpolator_derived_count(p);
    /* Each derived array is one or two key-major runs of `per_key` floats. */
    const uint64_t per_key = p->node == KFB_NODE_COLOR_INTERPOLATOR ? 3
                             : kfb_node_dimension(p->node) == 4     ? 4
                                                                    : kfb_node_dimension(p->node);
    for (uint64_t i = 0; i < count; i++) {
        if (!isfinite(p->derived[i])) {
            uint32_t key = (uint32_t)(i % (per_key * p->key_count) / per_key);
            return kf_fail_at(error, KF_ERROR_VALUE, KF_FIELD_TANGENTS, key,
                              "the precomputed value of key %u is not a finite number "
                              "(keyValue or keyVelocity too large)",
                              (unsigned)key);
        }
    }
    return KF_OK;
}
