/* SPDX-License-Identifier: MIT */
/*
 * kf_build.c - kf_builder: descriptions in, stored form out.
 *
 * Each add_* call converts its description to exactly what will be stored
 * (float32 numbers, rotated keys, precomputed tangents), validates that with
 * the loader's own rules, and keeps it. Encoding is then a plain walk.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kf_compress_ahead.h"
#include "kf_math.h"
#include "kf_offline.h"
#include "kf_precompute.h"
#include "kf_write.h"
#include "kfb_codes.h"

/* ---- small helpers ----------------------------------------------------- */

/* Fails naming the object (its index within its kind), the field and the
 * element of the field. */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static kf_result
fail(kf_error *error, kf_result result, uint32_t object, kf_field field, uint32_t item,
     const char *format, ...)
{
    kf_error_clear(error);
    if (error)
        error->object = object;
    va_list ap;
    va_start(ap, format);
    kf_failv(error, result, format, ap);
    va_end(ap);
    if (error) {
        error->field = field;
        error->item = item;
    }
    return result;
}

static char *copy_string(const kf_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = kf_alloc(a, n);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

static void free_string(const kf_allocator *a, const char *s)
{
    if (s)
        kf_free(a, (void *)s, strlen(s) + 1);
}

/* Makes room for one more element in the array of `kind`. */
static int reserve(kf_builder *b, kf_kind kind, void **array, size_t element)
{
    uint32_t count = b->objects.count[kind], cap = b->capacity[kind];
    if (count < cap)
        return 1;
    if (cap > UINT32_MAX / 2 - 1)
        return 0;
    uint32_t grown = cap ? cap * 2 : 8;
    size_t bytes;
    if (!kf_mul_size(grown, element, &bytes))
        return 0;
    void *p = kf_alloc(&b->allocator, bytes);
    if (!p)
        return 0;
    if (count)
        memcpy(p, *array, (size_t)count * element);
    kf_free(&b->allocator, *array, (size_t)cap * element);
    *array = p;
    b->capacity[kind] = grown;
    return 1;
}

/* A double as it will be stored; 0 if it is not a finite float32. */
static int to_float(double x, float *out)
{
    *out = (float)x;
    return isfinite(*out);
}

/* The floats of a sequence's one block: times, values, tangents, then the
 * optional TCB array and distance table. kf_builder_add_sequence checks
 * that the count and its bytes fit before it allocates the block. */
static size_t sequence_floats_as(const struct kf_sequence *s, int tcb, int arc_length)
{
    return (size_t)s->key_count * (1 + (size_t)s->components) +
           (size_t)kf_sequence_derived_count(s->interpolation, s->valid_count, s->components) +
           (tcb ? 3 * (size_t)s->key_count : 0) +
           (s->interpolation == KFB_INTERP_HERMITE ? 2 * (size_t)s->key_count * s->components : 0) +
           (arc_length ? (size_t)kfb_arc_length_floats(s->repeat, s->valid_count) : 0);
}

static size_t sequence_floats(const struct kf_sequence *s)
{
    return sequence_floats_as(s, s->tcb != NULL, s->arc_length != NULL);
}

size_t kf_sequence_block_floats(const struct kf_sequence *s)
{
    return sequence_floats(s);
}

static void free_sequence(const kf_allocator *a, struct kf_sequence *s)
{
    free_string(a, s->name);
    kf_free(a, (void *)s->times, sequence_floats(s) * sizeof(float));
}

static size_t interpolator_floats(const struct kf_interpolator *p)
{
    const size_t d = kf_node_dimension((kf_node)p->node);
    return p->key_count + ((size_t)p->value_count + p->velocity_count) * d +
           (size_t)kf_interpolator_derived_count(p);
}

static void free_interpolator(const kf_allocator *a, struct kf_interpolator *p)
{
    free_string(a, p->name);
    kf_free(a, (void *)p->keys, interpolator_floats(p) * sizeof(float));
}

/* Index of the object `name` names in `x`, or KF_NO_INDEX. */
static uint32_t find(const kf_name_index *x, const char *name)
{
    const kf_name_slot *slot = kf_name_find(x, name);
    return slot ? slot->index : KF_NO_INDEX;
}

static size_t follower_floats(const struct kf_follower *f)
{
    return 2 * (size_t)kf_follower_field_floats(f) + kf_follower_rotation_floats(f->node);
}

static void free_follower(const kf_allocator *a, struct kf_follower *f)
{
    free_string(a, f->name);
    kf_free(a, (void *)f->initial_value, follower_floats(f) * sizeof(float));
}

/* Everything adding an animator can fail at, done before it commits: a
 * copy of its name, room in its array and in the animator index. Returns
 * the copy, or NULL when memory ran out (nothing has changed then). */
static char *reserve_animator(kf_builder *b, kf_kind kind, void **array, size_t element,
                              const char *name)
{
    char *copy = copy_string(&b->allocator, name);
    if (!copy || !reserve(b, kind, array, element) ||
        !kf_name_reserve(&b->animators, &b->allocator)) {
        free_string(&b->allocator, copy);
        return NULL;
    }
    return copy;
}

/* ---- builder ----------------------------------------------------------- */

kf_result kf_builder_create(const kf_allocator *allocator, kf_builder **out)
{
    if (!out)
        return KF_ERROR_ARGUMENT;
    *out = NULL;
    kf_allocator a;
    if (kf_allocator_take(allocator, &a, NULL) != KF_OK)
        return KF_ERROR_ARGUMENT;
    kf_builder *b = kf_calloc(&a, 1, sizeof *b);
    if (!b)
        return KF_ERROR_OUT_OF_MEMORY;
    b->allocator = a;
    *out = b;
    return KF_OK;
}

void kf_builder_destroy(kf_builder *b)
{
    if (!b)
        return;
    kf_ahead_destroy(b->ahead); /* first: its worker reads the sequences */
    kf_allocator a = b->allocator;
    kf_objects *o = &b->objects;
    for (uint32_t i = 0; i < o->count[KF_KIND_SEQUENCE]; i++)
        free_sequence(&a, &o->sequences[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_FOLLOWER]; i++)
        free_follower(&a, &o->followers[i]);
    for (uint32_t i = 0; i < o->count[KF_KIND_CONTROLLER]; i++)
        free_string(&a, o->controllers[i].name);
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++)
        free_string(&a, o->targets[i].name);
    for (uint32_t i = 0; i < o->count[KF_KIND_INTERPOLATOR]; i++)
        free_interpolator(&a, &o->interpolators[i]);
    kf_free(&a, o->sequences, b->capacity[KF_KIND_SEQUENCE] * sizeof *o->sequences);
    kf_free(&a, o->interpolators, b->capacity[KF_KIND_INTERPOLATOR] * sizeof *o->interpolators);
    kf_free(&a, o->controllers, b->capacity[KF_KIND_CONTROLLER] * sizeof *o->controllers);
    kf_free(&a, o->targets, b->capacity[KF_KIND_TARGET] * sizeof *o->targets);
    kf_free(&a, o->tracks, b->capacity[KF_KIND_TRACK] * sizeof *o->tracks);
    kf_free(&a, o->followers, b->capacity[KF_KIND_FOLLOWER] * sizeof *o->followers);
    kf_name_index_free(&b->animators, &a);
    kf_name_index_free(&b->controllers, &a);
    kf_name_index_free(&b->targets, &a);
    kf_key_index_free(&b->bindings, &a);
    kf_free(&a, b, sizeof *b);
}

