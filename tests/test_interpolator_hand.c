/* SPDX-License-Identifier: MIT */
/*
 * test_interpolator_hand.c - X3D interpolators against values worked out by hand from
 * docs/math.md §3, for every node and for what the oracle does not reach: hue
 * wrap-around and the exact half turn, antipodal normals, spline scale
 * factors, closed curves, keyVelocity of size 2, normalizeVelocity,
 * coincident keys, squad neighbours in the other hemisphere and closed
 * squad, EaseInEaseOut, and interpolators played by tracks (TimeSensor
 * clamp and loop, EaseInEaseOut feeding an interpolator, blending).
 */
#include <math.h>
#include <stdlib.h>

#include "kf_test.h"
#include "test_util.h"

#define TOL 1e-6
#define PI  3.14159265358979323846

typedef struct spec {
    kf_node node;
    unsigned n;
    double key[8];
    unsigned values; /* keyValue entries */
    double value[32];
    unsigned velocities; /* keyVelocity entries */
    double velocity[16];
    double ease[16]; /* EaseInEaseOut: n pairs */
    int closed, normalize;
} spec;

static kf_interpolator_desc describe(const char *name, const spec *s)
{
    kf_interpolator_desc d;
    kf_interpolator_desc_init(&d);
    d.name = name;
    d.node = s->node;
    d.key_count = s->n;
    d.key = s->key;
    if (s->node == KF_NODE_EASE_IN_EASE_OUT) {
        d.ease_count = s->n;
        d.ease_in_ease_out = s->ease;
    } else {
        d.value_count = s->values;
        d.key_value = s->value;
    }
    d.velocity_count = s->velocities;
    d.key_velocity = s->velocity;
    d.closed = s->closed;
    d.normalize_velocity = s->normalize;
    return d;
}

/* Builds one interpolator named "p" and loads it back; NULL on failure. */
static kf_anim *build(const spec *s)
{
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    kf_interpolator_desc d = describe("p", s);
    kf_result r = kf_builder_add_interpolator(b, &d, &err);
    CHECK(r == KF_OK, "%s: %s", kf_node_name(s->node), err.message);
    kf_anim *anim = r == KF_OK ? test_encode_load(b, NULL) : NULL;
    kf_builder_destroy(b);
    return anim;
}

/* Samples `s` at each fraction and compares every component. */
static void expect(const char *what, const spec *s, unsigned count, const double *fractions,
                   const double *want, unsigned components)
{
    kf_anim *anim = build(s);
    CHECK(anim != NULL, "%s: build", what);
    if (!anim)
        return;
    const kf_interpolator *p = kf_anim_interpolator(anim, 0);
    CHECK(kf_interpolator_components(p) == components, "%s: %u components", what,
          kf_interpolator_components(p));
    float out[16];
    for (unsigned i = 0; i < count; i++) {
        kf_interpolator_sample(p, fractions[i], NULL, out);
        for (unsigned k = 0; k < components; k++)
            CHECK(kf_test_close(out[k], want[i * components + k], TOL),
                  "%s f=%g component %u: got %.9g, want %.9g", what, fractions[i], k, out[k],
                  want[i * components + k]);
    }
    kf_anim_free(anim);
}

/* As expect(), for rotations: `want` holds axis-angle rotations, compared
 * as rotations (q ~ -q). */
static void expect_rotation(const char *what, const spec *s, unsigned count,
                            const double *fractions, const double *want)
{
    kf_anim *anim = build(s);
    CHECK(anim != NULL, "%s: build", what);
    if (!anim)
        return;
    const kf_interpolator *p = kf_anim_interpolator(anim, 0);
    for (unsigned i = 0; i < count; i++) {
        float q[4];
        kf_interpolator_sample(p, fractions[i], NULL, q);
        const double *r = want + 4 * i;
        double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        double w[4] = {r[0] / len * sin(r[3] / 2), r[1] / len * sin(r[3] / 2),
                       r[2] / len * sin(r[3] / 2), cos(r[3] / 2)};
        double dot = 0.0;
        for (int k = 0; k < 4; k++)
            dot += q[k] * w[k];
        CHECK(fabs(fabs(dot) - 1.0) < 1e-6, "%s f=%g: got q = %g %g %g %g, want %g %g %g %g", what,
              fractions[i], q[0], q[1], q[2], q[3], w[0], w[1], w[2], w[3]);
    }
    kf_anim_free(anim);
}

