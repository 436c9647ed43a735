/*
 * kf_write.c - the .kfb writer. Its mirror is runtime/kf_read.c: each section
 * and record is written here in the order the reader reads it.
 */
#include <string.h>
#include <zlib.h>

#include "kf_write.h"

typedef kf_bytes buffer;

/* Appends `count` host-order words in file order. */
static void put_words(buffer *b, const void *words, uint32_t count)
{
    unsigned char *at = kf_bytes_grow(b, (size_t)count * 4);
    if (!at)
        return;
    memcpy(at, words, (size_t)count * 4);
    kfb_word_swap(at, count);
}

static void put_bytes(buffer *b, const void *bytes, size_t size)
{
    unsigned char *at = kf_bytes_grow(b, size);
    if (at && size)
        memcpy(at, bytes, size);
}

/* Offset of `name` in the string table, appended. */
static uint32_t put_string(buffer *strings, const char *name)
{
    uint32_t offset = (uint32_t)strings->size;
    put_bytes(strings, name, strlen(name) + 1);
    return offset;
}

/* Word offset of `count` floats appended to the data section. */
static uint32_t put_floats(buffer *data, const float *f, size_t count)
{
    uint32_t offset = (uint32_t)(data->size / 4);
    put_words(data, f, (uint32_t)count);
    return offset;
}

static void put_object(buffer *objects, uint32_t type, const void *record, uint32_t words)
{
    kfb_object header = {type, words * 4};
    put_words(objects, &header, KFB_WORDS(kfb_object));
    put_words(objects, record, words);
}

static kfb_f64 f64(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    kfb_f64 w = {(uint32_t)bits, (uint32_t)(bits >> 32)};
    return w;
}

/* ---- the three sections ------------------------------------------------- */

/* Sequences' key times, so that equal arrays are written once
 * (formats/kfb.md: a player then finds the segment once for all of them):
 * `at` holds each written sequence's times offset, `slots` is a hash table
 * of sequence indices + 1 (0: empty), at most half full. */
typedef struct times_table {
    uint32_t *at;
    uint32_t *slots;
    uint32_t  mask;
} times_table;

