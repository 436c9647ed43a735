/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_scene.h - the scene graph both X3D readers fill: nodes with their
 * fields as source text, DEF names, ROUTEs, and the notes about what the
 * importer leaves out.
 *
 * The readers (kfc_x3d_xml.c, kfc_x3d_vrml.c) know the encodings' syntax
 * but no node's fields: a field's value is kept as the text that wrote it,
 * with its position, and parsed only when the mapping (kfc_x3d_map.c) needs
 * it, so a malformed number in a field kfc does not animate costs nothing
 * and one in a field it does is reported at its own line and column. Field
 * names are kept as written; kfc_x3d_base_name removes X3D's "set_" and
 * "_changed" aliases where a ROUTE is matched.
 *
 * Only nodes the mapping can reach are kept (kfc_x3d_keeps_node): those
 * with a DEF name, and Scripts (-v notes them); of those, only the fields
 * it reads (kfc_x3d_keeps_field), and the names of those written on an
 * animating node that its type does not have (kfc_x3d_check_field), which
 * are mistakes the mapping reports. DEF names are bound as X3D scopes them:
 * nodes inside a prototype's body bind no name of the scene (and are not
 * kept), and ROUTEs inside a body are not the scene's. A later DEF of the
 * same name rebinds it for what follows, as in VRML; ROUTEs resolve their
 * names where they stand, or at the end of the file when a name is bound
 * only later (XML readers are lenient there).
 *
 * The header's UNIT statements are checked here for both encodings
 * (kfc_x3d_add_unit); kfc_x3d_map applies the angle's. Notes are held and
 * written in the order of the file (kfc_x3d_notes_flush), whichever part
 * of the importer made them.
 */
#ifndef KFC_X3D_SCENE_H
#define KFC_X3D_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_arena.h"
#include "kfc_diag.h"
#include "kfc_import.h"
#include "kfc_x3d_nodes.h"

/* Limits that keep memory and time in proportion to the input. */
#define KFC_X3D_MAX_DEPTH 256 /* nesting of nodes (and XML elements) */

/*
 * Memory in proportion to the scene's text (docs/limits.md): what the
 * importer allocates for a scene (the scene graph, expat's buffers, the
 * numbers it reads, what it gives the builder, estimated from above) is
 * charged against KFC_X3D_BUDGET_BASE plus KFC_X3D_BUDGET_PER_BYTE for each
 * byte of text the reader is given (the inflated text of a gzipped scene);
 * a scene that needs more is refused where it asks.
 */
#define KFC_X3D_BUDGET_BASE     ((uint64_t)64 << 20)
#define KFC_X3D_BUDGET_PER_BYTE 32u
/* Charges for what the builder is given, from above: four times its
 * floats (the builder holds them; the encoder writes the file and checks
 * it). A key: its float and the interpolator's precomputed values (up to
 * 8 floats); a value's component: its float; an animator, controller or
 * track: the record, its name's index entry. */
#define KFC_X3D_COST_KEY    144u
#define KFC_X3D_COST_NUMBER 16u
#define KFC_X3D_COST_OBJECT 512u
#define KFC_X3D_BUDGET_MESSAGE                                                                     \
    "the scene needs more memory than kfc gives a scene of its size (64 MiB and 32 bytes per "     \
    "byte of text)"

/* A field's value as written. */
typedef struct kfc_x3d_text {
    const char *text; /* `length` bytes, not NUL-terminated */
    size_t length;
    kfc_mark mark; /* position of text[0] */
    int exact;     /* 1: `text` is the source's own bytes, so a position inside it
                      is counted from `mark`; 0: every error points at `mark` */
    int comments;  /* 1: '#' starts a comment to the end of the line (ClassicVRML) */
} kfc_x3d_text;

typedef struct kfc_x3d_field {
    const char *name; /* as written: "set_translation", "keyValue" */
    kfc_x3d_text value;
    kfc_mark mark; /* the field's name */
    struct kfc_x3d_field *next;
} kfc_x3d_field;

typedef struct kfc_x3d_route kfc_x3d_route;

/* A field written on an animating node that its type does not have
 * (`keyValu="..."`): the importer ignores it, and says so once the node
 * animates. */
typedef struct kfc_x3d_unknown {
    const char *name;
    kfc_mark mark;
    struct kfc_x3d_unknown *next;
} kfc_x3d_unknown;

