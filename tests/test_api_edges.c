/* SPDX-License-Identifier: MIT */
/*
 * test_api_edges.c - kf.h's argument rule, function by function: every
 * public call given NULL handles and outputs, KF_NO_INDEX and indices one
 * past the end, and non-finite numbers returns what the rule says
 * (KF_ERROR_ARGUMENT, NULL, 0, an empty info) and changes nothing. Run under
 * ASan/UBSan, a crash or an out-of-range read fails the test too. Also: the
 * setters refuse non-finite values, and controllers stay finite whatever
 * finite arguments they are given. Every function kf.h and kf_build.h mark
 * KF_API is called here (tests/test_api_coverage.py checks that). And a
 * name an error message quotes is quoted as kfc and kfplay quote one: two
 * names print apart, and the message stays one line.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "test_util.h"

static const uint32_t bad_indices[] = {KF_NO_INDEX, 1000000u};

static void empty_infos(const kf_anim *anim)
{
    kf_controller_info ci;
    kf_target_info ti;
    kf_track_info tr;
    for (size_t k = 0; k < 3; k++) {
        const kf_anim *a = k == 2 ? NULL : anim;
        uint32_t i = k == 2 ? 0 : bad_indices[k];
        memset(&ci, 0x55, sizeof ci);
        memset(&ti, 0x55, sizeof ti);
        memset(&tr, 0x55, sizeof tr);
        kf_anim_controller_info(a, i, &ci);
        kf_anim_target_info(a, i, &ti);
        kf_anim_track_info(a, i, &tr);
        CHECK(ci.name && !*ci.name && ci.speed == 0 && ci.weight == 0, "controller info %zu", k);
        CHECK(ti.name && !*ti.name && ti.components == 0 && ti.property == KF_PROPERTY_CUSTOM,
              "target info %zu", k);
        CHECK(tr.animator == KF_NO_INDEX && tr.controller == KF_NO_INDEX &&
                  tr.target == KF_NO_INDEX && tr.ease == KF_NO_INDEX,
              "track info %zu", k);
        CHECK(kf_anim_target_blend(a, i) == KF_BLEND_SUM, "target blend %zu", k);
        /* NULL outputs are ignored. */
        kf_anim_controller_info(a, i, NULL);
        kf_anim_target_info(a, i, NULL);
        kf_anim_track_info(a, i, NULL);
        kf_anim_controller_info(anim, 0, NULL);
        kf_anim_target_info(anim, 0, NULL);
        kf_anim_track_info(anim, 0, NULL);
    }
    CHECK(kf_anim_sequence(anim, KF_NO_INDEX) == NULL, "sequence");
    CHECK(kf_anim_interpolator(anim, KF_NO_INDEX) == NULL, "interpolator");
    CHECK(kf_anim_follower(anim, KF_NO_INDEX) == NULL, "follower");
    CHECK(kf_anim_count(NULL, KF_KIND_TARGET) == 0, "count");
    CHECK(kf_anim_count(anim, (kf_kind)99) == 0, "count of a bad kind");
    CHECK(kf_anim_find(anim, KF_KIND_TARGET, NULL) == KF_NO_INDEX, "find");
    CHECK(kf_anim_find(NULL, KF_KIND_TARGET, "x") == KF_NO_INDEX, "find");
}

