/* SPDX-License-Identifier: MIT */
/*
 * kfc_x3d_vrml.c - X3D's ClassicVRML encoding and VRML97 ->
 * kfc_x3d_scene (kfc_x3d_read.h).
 *
 * One reader for both: VRML97's grammar is ClassicVRML's without the X3D
 * statements (PROFILE, COMPONENT, META, UNIT, IMPORT, EXPORT) and with
 * older names for interface declarations (eventIn for inputOnly, ...); a
 * "#VRML V2.0" file may use X3D's nodes, which the reader does not tell
 * apart anyway: it knows the grammar, and X3D's node types only to tell
 * a word that is a field's value from one that starts a node. A field's
 * value is read by its shape (numbers, strings, TRUE/FALSE, nodes, or a
 * bracketed list of those), so fields of nodes kfc has never heard of are
 * read too; where the field's type is known (X3D's node types, a Script's
 * declarations), a word that is not a value of that type is an error at
 * the word, not a node type missing its '{'. XML's true and false, which
 * X_ITE reads where a boolean may stand, are read so (-Wx3d-lenient).
 *
 * Recursion (nodes in fields, prototype bodies) is bounded by
 * KFC_X3D_MAX_DEPTH, and every token is consumed once: time and memory
 * follow the input's size.
 */
#include <stdio.h>
#include <string.h>

#include "kfc_sniff.h"
#include "kfc_x3d_read.h"

typedef enum kind {
    T_EOF,
    T_ID,
    T_NUMBER,
    T_STRING,
    T_LBRACKET,
    T_RBRACKET,
    T_LBRACE,
    T_RBRACE,
    T_DOT
} kind;

typedef struct token {
    kind kind;
    size_t start, end;
    kfc_mark mark;
} token;

/* Where the reader is among the header's statements, which come in this
 * order: PROFILE, COMPONENT, UNIT, META, then the scene's own (X3D's
 * grammar, which X_ITE holds to: it refuses a scene that breaks it). */
enum stage { AT_START, AT_PROFILE, AT_COMPONENT, AT_UNIT, AT_META, IN_SCENE };

typedef struct lexer {
    kfc_x3d_scene *scene;
    kfc_diag *diag;
    const char *data;
    size_t size, pos;
    kfc_mark mark;   /* of data[pos] */
    token peek;      /* the next token, already read */
    size_t last_end; /* end of the last token taken */
    unsigned depth;
    enum stage stage;
    /* Per X3D node type (kfc_x3d_node_types), 1 where a PROTO of that name
     * replaces it: its fields are then the prototype's. NULL: none does. */
    unsigned char *shadowed;
    struct kfc_x3d_proto *body; /* the PROTO whose body is being read, or NULL */
} lexer;

/* What a field's value must be, as far as the reader can tell. */
typedef struct want {
    const char *type; /* X3D's field type ("SFBool", `type_length` bytes), or NULL:
                         the value is read by its shape (a prototype's field, one
                         its node's type does not have) */
    size_t type_length;
    const token *field; /* the field's name, or NULL */
    /* Why the type is not known, where that makes a value unreadable: the
     * node type or field type no one defines, or NULL. */
    const token *unknown;
    int unknown_field; /* `unknown` is a field type, not a node type */
} want;

static void step(lexer *l)
{
    unsigned char c = (unsigned char)l->data[l->pos++];
    if (c == '\n')
        l->mark.line++, l->mark.column = 1;
    else if ((c & 0xC0) != 0x80)
        l->mark.column++;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',';
}