typedef struct kfc_x3d_node {
    const char *type; /* "Transform", or a prototype's name */
    const char *def;  /* DEF name, or NULL */
    const char *name; /* the node's kfb name: DEF, or DEF#n for the n-th node
                         given that DEF (n >= 2); NULL without DEF */
    kfc_mark mark;
    kfc_x3d_field *fields; /* the fields kfc_x3d_map reads, of an animating node only;
                              a repeated field (or its alias) keeps the last value */
    int in_proto;          /* inside a prototype's body */
    int animates;          /* an interpolator, a TimeSensor or a follower: its fields are kept */
    uint32_t index;        /* document order */
    /* ROUTEs from and to this node (filled by kfc_x3d_scene_finish). */
    kfc_x3d_route **out, **in;
    uint32_t out_count, in_count;
    /* X3D's definition of `type`, or NULL: a prototype's type, or none. */
    const kfc_x3d_node_type *node_type;
    /* A prototype's instance (XML's ProtoInstance): its fields are unknown. */
    int instance;
    /* The fields written that its type does not have, if it animates. */
    kfc_x3d_unknown *unknown, *unknown_last;
    struct kfc_x3d_node *next; /* document order */
} kfc_x3d_node;

struct kfc_x3d_route {
    const char *from_def, *from_field, *to_def, *to_field;
    kfc_x3d_node *from, *to; /* NULL until resolved */
    kfc_mark mark;
    int reported; /* a warning about it was given: a ROUTE the walk meets again
                     (an interpolator two sensors drive) gets one */
    struct kfc_x3d_route *next;
};

typedef struct kfc_x3d_binding kfc_x3d_binding;
typedef struct kfc_x3d_use_at kfc_x3d_use_at;
typedef struct kfc_x3d_note_line kfc_x3d_note_line;

/* The categories of X3D's UNIT statement (ISO/IEC 19775-1, 4.3.6). */
typedef enum kfc_x3d_unit {
    KFC_X3D_UNIT_ANGLE,
    KFC_X3D_UNIT_FORCE,
    KFC_X3D_UNIT_LENGTH,
    KFC_X3D_UNIT_MASS,
    KFC_X3D_UNIT_COUNT
} kfc_x3d_unit;

typedef struct kfc_x3d_scene {
    kfc_arena arena;
    const kfc_import_options *options;
    kfc_x3d_node *nodes, *last_node;
    uint32_t node_count;
    kfc_x3d_route *routes, *last_route;
    uint32_t route_count;
    kfc_x3d_binding **table; /* DEF name -> node, open hashing */
    size_t table_size, table_used;
    uint64_t table_key[2]; /* the table's hash secret (kf_index.h) */
    /* Slots the table's lookups visited: tests check that crafted names cost
     * no more than any others. */
    uint64_t table_probes;
    struct kfc_x3d_proto *protos; /* prototypes declared, in reverse order */
    const char **proto_names;     /* sorted, by kfc_x3d_scene_finish */
    size_t proto_count;
    uint32_t notes;  /* notes written */
    uint64_t offers; /* names offered for "did you mean" (kfc_x3d_offer) */
    uint64_t budget; /* bytes the importer may still allocate (kfc_x3d_charge) */
    int budget_set;  /* the budget was given (kfc_x3d_scene_budget) */
    int over_budget; /* a charge was refused: NULL meant the budget, not malloc */
    /* The version the header states (kfc_x3d_set_version), which says
     * whether X3D allows UNIT statements. */
    unsigned version; /* major * 100 + minor (303), or 0: not stated */
    int vrml97;       /* a VRML97 file: X3D allows no UNIT statement */
    kfc_mark version_mark;
    /* The UNIT statements (kfc_x3d_add_unit): where each category's is
     * (line 0: none), and the angle's, which kfc_x3d_map applies. */
    kfc_mark unit_at[KFC_X3D_UNIT_COUNT];
    int unit_seen;          /* a UNIT statement was read (a category known or not) */
    const char *angle_unit; /* its name, or NULL */
    double angle_factor;    /* radians per angle unit: 1 without UNIT angle */
    /* USEs no DEF before them binds (kfc_x3d_use), names IMPORT binds. */
    kfc_x3d_use_at *uses, *last_use;
    struct kfc_x3d_proto *imports; /* in reverse order */
    const char **import_names;     /* sorted, by kfc_x3d_scene_finish */
    size_t import_count;
    /* Notes held until kfc_x3d_notes_flush, in the order written. */
    kfc_x3d_note_line *note_lines, *last_note_line;
} kfc_x3d_scene;

