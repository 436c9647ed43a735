/* SPDX-License-Identifier: MIT */
/*
 * test_sequence_far_times.c - positions far from zero loop exactly. Times are
 * doubles and LOOP maps them with an exact floored fmod, so a sequence
 * sampled at k * D + x gives what it gives at x, for |k * D| up to 2e9 and
 * beyond, through sampling (random access and cursor) and through a player's
 * controller. The sequence is a ramp whose value is its own time, so every
 * expected value is exact. Also: a caller's value stands while no track
 * plays its target.
 */
#include <math.h>

#include "kf_test.h"
#include "test_util.h"

int main(void)
{
    static const double times[2] = {0, 1000}, values[2] = {0, 1000};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_sequence_desc d = {
        "ramp", KF_INTERPOLATION_LINEAR, KF_REPEAT_LOOP, 1000, 1, 2, times, values, 0, 1, NULL, 0,
        NULL};
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "far";
    c.ref_world = 2e9 + 0.25; /* position 0 there */
    kf_track_desc t = {"ramp", "far", "o.x", 1};
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK &&
              kf_builder_add_controller(b, &c, NULL) == KF_OK &&
              kf_builder_add_track(b, &t, NULL) == KF_OK,
          "build");
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "load");
    if (!anim)
        return kf_test_report("test_sequence_far_times");
    const kf_sequence *s = kf_anim_sequence(anim, 0);

    static const double offsets[] = {0.5, 0.25, 999.75, 123.125, 500};
    static const double periods[] = {0, 1, -1, 2e6, -2e6, 2e6 + 7, -2e6 - 3, 1e9, -1e9};
    kf_cursor cursor = KF_CURSOR_INIT;
    for (size_t i = 0; i < sizeof periods / sizeof *periods; i++) {
        for (size_t j = 0; j < sizeof offsets / sizeof *offsets; j++) {
            const double time = periods[i] * 1000 + offsets[j];
            float v;
            kf_sequence_sample(s, time, NULL, &v);
            CHECK(v == (float)offsets[j], "t=%.17g: %.9g, want %.9g", time, v, offsets[j]);
            kf_sequence_sample(s, time, &cursor, &v);
            CHECK(v == (float)offsets[j], "cursor t=%.17g: %.9g", time, v);
        }
    }

    /* The controller's position is ref_sequence + speed (w - ref_world),
     * evaluated in double, at world times near 2e9. */
    kf_player *p;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
    for (size_t j = 0; j < sizeof offsets / sizeof *offsets; j++) {
        const double w = 2e9 + 0.25 + 3000 + offsets[j];
        kf_player_update(p, w);
        CHECK(kf_player_value(p, 0)[0] == (float)offsets[j], "w=%.17g: %.9g, want %.9g", w,
              kf_player_value(p, 0)[0], offsets[j]);
    }

    /* A value set by the caller stands until a track plays the target. */
    const float rest = 42.0f;
    CHECK(kf_player_set_value(p, 0, &rest) == KF_OK && kf_player_value(p, 0)[0] == rest, "set");
    CHECK(kf_player_set_value(p, 1, &rest) == KF_ERROR_ARGUMENT, "no target 1");
    kf_controller_info info;
    kf_controller_get_info(kf_player_controller_const(p, 0), &info);
    CHECK(info.ref_world == 2e9 + 0.25 && kf_player_controller_const(p, 1) == NULL, "controller");
    CHECK(kf_controller_set_active_interval(kf_player_controller(p, 0), 0, 1) == KF_OK, "interval");
    kf_player_update(p, 2e9 + 0.25 + 500);
    CHECK(kf_player_value(p, 0)[0] == rest, "inactive: the set value stays");
    kf_player_destroy(p);
    kf_anim_free(anim);
    return kf_test_report("test_sequence_far_times");
}
