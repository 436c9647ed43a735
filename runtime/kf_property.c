/* SPDX-License-Identifier: MIT */
/* kf_property.c - M3G's animatable properties, and the names of enums. */
#include <math.h>
#include <string.h>

#include "kf_private.h"

enum {
    ANY = 0 /* `counts` value: any component count >= 1 */
};

typedef struct property_def {
    const char *name;
    uint8_t counts[2]; /* accepted component counts; {ANY} = any */
    float rest;        /* every component's value before animation */
    float lo, hi;      /* M3G clamps the applied value to [lo, hi] */
} property_def;

#define UNCLAMPED -INFINITY, INFINITY

/* Indexed by kf_property. Ranges are M3G's: the spec clamps colours and alpha
 * to [0,1], spot angle to [0,90], spot exponent and shininess to [0,128],
 * fog density to >= 0; visibility and pickability are booleans (>= 0.5). */
static const property_def properties[KF_PROPERTY_COUNT] = {
    [KF_PROPERTY_CUSTOM] = {NULL, {ANY, ANY}, 0.0f, UNCLAMPED},
    [KF_PROPERTY_ALPHA] = {"alpha", {1, 1}, 1.0f, 0.0f, 1.0f},
    [KF_PROPERTY_AMBIENT_COLOR] = {"ambient_color", {3, 3}, 1.0f, 0.0f, 1.0f},
    [KF_PROPERTY_COLOR] = {"color", {3, 3}, 1.0f, 0.0f, 1.0f},
    [KF_PROPERTY_CROP] = {"crop", {2, 4}, 0.0f, UNCLAMPED},
    [KF_PROPERTY_DENSITY] = {"density", {1, 1}, 1.0f, 0.0f, INFINITY},
    [KF_PROPERTY_DIFFUSE_COLOR] = {"diffuse_color", {3, 3}, 1.0f, 0.0f, 1.0f},
    [KF_PROPERTY_EMISSIVE_COLOR] = {"emissive_color", {3, 3}, 0.0f, 0.0f, 1.0f},
    [KF_PROPERTY_FAR_DISTANCE] = {"far_distance", {1, 1}, 1.0f, UNCLAMPED},
    [KF_PROPERTY_FIELD_OF_VIEW] = {"field_of_view", {1, 1}, 60.0f, UNCLAMPED},
    [KF_PROPERTY_INTENSITY] = {"intensity", {1, 1}, 1.0f, UNCLAMPED},
    [KF_PROPERTY_MORPH_WEIGHTS] = {"morph_weights", {ANY, ANY}, 0.0f, UNCLAMPED},
    [KF_PROPERTY_NEAR_DISTANCE] = {"near_distance", {1, 1}, 0.1f, UNCLAMPED},
    [KF_PROPERTY_ORIENTATION] = {"orientation", {4, 4}, 0.0f, UNCLAMPED},
    [KF_PROPERTY_PICKABILITY] = {"pickability", {1, 1}, 1.0f, UNCLAMPED},
    [KF_PROPERTY_SCALE] = {"scale", {1, 3}, 1.0f, UNCLAMPED},
    [KF_PROPERTY_SHININESS] = {"shininess", {1, 1}, 0.0f, 0.0f, 128.0f},
    [KF_PROPERTY_SPECULAR_COLOR] = {"specular_color", {3, 3}, 0.0f, 0.0f, 1.0f},
    [KF_PROPERTY_SPOT_ANGLE] = {"spot_angle", {1, 1}, 45.0f, 0.0f, 90.0f},
    [KF_PROPERTY_SPOT_EXPONENT] = {"spot_exponent", {1, 1}, 0.0f, 0.0f, 128.0f},
    [KF_PROPERTY_TRANSLATION] = {"translation", {3, 3}, 0.0f, UNCLAMPED},
    [KF_PROPERTY_VISIBILITY] = {"visibility", {1, 1}, 1.0f, UNCLAMPED},
};

const char *kf_property_name(kf_property property)
{
    if ((unsigned)property < KF_PROPERTY_COUNT)
        return properties[property].name;
    return NULL;
}

kf_property kf_property_from_name(const char *name)
{
    if (!name)
        return KF_PROPERTY_CUSTOM;
    /* (the first letters compared in place: the loader asks once per
     * target, and a call to strcmp per property cost more) */
    for (unsigned p = 1; p < KF_PROPERTY_COUNT; p++)
        if (properties[p].name[0] == name[0] && strcmp(properties[p].name, name) == 0)
            return (kf_property)p;
    return KF_PROPERTY_CUSTOM;
}

int kf_property_accepts(kf_property property, uint32_t components)
{
    if ((unsigned)property >= KF_PROPERTY_COUNT || components < 1)
        return 0;
    const property_def *p = &properties[property];
    return p->counts[0] == ANY || components == p->counts[0] || components == p->counts[1];
}

void kf_property_rest_value(kf_property property, uint32_t components, float *out)
{
    if (!out)
        return;
    const property_def *p = &properties[(unsigned)property < KF_PROPERTY_COUNT ? property : 0];
    for (uint32_t i = 0; i < components; i++)
        out[i] = p->rest;
    if (property == KF_PROPERTY_ORIENTATION && components == 4)
        out[3] = 1.0f; /* identity quaternion x y z w */
}

int kf_property_clamps(uint32_t property)
{
    const property_def *p = &properties[property];
    return property == KF_PROPERTY_VISIBILITY || property == KF_PROPERTY_PICKABILITY ||
           p->lo != -INFINITY || p->hi != INFINITY;
}

void kf_property_clamp(uint32_t property, uint32_t components, float *value)
{
    if (property == KF_PROPERTY_VISIBILITY || property == KF_PROPERTY_PICKABILITY) {
        value[0] = value[0] >= 0.5f ? 1.0f : 0.0f;
        return;
    }
    const property_def *p = &properties[property];
    if (p->lo == -INFINITY && p->hi == INFINITY)
        return;
    for (uint32_t i = 0; i < components; i++) {
        if (value[i] < p->lo)
            value[i] = p->lo;
        else if (value[i] > p->hi)
            value[i] = p->hi;
    }
}

const char *kf_interpolation_name(kf_interpolation interpolation)
{
    static const char *const names[KFB_INTERP_COUNT] = {"step",  "linear", "spline",
                                                        "slerp", "squad",  "hermite"};
    return (unsigned)interpolation < KFB_INTERP_COUNT ? names[interpolation] : NULL;
}

const char *kf_repeat_name(kf_repeat repeat)
{
    static const char *const names[KFB_REPEAT_COUNT] = {"constant", "loop"};
    return (unsigned)repeat < KFB_REPEAT_COUNT ? names[repeat] : NULL;
}

const char *kf_kind_name(kf_kind kind)
{
    static const char *const names[KF_KIND_COUNT] = {"sequence", "controller",   "target",
                                                     "track",    "interpolator", "follower"};
    return (unsigned)kind < KF_KIND_COUNT ? names[kind] : "unknown";
}
