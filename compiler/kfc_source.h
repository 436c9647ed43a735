/* SPDX-License-Identifier: MIT */
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

#include <stddef.h>

#include "kf_build.h"
#include "kfc_diag.h"
#include "kfc_yaml.h"

/*
 * Parses the YAML source in `data` (`size` bytes; `limits` NULL for the
 * defaults) and adds everything it describes to `builder`: all sequences
 * first, then the controllers, then the tracks, each in document order.
 * Sequences are built as soon as each is parsed, so memory stays bounded by
 * the largest sequence rather than the file. An error in an entry (a
 * sequence, a track, ...) or a field is reported through kfc_recover and
 * the rest is read on, what depends on the failed entry left out without a
 * second message, until diag->error_limit errors; a syntax error stops.
 * Returns KFC_OK only when no error was reported; else KFC_INVALID (or
 * KFC_NOMEM) with `diag` holding the last error (diag->printed: whether it
 * was printed already).
 *
 * `tracks_mark` (may be NULL) receives the mark of the tracks section
 * (KFC_NO_MARK without one): one check only encoding can make, a player's
 * memory bound (kf_player_size), fails on what the tracks ask for, and the
 * caller reports it there.
 */
kfc_status kfc_source_compile(const void *data, size_t size, const kfc_yaml_limits *limits,
                              kf_builder *builder, kfc_mark *tracks_mark, kfc_diag *diag);

#endif /* KFC_SOURCE_H */