void kfc_x3d_scene_init(kfc_x3d_scene *scene, const kfc_import_options *options);
void kfc_x3d_scene_free(kfc_x3d_scene *scene);

/* Sets the budget for `text_size` bytes of text (each reader does, once,
 * for the text it is given). */
void kfc_x3d_scene_budget(kfc_x3d_scene *scene, size_t text_size);

/* Takes `bytes` from the budget: 1, or 0 (nothing taken, over_budget set)
 * when they are not left. */
int kfc_x3d_charge(kfc_x3d_scene *scene, uint64_t bytes);

/* Gives back `bytes` charged for memory since freed. */
void kfc_x3d_refund(kfc_x3d_scene *scene, uint64_t bytes);

/* `size` bytes of the scene's arena, charged; NULL when they are past the
 * budget or memory runs out. */
void *kfc_x3d_alloc(kfc_x3d_scene *scene, size_t size, size_t align);

/* The failure an allocation's NULL means: the budget's refusal at `mark`
 * when the budget ran out, else out of memory. */
kfc_status kfc_x3d_fail_alloc(kfc_x3d_scene *scene, kfc_mark mark, kfc_diag *diag);

/* A copy of `length` bytes in the scene's arena, NUL-terminated; NULL when
 * memory runs out. */
char *kfc_x3d_strdup(kfc_x3d_scene *scene, const char *text, size_t length);

/* Whether the reader keeps a node of `type` (`length` bytes): one with a
 * DEF name outside a prototype's body (a ROUTE may reach it), or a Script
 * (noted by -v). Other nodes are read and dropped: kfc_x3d_map could never
 * reach them. */
int kfc_x3d_keeps_node(const char *type, size_t length, int has_def, int in_proto);

/* Whether the reader keeps field `name` (`length` bytes, as written) of
 * `node` (NULL: a node not kept): one kfc_x3d_map reads, of an animating
 * node. */
int kfc_x3d_keeps_field(const kfc_x3d_node *node, const char *name, size_t length);

/* A new node of `type` at `mark` (in document order); `def` may be NULL.
 * Binds `def` unless `in_proto`. NULL when memory runs out or the budget
 * does (kfc_x3d_fail_alloc). */
kfc_x3d_node *kfc_x3d_add_node(kfc_x3d_scene *scene, const char *type, const char *def,
                               kfc_mark mark, int in_proto);

/* Sets a field of `node` (the strings must live as long as the scene): a
 * field of the same name, or its set_ / _changed alias, is replaced. */
kfc_status kfc_x3d_add_field(kfc_x3d_scene *scene, kfc_x3d_node *node, const char *name,
                             const kfc_x3d_text *value, kfc_mark mark, kfc_diag *diag);

/* Records a prototype declared (PROTO, EXTERNPROTO, ProtoDeclare,
 * ExternProtoDeclare) as `name` (`length` bytes): a node of that type is
 * none of X3D's, and unknown to the importer. */
kfc_status kfc_x3d_add_proto(kfc_x3d_scene *scene, const char *name, size_t length, kfc_mark mark,
                             kfc_diag *diag);

/* The prototype kfc_x3d_add_proto recorded last. */
struct kfc_x3d_proto *kfc_x3d_last_proto(kfc_x3d_scene *scene);

/* A ROUTE in the body of `proto` (NULL: none), which kfc does not import:
 * a body that drives an interpolator from a sensor and sends its value on
 * animates every instance, and kfc_x3d_proto_instance says so. */
kfc_status kfc_x3d_proto_route(kfc_x3d_scene *scene, struct kfc_x3d_proto *proto,
                               const char *from_def, const char *from_field, const char *to_def,
                               const char *to_field, kfc_mark mark, kfc_diag *diag);

/* A node of `type` at `mark`, outside any prototype's body: when `type`
 * is a prototype whose body animates, a warning (-Wx3d-dropped) at its
 * first instance. */
kfc_status kfc_x3d_proto_instance(kfc_x3d_scene *scene, const char *type, kfc_mark mark,
                                  kfc_diag *diag);

/* Whether `type` names a prototype the scene declares (after
 * kfc_x3d_scene_finish). */
int kfc_x3d_is_proto(const kfc_x3d_scene *scene, const char *type);

/* Whether the scene declared a prototype named `type` so far (while it is
 * read: a search through all of them). */
