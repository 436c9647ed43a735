/* SPDX-License-Identifier: MIT */
/*
 * test_sequence_accuracy.c - how far the fast sampling path (kf_sample.h:
 * float arithmetic, slerp through stored arcs and a sin(x)/x polynomial)
 * is from the exact one (kf_sequence_sample_exact: double, libm), measured
 * on random sequences of every interpolation: keys from nearly equal to
 * antipodal, so every branch of slerp and squad is taken, sampled at random
 * times through kf_sequence_sample and through a kf_player with each kernel
 * set (runtime/kf_layout.h; orientation targets skip normalizing slerp
 * results along polynomial arcs).
 *
 * Error = |fast - exact| / max(1, |exact|, largest key) per component: the
 * oracle's measure, except that float arithmetic errs in proportion to the
 * numbers it works on, so a value near zero between large keys is measured
 * against the keys. The bounds below are the accuracy README.md states; the
 * test prints what it measured.
 */
#include <stdlib.h>

#include "kf_private.h"
#include "kf_layout.h"
#include "kf_math.h"
#include "kf_test.h"
#include "test_util.h"

#define KEYS      64
#define SEQUENCES 48   /* per interpolation */
#define SAMPLES   4000 /* per sequence */

/* The stated bounds (docs/maintainers.md, "Accuracy"). */
static const double bound[KFB_INTERP_COUNT] = {
    [KFB_INTERP_STEP] = 0.0,     [KFB_INTERP_LINEAR] = 4e-7, [KFB_INTERP_SPLINE] = 1e-6,
    [KFB_INTERP_SLERP] = 1e-6,   [KFB_INTERP_SQUAD] = 3e-6, /* M3G's lerp-or-slerp test on a float dot product */
    [KFB_INTERP_HERMITE] = 1e-6,
};
#define PLAYER_BOUND 1e-6 /* orientation targets, slerp unnormalized on short arcs */

static uint64_t rng = 0x2545F4914F6CDD1Du;

static double uniform(void) /* [0, 1) */
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

static void normalize(double *q)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

/* The next key: the previous one turned by a random angle whose size is
 * drawn per sequence from `scale` (0: anything, even antipodal). */
static void next_quat(const double *prev, double scale, double *q)
{
    double axis[3], n2 = 0;
    for (int k = 0; k < 3; k++) {
        axis[k] = uniform() * 2 - 1;
        n2 += axis[k] * axis[k];
    }
    double angle = scale > 0 ? scale * uniform() : 2 * KF_PI * uniform();
    double s = sin(angle / 2) / sqrt(n2), c = cos(angle / 2);
    const double d[4] = {axis[0] * s, axis[1] * s, axis[2] * s, c};
    kf_qmul(prev, d, q);
    if (uniform() < 0.05) /* now and then the other hemisphere: c < 0 */
        for (int k = 0; k < 4; k++)
            q[k] = -q[k];
    if (uniform() < 0.02) /* a repeated key: c >= 1 - 1e-5, M3G lerps */
        memcpy(q, prev, sizeof(double) * 4);
    if (uniform() < 0.01) { /* antipodal */
        for (int k = 0; k < 4; k++)
            q[k] = -prev[k];
    }
    normalize(q);
}

static void add(kf_builder *b, kf_interpolation interp, int index, double scale)
{
    /* Every fourth hermite sequence is a rotation: glTF's CUBICSPLINE on
     * quaternions, normalized by the player. */
    const int hermite = interp == KF_INTERPOLATION_HERMITE;
    const uint32_t c = interp == KF_INTERPOLATION_SLERP || interp == KF_INTERPOLATION_SQUAD ||
                               (hermite && index % 4 == 0)
                           ? 4
                           : 3;
    if (hermite && c == 4)
        scale = fmin(scale, 0.3) + 1e-3; /* keyed densely enough to stay away from 0 */
    double times[KEYS], values[KEYS * 4], tangents[KEYS * 8];
    double t = 0;
    for (int i = 0; i < KEYS; i++) {
        times[i] = t;
        t += uniform() < 0.05 ? 0 : 5 + 40 * uniform(); /* uneven, some coincident */
        if (c == 4) {
            if (i == 0) {
                const double id[4] = {0, 0, 0, 1};
                next_quat(id, 0, values);
            } else {
                next_quat(values + 4 * (i - 1), scale, values + 4 * i);
            }
        } else {
            for (uint32_t k = 0; k < c; k++)
                values[i * c + k] = (uniform() * 2 - 1) * (index % 3 ? 1 : 1000);
        }
    }
    /* Tangents of the size the keys' differences have over a typical
     * segment (about 20 ms), in and out drawn apart (corners). */
    for (int i = 0; i < KEYS * 2 * (int)c; i++)
        tangents[i] = (uniform() * 2 - 1) * (c == 4 ? scale : (index % 3 ? 1 : 1000)) / 20;
    char name[32], target[64];
    snprintf(name, sizeof name, "s%d_%d", (int)interp, index);
    kf_sequence_desc d = {name,
                          interp,
                          index % 2 ? KF_REPEAT_LOOP : KF_REPEAT_CONSTANT,
                          t + 10,
                          c,
                          KEYS,
                          times,
                          values,
                          0,
                          KEYS - 1,
                          NULL,
                          0,
                          hermite ? tangents : NULL};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
    snprintf(target, sizeof target, "n%s.%s", name, c == 4 ? "orientation" : "translation");
    kf_track_desc track = {name, "c", target, 0};
    CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "%s: %s", target, e.message);
}

