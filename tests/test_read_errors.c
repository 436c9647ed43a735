/* SPDX-License-Identifier: MIT */
/*
 * test_read_errors.c - a table of damaged .kfb files, each with the result
 * code the loader must give (in the manner of zlib's infcover.c). Every
 * entry starts from the same valid file, changes one thing, and (unless the
 * checksum itself is under test) recomputes the CRCs so the damage reaches
 * the check it targets. Each must fail with exactly its code, leave *out
 * NULL, and fill kf_error with a message.
 */
#include <stdlib.h>
#include <string.h>

#include "kf_test.h"
#include "kfb_craft.h"
#include "test_util.h"

/* Objects of the base file, in file order. */
enum {
    SEQ_LINEAR,
    SEQ_SPLINE,
    CONTROLLER,
    CONTROLLER_RUN,
    TARGET_T,
    TARGET_A,
    TRACK_T,
    TRACK_A,
    TRACK_RUN
};

static kf_builder *base_builder(void)
{
    static const double t3[3] = {0, 500, 1000}, v3[9] = {0, 0, 0, 1, 2, 3, 4, 5, 6};
    static const double v1[3] = {0.25, 0.5, 1};
    kf_builder *b;
    kf_error e;
    kf_builder_create(NULL, &b);
    kf_sequence_desc lin = {
        "lin", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 1000, 3, 3, t3, v3, 0, 2, NULL, 0,
        NULL};
    kf_sequence_desc spl = {
        "spl", KF_INTERPOLATION_SPLINE, KF_REPEAT_LOOP, 1500, 1, 3, t3, v1, 0, 2, NULL, 0, NULL};
    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "walk";
    kf_controller_desc run;
    kf_controller_desc_init(&run);
    run.name = "run";
    kf_track_desc tt = {"lin", "walk", "a.translation", 0}, ta = {"spl", "walk", "a.alpha", 0};
    kf_track_desc tr = {"lin", "run", "a.translation", 0};
    if (kf_builder_add_sequence(b, &lin, &e) || kf_builder_add_sequence(b, &spl, &e) ||
        kf_builder_add_controller(b, &c, &e) || kf_builder_add_controller(b, &run, &e) ||
        kf_builder_add_track(b, &tt, &e) || kf_builder_add_track(b, &ta, &e) ||
        kf_builder_add_track(b, &tr, &e)) {
        fprintf(stderr, "base file: %s\n", e.message);
        exit(1);
    }
    return b;
}

static test_bytes encode_version(const kf_builder *b, int compression, uint32_t major)
{
    test_bytes out = {0};
    kf_encode_options o = {sizeof o, compression, major};
    if (kf_builder_encode(b, &o, test_bytes_write, &out, NULL) != KF_OK)
        exit(1);
    return out;
}

static test_bytes encode(const kf_builder *b, int compression)
{
    return encode_version(b, compression, 0);
}

/* b's file in version 1, whose arrays are plain floats a test can patch:
 * with its first object's record at *body and DATA's stored bytes at
 * *data, or with *data NULL where the file cannot be taken apart. */
static test_bytes plain_file(const kf_builder *b, size_t *body, unsigned char **data)
{
    test_bytes f = encode_version(b, 0, 1);
    craft_section sec[3];
    *body = craft_object(f.data, f.size, 0);
    *data =
        *body && craft_sections(f.data, f.size, sec) ? f.data + sec[KFB_SECTION_DATA].stored : NULL;
    return f;
}

typedef enum patch_kind {
    FILE_WORD, /* at = byte offset */
    FILE_BYTE,
    OBJECT_WORD, /* object, at = word index in the body */
    KEY_TIME,    /* object (a sequence), at = stored key; value = float bits */
    STRING_WORD, /* at = byte offset in the (stored) string table; value = 4 bytes, LE */
    TRUNCATE,    /* at = new size */
    APPEND,      /* at = bytes of zeros appended */
    SET_OPTION   /* at = max_section_size */
} patch_kind;

typedef struct bad_file {
    const char *what;
    int compressed; /* start from the zlib-compressed encoding; FILE_* offsets
                       are then relative to the OBJS section header */
    patch_kind kind;
    unsigned object;
    size_t at;
    uint32_t value;
    int keep_crc; /* 1: leave the checksums as damaged */
    kf_result expect;
} bad_file;

#define H(field) KFB_HEADER_AT(field)
#define S0       KFB_HEADER_SIZE /* first section header */
#define SH       0               /* compressed: the OBJS section header */

