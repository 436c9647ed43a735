/* SPDX-License-Identifier: MIT */
#include "kfplay_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int kfp_parse_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    if (end == text || *end || !isfinite(*out)) {
        fprintf(stderr, "kfplay: not a finite number: '%s'\n", text);
        return 0;
    }
    return 1;
}

int kfp_parse_numbers(char **args, int count, double *out)
{
    for (int i = 0; i < count; i++)
        if (!kfp_parse_number(args[i], &out[i]))
            return 0;
    return 1;
}
