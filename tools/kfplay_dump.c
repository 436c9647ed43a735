/* SPDX-License-Identifier: MIT */
/*
 * Every check here only decides what can be printed safely: the verdict on
 * the file is libkf's (kf_load_memory, printed last). The layout is read
 * through formats/kfb_format.h alone, never through the reader's internals.
 */
#include "kfplay_dump.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "kf.h"
#include "kfb_codes.h"
#include "kfc_number.h"
#include "kfc_text.h"
#include "kfplay_args.h"
#include "kfplay_input.h"

typedef struct section {
    int present;
    const unsigned char *raw; /* decompressed (or stored) bytes */
    uint32_t size;            /* raw_size */
    unsigned char *owned;
} section;

typedef struct dump {
    section sections[KFB_SECTION_COUNT];
    uint32_t version; /* the header's (major << 16 | minor) */
    int damage;       /* something is wrong with the file */
    int no_memory;    /* something could not be checked for want of memory */
} dump;

/* The reason a check could not be made, told apart from the file's damage
 * by its address. */
static const char out_of_memory[] = "out of memory";

static void damaged(dump *d, const char *what)
{
    if (what == out_of_memory)
        d->no_memory = 1;
    else
        d->damage = 1;
    printf("  %s: %s\n", what == out_of_memory ? "error" : "damage", what);
}

static uint32_t word_at(const unsigned char *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    kfb_word_swap(&w, 1);
    return w;
}

/* A name from STRINGS, quoted as kfc and kfplay's messages quote one
 * (kfc_text.h), or a description of why there is none. */
static void print_name(const dump *d, uint32_t offset)
{
    const section *s = &d->sections[KFB_SECTION_STRINGS];
    if (!s->present || offset >= s->size || !memchr(s->raw + offset, 0, s->size - offset)) {
        printf("<bad name @%u>", (unsigned)offset);
        return;
    }
    kfc_text_put_name(stdout, (const char *)s->raw + offset, 1);
}

/* A DATA array: its word offset and, when the record says, its length;
 * flagged when it runs past the section. */
static void print_array(dump *d, const char *field, uint32_t offset, uint64_t floats)
{
    if (offset == KFB_NONE) {
        printf(" %s=-", field);
        return;
    }
    const uint64_t words = d->sections[KFB_SECTION_DATA].size / 4u;
    if (floats)
        printf(" %s=@%u[%llu]", field, (unsigned)offset, (unsigned long long)floats);
    else
        printf(" %s=@%u", field, (unsigned)offset);
    if ((uint64_t)offset + (floats ? floats : 1) > words) {
        fputs("(outside DATA)", stdout);
        d->damage = 1;
    }
}