static const bad_file table[] = {
    {"first identifier byte", 0, FILE_BYTE, 0, 0, 0x89, 0, KF_ERROR_NOT_KFB},
    {"CR of the identifier lost", 0, FILE_BYTE, 0, 4, '\n', 0, KF_ERROR_NOT_KFB},
    {"only half the identifier", 0, TRUNCATE, 0, 4, 0, 0, KF_ERROR_TRUNCATED},
    {"ends inside the header", 0, TRUNCATE, 0, H(section_count), 0, 0, KF_ERROR_TRUNCATED},
    {"major version 3", 0, FILE_WORD, 0, H(version), KFB_VERSION(3, 0), 0, KF_ERROR_VERSION},
    {"major version 0", 0, FILE_WORD, 0, H(version), 7, 0, KF_ERROR_VERSION},
    {"a newer minor of version 1", 0, FILE_WORD, 0, H(version),
     KFB_VERSION(1, KFB_VERSION_1_MINOR + 1), 0, KF_ERROR_VERSION},
    {"newer minor version", 0, FILE_WORD, 0, H(version),
     KFB_VERSION(KFB_VERSION_MAJOR, KFB_VERSION_MINOR + 1), 0, KF_ERROR_VERSION},
    {"header checksum", 0, FILE_BYTE, 0, H(header_crc), 0x55, 1, KF_ERROR_CHECKSUM},
    {"a header word changed under its checksum", 0, FILE_WORD, 0, H(file_size), 12345, 1,
     KF_ERROR_CHECKSUM},
    {"byte-swapped integer probe", 0, FILE_WORD, 0, H(probe_int), 0x01020304, 0, KF_ERROR_PROBE},
    {"float probe", 0, FILE_WORD, 0, H(probe_float), 0x3F800000, 0, KF_ERROR_PROBE},
    {"four sections", 0, FILE_WORD, 0, H(section_count), 4, 0, KF_ERROR_SECTION},
    {"file size below the header", 0, FILE_WORD, 0, H(file_size), 8, 0, KF_ERROR_SECTION},
    {"file size beyond the bytes", 0, FILE_WORD, 0, H(file_size), 100000, 0, KF_ERROR_TRUNCATED},
    {"one byte too many", 0, APPEND, 0, 1, 0, 0, KF_ERROR_TRAILING_DATA},
    {"last byte missing", 0, TRUNCATE, 0, (size_t)-1, 0, 0, KF_ERROR_TRUNCATED},
    {"section tag", 0, FILE_WORD, 0, S0, KFB_TAG_DATA, 0, KF_ERROR_SECTION},
    {"compression 2 (runs) in STRS", 0, FILE_WORD, 0, S0 + 4, 2, 0, KF_ERROR_SECTION},
    {"compression 3", 0, FILE_WORD, 0, S0 + 4, 3, 0, KF_ERROR_SECTION},
    {"stored size past the end", 0, FILE_WORD, 0, S0 + 8, 0x7FFFFFF0, 0, KF_ERROR_TRUNCATED},
    {"uncompressed raw size differs", 0, FILE_WORD, 0, S0 + 12, 3, 0, KF_ERROR_SECTION},
    {"section checksum", 0, FILE_BYTE, 0, S0 + KFB_SECTION_HEADER_SIZE, 'X', 1, KF_ERROR_CHECKSUM},
    {"section above the size limit", 0, SET_OPTION, 0, 16, 0, 0, KF_ERROR_TOO_LARGE},
    {"zlib raw size beyond any ratio", 1, FILE_WORD, 0, SH + 12, 0x00100000, 0, KF_ERROR_SECTION},
    {"zlib header check", 1, FILE_BYTE, 0, SH + KFB_SECTION_HEADER_SIZE + 1, 0xFF, 0,
     KF_ERROR_INFLATE},
    {"zlib method 7", 1, FILE_BYTE, 0, SH + KFB_SECTION_HEADER_SIZE, 0x77, 0, KF_ERROR_INFLATE},
    {"zlib window of 64 KiB", 1, FILE_BYTE, 0, SH + KFB_SECTION_HEADER_SIZE, 0x88, 0,
     KF_ERROR_INFLATE},
    {"zlib preset dictionary", 1, FILE_BYTE, 0, SH + KFB_SECTION_HEADER_SIZE + 1, 0x20, 0,
     KF_ERROR_INFLATE},
    {"deflate data corrupt", 1, FILE_BYTE, 0, SH + KFB_SECTION_HEADER_SIZE + 2, 0xFF, 0,
     KF_ERROR_INFLATE},
    {"zlib raw size too small", 1, FILE_WORD, 0, SH + 12, 4, 0, KF_ERROR_INFLATE},
    {"zlib raw size too large", 1, FILE_WORD, 0, SH + 12, 440, 0, KF_ERROR_INFLATE},
    {"object of unknown type", 0, OBJECT_WORD, SEQ_LINEAR, (size_t)-2, 99, 0, KF_ERROR_OBJECT},
    {"object record size", 0, OBJECT_WORD, SEQ_LINEAR, (size_t)-1, 40, 0, KF_ERROR_OBJECT},
    {"last object runs past the section", 0, OBJECT_WORD, TRACK_A, (size_t)-1, 20, 0,
     KF_ERROR_OBJECT},
    {"name outside the string table", 0, OBJECT_WORD, SEQ_LINEAR, 0, 5000, 0, KF_ERROR_STRING},
    {"name at the terminating NUL", 0, OBJECT_WORD, SEQ_LINEAR, 0, 3, 0, KF_ERROR_STRING},
    {"unknown interpolation", 0, OBJECT_WORD, SEQ_LINEAR, 1, 9, 0, KF_ERROR_VALUE},
    {"unknown repeat", 0, OBJECT_WORD, SEQ_LINEAR, 2, 2, 0, KF_ERROR_VALUE},
    /* codes whose low halves are known ones (SPLINE, LOOP): a sequence keeps
     * halves, and the reader once read them as those (found by fuzz_load) */
    {"interpolation past 16 bits", 0, OBJECT_WORD, SEQ_LINEAR, 1, 0x00010002, 0, KF_ERROR_VALUE},
    {"repeat past 16 bits", 0, OBJECT_WORD, SEQ_LINEAR, 2, 0x00010001, 0, KF_ERROR_VALUE},
    {"zero components", 0, OBJECT_WORD, SEQ_LINEAR, 3, 0, 0, KF_ERROR_VALUE},
    {"slerp with 3 components", 0, OBJECT_WORD, SEQ_LINEAR, 1, KFB_INTERP_SLERP, 0, KF_ERROR_VALUE},
    {"zero keys", 0, OBJECT_WORD, SEQ_LINEAR, 4, 0, 0, KF_ERROR_VALUE},
    {"huge key count", 0, OBJECT_WORD, SEQ_LINEAR, 4, 0xFFFFFFFF, 0, KF_ERROR_REFERENCE},
    {"valid_first out of range", 0, OBJECT_WORD, SEQ_LINEAR, 5, 3, 0, KF_ERROR_VALUE},
    {"valid_count beyond the keys", 0, OBJECT_WORD, SEQ_LINEAR, 6, 4, 0, KF_ERROR_VALUE},
    {"zero duration", 0, OBJECT_WORD, SEQ_LINEAR, 7, 0, 0, KF_ERROR_VALUE},
    {"NaN duration", 0, OBJECT_WORD, SEQ_LINEAR, 7, 0x7FC00000, 0, KF_ERROR_VALUE},
    {"times outside the data", 0, OBJECT_WORD, SEQ_LINEAR, 8, 0xFFFFFFF0, 0, KF_ERROR_REFERENCE},
    {"values overlapping the end", 0, OBJECT_WORD, SEQ_LINEAR, 9, 25, 0, KF_ERROR_REFERENCE},
    {"linear with tangents", 0, OBJECT_WORD, SEQ_LINEAR, 10, 0, 0, KF_ERROR_VALUE},
    {"spline without tangents", 0, OBJECT_WORD, SEQ_SPLINE, 10, KFB_NONE, 0, KF_ERROR_REFERENCE},
    {"negative key time", 0, KEY_TIME, SEQ_LINEAR, 0, 0xBF800000, 0, KF_ERROR_VALUE},
    {"NaN key time", 0, KEY_TIME, SEQ_LINEAR, 1, 0x7FC00000, 0, KF_ERROR_VALUE},
    {"decreasing key times", 0, KEY_TIME, SEQ_LINEAR, 2, 0x43C80000 /* 400 */, 0, KF_ERROR_VALUE},
    {"last key after the duration", 0, KEY_TIME, SEQ_LINEAR, 2, 0x44FA0000 /* 2000 */, 0,
     KF_ERROR_VALUE},
    {"negative weight", 0, OBJECT_WORD, CONTROLLER, 4, 0xBFF00000 /* -1.0 hi */, 0, KF_ERROR_VALUE},
    {"infinite speed", 0, OBJECT_WORD, CONTROLLER, 2, 0x7FF00000, 0, KF_ERROR_VALUE},
    {"active interval reversed", 0, OBJECT_WORD, CONTROLLER, 6, 0x40590000 /* 100.0 hi */, 0,
     KF_ERROR_VALUE},
    {"target property not its name's", 0, OBJECT_WORD, TARGET_T, 1, KFB_PROPERTY_SCALE, 0,
     KF_ERROR_VALUE},
    {"target property code out of range", 0, OBJECT_WORD, TARGET_T, 1, 99, 0, KF_ERROR_VALUE},
    {"translation with 2 components", 0, OBJECT_WORD, TARGET_T, 2, 2, 0, KF_ERROR_VALUE},
    {"track animator kind", 0, OBJECT_WORD, TRACK_T, 0, 7, 0, KF_ERROR_VALUE},
    {"track animator out of range", 0, OBJECT_WORD, TRACK_T, 1, 2, 0, KF_ERROR_REFERENCE},
    {"track controller out of range", 0, OBJECT_WORD, TRACK_T, 2, 2, 0, KF_ERROR_REFERENCE},
    {"sequence track with a cycle interval", 0, OBJECT_WORD, TRACK_T, 4, 0x3F800000, 0,
     KF_ERROR_VALUE},
    {"sequence track with a cycle interval of -0", 0, OBJECT_WORD, TRACK_T, 4, 0x80000000, 0,
     KF_ERROR_VALUE},
    {"two tracks of one binding", 0, OBJECT_WORD, TRACK_RUN, 2, 0, 0, KF_ERROR_DUPLICATE},
    {"the same binding without a controller", 0, OBJECT_WORD, TRACK_RUN, 2, KFB_NONE, 0, KF_OK},
    /* Names: exactly the UTF-8 text kfc reads and writes. "lin" is at 0. */
    {"name with a UTF-8 surrogate", 0, STRING_WORD, 0, 0, 0x0080A0ED, 0, KF_ERROR_STRING},
    {"name above U+10FFFF", 0, STRING_WORD, 0, 0, 0x808090F4, 0, KF_ERROR_STRING},
    {"name with an overlong slash", 0, STRING_WORD, 0, 0, 0x006EAFC0, 0, KF_ERROR_STRING},
    {"name with an overlong 3-byte form", 0, STRING_WORD, 0, 0, 0x00AF80E0, 0, KF_ERROR_STRING},
    {"name with a lone continuation byte", 0, STRING_WORD, 0, 0, 0x006E6980, 0, KF_ERROR_STRING},
    {"name cut inside a sequence", 0, STRING_WORD, 0, 0, 0x006E69E2, 0, KF_ERROR_STRING},
    {"name with an e acute", 0, STRING_WORD, 0, 0, 0x006EA9C3, 0, KF_OK},
    {"name with U+10FFFF", 0, STRING_WORD, 0, 0, 0xBFBF8FF4, 0, KF_OK},
    {"name with U+FFFD", 0, STRING_WORD, 0, 0, 0x00BDBFEF, 0, KF_OK},
    {"track target out of range", 0, OBJECT_WORD, TRACK_T, 3, 2, 0, KF_ERROR_REFERENCE},
    {"two animators of one name", 0, OBJECT_WORD, SEQ_SPLINE, 0, 0, 0, KF_ERROR_DUPLICATE},
    {"a controller named like an animator (another namespace)", 0, OBJECT_WORD, CONTROLLER, 0, 0, 0,
     KF_OK},
    {"track components differ from the target's", 0, OBJECT_WORD, TRACK_T, 1, 1, 0, KF_ERROR_VALUE},
};