/* ---- linear nodes --------------------------------------------------------- */

static void test_linear(void)
{
    /* A repeated key: the right limit (its last value) from the key on. */
    const spec scalar = {.node = KF_NODE_SCALAR_INTERPOLATOR,
                         .n = 4,
                         .key = {0, 0.5, 0.5, 1},
                         .values = 4,
                         .value = {0, 10, 20, 0}};
    const double f1[] = {-1, 0, 0.25, 0.4375, 0.5, 0.75, 1, 2, NAN};
    const double w1[] = {0, 0, 5, 8.75, 20, 10, 0, 0, 0};
    expect("scalar", &scalar, 9, f1, w1, 1);

    const spec single = {
        .node = KF_NODE_SCALAR_INTERPOLATOR, .n = 1, .key = {0.5}, .values = 1, .value = {7}};
    const double f2[] = {-5, 0.5, 9};
    const double w2[] = {7, 7, 7};
    expect("single key", &single, 3, f2, w2, 1);

    const spec pos = {.node = KF_NODE_POSITION_INTERPOLATOR,
                      .n = 2,
                      .key = {0, 1},
                      .values = 2,
                      .value = {1, 2, 3, 5, 2, -1}};
    const double f3[] = {0.25};
    const double w3[] = {2, 2, 2};
    expect("position", &pos, 1, f3, w3, 3);

    const spec pos2 = {.node = KF_NODE_POSITION_INTERPOLATOR_2D,
                       .n = 2,
                       .key = {0, 1},
                       .values = 2,
                       .value = {1, 2, 5, 2}};
    const double w4[] = {2, 2};
    expect("position 2D", &pos2, 1, f3, w4, 2);

    /* m = 3 per key: all 6 numbers interpolate together. */
    const spec coord2 = {.node = KF_NODE_COORDINATE_INTERPOLATOR_2D,
                         .n = 2,
                         .key = {0, 1},
                         .values = 6,
                         .value = {0, 0, 1, 1, 2, 2, 4, 0, 1, 5, 2, 6}};
    const double w5[] = {1, 0, 1, 2, 2, 3};
    expect("coordinate 2D, m = 3", &coord2, 1, f3, w5, 6);
}

/* ---- ColorInterpolator ------------------------------------------------------- */

static void test_color(void)
{
    /* Hue 350 deg (1, 0, 1/6) to 10 deg (1, 1/6, 0): the short way, through
     * red. Half way: hue 0; a quarter: 355 deg = (1, 0, 1/12). */
    const spec wrap = {.node = KF_NODE_COLOR_INTERPOLATOR,
                       .n = 2,
                       .key = {0, 1},
                       .values = 2,
                       .value = {1, 0, 1.0 / 6, 1, 1.0 / 6, 0}};
    const double f1[] = {0.25, 0.5, 0.75};
    const double w1[] = {1, 0, 1.0 / 12, 1, 0, 0, 1, 1.0 / 12, 0};
    expect("colour hue wrap", &wrap, 3, f1, w1, 3);
    const spec unwrap = {.node = KF_NODE_COLOR_INTERPOLATOR,
                         .n = 2,
                         .key = {0, 1},
                         .values = 2,
                         .value = {1, 1.0 / 6, 0, 1, 0, 1.0 / 6}};
    const double w1r[] = {1, 1.0 / 12, 0, 1, 0, 0, 1, 0, 1.0 / 12};
    expect("colour hue wrap backwards", &unwrap, 3, f1, w1r, 3);

    /* Red to cyan is exactly half a turn: the direct way, through yellow and
     * green (hue 90 deg = (0.5, 1, 0) half way), from either end. */
    const spec half = {.node = KF_NODE_COLOR_INTERPOLATOR,
                       .n = 2,
                       .key = {0, 1},
                       .values = 2,
                       .value = {1, 0, 0, 0, 1, 1}};
    const double f2[] = {0.5};
    const double w2[] = {0.5, 1, 0};
    expect("colour half turn", &half, 1, f2, w2, 3);
    const spec back = {.node = KF_NODE_COLOR_INTERPOLATOR,
                       .n = 2,
                       .key = {0, 1},
                       .values = 2,
                       .value = {0, 1, 1, 1, 0, 0}};
    expect("colour half turn backwards", &back, 1, f2, w2, 3);

    /* Grey takes red's hue: s 0 -> 1, v 0.5 -> 1; half way h 0, s 0.5,
     * v 0.75 = (0.75, 0.375, 0.375). */
    const spec grey = {.node = KF_NODE_COLOR_INTERPOLATOR,
                       .n = 2,
                       .key = {0, 1},
                       .values = 2,
                       .value = {0.5, 0.5, 0.5, 1, 0, 0}};
    const double w3[] = {0.75, 0.375, 0.375};
    expect("colour from grey", &grey, 1, f2, w3, 3);
}

