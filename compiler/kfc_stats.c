/* SPDX-License-Identifier: MIT */
#include "kfc_stats.h"

#include <stdint.h>
#include <string.h>

#include "kf.h"
#include "kfb_format.h"
#include "kfc_text.h"

static void print_sections(FILE *stream, const unsigned char *bytes, size_t size)
{
    uint64_t raw_total = 0;
    size_t pos = KFB_HEADER_SIZE;
    fputs("  sections (stored/raw bytes):", stream);
    kfb_section_header h;
    for (uint32_t i = 0; i < KFB_SECTION_COUNT && kfb_section_header_at(bytes, size, pos, &h);
         i++) {
        char tag[5];
        fprintf(stream, "%s %s %u/%u", i ? "," : "", kfb_tag_text(h.tag, tag),
                (unsigned)h.stored_size, (unsigned)h.raw_size);
        raw_total += h.raw_size;
        const uint64_t end = kfb_section_end(pos, &h);
        if (end > size)
            break;
        pos = (size_t)end;
    }
    fprintf(stream, "\n  file: %zu bytes; sections raw: %llu bytes", size,
            (unsigned long long)raw_total);
    if (raw_total)
        fprintf(stream, "; ratio %.3f", (double)size / (double)raw_total);
    fputc('\n', stream);
}

static void print_objects(FILE *stream, const kf_anim *anim)
{
    uint64_t keys = 0;
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_SEQUENCE); i++) {
        kf_sequence_info s;
        kf_sequence_get_info(kf_anim_sequence(anim, i), &s);
        keys += s.key_count;
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_INTERPOLATOR); i++) {
        kf_interpolator_info p;
        kf_interpolator_get_info(kf_anim_interpolator(anim, i), &p);
        keys += p.key_count;
    }
    static const kf_kind kinds[] = {KF_KIND_SEQUENCE,   KF_KIND_INTERPOLATOR, KF_KIND_FOLLOWER,
                                    KF_KIND_CONTROLLER, KF_KIND_TARGET,       KF_KIND_TRACK};
    fputs("  objects:", stream);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        fprintf(stream, "%s %s %u", i ? "," : "", kf_kind_name(kinds[i]),
                (unsigned)kf_anim_count(anim, kinds[i]));
    fprintf(stream, "; %llu keys\n", (unsigned long long)keys);
}

void kfc_stats_print(FILE *stream, const char *input, const char *output,
                     const unsigned char *bytes, size_t size, double seconds)
{
    /* (file names as a terminal may show them: kfc_text.h) */
    fputs("kfc: ", stream);
    kfc_text_put_name(stream, input, 0);
    fputs(" -> ", stream);
    kfc_text_put_name(stream, output, 0);
    fprintf(stream, " in %.3g s\n", seconds);
    kf_anim *anim = NULL;
    kf_error error;
    if (kf_load_memory(bytes, size, NULL, &anim, &error) == KF_OK) {
        print_objects(stream, anim);
        kf_anim_free(anim);
    }
    print_sections(stream, bytes, size);
}
