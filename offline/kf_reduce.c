/* SPDX-License-Identifier: MIT */
/*
 * kf_reduce.c - the error-bounded compile: kf_builder_reduce (kf_build.h).
 *
 * Works on the stored keys, before any encoding, so it needs nothing from
 * the file format: a reduced file is an ordinary file whose values happen
 * to lie on coarse grids (their low mantissa bits are zero and compress
 * away). Key times are never changed, so sequences sharing key times keep
 * sharing them (the loader packs those together for playback).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kf_compress_ahead.h"
#include "kf_math.h"
#include "kf_offline.h"

/* Samples per segment in the search for a grid, and in the check of the
 * grid found: the error between samples is smooth, and 64 per segment
 * leave it well under a percent above the largest sampled. */
#define SEARCH_SAMPLES 8
#define CHECK_SAMPLES  64
/* The share of a bound the checked samples may reach. The rest covers the
 * error between samples and the player's single-precision kernels, which
 * are a few units in the last place from kf_sequence_sample, the sampler
 * checked here (tests/test_sequence_accuracy.c). */
#define CHECKED_SHARE 0.99
/* Grids tried per sequence, each half the one before, before giving up and
 * keeping the sequence lossless. */
#define GRID_TRIES 6

static kf_bound_kind kind_of_property(uint32_t property)
{
    switch (property) {
    case KF_PROPERTY_TRANSLATION:
        return KF_BOUND_TRANSLATION;
    case KF_PROPERTY_ORIENTATION:
        return KF_BOUND_ORIENTATION;
    case KF_PROPERTY_SCALE:
        return KF_BOUND_SCALE;
    default:
        return KF_BOUND_OTHER;
    }
}

/* The largest power of two <= x; 0 for x not positive and finite. */
static double pow2_floor(double x)
{
    if (!(x > 0.0) || !isfinite(x))
        return 0.0;
    int e;
    frexp(x, &e);
    return ldexp(1.0, e - 1);
}

static float snap(float x, double step)
{
    /* + 0.0: a small negative rounds to +0, not -0, which would keep its
     * column out of the integer form (kf_write.c, column_exponent). */
    const double snapped = nearbyint(x / step) * step + 0.0;
    /* A grid as coarse as the float range (an absurd bound) keeps x. */
    return fabs(snapped) <= FLT_MAX ? (float)snapped : x;
}

/* Three components on the grid; component `big` (or, for big < 0, this
 * key's largest) takes what unit length leaves, with its sign, so the key
 * stays a unit quaternion to float precision (the builder stores such keys
 * as they are) with three components in few bits. The same `big` in every
 * key makes that column one the writer stores as signs (KFB_COLUMN_UNIT),
 * rebuilt by the reader with the same kf_unit_rest. Returns 0 if that
 * cannot be done (the grid is too coarse). */
static int snap_quaternion(const float *q, double step, int big, float *out)
{
    if (big < 0) {
        big = 0;
        for (int k = 1; k < 4; k++)
            if (fabsf(q[k]) > fabsf(q[big]))
                big = k;
    }
    for (int k = 0; k < 4; k++)
        out[k] = k == big ? 0.0f : snap(q[k], step);
    if (!kf_unit_rest(out, 4, (uint32_t)big, signbit(q[big]) != 0, &out[big]))
        return 0;
    double n2 = 0.0;
    for (int k = 0; k < 4; k++)
        n2 += (double)out[k] * out[k];
    return fabs(n2 - 1.0) <= KF_UNIT_QUAT_TOLERANCE;
}

/* The quaternion component that stays largest over all keys: the one
 * whose rebuilding from the others amplifies their rounding least. */
static int steadiest_component(const struct kf_sequence *s)
{
    int best = 3;
    float best_low = -1.0f;
    for (int k = 0; k < 4; k++) {
        float low = HUGE_VALF;
        for (uint32_t j = 0; j < s->key_count; j++)
            low = fminf(low, fabsf(s->values[4 * (size_t)j + (size_t)k]));
        if (low > best_low) {
            best_low = low;
            best = k;
        }
    }
    return best;
}

