#include "kfc_decompile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "kfc_number.h"

#define NUMBER_SIZE 32

typedef struct emitter {
    yaml_emitter_t yaml;
    kfc_diag      *diag;
    kf_write_fn    write;
    void          *user;
    int            write_failed;
    unsigned char  last;    /* the last byte written */
} emitter;

void kfc_format_float(char *out, float value)
{
    for (int digits = 6; digits <= 9; digits++) {
        double parsed;
        snprintf(out, NUMBER_SIZE, "%.*g", digits, (double)value);
        /* Compare bits: -0 must stay -0. Nine digits always round-trip. */
        if (kfc_parse_number(out, strlen(out), &parsed) == KFC_NUMBER_OK) {
            float back = (float)parsed;
            if (memcmp(&back, &value, sizeof value) == 0)
                return;
        }
    }
}

void kfc_format_double(char *out, double value)
{
    for (int digits = 6; digits <= 17; digits++) {
        double parsed;
        snprintf(out, NUMBER_SIZE, "%.*g", digits, value);
        if (kfc_parse_number(out, strlen(out), &parsed) == KFC_NUMBER_OK
            && memcmp(&parsed, &value, sizeof value) == 0)
            return;
    }
}

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    emitter *e = data;
    if (e->write(e->user, buffer, size) != 0) {
        e->write_failed = 1;
        return 0;
    }
    if (size)
        e->last = buffer[size - 1];
    return 1;
}

/* Emits `event` (which the emitter takes over, success or not). */
static kfc_status emit(emitter *e, yaml_event_t *event)
{
    if (yaml_emitter_emit(&e->yaml, event))
        return KFC_OK;
    if (e->write_failed || e->yaml.error == YAML_WRITER_ERROR)
        return kfc_fail(e->diag, KFC_IO, KFC_NO_MARK, "cannot write");
    if (e->yaml.error == YAML_MEMORY_ERROR)
        return kfc_fail_nomem(e->diag);
    return kfc_fail(e->diag, KFC_INVALID, KFC_NO_MARK, "cannot write YAML: %s",
                    e->yaml.problem ? e->yaml.problem : "emitter error");
}

static kfc_status collection(emitter *e, yaml_event_type_t type, int flow)
{
    yaml_event_t event;
    int ok;
    switch (type) {
    case YAML_MAPPING_START_EVENT:
        ok = yaml_mapping_start_event_initialize(&event, NULL, NULL, 1,
                                                 flow ? YAML_FLOW_MAPPING_STYLE
                                                      : YAML_BLOCK_MAPPING_STYLE);
        break;
    case YAML_SEQUENCE_START_EVENT:
        ok = yaml_sequence_start_event_initialize(&event, NULL, NULL, 1,
                                                  flow ? YAML_FLOW_SEQUENCE_STYLE
                                                       : YAML_BLOCK_SEQUENCE_STYLE);
        break;
    case YAML_MAPPING_END_EVENT:
        ok = yaml_mapping_end_event_initialize(&event);
        break;
    default:
        ok = yaml_sequence_end_event_initialize(&event);
        break;
    }
    return ok ? emit(e, &event) : kfc_fail_nomem(e->diag);
}

/* Stream and document boundaries; the document markers stay implicit. */
static kfc_status framing(emitter *e, yaml_event_type_t type)
{
    yaml_event_t event;
    int ok;
    switch (type) {
    case YAML_STREAM_START_EVENT:
        ok = yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING);
        break;
    case YAML_DOCUMENT_START_EVENT:
        ok = yaml_document_start_event_initialize(&event, NULL, NULL, NULL, 1);
        break;
    case YAML_DOCUMENT_END_EVENT:
        ok = yaml_document_end_event_initialize(&event, 1);
        break;
    default:
        ok = yaml_stream_end_event_initialize(&event);
        break;
    }
    return ok ? emit(e, &event) : kfc_fail_nomem(e->diag);
}

