/* SPDX-License-Identifier: MIT */
/*
 * test_layout_order.c - the playback layout orders sequences by clock (key
 * times, valid keys, repeat, duration), then by kind (interpolation,
 * components, quantization, width), then by index (kf_layout.c,
 * sort_sequences). So each block's lanes share a clock and a kind; a kind
 * of n sequences takes ceil(n / 4) consecutive blocks, whose lanes its
 * sequences fill in index order; the blocks of a clock are consecutive;
 * and blocks of one key times array come by valid keys, repeat, duration,
 * interpolation and components. Checked on files whose sequences are
 * added in the reverse of that order: of a few kinds (a skeleton's, which
 * the layout counts into place) and of more kinds than the counting
 * handles (which it merges).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kf_layout.h"
#include "kf_test.h"
#include "test_util.h"

enum { MOST = 400, KEYS = 6 };

static int same_clock(const struct kf_sequence *a, const struct kf_sequence *b)
{
    return a->times == b->times && a->valid_count == b->valid_count && a->repeat == b->repeat &&
           a->duration == b->duration;
}

/* Whether a comes after b in the layout's order of clocks and kinds,
 * where they share their key times array. */
static int after(const struct kf_sequence *a, const struct kf_sequence *b)
{
#define KEY(f)                                                                                     \
    if (a->f != b->f)                                                                              \
    return a->f > b->f
    KEY(valid_count);
    KEY(repeat);
    KEY(duration);
    KEY(interpolation);
    KEY(components);
#undef KEY
    return 0;
}

static int same_kind(const struct kf_sequence *a, const struct kf_sequence *b)
{
    return same_clock(a, b) && a->interpolation == b->interpolation &&
           a->components == b->components;
}

/* `count` sequences, sequence i of kind kinds - 1 - i % kinds (so that
 * they come in the reverse of the layout's order): kinds cycle through
 * STEP, LINEAR, SPLINE and SLERP, and every fourth has a clock of its own
 * (another duration; the vectors' components vary from clock to clock). */
static void check_order(uint32_t count, uint32_t kinds)
{
    kf_builder *b = NULL;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "builder");
    static double times[KEYS], values[KEYS * 4];
    for (uint32_t k = 0; k < KEYS; k++) {
        times[k] = 0.25 * k;
        for (uint32_t m = 0; m < 4; m++)
            values[4 * k + m] = m == 3 ? 1.0 : 0.0;
    }
    static const kf_interpolation interp[] = {KF_INTERPOLATION_STEP, KF_INTERPOLATION_LINEAR,
                                              KF_INTERPOLATION_SPLINE, KF_INTERPOLATION_SLERP};
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t kind = kinds - 1 - i % kinds; /* the last first */
        char name[32];
        snprintf(name, sizeof name, "s%u", (unsigned)i);
        kf_sequence_desc d;
        kf_sequence_desc_init(&d);
        d.name = name;
        d.interpolation = interp[kind % 4];
        d.components = d.interpolation == KF_INTERPOLATION_SLERP ? 4 : 1 + kind / 4 % 3;
        d.duration = 2.0 + kind / 4;
        d.repeat = KF_REPEAT_LOOP;
        d.key_count = KEYS;
        d.times = times;
        d.values = values;
        kf_error e;
        CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "sequence %u: %s", (unsigned)i,
              e.message);
    }
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "%u sequences of %u kinds load", (unsigned)count, (unsigned)kinds);
    if (!anim)
        return;
    const struct kf_layout *L = anim->layout;
    const struct kf_sequence *seq = anim->objects.sequences;
    CHECK(anim->objects.count[KF_KIND_SEQUENCE] == count, "every sequence loaded");

    /* Each kind's first block, its blocks, and the lanes in index order. */
    uint32_t first[MOST], members[MOST], blocks = 0;
    for (uint32_t c = 0; c < kinds; c++)
        members[c] = (count - c + kinds - 1) / kinds, blocks += (members[c] + 3) / 4;
    CHECK(L->block_count == blocks, "%u kinds: %u blocks, want %u", (unsigned)kinds,
          (unsigned)L->block_count, (unsigned)blocks);
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t c = i % kinds, nth = i / kinds;
        if (nth == 0)
            first[c] = L->block_of[i];
        CHECK(L->block_of[i] == first[c] + nth / 4 && L->lane_of[i] == nth % 4,
              "%u kinds: sequence %u in block %u lane %u, want block %u lane %u", (unsigned)kinds,
              (unsigned)i, (unsigned)L->block_of[i], (unsigned)L->lane_of[i],
              (unsigned)(first[c] + nth / 4), (unsigned)(nth % 4));
    }
    /* Blocks by clock, then kind: what the first sequence of each block
     * says, block after block. */
    const struct kf_sequence *at[MOST] = {0};
    for (uint32_t i = 0; i < count; i++)
        if (L->lane_of[i] == 0)
            at[L->block_of[i]] = &seq[i];
    for (uint32_t k = 1; k < L->block_count; k++) {
        if (!at[k] || !at[k - 1])
            continue;
        CHECK(at[k]->times != at[k - 1]->times || !after(at[k - 1], at[k]),
              "%u kinds: block %u comes before block %u's clock or kind", (unsigned)kinds,
              (unsigned)k, (unsigned)k - 1);
        for (uint32_t j = 0; j + 1 < k; j++)
            if (at[j] && same_clock(at[j], at[k]))
                CHECK(same_clock(at[k - 1], at[k]),
                      "%u kinds: block %u's clock came before, not just before it", (unsigned)kinds,
                      (unsigned)k);
        for (uint32_t j = 0; j + 1 < k; j++)
            if (at[j] && same_kind(at[j], at[k]))
                CHECK(same_kind(at[k - 1], at[k]),
                      "%u kinds: block %u's kind came before, not just before it", (unsigned)kinds,
                      (unsigned)k);
    }
    kf_anim_free(anim);
}

int main(void)
{
    check_order(60, 3);   /* a skeleton's translations, rotations, scales */
    check_order(160, 16); /* as many kinds as the counting handles */
    check_order(170, 17); /* one more: merged */
    check_order(400, 40);
    return kf_test_report("test_layout_order");
}
