/* SPDX-License-Identifier: MIT */
/*
 * kf_player.c - per-instance playback: controllers, segment cursors,
 * follower states, blending (docs/math.md §2). Everything a player changes
 * lives in its one allocation; the kf_anim is only read.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kf_private.h"
#include "kf_layout.h"
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
 *
 * Members whose sequences the animation's layout packed into one block
 * (kf_layout.h) are played four at a time by the block's kernel; the runs
 * hold the rest (a sequence played twice in one group, say).
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

enum {                       /* what follows the kernel; none for the usual single track */
       FINISH_BLEND = 1,     /* add w * sample to the target's sums */
       FINISH_WEIGHT = 2,    /* a single track: value = w * sample (when w != 1) */
       FINISH_NORMALIZE = 4, /* an orientation */
       FINISH_CLAMP = 8,     /* a property M3G clamps */
       FINISH_LATEST = 16    /* with FINISH_BLEND: a KF_BLEND_LATEST target's */
};

typedef struct play_member {
    const struct kf_sequence *sequence;
    float *out;      /* the target's value if this is its only track, else `sample` */
    uint16_t op;     /* OP_* (16 bits: a member is 40 bytes, not 48) */
    uint16_t finish; /* FINISH_* */
    uint32_t target;
    uint32_t controller;
    uint32_t track; /* the order among equals */
    uint32_t block; /* 1 + its play_block, or 0: played in a run */
    uint32_t slot;  /* its layout block * KF_LANES + lane, or KF_NO_INDEX */
} play_member;

/* Members [first, end) of one group with one kernel; `finish` is the union
 * of theirs. */
typedef struct play_run {
    uint32_t op, finish;
    uint32_t first, end;
} play_run;

/* Lane l of x outputs to `out`, in the same player's memory as x (whose
 * size kf_player_create keeps below 2^31 floats). */
static void set_lane_out(kf_lanes *x, uint32_t l, float *out)
{
    x->out[l] = (int32_t)(((char *)out - (char *)x) / (ptrdiff_t)sizeof(float));
}

/* A layout block in one group: each lane's finish and target (an unplayed
 * lane finishes nothing). Its kf_lanes are p->lanes at the same index. */
typedef struct play_block {
    uint32_t finish;                /* the union of the lanes' */
    uint32_t lane_finish[KF_LANES]; /* FINISH_* */
    uint32_t target[KF_LANES];
} play_block;

/* Blocks [first, end) of one group with one kernel. `normalize`: every
 * played lane's finish is FINISH_NORMALIZE (a joint's rotation). */
typedef struct play_block_run {
    kf_block_kernel kernel, hold; /* hold: key i, for holds */
    uint32_t first, end;
    uint32_t finish; /* the union of the blocks' */
    uint32_t normalize;
} play_block_run;

/* An interpolator track: its TimeSensor, animator and ease are the track's. */
typedef struct play_interpolator {
    const kf_track *track;
    float *out;      /* as play_member.out */
    uint32_t finish; /* FINISH_* */
    uint32_t cursor; /* the segment search hint */
} play_interpolator;

/* A follower track: the track's follower state runs on its controller's
 * position. */
typedef struct play_follower {
    const kf_track *track;
    float *out;      /* as play_member.out */
    uint32_t finish; /* FINISH_* */
    kf_follower_state *state;
    uint32_t sent; /* KF_BLEND_LATEST: it sent its initial value (since the reset) */
} play_follower;

/* KF_BLEND_LATEST: the value a target holds, when it was sent (-infinity:
 * none since the reset), and which track sent it (its start, index): kept
 * from update to update, as a field keeps its last event. */
typedef struct latest_sent {
    double at, start;
    uint32_t track;
} latest_sent;

typedef struct play_group {
    const struct kf_sequence *clock; /* any member: the times, count, duration, repeat */
    uint32_t controller;
    uint32_t first, end;             /* its runs */
    uint32_t cursor;                 /* the segment search hint */
    uint32_t block_first, block_end; /* its blocks */
} play_group;

