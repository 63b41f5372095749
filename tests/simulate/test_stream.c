/* augur simulate TRACE streams the trace into the simulator
 * (augur_simulate_trace): the same answer as building the whole graph
 * first, to the bit, on traces with unmatched ends, communicator creations
 * some member never reached and --scale what-ifs; memory that does not grow
 * with the trace's length; a damaged trace is an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "augur/sim.h"
#include "augur/writer.h"
#include "synth_trace.h"
#include "util.h"

#include "simtest.h"

/* Simulates T both ways and asserts the results are identical; returns the
 * streamed one (free it) and its graph counts in *GS. */
static augur_sim_result both(augur_trace *t, const augur_machine *m, const augur_sim_trace_opts *o,
                             augur_sim_graph_stats *gs) {
  augur_error err = {0};
  augur_sim_graph *g = NULL;
  if (augur_sim_graph_from_trace_phases(&g, t, o ? o->phases : NULL, o ? o->nphases : 0, &err))
    fail_msg("graph: %s", err.msg);
  for (size_t k = 0; o && k < o->nsites; k++)
    augur_sim_graph_scale_site(g, o->sites[k].site, o->sites[k].factor);
  augur_sim_graph_stats mg;
  augur_sim_graph_stats_get(g, &mg);
  augur_sim_result mr = run(g, m), sr;
  augur_sim_graph_free(g);
  if (augur_simulate_trace(t, m, o, &sr, gs, &err)) fail_msg("stream: %s", err.msg);
  assert_true(sr.predicted_seconds == mr.predicted_seconds);
  assert_int_equal(sr.nranks, mr.nranks);
  assert_memory_equal(sr.ranks, mr.ranks, mr.nranks * sizeof *mr.ranks);
  assert_int_equal(sr.ops, mr.ops);
  assert_int_equal(sr.messages, mr.messages);
  assert_int_equal(sr.heap_events, mr.heap_events);
  assert_int_equal(gs->ops, mg.ops);
  assert_int_equal(gs->messages, mg.messages);
  assert_int_equal(gs->collectives, mg.collectives);
  assert_int_equal(gs->unmatched, mg.unmatched);
  assert_int_equal(gs->trace_events, mg.trace_events);
  assert_true(gs->measured_seconds == mg.measured_seconds);
  augur_sim_result_free(&mr);
  return sr;
}