static void run(const bad_file *t, const test_bytes *plain, const test_bytes *zipped)
{
    const test_bytes *src = t->compressed ? zipped : plain;
    size_t size = src->size;
    unsigned char *f = malloc(size + 64);
    memcpy(f, src->data, size);
    kf_load_options options = {sizeof options, NULL, 0};
    craft_section s[3];
    craft_sections(f, size, s);
    size_t base = t->compressed ? s[KFB_SECTION_OBJECTS].header : 0, body;

    switch (t->kind) {
    case FILE_WORD:
        craft_put(f + base + t->at, t->value);
        break;
    case FILE_BYTE:
        f[base + t->at] = (unsigned char)t->value;
        break;
    case OBJECT_WORD:
        body = craft_object(f, size, t->object);
        CHECK(body != 0, "%s: object %u not found", t->what, t->object);
        /* at (size_t)-1 and -2 wrap to the object header's size and type */
        craft_put(f + (body + 4 * t->at), t->value);
        break;
    case KEY_TIME: {
        body = craft_object(f, size, t->object);
        uint32_t times = craft_get(f + body + 4 * 8);
        craft_put(f + s[KFB_SECTION_DATA].stored + 4 * (times + t->at), t->value);
        break;
    }
    case STRING_WORD:
        craft_put(f + s[KFB_SECTION_STRINGS].stored + t->at, t->value);
        break;
    case TRUNCATE:
        size = t->at == (size_t)-1 ? size - 1 : t->at;
        break;
    case APPEND:
        memset(f + size, 0, t->at);
        size += t->at;
        break;
    case SET_OPTION:
        options.max_section_size = t->at;
        break;
    }
    if (!t->keep_crc && t->kind != TRUNCATE && t->kind != APPEND)
        craft_fix_crcs(f, size);

    kf_anim *anim = (kf_anim *)f; /* must be overwritten with NULL */
    kf_error err;
    kf_result r = kf_load_memory(f, size, &options, &anim, &err);
    CHECK(r == t->expect, "%s: got %s, want %s (%s)", t->what, kf_result_name(r),
          kf_result_name(t->expect), err.message);
    CHECK((anim == NULL) == (r != KF_OK), "%s: *out does not match the result", t->what);
    CHECK(r == KF_OK || (err.result == r && err.message[0]), "%s: kf_error not filled", t->what);
    if (r == KF_OK)
        kf_anim_free(anim);
    free(f);
}

