/* augur format tests — OpenMP records (docs/openmp.md): kind-3 blocks next
 * to the MPI blocks of the same threads; MPI streams unchanged by them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "util.h"

/* A hybrid rank: per thread, MPI records every 1000 ns (a SEND, or a
 * WAITALL with two completions) and an OpenMP fork/implicit task/barrier
 * cycle of point records between them. */
enum { NTHREADS = 2, NMPI = 600, NOMP = 6 * NMPI };

typedef struct hybrid {
  augur_event mpi[NTHREADS][3 * NMPI];
  size_t nmpi[NTHREADS];
  augur_event omp[NTHREADS][NOMP];
  size_t nomp[NTHREADS];
} hybrid;

static void make_hybrid(hybrid *h) {
  static const unsigned cycle[6] = {AUGUR_EV_OMP_FORK,       AUGUR_EV_OMP_ITASK_BEGIN,
                                    AUGUR_EV_OMP_WAIT_BEGIN, AUGUR_EV_OMP_WAIT_END,
                                    AUGUR_EV_OMP_ITASK_END,  AUGUR_EV_OMP_JOIN};
  memset(h, 0, sizeof *h);
  for (uint32_t th = 0; th < NTHREADS; th++) {
    for (uint64_t i = 0; i < NMPI; i++) {
      uint64_t t0 = 10000 + 1000 * i + 7 * th;
      if (th == 0) {
        augur_event e = tu_ev(AUGUR_EV_SEND, t0, t0 + 100);
        e.comm = AUGUR_COMM_WORLD;
        e.peer = 0;
        e.tag = 5;
        e.bytes = 64;
        e.callsite = 1;
        e.thread = th;
        h->mpi[th][h->nmpi[th]++] = e;
      } else {
        augur_event p = tu_ev(AUGUR_EV_WAITALL, t0, t0 + 100);
        p.aux = 2;
        p.thread = th;
        h->mpi[th][h->nmpi[th]++] = p;
        for (uint32_t k = 0; k < 2; k++) {
          augur_event c = tu_ev(AUGUR_EV_COMPLETION, t0, t0 + 100);
          c.req = 77;
          c.aux = k;
          c.thread = th;
          c.flags = AUGUR_F_UNMATCHED;
          h->mpi[th][h->nmpi[th]++] = c;
        }
      }
      /* OpenMP between the MPI calls; the fork at the MPI call's end (a tie
       * with nothing: MPI records start on another time). */
      for (uint64_t k = 0; k < 6; k++) {
        augur_event o = tu_ev(cycle[k], t0 + 100 + 100 * k, t0 + 100 + 100 * k);
        o.peer = 0;
        o.tag = k == 2 || k == 3 ? AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL : 0;
        o.req = i + 1; /* region id */
        o.callsite = k == 0 || k == 5 ? 2 : 0;
        o.thread = th;
        h->omp[th][h->nomp[th]++] = o;
      }
    }
  }
}

/* Writes H into DIR (one rank): definitions, then per thread its MPI and
 * OpenMP records in two calls each, the kinds interleaved in the file. */
static void write_hybrid(const char *dir, const hybrid *h, int with_omp) {
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  augur_module_def md = {1, "/nonexistent/app"};
  augur_callsite_def cs1 = {1, 1, 0x100}, cs2 = {2, 1, 0x200};
  assert_int_equal(augur_writer_def_module(w, &md, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &cs1, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &cs2, &err), 0);
  for (int half = 0; half < 2; half++) {
    for (uint32_t th = 0; th < NTHREADS; th++) {
      size_t nm = h->nmpi[th], cut = nm / 2 - (nm / 2) % (th ? 3 : 1);
      size_t from = half ? cut : 0, to = half ? nm : cut;
      assert_int_equal(augur_writer_events(w, th, h->mpi[th] + from, to - from, &err), 0);
      size_t no = h->nomp[th];
      if (with_omp)
        assert_int_equal(augur_writer_omp_events(w, th, h->omp[th] + (half ? no / 2 : 0),
                                                 half ? no - no / 2 : no / 2, &err),
                         0);
    }
  }
  assert_int_equal(augur_writer_close(w, &err), 0);
}

/* Item 1: the writer puts OpenMP records in kind-3 blocks of their thread,
 * MPI records in kind-1 blocks; the index keeps the two apart. */
static void test_block_kinds(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  char *dir = tu_tracedir();
  write_hybrid(dir, h, 1);
  augur_trace *t;
  augur_error err;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  assert_int_equal(augur_trace_info_get(t)->version_minor, 4);
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  assert_int_equal(augur_trace_nblocks(t, 0), 2 * NTHREADS);
  assert_int_equal(augur_trace_omp_nblocks(t, 0), 2 * NTHREADS);
  uint64_t mpi = 0, omp = 0;
  unsigned threads_mpi = 0, threads_omp = 0;
  for (size_t i = 0; i < augur_trace_nblocks(t, 0); i++) {
    const augur_block_info *b = augur_trace_block(t, 0, i);
    assert_int_equal(b->kind, 1);
    mpi += b->nevents;
    threads_mpi |= 1u << b->thread;
  }
  for (size_t i = 0; i < augur_trace_omp_nblocks(t, 0); i++) {
    const augur_block_info *b = augur_trace_omp_block(t, 0, i);
    assert_int_equal(b->kind, 3);
    assert_int_equal(b->nparents, b->nevents); /* no sub-records */
    if (i) assert_true(b->offset > augur_trace_omp_block(t, 0, i - 1)->offset);
    omp += b->nevents;
    threads_omp |= 1u << b->thread;
  }
  assert_null(augur_trace_omp_block(t, 0, augur_trace_omp_nblocks(t, 0)));
  assert_int_equal(threads_mpi, 3);
  assert_int_equal(threads_omp, 3);
  assert_int_equal(mpi, h->nmpi[0] + h->nmpi[1]);
  assert_int_equal(augur_trace_nevents(t, 0), mpi);
  assert_int_equal(omp, h->nomp[0] + h->nomp[1]);
  assert_int_equal(augur_trace_omp_nevents(t, 0), omp);
  assert_int_equal(augur_trace_nparents(t, 0), 2 * NMPI);
  augur_trace_close(t);
  tu_cleanup(dir);
  free(h);
}

/* The MPI rank stream of a hybrid trace is the MPI-only trace's stream,
 * record for record. */
static void test_mpi_stream_unchanged(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  char *a = tu_tracedir(), *b = tu_tracedir();
  write_hybrid(a, h, 0);
  write_hybrid(b, h, 1);
  augur_trace *ta, *tb;
  augur_error err;
  assert_int_equal(augur_trace_open(&ta, a, &err), 0);
  assert_int_equal(augur_trace_open(&tb, b, &err), 0);
  size_t na, nb;
  int rca, rcb;
  augur_event *ea = tu_read_rank(ta, 0, &na, &rca, &err);
  augur_event *eb = tu_read_rank(tb, 0, &nb, &rcb, &err);
  assert_int_equal(rca, 0);
  assert_int_equal(rcb, 0);
  assert_int_equal(na, h->nmpi[0] + h->nmpi[1]);
  assert_int_equal(na, nb);
  for (size_t i = 0; i < na; i++)
    tu_assert_event_eq(&ea[i], &eb[i], i);
  free(ea);
  free(eb);
  augur_trace_close(ta);
  augur_trace_close(tb);
  tu_cleanup(a);
  tu_cleanup(b);
  free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_block_kinds),
      cmocka_unit_test(test_mpi_stream_unchanged),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
