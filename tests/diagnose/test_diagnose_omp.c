/* diagnose's OpenMP patterns on a hand-built hybrid trace (cmocka): two
 * identical ranks of two threads whose every wait is known to the
 * nanosecond (docs/diagnose.md, "OpenMP patterns"); the same ranks cut
 * short; the same ranks without OpenMP records, whose diagnosis has no
 * OpenMP part at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/diagnose.h"
#include "util.h"

#define NS 1e-9

/* Per-rank call sites (module offsets): the two regions' forks, the
 * critical section, the MPI_Barrier between the regions, the single. */
enum { CS_A = 1, CS_CRIT, CS_MPI, CS_B, CS_SINGLE, CS_END, NCS };

static augur_event omp(unsigned type, uint32_t thread, uint64_t t) {
  return tu_omp(type, thread, t);
}

static augur_event region(unsigned type, uint32_t thread, uint64_t t, uint64_t id, uint32_t aux) {
  augur_event e = omp(type, thread, t);
  e.req = id;
  e.aux = aux;
  if (type == AUGUR_EV_OMP_ITASK_BEGIN) e.peer = 2; /* the team's size */
  return e;
}

static augur_event tagged(unsigned type, uint32_t thread, uint64_t t, int32_t tag, uint64_t cs) {
  augur_event e = omp(type, thread, t);
  e.tag = tag;
  e.callsite = cs;
  return e;
}

/* A barrier: SYNC and WAIT begin at T0, end at T1 (T1 = 0: no end seen). */
static size_t barrier(augur_event *ev, uint32_t thread, uint64_t t0, uint64_t t1) {
  size_t n = 0;
  ev[n++] = tagged(AUGUR_EV_OMP_SYNC_BEGIN, thread, t0, AUGUR_OMP_SYNC_BARRIER_IMPLICIT, 0);
  ev[n++] = tagged(AUGUR_EV_OMP_WAIT_BEGIN, thread, t0, AUGUR_OMP_SYNC_BARRIER_IMPLICIT, 0);
  if (!t1) return n;
  ev[n++] = tagged(AUGUR_EV_OMP_WAIT_END, thread, t1, AUGUR_OMP_SYNC_BARRIER_IMPLICIT, 0);
  ev[n++] = tagged(AUGUR_EV_OMP_SYNC_END, thread, t1, AUGUR_OMP_SYNC_BARRIER_IMPLICIT, 0);
  return n;
}

/* One rank's OpenMP records, by thread (the merged order is the reader's).
 * Window [100, 100000]. Serial 100..1000 (before the first region: not
 * counted) around MPI_Barrier 200..400 at CS_MPI (counted: the loop's site). Region A (CS_A, id 1,
 * 2 asked): fork 1000, thread 1 created in it (1050: no fork/join counted), members start 1000 and
 * 1100, arrive at the closing barrier 3000 and 5100: thread 0 waits 2100, of which 2000 from
 * working 2000 against 4000 (imbalance) and 100 from thread 1's late start; join 5300, thread 1's
 * ends late (at the next fork). Serial 5300..6000 and 6500..7000 (1200) around MPI_Barrier
 * 6000..6500 (500). Region B (CS_B, id 2, 4 asked, team 2): fork 7000, members start 7050 (fork
 * 100); critical (CS_CRIT): thread 0 holds it 7100..8100, thread 1 waits 7300..8100 (800), holds it
 * to 9000; thread 0 runs a single (CS_SINGLE) 8100..10000, thread 1 skips it and waits at its
 * barrier 9000..10000 (1000, serial); closing barrier: thread 1 arrives 11050, thread 0 12050
 * (1000, imbalance); join 12200: 2 x 150 of join. After it serial, MPI_Barrier 13000..13500 at
 * CS_END (after the last region, a site met only there: teardown, not counted). */
