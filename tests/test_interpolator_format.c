/* SPDX-License-Identifier: MIT */
/*
 * test_interpolator_format.c - X3D interpolators and interpolator tracks as data:
 * the builder's refusals (field and entry located), the loader's refusals
 * of damaged records (a result code, never a crash or a leak), a rebuild
 * from what a loaded file reports giving the same bytes (what kfc
 * --decompile relies on), and a track's cycle interval kept as the double
 * it is.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

static const double keys4[] = {0, 0.25, 0.5, 1};
static const double scalars4[] = {0, 1, 2, 3};
static const double vec3x4[] = {0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0};
static const double rotations4[] = {0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3};
static const double colors4[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5};
static const double pairs4[] = {0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.5, 0};
static const double vec2x12[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5,
                                 6, 6, 7, 7, 8, 8, 9, 9, 1, 0, 0, 1};

static kf_interpolator_desc desc(kf_node node)
{
    kf_interpolator_desc d;
    kf_interpolator_desc_init(&d);
    d.name = "p";
    d.node = node;
    d.key_count = 4;
    d.key = keys4;
    d.value_count = 4;
    d.key_value = scalars4;
    return d;
}

/* ---- builder refusals --------------------------------------------------- */

static void expect_refusal(const char *what, const kf_interpolator_desc *d, kf_result result,
                           kf_field field, uint32_t item)
{
    kf_builder *b;
    kf_error err;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    kf_result r = kf_builder_add_interpolator(b, d, &err);
    CHECK(r == result && err.result == result && err.field == field && err.item == item &&
              err.object == 0 && err.message[0],
          "%s: got %s field %d item %u (%s), want %s field %d item %u", what, kf_result_name(r),
          (int)err.field, err.item, err.message, kf_result_name(result), (int)field, item);
    kf_builder_destroy(b);
}

static void test_refusals(void)
{
    kf_interpolator_desc d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    const double decreasing[] = {0, 0.5, 0.25, 1};
    const double nan_values[] = {0, NAN, 2, 3};
    const double huge[] = {0, 1e39, 2, 3};
    const double bad_color[] = {1, 0, 0, 0, 1.5, 0, 0, 0, 1, 0, 0, 0};
    const double far[] = {-3e38, 0, 3e38};
    const double uneven[] = {0, 0.9, 1};

    d.node = (kf_node)13;
    expect_refusal("unknown node", &d, KF_ERROR_VALUE, KF_FIELD_NODE, KF_NO_INDEX);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.key_count = 0;
    d.value_count = 0;
    expect_refusal("no keys", &d, KF_ERROR_VALUE, KF_FIELD_KEYS, KF_NO_INDEX);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.key = decreasing;
    expect_refusal("decreasing keys", &d, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, 2);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.key = nan_values;
    expect_refusal("NaN key", &d, KF_ERROR_VALUE, KF_FIELD_KEY_TIME, 1);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.value_count = 3;
    expect_refusal("too few values", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, KF_NO_INDEX);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.key_value = nan_values;
    expect_refusal("NaN value", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, 1);
    d.key_value = huge;
    expect_refusal("value beyond float32", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, 1);
    d = desc(KF_NODE_COORDINATE_INTERPOLATOR_2D);
    d.value_count = 6; /* not a multiple of 4 keys */
    d.key_value = vec3x4;
    expect_refusal("not a multiple", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, KF_NO_INDEX);
    d = desc(KF_NODE_COLOR_INTERPOLATOR);
    d.key_value = bad_color;
    expect_refusal("colour outside [0,1]", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, 1);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.velocity_count = 4;
    d.key_velocity = scalars4;
    expect_refusal("keyVelocity on a linear node", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY,
                   KF_NO_INDEX);
    d.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR;
    d.velocity_count = 3;
    expect_refusal("keyVelocity of 3 for 4 keys", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY,
                   KF_NO_INDEX);
    d.velocity_count = 2;
    d.key_velocity = huge + 1;
    expect_refusal("keyVelocity beyond float32", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VELOCITY, 0);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.closed = 1;
    expect_refusal("closed on a linear node", &d, KF_ERROR_VALUE, KF_FIELD_CLOSED, KF_NO_INDEX);
    d = desc(KF_NODE_ORIENTATION_INTERPOLATOR);
    d.key_value = rotations4;
    d.normalize_velocity = 1;
    expect_refusal("normalizeVelocity on OrientationInterpolator", &d, KF_ERROR_VALUE,
                   KF_FIELD_NORMALIZE_VELOCITY, KF_NO_INDEX);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.ease_count = 4;
    d.ease_in_ease_out = pairs4;
    expect_refusal("easeInEaseOut on ScalarInterpolator", &d, KF_ERROR_VALUE,
                   KF_FIELD_EASE_IN_EASE_OUT, KF_NO_INDEX);
    d.node = KF_NODE_EASE_IN_EASE_OUT;
    expect_refusal("keyValue on EaseInEaseOut", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE,
                   KF_NO_INDEX);
    d.value_count = 0;
    d.ease_count = 3;
    expect_refusal("easeInEaseOut count", &d, KF_ERROR_VALUE, KF_FIELD_EASE_IN_EASE_OUT,
                   KF_NO_INDEX);
    d = desc(KF_NODE_SPLINE_SCALAR_INTERPOLATOR);
    d.key_count = d.value_count = 3;
    d.key = uneven;
    d.key_value = far;
    /* Velocities that could leave the float range: refused at the value
     * (kf.h, Numbers), so the precompute never overflows. */
    expect_refusal("keyValue beyond the spline limit", &d, KF_ERROR_VALUE, KF_FIELD_KEY_VALUE, 0);
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.name = "";
    expect_refusal("empty name", &d, KF_ERROR_VALUE, KF_FIELD_NAME, KF_NO_INDEX);
    d.name = "p";
    d.key_value = NULL;
    expect_refusal("missing array", &d, KF_ERROR_ARGUMENT, KF_FIELD_KEYS, KF_NO_INDEX);

    /* One namespace for animators, both ways round. */
    kf_builder *b;
    kf_error err;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    const double t[1] = {0}, v[1] = {1};
    kf_sequence_desc s;
    kf_sequence_desc_init(&s);
    s.key_count = 1;
    s.name = "p";
    s.duration = 1;
    s.components = 1;
    s.times = t;
    s.values = v;
    d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK, "p: %s", err.message);
    CHECK(kf_builder_add_sequence(b, &s, &err) == KF_ERROR_DUPLICATE && err.field == KF_FIELD_NAME,
          "sequence named like an interpolator: %s", err.message);
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_ERROR_DUPLICATE,
          "interpolator named twice: %s", err.message);
    s.name = "s";
    CHECK(kf_builder_add_sequence(b, &s, &err) == KF_OK, "s: %s", err.message);
    d.name = "s";
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_ERROR_DUPLICATE &&
              err.field == KF_FIELD_NAME,
          "interpolator named like a sequence: %s", err.message);
    d = desc(KF_NODE_EASE_IN_EASE_OUT);
    d.name = "e";
    d.value_count = 0;
    d.ease_count = 4;
    d.ease_in_ease_out = pairs4;
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK, "e: %s", err.message);
    d = desc(KF_NODE_ORIENTATION_INTERPOLATOR);
    d.name = "o";
    d.key_value = rotations4;
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK, "o: %s", err.message);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    CHECK(kf_builder_add_controller(b, &c, &err) == KF_OK, "c: %s", err.message);

    /* Track refusals. */
