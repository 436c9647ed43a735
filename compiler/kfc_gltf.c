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
#include "kfc_sniff.h"
#include "kfc_suggest.h"
#include "kfc_text.h"

/* A quote of a document's string longer than a name's (kfc_quote): an
 * extension's name, a JSON pointer. */
#define NAME_QUOTE_SIZE 104

int kfc_gltf_detect(const char *path, const unsigned char *data, size_t size)
{
    return kfc_sniff_gltf(path, data, size);
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

/* Required extensions kfc reads: KHR_animation_pointer, whose node
 * targets are core ones (read_pointer) and whose others are skipped, each
 * with a warning. */
static int supported_extension(const char *name)
{
    return strcmp(name, "KHR_animation_pointer") == 0;
}

/* Why kfc cannot import a file that requires extension `name`, and what to
 * do instead. */
static const char *unsupported_reason(const char *name)
{
    if (strcmp(name, "EXT_meshopt_compression") == 0 ||
        strcmp(name, "KHR_meshopt_compression") == 0)
        return ": it compresses buffer views, animation data among them; write the file "
               "without it (decompressed) and import that";
    return ": write the file without it and import that";
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
    kfc_text_escape(line, sizeof line, text); /* one line, whatever the names hold */
    kfc_text_put_name(o->notes, o->path ? o->path : "<stdin>", 0);
    fprintf(o->notes, ": note: %s\n", line);
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
        const char *name = json_string_value(e);
        char quoted[NAME_QUOTE_SIZE];
        if (!ignorable_extension(name) && !supported_extension(name))
            return kfc_gltf_fail(
                doc->diag, at,
                "the file requires extension %s, which kfc "
                "does not support%s",
                kf_text_name(quoted, sizeof quoted, name, json_string_length(e), 1),
                unsupported_reason(name));
    }
    for (size_t i = 0; json_is_array(used) && i < json_array_size(used); i++) {
        const json_t *e = json_array_get(used, i);
        char quoted[NAME_QUOTE_SIZE];
        if (json_is_string(e) && !supported_extension(json_string_value(e)))
            note(
                doc->options, "extension %s ignored%s",
                kf_text_name(quoted, sizeof quoted, json_string_value(e), json_string_length(e), 1),
                ignorable_extension(json_string_value(e)) ? " (not about animation)" : "");
    }
    return KFC_OK;
}

/* ---- names -------------------------------------------------------------- */

/* 1 when `name` is `prefix` followed by digits naming another index than
 * `index`: the fallback name of that element, which a name must not take. */
static int takes_fallback(const char *name, const char *prefix, size_t index)
{
    const size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || name[n] < '0' || name[n] > '9')
        return 0;
    char buf[48];
    snprintf(buf, sizeof buf, "%s%lu", prefix, (unsigned long)index);
    for (const char *p = name + n; *p; p++)
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

/* Adds 1 to counts[name]. 0, or -1 when out of memory. */
static int count_name(json_t *counts, const char *name)
{
    json_int_t n = json_integer_value(json_object_get(counts, name));
    return json_object_set_new(counts, name, json_integer(n + 1));
}

/* How many elements of `array` have each usable name: an object (a hash
 * table) name -> count, so that uniqueness costs O(1) a lookup, not a pass
 * over the array. NULL when out of memory. */
static json_t *name_counts(const json_t *array)
{
    json_t *counts = json_object();
    for (size_t i = 0; counts && i < json_array_size(array); i++) {
        const char *name = usable_name(json_array_get(array, i));
        if (name && count_name(counts, name)) {
            json_decref(counts);
            counts = NULL;
        }
    }
    return counts;
}

/* A node that instances a mesh. */
typedef struct mesh_node {
    json_int_t mesh;
    size_t node;
} mesh_node;

/*
 * kfc's names for what a document animates (the rule kfc_gltf.h states):
 * every node's object name and every animation's controller name are
 * decided from the whole document, so that they are the same whichever
 * animations are imported and into how many files; sequence names are
 * made unique within each output.
 */
typedef struct naming {
    const json_t *nodes;
    size_t node_count;
    /* The nodes that instance a mesh, ordered by mesh, then node: a channel
     * of a mesh's weights visits that mesh's nodes alone, not every node of
     * the document. */
    mesh_node *instances;
    size_t instance_count;
    json_t *node_counts;  /* name -> nodes with it (doc->node_names) */
    json_t *joint_counts; /* name -> skin joints with it */
    unsigned char *joint; /* per node: a skin's joint */
    unsigned char *noted; /* per node: -v said how its shared name was settled */
    const json_t *anims;
    json_t *anim_counts; /* name -> animations with it */
    json_t *sequences;   /* the sequence names of the current output */
} naming;

static void naming_free(naming *nm)
{
    json_decref(nm->joint_counts);
    json_decref(nm->anim_counts);
    json_decref(nm->sequences);
    free(nm->joint);
    free(nm->noted);
    free(nm->instances);
}