/* Characters that end an identifier or a number. */
static int is_delimiter(char c)
{
    return is_space(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == '"' || c == '#';
}

static int id_rest(unsigned char c)
{
    return c > 0x20 && c != 0x7f && c != '"' && c != '#' && c != '\'' && c != ',' && c != '.' &&
           c != '[' && c != '\\' && c != ']' && c != '{' && c != '}';
}

static int id_first(unsigned char c)
{
    return id_rest(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-';
}

static kfc_status lex(lexer *l)
{
    token *t = &l->peek;
    for (;;) {
        while (l->pos < l->size && is_space(l->data[l->pos]))
            step(l);
        if (l->pos < l->size && l->data[l->pos] == '#') {
            while (l->pos < l->size && l->data[l->pos] != '\n' && l->data[l->pos] != '\r')
                step(l);
            continue;
        }
        break;
    }
    t->start = l->pos;
    t->mark = l->mark;
    if (l->pos >= l->size) {
        t->kind = T_EOF;
        t->end = l->pos;
        return KFC_OK;
    }
    unsigned char c = (unsigned char)l->data[l->pos];
    const char *punct = "[]{}.";
    const char *p = c ? strchr(punct, c) : NULL;
    int digit_next =
        l->pos + 1 < l->size && l->data[l->pos + 1] >= '0' && l->data[l->pos + 1] <= '9';
    if (p && !(c == '.' && digit_next)) {
        static const kind kinds[] = {T_LBRACKET, T_RBRACKET, T_LBRACE, T_RBRACE, T_DOT};
        t->kind = kinds[p - punct];
        step(l);
    } else if (c == '"') {
        step(l);
        while (l->pos < l->size && l->data[l->pos] != '"') {
            if (l->data[l->pos] == '\\' && l->pos + 1 < l->size)
                step(l);
            step(l);
        }
        if (l->pos >= l->size)
            return kfc_fail(l->diag, KFC_INVALID, t->mark, "unterminated string");
        step(l);
        t->kind = T_STRING;
    } else if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
        while (l->pos < l->size && !is_delimiter(l->data[l->pos]))
            step(l);
        t->kind = T_NUMBER;
    } else if (id_first(c)) {
        while (l->pos < l->size && id_rest((unsigned char)l->data[l->pos]))
            step(l);
        t->kind = T_ID;
    } else {
        return kfc_fail(l->diag, KFC_INVALID, t->mark, "unexpected character 0x%02x", c);
    }
    t->end = l->pos;
    return KFC_OK;
}

static int is_id(const lexer *l, const token *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == T_ID && t->end - t->start == n && memcmp(l->data + t->start, word, n) == 0;
}

/* Takes the next token into *t and reads the one after. */
static kfc_status next(lexer *l, token *t)
{
    *t = l->peek;
    l->last_end = t->end;
    return lex(l);
}

/* The token after the next one, into *after; nothing is taken. */
static kfc_status peek_after(lexer *l, token *after)
{
    size_t save_pos = l->pos;
    kfc_mark save_mark = l->mark;
    token save = l->peek;
    kfc_status st = lex(l);
    *after = l->peek;
    l->pos = save_pos;
    l->mark = save_mark;
    l->peek = save;
    return st;
}

static const char *describe(const lexer *l, const token *t, char q[KFC_QUOTE_SIZE])
{
    if (t->kind == T_EOF)
        return "the end of the file";
    return kfc_quote(q, l->data + t->start, t->end - t->start);
}

static kfc_status expect(lexer *l, kind k, const char *what, token *t)
{
    *t = l->peek;
    char q[KFC_QUOTE_SIZE];
    if (l->peek.kind != k)
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "expected %s, not %s", what,
                        describe(l, &l->peek, q));
    return next(l, t);
}

static const char *name_of(lexer *l, const token *t)
{
    return kfc_x3d_strdup(l->scene, l->data + t->start, t->end - t->start);
}

/* A copy of `t`'s text into *out. */
static kfc_status copy_name(lexer *l, const token *t, const char **out)
{
    if (!(*out = name_of(l, t)))
        return kfc_x3d_fail_alloc(l->scene, t->mark, l->diag);
    return KFC_OK;
}

static kfc_status node(lexer *l, int in_proto);
static kfc_status statement(lexer *l, int in_proto, int *taken);

/* `w` for a field of X3D type `type` (`length` bytes); a type X3D does
 * not have leaves the value to be read by its shape. */
static void want_type(want *w, const char *type, size_t length)
{
    static const char *const kinds[] = {
        "Bool",     "Color",    "ColorRGBA", "Double",   "Float", "Image",    "Int32",
        "Matrix3d", "Matrix3f", "Matrix4d",  "Matrix4f", "Node",  "Rotation", "String",
        "Time",     "Vec2d",    "Vec2f",     "Vec3d",    "Vec3f", "Vec4d",    "Vec4f"};
    w->type = NULL;
    w->type_length = 0;
    if (length < 3 || (type[0] != 'S' && type[0] != 'M') || type[1] != 'F')
        return;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strlen(kinds[i]) == length - 2 && memcmp(kinds[i], type + 2, length - 2) == 0) {
            w->type = type;
            w->type_length = length;
            return;
        }
}

/* Whether `w`'s type is the SF or MF type of `base` ("Bool"). */
static int type_is(const want *w, const char *base)
{
    size_t n = strlen(base);
    return w->type && w->type_length == n + 2 && memcmp(w->type + 2, base, n) == 0;
}

/* Whether a field of `w`'s type holds floats or doubles, where X_ITE
 * reads its named numbers (not integers: its SFInt32 grammar has none). */
static int takes_floats(const want *w)
{
    static const char *const bases[] = {
        "Float", "Double",   "Time",  "Vec2f",     "Vec3f",    "Vec4f",    "Vec2d",    "Vec3d",
        "Vec4d", "Rotation", "Color", "ColorRGBA", "Matrix3f", "Matrix4f", "Matrix3d", "Matrix4d"};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
        if (type_is(w, bases[i]))
            return 1;
    return 0;
}

