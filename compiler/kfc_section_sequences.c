/* SPDX-License-Identifier: MIT */
/* The `sequences:` section: name -> M3G KeyframeSequence. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kfc_schema.h"
#include "kfc_section.h"

enum { F_INTERPOLATION, F_REPEAT, F_DURATION, F_VALID_RANGE, F_ARC_LENGTH, F_KEYS, F_COUNT };

/* What a sequence is read into. */
typedef struct sequence_in {
    kf_sequence_desc desc;
    int has_tcb; /* some key gives {tension, continuity, bias} */
    int hermite; /* keys give {in, out} tangents instead */
    /* squad: the keys that give intermediates {a, b}, the first that does
     * and the first that does not */
    uint32_t given, first_given, first_missing;
    /* The interpolation read: it says what a key's third item is (when it
     * did not, the third items are not read) and whether a key is a
     * quaternion. */
    int interpolation_known;
    /* Key 0's value is the odd one: it should have this many components
     * (0: key 0 fixes the count), as `like` says. */
    uint32_t key0_expected;
    const char *like;
    /* The key whose value fixed desc.components (UINT32_MAX: none yet), and
     * the components of the current key's value (its tangents have as
     * many). Values and tangents are stored from the key that fixed the
     * count on, for the keys that have it. */
    uint32_t fixed_by, key_components;
} sequence_in;

/* What a sequence is written from; *time and value hold the current key. */
typedef struct sequence_out {
    const kf_sequence *seq;
    kf_sequence_info info;
    float *time;
    float *value;      /* info.components floats */
    float *tangents;   /* hermite: 2 * info.components floats */
    int intermediates; /* squad: every key's {a, b} are written */
} sequence_out;

static const char *interpolation_name(int index)
{
    return kf_interpolation_name((kf_interpolation)index);
}

static const char *repeat_name(int index)
{
    return kf_repeat_name((kf_repeat)index);
}

/* ---- the items of one key: [time, value, {tension, continuity, bias}] -- */

/* The message for a key of the wrong shape names every item. */
#define KEY_SHAPE                                                                                  \
    "expected a key [time, value] or [time, [value, ...]], optionally followed by "                \
    "{tension, continuity, bias} (hermite: {in, out})"

typedef struct key_item {
    uint32_t position; /* in the key's list */
    int optional;      /* may be left out (then the key ends before it) */
    int pass;          /* items of a lower pass are read first */
    kf_field field;    /* builder errors about it; their item is the key */
    /* Reserved before the first key: per_key doubles per key in scratch
     * array `scratch` (per_key 0: the item reserves its own). */
    int scratch;
    uint32_t per_key;
    /* `node` (NULL when an optional item is left out) of key `k`. */
    kfc_status (*read)(kfc_source *src, const kfc_node *node, uint32_t k, uint32_t key_count,
                       sequence_in *in);
    /* After every key is read: points the description at the item's data
     * (NULL: nothing to do). */
    void (*finish)(kfc_source *src, sequence_in *in);
    /* Where an error about key `k`'s item goes (NULL: the item). */
    const kfc_node *(*error_node)(const kfc_node *keys, uint32_t k);
    kfc_status (*emit)(kfc_emitter *e, const sequence_out *o, uint32_t k);
} key_item;

static kfc_status read_time(kfc_source *src, const kfc_node *node, uint32_t k, uint32_t key_count,
                            sequence_in *in)
{
    (void)key_count;
    (void)in;
    return kfc_get_float(node, &src->scratch[KFC_SCRATCH_TIMES].data[k], src->diag);
}

static void finish_time(kfc_source *src, sequence_in *in)
{
    in->desc.times = src->scratch[KFC_SCRATCH_TIMES].data;
}

static kfc_status emit_time(kfc_emitter *e, const sequence_out *o, uint32_t k)
{
    (void)k;
    return kfc_emit_float(e, *o->time);
}

/* Whether the keys are quaternions. */
static int quaternion_keys(const sequence_in *in)
{
    return in->interpolation_known && (in->desc.interpolation == KF_INTERPOLATION_SLERP ||
                                       in->desc.interpolation == KF_INTERPOLATION_SQUAD);
}

/* A number (one component) or a list of numbers; the first key with a
 * value (key 0, unless its shape is wrong) fixes the component count. A
 * value of another count is reported and its numbers checked, not
 * stored. */
