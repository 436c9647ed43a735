/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_xml.c - X3D's XML encoding -> kfc_x3d_scene (kfc_x3d_read.h).
 *
 * XML is parsed by expat: it streams, reports errors with line and column,
 * has no network code at all, and loads no external DTD or entity unless
 * asked (kfc never asks). Entity declarations are refused outright, so no
 * entity is ever expanded: X3D needs none, and that closes the
 * exponential-expansion attacks whatever expat's own limits.
 *
 * An element is a node, except X3D's statements (ROUTE, the prototype
 * elements, head and its children). Attributes are fields. Expat gives an
 * attribute's value but not its position, so the reader finds the
 * attribute in the tag's own bytes: where those bytes are the value
 * (no character reference in it), the field's text points at them, and a
 * bad number is reported at its own line and column.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "kfc_x3d_read.h"

typedef struct reader {
    XML_Parser parser;
    kfc_x3d_scene *scene;
    kfc_diag *diag;
    kfc_status status;
    const char *data;
    size_t size;
    unsigned depth;
    unsigned proto_depth;                       /* elements open inside prototype bodies */
    unsigned char proto[KFC_X3D_MAX_DEPTH + 2]; /* 1: this level opened a prototype */
    /* The ProtoDeclare whose body is being read, and the one each level
     * that opened a prototype was inside. */
    struct kfc_x3d_proto *body, *outer[KFC_X3D_MAX_DEPTH + 2];
    /* Each open element's name (its start) and place: what a mismatched
     * end tag leaves open, named. */
    char open_name[KFC_X3D_MAX_DEPTH + 2][32];
    kfc_mark open_at[KFC_X3D_MAX_DEPTH + 2];
} reader;

static kfc_mark here(const reader *r)
{
    return (kfc_mark){(uint32_t)XML_GetCurrentLineNumber(r->parser),
                      (uint32_t)XML_GetCurrentColumnNumber(r->parser) + 1};
}

static void stop(reader *r, kfc_status status)
{
    if (!r->status)
        r->status = status;
    XML_StopParser(r->parser, XML_FALSE);
}

