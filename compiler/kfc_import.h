/* SPDX-License-Identifier: MIT */
/*
 * kfc_import.h - the importers: animation content of other formats
 * (glTF 2.0, M3G, X3D) into a kf_builder.
 *
 * Each importer is a room of its own (kfc_gltf.c, ...) behind this one
 * interface; kfc_main knows only the table kfc_import_find searches. An
 * importer claims an input by its file name or its first bytes, then adds
 * what it animates to the builder; what it cannot import it either refuses
 * with a located error (kfc_diag) or, when the rest still plays as the
 * file means, skips with a note. Where it can go on past an error (the
 * next channel, object or route), it hands the status to kfc_recover, so
 * that one run reports every error of the file (kfc_diag.h). Times arrive
 * through the clock kf.h states: world time and sequence time in seconds
 * at speed 1.
 */
#ifndef KFC_IMPORT_H
#define KFC_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "kf_build.h"
#include "kfc_diag.h"

typedef struct kfc_import_options {
    const char *path;       /* the input file: relative references resolve
                              against its folder; NULL or "-": the current one */
    const char *animation;  /* NULL: every animation; else a name, or an index
                              (digits, when the file has that many; importers
                              whose files hold named clips) */
    FILE *notes;            /* -v: what was skipped and why, or NULL */
    int no_files;           /* refuse every file the input names */
    const char *asset_root; /* NULL, or the folder the files an input names must
                               lie in (default: the input's own; kfc_files.h) */
    /* Importers of clips (kfc_importer.no_clips NULL): */
    int loop; /* --loop: each clip repeats, all its channels over the clip's
                 length, as a game loops a clip */
    /* --split: one output per clip. NULL: everything goes into the builder
     * compile() is given. Else called as each clip starts, with its index
     * and controller name; returns the builder the clip goes into (NULL:
     * out of memory, `diag` filled). */
    kf_builder *(*clip)(void *user, size_t index, const char *name, kfc_diag *diag);
    void *clip_user;
} kfc_import_options;

typedef struct kfc_importer {
    const char *name; /* the format, for messages: "glTF 2.0" */
    /* 1 when the input is this format: its name's extension, or its magic. */
    int (*detect)(const char *path, const unsigned char *data, size_t size);
    kfc_status (*compile)(const unsigned char *data, size_t size, const kfc_import_options *options,
                          kf_builder *builder, kfc_diag *diag);
    /* Where an encode-time KF_ERROR_LIMIT (the player's memory bound) is
     * reported: a JSON pointer for glTF, or NULL for the whole file. */
    const char *limit_pointer;
    /* Why the format has no clips that --animation, --loop and --split
     * apply to (kfc refuses them), or NULL when it has. */
    const char *no_clips;
    /* Why --asset-root means nothing for the format, whose files name no
     * file kfc reads (kfc refuses it), or NULL when it has. */
    const char *no_files;
    /* The length of the end of a file name that names this format in two
     * extensions (door.x3d.gz), which a name made from it drops together;
     * 0 where one extension does, as it does for every format without this
     * (NULL). */
    size_t (*suffix)(const char *name);
} kfc_importer;

/* The importer that claims the input, or NULL: a kfb YAML source. */
const kfc_importer *kfc_import_find(const char *path, const unsigned char *data, size_t size);

/* The end of `name` that a name made from it (the default output's) drops:
 * an importer's two extensions (kfc_importer.suffix), or 0 for the last
 * extension alone. */
size_t kfc_import_suffix(const char *name);

/* Every importer, in the order kfc_import_find asks them; NULL-terminated. */
extern const kfc_importer *const kfc_importers[];

#endif /* KFC_IMPORT_H */
