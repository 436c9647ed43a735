/* SPDX-License-Identifier: MIT */
/*
 * kf_test.h - the few checks the C tests need. A failed check prints where
 * and why and counts; the program's exit status is the count (capped).
 */
#ifndef KF_TEST_H
#define KF_TEST_H

#include <math.h>
#include <stdio.h>

static int kf_test_failures;
static int kf_test_checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        kf_test_checks++;                                                                          \
        if (!(cond)) {                                                                             \
            kf_test_failures++;                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* |got - want| <= tol * max(1, |want|): the oracle README's rule. */
static inline int kf_test_close(double got, double want, double tol)
{
    return fabs(got - want) <= tol * fmax(1.0, fabs(want));
}

static inline int kf_test_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, kf_test_checks, kf_test_failures);
    return kf_test_failures > 100 ? 100 : kf_test_failures;
}

#endif /* KF_TEST_H */
