/* SPDX-License-Identifier: MIT */
/*
 * test_player_kernels.c - the player's block kernels (runtime/kf_layout.h):
 * tracks that share key times are packed four to a block and played four
 * at a time. Every kernel set must give the scalar set's results bit for
 * bit, and the scalar set must give kf_sequence_sample's (the per-sequence
 * path) bit for bit on vectors, and the same orientation to 1e-6 (the
 * player normalizes where sampling does not). Sequences of every
 * interpolation, blocks with empty lanes, keys from nearly equal to
 * antipodal (general slerp and squad lanes), holds before, after and at
 * keys, blended targets and a controller with weight 0.5; and vectors of
 * 1, 2 and 5 components (kernels written for each width, or for any) in
 * STEP, LINEAR, SPLINE and HERMITE, a full block and a block of one lane
 * each. Keys on a grid play from quantized blocks, which must give the
 * same bits as their floats would.
 */
#include <stdlib.h>

#include "kf_private.h"
#include "kf_layout.h"
#include "kf_math.h"
#include "kf_offline.h"
#include "kf_test.h"
#include "kf_write.h"
#include "test_util.h"

#define KEYS 40
/* The fewest keys a quantized lane has (kf_layout.c, QUANTIZE_KEYS). */
#define QUANTIZE_KEYS_LEAST 8
/* Sequences per interpolation: four blocks, the last with an empty lane.
 * Index 3 blends into index 2 (the first block is a run of its own), index
 * 6 plays on another controller: the other three blocks are one run of
 * three, so kernels that take blocks in pairs meet a pair and an odd one. */
#define PER   15
#define STEPS 3000
/* The other widths: sequences per interpolation and width. */
#define WIDE_PER 5
static const uint32_t widths[3] = {1, 2, 5};

static uint64_t rng = 0x9E3779B97F4A7C15u;

static double uniform(void) /* [0, 1) */
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

static void random_quat(const double *prev, double turn, double *q)
{
    double d[4], n = 0;
    for (int k = 0; k < 4; k++) {
        d[k] = prev ? prev[k] + turn * (uniform() * 2 - 1) : uniform() * 2 - 1;
        n += d[k] * d[k];
    }
    n = sqrt(n);
    for (int k = 0; k < 4; k++)
        q[k] = d[k] / n;
}

static void add(kf_builder *b, const double *times, kf_interpolation interp, int index)
{
    const uint32_t c = interp == KF_INTERPOLATION_SLERP || interp == KF_INTERPOLATION_SQUAD ? 4 : 3;
    double values[KEYS * 4], tangents[KEYS * 2 * 3];
    for (int i = 0; i < KEYS * 2 * 3; i++)
        tangents[i] = (uniform() * 2 - 1) * 0.1;
    for (int i = 0; i < KEYS; i++) {
        if (c == 4) {
            /* small turns, some large (general path), some antipodal */
            const double turn = index % 8 == 5 ? 3.0 : index % 8 == 6 ? 1.2 : 0.2;
            random_quat(i ? values + 4 * (i - 1) : NULL, turn, values + 4 * i);
            if (i && index % 8 == 4 && i % 5 == 0)
                for (int k = 0; k < 4; k++)
                    values[4 * i + k] = -values[4 * (i - 1) + k];
        } else {
            for (uint32_t k = 0; k < c; k++)
                values[i * c + k] = (uniform() * 2 - 1) * (index % 3 ? 1 : 100);
        }
    }
    char name[32], target[64];
    snprintf(name, sizeof name, "s%d_%d", (int)interp, index);
    kf_sequence_desc d = {name,
                          interp,
                          KF_REPEAT_LOOP,
                          times[KEYS - 1] + 25,
                          c,
                          KEYS,
                          times,
                          values,
                          0,
                          KEYS - 1,
                          NULL,
                          0,
                          interp == KF_INTERPOLATION_HERMITE ? tangents : NULL};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
    /* Index 3 blends into index 2's target; index 6 plays on the half-weight
     * controller. */
    snprintf(target, sizeof target, "n%d_%d.%s", (int)interp, index == 3 ? 2 : index,
             c == 4 ? "orientation" : "translation");
    kf_track_desc track = {name, index == 6 ? "half" : "c", target, 0};
    CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "%s: %s", target, e.message);
}

/* Sequence `index` of `c` components, on a morph_weights target (any
 * width) of its own. */
static void add_width(kf_builder *b, const double *times, kf_interpolation interp, uint32_t c,
                      int index)
{
    double values[KEYS * 5], tangents[KEYS * 2 * 5];
    for (uint32_t i = 0; i < KEYS * 2 * c; i++)
        tangents[i] = (uniform() * 2 - 1) * 0.1;
    for (uint32_t i = 0; i < KEYS * c; i++)
        values[i] = (uniform() * 2 - 1) * (index % 2 ? 1 : 50);
    char name[32], target[64];
    snprintf(name, sizeof name, "w%d_%u_%d", (int)interp, (unsigned)c, index);
    snprintf(target, sizeof target, "m%d_%u_%d.morph_weights", (int)interp, (unsigned)c, index);
    kf_sequence_desc d = {name,
                          interp,
                          KF_REPEAT_LOOP,
                          times[KEYS - 1] + 25,
                          c,
                          KEYS,
                          times,
                          values,
                          0,
                          KEYS - 1,
                          NULL,
                          0,
                          interp == KF_INTERPOLATION_HERMITE ? tangents : NULL};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
    kf_track_desc track = {name, "c", target, 0};
    CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "%s: %s", target, e.message);
}

static int vector_interpolation(int interp)
{
    return interp != KF_INTERPOLATION_SLERP && interp != KF_INTERPOLATION_SQUAD;
}

/* A builder with controller "c" (weight 1) and, for half > 0, controller
 * "half" of that weight. */
static kf_builder *builder_with(double half)
{
    kf_builder *b;
    CHECK(kf_builder_create(NULL, &b) == KF_OK, "create");
    kf_error e;
    kf_controller_desc cd;
    kf_controller_desc_init(&cd);
    cd.name = "c";
    CHECK(kf_builder_add_controller(b, &cd, &e) == KF_OK, "controller");
    if (half > 0.0) {
        cd.name = "half";
        cd.weight = half;
        CHECK(kf_builder_add_controller(b, &cd, &e) == KF_OK, "controller");
    }
    return b;
}

static kf_anim *build(void)
{
    double times[KEYS], t = 0;
    for (int i = 0; i < KEYS; i++) {
        times[i] = t;
        t += i == 10 ? 0 : 5 + 20 * uniform(); /* keys 10 and 11 coincide */
    }
    kf_builder *b = builder_with(0.5);
    for (int interp = KF_INTERPOLATION_STEP; interp <= KF_INTERPOLATION_HERMITE; interp++)
        for (int i = 0; i < PER; i++)
            add(b, times, (kf_interpolation)interp, i);
    for (int interp = KF_INTERPOLATION_STEP; interp <= KF_INTERPOLATION_HERMITE; interp++)
        for (int w = 0; w < 3 && vector_interpolation(interp); w++)
            for (int i = 0; i < WIDE_PER; i++)
                add_width(b, times, (kf_interpolation)interp, widths[w], i);
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    return anim;
}

/* The builder's animation encoded and loaded back, the builder destroyed;
 * NULL (a failed check) if that fails. */
static kf_anim *load_built(kf_builder *b, const char *what)
{
    kf_anim *anim = test_encode_load(b, NULL);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "%s: encode/load", what);
    return anim;
}

