/* SPDX-License-Identifier: MIT */
#include "kfc_section.h"
#include "kfc_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_grow.h"
#include "kfc_schema.h"

void kfc_section_field_names(const kfc_section *section, const char **names)
{
    for (size_t i = 0; i < section->field_count; i++)
        names[i] = section->fields[i].key;
}

/* The node a builder error about `error->field` / `error->item` is reported
 * at: the section's hook, else the table, else the entry's name or the
 * entry itself. */
static const kfc_node *error_node(const kfc_section *s, const kfc_entry *entry,
                                  const kf_error *error)
{
    const kfc_node *at = s->error_node ? s->error_node(entry, error) : NULL;
    for (size_t i = 0; i < s->field_count && !at && error->field != KF_FIELD_NONE; i++) {
        if (s->fields[i].field == error->field)
            at = entry->fields[i];
        else if (s->fields[i].entry_field == error->field)
            at = kfc_entry_node(entry->fields[i], error->item);
        else
            continue;
        break;
    }
    if (at)
        return at;
    return entry->name ? entry->name : entry->node;
}

/* What the names registry calls the entries of `s`. */
static int name_kind(const kfc_section *s, kfc_name_kind *kind)
{
    switch (s->kind) {
    case KF_KIND_SEQUENCE:
        *kind = KFC_NAME_SEQUENCE;
        return 1;
    case KF_KIND_INTERPOLATOR:
        *kind = KFC_NAME_INTERPOLATOR;
        return 1;
    case KF_KIND_FOLLOWER:
        *kind = KFC_NAME_FOLLOWER;
        return 1;
    case KF_KIND_CONTROLLER:
        *kind = KFC_NAME_CONTROLLER;
        return 1;
    default:
        return 0;
    }
}

/* A name's kind in a message, by kfc_name_kind. */
static const char *const kind_words[] = {"a sequence", "an interpolator", "a follower",
                                         "a controller"};

/* "a" or "an" before `noun`. */
static const char *article(const char *noun)
{
    return strchr("aeiou", noun[0]) ? "an" : "a";
}

/* `node`'s text quoted, `prefix` and `suffix` inside the quotes: "'- hip:'". */
static const char *quote_with(char *out, size_t size, const char *prefix, const kfc_node *node,
                              const char *suffix)
{
    char quoted[KFC_QUOTE_SIZE];
    kfc_quote(quoted, node->as.text, node->count);
    snprintf(out, size, "'%s%.*s%s'", prefix, (int)strlen(quoted) - 2, quoted + 1, suffix);
    return out;
}

/* The row of the table of `s` that `key` names, or s->field_count. */
static size_t field_row(const kfc_section *s, const kfc_node *key)
{
    size_t f = 0;
    while (f < s->field_count && !kfc_scalar_is(key, s->fields[f].key))
        f++;
    return f;
}

/* Whether `value`, under a key that is no field of `s`, is what an entry
 * of a mapping section is written as: the key is the entry's name. */
static int named_entry(const kfc_section *s, const kfc_node *key, const kfc_node *value)
{
    return field_row(s, key) == s->field_count &&
           (value->kind == KFC_NODE_MAPPING || kfc_node_empty(value));
}

kfc_status kfc_section_expect(const kfc_section *s, const kfc_node *value, kfc_diag *diag)
{
    const char *what = kf_kind_name(s->kind);
    char hint[256], quoted[KFC_QUOTE_SIZE + 8], dashed[KFC_QUOTE_SIZE + 8];
    if (s->shape == KFC_NODE_SEQUENCE) {
        if (value->kind != KFC_NODE_MAPPING || value->count == 0)
            return kfc_expect_list(value, diag);
        /* Entries under names, as in the other sections, or one entry's
         * fields without the '- ' that starts it. */
        const kfc_node *key = kfc_map_key(value, 0);
        if (named_entry(s, key, kfc_map_value(value, 0)))
            snprintf(hint, sizeof hint, "%s %s has no name, so write '- ' in place of %s",
                     article(what), what, quote_with(quoted, sizeof quoted, "", key, ":"));
        else
            snprintf(hint, sizeof hint,
                     "start each %s with '- ', its other fields lined up under its first", what);
        return kfc_expect_list_hint(value, hint, diag);
    }
    if (value->kind != KFC_NODE_SEQUENCE || value->count == 0)
        return kfc_expect_mapping(value, diag);
    /* Entries each started with '- ': under their names, as names alone,
     * or as fields without a name. */
    const kfc_node *item = &value->as.items[0];
    const int n = snprintf(hint, sizeof hint, "%s maps each name to its %s, so ", s->name, what);
    if (item->kind == KFC_NODE_MAPPING && item->count == 1 &&
        named_entry(s, kfc_map_key(item, 0), kfc_map_value(item, 0)))
        snprintf(hint + n, sizeof hint - (size_t)n, "no '- ' before %s (two spaces in its place)",
                 quote_with(quoted, sizeof quoted, "", kfc_map_key(item, 0), ":"));
    else if (item->kind == KFC_NODE_SCALAR && item->count > 0)
        snprintf(hint + n, sizeof hint - (size_t)n,
                 "write %s with its fields indented under it, not %s",
                 quote_with(quoted, sizeof quoted, "", item, ":"),
                 quote_with(dashed, sizeof dashed, "- ", item, ""));
    else
        snprintf(hint + n, sizeof hint - (size_t)n,
                 "write 'NAME:' with its fields indented under it, not '- '");
    return kfc_expect_mapping_hint(value, hint, diag);
}

