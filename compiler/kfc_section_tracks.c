/* SPDX-License-Identifier: MIT */
/* The `tracks:` section: a list of AnimationTracks; an interpolator's track
 * may give the TimeSensor that drives it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_grow.h"
#include "kfc_schema.h"
#include "kfc_section.h"
#include "kfc_suggest.h"

enum {
    F_ANIMATOR,
    F_CONTROLLER,
    F_TARGET,
    F_COMPONENTS,
    F_CYCLE_INTERVAL, /* the TimeSensor of an interpolator track */
    F_LOOP,
    F_EASE,
    F_BLEND, /* the target's */
    F_COUNT
};

/* What a track is read into. */
typedef struct track_in {
    kf_track_desc desc;
    kf_time_sensor_desc sensor;
    int timed; /* a TimeSensor field is written */
    int blend; /* KF_BLEND_* */
} track_in;

/* What a track is written from. */
typedef struct track_out {
    kf_track_info t;
    kf_target_info target;
    const char *animator;
    const char *controller; /* NULL: none */
    const char *ease;       /* NULL: none */
    kf_blend blend;         /* the target's */
} track_out;

static kfc_status read_animator(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_string(value, &((track_in *)entry->state)->desc.animator, src->diag);
}

static kfc_status read_controller(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_string(value, &((track_in *)entry->state)->desc.controller, src->diag);
}

static kfc_status read_target(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_string(value, &((track_in *)entry->state)->desc.target, src->diag);
}

static kfc_status read_components(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_uint(value, 1, UINT32_MAX, &((track_in *)entry->state)->desc.components,
                        src->diag);
}

static kfc_status read_cycle_interval(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    track_in *in = entry->state;
    in->timed = 1;
    return kfc_get_number(value, &in->sensor.cycle_interval, src->diag);
}

static kfc_status read_loop(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    track_in *in = entry->state;
    in->timed = 1;
    return kfc_get_bool(value, &in->sensor.loop, src->diag);
}

static kfc_status read_ease(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    track_in *in = entry->state;
    in->timed = 1;
    return kfc_get_string(value, &in->sensor.ease, src->diag);
}

static const char *blend_name(int index)
{
    return index == KF_BLEND_SUM ? "sum" : index == KF_BLEND_LATEST ? "latest" : NULL;
}

static kfc_status read_blend(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_enum(value, blend_name, "blend", NULL, &((track_in *)entry->state)->blend,
                        src->diag);
}

static kfc_status emit_animator(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, ((const track_out *)out)->animator);
}

static int controller_written(const void *out)
{
    return ((const track_out *)out)->controller != NULL;
}

static kfc_status emit_controller(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, ((const track_out *)out)->controller);
}

static kfc_status emit_target(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, ((const track_out *)out)->target.name);
}

/* A built-in property takes its count from the animator. */
static int components_written(const void *out)
{
    return ((const track_out *)out)->target.property == KF_PROPERTY_CUSTOM;
}

static kfc_status emit_components(kfc_emitter *e, const void *out)
{
    return kfc_emit_uint(e, ((const track_out *)out)->target.components);
}

/* An interpolator track's TimeSensor, fields at their default left out (the
 * cycle interval is stored as the double it is: formats/kfb.md, 2.6). */
static int timed(const track_out *o)
{
    return o->t.animator_kind == KF_KIND_INTERPOLATOR;
}

static int cycle_interval_written(const void *out)
{
    return timed(out) && ((const track_out *)out)->t.cycle_interval != 1;
}

static kfc_status emit_cycle_interval(kfc_emitter *e, const void *out)
{
    return kfc_emit_double(e, ((const track_out *)out)->t.cycle_interval);
}

static int loop_written(const void *out)
{
    return timed(out) && ((const track_out *)out)->t.loop;
}

static kfc_status emit_true(kfc_emitter *e, const void *out)
{
    (void)out;
    return kfc_emit_bool(e, 1);
}

static int ease_written(const void *out)
{
    return timed(out) && ((const track_out *)out)->ease != NULL;
}

static kfc_status emit_ease(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, ((const track_out *)out)->ease);
}

/* Written on every track of a target that blends latest. */
static int blend_written(const void *out)
{
    return ((const track_out *)out)->blend == KF_BLEND_LATEST;
}

