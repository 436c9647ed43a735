/* SPDX-License-Identifier: MIT */
/* make_seeds.c - writes the built-in test animation as seed files for the
 * fuzzers' corpora (stored, its arrays of float bits as rows; zlib; and
 * stored in format version 1 with plain arrays), and the grid animation (test_grid_builder: a quantized column
 * whose zero high planes are a long zero run of DATA) and the flat one
 * (test_flat_builder: arrays whose every plane is a zero run) with zlib,
 * next to the compiled fixtures. */
#include <stdio.h>

#include "test_util.h"

int main(int argc, char **argv)
{
    if (argc != 6)
        return 2;
    kf_builder *rich = test_rich_builder(), *grid = test_grid_builder(),
               *flat = test_flat_builder();
    for (int i = 0; i < 5; i++) {
        test_bytes bytes = {0};
        kf_builder *b = i < 3 ? rich : i == 3 ? grid : flat;
        kf_encode_options o = {sizeof o, i == 0 || i == 2 ? 0 : 9, i == 2 ? 1u : 0u};
        if (!b || kf_builder_encode(b, &o, test_bytes_write, &bytes, NULL) != KF_OK)
            return 1;
        FILE *f = fopen(argv[1 + i], "wb");
        if (!f || fwrite(bytes.data, 1, bytes.size, f) != bytes.size || fclose(f) != 0)
            return 1;
        free(bytes.data);
    }
    kf_builder_destroy(rich);
    kf_builder_destroy(grid);
    kf_builder_destroy(flat);
    return 0;
}