static size_t omp_records(augur_event *ev, uint32_t thread) {
  size_t n = 0;
  if (thread == 0) {
    ev[n++] = region(AUGUR_EV_OMP_FORK, 0, 1000, 1, 2);
    ev[n - 1].callsite = CS_A;
    ev[n++] = region(AUGUR_EV_OMP_ITASK_BEGIN, 0, 1000, 1, 0);
    n += barrier(ev + n, 0, 3000, 5200);
    ev[n++] = region(AUGUR_EV_OMP_ITASK_END, 0, 5200, 1, 0);
    ev[n++] = region(AUGUR_EV_OMP_JOIN, 0, 5300, 1, 0);
    ev[n - 1].callsite = CS_A;
    ev[n++] = region(AUGUR_EV_OMP_FORK, 0, 7000, 2, 4);
    ev[n - 1].callsite = CS_B;
    ev[n++] = region(AUGUR_EV_OMP_ITASK_BEGIN, 0, 7050, 2, 0);
    ev[n++] = tagged(AUGUR_EV_OMP_MUTEX_ACQUIRE, 0, 7100, AUGUR_OMP_MUTEX_CRITICAL, CS_CRIT);
    ev[n++] = tagged(AUGUR_EV_OMP_MUTEX_ACQUIRED, 0, 7100, AUGUR_OMP_MUTEX_CRITICAL, 0);
    ev[n++] = tagged(AUGUR_EV_OMP_MUTEX_RELEASED, 0, 8100, AUGUR_OMP_MUTEX_CRITICAL, 0);
    ev[n++] = tagged(AUGUR_EV_OMP_WORK_BEGIN, 0, 8100, AUGUR_OMP_WORK_SINGLE_EXECUTOR, CS_SINGLE);
    ev[n++] = tagged(AUGUR_EV_OMP_WORK_END, 0, 10000, AUGUR_OMP_WORK_SINGLE_EXECUTOR, 0);
    n += barrier(ev + n, 0, 10000, 10050);
    n += barrier(ev + n, 0, 12050, 12100);
    ev[n++] = region(AUGUR_EV_OMP_ITASK_END, 0, 12100, 2, 0);
    ev[n++] = region(AUGUR_EV_OMP_JOIN, 0, 12200, 2, 0);
    ev[n - 1].callsite = CS_B;
    return n;
  }
  ev[n++] = omp(AUGUR_EV_OMP_THREAD_BEGIN, 1, 1050);
  ev[n++] = region(AUGUR_EV_OMP_ITASK_BEGIN, 1, 1100, 1, 1);
  n += barrier(ev + n, 1, 5100, 0);
  /* region A's ends, reported at region B's fork */
  ev[n++] = tagged(AUGUR_EV_OMP_WAIT_END, 1, 7040, AUGUR_OMP_SYNC_BARRIER_IMPLICIT, 0);
  ev[n++] = tagged(AUGUR_EV_OMP_SYNC_END, 1, 7040, AUGUR_OMP_SYNC_BARRIER_IMPLICIT, 0);
  ev[n++] = region(AUGUR_EV_OMP_ITASK_END, 1, 7040, 1, 1);
  ev[n++] = region(AUGUR_EV_OMP_ITASK_BEGIN, 1, 7050, 2, 1);
  ev[n++] = tagged(AUGUR_EV_OMP_MUTEX_ACQUIRE, 1, 7300, AUGUR_OMP_MUTEX_CRITICAL, CS_CRIT);
  ev[n++] = tagged(AUGUR_EV_OMP_MUTEX_ACQUIRED, 1, 8100, AUGUR_OMP_MUTEX_CRITICAL, 0);
  ev[n++] = tagged(AUGUR_EV_OMP_MUTEX_RELEASED, 1, 9000, AUGUR_OMP_MUTEX_CRITICAL, 0);
  ev[n++] = tagged(AUGUR_EV_OMP_WORK_BEGIN, 1, 9000, AUGUR_OMP_WORK_SINGLE_OTHER, CS_SINGLE);
  ev[n++] = tagged(AUGUR_EV_OMP_WORK_END, 1, 9000, AUGUR_OMP_WORK_SINGLE_OTHER, 0);
  n += barrier(ev + n, 1, 9000, 10050);
  n += barrier(ev + n, 1, 11050, 0); /* its ends would come at a next fork */
  return n;
}

/* Writes 2 ranks (OMP: with their OpenMP records; CUT: thread 1 of rank 1
 * stops at 9000) on host "h" with CPUs 0-1, diagnoses them. */