static kfc_status read_value(kfc_source *src, const kfc_node *node, uint32_t k, uint32_t key_count,
                             sequence_in *in)
{
    uint32_t count = 1;
    const kfc_node *items = node;
    if (node->kind == KFC_NODE_SEQUENCE) {
        count = node->count;
        items = node->as.items;
    }
    in->key_components = count;
    kfc_status first = KFC_OK, st;
    /* A value with an item that is not a number (a list in the list) is
     * reported as that; it fixes no count, which the next key then fixes,
     * so that no error only follows from its own. */
    if (in->fixed_by == UINT32_MAX && node->kind == KFC_NODE_SEQUENCE)
        for (uint32_t i = 0; i < count; i++)
            if (items[i].kind != KFC_NODE_SCALAR)
                return kfc_get_floats(items, count, NULL, src->diag);
    if (in->fixed_by == UINT32_MAX) {
        const uint32_t c = k == 0 && in->key0_expected ? in->key0_expected : count;
        in->desc.components = c;
        in->fixed_by = c == count ? k : 1; /* key 0 the odd one: key 1 gives the count */
        if (c > SIZE_MAX / key_count || (c > SIZE_MAX / 2 / key_count && in->hermite))
            return kfc_fail_nomem(src->diag);
        if ((st = kfc_reserve(src, KFC_SCRATCH_VALUES, (size_t)key_count * c)) ||
            (in->hermite &&
             (st = kfc_reserve(src, KFC_SCRATCH_TANGENTS, 2 * (size_t)key_count * c))))
            return st;
        if (c != count &&
            (st = kfc_recover_next(
                 src->diag,
                 kfc_fail(src->diag, KFC_INVALID, node->mark,
                          "key 0 has %lu component%s, expected %lu like %s%s", (unsigned long)count,
                          count == 1 ? "" : "s", (unsigned long)c, in->like,
                          quaternion_keys(in) && c == 4
                              ? " (a slerp or squad key is a quaternion [x, y, z, w])"
                              : ""),
                 &first)))
            return st;
    } else if (count != in->desc.components &&
               (st = kfc_recover_next(
                    src->diag,
                    kfc_fail(src->diag, KFC_INVALID, node->mark,
                             "key %lu has %lu component%s, expected %lu like key %lu",
                             (unsigned long)k, (unsigned long)count, count == 1 ? "" : "s",
                             (unsigned long)in->desc.components, (unsigned long)in->fixed_by),
                    &first))) {
        return st;
    }
    /* (no room was reserved for keys of no component: nothing to store) */
    double *out = count && count == in->desc.components
                      ? src->scratch[KFC_SCRATCH_VALUES].data + (size_t)k * count
                      : NULL;
    st = kfc_get_floats(items, count, out, src->diag);
    return st ? st : first;
}

static void finish_value(kfc_source *src, sequence_in *in)
{
    in->desc.values = src->scratch[KFC_SCRATCH_VALUES].data;
}

static kfc_status emit_value(kfc_emitter *e, const sequence_out *o, uint32_t k)
{
    (void)k;
    if (o->info.components == 1)
        return kfc_emit_float(e, o->value[0]);
    kfc_status st = kfc_emit_list_start(e, 1);
    for (uint32_t c = 0; c < o->info.components && !st; c++)
        st = kfc_emit_float(e, o->value[c]);
    return st ? st : kfc_emit_list_end(e);
}

/* A key's mapping: Kochanek-Bartels parameters, and on a squad key its
 * intermediates a and b. */
static const char *const tcb_names[5] = {"tension", "continuity", "bias", "a", "b"};

/* An intermediate quaternion: four numbers. */
static kfc_status read_intermediate(kfc_source *src, const kfc_node *node, double *out)
{
    if (node->kind != KFC_NODE_SEQUENCE || node->count != 4)
        return kfc_fail(src->diag, KFC_INVALID, node->mark,
                        "an intermediate is a quaternion [x, y, z, w]");
    return kfc_get_floats(node->as.items, 4, out, src->diag);
}

/* Kochanek-Bartels parameters, absent ones 0; their range is the builder's
 * to check. A squad key's intermediates {a, b}, both or neither. Each
 * error of the key's map is reported. */
