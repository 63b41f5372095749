/* augur simulate — the simulator on hand-built execution graphs whose
 * answers are known exactly (docs/simulate.md), and the machine file. */
#include <math.h>
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

/* A 3-stage pipeline: stage s computes s+1 seconds per item and passes it
 * on. One item: 1 + 2 + 3 s plus two transfers of latency + bytes/bandwidth.
 * Four items with free messages: the slowest stage sets the pace,
 * 1 + 2 + 3 + 3 x 3 = 15 s. */
static void test_pipeline(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0.001, 1e6);
  augur_sim_graph *g = augur_sim_graph_new(3);
  augur_sim_add_compute(g, 0, 1);
  send(g, 0, 1, 1000);
  augur_sim_add_compute(g, 1, 2);
  send(g, 1, 2, 1000);
  augur_sim_add_compute(g, 2, 3);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 6.004, EPS);
  assert_float_equal(r.ranks[0].finish, 1.0, EPS); /* eager: the send returns at once */
  assert_float_equal(r.ranks[1].recv_wait, 1.002, EPS);
  assert_float_equal(r.ranks[2].recv_wait, 3.004, EPS);
  assert_float_equal(r.ranks[2].compute, 3.0, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  /* Four items through the same stages: the messages are free, the bottleneck rules. */
  machine(&m, 0, 1e9);
  g = augur_sim_graph_new(3);
  for (int k = 0; k < 4; k++) {
    /* Program order per rank is what matters: build each rank's loop in turn. */
    augur_sim_add_compute(g, 0, 1);
    int64_t a = augur_sim_add_message(g, 0, 1, 0, 0);
    int64_t b = augur_sim_add_message(g, 1, 2, 0, 0);
    augur_sim_add_send(g, 0, (uint64_t)a, 0);
    augur_sim_add_recv(g, 1, (uint64_t)a, 0);
    augur_sim_add_compute(g, 1, 2);
    augur_sim_add_send(g, 1, (uint64_t)b, 0);
    augur_sim_add_recv(g, 2, (uint64_t)b, 0);
    augur_sim_add_compute(g, 2, 3);
  }
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 15.0, EPS);
  assert_float_equal(r.ranks[0].finish, 4.0, EPS);
  assert_float_equal(r.ranks[1].finish, 9.0, EPS); /* 1 + 4 x 2 */
  assert_float_equal(r.ranks[2].recv_wait, 3.0, EPS);
  /* What-if: stage 3 twice as fast everywhere (all CPUs x2). */
  m.cpu_speed = 2;
  augur_sim_result_free(&r);
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 7.5, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* Two 1 MB transfers between different node pairs at the same time, at
 * 1 MB/s: on a crossbar each takes 1 s, on a shared bus they split it and
 * each takes 2 s. Staggered by 0.5 s on the bus: the first has 0.5 MB left
 * when the second starts, both go at half speed, so the first ends at 1.5 s
 * and the second, with 0.5 MB left then, at 2.0 s. */