/* ---- NormalInterpolator -------------------------------------------------------- */

static void test_normal(void)
{
    const double h = sqrt(0.5);
    /* Great arc, keys normalized first: (2,0,0) -> (0,3,0); and a second
     * normal per key, (0,0,1) -> (0,0,1). */
    const spec n1 = {.node = KF_NODE_NORMAL_INTERPOLATOR,
                     .n = 2,
                     .key = {0, 1},
                     .values = 4,
                     .value = {2, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, 1}};
    const double f1[] = {0, 0.5, 1};
    const double w1[] = {1, 0, 0, 0, 0, 1, h, h, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1};
    expect("normal", &n1, 3, f1, w1, 6);
    /* Opposite normals (undefined in X3D): half a turn about a x e_y. */
    const spec n2 = {.node = KF_NODE_NORMAL_INTERPOLATOR,
                     .n = 2,
                     .key = {0, 1},
                     .values = 2,
                     .value = {1, 0, 0, -1, 0, 0}};
    const double f2[] = {0.5, 0.75};
    const double w2[] = {0, 0, 1, -h, 0, h};
    expect("opposite normals", &n2, 2, f2, w2, 3);
}

/* ---- OrientationInterpolator ----------------------------------------------------- */

static void test_orientation(void)
{
    /* 0 to 3pi/2 about z is -pi/2 the short way: half way -pi/4. A zero
     * axis is the identity; a non-unit axis is normalized. */
    const spec o = {.node = KF_NODE_ORIENTATION_INTERPOLATOR,
                    .n = 3,
                    .key = {0, 1, 2},
                    .values = 3,
                    .value = {0, 0, 1, 0, 0, 0, 1, 1.5 * PI, 0, 0, 0, 1}};
    const double f[] = {0.5, 1.5, -1};
    const double w[] = {0, 0, -1, PI / 4, 0, 0, -1, PI / 4, 0, 0, 1, 0};
    expect_rotation("orientation", &o, 3, f, w);
    const spec axis = {.node = KF_NODE_ORIENTATION_INTERPOLATOR,
                       .n = 1,
                       .key = {0},
                       .values = 1,
                       .value = {0, 0, 2, 1}};
    const double f2[] = {0};
    const double w2[] = {0, 0, 1, 1};
    expect_rotation("non-unit axis", &axis, 1, f2, w2);

    float aa[4];
    const float q[4] = {0, 0, -0.38268343f, -0.92387953f}; /* -(rotation of pi/4 about z) */
    kf_quat_to_axis_angle(q, aa);
    CHECK(fabs(aa[0]) < 1e-7 && fabs(aa[1]) < 1e-7 && fabs(aa[2] - 1) < 1e-7 &&
              fabs(aa[3] - PI / 4) < 1e-6,
          "axis-angle of -q: %g %g %g %g", aa[0], aa[1], aa[2], aa[3]);
    const float id[4] = {0, 0, 0, -1};
    kf_quat_to_axis_angle(id, aa);
    CHECK(aa[0] == 0 && aa[1] == 0 && aa[2] == 1 && aa[3] == 0, "identity: %g %g %g %g", aa[0],
          aa[1], aa[2], aa[3]);
}

/* ---- spline nodes ------------------------------------------------------------------ */