static kfc_status read_tcb(kfc_source *src, const kfc_node *node, uint32_t k, uint32_t key_count,
                           sequence_in *in)
{
    (void)key_count;
    double *tcb = src->scratch[KFC_SCRATCH_TCB].data + 3 * (size_t)k;
    tcb[0] = tcb[1] = tcb[2] = 0.0;
    if (!in->interpolation_known)
        return KFC_OK;
    const int squad = in->desc.interpolation == KF_INTERPOLATION_SQUAD;
    kfc_status first = KFC_OK, st;
    const kfc_node *values[5] = {NULL};
    if (node && !in->hermite) {
        if (node->kind != KFC_NODE_MAPPING)
            return kfc_fail(src->diag, KFC_INVALID, node->mark,
                            squad ? "expected a mapping {tension, continuity, bias, a, b}"
                                  : "expected a mapping {tension, continuity, bias}");
        if ((st = kfc_fields(node, tcb_names, squad ? 5 : 3, values, src->diag)))
            return st;
        in->has_tcb |= !squad || values[0] || values[1] || values[2];
        for (int i = 0; i < 3; i++)
            if (values[i] && (st = kfc_recover_next(
                                  src->diag, kfc_get_float(values[i], &tcb[i], src->diag), &first)))
                return st;
    }
    if (!squad)
        return first;
    if (!values[3] && !values[4]) {
        if (in->first_missing == UINT32_MAX)
            in->first_missing = k;
        return first;
    }
    if (!values[3] || !values[4]) {
        st = kfc_recover_next(src->diag,
                              kfc_fail(src->diag, KFC_INVALID, node->mark,
                                       "a squad key gives both intermediates {a, b} or neither"),
                              &first);
        return st ? st : first;
    }
    /* b, then a (kf_sequence_desc.tangents; reserved for every key) */
    double *ba = src->scratch[KFC_SCRATCH_TANGENTS].data + 8 * (size_t)k;
    for (int i = 3; i < 5; i++)
        if ((st = kfc_recover_next(
                 src->diag, read_intermediate(src, values[i], i == 3 ? ba + 4 : ba), &first)))
            return st;
    /* (a key with an intermediate that is no quaternion gives them too) */
    if (in->given++ == 0)
        in->first_given = k;
    return first;
}

/* A sequence without any key map has none. */
static void finish_tcb(kfc_source *src, sequence_in *in)
{
    in->desc.tcb = in->has_tcb ? src->scratch[KFC_SCRATCH_TCB].data : NULL;
    if (in->given && in->given == in->desc.key_count) /* (kf_sequence_desc.tangents) */
        in->desc.tangents = src->scratch[KFC_SCRATCH_TANGENTS].data;
}

static kfc_status emit_numbers(kfc_emitter *e, const float *v, uint32_t components);

/* Fields at 0 left out; nothing when all three are. A -0 is kept: it is a
 * different float32. Then a squad key's intermediates, where the file's are
 * not those its keys derive (kf_sequence_intermediates_given). */
static kfc_status emit_tcb(kfc_emitter *e, const sequence_out *o, uint32_t k)
{
    float tcb[3] = {0.0f, 0.0f, 0.0f};
    if (o->info.tcb)
        kf_sequence_key_tcb(o->seq, k, tcb);
    int any = 0;
    for (int i = 0; i < 3; i++)
        any |= tcb[i] != 0.0f || signbit(tcb[i]);
    if (!any && !o->intermediates)
        return KFC_OK;
    kfc_status st = kfc_emit_map_start(e, 1);
    for (int i = 0; i < 3 && !st; i++)
        if ((tcb[i] != 0.0f || signbit(tcb[i])) && !(st = kfc_emit_string(e, tcb_names[i])))
            st = kfc_emit_float(e, tcb[i]);
    if (o->intermediates && !st) {
        float ab[8];
        kf_sequence_key_intermediates(o->seq, k, ab, ab + 4);
        if ((st = kfc_emit_string(e, tcb_names[3])) || (st = emit_numbers(e, ab, 4)) ||
            (st = kfc_emit_string(e, tcb_names[4])) || (st = emit_numbers(e, ab + 4, 4)))
            return st;
    }
    return st ? st : kfc_emit_map_end(e);
}

static const char *const tangent_names[2] = {"in", "out"};

/* One tangent: `components` numbers, in the key's value's shape (out
 * NULL: only checked). */
static kfc_status read_tangent(kfc_source *src, const kfc_node *node, uint32_t components,
                               double *out)
{
    uint32_t count = 1;
    const kfc_node *items = node;
    if (node->kind == KFC_NODE_SEQUENCE) {
        count = node->count;
        items = node->as.items;
    }
    if (count != components)
        return kfc_fail(src->diag, KFC_INVALID, node->mark,
                        "a tangent has %lu component%s, expected %lu like the key's value",
                        (unsigned long)count, count == 1 ? "" : "s", (unsigned long)components);
    return kfc_get_floats(items, count, out, src->diag);
}

