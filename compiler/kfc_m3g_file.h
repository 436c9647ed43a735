/* SPDX-License-Identifier: MIT */
/*
 * kfc_m3g_file.h - the JSR-184 (M3G 1.0/1.1) file format, read for its
 * animation: the file identifier, the sections (stored or zlib, each with
 * its Adler-32), the object table, the Object3D part of every object (user
 * ID, the AnimationTracks it owns, user parameters), and the three
 * animation classes in full: AnimationController, AnimationTrack and
 * KeyframeSequence (float, 8-bit and 16-bit encodings). Every other object
 * is skipped by its length once its Object3D part is read.
 *
 * The reader checks what the file format specification says a loader must
 * treat as an error: framing, checksums, enumerations, booleans, object
 * references (earlier objects only, of the right class), values the M3G
 * API would refuse (a KeyframeSequence's duration, valid range, key times
 * and component count, a controller's weight and active interval). Two
 * relaxations: a Float32 that is -0 or denormal, which the format forbids
 * but which is a number all the same, is read as what it is (NaN and the
 * infinities are errors); and external references to PNG images, which
 * hold no animation, are kept as names only (kfc_m3g.c decides).
 *
 * Errors say where: the byte offset in the file (for a zlib section, in
 * its inflated bytes, with the section's number) and the object's index,
 * M3G's own numbering (the header is object 1).
 */
#ifndef KFC_M3G_FILE_H
#define KFC_M3G_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_diag.h"

/* ObjectType values (file format section 12). */
enum {
    KFC_M3G_HEADER = 0,
    KFC_M3G_ANIMATION_CONTROLLER = 1,
    KFC_M3G_ANIMATION_TRACK = 2,
    KFC_M3G_APPEARANCE = 3,
    KFC_M3G_BACKGROUND = 4,
    KFC_M3G_CAMERA = 5,
    KFC_M3G_COMPOSITING_MODE = 6,
    KFC_M3G_FOG = 7,
    KFC_M3G_POLYGON_MODE = 8,
    KFC_M3G_GROUP = 9,
    KFC_M3G_IMAGE2D = 10,
    KFC_M3G_TRIANGLE_STRIP_ARRAY = 11,
    KFC_M3G_LIGHT = 12,
    KFC_M3G_MATERIAL = 13,
    KFC_M3G_MESH = 14,
    KFC_M3G_MORPHING_MESH = 15,
    KFC_M3G_SKINNED_MESH = 16,
    KFC_M3G_TEXTURE2D = 17,
    KFC_M3G_SPRITE3D = 18,
    KFC_M3G_KEYFRAME_SEQUENCE = 19,
    KFC_M3G_VERTEX_ARRAY = 20,
    KFC_M3G_VERTEX_BUFFER = 21,
    KFC_M3G_WORLD = 22,
    KFC_M3G_TYPE_COUNT = 23,
    KFC_M3G_EXTERNAL_REFERENCE = 255
};

/* KeyframeSequence and AnimationTrack constants (the M3G API's values). */
enum {
    KFC_M3G_LINEAR = 176,
    KFC_M3G_SLERP = 177,
    KFC_M3G_SPLINE = 178,
    KFC_M3G_SQUAD = 179,
    KFC_M3G_STEP = 180,
    KFC_M3G_CONSTANT = 192,
    KFC_M3G_LOOP = 193,
    KFC_M3G_PROPERTY_FIRST = 256, /* ALPHA; then in kf_property's order */
    KFC_M3G_PROPERTY_LAST = 276   /* VISIBILITY */
};

/* The class name of an ObjectType ("KeyframeSequence"), "ExternalReference"
 * for 255, "Header" for 0, or NULL for a reserved value. */
const char *kfc_m3g_type_name(unsigned type);

/* Where an object starts: its ObjectType byte. */
typedef struct kfc_m3g_place {
    uint64_t offset;  /* in the file, or in the section's inflated bytes */
    uint32_t section; /* 0 is the header's */
    int inflated;     /* the section is zlib-compressed */
} kfc_m3g_place;

typedef struct kfc_m3g_controller {
    float speed, weight;
    int32_t active_start, active_end; /* world milliseconds */
    float ref_sequence;
    int32_t ref_world; /* world milliseconds */
} kfc_m3g_controller;

typedef struct kfc_m3g_track {
    uint32_t sequence;   /* object index of a KeyframeSequence */
    uint32_t controller; /* object index of an AnimationController, or 0 */
    uint32_t property;   /* AnimationTrack's property ID */
} kfc_m3g_track;