/* How far a player's orientation is from a sample that was not normalized. */
static double orientation_off(const float got[4], const float want[4])
{
    double n = 0, e = 0;
    for (int m = 0; m < 4; m++)
        n += (double)want[m] * want[m];
    n = sqrt(n);
    for (int m = 0; m < 4; m++)
        e = fmax(e, fabs(got[m] - want[m] / n));
    return e;
}

#define MAX_SETS 4

/* A player of `anim` for each kernel set: the scalar set first (the
 * reference), then every set this build and CPU have. Returns how many. */
static int create_players(const kf_anim *anim, const kf_kernels *sets[MAX_SETS],
                          kf_player *p[MAX_SETS])
{
    int count = 0;
    sets[count++] = kf_kernels_scalar();
    if (kf_kernels_sse2())
        sets[count++] = kf_kernels_sse2();
    if (kf_kernels_neon())
        sets[count++] = kf_kernels_neon();
    if (kf_kernels_avx2() && kf_kernels_best() == kf_kernels_avx2())
        sets[count++] = kf_kernels_avx2();
    for (int k = 0; k < count; k++)
        CHECK(kf_player_create_with(anim, NULL, sets[k], &p[k]) == KF_OK, "player %s",
              sets[k]->name);
    return count;
}

/* SPLINE and HERMITE blocks share a kernel but are two stripes of one
 * clock: here 3 SPLINE blocks and 1 HERMITE block side by side in one row
 * per key, which AVX2 pairs as (S, S), (S, H). Every set against the
 * scalar one, bit for bit, and the scalar one against sampling. */
static void check_mixed_stripes(void)
{
    double times[KEYS];
    for (int i = 0; i < KEYS; i++)
        times[i] = 30.0 * i + 10.0 * uniform();
    kf_builder *b = builder_with(0.0);
    enum { SPLINES = 9, HERMITES = 3 };
    for (int i = 0; i < SPLINES + HERMITES; i++)
        add_width(b, times, i < SPLINES ? KF_INTERPOLATION_SPLINE : KF_INTERPOLATION_HERMITE, 3, i);
    kf_anim *anim = load_built(b, "mixed stripes");
    if (!anim)
        return;
    const struct kf_layout *L = anim->layout;
    CHECK(L->block_count == 4, "mixed stripes: %u blocks, want 4", L->block_count);
    /* One row per key: four blocks of 9 fields (3 components, 2 tangents),
     * each 9 fields after the one before. */
    for (uint32_t k = 0; k < L->block_count; k++)
        CHECK(L->blocks[k].stride == 4 * 9 * KF_LANES &&
                  L->blocks[k].data == L->blocks[0].data + (size_t)k * 9 * KF_LANES,
              "mixed stripes: block %u of the row: stride %u, at %td", k, L->blocks[k].stride,
              L->blocks[k].data - L->blocks[0].data);
    const kf_kernels *sets[MAX_SETS];
    kf_player *p[MAX_SETS];
    const int set_count = create_players(anim, sets, p);
    const double duration = anim->objects.sequences[0].duration;
    for (int step = 0; step < 500; step++) {
        const double t = step < 250 ? step * 7.0 : uniform() * duration;
        for (int k = 0; k < set_count; k++)
            kf_player_update(p[k], t);
        for (uint32_t si = 0; si < SPLINES + HERMITES; si++) {
            const kf_track *tr = &anim->objects.tracks[si];
            float want[3];
            kf_sequence_sample(&anim->objects.sequences[tr->animator], t, NULL, want);
            const float *got = kf_player_value(p[0], tr->target);
            CHECK(memcmp(got, want, sizeof want) == 0, "mix%u t=%.17g: scalar kernel", si, t);
            for (int k = 1; k < set_count; k++)
                CHECK(memcmp(got, kf_player_value(p[k], tr->target), sizeof want) == 0,
                      "mix%u t=%.17g: %s differs from scalar", si, t, sets[k]->name);
        }
    }
    for (int k = 0; k < set_count; k++)
        kf_player_destroy(p[k]);
    kf_anim_free(anim);
}

/* ---- quantized blocks (kf_block.dequant) ------------------------------ */

/* A sequence of `c` components and `n` keys on target `target` with values
 * `v` (floats, exactly) and, for HERMITE, key tangents `tangents`. */
static void add_values(kf_builder *b, const char *name, const char *target, kf_interpolation interp,
                       uint32_t c, uint32_t n, const double *times, const float *v,
                       const double *tangents)
{
    double values[KEYS * 9];
    for (uint32_t i = 0; i < n * c; i++)
        values[i] = v[i];
    kf_sequence_desc d = {
        name, interp, KF_REPEAT_LOOP, times[n - 1] + 25, c, n, times, values, 0, n - 1,
        NULL, 0,      tangents};
    kf_error e;
    CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
    kf_track_desc track = {name, "c", target, 0};
    CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "%s: %s", target, e.message);
}

/* Whether sequence `si` of anim plays from a quantized block. */
static int is_quantized(const kf_anim *anim, uint32_t si)
{
    const struct kf_layout *L = anim->layout;
    return L->block_of[si] != KF_NO_INDEX && L->blocks[L->block_of[si]].dequant != NULL;
}

/* The width of q of sequence `si`'s quantized block (kf_block.qbits), or 0. */
static uint32_t quantized_bits(const kf_anim *anim, uint32_t si)
{
    return is_quantized(anim, si) ? anim->layout->blocks[anim->layout->block_of[si]].qbits : 0;
}

/* Whether sequence `si`'s quantized block rebuilds w in float
 * (kf_block.float_w). */
static int rebuilds_w_in_float(const kf_anim *anim, uint32_t si)
{
    return is_quantized(anim, si) && anim->layout->blocks[anim->layout->block_of[si]].float_w;
}

/* kf_block.float_w's premise, over every sum of squares of a quaternion's
 * x, y and z that are whole numbers of 2^-12 (the sum a whole number of
 * 2^-24 within [0, 1], exact in float): what it leaves of 1 rooted in
 * float is the double root rounded to float (kf_unit_rest), to the bit. */
static void check_float_rest(void)
{
    uint32_t differ = 0, first = 0;
    for (uint32_t n = 0; n <= 1u << 24; n++) {
        const float sum = (float)n * 0x1p-24f, in_float = sqrtf(1.0f - sum);
        const float in_double = (float)sqrt(1.0 - (double)sum);
        if (memcmp(&in_float, &in_double, sizeof in_float) != 0 && differ++ == 0)
            first = n;
    }
    CHECK(differ == 0, "w rebuilt in float differs from double at %u sums (the first %u x 2^-24)",
          differ, first);
}

/* A loaded animation written again (kf_write_objects reads its lanes) and
 * loaded back; NULL (a failed check) if that fails. */
static kf_anim *written_again(const kf_anim *anim)
{
    test_bytes bytes = {0};
    const kf_allocator alloc = kf_allocator_or_default(NULL);
    kf_anim *again = NULL;
    CHECK(kf_write_objects(&alloc, &anim->objects, 6, KFB_VERSION_MAJOR, NULL, test_bytes_write,
                           &bytes, NULL) == KF_OK &&
              kf_load_memory(bytes.data, bytes.size, NULL, &again, NULL) == KF_OK,
          "written again and loaded");
    free(bytes.data);
    return again;
}

