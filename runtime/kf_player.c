/*
 * kf_player.c - per-instance playback: controllers, segment cursors,
 * follower states, blending (SPEC-NOTES 2). Everything a player changes
 * lives in its one allocation; the kf_anim is only read.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf_private.h"
#include "kf_sample.h"

/*
 * The plan, made at creation: tracks are grouped by controller and by the
 * key times their sequences share (formats/kfb.md), so an update finds one
 * segment per group and evaluates every member there. Inside a group,
 * members are sorted into runs that use the same kernel (kf_sample.h), so
 * the loop over a run has no dispatch. A target that only one track plays is
 * written in place; only targets that blend several tracks go through the
 * weighted sums, which stay zero between updates. X3D interpolator tracks
 * each have their own TimeSensor, so they are played one by one, after the
 * groups, and finished the same way.
 */
enum { /* kernels */
    OP_STEP,
    OP_LINEAR3,
    OP_LINEAR,
    OP_SPLINE3,
    OP_SPLINE,
    OP_SLERP,
    OP_SQUAD
};

enum { /* what follows the kernel; none for the usual single track */
    FINISH_BLEND = 1,     /* add w * sample to the target's sums */
    FINISH_WEIGHT = 2,    /* a single track: value = w * sample (when w != 1) */
    FINISH_NORMALIZE = 4, /* an orientation */
    FINISH_CLAMP = 8      /* a property M3G clamps */
};

typedef struct play_member {
    const struct kf_sequence *sequence;
    float   *out;        /* the target's value if this is its only track, else `sample` */
    uint32_t op;         /* OP_* */
    uint32_t finish;     /* FINISH_* */
    uint32_t target;
    uint32_t controller;
    uint32_t track;      /* the order among equals */
} play_member;

/* Members [first, end) of one group with one kernel; `finish` is the union
 * of theirs. */
typedef struct play_run {
    uint32_t op, finish;
    uint32_t first, end;
} play_run;

/* An interpolator track: its TimeSensor, animator and ease are the track's. */
typedef struct play_interpolator {
    const kf_track *track;
    float   *out;        /* as play_member.out */
    uint32_t finish;     /* FINISH_* */
    uint32_t cursor;     /* the segment search hint */
} play_interpolator;

/* A follower track: the track's follower state runs on its controller's
 * position. */
typedef struct play_follower {
    const kf_track    *track;
    float             *out;    /* as play_member.out */
    uint32_t           finish; /* FINISH_* */
    kf_follower_state *state;
} play_follower;

typedef struct play_group {
    const struct kf_sequence *clock; /* any member: the times, count, duration, repeat */
    uint32_t controller;
    uint32_t first, end;             /* its runs */
    uint32_t cursor;                 /* the segment search hint */
} play_group;

struct kf_player {
    const kf_anim *anim;
    kf_allocator   allocator;
    size_t         size;
    struct kf_controller *controllers; /* the player's own copies */
    float         *values;             /* per target, at kf_target.value_offset */
    play_group    *groups;
    play_run      *runs;
    play_member   *members;            /* in group and run order */
    play_interpolator *interpolators;  /* interpolator tracks, in track order */
    play_follower *follows;            /* follower tracks, in track order */
    uint32_t      *blended;            /* targets played by several tracks */
    uint32_t       group_count, run_count, member_count, blended_count, interpolator_count;
    uint32_t       follow_count;
    /* Scratch for kf_player_update, sized at creation. */
    double        *sums;               /* weighted sums, like values; 0 between updates */
    double        *weights;            /* total weight per target; 0 between updates */
    double        *positions;          /* per controller, this update */
    unsigned char *active;             /* per controller, this update */
    float         *sample;             /* one track's sample */
    kf_follower_state **followers;     /* per track: its follower's state, or NULL */
};

/* A follower track's chaser holds `capacity` transitions (chosen for the
 * whole player by player_capacity), fewer if one state would pass
 * FOLLOWER_RING_BYTES, at least one. */
#define FOLLOWER_RING_BYTES ((size_t)1 << 20)

