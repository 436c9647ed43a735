/* SPDX-License-Identifier: MIT */
/* kfc_x3d.c - the X3D importer's entry (kfc_x3d.h). */
#include "kfc_x3d.h"

#include <stdlib.h>
#include <string.h>

#include "kfc_sniff.h"
#include "kfc_x3d_gzip.h"
#include "kfc_x3d_map.h"
#include "kfc_x3d_read.h"

int kfc_x3d_detect(const char *path, const unsigned char *data, size_t size)
{
    return kfc_sniff_x3d(path, data, size);
}

kfc_status kfc_x3d_compile(const unsigned char *data, size_t size,
                           const kfc_import_options *options, kf_builder *builder, kfc_diag *diag)
{
    char *inflated = NULL;
    kfc_status st;
    if (kfc_sniff_gzip(data, size)) {
        size_t n;
        if ((st = kfc_x3d_gunzip(data, size, &inflated, &n, diag)))
            return st;
        data = (const unsigned char *)inflated;
        size = n;
    }
    kfc_sniff_encoding encoding = kfc_sniff_x3d_text(data, size);
    if (encoding == KFC_SNIFF_NOT_X3D) {
        size_t i = kfc_sniff_skip_space(data, size, 0);
        if (size - i >= 10 && memcmp(data + i, "#VRML V1.0", 10) == 0) {
            free(inflated);
            return kfc_fail(diag, KFC_INVALID, (kfc_mark){1, 1},
                            "VRML 1.0 is not supported (VRML97, ClassicVRML and XML are)");
        }
        encoding = kfc_sniff_x3d_name(options->path);
        if (encoding == KFC_SNIFF_NOT_X3D)
            encoding = i < size && data[i] == '<' ? KFC_SNIFF_X3D_XML : KFC_SNIFF_X3D_VRML;
    }
    kfc_x3d_scene scene;
    kfc_x3d_scene_init(&scene, options);
    /* The readers, the scene's checks and the mapping each report in their
     * own order: the warnings, the notes and an error that stops the import
     * are printed together, in the order of the file. */
    kfc_diag_hold(diag);
    st = encoding == KFC_SNIFF_X3D_XML ? kfc_x3d_read_xml(&scene, (const char *)data, size, diag)
                                       : kfc_x3d_read_vrml(&scene, (const char *)data, size, diag);
    if (!st)
        st = kfc_x3d_scene_finish(&scene, diag);
    if (!st)
        st = kfc_x3d_map(&scene, builder, diag);
    kfc_x3d_notes_flush(&scene, diag);
    if (st)
        kfc_diag_hold_failure(diag);
    kfc_diag_release(diag);
    kfc_x3d_scene_free(&scene);
    free(inflated);
    return st;
}

const kfc_importer kfc_x3d_importer = {
    "X3D",
    kfc_x3d_detect,
    kfc_x3d_compile,
    NULL,
    "an X3D scene is imported whole, into one file, and its TimeSensors say what loops",
    "an X3D scene's URLs (Inline, textures, scripts) are never opened",
    kfc_sniff_x3d_gzip_suffix};