static kfc_status emit_blend(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, blend_name(((const track_out *)out)->blend));
}

_Static_assert(F_COUNT <= KFC_FIELDS_MAX, "raise KFC_FIELDS_MAX");

static const kfc_field fields[F_COUNT] = {
    /* key, required, pass, builder field, entry field, read, written, emit */
    [F_ANIMATOR] = {"animator", 1, 0, KF_FIELD_ANIMATOR, KF_FIELD_NONE, read_animator, NULL,
                    emit_animator},
    [F_CONTROLLER] = {"controller", 0, 0, KF_FIELD_CONTROLLER, KF_FIELD_NONE, read_controller,
                      controller_written, emit_controller},
    [F_TARGET] = {"target", 1, 0, KF_FIELD_TARGET, KF_FIELD_NONE, read_target, NULL, emit_target},
    [F_COMPONENTS] = {"components", 0, 0, KF_FIELD_COMPONENTS, KF_FIELD_NONE, read_components,
                      components_written, emit_components},
    [F_CYCLE_INTERVAL] = {"cycleInterval", 0, 0, KF_FIELD_CYCLE_INTERVAL, KF_FIELD_NONE,
                          read_cycle_interval, cycle_interval_written, emit_cycle_interval},
    [F_LOOP] = {"loop", 0, 0, KF_FIELD_LOOP, KF_FIELD_NONE, read_loop, loop_written, emit_true},
    [F_EASE] = {"ease", 0, 0, KF_FIELD_EASE, KF_FIELD_NONE, read_ease, ease_written, emit_ease},
    [F_BLEND] = {"blend", 0, 0, KF_FIELD_BLEND, KF_FIELD_NONE, read_blend, blend_written,
                 emit_blend},
};

/* The errors that fall back to another field when theirs is absent. */
static const kfc_node *error_node(const kfc_entry *entry, const kf_error *error)
{
    const kfc_node *const *f = entry->fields;
    switch (error->field) {
    case KF_FIELD_COMPONENTS:
        /* Without an explicit count, the target's property implies it. */
        return f[F_COMPONENTS] ? f[F_COMPONENTS] : f[F_TARGET];
    case KF_FIELD_CYCLE_INTERVAL:
    case KF_FIELD_LOOP:
    case KF_FIELD_EASE: {
        /* The field named, else (a TimeSensor on a sequence) the first
         * TimeSensor field written. */
        const kfc_node *at = f[error->field == KF_FIELD_LOOP   ? F_LOOP
                               : error->field == KF_FIELD_EASE ? F_EASE
                                                               : F_CYCLE_INTERVAL];
        for (int i = F_CYCLE_INTERVAL; !at && i <= F_EASE; i++)
            at = f[i];
        return at;
    }
    default:
        return NULL;
    }
}

/* Unknown names that get the name meant, in a run: finding it goes through
 * every name the file defines, so with no limit on the errors (--max-errors
 * 0) a file of N tracks naming none of N animators would cost N * N; the
 * first ones, as many as the default --max-errors reports, keep the time in
 * proportion to the file's size and change nothing where errors stop
 * there. */
#define NAMES_SUGGESTED 20

/* "no animator named 'x'", with the name meant: the closest, or when the
 * file defines few, all of them ("the only animator is 'a'", "the
 * animators are 'a' and 'b'"). `what` is singular, `plural` its plural. */
