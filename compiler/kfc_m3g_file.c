/* SPDX-License-Identifier: MIT */
/*
 * kfc_m3g_file.c - the M3G file format (kfc_m3g_file.h), in one pass over
 * the sections. Every count is checked against the bytes left in its
 * object before anything is allocated for it, and a zlib section may not
 * declare more bytes than deflate can produce from its stream, so memory
 * and time follow the size of the input.
 */
#include "kfc_m3g_file.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "kfc_sniff.h"

/* Deflate codes at best a 258-byte match in 2 bits: 1032 bytes per byte of
 * stream. A section declaring more inflated bytes than that is not zlib. */
#define MAX_RATIO 1032u

/* CompressionScheme, TotalSectionLength, UncompressedLength; Checksum. */
#define SECTION_HEAD     9u
#define SECTION_OVERHEAD 13u

static const char *const type_names[KFC_M3G_TYPE_COUNT] = {
    "Header",
    "AnimationController",
    "AnimationTrack",
    "Appearance",
    "Background",
    "Camera",
    "CompositingMode",
    "Fog",
    "PolygonMode",
    "Group",
    "Image2D",
    "TriangleStripArray",
    "Light",
    "Material",
    "Mesh",
    "MorphingMesh",
    "SkinnedMesh",
    "Texture2D",
    "Sprite3D",
    "KeyframeSequence",
    "VertexArray",
    "VertexBuffer",
    "World",
};

const char *kfc_m3g_type_name(unsigned type)
{
    if (type < KFC_M3G_TYPE_COUNT)
        return type_names[type];
    return type == KFC_M3G_EXTERNAL_REFERENCE ? "ExternalReference" : NULL;
}

void kfc_m3g_where(char *out, size_t size, const kfc_m3g_place *at, uint32_t object)
{
    int n;
    if (at->inflated)
        n = snprintf(out, size, "section %lu, inflated byte %llu", (unsigned long)at->section,
                     (unsigned long long)at->offset);
    else
        n = snprintf(out, size, "byte %llu", (unsigned long long)at->offset);
    if (object && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, ", object %lu", (unsigned long)object);
}

typedef struct reader {
    kfc_m3g_file *file;
    kfc_diag *diag;
    size_t input_size;
    /* The section being read: its objects' bytes. */
    const unsigned char *base;
    size_t size;
    uint64_t origin; /* file offset of base, for a stored section */
    uint32_t section;
    int inflated;
    int references_section; /* this is the external references' section */
    int ok;                 /* RESERVE's result */
    /* The object being read: [at, end) of base, its index and class. */
    size_t at, end;
    uint32_t object;
    const char *what;
    uint64_t inflated_total; /* bytes of objects so far */
    size_t cap_objects, cap_refs, cap_controllers, cap_tracks, cap_sequences, cap_uris,
        cap_inflated, cap_scratch;
    uint32_t *scratch; /* IDs to look for duplicates among */
} reader;

