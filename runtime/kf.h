/* SPDX-License-Identifier: MIT */
/*
 * kf.h - libkf, the kfb keyframe animation runtime.
 *
 * A .kfb file (written by kfc, or by kf_build.h) holds animators (M3G
 * KeyframeSequences, X3D interpolators and followers), AnimationControllers,
 * targets and the tracks that bind them. libkf loads it into an immutable kf_anim and plays it:
 *
 *     kf_anim *anim;
 *     if (kf_load_file("walk.kfb", NULL, &anim, &err) != KF_OK) ...
 *     kf_player *player;                       // one per character
 *     kf_player_create(anim, NULL, &player);
 *     each frame:
 *         kf_player_update(player, world_time);
 *         const float *t = kf_player_value(player, hip_translation);
 *
 * Threads: a kf_anim is never written after loading, so any number of threads
 * may sample it and create players from it at once. A kf_player (with its
 * controllers) belongs to one thread at a time.
 *
 * Memory: every allocation goes through a kf_allocator. A NULL allocator
 * pointer means malloc and free; otherwise both of its functions are
 * required, and a function given one without the other (kf_load_* through
 * kf_load_options.allocator, kf_player_create, kf_follower_state_create,
 * kf_builder_create) allocates nothing and returns KF_ERROR_ARGUMENT, with
 * a message naming the missing function where it has a kf_error. Nothing
 * allocates in kf_player_update or in sampling.
 *
 * Errors: functions that can fail return a kf_result; KF_OK is 0. Loaders also
 * fill an optional kf_error with where the problem is and a message.
 *
 * Time: world time is in seconds, a double that the caller advances (the
 * same clock for every player; a game passes its frame time). A controller
 * maps it to sequence time: position = ref_sequence + speed * (world_time -
 * ref_world), so at speed 1 sequence time is seconds too; a controller's
 * active interval and reference world time are world seconds, its speed is
 * sequence time per world second. A sequence's key times and duration are
 * sequence time (its valid range is a pair of key indices). The fields X3D defines in seconds (a
 * track's cycleInterval, a chaser's duration, a damper's tau) are seconds of
 * the track controller's position: world seconds at speed 1. Key times are
 * float32, and a time is placed among the keys at their precision: the
 * segment is chosen by the time rounded to float32, so a time written as a
 * key's own decimal (0.458 for a key stored as 0.458f) plays that key; the
 * fraction inside a segment keeps the double time (docs/math.md §0).
 *
 * Numbers: values are float32 (as stored); times are double so that positions
 * far from zero (+-2e9 units) still sample exactly. Finite keys give finite
 * samples: every interpolation is computed so that it cannot overflow
 * between finite keys (LINEAR as (1-u)a + ub), and a SPLINE or HERMITE
 * curve whose keys and tangents are finite but which itself leaves the
 * float range saturates at +-FLT_MAX. Tangents computed ahead of time stay
 * finite because kfc and the loader refuse what could make them overflow:
 * SPLINE key values (and X3D spline keyValue and keyVelocity entries)
 * beyond +-FLT_MAX / 32 (about 1.06e37), a HERMITE key tangent whose
 * product with the duration leaves the float range, and with X3D's
 * normalizeVelocity a keyValue path longer than FLT_MAX / 2. Blending sums weight * sample
 * in double, so accepted weights (controller weights are finite and >= 0;
 * the loader and kfc refuse weights above KF_MAX_WEIGHT) give finite sums;
 * a blended value beyond the float range saturates at +-FLT_MAX.
 *
 * Arguments: every public function accepts every value of every argument.
 * A NULL handle or output, an index out of range (KF_NO_INDEX included) or,
 * where a function says so, a non-finite number makes the call do nothing
 * and return KF_ERROR_ARGUMENT, NULL, 0 (a position: 0.0; an ease: the
 * fraction) or, for the *_info / *_get_info calls, an empty info (numbers
 * 0, indices KF_NO_INDEX, name ""), unless the function documents another
 * answer. Every setter refuses non-finite values. A controller given finite
 * arguments keeps a finite position (speed 0 pauses; beyond the double
 * range the position saturates at +-DBL_MAX).
 */
#ifndef KF_H
#define KF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one version number of libkf, libkf_offline, kfc and kfplay (the build
 * reads it from here). KF_VERSION_NUM orders releases:
 * #if KF_VERSION_NUM >= 10200 means "1.2.0 or later". */
#define KF_VERSION_MAJOR 0
#define KF_VERSION_MINOR 1
#define KF_VERSION_PATCH 0
#define KF_VERSION_NUM   (KF_VERSION_MAJOR * 10000 + KF_VERSION_MINOR * 100 + KF_VERSION_PATCH)
#define KF_STRINGIFY_(x) #x
#define KF_STRINGIFY(x)  KF_STRINGIFY_(x)
#define KF_VERSION_STRING                                                                          \
    KF_STRINGIFY(KF_VERSION_MAJOR)                                                                 \
    "." KF_STRINGIFY(KF_VERSION_MINOR) "." KF_STRINGIFY(KF_VERSION_PATCH)

/* What the shared libraries export: the functions declared with KF_API in
 * kf.h and kf_build.h, nothing else (the libraries are built with hidden
 * visibility). */
#if defined(_WIN32) && defined(KF_SHARED_BUILD)
#define KF_API __declspec(dllexport)
#elif defined(__GNUC__)
#define KF_API __attribute__((visibility("default")))
#else
#define KF_API
#endif

/* Returns KF_VERSION_STRING as compiled into the library; compare with the
 * header's to catch a header/library mismatch. */
KF_API const char *kf_version(void);

/* The library the loader inflates and checksums files with, as the build
 * chose it, e.g. "ISA-L 2.30.0 (igzip inflate, crc32_gzip_refl)" or
 * "zlib 1.2.13 (inflate, crc32)": either gives the same results. */
KF_API const char *kf_inflate_library(void);

/* ======================================================================== */
/* Results and errors                                                       */
/* ======================================================================== */

typedef enum kf_result {
    KF_OK = 0,
    /* Reading a .kfb: each rejection has its own code. */
    KF_ERROR_NOT_KFB,       /* the identifier bytes are not a .kfb identifier */
    KF_ERROR_VERSION,       /* a format version this reader does not read */
    KF_ERROR_PROBE,         /* byte-order / float-format probe mismatch */
    KF_ERROR_TRUNCATED,     /* the data ends before the file does */
    KF_ERROR_TRAILING_DATA, /* bytes after the end the header declares */
    KF_ERROR_CHECKSUM,      /* a CRC-32 does not match */
    KF_ERROR_SECTION,       /* bad section tag, count, compression or size */
    KF_ERROR_TOO_LARGE,     /* a declared size beyond the loader's limits */
    KF_ERROR_INFLATE,       /* a zlib stream or DATA's pieces corrupt, or of the wrong length */
    KF_ERROR_OBJECT,        /* unknown object type or wrong record size */
    KF_ERROR_STRING,        /* a name is outside the string table or unterminated */
    KF_ERROR_REFERENCE,     /* an index or data offset points outside its table */
    KF_ERROR_VALUE,         /* a field holds a value its object does not allow */
    /* Any call. */
    KF_ERROR_OUT_OF_MEMORY, /* the allocator returned NULL */
    KF_ERROR_IO,            /* reading or writing failed */
    KF_ERROR_ARGUMENT,      /* an argument is out of its documented domain */
    KF_ERROR_NOT_FOUND,     /* no object of that name */
    KF_ERROR_DUPLICATE,     /* a name or binding that must be unique is not */
    KF_ERROR_LIMIT,         /* a player would exceed its memory bound (kf_player_size) */
    KF_RESULT_COUNT
} kf_result;

