/* SPDX-License-Identifier: MIT */
/* kfc_gltf_data.c - glTF buffers, buffer views and accessors (kfc_gltf_data.h). */
#include "kfc_gltf_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kfc_files.h"
#include "kfc_input.h"
#include "kfc_text.h"

#define GLB_MAGIC 0x46546C67u /* "glTF" */
#define GLB_JSON  0x4E4F534Au
#define GLB_BIN   0x004E4942u

/* External buffers are read whole; a buffer is at most this large. */
#define MAX_BUFFER ((uint64_t)1 << 30)

kfc_status kfc_gltf_fail(kfc_diag *diag, const char *pointer, const char *format, ...)
{
    if (diag) {
        va_list args;
        char text[sizeof diag->message];
        diag->status = KFC_INVALID;
        diag->mark = KFC_NO_MARK;
        diag->file = NULL;
        va_start(args, format);
        vsnprintf(text, sizeof text, format, args);
        va_end(args);
        /* Messages quote the document's strings (names, extensions): their
         * control bytes are escaped, so that a message is one line. */
        kfc_text_escape(diag->message, sizeof diag->message, text);
        snprintf(diag->pointer, sizeof diag->pointer, "%s", pointer[0] ? pointer : "/");
    }
    return KFC_INVALID;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

kfc_status kfc_gltf_glb(const unsigned char *data, size_t size, const unsigned char **json,
                        size_t *json_size, const unsigned char **bin, size_t *bin_size,
                        kfc_diag *diag)
{
    *bin = NULL;
    *bin_size = 0;
    if (size < 12 || le32(data) != GLB_MAGIC)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "not a GLB file (no 'glTF' header)");
    if (le32(data + 4) != 2)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "GLB version %lu, expected 2",
                        (unsigned long)le32(data + 4));
    uint64_t length = le32(data + 8);
    if (length > size)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                        "GLB header says %llu bytes, the file has %llu", (unsigned long long)length,
                        (unsigned long long)size);
    uint64_t pos = 12;
    for (int chunk = 0; pos < length; chunk++) {
        if (length - pos < 8)
            return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "GLB chunk %d: truncated header",
                            chunk);
        uint64_t chunk_length = le32(data + pos), type = le32(data + pos + 4);
        pos += 8;
        if (chunk_length > length - pos)
            return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                            "GLB chunk %d: %llu bytes past the end of the file", chunk,
                            (unsigned long long)(chunk_length - (length - pos)));
        if (chunk == 0) {
            if (type != GLB_JSON)
                return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "GLB: the first chunk is not JSON");
            *json = data + pos;
            *json_size = (size_t)chunk_length;
        } else if (chunk == 1 && type == GLB_BIN) {
            *bin = data + pos;
            *bin_size = (size_t)chunk_length;
        } else if (type == GLB_JSON || type == GLB_BIN) {
            return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "GLB chunk %d: a second %s chunk",
                            chunk, type == GLB_JSON ? "JSON" : "BIN");
        } /* other chunk types are to be ignored */
        pos += chunk_length;
    }
    if (pos == 12)
        return kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "GLB: no JSON chunk");
    return KFC_OK;
}

/* Whether the N bytes at TEXT are the media type NAME, in any case (media
 * types are case-insensitive; kfc sets no locale, so the C one folds
 * ASCII). */
static int media_is(const char *text, size_t n, const char *name)
{
    return strlen(name) == n && strncasecmp(text, name, n) == 0;
}

/* What get_uint found. */
enum { NOT_UINT, GOT_UINT, HUGE_UINT };

/* A non-negative integer (a JSON number with an integral value): GOT_UINT with
 * it in *out; HUGE_UINT for one a double holds inexactly (2^53 or more,
 * 1e300), its text in `text`; else NOT_UINT. */
