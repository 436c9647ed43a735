/* SPDX-License-Identifier: MIT */
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
#include "test_util.h"

/* Source -> .kfb bytes; 0 if the source does not compile. */
static int compile(const void *source, size_t size, test_bytes *out)
{
    kfc_yaml_limits limits;
    kfc_yaml_limits_default(&limits);
    limits.max_alias_nodes = 100000; /* keeps each run short */
    kf_builder *builder;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_builder_create(NULL, &builder) != KF_OK)
        abort();
    int ok = kfc_source_compile(source, size, &limits, builder, NULL, &diag) == KFC_OK;
    if (!ok && (diag.message[0] == '\0' || strchr(diag.message, '\n')))
        abort();
    kf_encode_options options = {sizeof options, 0, 0};
    kf_error error;
    if (ok) {
        /* kfc refuses, as the loader would, sources whose players pass the
         * memory bound (kf.h): that is a clean failure too. */
        kf_result r = kf_builder_encode(builder, &options, test_bytes_write, out, &error);
        if (r == KF_ERROR_LIMIT)
            ok = 0;
        else if (r != KF_OK)
            abort();
    }
    kf_builder_destroy(builder);
    return ok;
}

static void decompile(const test_bytes *kfb, test_bytes *yaml)
{
    kf_anim *anim;
    kf_error error;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kf_load_memory(kfb->data, kfb->size, NULL, &anim, &error) != KF_OK)
        abort();
    if (kfc_decompile(anim, test_bytes_write, yaml, &diag) != KFC_OK)
        abort();
    kf_anim_free(anim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    test_bytes a = {0}, y = {0}, b = {0}, y2 = {0};
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