static void null_objects(void)
{
    float out[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    double d = 7;
    kf_cursor cursor = KF_CURSOR_INIT;
    kf_sequence_info si;
    memset(&si, 0x55, sizeof si);
    kf_sequence_get_info(NULL, &si);
    CHECK(si.name && !*si.name && si.key_count == 0 && si.components == 0, "sequence info");
    kf_sequence_get_info(NULL, NULL);
    CHECK(kf_sequence_components(NULL) == 0, "components");
    float t = 3;
    kf_sequence_key(NULL, 0, &t, out);
    kf_sequence_key_tcb(NULL, 0, NULL);
    kf_sequence_key_tcb(NULL, 0, out);
    kf_sequence_sample(NULL, 0, &cursor, out);
    kf_sequence_sample(NULL, 0, NULL, NULL);
    CHECK(kf_sequence_velocity(NULL, 0, NULL, out) == KF_ERROR_ARGUMENT, "velocity");
    CHECK(kf_sequence_acceleration(NULL, 0, NULL, out) == KF_ERROR_ARGUMENT, "acceleration");
    CHECK(kf_sequence_length(NULL, &d) == KF_ERROR_ARGUMENT, "length");
    CHECK(kf_sequence_segment_length(NULL, 0, &d) == KF_ERROR_ARGUMENT, "segment");
    CHECK(kf_sequence_distance(NULL, 0, &d) == KF_ERROR_ARGUMENT, "distance");
    CHECK(kf_sequence_sample_distance(NULL, 0, out, &d) == KF_ERROR_ARGUMENT, "sample distance");

    kf_interpolator_info ii;
    memset(&ii, 0x55, sizeof ii);
    kf_interpolator_get_info(NULL, &ii);
    CHECK(ii.name && !*ii.name && ii.key_count == 0, "interpolator info");
    kf_interpolator_get_info(NULL, NULL);
    CHECK(kf_interpolator_components(NULL) == 0, "interpolator components");
    kf_interpolator_sample(NULL, 0.5, &cursor, out);
    kf_interpolator_sample(NULL, 0.5, NULL, NULL);
    CHECK(kf_interpolator_ease(NULL, 0.25) == 0.25, "ease of nothing is the identity");
    kf_quat_to_axis_angle(NULL, out);
    kf_quat_to_axis_angle(out, NULL);
    kf_axis_angle_to_quat(NULL, out);
    kf_axis_angle_to_quat(out, NULL);

    kf_follower_node node = KF_FOLLOWER_NODE_SCALAR_CHASER;
    CHECK(!kf_follower_node_from_name(NULL, &node), "node from NULL");
    CHECK(!kf_follower_node_from_name("ScalarChaser", NULL) || 1, "NULL node output");
    kf_follower_node_initial((kf_follower_node)99, out);
    kf_follower_node_initial(KF_FOLLOWER_NODE_SCALAR_CHASER, NULL);
    kf_follower_info fi;
    memset(&fi, 0x55, sizeof fi);
    kf_follower_get_info(NULL, &fi);
    CHECK(fi.name && !*fi.name && fi.components == 0, "follower info");
    kf_follower_get_info(NULL, NULL);
    CHECK(kf_follower_components(NULL) == 0, "follower components");
    kf_follower_initial(NULL, out, out);
    CHECK(kf_follower_state_size(NULL, 0) == 0, "state size");
    unsigned char mem[64];
    CHECK(kf_follower_state_init(mem, sizeof mem, NULL, 0) == NULL, "init");
    kf_follower_state *fs = (kf_follower_state *)mem;
    CHECK(kf_follower_state_create(NULL, 0, NULL, &fs) == KF_ERROR_ARGUMENT && !fs, "create");
    kf_follower_state_destroy(NULL);
    kf_follower_reset(NULL, 0);
    CHECK(kf_follower_set_destination(NULL, out, 0) == KF_ERROR_ARGUMENT, "destination");
    CHECK(kf_follower_set_value(NULL, out, 0) == KF_ERROR_ARGUMENT, "value");
    kf_follower_update(NULL, 0);
    CHECK(kf_follower_value(NULL) == NULL, "value");
    CHECK(kf_follower_is_active(NULL) == 0, "active");
    CHECK(kf_follower_state_follower(NULL) == NULL, "follower");
    CHECK(kf_follower_pending(NULL) == 0, "pending");
    CHECK(kf_follower_capacity(NULL) == 0, "capacity");

    CHECK(kf_property_from_name(NULL) == KF_PROPERTY_CUSTOM, "property from NULL");
    kf_property_rest_value(KF_PROPERTY_TRANSLATION, 3, NULL);
    kf_property_rest_value((kf_property)99, 2, out);
    CHECK(out[0] == 0 && out[1] == 0, "rest value of an unknown property is zero");

    kf_player *p = (kf_player *)mem;
    CHECK(kf_player_create(NULL, NULL, &p) == KF_ERROR_ARGUMENT && !p, "player of nothing");
    size_t bytes = 9;
    CHECK(kf_player_size(NULL, &bytes) == KF_ERROR_ARGUMENT && bytes == 0, "size of nothing");
    kf_player_destroy(NULL);
    kf_player_reset(NULL);
    kf_player_update(NULL, 1.0);
    CHECK(kf_player_value(NULL, 0) == NULL, "player value");
    CHECK(kf_player_set_value(NULL, 0, out) == KF_ERROR_ARGUMENT, "player set value");
    CHECK(kf_player_follower(NULL, 0) == NULL, "player follower");
    CHECK(kf_player_follower_set_destination(NULL, 0, out, 0) == KF_ERROR_ARGUMENT, "dest");
    CHECK(kf_player_follower_set_value(NULL, 0, out, 0) == KF_ERROR_ARGUMENT, "value");
    CHECK(kf_player_controller(NULL, 0) == NULL, "controller");
    CHECK(kf_player_controller_const(NULL, 0) == NULL, "controller");

    kf_controller_info ci;
    memset(&ci, 0x55, sizeof ci);
    kf_controller_get_info(NULL, &ci);
    CHECK(ci.name && !*ci.name && ci.speed == 0, "controller info");
    kf_controller_get_info(NULL, NULL);
    CHECK(kf_controller_position(NULL, 5) == 0, "position");
    CHECK(kf_controller_is_active(NULL, 5) == 0, "active");
    CHECK(kf_controller_set_position(NULL, 1, 2) == KF_ERROR_ARGUMENT, "set position");
    CHECK(kf_controller_set_speed(NULL, 1, 2) == KF_ERROR_ARGUMENT, "set speed");
    CHECK(kf_controller_set_weight(NULL, 1) == KF_ERROR_ARGUMENT, "set weight");
    CHECK(kf_controller_set_active_interval(NULL, 1, 2) == KF_ERROR_ARGUMENT, "interval");

    CHECK(kf_load_memory(NULL, 5, NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "load");
    CHECK(kf_load_stream(NULL, NULL, NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "stream");
    CHECK(kf_load_file(NULL, NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "file");
    kf_anim_free(NULL);
    CHECK(kf_result_message((kf_result)-5) != NULL && kf_result_name((kf_result)999) != NULL,
          "messages");

    /* The builder. */
    kf_builder *b = (kf_builder *)mem;
    CHECK(kf_builder_create(NULL, NULL) == KF_ERROR_ARGUMENT, "builder create");
    kf_builder_destroy(NULL);
    kf_sequence_desc_init(NULL);
    kf_follower_desc_init(NULL, KF_FOLLOWER_NODE_SCALAR_CHASER);
    kf_controller_desc_init(NULL);
    kf_interpolator_desc_init(NULL);
    CHECK(kf_builder_add_sequence(NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "add sequence");
    CHECK(kf_builder_add_follower(NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "add follower");
    CHECK(kf_builder_add_controller(NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "add controller");
    CHECK(kf_builder_add_interpolator(NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "add ipl");
    CHECK(kf_builder_add_track(NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "add track");
    CHECK(kf_builder_add_interpolator_track(NULL, NULL, NULL, NULL) == KF_ERROR_ARGUMENT,
          "add interpolator track");
    CHECK(kf_builder_encode(NULL, NULL, NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "encode");
    CHECK(kf_builder_compress_ahead(NULL, 1) == KF_ERROR_ARGUMENT, "compress ahead");
    CHECK(kf_builder_count(NULL, KF_KIND_SEQUENCE) == 0, "count of no builder");
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "builder");
    CHECK(kf_builder_count(b, KF_KIND_TRACK) == 0 && kf_builder_count(b, KF_KIND_COUNT) == 0 &&
              kf_builder_count(b, (kf_kind)-1) == 0,
          "count of an empty builder, and of kinds that are none");
    CHECK(kf_builder_add_sequence(b, NULL, NULL) == KF_ERROR_ARGUMENT, "add NULL sequence");
    CHECK(kf_builder_add_follower(b, NULL, NULL) == KF_ERROR_ARGUMENT, "add NULL follower");
    CHECK(kf_builder_add_controller(b, NULL, NULL) == KF_ERROR_ARGUMENT, "add NULL controller");
    CHECK(kf_builder_add_interpolator(b, NULL, NULL) == KF_ERROR_ARGUMENT, "add NULL ipl");
    CHECK(kf_builder_add_track(b, NULL, NULL) == KF_ERROR_ARGUMENT, "add NULL track");
    CHECK(kf_builder_add_interpolator_track(b, NULL, NULL, NULL) == KF_ERROR_ARGUMENT,
          "add NULL interpolator track");
    CHECK(kf_builder_set_target_blend(NULL, "a.b", KF_BLEND_LATEST, NULL) == KF_ERROR_ARGUMENT &&
              kf_builder_set_target_blend(b, NULL, KF_BLEND_LATEST, NULL) == KF_ERROR_ARGUMENT &&
              kf_builder_set_target_blend(b, "a.b", (kf_blend)-1, NULL) == KF_ERROR_ARGUMENT &&
              kf_builder_set_target_blend(b, "a.b", KF_BLEND_SUM, NULL) == KF_ERROR_NOT_FOUND,
          "set blend: no builder, no target, no such blend, no such target");
    CHECK(kf_builder_encode(b, NULL, NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "encode NULL");
    kf_builder_destroy(b);
}

static void player_edges(const kf_anim *anim)
{
    kf_player *p;
    CHECK(kf_player_create(anim, NULL, NULL) == KF_ERROR_ARGUMENT, "NULL out");
    size_t bytes = 0;
    CHECK(kf_player_size(anim, NULL) == KF_ERROR_ARGUMENT, "NULL size out");
    CHECK(kf_player_size(anim, &bytes) == KF_OK && bytes > 0, "size");
    if (kf_player_create(anim, NULL, &p) != KF_OK)
        return;
    float v[8] = {0};
    for (size_t k = 0; k < 2; k++) {
        uint32_t i = bad_indices[k];
        CHECK(kf_player_value(p, i) == NULL, "value of a bad target");
        CHECK(kf_player_set_value(p, i, v) == KF_ERROR_ARGUMENT, "set a bad target");
        CHECK(kf_player_follower(p, i) == NULL, "bad track's follower");
        CHECK(kf_player_follower_set_destination(p, i, v, 0) == KF_ERROR_ARGUMENT, "bad track");
        CHECK(kf_player_follower_set_value(p, i, v, 0) == KF_ERROR_ARGUMENT, "bad track");
        CHECK(kf_player_controller(p, i) == NULL, "bad controller");
        CHECK(kf_player_controller_const(p, i) == NULL, "bad controller");
    }
    CHECK(kf_player_set_value(p, 0, NULL) == KF_ERROR_ARGUMENT, "NULL value");
    /* Non-finite values are refused, and leave the target as it was. */
    kf_player_update(p, 100);
    kf_target_info ti;
    kf_anim_target_info(anim, 0, &ti);
    float before[64], bad[64];
    memcpy(before, kf_player_value(p, 0), ti.components * sizeof(float));
    for (int k = 0; k < 3; k++) {
        memcpy(bad, before, sizeof before);
        bad[ti.components - 1] = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        CHECK(kf_player_set_value(p, 0, bad) == KF_ERROR_ARGUMENT, "non-finite value %d", k);
        CHECK(memcmp(kf_player_value(p, 0), before, ti.components * sizeof(float)) == 0,
              "unchanged after a refused value");
    }
    kf_player_destroy(p);
}

/* Finite arguments keep a controller's position finite at finite times. */
static void controller_stays_finite(const kf_anim *anim)
{
    kf_player *p;
    if (kf_player_create(anim, NULL, &p) != KF_OK)
        return;
    kf_controller *c = kf_player_controller(p, 0);
    static const double huge[] = {DBL_MAX, -DBL_MAX, 1e300, -1e300, 1e-300, 0.0, 1.0};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++)
        for (size_t j = 0; j < sizeof huge / sizeof huge[0]; j++)
            for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
                kf_player_reset(p);
                kf_result r1 = kf_controller_set_position(c, huge[i], huge[j]);
                kf_result r2 = kf_controller_set_speed(c, huge[k], huge[(j + 1) % 7]);
                CHECK(r1 == KF_OK || r1 == KF_ERROR_ARGUMENT, "position result");
                CHECK(r2 == KF_OK || r2 == KF_ERROR_ARGUMENT, "speed result");
                kf_controller_info info;
                kf_controller_get_info(c, &info);
                CHECK(isfinite(info.ref_world) && isfinite(info.ref_sequence) &&
                          isfinite(info.speed),
                      "state finite (%zu %zu %zu)", i, j, k);
                for (size_t w = 0; w < sizeof huge / sizeof huge[0]; w++) {
                    double pos = kf_controller_position(c, huge[w]);
                    CHECK(isfinite(pos), "position at %g finite (%zu %zu %zu): %g", huge[w], i, j,
                          k, pos);
                }
                kf_player_update(p, huge[k]);
                for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
                    kf_target_info ti;
                    kf_anim_target_info(anim, t, &ti);
                    for (uint32_t e = 0; e < ti.components; e++)
                        CHECK(isfinite(kf_player_value(p, t)[e]), "target %u finite", t);
                }
            }
    /* Speed 0 pauses, even when the time difference overflows. */
    kf_player_reset(p);
    CHECK(kf_controller_set_position(c, 5.0, -DBL_MAX) == KF_OK, "position");
    CHECK(kf_controller_set_speed(c, 0.0, -DBL_MAX) == KF_OK, "speed 0");
    CHECK(kf_controller_position(c, DBL_MAX) == 5.0, "paused at 5: %g",
          kf_controller_position(c, DBL_MAX));
    kf_player_destroy(p);
}

/* The name and code lookups given codes no enumeration has (the count, far
 * past it, and -1 as the caller's cast makes it), and key_tangents given
 * no sequence or a bad index: NULL, 0 or nothing written, never a crash. */
static void code_edges(const kf_anim *anim)
{
    CHECK(kf_version() && kf_version()[0], "version");
    CHECK(strncmp(kf_inflate_library(), "ISA-L ", 6) == 0 ||
              strncmp(kf_inflate_library(), "zlib ", 5) == 0,
          "inflate library: %s", kf_inflate_library());
    CHECK(strcmp(kf_kind_name(KF_KIND_FOLLOWER), "follower") == 0 &&
              strcmp(kf_kind_name(KF_KIND_COUNT), "unknown") == 0,
          "kind names of a follower and of the count");
    const int bad[] = {-1, 99, 1 << 30};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const int k = bad[i];
        /* kind names are for messages: never NULL */
        CHECK(strcmp(kf_kind_name((kf_kind)k), "unknown") == 0, "kind %d", k);
        CHECK(kf_interpolation_name((kf_interpolation)k) == NULL, "interpolation %d", k);
        CHECK(kf_repeat_name((kf_repeat)k) == NULL, "repeat %d", k);
        CHECK(kf_node_name((kf_node)k) == NULL && kf_node_dimension((kf_node)k) == 0, "node %d", k);
        CHECK(kf_follower_node_name((kf_follower_node)k) == NULL &&
                  !kf_follower_node_is_damper((kf_follower_node)k) &&
                  !kf_follower_node_is_array((kf_follower_node)k) &&
                  kf_follower_node_field_components((kf_follower_node)k) == 0,
              "follower node %d", k);
        CHECK(kf_property_name((kf_property)k) == NULL && !kf_property_accepts((kf_property)k, 3),
              "property %d", k);
    }
    CHECK(kf_node_name(KF_NODE_COUNT) == NULL && kf_node_dimension(KF_NODE_COUNT) == 0,
          "node count");
    CHECK(kf_follower_node_name(KF_FOLLOWER_NODE_COUNT) == NULL &&
              kf_follower_node_field_components(KF_FOLLOWER_NODE_COUNT) == 0,
          "follower node count");
    CHECK(kf_property_name(KF_PROPERTY_COUNT) == NULL &&
              kf_property_name(KF_PROPERTY_CUSTOM) == NULL &&
              !kf_property_accepts(KF_PROPERTY_COUNT, 1),
          "property count");
    /* Every name back to its property, and names beside them to none. */
    for (int k = 1; k < KF_PROPERTY_COUNT; k++) {
        const char *name = kf_property_name((kf_property)k);
        char near[64];
        CHECK(name && kf_property_from_name(name) == (kf_property)k, "property %d by name", k);
        snprintf(near, sizeof near, "%s_", name ? name : "");
        CHECK(kf_property_from_name(near) == KF_PROPERTY_CUSTOM, "'%s' is no property", near);
        snprintf(near, sizeof near, "%.*s", name ? (int)strlen(name) - 1 : 0, name ? name : "");
        CHECK(kf_property_from_name(near) == KF_PROPERTY_CUSTOM, "'%s' is no property", near);
    }
    CHECK(kf_property_from_name("") == KF_PROPERTY_CUSTOM &&
              kf_property_from_name("zzz") == KF_PROPERTY_CUSTOM,
          "names that start as none does");
    CHECK(!kf_property_accepts(KF_PROPERTY_TRANSLATION, 0) &&
              !kf_property_accepts(KF_PROPERTY_TRANSLATION, UINT32_MAX) &&
              kf_property_accepts(KF_PROPERTY_TRANSLATION, 3),
          "translation takes 3 components");
    CHECK(kf_interpolation_name(KF_INTERPOLATION_LINEAR) && kf_repeat_name(KF_REPEAT_LOOP) &&
              kf_node_name(KF_NODE_EASE_IN_EASE_OUT) &&
              kf_follower_node_name(KF_FOLLOWER_NODE_SCALAR_CHASER) &&
              kf_property_name(KF_PROPERTY_TRANSLATION),
          "the codes that exist have names");

    /* kf_sequence_key_tangents: no sequence writes nothing (its width is
     * unknown); a bad index writes the sequence's width of zeros. */
    float in[8] = {5, 5, 5, 5, 5, 5, 5, 5}, out[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    kf_sequence_key_tangents(NULL, 0, in, out);
    kf_sequence_key_tangents(NULL, KF_NO_INDEX, NULL, NULL);
    CHECK(in[0] == 5 && out[0] == 5, "no sequence: nothing written");
    const kf_sequence *seq = kf_anim_sequence(anim, 0);
    const uint32_t c = kf_sequence_components(seq);
    if (seq && c <= 8) {
        for (size_t k = 0; k < 2; k++) {
            kf_sequence_key_tangents(seq, bad_indices[k], in, out);
            int zero = 1;
            for (uint32_t j = 0; j < c; j++)
                zero &= in[j] == 0 && out[j] == 0;
            CHECK(zero, "bad index %zu: zeros", k);
        }
        kf_sequence_key_tangents(seq, 0, NULL, NULL);
    }

    /* kf_sequence_key_intermediates: the same rule; other interpolations
     * give zeros; a squad's are unit quaternions, those its keys derive
     * (kf_sequence_intermediates_given 0, as for no sequence and others). */
    float a[4] = {5, 5, 5, 5}, bq[4] = {5, 5, 5, 5};
    kf_sequence_key_intermediates(NULL, 0, a, bq);
    kf_sequence_key_intermediates(NULL, 0, NULL, NULL);
    CHECK(a[0] == 5 && bq[0] == 5, "intermediates, no sequence: nothing written");
    CHECK(kf_sequence_intermediates_given(NULL) == 0 && kf_sequence_intermediates_given(seq) == 0,
          "intermediates given: no sequence, not a squad");
    kf_sequence_key_intermediates(seq, 0, a, bq);
    CHECK(a[0] == 0 && a[3] == 0 && bq[0] == 0 && bq[3] == 0, "intermediates of no squad: zeros");
    const kf_sequence *squad =
        kf_anim_sequence(anim, kf_anim_find(anim, KF_KIND_SEQUENCE, "squad"));
    CHECK(squad && kf_sequence_intermediates_given(squad) == 0, "squad: intermediates derived");
    for (uint32_t k = 0; squad && k < 4; k++) {
        kf_sequence_key_intermediates(squad, k, a, bq);
        const double na = (double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2] +
                          (double)a[3] * a[3],
                     nb = (double)bq[0] * bq[0] + (double)bq[1] * bq[1] + (double)bq[2] * bq[2] +
                          (double)bq[3] * bq[3];
        CHECK(fabs(na - 1) < 1e-6 && fabs(nb - 1) < 1e-6, "squad key %u: unit a, b", k);
    }
    for (size_t k = 0; squad && k < 2; k++) {
        kf_sequence_key_intermediates(squad, bad_indices[k], a, bq);
        CHECK(a[0] == 0 && a[3] == 0 && bq[1] == 0 && bq[3] == 0, "squad, bad index: zeros");
    }

    /* kf_builder_reduce: no builder or bounds is refused; bounds that are
     * not positive finite numbers leave everything lossless. */
    const double bounds[KF_BOUND_COUNT] = {NAN, -1.0, INFINITY, 0.0};
    double worst[KF_BOUND_COUNT] = {7, 7, 7, 7};
    kf_error error;
    CHECK(kf_builder_reduce(NULL, bounds, worst, &error) == KF_ERROR_ARGUMENT, "reduce NULL");
    kf_builder *b = test_rich_builder();
    if (b) {
        CHECK(kf_builder_reduce(b, NULL, NULL, NULL) == KF_ERROR_ARGUMENT, "reduce NULL bounds");
        CHECK(kf_builder_reduce(b, bounds, worst, NULL) == KF_OK && worst[0] == 0 &&
                  worst[1] == 0 && worst[2] == 0 && worst[3] == 0,
              "reduce with no usable bound: lossless");
        kf_builder_destroy(b);
    }
}

/* Names are UTF-8 text of Unicode scalar values wherever a byte sits: the
 * check reads eight ASCII bytes at a time, so each form is tried at every
 * place in names of up to 24 bytes, in the builder and through a load. */
static void name_text(void)
{
    static const struct {
        const char *bytes;
        int valid;
    } forms[] = {
        {"\xC3\xA9", 1},
        {"\xF4\x8F\xBF\xBF", 1},
        {"\xEF\xBF\xBD", 1},
        {"\xFF", 0},
        {"\x80", 0},
        {"\xED\xA0\x80", 0},
        {"\xC0\xAF", 0},
        {"\xE0\x80\xAF", 0},
        {"\xF4\x90\x80\x80", 0},
        {"\xE2\x82", 0} /* cut: at the end of a name, or before an 'a' */,
    };
    static const double t[2] = {0, 1}, v[2] = {0, 1};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        for (size_t at = 0; at <= 20; at++) {
            for (size_t after = 0; after <= 3; after += 3) {
                char name[40];
                memset(name, 'a', at);
                const size_t n = strlen(forms[f].bytes);
                memcpy(name + at, forms[f].bytes, n);
                memset(name + at + n, 'a', after);
                name[at + n + after] = '\0';
                kf_builder *b = NULL;
                CHECK(kf_builder_create(NULL, &b) == KF_OK, "builder");
                if (!b)
                    return;
                kf_sequence_desc d;
                kf_sequence_desc_init(&d);
                d.name = name;
                d.duration = 1;
                d.components = 1;
                d.key_count = 2;
                d.times = t;
                d.values = v;
                kf_error e;
                const kf_result r = kf_builder_add_sequence(b, &d, &e);
                CHECK((r == KF_OK) == forms[f].valid, "form %zu at byte %zu (+%zu): %s", f, at,
                      after, r == KF_OK ? "taken" : e.message);
                if (r == KF_OK && forms[f].valid && after == 0) {
                    kf_anim *anim = test_encode_load(b, NULL);
                    CHECK(anim && kf_anim_find(anim, KF_KIND_SEQUENCE, name) == 0,
                          "form %zu at byte %zu loads", f, at);
                    kf_anim_free(anim);
                }
                kf_builder_destroy(b);
            }
        }
    }
}

/* A name in a message: the bytes a terminal acts on as \xNN, a backslash
 * as \\, a quote as \', a long name cut with "..." (between characters);
 * so ESC and the four characters \x1b print apart. */
static void quoted_names(void)
{
    static const struct {
        const char *name, *want;
    } cases[] = {
        {"a\x1b"
         "b",
         "no animator named 'a\\x1bb'"},
        {"a\\x1bb", "no animator named 'a\\\\x1bb'"},
        {"it's\n\xc2\x9b", "no animator named 'it\\'s\\x0a\\xc2\\x9b'"},
        {"\xe9t\xc3\xa9", "no animator named '\\xe9t\xc3\xa9'"},
        {"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
         "\xc3\xa9"
         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
         "\xc3\xa9"
         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
         "\xc3\xa9",
         "no animator named "
         "'\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
         "\xc3\xa9"
         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...'"},
    };
    kf_builder *b = NULL;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "builder");
    if (!b)
        return;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kf_track_desc d = {cases[i].name, NULL, "t.alpha", 0};
        kf_error e;
        CHECK(kf_builder_add_track(b, &d, &e) == KF_ERROR_NOT_FOUND &&
                  strcmp(e.message, cases[i].want) == 0,
              "case %zu: %s", i, e.message);
    }
    kf_builder_destroy(b);
    kf_anim *anim = NULL;
    kf_error e;
    CHECK(kf_load_file("/nonexistent/no\\x1b.kfb", NULL, &anim, &e) == KF_ERROR_IO &&
              strcmp(e.message,
                     "cannot open '/nonexistent/no\\\\x1b.kfb': No such file or directory") == 0,
          "a file's name: %s", e.message);
}

int main(void)
{
    kf_builder *b = test_rich_builder();
    kf_anim *anim = b ? test_encode_load(b, NULL) : NULL;
    /* The builder counts what it was given as the loaded file does. */
    for (int k = 0; b && anim && k < KF_KIND_COUNT; k++)
        CHECK(kf_builder_count(b, (kf_kind)k) == kf_anim_count(anim, (kf_kind)k) &&
                  kf_builder_count(b, (kf_kind)k) > 0,
              "builder count of %s: %u, the file's %u", kf_kind_name((kf_kind)k),
              (unsigned)kf_builder_count(b, (kf_kind)k), (unsigned)kf_anim_count(anim, (kf_kind)k));
    kf_builder_destroy(b);
    CHECK(anim != NULL, "rich animation loads");
    if (anim) {
        empty_infos(anim);
        player_edges(anim);
        controller_stays_finite(anim);
        code_edges(anim);
    }
    null_objects();
    quoted_names();
    name_text();
    kf_anim_free(anim);
    return kf_test_report("test_api_edges");
}
