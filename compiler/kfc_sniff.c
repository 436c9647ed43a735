/* SPDX-License-Identifier: MIT */
/*
 * kfc_sniff.c - what an input is (kfc_sniff.h). One copy of every test of
 * a name or of first bytes, for kfc's importers and for kfplay, which
 * links this file without the importers: it must stay free of the
 * libraries they read their formats with.
 */
#include "kfc_sniff.h"

#include <string.h>

/* How far an XML prolog is searched for the X3D root element, and how far
 * a file is looked at for binary bytes: enough for any real header, and a
 * bound on the time a large file costs. */
#define SNIFF_WINDOW 4096

const unsigned char kfc_m3g_identifier[12] = {0xAB, 0x4A, 0x53, 0x52, 0x31, 0x38,
                                              0x34, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};

/* Whether the first `n` characters of `name` end in `ext`, as
 * kfc_sniff_extension: the extension before a gzipped name's .gz is
 * looked at in place. */
static int ends_in(const char *name, size_t n, const char *ext)
{
    const size_t e = strlen(ext);
    if (n <= e)
        return 0;
    for (size_t k = 0; k < e; k++)
        if ((name[n - e + k] | 0x20) != ext[k])
            return 0;
    return 1;
}

int kfc_sniff_extension(const char *name, const char *ext)
{
    return ends_in(name, strlen(name), ext);
}