/* What an entry of `s` written as nothing (`name` its name, NULL in a list
 * section) needs, said after "expected a mapping, got nothing": where its
 * fields go and which it cannot do without, or where it needs none, how
 * to write it with every default. */
static void empty_entry_hint(const kfc_section *s, const kfc_node *name, char *out, size_t size)
{
    const char *what = kf_kind_name(s->kind);
    char quoted[KFC_QUOTE_SIZE + 8];
    size_t required = 0, said = 0;
    for (size_t f = 0; f < s->field_count; f++)
        required += s->fields[f].required != 0;
    if (!required) {
        snprintf(out, size, "write %s for %s %s with every default",
                 name ? quote_with(quoted, sizeof quoted, "", name, ": {}") : "'- {}'",
                 article(what), what);
        return;
    }
    size_t n = (size_t)snprintf(out, size, "write %s %s's fields %s %s (", article(what), what,
                                name ? "indented under" : "after its",
                                name ? quote_with(quoted, sizeof quoted, "", name, ":") : "'- '");
    for (size_t f = 0; f < s->field_count && n < size; f++) {
        if (!s->fields[f].required)
            continue;
        said++;
        n += (size_t)snprintf(out + n, size - n, "%s%s",
                              said == 1          ? ""
                              : said == required ? " and "
                                                 : ", ",
                              s->fields[f].key);
    }
    if (n < size)
        snprintf(out + n, size - n, " %s required)", required == 1 ? "is" : "are");
}

/* Reads and builds the entry; errors are recovered from here, so that the
 * caller only sees what stops the run. */
/* Errors that stop an entry: warnings made errors do not. */
static unsigned entry_errors(const kfc_diag *diag)
{
    return diag->errors - diag->promoted;
}

static kfc_status read_entry(kfc_source *src, const kfc_section *s, kfc_entry *entry)
{
    kfc_diag *diag = src->diag;
    const unsigned before = entry_errors(diag);
    const char *names[KFC_FIELDS_MAX];
    kfc_section_field_names(s, names);
    kfc_status st = KFC_OK;
    if (kfc_node_empty(entry->node)) {
        char hint[256];
        empty_entry_hint(s, entry->name, hint, sizeof hint);
        st = kfc_expect_mapping_hint(entry->node, hint, diag);
    }
    if (!st)
        st = kfc_fields_suggesting(entry->node, names, s->field_count, entry->fields,
                                   &entry->suggested, diag);
    if (st)
        return kfc_entry_fail(src, entry, KFC_FIELDS_MAX, st); /* not a mapping */
    for (size_t i = 0; i < s->field_count; i++)
        if (s->fields[i].required && !entry->fields[i] &&
            (st = kfc_entry_missing(src, entry, s, i)))
            return st;
    /* What is read next depends on the fields that begin reads. */
    if (s->begin && (st = s->begin(src, entry)))
        return kfc_entry_fail(src, entry, KFC_FIELDS_MAX, st);
    if (entry->skip)
        return KFC_OK;
    int passes = 0;
    for (size_t i = 0; i < s->field_count; i++)
        if (s->fields[i].pass >= passes)
            passes = s->fields[i].pass + 1;
    for (int pass = 0; pass < passes; pass++)
        for (size_t i = 0; i < s->field_count; i++)
            if (s->fields[i].pass == pass && s->fields[i].read && entry->fields[i] &&
                !(entry->failed & (1u << i)) &&
                (st = kfc_entry_fail(src, entry, i,
                                     s->fields[i].read(src, entry->fields[i], entry))))
                return st;
    if (!entry->skip && s->check && (st = s->check(src, entry)))
        return st;
    if (entry->errors || entry_errors(diag) != before || entry->skip)
        return KFC_OK;
    kf_error error;
    kf_result r = s->add(src, entry, &error);
    if (r != KF_OK)
        return kfc_entry_fail(
            src, entry, KFC_FIELDS_MAX,
            kfc_section_builder_failed(src, r, &error, error_node(s, entry, &error)));
    return s->built ? s->built(src, entry) : KFC_OK;
}