static uint32_t follower_capacity(const kf_follower *f, uint32_t capacity)
{
    const size_t per_transition = ((size_t)kf_follower_components(f) + 1) * sizeof(double);
    const size_t fit = FOLLOWER_RING_BYTES / per_transition;
    return fit < 1 ? 1 : fit > capacity ? capacity : (uint32_t)fit;
}

/* Appends an array to a layout being measured (base == NULL) or carved. */
static void *carve(unsigned char *base, size_t *at, size_t count, size_t size, int *ok)
{
    size_t bytes, start = (*at + 7) & ~(size_t)7;
    if (!kf_mul_size(count, size, &bytes) || start < *at || bytes > SIZE_MAX - start) {
        *ok = 0;
        return NULL;
    }
    *at = start + bytes;
    return base ? base + start : NULL;
}

static size_t layout(const kf_anim *anim, uint32_t chaser_capacity, kf_player *p,
                     unsigned char *base, int *ok)
{
    const kf_objects *o = &anim->objects;
    uint32_t widest = 1;
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++)
        if (o->targets[i].components > widest)
            widest = o->targets[i].components;
    size_t at = 0;
    *ok = 1;
    carve(base, &at, 1, sizeof *p, ok);
    p->controllers = carve(base, &at, o->count[KF_KIND_CONTROLLER], sizeof *p->controllers, ok);
    p->values = carve(base, &at, anim->value_count, sizeof *p->values, ok);
    p->groups = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->groups, ok);
    p->runs = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->runs, ok);
    p->members = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->members, ok);
    p->interpolators = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->interpolators, ok);
    p->follows = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->follows, ok);
    p->blended = carve(base, &at, o->count[KF_KIND_TARGET], sizeof *p->blended, ok);
    p->sums = carve(base, &at, anim->value_count, sizeof *p->sums, ok);
    p->weights = carve(base, &at, o->count[KF_KIND_TARGET], sizeof *p->weights, ok);
    p->positions = carve(base, &at, o->count[KF_KIND_CONTROLLER], sizeof *p->positions, ok);
    p->active = carve(base, &at, o->count[KF_KIND_CONTROLLER], 1, ok);
    p->sample = carve(base, &at, widest, sizeof *p->sample, ok);
    p->followers = carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->followers, ok);
    /* Each follower track's state, in the same block. */
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        if (t->animator_kind != KFB_ANIMATOR_FOLLOWER) {
            if (base)
                p->followers[i] = NULL;
            continue;
        }
        const kf_follower *f = &o->followers[t->animator];
        const uint32_t capacity = follower_capacity(f, chaser_capacity);
        size_t size = kf_follower_state_size(f, capacity);
        if (!size)
            *ok = 0;
        void *memory = carve(base, &at, size, 1, ok);
        if (base)
            p->followers[i] = kf_follower_state_init(memory, size, f, capacity);
    }
    return at;
}

/* Members of one group compare equal up to `op`, of one run up to `track`.
 * Times are compared by address: equal times share one array
 * (formats/kfb.md), and addresses in the one block of a loaded anim follow
 * the file's order. */
static int compare_members(const void *x, const void *y)
{
    const play_member *a = x, *b = y;
    const struct kf_sequence *s = a->sequence, *t = b->sequence;
    uintptr_t ta = (uintptr_t)s->times, tb = (uintptr_t)t->times;
    if (a->controller != b->controller)
        return a->controller < b->controller ? -1 : 1;
    if (ta != tb)
        return ta < tb ? -1 : 1;
    if (s->valid_count != t->valid_count)
        return s->valid_count < t->valid_count ? -1 : 1;
    if (s->repeat != t->repeat)
        return s->repeat < t->repeat ? -1 : 1;
    if (s->duration != t->duration)
        return s->duration < t->duration ? -1 : 1;
    if (a->op != b->op)
        return a->op < b->op ? -1 : 1;
    if (a->finish != b->finish)
        return a->finish < b->finish ? -1 : 1;
    return (a->track > b->track) - (a->track < b->track);
}

