/* augur simulate — fat-tree and torus topologies, processor sharing and
 * background load, the call-site scaling what-if, and their machine-file
 * keys, on hand-built graphs whose answers are known exactly
 * (docs/simulate.md "Topologies", "CPU", "What-if"). */
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
#include "util.h"

#include "simtest.h"

#define EPS 1e-9

static void torus(augur_machine *m, uint32_t x, uint32_t y, uint32_t z) {
  m->topology = AUGUR_TOPO_TORUS;
  m->torus_ndims = z ? 3 : y ? 2 : 1;
  m->torus_dims[0] = x;
  m->torus_dims[1] = y;
  m->torus_dims[2] = z;
}

/* A graph of NRANKS ranks and 1 MB messages FROM[i] -> TO[i], all at time
 * 0: every rank posts its (eager) sends before its receives. */
static augur_sim_graph *flows(uint32_t nranks, const uint32_t *from, const uint32_t *to, int n) {
  augur_sim_graph *g = augur_sim_graph_new(nranks);
  int64_t id[16];
  assert_true(n <= 16);
  for (int i = 0; i < n; i++) {
    id[i] = augur_sim_add_message(g, from[i], to[i], 1000000, 0);
    assert_true(id[i] >= 0);
    assert_true(augur_sim_add_send(g, from[i], (uint64_t)id[i], 0) >= 0);
  }
  for (int i = 0; i < n; i++)
    assert_true(augur_sim_add_recv(g, to[i], (uint64_t)id[i], 0) >= 0);
  return g;
}

/* Finish time of the receiver of each flow (1 MB/s links: 1 s alone). */
static void expect(const augur_sim_graph *g, const augur_machine *m, const uint32_t *to, int n,
                   double want) {
  augur_sim_result r = run(g, m);
  for (int i = 0; i < n; i++)
    if (!(r.ranks[to[i]].finish > want - EPS && r.ranks[to[i]].finish < want + EPS))
      fail_msg("flow %d to rank %u: finish %.9f, want %.9f", i, to[i], r.ranks[to[i]].finish, want);
  augur_sim_result_free(&r);
}

/* A ring of 4 (1-D torus), 1 MB/s per link and direction. 0->2 crosses
 * links 0+ and 1+ (two hops either way: ties go upwards); 1->3 crosses 1+
 * and 2+. Together they share 1+ and each takes 2 s; 0->1 and 2->3 share
 * nothing (1 s); 0->1 and 1->0 use the two directions of one link (1 s). */
static void test_torus_links(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  torus(&m, 4, 0, 0);
  static const uint32_t a_from[] = {0}, a_to[] = {2};
  augur_sim_graph *g = flows(4, a_from, a_to, 1);
  expect(g, &m, a_to, 1, 1.0);
  augur_sim_graph_free(g);

  static const uint32_t b_from[] = {0, 1}, b_to[] = {2, 3};
  g = flows(4, b_from, b_to, 2);
  expect(g, &m, b_to, 2, 2.0);
  augur_machine x;
  machine(&x, 0, 1e6); /* the crossbar shares nothing */
  expect(g, &x, b_to, 2, 1.0);
  augur_sim_graph_free(g);

  static const uint32_t c_from[] = {0, 2}, c_to[] = {1, 3};
  g = flows(4, c_from, c_to, 2);
  expect(g, &m, c_to, 2, 1.0);
  augur_sim_graph_free(g);

  static const uint32_t d_from[] = {0, 1}, d_to[] = {1, 0};
  g = flows(2, d_from, d_to, 2);
  expect(g, &m, d_to, 2, 1.0);
  augur_sim_graph_free(g);

  /* 4x4: dimension order (x, then y). 0 (0,0) -> 5 (1,1) crosses 0x+ then
   * 1y+; 4 (0,1) -> 5 crosses 4x+: no common link, 1 s each; 1 (1,0) -> 5
   * crosses 1y+, shared with the first: 2 s each. */
  torus(&m, 4, 4, 0);
  static const uint32_t e_from[] = {0, 4}, e_to[] = {5, 6};
  /* rank 6 stands for a second receiver on node 5: place it there */
  m.placement = AUGUR_PLACE_EXPLICIT;
  m.nexplicit = 7;
  for (uint32_t i = 0; i < 7; i++)
    m.explicit_nodes[i] = i == 6 ? 5 : i;
  g = flows(7, e_from, e_to, 2);
  expect(g, &m, e_to, 2, 1.0);
  augur_sim_graph_free(g);
  static const uint32_t f_from[] = {0, 1}, f_to[] = {5, 6};
  g = flows(7, f_from, f_to, 2);
  expect(g, &m, f_to, 2, 2.0);
  augur_sim_graph_free(g);

  /* Injection bandwidth adds the node links: two senders into node 5 share
   * its link in even on disjoint torus paths. */
  m.injection_bandwidth = 1e6;
  g = flows(7, e_from, e_to, 2);
  expect(g, &m, e_to, 2, 2.0);
  augur_sim_graph_free(g);
}

/* Latency on a torus: latency + hops x hop_latency (1 ms each). On a ring
 * of 8, from node 0: 1 is 1 hop, 3 is 3, 4 is 4, 5 is 3 (the other way
 * round). Empty messages arrive after the latency alone; 1000 bytes at
 * 1 MB/s add 1 ms. 2x2x2: node 7 is 3 hops from node 0. */
