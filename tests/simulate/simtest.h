/* Shared by the simulator's cmocka tests (test_sim.c, test_topo.c): a
 * machine where times add up, a checked simulation run, one blocking
 * message, and a temporary file. Include after <cmocka.h>, <string.h> and
 * <unistd.h>. */
#ifndef AUGUR_SIMTEST_H
#define AUGUR_SIMTEST_H

#include "augur/sim.h"

/* One rank per node, no per-call overhead, everything eager: times add up. */
static inline void machine(augur_machine *m, double lat, double bw) {
  augur_machine_default(m);
  m->cores_per_node = 1;
  m->overhead = 0;
  m->latency = m->shm_latency = lat;
  m->bandwidth = m->shm_bandwidth = bw;
  m->eager_limit = 1u << 30;
}

static inline augur_sim_result run(const augur_sim_graph *g, const augur_machine *m) {
  augur_sim_result r;
  augur_error err = {0};
  int rc = augur_simulate(g, m, &r, &err);
  if (rc != AUGUR_OK) fail_msg("simulate: %s", err.msg);
  return r;
}

/* A blocking message FROM -> TO of BYTES, appended to both ranks. */
static inline void send(augur_sim_graph *g, uint32_t from, uint32_t to, uint64_t bytes) {
  int64_t id = augur_sim_add_message(g, from, to, bytes, 0);
  assert_true(id >= 0);
  assert_true(augur_sim_add_send(g, from, (uint64_t)id, 0) >= 0);
  assert_true(augur_sim_add_recv(g, to, (uint64_t)id, 0) >= 0);
}

/* TEXT in a new file under /tmp; its path (static: one at a time). */
static inline char *write_tmp(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/augur-sim-XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  return path;
}

#endif