/* ---- sequences --------------------------------------------------------- */

void kf_sequence_desc_init(kf_sequence_desc *d)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->interpolation = KF_INTERPOLATION_LINEAR;
    d->repeat = KF_REPEAT_CONSTANT;
    d->valid_last = KF_LAST_KEY;
}

/*
 * Stores a quaternion key normalized. A key that is already unit length to
 * float precision is kept as written, so that normalizing what was stored
 * changes nothing: a decompiled file then compiles to the same bytes.
 */
static void store_quaternion(const double *in, float *out)
{
    float f[4];
    double n2 = 0.0;
    for (int i = 0; i < 4; i++) {
        f[i] = (float)in[i];
        n2 += (double)f[i] * f[i];
    }
    if (fabs(n2 - 1.0) <= KF_UNIT_QUAT_TOLERANCE) {
        memcpy(out, f, sizeof f);
        return;
    }
    double q[4];
    kf_qnormalize(in, q);
    for (int i = 0; i < 4; i++)
        out[i] = (float)q[i];
}

void kf_sequence_precompute(const struct kf_sequence *s, float *out, float *in, float *arcs)
{
    const float *times = s->times, *values = s->values;
    const uint32_t v = s->valid_count, c = s->components;
    switch (s->interpolation) {
    case KFB_INTERP_HERMITE:
        kf_hermite_tangents(times, s->key_tangents, v, c, s->duration, s->repeat, out, in);
        break;
    case KFB_INTERP_SPLINE:
        kf_precompute_spline(times, values, s->tcb, v, c, s->duration, s->repeat, out, in);
        break;
    case KFB_INTERP_SLERP:
        kf_quat_arcs(values, values, v, arcs);
        break;
    case KFB_INTERP_SQUAD:
        kf_precompute_squad(times, values, s->tcb, v, s->duration, s->repeat, out, in);
        kf_quat_arcs(values, values, v, arcs);
        kf_quat_arcs(out, in, v, arcs + (size_t)v * KFB_ARC_FLOATS);
        break;
    default:
        break;
    }
}

/* SQUAD sequence s's intermediates as description d gives them (tangents), in place of
 * the derived ones at `out` (a) and `in` (b), each stored as a key is
 * (store_quaternion); the control arcs (version 1 files) from them. */
static kf_result given_intermediates(const struct kf_sequence *s, const kf_sequence_desc *d,
                                     uint32_t index, float *out, float *in, float *arcs,
                                     kf_error *error)
{
    const uint32_t v = s->valid_count;
    for (uint32_t j = 0; j < v; j++) {
        const uint32_t key = kf_authored_key(s, j);
        for (int side = 0; side < 2; side++) {
            /* (b, the incoming one, first: a hermite key's tangents' order) */
            const double *q = d->tangents + 8 * (size_t)key + 4 * (size_t)!side;
            double n2 = 0.0;
            for (int k = 0; k < 4; k++)
                n2 += q[k] * q[k];
            if (!(n2 > 1e-12 && n2 <= 1e12))
                return fail(error, KF_ERROR_VALUE, index, KF_FIELD_TANGENTS, key,
                            "the intermediate %s of key %u is %s", side ? "b" : "a", (unsigned)key,
                            isfinite(n2) ? "no rotation (its length is far from 1)"
                                         : "not a finite quaternion");
            store_quaternion(q, (side ? in : out) + 4 * (size_t)j);
        }
    }
    kf_quat_arcs(out, in, v, arcs + (size_t)v * KFB_ARC_FLOATS);
    return KF_OK;
}

int kf_sequence_intermediates_given(const kf_sequence *s)
{
    if (!s || s->interpolation != KFB_INTERP_SQUAD || s->valid_count == 0)
        return 0;
    const uint32_t v = s->valid_count;
    const kf_allocator a = kf_allocator_or_default(NULL);
    const size_t floats = (size_t)v * (1 + 4 + 3 + 8);
    float *times = kf_alloc(&a, floats * sizeof *times);
    if (!times)
        return -1;
    float *keys = times + v, *tcb = keys + 4 * (size_t)v, *derived = tcb + 3 * (size_t)v,
          buf[KF_BLOCK_COMPONENTS];
    for (uint32_t j = 0; j < v; j++) {
        times[j] = s->times[j];
        memcpy(keys + 4 * (size_t)j, kf_key_floats(s, s->values, j, buf), 4 * sizeof *keys);
        for (int k = 0; k < 3; k++)
            tcb[3 * (size_t)j + k] = s->tcb ? s->tcb[3 * (size_t)j + k] : 0.0f;
    }
    kf_precompute_squad(times, keys, s->tcb ? tcb : NULL, v, s->duration, s->repeat, derived,
                        derived + 4 * (size_t)v);
    int given = 0;
    for (uint32_t j = 0; j < v && !given; j++)
        given = memcmp(derived + 4 * (size_t)j, kf_key_floats(s, s->tangent_out, j, buf),
                       4 * sizeof *buf) != 0 ||
                memcmp(derived + 4 * ((size_t)v + j), kf_key_floats(s, s->tangent_in, j, buf),
                       4 * sizeof *buf) != 0;
    kf_free(&a, times, floats * sizeof *times);
    return given;
}

