/* Execution-graph files (docs/graph-format.md): hand-computable programs
 * simulated exactly (a pipeline; a master/worker whose speedup stops at a
 * known worker count), random values and their seeds, every parse and
 * expansion error naming file:line, and the writer's folding and round
 * trip on hand-built graphs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/simgraph.h"

#define EPS 1e-9

/* Messages and MPI calls cost nothing: times are sums of compute costs. */
static void machine(augur_machine *m) {
  augur_machine_default(m);
  m->overhead = 0;
  m->latency = m->shm_latency = 0;
}

static augur_gfile *parse(const char *text) {
  augur_gfile *f = NULL;
  augur_error err = {0};
  int rc = augur_gfile_parse(&f, text, strlen(text), "t.graph", &err);
  if (rc != AUGUR_OK) fail_msg("parse: %s", err.msg);
  return f;
}

/* Predicted seconds of F expanded with SEED. */
static double predict(const augur_gfile *f, uint64_t seed) {
  augur_sim_graph *g = NULL;
  augur_error err = {0};
  if (augur_gfile_expand(f, seed, 0, &g, &err) != AUGUR_OK) fail_msg("expand: %s", err.msg);
  augur_machine m;
  machine(&m);
  augur_sim_result r;
  if (augur_simulate(g, &m, &r, &err) != AUGUR_OK) fail_msg("simulate: %s", err.msg);
  double t = r.predicted_seconds;
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
  return t;
}

static double predict_text(const char *text, uint64_t seed) {
  augur_gfile *f = parse(text);
  double t = predict(f, seed);
  augur_gfile_free(f);
  return t;
}

/* A three-stage pipeline of 10 items, stage costs 1, 3, 2 ms: the first
 * item takes 6 ms to get through, every later one adds the slowest stage's
 * 3 ms: 6 + 9 x 3 = 33 ms. */
static void test_pipeline(void **state) {
  (void)state;
  const char *text = "augur-graph 1\n"
                     "class first count 1 {\n"
                     "  loop 10 {\n"
                     "    compute 0.001\n"
                     "    send +1 1000\n"
                     "  }\n"
                     "}\n"
                     "class middle count 1 {\n"
                     "  loop 10 {\n"
                     "    recv -1 1000\n"
                     "    compute 3e6 instr   # 3 ms at the default rate of 1e9/s\n"
                     "    send last[0] 1000\n"
                     "  }\n"
                     "}\n"
                     "class last count 1 {\n"
                     "  loop 10 {\n"
                     "    recv middle[0] 1000\n"
                     "    compute 0.002\n"
                     "  }\n"
                     "}\n";
  /* Bytes cost 1000 / 5e9 s per hop on the default shared-memory bandwidth:
   * two hops on the first item's path, none on the steady state's. */
  double t = predict_text(text, 1);
  assert_true(fabs(t - (0.033 + 2 * 1000 / 5e9)) < EPS);
}

/* Master/worker: the master prepares 48 tasks (1 ms each) and hands them out
 * round robin; a worker takes 4 ms per task; results come back at the end.
 * With W workers each gets 48/W tasks; while 4 ms > W x 1 ms the workers
 * are the bottleneck: W x 1 ms + 48/W x 4 ms. From W = 4 = 4 ms / 1 ms on
 * the master is: 48 x 1 ms + 4 ms = 52 ms whatever W. */
static const char *master_worker = "augur-graph 1\n"
                                   "class master count 1 {\n"
                                   "  loop 48 k {\n"
                                   "    compute 0.001\n"
                                   "    send worker[k] 0\n"
                                   "  }\n"
                                   "  loop 48 k {\n"
                                   "    recv worker[k] 0\n"
                                   "  }\n"
                                   "}\n"
                                   "class worker count 3 {\n"
                                   "  loop 48 // n(worker) {\n"
                                   "    recv master[0] 0\n"
                                   "    compute 0.004\n"
                                   "    send master[0] 0\n"
                                   "  }\n"
                                   "}\n";