#define SENSOR(...) (&(const kf_time_sensor_desc){__VA_ARGS__})
    const struct {
        kf_track_desc track;
        const kf_time_sensor_desc *sensor; /* NULL: none */
        kf_result result;
        kf_field field;
    } tracks[] = {
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = -1),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 1e-310),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = NAN),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "s", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 2),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "s", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 1, .loop = 1),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "s", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 1, .ease = "e"),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 0, .loop = 1),
         KF_ERROR_VALUE,
         KF_FIELD_CYCLE_INTERVAL},
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 1, .ease = "o"),
         KF_ERROR_VALUE,
         KF_FIELD_EASE},
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 1, .ease = "zz"),
         KF_ERROR_NOT_FOUND,
         KF_FIELD_EASE},
        {{.animator = "p", .controller = "c", .target = "x.a", .components = 1},
         SENSOR(.cycle_interval = 1, .ease = "s"),
         KF_ERROR_NOT_FOUND,
         KF_FIELD_EASE},
        {{.animator = "zz", .controller = "c", .target = "x.a", .components = 1},
         NULL,
         KF_ERROR_NOT_FOUND,
         KF_FIELD_ANIMATOR},
        {{.animator = "p", .controller = "c", .target = "x.translation"},
         NULL,
         KF_ERROR_VALUE,
         KF_FIELD_TARGET},
        {{.animator = "o", .controller = "c", .target = "x.a", .components = 3},
         NULL,
         KF_ERROR_VALUE,
         KF_FIELD_COMPONENTS},
    };
    for (unsigned i = 0; i < sizeof tracks / sizeof tracks[0]; i++) {
        kf_result r =
            kf_builder_add_interpolator_track(b, &tracks[i].track, tracks[i].sensor, &err);
        CHECK(r == tracks[i].result && err.field == tracks[i].field,
              "track refusal %u: got %s field %d (%s)", i, kf_result_name(r), (int)err.field,
              err.message);
    }
#undef SENSOR
    const kf_track_desc ok = {.animator = "o", .controller = "c", .target = "x.orientation"};
    kf_time_sensor_desc sensor = {.cycle_interval = 3, .loop = 1, .ease = "e"};
    CHECK(kf_builder_add_interpolator_track(b, &ok, &sensor, &err) == KF_OK,
          "orientation track: %s", err.message);
    CHECK(kf_builder_add_interpolator_track(b, &ok, &sensor, &err) == KF_ERROR_DUPLICATE &&
              err.field == KF_FIELD_TARGET && err.item == 0,
          "the same track twice: field %d, the first track %u", (int)err.field, (unsigned)err.item);
    sensor.cycle_interval = 4;
    CHECK(kf_builder_add_interpolator_track(b, &ok, &sensor, &err) == KF_OK, "another rate: %s",
          err.message);
    CHECK(kf_builder_add_track(b, &ok, &err) == KF_OK, "default sensor: %s", err.message);
    CHECK(kf_builder_add_track(b, &ok, &err) == KF_ERROR_DUPLICATE && err.item == 2,
          "the default sensor twice: the first track %u", (unsigned)err.item);
    kf_builder_destroy(b);
}