static kfc_status no_such_name(kfc_source *src, const kfc_node *at, const char *what,
                               const char *plural, kfc_name_kind kind, int ease_only)
{
    kfc_suggest sg;
    kfc_suggest_begin(&sg, src->diag, at->as.text, at->count);
    const int controller = kind == KFC_NAME_CONTROLLER;
    const kfc_name *few[4];
    size_t candidates = 0;
    const size_t searched = src->unknown_names++ < NAMES_SUGGESTED ? src->names.count : 0;
    for (size_t i = 0; i < searched; i++) {
        const kfc_name *n = &src->names.names[i];
        if ((n->kind == KFC_NAME_CONTROLLER) == controller && (!ease_only || n->ease)) {
            kfc_suggest_offer(&sg, n->text, n->length);
            if (candidates < 4)
                few[candidates] = n;
            candidates++;
        }
    }
    char quoted[KFC_QUOTE_SIZE], more[300];
    kfc_suggest_text(&sg, more, sizeof more);
    if (!more[0] && candidates > 0 && candidates <= 4) {
        size_t m = candidates == 1 ? (size_t)snprintf(more, sizeof more, " (the only %s is ", what)
                                   : (size_t)snprintf(more, sizeof more, " (the %s are ", plural);
        for (size_t i = 0; i < candidates && m < sizeof more; i++)
            m += (size_t)snprintf(more + m, sizeof more - m, "%s%s",
                                  i == 0                ? ""
                                  : i + 1 == candidates ? " and "
                                                        : ", ",
                                  kfc_quote(quoted, few[i]->text, few[i]->length));
        if (m < sizeof more)
            snprintf(more + m, sizeof more - m, ")");
    }
    /* No name at all (an empty field, YAML's null): most likely meant as
     * none, which only a controller may be, by leaving the field out. */
    const int null = at->plain && ((at->count == 1 && at->as.text[0] == '~') ||
                                   (at->count == 4 && (memcmp(at->as.text, "null", 4) == 0 ||
                                                       memcmp(at->as.text, "Null", 4) == 0 ||
                                                       memcmp(at->as.text, "NULL", 4) == 0)));
    if (null || at->count == 0)
        return kfc_recover(src->diag,
                           kfc_fail(src->diag, KFC_INVALID, at->mark, "%s is no %s's name%s%s",
                                    null ? "YAML's null" : "an empty value", what,
                                    controller ? ": leave the field out for a track no "
                                                 "controller plays"
                                               : "",
                                    more));
    return kfc_recover(src->diag, kfc_fail(src->diag, KFC_INVALID, at->mark, "no %s named %s%s",
                                           what, kfc_quote(quoted, at->as.text, at->count), more));
}

/* The object a track names: found (and marked used), left out silently
 * when it failed to build, or an error with the name meant. */
static kfc_status use_name(kfc_source *src, kfc_entry *entry, const kfc_node *at,
                           kfc_name_kind kind, const char *what, const char *plural, int ease_only)
{
    kfc_name *n = kfc_names_find(&src->names, kind, at->as.text, at->count);
    if (!n)
        return no_such_name(src, at, what, plural, kind, ease_only);
    if (n->failed)
        entry->skip = 1;
    n->used = 1;
    return KFC_OK;
}

/* Other tools' names for built-in properties (three.js, Unity, glTF's
 * paths...), which are no edit away from kfb's: the built-in one was meant. */
static const kfc_alias property_aliases[] = {
    {"position", "translation"},  {"location", "translation"}, {"translate", "translation"},
    {"rotation", "orientation"},  {"rotate", "orientation"},   {"quaternion", "orientation"},
    {"weights", "morph_weights"}, {"scaling", "scale"},        {"opacity", "alpha"},
    {"fov", "field_of_view"},     {"visible", "visibility"},   {NULL, NULL}};

/* A custom property one edit from a built-in one, or another tool's name
 * for one (property_aliases): the built-in one was meant. Without the
 * component count a custom property needs, an error (before the builder's
 * more general one); with it, once the track is built, a warning. */
static kfc_status check_property(kfc_source *src, const kfc_entry *entry, int built)
{
    const kfc_node *target = entry->fields[F_TARGET];
    const char *dot = strrchr(target->as.text, '.'); /* no NUL inside: read_target */
    if (!dot || built != (entry->fields[F_COMPONENTS] != NULL))
        return KFC_OK;
    const char *property = dot + 1;
    const size_t length = strlen(property);
    if (length == 0 || kf_property_from_name(property) != KF_PROPERTY_CUSTOM)
        return KFC_OK;
    kfc_suggest sg;
    kfc_suggest_begin(&sg, src->diag, property, length);
    for (int i = 1; i < KF_PROPERTY_COUNT; i++)
        kfc_suggest_offer(&sg, kf_property_name((kf_property)i),
                          strlen(kf_property_name((kf_property)i)));
    const char *alias = kfc_suggest_alias(property_aliases, property, length);
    if (!sg.matches && !alias)
        return KFC_OK; /* a custom property, or the builder's "give its count" */
    char quoted[KFC_QUOTE_SIZE], mean[160];
    if (sg.matches)
        kfc_suggest_text(&sg, mean, sizeof mean);
    else
        snprintf(mean, sizeof mean, "; did you mean '%s'?", alias);
    if (entry->fields[F_COMPONENTS])
        return kfc_warn(src->diag, KFC_WARN_CUSTOM_PROPERTY, target->mark,
                        "%s is a custom property, not a built-in one%s",
                        kfc_quote(quoted, property, length), mean);
    return kfc_recover(src->diag,
                       kfc_fail(src->diag, KFC_INVALID, target->mark,
                                "%s is not a built-in property%s (a custom property needs "
                                "components)",
                                kfc_quote(quoted, property, length), mean));
}

