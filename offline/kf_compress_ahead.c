/* SPDX-License-Identifier: MIT */
/*
 * kf_compress_ahead.c - deflating the DATA section on a second thread while
 * the builder is still being fed (kf_builder_compress_ahead).
 *
 * Deflating keyframe data costs about as much as parsing its YAML, so a
 * compiler that waits for the end to compress takes twice as long. Sequences
 * come first in DATA and each one's arrays are final once it is added, so a
 * worker can lay them out and deflate them while the caller parses the next
 * one. It lays them out with the writer's own kf_write_sequence_data and
 * the writer's rule for shared key times, so what it deflates is the start
 * of the section the writer builds (tests/test_compress_ahead.c compares the
 * files byte for byte). At encode time the writer writes only the room of
 * what the worker laid out (kf_ahead_laid_out), not the bytes again, and
 * the rest is deflated on the caller's thread. zlib's output does not
 * depend on how its input is split, so the result is byte-identical to
 * deflating the section in one go. The worker also keeps the CRC-32 of
 * what it produced, which the writer then need not compute again. Like the
 * writer, it deflates the section's pieces (kf_zero_runs.h). Any failure
 * (or a section shorter than what was deflated) falls back to writing and
 * compressing the whole section as usual.
 *
 * The worker allocates (its output and scratch) through the builder's
 * allocator, which must therefore be callable from another thread.
 *
 * POSIX threads rather than C11 <threads.h>: the thread sanitizers people
 * run (clang 14's among them) see pthreads, and every platform kfc builds
 * on has them.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <string.h>
#include <zlib.h>

#include "kf_compress_ahead.h"
#include "kf_index.h"
#include "kf_write.h"
#include "kf_zero_runs.h"

enum { QUEUE = 64 }; /* sequences in flight; the caller waits when it is full */
/* Sequences queued before an idle worker is woken. Waking a thread is a
 * system call and, on a virtual machine, an interrupt to another processor:
 * once per sequence it cost kfc's parsing thread 3 % of W's compile. The
 * worker outpaces the parser, so it drains each batch and sleeps again;
 * what it has left when the parser closes the queue is one batch at most. */
enum { WAKE_BATCH = 4 };

/* Earlier sequences' distinct key-time arrays, hashed, to find equal arrays
 * as the writer does (kf_write.c stores each distinct array once). */
typedef struct times_entry {
    const float *times; /* NULL: empty slot */
    uint32_t count, offset, hash;
} times_entry;

struct kf_ahead {
    kf_allocator allocator;
    int level;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct kf_sequence queue[QUEUE];
    uint32_t head, tail; /* queue[head % QUEUE] .. queue[tail % QUEUE] */
    int closing;         /* no more pushes: drain and stop */
    int worker_waits;    /* the worker sleeps until woken */
    int caller_waits;    /* the caller sleeps until the queue has room */
    int unusable;        /* a push was lost or zlib failed: the writer compresses */
    int finished;        /* the stream was finished (or abandoned) */
    /* Worker's state, read by the caller only after joining. */
    z_stream z;
    kf_bytes out;      /* deflated so far */
    uint32_t crc;      /* of it */
    kf_bytes scratch;  /* one sequence laid out */
    kf_zero_runs runs; /* DATA as pieces (format 2.3) */
    kf_bytes pieces;   /* the pieces one call completes */
    int deflating;     /* z initialized */
    uint64_t streamed; /* bytes of the section fed to deflate */
    times_entry *times;
    uint32_t times_count, times_capacity; /* capacity: 0 or a power of two */
    uint64_t times_key[2];                /* the table's hash secret */
};

/* Feeds `size` bytes to the stream, growing its output as needed. */
static int deflate_more(kf_ahead *x, const unsigned char *data, size_t size, int flush)
{
    z_stream *z = &x->z;
    kf_bytes *out = &x->out;
    z->next_in = (unsigned char *)data;
    z->avail_in = (uInt)size;
    for (;;) {
        if (!kf_bytes_grow(out, 1 << 16))
            return 0;
        out->size -= 1 << 16;
        z->next_out = out->data + out->size;
        z->avail_out = 1 << 16;
        int status = deflate(z, flush);
        const size_t produced = (1 << 16) - z->avail_out;
        x->crc = (uint32_t)crc32_z(x->crc, out->data + out->size, produced);
        out->size += produced;
        if (status == Z_STREAM_END)
            return 1;
        if (status != Z_OK && status != Z_BUF_ERROR)
            return 0;
        if (z->avail_in == 0 && flush == Z_NO_FLUSH && z->avail_out != 0)
            return 1;
    }
}

