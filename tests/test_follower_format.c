/* SPDX-License-Identifier: MIT */
/*
 * test_follower_format.c - follower records end to end: what the builder
 * refuses (each with its field and element), X3D's defaults, what is stored
 * and read back, decode -> encode giving the same bytes, and a table of
 * damaged follower records with the result code the loader must give.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_write.h"
#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

/* ---- the builder ----------------------------------------------------------- */

typedef struct bad_desc {
    const char *what;
    kf_follower_node node;
    double v[9];
    uint32_t value_count, destination_count;
    double duration, tau, tolerance;
    int order;
    kf_result expect;
    kf_field field;
    uint32_t item;
    const char *says; /* a part of the message */
} bad_desc;

#define KEEP   -7.0 /* duration/tau/tolerance: leave the default */
#define NOITEM KF_NO_INDEX

/* One row per case, as the struct reads. */
/* clang-format off */
static const bad_desc bad_descs[] = {
    {"unknown node", (kf_follower_node)99, {0}, 0, 0, KEEP, KEEP, KEEP, 3, KF_ERROR_VALUE,
     KF_FIELD_NODE, NOITEM, "unknown follower node"},
    {"negative duration", KF_FOLLOWER_NODE_POSITION_CHASER, {0}, 0, 0, -1, KEEP, KEEP, 3, KF_ERROR_VALUE,
     KF_FIELD_DURATION, NOITEM, "duration"},
    {"NaN duration", KF_FOLLOWER_NODE_SCALAR_CHASER, {0}, 0, 0, NAN, KEEP, KEEP, 3, KF_ERROR_VALUE,
     KF_FIELD_DURATION, NOITEM, "duration"},
    {"duration beyond float32", KF_FOLLOWER_NODE_SCALAR_CHASER, {0}, 0, 0, 1e39, KEEP, KEEP, 3, KF_ERROR_VALUE,
     KF_FIELD_DURATION, NOITEM, "float32"},
    {"negative tau", KF_FOLLOWER_NODE_SCALAR_DAMPER, {0}, 0, 0, KEEP, -0.1, KEEP, 3, KF_ERROR_VALUE,
     KF_FIELD_TAU, NOITEM, "tau"},
    {"infinite tau", KF_FOLLOWER_NODE_SCALAR_DAMPER, {0}, 0, 0, KEEP, INFINITY, KEEP, 3, KF_ERROR_VALUE,
     KF_FIELD_TAU, NOITEM, "tau"},
    {"order 6", KF_FOLLOWER_NODE_POSITION_DAMPER, {0}, 0, 0, KEEP, KEEP, KEEP, 6, KF_ERROR_VALUE,
     KF_FIELD_ORDER, NOITEM, "0 to 5"},
    {"order -1", KF_FOLLOWER_NODE_POSITION_DAMPER, {0}, 0, 0, KEEP, KEEP, KEEP, -1, KF_ERROR_VALUE,
     KF_FIELD_ORDER, NOITEM, "0 to 5"},
    {"tolerance -0.5", KF_FOLLOWER_NODE_COLOR_DAMPER, {0}, 0, 0, KEEP, KEEP, -0.5, 3, KF_ERROR_VALUE,
     KF_FIELD_TOLERANCE, NOITEM, "-1 or 0 or more"},
    {"NaN tolerance", KF_FOLLOWER_NODE_COLOR_DAMPER, {0}, 0, 0, KEEP, KEEP, NAN, 3, KF_ERROR_VALUE,
     KF_FIELD_TOLERANCE, NOITEM, "tolerance"},
    {"2 numbers for a 3D position", KF_FOLLOWER_NODE_POSITION_CHASER, {1, 2}, 2, 0, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, NOITEM, "takes 3 numbers, not 2"},
    {"3 numbers for a rotation", KF_FOLLOWER_NODE_ORIENTATION_DAMPER, {0, 1, 0}, 0, 3, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_DESTINATION, NOITEM, "takes 4 numbers, not 3"},
    {"arrays of 2 and 3 points", KF_FOLLOWER_NODE_COORDINATE_CHASER, {0, 0, 0, 1, 1, 1, 2, 2, 2}, 6, 9, KEEP,
     KEEP, KEEP, 3, KF_ERROR_VALUE, KF_FIELD_INITIAL_DESTINATION, NOITEM,
     "initialValue has 2 points and its initialDestination 3: the lengths must be equal"},
    {"5 numbers of 2D points", KF_FOLLOWER_NODE_TEXCOORD_DAMPER_2D, {0, 1, 2, 3, 4}, 5, 0, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, NOITEM, "not a whole number of points"},
    {"an array of no points", KF_FOLLOWER_NODE_COORDINATE_DAMPER, {0}, 0, 0, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, NOITEM, "needs initialValue or initialDestination"},
    {"colour above 1", KF_FOLLOWER_NODE_COLOR_CHASER, {0.5, 1.5, 0}, 3, 0, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, 0, "outside [0, 1]"},
    {"negative colour", KF_FOLLOWER_NODE_COLOR_DAMPER, {0, 0, -0.25}, 0, 3, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_DESTINATION, 0, "outside [0, 1]"},
    {"NaN in point 1", KF_FOLLOWER_NODE_COORDINATE_CHASER, {0, 0, 0, 1, NAN, 1}, 6, 0, KEEP, KEEP, KEEP, 3,
     KF_ERROR_VALUE, KF_FIELD_INITIAL_VALUE, 1, "element 1 component 1"},
    {"NaN given as initialDestination only", KF_FOLLOWER_NODE_COORDINATE_DAMPER, {0, 0, 0, NAN, 0, 0}, 0, 6,
     KEEP, KEEP, KEEP, 3, KF_ERROR_VALUE, KF_FIELD_INITIAL_DESTINATION, 1,
     "initialDestination element 1 component 0"},
    {"beyond float32 in point 2", KF_FOLLOWER_NODE_TEXCOORD_CHASER_2D, {0, 0, 1, 1, 1e39, 0}, 0, 6, KEEP, KEEP,
     KEEP, 3, KF_ERROR_VALUE, KF_FIELD_INITIAL_DESTINATION, 2, "float32"},
};
/* clang-format on */