/* A short static description of `result` ("file is truncated"). Never NULL. */
KF_API const char *kf_result_message(kf_result result);
/* The enumerator's name ("KF_ERROR_TRUNCATED"). Never NULL. */
KF_API const char *kf_result_name(kf_result result);

#define KF_NO_INDEX UINT32_MAX

/* The field of an object a validation error is about. */
typedef enum kf_field {
    KF_FIELD_NONE = 0,
    KF_FIELD_NAME,
    KF_FIELD_INTERPOLATION,
    KF_FIELD_REPEAT,
    KF_FIELD_DURATION,
    KF_FIELD_VALID_RANGE,
    KF_FIELD_COMPONENTS,
    KF_FIELD_KEYS,      /* the key list as a whole */
    KF_FIELD_KEY_TIME,  /* kf_error.item: the key (authored index) */
    KF_FIELD_KEY_VALUE, /* kf_error.item: the key (authored index) */
    KF_FIELD_TANGENTS,
    KF_FIELD_SPEED,
    KF_FIELD_WEIGHT,
    KF_FIELD_ACTIVE_INTERVAL,
    KF_FIELD_REFERENCE,
    KF_FIELD_ANIMATOR,
    KF_FIELD_CONTROLLER,
    KF_FIELD_TARGET,
    KF_FIELD_TCB,        /* kf_error.item: the key (authored index) */
    KF_FIELD_ARC_LENGTH, /* the distance table */
    /* X3D interpolators. Their `key` field is KF_FIELD_KEYS as a whole and
     * KF_FIELD_KEY_TIME for one entry; `keyValue` is KF_FIELD_KEY_VALUE,
     * whose item is the keyValue entry (KF_NO_INDEX: the field as a whole). */
    KF_FIELD_NODE,
    KF_FIELD_KEY_VELOCITY,     /* item: the entry, or KF_NO_INDEX */
    KF_FIELD_EASE_IN_EASE_OUT, /* item: the entry, or KF_NO_INDEX */
    KF_FIELD_CLOSED,
    KF_FIELD_NORMALIZE_VELOCITY,
    /* Interpolator tracks. */
    KF_FIELD_CYCLE_INTERVAL,
    KF_FIELD_LOOP,
    KF_FIELD_EASE,
    /* X3D followers; KF_FIELD_NODE is the node, KF_FIELD_DURATION a
     * chaser's duration. */
    KF_FIELD_INITIAL_VALUE,       /* item: the element (array nodes) */
    KF_FIELD_INITIAL_DESTINATION, /* item: the element (array nodes) */
    KF_FIELD_TAU,
    KF_FIELD_ORDER,
    KF_FIELD_TOLERANCE,
    /* A target's blend (kf_builder_set_target_blend). */
    KF_FIELD_BLEND
} kf_field;

/*
 * Where and why something failed. Every call that takes a kf_error * accepts
 * NULL. On failure the fields that do not apply are KF_NO_INDEX / 0. A name
 * (or a file's name) the message quotes is between single quotes, as kfc
 * and kfplay quote one: its C0 and C1 controls, DEL and bytes that are not
 * UTF-8 as \xNN, a backslash as \\, a quote as \', and a long one cut
 * with "..." (a name past about 48 bytes).
 */
typedef struct kf_error {
    kf_result result;
    uint32_t section;  /* loading: section index (0 strings, 1 objects, 2 data) */
    uint32_t object;   /* loading: object index in file order;
                          building: index of the description within its kind */
    kf_field field;    /* which field of that object */
    uint32_t item;     /* which key / element of the field */
    uint64_t offset;   /* loading: a byte offset. With `object` set, in the
                          uncompressed bytes of `section` (the object's
                          record); otherwise in the file, also when
                          `section` is set (its header, stored bytes or
                          checksum: framing errors) */
    char message[192]; /* one line, no trailing newline */
} kf_error;

/* ======================================================================== */
/* Memory                                                                   */
/* ======================================================================== */

/*
 * Caller-supplied allocation. `alloc` returns memory aligned for any type (as
 * malloc does) or NULL; `free` receives the size that was requested. Both
 * are required: where a function takes a `const kf_allocator *`, NULL means
 * malloc and free, and an allocator with either function NULL is refused
 * with KF_ERROR_ARGUMENT (Memory, above). The allocator must outlive every
 * object allocated through it.
 */
typedef struct kf_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} kf_allocator;

/* ======================================================================== */
/* Loading                                                                  */
/* ======================================================================== */

/* A loaded .kfb: immutable, shareable between threads. */
typedef struct kf_anim kf_anim;

/*
 * Options structs (kf_load_options here, kf_encode_options in kf_build.h)
 * follow one rule. Each begins with `size`, which the caller sets to sizeof
 * the struct as it was compiled. The library reads the fields that lie wholly
 * within `size` and takes the documented default for every other one, so a
 * program compiled against an older, shorter struct keeps working; a `size`
 * smaller than the `size` field itself, or larger than the struct this
 * library knows, is refused with KF_ERROR_ARGUMENT. A NULL options pointer
 * means every default.
 */

/* Default cap on a section's uncompressed size: 256 MiB. */
#define KF_DEFAULT_MAX_SECTION_SIZE ((size_t)256 << 20)

/*
 * Memory bound of loading: kf_load_memory, kf_load_stream and kf_load_file
 * allocate at most
 *     KF_LOAD_BYTES_PER_FILE_BYTE x (the file's bytes) + KF_LOAD_FIXED_BYTES
 * at any one time (their scratch included; the copy of the file a stream
 * or file load reads into besides), and a loaded kf_anim holds at most as
 * much. zlib expands a stream at most about 1032:1 (formats/kfb.md), and
 * what a load keeps or works in, the playback layout's padding included,
 * is counted against this bound before it is allocated: a file that would
 * need more is refused with KF_ERROR_LIMIT, and kfc refuses to write one.
 */
#define KF_LOAD_BYTES_PER_FILE_BYTE 2048u
#define KF_LOAD_FIXED_BYTES         ((size_t)1 << 20)