static augur_diagnosis *diagnose(int with_omp, uint64_t cut) {
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  for (uint32_t r = 0; r < 2; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
    augur_rank_def rd = {
        .rank = r, .nranks = 2, .host = "h", .thread_level = -1, .cpus = (char *)"0-1", .cores = 2};
    int32_t world[2] = {0, 1};
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = 2, .members = world};
    augur_module_def mod = {.id = 1, .path = "/nonexistent/augur-test-omp"};
    assert_int_equal(augur_writer_def_rank(w, &rd, &err), 0);
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    assert_int_equal(augur_writer_def_module(w, &mod, &err), 0);
    for (uint32_t c = 1; c < NCS; c++) {
      augur_callsite_def cs = {c, 1, 0x100 * c};
      assert_int_equal(augur_writer_def_callsite(w, &cs, &err), 0);
    }
    augur_event mpi[5] = {tu_ev(AUGUR_EV_INIT, 0, 100), tu_ev(AUGUR_EV_BARRIER, 200, 400),
                          tu_ev(AUGUR_EV_BARRIER, 6000, 6500),
                          tu_ev(AUGUR_EV_BARRIER, 13000, 13500),
                          tu_ev(AUGUR_EV_FINALIZE, 100000, 100010)};
    for (int i = 1; i < 4; i++) {
      mpi[i].comm = AUGUR_COMM_WORLD;
      mpi[i].peer = AUGUR_PEER_NONE;
      mpi[i].tag = AUGUR_TAG_NONE;
      mpi[i].callsite = i == 3 ? CS_END : CS_MPI;
    }
    assert_int_equal(augur_writer_events(w, 0, mpi, 5, &err), 0);
    for (uint32_t th = 0; with_omp && th < 2; th++) {
      augur_event ev[64];
      size_t n = omp_records(ev, th);
      if (cut && r == 1 && th == 1)
        while (n && ev[n - 1].t_start > cut)
          n--;
      assert_int_equal(augur_writer_omp_events(w, th, ev, n, &err), 0);
    }
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_dx_options o = {.min_share = 1e-9};
  augur_diagnosis *d = NULL;
  if (augur_diagnose(t, &o, &d, &err)) fail_msg("%s", err.msg);
  augur_trace_close(t);
  tu_cleanup(dir);
  return d;
}

static void near_ns(double seconds, double ns) {
  if (!(seconds > ns * NS - 1e-12 && seconds < ns * NS + 1e-12))
    fail_msg("got %.12f s, want %.0f ns", seconds, ns);
}

/* The finding of PATTERN whose call site is at module offset OFFSET. */
static const augur_dx_finding *at(const augur_diagnosis *d, int pattern, uint64_t offset) {
  for (size_t i = 0; i < d->nfindings; i++) {
    const augur_dx_finding *f = &d->findings[i];
    if (f->pattern == pattern && f->ncallsites && f->callsites[0].offset == offset) return f;
  }
  fail_msg("no %s finding at +0x%llx", augur_dx_pattern_id(pattern), (unsigned long long)offset);
  return NULL;
}

/* Lost thread-ns per rank PER: thread_seconds 2 x PER, seconds 2 x PER /
 * THREADS, both ranks. */
static void lost(const augur_dx_finding *f, double per, uint32_t threads) {
  near_ns(f->thread_seconds, 2 * per);
  near_ns(f->seconds, 2 * per / threads);
  assert_int_equal(f->threads, threads);
  assert_int_equal(f->nranks, 2);
  assert_non_null(f->cause);
  assert_non_null(f->recommendation);
}