/* Whether the next token is a number X_ITE reads by name (PI, SQRT2, ...)
 * where it stands, in a field of floats: taken as one, which the number
 * reader warns of. */
static int named_float(const lexer *l, const want *w)
{
    return l->peek.kind == T_ID && takes_floats(w) &&
           kfc_x3d_is_named_number(l->data + l->peek.start, l->peek.end - l->peek.start);
}

/* Whether `t`'s text is `word` (lower case) in any case. */
static int same_letters(const lexer *l, const token *t, const char *word)
{
    size_t n = strlen(word);
    if (t->end - t->start != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = l->data[t->start + i];
        if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != word[i])
            return 0;
    }
    return 1;
}

/* Identifier `t` into `name`, NUL-terminated; 0 when it is longer than
 * any node type's name may be. */
static int type_name(const lexer *l, const token *t, char name[64])
{
    size_t n = t->end - t->start;
    if (n >= 64)
        return 0;
    memcpy(name, l->data + t->start, n);
    name[n] = '\0';
    return 1;
}

/* Whether identifier `t` names a node type: X3D's, or a prototype's the
 * scene declared. */
static int names_node_type(const lexer *l, const token *t)
{
    char name[64];
    return type_name(l, t, name) &&
           (kfc_x3d_node_type_find(name) || kfc_x3d_proto_declared(l->scene, name));
}

/* The word at l->peek, where a value of `w` stands and no word may: an
 * error at the word, saying what the field takes. */
static kfc_status bad_word(lexer *l, const want *w, int in_list)
{
    char q[KFC_QUOTE_SIZE];
    const token *t = &l->peek;
    const char *upper = same_letters(l, t, "true")    ? "TRUE"
                        : same_letters(l, t, "false") ? "FALSE"
                                                      : NULL;
    describe(l, t, q);
    if (w->unknown && w->field) {
        /* The word is a value of a type no one defines (CosmoWorlds' enums):
         * the mistake is the type, where it is written. */
        char type[KFC_QUOTE_SIZE], field[KFC_QUOTE_SIZE];
        kfc_quote(type, l->data + w->unknown->start, w->unknown->end - w->unknown->start);
        kfc_quote(field, l->data + w->field->start, w->field->end - w->field->start);
        if (w->unknown_field)
            return kfc_fail(l->diag, KFC_INVALID, w->unknown->mark,
                            "unknown field type %s (X3D and VRML97 have no such type), so the "
                            "value of %s cannot be read (at %lu:%lu)",
                            type, field, (unsigned long)t->mark.line,
                            (unsigned long)t->mark.column);
        return kfc_fail(l->diag, KFC_INVALID, w->unknown->mark,
                        "unknown node type %s (not an X3D or VRML97 node, and no PROTO or "
                        "EXTERNPROTO declares it), so its field %s cannot be read (%s at %lu:%lu)",
                        type, field, q, (unsigned long)t->mark.line, (unsigned long)t->mark.column);
    }
    /* XML writes true and false: the slip VRML's TRUE and FALSE invite. */
    if (type_is(w, "Bool") || (!w->type && upper))
        return kfc_fail(l->diag, KFC_INVALID, t->mark, "expected TRUE or FALSE, not %s%s%s%s", q,
                        upper ? "; did you mean '" : "", upper ? upper : "", upper ? "'?" : "");
    if (type_is(w, "String"))
        return kfc_fail(l->diag, KFC_INVALID, t->mark, "expected a string in double quotes, not %s",
                        q);
    if (w->type)
        return kfc_fail(l->diag, KFC_INVALID, t->mark, "expected a number, not %s", q);
    return kfc_fail(l->diag, KFC_INVALID, t->mark, "expected %s, not %s",
                    in_list ? "a value or ']'" : "a field value", q);
}

/* A node where a value may hold one: DEF/USE/NULL or Type { }. *taken 0
 * when the next token starts no node. */
static kfc_status maybe_node(lexer *l, int in_proto, int *taken)
{
    token t;
    *taken = 0;
    if (l->peek.kind != T_ID)
        return KFC_OK;
    if (is_id(l, &l->peek, "NULL")) {
        *taken = 1;
        return next(l, &t);
    }
    if (is_id(l, &l->peek, "USE")) {
        const kfc_mark at = l->peek.mark;
        kfc_status st;
        *taken = 1;
        if ((st = next(l, &t)) || (st = expect(l, T_ID, "a DEF name after USE", &t)))
            return st;
        /* A prototype's body has names of its own. */
        return in_proto ? KFC_OK
                        : kfc_x3d_use(l->scene, l->data + t.start, t.end - t.start, at, l->diag);
    }
    if (is_id(l, &l->peek, "TRUE") || is_id(l, &l->peek, "FALSE"))
        return KFC_OK;
    *taken = 1;
    return node(l, in_proto);
}

