/* The timeline's thread rows (docs/timeline.md "Threads") on a hand-built
 * hybrid trace with known thread behaviour: rank 0 has two threads and one
 * parallel region (every thread state), rank 1 one thread; rank 0's thread
 * 0 sends rank 1 a message. Every interval of every thread row is checked
 * against the times written.
 *
 * `augur-test-timeline-omp --write DIR` writes the same trace to DIR (for
 * the CLI and export tests) and runs no test; `--write-mpi DIR` writes it
 * without its OpenMP records, `--write-cut DIR` without thread 1's end of
 * its loop (as test_unpaired). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/omp.h"
#include "augur/timeline.h"
#include "augur/writer.h"
#include "util.h"

/* Rank 0 (as tests/pop): thread 0 serial 100..1100, forks region 1 (site
 * 0x42, 2 threads) to 1200, useful to 4200, barrier wait to 5200, useful
 * to 5300, joins to 5400, serial to 6400, MPI_Send to rank 1 6400..6900,
 * serial to MPI_Finalize at 7400. Thread 1: idle to 1100, fork to 1300,
 * useful to 5100, wait to 5200, useful to 5250, idle to 6000, waits for a
 * lock (mutex 7) to 6100, holds it to 6200, idle to 7400. */
static size_t rank0_events(augur_event *ev) {
  size_t n = 0;
  ev[n++] = tu_ev(AUGUR_EV_INIT, 0, 100);
  ev[n] = tu_omp(AUGUR_EV_OMP_FORK, 0, 1100);
  ev[n].req = 1, ev[n].callsite = 0x42, ev[n++].aux = 2;
  ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_BEGIN, 0, 1200);
  ev[n].req = 1, ev[n].aux = 0, ev[n++].peer = 2;
  ev[n] = tu_omp(AUGUR_EV_OMP_WORK_BEGIN, 0, 1200);
  ev[n].tag = AUGUR_OMP_WORK_LOOP, ev[n++].bytes = 100;
  ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_BEGIN, 1, 1300);
  ev[n].req = 1, ev[n].aux = 1, ev[n++].peer = 2;
  ev[n] = tu_omp(AUGUR_EV_OMP_WORK_BEGIN, 1, 1300);
  ev[n].tag = AUGUR_OMP_WORK_LOOP, ev[n++].bytes = 60;
  ev[n] = tu_omp(AUGUR_EV_OMP_WORK_END, 0, 4200);
  ev[n++].aux = 3;
  ev[n] = tu_omp(AUGUR_EV_OMP_SYNC_BEGIN, 0, 4200);
  ev[n++].tag = AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL;
  ev[n] = tu_omp(AUGUR_EV_OMP_WAIT_BEGIN, 0, 4200);
  ev[n++].tag = AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL;
  ev[n] = tu_omp(AUGUR_EV_OMP_WORK_END, 1, 5100);
  ev[n++].aux = 2;
  ev[n++] = tu_omp(AUGUR_EV_OMP_SYNC_BEGIN, 1, 5100);
  ev[n++] = tu_omp(AUGUR_EV_OMP_WAIT_BEGIN, 1, 5100);
  ev[n++] = tu_omp(AUGUR_EV_OMP_WAIT_END, 0, 5200);
  ev[n++] = tu_omp(AUGUR_EV_OMP_SYNC_END, 0, 5200);
  ev[n++] = tu_omp(AUGUR_EV_OMP_WAIT_END, 1, 5200);
  ev[n++] = tu_omp(AUGUR_EV_OMP_SYNC_END, 1, 5200);
  ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_END, 1, 5250);
  ev[n].req = 1, ev[n++].aux = 1;
  ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_END, 0, 5300);
  ev[n].req = 1, ev[n++].aux = 0;
  ev[n] = tu_omp(AUGUR_EV_OMP_JOIN, 0, 5400);
  ev[n++].req = 1;
  ev[n] = tu_omp(AUGUR_EV_OMP_MUTEX_ACQUIRE, 1, 6000);
  ev[n].req = 7, ev[n++].tag = AUGUR_OMP_MUTEX_LOCK;
  ev[n] = tu_omp(AUGUR_EV_OMP_MUTEX_ACQUIRED, 1, 6100);
  ev[n].req = 7, ev[n++].tag = AUGUR_OMP_MUTEX_LOCK;
  ev[n] = tu_omp(AUGUR_EV_OMP_MUTEX_RELEASED, 1, 6200);
  ev[n].req = 7, ev[n++].tag = AUGUR_OMP_MUTEX_LOCK;
  ev[n] = tu_ev(AUGUR_EV_SEND, 6400, 6900);
  ev[n].peer = 1, ev[n].tag = 7, ev[n++].bytes = 8;
  ev[n++] = tu_ev(AUGUR_EV_FINALIZE, 7400, 7500);
  return n;
}

