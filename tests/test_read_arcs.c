/* SPDX-License-Identifier: MIT */
/*
 * test_read_arcs.c - the slerp arcs (formats/kfb.md) that version 1 files
 * store and the reader computes for SQUAD: their values for known keys,
 * the loader's range checks on each damaged arc (exact result code and
 * field), a SLERP played along the arc it computes from its keys, and the
 * sharing of equal key times.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf_math.h"
#include "kf_private.h"
#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

/* Keys: identity, 90 degrees about z (an arc of pi/4), the same again (the
 * linear arc), then the opposite hemisphere (the general arc). */
static const double quats[16] = {0,
                                 0,
                                 0,
                                 1,
                                 0,
                                 0,
                                 0.70710678118654752,
                                 0.70710678118654752,
                                 0,
                                 0,
                                 0.70710678118654752,
                                 0.70710678118654752,
                                 0,
                                 0,
                                 0,
                                 -1};
static const double times[4] = {0, 100, 200, 300};

static test_bytes build(void)
{
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_sequence_desc d = {
        "r", KF_INTERPOLATION_SLERP, KF_REPEAT_LOOP, 400, 4, 4, times, quats, 0, 3, NULL, 0, NULL};
    kf_sequence_desc q = {
        "q", KF_INTERPOLATION_SQUAD, KF_REPEAT_CONSTANT, 400, 4, 4, times, quats, 0, 3, NULL, 0,
        NULL};
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc t = {"r", "c", "n.orientation", 0};
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK &&
              kf_builder_add_sequence(b, &q, &e) == KF_OK &&
              kf_builder_add_controller(b, &c, &e) == KF_OK &&
              kf_builder_add_track(b, &t, &e) == KF_OK,
          "build: %s", e.message);
    test_bytes out = {0};
    kf_encode_options o = {sizeof o, 0, 1}; /* stored, plain: patchable */
    CHECK(kf_builder_encode(b, &o, test_bytes_write, &out, &e) == KF_OK, "encode: %s", e.message);
    kf_builder_destroy(b);
    return out;
}

static void check_arcs(const test_bytes *f)
{
    kf_anim *anim;
    kf_error e;
    CHECK(kf_load_memory(f->data, f->size, NULL, &anim, &e) == KF_OK, "load: %s", e.message);
    if (!anim)
        return;
    const kf_sequence *r = kf_anim_sequence(anim, 0), *q = kf_anim_sequence(anim, 1);
    const double theta = 3.14159265358979323846 / 4;
    /* The arcs version 1 stores (kf_quat_arcs): 0 -> 1: a quarter of pi;
     * 1 -> 2: equal keys; 2 -> 3 and the wrap 3 -> 0: across hemispheres. */
    const float want[8] = {(float)theta, (float)(theta / sin(theta)), 0, 1, -1, 0, -1, 0};
    float keys[16], arcs[8];
    for (int k = 0; k < 16; k++)
        keys[k] = (float)quats[k];
    kf_quat_arcs(keys, keys, 4, arcs);
    for (int k = 0; k < 8; k++)
        CHECK(fabsf(arcs[k] - want[k]) <= 1e-7f, "key arc word %d: %.9g, want %.9g", k, arcs[k],
              want[k]);
    /* A loaded sequence keeps none: sampling computes each arc. */
    CHECK(q->tangent_out != NULL && q->arcs == NULL && r->arcs == NULL,
          "squad intermediates, and no arcs kept");
    /* Its arc computed as it plays: halfway from key 0 to key 1, a turn of
     * pi/4 about z; halfway from key 1 to 2 (equal keys), key 1. */
    float got[4];
    kf_sequence_sample(r, 50, NULL, got);
    const float half[4] = {0, 0, (float)sin(theta / 2), (float)cos(theta / 2)};
    for (int m = 0; m < 4; m++)
        CHECK(fabsf(got[m] - half[m]) <= 2e-7f, "slerp at 50, component %d: %.9g, want %.9g", m,
              got[m], half[m]);
    kf_sequence_sample(r, 150, NULL, got);
    for (int m = 0; m < 4; m++)
        CHECK(fabsf(got[m] - (float)quats[4 + m]) <= 2e-7f,
              "slerp at 150, component %d: %.9g, want %.9g", m, got[m], quats[4 + m]);
    CHECK(r->times == q->times, "equal key times share one array");
    kf_anim_free(anim);
}

/* Offset of the first arc word of sequence 0 in the stored DATA section. */
static size_t first_arc(const test_bytes *f)
{
    craft_section s[3];
    if (!craft_sections(f->data, f->size, s))
        return 0;
    size_t body = craft_object(f->data, f->size, 0);
    uint32_t tangents = craft_get(f->data + body + 4 * 10); /* kfb_sequence.tangents */
    return s[KFB_SECTION_DATA].stored + 4 * (size_t)tangents;
}

static uint32_t bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

/* The arc kf_quat_arc computes is, to the bit, the float of libm's acos
 * and of theta / sin theta in double (what the reader computed before it
 * took a cheaper acos first, falling back to libm's near a float
 * boundary): on a million pairs of random unit keys whose angles cover
 * every range, from repeated keys to past a quarter turn. */
enum { ARC_PAIRS = 1000000 };

