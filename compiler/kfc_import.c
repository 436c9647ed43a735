/* SPDX-License-Identifier: MIT */
/*
 * kfc_import.c - the table of importers (kfc_import.h).
 */
#include "kfc_import.h"

#include "kfc_gltf.h"
#include "kfc_m3g.h"
#include "kfc_x3d.h"

const kfc_importer *const kfc_importers[] = {
    &kfc_gltf_importer,
    &kfc_m3g_importer,
    &kfc_x3d_importer,
    NULL,
};

const kfc_importer *kfc_import_find(const char *path, const unsigned char *data, size_t size)
{
    for (size_t i = 0; kfc_importers[i]; i++)
        if (kfc_importers[i]->detect(path, data, size))
            return kfc_importers[i];
    return NULL;
}

size_t kfc_import_suffix(const char *name)
{
    for (size_t i = 0; kfc_importers[i]; i++) {
        const size_t n = kfc_importers[i]->suffix ? kfc_importers[i]->suffix(name) : 0;
        if (n)
            return n;
    }
    return 0;
}