#define MAP_START(e, flow)  collection((e), YAML_MAPPING_START_EVENT, (flow))
#define MAP_END(e)          collection((e), YAML_MAPPING_END_EVENT, 0)
#define LIST_START(e, flow) collection((e), YAML_SEQUENCE_START_EVENT, (flow))
#define LIST_END(e)         collection((e), YAML_SEQUENCE_END_EVENT, 0)

/* Whether a plain `text` would read as a number, boolean or null to YAML
 * tools that resolve types (kfc itself reads every name as a string). */
static int looks_typed(const char *text)
{
    static const char *const words[] = {"null", "true", "false", "yes", "no", "on", "off",
                                        "y", "n", "~"};
    char c = text[0];
    if ((c >= '0' && c <= '9')
        || ((c == '+' || c == '-' || c == '.') && ((text[1] >= '0' && text[1] <= '9')
                                                   || text[1] == '.' || text[1] == 'i'
                                                   || text[1] == 'I')))
        return 1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = 0;
        while (words[i][k] && (text[k] | 0x20) == words[i][k])
            k++;
        if (!words[i][k] && !text[k])
            return 1;
    }
    return 0;
}

/* A name or enumeration value: plain when that reads back as the same
 * text to any YAML reader, quoted otherwise (the emitter escapes what
 * single quotes cannot hold). */
static kfc_status string(emitter *e, const char *text)
{
    yaml_event_t event;
    yaml_scalar_style_t style = looks_typed(text) ? YAML_SINGLE_QUOTED_SCALAR_STYLE
                                                  : YAML_ANY_SCALAR_STYLE;
    if (!yaml_scalar_event_initialize(&event, NULL, NULL, (yaml_char_t *)text, (int)strlen(text),
                                      1, 1, style)) {
        char quoted[KFC_QUOTE_SIZE];
        return kfc_fail(e->diag, KFC_INVALID, KFC_NO_MARK, "name %s is not valid UTF-8",
                        kfc_quote(quoted, text, strlen(text)));
    }
    return emit(e, &event);
}

/* Numbers are plain: kfc refuses quoted numbers. */
static kfc_status number_text(emitter *e, const char *text)
{
    yaml_event_t event;
    if (!yaml_scalar_event_initialize(&event, NULL, NULL, (yaml_char_t *)text, (int)strlen(text),
                                      1, 0, YAML_PLAIN_SCALAR_STYLE))
        return kfc_fail_nomem(e->diag);
    return emit(e, &event);
}

static kfc_status float_number(emitter *e, float value)
{
    char text[NUMBER_SIZE];
    kfc_format_float(text, value);
    return number_text(e, text);
}

static kfc_status double_number(emitter *e, double value)
{
    char text[NUMBER_SIZE];
    kfc_format_double(text, value);
    return number_text(e, text);
}

static kfc_status uint_number(emitter *e, uint32_t value)
{
    char text[NUMBER_SIZE];
    snprintf(text, sizeof text, "%lu", (unsigned long)value);
    return number_text(e, text);
}

/* true / false, plain: kfc reads only those spellings. */
static kfc_status boolean(emitter *e, int value)
{
    return number_text(e, value ? "true" : "false");
}

/* ---- sections ---------------------------------------------------------- */

/* A key's {tension, continuity, bias}, fields at 0 left out; nothing when
 * all three are. A -0 is kept: it is a different float32. */
static kfc_status key_tcb(emitter *e, const kf_sequence *seq, uint32_t k)
{
    static const char *const names[3] = {"tension", "continuity", "bias"};
    float tcb[3];
    kf_sequence_key_tcb(seq, k, tcb);
    int any = 0;
    for (int i = 0; i < 3; i++)
        any |= tcb[i] != 0.0f || signbit(tcb[i]);
    if (!any)
        return KFC_OK;
    kfc_status st = MAP_START(e, 1);
    for (int i = 0; i < 3 && !st; i++)
        if ((tcb[i] != 0.0f || signbit(tcb[i])) && !(st = string(e, names[i])))
            st = float_number(e, tcb[i]);
    return st ? st : MAP_END(e);
}

