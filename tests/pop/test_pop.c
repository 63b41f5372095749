/* Thread states and the POP efficiencies with known answers (docs/pop.md):
 * a hand-built 2-rank MPI trace whose ideal-network run time is known (a
 * message that serialises the ranks), a hand-built hybrid rank (one
 * parallel region of 2 threads: every state, the region's imbalance and
 * TALP's terms by hand), the same rank cut short, and the hybrid figures
 * reducing to the MPI ones without OpenMP records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/omp.h"
#include "augur/pop.h"
#include "augur/writer.h"
#include "util.h"

#define EPS 1e-9
#define MS  1000000ull

/* Equal to 1e-9, relative to the value for times in ns. */
static void near(double got, double want) {
  double tol = EPS * (want > 1 ? want : want < -1 ? -want : 1);
  if (!(got >= want - tol && got <= want + tol)) fail_msg("got %.12f, want %.12f", got, want);
}

/* Rank R of a 2-rank trace on host "h" where the ranks may use CPUS ("0"
 * or "0-1"); it reached MPI_Finalize if its last record is one. */
static void write_rank(const char *dir, uint32_t r, augur_event *ev, size_t n, const char *cpus) {
  augur_error err;
  int32_t world[2] = {0, 1};
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
  augur_rank_def rd = {
      .rank = r, .nranks = 2, .host = "h", .thread_level = -1, .cpus = (char *)cpus};
  rd.cores = strcmp(cpus, "0") ? 2 : 1;
  if (ev[n - 1].type == AUGUR_EV_FINALIZE) rd.finalize_ns = ev[n - 1].t_end;
  assert_int_equal(augur_writer_def_rank(w, &rd, &err), 0);
  augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = 2, .members = world};
  assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
  /* Each thread's MPI and OpenMP records, in their order. */
  augur_event mpi[32], omp[32];
  for (uint32_t th = 0; th < 2; th++) {
    size_t nm = 0, no = 0;
    for (size_t i = 0; i < n && nm < 32 && no < 32; i++) {
      if (ev[i].thread != th) continue;
      ev[i].rank = r;
      if (augur_event_is_omp(ev[i].type)) {
        omp[no++] = ev[i];
        continue;
      }
      if (ev[i].type != AUGUR_EV_INIT && ev[i].type != AUGUR_EV_FINALIZE)
        ev[i].comm = AUGUR_COMM_WORLD;
      mpi[nm++] = ev[i];
    }
    if (nm) assert_int_equal(augur_writer_events(w, th, mpi, nm, &err), 0);
    if (no) assert_int_equal(augur_writer_omp_events(w, th, omp, no, &err), 0);
  }
  assert_int_equal(augur_writer_close(w, &err), 0);
}

static augur_event msg(unsigned type, uint64_t t0, uint64_t t1, int32_t peer) {
  augur_event e = tu_ev(type, t0, t1);
  e.peer = peer;
  e.tag = 7;
  if (type == AUGUR_EV_RECV)
    e.bytes_recv = 8;
  else
    e.bytes = 8;
  return e;
}

/* Both ranks leave MPI_Init at 10 ms. Rank 0 computes 2 s, sends 8 bytes
 * to rank 1 (1 ms), computes 1 s: useful 3 s, MPI_Finalize at 3.011 s.
 * Rank 1 computes 0.5 s, receives (until 2.012 s), computes 2 s: useful
 * 2.5 s, MPI_Finalize at 4.012 s. T = 4.002 s. On the ideal network the
 * message arrives when it is sent: rank 1 ends at 2 + 2 = 4 s = T_ideal.
 * LB = 2.75 / 3, CommE = 3 / 4.002, SerE = 3 / 4, TE = 4 / 4.002. */