static void test_master_worker(void **state) {
  (void)state;
  augur_gfile *f = parse(master_worker);
  augur_error err = {0};
  const uint32_t workers[] = {1, 2, 4, 8, 16};
  const double want[] = {0.193, 0.098, 0.052, 0.052, 0.052};
  double t[5];
  for (int i = 0; i < 5; i++) {
    assert_int_equal(augur_gfile_set_count(f, "worker", workers[i], &err), AUGUR_OK);
    t[i] = predict(f, 1);
    assert_true(fabs(t[i] - want[i]) < EPS);
  }
  /* Speedup flattens at W = 4: doubling to 8 gains nothing, 2 -> 4 did. */
  assert_true(t[1] / t[2] > 1.8);
  assert_true(fabs(t[2] / t[3] - 1) < EPS);
  assert_int_not_equal(augur_gfile_set_count(f, "boss", 2, &err), AUGUR_OK);
  augur_gfile_free(f);
}

/* Expressions: relative peers, n(), CLASS[i] modulo its size, //, %. */
static void test_expressions(void **state) {
  (void)state;
  /* A ring of 5 where each rank waits for the previous one: 5 x 1 ms. */
  const char *ring = "augur-graph 1\n"
                     "class r count 5 {\n"
                     "  loop (me > 0) * 1 + (me == 0) {\n"
                     "  }\n"
                     "}\n";
  augur_gfile *f = NULL;
  augur_error err = {0};
  /* '>' is not an operator: an error naming the line. */
  assert_int_not_equal(augur_gfile_parse(&f, ring, strlen(ring), "t.graph", &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "t.graph:3:"));
  const char *ring2 = "augur-graph 1\n"
                      "class r count 5 {\n"
                      "  loop (me + 4) % 5 // 4 {   # 1 for rank 0 only\n"
                      "    compute 0.001\n"
                      "    send +1 8\n"
                      "  }\n"
                      "  loop 1 - (me + 4) % 5 // 4 {\n"
                      "    recv -1 8\n"
                      "    compute 0.001\n"
                      "    send r[me+1] 8\n"
                      "  }\n"
                      "  loop (me + 4) % 5 // 4 {\n"
                      "    recv (rank - 1 + nranks) % nranks 8\n"
                      "  }\n"
                      "}\n";
  double t = predict_text(ring2, 1);
  assert_true(fabs(t - (0.005 + 5 * 8 / 5e9)) < EPS);
}

/* Same seed, same graph; other seeds differ; distributions have the right
 * means (the draws are deterministic, so the tolerances cannot flake; they
 * are 4 standard errors wide). */
static void test_random(void **state) {
  (void)state;
  const char *text = "augur-graph 1\n"
                     "class a count 1 {\n"
                     "  loop 1000 {\n"
                     "    compute uniform(1, 3) / 1000\n"
                     "  }\n"
                     "}\n";
  double t1 = predict_text(text, 1), t1b = predict_text(text, 1), t2 = predict_text(text, 2);
  assert_true(t1 == t1b);
  assert_true(t1 != t2);
  /* mean 2 s; sd of the sum = 0.577 / sqrt(1000) s */
  assert_true(fabs(t1 - 2) < 4 * 0.577 / sqrt(1000));
  const char *dists = "augur-graph 1\n"
                      "class a count 1 {\n"
                      "  loop 2000 {\n"
                      "    compute exponential(0.001)\n"
                      "  }\n"
                      "}\n"
                      "class b count 1 {\n"
                      "  loop 2000 {\n"
                      "    compute table(0.001:0.25, 0.003:0.75)\n"
                      "  }\n"
                      "}\n"
                      "class c count 1 {\n"
                      "  loop 2000 {\n"
                      "    compute normal(0.001, 0.0002)\n"
                      "  }\n"
                      "}\n";
  augur_gfile *f = parse(dists);
  augur_sim_graph *g = NULL;
  augur_error err = {0};
  assert_int_equal(augur_gfile_expand(f, 7, 0, &g, &err), AUGUR_OK);
  augur_machine m;
  machine(&m);
  augur_sim_result r;
  assert_int_equal(augur_simulate(g, &m, &r, &err), AUGUR_OK);
  /* exponential: mean 2 s, sd 0.001 x sqrt(2000) = 0.045 s */
  assert_true(fabs(r.ranks[0].compute - 2.0) < 4 * 0.045);
  /* table: mean 2000 x 0.0025 = 5 s, sd 0.001 x 0.866 x sqrt(2000) = 0.039 s */
  assert_true(fabs(r.ranks[1].compute - 5.0) < 4 * 0.039);
  /* normal: mean 2 s, sd 0.0002 x sqrt(2000) = 0.009 s */
  assert_true(fabs(r.ranks[2].compute - 2.0) < 4 * 0.009);
  augur_sim_result_free(&r);
  augur_sim_graph_free(g);
  augur_gfile_free(f);
}

