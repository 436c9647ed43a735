/* SPDX-License-Identifier: MIT */
/*
 * test_builder_desc.c - the description structs of kf_build.h cannot be
 * half-initialised into a wrong result: an init function writes every field
 * without reading the struct, and a valid range left unset is every key,
 * whether key_count is set before or after the init.
 */
#include <stdint.h>
#include <string.h>

#include "kf.h"
#include "kf_build.h"
#include "kf_test.h"
#include "test_util.h"

static const double times[4] = {0, 1, 2, 3}, values[4] = {10, 20, 30, 40};

/* The valid range the sequence built from `d` loads with. */
static void built_range(const kf_sequence_desc *d, uint32_t *first, uint32_t *last)
{
    *first = *last = UINT32_MAX;
    kf_builder *b = NULL;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "builder");
    kf_error e;
    kf_result r = kf_builder_add_sequence(b, d, &e);
    CHECK(r == KF_OK, "add_sequence: %s", r == KF_OK ? "" : e.message);
    kf_anim *anim = r == KF_OK ? test_encode_load(b, NULL) : NULL;
    kf_builder_destroy(b);
    if (!anim)
        return;
    kf_sequence_info info;
    kf_sequence_get_info(kf_anim_sequence(anim, 0), &info);
    *first = info.valid_first;
    *last = info.valid_last;
    kf_anim_free(anim);
}

static void fill(kf_sequence_desc *d)
{
    d->name = "s";
    d->duration = 4;
    d->components = 1;
    d->times = times;
    d->values = values;
}

int main(void)
{
    /* Garbage in every byte: the init must not read any of it. */
    kf_sequence_desc d;
    memset(&d, 0xA5, sizeof d);
    kf_sequence_desc_init(&d);
    CHECK(d.name == NULL && d.interpolation == KF_INTERPOLATION_LINEAR &&
              d.repeat == KF_REPEAT_CONSTANT && d.duration == 0.0 && d.components == 0 &&
              d.key_count == 0 && d.times == NULL && d.values == NULL && d.valid_first == 0 &&
              d.valid_last == KF_LAST_KEY && d.tcb == NULL && d.arc_length == 0 &&
              d.tangents == NULL,
          "kf_sequence_desc_init leaves a field of the garbage");

    uint32_t first, last;
    /* key_count after the init: every key. */
    kf_sequence_desc_init(&d);
    fill(&d);
    d.key_count = 4;
    built_range(&d, &first, &last);
    CHECK(first == 0 && last == 3, "init, then key_count: range %u..%u, want 0..3", first, last);

    /* key_count before the init (which resets it), then again. */
    memset(&d, 0, sizeof d);
    d.key_count = 4;
    kf_sequence_desc_init(&d);
    CHECK(d.key_count == 0, "the init resets key_count");
    fill(&d);
    d.key_count = 4;
    built_range(&d, &first, &last);
    CHECK(first == 0 && last == 3, "key_count, init, key_count: range %u..%u", first, last);

    /* A first index with the default end: from it to the last key. */
    kf_sequence_desc_init(&d);
    fill(&d);
    d.key_count = 4;
    d.valid_first = 2;
    built_range(&d, &first, &last);
    CHECK(first == 2 && last == 3, "first 2, last KF_LAST_KEY: range %u..%u", first, last);

    /* An explicit range stays as given, wrapping included (keys 3, 0, 1
     * in that order, their times increasing). */
    static const double wrap_times[4] = {1, 2, 3, 0};
    d.times = wrap_times;
    d.valid_first = 3;
    d.valid_last = 1;
    built_range(&d, &first, &last);
    CHECK(first == 3 && last == 1, "explicit 3..1: range %u..%u", first, last);

    /* An explicit end beyond the keys is still an error, with its index. */
    d.valid_first = 0;
    d.valid_last = 4;
    kf_builder *b = NULL;
    kf_builder_create(NULL, &b);
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_ERROR_VALUE &&
              strstr(e.message, "valid range index 4 is out of bounds (4 keys)"),
          "valid_last 4 of 4 keys: %s", e.message);
    kf_builder_destroy(b);

    /* The other inits write every field too. */
    kf_controller_desc c;
    memset(&c, 0xA5, sizeof c);
    kf_controller_desc_init(&c);
    CHECK(c.name == NULL && c.speed == 1.0, "kf_controller_desc_init");
    kf_follower_desc f;
    memset(&f, 0xA5, sizeof f);
    kf_follower_desc_init(&f, KF_FOLLOWER_NODE_POSITION_DAMPER);
    CHECK(f.name == NULL && f.tau == 0.3 && f.order == 3 && f.initial_value == NULL,
          "kf_follower_desc_init");
    kf_interpolator_desc i;
    memset(&i, 0xA5, sizeof i);
    kf_interpolator_desc_init(&i);
    CHECK(i.name == NULL && i.key == NULL && i.key_value == NULL, "kf_interpolator_desc_init");
    return kf_test_report("test_builder_desc");
}