/* A hermite key's {in, out}, read once its value has given their size; a
 * tangent left out is 0 (flat). They are stored when the key's value is
 * (it has the count the keys have). Other interpolations: nothing. */
static kfc_status read_tangents(kfc_source *src, const kfc_node *node, uint32_t k,
                                uint32_t key_count, sequence_in *in)
{
    (void)key_count;
    const size_t c = in->key_components;
    /* A value of no components is refused where the key is built ("needs
     * at least 1 component"): there is nothing to size tangents by. */
    if (!in->hermite || c == 0)
        return KFC_OK;
    double *tangents = NULL;
    if (c == in->desc.components) {
        tangents = src->scratch[KFC_SCRATCH_TANGENTS].data + 2 * (size_t)k * c;
        for (size_t i = 0; i < 2 * c; i++)
            tangents[i] = 0.0;
    }
    if (!node)
        return KFC_OK;
    if (node->kind != KFC_NODE_MAPPING)
        return kfc_fail(src->diag, KFC_INVALID, node->mark,
                        "expected a mapping {in, out} of tangents");
    const kfc_node *values[2];
    kfc_status first = KFC_OK, st;
    if ((st = kfc_fields(node, tangent_names, 2, values, src->diag)))
        return st;
    for (size_t i = 0; i < 2; i++)
        if (values[i] && (st = kfc_recover_next(src->diag,
                                                read_tangent(src, values[i], (uint32_t)c,
                                                             tangents ? tangents + i * c : NULL),
                                                &first)))
            return st;
    return first;
}

/* (A squad's intermediates are its tangents too: finish_tcb.) */
static void finish_tangents(kfc_source *src, sequence_in *in)
{
    if (in->hermite)
        in->desc.tangents = in->desc.key_count ? src->scratch[KFC_SCRATCH_TANGENTS].data : NULL;
}

/* A value or tangent: a number (one component) or a flow list. */
static kfc_status emit_numbers(kfc_emitter *e, const float *v, uint32_t components)
{
    if (components == 1)
        return kfc_emit_float(e, v[0]);
    kfc_status st = kfc_emit_list_start(e, 1);
    for (uint32_t c = 0; c < components && !st; c++)
        st = kfc_emit_float(e, v[c]);
    return st ? st : kfc_emit_list_end(e);
}

/* Both tangents, always: a flat one left out would read back the same, but
 * this form is the one a reader finds without knowing the rule. */
static kfc_status emit_tangents(kfc_emitter *e, const sequence_out *o, uint32_t k)
{
    if (o->info.interpolation != KF_INTERPOLATION_HERMITE)
        return KFC_OK;
    const uint32_t c = o->info.components;
    kf_sequence_key_tangents(o->seq, k, o->tangents, o->tangents + c);
    kfc_status st;
    if ((st = kfc_emit_map_start(e, 1)) || (st = kfc_emit_string(e, tangent_names[0])) ||
        (st = emit_numbers(e, o->tangents, c)) || (st = kfc_emit_string(e, tangent_names[1])) ||
        (st = emit_numbers(e, o->tangents + c, c)))
        return st;
    return kfc_emit_map_end(e);
}

/* Item `part` of key `k`, or the key list when there is none. */
static const kfc_node *key_part(const kfc_node *keys, uint32_t k, uint32_t part)
{
    if (k >= keys->count || keys->as.items[k].kind != KFC_NODE_SEQUENCE ||
        part >= keys->as.items[k].count)
        return keys;
    return &keys->as.items[k].as.items[part];
}

/* For key `k`, the value the builder refused (the first outside [-1, 1]
 * once stored as float32), else that key's map; for the sequence as a
 * whole (KF_NO_INDEX: its interpolation takes none), the first key's map. */
static const kfc_node *tcb_error_node(const kfc_node *keys, uint32_t k)
{
    for (uint32_t i = 0; i < keys->count; i++) {
        const kfc_node *map = key_part(keys, i, 2);
        if (map == keys || (k != KF_NO_INDEX && i != k))
            continue;
        if (k == KF_NO_INDEX || map->kind != KFC_NODE_MAPPING)
            return map;
        for (uint32_t f = 0; f < map->count; f++) {
            const kfc_node *value = kfc_map_value(map, f);
            double x;
            if (kfc_get_number(value, &x, NULL) == KFC_OK &&
                !((float)x >= -1.0f && (float)x <= 1.0f))
                return value;
        }
        return map;
    }
    return keys;
}

/* In position order (the order they are written). A key's third item is
 * {tension, continuity, bias}, read before its time and value, or on a
 * hermite sequence {in, out}, read after the value that fixes their size. */