uint32_t kf_hash_times(const struct kf_sequence *s)
{
    const unsigned char *p = (const unsigned char *)s->times;
    uint32_t h = 2166136261u ^ s->key_count;
    for (size_t i = 0; i < (size_t)s->key_count * sizeof *s->times; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* The data offset of sequence i's key times: an earlier equal array's, or
 * a new one's. */
static uint32_t put_times(buffer *data, const kf_objects *o, uint32_t i, times_table *t)
{
    const struct kf_sequence *s = &o->sequences[i];
    uint32_t slot = kf_hash_times(s) & t->mask;
    for (; t->slots[slot]; slot = (slot + 1) & t->mask) {
        const struct kf_sequence *e = &o->sequences[t->slots[slot] - 1];
        if (e->key_count == s->key_count &&
            memcmp(e->times, s->times, (size_t)s->key_count * sizeof *s->times) == 0)
            return t->at[t->slots[slot] - 1];
    }
    t->slots[slot] = i + 1;
    return put_floats(data, s->times, s->key_count);
}

void kf_write_sequence_data(kf_bytes *data, const struct kf_sequence *s, kfb_sequence *r)
{
    const uint32_t tc = kf_sequence_tangent_count(s->interpolation, s->valid_count, s->components);
    const uint32_t ac = kf_sequence_arc_count(s->interpolation, s->valid_count);
    r->values = put_floats(data, s->values, (size_t)s->key_count * s->components);
    r->tangents = r->tcb = r->arc_length = KFB_NONE;
    if (tc || ac) {
        r->tangents = (uint32_t)(data->size / 4);
        if (tc) {
            put_floats(data, s->tangent_out, tc);
            put_floats(data, s->tangent_in, tc);
        }
        if (ac)
            put_floats(data, s->arcs, ac);
    }
    if (s->tcb)
        r->tcb = put_floats(data, s->tcb, 3 * (size_t)s->key_count);
    if (s->key_tangents)
        r->tcb = put_floats(data, s->key_tangents, 2 * (size_t)s->key_count * s->components);
    if (s->arc_length)
        r->arc_length = put_floats(data, s->arc_length,
                                   (size_t)kfb_arc_length_floats(s->repeat, s->valid_count));
}

uint32_t kf_write_floats(kf_bytes *data, const float *f, size_t count)
{
    return put_floats(data, f, count);
}

static void encode_objects(const kf_objects *o, buffer *strings, buffer *objects, buffer *data,
                           times_table *times)
{
    for (uint32_t i = 0; i < o->count[KF_KIND_SEQUENCE]; i++) {
        const struct kf_sequence *s = &o->sequences[i];
        times->at[i] = put_times(data, o, i, times);
        kfb_sequence r = {
            .name = put_string(strings, s->name),
            .interpolation = s->interpolation,
            .repeat = s->repeat,
            .components = s->components,
            .key_count = s->key_count,
            .valid_first = s->valid_first,
            .valid_count = s->valid_count,
            .duration = s->duration,
            .times = times->at[i],
        };
        kf_write_sequence_data(data, s, &r);
        put_object(objects, KFB_OBJECT_SEQUENCE, &r, KFB_WORDS(r));
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_INTERPOLATOR]; i++) {
        const struct kf_interpolator *p = &o->interpolators[i];
        const size_t d = kf_node_dimension((kf_node)p->node);
        const uint64_t derived = kf_interpolator_derived_count(p);
        kfb_interpolator r = {
            .name = put_string(strings, p->name),
            .node = p->node,
            .key_count = p->key_count,
            .value_count = p->value_count,
            .velocity_count = p->velocity_count,
            .flags = p->flags,
            .keys = put_floats(data, p->keys, p->key_count),
            .values = put_floats(data, p->values, p->value_count * d),
            .velocities = KFB_NONE,
            .derived = KFB_NONE,
        };
        if (p->velocity_count)
            r.velocities = put_floats(data, p->velocities, p->velocity_count * d);
        if (derived)
            r.derived = put_floats(data, p->derived, (size_t)derived);
        put_object(objects, KFB_OBJECT_INTERPOLATOR, &r, KFB_WORDS(r));
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_FOLLOWER]; i++) {
        const struct kf_follower *f = &o->followers[i];
        const uint32_t field = kf_follower_field_floats(f);
        kfb_follower r = {
            .name = put_string(strings, f->name),
            .node = f->node,
            .element_count = f->element_count,
            .duration = f->duration,
            .order = f->order,
            .tolerance = f->tolerance,
            .initial_value = put_floats(data, f->initial_value, field),
            .initial_destination = put_floats(data, f->initial_destination, field),
            .rotations = KFB_NONE,
        };
        if (kf_follower_rotation_floats(f->node))
            r.rotations = put_floats(data, f->rotations, kf_follower_rotation_floats(f->node));
        put_object(objects, KFB_OBJECT_FOLLOWER, &r, KFB_WORDS(r));
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_CONTROLLER]; i++) {
        const struct kf_controller *c = &o->controllers[i];
        kfb_controller r = {put_string(strings, c->name), f64(c->speed), f64(c->weight),
                            f64(c->active_start), f64(c->active_end), f64(c->ref_world),
                            f64(c->ref_sequence)};
        put_object(objects, KFB_OBJECT_CONTROLLER, &r, KFB_WORDS(r));
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_TARGET]; i++) {
        const kf_target *t = &o->targets[i];
        kfb_target r = {put_string(strings, t->name), t->property, t->components};
        put_object(objects, KFB_OBJECT_TARGET, &r, KFB_WORDS(r));
    }
    for (uint32_t i = 0; i < o->count[KF_KIND_TRACK]; i++) {
        const kf_track *t = &o->tracks[i];
        kfb_track r = {t->animator_kind,
                       t->animator,
                       t->controller == KF_NO_INDEX ? KFB_NONE : t->controller,
                       t->target,
                       t->cycle_interval,
                       t->loop,
                       t->ease == KF_NO_INDEX ? KFB_NONE : t->ease};
        put_object(objects, KFB_OBJECT_TRACK, &r, KFB_WORDS(r));
    }
}

