/*
 * kfc_source.h - a kfc source document (formats/yaml.md) into a kf_builder.
 *
 * Checks the document against the source schema (types, required and
 * unknown fields, enumeration names, number syntax and ranges, key shapes)
 * and hands each object to the builder, which makes the semantic checks.
 * Every error, the builder's included, is reported at the mark of the YAML
 * node it is about.
 */
#ifndef KFC_SOURCE_H
#define KFC_SOURCE_H

#include "kf_build.h"
#include "kfc_diag.h"
#include "kfc_yaml.h"

/*
 * Adds everything `root` describes to `builder`: all sequences first, then
 * the controllers, then the tracks, each in document order. Stops at the
 * first error: KFC_INVALID (or KFC_NOMEM) with `diag` filled.
 */
kfc_status kfc_source_build(const kfc_node *root, kf_builder *builder, kfc_diag *diag);

#endif /* KFC_SOURCE_H */