static int same_clock(const play_member *a, const play_member *b)
{
    const struct kf_sequence *s = a->sequence, *t = b->sequence;
    return a->controller == b->controller && s->times == t->times &&
           s->valid_count == t->valid_count && s->repeat == t->repeat &&
           s->duration == t->duration;
}

static uint32_t kernel(const struct kf_sequence *s)
{
    switch (s->interpolation) {
    case KFB_INTERP_STEP:   return OP_STEP;
    case KFB_INTERP_LINEAR: return s->components == 3 ? OP_LINEAR3 : OP_LINEAR;
    case KFB_INTERP_SPLINE: return s->components == 3 ? OP_SPLINE3 : OP_SPLINE;
    case KFB_INTERP_HERMITE: return s->components == 3 ? OP_SPLINE3 : OP_SPLINE;
    case KFB_INTERP_SLERP:  return OP_SLERP;
    default:                return OP_SQUAD;
    }
}

/* What a member does after its kernel (FINISH_*), from how many tracks
 * play its target (`tracks`). */
static uint32_t finish_of(const kf_target *t, double tracks)
{
    if (tracks > 1.0)
        return FINISH_BLEND;
    uint32_t finish = kf_property_clamps(t->property) ? FINISH_CLAMP : 0;
    /* Slerp and squad results are unit quaternions only as far as their keys
     * are: across nearly opposite keys they are not (M3G does not flip), so
     * orientations are normalized whatever their interpolation. */
    finish |= t->property == KF_PROPERTY_ORIENTATION ? FINISH_NORMALIZE : FINISH_WEIGHT;
    return finish;
}

static void make_plan(kf_player *p)
{
    const kf_objects *o = &p->anim->objects;
    /* Members; the weights count each target's tracks meanwhile. */
    uint32_t n = 0, x = 0, f = 0;
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        if (t->controller == KF_NO_INDEX)
            continue; /* plays nothing */
        p->weights[t->target] += 1.0;
        if (t->animator_kind == KFB_ANIMATOR_INTERPOLATOR) {
            p->interpolators[x++] = (play_interpolator){t, p->sample, 0, 0};
            continue;
        }
        if (t->animator_kind == KFB_ANIMATOR_FOLLOWER) {
            p->follows[f++] = (play_follower){t, p->sample, 0, p->followers[i]};
            continue;
        }
        const struct kf_sequence *s = &o->sequences[t->animator];
        p->members[n++] = (play_member){s, p->sample, kernel(s), 0, t->target, t->controller, i};
    }
    for (uint32_t m = 0; m < n; m++) {
        play_member *mb = &p->members[m];
        const kf_target *t = &o->targets[mb->target];
        mb->finish = finish_of(t, p->weights[mb->target]);
        if (!(mb->finish & FINISH_BLEND))
            mb->out = p->values + t->value_offset;
    }
    for (uint32_t m = 0; m < x; m++) {
        play_interpolator *pi = &p->interpolators[m];
        const kf_target *t = &o->targets[pi->track->target];
        pi->finish = finish_of(t, p->weights[pi->track->target]);
        if (!(pi->finish & FINISH_BLEND))
            pi->out = p->values + t->value_offset;
    }
    p->interpolator_count = x;
    for (uint32_t m = 0; m < f; m++) {
        play_follower *pf = &p->follows[m];
        const kf_target *t = &o->targets[pf->track->target];
        pf->finish = finish_of(t, p->weights[pf->track->target]);
        if (!(pf->finish & FINISH_BLEND))
            pf->out = p->values + t->value_offset;
    }
    p->follow_count = f;
    p->blended_count = 0;
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        if (t->controller != KF_NO_INDEX && p->weights[t->target] > 1.0) {
            p->blended[p->blended_count++] = t->target;
            p->weights[t->target] = 0.0; /* listed */
        }
    }
    memset(p->weights, 0, o->count[KF_KIND_TARGET] * sizeof *p->weights);
    if (n > 1)
        qsort(p->members, n, sizeof *p->members, compare_members);
    p->member_count = n;

    p->group_count = p->run_count = 0;
    for (uint32_t m = 0; m < n; m++) {
        const play_member *mb = &p->members[m];
        const int new_group = m == 0 || !same_clock(&p->members[m - 1], mb);
        if (new_group)
            p->groups[p->group_count++] = (play_group){mb->sequence, mb->controller,
                                                       p->run_count, p->run_count, 0};
        if (new_group || mb->op != p->members[m - 1].op)
            p->runs[p->run_count++] = (play_run){mb->op, 0, m, m};
        play_run *r = &p->runs[p->run_count - 1];
        r->end = m + 1;
        r->finish |= mb->finish;
        p->groups[p->group_count - 1].end = p->run_count;
    }
}