int kfc_x3d_proto_declared(const kfc_x3d_scene *scene, const char *type);

/* Notes field `name` (`length` bytes) written at `mark` on `node` when
 * `node` animates and its type has no such field (kfc_x3d_unknown). */
kfc_status kfc_x3d_check_field(kfc_x3d_scene *scene, kfc_x3d_node *node, const char *name,
                               size_t length, kfc_mark mark, kfc_diag *diag);

/* The version the header states: `text` (`length` bytes, "3.3"), at
 * `mark`; `vrml97` for "#VRML V2.0". A version that is not MAJOR.MINOR is
 * taken as none stated. */
void kfc_x3d_set_version(kfc_x3d_scene *scene, const char *text, size_t length, kfc_mark mark,
                         int vrml97);

/* A UNIT statement at `mark`: its category (angle, force, length or mass),
 * its unit's name and its conversion factor (a positive number: the unit in
 * X3D's base unit, radians for an angle), each as written. What X3D forbids
 * and X_ITE reads anyway is read as X_ITE reads it, with a warning: a
 * scene older than X3D 3.3 or VRML97 (-Wx3d-lenient, once), a category X3D
 * does not define (ignored, -Wx3d-unknown), a second UNIT of a category
 * (it replaces the first), a factor that is not positive, and in XML one
 * that is a number followed by more text (read as the number) or none,
 * which only a UNIT angle cannot be (X_ITE makes every angle NaN with it).
 * Where each statement goes is the reader's to check. */
kfc_status kfc_x3d_add_unit(kfc_x3d_scene *scene, const kfc_x3d_text *category,
                            const kfc_x3d_text *name, const kfc_x3d_text *factor, kfc_mark mark,
                            kfc_diag *diag);

/* A USE of `def` (`length` bytes) at `mark`, outside a prototype's body
 * (a body's names are its own): when no DEF before it binds the name,
 * kfc_x3d_scene_finish warns of it (-Wx3d-unknown), saying whether a DEF
 * after it does (X3D wants the DEF first; X_ITE looks ahead, and warns of
 * a name nothing binds). */
kfc_status kfc_x3d_use(kfc_x3d_scene *scene, const char *def, size_t length, kfc_mark mark,
                       kfc_diag *diag);

/* A name an IMPORT statement binds (its AS name, else the name imported):
 * a USE may name it. */
kfc_status kfc_x3d_add_import(kfc_x3d_scene *scene, const char *name, size_t length, kfc_mark mark,
                              kfc_diag *diag);

/* The node bound to `def` now, or NULL. */
kfc_x3d_node *kfc_x3d_lookup(const kfc_x3d_scene *scene, const char *def);

/* A ROUTE of the scene (not of a prototype's body): resolved now where
 * both names are bound, else at kfc_x3d_scene_finish. */
kfc_status kfc_x3d_add_route(kfc_x3d_scene *scene, const char *from_def, const char *from_field,
                             const char *to_def, const char *to_field, kfc_mark mark,
                             kfc_diag *diag);

/* After the reader: resolves the remaining ROUTEs and indexes every
 * node's ROUTEs. A ROUTE that names no node is a warning (-Wx3d-unknown,
 * with the DEF name probably meant) when it would be part of a chain the
 * importer follows, else a note; a USE no DEF before it binds is a
 * warning (kfc_x3d_use). */
kfc_status kfc_x3d_scene_finish(kfc_x3d_scene *scene, kfc_diag *diag);

/* The field called `name` (or its set_/_changed alias) of `node`, or NULL. */
const kfc_x3d_field *kfc_x3d_field_get(const kfc_x3d_node *node, const char *name);

/* Whether `field` (as written in a ROUTE) is `base`, directly or through
 * X3D's "set_" / "_changed" alias. */
int kfc_x3d_field_is(const char *field, const char *base);

/* `field` without its "set_" prefix or "_changed" suffix, into `out`. */
void kfc_x3d_base_name(const char *field, char *out, size_t size);

/* A field of an X3D node type (kfc_x3d_nodes.h). */
typedef struct kfc_x3d_field_type {
    const char *name; /* `length` bytes, in the type's table */
    size_t length;
    const char *type; /* "SFFloat": `type_length` bytes */
    size_t type_length;
    unsigned access; /* KFC_X3D_INITIALIZE, KFC_X3D_IN, KFC_X3D_OUT */
} kfc_x3d_field_type;