/* A value or tangent: a number (one component) or a flow list. */
static kfc_status key_numbers(emitter *e, const float *v, uint32_t components)
{
    if (components == 1)
        return float_number(e, v[0]);
    kfc_status st = LIST_START(e, 1);
    for (uint32_t c = 0; c < components && !st; c++)
        st = float_number(e, v[c]);
    return st ? st : LIST_END(e);
}

/* A hermite key's {in, out}, both always (a source may leave a flat one
 * out; this form is the one that reads back byte for byte). `scratch` holds
 * 2 * components floats. */
static kfc_status key_tangents(emitter *e, const kf_sequence *seq, uint32_t k,
                               uint32_t components, float *scratch)
{
    kf_sequence_key_tangents(seq, k, scratch, scratch + components);
    kfc_status st;
    if ((st = MAP_START(e, 1)) || (st = string(e, "in")) ||
        (st = key_numbers(e, scratch, components)) || (st = string(e, "out")) ||
        (st = key_numbers(e, scratch + components, components)))
        return st;
    return MAP_END(e);
}

/* `value` holds 3 * components floats: the key's value, then scratch. */
static kfc_status sequence(emitter *e, const kf_sequence *seq, float *value)
{
    kf_sequence_info info;
    kf_sequence_get_info(seq, &info);
    kfc_status st;
    if ((st = string(e, info.name)) || (st = MAP_START(e, 0))
        || (st = string(e, "interpolation"))
        || (st = string(e, kf_interpolation_name(info.interpolation))))
        return st;
    if (info.repeat != KF_REPEAT_CONSTANT
        && ((st = string(e, "repeat")) || (st = string(e, kf_repeat_name(info.repeat)))))
        return st;
    /* The duration is stored as float32 (kfb_sequence.duration). */
    if ((st = string(e, "duration")) || (st = float_number(e, (float)info.duration)))
        return st;
    if ((info.valid_first != 0 || info.valid_last + 1 != info.key_count)
        && ((st = string(e, "valid_range")) || (st = LIST_START(e, 1))
            || (st = uint_number(e, info.valid_first)) || (st = uint_number(e, info.valid_last))
            || (st = LIST_END(e))))
        return st;
    if (info.arc_length && ((st = string(e, "arc_length")) || (st = boolean(e, 1))))
        return st;
    if ((st = string(e, "keys")) || (st = LIST_START(e, 0)))
        return st;
    for (uint32_t k = 0; k < info.key_count; k++) {
        float time;
        kf_sequence_key(seq, k, &time, value);
        if ((st = LIST_START(e, 1)) || (st = float_number(e, time)))
            return st;
        if (info.components == 1) {
            if ((st = float_number(e, value[0])))
                return st;
        } else {
            if ((st = LIST_START(e, 1)))
                return st;
            for (uint32_t c = 0; c < info.components; c++)
                if ((st = float_number(e, value[c])))
                    return st;
            if ((st = LIST_END(e)))
                return st;
        }
        if ((info.tcb && (st = key_tcb(e, seq, k))) ||
            (info.interpolation == KF_INTERPOLATION_HERMITE &&
             (st = key_tangents(e, seq, k, info.components, value + info.components))) ||
            (st = LIST_END(e)))
            return st;
    }
    if ((st = LIST_END(e)) || (st = MAP_END(e)))
        return st;
    return KFC_OK;
}

static kfc_status sequences(emitter *e, const kf_anim *anim)
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
    float *value = malloc(3 * (size_t)max_components * sizeof *value);
    if (!value)
        return kfc_fail_nomem(e->diag);
    kfc_status st = string(e, "sequences");
    if (!st)
        st = MAP_START(e, 0);
    for (uint32_t i = 0; i < count && !st; i++)
        st = sequence(e, kf_anim_sequence(anim, i), value);
    if (!st)
        st = MAP_END(e);
    free(value);
    return st;
}

/* `count` entries of `dimension` floats: a flow list of numbers when the
 * dimension is 1, else a block list of flow lists. */
