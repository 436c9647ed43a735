/* SPDX-License-Identifier: MIT */
/*
 * kfbench - how fast libkf plays, loads and is built, on workload W
 * (tests/bench/gen_workload.py). Speed is measured here, never asserted.
 *
 *   kfbench time LINEAR.kfb SPLINE.kfb [ROUNDS]
 *       wall-time figures as JSON on stdout: forward playback at 60 Hz and
 *       random-access sampling through a persistent kf_player (ns per
 *       track-sample: one joint's translation + rotation + scale at one
 *       time), loading from memory (through malloc, and through an
 *       allocator that reuses what was freed) next to zlib alone inflating
 *       the same sections, what a loaded clip holds (bytes), and file sizes.
 *       Medians and spread over ROUNDS rounds.
 *   kfbench count forward|between|random FILE.kfb FRAMES [scalar|sse2|avx2]
 *       plays FRAMES updates (at 60 Hz; at 60 Hz half a frame later, so
 *       that no frame lands on a key; at random times) and nothing else: run under
 *       valgrind --tool=callgrind --toggle-collect=kf_player_update with two
 *       frame counts and divide the difference (tests/bench/run_bench.py);
 *       with the kernel set named, rather than the one the library picks.
 *   kfbench count load|inflate FILE.kfb TIMES
 *       loads FILE.kfb (kf_load_memory), or inflates its compressed
 *       sections with zlib alone (inflate_sections), TIMES times: run under
 *       valgrind --tool=callgrind --toggle-collect=kf_load_memory (or
 *       --toggle-collect=inflate_sections) for the instructions a load
 *       costs beside zlib's.
 *   kfbench load FILE.kfb [ROUNDS]
 *       loading alone, as "time" measures it, and the bytes the loaded clip
 *       holds, as JSON: for files the
 *       benchmark writes besides the two above (error-bounded ones).
 *   kfbench build W.flat OUT.kfb
 *       builds W through kf_builder from the generator's flat listing.
 *
 * tests/bench/run_bench.py drives all of it (`scons bench`).
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "kf.h"
#include "kf_build.h"
#include "kfb_format.h"
#include "kf_layout.h"

#define FRAME_RATE 60.0 /* updates per second of animation */
#define LOOP       10.0 /* W's period, in seconds (world time is seconds) */
#define FRAMES     600  /* one loop at FRAME_RATE */

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "kfbench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- files ------------------------------------------------------------- */

typedef struct bytes {
    unsigned char *data;
    size_t size;
} bytes;

static bytes read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open", path);
    bytes b = {NULL, 0};
    size_t cap = 0;
    for (;;) {
        if (b.size == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            b.data = realloc(b.data, cap);
            if (!b.data)
                die("out of memory", NULL);
        }
        size_t n = fread(b.data + b.size, 1, cap - b.size, f);
        if (n == 0)
            break;
        b.size += n;
    }
    if (ferror(f))
        die("cannot read", path);
    fclose(f);
    return b;
}

static kf_anim *load_with(const bytes *b, const kf_allocator *allocator)
{
    kf_anim *anim;
    kf_error err;
    const kf_load_options options = {sizeof options, allocator, 0};
    if (kf_load_memory(b->data, b->size, &options, &anim, &err) != KF_OK)
        die("load", err.message);
    return anim;
}

static kf_anim *load(const bytes *b)
{
    return load_with(b, NULL);
}

/* A caller's allocator that keeps what is freed for the next request of the
 * same size, as a game's pools do: loading again then writes to memory the
 * process has touched before. malloc gives large blocks back to the system
 * when they are freed, and on some machines the page faults of touching
 * them again cost more than the load itself; the two figures tell the
 * loader's work from the system's. */
#define POOL_SLOTS 64

typedef struct pool {
    void *block[POOL_SLOTS];
    size_t size[POOL_SLOTS];
    int count;
} pool;

static void *pool_alloc(void *user, size_t size)
{
    pool *p = user;
    for (int i = 0; i < p->count; i++)
        if (p->size[i] == size) {
            void *block = p->block[i];
            p->count--;
            p->block[i] = p->block[p->count];
            p->size[i] = p->size[p->count];
            return block;
        }
    return malloc(size);
}