/* A word (identifier) where a value of `w` stands: TRUE or FALSE where
 * they may be, a node where one may be, else a mistake. Where the field's
 * type is not known, a word starts a node when '{' follows it or it names
 * a node type (a missing '{' is reported then); any other is a value
 * mistyped (`loop true`, `cycleInterval two`). */
static kfc_status word(lexer *l, int in_proto, const want *w, int in_list)
{
    token t, after;
    kfc_status st;
    int taken;
    const int boolean = is_id(l, &l->peek, "TRUE") || is_id(l, &l->peek, "FALSE");
    if (boolean && (!w->type || type_is(w, "Bool") || type_is(w, "Node")))
        return next(l, &t);
    /* X_ITE reads XML's spelling too, wherever a boolean may stand. */
    const int lower = is_id(l, &l->peek, "true") || is_id(l, &l->peek, "false");
    if (lower && (!w->type || type_is(w, "Bool"))) {
        const int yes = is_id(l, &l->peek, "true");
        if ((st = kfc_warn(l->diag, KFC_WARN_X3D_LENIENT, l->peek.mark,
                           "'%s' read as %s, as browsers do: %s writes %s", yes ? "true" : "false",
                           yes ? "TRUE" : "FALSE", l->scene->vrml97 ? "VRML97" : "ClassicVRML",
                           yes ? "TRUE" : "FALSE")))
            return st;
        return next(l, &t);
    }
    const int named = kfc_x3d_is_named_number(l->data + l->peek.start, l->peek.end - l->peek.start);
    if (named_float(l, w))
        return next(l, &t);
    if (type_is(w, "Node"))
        return maybe_node(l, in_proto, &taken);
    if (w->type)
        return bad_word(l, w, in_list);
    if (is_id(l, &l->peek, "DEF") || is_id(l, &l->peek, "USE") || is_id(l, &l->peek, "NULL"))
        return maybe_node(l, in_proto, &taken);
    if ((st = peek_after(l, &after)))
        return st;
    if (after.kind == T_LBRACE || names_node_type(l, &l->peek))
        return node(l, in_proto);
    if (named) /* (a field of a type not known: a number, should it be one) */
        return next(l, &t);
    return bad_word(l, w, in_list);
}

/* One value of a field, by its shape, checked against `w`'s type where
 * that is known. *end: where its text ends. */
static kfc_status value(lexer *l, int in_proto, const want *w, size_t *end)
{
    token t;
    kfc_status st;
    char q[KFC_QUOTE_SIZE];
    if (l->peek.kind == T_NUMBER || named_float(l, w)) {
        while (l->peek.kind == T_NUMBER || named_float(l, w))
            if ((st = next(l, &t)))
                return st;
        *end = l->last_end;
        return KFC_OK;
    }
    switch (l->peek.kind) {
    case T_STRING:
        if ((st = next(l, &t)))
            return st;
        break;
    case T_LBRACKET: {
        const kfc_mark bracket = l->peek.mark;
        if ((st = next(l, &t)))
            return st;
        while (l->peek.kind != T_RBRACKET) {
            if (l->peek.kind == T_EOF || l->peek.kind == T_RBRACE) {
                /* Where the bracket opened, which the place it ends cannot say. */
                const token *f = w->field;
                return kfc_fail(l->diag, KFC_INVALID, l->peek.mark,
                                "expected a value or ']', not %s: the '[' %s%.*s%sat %lu:%lu is "
                                "not closed",
                                describe(l, &l->peek, q), f ? "of " : "",
                                f ? (int)(f->end - f->start < 64 ? f->end - f->start : 64) : 0,
                                f ? l->data + f->start : "", f ? " " : "",
                                (unsigned long)bracket.line, (unsigned long)bracket.column);
            }
            if (l->peek.kind == T_NUMBER || l->peek.kind == T_STRING)
                st = next(l, &t);
            else if (l->peek.kind == T_ID)
                st = word(l, in_proto, w, 1);
            else
                return kfc_fail(l->diag, KFC_INVALID, l->peek.mark,
                                "expected a value or ']', not %s", describe(l, &l->peek, q));
            if (st)
                return st;
        }
        if ((st = next(l, &t)))
            return st;
        break;
    }
    case T_ID:
        if ((st = word(l, in_proto, w, 0)))
            return st;
        break;
    default:
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "expected a field value, not %s",
                        describe(l, &l->peek, q));
    }
    *end = l->last_end;
    return KFC_OK;
}