typedef struct kf_load_options {
    size_t size;                   /* sizeof(kf_load_options): see the rule above */
    const kf_allocator *allocator; /* NULL: malloc/free; else alloc and free both set */
    size_t max_section_size;       /* 0: KF_DEFAULT_MAX_SECTION_SIZE */
} kf_load_options;

/*
 * Loads a .kfb image of `size` bytes. The bytes are only read during the call.
 * Every framing and semantic check of formats/kfb.md is made before *out is
 * given the anim, so whatever loads can be sampled at any time. On failure
 * *out is NULL (a non-NULL `out` gets NULL before any argument is checked),
 * nothing is left allocated, and `error` (if not NULL) says what and where.
 * `options` may be NULL.
 */
KF_API kf_result kf_load_memory(const void *data, size_t size, const kf_load_options *options,
                                kf_anim **out, kf_error *error);

/* Reads up to `size` bytes into `buffer`; returns the count read, 0 at the
 * end, or (size_t)-1 on a read error. A count above `size` fails the load
 * with KF_ERROR_IO. */
typedef size_t (*kf_read_fn)(void *user, void *buffer, size_t size);

/* As kf_load_memory, reading the file through `read` until it ends. */
KF_API kf_result kf_load_stream(kf_read_fn read, void *user, const kf_load_options *options,
                                kf_anim **out, kf_error *error);

/* As kf_load_memory, reading the file at `path`. */
KF_API kf_result kf_load_file(const char *path, const kf_load_options *options, kf_anim **out,
                              kf_error *error);

/* Releases everything the load allocated. NULL is ignored. */
KF_API void kf_anim_free(kf_anim *anim);

/* ======================================================================== */
/* Objects of an animation                                                  */
/* ======================================================================== */

typedef enum kf_kind {
    KF_KIND_SEQUENCE = 0, /* M3G KeyframeSequence (an animator) */
    KF_KIND_CONTROLLER,
    KF_KIND_TARGET,
    KF_KIND_TRACK,
    KF_KIND_INTERPOLATOR, /* X3D interpolator or EaseInEaseOut (an animator) */
    KF_KIND_FOLLOWER,     /* X3D chaser or damper (an animator) */
    KF_KIND_COUNT
} kf_kind;

/* "sequence", "controller", "target", "track", "interpolator", "follower";
 * "unknown" (not NULL) for an unknown code. */
KF_API const char *kf_kind_name(kf_kind kind);

/* Number of objects of `kind`. */
KF_API uint32_t kf_anim_count(const kf_anim *anim, kf_kind kind);

/* Index of the object of `kind` named `name`, or KF_NO_INDEX when there is
 * none (check it: every function given KF_NO_INDEX as an index returns what
 * the Arguments paragraph above says, e.g. kf_player_value returns NULL).
 * Tracks have no names. Linear in the number of objects of that kind. */
KF_API uint32_t kf_anim_find(const kf_anim *anim, kf_kind kind, const char *name);

/* ------------------------------------------------------------------------ */
/* KeyframeSequence                                                         */
/* ------------------------------------------------------------------------ */

typedef enum kf_interpolation {
    KF_INTERPOLATION_STEP = 0,
    KF_INTERPOLATION_LINEAR,
    KF_INTERPOLATION_SPLINE,
    KF_INTERPOLATION_SLERP,
    KF_INTERPOLATION_SQUAD,
    /* Cubic Hermite with explicit in- and out-tangents per key (glTF's
     * CUBICSPLINE; what curve editors edit): between keys i and j,
     * h00 v_i + h01 v_j + h10 d out_i + h11 d in_j, with d the segment's
     * duration and tangents in value units per unit of sequence time. A
     * quaternion so played is not unit between keys (kf_sequence_sample). */
    KF_INTERPOLATION_HERMITE
} kf_interpolation;

typedef enum kf_repeat { KF_REPEAT_CONSTANT = 0, KF_REPEAT_LOOP } kf_repeat;

/* "step", "linear", ...; "constant", "loop". NULL for an unknown code. */
KF_API const char *kf_interpolation_name(kf_interpolation interpolation);
KF_API const char *kf_repeat_name(kf_repeat repeat);

typedef struct kf_sequence kf_sequence;

/* The sequence at `index` (< kf_anim_count(anim, KF_KIND_SEQUENCE)), or NULL. */
KF_API const kf_sequence *kf_anim_sequence(const kf_anim *anim, uint32_t index);

typedef struct kf_sequence_info {
    const char *name; /* owned by the anim */
    kf_interpolation interpolation;
    kf_repeat repeat;
    uint32_t components;
    uint32_t key_count;   /* all keys, valid or not */
    uint32_t valid_first; /* valid range, authored indices; */
    uint32_t valid_last;  /* first > last wraps around */
    double duration;
    int tcb;        /* 1: per-key tension/continuity/bias are stored */
    int arc_length; /* 1: distance tables are stored (fast distance sampling) */
} kf_sequence_info;

KF_API void kf_sequence_get_info(const kf_sequence *sequence, kf_sequence_info *info);

/* Number of components per value. */
KF_API uint32_t kf_sequence_components(const kf_sequence *sequence);

/* Key `index` (authored order, < key_count): its time, and its `components`
 * values into `value` (may be NULL). SLERP/SQUAD keys read back normalized. */
KF_API void kf_sequence_key(const kf_sequence *sequence, uint32_t index, float *time, float *value);

/* Key `index`'s tension, continuity and bias (Kochanek-Bartels, each in
 * [-1, 1]) into tcb[0..2]; all 0 when the sequence stores none. */
KF_API void kf_sequence_key_tcb(const kf_sequence *sequence, uint32_t index, float tcb[3]);

/* Key `index`'s squad intermediates (SQUAD: quaternions x y z w, as played)
 * into `a` (outgoing) and `b` (incoming), either may be NULL; a key
 * outside the valid range shapes nothing and gives its own value for both;
 * 0s for other interpolations and an index out of range; nothing written
 * for a NULL sequence. */
KF_API void kf_sequence_key_intermediates(const kf_sequence *sequence, uint32_t index, float a[4],
                                          float b[4]);

/* Key `index`'s authored tangents (HERMITE; `components` numbers each, value
 * units per unit of sequence time) into `in` and `out` (either may be NULL);
 * 0s for other interpolations and an index out of range; nothing written
 * for a NULL sequence. */
KF_API void kf_sequence_key_tangents(const kf_sequence *sequence, uint32_t index, float *in,
                                     float *out);

/*
 * Playback position hint. Sampling with a cursor starts its search where the
 * previous call ended, so playing forward costs O(1) per sample; any time is
 * still sampled correctly. Initialize with KF_CURSOR_INIT; a cursor is tied
 * to the sequence it was used with.
 */
typedef struct kf_cursor {
    uint32_t key;
} kf_cursor;

#define KF_CURSOR_INIT                                                                             \
    {                                                                                              \
        0                                                                                          \
    }

