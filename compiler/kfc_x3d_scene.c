/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_scene.c - the X3D scene graph (kfc_x3d_scene.h): nodes, DEF
 * bindings, ROUTEs, notes, and typed reads of field text.
 */
#include "kfc_x3d_scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"
#include "kf_index.h"
#include "kf_math.h"
#include "kfc_number.h"
#include "kfc_suggest.h"
#include "kfc_text.h"

struct kfc_x3d_binding {
    const char *def;
    kfc_x3d_node *node;
    kfc_x3d_node *first; /* the first node given this DEF */
    uint32_t defined;    /* nodes given this DEF so far */
};

struct kfc_x3d_use_at {
    const char *def;
    kfc_mark mark;
    struct kfc_x3d_use_at *next;
};

struct kfc_x3d_note_line {
    kfc_mark mark;
    struct kfc_x3d_note_line *next;
    char text[]; /* the message */
};

struct kfc_x3d_proto {
    const char *name;
    struct kfc_x3d_proto *next;
    /* Its body's ROUTEs (kfc_x3d_proto_route): one out of a fraction_changed
     * (a sensor's clock), and the first out of a value_changed into
     * anything but a set_fraction (what the clock animates). */
    int clock, warned;
    const char *animates; /* "a.value_changed TO b.translation", or NULL */
    kfc_mark animates_at;
};

/* Names offered for "did you mean" in one scene, at most: each unknown
 * name is compared with every DEF name, which many of both would make
 * quadratic in the scene's size (kfc_suggest.h bounds only the comparing). */
#define MAX_OFFERS ((uint64_t)1 << 20)

void kfc_x3d_scene_init(kfc_x3d_scene *scene, const kfc_import_options *options)
{
    memset(scene, 0, sizeof *scene);
    kfc_arena_init(&scene->arena);
    scene->options = options;
    scene->budget = KFC_X3D_BUDGET_BASE;
    scene->angle_factor = 1;
}

void kfc_x3d_scene_budget(kfc_x3d_scene *scene, size_t text_size)
{
    if (scene->budget_set)
        return;
    scene->budget_set = 1;
    scene->budget = KFC_X3D_BUDGET_BASE + (uint64_t)text_size * KFC_X3D_BUDGET_PER_BYTE;
}

int kfc_x3d_charge(kfc_x3d_scene *scene, uint64_t bytes)
{
    if (bytes > scene->budget) {
        scene->over_budget = 1;
        return 0;
    }
    scene->budget -= bytes;
    return 1;
}

void kfc_x3d_refund(kfc_x3d_scene *scene, uint64_t bytes)
{
    scene->budget += bytes;
}

void *kfc_x3d_alloc(kfc_x3d_scene *scene, size_t size, size_t align)
{
    /* An arena block's tail may go unused: charged with the allocation. */
    return kfc_x3d_charge(scene, (uint64_t)size + align)
               ? kfc_arena_alloc(&scene->arena, size, align)
               : NULL;
}

kfc_status kfc_x3d_fail_alloc(kfc_x3d_scene *scene, kfc_mark mark, kfc_diag *diag)
{
    if (scene->over_budget)
        return kfc_fail(diag, KFC_INVALID, mark, KFC_X3D_BUDGET_MESSAGE);
    return kfc_fail_nomem(diag);
}

static void free_notes(kfc_x3d_scene *scene)
{
    for (kfc_x3d_note_line *n = scene->note_lines, *next; n; n = next) {
        next = n->next;
        free(n);
    }
    scene->note_lines = scene->last_note_line = NULL;
}

void kfc_x3d_scene_free(kfc_x3d_scene *scene)
{
    free_notes(scene);
    free(scene->import_names);
    free(scene->table);
    free(scene->proto_names);
    kfc_arena_free(&scene->arena);
    memset(scene, 0, sizeof *scene);
}

char *kfc_x3d_strdup(kfc_x3d_scene *scene, const char *text, size_t length)
{
    char *s = kfc_x3d_alloc(scene, length + 1, 1);
    if (s) {
        memcpy(s, text, length);
        s[length] = '\0';
    }
    return s;
}

/* The slot of `def`, or the empty one where it goes. DEF names come from
 * the file: hashed under the table's own secret (kf_index.h), names crafted
 * to collide cost no more than any others. */
static kfc_x3d_binding **slot(const kfc_x3d_scene *cscene, const char *def)
{
    kfc_x3d_scene *scene = (kfc_x3d_scene *)cscene; /* only the probe count changes */
    size_t mask = scene->table_size - 1;
    for (size_t i = (size_t)kf_hash_keyed(scene->table_key, def, strlen(def)) & mask;;
         i = (i + 1) & mask) {
        scene->table_probes++;
        if (!scene->table[i] || strcmp(scene->table[i]->def, def) == 0)
            return &scene->table[i];
    }
}

static int grow(kfc_x3d_scene *scene)
{
    size_t size = scene->table_size ? scene->table_size * 2 : 64;
    kfc_x3d_binding **old = scene->table;
    size_t old_size = scene->table_size;
    if (!kfc_x3d_charge(scene, (uint64_t)size * sizeof *scene->table))
        return 0;
    scene->table = calloc(size, sizeof *scene->table);
    if (!scene->table) {
        scene->table = old;
        return 0;
    }
    scene->table_size = size;
    kf_hash_key_draw(scene->table_key, scene->table, scene);
    for (size_t i = 0; i < old_size; i++)
        if (old[i])
            *slot(scene, old[i]->def) = old[i];
    free(old);
    kfc_x3d_refund(scene, (uint64_t)old_size * sizeof *scene->table);
    return 1;
}

int kfc_x3d_keeps_node(const char *type, size_t length, int has_def, int in_proto)
{
    if (in_proto)
        return 0;
    return has_def || (length == 6 && memcmp(type, "Script", 6) == 0);
}

/* Nodes kfc_x3d_map reads fields of. */
static int animates(const char *type)
{
    kf_follower_node follower;
    if (strcmp(type, "TimeSensor") == 0 || kf_follower_node_from_name(type, &follower))
        return 1;
    for (int k = 0; k < KF_NODE_COUNT; k++)
        if (strcmp(type, kf_node_name((kf_node)k)) == 0)
            return 1;
    return 0;
}