/* ---- a file with every node ------------------------------------------------ */

static kf_builder *every_node(void)
{
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    static const char *const names[KF_NODE_COUNT] = {"n0", "n1", "n2", "n3",  "n4",  "n5", "n6",
                                                     "n7", "n8", "n9", "n10", "n11", "n12"};
    const double velocities[] = {1, -1, 0.5, 2, 0, 0};
    for (int node = 0; node < KF_NODE_COUNT; node++) {
        kf_interpolator_desc d = desc((kf_node)node);
        d.name = names[node];
        switch (node) {
        case KF_NODE_POSITION_INTERPOLATOR:
        case KF_NODE_SPLINE_POSITION_INTERPOLATOR:
            d.key_value = vec3x4;
            break;
        case KF_NODE_POSITION_INTERPOLATOR_2D:
        case KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D:
        case KF_NODE_COORDINATE_INTERPOLATOR:
            d.key_value = vec3x4; /* Coordinate: 4 keys x 1 Vec3f */
            break;
        case KF_NODE_COORDINATE_INTERPOLATOR_2D:
            d.value_count = 12; /* 3 Vec2f per key */
            d.key_value = vec2x12;
            break;
        case KF_NODE_NORMAL_INTERPOLATOR:
            d.key_value = vec3x4;
            break;
        case KF_NODE_COLOR_INTERPOLATOR:
            d.key_value = colors4;
            break;
        case KF_NODE_ORIENTATION_INTERPOLATOR:
        case KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR:
            d.key_value = rotations4;
            break;
        case KF_NODE_EASE_IN_EASE_OUT:
            d.value_count = 0;
            d.ease_count = 4;
            d.ease_in_ease_out = pairs4;
            break;
        default:
            break;
        }
        if (node == KF_NODE_SPLINE_SCALAR_INTERPOLATOR) {
            d.velocity_count = 4;
            d.key_velocity = velocities;
            d.normalize_velocity = 1;
        } else if (node == KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D) {
            d.velocity_count = 2;
            d.key_velocity = velocities;
        } else if (node == KF_NODE_SPLINE_POSITION_INTERPOLATOR ||
                   node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR) {
            d.closed = 1;
        }
        if (kf_builder_add_interpolator(b, &d, &err) != KF_OK) {
            fprintf(stderr, "%s: %s\n", names[node], err.message);
            kf_builder_destroy(b);
            return NULL;
        }
    }
    const double t[2] = {0, 1}, v[2] = {0, 1};
    kf_sequence_desc s;
    kf_sequence_desc_init(&s);
    s.key_count = 2;
    s.name = "seq";
    s.duration = 2;
    s.components = 1;
    s.times = t;
    s.values = v;
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    static const struct {
        kf_track_desc track;
        kf_time_sensor_desc sensor;
    } tracks[] = {
        {{.animator = "seq", .controller = "c", .target = "x.a", .components = 1},
         {.cycle_interval = 0}},
        {{.animator = "n0", .controller = "c", .target = "x.a", .components = 1},
         {.cycle_interval = 2.5, .loop = 1, .ease = "n12"}},
        {{.animator = "n7", .controller = "c", .target = "x.orientation"}, {.cycle_interval = 0}},
        {{.animator = "n11", .target = "x.orientation"}, {.cycle_interval = 0.125}},
    };
    int ok = kf_builder_add_sequence(b, &s, &err) == KF_OK &&
             kf_builder_add_controller(b, &c, &err) == KF_OK;
    for (unsigned i = 0; ok && i < sizeof tracks / sizeof tracks[0]; i++) {
        /* A cycle of 0 here stands for no sensor. */
        const kf_time_sensor_desc *sensor =
            tracks[i].sensor.cycle_interval == 0 ? NULL : &tracks[i].sensor;
        ok = kf_builder_add_interpolator_track(b, &tracks[i].track, sensor, &err) == KF_OK;
    }
    if (!ok) {
        fprintf(stderr, "every_node: %s\n", err.message);
        kf_builder_destroy(b);
        return NULL;
    }
    return b;
}

static int encode(const kf_builder *b, int compression, test_bytes *out)
{
    memset(out, 0, sizeof *out);
    kf_encode_options o = {sizeof o, compression, 0};
    kf_error err;
    return kf_builder_encode(b, &o, test_bytes_write, out, &err) == KF_OK;
}