/* A node where the grammar wants one: USE name, or [DEF name] Type { }. */
static kfc_status root_node(lexer *l, int in_proto)
{
    char q[KFC_QUOTE_SIZE];
    int taken;
    kfc_status st = KFC_OK;
    taken = 0;
    if (!is_id(l, &l->peek, "NULL") && (st = maybe_node(l, in_proto, &taken)))
        return st;
    if (!taken)
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "expected a node, not %s",
                        describe(l, &l->peek, q));
    return KFC_OK;
}

static int interface_keyword(const lexer *l, const token *t)
{
    static const char *const words[] = {"eventIn",   "eventOut",   "field",          "exposedField",
                                        "inputOnly", "outputOnly", "initializeOnly", "inputOutput"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (is_id(l, t, words[i]))
            return i == 2 || i == 3 || i == 6 || i == 7 ? 2 : 1; /* 2: takes a value */
    return 0;
}

/* keyword type name [value | IS name]: a Script's or prototype's
 * interface. `with_values` 0 in EXTERNPROTO. */
static kfc_status declaration(lexer *l, int in_proto, int with_values)
{
    token kw, type, name, t;
    kfc_status st;
    int k = interface_keyword(l, &l->peek);
    if ((st = next(l, &kw)) || (st = expect(l, T_ID, "a field type", &type)) ||
        (st = expect(l, T_ID, "a field name", &name)))
        return st;
    if (is_id(l, &l->peek, "IS"))
        return (st = next(l, &t)) ? st : expect(l, T_ID, "a field name after IS", &t);
    if (k == 2 && with_values) {
        size_t end;
        want w = {NULL, 0, &name, NULL, 0};
        want_type(&w, l->data + type.start, type.end - type.start);
        if (!w.type) {
            w.unknown = &type;
            w.unknown_field = 1;
        }
        return value(l, in_proto, &w, &end);
    }
    return KFC_OK;
}

/* The body of a node of type `type` (X3D's `nt`, or NULL: a prototype's
 * or one X3D does not have), whose '{' was at `brace`. */
static kfc_status node_body(lexer *l, kfc_x3d_node *n, int in_proto, const token *type,
                            const kfc_x3d_node_type *nt, kfc_mark brace)
{
    token t;
    kfc_status st;
    char q[KFC_QUOTE_SIZE];
    const token *unknown = !nt && !names_node_type(l, type) ? type : NULL;
    while (l->peek.kind != T_RBRACE) {
        int taken;
        if ((st = statement(l, in_proto, &taken)))
            return st;
        if (taken)
            continue;
        if (l->peek.kind == T_EOF || l->peek.kind == T_RBRACKET)
            /* Where the brace opened, which the place it ends cannot say. */
            return kfc_fail(l->diag, KFC_INVALID, l->peek.mark,
                            "expected a field name or '}', not %s: the '{' of %.*s at %lu:%lu is "
                            "not closed",
                            describe(l, &l->peek, q),
                            (int)(type->end - type->start < 64 ? type->end - type->start : 64),
                            l->data + type->start, (unsigned long)brace.line,
                            (unsigned long)brace.column);
        if (l->peek.kind != T_ID)
            return kfc_fail(l->diag, KFC_INVALID, l->peek.mark,
                            "expected a field name or '}', not %s", describe(l, &l->peek, q));
        if (interface_keyword(l, &l->peek)) {
            /* "field SFFloat x 1" in a Script or prototype instance: a
             * declaration when a field type follows. */
            token after;
            if ((st = peek_after(l, &after)))
                return st;
            if (after.kind == T_ID && after.end - after.start > 2 &&
                (memcmp(l->data + after.start, "SF", 2) == 0 ||
                 memcmp(l->data + after.start, "MF", 2) == 0)) {
                if ((st = declaration(l, in_proto, 1)))
                    return st;
                continue;
            }
        }
        token field;
        if ((st = next(l, &field)))
            return st;
        if (is_id(l, &l->peek, "IS")) {
            if ((st = next(l, &t)) || (st = expect(l, T_ID, "a field name after IS", &t)))
                return st;
            continue;
        }
        want w = {NULL, 0, &field, unknown, 0};
        kfc_x3d_field_type ft;
        if (nt &&
            kfc_x3d_field_find_length(nt, l->data + field.start, field.end - field.start, &ft))
            want_type(&w, ft.type, ft.type_length);
        kfc_x3d_text text = {l->data + l->peek.start, 0, l->peek.mark, 1, 1};
        size_t end = l->peek.start;
        if ((st = value(l, in_proto, &w, &end)))
            return st;
        text.length = end - (size_t)(text.text - l->data);
        if ((st = kfc_x3d_check_field(l->scene, n, l->data + field.start, field.end - field.start,
                                      field.mark, l->diag)))
            return st;
        /* Only what the mapping reads is kept: other fields cost nothing. */
        if (!kfc_x3d_keeps_field(n, l->data + field.start, field.end - field.start))
            continue;
        const char *name;
        if ((st = copy_name(l, &field, &name)) ||
            (st = kfc_x3d_add_field(l->scene, n, name, &text, field.mark, l->diag)))
            return st;
    }
    return next(l, &t);
}

/* X3D's node type that `t` names, unless a PROTO of the scene took the
 * name; else NULL. */
static const kfc_x3d_node_type *x3d_type(const lexer *l, const token *t)
{
    char name[64];
    if (!type_name(l, t, name))
        return NULL;
    const kfc_x3d_node_type *nt = kfc_x3d_node_type_find(name);
    return nt && l->shadowed && l->shadowed[nt - kfc_x3d_node_types] ? NULL : nt;
}

/* [DEF name] Type { body } */
static kfc_status node(lexer *l, int in_proto)
{
    token t, type, def = {T_EOF, 0, 0, {0, 0}};
    kfc_status st;
    if (++l->depth > KFC_X3D_MAX_DEPTH)
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "nodes nested deeper than %d",
                        KFC_X3D_MAX_DEPTH);
    kfc_mark mark = l->peek.mark;
    if (is_id(l, &l->peek, "DEF")) {
        if ((st = next(l, &t)) || (st = expect(l, T_ID, "a name after DEF", &def)))
            return st;
    }
    if ((st = expect(l, T_ID, "a node type", &type)))
        return st;
    if (def.kind != T_ID)
        mark = type.mark;
    if ((st = expect(l, T_LBRACE, "'{' after the node type", &t)))
        return st;
    /* A node nothing can reach is read but not kept (its nodes in
     * fields may be). */
    kfc_x3d_node *n = NULL;
    if (kfc_x3d_keeps_node(l->data + type.start, type.end - type.start, def.kind == T_ID,
                           in_proto)) {
        const char *tname, *dname = NULL;
        if ((st = copy_name(l, &type, &tname)) ||
            (def.kind == T_ID && (st = copy_name(l, &def, &dname))))
            return st;
        if (!(n = kfc_x3d_add_node(l->scene, tname, dname, mark, in_proto)))
            return kfc_x3d_fail_alloc(l->scene, mark, l->diag);
    }
    if (is_id(l, &type, "Inline"))
        kfc_x3d_note(l->scene, mark, "Inline: the scene it loads is not imported");
    char tname[64];
    if (!in_proto && !x3d_type(l, &type) && type_name(l, &type, tname) &&
        (st = kfc_x3d_proto_instance(l->scene, tname, type.mark, l->diag)))
        return st;
    st = node_body(l, n, in_proto, &type, x3d_type(l, &type), t.mark);
    l->depth--;
    return st;
}