/* The controller the track names, built; NULL when it has none, failed or
 * does not exist (*known then says which). */
static const kfc_name *track_controller(const kfc_source *src, const kfc_entry *entry, int *known)
{
    const kfc_node *at = entry->fields[F_CONTROLLER];
    *known = !at;
    if (!at || (entry->failed & 1u << F_CONTROLLER))
        return NULL;
    const kfc_name *c = kfc_names_find(&src->names, KFC_NAME_CONTROLLER, at->as.text, at->count);
    if (!c || c->failed)
        return NULL;
    *known = 1;
    return c;
}

/* The speed the track plays its animator at, for -Wlong-duration: the
 * cycleInterval's now, the animator's times once every track is read
 * (kfc_warn_long_times). A track without a controller never plays: its
 * cycle is judged at speed 1, and it tells nothing of its animator's. */
static kfc_status judge_times(kfc_source *src, kfc_entry *entry)
{
    const kfc_node *const *f = entry->fields;
    int known;
    const kfc_name *c = track_controller(src, entry, &known);
    kfc_name *a = entry->failed & 1u << F_ANIMATOR
                      ? NULL
                      : kfc_names_find(&src->names, KFC_NAME_SEQUENCE, f[F_ANIMATOR]->as.text,
                                       f[F_ANIMATOR]->count);
    if (a && !known)
        a->speed_unknown = 1;
    else if (a && c) {
        if (!a->played || fabs(c->speed) > fabs(a->speed))
            a->speed = c->speed;
        a->played = 1;
    }
    if (!f[F_CYCLE_INTERVAL] || (entry->failed & 1u << F_CYCLE_INTERVAL) || !known)
        return KFC_OK;
    return kfc_warn_long_time(src, f[F_CYCLE_INTERVAL]->mark,
                              ((const track_in *)entry->state)->sensor.cycle_interval,
                              KFC_LONG_SECONDS, c ? c->speed : 1, "cycleInterval", "TimeSensor");
}

/* The names and the property, of the fields that read. */
static kfc_status check(kfc_source *src, kfc_entry *entry)
{
    const kfc_node *const *f = entry->fields;
    const unsigned failed = entry->failed;
    kfc_status st;
    if ((!(failed & 1u << F_ANIMATOR) &&
         (st = use_name(src, entry, f[F_ANIMATOR], KFC_NAME_SEQUENCE, "animator", "animators",
                        0))) ||
        (f[F_CONTROLLER] && !(failed & 1u << F_CONTROLLER) &&
         (st = use_name(src, entry, f[F_CONTROLLER], KFC_NAME_CONTROLLER, "controller",
                        "controllers", 0))) ||
        (f[F_EASE] && !(failed & 1u << F_EASE) &&
         (st = use_name(src, entry, f[F_EASE], KFC_NAME_INTERPOLATOR, "EaseInEaseOut",
                        "EaseInEaseOut interpolators", 1))) ||
        (st = judge_times(src, entry)))
        return st;
    return failed & 1u << F_TARGET ? KFC_OK : check_property(src, entry, 0);
}

/* The warnings about a track the builder took, whose target is kept for
 * the error of a track that repeats it (add). */