static void pool_free(void *user, void *ptr, size_t size)
{
    pool *p = user;
    if (!ptr)
        return;
    if (p->count == POOL_SLOTS) {
        free(ptr);
        return;
    }
    p->block[p->count] = ptr;
    p->size[p->count++] = size;
}

static void pool_drain(pool *p)
{
    while (p->count)
        free(p->block[--p->count]);
}

/* ---- statistics -------------------------------------------------------- */

typedef struct stats {
    double median, min, max;
} stats;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static stats summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    stats s = {n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1]};
    return s;
}

static void print_stats(const char *name, stats s, const char *unit, int last)
{
    printf("    \"%s\": {\"median\": %.6g, \"min\": %.6g, \"max\": %.6g, \"unit\": \"%s\"}%s\n",
           name, s.median, s.min, s.max, unit, last ? "" : ",");
}

/* ---- playback ---------------------------------------------------------- */

/* Uniform random times in [0, LOOP): a fixed linear congruential
 * sequence, so every run samples the same times. */
static void random_times(double *t, int n)
{
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        t[i] = (double)(x >> 11) * (1.0 / 9007199254740992.0) * LOOP;
    }
}

static void forward_times(double *t, int n)
{
    for (int i = 0; i < n; i++)
        t[i] = i / FRAME_RATE;
}

/* Forward, half a frame later: W's keys lie on every other frame of
 * forward_times, where a clip plays its holds (one key read, nothing
 * interpolated); here no frame lands on a key, so random access can be
 * set against the same work done in order. */
static void between_times(double *t, int n)
{
    for (int i = 0; i < n; i++)
        t[i] = (i + 0.5) / FRAME_RATE;
}

/* Keeps the compiler from dropping the updates as dead code. */
static volatile float sink;

static void play(kf_player *p, const double *times, int n)
{
    for (int i = 0; i < n; i++)
        kf_player_update(p, times[i]);
    sink = kf_player_value(p, 0)[0];
}

/* ns per track-sample (one joint's T+R+S at one time) over `rounds`. */
static stats time_playback(const kf_anim *anim, const double *times, int rounds)
{
    const uint32_t joints = kf_anim_count(anim, KF_KIND_TARGET) / 3;
    kf_player *p;
    if (kf_player_create(anim, NULL, &p) != KF_OK)
        die("player", NULL);
    double *v = malloc(sizeof *v * (size_t)rounds);
    play(p, times, FRAMES); /* warm the caches */
    for (int r = 0; r < rounds; r++) {
        kf_player_reset(p);
        double t0 = now_ns();
        play(p, times, FRAMES);
        v[r] = (now_ns() - t0) / ((double)FRAMES * joints);
    }
    kf_player_destroy(p);
    stats s = summarize(v, rounds);
    free(v);
    return s;
}

/* As time_playback, but each timed loop comes right after a loop of
 * another clip (`other`, its own player): the caches hold that clip's data,
 * as in a game that plays many characters. */
static stats time_playback_after(const kf_anim *anim, const kf_anim *other, const double *times,
                                 int rounds)
{
    const uint32_t joints = kf_anim_count(anim, KF_KIND_TARGET) / 3;
    kf_player *p, *q;
    if (kf_player_create(anim, NULL, &p) != KF_OK || kf_player_create(other, NULL, &q) != KF_OK)
        die("player", NULL);
    double *v = malloc(sizeof *v * (size_t)rounds);
    play(p, times, FRAMES);
    for (int r = 0; r < rounds; r++) {
        kf_player_reset(q);
        play(q, times, FRAMES);
        kf_player_reset(p);
        double t0 = now_ns();
        play(p, times, FRAMES);
        v[r] = (now_ns() - t0) / ((double)FRAMES * joints);
    }
    kf_player_destroy(p);
    kf_player_destroy(q);
    stats s = summarize(v, rounds);
    free(v);
    return s;
}

/* A player's memory: what kf_player_create keeps allocated. */
static void *count_alloc(void *user, size_t size)
{
    *(size_t *)user += size;
    return malloc(size);
}

/* Keeps the count of what is still allocated. */
static void count_free_sized(void *user, void *ptr, size_t size)
{
    if (ptr)
        *(size_t *)user -= size;
    free(ptr);
}