/* ---- the memory bound (kf.h) ------------------------------------------- */

static size_t player_bound(const kf_anim *anim)
{
    size_t scaled;
    if (!kf_mul_size(anim->size, KF_PLAYER_BYTES_PER_ANIM_BYTE, &scaled) ||
        scaled > SIZE_MAX - KF_PLAYER_FIXED_BYTES)
        return SIZE_MAX;
    return scaled + KF_PLAYER_FIXED_BYTES;
}

static size_t measure(const kf_anim *anim, uint32_t capacity)
{
    kf_player probe;
    int ok;
    size_t size = layout(anim, capacity, &probe, NULL, &ok);
    return ok ? size : SIZE_MAX;
}

/* The chaser capacity of a player of `anim`: the largest, up to
 * KF_FOLLOWER_DEFAULT_CAPACITY, that keeps the player within the bound;
 * 0 if not even one transition per chaser fits. A player's size grows with
 * the capacity, so a binary search finds it. */
static uint32_t player_capacity(const kf_anim *anim)
{
    const size_t bound = player_bound(anim);
    if (measure(anim, 1) > bound)
        return 0;
    uint32_t lo = 1, hi = KF_FOLLOWER_DEFAULT_CAPACITY;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (measure(anim, mid) <= bound)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

kf_result kf_objects_player_size(const kf_objects *o, size_t anim_bytes, size_t *bytes)
{
    kf_anim anim;
    memset(&anim, 0, sizeof anim);
    anim.objects = *o;
    anim.size = anim_bytes;
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++)
        anim.value_count += o->targets[i].components;
    *bytes = 0;
    const uint32_t capacity = player_capacity(&anim);
    if (!capacity)
        return KF_ERROR_LIMIT;
    *bytes = measure(&anim, capacity);
    return KF_OK;
}

kf_result kf_player_size(const kf_anim *anim, size_t *bytes)
{
    if (!bytes)
        return KF_ERROR_ARGUMENT;
    *bytes = 0;
    if (!anim)
        return KF_ERROR_ARGUMENT;
    const uint32_t capacity = player_capacity(anim);
    if (!capacity)
        return KF_ERROR_LIMIT;
    *bytes = measure(anim, capacity);
    return KF_OK;
}

kf_result kf_player_create(const kf_anim *anim, const kf_allocator *allocator, kf_player **out)
{
    if (!out)
        return KF_ERROR_ARGUMENT;
    *out = NULL;
    if (!anim)
        return KF_ERROR_ARGUMENT;
    kf_player probe;
    int ok;
    const uint32_t capacity = player_capacity(anim);
    if (!capacity)
        return KF_ERROR_LIMIT;
    size_t size = layout(anim, capacity, &probe, NULL, &ok);
    if (!ok)
        return KF_ERROR_OUT_OF_MEMORY;
    kf_allocator a = kf_allocator_or_default(allocator);
    unsigned char *base = kf_alloc(&a, size);
    if (!base)
        return KF_ERROR_OUT_OF_MEMORY;
    memset(base, 0, size);
    kf_player *p = (kf_player *)base;
    layout(anim, capacity, p, base, &ok);
    p->anim = anim;
    p->allocator = a;
    p->size = size;
    make_plan(p);
    kf_player_reset(p);
    *out = p;
    return KF_OK;
}

