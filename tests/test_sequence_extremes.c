/* SPDX-License-Identifier: MIT */
/*
 * test_sequence_extremes.c - floats at the edge of their range (kf.h,
 * "Numbers"): LINEAR between keys of +-FLT_MAX samples the true convex
 * combination (0 half way), through kf_sequence_sample and a player;
 * HERMITE and SPLINE with keys and tangents near FLT_MAX give the curve
 * where it stays in range (even where the float sum would overflow on the
 * way) and saturate at +-FLT_MAX where it leaves it; blending tracks whose sum passes FLT_MAX saturates at FLT_MAX; weights
 * above KF_MAX_WEIGHT are refused by the builder and by set_weight, and the
 * largest accepted weight still plays finite values.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "kf_private.h"
#include "kf_test.h"
#include "test_util.h"

static kf_anim *build(double weight, const double *keys, uint32_t components, int two_tracks,
                      kf_result *encode)
{
    static const double t[2] = {0, 10};
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_sequence_desc s = {
        "s", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 10, components, 2, t, keys, 0, 1, NULL, 0,
        NULL};
    kf_sequence_desc s2 = s;
    s2.name = "s2";
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    c.weight = weight;
    kf_track_desc t1 = {"s", "c", "x.v", components}, t2 = {"s2", "c", "x.v", components};
    kf_result r = kf_builder_add_sequence(b, &s, &e);
    if (r == KF_OK)
        r = kf_builder_add_sequence(b, &s2, &e);
    if (r == KF_OK)
        r = kf_builder_add_controller(b, &c, &e);
    if (r == KF_OK)
        r = kf_builder_add_track(b, &t1, &e);
    if (r == KF_OK && two_tracks)
        r = kf_builder_add_track(b, &t2, &e);
    *encode = r;
    kf_anim *anim = r == KF_OK ? test_encode_load(b, NULL) : NULL;
    kf_builder_destroy(b);
    return anim;
}

static void linear_across_the_range(void)
{
    /* Three components: the 3-wide kernel; five: the general one. */
    const double m = FLT_MAX;
    const double k3[6] = {m, -m, 1, -m, m, 1};
    const double k5[10] = {m, -m, 1, m, -m, -m, m, 1, -m, -m};
    const struct {
        const double *keys;
        uint32_t c;
    } cases[2] = {{k3, 3}, {k5, 5}};
    for (int n = 0; n < 2; n++) {
        kf_result r;
        kf_anim *anim = build(1.0, cases[n].keys, cases[n].c, 0, &r);
        CHECK(anim != NULL, "keys at +-FLT_MAX load");
        if (!anim)
            continue;
        const kf_sequence *s = kf_anim_sequence(anim, 0);
        kf_player *p;
        CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
        const uint32_t c = cases[n].c;
        for (int i = 0; i <= 40; i++) {
            const double time = 10.0 * i / 40, u = time / 10;
            float out[5];
            kf_sequence_sample(s, time, NULL, out);
            kf_player_update(p, time);
            const float *v = kf_player_value(p, 0);
            for (uint32_t k = 0; k < c; k++) {
                const double a = cases[n].keys[k], b = cases[n].keys[c + k];
                const double want = (1 - u) * a + u * b;
                /* README accuracy: a few float ulps of the larger key. */
                const double tol = 4 * FLT_EPSILON * fmax(fabs(a), fabs(b));
                CHECK(isfinite(out[k]) && fabs(out[k] - want) <= tol,
                      "%u comps, u %g, comp %u: %g, want %g", c, u, k, out[k], want);
                CHECK(isfinite(v[k]) && fabs(v[k] - want) <= tol, "player: %g, want %g", v[k],
                      want);
            }
        }
        kf_player_destroy(p);
        kf_anim_free(anim);
    }
}