static void test_spline(void)
{
    /* Hermite basis at u = 1/2: (1/2, 1/2, 1/8, -1/8); at u = 1/4:
     * (27/32, 5/32, 9/64, -3/64). */

    /* Keys 0, 1/4, 1, values 0, 1, 3: T_1 = 1.5, F-_1 = 2(3/4)/1 = 1.5
     * (incoming 2.25), F+_1 = 2(1/4)/1 = 0.5 (outgoing 0.75); open ends 0.
     * f = 1/8: 1/2 - 2.25/8 = 0.21875; f = 5/8: 2 + 0.75/8 = 2.09375. */
    spec s = {.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR,
              .n = 3,
              .key = {0, 0.25, 1},
              .values = 3,
              .value = {0, 1, 3}};
    const double f1[] = {0.125, 0.625, 0.25, 1};
    const double w1[] = {0.21875, 2.09375, 1, 3};
    expect("spline scale factors", &s, 4, f1, w1, 1);

    /* keyVelocity of size 2: T0_0 = 2, T1_2 = 4, the interior as above.
     * f = 1/8: 1/2 + 2/8 - 2.25/8 = 0.46875; f = 5/8: 2 + 0.75/8 - 4/8 = 1.59375. */
    s.velocities = 2;
    s.velocity[0] = 2;
    s.velocity[1] = 4;
    const double w2[] = {0.46875, 1.59375};
    expect("keyVelocity of size 2", &s, 2, f1, w2, 1);

    /* normalizeVelocity: Dtot = 1 + 2 = 3, so both given velocities become
     * 3. f = 1/8: 1/2 + 3/8 - 2.25/8 = 0.59375; f = 5/8: 2 + 0.75/8 - 3/8. */
    s.normalize = 1;
    const double w3[] = {0.59375, 1.71875};
    expect("normalizeVelocity", &s, 2, f1, w3, 1);

    /* keyVelocity of size n: every T_i given, F scaled inside, unscaled at
     * the open ends: T_1 = -1 -> outgoing -0.5, incoming -1.5.
     * f = 1/8: 0.5 + 2/8 + 1.5/8 = 0.9375; f = 5/8: 2 - 0.5/8 - 4/8 = 1.4375. */
    s.normalize = 0;
    s.velocities = 3;
    s.velocity[0] = 2;
    s.velocity[1] = -1;
    s.velocity[2] = 4;
    const double w4[] = {0.9375, 1.4375};
    expect("keyVelocity of size n", &s, 2, f1, w4, 1);

    /* Closed, keys 0, 1/4, 1/2, 1, values 0, 1, 2, 0: T_0 = T_3 =
     * (v_1 - v_2)/2 = -1/2, d = 1/4 + 1/2, F+_0 = 4/3, F-_3 = 2/3: outgoing
     * -2/3 at key 0, incoming -1/3 at key 3. Interior: T_1 = 1 (F = 1), T_2 =
     * -1/2, F+_2 = 2/3, F-_2 = 4/3. f = 1/8: 1/2 - 1/12 - 1/8 = 7/24;
     * f = 5/8 (u = 1/4): 27/16 - 9/64/3 + 3/64/3 = 1.65625. */
    const spec closed = {.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR,
                         .n = 4,
                         .key = {0, 0.25, 0.5, 1},
                         .values = 4,
                         .value = {0, 1, 2, 0},
                         .closed = 1};
    const double f5[] = {0.125, 0.625};
    const double w5[] = {7.0 / 24, 1.65625};
    expect("closed", &closed, 2, f5, w5, 1);
    /* Open: no end tangents. f = 1/8: 0.375; f = 5/8: 27/16 - 3/64. */
    spec open = closed;
    open.closed = 0;
    const double w6[] = {0.375, 1.640625};
    expect("open", &open, 2, f5, w6, 1);
    /* closed with first != last is ignored: the open curve through 0, 1, 2,
     * 0.5. T_1 = 1 (F = 1), T_2 = -1/4 (outgoing -1/6, incoming -1/3).
     * f = 1/8: 1/2 - 1/8; f = 5/8 (u = 1/4): 27/16 + 5/64 - 9/64/6;
     * f = 7/8 (u = 3/4): 5/16 + 27/64 - 3/64/6. */
    spec mismatch = closed;
    mismatch.value[3] = 0.5;
    const double f7[] = {0.125, 0.625, 0.875};
    const double w7[] = {0.375, 1.7421875, 0.7265625};
    expect("closed ignored when first != last", &mismatch, 3, f7, w7, 1);

    /* Coincident keys: a zero-length segment never plays, and its zero
     * denominators give finite factors. Keys 0, 1/2, 1/2, 1, values 0..3:
     * the outer segments have no tangents at their ends here. */
    const spec twin = {.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR,
                       .n = 4,
                       .key = {0, 0.5, 0.5, 1},
                       .values = 4,
                       .value = {0, 1, 2, 3}};
    const double f8[] = {0.25, 0.5, 0.75};
    const double w8[] = {0.5, 2, 2.5};
    expect("coincident keys", &twin, 3, f8, w8, 1);
    const spec triple = {.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR,
                         .n = 5,
                         .key = {0, 0.5, 0.5, 0.5, 1},
                         .values = 5,
                         .value = {0, 1, 2, 3, 4}};
    const double w9[] = {0.5, 3, 3.5};
    expect("three coincident keys", &triple, 3, f8, w9, 1);

    /* 2D and 3D take the same tangents per component. */
    const spec s2 = {.node = KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D,
                     .n = 3,
                     .key = {0, 0.25, 1},
                     .values = 3,
                     .value = {0, 0, 1, -1, 3, -3}};
    const double w10[] = {0.21875, -0.21875, 2.09375, -2.09375};
    expect("spline 2D", &s2, 2, f1, w10, 2);
    const spec s3 = {.node = KF_NODE_SPLINE_POSITION_INTERPOLATOR,
                     .n = 3,
                     .key = {0, 0.25, 1},
                     .values = 3,
                     .value = {0, 0, 5, 1, 0, 5, 3, 0, 5}};
    const double w11[] = {0.21875, 0, 5, 2.09375, 0, 5};
    expect("spline 3D", &s3, 2, f1, w11, 3);
}

