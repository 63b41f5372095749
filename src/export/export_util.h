/* Helpers shared by the chrome, paraver and simgrid exports: byte-counting
 * output, progress, call-site names. Messages are matched by the analysis
 * library's matcher (augur/match.h). */
#ifndef AUGUR_EXPORT_UTIL_H
#define AUGUR_EXPORT_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "augur/error.h"
#include "augur/export.h"
#include "augur/match.h"
#include "augur/omp.h"

/* An output file that counts what it wrote and remembers the first error. */
typedef struct exu_out {
  FILE *f;
  const char *path;
  uint64_t bytes;
  int failed;
} exu_out;

int exu_out_open(exu_out *o, const char *path, augur_error *err);
void exu_out_printf(exu_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void exu_out_write(exu_out *o, const void *p, size_t n);
/* Writes the N numbers joined by ':' and a newline (Paraver records):
 * several times faster than fprintf on these all-integer lines. */
void exu_out_ints(exu_out *o, const uint64_t *v, size_t n);
/* The same line into LINE (room for 24 x 24 bytes); returns its length. */
size_t exu_fmt_ints(char *line, const uint64_t *v, size_t n);
/* Closes; returns AUGUR_E_IO naming the file if any write failed. */
int exu_out_close(exu_out *o, augur_error *err);

/* Calls the progress callback every 64 Ki events. */
static inline void exu_progress(const augur_export_opts *o, uint64_t done, uint64_t total) {
  if (o && o->progress && (done & 0xffffu) == 0) o->progress(o->progress_ctx, done, total);
}

/* Removes a partial output after a failure (regular files only). */
void exu_remove_output(const char *path);

/* Fails naming the damage if any rank file of T is damaged. */
int exu_check_damage(augur_trace *t, const char *what, augur_error *err);

/* The call site's one name (augur_fmt_callsite) in buf. */
void exu_callsite_name(augur_trace *t, uint32_t callsite, char *buf, size_t n);

/* Traces with OpenMP records (docs/openmp.md): the exports draw a row per
 * thread with the thread states of src/analysis/omp. exu_hybrid: the trace
 * has kind-3 blocks. exu_nthreads: 1 + the largest thread index with
 * blocks of either kind on rank R (at least 1). */
int exu_hybrid(augur_trace *t);
uint32_t exu_nthreads(augur_trace *t, uint32_t rank);
/* The merged stream: MPI records, and OpenMP ones too when HYBRID. */
int exu_stream(augur_trace *t, int hybrid, augur_stream **s, augur_error *err);

/* Every rank's thread states: each record of the merged stream goes to
 * exu_threads_add (OpenMP ones included), each thread's state intervals
 * come to FN (per thread in time order, not across threads or ranks), the
 * last ones from exu_threads_finish. */
typedef void (*exu_state_fn)(void *arg, uint32_t rank, uint32_t thread, unsigned state, uint64_t t0,
                             uint64_t t1);
typedef struct exu_threads_rank {
  struct exu_threads *x;
  uint32_t rank;
  augur_tstates *b;
} exu_threads_rank;
typedef struct exu_threads {
  uint32_t n;
  exu_threads_rank *r;
  exu_state_fn fn;
  void *arg;
  uint64_t unpaired; /* OpenMP begin/end records that did not pair (after finish) */
} exu_threads;
int exu_threads_open(exu_threads *x, augur_trace *t, exu_state_fn fn, void *arg, augur_error *err);
int exu_threads_add(exu_threads *x, const augur_event *ev, augur_error *err);
int exu_threads_finish(exu_threads *x, augur_error *err);
void exu_threads_free(exu_threads *x);

#endif