void kf_player_destroy(kf_player *p)
{
    if (p) {
        kf_allocator a = p->allocator;
        kf_free(&a, p, p->size);
    }
}

void kf_player_reset(kf_player *p)
{
    if (!p)
        return;
    const kf_objects *o = &p->anim->objects;
    if (o->count[KF_KIND_CONTROLLER])
        memcpy(p->controllers, o->controllers, o->count[KF_KIND_CONTROLLER] * sizeof *p->controllers);
    for (uint32_t i = 0; i < p->group_count; i++)
        p->groups[i].cursor = 0;
    for (uint32_t i = 0; i < p->interpolator_count; i++)
        p->interpolators[i].cursor = 0;
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++)
        if (p->followers[i])
            kf_follower_reset(p->followers[i], 0.0);
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++) {
        const kf_target *t = &o->targets[i];
        kf_property_rest_value((kf_property)t->property, t->components, p->values + t->value_offset);
    }
}

/* A blended orientation is a weighted sum of unit quaternions; when they
 * cancel out (|sum| tiny against the total weight) it has no direction and
 * becomes the identity. */
static void normalize_orientation(const double *q, double weight, float *out)
{
    double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (!(n2 > 1e-10 * weight * weight) || !isfinite(n2)) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    double inv = 1.0 / sqrt(n2);
    for (int i = 0; i < 4; i++)
        out[i] = (float)(q[i] * inv);
}

/* A single track's orientation: w * q normalized is q normalized (w > 0),
 * and the test for a vanishing sum is the blend's with one weight. Samples
 * are nearly unit: for |q|^2 = 1 + d, |d| < 2^-12, 1/|q| = (3 - |q|^2)/2
 * within 3d^2/8 < 2.3e-8, without the square root. */
KF_KERNEL void normalize_single(float *v)
{
    const float n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
    float inv;
    if (fabsf(n2 - 1.0f) < 1.0f / 4096) {
        inv = 1.5f - 0.5f * n2;
    } else if (n2 > 1e-10f && n2 <= FLT_MAX) {
        inv = 1.0f / sqrtf(n2);
    } else {
        v[0] = v[1] = v[2] = 0.0f;
        v[3] = 1.0f;
        return;
    }
    for (int k = 0; k < 4; k++)
        v[k] *= inv;
}

/* After the kernel, for the members that need more than it did (`finish`
 * holds FINISH_WEIGHT only where w != 1): what finalizing would do for a
 * target of one track, in place, or the blend's sums. */
static void finish(kf_player *p, uint32_t target, float *v, uint32_t finish, double w)
{
    const kf_target *t = &p->anim->objects.targets[target];
    if (finish & FINISH_BLEND) {
        double *sum = p->sums + t->value_offset;
        for (uint32_t k = 0; k < t->components; k++)
            sum[k] += w * v[k];
        p->weights[target] += w;
        return;
    }
    if (finish & FINISH_NORMALIZE)
        normalize_single(v);
    if (finish & FINISH_WEIGHT)
        for (uint32_t k = 0; k < t->components; k++)
            v[k] = kf_narrow_saturate(w * v[k]);
    if (finish & FINISH_CLAMP)
        kf_property_clamp(t->property, t->components, v);
}

/* The members of run r: the kernel, then `finish` where needed. `unit`
 * says the kernel's result is a unit quaternion already (to the accuracy
 * README.md states), so an orientation needs no normalizing. */
#define PLAY_RUN(kernel_call, unit)                                                \
    do {                                                                           \
        const play_member *m = p->members + r->first, *end = p->members + r->end; \
        if (r->finish & mask) {                                                    \
            for (; m < end; m++) {                                                 \
                const struct kf_sequence *s = m->sequence;                         \
                kernel_call;                                                       \
                if (m->finish == FINISH_NORMALIZE) { /* the usual orientation */  \
                    if (!(unit))                                                   \
                        normalize_single(m->out);                                  \
                } else if (m->finish & mask) {                                     \
                    finish(p, m->target, m->out, m->finish & mask, w);             \
                }                                                                  \
            }                                                                      \
        } else {                                                                   \
            for (; m < end; m++) {                                                 \
                const struct kf_sequence *s = m->sequence;                         \
                kernel_call;                                                       \
            }                                                                      \
        }                                                                          \
    } while (0)