static double f64(kfb_f64 v)
{
    uint64_t bits = (uint64_t)v.hi << 32 | v.lo;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static const char *or_unknown(const char *name)
{
    return name ? name : "?";
}

static void print_sequence(dump *d, const kfb_sequence *r)
{
    fputs("sequence ", stdout);
    print_name(d, r->name);
    printf(" interpolation=%s repeat=%s components=%u keys=%u valid_first=%u valid_count=%u "
           "duration=%.9g\n   ",
           or_unknown(kf_interpolation_name((kf_interpolation)r->interpolation)),
           or_unknown(kf_repeat_name((kf_repeat)r->repeat)), (unsigned)r->components,
           (unsigned)r->key_count, (unsigned)r->valid_first, (unsigned)r->valid_count, r->duration);
    print_array(d, "times", r->times, r->key_count);
    print_array(d, "values", r->values, (uint64_t)r->key_count * r->components);
    print_array(d, "tangents", r->tangents, 0);
    if (r->interpolation == KFB_INTERP_HERMITE)
        print_array(d, "key_tangents", r->tcb, (uint64_t)r->key_count * 2u * r->components);
    else
        print_array(d, "tcb", r->tcb, (uint64_t)r->key_count * 3u);
    print_array(d, "arc_length", r->arc_length,
                r->valid_count && r->repeat < KFB_REPEAT_COUNT
                    ? kfb_arc_length_floats(r->repeat, r->valid_count)
                    : 0);
    putchar('\n');
}

static void print_controller(dump *d, const kfb_controller *r)
{
    fputs("controller ", stdout);
    print_name(d, r->name);
    /* The shortest text that reads back, as kfc -d and kfplay list write. */
    const double v[6] = {f64(r->speed),      f64(r->weight),    f64(r->active_start),
                         f64(r->active_end), f64(r->ref_world), f64(r->ref_sequence)};
    char t[6][KFC_NUMBER_TEXT];
    for (int k = 0; k < 6; k++)
        kfc_format_double(t[k], v[k]);
    printf(" speed=%s weight=%s active=%s..%s reference=%s,%s\n", t[0], t[1], t[2], t[3], t[4],
           t[5]);
}

static void print_target(dump *d, const kfb_target *r)
{
    fputs("target ", stdout);
    print_name(d, r->name);
    const uint32_t property = r->property & KFB_TARGET_PROPERTY_MASK;
    printf(" property=%s components=%u%s\n",
           property == KFB_PROPERTY_CUSTOM ? "custom"
                                           : or_unknown(kf_property_name((kf_property)property)),
           (unsigned)r->components, r->property & KFB_TARGET_LATEST ? " blend=latest" : "");
}

/* `r` of any version, its cycle interval widened. */
static void print_track(const kfb_track_f32 *r, double cycle_interval)
{
    static const char *const kinds[] = {"sequence", "interpolator", "follower"};
    printf("track animator=%s#%u controller=",
           r->animator_kind < KFB_ANIMATOR_KIND_COUNT ? kinds[r->animator_kind] : "?",
           (unsigned)r->animator);
    if (r->controller == KFB_NONE)
        putchar('-');
    else
        printf("#%u", (unsigned)r->controller);
    printf(" target=#%u", (unsigned)r->target);
    if (r->animator_kind == KFB_ANIMATOR_INTERPOLATOR) {
        char cycle[KFC_NUMBER_TEXT];
        kfc_format_double(cycle, cycle_interval);
        printf(" cycle_interval=%s loop=%u ease=", cycle, (unsigned)r->loop);
        if (r->ease == KFB_NONE)
            putchar('-');
        else
            printf("#%u", (unsigned)r->ease);
    }
    putchar('\n');
}

static void print_interpolator(dump *d, const kfb_interpolator *r)
{
    fputs("interpolator ", stdout);
    print_name(d, r->name);
    printf(" node=%s keys=%u values=%u velocities=%u flags=%#x\n   ",
           or_unknown(kf_node_name((kf_node)r->node)), (unsigned)r->key_count,
           (unsigned)r->value_count, (unsigned)r->velocity_count, (unsigned)r->flags);
    print_array(d, "keys", r->keys, r->key_count);
    print_array(d, "values", r->values, 0);
    print_array(d, "velocities", r->velocities, 0);
    print_array(d, "derived", r->derived, 0);
    putchar('\n');
}

static void print_follower(dump *d, const kfb_follower *r)
{
    fputs("follower ", stdout);
    print_name(d, r->name);
    /* The record's one time field is a chaser's duration and a damper's
     * tau; named as list and the source name it. */
    printf(" node=%s elements=%u %s=%.9g order=%u tolerance=%.9g\n   ",
           or_unknown(kf_follower_node_name((kf_follower_node)r->node)), (unsigned)r->element_count,
           kf_follower_node_is_damper((kf_follower_node)r->node) ? "tau" : "duration", r->duration,
           (unsigned)r->order, r->tolerance);
    print_array(d, "initial_value", r->initial_value, 0);
    print_array(d, "initial_destination", r->initial_destination, 0);
    print_array(d, "rotations", r->rotations, 0);
    putchar('\n');
}

/* Copies a record body of exactly `size` bytes into host order. */
#define RECORD(type, var, body, size)                                                              \
    type var;                                                                                      \
    if ((size) != sizeof var) {                                                                    \
        printf("%s: body of %u bytes, not %u\n", #type, (unsigned)(size), (unsigned)sizeof var);   \
        d->damage = 1;                                                                             \
        break;                                                                                     \
    }                                                                                              \
    memcpy(&var, body, sizeof var);                                                                \
    kfb_word_swap(&var, KFB_WORDS(type))

static void print_objects(dump *d)
{
    const section *s = &d->sections[KFB_SECTION_OBJECTS];
    if (!s->present)
        return;
    puts("objects:");
    uint32_t pos = 0, index = 0;
    while (pos < s->size) {
        if (s->size - pos < sizeof(kfb_object)) {
            damaged(d, "a partial object header at the end of OBJECTS");
            return;
        }
        kfb_object head;
        memcpy(&head, s->raw + pos, sizeof head);
        kfb_word_swap(&head, KFB_WORDS(kfb_object));
        const uint32_t body_at = pos + (uint32_t)sizeof head;
        if (head.size > s->size - body_at) {
            printf("  #%u @%u type=%u size=%u\n", (unsigned)index, (unsigned)pos,
                   (unsigned)head.type, (unsigned)head.size);
            damaged(d, "the object runs past the end of OBJECTS");
            return;
        }
        const unsigned char *body = s->raw + body_at;
        printf("  #%u @%u ", (unsigned)index, (unsigned)pos);
        switch (head.type) {
        case KFB_OBJECT_SEQUENCE: {
            RECORD(kfb_sequence, r, body, head.size);
            print_sequence(d, &r);
            break;
        }
        case KFB_OBJECT_CONTROLLER: {
            RECORD(kfb_controller, r, body, head.size);
            print_controller(d, &r);
            break;
        }
        case KFB_OBJECT_TARGET: {
            RECORD(kfb_target, r, body, head.size);
            print_target(d, &r);
            break;
        }
        case KFB_OBJECT_TRACK: {
            if (!kfb_has(d->version, KFB_SINCE_F64_CYCLE)) {
                RECORD(kfb_track_f32, r, body, head.size);
                print_track(&r, r.cycle_interval);
                break;
            }
            RECORD(kfb_track, r, body, head.size);
            const kfb_track_f32 fields = {r.animator_kind, r.animator, r.controller, r.target, 0,
                                          r.loop,          r.ease};
            print_track(&fields, f64(r.cycle_interval));
            break;
        }
        case KFB_OBJECT_INTERPOLATOR: {
            RECORD(kfb_interpolator, r, body, head.size);
            print_interpolator(d, &r);
            break;
        }
        case KFB_OBJECT_FOLLOWER: {
            RECORD(kfb_follower, r, body, head.size);
            print_follower(d, &r);
            break;
        }
        default:
            printf("unknown type %u, %u bytes\n", (unsigned)head.type, (unsigned)head.size);
            d->damage = 1;
            break;
        }
        pos = body_at + head.size;
        index++;
    }
    printf("  %u objects\n", (unsigned)index);
}

/* DATA's pieces (kfb_format.h, KFB_ZERO_RUN_WORDS; `length` bytes at
 * `stream`) placed into the `size` bytes at `raw`, the zero runs they leave
 * out written. NULL, or what is wrong. */
static const char *place_pieces(const unsigned char *stream, size_t length, unsigned char *raw,
                                size_t size)
{
    size_t at = 0, k = 0, pieces = 0, left_out = 0;
    while (at < size) {
        uint32_t piece[2];
        if (length - k < sizeof piece)
            return "the pieces end before the section";
        memcpy(piece, stream + k, sizeof piece);
        kfb_word_swap(piece, 2);
        k += sizeof piece;
        const size_t words = (size - at) / 4;
        if (!kfb_piece_fits(piece[0], piece[1], words) || length - k < 4 * (size_t)piece[0])
            return "a piece does not fit the section";
        memcpy(raw + at, stream + k, 4 * (size_t)piece[0]);
        k += 4 * (size_t)piece[0];
        at += 4 * (size_t)piece[0];
        memset(raw + at, 0, 4 * (size_t)piece[1]);
        at += 4 * (size_t)piece[1];
        left_out += 4 * (size_t)piece[1];
        pieces++;
    }
    if (k != length)
        return "the pieces go on after the section";
    printf("    %zu pieces, %zu zero bytes left out\n", pieces, left_out);
    return NULL;
}

/* A 2.3 zlib DATA stream into the `size` bytes at `raw`: inflated whole,
 * then its pieces placed. NULL, or what is wrong. */
static const char *inflate_pieces(const unsigned char *stored, uint32_t stored_size,
                                  unsigned char *raw, size_t size)
{
    /* A piece places at least one word for its 8 header bytes: 3 bytes of
     * stream per byte of section at most. */
    uLongf length = (uLongf)size * 3 + 8;
    unsigned char *stream = malloc(length);
    if (!stream)
        return out_of_memory;
    const char *why = uncompress(stream, &length, stored, stored_size) != Z_OK
                          ? "the zlib stream is damaged"
                          : place_pieces(stream, length, raw, size);
    free(stream);
    return why;
}

/* Section i at `*pos`: prints its header, checks its CRC, inflates it. */
static int read_section(dump *d, int i, const unsigned char *file, size_t size, size_t *pos)
{
    static const uint32_t tags[KFB_SECTION_COUNT] = {KFB_TAG_STRINGS, KFB_TAG_OBJECTS,
                                                     KFB_TAG_DATA};
    kfb_section_header h;
    if (!kfb_section_header_at(file, size, *pos, &h)) {
        printf("  section %d @%zu: ", i, *pos);
        damaged(d, "the file ends inside the section header");
        return 0;
    }
    char tag[5];
    printf("  %s @%zu %s stored=%u raw=%u", kfb_tag_text(h.tag, tag), *pos,
           h.compression == KFB_COMPRESSION_ZLIB   ? "zlib"
           : h.compression == KFB_COMPRESSION_NONE ? "stored"
           : h.compression == KFB_COMPRESSION_RUNS ? "runs"
                                                   : "compression=?",
           (unsigned)h.stored_size, (unsigned)h.raw_size);
    if (h.raw_size)
        printf(" ratio=%.3f", (double)h.stored_size / h.raw_size);
    putchar('\n');
    if (h.tag != tags[i])
        damaged(d, "unexpected tag for this position");
    if (kfb_section_end(*pos, &h) > size) {
        damaged(d, "the file ends inside the section");
        return 0;
    }
    const unsigned char *stored = file + *pos + KFB_SECTION_HEADER_SIZE;
    const uint32_t crc = (uint32_t)crc32(0L, file + *pos, KFB_SECTION_HEADER_SIZE + h.stored_size);
    if (crc != word_at(stored + h.stored_size))
        damaged(d, "section CRC mismatch");
    *pos = (size_t)kfb_section_end(*pos, &h);

    section *s = &d->sections[i];
    if (h.compression == KFB_COMPRESSION_NONE) {
        if (h.raw_size != h.stored_size) {
            damaged(d, "a stored section whose raw size is not its stored size");
            return 1;
        }
        s->raw = stored;
    } else if (h.compression == KFB_COMPRESSION_ZLIB || h.compression == KFB_COMPRESSION_RUNS) {
        const int runs = h.compression == KFB_COMPRESSION_RUNS;
        if (runs && (i != KFB_SECTION_DATA || !kfb_has(d->version, KFB_SINCE_RUNS))) {
            damaged(d, "zero runs (compression 2) outside DATA, or before version 2.4");
            return 1;
        }
        if (!kfb_zlib_ratio_ok(h.raw_size, h.stored_size)) { /* not allocated */
            damaged(d, "the raw size is more than zlib can expand to");
            return 1;
        }
        s->owned = malloc(h.raw_size ? h.raw_size : 1);
        uLongf got = h.raw_size;
        if (!s->owned) {
            damaged(d, out_of_memory);
            return 1;
        }
        if (runs || (i == KFB_SECTION_DATA && kfb_has(d->version, KFB_SINCE_PIECES))) {
            const char *why = runs ? place_pieces(stored, h.stored_size, s->owned, h.raw_size)
                                   : inflate_pieces(stored, h.stored_size, s->owned, h.raw_size);
            if (why) {
                damaged(d, why);
                return 1;
            }
        } else if (uncompress(s->owned, &got, stored, h.stored_size) != Z_OK || got != h.raw_size) {
            damaged(d, "the zlib stream does not inflate to the raw size");
            return 1;
        }
        s->raw = s->owned;
    } else {
        damaged(d, "unknown compression");
        return 1;
    }
    s->size = h.raw_size;
    s->present = 1;
    return 1;
}

static void dump_bytes(dump *d, const unsigned char *file, size_t size)
{
    if (size < KFB_HEADER_SIZE) {
        puts("header:");
        damaged(d, "shorter than the header");
        return;
    }
    kfb_header h;
    memcpy(&h, file + KFB_IDENTIFIER_SIZE, sizeof h);
    kfb_word_swap(&h, KFB_WORDS(kfb_header));
    const uint32_t crc = (uint32_t)crc32(0L, file, KFB_HEADER_AT(header_crc));
    d->version = h.version;
    printf("header: version=%u.%u sections=%u file_size=%u header_crc=%08x\n",
           (unsigned)KFB_MAJOR_OF(h.version), (unsigned)KFB_MINOR_OF(h.version),
           (unsigned)h.section_count, (unsigned)h.file_size, (unsigned)h.header_crc);
    if (memcmp(file, KFB_IDENTIFIER, KFB_IDENTIFIER_SIZE) != 0)
        damaged(d, "not a .kfb identifier");
    if (h.probe_int != KFB_PROBE_INT || h.probe_float != KFB_PROBE_FLOAT)
        damaged(d, "byte-order or float probe mismatch");
    if (h.header_crc != crc)
        damaged(d, "header CRC mismatch");
    if (h.file_size != size)
        damaged(d, "file_size is not the file's size");
    if (h.section_count != KFB_SECTION_COUNT)
        damaged(d, "unexpected section count");

    puts("sections:");
    size_t pos = KFB_HEADER_SIZE;
    uint64_t raw = 0;
    for (int i = 0; i < KFB_SECTION_COUNT; i++)
        if (!read_section(d, i, file, size, &pos))
            break;
    for (int i = 0; i < KFB_SECTION_COUNT; i++)
        raw += d->sections[i].size;
    if (pos < size && !d->damage)
        damaged(d, "bytes after the last section");
    printf("  total: file=%zu raw=%llu", size, (unsigned long long)raw);
    if (raw)
        printf(" ratio=%.3f", (double)size / (double)raw);
    putchar('\n');
    print_objects(d);
}

int kfp_dump(const char *name, const kfp_input *in)
{
    dump d;
    memset(&d, 0, sizeof d);
    fputs("file: ", stdout);
    kfc_text_put_name(stdout, name, 0);
    /* (a stream is read only as far as its header says: kfplay_input.h) */
    printf(in->cut ? " (the first %zu bytes; more follow, not read)\n" : " (%zu bytes)\n",
           in->size);
    dump_bytes(&d, in->data, in->size);
    for (int i = 0; i < KFB_SECTION_COUNT; i++)
        free(d.sections[i].owned);

    /* libkf's verdict, which is the one that counts. */
    kf_anim *anim = NULL;
    kf_error err;
    const kf_result loaded = kfp_load(in, &anim, &err);
    if (loaded == KF_OK) {
        puts("load: ok");
        kf_anim_free(anim);
    } else {
        /* (the loader quotes names as kfplay does; the message is still
         * written with what a terminal acts on escaped, as every one is) */
        fputs("load: ", stdout);
        kfc_text_write(stdout, err.message);
        putchar('\n');
        if (loaded == KF_ERROR_OUT_OF_MEMORY)
            d.no_memory = 1;
        else
            d.damage = 1;
    }
    return d.no_memory ? KFP_EXIT_NOMEM : d.damage ? KFP_EXIT_INVALID : 0;
}
