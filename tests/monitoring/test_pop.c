/* The POP efficiencies of a job from its process summaries (mon_pop.c,
 * docs/monitoring.md "Efficiencies"), on hand-built records with known
 * answers, exact to 1e-12: the formulas, which thread's MPI time counts,
 * and every reason the figures are missing or not to be trusted; the
 * flag's limiting factor and the threshold's syntax; the JSON record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "mon.h"
#include "mon_store.h"

#define S 1000000000ull

/* Rank R of N: life LIFE s, MPI_Init INIT s, its initial thread's MPI
 * time MAIN s (Init included), another thread's MPI time OTHER s. */
static augp_proc rank(int64_t r, int64_t n, double life, double init, double main_mpi,
                      double other) {
  augp_proc p;
  memset(&p, 0, sizeof p);
  strcpy(p.host, "node1");
  p.pid = 1000 + (uint64_t)r;
  p.rank = r;
  p.nranks = n;
  p.flags = AUGP_PF_MPI | AUGP_PF_GATHERED;
  p.start_ns = 5 * S;
  p.end_ns = p.start_ns + (uint64_t)(life * S);
  p.mpi_ns[AUGP_MPI_INIT_FINI] = (uint64_t)(init * S);
  p.mpi_ns[AUGP_MPI_P2P] = (uint64_t)((main_mpi - init + other) * S);
  p.nthreads = other > 0 ? 2 : 1;
  p.threads[0].tid = p.pid;
  p.threads[0].mpi_ns = (uint64_t)(main_mpi * S);
  p.threads[1].tid = p.pid + 1;
  p.threads[1].mpi_ns = (uint64_t)(other * S);
  return p;
}

static uint8_t *job(const augp_proc *procs, uint64_t n, uint32_t *len) {
  *len = (uint32_t)(sizeof(augp_job) + n * sizeof(augp_proc));
  uint8_t *b = calloc(1, *len);
  augp_job j;
  memset(&j, 0, sizeof j);
  memset(j.uid, 7, sizeof j.uid);
  strcpy(j.job_id, "42");
  strcpy(j.step, "0");
  strcpy(j.cluster, "test");
  j.start_ns = 1;
  j.end_ns = 100 * S;
  j.nprocs = n;
  memcpy(b, &j, sizeof j);
  memcpy(b + sizeof j, procs, n * sizeof *procs);
  return b;
}

static void pop_of(const augp_proc *procs, uint64_t n, mon_pop *out) {
  uint32_t len;
  uint8_t *b = job(procs, n, &len);
  char why[256];
  assert_int_equal(mon_job_validate(b, len, why, sizeof why), 0);
  mon_job_pop(b, len, out);
  free(b);
}

/* Rank 0: life 10, Init 1, MPI 5 -> window 9, useful 5; rank 1: life 10,
 * Init 1, MPI 2 -> window 9, useful 8. T 9, LB 6.5/8, CommE 8/9. */
static void two_ranks(void **state) {
  (void)state;
  augp_proc p[3] = {rank(0, 2, 10, 1, 5, 0), rank(1, 2, 10, 1, 2, 0)};
  /* mpiexec: not a rank, left out */
  memset(&p[2], 0, sizeof p[2]);
  strcpy(p[2].host, "node1");
  p[2].rank = p[2].nranks = -1;
  p[2].start_ns = 1;
  p[2].end_ns = 50 * S;
  mon_pop m;
  pop_of(p, 3, &m);
  assert_int_equal(m.ranks, 2);
  assert_true(m.trusted);
  assert_string_equal(m.note, "");
  assert_float_equal(m.run_ns, 9e9, 1e-3);
  assert_float_equal(m.useful_avg_ns, 6.5e9, 1e-3);
  assert_float_equal(m.useful_max_ns, 8e9, 1e-3);
  assert_int_equal(m.useful_max_rank, 1);
  assert_float_equal(m.lb, 6.5 / 8, 1e-12);
  assert_float_equal(m.comm, 8.0 / 9, 1e-12);
  assert_float_equal(m.pe, 6.5 / 8 * 8 / 9, 1e-12);
  assert_true(m.omp_pe < 0);
}

/* MPI on another thread (MPI_THREAD_MULTIPLE): not in Useful (as in
 * docs/pop.md), and said. */
static void other_thread_mpi(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 2, 10, 1, 5, 3), rank(1, 2, 10, 1, 2, 0)};
  mon_pop m;
  pop_of(p, 2, &m);
  assert_float_equal(m.useful_avg_ns, 6.5e9, 1e-3);
  assert_false(m.trusted);
  assert_non_null(strstr(m.note, "MPI calls on threads besides the initial one in 1 rank"));
}

