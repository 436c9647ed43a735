/* SPDX-License-Identifier: MIT */
/* kfc_x3d.c - the X3D importer's entry (kfc_x3d.h). */
#include "kfc_x3d.h"

#include <stdlib.h>
#include <string.h>

#include "kfc_x3d_gzip.h"
#include "kfc_x3d_map.h"
#include "kfc_x3d_read.h"

enum { NOT_X3D, XML, VRML };

static int ends_with(const char *path, size_t n, const char *ext)
{
    size_t e = strlen(ext);
    if (n <= e)
        return 0;
    for (size_t k = 0; k < e; k++)
        if ((path[n - e + k] | 0x20) != ext[k])
            return 0;
    return 1;
}

/* The names of X3D files, by encoding; each may also be followed by .gz. */
static const struct {
    const char *ext;
    int encoding;
} extensions[] = {{".x3d", XML},    {".x3dz", XML}, {".x3dv", VRML},
                  {".x3dvz", VRML}, {".wrl", VRML}, {".wrz", VRML}};

/* The encoding the first `n` characters of `path` end in the extension of,
 * or NOT_X3D; *length is that extension's length. */
static int extension(const char *path, size_t n, size_t *length)
{
    for (size_t k = 0; k < sizeof extensions / sizeof extensions[0]; k++)
        if (ends_with(path, n, extensions[k].ext)) {
            *length = strlen(extensions[k].ext);
            return extensions[k].encoding;
        }
    return NOT_X3D;
}

/* The encoding a file name says, or NOT_X3D. */
static int by_name(const char *path)
{
    if (!path)
        return NOT_X3D;
    size_t n = strlen(path), length;
    if (ends_with(path, n, ".gz"))
        n -= 3;
    return extension(path, n, &length);
}

size_t kfc_x3d_gzip_suffix(const char *name)
{
    size_t n = strlen(name), length;
    if (!ends_with(name, n, ".gz") || extension(name, n - 3, &length) == NOT_X3D)
        return 0;
    return length + 3;
}

static size_t skip_space(const unsigned char *d, size_t size, size_t i)
{
    if (i == 0 && size >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF)
        i = 3;
    while (i < size && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
        i++;
    return i;
}

static int starts(const unsigned char *d, size_t size, size_t i, const char *s)
{
    size_t n = strlen(s);
    return size - i >= n && memcmp(d + i, s, n) == 0;
}

/* The encoding the text says, or NOT_X3D. An XML document is X3D when
 * "<X3D" appears in its first 4 KiB (its prolog and root element). */
static int by_content(const unsigned char *d, size_t size)
{
    size_t i = skip_space(d, size, 0);
    if (kfc_x3d_vrml_header((const char *)d + i, size - i))
        return VRML;
    if (starts(d, size, i, "<X3D"))
        return XML;
    if (starts(d, size, i, "<?xml") || starts(d, size, i, "<!DOCTYPE")) {
        size_t n = size < 4096 ? size : 4096;
        for (size_t k = i; k + 4 <= n; k++)
            if (memcmp(d + k, "<X3D", 4) == 0 || memcmp(d + k, " X3D", 4) == 0)
                return XML;
    }
    return NOT_X3D;
}

int kfc_x3d_detect(const char *path, const unsigned char *data, size_t size)
{
    return by_name(path) != NOT_X3D || kfc_x3d_is_gzip(data, size) ||
           by_content(data, size) != NOT_X3D;
}

kfc_status kfc_x3d_compile(const unsigned char *data, size_t size,
                           const kfc_import_options *options, kf_builder *builder, kfc_diag *diag)
{
    char *inflated = NULL;
    kfc_status st;
    if (kfc_x3d_is_gzip(data, size)) {
        size_t n;
        if ((st = kfc_x3d_gunzip(data, size, &inflated, &n, diag)))
            return st;
        data = (const unsigned char *)inflated;
        size = n;
    }
    int encoding = by_content(data, size);
    if (encoding == NOT_X3D) {
        size_t i = skip_space(data, size, 0);
        if (starts(data, size, i, "#VRML V1.0")) {
            free(inflated);
            return kfc_fail(diag, KFC_INVALID, (kfc_mark){1, 1},
                            "VRML 1.0 is not supported (VRML97, ClassicVRML and XML are)");
        }
        encoding = by_name(options->path);
        if (encoding == NOT_X3D)
            encoding = i < size && data[i] == '<' ? XML : VRML;
    }
    kfc_x3d_scene scene;
    kfc_x3d_scene_init(&scene, options);
    st = encoding == XML ? kfc_x3d_read_xml(&scene, (const char *)data, size, diag)
                         : kfc_x3d_read_vrml(&scene, (const char *)data, size, diag);
    if (!st)
        st = kfc_x3d_scene_finish(&scene, diag);
    if (!st)
        st = kfc_x3d_map(&scene, builder, diag);
    kfc_x3d_scene_free(&scene);
    free(inflated);
    return st;
}

const kfc_importer kfc_x3d_importer = {
    "X3D",
    kfc_x3d_detect,
    kfc_x3d_compile,
    NULL,
    "an X3D scene is imported whole, into one file, and its TimeSensors say what loops",
    kfc_x3d_gzip_suffix};
