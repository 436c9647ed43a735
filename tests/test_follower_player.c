/* SPDX-License-Identifier: MIT */
/*
 * test_follower_player.c - followers as animators: a track plays a
 * follower into a target, its clock the controller's position, so speed,
 * pause, setPosition and the active interval apply; events go in through
 * the player at world times; weights blend followers with sequences; reset
 * starts them over. Values worked out by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "test_util.h"

#define EPS 1e-6
#define PI  3.14159265358979323846

static double R(double x)
{
    return x <= 0.0 ? 0.0 : x >= 1.0 ? 1.0 : 0.5 * (1.0 - cos(PI * x));
}

/* Tracks: 0 chaser -> x.v (controller "fast", speed 2), 1 damper -> y.v
 * ("fast"), 2 sequence -> y.v ("half", weight 0.5), 3 orientation chaser ->
 * z.orientation ("fast"), 4 chaser -> w.v (no controller). */
static kf_anim *build(void)
{
    static const double zero = 0.0, t[2] = {0, 10}, v[2] = {4, 4};
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_follower_desc d;
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_SCALAR_CHASER);
    d.name = "chase";
    d.initial_value = &zero;
    d.initial_value_count = 1;
    d.duration = 1.0;
    kf_result r = kf_builder_add_follower(b, &d, &e);
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_SCALAR_DAMPER);
    d.name = "damp";
    d.initial_value = &zero;
    d.initial_value_count = 1;
    d.tau = 1.0;
    d.order = 1;
    d.tolerance = 0.0;
    if (r == KF_OK)
        r = kf_builder_add_follower(b, &d, &e);
    static const double quarter[4] = {0, 0, 1, PI / 2};
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_ORIENTATION_CHASER);
    d.name = "turn";
    d.initial_destination = quarter;
    d.initial_destination_count = 4;
    d.duration = 1.0;
    if (r == KF_OK)
        r = kf_builder_add_follower(b, &d, &e);
    kf_sequence_desc s = {.name = "four",
                          .interpolation = KF_INTERPOLATION_LINEAR,
                          .duration = 10,
                          .components = 1,
                          .key_count = 2,
                          .times = t,
                          .values = v,
                          .valid_last = 1};
    if (r == KF_OK)
        r = kf_builder_add_sequence(b, &s, &e);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "fast";
    c.speed = 2.0;
    if (r == KF_OK)
        r = kf_builder_add_controller(b, &c, &e);
    kf_controller_desc_init(&c);
    c.name = "half";
    c.weight = 0.5;
    if (r == KF_OK)
        r = kf_builder_add_controller(b, &c, &e);
    const kf_track_desc tracks[] = {
        {"chase", "fast", "x.v", 1}, {"damp", "fast", "y.v", 1},
        {"four", "half", "y.v", 1},  {"turn", "fast", "z.orientation", 0},
        {"chase", NULL, "w.v", 1},
    };
    for (size_t i = 0; i < sizeof tracks / sizeof tracks[0] && r == KF_OK; i++)
        r = kf_builder_add_track(b, &tracks[i], &e);
    CHECK(r == KF_OK, "build: %s", e.message);
    kf_anim *anim = r == KF_OK ? test_encode_load(b, NULL) : NULL;
    kf_builder_destroy(b);
    return anim;
}

/* The angle of the rotation a quaternion x y z w stands for. */
static double rotation_angle(const float *q)
{
    return 2.0 * atan2(sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2]), q[3]);
}

static double value(const kf_player *p, const char *target, const kf_anim *anim)
{
    return kf_player_value(p, kf_anim_find(anim, KF_KIND_TARGET, target))[0];
}