static size_t player_bytes(const kf_anim *anim)
{
    size_t total = 0;
    kf_allocator a = {count_alloc, count_free_sized, &total};
    kf_player *p;
    if (kf_player_create(anim, &a, &p) != KF_OK)
        die("player", NULL);
    const size_t kept = total;
    kf_player_destroy(p);
    return kept;
}

/* What a loaded clip holds: the bytes kf_load_memory leaves allocated. */
static size_t clip_bytes(const bytes *b)
{
    size_t total = 0;
    kf_allocator a = {count_alloc, count_free_sized, &total};
    kf_anim *anim = load_with(b, &a);
    const size_t held = total;
    kf_anim_free(anim);
    return held;
}

/* ---- loading ----------------------------------------------------------- */

/* zlib alone: inflate every compressed section of the file into a
 * preallocated buffer of `room` bytes, as the loader does, without checks
 * or objects (a DATA stream from 2.3 on holds pieces, the zero runs left
 * out: a little more than the section where it has none, so `room` has
 * slack, see largest_section). */
/* Not inlined: callgrind counts it by name (count inflate). */
static __attribute__((noinline)) void inflate_sections(const bytes *b, unsigned char *out,
                                                       size_t room)
{
    size_t pos = KFB_HEADER_SIZE;
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        kfb_section_header h;
        memcpy(&h, b->data + pos, sizeof h);
        kfb_word_swap(&h, KFB_WORDS(kfb_section_header));
        pos += sizeof h;
        if (h.compression == KFB_COMPRESSION_ZLIB) {
            z_stream z;
            memset(&z, 0, sizeof z);
            if (inflateInit(&z) != Z_OK)
                die("inflateInit", NULL);
            z.next_in = b->data + pos;
            z.avail_in = h.stored_size;
            z.next_out = out;
            z.avail_out = (uInt)room;
            if (inflate(&z, Z_FINISH) != Z_STREAM_END)
                die("inflate", NULL);
            inflateEnd(&z);
        }
        pos += h.stored_size + KFB_SECTION_CRC_SIZE;
    }
}

/* Bytes the largest section's stream may inflate to: its raw size, and
 * each 2.3 piece's two header words. */
static size_t largest_section(const bytes *b)
{
    size_t pos = KFB_HEADER_SIZE, largest = 1;
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        kfb_section_header h;
        memcpy(&h, b->data + pos, sizeof h);
        kfb_word_swap(&h, KFB_WORDS(kfb_section_header));
        if (h.raw_size > largest)
            largest = h.raw_size;
        pos += sizeof h + h.stored_size + KFB_SECTION_CRC_SIZE;
    }
    return largest + 8 * (largest / (4 * KFB_PIECE_WORDS) + 2);
}

typedef struct load_stats {
    stats load_ns;   /* malloc and free */
    stats reused_ns; /* the pool allocator above, warm */
    stats inflate_ns;
} load_stats;

static load_stats time_loading(const bytes *b, int rounds)
{
    double *lv = malloc(sizeof *lv * (size_t)rounds), *pv = malloc(sizeof *pv * (size_t)rounds),
           *iv = malloc(sizeof *iv * (size_t)rounds);
    const size_t room = largest_section(b);
    unsigned char *out = malloc(room);
    pool p = {{NULL}, {0}, 0};
    const kf_allocator pooled = {pool_alloc, pool_free, &p};
    for (int r = -1; r < rounds; r++) { /* round -1 warms up */
        double t0 = now_ns();
        kf_anim *anim = load(b);
        double t1 = now_ns();
        kf_anim_free(anim);
        double t2 = now_ns();
        inflate_sections(b, out, room);
        double t3 = now_ns();
        if (r >= 0) {
            lv[r] = t1 - t0;
            iv[r] = t3 - t2;
        }
    }
    /* Apart: blocks the pool holds would change what malloc does above. */
    for (int r = -1; r < rounds; r++) {
        double t0 = now_ns();
        kf_anim *anim = load_with(b, &pooled);
        double t1 = now_ns();
        kf_anim_free(anim);
        if (r >= 0)
            pv[r] = t1 - t0;
    }
    pool_drain(&p);
    load_stats s = {summarize(lv, rounds), summarize(pv, rounds), summarize(iv, rounds)};
    free(out);
    free(lv);
    free(pv);
    free(iv);
    return s;
}