static kfc_status entries(emitter *e, const char *field, const float *v, uint32_t count,
                          uint32_t dimension)
{
    kfc_status st;
    if ((st = string(e, field)) || (st = LIST_START(e, dimension == 1)))
        return st;
    for (uint32_t i = 0; i < count; i++) {
        if (dimension > 1 && (st = LIST_START(e, 1)))
            return st;
        for (uint32_t k = 0; k < dimension; k++)
            if ((st = float_number(e, v[(size_t)i * dimension + k])))
                return st;
        if (dimension > 1 && (st = LIST_END(e)))
            return st;
    }
    return LIST_END(e);
}

static kfc_status interpolator(emitter *e, const kf_interpolator *p)
{
    kf_interpolator_info info;
    kf_interpolator_get_info(p, &info);
    kfc_status st;
    if ((st = string(e, info.name)) || (st = MAP_START(e, 0)) || (st = string(e, "node"))
        || (st = string(e, kf_node_name(info.node)))
        || (st = entries(e, "key", info.key, info.key_count, 1)))
        return st;
    if (info.key_value
        && (st = entries(e, "keyValue", info.key_value, info.value_count, info.dimension)))
        return st;
    if (info.velocity_count
        && (st = entries(e, "keyVelocity", info.key_velocity, info.velocity_count,
                         info.dimension)))
        return st;
    if (info.ease_in_ease_out
        && (st = entries(e, "easeInEaseOut", info.ease_in_ease_out, info.key_count, 2)))
        return st;
    /* false is the default: only true is written. */
    if ((info.closed && ((st = string(e, "closed")) || (st = boolean(e, 1))))
        || (info.normalize_velocity
            && ((st = string(e, "normalizeVelocity")) || (st = boolean(e, 1)))))
        return st;
    return MAP_END(e);
}

static kfc_status interpolators(emitter *e, const kf_anim *anim)
{
    uint32_t count = kf_anim_count(anim, KF_KIND_INTERPOLATOR);
    kfc_status st;
    if (count == 0)
        return KFC_OK;
    if ((st = string(e, "interpolators")) || (st = MAP_START(e, 0)))
        return st;
    for (uint32_t i = 0; i < count; i++)
        if ((st = interpolator(e, kf_anim_interpolator(anim, i))))
            return st;
    return MAP_END(e);
}

/* An initial field: a number (Scalar nodes), a flow list, or a list of
 * points (Coordinate and TexCoord nodes). */
static kfc_status follower_field(emitter *e, const char *name, const kf_follower_info *info,
                                 const float *v)
{
    const uint32_t element = kf_follower_node_field_components(info->node);
    const int array = kf_follower_node_is_array(info->node);
    kfc_status st;
    if ((st = string(e, name)))
        return st;
    if (!array && element == 1)
        return float_number(e, v[0]);
    if (array && (st = LIST_START(e, 1)))
        return st;
    for (uint32_t p = 0; p < info->element_count; p++) {
        if ((st = LIST_START(e, 1)))
            return st;
        for (uint32_t c = 0; c < element; c++)
            if ((st = float_number(e, v[p * element + c])))
                return st;
        if ((st = LIST_END(e)))
            return st;
    }
    return array ? LIST_END(e) : KFC_OK;
}

/* Whether two stored fields are the same floats, bit for bit (-0 is not 0). */
static int same_floats(const float *a, const float *b, size_t count)
{
    return memcmp(a, b, count * sizeof *a) == 0;
}