static int mesh_node_order(const void *a, const void *b)
{
    const mesh_node *x = a, *y = b;
    if (x->mesh != y->mesh)
        return x->mesh < y->mesh ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* nm->instances: every node whose 'mesh' is an index, sorted. */
static int mesh_instances_init(naming *nm)
{
    nm->instances = malloc((nm->node_count + 1) * sizeof *nm->instances);
    if (!nm->instances)
        return -1;
    for (size_t i = 0; i < nm->node_count; i++) {
        const json_t *m = json_object_get(json_array_get(nm->nodes, i), "mesh");
        if (json_is_integer(m) && json_integer_value(m) >= 0)
            nm->instances[nm->instance_count++] = (mesh_node){json_integer_value(m), i};
    }
    qsort(nm->instances, nm->instance_count, sizeof *nm->instances, mesh_node_order);
    return 0;
}

/* The first of nm->instances whose mesh is `mesh` or a later one. */
static size_t mesh_instances_from(const naming *nm, json_int_t mesh)
{
    size_t lo = 0, hi = nm->instance_count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (nm->instances[mid].mesh < mesh)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The nodes that instance mesh `mesh`, in node order, *count of them. */
static const mesh_node *mesh_instances(const naming *nm, size_t mesh, size_t *count)
{
    const size_t first = mesh_instances_from(nm, (json_int_t)mesh);
    *count = mesh_instances_from(nm, (json_int_t)mesh + 1) - first;
    return nm->instances + first;
}

static kfc_status naming_init(kfc_gltf_doc *doc, naming *nm)
{
    memset(nm, 0, sizeof *nm);
    nm->nodes = json_object_get(doc->root, "nodes");
    nm->node_count = json_array_size(nm->nodes);
    nm->anims = json_object_get(doc->root, "animations");
    doc->node_names = name_counts(nm->nodes);
    nm->node_counts = doc->node_names;
    nm->joint_counts = json_object();
    nm->anim_counts = name_counts(nm->anims);
    nm->sequences = json_object();
    nm->joint = calloc(nm->node_count + 1, 1);
    nm->noted = calloc(nm->node_count + 1, 1);
    if (!nm->node_counts || !nm->joint_counts || !nm->anim_counts || !nm->sequences || !nm->joint ||
        !nm->noted || mesh_instances_init(nm))
        return kfc_fail_nomem(doc->diag);
    /* A skin's joints, each counted once whatever the skins that list it. */
    const json_t *skins = json_object_get(doc->root, "skins");
    for (size_t s = 0; s < json_array_size(skins); s++) {
        const json_t *joints = json_object_get(json_array_get(skins, s), "joints");
        for (size_t j = 0; j < json_array_size(joints); j++) {
            const json_t *index = json_array_get(joints, j);
            if (!json_is_integer(index) || json_integer_value(index) < 0 ||
                (uint64_t)json_integer_value(index) >= nm->node_count)
                continue;
            const size_t i = (size_t)json_integer_value(index);
            const char *name = usable_name(json_array_get(nm->nodes, i));
            if (nm->joint[i])
                continue;
            nm->joint[i] = 1;
            if (name && count_name(nm->joint_counts, name))
                return kfc_fail_nomem(doc->diag);
        }
    }
    return KFC_OK;
}

/* A copy of `name`, or of "<prefix><index>" when `name` is NULL. */
static char *name_copy(const char *name, const char *prefix, size_t index)
{
    char buf[48];
    if (!name) {
        snprintf(buf, sizeof buf, "%s%lu", prefix, (unsigned long)index);
        name = buf;
    }
    char *copy = malloc(strlen(name) + 1);
    if (copy)
        strcpy(copy, name);
    return copy;
}

/* The object name of node `index` (free() it); -v says, once per node, how
 * a name it could not keep as it is was settled. */
static char *object_name(kfc_gltf_doc *doc, naming *nm, size_t index)
{
    const char *name = usable_name(json_array_get(nm->nodes, index));
    if (!name)
        return name_copy(NULL, "node", index);
    const json_int_t nodes = json_integer_value(json_object_get(nm->node_counts, name));
    const json_int_t joints = json_integer_value(json_object_get(nm->joint_counts, name));
    const int fallback = takes_fallback(name, "node", index);
    const int keep = !fallback && (nodes == 1 || (nm->joint[index] && joints == 1));
    if (!nm->noted[index] && (fallback || nodes > 1)) {
        nm->noted[index] = 1;
        char quoted[KFC_QUOTE_SIZE];
        kfc_quote(quoted, name, strlen(name));
        if (fallback)
            note(doc->options,
                 "node %lu is named %s, another node's name when it has none: it is 'node%lu'",
                 (unsigned long)index, quoted, (unsigned long)index);
        else if (keep)
            note(doc->options,
                 "node %lu keeps the name %s: it is the only skin joint of the %ld nodes so "
                 "named (the others are node<index>)",
                 (unsigned long)index, quoted, (long)nodes);
        else if (joints == 1)
            note(doc->options,
                 "node %lu is 'node%lu': %ld nodes are named %s, and the skin joint among them "
                 "keeps the name",
                 (unsigned long)index, (unsigned long)index, (long)nodes, quoted);
        else
            note(doc->options, "node %lu is 'node%lu': %ld nodes are named %s, %s",
                 (unsigned long)index, (unsigned long)index, (long)nodes, quoted,
                 joints ? "more than one of them a skin joint" : "none of them a skin joint");
    }
    return name_copy(keep ? name : NULL, "node", index);
}

/* The controller name of animation `ai` (free() it), and -v's note when it
 * is not the animation's own name. */
static char *controller_name(kfc_gltf_doc *doc, naming *nm, size_t ai)
{
    const char *name = usable_name(json_array_get(nm->anims, ai));
    if (!name)
        return name_copy(NULL, "animation", ai);
    const json_int_t count = json_integer_value(json_object_get(nm->anim_counts, name));
    const int fallback = takes_fallback(name, "animation", ai);
    if (!fallback && count == 1)
        return name_copy(name, "", 0);
    char quoted[KFC_QUOTE_SIZE];
    kfc_quote(quoted, name, strlen(name));
    if (fallback)
        note(doc->options,
             "animation %lu is named %s, another animation's name when it has none: its "
             "controller is 'animation%lu'",
             (unsigned long)ai, quoted, (unsigned long)ai);
    else
        note(doc->options,
             "animation %lu's controller is 'animation%lu': %ld animations are named %s",
             (unsigned long)ai, (unsigned long)ai, (long)count, quoted);
    return name_copy(NULL, "animation", ai);
}

/* "controller/target", unique in the current output: when animation names
 * with '/' make it another channel's, "#2" (or the first free "#n") is
 * added. No other sequence name ends that way, since the others end in a
 * property name. Free() the result. */
static char *sequence_name(kfc_gltf_doc *doc, naming *nm, const char *controller,
                           const char *target, const char *at)
{
    const size_t n = strlen(controller) + strlen(target) + 2;
    char *name = malloc(n + 24);
    if (!name)
        return NULL;
    snprintf(name, n, "%s/%s", controller, target);
    if (json_object_get(nm->sequences, name)) {
        char quoted[KFC_QUOTE_SIZE];
        kfc_quote(quoted, name, strlen(name));
        for (unsigned long k = 2;; k++) {
            snprintf(name + n - 1, 24, "#%lu", k);
            if (!json_object_get(nm->sequences, name))
                break;
        }
        char renamed[KFC_QUOTE_SIZE];
        note(doc->options, "%s: the sequence name %s is an earlier channel's: this one is %s", at,
             quoted, kfc_quote(renamed, name, strlen(name)));
    }
    if (json_object_set_new(nm->sequences, name, json_true())) {
        free(name);
        return NULL;
    }
    return name;
}

/* ---- channels ----------------------------------------------------------- */

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
/* (NULL-ended: kfc_suggest_among's list too) */
static const char *const path_names[PATH_COUNT + 1] = {"translation", "rotation", "scale",
                                                       "weights", NULL};
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

/* One channel, read and checked, before it becomes a sequence and a track. */
typedef struct channel {
    int used; /* read without error, and one kfc animates */
    char at[96];
    char input_at[112]; /* its sampler's input, the key times */
    char *target;       /* "object.property" */
    /* More targets of the same values: the other nodes whose mesh's
     * weights a KHR_animation_pointer channel animates. */
    char **also;
    size_t also_count;
    kf_interpolation interpolation;
    uint32_t components, keys;
    double *times;    /* keys (room for 2 more) */
    double *values;   /* keys * components (room for 2 more keys) */
    double *tangents; /* hermite: keys * 2 * components (room for 2 more keys), else NULL */
} channel;

static void channel_clear(channel *c)
{
    for (size_t i = 0; i < c->also_count; i++)
        free(c->also[i]);
    free(c->also);
    free(c->target);
    free(c->times);
    free(c->values);
    free(c->tangents);
    memset(c, 0, sizeof *c);
}

static int output_type_allowed(int path, const kfc_gltf_accessor *a)
{
    if (a->component_type == GLTF_FLOAT)
        return 1;
    if (path == PATH_TRANSLATION || path == PATH_SCALE)
        return 0;
    return a->normalized && a->component_type != GLTF_UNSIGNED_INT;
}

/* What a KHR_animation_pointer `pointer` names, in a document of `nodes`
 * nodes: 1 for "/nodes/N/PATH" with a PATH kfc animates (*node and *path
 * set), which the extension defines as the core target {node: N, path:
 * PATH}; 0 for another property (a material's, a camera's, a node's
 * extension); -1 for a pointer that no valid file holds, with the reason in
 * `why` (NULL: not wanted). JSON pointer escapes (~0, ~1) are not decoded:
 * no node property kfc animates has one in its name, so a pointer with
 * one is never a target kfc plays. */
static int pointer_target(const char *pointer, size_t nodes, int64_t *node, int *path, char *why,
                          size_t why_size)
{
    static const char prefix[] = "/nodes/";
    char none[1];
    if (!why) {
        why = none;
        why_size = sizeof none;
    }
    char quoted[NAME_QUOTE_SIZE], part[KFC_QUOTE_SIZE];
    kf_text_name(quoted, sizeof quoted, pointer, strlen(pointer), 1);
    if (pointer[0] != '/') {
        snprintf(why, why_size,
                 "%s is not a JSON pointer: one starts with '/', as in "
                 "/nodes/0/rotation",
                 quoted);
        return -1;
    }
    if (strncmp(pointer, prefix, sizeof prefix - 1) != 0)
        return 0;
    const char *s = pointer + sizeof prefix - 1;
    const size_t digits = strspn(s, "0123456789");
    const size_t segment = strcspn(s, "/");
    /* (RFC 6901 array indices: "0", or digits without a leading 0) */
    if (digits == 0 || digits != segment || (s[0] == '0' && digits > 1)) {
        snprintf(why, why_size,
                 "%s in %s is not a node index (digits, without a "
                 "sign or leading zeros)",
                 kfc_quote(part, s, segment), quoted);
        return -1;
    }
    unsigned long long index = 0;
    for (size_t i = 0; i < digits && index < nodes; i++)
        index = index * 10 + (unsigned)(s[i] - '0'); /* (stops once past `nodes`) */
    if (index >= nodes) {
        snprintf(why, why_size, "%s names node %.*s, which does not exist (%lu defined)", quoted,
                 (int)(digits < 40 ? digits : 40), s, (unsigned long)nodes);
        return -1;
    }
    s += digits;
    if (*s != '/' || s[1] == '\0') {
        snprintf(why, why_size,
                 "%s names node %llu, not one of its properties (as in "
                 "/nodes/%llu/rotation)",
                 quoted, index, index);
        return -1;
    }
    s++;
    for (int p = 0; p < PATH_COUNT; p++) {
        const size_t n = strlen(path_names[p]);
        if (strncmp(s, path_names[p], n) != 0 || (s[n] != '\0' && s[n] != '/'))
            continue;
        if (s[n] == '/') {
            /* The extension animates whole properties: a part of one is
             * no target it defines. */
            snprintf(why, why_size,
                     "%s points inside node %llu's %s; the pointer ends "
                     "at the property (/nodes/%llu/%s)",
                     quoted, index, path_names[p], index, path_names[p]);
            return -1;
        }
        *node = (int64_t)index;
        *path = p;
        return 1;
    }
    return 0;
}

/* Whether `pointer` is "/meshes/M/weights", a mesh's default morph
 * weights; M into *mesh. */
static int mesh_weights_pointer(const char *pointer, size_t *mesh)
{
    static const char prefix[] = "/meshes/", suffix[] = "/weights";
    if (strncmp(pointer, prefix, sizeof prefix - 1) != 0)
        return 0;
    const char *s = pointer + sizeof prefix - 1;
    const size_t digits = strspn(s, "0123456789");
    if (digits == 0 || digits > 9 || (s[0] == '0' && digits > 1) || strcmp(s + digits, suffix) != 0)
        return 0;
    *mesh = (size_t)strtoul(s, NULL, 10);
    return 1;
}

/* The JSON pointer of a channel `target` whose path is "pointer"
 * (KHR_animation_pointer), or NULL. */
static const char *target_pointer(const json_t *target)
{
    const json_t *path = json_object_get(target, "path");
    if (!json_is_string(path) || strcmp(json_string_value(path), "pointer") != 0)
        return NULL;
    const json_t *ext =
        json_object_get(json_object_get(target, "extensions"), "KHR_animation_pointer");
    return json_string_value(json_object_get(ext, "pointer"));
}

/* The node and path (a PATH_ index) a channel `target` animates, as a core
 * target or through a KHR_animation_pointer to a node property: 1, or 0 for
 * another target (a mesh's weights among them) and for one read_channel
 * refuses, saying why. */
static int node_target(const json_t *target, size_t nodes, int64_t *node, int *path)
{
    const char *name = json_string_value(json_object_get(target, "path"));
    const char *pointer = target_pointer(target);
    if (pointer)
        return pointer_target(pointer, nodes, node, path, NULL, 0) == 1;
    int p = 0;
    while (name && p < PATH_COUNT && strcmp(name, path_names[p]) != 0)
        p++;
    const json_t *n = json_object_get(target, "node");
    if (!name || p == PATH_COUNT || !json_is_integer(n) || json_integer_value(n) < 0 ||
        (uint64_t)json_integer_value(n) >= nodes)
        return 0;
    *node = (int64_t)json_integer_value(n);
    *path = p;
    return 1;
}

/* Whether node `i` plays mesh `mesh`'s weights (MESH_PLAYS), and if not,
 * why: it does not instance the mesh (MESH_NONE), or weights of its own
 * override the mesh's, those it states (MESH_STATED) or those a channel of
 * the animation animates (MESH_ANIMATED, the channel into *by; `own` maps
 * node index -> channel, NULL for none). */
enum { MESH_NONE, MESH_PLAYS, MESH_STATED, MESH_ANIMATED };
static int mesh_weights_use(const naming *nm, size_t i, size_t mesh, const json_t *own,
                            json_int_t *by)
{
    const json_t *node = json_array_get(nm->nodes, i);
    const json_t *m = json_object_get(node, "mesh");
    if (!json_is_integer(m) || json_integer_value(m) != (json_int_t)mesh)
        return MESH_NONE;
    if (json_object_get(node, "weights"))
        return MESH_STATED;
    if (!own)
        return MESH_PLAYS;
    char key[24];
    snprintf(key, sizeof key, "%lu", (unsigned long)i);
    const json_t *index = json_object_get(own, key);
    if (!index)
        return MESH_PLAYS;
    *by = json_integer_value(index);
    return MESH_ANIMATED;
}

/*
 * A channel animating mesh `mesh`'s weights: glTF plays a mesh's weights
 * on every node that instances it without weights of its own, so each such
 * node's morph_weights is a target. A node's own weights, stated or
 * animated by another channel of the animation (`own`, as
 * mesh_weights_use), override the mesh's: that node plays those, which -v
 * notes, as it notes how a clash of names was settled. The first node that
 * plays the channel becomes *node, the others go into `users` (node
 * indices). None: a warning, since the file animates what the .kfb will
 * not show.
 */
static kfc_status mesh_weights_nodes(kfc_gltf_doc *doc, const naming *nm, const char *at,
                                     const char *pointer, size_t mesh, const json_t *own,
                                     int64_t *node, int *path, json_t *users)
{
    size_t count[MESH_ANIMATED + 1] = {0}, n;
    json_int_t by = 0;
    const mesh_node *instances = mesh_instances(nm, mesh, &n);
    *node = -1;
    /* One channel makes a track on each node, or checks that the node's
     * own weights override the mesh's: as many as the mesh has nodes,
     * whatever the channel's own size, so they are counted before any. */
    kfc_status st = kfc_gltf_charge_numbers(doc, (uint64_t)n * KFC_GLTF_NODE_NUMBERS, at);
    if (st)
        return st;
    for (size_t k = 0; k < n; k++) {
        const size_t i = instances[k].node;
        const int use = mesh_weights_use(nm, i, mesh, own, &by);
        count[use]++;
        if (use != MESH_PLAYS)
            continue;
        if (*node < 0)
            *node = (int64_t)i;
        else if (json_array_append_new(users, json_integer((json_int_t)i)))
            return kfc_fail_nomem(doc->diag);
    }
    const size_t stated = count[MESH_STATED], animated = count[MESH_ANIMATED];
    if (*node >= 0) {
        *path = PATH_WEIGHTS;
        for (size_t k = 0; (stated || animated) && k < n; k++) {
            const size_t i = instances[k].node;
            const int use = mesh_weights_use(nm, i, mesh, own, &by);
            if (use == MESH_STATED)
                note(doc->options,
                     "%s: node %lu keeps the weights it states, not mesh %lu's: a node's weights "
                     "override its mesh's",
                     at, (unsigned long)i, (unsigned long)mesh);
            else if (use == MESH_ANIMATED)
                note(doc->options,
                     "%s: node %lu plays its own weights, channel %lld, not mesh %lu's: a node's "
                     "weights override its mesh's",
                     at, (unsigned long)i, (long long)by, (unsigned long)mesh);
        }
        return KFC_OK;
    }
    const char *why;
    if (!stated && !animated)
        why = "no node instances";
    else if (stated + animated == 1)
        why = stated ? "its one node overrides with weights of its own"
                     : "its one node overrides with weights of its own that another channel "
                       "of this animation animates";
    else if (!animated)
        why = "every node that instances it overrides with weights of its own";
    else
        why = stated ? "every node that instances it overrides with weights of its own, stated "
                       "or animated by another channel of this animation"
                     : "every node that instances it overrides with weights of its own that "
                       "other channels of this animation animate";
    char text[NAME_QUOTE_SIZE];
    return kfc_warn_pointer(doc->diag, KFC_WARN_GLTF_DROPPED, at,
                            "channel skipped: it animates %s, mesh %lu's default morph weights "
                            "(KHR_animation_pointer), which %s",
                            kf_text_name(text, sizeof text, pointer, strlen(pointer), 1),
                            (unsigned long)mesh, why);
}

/* The target of a channel whose path is "pointer" (KHR_animation_pointer):
 * a node property kfc animates sets *node and *path (a mesh's weights, the
 * nodes that play them: mesh_weights_nodes); any other is skipped with a
 * warning, since the file animates something the .kfb will not (*path left
 * PATH_COUNT). */
static kfc_status read_pointer(kfc_gltf_doc *doc, const naming *nm, const char *at,
                               const json_t *target, const char *tat, const json_t *own,
                               int64_t *node, int *path, json_t *users)
{
    size_t mesh;
    char pat[192];
    snprintf(pat, sizeof pat, "%s/extensions/KHR_animation_pointer/pointer", tat);
    const json_t *ext =
        json_object_get(json_object_get(target, "extensions"), "KHR_animation_pointer");
    const json_t *pointer = json_object_get(ext, "pointer");
    *path = PATH_COUNT;
    if (!json_is_string(pointer))
        return kfc_gltf_fail(doc->diag, pat,
                             "a channel whose path is 'pointer' needs this string, the JSON "
                             "pointer of what it animates (KHR_animation_pointer)");
    char why[320];
    if (mesh_weights_pointer(json_string_value(pointer), &mesh))
        return mesh_weights_nodes(doc, nm, at, json_string_value(pointer), mesh, own, node, path,
                                  users);
    const int r =
        pointer_target(json_string_value(pointer), nm->node_count, node, path, why, sizeof why);
    if (r < 0)
        return kfc_gltf_fail(doc->diag, pat, "%s", why);
    if (r == 0) {
        char text[NAME_QUOTE_SIZE];
        return kfc_warn_pointer(doc->diag, KFC_WARN_GLTF_DROPPED, at,
                                "channel skipped: it animates %s (KHR_animation_pointer); "
                                "kfc animates only node translation, rotation, scale and weights",
                                kf_text_name(text, sizeof text, json_string_value(pointer),
                                             json_string_length(pointer), 1));
    }
    return KFC_OK;
}

/* The targets of the nodes in `users` beside the channel's own. */
static kfc_status other_users(kfc_gltf_doc *doc, naming *nm, const json_t *users, channel *out)
{
    const size_t count = json_array_size(users);
    if (!count)
        return KFC_OK;
    if (!(out->also = calloc(count, sizeof *out->also)))
        return kfc_fail_nomem(doc->diag);
    for (size_t i = 0; i < count; i++) {
        char *object = object_name(doc, nm, (size_t)json_integer_value(json_array_get(users, i)));
        size_t n = object ? strlen(object) + strlen(property_names[PATH_WEIGHTS]) + 2 : 0;
        if (!object)
            return kfc_fail_nomem(doc->diag);
        /* A name made, as a channel's target name is (add_channel): a
         * node's name is repeated by every channel of its mesh's weights. */
        kfc_status st = kfc_gltf_charge(doc, n - 1, out->at);
        if (st) {
            free(object);
            return st;
        }
        if (!(out->also[i] = malloc(n))) {
            free(object);
            return kfc_fail_nomem(doc->diag);
        }
        snprintf(out->also[i], n, "%s.%s", object, property_names[PATH_WEIGHTS]);
        free(object);
        out->also_count++;
    }
    return KFC_OK;
}

/* Reads channel `ci` of animation `ai` into `out` (out->used = 0 for one
 * kfc skips, with a note or a warning). `targets` collects the target
 * names of the animation (a set, to refuse duplicates); `own` is
 * own_weights'. */
static kfc_status read_channel(kfc_gltf_doc *doc, naming *nm, size_t ai, const json_t *anim,
                               size_t ci, const json_t *own, json_t *targets, channel *out)
{
    char *at = out->at, sat[96];
    snprintf(at, sizeof out->at, "/animations/%lu/channels/%lu", (unsigned long)ai,
             (unsigned long)ci);
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
    json_t *users = json_array();
    if (!users)
        return kfc_fail_nomem(doc->diag);
    if (path == PATH_COUNT && strcmp(json_string_value(path_value), "pointer") == 0) {
        if ((st = read_pointer(doc, nm, at, target, tat, own, &node_index, &path, users)) ||
            path == PATH_COUNT) {
            json_decref(users);
            return st;
        }
    }
    st = other_users(doc, nm, users, out);
    json_decref(users);
    if (st)
        return st;
    if (path == PATH_COUNT || node_index < 0) {
        /* Not an error: glTF lets extensions define other targets, and
         * says to ignore what a reader does not support unless the file
         * requires it. */
        if (path != PATH_COUNT)
            note(doc->options, "%s: channel skipped: no target node", at);
        else {
            /* A path an edit or two from glTF's own is a typo, which
             * would drop the channel as silently as an extension's: a
             * warning. */
            const char *text = json_string_value(path_value);
            char mean[160], pat[128];
            kfc_suggest_among(doc->diag, text, json_string_length(path_value), path_names, mean,
                              sizeof mean);
            snprintf(pat, sizeof pat, "%s/path", tat);
            char quoted[KFC_QUOTE_SIZE];
            kfc_quote(quoted, text, json_string_length(path_value));
            if (mean[0])
                return kfc_warn_pointer(doc->diag, KFC_WARN_GLTF_UNKNOWN, pat,
                                        "channel skipped: path %s is not one glTF "
                                        "defines%s",
                                        quoted, mean);
            note(doc->options, "%s: channel skipped: path %s is not one kfc animates", at, quoted);
        }
        return KFC_OK;
    }
    const json_t *nodes = nm->nodes;
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
        /* ("linear" is the likeliest slip: the same word in another case) */
        static const char *const interpolations[] = {"LINEAR", "STEP", "CUBICSPLINE", NULL};
        char ip[112], mean[80];
        snprintf(ip, sizeof ip, "%s/interpolation", sat);
        kfc_suggest_among(doc->diag, interp_name, json_string_length(interp), interpolations, mean,
                          sizeof mean);
        char quoted[KFC_QUOTE_SIZE];
        return kfc_gltf_fail(doc->diag, ip,
                             "unknown interpolation %s (expected LINEAR, "
                             "STEP or CUBICSPLINE)%s",
                             kfc_quote(quoted, interp_name, json_string_length(interp)), mean);
    }

    char *object = object_name(doc, nm, (size_t)node_index);
    if (!object)
        return kfc_fail_nomem(doc->diag);
    size_t tn = strlen(object) + strlen(property_names[path]) + 2;
    out->target = malloc(tn);
    channel_data cd;
    memset(&cd, 0, sizeof cd);
    if (!out->target) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    snprintf(out->target, tn, "%s.%s", object, property_names[path]);
    if (json_object_get(targets, out->target)) {
        st = kfc_gltf_fail(doc->diag, tat,
                           "a second channel of this animation animates "
                           "node %lld's %s",
                           (long long)node_index, path_names[path]);
        goto done;
    }
    if (json_object_set_new(targets, out->target, json_true())) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    for (size_t i = 0; i < out->also_count; i++) {
        if (json_object_get(targets, out->also[i])) {
            st = kfc_gltf_fail(doc->diag, tat,
                               "a second channel of this animation animates %s, whose mesh's "
                               "weights this channel animates",
                               out->also[i]);
            goto done;
        }
        if (json_object_set_new(targets, out->also[i], json_true())) {
            st = kfc_fail_nomem(doc->diag);
            goto done;
        }
    }

    int64_t in_index, out_index;
    char iat[128], oat[128];
    snprintf(iat, sizeof iat, "%s/input", sat);
    snprintf(oat, sizeof oat, "%s/output", sat);
    /* What each accessor holds is checked before it is read: key times
     * typed VEC3 are not key times, whatever their size. */
    if ((st = kfc_gltf_index(doc->diag, sampler, "input", sat, 1, &in_index)) ||
        (st = kfc_gltf_index(doc->diag, sampler, "output", sat, 1, &out_index)) ||
        (st = kfc_gltf_accessor_kind(doc, in_index, iat, &cd.input)))
        goto done;
    if (cd.input.component_type != GLTF_FLOAT || cd.input.components != 1 || cd.input.normalized) {
        st = kfc_gltf_fail(doc->diag, iat, "accessor %lld must be FLOAT SCALAR (key times)",
                           (long long)in_index);
        goto done;
    }
    if ((st = kfc_gltf_read_accessor(doc, in_index, iat, &cd.input)))
        goto done;
    const uint32_t n = cd.input.count;
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
    if ((st = kfc_gltf_accessor_kind(doc, out_index, oat, &cd.output)))
        goto done;
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
    if ((st = kfc_gltf_read_accessor(doc, out_index, oat, &cd.output)))
        goto done;
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
    /* Room for the two keys a looping clip may add (clip_keys). */
    out->times = malloc(((size_t)n + 2) * sizeof *out->times);
    out->values = malloc(((size_t)n + 2) * c * sizeof *out->values);
    out->tangents = cubic ? malloc(2 * ((size_t)n + 2) * c * sizeof *out->tangents) : NULL;
    if (!out->times || !out->values || (cubic && !out->tangents)) {
        st = kfc_fail_nomem(doc->diag);
        goto done;
    }
    double *times = out->times, *values = out->values, *tangents = out->tangents;
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
    /* glTF requires unit quaternions; kfb plays others normalized, as
     * YAML's slerp keys (one truth for what the warning says). */
    if (path == PATH_ROTATION &&
        (st = kfc_warn_quaternion_length(doc->diag, KFC_NO_MARK, oat, "rotation keys", values, n,
                                         NULL)))
        goto done;
    out->interpolation = interpolation;
    out->components = c;
    out->keys = n;
    snprintf(out->input_at, sizeof out->input_at, "%s/input", sat);
    out->used = 1;
done:
    channel_free(&cd);
    free(object);
    return st;
}

/* A looping clip of length `end` plays each channel as glTF does at
 * fmod(t, end): the first key's value before it, the last's after it. M3G's
 * LOOP interpolates from the last key to the first across the seam; a key
 * at 0 repeating the first (when it comes later) and one at `end`
 * repeating the last (when it comes earlier) make every wrapped segment
 * hold a value, as the clip does, and the seam a jump. Hermite keys so
 * added, and the tangents glTF does not use beside them (the first key's
 * in, the last's out), are flat. */
static void clip_keys(channel *c, double end)
{
    const uint32_t m = c->components;
    const size_t tangent = 2 * (size_t)m;
    if (c->times[0] > 0.0) {
        memmove(c->times + 1, c->times, c->keys * sizeof *c->times);
        memmove(c->values + m, c->values, (size_t)c->keys * m * sizeof *c->values);
        c->times[0] = 0.0;
        if (c->tangents) {
            memmove(c->tangents + tangent, c->tangents,
                    (size_t)c->keys * tangent * sizeof *c->tangents);
            memset(c->tangents, 0, tangent * sizeof *c->tangents);
            memset(c->tangents + tangent, 0, m * sizeof *c->tangents); /* key 1's in */
        }
        c->keys++;
    }
    if (c->times[c->keys - 1] < end) {
        const size_t k = c->keys;
        c->times[k] = end;
        memcpy(c->values + k * m, c->values + (k - 1) * m, m * sizeof *c->values);
        if (c->tangents) {
            memset(c->tangents + k * tangent, 0, tangent * sizeof *c->tangents);
            memset(c->tangents + (k - 1) * tangent + m, 0, m * sizeof *c->tangents);
        }
        c->keys++;
    }
}

/* The channel as a sequence and a track of `controller` in `builder`. */
static kfc_status add_channel(kfc_gltf_doc *doc, naming *nm, kf_builder *builder,
                              const char *controller, channel *c, double loop_end)
{
    if (loop_end > 0.0)
        clip_keys(c, loop_end);
    char *seq_name = sequence_name(doc, nm, controller, c->target, c->at);
    if (!seq_name)
        return kfc_fail_nomem(doc->diag);
    /* Names are output too: a node's name is repeated in the sequence (and
     * the target) of every channel that animates it. */
    kfc_status st = kfc_gltf_charge(doc, strlen(seq_name) + strlen(c->target), c->at);
    if (st) {
        free(seq_name);
        return st;
    }
    kf_sequence_desc desc;
    kf_sequence_desc_init(&desc);
    desc.name = seq_name;
    desc.interpolation = c->interpolation;
    /* glTF holds the end values; a looping clip repeats. */
    desc.repeat = loop_end > 0.0 ? KF_REPEAT_LOOP : KF_REPEAT_CONSTANT;
    desc.components = c->components;
    desc.key_count = c->keys;
    desc.valid_first = 0;
    desc.valid_last = c->keys - 1;
    desc.times = c->times;
    desc.values = c->values;
    desc.tangents = c->tangents;
    desc.duration = loop_end > 0.0                ? loop_end
                    : c->times[c->keys - 1] > 0.0 ? c->times[c->keys - 1]
                                                  : 1.0;
    kf_error error;
    kf_result r = kf_builder_add_sequence(builder, &desc, &error);
    if (r == KF_OK) {
        kf_track_desc track = {seq_name, controller, c->target, 0};
        r = kf_builder_add_track(builder, &track, &error);
        for (size_t i = 0; i < c->also_count && r == KF_OK; i++) {
            track.target = c->also[i];
            r = kf_builder_add_track(builder, &track, &error);
        }
    }
    if (r != KF_OK)
        st = r == KF_ERROR_OUT_OF_MEMORY ? kfc_fail_nomem(doc->diag)
                                         : kfc_gltf_fail(doc->diag, c->at, "%s", error.message);
    free(seq_name);
    return st;
}

/* ---- animations --------------------------------------------------------- */

/* kfc_recover, unless the input's budget is spent (kfc_gltf_data.h): then
 * nothing more can be read, and the error stops the import. */
static kfc_status recover(kfc_gltf_doc *doc, kfc_status st)
{
    st = kfc_recover(doc->diag, st);
    return !st && doc->spent ? KFC_INVALID : st;
}

/* The nodes whose own weights a channel of `anim` animates, into `own`:
 * node index -> the first such channel. For them that channel plays, not
 * one of their mesh's weights (mesh_weights_nodes), whichever comes
 * first. */
static kfc_status own_weights(kfc_gltf_doc *doc, const naming *nm, const json_t *anim, json_t *own)
{
    const json_t *channels = json_object_get(anim, "channels");
    for (size_t ci = 0; ci < json_array_size(channels); ci++) {
        int64_t n;
        int p;
        char key[24];
        if (!node_target(json_object_get(json_array_get(channels, ci), "target"), nm->node_count,
                         &n, &p) ||
            p != PATH_WEIGHTS)
            continue;
        snprintf(key, sizeof key, "%lld", (long long)n);
        if (!json_object_get(own, key) &&
            json_object_set_new(own, key, json_integer((json_int_t)ci)))
            return kfc_fail_nomem(doc->diag);
    }
    return KFC_OK;
}

/* The animation's channels, read first (a looping clip's length is its
 * longest channel's), then its controller and, for each channel read
 * without error, a sequence and a track in `builder`. */
static kfc_status compile_animation(kfc_gltf_doc *doc, naming *nm, kf_builder *builder, size_t ai,
                                    const json_t *anim, const char *controller, double weight)
{
    const json_t *channels = json_object_get(anim, "channels");
    const size_t count = json_array_size(channels);
    channel *chs = calloc(count + 1, sizeof *chs);
    json_t *targets = json_object(), *own = json_object();
    kfc_status st =
        chs && targets && own ? own_weights(doc, nm, anim, own) : kfc_fail_nomem(doc->diag);
    double end = 0.0;
    for (size_t ci = 0; ci < count && !st; ci++) {
        st = recover(doc, read_channel(doc, nm, ai, anim, ci, own, targets, &chs[ci]));
        if (!st && chs[ci].used && chs[ci].times[chs[ci].keys - 1] > end)
            end = chs[ci].times[chs[ci].keys - 1];
    }
    /* A clip of many minutes: key times written in milliseconds? (at the
     * first channel that ends last; glTF has no speed to play them at) */
    for (size_t ci = 0; ci < count && !st && end >= KFC_LONG_SECONDS; ci++)
        if (chs[ci].used && chs[ci].times[chs[ci].keys - 1] == end) {
            st = kfc_warn_long_seconds(doc->diag, KFC_NO_MARK, chs[ci].input_at, "last key time",
                                       end, "glTF");
            break;
        }
    if (!st) {
        char at[64];
        snprintf(at, sizeof at, "/animations/%lu", (unsigned long)ai);
        kf_controller_desc cd;
        kf_controller_desc_init(&cd);
        cd.name = controller;
        cd.weight = weight;
        kf_error error;
        kf_result r = kf_builder_add_controller(builder, &cd, &error);
        if (r == KF_ERROR_OUT_OF_MEMORY)
            st = kfc_fail_nomem(doc->diag);
        else if (r != KF_OK) /* its channels would have no controller */
            st = kfc_recover(doc->diag, kfc_gltf_fail(doc->diag, at, "%s", error.message));
        else
            /* A clip of no length does not loop: nothing moves. */
            for (size_t ci = 0; ci < count && !st; ci++)
                if (chs[ci].used)
                    st = recover(doc, add_channel(doc, nm, builder, controller, &chs[ci],
                                                  doc->options->loop ? end : 0.0));
    }
    for (size_t ci = 0; chs && ci < count; ci++)
        channel_clear(&chs[ci]);
    free(chs);
    json_decref(targets);
    json_decref(own);
    return st;
}

/* ---- --animation -------------------------------------------------------- */

/* The index `text` spells when it is digits only and the file has that
 * animation, else -1. */
static long long index_named(const char *text, size_t count)
{
    size_t value = 0;
    if (!*text)
        return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        /* (at `count` it stays at least `count`, whatever digits follow) */
        value = value >= count ? count : value * 10 + (size_t)(*p - '0');
    }
    return value < count ? (long long)value : -1;
}