static const key_item key_items[] = {
    /* position, optional, pass, builder field, scratch, per key, read, finish, error node,
     * emit */
    {0, 0, 1, KF_FIELD_KEY_TIME, KFC_SCRATCH_TIMES, 1, read_time, finish_time, NULL, emit_time},
    {1, 0, 1, KF_FIELD_KEY_VALUE, KFC_SCRATCH_VALUES, 0 /* components: from key 0 */, read_value,
     finish_value, NULL, emit_value},
    {2, 1, 0, KF_FIELD_TCB, KFC_SCRATCH_TCB, 3, read_tcb, finish_tcb, tcb_error_node, emit_tcb},
    {2, 1, 2, KF_FIELD_TANGENTS, KFC_SCRATCH_TANGENTS, 0 /* 2 * components: from key 0 */,
     read_tangents, finish_tangents, NULL, emit_tangents},
};

#define KEY_ITEMS (sizeof key_items / sizeof key_items[0])
/* The most items a key has (two table rows share the third position). */
#define KEY_POSITIONS 3u

/* ---- the fields -------------------------------------------------------- */

/* Other tools' names for interpolations and repeats (glTF's samplers, DCC
 * tools' curve and wrap modes): the nearest kfb name by edit distance would
 * mislead ('lerp' is one edit from 'slerp'). */
static const kfc_alias interpolation_aliases[] = {
    {"lerp", "linear"},       {"constant", "step"},
    {"cubic", "spline"},      {"catmull-rom", "spline"},
    {"catmullrom", "spline"}, {"cubicspline", "hermite"},
    {"nlerp", "slerp"},       {NULL, NULL}};
static const kfc_alias repeat_aliases[] = {{"once", "constant"}, {"clamp", "constant"},
                                           {"cycle", "loop"},    {"repeat", "loop"},
                                           {"wrap", "loop"},     {NULL, NULL}};

static kfc_status read_interpolation(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    sequence_in *in = entry->state;
    int code;
    kfc_status st = kfc_get_enum(value, interpolation_name, "interpolation", interpolation_aliases,
                                 &code, src->diag);
    if (!st)
        in->desc.interpolation = (kf_interpolation)code;
    return st;
}

static kfc_status emit_interpolation(kfc_emitter *e, const void *out)
{
    const kf_sequence_info *info = &((const sequence_out *)out)->info;
    return kfc_emit_string(e, kf_interpolation_name(info->interpolation));
}

static kfc_status read_repeat(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    sequence_in *in = entry->state;
    int code;
    kfc_status st = kfc_get_enum(value, repeat_name, "repeat", repeat_aliases, &code, src->diag);
    if (!st)
        in->desc.repeat = (kf_repeat)code;
    return st;
}

static int repeat_written(const void *out)
{
    return ((const sequence_out *)out)->info.repeat != KF_REPEAT_CONSTANT;
}

static kfc_status emit_repeat(kfc_emitter *e, const void *out)
{
    return kfc_emit_string(e, kf_repeat_name(((const sequence_out *)out)->info.repeat));
}

static kfc_status read_duration(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_animator_seconds(src, value, entry, KFC_LONG_SECONDS, "duration", "sequence",
                                    &((sequence_in *)entry->state)->desc.duration);
}

/* Stored as float32 (kfb_sequence.duration). */
static kfc_status emit_duration(kfc_emitter *e, const void *out)
{
    return kfc_emit_float(e, (float)((const sequence_out *)out)->info.duration);
}

static kfc_status read_valid_range(kfc_source *src, const kfc_node *range, kfc_entry *entry)
{
    kf_sequence_desc *desc = &((sequence_in *)entry->state)->desc;
    if (range->kind != KFC_NODE_SEQUENCE || range->count != 2)
        return kfc_fail(src->diag, KFC_INVALID, range->mark,
                        "expected a list of two key indices [first, last]");
    kfc_status first = KFC_OK, st;
    uint32_t *const ends[2] = {&desc->valid_first, &desc->valid_last};
    for (int i = 0; i < 2; i++)
        if ((st = kfc_recover_next(
                 src->diag,
                 kfc_get_uint(&range->as.items[i], 0, UINT32_MAX - 1, ends[i], src->diag), &first)))
            return st;
    return first;
}

/* The default is every key. */
static int valid_range_written(const void *out)
{
    const kf_sequence_info *info = &((const sequence_out *)out)->info;
    return info->valid_first != 0 || info->valid_last + 1 != info->key_count;
}

