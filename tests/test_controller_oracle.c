/* SPDX-License-Identifier: MIT */
/*
 * test_controller_oracle.c - the controller cases of oracle/m3g.json through
 * the C API: AnimationController timing (setPosition, setSpeed, weights,
 * active intervals), multi-track blending, property clamping, and the
 * argument checks. Each case is a script (tests/gen_m3g_oracle.py): build
 * what the script binds, then replay its run-time steps on a kf_player.
 *
 * M3G nodes become objects "n<node>"; a property no track animates must
 * still read as M3G's default, which is kf_property_rest_value.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kf_test.h"
#include "m3g_oracle.h"
#include "test_util.h"

#define TOL 1e-5

static int add_sequence(kf_builder *b, const m3g_case *c, unsigned index, kf_error *err)
{
    double times[16], values[16 * M3G_MAX_COMPONENTS];
    for (unsigned i = 0; i < c->key_count; i++) {
        times[i] = c->keys[i].t;
        for (unsigned k = 0; k < c->components; k++)
            values[i * c->components + k] = c->keys[i].v[k];
    }
    char name[16];
    snprintf(name, sizeof name, "s%u", index);
    kf_sequence_desc d = {
        .name = name,
        .interpolation = (kf_interpolation)c->interpolation,
        .repeat = (kf_repeat)c->repeat,
        .duration = c->duration,
        .components = c->components,
        .key_count = c->key_count,
        .times = times,
        .values = values,
        .valid_first = c->first,
        .valid_last = c->last,
    };
    return kf_builder_add_sequence(b, &d, err) == KF_OK;
}

/* The named argument checks of M3G's API, as builder descriptions. */
static void run_probe(const char *probe)
{
    static const double times[2] = {0, 500}, values[8] = {0, 0, 0, 1, 0, 0, 0, 1};
    kf_sequence_desc d = {.name = "probe",
                          .interpolation = KF_INTERPOLATION_LINEAR,
                          .repeat = KF_REPEAT_CONSTANT,
                          .duration = 1000,
                          .components = 3,
                          .key_count = 2,
                          .times = times,
                          .values = values,
                          .valid_first = 0,
                          .valid_last = 1};
    double negative[2] = {-1, 500};
    kf_field field = KF_FIELD_NONE;
    if (strcmp(probe, "slerp_3_components") == 0) {
        d.interpolation = KF_INTERPOLATION_SLERP;
        field = KF_FIELD_COMPONENTS;
    } else if (strcmp(probe, "no_keys") == 0) {
        d.key_count = 0;
        d.valid_last = 0;
        field = KF_FIELD_KEYS;
    } else if (strcmp(probe, "bad_interpolation") == 0) {
        d.interpolation = (kf_interpolation)170;
        field = KF_FIELD_INTERPOLATION;
    } else if (strcmp(probe, "negative_time") == 0) {
        d.times = negative;
        field = KF_FIELD_KEY_TIME;
    } else if (strcmp(probe, "valid_range_out_of_bounds") == 0) {
        d.key_count = 1;
        field = KF_FIELD_VALID_RANGE;
    } else if (strcmp(probe, "zero_duration") == 0) {
        d.duration = 0;
        field = KF_FIELD_DURATION;
    } else if (strcmp(probe, "bad_repeat") == 0) {
        d.repeat = (kf_repeat)7;
        field = KF_FIELD_REPEAT;
    }
    CHECK(field != KF_FIELD_NONE, "unknown probe %s", probe);
    kf_builder *b;
    kf_error err;
    kf_builder_create(NULL, &b);
    kf_result r = kf_builder_add_sequence(b, &d, &err);
    CHECK(r == KF_ERROR_VALUE && err.field == field, "probe %s: result %s field %d (%s)", probe,
          kf_result_name(r), (int)err.field, err.message);
    kf_builder_destroy(b);
}

static const float *node_value(const kf_anim *anim, const kf_player *p, int node, const char *prop,
                               kf_property property, unsigned components, float *rest,
                               unsigned *count)
{
    char name[64];
    snprintf(name, sizeof name, "n%d.%s", node, prop);
    uint32_t t = kf_anim_find(anim, KF_KIND_TARGET, name);
    if (t == KF_NO_INDEX) {
        kf_property_rest_value(property, components, rest);
        *count = components;
        return rest;
    }
    kf_target_info info;
    kf_anim_target_info(anim, t, &info);
    *count = info.components;
    return kf_player_value(p, t);
}