/*
 * Writes the value at sequence time `time` into out[0 .. components-1],
 * following M3G's rules (formats/kfb.md): LOOP maps the time into one period,
 * CONSTANT holds the first/last valid keys, coincident keys switch at their
 * time. `cursor` may be NULL (binary search). Never allocates, never fails:
 * a NaN time gives the first valid key. A quaternion is the sequence's own
 * value, not normalized: between keys LINEAR, SPLINE and HERMITE (glTF's
 * CUBICSPLINE rotations import as HERMITE) give one that is not unit, and
 * SLERP and SQUAD one unit only as far as its keys are (docs/math.md
 * §2.3). Normalize a rotation you sample, as glTF asks and as
 * kf_player_update does for an orientation target.
 */
KF_API void kf_sequence_sample(const kf_sequence *sequence, double time, kf_cursor *cursor,
                               float *out);

/* ------------------------------------------------------------------------ */
/* Derivatives (LINEAR, SPLINE and HERMITE sequences)                       */
/* ------------------------------------------------------------------------ */

/*
 * The first (velocity) and second (acceleration) derivative of the value
 * with respect to sequence time, at `time`, into out[0 .. components-1],
 * computed exactly from the stored keys and tangents (SPLINE, HERMITE: the Hermite
 * cubic of the segment, differentiated and divided by the segment's duration
 * once or twice; LINEAR: constant slope per segment, zero acceleration).
 *
 * The time is placed as kf_sequence_sample places it, and the derivative is
 * the one of the segment sampling uses there: at a key time, the segment
 * that starts at that key (the right-hand derivative; with continuity != 0,
 * or LINEAR keys, velocity jumps at keys). Where the value is held - CONSTANT
 * before the first or from the last valid key on, a single valid key, a NaN
 * or (LOOP) infinite time - both derivatives are 0. LOOP wraps the time into
 * the period first, so the wrap segment has derivatives like any other
 * (docs/math.md §5.5).
 *
 * Returns KF_ERROR_ARGUMENT (out filled with zeros) for STEP, SLERP and
 * SQUAD sequences. Never allocates. `cursor` as for kf_sequence_sample.
 */
KF_API kf_result kf_sequence_velocity(const kf_sequence *sequence, double time, kf_cursor *cursor,
                                      float *out);
KF_API kf_result kf_sequence_acceleration(const kf_sequence *sequence, double time,
                                          kf_cursor *cursor, float *out);

/* ------------------------------------------------------------------------ */
/* Arc length (LINEAR and SPLINE sequences)                                 */
/* ------------------------------------------------------------------------ */

/*
 * Distance is measured along the curve of the values (Euclidean, over all
 * components) from the first valid key (docs/math.md §5.6, §5.7). A segment
 * is the curve from a valid key to the next; in LOOP the last valid key's
 * segment is the wrap segment back to the first key. A segment of zero
 * duration (coincident keys, a LOOP whose last key sits at the end of the
 * period) is a jump: it is never played, so its length is 0.
 *
 * The length of a segment is integrated numerically: each segment is cut
 * into 8 equal steps of its curve parameter, and each step is integrated by
 * adaptive 5-point Gauss-Legendre quadrature, halving until the halves agree
 * with the whole to 1e-9 of a bound on the segment's speed (so corners of
 * the speed, where the curve turns back, are integrated as accurately as
 * smooth stretches). A sequence compiled with distance tables (`arc_length: true`,
 * kf_sequence_info.arc_length) stores the distance at every step, so these
 * calls cost O(log n) plus one step's integration; without tables they
 * integrate every segment up to the one asked for, O(n). Both give the same
 * distances to float32 precision. Nothing allocates.
 *
 * Distance domain: CONSTANT: [0, total length]; LOOP: one period, [0, P)
 * with P the length of every segment including the wrap segment. Every
 * function returns KF_ERROR_ARGUMENT (outputs zeroed) for STEP, SLERP and
 * SQUAD sequences.
 */

/* The total length (CONSTANT) or the length of one period (LOOP). */
KF_API kf_result kf_sequence_length(const kf_sequence *sequence, double *length);

/* The length of the segment that starts at authored key `key`, which must be
 * in the valid range (KF_ERROR_ARGUMENT otherwise). In CONSTANT the last
 * valid key starts no segment: its length is 0. */
KF_API kf_result kf_sequence_segment_length(const kf_sequence *sequence, uint32_t key,
                                            double *length);

/* The distance travelled from the first valid key to sequence time `time`,
 * with the time placed as kf_sequence_sample places it: CONSTANT gives 0
 * before the first valid key and the total length from the last on; LOOP
 * wraps the time into the period, so the distance is in [0, P). A NaN or
 * (LOOP) infinite time gives 0. */
KF_API kf_result kf_sequence_distance(const kf_sequence *sequence, double time, double *distance);

/*
 * The value at distance `distance` along the curve into out[0..components-1],
 * and (if `time` is not NULL) the sequence time at which the sequence plays
 * it. The inverse of kf_sequence_distance: the curve parameter is found by
 * Newton's method on the integrated length, kept inside a bracket that
 * bisection shrinks whenever a Newton step would leave it, so it always
 * converges (to about 1e-12 of the step's length).
 *
 * CONSTANT: a distance < 0 gives the first valid key (time t_first), one
 * >= the total length the last valid key (time t_last). LOOP: the distance is
 * first wrapped into [0, P) (floored modulo, as times are), so distances
 * beyond one period, or negative ones, go round again; the time returned is
 * in the first period, [t_first, t_first + duration). Where the curve stands
 * still over an interval of time, or jumps (zero-duration segment), the
 * latest time with that distance is returned, as sampling resolves
 * coincident keys to the later one. A zero-length curve (or NaN distance)
 * gives the first valid key.
 */
KF_API kf_result kf_sequence_sample_distance(const kf_sequence *sequence, double distance,
                                             float *out, double *time);

/* ------------------------------------------------------------------------ */
/* X3D interpolators                                                        */
/* ------------------------------------------------------------------------ */

/*
 * The interpolator nodes of X3D clause 19 (docs/math.md §3). Each evaluates
 * a function of a fraction (its set_fraction) given by `key` and `keyValue`:
 * v_0 at or below the first key, the last value at or above the last key,
 * and otherwise the segment [key_i, key_i+1) holding the fraction, so at a
 * key repeated inside the range the last of its values is used.
 */