/* Keys on a grid (what kfc -e writes) are kept as integers of 16, 12 or
 * 8 bits (the fewest that hold a lane's steps on the coarsest grid its
 * keys lie on) with a base and a power-of-two scale per lane and
 * component, and played from there: they must read back as the very
 * floats given, play as sampling does, and play alike in every kernel
 * set; keys that no such grid gives back exactly stay floats. */
static void check_quantized(void)
{
    /* Per group: four lanes of 12 bits, four of 8, four of 16, one of 8
     * on a grid 16 times as coarse (q whose low 4 bits are all 0: in the
     * 8-bit stripe, a block and a lane), then one off any grid. */
    enum { GROUPS = 5, PER_GROUP = 14, EDGES = 8, SLERPS = 21 };
    static const uint32_t group_width[GROUPS] = {1, 2, 3, 4, 5};
    double times[KEYS];
    for (int i = 0; i < KEYS; i++)
        times[i] = 0.25 * i + 0.2 * uniform();
    kf_builder *b = builder_with(0.0);
    enum { ALL = 2 * GROUPS * PER_GROUP + EDGES + SLERPS };
    float values[ALL][KEYS * 5];
    uint32_t comps[ALL], keys[ALL], want_bits[ALL];
    int want_q[ALL];
    uint32_t count = 0;
    for (int interp = KF_INTERPOLATION_STEP; interp <= KF_INTERPOLATION_LINEAR; interp++)
        for (int g = 0; g < GROUPS; g++)
            for (int i = 0; i < PER_GROUP; i++, count++) {
                /* A grid of 2^-10 over at most 2^12, 2^8 or 2^15 steps,
                 * or 2^8 steps of 2^-6; the last of each group off any
                 * grid (a float stripe beside the quantized ones, in one
                 * clock). */
                const uint32_t c = group_width[g];
                const double offset = (double)(i * 97 % 61) - 30.0;
                const double steps = i < 4 ? 4096.0 : i < 8 ? 256.0 : i < 12 ? 32768.0 : 256.0;
                const double coarse = i == 12 ? 16.0 : 1.0;
                for (uint32_t k = 0; k < KEYS * c; k++) {
                    const double step = coarse * floor(uniform() * steps) / 1024.0;
                    values[count][k] = (float)(offset + step);
                    if (i == PER_GROUP - 1)
                        values[count][k] = (float)(offset + step + uniform() * 1e-3);
                }
                comps[count] = c;
                keys[count] = KEYS;
                want_q[count] = i != PER_GROUP - 1;
                want_bits[count] = !want_q[count] ? 0 : i < 4 ? 12 : i < 8 || i == 12 ? 8 : 16;
                char name[64], target[96];
                snprintf(name, sizeof name, "q%d_%d_%d", interp, g, i);
                snprintf(target, sizeof target, "q%d_%d_%d.%s", interp, g, i,
                         c == 3   ? "translation"
                         : c == 4 ? "orientation"
                                  : "morph_weights");
                add_values(b, name, target, (kf_interpolation)interp, c, KEYS, times, values[count],
                           NULL);
            }
    /* Edges, LINEAR, one component: each key given, then which it is. */
    for (int e = 0; e < EDGES; e++, count++) {
        float *v = values[count];
        uint32_t n = KEYS, bits = 8;
        int q = 1;
        for (uint32_t k = 0; k < KEYS; k++)
            v[k] = (float)((k * 7 % 13) / 8.0);
        switch (e) {
        case 0: /* -0 is no grid point: base + 0 * scale is +0 */
            v[3] = -0.0f;
            v[5] = 0.0f;
            q = 0;
            break;
        case 1: /* 65535 steps of 2^-8: the most a lane holds */
            v[0] = 0.0f;
            v[1] = 65535.0f / 256;
            v[2] = 1.0f / 256;
            bits = 16;
            break;
        case 2: /* 65536 steps of 2^-8 and a key between two of 2^-7 */
            v[0] = 0.0f;
            v[1] = 65536.0f / 256;
            v[2] = 1.0f / 256;
            q = 0;
            break;
        case 3: /* constant: every q 0 */
            for (uint32_t k = 0; k < KEYS; k++)
                v[k] = 0.1f;
            break;
        case 4: /* a grid finer than the least normal float */
            for (uint32_t k = 0; k < KEYS; k++)
                v[k] = (float)(k % 5) * 1e-41f;
            q = 0;
            break;
        case 5: /* values the saturating kernel plays (kf_layout.c, is_wide) */
            v[7] = 3e38f;
            q = 0;
            break;
        case 6: /* too few keys to be worth a base and a scale */
            n = 7;
            q = 0;
            break;
        default: /* negative, on a coarse grid far from 0 */
            for (uint32_t k = 0; k < KEYS; k++)
                v[k] = (float)(-1048576.0 + 64.0 * (k * 11 % 17));
            break;
        }
        comps[count] = 1;
        keys[count] = n;
        want_q[count] = q;
        want_bits[count] = q ? bits : 0;
        char name[64], target[96];
        snprintf(name, sizeof name, "edge%d", e);
        snprintf(target, sizeof target, "edge%d.morph_weights", e);
        add_values(b, name, target, KF_INTERPOLATION_LINEAR, 1, n, times, v, NULL);
    }
    /* SLERP, as kfc -e writes it: x, y and z on a grid of 2^-10, 2^-5 or
     * 2^-13 (12, 8 and 16 bits), w what unit length leaves (kf_unit_rest:
     * a float off the grid, which the kernels rebuild), its sign in x's q;
     * turns small and large, some across the hemisphere (the general
     * path). The last four keep
     * floats: w a float step off what x, y and z leave, which the kernels
     * would not rebuild; x swinging by 0.98 on a grid of 2^-16, which takes
     * 16 bits and so leaves none for w's sign; y rebuilt, then z, the other
     * three on the grid. */
    for (int i = 0; i < SLERPS; i++, count++) {
        double q[4] = {0, 0, 0, 1};
        const uint32_t big = i == SLERPS - 2 ? 1 : i == SLERPS - 1 ? 2 : 3;
        for (int k = 0; k < KEYS; k++) {
            double prev[4];
            memcpy(prev, q, sizeof prev);
            do /* the rebuilt component large enough to be rebuilt */
                random_quat(k ? prev : NULL, i % 3 == 2 ? 1.0 : 0.15, q);
            while (fabs(q[big]) < 0.3);
            if (q[big] < 0)
                for (int m = 0; m < 4; m++)
                    q[m] = -q[m];
            if (i % 4 == 0 && k % 6 == 5) /* the other hemisphere (8: the lone lane) */
                for (int m = 0; m < 4; m++)
                    q[m] = -q[m];
            if (i == SLERPS - 3) {
                q[0] = k % 2 ? 0.49 : -0.49 + 1.0 / 65536; /* 64225 steps apart */
                q[1] = q[2] = 0.0;
            }
            float *v = values[count] + 4 * k;
            const double grid = i == SLERPS - 3   ? 65536.0
                                : i >= SLERPS - 4 ? 1024.0
                                : i % 3 == 1      ? 32.0
                                : i % 3 == 2      ? 8192.0
                                                  : 1024.0;
            for (uint32_t m = 0; m < 4; m++)
                v[m] = m == big ? 0.0f : (float)(nearbyint(q[m] * grid) / grid + 0.0);
            CHECK(kf_unit_rest(v, 4, big, q[big] < 0, &v[big]), "qs%d key %d: unit rest", i, k);
            if (i == SLERPS - 4 && k == 17)
                v[3] = nextafterf(v[3], 0.0f);
        }
        comps[count] = 4;
        keys[count] = KEYS;
        want_q[count] = i < SLERPS - 4;
        want_bits[count] = !want_q[count] ? 0 : i % 3 == 1 ? 8 : i % 3 == 2 ? 16 : 12;
        char name[64], target[96];
        snprintf(name, sizeof name, "qs%d", i);
        snprintf(target, sizeof target, "qs%d.orientation", i);
        add_values(b, name, target, KF_INTERPOLATION_SLERP, 4, KEYS, times, values[count], NULL);
    }
    kf_anim *anim = load_built(b, "quantized");
    if (!anim)
        return;
    kf_anim *again = written_again(anim);
    for (uint32_t si = 0; si < count; si++) {
        const kf_sequence *s = kf_anim_sequence(anim, si);
        CHECK(is_quantized(anim, si) == want_q[si], "%s: quantized %d, want %d", s->name,
              is_quantized(anim, si), want_q[si]);
        CHECK(quantized_bits(anim, si) == want_bits[si], "%s: %u bits, want %u", s->name,
              quantized_bits(anim, si), want_bits[si]);
        CHECK(!again || is_quantized(again, si) == want_q[si],
              "%s written again: quantized %d, want %d", s->name, is_quantized(again, si),
              want_q[si]);
        /* w rebuilt in float on the grids of 2^-10 and 2^-5, not 2^-13 */
        const int want_fw =
            s->interpolation == KFB_INTERP_SLERP && want_q[si] && want_bits[si] != 16;
        CHECK(rebuilds_w_in_float(anim, si) == want_fw, "%s: w rebuilt in float %d, want %d",
              s->name, rebuilds_w_in_float(anim, si), want_fw);
        for (uint32_t k = 0; k < keys[si]; k++) {
            float got[5], back[5];
            kf_sequence_key(s, k, NULL, got);
            CHECK(memcmp(got, values[si] + k * comps[si], comps[si] * sizeof *got) == 0,
                  "%s key %u: %.9g, given %.9g", s->name, k, got[0], values[si][k * comps[si]]);
            kf_sequence_key(kf_anim_sequence(again, si), k, NULL, back);
            CHECK(!again || memcmp(got, back, comps[si] * sizeof *got) == 0,
                  "%s key %u written again: %.9g, was %.9g", s->name, k, back[0], got[0]);
        }
        if (si >= count - EDGES - SLERPS)
            continue;
        /* LINEAR's velocity and length from the keys given (in double). */
        if (s->interpolation == KFB_INTERP_LINEAR && comps[si] != 4) {
            const uint32_t c = comps[si];
            const float *v = values[si];
            double length = 0;
            for (uint32_t k = 0; k + 1 < KEYS; k++) {
                double d2 = 0, vel[5];
                for (uint32_t m = 0; m < c; m++) {
                    const double d = (double)v[(k + 1) * c + m] - v[k * c + m];
                    d2 += d * d;
                    vel[m] = d / ((double)(float)times[k + 1] - (float)times[k]);
                }
                length += sqrt(d2);
                float got[5];
                const double t = 0.5 * ((double)(float)times[k] + (float)times[k + 1]);
                CHECK(kf_sequence_velocity(s, t, NULL, got) == KF_OK, "%s: velocity", s->name);
                for (uint32_t m = 0; m < c; m++)
                    CHECK(fabs(got[m] - vel[m]) <= 1e-5 * fmax(1.0, fabs(vel[m])),
                          "%s t=%g: velocity %.9g, want %.9g", s->name, t, got[m], vel[m]);
            }
            double got_length = 0;
            CHECK(kf_sequence_length(s, &got_length) == KF_OK, "%s: length", s->name);
            /* LOOP: the period closes back to key 0 */
            double d2 = 0;
            for (uint32_t m = 0; m < c; m++) {
                const double d = (double)v[m] - v[(KEYS - 1) * c + m];
                d2 += d * d;
            }
            length += sqrt(d2);
            CHECK(fabs(got_length - length) <= 1e-5 * length, "%s: length %.9g, want %.9g", s->name,
                  got_length, length);
        }
    }
    const kf_kernels *sets[MAX_SETS];
    kf_player *p[MAX_SETS];
    const int set_count = create_players(anim, sets, p);
    const double duration = anim->objects.sequences[0].duration;
    for (int step = 0; step < 600; step++) {
        double t = step < 300 ? step / 60.0 : uniform() * 3 * duration - duration;
        if (step % 11 == 0)
            t = anim->objects.sequences[0].times[(uint32_t)(uniform() * KEYS)];
        for (int k = 0; k < set_count; k++)
            kf_player_update(p[k], t);
        for (uint32_t si = 0; si < count; si++) {
            const kf_track *tr = &anim->objects.tracks[si];
            const kf_sequence *s = &anim->objects.sequences[tr->animator];
            const float *got = kf_player_value(p[0], tr->target);
            for (int k = 1; k < set_count; k++)
                CHECK(memcmp(got, kf_player_value(p[k], tr->target), comps[si] * sizeof *got) == 0,
                      "%s t=%.17g: %s differs from scalar", s->name, t, sets[k]->name);
            float want[5];
            kf_sequence_sample(s, t, NULL, want);
            if (comps[si] == 4) { /* orientations: the player normalizes */
                const double e = orientation_off(got, want);
                CHECK(e <= 1e-6, "%s t=%.17g: orientation off by %.3g", s->name, t, e);
                continue;
            }
            CHECK(memcmp(got, want, comps[si] * sizeof *got) == 0,
                  "%s t=%.17g: scalar kernel %.9g, sampling %.9g", s->name, t, got[0], want[0]);
        }
    }
    for (int k = 0; k < set_count; k++)
        kf_player_destroy(p[k]);
    kf_anim_free(again);
    kf_anim_free(anim);
}

