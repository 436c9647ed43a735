/* SPDX-License-Identifier: MIT */
/*
 * kfc_file_kind.h - what a file an input reads is, for the rule that kfc
 * reads only stored bytes: a regular file, not a folder, FIFO, device or
 * socket (whose opening may block or act), and not a file of the kernel's
 * state (/proc, /sys). The main input (kfc_input.c) and the files it names
 * (kfc_files.c) ask the same questions here.
 */
#ifndef KFC_FILE_KIND_H
#define KFC_FILE_KIND_H

#include <sys/types.h>

/* NULL for a regular file; else what it is, for a message: "a folder",
 * "a FIFO", "a device", "a socket" or "a special file". */
const char *kfc_file_kind(mode_t mode);

/* 1 when the open file `fd` is on a file system whose files are the
 * kernel's state rather than stored bytes (/proc, /sys and the like, on
 * Linux), or when that cannot be told; 0 otherwise. */
int kfc_file_on_kernel_fs(int fd);

#endif /* KFC_FILE_KIND_H */
