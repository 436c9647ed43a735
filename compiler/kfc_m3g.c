/* SPDX-License-Identifier: MIT */
/*
 * kfc_m3g.c - M3G animation -> kf_builder (kfc_m3g.h): which objects
 * become what, the properties tracks play into, and the mapping of M3G's
 * millisecond world clock onto kfb's seconds. The file format is read by
 * kfc_m3g_file.c, and objects are named by kfc_m3g_names.c.
 */
#include "kfc_m3g.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_m3g_file.h"
#include "kfc_m3g_names.h"
#include "kfc_sniff.h"
#include "kfc_text.h"

/* kfb world time is seconds; M3G's is milliseconds (kfc_m3g.h). */
#define MS_PER_SECOND 1000.0

int kfc_m3g_detect(const char *path, const unsigned char *data, size_t size)
{
    return kfc_sniff_m3g(path, data, size);
}

typedef struct importer {
    kfc_m3g_file *file; /* its budget is charged for what the builder is given */
    const kfc_import_options *options;
    kf_builder *builder;
    kfc_diag *diag;
    kfc_m3g_names names; /* Swerve Author's name table, if the file has one */
} importer;

static void note(const importer *im, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note(const importer *im, const char *format, ...)
{
    if (!im->options->notes)
        return;
    va_list args;
    char text[1024];
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    /* (the file's name and the names the note quotes, as a terminal may
     * show them: kfc_text.h) */
    kfc_text_put_name(im->options->notes,
                      im->options->path && strcmp(im->options->path, "-") != 0 ? im->options->path
                                                                               : "<stdin>",
                      0);
    fputs(": note: ", im->options->notes);
    kfc_text_write(im->options->notes, text);
    fputc('\n', im->options->notes);
}

static const kfc_m3g_object *object(const importer *im, uint32_t index)
{
    return &im->file->object[index - 1];
}

static kfc_status fail_object(const importer *im, uint32_t index, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A failure located at the start of object `index`. */
static kfc_status fail_object(const importer *im, uint32_t index, const char *format, ...)
{
    char where[96], message[sizeof im->diag->message];
    kfc_m3g_where(where, sizeof where, &object(im, index)->at, index);
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    return kfc_fail_at(im->diag, where, "%s", message);
}

/* The kfb name of object `index` (kfc_m3g_names.h): "Group7",
 * "Group7_uid12", "Group7_RooTransform". */
#define NAME_SIZE KFC_M3G_NAME_SIZE
static char *name_of(const importer *im, uint32_t index, char out[NAME_SIZE])
{
    return kfc_m3g_object_name(&im->names, im->file, index, out);
}

static int builtin(uint32_t property)
{
    return property >= KFC_M3G_PROPERTY_FIRST && property <= KFC_M3G_PROPERTY_LAST;
}

/* M3G's property IDs follow kf_property's order from ALPHA on. */
static kf_property kf_property_of(uint32_t property)
{
    return (kf_property)(property - KFC_M3G_PROPERTY_FIRST + KF_PROPERTY_ALPHA);
}

/* "ORIENTATION" for 268; "property 300" outside JSR-184's set. */
static const char *m3g_property_name(uint32_t property, char out[32])
{
    if (!builtin(property)) {
        snprintf(out, 32, "property %lu", (unsigned long)property);
        return out;
    }
    const char *name = kf_property_name(kf_property_of(property));
    size_t i = 0;
    for (; name[i] && i < 31; i++)
        out[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
    out[i] = '\0';
    return out;
}

#define P(name) (1u << (KF_PROPERTY_##name - KF_PROPERTY_ALPHA))

/* The properties an object of class `type` can be animated in (the M3G
 * API's AnimationTrack table; Object3D.addAnimationTrack refuses others). */
static uint32_t animatable(unsigned type)
{
    const uint32_t transformable = P(ORIENTATION) | P(SCALE) | P(TRANSLATION);
    const uint32_t node = transformable | P(ALPHA) | P(PICKABILITY) | P(VISIBILITY);
    switch (type) {
    case KFC_M3G_BACKGROUND:
        return P(ALPHA) | P(COLOR) | P(CROP);
    case KFC_M3G_CAMERA:
        return node | P(FAR_DISTANCE) | P(FIELD_OF_VIEW) | P(NEAR_DISTANCE);
    case KFC_M3G_FOG:
        return P(COLOR) | P(DENSITY) | P(FAR_DISTANCE) | P(NEAR_DISTANCE);
    case KFC_M3G_GROUP:
    case KFC_M3G_MESH:
    case KFC_M3G_SKINNED_MESH:
    case KFC_M3G_WORLD:
        return node;
    case KFC_M3G_LIGHT:
        return node | P(COLOR) | P(INTENSITY) | P(SPOT_ANGLE) | P(SPOT_EXPONENT);
    case KFC_M3G_MATERIAL:
        return P(ALPHA) | P(AMBIENT_COLOR) | P(DIFFUSE_COLOR) | P(EMISSIVE_COLOR) | P(SHININESS) |
               P(SPECULAR_COLOR);
    case KFC_M3G_MORPHING_MESH:
        return node | P(MORPH_WEIGHTS);
    case KFC_M3G_SPRITE3D:
        return node | P(CROP);
    case KFC_M3G_TEXTURE2D:
        return transformable | P(COLOR);
    case KFC_M3G_VERTEX_BUFFER:
        return P(ALPHA) | P(COLOR);
    default:
        return 0;
    }
}

static kfc_status builder_failed(const importer *im, uint32_t index, kf_result r,
                                 const kf_error *error)
{
    if (r == KF_ERROR_OUT_OF_MEMORY)
        return kfc_fail_nomem(im->diag);
    return fail_object(im, index, "%s: %s", kfc_m3g_type_name(object(im, index)->type),
                       error->message[0] ? error->message : kf_result_message(r));
}

static kfc_status add_controller(const importer *im, uint32_t index)
{
    const kfc_m3g_controller *c = &im->file->controllers[object(im, index)->record];
    char name[NAME_SIZE];
    if (!kfc_m3g_charge(im->file, KFC_M3G_COST_CONTROLLER))
        return fail_object(im, index, "AnimationController: " KFC_M3G_BUDGET_MESSAGE);
    kf_controller_desc d;
    kf_controller_desc_init(&d);
    d.name = name_of(im, index, name);
    /* World time w seconds plays M3G's world time w * 1000 ms: position =
     * refSeq + speed * (1000 w - refWorld) = refSeq + 1000 speed * (w -
     * refWorld / 1000). Equal interval ends stay equal: always active. */
    d.speed = (double)c->speed * MS_PER_SECOND;
    d.weight = c->weight;
    d.active_start = c->active_start / MS_PER_SECOND;
    d.active_end = c->active_end / MS_PER_SECOND;
    d.ref_world = c->ref_world / MS_PER_SECOND;
    d.ref_sequence = c->ref_sequence;
    kf_error error;
    kf_result r = kf_builder_add_controller(im->builder, &d, &error);
    return r == KF_OK ? KFC_OK : builder_failed(im, index, r, &error);
}

static kf_interpolation interpolation_of(unsigned m3g)
{
    switch (m3g) {
    case KFC_M3G_LINEAR:
        return KF_INTERPOLATION_LINEAR;
    case KFC_M3G_SLERP:
        return KF_INTERPOLATION_SLERP;
    case KFC_M3G_SPLINE:
        return KF_INTERPOLATION_SPLINE;
    case KFC_M3G_SQUAD:
        return KF_INTERPOLATION_SQUAD;
    default:
        return KF_INTERPOLATION_STEP;
    }
}

/* KeyframeSequence `index` as the sequence `name`. */
static kfc_status add_sequence(const importer *im, uint32_t index, const char *name)
{
    const kfc_m3g_sequence *s = &im->file->sequences[object(im, index)->record];
    const size_t n = s->keys, c = s->components;
    /* n * c values came from at least n * c inflated bytes: no overflow. */
    if (!kfc_m3g_charge(im->file,
                        (uint64_t)n * (KFC_M3G_COST_KEY + (uint64_t)c * KFC_M3G_COST_VALUE)))
        return fail_object(im, index, "KeyframeSequence: " KFC_M3G_BUDGET_MESSAGE);
    double *times = malloc(n * sizeof *times);
    double *values = malloc(n * c * sizeof *values);
    if (!times || !values) {
        free(times);
        free(values);
        return kfc_fail_nomem(im->diag);
    }
    kfc_m3g_sequence_keys(s, times, values);
    /* Times are kept as the file has them; float32 holds every integer up
     * to 2^24 exactly, which covers 4.6 hours of milliseconds. */
    int rounded = (double)(float)s->duration != (double)s->duration;
    for (size_t k = 0; k < n && !rounded; k++)
        rounded = (double)(float)times[k] != times[k];
    if (rounded)
        note(im, "%s: times beyond 16777216 are rounded to float32", name);
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.name = name;
    d.interpolation = interpolation_of(s->interpolation);
    d.repeat = s->repeat == KFC_M3G_LOOP ? KF_REPEAT_LOOP : KF_REPEAT_CONSTANT;
    d.duration = s->duration;
    d.components = s->components;
    d.key_count = s->keys;
    d.times = times;
    d.values = values;
    d.valid_first = s->valid_first;
    d.valid_last = s->valid_last;
    kf_error error;
    kf_result r = kf_builder_add_sequence(im->builder, &d, &error);
    free(times);
    free(values);
    return r == KF_OK ? KFC_OK : builder_failed(im, index, r, &error);
}

/* The checks AnimationTrack's constructor makes: a built-in property's
 * component count. */
static kfc_status check_track(const importer *im, uint32_t index)
{
    const kfc_m3g_track *t = &im->file->tracks[object(im, index)->record];
    const uint32_t components = im->file->sequences[object(im, t->sequence)->record].components;
    char property[32];
    if (builtin(t->property) && !kf_property_accepts(kf_property_of(t->property), components))
        return fail_object(im, index,
                           "AnimationTrack: %s cannot take the %lu components of "
                           "KeyframeSequence %lu",
                           m3g_property_name(t->property, property), (unsigned long)components,
                           (unsigned long)t->sequence);
    return KFC_OK;
}

/* Track `track` of object `owner`: owner.property <- its sequence. */
static kfc_status add_track(importer *im, uint32_t owner, uint32_t track)
{
    const kfc_m3g_object *o = object(im, owner);
    const kfc_m3g_track *t = &im->file->tracks[object(im, track)->record];
    const uint32_t components = im->file->sequences[object(im, t->sequence)->record].components;
    char owner_name[NAME_SIZE], sequence[2 * NAME_SIZE], controller[NAME_SIZE], property[32];
    char target[NAME_SIZE + 32];
    name_of(im, owner, owner_name);
    name_of(im, t->sequence, sequence);
    if (!kfc_m3g_charge(im->file, KFC_M3G_COST_TRACK))
        return fail_object(im, owner, "%s: " KFC_M3G_BUDGET_MESSAGE, kfc_m3g_type_name(o->type));
    if (builtin(t->property)) {
        if (!(animatable(o->type) & 1u << (t->property - KFC_M3G_PROPERTY_FIRST)))
            return fail_object(
                im, owner, "%s: AnimationTrack %lu animates %s, which a %s does not have",
                kfc_m3g_type_name(o->type), (unsigned long)track,
                m3g_property_name(t->property, property), kfc_m3g_type_name(o->type));
        snprintf(target, sizeof target, "%s.%s", owner_name,
                 kf_property_name(kf_property_of(t->property)));
    } else {
        snprintf(target, sizeof target, "%s.property%lu", owner_name, (unsigned long)t->property);
        note(im,
             "%s: AnimationTrack %lu animates property %lu, which is not JSR-184's: a custom "
             "property of %lu components",
             target, (unsigned long)track, (unsigned long)t->property, (unsigned long)components);
    }
    kf_track_desc d = {sequence, t->controller ? name_of(im, t->controller, controller) : NULL,
                       target, builtin(t->property) ? 0 : components};
    kf_error error;
    kf_result r = kf_builder_add_track(im->builder, &d, &error);
    if (r == KF_ERROR_DUPLICATE) {
        /* Two AnimationTracks alike (sequence, controller, property) on one
         * object: M3G plays both, and their weights add up. A track of kfb
         * is unique by those three, so the second plays a copy of the
         * sequence, named after the track (charged to the budget like
         * any sequence, so tracks alike cannot multiply memory). */
        size_t n = strlen(sequence);
        snprintf(sequence + n, sizeof sequence - n, "_track%lu", (unsigned long)track);
        kfc_status st = add_sequence(im, t->sequence, sequence);
        if (st)
            return st;
        r = kf_builder_add_track(im->builder, &d, &error);
    }
    return r == KF_OK ? KFC_OK : builder_failed(im, owner, r, &error);
}

/* External references: a PNG image holds no animation and is passed
 * over; another M3G file could hold animated objects this one uses, and
 * kfc reads one file. */
static kfc_status external_references(const importer *im)
{
    const kfc_m3g_file *f = im->file;
    for (uint32_t i = 1; i <= f->object_count; i++) {
        const kfc_m3g_object *o = object(im, i);
        if (o->type != KFC_M3G_EXTERNAL_REFERENCE)
            continue;
        const char *uri = f->uris[o->record];
        size_t n = strlen(uri);
        char quoted[KFC_QUOTE_SIZE];
        kfc_quote(quoted, uri, n);
        int png = n > 4 && uri[n - 4] == '.' && (uri[n - 3] | 0x20) == 'p' &&
                  (uri[n - 2] | 0x20) == 'n' && (uri[n - 1] | 0x20) == 'g';
        if (!png)
            return fail_object(im, i,
                               "ExternalReference: %s names another file; kfc does not follow "
                               "external references (it passes over PNG images only: they hold "
                               "no animation)",
                               quoted);
        note(im, "object %lu: external image %s not read (images hold no animation)",
             (unsigned long)i, quoted);
    }
    return KFC_OK;
}

/* What kfc leaves out: objects that are not about animation, user
 * parameters, tracks no object owns. */
static void passed_over(const importer *im, const uint32_t *owned)
{
    const kfc_m3g_file *f = im->file;
    uint32_t skipped[KFC_M3G_TYPE_COUNT] = {0}, animated[KFC_M3G_TYPE_COUNT] = {0};
    uint32_t with_parameters = 0;
    for (uint32_t i = 1; i <= f->object_count; i++) {
        const kfc_m3g_object *o = object(im, i);
        if (o->type < KFC_M3G_TYPE_COUNT && o->type != KFC_M3G_HEADER &&
            o->type != KFC_M3G_ANIMATION_CONTROLLER && o->type != KFC_M3G_ANIMATION_TRACK &&
            o->type != KFC_M3G_KEYFRAME_SEQUENCE)
            (o->track_count ? animated : skipped)[o->type]++;
        if (o->type == KFC_M3G_ANIMATION_TRACK && !owned[i - 1]) {
            char name[NAME_SIZE];
            note(im, "%s belongs to no object: M3G never plays it, nor does kfc",
                 name_of(im, i, name));
        }
        with_parameters += o->parameters > 0;
    }
    if (!im->options->notes)
        return;
    for (int pass = 0; pass < 2; pass++) {
        const uint32_t *count = pass ? skipped : animated;
        char list[1024] = "";
        size_t n = 0;
        for (unsigned t = 0; t < KFC_M3G_TYPE_COUNT; t++) {
            if (count[t] && n < sizeof list) {
                int w = snprintf(list + n, sizeof list - n, "%s%lu %s", n ? ", " : "",
                                 (unsigned long)count[t], kfc_m3g_type_name(t));
                n += w > 0 ? (size_t)w : 0;
            }
        }
        if (list[0] && pass == 0)
            note(im, "animated, their other fields left out: %s", list);
        else if (list[0])
            note(im, "skipped, not animated: %s", list);
    }
    if (with_parameters)
        note(im, "%lu object%s user parameters, which kfc leaves out",
             (unsigned long)with_parameters, with_parameters == 1 ? " has" : "s have");
}

static kfc_status compile_file(importer *im, size_t size)
{
    const kfc_m3g_file *f = im->file;
    kfc_status st = KFC_OK;
    if (f->total_size < size)
        note(im, "%lu bytes after the header's TotalFileSize (%lu) not read, as M3G reads none",
             (unsigned long)(size - f->total_size), (unsigned long)f->total_size);
    char name[NAME_SIZE];
    uint32_t *owned = calloc(f->object_count, sizeof *owned);
    if (!owned)
        return kfc_fail_nomem(im->diag);
    for (uint32_t i = 1; i <= f->object_count && !st; i++) {
        const kfc_m3g_object *o = object(im, i);
        if (o->type == KFC_M3G_ANIMATION_CONTROLLER)
            st = add_controller(im, i);
        else if (o->type == KFC_M3G_KEYFRAME_SEQUENCE)
            st = add_sequence(im, i, name_of(im, i, name));
        else if (o->type == KFC_M3G_ANIMATION_TRACK)
            st = check_track(im, i);
    }
    for (uint32_t i = 1; i <= f->object_count && !st; i++) {
        const kfc_m3g_object *o = object(im, i);
        for (uint32_t k = 0; k < o->track_count && !st; k++) {
            uint32_t track = f->track_refs[o->tracks_first + k];
            owned[track - 1] = 1;
            st = add_track(im, i, track);
        }
    }
    if (!st)
        passed_over(im, owned);
    free(owned);
    return st;
}

kfc_status kfc_m3g_compile(const unsigned char *data, size_t size,
                           const kfc_import_options *options, kf_builder *builder, kfc_diag *diag)
{
    if (options->animation)
        return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                        "--animation selects one of an input's animations; an M3G file's "
                        "controllers are all imported");
    kfc_m3g_file file;
    kfc_status st = kfc_m3g_read(data, size, &file, diag);
    if (st)
        return st;
    importer im = {&file, options, builder, diag, {0}};
    /* External references first: a file kfc cannot import whole is
     * refused before anything else is said about it. */
    st = external_references(&im);
    if (!st && !kfc_m3g_names_read(&file, &im.names))
        st = fail_object(&im, 1, "Header: " KFC_M3G_BUDGET_MESSAGE);
    if (!st && im.names.count)
        note(&im, "names from the AuthoringField's Swerve Author name table (%lu user ID%s)",
             (unsigned long)im.names.count, im.names.count == 1 ? "" : "s");
    if (!st)
        st = compile_file(&im, size);
    kfc_m3g_names_free(&im.names);
    kfc_m3g_file_free(&file);
    return st;
}

const kfc_importer kfc_m3g_importer = {
    "M3G (JSR-184)",
    kfc_m3g_detect,
    kfc_m3g_compile,
    NULL,
    "an M3G file's controllers are all imported into one file, and its sequences repeat as "
    "the file says",
    "an M3G file's external references are never opened",
    NULL};