/* The first animation after `after` (-1: from the first) named `name`, or
 * -1. */
static long long next_named(const naming *nm, const char *name, long long after)
{
    for (size_t i = (size_t)(after + 1); i < json_array_size(nm->anims); i++) {
        const char *own = usable_name(json_array_get(nm->anims, i));
        if (own && strcmp(own, name) == 0)
            return (long long)i;
    }
    return -1;
}

enum { SELECTS_NONE = -1, SELECTS_SHARED = -2, SELECTS_CLASH = -3 };

/* The animation --animation `text` selects: digits are an index when the
 * file has that animation, else (and any other text) a name. SELECTS_CLASH
 * when the index is another animation's name (*other: that one);
 * SELECTS_SHARED when several animations have the name. */
static long long selects(const naming *nm, const char *text, long long *other)
{
    const long long index = index_named(text, json_array_size(nm->anims));
    const json_int_t count = json_integer_value(json_object_get(nm->anim_counts, text));
    *other = -1;
    if (index >= 0) {
        if (count > 0 && (*other = next_named(nm, text, -1)) == index)
            *other = next_named(nm, text, index);
        return *other >= 0 ? SELECTS_CLASH : index;
    }
    return count == 0 ? SELECTS_NONE : count > 1 ? SELECTS_SHARED : next_named(nm, text, -1);
}

