/* SPDX-License-Identifier: MIT */
/*
 * play - the smallest whole use of libkf: load a .kfb file, create a player,
 * advance it through world time and read every target's blended value.
 *
 *   play FILE W...
 *
 * prints "W target v..." per target and time, as `kfplay FILE animate W...`
 * (which shows a control byte in a name as \xNN and a backslash as \\;
 * play prints names as stored).
 */
#include <stdio.h>
#include <stdlib.h>

#include "kf.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: play FILE W...\n");
        return 2;
    }
    kf_anim *anim;
    kf_error error;
    if (kf_load_file(argv[1], NULL, &anim, &error) != KF_OK) {
        fprintf(stderr, "play: %s: %s\n", argv[1], error.message);
        return 1;
    }
    /* The loaded file is immutable and could be shared by many players (one
     * per character, per thread); a player holds one instance's state. */
    kf_player *player;
    if (kf_player_create(anim, NULL, &player) != KF_OK) {
        fprintf(stderr, "play: out of memory\n");
        kf_anim_free(anim);
        return 1;
    }
    const uint32_t targets = kf_anim_count(anim, KF_KIND_TARGET);
    for (int i = 2; i < argc; i++) {
        const double world_time = strtod(argv[i], NULL);
        kf_player_update(player, world_time);
        for (uint32_t t = 0; t < targets; t++) {
            kf_target_info info;
            kf_anim_target_info(anim, t, &info);
            const float *value = kf_player_value(player, t);
            printf("%.9g %s", world_time, info.name);
            for (uint32_t c = 0; c < info.components; c++)
                printf(" %.9g", value[c] + 0.0f); /* + 0: -0 prints as 0 */
            putchar('\n');
        }
    }
    kf_player_destroy(player);
    kf_anim_free(anim);
    return 0;
}
