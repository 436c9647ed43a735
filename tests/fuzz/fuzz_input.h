/* SPDX-License-Identifier: MIT */
/*
 * fuzz_input.h - reading a fuzzer's bytes as a stream of small decisions
 * (the operation and description fuzz targets): integers in a range,
 * numbers either bounded (from 16 bits) or raw (any double, NaN and
 * infinities included), each reading 0 past the end.
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size, at;
    int raw_seen; /* a raw (possibly non-finite or huge) number was read */
} fuzz_input;

static inline unsigned fuzz_byte(fuzz_input *in)
{
    return in->at < in->size ? in->data[in->at++] : 0;
}

/* 0 .. n-1 */
static inline uint32_t fuzz_below(fuzz_input *in, uint32_t n)
{
    uint32_t v = fuzz_byte(in) | (uint32_t)fuzz_byte(in) << 8;
    return n ? v % n : 0;
}

/* A number in [-scale, scale] in steps of scale / 32767. */
static inline double fuzz_bounded(fuzz_input *in, double scale)
{
    int16_t v = (int16_t)(fuzz_byte(in) | fuzz_byte(in) << 8);
    return scale * v / 32767.0;
}

/* Mostly bounded; one time in 16 a raw double. */
static inline double fuzz_number(fuzz_input *in, double scale)
{
    if ((fuzz_byte(in) & 15) != 0)
        return fuzz_bounded(in, scale);
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++)
        bits |= (uint64_t)fuzz_byte(in) << (8 * i);
    double d;
    memcpy(&d, &bits, sizeof d);
    in->raw_seen = 1;
    return d;
}

static inline int fuzz_done(const fuzz_input *in)
{
    return in->at >= in->size;
}

#endif /* FUZZ_INPUT_H */