/* "-a 3" when animation `ai`'s index selects it alone, else "". */
static char *by_index(const naming *nm, size_t ai, char *out, size_t size)
{
    long long other;
    snprintf(out, size, "%lu", (unsigned long)ai);
    if (selects(nm, out, &other) == (long long)ai)
        snprintf(out, size, "-a %lu", (unsigned long)ai);
    else
        out[0] = '\0';
    return out;
}

/* "-a 'Walk'" when animation `ai`'s name selects it alone, else "". */
static char *by_name(const naming *nm, size_t ai, char *out, size_t size)
{
    const char *name = usable_name(json_array_get(nm->anims, ai));
    long long other;
    char quoted[KFC_QUOTE_SIZE];
    out[0] = '\0';
    if (name && selects(nm, name, &other) == (long long)ai)
        snprintf(out, size, "-a %s", kfc_quote(quoted, name, strlen(name)));
    return out;
}

/* Appends `item` to the list in `out` (`*n` bytes so far, `*items` items)
 * with ", ", or " and " or " or " (`last`) before the last of `count`. */
static void list_add(char *out, size_t size, size_t *n, size_t *items, size_t count,
                     const char *last, const char *item)
{
    if (*n >= size)
        return;
    const char *joint = *items == 0 ? "" : *items + 1 == count ? last : ", ";
    *n += (size_t)snprintf(out + *n, size - *n, "%s%s", joint, item);
    ++*items;
}