/* Rank 1: serial to 6000, MPI_Recv from rank 0 6000..6950, serial to
 * MPI_Finalize at 7400. */
static size_t rank1_events(augur_event *ev) {
  size_t n = 0;
  ev[n++] = tu_ev(AUGUR_EV_INIT, 0, 100);
  ev[n] = tu_ev(AUGUR_EV_RECV, 6000, 6950);
  ev[n].peer = 0, ev[n].tag = 7, ev[n++].bytes_recv = 8;
  ev[n++] = tu_ev(AUGUR_EV_FINALIZE, 7400, 7500);
  return n;
}

static int with_omp = 1; /* 0: --write-mpi */
static int cut = 0;      /* 1: --write-cut */

static void write_rank(const char *dir, uint32_t r, augur_event *ev, size_t n) {
  augur_error err;
  int32_t world[2] = {0, 1};
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
  augur_rank_def rd = {
      .rank = r, .nranks = 2, .host = "h", .thread_level = 3, .cpus = "0-1", .cores = 2};
  rd.finalize_ns = ev[n - 1].t_end;
  assert_int_equal(augur_writer_def_rank(w, &rd, &err), 0);
  augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = 2, .members = world};
  assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
  augur_event mpi[32], omps[32];
  for (uint32_t th = 0; th < 2; th++) {
    size_t nm = 0, no = 0;
    for (size_t i = 0; i < n; i++) {
      if (ev[i].thread != th) continue;
      ev[i].rank = r;
      if (augur_event_is_omp(ev[i].type)) {
        omps[no++] = ev[i];
        continue;
      }
      if (ev[i].type != AUGUR_EV_INIT && ev[i].type != AUGUR_EV_FINALIZE)
        ev[i].comm = AUGUR_COMM_WORLD;
      mpi[nm++] = ev[i];
    }
    if (nm) assert_int_equal(augur_writer_events(w, th, mpi, nm, &err), 0);
    if (no && with_omp) assert_int_equal(augur_writer_omp_events(w, th, omps, no, &err), 0);
  }
  assert_int_equal(augur_writer_close(w, &err), 0);
}

/* Rank 0's records without thread 1's OMP_WORK_END (its loop never ends: a thread cut short inside
 * the region, not the closing barrier libomp reports late); returns their count. */
static size_t cut_work_end(augur_event *ev, size_t n) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!(ev[i].type == AUGUR_EV_OMP_WORK_END && ev[i].thread == 1)) ev[m++] = ev[i];
  return m;
}

static void write_hybrid(const char *dir) {
  tu_meta(dir, 2);
  augur_event ev[32];
  size_t n = rank0_events(ev);
  write_rank(dir, 0, ev, cut ? cut_work_end(ev, n) : n);
  write_rank(dir, 1, ev, rank1_events(ev));
}

typedef struct want {
  uint64_t t0, t1;
  unsigned state;
} want;

static void check_thread(const augur_timeline *tl, uint32_t rank, size_t i, uint32_t thread,
                         int initial, const want *w, size_t nw) {
  augur_tl_thread th;
  augur_timeline_thread(tl, rank, i, &th);
  assert_int_equal(th.thread, thread);
  assert_int_equal(th.initial, initial);
  size_t n;
  const augur_tl_interval *iv = augur_timeline_thread_intervals(tl, rank, i, &n);
  assert_non_null(iv);
  uint64_t sum[AUGUR_TS_COUNT] = {0};
  for (size_t k = 0; k < nw; k++)
    sum[w[k].state] += w[k].t1 - w[k].t0;
  for (size_t k = 0; k < n && k < nw; k++)
    if (iv[k].t0 != w[k].t0 || iv[k].t1 != w[k].t1 || iv[k].state != w[k].state)
      fail_msg("rank %u thread %u interval %zu: %s %llu..%llu, want %s %llu..%llu", rank, thread, k,
               augur_tstate_name(iv[k].state), (unsigned long long)iv[k].t0,
               (unsigned long long)iv[k].t1, augur_tstate_name(w[k].state),
               (unsigned long long)w[k].t0, (unsigned long long)w[k].t1);
  assert_int_equal(n, nw);
  for (unsigned k = 0; k < AUGUR_TS_COUNT; k++)
    if (th.totals[k] != sum[k])
      fail_msg("rank %u thread %u: %s %llu, want %llu", rank, thread, augur_tstate_name(k),
               (unsigned long long)th.totals[k], (unsigned long long)sum[k]);
}