int main(void)
{
    kf_anim *anim = build();
    if (!anim)
        return kf_test_report("test_follower_player");
    kf_track_info info;
    kf_anim_track_info(anim, 0, &info);
    CHECK(info.animator_kind == KF_KIND_FOLLOWER && info.animator == 0, "track 0 plays follower 0");
    kf_anim_track_info(anim, 2, &info);
    CHECK(info.animator_kind == KF_KIND_SEQUENCE, "track 2 plays a sequence");

    kf_player *p;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
    CHECK(kf_player_follower(p, 0) && kf_player_follower(p, 1) && !kf_player_follower(p, 2) &&
              !kf_player_follower(p, 99),
          "follower states per follower track");
    CHECK(kf_player_follower(p, 0) != kf_player_follower(p, 4), "one state per track");
    kf_controller *fast = kf_player_controller(p, 0);
    const float one = 1.0f, nan = NAN;

    /* Events at world times land at the controller's position. */
    CHECK(kf_player_follower_set_destination(p, 0, &one, 0.5) == KF_OK, "event");
    CHECK(kf_player_follower_set_destination(p, 1, &one, 0.5) == KF_OK, "event");
    kf_player_update(p, 0.75); /* position 1.5: half a second into the chase */
    CHECK(fabs(value(p, "x.v", anim) - 0.5) < EPS, "chaser at position 1.5: %g",
          value(p, "x.v", anim));
    /* y.v blends the damper (weight 1) with the sequence (4, weight 0.5):
     * the damper ran from position 0 to 1.5 (its previous update is at
     * creation, position 0). */
    CHECK(fabs(value(p, "y.v", anim) - ((1.0 - exp(-1.5)) + 2.0)) < EPS, "blend: %g",
          value(p, "y.v", anim));
    /* The orientation chaser's initial transition: 0 -> 90 degrees. */
    const float *q = kf_player_value(p, kf_anim_find(anim, KF_KIND_TARGET, "z.orientation"));
    double angle = rotation_angle(q);
    CHECK(fabs(angle - PI / 2 * R(1.5)) < 1e-6 && fabs(q[2]) > 0.0f, "rotation at 1.5: %g", angle);

    /* Pause: speed 0 freezes the follower's clock. */
    kf_controller_set_speed(fast, 0.0, 0.75);
    kf_player_update(p, 5.0);
    CHECK(fabs(value(p, "x.v", anim) - 0.5) < EPS, "paused: %g", value(p, "x.v", anim));
    /* Resume at speed 1 from position 1.5. */
    kf_controller_set_speed(fast, 1.0, 5.0);
    kf_player_update(p, 5.25);
    CHECK(fabs(value(p, "x.v", anim) - R(0.75)) < EPS, "resumed: %g", value(p, "x.v", anim));
    kf_player_update(p, 5.5);
    CHECK(fabs(value(p, "x.v", anim) - 1.0) < EPS &&
              !kf_follower_is_active(kf_player_follower(p, 0)),
          "arrived");

    /* set_value through the player, then an inactive interval: the
     * follower waits, and catches up when the track plays again. */
    const float three = 3.0f;
    CHECK(kf_player_follower_set_value(p, 0, &three, 5.5) == KF_OK, "set_value");
    kf_controller_set_active_interval(fast, 6.0, 100.0);
    kf_player_update(p, 5.75);
    CHECK(value(p, "x.v", anim) == 1.0f, "inactive: the target keeps its value");
    CHECK(kf_follower_value(kf_player_follower(p, 0))[0] == 3.0f, "the follower waits");
    kf_player_update(p, 6.0); /* position 2.5: half way from 3 back to 1 */
    CHECK(fabs(value(p, "x.v", anim) - 2.0) < EPS, "caught up: %g", value(p, "x.v", anim));

    /* setPosition moves the follower's clock too. */
    kf_controller_set_position(fast, 0.0, 6.0);
    kf_player_update(p, 6.0); /* position 0: before the transition started */
    CHECK(fabs(value(p, "x.v", anim) - 3.0) < EPS, "clock set back: %g", value(p, "x.v", anim));

    /* Refused events. */
    CHECK(kf_player_follower_set_destination(p, 2, &one, 0) == KF_ERROR_ARGUMENT, "a sequence");
    CHECK(kf_player_follower_set_destination(p, 4, &one, 0) == KF_ERROR_ARGUMENT, "no controller");
    CHECK(kf_player_follower_set_destination(p, 0, &nan, 0) == KF_ERROR_ARGUMENT, "NaN");
    CHECK(kf_player_follower_set_value(p, 9, &one, 0) == KF_ERROR_ARGUMENT, "no such track");
    CHECK(kf_player_follower_set_value(NULL, 0, &one, 0) == KF_ERROR_ARGUMENT, "no player");

    /* Reset: controllers as stored, followers back at position 0. */
    kf_player_reset(p);
    CHECK(kf_follower_value(kf_player_follower(p, 0))[0] == 0.0f &&
              !kf_follower_is_active(kf_player_follower(p, 0)),
          "reset chaser");
    CHECK(kf_follower_is_active(kf_player_follower(p, 3)), "reset: initial transition again");
    kf_player_update(p, 0.25); /* position 0.5 */
    q = kf_player_value(p, kf_anim_find(anim, KF_KIND_TARGET, "z.orientation"));
    angle = rotation_angle(q);
    CHECK(fabs(angle - PI / 4) < 1e-6, "rotation after reset: %g", angle);

    CHECK(kf_follower_capacity(kf_player_follower(p, 0)) == KF_FOLLOWER_DEFAULT_CAPACITY &&
              kf_follower_capacity(kf_player_follower(p, 1)) == 0,
          "a small chaser holds the default; a damper none");
    kf_player_destroy(p);
    kf_anim_free(anim);

    /* A large array: the player holds fewer of its transitions (1 MiB),
     * never none. Coordinates as a mesh has them, which zlib cannot
     * squeeze to nothing (a player's bound is per file byte). */
    static double points[3 * 20000];
    uint32_t x = 1;
    for (int i = 0; i < 3 * 20000; i++) {
        x = x * 1103515245u + 12345u;
        points[i] = (double)(x >> 8) / 65536.0;
    }
    kf_follower_desc d;
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_COORDINATE_CHASER);
    d.name = "mesh";
    d.initial_value = points;
    kf_builder *b;
    kf_error e;
    for (int big = 0; big < 2; big++) {
        d.initial_value_count = big ? 3 * 20000 : 3 * 1000;
        kf_builder_create(NULL, &b);
        kf_controller_desc c;
        kf_controller_desc_init(&c);
        c.name = "c";
        kf_track_desc t = {"mesh", "c", "m.morph_weights", 0};
        CHECK(kf_builder_add_follower(b, &d, &e) == KF_OK &&
                  kf_builder_add_controller(b, &c, &e) == KF_OK &&
                  kf_builder_add_track(b, &t, &e) == KF_OK,
              "mesh: %s", e.message);
        anim = test_encode_load(b, NULL);
        kf_builder_destroy(b);
        CHECK(anim && kf_player_create(anim, NULL, &p) == KF_OK, "mesh player");
        if (!anim || !p)
            continue;
        uint32_t want = big ? 2 : (uint32_t)((1u << 20) / (8 * (3 * 1000 + 1)));
        CHECK(kf_follower_capacity(kf_player_follower(p, 0)) == want, "%d: capacity %u, want %u",
              big, kf_follower_capacity(kf_player_follower(p, 0)), want);
        kf_player_destroy(p);
        kf_anim_free(anim);
    }
    return kf_test_report("test_follower_player");
}