static kfc_status built(kfc_source *src, kfc_entry *entry)
{
    const kfc_node *const *f = entry->fields;
    kfc_mark *targets = kfc_grow(src->tracks.targets, src->tracks.count, &src->tracks.capacity,
                                 sizeof *targets, 64);
    if (!targets)
        return kfc_fail_nomem(src->diag);
    src->tracks.targets = targets;
    src->tracks.targets[src->tracks.count++] = f[F_TARGET]->mark;
    kfc_status st = check_property(src, entry, 1);
    if (!st && !f[F_CONTROLLER]) {
        char animator[KFC_QUOTE_SIZE], target[KFC_QUOTE_SIZE];
        return kfc_warn(src->diag, KFC_WARN_UNCONTROLLED_TRACK, entry->node->mark,
                        "this track has no controller, so it never plays %s into %s",
                        kfc_quote(animator, f[F_ANIMATOR]->as.text, f[F_ANIMATOR]->count),
                        kfc_quote(target, f[F_TARGET]->as.text, f[F_TARGET]->count));
    }
    return st;
}

static kf_result add(kfc_source *src, kfc_entry *entry, kf_error *error)
{
    track_in *in = entry->state;
    kf_result r = kf_builder_add_interpolator_track(src->builder, &in->desc,
                                                    in->timed ? &in->sensor : NULL, error);
    /* A track that repeats another: said where that one is, as a key
     * repeated is. */
    if (r == KF_ERROR_DUPLICATE && error->item < src->tracks.count) {
        const kfc_mark first = src->tracks.targets[error->item];
        const size_t n = strlen(error->message);
        snprintf(error->message + n, sizeof error->message - n, " (first at %lu:%lu)",
                 (unsigned long)first.line, (unsigned long)first.column);
    }
    /* A target blends latest where any of its tracks says so. */
    if (r == KF_OK && in->blend == KF_BLEND_LATEST)
        r = kf_builder_set_target_blend(src->builder, in->desc.target, KF_BLEND_LATEST, error);
    return r;
}

static kfc_status read_entry(kfc_source *src, const kfc_node *key, const kfc_node *value)
{
    track_in in = {{NULL, NULL, NULL, 0}, {1.0, 0, NULL}, 0, KF_BLEND_SUM};
    return kfc_section_read(src, &kfc_section_tracks, key, value, &in);
}

static kfc_status load(kfc_emitter *e, const kf_anim *anim, uint32_t index, void *out,
                       const char **name)
{
    track_out *o = out;
    kf_anim_track_info(anim, index, &o->t);
    if (o->t.animator_kind == KF_KIND_SEQUENCE) {
        kf_sequence_info s;
        kf_sequence_get_info(kf_anim_sequence(anim, o->t.animator), &s);
        o->animator = s.name;
    } else if (o->t.animator_kind == KF_KIND_INTERPOLATOR) {
        kf_interpolator_info p;
        kf_interpolator_get_info(kf_anim_interpolator(anim, o->t.animator), &p);
        o->animator = p.name;
    } else if (o->t.animator_kind == KF_KIND_FOLLOWER) {
        kf_follower_info f;
        kf_follower_get_info(kf_anim_follower(anim, o->t.animator), &f);
        o->animator = f.name;
    } else {
        return kfc_fail(e->diag, KFC_INVALID, KFC_NO_MARK,
                        "track %lu plays an animator kind the source format cannot express",
                        (unsigned long)index);
    }
    kf_anim_target_info(anim, o->t.target, &o->target);
    o->blend = kf_anim_target_blend(anim, o->t.target);
    o->controller = NULL;
    if (o->t.controller != KF_NO_INDEX) {
        kf_controller_info c;
        kf_anim_controller_info(anim, o->t.controller, &c);
        o->controller = c.name;
    }
    o->ease = NULL;
    if (timed(o) && o->t.ease != KF_NO_INDEX) {
        kf_interpolator_info ease;
        kf_interpolator_get_info(kf_anim_interpolator(anim, o->t.ease), &ease);
        o->ease = ease.name;
    }
    *name = NULL; /* tracks have no names */
    return KFC_OK;
}

static kfc_status emit_section(kfc_emitter *e, const kf_anim *anim)
{
    track_out out;
    return kfc_section_emit(e, &kfc_section_tracks, anim, &out);
}

const kfc_section kfc_section_tracks = {
    "tracks",   KFC_NODE_SEQUENCE, 0,          KF_KIND_TRACK, 1,
    fields,     F_COUNT,           read_entry, NULL,          add,
    error_node, emit_section,      load,       check,         built,
};
