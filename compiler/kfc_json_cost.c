/* SPDX-License-Identifier: MIT */
/* kfc_json_cost.c - an upper bound of jansson's memory for a text (kfc_json_cost.h). */
#include "kfc_json_cost.h"

enum {
    COST_OBJECT = 256,
    COST_ARRAY = 160,
    COST_NUMBER = 56,
    COST_STRING = 136,
    COST_STRING_BYTE = 3,
    COST_LITERAL = 16
};

static int number_byte(unsigned char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

uint64_t kfc_json_cost(const unsigned char *text, size_t size)
{
    uint64_t cost = 0;
    for (size_t i = 0; i < size; i++) {
        const unsigned char c = text[i];
        if (c == '"') {
            size_t j = i + 1;
            while (j < size && text[j] != '"')
                j += text[j] == '\\' ? 2 : 1;
            cost += COST_STRING + (uint64_t)COST_STRING_BYTE * (j - i - 1);
            i = j;
        } else if (c == '{') {
            cost += COST_OBJECT;
        } else if (c == '[') {
            cost += COST_ARRAY;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            cost += COST_NUMBER;
            while (i + 1 < size && number_byte(text[i + 1]))
                i++;
        } else if (c == 't' || c == 'f' || c == 'n') {
            cost += COST_LITERAL;
            while (i + 1 < size && text[i + 1] >= 'a' && text[i + 1] <= 'z')
                i++;
        }
    }
    return cost;
}
