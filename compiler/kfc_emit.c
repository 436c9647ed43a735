/* SPDX-License-Identifier: MIT */
#include "kfc_emit.h"

#include <stdio.h>
#include <string.h>

#include "kfc_number.h"

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    kfc_emitter *e = data;
    if (e->write(e->user, buffer, size) != 0) {
        e->write_failed = 1;
        return 0;
    }
    if (size)
        e->last = buffer[size - 1];
    return 1;
}

/* Emits `event` (which the emitter takes over, success or not). */
static kfc_status emit(kfc_emitter *e, yaml_event_t *event)
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

static kfc_status collection(kfc_emitter *e, yaml_event_type_t type, int flow)
{
    yaml_event_t event;
    int ok;
    switch (type) {
    case YAML_MAPPING_START_EVENT:
        ok = yaml_mapping_start_event_initialize(
            &event, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
        break;
    case YAML_SEQUENCE_START_EVENT:
        ok = yaml_sequence_start_event_initialize(
            &event, NULL, NULL, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
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

static kfc_status framing(kfc_emitter *e, yaml_event_type_t type)
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

kfc_status kfc_emit_map_start(kfc_emitter *e, int flow)
{
    return collection(e, YAML_MAPPING_START_EVENT, flow);
}

kfc_status kfc_emit_map_end(kfc_emitter *e)
{
    return collection(e, YAML_MAPPING_END_EVENT, 0);
}

kfc_status kfc_emit_list_start(kfc_emitter *e, int flow)
{
    return collection(e, YAML_SEQUENCE_START_EVENT, flow);
}

kfc_status kfc_emit_list_end(kfc_emitter *e)
{
    return collection(e, YAML_SEQUENCE_END_EVENT, 0);
}

/* Whether a plain `text` would read as a number, boolean or null to YAML
 * tools that resolve types, or as YAML 1.1's merge (<<) or value (=) key
 * (kfc itself reads every name as a string). */
static int looks_typed(const char *text)
{
    static const char *const words[] = {"null", "true", "false", "yes", "no", "on",
                                        "off",  "y",    "n",     "~",   "<<", "="};
    char c = text[0];
    if ((c >= '0' && c <= '9') || ((c == '+' || c == '-' || c == '.') &&
                                   ((text[1] >= '0' && text[1] <= '9') || text[1] == '.' ||
                                    text[1] == 'i' || text[1] == 'I')))
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

/* The emitter escapes what single quotes cannot hold. */
kfc_status kfc_emit_string(kfc_emitter *e, const char *text)
{
    yaml_event_t event;
    yaml_scalar_style_t style =
        looks_typed(text) ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
    if (!yaml_scalar_event_initialize(&event, NULL, NULL, (yaml_char_t *)text, (int)strlen(text), 1,
                                      1, style)) {
        char quoted[KFC_QUOTE_SIZE];
        return kfc_fail(e->diag, KFC_INVALID, KFC_NO_MARK, "name %s is not valid UTF-8",
                        kfc_quote(quoted, text, strlen(text)));
    }
    return emit(e, &event);
}

static kfc_status number_text(kfc_emitter *e, const char *text)
{
    yaml_event_t event;
    if (!yaml_scalar_event_initialize(&event, NULL, NULL, (yaml_char_t *)text, (int)strlen(text), 1,
                                      0, YAML_PLAIN_SCALAR_STYLE))
        return kfc_fail_nomem(e->diag);
    return emit(e, &event);
}

kfc_status kfc_emit_float(kfc_emitter *e, float value)
{
    char text[KFC_NUMBER_TEXT];
    kfc_format_float(text, value);
    return number_text(e, text);
}

kfc_status kfc_emit_double(kfc_emitter *e, double value)
{
    char text[KFC_NUMBER_TEXT];
    kfc_format_double(text, value);
    return number_text(e, text);
}

kfc_status kfc_emit_uint(kfc_emitter *e, uint32_t value)
{
    char text[KFC_NUMBER_TEXT];
    snprintf(text, sizeof text, "%lu", (unsigned long)value);
    return number_text(e, text);
}

kfc_status kfc_emit_bool(kfc_emitter *e, int value)
{
    return number_text(e, value ? "true" : "false");
}

kfc_status kfc_emit_document_start(kfc_emitter *e)
{
    kfc_status st = framing(e, YAML_STREAM_START_EVENT);
    return st ? st : framing(e, YAML_DOCUMENT_START_EVENT);
}

kfc_status kfc_emit_document_end(kfc_emitter *e)
{
    kfc_status st = framing(e, YAML_DOCUMENT_END_EVENT);
    return st ? st : framing(e, YAML_STREAM_END_EVENT);
}

kfc_status kfc_emit_init(kfc_emitter *e, kf_write_fn write, void *user, kfc_diag *diag)
{
    memset(e, 0, sizeof *e);
    e->diag = diag;
    e->write = write;
    e->user = user;
    if (!yaml_emitter_initialize(&e->yaml))
        return kfc_fail_nomem(diag);
    yaml_emitter_set_output(&e->yaml, write_handler, e);
    yaml_emitter_set_unicode(&e->yaml, 1);
    yaml_emitter_set_width(&e->yaml, -1); /* one key per line, however long */
    yaml_emitter_set_indent(&e->yaml, 2);
    return KFC_OK;
}

kfc_status kfc_emit_finish(kfc_emitter *e)
{
    if (!yaml_emitter_flush(&e->yaml))
        return kfc_fail(e->diag, KFC_IO, KFC_NO_MARK, "cannot write");
    /* The emitter ends a document that closes with a flow collection
     * without a line break; a text file ends with one. */
    if (e->last != '\n' && e->write(e->user, "\n", 1) != 0)
        return kfc_fail(e->diag, KFC_IO, KFC_NO_MARK, "cannot write");
    return KFC_OK;
}

void kfc_emit_free(kfc_emitter *e)
{
    yaml_emitter_delete(&e->yaml);
}