static void test_thread_rows(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  write_hybrid(dir);
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_timeline *tl;
  augur_tl_options o = {.width = 1000};
  /* Without threads: rank rows of the MPI records, as for an MPI-only trace. */
  if (augur_timeline_build(&tl, t, &o, &err)) fail_msg("%s", err.msg);
  assert_int_equal(augur_timeline_hybrid(tl), 0);
  assert_int_equal(augur_timeline_nthreads(tl, 0), 0);
  augur_timeline_free(tl);
  o.threads = 1;
  if (augur_timeline_build(&tl, t, &o, &err)) fail_msg("%s", err.msg);
  assert_int_equal(augur_timeline_hybrid(tl), 1);
  assert_int_equal(augur_timeline_nthreads(tl, 0), 2);
  assert_int_equal(augur_timeline_nthreads(tl, 1), 1);
  const want t00[] = {{100, 1100, AUGUR_TS_SERIAL},  {1100, 1200, AUGUR_TS_OMP_FORK},
                      {1200, 4200, AUGUR_TS_USEFUL}, {4200, 5200, AUGUR_TS_OMP_WAIT},
                      {5200, 5300, AUGUR_TS_USEFUL}, {5300, 5400, AUGUR_TS_OMP_JOIN},
                      {5400, 6400, AUGUR_TS_SERIAL}, {6400, 6900, AUGUR_TS_MPI},
                      {6900, 7400, AUGUR_TS_SERIAL}};
  const want t01[] = {{100, 1100, AUGUR_TS_IDLE},       {1100, 1300, AUGUR_TS_OMP_FORK},
                      {1300, 5100, AUGUR_TS_USEFUL},    {5100, 5200, AUGUR_TS_OMP_WAIT},
                      {5200, 5250, AUGUR_TS_USEFUL},    {5250, 6000, AUGUR_TS_IDLE},
                      {6000, 6100, AUGUR_TS_OMP_MUTEX}, {6100, 7400, AUGUR_TS_IDLE}};
  const want t10[] = {
      {100, 6000, AUGUR_TS_SERIAL}, {6000, 6950, AUGUR_TS_MPI}, {6950, 7400, AUGUR_TS_SERIAL}};
  check_thread(tl, 0, 0, 0, 1, t00, sizeof t00 / sizeof t00[0]);
  check_thread(tl, 0, 1, 1, 0, t01, sizeof t01 / sizeof t01[0]);
  check_thread(tl, 1, 0, 0, 1, t10, sizeof t10 / sizeof t10[0]);
  /* The rank rows and the message are those of the MPI records. */
  uint64_t tot[AUGUR_TL_NSTATES];
  augur_timeline_rank_totals(tl, 0, tot);
  assert_int_equal(tot[AUGUR_TL_SEND], 500);
  size_t nm;
  const augur_tl_message *m = augur_timeline_messages(tl, &nm);
  assert_int_equal(nm, 1);
  assert_int_equal(m[0].sender, 0);
  assert_int_equal(m[0].send_thread, 0);
  assert_int_equal(m[0].receiver, 1);
  /* A window inside the region clips the thread rows. */
  augur_timeline_free(tl);
  o.from = 4000, o.to = 5220;
  if (augur_timeline_build(&tl, t, &o, &err)) fail_msg("%s", err.msg);
  const want w01[] = {{4000, 5100, AUGUR_TS_USEFUL},
                      {5100, 5200, AUGUR_TS_OMP_WAIT},
                      {5200, 5220, AUGUR_TS_USEFUL}};
  check_thread(tl, 0, 1, 1, 0, w01, sizeof w01 / sizeof w01[0]);
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_int_equal(s.omp_unbalanced, 0);
  augur_timeline_free(tl);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Thread 1's end of its loop missing (a trace cut short inside
 * the region): the rows are drawn, and the picture says they are
 * approximate. */
static void test_unpaired(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_event ev[32];
  write_rank(dir, 0, ev, cut_work_end(ev, rank0_events(ev)));
  write_rank(dir, 1, ev, rank1_events(ev));
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_timeline *tl;
  augur_tl_options o = {.threads = 1};
  if (augur_timeline_build(&tl, t, &o, &err)) fail_msg("%s", err.msg);
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  assert_true(s.omp_unbalanced >= 1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(augur_timeline_write_svg(tl, f, "t", &err), 0);
  fclose(f);
  assert_non_null(strstr(buf, "OpenMP begin/end records unpaired"));
  free(buf);
  augur_timeline_free(tl);
  augur_trace_close(t);
  tu_cleanup(dir);
}

int main(int argc, char **argv) {
  if (argc == 3 && (!strcmp(argv[1], "--write") || !strcmp(argv[1], "--write-mpi") ||
                    !strcmp(argv[1], "--write-cut"))) {
    with_omp = strcmp(argv[1], "--write-mpi") != 0;
    cut = !strcmp(argv[1], "--write-cut");
    write_hybrid(argv[2]);
    return 0;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_thread_rows),
                                     cmocka_unit_test(test_unpaired)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
