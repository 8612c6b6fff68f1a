/* Minimal assertion helpers for the C ABI tests: count, report, exit non-zero on failure. */
#ifndef ARGUS_TEST_CHECK_H
#define ARGUS_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_passed = 0;
static int check_failed = 0;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) {                                                                 \
            check_passed++;                                                         \
        } else {                                                                    \
            check_failed++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

#define CHECK_RESULT(expr, expected)                                                       \
    do {                                                                                   \
        ArgusResult check_r_ = (expr);                                                     \
        if (check_r_ == (expected)) {                                                      \
            check_passed++;                                                                \
        } else {                                                                           \
            check_failed++;                                                                \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__,   \
                    #expr, argus_result_name((uint32_t)check_r_),                          \
                    argus_result_name((uint32_t)(expected)));                              \
        }                                                                                  \
    } while (0)

#define CHECK_OK(expr) CHECK_RESULT(expr, ARGUS_RESULT_OK)
#define CHECK_NEAR(a, b, eps) CHECK(fabs((double)(a) - (double)(b)) <= (eps))

static int check_report(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

static ArgusVec3 v3(float x, float y, float z) {
    ArgusVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

#endif
