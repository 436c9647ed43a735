/* SPDX-License-Identifier: MIT */
/*
 * kfc_emit.h - writing kfc source YAML through libyaml's emitter: the
 * scalars, numbers and collections the section tables emit, and the number
 * formatting that makes every written number read back to the same bits.
 */
#ifndef KFC_EMIT_H
#define KFC_EMIT_H

#include <stdint.h>

#include <yaml.h>

#include "kf_build.h"
#include "kfc_diag.h"

typedef struct kfc_emitter {
    yaml_emitter_t yaml;
    kfc_diag *diag;
    kf_write_fn write;
    void *user;
    int write_failed;
    unsigned char last; /* the last byte written */
} kfc_emitter;

/* Sets up `e` to write through `write` (KFC_NOMEM on failure; nothing to
 * free then). Every other call needs kfc_emit_free afterwards. */
kfc_status kfc_emit_init(kfc_emitter *e, kf_write_fn write, void *user, kfc_diag *diag);
void kfc_emit_free(kfc_emitter *e);

/* Stream and document boundaries; the document markers stay implicit. */
kfc_status kfc_emit_document_start(kfc_emitter *e);
kfc_status kfc_emit_document_end(kfc_emitter *e);

/* Flushes and ends the text with a line break. */
kfc_status kfc_emit_finish(kfc_emitter *e);

/* Collections: flow ([a, b], {k: v}) or block style. */
kfc_status kfc_emit_map_start(kfc_emitter *e, int flow);
kfc_status kfc_emit_map_end(kfc_emitter *e);
kfc_status kfc_emit_list_start(kfc_emitter *e, int flow);
kfc_status kfc_emit_list_end(kfc_emitter *e);

/* A key, name or enumeration value: plain when that reads back as the same
 * text to any YAML reader, quoted otherwise. */
kfc_status kfc_emit_string(kfc_emitter *e, const char *text);

/* Plain numbers (kfc refuses quoted ones) and true / false. */
kfc_status kfc_emit_float(kfc_emitter *e, float value);
kfc_status kfc_emit_double(kfc_emitter *e, double value);
kfc_status kfc_emit_uint(kfc_emitter *e, uint32_t value);
kfc_status kfc_emit_bool(kfc_emitter *e, int value);

#endif /* KFC_EMIT_H */