enum { COMPRESS_NO_MEMORY = -2, COMPRESS_FAILED = -1 };

/* Compresses `raw` into `out` if that makes it smaller; returns the
 * compression used, or COMPRESS_*. */
static int compress_section(const kf_allocator *a, const buffer *raw, int level, buffer *out)
{
    if (level == 0 || raw->size == 0)
        return KFB_COMPRESSION_NONE;
    z_stream z;
    memset(&z, 0, sizeof z);
    z.zalloc = kf_zlib_alloc;
    z.zfree = kf_zlib_free;
    z.opaque = (void *)a;
    int status = deflateInit(&z, level);
    if (status != Z_OK)
        return status == Z_MEM_ERROR ? COMPRESS_NO_MEMORY : COMPRESS_FAILED;
    uLong bound = deflateBound(&z, (uLong)raw->size);
    unsigned char *at = kf_bytes_grow(out, bound);
    if (!at) {
        deflateEnd(&z);
        return COMPRESS_NO_MEMORY;
    }
    z.next_in = raw->data;
    z.avail_in = (uInt)raw->size;
    z.next_out = at;
    z.avail_out = (uInt)bound;
    status = deflate(&z, Z_FINISH);
    out->size = z.total_out;
    deflateEnd(&z);
    if (status != Z_STREAM_END)
        return COMPRESS_FAILED;
    return out->size < raw->size ? KFB_COMPRESSION_ZLIB : KFB_COMPRESSION_NONE;
}

