/* SPDX-License-Identifier: MIT */
/*
 * kf_build.h - building .kfb files from C.
 *
 * A kf_builder collects descriptions of animators (sequences, followers),
 * controllers and tracks, checks each as it is added (the same checks the
 * loader makes), does every precomputation sampling needs (spline tangents,
 * squad intermediates, slerp arcs, follower quaternions) and encodes the
 * result. kfc is a YAML front end to this API.
 *
 *     kf_builder *b;
 *     kf_builder_create(NULL, &b);
 *     kf_builder_add_sequence(b, &seq, &err);
 *     kf_builder_add_controller(b, &ctl, &err);
 *     kf_builder_add_track(b, &track, &err);
 *     kf_builder_encode(b, NULL, write, file, &err);
 *     kf_builder_destroy(b);
 *
 * Numbers are given as double and stored as float32, rounded to nearest; a
 * number outside float32's range is an error. A controller's fields and a
 * time sensor's cycle_interval are stored as the doubles they are. Precomputation works on the
 * stored (rounded) values, so decoding a file and building it again yields
 * the same bytes.
 *
 * Times are in seconds, as kf.h's "Time" section defines them: a sequence's
 * duration and key times are sequence time (seconds at a controller's speed
 * 1); a controller's active_start, active_end and ref_world are world
 * seconds, ref_sequence is sequence time and speed is sequence time per
 * world second; a chaser's duration, a damper's tau and a time sensor's
 * cycle_interval are seconds of the track controller's position.
 */
#ifndef KF_BUILD_H
#define KF_BUILD_H

#include "kf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kf_builder kf_builder;

/* `allocator` NULL: malloc/free; otherwise both of its functions, or
 * KF_ERROR_ARGUMENT (kf.h, Memory). */
KF_API kf_result kf_builder_create(const kf_allocator *allocator, kf_builder **out);
KF_API void kf_builder_destroy(kf_builder *builder);

/*
 * An M3G KeyframeSequence. All arrays are read during the call only.
 * Errors (M3G's IllegalArgument/IllegalState conditions) come back with
 * kf_error.field and .item naming the offending field and key:
 *   no keys; components < 1; SLERP/SQUAD with components != 4; unknown
 *   interpolation or repeat; duration <= 0; a valid-range index out of
 *   bounds; decreasing times inside the valid range; last valid time >
 *   duration; a negative key time; a non-finite or out-of-range number;
 *   `tcb` on a sequence that is not SPLINE or SQUAD, or a tension,
 *   continuity or bias outside [-1, 1] (KF_FIELD_TCB, item = key);
 *   `arc_length` on a sequence that is not LINEAR or SPLINE; `tangents` missing
 *   on HERMITE or given on anything else, or not finite (KF_FIELD_TANGENTS).
 *
 * HERMITE tangents are given as derivatives, not pre-multiplied by segment
 * durations: a key's tangent then means the same whatever its neighbours,
 * valid range or repeat mode, and is what a source states and decompile
 * gives back. The builder stores them so, and also the copies sampling uses,
 * each multiplied by the duration of the segment it shapes, so that the
 * runtime only evaluates the Hermite basis.
 * SLERP/SQUAD keys are normalized (a near-zero quaternion becomes identity).
 *
 * Kochanek-Bartels keys (docs/math.md §5): with `tcb`, SPLINE tangents and
 * SQUAD intermediates weight the neighbouring differences by each key's
 * tension, continuity and bias (Eberly's equations 2-5, with the time-scale
 * factors of docs/math.md §1.4). Only valid keys' values matter, but every
 * key's are stored so that the source can be reproduced. A `tcb` array of
 * zeros stores nothing and builds exactly what NULL builds.
 */