/* A stream over bytes in memory; its read number `overlong` (from 1; 0:
 * none) claims 5 bytes more than it was asked for, writing only those. */
typedef struct mem_reader {
    const unsigned char *data;
    size_t size, pos;
    unsigned reads, overlong;
} mem_reader;

static size_t read_mem(void *user, void *buffer, size_t size)
{
    mem_reader *m = user;
    const size_t n = m->size - m->pos < size ? m->size - m->pos : size;
    memcpy(buffer, m->data + m->pos, n);
    m->pos += n;
    return ++m->reads == m->overlong ? n + 5 : n;
}

/* Each bad argument has its own message, and every failure leaves *out
 * NULL, even one found before the output pointer is looked at. */
static void argument_messages(const test_bytes *plain)
{
    static const struct {
        int call; /* 0 kf_load_memory, 1 kf_load_stream, 2 kf_load_file */
        size_t options_size;
        int no_input, no_out;
        const char *want;
    } cases[] = {
        {0, 0, 0, 0, "options.size is 0; set it to sizeof(kf_load_options)"},
        {1, 0, 0, 0, "options.size is 0; set it to sizeof(kf_load_options)"},
        {2, 0, 0, 0, "options.size is 0; set it to sizeof(kf_load_options)"},
        {0, 4, 0, 0, "options.size is 4; set it to sizeof(kf_load_options)"},
        {0, sizeof(kf_load_options) + 1, 0, 0, "; set it to sizeof(kf_load_options)"},
        {0, sizeof(kf_load_options), 1, 0, "no data"},
        {1, sizeof(kf_load_options), 1, 0, "no read function"},
        {2, sizeof(kf_load_options), 1, 0, "no path"},
        {0, sizeof(kf_load_options), 0, 1, "no output pointer"},
        {1, sizeof(kf_load_options), 0, 1, "no output pointer"},
        {2, sizeof(kf_load_options), 0, 1, "no output pointer"},
    };
    char accepted[64];
    snprintf(accepted, sizeof accepted, "(%zu to %zu are accepted)", sizeof(size_t),
             sizeof(kf_load_options));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        kf_load_options o = {cases[k].options_size, NULL, 0};
        kf_anim *anim = (kf_anim *)&o; /* as an uninitialized pointer may be */
        kf_anim **out = cases[k].no_out ? NULL : &anim;
        mem_reader m = {plain->data, plain->size, 0, 0, 0};
        kf_error e;
        kf_result r;
        if (cases[k].call == 0)
            r = kf_load_memory(cases[k].no_input ? NULL : plain->data, plain->size, &o, out, &e);
        else if (cases[k].call == 1)
            r = kf_load_stream(cases[k].no_input ? NULL : read_mem, &m, &o, out, &e);
        else
            r = kf_load_file(cases[k].no_input ? NULL : "/nonexistent/x.kfb", &o, out, &e);
        CHECK(r == KF_ERROR_ARGUMENT && e.result == r && strstr(e.message, cases[k].want) &&
                  (cases[k].options_size == sizeof o || strstr(e.message, accepted)),
              "argument case %zu: %s (%s)", k, kf_result_name(r), e.message);
        CHECK(anim == NULL || cases[k].no_out, "argument case %zu: *out left as it was", k);
    }
    /* A read function that claims more than it was asked for: an error
     * saying so, in the header's read and in the rest's. */
    for (unsigned read = 1; read <= 2; read++) {
        mem_reader m = {plain->data, plain->size, 0, 0, read};
        kf_anim *anim = (kf_anim *)&m;
        kf_error e;
        const kf_result r = kf_load_stream(read_mem, &m, NULL, &anim, &e);
        const size_t asked = read == 1 ? KFB_HEADER_SIZE : plain->size - KFB_HEADER_SIZE;
        char want[96];
        snprintf(want, sizeof want, "the read function returned %zu bytes for a %zu-byte request",
                 asked + 5, asked);
        CHECK(r == KF_ERROR_IO && !anim && strcmp(e.message, want) == 0,
              "an overlong read %u: %s (%s)", read, kf_result_name(r), e.message);
    }
}