static void builder_errors(void)
{
    kf_builder *b;
    kf_builder_create(NULL, &b);
    for (size_t i = 0; i < sizeof bad_descs / sizeof bad_descs[0]; i++) {
        const bad_desc *t = &bad_descs[i];
        kf_follower_desc d;
        kf_follower_desc_init(&d, t->node);
        d.name = t->what;
        d.initial_value = t->v;
        d.initial_value_count = t->value_count;
        d.initial_destination = t->v;
        d.initial_destination_count = t->destination_count;
        if (t->duration != KEEP)
            d.duration = t->duration;
        if (t->tau != KEEP)
            d.tau = t->tau;
        if (t->tolerance != KEEP)
            d.tolerance = t->tolerance;
        d.order = t->order;
        kf_error e;
        kf_result r = kf_builder_add_follower(b, &d, &e);
        CHECK(r == t->expect && e.result == r, "%s: %s (%s)", t->what, kf_result_name(r),
              e.message);
        CHECK(e.field == t->field && e.item == t->item && e.object == 0,
              "%s: field %d item %u object %u", t->what, (int)e.field, e.item, e.object);
        CHECK(strstr(e.message, t->says) != NULL, "%s: message '%s'", t->what, e.message);
    }
    CHECK(kf_anim_count(NULL, KF_KIND_FOLLOWER) == 0, "nothing");

    /* Names: non-empty, unique among all animators. */
    kf_follower_desc d;
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_SCALAR_CHASER);
    kf_error e;
    d.name = "";
    CHECK(kf_builder_add_follower(b, &d, &e) == KF_ERROR_VALUE && e.field == KF_FIELD_NAME,
          "empty");
    d.name = "a";
    CHECK(kf_builder_add_follower(b, &d, &e) == KF_OK, "a: %s", e.message);
    CHECK(kf_builder_add_follower(b, &d, &e) == KF_ERROR_DUPLICATE, "a twice");
    static const double t[1] = {0}, v[1] = {1};
    kf_sequence_desc s = {.name = "a",
                          .interpolation = KF_INTERPOLATION_LINEAR,
                          .duration = 1,
                          .components = 1,
                          .key_count = 1,
                          .times = t,
                          .values = v};
    CHECK(kf_builder_add_sequence(b, &s, &e) == KF_ERROR_DUPLICATE,
          "a sequence named like a follower");
    s.name = "seq";
    CHECK(kf_builder_add_sequence(b, &s, &e) == KF_OK, "seq");
    d.name = "seq";
    CHECK(kf_builder_add_follower(b, &d, &e) == KF_ERROR_DUPLICATE,
          "a follower named like a sequence");
    d.name = "b";
    d.initial_value_count = 1; /* with no array */
    CHECK(kf_builder_add_follower(b, &d, &e) == KF_ERROR_ARGUMENT &&
              e.field == KF_FIELD_INITIAL_VALUE,
          "count without numbers");
    CHECK(kf_builder_add_follower(NULL, &d, &e) == KF_ERROR_ARGUMENT, "no builder");

    /* Tracks: a follower's values must fit the target. */
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_builder_add_controller(b, &c, &e);
    kf_track_desc track = {"a", "c", "n.translation", 0};
    CHECK(kf_builder_add_track(b, &track, &e) == KF_ERROR_VALUE &&
              strstr(e.message, "does not take 1 component, only 3"),
          "scalar into translation: %s", e.message);
    track.target = "n.alpha";
    CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "scalar into alpha: %s", e.message);
    kf_builder_destroy(b);
}