typedef enum kf_node {
    KF_NODE_SCALAR_INTERPOLATOR = 0,         /* SFFloat */
    KF_NODE_POSITION_INTERPOLATOR,           /* SFVec3f */
    KF_NODE_POSITION_INTERPOLATOR_2D,        /* SFVec2f */
    KF_NODE_COLOR_INTERPOLATOR,              /* SFColor, interpolated in HSV */
    KF_NODE_COORDINATE_INTERPOLATOR,         /* MFVec3f, m per key */
    KF_NODE_COORDINATE_INTERPOLATOR_2D,      /* MFVec2f, m per key */
    KF_NODE_NORMAL_INTERPOLATOR,             /* MFVec3f, m per key, great-arc */
    KF_NODE_ORIENTATION_INTERPOLATOR,        /* SFRotation, shortest-arc slerp */
    KF_NODE_SPLINE_SCALAR_INTERPOLATOR,      /* SFFloat, Hermite */
    KF_NODE_SPLINE_POSITION_INTERPOLATOR,    /* SFVec3f, Hermite */
    KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D, /* SFVec2f, Hermite */
    KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR,  /* SFRotation, squad */
    KF_NODE_EASE_IN_EASE_OUT,                /* SFFloat modifiedFraction */
    KF_NODE_COUNT
} kf_node;

/* The X3D node name ("ScalarInterpolator", ..., "EaseInEaseOut"), or NULL
 * for an unknown code. */
KF_API const char *kf_node_name(kf_node node);

/* Numbers per keyValue (and keyVelocity) entry of `node`: 1 for the scalar
 * nodes, 2 for Vec2f, 3 for Vec3f and Color, 4 for Rotation (axis x y z,
 * angle); for EaseInEaseOut, 2 per easeInEaseOut entry. 0 for an unknown
 * code. */
KF_API uint32_t kf_node_dimension(kf_node node);

typedef struct kf_interpolator kf_interpolator;

/* The interpolator at `index` (< kf_anim_count(anim, KF_KIND_INTERPOLATOR)),
 * or NULL. */
KF_API const kf_interpolator *kf_anim_interpolator(const kf_anim *anim, uint32_t index);

/*
 * An interpolator's fields as authored (float32, owned by the anim).
 * Numbers per keyValue entry (`dimension`): 1 scalar, 2 Vec2f, 3 Vec3f and
 * Color, 4 Rotation (axis x y z, angle in radians).
 */
typedef struct kf_interpolator_info {
    const char *name;
    kf_node node;
    uint32_t key_count;            /* n >= 1 */
    const float *key;              /* n fractions, non-decreasing */
    uint32_t value_count;          /* keyValue entries: n, or n*m for the
                                       Coordinate and Normal nodes; 0 for
                                       EaseInEaseOut */
    uint32_t dimension;            /* numbers per keyValue entry; 0 for EaseInEaseOut */
    const float *key_value;        /* value_count * dimension; NULL if none */
    uint32_t velocity_count;       /* keyVelocity entries: 0, 2 or n */
    const float *key_velocity;     /* velocity_count * dimension; NULL if none */
    const float *ease_in_ease_out; /* EaseInEaseOut: n (easeIn, easeOut) pairs; else NULL */
    int closed;                    /* spline and squad nodes */
    int normalize_velocity;
    uint32_t components; /* floats kf_interpolator_sample writes */
} kf_interpolator_info;

KF_API void kf_interpolator_get_info(const kf_interpolator *interpolator,
                                     kf_interpolator_info *info);

/* The number of floats kf_interpolator_sample writes: the value's numbers
 * times m for the multi-valued nodes, 4 (a quaternion) for rotations, 1 for
 * EaseInEaseOut. */
KF_API uint32_t kf_interpolator_components(const kf_interpolator *interpolator);

/*
 * The node's value_changed at `fraction` into out[0 .. components-1]
 * (docs/math.md §3): rotations as a unit quaternion x y z w (see
 * kf_quat_to_axis_angle), normals normalized, colours as RGB, and for
 * EaseInEaseOut the modified fraction mapped back onto the keys,
 * key_i + u' (key_i+1 - key_i). `cursor` (may be NULL) speeds up fractions
 * that move forward, as for sequences. Never allocates, never fails: a NaN
 * fraction gives the first key's value.
 */
KF_API void kf_interpolator_sample(const kf_interpolator *interpolator, double fraction,
                                   kf_cursor *cursor, float *out);

/* An EaseInEaseOut's modified fraction at `fraction`, in double precision,
 * ready to feed another interpolator; any other node returns `fraction`. */
KF_API double kf_interpolator_ease(const kf_interpolator *ease, double fraction);

/* A unit quaternion x y z w as an X3D SFRotation: a unit axis and an angle
 * in [0, pi] (the identity is 0 0 1 0). */
KF_API void kf_quat_to_axis_angle(const float quat[4], float axis_angle[4]);

/* ------------------------------------------------------------------------ */
/* X3D followers (chasers and dampers)                                      */
/* ------------------------------------------------------------------------ */

/*
 * A follower turns events into a smooth motion: each set_destination starts
 * a transition from where the output is towards the new value (X3D clause
 * 39, docs/math.md §4). Chasers (FIR) reach the destination exactly `duration`
 * after the last event; dampers (IIR) approach it through `order` cascaded
 * first-order filters of time constant `tau` and stop once every filter is
 * within `tolerance`.
 *
 * The kf_follower in an anim is the immutable definition; a running
 * instance is a kf_follower_state (below), which a player holds for each
 * track that plays a follower, or which a caller creates directly.
 *
 * Values: a follower's value is kf_follower_components() floats. Position
 * nodes 3, 2D nodes 2, Scalar 1, Color 3 (RGB in [0,1]), Coordinate n*3,
 * TexCoord n*2, and Orientation 4: a quaternion x y z w (what orientation
 * targets take; kf_axis_angle_to_quat converts X3D's axis-angle).
 */
typedef enum kf_follower_node {
    KF_FOLLOWER_NODE_POSITION_CHASER = 0,
    KF_FOLLOWER_NODE_POSITION_CHASER_2D,
    KF_FOLLOWER_NODE_SCALAR_CHASER,
    KF_FOLLOWER_NODE_ORIENTATION_CHASER,
    KF_FOLLOWER_NODE_COLOR_CHASER,
    KF_FOLLOWER_NODE_COORDINATE_CHASER,
    KF_FOLLOWER_NODE_TEXCOORD_CHASER_2D,
    KF_FOLLOWER_NODE_POSITION_DAMPER,
    KF_FOLLOWER_NODE_POSITION_DAMPER_2D,
    KF_FOLLOWER_NODE_SCALAR_DAMPER,
    KF_FOLLOWER_NODE_ORIENTATION_DAMPER,
    KF_FOLLOWER_NODE_COLOR_DAMPER,
    KF_FOLLOWER_NODE_COORDINATE_DAMPER,
    KF_FOLLOWER_NODE_TEXCOORD_DAMPER_2D,
    KF_FOLLOWER_NODE_COUNT
} kf_follower_node;

/* The X3D node name ("PositionChaser", "TexCoordDamper2D"), NULL for an
 * unknown code. */
KF_API const char *kf_follower_node_name(kf_follower_node node);
/* The node called `name` (exact X3D spelling) into *node; 0 if none is. */
KF_API int kf_follower_node_from_name(const char *name, kf_follower_node *node);
/* Non-zero for the damper nodes (tau, order, tolerance), 0 for chasers
 * (duration). */