/* Bytes after the declared end, as many as there are in memory; from a
 * stream, only that there are more. */
static void trailing_messages(const test_bytes *plain)
{
    unsigned char *f = malloc(plain->size + 2);
    memcpy(f, plain->data, plain->size);
    f[plain->size] = f[plain->size + 1] = '\n';
    for (size_t extra = 1; extra <= 2; extra++) {
        char want[128];
        snprintf(want, sizeof want,
                 "%zu %s the declared end of the file (its header says %zu bytes)", extra,
                 extra == 1 ? "byte follows" : "bytes follow", plain->size);
        kf_anim *anim = (kf_anim *)f;
        kf_error e;
        kf_result r = kf_load_memory(f, plain->size + extra, NULL, &anim, &e);
        CHECK(r == KF_ERROR_TRAILING_DATA && !anim && strcmp(e.message, want) == 0 &&
                  e.offset == plain->size,
              "%zu trailing bytes in memory: %s (%s)", extra, kf_result_name(r), e.message);
        snprintf(want, sizeof want,
                 "more bytes follow the declared end of the file (its header says %zu bytes)",
                 plain->size);
        mem_reader m = {f, plain->size + extra, 0, 0, 0};
        anim = (kf_anim *)f;
        r = kf_load_stream(read_mem, &m, NULL, &anim, &e);
        CHECK(r == KF_ERROR_TRAILING_DATA && !anim && strcmp(e.message, want) == 0 &&
                  e.offset == plain->size,
              "%zu trailing bytes in a stream: %s (%s)", extra, kf_result_name(r), e.message);
    }
    free(f);
}

/* The body of the first object of `type` (KFB_OBJECT_*) whose word `word`
 * is not `unless`, or 0. */
static size_t object_of_type(const test_bytes *f, uint32_t type, unsigned word, uint32_t unless)
{
    for (unsigned n = 0;; n++) {
        const size_t body = craft_object(f->data, f->size, n);
        if (!body)
            return 0;
        if (craft_get(f->data + body - 8) == type && craft_get(f->data + body + 4 * word) != unless)
            return body;
    }
}

/* kf_error's `offset` and `field` as kf.h defines them: an error in an
 * object's record is placed at the record, in the section's bytes, and an
 * array it names outside the data, or over another array, is that array's
 * field; a framing error is placed in the file, though its section is set. */
