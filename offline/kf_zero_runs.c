/* SPDX-License-Identifier: MIT */
/*
 * kf_zero_runs.c - runs of zero words left out of a DATA section's stream
 * (kf_zero_runs.h). Which runs go is a function of the section's words
 * alone: every run of at least KFB_ZERO_RUN_WORDS, and no shorter one, with
 * a piece closed whenever it holds KFB_PIECE_WORDS words, so how the
 * section is split between calls changes nothing.
 */
#include <stdint.h>
#include <string.h>

#include "kf_zero_runs.h"
#include "kfb_format.h"

void kf_zero_runs_init(kf_zero_runs *r, const kf_allocator *allocator, int leave_out)
{
    r->literal = (kf_bytes){allocator, NULL, 0, 0, 0};
    r->zeros = 0;
    r->shortest = leave_out ? KFB_ZERO_RUN_WORDS : UINT32_MAX;
}

void kf_zero_runs_free(kf_zero_runs *r)
{
    kf_bytes_free(&r->literal);
    r->zeros = 0;
}

/* Appends the piece gathered so far, followed in the section by `zeros`
 * zero words, and starts the next. */
static int emit(kf_zero_runs *r, uint32_t zeros, kf_bytes *out)
{
    uint32_t header[2] = {(uint32_t)(r->literal.size / 4), zeros};
    kfb_word_swap(header, 2);
    unsigned char *at = kf_bytes_grow(out, sizeof header + r->literal.size);
    if (!at)
        return 0;
    memcpy(at, header, sizeof header);
    if (r->literal.size)
        memcpy(at + sizeof header, r->literal.data, r->literal.size);
    r->literal.size = 0;
    return 1;
}

/* Appends `words` words (zeros where `bytes` is NULL) to the piece, closing
 * it each time it is full. */
static int gather(kf_zero_runs *r, const unsigned char *bytes, size_t words, kf_bytes *out)
{
    while (words) {
        const size_t room = KFB_PIECE_WORDS - r->literal.size / 4;
        const size_t n = words < room ? words : room;
        unsigned char *at = kf_bytes_grow(&r->literal, 4 * n);
        if (!at)
            return 0;
        if (bytes) {
            memcpy(at, bytes, 4 * n);
            bytes += 4 * n;
        } else {
            memset(at, 0, 4 * n);
        }
        words -= n;
        if (r->literal.size / 4 == KFB_PIECE_WORDS && !emit(r, 0, out))
            return 0;
    }
    return 1;
}

/* Places the zero words seen since the last non-zero one: left out after
 * the piece if they are a run, else inside it. */
static int place_zeros(kf_zero_runs *r, kf_bytes *out)
{
    const uint32_t zeros = r->zeros;
    r->zeros = 0;
    if (zeros >= r->shortest)
        return emit(r, zeros, out);
    return gather(r, NULL, zeros, out);
}

static int zero_word(const unsigned char *p)
{
    return (p[0] | p[1] | p[2] | p[3]) == 0;
}

int kf_zero_runs_feed(kf_zero_runs *r, const unsigned char *bytes, size_t size, kf_bytes *out)
{
    const size_t words = size / 4;
    size_t i = 0;
    while (i < words) {
        size_t j = i;
        while (j < words && zero_word(bytes + 4 * j))
            j++;
        r->zeros += (uint32_t)(j - i);
        if (j == words)
            break;
        size_t k = j + 1;
        while (k < words && !zero_word(bytes + 4 * k))
            k++;
        if (!place_zeros(r, out) || !gather(r, bytes + 4 * j, k - j, out))
            return 0;
        i = k;
    }
    return 1;
}

int kf_zero_runs_finish(kf_zero_runs *r, kf_bytes *out)
{
    /* A run left out closes the piece itself (its words may be none). */
    if (!place_zeros(r, out))
        return 0;
    return r->literal.size == 0 || emit(r, 0, out);
}