/* ROUTE a.b TO c.d */
static kfc_status route(lexer *l, int in_proto)
{
    token t;
    kfc_status st;
    kfc_mark mark = l->peek.mark;
    token names[4];
    const char *s[4];
    if ((st = next(l, &t)) || (st = expect(l, T_ID, "a node name after ROUTE", &names[0])) ||
        (st = expect(l, T_DOT, "'.'", &t)) || (st = expect(l, T_ID, "a field name", &names[1])))
        return st;
    if (!is_id(l, &l->peek, "TO")) {
        char q[KFC_QUOTE_SIZE];
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "expected TO, not %s",
                        describe(l, &l->peek, q));
    }
    if ((st = next(l, &t)) || (st = expect(l, T_ID, "a node name after TO", &names[2])) ||
        (st = expect(l, T_DOT, "'.'", &t)) || (st = expect(l, T_ID, "a field name", &names[3])))
        return st;
    if (in_proto && !l->body)
        return KFC_OK;
    for (int i = 0; i < 4; i++)
        if ((st = copy_name(l, &names[i], &s[i])))
            return st;
    if (in_proto)
        return kfc_x3d_proto_route(l->scene, l->body, s[0], s[1], s[2], s[3], mark, l->diag);
    return kfc_x3d_add_route(l->scene, s[0], s[1], s[2], s[3], mark, l->diag);
}

