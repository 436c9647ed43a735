/* SPDX-License-Identifier: MIT */
/* kf_result.c - result codes, their messages, and filling kf_error. */
#include <stdio.h>
#include <string.h>

#include "kf_private.h"

static const struct {
    const char *name;
    const char *message;
} results[KF_RESULT_COUNT] = {
    [KF_OK] = {"KF_OK", "success"},
    [KF_ERROR_NOT_KFB] = {"KF_ERROR_NOT_KFB", "not a .kfb file"},
    [KF_ERROR_VERSION] = {"KF_ERROR_VERSION", "unsupported format version"},
    [KF_ERROR_PROBE] = {"KF_ERROR_PROBE", "byte order or float format mismatch"},
    [KF_ERROR_TRUNCATED] = {"KF_ERROR_TRUNCATED", "file is truncated"},
    [KF_ERROR_TRAILING_DATA] = {"KF_ERROR_TRAILING_DATA", "data after the end of the file"},
    [KF_ERROR_CHECKSUM] = {"KF_ERROR_CHECKSUM", "checksum mismatch"},
    [KF_ERROR_SECTION] = {"KF_ERROR_SECTION", "malformed section"},
    [KF_ERROR_TOO_LARGE] = {"KF_ERROR_TOO_LARGE", "size exceeds the loader's limit"},
    [KF_ERROR_INFLATE] = {"KF_ERROR_INFLATE", "corrupt compressed data"},
    [KF_ERROR_OBJECT] = {"KF_ERROR_OBJECT", "malformed object record"},
    [KF_ERROR_STRING] = {"KF_ERROR_STRING", "invalid string reference"},
    [KF_ERROR_REFERENCE] = {"KF_ERROR_REFERENCE", "reference out of range"},
    [KF_ERROR_VALUE] = {"KF_ERROR_VALUE", "invalid field value"},
    [KF_ERROR_OUT_OF_MEMORY] = {"KF_ERROR_OUT_OF_MEMORY", "out of memory"},
    [KF_ERROR_IO] = {"KF_ERROR_IO", "input/output error"},
    [KF_ERROR_ARGUMENT] = {"KF_ERROR_ARGUMENT", "invalid argument"},
    [KF_ERROR_NOT_FOUND] = {"KF_ERROR_NOT_FOUND", "no such object"},
    [KF_ERROR_DUPLICATE] = {"KF_ERROR_DUPLICATE", "duplicate name or binding"},
    [KF_ERROR_LIMIT] = {"KF_ERROR_LIMIT", "a player would exceed its memory bound"},
};

const char *kf_result_message(kf_result result)
{
    if ((unsigned)result < KF_RESULT_COUNT)
        return results[result].message;
    return "unknown result code";
}

const char *kf_result_name(kf_result result)
{
    if ((unsigned)result < KF_RESULT_COUNT)
        return results[result].name;
    return "KF_RESULT_UNKNOWN";
}

const char *kf_version(void)
{
    return KF_VERSION_STRING;
}

void kf_error_clear(kf_error *error)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->section = KF_NO_INDEX;
    error->object = KF_NO_INDEX;
    error->item = KF_NO_INDEX;
}

kf_result kf_failv(kf_error *error, kf_result result, const char *format, va_list ap)
{
    if (error) {
        error->result = result;
        vsnprintf(error->message, sizeof error->message, format, ap);
    }
    return result;
}

kf_result kf_fail(kf_error *error, kf_result result, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    kf_failv(error, result, format, ap);
    va_end(ap);
    return result;
}

kf_result kf_fail_at(kf_error *error, kf_result result, kf_field field, uint32_t item,
                     const char *format, ...)
{
    if (error) {
        error->field = field;
        error->item = item;
    }
    va_list ap;
    va_start(ap, format);
    kf_failv(error, result, format, ap);
    va_end(ap);
    return result;
}