static void test_torus_latency(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0.001, 1e6);
  m.hop_latency = 0.001;
  torus(&m, 8, 0, 0);
  augur_sim_graph *g = augur_sim_graph_new(8);
  static const uint32_t dst[] = {1, 3, 4, 5};
  for (int i = 0; i < 4; i++)
    send(g, 0, dst[i], 0);
  send(g, 0, 7, 1000);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 0.002, EPS);
  assert_float_equal(r.ranks[3].finish, 0.004, EPS);
  assert_float_equal(r.ranks[4].finish, 0.005, EPS);
  assert_float_equal(r.ranks[5].finish, 0.004, EPS);
  assert_float_equal(r.ranks[7].finish, 0.003, EPS); /* 1 hop back + 1 ms of bytes */
  augur_sim_result_free(&r);
  /* Rendezvous (1000 bytes, not the empty ones): the handshake and the
   * data each pay the path latency: 2 + 1 + 2 ms. */
  m.eager_limit = 0;
  r = run(g, &m);
  assert_float_equal(r.ranks[4].finish, 0.005, EPS);
  assert_float_equal(r.ranks[7].finish, 0.005, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  m.eager_limit = 1u << 30;
  torus(&m, 2, 2, 2);
  g = augur_sim_graph_new(8);
  send(g, 0, 7, 0);
  send(g, 1, 3, 0);
  r = run(g, &m);
  assert_float_equal(r.ranks[7].finish, 0.004, EPS);
  assert_float_equal(r.ranks[3].finish, 0.002, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* Fat-tree of 2 leaves x 2 nodes; each node sends 1 MB to the node in the
 * same place on the other leaf (0->2, 1->3, 2->0, 3->1). With 2 uplinks per
 * leaf (full bisection) D-mod-k routing gives each flow its own leaf-spine
 * links: 1 s, the crossbar's answer. With 1 uplink both flows leaving a
 * leaf share it: 2 s; an uplink twice as fast undoes that. */
static void test_fattree(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  static const uint32_t from[] = {0, 1, 2, 3}, to[] = {2, 3, 0, 1};
  augur_sim_graph *g = flows(4, from, to, 4);
  expect(g, &m, to, 4, 1.0); /* crossbar */
  m.topology = AUGUR_TOPO_FATTREE;
  m.fattree_leaf_nodes = 2;
  m.fattree_uplinks = 2;
  expect(g, &m, to, 4, 1.0);
  m.fattree_uplinks = 0; /* 0: as many as nodes per leaf */
  expect(g, &m, to, 4, 1.0);
  m.fattree_uplinks = 1;
  expect(g, &m, to, 4, 2.0);
  m.fattree_uplink_bandwidth = 2e6;
  expect(g, &m, to, 4, 1.0);
  augur_sim_graph_free(g);

  /* Inside a leaf nothing crosses the spine: 0->1 and 2->3 with 1 uplink. */
  m.fattree_uplink_bandwidth = 0;
  static const uint32_t lf[] = {0, 2}, lt[] = {1, 3};
  g = flows(4, lf, lt, 2);
  expect(g, &m, lt, 2, 1.0);
  augur_sim_graph_free(g);

  /* The node link is a link: two flows out of node 0 share it. */
  static const uint32_t nf[] = {0, 0}, nt[] = {1, 2};
  m.fattree_uplinks = 2;
  g = flows(3, nf, nt, 2);
  expect(g, &m, nt, 2, 2.0);
  augur_sim_graph_free(g);

  /* Latency: 2 links inside a leaf, 4 across (1 ms each, plus 1 ms). */
  machine(&m, 0.001, 1e6);
  m.topology = AUGUR_TOPO_FATTREE;
  m.fattree_leaf_nodes = 2;
  m.hop_latency = 0.001;
  g = augur_sim_graph_new(4);
  send(g, 0, 1, 0);
  send(g, 0, 3, 0);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 0.003, EPS);
  assert_float_equal(r.ranks[3].finish, 0.005, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* Flows are recycled: a finished flow's stale completion events must not
 * complete the next flow in its place. On a 1 MB/s bus: A (1 MB at 0) is
 * slowed by B (0.1 MB at 0.5) and ends at 1.1, leaving its 1.5 s
 * completion queued; C (1 MB at 1.2) takes A's place and is slowed by D
 * (1 MB at 1.3): C ends at 3.1, D at 3.2. */
static void test_flow_reuse(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  m.topology = AUGUR_TOPO_BUS;
  augur_sim_graph *g = augur_sim_graph_new(8);
  static const double start[4] = {0, 0.5, 1.2, 1.3};
  static const uint64_t bytes[4] = {1000000, 100000, 1000000, 1000000};
  for (uint32_t i = 0; i < 4; i++) {
    if (start[i] > 0) augur_sim_add_compute(g, 2 * i, start[i]);
    send(g, 2 * i, 2 * i + 1, bytes[i]);
  }
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 1.1, EPS);
  assert_float_equal(r.ranks[3].finish, 0.7, EPS);
  assert_float_equal(r.ranks[5].finish, 3.1, EPS);
  assert_float_equal(r.ranks[7].finish, 3.2, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* NRANKS ranks on one node, rank i computing WORK[i] seconds; with CPU,
 * CPU[i] of them on a CPU and the rest off it (a recorded task-clock). */
static augur_sim_graph *computing(uint32_t nranks, const double *work, const double *cpu) {
  augur_sim_graph *g = augur_sim_graph_new(nranks);
  for (uint32_t r = 0; r < nranks; r++) {
    augur_sim_op op = {0};
    op.kind = AUGUR_SIM_COMPUTE;
    op.a = (uint64_t)(work[r] * 1e9 + 0.5);
    if (cpu) {
      op.flags = AUGUR_SIM_F_CPU;
      op.b = (uint64_t)(cpu[r] * 1e9 + 0.5);
    }
    assert_true(augur_sim_add_op(g, r, &op) >= 0);
  }
  return g;
}

/* Processor sharing: 4 ranks of 1 s on a node of 2 cores take 2 s; 3
 * ranks of 1, 1, 2 s on 2 cores run at 2/3 until the first two end at
 * 1.5 s, then the last alone (1 s left): 2.5 s. Background load 0.5
 * doubles compute, alone or on top of sharing. */
static void test_cpu_sharing(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e9);
  m.cores_per_node = 4;
  m.cpu_cores = 2;
  static const double ones[] = {1, 1, 1, 1};
  augur_sim_graph *g = computing(4, ones, NULL);
  augur_sim_result r = run(g, &m);
  for (uint32_t i = 0; i < 4; i++) {
    assert_float_equal(r.ranks[i].finish, 2.0, EPS);
    assert_float_equal(r.ranks[i].compute, 2.0, EPS);
  }
  augur_sim_result_free(&r);
  m.cpu_cores = 4;
  expect(g, &m, (const uint32_t[]){0, 1, 2, 3}, 4, 1.0);
  m.cpu_cores = 0; /* one core per rank */
  expect(g, &m, (const uint32_t[]){0, 1, 2, 3}, 4, 1.0);
  m.cpu_cores = 2;
  m.cores_per_node = 2; /* two nodes of two ranks: nothing shared */
  expect(g, &m, (const uint32_t[]){0, 1, 2, 3}, 4, 1.0);
  m.cores_per_node = 4;
  m.cpu_background_load = 0.5;
  expect(g, &m, (const uint32_t[]){0, 1, 2, 3}, 4, 4.0);
  m.cpu_cores = 0;
  expect(g, &m, (const uint32_t[]){0, 1, 2, 3}, 4, 2.0);
  /* CPU speed and background load combine: x2 faster, half taken. */
  m.cpu_speed = 2;
  expect(g, &m, (const uint32_t[]){0, 1, 2, 3}, 4, 1.0);
  augur_sim_graph_free(g);

  machine(&m, 0, 1e9);
  m.cores_per_node = 3;
  m.cpu_cores = 2;
  static const double w3[] = {1, 1, 2};
  g = computing(3, w3, NULL);
  r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 1.5, EPS);
  assert_float_equal(r.ranks[1].finish, 1.5, EPS);
  assert_float_equal(r.ranks[2].finish, 2.5, EPS);
  assert_float_equal(r.ranks[2].compute, 2.5, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  /* Sharing follows the ranks through communication. One core, three
   * ranks: 0 computes 1 s then sends to 1, which then computes 1 s; 2
   * computes 2 s. 0 and 2 share the core until 0 ends at 2 s; then 1 and
   * 2 share it, 1 s of work each: both end at 4 s (4 s of work, 1 core). */
  m.cpu_cores = 1;
  g = augur_sim_graph_new(3);
  augur_sim_add_compute(g, 0, 1);
  send(g, 0, 1, 0);
  augur_sim_add_compute(g, 1, 1);
  augur_sim_add_compute(g, 2, 2);
  r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 2.0, EPS);
  assert_float_equal(r.ranks[1].finish, 4.0, EPS);
  assert_float_equal(r.ranks[1].recv_wait, 2.0, EPS);
  assert_float_equal(r.ranks[1].compute, 2.0, EPS);
  assert_float_equal(r.ranks[2].finish, 4.0, EPS);
  augur_sim_result_free(&r);
  /* A burst's stale completion must not end the rank's next burst. One
   * core: rank 0 computes 1 s then 1 s; rank 1 computes 0.2 s, spends
   * 1.1 s in a local call (not computing), then computes 1 s. Rank 0's
   * first burst ends at 1.2 (its 2.0 completion from the shared stretch
   * stays queued); its second shares the core from 1.5 with 0.7 s left:
   * ends at 2.9; rank 1 then has 0.3 s left alone: 3.2. */
  augur_sim_graph *g2 = augur_sim_graph_new(2);
  augur_sim_add_compute(g2, 0, 1);
  augur_sim_add_compute(g2, 0, 1);
  augur_sim_add_compute(g2, 1, 0.2);
  augur_sim_op local = {0};
  local.kind = AUGUR_SIM_LOCAL;
  local.a = 1100000000;
  assert_true(augur_sim_add_op(g2, 1, &local) >= 0);
  augur_sim_add_compute(g2, 1, 1);
  m.cores_per_node = 2;
  r = run(g2, &m);
  assert_float_equal(r.ranks[0].finish, 2.9, EPS);
  assert_float_equal(r.ranks[1].finish, 3.2, EPS);
  assert_float_equal(r.ranks[1].mpi, 1.1, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g2);
  m.cores_per_node = 3;

  /* The same run twice gives the same answer (deterministic). */
  augur_sim_result r2 = run(g, &m);
  r = run(g, &m);
  for (uint32_t i = 0; i < 3; i++)
    assert_true(r.ranks[i].finish == r2.ranks[i].finish);
  augur_sim_result_free(&r);
  augur_sim_result_free(&r2);
  augur_sim_graph_free(g);
}

/* A rank op of call site SITE: a 0-byte eager send to rank 1. */
static void site_send(augur_sim_graph *g, uint32_t site) {
  int64_t id = augur_sim_add_message(g, 0, 1, 0, 0);
  augur_sim_op op = {0};
  op.kind = AUGUR_SIM_SEND;
  op.type = AUGUR_EV_SEND;
  op.a = (uint64_t)id;
  op.peer = 1;
  op.callsite = site;
  assert_true(augur_sim_add_op(g, 0, &op) >= 0);
  assert_true(augur_sim_add_recv(g, 1, (uint64_t)id, 0) >= 0);
}

/* --scale: rank 0 computes 2 s before a call of site 7, 3 s before one of
 * site 8, and calls site 7 again right away (no compute before it). x2 on
 * site 7 halves the first burst only: 1 + 3 = 4 s. */
static void test_scale(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e9);
  augur_sim_graph *g = augur_sim_graph_new(2);
  augur_sim_add_compute(g, 0, 2);
  site_send(g, 7);
  augur_sim_add_compute(g, 0, 3);
  site_send(g, 8);
  site_send(g, 7);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 5.0, EPS);
  augur_sim_result_free(&r);
  assert_int_equal(augur_sim_graph_scale_site(g, 7, 2.0), 1);
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 4.0, EPS);
  assert_float_equal(r.ranks[0].compute, 4.0, EPS);
  augur_sim_result_free(&r);
  assert_int_equal(augur_sim_graph_scale_site(g, 8, 0.5), 1); /* x0.5: twice as slow */
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 7.0, EPS);
  augur_sim_result_free(&r);
  assert_int_equal(augur_sim_graph_scale_site(g, 9, 2.0), 0);
  assert_int_equal(augur_sim_graph_scale_site(g, 7, 0), -1);
  assert_int_equal(augur_sim_graph_scale_site(g, 7, -1), -1);
  augur_sim_graph_free(g);
}