/* Feeds `size` bytes of the section to the stream, as the pieces they
 * complete (kf_zero_runs.h); Z_FINISH ends the pieces too. */
static int feed(kf_ahead *x, const unsigned char *data, size_t size, int flush)
{
    x->pieces.size = 0;
    if (!kf_zero_runs_feed(&x->runs, data, size, &x->pieces) ||
        (flush == Z_FINISH && !kf_zero_runs_finish(&x->runs, &x->pieces)) || x->pieces.failed)
        return 0;
    return deflate_more(x, x->pieces.data, x->pieces.size, flush);
}

/* The slot of times equal to `s`'s among earlier sequences, or the empty
 * slot where they go. */
static times_entry *find_times(const kf_ahead *x, const struct kf_sequence *s, uint32_t hash)
{
    const uint32_t mask = x->times_capacity - 1;
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        times_entry *e = &x->times[i];
        if (!e->times || (e->hash == hash && e->count == s->key_count &&
                          memcmp(e->times, s->times, (size_t)s->key_count * sizeof *s->times) == 0))
            return e;
    }
}

/* Keeps the table at most half full. */
static int reserve_times(kf_ahead *x)
{
    if ((uint64_t)(x->times_count + 1) * 2 <= x->times_capacity)
        return 1;
    uint32_t grown = x->times_capacity ? 2 * x->times_capacity : 64;
    times_entry *t = kf_calloc(&x->allocator, grown, sizeof *t);
    if (!t)
        return 0;
    kf_hash_key_draw(x->times_key, t, x);
    for (uint32_t i = 0; i < x->times_capacity; i++) {
        times_entry e = x->times[i];
        if (!e.times)
            continue;
        e.hash = kf_hash_times(x->times_key, e.times, e.count);
        for (uint32_t j = e.hash & (grown - 1);; j = (j + 1) & (grown - 1))
            if (!t[j].times) {
                t[j] = e;
                break;
            }
    }
    kf_free(&x->allocator, x->times, x->times_capacity * sizeof *t);
    x->times = t;
    x->times_capacity = grown;
    return 1;
}

/* Lays out one sequence as the writer will (after all earlier ones) and
 * deflates it. */
static int process(kf_ahead *x, const struct kf_sequence *s)
{
    if (!reserve_times(x))
        return 0;
    x->scratch.size = 0;
    const uint32_t hash = kf_hash_times(x->times_key, s->times, s->key_count);
    times_entry *e = find_times(x, s, hash);
    kfb_sequence record = {0};
    if (!e->times) {
        *e = (times_entry){s->times, s->key_count, (uint32_t)(x->streamed / 4), hash};
        x->times_count++;
        kf_write_floats(&x->scratch, s->times, s->key_count);
    }
    kf_write_sequence_data(&x->scratch, s, &record, 1);
    if (x->scratch.failed || !feed(x, x->scratch.data, x->scratch.size, Z_NO_FLUSH))
        return 0;
    x->streamed += x->scratch.size;
    return 1;
}

static void *worker(void *arg)
{
    kf_ahead *x = arg;
    pthread_mutex_lock(&x->lock);
    for (;;) {
        while (x->head == x->tail && !x->closing) {
            x->worker_waits = 1;
            pthread_cond_wait(&x->changed, &x->lock);
            x->worker_waits = 0;
        }
        if (x->head == x->tail)
            break;
        struct kf_sequence s = x->queue[x->head % QUEUE];
        const int skip = x->unusable;
        pthread_mutex_unlock(&x->lock);
        int ok = skip || process(x, &s);
        pthread_mutex_lock(&x->lock);
        if (!ok)
            x->unusable = 1;
        x->head++;
        if (x->caller_waits)
            pthread_cond_broadcast(&x->changed);
    }
    pthread_mutex_unlock(&x->lock);
    return NULL;
}

static void end_stream(kf_ahead *x)
{
    if (x->deflating)
        deflateEnd(&x->z);
    x->deflating = 0;
}

