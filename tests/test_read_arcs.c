/* SPDX-License-Identifier: MIT */
/*
 * test_read_arcs.c - the slerp arcs the writer stores (formats/kfb.md):
 * their values for known keys, the loader's range checks on each damaged
 * arc (exact result code and field), and the sharing of equal key times.
 */
#include <stdlib.h>

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
    /* 0 -> 1: a quarter of pi; 1 -> 2: equal keys; 2 -> 3 and the LOOP wrap
     * 3 -> 0: across hemispheres. */
    const float want[8] = {(float)theta, (float)(theta / sin(theta)), 0, 1, -1, 0, -1, 0};
    for (int k = 0; k < 8; k++) {
        float arc[2];
        kf_key_arc(r, 0, (size_t)k / 2, arc);
        CHECK(fabsf(arc[k % 2] - want[k]) <= 1e-7f, "key arc word %d: %.9g, want %.9g", k,
              arc[k % 2], want[k]);
    }
    CHECK(q->arcs != NULL && q->tangent_out != NULL, "squad arcs and intermediates");
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

int main(void)
{
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