/* Every member of g at the segment its clock is at. */
static void play_group_at(kf_player *p, play_group *g, double position, double w)
{
    kf_segment seg;
    kf_locate(g->clock, position, &g->cursor, &seg);
    /* FINISH_WEIGHT applies only when the weight changes something. */
    const uint32_t mask = w != 1.0 ? ~0u : ~(uint32_t)FINISH_WEIGHT;
    const size_t i = seg.i, j = seg.j;
    const float u = (float)seg.u;
    float h[4]; /* for SPLINE members; cheaper to compute than to test for */
    kf_hermite_basis_f(u, h);
    for (const play_run *r = p->runs + g->first, *rend = p->runs + g->end; r < rend; r++) {
        if (seg.hold) {
            PLAY_RUN(kf_key(s, i, m->out), 0);
            continue;
        }
        switch (r->op) {
        case OP_STEP:
            PLAY_RUN(kf_key(s, i, m->out), 0);
            break;
        case OP_LINEAR3:
            PLAY_RUN(kf_lerp3(s, i, j, u, m->out), 0);
            break;
        case OP_LINEAR:
            PLAY_RUN(kf_lerp(s, i, j, u, m->out), 0);
            break;
        case OP_SPLINE3:
            PLAY_RUN(kf_hermite3(s, i, j, h, m->out), 0);
            break;
        case OP_SPLINE:
            PLAY_RUN(kf_hermite(s, i, j, h, m->out), 0);
            break;
        case OP_SLERP:
            /* Along a polynomial arc (0 < theta <= pi/2) between unit keys
             * the result is unit; the linear and general arcs are not. */
            PLAY_RUN(kf_slerp_key(s, i, j, u, m->out), s->arcs[KFB_ARC_FLOATS * i] > 0.0f);
            break;
        default:
            PLAY_RUN(kf_squad(s, i, j, seg.u, m->out), 0);
            break;
        }
    }
}

void kf_player_update(kf_player *p, double world_time)
{
    if (!p)
        return;
    const kf_objects *o = &p->anim->objects;
    for (uint32_t i = 0; i < o->count[KF_KIND_CONTROLLER]; i++) {
        const kf_controller *c = &p->controllers[i];
        p->active[i] = kf_controller_is_active(c, world_time) && c->weight > 0.0;
        p->positions[i] = kf_controller_position(c, world_time);
    }

    for (uint32_t gi = 0; gi < p->group_count; gi++) {
        play_group *g = &p->groups[gi];
        if (p->active[g->controller]) /* else its targets keep their values */
            play_group_at(p, g, p->positions[g->controller], p->controllers[g->controller].weight);
    }
    for (uint32_t xi = 0; xi < p->interpolator_count; xi++) {
        play_interpolator *pi = &p->interpolators[xi];
        const kf_track *t = pi->track;
        if (!p->active[t->controller])
            continue;
        double fraction = kf_track_fraction(t, p->positions[t->controller]);
        if (t->ease != KF_NO_INDEX)
            fraction = kf_interpolator_ease(&o->interpolators[t->ease], fraction);
        kf_cursor cursor = {pi->cursor};
        kf_interpolator_sample(&o->interpolators[t->animator], fraction, &cursor, pi->out);
        pi->cursor = cursor.key;
        const double w = p->controllers[t->controller].weight;
        const uint32_t mask = w != 1.0 ? ~0u : ~(uint32_t)FINISH_WEIGHT;
        if (pi->finish & mask)
            finish(p, t->target, pi->out, pi->finish & mask, w);
    }
    for (uint32_t fi = 0; fi < p->follow_count; fi++) {
        const play_follower *pf = &p->follows[fi];
        const kf_track *t = pf->track;
        if (!p->active[t->controller])
            continue; /* the follower waits; its target keeps its value */
        /* The follower's clock is the controller's position. */
        kf_follower_update(pf->state, p->positions[t->controller]);
        memcpy(pf->out, kf_follower_value(pf->state),
               o->targets[t->target].components * sizeof *pf->out);
        const double w = p->controllers[t->controller].weight;
        const uint32_t mask = w != 1.0 ? ~0u : ~(uint32_t)FINISH_WEIGHT;
        if (pf->finish & mask)
            finish(p, t->target, pf->out, pf->finish & mask, w);
    }

    for (uint32_t bi = 0; bi < p->blended_count; bi++) {
        const uint32_t i = p->blended[bi];
        const kf_target *t = &o->targets[i];
        double *sum = p->sums + t->value_offset;
        if (p->weights[i] > 0.0) {
            float *value = p->values + t->value_offset;
            if (t->property == KF_PROPERTY_ORIENTATION) {
                normalize_orientation(sum, p->weights[i], value);
            } else {
                for (uint32_t k = 0; k < t->components; k++)
                    value[k] = kf_narrow_saturate(sum[k]);
                kf_property_clamp(t->property, t->components, value);
            }
        } /* else no active track: the target keeps its value */
        memset(sum, 0, t->components * sizeof *sum);
        p->weights[i] = 0.0;
    }
}