/* Call sites by name: a one-rank trace with two sites in a module that
 * cannot be resolved (printed as "prog+0x10"), the bursts before them 1 ms
 * and 3 ms. */
static void test_find_sites(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  augur_module_def mod = {.id = 1, .path = "/nonexistent/prog"};
  assert_int_equal(augur_writer_def_module(w, &mod, &err), 0);
  augur_callsite_def c1 = {.id = 1, .module = 1, .offset = 0x10};
  augur_callsite_def c2 = {.id = 2, .module = 1, .offset = 0x20};
  assert_int_equal(augur_writer_def_callsite(w, &c1, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c2, &err), 0);
  const uint64_t ms = 1000000;
  augur_event ev[4];
  ev[0] = tu_ev(AUGUR_EV_INIT, 0, 10 * ms);
  ev[1] = tu_ev(AUGUR_EV_IPROBE, 11 * ms, 11 * ms);
  ev[1].callsite = 1;
  ev[2] = tu_ev(AUGUR_EV_IPROBE, 14 * ms, 14 * ms);
  ev[2].callsite = 2;
  ev[3] = tu_ev(AUGUR_EV_FINALIZE, 14 * ms, 15 * ms);
  assert_int_equal(augur_writer_events(w, 0, ev, 4, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  uint32_t ids[4];
  assert_int_equal(augur_sim_find_sites(t, "prog+0x20", ids, 4), 1);
  uint32_t second = ids[0];
  assert_int_equal(augur_sim_find_sites(t, "prog+0x10", ids, 4), 1);
  uint32_t first = ids[0];
  assert_true(first != second);
  assert_int_equal(augur_sim_find_sites(t, "1", ids, 4), 1);
  assert_int_equal(ids[0], 1);
  assert_int_equal(augur_sim_find_sites(t, "3", ids, 4), 0); /* no such id */
  assert_int_equal(augur_sim_find_sites(t, "main", ids, 4), 0);
  assert_int_equal(augur_sim_find_sites(t, "prog", ids, 4), 0);
  augur_sim_graph *g = NULL;
  if (augur_sim_graph_from_trace(&g, t, &err)) fail_msg("%s", err.msg);
  augur_trace_close(t);
  tu_cleanup(dir);
  augur_machine m;
  machine(&m, 0, 1e9);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[0].compute, 0.004, EPS);
  augur_sim_result_free(&r);
  assert_int_equal(augur_sim_graph_scale_site(g, second, 3.0), 1); /* 3 ms -> 1 ms */
  r = run(g, &m);
  assert_float_equal(r.ranks[0].compute, 0.002, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* Loads TEXT; returns the status and leaves the message in ERR. */
static int load(augur_machine *m, const char *text, augur_error *err) {
  augur_machine_default(m);
  char *p = write_tmp(text);
  int rc = augur_machine_load(m, p, err);
  unlink(p);
  return rc;
}

static void bad(const char *text, const char *want) {
  augur_machine m;
  augur_error err = {0};
  assert_int_equal(load(&m, text, &err), AUGUR_E_FORMAT);
  if (!strstr(err.msg, want)) fail_msg("'%s' does not say '%s'", err.msg, want);
}

/* Time slices. Two ranks on one core, quantum 0.25 s. Deal 0: rank 0 runs
 * in [0, .25), [.5, .75)..., rank 1 in [.25, .5), [.75, 1)...; deal 1 the
 * other way round; the prediction is their mean.
 * A ping-pong (latency 0): 0 computes 0.1 s and sends; 1 gets it when its
 * turn comes and answers; 0 sees the answer at its next turn. Deal 0: 0
 * ends at 0.5, 1 at 0.25; deal 1: 0 starts at 0.25, ends at 0.75, 1 at 0.5.
 * Compute stretches over the turns: 0.6 s of work ends at 1.1 (the rank
 * that goes first) and 1.35 (the other), 1.1 s after each one's first turn.
 * Without a quantum, processor sharing: 1.2 for both. */
static void test_time_slices(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e9);
  m.cores_per_node = 2;
  m.cpu_cores = 1;
  m.cpu_quantum = 0.25;
  augur_sim_graph *g = augur_sim_graph_new(2);
  augur_sim_add_compute(g, 0, 0.1);
  send(g, 0, 1, 8);
  send(g, 1, 0, 8);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, (0.5 + 0.75) / 2, EPS);
  assert_float_equal(r.ranks[0].recv_wait, 0.4, EPS);
  assert_float_equal(r.ranks[1].finish, (0.25 + 0.5) / 2, EPS);
  assert_float_equal(r.predicted_seconds, (0.5 + 0.75) / 2, EPS);
  augur_sim_result_free(&r);
  m.cpu_cores = 2; /* a core each: no turns */
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 0.1 + 2 * 8e-9, EPS); /* 8 bytes each way at 1 GB/s */
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  static const double work[] = {0.6, 0.6};
  g = computing(2, work, NULL);
  m.cpu_cores = 1;
  r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, (1.1 + 1.35) / 2, EPS);
  assert_float_equal(r.ranks[1].finish, (1.35 + 1.1) / 2, EPS);
  assert_float_equal(r.ranks[1].compute, 1.1, EPS); /* from its first turn on */
  assert_float_equal(r.predicted_seconds, 1.35, EPS);
  augur_sim_result_free(&r);
  m.cpu_quantum = 0;
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 1.2);
  augur_sim_graph_free(g);

  /* Three ranks of 0.25 s on one core, quantum 0.1: the rank taking turn j
   * ends at 0.65 + 0.1 j (two whole turns, half of a third). Over the 6
   * deals every rank takes every turn twice: each ends at 0.75 on average,
   * and the run at 0.85 in every deal (no other work: the order of turns
   * is the deal's all run). */
  static const double w3[] = {0.25, 0.25, 0.25};
  g = computing(3, w3, NULL);
  m.cores_per_node = 3;
  m.cpu_cores = 1;
  m.cpu_quantum = 0.1;
  r = run(g, &m);
  for (uint32_t k = 0; k < 3; k++)
    assert_float_equal(r.ranks[k].finish, 0.75, EPS);
  assert_float_equal(r.predicted_seconds, 0.85, EPS);
  augur_sim_result_free(&r);

  /* Other work takes half the core (background load 0.5): a rank's turn
   * comes every 3 x 0.1 / 0.5 = 0.6 s, one in each place of 0.2 s (the
   * places dealt anew in a quarter of the cycles), after a drawn part of
   * the other work's 0.1 s. The third turn starts at 1.2
   * at the earliest and ends 0.05 later, by 1.85 at the latest (the one in
   * the last place: from 1.65); each rank
   * computes its 0.25 s once (the cycle holds the other work: no
   * slowdown on top). */
  m.cpu_background_load = 0.5;
  r = run(g, &m);
  for (uint32_t k = 0; k < 3; k++)
    assert_in_range(r.ranks[k].finish * 1e6, 1.25e6 - 1, 1.85e6 + 1);
  assert_true(r.predicted_seconds > 1.65 - EPS && r.predicted_seconds < 1.85 + EPS);
  augur_sim_result_free(&r);
  m.cpu_background_load = 0;
  augur_sim_graph_free(g);
  m.cores_per_node = 2;
  m.cpu_quantum = 0;

  /* A quota of 1 CPU per 1 s period for two busy ranks: each runs the
   * first 0.5 s of the period. 1.2 s of work, averaged over the 8 phases
   * the period may have when the run starts: ends at 2.2 (phases 0, 1/8,
   * 2/8), 2.7 (3/8, 4/8), 2.575, 2.45, 2.325: mean 2.41875. */
  static const double w12[] = {1.2, 1.2};
  g = computing(2, w12, NULL);
  machine(&m, 0, 1e9);
  m.cores_per_node = 2;
  m.cpu_quota = 1;
  m.cpu_quota_period = 1;
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 2.41875);
  m.cpu_quota = 2; /* as much as the ranks use: no effect */
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 1.2);
  augur_sim_graph_free(g);
}