static void test_bus(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  augur_sim_graph *g = augur_sim_graph_new(4);
  send(g, 0, 1, 1000000);
  send(g, 2, 3, 1000000);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 1.0, EPS);
  assert_float_equal(r.ranks[3].finish, 1.0, EPS);
  augur_sim_result_free(&r);
  m.topology = AUGUR_TOPO_BUS;
  r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 2.0, EPS);
  assert_float_equal(r.ranks[3].finish, 2.0, EPS);
  assert_float_equal(r.ranks[1].recv_wait, 2.0, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  g = augur_sim_graph_new(4);
  send(g, 0, 1, 1000000);
  augur_sim_add_compute(g, 2, 0.5);
  send(g, 2, 3, 1000000);
  r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 1.5, EPS);
  assert_float_equal(r.ranks[3].finish, 2.0, EPS);
  augur_sim_result_free(&r);
  /* Per-node injection bandwidth on a crossbar: two senders to one receiver share its link. */
  augur_sim_graph_free(g);
  g = augur_sim_graph_new(3);
  send(g, 0, 2, 1000000);
  send(g, 1, 2, 1000000); /* rank 2 receives from 0, then from 1: both in flight at once */
  m.topology = AUGUR_TOPO_CROSSBAR;
  m.injection_bandwidth = 1e6;
  r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 0.0, EPS);
  assert_float_equal(r.ranks[2].finish, 2.0, EPS);
  augur_sim_result_free(&r);
  /* Ranks on one node talk through shared memory: no network, no contention. */
  m.cores_per_node = 4;
  m.shm_bandwidth = 4e6;
  r = run(g, &m);
  assert_float_equal(r.ranks[2].finish, 0.25, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* Rank 1 computes 5 s before receiving 100 bytes that rank 0 sends at
 * time 0 (latency 1 ms, 100 kB/s: 1 ms on the wire). Eager: rank 0 goes on
 * at once. Rendezvous: it waits until the receive is posted at 5 s, then one
 * latency of handshake, one of transfer and the bytes: 5.003 s. */
static void test_eager_rendezvous(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0.001, 1e5);
  augur_sim_graph *g = augur_sim_graph_new(2);
  send(g, 0, 1, 100);
  /* rank 1: the compute comes before its receive */
  augur_sim_graph_free(g);
  g = augur_sim_graph_new(2);
  int64_t id = augur_sim_add_message(g, 0, 1, 100, 0);
  augur_sim_add_send(g, 0, (uint64_t)id, 0);
  augur_sim_add_compute(g, 1, 5);
  augur_sim_add_recv(g, 1, (uint64_t)id, 0);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 0.0, EPS);
  assert_float_equal(r.ranks[0].send_wait, 0.0, EPS);
  assert_float_equal(r.ranks[1].finish, 5.0, EPS); /* arrived long ago */
  assert_float_equal(r.ranks[1].recv_wait, 0.0, EPS);
  augur_sim_result_free(&r);
  m.eager_limit = 10;
  r = run(g, &m);
  assert_float_equal(r.ranks[0].send_wait, 5.003, EPS);
  assert_float_equal(r.ranks[0].finish, 5.003, EPS);
  assert_float_equal(r.ranks[1].recv_wait, 0.003, EPS);
  assert_float_equal(r.predicted_seconds, 5.003, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  /* A synchronous send is a rendezvous whatever its size. */
  m.eager_limit = 1u << 30;
  g = augur_sim_graph_new(2);
  id = augur_sim_add_message(g, 0, 1, 100, 1);
  augur_sim_add_send(g, 0, (uint64_t)id, 0);
  augur_sim_add_compute(g, 1, 5);
  augur_sim_add_recv(g, 1, (uint64_t)id, 0);
  r = run(g, &m);
  assert_float_equal(r.ranks[0].send_wait, 5.003, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);

  /* Nonblocking: Isend + compute 1 s + Wait; the rendezvous completes at
   * 5.003 s, so the wait is 4.003 s of send wait. */
  m.eager_limit = 10;
  g = augur_sim_graph_new(2);
  id = augur_sim_add_message(g, 0, 1, 100, 0);
  int64_t op = augur_sim_add_send(g, 0, (uint64_t)id, AUGUR_SIM_F_NONBLOCKING);
  augur_sim_add_compute(g, 0, 1);
  uint32_t w = (uint32_t)op;
  assert_true(augur_sim_add_wait(g, 0, &w, 1) >= 0);
  augur_sim_add_compute(g, 1, 5);
  augur_sim_add_recv(g, 1, (uint64_t)id, 0);
  r = run(g, &m);
  assert_float_equal(r.ranks[0].compute, 1.0, EPS);
  assert_float_equal(r.ranks[0].send_wait, 4.003, EPS);
  assert_float_equal(r.ranks[0].finish, 5.003, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* A receive into a fresh buffer (docs/simulate.md "First receive into a
 * buffer"): 1 MiB at 1 MiB/s, no latency, rendezvous. The model's costs per
 * MiB, 0.25 s for a fresh buffer and 0.5 s more for untouched pages, delay
 * the arrival: the sender of a rendezvous waits for it too. A message
 * without the flags costs the bandwidth alone, and so does a model without
 * the costs. */
static void test_fresh_buffer(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1024.0 * 1024.0);
  m.eager_limit = 10;
  m.fresh_buffer = 0.25;
  m.first_touch = 0.5;
  static const struct {
    unsigned flags;
    double t;
  } cases[] = {{0, 1.0},
               {AUGUR_SIM_MSG_FRESH, 1.25},
               {AUGUR_SIM_MSG_UNTOUCHED, 1.5},
               {AUGUR_SIM_MSG_FRESH | AUGUR_SIM_MSG_UNTOUCHED, 1.75}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    augur_sim_graph *g = augur_sim_graph_new(2);
    int64_t id = augur_sim_add_message(g, 0, 1, 1u << 20, cases[i].flags);
    assert_true(augur_sim_add_send(g, 0, (uint64_t)id, 0) >= 0);
    assert_true(augur_sim_add_recv(g, 1, (uint64_t)id, 0) >= 0);
    augur_sim_result r = run(g, &m);
    assert_float_equal(r.ranks[0].finish, cases[i].t, EPS);
    assert_float_equal(r.ranks[1].finish, cases[i].t, EPS);
    augur_sim_result_free(&r);
    m.fresh_buffer = m.first_touch = 0;
    r = run(g, &m);
    assert_float_equal(r.predicted_seconds, 1.0, EPS);
    augur_sim_result_free(&r);
    m.fresh_buffer = 0.25;
    m.first_touch = 0.5;
    augur_sim_graph_free(g);
  }
}

/* Collectives decompose into their algorithm's messages (latency 1 ms,
 * free bytes, eager). Ranks 0, 1, 3 arrive at 0.5 s, rank 2 at 1 s.
 * Allreduce by recursive doubling, rounds (0,1)(2,3) then (0,2)(1,3): rank 2
 * finds both partners' messages waiting and leaves at 1.000; rank 3 gets
 * rank 2's round-1 message at 1.001 and passes it to rank 1 (1.002); rank
 * 0 gets rank 2's round-2 message at 1.001. The dissemination barrier
 * (rounds to +1 and +2) gives the same times. */
static augur_sim_graph *late_rank2(unsigned type, int32_t root, uint64_t bytes) {
  uint32_t world[4] = {0, 1, 2, 3};
  augur_sim_graph *g = augur_sim_graph_new(4);
  int64_t c = augur_sim_add_comm(g, world, 4);
  assert_true(c >= 0);
  for (uint32_t r = 0; r < 4; r++) {
    augur_sim_add_compute(g, r, r == 2 ? 1.0 : 0.5);
    assert_true(augur_sim_add_coll(g, r, type, (uint32_t)c, root, bytes, 0) >= 0);
  }
  return g;
}

static void test_collectives(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0.001, 1e12);
  static const unsigned types[2] = {AUGUR_EV_ALLREDUCE, AUGUR_EV_BARRIER};
  for (int k = 0; k < 2; k++) {
    augur_sim_graph *g = late_rank2(types[k], -1, types[k] == AUGUR_EV_BARRIER ? 0 : 8);
    augur_sim_result r = run(g, &m);
    assert_float_equal(r.ranks[0].finish, 1.001, EPS);
    assert_float_equal(r.ranks[1].finish, 1.002, EPS);
    assert_float_equal(r.ranks[2].finish, 1.000, EPS);
    assert_float_equal(r.ranks[3].finish, 1.001, EPS);
    assert_float_equal(r.ranks[1].sync_wait, 0.502, EPS);
    assert_float_equal(r.ranks[2].sync_wait, 0.0, EPS);
    augur_sim_result_free(&r);
    augur_sim_graph_free(g);
  }
  /* Binomial bcast from rank 1 (vranks: 1->0, 2->1, 3->2, 0->3): the root
   * sends to vrank 2 (rank 3) then vrank 1 (rank 2); rank 3 forwards to
   * vrank 3 (rank 0). The root leaves at once: eager sends. */
  augur_sim_graph *g = late_rank2(AUGUR_EV_BCAST, 1, 8);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[1].finish, 0.5, EPS);
  assert_float_equal(r.ranks[3].finish, 0.501, EPS);
  assert_float_equal(r.ranks[0].finish, 0.502, EPS);
  assert_float_equal(r.ranks[2].finish, 1.0, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
  uint32_t world[4] = {0, 1, 2, 3};
  int64_t c;

  /* Large allreduce: ring reduce-scatter + allgather, 2 x 3 steps of a quarter. */
  machine(&m, 0, 1e6);
  m.cores_per_node = 1;
  g = augur_sim_graph_new(4);
  c = augur_sim_add_comm(g, world, 4);
  for (uint32_t k = 0; k < 4; k++)
    augur_sim_add_coll(g, k, AUGUR_EV_ALLREDUCE, (uint32_t)c, -1, 4000000, 0);
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 6.0, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* A rooted collective on a communicator whose comm ranks are not the world
 * ranks, over 4 of 5 ranks (the simulator finds a member's comm rank and
 * the root's by a search of the members sorted by world rank: sim_comm_rank).
 * Members {2, 0, 3, 1}, root world rank 3 = comm rank 2; binomial bcast
 * vranks: comm 2 -> 0, 3 -> 1, 0 -> 2, 1 -> 3. The root (world 3) sends to
 * vrank 2 (comm 0, world 2) and vrank 1 (comm 3, world 1) at once (eager);
 * world 2 forwards to vrank 3 (comm 1, world 0). World rank 4 only computes. */
static void test_permuted_comm(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0.001, 1e12);
  uint32_t members[4] = {2, 0, 3, 1};
  augur_sim_graph *g = augur_sim_graph_new(5);
  int64_t c = augur_sim_add_comm(g, members, 4);
  assert_true(c >= 0);
  for (uint32_t r = 0; r < 5; r++) {
    augur_sim_add_compute(g, r, 0.5);
    if (r < 4) assert_true(augur_sim_add_coll(g, r, AUGUR_EV_BCAST, (uint32_t)c, 3, 8, 0) >= 0);
  }
  augur_sim_result res = run(g, &m);
  assert_float_equal(res.ranks[3].finish, 0.5, EPS);
  assert_float_equal(res.ranks[2].finish, 0.501, EPS);
  assert_float_equal(res.ranks[1].finish, 0.501, EPS);
  assert_float_equal(res.ranks[0].finish, 0.502, EPS);
  assert_float_equal(res.ranks[4].finish, 0.5, EPS);
  augur_sim_result_free(&res);
  augur_sim_graph_free(g);
}

/* All-to-all of 2 ranks on 2 nodes, 1 MB per peer: each rank copies its
 * own block (1 MB at the node's shm bandwidth, 2 MB/s: 0.5 s of CPU) and
 * exchanges one block over the network (1 MB/s: 1 s). NPB IS and FT move
 * half their all-to-all volume that way at 2 ranks (docs/simulate.md). */
static void test_alltoall_self_copy(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  m.shm_bandwidth = 2e6;
  static const unsigned types[3] = {AUGUR_EV_ALLTOALL, AUGUR_EV_ALLTOALLV, AUGUR_EV_IALLTOALL};
  for (int k = 0; k < 3; k++) {
    uint32_t world[2] = {0, 1};
    augur_sim_graph *g = augur_sim_graph_new(2);
    int64_t c = augur_sim_add_comm(g, world, 2);
    for (uint32_t r = 0; r < 2; r++)
      augur_sim_add_coll(g, r, types[k], (uint32_t)c, -1, 1000000, 0);
    augur_sim_result res = run(g, &m);
    assert_float_equal(res.predicted_seconds, 1.5, EPS);
    assert_float_equal(res.ranks[0].mpi, 0.5, EPS);
    assert_float_equal(res.ranks[0].sync_wait, 1.0, EPS);
    augur_sim_result_free(&res);
    augur_sim_graph_free(g);
  }
}

/* Messages beyond the caches (docs/simulate.md "Large messages"): inside a
 * node the bytes beyond shm.large_from move at shm.large_bandwidth. 3 MB
 * from 0 to 1 with 2 MB/s up to 1 MB and 0.5 MB/s beyond: 0.5 + 4 = 4.5 s;
 * below large_from nothing changes (0.5 MB back: 0.25 s more); an all-to-all of 3 MB
 * per peer copies its own block at the same rate: 4.5 + 4.5 s. Between
 * nodes the network's bandwidth holds for every size (1 MB/s: 3 s). */
static void test_large_messages(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e6);
  m.cores_per_node = 2;
  m.shm_bandwidth = 2e6;
  m.shm_large_bandwidth = 5e5;
  m.shm_large_from = 1000000;
  assert_float_equal(augur_machine_shm_copy(&m, 3000000), 4.5, EPS);
  assert_float_equal(augur_machine_shm_copy(&m, 500000), 0.25, EPS);
  augur_sim_graph *g = augur_sim_graph_new(2);
  send(g, 0, 1, 3000000);
  send(g, 1, 0, 500000);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 4.75, EPS);
  augur_sim_result_free(&r);
  m.cores_per_node = 1;
  r = run(g, &m);
  assert_float_equal(r.ranks[0].finish, 3.5, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
  m.cores_per_node = 2;
  uint32_t world[2] = {0, 1};
  g = augur_sim_graph_new(2);
  int64_t c = augur_sim_add_comm(g, world, 2);
  for (uint32_t k = 0; k < 2; k++)
    augur_sim_add_coll(g, k, AUGUR_EV_ALLTOALLV, (uint32_t)c, -1, 3000000, 0);
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 9.0, EPS);
  assert_float_equal(r.ranks[0].mpi, 4.5, EPS);
  augur_sim_result_free(&r);
  /* no large_bandwidth: one bandwidth for every size, as before */
  m.shm_large_bandwidth = 0;
  r = run(g, &m);
  assert_float_equal(r.predicted_seconds, 3.0, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* A receive whose send never comes: a clear error, not a hang. */
static void test_stall(void **state) {
  (void)state;
  augur_machine m;
  machine(&m, 0, 1e9);
  augur_sim_graph *g = augur_sim_graph_new(2);
  int64_t id = augur_sim_add_message(g, 0, 1, 8, 0);
  augur_sim_add_recv(g, 1, (uint64_t)id, 0);
  augur_sim_result r;
  augur_error err = {0};
  assert_int_equal(augur_simulate(g, &m, &r, &err), AUGUR_E_STATE);
  assert_non_null(strstr(err.msg, "rank 1"));
  assert_null(r.ranks);
  augur_sim_graph_free(g);
  /* Inconsistent graphs are refused by the builders. */
  g = augur_sim_graph_new(2);
  assert_true(augur_sim_add_message(g, 0, 5, 8, 0) < 0);
  id = augur_sim_add_message(g, 0, 1, 8, 0);
  assert_true(augur_sim_add_send(g, 1, (uint64_t)id, 0) < 0); /* rank 1 is not the sender */
  uint32_t bad = 7;
  assert_true(augur_sim_add_wait(g, 0, &bad, 1) < 0);
  augur_sim_graph_free(g);
}

static void test_machine_file(void **state) {
  (void)state;
  augur_machine m;
  augur_error err = {0};
  augur_machine_default(&m);
  char *p = write_tmp("; a test machine\n[machine]\nname = t\nnodes = 2\ncores_per_node = 2\n"
                      "placement = cyclic\n[cpu]\nspeed = 1.5\n[network]\ntopology = bus\n"
                      "latency = 2e-6\nbandwidth = 1G\neager_limit = 64k\n");
  assert_int_equal(augur_machine_load(&m, p, &err), AUGUR_OK);
  unlink(p);
  assert_string_equal(m.name, "t");
  assert_int_equal(m.topology, AUGUR_TOPO_BUS);
  assert_int_equal(m.eager_limit, 65536);
  assert_float_equal(m.bandwidth, 1e9, 1);
  assert_float_equal(m.cpu_speed, 1.5, EPS);
  assert_int_equal(augur_machine_node(&m, 3), 1);
  /* Written and read back: the same model. */
  char wpath[] = "/tmp/augur-sim-w-XXXXXX";
  int fd = mkstemp(wpath);
  FILE *f = fdopen(fd, "w");
  assert_int_equal(augur_machine_write(&m, f), AUGUR_OK);
  fclose(f);
  augur_machine m2;
  augur_machine_default(&m2);
  assert_int_equal(augur_machine_load(&m2, wpath, &err), AUGUR_OK);
  unlink(wpath);
  assert_int_equal(m2.placement, AUGUR_PLACE_CYCLIC);
  assert_float_equal(m2.latency, 2e-6, 1e-12);
  /* Explicit placement. */
  p = write_tmp("[machine]\nplacement = 0,0,1,1\n");
  assert_int_equal(augur_machine_load(&m, p, &err), AUGUR_OK);
  unlink(p);
  assert_int_equal(augur_machine_node(&m, 1), 0);
  assert_int_equal(augur_machine_node(&m, 2), 1);
  /* Bad lines name the file and line. */
  p = write_tmp("[network]\nlatency = 1e-6\nbandwidth = fast\n");
  assert_int_equal(augur_machine_load(&m, p, &err), AUGUR_E_FORMAT);
  assert_non_null(strstr(err.msg, ":3: network.bandwidth"));
  unlink(p);
  p = write_tmp("[network]\nlatncy = 1\n");
  assert_int_equal(augur_machine_load(&m, p, &err), AUGUR_E_FORMAT);
  assert_non_null(strstr(err.msg, "unknown key 'latncy'"));
  unlink(p);
  p = write_tmp("[cpu]\nthis is not a key value line\n");
  assert_int_equal(augur_machine_load(&m, p, &err), AUGUR_E_FORMAT);
  assert_non_null(strstr(err.msg, ":2:"));
  unlink(p);
  assert_int_equal(augur_machine_load(&m, "/nonexistent/m.ini", &err), AUGUR_E_MISSING);
}

/* A 2-rank trace written through the writer: rank 0 computes 1 ms, Isends
 * 64 bytes, computes 2 ms, Waits; rank 1 Recvs after 0.5 ms; then both
 * Allreduce and finalize. The graph holds exactly those operations, one
 * message, one collective instance, nothing unmatched; replayed with free
 * communication it gives 3 ms of compute on rank 0. */
static void test_from_trace(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  int32_t world[2] = {0, 1};
  augur_event ev[2][8];
  size_t n[2] = {0, 0};
  const uint64_t ms = 1000000;
  /* rank 0 */
  ev[0][n[0]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * ms);
  augur_event e = tu_ev(AUGUR_EV_ISEND, 11 * ms, 11 * ms + 1000);
  e.comm = AUGUR_COMM_WORLD;
  e.peer = 1;
  e.tag = 5;
  e.bytes = 64;
  e.req = 0xab;
  ev[0][n[0]++] = e;
  e = tu_ev(AUGUR_EV_WAIT, 13 * ms + 1000, 13 * ms + 2000);
  e.aux = 1;
  ev[0][n[0]++] = e;
  e = tu_ev(AUGUR_EV_COMPLETION, 13 * ms + 1000, 13 * ms + 2000);
  e.req = 0xab;
  ev[0][n[0]++] = e;
  e = tu_ev(AUGUR_EV_ALLREDUCE, 13 * ms + 2000, 14 * ms);
  e.comm = AUGUR_COMM_WORLD;
  e.peer = AUGUR_PEER_NONE;
  e.bytes = e.bytes_recv = 8;
  ev[0][n[0]++] = e;
  ev[0][n[0]++] = tu_ev(AUGUR_EV_FINALIZE, 14 * ms, 15 * ms);
  /* rank 1 */
  ev[1][n[1]++] = tu_ev(AUGUR_EV_INIT, 0, 10 * ms);
  e = tu_ev(AUGUR_EV_RECV, 10 * ms + ms / 2, 11 * ms + 5000);
  e.comm = AUGUR_COMM_WORLD;
  e.peer = 0;
  e.tag = 5;
  e.bytes_recv = 64;
  e.flags = AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED;
  ev[1][n[1]++] = e;
  e = tu_ev(AUGUR_EV_ALLREDUCE, 11 * ms + 5000, 14 * ms);
  e.comm = AUGUR_COMM_WORLD;
  e.peer = AUGUR_PEER_NONE;
  e.bytes = e.bytes_recv = 8;
  ev[1][n[1]++] = e;
  ev[1][n[1]++] = tu_ev(AUGUR_EV_FINALIZE, 14 * ms, 15 * ms);
  for (uint32_t r = 0; r < 2; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = 2, .members = world};
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    for (size_t i = 0; i < n[r]; i++)
      ev[r][i].rank = r;
    assert_int_equal(augur_writer_events(w, 0, ev[r], n[r], &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_sim_graph *g = NULL;
  if (augur_sim_graph_from_trace(&g, t, &err)) fail_msg("%s", err.msg);
  augur_trace_close(t);
  tu_cleanup(dir);

  augur_sim_graph_stats gs;
  augur_sim_graph_stats_get(g, &gs);
  assert_int_equal(gs.messages, 1);
  assert_int_equal(gs.collectives, 1);
  assert_int_equal(gs.unmatched, 0);
  assert_float_equal(gs.measured_seconds, 0.004, EPS); /* 10 ms .. 14 ms */
  /* rank 0: compute, Isend, compute, Wait(Isend), Allreduce */
  static const uint8_t k0[] = {AUGUR_SIM_COMPUTE, AUGUR_SIM_SEND, AUGUR_SIM_COMPUTE, AUGUR_SIM_WAIT,
                               AUGUR_SIM_COLL};
  assert_int_equal(augur_sim_graph_nops(g, 0), 5);
  const augur_sim_op *o = augur_sim_graph_ops(g, 0);
  for (size_t i = 0; i < 5; i++)
    assert_int_equal(o[i].kind, k0[i]);
  assert_int_equal(o[0].a, 1 * ms);
  assert_int_equal(o[1].a, 0); /* message 0 */
  assert_int_equal(o[1].b, 64);
  assert_true(o[1].flags & AUGUR_SIM_F_NONBLOCKING);
  assert_int_equal(o[2].a, 2 * ms);
  assert_int_equal(o[3].b, 1);
  assert_int_equal(o[4].a, 0); /* instance 0 */
  /* rank 1: compute, Recv, Allreduce */
  assert_int_equal(augur_sim_graph_nops(g, 1), 3);
  o = augur_sim_graph_ops(g, 1);
  assert_int_equal(o[0].kind, AUGUR_SIM_COMPUTE);
  assert_int_equal(o[0].a, ms / 2);
  assert_int_equal(o[1].kind, AUGUR_SIM_RECV);
  assert_int_equal(o[1].peer, 0);
  assert_int_equal(o[2].kind, AUGUR_SIM_COLL);

  augur_machine m;
  machine(&m, 0, 1e12);
  augur_sim_result r = run(g, &m);
  assert_float_equal(r.ranks[0].compute, 0.003, EPS);
  assert_float_equal(r.ranks[1].recv_wait, 0.0005, EPS); /* waits for the Isend at 1 ms */
  assert_float_equal(r.predicted_seconds, 0.003, EPS);
  augur_sim_result_free(&r);
  /* The receive's buffer was fresh and untouched: 64 bytes at 16384 s and
   * 8192 s per MiB are 1 s and 0.5 s more before rank 1 has the message. */
  m.fresh_buffer = 16384;
  m.first_touch = 8192;
  r = run(g, &m);
  assert_float_equal(r.ranks[1].recv_wait, 1.5005, EPS);
  assert_float_equal(r.predicted_seconds, 1.501, EPS);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
}

/* Collectives run all at once when their last member enters (sim.c
 * "closed") give the times, message and event counts of running their
 * messages (AUGUR_SIM_COLL_MESSAGES=1), to the bit: every algorithm, sizes
 * eager and rendezvous, 4 ranks a node (shared memory and network), a
 * permuted communicator, a pair, late ranks, point-to-point between, an
 * instance whose members disagree on the size, and collectives that are
 * not closed (trees, scans: a leaf leaves before the last one enters). */
static augur_sim_graph *coll_mix(uint32_t n) {
  augur_sim_graph *g = augur_sim_graph_new(n);
  uint32_t world[128], sub[128], pair[2] = {n - 1, 0}, ns = 0;
  assert_true(n <= 128);
  for (uint32_t r = 0; r < n; r++)
    world[r] = r;
  for (uint32_t r = n; r-- > 0;)
    if (r % 3 != 1) sub[ns++] = r; /* descending world ranks */
  int64_t cw = augur_sim_add_comm(g, world, n), cs = augur_sim_add_comm(g, sub, ns),
          cp = augur_sim_add_comm(g, pair, 2);
  assert_true(cw >= 0 && cs >= 0 && cp >= 0);
  static const unsigned types[] = {AUGUR_EV_ALLREDUCE,      AUGUR_EV_BARRIER,    AUGUR_EV_ALLGATHER,
                                   AUGUR_EV_ALLTOALL,       AUGUR_EV_IALLREDUCE, AUGUR_EV_BCAST,
                                   AUGUR_EV_REDUCE_SCATTER, AUGUR_EV_ALLTOALLV,  AUGUR_EV_SCAN,
                                   AUGUR_EV_ALLGATHERV,     AUGUR_EV_IBARRIER,   AUGUR_EV_REDUCE};
  static const uint64_t sizes[] = {8, 0, 64, 3000, 100000, 1 << 20, 16};
  uint64_t x = 42;
  for (uint64_t i = 0; i < 60; i++) {
    unsigned type = types[i % (sizeof types / sizeof *types)];
    uint64_t bytes = sizes[i % (sizeof sizes / sizeof *sizes)];
    int64_t c = i % 5 == 3 ? cs : i % 7 == 6 ? cp : cw;
    for (uint32_t r = 0; r < n; r++) {
      int member = c == cw || (c == cp && (r == 0 || r == n - 1)) || (c == cs && r % 3 != 1);
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      augur_sim_add_compute(g, r, (double)((x >> 33) % 1000) * 1e-6);
      if (i % 4 == 1) send(g, r, (r + 1) % n, 512 * (i % 3)); /* eager: no ring deadlock */
      if (!member) continue;
      uint64_t b = i == 17 && r == 0 ? bytes + 8 : bytes; /* members that disagree */
      int32_t root =
          type == AUGUR_EV_BCAST || type == AUGUR_EV_REDUCE ? (int32_t)(n / 2 & ~1u) : -1;
      if (c == cp && root >= 0) root = 0;
      assert_true(augur_sim_add_coll(g, r, type, (uint32_t)c, root, b, i) >= 0);
    }
  }
  return g;
}

/* G on M: the collectives run all at once give what running their messages gives
 * (AUGUR_SIM_COLL_MESSAGES=1), to the bit. */
static void closed_as_messages(const augur_sim_graph *g, const augur_machine *m) {
  unsetenv("AUGUR_SIM_COLL_MESSAGES");
  augur_sim_result a = run(g, m);
  setenv("AUGUR_SIM_COLL_MESSAGES", "1", 1);
  augur_sim_result b = run(g, m);
  unsetenv("AUGUR_SIM_COLL_MESSAGES");
  assert_true(a.predicted_seconds == b.predicted_seconds);
  assert_true(a.predicted_seconds > 0);
  assert_memory_equal(a.ranks, b.ranks, a.nranks * sizeof *a.ranks);
  assert_int_equal(a.ops, b.ops);
  assert_int_equal(a.messages, b.messages);
  assert_int_equal(a.heap_events, b.heap_events);
  augur_sim_result_free(&a);
  augur_sim_result_free(&b);
}

static void test_closed_same(void **state) {
  (void)state;
  /* 100 and 128: rings and pairwise exchanges over CLOSED_MAX_STEPS, all at once within
   * CLOSED_MAX_TOTAL */
  static const uint32_t sizes[] = {2, 5, 12, 16, 33, 64, 100, 128};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    augur_sim_graph *g = coll_mix(sizes[k]);
    augur_machine m;
    augur_machine_default(&m);
    m.cores_per_node = 4;
    m.eager_limit = 4096;
    closed_as_messages(g, &m);
    augur_sim_graph_free(g);
  }
}

/* On an instant network (POP's ideal one: no latency, no overhead, infinite bandwidth) the
 * rings and pairwise exchanges of more than 65 members (p - 1 steps, over CLOSED_MAX_STEPS)
 * run all at once too, every member leaving at the last entry: the same times, message
 * and event counts as their messages, to the bit. */
static void test_closed_instant(void **state) {
  (void)state;
  static const uint32_t sizes[] = {66, 100};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    augur_sim_graph *g = coll_mix(sizes[k]);
    augur_machine m;
    augur_machine_default(&m);
    m.overhead = 0;
    m.latency = m.shm_latency = m.hop_latency = 0;
    m.bandwidth = m.shm_bandwidth = INFINITY;
    m.eager_limit = UINT64_MAX;
    closed_as_messages(g, &m);
    augur_sim_graph_free(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pipeline),           cmocka_unit_test(test_bus),
      cmocka_unit_test(test_eager_rendezvous),   cmocka_unit_test(test_fresh_buffer),
      cmocka_unit_test(test_large_messages),     cmocka_unit_test(test_collectives),
      cmocka_unit_test(test_alltoall_self_copy), cmocka_unit_test(test_stall),
      cmocka_unit_test(test_machine_file),       cmocka_unit_test(test_from_trace),
      cmocka_unit_test(test_permuted_comm),      cmocka_unit_test(test_closed_same),
      cmocka_unit_test(test_closed_instant),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