/* Rotation angle in degrees between the rotations of two quaternions,
 * 4 asin(|a - b| / 2) of the normalized pair in one hemisphere (the same as
 * 2 acos |<a, b>|, without acos's loss of precision near 1). */
static double rotation_error(const float *a, const float *b)
{
    double na = 0.0, nb = 0.0, dot = 0.0;
    for (int k = 0; k < 4; k++) {
        na += (double)a[k] * a[k];
        nb += (double)b[k] * b[k];
        dot += (double)a[k] * b[k];
    }
    if (na == 0.0 || nb == 0.0)
        return na == nb ? 0.0 : 180.0;
    na = sqrt(na);
    nb = sqrt(nb);
    const double sign = dot < 0.0 ? -1.0 : 1.0;
    double d2 = 0.0;
    for (int k = 0; k < 4; k++) {
        double d = a[k] / na - sign * b[k] / nb;
        d2 += d * d;
    }
    double h = sqrt(d2) / 2.0;
    return 4.0 * asin(h < 1.0 ? h : 1.0) * 180.0 / KF_PI;
}

/* The error of sample b against sample a, for every kind in `mask`. */
static void measure(unsigned mask, uint32_t c, const float *a, const float *b,
                    double err[KF_BOUND_COUNT])
{
    if (mask & (1u << KF_BOUND_TRANSLATION)) {
        double d2 = 0.0;
        for (uint32_t k = 0; k < c; k++)
            d2 += ((double)b[k] - a[k]) * ((double)b[k] - a[k]);
        err[KF_BOUND_TRANSLATION] = fmax(err[KF_BOUND_TRANSLATION], sqrt(d2));
    }
    if (mask & (1u << KF_BOUND_ORIENTATION)) {
        double e = c == 4 ? rotation_error(a, b) : HUGE_VAL;
        err[KF_BOUND_ORIENTATION] = fmax(err[KF_BOUND_ORIENTATION], e);
    }
    if (mask & (1u << KF_BOUND_SCALE)) {
        for (uint32_t k = 0; k < c; k++) {
            double d = fabs((double)b[k] - a[k]);
            double e = d == 0.0 ? 0.0 : a[k] != 0.0 ? d / fabs(a[k]) : HUGE_VAL;
            err[KF_BOUND_SCALE] = fmax(err[KF_BOUND_SCALE], e);
        }
    }
    if (mask & (1u << KF_BOUND_OTHER)) {
        for (uint32_t k = 0; k < c; k++)
            err[KF_BOUND_OTHER] = fmax(err[KF_BOUND_OTHER], fabs((double)b[k] - a[k]));
    }
}

/* Length of the played segment after valid key i; 0 where none is. */
static double segment_after(const struct kf_sequence *s, uint32_t i)
{
    if (i + 1 < s->valid_count)
        return (double)s->times[i + 1] - s->times[i];
    if (s->repeat == KFB_REPEAT_LOOP && s->valid_count > 1)
        return (double)s->duration - s->times[i] + s->times[0];
    return 0.0;
}

/* Samples both sequences, with the runtime's sampler, at every valid key
 * time and `per_segment` - 1 times inside every played segment, and
 * collects the errors of `b` against `a`. `pa`, `pb`: room for a sample. */
static void compare(const struct kf_sequence *a, const struct kf_sequence *b, unsigned mask,
                    int per_segment, float *pa, float *pb, double err[KF_BOUND_COUNT])
{
    kf_cursor ca = KF_CURSOR_INIT, cb = KF_CURSOR_INIT;
    for (uint32_t i = 0; i < a->valid_count; i++) {
        const double t0 = a->times[i], d = segment_after(a, i);
        const int samples = d > 0.0 ? per_segment : 1;
        for (int k = 0; k < samples; k++) {
            double t = t0 + d * k / per_segment;
            kf_sequence_sample(a, t, &ca, pa);
            kf_sequence_sample(b, t, &cb, pb);
            measure(mask, a->components, pa, pb, err);
        }
    }
}

/* Whether `b` plays within `bound` of `a` at `per_segment` samples per
 * segment (compare); the errors reached are added to `err`. */
