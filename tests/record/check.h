/* CHECK for the trace checkers (tests/record/check_record.c,
 * tests/openmp/check_omp.c): prints a failed expectation with its place and
 * counts it in `failures` (each checker exits 1 if any). */
#ifndef AUGUR_TESTS_CHECK_H
#define AUGUR_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "augur/reader.h"

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

/* One rank's MPI records, in order. */
typedef struct evlist {
  augur_event *ev;
  size_t n;
} evlist;

/* Reads rank r's records into out (free out->ev); -1 after a failed CHECK. */
static inline int load_rank(augur_trace *t, uint32_t r, evlist *out) {
  augur_stream *s;
  augur_error err;
  size_t cap = 256;
  out->n = 0;
  out->ev = malloc(cap * sizeof *out->ev);
  if (!out->ev || augur_stream_rank(t, r, &s, &err) != AUGUR_OK) {
    CHECK(0, "stream rank %u", r);
    return -1;
  }
  int rc;
  augur_event e;
  while ((rc = augur_stream_next(s, &e, &err)) == 1) {
    if (out->n == cap) {
      cap *= 2;
      out->ev = realloc(out->ev, cap * sizeof *out->ev);
    }
    out->ev[out->n++] = e;
  }
  augur_stream_close(s);
  CHECK(rc == 0, "rank %u: %s", r, err.msg);
  return rc == 0 ? 0 : -1;
}

#endif
