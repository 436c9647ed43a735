/* SPDX-License-Identifier: MIT */
/*
 * test_interpolator_oracle.c - every interpolator case of oracle/x3d.json
 * through the C API: kf_builder -> .kfb bytes -> kf_load_memory -> sample,
 * under the oracle README's comparison rules (applied by the generator,
 * tests/interpolator_oracle.py). Each sample is taken by random access and by
 * cursor, forwards and backwards, and once more through a track whose
 * controller position plays the fraction (a TimeSensor of cycle 2).
 */
#include <math.h>
#include <stdlib.h>

#include "kf_test.h"
#include "test_util.h"
#include "interpolator_oracle.h"

#define TOL       1e-6 /* values: scaled by max(1, |want|) */
#define ANGLE_TOL 1e-5 /* rotations, radians */
#define CYCLE     2.0

static int is_rotation(int node)
{
    return node == KF_NODE_ORIENTATION_INTERPOLATOR ||
           node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
}

/* The angle of the rotation between two quaternions, up to q ~ -q. */
static double rotation_angle(const float *got, const double *want)
{
    double g[4], n = 0.0, minus = 0.0, plus = 0.0;
    for (int k = 0; k < 4; k++)
        n += (double)got[k] * got[k];
    n = sqrt(n);
    for (int k = 0; k < 4; k++) {
        g[k] = got[k] / n;
        minus += (g[k] - want[k]) * (g[k] - want[k]);
        plus += (g[k] + want[k]) * (g[k] + want[k]);
    }
    double d = sqrt(fmin(minus, plus));
    return 4.0 * asin(fmin(1.0, d / 2.0));
}

static void check_sample(const x3d_case *c, const char *how, const x3d_sample *s, const float *got)
{
    if (is_rotation(c->node)) {
        double angle = rotation_angle(got, s->want);
        CHECK(angle < ANGLE_TOL, "%s %s f=%.17g%s: got %g %g %g %g, want %g %g %g %g (%g rad)",
              c->name, how, s->fraction, s->from_rule ? " (our rule)" : "", got[0], got[1], got[2],
              got[3], s->want[0], s->want[1], s->want[2], s->want[3], angle);
        return;
    }
    for (unsigned k = 0; k < c->components; k++)
        CHECK(kf_test_close(got[k], s->want[k], TOL),
              "%s %s f=%.17g%s component %u: got %.9g, want %.17g", c->name, how, s->fraction,
              s->from_rule ? " (our rule)" : "", k, got[k], s->want[k]);
}

static kf_anim *build(const x3d_case *c)
{
    kf_interpolator_desc d;
    kf_interpolator_desc_init(&d);
    d.name = c->name;
    d.node = (kf_node)c->node;
    d.key_count = c->key_count;
    d.key = c->key;
    d.value_count = c->value_count;
    d.key_value = c->key_value;
    d.velocity_count = c->velocity_count;
    d.key_velocity = c->key_velocity;
    d.ease_count = c->ease_count;
    d.ease_in_ease_out = c->ease_in_ease_out;
    d.closed = c->closed;
    d.normalize_velocity = c->normalize_velocity;
    kf_controller_desc ctl;
    kf_controller_desc_init(&ctl);
    ctl.name = "time";
    kf_track_desc track = {.animator = c->name,
                           .controller = "time",
                           .target = "probe.value",
                           .components = c->components};
    kf_time_sensor_desc sensor = {.cycle_interval = CYCLE};
    kf_builder *b;
    kf_error err;
    kf_anim *anim = NULL;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    kf_result r = kf_builder_add_interpolator(b, &d, &err);
    CHECK(r == KF_OK, "%s: %s", c->name, err.message);
    if (r == KF_OK) {
        CHECK(kf_builder_add_controller(b, &ctl, &err) == KF_OK, "%s: %s", c->name, err.message);
        r = kf_builder_add_interpolator_track(b, &track, &sensor, &err);
        CHECK(r == KF_OK, "%s: track: %s", c->name, err.message);
        anim = test_encode_load(b, NULL);
        CHECK(anim != NULL, "%s: encode/load", c->name);
    }
    kf_builder_destroy(b);
    return anim;
}