static int pack8(double c)
{
    return (int)floor(c * 255.0 + 0.5);
}

static void check_state(const char *name, const kf_anim *anim, const kf_player *p, const m3g_op *op)
{
    const m3g_state *st = &op->state;
    float rest[4];
    unsigned n;
    const char *how = st->from_rule ? " (exact position)" : "";
    const float *v =
        node_value(anim, p, op->a, "translation", KF_PROPERTY_TRANSLATION, 3, rest, &n);
    for (unsigned k = 0; k < 3; k++)
        CHECK(kf_test_close(v[k], st->translation[k], TOL),
              "%s w=%g translation[%u]%s: %.9g vs %.9g", name, op->y, k, how, v[k],
              st->translation[k]);
    v = node_value(anim, p, op->a, "orientation", KF_PROPERTY_ORIENTATION, 4, rest, &n);
    for (unsigned k = 0; k < 4; k++)
        CHECK(kf_test_close(v[k], st->orientation[k], TOL), "%s w=%g orientation[%u]", name, op->y,
              k);
    v = node_value(anim, p, op->a, "scale", KF_PROPERTY_SCALE, 3, rest, &n);
    for (unsigned k = 0; k < 3; k++)
        CHECK(kf_test_close(v[n == 1 ? 0 : k], st->scale[k], TOL),
              "%s w=%g scale[%u]: %.9g vs %.9g", name, op->y, k, v[n == 1 ? 0 : k], st->scale[k]);
    v = node_value(anim, p, op->a, "alpha", KF_PROPERTY_ALPHA, 1, rest, &n);
    CHECK(abs((int)floor(v[0] * 65535.0 + 0.5) - st->alpha_u16) <= 1, "%s w=%g alpha %.9g vs %d",
          name, op->y, v[0], st->alpha_u16);
    v = node_value(anim, p, op->a, "pickability", KF_PROPERTY_PICKABILITY, 1, rest, &n);
    CHECK((v[0] >= 0.5f) == st->picking, "%s w=%g pickability %g", name, op->y, v[0]);
    v = node_value(anim, p, op->a, "visibility", KF_PROPERTY_VISIBILITY, 1, rest, &n);
    CHECK((v[0] >= 0.5f) == st->rendering, "%s w=%g visibility %g", name, op->y, v[0]);
    if (!st->light)
        return;
    v = node_value(anim, p, op->a, "intensity", KF_PROPERTY_INTENSITY, 1, rest, &n);
    CHECK(kf_test_close(v[0], st->intensity, TOL), "%s w=%g intensity %.9g vs %.9g", name, op->y,
          v[0], st->intensity);
    v = node_value(anim, p, op->a, "spot_angle", KF_PROPERTY_SPOT_ANGLE, 1, rest, &n);
    CHECK(kf_test_close(v[0], st->spot_angle, TOL), "%s w=%g spot angle %.9g vs %.9g", name, op->y,
          v[0], st->spot_angle);
    v = node_value(anim, p, op->a, "spot_exponent", KF_PROPERTY_SPOT_EXPONENT, 1, rest, &n);
    CHECK(kf_test_close(v[0], st->spot_exponent, TOL), "%s w=%g spot exponent %.9g vs %.9g", name,
          op->y, v[0], st->spot_exponent);
    v = node_value(anim, p, op->a, "color", KF_PROPERTY_COLOR, 3, rest, &n);
    for (unsigned k = 0; k < 3; k++) {
        int want = (int)(st->color_rgb >> (16 - 8 * k)) & 0xFF;
        CHECK(abs(pack8(v[k]) - want) <= 1, "%s w=%g color[%u] %.9g vs %d/255", name, op->y, k,
              v[k], want);
    }
}

