/* SPDX-License-Identifier: MIT */
/* fuzz_x3d_xml.c - libFuzzer target for kfc's X3D XML reader and the
 * mapping of what it reads (fuzz_x3d.h). */
#include "fuzz_x3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_x3d_one(kfc_x3d_read_xml, data, size);
}
