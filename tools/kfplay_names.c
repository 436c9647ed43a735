/* SPDX-License-Identifier: MIT */
#include "kfplay_names.h"

#include <stdio.h>
#include <string.h>

#include "kfc_diag.h"
#include "kfc_suggest.h"

const char *kfp_object_name(const kf_anim *anim, kf_kind kind, uint32_t index)
{
    if (kind == KF_KIND_INTERPOLATOR) {
        kf_interpolator_info p;
        kf_interpolator_get_info(kf_anim_interpolator(anim, index), &p);
        return p.name;
    }
    if (kind == KF_KIND_FOLLOWER) {
        kf_follower_info f;
        kf_follower_get_info(kf_anim_follower(anim, index), &f);
        return f.name;
    }
    if (kind == KF_KIND_TARGET) {
        kf_target_info t;
        kf_anim_target_info(anim, index, &t);
        return t.name;
    }
    if (kind == KF_KIND_CONTROLLER) {
        kf_controller_info c;
        kf_anim_controller_info(anim, index, &c);
        return c.name;
    }
    kf_sequence_info s;
    kf_sequence_get_info(kf_anim_sequence(anim, index), &s);
    return s.name;
}

void kfp_names_like(const kf_anim *anim, const kf_kind *kinds, int count, const char *name,
                    char *out, size_t size)
{
    const char *found[4];
    int n = 0;
    for (int k = 0; k < count && n < 4; k++)
        for (uint32_t i = 0; i < kf_anim_count(anim, kinds[k]) && n < 4; i++) {
            const char *candidate = kfp_object_name(anim, kinds[k], i);
            if (*name && strstr(candidate, name))
                found[n++] = candidate;
        }
    out[0] = '\0';
    if (!n) {
        kfc_diag diag;
        memset(&diag, 0, sizeof diag);
        kfc_suggest s;
        kfc_suggest_begin(&s, &diag, name, strlen(name));
        for (int k = 0; k < count; k++)
            for (uint32_t i = 0; i < kf_anim_count(anim, kinds[k]); i++) {
                const char *candidate = kfp_object_name(anim, kinds[k], i);
                kfc_suggest_offer(&s, candidate, strlen(candidate));
            }
        kfc_suggest_text(&s, out, size);
        return;
    }
    /* 'A'; 'A' or 'B'; 'A', 'B' or 'C'; 'A', 'B', 'C' or another (each
     * quoted as kfc_suggest_text quotes the names it finds) */
    const int shown = n < 3 ? n : 3;
    size_t at = (size_t)snprintf(out, size, "; did you mean");
    for (int i = 0; i < shown && at < size; i++) {
        char q[KFC_QUOTE_SIZE];
        at += (size_t)snprintf(out + at, size - at, "%s%s",
                               i == 0                   ? " "
                               : n > 3 || i + 1 < shown ? ", "
                                                        : " or ",
                               kfc_quote(q, found[i], strlen(found[i])));
    }
    if (at < size)
        snprintf(out + at, size - at, "%s?", n > 3 ? " or another" : "");
}