/* Defines entry `key`'s name in the namespace of `s` (none for an entry
 * without a name, or of a section without names: *index SIZE_MAX). A name
 * defined before keeps that first definition, whose index comes back. */
static kfc_status define_name(kfc_source *src, const kfc_section *s, const kfc_node *key,
                              size_t *index)
{
    kfc_name_kind kind;
    *index = SIZE_MAX;
    if (!key || !name_kind(s, &kind))
        return KFC_OK;
    return kfc_names_add(&src->names, kind, key->as.text, key->count, key->mark, index, src->diag);
}

/* Whether name `index` was defined at `key` (not by an earlier entry). */
static int defined_here(const kfc_source *src, size_t index, const kfc_node *key)
{
    const kfc_name *n = &src->names.names[index];
    return n->mark.line == key->mark.line && n->mark.column == key->mark.column;
}

static kfc_status section_read(kfc_source *src, const kfc_section *s, const kfc_node *key,
                               const kfc_node *value, void *state)
{
    kfc_entry entry;
    memset(&entry, 0, sizeof entry);
    entry.name = key;
    entry.node = value;
    entry.state = state;
    size_t index;
    kfc_status st = define_name(src, s, key, &index);
    if (st)
        return st;
    if (index != SIZE_MAX)
        entry.defined = &src->names.names[index];
    const unsigned before = entry_errors(src->diag);
    /* A name an earlier entry defined (animators share one namespace
     * across sections): said with where, and the entry read but not built. */
    if (index != SIZE_MAX && !defined_here(src, index, key)) {
        char quoted[KFC_QUOTE_SIZE];
        entry.skip = 1;
        if ((st = kfc_recover(src->diag, kfc_fail(src->diag, KFC_INVALID, key->mark,
                                                  "%s is already %s (at %lu:%lu)",
                                                  kfc_quote(quoted, key->as.text, key->count),
                                                  kind_words[entry.defined->kind],
                                                  (unsigned long)entry.defined->mark.line,
                                                  (unsigned long)entry.defined->mark.column))))
            return st;
    }
    st = read_entry(src, s, &entry);
    /* Later entries that name it are left out without a message. A name
     * defined twice keeps its first definition, which stands. */
    if (index != SIZE_MAX && (entry_errors(src->diag) != before || entry.errors || entry.skip) &&
        defined_here(src, index, key))
        src->names.names[index].failed = 1;
    return st;
}

kfc_status kfc_section_read(kfc_source *src, const kfc_section *s, const kfc_node *key,
                            const kfc_node *value, void *state)
{
    /* Fields are read in the order their dependencies need (the keys after
     * the interpolation that says how they read), not the text's; what
     * they report is put back in the text's order. */
    kfc_diag_hold(src->diag);
    kfc_status st = section_read(src, s, key, value, state);
    /* A missing field may yet turn up below, at the section's level: the
     * hold stays open for it (kfc_section_entry). */
    if (st == KFC_OK && key && src->missing.fields) {
        src->missing.section = s;
        return KFC_OK;
    }
    src->missing.fields = 0;
    kfc_diag_release(src->diag);
    return st;
}

void kfc_section_end(kfc_source *src)
{
    if (!src->missing.section)
        return;
    src->missing.section = NULL;
    src->missing.fields = 0;
    kfc_diag_release(src->diag);
}