/* X3D's node type `name`, or NULL. */
const kfc_x3d_node_type *kfc_x3d_node_type_find(const char *name);

/* The field at *cursor (start with the type's `fields`), moving past it;
 * 0 after the last. */
int kfc_x3d_field_next(const char **cursor, kfc_x3d_field_type *out);

/* The field of `type` that `name` names: the one so named, or an
 * inputOutput one with X3D's "set_" prefix or "_changed" suffix (which
 * only those take). 0 when there is none. */
int kfc_x3d_field_find(const kfc_x3d_node_type *type, const char *name, kfc_x3d_field_type *out);

/* kfc_x3d_field_find for a name of `length` bytes, not NUL-terminated. */
int kfc_x3d_field_find_length(const kfc_x3d_node_type *type, const char *name, size_t length,
                              kfc_x3d_field_type *out);

/* Whether `node`'s type is one the importer cannot tell: none of X3D's
 * (kfc_x3d_nodes.h), no prototype's (after kfc_x3d_scene_finish). */
int kfc_x3d_unknown_type(const kfc_x3d_scene *scene, const kfc_x3d_node *node);

/* Whether ROUTE `r` (its nodes resolved or NULL) is part of a chain the
 * importer follows, or would be but for a name: out of an animating node's
 * chain output (out of a node it cannot tell, or none, any of those events),
 * or into set_fraction of an interpolator, a node it cannot tell or none.
 * Only a mistake in such a ROUTE is a warning: the rest of a scene is not
 * imported anyway. */
int kfc_x3d_in_chain(const kfc_x3d_scene *scene, const kfc_x3d_route *r);

struct kfc_suggest;

/* kfc_suggest_offer, while the scene's budget of offers lasts (0 after). */
int kfc_x3d_offer(kfc_x3d_scene *scene, struct kfc_suggest *sg, const char *name, size_t length);

/* "ROUTE A.f TO B.g" for a message into `out`: as the scene writes it,
 * unquoted, each name written as kfc_text.h writes a name and cut to fit a
 * line. Returns `out`. */
#define KFC_X3D_ROUTE_SIZE (4 * KFC_QUOTE_SIZE + 16)
const char *kfc_x3d_route_text(char out[KFC_X3D_ROUTE_SIZE], const kfc_x3d_route *r);

/* The event an animating node sends down a chain (fraction_changed,
 * modifiedFraction_changed, value_changed), or NULL. */
const char *kfc_x3d_chain_output(const kfc_x3d_node *node);

/* A note "FILE:LINE:COL: note: ..." for the -v stream (if any), held
 * until kfc_x3d_notes_flush: the readers and the mapping each note what
 * they meet, in their own order, and the notes come out in the file's. */
void kfc_x3d_note(kfc_x3d_scene *scene, kfc_mark mark, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Writes the notes held, in order of position (those at one position in
 * the order written): where they go where diag's lines go, through diag
 * (kfc_diag_note), so that while diag holds they take their places among
 * its warnings and errors. */
void kfc_x3d_notes_flush(kfc_x3d_scene *scene, kfc_diag *diag);

/*
 * Typed reads of a field's text. Numbers are separated by white space or
 * commas (ClassicVRML: also comments); each is checked against kfc's number
 * grammar, plus X3D's hexadecimal integers for SFInt32. Errors are located
 * at the number.
 */
typedef struct kfc_x3d_numbers {
    double *values;
    size_t count;
} kfc_x3d_numbers;

/* Every number of `text` into a scene-arena array. */
kfc_status kfc_x3d_read_numbers(kfc_x3d_scene *scene, const kfc_x3d_text *text,
                                kfc_x3d_numbers *out, kfc_diag *diag);

/* One number (SFFloat, SFTime, SFInt32). */
kfc_status kfc_x3d_read_number(const kfc_x3d_text *text, double *out, kfc_diag *diag);

/* Whether `word` (no sign) is one of the numbers X3D browsers read by name
 * where a float stands (PI, PI1_2, SQRT2, ..., and NAN and INF, which
 * kfc refuses), in any case: the readers take it as a number, with
 * -Wx3d-lenient. */
int kfc_x3d_is_named_number(const char *word, size_t length);

/* SFBool: TRUE / FALSE (ClassicVRML), true / false (XML). */
kfc_status kfc_x3d_read_bool(const kfc_x3d_text *text, int *out, kfc_diag *diag);

#endif /* KFC_X3D_SCENE_H */