static void run_case(const m3g_controller_case *cc)
{
    kf_builder *b;
    kf_error err;
    kf_builder_create(NULL, &b);

    /* Build time: sequences, controllers, the tracks the script binds. */
    for (unsigned i = 0; i < cc->sequence_count; i++) {
        int invalid = 0;
        for (unsigned k = 0; k < cc->op_count; k++)
            invalid |= cc->ops[k].op == OP_SEQUENCE_INVALID && cc->ops[k].a == (int)i;
        int added = add_sequence(b, &cc->sequences[i], i, &err);
        CHECK(added == !invalid, "%s: sequence %u %s (%s)", cc->name, i,
              invalid ? "must be refused" : "refused", added ? "" : err.message);
    }
    for (unsigned i = 0; i < cc->controller_count; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%u", i);
        kf_controller_desc d;
        kf_controller_desc_init(&d);
        d.name = name;
        CHECK(kf_builder_add_controller(b, &d, &err) == KF_OK, "controller: %s", err.message);
    }
    for (unsigned k = 0; k < cc->op_count; k++) {
        const m3g_op *op = &cc->ops[k];
        if (op->op == OP_PROBE)
            run_probe(op->prop);
        if (op->op != OP_TRACK)
            continue;
        char animator[16], controller[16], target[64];
        snprintf(animator, sizeof animator, "s%d", op->b);
        snprintf(controller, sizeof controller, "c%d", op->c);
        if (op->a < 0)
            snprintf(target, sizeof target, "probe.%s", op->prop);
        else
            snprintf(target, sizeof target, "n%d.%s", op->a, op->prop);
        kf_track_desc d = {animator, op->c < 0 ? NULL : controller, target, 0};
        kf_result r = kf_builder_add_track(b, &d, &err);
        CHECK((r != KF_OK) == op->expect, "%s: track %s -> %s: %s (%s)", cc->name, animator, target,
              kf_result_name(r), r == KF_OK ? "" : err.message);
    }
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "%s: encode/load", cc->name);
    if (!anim)
        return;
    kf_player *p;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");

    /* Run time. */
    for (unsigned k = 0; k < cc->op_count; k++) {
        const m3g_op *op = &cc->ops[k];
        kf_controller *c = op->op >= OP_SET_POSITION && op->op <= OP_GET_POSITION
                               ? kf_player_controller(p, (uint32_t)op->a)
                               : NULL;
        kf_controller_info before, after;
        switch (op->op) {
        case OP_SET_POSITION:
            CHECK(kf_controller_set_position(c, op->x, op->y) == KF_OK, "setPosition");
            break;
        case OP_SET_SPEED:
            CHECK(kf_controller_set_speed(c, op->x, op->y) == KF_OK, "setSpeed");
            break;
        case OP_SET_WEIGHT:
            kf_controller_get_info(c, &before);
            CHECK((kf_controller_set_weight(c, op->x) == KF_ERROR_ARGUMENT) == op->expect,
                  "%s: setWeight(%g)", cc->name, op->x);
            kf_controller_get_info(c, &after);
            CHECK(!op->expect || after.weight == before.weight, "a refused weight changed nothing");
            CHECK(op->expect || after.weight == op->x, "weight set");
            break;
        case OP_SET_ACTIVE:
            kf_controller_get_info(c, &before);
            CHECK((kf_controller_set_active_interval(c, op->x, op->y) == KF_ERROR_ARGUMENT) ==
                      op->expect,
                  "%s: setActiveInterval(%g, %g)", cc->name, op->x, op->y);
            kf_controller_get_info(c, &after);
            CHECK(!op->expect || (after.active_start == before.active_start &&
                                  after.active_end == before.active_end),
                  "a refused interval changed nothing");
            break;
        case OP_GET_POSITION:
            CHECK(kf_test_close(kf_controller_position(c, op->y), op->x, TOL),
                  "%s: position at %g: %.17g vs %.17g", cc->name, op->y,
                  kf_controller_position(c, op->y), op->x);
            CHECK(kf_controller_is_active(c, op->y) == op->b, "%s: active at %g", cc->name, op->y);
            break;
        case OP_ANIMATE:
            kf_player_update(p, op->y);
            check_state(cc->name, anim, p, op);
            break;
        default:
            break;
        }
    }
    kf_player_destroy(p);
    kf_anim_free(anim);
}

int main(void)
{
    if (!m3g_oracle_present) {
        printf("test_controller_oracle: FAILED: no oracle at %s\n", m3g_oracle_path);
        return 1;
    }
    for (unsigned i = 0; i < m3g_controller_case_count; i++)
        run_case(&m3g_controller_cases[i]);
    CHECK(m3g_controller_case_count > 0, "the oracle holds no controller case");
    return kf_test_report("test_controller_oracle");
}