int kfc_x3d_keeps_field(const kfc_x3d_node *node, const char *name, size_t length)
{
    /* Every field kfc_x3d_map reads, of any animating node. */
    static const char *const read[] = {
        "key",
        "keyValue",
        "easeInEaseOut",
        "keyVelocity",
        "closed",
        "normalizeVelocity",
        "cycleInterval",
        "startTime",
        "stopTime",
        "loop",
        "enabled",
        "initialValue",
        "initialDestination",
        "tau",
        "order",
        "tolerance",
        "duration",
    };
    if (!node || !node->animates)
        return 0;
    if (length > 4 && memcmp(name, "set_", 4) == 0)
        name += 4, length -= 4;
    else if (length > 8 && memcmp(name + length - 8, "_changed", 8) == 0)
        length -= 8;
    for (size_t i = 0; i < sizeof read / sizeof read[0]; i++)
        if (strlen(read[i]) == length && memcmp(read[i], name, length) == 0)
            return 1;
    return 0;
}

static int compare_type(const void *name, const void *type)
{
    return strcmp(name, ((const kfc_x3d_node_type *)type)->name);
}

const kfc_x3d_node_type *kfc_x3d_node_type_find(const char *name)
{
    return bsearch(name, kfc_x3d_node_types, kfc_x3d_node_type_count, sizeof kfc_x3d_node_types[0],
                   compare_type);
}

int kfc_x3d_field_next(const char **cursor, kfc_x3d_field_type *out)
{
    /* The table is written by a program (kfc_x3d_nodes.h): every field
     * is "NAME TYPE ACCESS;". */
    const char *p = *cursor;
    if (!*p)
        return 0;
    out->name = p;
    p = strchr(p, ' ');
    out->length = (size_t)(p - out->name);
    out->type = ++p;
    p = strchr(p, ' ');
    out->type_length = (size_t)(p - out->type);
    out->access = (unsigned)(p[1] - '0');
    *cursor = p + 3;
    return 1;
}

/* Field `name` (`length` bytes) of `type`, as kfc_x3d_field_find. */
static int find_field(const kfc_x3d_node_type *type, const char *name, size_t length,
                      kfc_x3d_field_type *out)
{
    const char *base = name;
    size_t base_length = length;
    if (length > 4 && memcmp(name, "set_", 4) == 0)
        base += 4, base_length -= 4;
    else if (length > 8 && memcmp(name + length - 8, "_changed", 8) == 0)
        base_length -= 8;
    int aliased = 0;
    kfc_x3d_field_type f, alias;
    for (const char *c = type->fields; kfc_x3d_field_next(&c, &f);) {
        if (f.length == length && memcmp(f.name, name, length) == 0) {
            *out = f;
            return 1;
        }
        if (!aliased && base_length != length &&
            f.access == (KFC_X3D_INITIALIZE | KFC_X3D_IN | KFC_X3D_OUT) &&
            f.length == base_length && memcmp(f.name, base, base_length) == 0) {
            alias = f;
            aliased = 1;
        }
    }
    if (aliased)
        *out = alias;
    return aliased;
}

int kfc_x3d_field_find(const kfc_x3d_node_type *type, const char *name, kfc_x3d_field_type *out)
{
    return find_field(type, name, strlen(name), out);
}

int kfc_x3d_field_find_length(const kfc_x3d_node_type *type, const char *name, size_t length,
                              kfc_x3d_field_type *out)
{
    return find_field(type, name, length, out);
}

const char *kfc_x3d_chain_output(const kfc_x3d_node *node)
{
    if (!node->animates)
        return NULL;
    if (strcmp(node->type, "TimeSensor") == 0)
        return "fraction_changed";
    if (strcmp(node->type, "EaseInEaseOut") == 0)
        return "modifiedFraction_changed";
    return "value_changed";
}

/* `name` put at the head of a list of names (the scene's prototypes, or
 * the names its IMPORTs bind), its count one more. */
static kfc_status push_name(kfc_x3d_scene *scene, struct kfc_x3d_proto **list, size_t *count,
                            const char *name, size_t length, kfc_mark mark, kfc_diag *diag)
{
    struct kfc_x3d_proto *p = kfc_x3d_alloc(scene, sizeof *p, _Alignof(struct kfc_x3d_proto));
    if (!p)
        return kfc_x3d_fail_alloc(scene, mark, diag);
    /* (arena memory is not zeroed: no ROUTE of its body seen yet) */
    *p = (struct kfc_x3d_proto){0};
    if (!(p->name = kfc_x3d_strdup(scene, name, length)))
        return kfc_x3d_fail_alloc(scene, mark, diag);
    p->next = *list;
    *list = p;
    ++*count;
    return KFC_OK;
}

kfc_status kfc_x3d_add_proto(kfc_x3d_scene *scene, const char *name, size_t length, kfc_mark mark,
                             kfc_diag *diag)
{
    return push_name(scene, &scene->protos, &scene->proto_count, name, length, mark, diag);
}

struct kfc_x3d_proto *kfc_x3d_last_proto(kfc_x3d_scene *scene)
{
    return scene->protos;
}

kfc_status kfc_x3d_proto_route(kfc_x3d_scene *scene, struct kfc_x3d_proto *proto,
                               const char *from_def, const char *from_field, const char *to_def,
                               const char *to_field, kfc_mark mark, kfc_diag *diag)
{
    if (!proto)
        return KFC_OK;
    if (kfc_x3d_field_is(from_field, "fraction"))
        proto->clock = 1;
    if (proto->animates || !kfc_x3d_field_is(from_field, "value") ||
        kfc_x3d_field_is(to_field, "fraction"))
        return KFC_OK;
    size_t n = strlen(from_def) + strlen(from_field) + strlen(to_def) + strlen(to_field) + 8;
    char *text = kfc_x3d_alloc(scene, n, 1);
    if (!text)
        return kfc_x3d_fail_alloc(scene, mark, diag);
    snprintf(text, n, "%s.%s TO %s.%s", from_def, from_field, to_def, to_field);
    proto->animates = text;
    proto->animates_at = mark;
    return KFC_OK;
}

kfc_status kfc_x3d_proto_instance(kfc_x3d_scene *scene, const char *type, kfc_mark mark,
                                  kfc_diag *diag)
{
    /* The innermost declaration of the name is the one an instance takes. */
    for (struct kfc_x3d_proto *p = scene->protos; p; p = p->next) {
        if (strcmp(p->name, type) != 0)
            continue;
        if (!p->clock || !p->animates || p->warned)
            return KFC_OK;
        p->warned = 1;
        char q[KFC_QUOTE_SIZE];
        return kfc_warn(diag, KFC_WARN_X3D_DROPPED, mark,
                        "instance of prototype %s dropped, with every other instance: kfc does "
                        "not expand prototypes, and its body animates (ROUTE %s, %lu:%lu)",
                        kfc_quote(q, type, strlen(type)), p->animates,
                        (unsigned long)p->animates_at.line, (unsigned long)p->animates_at.column);
    }
    return KFC_OK;
}

