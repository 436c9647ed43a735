/* SPDX-License-Identifier: MIT */
/*
 * kf_zero_runs.h - the pieces a compressed DATA section's stream holds from
 * format 2.3 on: the section with its runs of zero words left out
 * (formats/kfb_format.h, KFB_ZERO_RUN_WORDS; the reader's side is
 * runtime/kf_read.c, unpack_section). A streaming encoder: the writer feeds
 * it the whole section at once, the compress-ahead worker a sequence at a
 * time, and the pieces come out the same.
 */
#ifndef KF_ZERO_RUNS_H
#define KF_ZERO_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "kf_bytes.h"

typedef struct kf_zero_runs {
    kf_bytes literal;  /* the words of the piece being gathered, file order */
    uint32_t zeros;    /* zero words seen after them and not yet placed */
    uint32_t shortest; /* the shortest run left out */
} kf_zero_runs;

/* `leave_out`: 1 to leave out the runs of KFB_ZERO_RUN_WORDS and more, 0
 * to leave out none (a section that would otherwise declare more than a
 * reader accepts, kfb_zlib_ratio_ok). */
void kf_zero_runs_init(kf_zero_runs *r, const kf_allocator *allocator, int leave_out);

/* Takes `size` more bytes of the section (whole words, file order) and
 * appends to `out` the pieces they complete. Returns 0 when out of memory. */
int kf_zero_runs_feed(kf_zero_runs *r, const unsigned char *bytes, size_t size, kf_bytes *out);

/* Appends the last piece, if any; r is then empty and may be fed again. */
int kf_zero_runs_finish(kf_zero_runs *r, kf_bytes *out);

void kf_zero_runs_free(kf_zero_runs *r);

#endif /* KF_ZERO_RUNS_H */