size_t kfc_sniff_skip_space(const unsigned char *data, size_t size, size_t i)
{
    if (i == 0 && size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
        i = 3;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    return i;
}

static int starts(const unsigned char *data, size_t size, size_t i, const char *s)
{
    const size_t n = strlen(s);
    return size - i >= n && memcmp(data + i, s, n) == 0;
}

int kfc_sniff_text(const unsigned char *data, size_t size)
{
    const size_t n = size < SNIFF_WINDOW ? size : SNIFF_WINDOW;
    for (size_t i = 0; i < n; i++)
        if ((data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r' &&
             data[i] != '\f') ||
            data[i] == 0x7f)
            return 0;
    return 1;
}

int kfc_sniff_kfb_source(const unsigned char *data, size_t size)
{
    size_t i = kfc_sniff_skip_space(data, size, 0);
    while (i < size && data[i] == '#') {
        while (i < size && data[i] != '\n')
            i++;
        i = kfc_sniff_skip_space(data, size, i);
    }
    return starts(data, size, i, "kfb:");
}

int kfc_sniff_gltf_magic(const unsigned char *data, size_t size)
{
    return starts(data, size, 0, "glTF");
}

int kfc_sniff_gltf_name(const char *path)
{
    return path && (kfc_sniff_extension(path, ".gltf") || kfc_sniff_extension(path, ".glb"));
}

/* Whether the JSON text `d` has the key `key` (quoted) anywhere: a key
 * followed, after white space, by a colon. A scan, not a parse: the
 * importer's parser is what says whether the text is JSON at all. */
static int has_key(const unsigned char *d, size_t n, const char *key)
{
    const size_t k = strlen(key);
    for (size_t i = 0; i + k <= n; i++) {
        const unsigned char *q = memchr(d + i, '"', n - i);
        if (!q)
            return 0;
        i = (size_t)(q - d);
        if (i + k > n || memcmp(d + i, key, k) != 0)
            continue;
        size_t j = i + k;
        while (j < n && (d[j] == ' ' || d[j] == '\t' || d[j] == '\n' || d[j] == '\r'))
            j++;
        if (j < n && d[j] == ':')
            return 1;
    }
    return 0;
}

int kfc_sniff_gltf_json(const unsigned char *data, size_t size)
{
    const size_t i = kfc_sniff_skip_space(data, size, 0);
    return i < size && data[i] == '{' && has_key(data + i, size - i, "\"asset\"") &&
           !has_key(data + i, size - i, "\"kfb\"");
}

int kfc_sniff_gltf(const char *path, const unsigned char *data, size_t size)
{
    return kfc_sniff_gltf_magic(data, size) || kfc_sniff_gltf_name(path) ||
           kfc_sniff_gltf_json(data, size);
}

int kfc_sniff_m3g_identifier(const unsigned char *data, size_t size)
{
    return size >= sizeof kfc_m3g_identifier &&
           memcmp(data, kfc_m3g_identifier, sizeof kfc_m3g_identifier) == 0;
}

int kfc_sniff_m3g_name(const char *path)
{
    return path && kfc_sniff_extension(path, ".m3g");
}

int kfc_sniff_m3g(const char *path, const unsigned char *data, size_t size)
{
    return kfc_sniff_m3g_identifier(data, size) || kfc_sniff_m3g_name(path);
}

/* The names of X3D files, by encoding; each may also be followed by .gz. */
static const struct {
    const char *ext;
    kfc_sniff_encoding encoding;
} extensions[] = {{".x3d", KFC_SNIFF_X3D_XML},   {".x3dz", KFC_SNIFF_X3D_XML},
                  {".x3dv", KFC_SNIFF_X3D_VRML}, {".x3dvz", KFC_SNIFF_X3D_VRML},
                  {".wrl", KFC_SNIFF_X3D_VRML},  {".wrz", KFC_SNIFF_X3D_VRML}};

/* The encoding the first `n` characters of `name` end in the extension
 * of, or NOT_X3D; *length is that extension's length. */
static kfc_sniff_encoding extension(const char *name, size_t n, size_t *length)
{
    for (size_t k = 0; k < sizeof extensions / sizeof extensions[0]; k++)
        if (ends_in(name, n, extensions[k].ext)) {
            *length = strlen(extensions[k].ext);
            return extensions[k].encoding;
        }
    return KFC_SNIFF_NOT_X3D;
}

kfc_sniff_encoding kfc_sniff_x3d_name(const char *path)
{
    if (!path)
        return KFC_SNIFF_NOT_X3D;
    size_t n = strlen(path), length;
    if (ends_in(path, n, ".gz"))
        n -= 3;
    return extension(path, n, &length);
}

size_t kfc_sniff_x3d_gzip_suffix(const char *name)
{
    size_t n = strlen(name), length;
    if (!ends_in(name, n, ".gz") || extension(name, n - 3, &length) == KFC_SNIFF_NOT_X3D)
        return 0;
    return length + 3;
}

int kfc_sniff_vrml_header(const char *data, size_t size)
{
    size_t i;
    const char *word = size >= 5 && memcmp(data, "#VRML", 5) == 0  ? "V2.0"
                       : size >= 4 && memcmp(data, "#X3D", 4) == 0 ? "V"
                                                                   : NULL;
    if (!word)
        return 0;
    i = word[1] ? 5 : 4;
    if (i >= size || (data[i] != ' ' && data[i] != '\t'))
        return 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t'))
        i++;
    return size - i >= strlen(word) && memcmp(data + i, word, strlen(word)) == 0;
}

kfc_sniff_encoding kfc_sniff_x3d_text(const unsigned char *data, size_t size)
{
    const size_t i = kfc_sniff_skip_space(data, size, 0);
    if (kfc_sniff_vrml_header((const char *)data + i, size - i))
        return KFC_SNIFF_X3D_VRML;
    if (starts(data, size, i, "<X3D"))
        return KFC_SNIFF_X3D_XML;
    if (starts(data, size, i, "<?xml") || starts(data, size, i, "<!DOCTYPE")) {
        const size_t n = size < SNIFF_WINDOW ? size : SNIFF_WINDOW;
        for (size_t k = i; k + 4 <= n; k++)
            if (memcmp(data + k, "<X3D", 4) == 0 || memcmp(data + k, " X3D", 4) == 0)
                return KFC_SNIFF_X3D_XML;
    }
    return KFC_SNIFF_NOT_X3D;
}

int kfc_sniff_gzip(const unsigned char *data, size_t size)
{
    return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

int kfc_sniff_x3d(const char *path, const unsigned char *data, size_t size)
{
    return kfc_sniff_x3d_name(path) != KFC_SNIFF_NOT_X3D || kfc_sniff_gzip(data, size) ||
           kfc_sniff_x3d_text(data, size) != KFC_SNIFF_NOT_X3D;
}