/* One HERMITE or SPLINE sequence of `n` keys 1000 apart, one track. */
static kf_anim *build_curve(kf_interpolation interpolation, uint32_t components, uint32_t n,
                            const double *values, const double *tangents)
{
    static const double t[4] = {0, 1000, 2000, 3000};
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_sequence_desc s;
    kf_sequence_desc_init(&s);
    s.name = "s";
    s.interpolation = interpolation;
    s.duration = 1000.0 * (n - 1);
    s.components = components;
    s.key_count = n;
    s.times = t;
    s.values = values;
    s.tangents = tangents;
    s.valid_last = n - 1;
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc track = {"s", "c", "x.v", components};
    kf_result r = kf_builder_add_sequence(b, &s, &e);
    if (r == KF_OK)
        r = kf_builder_add_controller(b, &c, &e);
    if (r == KF_OK)
        r = kf_builder_add_track(b, &track, &e);
    CHECK(r == KF_OK, "curve builds: %s", r ? e.message : "");
    kf_anim *anim = r == KF_OK ? test_encode_load(b, NULL) : NULL;
    kf_builder_destroy(b);
    return anim;
}

static void hermite_near_the_range(void)
{
    /* Keys of 3.39e38, tangents (x the segment's 1000) of 3.39e38: at
     * u = 0.9 the float sum h0 a + h1 b + h2 ta passes FLT_MAX before
     * h3 tb brings it back to 0.93 x 3.39e38; in the middle the curve
     * itself rises to 1.25 x 3.39e38 and saturates. Component 1 is the
     * mirror image, component 2 small. Three components: the 3-wide
     * kernel; five: the general one. */
    const double m = 3.39e38, g = m / 1000;
    for (uint32_t c = 3; c <= 5; c += 2) {
        double v[10], tan[20];
        for (uint32_t k = 0; k < c; k++) {
            const double sign = k == 1 ? -1 : 1, scale = k == 2 ? 1e-30 : 1;
            v[k] = v[c + k] = sign * scale * m;
            tan[k] = tan[c + k] = tan[2 * c + k] = tan[3 * c + k] = sign * scale * g;
        }
        kf_anim *anim = build_curve(KF_INTERPOLATION_HERMITE, c, 2, v, tan);
        if (!anim)
            continue;
        const kf_sequence *s = kf_anim_sequence(anim, 0);
        kf_player *p;
        CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
        for (int i = 0; i <= 40; i++) {
            const double u = i / 40.0;
            const double h[4] = {2 * u * u * u - 3 * u * u + 1, -2 * u * u * u + 3 * u * u,
                                 u * u * u - 2 * u * u + u, u * u * u - u * u};
            float out[5];
            kf_sequence_sample(s, 1000 * u, NULL, out);
            kf_player_update(p, 1000 * u);
            const float *pv = kf_player_value(p, 0);
            for (uint32_t k = 0; k < c; k++) {
                const double a = v[k], ta = 1000 * tan[c + k], tb = 1000 * tan[2 * c + k];
                const double exact = h[0] * a + h[1] * a + h[2] * ta + h[3] * tb;
                const double want = fmin(fmax(exact, -FLT_MAX), FLT_MAX);
                const double tol = 8 * FLT_EPSILON * fabs(a);
                CHECK(isfinite(out[k]) && fabs(out[k] - want) <= tol,
                      "hermite %u comps, u %g, comp %u: %.9g, want %.9g", c, u, k, out[k], want);
                CHECK(isfinite(pv[k]) && fabs(pv[k] - want) <= tol,
                      "hermite player %u comps, u %g, comp %u: %.9g, want %.9g", c, u, k, pv[k],
                      want);
            }
        }
        kf_player_destroy(p);
        kf_anim_free(anim);
    }

    /* SPLINE keys beyond KF_TANGENT_VALUE_LIMIT are refused (their
     * tangents could leave the float range; kf.h, Numbers); at the limit,
     * -L, L, L, -L, the middle segment's tangents are +-L and the curve
     * stays finite, through the keys. */
    const double keys[4] = {-m, m, m, -m}, l = KF_TANGENT_VALUE_LIMIT;
    const double at_limit[4] = {-l, l, l, -l};
    kf_builder *b;
    kf_builder_create(NULL, &b);
    kf_sequence_desc s;
    kf_sequence_desc_init(&s);
    s.name = "s";
    s.interpolation = KF_INTERPOLATION_SPLINE;
    s.duration = 3000;
    s.components = 1;
    s.key_count = 4;
    s.times = (const double[4]){0, 1000, 2000, 3000};
    s.values = keys;
    s.valid_last = 3;
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &s, &e) == KF_ERROR_VALUE && e.field == KF_FIELD_KEY_VALUE &&
              e.item == 0,
          "spline keys of 3.39e38 refused: %s", e.message);
    /* The same key among others, as the eight-at-a-time test sees it: in
     * each place of a 3-component sequence of 4 keys, the one it names. */
    for (int at = 0; at < 12; at++) {
        double wide[12] = {0};
        wide[at] = at % 2 ? -m : m;
        s.name = "w";
        s.components = 3;
        s.values = wide;
        CHECK(kf_builder_add_sequence(b, &s, &e) == KF_ERROR_VALUE &&
                  e.field == KF_FIELD_KEY_VALUE && e.item == (uint32_t)(at / 3),
              "a spline key of 3.39e38 at %d refused: %s", at, e.message);
    }
    kf_builder_destroy(b);
    kf_anim *anim = build_curve(KF_INTERPOLATION_SPLINE, 1, 4, at_limit, NULL);
    if (!anim)
        return;
    kf_player *p;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
    for (int i = 0; i <= 60; i++) {
        const double time = 50.0 * i;
        float out;
        kf_sequence_sample(kf_anim_sequence(anim, 0), time, NULL, &out);
        kf_player_update(p, time);
        const float pv = kf_player_value(p, 0)[0];
        CHECK(isfinite(out) && isfinite(pv) && out == pv, "spline at %g: %g, player %g", time, out,
              pv);
        if (time == 1500) /* h0 L + h1 L + h2 L - h3 L at u = 1/2 */
            CHECK(fabs(out - 1.25 * l) <= 1e-6 * l, "mid-segment: %g, want %g", out, 1.25 * l);
        if (fmod(time, 1000) == 0)
            CHECK(out == (float)at_limit[(int)(time / 1000)], "key at %g: %g", time, out);
    }
    kf_player_destroy(p);
    kf_anim_free(anim);
}