static kfc_status fail(reader *r, size_t at, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A failure at byte `at` of the current section's objects, in the current
 * object (if any). */
static kfc_status fail(reader *r, size_t at, const char *format, ...)
{
    char where[96], message[sizeof r->diag->message];
    kfc_m3g_place place = {r->inflated ? at : r->origin + at, r->section, r->inflated};
    kfc_m3g_where(where, sizeof where, &place, r->object);
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return kfc_fail_at(r->diag, where, "%s", message);
}

/* A failure at byte `offset` of the file, outside any object. */
static kfc_status fail_file(reader *r, uint64_t offset, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static kfc_status fail_file(reader *r, uint64_t offset, const char *format, ...)
{
    char where[96], message[sizeof r->diag->message];
    kfc_m3g_place place = {offset, 0, 0};
    kfc_m3g_where(where, sizeof where, &place, 0);
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return kfc_fail_at(r->diag, where, "%s", message);
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float f32(const unsigned char *p)
{
    uint32_t bits = le32(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* `array` (*cap elements of `elem` bytes, `used` of them in use) with room
 * for `count` more: itself or a larger copy; on failure the array as it
 * was, and *ok = 0. */
static void *reserve_(void *array, size_t *cap, size_t used, size_t count, size_t elem, int *ok)
{
    *ok = 1;
    if (count <= *cap - used)
        return array;
    size_t n = *cap ? *cap : 16;
    while (n - used < count) {
        if (n > SIZE_MAX / 2 / elem) {
            *ok = 0;
            return array;
        }
        n *= 2;
    }
    void *p = realloc(array, n * elem);
    if (!p) {
        *ok = 0;
        return array;
    }
    *cap = n;
    return p;
}

/* 1 (and the array unchanged) when out of memory. */
#define RESERVE(r, array, cap, used, count)                                                        \
    ((array) = reserve_((array), &(cap), (used), (count), sizeof *(array), &(r)->ok), !(r)->ok)

/* Bytes left in the current object. */
static size_t left(const reader *r)
{
    return r->end - r->at;
}

static kfc_status need(reader *r, size_t n, const char *field)
{
    if (left(r) >= n)
        return KFC_OK;
    return fail(r, r->at, "%s: the object ends inside its %s (%lu more bytes needed, %lu left)",
                r->what, field, (unsigned long)n, (unsigned long)left(r));
}

static uint32_t take32(reader *r)
{
    uint32_t v = le32(r->base + r->at);
    r->at += 4;
    return v;
}

/* A Float32 field: any number, -0 and denormals included (the format
 * forbids them; they are numbers all the same), but no NaN or infinity. */
static kfc_status take_float(reader *r, const char *field, float *out)
{
    *out = f32(r->base + r->at);
    if (!isfinite(*out))
        return fail(r, r->at, "%s: %s is %s, not a number", r->what, field,
                    isnan(*out) ? "NaN" : "infinite");
    r->at += 4;
    return KFC_OK;
}

/* "an" before a class name that starts with a vowel, else "a". */
static const char *article(const char *name)
{
    return strchr("AEIOU", name[0]) ? "an" : "a";
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The first value that appears twice among `n` scratch entries (sorted in
 * place), in *dup; 0 if none does. */
static int duplicate(uint32_t *v, size_t n, uint32_t *dup)
{
    if (n < 2)
        return 0;
    qsort(v, n, sizeof *v, compare_u32);
    for (size_t i = 1; i < n; i++)
        if (v[i] == v[i - 1]) {
            *dup = v[i];
            return 1;
        }
    return 0;
}

/* An ObjectIndex field at r->at that must name an earlier object of class
 * `want` (or be null when `nullable`). */
static kfc_status reference(reader *r, const char *field, unsigned want, int nullable,
                            uint32_t *out)
{
    size_t at = r->at;
    uint32_t ref = take32(r);
    *out = ref;
    if (ref == 0) {
        if (nullable)
            return KFC_OK;
        return fail(r, at, "%s: %s is a null reference", r->what, field);
    }
    if (ref >= r->object)
        return fail(r, at, "%s: %s refers to object %lu, which does not come before it", r->what,
                    field, (unsigned long)ref);
    unsigned type = r->file->object[ref - 1].type;
    if (type != want)
        return fail(r, at, "%s: %s refers to object %lu, %s %s, not %s %s", r->what, field,
                    (unsigned long)ref, article(kfc_m3g_type_name(type)), kfc_m3g_type_name(type),
                    article(kfc_m3g_type_name(want)), kfc_m3g_type_name(want));
    return KFC_OK;
}

static kfc_status end_of_object(reader *r)
{
    if (r->at == r->end)
        return KFC_OK;
    return fail(r, r->at, "%s: %lu bytes after the end of its data", r->what,
                (unsigned long)left(r));
}

static kfc_status read_header(reader *r)
{
    kfc_m3g_file *file = r->file;
    const size_t fields = r->at;
    kfc_status st = need(r, 11, "fields");
    if (st)
        return st;
    const unsigned char *p = r->base + r->at;
    if (p[0] != 1 || p[1] != 0)
        return fail(r, r->at,
                    "Header: file format version %u.%u; kfc reads version 1.0 (JSR-184: M3G "
                    "1.0 and 1.1)",
                    p[0], p[1]);
    if (p[2] > 1)
        return fail(r, r->at + 2, "Header: hasExternalReferences is %u, not a Boolean (0 or 1)",
                    p[2]);
    file->external = p[2];
    file->total_size = le32(p + 3);
    r->at += 11;
    const unsigned char *nul = memchr(r->base + r->at, 0, left(r));
    if (!nul)
        return fail(r, r->at, "Header: the AuthoringField string has no terminating NUL");
    file->authoring = (const char *)(r->base + r->at);
    r->at = (size_t)(nul - r->base) + 1;
    if ((st = end_of_object(r)))
        return st;
    /* M3G reads a file up to its TotalFileSize and stops: bytes after it
     * are not the file's (kfc_m3g.c notes them). */
    if (file->total_size > r->input_size)
        return fail(r, fields + 3,
                    "Header: TotalFileSize is %lu, but the file has %lu bytes (truncated?)",
                    (unsigned long)file->total_size, (unsigned long)r->input_size);
    if (file->total_size < r->origin + r->size + 4)
        return fail(r, fields + 3,
                    "Header: TotalFileSize is %lu, less than the file up to the header's end (%lu "
                    "bytes)",
                    (unsigned long)file->total_size, (unsigned long)(r->origin + r->size + 4));
    return KFC_OK;
}

static kfc_status read_uri(reader *r)
{
    kfc_m3g_file *file = r->file;
    const unsigned char *nul = memchr(r->base + r->at, 0, left(r));
    if (!nul)
        return fail(r, r->at, "ExternalReference: the URI string has no terminating NUL");
    if (RESERVE(r, file->uris, r->cap_uris, file->uri_count, 1))
        return kfc_fail_nomem(r->diag);
    file->object[file->object_count].record = file->uri_count;
    file->uris[file->uri_count++] = (const char *)(r->base + r->at);
    r->at = (size_t)(nul - r->base) + 1;
    return end_of_object(r);
}

/* Object3D: userID, animationTracks, user parameters. */
static kfc_status read_object3d(reader *r)
{
    kfc_m3g_file *file = r->file;
    kfc_m3g_object *o = &file->object[file->object_count];
    kfc_status st = need(r, 8, "Object3D fields");
    if (st)
        return st;
    o->user_id = take32(r);
    size_t at = r->at;
    uint32_t n = take32(r);
    if (n > left(r) / 4)
        return fail(r, at, "%s: %lu animation tracks need %llu bytes, %lu are left", r->what,
                    (unsigned long)n, 4ull * n, (unsigned long)left(r));
    /* The references (grown by doubling) and their sorted copy. */
    if (!kfc_m3g_charge(file, 12ull * n))
        return fail(r, at, "%s: " KFC_M3G_BUDGET_MESSAGE, r->what);
    if (RESERVE(r, file->track_refs, r->cap_refs, file->track_ref_count, n) ||
        RESERVE(r, r->scratch, r->cap_scratch, 0, n))
        return kfc_fail_nomem(r->diag);
    o->tracks_first = file->track_ref_count;
    o->track_count = n;
    for (uint32_t i = 0; i < n; i++) {
        char field[48];
        snprintf(field, sizeof field, "animation track %lu", (unsigned long)i);
        uint32_t ref;
        if ((st = reference(r, field, KFC_M3G_ANIMATION_TRACK, 0, &ref)))
            return st;
        file->track_refs[file->track_ref_count++] = ref;
        r->scratch[i] = ref;
    }
    uint32_t dup;
    if (duplicate(r->scratch, n, &dup))
        return fail(r, at, "%s: it lists AnimationTrack %lu twice", r->what, (unsigned long)dup);
    if ((st = need(r, 4, "userParameterCount")))
        return st;
    at = r->at;
    n = take32(r);
    if (n > left(r) / 8)
        return fail(r, at, "%s: %lu user parameters need at least %llu bytes, %lu are left",
                    r->what, (unsigned long)n, 8ull * n, (unsigned long)left(r));
    if (!kfc_m3g_charge(file, 4ull * n))
        return fail(r, at, "%s: " KFC_M3G_BUDGET_MESSAGE, r->what);
    if (RESERVE(r, r->scratch, r->cap_scratch, 0, n))
        return kfc_fail_nomem(r->diag);
    o->parameters = n;
    for (uint32_t i = 0; i < n; i++) {
        if ((st = need(r, 8, "user parameters")))
            return st;
        r->scratch[i] = take32(r);
        size_t len_at = r->at;
        uint32_t len = take32(r);
        if (len > left(r))
            return fail(r, len_at, "%s: user parameter %lu has %lu bytes, %lu are left", r->what,
                        (unsigned long)i, (unsigned long)len, (unsigned long)left(r));
        r->at += len;
    }
    if (duplicate(r->scratch, n, &dup))
        return fail(r, at, "%s: user parameter ID %lu appears twice", r->what, (unsigned long)dup);
    return KFC_OK;
}

static kfc_status read_controller(reader *r)
{
    kfc_m3g_file *file = r->file;
    kfc_m3g_controller c;
    kfc_status st = need(r, 24, "fields");
    if (st || (st = take_float(r, "speed", &c.speed)) || (st = take_float(r, "weight", &c.weight)))
        return st;
    size_t at = r->at - 4;
    if (c.weight < 0.0f)
        return fail(r, at, "AnimationController: weight %.9g is negative", c.weight);
    at = r->at;
    c.active_start = (int32_t)take32(r);
    c.active_end = (int32_t)take32(r);
    if (c.active_start > c.active_end)
        return fail(r, at,
                    "AnimationController: the active interval [%ld, %ld) starts after it ends",
                    (long)c.active_start, (long)c.active_end);
    if ((st = take_float(r, "referenceSequenceTime", &c.ref_sequence)))
        return st;
    c.ref_world = (int32_t)take32(r);
    if ((st = end_of_object(r)))
        return st;
    if (RESERVE(r, file->controllers, r->cap_controllers, file->controller_count, 1))
        return kfc_fail_nomem(r->diag);
    file->object[file->object_count].record = file->controller_count;
    file->controllers[file->controller_count++] = c;
    return KFC_OK;
}

static kfc_status read_track(reader *r)
{
    kfc_m3g_file *file = r->file;
    kfc_m3g_track t;
    kfc_status st = need(r, 12, "fields");
    if (st || (st = reference(r, "keyframeSequence", KFC_M3G_KEYFRAME_SEQUENCE, 0, &t.sequence)) ||
        (st = reference(r, "animationController", KFC_M3G_ANIMATION_CONTROLLER, 1, &t.controller)))
        return st;
    t.property = take32(r);
    if ((st = end_of_object(r)))
        return st;
    if (RESERVE(r, file->tracks, r->cap_tracks, file->track_count, 1))
        return kfc_fail_nomem(r->diag);
    file->object[file->object_count].record = file->track_count;
    file->tracks[file->track_count++] = t;
    return KFC_OK;
}

/* A time field of key `k`: UInt32 in the file, an int in the API. */
static kfc_status key_time(reader *r, uint32_t k)
{
    uint32_t t = le32(r->base + r->at);
    if (t > INT32_MAX)
        return fail(r, r->at, "KeyframeSequence: key %lu time %lu is out of range (at most %ld)",
                    (unsigned long)k, (unsigned long)t, (long)INT32_MAX);
    r->at += 4;
    return KFC_OK;
}

static kfc_status read_sequence(reader *r)
{
    kfc_m3g_file *file = r->file;
    kfc_m3g_sequence s;
    kfc_status st = need(r, 23, "fields");
    if (st)
        return st;
    const size_t at = r->at;
    const unsigned char *p = r->base + at;
    s.interpolation = p[0];
    s.repeat = p[1];
    s.encoding = p[2];
    s.duration = le32(p + 3);
    s.valid_first = le32(p + 7);
    s.valid_last = le32(p + 11);
    s.components = le32(p + 15);
    s.keys = le32(p + 19);
    if (s.interpolation < KFC_M3G_LINEAR || s.interpolation > KFC_M3G_STEP)
        return fail(r, at,
                    "KeyframeSequence: interpolation %u is none of 176 LINEAR, 177 SLERP, 178 "
                    "SPLINE, 179 SQUAD, 180 STEP",
                    s.interpolation);
    if (s.repeat != KFC_M3G_CONSTANT && s.repeat != KFC_M3G_LOOP)
        return fail(r, at + 1,
                    "KeyframeSequence: repeatMode %u is neither 192 CONSTANT nor 193 LOOP",
                    s.repeat);
    if (s.encoding > 2)
        return fail(r, at + 2,
                    "KeyframeSequence: encoding %u is none of 0 (Float32), 1 (Byte), 2 (UInt16)",
                    s.encoding);
    if (s.duration < 1 || s.duration > INT32_MAX)
        return fail(r, at + 3, "KeyframeSequence: duration %lu is out of range (1 to %ld)",
                    (unsigned long)s.duration, (long)INT32_MAX);
    if (s.components < 1)
        return fail(r, at + 15, "KeyframeSequence: componentCount is 0");
    if (s.keys < 1)
        return fail(r, at + 19, "KeyframeSequence: keyframeCount is 0");
    if ((s.interpolation == KFC_M3G_SLERP || s.interpolation == KFC_M3G_SQUAD) && s.components != 4)
        return fail(
            r, at + 15, "KeyframeSequence: %s keyframes are quaternions, 4 components, not %lu",
            s.interpolation == KFC_M3G_SLERP ? "SLERP" : "SQUAD", (unsigned long)s.components);
    if (s.valid_first >= s.keys || s.valid_last >= s.keys)
        return fail(r, at + (s.valid_first >= s.keys ? 7 : 11),
                    "KeyframeSequence: the valid range [%lu, %lu] is outside its %lu keyframes",
                    (unsigned long)s.valid_first, (unsigned long)s.valid_last,
                    (unsigned long)s.keys);
    r->at += 23;
    /* Sizes by division first: componentCount and keyframeCount are any
     * UInt32, and their product must not wrap. */
    const uint64_t size = s.encoding == 0 ? 4 : s.encoding == 1 ? 1 : 2;
    const uint64_t head = s.encoding == 0 ? 0 : 8ull * s.components;
    const uint64_t per_key = 4 + size * s.components;
    if (head > left(r) || s.keys > (left(r) - head) / per_key)
        return fail(r, r->at,
                    "KeyframeSequence: %lu keyframes of %lu components need %.0f bytes, %lu are "
                    "left",
                    (unsigned long)s.keys, (unsigned long)s.components,
                    (double)head + (double)s.keys * (double)per_key, (unsigned long)left(r));
    s.data = r->base + r->at;
    for (uint32_t j = 0; j < 2 * s.components && s.encoding != 0; j++) {
        float v;
        char field[64];
        snprintf(field, sizeof field, "vector%s %lu", j < s.components ? "Bias" : "Scale",
                 (unsigned long)(j % s.components));
        if ((st = take_float(r, field, &v)))
            return st;
    }
    for (uint32_t k = 0; k < s.keys; k++) {
        if ((st = key_time(r, k)))
            return st;
        if (s.encoding == 0) {
            for (uint32_t j = 0; j < s.components; j++) {
                float v;
                char field[64];
                snprintf(field, sizeof field, "key %lu component %lu", (unsigned long)k,
                         (unsigned long)j);
                if ((st = take_float(r, field, &v)))
                    return st;
            }
        } else {
            /* Decoded as kfc_m3g_sequence_keys does; a bias and scale near
             * the float range can leave it. */
            for (uint32_t j = 0; j < s.components; j++) {
                float bias = f32(s.data + 4 * j), scale = f32(s.data + 4 * (s.components + j));
                float q = s.encoding == 1
                              ? (float)r->base[r->at]
                              : (float)(r->base[r->at] | (unsigned)r->base[r->at + 1] << 8);
                float v = bias + scale * q / (s.encoding == 1 ? 255.0f : 65535.0f);
                if (!isfinite(v))
                    return fail(r, r->at,
                                "KeyframeSequence: key %lu component %lu decodes to a value "
                                "beyond the float range",
                                (unsigned long)k, (unsigned long)j);
                r->at += (size_t)size;
            }
        }
    }
    if ((st = end_of_object(r)))
        return st;
    if (RESERVE(r, file->sequences, r->cap_sequences, file->sequence_count, 1))
        return kfc_fail_nomem(r->diag);
    file->object[file->object_count].record = file->sequence_count;
    file->sequences[file->sequence_count++] = s;
    return KFC_OK;
}

void kfc_m3g_sequence_keys(const kfc_m3g_sequence *s, double *times, double *values)
{
    const unsigned char *p = s->data;
    const uint32_t c = s->components;
    const unsigned char *bias = p, *scale = p + 4 * (size_t)c;
    if (s->encoding != 0)
        p += 8 * (size_t)c;
    for (uint32_t k = 0; k < s->keys; k++) {
        times[k] = le32(p);
        p += 4;
        for (uint32_t j = 0; j < c; j++) {
            double *v = values + (size_t)k * c + j;
            if (s->encoding == 0) {
                *v = f32(p);
                p += 4;
            } else {
                /* The M3G API's order of operations, in float: the
                 * reference loader's values to the bit. */
                float q = s->encoding == 1 ? (float)p[0] : (float)(p[0] | (unsigned)p[1] << 8);
                *v = f32(bias + 4 * j) +
                     f32(scale + 4 * j) * q / (s->encoding == 1 ? 255.0f : 65535.0f);
                p += s->encoding;
            }
        }
    }
}

/* One object of the current section, from r->at. */
static kfc_status read_object(reader *r)
{
    kfc_m3g_file *file = r->file;
    const size_t start = r->at;
    r->object = file->object_count + 1;
    r->what = "object";
    if (r->size - start < 5)
        return fail(r, start,
                    "the section ends inside an object's ObjectType and Length (%lu "
                    "bytes left)",
                    (unsigned long)(r->size - start));
    const unsigned type = r->base[start];
    const uint32_t length = le32(r->base + start + 1);
    const char *name = kfc_m3g_type_name(type);
    if (!name)
        return fail(r, start, "ObjectType %u is reserved (0-22 and 255 are defined)", type);
    r->what = name;
    if (length > r->size - start - 5)
        return fail(r, start + 1,
                    "%s: Length %lu runs past the end of its section (%lu bytes left)", name,
                    (unsigned long)length, (unsigned long)(r->size - start - 5));
    if (r->section == 0 && (type != KFC_M3G_HEADER || file->object_count > 0))
        return fail(r, start, "section 0 must hold the Header object alone, not %s %s%s",
                    type == KFC_M3G_HEADER ? "a" : article(name),
                    type == KFC_M3G_HEADER ? "second " : "", name);
    if (r->section > 0 && type == KFC_M3G_HEADER)
        return fail(r, start, "a second Header object, outside section 0");
    if (r->references_section && type != KFC_M3G_EXTERNAL_REFERENCE)
        return fail(r, start,
                    "%s %s in the section after the header, which holds the external references "
                    "(hasExternalReferences is 1)",
                    article(name), name);
    if (!r->references_section && type == KFC_M3G_EXTERNAL_REFERENCE)
        return fail(r, start, "an ExternalReference outside the section right after the header%s",
                    file->external ? "" : " (hasExternalReferences is 0)");
    /* Arrays grow by doubling: twice the record, and the largest of the
     * records of the animation classes. */
    if (!kfc_m3g_charge(file, 2 * (sizeof(kfc_m3g_object) + sizeof(kfc_m3g_sequence))))
        return fail(r, start, "%s: " KFC_M3G_BUDGET_MESSAGE, name);
    if (file->object_count == UINT32_MAX - 1 ||
        RESERVE(r, file->object, r->cap_objects, file->object_count, 1))
        return kfc_fail_nomem(r->diag);
    kfc_m3g_object *o = &file->object[file->object_count];
    memset(o, 0, sizeof *o);
    o->type = (uint8_t)type;
    o->at.offset = r->inflated ? start : r->origin + start;
    o->at.section = r->section;
    o->at.inflated = r->inflated;
    r->at = start + 5;
    r->end = r->at + length;
    kfc_status st;
    if (type == KFC_M3G_HEADER)
        st = read_header(r);
    else if (type == KFC_M3G_EXTERNAL_REFERENCE)
        st = read_uri(r);
    else if ((st = read_object3d(r)) == KFC_OK) {
        if (type == KFC_M3G_ANIMATION_CONTROLLER)
            st = read_controller(r);
        else if (type == KFC_M3G_ANIMATION_TRACK)
            st = read_track(r);
        else if (type == KFC_M3G_KEYFRAME_SEQUENCE)
            st = read_sequence(r);
    }
    if (st)
        return st;
    /* Other classes: the rest of the object is not about animation. */
    r->at = r->end;
    file->object_count++;
    r->object = 0;
    return KFC_OK;
}

/* The zlib stream of a section into a new buffer of exactly `length` bytes. */
static kfc_status inflate_section(reader *r, const unsigned char *stream, uint32_t stored,
                                  uint32_t length, uint64_t offset, unsigned char **out)
{
    kfc_m3g_file *file = r->file;
    *out = NULL;
    if (RESERVE(r, file->inflated, r->cap_inflated, file->inflated_count, 1))
        return kfc_fail_nomem(r->diag);
    unsigned char *buffer = malloc(length);
    if (!buffer)
        return kfc_fail_nomem(r->diag);
    file->inflated[file->inflated_count++] = buffer;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return kfc_fail_nomem(r->diag);
    z.next_in = (unsigned char *)stream; /* zlib's API is not const-correct */
    z.avail_in = stored;
    z.next_out = buffer;
    z.avail_out = length;
    int ret = inflate(&z, Z_FINISH), longer = 0;
    if (ret != Z_STREAM_END && ret != Z_MEM_ERROR && z.avail_out == 0) {
        /* The buffer is full: the stream must end here. One byte more
         * tells, and cannot overrun. */
        unsigned char probe;
        z.next_out = &probe;
        z.avail_out = 1;
        ret = inflate(&z, Z_FINISH);
        longer = z.avail_out == 0;
    }
    const char *msg = z.msg;
    const uLong produced = z.total_out, left_in = z.avail_in;
    inflateEnd(&z);
    if (ret == Z_MEM_ERROR)
        return kfc_fail_nomem(r->diag);
    if (longer)
        return fail_file(r, offset,
                         "section %lu: the zlib stream inflates to more than its "
                         "UncompressedLength, %lu bytes",
                         (unsigned long)r->section, (unsigned long)length);
    if (ret != Z_STREAM_END) {
        if (msg)
            return fail_file(r, offset, "section %lu: zlib: %s", (unsigned long)r->section, msg);
        return fail_file(r, offset, "section %lu: the zlib stream ends after %lu of its %lu bytes",
                         (unsigned long)r->section, (unsigned long)produced, (unsigned long)length);
    }
    if (produced != length)
        return fail_file(r, offset,
                         "section %lu: the zlib stream inflates to %lu bytes; its "
                         "UncompressedLength says %lu",
                         (unsigned long)r->section, (unsigned long)produced, (unsigned long)length);
    if (left_in != 0)
        return fail_file(r, offset, "section %lu: %lu bytes after the end of its zlib stream",
                         (unsigned long)r->section, (unsigned long)left_in);
    *out = buffer;
    return KFC_OK;
}

static kfc_status read_sections(reader *r, const unsigned char *data, size_t size)
{
    kfc_m3g_file *file = r->file;
    uint64_t pos = sizeof kfc_m3g_identifier;
    r->section = 0;
    while (pos < size) {
        const uint32_t s = r->section;
        const uint64_t rest = size - pos;
        r->inflated = 0;
        r->object = 0;
        if (rest < SECTION_OVERHEAD)
            return fail_file(r, pos,
                             "section %lu: %llu bytes are left, a section takes at least %u",
                             (unsigned long)s, (unsigned long long)rest, SECTION_OVERHEAD);
        const unsigned scheme = data[pos];
        const uint32_t total = le32(data + pos + 1), length = le32(data + pos + 5);
        if (scheme > 1)
            return fail_file(r, pos,
                             "section %lu: CompressionScheme %u is neither 0 (stored) nor 1 "
                             "(zlib)",
                             (unsigned long)s, scheme);
        if (s == 0 && scheme != 0)
            return fail_file(r, pos, "section 0, the header's, must be stored, not compressed");
        if (total < SECTION_OVERHEAD || total > rest)
            return fail_file(r, pos + 1,
                             "section %lu: TotalSectionLength %lu is %s (%llu bytes are left)",
                             (unsigned long)s, (unsigned long)total,
                             total < SECTION_OVERHEAD ? "less than 13" : "past the end of the file",
                             (unsigned long long)rest);
        const uint32_t stored = total - SECTION_OVERHEAD;
        const uint32_t want = le32(data + pos + total - 4);
        const uint32_t sum = (uint32_t)adler32(adler32(0L, Z_NULL, 0), data + pos, total - 4);
        if (sum != want)
            return fail_file(r, pos + total - 4,
                             "section %lu: its Adler-32 checksum is 0x%08lx, its bytes give "
                             "0x%08lx",
                             (unsigned long)s, (unsigned long)want, (unsigned long)sum);
        if (scheme == 0 && length != stored)
            return fail_file(r, pos + 5,
                             "section %lu: UncompressedLength is %lu, but it stores %lu bytes of "
                             "objects",
                             (unsigned long)s, (unsigned long)length, (unsigned long)stored);
        if (length > KFC_M3G_MAX_INFLATED - r->inflated_total)
            return fail_file(r, pos + 5,
                             "section %lu: UncompressedLength %lu makes more than 256 MiB of "
                             "objects",
                             (unsigned long)s, (unsigned long)length);
        if (scheme == 1 && !kfc_m3g_charge(file, length))
            return fail_file(r, pos + 5,
                             "section %lu: UncompressedLength %lu: " KFC_M3G_BUDGET_MESSAGE,
                             (unsigned long)s, (unsigned long)length);
        r->inflated_total += length;
        r->origin = pos + SECTION_HEAD;
        r->base = data + pos + SECTION_HEAD;
        r->size = length;
        if (scheme == 1) {
            unsigned char *buffer = NULL;
            if ((uint64_t)length > (uint64_t)stored * MAX_RATIO)
                return fail_file(r, pos + 5,
                                 "section %lu: UncompressedLength %lu from %lu bytes of zlib "
                                 "stream: more than deflate can produce (%u to 1)",
                                 (unsigned long)s, (unsigned long)length, (unsigned long)stored,
                                 MAX_RATIO);
            kfc_status st = KFC_OK;
            if (length > 0)
                st = inflate_section(r, data + pos + SECTION_HEAD, stored, length,
                                     pos + SECTION_HEAD, &buffer);
            if (st)
                return st;
            r->base = buffer;
            r->inflated = 1;
        }
        r->references_section = s == 1 && file->external;
        const uint32_t before = file->object_count;
        r->at = 0;
        while (r->at < r->size) {
            kfc_status st = read_object(r);
            if (st)
                return st;
        }
        r->object = 0;
        r->inflated = 0;
        if (s == 0 && file->object_count == 0)
            return fail_file(r, pos, "section 0 holds no Header object");
        if (s == 0)
            size = file->total_size; /* at most the input's size (read_header) */
        if (r->references_section && file->object_count == before)
            return fail_file(r, pos,
                             "section 1 holds no external references, but the header's "
                             "hasExternalReferences is 1");
        pos += total;
        if (r->section == UINT32_MAX)
            return fail_file(r, pos, "too many sections");
        r->section++;
    }
    if (r->section == 0)
        return fail_file(r, pos, "the file ends after its identifier, without a header section");
    if (file->external && r->section < 2)
        return fail_file(r, pos,
                         "the header's hasExternalReferences is 1, but no section of external "
                         "references follows it");
    if (file->object_count < 2)
        return fail_file(r, pos, "the file holds no object besides its header");
    return KFC_OK;
}

kfc_status kfc_m3g_read(const unsigned char *data, size_t size, kfc_m3g_file *file, kfc_diag *diag)
{
    memset(file, 0, sizeof *file);
    reader r;
    memset(&r, 0, sizeof r);
    r.file = file;
    r.diag = diag;
    r.input_size = size;
    file->budget = KFC_M3G_BUDGET_BASE + (uint64_t)size * KFC_M3G_BUDGET_PER_BYTE;
    kfc_status st;
    if (size && size < sizeof kfc_m3g_identifier &&
        memcmp(data, kfc_m3g_identifier, size) == 0) /* (a file cut short) */
        st = fail_file(&r, 0,
                       "the file ends inside the JSR-184 file identifier (%lu of its 12 bytes)",
                       (unsigned long)size);
    else if (!kfc_sniff_m3g_identifier(data, size))
        st = fail_file(&r, 0,
                       "not an M3G file: it does not start with the JSR-184 file identifier "
                       "(AB 4A 53 52 31 38 34 BB 0D 0A 1A 0A)");
    else
        st = read_sections(&r, data, size);
    free(r.scratch);
    if (st)
        kfc_m3g_file_free(file);
    return st;
}

int kfc_m3g_charge(kfc_m3g_file *file, uint64_t bytes)
{
    if (bytes > file->budget)
        return 0;
    file->budget -= bytes;
    return 1;
}

void kfc_m3g_file_free(kfc_m3g_file *file)
{
    for (uint32_t i = 0; i < file->inflated_count; i++)
        free(file->inflated[i]);
    free(file->inflated);
    free(file->object);
    free(file->track_refs);
    free(file->controllers);
    free(file->tracks);
    free(file->sequences);
    free(file->uris);
    memset(file, 0, sizeof *file);
}