/* The initial thread folded with others: the process's MPI time. */
static void folded_initial(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 2, 10, 1, 5, 3), rank(1, 2, 10, 1, 2, 0)};
  p[0].threads[0].nfolded = 9;
  p[0].threads[0].flags = AUGP_TF_OVERFLOW;
  mon_pop m;
  pop_of(p, 2, &m);
  assert_float_equal(m.useful_avg_ns, (2 + 8) / 2.0 * 1e9, 1e-3); /* 10 - (5 + 3) */
  assert_non_null(strstr(m.note, "initial thread of 1 rank (rank 0) shares its slot"));
}

static void missing_and_unfinished(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 3, 10, 1, 5, 0), rank(2, 3, 12, 1, 2, 0)};
  p[1].flags |= AUGP_PF_NOFINISH;
  mon_pop m;
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 2);
  assert_float_equal(m.run_ns, 11e9, 1e-3);
  assert_false(m.trusted);
  assert_non_null(strstr(m.note, "1 of 3 ranks have no record"));
  assert_non_null(strstr(m.note, "1 rank never reached MPI_Finalize (rank 2)"));
}

/* A rank that ran an OpenMP runtime: MPI figures, said to be MPI's only
 * (profile mode does not measure OpenMP), never an OpenMP efficiency. */
static void openmp_runtime(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 2, 10, 1, 5, 0), rank(1, 2, 10, 1, 2, 0)};
  p[1].flags |= AUGP_PF_OMPRT;
  mon_pop m;
  pop_of(p, 2, &m);
  assert_float_equal(m.pe, 6.5 / 9, 1e-12);
  assert_true(m.omp_pe < 0);
  assert_false(m.trusted);
  assert_non_null(strstr(m.note, "OpenMP not seen: 1 rank ran an OpenMP runtime that started"));
}

/* OpenMP measured (the tool started): the threads' user time gives HPE =
 * avg u / T, OMP_PE = HPE / MPI PE, and PE becomes the hybrid one. Rank 0:
 * its initial thread u 4, a worker 3, a slot of 2 folded workers 5, a
 * thread that is not OpenMP's (left out); rank 1 without OpenMP: one
 * thread, u = Useful = 8. 5 threads, avg u 4, T 9. */
static void openmp_measured(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 2, 10, 1, 5, 0), rank(1, 2, 10, 1, 2, 0)};
  p[0].flags |= AUGP_PF_OMPRT | AUGP_PF_OMP;
  p[0].nthreads = 5;
  const uint64_t u[4] = {4 * S, 3 * S, 5 * S, 7 * S};
  const uint64_t fl[4] = {AUGP_TF_OMP, AUGP_TF_OMP, AUGP_TF_OMP | AUGP_TF_OVERFLOW, 0};
  for (int t = 0; t < 4; t++) {
    p[0].threads[t].tid = p[0].pid + (uint64_t)t;
    p[0].threads[t].ctr[AUGP_CTR_RESERVED] = u[t];
    p[0].threads[t].flags = fl[t];
  }
  p[0].threads[2].nfolded = 1;
  mon_pop m;
  pop_of(p, 2, &m);
  assert_true(m.trusted);
  assert_float_equal(m.lb, 6.5 / 8, 1e-12);
  assert_float_equal(m.comm, 8.0 / 9, 1e-12);
  assert_float_equal(m.omp_pe, 4 / 6.5, 1e-12);
  assert_float_equal(m.pe, 4.0 / 9, 1e-12);
  assert_float_equal(m.pe, m.lb * m.comm * m.omp_pe, 1e-12);
}

/* OpenMP without MPI: the one process whose runtime started the tool is
 * a rank of one (MPI figures 1, PE = OMP_PE); two such processes: no
 * figures; an OpenMP runtime that started no tool: said. */