kf_result kf_builder_add_sequence(kf_builder *b, const kf_sequence_desc *d, kf_error *error)
{
    kf_error_clear(error);
    if (!b || !d)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or description");
    const uint32_t index = b->objects.count[KF_KIND_SEQUENCE];
    const uint32_t n = d->key_count, c = d->components;

    if (!d->name || !d->name[0])
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator needs a non-empty name");
    if (!kf_name_valid(d->name))
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator's name must be UTF-8 text of Unicode scalar values");
    if (kf_name_find(&b->animators, d->name))
        return fail(error, KF_ERROR_DUPLICATE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator of this name exists already");
    const uint32_t last = d->valid_last == KF_LAST_KEY && n > 0 ? n - 1 : d->valid_last;
    if (n > 0 && (d->valid_first >= n || last >= n)) {
        uint32_t which = d->valid_first >= n ? 0 : 1;
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_VALID_RANGE, which,
                    "valid range index %u is out of bounds (%u keys)",
                    (unsigned)(which ? last : d->valid_first), (unsigned)n);
    }
    if (n > 0 && c > 0 && (!d->times || !d->values))
        return fail(error, KF_ERROR_ARGUMENT, index, KF_FIELD_KEYS, KF_NO_INDEX,
                    "key arrays are missing");

    struct kf_sequence s = {0};
    s.interpolation = (uint32_t)d->interpolation;
    s.repeat = (uint32_t)d->repeat;
    s.components = c;
    s.key_count = n;
    s.valid_first = n ? d->valid_first : 0;
    s.valid_count = n ? (uint32_t)(((uint64_t)last + n - d->valid_first) % n + 1) : 0;
    if (!to_float(d->duration, &s.duration) && isfinite(d->duration))
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_DURATION, KF_NO_INDEX,
                    "duration is outside the float32 range");

    /* Enumerations, counts and the valid range first: they size the arrays. */
    kf_result r = kf_validate_sequence_header(&s, error);
    if (r != KF_OK) {
        if (error)
            error->object = index;
        return r;
    }

    /* TCB belongs to the curves that have tangents; arc length to the ones
     * whose values are points (not rotations, not steps). */
    if (d->tcb && s.interpolation != KFB_INTERP_SPLINE && s.interpolation != KFB_INTERP_SQUAD)
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_TCB, KF_NO_INDEX,
                    "tension, continuity and bias apply to spline and squad sequences only");
    if (d->arc_length && s.interpolation != KFB_INTERP_LINEAR &&
        s.interpolation != KFB_INTERP_SPLINE)
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_ARC_LENGTH, KF_NO_INDEX,
                    "arc_length applies to linear and spline sequences only");
    if (d->tangents && s.interpolation == KFB_INTERP_SQUAD) {
        /* the squad's intermediates (given_intermediates) */
    } else if ((d->tangents != NULL) != (s.interpolation == KFB_INTERP_HERMITE))
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_TANGENTS, KF_NO_INDEX,
                    d->tangents ? "key tangents apply to hermite sequences (and intermediates to "
                                  "squad ones) only"
                                : "a hermite sequence needs the tangents of its keys");
    int store_tcb = 0;
    if (d->tcb)
        for (size_t i = 0; i < 3 * (size_t)n && !store_tcb; i++)
            store_tcb = d->tcb[i] != 0.0;
    const int store_arc = d->arc_length != 0;

    size_t bytes;
    /* A file's data section holds under 2^30 floats, so larger arrays could
     * not be written; below that, every count here fits in 32 bits. */
    if ((uint64_t)n * (c + (uint64_t)1) > UINT32_MAX / 16 ||
        !kf_mul_size(sequence_floats_as(&s, store_tcb, store_arc), sizeof(float), &bytes))
        return fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_KEYS, KF_NO_INDEX,
                    "the sequence is too large");
    float *block = kf_alloc(&b->allocator, bytes);
    if (!block)
        return fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX,
                    "out of memory");
    float *times = block, *values = block + n;
    const int quaternion =
        s.interpolation == KFB_INTERP_SLERP || s.interpolation == KFB_INTERP_SQUAD;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t key = kf_authored_key(&s, j);
        if (!to_float(d->times[key], &times[j]) && isfinite(d->times[key])) {
            r = fail(error, KF_ERROR_VALUE, index, KF_FIELD_KEY_TIME, key,
                     "key time is outside the float32 range");
            goto fail;
        }
        const double *v = d->values + (size_t)key * c;
        float *dst = values + (size_t)j * c;
        for (uint32_t k = 0; k < c; k++) {
            if (!to_float(v[k], &dst[k]) && isfinite(v[k])) {
                r = fail(error, KF_ERROR_VALUE, index, KF_FIELD_KEY_VALUE, key,
                         "key value is outside the float32 range");
                goto fail;
            }
        }
        int finite = 1;
        for (uint32_t k = 0; k < c; k++)
            finite &= isfinite(v[k]) != 0;
        if (quaternion && finite)
            store_quaternion(v, dst);
    }
    s.times = times;
    s.values = values;
    r = kf_validate_sequence(&s, error);
    if (r != KF_OK)
        goto fail;

    uint32_t tc = kf_sequence_tangent_count(s.interpolation, s.valid_count, c);
    const uint32_t v = s.valid_count;
    float *out = values + (size_t)n * c, *in = out + tc, *arcs = in + tc;
    float *tail = values + (size_t)n * c + kf_sequence_derived_count(s.interpolation, v, c);
    if (store_tcb) {
        float *tcb = tail;
        tail += 3 * (size_t)n;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t key = kf_authored_key(&s, j);
            for (int k = 0; k < 3; k++)
                tcb[3 * (size_t)j + k] = (float)d->tcb[3 * (size_t)key + k];
        }
        s.tcb = tcb;
        r = kf_validate_tcb(&s, error);
        if (r != KF_OK)
            goto fail;
    }
    if (s.interpolation == KFB_INTERP_HERMITE) {
        float *kt = tail;
        tail += 2 * (size_t)n * c;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t key = kf_authored_key(&s, j);
            for (uint32_t k = 0; k < 2 * c; k++) {
                double x = d->tangents[2 * (size_t)c * key + k];
                if (!to_float(x, &kt[2 * (size_t)c * j + k])) {
                    r = fail(error, KF_ERROR_VALUE, index, KF_FIELD_TANGENTS, key,
                             "the %s tangent of key %u is %s", k < c ? "incoming" : "outgoing",
                             (unsigned)key,
                             isfinite(x) ? "outside the float32 range" : "not a finite number");
                    goto fail;
                }
            }
        }
        s.key_tangents = kt;
    }
    r = kf_validate_tangent_range(&s, 0, -1.0, error);
    if (r != KF_OK)
        goto fail;
    kf_sequence_precompute(&s, out, in, arcs);
    if (s.interpolation == KFB_INTERP_SQUAD && d->tangents &&
        (r = given_intermediates(&s, d, index, out, in, arcs, error)) != KF_OK)
        goto fail;
    if (kf_sequence_derived_count(s.interpolation, v, c)) {
        s.tangent_out = tc ? out : NULL;
        s.tangent_in = tc ? in : NULL;
        s.arcs = kf_sequence_arc_count(s.interpolation, v) ? arcs : NULL;
        r = kf_validate_tangents(&s, error);
        if (r != KF_OK)
            goto fail;
    }
    if (store_arc) {
        kf_arc_length_fill(&s, tail);
        s.arc_length = tail;
        r = kf_validate_arc_length(&s, error);
        if (r != KF_OK)
            goto fail;
    }

    s.name = reserve_animator(b, KF_KIND_SEQUENCE, (void **)&b->objects.sequences,
                              sizeof *b->objects.sequences, d->name);
    if (!s.name) {
        r = fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX, "out of memory");
        goto fail;
    }
    kf_name_add(&b->animators, s.name, KF_KIND_SEQUENCE, index);
    b->objects.sequences[b->objects.count[KF_KIND_SEQUENCE]++] = s;
    kf_ahead_push(b->ahead, &s);
    return KF_OK;

