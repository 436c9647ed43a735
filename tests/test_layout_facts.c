/* SPDX-License-Identifier: MIT */
/*
 * test_layout_facts.c - the playback layout finds a lane's grid the same
 * way from the reader's facts of its columns (kf_column_facts: integers q
 * at a power-of-two scale, their least, greatest and shared low bits) as
 * from its floats (kf_layout_grid). The load of an error-bounded file
 * rests on it: a lane the facts call quantized must give back every float
 * to the bit, and the layout must not depend on which way it was found
 * (the writer measures it from the floats).
 *
 * Random columns, most on a grid, some a step off it, some past 24 bits of
 * q, at scales from below the least subnormal to near FLT_MAX, as the
 * reader decodes them (q 2^e in double, rounded once to float, infinite
 * past FLT_MAX): wherever the facts answer, the answer, the base, the
 * scale, the trailing zeros the q share and the largest q must be the
 * floats' to the bit; where they do not, some column's facts must say
 * they do not hold.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kf_layout.h"
#include "kf_test.h"
#include "kfb_format.h"

enum { CASES = 40000, MOST_KEYS = 64 };

static uint64_t state = 0x9E3779B97F4A7C15u;

static uint32_t next(uint32_t n)
{
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(state >> 33) % n;
}

/* A scale's exponent: subnormal, small, everyday or near overflow (`wild`)
 * or one at which the facts can hold. */
static int pick_exponent(int wild)
{
    switch (next(4)) {
    case 0:
        return wild ? -152 + (int)next(30) : -126 + (int)next(20);
    case 1:
        return -40 + (int)next(40);
    case 2:
        return -20 + (int)next(30);
    default:
        return wild ? 90 + (int)next(20) : 85 + (int)next(20);
    }
}

/* One column of n q: on a grid of 2^g from a start, some keys a step off
 * it; `wild`: some q past 24 bits. */
static void make_column(int32_t *q, uint32_t n, int wild)
{
    const uint32_t g = next(22);
    const int64_t reach = (int64_t)1 << (wild && next(8) == 0 ? 25 : 22);
    const int64_t start = (int64_t)next((uint32_t)(2 * reach)) - reach;
    /* tame: every q within 2^23 */
    const uint32_t steps = 1u << next(wild ? 17 : g < 22 ? (g < 6 ? 17 : 23 - g) : 1);
    for (uint32_t k = 0; k < n; k++) {
        int64_t v = start + ((int64_t)next(steps) << g);
        if (next(6) == 0 && g > 0)
            v += (int64_t)1 << next(g); /* off the grid */
        if (v > INT32_MAX)
            v = INT32_MAX;
        if (v < INT32_MIN)
            v = INT32_MIN;
        q[k] = (int32_t)v;
    }
    if (next(4) == 0) /* every key the same */
        for (uint32_t k = 1; k < n; k++)
            q[k] = q[0];
}

int main(void)
{
    static float v[MOST_KEYS * KF_TANGENT_FACT_COLUMNS];
    static uint32_t words[KF_TANGENT_FACT_COLUMNS][MOST_KEYS];
    uint32_t answered[2] = {0, 0}, unanswered = 0;
    for (int i = 0; i < CASES; i++) {
        /* a vector's or quaternion's values, or a HERMITE vector's key
         * tangents */
        const uint32_t c = 1 + next(KF_TANGENT_FACT_COLUMNS), n = 8 + next(MOST_KEYS - 7);
        const int quat = c == 4 && next(2);
        const unsigned check = quat ? 7u : (1u << c) - 1;
        const uint32_t top = quat ? KF_QSLERP_TOP : 65535u;
        kf_column_facts facts[KF_TANGENT_FACT_COLUMNS];
        int holds = 1;
        const int wild = next(3) == 0; /* else columns whose facts mostly hold */
        for (uint32_t m = 0; m < c; m++) {
            int32_t q[MOST_KEYS];
            make_column(q, n, wild);
            const int e = pick_exponent(wild);
            const uint32_t exponent = (uint32_t)(e + KFB_COLUMN_EXPONENT_BIAS);
            for (uint32_t k = 0; k < n; k++) {
                /* as the reader converts them (kf_read.c, decode) */
                const double d = ldexp((double)q[k], e);
                v[k * c + m] = fabs(d) <= FLT_MAX ? (float)d : d > 0 ? INFINITY : -INFINITY;
                words[m][k] = (uint32_t)q[k];
            }
            kf_column_facts_of(words[m], n, exponent, &facts[m]);
            if (check >> m & 1)
                holds &= facts[m].integers;
            /* The facts hold exactly where every q is a float to the bit. */
            int exact = e >= -126 && e <= 104; /* (and none subnormal) */
            for (uint32_t k = 0; k < n; k++)
                exact &= q[k] > -(1 << 24) && q[k] < (1 << 24);
            CHECK(facts[m].integers == exact, "case %d column %u: facts say %d, q say %d", i, m,
                  facts[m].integers, exact);
        }
        float base[2][KF_TANGENT_FACT_COLUMNS], scale[2][KF_TANGENT_FACT_COLUMNS];
        uint32_t zeros[2][KF_TANGENT_FACT_COLUMNS], most[2][KF_TANGENT_FACT_COLUMNS];
        const int floats =
            kf_layout_grid(v, NULL, c, n, check, top, base[0], scale[0], zeros[0], most[0]);
        const int known =
            kf_layout_grid(v, facts, c, n, check, top, base[1], scale[1], zeros[1], most[1]);
        if (known < 0) {
            CHECK(!holds, "case %d: the facts hold, yet give no answer", i);
            unanswered++;
            continue;
        }
        CHECK(holds, "case %d: an answer from facts that do not hold", i);
        CHECK(known == floats, "case %d: facts say %d, floats %d", i, known, floats);
        answered[known == 1]++;
        if (known != 1 || floats != 1)
            continue;
        for (uint32_t m = 0; m < c; m++) {
            if (!(check >> m & 1))
                continue;
            CHECK(memcmp(&base[0][m], &base[1][m], sizeof(float)) == 0 &&
                      memcmp(&scale[0][m], &scale[1][m], sizeof(float)) == 0,
                  "case %d column %u: base %a scale %a from floats, %a %a from facts", i, m,
                  (double)base[0][m], (double)scale[0][m], (double)base[1][m], (double)scale[1][m]);
            CHECK(zeros[0][m] == zeros[1][m] && most[0][m] == most[1][m],
                  "case %d column %u: zeros %u most %u from floats, %u %u from facts", i, m,
                  zeros[0][m], most[0][m], zeros[1][m], most[1][m]);
        }
    }
    printf("test_layout_facts: %u on a grid, %u off, %u without facts\n", answered[1], answered[0],
           unanswered);
    /* Each way of answering is exercised. */
    CHECK(answered[1] > CASES / 20 && answered[0] > CASES / 20 && unanswered > CASES / 20,
          "too few cases of a kind: %u on, %u off, %u without facts", answered[1], answered[0],
          unanswered);
    return kf_test_report("test_layout_facts");
}