/* The largest magnitude among the keys and tangents of s. */
static double key_scale(const kf_sequence *s)
{
    double scale = 0;
    for (uint32_t k = 0; k < s->valid_count; k++)
        for (uint32_t m = 0; m < s->components; m++) {
            scale = fmax(scale, fabs(kf_key_float(s, s->values, k, m)));
            if (s->interpolation == KFB_INTERP_SPLINE || s->interpolation == KFB_INTERP_HERMITE)
                scale = fmax(scale, fmax(fabs(kf_key_float(s, s->tangent_out, k, m)),
                                         fabs(kf_key_float(s, s->tangent_in, k, m))));
        }
    return scale;
}

static double error_of(const float *got, const float *want, uint32_t n, double scale)
{
    double worst = 0;
    for (uint32_t k = 0; k < n; k++) {
        double e = fabs((double)got[k] - want[k]) / fmax(fmax(1.0, scale), fabs(want[k]));
        worst = fmax(worst, e);
    }
    return worst;
}

int main(void)
{
    static const double scales[] = {0, 1e-3, 0.05, 0.3, 1.0, 2.0, 3.0};
    kf_builder *b;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    kf_controller_desc cd;
    kf_controller_desc_init(&cd);
    cd.name = "c";
    kf_error e;
    CHECK(kf_builder_add_controller(b, &cd, &e) == KF_OK, "controller");
    for (int interp = KF_INTERPOLATION_STEP; interp <= KF_INTERPOLATION_HERMITE; interp++)
        for (int i = 0; i < SEQUENCES; i++)
            add(b, (kf_interpolation)interp, i, scales[i % (sizeof scales / sizeof scales[0])]);
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "encode/load");
    if (!anim)
        return kf_test_report("test_sequence_accuracy");

    double worst[KFB_INTERP_COUNT] = {0}, worst_player = 0;
    /* The widest kernel set and the scalar one. */
    kf_player *p, *ps;
    CHECK(kf_player_create(anim, NULL, &p) == KF_OK, "player");
    CHECK(kf_player_create_with(anim, NULL, kf_kernels_scalar(), &ps) == KF_OK, "player");
    for (uint32_t si = 0; si < kf_anim_count(anim, KF_KIND_SEQUENCE); si++) {
        const kf_sequence *s = kf_anim_sequence(anim, si);
        kf_sequence_info info;
        kf_sequence_get_info(s, &info);
        char name[64];
        snprintf(name, sizeof name, "n%s.%s", info.name,
                 info.components == 4 ? "orientation" : "translation");
        const uint32_t target = kf_anim_find(anim, KF_KIND_TARGET, name);
        CHECK(target != KF_NO_INDEX, "target %s", name);
        const double scale = key_scale(s);
        kf_cursor cursor = KF_CURSOR_INIT;
        for (int k = 0; k < SAMPLES; k++) {
            /* Mostly inside the keys, some before and after, some at keys. */
            double t = (uniform() * 1.2 - 0.1) * info.duration;
            if (k % 17 == 0) {
                float key_time;
                kf_sequence_key(s, (uint32_t)(uniform() * info.key_count), &key_time, NULL);
                t = key_time;
            }
            float fast[4], exact[4];
            kf_sequence_sample(s, t, k & 1 ? &cursor : NULL, fast);
            kf_sequence_sample_exact(s, t, exact);
            double err = error_of(fast, exact, info.components, scale);
            worst[info.interpolation] = fmax(worst[info.interpolation], err);
            CHECK(err <= bound[info.interpolation], "%s t=%.17g: error %.3g", info.name, t, err);
            if (k % 8 == 0 && info.components == 4) {
                /* The player's orientation: the exact sample, normalized. */
                kf_player_update(p, t);
                kf_player_update(ps, t);
                double q[4];
                for (int c = 0; c < 4; c++)
                    q[c] = exact[c];
                normalize(q);
                float want[4];
                for (int c = 0; c < 4; c++)
                    want[c] = (float)q[c];
                const float *got = kf_player_value(p, target), *sgot = kf_player_value(ps, target);
                double perr = 0;
                for (int c = 0; c < 4; c++)
                    perr = fmax(perr, fmax(fabs((double)got[c] - want[c]),
                                           fabs((double)sgot[c] - want[c])));
                worst_player = fmax(worst_player, perr);
                CHECK(perr <= PLAYER_BOUND, "player %s t=%.17g: error %.3g", name, t, perr);
            }
        }
    }
    kf_player_destroy(p);
    kf_player_destroy(ps);
    kf_anim_free(anim);

    static const char *const names[] = {"step", "linear", "spline", "slerp", "squad", "hermite"};
    for (int i = 0; i < KFB_INTERP_COUNT; i++)
        printf("test_sequence_accuracy: %-7s max error %.3g (bound %.0e)\n", names[i], worst[i],
               bound[i]);
    printf("test_sequence_accuracy: player orientation max error %.3g (bound %.0e)\n", worst_player,
           PLAYER_BOUND);
    return kf_test_report("test_sequence_accuracy");
}