static void arcs_as_libm(void)
{
    uint64_t x = 0x243F6A8885A308D3u;
    int differ = 0, general = 0, linear = 0;
    /* Every pair also as kf_quat_arcs takes them (arc i from from[i] to
     * to[i + 1], the last to to[0]), two at a time where it can. */
    float *from = malloc(4 * sizeof(float) * ARC_PAIRS),
          *to = malloc(4 * sizeof(float) * ARC_PAIRS);
    float *want_all = malloc(2 * sizeof(float) * ARC_PAIRS),
          *got_all = malloc(2 * sizeof(float) * ARC_PAIRS);
    if (!from || !to || !want_all || !got_all) {
        CHECK(0, "memory");
        return;
    }
    for (int n = 0; n < ARC_PAIRS; n++) {
        float p[4], q[4];
        double a[4], norm = 0.0;
        for (int k = 0; k < 4; k++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            a[k] = (double)(x >> 11) * (1.0 / 9007199254740992.0) - 0.5;
            norm += a[k] * a[k];
        }
        for (int k = 0; k < 4; k++)
            p[k] = (float)(a[k] / sqrt(norm));
        /* q: p turned by an angle spread over [0, 2 pi), denser near 0. */
        x = x * 6364136223846793005u + 1442695040888963407u;
        const double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
        const double angle = n % 3 == 0 ? u * 6.28 : n % 3 == 1 ? u * u * 0.2 : u * 2e-2;
        const double c = cos(angle / 2), s = sin(angle / 2);
        q[0] = (float)(c * p[0] + s * p[1]);
        q[1] = (float)(c * p[1] - s * p[0]);
        q[2] = (float)(c * p[2] + s * p[3]);
        q[3] = (float)(c * p[3] - s * p[2]);
        float got[2], want[2];
        kf_quat_arc(p, q, got);
        double d = 0.0;
        for (int k = 0; k < 4; k++)
            d += (double)p[k] * q[k];
        if (d >= 1.0 - KF_QUAT_EPSILON) {
            want[0] = 0.0f, want[1] = 1.0f;
            linear++;
        } else if (d < 0.0) {
            want[0] = -1.0f, want[1] = 0.0f;
            general++;
        } else {
            const double theta = acos(d), ratio = theta / sqrt((1.0 - d) * (1.0 + d));
            want[0] = (float)theta;
            want[1] = (float)(ratio < 1.0 ? 1.0 : ratio);
        }
        if (memcmp(got, want, sizeof got) != 0 && differ++ < 5)
            CHECK(0, "p.q = %.17g: arc %.9g %.9g, libm's %.9g %.9g", d, (double)got[0],
                  (double)got[1], (double)want[0], (double)want[1]);
        memcpy(from + 4 * (size_t)n, p, sizeof p);
        memcpy(to + 4 * (size_t)((n + 1) % ARC_PAIRS), q, sizeof q);
        memcpy(want_all + 2 * (size_t)n, want, sizeof want);
    }
    kf_quat_arcs(from, to, ARC_PAIRS, got_all);
    for (int n = 0; n < ARC_PAIRS; n++)
        if (memcmp(got_all + 2 * (size_t)n, want_all + 2 * (size_t)n, 2 * sizeof(float)) != 0 &&
            differ++ < 5)
            CHECK(0, "kf_quat_arcs, arc %d: %.9g %.9g, libm's %.9g %.9g", n, (double)got_all[2 * n],
                  (double)got_all[2 * n + 1], (double)want_all[2 * n], (double)want_all[2 * n + 1]);
    free(from);
    free(to);
    free(want_all);
    free(got_all);
    CHECK(differ == 0 && general > 1000 && linear > 1000,
          "%d of 2 x %d arcs differ from libm's (%d general, %d linear)", differ, ARC_PAIRS,
          general, linear);
}

int main(void)
{
    arcs_as_libm();
    test_bytes f = build();
    check_arcs(&f);
    const size_t at = first_arc(&f);
    CHECK(at != 0, "arcs located");

    static const struct {
        const char *what;
        float theta, ratio;
        kf_result result;
    } cases[] = {
        {"the arc as written", 0.78539819f, 1.11072075f, KF_OK},
        {"the linear arc", 0.0f, 1.0f, KF_OK},
        {"the general arc", -1.0f, 0.0f, KF_OK},
        {"longer than a quarter turn", 2.0f, 1.2f, KF_ERROR_VALUE},
        {"ratio below 1", 0.5f, 0.9f, KF_ERROR_VALUE},
        {"ratio above pi/2", 0.5f, 2.0f, KF_ERROR_VALUE},
        {"not a number", NAN, 1.0f, KF_ERROR_VALUE},
        {"infinite ratio", 0.5f, INFINITY, KF_ERROR_VALUE},
        {"negative angle", -0.5f, 1.0f, KF_ERROR_VALUE},
        {"linear arc with a ratio", 0.0f, 1.5f, KF_ERROR_VALUE},
        {"general arc with a ratio", -1.0f, 1.0f, KF_ERROR_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && at; i++) {
        unsigned char *copy = malloc(f.size);
        memcpy(copy, f.data, f.size);
        craft_put(copy + at, bits(cases[i].theta));
        craft_put(copy + at + 4, bits(cases[i].ratio));
        craft_fix_crcs(copy, f.size);
        kf_anim *anim = (kf_anim *)&f; /* must be reset to NULL on failure */
        kf_error e;
        kf_result r = kf_load_memory(copy, f.size, NULL, &anim, &e);
        CHECK(r == cases[i].result, "%s: %s (%s)", cases[i].what, kf_result_name(r), e.message);
        if (r != KF_OK)
            CHECK(anim == NULL && e.field == KF_FIELD_TANGENTS && e.message[0],
                  "%s: field %d, message '%s'", cases[i].what, (int)e.field, e.message);
        else
            test_exercise(anim);
        kf_anim_free(r == KF_OK ? anim : NULL);
        free(copy);
    }
    free(f.data);
    return kf_test_report("test_read_arcs");
}