KF_API int kf_follower_node_is_damper(kf_follower_node node);
/* Non-zero for Coordinate and TexCoord nodes, whose values are arrays. */
KF_API int kf_follower_node_is_array(kf_follower_node node);
/* Numbers per element as authored: 3, 2, 1, 4 (axis-angle), 3 (RGB);
 * 0 for an unknown code. */
KF_API uint32_t kf_follower_node_field_components(kf_follower_node node);

/* X3D's default initialValue and initialDestination of a single-valued
 * node (kf_follower_node_field_components floats into `value`): 0s, 0 1 0 0
 * for rotations, 0.8 0.8 0.8 for colours. Array nodes have none (no
 * numbers are written). */
KF_API void kf_follower_node_initial(kf_follower_node node, float *value);

typedef struct kf_follower kf_follower;

/* The follower at `index` (< kf_anim_count(anim, KF_KIND_FOLLOWER)), or NULL. */
KF_API const kf_follower *kf_anim_follower(const kf_anim *anim, uint32_t index);

typedef struct kf_follower_info {
    const char *name; /* owned by the anim */
    kf_follower_node node;
    uint32_t element_count; /* array nodes: points per value; others 1 */
    uint32_t components;    /* floats per value (see above) */
    double duration;        /* chasers; 0 for dampers */
    double tau;             /* dampers; 0 for chasers */
    uint32_t order;         /* dampers; 0 for chasers */
    double tolerance;       /* dampers: -1 (0.001) or >= 0; chasers -1 */
} kf_follower_info;

KF_API void kf_follower_get_info(const kf_follower *follower, kf_follower_info *info);

/* Floats per value: element_count * 4 for orientation nodes (quaternions),
 * element_count * kf_follower_node_field_components otherwise. */
KF_API uint32_t kf_follower_components(const kf_follower *follower);

/* The initial fields as authored (axis-angle for rotations): element_count *
 * kf_follower_node_field_components floats into each of `value` and
 * `destination`; either may be NULL. */
KF_API void kf_follower_initial(const kf_follower *follower, float *value, float *destination);

/* An X3D SFRotation [x y z angle] (radians) as a unit quaternion x y z w;
 * a zero axis gives the identity (the inverse of kf_quat_to_axis_angle). */
KF_API void kf_axis_angle_to_quat(const float axis_angle[4], float quat[4]);

/*
 * A running follower: its transitions (chasers) or filter stages (dampers),
 * destination, output and isActive. Times are the follower's own clock,
 * in seconds: initialization is at the time given to kf_follower_reset.
 * Time only moves forward: a damper updated at an earlier time than before
 * sees no time pass; a chaser evaluates its formula at that time with the
 * transitions it still holds.
 *
 * Bound: a chaser keeps one transition per set_destination until it is
 * `duration` old, then folds it into its base value (exact: a transition is
 * constant once complete). `capacity` transitions fit; a set_destination
 * that finds the buffer full completes the oldest transition early: the
 * output jumps by what that transition had left to go (its share
 * (d_k - d_{k-1}) * (1 - R)), and it is the transition closest to its end.
 * Destinations are never lost: the output always ends at the last one.
 * Events at equal times merge exactly (vector, scalar and array chasers).
 * Holding every event of one duration needs capacity >= events per
 * duration. Memory: about capacity * (components + 1) doubles for a chaser,
 * (order + 2) * components for a damper (kf_follower_state_size).
 *
 * Events are expected in time order. One stamped earlier than the one
 * before still starts its transition at its own time: the formula holds as
 * written, though the output may then leave the range of the values given.
 *
 * Not thread-safe: one thread at a time per state. Never allocates after
 * creation; update and events run in O(capacity * components).
 */
typedef struct kf_follower_state kf_follower_state;

#define KF_FOLLOWER_DEFAULT_CAPACITY 64u

/* Bytes a state of `follower` with room for `capacity` chaser transitions
 * needs (dampers ignore capacity; 0 means KF_FOLLOWER_DEFAULT_CAPACITY).
 * 0 if that does not fit in a size_t. */
KF_API size_t kf_follower_state_size(const kf_follower *follower, uint32_t capacity);

/*
 * Builds a state in caller memory: `memory` must be aligned as malloc's and
 * hold kf_follower_state_size(follower, capacity) bytes, and outlive the
 * state (which needs no destroy). The state is reset at time 0. Returns
 * the state (at `memory`), or NULL if an argument is NULL or `size` is too
 * small. `follower` (and its anim) must outlive the state.
 */
KF_API kf_follower_state *kf_follower_state_init(void *memory, size_t size,
                                                 const kf_follower *follower, uint32_t capacity);

/* As kf_follower_state_init, in memory from `allocator` (NULL: malloc;
 * otherwise both functions, as Memory above says). KF_ERROR_ARGUMENT or
 * KF_ERROR_OUT_OF_MEMORY; *out is NULL then. */
KF_API kf_result kf_follower_state_create(const kf_follower *follower, uint32_t capacity,
                                          const kf_allocator *allocator, kf_follower_state **out);
/* Frees a state from kf_follower_state_create. NULL is ignored. */
KF_API void kf_follower_state_destroy(kf_follower_state *state);

/* Back to initialization at `time`: the output is initialValue and, if
 * initialDestination differs, a transition towards it starts at `time`
 * (isActive then 1). A non-finite time is taken as 0. */
KF_API void kf_follower_reset(kf_follower_state *state, double time);

/*
 * Events (X3D set_destination / set_value) at `time`, applied before the
 * next update. `value` holds kf_follower_components floats; quaternions
 * are normalized, colours clamped to [0,1].
 *
 * set_destination: a chaser starts a transition at `time` from the
 * previous destination to `value` (none if they are equal); a damper feeds
 * `value` to its first stage. set_value: the output jumps to `value`, every
 * transition ends, and a new one towards the current destination starts
 * unless `value` is already there (dampers: within tolerance), so isActive
 * stays 1 while there is somewhere to go: a chaser's at `time`; a damper's
 * filters restart from `value` and, as X3D's do a frame at a time, the next
 * update moves them over the whole time since the previous update (a damper
 * keeps no event times: docs/math.md §4.1, §4.4).
 *
 * KF_ERROR_ARGUMENT (and no change) for a NULL state or value, a
 * non-finite number or time.
 */
KF_API kf_result kf_follower_set_destination(kf_follower_state *state, const float *value,
                                             double time);
KF_API kf_result kf_follower_set_value(kf_follower_state *state, const float *value, double time);

/* Advances to `time` and computes the output there (docs/math.md §4). A
 * non-finite time changes nothing. Never allocates, never fails. */
KF_API void kf_follower_update(kf_follower_state *state, double time);

/* The output after the last reset, event or update (components floats). */
KF_API const float *kf_follower_value(const kf_follower_state *state);