static int within(const struct kf_sequence *a, const struct kf_sequence *b, unsigned mask,
                  int per_segment, const double *bound, float *samples, double err[KF_BOUND_COUNT])
{
    compare(a, b, mask, per_segment, samples, samples + a->components, err);
    for (int kind = 0; kind < KF_BOUND_COUNT; kind++)
        if ((mask & (1u << kind)) && !(err[kind] <= CHECKED_SHARE * bound[kind]))
            return 0;
    return 1;
}

/* The coarsest grid the bounds of `mask` allow before interpolation is
 * taken into account (verification then decides): half a step of rounding
 * per component. 0: the sequence stays lossless. */
static double base_step(const struct kf_sequence *s, unsigned mask, const double *bound)
{
    double step = HUGE_VAL;
    const uint32_t c = s->components;
    for (int kind = 0; kind < KF_BOUND_COUNT; kind++) {
        if (!(mask & (1u << kind)))
            continue;
        double x = 0.0;
        switch (kind) {
        case KF_BOUND_TRANSLATION:
            x = 2.0 * bound[kind] / sqrt((double)c);
            break;
        case KF_BOUND_ORIENTATION:
            /* |q - q'| <= step over four components; the angle is about
             * twice that distance. */
            x = c == 4 ? bound[kind] * KF_PI / 180.0 / 2.0 : 0.0;
            break;
        case KF_BOUND_SCALE: {
            double smallest = HUGE_VAL;
            for (size_t j = 0; j < (size_t)s->valid_count * c; j++)
                smallest = fmin(smallest, fabs(s->values[j]));
            x = 2.0 * bound[kind] * smallest;
            break;
        }
        default:
            x = 2.0 * bound[kind];
            break;
        }
        step = fmin(step, x);
    }
    return pow2_floor(step);
}

/* Puts SQUAD sequence s's intermediates a and b, derived from its snapped
 * keys, on the grid of `step` as snap_quaternion puts keys, rebuilding
 * component `big` (the keys' choice), and their arcs (which only version 1
 * files store) from them again: a lane then holds every quaternion it
 * plays on a grid (the layout's quantized SQUAD, kf_layout.c), and the
 * check that follows measures the curve so played. Returns 0 where a grid
 * this coarse leaves no unit quaternion. */
static int snap_intermediates(struct kf_sequence *s, double step, int big)
{
    const uint32_t v = s->valid_count;
    float *ab[2] = {(float *)s->tangent_out, (float *)s->tangent_in};
    for (int side = 0; side < 2; side++)
        for (uint32_t j = 0; j < v; j++) {
            float *q = ab[side] + 4 * (size_t)j, from[4];
            memcpy(from, q, sizeof from);
            if (!snap_quaternion(from, step, big, q))
                return 0;
        }
    if (s->arcs)
        kf_quat_arcs(ab[0], ab[1], v, (float *)s->arcs + (size_t)v * KFB_ARC_FLOATS);
    return 1;
}

/* Snaps the live sequence's keys (values and HERMITE key tangents, from
 * the unsnapped `from_values` and `from_tangents`) to `step` and derives
 * the rest again; quaternions rebuild component `big` (< 0: each key its
 * largest), key tangents take a grid `coarser` times the one that moves the
 * curve as much as `step` does, and SQUAD's intermediates one `coarser`
 * times `step`. Returns 0 where that gives no valid sequence. */