static int get_uint(const json_t *v, uint64_t *out, char *text, size_t size)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0)
            return NOT_UINT;
        *out = (uint64_t)i;
        snprintf(text, size, "%llu", (unsigned long long)*out);
        return GOT_UINT;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (!(d >= 0.0) || d != floor(d) || isinf(d))
            return NOT_UINT;
        if (d >= 9007199254740992.0) {
            /* As written, near enough: the fewest digits that read back. */
            for (int digits = 1; digits <= 17; digits++) {
                snprintf(text, size, "%.*g", digits, d);
                if (strtod(text, NULL) == d)
                    break;
            }
            return HUGE_UINT;
        }
        *out = (uint64_t)d;
        snprintf(text, size, "%llu", (unsigned long long)*out);
        return GOT_UINT;
    }
    return NOT_UINT;
}

kfc_status kfc_gltf_index(kfc_diag *diag, const json_t *object, const char *field,
                          const char *pointer, int required, int64_t *out)
{
    const json_t *v = json_object_get(object, field);
    *out = -1;
    if (!v) {
        if (required)
            return kfc_gltf_fail(diag, pointer, "missing required field '%s'", field);
        return KFC_OK;
    }
    uint64_t u;
    char text[32];
    const int got = get_uint(v, &u, text, sizeof text);
    if (got == NOT_UINT)
        return kfc_gltf_fail(diag, pointer, "'%s' must be a non-negative integer index", field);
    if (got == HUGE_UINT || u > INT32_MAX) /* a valid number, past any array kfc reads */
        return kfc_gltf_fail(diag, pointer,
                             "'%s' %s is larger than any index kfc reads (at most %d)", field, text,
                             INT32_MAX);
    *out = (int64_t)u;
    return KFC_OK;
}

/* What uint_field's larger than, for a field of 32 bits. */
#define ACCESSOR_READ  "any accessor kfc reads (at most 4294967295)"
#define BYTES_READ     "any byte offset or length kfc reads (at most 4294967295)"
#define STRIDE_ALLOWED "any byteStride glTF allows (at most 252)"

/* An optional non-negative integer field (default `def`), of 32 bits: a
 * larger one is said to be larger than `larger` (ACCESSOR_READ...), or
 * with `larger` NULL (a code, not a size) unknown. */
static kfc_status uint_field(kfc_diag *diag, const json_t *object, const char *field,
                             const char *pointer, uint64_t def, const char *larger, uint64_t *out)
{
    const json_t *v = json_object_get(object, field);
    char text[32];
    *out = def;
    if (!v)
        return KFC_OK;
    const int got = get_uint(v, out, text, sizeof text);
    if (got == NOT_UINT)
        return kfc_gltf_fail(diag, pointer, "'%s' must be a non-negative integer", field);
    if (got == HUGE_UINT || *out > UINT32_MAX) {
        /* A count or size past what 32 bits hold is refused for that: the
         * number itself is a valid one. */
        if (!larger)
            return kfc_gltf_fail(diag, pointer, "unknown %s %s", field, text);
        return kfc_gltf_fail(diag, pointer, "'%s' %s is larger than %s", field, text, larger);
    }
    return KFC_OK;
}

/* The element `index` of the top-level array `name` (a plural in s:
 * "buffers", "bufferViews", "accessors"), or an error at `pointer` (the
 * referencing field) that names one of them: "bufferView 9 does not
 * exist". */
static kfc_status element(kfc_gltf_doc *doc, const char *name, int64_t index, const char *pointer,
                          const json_t **out)
{
    const json_t *array = json_object_get(doc->root, name);
    if (!json_is_array(array) || index < 0 || (uint64_t)index >= json_array_size(array))
        return kfc_gltf_fail(doc->diag, pointer, "%.*s %lld does not exist (%lu defined)",
                             (int)strlen(name) - 1, name, (long long)index,
                             (unsigned long)(json_is_array(array) ? json_array_size(array) : 0));
    *out = json_array_get(array, (size_t)index);
    if (!json_is_object(*out)) {
        char at[64];
        snprintf(at, sizeof at, "/%s/%lld", name, (long long)index);
        return kfc_gltf_fail(doc->diag, at, "expected an object");
    }
    return KFC_OK;
}