fail:
    if (error)
        error->object = index;
    kf_free(&b->allocator, block, bytes);
    return r;
}

/* ---- followers --------------------------------------------------------- */

void kf_follower_desc_init(kf_follower_desc *d, kf_follower_node node)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->node = node;
    d->duration = 1.0;
    d->tau = 0.3;
    d->order = 3;
    d->tolerance = -1.0;
}

/* The number of elements of a follower's initial fields, from the two
 * counts given; 0 with `error` filled if they do not fit the node. */
static uint32_t follower_elements(const kf_follower_desc *d, uint32_t index, kf_error *error)
{
    const uint32_t c = kf_follower_node_field_components(d->node);
    const char *node = kf_follower_node_name(d->node);
    const uint32_t counts[2] = {d->initial_value_count, d->initial_destination_count};
    static const kf_field fields[2] = {KF_FIELD_INITIAL_VALUE, KF_FIELD_INITIAL_DESTINATION};
    static const char *const names[2] = {"initialValue", "initialDestination"};
    const double *arrays[2] = {d->initial_value, d->initial_destination};
    for (int i = 0; i < 2; i++) {
        if (counts[i] && !arrays[i]) {
            fail(error, KF_ERROR_ARGUMENT, index, fields[i], KF_NO_INDEX, "%s is missing",
                 names[i]);
            return 0;
        }
    }
    if (!kf_follower_node_is_array(d->node)) {
        for (int i = 0; i < 2; i++) {
            if (counts[i] != 0 && counts[i] != c) {
                fail(error, KF_ERROR_VALUE, index, fields[i], KF_NO_INDEX,
                     "%s %s's %s takes %u numbers, not %u", strchr("AEIOU", node[0]) ? "an" : "a",
                     node, names[i], (unsigned)c, (unsigned)counts[i]);
                return 0;
            }
        }
        return 1;
    }
    for (int i = 0; i < 2; i++) {
        if (counts[i] % c != 0) {
            fail(error, KF_ERROR_VALUE, index, fields[i], KF_NO_INDEX,
                 "a %s's %s holds points of %u numbers: %u numbers is not a whole number "
                 "of points",
                 node, names[i], (unsigned)c, (unsigned)counts[i]);
            return 0;
        }
    }
    if (counts[0] == 0 && counts[1] == 0) {
        fail(error, KF_ERROR_VALUE, index, KF_FIELD_INITIAL_VALUE, KF_NO_INDEX,
             "a %s needs initialValue or initialDestination: their length is the number "
             "of points",
             node);
        return 0;
    }
    if (counts[0] && counts[1] && counts[0] != counts[1]) {
        fail(error, KF_ERROR_VALUE, index, KF_FIELD_INITIAL_DESTINATION, KF_NO_INDEX,
             "a %s's initialValue has %u points and its initialDestination %u: the "
             "lengths must be equal",
             node, (unsigned)(counts[0] / c), (unsigned)(counts[1] / c));
        return 0;
    }
    return (counts[0] ? counts[0] : counts[1]) / c;
}

