/* SPDX-License-Identifier: MIT */
/*
 * kfc_m3g_names.c - object names for M3G import (kfc_m3g_names.h).
 *
 * Superscape's Swerve Author writes the names its objects had in the
 * authoring tool into the header's AuthoringField, after its own line:
 *
 *     Superscape Swerve Author 2.0
 *     <SwerveAuthor2NameTable>
 *     133361308 RooTransform
 *     288308532 11 - Default
 *     </SwerveAuthor2NameTable>
 *
 * one line per user ID: the ID in decimal, a space, the name to the end of
 * the line. Lines that do not read so are passed over; so is everything
 * outside the table.
 */
#include "kfc_m3g_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char table_start[] = "<SwerveAuthor2NameTable>";
static const char table_end[] = "</SwerveAuthor2NameTable>";

/* Line [at, end) of `text` without a trailing '\r': equal to `word`? */
static int line_is(const char *text, size_t at, size_t end, const char *word)
{
    if (end > at && text[end - 1] == '\r')
        end--;
    size_t n = strlen(word);
    return end - at == n && memcmp(text + at, word, n) == 0;
}

/* One table line: "<user ID> <name>", the name's trailing blanks left off.
 * 0 if the line is not one. */
static int read_entry(const char *text, size_t at, size_t end, kfc_m3g_name_entry *e)
{
    uint64_t id = 0;
    size_t i = at;
    while (i < end && text[i] >= '0' && text[i] <= '9' && i - at < 10)
        id = id * 10 + (uint64_t)(text[i++] - '0');
    if (i == at || id == 0 || id > UINT32_MAX || i >= end || text[i] != ' ')
        return 0;
    i++;
    while (end > i && (text[end - 1] == '\r' || text[end - 1] == ' ' || text[end - 1] == '\t'))
        end--;
    if (end == i)
        return 0;
    e->user_id = (uint32_t)id;
    e->at = (uint32_t)i;
    e->length = (uint32_t)(end - i);
    return 1;
}

/* By user ID, then by place: the first line of an ID comes first. */
static int by_id(const void *a, const void *b)
{
    const kfc_m3g_name_entry *x = a, *y = b;
    if (x->user_id != y->user_id)
        return x->user_id < y->user_id ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

int kfc_m3g_names_read(kfc_m3g_file *file, kfc_m3g_names *names)
{
    memset(names, 0, sizeof *names);
    const char *text = file->authoring ? file->authoring : "";
    names->text = text;
    const size_t size = strlen(text);
    /* The table's first line, then at most one entry per line after it. */
    size_t at = 0, lines = 0;
    int inside = 0;
    for (size_t end; at < size && !inside; at = end + 1) {
        const char *nl = memchr(text + at, '\n', size - at);
        end = nl ? (size_t)(nl - text) : size;
        inside = line_is(text, at, end, table_start);
    }
    if (!inside)
        return 1;
    const size_t first = at;
    for (size_t i = first; i < size; i++)
        lines += text[i] == '\n';
    lines++;
    if (!kfc_m3g_charge(file, (uint64_t)lines * sizeof *names->entries))
        return 0;
    names->entries = malloc(lines * sizeof *names->entries);
    if (!names->entries)
        return 0;
    for (size_t end; at < size; at = end + 1) {
        const char *nl = memchr(text + at, '\n', size - at);
        end = nl ? (size_t)(nl - text) : size;
        if (line_is(text, at, end, table_end))
            break;
        names->count += (uint32_t)read_entry(text, at, end, &names->entries[names->count]);
    }
    qsort(names->entries, names->count, sizeof *names->entries, by_id);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < names->count; i++)
        if (!kept || names->entries[kept - 1].user_id != names->entries[i].user_id)
            names->entries[kept++] = names->entries[i];
    names->count = kept;
    return 1;
}

void kfc_m3g_names_free(kfc_m3g_names *names)
{
    free(names->entries);
    memset(names, 0, sizeof *names);
}

static const kfc_m3g_name_entry *find(const kfc_m3g_names *names, uint32_t user_id)
{
    size_t lo = 0, hi = names->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (names->entries[mid].user_id < user_id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < names->count && names->entries[lo].user_id == user_id ? &names->entries[lo] : NULL;
}

char *kfc_m3g_object_name(const kfc_m3g_names *names, const kfc_m3g_file *file, uint32_t index,
                          char out[KFC_M3G_NAME_SIZE])
{
    const kfc_m3g_object *o = &file->object[index - 1];
    int n =
        snprintf(out, KFC_M3G_NAME_SIZE, "%s%lu", kfc_m3g_type_name(o->type), (unsigned long)index);
    if (o->user_id == 0 || n <= 0 || n >= KFC_M3G_NAME_SIZE - 1 - KFC_M3G_NAME_MAX)
        return out;
    const kfc_m3g_name_entry *e = find(names, o->user_id);
    if (!e) {
        snprintf(out + n, KFC_M3G_NAME_SIZE - (size_t)n, "_uid%lu", (unsigned long)o->user_id);
        return out;
    }
    /* Letters, digits, '_' and '-' as they are, any other byte as '_': a
     * name stays one word (kfplay prints space-separated columns) and the
     * property stays what follows the target's only '.'. */
    size_t k = (size_t)n;
    out[k++] = '_';
    for (uint32_t i = 0; i < e->length && i < KFC_M3G_NAME_MAX; i++) {
        const char c = names->text[e->at + i];
        const int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '-';
        out[k++] = keep ? c : '_';
    }
    out[k] = '\0';
    return out;
}
