/* SPDX-License-Identifier: MIT */
/*
 * kfc_gltf.c - glTF 2.0 animations -> kf_builder (kfc_gltf.h): the JSON
 * document, its animations, channels and samplers. Buffers and accessors
 * are kfc_gltf_data.c's.
 *
 * JSON is parsed by jansson: it reports syntax errors with line and
 * column, rejects duplicate keys, bounds nesting depth, and keeps integers
 * apart from reals, which glTF's index fields need.
 */
#include "kfc_gltf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_gltf_data.h"
#include "kfc_json_cost.h"

int kfc_gltf_detect(const char *path, const unsigned char *data, size_t size)
{
    if (size >= 4 && memcmp(data, "glTF", 4) == 0)
        return 1;
    if (!path)
        return 0;
    size_t n = strlen(path);
    static const char *const exts[] = {".gltf", ".glb"};
    for (size_t i = 0; i < 2; i++) {
        size_t e = strlen(exts[i]);
        if (n > e) {
            size_t k = 0;
            while (k < e && (path[n - e + k] | 0x20) == exts[i][k])
                k++;
            if (k == e)
                return 1;
        }
    }
    return 0;
}

/* Required extensions kfc may ignore: they concern meshes, materials,
 * textures, lights, instancing or metadata, never animation data.
 * (KHR_mesh_quantization's normalized rotations and weights are core glTF
 * and read as such.) */