/* ---- SquadOrientationInterpolator ---------------------------------------------------- */

static void test_squad(void)
{
    /* About one axis squad works on angles: s_i = a_i - (a_i+1 + a_i-1 -
     * 2 a_i)/4. Angles 0, 1, 3, 4 at keys 0, 1/3, 2/3, 1: s = 0, 0.75, 3.25,
     * 4. In segment 1 at u = 1/4: lerp(1.5, 1.375, 2u(1-u) = 3/8) = 1.453125;
     * at u = 1/2: 2. */
    spec s = {.node = KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR,
              .n = 4,
              .key = {0, 1.0 / 3, 2.0 / 3, 1},
              .values = 4,
              .value = {0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 3, 0, 0, 1, 4}};
    const double f[] = {5.0 / 12, 0.5};
    const double w[] = {0, 0, 1, 1.453125, 0, 0, 1, 2};
    expect_rotation("squad", &s, 2, f, w);
    /* The same rotations with key 2 written as 3 - 2pi (its quaternion
     * negated): neighbours are flipped into each key's hemisphere. */
    s.value[11] = 3 - 2 * PI;
    expect_rotation("squad across hemispheres", &s, 2, f, w);

    /* Angles 0, 2, 4, 2pi: closed wraps (q_3 = -q_0 is the same rotation):
     * s_0 = -(2 + (4 - 2pi))/4 = (2pi - 6)/4 instead of 0. In segment 0 at
     * u = 1/2 (s_1 = 2): open 1, closed 1 + ((2pi - 6)/4 + 2 - 2)/4. */
    spec c = {.node = KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR,
              .n = 4,
              .key = {0, 1.0 / 3, 2.0 / 3, 1},
              .values = 4,
              .value = {0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 1, 4, 0, 0, 1, 2 * PI}};
    const double fc[] = {1.0 / 6};
    const double wo[] = {0, 0, 1, 1};
    expect_rotation("squad open", &c, 1, fc, wo);
    c.closed = 1;
    const double wc[] = {0, 0, 1, 1 + (2 * PI - 6) / 16};
    expect_rotation("squad closed", &c, 1, fc, wc);
    /* normalizeVelocity is a field of the node, without effect on squad. */
    c.normalize = 1;
    expect_rotation("squad normalizeVelocity", &c, 1, fc, wc);
}

/* ---- EaseInEaseOut ---------------------------------------------------------------- */