struct kf_player {
    const kf_anim *anim;
    kf_allocator allocator;
    size_t size;
    struct kf_controller *controllers; /* the player's own copies */
    float *values;                     /* per target, at kf_target.value_offset */
    play_group *groups;
    play_run *runs;
    play_member *members;             /* in group and run order */
    play_interpolator *interpolators; /* interpolator tracks, in track order */
    play_follower *follows;           /* follower tracks, in track order */
    uint32_t group_count, run_count, member_count, interpolator_count;
    uint32_t follow_count;
    play_block *blocks;
    kf_lanes *lanes; /* per block */
    play_block_run *block_runs;
    uint32_t block_count, block_run_count;
    const kf_kernels *kernels;
    /* Scratch for kf_player_update, sized at creation. */
    /* Per blended target (the layout's blend slots); 0 between updates. */
    double *sums;        /* weighted sums, at the slot's blend_offset */
    double *weights;     /* total weight */
    latest_sent *latest; /* KF_BLEND_LATEST's */
    double now; /* the last update's world time, where it plays X3D tracks (-infinity: none) */
    double *positions;             /* per controller, this update */
    unsigned char *active;         /* per controller, this update */
    float *sample;                 /* one track's sample */
    float *lane_sample;            /* KF_LANES samples, `lane_width` apart */
    uint32_t lane_width;           /* components: of the widest target, at most
                                      KF_BLOCK_COMPONENTS (kf_layout.h) */
    kf_follower_state **followers; /* per track: its follower's state, or NULL;
                                          NULL for a player without followers */
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
    /* Played tracks by kind: each kind's arrays hold its tracks only. */
    /* By animator code: sequences, interpolators, followers. */
    size_t played[KFB_ANIMATOR_KIND_COUNT] = {0, 0, 0};
    size_t follower_tracks = 0; /* played or not: each has its state */
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        follower_tracks += t->animator_kind == KFB_ANIMATOR_FOLLOWER;
        if (t->controller != KF_NO_INDEX)
            played[t->animator_kind]++; /* a loaded track's code is known */
    }
    /* Groups: one per controller and clock at most; runs: the members no
     * block plays (repeated sequences, and those wider than a block). */
    size_t groups = played[KFB_ANIMATOR_SEQUENCE], runs = played[KFB_ANIMATOR_SEQUENCE];
    if (anim->layout) {
        size_t bound;
        if (kf_mul_size(anim->layout->clock_count,
                        o->count[KF_KIND_CONTROLLER] ? o->count[KF_KIND_CONTROLLER] : 1, &bound) &&
            bound < groups)
            groups = bound;
        if (anim->layout->run_tracks < runs)
            runs = anim->layout->run_tracks;
    }
    p->groups = carve(base, &at, groups, sizeof *p->groups, ok);
    p->runs = carve(base, &at, runs, sizeof *p->runs, ok);
    /* Members: those played by runs only (the plan sorts every member in
     * scratch of its own, make_plan). */
    p->members = carve(base, &at, runs, sizeof *p->members, ok);
    p->interpolators =
        carve(base, &at, played[KFB_ANIMATOR_INTERPOLATOR], sizeof *p->interpolators, ok);
    p->follows = carve(base, &at, played[KFB_ANIMATOR_FOLLOWER], sizeof *p->follows, ok);
    /* Before loading (the writer's check) every target counts as blended. */
    const struct kf_layout *L = anim->layout;
    p->sums = carve(base, &at, L ? L->blend_values : anim->value_count, sizeof *p->sums, ok);
    const size_t slots = L ? L->blend_count : o->count[KF_KIND_TARGET];
    p->weights = carve(base, &at, slots, sizeof *p->weights, ok);
    p->latest = carve(base, &at, slots, sizeof *p->latest, ok);
    p->positions = carve(base, &at, o->count[KF_KIND_CONTROLLER], sizeof *p->positions, ok);
    p->active = carve(base, &at, o->count[KF_KIND_CONTROLLER], 1, ok);
    p->sample = carve(base, &at, widest, sizeof *p->sample, ok);
    /* Blocks hold no sequence wider than KF_BLOCK_COMPONENTS: a wide one's
     * padding costs no memory here. */
    p->lane_width = widest < KF_BLOCK_COMPONENTS ? widest : KF_BLOCK_COMPONENTS;
    p->lane_sample = carve(base, &at, (size_t)p->lane_width * KF_LANES, sizeof *p->lane_sample, ok);
    /* Blocks: one per layout block and controller at most, one per track. */
    size_t blocks = o->count[KF_KIND_TRACK];
    if (anim->layout) {
        size_t bound;
        if (kf_mul_size(anim->layout->block_count,
                        o->count[KF_KIND_CONTROLLER] ? o->count[KF_KIND_CONTROLLER] : 1, &bound) &&
            bound < blocks)
            blocks = bound;
    } else if (!o->count[KF_KIND_SEQUENCE]) {
        blocks = 0;
    } /* else: objects not loaded yet (the writer's check), sized for the most */
    p->blocks = carve(base, &at, blocks, sizeof *p->blocks, ok);
    p->lanes = carve(base, &at, blocks, sizeof *p->lanes, ok);
    p->block_runs = carve(base, &at, blocks, sizeof *p->block_runs, ok);
    p->followers = follower_tracks
                       ? carve(base, &at, o->count[KF_KIND_TRACK], sizeof *p->followers, ok)
                       : NULL;
    /* Each follower track's state, in the same block. */
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        if (t->animator_kind != KFB_ANIMATOR_FOLLOWER) {
            if (base && p->followers)
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
    if ((a->block != 0) != (b->block != 0))
        return a->block ? 1 : -1;
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
           s->valid_count == t->valid_count && s->repeat == t->repeat && s->duration == t->duration;
}