static int snap_sequence(struct kf_sequence *s, const float *from_values,
                         const float *from_tangents, double step, int big, double coarser)
{
    const uint32_t n = s->key_count, c = s->components;
    float *values = (float *)s->values;
    const int quaternion =
        (s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD) && c == 4;
    for (uint32_t j = 0; j < n; j++) {
        const float *from = from_values + (size_t)j * c;
        float *to = values + (size_t)j * c;
        if (quaternion) {
            if (!snap_quaternion(from, step, big, to))
                return 0;
        } else {
            for (uint32_t k = 0; k < c; k++)
                to[k] = snap(from[k], step);
        }
    }
    if (s->key_tangents) {
        /* A tangent error e moves a Hermite curve by at most 4/27 e d over a
         * segment of length d: the same grid over the longest segment. */
        double longest = 0.0;
        for (uint32_t i = 0; i < s->valid_count; i++)
            longest = fmax(longest, segment_after(s, i));
        const double tstep = coarser * (longest > 0.0 ? pow2_floor(step / longest) : step);
        float *kt = (float *)s->key_tangents;
        for (size_t j = 0; j < n; j++) {
            const float *in = from_tangents + 2 * c * j, *out = in + c;
            float *to = kt + 2 * c * j;
            for (size_t k = 0; k < c; k++) {
                if (fabs((double)in[k] - out[k]) <= tstep) {
                    /* A smooth key: one grid point for both sides, and the
                     * file holds the same column twice, which zlib finds. */
                    to[k] = to[c + k] = snap((float)(0.5 * ((double)in[k] + out[k])), tstep);
                } else {
                    to[k] = snap(in[k], tstep);
                    to[c + k] = snap(out[k], tstep);
                }
            }
        }
    }
    for (size_t j = 0; j < (size_t)n * c; j++)
        if (!isfinite(values[j]))
            return 0;
    /* A coarse grid may round a key past what the loader accepts. */
    if (kf_validate_tangent_range(s, 0, -1.0, NULL) != KF_OK)
        return 0;
    kf_sequence_precompute(s, (float *)s->tangent_out, (float *)s->tangent_in, (float *)s->arcs);
    if (quaternion && s->interpolation == KFB_INTERP_SQUAD && s->tangent_out &&
        !snap_intermediates(s, coarser * step, big))
        return 0;
    if (s->tangent_out && kf_validate_tangents(s, NULL) != KF_OK)
        return 0;
    if (s->arc_length) {
        kf_arc_length_fill(s, (float *)s->arc_length);
        if (kf_validate_arc_length(s, NULL) != KF_OK)
            return 0;
    }
    return 1;
}

static const float *rebase(const float *p, const float *from, const float *to)
{
    return p ? to + (p - from) : NULL;
}

/* The floats of the HERMITE block that plays SPLINE sequence `s`'s curve
 * (kf_build.c's layout: no TCB, no distance table). */
static size_t hermite_floats(const struct kf_sequence *s)
{
    struct kf_sequence h = *s;
    h.interpolation = KFB_INTERP_HERMITE;
    h.tcb = NULL;
    h.arc_length = NULL;
    return kf_sequence_block_floats(&h);
}

/*
 * SPLINE sequence `o` as the HERMITE sequence `h` in `block`
 * (hermite_floats) that plays the same curve: each valid key's tangents
 * divided by the lengths of the segments they shape, which HERMITE
 * multiplies them by again; tension, continuity and bias are inside those
 * tangents. The tangents M3G's rule derives from keys on a grid carry the
 * time factors' last bits, which no grid removes, so a reduced SPLINE would
 * store them nearly whole; key tangents can be put on a grid of their own,
 * and a HERMITE file holds only those. The unsnapped key tangents go to
 * `exact` (2 * key_count * components floats; keys outside the valid range
 * shape nothing and get 0). Returns 0 where a key tangent is not a finite
 * float (a large tangent over a tiny segment): that sequence stays SPLINE.
 */
static int spline_as_hermite(const struct kf_sequence *o, float *block, float *exact,
                             struct kf_sequence *h)
{
    const uint32_t n = o->key_count, v = o->valid_count, cc = o->components;
    const size_t c = cc;
    *h = *o;
    h->interpolation = KFB_INTERP_HERMITE;
    h->tcb = NULL;
    h->arcs = NULL;
    h->arc_length = NULL;
    memcpy(block, o->times, n * (1 + c) * sizeof *block);
    h->times = block;
    h->values = block + n;
    h->tangent_out = block + n * (1 + c);
    h->tangent_in = h->tangent_out + kf_sequence_tangent_count(KFB_INTERP_HERMITE, v, cc);
    h->key_tangents = h->tangent_out + kf_sequence_derived_count(KFB_INTERP_HERMITE, v, cc);
    memset(exact, 0, 2 * n * c * sizeof *exact);
    for (uint32_t i = 0; i < v; i++) {
        const double next = segment_after(o, i), prev = segment_after(o, i ? i - 1 : v - 1);
        for (size_t k = 0; k < c; k++) {
            double in = prev > 0.0 ? o->tangent_in[c * i + k] / prev : 0.0;
            double out = next > 0.0 ? o->tangent_out[c * i + k] / next : 0.0;
            /* A side that shapes no segment (a wrap of no length; no
             * segment before the first key, after the last, in CONSTANT)
             * takes the other's: the key then has one tangent, which the
             * loader keeps once (kf_layout.c, smooth_keys). */
            if (!(prev > 0.0))
                in = out;
            if (!(next > 0.0))
                out = in;
            if (!(fabs(in) <= FLT_MAX && fabs(out) <= FLT_MAX))
                return 0;
            exact[2 * c * i + k] = (float)in;
            exact[2 * c * i + c + k] = (float)out;
        }
    }
    memcpy((float *)h->key_tangents, exact, 2 * n * c * sizeof *exact);
    return 1;
}