static void openmp_alone(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 1, 10, 0, 0, 0), rank(0, 1, 10, 0, 0, 0)};
  for (int i = 0; i < 2; i++) {
    p[i].rank = p[i].nranks = -1;
    p[i].flags = AUGP_PF_OMPRT | AUGP_PF_OMP;
    p[i].nthreads = 2;
    p[i].threads[1].tid = p[i].pid + 1;
    p[i].threads[0].flags = p[i].threads[1].flags = AUGP_TF_OMP;
    p[i].threads[0].ctr[AUGP_CTR_RESERVED] = 6 * S;
    p[i].threads[1].ctr[AUGP_CTR_RESERVED] = 9 * S;
  }
  p[1].flags = 0; /* the shell that ran it */
  mon_pop m;
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 1);
  assert_true(m.trusted);
  assert_float_equal(m.lb, 1, 1e-12);
  assert_float_equal(m.comm, 1, 1e-12);
  assert_float_equal(m.omp_pe, 7.5 / 10, 1e-12);
  assert_float_equal(m.pe, 7.5 / 10, 1e-12);
  p[1].flags = AUGP_PF_OMP;
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 0);
  assert_non_null(strstr(m.note, "2 OpenMP processes and no MPI ranks"));
  p[0].flags = AUGP_PF_OMPRT;
  p[1].flags = 0;
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 0);
  assert_non_null(strstr(m.note, "no MPI ranks, and OpenMP not seen: 1 process ran"));
}

/* No figures: not MPI; two runs (a rank twice, or two sizes). */
static void no_figures(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 2, 10, 1, 5, 0), rank(0, 2, 10, 1, 2, 0)};
  mon_pop m;
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 0);
  assert_true(m.pe < 0 && m.lb < 0 && m.comm < 0);
  assert_non_null(strstr(m.note, "more than one MPI run (rank 0 twice)"));
  p[1] = rank(1, 3, 10, 1, 2, 0);
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 0);
  assert_non_null(strstr(m.note, "more than one MPI run (sizes 2 and 3)"));
  p[0].rank = p[0].nranks = p[1].rank = p[1].nranks = -1;
  p[0].flags = p[1].flags = 0;
  pop_of(p, 2, &m);
  assert_int_equal(m.ranks, 0);
  assert_string_equal(m.note, "no MPI ranks: not an MPI job");
}

/* The JSON record's "efficiencies": the figures, null for the split. */
static void json_record(void **state) {
  (void)state;
  augp_proc p[2] = {rank(0, 2, 10, 1, 5, 0), rank(1, 2, 10, 1, 2, 0)};
  uint32_t len;
  uint8_t *b = job(p, 2, &len);
  char *s = mon_job_json(b, len);
  assert_non_null(s);
  json_t *o = json_loads(s, 0, NULL), *e = json_object_get(o, "efficiencies");
  assert_non_null(e);
  assert_float_equal(json_real_value(json_object_get(e, "parallel")), 6.5 / 9, 1e-12);
  assert_float_equal(json_real_value(json_object_get(e, "load_balance")), 6.5 / 8, 1e-12);
  assert_true(json_is_null(json_object_get(e, "serialisation")));
  assert_true(json_is_null(json_object_get(e, "transfer")));
  assert_true(json_is_null(json_object_get(e, "omp_parallel")));
  assert_true(json_is_true(json_object_get(e, "trusted")));
  assert_int_equal(json_array_size(json_object_get(e, "notes")), 0);
  json_decref(o);
  free(s);
  free(b);
}

static void limiter_and_threshold(void **state) {
  (void)state;
  assert_string_equal(mon_pop_limiter(0.5, 0.55, 0.9, -1, 0.6), "load balance");
  assert_string_equal(mon_pop_limiter(0.5, 0.9, 0.55, -1, 0.6), "communication");
  assert_string_equal(mon_pop_limiter(0.4, 0.9, 0.8, 0.5, 0.6), "OpenMP");
  assert_null(mon_pop_limiter(0.6, 0.6, 1, -1, 0.6));
  assert_null(mon_pop_limiter(-1, -1, -1, -1, 0.6));
  double t = 0;
  assert_int_equal(mon_pop_threshold("60", &t), 0);
  assert_float_equal(t, 0.6, 1e-15);
  assert_int_equal(mon_pop_threshold("72.5%", &t), 0);
  assert_float_equal(t, 0.725, 1e-15);
  assert_int_equal(mon_pop_threshold("0", &t), 0);
  assert_int_equal(mon_pop_threshold("101", &t), -1);
  assert_int_equal(mon_pop_threshold("-1", &t), -1);
  assert_int_equal(mon_pop_threshold("60 %", &t), -1);
  assert_int_equal(mon_pop_threshold("", &t), -1);
  assert_int_equal(mon_pop_threshold("nan", &t), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_ranks),
      cmocka_unit_test(other_thread_mpi),
      cmocka_unit_test(folded_initial),
      cmocka_unit_test(missing_and_unfinished),
      cmocka_unit_test(no_figures),
      cmocka_unit_test(json_record),
      cmocka_unit_test(limiter_and_threshold),
      cmocka_unit_test(openmp_runtime),
      cmocka_unit_test(openmp_measured),
      cmocka_unit_test(openmp_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