const float *kf_player_value(const kf_player *p, uint32_t target)
{
    if (!p || target >= p->anim->objects.count[KF_KIND_TARGET])
        return NULL;
    return p->values + p->anim->objects.targets[target].value_offset;
}

kf_result kf_player_set_value(kf_player *p, uint32_t target, const float *value)
{
    if (!p || !value || target >= p->anim->objects.count[KF_KIND_TARGET])
        return KF_ERROR_ARGUMENT;
    const kf_target *t = &p->anim->objects.targets[target];
    for (uint32_t i = 0; i < t->components; i++)
        if (!isfinite(value[i]))
            return KF_ERROR_ARGUMENT;
    memcpy(p->values + t->value_offset, value, t->components * sizeof *value);
    return KF_OK;
}

kf_controller *kf_player_controller(kf_player *p, uint32_t index)
{
    if (!p || index >= p->anim->objects.count[KF_KIND_CONTROLLER])
        return NULL;
    return &p->controllers[index];
}

const kf_controller *kf_player_controller_const(const kf_player *p, uint32_t index)
{
    if (!p || index >= p->anim->objects.count[KF_KIND_CONTROLLER])
        return NULL;
    return &p->controllers[index];
}

kf_follower_state *kf_player_follower(kf_player *p, uint32_t track)
{
    if (!p || track >= p->anim->objects.count[KF_KIND_TRACK])
        return NULL;
    return p->followers[track];
}

/* The follower time of `world_time` on track `track`, or 0 if the track
 * cannot take follower events. */
static int follower_time(const kf_player *p, uint32_t track, double world_time, double *time)
{
    if (!p || track >= p->anim->objects.count[KF_KIND_TRACK] || !p->followers[track])
        return 0;
    uint32_t c = p->anim->objects.tracks[track].controller;
    if (c == KF_NO_INDEX)
        return 0;
    *time = kf_controller_position(&p->controllers[c], world_time);
    return 1;
}

kf_result kf_player_follower_set_destination(kf_player *p, uint32_t track, const float *value,
                                             double world_time)
{
    double time;
    if (!follower_time(p, track, world_time, &time))
        return KF_ERROR_ARGUMENT;
    return kf_follower_set_destination(p->followers[track], value, time);
}

kf_result kf_player_follower_set_value(kf_player *p, uint32_t track, const float *value,
                                       double world_time)
{
    double time;
    if (!follower_time(p, track, world_time, &time))
        return KF_ERROR_ARGUMENT;
    return kf_follower_set_value(p->followers[track], value, time);
}
