/* SPDX-License-Identifier: MIT */
/* kfplay_args.h - numbers from kfplay's command line. */
#ifndef KFPLAY_ARGS_H
#define KFPLAY_ARGS_H

/* Parses one finite number into *out; reports it on stderr otherwise
 * and returns 0. */
int kfp_parse_number(const char *text, double *out);

/* Parses every argument as a finite number, or reports the first that is not. */
int kfp_parse_numbers(char **args, int count, double *out);

#endif /* KFPLAY_ARGS_H */