static int ignorable_extension(const char *name)
{
    static const char *const names[] = {
        "KHR_mesh_quantization",
        "KHR_draco_mesh_compression",
        "KHR_lights_punctual",
        "KHR_technique_webgl",
        "KHR_xmp_json_ld",
        "KHR_xmp",
        "EXT_mesh_gpu_instancing",
        "EXT_lights_image_based",
        "MSFT_lod",
        "KHR_materials_variants",
    };
    static const char *const prefixes[] = {
        "KHR_materials_",
        "KHR_texture_",
        "EXT_texture_",
        "MSFT_texture_",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

static void note(const kfc_import_options *o, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note(const kfc_import_options *o, const char *format, ...)
{
    if (!o->notes)
        return;
    va_list args;
    char text[512], line[512];
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    kfc_gltf_escape(line, sizeof line, text); /* one line, whatever the names hold */
    fprintf(o->notes, "%s: note: %s\n", o->path ? o->path : "<stdin>", line);
}

static kfc_status check_extensions(kfc_gltf_doc *doc)
{
    const json_t *req = json_object_get(doc->root, "extensionsRequired");
    const json_t *used = json_object_get(doc->root, "extensionsUsed");
    if (req && !json_is_array(req))
        return kfc_gltf_fail(doc->diag, "/extensionsRequired", "expected an array of names");
    for (size_t i = 0; req && i < json_array_size(req); i++) {
        const json_t *e = json_array_get(req, i);
        char at[64];
        snprintf(at, sizeof at, "/extensionsRequired/%lu", (unsigned long)i);
        if (!json_is_string(e))
            return kfc_gltf_fail(doc->diag, at, "expected an extension name");
        if (!ignorable_extension(json_string_value(e)))
            return kfc_gltf_fail(doc->diag, at,
                                 "the file requires extension '%.80s', which kfc "
                                 "does not support",
                                 json_string_value(e));
    }
    for (size_t i = 0; json_is_array(used) && i < json_array_size(used); i++) {
        const json_t *e = json_array_get(used, i);
        if (json_is_string(e))
            note(doc->options, "extension '%s' ignored%s", json_string_value(e),
                 ignorable_extension(json_string_value(e)) ? " (not about animation)" : "");
    }
    return KFC_OK;
}

/* 1 when `name` is "node<digits>" naming another index than `index`: the
 * fallback name of that node, which a name must not take. */
static int takes_fallback(const char *name, size_t index)
{
    if (strncmp(name, "node", 4) != 0 || name[4] < '0' || name[4] > '9')
        return 0;
    char buf[32];
    snprintf(buf, sizeof buf, "node%lu", (unsigned long)index);
    for (const char *p = name + 4; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return strcmp(name, buf) != 0;
}

/* The name of `element` when it has one kfc can use (a non-empty string
 * without NUL), else NULL. */
static const char *usable_name(const json_t *element)
{
    const json_t *name = json_object_get(element, "name");
    if (!json_is_string(name) || json_string_length(name) == 0 ||
        strlen(json_string_value(name)) != json_string_length(name))
        return NULL;
    return json_string_value(name);
}

/* How many elements of `array` have each usable name: an object (a hash
 * table) name -> count, so that uniqueness costs O(1) a lookup, not a pass
 * over the array. NULL when out of memory. */
static json_t *name_counts(const json_t *array)
{
    json_t *counts = json_object();
    for (size_t i = 0; counts && i < json_array_size(array); i++) {
        const char *name = usable_name(json_array_get(array, i));
        if (!name)
            continue;
        json_int_t n = json_integer_value(json_object_get(counts, name));
        if (json_object_set_new(counts, name, json_integer(n + 1))) {
            json_decref(counts);
            counts = NULL;
        }
    }
    return counts;
}

/* The object name of node `index`: its name when no other node has it, else
 * "node<index>". */
static char *node_name(const kfc_gltf_doc *doc, const json_t *nodes, size_t index)
{
    const char *name = usable_name(json_array_get(nodes, index));
    int unique = name && !takes_fallback(name, index) &&
                 json_integer_value(json_object_get(doc->node_names, name)) == 1;
    char buf[32];
    const char *s = buf;
    if (unique)
        s = name;
    else
        snprintf(buf, sizeof buf, "node%lu", (unsigned long)index);
    char *copy = malloc(strlen(s) + 1);
    if (copy)
        strcpy(copy, s);
    return copy;
}

/* The number of morph targets of node `node`'s mesh, or 0 if it has none
 * the file states. */
static uint64_t morph_targets(const kfc_gltf_doc *doc, const json_t *node)
{
    const json_t *mesh_index = json_object_get(node, "mesh");
    if (!json_is_integer(mesh_index))
        return 0;
    const json_t *mesh = json_array_get(json_object_get(doc->root, "meshes"),
                                        (size_t)json_integer_value(mesh_index));
    const json_t *prims = json_object_get(mesh, "primitives");
    const json_t *targets = json_object_get(json_array_get(prims, 0), "targets");
    if (json_is_array(targets) && json_array_size(targets) > 0)
        return json_array_size(targets);
    const json_t *weights = json_object_get(mesh, "weights");
    return json_is_array(weights) ? json_array_size(weights) : 0;
}

enum { PATH_TRANSLATION, PATH_ROTATION, PATH_SCALE, PATH_WEIGHTS, PATH_COUNT };
static const char *const path_names[PATH_COUNT] = {"translation", "rotation", "scale", "weights"};
static const char *const property_names[PATH_COUNT] = {"translation", "orientation", "scale",
                                                       "morph_weights"};

typedef struct channel_data {
    kfc_gltf_accessor input, output;
} channel_data;

static void channel_free(channel_data *c)
{
    free(c->input.values);
    free(c->output.values);
}

static int output_type_allowed(int path, const kfc_gltf_accessor *a)
{
    if (a->component_type == GLTF_FLOAT)
        return 1;
    if (path == PATH_TRANSLATION || path == PATH_SCALE)
        return 0;
    return a->normalized && a->component_type != GLTF_UNSIGNED_INT;
}

/* One channel -> one sequence and its track. `targets` collects the
 * target names of the animation (a set, to refuse duplicates). */
static kfc_status add_channel(kfc_gltf_doc *doc, kf_builder *builder, size_t ai, const json_t *anim,
                              size_t ci, const char *controller, json_t *targets)
{
    char at[96], sat[96];
    snprintf(at, sizeof at, "/animations/%lu/channels/%lu", (unsigned long)ai, (unsigned long)ci);
    const json_t *ch = json_array_get(json_object_get(anim, "channels"), ci);
    if (!json_is_object(ch))
        return kfc_gltf_fail(doc->diag, at, "expected an object");
    int64_t sampler_index, node_index;
    kfc_status st = kfc_gltf_index(doc->diag, ch, "sampler", at, 1, &sampler_index);
    if (st)
        return st;
    const json_t *target = json_object_get(ch, "target");
    char tat[112];
    snprintf(tat, sizeof tat, "%s/target", at);
    if (!json_is_object(target))
        return kfc_gltf_fail(doc->diag, at, "missing required object 'target'");
    if ((st = kfc_gltf_index(doc->diag, target, "node", tat, 0, &node_index)))
        return st;
    const json_t *path_value = json_object_get(target, "path");
    if (!json_is_string(path_value))
        return kfc_gltf_fail(doc->diag, tat, "'path' must be a string");
    int path = 0;
    while (path < PATH_COUNT && strcmp(json_string_value(path_value), path_names[path]) != 0)
        path++;
    if (path == PATH_COUNT || node_index < 0) {
        /* Not an error: glTF lets extensions define other targets
         * (KHR_animation_pointer's "pointer"), and says to ignore what a
         * reader does not support unless the file requires it. */
        int pointer = strcmp(json_string_value(path_value), "pointer") == 0;
        if (pointer)
            note(doc->options,
                 "%s: channel skipped: a KHR_animation_pointer target (kfc "
                 "animates node translation, rotation, scale and weights)",
                 at);
        else if (path != PATH_COUNT)
            note(doc->options, "%s: channel skipped: no target node", at);
        else
            note(doc->options, "%s: channel skipped: path '%.60s' is not one kfc animates", at,
                 json_string_value(path_value));
        return KFC_OK;
    }
    const json_t *nodes = json_object_get(doc->root, "nodes");
    if (!json_is_array(nodes) || (size_t)node_index >= json_array_size(nodes))
        return kfc_gltf_fail(doc->diag, tat, "node %lld does not exist", (long long)node_index);
    const json_t *node = json_array_get(nodes, (size_t)node_index);
    if (!json_is_object(node)) {
        char np[64];
        snprintf(np, sizeof np, "/nodes/%lld", (long long)node_index);
        return kfc_gltf_fail(doc->diag, np, "expected an object");
    }
    /* The spec's rules for animated nodes: no matrix (it would override the
     * animated TRS), and weights only where the mesh has morph targets. */
    if (json_object_get(node, "matrix"))
        return kfc_gltf_fail(doc->diag, tat,
                             "node %lld has a 'matrix'; an animated node must "
                             "not",
                             (long long)node_index);
    if (path == PATH_WEIGHTS && morph_targets(doc, node) == 0)
        return kfc_gltf_fail(doc->diag, tat,
                             "node %lld has no mesh with morph targets to "
                             "weight",
                             (long long)node_index);
    const json_t *samplers = json_object_get(anim, "samplers");
    snprintf(sat, sizeof sat, "/animations/%lu/samplers/%lld", (unsigned long)ai,
             (long long)sampler_index);
    if (!json_is_array(samplers) || (size_t)sampler_index >= json_array_size(samplers)) {
        char sp[112];
        snprintf(sp, sizeof sp, "%s/sampler", at);
        return kfc_gltf_fail(doc->diag, sp, "sampler %lld does not exist",
                             (long long)sampler_index);
    }
    const json_t *sampler = json_array_get(samplers, (size_t)sampler_index);
    if (!json_is_object(sampler))
        return kfc_gltf_fail(doc->diag, sat, "expected an object");
    const json_t *interp = json_object_get(sampler, "interpolation");
    const char *interp_name = interp ? json_string_value(interp) : "LINEAR";
    int cubic = 0;
    kf_interpolation interpolation;
    if (!interp_name) {
        return kfc_gltf_fail(doc->diag, sat, "'interpolation' must be a string");
    } else if (strcmp(interp_name, "LINEAR") == 0) {
        interpolation = path == PATH_ROTATION ? KF_INTERPOLATION_SLERP : KF_INTERPOLATION_LINEAR;
    } else if (strcmp(interp_name, "STEP") == 0) {
        interpolation = KF_INTERPOLATION_STEP;
    } else if (strcmp(interp_name, "CUBICSPLINE") == 0) {
        interpolation = KF_INTERPOLATION_HERMITE;
        cubic = 1;
    } else {
        char ip[112];
        snprintf(ip, sizeof ip, "%s/interpolation", sat);
        return kfc_gltf_fail(doc->diag, ip,
                             "unknown interpolation '%.40s' (expected LINEAR, "
                             "STEP or CUBICSPLINE)",
                             interp_name);
    }

    char *object = node_name(doc, nodes, (size_t)node_index);
    if (!object)
        return kfc_fail_nomem(doc->diag);
    size_t tn = strlen(object) + strlen(property_names[path]) + 2;
    char *target_name = malloc(tn);
    char *seq_name = malloc(strlen(controller) + tn + 1);
    channel_data cd;
    memset(&cd, 0, sizeof cd);
    double *values = NULL, *tangents = NULL, *times = NULL;
    if (!target_name || !seq_name) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    snprintf(target_name, tn, "%s.%s", object, property_names[path]);
    sprintf(seq_name, "%s/%s", controller, target_name);
    if (json_object_get(targets, target_name)) {
        st = kfc_gltf_fail(doc->diag, tat,
                           "a second channel of this animation animates "
                           "node %lld's %s",
                           (long long)node_index, path_names[path]);
        goto done;
    }
    if (json_object_set_new(targets, target_name, json_true())) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    /* Names are output too: a node's name is repeated in the sequence (and
     * the set above) of every channel that animates it. */
    if ((st = kfc_gltf_charge(doc, strlen(seq_name) + strlen(target_name), at)))
        goto done;

    int64_t in_index, out_index;
    char iat[128], oat[128];
    snprintf(iat, sizeof iat, "%s/input", sat);
    snprintf(oat, sizeof oat, "%s/output", sat);
    if ((st = kfc_gltf_index(doc->diag, sampler, "input", sat, 1, &in_index)) ||
        (st = kfc_gltf_index(doc->diag, sampler, "output", sat, 1, &out_index)) ||
        (st = kfc_gltf_read_accessor(doc, in_index, iat, &cd.input)) ||
        (st = kfc_gltf_read_accessor(doc, out_index, oat, &cd.output)))
        goto done;
    const uint32_t n = cd.input.count;
    if (cd.input.component_type != GLTF_FLOAT || cd.input.components != 1 || cd.input.normalized) {
        st = kfc_gltf_fail(doc->diag, iat, "accessor %lld must be FLOAT SCALAR (key times)",
                           (long long)in_index);
        goto done;
    }
    if (cubic && n < 2) {
        st = kfc_gltf_fail(doc->diag, iat,
                           "accessor %lld has 1 key; CUBICSPLINE needs at "
                           "least 2",
                           (long long)in_index);
        goto done;
    }
    for (uint32_t k = 0; k < n; k++) {
        double t = cd.input.values[k];
        if (t < 0.0 || (k > 0 && !(t > cd.input.values[k - 1]))) {
            st = kfc_gltf_fail(doc->diag, iat, "accessor %lld: key time %lu (%g s) is %s",
                               (long long)in_index, (unsigned long)k, t,
                               t < 0.0 ? "negative" : "not greater than the one before");
            goto done;
        }
    }
    const uint32_t want_components = path == PATH_ROTATION ? 4 : path == PATH_WEIGHTS ? 1 : 3;
    if (cd.output.components != want_components || !output_type_allowed(path, &cd.output)) {
        st = kfc_gltf_fail(doc->diag, oat, "accessor %lld cannot hold %s: expected %s%s",
                           (long long)out_index, path_names[path],
                           want_components == 4   ? "VEC4"
                           : want_components == 3 ? "VEC3"
                                                  : "SCALAR",
                           path == PATH_TRANSLATION || path == PATH_SCALE
                               ? " FLOAT"
                               : " FLOAT or normalized (UNSIGNED_)BYTE/SHORT");
        goto done;
    }
    uint64_t per_key = 1; /* elements per key and per part (value, tangent) */
    if (path == PATH_WEIGHTS)
        per_key = morph_targets(doc, node);
    const uint64_t expected = (uint64_t)n * per_key * (cubic ? 3 : 1);
    if (cd.output.count != expected) {
        st = kfc_gltf_fail(doc->diag, oat, "accessor %lld has %lu elements, expected %llu",
                           (long long)out_index, (unsigned long)cd.output.count,
                           (unsigned long long)expected);
        goto done;
    }
    const uint32_t c = (uint32_t)(per_key * want_components);
    times = malloc((size_t)n * sizeof *times);
    values = malloc((size_t)n * c * sizeof *values);
    tangents = cubic ? malloc(2 * (size_t)n * c * sizeof *tangents) : NULL;
    if (!times || !values || (cubic && !tangents)) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    for (uint32_t k = 0; k < n; k++) {
        /* glTF's seconds are kfb's: the float32 times are kept exactly,
         * so a key's own time plays the key (kf_locate). */
        times[k] = cd.input.values[k];
        const double *src = cd.output.values + (size_t)k * c * (cubic ? 3 : 1);
        if (cubic) {
            /* in-tangent a_k, value v_k, out-tangent b_k; per second */
            for (uint32_t j = 0; j < c; j++) {
                tangents[2 * (size_t)k * c + j] = src[j];
                values[(size_t)k * c + j] = src[c + j];
                tangents[2 * (size_t)k * c + c + j] = src[2 * c + j];
            }
        } else {
            memcpy(values + (size_t)k * c, src, c * sizeof *values);
        }
        /* glTF's slerp takes the shorter arc, M3G's the one the keys
         * give: q and -q are one rotation, so turn each key to the
         * hemisphere of the one before. */
        if (interpolation == KF_INTERPOLATION_SLERP && k > 0) {
            double *q = values + (size_t)k * 4, *p = q - 4;
            if (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0.0)
                for (int j = 0; j < 4; j++)
                    q[j] = -q[j];
        }
    }
    kf_sequence_desc desc;
    kf_sequence_desc_init(&desc);
    desc.name = seq_name;
    desc.interpolation = interpolation;
    desc.repeat = KF_REPEAT_CONSTANT; /* glTF holds the end values */
    desc.components = c;
    desc.key_count = n;
    desc.valid_first = 0;
    desc.valid_last = n - 1;
    desc.times = times;
    desc.values = values;
    desc.tangents = tangents;
    desc.duration = times[n - 1] > 0.0 ? times[n - 1] : 1.0;
    kf_error error;
    kf_result r = kf_builder_add_sequence(builder, &desc, &error);
    if (r == KF_OK) {
        kf_track_desc track = {seq_name, controller, target_name, 0};
        r = kf_builder_add_track(builder, &track, &error);
    }
    if (r != KF_OK) {
        st = r == KF_ERROR_OUT_OF_MEMORY ? kfc_fail_nomem(doc->diag)
                                         : kfc_gltf_fail(doc->diag, at, "%s", error.message);
    }
done:
    channel_free(&cd);
    free(times);
    free(values);
    free(tangents);
    free(object);
    free(seq_name);
    free(target_name);
    return st;
}

/* The controller name of animation `ai`: its name when unique among the
 * animations (`counts`: name_counts of them), else "animation<index>". */
static void controller_name(const json_t *anims, const json_t *counts, size_t ai, char *out,
                            size_t size)
{
    const char *name = usable_name(json_array_get(anims, ai));
    if (name && strlen(name) < size && json_integer_value(json_object_get(counts, name)) == 1)
        snprintf(out, size, "%s", name);
    else
        snprintf(out, size, "animation%lu", (unsigned long)ai);
}

/* Whether animation `ai` is the one --animation names (a name or an index). */
static int selected(const kfc_import_options *o, const json_t *anims, size_t ai)
{
    if (!o->animation)
        return 1;
    const json_t *name = json_object_get(json_array_get(anims, ai), "name");
    if (json_is_string(name) && strcmp(json_string_value(name), o->animation) == 0)
        return 1;
    char *end;
    unsigned long index = strtoul(o->animation, &end, 10);
    return o->animation[0] >= '0' && o->animation[0] <= '9' && !*end && index == ai;
}

static kfc_status compile_document(kfc_gltf_doc *doc, kf_builder *builder)
{
    if (!json_is_object(doc->root))
        return kfc_gltf_fail(doc->diag, "", "the document is not a JSON object");
    const json_t *asset = json_object_get(doc->root, "asset");
    const json_t *version = json_object_get(asset, "version");
    if (!json_is_string(version))
        return kfc_gltf_fail(doc->diag, "/asset", "missing 'asset.version' (not a glTF file?)");
    if (strncmp(json_string_value(version), "2.", 2) != 0)
        return kfc_gltf_fail(doc->diag, "/asset/version", "glTF version %.20s; kfc reads 2.x",
                             json_string_value(version));
    kfc_status st = check_extensions(doc);
    if (st)
        return st;
    const json_t *buffers = json_object_get(doc->root, "buffers");
    if (buffers && !json_is_array(buffers))
        return kfc_gltf_fail(doc->diag, "/buffers", "expected an array");
    doc->buffer_count = buffers ? json_array_size(buffers) : 0;
    doc->buffers = calloc(doc->buffer_count + 1, sizeof *doc->buffers);
    if (!doc->buffers)
        return kfc_fail_nomem(doc->diag);

    const json_t *anims = json_object_get(doc->root, "animations");
    if (anims && !json_is_array(anims))
        return kfc_gltf_fail(doc->diag, "/animations", "expected an array");
    size_t count = anims ? json_array_size(anims) : 0, chosen = 0;
    /* Targets ("node/path") played at full weight so far: an animation
     * that would play into one of them again starts at weight 0 (a viewer
     * plays one at a time; M3G would add them). */
    json_t *played = json_object(), *mine = json_object();
    json_t *anim_names = name_counts(anims);
    doc->node_names = name_counts(json_object_get(doc->root, "nodes"));
    if (!played || !mine || !anim_names || !doc->node_names)
        st = kfc_fail_nomem(doc->diag);
    for (size_t ai = 0; ai < count && !st; ai++) {
        if (!selected(doc->options, anims, ai))
            continue;
        chosen++;
        const json_t *anim = json_array_get(anims, ai);
        char at[64], controller[128];
        snprintf(at, sizeof at, "/animations/%lu", (unsigned long)ai);
        const json_t *channels = json_object_get(anim, "channels");
        if (!json_is_object(anim) || !json_is_array(channels)) {
            st = kfc_gltf_fail(doc->diag, at, "expected an object with a 'channels' array");
            break;
        }
        controller_name(anims, anim_names, ai, controller, sizeof controller);
        const size_t nch = json_array_size(channels);
        int overlaps = 0;
        json_object_clear(mine);
        for (size_t ci = 0; ci < nch; ci++) {
            const json_t *target = json_object_get(json_array_get(channels, ci), "target");
            const json_t *node = json_object_get(target, "node");
            const char *path = json_string_value(json_object_get(target, "path"));
            int p = 0;
            while (path && p < PATH_COUNT && strcmp(path, path_names[p]) != 0)
                p++;
            if (!json_is_integer(node) || !path || p == PATH_COUNT)
                continue;
            char key[48];
            snprintf(key, sizeof key, "%lld/%d", (long long)json_integer_value(node), p);
            overlaps |= json_object_get(played, key) != NULL;
            if (json_object_set(mine, key, json_true())) {
                st = kfc_fail_nomem(doc->diag);
                break;
            }
        }
        if (st)
            break;
        if (!overlaps) {
            if (json_object_update(played, mine)) {
                st = kfc_fail_nomem(doc->diag);
                break;
            }
        } else
            note(doc->options,
                 "animation '%s' shares targets with an earlier one: its "
                 "controller starts at weight 0",
                 controller);
        kf_controller_desc cd;
        kf_controller_desc_init(&cd);
        cd.name = controller;
        cd.weight = overlaps ? 0.0 : 1.0;
        kf_error error;
        kf_result r = kf_builder_add_controller(builder, &cd, &error);
        if (r != KF_OK) {
            st = r == KF_ERROR_OUT_OF_MEMORY ? kfc_fail_nomem(doc->diag)
                                             : kfc_gltf_fail(doc->diag, at, "%s", error.message);
            break;
        }
        json_t *targets = json_object();
        if (!targets)
            st = kfc_fail_nomem(doc->diag);
        for (size_t ci = 0; ci < nch && !st; ci++)
            st = add_channel(doc, builder, ai, anim, ci, controller, targets);
        json_decref(targets);
    }
    json_decref(played);
    json_decref(mine);
    json_decref(anim_names);
    if (!st && doc->options->animation && chosen == 0)
        return kfc_gltf_fail(doc->diag, "/animations",
                             "no animation named or numbered '%.60s' "
                             "(%lu in the file)",
                             doc->options->animation, (unsigned long)count);
    return st;
}

kfc_status kfc_gltf_compile(const unsigned char *data, size_t size,
                            const kfc_import_options *options, kf_builder *builder, kfc_diag *diag)
{
    kfc_gltf_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.options = options;
    doc.diag = diag;
    kfc_files_init(&doc.files, options->path, options->asset_root);
    /* Numbers all accessor reads may produce (kfc_gltf_data.h): an accessor
     * is read once per sampler that uses it, and one without a buffer view
     * (sparse only) has a count nothing else bounds. */
    doc.element_budget = KFC_GLTF_BASE_NUMBERS + (uint64_t)size * KFC_GLTF_NUMBERS_PER_BYTE;
    const unsigned char *json = data;
    size_t json_size = size;
    kfc_status st;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0 &&
        (st = kfc_gltf_glb(data, size, &json, &json_size, &doc.bin, &doc.bin_size, diag)))
        return st;
    /* The spec says writers must not put a byte order mark before the
     * JSON, and readers may ignore one: some tools still write it. */
    if (json_size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) {
        json += 3;
        json_size -= 3;
    }
    const uint64_t cost = kfc_json_cost(json, json_size);
    if (cost > KFC_GLTF_JSON_BASE + (uint64_t)json_size * KFC_GLTF_JSON_BYTES_PER_BYTE)
        return kfc_gltf_fail(diag, "",
                             "parsing this JSON could take %.0f MB, %.0f bytes per byte of it; "
                             "kfc parses JSON that takes at most %d",
                             (double)cost / (1 << 20), (double)cost / (double)json_size,
                             KFC_GLTF_JSON_BYTES_PER_BYTE);
    json_error_t error;
    doc.root = json_loadb((const char *)json, json_size, JSON_REJECT_DUPLICATES, &error);
    if (!doc.root) {
        kfc_mark mark = {error.line > 0 ? (uint32_t)error.line : 1,
                         error.column > 0 ? (uint32_t)error.column : 1};
        /* jansson quotes the input near the error as it is: its control
         * and non-ASCII bytes are escaped, so that the message stays one
         * line of text. */
        char text[4 * sizeof error.text];
        size_t n = 0;
        for (const unsigned char *p = (const unsigned char *)error.text; *p; p++) {
            if (*p < 0x20 || *p >= 0x7f)
                n += (size_t)snprintf(text + n, sizeof text - n, "\\x%02x", *p);
            else
                text[n++] = (char)*p;
        }
        text[n] = '\0';
        return kfc_fail(diag, KFC_INVALID, mark, "%s", text);
    }
    st = compile_document(&doc, builder);
    kfc_gltf_doc_free(&doc);
    json_decref(doc.root);
    return st;
}

const kfc_importer kfc_gltf_importer = {"glTF 2.0", kfc_gltf_detect, kfc_gltf_compile,
                                        "/animations"};