static kfc_status emit_valid_range(kfc_emitter *e, const void *out)
{
    const kf_sequence_info *info = &((const sequence_out *)out)->info;
    kfc_status st;
    if ((st = kfc_emit_list_start(e, 1)) || (st = kfc_emit_uint(e, info->valid_first)) ||
        (st = kfc_emit_uint(e, info->valid_last)))
        return st;
    return kfc_emit_list_end(e);
}

static kfc_status read_arc_length(kfc_source *src, const kfc_node *value, kfc_entry *entry)
{
    return kfc_get_bool(value, &((sequence_in *)entry->state)->desc.arc_length, src->diag);
}

static int arc_length_written(const void *out)
{
    return ((const sequence_out *)out)->info.arc_length;
}

static kfc_status emit_true(kfc_emitter *e, const void *out)
{
    (void)out;
    return kfc_emit_bool(e, 1);
}

/* The components of key `k`'s value, or 0 when the key has no value. */
static uint32_t value_components(const kfc_node *keys, uint32_t k)
{
    const kfc_node *key = &keys->as.items[k];
    if (key->kind != KFC_NODE_SEQUENCE || key->count < 2)
        return 0;
    const kfc_node *value = &key->as.items[1];
    return value->kind == KFC_NODE_SEQUENCE ? value->count : 1;
}

/* Key 0 fixes the component count, unless it is the odd one: the next two
 * keys agree against it, or (slerp, squad) key 1 has the 4 a quaternion
 * needs and key 0 has not. Then the error is key 0's. */
static void odd_first_key(const kfc_node *keys, sequence_in *in)
{
    in->key0_expected = 0;
    if (keys->count < 2)
        return;
    const uint32_t c0 = value_components(keys, 0), c1 = value_components(keys, 1);
    const int quaternion = quaternion_keys(in);
    if (!c0 || !c1 || c0 == c1)
        return;
    if (keys->count >= 3 && value_components(keys, 2) == c1) {
        in->key0_expected = c1;
        in->like = "the keys after it";
    } else if (quaternion && c1 == 4) {
        in->key0_expected = c1;
        in->like = "key 1";
    }
}

/* Slerp and squad keys are normalized: a key far from unit length plays
 * another rotation than its numbers say. One warning per sequence. */
static kfc_status check_unit_length(kfc_source *src, const kfc_node *keys, const sequence_in *in)
{
    const kf_sequence_desc *desc = &in->desc;
    uint32_t first = 0;
    if ((desc->interpolation != KF_INTERPOLATION_SLERP &&
         desc->interpolation != KF_INTERPOLATION_SQUAD) ||
        desc->components != 4 || !kfc_quaternions_off_unit(desc->values, desc->key_count, &first))
        return KFC_OK;
    char what[32];
    snprintf(what, sizeof what, "%s keys", kf_interpolation_name(desc->interpolation));
    return kfc_warn_quaternion_length(src->diag, key_part(keys, first, 1)->mark, NULL, what,
                                      desc->values, desc->key_count,
                                      " (axis and angle are an OrientationInterpolator's)");
}

/* Whether `a` and `b` are digits written "2,5", which YAML reads as two
 * numbers: a decimal comma, most likely (a list writes "2, 5"). */
static int decimal_comma(const kfc_node *a, const kfc_node *b)
{
    if (a->kind != KFC_NODE_SCALAR || b->kind != KFC_NODE_SCALAR || !a->plain || !b->plain ||
        a->mark.line != b->mark.line || b->mark.column != a->mark.column + a->count + 1 ||
        !b->count)
        return 0;
    for (size_t i = 0; i < b->count; i++)
        if (b->as.text[i] < '0' || b->as.text[i] > '9')
            return 0;
    return a->count && a->as.text[a->count - 1] >= '0' && a->as.text[a->count - 1] <= '9';
}

/* Every key into the scratch arrays, item by item, each key's errors
 * reported; then what the keys decide: the count, the components, the
 * default valid range. Without the interpolation, the keys' times and
 * values are read, not their third items (what they are, it says). */
