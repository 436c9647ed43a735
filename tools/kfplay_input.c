/* SPDX-License-Identifier: MIT */
#include "kfplay_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfplay_args.h"

const char *kfp_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int kfp_read_input(const char *path, unsigned char **data, size_t *size)
{
    const int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
        return KFP_EXIT_INPUT;
    }
    size_t capacity = 0, length = 0;
    unsigned char *buffer = NULL;
    const char *problem = NULL;
    for (;;) {
        if (length == capacity) {
            if (capacity >= KFP_MAX_FILE) {
                problem = "larger than 1 GiB";
                break;
            }
            capacity = capacity ? capacity * 2 : 1 << 16;
            unsigned char *grown = realloc(buffer, capacity);
            if (!grown) {
                problem = "out of memory";
                break;
            }
            buffer = grown;
        }
        size_t got = fread(buffer + length, 1, capacity - length, f);
        length += got;
        if (got == 0) {
            if (ferror(f))
                problem = strerror(errno);
            break;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (problem) {
        fprintf(stderr, "%s: error: cannot read: %s\n", kfp_input_name(path), problem);
        free(buffer);
        return KFP_EXIT_INPUT;
    }
    *data = buffer;
    *size = length;
    return 0;
}

/* Whether `path` ends in `ext` (ASCII, any case). */
static int has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n <= e)
        return 0;
    for (size_t i = 0; i < e; i++)
        if ((path[n - e + i] | 0x20) != ext[i])
            return 0;
    return 1;
}

/* Whether the text starts (after comments and blank lines) with "kfb:". */
static int looks_like_source(const unsigned char *data, size_t size)
{
    size_t i = 0;
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < size) {
        if (data[i] == '#') {
            while (i < size && data[i] != '\n')
                i++;
        } else if (data[i] == '\n' || data[i] == '\r' || data[i] == ' ' || data[i] == '\t') {
            i++;
        } else {
            break;
        }
    }
    return size - i >= 4 && memcmp(data + i, "kfb:", 4) == 0;
}

/* Whether the first bytes read as text: no NUL, no control character but
 * tab, line breaks and form feed (a name is believed only for text). */
static int looks_like_text(const unsigned char *data, size_t size)
{
    const size_t n = size < 4096 ? size : 4096;
    for (size_t i = 0; i < n; i++)
        if ((data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r' &&
             data[i] != '\f') ||
            data[i] == 0x7f)
            return 0;
    return 1;
}

const char *kfp_input_mixup(const char *path, const unsigned char *data, size_t size, char *buffer,
                            size_t buffer_size)
{
    if (size == 0)
        return "the file is empty";
    /* The content first; the name only where the content agrees that it
     * may be what the name says (text for .gltf and .yaml). */
    const int text = looks_like_text(data, size);
    const char *what = NULL;
    if ((size >= 4 && memcmp(data, "glTF", 4) == 0) ||
        (text && (has_extension(path, ".gltf") || has_extension(path, ".glb"))))
        what = "a glTF file: import its animations with kfc first";
    else if (looks_like_source(data, size) ||
             (text && (has_extension(path, ".yaml") || has_extension(path, ".yml"))))
        what = "a YAML animation source, not a compiled .kfb: compile it with kfc first";
    if (!what)
        return NULL;
    if (strcmp(path, "-") == 0) {
        snprintf(buffer, buffer_size, "%s (kfc - -o OUT.kfb)", what);
        return buffer;
    }
    /* The name kfc itself would give the output. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    int stem = (int)(dot && dot != base ? (size_t)(dot - path) : strlen(path));
    snprintf(buffer, buffer_size, "%s (kfc %s -o %.*s.kfb)", what, path, stem, path);
    return buffer;
}