typedef struct kf_sequence_desc {
    const char *name; /* unique among animators, non-empty */
    kf_interpolation interpolation;
    kf_repeat repeat;
    double duration; /* sequence time (seconds at speed 1) */
    uint32_t components;
    uint32_t key_count;
    const double *times;  /* key_count times (sequence time, as duration) */
    const double *values; /* key_count * components values */
    uint32_t valid_first; /* valid range [first, last], key indices; first > last wraps */
    uint32_t valid_last;  /* KF_LAST_KEY: the last key, whatever key_count is */
    const double *tcb;    /* NULL (all 0), or key_count * 3: tension, continuity,
                                       bias of each key, each in [-1, 1] */
    int arc_length;       /* non-zero: store distance tables (see kf.h, Arc length) */
    /* HERMITE, required: key_count * 2 * components, each key's incoming then outgoing
     * tangent (glTF's a_k, b_k), in value units per unit of sequence time. SQUAD, optional:
     * key_count * 2 * 4, each key's intermediate quaternions b (incoming) then a (outgoing),
     * x y z w, stored normalized in place of those the keys (and tcb) derive (docs/math.md
     * §1.4; keys outside the valid range: not read); NULL: derived. kf_builder_reduce gives
     * a reduced squad such ones, which a source reproduces with these
     * (kf_sequence_intermediates_given). Other interpolations: NULL. */
    const double *tangents;
} kf_sequence_desc;

/* valid_last = KF_LAST_KEY: the range ends at the last key, however many
 * keys the description has when it is added. */
#define KF_LAST_KEY UINT32_MAX

/* Fills every field with its default, whatever the struct held (it is not
 * read): LINEAR, CONSTANT, no keys, valid range [0, KF_LAST_KEY] (every key,
 * in whichever order the other fields are filled afterwards), no tcb, no
 * tangents. Start every description from it: a struct zeroed some other way
 * has the valid range [0, 0], the first key alone. */
KF_API void kf_sequence_desc_init(kf_sequence_desc *desc);

KF_API kf_result kf_builder_add_sequence(kf_builder *builder, const kf_sequence_desc *desc,
                                         kf_error *error);

/* Whether loaded SQUAD sequence `sequence`'s intermediates are other than
 * those its keys, times and tension, continuity and bias derive (as a
 * reduced file's are): a source that reproduces it gives them
 * (kf_sequence_desc.tangents, kf_sequence_key_intermediates). 0 for
 * other interpolations; -1 when out of memory. */
KF_API int kf_sequence_intermediates_given(const kf_sequence *sequence);

/*
 * An X3D follower (chaser or damper). Arrays are read during the call only.
 * Values are authored X3D fields: axis-angle rotations [x y z angle] (a zero
 * axis is the identity), RGB colours in [0,1]. The builder also stores
 * orientation fields as quaternions, for playback.
 *
 * Counts are numbers, not elements. Single-valued nodes take exactly the
 * node's field components (kf_follower_node_field_components), or 0 for the
 * X3D default (0s; Orientation 0 1 0 0, Color 0.8 0.8 0.8). Coordinate and
 * TexCoord nodes take a whole number (>= 1) of points; initialValue and
 * initialDestination must have the same length, and a field given as 0
 * numbers takes the other's value (one of them is needed).
 *
 * Errors come back with kf_error.field (and .item: the element) naming the
 * field: unknown node; duration or tau negative or not finite; order
 * outside 0..5; tolerance neither -1 nor >= 0; a count that does not fit the
 * node; arrays of different lengths; a non-finite number or one outside the
 * float32 range; a colour component outside [0,1]; a duplicate name.
 */
typedef struct kf_follower_desc {
    const char *name; /* unique among animators, non-empty */
    kf_follower_node node;
    const double *initial_value; /* initial_value_count numbers */
    uint32_t initial_value_count;
    const double *initial_destination; /* initial_destination_count numbers */
    uint32_t initial_destination_count;
    double duration;  /* chasers, seconds: default 1 */
    double tau;       /* dampers, seconds: default 0.3 */
    int32_t order;    /* dampers: default 3 */
    double tolerance; /* dampers: default -1 (0.001) */
} kf_follower_desc;