static void print_load_stats(const load_stats *s)
{
    print_stats("load_ns", s->load_ns, "ns", 0);
    print_stats("load_reused_ns", s->reused_ns, "ns", 0);
    print_stats("inflate_ns", s->inflate_ns, "ns", 1);
}

/* ---- the commands ------------------------------------------------------ */

static void time_variant(const char *name, const char *path, const char *other_path, int rounds,
                         int last)
{
    bytes b = read_file(path), ob = read_file(other_path);
    kf_anim *anim = load(&b), *other = load(&ob);
    double forward[FRAMES], random[FRAMES];
    forward_times(forward, FRAMES);
    random_times(random, FRAMES);
    stats fwd = time_playback(anim, forward, rounds);
    stats rnd = time_playback(anim, random, rounds);
    stats after = time_playback_after(anim, other, forward, rounds);
    const load_stats loading = time_loading(&b, rounds);

    printf("  \"%s\": {\n", name);
    printf("    \"file_bytes\": %zu,\n", b.size);
    printf("    \"joints\": %u, \"frames\": %d, \"rounds\": %d,\n",
           (unsigned)(kf_anim_count(anim, KF_KIND_TARGET) / 3), FRAMES, rounds);
    print_stats("forward_ns_per_track_sample", fwd, "ns", 0);
    print_stats("random_ns_per_track_sample", rnd, "ns", 0);
    print_stats("after_other_ns_per_track_sample", after, "ns", 0);
    printf("    \"player_bytes\": %zu,\n", player_bytes(anim));
    printf("    \"clip_bytes\": %zu,\n", clip_bytes(&b));
    print_load_stats(&loading);
    printf("  }%s\n", last ? "" : ",");
    kf_anim_free(anim);
    kf_anim_free(other);
    free(b.data);
    free(ob.data);
}

/* The kernel set called `name` (kf_layout.h), or NULL if this build or CPU
 * has none. */
static const kf_kernels *kernels_named(const char *name)
{
    const kf_kernels *sets[3] = {kf_kernels_scalar(), kf_kernels_sse2(), NULL};
    if (kf_kernels_best() == kf_kernels_avx2())
        sets[2] = kf_kernels_avx2();
    for (int k = 0; k < 3; k++)
        if (sets[k] && strcmp(sets[k]->name, name) == 0)
            return sets[k];
    return NULL;
}

/* `kernels` NULL: the library's choice (kf_kernels_best). */
static void count_variant(const char *mode, const char *path, int frames, const char *kernels)
{
    bytes b = read_file(path);
    kf_anim *anim = load(&b);
    kf_player *p;
    const kf_kernels *set = kernels ? kernels_named(kernels) : kf_kernels_best();
    if (!set)
        die("no such kernel set here", kernels);
    if (kf_player_create_with(anim, NULL, set, &p) != KF_OK)
        die("player", NULL);
    double *times = malloc(sizeof *times * (size_t)frames);
    if (strcmp(mode, "forward") == 0)
        forward_times(times, frames);
    else if (strcmp(mode, "random") == 0)
        random_times(times, frames);
    else if (strcmp(mode, "between") == 0)
        between_times(times, frames);
    else
        die("unknown mode", mode);
    play(p, times, frames);
    free(times);
    kf_player_destroy(p);
    kf_anim_free(anim);
    free(b.data);
}

static int write_bytes(void *user, const void *data, size_t size)
{
    return fwrite(data, 1, size, user) != size;
}

/* "WORD COUNT" heading a part of the listing. */
static unsigned scan_heading(FILE *f)
{
    char word[64];
    unsigned count;
    if (fscanf(f, "%63s %u", word, &count) != 2)
        die("malformed flat listing", NULL);
    return count;
}

static double scan_number(FILE *f)
{
    double x;
    if (fscanf(f, "%lf", &x) != 1)
        die("malformed flat listing", NULL);
    return x;
}