/* X3D isActive: 1 while a transition runs, 0 once the output rests at the
 * destination. */
KF_API int kf_follower_is_active(const kf_follower_state *state);

/* The definition the state plays. */
KF_API const kf_follower *kf_follower_state_follower(const kf_follower_state *state);

/* Chasers: transitions held now (<= capacity); dampers: 0. */
KF_API uint32_t kf_follower_pending(const kf_follower_state *state);

/* Chasers: the most transitions the state holds; dampers: 0. */
KF_API uint32_t kf_follower_capacity(const kf_follower_state *state);

/* ------------------------------------------------------------------------ */
/* Controllers, targets, tracks (as stored)                                 */
/* ------------------------------------------------------------------------ */

typedef struct kf_controller_info {
    const char *name;
    double speed;
    double weight;
    double active_start; /* world time; start == end means always active */
    double active_end;
    double ref_world; /* position(w) = ref_sequence + speed * (w - ref_world) */
    double ref_sequence;
} kf_controller_info;

/* The controller as stored in the file (a player's may have changed since). */
KF_API void kf_anim_controller_info(const kf_anim *anim, uint32_t index, kf_controller_info *info);

typedef enum kf_property {
    KF_PROPERTY_CUSTOM = 0,
    KF_PROPERTY_ALPHA,
    KF_PROPERTY_AMBIENT_COLOR,
    KF_PROPERTY_COLOR,
    KF_PROPERTY_CROP,
    KF_PROPERTY_DENSITY,
    KF_PROPERTY_DIFFUSE_COLOR,
    KF_PROPERTY_EMISSIVE_COLOR,
    KF_PROPERTY_FAR_DISTANCE,
    KF_PROPERTY_FIELD_OF_VIEW,
    KF_PROPERTY_INTENSITY,
    KF_PROPERTY_MORPH_WEIGHTS,
    KF_PROPERTY_NEAR_DISTANCE,
    KF_PROPERTY_ORIENTATION,
    KF_PROPERTY_PICKABILITY,
    KF_PROPERTY_SCALE,
    KF_PROPERTY_SHININESS,
    KF_PROPERTY_SPECULAR_COLOR,
    KF_PROPERTY_SPOT_ANGLE,
    KF_PROPERTY_SPOT_EXPONENT,
    KF_PROPERTY_TRANSLATION,
    KF_PROPERTY_VISIBILITY,
    KF_PROPERTY_COUNT
} kf_property;

/* Lower-case name ("translation"), NULL for CUSTOM or an unknown code. */
KF_API const char *kf_property_name(kf_property property);
/* The property called `name`, or KF_PROPERTY_CUSTOM. */
KF_API kf_property kf_property_from_name(const char *name);
/* Whether a target of `property` may have `components` components
 * (translation 3, orientation 4, scale 1 or 3, crop 2 or 4, morph_weights
 * any >= 1, custom any >= 1, ...). */
KF_API int kf_property_accepts(kf_property property, uint32_t components);
/* The property's value before any track has played (translation 0, scale 1,
 * orientation identity, alpha 1, colours white, visibility 1, ...). */
KF_API void kf_property_rest_value(kf_property property, uint32_t components, float *out);

typedef struct kf_target_info {
    const char *name; /* "object.property" */
    kf_property property;
    uint32_t components;
} kf_target_info;

KF_API void kf_anim_target_info(const kf_anim *anim, uint32_t index, kf_target_info *info);

/* How a target's tracks make its value (kf_player_update): KF_BLEND_SUM,
 * the weighted sum (M3G's AnimationTrack blending), or KF_BLEND_LATEST,
 * the value last sent to it by one of its tracks, kept until another
 * sends (X3D's fan-in: a field keeps the last event sent to it). */
typedef enum kf_blend { KF_BLEND_SUM = 0, KF_BLEND_LATEST = 1 } kf_blend;

/* The target's blend; KF_BLEND_SUM for a NULL anim or an index out of
 * range. */
KF_API kf_blend kf_anim_target_blend(const kf_anim *anim, uint32_t index);

typedef struct kf_track_info {
    kf_kind animator_kind; /* KF_KIND_SEQUENCE, KF_KIND_INTERPOLATOR or KF_KIND_FOLLOWER */
    uint32_t animator;     /* index within that kind */
    uint32_t controller;   /* KF_NO_INDEX: no controller, the track contributes nothing */
    uint32_t target;
    /* Interpolator tracks (sequence tracks: 0, 0, KF_NO_INDEX): the
     * controller's position p becomes the fraction p / cycle_interval,
     * wrapped into [0,1) if `loop`, else clamped to [0,1], then passes
     * through the EaseInEaseOut interpolator `ease` if there is one. */
    double cycle_interval;
    int loop;
    uint32_t ease; /* interpolator index, or KF_NO_INDEX */
} kf_track_info;

KF_API void kf_anim_track_info(const kf_anim *anim, uint32_t index, kf_track_info *info);

/* ======================================================================== */
/* Playing: controllers and the player                                      */
/* ======================================================================== */

/*
 * A player is one instance of an animation: its own copy of every controller,
 * a cursor per track and the current value of every target. Create one per
 * character; it reads the kf_anim, which must outlive it.
 */
typedef struct kf_player kf_player;

/* An AnimationController inside a player. */
typedef struct kf_controller kf_controller;

/*
 * Memory bound: a player of `anim` takes at most
 *     KF_PLAYER_BYTES_PER_FILE_BYTE x (the bytes of the file it was loaded
 *     from) + KF_PLAYER_FIXED_BYTES,
 * follower states included, and never more than 2^31 floats (8 GiB):
 * whatever a file holds, its players cost a fixed multiple of the file. The loader refuses (KF_ERROR_LIMIT) a file
 * whose player would not fit even with one chaser transition per follower
 * track, so every loaded anim can be played; kfc refuses to write one.
 * Chaser capacity follows from the bound (see kf_player_follower).
 *
 * Work: an update evaluates each played track's animator once (a sequence
 * of up to 16 components is played in a block of four sequences, the rest
 * on their own), blends and writes its target's components once, and
 * finds the segment of each group of tracks sharing key times once: its
 * work is bounded per track by the components the track plays, and so by
 * the player's size.
 */
#define KF_PLAYER_BYTES_PER_FILE_BYTE 64u
#define KF_PLAYER_FIXED_BYTES         ((size_t)1 << 20)

/* The bytes a player of `anim` holds (what kf_player_create keeps), in *bytes (0 on
 * failure). KF_ERROR_ARGUMENT for NULL arguments, KF_ERROR_LIMIT if the
 * player would exceed the bound. Never allocates. */
KF_API kf_result kf_player_size(const kf_anim *anim, size_t *bytes);