/* Zeroes the description and fills X3D's defaults for `node`: duration 1;
 * tau 0.3, order 3, tolerance -1; initial fields 0 numbers (the node's
 * defaults). Chasers ignore tau, order and tolerance; dampers ignore
 * duration. */
KF_API void kf_follower_desc_init(kf_follower_desc *desc, kf_follower_node node);

KF_API kf_result kf_builder_add_follower(kf_builder *builder, const kf_follower_desc *desc,
                                         kf_error *error);

/* An AnimationController's initial state. Errors: weight < 0, active start >
 * end, a non-finite number, a duplicate name. */
typedef struct kf_controller_desc {
    const char *name;    /* unique among controllers, non-empty */
    double speed;        /* sequence time per world second; default 1 */
    double weight;       /* default 1 */
    double active_start; /* world seconds; default 0 */
    double active_end;   /* world seconds; default 0 (start == end: always active) */
    double ref_world;    /* world seconds; default 0 */
    double ref_sequence; /* sequence time; default 0 */
} kf_controller_desc;

KF_API void kf_controller_desc_init(kf_controller_desc *desc);

KF_API kf_result kf_builder_add_controller(kf_builder *builder, const kf_controller_desc *desc,
                                           kf_error *error);

/*
 * An X3D interpolator node or EaseInEaseOut (docs/math.md §3), with X3D's
 * field names. Arrays are read during the call only. A number per value:
 * dimension 1 (scalar), 2 (Vec2f), 3 (Vec3f, Color), 4 (Rotation: axis
 * x y z, angle in radians; a zero axis is the identity).
 *
 * Errors come back with kf_error.field and .item naming the field and entry:
 *   an unknown node; no keys; a key less than the one before; keyValue
 *   not exactly one entry per key (Coordinate and Normal nodes: not a
 *   positive multiple of the key count); keyVelocity on a node other than
 *   the three spline nodes, or with a count other than 0, 2 or n (X3D
 *   ignores other counts; kfc reports them); easeInEaseOut on a node other
 *   than EaseInEaseOut, or not one pair per key; closed or
 *   normalizeVelocity on a node without those fields; a colour component
 *   outside [0,1]; a non-finite or out-of-range number; a precomputed
 *   tangent that is not finite (values too large).
 * An interpolator's name is an animator name: unique among sequences and
 * interpolators together.
 */
typedef struct kf_interpolator_desc {
    const char *name;
    kf_node node;
    uint32_t key_count;             /* n */
    const double *key;              /* n fractions */
    uint32_t value_count;           /* keyValue entries */
    const double *key_value;        /* value_count * dimension numbers */
    uint32_t velocity_count;        /* keyVelocity entries (spline nodes) */
    const double *key_velocity;     /* velocity_count * dimension numbers */
    uint32_t ease_count;            /* easeInEaseOut entries (EaseInEaseOut) */
    const double *ease_in_ease_out; /* ease_count (easeIn, easeOut) pairs */
    int closed;                     /* spline and squad nodes */
    int normalize_velocity;         /* spline and squad nodes */
} kf_interpolator_desc;

/* Zeroes the description: a ScalarInterpolator without keys. */
KF_API void kf_interpolator_desc_init(kf_interpolator_desc *desc);

KF_API kf_result kf_builder_add_interpolator(kf_builder *builder, const kf_interpolator_desc *desc,
                                             kf_error *error);

/*
 * An AnimationTrack. `target` is "object.property": a built-in property
 * ("hip.translation") takes its component count from the animator, which the
 * property must accept; any other property is custom and needs `components`
 * equal to the animator's (for an interpolator, kf_interpolator_components:
 * rotations are quaternions, 4). All tracks of one target must agree on the
 * count. The animator and controller must have been added before. An
 * interpolator animator is driven by the default TimeSensor (see
 * kf_builder_add_interpolator_track). A track that plays the animator into
 * the target through the controller as an earlier track does is
 * KF_ERROR_DUPLICATE (KF_FIELD_TARGET), with kf_error.item the index of
 * that earlier track.
 */
