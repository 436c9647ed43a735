/* SPDX-License-Identifier: MIT */
/* kf_follower_node.c - the X3D follower node types: names, field shapes,
 * families and X3D's default field values. */
#include <string.h>

#include "kf_private.h"

typedef struct node_def {
    const char *name;
    uint8_t damper;
    uint8_t array;
    float initial[4]; /* X3D's initialValue / initialDestination default */
} node_def;

static const node_def nodes[KFB_FOLLOWER_NODE_COUNT] = {
    [KFB_FOLLOWER_POSITION_CHASER] = {"PositionChaser", 0, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_POSITION_CHASER_2D] = {"PositionChaser2D", 0, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_SCALAR_CHASER] = {"ScalarChaser", 0, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_ORIENTATION_CHASER] = {"OrientationChaser", 0, 0, {0, 1, 0, 0}},
    [KFB_FOLLOWER_COLOR_CHASER] = {"ColorChaser", 0, 0, {0.8f, 0.8f, 0.8f, 0}},
    [KFB_FOLLOWER_COORDINATE_CHASER] = {"CoordinateChaser", 0, 1, {0, 0, 0, 0}},
    [KFB_FOLLOWER_TEXCOORD_CHASER_2D] = {"TexCoordChaser2D", 0, 1, {0, 0, 0, 0}},
    [KFB_FOLLOWER_POSITION_DAMPER] = {"PositionDamper", 1, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_POSITION_DAMPER_2D] = {"PositionDamper2D", 1, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_SCALAR_DAMPER] = {"ScalarDamper", 1, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_ORIENTATION_DAMPER] = {"OrientationDamper", 1, 0, {0, 1, 0, 0}},
    [KFB_FOLLOWER_COLOR_DAMPER] = {"ColorDamper", 1, 0, {0.8f, 0.8f, 0.8f, 0}},
    [KFB_FOLLOWER_COORDINATE_DAMPER] = {"CoordinateDamper", 1, 1, {0, 0, 0, 0}},
    [KFB_FOLLOWER_TEXCOORD_DAMPER_2D] = {"TexCoordDamper2D", 1, 1, {0, 0, 0, 0}},
};

_Static_assert((int)KF_FOLLOWER_NODE_COUNT == (int)KFB_FOLLOWER_NODE_COUNT,
               "kf_follower_node mirrors the KFB_FOLLOWER_* codes");

const char *kf_follower_node_name(kf_follower_node node)
{
    return (unsigned)node < KFB_FOLLOWER_NODE_COUNT ? nodes[node].name : NULL;
}

int kf_follower_node_from_name(const char *name, kf_follower_node *node)
{
    for (unsigned i = 0; name && i < KFB_FOLLOWER_NODE_COUNT; i++) {
        if (strcmp(nodes[i].name, name) == 0) {
            if (node)
                *node = (kf_follower_node)i;
            return 1;
        }
    }
    return 0;
}

int kf_follower_node_is_damper(kf_follower_node node)
{
    return (unsigned)node < KFB_FOLLOWER_NODE_COUNT && nodes[node].damper;
}

int kf_follower_node_is_array(kf_follower_node node)
{
    return (unsigned)node < KFB_FOLLOWER_NODE_COUNT && nodes[node].array;
}

uint32_t kf_follower_node_field_components(kf_follower_node node)
{
    return kfb_follower_field_components((uint32_t)node);
}

void kf_follower_node_initial(kf_follower_node node, float *value)
{
    if (!value)
        return;
    const node_def *n = &nodes[(unsigned)node < KFB_FOLLOWER_NODE_COUNT ? node : 0];
    if (!n->array)
        memcpy(value, n->initial, kfb_follower_field_components((uint32_t)node) * sizeof *value);
}

uint32_t kf_follower_field_floats(const struct kf_follower *f)
{
    return (uint32_t)kfb_follower_field_floats(f->node, f->element_count);
}

uint32_t kf_follower_value_floats(const struct kf_follower *f)
{
    if (f->node == KFB_FOLLOWER_ORIENTATION_CHASER || f->node == KFB_FOLLOWER_ORIENTATION_DAMPER)
        return 4;
    return kf_follower_field_floats(f);
}

uint32_t kf_follower_rotation_floats(uint32_t node)
{
    return kfb_follower_rotation_floats(node);
}