static void test_ease(void)
{
    /* e_out = e_in = 1/2, t = 1: u' = 2u^2 below 1/2, 1 - 2(1-u)^2 above,
     * mapped back onto the keys 1 and 3. */
    spec e = {.node = KF_NODE_EASE_IN_EASE_OUT, .n = 2, .key = {1, 3}, .ease = {0, 0.5, 0.5, 0}};
    const double f[] = {0, 1, 1.5, 2, 2.5, 3, 4};
    const double w[] = {1, 1, 1.25, 2, 2.75, 3, 3};
    expect("ease", &e, 7, f, w, 1);
    /* A sum above 1 is scaled: 1.5 and 0.5 become 0.75 and 0.25 (t = 1):
     * u = 1/2 is in the easing-out part: (1/0.75) u^2 = 1/3. */
    spec big = {.node = KF_NODE_EASE_IN_EASE_OUT, .n = 2, .key = {0, 1}, .ease = {0, 1.5, 0.5, 0}};
    const double fb[] = {0.5, 0.875};
    const double wb[] = {1.0 / 3, 1 - 0.015625 / 0.25};
    expect("ease scaled", &big, 2, fb, wb, 1);
    /* A negative sum leaves u unchanged. */
    spec neg = {.node = KF_NODE_EASE_IN_EASE_OUT, .n = 2, .key = {0, 1}, .ease = {0, -0.5, 0.2, 0}};
    const double fn[] = {0.3};
    const double wn[] = {0.3};
    expect("ease negative", &neg, 1, fn, wn, 1);
    /* e_in = 0: the middle formula up to the next key. */
    spec zero = {.node = KF_NODE_EASE_IN_EASE_OUT, .n = 2, .key = {0, 1}, .ease = {0, 0, 0, 0}};
    const double fz[] = {0.999};
    const double wz[] = {0.999};
    expect("ease zero", &zero, 1, fz, wz, 1);
}

/* ---- tracks --------------------------------------------------------------------- */

