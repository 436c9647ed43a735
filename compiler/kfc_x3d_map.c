/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_map.c - an X3D scene's animation graph -> kf_builder
 * (kfc_x3d_map.h).
 *
 * The graph is walked from each TimeSensor: fraction_changed -> [an
 * EaseInEaseOut's set_fraction -> modifiedFraction_changed ->] an
 * interpolator's set_fraction -> value_changed -> a node's field. Each
 * sensor with a chain becomes a controller, each interpolator and
 * EaseInEaseOut one interpolator animator, each field it reaches a track;
 * fan-out at either end gives more tracks. Followers become an animator, a
 * controller (their clock) and a track per field their value_changed
 * reaches. Anything else on the way is noted and skipped. A chain's ROUTE
 * is checked as a browser checks it, against X3D's node types
 * (kfc_x3d_nodes.h): one naming a field its node lacks, or joining fields
 * of different types, is dropped with a warning, as is a node the builder
 * refuses where it animates something.
 */
#include "kfc_x3d_map.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_grow.h"
#include "kfc_number.h"
#include "kfc_suggest.h"
#include "kfc_text.h"

/* Tracks a scene may make (and ROUTEs the walk may visit), per ROUTE plus a
 * base: fan-in at an interpolator or an EaseInEaseOut multiplies its
 * sensors by its targets, which the input's size alone does not bound. */
#define TRACKS_PER_ROUTE 16u
#define TRACKS_BASE      4096u

enum {
    ADDED = 1,
    FAILED = 2,
    USED = 4,
    FIELDS_REPORTED = 8 /* the fields written that its type lacks were reported */
};

/* A track's target, and the ROUTE into it. */
typedef struct reached {
    const char *target;
    kfc_mark mark;
} reached;

typedef struct mapper {
    kfc_x3d_scene *scene;
    kf_builder *builder;
    kfc_diag *diag;
    unsigned char *state; /* per node index: ADDED, FAILED, USED, FIELDS_REPORTED */
    uint32_t *components; /* per node index: an added animator's output count */
    uint64_t tracks, max_tracks;
    reached *reached; /* per track added, in order (fan_in) */
    size_t reached_count, reached_capacity;
} mapper;

typedef struct sensor {
    const kfc_x3d_node *node;
    double cycle_interval, start_time, stop_time;
    int loop, enabled;
} time_sensor;

static int is_type(const kfc_x3d_node *n, const char *type)
{
    return strcmp(n->type, type) == 0;
}

/* The interpolator node of `n`, or -1. */
static int interpolator_node(const kfc_x3d_node *n)
{
    for (int k = 0; k < KF_NODE_COUNT; k++)
        if (strcmp(n->type, kf_node_name((kf_node)k)) == 0)
            return k;
    return -1;
}

static int follower_node(const kfc_x3d_node *n, kf_follower_node *out)
{
    return kf_follower_node_from_name(n->type, out);
}

/* Something the importer skips: a warning (-Wx3d-dropped) when skipping it
 * drops what the scene animates (`animates`), else a -v note. */
static kfc_status skipped(mapper *m, int animates, kfc_mark mark, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static kfc_status skipped(mapper *m, int animates, kfc_mark mark, const char *format, ...)
{
    char message[sizeof m->diag->message];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    if (animates)
        return kfc_warn(m->diag, KFC_WARN_X3D_DROPPED, mark, "%s", message);
    kfc_x3d_note(m->scene, mark, "%s", message);
    return KFC_OK;
}

/* A node's DEF name, quoted as kfc_text.h quotes a name. */
static const char *quoted(char out[KFC_QUOTE_SIZE], const char *name)
{
    return kfc_quote(out, name, strlen(name));
}

/* What the builder refused: a ROUTE given twice (which browsers take once)
 * is noted, anything else dropped from what `animates` is warned about. */
static kfc_status builder_failed(mapper *m, kf_result r, kfc_mark mark, const char *what,
                                 const kf_error *err, int animates)
{
    if (r == KF_ERROR_OUT_OF_MEMORY)
        return kfc_fail_nomem(m->diag);
    return skipped(m, animates && r != KF_ERROR_DUPLICATE, mark, "%s skipped: %s", what,
                   err->message);
}

/* Whether a ROUTE out of `n` from `output` reaches a node. */
static int sends(const kfc_x3d_node *n, const char *output)
{
    for (uint32_t i = 0; i < n->out_count; i++)
        if (strcmp(n->out[i]->from_field, output) == 0)
            return 1;
    return 0;
}

/* "; did you mean '...'?" for `word`, a field `type` does not have, among
 * those whose access has one of `access`'s bits; an inputOutput field is
 * offered as `word` is written, with "set_" or "_changed" when it is. */
static char *suggest_field(mapper *m, const kfc_x3d_node_type *type, const char *word,
                           unsigned access, char *out, size_t size)
{
    const size_t n = strlen(word);
    const int set = n > 4 && memcmp(word, "set_", 4) == 0;
    const int changed = !set && n > 8 && memcmp(word + n - 8, "_changed", 8) == 0;
    kfc_x3d_field_type f;
    size_t room = 0;
    out[0] = '\0';
    for (const char *c = type->fields; kfc_x3d_field_next(&c, &f);)
        room += f.length + 9;
    /* The candidates must live as long as the search. */
    char *names = malloc(room), *next = names;
    if (!names)
        return out;
    kfc_suggest sg;
    kfc_suggest_begin(&sg, m->diag, word, n);
    for (const char *c = type->fields; kfc_x3d_field_next(&c, &f);) {
        if (!(f.access & access))
            continue;
        const int both = f.access == (KFC_X3D_INITIALIZE | KFC_X3D_IN | KFC_X3D_OUT);
        const int k =
            snprintf(next, room - (size_t)(next - names), "%s%.*s%s", both && set ? "set_" : "",
                     (int)f.length, f.name, both && changed ? "_changed" : "");
        if (!kfc_x3d_offer(m->scene, &sg, next, (size_t)k))
            break;
        next += k + 1;
    }
    kfc_suggest_text(&sg, out, size);
    free(names);
    return out;
}

/* The field of `n`'s type that it sends down its chain (fraction_changed,
 * value_changed...), into *out. */
static void chain_field(const kfc_x3d_node *n, kfc_x3d_field_type *out)
{
    /* Every animating node is one of X3D's types, which has it. */
    if (!kfc_x3d_field_find(n->node_type, kfc_x3d_chain_output(n), out))
        memset(out, 0, sizeof *out);
}

/*
 * Whether ROUTE `r` out of animating node `n` goes on with its chain: from
 * its chain output (*follows 1), or from another of its outputs (0: what
 * it sends is not imported). A fromField that names no output of `n` is a
 * warning, once: browsers refuse the ROUTE.
 */
static kfc_status follows_chain(mapper *m, kfc_x3d_route *r, int *follows)
{
    const kfc_x3d_node *n = r->from;
    const char *output = kfc_x3d_chain_output(n);
    kfc_x3d_field_type f;
    char field[KFC_QUOTE_SIZE], mean[256], base[128], rt[KFC_X3D_ROUTE_SIZE];
    *follows = strcmp(r->from_field, output) == 0;
    if (*follows || r->reported || !n->node_type)
        return KFC_OK;
    if (kfc_x3d_field_find(n->node_type, r->from_field, &f)) {
        if (f.access & KFC_X3D_OUT)
            return KFC_OK;
        r->reported = 1;
        return kfc_warn(m->diag, KFC_WARN_X3D_DROPPED, r->mark,
                        "%s dropped: %s's %s sends no events (it is %s)", kfc_x3d_route_text(rt, r),
                        n->type, kfc_quote(field, r->from_field, strlen(r->from_field)),
                        f.access == KFC_X3D_IN ? "inputOnly" : "initializeOnly");
    }
    r->reported = 1;
    /* X3D gives the set_ / _changed aliases to inputOutput fields only, so
     * "fraction" or "value" name no field. */
    kfc_x3d_base_name(output, base, sizeof base);
    if (kfc_x3d_field_is(r->from_field, base))
        return kfc_warn(m->diag, KFC_WARN_X3D_UNKNOWN, r->mark,
                        "%s dropped: %s has no field %s (only %s, which takes no "
                        "alias)",
                        kfc_x3d_route_text(rt, r), n->type,
                        kfc_quote(field, r->from_field, strlen(r->from_field)), output);
    return kfc_warn(m->diag, KFC_WARN_X3D_UNKNOWN, r->mark, "%s dropped: %s has no field %s%s",
                    kfc_x3d_route_text(rt, r), n->type,
                    kfc_quote(field, r->from_field, strlen(r->from_field)),
                    suggest_field(m, n->node_type, r->from_field, KFC_X3D_OUT, mean, sizeof mean));
}

/*
 * Whether ROUTE `r`, which sends `sent` (the chain field of r->from), is
 * one browsers make: into a field its target's type has, that takes
 * events, of the same type. When not, *ok is 0 and, once, a warning. A
 * Script's fields and a prototype's are not known: taken as they are. A
 * target of a type no one defines was reported with its node
 * (kfc_x3d_scene_finish).
 */
static kfc_status check_target(mapper *m, kfc_x3d_route *r, const kfc_x3d_field_type *sent, int *ok)
{
    const kfc_x3d_node *t = r->to;
    kfc_x3d_field_type f;
    char field[KFC_QUOTE_SIZE], mean[256], rt[KFC_X3D_ROUTE_SIZE];
    *ok = 0;
    if (is_type(t, "Script") || (!t->node_type && !kfc_x3d_unknown_type(m->scene, t))) {
        *ok = 1;
        return KFC_OK;
    }
    if (!t->node_type)
        return KFC_OK;
    if (!kfc_x3d_field_find(t->node_type, r->to_field, &f)) {
        if (r->reported)
            return KFC_OK;
        r->reported = 1;
        return kfc_warn(m->diag, KFC_WARN_X3D_UNKNOWN, r->mark, "%s dropped: %s has no field %s%s",
                        kfc_x3d_route_text(rt, r), t->type,
                        kfc_quote(field, r->to_field, strlen(r->to_field)),
                        suggest_field(m, t->node_type, r->to_field, KFC_X3D_IN, mean, sizeof mean));
    }
    if (!(f.access & KFC_X3D_IN)) {
        if (r->reported)
            return KFC_OK;
        r->reported = 1;
        return kfc_warn(m->diag, KFC_WARN_X3D_DROPPED, r->mark,
                        "%s dropped: %s's %.*s takes no events (it is %s)",
                        kfc_x3d_route_text(rt, r), t->type, (int)f.length, f.name,
                        f.access == KFC_X3D_OUT ? "outputOnly" : "initializeOnly");
    }
    if (f.type_length != sent->type_length || memcmp(f.type, sent->type, f.type_length) != 0) {
        if (r->reported)
            return KFC_OK;
        r->reported = 1;
        return kfc_warn(m->diag, KFC_WARN_X3D_DROPPED, r->mark,
                        "%s dropped: %s sends %.*s, %s's %.*s takes %.*s",
                        kfc_x3d_route_text(rt, r), r->from->type, (int)sent->type_length,
                        sent->type, t->type, (int)f.length, f.name, (int)f.type_length, f.type);
    }
    *ok = 1;
    return KFC_OK;
}

/* The fields written on animating node `n` that its type does not have,
 * once `n` animates: browsers ignore them, so the field keeps its default. */
static kfc_status report_fields(mapper *m, const kfc_x3d_node *n)
{
    if (m->state[n->index] & FIELDS_REPORTED)
        return KFC_OK;
    m->state[n->index] |= FIELDS_REPORTED;
    for (const kfc_x3d_unknown *u = n->unknown; u; u = u->next) {
        char name[KFC_QUOTE_SIZE], field[KFC_QUOTE_SIZE], mean[256];
        kfc_status st = kfc_warn(
            m->diag, KFC_WARN_X3D_UNKNOWN, u->mark, "%s %s has no field %s (it is ignored)%s",
            n->type, kfc_quote(name, n->name, strlen(n->name)),
            kfc_quote(field, u->name, strlen(u->name)),
            suggest_field(m, n->node_type, u->name, KFC_X3D_INITIALIZE, mean, sizeof mean));
        if (st)
            return st;
    }
    return KFC_OK;
}

static kfc_status numbers(mapper *m, const kfc_x3d_node *n, const char *field, kfc_x3d_numbers *out)
{
    const kfc_x3d_field *f = kfc_x3d_field_get(n, field);
    out->values = NULL;
    out->count = 0;
    return f ? kfc_x3d_read_numbers(m->scene, &f->value, out, m->diag) : KFC_OK;
}

static kfc_status number(mapper *m, const kfc_x3d_node *n, const char *field, double *out)
{
    const kfc_x3d_field *f = kfc_x3d_field_get(n, field);
    return f ? kfc_x3d_read_number(&f->value, out, m->diag) : KFC_OK;
}

static kfc_status boolean(mapper *m, const kfc_x3d_node *n, const char *field, int *out)
{
    const kfc_x3d_field *f = kfc_x3d_field_get(n, field);
    return f ? kfc_x3d_read_bool(&f->value, out, m->diag) : KFC_OK;
}

/* Rotations [x, y, z, angle] (`count` numbers) as the scene writes them,
 * their angles in its UNIT angle: into radians, as X3D browsers read an
 * SFRotation's or MFRotation's angle. */
static void to_radians(const mapper *m, double *v, size_t count)
{
    if (m->scene->angle_factor != 1)
        for (size_t i = 3; i < count; i += 4)
            v[i] *= m->scene->angle_factor;
}

/* -Wangle-range of the rotations at v (in radians) of `n`'s `field`, the
 * one at `first` and `over` - 1 more over a turn, `what` saying whose
 * ("OrientationInterpolator 'Swing' key 1 has"). */
static kfc_status angle_range(mapper *m, const kfc_x3d_node *n, const char *field, const double *v,
                              const char *what, uint32_t first, uint32_t over)
{
    const kfc_x3d_scene *scene = m->scene;
    const double angle = v[4 * (size_t)first + 3];
    char unit[KFC_QUOTE_SIZE], why[160];
    if (!scene->angle_unit)
        return kfc_warn_angle_range(m->diag, kfc_x3d_field_get(n, field)->value.mark, what, angle,
                                    over - 1, NULL);
    /* As written, in the scene's unit: not what radians make of it. */
    snprintf(why, sizeof why, "UNIT angle %s (%lu:%lu) makes it %.9g radians",
             kfc_quote(unit, scene->angle_unit, strlen(scene->angle_unit)),
             (unsigned long)scene->unit_at[KFC_X3D_UNIT_ANGLE].line,
             (unsigned long)scene->unit_at[KFC_X3D_UNIT_ANGLE].column, angle);
    return kfc_warn_angle_range(m->diag, kfc_x3d_field_get(n, field)->value.mark, what,
                                angle / scene->angle_factor, over - 1, why);
}

/* A field of `n` holding `count` numbers that must come in groups of
 * `dimension`: an error at the field otherwise. */
static kfc_status check_groups(mapper *m, const kfc_x3d_node *n, const char *field, size_t count,
                               uint32_t dimension)
{
    if (dimension <= 1 || count % dimension == 0)
        return KFC_OK;
    const kfc_x3d_field *f = kfc_x3d_field_get(n, field);
    return kfc_fail(m->diag, KFC_INVALID, f->value.mark,
                    "%s of %s holds %lu numbers, not a multiple of %u", field, n->type,
                    (unsigned long)count, (unsigned)dimension);
}

/* Adds interpolator (or EaseInEaseOut) `n` once; *ok tells whether it is
 * in the builder. Its output's component count goes to *components. */
static kfc_status add_interpolator(mapper *m, const kfc_x3d_node *n, int *ok, uint32_t *components)
{
    /* Read once, however many sensors drive the node. */
    if (m->state[n->index] & (ADDED | FAILED)) {
        *ok = (m->state[n->index] & ADDED) != 0;
        *components = m->components[n->index];
        return KFC_OK;
    }
    int kind = interpolator_node(n);
    uint32_t dim = kf_node_dimension((kf_node)kind);
    kfc_x3d_numbers key, value, velocity;
    kfc_status st;
    /* Skipping a node whose output goes nowhere drops nothing. */
    const int animates = sends(n, kfc_x3d_chain_output(n));
    *ok = 0;
    if ((animates && (st = report_fields(m, n))) || (st = numbers(m, n, "key", &key)))
        return st;
    if ((st = numbers(m, n, kind == KF_NODE_EASE_IN_EASE_OUT ? "easeInEaseOut" : "keyValue",
                      &value)) ||
        (st = check_groups(m, n, kind == KF_NODE_EASE_IN_EASE_OUT ? "easeInEaseOut" : "keyValue",
                           value.count, dim)))
        return st;
    const int rotations =
        kind == KF_NODE_ORIENTATION_INTERPOLATOR || kind == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
    if (rotations)
        to_radians(m, value.values, value.count);
    size_t entries = dim ? value.count / dim : 0;
    const size_t given = entries; /* (the values the scene writes) */
    size_t per_key = 1;
    int multi = kind == KF_NODE_COORDINATE_INTERPOLATOR ||
                kind == KF_NODE_COORDINATE_INTERPOLATOR_2D || kind == KF_NODE_NORMAL_INTERPOLATOR;
    if (multi && key.count)
        per_key = entries / key.count;
    *components = rotations ? 4 : kind == KF_NODE_EASE_IN_EASE_OUT ? 1 : (uint32_t)(dim * per_key);
    m->components[n->index] = *components;
    m->state[n->index] |= FAILED;
    char name[KFC_QUOTE_SIZE];
    quoted(name, n->name);
    if (!key.count)
        return skipped(m, animates, n->mark, "%s %s has no keys: it sends no value, skipped",
                       n->type, name);
    if (key.count > UINT32_MAX / 8 || value.count > UINT32_MAX / 8)
        return kfc_fail(m->diag, KFC_INVALID, n->mark, "%s %s has too many keys", n->type, name);
    /* X3D browsers use the first keyValue per key and ignore the rest; and
     * where values are missing, repeat the last (the field's default when
     * there is none), as X_ITE does. */
    if (!multi && entries > key.count) {
        kfc_x3d_note(m->scene, n->mark, "%s %s: %lu values for %lu keys, the extra ones unused",
                     n->type, name, (unsigned long)entries, (unsigned long)key.count);
        entries = key.count;
    } else if (!multi && entries < key.count) {
        double *all = kfc_x3d_alloc(m->scene, key.count * dim * sizeof(double), _Alignof(double));
        if (!all)
            return kfc_x3d_fail_alloc(m->scene, n->mark, m->diag);
        if (entries)
            memcpy(all, value.values, entries * dim * sizeof(double));
        for (size_t k = entries; k < key.count; k++)
            for (uint32_t c = 0; c < dim; c++)
                all[k * dim + c] = entries                ? all[(entries - 1) * dim + c]
                                   : (dim == 4 && c == 2) ? 1.0 /* rotation 0 0 1 0 */
                                                          : 0.0;
        if (entries)
            kfc_x3d_note(m->scene, n->mark,
                         "%s %s: %lu values for %lu keys, the last repeated for the rest", n->type,
                         name, (unsigned long)entries, (unsigned long)key.count);
        else
            kfc_x3d_note(m->scene, n->mark, "%s %s: no keyValue for its %lu keys: each plays %s",
                         n->type, name, (unsigned long)key.count,
                         dim == 4   ? "0 0 1 0"
                         : dim == 3 ? "0 0 0"
                         : dim == 2 ? "0 0"
                                    : "0");
        value.values = all;
        entries = key.count;
    }
    kf_interpolator_desc d;
    kf_interpolator_desc_init(&d);
    d.name = n->name;
    d.node = (kf_node)kind;
    d.key_count = (uint32_t)key.count;
    d.key = key.values;
    if (kind == KF_NODE_EASE_IN_EASE_OUT) {
        d.ease_count = (uint32_t)entries;
        d.ease_in_ease_out = value.values;
    } else {
        d.value_count = (uint32_t)entries;
        d.key_value = value.values;
    }
    if (kind == KF_NODE_SPLINE_SCALAR_INTERPOLATOR ||
        kind == KF_NODE_SPLINE_POSITION_INTERPOLATOR ||
        kind == KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D) {
        if ((st = numbers(m, n, "keyVelocity", &velocity)) ||
            (st = check_groups(m, n, "keyVelocity", velocity.count, dim)))
            return st;
        size_t v = velocity.count / dim;
        if (v && v != 2 && v != key.count) {
            kfc_x3d_note(m->scene, n->mark,
                         "%s %s: %lu keyVelocity values for %lu keys, ignored as X3D says", n->type,
                         name, (unsigned long)v, (unsigned long)key.count);
            v = 0;
        }
        d.velocity_count = (uint32_t)v;
        d.key_velocity = velocity.values;
    }
    if (kind == KF_NODE_SPLINE_SCALAR_INTERPOLATOR ||
        kind == KF_NODE_SPLINE_POSITION_INTERPOLATOR ||
        kind == KF_NODE_SPLINE_POSITION_INTERPOLATOR_2D ||
        kind == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR) {
        if ((st = boolean(m, n, "closed", &d.closed)) ||
            (st = boolean(m, n, "normalizeVelocity", &d.normalize_velocity)))
            return st;
    }
    /* What the builder makes of it. */
    uint64_t floats = ((uint64_t)entries + d.velocity_count) * dim;
    if (!kfc_x3d_charge(m->scene, KFC_X3D_COST_OBJECT + strlen(n->name) +
                                      (uint64_t)key.count * KFC_X3D_COST_KEY +
                                      floats * KFC_X3D_COST_NUMBER))
        return kfc_x3d_fail_alloc(m->scene, n->mark, m->diag);
    kf_error err;
    kf_result r = kf_builder_add_interpolator(m->builder, &d, &err);
    if (r) {
        char what[160];
        snprintf(what, sizeof what, "%s %s", n->type, name);
        return builder_failed(m, r, n->mark, what, &err, animates);
    }
    m->state[n->index] = (unsigned char)((m->state[n->index] & ~FAILED) | ADDED);
    *ok = 1;
    uint32_t first = 0, over = 0;
    if (animates &&
        (over = kfc_keys_outside_fraction(key.values, (uint32_t)key.count, &first)) != 0 &&
        (st = kfc_warn_fraction_range(m->diag, kfc_x3d_field_get(n, "key")->value.mark, first,
                                      key.values[first], over - 1)))
        return st;
    /* (the keys the scene gives: no repeated value counted again) */
    if (animates && rotations &&
        (over = kfc_angles_over_turn(value.values, (uint32_t)(given < entries ? given : entries),
                                     &first)) != 0) {
        char what[160];
        snprintf(what, sizeof what, "%s %s key %lu has", n->type, name, (unsigned long)first);
        return angle_range(m, n, "keyValue", value.values, what, first, over);
    }
    return KFC_OK;
}

/* The kfb property for X3D field `field` fed `components` numbers
 * (docs/import-x3d.md, "Targets"). */
static void property_name(const char *field, uint32_t components, char *out, size_t size)
{
    static const char *const map[][2] = {
        {"translation", "translation"},      {"rotation", "orientation"},
        {"orientation", "orientation"},      {"scale", "scale"},
        {"diffuseColor", "diffuse_color"},   {"emissiveColor", "emissive_color"},
        {"specularColor", "specular_color"}, {"color", "color"},
        {"intensity", "intensity"},          {"shininess", "shininess"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(field, map[i][0]) == 0 &&
            kf_property_accepts(kf_property_from_name(map[i][1]), components)) {
            snprintf(out, size, "%s", map[i][1]);
            return;
        }
    /* A custom property: the field's name, unless that is a built-in
     * property's name the count does not fit (TextureTransform's 2D
     * translation): then the count is appended. */
    if (kf_property_from_name(field) != KF_PROPERTY_CUSTOM)
        snprintf(out, size, "%s_%u", field, (unsigned)components);
    else
        snprintf(out, size, "%s", field);
}

/* TimeSensors whose fraction_changed goes straight into `n`'s
 * set_fraction. */
static uint64_t sensors_into(const kfc_x3d_node *n)
{
    uint64_t count = 0;
    for (uint32_t i = 0; i < n->in_count; i++)
        count += n->in[i]->from && is_type(n->in[i]->from, "TimeSensor") &&
                 strcmp(n->in[i]->to_field, "set_fraction") == 0;
    return count;
}

/* Past the cap, which node multiplies the tracks, so that the message
 * points at what to change: the one whose sensors times the fields it
 * drives (through the interpolators it eases, for an EaseInEaseOut) is
 * the largest. Each ROUTE is looked at a bounded number of times. */
static kfc_status too_many_tracks(mapper *m, kfc_mark mark)
{
    const kfc_x3d_node *worst = NULL;
    uint64_t worst_sensors = 0, worst_fields = 0;
    for (const kfc_x3d_node *n = m->scene->nodes; n; n = n->next) {
        const int kind = n->name && !n->in_proto ? interpolator_node(n) : -1;
        if (kind < 0)
            continue;
        uint64_t fields = n->out_count;
        if (kind == KF_NODE_EASE_IN_EASE_OUT) {
            fields = 0;
            for (uint32_t i = 0; i < n->out_count; i++)
                if (n->out[i]->to && strcmp(n->out[i]->to_field, "set_fraction") == 0)
                    fields += n->out[i]->to->out_count;
        }
        const uint64_t sensors = sensors_into(n);
        if (sensors * fields > worst_sensors * worst_fields) {
            worst = n;
            worst_sensors = sensors;
            worst_fields = fields;
        }
    }
    char quoted[KFC_QUOTE_SIZE], why[KFC_QUOTE_SIZE + 160] = "";
    if (worst) {
        const int ease = interpolator_node(worst) == KF_NODE_EASE_IN_EASE_OUT;
        snprintf(why, sizeof why,
                 ": %s is driven by %llu TimeSensor%s and %s %llu field%s (each pair is a track)",
                 kfc_quote(quoted, worst->name, strlen(worst->name)),
                 (unsigned long long)worst_sensors, worst_sensors == 1 ? "" : "s",
                 ease ? "eases interpolators that drive" : "drives",
                 (unsigned long long)worst_fields, worst_fields == 1 ? "" : "s");
        mark = worst->mark;
    }
    return kfc_fail(m->diag, KFC_INVALID, mark,
                    "the ROUTEs make more than %llu tracks (at most %u per ROUTE, plus %u)%s",
                    (unsigned long long)m->max_tracks, TRACKS_PER_ROUTE, TRACKS_BASE, why);
}

static kfc_status count_track(mapper *m, kfc_mark mark)
{
    return ++m->tracks > m->max_tracks ? too_many_tracks(m, mark) : KFC_OK;
}

/* ROUTE `r` from an interpolator a TimeSensor drives into another
 * interpolator's set_fraction (a ScalarInterpolator as an easing curve):
 * kfb warps a sensor's fraction only through an EaseInEaseOut, so the
 * chain after it is lost. That is a warning when the chain goes on to
 * something, once however many sensors reach it. */
static kfc_status eased_chain(mapper *m, kfc_x3d_route *r)
{
    const kfc_x3d_node *t = r->to;
    char rt[KFC_X3D_ROUTE_SIZE], name[KFC_QUOTE_SIZE], into[KFC_X3D_ROUTE_SIZE + 64] = "";
    const int animates = sends(t, kfc_x3d_chain_output(t));
    if (r->reported)
        return KFC_OK;
    r->reported = 1;
    kfc_x3d_route_text(rt, r);
    quoted(name, t->def ? t->def : t->type);
    if (animates) {
        /* The field it reaches first names the loss. */
        const kfc_x3d_route *next = NULL;
        for (uint32_t i = 0; i < t->out_count && !next; i++)
            if (strcmp(t->out[i]->from_field, kfc_x3d_chain_output(t)) == 0)
                next = t->out[i];
        if (next)
            snprintf(into, sizeof into, " into %s.%s%s", next->to_def, next->to_field,
                     t->out_count > 1 ? " and more" : "");
    }
    return skipped(m, animates, r->mark,
                   "%s dropped: kfb plays a TimeSensor's fraction through at most an "
                   "EaseInEaseOut, not through a %s; %s %s and its chain%s are not imported",
                   rt, r->from->type, t->type, name, into);
}

/* The track of one ROUTE out of an animator's value_changed: `animator`
 * (a node with a name) into the ROUTE's target. `sensor` NULL: a
 * follower. */
static kfc_status add_track(mapper *m, kfc_x3d_route *route, const char *animator,
                            const char *controller, uint32_t components,
                            const kf_time_sensor_desc *sensor)
{
    const kfc_x3d_node *t = route->to;
    char field[128], property[160];
    kf_follower_node fnode;
    kfc_status st = count_track(m, route->mark);
    if (st)
        return st;
    char rt[KFC_X3D_ROUTE_SIZE];
    kfc_x3d_route_text(rt, route);
    if (is_type(t, "Script")) {
        kfc_x3d_note(m->scene, route->mark, "%s skipped: Scripts are not run", rt);
        return KFC_OK;
    }
    if (follower_node(t, &fnode))
        return KFC_OK; /* map_follower notes the events it takes from the host */
    if (interpolator_node(t) >= 0 && kfc_x3d_field_is(route->to_field, "fraction"))
        return eased_chain(m, route);
    if (interpolator_node(t) >= 0 || is_type(t, "TimeSensor")) {
        kfc_x3d_note(m->scene, route->mark, "%s skipped: kfb takes %s's events from the host", rt,
                     t->type);
        return KFC_OK;
    }
    kfc_x3d_base_name(route->to_field, field, sizeof field);
    property_name(field, components, property, sizeof property);
    size_t n = strlen(t->name) + 1 + strlen(property) + 1;
    /* The target's name here, and the builder's track with its copy. */
    char *target =
        kfc_x3d_charge(m->scene, KFC_X3D_COST_OBJECT + n) ? kfc_x3d_alloc(m->scene, n, 1) : NULL;
    if (!target)
        return kfc_x3d_fail_alloc(m->scene, route->mark, m->diag);
    snprintf(target, n, "%s.%s", t->name, property);
    kf_track_desc d = {animator, controller, target,
                       kf_property_from_name(property) == KF_PROPERTY_CUSTOM ? components : 0};
    kf_error err;
    kf_result r = sensor ? kf_builder_add_interpolator_track(m->builder, &d, sensor, &err)
                         : kf_builder_add_track(m->builder, &d, &err);
    if (r) {
        char what[KFC_X3D_ROUTE_SIZE];
        kfc_x3d_route_text(what, route);
        return builder_failed(m, r, route->mark, what, &err, 1);
    }
    if (!kfc_x3d_charge(m->scene, sizeof *m->reached))
        return kfc_x3d_fail_alloc(m->scene, route->mark, m->diag);
    reached *more = kfc_grow(m->reached, m->reached_count, &m->reached_capacity, sizeof *more, 64);
    if (!more)
        return kfc_fail_nomem(m->diag);
    m->reached = more;
    m->reached[m->reached_count++] = (reached){target, route->mark};
    return KFC_OK;
}

static int by_target(const void *a, const void *b)
{
    const reached *x = a, *y = b;
    const int c = strcmp(x->target, y->target);
    return c ? c
           : x->mark.line != y->mark.line
               ? (x->mark.line < y->mark.line ? -1 : 1)
               : (x->mark.column < y->mark.column) - (x->mark.column > y->mark.column);
}

/* X3D's fan-in: a field that several chains reach keeps the last value
 * sent to it, never a sum, so each such target blends latest, with a -v
 * note at the second ROUTE. */
static kfc_status fan_in(mapper *m)
{
    if (m->reached_count < 2)
        return KFC_OK;
    qsort(m->reached, m->reached_count, sizeof *m->reached, by_target);
    for (size_t i = 0; i < m->reached_count;) {
        size_t j = i + 1;
        while (j < m->reached_count && strcmp(m->reached[j].target, m->reached[i].target) == 0)
            j++;
        if (j - i > 1) {
            kf_error err;
            const kf_result r = kf_builder_set_target_blend(m->builder, m->reached[i].target,
                                                            KF_BLEND_LATEST, &err);
            if (r)
                return builder_failed(m, r, m->reached[i + 1].mark, "a field two chains reach",
                                      &err, 1);
            char q[KFC_QUOTE_SIZE];
            kfc_x3d_note(m->scene, m->reached[i + 1].mark,
                         "%s is reached by %zu chains: it keeps the value last sent to it, as a "
                         "browser's field does, not a sum",
                         quoted(q, m->reached[i].target), j - i);
        }
        i = j;
    }
    return KFC_OK;
}

/* -Wlong-duration of time field `field` of `n`, `seconds` as read: a time
 * of many minutes, probably written in milliseconds (X3D has no speed to
 * play it at). */
static kfc_status long_time(mapper *m, const kfc_x3d_node *n, const char *field, double seconds,
                            double most, const char *clock)
{
    const kfc_x3d_field *f = kfc_x3d_field_get(n, field);
    return f && seconds >= most
               ? kfc_warn_long_seconds(m->diag, f->value.mark, NULL, field, seconds, clock)
               : KFC_OK;
}

static kfc_status read_sensor(mapper *m, const kfc_x3d_node *n, time_sensor *s)
{
    kfc_status st;
    s->node = n;
    s->cycle_interval = 1;
    s->start_time = s->stop_time = 0;
    s->loop = 0;
    s->enabled = 1;
    if ((st = number(m, n, "cycleInterval", &s->cycle_interval)) ||
        (st = number(m, n, "startTime", &s->start_time)) ||
        (st = number(m, n, "stopTime", &s->stop_time)) || (st = boolean(m, n, "loop", &s->loop)) ||
        (st = boolean(m, n, "enabled", &s->enabled)))
        return st;
    return KFC_OK;
}

/* Whether `s` runs, once enabled, from its startTime on: enabling starts
 * only a sensor that loops and has not stopped (X3D 8.2.4); one that does
 * not loop ran its cycle, or waits for its startTime. */
static int loops_from_start(const time_sensor *s)
{
    return s->loop && s->stop_time <= s->start_time;
}

/* The ROUTE that starts sensor `s` by an event (into startTime, or into
 * enabled where enabling starts it), or NULL. */
static const kfc_x3d_route *start_event(const time_sensor *s)
{
    const kfc_x3d_node *n = s->node;
    const int enabling_starts = loops_from_start(s);
    for (uint32_t i = 0; i < n->in_count; i++)
        if (kfc_x3d_field_is(n->in[i]->to_field, "startTime") ||
            (enabling_starts && kfc_x3d_field_is(n->in[i]->to_field, "enabled")))
            return n->in[i];
    return NULL;
}

/* The sensor's controller, added at its first track. */
static kfc_status add_controller(mapper *m, const time_sensor *s, int *ok)
{
    const kfc_x3d_node *n = s->node;
    *ok = (m->state[n->index] & ADDED) != 0;
    if (m->state[n->index] & (ADDED | FAILED))
        return KFC_OK;
    m->state[n->index] |= FAILED;
    if (!kfc_x3d_charge(m->scene, KFC_X3D_COST_OBJECT + strlen(n->name)))
        return kfc_x3d_fail_alloc(m->scene, n->mark, m->diag);
    /* A browser loads a scene after every time it states (X3D times are
     * seconds since 1970): a sensor runs from the load when it is enabled,
     * loops and has not stopped (stopTime <= startTime); it is then in
     * the cycle (world - startTime) / cycleInterval puts it in. Every
     * other sensor waits for an event the host sends. */
    int from_load = s->enabled && loops_from_start(s);
    const kfc_x3d_route *e = from_load ? NULL : start_event(s);
    kf_controller_desc d;
    kf_controller_desc_init(&d);
    d.name = n->name;
    d.ref_world = s->start_time;
    d.ref_sequence = 0;
    d.weight = from_load ? 1 : 0;
    /* A sensor that loops from its startTime is inactive before it (X3D
     * 8.2.4), which a host that loads the scene earlier than a browser
     * would (from world time 0, say) reaches: there the controller's
     * position is negative, and a loop would wrap it into a cycle. The interval keeps it silent
     * until then, whenever the load (or the host's enabling) comes; it
     * ends at the largest double, as the reader takes finite ends only.
     * A startTime of 0 or less keeps the always-active form: X3D's clock,
     * seconds since 1970, reads no earlier time, so the interval would
     * change nothing the scene can play. */
    if (loops_from_start(s) && s->start_time > 0) {
        char name[KFC_QUOTE_SIZE], start[KFC_NUMBER_TEXT];
        d.active_start = s->start_time;
        d.active_end = DBL_MAX;
        kfc_format_double(start, s->start_time);
        kfc_x3d_note(m->scene, n->mark,
                     "TimeSensor %s loops from its startTime %s: its controller is active from "
                     "that world time on, and plays nothing before it",
                     quoted(name, n->name), start);
    }
    if (!from_load) {
        char name[KFC_QUOTE_SIZE], def[KFC_QUOTE_SIZE], field[KFC_QUOTE_SIZE];
        quoted(name, n->name);
        /* (the ROUTE's start, as the scene writes it: unquoted) */
        if (e)
            kfc_x3d_note(m->scene, n->mark,
                         "TimeSensor %s is started by ROUTE %s.%s (%u:%u): its controller "
                         "waits at weight 0 for the host to start it",
                         name, kf_text_name(def, sizeof def, e->from_def, strlen(e->from_def), 0),
                         kf_text_name(field, sizeof field, e->from_field, strlen(e->from_field), 0),
                         (unsigned)e->mark.line, (unsigned)e->mark.column);
        else
            kfc_x3d_note(m->scene, n->mark,
                         "TimeSensor %s does not run from the load (%s) and no ROUTE starts "
                         "it: its controller waits at weight 0",
                         name,
                         !s->enabled ? "disabled"
                         : !s->loop  ? "it does not loop"
                                     : "its stopTime has passed");
    }
    kf_error err;
    kf_result r = kf_builder_add_controller(m->builder, &d, &err);
    if (r) {
        char what[160], name[KFC_QUOTE_SIZE];
        snprintf(what, sizeof what, "TimeSensor %s", quoted(name, n->name));
        return builder_failed(m, r, n->mark, what, &err, 1);
    }
    m->state[n->index] = (unsigned char)((m->state[n->index] & ~FAILED) | ADDED);
    *ok = 1;
    /* The other events the scene sends the sensor (a stop, a pause, a
     * new cycle) are the host's to send too. (One from an interpolator is
     * noted with its chain, add_track.) */
    for (uint32_t i = 0; i < n->in_count; i++) {
        char rt[KFC_X3D_ROUTE_SIZE];
        const kfc_x3d_node *from = n->in[i]->from;
        if (n->in[i] != e && !(from && interpolator_node(from) >= 0))
            kfc_x3d_note(m->scene, n->in[i]->mark,
                         "%s: the host sends this event to the sensor's controller "
                         "(docs/import-x3d.md)",
                         kfc_x3d_route_text(rt, n->in[i]));
    }
    return KFC_OK;
}

/* sensor -> [ease ->] interpolator -> every target of its value_changed. */
static kfc_status chain(mapper *m, const time_sensor *s, const kfc_x3d_node *ease,
                        const kfc_x3d_node *interp)
{
    int ok, follows;
    uint32_t components, unused;
    kfc_x3d_field_type value;
    kfc_status st = add_interpolator(m, interp, &ok, &components);
    if (st || !ok)
        return st;
    if (ease && ((st = add_interpolator(m, ease, &ok, &unused)) || !ok))
        return st;
    m->state[interp->index] |= USED;
    chain_field(interp, &value);
    kf_time_sensor_desc ts = {s->cycle_interval, s->loop, ease ? ease->name : NULL};
    int targets = 0;
    for (uint32_t i = 0; i < interp->out_count; i++) {
        kfc_x3d_route *r = interp->out[i];
        if ((st = follows_chain(m, r, &follows)))
            return st;
        if (!follows) {
            if ((st = count_track(m, r->mark))) /* visiting it is work too */
                return st;
            continue;
        }
        targets++;
        if ((st = check_target(m, r, &value, &ok)) || !ok) {
            if (st || (st = count_track(m, r->mark)))
                return st;
            continue;
        }
        if ((st = add_controller(m, s, &ok)) || !ok)
            return st;
        if ((st = add_track(m, r, interp->name, s->node->name, components, &ts)))
            return st;
    }
    char name[KFC_QUOTE_SIZE];
    if (!targets)
        kfc_x3d_note(m->scene, interp->mark, "%s %s: its value_changed goes nowhere", interp->type,
                     quoted(name, interp->name));
    return KFC_OK;
}

/* A ROUTE of a sensor's or an EaseInEaseOut's fraction: *to_interpolator
 * when it goes on into an interpolator's set_fraction (noted when it goes
 * elsewhere a browser would route it, warned once when a browser would
 * not). `counted`: the caller counted it as a track already. */
static kfc_status fraction_route(mapper *m, kfc_x3d_route *r, int counted, int *to_interpolator)
{
    int follows, ok;
    kfc_x3d_field_type fraction;
    kfc_status st;
    char rt[KFC_X3D_ROUTE_SIZE];
    *to_interpolator = 0;
    if ((st = follows_chain(m, r, &follows)) || !follows)
        return st;
    chain_field(r->from, &fraction);
    if ((st = check_target(m, r, &fraction, &ok)))
        return st;
    int kind = interpolator_node(r->to);
    if (ok && kind >= 0 &&
        !(kind == KF_NODE_EASE_IN_EASE_OUT && is_type(r->from, "EaseInEaseOut")) &&
        strcmp(r->to_field, "set_fraction") == 0) {
        *to_interpolator = 1;
        return KFC_OK;
    }
    /* Visiting it is work too: counted as a track. */
    if ((!counted && (st = count_track(m, r->mark))) || !ok)
        return st;
    kfc_x3d_note(m->scene, r->mark, "%s skipped: not an interpolator's set_fraction",
                 kfc_x3d_route_text(rt, r));
    return KFC_OK;
}

static kfc_status map_sensor(mapper *m, const kfc_x3d_node *n)
{
    char name[KFC_QUOTE_SIZE];
    time_sensor s;
    kfc_status st = read_sensor(m, n, &s);
    const int animates = sends(n, "fraction_changed");
    if (st || (animates && (st = report_fields(m, n))))
        return st;
    if (!(s.cycle_interval > 0))
        return skipped(m, animates, n->mark,
                       "TimeSensor %s skipped: cycleInterval %g is not positive",
                       quoted(name, n->name), s.cycle_interval);
    if (animates &&
        (st = long_time(m, n, "cycleInterval", s.cycle_interval, KFC_LONG_SECONDS, "TimeSensor")))
        return st;
    for (uint32_t i = 0; i < n->out_count; i++) {
        kfc_x3d_route *r = n->out[i];
        const kfc_x3d_node *d = r->to;
        int onward;
        if ((st = fraction_route(m, r, 0, &onward)))
            return st;
        if (!onward)
            continue;
        if (interpolator_node(d) != KF_NODE_EASE_IN_EASE_OUT) {
            if ((st = chain(m, &s, NULL, d)))
                return st;
            continue;
        }
        m->state[d->index] |= USED;
        for (uint32_t k = 0; k < d->out_count; k++) {
            kfc_x3d_route *r2 = d->out[k];
            if ((st = count_track(m, r2->mark)) || (st = fraction_route(m, r2, 1, &onward)))
                return st;
            if (onward && (st = chain(m, &s, d, r2->to)))
                return st;
        }
    }
    return KFC_OK;
}

/* `field` of follower `n`, `dimension` numbers a value; `rotations`: an
 * orientation follower's, whose angles are in the scene's UNIT angle. */
static kfc_status follower_values(mapper *m, const kfc_x3d_node *n, const char *field,
                                  uint32_t dimension, int rotations, const double **values,
                                  uint32_t *count)
{
    kfc_x3d_numbers v;
    kfc_status st = numbers(m, n, field, &v);
    if (st || (st = check_groups(m, n, field, v.count, dimension)))
        return st;
    if (rotations)
        to_radians(m, v.values, v.count);
    if (v.count > UINT32_MAX / 8)
        return kfc_fail(m->diag, KFC_INVALID, n->mark, "%s of %s holds too many numbers", field,
                        n->type);
    *values = v.values;
    *count = (uint32_t)v.count;
    uint32_t first = 0, over = 0;
    if (rotations && (over = kfc_angles_over_turn(v.values, (uint32_t)(v.count / 4), &first))) {
        char what[160], name[KFC_QUOTE_SIZE];
        snprintf(what, sizeof what, "%s %s %s has", n->type, quoted(name, n->name), field);
        return angle_range(m, n, field, v.values, what, first, over);
    }
    return KFC_OK;
}

static kfc_status map_follower(mapper *m, const kfc_x3d_node *n, kf_follower_node node)
{
    kfc_status st;
    char rt[KFC_X3D_ROUTE_SIZE], name[KFC_QUOTE_SIZE];
    kfc_x3d_field_type value;
    int targets = 0, ok, follows;
    chain_field(n, &value);
    for (uint32_t i = 0; i < n->out_count; i++) {
        if ((st = follows_chain(m, n->out[i], &follows)) ||
            (follows && (st = check_target(m, n->out[i], &value, &ok))))
            return st;
        targets += follows && ok;
    }
    if (!targets) {
        kfc_x3d_note(m->scene, n->mark, "%s %s: its value_changed goes nowhere, skipped", n->type,
                     quoted(name, n->name));
        return KFC_OK;
    }
    for (uint32_t i = 0; i < n->in_count; i++) {
        const kfc_x3d_route *r = n->in[i];
        if (strcmp(r->to_field, "set_destination") != 0 && strcmp(r->to_field, "set_value") != 0)
            continue;
        kf_follower_node from;
        /* An interpolator or a follower sends at every frame it runs: the
         * scene moves the follower, which no host does for it. */
        if (r->from && (interpolator_node(r->from) >= 0 || follower_node(r->from, &from))) {
            if ((st = skipped(m, 1, r->mark,
                              "%s dropped: kfb's followers take %s from the host, not from a "
                              "%s's value_changed, so %s %s moves only as the host sends it",
                              kfc_x3d_route_text(rt, r), r->to_field, r->from->type, n->type,
                              quoted(name, n->name))))
                return st;
            continue;
        }
        kfc_x3d_note(m->scene, r->mark,
                     "%s: the host sends these events "
                     "(kf_player_follower_set_destination / _set_value)",
                     kfc_x3d_route_text(rt, r));
    }
    if ((st = report_fields(m, n)))
        return st;
    uint32_t dim = kf_follower_node_field_components(node);
    kf_follower_desc d;
    kf_follower_desc_init(&d, node);
    d.name = n->name;
    double order = d.order;
    const int rotations =
        node == KF_FOLLOWER_NODE_ORIENTATION_CHASER || node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER;
    if ((st = follower_values(m, n, "initialValue", dim, rotations, &d.initial_value,
                              &d.initial_value_count)) ||
        (st = follower_values(m, n, "initialDestination", dim, rotations, &d.initial_destination,
                              &d.initial_destination_count)))
        return st;
    if (kf_follower_node_is_damper(node)) {
        if ((st = number(m, n, "tau", &d.tau)) || (st = number(m, n, "order", &order)) ||
            (st = number(m, n, "tolerance", &d.tolerance)))
            return st;
        if (order != floor(order) || order < -1e9 || order > 1e9)
            return skipped(m, 1, n->mark, "%s %s skipped: order %g is not an integer", n->type,
                           quoted(name, n->name), order);
        /* Browsers play an order past 5 as 5 (clause 39: a higher one
         * smooths no more), below 0 as 0, and any negative tolerance as
         * their own default (-1): so does kfc, with a note. */
        if (order < 0 || order > 5) {
            kfc_x3d_note(m->scene, n->mark, "%s %s: order %g plays as %d (a damper's is 0 to 5)",
                         n->type, quoted(name, n->name), order, order < 0 ? 0 : 5);
            order = order < 0 ? 0 : 5;
        }
        d.order = (int32_t)order;
        if (d.tolerance < 0 && d.tolerance != -1) {
            kfc_x3d_note(m->scene, n->mark,
                         "%s %s: tolerance %g plays as -1 (the browser's own, as any negative "
                         "one does)",
                         n->type, quoted(name, n->name), d.tolerance);
            d.tolerance = -1;
        }
        if ((st = long_time(m, n, "tau", d.tau, KFC_LONG_TAU, "follower")))
            return st;
    } else if ((st = number(m, n, "duration", &d.duration)) ||
               (st = long_time(m, n, "duration", d.duration, KFC_LONG_SECONDS, "follower"))) {
        return st;
    }
    /* A Coordinate or TexCoord node's count is its points' numbers; the
     * single-valued nodes take exactly their field's. */
    int multi =
        node == KF_FOLLOWER_NODE_COORDINATE_CHASER || node == KF_FOLLOWER_NODE_COORDINATE_DAMPER ||
        node == KF_FOLLOWER_NODE_TEXCOORD_CHASER_2D || node == KF_FOLLOWER_NODE_TEXCOORD_DAMPER_2D;
    uint32_t count = d.initial_value_count ? d.initial_value_count : d.initial_destination_count;
    uint32_t components = multi ? count : dim;
    if (rotations)
        components = 4;
    /* The builder's follower and controller. */
    if (!kfc_x3d_charge(m->scene,
                        2 * (KFC_X3D_COST_OBJECT + strlen(n->name)) +
                            ((uint64_t)d.initial_value_count + d.initial_destination_count) *
                                KFC_X3D_COST_NUMBER))
        return kfc_x3d_fail_alloc(m->scene, n->mark, m->diag);
    kf_error err;
    kf_result r = kf_builder_add_follower(m->builder, &d, &err);
    char what[160];
    snprintf(what, sizeof what, "%s %s", n->type, quoted(name, n->name));
    if (r)
        return builder_failed(m, r, n->mark, what, &err, 1);
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = n->name;
    if ((r = kf_builder_add_controller(m->builder, &c, &err)))
        return builder_failed(m, r, n->mark, what, &err, 1);
    for (uint32_t i = 0; i < n->out_count; i++) {
        /* Again as above, now without a word. */
        if ((st = follows_chain(m, n->out[i], &follows)) ||
            (follows && (st = check_target(m, n->out[i], &value, &ok))))
            return st;
        if (follows && ok && (st = add_track(m, n->out[i], n->name, n->name, components, NULL)))
            return st;
    }
    return KFC_OK;
}

/* ROUTEs into an interpolator's set_fraction from anything but a
 * TimeSensor or an EaseInEaseOut: a Script, a sensor of another kind. */
static void note_unfed(mapper *m, const kfc_x3d_node *n)
{
    char rt[KFC_X3D_ROUTE_SIZE];
    for (uint32_t i = 0; i < n->in_count; i++) {
        const kfc_x3d_route *r = n->in[i];
        /* A node of a type no one defines was reported with its node; an
         * interpolator a sensor drives, by eased_chain. */
        if (strcmp(r->to_field, "set_fraction") != 0 || is_type(r->from, "TimeSensor") ||
            is_type(r->from, "EaseInEaseOut") || kfc_x3d_unknown_type(m->scene, r->from) ||
            (interpolator_node(r->from) >= 0 && (m->state[r->from->index] & USED)))
            continue;
        kfc_x3d_note(m->scene, r->mark, "%s skipped: chains fed by a %s are not imported",
                     kfc_x3d_route_text(rt, r), r->from->type);
    }
}

kfc_status kfc_x3d_map(kfc_x3d_scene *scene, kf_builder *builder, kfc_diag *diag)
{
    mapper m = {scene, builder, diag, NULL, NULL, 0, 0, NULL, 0, 0};
    m.max_tracks = (uint64_t)scene->route_count * TRACKS_PER_ROUTE + TRACKS_BASE;
    size_t count = scene->node_count ? scene->node_count : 1;
    if (!kfc_x3d_charge(scene, (uint64_t)count * (1 + sizeof *m.components)))
        return kfc_x3d_fail_alloc(scene, scene->nodes ? scene->nodes->mark : (kfc_mark){1, 1},
                                  diag);
    m.state = calloc(count, 1);
    m.components = calloc(count, sizeof *m.components);
    if (!m.state || !m.components) {
        free(m.state);
        free(m.components);
        return kfc_fail_nomem(diag);
    }
    kfc_status st = KFC_OK;
    kf_follower_node fnode;
    for (const kfc_x3d_node *n = scene->nodes; n && !st; n = n->next)
        if (n->name && !n->in_proto && is_type(n, "TimeSensor"))
            st = map_sensor(&m, n);
    for (const kfc_x3d_node *n = scene->nodes; n && !st; n = n->next)
        if (n->name && !n->in_proto && follower_node(n, &fnode))
            st = map_follower(&m, n, fnode);
    for (const kfc_x3d_node *n = scene->nodes; n && !st; n = n->next) {
        if (!n->in_proto && interpolator_node(n) >= 0)
            note_unfed(&m, n);
    }
    for (const kfc_x3d_node *n = scene->nodes; n && !st; n = n->next)
        if (!n->in_proto && is_type(n, "Script"))
            kfc_x3d_note(scene, n->mark, "Script%s%s: not run", n->name ? " " : "",
                         n->name ? n->name : "");
    if (!st)
        st = fan_in(&m);
    free(m.state);
    free(m.components);
    free(m.reached);
    return st;
}