/* Runs of quantized blocks that begin at a stripe's second block: three
 * blocks of one stripe (12-bit LINEAR vectors, then 12-bit SLERP), the
 * first of which has a blended lane and so is a run of its own. AVX2
 * reads a job's two blocks' bases and scales at once only where they are
 * a pair (kf_layout.h, KF_DEQUANT_FIELD): every set must agree with the
 * scalar one, bit for bit, and the quantized lanes be what was asked. */
static void check_quantized_runs(void)
{
    enum { LANES = 12 };
    double times[KEYS];
    for (int i = 0; i < KEYS; i++)
        times[i] = 0.25 * i;
    kf_builder *b = builder_with(0.0);
    for (int interp = 0; interp < 2; interp++)
        for (int n = 0; n < LANES; n++) {
            float v[KEYS * 4];
            for (int k = 0; k < KEYS; k++) {
                if (!interp) {
                    for (int m = 0; m < 3; m++)
                        v[3 * k + m] = (float)(floor(uniform() * 4096.0) / 256.0 - 8.0);
                    continue;
                }
                double q[4];
                random_quat(NULL, 0.0, q);
                if (fabs(q[3]) < 0.3) { /* w rebuilt: keep it large */
                    k--;
                    continue;
                }
                float *r = v + 4 * k;
                for (int m = 0; m < 3; m++)
                    r[m] = (float)(nearbyint(q[m] * 1024.0) / 1024.0 + 0.0);
                CHECK(kf_unit_rest(r, 4, 3, q[3] < 0, &r[3]), "unit rest");
            }
            char name[32], target[64];
            snprintf(name, sizeof name, "r%d_%d", interp, n);
            snprintf(target, sizeof target, "r%d_%d.%s", interp, n == 1 ? 0 : n,
                     interp ? "orientation" : "translation");
            add_values(b, name, target, interp ? KF_INTERPOLATION_SLERP : KF_INTERPOLATION_LINEAR,
                       interp ? 4 : 3, KEYS, times, v, NULL);
        }
    kf_anim *anim = load_built(b, "quantized runs");
    if (!anim)
        return;
    for (uint32_t si = 0; si < 2 * LANES; si++)
        CHECK(quantized_bits(anim, si) == 12, "%s: %u bits, want 12",
              kf_anim_sequence(anim, si)->name, quantized_bits(anim, si));
    const kf_kernels *sets[MAX_SETS];
    kf_player *p[MAX_SETS];
    const int set_count = create_players(anim, sets, p);
    for (int step = 0; step < 400; step++) {
        const double t = step < 200 ? step / 60.0 : uniform() * 3 * KEYS * 0.25;
        for (int k = 0; k < set_count; k++)
            kf_player_update(p[k], t);
        for (uint32_t target = 0; target < anim->objects.count[KF_KIND_TARGET]; target++)
            for (int k = 1; k < set_count; k++)
                CHECK(memcmp(kf_player_value(p[0], target), kf_player_value(p[k], target),
                             anim->objects.targets[target].components * sizeof(float)) == 0,
                      "target %u t=%.17g: %s differs from scalar", target, t, sets[k]->name);
    }
    for (int k = 0; k < set_count; k++)
        kf_player_destroy(p[k]);
    kf_anim_free(anim);
}