static void test_tracks(void)
{
    kf_builder *b;
    kf_error err;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    const spec ease = {
        .node = KF_NODE_EASE_IN_EASE_OUT, .n = 2, .key = {0, 1}, .ease = {0, 0.5, 0.5, 0}};
    const spec scalar = {
        .node = KF_NODE_SCALAR_INTERPOLATOR, .n = 2, .key = {0, 1}, .values = 2, .value = {10, 30}};
    const spec turn = {.node = KF_NODE_ORIENTATION_INTERPOLATOR,
                       .n = 2,
                       .key = {0, 1},
                       .values = 2,
                       .value = {0, 0, 1, 0, 0, 0, 1, PI / 2}};
    kf_interpolator_desc d = describe("ease", &ease);
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK, "ease: %s", err.message);
    d = describe("scalar", &scalar);
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK, "scalar: %s", err.message);
    d = describe("turn", &turn);
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK, "turn: %s", err.message);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "clock";
    CHECK(kf_builder_add_controller(b, &c, &err) == KF_OK, "controller: %s", err.message);
    c.name = "half";
    c.weight = 0.5;
    CHECK(kf_builder_add_controller(b, &c, &err) == KF_OK, "controller: %s", err.message);
    static const struct {
        kf_track_desc track;
        kf_time_sensor_desc sensor;
    } tracks[] = {
        {{.animator = "scalar", .controller = "clock", .target = "a.x", .components = 1},
         {.cycle_interval = 4, .loop = 1, .ease = "ease"}},
        {{.animator = "scalar", .controller = "clock", .target = "b.x", .components = 1},
         {.cycle_interval = 4}},
        {{.animator = "scalar", .controller = "clock", .target = "c.x", .components = 1},
         {.cycle_interval = 0}},
        {{.animator = "turn", .controller = "clock", .target = "n.orientation"},
         {.cycle_interval = 2}},
        {{.animator = "turn", .controller = "half", .target = "n.orientation"},
         {.cycle_interval = 1}},
    };
    for (unsigned i = 0; i < sizeof tracks / sizeof tracks[0]; i++) {
        /* A cycle of 0 here stands for no sensor (the default TimeSensor). */
        const kf_time_sensor_desc *sensor =
            tracks[i].sensor.cycle_interval == 0 ? NULL : &tracks[i].sensor;
        CHECK(kf_builder_add_interpolator_track(b, &tracks[i].track, sensor, &err) == KF_OK,
              "track %u: %s", i, err.message);
    }
    /* d.x blends an interpolator (weight 1, cycle 1) with a sequence
     * (weight 1/2, 0 -> 100 over 10). */
    const double times[2] = {0, 10}, values[2] = {0, 100};
    kf_sequence_desc seq = {.name = "ramp",
                            .interpolation = KF_INTERPOLATION_LINEAR,
                            .repeat = KF_REPEAT_CONSTANT,
                            .duration = 10,
                            .components = 1,
                            .key_count = 2,
                            .times = times,
                            .values = values,
                            .valid_first = 0,
                            .valid_last = 1};
    CHECK(kf_builder_add_sequence(b, &seq, &err) == KF_OK, "ramp: %s", err.message);
    const kf_track_desc mixed[2] = {
        {.animator = "scalar", .controller = "clock", .target = "d.x", .components = 1},
        {.animator = "ramp", .controller = "half", .target = "d.x", .components = 1},
    };
    for (unsigned i = 0; i < 2; i++)
        CHECK(kf_builder_add_track(b, &mixed[i], &err) == KF_OK, "mixed %u: %s", i, err.message);
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "tracks: encode/load");
    if (!anim)
        return;

    kf_track_info info;
    kf_anim_track_info(anim, 0, &info);
    CHECK(info.animator_kind == KF_KIND_INTERPOLATOR && info.cycle_interval == 4 && info.loop &&
              info.ease == 0,
          "track info: kind %d cycle %g loop %d ease %u", (int)info.animator_kind,
          info.cycle_interval, info.loop, info.ease);
    kf_anim_track_info(anim, 2, &info);
    CHECK(info.cycle_interval == 1 && !info.loop && info.ease == KF_NO_INDEX,
          "default TimeSensor: cycle %g loop %d", info.cycle_interval, info.loop);

    kf_player *player;
    CHECK(kf_player_create(anim, NULL, &player) == KF_OK, "player");
    /* World time = position. a: looped over 4, eased (u' = 2u^2 / 1 -
     * 2(1-u)^2), 10 + 20 u'; b: clamped over 4; c: clamped over 1.
     * Orientation: pi/2 (w - ...) over 2 with weight 1 plus over 1 with
     * weight 1/2, normalized. */
    static const struct {
        double w, a, b, c, d;
    } steps[] = {
        {1, 12.5, 15, 30, 35},  {3, 27.5, 25, 30, 45}, {5, 12.5, 30, 30, 55},
        {-1, 27.5, 10, 10, 10}, {4, 10, 30, 30, 50},   {0.5, 10.625, 12.5, 20, 22.5},
    };
    const uint32_t d_x = kf_anim_find(anim, KF_KIND_TARGET, "d.x");
    CHECK(d_x == 4, "d.x is target %u", d_x);
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        kf_player_update(player, steps[i].w);
        const double want[5] = {steps[i].a, steps[i].b, steps[i].c, 0, steps[i].d};
        for (uint32_t t = 0; t < 5; t++)
            if (t != 3)
                CHECK(kf_test_close(kf_player_value(player, t)[0], want[t], TOL),
                      "w=%g target %u: got %.9g, want %g", steps[i].w, t,
                      kf_player_value(player, t)[0], want[t]);
    }
    /* w = 0.5: angles pi/8 (weight 1) and pi/4 (weight 1/2). */
    kf_player_update(player, 0.5);
    const float *q = kf_player_value(player, 3);
    double sum[4] = {0, 0, sin(PI / 16) + 0.5 * sin(PI / 8), cos(PI / 16) + 0.5 * cos(PI / 8)};
    double len = sqrt(sum[2] * sum[2] + sum[3] * sum[3]);
    CHECK(fabs(q[0]) < 1e-7 && fabs(q[1]) < 1e-7 && fabs(q[2] - sum[2] / len) < TOL &&
              fabs(q[3] - sum[3] / len) < TOL,
          "blended orientation: %g %g %g %g", q[0], q[1], q[2], q[3]);
    kf_player_destroy(player);
    kf_anim_free(anim);
}

int main(void)
{
    test_linear();
    test_color();
    test_normal();
    test_orientation();
    test_spline();
    test_squad();
    test_ease();
    test_tracks();
    return kf_test_report("test_interpolator_hand");
}