/* CUT: 1 = rank 1 stops before MPI_Finalize, 2 = its receive is on thread 1. */
static void write_serial(const char *dir, const char *cpus, int cut) {
  tu_meta(dir, 2);
  const uint64_t u = 10 * MS;
  augur_event e0[] = {tu_ev(AUGUR_EV_INIT, 0, u),
                      msg(AUGUR_EV_SEND, u + 2000 * MS, u + 2001 * MS, 1),
                      tu_ev(AUGUR_EV_FINALIZE, u + 3001 * MS, u + 3002 * MS)};
  augur_event e1[] = {tu_ev(AUGUR_EV_INIT, 0, u),
                      msg(AUGUR_EV_RECV, u + 500 * MS, u + 2002 * MS, 0),
                      tu_ev(AUGUR_EV_FINALIZE, u + 4002 * MS, u + 4003 * MS)};
  if (cut == 2) e1[1].thread = 1; /* the receive on a second thread */
  write_rank(dir, 0, e0, 3, cpus);
  write_rank(dir, 1, e1, cut == 1 ? 2 : 3, cpus);
}

static augur_trace *serial_trace(char **dirp, const char *cpus, int cut) {
  char *dir = tu_tracedir();
  write_serial(dir, cpus, cut);
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  *dirp = dir;
  return t;
}

