/* SPDX-License-Identifier: MIT */
/* kfc_x3d_gzip.c - gzipped X3D files through zlib (kfc_x3d_gzip.h). */
#include "kfc_x3d_gzip.h"

#include <limits.h>
#include <stdlib.h>

#include <zlib.h>

size_t kfc_x3d_gunzip_limit(size_t size)
{
    if (size > (KFC_X3D_MAX_INFLATED - KFC_X3D_GZIP_FLOOR) / KFC_X3D_GZIP_RATIO)
        return KFC_X3D_MAX_INFLATED;
    return size * KFC_X3D_GZIP_RATIO + KFC_X3D_GZIP_FLOOR;
}

kfc_status kfc_x3d_gunzip(const unsigned char *data, size_t size, char **out, size_t *out_size,
                          kfc_diag *diag)
{
    z_stream z = {0};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return kfc_fail_nomem(diag);
    const size_t limit = kfc_x3d_gunzip_limit(size);
    /* gzip's trailer states the size (modulo 2^32) of a one-member file:
     * taken as the first guess when it is within the limit, so that the
     * text is usually inflated into a buffer of its own size. */
    size_t stated = 0;
    if (size >= 18)
        stated = (size_t)data[size - 4] | (size_t)data[size - 3] << 8 |
                 (size_t)data[size - 2] << 16 | (size_t)data[size - 1] << 24;
    size_t cap = stated && stated <= limit  ? stated
                 : size < ((size_t)1 << 16) ? ((size_t)1 << 16)
                 : size > limit / 4         ? limit
                                            : size * 4,
           used = 0;
    if (cap > limit)
        cap = limit;
    char *buf = malloc(cap + 1);
    kfc_status st = KFC_OK;
    const unsigned char *in = data;
    size_t left = size;
    int r = Z_OK;
    while (buf && r != Z_STREAM_END) {
        if (used == cap) {
            if (cap == limit) {
                /* One byte more is needed to tell a stream that fills the
                 * limit exactly from one that goes past it. */
                unsigned char probe;
                z.next_in = (unsigned char *)in;
                z.avail_in = left > UINT_MAX ? UINT_MAX : (unsigned)left;
                z.next_out = &probe;
                z.avail_out = 1;
                r = inflate(&z, Z_NO_FLUSH);
                if (z.avail_out == 1) {
                    /* No byte more: the end, or a stream that breaks off. */
                    if (r == Z_STREAM_END)
                        break;
                    st = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                                  r == Z_BUF_ERROR || r == Z_OK ? "the gzip stream is truncated"
                                                                : "damaged gzip stream: %s",
                                  z.msg ? z.msg : "invalid data");
                    break;
                }
                if (limit == KFC_X3D_MAX_INFLATED)
                    st = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                                  "the gzip stream inflates to more than %lu MiB",
                                  (unsigned long)(KFC_X3D_MAX_INFLATED >> 20));
                else
                    st = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK,
                                  "the gzip stream inflates to more than %lu bytes: kfc inflates "
                                  "a scene to at most %u times its compressed size, plus 1 MiB",
                                  (unsigned long)limit, KFC_X3D_GZIP_RATIO);
                break;
            }
            size_t next = cap * 2 > limit ? limit : cap * 2;
            char *grown = realloc(buf, next + 1);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap = next;
        }
        unsigned chunk_in = left > UINT_MAX ? UINT_MAX : (unsigned)left;
        size_t room = cap - used;
        unsigned chunk_out = room > UINT_MAX ? UINT_MAX : (unsigned)room;
        z.next_in = (unsigned char *)in;
        z.avail_in = chunk_in;
        z.next_out = (unsigned char *)buf + used;
        z.avail_out = chunk_out;
        r = inflate(&z, Z_NO_FLUSH);
        in += chunk_in - z.avail_in;
        left -= chunk_in - z.avail_in;
        used += chunk_out - z.avail_out;
        if (r == Z_MEM_ERROR) {
            free(buf);
            buf = NULL;
            break;
        }
        if (r == Z_STREAM_END)
            break;
        if (r != Z_OK && r != Z_BUF_ERROR) {
            st = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "damaged gzip stream: %s",
                          z.msg ? z.msg : "invalid data");
            break;
        }
        if (r == Z_BUF_ERROR && left == 0 && used < cap) {
            st = kfc_fail(diag, KFC_INVALID, KFC_NO_MARK, "the gzip stream is truncated");
            break;
        }
    }
    inflateEnd(&z);
    if (!buf)
        return kfc_fail_nomem(diag);
    if (st) {
        free(buf);
        return st;
    }
    buf[used] = '\0';
    *out = buf;
    *out_size = used;
    return KFC_OK;
}