static int compare_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int kfc_x3d_is_proto(const kfc_x3d_scene *scene, const char *type)
{
    return scene->proto_names && bsearch(&type, scene->proto_names, scene->proto_count,
                                         sizeof *scene->proto_names, compare_name) != NULL;
}

int kfc_x3d_proto_declared(const kfc_x3d_scene *scene, const char *type)
{
    for (const struct kfc_x3d_proto *p = scene->protos; p; p = p->next)
        if (strcmp(p->name, type) == 0)
            return 1;
    return 0;
}

kfc_status kfc_x3d_check_field(kfc_x3d_scene *scene, kfc_x3d_node *node, const char *name,
                               size_t length, kfc_mark mark, kfc_diag *diag)
{
    kfc_x3d_field_type f;
    if (!node || !node->animates || !node->node_type ||
        find_field(node->node_type, name, length, &f))
        return KFC_OK;
    kfc_x3d_unknown *u = kfc_x3d_alloc(scene, sizeof *u, _Alignof(kfc_x3d_unknown));
    if (!u || !(u->name = kfc_x3d_strdup(scene, name, length)))
        return kfc_x3d_fail_alloc(scene, mark, diag);
    u->mark = mark;
    u->next = NULL;
    /* In the order written. */
    kfc_x3d_unknown **end = &node->unknown;
    if (node->unknown_last)
        end = &node->unknown_last->next;
    *end = u;
    node->unknown_last = u;
    return KFC_OK;
}

void kfc_x3d_set_version(kfc_x3d_scene *scene, const char *text, size_t length, kfc_mark mark,
                         int vrml97)
{
    unsigned part[2] = {0, 0};
    size_t i = 0;
    scene->vrml97 = vrml97;
    scene->version_mark = mark;
    scene->version = 0;
    for (int k = 0; k < 2; k++) {
        const size_t start = i;
        while (i < length && text[i] >= '0' && text[i] <= '9' && i - start < 3)
            part[k] = part[k] * 10 + (unsigned)(text[i++] - '0');
        if (i == start || (k == 0 && (i >= length || text[i++] != '.')))
            return;
    }
    if (i == length && part[1] < 100)
        scene->version = part[0] * 100 + part[1];
}

static const char *const unit_categories[KFC_X3D_UNIT_COUNT] = {"angle", "force", "length", "mass"};
/* X3D's base unit of each category. */
static const char *const unit_base[KFC_X3D_UNIT_COUNT] = {"radians", "newtons", "metres",
                                                          "kilograms"};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Where the number JavaScript's parseFloat reads at the start of `t`
 * (`n` bytes) lies, as X_ITE reads a <unit>'s conversionFactor: past
 * leading space, the longest decimal (or "Infinity") there is, from
 * *start to the return value; 0 where parseFloat gives NaN. */
static size_t float_prefix(const char *t, size_t n, size_t *start)
{
    size_t i = 0;
    while (i < n && (t[i] == ' ' || (t[i] >= '\t' && t[i] <= '\r')))
        i++;
    *start = i;
    if (i < n && (t[i] == '+' || t[i] == '-'))
        i++;
    if (n - i >= 8 && memcmp(t + i, "Infinity", 8) == 0)
        return i + 8;
    size_t digits = 0;
    for (; i < n && is_digit(t[i]); i++)
        digits++;
    if (i < n && t[i] == '.') {
        size_t j = i + 1;
        for (; j < n && is_digit(t[j]); j++)
            digits++;
        if (digits)
            i = j;
    }
    if (!digits)
        return 0;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (t[j] == '+' || t[j] == '-'))
            j++;
        const size_t exponent = j;
        while (j < n && is_digit(t[j]))
            j++;
        if (j > exponent)
            i = j;
    }
    return i;
}

/* The conversion factor `factor` of UNIT `category` (`k`) `unit`, as
 * X_ITE reads it, into *f; 0 in *f_read when it is no finite number, which
 * only a UNIT angle cannot be. */
static kfc_status read_factor(kfc_x3d_scene *scene, const kfc_x3d_text *factor, int k,
                              const char *unit, double *f, int *f_read, kfc_diag *diag)
{
    char q[KFC_QUOTE_SIZE];
    *f_read = 0;
    if (factor->comments) {
        /* ClassicVRML: a number, as a field's, or X_ITE refuses the scene. */
        char buf[128];
        const size_t n = factor->length;
        kfc_number_result r = KFC_NUMBER_SYNTAX;
        if (n < sizeof buf) {
            memcpy(buf, factor->text, n);
            buf[n] = '\0';
            r = kfc_parse_number(buf, n, f);
        }
        if (r == KFC_NUMBER_RANGE)
            return kfc_fail(diag, KFC_INVALID, factor->mark, "number %s is out of range",
                            kfc_quote(q, factor->text, n));
        if (r != KFC_NUMBER_OK)
            return kfc_fail(diag, KFC_INVALID, factor->mark, "expected a number, not %s",
                            kfc_quote(q, factor->text, n));
        *f_read = 1;
        return KFC_OK;
    }
    size_t start, used = float_prefix(factor->text, factor->length, &start);
    kfc_quote(q, factor->text, factor->length);
    if (used) {
        char *copy = kfc_x3d_alloc(scene, used - start + 1, 1);
        if (!copy)
            return kfc_x3d_fail_alloc(scene, factor->mark, diag);
        memcpy(copy, factor->text + start, used - start);
        copy[used - start] = '\0';
        /* "Infinity", or too large for a double: parseFloat's Infinity. */
        if (kfc_parse_number(copy, used - start, f) != KFC_NUMBER_OK)
            *f = HUGE_VAL;
    }
    if (!used || !isfinite(*f)) {
        /* X_ITE takes the unit with a factor of NaN or infinity: every
         * rotation's angle is NaN then, which nothing plays. */
        const char *what = used ? "a finite number" : "a number", *read = used ? "infinity" : "NaN";
        if (k == KFC_X3D_UNIT_ANGLE)
            return kfc_fail(diag, KFC_INVALID, factor->mark,
                            "UNIT angle %s: conversionFactor %s is not %s (browsers read %s, "
                            "which makes every rotation's angle NaN): write one %s in radians",
                            unit, q, what, read, unit);
        return kfc_warn(diag, KFC_WARN_X3D_LENIENT, factor->mark,
                        "UNIT %s %s: conversionFactor %s is not %s (browsers read %s): write "
                        "one %s in %s",
                        unit_categories[k], unit, q, what, read, unit, unit_base[k]);
    }
    *f_read = 1;
    size_t end = used;
    while (end < factor->length &&
           (factor->text[end] == ' ' || (factor->text[end] >= '\t' && factor->text[end] <= '\r')))
        end++;
    if (end < factor->length)
        return kfc_warn(diag, KFC_WARN_X3D_LENIENT, factor->mark,
                        "conversionFactor %s read as %.9g, as browsers do: write the number alone",
                        q, *f);
    return KFC_OK;
}