/* ---- stored form, defaults, round trip ---------------------------------------- */

static kf_builder *rich(void)
{
    static const double rot[4] = {1, 1, 0, -2}, rgb[3] = {1, 0.5, 0}, pts[6] = {0, 1, 2, 3, 4, 5};
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_follower_desc d;
    for (int n = 0; n < KF_FOLLOWER_NODE_COUNT; n++) {
        char name[32];
        snprintf(name, sizeof name, "f%d", n);
        kf_follower_desc_init(&d, (kf_follower_node)n);
        d.name = name;
        if (n == KF_FOLLOWER_NODE_ORIENTATION_CHASER || n == KF_FOLLOWER_NODE_ORIENTATION_DAMPER) {
            d.initial_destination = rot;
            d.initial_destination_count = 4;
        } else if (n == KF_FOLLOWER_NODE_COLOR_CHASER || n == KF_FOLLOWER_NODE_COLOR_DAMPER) {
            d.initial_value = rgb;
            d.initial_value_count = 3;
        } else if (kf_follower_node_is_array((kf_follower_node)n)) {
            d.initial_value = pts;
            d.initial_value_count = 6;
        }
        d.duration = 0.1 * n;
        d.tau = 0.01 * n;
        d.order = n % 6;
        d.tolerance = n % 2 ? -1 : 0.1 * n;
        if (kf_builder_add_follower(b, &d, &e) != KF_OK)
            fprintf(stderr, "%s: %s\n", name, e.message);
    }
    return b;
}