typedef struct kf_track_desc {
    const char *animator;   /* animator name: a sequence or a follower */
    const char *controller; /* controller name; NULL: none (plays nothing) */
    const char *target;     /* "object.property" */
    uint32_t components;    /* custom properties: required; built-in: 0 or the count */
} kf_track_desc;

KF_API kf_result kf_builder_add_track(kf_builder *builder, const kf_track_desc *desc,
                                      kf_error *error);

/*
 * How the tracks of `target` (which a track added before plays) make its
 * value: KF_BLEND_SUM, the weighted sum (the default), or KF_BLEND_LATEST,
 * X3D's fan-in, the value last sent to it by a track, kept until another
 * sends (kf_player_update). Only interpolator and follower tracks may play a
 * KF_BLEND_LATEST target: a sequence track playing it is KF_ERROR_VALUE
 * (KF_FIELD_BLEND, kf_error.object that track), and so is one added later
 * (kf_builder_add_track: KF_FIELD_TARGET). No track playing `target` is
 * KF_ERROR_NOT_FOUND.
 */
KF_API kf_result kf_builder_set_target_blend(kf_builder *builder, const char *target,
                                             kf_blend blend, kf_error *error);

/*
 * The TimeSensor of an interpolator track: it turns the controller's
 * position p into the fraction p / cycle_interval, wrapped into [0,1) when
 * looping and clamped to [0,1] otherwise, and optionally passes it through
 * an EaseInEaseOut before the interpolator samples it (kf_track_info).
 */
typedef struct kf_time_sensor_desc {
    double cycle_interval; /* seconds, > 0 (a TimeSensor's default is 1) */
    int loop;              /* non-zero: wrap */
    const char *ease;      /* name of an EaseInEaseOut interpolator, or NULL */
} kf_time_sensor_desc;

/*
 * As kf_builder_add_track, for an interpolator animator driven by `sensor`
 * (NULL: cycle 1, no loop, no ease). Errors, besides kf_builder_add_track's:
 * a sensor on a sequence track (KF_FIELD_CYCLE_INTERVAL); a cycle interval
 * that is not positive, not finite or outside float32
 * (KF_FIELD_CYCLE_INTERVAL); an ease that names no interpolator
 * (KF_ERROR_NOT_FOUND) or one that is not an EaseInEaseOut (KF_FIELD_EASE).
 * Two tracks differing only in their sensors are different tracks.
 */
KF_API kf_result kf_builder_add_interpolator_track(kf_builder *builder, const kf_track_desc *desc,
                                                   const kf_time_sensor_desc *sensor,
                                                   kf_error *error);

/*
 * Error-bounded compile. The kind of a sequence's values, from the
 * properties of the targets its tracks drive: translation, orientation,
 * scale, or anything else. Each kind has its own measure of error between
 * the sampled original p and the sampled reduced p':
 *   KF_BOUND_TRANSLATION  |p' - p| (Euclidean), in source units
 *   KF_BOUND_ORIENTATION  2 acos |<q, q'>| of the normalized quaternions, in degrees
 *   KF_BOUND_SCALE        max over components of |p'_k - p_k| / |p_k|
 *   KF_BOUND_OTHER        max over components of |p'_k - p_k|
 */
typedef enum kf_bound_kind {
    KF_BOUND_TRANSLATION = 0,
    KF_BOUND_ORIENTATION,
    KF_BOUND_SCALE,
    KF_BOUND_OTHER,
    KF_BOUND_COUNT
} kf_bound_kind;