static void build(const char *flat, const char *out)
{
    FILE *f = fopen(flat, "r");
    if (!f)
        die("cannot open", flat);
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        die("builder", NULL);
    char name[64], interp[16], repeat[16], target[64];
    unsigned count = scan_heading(f);
    for (unsigned s = 0; s < count; s++) {
        kf_sequence_desc d;
        unsigned components, keys;
        if (fscanf(f, "%63s %15s %15s %lf %u %u", name, interp, repeat, &d.duration, &components,
                   &keys) != 6)
            die("malformed sequence", flat);
        double duration = d.duration;
        kf_sequence_desc_init(&d);
        d.key_count = keys;
        d.name = name;
        d.duration = duration;
        d.components = components;
        d.repeat = strcmp(repeat, "loop") == 0 ? KF_REPEAT_LOOP : KF_REPEAT_CONSTANT;
        for (int i = 0; i <= KF_INTERPOLATION_SQUAD; i++)
            if (strcmp(kf_interpolation_name((kf_interpolation)i), interp) == 0)
                d.interpolation = (kf_interpolation)i;
        double *times = malloc(sizeof *times * keys);
        double *values = malloc(sizeof *values * keys * components);
        for (unsigned k = 0; k < keys; k++) {
            times[k] = scan_number(f);
            for (unsigned c = 0; c < components; c++)
                values[k * components + c] = scan_number(f);
        }
        d.times = times;
        d.values = values;
        if (kf_builder_add_sequence(b, &d, &err) != KF_OK)
            die(name, err.message);
        free(times);
        free(values);
    }
    count = scan_heading(f);
    for (unsigned c = 0; c < count; c++) {
        kf_controller_desc d;
        kf_controller_desc_init(&d);
        if (fscanf(f, "%63s %lf %lf", name, &d.speed, &d.weight) != 3)
            die("malformed controller", flat);
        d.name = name;
        if (kf_builder_add_controller(b, &d, &err) != KF_OK)
            die(name, err.message);
    }
    count = scan_heading(f);
    for (unsigned t = 0; t < count; t++) {
        char animator[64];
        if (fscanf(f, "%63s %63s %63s", animator, name, target) != 3)
            die("malformed track", flat);
        kf_track_desc d = {animator, name, target, 0};
        if (kf_builder_add_track(b, &d, &err) != KF_OK)
            die(target, err.message);
    }
    fclose(f);
    FILE *o = fopen(out, "wb");
    if (!o)
        die("cannot create", out);
    if (kf_builder_encode(b, NULL, write_bytes, o, &err) != KF_OK)
        die("encode", err.message);
    if (fclose(o) != 0)
        die("cannot write", out);
    kf_builder_destroy(b);
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "time") == 0) {
        int rounds = argc > 4 ? atoi(argv[4]) : 31;
        if (rounds < 1)
            die("rounds must be at least 1", NULL);
        printf("{\n  \"kernels\": \"%s\",\n  \"inflate\": \"%s\",\n", kf_kernels_best()->name,
               kf_inflate_library());
        time_variant("linear_slerp", argv[2], argv[3], rounds, 0);
        time_variant("spline_squad", argv[3], argv[2], rounds, 1);
        printf("}\n");
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "count") == 0 &&
        (strcmp(argv[2], "load") == 0 || strcmp(argv[2], "inflate") == 0)) {
        bytes b = read_file(argv[3]);
        const int times = atoi(argv[4]);
        const size_t room = largest_section(&b);
        unsigned char *out = malloc(room);
        for (int i = 0; i < times; i++) {
            if (argv[2][0] == 'l')
                kf_anim_free(load(&b));
            else
                inflate_sections(&b, out, room);
        }
        free(out);
        free(b.data);
        return 0;
    }
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "count") == 0) {
        count_variant(argv[2], argv[3], atoi(argv[4]), argc == 6 ? argv[5] : NULL);
        return 0;
    }
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "load") == 0) {
        const int rounds = argc > 3 ? atoi(argv[3]) : 31;
        if (rounds < 1)
            die("rounds must be at least 1", NULL);
        bytes b = read_file(argv[2]);
        const load_stats loading = time_loading(&b, rounds);
        printf("{\n    \"clip_bytes\": %zu,\n", clip_bytes(&b));
        print_load_stats(&loading);
        printf("}\n");
        free(b.data);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "build") == 0) {
        build(argv[2], argv[3]);
        return 0;
    }
    fprintf(stderr,
            "usage: kfbench time LINEAR.kfb SPLINE.kfb [ROUNDS]\n"
            "       kfbench count forward|between|random FILE.kfb FRAMES [scalar|sse2|avx2]\n"
            "       kfbench count load|inflate FILE.kfb TIMES\n"
            "       kfbench load FILE.kfb [ROUNDS]\n"
            "       kfbench build W.flat OUT.kfb\n");
    return 2;
}