/* --animation named nothing: the name meant, or when the file has few,
 * all of them (a name several share, once; one without a name by the
 * index that selects it). A usage error, as when it names several: the
 * argument is at fault, not the file. */
static kfc_status no_such_animation(kfc_gltf_doc *doc, const naming *nm)
{
    const char *wanted = doc->options->animation;
    const size_t count = json_array_size(nm->anims);
    kfc_suggest sg;
    kfc_suggest_begin(&sg, doc->diag, wanted, strlen(wanted));
    for (size_t i = 0; i < count; i++) {
        const char *name = usable_name(json_array_get(nm->anims, i));
        if (name)
            kfc_suggest_offer(&sg, name, strlen(name));
    }
    char mean[200], more[360], quoted[KFC_QUOTE_SIZE];
    kfc_suggest_text(&sg, mean, sizeof mean);
    kfc_quote(quoted, wanted, strlen(wanted));
    if (mean[0] || count == 0 || count > 4) {
        char has[32];
        if (count)
            snprintf(has, sizeof has, "%lu", (unsigned long)count);
        else
            snprintf(has, sizeof has, "none");
        return kfc_fail(doc->diag, KFC_USAGE, KFC_NO_MARK,
                        "no animation named or numbered %s (the file has %s)%s", quoted, has, mean);
    }
    size_t distinct = 0, n = 0, items = 0;
    more[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        const char *name = usable_name(json_array_get(nm->anims, i));
        distinct += !name || next_named(nm, name, -1) == (long long)i;
    }
    for (size_t i = 0; i < count; i++) {
        const char *name = usable_name(json_array_get(nm->anims, i));
        char item[KFC_QUOTE_SIZE + 48], option[32], other[KFC_QUOTE_SIZE];
        if (!name) {
            /* (a bare index would read as a count: "'Walk' twice and 2") */
            int len = snprintf(item, sizeof item, "an unnamed one at index %lu", (unsigned long)i);
            if (by_index(nm, i, option, sizeof option)[0] && len > 0 && (size_t)len < sizeof item)
                snprintf(item + len, sizeof item - (size_t)len, " (%s)", option);
        } else if (next_named(nm, name, -1) < (long long)i) {
            continue; /* said with the first */
        } else {
            const json_int_t k = json_integer_value(json_object_get(nm->anim_counts, name));
            snprintf(item, sizeof item, "%s%s", kfc_quote(other, name, strlen(name)),
                     k == 2   ? " twice"
                     : k == 3 ? " 3 times"
                     : k == 4 ? " 4 times"
                              : "");
        }
        list_add(more, sizeof more, &n, &items, distinct, " and ", item);
    }
    return kfc_fail(doc->diag, KFC_USAGE, KFC_NO_MARK,
                    "no animation named or numbered %s; the file has %lu: %s", quoted,
                    (unsigned long)count, more);
}