static kfc_status read_keys(kfc_source *src, const kfc_node *keys, kfc_entry *entry)
{
    sequence_in *in = entry->state;
    kf_sequence_desc *desc = &in->desc;
    kfc_status st = kfc_expect_list(keys, src->diag);
    if (st)
        return st;
    const uint32_t count = keys->count;
    uint32_t required = 0;
    int passes = 0;
    in->interpolation_known = !(entry->failed & (1u << F_INTERPOLATION));
    in->hermite = in->interpolation_known && desc->interpolation == KF_INTERPOLATION_HERMITE;
    odd_first_key(keys, in);
    for (size_t i = 0; i < KEY_ITEMS; i++) {
        required += !key_items[i].optional;
        if (key_items[i].pass >= passes)
            passes = key_items[i].pass + 1;
    }
    desc->components = 0;
    in->fixed_by = UINT32_MAX;
    /* count is 32-bit: a small multiple of it fits in size_t. */
    for (size_t i = 0; i < KEY_ITEMS && count > 0; i++)
        if (key_items[i].per_key &&
            (st = kfc_reserve(src, key_items[i].scratch, (size_t)count * key_items[i].per_key)))
            return st;
    /* A squad key's intermediates, 8 numbers per key. */
    if (count > 0 && in->interpolation_known && desc->interpolation == KF_INTERPOLATION_SQUAD &&
        (st = kfc_reserve(src, KFC_SCRATCH_TANGENTS, 8 * (size_t)count)))
        return st;
    kfc_status first = KFC_OK;
    for (uint32_t k = 0; k < count; k++) {
        const kfc_node *key = &keys->as.items[k];
        if (key->kind != KFC_NODE_SEQUENCE || key->count < required || key->count > KEY_POSITIONS) {
            if ((st = kfc_recover_next(
                     src->diag, kfc_fail(src->diag, KFC_INVALID, key->mark, KEY_SHAPE), &first)))
                return st;
            continue;
        }
        if (key->count >= 2 && decimal_comma(&key->as.items[0], &key->as.items[1])) {
            const kfc_node *a = &key->as.items[0], *b = &key->as.items[1];
            if ((st = kfc_recover_next(
                     src->diag,
                     kfc_fail(src->diag, KFC_INVALID, a->mark,
                              "'%.*s,%.*s' is two numbers to YAML: decimals are written with "
                              "'.' (%.*s.%.*s)",
                              (int)a->count, a->as.text, (int)b->count, b->as.text, (int)a->count,
                              a->as.text, (int)b->count, b->as.text),
                     &first)))
                return st;
            continue;
        }
        for (int pass = 0; pass < passes; pass++)
            for (size_t i = 0; i < KEY_ITEMS; i++) {
                const key_item *item = &key_items[i];
                const kfc_node *node =
                    item->position < key->count ? &key->as.items[item->position] : NULL;
                if (item->pass == pass &&
                    (st = kfc_recover_next(src->diag, item->read(src, node, k, count, in), &first)))
                    return st;
            }
    }
    /* Some keys give intermediates, some none: whichever key's item did
     * not read is neither. */
    if (in->given && in->first_missing != UINT32_MAX &&
        (st = kfc_recover_next(
             src->diag,
             kfc_fail(src->diag, KFC_INVALID, keys->as.items[in->first_missing].mark,
                      "key %lu gives no intermediates {a, b}, which key %lu gives: a squad "
                      "sequence gives them for every key or for none",
                      (unsigned long)in->first_missing, (unsigned long)in->first_given),
             &first)))
        return st;
    if (first)
        return first; /* not built: what follows is of no use */
    desc->key_count = count;
    for (size_t i = 0; i < KEY_ITEMS; i++)
        if (key_items[i].finish)
            key_items[i].finish(src, in);
    if ((st = check_unit_length(src, keys, in)))
        return st;
    if (count == 0) {
        /* No key gives the count; take one the interpolation accepts so
         * that the builder reports the missing keys. */
        desc->components = quaternion_keys(in) ? 4 : 1;
    }
    desc->valid_first = 0;
    desc->valid_last = count ? count - 1 : 0;
    return KFC_OK;
}

static kfc_status emit_keys(kfc_emitter *e, const void *out)
{
    const sequence_out *o = out;
    kfc_status st = kfc_emit_list_start(e, 0);
    for (uint32_t k = 0; k < o->info.key_count && !st; k++) {
        kf_sequence_key(o->seq, k, o->time, o->value);
        if ((st = kfc_emit_list_start(e, 1)))
            break;
        for (size_t i = 0; i < KEY_ITEMS && !st; i++)
            st = key_items[i].emit(e, o, k);
        if (!st)
            st = kfc_emit_list_end(e);
    }
    return st ? st : kfc_emit_list_end(e);
}

_Static_assert(F_COUNT <= KFC_FIELDS_MAX, "raise KFC_FIELDS_MAX");