/* Branches: a 0.3 arm is taken about 30 % of the time; `branch shared`
 * takes the same arm on every rank, so a communicating arm always pairs. */
static void test_branches(void **state) {
  (void)state;
  const char *text = "augur-graph 1\n"
                     "class a count 1 {\n"
                     "  loop 10000 {\n"
                     "    branch {\n"
                     "      p 0.3 {\n"
                     "        compute 0.001\n"
                     "      }\n"
                     "      p 0.5 {\n"
                     "      }\n"
                     "    }\n"
                     "  }\n"
                     "}\n";
  /* 3000 x 1 ms expected; sd sqrt(10000 x 0.3 x 0.7) = 46 draws */
  double t = predict_text(text, 3);
  assert_true(fabs(t - 3.0) < 4 * 0.046);
  const char *pairs = "augur-graph 1\n"
                      "class x count 2 {\n"
                      "  loop 200 {\n"
                      "    branch shared {\n"
                      "      p 0.5 {\n"
                      "        isend +1 8\n"
                      "        irecv +1 8\n"
                      "        wait\n"
                      "      }\n"
                      "      p 0.5 {\n"
                      "        compute 0.001\n"
                      "      }\n"
                      "    }\n"
                      "  }\n"
                      "}\n";
  for (uint64_t seed = 1; seed <= 5; seed++) {
    double tp = predict_text(pairs, seed);
    assert_true(tp > 0.05 && tp < 0.15);
  }
  /* Without `shared` the ranks draw on their own: the sends do not pair. */
  char *own = strdup(pairs);
  memcpy(strstr(own, "shared"), "      ", 6);
  augur_gfile *f = parse(own);
  augur_sim_graph *g = NULL;
  augur_error err = {0};
  assert_int_not_equal(augur_gfile_expand(f, 1, 0, &g, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "unpaired messages"));
  augur_gfile_free(f);
  free(own);
}

/* Collectives, communicators, nonblocking waits by position. */
static void test_colls_waits(void **state) {
  (void)state;
  const char *text = "augur-graph 1\n"
                     "comm evens 0 2\n"
                     "comm odds w[*]\n"
                     "class w count 4 {\n"
                     "  compute 0.001 * rank\n"
                     "  barrier\n"
                     "  irecv -1 8\n"
                     "  isend +1 8\n"
                     "  wait 1\n"
                     "  wait 0\n"
                     "  allreduce 8\n"
                     "  bcast 0 8 on odds\n"
                     "  coll MPI_Comm_dup none 0\n"
                     "}\n";
  /* The barrier holds everyone until rank 3's 3 ms. */
  double t = predict_text(text, 1);
  assert_true(t >= 0.003 && t < 0.0031);
  const char *bad = "augur-graph 1\n"
                    "comm evens 0 2\n"
                    "class w count 4 {\n"
                    "  barrier on evens\n"
                    "}\n";
  augur_gfile *f = parse(bad);
  augur_sim_graph *g = NULL;
  augur_error err = {0};
  assert_int_not_equal(augur_gfile_expand(f, 1, 0, &g, &err), AUGUR_OK);
  assert_non_null(strstr(err.msg, "t.graph:4:"));
  assert_non_null(strstr(err.msg, "not a member"));
  augur_gfile_free(f);
}