/* PROTO name [ declarations ] { body }, EXTERNPROTO name [ declarations ] url */
static kfc_status proto(lexer *l, int external)
{
    token t;
    kfc_status st;
    char q[KFC_QUOTE_SIZE];
    kfc_mark mark = l->peek.mark;
    token name;
    if (++l->depth > KFC_X3D_MAX_DEPTH)
        return kfc_fail(l->diag, KFC_INVALID, mark, "prototypes nested deeper than %d",
                        KFC_X3D_MAX_DEPTH);
    if ((st = next(l, &t)) || (st = expect(l, T_ID, "a prototype name", &name)) ||
        (st = expect(l, T_LBRACKET, "'['", &t)))
        return st;
    kfc_x3d_note(l->scene, mark, "%s %s: prototypes are not imported",
                 external ? "EXTERNPROTO" : "PROTO",
                 kfc_quote(q, l->data + name.start, name.end - name.start));
    if ((st = kfc_x3d_add_proto(l->scene, l->data + name.start, name.end - name.start, mark,
                                l->diag)))
        return st;
    const kfc_x3d_node_type *nt = x3d_type(l, &name);
    if (nt) {
        /* Its instances' fields are the prototype's, not X3D's node's. */
        if (!l->shadowed) {
            if (!(l->shadowed = kfc_x3d_alloc(l->scene, kfc_x3d_node_type_count, 1)))
                return kfc_x3d_fail_alloc(l->scene, mark, l->diag);
            memset(l->shadowed, 0, kfc_x3d_node_type_count);
        }
        l->shadowed[nt - kfc_x3d_node_types] = 1;
    }
    while (l->peek.kind != T_RBRACKET) {
        if (!interface_keyword(l, &l->peek))
            return kfc_fail(l->diag, KFC_INVALID, l->peek.mark,
                            "expected a field declaration or ']', not %s",
                            describe(l, &l->peek, q));
        if ((st = declaration(l, 1, !external)))
            return st;
    }
    if ((st = next(l, &t)))
        return st;
    if (external) {
        size_t end;
        const want url = {"MFString", 8, NULL, NULL, 0};
        st = value(l, 1, &url, &end);
    } else {
        if ((st = expect(l, T_LBRACE, "'{'", &t)))
            return st;
        struct kfc_x3d_proto *outer = l->body;
        l->body = kfc_x3d_last_proto(l->scene);
        while (!st && l->peek.kind != T_RBRACE) {
            int taken;
            if ((st = statement(l, 1, &taken)))
                break;
            if (!taken)
                st = root_node(l, 1);
        }
        l->body = outer;
        if (!st)
            st = next(l, &t);
    }
    l->depth--;
    return st;
}

/* The statements other than nodes; *taken 0 when the next token starts
 * none. */
static kfc_status statement(lexer *l, int in_proto, int *taken)
{
    token t;
    kfc_status st;
    *taken = 1;
    if (is_id(l, &l->peek, "ROUTE"))
        return route(l, in_proto);
    if (is_id(l, &l->peek, "PROTO"))
        return proto(l, 0);
    if (is_id(l, &l->peek, "EXTERNPROTO"))
        return proto(l, 1);
    if (is_id(l, &l->peek, "IMPORT") || is_id(l, &l->peek, "EXPORT")) {
        /* IMPORT inline.name [AS name] | EXPORT name [AS name] */
        int import = is_id(l, &l->peek, "IMPORT");
        token bound;
        kfc_mark mark = l->peek.mark;
        kfc_x3d_note(l->scene, mark, "%s is not followed: names it binds are not imported",
                     import ? "IMPORT" : "EXPORT");
        if ((st = next(l, &t)) || (st = expect(l, T_ID, "a name", &bound)))
            return st;
        if (import &&
            ((st = expect(l, T_DOT, "'.'", &t)) || (st = expect(l, T_ID, "a name", &bound))))
            return st;
        if (is_id(l, &l->peek, "AS") &&
            ((st = next(l, &t)) || (st = expect(l, T_ID, "a name after AS", &bound))))
            return st;
        /* A USE may name what it imports. */
        return import && !in_proto ? kfc_x3d_add_import(l->scene, l->data + bound.start,
                                                        bound.end - bound.start, mark, l->diag)
                                   : KFC_OK;
    }
    *taken = 0;
    return KFC_OK;
}

/* The text of token `t`, as a field's value is kept. */
static kfc_x3d_text token_text(const lexer *l, const token *t)
{
    return (kfc_x3d_text){l->data + t->start, t->end - t->start, t->mark, 1, 1};
}

/* Whether a header statement of `stage` may stand where the reader is:
 * else an error at it, naming what it follows. The reader is then there. */
static kfc_status header_order(lexer *l, enum stage stage)
{
    static const char *const names[] = {"", "PROFILE", "COMPONENT", "UNIT", "META", ""};
    static const char *const after[] = {"",
                                        "the PROFILE statement",
                                        "a COMPONENT statement",
                                        "a UNIT statement",
                                        "a META statement",
                                        "the scene's first statement"};
    static const char *const order = "a scene's header states its PROFILE, then its "
                                     "COMPONENT, UNIT and META statements, in that order, before "
                                     "the scene";
    /* PROFILE once; any number of each other kind, together */
    if (stage == AT_PROFILE && l->stage == AT_PROFILE)
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "a second PROFILE: %s", order);
    if (l->stage > stage)
        return kfc_fail(l->diag, KFC_INVALID, l->peek.mark, "%s after %s: %s", names[stage],
                        after[l->stage], order);
    l->stage = stage;
    return KFC_OK;
}