kfc_status kfc_x3d_add_unit(kfc_x3d_scene *scene, const kfc_x3d_text *category,
                            const kfc_x3d_text *name, const kfc_x3d_text *factor, kfc_mark mark,
                            kfc_diag *diag)
{
    char q[KFC_QUOTE_SIZE], unit[KFC_QUOTE_SIZE], mean[256];
    kfc_status st;
    /* X_ITE reads UNIT whatever the version says (said once a scene). */
    const int first = !scene->unit_seen;
    scene->unit_seen = 1;
    if (first && scene->vrml97 &&
        (st = kfc_warn(diag, KFC_WARN_X3D_LENIENT, mark,
                       "UNIT applied in a VRML97 file, as browsers do: UNIT is X3D's (3.3 and "
                       "later); write the header '#X3D V3.3 utf8'")))
        return st;
    if (first && !scene->vrml97 && scene->version && scene->version < 303 &&
        (st = kfc_warn(diag, KFC_WARN_X3D_LENIENT, mark,
                       "UNIT applied in a scene of version %u.%u (%lu:%lu), as browsers do: UNIT "
                       "needs X3D 3.3 or later; make the version 3.3",
                       scene->version / 100, scene->version % 100,
                       (unsigned long)scene->version_mark.line,
                       (unsigned long)scene->version_mark.column)))
        return st;
    int k = 0;
    while (k < KFC_X3D_UNIT_COUNT &&
           !(strlen(unit_categories[k]) == category->length &&
             memcmp(unit_categories[k], category->text, category->length) == 0))
        k++;
    if (k == KFC_X3D_UNIT_COUNT) {
        kfc_suggest sg;
        kfc_suggest_begin(&sg, diag, category->text, category->length);
        for (int c = 0; c < KFC_X3D_UNIT_COUNT; c++)
            kfc_suggest_offer(&sg, unit_categories[c], strlen(unit_categories[c]));
        return kfc_warn(diag, KFC_WARN_X3D_UNKNOWN, category->mark,
                        "unknown unit category %s: the UNIT is ignored, as browsers do (X3D's "
                        "are angle, force, length and mass)%s",
                        kfc_quote(q, category->text, category->length),
                        kfc_suggest_text(&sg, mean, sizeof mean));
    }
    /* The last of a category is the one X_ITE applies. */
    if (scene->unit_at[k].line &&
        (st = kfc_warn(diag, KFC_WARN_X3D_LENIENT, mark,
                       "a second UNIT %s replaces the first (%lu:%lu), as browsers do: X3D allows "
                       "one per category",
                       unit_categories[k], (unsigned long)scene->unit_at[k].line,
                       (unsigned long)scene->unit_at[k].column)))
        return st;
    kfc_quote(unit, name->text, name->length);
    double f;
    int f_read;
    if ((st = read_factor(scene, factor, k, unit, &f, &f_read, diag)))
        return st;
    scene->unit_at[k] = mark;
    if (f_read && !(f > 0) &&
        (st = kfc_warn(diag, KFC_WARN_X3D_LENIENT, factor->mark,
                       "UNIT %s %s: the conversion factor %.9g is not positive (it is one %s in "
                       "%s), applied as browsers do",
                       unit_categories[k], unit, f, unit, unit_base[k])))
        return st;
    if (k != KFC_X3D_UNIT_ANGLE) {
        /* X_ITE gives a length unit to no interpolator's or follower's
         * values (a ROUTE carries a value as it is), and kfc reads no
         * other. */
        kfc_x3d_note(scene, mark, "UNIT %s %s: no value kfc imports is in %s", unit_categories[k],
                     unit, k == KFC_X3D_UNIT_LENGTH ? "a length unit (as in X_ITE)" : unit_base[k]);
        return KFC_OK;
    }
    if (!(scene->angle_unit = kfc_x3d_strdup(scene, name->text, name->length)))
        return kfc_x3d_fail_alloc(scene, mark, diag);
    scene->angle_factor = f;
    kfc_x3d_note(scene, mark,
                 "UNIT angle %s: the angles of rotations are read in %s, %.9g radians each", unit,
                 unit, f);
    return KFC_OK;
}

kfc_status kfc_x3d_use(kfc_x3d_scene *scene, const char *def, size_t length, kfc_mark mark,
                       kfc_diag *diag)
{
    char name[128];
    if (length < sizeof name) {
        memcpy(name, def, length);
        name[length] = '\0';
        if (kfc_x3d_lookup(scene, name))
            return KFC_OK;
    }
    kfc_x3d_use_at *u = kfc_x3d_alloc(scene, sizeof *u, _Alignof(kfc_x3d_use_at));
    if (!u || !(u->def = kfc_x3d_strdup(scene, def, length)))
        return kfc_x3d_fail_alloc(scene, mark, diag);
    if (length >= sizeof name && kfc_x3d_lookup(scene, u->def))
        return KFC_OK;
    u->mark = mark;
    u->next = NULL;
    if (scene->last_use)
        scene->last_use->next = u;
    else
        scene->uses = u;
    scene->last_use = u;
    return KFC_OK;
}

kfc_status kfc_x3d_add_import(kfc_x3d_scene *scene, const char *name, size_t length, kfc_mark mark,
                              kfc_diag *diag)
{
    return push_name(scene, &scene->imports, &scene->import_count, name, length, mark, diag);
}

kfc_x3d_node *kfc_x3d_lookup(const kfc_x3d_scene *scene, const char *def)
{
    if (!scene->table_size || !def)
        return NULL;
    kfc_x3d_binding *b = *slot(scene, def);
    return b ? b->node : NULL;
}

