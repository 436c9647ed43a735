/* SPDX-License-Identifier: MIT */
#include "kfc_getopt.h"

#include <stdio.h>
#include <string.h>

#include "kfc_diag.h"
#include "kfc_suggest.h"

void kfc_getopt_text(char out[64], const char *element, int option)
{
    if (element && strncmp(element, "--", 2) == 0) {
        const size_t n = strcspn(element, "=");
        snprintf(out, 64, "%.*s", (int)(n < 60 ? n : 60), element);
    } else {
        snprintf(out, 64, "-%c", option);
    }
}

/* A short option getopt_long knows (`shorts` begins with its flags). */
static int known_short(const char *shorts, int c)
{
    return c > 0 && c < 256 && c != ':' && c != '-' && c != '+' && strchr(shorts, c);
}

/* Offers `longs` for `typed` (`length` bytes), and writes the closest as
 * "; did you mean '--a'?" into `mean` ("" where none is close). Uncounted
 * (no diagnostic record): a command line is short. */
static void closest(kfc_suggest *sg, const struct option *longs, const char *typed, size_t length,
                    char mean[160])
{
    kfc_suggest_begin(sg, NULL, typed, length);
    for (const struct option *l = longs; l->name; l++)
        kfc_suggest_offer(sg, l->name, strlen(l->name));
    kfc_suggest_text_as(sg, "--", mean, 160);
}

/* An unknown or ambiguous "--name[=value]". */
static char *unknown_long(const struct option *longs, const char *element, char *out)
{
    const size_t n = strcspn(element + 2, "=");
    char matches[160];
    size_t m = 0, count = 0;
    matches[0] = '\0';
    for (const struct option *l = longs; l->name; l++)
        if (n > 0 && strncmp(l->name, element + 2, n) == 0 && m < sizeof matches) {
            m += (size_t)snprintf(matches + m, sizeof matches - m, "%s--%s", count ? ", " : "",
                                  l->name);
            count++;
        }
    char text[64], quoted[KFC_QUOTE_SIZE], mean[160];
    kfc_getopt_text(text, element, 0);
    kfc_quote(quoted, text, strlen(text));
    if (count > 1) {
        snprintf(out, KFC_GETOPT_MESSAGE_SIZE, "ambiguous option %s (%s)", quoted, matches);
        return out;
    }
    kfc_suggest sg;
    closest(&sg, longs, element + 2, n, mean);
    snprintf(out, KFC_GETOPT_MESSAGE_SIZE, "unknown option %s%s", quoted, mean);
    return out;
}

char *kfc_getopt_refused(const struct option *longs, const char *shorts, const char *element,
                         int code, char *out)
{
    if (code == 0 && element && strncmp(element, "--", 2) == 0)
        return unknown_long(longs, element, out);
    char text[64], quoted[KFC_QUOTE_SIZE];
    /* A long option's code, or a short one's letter: an option known, given
     * a value it does not take. */
    const int known = code >= 256 || known_short(shorts, code);
    kfc_getopt_text(text, known ? element : NULL, code);
    snprintf(out, KFC_GETOPT_MESSAGE_SIZE, known ? "option %s takes no value" : "unknown option %s",
             kfc_quote(quoted, text, strlen(text)));
    return out;
}

const char *kfc_getopt_abbreviation(const struct option *longs, const char *element, int which,
                                    char *out)
{
    if (which < 0 || !element || strncmp(element, "--", 2) != 0)
        return NULL;
    const char *typed = element + 2, *name = longs[which].name;
    const size_t n = strcspn(typed, "=");
    if (n == strlen(name))
        return NULL;
    char mean[160];
    kfc_suggest sg;
    closest(&sg, longs, typed, n, mean);
    if (!sg.matches)
        return NULL;
    for (unsigned i = 0; i < sg.matches; i++)
        if (sg.match[i] == name)
            return NULL;
    char text[64], quoted[KFC_QUOTE_SIZE];
    kfc_getopt_text(text, element, 0);
    snprintf(out, KFC_GETOPT_MESSAGE_SIZE, "%s abbreviates --%.60s%s (write the option in full)",
             kfc_quote(quoted, text, strlen(text)), name, mean);
    return out;
}
