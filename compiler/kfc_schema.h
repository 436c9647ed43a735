/* SPDX-License-Identifier: MIT */
/*
 * kfc_schema.h - typed reads of YAML nodes, with kfc's schema messages.
 *
 * Each function checks one node against what the source format expects
 * there and either stores the value or fills the kfc_diag (at that node's
 * mark) and returns KFC_INVALID. The messages are part of the documented
 * error catalogue (formats/yaml.md).
 */
#ifndef KFC_SCHEMA_H
#define KFC_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_diag.h"
#include "kfc_suggest.h"
#include "kfc_yaml.h"

/* "expected a mapping" / "expected a list" unless `node` is one. */
kfc_status kfc_expect_mapping(const kfc_node *node, kfc_diag *diag);
kfc_status kfc_expect_list(const kfc_node *node, kfc_diag *diag);

/* The same, followed by ": `hint`" (NULL: nothing), what to write there
 * (X3D's numbers in a row where a list belongs have a hint of their own). */
kfc_status kfc_expect_mapping_hint(const kfc_node *node, const char *hint, kfc_diag *diag);
kfc_status kfc_expect_list_hint(const kfc_node *node, const char *hint, kfc_diag *diag);

/* Whether `node` is an empty value: a key with nothing after it. */
int kfc_node_empty(const kfc_node *node);

/*
 * The fields of an object: `map` must be a mapping whose keys are all among
 * `names[0 .. count-1]`; values[i] receives the value of field names[i], or
 * NULL when absent. An unknown key is an error at that key with the list of
 * allowed names and the one it was probably meant for; each is handed to
 * kfc_recover, so that all of them are reported and the known fields still
 * come back.
 */
kfc_status kfc_fields(const kfc_node *map, const char *const *names, size_t count,
                      const kfc_node **values, kfc_diag *diag);

/* kfc_fields, also setting bit i of *suggested (at most 32 names) for each
 * field an unknown key was suggested for. */
kfc_status kfc_fields_suggesting(const kfc_node *map, const char *const *names, size_t count,
                                 const kfc_node **values, unsigned *suggested, kfc_diag *diag);

/* "unknown field KEY (expected NAMES...)[; did you mean 'NAME'?]" at `key`;
 * returns KFC_INVALID. */
kfc_status kfc_unknown_field(const kfc_node *key, const char *const *names, size_t count,
                             kfc_diag *diag);

/* "missing required field NAME" at `map` when `value` is NULL. */
kfc_status kfc_require(const kfc_node *map, const kfc_node *value, const char *name,
                       kfc_diag *diag);

/* A finite number (plain scalar, kfc_number.h grammar) in double range. */
kfc_status kfc_get_number(const kfc_node *node, double *out, kfc_diag *diag);

/* As kfc_get_number, and also within float32 range (stored as float32). */
kfc_status kfc_get_float(const kfc_node *node, double *out, kfc_diag *diag);

/* kfc_get_float of items[0 .. count-1] into out[0 .. count-1] (out NULL:
 * only checked), each number's error reported (kfc_recover_next). Returns
 * the first error, or kfc_recover's answer when the run stops. */
kfc_status kfc_get_floats(const kfc_node *items, uint32_t count, double *out, kfc_diag *diag);

/* A number with an integral value in [min, max]. */
kfc_status kfc_get_uint(const kfc_node *node, uint32_t min, uint32_t max, uint32_t *out,
                        kfc_diag *diag);

/* A list of exactly two numbers (float32 range if `as_float`), as in
 * "[first, last]": `shape` names them for the message. Both numbers'
 * errors are reported (kfc_recover_next), and the first returned. */
kfc_status kfc_get_number_pair(const kfc_node *node, const char *shape, int as_float, double out[2],
                               kfc_diag *diag);

/* A boolean: the plain scalar true or false (YAML 1.2's spelling only; a
 * quoted "true" is a string). */
kfc_status kfc_get_bool(const kfc_node *node, int *out, kfc_diag *diag);

/* A string: any scalar, without NUL characters. Points into the tree. */
kfc_status kfc_get_string(const kfc_node *node, const char **out, kfc_diag *diag);

/*
 * A name from an enumeration: `name_of(i)` for i = 0, 1, ... gives the
 * accepted names until it returns NULL; *out receives the index. `what`
 * names the enumeration in the message ("unknown interpolation ..."), which
 * suggests the name meant (kfc_suggest.h): kfb's for another tool's name in
 * `aliases` (may be NULL), else the closest.
 */
typedef const char *(*kfc_enum_name_fn)(int index);
kfc_status kfc_get_enum(const kfc_node *node, kfc_enum_name_fn name_of, const char *what,
                        const kfc_alias *aliases, int *out, kfc_diag *diag);

#endif /* KFC_SCHEMA_H */
