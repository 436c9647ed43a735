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
 * and its target's, which repeat a node's name) count a number per 4 bytes. Animation data reads its float bytes once (a
 * quarter of a number per byte) or as normalized bytes and shared key times
 * (up to 2); a file that reads one large accessor from many samplers is
 * stopped at 4. Memory and the .kfb grow with the numbers (about 13 and at
 * most 4 bytes each).
 */
#define KFC_GLTF_NUMBERS_PER_BYTE 4
#define KFC_GLTF_BASE_NUMBERS     ((uint64_t)1 << 20)
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
