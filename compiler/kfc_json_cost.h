/* SPDX-License-Identifier: MIT */
/*
 * kfc_json_cost.h - what parsing a JSON text will cost, known before it is
 * parsed.
 *
 * jansson builds a tree of separately allocated values: an empty object
 * takes about 235 bytes, an integer 43, each member of an object about 100
 * besides its value (jansson 2.14, glibc's malloc, amd64). A text can thus
 * cost 80 times its size ("{}," repeated: 10 MB of it took 783 MB), where
 * the glTF files exporters write cost 10 to 25. kfc_json_cost reads the
 * text once, without allocating, and gives an upper bound of what the tree
 * will take, so that an importer can refuse a text before it is parsed.
 */
#ifndef KFC_JSON_COST_H
#define KFC_JSON_COST_H

#include <stddef.h>
#include <stdint.h>

/* Bytes jansson allocates, at most, to parse the `size` bytes at `text`
 * (valid JSON or not: an invalid text fails as soon as jansson reaches the
 * fault, having allocated less). Each value is charged at or above what it
 * was measured to take: an object 256 bytes, an array 160, a number 56, a
 * string (a member's name included) 136 plus three times its length (the
 * parser's buffer and the copy), true, false and null 16 (their slot). */
uint64_t kfc_json_cost(const unsigned char *text, size_t size);

#endif /* KFC_JSON_COST_H */