kf_result kf_write_objects(const kf_allocator *allocator, const kf_objects *o, int compression,
                           const kf_data_packer *packer, kf_write_fn write, void *user,
                           kf_error *error)
{
    const kf_allocator a = *allocator;
    buffer raw[KFB_SECTION_COUNT], packed[KFB_SECTION_COUNT];
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        raw[i] = (buffer){&a, NULL, 0, 0, 0};
        packed[i] = (buffer){&a, NULL, 0, 0, 0};
    }
    kf_result result = KF_OK;
    uint32_t packed_crc = 0;
    int packed_crc_known = 0;
    const uint32_t sequences = o->count[KF_KIND_SEQUENCE];
    if (sequences > (1u << 29))
        return kf_fail(error, KF_ERROR_TOO_LARGE, "%u sequences", (unsigned)sequences);
    uint32_t capacity = 16;
    while (capacity < 2 * (uint64_t)sequences)
        capacity *= 2;
    times_table times = {kf_calloc(&a, sequences + 1, sizeof(uint32_t)),
                         kf_calloc(&a, capacity, sizeof(uint32_t)), capacity - 1};
    /* The sequences' arrays are nearly all of DATA: room for them up front
     * saves copying megabytes as the buffer doubles. */
    uint64_t data_bytes = 0;
    for (uint32_t i = 0; i < sequences; i++) {
        const struct kf_sequence *s = &o->sequences[i];
        data_bytes += 4 * ((uint64_t)s->key_count * (1 + (uint64_t)s->components + (s->tcb ? 3 : 0) +
                                                   (s->key_tangents ? 2 * (uint64_t)s->components : 0)) +
                           2 * (uint64_t)kf_sequence_tangent_count(s->interpolation, s->valid_count,
                                                                   s->components) +
                           kf_sequence_arc_count(s->interpolation, s->valid_count) +
                           (s->arc_length ? kfb_arc_length_floats(s->repeat, s->valid_count) : 0));
    }
    if (data_bytes && data_bytes <= UINT32_MAX &&
        kf_bytes_grow(&raw[KFB_SECTION_DATA], (size_t)data_bytes))
        raw[KFB_SECTION_DATA].size = 0;
    if (times.at && times.slots)
        encode_objects(o, &raw[KFB_SECTION_STRINGS], &raw[KFB_SECTION_OBJECTS],
                       &raw[KFB_SECTION_DATA], &times);
    kf_free(&a, times.at, (sequences + 1) * sizeof(uint32_t));
    kf_free(&a, times.slots, capacity * sizeof(uint32_t));
    if (!times.at || !times.slots) {
        result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }

    static const uint32_t tags[KFB_SECTION_COUNT] = {KFB_TAG_STRINGS, KFB_TAG_OBJECTS, KFB_TAG_DATA};
    kfb_section_header headers[KFB_SECTION_COUNT];
    const buffer *stored[KFB_SECTION_COUNT];
    uint64_t file_size = KFB_HEADER_SIZE;
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        if (raw[i].failed) {
            result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        if (raw[i].size > UINT32_MAX) {
            result = kf_fail(error, KF_ERROR_TOO_LARGE, "section %d exceeds 4 GiB", i);
            goto done;
        }
        int method;
        if (i == KFB_SECTION_DATA && compression &&
            packer &&
            packer->pack(packer->user, compression, &raw[i], &packed[i], &packed_crc)) {
            method = packed[i].size < raw[i].size ? KFB_COMPRESSION_ZLIB : KFB_COMPRESSION_NONE;
            packed_crc_known = method == KFB_COMPRESSION_ZLIB;
        } else
            method = compress_section(&a, &raw[i], compression, &packed[i]);
        if (method == COMPRESS_NO_MEMORY) {
            result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory compressing section %d", i);
            goto done;
        }
        if (method < 0) {
            result = kf_fail(error, KF_ERROR_IO, "zlib failed compressing section %d", i);
            goto done;
        }
        stored[i] = method == KFB_COMPRESSION_ZLIB ? &packed[i] : &raw[i];
        headers[i] = (kfb_section_header){tags[i], (uint32_t)method, (uint32_t)stored[i]->size,
                                          (uint32_t)raw[i].size};
        file_size += KFB_SECTION_HEADER_SIZE + stored[i]->size + KFB_SECTION_CRC_SIZE;
    }
    if (file_size > UINT32_MAX) {
        result = kf_fail(error, KF_ERROR_TOO_LARGE, "the file would exceed 4 GiB");
        goto done;
    }

    /* Header and sections go out in file order through one small buffer. */
    buffer out = {&a, NULL, 0, 0, 0};
    kfb_header h = {(KFB_VERSION_MAJOR << 16) | KFB_VERSION_MINOR, KFB_PROBE_INT, KFB_PROBE_FLOAT,
                    KFB_SECTION_COUNT, (uint32_t)file_size, 0};
    put_bytes(&out, KFB_IDENTIFIER, KFB_IDENTIFIER_SIZE);
    put_words(&out, &h, KFB_WORDS(kfb_header) - 1);
    if (out.failed) {
        kf_bytes_free(&out);
        result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    uint32_t crc = (uint32_t)crc32(0L, out.data, (uInt)out.size);
    put_words(&out, &crc, 1);
    int failed = out.failed || write(user, out.data, out.size) != 0;
    for (int i = 0; i < KFB_SECTION_COUNT && !failed; i++) {
        out.size = 0;
        put_words(&out, &headers[i], KFB_WORDS(kfb_section_header));
        if (out.failed)
            break;
        crc = (uint32_t)crc32(0L, out.data, (uInt)out.size);
        if (i == KFB_SECTION_DATA && packed_crc_known) /* the compressor kept it */
            crc = (uint32_t)crc32_combine(crc, packed_crc, (z_off_t)stored[i]->size);
        else if (stored[i]->size) /* zlib restarts the checksum on a NULL buffer */
            crc = (uint32_t)crc32_z(crc, stored[i]->data, stored[i]->size);
        failed = write(user, out.data, out.size) != 0 ||
                 (stored[i]->size && write(user, stored[i]->data, stored[i]->size) != 0);
        out.size = 0;
        put_words(&out, &crc, 1);
        failed = failed || out.failed || write(user, out.data, out.size) != 0;
    }
    if (out.failed)
        result = kf_fail(error, KF_ERROR_OUT_OF_MEMORY, "out of memory");
    else if (failed)
        result = kf_fail(error, KF_ERROR_IO, "writing the output failed");
    kf_bytes_free(&out);

done:
    for (int i = 0; i < KFB_SECTION_COUNT; i++) {
        kf_bytes_free(&raw[i]);
        kf_bytes_free(&packed[i]);
    }
    return result;
}