/* --animation names several animations: a usage error that says how to
 * name the one meant. */
static kfc_status several_animations(kfc_gltf_doc *doc, const naming *nm, long long how,
                                     long long other)
{
    const char *wanted = doc->options->animation;
    char quoted[KFC_QUOTE_SIZE], give[320];
    kfc_quote(quoted, wanted, strlen(wanted));
    if (how == SELECTS_CLASH) {
        /* Each by what else selects it alone: `index` by its name, `other`
         * by its index. */
        const size_t index = (size_t)index_named(wanted, json_array_size(nm->anims));
        char a[32], b[KFC_QUOTE_SIZE + 8];
        by_index(nm, (size_t)other, a, sizeof a);
        by_name(nm, index, b, sizeof b);
        if (a[0] && b[0])
            snprintf(give, sizeof give, "give %s for animation %lld, or %s for animation %lu", a,
                     other, b, (unsigned long)index);
        else if (a[0] || b[0])
            snprintf(give, sizeof give, "give %s for animation %llu", a[0] ? a : b,
                     a[0] ? (unsigned long long)other : (unsigned long long)index);
        else
            snprintf(give, sizeof give,
                     "neither has a name or index of its own: import every animation, or "
                     "each into a file of its own with --split");
        return kfc_fail(doc->diag, KFC_USAGE, KFC_NO_MARK,
                        "%s is both the index of animation %lu and the name of animation %lld: "
                        "%s",
                        quoted, (unsigned long)index, other, give);
    }
    /* A shared name: its animations' indices (the first few), and those
     * that select their animation alone. */
    const size_t count = (size_t)json_integer_value(json_object_get(nm->anim_counts, wanted));
    const size_t shown = count <= 4 ? count : 3;
    char list[160];
    size_t l = 0, listed = 0, g = 0, given = 0, can = 0;
    long long first[4];
    for (long long i = next_named(nm, wanted, -1); i >= 0 && listed < shown;
         i = next_named(nm, wanted, i)) {
        char item[32], option[32];
        snprintf(item, sizeof item, "%lld", i);
        list_add(list, sizeof list, &l, &listed, count <= 4 ? count : 0, " and ", item);
        first[listed - 1] = by_index(nm, (size_t)i, option, sizeof option)[0] ? i : -1;
        can += first[listed - 1] >= 0;
    }
    if (count > 4 && l < sizeof list)
        snprintf(list + l, sizeof list - l, " and %lu more", (unsigned long)(count - shown));
    give[0] = '\0';
    for (size_t k = 0; k < listed; k++) {
        char option[32];
        if (first[k] >= 0) {
            snprintf(option, sizeof option, "-a %lld", first[k]);
            list_add(give, sizeof give, &g, &given, count <= 4 ? can : 0, " or ", option);
        }
    }
    if (count > 4 && given && g < sizeof give)
        snprintf(give + g, sizeof give - g, " ...");
    return kfc_fail(doc->diag, KFC_USAGE, KFC_NO_MARK, "%lu animations are named %s (%s): %s%s",
                    (unsigned long)count, quoted, list, given ? "give its index, " : "",
                    given ? give
                          : "no index selects one alone: import every animation, or each into "
                            "a file of its own with --split");
}