/* Bursts with a recorded CPU time (task-clock): wall W of which C on the
 * CPU. The burst ends once its CPU work is done and not before W - C +
 * C / speed (the time off the CPU passes whatever the cores do). */
/* The recorded placement (docs/simulate.md "Recorded placement"): 4
 * ranks on 2 cores, quantum 0.25, partners 0-1 and 2-3 each compute 0.1 s
 * and ping-pong 8 bytes (the first sends, the second answers). Apart (0
 * and 2 on one CPU, 1 and 3 on the other) a pair whose ends take the same
 * turn ends in it (0.1 or 0.35); otherwise the answer waits for the
 * second's turn and reaches the first at its next one (0.5 when the first
 * runs first, else 0.75); the pairs take opposite turns, so over the 4
 * orders of turns the run ends at (0.35 + 0.35 + 0.75 + 0.75) / 4.
 * Two placements held half the run each combine as 1 / (0.5 / T1 + 0.5 /
 * T2): the work done in each is its share of the time over its speed. */
static void test_recorded_placement(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e9);
  m.cores_per_node = 4;
  m.cpu_cores = 2;
  m.cpu_quantum = 0.25;
  augur_sim_graph *g = augur_sim_graph_new(4);
  for (uint32_t r = 0; r < 4; r++)
    augur_sim_add_compute(g, r, 0.1);
  send(g, 0, 1, 8);
  send(g, 1, 0, 8);
  send(g, 2, 3, 8);
  send(g, 3, 2, 8);
  augur_sim_result deals = run(g, &m);
  static const uint32_t apart[] = {7, 9, 7, 9}, together[] = {0, 0, 1, 1};
  m.rank_cpu = apart;
  m.nrank_cpu = 4;
  m.nplacements = 1;
  augur_sim_result a = run(g, &m);
  assert_float_equal(a.predicted_seconds, (0.35 + 0.35 + 0.75 + 0.75) / 4, 1e-6);
  m.rank_cpu = together;
  augur_sim_result t = run(g, &m);
  assert_true(t.predicted_seconds > a.predicted_seconds + 0.1);
  /* the 24 deals: 8 of them put partners together, 16 apart */
  assert_true(deals.predicted_seconds > a.predicted_seconds + 0.01);
  assert_true(deals.predicted_seconds < t.predicted_seconds - 0.01);
  static const uint32_t both[] = {7, 9, 7, 9, 0, 0, 1, 1};
  static const double half[] = {0.5, 0.5};
  m.rank_cpu = both;
  m.placement_share = half;
  m.nplacements = 2;
  augur_sim_result mix = run(g, &m);
  assert_float_equal(mix.predicted_seconds,
                     1 / (0.5 / a.predicted_seconds + 0.5 / t.predicted_seconds), 1e-9);
  m.rank_cpu = (const uint32_t[]){7, 9, 7, UINT32_MAX}; /* a rank without: the deals */
  m.nplacements = 1;
  augur_sim_result none = run(g, &m);
  assert_float_equal(none.predicted_seconds, deals.predicted_seconds, 1e-12);
  augur_sim_result_free(&deals);
  augur_sim_result_free(&a);
  augur_sim_result_free(&t);
  augur_sim_result_free(&mix);
  augur_sim_result_free(&none);
  augur_sim_graph_free(g);
}