kfc_x3d_node *kfc_x3d_add_node(kfc_x3d_scene *scene, const char *type, const char *def,
                               kfc_mark mark, int in_proto)
{
    if (!type)
        return NULL;
    kfc_x3d_node *n = kfc_x3d_alloc(scene, sizeof *n, _Alignof(kfc_x3d_node));
    if (!n)
        return NULL;
    memset(n, 0, sizeof *n);
    n->type = type;
    n->def = def;
    n->mark = mark;
    n->in_proto = in_proto;
    n->animates = animates(type);
    n->node_type = kfc_x3d_node_type_find(type);
    n->index = scene->node_count++;
    if (scene->last_node)
        scene->last_node->next = n;
    else
        scene->nodes = n;
    scene->last_node = n;
    if (!def || in_proto)
        return n;
    if ((scene->table_used + 1) * 2 > scene->table_size && !grow(scene))
        return NULL;
    kfc_x3d_binding **s = slot(scene, def);
    if (!*s) {
        *s = kfc_x3d_alloc(scene, sizeof **s, _Alignof(kfc_x3d_binding));
        if (!*s)
            return NULL;
        (*s)->def = def;
        (*s)->first = n;
        (*s)->defined = 0;
        scene->table_used++;
    }
    (*s)->node = n;
    (*s)->defined++;
    if ((*s)->defined == 1) {
        n->name = def;
    } else {
        char suffix[16];
        int k = snprintf(suffix, sizeof suffix, "#%u", (unsigned)(*s)->defined);
        size_t len = strlen(def);
        char *name = kfc_x3d_alloc(scene, len + (size_t)k + 1, 1);
        if (!name)
            return NULL;
        memcpy(name, def, len);
        memcpy(name + len, suffix, (size_t)k + 1);
        n->name = name;
        char given[KFC_QUOTE_SIZE], named[KFC_QUOTE_SIZE];
        kfc_x3d_note(scene, mark, "DEF %s given again: this node is named %s",
                     kfc_quote(given, def, strlen(def)), kfc_quote(named, name, strlen(name)));
    }
    return n;
}

kfc_status kfc_x3d_add_field(kfc_x3d_scene *scene, kfc_x3d_node *node, const char *name,
                             const kfc_x3d_text *value, kfc_mark mark, kfc_diag *diag)
{
    char base[128];
    kfc_x3d_base_name(name, base, sizeof base);
    for (kfc_x3d_field *f = node->fields; f; f = f->next)
        if (kfc_x3d_field_is(f->name, base)) {
            f->name = name;
            f->value = *value;
            f->mark = mark;
            return KFC_OK;
        }
    kfc_x3d_field *f = kfc_x3d_alloc(scene, sizeof *f, _Alignof(kfc_x3d_field));
    if (!f)
        return kfc_x3d_fail_alloc(scene, mark, diag);
    f->name = name;
    f->value = *value;
    f->mark = mark;
    f->next = node->fields;
    node->fields = f;
    return KFC_OK;
}

kfc_status kfc_x3d_add_route(kfc_x3d_scene *scene, const char *from_def, const char *from_field,
                             const char *to_def, const char *to_field, kfc_mark mark,
                             kfc_diag *diag)
{
    kfc_x3d_route *r = kfc_x3d_alloc(scene, sizeof *r, _Alignof(kfc_x3d_route));
    if (!r)
        return kfc_x3d_fail_alloc(scene, mark, diag);
    r->from_def = from_def;
    r->from_field = from_field;
    r->to_def = to_def;
    r->to_field = to_field;
    r->from = kfc_x3d_lookup(scene, from_def);
    r->to = kfc_x3d_lookup(scene, to_def);
    r->mark = mark;
    r->reported = 0;
    r->next = NULL;
    if (scene->last_route)
        scene->last_route->next = r;
    else
        scene->routes = r;
    scene->last_route = r;
    scene->route_count++;
    return KFC_OK;
}

int kfc_x3d_unknown_type(const kfc_x3d_scene *scene, const kfc_x3d_node *node)
{
    return !node->node_type && !node->instance && !kfc_x3d_is_proto(scene, node->type);
}

int kfc_x3d_in_chain(const kfc_x3d_scene *scene, const kfc_x3d_route *r)
{
    static const char *const events[] = {"fraction_changed", "modifiedFraction_changed",
                                         "value_changed"};
    const kfc_x3d_node *from = r->from, *to = r->to;
    if (from && from->animates) {
        if (strcmp(r->from_field, kfc_x3d_chain_output(from)) == 0)
            return 1;
    } else if (!from || kfc_x3d_unknown_type(scene, from)) {
        for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
            if (strcmp(r->from_field, events[i]) == 0)
                return 1;
    }
    return strcmp(r->to_field, "set_fraction") == 0 &&
           (!to || to->animates || kfc_x3d_unknown_type(scene, to));
}

int kfc_x3d_offer(kfc_x3d_scene *scene, kfc_suggest *sg, const char *name, size_t length)
{
    if (scene->offers >= MAX_OFFERS)
        return 0;
    scene->offers++;
    kfc_suggest_offer(sg, name, length);
    return 1;
}

/* The DEF name probably meant by `def`, which none binds: "; did you mean
 * 'Glow'?", or "". */
static char *suggest_def(kfc_x3d_scene *scene, const char *def, kfc_diag *diag, char *out,
                         size_t size)
{
    kfc_suggest sg;
    kfc_suggest_begin(&sg, diag, def, strlen(def));
    /* Each name once: a node given a DEF again is named DEF#n. */
    for (const kfc_x3d_node *n = scene->nodes; n; n = n->next)
        if (n->def && n->name == n->def && !kfc_x3d_offer(scene, &sg, n->def, strlen(n->def)))
            break;
    return kfc_suggest_text(&sg, out, size);
}

/* A node of a type neither X3D nor the scene defines, in a chain: browsers
 * drop the node, and with it its ROUTEs; so does the importer. */
static kfc_status unknown_type(kfc_x3d_scene *scene, const kfc_x3d_node *n, kfc_diag *diag)
{
    int chained = 0;
    for (uint32_t i = 0; i < n->out_count && !chained; i++)
        chained = kfc_x3d_in_chain(scene, n->out[i]);
    for (uint32_t i = 0; i < n->in_count && !chained; i++)
        chained = kfc_x3d_in_chain(scene, n->in[i]);
    if (!chained)
        return KFC_OK;
    kfc_suggest sg;
    kfc_suggest_begin(&sg, diag, n->type, strlen(n->type));
    for (size_t k = 0; k < kfc_x3d_node_type_count; k++)
        if (!kfc_x3d_offer(scene, &sg, kfc_x3d_node_types[k].name,
                           strlen(kfc_x3d_node_types[k].name)))
            break;
    char type[KFC_QUOTE_SIZE], name[KFC_QUOTE_SIZE], mean[256];
    return kfc_warn(diag, KFC_WARN_X3D_UNKNOWN, n->mark,
                    "unknown node type %s: ROUTEs to and from %s are dropped%s",
                    kfc_quote(type, n->type, strlen(n->type)),
                    kfc_quote(name, n->name, strlen(n->name)),
                    kfc_suggest_text(&sg, mean, sizeof mean));
}