kf_result kf_builder_add_follower(kf_builder *b, const kf_follower_desc *d, kf_error *error)
{
    kf_error_clear(error);
    if (!b || !d)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or description");
    const uint32_t index = b->objects.count[KF_KIND_FOLLOWER];
    if (!d->name || !d->name[0])
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator needs a non-empty name");
    if (!kf_name_valid(d->name))
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator's name must be UTF-8 text of Unicode scalar values");
    if (kf_name_find(&b->animators, d->name))
        return fail(error, KF_ERROR_DUPLICATE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator of this name exists already");

    struct kf_follower f = {0};
    f.node = (uint32_t)d->node;
    f.element_count = 1;
    kf_result r = KF_OK;
    if (f.node < KFB_FOLLOWER_NODE_COUNT) {
        f.element_count = follower_elements(d, index, error);
        if (!f.element_count)
            return error ? error->result : KF_ERROR_VALUE;
    }
    const int damper = kf_follower_node_is_damper(d->node);
    double duration = damper ? d->tau : d->duration;
    f.order = 0;
    f.tolerance = -1.0f;
    if (damper) {
        if (d->order < 0 || d->order > 5)
            return fail(error, KF_ERROR_VALUE, index, KF_FIELD_ORDER, KF_NO_INDEX,
                        "order must be 0 to 5, not %ld", (long)d->order);
        f.order = (uint32_t)d->order;
        if (!to_float(d->tolerance, &f.tolerance) && isfinite(d->tolerance))
            return fail(error, KF_ERROR_VALUE, index, KF_FIELD_TOLERANCE, KF_NO_INDEX,
                        "tolerance is outside the float32 range");
    }
    if (!to_float(duration, &f.duration) && isfinite(duration))
        return fail(
            error, KF_ERROR_VALUE, index, damper ? KF_FIELD_TAU : KF_FIELD_DURATION, KF_NO_INDEX,
            damper ? "tau is outside the float32 range" : "duration is outside the float32 range");
    r = kf_validate_follower_header(&f, error);
    if (r != KF_OK) {
        if (error)
            error->object = index;
        return r;
    }

    /* The header check bounds element_count, so these sizes fit. */
    const uint32_t c = kf_follower_node_field_components(d->node);
    const size_t field = kf_follower_field_floats(&f);
    const size_t bytes = follower_floats(&f) * sizeof(float);
    float *block = kf_alloc(&b->allocator, bytes);
    if (!block)
        return fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX,
                    "out of memory");
    /* A field left out: an array node's takes the other field (the length
     * is the other's), a single-valued node's takes X3D's default. */
    const int array = kf_follower_node_is_array(d->node);
    const double *given[2] = {d->initial_value_count ? d->initial_value
                              : array                ? d->initial_destination
                                                     : NULL,
                              d->initial_destination_count ? d->initial_destination
                              : array                      ? d->initial_value
                                                           : NULL};
    static const kf_field fields[2] = {KF_FIELD_INITIAL_VALUE, KF_FIELD_INITIAL_DESTINATION};
    /* An error names the field the numbers were given for. */
    const kf_field source[2] = {
        d->initial_value_count ? KF_FIELD_INITIAL_VALUE : KF_FIELD_INITIAL_DESTINATION,
        d->initial_destination_count ? KF_FIELD_INITIAL_DESTINATION : KF_FIELD_INITIAL_VALUE};
    for (int i = 0; i < 2; i++) {
        float *dst = block + i * field;
        if (!given[i]) {
            kf_follower_node_initial(d->node, dst);
            continue;
        }
        for (size_t k = 0; k < field; k++) {
            if (!to_float(given[i][k], &dst[k]) && isfinite(given[i][k])) {
                r = fail(error, KF_ERROR_VALUE, index, source[i], (uint32_t)(k / c),
                         "a number is outside the float32 range");
                goto fail;
            }
        }
    }
    f.initial_value = block;
    f.initial_destination = block + field;
    /* The fields given first, so that an error names the field written. */
    for (int i = 0; i < 2; i++) {
        if (given[i] && source[i] == fields[i]) {
            r = kf_validate_follower_field(&f, block + i * field, fields[i], error);
            if (r != KF_OK)
                goto fail;
        }
    }
    if (kf_follower_rotation_floats(f.node)) {
        float *q = block + 2 * field;
        for (int i = 0; i < 2; i++) {
            double qd[4];
            kf_rotation_to_quat(block + i * field, qd);
            kf_narrow(qd, 4, q + 4 * i);
        }
        f.rotations = q;
    }
    r = kf_validate_follower(&f, error);
    if (r != KF_OK)
        goto fail;

    f.name = reserve_animator(b, KF_KIND_FOLLOWER, (void **)&b->objects.followers,
                              sizeof *b->objects.followers, d->name);
    if (!f.name) {
        r = fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX, "out of memory");
        goto fail;
    }
    kf_name_add(&b->animators, f.name, KF_KIND_FOLLOWER, index);
    b->objects.followers[b->objects.count[KF_KIND_FOLLOWER]++] = f;
    return KF_OK;

fail:
    if (error)
        error->object = index;
    kf_free(&b->allocator, block, bytes);
    return r;
}

/* ---- controllers ------------------------------------------------------- */

void kf_controller_desc_init(kf_controller_desc *d)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->speed = 1.0;
    d->weight = 1.0;
}

kf_result kf_builder_add_controller(kf_builder *b, const kf_controller_desc *d, kf_error *error)
{
    kf_error_clear(error);
    if (!b || !d)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or description");
    const uint32_t index = b->objects.count[KF_KIND_CONTROLLER];
    if (!d->name || !d->name[0])
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "a controller needs a non-empty name");
    if (!kf_name_valid(d->name))
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "a controller's name must be UTF-8 text of Unicode scalar values");
    if (kf_name_find(&b->controllers, d->name))
        return fail(error, KF_ERROR_DUPLICATE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "a controller of this name exists already");
    struct kf_controller c = {NULL,          d->speed,     d->weight,      d->active_start,
                              d->active_end, d->ref_world, d->ref_sequence};
    kf_result r = kf_validate_controller(&c, error);
    if (r != KF_OK) {
        if (error)
            error->object = index;
        return r;
    }
    c.name = copy_string(&b->allocator, d->name);
    if (!c.name ||
        !reserve(b, KF_KIND_CONTROLLER, (void **)&b->objects.controllers,
                 sizeof *b->objects.controllers) ||
        !kf_name_reserve(&b->controllers, &b->allocator)) {
        free_string(&b->allocator, c.name);
        return fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX,
                    "out of memory");
    }
    kf_name_add(&b->controllers, c.name, KF_KIND_CONTROLLER, index);
    b->objects.controllers[b->objects.count[KF_KIND_CONTROLLER]++] = c;
    return KF_OK;
}

