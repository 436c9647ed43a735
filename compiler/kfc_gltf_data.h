/* SPDX-License-Identifier: MIT */
/*
 * kfc_gltf_data.h - the binary side of a glTF document: the GLB container,
 * buffers (GLB chunk, external file, base64 data URI), buffer views and
 * accessors (strides, sparse substitution, normalized integers), each bound
 * checked in 64 bits before a byte is read.
 */
#ifndef KFC_GLTF_DATA_H
#define KFC_GLTF_DATA_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "kfc_diag.h"
#include "kfc_files.h"
#include "kfc_gltf.h"

enum {
    GLTF_BYTE = 5120,
    GLTF_UNSIGNED_BYTE = 5121,
    GLTF_SHORT = 5122,
    GLTF_UNSIGNED_SHORT = 5123,
    GLTF_UNSIGNED_INT = 5125,
    GLTF_FLOAT = 5126
};

/*
 * The importer's bounds, in proportion to its input (docs/limits.md):
 *
 * Numbers accessor reads may produce per byte of input (the document and
 * each external buffer file, counted once; a data URI or GLB chunk is part
 * of the document), besides KFC_GLTF_BASE_NUMBERS: an accessor counts each
 * time a sampler reads it, and the names each channel makes (its sequence's
 * and its target's, which repeat a node's name) count a number per 4 bytes.
 * A channel of a mesh's weights makes a track on every node that instances
 * the mesh, so nothing of its own JSON bounds them: each such node counts
 * KFC_GLTF_NODE_NUMBERS (its track, or the check that weights of its own
 * override the mesh's) and the name of its target, and the check of the
 * targets an earlier animation played counts KFC_GLTF_CHECK_NUMBERS a
 * node. Animation data
 * reads its float bytes once (a quarter of a number per byte) or as
 * normalized bytes and shared key times (up to 2); a file that reads one
 * large accessor from many samplers is stopped at 4. Memory and the .kfb
 * grow with the numbers (about 13 and at most 4 bytes each).
 */
#define KFC_GLTF_NUMBERS_PER_BYTE 4
#define KFC_GLTF_BASE_NUMBERS     ((uint64_t)1 << 20)
/* A track on a node that instances a mesh whose weights a channel animates,
 * as numbers: it takes about 650 bytes of memory the first time the node is
 * a target (its target's records and names, the sets that check targets),
 * 200 after, and a 32-byte record in the .kfb. 64 numbers cover the first
 * at 13 bytes a number, and are more than the 44 that the 11 bytes of a
 * node ({"mesh":0},) bring: a track on every node of a file stays within
 * the memory bound. */
#define KFC_GLTF_NODE_NUMBERS 64
/* A node whose weights the check of shared targets visits for such a
 * channel (a key looked up and added): a hash lookup, as a number read. */
#define KFC_GLTF_CHECK_NUMBERS 1
/* What jansson may take to parse the JSON (kfc_json_cost's upper bound), per
 * byte of it, besides KFC_GLTF_JSON_BASE: exporters' files take 10 to 25;
 * "{}," repeated would take 85. */
#define KFC_GLTF_JSON_BYTES_PER_BYTE 48
#define KFC_GLTF_JSON_BASE           ((uint64_t)16 << 20)

typedef struct kfc_gltf_buffer {
    int loaded;
    unsigned char *owned; /* decoded data URI, or NULL */
    /* the bytes: the GLB chunk, `owned`, or an external file's, which
     * doc->files holds (shared by every buffer naming that file) */
    const unsigned char *data;
    size_t size; /* the buffer's byteLength */
} kfc_gltf_buffer;

typedef struct kfc_gltf_doc {
    const kfc_import_options *options;
    kfc_diag *diag;
    json_t *root;
    const unsigned char *bin; /* GLB BIN chunk, or NULL */
    size_t bin_size;
    kfc_gltf_buffer *buffers;
    size_t buffer_count;
    kfc_files files;         /* external buffers: inside the input's folder (kfc_files.h) */
    uint64_t element_budget; /* numbers accessor reads may still produce */
    int spent;               /* a read or a name went past the budget: nothing more is read */
    json_t *node_names;      /* node name -> how many nodes have it */
} kfc_gltf_doc;

/* An accessor read into doubles (normalized integers converted). */
typedef struct kfc_gltf_accessor {
    double *values; /* count * components; free() */
    uint32_t count;
    uint32_t components;
    int component_type;
    int normalized;
} kfc_gltf_accessor;

/* Splits a GLB file into its JSON and BIN chunks. */
kfc_status kfc_gltf_glb(const unsigned char *data, size_t size, const unsigned char **json,
                        size_t *json_size, const unsigned char **bin, size_t *bin_size,
                        kfc_diag *diag);

/* Records a schema error at JSON pointer `pointer`; control bytes the
 * message quotes are escaped (kfc_text_escape). */
kfc_status kfc_gltf_fail(kfc_diag *diag, const char *pointer, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The document's buffers: doc->buffers allocated, one per element of
 * "buffers" (none loaded yet). Refuses "buffers" that is not an array, and
 * a buffer without 'uri' anywhere but first in a GLB file with a BIN chunk,
 * whether or not anything uses it. */
kfc_status kfc_gltf_buffers(kfc_gltf_doc *doc);

/* An index field: absent -> *out = -1 when optional, else an error. */
kfc_status kfc_gltf_index(kfc_diag *diag, const json_t *object, const char *field,
                          const char *pointer, int required, int64_t *out);

/* Charges `bytes` of names (made at `pointer`) to the budget of numbers, four
 * bytes a number: a name repeated per channel is output as numbers are. */
kfc_status kfc_gltf_charge(kfc_gltf_doc *doc, size_t bytes, const char *pointer);

/* Charges `numbers` (work done or records made at `pointer` that no bytes
 * of the input bound) to the same budget. */
kfc_status kfc_gltf_charge_numbers(kfc_gltf_doc *doc, uint64_t numbers, const char *pointer);

/* Accessor `index`'s (referenced at `pointer`) component type, type and
 * normalized flag into `out` (no values): what it holds, checked before
 * anything else of it, as what a sampler may read is. */
kfc_status kfc_gltf_accessor_kind(kfc_gltf_doc *doc, int64_t index, const char *pointer,
                                  kfc_gltf_accessor *out);

/* Accessor `index` (referenced at `pointer`) into `out`. */
kfc_status kfc_gltf_read_accessor(kfc_gltf_doc *doc, int64_t index, const char *pointer,
                                  kfc_gltf_accessor *out);

void kfc_gltf_doc_free(kfc_gltf_doc *doc);

#endif /* KFC_GLTF_DATA_H */
