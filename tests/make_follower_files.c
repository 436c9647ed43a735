/*
 * make_follower_files.c - writes every follower case of oracle/x3d.json as a
 * .kfb through the C API (kf_builder), one file per case named after it,
 * for test_kfplay_follow.py to play with kfplay.
 *
 * usage: make_follower_files DIR
 */
#include <stdio.h>
#include <stdlib.h>

#include "kf_build.h"
#include "test_util.h"
#include "x3d_followers_oracle.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_follower_files DIR\n");
        return 2;
    }
    for (unsigned i = 0; i < xf_case_count && xf_oracle_present; i++) {
        const xf_case *c = &xf_cases[i];
        kf_follower_node node;
        kf_follower_desc d;
        if (!kf_follower_node_from_name(c->node, &node))
            return 1;
        kf_follower_desc_init(&d, node);
        d.name = c->id;
        d.initial_value = c->initial_value;
        d.initial_value_count = c->value_count;
        d.initial_destination = c->initial_destination;
        d.initial_destination_count = c->value_count;
        if (c->has_duration)
            d.duration = c->duration;
        if (c->has_tau)
            d.tau = c->tau;
        if (c->has_order)
            d.order = c->order;
        if (c->has_tolerance)
            d.tolerance = c->tolerance;
        kf_builder *b;
        kf_error e;
        test_bytes bytes = {0};
        if (kf_builder_create(NULL, &b) != KF_OK || kf_builder_add_follower(b, &d, &e) != KF_OK ||
            kf_builder_encode(b, NULL, test_bytes_write, &bytes, &e) != KF_OK) {
            fprintf(stderr, "%s: %s\n", c->id, e.message);
            return 1;
        }
        kf_builder_destroy(b);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.kfb", argv[1], c->id);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes.data, 1, bytes.size, f) != bytes.size || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
        free(bytes.data);
    }
    return 0;
}