/* Every error path: one line naming t.graph:LINE and the problem. */
static void test_errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "t.graph:0: not an augur graph file"},
      {"class a count 1 {\n}\n", "t.graph:1: not an augur graph file"},
      {"augur-graph 2\n", "t.graph:1: graph format version '2'"},
      {"augur-graph 1\n", "no class"},
      {"augur-graph 1\nclass a count x {\n}\n", "t.graph:2: class: expected a count"},
      {"augur-graph 1\nclass a count 1 {\n  compute 1.5.5\n}\n",
       "t.graph:3: compute: expected a value, got '1.5.5'"},
      {"augur-graph 1\nclass a count 1 {\n  compute 12abc\n}\n", "t.graph:3:"},
      {"augur-graph 1\nclass a count 1 {\n  compute 0x10\n}\n",
       "t.graph:3: compute: expected a value, got '0x10'"},
      {"augur-graph 1\nclass a count 1 {\n  compute\n}\n",
       "t.graph:3: compute: expected a value, got end of line"},
      {"augur-graph 1\nclass a count 1 {\n  send foo 8\n}\n",
       "t.graph:3: send: unknown name 'foo'"},
      {"augur-graph 1\nclass a count 1 {\n  send b[0] 8\n}\n", "t.graph:3: unknown class 'b'"},
      {"augur-graph 1\nclass a count 1 {\n  send +1\n}\n",
       "t.graph:3: send: expected a size in bytes"},
      {"augur-graph 1\nclass a count 1 {\n  loop 3 {\n    compute 1\n}\n",
       "t.graph:2: unbalanced braces"},
      {"augur-graph 1\nclass a count 1 {\n}\n}\n", "t.graph:4: unbalanced braces"},
      {"augur-graph 1\nclass a count 1 {\n  loop 3\n}\n", "t.graph:3: loop: expected '{'"},
      {"augur-graph 1\nclass a count 1 {\n  frobnicate 3\n}\n",
       "t.graph:3: unknown statement 'frobnicate'"},
      {"augur-graph 1\nclass a count 1 {\n  compute 1 2\n}\n",
       "t.graph:3: compute: expected end of line"},
      {"augur-graph 1\nclass a count 1 {\n  compute uniform(1)\n}\n",
       "t.graph:3: uniform: expected ','"},
      {"augur-graph 1\nclass a count 1 {\n  compute table(1:0.5, 2:0.2)\n}\n",
       "t.graph:3: table: probabilities sum to 0.7"},
      {"augur-graph 1\nclass a count 1 {\n  compute foo(1)\n}\n",
       "t.graph:3: compute: unknown function 'foo'"},
      {"augur-graph 1\nclass a count 1 {\n  barrier on nowhere\n}\n",
       "t.graph:3: unknown communicator 'nowhere'"},
      {"augur-graph 1\nclass a count 1 {\n  coll MPI_Send none 8\n}\n",
       "t.graph:3: coll: 'MPI_Send' is not a collective"},
      {"augur-graph 1\nclass a count 1 {\n  branch {\n    q 1 {\n    }\n  }\n}\n",
       "t.graph:4: branch: expected 'p"},
      {"augur-graph 1\nclass a count 1 {\n}\nclass a count 2 {\n}\n",
       "t.graph:4: class 'a' defined twice"},
      {"augur-graph 1\ncompute 1\n", "t.graph:2: 'compute' outside a class"},
      {"augur-graph 1\nclass a count 1 {\n  compute me\n}\nstart x 1\n",
       "t.graph:5: start: expected a number"},
      {"augur-graph 1\nclass a count 1 {\n  compute at(me, 3:1, 2:1)\n}\n",
       "t.graph:3: at: expected whole keys in ascending order, got 2"},
      {"augur-graph 1\nclass a count 1 {\n  wait 1.5\n}\n",
       "t.graph:3: wait: expected a request position"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    augur_gfile *f = NULL;
    augur_error err = {0};
    int rc = augur_gfile_parse(&f, cases[i].text, strlen(cases[i].text), "t.graph", &err);
    if (rc == AUGUR_OK) fail_msg("case %zu parsed: %s", i, cases[i].text);
    assert_null(f);
    if (!strstr(err.msg, cases[i].want))
      fail_msg("case %zu: got '%s', want '%s'", i, err.msg, cases[i].want);
    assert_null(strchr(err.msg, '\n'));
  }
}