/* The rank facts' CPU changes (written, read back) become placements with
 * their shares of the span from the last MPI_Init to the first
 * MPI_Finalize: ranks 1 and 2 swap CPUs halfway through a 4 s run, so
 * {0,2}{1,3} holds the first half and {0,1}{2,3} the second; CPUs are
 * renumbered in order of first use. A rank whose changes were cut makes it
 * unknown. */
static augur_sim_placements placements_of(uint32_t lost) {
  char *dir = tu_tracedir();
  tu_meta(dir, 4);
  augur_error err;
  const uint64_t s = 1000000000ull, t0 = 100 * s;
  static const uint32_t first[] = {5, 6, 5, 6}, then[] = {5, 5, 6, 6};
  for (uint32_t r = 0; r < 4; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 4, 0, &err), 0);
    augur_rank_def d;
    memset(&d, 0, sizeof d);
    d.rank = r;
    d.nranks = 4;
    d.init_ns = t0 - s / 10;
    d.finalize_ns = t0 + 4 * s + r;
    augur_cpu_move mv[2] = {{t0 + r, first[r]}, {t0 + 2 * s, then[r]}};
    d.moves = mv;
    d.nmoves = first[r] == then[r] ? 1 : 2;
    d.moves_lost = r == 3 ? lost : 0;
    d.migrations = r == 1 ? 7 : UINT64_MAX;
    assert_int_equal(augur_writer_def_rank(w, &d, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  const augur_rank_def *d1 = augur_trace_rank(t, 1);
  assert_int_equal(d1->nmoves, 2);
  assert_int_equal(d1->moves[1].ns, t0 + 2 * s);
  assert_int_equal(d1->moves[1].cpu, 5);
  assert_int_equal(d1->migrations, 7);
  assert_true(augur_trace_rank(t, 0)->migrations == UINT64_MAX);
  augur_sim_placements p;
  assert_int_equal(augur_sim_recorded_placements(t, &p, &err), AUGUR_OK);
  augur_trace_close(t);
  tu_cleanup(dir);
  return p;
}

static void test_placements(void **state) {
  (void)state;
  augur_sim_placements p = placements_of(0);
  assert_int_equal(p.n, 2);
  assert_int_equal(p.moves, 2);
  assert_float_equal(p.seconds, 4 - 3e-9, 1e-9);
  assert_float_equal(p.share[0] + p.share[1], 1, 1e-12);
  /* the second half is 3 ns longer (the span starts at rank 3's first): first */
  assert_float_equal(p.share[0], 2 / (4 - 3e-9), 1e-12);
  static const uint32_t apart[] = {0, 1, 0, 1}, together[] = {0, 0, 1, 1};
  assert_memory_equal(p.cpu, together, sizeof together);
  assert_memory_equal(p.cpu + 4, apart, sizeof apart);
  augur_sim_placements_free(&p);
  p = placements_of(1);
  assert_int_equal(p.n, 0);
  assert_string_equal(p.why, "rank 3 changed CPUs more than 64 times");
  augur_sim_placements_free(&p);
}

static void test_cpu_time(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e9);
  m.cores_per_node = 2;
  m.cpu_cores = 1;
  /* Processor sharing: 0.8 and 0.2 s of CPU in 1 s bursts on one core.
   * Both run at half a core until rank 1's 0.2 s are done at 0.4; it then
   * sleeps and rank 0 has the core for its last 0.6 s: both end at 1.0.
   * Without the CPU times both bursts are all CPU: 2 s. */
  static const double wall[] = {1.0, 1.0}, mixed[] = {0.8, 0.2}, busy[] = {0.8, 0.8};
  augur_sim_graph *g = computing(2, wall, mixed);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 1.0, EPS);
  assert_float_equal(r.ranks[1].finish, 1.0, EPS);
  assert_float_equal(r.ranks[1].compute, 1.0, EPS); /* the sleep is part of the burst */
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
  g = computing(2, wall, NULL);
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 2.0);
  augur_sim_graph_free(g);
  /* 0.8 s of CPU each: 1.6 s on the shared core, past the 1 s floor. */
  g = computing(2, wall, busy);
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 1.6);
  /* A core each, CPU twice as fast: 0.2 s off the CPU + 0.4 s of work. */
  m.cpu_cores = 2;
  m.cpu_speed = 2;
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 0.6);
  augur_sim_graph_free(g);
  /* Time slices of 0.25 s on one core, 0.1 s of CPU in 1 s: each rank's
   * CPU fits its first turn (done at 0.1 or 0.35) and its burst ends at
   * 1.0, where the rank of turn 0 goes on and the other waits for its turn
   * at 1.25: 1.125 for each over the 2 deals. All CPU, the same bursts end
   * at 1.75 and 2.0. */
  m.cpu_cores = 1;
  m.cpu_speed = 1;
  m.cpu_quantum = 0.25;
  static const double little[] = {0.1, 0.1};
  g = computing(2, wall, little);
  expect(g, &m, (const uint32_t[]){0, 1}, 2, 1.125);
  augur_sim_graph_free(g);
  g = computing(2, wall, NULL);
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 2.0, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