/* The `count` names of `list`, sorted into *out (NULL when none). */
static kfc_status sort_names(kfc_x3d_scene *scene, const struct kfc_x3d_proto *list, size_t count,
                             const char ***out, kfc_diag *diag)
{
    size_t k = 0;
    if (!count)
        return KFC_OK;
    if (!kfc_x3d_charge(scene, count * sizeof **out) || !(*out = malloc(count * sizeof **out)))
        return kfc_x3d_fail_alloc(scene, (kfc_mark){1, 1}, diag);
    for (const struct kfc_x3d_proto *p = list; p; p = p->next)
        (*out)[k++] = p->name;
    qsort(*out, k, sizeof **out, compare_name);
    return KFC_OK;
}

/* The USEs no DEF before them binds: X_ITE takes a DEF that comes later,
 * and warns of a name no DEF binds (or IMPORT: kfc does not follow it). */
static kfc_status check_uses(kfc_x3d_scene *scene, kfc_diag *diag)
{
    for (const kfc_x3d_use_at *u = scene->uses; u; u = u->next) {
        char name[KFC_QUOTE_SIZE], mean[256];
        kfc_status st;
        kfc_quote(name, u->def, strlen(u->def));
        const kfc_x3d_binding *b = scene->table_size ? *slot(scene, u->def) : NULL;
        if (b)
            st = kfc_warn(diag, KFC_WARN_X3D_UNKNOWN, u->mark,
                          "USE %s comes before its DEF (%lu:%lu): X3D wants the DEF first", name,
                          (unsigned long)b->first->mark.line, (unsigned long)b->first->mark.column);
        else if (scene->import_names && bsearch(&u->def, scene->import_names, scene->import_count,
                                                sizeof *scene->import_names, compare_name))
            st = KFC_OK;
        else
            st = kfc_warn(diag, KFC_WARN_X3D_UNKNOWN, u->mark, "USE %s dropped: no DEF names it%s",
                          name, suggest_def(scene, u->def, diag, mean, sizeof mean));
        if (st)
            return st;
    }
    return KFC_OK;
}

kfc_status kfc_x3d_scene_finish(kfc_x3d_scene *scene, kfc_diag *diag)
{
    kfc_status st;
    if ((st = sort_names(scene, scene->protos, scene->proto_count, &scene->proto_names, diag)) ||
        (st = sort_names(scene, scene->imports, scene->import_count, &scene->import_names, diag)) ||
        (st = check_uses(scene, diag)))
        return st;
    for (kfc_x3d_route *r = scene->routes; r; r = r->next) {
        if (!r->from)
            r->from = kfc_x3d_lookup(scene, r->from_def);
        if (!r->to)
            r->to = kfc_x3d_lookup(scene, r->to_def);
        if (r->from && r->to) {
            r->from->out_count++;
            r->to->in_count++;
            continue;
        }
        const char *missing = !r->from ? r->from_def : r->to_def;
        char quoted[KFC_QUOTE_SIZE], mean[256], rt[KFC_X3D_ROUTE_SIZE];
        kfc_quote(quoted, missing, strlen(missing));
        if (!kfc_x3d_in_chain(scene, r)) {
            kfc_x3d_note(scene, r->mark, "ROUTE skipped: no node is named %s", quoted);
            continue;
        }
        if ((st = kfc_warn(diag, KFC_WARN_X3D_UNKNOWN, r->mark, "%s dropped: no node is named %s%s",
                           kfc_x3d_route_text(rt, r), quoted,
                           suggest_def(scene, missing, diag, mean, sizeof mean))))
            return st;
    }
    for (kfc_x3d_node *n = scene->nodes; n; n = n->next) {
        size_t o = n->out_count, i = n->in_count;
        n->out = o ? kfc_x3d_alloc(scene, o * sizeof *n->out, _Alignof(void *)) : NULL;
        n->in = i ? kfc_x3d_alloc(scene, i * sizeof *n->in, _Alignof(void *)) : NULL;
        if ((o && !n->out) || (i && !n->in))
            return kfc_x3d_fail_alloc(scene, n->mark, diag);
        n->out_count = n->in_count = 0;
    }
    for (kfc_x3d_route *r = scene->routes; r; r = r->next)
        if (r->from && r->to) {
            r->from->out[r->from->out_count++] = r;
            r->to->in[r->to->in_count++] = r;
        }
    for (const kfc_x3d_node *n = scene->nodes; n; n = n->next)
        if (n->name && kfc_x3d_unknown_type(scene, n) && (st = unknown_type(scene, n, diag)))
            return st;
    return KFC_OK;
}

int kfc_x3d_field_is(const char *field, const char *base)
{
    size_t n = strlen(field), b = strlen(base);
    if (strcmp(field, base) == 0)
        return 1;
    if (n == b + 4 && strncmp(field, "set_", 4) == 0 && strcmp(field + 4, base) == 0)
        return 1;
    return n == b + 8 && strncmp(field, base, b) == 0 && strcmp(field + b, "_changed") == 0;
}

void kfc_x3d_base_name(const char *field, char *out, size_t size)
{
    size_t n = strlen(field);
    const char *start = field;
    if (n > 4 && strncmp(field, "set_", 4) == 0)
        start += 4, n -= 4;
    else if (n > 8 && strcmp(field + n - 8, "_changed") == 0)
        n -= 8;
    if (n >= size)
        n = size - 1;
    memcpy(out, start, n);
    out[n] = '\0';
}

const kfc_x3d_field *kfc_x3d_field_get(const kfc_x3d_node *node, const char *name)
{
    for (const kfc_x3d_field *f = node->fields; f; f = f->next)
        if (kfc_x3d_field_is(f->name, name))
            return f;
    return NULL;
}

const char *kfc_x3d_route_text(char out[KFC_X3D_ROUTE_SIZE], const kfc_x3d_route *r)
{
    const char *names[4] = {r->from_def, r->from_field, r->to_def, r->to_field};
    char shown[4][KFC_QUOTE_SIZE];
    for (int i = 0; i < 4; i++)
        kf_text_name(shown[i], sizeof shown[i], names[i], strlen(names[i]), 0);
    snprintf(out, KFC_X3D_ROUTE_SIZE, "ROUTE %s.%s TO %s.%s", shown[0], shown[1], shown[2],
             shown[3]);
    return out;
}

static void write_note(const kfc_x3d_scene *scene, kfc_mark mark, const char *text)
{
    FILE *out = scene->options->notes;
    const char *path = scene->options->path;
    if (!path || strcmp(path, "-") == 0)
        path = "<stdin>";
    /* (the file's name and the names the note quotes, as a terminal may
     * show them: kfc_text.h) */
    kfc_text_put_name(out, path, 0);
    if (mark.line)
        fprintf(out, ":%u:%u", (unsigned)mark.line, (unsigned)mark.column);
    fputs(": note: ", out);
    kfc_text_write(out, text);
    fputc('\n', out);
}