/* Adds "node/path" to the set `mine`; 1 into *overlap when `played` has it. */
static kfc_status overlap_key(kfc_gltf_doc *doc, int64_t node, int path, const json_t *played,
                              json_t *mine, int *overlap)
{
    char key[48];
    snprintf(key, sizeof key, "%lld/%d", (long long)node, path);
    *overlap |= json_object_get(played, key) != NULL;
    return json_object_set(mine, key, json_true()) ? kfc_fail_nomem(doc->diag) : KFC_OK;
}

/* Whether animation `ai` animates a node and path an earlier one played
 * at full weight; records its own in `played` when not. A channel of a
 * mesh's weights animates the weights of each node that plays them
 * (mesh_weights_nodes), as that node's own channel would. */
static kfc_status overlaps(kfc_gltf_doc *doc, const naming *nm, size_t ai, const json_t *anim,
                           json_t *played, json_t *mine, int *overlap)
{
    const json_t *channels = json_object_get(anim, "channels");
    kfc_status st = KFC_OK;
    *overlap = 0;
    json_object_clear(mine);
    for (size_t ci = 0; ci < json_array_size(channels) && !st; ci++) {
        const json_t *target = json_object_get(json_array_get(channels, ci), "target");
        const char *pointer = target_pointer(target);
        int64_t n;
        int p;
        size_t mesh;
        if (pointer && mesh_weights_pointer(pointer, &mesh)) {
            /* Each node of the mesh is a key to look up and add, for every
             * such channel: counted, as the tracks they make are. */
            size_t count;
            const mesh_node *instances = mesh_instances(nm, mesh, &count);
            char at[96];
            snprintf(at, sizeof at, "/animations/%lu/channels/%lu", (unsigned long)ai,
                     (unsigned long)ci);
            st = kfc_gltf_charge_numbers(doc, (uint64_t)count * KFC_GLTF_CHECK_NUMBERS, at);
            for (size_t k = 0; k < count && !st; k++)
                if (mesh_weights_use(nm, instances[k].node, mesh, NULL, NULL) == MESH_PLAYS)
                    st = overlap_key(doc, (int64_t)instances[k].node, PATH_WEIGHTS, played, mine,
                                     overlap);
        } else if (node_target(target, nm->node_count, &n, &p))
            st = overlap_key(doc, n, p, played, mine, overlap);
    }
    if (!st && !*overlap && json_object_update(played, mine))
        st = kfc_fail_nomem(doc->diag);
    return st;
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
    if ((st = kfc_gltf_buffers(doc)))
        return st;

    const json_t *anims = json_object_get(doc->root, "animations");
    if (anims && !json_is_array(anims))
        return kfc_gltf_fail(doc->diag, "/animations", "expected an array");
    const size_t count = anims ? json_array_size(anims) : 0;
    const kfc_import_options *o = doc->options;
    /* Targets ("node/path") played at full weight so far: an animation
     * that would play into one of them again starts at weight 0 (a viewer
     * plays one at a time; M3G would add them). Each clip of its own file
     * plays at full weight. */
    json_t *played = json_object(), *mine = json_object();
    naming nm;
    st = naming_init(doc, &nm);
    if (!st && (!played || !mine))
        st = kfc_fail_nomem(doc->diag);
    /* --animation: the one animation, decided before any is read. */
    long long only = -1, other = -1;
    if (!st && o->animation) {
        only = selects(&nm, o->animation, &other);
        if (only == SELECTS_NONE)
            st = no_such_animation(doc, &nm);
        else if (only < 0)
            st = several_animations(doc, &nm, only, other);
    }
    for (size_t ai = 0; ai < count && !st; ai++) {
        if (o->animation && (long long)ai != only)
            continue;
        const json_t *anim = json_array_get(anims, ai);
        char at[64];
        snprintf(at, sizeof at, "/animations/%lu", (unsigned long)ai);
        if (!json_is_object(anim) || !json_is_array(json_object_get(anim, "channels"))) {
            st = kfc_recover(doc->diag, kfc_gltf_fail(doc->diag, at,
                                                      "expected an object with a 'channels' "
                                                      "array"));
            continue;
        }
        char *controller = controller_name(doc, &nm, ai);
        if (!controller) {
            st = kfc_fail_nomem(doc->diag);
            break;
        }
        int overlap = 0;
        kf_builder *out = builder;
        if (o->clip) {
            out = o->clip(o->clip_user, ai, controller, doc->diag);
            json_object_clear(nm.sequences); /* a file of its own */
            if (!out)
                st = kfc_fail_nomem(doc->diag);
        } else if (!(st = overlaps(doc, &nm, ai, anim, played, mine, &overlap)) && overlap) {
            char quoted[KFC_QUOTE_SIZE];
            note(o,
                 "animation %s shares targets with an earlier one: its "
                 "controller starts at weight 0",
                 kfc_quote(quoted, controller, strlen(controller)));
        }
        if (!st)
            st = compile_animation(doc, &nm, out, ai, anim, controller, overlap ? 0.0 : 1.0);
        free(controller);
    }
    json_decref(played);
    json_decref(mine);
    naming_free(&nm);
    return st;
}