/* Members by clock (as compare_members orders groups), then layout slot. */
static int compare_slots(const void *x, const void *y)
{
    const play_member *a = x, *b = y;
    if (!same_clock(a, b))
        return compare_members(x, y);
    if (a->slot != b->slot)
        return a->slot < b->slot ? -1 : 1;
    return (a->track > b->track) - (a->track < b->track);
}

static uint32_t kernel(const struct kf_sequence *s)
{
    switch (s->interpolation) {
    case KFB_INTERP_STEP:
        return OP_STEP;
    case KFB_INTERP_LINEAR:
        return s->components == 3 ? OP_LINEAR3 : OP_LINEAR;
    case KFB_INTERP_SPLINE:
        return s->components == 3 ? OP_SPLINE3 : OP_SPLINE;
    case KFB_INTERP_HERMITE:
        return s->components == 3 ? OP_SPLINE3 : OP_SPLINE;
    case KFB_INTERP_SLERP:
        return OP_SLERP;
    default:
        return OP_SQUAD;
    }
}

/* What a member does after its kernel (FINISH_*), from whether several
 * tracks play its target (the layout's blend slot). */
static uint32_t finish_of(const kf_player *p, uint32_t target)
{
    const kf_target *t = &p->anim->objects.targets[target];
    const struct kf_layout *L = p->anim->layout;
    if (L->blend_of && L->blend_of[target] != KF_NO_INDEX)
        return t->blend == KF_BLEND_LATEST ? FINISH_BLEND | FINISH_LATEST : FINISH_BLEND;
    uint32_t finish = kf_property_clamps(t->property) ? FINISH_CLAMP : 0;
    /* Slerp and squad results are unit quaternions only as far as their keys
     * are: across nearly opposite keys they are not (M3G does not flip), so
     * orientations are normalized whatever their interpolation. */
    finish |= t->property == KF_PROPERTY_ORIENTATION ? FINISH_NORMALIZE : FINISH_WEIGHT;
    return finish;
}

/* Gives the members (sorted by clock) their lanes in the layout's blocks,
 * one play_block per block and group; returns how many got one. */
static uint32_t assign_blocks(kf_player *p, uint32_t n)
{
    const struct kf_layout *L = p->anim->layout;
    uint32_t group_start = 0, assigned = 0;
    p->block_count = 0;
    if (!L)
        return 0;
    for (uint32_t m = 0; m < n; m++) {
        play_member *mb = &p->members[m];
        if (m > 0 && !same_clock(&p->members[m - 1], mb))
            group_start = p->block_count;
        const uint32_t si = (uint32_t)(mb->sequence - p->anim->objects.sequences);
        const uint32_t bi = L->block_of[si], lane = L->lane_of[si];
        if (bi == KF_NO_INDEX)
            continue;
        const kf_block *b = &L->blocks[bi];
        /* Sorted by slot: the block is the group's last one, or new. */
        uint32_t k = p->block_count;
        if (k > group_start && p->lanes[k - 1].block == b)
            k--;
        play_block *pb = &p->blocks[k];
        kf_lanes *lanes = &p->lanes[k];
        if (k == p->block_count) {
            *pb = (play_block){0, {0}, {0}};
            lanes->data = b->data;
            lanes->block = b;
            for (uint32_t l = 0; l < KF_LANES; l++) {
                pb->target[l] = KF_NO_INDEX;
                set_lane_out(lanes, l, p->lane_sample + (size_t)l * p->lane_width);
            }
            p->block_count++;
        } else if (pb->target[lane] != KF_NO_INDEX) {
            continue; /* the sequence is played twice here: a run plays this one */
        }
        pb->target[lane] = mb->target;
        pb->lane_finish[lane] = mb->finish;
        pb->finish |= mb->finish;
        if (!(mb->finish & FINISH_BLEND))
            set_lane_out(lanes, lane, mb->out);
        mb->block = k + 1;
        assigned++;
    }
    return assigned;
}

