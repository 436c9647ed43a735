/* SPDX-License-Identifier: MIT */
#include "kfc_depfile.h"

#include <string.h>

/*
 * The names make and ninja read back as written. GNU make (4.3) and ninja
 * (1.11) agree on a name's plain bytes, on "\ " (with the backslashes before
 * a space doubled), "\#", "\:" and "$$", and on a backslash before any
 * other plain byte; they disagree, or cannot express at all, the rest:
 *
 *  - ';' starts a recipe in make (a name "a;touch x" would run a command),
 *    '=' makes the line a variable assignment, '*', '?' and '[' are
 *    wildcards, a leading '~' a home folder, and "lib(member)" an archive
 *    member; '%' makes a target a pattern;
 *  - ninja ends a name at a tab, a control byte, '|', '\'', '"', '&', '<',
 *    '>', '^', '`' or ';' (its depfile reader has no escape for them), keeps
 *    the backslash of "\;" where make drops it, reads the backslashes before
 *    '#', ':' and '$' otherwise than make, and a trailing ':' or '\' as
 *    syntax.
 *
 * A name with one of these is refused rather than written in a form one of
 * the two would read as another file (or as a command).
 */
static const char *unrepresentable(const char *name, int is_target, char quoted_byte[4])
{
    static const char refused[] = ";=*?[|'\"&<>^`";
    const size_t n = strlen(name);
    if (n == 0)
        return "no characters";
    if (name[0] == '~')
        return "a leading '~' (make reads a home folder)";
    if (name[n - 1] == ':')
        return "a trailing ':'";
    if (name[n - 1] == '\\')
        return "a trailing '\\'";
    if (name[n - 1] == ')' && strchr(name, '('))
        return "the form NAME(MEMBER) (make reads an archive member)";
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f)
            return c == '\n' || c == '\r' ? "a line break" : "a control character";
        if (strchr(refused, c)) {
            quoted_byte[0] = quoted_byte[2] = c == '\'' ? '"' : '\'';
            quoted_byte[1] = (char)c;
            quoted_byte[3] = '\0';
            return quoted_byte;
        }
        if (c == '%' && is_target)
            return "'%' (make reads a pattern rule)";
        if (c == '\\' && (name[i + 1] == '#' || name[i + 1] == ':' || name[i + 1] == '$'))
            return "a '\\' before '#', ':' or '$'";
    }
    return NULL;
}

/* A name refused, with what to do instead: a usage error, as the rule is
 * about the names the command gives or leads to, not about reading or
 * writing them. */
static kfc_status refuse(kfc_diag *diag, const char *what, const char *name, const char *why,
                         const char *remedy)
{
    char quoted[KFC_QUOTE_SIZE];
    return kfc_fail(diag, KFC_USAGE, KFC_NO_MARK,
                    "%s %s cannot be listed in a dependency file: make and ninja do not both read "
                    "a name with %s as written: %s",
                    what, kfc_quote(quoted, name, strlen(name)), why, remedy);
}

kfc_status kfc_depfile_check(const char *target, const kfc_files_read *files, int deps_only,
                             kfc_diag *diag)
{
    for (size_t i = 0; i <= files->count; i++) {
        const int is_target = i == files->count;
        const char *name = is_target ? target : files->items[i].path;
        char byte[4];
        const char *why = unrepresentable(name, is_target, byte);
        if (!why)
            continue;
        /* -M writes the rule alone: a name in it has no way around. */
        if (is_target)
            return refuse(diag, "target", name, why,
                          deps_only ? "name the output otherwise, or give -MT a target"
                                    : "name the output otherwise, or compile it without -MD");
        return refuse(diag, "file", name, why,
                      deps_only ? "rename it" : "rename it, or compile it without -MD");
    }
    return KFC_OK;
}

kfc_status kfc_depfile_check_target(const char *target, const char *what, kfc_diag *diag)
{
    char byte[4];
    const char *why = unrepresentable(target, 1, byte);
    if (!why)
        return KFC_OK;
    return refuse(diag, what, target, why,
                  strcmp(what, "target") == 0 ? "name the output otherwise, or give -MT a target"
                                              : "give -MT another target");
}

/* Writes `name` (representable) escaped for make and ninja. */
static void write_name(kfc_output *out, const char *name)
{
    size_t backslashes = 0; /* a run of them, not yet written */
    for (const char *p = name; *p; p++) {
        if (*p == '\\') {
            backslashes++;
            continue;
        }
        /* Before a space each one is doubled, and one more escapes it. */
        for (size_t k = 0; k < (*p == ' ' ? 2 * backslashes : backslashes); k++)
            kfc_output_write(out, "\\", 1);
        backslashes = 0;
        switch (*p) {
        case ' ':
            kfc_output_write(out, "\\ ", 2);
            break;
        case '#':
            kfc_output_write(out, "\\#", 2);
            break;
        case ':':
            kfc_output_write(out, "\\:", 2);
            break;
        case '$':
            kfc_output_write(out, "$$", 2);
            break;
        default:
            kfc_output_write(out, p, 1);
            break;
        }
    }
}

/* kfc_depfile_prepare, for -M (`deps_only`) or -MD. */
static kfc_status prepare(kfc_output *out, const char *path, const char *target,
                          const kfc_files_read *files, FILE *notes, int deps_only, kfc_diag *diag)
{
    memset(out, 0, sizeof *out);
    kfc_status st = kfc_depfile_check(target, files, deps_only, diag);
    if (st)
        return st;
    if ((st = kfc_output_open(out, path, diag)))
        return st;
    out->notes = notes;
    write_name(out, target);
    kfc_output_write(out, ":", 1);
    for (size_t i = 0; i < files->count; i++) {
        kfc_output_write(out, " \\\n  ", i ? 5 : 1);
        write_name(out, files->items[i].path);
    }
    kfc_output_write(out, "\n", 1);
    if (out->error)
        return kfc_output_write_failed(out, diag);
    return kfc_output_close(out, diag);
}

kfc_status kfc_depfile_prepare(kfc_output *out, const char *path, const char *target,
                               const kfc_files_read *files, FILE *notes, kfc_diag *diag)
{
    return prepare(out, path, target, files, notes, 0, diag);
}

kfc_status kfc_depfile_write(const char *path, const char *target, const kfc_files_read *files,
                             FILE *notes, kfc_diag *diag)
{
    kfc_output out;
    kfc_status st = prepare(&out, path, target, files, notes, 1, diag);
    return st ? st : kfc_output_commit(&out, diag);
}