void kfc_x3d_note(kfc_x3d_scene *scene, kfc_mark mark, const char *format, ...)
{
    scene->notes++;
    if (!scene->options->notes)
        return;
    va_list args;
    va_start(args, format);
    char first[256];
    int n = vsnprintf(first, sizeof first, format, args);
    va_end(args);
    if (n < 0)
        return;
    /* Held in memory of its own, not the scene's budget, so that -v does
     * not change what compiles: a note is a few times the size of the text
     * that made it. */
    kfc_x3d_note_line *line = malloc(sizeof *line + (size_t)n + 1);
    if (!line) {
        write_note(scene, mark, first); /* at once, then */
        return;
    }
    if ((size_t)n < sizeof first) {
        memcpy(line->text, first, (size_t)n + 1);
    } else {
        va_start(args, format);
        vsnprintf(line->text, (size_t)n + 1, format, args);
        va_end(args);
    }
    line->mark = mark;
    line->next = NULL;
    if (scene->last_note_line)
        scene->last_note_line->next = line;
    else
        scene->note_lines = line;
    scene->last_note_line = line;
}

/* Whether `a` is at a position before `b`'s (no position: after all). */
static int note_before(const kfc_x3d_note_line *a, const kfc_x3d_note_line *b)
{
    const uint64_t pa = a->mark.line ? (uint64_t)a->mark.line << 32 | a->mark.column : UINT64_MAX;
    const uint64_t pb = b->mark.line ? (uint64_t)b->mark.line << 32 | b->mark.column : UINT64_MAX;
    return pa < pb;
}

/* The first `count` lines of *list, sorted (stable: a merge sort), *list
 * moved past them. */
static kfc_x3d_note_line *sort_notes(kfc_x3d_note_line **list, size_t count)
{
    if (count == 1) {
        kfc_x3d_note_line *one = *list;
        *list = one->next;
        one->next = NULL;
        return one;
    }
    kfc_x3d_note_line *a = sort_notes(list, count / 2), *b = sort_notes(list, count - count / 2);
    kfc_x3d_note_line *head = NULL, **tail = &head;
    while (a && b) {
        kfc_x3d_note_line **take = note_before(b, a) ? &b : &a;
        *tail = *take;
        tail = &(*take)->next;
        *take = (*take)->next;
    }
    *tail = a ? a : b;
    return head;
}

void kfc_x3d_notes_flush(kfc_x3d_scene *scene, kfc_diag *diag)
{
    size_t count = 0;
    for (const kfc_x3d_note_line *n = scene->note_lines; n; n = n->next)
        count++;
    if (!count)
        return;
    scene->note_lines = sort_notes(&scene->note_lines, count);
    const char *path = scene->options->path;
    if (!path || strcmp(path, "-") == 0)
        path = "<stdin>";
    for (const kfc_x3d_note_line *n = scene->note_lines; n; n = n->next)
        if (diag && diag->stream == scene->options->notes)
            kfc_diag_note(diag, path, n->mark, n->text);
        else
            write_note(scene, n->mark, n->text);
    free_notes(scene);
}

/* The position of text->text[offset]: counted through the source's bytes
 * when they are the text's own, else the start of the text. Columns count
 * characters (UTF-8 continuation bytes are not counted). */
static kfc_mark mark_at(const kfc_x3d_text *text, size_t offset)
{
    kfc_mark m = text->mark;
    if (!text->exact)
        return m;
    for (size_t i = 0; i < offset && i < text->length; i++) {
        unsigned char c = (unsigned char)text->text[i];
        if (c == '\n') {
            m.line++;
            m.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            m.column++;
        }
    }
    return m;
}

/* ClassicVRML brackets a list of values; the brackets separate too. */
static int is_separator(const kfc_x3d_text *text, char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' ||
           (text->comments && (c == '[' || c == ']'));
}

/* The next token of `text` from *pos: its start and length; 0 at the end. */
static int next_token(const kfc_x3d_text *text, size_t *pos, size_t *start, size_t *length)
{
    size_t i = *pos, n = text->length;
    const char *s = text->text;
    for (;;) {
        while (i < n && is_separator(text, s[i]))
            i++;
        if (i < n && s[i] == '#' && text->comments) {
            while (i < n && s[i] != '\n' && s[i] != '\r')
                i++;
            continue;
        }
        break;
    }
    if (i >= n) {
        *pos = i;
        return 0;
    }
    *start = i;
    while (i < n && !is_separator(text, s[i]) && !(s[i] == '#' && text->comments))
        i++;
    *length = i - *start;
    *pos = i;
    return 1;
}

/* The numbers X_ITE reads by name where a field wants a float or a double,
 * in either encoding (its XML reader parses values with its VRML grammar):
 * each its value as JavaScript computes it, pi times n, then over d. */
static const struct named_number {
    const char *name;
    double n, d; /* pi n / d; d 0: n itself */
} named_numbers[] = {
    {"PI", 1, 1},
    {"PI2", 2, 1},
    {"PI1_4", 1, 4},
    {"PI2_4", 2, 4},
    {"PI3_4", 3, 4},
    {"PI4_4", 4, 4},
    {"PI5_4", 5, 4},
    {"PI6_4", 6, 4},
    {"PI7_4", 7, 4},
    {"PI8_4", 8, 4},
    {"PI1_2", 1, 2},
    {"PI2_2", 2, 2},
    {"PI3_2", 3, 2},
    {"PI4_2", 4, 2},
    {"PI1_3", 1, 3},
    {"PI2_3", 2, 3},
    {"PI3_3", 3, 3},
    {"PI4_3", 4, 3},
    {"PI5_3", 5, 3},
    {"PI6_3", 6, 3},
    {"SQRT1_2", 0.7071067811865476, 0},
    {"SQRT2", 1.4142135623730951, 0},
};

/* Which of X_ITE's named numbers `word` (`length` bytes, no sign) is, in
 * any case: an index of named_numbers, NAMED_NOT_FINITE (NAN, INF,
 * INFINITY, which X_ITE reads too) or -1. */
enum { NAMED_NOT_FINITE = -2 };
static int find_named(const char *word, size_t length)
{
    char upper[16];
    if (length == 0 || length >= sizeof upper)
        return -1;
    for (size_t i = 0; i < length; i++)
        upper[i] = word[i] >= 'a' && word[i] <= 'z' ? (char)(word[i] - 'a' + 'A') : word[i];
    upper[length] = '\0';
    if (!strcmp(upper, "NAN") || !strcmp(upper, "INF") || !strcmp(upper, "INFINITY"))
        return NAMED_NOT_FINITE;
    for (size_t i = 0; i < sizeof named_numbers / sizeof named_numbers[0]; i++)
        if (!strcmp(upper, named_numbers[i].name))
            return (int)i;
    return -1;
}

