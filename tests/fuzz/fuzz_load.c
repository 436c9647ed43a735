/* SPDX-License-Identifier: MIT */
/*
 * fuzz_load.c - libFuzzer target for the loader. Each input is loaded as it
 * is, then again with its checksums recomputed (kfb_craft.h) so mutations
 * reach the checks behind the CRCs. Whatever loads is sampled
 * and played at awkward times (the sum is consumed so nothing is optimized
 * away), then encoded again, loaded again, and compared object by object:
 * the writer and the reader must agree on everything the reader accepts.
 * It is loaded through memory filled with garbage too, to the same objects:
 * the reader writes every byte it reads (DATA's zero runs where an array
 * reads them, kf_read.c).
 * And kfc must be able to take it back: whatever loads decompiles to YAML
 * that compiles to a file with the same objects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kf_write.h"
#include "kfc_decompile.h"
#include "kfc_source.h"
#include "kfb_craft.h"
#include "test_util.h"

volatile double kf_fuzz_sink;

static int same_floats(const float *a, const float *b, size_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

/* `keys` keys of arrays pa of x and pb of y, bit for bit, wherever their
 * floats are (a loaded sequence's are a lane of a block: kf_private.h). */
static int same_keys(const struct kf_sequence *x, const float *pa, const struct kf_sequence *y,
                     const float *pb, size_t keys)
{
    if (!pa || !pb)
        return keys == 0 || pa == pb;
    for (size_t k = 0; k < keys; k++)
        for (uint32_t m = 0; m < x->components; m++) {
            const float a = kf_key_float(x, pa, k, m), b = kf_key_float(y, pb, k, m);
            if (memcmp(&a, &b, sizeof a) != 0)
                return 0;
        }
    return 1;
}

static void differ(const char *what, const char *kind, uint32_t i)
{
    fprintf(stderr, "%s: %s %u differs\n", what, kind, (unsigned)i);
    abort();
}

/* `derived`: also the arrays the writer computes from the authored fields
 * (tangents, distance tables). The loader checks those only for
 * range, so a file may carry others than kfc computes; compiling its
 * decompiled source recomputes them, and only the authored fields agree. */
static void compare(const kf_objects *a, const kf_objects *b, int derived, const char *what)
{
    if (memcmp(a->count, b->count, sizeof a->count) != 0)
        differ(what, "object count", 0);
    for (uint32_t i = 0; i < a->count[KF_KIND_SEQUENCE]; i++) {
        const struct kf_sequence *x = &a->sequences[i], *y = &b->sequences[i];
        uint32_t tc = kf_sequence_tangent_count(x->interpolation, x->valid_count, x->components);
        if (strcmp(x->name, y->name) || x->interpolation != y->interpolation ||
            x->repeat != y->repeat || x->components != y->components ||
            x->key_count != y->key_count || x->valid_first != y->valid_first ||
            x->valid_count != y->valid_count || memcmp(&x->duration, &y->duration, 4) ||
            !same_floats(x->times, y->times, x->key_count) ||
            !same_keys(x, x->values, y, y->values, x->key_count) ||
            (derived && tc &&
             (!same_keys(x, x->tangent_out, y, y->tangent_out, tc / x->components) ||
              !same_keys(x, x->tangent_in, y, y->tangent_in, tc / x->components))))
            differ(what, "sequence", i);
        if (!x->tcb != !y->tcb || !x->arc_length != !y->arc_length ||
            (x->tcb && !same_floats(x->tcb, y->tcb, 3 * (size_t)x->key_count)) ||
            (derived && x->arc_length &&
             !same_floats(x->arc_length, y->arc_length,
                          (size_t)kfb_arc_length_floats(x->repeat, x->valid_count))))
            differ(what, "sequence tcb or arc length of", i);
    }
    for (uint32_t i = 0; i < a->count[KF_KIND_CONTROLLER]; i++) {
        const struct kf_controller *x = &a->controllers[i], *y = &b->controllers[i];
        if (strcmp(x->name, y->name) || memcmp(&x->speed, &y->speed, 6 * sizeof(double)))
            differ(what, "controller", i);
    }
    for (uint32_t i = 0; i < a->count[KF_KIND_TARGET]; i++)
        if (strcmp(a->targets[i].name, b->targets[i].name) ||
            a->targets[i].property != b->targets[i].property ||
            a->targets[i].components != b->targets[i].components)
            differ(what, "target", i);
    for (uint32_t i = 0; i < a->count[KF_KIND_TRACK]; i++)
        if (memcmp(&a->tracks[i], &b->tracks[i], sizeof a->tracks[i]))
            differ(what, "track", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void load_and_check(const uint8_t *data, size_t size)
{
    kf_anim *anim;
    if (kf_load_memory(data, size, NULL, &anim, NULL) != KF_OK)
        return;
    kf_fuzz_sink += test_exercise(anim);

    test_counter garbage = {0};
    garbage.fill = 0xA5;
    const kf_allocator filling = test_counting_allocator(&garbage);
    const kf_load_options options = {sizeof options, &filling, 0};
    kf_anim *filled;
    if (kf_load_memory(data, size, &options, &filled, NULL) != KF_OK)
        abort();
    compare(&anim->objects, &filled->objects, 1, "loaded through memory not cleared");
    kf_anim_free(filled);

    test_bytes bytes = {0};
    const kf_allocator a = kf_allocator_or_default(NULL);
    if (kf_write_objects(&a, &anim->objects, 9, KFB_VERSION_MAJOR, NULL, test_bytes_write, &bytes,
                         NULL) != KF_OK)
        abort();
    kf_anim *again;
    if (kf_load_memory(bytes.data, bytes.size, NULL, &again, NULL) != KF_OK)
        abort();
    compare(&anim->objects, &again->objects, 1, "written again");
    kf_anim_free(again);

    test_bytes yaml = {0}, recompiled = {0};
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kfc_decompile(anim, test_bytes_write, &yaml, &diag) != KFC_OK)
        abort();
    kf_builder *builder;
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    if (kfc_source_compile(yaml.data, yaml.size, NULL, builder, NULL, &diag) != KFC_OK) {
        fprintf(stderr, "decompiled YAML does not compile: %s\n", diag.message);
        abort();
    }
    if (kf_builder_encode(builder, NULL, test_bytes_write, &recompiled, NULL) != KF_OK ||
        kf_load_memory(recompiled.data, recompiled.size, NULL, &again, NULL) != KF_OK)
        abort();
    compare(&anim->objects, &again->objects, 0, "decompiled and compiled");
    kf_anim_free(again);
    kf_builder_destroy(builder);
    free(yaml.data);
    free(recompiled.data);
    kf_anim_free(anim);
    free(bytes.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_and_check(data, size);
    if (size < KFB_HEADER_SIZE)
        return 0;
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    craft_fix_crcs(copy, size);
    load_and_check(copy, size);
    free(copy);
    return 0;
}