static void test_machine_keys(void **state) {
  (void)state;
  augur_machine m;
  augur_error err = {0};
  assert_int_equal(load(&m,
                        "[network]\ntopology = torus\nhop_latency = 100e-9\n[torus]\ndims = 4x4x2\n"
                        "[cpu]\ncores = 2\nbackground_load = 0.25\nquantum = 4e-3\nquota = 1.5\n"
                        "quota_period = 0.05\n",
                        &err),
                   AUGUR_OK);
  assert_int_equal(m.topology, AUGUR_TOPO_TORUS);
  assert_int_equal(m.torus_ndims, 3);
  assert_int_equal(m.torus_dims[0], 4);
  assert_int_equal(m.torus_dims[2], 2);
  assert_float_equal(m.hop_latency, 100e-9, 1e-15);
  assert_int_equal(m.cpu_cores, 2);
  assert_float_equal(m.cpu_background_load, 0.25, EPS);
  /* Written and read back. */
  char wpath[] = "/tmp/augur-topo-w-XXXXXX";
  int fd = mkstemp(wpath);
  FILE *f = fdopen(fd, "w");
  assert_int_equal(augur_machine_write(&m, f), AUGUR_OK);
  fclose(f);
  augur_machine m2;
  augur_machine_default(&m2);
  assert_int_equal(augur_machine_load(&m2, wpath, &err), AUGUR_OK);
  unlink(wpath);
  assert_int_equal(m2.topology, AUGUR_TOPO_TORUS);
  assert_int_equal(m2.torus_ndims, 3);
  assert_int_equal(m2.torus_dims[1], 4);
  assert_int_equal(m2.cpu_cores, 2);
  assert_float_equal(m2.cpu_background_load, 0.25, EPS);
  assert_float_equal(m2.cpu_quantum, 4e-3, 1e-12);
  assert_float_equal(m2.cpu_quota, 1.5, EPS);
  assert_float_equal(m2.cpu_quota_period, 0.05, 1e-12);

  assert_int_equal(load(&m,
                        "[network]\ntopology = fattree\n[fattree]\nleaf_nodes = 16\nuplinks = 8\n"
                        "uplink_bandwidth = 25G\n",
                        &err),
                   AUGUR_OK);
  assert_int_equal(m.topology, AUGUR_TOPO_FATTREE);
  assert_int_equal(m.fattree_leaf_nodes, 16);
  assert_int_equal(m.fattree_uplinks, 8);
  assert_float_equal(m.fattree_uplink_bandwidth, 25e9, 1);
  strcpy(wpath, "/tmp/augur-topo-w-XXXXXX");
  fd = mkstemp(wpath);
  assert_true(fd >= 0);
  f = fdopen(fd, "w");
  assert_int_equal(augur_machine_write(&m, f), AUGUR_OK);
  fclose(f);
  augur_machine_default(&m2);
  assert_int_equal(augur_machine_load(&m2, wpath, &err), AUGUR_OK);
  unlink(wpath);
  assert_int_equal(m2.topology, AUGUR_TOPO_FATTREE);
  assert_int_equal(m2.fattree_uplinks, 8);

  /* Errors name the file and line. */
  bad("[network]\ntopology = hypercube\n", ":2: network.topology: expected crossbar, bus, fattree");
  bad("[torus]\n\ndims = 4x0\n", ":3: torus.dims");
  bad("[torus]\ndims = 2x2x2x2\n", ":2: torus.dims");
  bad("[torus]\ndims = 4xx4\n", ":2: torus.dims");
  bad("[torus]\ndims = four\n", ":2: torus.dims");
  bad("[torus]\ndims = 1024x1024x2\n", ":2: torus.dims"); /* too many nodes */
  bad("[torus]\ndims = 200\n", ":2: torus.dims");         /* routes of 100 hops */
  bad("[cpu]\nbackground_load = 1\n", ":2: cpu.background_load");
  bad("[cpu]\nbackground_load = -0.1\n", ":2: cpu.background_load");
  bad("[cpu]\ncores = 1.5\n", ":2: cpu.cores");
  bad("[fattree]\nleaf_nodes = 0\n", ":2: fattree.leaf_nodes");
  bad("[network]\nhop_latency = soon\n", ":2: network.hop_latency");
  /* A topology without its shape. */
  bad("[network]\ntopology = torus\n", "topology = torus needs [torus] dims");
  bad("[network]\ntopology = fattree\n", "topology = fattree needs [fattree] leaf_nodes");

  /* More nodes than the torus has: refused by the simulator. */
  machine(&m, 0, 1e6);
  torus(&m, 2, 2, 0);
  augur_sim_graph *g = augur_sim_graph_new(5);
  augur_sim_result r;
  assert_int_equal(augur_simulate(g, &m, &r, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "uses 5 nodes but the torus has 4"));
  m.topology = AUGUR_TOPO_FATTREE; /* no leaf_nodes */
  assert_int_equal(augur_simulate(g, &m, &r, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "fattree"));
  m.topology = AUGUR_TOPO_CROSSBAR;
  m.cpu_background_load = 1;
  assert_int_equal(augur_simulate(g, &m, &r, &err), AUGUR_E_ARG);
  augur_sim_graph_free(g);
}