/* Errors found while expanding: they name the line too. */
static void test_expand_errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"augur-graph 1\nclass a count 2 {\n  send +1 8\n}\n",
       "t.graph:3: unpaired messages: rank 0 sends 1 to rank 1, rank 1 receives 0 from rank 0"},
      {"augur-graph 1\nclass a count 2 {\n  send 5 8\n}\n",
       "t.graph:3: send: peer 5 is not a rank (0 ... 1)"},
      {"augur-graph 1\nclass a count 1 {\n  loop 1e12 {\n    compute 1\n  }\n}\n",
       "t.graph:3: loop: 1e+12 is more than the limit"},
      {"augur-graph 1\nclass a count 1 {\n  loop 1e6 {\n    loop 1e6 {\n      compute 1\n    }\n  "
       "}\n}\n",
       "t.graph:5: expansion exceeds 20000000 operations"},
      {"augur-graph 1\nclass a count 1 {\n  loop -3 {\n  }\n}\n",
       "t.graph:3: loop: expected a number >= 0, got -3"},
      {"augur-graph 1\nclass a count 1 {\n  compute -1\n}\n",
       "t.graph:3: compute: expected a value >= 0"},
      {"augur-graph 1\nclass a count 1 {\n  compute 1 / (me - me)\n}\n",
       "t.graph:3: division by zero"},
      {"augur-graph 1\nclass a count 1 {\n  wait 0\n}\n",
       "t.graph:3: wait: rank 0 has no outstanding request at position 0"},
      {"augur-graph 1\nclass a count 0 {\n}\n", "no ranks"},
      {"augur-graph 1\nclass a count 2 {\n  loop me + 1 {\n    barrier\n  }\n}\n",
       "t.graph:4: unpaired collectives on 'world': rank 0 makes 1 calls, rank 1 makes 2"},
      {"augur-graph 1\nclass a count 2 {\n  bcast me 8\n}\n",
       "t.graph:3: collectives do not match"},
      {"augur-graph 1\nclass a count 1 {\n  branch {\n    p 0.7 {\n    }\n    p 0.7 {\n    }\n  "
       "}\n}\n",
       "t.graph:3: branch: probabilities sum to 1.4"},
      {"augur-graph 1\ncomm c 0 0\nclass a count 1 {\n}\n",
       "t.graph:2: comm c: rank 0 listed twice"},
      {"augur-graph 1\nclass a count 1 {\n  compute uniform(3, 1)\n}\n",
       "t.graph:3: uniform(3, 1): expected a <= b"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    augur_gfile *f = parse(cases[i].text);
    augur_sim_graph *g = NULL;
    augur_error err = {0};
    int rc = augur_gfile_expand(f, 1, 0, &g, &err);
    if (rc == AUGUR_OK) fail_msg("case %zu expanded: %s", i, cases[i].text);
    assert_null(g);
    if (!strstr(err.msg, cases[i].want))
      fail_msg("case %zu: got '%s', want '%s'", i, err.msg, cases[i].want);
    augur_gfile_free(f);
  }
}