/* Key tangent grids tried with each value grid, coarsest first, as
 * multiples of the one that moves the curve as much as the value grid:
 * the bound that assumes is loose, and the file's key tangents are about a
 * third of a reduced HERMITE file (W: 8x saves 11 % over 1x). */
static const double tangent_grids[] = {8.0, 4.0, 2.0, 1.0};
/* SQUAD intermediates' grids tried with each key grid, as multiples of it:
 * the same first (the control slerp weighs them at most by half, so that
 * grid moves the curve less than the keys' does), then finer. */
static const double squad_grids[] = {1.0, 0.5};

/* Reduces one sequence in place; returns 0 when out of memory. */
static int reduce_sequence(const kf_allocator *alloc, struct kf_sequence *s, unsigned mask,
                           const double *bound, double worst[KF_BOUND_COUNT])
{
    const double step0 = base_step(s, mask, bound);
    if (step0 == 0.0 || s->key_count == 0)
        return 1;
    const size_t floats = kf_sequence_block_floats(s), c = s->components;
    /* SPLINE plays as HERMITE (spline_as_hermite), unless it stores a
     * distance table, which HERMITE does not. */
    const int to_hermite = s->interpolation == KFB_INTERP_SPLINE && !s->arc_length;
    const size_t hfloats = to_hermite ? hermite_floats(s) : 0;
    const size_t exact_floats = to_hermite ? 2 * (size_t)s->key_count * c : 0;
    float *copy = kf_alloc(alloc, floats * sizeof *copy);
    float *samples = kf_alloc(alloc, 2 * c * sizeof *samples);
    float *hblock = to_hermite ? kf_alloc(alloc, hfloats * sizeof *hblock) : NULL;
    float *exact = to_hermite ? kf_alloc(alloc, exact_floats * sizeof *exact) : NULL;
    const int ok = copy && samples && (!to_hermite || (hblock && exact));
    if (ok) {
        float *block = (float *)s->times;
        memcpy(copy, block, floats * sizeof *copy);
        struct kf_sequence o = *s;
        o.times = copy;
        o.values = rebase(s->values, block, copy);
        o.tangent_out = rebase(s->tangent_out, block, copy);
        o.tangent_in = rebase(s->tangent_in, block, copy);
        o.arcs = rebase(s->arcs, block, copy);
        o.tcb = rebase(s->tcb, block, copy);
        o.key_tangents = rebase(s->key_tangents, block, copy);
        o.arc_length = rebase(s->arc_length, block, copy);

        /* What is snapped: `s` itself, or its HERMITE form. */
        struct kf_sequence h;
        struct kf_sequence *live = s;
        const float *tangents = o.key_tangents;
        const int converted = to_hermite && spline_as_hermite(&o, hblock, exact, &h);
        if (converted) {
            live = &h;
            tangents = exact;
        }
        /* Quaternions: first with one component rebuilt in every key (a
         * column of signs in the file), w (what the loader keeps quantized,
         * kf_layout.c), or the one that stays largest where that is
         * another, on every grid from the coarsest; only where neither
         * holds the bound, each key's largest, which bounds the rounding
         * better where no component stays large. */
        const int quaternion =
            (s->interpolation == KFB_INTERP_SLERP || s->interpolation == KFB_INTERP_SQUAD) &&
            c == 4;
        int bigs[3] = {-1, -1, -1}, forms = 1;
        if (quaternion) {
            const int steadiest = steadiest_component(&o);
            bigs[0] = 3;
            if (steadiest != 3)
                bigs[forms++] = steadiest;
            bigs[forms++] = -1;
        }
        const int squad = quaternion && s->interpolation == KFB_INTERP_SQUAD;
        const int grids = live->key_tangents ? (int)(sizeof tangent_grids / sizeof *tangent_grids)
                          : squad            ? (int)(sizeof squad_grids / sizeof *squad_grids)
                                             : 1;
        const double *grid = live->key_tangents ? tangent_grids
                             : squad            ? squad_grids
                                                : tangent_grids + grids - 1;
        int reduced = 0;
        for (int phase = 0; phase < (quaternion ? 2 : 1) && !reduced; phase++) {
            const int first = phase ? forms - 1 : 0, end = quaternion && !phase ? forms - 1 : forms;
            double step = step0;
            for (int tries = 0; tries < GRID_TRIES && !reduced; tries++, step /= 2.0) {
                for (int form = first; form < end && !reduced; form++) {
                    for (int g = 0; g < grids && !reduced; g++) {
                        if (!snap_sequence(live, o.values, tangents, step, bigs[form], grid[g]))
                            continue;
                        double err[KF_BOUND_COUNT] = {0};
                        reduced = within(&o, live, mask, SEARCH_SAMPLES, bound, samples, err) &&
                                  within(&o, live, mask, CHECK_SAMPLES, bound, samples, err);
                        if (reduced)
                            for (int kind = 0; kind < KF_BOUND_COUNT; kind++)
                                if (mask & (1u << kind))
                                    worst[kind] = fmax(worst[kind], err[kind]);
                    }
                }
            }
        }
        if (reduced && converted) {
            kf_free(alloc, block, floats * sizeof *block);
            *s = h;
            hblock = NULL; /* the sequence's now */
        } else if (!reduced && !converted) {
            memcpy(block, copy, floats * sizeof *copy);
        }
    }
    kf_free(alloc, copy, floats * sizeof *copy);
    kf_free(alloc, samples, 2 * c * sizeof *samples);
    kf_free(alloc, hblock, hfloats * sizeof *hblock);
    kf_free(alloc, exact, exact_floats * sizeof *exact);
    return ok;
}