static kfc_status refuse_entry(kfc_source *src, const kfc_section *s, const kfc_node *key,
                               const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Entry `key` of `s`, which the caller does not read, is reported at its
 * name: always, also where the section has no names to define, or the
 * entry would be left out of a compile that succeeds. Its name is defined
 * (failed), so that a track naming it says nothing more. */
static kfc_status refuse_entry(kfc_source *src, const kfc_section *s, const kfc_node *key,
                               const char *format, ...)
{
    size_t index;
    kfc_status st = define_name(src, s, key, &index);
    if (st)
        return st;
    if (index != SIZE_MAX && defined_here(src, index, key))
        src->names.names[index].failed = 1;
    char message[sizeof src->diag->message];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return kfc_recover(src->diag, kfc_fail(src->diag, KFC_INVALID, key->mark, "%s", message));
}

/* The table row entry `key` of `s` is named as, when it is a field at its
 * entry's indentation instead of under it (its value not a mapping, as an
 * entry's is); else s->field_count. Only in a section whose entries have a
 * kind (*kind) to name in the message. */
static size_t stray_row(const kfc_section *s, const kfc_node *key, const kfc_node *value,
                        kfc_name_kind *kind)
{
    if (!key || value->kind == KFC_NODE_MAPPING || !name_kind(s, kind))
        return s->field_count;
    return field_row(s, key);
}

kfc_status kfc_section_entry(kfc_source *src, const kfc_section *s, const kfc_node *key,
                             const kfc_node *value, const kfc_section *meant)
{
    kfc_name_kind kind = KFC_NAME_SEQUENCE, meant_kind = KFC_NAME_SEQUENCE;
    char quoted[KFC_QUOTE_SIZE];
    const size_t f = stray_row(s, key, value, &kind);
    if (f == s->field_count || src->missing.section != s)
        kfc_section_end(src);
    if (f < s->field_count) {
        /* The field the entry before was said to miss: that error is this
         * one's consequence. */
        if (src->missing.section == s && (src->missing.fields & 1u << f)) {
            src->missing.fields &= ~(1u << f);
            kfc_diag_withdraw(src->diag, src->missing.held[f]);
        }
        return refuse_entry(src, s, key,
                            "%s is a field of %s, not the name of one: indent it under the entry "
                            "it belongs to",
                            kfc_quote(quoted, key->as.text, key->count), kind_words[kind]);
    }
    if (meant && key && name_kind(s, &kind) && name_kind(meant, &meant_kind))
        return refuse_entry(src, s, key, "%s has the fields of %s, not of %s: it goes under '%s:'",
                            kfc_quote(quoted, key->as.text, key->count), kind_words[meant_kind],
                            kind_words[kind], meant->name);
    return s->read(src, key, value);
}

kfc_status kfc_section_emit(kfc_emitter *e, const kfc_section *s, const kf_anim *anim, void *out)
{
    const uint32_t count = kf_anim_count(anim, s->kind);
    if (count == 0)
        return KFC_OK;
    kfc_status st = kfc_emit_string(e, s->name);
    if (!st)
        st = s->shape == KFC_NODE_MAPPING ? kfc_emit_map_start(e, 0) : kfc_emit_list_start(e, 0);
    for (uint32_t i = 0; i < count && !st; i++) {
        const char *name = NULL;
        if ((st = s->load(e, anim, i, out, &name)) || (name && (st = kfc_emit_string(e, name))) ||
            (st = kfc_emit_map_start(e, s->flow)))
            break;
        for (size_t f = 0; f < s->field_count && !st; f++) {
            const kfc_field *field = &s->fields[f];
            if (field->emit && (!field->written || field->written(out)) &&
                !(st = kfc_emit_string(e, field->key)))
                st = field->emit(e, out);
        }
        if (!st)
            st = kfc_emit_map_end(e);
    }
    if (st)
        return st;
    return s->shape == KFC_NODE_MAPPING ? kfc_emit_map_end(e) : kfc_emit_list_end(e);
}

kfc_status kfc_section_builder_failed(kfc_source *src, kf_result result, const kf_error *error,
                                      const kfc_node *at)
{
    kfc_status status = result == KF_ERROR_OUT_OF_MEMORY ? KFC_NOMEM
                        : result == KF_ERROR_IO          ? KFC_IO
                                                         : KFC_INVALID;
    const char *message = error->message[0] ? error->message : kf_result_message(result);
    /* The builder quotes names as kfc does (kf.h, kf_error); escaped all
     * the same, since a diagnostic is one line whatever a message holds. */
    char line[sizeof error->message * 4];
    kfc_text_escape(line, sizeof line, message);
    return kfc_fail(src->diag, status, at->mark, "%s", line);
}

kfc_status kfc_warn_long_time(kfc_source *src, kfc_mark mark, double seconds, double most,
                              double speed, const char *field, const char *clock)
{
    const double judged = fabs(speed) > 1 ? fabs(speed) : 1;
    const double world = seconds / judged;
    if (!(world >= most))
        return KFC_OK;
    if (judged == 1)
        return kfc_warn_long_seconds(src->diag, mark, NULL, field, seconds, clock);
    return kfc_warn(src->diag, KFC_WARN_LONG_DURATION, mark,
                    "a %s of %.9g at speed %.9g is %.3g minutes of world time", field, seconds,
                    speed, world / 60.0);
}

kfc_status kfc_warn_angles(kfc_source *src, const kfc_node *field, int entries, const double *v,
                           uint32_t count)
{
    uint32_t first = 0;
    const uint32_t over = kfc_angles_over_turn(v, count, &first);
    if (!over)
        return KFC_OK;
    char what[48] = "the rotation has";
    if (entries)
        snprintf(what, sizeof what, "key %lu has", (unsigned long)first);
    const kfc_node *at = entries ? &field->as.items[first] : field;
    return kfc_warn_angle_range(src->diag, at->as.items[3].mark, what, v[4 * (size_t)first + 3],
                                over - 1, NULL);
}

kfc_status kfc_get_animator_seconds(kfc_source *src, const kfc_node *value, kfc_entry *entry,
                                    double most, const char *field, const char *clock,
                                    double *seconds)
{
    kfc_status st = kfc_get_float(value, seconds, src->diag);
    /* A faster controller only shortens it: what is shorter at speed 1
     * needs no second look. */
    if (st || !(*seconds >= most) || !entry->defined)
        return st;
    kfc_long_time *items = kfc_grow(src->long_times.items, src->long_times.count,
                                    &src->long_times.capacity, sizeof *items, 16);
    if (!items)
        return kfc_fail_nomem(src->diag);
    src->long_times.items = items;
    src->long_times.items[src->long_times.count++] = (kfc_long_time){
        value->mark, *seconds, most, field, clock, (size_t)(entry->defined - src->names.names)};
    return KFC_OK;
}

kfc_status kfc_warn_long_times(kfc_source *src)
{
    kfc_status st = KFC_OK;
    for (size_t i = 0; i < src->long_times.count && !st; i++) {
        const kfc_long_time *t = &src->long_times.items[i];
        const kfc_name *n = &src->names.names[t->animator];
        if (n->speed_unknown || (!n->played && src->tracks_failed))
            continue;
        st = kfc_warn_long_time(src, t->mark, t->seconds, t->most, n->played ? n->speed : 1,
                                t->field, t->clock);
    }
    return st;
}

kfc_status kfc_entry_missing(kfc_source *src, kfc_entry *entry, const kfc_section *section,
                             size_t field)
{
    entry->failed |= 1u << field;
    entry->errors++;
    /* At the entry's name, if it has one; an unknown field already
     * suggested for it says the same. */
    if (entry->suggested & (1u << field))
        return KFC_OK;
    const size_t held = kfc_diag_held_count(src->diag);
    kfc_status st =
        kfc_recover(src->diag, kfc_require(entry->name ? entry->name : entry->node, NULL,
                                           section->fields[field].key, src->diag));
    /* Withdrawn if the field turns up at the section's level below. */
    if (st == KFC_OK && kfc_diag_held_count(src->diag) == held + 1) {
        src->missing.fields |= 1u << field;
        src->missing.held[field] = held;
    }
    return st;
}

kfc_status kfc_entry_fail(kfc_source *src, kfc_entry *entry, size_t field, kfc_status status)
{
    if (status == KFC_OK)
        return KFC_OK;
    if (field < KFC_FIELDS_MAX)
        entry->failed |= 1u << field;
    entry->errors++;
    return kfc_recover(src->diag, status);
}

kfc_status kfc_reserve(kfc_source *src, int which, size_t count)
{
    double **array = &src->scratch[which].data;
    size_t *capacity = &src->scratch[which].capacity;
    if (count <= *capacity)
        return KFC_OK;
    size_t grown = *capacity ? *capacity : 64;
    while (grown < count)
        grown = grown > SIZE_MAX / 2 ? count : grown * 2;
    if (grown > SIZE_MAX / sizeof **array)
        return kfc_fail_nomem(src->diag);
    double *p = realloc(*array, grown * sizeof *p);
    if (!p)
        return kfc_fail_nomem(src->diag);
    *array = p;
    *capacity = grown;
    return KFC_OK;
}

const kfc_node *kfc_entry_node(const kfc_node *field, uint32_t item)
{
    if (field && field->kind == KFC_NODE_SEQUENCE && item < field->count)
        return &field->as.items[item];
    return field;
}