static void error_locations(void)
{
    kf_builder *b = test_rich_builder();
    test_bytes rich = encode(b, 0);
    kf_builder_destroy(b);
    craft_section s[3];
    CHECK(craft_sections(rich.data, rich.size, s), "rich file sections");
    const size_t seq = object_of_type(&rich, KFB_OBJECT_SEQUENCE, 0, KFB_NONE),
                 spline = object_of_type(&rich, KFB_OBJECT_SEQUENCE, 10, KFB_NONE),
                 tcb = object_of_type(&rich, KFB_OBJECT_SEQUENCE, 11, KFB_NONE),
                 follower = object_of_type(&rich, KFB_OBJECT_FOLLOWER, 0, KFB_NONE);
    CHECK(seq && spline && tcb && follower && spline != seq,
          "the rich file has sequences with tangents and tcb, and followers");
    if (!(seq && spline && tcb && follower && spline != seq)) {
        free(rich.data);
        return;
    }
    const uint32_t far = 0xFFFFFFF0u;
    const struct {
        size_t body;
        unsigned word;
        uint32_t value;
        kf_field field;
        const char *want;
    } refs[] = {
        {seq, 8, far, KF_FIELD_KEYS, "key times ("},
        {seq, 9, far, KF_FIELD_KEY_VALUE, "key values ("},
        {spline, 10, far, KF_FIELD_TANGENTS, "tangents ("},
        {tcb, 11, far, KF_FIELD_TCB, "tension/continuity/bias ("},
        {follower, 6, far, KF_FIELD_INITIAL_VALUE, "initialValue ("},
        {follower, 7, far, KF_FIELD_INITIAL_DESTINATION, "initialDestination ("},
        /* the second sequence's values (encoded) over the first's times */
        {spline, 9, craft_get(rich.data + seq + 4 * 8), KF_FIELD_KEY_VALUE, "key values ("},
    };
    for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) {
        unsigned char *f = malloc(rich.size);
        memcpy(f, rich.data, rich.size);
        craft_put(f + refs[k].body + 4 * refs[k].word, refs[k].value);
        craft_fix_crcs(f, rich.size);
        kf_anim *anim;
        kf_error e;
        const kf_result r = kf_load_memory(f, rich.size, NULL, &anim, &e);
        const size_t record = refs[k].body - 8 - s[KFB_SECTION_OBJECTS].stored;
        CHECK(r == KF_ERROR_REFERENCE && e.field == refs[k].field && e.item == KF_NO_INDEX &&
                  e.section == KFB_SECTION_OBJECTS && e.object != KF_NO_INDEX &&
                  e.offset == record && strstr(e.message, refs[k].want) &&
                  strstr(e.message, k == 6 ? "overlap another array" : "lie outside"),
              "reference case %zu: %s field %d offset %llu, want field %d offset %zu (%s)", k,
              kf_result_name(r), (int)e.field, (unsigned long long)e.offset, (int)refs[k].field,
              record, e.message);
        if (r == KF_OK)
            kf_anim_free(anim);
        free(f);
    }
    /* Framing: a checksum, at its word; a compression code, at its word. */
    for (int k = 0; k < 2; k++) {
        unsigned char *f = malloc(rich.size);
        memcpy(f, rich.data, rich.size);
        const craft_section *o = &s[KFB_SECTION_OBJECTS];
        size_t want;
        if (k == 0) {
            f[o->stored + 3] ^= 0x40;
            want = o->stored + o->stored_size;
        } else {
            craft_put(f + o->header + 4, 7);
            craft_fix_crcs(f, rich.size);
            want = o->header + 4;
        }
        kf_anim *anim;
        kf_error e;
        const kf_result r = kf_load_memory(f, rich.size, NULL, &anim, &e);
        CHECK(r == (k == 0 ? KF_ERROR_CHECKSUM : KF_ERROR_SECTION) &&
                  e.section == KFB_SECTION_OBJECTS && e.object == KF_NO_INDEX &&
                  e.field == KF_FIELD_NONE && e.offset == want,
              "framing case %d: %s section %u object %u offset %llu, want file offset %zu (%s)", k,
              kf_result_name(r), (unsigned)e.section, (unsigned)e.object,
              (unsigned long long)e.offset, want, e.message);
        if (r == KF_OK)
            kf_anim_free(anim);
        free(f);
    }
    free(rich.data);
}

