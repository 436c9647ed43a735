/* SPDX-License-Identifier: MIT */
/* kfc_file_kind.c - what a file an input reads is (kfc_file_kind.h). */
/* fstatfs is Linux's, S_ISSOCK POSIX 2008's. */
#define _XOPEN_SOURCE 700

#include "kfc_file_kind.h"

#include <stddef.h>
#include <sys/stat.h>
#if defined(__linux__)
#include <sys/statfs.h>
#endif

const char *kfc_file_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return NULL;
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

int kfc_file_on_kernel_fs(int fd)
{
#if defined(__linux__)
    static const unsigned long magics[] = {
        0x9fa0,     /* proc */
        0x62656572, /* sysfs */
        0x64626720, /* debugfs */
        0x74726163, /* tracefs */
        0x73636673, /* securityfs */
        0xde5e81e4, /* efivarfs */
    };
    struct statfs fs;
    if (fstatfs(fd, &fs) != 0)
        return 1;
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if ((unsigned long)fs.f_type == magics[i])
            return 1;
#else
    (void)fd;
#endif
    return 0;
}