static void stored_form(void)
{
    kf_builder *b = rich();
    test_bytes bytes;
    kf_anim *anim = test_encode_load(b, &bytes);
    kf_builder_destroy(b);
    CHECK(anim && kf_anim_count(anim, KF_KIND_FOLLOWER) == KF_FOLLOWER_NODE_COUNT, "loads");
    if (!anim)
        return;
    for (int n = 0; n < KF_FOLLOWER_NODE_COUNT; n++) {
        const kf_follower_node node = (kf_follower_node)n;
        char name[32];
        snprintf(name, sizeof name, "f%d", n);
        CHECK(kf_anim_find(anim, KF_KIND_FOLLOWER, name) == (uint32_t)n, "%s found", name);
        kf_follower_info info;
        kf_follower_get_info(kf_anim_follower(anim, (uint32_t)n), &info);
        const int damper = kf_follower_node_is_damper(node);
        CHECK(info.node == node && !strcmp(info.name, name), "%s: node", name);
        CHECK(damper ? info.tau == (float)(0.01 * n) && info.duration == 0.0
                     : info.duration == (float)(0.1 * n) && info.tau == 0.0,
              "%s: duration %g tau %g", name, info.duration, info.tau);
        CHECK(info.order == (damper ? (uint32_t)(n % 6) : 0), "%s: order %u", name, info.order);
        CHECK(info.tolerance == (damper && n % 2 == 0 ? (float)(0.1 * n) : -1.0f),
              "%s: tolerance %g", name, info.tolerance);
        const uint32_t fc = kf_follower_node_field_components(node);
        CHECK(info.element_count == (kf_follower_node_is_array(node) ? 6 / fc : 1u), "%s: points",
              name);
        float v[8], dst[8];
        kf_follower_initial(kf_anim_follower(anim, (uint32_t)n), v, dst);
        if (node == KF_FOLLOWER_NODE_ORIENTATION_CHASER ||
            node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER) {
            /* X3D's default 0 1 0 0, and the authored rotation as written. */
            CHECK(v[0] == 0 && v[1] == 1 && v[2] == 0 && v[3] == 0, "%s: default rotation", name);
            CHECK(dst[0] == 1 && dst[1] == 1 && dst[2] == 0 && dst[3] == -2, "%s: as authored",
                  name);
            CHECK(info.components == 4, "%s: quaternion values", name);
        } else if (node == KF_FOLLOWER_NODE_COLOR_CHASER || node == KF_FOLLOWER_NODE_COLOR_DAMPER) {
            CHECK(v[1] == 0.5f && dst[0] == 0.8f && dst[1] == 0.8f && dst[2] == 0.8f,
                  "%s: default colour 0.8", name);
        } else if (kf_follower_node_is_array(node)) {
            CHECK(!memcmp(v, dst, 6 * sizeof *v) && v[5] == 5.0f, "%s: the other field's copy",
                  name);
            CHECK(info.components == 6, "%s: components", name);
        } else {
            for (uint32_t k = 0; k < fc; k++)
                CHECK(v[k] == 0.0f && dst[k] == 0.0f, "%s: default 0", name);
        }
    }
    /* The orientation state starts from the stored quaternions: the
     * destination of f3 (axis (1,1,0), -2 rad) once the chaser is done. */
    kf_follower_state *s;
    kf_follower_state_create(kf_anim_follower(anim, KF_FOLLOWER_NODE_ORIENTATION_CHASER), 0, NULL,
                             &s);
    kf_follower_update(s, 100.0);
    float want[4];
    kf_axis_angle_to_quat((const float[4]){1, 1, 0, -2}, want);
    const float *q = kf_follower_value(s);
    double c = fabs((double)q[0] * want[0] + (double)q[1] * want[1] + (double)q[2] * want[2] +
                    (double)q[3] * want[3]);
    CHECK(c > 1 - 1e-12 && !kf_follower_is_active(s), "the stored destination quaternion");
    kf_follower_state_destroy(s);

    /* Decoding and encoding again gives the same bytes. */
    test_bytes again = {0};
    kf_allocator a = kf_allocator_or_default(NULL);
    CHECK(kf_write_objects(&a, &anim->objects, 9, KFB_VERSION_MAJOR, NULL, test_bytes_write, &again,
                           NULL) == KF_OK &&
              again.size == bytes.size && !memcmp(again.data, bytes.data, bytes.size),
          "decode -> encode is the identity (%zu vs %zu bytes)", again.size, bytes.size);
    free(again.data);
    free(bytes.data);
    kf_anim_free(anim);
}

/* ---- damaged follower records ---------------------------------------------- */

/* File order of the base file's objects. */
enum { F_POS, F_ROT, F_ARRAY, F_COLOR, CONTROLLER, TARGET_T, TARGET_R, TRACK_T, TRACK_R };
/* Word index of each kfb_follower field. */
enum { W_NAME, W_NODE, W_COUNT, W_DURATION, W_ORDER, W_TOLERANCE, W_VALUE, W_DEST, W_ROTATIONS };

static kf_builder *base_builder(void)
{
    static const double p[3] = {1, 2, 3}, r[4] = {0, 0, 1, 1}, pts[6] = {0, 1, 2, 3, 4, 5},
                        rgb[3] = {0.5, 0.5, 1};
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_follower_desc d[4];
    kf_follower_desc_init(&d[0], KF_FOLLOWER_NODE_POSITION_CHASER);
    d[0].name = "pos";
    d[0].initial_value = p;
    d[0].initial_value_count = 3;
    kf_follower_desc_init(&d[1], KF_FOLLOWER_NODE_ORIENTATION_DAMPER);
    d[1].name = "rot";
    d[1].initial_destination = r;
    d[1].initial_destination_count = 4;
    kf_follower_desc_init(&d[2], KF_FOLLOWER_NODE_COORDINATE_CHASER);
    d[2].name = "mesh";
    d[2].initial_value = pts;
    d[2].initial_value_count = 6;
    kf_follower_desc_init(&d[3], KF_FOLLOWER_NODE_COLOR_CHASER);
    d[3].name = "tint";
    d[3].initial_value = rgb;
    d[3].initial_value_count = 3;
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc t[2] = {{"pos", "c", "n.translation", 0}, {"rot", "c", "n.orientation", 0}};
    for (int i = 0; i < 4; i++)
        if (kf_builder_add_follower(b, &d[i], &e) != KF_OK)
            fprintf(stderr, "base: %s\n", e.message);
    kf_builder_add_controller(b, &c, &e);
    kf_builder_add_track(b, &t[0], &e);
    kf_builder_add_track(b, &t[1], &e);
    return b;
}