typedef struct kfc_m3g_sequence {
    uint8_t interpolation, repeat, encoding;
    uint32_t duration, valid_first, valid_last, components, keys;
    /* The keyframes as the file holds them (checked): encoding 0: per key
     * a UInt32 time and `components` Float32; 1 and 2: `components` Float32
     * biases and scales, then per key a time and `components` Bytes or
     * UInt16s. */
    const unsigned char *data;
} kfc_m3g_sequence;

typedef struct kfc_m3g_object {
    uint8_t type;
    uint32_t user_id;
    uint32_t tracks_first, track_count; /* into kfc_m3g_file.track_refs */
    uint32_t parameters;                /* user parameters */
    uint32_t record;                    /* into the array of its type's records (controllers,
                                           tracks, sequences, uris), else 0 */
    kfc_m3g_place at;
} kfc_m3g_object;

typedef struct kfc_m3g_file {
    int external;           /* the header's hasExternalReferences */
    uint32_t total_size;    /* TotalFileSize: M3G reads that much of the input */
    const char *authoring;  /* AuthoringField, NUL-terminated */
    kfc_m3g_object *object; /* object[i] has index i + 1; object[0] is the header */
    uint32_t object_count;
    uint32_t *track_refs; /* the animationTracks of every object, object by object */
    kfc_m3g_controller *controllers;
    kfc_m3g_track *tracks;
    kfc_m3g_sequence *sequences;
    const char **uris; /* external references */
    uint32_t track_ref_count, controller_count, track_count, sequence_count, uri_count;
    unsigned char **inflated; /* the zlib sections' bytes, which records point into */
    uint32_t inflated_count;
    uint64_t budget; /* bytes kfc may still allocate for this file (kfc_m3g_charge) */
} kfc_m3g_file;

/*
 * Memory in proportion to the file. A zlib section can inflate a
 * thousandfold, and what kfc makes of the inflated bytes (records, decoded
 * keyframes, the builder's tracks) takes more memory still; so the reader
 * and kfc_m3g.c charge what they allocate, estimated from above, against
 * one budget per file: KFC_M3G_BUDGET_BASE and KFC_M3G_BUDGET_PER_BYTE for
 * each byte of it (docs/limits.md). A file that needs more is refused, and
 * no file holds more than KFC_M3G_MAX_INFLATED bytes of objects.
 */
#define KFC_M3G_BUDGET_BASE     ((uint64_t)64 << 20)
#define KFC_M3G_BUDGET_PER_BYTE 64u
#define KFC_M3G_MAX_INFLATED    ((uint64_t)256 << 20)
/* Charges, from above: a keyframe value in the builder (the value, its
 * tangents or squad intermediates, the double it is decoded into), a key
 * (its time), a track or a controller (the record, the target and its
 * name, the indices). */
#define KFC_M3G_COST_VALUE      96u
#define KFC_M3G_COST_KEY        32u
#define KFC_M3G_COST_TRACK      512u
#define KFC_M3G_COST_CONTROLLER 512u

/* Takes `bytes` from the file's budget; 0 (and nothing taken) when they
 * are not left. */
int kfc_m3g_charge(kfc_m3g_file *file, uint64_t bytes);

/* The message of a refusal for want of budget. */
#define KFC_M3G_BUDGET_MESSAGE                                                                     \
    "the file needs more memory than kfc gives a file of its size (64 MiB and 64 bytes per "       \
    "byte)"

/*
 * Reads `size` bytes of M3G. Records point into `data` (and into the
 * inflated sections the file keeps), so `data` must outlive `file`. On
 * failure `diag` holds the message and where, and `file` is left empty
 * (kfc_m3g_file_free is still safe).
 */
kfc_status kfc_m3g_read(const unsigned char *data, size_t size, kfc_m3g_file *file, kfc_diag *diag);

void kfc_m3g_file_free(kfc_m3g_file *file);

/* Sequence `s`'s key times (as the file has them, sequence time units) and
 * values (`components` per key, decoded as the M3G API does:
 * bias + scale * q / 255 or / 65535 in float) into caller arrays of
 * s->keys and s->keys * s->components doubles. */
void kfc_m3g_sequence_keys(const kfc_m3g_sequence *s, double *times, double *values);

/* "byte N, object K" (in a zlib section: "section S, inflated byte N,
 * object K"; without the object when `object` is 0) for the byte at
 * `at`: the location kfc_fail_at prints. */
void kfc_m3g_where(char *out, size_t size, const kfc_m3g_place *at, uint32_t object);

#endif /* KFC_M3G_FILE_H */