/* SQUAD as kfc -e writes it (kf_builder_reduce): its keys and its
 * intermediates a and b put on a grid, x, y and z, each w rebuilt; kept
 * as a quantized SQUAD lane (kf_layout.h, KF_QSQUAD_GRID) of 16, 12 or 8
 * bits as the bound makes the grid fine or coarse. Each key, a and b must
 * read back as the very floats the builder reduced them to, written again
 * the same, and every set play them as the scalar one does, bit for bit,
 * the scalar one as sampling does; turns small and large, a loop and a
 * lane that holds its last key (CONSTANT); evenly spaced keys, whose a and
 * b are the same and kept once. Too few keys: floats. */
static void check_quantized_squad(void)
{
    enum { BOUNDS = 3, SQUADS = 7 };
    static const double degrees[BOUNDS] = {0.008, 0.14, 3.0};
    static float want[SQUADS][3][KEYS * 4];
    unsigned widths_met = 0, shared_met = 0, float_w_met = 0;
    for (int bound_at = 0; bound_at < BOUNDS; bound_at++) {
        /* the middle bound's keys evenly spaced: every a of a loop is its
         * b, which the layout keeps once (kf_block_shared) */
        double times[KEYS];
        for (int i = 0; i < KEYS; i++)
            times[i] = 0.25 * i + (bound_at == 1 ? 0.0 : 0.1 * uniform());
        kf_builder *b = builder_with(0.0);
        uint32_t keys[SQUADS];
        for (int n = 0; n < SQUADS; n++) {
            double values[KEYS * 4], q[4] = {0, 0, 0, 1};
            keys[n] = n == SQUADS - 1 ? QUANTIZE_KEYS_LEAST - 1 : KEYS;
            for (uint32_t k = 0; k < keys[n]; k++) {
                double prev[4];
                memcpy(prev, q, sizeof prev);
                do /* w the component rebuilt: keep it large */
                    random_quat(k ? prev : NULL, n == 1 ? 0.8 : 0.05, q);
                while (fabs(q[3]) < 0.6);
                for (int m = 0; m < 4; m++)
                    values[4 * k + m] = q[3] < 0 ? -q[m] : q[m];
            }
            char name[32], target[48];
            snprintf(name, sizeof name, "sq%d_%d", bound_at, n);
            snprintf(target, sizeof target, "sq%d_%d.orientation", bound_at, n);
            kf_sequence_desc d = {name,
                                  KF_INTERPOLATION_SQUAD,
                                  n == 2 ? KF_REPEAT_CONSTANT : KF_REPEAT_LOOP,
                                  times[keys[n] - 1] + 0.3,
                                  4,
                                  keys[n],
                                  times,
                                  values,
                                  0,
                                  keys[n] - 1,
                                  NULL,
                                  0,
                                  NULL};
            kf_error e;
            CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
            kf_track_desc track = {name, "c", target, 0};
            CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "%s: %s", target, e.message);
        }
        double bound[KF_BOUND_COUNT] = {0}, worst[KF_BOUND_COUNT] = {0};
        bound[KF_BOUND_ORIENTATION] = degrees[bound_at];
        kf_error e;
        CHECK(kf_builder_reduce(b, bound, worst, &e) == KF_OK &&
                  worst[KF_BOUND_ORIENTATION] > 0.0 &&
                  worst[KF_BOUND_ORIENTATION] <= degrees[bound_at],
              "reduce to %g degrees: worst %g", degrees[bound_at], worst[KF_BOUND_ORIENTATION]);
        /* what the builder reduced them to (its arrays: floats) */
        for (int n = 0; n < SQUADS; n++) {
            const struct kf_sequence *s = &b->objects.sequences[n];
            memcpy(want[n][0], s->values, 4 * (size_t)keys[n] * sizeof(float));
            memcpy(want[n][1], s->tangent_out, 4 * (size_t)keys[n] * sizeof(float));
            memcpy(want[n][2], s->tangent_in, 4 * (size_t)keys[n] * sizeof(float));
        }
        kf_anim *anim = load_built(b, "quantized SQUAD");
        if (!anim)
            return;
        kf_anim *again = written_again(anim);
        for (int n = 0; n < SQUADS; n++) {
            const int want_q = keys[n] >= QUANTIZE_KEYS_LEAST;
            CHECK(is_quantized(anim, (uint32_t)n) == want_q &&
                      (!again || is_quantized(again, (uint32_t)n) == want_q),
                  "sq%d_%d: quantized %d, want %d", bound_at, n, is_quantized(anim, (uint32_t)n),
                  want_q);
            if (want_q && is_quantized(anim, (uint32_t)n)) {
                widths_met |= 1u << kf_qwidth(quantized_bits(anim, (uint32_t)n));
                const int same = memcmp(want[n][1], want[n][2], 4 * keys[n] * sizeof(float)) == 0;
                const struct kf_layout *L = anim->layout;
                CHECK(kf_block_shared(&L->blocks[L->block_of[n]]) == same,
                      "sq%d_%d: a and b kept %s, but they are %s", bound_at, n,
                      same ? "apart" : "once", same ? "the same" : "not");
                shared_met |= 1u << same;
                float_w_met |= 1u << rebuilds_w_in_float(anim, (uint32_t)n);
            }
            for (int r = 0; r < 2; r++) {
                const kf_anim *x = r ? again : anim;
                if (!x)
                    continue;
                const struct kf_sequence *s = &x->objects.sequences[n];
                const float *arrays[3] = {s->values, s->tangent_out, s->tangent_in};
                for (uint32_t k = 0; k < keys[n]; k++)
                    for (int part = 0; part < 3; part++) {
                        float buf[KF_BLOCK_COMPONENTS] = {0};
                        const float *got = kf_key_floats(s, arrays[part], k, buf);
                        CHECK(memcmp(got, want[n][part] + 4 * k, 4 * sizeof *got) == 0,
                              "sq%d_%d%s key %u %s: %.9g %.9g %.9g %.9g, reduced to %.9g %.9g "
                              "%.9g %.9g",
                              bound_at, n, r ? " written again" : "", k,
                              part == 0   ? "value"
                              : part == 1 ? "a"
                                          : "b",
                              got[0], got[1], got[2], got[3], want[n][part][4 * k],
                              want[n][part][4 * k + 1], want[n][part][4 * k + 2],
                              want[n][part][4 * k + 3]);
                    }
            }
        }
        const kf_kernels *sets[MAX_SETS];
        kf_player *p[MAX_SETS], *pr = NULL;
        const int set_count = create_players(anim, sets, p);
        CHECK(!again || kf_player_create(again, NULL, &pr) == KF_OK, "written again: player");
        for (int step = 0; step < 600; step++) {
            double t = step < 300 ? step / 60.0 : uniform() * 3 * KEYS * 0.25 - KEYS * 0.25;
            if (step % 9 == 0)
                t = times[(uint32_t)(uniform() * KEYS)];
            for (int k = 0; k < set_count; k++)
                kf_player_update(p[k], t);
            if (pr)
                kf_player_update(pr, t);
            for (int n = 0; n < SQUADS; n++) {
                const kf_track *tr = &anim->objects.tracks[n];
                const kf_sequence *s = &anim->objects.sequences[tr->animator];
                const float *got = kf_player_value(p[0], tr->target);
                for (int k = 1; k < set_count; k++)
                    CHECK(memcmp(got, kf_player_value(p[k], tr->target), 4 * sizeof *got) == 0,
                          "%s t=%.17g: %s differs from scalar", s->name, t, sets[k]->name);
                CHECK(!pr || memcmp(got, kf_player_value(pr, tr->target), 4 * sizeof *got) == 0,
                      "%s t=%.17g: written again, plays otherwise", s->name, t);
                float sample[4];
                kf_sequence_sample(s, t, NULL, sample);
                const double off = orientation_off(got, sample);
                CHECK(off <= 1e-6, "%s t=%.17g: orientation off by %.3g", s->name, t, off);
            }
        }
        for (int k = 0; k < set_count; k++)
            kf_player_destroy(p[k]);
        kf_player_destroy(pr);
        kf_anim_free(again);
        kf_anim_free(anim);
    }
    CHECK(widths_met == 7u, "quantized SQUAD: widths met %#x, want every one", widths_met);
    CHECK(shared_met == 3u, "quantized SQUAD: a and b kept once and apart (%#x)", shared_met);
    CHECK(float_w_met == 3u, "quantized SQUAD: w rebuilt in float and in double (%#x)",
          float_w_met);
}