typedef struct damage {
    const char *what;
    unsigned object;
    int data; /* 0: patch word `word` of the object; 1: patch the data
                       word `word` after the array the object's word `array`
                       points at */
    unsigned array, word;
    uint32_t value;
    kf_result expect;
} damage;

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void damaged_records(void)
{
    const damage table[] = {
        {"unknown node", F_POS, 0, 0, W_NODE, 99, KF_ERROR_VALUE},
        {"a position chaser turned rotation: no quaternions", F_POS, 0, 0, W_NODE,
         KFB_FOLLOWER_ORIENTATION_CHASER, KF_ERROR_REFERENCE},
        {"a chaser with an order", F_POS, 0, 0, W_ORDER, 1, KF_ERROR_VALUE},
        {"a chaser with a tolerance", F_POS, 0, 0, W_TOLERANCE, bits(0.5f), KF_ERROR_VALUE},
        {"negative duration", F_POS, 0, 0, W_DURATION, bits(-1.0f), KF_ERROR_VALUE},
        {"NaN duration", F_POS, 0, 0, W_DURATION, 0x7FC00000u, KF_ERROR_VALUE},
        {"a single value stored as 2 points", F_POS, 0, 0, W_COUNT, 2, KF_ERROR_VALUE},
        {"an array of 0 points", F_ARRAY, 0, 0, W_COUNT, 0, KF_ERROR_VALUE},
        {"an array of 2^31 points", F_ARRAY, 0, 0, W_COUNT, 0x80000000u, KF_ERROR_VALUE},
        {"an array running past the data", F_ARRAY, 0, 0, W_COUNT, 100000, KF_ERROR_REFERENCE},
        {"initialValue outside the data", F_POS, 0, 0, W_VALUE, 0xFFFFFFF0u, KF_ERROR_REFERENCE},
        {"initialDestination outside the data", F_ROT, 0, 0, W_DEST, 1u << 30, KF_ERROR_REFERENCE},
        {"quaternions on a position", F_POS, 0, 0, W_ROTATIONS, 0, KF_ERROR_VALUE},
        {"a rotation without quaternions", F_ROT, 0, 0, W_ROTATIONS, KFB_NONE, KF_ERROR_REFERENCE},
        {"quaternions outside the data", F_ROT, 0, 0, W_ROTATIONS, 0xFFFFFFFEu, KF_ERROR_REFERENCE},
        {"order 6", F_ROT, 0, 0, W_ORDER, 6, KF_ERROR_VALUE},
        {"tolerance -2", F_ROT, 0, 0, W_TOLERANCE, bits(-2.0f), KF_ERROR_VALUE},
        {"infinite tau", F_ROT, 0, 0, W_DURATION, 0x7F800000u, KF_ERROR_VALUE},
        {"name outside the strings", F_POS, 0, 0, W_NAME, 1u << 20, KF_ERROR_STRING},
        {"NaN in initialValue", F_POS, 1, W_VALUE, 1, 0x7FC00000u, KF_ERROR_VALUE},
        {"NaN in point 1 of initialDestination", F_ARRAY, 1, W_DEST, 4, 0xFFC00000u,
         KF_ERROR_VALUE},
        {"colour component 1.5", F_COLOR, 1, W_VALUE, 2, bits(1.5f), KF_ERROR_VALUE},
        /* rot's quaternions: identity, then (0, 0, sin 0.5, cos 0.5). */
        {"a quaternion of another rotation", F_ROT, 1, W_ROTATIONS, 6, bits(-0.47942554f),
         KF_ERROR_VALUE},
        {"the negated quaternion: the same rotation", F_ROT, 1, W_ROTATIONS, 3, bits(-1.0f), KF_OK},
        {"a quaternion not of unit length", F_ROT, 1, W_ROTATIONS, 3, bits(2.0f), KF_ERROR_VALUE},
        {"a NaN quaternion", F_ROT, 1, W_ROTATIONS, 0, 0x7FC00000u, KF_ERROR_VALUE},
        {"track of an unknown animator kind", TRACK_T, 0, 0, 0, 7, KF_ERROR_VALUE},
        {"track of follower 4 of 4", TRACK_T, 0, 0, 1, 4, KF_ERROR_REFERENCE},
        {"a 6-number follower into a 3-number target", TRACK_T, 0, 0, 1, 2, KF_ERROR_VALUE},
        {"a rotation follower played as a sequence", TRACK_R, 0, 0, 0, KFB_ANIMATOR_SEQUENCE,
         KF_ERROR_REFERENCE},
        {"follower record one word short", F_POS, 0, 0, (unsigned)-1, 32, KF_ERROR_OBJECT},
    };
    kf_builder *b = base_builder();
    test_bytes plain = {0};
    kf_encode_options o = {sizeof o, 0, 0};
    CHECK(kf_builder_encode(b, &o, test_bytes_write, &plain, NULL) == KF_OK, "encode");
    kf_builder_destroy(b);
    kf_anim *anim;
    CHECK(kf_load_memory(plain.data, plain.size, NULL, &anim, NULL) == KF_OK, "the base loads");
    kf_anim_free(anim);

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const damage *t = &table[i];
        unsigned char *f = malloc(plain.size);
        memcpy(f, plain.data, plain.size);
        craft_section s[3];
        craft_sections(f, plain.size, s);
        size_t body = craft_object(f, plain.size, t->object);
        CHECK(body != 0, "%s: object %u", t->what, t->object);
        if (t->data) {
            uint32_t at = craft_get(f + body + 4 * t->array) + t->word;
            craft_put(f + s[KFB_SECTION_DATA].stored + 4 * (size_t)at, t->value);
        } else if (t->word == (unsigned)-1) {
            craft_put(f + body - 4, t->value); /* the object header's size */
        } else {
            craft_put(f + body + 4 * (size_t)t->word, t->value);
        }
        craft_fix_crcs(f, plain.size);
        kf_error err;
        anim = (kf_anim *)f;
        kf_result r = kf_load_memory(f, plain.size, NULL, &anim, &err);
        CHECK(r == t->expect, "%s: got %s, want %s (%s)", t->what, kf_result_name(r),
              kf_result_name(t->expect), err.message);
        CHECK((r == KF_OK) == (anim != NULL) && (r == KF_OK || err.message[0]),
              "%s: *out or message", t->what);
        if (r == KF_OK)
            kf_anim_free(anim);
        free(f);
    }
    free(plain.data);
}