int kfc_x3d_is_named_number(const char *word, size_t length)
{
    return find_named(word, length) != -1;
}

/* A named number of X_ITE's, after an optional sign, as browsers read it:
 * its value, with a warning; NaN and the infinities are refused (an
 * animation's numbers are finite). 1 where `t` is one (*st the warning's
 * or the error's status), 0 where not. */
static int named_number(const kfc_x3d_text *text, size_t start, const char *t, size_t length,
                        double *out, kfc_diag *diag, kfc_status *st)
{
    const size_t k = t[0] == '-' || t[0] == '+' ? 1 : 0;
    const int i = find_named(t + k, length - k);
    char quoted[KFC_QUOTE_SIZE];
    if (i == -1)
        return 0;
    if (i == NAMED_NOT_FINITE) {
        *st = kfc_fail(diag, KFC_INVALID, mark_at(text, start),
                       "%s is %s where browsers read it: kfc takes finite numbers only",
                       kfc_quote(quoted, t, length),
                       (t[k] | 0x20) == 'n' ? "not a number" : "infinite");
        return 1;
    }
    const struct named_number *c = &named_numbers[i];
    const double v = c->d ? KF_PI * c->n / c->d : c->n;
    *out = t[0] == '-' ? -v : v;
    *st = kfc_warn(diag, KFC_WARN_X3D_LENIENT, mark_at(text, start),
                   "%s read as %.9g, as browsers do: X3D writes numbers in digits",
                   kfc_quote(quoted, t, length), *out);
    return 1;
}

static kfc_status parse_token(const kfc_x3d_text *text, size_t start, size_t length, double *out,
                              kfc_diag *diag)
{
    char buf[128], quoted[KFC_QUOTE_SIZE];
    const char *t = text->text + start;
    if (length >= sizeof buf)
        return kfc_fail(diag, KFC_INVALID, mark_at(text, start), "expected a number, not %s",
                        kfc_quote(quoted, t, length));
    memcpy(buf, t, length);
    buf[length] = '\0';
    kfc_number_result r = kfc_parse_number(buf, length, out);
    kfc_status st;
    if (r == KFC_NUMBER_SYNTAX && named_number(text, start, buf, length, out, diag, &st))
        return st;
    if (r == KFC_NUMBER_SYNTAX) {
        /* X3D's SFInt32 also takes 0x hexadecimal. */
        size_t k = (buf[0] == '-' || buf[0] == '+') ? 1 : 0;
        if (length > k + 2 && buf[k] == '0' && (buf[k + 1] | 0x20) == 'x' && length - k <= 10) {
            double v = 0;
            size_t j = k + 2;
            for (; j < length; j++) {
                char c = buf[j];
                int d = c >= '0' && c <= '9'                     ? c - '0'
                        : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                                 : -1;
                if (d < 0)
                    break;
                v = v * 16 + d;
            }
            if (j == length) {
                *out = buf[0] == '-' ? -v : v;
                return KFC_OK;
            }
        }
    }
    /* The position is counted only for an error: counting it for every
     * number would take time quadratic in the field's length. */
    if (r == KFC_NUMBER_RANGE)
        return kfc_fail(diag, KFC_INVALID, mark_at(text, start), "number %s is out of range",
                        kfc_quote(quoted, t, length));
    if (r != KFC_NUMBER_OK)
        return kfc_fail(diag, KFC_INVALID, mark_at(text, start), "expected a number, not %s",
                        kfc_quote(quoted, t, length));
    return KFC_OK;
}

kfc_status kfc_x3d_read_numbers(kfc_x3d_scene *scene, const kfc_x3d_text *text,
                                kfc_x3d_numbers *out, kfc_diag *diag)
{
    size_t pos = 0, start, length, count = 0;
    while (next_token(text, &pos, &start, &length))
        count++;
    out->count = 0;
    out->values = NULL;
    if (!count)
        return KFC_OK;
    out->values = kfc_x3d_alloc(scene, count * sizeof(double), _Alignof(double));
    if (!out->values)
        return kfc_x3d_fail_alloc(scene, text->mark, diag);
    pos = 0;
    while (next_token(text, &pos, &start, &length)) {
        kfc_status st = parse_token(text, start, length, &out->values[out->count], diag);
        if (st)
            return st;
        out->count++;
    }
    return KFC_OK;
}

kfc_status kfc_x3d_read_number(const kfc_x3d_text *text, double *out, kfc_diag *diag)
{
    size_t pos = 0, start, length, s2, l2;
    if (!next_token(text, &pos, &start, &length))
        return kfc_fail(diag, KFC_INVALID, text->mark, "expected a number");
    kfc_status st = parse_token(text, start, length, out, diag);
    if (st)
        return st;
    if (next_token(text, &pos, &s2, &l2))
        return kfc_fail(diag, KFC_INVALID, mark_at(text, s2), "expected one number");
    return KFC_OK;
}

kfc_status kfc_x3d_read_bool(const kfc_x3d_text *text, int *out, kfc_diag *diag)
{
    size_t pos = 0, start, length, s2, l2;
    char quoted[KFC_QUOTE_SIZE];
    /* Spelt as the encoding spells them (both are read). */
    const char *words = text->comments ? "TRUE or FALSE" : "true or false";
    if (!next_token(text, &pos, &start, &length))
        return kfc_fail(diag, KFC_INVALID, text->mark, "expected %s", words);
    const char *t = text->text + start;
    if ((length == 4 && (memcmp(t, "TRUE", 4) == 0 || memcmp(t, "true", 4) == 0)))
        *out = 1;
    else if (length == 5 && (memcmp(t, "FALSE", 5) == 0 || memcmp(t, "false", 5) == 0))
        *out = 0;
    else
        return kfc_fail(diag, KFC_INVALID, mark_at(text, start), "expected %s, not %s", words,
                        kfc_quote(quoted, t, length));
    if (next_token(text, &pos, &s2, &l2))
        return kfc_fail(diag, KFC_INVALID, mark_at(text, s2), "expected one value");
    /* VRML's spelling in XML, which browsers read too (the other way round
     * the VRML reader warns of). */
    if (!text->comments && (t[0] == 'T' || t[0] == 'F'))
        return kfc_warn(diag, KFC_WARN_X3D_LENIENT, mark_at(text, start),
                        "'%s' read as %s, as browsers do: XML writes %s", *out ? "TRUE" : "FALSE",
                        *out ? "true" : "false", *out ? "true" : "false");
    return KFC_OK;
}