static void blending_past_flt_max(void)
{
    const double big[2] = {3e38, 3e38};
    kf_result r;
    kf_anim *anim = build(1.0, big, 1, 1, &r);
    CHECK(anim != NULL, "two tracks of 3e38");
    if (!anim)
        return;
    kf_player *p;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
    kf_player_update(p, 5);
    CHECK(kf_player_value(p, 0)[0] == FLT_MAX, "6e38 saturates: %g", kf_player_value(p, 0)[0]);
    kf_controller *c = kf_player_controller(p, 0);
    CHECK(kf_controller_set_weight(c, KF_MAX_WEIGHT) == KF_OK, "largest weight");
    kf_player_update(p, 6);
    CHECK(kf_player_value(p, 0)[0] == FLT_MAX, "weighted: %g", kf_player_value(p, 0)[0]);
    CHECK(kf_controller_set_weight(c, 1e300) == KF_ERROR_ARGUMENT, "1e300 refused");
    CHECK(kf_controller_set_weight(c, KF_MAX_WEIGHT * 1.0000001) == KF_ERROR_ARGUMENT,
          "just above refused");
    kf_player_destroy(p);
    kf_anim_free(anim);

    /* One track, weighted: w * 3e38 saturates too. */
    anim = build(KF_MAX_WEIGHT, big, 1, 0, &r);
    CHECK(anim != NULL, "weight KF_MAX_WEIGHT loads");
    if (anim && kf_player_create(anim, NULL, &p) == KF_OK) {
        kf_player_update(p, 1);
        CHECK(kf_player_value(p, 0)[0] == FLT_MAX, "single weighted: %g", kf_player_value(p, 0)[0]);
        kf_player_destroy(p);
    }
    kf_anim_free(anim);
    anim = build(1e300, big, 1, 0, &r);
    CHECK(!anim && r == KF_ERROR_VALUE, "the builder refuses weight 1e300: %s", kf_result_name(r));
    kf_anim_free(anim);
}

int main(void)
{
    linear_across_the_range();
    hermite_near_the_range();
    blending_past_flt_max();
    return kf_test_report("test_sequence_extremes");
}