kf_result kf_builder_reduce(kf_builder *b, const double max_error[KF_BOUND_COUNT],
                            double worst[KF_BOUND_COUNT], kf_error *error)
{
    kf_error_clear(error);
    if (!b || !max_error)
        return kf_fail(error, KF_ERROR_ARGUMENT, "no builder or bounds");
    double bound[KF_BOUND_COUNT], reached[KF_BOUND_COUNT] = {0};
    unsigned bounded = 0;
    for (int kind = 0; kind < KF_BOUND_COUNT; kind++) {
        bound[kind] = max_error[kind];
        if (bound[kind] > 0.0 && isfinite(bound[kind])) {
            bounded |= 1u << kind;
            reached[kind] = -1.0; /* until a sequence of the kind is reduced */
        }
    }
    /* The worker reads the stored sequences: stop it before they change. */
    kf_ahead_destroy(b->ahead);
    b->ahead = NULL;

    kf_objects *objects = &b->objects;
    const uint32_t count = objects->count[KF_KIND_SEQUENCE];
    unsigned *masks = count ? kf_calloc(&b->allocator, count, sizeof *masks) : NULL;
    if (count && !masks)
        return kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < objects->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &objects->tracks[i];
        if (t->animator_kind == KFB_ANIMATOR_SEQUENCE)
            masks[t->animator] |= 1u << kind_of_property(objects->targets[t->target].property);
    }
    kf_result r = KF_OK;
    for (uint32_t i = 0; i < count && r == KF_OK; i++) {
        /* Nothing driven, or a kind left lossless: keep every key. */
        if (masks[i] == 0 || (masks[i] & ~bounded) != 0)
            continue;
        if (!reduce_sequence(&b->allocator, &objects->sequences[i], masks[i], bound, reached))
            r = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    kf_free(&b->allocator, masks, (size_t)count * sizeof *masks);
    if (worst)
        memcpy(worst, reached, sizeof reached);
    return r;
}