/* ---- X3D interpolators ------------------------------------------------- */

void kf_interpolator_desc_init(kf_interpolator_desc *d)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->node = KF_NODE_SCALAR_INTERPOLATOR;
}

/* Converts `count` entries of `dim` numbers to float32; an entry with a
 * finite number outside float32's range fails naming `field` and the entry.
 * Non-finite numbers are stored as they are, for validation to report. */
static kf_result store_floats(const double *in, uint32_t count, uint32_t dim, float *out,
                              uint32_t index, kf_field field, const char *what, kf_error *error)
{
    for (uint32_t i = 0; i < count; i++) {
        for (uint32_t k = 0; k < dim; k++) {
            double x = in[(size_t)i * dim + k];
            if (!to_float(x, &out[(size_t)i * dim + k]) && isfinite(x))
                return fail(error, KF_ERROR_VALUE, index, field, i,
                            "%s entry %u is outside the float32 range", what, (unsigned)i);
        }
    }
    return KF_OK;
}

kf_result kf_builder_add_interpolator(kf_builder *b, const kf_interpolator_desc *d, kf_error *error)
{
    kf_error_clear(error);
    if (!b || !d)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or description");
    const uint32_t index = b->objects.count[KF_KIND_INTERPOLATOR];
    const int ease = d->node == KF_NODE_EASE_IN_EASE_OUT;

    if (!d->name || !d->name[0])
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator needs a non-empty name");
    if (!kf_name_valid(d->name))
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator's name must be UTF-8 text of Unicode scalar values");
    if (kf_name_find(&b->animators, d->name))
        return fail(error, KF_ERROR_DUPLICATE, index, KF_FIELD_NAME, KF_NO_INDEX,
                    "an animator of this name exists already");
    /* EaseInEaseOut's pairs are stored where the other nodes keep keyValue. */
    if (ease && d->value_count)
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_KEY_VALUE, KF_NO_INDEX,
                    "EaseInEaseOut has no keyValue field");
    if (!ease && d->ease_count)
        return fail(error, KF_ERROR_VALUE, index, KF_FIELD_EASE_IN_EASE_OUT, KF_NO_INDEX,
                    "%s has no easeInEaseOut field",
                    kf_node_name(d->node) ? kf_node_name(d->node) : "this node");

    struct kf_interpolator p = {0};
    p.node = (uint32_t)d->node;
    p.key_count = d->key_count;
    p.value_count = ease ? d->ease_count : d->value_count;
    p.velocity_count = d->velocity_count;
    p.flags = (d->closed ? KFB_INTERPOLATOR_CLOSED : 0u) |
              (d->normalize_velocity ? KFB_INTERPOLATOR_NORMALIZE_VELOCITY : 0u);
    kf_result r = kf_validate_interpolator_header(&p, error);
    if (r != KF_OK) {
        if (error)
            error->object = index;
        return r;
    }
    const uint32_t dim = kf_node_dimension((kf_node)p.node);
    const double *values = ease ? d->ease_in_ease_out : d->key_value;
    if (!d->key || !values || (p.velocity_count && !d->key_velocity))
        return fail(error, KF_ERROR_ARGUMENT, index, KF_FIELD_KEYS, KF_NO_INDEX,
                    "field arrays are missing");

    /* One block: keys, values, velocities, derived; the header check bounds
     * each count, so the sum fits. */
    const size_t count = interpolator_floats(&p);
    size_t bytes;
    if (!kf_mul_size(count, sizeof(float), &bytes))
        return fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_KEYS, KF_NO_INDEX,
                    "the interpolator is too large");
    float *block = kf_alloc(&b->allocator, bytes);
    if (!block)
        return fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX,
                    "out of memory");
    float *keys = block, *vals = keys + p.key_count;
    float *vels = vals + (size_t)p.value_count * dim;
    float *derived = vels + (size_t)p.velocity_count * dim;
    p.keys = keys;
    p.values = vals;
    p.velocities = p.velocity_count ? vels : NULL;
    p.derived = kf_interpolator_derived_count(&p) ? derived : NULL;

    if ((r = store_floats(d->key, p.key_count, 1, keys, index, KF_FIELD_KEY_TIME, "key", error)) !=
            KF_OK ||
        (r = store_floats(values, p.value_count, dim, vals, index,
                          ease ? KF_FIELD_EASE_IN_EASE_OUT : KF_FIELD_KEY_VALUE,
                          ease ? "easeInEaseOut" : "keyValue", error)) != KF_OK ||
        (r = store_floats(d->key_velocity, p.velocity_count, dim, vels, index,
                          KF_FIELD_KEY_VELOCITY, "keyVelocity", error)) != KF_OK)
        goto fail;
    if ((r = kf_validate_interpolator(&p, error)) != KF_OK)
        goto fail;
    kf_precompute_interpolator(&p, derived);
    if ((r = kf_validate_interpolator_derived(&p, error)) != KF_OK)
        goto fail;

    p.name = reserve_animator(b, KF_KIND_INTERPOLATOR, (void **)&b->objects.interpolators,
                              sizeof *b->objects.interpolators, d->name);
    if (!p.name) {
        r = fail(error, KF_ERROR_OUT_OF_MEMORY, index, KF_FIELD_NONE, KF_NO_INDEX, "out of memory");
        goto fail;
    }
    kf_name_add(&b->animators, p.name, KF_KIND_INTERPOLATOR, index);
    b->objects.interpolators[b->objects.count[KF_KIND_INTERPOLATOR]++] = p;
    return KF_OK;