/* Rebuilds everything a loaded anim reports, in the same order. */
static kf_builder *rebuild(const kf_anim *anim)
{
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    int ok = 1;
    for (uint32_t i = 0; ok && i < kf_anim_count(anim, KF_KIND_INTERPOLATOR); i++) {
        kf_interpolator_info info;
        kf_interpolator_get_info(kf_anim_interpolator(anim, i), &info);
        const uint32_t d = info.dimension;
        size_t total = info.key_count + ((size_t)info.value_count + info.velocity_count) * d +
                       2 * (size_t)info.key_count;
        double *buf = calloc(total, sizeof *buf), *at = buf;
        kf_interpolator_desc desc_;
        kf_interpolator_desc_init(&desc_);
        desc_.name = info.name;
        desc_.node = info.node;
        desc_.key_count = info.key_count;
        desc_.key = at;
        for (uint32_t k = 0; k < info.key_count; k++)
            *at++ = info.key[k];
        desc_.value_count = info.value_count;
        desc_.key_value = at;
        for (uint32_t k = 0; k < info.value_count * d; k++)
            *at++ = info.key_value[k];
        desc_.velocity_count = info.velocity_count;
        desc_.key_velocity = at;
        for (uint32_t k = 0; k < info.velocity_count * d; k++)
            *at++ = info.key_velocity[k];
        if (info.ease_in_ease_out) {
            desc_.ease_count = info.key_count;
            desc_.ease_in_ease_out = at;
            for (uint32_t k = 0; k < 2 * info.key_count; k++)
                *at++ = info.ease_in_ease_out[k];
        }
        desc_.closed = info.closed;
        desc_.normalize_velocity = info.normalize_velocity;
        ok = kf_builder_add_interpolator(b, &desc_, &err) == KF_OK;
        free(buf);
    }
    for (uint32_t i = 0; ok && i < kf_anim_count(anim, KF_KIND_SEQUENCE); i++) {
        const kf_sequence *s = kf_anim_sequence(anim, i);
        kf_sequence_info si;
        kf_sequence_get_info(s, &si);
        double times[2], values[2];
        for (uint32_t k = 0; k < si.key_count && k < 2; k++) {
            float tf, vf;
            kf_sequence_key(s, k, &tf, &vf);
            times[k] = tf;
            values[k] = vf;
        }
        kf_sequence_desc sd = {.name = si.name,
                               .interpolation = si.interpolation,
                               .repeat = si.repeat,
                               .duration = si.duration,
                               .components = si.components,
                               .key_count = si.key_count,
                               .times = times,
                               .values = values,
                               .valid_first = si.valid_first,
                               .valid_last = si.valid_last};
        ok = kf_builder_add_sequence(b, &sd, &err) == KF_OK;
    }
    for (uint32_t i = 0; ok && i < kf_anim_count(anim, KF_KIND_CONTROLLER); i++) {
        kf_controller_info ci;
        kf_anim_controller_info(anim, i, &ci);
        kf_controller_desc cd = {.name = ci.name,
                                 .speed = ci.speed,
                                 .weight = ci.weight,
                                 .active_start = ci.active_start,
                                 .active_end = ci.active_end,
                                 .ref_world = ci.ref_world,
                                 .ref_sequence = ci.ref_sequence};
        ok = kf_builder_add_controller(b, &cd, &err) == KF_OK;
    }
    for (uint32_t i = 0; ok && i < kf_anim_count(anim, KF_KIND_TRACK); i++) {
        kf_track_info ti;
        kf_anim_track_info(anim, i, &ti);
        kf_target_info target;
        kf_anim_target_info(anim, ti.target, &target);
        kf_track_desc td = {.target = target.name, .components = target.components};
        kf_time_sensor_desc sd = {.cycle_interval = 0}, *sensor = NULL;
        if (ti.animator_kind == KF_KIND_INTERPOLATOR) {
            kf_interpolator_info pi;
            kf_interpolator_get_info(kf_anim_interpolator(anim, ti.animator), &pi);
            td.animator = pi.name;
            sd.cycle_interval = ti.cycle_interval;
            sd.loop = ti.loop;
            sensor = &sd;
            if (ti.ease != KF_NO_INDEX) {
                kf_interpolator_get_info(kf_anim_interpolator(anim, ti.ease), &pi);
                sd.ease = pi.name;
            }
        } else {
            kf_sequence_info si;
            kf_sequence_get_info(kf_anim_sequence(anim, ti.animator), &si);
            td.animator = si.name;
        }
        if (ti.controller != KF_NO_INDEX) {
            kf_controller_info ci;
            kf_anim_controller_info(anim, ti.controller, &ci);
            td.controller = ci.name;
        }
        ok = kf_builder_add_interpolator_track(b, &td, sensor, &err) == KF_OK;
    }
    if (!ok) {
        fprintf(stderr, "rebuild: %s\n", err.message);
        kf_builder_destroy(b);
        return NULL;
    }
    return b;
}

static void test_round_trip(void)
{
    kf_builder *b = every_node();
    CHECK(b != NULL, "every node");
    if (!b)
        return;
    test_bytes first, second;
    CHECK(encode(b, 9, &first), "encode");
    kf_builder_destroy(b);
    kf_anim *anim = NULL;
    kf_error err;
    CHECK(kf_load_memory(first.data, first.size, NULL, &anim, &err) == KF_OK, "load: %s",
          err.message);
    if (anim) {
        CHECK(kf_anim_count(anim, KF_KIND_INTERPOLATOR) == KF_NODE_COUNT, "interpolators");
        CHECK(kf_anim_find(anim, KF_KIND_INTERPOLATOR, "n11") == 11, "find");
        kf_builder *again = rebuild(anim);
        CHECK(again != NULL, "rebuild");
        if (again && encode(again, 9, &second)) {
            CHECK(second.size == first.size && memcmp(first.data, second.data, first.size) == 0,
                  "rebuilt bytes differ (%zu vs %zu)", first.size, second.size);
            free(second.data);
        }
        kf_builder_destroy(again);
        kf_anim_free(anim);
    }
    free(first.data);
}

/* ---- damaged records --------------------------------------------------------- */

/* File offset of the body of the `nth` object of `type` in an uncompressed
 * file, or 0. */
