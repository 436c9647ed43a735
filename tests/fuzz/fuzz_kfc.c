/*
 * fuzz_kfc.c - libFuzzer target for kfc's source layer. Each input is
 * compiled as YAML source; whatever compiles must load, decompile, and
 * compile again to the same bytes, and the decompiled YAML must be a fixed
 * point. Failures to compile must be clean (no crash, no leak, a located
 * one-line message).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kf_build.h"
#include "kfc_decompile.h"
#include "kfc_source.h"

typedef struct bytes {
    unsigned char *data;
    size_t         size, capacity;
} bytes;

static int append(void *user, const void *data, size_t size)
{
    bytes *b = user;
    if (b->size + size > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->size + size)
            capacity *= 2;
        unsigned char *grown = realloc(b->data, capacity);
        if (!grown)
            return 1;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    return 0;
}

/* Source -> .kfb bytes; 0 if the source does not compile. */
static int compile(const void *source, size_t size, bytes *out)
{
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    limits.max_alias_nodes = 100000; /* keeps each run short */
    kf_builder *builder;
    kfc_diag diag;
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    int ok = kfc_source_compile(source, size, &limits, builder, &diag) == KFC_OK;
    if (!ok && (diag.message[0] == '\0' || strchr(diag.message, '\n')))
        abort();
    kf_encode_options options = {sizeof options, 0};
    kf_error error;
    if (ok && kf_builder_encode(builder, &options, append, out, &error) != KF_OK)
        abort();
    kf_builder_destroy(builder);
    return ok;
}

static void decompile(const bytes *kfb, bytes *yaml)
{
    kf_anim *anim;
    kf_error error;
    kfc_diag diag;
    if (kf_load_memory(kfb->data, kfb->size, NULL, &anim, &error) != KF_OK)
        abort();
    if (kfc_decompile(anim, append, yaml, &diag) != KFC_OK)
        abort();
    kf_anim_free(anim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes a = {0}, y = {0}, b = {0}, y2 = {0};
    if (compile(data, size, &a)) {
        decompile(&a, &y);
        if (!compile(y.data, y.size, &b) || a.size != b.size || memcmp(a.data, b.data, a.size))
            abort();
        decompile(&b, &y2);
        if (y.size != y2.size || memcmp(y.data, y2.data, y.size))
            abort();
    }
    free(a.data);
    free(y.data);
    free(b.data);
    free(y2.data);
    return 0;
}