static void make_plan(kf_player *p, play_member *members)
{
    const kf_objects *o = &p->anim->objects;
    /* Every member is sorted in `members`, scratch; the player keeps the
     * runs' ones only (below). */
    play_member *kept = p->members;
    p->members = members;
    /* Members. */
    uint32_t n = 0, x = 0, f = 0;
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        if (t->controller == KF_NO_INDEX)
            continue; /* plays nothing */
        if (t->animator_kind == KFB_ANIMATOR_INTERPOLATOR) {
            p->interpolators[x++] = (play_interpolator){t, p->sample, 0, 0};
            continue;
        }
        if (t->animator_kind == KFB_ANIMATOR_FOLLOWER) {
            p->follows[f++] = (play_follower){t, p->sample, 0, p->followers[i], 0};
            continue;
        }
        const struct kf_sequence *s = &o->sequences[t->animator];
        const struct kf_layout *L = p->anim->layout;
        const uint32_t si = t->animator, bi = L ? L->block_of[si] : KF_NO_INDEX;
        const uint32_t slot = bi == KF_NO_INDEX ? KF_NO_INDEX : bi * KF_LANES + L->lane_of[si];
        p->members[n++] = (play_member){
            s, p->sample, (uint16_t)kernel(s), 0, t->target, t->controller, i, 0, slot};
    }
    for (uint32_t m = 0; m < n; m++) {
        play_member *mb = &p->members[m];
        const kf_target *t = &o->targets[mb->target];
        mb->finish = (uint16_t)finish_of(p, mb->target);
        if (!(mb->finish & FINISH_BLEND))
            mb->out = p->values + t->value_offset;
    }
    for (uint32_t m = 0; m < x; m++) {
        play_interpolator *pi = &p->interpolators[m];
        const kf_target *t = &o->targets[pi->track->target];
        pi->finish = finish_of(p, pi->track->target);
        if (!(pi->finish & FINISH_BLEND))
            pi->out = p->values + t->value_offset;
    }
    p->interpolator_count = x;
    for (uint32_t m = 0; m < f; m++) {
        play_follower *pf = &p->follows[m];
        const kf_target *t = &o->targets[pf->track->target];
        pf->finish = finish_of(p, pf->track->target);
        if (!(pf->finish & FINISH_BLEND))
            pf->out = p->values + t->value_offset;
    }
    p->follow_count = f;
    /* By clock and layout slot, so that a block's members are neighbours,
     * then in run order. */
    if (n > 1)
        qsort(p->members, n, sizeof *p->members, compare_slots);
    assign_blocks(p, n);
    if (n > 1)
        qsort(p->members, n, sizeof *p->members, compare_members);
    p->member_count = n;

    p->group_count = p->run_count = 0;
    for (uint32_t m = 0; m < n; m++) {
        const play_member *mb = &p->members[m];
        const int new_group = m == 0 || !same_clock(&p->members[m - 1], mb);
        if (new_group)
            p->groups[p->group_count++] = (play_group){
                mb->sequence, mb->controller, p->run_count, p->run_count, 0, UINT32_MAX, 0};
        if (mb->block) {
            play_group *g = &p->groups[p->group_count - 1];
            if (mb->block - 1 < g->block_first)
                g->block_first = mb->block - 1;
            if (mb->block > g->block_end)
                g->block_end = mb->block;
            continue;
        }
        if (new_group || p->members[m - 1].block || mb->op != p->members[m - 1].op)
            p->runs[p->run_count++] = (play_run){mb->op, 0, m, m};
        play_run *r = &p->runs[p->run_count - 1];
        r->end = m + 1;
        r->finish |= mb->finish;
        p->groups[p->group_count - 1].end = p->run_count;
    }
    /* Each group's blocks as runs of one kernel. */
    p->block_run_count = 0;
    for (uint32_t gi = 0; gi < p->group_count; gi++) {
        play_group *g = &p->groups[gi];
        const uint32_t first = g->block_first, end = g->block_end;
        g->block_first = g->block_end = p->block_run_count;
        for (uint32_t k = first; k < end; k++) {
            const kf_block *b = p->lanes[k].block;
            const kf_block_kernel run = kf_block_kernel_of(p->kernels, b);
            play_block_run *r = &p->block_runs[p->block_run_count - 1];
            /* A block with blended lanes is a run of its own: those lanes'
             * samples (lane_sample) are summed before the next block's. So
             * is a block of other components than the one before: a kernel
             * for any count reads it from a job's first block (AVX2 plays
             * two blocks a job). And a run's blocks share their hold too (a
             * set may play two widths of q with one kernel, and hold them
             * with two). */
            if (k == first || r->kernel != run || r->hold != kf_block_hold_of(p->kernels, b) ||
                ((r->finish | p->blocks[k].finish) & FINISH_BLEND) ||
                b->components != p->lanes[k - 1].block->components) {
                r = &p->block_runs[p->block_run_count++];
                *r = (play_block_run){run, kf_block_hold_of(p->kernels, b), k, k, 0, 1};
            }
            r->end = k + 1;
            r->finish |= p->blocks[k].finish;
            r->normalize = r->finish == FINISH_NORMALIZE;
        }
        g->block_end = p->block_run_count;
    }
    /* The runs' members, in run order, are what updates read. */
    uint32_t k = 0;
    for (uint32_t ri = 0; ri < p->run_count; ri++) {
        play_run *r = &p->runs[ri];
        const uint32_t first = k;
        for (uint32_t m = r->first; m < r->end; m++)
            kept[k++] = members[m];
        r->first = first;
        r->end = k;
    }
    p->members = kept;
    p->member_count = k;
}