/* ---- buffers ------------------------------------------------------------- */

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* RFC 4648 base64 (padding optional; the URL-safe alphabet accepted too).
 * Returns the decoded length, or -1 at an invalid character. `out` holds
 * at least 3 * (n / 4) + 2 bytes. */
static long long base64_decode(const char *in, size_t n, unsigned char *out)
{
    while (n > 0 && in[n - 1] == '=')
        n--;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = base64_value((unsigned char)in[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return (long long)o;
}

kfc_status kfc_gltf_buffers(kfc_gltf_doc *doc)
{
    const json_t *buffers = json_object_get(doc->root, "buffers");
    if (buffers && !json_is_array(buffers))
        return kfc_gltf_fail(doc->diag, "/buffers", "expected an array");
    doc->buffer_count = buffers ? json_array_size(buffers) : 0;
    doc->buffers = calloc(doc->buffer_count + 1, sizeof *doc->buffers);
    if (!doc->buffers)
        return kfc_fail_nomem(doc->diag);
    /* A buffer without 'uri' is the GLB's BIN chunk, which glTF 2.0 makes
     * the first buffer. Every buffer is checked, used or not: a file glTF
     * does not allow is refused whatever the animations read. */
    for (size_t i = 0; i < doc->buffer_count; i++) {
        const json_t *b = json_array_get(buffers, i);
        if (json_is_object(b) && !json_object_get(b, "uri") && (i != 0 || !doc->bin)) {
            char at[64];
            snprintf(at, sizeof at, "/buffers/%lu", (unsigned long)i);
            return kfc_gltf_fail(doc->diag, at,
                                 "a buffer without 'uri' must be the first, in a GLB file with a "
                                 "BIN chunk");
        }
    }
    return KFC_OK;
}

/* A data URI's bytes into buf->owned (buf->data), at least `length` of
 * them; errors at `at_uri`. Nothing is kept on failure, so that a buffer
 * that failed and is read again (by another accessor) holds nothing. */
static kfc_status data_uri(kfc_gltf_doc *doc, const json_t *uri, uint64_t length,
                           const char *at_uri, kfc_gltf_buffer *buf)
{
    const char *s = json_string_value(uri);
    const char *comma = strchr(s, ',');
    if (!comma || comma - s < 12 || strncasecmp(comma - 7, ";base64", 7) != 0)
        return kfc_gltf_fail(doc->diag, at_uri, "a data URI must be base64 (data:...;base64,...)");
    /* glTF 2.0 allows a buffer these two media types only. */
    size_t media = (size_t)(comma - 7 - (s + 5));
    if (!media_is(s + 5, media, "application/octet-stream") &&
        !media_is(s + 5, media, "application/gltf-buffer"))
        return kfc_gltf_fail(doc->diag, at_uri,
                             "a buffer's data URI must be data:application/octet-stream or "
                             "data:application/gltf-buffer, not 'data:%.*s'",
                             (int)(media < 64 ? media : 64), s + 5);
    size_t n = json_string_length(uri) - (size_t)(comma + 1 - s);
    unsigned char *bytes = malloc(3 * (n / 4) + 3);
    if (!bytes)
        return kfc_fail_nomem(doc->diag);
    long long got = base64_decode(comma + 1, n, bytes);
    if (got < 0 || (uint64_t)got < length) {
        free(bytes);
        return got < 0 ? kfc_gltf_fail(doc->diag, at_uri, "the data URI is not valid base64")
                       : kfc_gltf_fail(doc->diag, at_uri,
                                       "byteLength %llu is more than the data URI's %lld bytes",
                                       (unsigned long long)length, got);
    }
    buf->owned = bytes;
    buf->data = bytes;
    return KFC_OK;
}

static kfc_status load_buffer(kfc_gltf_doc *doc, int64_t index, const char *pointer,
                              kfc_gltf_buffer **out)
{
    const json_t *b = NULL;
    kfc_status st = element(doc, "buffers", index, pointer, &b);
    if (st)
        return st;
    kfc_gltf_buffer *buf = &doc->buffers[index];
    *out = buf;
    if (buf->loaded)
        return KFC_OK;
    char at[64], at_uri[72];
    snprintf(at, sizeof at, "/buffers/%lld", (long long)index);
    snprintf(at_uri, sizeof at_uri, "%s/uri", at);
    int first = 0; /* an external file read here for the first time */
    uint64_t length;
    const json_t *len = json_object_get(b, "byteLength");
    char text[32];
    const int got = len ? get_uint(len, &length, text, sizeof text) : NOT_UINT;
    if (got == NOT_UINT || (got == GOT_UINT && length < 1))
        return kfc_gltf_fail(doc->diag, at, "'byteLength' must be an integer >= 1");
    if (got == HUGE_UINT || length > MAX_BUFFER)
        return kfc_gltf_fail(doc->diag, at, "a buffer of %s bytes is larger than kfc reads", text);
    const json_t *uri = json_object_get(b, "uri");
    if (!uri) { /* the BIN chunk (kfc_gltf_buffers refused it anywhere else) */
        if (doc->bin_size < length)
            return kfc_gltf_fail(doc->diag, at,
                                 "byteLength %llu is more than the GLB BIN chunk's %llu bytes",
                                 (unsigned long long)length, (unsigned long long)doc->bin_size);
        buf->data = doc->bin;
    } else if (!json_is_string(uri)) {
        return kfc_gltf_fail(doc->diag, at_uri, "'uri' must be a string");
    } else if (strncasecmp(json_string_value(uri), "data:", 5) == 0) {
        /* (a scheme is case-insensitive: "DATA:" too) */
        if ((st = data_uri(doc, uri, length, at_uri, buf)))
            return st;
    } else {
        if (doc->options->no_files)
            return kfc_gltf_fail(doc->diag, at_uri, "external buffers are not read here");
        /* The file must hold exactly byteLength bytes (as glTF-Validator
         * requires of an external buffer): checked before it is read. */
        /* Buffers naming one file (by any spelling) share one copy of it. */
        const kfc_input *file = NULL;
        st = kfc_files_open(&doc->files, json_string_value(uri), json_string_length(uri), at,
                            length, MAX_BUFFER, &file, &first, doc->diag);
        if (st) {
            snprintf(doc->diag->pointer, sizeof doc->diag->pointer, "%s", at_uri);
            return st;
        }
        buf->data = file->data;
    }
    buf->size = (size_t)length;
    buf->loaded = 1;
    /* An external file is input of its own, counted once however many
     * buffers name it; a GLB chunk or a data URI is counted with the
     * document that holds it. */
    if (first)
        doc->element_budget += length * KFC_GLTF_NUMBERS_PER_BYTE;
    return KFC_OK;
}

/* ---- buffer views and accessors ----------------------------------------- */

typedef struct view {
    const unsigned char *data; /* the view's first byte */
    uint64_t length;
    uint64_t stride; /* 0: not given */
} view;

static kfc_status load_view(kfc_gltf_doc *doc, int64_t index, const char *pointer, view *out)
{
    const json_t *v = NULL;
    kfc_status st = element(doc, "bufferViews", index, pointer, &v);
    if (st)
        return st;
    char at[64];
    snprintf(at, sizeof at, "/bufferViews/%lld", (long long)index);
    int64_t buffer;
    uint64_t offset, length, stride;
    if ((st = kfc_gltf_index(doc->diag, v, "buffer", at, 1, &buffer)) ||
        (st = uint_field(doc->diag, v, "byteOffset", at, 0, BYTES_READ, &offset)) ||
        (st = uint_field(doc->diag, v, "byteLength", at, 0, BYTES_READ, &length)) ||
        (st = uint_field(doc->diag, v, "byteStride", at, 0, STRIDE_ALLOWED, &stride)))
        return st;
    if (length < 1)
        return kfc_gltf_fail(doc->diag, at, "'byteLength' must be an integer >= 1");
    if (json_object_get(v, "byteStride") && (stride < 4 || stride > 252 || stride % 4))
        return kfc_gltf_fail(doc->diag, at, "byteStride %llu is not a multiple of 4 in [4, 252]",
                             (unsigned long long)stride);
    kfc_gltf_buffer *buf;
    char bat[80];
    snprintf(bat, sizeof bat, "%s/buffer", at);
    if ((st = load_buffer(doc, buffer, bat, &buf)))
        return st;
    if (offset > buf->size || length > buf->size - offset)
        return kfc_gltf_fail(doc->diag, at,
                             "bytes %llu to %llu are past the end of buffer %lld (%llu bytes)",
                             (unsigned long long)offset, (unsigned long long)(offset + length),
                             (long long)buffer, (unsigned long long)buf->size);
    out->data = buf->data + offset;
    out->length = length;
    out->stride = stride;
    return KFC_OK;
}

static uint32_t component_size(int type)
{
    switch (type) {
    case GLTF_BYTE:
    case GLTF_UNSIGNED_BYTE:
        return 1;
    case GLTF_SHORT:
    case GLTF_UNSIGNED_SHORT:
        return 2;
    case GLTF_UNSIGNED_INT:
    case GLTF_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static uint32_t type_components(const char *type)
{
    static const struct {
        const char *name;
        uint32_t n;
    } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3},  {"VEC4", 4},
        {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(type, types[i].name) == 0)
            return types[i].n;
    return 0;
}

/* A byteStride on a view that accessor data of `element` bytes an element
 * is read from: refused, since glTF allows one only on vertex-attribute
 * views. A stride of the element size changes nothing, and deleting it is
 * the whole fix; another interleaves the elements with other bytes (or
 * overlaps them), which only an exporter can undo. */
static kfc_status refuse_stride(kfc_gltf_doc *doc, const char *pointer, int64_t index,
                                uint64_t stride, uint64_t element)
{
    char remedy[160];
    if (stride == element)
        snprintf(remedy, sizeof remedy,
                 "this one is already (elements of %llu bytes), so remove \"byteStride\" from "
                 "/bufferViews/%lld, or re-export",
                 (unsigned long long)element, (long long)index);
    else
        snprintf(remedy, sizeof remedy,
                 "its elements of %llu bytes lie %llu apart, %s: re-export the file",
                 (unsigned long long)element, (unsigned long long)stride,
                 stride > element ? "interleaved with other data" : "overlapping");
    return kfc_gltf_fail(doc->diag, pointer,
                         "bufferView %lld has a byteStride (%llu): glTF allows one only on "
                         "vertex-attribute views, and animation data is tightly packed; %s",
                         (long long)index, (unsigned long long)stride, remedy);
}

/* One component at p, normalized as glTF defines when asked. */
static double component(const unsigned char *p, int type, int normalized)
{
    switch (type) {
    case GLTF_BYTE: {
        double c = (double)(int8_t)p[0];
        return normalized ? fmax(c / 127.0, -1.0) : c;
    }
    case GLTF_UNSIGNED_BYTE:
        return normalized ? p[0] / 255.0 : p[0];
    case GLTF_SHORT: {
        double c = (double)(int16_t)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? fmax(c / 32767.0, -1.0) : c;
    }
    case GLTF_UNSIGNED_SHORT: {
        double c = (double)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? c / 65535.0 : c;
    }
    case GLTF_UNSIGNED_INT:
        return (double)le32(p);
    default: {
        uint32_t bits = le32(p);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

/* `count` elements of `components` components from a view at `offset`,
 * into out (count * components doubles): bounds checked here. */
static kfc_status read_elements(kfc_gltf_doc *doc, const view *v, uint64_t offset, uint64_t count,
                                uint32_t components, int type, int normalized, uint64_t stride,
                                const char *at, double *out)
{
    const uint64_t size = (uint64_t)components * component_size(type);
    if (offset % component_size(type))
        return kfc_gltf_fail(doc->diag, at,
                             "byteOffset %llu is not a multiple of the "
                             "component size %lu",
                             (unsigned long long)offset, (unsigned long)component_size(type));
    if (stride == 0)
        stride = size;
    /* offset + stride * (count - 1) + size <= length, without overflow:
     * every term is below 2^32 and count below 2^32. */
    uint64_t end = offset + stride * (count - 1) + size;
    if (count == 0 || end > v->length)
        return kfc_gltf_fail(doc->diag, at,
                             "%llu elements of %llu bytes (stride %llu) from "
                             "byte %llu need %llu bytes; the buffer view has %llu",
                             (unsigned long long)count, (unsigned long long)size,
                             (unsigned long long)stride, (unsigned long long)offset,
                             (unsigned long long)end, (unsigned long long)v->length);
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *p = v->data + offset + i * stride;
        for (uint32_t c = 0; c < components; c++)
            out[i * components + c] = component(p + c * component_size(type), type, normalized);
    }
    return KFC_OK;
}

kfc_status kfc_gltf_charge_numbers(kfc_gltf_doc *doc, uint64_t numbers, const char *pointer)
{
    doc->spent |= numbers > doc->element_budget;
    if (numbers > doc->element_budget)
        return kfc_gltf_fail(doc->diag, pointer,
                             "the channels' names and tracks and the samplers' numbers come to "
                             "more than %u numbers per byte of input; kfc makes no more",
                             KFC_GLTF_NUMBERS_PER_BYTE);
    doc->element_budget -= numbers;
    return KFC_OK;
}

kfc_status kfc_gltf_charge(kfc_gltf_doc *doc, size_t bytes, const char *pointer)
{
    return kfc_gltf_charge_numbers(doc, ((uint64_t)bytes + 3) / 4, pointer);
}

kfc_status kfc_gltf_accessor_kind(kfc_gltf_doc *doc, int64_t index, const char *pointer,
                                  kfc_gltf_accessor *out)
{
    memset(out, 0, sizeof *out);
    const json_t *a = NULL;
    kfc_status st = element(doc, "accessors", index, pointer, &a);
    if (st)
        return st;
    char at[64];
    snprintf(at, sizeof at, "/accessors/%lld", (long long)index);
    uint64_t ctype;
    const json_t *type = json_object_get(a, "type");
    const json_t *norm = json_object_get(a, "normalized");
    if ((st = uint_field(doc->diag, a, "componentType", at, 0, NULL, &ctype)))
        return st;
    if (!component_size((int)ctype))
        return kfc_gltf_fail(doc->diag, at, "unknown componentType %llu",
                             (unsigned long long)ctype);
    if (!json_is_string(type) || !type_components(json_string_value(type)))
        return kfc_gltf_fail(doc->diag, at,
                             "'type' must be SCALAR, VEC2, VEC3, VEC4, MAT2, "
                             "MAT3 or MAT4");
    if (norm && !json_is_boolean(norm))
        return kfc_gltf_fail(doc->diag, at, "'normalized' must be true or false");
    out->components = type_components(json_string_value(type));
    out->component_type = (int)ctype;
    out->normalized = norm && json_is_true(norm);
    if (out->normalized && (ctype == GLTF_FLOAT || ctype == GLTF_UNSIGNED_INT))
        return kfc_gltf_fail(doc->diag, at, "a %s accessor cannot be normalized",
                             ctype == GLTF_FLOAT ? "FLOAT" : "UNSIGNED_INT");
    return KFC_OK;
}

kfc_status kfc_gltf_read_accessor(kfc_gltf_doc *doc, int64_t index, const char *pointer,
                                  kfc_gltf_accessor *out)
{
    kfc_status st = kfc_gltf_accessor_kind(doc, index, pointer, out);
    if (st)
        return st;
    const json_t *a = json_array_get(json_object_get(doc->root, "accessors"), (size_t)index);
    char at[64];
    snprintf(at, sizeof at, "/accessors/%lld", (long long)index);
    const uint64_t ctype = (uint64_t)out->component_type;
    int64_t view_index;
    uint64_t offset, count;
    if ((st = kfc_gltf_index(doc->diag, a, "bufferView", at, 0, &view_index)) ||
        (st = uint_field(doc->diag, a, "byteOffset", at, 0, BYTES_READ, &offset)) ||
        (st = uint_field(doc->diag, a, "count", at, 0, ACCESSOR_READ, &count)))
        return st;
    if (!json_object_get(a, "count") || count < 1)
        return kfc_gltf_fail(doc->diag, at, "'count' must be an integer >= 1");
    const uint64_t numbers = count * out->components;
    view v;
    char vat[80];
    snprintf(vat, sizeof vat, "%s/bufferView", at);
    if (view_index >= 0) {
        if ((st = load_view(doc, view_index, vat, &v)))
            return st;
        if (v.stride)
            return refuse_stride(doc, vat, view_index, v.stride,
                                 (uint64_t)out->components * component_size((int)ctype));
        /* Bounded by the view's bytes (checked again as it is read). */
        if (offset > v.length ||
            count * out->components * component_size((int)ctype) > v.length - offset)
            return kfc_gltf_fail(doc->diag, at,
                                 "%llu elements from byte %llu do not fit in "
                                 "bufferView %lld (%llu bytes)",
                                 (unsigned long long)count, (unsigned long long)offset,
                                 (long long)view_index, (unsigned long long)v.length);
    } else if (numbers > doc->element_budget) {
        /* Without a view nothing else bounds the count. */
        return kfc_gltf_fail(doc->diag, at,
                             "%llu elements without a bufferView are more than "
                             "kfc accepts",
                             (unsigned long long)count);
    }
    doc->spent |= numbers > doc->element_budget;
    if (numbers > doc->element_budget)
        return kfc_gltf_fail(doc->diag, pointer,
                             "accessor %lld: the samplers have read %u "
                             "numbers per byte of input; kfc reads no more",
                             (long long)index, KFC_GLTF_NUMBERS_PER_BYTE);
    doc->element_budget -= numbers;
    out->count = (uint32_t)count;
    out->values = calloc((size_t)numbers, sizeof *out->values);
    if (!out->values)
        return kfc_fail_nomem(doc->diag);
    if (view_index >= 0) {
        if ((st = read_elements(doc, &v, offset, count, out->components, (int)ctype,
                                out->normalized, 0, at, out->values)))
            goto fail;
    } else if (json_object_get(a, "byteOffset")) {
        st = kfc_gltf_fail(doc->diag, at, "'byteOffset' without 'bufferView'");
        goto fail;
    }

    const json_t *sparse = json_object_get(a, "sparse");
    if (sparse) {
        char sat[80], iat[96], wat[96];
        snprintf(sat, sizeof sat, "%s/sparse", at);
        snprintf(iat, sizeof iat, "%s/indices", sat);
        snprintf(wat, sizeof wat, "%s/values", sat);
        const json_t *indices = json_object_get(sparse, "indices");
        const json_t *values = json_object_get(sparse, "values");
        uint64_t scount, ioff, itype, voff;
        int64_t iview, vview;
        if (!json_is_object(sparse) || !json_is_object(indices) || !json_is_object(values)) {
            st = kfc_gltf_fail(doc->diag, sat,
                               "expected an object with 'count', 'indices' "
                               "and 'values' objects");
            goto fail;
        }
        if ((st = uint_field(doc->diag, sparse, "count", sat, 0, ACCESSOR_READ, &scount)) ||
            (st = kfc_gltf_index(doc->diag, indices, "bufferView", iat, 1, &iview)) ||
            (st = uint_field(doc->diag, indices, "byteOffset", iat, 0, BYTES_READ, &ioff)) ||
            (st = uint_field(doc->diag, indices, "componentType", iat, 0, NULL, &itype)) ||
            (st = kfc_gltf_index(doc->diag, values, "bufferView", wat, 1, &vview)) ||
            (st = uint_field(doc->diag, values, "byteOffset", wat, 0, BYTES_READ, &voff)))
            goto fail;
        if (scount < 1 || scount > count) {
            st = kfc_gltf_fail(doc->diag, sat, "sparse count %llu is not in [1, %llu]",
                               (unsigned long long)scount, (unsigned long long)count);
            goto fail;
        }
        if (itype != GLTF_UNSIGNED_BYTE && itype != GLTF_UNSIGNED_SHORT &&
            itype != GLTF_UNSIGNED_INT) {
            st = kfc_gltf_fail(doc->diag, iat,
                               "indices' componentType must be "
                               "UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT");
            goto fail;
        }
        view iv, vv;
        char ivat[112], vvat[112];
        snprintf(ivat, sizeof ivat, "%s/bufferView", iat);
        snprintf(vvat, sizeof vvat, "%s/bufferView", wat);
        if ((st = load_view(doc, iview, ivat, &iv)) || (st = load_view(doc, vview, vvat, &vv)))
            goto fail;
        if (iv.stride || vv.stride) {
            st = iv.stride ? refuse_stride(doc, ivat, iview, iv.stride, component_size((int)itype))
                           : refuse_stride(doc, vvat, vview, vv.stride,
                                           (uint64_t)out->components * component_size((int)ctype));
            goto fail;
        }
        double *idx = malloc((size_t)scount * sizeof *idx);
        double *sub = malloc((size_t)scount * out->components * sizeof *sub);
        if (!idx || !sub) {
            free(idx);
            free(sub);
            st = kfc_fail_nomem(doc->diag);
            goto fail;
        }
        st = read_elements(doc, &iv, ioff, scount, 1, (int)itype, 0, 0, iat, idx);
        if (!st)
            st = read_elements(doc, &vv, voff, scount, out->components, (int)ctype, out->normalized,
                               0, wat, sub);
        for (uint64_t i = 0; i < scount && !st; i++) {
            if (idx[i] >= (double)count || (i > 0 && !(idx[i] > idx[i - 1])))
                st = kfc_gltf_fail(doc->diag, iat, "sparse index %llu (%.0f) is %s",
                                   (unsigned long long)i, idx[i],
                                   idx[i] >= (double)count ? "past the accessor's count"
                                                           : "not greater than the one before");
            else
                memcpy(out->values + (size_t)idx[i] * out->components, sub + i * out->components,
                       out->components * sizeof *sub);
        }
        free(idx);
        free(sub);
        if (st)
            goto fail;
    }
    for (uint64_t i = 0; i < numbers; i++) {
        if (!isfinite(out->values[i])) {
            st = kfc_gltf_fail(doc->diag, at, "element %llu is not a finite number",
                               (unsigned long long)(i / out->components));
            goto fail;
        }
    }
    return KFC_OK;
fail:
    free(out->values);
    out->values = NULL;
    return st;
}

void kfc_gltf_doc_free(kfc_gltf_doc *doc)
{
    for (size_t i = 0; doc->buffers && i < doc->buffer_count; i++) {
        free(doc->buffers[i].owned);
    }
    kfc_files_free(&doc->files);
    free(doc->buffers);
    doc->buffers = NULL;
    json_decref(doc->node_names);
    doc->node_names = NULL;
    doc->buffer_count = 0;
}
