/* SPDX-License-Identifier: MIT */
#include "kfc_decompile.h"

#include "kfc_emit.h"
#include "kfc_section.h"

/* The sections in the order they are written (that of formats/yaml.md). */
static const kfc_section *const sections[] = {
    &kfc_section_sequences,   &kfc_section_interpolators, &kfc_section_followers,
    &kfc_section_controllers, &kfc_section_tracks,
};

static kfc_status document(kfc_emitter *e, const kf_anim *anim)
{
    kfc_status st;
    if ((st = kfc_emit_document_start(e)) || (st = kfc_emit_map_start(e, 0)) ||
        (st = kfc_emit_string(e, "kfb")) || (st = kfc_emit_uint(e, 1)))
        return st;
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if ((st = sections[i]->emit(e, anim)))
            return st;
    if ((st = kfc_emit_map_end(e)))
        return st;
    return kfc_emit_document_end(e);
}

kfc_status kfc_decompile(const kf_anim *anim, kf_write_fn write, void *user, kfc_diag *diag)
{
    kfc_emitter e;
    kfc_status st = kfc_emit_init(&e, write, user, diag);
    if (st)
        return st;
    st = document(&e, anim);
    if (!st)
        st = kfc_emit_finish(&e);
    kfc_emit_free(&e);
    return st;
}