static const kfc_field fields[F_COUNT] = {
    /* key, required, pass, builder field, entry field, read, written, emit */
    [F_INTERPOLATION] = {"interpolation", 1, 0, KF_FIELD_INTERPOLATION, KF_FIELD_NONE,
                         read_interpolation, NULL, emit_interpolation},
    [F_REPEAT] = {"repeat", 0, 0, KF_FIELD_REPEAT, KF_FIELD_NONE, read_repeat, repeat_written,
                  emit_repeat},
    [F_DURATION] = {"duration", 1, 0, KF_FIELD_DURATION, KF_FIELD_NONE, read_duration, NULL,
                    emit_duration},
    /* Defaults from the keys: read after them. item: 0 first, 1 last. */
    [F_VALID_RANGE] = {"valid_range", 0, 2, KF_FIELD_NONE, KF_FIELD_VALID_RANGE, read_valid_range,
                       valid_range_written, emit_valid_range},
    [F_ARC_LENGTH] = {"arc_length", 0, 1, KF_FIELD_ARC_LENGTH, KF_FIELD_NONE, read_arc_length,
                      arc_length_written, emit_true},
    /* After the interpolation, which decides how keys read. */
    [F_KEYS] = {"keys", 1, 1, KF_FIELD_KEYS, KF_FIELD_NONE, read_keys, NULL, emit_keys},
};

static kfc_status begin(kfc_source *src, kfc_entry *entry)
{
    return kfc_get_string(entry->name, &((sequence_in *)entry->state)->desc.name, src->diag);
}

static kf_result add(kfc_source *src, kfc_entry *entry, kf_error *error)
{
    return kf_builder_add_sequence(src->builder, &((sequence_in *)entry->state)->desc, error);
}

/* The errors about keys: their item is the key. */
static const kfc_node *error_node(const kfc_entry *entry, const kf_error *error)
{
    const kfc_node *keys = entry->fields[F_KEYS];
    switch (error->field) {
    case KF_FIELD_VALID_RANGE:
        /* A defaulted range is the key list's. */
        return entry->fields[F_VALID_RANGE] ? NULL : keys;
    case KF_FIELD_COMPONENTS:
        return key_part(keys, 0, 1);
    case KF_FIELD_TANGENTS:
        return error->item < keys->count ? &keys->as.items[error->item] : keys;
    default:
        break;
    }
    for (size_t i = 0; i < KEY_ITEMS; i++)
        if (key_items[i].field == error->field)
            return key_items[i].error_node ? key_items[i].error_node(keys, error->item)
                                           : key_part(keys, error->item, key_items[i].position);
    return NULL;
}

static kfc_status read_entry(kfc_source *src, const kfc_node *key, const kfc_node *value)
{
    sequence_in in;
    kf_sequence_desc_init(&in.desc);
    in.has_tcb = 0;
    in.hermite = 0;
    in.interpolation_known = 0;
    in.fixed_by = UINT32_MAX;
    in.key_components = 0;
    in.key0_expected = 0;
    in.like = NULL;
    in.given = in.first_given = 0;
    in.first_missing = UINT32_MAX;
    return kfc_section_read(src, &kfc_section_sequences, key, value, &in);
}

static kfc_status load(kfc_emitter *e, const kf_anim *anim, uint32_t index, void *out,
                       const char **name)
{
    sequence_out *o = out;
    o->seq = kf_anim_sequence(anim, index);
    kf_sequence_get_info(o->seq, &o->info);
    *name = o->info.name;
    o->intermediates = kf_sequence_intermediates_given(o->seq);
    return o->intermediates < 0 ? kfc_fail_nomem(e->diag) : KFC_OK;
}

static kfc_status emit_section(kfc_emitter *e, const kf_anim *anim)
{
    uint32_t count = kf_anim_count(anim, KF_KIND_SEQUENCE);
    if (count == 0)
        return KFC_OK;
    uint32_t max_components = 1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t c = kf_sequence_components(kf_anim_sequence(anim, i));
        if (c > max_components)
            max_components = c;
    }
    sequence_out out;
    out.time = malloc((1 + 3 * (size_t)max_components) * sizeof *out.time);
    if (!out.time)
        return kfc_fail_nomem(e->diag);
    out.value = out.time + 1;
    out.tangents = out.value + max_components;
    kfc_status st = kfc_section_emit(e, &kfc_section_sequences, anim, &out);
    free(out.time);
    return st;
}

const kfc_section kfc_section_sequences = {
    "sequences", KFC_NODE_MAPPING,
    1,           KF_KIND_SEQUENCE,
    0,           fields,
    F_COUNT,     read_entry,
    begin,       add,
    error_node,  emit_section,
    load,        NULL,
    NULL,
};
