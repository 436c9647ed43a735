/* SPDX-License-Identifier: MIT */
/*
 * kfc_m3g_names.h - what an M3G file's objects are called in kfb
 * (docs/import-m3g.md, Names): the class and the index in the file, then
 * the name Swerve Author's name table gives the object's user ID, or else
 * the user ID. The index makes every name unique; the rest is for people.
 */
#ifndef KFC_M3G_NAMES_H
#define KFC_M3G_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "kfc_m3g_file.h"

/* The longest name: the class, the index, "_" and a table name cut to
 * KFC_M3G_NAME_MAX bytes (or "_uid" and the user ID), and the NUL. */
#define KFC_M3G_NAME_MAX  64
#define KFC_M3G_NAME_SIZE 112

typedef struct kfc_m3g_name_entry {
    uint32_t user_id;
    uint32_t at, length; /* the name's bytes in the AuthoringField */
} kfc_m3g_name_entry;

typedef struct kfc_m3g_names {
    const char *text;            /* the AuthoringField */
    kfc_m3g_name_entry *entries; /* by user ID; the first line of an ID only */
    uint32_t count;
} kfc_m3g_names;

/* Reads the name table of `file`'s AuthoringField, if it has one (an empty
 * table otherwise), charging its entries to the file's budget. 0 when the
 * budget or the memory is short (nothing to free then). */
int kfc_m3g_names_read(kfc_m3g_file *file, kfc_m3g_names *names);
void kfc_m3g_names_free(kfc_m3g_names *names);

/* The kfb name of object `index` of `file`, into `out`. */
char *kfc_m3g_object_name(const kfc_m3g_names *names, const kfc_m3g_file *file, uint32_t index,
                          char out[KFC_M3G_NAME_SIZE]);

#endif