/* UNIT category name factor. */
static kfc_status unit_statement(lexer *l)
{
    token t, category, name, factor;
    kfc_status st;
    const kfc_mark mark = l->peek.mark;
    if ((st = header_order(l, AT_UNIT)) || (st = next(l, &t)) ||
        (st = expect(l, T_ID, "a unit category", &category)) ||
        (st = expect(l, T_ID, "a unit name", &name)) ||
        (st = expect(l, T_NUMBER, "a conversion factor", &factor)))
        return st;
    const kfc_x3d_text c = token_text(l, &category), n = token_text(l, &name),
                       f = token_text(l, &factor);
    return kfc_x3d_add_unit(l->scene, &c, &n, &f, mark, l->diag);
}

/* PROFILE, COMPONENT, UNIT and META: X3D's header statements. */
static kfc_status header_statement(lexer *l, int *taken)
{
    token t;
    kfc_status st;
    *taken = 1;
    if (is_id(l, &l->peek, "PROFILE"))
        return (st = header_order(l, AT_PROFILE)) || (st = next(l, &t))
                   ? st
                   : expect(l, T_ID, "a name", &t);
    if (is_id(l, &l->peek, "COMPONENT")) {
        /* COMPONENT name:level, with space allowed around the colon (':'
         * is an identifier character: "Name:1", "Name :1", "Name : 1"). */
        if ((st = header_order(l, AT_COMPONENT)) || (st = next(l, &t)) ||
            (st = expect(l, T_ID, "a component name", &t)))
            return st;
        int colon = l->data[t.end - 1] == ':';
        if (!colon && l->peek.kind == T_ID && l->data[l->peek.start] == ':') {
            colon = l->peek.end - l->peek.start == 1;
            if ((st = next(l, &t)))
                return st;
        }
        if (colon)
            return expect(l, T_NUMBER, "a component level", &t);
        return KFC_OK;
    }
    if (is_id(l, &l->peek, "META")) {
        if ((st = header_order(l, AT_META)) || (st = next(l, &t)) ||
            (st = expect(l, T_STRING, "a string", &t)))
            return st;
        return expect(l, T_STRING, "a string", &t);
    }
    if (is_id(l, &l->peek, "UNIT"))
        return unit_statement(l);
    *taken = 0;
    return KFC_OK;
}

/* The version the header "#X3D V3.3 utf8" or "#VRML V2.0 utf8" at
 * data[at] states, to the scene. */
static void header_version(lexer *l, size_t at)
{
    size_t i = at + 1, start;
    const int vrml97 = l->data[i] == 'V' && l->data[i + 1] == 'R'; /* #VRML (sniffed) */
    while (i < l->size && l->data[i] != ' ' && l->data[i] != '\t')
        i++;
    while (i < l->size && (l->data[i] == ' ' || l->data[i] == '\t'))
        i++;
    const kfc_mark mark = {1, (uint32_t)(i - at + 1)};
    start = ++i; /* past the 'V' */
    while (i < l->size && l->data[i] != ' ' && l->data[i] != '\t' && l->data[i] != '\n' &&
           l->data[i] != '\r')
        i++;
    kfc_x3d_set_version(l->scene, l->data + start, i - start, mark, vrml97);
}

kfc_status kfc_x3d_read_vrml(kfc_x3d_scene *scene, const char *data, size_t size, kfc_diag *diag)
{
    lexer l;
    memset(&l, 0, sizeof l);
    l.scene = scene;
    l.diag = diag;
    l.data = data;
    l.size = size;
    l.mark = (kfc_mark){1, 1};
    kfc_x3d_scene_budget(scene, size);
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        l.pos = 3;
    if (size >= 2 && ((unsigned char)data[0] == 0xFE || (unsigned char)data[0] == 0xFF) &&
        ((unsigned char)data[1] == 0xFE || (unsigned char)data[1] == 0xFF))
        return kfc_fail(diag, KFC_INVALID, l.mark, "UTF-16 text: kfc reads ClassicVRML in UTF-8");
    if (!kfc_sniff_vrml_header(data + l.pos, size - l.pos))
        return kfc_fail(diag, KFC_INVALID, l.mark,
                        "expected the header '#X3D V3.3 utf8' or '#VRML V2.0 utf8'");
    header_version(&l, l.pos);
    kfc_status st = lex(&l);
    while (!st && l.peek.kind != T_EOF) {
        int taken;
        if ((st = header_statement(&l, &taken)) || taken)
            continue;
        l.stage = IN_SCENE;
        if ((st = statement(&l, 0, &taken)) || taken)
            continue;
        st = root_node(&l, 0);
    }
    return st;
}
