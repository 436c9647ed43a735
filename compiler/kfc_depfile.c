/* SPDX-License-Identifier: MIT */
#include "kfc_depfile.h"

#include <string.h>

#include "kfc_output.h"

/* Escapes `name` for a make rule into `out`; 0 when it cannot be. */
static int write_name(kfc_output *out, const char *name)
{
    for (const char *p = name; *p; p++) {
        const char *text = NULL;
        switch (*p) {
        case '\n':
        case '\r':
            return 0;
        case ' ':
            text = "\\ ";
            break;
        case '\t':
            text = "\\\t";
            break;
        case '#':
            text = "\\#";
            break;
        case '$':
            text = "$$";
            break;
        default:
            break;
        }
        if (text)
            kfc_output_write(out, text, strlen(text));
        else
            kfc_output_write(out, p, 1);
    }
    return 1;
}

kfc_status kfc_depfile_write(const char *path, const char *target, const kfc_files_read *files,
                             kfc_diag *diag)
{
    kfc_output out;
    kfc_status st = kfc_output_open(&out, path, diag);
    if (st)
        return st;
    const char *bad = NULL;
    if (!write_name(&out, target))
        bad = target;
    kfc_output_write(&out, ":", 1);
    for (size_t i = 0; i < files->count && !bad; i++) {
        kfc_output_write(&out, " \\\n  ", i ? 5 : 1);
        if (!write_name(&out, files->paths[i]))
            bad = files->paths[i];
    }
    kfc_output_write(&out, "\n", 1);
    if (bad) {
        char quoted[KFC_QUOTE_SIZE];
        kfc_output_abort(&out);
        kfc_fail(diag, KFC_IO, KFC_NO_MARK,
                 "%s has a line break; it cannot be listed in a "
                 "dependency file",
                 kfc_quote(quoted, bad, strlen(bad)));
        diag->file = path;
        return KFC_IO;
    }
    if (out.error)
        return kfc_output_write_failed(&out, diag);
    return kfc_output_commit(&out, diag);
}