kf_result kf_ahead_start(const kf_allocator *a, int level, kf_ahead **out)
{
    *out = NULL;
    kf_ahead *x = kf_calloc(a, 1, sizeof *x);
    if (!x)
        return KF_ERROR_OUT_OF_MEMORY;
    x->allocator = *a;
    x->level = level;
    x->scratch.allocator = &x->allocator;
    x->pieces.allocator = &x->allocator;
    kf_zero_runs_init(&x->runs, &x->allocator, 1);
    x->out.allocator = &x->allocator;
    x->z.zalloc = kf_zlib_alloc;
    x->z.zfree = kf_zlib_free;
    x->z.opaque = &x->allocator;
    const int status =
        deflateInit2(&x->z, level, Z_DEFLATED, MAX_WBITS, KF_DEFLATE_MEM_LEVEL, Z_DEFAULT_STRATEGY);
    x->deflating = status == Z_OK;
    if (status != Z_OK) {
        end_stream(x);
        kf_free(a, x, sizeof *x);
        return status == Z_MEM_ERROR ? KF_ERROR_OUT_OF_MEMORY : KF_ERROR_ARGUMENT;
    }
    if (pthread_mutex_init(&x->lock, NULL) != 0) {
        end_stream(x);
        kf_free(a, x, sizeof *x);
        return KF_ERROR_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&x->changed, NULL) != 0) {
        pthread_mutex_destroy(&x->lock);
        end_stream(x);
        kf_free(a, x, sizeof *x);
        return KF_ERROR_OUT_OF_MEMORY;
    }
    if (pthread_create(&x->thread, NULL, worker, x) != 0) {
        /* No thread to run ahead on: the writer compresses as usual. */
        pthread_cond_destroy(&x->changed);
        pthread_mutex_destroy(&x->lock);
        end_stream(x);
        kf_free(a, x, sizeof *x);
        return KF_OK;
    }
    *out = x;
    return KF_OK;
}

void kf_ahead_push(kf_ahead *x, const struct kf_sequence *s)
{
    if (!x)
        return;
    pthread_mutex_lock(&x->lock);
    if (x->closing) {
        x->unusable = 1; /* added after encoding began: the stream is out of date */
    } else {
        while (x->tail - x->head == QUEUE) {
            x->caller_waits = 1;
            pthread_cond_broadcast(&x->changed); /* (a full queue is past any batch) */
            pthread_cond_wait(&x->changed, &x->lock);
            x->caller_waits = 0;
        }
        x->queue[x->tail++ % QUEUE] = *s;
        if (x->worker_waits && x->tail - x->head >= WAKE_BATCH)
            pthread_cond_broadcast(&x->changed);
    }
    pthread_mutex_unlock(&x->lock);
}

/* Stops taking sequences and waits for the worker to drain its queue. */
static void close_and_join(kf_ahead *x)
{
    pthread_mutex_lock(&x->lock);
    int running = !x->closing;
    x->closing = 1;
    pthread_cond_broadcast(&x->changed);
    pthread_mutex_unlock(&x->lock);
    if (running)
        pthread_join(x->thread, NULL);
}

int kf_ahead_finish(kf_ahead *x, int level, const kf_bytes *raw, kf_bytes *packed,
                    uint32_t *packed_crc)
{
    if (!x)
        return 0;
    close_and_join(x);
    if (x->finished || x->unusable || level != x->level || x->streamed > raw->size) {
        x->finished = 1;
        return 0;
    }
    x->finished = 1;
    /* An empty section has no buffer: no offset into a null pointer. */
    const unsigned char *rest = raw->data ? raw->data + x->streamed : raw->data;
    if (!feed(x, rest, raw->size - (size_t)x->streamed, Z_FINISH))
        return 0;
    /* Hand the output over. */
    *packed_crc = x->crc;
    kf_bytes_free(packed);
    *packed = x->out;
    packed->allocator = raw->allocator;
    x->out = (kf_bytes){&x->allocator, NULL, 0, 0, 0};
    return 1;
}

uint64_t kf_ahead_laid_out(kf_ahead *x, int level)
{
    if (!x)
        return 0;
    close_and_join(x);
    return x->finished || x->unusable || level != x->level ? 0 : x->streamed;
}

void kf_ahead_destroy(kf_ahead *x)
{
    if (!x)
        return;
    close_and_join(x);
    end_stream(x);
    pthread_cond_destroy(&x->changed);
    pthread_mutex_destroy(&x->lock);
    kf_bytes_free(&x->out);
    kf_bytes_free(&x->scratch);
    kf_bytes_free(&x->pieces);
    kf_zero_runs_free(&x->runs);
    kf_free(&x->allocator, x->times, x->times_capacity * sizeof *x->times);
    kf_allocator a = x->allocator;
    kf_free(&a, x, sizeof *x);
}
