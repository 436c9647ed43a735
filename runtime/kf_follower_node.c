/* kf_follower_node.c - the X3D follower node types: names, field shapes,
 * families and X3D's default field values. */
#include <string.h>

#include "kf_private.h"

typedef struct node_def {
    const char *name;
    uint8_t     field_components; /* per element, as authored */
    uint8_t     damper;
    uint8_t     array;
    float       initial[4];       /* X3D's initialValue / initialDestination default */
} node_def;

static const node_def nodes[KFB_FOLLOWER_NODE_COUNT] = {
    [KFB_FOLLOWER_POSITION_CHASER]    = {"PositionChaser", 3, 0, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_POSITION_CHASER_2D] = {"PositionChaser2D", 2, 0, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_SCALAR_CHASER]      = {"ScalarChaser", 1, 0, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_ORIENTATION_CHASER] = {"OrientationChaser", 4, 0, 0, {0, 1, 0, 0}},
    [KFB_FOLLOWER_COLOR_CHASER]       = {"ColorChaser", 3, 0, 0, {0.8f, 0.8f, 0.8f, 0}},
    [KFB_FOLLOWER_COORDINATE_CHASER]  = {"CoordinateChaser", 3, 0, 1, {0, 0, 0, 0}},
    [KFB_FOLLOWER_TEXCOORD_CHASER_2D] = {"TexCoordChaser2D", 2, 0, 1, {0, 0, 0, 0}},
    [KFB_FOLLOWER_POSITION_DAMPER]    = {"PositionDamper", 3, 1, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_POSITION_DAMPER_2D] = {"PositionDamper2D", 2, 1, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_SCALAR_DAMPER]      = {"ScalarDamper", 1, 1, 0, {0, 0, 0, 0}},
    [KFB_FOLLOWER_ORIENTATION_DAMPER] = {"OrientationDamper", 4, 1, 0, {0, 1, 0, 0}},
    [KFB_FOLLOWER_COLOR_DAMPER]       = {"ColorDamper", 3, 1, 0, {0.8f, 0.8f, 0.8f, 0}},
    [KFB_FOLLOWER_COORDINATE_DAMPER]  = {"CoordinateDamper", 3, 1, 1, {0, 0, 0, 0}},
    [KFB_FOLLOWER_TEXCOORD_DAMPER_2D] = {"TexCoordDamper2D", 2, 1, 1, {0, 0, 0, 0}},
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
    return (unsigned)node < KFB_FOLLOWER_NODE_COUNT ? nodes[node].field_components : 0;
}

void kf_follower_node_initial(kf_follower_node node, float *value)
{
    if (!value)
        return;
    const node_def *n = &nodes[(unsigned)node < KFB_FOLLOWER_NODE_COUNT ? node : 0];
    if (!n->array)
        memcpy(value, n->initial, n->field_components * sizeof *value);
}

uint32_t kf_follower_field_floats(const struct kf_follower *f)
{
    return f->element_count * kf_follower_node_field_components((kf_follower_node)f->node);
}

uint32_t kf_follower_value_floats(const struct kf_follower *f)
{
    if (f->node == KFB_FOLLOWER_ORIENTATION_CHASER || f->node == KFB_FOLLOWER_ORIENTATION_DAMPER)
        return 4;
    return kf_follower_field_floats(f);
}

uint32_t kf_follower_rotation_floats(uint32_t node)
{
    return node == KFB_FOLLOWER_ORIENTATION_CHASER || node == KFB_FOLLOWER_ORIENTATION_DAMPER ? 8
                                                                                                : 0;
}
