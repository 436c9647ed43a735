/* SPDX-License-Identifier: MIT */
/*
 * test_shared_libs.c - a program as a user writes it: kf.h and kf_build.h
 * only, linked against libkf.so and libkf_offline.so. Builds a sequence,
 * encodes, loads and plays it; the value at t = 5 is the hand-derived 1.5
 * (linear between keys 1 at 0 and 2 at 10, into a custom property, which
 * no range clamps). Links only if everything it calls is exported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"

typedef struct bytes {
    unsigned char data[4096];
    size_t size;
} bytes;

static int put(void *user, const void *data, size_t size)
{
    bytes *b = user;
    if (size > sizeof b->data - b->size)
        return 1;
    memcpy(b->data + b->size, data, size);
    b->size += size;
    return 0;
}

int main(void)
{
    if (KF_VERSION_NUM != KF_VERSION_MAJOR * 10000 + KF_VERSION_MINOR * 100 + KF_VERSION_PATCH ||
        strcmp(kf_version(), KF_VERSION_STRING) != 0) {
        fprintf(stderr, "test_shared_libs: library %s, header %s\n", kf_version(),
                KF_VERSION_STRING);
        return 1;
    }
    kf_builder *b;
    kf_error err;
    if (kf_builder_create(NULL, &b) != KF_OK)
        return 1;
    static const double times[2] = {0, 10}, values[2] = {1, 2};
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.name = "s";
    d.interpolation = KF_INTERPOLATION_LINEAR;
    d.duration = 20;
    d.components = 1;
    d.key_count = 2;
    d.times = times;
    d.values = values;
    d.valid_last = 1;
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "c";
    kf_track_desc t = {"s", "c", "x.custom_value", 1};
    static bytes out;
    kf_anim *anim = NULL;
    kf_player *player = NULL;
    int ok = kf_builder_add_sequence(b, &d, &err) == KF_OK &&
             kf_builder_add_controller(b, &c, &err) == KF_OK &&
             kf_builder_add_track(b, &t, &err) == KF_OK &&
             kf_builder_encode(b, NULL, put, &out, &err) == KF_OK &&
             kf_load_memory(out.data, out.size, NULL, &anim, &err) == KF_OK &&
             kf_player_create(anim, NULL, &player) == KF_OK;
    float v = -1;
    if (ok) {
        kf_player_update(player, 5.0);
        v = kf_player_value(player, kf_anim_find(anim, KF_KIND_TARGET, "x.custom_value"))[0];
    }
    kf_player_destroy(player);
    kf_anim_free(anim);
    kf_builder_destroy(b);
    if (!ok || v != 1.5f) {
        fprintf(stderr, "test_shared_libs: %s (value %g, expected 1.5)\n",
                ok ? "wrong value" : err.message, v);
        return 1;
    }
    printf("test_shared_libs: 1 program, value 1.5 at t = 5 through libkf.so %s\n", kf_version());
    return 0;
}