/*
 * Replaces the keys of the sequences added so far by keys that play within
 * `max_error[kind]` of them at every time (not only at keys): values (and
 * HERMITE key tangents) are snapped to the coarsest power-of-two grid that
 * keeps the bound, so their floats end in zero bits that compress away, and
 * quaternions keep unit length (the component that stays largest over the
 * keys absorbs the rounding, or where that misses the bound, each key's
 * largest). Derived data (tangents, squad intermediates, arcs, distance
 * tables) is recomputed from the snapped keys. A SPLINE sequence without a
 * distance table becomes the HERMITE sequence that plays its curve, whose
 * key tangents take a grid of their own (the tangents M3G's rule derives
 * from snapped keys keep their low bits); its name and tracks stay. Key
 * times are untouched, so sequences that share key times still share them.
 *
 * A bound <= 0 or not finite leaves its kind lossless. A sequence driving
 * targets of several kinds keeps every one of their bounds; a sequence that
 * drives nothing, or one driving a kind without a bound, is left as it is.
 * Every reduced sequence is verified by sampling both curves with the
 * runtime's own sampler at every key time and 64 times inside every
 * segment against 99 % of its bounds (the rest covers the error between
 * samples and the player's single-precision kernels); one that fails is
 * retried on finer grids and finally left lossless.
 *
 * `worst` (may be NULL) receives the largest error reached per kind: 0 for
 * kinds left lossless, and -1 for a kind with a bound that no sequence was
 * reduced to (none drives the kind alone, or each failed every grid). Call after the last add and before
 * kf_builder_encode; it stops kf_builder_compress_ahead's worker (the
 * encoding then compresses as usual). Errors: KF_ERROR_ARGUMENT,
 * KF_ERROR_OUT_OF_MEMORY.
 */
KF_API kf_result kf_builder_reduce(kf_builder *builder, const double max_error[KF_BOUND_COUNT],
                                   double worst[KF_BOUND_COUNT], kf_error *error);

/* Number of objects of `kind` added so far (0 for a NULL builder or an
 * unknown kind), as kf_anim_count counts a loaded file's. */
KF_API uint32_t kf_builder_count(const kf_builder *builder, kf_kind kind);

/* Receives the encoded bytes in order; returns 0 on success, non-zero to
 * abort the encoding with KF_ERROR_IO. */
typedef int (*kf_write_fn)(void *user, const void *data, size_t size);

/* kf_encode_options.compression: nothing deflated, but the zero runs of the
 * arrays' section left out (format 2.4's runs, formats/kfb.md "Zero runs"):
 * a file loads without inflating, at a fraction of a stored file's size
 * where the arrays are quantized (kfc -e) or constant. */
#define KF_COMPRESSION_RUNS (-1)

typedef struct kf_encode_options {
    size_t size;            /* sizeof(kf_encode_options): kf.h's options rule */
    int compression;        /* 0: store every section; 1-9: zlib level for sections that
                               shrink (default 9); KF_COMPRESSION_RUNS */
    uint32_t version_major; /* 0 or 2: the current format (arrays encoded); 1: format
                               1.1, every array plain, for readers of version 1 */
} kf_encode_options;

/*
 * Encodes everything added so far as one .kfb. `options` may be NULL. The
 * output is a pure function of the descriptions added and their order.
 */
KF_API kf_result kf_builder_encode(const kf_builder *builder, const kf_encode_options *options,
                                   kf_write_fn write, void *user, kf_error *error);

/*
 * Starts compressing the data section now, on a second thread, at zlib
 * `level` (1-9), while descriptions are still being added: a compiler then
 * pays for deflate while it parses rather than after. Sequences already
 * added are queued too. A later kf_builder_encode at the same level only
 * finishes the stream; its bytes are identical to those without this call
 * (at another level, or once the stream was used, encoding compresses as
 * usual). Adding a sequence may wait for the worker to catch up.
 * Requirements: the builder's allocator must be callable from another
 * thread. Returns KF_ERROR_ARGUMENT for a bad level and
 * KF_ERROR_OUT_OF_MEMORY; where no thread can be started it returns KF_OK
 * and nothing runs ahead.
 */
KF_API kf_result kf_builder_compress_ahead(kf_builder *builder, int level);

#ifdef __cplusplus
}
#endif

#endif /* KF_BUILD_H */
