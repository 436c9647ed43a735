#include "kfc_input.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A regular file's size, to read it with one allocation; 0 when the stream
 * cannot tell (a pipe). */
static size_t size_hint(FILE *f)
{
    long end;
    if (fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
        clearerr(f);
        return 0;
    }
    return (size_t)end;
}

kfc_status kfc_read_input(const char *path, size_t max_size, unsigned char **data, size_t *size,
                          kfc_diag *diag)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    *data = NULL;
    *size = 0;
    if (!f)
        return kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot open: %s", strerror(errno));

    size_t limit = max_size < SIZE_MAX - 1 ? max_size + 1 : SIZE_MAX - 1;
    size_t hint = is_stdin ? 0 : size_hint(f);
    /* One byte past the hint, so the end of the file shows without a
     * second allocation. */
    size_t capacity = hint && hint < limit ? hint + 1 : hint ? limit : 64 << 10;
    size_t length = 0;
    unsigned char *buffer = NULL;
    kfc_status st = KFC_OK;
    for (;;) {
        if (!buffer || length == capacity) {
            if (buffer) {
                if (capacity >= limit)
                    break;
                capacity = capacity > limit / 2 ? limit : capacity * 2;
            }
            /* +1 for the NUL that follows the data. */
            unsigned char *grown = realloc(buffer, capacity + 1);
            if (!grown) {
                st = kfc_fail_nomem(diag);
                break;
            }
            buffer = grown;
        }
        size_t want = capacity - length;
        size_t got = fread(buffer + length, 1, want, f);
        length += got;
        if (got < want) {
            if (ferror(f))
                st = kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot read: %s", strerror(errno));
            break;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (st) {
        free(buffer);
        return st;
    }
    buffer[length] = '\0';
    *data = buffer;
    *size = length;
    return KFC_OK;
}