static void on_entity(void *user, const XML_Char *name, int is_parameter, const XML_Char *value,
                      int value_length, const XML_Char *base, const XML_Char *system_id,
                      const XML_Char *public_id, const XML_Char *notation)
{
    (void)is_parameter, (void)value, (void)value_length, (void)base, (void)system_id;
    (void)public_id, (void)notation;
    reader *r = user;
    char q[KFC_QUOTE_SIZE];
    stop(r,
         kfc_fail(r->diag, KFC_INVALID, here(r), "entity declaration %s: kfc expands no entities",
                  kfc_quote(q, name, strlen(name))));
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Reads the next attribute of the raw start tag tag[0..length) from *at
 * (0: just after the element's name): its name's offset and length, and
 * its value's; *at moves past it. 0 when there is none (or the bytes are
 * not what expat read, as in a transcoded document). */
static int next_raw_attribute(const char *tag, size_t length, size_t *at, size_t *name,
                              size_t *name_length, size_t *value, size_t *value_length)
{
    size_t i = *at;
    if (i == 0) {
        i = 1;
        while (i < length && !is_space(tag[i]) && tag[i] != '>' && tag[i] != '/')
            i++;
    }
    while (i < length && is_space(tag[i]))
        i++;
    if (i >= length || tag[i] == '>' || tag[i] == '/')
        return 0;
    *name = i;
    while (i < length && !is_space(tag[i]) && tag[i] != '=')
        i++;
    *name_length = i - *name;
    while (i < length && is_space(tag[i]))
        i++;
    if (i >= length || tag[i] != '=')
        return 0;
    i++;
    while (i < length && is_space(tag[i]))
        i++;
    if (i >= length || (tag[i] != '"' && tag[i] != '\''))
        return 0;
    char quote = tag[i++];
    *value = i;
    while (i < length && tag[i] != quote)
        i++;
    if (i >= length)
        return 0;
    *value_length = i - *value;
    *at = i + 1;
    return 1;
}

/* The position `offset` bytes after `m`, at text[0]. */
static kfc_mark advance(kfc_mark m, const char *text, size_t offset)
{
    for (size_t i = 0; i < offset; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n')
            m.line++, m.column = 1;
        else if ((c & 0xC0) != 0x80)
            m.column++;
    }
    return m;
}

static const char *attribute(const XML_Char **atts, const char *name)
{
    for (size_t i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

static const char *copy(reader *r, const char *s)
{
    if (!s)
        return NULL;
    const char *c = kfc_x3d_strdup(r->scene, s, strlen(s));
    if (!c)
        stop(r, kfc_x3d_fail_alloc(r->scene, here(r), r->diag));
    return c;
}

/*
 * Expat's memory, charged to the scene's budget: its buffer of text not
 * yet parsed, a tag's attributes, its name pools. Expat's allocator takes
 * no user pointer, so the scene being read is the thread's; each block
 * carries its size, to give it back when expat frees it.
 */
static _Thread_local kfc_x3d_scene *charged_scene;

typedef union block_header {
    size_t size;
    max_align_t align;
} block_header;

static void *charged_malloc(size_t size)
{
    if (size > SIZE_MAX - sizeof(block_header) || !kfc_x3d_charge(charged_scene, size))
        return NULL;
    block_header *h = malloc(sizeof *h + size);
    if (!h) {
        kfc_x3d_refund(charged_scene, size);
        return NULL;
    }
    h->size = size;
    return h + 1;
}

static void charged_free(void *p)
{
    if (!p)
        return;
    block_header *h = (block_header *)p - 1;
    kfc_x3d_refund(charged_scene, h->size);
    free(h);
}

static void *charged_realloc(void *p, size_t size)
{
    if (!p)
        return charged_malloc(size);
    block_header *h = (block_header *)p - 1;
    size_t old = h->size;
    if (size > SIZE_MAX - sizeof(block_header) ||
        (size > old && !kfc_x3d_charge(charged_scene, size - old)))
        return NULL;
    block_header *grown = realloc(h, sizeof *grown + size);
    if (!grown) {
        if (size > old)
            kfc_x3d_refund(charged_scene, size - old);
        return NULL;
    }
    if (size < old)
        kfc_x3d_refund(charged_scene, old - size);
    grown->size = size;
    return grown + 1;
}

/* Attributes that are not fields of the node. */
static int not_a_field(const char *name)
{
    static const char *const names[] = {"DEF", "USE", "containerField", "class", "id", "style"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return strncmp(name, "xmlns", 5) == 0 || strchr(name, ':') != NULL;
}

/* The start tag's own bytes into *tag, when the input is the UTF-8 text
 * expat reads (not UTF-16 or Latin-1 transcoded); else 0. */
static int raw_tag(const reader *r, const char **tag, size_t *length)
{
    XML_Index start = XML_GetCurrentByteIndex(r->parser);
    int count = XML_GetCurrentByteCount(r->parser);
    if (start >= 0 && count > 0 && (size_t)start < r->size &&
        (size_t)count <= r->size - (size_t)start && r->data[start] == '<') {
        *tag = r->data + start;
        *length = (size_t)count;
        return 1;
    }
    return 0;
}

/* Attribute `name` of the element starting now, as a field's text is
 * kept: its own bytes and place where the tag's bytes are found (and
 * hold no character reference), else expat's value, placed at the tag. 0
 * when the element has no such attribute. */
static int attribute_text(const reader *r, const XML_Char **atts, const char *name,
                          kfc_x3d_text *out)
{
    const char *value = attribute(atts, name), *tag;
    size_t length, at = 0, n, nlen, v, vlen;
    if (!value)
        return 0;
    *out = (kfc_x3d_text){value, strlen(value), here(r), 0, 0};
    if (!raw_tag(r, &tag, &length))
        return 1;
    while (next_raw_attribute(tag, length, &at, &n, &nlen, &v, &vlen))
        if (nlen == strlen(name) && memcmp(tag + n, name, nlen) == 0) {
            out->mark = advance(out->mark, tag, v);
            if (!memchr(tag + v, '&', vlen)) {
                out->text = tag + v;
                out->length = vlen;
                out->exact = 1;
            }
            break;
        }
    return 1;
}

static void add_node(reader *r, const char *type, const XML_Char **atts, int instance)
{
    kfc_mark mark = here(r);
    const char *def = attribute(atts, "DEF"), *use = attribute(atts, "USE");
    if (use) {
        /* The node is the one its DEF made: nothing new. A prototype's
         * body has names of its own. */
        kfc_status st;
        if (!r->proto_depth && (st = kfc_x3d_use(r->scene, use, strlen(use), mark, r->diag)))
            stop(r, st);
        return;
    }
    if (strcmp(type, "Inline") == 0)
        kfc_x3d_note(r->scene, mark, "Inline: the scene it loads is not imported");
    kfc_status animates;
    if (instance && !r->proto_depth &&
        (animates = kfc_x3d_proto_instance(r->scene, type, mark, r->diag))) {
        stop(r, animates);
        return;
    }
    /* A node nothing can reach is not kept. */
    if (!kfc_x3d_keeps_node(type, strlen(type), def != NULL, r->proto_depth > 0))
        return;
    const char *type_copy = copy(r, type), *def_copy = def ? copy(r, def) : NULL;
    if (r->status)
        return;
    kfc_x3d_node *node = kfc_x3d_add_node(r->scene, type_copy, def_copy, mark, r->proto_depth > 0);
    if (!node) {
        stop(r, kfc_x3d_fail_alloc(r->scene, mark, r->diag));
        return;
    }
    const char *tag = NULL;
    size_t tag_length = 0;
    if (!raw_tag(r, &tag, &tag_length))
        tag = NULL;
    /* Expat gives the attributes in the tag's order: one pass over the tag
     * finds them all (an attribute whose bytes are not found, and every
     * one after it, is placed at the tag). */
    size_t at = 0, counted = 0; /* the tag's bytes counted into `where` */
    kfc_mark where = mark;
    node->instance = instance;
    for (size_t i = 0; atts[i] && !r->status; i += 2) {
        size_t n = 0, nlen, v = 0, vlen = 0;
        if (tag && !(next_raw_attribute(tag, tag_length, &at, &n, &nlen, &v, &vlen) &&
                     nlen == strlen(atts[i]) && memcmp(tag + n, atts[i], nlen) == 0))
            tag = NULL;
        if (not_a_field(atts[i]) || (instance && strcmp(atts[i], "name") == 0))
            continue;
        if (node->animates) {
            /* A field the type lacks is reported at its name. */
            if (tag) {
                where = advance(where, tag + counted, n - counted);
                counted = n;
            }
            kfc_status st = kfc_x3d_check_field(r->scene, node, atts[i], strlen(atts[i]),
                                                tag ? where : mark, r->diag);
            if (st) {
                stop(r, st);
                return;
            }
        }
        if (!kfc_x3d_keeps_field(node, atts[i], strlen(atts[i])))
            continue;
        kfc_x3d_text text = {atts[i + 1], strlen(atts[i + 1]), mark, 0, 0};
        if (tag) {
            where = advance(where, tag + counted, v - counted);
            counted = v;
            text.mark = where;
            if (!memchr(tag + v, '&', vlen)) {
                text.text = tag + v;
                text.length = vlen;
                text.exact = 1;
            }
        }
        if (!text.exact && !(text.text = copy(r, text.text)))
            return;
        const char *name = copy(r, atts[i]);
        if (!name)
            return;
        kfc_status st = kfc_x3d_add_field(r->scene, node, name, &text, text.mark, r->diag);
        if (st)
            stop(r, st);
    }
}

static void add_route(reader *r, const XML_Char **atts)
{
    static const char *const names[4] = {"fromNode", "fromField", "toNode", "toField"};
    const char *v[4];
    kfc_mark mark = here(r);
    for (int i = 0; i < 4; i++) {
        v[i] = attribute(atts, names[i]);
        if (!v[i]) {
            stop(r, kfc_fail(r->diag, KFC_INVALID, mark, "ROUTE without %s", names[i]));
            return;
        }
    }
    if (r->proto_depth) {
        kfc_status st =
            kfc_x3d_proto_route(r->scene, r->body, v[0], v[1], v[2], v[3], mark, r->diag);
        if (st)
            stop(r, st);
        return;
    }
    const char *c[4];
    for (int i = 0; i < 4; i++)
        if (!(c[i] = copy(r, v[i])))
            return;
    kfc_status st = kfc_x3d_add_route(r->scene, c[0], c[1], c[2], c[3], mark, r->diag);
    if (st)
        stop(r, st);
}

/* <unit category= name= conversionFactor=/>, in <head>. X_ITE reads one
 * there alone, and drops one without its three attributes. */
static void add_unit(reader *r, const XML_Char **atts)
{
    static const char *const names[3] = {"category", "name", "conversionFactor"};
    kfc_x3d_text text[3];
    const kfc_mark mark = here(r);
    const char *parent = r->open_name[r->depth - 1];
    kfc_status st = KFC_OK;
    if (r->depth != 3 || strcmp(parent, "head") != 0) {
        st = kfc_warn(r->diag, KFC_WARN_X3D_LENIENT, mark,
                      "<unit> in <%s> ignored, as browsers do: it belongs in the <head> of <X3D>, "
                      "before the scene",
                      parent);
        if (st)
            stop(r, st);
        return;
    }
    for (int i = 0; i < 3; i++)
        if (!attribute_text(r, atts, names[i], &text[i])) {
            st = kfc_warn(r->diag, KFC_WARN_X3D_LENIENT, mark,
                          "<unit> without %s ignored, as browsers do", names[i]);
            if (st)
                stop(r, st);
            return;
        }
    if ((st = kfc_x3d_add_unit(r->scene, &text[0], &text[1], &text[2], mark, r->diag)))
        stop(r, st);
}

/* Elements that are statements or structure, not nodes. */
static int statement(const char *name)
{
    static const char *const names[] = {
        "X3D",          "head",   "meta",           "component", "unit",
        "Scene",        "IS",     "connect",        "field",     "fieldValue",
        "IMPORT",       "EXPORT", "ProtoInterface", "ProtoBody", "ExternProtoDeclare",
        "ProtoDeclare", "ROUTE",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

static void on_start(void *user, const XML_Char *name, const XML_Char **atts)
{
    reader *r = user;
    if (r->status)
        return;
    if (r->depth >= KFC_X3D_MAX_DEPTH) {
        stop(r, kfc_fail(r->diag, KFC_INVALID, here(r), "elements nested deeper than %d",
                         KFC_X3D_MAX_DEPTH));
        return;
    }
    r->depth++;
    r->proto[r->depth] = 0;
    snprintf(r->open_name[r->depth], sizeof r->open_name[r->depth], "%s", name);
    r->open_at[r->depth] = here(r);
    char q[KFC_QUOTE_SIZE];
    if (r->depth == 1 && strcmp(name, "X3D") != 0) {
        stop(r, kfc_fail(r->diag, KFC_INVALID, here(r), "the root element is %s, not X3D",
                         kfc_quote(q, name, strlen(name))));
        return;
    }
    kfc_x3d_text version;
    if (r->depth == 1 && attribute_text(r, atts, "version", &version))
        kfc_x3d_set_version(r->scene, version.text, version.length, version.mark, 0);
    if (strcmp(name, "ProtoDeclare") == 0 || strcmp(name, "ExternProtoDeclare") == 0) {
        const char *proto = attribute(atts, "name");
        kfc_x3d_note(r->scene, here(r), "%s %s: prototypes are not imported", name,
                     kfc_quote(q, proto ? proto : "", proto ? strlen(proto) : 0));
        r->proto[r->depth] = 1;
        r->proto_depth++;
        kfc_status st;
        if (proto && (st = kfc_x3d_add_proto(r->scene, proto, strlen(proto), here(r), r->diag))) {
            stop(r, st);
            return;
        }
        r->outer[r->depth] = r->body;
        r->body = proto && strcmp(name, "ProtoDeclare") == 0 ? kfc_x3d_last_proto(r->scene) : NULL;
    }
    if (strcmp(name, "ROUTE") == 0) {
        add_route(r, atts);
    } else if (strcmp(name, "IMPORT") == 0 || strcmp(name, "EXPORT") == 0) {
        kfc_x3d_note(r->scene, here(r), "%s is not followed: names it binds are not imported",
                     name);
        /* A USE may name what it imports: its AS name, else the name
         * imported. */
        const char *as = attribute(atts, "AS");
        if (!as || !*as)
            as = attribute(atts, "importedDEF");
        kfc_status st;
        if (strcmp(name, "IMPORT") == 0 && as && !r->proto_depth &&
            (st = kfc_x3d_add_import(r->scene, as, strlen(as), here(r), r->diag)))
            stop(r, st);
    } else if (strcmp(name, "unit") == 0) {
        add_unit(r, atts);
    } else if (strcmp(name, "ProtoInstance") == 0) {
        const char *type = attribute(atts, "name");
        add_node(r, type ? type : "ProtoInstance", atts, 1);
    } else if (!statement(name) && r->depth > 1) {
        add_node(r, name, atts, 0);
    }
}

static void on_end(void *user, const XML_Char *name)
{
    (void)name;
    reader *r = user;
    if (r->depth == 0)
        return;
    if (r->proto[r->depth]) {
        r->proto_depth--;
        r->body = r->outer[r->depth];
    }
    r->depth--;
}

kfc_status kfc_x3d_read_xml(kfc_x3d_scene *scene, const char *data, size_t size, kfc_diag *diag)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.scene = scene;
    r.diag = diag;
    r.data = data;
    r.size = size;
    kfc_x3d_scene_budget(scene, size);
    static const XML_Memory_Handling_Suite memory = {charged_malloc, charged_realloc, charged_free};
    charged_scene = scene;
    r.parser = XML_ParserCreate_MM(NULL, &memory, NULL);
    if (!r.parser)
        return kfc_x3d_fail_alloc(scene, (kfc_mark){1, 1}, diag);
    XML_SetUserData(r.parser, &r);
    XML_SetElementHandler(r.parser, on_start, on_end);
    XML_SetEntityDeclHandler(r.parser, on_entity);
    XML_SetParamEntityParsing(r.parser, XML_PARAM_ENTITY_PARSING_NEVER);
    /* Expat takes int lengths: feed large inputs in pieces. */
    const size_t piece = (size_t)1 << 28;
    size_t done = 0;
    do {
        size_t n = size - done < piece ? size - done : piece;
        int last = done + n == size;
        if (XML_Parse(r.parser, data + done, (int)n, last) != XML_STATUS_OK) {
            enum XML_Error e = XML_GetErrorCode(r.parser);
            if (!r.status && e == XML_ERROR_NO_MEMORY)
                r.status = kfc_x3d_fail_alloc(scene, here(&r), diag);
            else if (!r.status && e == XML_ERROR_TAG_MISMATCH && r.depth > 0)
                r.status = kfc_fail(diag, KFC_INVALID, here(&r),
                                    "XML: %s: <%s> (%lu:%lu) is still open here (end it with "
                                    "'/>', or </%s> before this)",
                                    XML_ErrorString(e), r.open_name[r.depth],
                                    (unsigned long)r.open_at[r.depth].line,
                                    (unsigned long)r.open_at[r.depth].column, r.open_name[r.depth]);
            else if (!r.status)
                r.status = kfc_fail(diag, KFC_INVALID, here(&r), "XML: %s", XML_ErrorString(e));
            break;
        }
        done += n;
    } while (done < size);
    XML_ParserFree(r.parser);
    charged_scene = NULL;
    return r.status;
}
