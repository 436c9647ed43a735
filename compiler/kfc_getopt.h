/* SPDX-License-Identifier: MIT */
/*
 * kfc_getopt.h - what kfc and kfplay say of an option getopt_long did not
 * take (opterr 0), so that both tools read their command lines the same
 * way: an unknown option, with the options an edit or two away; an
 * ambiguous abbreviation, with the options it may stand for; a value given
 * to an option that takes none; and an abbreviation getopt_long would take
 * that is also a misspelling of another option, where which one was meant
 * is not known. Each tool reports the text as its usage error.
 */
#ifndef KFC_GETOPT_H
#define KFC_GETOPT_H

#include <getopt.h>
#include <stddef.h>

/* Room for what the functions below write. */
#define KFC_GETOPT_MESSAGE_SIZE 384

/* The option as written, into `out` (64 bytes): "--name", without
 * "=value", where `element` (the command-line element getopt_long read it
 * from, or NULL) is a long option; else "-c" for `option`. */
void kfc_getopt_text(char out[64], const char *element, int option);

/* Why getopt_long returned '?' for `element` (as kfc_getopt_text; `code`
 * is what it left in optopt), into `out` (KFC_GETOPT_MESSAGE_SIZE bytes),
 * among the options `longs` (ending with a NULL name) and `shorts`
 * (getopt_long's short option string). Returns `out`. */
char *kfc_getopt_refused(const struct option *longs, const char *shorts, const char *element,
                         int code, char *out);

/* Where `element` abbreviates the long option longs[which] (as getopt_long
 * took it) and is also an edit or two from another option, why it is
 * refused, into `out` (KFC_GETOPT_MESSAGE_SIZE bytes), and returns `out`;
 * else NULL (the option written in full, a short one, or an abbreviation
 * that stands for one option alone). */
const char *kfc_getopt_abbreviation(const struct option *longs, const char *element, int which,
                                    char *out);

#endif /* KFC_GETOPT_H */