fail:
    if (error)
        error->object = index;
    kf_free(&b->allocator, block, bytes);
    return r;
}

/* ---- tracks ------------------------------------------------------------ */

/* The component count a target must have, or 0 with `error` filled. */
static uint32_t target_components(const char *target, kf_property property, uint32_t animator,
                                  uint32_t given, kf_error *error)
{
    if (property == KF_PROPERTY_CUSTOM) {
        if (given == 0) {
            kf_fail(error, KF_ERROR_VALUE,
                    "%s is not a built-in property: give its component count", KF_QUOTED(target));
            return 0;
        }
    } else if (!kf_property_accepts(property, animator)) {
        /* what it takes instead: every built-in property takes one or two
         * counts, none above 4 */
        char takes[32] = "";
        for (uint32_t c = 1, n = 0; c <= 4; c++)
            if (kf_property_accepts(property, c))
                n += (uint32_t)snprintf(takes + n, sizeof takes - n, "%s%u", n ? " or " : "",
                                        (unsigned)c);
        kf_fail(error, KF_ERROR_VALUE, "property '%s' does not take %u component%s, only %s%s",
                kf_property_name(property), (unsigned)animator, animator == 1 ? "" : "s", takes,
                property == KF_PROPERTY_ORIENTATION ? " (a quaternion [x, y, z, w])"
                : animator == 4                     ? " (a quaternion is an 'orientation')"
                                                    : "");
        return 0;
    }
    if (given != 0 && given != animator) {
        if (error)
            error->field = KF_FIELD_COMPONENTS;
        kf_fail(error, KF_ERROR_VALUE, "the target has %u components but the animator has %u",
                (unsigned)given, (unsigned)animator);
        return 0;
    }
    return animator;
}

kf_result kf_builder_add_track(kf_builder *b, const kf_track_desc *d, kf_error *error)
{
    return kf_builder_add_interpolator_track(b, d, NULL, error);
}

kf_result kf_builder_add_interpolator_track(kf_builder *b, const kf_track_desc *d,
                                            const kf_time_sensor_desc *sensor, kf_error *error)
{
    kf_error_clear(error);
    if (!b || !d || !d->animator || !d->target)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder, description, animator or target");
    kf_objects *o = &b->objects;
    const uint32_t index = o->count[KF_KIND_TRACK];
    if (error)
        error->object = index;

    const kf_name_slot *animator = kf_name_find(&b->animators, d->animator);
    if (!animator) {
        if (error)
            error->field = KF_FIELD_ANIMATOR;
        return kf_fail(error, KF_ERROR_NOT_FOUND, "no animator named %s", KF_QUOTED(d->animator));
    }
    const int interpolator = animator->kind == KF_KIND_INTERPOLATOR;
    const int follower = animator->kind == KF_KIND_FOLLOWER;
    kf_track t = {kfb_animator_code((kf_kind)animator->kind),
                  animator->index,
                  KF_NO_INDEX,
                  KF_NO_INDEX,
                  0.0f,
                  0,
                  KF_NO_INDEX};
    const uint32_t animator_components =
        interpolator ? kf_interpolator_components(&o->interpolators[t.animator])
        : follower   ? kf_follower_value_floats(&o->followers[t.animator])
                     : o->sequences[t.animator].components;
    if (d->controller) {
        t.controller = find(&b->controllers, d->controller);
        if (t.controller == KF_NO_INDEX) {
            if (error)
                error->field = KF_FIELD_CONTROLLER;
            return kf_fail(error, KF_ERROR_NOT_FOUND, "no controller named %s",
                           KF_QUOTED(d->controller));
        }
    }
    /* The TimeSensor of an interpolator track. */
    if (sensor && !interpolator) {
        if (error)
            error->field = KF_FIELD_CYCLE_INTERVAL;
        return kf_fail(error, KF_ERROR_VALUE,
                       "%s is a %s: only interpolator tracks have a TimeSensor "
                       "(cycleInterval, loop, ease)",
                       KF_QUOTED(d->animator), follower ? "follower" : "sequence");
    }
    if (interpolator) {
        /* Kept as the double it is: world time is large (formats/kfb.md,
         * 2.6), and any rounding of the cycle drifts a looping phase. */
        t.cycle_interval = sensor ? sensor->cycle_interval : 1.0;
        t.loop = sensor && sensor->loop;
    }
    if (sensor && sensor->ease) {
        const kf_name_slot *ease = kf_name_find(&b->animators, sensor->ease);
        if (!ease || ease->kind != KF_KIND_INTERPOLATOR) {
            if (error)
                error->field = KF_FIELD_EASE;
            return kf_fail(error, KF_ERROR_NOT_FOUND, "no EaseInEaseOut named %s",
                           KF_QUOTED(sensor->ease));
        }
        t.ease = ease->index;
    }
    kf_result r = kf_validate_track(&t, o, error);
    if (r != KF_OK) {
        if (error)
            error->object = index;
        return r;
    }

    if (error)
        error->field = KF_FIELD_TARGET;
    if (!kf_name_valid(d->target))
        return kf_fail(error, KF_ERROR_VALUE, "a target name must be valid UTF-8 text");
    const char *dot = strrchr(d->target, '.');
    if (!dot || dot == d->target || !dot[1])
        return kf_fail(error, KF_ERROR_VALUE, "a target is written object.property, not %s",
                       KF_QUOTED(d->target));
    kf_property property = kf_property_from_name(dot + 1);
    uint32_t components =
        target_components(d->target, property, animator_components, d->components, error);
    if (!components)
        return KF_ERROR_VALUE;

    t.target = find(&b->targets, d->target);
    if (t.target != KF_NO_INDEX && o->targets[t.target].components != components)
        return kf_fail(
            error, KF_ERROR_VALUE, "target %s is already animated with %u components, not %u",
            KF_QUOTED(d->target), (unsigned)o->targets[t.target].components, (unsigned)components);
    if (t.target != KF_NO_INDEX &&
        (r = kf_validate_track_blend(t.animator_kind, &o->targets[t.target], error)) != KF_OK) {
        if (error)
            error->object = index;
        return r;
    }
    /* M3G refuses adding the same track twice; the same binding twice
     * would only double its weight, which the controller already sets. An
     * interpolator track's binding includes its TimeSensor. */
    const int new_target = t.target == KF_NO_INDEX;
    if (new_target)
        t.target = o->count[KF_KIND_TARGET];
    uint32_t binding[KF_KEY_WORDS];
    kf_track_binding(&t, binding);
    const uint32_t first = new_target ? KF_NO_INDEX : kf_key_find(&b->bindings, binding);
    if (first != KF_NO_INDEX)
        return kf_fail_at(error, KF_ERROR_DUPLICATE, KF_FIELD_TARGET, first,
                          "a track already plays %s into %s through this controller",
                          KF_QUOTED(d->animator), KF_QUOTED(d->target));
    if (error)
        error->field = KF_FIELD_NONE;

    /* Everything that can fail, then the commit. */
    char *name = NULL;
    if (!reserve(b, KF_KIND_TRACK, (void **)&o->tracks, sizeof *o->tracks) ||
        !kf_key_reserve(&b->bindings, &b->allocator) ||
        (new_target && (!(name = copy_string(&b->allocator, d->target)) ||
                        !reserve(b, KF_KIND_TARGET, (void **)&o->targets, sizeof *o->targets) ||
                        !kf_name_reserve(&b->targets, &b->allocator)))) {
        free_string(&b->allocator, name);
        return kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (new_target) {
        kf_name_add(&b->targets, name, KF_KIND_TARGET, t.target);
        o->targets[o->count[KF_KIND_TARGET]++] =
            (kf_target){name, (uint32_t)property, components, 0, KF_BLEND_SUM};
    }
    kf_key_add(&b->bindings, binding, index);
    o->tracks[o->count[KF_KIND_TRACK]++] = t;
    return KF_OK;
}

kf_result kf_builder_set_target_blend(kf_builder *b, const char *target, kf_blend blend,
                                      kf_error *error)
{
    kf_error_clear(error);
    if (!b || !target)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or target");
    if (error)
        error->field = KF_FIELD_BLEND;
    if (blend != KF_BLEND_SUM && blend != KF_BLEND_LATEST)
        return kf_fail(error, KF_ERROR_ARGUMENT, "blend %d is neither sum nor latest", (int)blend);
    kf_objects *o = &b->objects;
    const uint32_t ti = find(&b->targets, target);
    if (ti == KF_NO_INDEX)
        return kf_fail(error, KF_ERROR_NOT_FOUND, "no track plays a target named %s",
                       KF_QUOTED(target));
    kf_target *t = &o->targets[ti];
    const uint32_t was = t->blend;
    t->blend = (uint32_t)blend;
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        if (o->tracks[i].target != ti)
            continue;
        const kf_result r = kf_validate_track_blend(o->tracks[i].animator_kind, t, error);
        if (r != KF_OK) {
            t->blend = was;
            if (error) {
                error->field = KF_FIELD_BLEND;
                error->object = i;
            }
            return r;
        }
    }
    if (error)
        error->field = KF_FIELD_NONE;
    return KF_OK;
}

