/* CHECK for the trace checkers (tests/record/check_record.c,
 * tests/openmp/check_omp.c): prints a failed expectation with its place and
 * counts it in `failures` (each checker exits 1 if any). */
#ifndef AUGUR_TESTS_CHECK_H
#define AUGUR_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                              \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

#endif