/* ---- the memory bound (kf.h) ------------------------------------------- */

/* The most any player holds (kf.h): the lanes' outputs are int32 offsets
 * in floats within the player (kf_lanes). (Where size_t has 32 bits the
 * product wraps to 4 GiB less 4 bytes, which is the address space.) */
#define KF_PLAYER_MOST_BYTES ((size_t)INT32_MAX * sizeof(float))

/* The bound, and at most KF_PLAYER_MOST_BYTES. */
static size_t player_bound(const kf_anim *anim)
{
    const size_t most = (size_t)KF_PLAYER_MOST_BYTES;
    size_t scaled;
    if (!kf_mul_size(anim->file_bytes, KF_PLAYER_BYTES_PER_FILE_BYTE, &scaled) ||
        scaled > most - KF_PLAYER_FIXED_BYTES)
        return most;
    return scaled + KF_PLAYER_FIXED_BYTES;
}

/* Played sequence tracks: the members a plan sorts (make_plan's scratch). */
static size_t plan_members(const kf_anim *anim)
{
    const kf_objects *o = &anim->objects;
    size_t n = 0;
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++)
        n += o->tracks[i].controller != KF_NO_INDEX &&
             o->tracks[i].animator_kind == KFB_ANIMATOR_SEQUENCE;
    return n;
}

static size_t measure(const kf_anim *anim, uint32_t capacity)
{
    kf_player probe;
    int ok;
    size_t size = layout(anim, capacity, &probe, NULL, &ok);
    return ok ? size : SIZE_MAX;
}

/* What creating a player takes at once: the player and its plan's
 * scratch, which the bound covers. */
static size_t measure_creating(const kf_anim *anim, uint32_t capacity)
{
    const size_t size = measure(anim, capacity), scratch = plan_members(anim) * sizeof(play_member);
    return size > SIZE_MAX - scratch ? SIZE_MAX : size + scratch;
}

/* The chaser capacity of a player of `anim`: the largest, up to
 * KF_FOLLOWER_DEFAULT_CAPACITY, that keeps the player within the bound;
 * 0 if not even one transition per chaser fits. A player's size grows with
 * the capacity, so a binary search finds it; most fit at the default (a
 * player without chasers is one size at any), which one measure tells. */