/* A HERMITE sequence's authored key tangents on a grid (kfc -e) are kept
 * as uint16 too (kf_key_tangent): read back as the very floats given, and
 * no TCB appears where they are. */
static void check_quantized_key_tangents(void)
{
    enum { SEQS = 3 };
    static const uint32_t width[SEQS] = {3, 3, 9};
    double times[KEYS], tangents[SEQS][KEYS * 2 * 9];
    float values[KEYS * 9];
    for (int i = 0; i < KEYS; i++)
        times[i] = 0.125 * i + 0.1 * uniform();
    kf_builder *b = builder_with(0.0);
    for (int q = 0; q < SEQS; q++) {
        const uint32_t c = width[q];
        for (uint32_t k = 0; k < KEYS * c; k++)
            values[k] = (float)(uniform() * 2 - 1);
        for (uint32_t k = 0; k < KEYS * 2 * c; k++)
            tangents[q][k] = floor(uniform() * 2048.0 - 1024.0) / 128.0;
        if (q == 1)
            tangents[q][17] += 1e-4; /* off the grid */
        char name[32], target[48];
        snprintf(name, sizeof name, "h%d", q);
        snprintf(target, sizeof target, "h%d.morph_weights", q);
        add_values(b, name, target, KF_INTERPOLATION_HERMITE, c, KEYS, times, values, tangents[q]);
    }
    kf_anim *anim = load_built(b, "key tangents");
    if (!anim)
        return;
    for (int q = 0; q < SEQS; q++) {
        const kf_sequence *s = kf_anim_sequence(anim, (uint32_t)q);
        const uint32_t c = width[q];
        CHECK((s->key_tangent_dequant != NULL) == (q == 0), "%s: key tangents quantized %d",
              s->name, s->key_tangent_dequant != NULL);
        for (uint32_t k = 0; k < KEYS; k++) {
            float in[9], out[9], tcb[3];
            kf_sequence_key_tangents(s, k, in, out);
            for (uint32_t m = 0; m < c; m++)
                CHECK(in[m] == (float)tangents[q][2 * c * k + m] &&
                          out[m] == (float)tangents[q][2 * c * k + c + m],
                      "%s key %u component %u: %g %g, given %g %g", s->name, k, m, in[m], out[m],
                      tangents[q][2 * c * k + m], tangents[q][2 * c * k + c + m]);
            kf_sequence_key_tcb(s, k, tcb);
            CHECK(tcb[0] == 0.0f && tcb[1] == 0.0f && tcb[2] == 0.0f, "%s key %u: a TCB", s->name,
                  k);
        }
    }
    kf_anim_free(anim);
}

/* The length of the segment from valid key k of s as the reader scales
 * HERMITE's tangents by it: -1 where none is played. */
static double played_length(const kf_sequence *s, uint32_t k)
{
    if (k + 1 < s->valid_count)
        return (double)s->times[k + 1] - s->times[k];
    if (s->repeat == KFB_REPEAT_LOOP)
        return (double)s->duration - s->times[k] + s->times[0];
    return -1.0;
}

/* A HERMITE sequence whose values and key tangents lie on grids (what kfc
 * -e writes) is played from a quantized block: values and key tangents as
 * integers of 16, 12 or 8 bits (lanes 3 and 10 to 13 of a clock take 12,
 * lane 4 takes 8), the key tangents scaled by the segment's length in the
 * kernel. Its keys, key tangents and scaled tangents must read back as the
 * reader's float form has them, every set must play it as the scalar one
 * and as sampling does, bit for bit, near the double reference, with the
 * velocity of the curve given; clocks that loop, loop with a wrap of no
 * length (a key at the period's end) and hold with two keys at one time;
 * and the animation written again must load and play the same. Lanes 7
 * and 11 to 13 have one tangent per key, incoming and outgoing the same,
 * which the layout keeps once (kf_block_shared): lane 7 a block of its
 * own (16 bits), 11 to 13 one of three lanes beside lane 10's. */