static void patterns(void **state) {
  (void)state;
  augur_diagnosis *d = diagnose(1, 0);
  assert_int_equal(d->omp_ranks, 2);
  assert_int_equal(d->omp_threads, 2);
  lost(at(d, AUGUR_DX_OMP_LOAD_IMBALANCE, 0x100 * CS_A), 2000, 2);
  lost(at(d, AUGUR_DX_OMP_LOAD_IMBALANCE, 0x100 * CS_B), 1000, 2);
  lost(at(d, AUGUR_DX_OMP_CRITICAL, 0x100 * CS_CRIT), 800, 2);
  lost(at(d, AUGUR_DX_OMP_SERIAL, 0x100 * CS_SINGLE), 1000, 2);
  const augur_dx_finding *f = at(d, AUGUR_DX_OMP_SERIAL, 0x100 * CS_B);
  lost(f, 1200, 2); /* between A and B, (T - 1) x 1200 */
  if (!strstr(f->cause, "+0x100") || !strstr(f->cause, "+0x400")) fail_msg("%s", f->cause);
  /* 500 between the regions and 200 before the first: the same site */
  lost(at(d, AUGUR_DX_MPI_SERIAL, 0x100 * CS_MPI), 500 + 200, 2);
  /* B only: A's fork created thread 1 (its 100 of late start with it) */
  lost(at(d, AUGUR_DX_OMP_FORK_JOIN, 0x100 * CS_B), 100 + 300, 2);
  /* B asked for 4 threads, ran 2 over 5200: 2 x 5200 thread-ns, of 4 */
  f = at(d, AUGUR_DX_OMP_LIMITED, 0x100 * CS_B);
  lost(f, 10400, 4);
  /* 4 threads on 2 CPUs: the barrier waits may be waits for a CPU, which OpenMP records do
   * not carry: the cause says so, the placement comes before the balance advice (before:
   * the words of a host with a CPU per thread) */
  f = at(d, AUGUR_DX_OMP_LOAD_IMBALANCE, 0x100 * CS_B);
  if (!strstr(f->cause, "4 threads share 2 CPUs on host h") ||
      !strstr(f->cause, "the trace cannot tell how much"))
    fail_msg("%s", f->cause);
  if (strstr(f->recommendation, "Part of the wait may be threads waiting for a CPU: run at "
                                "most one thread per CPU") != f->recommendation ||
      !strstr(f->recommendation, "If the wait stays: Balance the work of the region's threads"))
    fail_msg("%s", f->recommendation);
  /* nothing else of OpenMP: A asked for 2, the edges are not serial */
  size_t omp = 0;
  for (size_t i = 0; i < d->nfindings; i++) {
    omp += d->findings[i].pattern >= AUGUR_DX_FIRST_OMP;
    if (i) assert_true(d->findings[i].seconds <= d->findings[i - 1].seconds);
  }
  assert_int_equal(omp, 8);
  assert_int_equal(d->findings[0].pattern, AUGUR_DX_OMP_LIMITED); /* the largest */
  int oversubscribed = 0;
  for (size_t i = 0; i < d->nnotes; i++)
    oversubscribed += strstr(d->notes[i], "threads oversubscribed: 4 threads on 2 CPUs") != NULL;
  assert_int_equal(oversubscribed, 1);
  /* JSON: the OpenMP findings' thread-time and the "openmp" object */
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  augur_error err;
  assert_int_equal(augur_diagnosis_write_json(d, m, &err), 0);
  fclose(m);
  if (!strstr(buf, "\"thread_seconds\"") || !strstr(buf, "\"openmp\""))
    fail_msg("JSON without OpenMP keys:\n%s", buf);
  free(buf);
  /* text: the OpenMP line, and the findings' columns aligned with the
   * longer OpenMP ids (the share's % at one column) */
  m = open_memstream(&buf, &len);
  assert_int_equal(augur_diagnosis_write_text(d, m, &err), 0);
  fclose(m);
  if (!strstr(buf, "\nOpenMP: 2 ranks with up to 2 threads;")) fail_msg("%s", buf);
  long col = -1;
  for (size_t i = 0; i < d->nfindings; i++) {
    char row[64];
    snprintf(row, sizeof row, "\n  %2zu  %s ", i + 1, augur_dx_pattern_id(d->findings[i].pattern));
    const char *line = strstr(buf, row);
    if (!line) fail_msg("no row '%s' in:\n%s", row + 1, buf);
    const char *pct = strchr(line, '%');
    if (col < 0) col = pct - line;
    if (pct - line != col)
      fail_msg("row %zu: %% at column %ld, not %ld:\n%s", i + 1, (long)(pct - line), col, buf);
  }
  free(buf);
  augur_diagnosis_free(d);
}

/* Without OpenMP records: no OpenMP finding, key or note. */
static void mpi_only(void **state) {
  (void)state;
  augur_diagnosis *d = diagnose(0, 0);
  assert_int_equal(d->omp_ranks, 0);
  for (size_t i = 0; i < d->nfindings; i++)
    assert_true(d->findings[i].pattern < AUGUR_DX_FIRST_OMP);
  for (size_t i = 0; i < d->nnotes; i++)
    assert_null(strstr(d->notes[i], "thread"));
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  augur_error err;
  assert_int_equal(augur_diagnosis_write_json(d, m, &err), 0);
  fclose(m);
  assert_null(strstr(buf, "openmp"));
  assert_null(strstr(buf, "thread_seconds"));
  free(buf);
  augur_diagnosis_free(d);
}

/* Rank 1's worker stops at 8000, waiting for the critical section: its
 * constructs are closed there and said in a note, its wait (never
 * acquired) is not counted, rank 0's still is. Stopping in a barrier of a
 * joined region instead is libomp's normal end (late ends): no note. */
static void cut(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    augur_diagnosis *d = diagnose(1, k ? 11050 : 8000);
    int unpaired = 0;
    for (size_t i = 0; i < d->nnotes; i++)
      unpaired += strstr(d->notes[i], "OpenMP begin/end records did not pair") != NULL;
    assert_int_equal(unpaired, !k);
    const augur_dx_finding *f = at(d, AUGUR_DX_OMP_CRITICAL, 0x100 * CS_CRIT);
    near_ns(f->thread_seconds, k ? 1600 : 800);
    assert_int_equal(f->nranks, k ? 2 : 1);
    augur_diagnosis_free(d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(patterns), cmocka_unit_test(mpi_only),
                                     cmocka_unit_test(cut)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
