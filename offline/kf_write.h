/* SPDX-License-Identifier: MIT */
/*
 * kf_write.h - the .kfb writer (kf_write.c), the mirror of the reader
 * (runtime/kf_read.c).
 */
#ifndef KF_WRITE_H
#define KF_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "kf_build.h"
#include "kf_bytes.h"
#include "kf_private.h"

/* Appends `count` floats to a DATA section; returns their word offset. */
uint32_t kf_write_floats(kf_bytes *data, const float *f, size_t count);

/* Appends what a sequence stores in DATA after its key times (values,
 * tangents and arcs, tcb, distance table), in the order formats/kfb.md
 * gives, and sets those offsets in `record`; `encoded`: as version 2 stores
 * them (kfb_format.h, KFB_PLANES), else plain. Shared by the writer and the
 * compressor that runs ahead of it (kf_compress_ahead.c), so both lay the
 * section out the same way. */
void kf_write_sequence_data(kf_bytes *data, const struct kf_sequence *s, kfb_sequence *record,
                            int encoded);

/* A hash of `count` key times, to find equal arrays, which DATA stores
 * once. The times come from sources: hashed under the table's own secret
 * (kf_index.h), times crafted to collide cost no more than any others. */
uint32_t kf_hash_times(const uint64_t key[2], const float *times, uint32_t count);

/* A way to compress the DATA section that the writer tries before deflating
 * it itself: given the raw section, `pack` fills `packed` with the zlib
 * stream of its pieces (kf_zero_runs.h) at `level`, sets *packed_crc to that
 * stream's CRC-32 and returns 1, or returns 0. `laid_out` (may be NULL)
 * tells how many of the section's first bytes the packer laid out itself
 * for `level` (whole sequences, as kf_write_sequence_data lays them out) and
 * so will not read from `raw`; the writer then writes only their room. (The
 * builder's compress-ahead worker is such a packer.) */
typedef struct kf_data_packer {
    int (*pack)(void *user, int level, const kf_bytes *raw, kf_bytes *packed, uint32_t *packed_crc);
    uint64_t (*laid_out)(void *user, int level);
    void *user;
} kf_data_packer;

/* Writes `objects` as a .kfb through `write`, compressing sections at zlib
 * `level` (0: stored, DATA's arrays of float bits as rows; or
 * KF_WRITE_STORED_ENCODED), in format version `major` (1: 1.1, every array
 * plain; otherwise the current version). `packer` may be NULL; it must
 * lay DATA out for the current version. */
/* A `level`: every section stored, DATA's arrays encoded as a compressed
 * section's are (as 2.4 stored them), not as rows. Files a reader must read
 * as well, which no tool writes: tests craft their encoded arrays. */
#define KF_WRITE_STORED_ENCODED (-2)

/* zlib's memory level for a section's stream (deflateInit2): its largest,
 * 9, where deflateInit takes 8. A block then holds up to twice the symbols,
 * so a stream has half the blocks, and half the Huffman tables a loader
 * builds: W's loads take 1.6 to 2 % fewer instructions, its files are a few
 * hundred bytes smaller, and a stream's deflate holds 128 KiB more. */
#define KF_DEFLATE_MEM_LEVEL 9

kf_result kf_write_objects(const kf_allocator *allocator, const kf_objects *objects, int level,
                           uint32_t major, const kf_data_packer *packer, kf_write_fn write,
                           void *user, kf_error *error);

#endif /* KF_WRITE_H */
