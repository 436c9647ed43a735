/* SPDX-License-Identifier: MIT */
/*
 * test_threads.c - kf.h's thread rule, under ThreadSanitizer (scons
 * test-tsan) as well as in the ordinary builds: one loaded kf_anim shared by
 * THREADS threads, each with its own players and follower states, while
 * other threads load the same bytes and compile with compress-ahead
 * builders (a second thread each). Every thread's results must equal the
 * ones computed alone beforehand; the sanitizer reports any data race.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>

#include "kf_test.h"
#include "test_util.h"

enum { THREADS = 4, ROUNDS = 3 };

/* Plays `anim` with one player and one follower state per follower; a
 * checksum of every value seen. */
static double play(const kf_anim *anim)
{
    double sum = 0;
    kf_player *p;
    if (kf_player_create(anim, NULL, &p) != KF_OK)
        return -1;
    for (int i = 0; i < 200; i++) {
        kf_player_update(p, 13.7 * i);
        for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
            kf_target_info ti;
            kf_anim_target_info(anim, t, &ti);
            const float *v = kf_player_value(p, t);
            for (uint32_t c = 0; c < ti.components; c++)
                sum += v[c] * (double)(c + 1);
        }
    }
    kf_player_destroy(p);
    for (uint32_t f = 0; f < kf_anim_count(anim, KF_KIND_FOLLOWER); f++) {
        const kf_follower *fl = kf_anim_follower(anim, f);
        kf_follower_state *s;
        if (kf_follower_state_create(fl, 8, NULL, &s) != KF_OK)
            return -1;
        float dest[64] = {0};
        for (int i = 0; i < 50; i++) {
            for (uint32_t c = 0; c < kf_follower_components(fl) && c < 64; c++)
                dest[c] = (float)((i * 7 + (int)c) % 5) * 0.25f;
            kf_follower_set_destination(s, dest, 0.1 * i);
            kf_follower_update(s, 0.1 * i + 0.05);
            sum += kf_follower_value(s)[0];
        }
        kf_follower_state_destroy(s);
    }
    sum += test_exercise(anim);
    return sum;
}

/* A compress-ahead build of the rich animation plus extra sequences. */
static test_bytes build_ahead(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes out = {0};
    if (!b || kf_builder_compress_ahead(b, 1) != KF_OK)
        return out;
    double times[20], values[20];
    for (int i = 0; i < 60; i++) {
        for (int k = 0; k < 20; k++) {
            times[k] = 10.0 * k;
            values[k] = (double)((i * 31 + k * 17) % 23);
        }
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        kf_sequence_desc d = {name,
                              KF_INTERPOLATION_LINEAR,
                              KF_REPEAT_LOOP,
                              200,
                              1,
                              20,
                              times,
                              values,
                              0,
                              19,
                              NULL,
                              0,
                              NULL};
        kf_builder_add_sequence(b, &d, NULL);
    }
    kf_encode_options o = {sizeof o, 1, 0};
    kf_builder_encode(b, &o, test_bytes_write, &out, NULL);
    kf_builder_destroy(b);
    return out;
}

typedef struct job {
    const kf_anim *shared;
    const test_bytes *file;
    double played;    /* out: play(shared) */
    double loaded;    /* out: play() of this thread's own load */
    test_bytes built; /* out: last compress-ahead build */
} job;

static void *run(void *arg)
{
    job *j = arg;
    for (int r = 0; r < ROUNDS; r++) {
        j->played = play(j->shared);
        kf_anim *own = NULL;
        j->loaded = kf_load_memory(j->file->data, j->file->size, NULL, &own, NULL) == KF_OK
                        ? play(own)
                        : -2;
        kf_anim_free(own);
        free(j->built.data);
        j->built = build_ahead();
    }
    return NULL;
}

int main(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes file;
    kf_anim *anim = test_encode_load(b, &file);
    kf_builder_destroy(b);
    CHECK(anim != NULL, "rich animation");
    if (!anim)
        return kf_test_report("test_threads");
    const double alone = play(anim);
    const test_bytes reference = build_ahead();
    CHECK(reference.size > 0, "compress-ahead build");
    CHECK(alone > 0 || alone < 0 || alone != alone, "played");
    CHECK(alone != -1.0, "a player and follower states were created");
    printf("test_threads: checksum %.17g, compress-ahead file %zu bytes, %d threads x %d rounds\n",
           alone, reference.size, THREADS, ROUNDS);

    pthread_t threads[THREADS];
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){anim, &file, 0, 0, {0}};
        CHECK(pthread_create(&threads[i], NULL, run, &jobs[i]) == 0, "thread %d", i);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        /* Bit for bit (NaN included: the same operations on the same data). */
        CHECK(memcmp(&jobs[i].played, &alone, sizeof alone) == 0,
              "thread %d: shared anim played %.17g, alone %.17g", i, jobs[i].played, alone);
        CHECK(memcmp(&jobs[i].loaded, &alone, sizeof alone) == 0,
              "thread %d: own load played %.17g", i, jobs[i].loaded);
        CHECK(jobs[i].built.size == reference.size &&
                  memcmp(jobs[i].built.data, reference.data, reference.size) == 0,
              "thread %d: compress-ahead bytes differ", i);
        free(jobs[i].built.data);
    }
    free(reference.data);
    free(file.data);
    kf_anim_free(anim);
    return kf_test_report("test_threads");
}