static void test_mpi_only(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = serial_trace(&dir, "0-1", 0);
  augur_pop p;
  augur_error err = {0};
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  assert_int_equal(p.nranks, 2);
  near(p.t_ns, 4002.0 * MS);
  near(p.t_ideal_ns, 4000.0 * MS);
  near(p.useful_max_ns, 3000.0 * MS);
  assert_int_equal(p.useful_max_rank, 0);
  near(p.lb, 2.75 / 3);
  near(p.comm_eff, 3.0 / 4.002);
  near(p.ser_eff, 3.0 / 4);
  near(p.trans_eff, 4.0 / 4.002);
  near(p.par_eff, 2.75 / 3 * 3.0 / 4.002);
  near(p.par_eff, p.lb * p.ser_eff * p.trans_eff); /* POP's identity */
  if (p.nnotes) fail_msg("note: %s", p.notes[0]);
  assert_true(p.trusted);
  /* No OpenMP records: the hybrid figures are the MPI ones. */
  assert_int_equal(p.hybrid, 0);
  near(p.hpe, p.par_eff);
  near(p.hlbe, p.lb);
  near(p.omp_pe, 1);
  near(p.omp_lbe, 1);
  near(p.omp_ser_eff, 1);
  near(p.omp_lb_eff, 1);
  near(p.omp_sched_eff, 1);
  assert_int_equal(p.nregions, 0);
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* The text block of P has A and B. */
static void text_has(const augur_pop *p, augur_trace *t, const char *a, const char *b) {
  char buf[4096];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  assert_non_null(f);
  augur_pop_print_text(f, p, t, 10);
  fclose(f);
  if (!strstr(buf, a) || !strstr(buf, b)) fail_msg("no '%s' or '%s' in:\n%s", a, b, buf);
}

/* The same without the replay on the ideal network (report --no-ideal):
 * SerE, TE and T_ideal unknown and said to be not computed, not a note
 * (the figures are not less trustworthy); the others as with it. */
static void test_no_ideal(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = serial_trace(&dir, "0-1", 0);
  augur_pop p;
  augur_error err = {0};
  assert_int_equal(augur_pop_trace(t, 0, &p, &err), AUGUR_OK);
  assert_true(p.ideal_skipped);
  assert_true(p.t_ideal_ns < 0 && p.ser_eff < 0 && p.trans_eff < 0);
  near(p.lb, 2.75 / 3);
  near(p.comm_eff, 3.0 / 4.002);
  near(p.par_eff, 2.75 / 3 * 3.0 / 4.002);
  assert_true(p.trusted);
  assert_int_equal(p.nnotes, 0);
  text_has(&p, t, "serialisation                   ?",
           "run time 4.002 s, on an ideal network not computed (--no-ideal)\n");
  char *js = augur_pop_json(&p, t);
  assert_non_null(js);
  assert_non_null(strstr(js, "\"ideal_run_ns\": null"));
  assert_non_null(strstr(js, "\"serialisation\": null"));
  assert_non_null(strstr(js, "\"ideal_computed\": false"));
  free(js);
  augur_pop_free(&p);
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  assert_false(p.ideal_skipped);
  js = augur_pop_json(&p, t);
  assert_non_null(strstr(js, "\"ideal_computed\": true"));
  free(js);
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* The same run on one CPU, then with rank 1 cut before MPI_Finalize: the
 * figures are computed and said to be untrustworthy, text and JSON. */
static void test_notes(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = serial_trace(&dir, "0", 0);
  augur_pop p;
  augur_error err = {0};
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  assert_false(p.trusted);
  assert_int_equal(p.nnotes, 1);
  assert_non_null(strstr(p.notes[0], "oversubscribed: 2 ranks on 1 CPU (host h)"));
  char *js = augur_pop_json(&p, t);
  assert_non_null(js);
  assert_non_null(strstr(js, "\"trusted\": false"));
  assert_non_null(strstr(js, "oversubscribed: 2 ranks"));
  free(js);
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);

  t = serial_trace(&dir, "0-1", 1);
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  assert_false(p.trusted);
  assert_true(p.nnotes >= 1);
  if (!strstr(p.notes[0], "trace incomplete: rank 1")) fail_msg("%s", p.notes[0]);
  near(p.t_ns, 3001.0 * MS); /* rank 1 ends at its Recv (2.012 s), rank 0 at 3.011 s */
  text_has(&p, t, "Efficiencies (POP)\n  warning: trace incomplete", "parallel efficiency");
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);

  /* Rank 1's receive made by a second thread: outside what the MPI figures
   * cover (Useful is the initial thread's), and said. */
  t = serial_trace(&dir, "0-1", 2);
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  assert_false(p.trusted);
  assert_int_equal(p.mpi_threads, 1);
  if (p.nnotes != 1 || !strstr(p.notes[0], "MPI calls on 1 thread besides"))
    fail_msg("%zu notes: %s", p.nnotes, p.nnotes ? p.notes[0] : "");
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A damaged rank file: the rank up to the damage, no ideal run time
 * (serialisation and transfer unknown: null in the JSON), said once. */
static void test_damaged(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = serial_trace(&dir, "0-1", 0);
  augur_trace_close(t);
  tu_flip_byte(tu_rank_file(dir, 1, 2), 40);
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_pop p;
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  assert_false(p.trusted);
  assert_true(p.ser_eff < 0 && p.trans_eff < 0 && p.t_ideal_ns < 0);
  int damaged = 0, ideal = 0;
  for (size_t i = 0; i < p.nnotes; i++) {
    damaged += strstr(p.notes[i], "damaged trace: ") == p.notes[i];
    ideal += !strcmp(p.notes[i], "no run time on the ideal network (the trace is damaged): "
                                 "serialisation and transfer unknown");
  }
  if (damaged != 1 || ideal != 1) fail_msg("%zu notes, first: %s", p.nnotes, p.notes[0]);
  char *js = augur_pop_json(&p, t);
  assert_non_null(strstr(js, "\"serialisation\": null"));
  free(js);
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* One rank, 2 threads, one parallel region (site 0x42, region 1): thread 0
 * is serial 1000 ns, forks (100), works 3000 (100 iterations, 3 chunks),
 * waits in the barrier 1000, 100 more in its task, joins (100), serial
 * 1000, MPI_Barrier 500, serial 500. Thread 1: idle until the fork, starts
 * 200 after it, works 3800 (60 iterations, 2 chunks), waits 100, 50 more,
 * idle to the end. Window 100 .. 7400. */
static size_t hybrid_events(augur_event *ev) {
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
  ev[n++] = tu_omp(AUGUR_EV_OMP_SYNC_BEGIN, 0, 4200);
  ev[n++] = tu_omp(AUGUR_EV_OMP_WAIT_BEGIN, 0, 4200);
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
  ev[n++] = tu_ev(AUGUR_EV_BARRIER, 6400, 6900);
  ev[n++] = tu_ev(AUGUR_EV_FINALIZE, 7400, 7500);
  return n;
}

static uint64_t sum_states(const augur_thread_time *th) {
  uint64_t s = 0;
  for (unsigned k = 0; k < AUGUR_TS_COUNT; k++)
    s += th->ns[k];
  return s;
}

static void test_hybrid(void **state) {
  (void)state;
  augur_event ev[32];
  size_t n = hybrid_events(ev);
  augur_rank_states rs;
  augur_error err = {0};
  assert_int_equal(augur_rank_states_events(ev, n, 0, &rs, &err), AUGUR_OK);
  assert_int_equal(rs.t0, 100);
  assert_int_equal(rs.t1, 7400);
  assert_int_equal(rs.unbalanced, 0);
  assert_int_equal(rs.nthreads, 2);
  const augur_thread_time *a = &rs.threads[0], *b = &rs.threads[1];
  assert_true(a->initial && !b->initial);
  assert_int_equal(a->ns[AUGUR_TS_SERIAL], 2500);
  assert_int_equal(a->ns[AUGUR_TS_OMP_FORK], 100);
  assert_int_equal(a->ns[AUGUR_TS_USEFUL], 3100);
  assert_int_equal(a->ns[AUGUR_TS_OMP_WAIT], 1000);
  assert_int_equal(a->ns[AUGUR_TS_OMP_JOIN], 100);
  assert_int_equal(a->ns[AUGUR_TS_MPI], 500);
  assert_int_equal(a->ns[AUGUR_TS_IDLE], 0);
  assert_int_equal(b->ns[AUGUR_TS_IDLE], 1000 + 2150);
  assert_int_equal(b->ns[AUGUR_TS_OMP_FORK], 200);
  assert_int_equal(b->ns[AUGUR_TS_USEFUL], 3850);
  assert_int_equal(b->ns[AUGUR_TS_OMP_WAIT], 100);
  assert_int_equal(sum_states(a), 7300);
  assert_int_equal(sum_states(b), 7300);
  assert_int_equal(rs.nsites, 1);
  const augur_omp_site *s = &rs.sites[0];
  assert_int_equal(s->callsite, 0x42);
  assert_int_equal(s->instances, 1);
  assert_int_equal(s->elapsed_ns, 4300);
  assert_int_equal(s->team, 2);
  assert_int_equal(s->useful_ns[0], 3100);
  assert_int_equal(s->useful_ns[1], 3850);
  assert_int_equal(s->iterations[0], 100);
  assert_int_equal(s->iterations[1], 60);
  assert_int_equal(s->chunks[0], 3);
  assert_int_equal(s->chunks[1], 2);
  near(s->imbalance, 3850.0 / 3475);
  near(s->lb_ns, 2 * 3850.0 - 6950);
  near(s->sched_ns, 2 * (4300.0 - 3850));

  augur_pop p;
  augur_pop_compute(&rs, 1, -1, &p);
  assert_int_equal(p.hybrid, 1);
  assert_int_equal(p.nthreads, 2);
  near(p.t_ns, 7300);
  near(p.lb, 1);
  near(p.par_eff, 6800.0 / 7300);
  assert_true(p.ser_eff < 0 && p.trans_eff < 0); /* no T_ideal */
  near(p.hpe, 4725.0 / 7300);
  near(p.hlbe, 4725.0 / 5600);
  near(p.omp_pe, 4725.0 / 6800);
  near(p.omp_lbe, 4725.0 / 5600);
  near(p.hpe, p.par_eff * p.omp_pe);
  near(p.omp_pe, p.omp_lbe * p.omp_ce);
  /* I_ser: thread 1 while thread 0 is outside its region (7300 - 4300) */
  assert_int_equal(a->region_ns, 4300);
  assert_int_equal(b->region_ns, 0);
  near(p.ser_ns, 3000);
  near(p.omp_ser_eff, (14600.0 - 3000) / 14600);
  near(p.omp_lb_eff, (11600.0 - 750) / 11600);
  near(p.omp_sched_eff, (10850.0 - 900) / 10850);
  augur_rank_states_free(&rs);
}

/* Thread 1's records stop after its WORK_BEGIN (a crash): its implicit task
 * and loop are closed at its last record (2 unbalanced), it is idle from
 * there; a stray WAIT_END is one more. Every thread's states still add up
 * to the window, and the region is folded at its join. */
static void test_truncated(void **state) {
  (void)state;
  augur_event ev[32], cut[32];
  size_t n = hybrid_events(ev), m = 0;
  for (size_t i = 0; i < n; i++)
    if (ev[i].thread != 1 || ev[i].t_start <= 1300) cut[m++] = ev[i];
  cut[m] = cut[m - 1]; /* a stray end just before MPI_Finalize */
  cut[m - 1] = tu_omp(AUGUR_EV_OMP_WAIT_END, 0, 7000);
  m++;
  augur_rank_states rs;
  augur_error err = {0};
  assert_int_equal(augur_rank_states_events(cut, m, 0, &rs, &err), AUGUR_OK);
  assert_int_equal(rs.unbalanced, 3);
  assert_int_equal(rs.nthreads, 2);
  assert_int_equal(sum_states(&rs.threads[0]), 7300);
  assert_int_equal(sum_states(&rs.threads[1]), 7300);
  assert_int_equal(rs.threads[1].ns[AUGUR_TS_USEFUL], 0);
  assert_int_equal(rs.threads[1].ns[AUGUR_TS_OMP_FORK], 200);
  assert_int_equal(rs.nsites, 1);
  assert_int_equal(rs.sites[0].instances, 1);
  augur_rank_states_free(&rs);

  /* libomp: thread 1's ends of the region (WAIT_END, SYNC_END, ITASK_END)
   * are never reported, it stays in the closing barrier of a region thread
   * 0 joined: late ends, not unpaired records; the same states as a crash
   * there would give, and the region folded at its join. */
  m = 0;
  for (size_t i = 0; i < n; i++)
    if (ev[i].thread != 1 || ev[i].t_start <= 5100) cut[m++] = ev[i];
  assert_int_equal(augur_rank_states_events(cut, m, 0, &rs, &err), AUGUR_OK);
  assert_int_equal(rs.unbalanced, 0);
  assert_int_equal(rs.late_ends, 3);
  assert_int_equal(sum_states(&rs.threads[1]), 7300);
  assert_int_equal(rs.nsites, 1);
  assert_int_equal(rs.sites[0].instances, 1);
  augur_rank_states_free(&rs);

  /* Cut inside the region on every thread (no JOIN, no MPI_Finalize):
   * the window ends at the last record, the region at thread 0's last. */
  m = 0;
  for (size_t i = 0; i < n; i++)
    if (ev[i].t_start <= 4200) cut[m++] = ev[i];
  assert_int_equal(augur_rank_states_events(cut, m, 0, &rs, &err), AUGUR_OK);
  assert_int_equal(rs.finalized, 0);
  assert_int_equal(rs.t1, 4200);
  assert_true(rs.unbalanced >= 4);
  assert_int_equal(sum_states(&rs.threads[0]), 4100);
  assert_int_equal(sum_states(&rs.threads[1]), 4100);
  assert_int_equal(rs.nsites, 1);
  assert_int_equal(rs.sites[0].elapsed_ns, 4200 - 1100);
  augur_rank_states_free(&rs);
}

/* The hybrid rank above as rank 0 of a written trace, next to an MPI-only
 * rank 1 with the same MPI calls (serial 6300, MPI_Barrier 500, serial
 * 500): augur_pop_trace reads both kinds. T = 7300, T_ideal = 6800 (the
 * barrier costs nothing), Useful = 6800 on both ranks. Threads: rank 0's
 * two (5600 and 3850 of user code), rank 1's initial thread (6800). */
/* CUT: rank 0 stops inside its region, before both threads' ends. */
static void write_hybrid(const char *dir, int cut) {
  tu_meta(dir, 2);
  augur_event ev[32];
  size_t n = hybrid_events(ev);
  write_rank(dir, 0, ev, cut ? 12 : n, "0-1");
  augur_event e1[] = {tu_ev(AUGUR_EV_INIT, 0, 100), tu_ev(AUGUR_EV_BARRIER, 6400, 6900),
                      tu_ev(AUGUR_EV_FINALIZE, 7400, 7500)};
  write_rank(dir, 1, e1, 3, "0-1");
}

static void test_hybrid_trace(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  write_hybrid(dir, 0);
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_pop p;
  assert_int_equal(augur_pop_trace(t, 1, &p, &err), AUGUR_OK);
  if (p.nnotes) fail_msg("note: %s", p.notes[0]);
  assert_int_equal(p.hybrid, 1);
  assert_int_equal(p.nthreads, 3);
  near(p.t_ns, 7300);
  near(p.t_ideal_ns, 6800);
  near(p.lb, 1);
  near(p.ser_eff, 1);
  near(p.trans_eff, 6800.0 / 7300);
  near(p.par_eff, 6800.0 / 7300);
  near(p.hpe, 16250.0 / 3 / 7300);
  near(p.hlbe, 16250.0 / 3 / 6800);
  near(p.omp_pe, p.hpe / p.par_eff);
  near(p.omp_ser_eff, (21900.0 - 3000) / 21900);
  near(p.omp_lb_eff, (18900.0 - 750) / 18900);
  near(p.omp_sched_eff, (18150.0 - 900) / 18150);
  assert_int_equal(p.nregions, 1); /* rank 0's region, moved out of its states */
  assert_int_equal(p.regions[0].rank, 0);
  assert_int_equal(p.regions[0].site.elapsed_ns, 4300);
  assert_int_equal(p.regions[0].site.useful_ns[1], 3850);
  char *js = augur_pop_json(&p, t);
  assert_non_null(js);
  assert_non_null(strstr(js, "\"iterations\": [\n"));
  free(js);
  text_has(&p, t, "Efficiencies (POP, hybrid MPI+OpenMP: 3 threads)", "parallel region");
  augur_pop_free(&p);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* One thread in a region of one: a critical section it waits 50 ns for,
 * a masked block (useful), a sync region of 30 ns with a wait of 10 inside,
 * an initial task (not a region), and a second region from the same site. */
static void test_mutex_sync(void **state) {
  (void)state;
  augur_event ev[32];
  size_t n = 0;
  ev[n++] = tu_ev(AUGUR_EV_INIT, 0, 100);
  ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_BEGIN, 0, 100);
  ev[n].flags = 1, ev[n++].peer = 1; /* the initial task */
  for (uint64_t r = 1, t = 200; r <= 2; r++, t += 1000) {
    ev[n] = tu_omp(AUGUR_EV_OMP_FORK, 0, t);
    ev[n].req = r, ev[n++].callsite = 0x77;
    ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_BEGIN, 0, t + 10);
    ev[n].req = r, ev[n++].peer = 1;
    ev[n++] = tu_omp(AUGUR_EV_OMP_MUTEX_ACQUIRE, 0, t + 100);
    ev[n++] = tu_omp(AUGUR_EV_OMP_MUTEX_ACQUIRED, 0, t + 150);
    ev[n++] = tu_omp(AUGUR_EV_OMP_MUTEX_RELEASED, 0, t + 200);
    ev[n++] = tu_omp(AUGUR_EV_OMP_MASKED_BEGIN, 0, t + 200);
    ev[n++] = tu_omp(AUGUR_EV_OMP_MASKED_END, 0, t + 300);
    ev[n++] = tu_omp(AUGUR_EV_OMP_SYNC_BEGIN, 0, t + 300);
    ev[n++] = tu_omp(AUGUR_EV_OMP_WAIT_BEGIN, 0, t + 310);
    ev[n++] = tu_omp(AUGUR_EV_OMP_WAIT_END, 0, t + 320);
    ev[n++] = tu_omp(AUGUR_EV_OMP_SYNC_END, 0, t + 330);
    ev[n] = tu_omp(AUGUR_EV_OMP_ITASK_END, 0, t + 340);
    ev[n++].req = r;
    ev[n] = tu_omp(AUGUR_EV_OMP_JOIN, 0, t + 350);
    ev[n++].req = r;
  }
  ev[n++] = tu_ev(AUGUR_EV_FINALIZE, 3100, 3200);
  augur_rank_states rs;
  augur_error err;
  assert_int_equal(augur_rank_states_events(ev, n, 0, &rs, &err), AUGUR_OK);
  assert_int_equal(rs.unbalanced, 0);
  const augur_thread_time *a = &rs.threads[0];
  assert_int_equal(a->ns[AUGUR_TS_OMP_MUTEX], 2 * 50);
  assert_int_equal(a->ns[AUGUR_TS_OMP_SYNC], 2 * 20);
  assert_int_equal(a->ns[AUGUR_TS_OMP_WAIT], 2 * 10);
  assert_int_equal(a->ns[AUGUR_TS_OMP_FORK], 2 * 10);
  assert_int_equal(a->ns[AUGUR_TS_OMP_JOIN], 2 * 10);
  assert_int_equal(a->ns[AUGUR_TS_USEFUL], 2 * (90 + 150 + 10));
  assert_int_equal(a->ns[AUGUR_TS_SERIAL], 3000 - 2 * 350);
  assert_int_equal(a->region_ns, 2 * 350);
  assert_int_equal(rs.nsites, 1);
  assert_int_equal(rs.sites[0].instances, 2);
  assert_int_equal(rs.sites[0].useful_ns[0], 2 * 250);
  near(rs.sites[0].sched_ns, 2 * (350.0 - 250));
  augur_rank_states_free(&rs);
}

/* Random OpenMP records (any type, 3 threads, 3 region ids, MPI calls
 * among them), 2000 sequences: never a crash, and every thread's states add
 * up to the window whatever pairs or does not. */
static void test_random(void **state) {
  (void)state;
  static const unsigned types[] = {AUGUR_EV_OMP_FORK,
                                   AUGUR_EV_OMP_JOIN,
                                   AUGUR_EV_OMP_ITASK_BEGIN,
                                   AUGUR_EV_OMP_ITASK_END,
                                   AUGUR_EV_OMP_WORK_BEGIN,
                                   AUGUR_EV_OMP_WORK_END,
                                   AUGUR_EV_OMP_SYNC_BEGIN,
                                   AUGUR_EV_OMP_SYNC_END,
                                   AUGUR_EV_OMP_WAIT_BEGIN,
                                   AUGUR_EV_OMP_WAIT_END,
                                   AUGUR_EV_OMP_MUTEX_ACQUIRE,
                                   AUGUR_EV_OMP_MUTEX_ACQUIRED,
                                   AUGUR_EV_OMP_MASKED_BEGIN,
                                   AUGUR_EV_OMP_MASKED_END,
                                   AUGUR_EV_OMP_DISPATCH,
                                   AUGUR_EV_OMP_THREAD_BEGIN,
                                   AUGUR_EV_BARRIER};
  unsigned seed = 24;
  for (int k = 0; k < 2000; k++) {
    augur_event ev[64];
    size_t n = 0;
    uint64_t t = 100;
    ev[n++] = tu_ev(AUGUR_EV_INIT, 0, t);
    size_t len = 1 + (size_t)(rand_r(&seed) % 60);
    for (size_t i = 0; i < len; i++) {
      t += (uint64_t)(rand_r(&seed) % 50);
      unsigned ty = types[rand_r(&seed) % (sizeof types / sizeof types[0])];
      augur_event e = ty == AUGUR_EV_BARRIER ? tu_ev(ty, t, t + 20) : tu_omp(ty, 0, t);
      if (ty == AUGUR_EV_BARRIER) t += 20;
      e.thread = (uint32_t)(rand_r(&seed) % 3);
      e.req = (uint64_t)(rand_r(&seed) % 3);
      e.aux = (uint32_t)(rand_r(&seed) % 4);
      e.peer = rand_r(&seed) % 4;
      e.flags = (uint16_t)(rand_r(&seed) % 2);
      ev[n++] = e;
    }
    if (rand_r(&seed) % 2) ev[n++] = tu_ev(AUGUR_EV_FINALIZE, t + 10, t + 20);
    augur_rank_states rs;
    augur_error err;
    assert_int_equal(augur_rank_states_events(ev, n, 0, &rs, &err), AUGUR_OK);
    for (size_t i = 0; i < rs.nthreads; i++)
      assert_int_equal(sum_states(&rs.threads[i]), rs.t1 - rs.t0);
    augur_rank_states_free(&rs);
  }
}

/* Both ranks receive from the other (0.5 .. 2.002 s after MPI_Init), then
 * send to it: a run no MPI can have made (each receive completes before
 * its send starts), so the replay on the ideal network stalls and T_ideal
 * is unknown. Useful 2.5 s on both ranks, T 4 s. */
static void write_crossed(const char *dir) {
  tu_meta(dir, 2);
  const uint64_t u = 10 * MS;
  for (uint32_t r = 0; r < 2; r++) {
    augur_event e[] = {tu_ev(AUGUR_EV_INIT, 0, u),
                       msg(AUGUR_EV_RECV, u + 500 * MS, u + 2002 * MS, (int32_t)(1 - r)),
                       msg(AUGUR_EV_SEND, u + 2002 * MS, u + 2003 * MS, (int32_t)(1 - r)),
                       tu_ev(AUGUR_EV_FINALIZE, u + 4003 * MS, u + 4004 * MS)};
    write_rank(dir, r, e, 4, "0-1");
  }
}

/* --write KIND DIR: writes one of the traces above to DIR for the tests of
 * the outputs (tests/pop/html.sh): serial (2 CPUs), oversubscribed (1 CPU),
 * cut (rank 1 stops before MPI_Finalize), crossed (no ideal run time),
 * hybrid, hybrid-cut (rank 0 stops inside its parallel region). */
static int write_trace(const char *kind, const char *dir) {
  if (!strcmp(kind, "serial"))
    write_serial(dir, "0-1", 0);
  else if (!strcmp(kind, "oversubscribed"))
    write_serial(dir, "0", 0);
  else if (!strcmp(kind, "cut"))
    write_serial(dir, "0-1", 1);
  else if (!strcmp(kind, "crossed"))
    write_crossed(dir);
  else if (!strcmp(kind, "hybrid"))
    write_hybrid(dir, 0);
  else if (!strcmp(kind, "hybrid-cut"))
    write_hybrid(dir, 1);
  else {
    fprintf(stderr,
            "augur-test-pop: no trace '%s' (serial, oversubscribed, cut, crossed, hybrid, "
            "hybrid-cut)\n",
            kind);
    return 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "--write")) return write_trace(argv[2], argv[3]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mpi_only),     cmocka_unit_test(test_no_ideal),
      cmocka_unit_test(test_notes),        cmocka_unit_test(test_damaged),
      cmocka_unit_test(test_hybrid),       cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_hybrid_trace), cmocka_unit_test(test_random),
      cmocka_unit_test(test_mutex_sync),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