static void check_quantized_hermite(void)
{
    enum { CLOCKS = 4, PER_CLOCK = 14, ALL = CLOCKS * PER_CLOCK };
    static const uint32_t width[PER_CLOCK] = {1, 2, 3, 3, 3, 3, 3, 4, 5, 3, 3, 3, 3, 3};
    double times[CLOCKS][KEYS];
    static float values[ALL][KEYS * 5];
    static double tangents[ALL][KEYS * 2 * 5];
    int want_q[ALL], want_shared[ALL];
    uint32_t want_bits[ALL];
    kf_builder *b = builder_with(0.0);
    for (int clock = 0; clock < CLOCKS; clock++) {
        /* Times a float difference apart (on a grid of 2^-9 below 16), but
         * in the last clock: there the first key is so near 0 that the
         * first segment's length is no float, and the tangents scaled by
         * it no float product (kf_layout.c keeps such lanes floats). */
        for (int i = 0; i < KEYS; i++)
            times[clock][i] = 0.25 * i + floor(uniform() * 100) / 512;
        if (clock == 3)
            times[clock][0] = 0.0123456789;
        if (clock == 1) /* its key 0 at 0: the last key ends the period */
            times[clock][0] = 0.0;
        if (clock == 2) /* keys 10 and 11 at one time */
            times[clock][11] = times[clock][10];
        for (int q = 0; q < PER_CLOCK; q++) {
            const int at = clock * PER_CLOCK + q;
            const uint32_t c = width[q];
            const double offset = (double)(q * 37 % 29) - 14.0;
            const int twelve = q == 3 || q >= 10, eight = q == 4;
            const double steps = twelve  ? 4096.0
                                 : eight ? 256.0
                                         : 32768.0,
                         tangent_steps = eight ? 256.0 : 2048.0;
            for (uint32_t k = 0; k < KEYS * c; k++)
                values[at][k] = (float)(offset + floor(uniform() * steps) / 1024.0);
            for (uint32_t k = 0; k < KEYS * 2 * c; k++)
                tangents[at][k] = floor(uniform() * tangent_steps - tangent_steps / 2) / 128.0;
            const int smooth = q == 7 || q >= 11;
            for (uint32_t k = 0; smooth && k < KEYS; k++)
                memcpy(tangents[at] + 2 * c * k, tangents[at] + 2 * c * k + c,
                       c * sizeof **tangents);
            want_shared[at] = smooth;
            if (q == 10) { /* smooth but at one key (a different one per clock) */
                static const uint32_t rough[CLOCKS] = {1, 2, 6, 3};
                for (uint32_t k = 0; k < KEYS; k++)
                    memcpy(tangents[at] + 2 * c * k, tangents[at] + 2 * c * k + c,
                           c * sizeof **tangents);
                tangents[at][2 * c * rough[clock] + 1] += 1.0 / 128.0;
            }
            if (clock == 3) {
                /* key 0's outgoing tangent, on its grid, whose product with
                 * the first segment's length (a double: no float) rounds
                 * otherwise than with that length as a float */
                const double len = (double)(float)times[clock][1] - (float)times[clock][0];
                int found = 0;
                for (int g = 1; g < 1024 && !found; g++) {
                    const double kt = g / 128.0;
                    if ((float)(kt * len) != (float)kt * (float)len) {
                        tangents[at][c] = kt;
                        found = 1;
                    }
                }
                CHECK(found, "a tangent that the first segment's length rounds otherwise");
            }
            want_q[at] = clock != 3;
            want_bits[at] = twelve ? 12 : eight ? 8 : 16;
            if (q == 5) { /* a key tangent off its grid */
                tangents[at][2 * c * 7 + 4] += 1e-4;
                want_q[at] = 0;
            } else if (q == 6) { /* a value off its grid */
                values[at][13] += 1e-4f;
                want_q[at] = 0;
            }
            char name[32], target[48];
            snprintf(name, sizeof name, "qh%d", at);
            snprintf(target, sizeof target, "qh%d.%s", at,
                     c == 3 ? "translation" : "morph_weights");
            double v[KEYS * 5];
            for (uint32_t k = 0; k < KEYS * c; k++)
                v[k] = values[at][k];
            /* a loop, a loop whose last key is the period's end, a hold */
            const double duration =
                clock == 1 ? (double)(float)times[clock][KEYS - 1] : times[clock][KEYS - 1] + 0.3;
            kf_sequence_desc d = {name,
                                  KF_INTERPOLATION_HERMITE,
                                  clock == 2 ? KF_REPEAT_CONSTANT : KF_REPEAT_LOOP,
                                  duration,
                                  c,
                                  KEYS,
                                  times[clock],
                                  v,
                                  0,
                                  KEYS - 1,
                                  NULL,
                                  0,
                                  tangents[at]};
            kf_error e;
            CHECK(kf_builder_add_sequence(b, &d, &e) == KF_OK, "%s: %s", name, e.message);
            kf_track_desc track = {name, "c", target, 0};
            CHECK(kf_builder_add_track(b, &track, &e) == KF_OK, "%s: %s", target, e.message);
        }
    }
    kf_anim *anim = load_built(b, "quantized HERMITE");
    if (!anim)
        return;
    /* The animation written again, and loaded: the same lanes, the same
     * keys and the same play. */
    kf_anim *reloaded = written_again(anim);
    if (!reloaded) {
        kf_anim_free(anim);
        return;
    }
    for (uint32_t si = 0; si < ALL; si++) {
        const kf_sequence *s = kf_anim_sequence(anim, si), *r = kf_anim_sequence(reloaded, si);
        const uint32_t c = s->components;
        CHECK(is_quantized(anim, si) == want_q[si] && is_quantized(reloaded, si) == want_q[si],
              "%s: quantized %d (written again: %d), want %d", s->name, is_quantized(anim, si),
              is_quantized(reloaded, si), want_q[si]);
        CHECK(!want_q[si] || quantized_bits(anim, si) == want_bits[si], "%s: %u bits, want %u",
              s->name, quantized_bits(anim, si), want_bits[si]);
        CHECK(!want_q[si] || kf_block_shared(&anim->layout->blocks[anim->layout->block_of[si]]) ==
                                 want_shared[si],
              "%s: key tangents kept once %d, want %d", s->name,
              kf_block_shared(&anim->layout->blocks[anim->layout->block_of[si]]), want_shared[si]);
        for (uint32_t k = 0; k < KEYS; k++) {
            float got[5], in[5], out[5], rin[5], rout[5];
            kf_sequence_key(s, k, NULL, got);
            CHECK(memcmp(got, values[si] + k * c, c * sizeof *got) == 0,
                  "%s key %u: %.9g, given %.9g", s->name, k, got[0], values[si][k * c]);
            kf_sequence_key_tangents(s, k, in, out);
            kf_sequence_key_tangents(r, k, rin, rout);
            for (uint32_t m = 0; m < c; m++) {
                CHECK(in[m] == (float)tangents[si][2 * c * k + m] &&
                          out[m] == (float)tangents[si][2 * c * k + c + m] && in[m] == rin[m] &&
                          out[m] == rout[m],
                      "%s key %u component %u: key tangents %g %g, given %g %g", s->name, k, m,
                      in[m], out[m], tangents[si][2 * c * k + m], tangents[si][2 * c * k + c + m]);
                /* The scaled tangents, as the reader's rule gives them
                 * from the key tangents and the float times. */
                const double next = played_length(s, k),
                             prev = played_length(s, k ? k - 1 : KEYS - 1);
                const float want_out = next > 0.0 ? (float)(out[m] * next) : 0.0f;
                const float want_in = prev > 0.0 ? (float)(in[m] * prev) : 0.0f;
                const float got_out = kf_key_float(s, s->tangent_out, k, m),
                            got_in = kf_key_float(s, s->tangent_in, k, m);
                CHECK(memcmp(&got_out, &want_out, sizeof got_out) == 0 &&
                          memcmp(&got_in, &want_in, sizeof got_in) == 0,
                      "%s key %u component %u: tangents %.9g %.9g, want %.9g %.9g", s->name, k, m,
                      got_in, got_out, want_in, want_out);
            }
        }
        /* The velocity mid-segment: the Hermite curve's derivative from the
         * keys and key tangents given, in double. */
        for (uint32_t k = 0; k + 1 < KEYS; k++) {
            const double len = played_length(s, k);
            if (!(len > 0.0))
                continue;
            const double t = s->times[k] + 0.37 * len, u = (t - s->times[k]) / len;
            const double d0 = 6 * u * u - 6 * u, d1 = -d0, d2 = 3 * u * u - 4 * u + 1,
                         d3 = 3 * u * u - 2 * u;
            float vel[5];
            CHECK(kf_sequence_velocity(s, t, NULL, vel) == KF_OK, "%s: velocity", s->name);
            for (uint32_t m = 0; m < c; m++) {
                const double a = values[si][k * c + m], e = values[si][(k + 1) * c + m];
                const double want = (d0 * a + d1 * e) / len +
                                    d2 * (float)tangents[si][2 * c * k + c + m] +
                                    d3 * (float)tangents[si][2 * c * (k + 1) + m];
                CHECK(fabs(vel[m] - want) <= 1e-4 * fmax(1.0, fabs(want)),
                      "%s t=%g: velocity %.9g, want %.9g", s->name, t, vel[m], want);
            }
        }
    }
    const kf_kernels *sets[MAX_SETS];
    kf_player *p[MAX_SETS], *pr = NULL;
    const int set_count = create_players(anim, sets, p);
    CHECK(kf_player_create(reloaded, NULL, &pr) == KF_OK, "written again: player");
    for (int step = 0; step < 900; step++) {
        const int clock = step % CLOCKS;
        double t = step < 450 ? step / 45.0 : uniform() * 30 - 5;
        if (step % 7 == 0)
            t = times[clock][(uint32_t)(uniform() * KEYS)];
        for (int k = 0; k < set_count; k++)
            kf_player_update(p[k], t);
        kf_player_update(pr, t);
        for (uint32_t si = 0; si < ALL; si++) {
            const kf_track *tr = &anim->objects.tracks[si];
            const kf_sequence *s = &anim->objects.sequences[tr->animator];
            const uint32_t c = s->components;
            const float *got = kf_player_value(p[0], tr->target);
            for (int k = 1; k < set_count; k++)
                CHECK(memcmp(got, kf_player_value(p[k], tr->target), c * sizeof *got) == 0,
                      "%s t=%.17g: %s differs from scalar", s->name, t, sets[k]->name);
            CHECK(memcmp(got, kf_player_value(pr, tr->target), c * sizeof *got) == 0,
                  "%s t=%.17g: written again, plays otherwise", s->name, t);
            float want[5], exact[5];
            kf_sequence_sample(s, t, NULL, want);
            kf_sequence_sample_exact(s, t, exact);
            CHECK(memcmp(got, want, c * sizeof *got) == 0,
                  "%s t=%.17g: scalar kernel %.9g, sampling %.9g", s->name, t, got[0], want[0]);
            for (uint32_t m = 0; m < c; m++)
                CHECK(fabs(got[m] - exact[m]) <= 2e-5 * fmax(1.0, fabs(exact[m])),
                      "%s t=%.17g: %.9g, the double reference %.9g", s->name, t, got[m], exact[m]);
        }
    }
    for (int k = 0; k < set_count; k++)
        kf_player_destroy(p[k]);
    kf_player_destroy(pr);
    kf_anim_free(reloaded);
    kf_anim_free(anim);
}