static kfc_status follower(emitter *e, const kf_follower *f, float *value, float *destination)
{
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    kf_follower_initial(f, value, destination);
    const uint32_t numbers = info.element_count * kf_follower_node_field_components(info.node);
    const int damper = kf_follower_node_is_damper(info.node);
    const int array = kf_follower_node_is_array(info.node);
    kfc_status st;
    if ((st = string(e, info.name)) || (st = MAP_START(e, 0)) || (st = string(e, "node"))
        || (st = string(e, kf_follower_node_name(info.node))))
        return st;
    /* Defaults left out: X3D's field values for single values; an array's
     * destination equal to its value (an array field left out copies the
     * other). */
    kf_follower_desc d;
    kf_follower_desc_init(&d, info.node);
    float x3d[4] = {0, 0, 0, 0};
    kf_follower_node_initial(info.node, x3d);
    if ((array || !same_floats(value, x3d, numbers))
        && (st = follower_field(e, "initialValue", &info, value)))
        return st;
    if (!same_floats(destination, array ? value : x3d, numbers)
        && (st = follower_field(e, "initialDestination", &info, destination)))
        return st;
    /* Stored as float32 (kfb_follower). */
    if (!damper) {
        if ((float)info.duration != (float)d.duration
            && ((st = string(e, "duration")) || (st = float_number(e, (float)info.duration))))
            return st;
    } else {
        if ((float)info.tau != (float)d.tau
            && ((st = string(e, "tau")) || (st = float_number(e, (float)info.tau))))
            return st;
        if (info.order != (uint32_t)d.order
            && ((st = string(e, "order")) || (st = uint_number(e, info.order))))
            return st;
        if ((float)info.tolerance != (float)d.tolerance
            && ((st = string(e, "tolerance")) || (st = float_number(e, (float)info.tolerance))))
            return st;
    }
    return MAP_END(e);
}

static kfc_status followers(emitter *e, const kf_anim *anim)
{
    uint32_t count = kf_anim_count(anim, KF_KIND_FOLLOWER);
    if (count == 0)
        return KFC_OK;
    size_t widest = 1;
    for (uint32_t i = 0; i < count; i++) {
        kf_follower_info info;
        kf_follower_get_info(kf_anim_follower(anim, i), &info);
        size_t n = (size_t)info.element_count * kf_follower_node_field_components(info.node);
        if (n > widest)
            widest = n;
    }
    float *value = malloc(2 * widest * sizeof *value);
    if (!value)
        return kfc_fail_nomem(e->diag);
    kfc_status st = string(e, "followers");
    if (!st)
        st = MAP_START(e, 0);
    for (uint32_t i = 0; i < count && !st; i++)
        st = follower(e, kf_anim_follower(anim, i), value, value + widest);
    if (!st)
        st = MAP_END(e);
    free(value);
    return st;
}

static int is_zero(double v)
{
    return v == 0 && !signbit(v);
}

static kfc_status controllers(emitter *e, const kf_anim *anim)
{
    uint32_t count = kf_anim_count(anim, KF_KIND_CONTROLLER);
    kfc_status st;
    if (count == 0)
        return KFC_OK;
    if ((st = string(e, "controllers")) || (st = MAP_START(e, 0)))
        return st;
    for (uint32_t i = 0; i < count; i++) {
        kf_controller_info c;
        kf_anim_controller_info(anim, i, &c);
        if ((st = string(e, c.name)) || (st = MAP_START(e, 1)))
            return st;
        if (c.speed != 1 && ((st = string(e, "speed")) || (st = double_number(e, c.speed))))
            return st;
        if (c.weight != 1 && ((st = string(e, "weight")) || (st = double_number(e, c.weight))))
            return st;
        if ((!is_zero(c.active_start) || !is_zero(c.active_end))
            && ((st = string(e, "active_interval")) || (st = LIST_START(e, 1))
                || (st = double_number(e, c.active_start))
                || (st = double_number(e, c.active_end)) || (st = LIST_END(e))))
            return st;
        if ((!is_zero(c.ref_world) || !is_zero(c.ref_sequence))
            && ((st = string(e, "reference")) || (st = LIST_START(e, 1))
                || (st = double_number(e, c.ref_world))
                || (st = double_number(e, c.ref_sequence)) || (st = LIST_END(e))))
            return st;
        if ((st = MAP_END(e)))
            return st;
    }
    return MAP_END(e);
}

