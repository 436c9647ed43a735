/* SPDX-License-Identifier: MIT */
/*
 * test_options.c - kf.h's rule for options structs, on both of them:
 * NULL means defaults; a size covering only some fields takes the defaults
 * of the others (an older caller); a size below the size field or beyond
 * the struct is refused with KF_ERROR_ARGUMENT.
 */
#include <stddef.h>

#include "kf_test.h"
#include "test_util.h"

static kf_builder *small_builder(void)
{
    kf_builder *b = NULL;
    kf_builder_create(NULL, &b);
    static const double times[3] = {0, 10, 20}, values[3] = {1, 2, 3};
    kf_sequence_desc d;
    kf_sequence_desc_init(&d);
    d.name = "s";
    d.interpolation = KF_INTERPOLATION_LINEAR;
    d.duration = 30;
    d.components = 1;
    d.key_count = 3;
    d.times = times;
    d.values = values;
    d.valid_last = 2;
    CHECK(kf_builder_add_sequence(b, &d, NULL) == KF_OK, "sequence");
    return b;
}

static kf_result encode(const kf_builder *b, const kf_encode_options *o, test_bytes *out)
{
    memset(out, 0, sizeof *out);
    return kf_builder_encode(b, o, test_bytes_write, out, NULL);
}

int main(void)
{
    kf_builder *b = small_builder();
    test_bytes dflt, full9, full0, shortened, bad;
    CHECK(encode(b, NULL, &dflt) == KF_OK, "NULL options");
    kf_encode_options o = {sizeof o, 9, 0};
    CHECK(encode(b, &o, &full9) == KF_OK, "level 9");
    o.compression = 0;
    CHECK(encode(b, &o, &full0) == KF_OK, "level 0");
    CHECK(full0.size != full9.size, "levels 0 and 9 give different files (%zu, %zu)", full0.size,
          full9.size);
    CHECK(dflt.size == full9.size && memcmp(dflt.data, full9.data, dflt.size) == 0,
          "NULL options encode at the default level 9");
    /* An older caller's struct ends before `compression`: its default. */
    o.size = offsetof(kf_encode_options, compression);
    CHECK(encode(b, &o, &shortened) == KF_OK, "short options accepted");
    CHECK(shortened.size == full9.size && memcmp(shortened.data, full9.data, full9.size) == 0,
          "a field beyond size takes its default (level 9), not the caller's 0");
    o.size = 0;
    CHECK(encode(b, &o, &bad) == KF_ERROR_ARGUMENT, "size 0 refused");
    free(bad.data);
    o.size = sizeof o + 1;
    CHECK(encode(b, &o, &bad) == KF_ERROR_ARGUMENT, "size beyond the struct refused");
    free(bad.data);
    /* Levels 0-9 and KF_COMPRESSION_RUNS, which version 1 (no runs) takes
     * as storing every section. */
    o.size = sizeof o;
    for (int level = -3; level <= 10; level += 13) {
        o.compression = level;
        CHECK(encode(b, &o, &bad) == KF_ERROR_ARGUMENT, "level %d refused", level);
        free(bad.data);
    }
    test_bytes runs1, stored1;
    o.compression = KF_COMPRESSION_RUNS;
    o.version_major = 1;
    CHECK(encode(b, &o, &runs1) == KF_OK, "runs in version 1");
    o.compression = 0;
    CHECK(encode(b, &o, &stored1) == KF_OK, "level 0 in version 1");
    CHECK(runs1.size == stored1.size && memcmp(runs1.data, stored1.data, runs1.size) == 0,
          "runs in version 1: the sections stored");
    free(runs1.data);
    free(stored1.data);

    /* Loading: max_section_size beyond size is the default (256 MiB), so a
     * file loads although the caller's (unread) field says 1 byte. */
    kf_anim *anim = NULL;
    kf_load_options l = {sizeof l, NULL, 1};
    CHECK(kf_load_memory(full0.data, full0.size, &l, &anim, NULL) == KF_ERROR_TOO_LARGE,
          "a 1-byte section cap is honoured when within size");
    l.size = offsetof(kf_load_options, max_section_size);
    CHECK(kf_load_memory(full0.data, full0.size, &l, &anim, NULL) == KF_OK && anim,
          "a field beyond size takes its default");
    kf_anim_free(anim);
    anim = NULL;
    l.size = 0;
    CHECK(kf_load_memory(full0.data, full0.size, &l, &anim, NULL) == KF_ERROR_ARGUMENT && !anim,
          "size 0 refused");
    l.size = sizeof l + 8;
    CHECK(kf_load_memory(full0.data, full0.size, &l, &anim, NULL) == KF_ERROR_ARGUMENT && !anim,
          "size beyond the struct refused");
    CHECK(kf_load_memory(full0.data, full0.size, NULL, &anim, NULL) == KF_OK && anim,
          "NULL options");
    kf_anim_free(anim);

    free(dflt.data);
    free(full9.data);
    free(full0.data);
    free(shortened.data);
    kf_builder_destroy(b);
    return kf_test_report("test_options");
}
