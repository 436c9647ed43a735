/* SPDX-License-Identifier: MIT */
/*
 * test_read_sweep.c - damage every file every way: every truncated prefix,
 * every single-bit flip (a random sample above 4 KiB), and the same flips
 * with the checksums recomputed so that they reach the semantic checks.
 * Every result must be KF_OK or an error code with nothing allocated; what
 * loads is then sampled and played at awkward times (see test_exercise).
 * Run it under ASan+UBSan: the point is that nothing here is undefined.
 *
 * usage: test_read_sweep [FILE.kfb ...]   (plus two built-in files)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

#define FULL_SWEEP_LIMIT 4096
#define SAMPLED_FLIPS    20000

static volatile double sink;
static unsigned long loaded_after_damage;

/* xorshift64*: a fixed sequence, so a failure reproduces. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

static void try_load(const char *name, const unsigned char *data, size_t size, const char *how,
                     size_t where)
{
    kf_anim *anim = (kf_anim *)1;
    kf_error err;
    kf_result r = kf_load_memory(data, size, NULL, &anim, &err);
    if (r != KF_OK) {
        CHECK(anim == NULL && r < KF_RESULT_COUNT && err.result == r && err.message[0],
              "%s %s at %zu: bad failure %d", name, how, where, (int)r);
        return;
    }
    loaded_after_damage++;
    sink += test_exercise(anim);
    kf_anim_free(anim);
}

static void sweep(const char *name, const unsigned char *file, size_t size)
{
    kf_anim *anim;
    CHECK(kf_load_memory(file, size, NULL, &anim, NULL) == KF_OK, "%s does not load", name);
    if (anim) {
        sink += test_exercise(anim);
        kf_anim_free(anim);
    }

    for (size_t n = 0; n < size; n++) {
        kf_anim *a = (kf_anim *)1;
        kf_result r = kf_load_memory(file, n, NULL, &a, NULL);
        CHECK(r != KF_OK && a == NULL, "%s: the %zu-byte prefix loads", name, n);
    }

    unsigned char *copy = malloc(size);
    memcpy(copy, file, size);
    const uint64_t bits = (uint64_t)size * 8;
    const uint64_t flips = size <= FULL_SWEEP_LIMIT ? bits : SAMPLED_FLIPS;
    for (int fix = 0; fix < 2; fix++) {
        for (uint64_t i = 0; i < flips; i++) {
            uint64_t bit = size <= FULL_SWEEP_LIMIT ? i : rng() % bits;
            copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            if (fix) {
                craft_fix_crcs(copy, size);
                try_load(name, copy, size, "re-checksummed flip", (size_t)bit);
                memcpy(copy, file, size);
            } else {
                /* CRC-32 catches every single-bit error. */
                kf_anim *a = (kf_anim *)1;
                kf_result r = kf_load_memory(copy, size, NULL, &a, NULL);
                CHECK(r != KF_OK && a == NULL, "%s: bit %llu flipped loads", name,
                      (unsigned long long)bit);
                copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            }
        }
    }
    free(copy);
}

static int read_file(const char *path, test_bytes *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    memset(out, 0, sizeof *out);
    unsigned char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        test_bytes_write(out, buf, n);
    fclose(f);
    return 1;
}

int main(int argc, char **argv)
{
    kf_builder *b = test_rich_builder();
    CHECK(b != NULL, "the built-in animation builds");
    if (!b)
        return kf_test_report("test_read_sweep");
    for (int compression = 0; compression <= 9; compression += 9) {
        test_bytes bytes = {0};
        kf_encode_options o = {sizeof o, compression, 0};
        CHECK(kf_builder_encode(b, &o, test_bytes_write, &bytes, NULL) == KF_OK, "encode");
        sweep(compression ? "built-in (zlib)" : "built-in (stored)", bytes.data, bytes.size);
        free(bytes.data);
    }
    kf_builder_destroy(b);

    for (int i = 1; i < argc; i++) {
        test_bytes bytes;
        CHECK(read_file(argv[i], &bytes), "cannot read %s", argv[i]);
        sweep(argv[i], bytes.data, bytes.size);
        free(bytes.data);
    }
    printf("test_read_sweep: %lu damaged files loaded (and were played)\n", loaded_after_damage);
    return kf_test_report("test_read_sweep");
}