int main(void)
{
    kf_builder *b = base_builder();
    test_bytes plain = encode(b, 0), zipped = encode(b, 9);
    kf_builder_destroy(b);

    /* The base files themselves load. */
    kf_anim *anim;
    CHECK(kf_load_memory(plain.data, plain.size, NULL, &anim, NULL) == KF_OK, "plain base");
    kf_anim_free(anim);
    CHECK(kf_load_memory(zipped.data, zipped.size, NULL, &anim, NULL) == KF_OK, "zlib base");
    kf_anim_free(anim);
    craft_section s[3];
    CHECK(craft_sections(zipped.data, zipped.size, s) &&
              craft_get(zipped.data + s[KFB_SECTION_OBJECTS].header + 4) == KFB_COMPRESSION_ZLIB,
          "the zlib base compresses its objects");

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        run(&table[i], &plain, &zipped);

    /* Targets numbered otherwise than in the order tracks first play them:
     * kfc cannot write that, and the decompiled source would compile to
     * other numbers (found by fuzz_load). Swapping the two tracks' targets
     * keeps every other rule. */
    {
        static const double t2[2] = {0, 1}, v2[6] = {0, 0, 0, 1, 1, 1};
        kf_sequence_desc lin = {
            "lin", KF_INTERPOLATION_LINEAR, KF_REPEAT_CONSTANT, 1, 3, 2, t2, v2, 0, 1, NULL, 0,
            NULL};
        kf_controller_desc c;
        kf_controller_desc_init(&c);
        c.name = "c";
        kf_track_desc first = {"lin", "c", "a.translation", 0},
                      second = {"lin", "c", "b.translation", 0};
        kf_builder *ob;
        kf_builder_create(NULL, &ob);
        CHECK(kf_builder_add_sequence(ob, &lin, NULL) == KF_OK &&
                  kf_builder_add_controller(ob, &c, NULL) == KF_OK &&
                  kf_builder_add_track(ob, &first, NULL) == KF_OK &&
                  kf_builder_add_track(ob, &second, NULL) == KF_OK,
              "two targets");
        test_bytes f = encode(ob, 0);
        kf_builder_destroy(ob);
        for (int swap = 0; swap < 2; swap++) {
            const size_t t0 = craft_object(f.data, f.size, 4), t1 = craft_object(f.data, f.size, 5);
            CHECK(t0 && t1 && craft_get(f.data + t0 + 12) == (uint32_t)swap &&
                      craft_get(f.data + t1 + 12) == (uint32_t)!swap,
                  "tracks play targets %d, %d", swap, !swap);
            kf_error err;
            kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, &err);
            CHECK(r == (swap ? KF_ERROR_VALUE : KF_OK) &&
                      (!swap || strstr(err.message, "in the order tracks first play them")),
                  "targets in %s order: %s (%s)", swap ? "another" : "first-play",
                  kf_result_name(r), r == KF_OK ? "" : err.message);
            if (r == KF_OK)
                kf_anim_free(anim);
            if (t0 && t1) {
                craft_put(f.data + t0 + 12, 1);
                craft_put(f.data + t1 + 12, 0);
                craft_fix_crcs(f.data, f.size);
            }
        }
        free(f.data);
    }

    /* Keys whose tangents could leave the float range (kf.h, Numbers): kfc
     * refuses the source, so the loader refuses the file, even with finite
     * stored tangents (found by fuzz_load: a SplineScalarInterpolator with a
     * keyValue of -1.7e38 loaded, then decompiled into a source kfc refuses).
     * Each file is written with a legal number, found in its plain data by
     * its bits and replaced. */
    {
        static const double t3[3] = {0, 1, 2}, v3[3] = {0, 1e37, 0};
        static const double frac[3] = {0, 0.5, 1}, kv[3] = {0, 1e37, 0}, vel[2] = {1e37, 0};
        static const double ht[6] = {0, 1e34, 0, 0, 0, 0}; /* x the duration 1000 */
        /* (2e37, above the limit and below 2^125, is also what a check of
         * 2^-4 FLT_MAX, not 2^-5, would let through: KF_NARROW_EXPONENT) */
        const float legal[5] = {1e37f, 1e37f, 1e37f, 1e34f, 1e37f};
        const float bad[5] = {3e38f, 2e37f, 2e37f, 1e36f, 2e37f};
        for (int k = 0; k < 5; k++) {
            kf_builder *tb;
            kf_builder_create(NULL, &tb);
            kf_result built;
            if (k < 2) {
                kf_interpolator_desc d;
                kf_interpolator_desc_init(&d);
                d.name = "p";
                d.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR;
                d.key_count = d.value_count = 3;
                d.key = frac;
                d.key_value = kv;
                built = kf_builder_add_interpolator(tb, &d, NULL);
            } else if (k == 2) {
                kf_interpolator_desc d;
                kf_interpolator_desc_init(&d);
                d.name = "p";
                d.node = KF_NODE_SPLINE_SCALAR_INTERPOLATOR;
                d.key_count = d.value_count = 3;
                d.key = frac;
                d.key_value = (const double[3]){0, 1, 0};
                d.velocity_count = 2;
                d.key_velocity = vel;
                built = kf_builder_add_interpolator(tb, &d, NULL);
            } else if (k == 4) { /* a SPLINE sequence's own key */
                kf_sequence_desc d;
                kf_sequence_desc_init(&d);
                d.name = "s";
                d.interpolation = KF_INTERPOLATION_SPLINE;
                d.duration = 2;
                d.components = 1;
                d.key_count = 3;
                d.times = t3;
                d.values = v3;
                d.valid_last = 2;
                built = kf_builder_add_sequence(tb, &d, NULL);
            } else {
                kf_sequence_desc d = {"h",
                                      KF_INTERPOLATION_HERMITE,
                                      KF_REPEAT_CONSTANT,
                                      1000,
                                      1,
                                      3,
                                      t3,
                                      v3,
                                      0,
                                      2,
                                      NULL,
                                      0,
                                      ht};
                static const double t1000[3] = {0, 500, 1000};
                d.times = t1000;
                built = kf_builder_add_sequence(tb, &d, NULL);
            }
            CHECK(built == KF_OK, "tangent range case %d builds", k);
            test_bytes f = encode_version(tb, 0, 1);
            kf_builder_destroy(tb);
            uint32_t want, to;
            memcpy(&want, &legal[k], 4);
            memcpy(&to, &bad[k], 4);
            size_t found = 0;
            for (size_t at = 0; at + 4 <= f.size; at++) /* sections need not be aligned */
                if (craft_get(f.data + at) == want) {
                    craft_put(f.data + at, to);
                    found++;
                }
            CHECK(found >= 1, "case %d: the legal number is in the file", k);
            craft_fix_crcs(f.data, f.size);
            kf_error err;
            kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, &err);
            CHECK(r == KF_ERROR_VALUE && strstr(err.message, k == 3 ? "duration" : "beyond"),
                  "tangent range case %d: %s (%s)", k, kf_result_name(r),
                  r == KF_OK ? "" : err.message);
            if (r == KF_OK)
                kf_anim_free(anim);
            free(f.data);
        }
    }

    /* A SLERP key the builder would have normalized (found by fuzz_load: it
     * loaded, then decompiled into a source that compiles to another file). */
    {
        static const double t2[2] = {0, 1}, q2[8] = {0, 0, 0, 1, 0, 0.6, 0, 0.8};
        kf_sequence_desc q = {
            "q", KF_INTERPOLATION_SLERP, KF_REPEAT_CONSTANT, 1, 4, 2, t2, q2, 0, 1, NULL, 0, NULL};
        kf_builder *qb;
        kf_builder_create(NULL, &qb);
        CHECK(kf_builder_add_sequence(qb, &q, NULL) == KF_OK, "slerp sequence");
        for (int k = 0; k < 2; k++) {
            size_t body;
            unsigned char *data;
            test_bytes f = plain_file(qb, &body, &data);
            CHECK(data != NULL, "slerp file sections");
            if (!data) {
                free(f.data);
                break;
            }
            uint32_t values = craft_get(f.data + body + 4 * 9);
            /* k 0: x = 2, far from unit; k 1: x = 2^-11, |q|^2 = 1 + 2^-22, within
             * KF_UNIT_QUAT_TOLERANCE (kfc keeps such a key as written). */
            craft_put(data + 4 * values,
                      k == 0 ? 0x40000000u /* 2.0 */ : 0x3A000000u /* 2^-11: |q|^2 = 1 + 2^-22 */);
            craft_fix_crcs(f.data, f.size);
            kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, NULL);
            CHECK(r == (k == 0 ? KF_ERROR_VALUE : KF_OK), "slerp key %d: %s", k, kf_result_name(r));
            if (r == KF_OK)
                kf_anim_free(anim);
            free(f.data);
        }
        kf_builder_destroy(qb);
    }

    /* Quaternions pass on unit length alone, which no infinite or NaN
     * component has: each bad word of a SQUAD sequence's keys, a and b is
     * still named for what it is. Five keys: the first four are tested in
     * float first, where SSE2 has them (kf_validate.c, units_surely), and
     * |q|^2 - 1 between that test's margin and KF_UNIT_QUAT_TOLERANCE is
     * left to the double test, which passes it. */
    {
        static const double t5[5] = {0, 1, 2, 3, 4};
        static const double q5[20] = {0, 0,   0, 1, 0, 0.6, 0, 0.8, 0.6, 0,
                                      0, 0.8, 0, 0, 0, 1,   0, 0.6, 0,   0.8};
        kf_sequence_desc q = {
            "q", KF_INTERPOLATION_SQUAD, KF_REPEAT_CONSTANT, 4, 4, 5, t5, q5, 0, 4, NULL, 0, NULL};
        kf_builder *qb;
        kf_builder_create(NULL, &qb);
        CHECK(kf_builder_add_sequence(qb, &q, NULL) == KF_OK, "squad sequence");
        static const struct {
            int array;     /* 0 the keys, 1 a, 2 b */
            uint32_t word; /* put in key 1's y */
            const char *want;
        } cases[] = {
            {0, 0x7FC00000u, "key 1 component 1 is not a finite number"},
            {0, 0x40000000u, "key 1 is not a unit quaternion"},
            {1, 0x7F800000u, "tangent of key 1 is not a finite number"},
            {2, 0xFFC00000u, "tangent of key 1 is not a finite number"},
            {1, 0x40000000u, "intermediate a of key 1 is not a unit quaternion"},
            {2, 0x40000000u, "intermediate b of key 1 is not a unit quaternion"},
            {0, 0x3F1999A6u, NULL}, /* y 0.60000074: |q|^2 - 1 = 9.06e-7 (in float 9.5e-7) */
            {0, 0x3F1999AEu, "key 1 is not a unit quaternion"}, /* 1.48e-6 */
        };
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            size_t body;
            unsigned char *data;
            test_bytes f = plain_file(qb, &body, &data);
            CHECK(data != NULL, "squad file sections");
            if (!data) {
                free(f.data);
                break;
            }
            const uint32_t values = craft_get(f.data + body + 4 * 9),
                           tangents = craft_get(f.data + body + 4 * 10);
            /* version 1: a, then b, of the five keys */
            const uint32_t at = cases[k].array == 0 ? values : tangents + 20 * (cases[k].array - 1);
            craft_put(data + 4 * (at + 4 + 1), cases[k].word);
            craft_fix_crcs(f.data, f.size);
            kf_error err;
            kf_result r = kf_load_memory(f.data, f.size, NULL, &anim, &err);
            CHECK(cases[k].want ? r == KF_ERROR_VALUE && strstr(err.message, cases[k].want)
                                : r == KF_OK,
                  "squad case %zu: %s (%s)", k, kf_result_name(r),
                  r == KF_OK ? "loaded" : err.message);
            if (r == KF_OK)
                kf_anim_free(anim);
            free(f.data);
        }
        kf_builder_destroy(qb);
    }

    /* Arguments. */
    CHECK(kf_load_memory(NULL, 10, NULL, &anim, NULL) == KF_ERROR_ARGUMENT, "NULL data");
    CHECK(kf_load_memory(plain.data, plain.size, NULL, NULL, NULL) == KF_ERROR_ARGUMENT,
          "NULL out");
    kf_load_options old = {4, NULL, 0};
    CHECK(kf_load_memory(plain.data, plain.size, &old, &anim, NULL) == KF_ERROR_ARGUMENT,
          "options of an unknown size");
    CHECK(kf_load_file("/nonexistent/x.kfb", NULL, &anim, NULL) == KF_ERROR_IO && !anim, "no file");
    /* A folder opens and fails to read: the message names it, and why. */
    kf_error fe;
    const kf_result fr = kf_load_file(".", NULL, &anim, &fe);
    CHECK(fr == KF_ERROR_IO && !anim && strstr(fe.message, "cannot read '.': ") &&
              strlen(fe.message) > strlen("cannot read '.': "),
          "a folder: %s (%s)", kf_result_name(fr), fe.message);

    argument_messages(&plain);
    trailing_messages(&plain);
    error_locations();

    free(plain.data);
    free(zipped.data);
    return kf_test_report("test_read_errors");
}