/* Whether the last byte before the one-byte token that ends at byte
 * `position` of `json` (jansson's error.position), white space aside, is a
 * ','. */
static int comma_before(const char *json, size_t size, int position)
{
    if (position < 2 || (size_t)position > size)
        return 0;
    size_t i = (size_t)position - 1;
    while (i > 0 && strchr(" \t\r\n", json[i - 1]))
        i--;
    return i > 0 && json[i - 1] == ',';
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
        /* jansson quotes the input near the error as it is, and may cut
         * its last character short: escaped as every message is
         * (kfc_text.h), so that it stays one line of text. */
        char text[KF_TEXT_ESCAPE_SIZE * sizeof error.text], said[sizeof error.text];
        const char *message = error.text;
        /* jansson's words name its own flag, which no user can set. */
        if (strstr(message, "JSON_ALLOW_NUL")) {
            const char *near = strstr(message, " near ");
            snprintf(said, sizeof said,
                     "a NUL character (\\u0000) is not allowed in a glTF string%s",
                     near ? near : "");
            message = said;
        }
        kfc_text_escape(text, sizeof text, message);
        /* What the two likeliest slips look like in jansson's words: a
         * member or an item with no ',' before it, a ',' with nothing after
         * it (which JSON does not allow). */
        const char *hint = "";
        const int closer = !strncmp(message, "'}' expected near", 17) ||
                           !strncmp(message, "']' expected near", 17);
        if (closer && !strcmp(message + 17, " end of file"))
            hint = " (the file ends before its objects and arrays are closed: is it cut short?)";
        else if (closer && strcmp(message + 17, " '}'") && strcmp(message + 17, " ']'"))
            hint = " (is the ',' before it missing?)";
        else if ((!strcmp(message, "string or '}' expected near '}'") ||
                  !strcmp(message, "unexpected token near ']'")) &&
                 comma_before((const char *)json, json_size, error.position))
            hint = " (a ',' before it with nothing after? JSON allows none)";
        return kfc_fail(diag, KFC_INVALID, mark, "%s%s", text, hint);
    }
    st = compile_document(&doc, builder);
    kfc_gltf_doc_free(&doc);
    json_decref(doc.root);
    return st;
}

const kfc_importer kfc_gltf_importer = {
    "glTF 2.0", kfc_gltf_detect, kfc_gltf_compile, "/animations", NULL, NULL, NULL};