static uint32_t player_capacity(const kf_anim *anim)
{
    const size_t bound = player_bound(anim);
    if (measure_creating(anim, KF_FOLLOWER_DEFAULT_CAPACITY) <= bound)
        return KF_FOLLOWER_DEFAULT_CAPACITY;
    if (measure_creating(anim, 1) > bound)
        return 0;
    uint32_t lo = 1, hi = KF_FOLLOWER_DEFAULT_CAPACITY - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (measure_creating(anim, mid) <= bound)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

kf_result kf_objects_player_size(const kf_objects *o, size_t file_bytes, size_t *bytes)
{
    kf_anim anim;
    memset(&anim, 0, sizeof anim);
    anim.objects = *o;
    anim.file_bytes = file_bytes;
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
    return kf_player_create_with(anim, allocator, kf_kernels_best(), out);
}

kf_result kf_player_create_with(const kf_anim *anim, const kf_allocator *allocator,
                                const kf_kernels *kernels, kf_player **out)
{
    if (!out)
        return KF_ERROR_ARGUMENT;
    *out = NULL;
    if (!anim || !anim->layout) /* every loaded anim has its layout */
        return KF_ERROR_ARGUMENT;
    kf_allocator a;
    if (kf_allocator_take(allocator, &a, NULL) != KF_OK)
        return KF_ERROR_ARGUMENT;
    kf_player probe;
    int ok;
    const uint32_t capacity = player_capacity(anim);
    if (!capacity)
        return KF_ERROR_LIMIT;
    size_t size = layout(anim, capacity, &probe, NULL, &ok);
    if (!ok)
        return KF_ERROR_OUT_OF_MEMORY;
    unsigned char *base = kf_alloc(&a, size);
    if (!base)
        return KF_ERROR_OUT_OF_MEMORY;
    memset(base, 0, size);
    /* The plan sorts every member in scratch, given back before returning. */
    const size_t members = plan_members(anim);
    play_member *scratch = members ? kf_alloc(&a, members * sizeof *scratch) : NULL;
    if (members && !scratch) {
        kf_free(&a, base, size);
        return KF_ERROR_OUT_OF_MEMORY;
    }
    kf_player *p = (kf_player *)base;
    layout(anim, capacity, p, base, &ok);
    p->anim = anim;
    p->allocator = a;
    p->size = size;
    p->kernels = kernels;
    make_plan(p, scratch);
    kf_free(&a, scratch, members * sizeof *scratch);
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

/* Every KF_BLEND_LATEST target as if nothing had been sent to it. */
static void forget_latest(kf_player *p)
{
    const struct kf_layout *L = p->anim->layout;
    for (uint32_t i = 0; L && i < L->blend_count; i++)
        p->latest[i].at = -INFINITY;
}

void kf_player_reset(kf_player *p)
{
    if (!p)
        return;
    const kf_objects *o = &p->anim->objects;
    if (o->count[KF_KIND_CONTROLLER])
        memcpy(p->controllers, o->controllers,
               o->count[KF_KIND_CONTROLLER] * sizeof *p->controllers);
    for (uint32_t i = 0; i < p->group_count; i++)
        p->groups[i].cursor = 0;
    for (uint32_t i = 0; i < p->interpolator_count; i++)
        p->interpolators[i].cursor = 0;
    for (uint32_t i = 0; p->followers && i < o->count[KF_KIND_TRACK]; i++)
        if (p->followers[i])
            kf_follower_reset(p->followers[i], 0.0);
    for (uint32_t i = 0; i < p->follow_count; i++)
        p->follows[i].sent = 0;
    forget_latest(p);
    p->now = -INFINITY;
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++) {
        const kf_target *t = &o->targets[i];
        kf_property_rest_value((kf_property)t->property, t->components,
                               p->values + t->value_offset);
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

/* kf_normalize_single (kf_layout.h): the block kernels normalize the
 * same way. */
KF_KERNEL void normalize_single(float *v)
{
    kf_normalize_single(v);
}

/* After the kernel, for the members that need more than it did (`finish`
 * holds FINISH_WEIGHT only where w != 1): what finalizing would do for a
 * target of one track, in place, or the blend's sums. */
static void finish(kf_player *p, uint32_t target, float *v, uint32_t finish, double w)
{
    const kf_target *t = &p->anim->objects.targets[target];
    if (finish & FINISH_BLEND) {
        const struct kf_layout *L = p->anim->layout;
        const uint32_t slot = L->blend_of[target];
        double *sum = p->sums + L->blend_offset[slot];
        for (uint32_t k = 0; k < t->components; k++)
            sum[k] += w * v[k];
        p->weights[slot] += w;
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
#define PLAY_RUN(kernel_call, unit)                                                                \
    do {                                                                                           \
        const play_member *m = p->members + r->first, *end = p->members + r->end;                  \
        if (r->finish & mask) {                                                                    \
            for (; m < end; m++) {                                                                 \
                const struct kf_sequence *s = m->sequence;                                         \
                kernel_call;                                                                       \
                if (m->finish == FINISH_NORMALIZE) { /* the usual orientation */                   \
                    if (!(unit))                                                                   \
                        normalize_single(m->out);                                                  \
                } else if (m->finish & mask) {                                                     \
                    finish(p, m->target, m->out, m->finish &mask, w);                              \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (; m < end; m++) {                                                                 \
                const struct kf_sequence *s = m->sequence;                                         \
                kernel_call;                                                                       \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Whether lane l of block b's result on the segment from key i is unit: a
 * SLERP lane along a polynomial arc, which the kernels found from the
 * keys' dot product as this does (kf_slerp_played). */
static int block_unit(const kf_block *b, uint32_t i, uint32_t l)
{
    if (b->interpolation != KFB_INTERP_SLERP)
        return 0;
    const struct kf_sequence s = kf_block_lane(b, l);
    const uint32_t j = i + 1 < b->key_count ? i + 1 : 0;
    float ba[4] = {0}, bb[4] = {0};
    return kf_slerp_case(kf_quat_dot(kf_key_floats(&s, s.values, i, ba),
                                     kf_key_floats(&s, s.values, j, bb))) == KF_SLERP_ARC;
}

/* The lanes of block k that need more than its kernel did; `from` is
 * 1 + the segment's start key when the kernel's results may be unit, or 0. */
KF_NOINLINE static void finish_block(kf_player *p, uint32_t k, uint32_t from, uint32_t mask,
                                     double w)
{
    const play_block *pb = &p->blocks[k];
    const kf_lanes *lanes = &p->lanes[k];
    for (uint32_t l = 0; l < KF_LANES; l++) {
        const uint32_t f = pb->lane_finish[l] & mask;
        if (f == FINISH_NORMALIZE) {
            if (!(from && block_unit(lanes->block, from - 1, l)))
                normalize_single(kf_lanes_out(lanes, l));
        } else if (f) {
            finish(p, pb->target[l], kf_lanes_out(lanes, l), f, w);
        }
    }
}

/* The members of g that no block plays (repeated sequences, those wider
 * than a block), at segment seg: apart from play_group_at, so that a
 * group whose every member a block plays runs through compact code. */
KF_NOINLINE static void play_runs(kf_player *p, const play_group *g, const kf_segment *segment,
                                  uint32_t mask, double w)
{
    const kf_segment seg = *segment;
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
        case OP_SLERP: {
            /* Along a polynomial arc (0 < theta <= pi/2) between unit keys
             * the result is unit; the linear and general arcs are not. */
            int unit = 0;
            PLAY_RUN(unit = kf_slerp_key(s, i, j, u, m->out), unit);
            break;
        }
        default:
            PLAY_RUN(kf_squad(s, i, j, seg.u, m->out), 0);
            break;
        }
    }
}

/* Every member of g at the segment its clock is at. */
KF_HOT static void play_group_at(kf_player *p, play_group *g, double position, double w)
{
    kf_segment seg;
    kf_locate(g->clock, position, &g->cursor, &seg);
    /* FINISH_WEIGHT applies only when the weight changes something. */
    const uint32_t mask = w != 1.0 ? ~0u : ~(uint32_t)FINISH_WEIGHT;
    const float u = (float)seg.u;
    for (const play_block_run *r = p->block_runs + g->block_first,
                              *rend = p->block_runs + g->block_end;
         r < rend; r++) {
        const kf_block_kernel run = seg.hold ? r->hold : r->kernel;
        run(p->lanes + r->first, r->end - r->first, seg.i, seg.j, u, seg.u, (int)r->normalize);
        /* A rotation run is done: its kernel normalized. */
        if ((r->finish & mask) && !r->normalize)
            for (uint32_t k = r->first; k < r->end; k++)
                if (p->blocks[k].finish & mask)
                    finish_block(p, k, seg.hold ? 0 : seg.i + 1, mask, w);
    }
    if (g->first != g->end)
        play_runs(p, g, &seg, mask, w);
}

/* KF_BLEND_LATEST: a target's value, sent by track `track` (weighted
 * sample `v`) at world time `at`, its controller started at `start`. It
 * replaces the value the target was last sent where it was sent later; at
 * the same time, where its sensor started later (the one a browser
 * processes last), then where it is the later track. */
static void latest(kf_player *p, uint32_t target, const float *v, double w, double at, double start,
                   uint32_t track)
{
    const struct kf_layout *L = p->anim->layout;
    const uint32_t slot = L->blend_of[target];
    latest_sent *held = &p->latest[slot];
    if (at < held->at ||
        (at == held->at && (start < held->start || (start == held->start && track < held->track))))
        return;
    double *sum = p->sums + L->blend_offset[slot];
    for (uint32_t k = 0; k < p->anim->objects.targets[target].components; k++)
        sum[k] = w * v[k];
    p->weights[slot] = w;
    *held = (latest_sent){at, start, track};
}

/* The world time at which controller c's position is 0: when its sensor
 * (or follower) started. */
static double started(const kf_controller *c)
{
    return c->speed != 0.0 ? c->ref_world - c->ref_sequence / c->speed : c->ref_world;
}

/* When an interpolator track's TimeSensor sent the value it plays, at world
 * time `now`, its position `pos` and its controller's `speed`: while its
 * fraction runs (position in [0, cycle], or from 0 on looping), now; past
 * its end (or, played backwards, its start), when it got there (its last
 * event); paused (speed 0) or before its start, it sends nothing
 * (-infinity). */
static double last_event(double now, double pos, double speed, double cycle, int loop)
{
    if (speed == 0.0)
        return -INFINITY;
    const double end = loop ? INFINITY : cycle;
    if (pos >= 0.0 && pos <= end)
        return now;
    const double edge = pos < 0.0 ? 0.0 : end;
    const double since = (pos - edge) / speed; /* world seconds */
    return since >= 0.0 ? now - since : -INFINITY;
}

static void play_interpolators(kf_player *p)
{
    const kf_objects *o = &p->anim->objects;
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
        if (pi->finish & FINISH_LATEST) {
            const kf_controller *c = &p->controllers[t->controller];
            const double at = last_event(p->now, p->positions[t->controller], c->speed,
                                         t->cycle_interval, t->loop);
            if (at > -INFINITY) /* (and not NaN) */
                latest(p, t->target, pi->out, w, at, started(c), (uint32_t)(t - o->tracks));
            continue;
        }
        const uint32_t mask = w != 1.0 ? ~0u : ~(uint32_t)FINISH_WEIGHT;
        if (pi->finish & mask)
            finish(p, t->target, pi->out, pi->finish & mask, w);
    }
}

static void play_followers(kf_player *p)
{
    const kf_objects *o = &p->anim->objects;
    for (uint32_t fi = 0; fi < p->follow_count; fi++) {
        play_follower *pf = &p->follows[fi];
        const kf_track *t = pf->track;
        if (!p->active[t->controller])
            continue; /* the follower waits; its target keeps its value */
        /* The follower's clock is the controller's position. */
        const int moving = (pf->finish & FINISH_LATEST) && kf_follower_is_active(pf->state);
        kf_follower_update(pf->state, p->positions[t->controller]);
        memcpy(pf->out, kf_follower_value(pf->state),
               o->targets[t->target].components * sizeof *pf->out);
        const double w = p->controllers[t->controller].weight;
        if (pf->finish & FINISH_LATEST) {
            /* A follower sends while it moves (and the value it stops at),
             * and once, when it starts, the value it starts at. At the same
             * time as a sensor's chain, before it (start -infinity), as a
             * browser's followers do. */
            const uint32_t track = (uint32_t)(t - o->tracks);
            if (moving || kf_follower_is_active(pf->state))
                latest(p, t->target, pf->out, w, p->now, -INFINITY, track);
            else if (!pf->sent)
                latest(p, t->target, pf->out, w, started(&p->controllers[t->controller]), -INFINITY,
                       track);
            pf->sent = 1;
            continue;
        }
        const uint32_t mask = w != 1.0 ? ~0u : ~(uint32_t)FINISH_WEIGHT;
        if (pf->finish & mask)
            finish(p, t->target, pf->out, pf->finish & mask, w);
    }
}

/* The interpolator and follower tracks at `world_time`, and (finish_blends)
 * the blends: apart from kf_player_update, so that a clip of sequences
 * alone (a skeleton's) runs through compact code. Time run back: what a
 * KF_BLEND_LATEST target was last sent is not known then. */
KF_NOINLINE static void play_x3d_tracks(kf_player *p, double world_time)
{
    if (world_time < p->now)
        forget_latest(p);
    p->now = world_time;
    if (p->interpolator_count)
        play_interpolators(p);
    if (p->follow_count)
        play_followers(p);
}

KF_NOINLINE static void finish_blends(kf_player *p)
{
    const kf_objects *o = &p->anim->objects;
    const struct kf_layout *L = p->anim->layout;
    for (uint32_t bi = 0; bi < L->blend_count; bi++) {
        const kf_target *t = &o->targets[L->blend_target[bi]];
        double *sum = p->sums + L->blend_offset[bi];
        if (p->weights[bi] > 0.0) {
            float *value = p->values + t->value_offset;
            if (t->property == KF_PROPERTY_ORIENTATION) {
                normalize_orientation(sum, p->weights[bi], value);
            } else {
                for (uint32_t k = 0; k < t->components; k++)
                    value[k] = kf_narrow_saturate(sum[k]);
                kf_property_clamp(t->property, t->components, value);
            }
        } /* else no active track: the target keeps its value */
        memset(sum, 0, t->components * sizeof *sum);
        p->weights[bi] = 0.0;
    }
}

KF_HOT void kf_player_update(kf_player *p, double world_time)
{
    if (!p)
        return;
    const uint32_t controllers = p->anim->objects.count[KF_KIND_CONTROLLER];
    for (uint32_t i = 0; i < controllers; i++) {
        const kf_controller *c = &p->controllers[i];
        p->active[i] = kf_controller_active_at(c, world_time) && c->weight > 0.0;
        p->positions[i] = kf_controller_position_at(c, world_time);
    }
    for (uint32_t gi = 0; gi < p->group_count; gi++) {
        play_group *g = &p->groups[gi];
        if (p->active[g->controller]) /* else its targets keep their values */
            play_group_at(p, g, p->positions[g->controller], p->controllers[g->controller].weight);
    }
    if (p->interpolator_count || p->follow_count)
        play_x3d_tracks(p, world_time);
    if (p->anim->layout->blend_count)
        finish_blends(p);
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
    if (!p || !p->followers || track >= p->anim->objects.count[KF_KIND_TRACK])
        return NULL;
    return p->followers[track];
}

/* The follower time of `world_time` on track `track`, or 0 if the track
 * cannot take follower events. */
static int follower_time(const kf_player *p, uint32_t track, double world_time, double *time)
{
    if (!p || !p->followers || track >= p->anim->objects.count[KF_KIND_TRACK] ||
        !p->followers[track])
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
