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
    for (uint32_t i = 0; i < KFB_SECTION_COUNT; i++) {
        if (pos > size || size - pos < KFB_SECTION_HEADER_SIZE)
            break;
        kfb_section_header h;
        memcpy(&h, bytes + pos, sizeof h);
        kfb_word_swap(&h, KFB_WORDS(kfb_section_header));
        char tag[5];
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)(h.tag >> (8 * k));
            tag[k] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
        tag[4] = '\0';
        fprintf(stream, "%s %s %u/%u", i ? "," : "", tag, (unsigned)h.stored_size,
                (unsigned)h.raw_size);
        raw_total += h.raw_size;
        pos += (size_t)KFB_SECTION_HEADER_SIZE + h.stored_size + KFB_SECTION_CRC_SIZE;
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