/* Writes G, parses it back, and checks it predicts the same time. Returns
 * the written text (caller frees). */
static char *round_trip_opts(const augur_sim_graph *g, double *t_in, double *t_out, int smooth);

static char *round_trip(const augur_sim_graph *g, double *t_in, double *t_out) {
  return round_trip_opts(g, t_in, t_out, 0);
}

static char *round_trip_opts(const augur_sim_graph *g, double *t_in, double *t_out, int smooth) {
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  assert_non_null(mf);
  augur_error err = {0};
  augur_gfile_write_opts o = {0};
  o.smooth = smooth;
  assert_int_equal(augur_gfile_write(mf, g, &o, &err), AUGUR_OK);
  fclose(mf);
  augur_machine m;
  augur_machine_default(&m); /* with latencies and overheads */
  augur_sim_result r;
  assert_int_equal(augur_simulate(g, &m, &r, &err), AUGUR_OK);
  *t_in = r.predicted_seconds;
  augur_sim_result_free(&r);
  augur_gfile *f = NULL;
  if (augur_gfile_parse(&f, buf, len, "written", &err) != AUGUR_OK)
    fail_msg("%s\n%s", err.msg, buf);
  augur_sim_graph *g2 = NULL;
  if (augur_gfile_expand(f, 1, 0, &g2, &err) != AUGUR_OK) fail_msg("%s\n%s", err.msg, buf);
  assert_int_equal(augur_simulate(g2, &m, &r, &err), AUGUR_OK);
  *t_out = r.predicted_seconds;
  augur_sim_result_free(&r);
  augur_sim_graph_free(g2);
  augur_gfile_free(f);
  return buf;
}

/* A hand-built 4-rank ring, 100 laps with varying compute: one class, one
 * loop of 100, the same prediction. */
static void test_write_ring(void **state) {
  (void)state;
  uint32_t all[4] = {0, 1, 2, 3};
  /* Each lap, rank r: compute, isend to r+1, irecv from r-1, wait both. */
  augur_sim_graph *g = augur_sim_graph_new(4);
  assert_true(augur_sim_add_comm(g, all, 4) == 0);
  for (int it = 0; it < 100; it++) {
    int64_t msg[4];
    for (uint32_t r = 0; r < 4; r++)
      msg[r] = augur_sim_add_message(g, r, (r + 1) % 4, 1024, 0);
    for (uint32_t r = 0; r < 4; r++) {
      augur_sim_add_compute(g, r, 1e-4 * (1 + (it % 3)));
      uint32_t ops[2];
      ops[0] = (uint32_t)augur_sim_add_send(g, r, (uint64_t)msg[r], AUGUR_SIM_F_NONBLOCKING);
      ops[1] =
          (uint32_t)augur_sim_add_recv(g, r, (uint64_t)msg[(r + 3) % 4], AUGUR_SIM_F_NONBLOCKING);
      assert_true(augur_sim_add_wait(g, r, ops, 2) >= 0);
    }
    if (it % 10 == 9)
      for (uint32_t r = 0; r < 4; r++)
        augur_sim_add_coll(g, r, AUGUR_EV_ALLREDUCE, 0, -1, 8, (uint64_t)(it / 10));
  }
  double a, b;
  char *text = round_trip(g, &a, &b);
  assert_non_null(strstr(text, "class r0 count 4 {"));
  assert_non_null(strstr(text, "loop 10 {"));
  assert_non_null(strstr(text, "isend +1 1024"));
  assert_non_null(strstr(text, "irecv -1 1024"));
  assert_non_null(strstr(text, "allreduce 8"));
  /* The per-lap costs vary (1, 2, 3 x 0.1 ms, period 3), so the body's mean. */
  if (fabs(a - b) > 0.01 * a) fail_msg("trace %.9f, file %.9f\n%s", a, b, text);
  free(text);
  augur_sim_graph_free(g);
}

