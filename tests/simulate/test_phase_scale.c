/* The phase what-if (augur_sim_graph_from_trace_phases) on a hand-built
 * 2-rank trace: Init [0, 10]; 10 iterations at base = 100 + 1000 i of
 * rank 0 Send [base, base+10] -> rank 1 Recv [base, base+10], then both
 * Allreduce [base+500, base+510]; Finalize at 10100. `augur phases` finds
 * the iteration (ticks Send, Recv, Allreduce; weight 10) starting at the
 * Send/Recv, so per rank the 90 ns before the first iteration stay as they
 * are and the two 490 ns bursts of each iteration (the last one's second
 * burst ends at Finalize) are halved by x2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/phases.h"
#include "augur/sim.h"
#include "util.h"

#define NR    2
#define ITERS 10

static char *make_trace(void) {
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w = tu_open_world(dir, r, NR);
    augur_event ev[2 + 2 * ITERS];
    size_t n = 0;
    ev[n++] = tu_ev(AUGUR_EV_INIT, 0, 10);
    for (uint64_t i = 0; i < ITERS; i++) {
      uint64_t base = 100 + 1000 * i;
      augur_event *e = &ev[n++];
      *e = tu_ev(r == 0 ? AUGUR_EV_SEND : AUGUR_EV_RECV, base, base + 10);
      e->comm = AUGUR_COMM_WORLD;
      e->peer = 1 - (int32_t)r;
      e->tag = 0;
      if (r == 0)
        e->bytes = 8;
      else
        e->bytes_recv = 8;
      e = &ev[n++];
      *e = tu_ev(AUGUR_EV_ALLREDUCE, base + 500, base + 510);
      e->comm = AUGUR_COMM_WORLD;
      e->peer = -1;
      e->tag = AUGUR_TAG_NONE;
      e->bytes = e->bytes_recv = 8;
    }
    ev[n++] = tu_ev(AUGUR_EV_FINALIZE, 100 + 1000 * ITERS, 110 + 1000 * ITERS);
    assert_int_equal(augur_writer_events(w, 0, ev, n, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  return dir;
}

static uint64_t compute_ns(const augur_sim_graph *g, uint32_t rank) {
  uint64_t s = 0;
  const augur_sim_op *op = augur_sim_graph_ops(g, rank);
  for (size_t i = 0; i < augur_sim_graph_nops(g, rank); i++)
    if (op[i].kind == AUGUR_SIM_COMPUTE) s += op[i].a;
  return s;
}

/* The id `augur phases` gives the iteration (weight ITERS). */
static uint32_t iteration_phase(augur_trace *t) {
  augur_error err;
  augur_logical *lg = NULL;
  augur_phases *p = NULL;
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  assert_int_equal(augur_logical_build(t, &lg, &err), 0);
  assert_int_equal(augur_phases_detect(lg, &o, &p, &err), 0);
  uint32_t id = 0;
  for (uint32_t i = 0; i < p->nphases; i++)
    if (p->phase[i].weight == ITERS) id = p->phase[i].id;
  assert_int_not_equal(id, 0);
  augur_phases_free(p);
  augur_logical_free(lg);
  return id;
}

static void phase_scaled(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t;
  augur_error err;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  augur_sim_graph *plain = NULL, *fast = NULL, *slow = NULL;
  assert_int_equal(augur_sim_graph_from_trace(&plain, t, &err), 0);
  uint32_t id = iteration_phase(t);
  augur_sim_phase_scale x2 = {id, 2.0}, half = {id, 0.5};
  assert_int_equal(augur_sim_graph_from_trace_phases(&fast, t, &x2, 1, &err), 0);
  assert_int_equal(augur_sim_graph_from_trace_phases(&slow, t, &half, 1, &err), 0);
  for (uint32_t r = 0; r < NR; r++) {
    assert_int_equal(compute_ns(plain, r), 90 + ITERS * 980);
    assert_int_equal(compute_ns(fast, r), 90 + ITERS * 490);
    assert_int_equal(compute_ns(slow, r), 90 + ITERS * 1960);
    /* Only compute changes: the same operations otherwise. */
    assert_int_equal(augur_sim_graph_nops(fast, r), augur_sim_graph_nops(plain, r));
  }
  /* Simulated: the compute column follows. */
  augur_machine m;
  augur_machine_default(&m);
  augur_sim_result a, b;
  assert_int_equal(augur_simulate(plain, &m, &a, &err), 0);
  assert_int_equal(augur_simulate(fast, &m, &b, &err), 0);
  assert_true(b.ranks[0].compute < a.ranks[0].compute);
  assert_true(b.ranks[0].compute * 1e9 > (90 + ITERS * 490) - 1 &&
              b.ranks[0].compute * 1e9 < (90 + ITERS * 490) + 1);
  augur_sim_result_free(&a);
  augur_sim_result_free(&b);
  augur_sim_graph_free(plain);
  augur_sim_graph_free(fast);
  augur_sim_graph_free(slow);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void bad_phase(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t;
  augur_error err;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  augur_sim_graph *g = NULL;
  augur_sim_phase_scale none = {99, 2.0}, zero = {1, 0.0};
  assert_true(augur_sim_graph_from_trace_phases(&g, t, &none, 1, &err) < 0);
  assert_non_null(strstr(err.msg, "no phase 99"));
  assert_null(g);
  assert_true(augur_sim_graph_from_trace_phases(&g, t, &zero, 1, &err) < 0);
  assert_non_null(strstr(err.msg, "must be > 0"));
  augur_trace_close(t);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(phase_scaled),
      cmocka_unit_test(bad_phase),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
