/* SPDX-License-Identifier: MIT */
/*
 * fuzz_player.c - libFuzzer target for the playing API: the bytes are a
 * stream of operations on players, controllers and follower states of one
 * animation (test_rich_builder: every interpolation, followers of every
 * value kind; and two targets that blend latest): updates, resets,
 * set_value, every controller setter, follower events through the player
 * and on states of their own, any index. Oracles: the sanitizers, and while every number given was bounded
 * (|x| <= 1e6, finite) every value the player and the states output is
 * finite.
 */
#include <stdlib.h>

#include "fuzz_input.h"
#include "test_util.h"

static kf_anim *anim;

static void check_finite(const float *v, uint32_t n, const fuzz_input *in)
{
    if (!v || in->raw_seen)
        return;
    for (uint32_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!anim) {
        kf_builder *b = test_rich_builder();
        /* And two targets that blend latest: two X3D interpolators into
         * n.x3d, one and a follower into k.orientation. */
        const kf_track_desc more[2] = {{"x3d_spline", "b", "n.x3d", 1},
                                       {"x3d_squad", "a", "k.orientation", 0}};
        const kf_time_sensor_desc sensor = {300, 0, NULL};
        for (int i = 0; b && i < 2; i++)
            if (kf_builder_add_interpolator_track(b, &more[i], &sensor, NULL) != KF_OK ||
                kf_builder_set_target_blend(b, more[i].target, KF_BLEND_LATEST, NULL) != KF_OK)
                abort();
        anim = test_encode_load(b, NULL);
        kf_builder_destroy(b);
        if (!anim)
            abort();
    }
    fuzz_input in = {data, size, 0, 0};
    const uint32_t targets = kf_anim_count(anim, KF_KIND_TARGET);
    const uint32_t tracks = kf_anim_count(anim, KF_KIND_TRACK);
    const uint32_t controllers = kf_anim_count(anim, KF_KIND_CONTROLLER);
    const uint32_t followers = kf_anim_count(anim, KF_KIND_FOLLOWER);
    kf_player *players[2];
    if (kf_player_create(anim, NULL, &players[0]) != KF_OK ||
        kf_player_create(anim, NULL, &players[1]) != KF_OK)
        abort();
    kf_follower_state *states[3] = {NULL, NULL, NULL};
    float v[64];
    for (int ops = 0; ops < 400 && !fuzz_done(&in); ops++) {
        kf_player *p = players[fuzz_byte(&in) & 1];
        /* Indices one past the end (and KF_NO_INDEX) are fair game. */
        const uint32_t pick = fuzz_byte(&in);
        const uint32_t target = pick == 255 ? KF_NO_INDEX : pick % (targets + 1);
        const uint32_t track = pick == 255 ? KF_NO_INDEX : pick % (tracks + 1);
        const uint32_t ctl = pick == 255 ? KF_NO_INDEX : pick % (controllers + 1);
        for (int i = 0; i < 64; i++)
            v[i] = (float)fuzz_bounded(&in, 1e3);
        switch (fuzz_byte(&in) % 14) {
        case 0:
        case 1:
        case 2:
            kf_player_update(p, fuzz_number(&in, 1e6));
            break;
        case 3:
            kf_player_reset(p);
            break;
        case 4:
            kf_player_set_value(p, target, v);
            break;
        case 5:
            kf_controller_set_position(kf_player_controller(p, ctl), fuzz_number(&in, 1e6),
                                       fuzz_number(&in, 1e6));
            break;
        case 6:
            kf_controller_set_speed(kf_player_controller(p, ctl), fuzz_number(&in, 1e3),
                                    fuzz_number(&in, 1e6));
            break;
        case 7:
            kf_controller_set_weight(kf_player_controller(p, ctl), fuzz_number(&in, 1e6));
            break;
        case 8: {
            double a = fuzz_number(&in, 1e6), b = fuzz_number(&in, 1e6);
            kf_controller_set_active_interval(kf_player_controller(p, ctl), a, b);
            break;
        }
        case 9:
            kf_player_follower_set_destination(p, track, v, fuzz_number(&in, 1e6));
            break;
        case 10:
            kf_player_follower_set_value(p, track, v, fuzz_number(&in, 1e6));
            break;
        case 11: { /* a state of its own, capacity 1..8 */
            const uint32_t k = fuzz_byte(&in) % 3;
            kf_follower_state_destroy(states[k]);
            states[k] = NULL;
            const kf_follower *f = kf_anim_follower(anim, fuzz_byte(&in) % (followers + 1));
            kf_follower_state_create(f, 1 + fuzz_byte(&in) % 8, NULL, &states[k]);
            break;
        }
        case 12: {
            kf_follower_state *s = states[fuzz_byte(&in) % 3];
            const double t = fuzz_number(&in, 1e6);
            switch (fuzz_byte(&in) % 4) {
            case 0:
                kf_follower_set_destination(s, v, t);
                break;
            case 1:
                kf_follower_set_value(s, v, t);
                break;
            case 2:
                kf_follower_reset(s, t);
                break;
            default:
                kf_follower_update(s, t);
                break;
            }
            if (s)
                check_finite(kf_follower_value(s),
                             kf_follower_components(kf_follower_state_follower(s)), &in);
            break;
        }
        default: {
            kf_controller_info info;
            kf_controller_get_info(kf_player_controller_const(p, ctl), &info);
            (void)kf_controller_position(kf_player_controller_const(p, ctl), info.ref_world);
            break;
        }
        }
        for (uint32_t t = 0; t < targets; t++) {
            kf_target_info ti;
            kf_anim_target_info(anim, t, &ti);
            check_finite(kf_player_value(p, t), ti.components, &in);
        }
    }
    for (int k = 0; k < 3; k++)
        kf_follower_state_destroy(states[k]);
    kf_player_destroy(players[0]);
    kf_player_destroy(players[1]);
    return 0;
}