/* A pipeline whose first and last ranks differ: three classes; a sub-communicator. */
static void test_write_classes(void **state) {
  (void)state;
  augur_sim_graph *g = augur_sim_graph_new(4);
  uint32_t all[4] = {0, 1, 2, 3}, half[2] = {2, 0};
  augur_sim_add_comm(g, all, 4);
  augur_sim_add_comm(g, half, 2);
  for (int it = 0; it < 20; it++) {
    for (uint32_t r = 0; r < 3; r++) {
      int64_t m = augur_sim_add_message(g, r, r + 1, 64, it == 0);
      augur_sim_add_compute(g, r, 0.001);
      augur_sim_add_send(g, r, (uint64_t)m, 0);
      augur_sim_add_recv(g, r + 1, (uint64_t)m, 0);
    }
  }
  augur_sim_add_coll(g, 0, AUGUR_EV_BCAST, 1, 2, 100, 0);
  augur_sim_add_coll(g, 2, AUGUR_EV_BCAST, 1, 2, 100, 0);
  double a, b;
  char *text = round_trip(g, &a, &b);
  assert_non_null(strstr(text, "comm c1 2 0"));
  assert_non_null(strstr(text, "bcast 2 100 on c1"));
  assert_non_null(strstr(text, "ssend +1 64"));
  assert_non_null(strstr(text, "loop 19 {"));
  if (fabs(a - b) > 1e-9) fail_msg("trace %.9f, file %.9f\n%s", a, b, text);
  free(text);
  augur_sim_graph_free(g);
}

/* One slow iteration on each rank (preemptions), at different times: each
 * holds everyone up at the allreduce. Averaged into the loop they would
 * overlap; written as at(i, 7:...) the round trip is exact. --smooth
 * averages them. */
static void test_write_outlier(void **state) {
  (void)state;
  augur_sim_graph *g = augur_sim_graph_new(2);
  uint32_t all[2] = {0, 1};
  augur_sim_add_comm(g, all, 2);
  for (int it = 0; it < 40; it++)
    for (uint32_t r = 0; r < 2; r++) {
      augur_sim_add_compute(g, r,
                            (r == 0 && it == 7) || (r == 1 && it == 20) ? 0.005 : 1e-5 * (1 + r));
      augur_sim_add_coll(g, r, AUGUR_EV_ALLREDUCE, 0, -1, 8, (uint64_t)it);
    }
  double a, b;
  char *text = round_trip(g, &a, &b);
  if (!strstr(text, "loop 40 {") || !strstr(text, "compute 1e-05 + at(i, 7:0.00499)") ||
      !strstr(text, "compute 2e-05 + at(i, 20:0.00498)"))
    fail_msg("%s", text);
  if (fabs(a - b) > 1e-9) fail_msg("trace %.9f, file %.9f\n%s", a, b, text);
  free(text);
  text = round_trip_opts(g, &a, &b, 1);
  assert_null(strstr(text, "at("));
  /* Spread over 40 iterations the two 5 ms run side by side: 5 ms less. */
  assert_true(b < a - 0.004);
  free(text);
  augur_sim_graph_free(g);
  /* at() on its own: the value where the index matches, else 0. */
  double t = predict_text("augur-graph 1\nclass a count 1 {\n  loop 10 {\n"
                          "    compute 0.001 + at(i, 2:0.5, 9:0.25)\n  }\n}\n",
                          1);
  assert_true(fabs(t - 0.76) < EPS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pipeline),      cmocka_unit_test(test_master_worker),
      cmocka_unit_test(test_expressions),   cmocka_unit_test(test_random),
      cmocka_unit_test(test_branches),      cmocka_unit_test(test_colls_waits),
      cmocka_unit_test(test_errors),        cmocka_unit_test(test_expand_errors),
      cmocka_unit_test(test_write_ring),    cmocka_unit_test(test_write_classes),
      cmocka_unit_test(test_write_outlier),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