/* The compress-ahead worker as the writer's packer of DATA. */
static int pack_ahead(void *user, int level, const kf_bytes *raw, kf_bytes *packed,
                      uint32_t *packed_crc)
{
    return kf_ahead_finish(user, level, raw, packed, packed_crc);
}

static uint64_t laid_out_ahead(void *user, int level)
{
    return kf_ahead_laid_out(user, level);
}

kf_result kf_builder_encode(const kf_builder *b, const kf_encode_options *options,
                            kf_write_fn write, void *user, kf_error *error)
{
    kf_error_clear(error);
    if (!b || !write)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or write function");
    int compression = 9;
    uint32_t major = KFB_VERSION_MAJOR;
    if (options) {
        if (!KF_OPTIONS_SIZE_OK(options->size, sizeof *options))
            return kf_fail(error, KF_ERROR_ARGUMENT, "options size %zu is not 8-%zu", options->size,
                           sizeof *options);
        compression = KF_OPTION(options, kf_encode_options, compression, 9);
        major = KF_OPTION(options, kf_encode_options, version_major, (uint32_t)0);
        if (major == 0)
            major = KFB_VERSION_MAJOR;
    }
    if ((compression < 0 || compression > 9) && compression != KF_COMPRESSION_RUNS)
        return kf_fail(error, KF_ERROR_ARGUMENT,
                       "compression level %d is not 0-9 or KF_COMPRESSION_RUNS", compression);
    if (major != 1 && major != KFB_VERSION_MAJOR)
        return kf_fail(error, KF_ERROR_ARGUMENT, "format version %u is not 1 or %u",
                       (unsigned)major, (unsigned)KFB_VERSION_MAJOR);
    /* The worker lays DATA out for the current version only. */
    const kf_data_packer packer = {pack_ahead, laid_out_ahead, b->ahead};
    return kf_write_objects(&b->allocator, &b->objects, compression, major,
                            b->ahead && major == KFB_VERSION_MAJOR ? &packer : NULL, write, user,
                            error);
}

uint32_t kf_builder_count(const kf_builder *b, kf_kind kind)
{
    if (!b || (unsigned)kind >= KF_KIND_COUNT)
        return 0;
    return b->objects.count[kind];
}

kf_result kf_builder_compress_ahead(kf_builder *b, int level)
{
    if (!b || level < 1 || level > 9)
        return KF_ERROR_ARGUMENT;
    if (b->ahead)
        return KF_OK;
    kf_result r = kf_ahead_start(&b->allocator, level, &b->ahead);
    for (uint32_t i = 0; r == KF_OK && i < b->objects.count[KF_KIND_SEQUENCE]; i++)
        kf_ahead_push(b->ahead, &b->objects.sequences[i]);
    return r;
}