int main(void)
{
    check_float_rest();
    check_quantized();
    check_quantized_runs();
    check_quantized_key_tangents();
    check_quantized_hermite();
    check_quantized_squad();
    check_mixed_stripes();
    kf_anim *anim = build();
    CHECK(anim != NULL, "encode/load");
    if (!anim)
        return kf_test_report("test_player_kernels");
    const struct kf_layout *L = anim->layout;
    CHECK(L != NULL && L->block_count == (PER + 3) / 4 * KFB_INTERP_COUNT +
                                             (WIDE_PER + 3) / 4 * 3 * (KFB_INTERP_COUNT - 2),
          "blocks: %u", L ? L->block_count : 0);

    const kf_kernels *sets[MAX_SETS];
    kf_player *p[MAX_SETS];
    const int set_count = create_players(anim, sets, p);
    const uint32_t targets = kf_anim_count(anim, KF_KIND_TARGET);
    const double duration = anim->objects.sequences[0].duration;
    double worst_orientation = 0;
    uint32_t bitwise = 0;
    for (int step = 0; step < STEPS; step++) {
        /* forward, then random, some at key times, some far out */
        double t =
            step < STEPS / 2 ? step * (1000.0 / 60) / 50 : uniform() * 3 * duration - duration;
        if (step % 13 == 0)
            t = anim->objects.sequences[0].times[(uint32_t)(uniform() * KEYS)];
        for (int k = 0; k < set_count; k++)
            kf_player_update(p[k], t);
        for (uint32_t ti = 0; ti < targets; ti++) {
            const float *a = kf_player_value(p[0], ti);
            const uint32_t c = anim->objects.targets[ti].components;
            for (int k = 1; k < set_count; k++)
                CHECK(memcmp(a, kf_player_value(p[k], ti), c * sizeof *a) == 0,
                      "%s t=%.17g: %s differs from scalar", anim->objects.targets[ti].name, t,
                      sets[k]->name);
        }
        /* Single-track targets on the full-weight controller against sampling. */
        for (uint32_t si = 0; si < PER * KFB_INTERP_COUNT; si++) {
            const kf_track *tr = &anim->objects.tracks[si];
            const int index = (int)(si % PER);
            const kf_sequence *s = &anim->objects.sequences[tr->animator];
            float want[4];
            kf_sequence_sample(s, t, NULL, want);
            if (index == 2 && s->components == 3) { /* blended with the next: the sum */
                float other[3];
                kf_sequence_sample(s + 1, t, NULL, other);
                const float *got = kf_player_value(p[0], tr->target);
                for (int m = 0; m < 3; m++)
                    CHECK(fabs(got[m] - ((double)want[m] + other[m])) <=
                              1e-6 * fmax(1.0, fabs(got[m])),
                          "%s t=%.17g: blend %g, want %g", s->name, t, got[m],
                          (double)want[m] + other[m]);
            }
            if (index == 2 || index == 3 || index == 6)
                continue;
            const float *got = kf_player_value(p[0], tr->target);
            if (s->components == 3) {
                CHECK(memcmp(got, want, 3 * sizeof *got) == 0, "%s t=%.17g: scalar kernel", s->name,
                      t);
                bitwise++;
            } else {
                const double e = orientation_off(got, want);
                worst_orientation = fmax(worst_orientation, e);
                CHECK(e <= 1e-6, "%s t=%.17g: orientation off by %.3g", s->name, t, e);
            }
        }
        /* The other widths, each alone on its target. */
        for (uint32_t si = PER * KFB_INTERP_COUNT; si < anim->objects.count[KF_KIND_SEQUENCE];
             si++) {
            const kf_track *tr = &anim->objects.tracks[si];
            const kf_sequence *s = &anim->objects.sequences[tr->animator];
            float want[5];
            kf_sequence_sample(s, t, NULL, want);
            CHECK(memcmp(kf_player_value(p[0], tr->target), want, s->components * sizeof *want) ==
                      0,
                  "%s t=%.17g: scalar kernel", s->name, t);
            bitwise++;
        }
    }
    char names[64] = "";
    for (int k = 0; k < set_count; k++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                 sets[k]->name);
    printf("test_player_kernels: kernel sets %s agree bit for bit; %u vector samples equal to "
           "sampling; orientations within %.3g\n",
           names, bitwise, worst_orientation);
    for (int k = 0; k < set_count; k++)
        kf_player_destroy(p[k]);
    kf_anim_free(anim);
    return kf_test_report("test_player_kernels");
}