static size_t object_of_type(const test_bytes *f, uint32_t type, unsigned nth)
{
    for (unsigned i = 0;; i++) {
        size_t at = craft_object(f->data, f->size, i);
        if (!at)
            return 0;
        if (craft_get(f->data + at - 8) == type && nth-- == 0)
            return at;
    }
}

typedef struct patch {
    const char *what;
    uint32_t type;  /* object type; 0: a word of an interpolator's DATA array */
    unsigned nth;   /* which object of the type (DATA patches: which interpolator) */
    int word;       /* word within the record (-1: the object header's size),
                       or within the DATA array */
    unsigned array; /* DATA patches: the record word that holds the array's offset */
    uint32_t value;
    kf_result result;
} patch;

static uint32_t float_bits(float x)
{
    uint32_t w;
    memcpy(&w, &x, sizeof w);
    return w;
}

static void test_damage(void)
{
    /* Interpolator records: name node key_count value_count velocity_count
     * flags keys values velocities derived. Track records: kind animator
     * controller target cycle_interval (f64: low word, high word) loop ease.
     * Interpolator n is node n;
     * n8 has 4 velocities, n10 2; tracks 0 (sequence), 1 (n0, eased by n12),
     * 2 (n7), 3 (n11, no controller). */
    const uint32_t I = KFB_OBJECT_INTERPOLATOR, T = KFB_OBJECT_TRACK;
    const patch patches[] = {
        {"unknown node", I, 0, 1, 0, 13, KF_ERROR_VALUE},
        {"no keys", I, 0, 2, 0, 0, KF_ERROR_VALUE},
        {"keyValue count", I, 0, 3, 0, 5, KF_ERROR_VALUE},
        {"multi-valued count", I, 4, 3, 0, 6, KF_ERROR_VALUE},
        {"keyVelocity count", I, 8, 4, 0, 3, KF_ERROR_VALUE},
        {"keyVelocity on a linear node", I, 0, 4, 0, 2, KF_ERROR_VALUE},
        {"unknown flag", I, 8, 5, 0, 4, KF_ERROR_VALUE},
        {"closed on a linear node", I, 1, 5, 0, KFB_INTERPOLATOR_CLOSED, KF_ERROR_VALUE},
        {"keys outside DATA", I, 0, 6, 0, 0xFFFFFFF0u, KF_ERROR_REFERENCE},
        {"values outside DATA", I, 1, 7, 0, 0x7FFFFFFFu, KF_ERROR_REFERENCE},
        {"velocities missing", I, 8, 8, 0, KFB_NONE, KF_ERROR_REFERENCE},
        {"velocities given for none", I, 9, 8, 0, 0, KF_ERROR_VALUE},
        {"derived missing", I, 3, 9, 0, KFB_NONE, KF_ERROR_REFERENCE},
        {"derived given for none", I, 0, 9, 0, 0, KF_ERROR_VALUE},
        {"bad name", I, 2, 0, 0, 0xFFFFFF00u, KF_ERROR_STRING},
        {"decreasing key", 0, 5, 2, 6, float_bits(0.1f), KF_ERROR_VALUE},
        {"NaN value", 0, 9, 3, 7, 0x7FC00000u, KF_ERROR_VALUE},
        {"infinite velocity", 0, 10, 1, 8, 0x7F800000u, KF_ERROR_VALUE},
        {"colour above 1", 0, 3, 4, 7, float_bits(1.5f), KF_ERROR_VALUE},
        {"NaN tangent", 0, 9, 5, 9, 0x7FC00000u, KF_ERROR_VALUE},
        {"NaN squad control", 0, 11, 20, 9, 0x7FC00000u, KF_ERROR_VALUE},
        {"unknown animator kind", T, 1, 0, 0, KFB_ANIMATOR_KIND_COUNT, KF_ERROR_VALUE},
        {"interpolator index", T, 1, 1, 0, 13, KF_ERROR_REFERENCE},
        {"ease index", T, 1, 7, 0, 13, KF_ERROR_REFERENCE},
        {"ease not EaseInEaseOut", T, 1, 7, 0, 3, KF_ERROR_VALUE},
        {"cycle interval 0", T, 1, 5, 0, 0, KF_ERROR_VALUE},
        {"cycle interval NaN", T, 2, 5, 0, 0x7FF80000u, KF_ERROR_VALUE},
        {"cycle interval infinite", T, 2, 5, 0, 0x7FF00000u, KF_ERROR_VALUE},
        {"cycle interval negative", T, 3, 5, 0, 0xBFF00000u, KF_ERROR_VALUE},
        {"cycle interval subnormal", T, 1, 5, 0, 0x00000001u, KF_ERROR_VALUE},
        {"loop 2", T, 2, 6, 0, 2, KF_ERROR_VALUE},
        {"sequence track with a cycle", T, 0, 5, 0, 0x3FF00000u, KF_ERROR_VALUE},
        {"sequence track with an ease", T, 0, 7, 0, 12, KF_ERROR_VALUE},
        {"sequence track as interpolator", T, 0, 0, 0, 1, KF_ERROR_VALUE},
        {"components mismatch", T, 2, 1, 0, 1, KF_ERROR_VALUE},
        {"short record", I, 0, -1, 0, 36, KF_ERROR_OBJECT},
    };
    kf_builder *b = every_node();
    test_bytes pristine = {0};
    CHECK(b && encode(b, 0, &pristine), "every node");
    kf_builder_destroy(b);
    craft_section sections[3];
    if (!pristine.data || !craft_sections(pristine.data, pristine.size, sections))
        return;
    kf_anim *anim = NULL;
    kf_error err;
    CHECK(kf_load_memory(pristine.data, pristine.size, NULL, &anim, &err) == KF_OK, "pristine: %s",
          err.message);
    kf_anim_free(anim);

    for (unsigned i = 0; i < sizeof patches / sizeof patches[0]; i++) {
        const patch *p = &patches[i];
        test_bytes f = pristine;
        f.data = malloc(pristine.size);
        memcpy(f.data, pristine.data, pristine.size);
        size_t at = object_of_type(&f, p->type ? p->type : I, p->nth);
        CHECK(at != 0, "%s: no such object", p->what);
        if (p->type) {
            craft_put(f.data + at + 4 * (ptrdiff_t)p->word, p->value);
        } else {
            uint32_t offset = craft_get(f.data + at + 4 * (size_t)p->array);
            craft_put(f.data + sections[KFB_SECTION_DATA].stored +
                          4 * ((size_t)offset + (size_t)p->word),
                      p->value);
        }
        craft_fix_crcs(f.data, f.size);
        anim = NULL;
        kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, &err);
        CHECK(r == p->result && anim == NULL && err.result == r, "%s: got %s (%s), want %s",
              p->what, kf_result_name(r), err.message, kf_result_name(p->result));
        if (getenv("KF_TEST_VERBOSE"))
            printf("%-32s %s\n", p->what, err.message);
        kf_anim_free(anim);
        free(f.data);
    }
    free(pristine.data);
}