static void write_rank(const char *dir, uint32_t r, uint32_t nranks, augur_event *ev, size_t n) {
  augur_error err;
  int32_t world[8];
  for (uint32_t i = 0; i < nranks; i++)
    world[i] = (int32_t)i;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, r, nranks, 0, &err), 0);
  augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = nranks, .members = world};
  assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
  for (size_t i = 0; i < n; i++) {
    ev[i].rank = r;
    if (!ev[i].comm && ev[i].type != AUGUR_EV_INIT && ev[i].type != AUGUR_EV_FINALIZE &&
        ev[i].type != AUGUR_EV_COMPLETION)
      ev[i].comm = AUGUR_COMM_WORLD;
  }
  assert_int_equal(augur_writer_events(w, 0, ev, n, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
}

/* Writes rank r's N[r] events EV[r] of NRANKS ranks into DIR and simulates
 * the trace both ways (both) on a 1 us, 1 GB/s machine. */
static augur_sim_result written(const char *dir, uint32_t nranks, augur_event *const *ev,
                                const size_t *n, augur_sim_graph_stats *gs) {
  for (uint32_t r = 0; r < nranks; r++)
    write_rank(dir, r, nranks, ev[r], n[r]);
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_machine m;
  machine(&m, 1e-6, 1e9);
  augur_sim_result r = both(t, &m, NULL, gs);
  augur_trace_close(t);
  return r;
}

static augur_event p2p(unsigned type, uint64_t t0, uint64_t t1, int32_t peer, int32_t tag,
                       uint64_t bytes, uint64_t req) {
  augur_event e = tu_ev(type, t0, t1);
  e.peer = peer;
  e.tag = tag;
  if (type == AUGUR_EV_RECV || type == AUGUR_EV_IRECV || type == AUGUR_EV_RECV_INIT)
    e.bytes_recv = bytes;
  else
    e.bytes = bytes;
  e.req = req;
  e.callsite = type;
  return e;
}

static augur_event completion(uint64_t t0, uint64_t t1, uint64_t req, unsigned flags) {
  augur_event e = tu_ev(AUGUR_EV_COMPLETION, t0, t1);
  e.req = req;
  e.flags = (uint16_t)flags;
  return e;
}

/* 3 ranks. Rank 0 sends 0 -> 1 (paired), Isends to rank 2 that never
 * receives it, Waits for it, dups the world communicator with rank 1 only
 * (rank 2 never comes: a creation that never completes), starts a
 * persistent send to rank 1 and waits, Allreduces with everyone. Rank 1
 * receives, Irecvs from rank 2 that never sends, Waits, dups, starts the
 * persistent receive and waits, Allreduces. Rank 2 computes, Allreduces, then Barriers alone (and,
 * CUT, never reaches MPI_Finalize: a run cut short). All unpaired parts are
 * replayed as no-ops the same way both ways. */
static void unmatched(int cut) {
  const uint64_t us = 1000;
  char *dir = tu_tracedir();
  tu_meta(dir, 3);
  augur_event e[3][16];
  size_t n[3] = {0, 0, 0};
  e[0][n[0]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * us);
  e[0][n[0]++] = p2p(AUGUR_EV_SEND, 20 * us, 21 * us, 1, 1, 100000, 0);
  e[0][n[0]++] = p2p(AUGUR_EV_ISEND, 30 * us, 31 * us, 2, 9, 64, 0x10);
  e[0][n[0]++] = tu_ev(AUGUR_EV_WAIT, 50 * us, 51 * us);
  e[0][n[0]++] = completion(50 * us, 51 * us, 0x10, AUGUR_F_SENDREQ);
  e[0][n[0]++] = tu_ev(AUGUR_EV_COMM_DUP, 60 * us, 70 * us);
  e[0][n[0]++] = p2p(AUGUR_EV_SEND_INIT, 71 * us, 72 * us, 1, 4, 32, 0x30);
  e[0][n[0]++] = p2p(AUGUR_EV_START, 73 * us, 74 * us, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0, 0x30);
  e[0][n[0]++] = tu_ev(AUGUR_EV_WAIT, 75 * us, 78 * us);
  e[0][n[0]++] = completion(75 * us, 78 * us, 0x30, AUGUR_F_SENDREQ | AUGUR_F_PERSISTENT);
  e[0][n[0]++] = tu_ev(AUGUR_EV_ALLREDUCE, 90 * us, 100 * us);
  e[0][n[0]++] = tu_ev(AUGUR_EV_FINALIZE, 110 * us, 120 * us);
  e[1][n[1]++] = tu_ev(AUGUR_EV_INIT, 0, 12 * us);
  e[1][n[1]++] = p2p(AUGUR_EV_RECV, 15 * us, 25 * us, 0, 1, 100000, 0);
  e[1][n[1]++] = p2p(AUGUR_EV_IRECV, 26 * us, 27 * us, 2, 3, 64, 0x20);
  e[1][n[1]++] = tu_ev(AUGUR_EV_WAIT, 40 * us, 41 * us);
  e[1][n[1]++] = completion(40 * us, 41 * us, 0x20, AUGUR_F_RECVREQ);
  e[1][n[1]++] = tu_ev(AUGUR_EV_COMM_DUP, 65 * us, 70 * us);
  e[1][n[1]++] = p2p(AUGUR_EV_RECV_INIT, 71 * us, 72 * us, 0, 4, 32, 0x40);
  e[1][n[1]++] = p2p(AUGUR_EV_START, 72 * us, 73 * us, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0, 0x40);
  e[1][n[1]++] = tu_ev(AUGUR_EV_WAIT, 74 * us, 79 * us);
  e[1][n[1]++] = completion(74 * us, 79 * us, 0x40, AUGUR_F_RECVREQ | AUGUR_F_PERSISTENT);
  e[1][n[1] - 1].peer = 0; /* the status: where the message came from */
  e[1][n[1] - 1].tag = 4;
  e[1][n[1] - 1].bytes_recv = 32;
  e[1][n[1]++] = tu_ev(AUGUR_EV_ALLREDUCE, 80 * us, 100 * us);
  e[1][n[1]++] = tu_ev(AUGUR_EV_FINALIZE, 110 * us, 120 * us);
  e[2][n[2]++] = tu_ev(AUGUR_EV_INIT, 0, 11 * us);
  e[2][n[2]++] = tu_ev(AUGUR_EV_ALLREDUCE, 95 * us, 100 * us);
  e[2][n[2]++] = tu_ev(AUGUR_EV_BARRIER, 101 * us, 105 * us);
  if (!cut) e[2][n[2]++] = tu_ev(AUGUR_EV_FINALIZE, 110 * us, 120 * us);
  for (uint32_t r = 0; r < 3; r++) {
    for (size_t i = 0; i < n[r]; i++)
      if (e[r][i].type == AUGUR_EV_ALLREDUCE) e[r][i].bytes = e[r][i].bytes_recv = 8;
    write_rank(dir, r, 3, e[r], n[r]);
  }
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_machine m;
  machine(&m, 1e-6, 1e9);
  m.eager_limit = 1000; /* the 100 kB send is a rendezvous */
  augur_sim_graph_stats gs;
  augur_sim_result r = both(t, &m, NULL, &gs);
  /* Isend, Irecv, two dups and the Barrier had no partner; the Send and
   * the persistent pair did. */
  assert_int_equal(gs.unmatched, 5);
  assert_int_equal(gs.messages, 2);
  assert_int_equal(gs.collectives, 1);
  assert_true(r.predicted_seconds > 0);
  augur_sim_result_free(&r);
  /* With a call-site what-if and a CPU quota too. */
  augur_sim_site_scale ss = {AUGUR_EV_SEND, 2};
  augur_sim_trace_opts o = {.sites = &ss, .nsites = 1};
  m.cpu_quota = 0.5;
  m.cpu_quota_period = 0.00005;
  r = both(t, &m, &o, &gs);
  augur_sim_result_free(&r);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void test_unmatched(void **state) {
  (void)state;
  unmatched(0);
  unmatched(1);
}

/* A Waitall over more requests than a rank keeps in its own state (sim.c
 * WQ_IN, 4): rank 0 Isends three messages to rank 1 and one it never
 * receives, Irecvs three, and waits for all seven, the late receive sixth
 * in the list (rank 1 computes 500 us before its third send). Streamed and
 * in memory alike, rank 0 waits for that message: all its requests count,
 * not only the first four. Its receives arrive one after the other while it
 * waits, each the one it blocks on by then: each arrival must wake it (the
 * arrivals of requests after the one it blocks on do not, sim.c
 * wait_quiet). */
static void test_waitall_many(void **state) {
  (void)state;
  const uint64_t us = 1000;
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_event e[2][24];
  size_t n[2] = {0, 0};
  e[0][n[0]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * us);
  for (int k = 0; k < 3; k++)
    e[0][n[0]++] = p2p(AUGUR_EV_ISEND, (11 + k) * us, (11 + k) * us + 500, 1, 10 + k, 64, 0x10 + k);
  e[0][n[0]++] = p2p(AUGUR_EV_ISEND, 14 * us, 14 * us + 500, 1, 99, 64, 0x13); /* never received */
  for (int k = 0; k < 3; k++)
    e[0][n[0]++] = p2p(AUGUR_EV_IRECV, (15 + k) * us, (15 + k) * us + 500, 1, 20 + k, 64, 0x20 + k);
  e[0][n[0]] = tu_ev(AUGUR_EV_WAITALL, 20 * us, 530 * us);
  e[0][n[0]++].aux = 7;
  static const uint64_t order[7] = {0x10, 0x11, 0x12, 0x20, 0x21, 0x22, 0x13};
  for (int k = 0; k < 7; k++) {
    augur_event *c = &e[0][n[0]++];
    *c = completion(20 * us, 530 * us, order[k],
                    order[k] < 0x20 ? AUGUR_F_SENDREQ : AUGUR_F_RECVREQ);
    c->aux = (uint32_t)k;
    if (order[k] >= 0x20) { /* the status: where the message came from */
      c->peer = 1;
      c->tag = (int32_t)(order[k] - 0x20 + 20);
      c->bytes_recv = 64;
    }
  }
  e[0][n[0]++] = tu_ev(AUGUR_EV_FINALIZE, 540 * us, 550 * us);
  e[1][n[1]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * us);
  for (int k = 0; k < 3; k++)
    e[1][n[1]++] = p2p(AUGUR_EV_RECV, (11 + k) * us, (11 + k) * us + 500, 0, 10 + k, 64, 0);
  e[1][n[1]++] = p2p(AUGUR_EV_SEND, 15 * us, 16 * us, 0, 20, 64, 0);
  e[1][n[1]++] = p2p(AUGUR_EV_SEND, 17 * us, 18 * us, 0, 21, 64, 0);
  e[1][n[1]++] = p2p(AUGUR_EV_SEND, 518 * us, 519 * us, 0, 22, 64, 0); /* 500 us later */
  e[1][n[1]++] = tu_ev(AUGUR_EV_FINALIZE, 540 * us, 550 * us);
  augur_event *ev[2] = {e[0], e[1]};
  augur_sim_graph_stats gs;
  augur_sim_result r = written(dir, 2, ev, n, &gs);
  assert_int_equal(gs.unmatched, 1);
  assert_int_equal(gs.messages, 6);
  /* rank 0 waits in its Waitall for rank 1's 500 us of compute */
  assert_true(r.ranks[0].recv_wait > 450e-6);
  assert_true(r.ranks[0].finish > 500e-6);
  augur_sim_result_free(&r);
  tu_cleanup(dir);
}

/* The builder's in-flight requests and receive ends live in a table per
 * rank (graph_trace.c rank_state.map). Ranks 0 and 2 post the same twelve
 * Irecvs from rank 1 (the same request handles, tags and times: keys equal
 * but for the rank) and wait for all in one Waitall; twelve requests and
 * twelve ends are more than a rank's first table holds (it grows twice).
 * Rank 1 sends to rank 0, then to rank 2, the last after 500 us of compute.
 * Every end pairs (24 messages, none unmatched), and only rank 2 waits for
 * the late one: a receive end or request taken from another rank's table,
 * or lost when a table grows, changes that. */
static void test_requests_per_rank(void **state) {
  (void)state;
  const uint64_t us = 1000;
  enum { K = 12 };
  char *dir = tu_tracedir();
  tu_meta(dir, 3);
  augur_event e[3][2 * K + 8];
  size_t n[3] = {0, 0, 0};
  for (uint32_t r = 0; r < 3; r += 2) {
    e[r][n[r]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * us);
    for (int k = 0; k < K; k++)
      e[r][n[r]++] = p2p(AUGUR_EV_IRECV, (11 + k) * us, (11 + k) * us + 500, 1, k, 64, 0x100 + k);
    e[r][n[r]] = tu_ev(AUGUR_EV_WAITALL, 30 * us, 560 * us);
    e[r][n[r]++].aux = K;
    for (int k = 0; k < K; k++) {
      augur_event *c = &e[r][n[r]++];
      *c = completion(30 * us, 560 * us, 0x100 + k, AUGUR_F_RECVREQ);
      c->aux = (uint32_t)k;
      c->peer = 1;
      c->tag = k;
      c->bytes_recv = 64;
    }
    e[r][n[r]++] = tu_ev(AUGUR_EV_FINALIZE, 570 * us, 580 * us);
  }
  e[1][n[1]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * us);
  for (int k = 0; k < 2 * K; k++) {
    uint64_t t = (k == 2 * K - 1 ? 540 : 11 + k) * us; /* the last: 500 us later */
    e[1][n[1]++] = p2p(AUGUR_EV_SEND, t, t + 500, k < K ? 0 : 2, k % K, 64, 0);
  }
  e[1][n[1]++] = tu_ev(AUGUR_EV_FINALIZE, 570 * us, 580 * us);
  augur_event *ev[3] = {e[0], e[1], e[2]};
  augur_sim_graph_stats gs;
  augur_sim_result r = written(dir, 3, ev, n, &gs);
  assert_int_equal(gs.unmatched, 0);
  assert_int_equal(gs.messages, 2 * K);
  assert_true(r.ranks[0].recv_wait < 100e-6);
  assert_true(r.ranks[2].recv_wait > 450e-6);
  assert_true(r.ranks[2].finish > 500e-6);
  augur_sim_result_free(&r);
  tu_cleanup(dir);
}

/* The most held in flight at once for a synthetic ring of ITERS
 * iterations (identical both ways). */
static uint64_t ring_peak(uint64_t iters, uint64_t *ops) {
  char *dir = tu_tracedir();
  augur_error err;
  if (synth_trace_write(dir, 4, iters, &err)) fail_msg("%s", err.msg);
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_machine m;
  augur_machine_default(&m);
  m.cores_per_node = 2;
  augur_sim_graph_stats gs;
  augur_sim_result r = both(t, &m, NULL, &gs);
  uint64_t peak = r.peak_inflight;
  *ops = r.ops;
  augur_sim_result_free(&r);
  augur_trace_close(t);
  tu_cleanup(dir);
  return peak;
}

/* Memory flat in trace length: ten times the iterations, ten times the
 * operations, the same most in flight. */
static void test_flat(void **state) {
  (void)state;
  uint64_t ops1, ops10;
  uint64_t p1 = ring_peak(2000, &ops1), p10 = ring_peak(20000, &ops10);
  assert_true(ops10 >= 9 * ops1);
  assert_true(p1 > 0);
  assert_true(p10 <= p1 + p1 / 10);
  /* A few iterations' worth per rank, nowhere near one operation per call. */
  assert_true(p10 < ops1 / 10);
}

/* A trace cut short inside a rank file is an error streaming too. */
static void test_damaged(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  augur_error err;
  if (synth_trace_write(dir, 4, 20000, &err)) fail_msg("%s", err.msg);
  const char *f = tu_rank_file(dir, 2, 4);
  tu_truncate(f, tu_file_size(f) / 2);
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err) == AUGUR_OK) {
    augur_machine m;
    augur_machine_default(&m);
    augur_sim_result r;
    memset(&err, 0, sizeof err);
    assert_true(augur_simulate_trace(t, &m, NULL, &r, NULL, &err) < 0);
    assert_non_null(strstr(err.msg, "rank"));
    augur_trace_close(t);
  }
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unmatched),         cmocka_unit_test(test_waitall_many),
      cmocka_unit_test(test_requests_per_rank), cmocka_unit_test(test_flat),
      cmocka_unit_test(test_damaged),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