/* `allocator` NULL: malloc/free (otherwise both functions: KF_ERROR_ARGUMENT
 * for half an allocator, as Memory above says). Allocates the
 * kf_player_size bytes the player keeps, and for the time of the call the
 * scratch its plan is sorted in (some 40 bytes per sequence track; the
 * memory bound above covers both); later calls allocate nothing.
 * KF_ERROR_LIMIT as kf_player_size. */
KF_API kf_result kf_player_create(const kf_anim *anim, const kf_allocator *allocator,
                                  kf_player **out);
KF_API void kf_player_destroy(kf_player *player);

/* Controllers back to the file's state, targets to their rest values,
 * cursors to the start. */
KF_API void kf_player_reset(kf_player *player);

/*
 * Plays every track at `world_time`: a sequence is sampled at its
 * controller's position, an interpolator at the fraction its track makes of
 * it, a follower advanced to it (its output is the sample). For each
 * target, the tracks whose controller is active contribute weight * sample;
 * if their total weight is positive the target takes the weighted sum (not
 * divided by the total) or, for a KF_BLEND_LATEST target, the value last
 * sent to it, which it keeps from update to update as an X3D field does:
 * an interpolator track sends while its fraction runs (and, past the end of
 * a cycle that does not loop, its value at the end, as sent then), not
 * paused (speed 0) nor before its start; a follower track while it moves,
 * and its first value once, at its start; at the same instant a sensor's
 * wins over a follower's, then the one started later, then the later
 * track; an update at an earlier world time than the last forgets what
 * was sent (docs/math.md §2.3). An orientation is then normalized, and built-in
 * properties are clamped as M3G does (alpha and colours to [0,1], spot angle
 * to [0,90], spot exponent and shininess to [0,128], density to >= 0,
 * visibility and pickability to 0/1). A target no track plays (no weight,
 * or nothing sent) keeps its value (docs/math.md §2). Never allocates.
 */
KF_API void kf_player_update(kf_player *player, double world_time);

/* The target's current value (kf_anim_target_info().components floats),
 * or NULL for a NULL player or a target index out of range (KF_NO_INDEX,
 * what kf_anim_find gives for an unknown name, included). */
KF_API const float *kf_player_value(const kf_player *player, uint32_t target);

/* Overwrites a target's value (e.g. a rest pose); `value` has the target's
 * component count. KF_ERROR_ARGUMENT (and no change) for a bad index or a
 * non-finite value. */
KF_API kf_result kf_player_set_value(kf_player *player, uint32_t target, const float *value);

/*
 * Followers in a player. A track that plays a follower has its own
 * kf_follower_state whose clock is the track controller's position:
 * controller speed scales it, speed 0 pauses it, setPosition jumps it. A
 * chaser's state holds KF_FOLLOWER_DEFAULT_CAPACITY transitions, fewer when
 * the player's memory bound (kf_player_size) or 1 MiB per state would be
 * exceeded (at least one; every chaser track of a player gets the same
 * capacity; kf_follower_capacity tells); run your own kf_follower_state
 * for more. The state starts at position 0
 * (kf_player_create and kf_player_reset reset it there) and is updated by
 * kf_player_update while the controller is active; an inactive track's
 * follower waits, and catches up when it plays again.
 */

/* The follower state of track `track`, or NULL if that track does not play
 * a follower. Its times are controller positions. */
KF_API kf_follower_state *kf_player_follower(kf_player *player, uint32_t track);

/* Sends set_destination / set_value to track `track`'s follower at
 * `world_time` (converted to the track controller's position).
 * KF_ERROR_ARGUMENT if the track does not play a follower or has no
 * controller, or for what kf_follower_set_destination refuses. */
KF_API kf_result kf_player_follower_set_destination(kf_player *player, uint32_t track,
                                                    const float *value, double world_time);
KF_API kf_result kf_player_follower_set_value(kf_player *player, uint32_t track, const float *value,
                                              double world_time);

/*
 * Controllers a host starts. An imported X3D TimeSensor that the scene
 * starts by an event (a ROUTE into its startTime or enabled, from a
 * TouchSensor or a Script: kfc -v names it) is a controller of weight 0,
 * with reference (startTime, 0): it plays nothing until the host, at the
 * event's world time E (X3D time, seconds), starts it as X3D would:
 *     set_startTime E:     kf_controller_set_position(c, 0, E);
 *                          kf_controller_set_active_interval(c, E, DBL_MAX);
 *                          kf_controller_set_weight(c, 1);
 *     set_enabled TRUE:    kf_controller_set_weight(c, 1);   (a looping
 *                          sensor keeps its phase from startTime)
 *     set_stopTime S:      kf_controller_set_weight(c, 0) at S, or, known
 *                          ahead, kf_controller_set_active_interval(c, E, S)
 *                          with E the sensor's start (E above, else its
 *                          startTime): the call replaces the interval
 * A sensor that does not loop then stops at fraction 1 and holds its last
 * value, as X3D's does. A looping sensor whose startTime is after 0 has
 * the active interval [startTime, DBL_MAX), so that a scene loaded before
 * that time plays nothing of it until then. docs/import-x3d.md has the
 * rules.
 */

/* The player's controller `index`, or NULL. */
KF_API kf_controller *kf_player_controller(kf_player *player, uint32_t index);
KF_API const kf_controller *kf_player_controller_const(const kf_player *player, uint32_t index);

/* Current settings (name points into the anim). */
KF_API void kf_controller_get_info(const kf_controller *controller, kf_controller_info *info);

/* Sequence time at `world_time`: ref_sequence + speed * (world_time - ref_world). */
KF_API double kf_controller_position(const kf_controller *controller, double world_time);

/* Whether `world_time` is inside the active interval [start, end)
 * (always, when start == end). */
KF_API int kf_controller_is_active(const kf_controller *controller, double world_time);

/* Makes the position at `world_time` equal `sequence_time` (M3G setPosition).
 * KF_ERROR_ARGUMENT for a non-finite argument. */
KF_API kf_result kf_controller_set_position(kf_controller *controller, double sequence_time,
                                            double world_time);

/* Changes the speed from `world_time` on, keeping the position continuous
 * there (M3G setSpeed). KF_ERROR_ARGUMENT for a non-finite argument. */
KF_API kf_result kf_controller_set_speed(kf_controller *controller, double speed,
                                         double world_time);

/* The largest controller weight: weight x any float sample, summed over
 * any number of tracks, stays inside the double range the player blends
 * in. The loader and kfc refuse larger weights. */
#define KF_MAX_WEIGHT 1e30

/* KF_ERROR_ARGUMENT (and no change) for a negative or non-finite weight, or
 * one above KF_MAX_WEIGHT. */
KF_API kf_result kf_controller_set_weight(kf_controller *controller, double weight);

/* KF_ERROR_ARGUMENT (and no change) if start > end or either is not finite. */
KF_API kf_result kf_controller_set_active_interval(kf_controller *controller, double start,
                                                   double end);

#ifdef __cplusplus
}
#endif

#endif /* KF_H */
