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

/* glTF times are seconds, kfb's milliseconds. */
#define MS_PER_SECOND 1000.0

/* Numbers accessors without a buffer view (sparse only) may produce in all. */
#define SPARSE_ONLY_BUDGET ((uint64_t)1 << 24)

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
 * textures or lights, never animation data. */
static int ignorable_extension(const char *name)
{
    static const char *const names[] = {
        "KHR_mesh_quantization", "KHR_draco_mesh_compression", "KHR_texture_transform",
        "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif", "KHR_lights_punctual",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return strncmp(name, "KHR_materials_", 14) == 0;
}

static void note(const kfc_gltf_options *o, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note(const kfc_gltf_options *o, const char *format, ...)
{
    if (!o->notes)
        return;
    va_list args;
    fprintf(o->notes, "%s: note: ", o->path ? o->path : "<stdin>");
    va_start(args, format);
    vfprintf(o->notes, format, args);
    va_end(args);
    fputc('\n', o->notes);
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
            return kfc_gltf_fail(doc->diag, at, "the file requires extension '%.80s', which kfc "
                                 "does not support", json_string_value(e));
    }
    for (size_t i = 0; json_is_array(used) && i < json_array_size(used); i++) {
        const json_t *e = json_array_get(used, i);
        if (json_is_string(e))
            note(doc->options, "extension '%s' ignored%s", json_string_value(e),
                 ignorable_extension(json_string_value(e)) ? " (not about animation)" : "");
    }
    return KFC_OK;
}

/* The object name of node `index`: its name when no other node has it, else
 * "node<index>". */
static char *node_name(const json_t *nodes, size_t index)
{
    const json_t *name = json_object_get(json_array_get(nodes, index), "name");
    int unique = json_is_string(name) && json_string_length(name) > 0 &&
                 strlen(json_string_value(name)) == json_string_length(name);
    for (size_t i = 0; unique && i < json_array_size(nodes); i++) {
        const json_t *other = json_object_get(json_array_get(nodes, i), "name");
        if (i != index && json_is_string(other) && json_equal(name, other))
            unique = 0;
    }
    char buf[32];
    const char *s = buf;
    if (unique)
        s = json_string_value(name);
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
static const char *const path_names[PATH_COUNT] = {"translation", "rotation", "scale",
                                                   "weights"};
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
 * target names of the animation (to refuse duplicates). */
static kfc_status add_channel(kfc_gltf_doc *doc, kf_builder *builder, size_t ai,
                              const json_t *anim, size_t ci, const char *controller,
                              char ***targets, size_t *target_count)
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
        note(doc->options, "%s: channel skipped (%s)", at,
             node_index < 0 ? "no target node" : "a path kfc does not animate");
        return KFC_OK;
    }
    const json_t *nodes = json_object_get(doc->root, "nodes");
    if (!json_is_array(nodes) || (size_t)node_index >= json_array_size(nodes))
        return kfc_gltf_fail(doc->diag, tat, "node %lld does not exist", (long long)node_index);
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
        return kfc_gltf_fail(doc->diag, ip, "unknown interpolation '%.40s' (expected LINEAR, "
                             "STEP or CUBICSPLINE)", interp_name);
    }

    char *object = node_name(nodes, (size_t)node_index);
    if (!object)
        return kfc_fail_nomem(doc->diag);
    size_t tn = strlen(object) + strlen(property_names[path]) + 2;
    char *target_name = malloc(tn);
    char *seq_name = malloc(strlen(controller) + tn + 1);
    char **grown = realloc(*targets, (*target_count + 1) * sizeof **targets);
    channel_data cd;
    memset(&cd, 0, sizeof cd);
    double *values = NULL, *tangents = NULL, *times = NULL;
    int listed = 0;
    if (grown)
        *targets = grown;
    if (!target_name || !seq_name || !grown) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    snprintf(target_name, tn, "%s.%s", object, property_names[path]);
    sprintf(seq_name, "%s/%s", controller, target_name);
    for (size_t i = 0; i < *target_count; i++) {
        if (strcmp((*targets)[i], target_name) == 0) {
            st = kfc_gltf_fail(doc->diag, tat, "a second channel of this animation animates "
                               "node %lld's %s", (long long)node_index, path_names[path]);
            goto done;
        }
    }
    (*targets)[(*target_count)++] = target_name;
    listed = 1;

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
    if (cd.input.component_type != GLTF_FLOAT || cd.input.components != 1) {
        st = kfc_gltf_fail(doc->diag, iat, "accessor %lld must be FLOAT SCALAR (key times)",
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
                           want_components == 4 ? "VEC4" : want_components == 3 ? "VEC3"
                                                                                : "SCALAR",
                           path == PATH_TRANSLATION || path == PATH_SCALE
                               ? " FLOAT" : " FLOAT or normalized (UNSIGNED_)BYTE/SHORT");
        goto done;
    }
    uint64_t per_key = 1; /* elements per key and per part (value, tangent) */
    if (path == PATH_WEIGHTS) {
        per_key = morph_targets(doc, json_array_get(nodes, (size_t)node_index));
        if (per_key == 0)
            per_key = cd.output.count / ((uint64_t)n * (cubic ? 3 : 1));
        if (per_key == 0)
            per_key = 1;
    }
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
        times[k] = cd.input.values[k] * MS_PER_SECOND;
        const double *src = cd.output.values + (size_t)k * c * (cubic ? 3 : 1);
        if (cubic) {
            /* in-tangent a_k, value v_k, out-tangent b_k; per millisecond */
            for (uint32_t j = 0; j < c; j++) {
                tangents[2 * (size_t)k * c + j] = src[j] / MS_PER_SECOND;
                values[(size_t)k * c + j] = src[c + j];
                tangents[2 * (size_t)k * c + c + j] = src[2 * c + j] / MS_PER_SECOND;
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
    if (!listed)
        free(target_name);
    return st;
}

/* The controller name of animation `ai`: its name when unique among the
 * animations, else "animation<index>". */
static void controller_name(const json_t *anims, size_t ai, char *out, size_t size)
{
    const json_t *name = json_object_get(json_array_get(anims, ai), "name");
    int unique = json_is_string(name) && json_string_length(name) > 0 &&
                 json_string_length(name) < size &&
                 strlen(json_string_value(name)) == json_string_length(name);
    for (size_t i = 0; unique && i < json_array_size(anims); i++)
        if (i != ai && json_equal(name, json_object_get(json_array_get(anims, i), "name")))
            unique = 0;
    if (unique)
        snprintf(out, size, "%s", json_string_value(name));
    else
        snprintf(out, size, "animation%lu", (unsigned long)ai);
}

/* Whether animation `ai` is the one --animation names (a name or an index). */
static int selected(const kfc_gltf_options *o, const json_t *anims, size_t ai)
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
    /* Targets (node * PATH_COUNT + path) played at full weight so far: an
     * animation that would play into one of them again starts at weight 0
     * (a viewer plays one at a time; M3G would add them). */
    int64_t *played = NULL;
    size_t played_count = 0;
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
        controller_name(anims, ai, controller, sizeof controller);
        const size_t nch = json_array_size(channels);
        int64_t *grown = realloc(played, (played_count + nch + 1) * sizeof *played);
        if (!grown) {
            st = kfc_fail_nomem(doc->diag);
            break;
        }
        played = grown;
        int overlaps = 0;
        size_t mine = 0;
        for (size_t ci = 0; ci < nch; ci++) {
            const json_t *target = json_object_get(json_array_get(channels, ci), "target");
            const json_t *node = json_object_get(target, "node");
            const char *path = json_string_value(json_object_get(target, "path"));
            int p = 0;
            while (path && p < PATH_COUNT && strcmp(path, path_names[p]) != 0)
                p++;
            if (!json_is_integer(node) || !path || p == PATH_COUNT)
                continue;
            int64_t key = (int64_t)json_integer_value(node) * PATH_COUNT + p;
            for (size_t j = 0; j < played_count; j++)
                overlaps |= played[j] == key;
            played[played_count + mine++] = key;
        }
        if (!overlaps)
            played_count += mine;
        else
            note(doc->options, "animation '%s' shares targets with an earlier one: its "
                 "controller starts at weight 0", controller);
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
        char **targets = NULL;
        size_t target_count = 0;
        for (size_t ci = 0; ci < nch && !st; ci++)
            st = add_channel(doc, builder, ai, anim, ci, controller, &targets, &target_count);
        for (size_t i = 0; i < target_count; i++)
            free(targets[i]);
        free(targets);
    }
    free(played);
    if (!st && doc->options->animation && chosen == 0)
        return kfc_gltf_fail(doc->diag, "/animations", "no animation named or numbered '%.60s' "
                             "(%lu in the file)", doc->options->animation,
                             (unsigned long)count);
    return st;
}

kfc_status kfc_gltf_compile(const unsigned char *data, size_t size,
                            const kfc_gltf_options *options, kf_builder *builder,
                            kfc_diag *diag)
{
    kfc_gltf_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.options = options;
    doc.diag = diag;
    doc.element_budget = SPARSE_ONLY_BUDGET;
    const unsigned char *json = data;
    size_t json_size = size;
    kfc_status st;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0 &&
        (st = kfc_gltf_glb(data, size, &json, &json_size, &doc.bin, &doc.bin_size, diag)))
        return st;
    json_error_t error;
    doc.root = json_loadb((const char *)json, json_size, JSON_REJECT_DUPLICATES, &error);
    if (!doc.root) {
        kfc_mark mark = {error.line > 0 ? (uint32_t)error.line : 1,
                         error.column > 0 ? (uint32_t)error.column : 1};
        return kfc_fail(diag, KFC_INVALID, mark, "%s", error.text);
    }
    st = compile_document(&doc, builder);
    kfc_gltf_doc_free(&doc);
    json_decref(doc.root);
    return st;
}
