/*
 * kfc_input.h - reading a whole input file (or standard input) into memory.
 */
#ifndef KFC_INPUT_H
#define KFC_INPUT_H

#include <stddef.h>

#include "kfc_diag.h"

/*
 * Reads `path` ("-": standard input) into a buffer the caller frees with
 * free(). Reads at most `max_size` + 1 bytes, so a caller can tell an input
 * that exceeds its limit without reading all of it. The buffer has one extra
 * NUL byte after *size bytes. Fails with KFC_IO (cannot open or read) or
 * KFC_NOMEM.
 */
kfc_status kfc_read_input(const char *path, size_t max_size, unsigned char **data, size_t *size,
                          kfc_diag *diag);

#endif /* KFC_INPUT_H */