/* The fields read back as authored, rounded to float32. */
static void check_fields(const x3d_case *c, const kf_interpolator *p)
{
    kf_interpolator_info info;
    kf_interpolator_get_info(p, &info);
    const int ease = c->node == KF_NODE_EASE_IN_EASE_OUT;
    CHECK(info.node == (kf_node)c->node && info.key_count == c->key_count &&
              info.value_count == c->value_count && info.velocity_count == c->velocity_count &&
              info.closed == c->closed && info.normalize_velocity == c->normalize_velocity &&
              info.components == c->components,
          "%s: info", c->name);
    for (unsigned i = 0; i < c->key_count; i++)
        CHECK(info.key[i] == (float)c->key[i], "%s: key %u", c->name, i);
    for (unsigned i = 0; i < c->value_count * info.dimension; i++)
        CHECK(info.key_value[i] == (float)c->key_value[i], "%s: keyValue number %u", c->name, i);
    for (unsigned i = 0; i < c->velocity_count * info.dimension; i++)
        CHECK(info.key_velocity[i] == (float)c->key_velocity[i], "%s: keyVelocity number %u",
              c->name, i);
    CHECK(!ease || info.ease_in_ease_out != NULL, "%s: easeInEaseOut", c->name);
    for (unsigned i = 0; ease && i < 2 * c->ease_count; i++)
        CHECK(info.ease_in_ease_out[i] == (float)c->ease_in_ease_out[i],
              "%s: easeInEaseOut number %u", c->name, i);
}

static void run_case(const x3d_case *c)
{
    kf_anim *anim = build(c);
    if (!anim)
        return;
    const kf_interpolator *p = kf_anim_interpolator(anim, 0);
    check_fields(c, p);
    CHECK(kf_interpolator_components(p) == c->components, "%s: components", c->name);

    float out[X3D_MAX_VALUES];
    kf_cursor forward = KF_CURSOR_INIT, backward = KF_CURSOR_INIT;
    double max_diff = 0.0;
    for (unsigned i = 0; i < c->sample_count; i++) {
        const x3d_sample *s = &c->samples[i];
        kf_interpolator_sample(p, s->fraction, NULL, out);
        check_sample(c, "random", s, out);
        for (unsigned k = 0; s->has_xite && !is_rotation(c->node) && k < c->components; k++)
            max_diff = fmax(max_diff, fabs(out[k] - s->xite[k]));
        kf_interpolator_sample(p, s->fraction, &forward, out);
        check_sample(c, "forward cursor", s, out);
        const x3d_sample *back = &c->samples[c->sample_count - 1 - i];
        kf_interpolator_sample(p, back->fraction, &backward, out);
        check_sample(c, "backward cursor", back, out);
    }
    if (c->check_max_diff)
        CHECK(fabs(max_diff - c->max_diff) <= 1e-6,
              "%s: max |ours - X_ITE| is %.9g, the spec reading's crosscheck %.9g", c->name,
              max_diff, c->max_diff);

    /* Through a track: the controller's position (= world time) over the
     * cycle interval is the fraction, inside [0, 1]. */
    kf_player *player;
    CHECK(kf_player_create(anim, NULL, &player) == KF_OK, "%s: player", c->name);
    for (unsigned i = 0; i < c->sample_count; i++) {
        const x3d_sample *s = &c->samples[i];
        if (!(s->fraction >= 0.0 && s->fraction <= 1.0))
            continue;
        kf_player_update(player, s->fraction * CYCLE);
        check_sample(c, "track", s, kf_player_value(player, 0));
    }
    kf_player_destroy(player);
    kf_anim_free(anim);
}

int main(void)
{
    if (!interpolator_oracle_present) {
        printf("test_interpolator_oracle: FAILED: no oracle at %s\n", interpolator_oracle_path);
        return 1;
    }
    for (unsigned i = 0; i < x3d_case_count; i++)
        run_case(&x3d_cases[i]);
    CHECK(x3d_case_count > 0, "the oracle holds no interpolator case");
    return kf_test_report("test_interpolator_oracle");
}
