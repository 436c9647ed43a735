/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_nodes.h - X3D's node types and their fields, as the X3D browser
 * X_ITE defines them (kfc_x3d_nodes.c, written from X_ITE by
 * tests/x3d/gen_x3d_nodes.py): what the importer checks a scene's
 * animation against, so that a ROUTE a browser refuses (a node type, a
 * field that does not exist, types that differ) is reported, not imported
 * as something else.
 *
 * A type's fields are one string, each field "NAME TYPE ACCESS;": TYPE is
 * X3D's field type ("SFVec3f"), ACCESS the sum of KFC_X3D_INITIALIZE,
 * KFC_X3D_IN and KFC_X3D_OUT it allows (initializeOnly 1, inputOnly 2,
 * outputOnly 4, inputOutput 7). kfc_x3d_scene.h reads them.
 */
#ifndef KFC_X3D_NODES_H
#define KFC_X3D_NODES_H

#include <stddef.h>

#define KFC_X3D_INITIALIZE 1u /* set where the node is written */
#define KFC_X3D_IN         2u /* receives events: a ROUTE's toField */
#define KFC_X3D_OUT        4u /* sends events: a ROUTE's fromField */

typedef struct kfc_x3d_node_type {
    const char *name;   /* "Transform" */
    const char *fields; /* "metadata SFNode 7;translation SFVec3f 7;..." */
} kfc_x3d_node_type;

/* Sorted by name (strcmp). */
extern const kfc_x3d_node_type kfc_x3d_node_types[];
extern const size_t kfc_x3d_node_type_count;

#endif /* KFC_X3D_NODES_H */