static kfc_status tracks(emitter *e, const kf_anim *anim)
{
    uint32_t count = kf_anim_count(anim, KF_KIND_TRACK);
    kfc_status st;
    if (count == 0)
        return KFC_OK;
    if ((st = string(e, "tracks")) || (st = LIST_START(e, 0)))
        return st;
    for (uint32_t i = 0; i < count; i++) {
        kf_track_info t;
        kf_target_info target;
        const char *animator;
        kf_anim_track_info(anim, i, &t);
        if (t.animator_kind == KF_KIND_SEQUENCE) {
            kf_sequence_info s;
            kf_sequence_get_info(kf_anim_sequence(anim, t.animator), &s);
            animator = s.name;
        } else if (t.animator_kind == KF_KIND_INTERPOLATOR) {
            kf_interpolator_info p;
            kf_interpolator_get_info(kf_anim_interpolator(anim, t.animator), &p);
            animator = p.name;
        } else if (t.animator_kind == KF_KIND_FOLLOWER) {
            kf_follower_info f;
            kf_follower_get_info(kf_anim_follower(anim, t.animator), &f);
            animator = f.name;
        } else {
            return kfc_fail(e->diag, KFC_INVALID, KFC_NO_MARK,
                            "track %lu plays an animator kind the source format cannot express",
                            (unsigned long)i);
        }
        kf_anim_target_info(anim, t.target, &target);
        if ((st = MAP_START(e, 1)) || (st = string(e, "animator")) || (st = string(e, animator)))
            return st;
        if (t.controller != KF_NO_INDEX) {
            kf_controller_info c;
            kf_anim_controller_info(anim, t.controller, &c);
            if ((st = string(e, "controller")) || (st = string(e, c.name)))
                return st;
        }
        if ((st = string(e, "target")) || (st = string(e, target.name)))
            return st;
        /* A built-in property takes its count from the animator. */
        if (target.property == KF_PROPERTY_CUSTOM
            && ((st = string(e, "components")) || (st = uint_number(e, target.components))))
            return st;
        /* An interpolator track's TimeSensor, fields at their default left
         * out (the cycle interval is stored as float32). */
        if (t.animator_kind == KF_KIND_INTERPOLATOR) {
            if (t.cycle_interval != 1
                && ((st = string(e, "cycleInterval"))
                    || (st = float_number(e, (float)t.cycle_interval))))
                return st;
            if (t.loop && ((st = string(e, "loop")) || (st = boolean(e, 1))))
                return st;
            if (t.ease != KF_NO_INDEX) {
                kf_interpolator_info ease;
                kf_interpolator_get_info(kf_anim_interpolator(anim, t.ease), &ease);
                if ((st = string(e, "ease")) || (st = string(e, ease.name)))
                    return st;
            }
        }
        if ((st = MAP_END(e)))
            return st;
    }
    return LIST_END(e);
}

static kfc_status document(emitter *e, const kf_anim *anim)
{
    kfc_status st;
    if ((st = framing(e, YAML_STREAM_START_EVENT)) || (st = framing(e, YAML_DOCUMENT_START_EVENT))
        || (st = MAP_START(e, 0)) || (st = string(e, "kfb")) || (st = uint_number(e, 1))
        || (st = sequences(e, anim)) || (st = interpolators(e, anim))
        || (st = followers(e, anim)) || (st = controllers(e, anim)) || (st = tracks(e, anim))
        || (st = MAP_END(e)) || (st = framing(e, YAML_DOCUMENT_END_EVENT)))
        return st;
    return framing(e, YAML_STREAM_END_EVENT);
}

kfc_status kfc_decompile(const kf_anim *anim, kf_write_fn write, void *user, kfc_diag *diag)
{
    emitter e;
    memset(&e, 0, sizeof e);
    e.diag = diag;
    e.write = write;
    e.user = user;
    if (!yaml_emitter_initialize(&e.yaml))
        return kfc_fail_nomem(diag);
    yaml_emitter_set_output(&e.yaml, write_handler, &e);
    yaml_emitter_set_unicode(&e.yaml, 1);
    yaml_emitter_set_width(&e.yaml, -1); /* one key per line, however long */
    yaml_emitter_set_indent(&e.yaml, 2);

    kfc_status st = document(&e, anim);
    if (!st && !yaml_emitter_flush(&e.yaml))
        st = kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot write");
    /* The emitter ends a document that closes with a flow collection
     * without a line break; a text file ends with one. */
    if (!st && e.last != '\n' && write(user, "\n", 1) != 0)
        st = kfc_fail(diag, KFC_IO, KFC_NO_MARK, "cannot write");
    yaml_emitter_delete(&e.yaml);
    return st;
}
