/* SPDX-License-Identifier: MIT */
/*
 * kf_compress_ahead.h - deflating a builder's DATA section on a second
 * thread while descriptions are still being added (kf_compress_ahead.c).
 */
#ifndef KF_COMPRESS_AHEAD_H
#define KF_COMPRESS_AHEAD_H

#include "kf_bytes.h"

struct kf_sequence;
typedef struct kf_ahead kf_ahead;

/* Starts the worker at zlib `level`. *out stays NULL (and KF_OK is
 * returned) where no thread can be started: nothing then runs ahead. */
kf_result kf_ahead_start(const kf_allocator *a, int level, kf_ahead **out);

/* Queues the sequence just added (copied; its arrays must stay put). May
 * wait while the worker catches up. NULL is ignored. */
void kf_ahead_push(kf_ahead *x, const struct kf_sequence *s);

/* Stops the worker. If it deflated the start of `raw` (the DATA section the
 * writer built) at `level`, deflates the rest into the same stream, moves
 * the result into `packed`, sets *packed_crc to its CRC-32 and returns 1.
 * Else 0, and the writer compresses `raw` itself. Only the first call can
 * succeed. */
int kf_ahead_finish(kf_ahead *x, int level, const kf_bytes *raw, kf_bytes *packed,
                    uint32_t *packed_crc);

/* Stops the worker and returns how many bytes of the DATA section it laid
 * out (and deflated) for `level`, which kf_ahead_finish will not read from
 * the writer's copy; 0 where kf_ahead_finish cannot succeed. */
uint64_t kf_ahead_laid_out(kf_ahead *x, int level);

void kf_ahead_destroy(kf_ahead *x);

#endif /* KF_COMPRESS_AHEAD_H */