static char *slurp(FILE *f) {
  static char buf[8192];
  rewind(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  return buf;
}

/* SimGrid platforms: FAT_TREE "2;<leaf nodes>,<leaves>;1,<uplinks>;1,1"
 * and TORUS "<dims>" clusters. */
static void test_simgrid(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  m.topology = AUGUR_TOPO_FATTREE;
  m.fattree_leaf_nodes = 2;
  m.fattree_uplinks = 1;
  FILE *p = tmpfile(), *h = tmpfile();
  assert_int_equal(augur_machine_write_simgrid(&m, 3, p, h), AUGUR_OK);
  char *s = slurp(p);
  assert_non_null(strstr(s, "topology=\"FAT_TREE\" topo_parameters=\"2;2,2;1,1;1,1\""));
  assert_non_null(strstr(s, "radical=\"0-3\"")); /* whole leaves */
  fclose(p);
  fclose(h);
  torus(&m, 4, 2, 0);
  p = tmpfile();
  h = tmpfile();
  assert_int_equal(augur_machine_write_simgrid(&m, 3, p, h), AUGUR_OK);
  s = slurp(p);
  assert_non_null(strstr(s, "topology=\"TORUS\" topo_parameters=\"4,2\""));
  assert_non_null(strstr(s, "radical=\"0-7\""));
  assert_non_null(strstr(s, "core=\"1\""));
  fclose(p);
  fclose(h);
  /* Cores: a core per rank (4 ranks on one node) or cpu.cores; background
   * load takes its share of the speed. */
  augur_machine_default(&m);
  p = tmpfile();
  h = tmpfile();
  assert_int_equal(augur_machine_write_simgrid(&m, 4, p, h), AUGUR_OK);
  s = slurp(p);
  assert_non_null(strstr(s, "core=\"4\""));
  assert_non_null(strstr(s, "speed=\"1Gf\""));
  fclose(p);
  fclose(h);
  m.cpu_cores = 2;
  m.cpu_background_load = 0.5;
  p = tmpfile();
  h = tmpfile();
  assert_int_equal(augur_machine_write_simgrid(&m, 4, p, h), AUGUR_OK);
  s = slurp(p);
  assert_non_null(strstr(s, "core=\"2\""));
  assert_non_null(strstr(s, "speed=\"0.5Gf\""));
  fclose(p);
  fclose(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_torus_links), cmocka_unit_test(test_torus_latency),
      cmocka_unit_test(test_fattree),     cmocka_unit_test(test_flow_reuse),
      cmocka_unit_test(test_cpu_sharing), cmocka_unit_test(test_time_slices),
      cmocka_unit_test(test_cpu_time),    cmocka_unit_test(test_scale),
      cmocka_unit_test(test_find_sites),  cmocka_unit_test(test_machine_keys),
      cmocka_unit_test(test_simgrid),     cmocka_unit_test(test_recorded_placement),
      cmocka_unit_test(test_placements),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