/* A target no track plays: kfc never writes one, and its component count
 * would be bounded by nothing (here: two tracks into a.translation, none
 * into b.translation any more). */
static void unplayed_target(void)
{
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_follower_desc d;
    kf_follower_desc_init(&d, KF_FOLLOWER_NODE_POSITION_CHASER);
    d.name = "p";
    kf_builder_add_follower(b, &d, &e);
    d.name = "q";
    kf_builder_add_follower(b, &d, &e);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_builder_add_controller(b, &c, &e);
    kf_track_desc t[2] = {{"p", "c", "a.translation", 0}, {"q", "c", "b.translation", 0}};
    kf_builder_add_track(b, &t[0], &e);
    kf_builder_add_track(b, &t[1], &e);
    test_bytes plain = {0};
    kf_encode_options o = {sizeof o, 0, 0};
    kf_builder_encode(b, &o, test_bytes_write, &plain, NULL);
    kf_builder_destroy(b);
    /* objects: p, q, c, a.translation, b.translation, track 0, track 1 */
    size_t body = craft_object(plain.data, plain.size, 6);
    CHECK(body && craft_get(plain.data + body + 12) == 1, "track 1 plays target 1");
    craft_put(plain.data + body + 12, 0);
    craft_fix_crcs(plain.data, plain.size);
    kf_anim *anim;
    kf_error err;
    kf_result r = kf_load_memory(plain.data, plain.size, NULL, &anim, &err);
    CHECK(r == KF_ERROR_VALUE && strstr(err.message, "'b.translation') is played by no track"),
          "an unplayed target: %s (%s)", kf_result_name(r), err.message);
    free(plain.data);
}

int main(void)
{
    builder_errors();
    stored_form();
    damaged_records();
    unplayed_target();
    return kf_test_report("test_follower_format");
}