/* ---- the cycle interval as a double ---------------------------------------- */

/* One looping track of the scalar interpolator at `cycle`, encoded in
 * version `major`, loaded; NULL (and `*result`) where encoding fails. */
static kf_anim *cycle_file(double cycle, uint32_t major, kf_result *result)
{
    kf_builder *b;
    kf_error err;
    *result = KF_ERROR_OUT_OF_MEMORY;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    kf_interpolator_desc d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    const kf_track_desc t = {.animator = "p", .controller = "c", .target = "x.a", .components = 1};
    const kf_time_sensor_desc sensor = {.cycle_interval = cycle, .loop = 1};
    CHECK(kf_builder_add_interpolator(b, &d, &err) == KF_OK &&
              kf_builder_add_controller(b, &c, &err) == KF_OK &&
              kf_builder_add_interpolator_track(b, &t, &sensor, &err) == KF_OK,
          "cycle %.17g: %s", cycle, err.message);
    test_bytes bytes = {0};
    kf_encode_options o = {sizeof o, 9, major};
    kf_anim *anim = NULL;
    *result = kf_builder_encode(b, &o, test_bytes_write, &bytes, &err);
    if (*result == KF_OK) {
        CHECK(craft_get(bytes.data + KFB_IDENTIFIER_SIZE) ==
                  (major == 1 ? KFB_VERSION(1, KFB_VERSION_1_MINOR)
                              : KFB_VERSION(KFB_VERSION_MAJOR, KFB_VERSION_MINOR)),
              "cycle %.17g: version", cycle);
        CHECK(kf_load_memory(bytes.data, bytes.size, NULL, &anim, &err) == KF_OK,
              "cycle %.17g, version %u: load: %s", cycle, (unsigned)major, err.message);
    } else
        CHECK(err.field == KF_FIELD_CYCLE_INTERVAL && err.object == 0,
              "cycle %.17g: field %d object %u", cycle, (int)err.field, (unsigned)err.object);
    free(bytes.data);
    kf_builder_destroy(b);
    return anim;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A cycle float32 cannot hold comes back the double it was: as float32
 * (0.3499999940), a looping phase drifts 1.7e-8 of a cycle a cycle. */
static void test_cycle_double(void)
{
    const struct {
        double cycle;
        uint32_t major;
        kf_result result;
        double loaded;
    } cases[] = {
        {0.35, 0, KF_OK, 0.35},       {4.2, 0, KF_OK, 4.2},
        {1e39, 0, KF_OK, 1e39},       {0.35, 1, KF_OK, (double)0.35f},
        {1e39, 1, KF_ERROR_VALUE, 0}, {1e-50, 1, KF_ERROR_VALUE, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kf_result r;
        kf_anim *anim = cycle_file(cases[i].cycle, cases[i].major, &r);
        CHECK(r == cases[i].result, "cycle %.17g in version %u: %s", cases[i].cycle,
              (unsigned)cases[i].major, kf_result_name(r));
        if (!anim)
            continue;
        kf_track_info info;
        kf_anim_track_info(anim, 0, &info);
        CHECK(same_bits(info.cycle_interval, cases[i].loaded),
              "cycle %.17g in version %u loads as %.17g, not %.17g", cases[i].cycle,
              (unsigned)cases[i].major, info.cycle_interval, cases[i].loaded);
        kf_anim_free(anim);
    }
}

/* ---- a target that blends latest ----------------------------------------- */

static const double blend_keys[2] = {0, 1}, blend_values[2] = {2, 10};

/* Scalar interpolator "p" (2 at fraction 0, 10 at 1) into "x.a" through
 * controllers a (from world 0, or backwards from position 1 where
 * `backwards`) and b (from world 3), each cycle 1 and not looping; with
 * `sequence`, a sequence "s" into "y.a" too. */
static kf_builder *blend_builder(int backwards, int sequence)
{
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return NULL;
    kf_interpolator_desc d = desc(KF_NODE_SCALAR_INTERPOLATOR);
    d.key_count = d.value_count = 2;
    d.key = blend_keys;
    d.key_value = blend_values;
    kf_controller_desc a, c;
    kf_controller_desc_init(&a);
    kf_controller_desc_init(&c);
    a.name = "a";
    if (backwards) {
        a.speed = -1;
        a.ref_sequence = 1;
    }
    c.name = "b";
    c.ref_world = 3;
    const kf_track_desc ta = {.animator = "p", .controller = "a", .target = "x.a", .components = 1};
    const kf_track_desc tb = {.animator = "p", .controller = "b", .target = "x.a", .components = 1};
    int ok = kf_builder_add_interpolator(b, &d, &err) == KF_OK &&
             kf_builder_add_controller(b, &a, &err) == KF_OK &&
             kf_builder_add_controller(b, &c, &err) == KF_OK &&
             kf_builder_add_interpolator_track(b, &ta, NULL, &err) == KF_OK &&
             kf_builder_add_interpolator_track(b, &tb, NULL, &err) == KF_OK;
    if (ok && sequence) {
        kf_sequence_desc s;
        kf_sequence_desc_init(&s);
        s.name = "s";
        s.components = 1;
        s.duration = 1;
        s.key_count = 2;
        s.times = blend_keys;
        s.values = blend_values;
        const kf_track_desc ts = {
            .animator = "s", .controller = "a", .target = "y.a", .components = 1};
        ok = kf_builder_add_sequence(b, &s, &err) == KF_OK &&
             kf_builder_add_track(b, &ts, &err) == KF_OK;
    }
    CHECK(ok, "blend builder: %s", err.message);
    return b;
}

/* What the player gives x.a at world time w. */
static float blend_value(kf_player *player, double w)
{
    kf_player_update(player, w);
    const float *v = kf_player_value(player, 0);
    return v ? v[0] : NAN;
}

static void test_target_blend(void)
{
    kf_error err;
    kf_builder *b = blend_builder(0, 1);
    if (!b)
        return;
    /* The builder's refusals, and what each names. */
    kf_result r = kf_builder_set_target_blend(b, "z.a", KF_BLEND_LATEST, &err);
    CHECK(r == KF_ERROR_NOT_FOUND && err.field == KF_FIELD_BLEND, "no such target: %s",
          err.message);
    r = kf_builder_set_target_blend(b, "y.a", KF_BLEND_LATEST, &err);
    CHECK(r == KF_ERROR_VALUE && err.field == KF_FIELD_BLEND && err.object == 2,
          "a sequence's target: %s (object %u)", err.message, (unsigned)err.object);
    r = kf_builder_set_target_blend(b, "x.a", (kf_blend)7, &err);
    CHECK(r == KF_ERROR_ARGUMENT, "blend 7: %s", err.message);
    CHECK(kf_builder_set_target_blend(b, "x.a", KF_BLEND_LATEST, &err) == KF_OK, "x.a: %s",
          err.message);
    const kf_track_desc ts = {.animator = "s", .controller = "b", .target = "x.a", .components = 1};
    r = kf_builder_add_track(b, &ts, &err);
    CHECK(r == KF_ERROR_VALUE && err.field == KF_FIELD_TARGET && err.object == 3,
          "a sequence into a latest target: %s", err.message);
    kf_encode_options v1 = {sizeof v1, 9, 1};
    test_bytes bytes = {0};
    r = kf_builder_encode(b, &v1, test_bytes_write, &bytes, &err);
    CHECK(r == KF_ERROR_VALUE && err.field == KF_FIELD_BLEND, "version 1: %s", err.message);
    free(bytes.data);
    bytes.data = NULL;

    /* Played, against the sum the same tracks would give: a's sensor runs
     * over [0, 1] and stops at 1 (10); b's starts at 3 (2) and stops at 4. */
    static const struct {
        double w;
        float latest, sum;
    } at[] = {
        {0.5, 6, 8},  /* a runs, b has not started: a's */
        {2, 10, 12},  /* a stopped at 1, b not started: a's last */
        {3.5, 6, 16}, /* b runs, a stopped: b's */
        {5, 10, 20},  /* both stopped, b later: b's last */
        {3, 2, 12},   /* b sends its first value at 3 */
    };
    for (int latest = 0; latest <= 1; latest++) {
        kf_builder *c = latest ? b : blend_builder(0, 0);
        if (!c || !encode(c, 0, &bytes))
            break;
        kf_anim *anim = NULL;
        kf_player *player = NULL;
        CHECK(kf_load_memory(bytes.data, bytes.size, NULL, &anim, &err) == KF_OK &&
                  kf_player_create(anim, NULL, &player) == KF_OK,
              "blend %d: %s", latest, err.message);
        CHECK(kf_anim_target_blend(anim, 0) == (latest ? KF_BLEND_LATEST : KF_BLEND_SUM) &&
                  kf_anim_target_blend(anim, 9) == KF_BLEND_SUM &&
                  kf_anim_target_blend(NULL, 0) == KF_BLEND_SUM,
              "blend %d: kf_anim_target_blend", latest);
        for (unsigned i = 0; player && i < sizeof at / sizeof at[0]; i++) {
            const float v = blend_value(player, at[i].w), want = latest ? at[i].latest : at[i].sum;
            CHECK(v == want, "blend %d at %g: %g, want %g", latest, at[i].w, v, want);
        }
        kf_player_destroy(player);
        kf_anim_free(anim);
        if (!latest) {
            kf_builder_destroy(c);
            free(bytes.data);
            bytes.data = NULL;
        }
    }

    /* What a latest target was sent stays: b stopped by the host (weight
     * 0) or paused (speed 0) at 3.5, where it sent 6, leaves 6 there, not
     * a's 10 sent at 1; weighted again at 6.25, it sends again: the
     * value at its end (10, sent at 4), or, resumed, where it runs (8). */
    for (int pause = 0; pause <= 1 && bytes.data; pause++) {
        kf_anim *anim = NULL;
        kf_player *player = NULL;
        if (kf_load_memory(bytes.data, bytes.size, NULL, &anim, &err) != KF_OK ||
            kf_player_create(anim, NULL, &player) != KF_OK) {
            CHECK(0, "stop %d: %s", pause, err.message);
            kf_anim_free(anim);
            break;
        }
        kf_controller *c = kf_player_controller(player, 1);
        const float sent = blend_value(player, 3.5);
        if (pause)
            kf_controller_set_speed(c, 0, 3.5);
        else
            kf_controller_set_weight(c, 0);
        const float held = blend_value(player, 3.75), later = blend_value(player, 6);
        if (pause)
            kf_controller_set_speed(c, 1, 6);
        else
            kf_controller_set_weight(c, 1);
        const float again = blend_value(player, 6.25);
        CHECK(sent == 6 && held == 6 && later == 6 && again == (pause ? 8 : 10), "%s: %g %g %g %g",
              pause ? "paused" : "stopped", sent, held, later, again);
        /* Back in time, what was sent is forgotten: at 2, a's last value. */
        CHECK(blend_value(player, 2) == 10, "back to 2: %g", blend_value(player, 2));
        kf_player_destroy(player);
        kf_anim_free(anim);
    }

    /* The file's flag, damaged: in a 2.6 file, another bit, on a target
     * a sequence plays. */
    if (bytes.data) {
        size_t t = object_of_type(&bytes, KFB_OBJECT_TARGET, 0);
        const uint32_t word = t ? craft_get(bytes.data + t + 4) : 0;
        CHECK(word == (KFB_PROPERTY_CUSTOM | KFB_TARGET_LATEST), "the flag is written: 0x%x",
              (unsigned)word);
        const struct {
            const char *what;
            unsigned nth;
            uint32_t property, version;
        } damage[] = {
            {"the flag in a 2.6 file", 0, KFB_TARGET_LATEST, KFB_VERSION(2, 6)},
            {"an unknown flag", 0, KFB_TARGET_LATEST << 1, 0},
            {"the flag on a sequence's target", 1, KFB_TARGET_LATEST, 0},
        };
        for (unsigned i = 0; t && i < sizeof damage / sizeof damage[0]; i++) {
            test_bytes f = {malloc(bytes.size), bytes.size, bytes.size};
            memcpy(f.data, bytes.data, bytes.size);
            craft_put(f.data + object_of_type(&f, KFB_OBJECT_TARGET, damage[i].nth) + 4,
                      damage[i].property);
            if (damage[i].version)
                craft_put(f.data + KFB_HEADER_AT(version), damage[i].version);
            craft_fix_crcs(f.data, f.size);
            kf_anim *anim = NULL;
            r = kf_load_memory(f.data, f.size, NULL, &anim, &err);
            CHECK(r == KF_ERROR_VALUE && !anim, "%s: %s (%s)", damage[i].what, kf_result_name(r),
                  err.message);
            kf_anim_free(anim);
            free(f.data);
        }
    }
    free(bytes.data);
    bytes.data = NULL;
    kf_builder_destroy(b);

    /* Played backwards: a's sensor reaches fraction 0 at world 1, which
     * is its last event (2) until b's starts. */
    kf_builder *back = blend_builder(1, 0);
    if (back && kf_builder_set_target_blend(back, "x.a", KF_BLEND_LATEST, &err) == KF_OK &&
        encode(back, 0, &bytes)) {
        kf_anim *anim = NULL;
        kf_player *player = NULL;
        if (kf_load_memory(bytes.data, bytes.size, NULL, &anim, &err) == KF_OK &&
            kf_player_create(anim, NULL, &player) == KF_OK) {
            CHECK(blend_value(player, 0.5) == 6 && blend_value(player, 2) == 2 &&
                      blend_value(player, 3.5) == 6,
                  "backwards: %g %g %g", blend_value(player, 0.5), blend_value(player, 2),
                  blend_value(player, 3.5));
        }
        kf_player_destroy(player);
        kf_anim_free(anim);
    }
    free(bytes.data);
    kf_builder_destroy(back);
}

int main(void)
{
    test_refusals();
    test_cycle_double();
    test_round_trip();
    test_damage();
    test_target_blend();
    return kf_test_report("test_interpolator_format");
}
