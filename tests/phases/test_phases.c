/* PAS2P logical trace and phases on hand-built traces (cmocka): each case
 * writes rank files with the writer (exact times), builds the logical trace
 * through the reader and the matcher, and asserts exact ticks, phases and
 * weights. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/phases.h"
#include "util.h"

#define MAXR   4
#define MAXEV  512
#define NSITES 40

typedef struct scene {
  uint32_t nranks;
  augur_event v[MAXR][MAXEV];
  size_t n[MAXR];
  uint64_t now[MAXR]; /* each rank's clock: the next call starts after it */
} scene;

static void scene_init(scene *s, uint32_t nranks) {
  memset(s, 0, sizeof *s);
  s->nranks = nranks;
  for (uint32_t r = 0; r < nranks; r++)
    s->now[r] = 1000;
}

/* Appends a call on RANK after COMPUTE ns of compute, lasting DUR ns. */
static augur_event *call(scene *s, uint32_t rank, unsigned type, uint64_t compute, uint64_t dur,
                         uint32_t site) {
  assert_true(s->n[rank] < MAXEV);
  augur_event *e = &s->v[rank][s->n[rank]++];
  uint64_t t0 = s->now[rank] + compute;
  *e = tu_ev(type, t0, t0 + dur);
  e->comm = augur_event_is_sub(type) ? 0 : AUGUR_COMM_WORLD;
  e->peer = AUGUR_PEER_NONE;
  e->tag = AUGUR_TAG_NONE;
  e->callsite = site;
  s->now[rank] = t0 + dur;
  return e;
}

static void p2p(scene *s, uint32_t rank, unsigned type, uint64_t compute, uint64_t dur,
                uint32_t site, int32_t peer, uint64_t bytes) {
  augur_event *e = call(s, rank, type, compute, dur, site);
  e->peer = peer;
  e->tag = 7;
  if (augur_event_is_p2p_send(type))
    e->bytes = bytes;
  else
    e->bytes_recv = bytes;
}

static void coll(scene *s, unsigned type, uint64_t compute, uint64_t dur, uint32_t site) {
  uint64_t t = 0;
  for (uint32_t r = 0; r < s->nranks; r++)
    if (s->now[r] + compute > t) t = s->now[r] + compute;
  for (uint32_t r = 0; r < s->nranks; r++) {
    s->now[r] = t - compute;
    augur_event *e = call(s, r, type, compute, dur, site);
    e->bytes = e->bytes_recv = 8;
  }
}

/* Writes the scene as a trace and builds its logical trace. */
static augur_logical *build(const scene *s, char **dirp) {
  char *dir = tu_tracedir();
  tu_meta(dir, s->nranks);
  augur_error err;
  int32_t world[MAXR] = {0, 1, 2, 3};
  for (uint32_t r = 0; r < s->nranks; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, s->nranks, 0, &err), 0);
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = s->nranks, .members = world};
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    /* Call sites 1..NSITES in order on every rank: global ids = local ids. */
    augur_module_def md = {.id = 1, .path = "/nonexistent/app"};
    assert_int_equal(augur_writer_def_module(w, &md, &err), 0);
    for (uint32_t k = 1; k <= NSITES; k++) {
      augur_callsite_def cd = {.id = k, .module = 1, .offset = 0x1000 + 16 * k};
      assert_int_equal(augur_writer_def_callsite(w, &cd, &err), 0);
    }
    if (s->n[r]) assert_int_equal(augur_writer_events(w, 0, s->v[r], s->n[r], &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_logical *lg = NULL;
  if (augur_logical_build(t, &lg, &err)) fail_msg("%s", err.msg);
  augur_trace_close(t);
  *dirp = dir;
  return lg;
}

static augur_phases *detect(const augur_logical *lg, int mode, double work_sim) {
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  o.mode = mode;
  o.work_sim = work_sim;
  augur_phases *p = NULL;
  augur_error err;
  if (augur_phases_detect(lg, &o, &p, &err)) fail_msg("%s", err.msg);
  return p;
}

static uint64_t lt(const augur_logical *lg, uint32_t r, uint64_t i) {
  assert_true(i < lg->rank[r].n);
  return lg->rank[r].ev[i].lt;
}

/* Sends at LT, receives at LT + 1 or their own next tick, collectives at the
 * members' largest next tick. */
static void logical_times(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 3);
  /* r0: two sends to r1, then a receive from r2, then Allreduce. */
  p2p(&s, 0, AUGUR_EV_SEND, 100, 10, 1, 1, 64); /* LT 0 */
  p2p(&s, 0, AUGUR_EV_SEND, 10, 10, 1, 1, 64);  /* LT 1 */
  p2p(&s, 0, AUGUR_EV_RECV, 10, 500, 2, 2, 32); /* max(2, r2 send 4 + 1) = 5 */
  /* r1: receives both sends. */
  p2p(&s, 1, AUGUR_EV_RECV, 105, 30, 3, 0, 64); /* max(0, 0 + 1) = 1 */
  p2p(&s, 1, AUGUR_EV_RECV, 1, 30, 3, 0, 64);   /* max(2, 1 + 1) = 2 */
  /* r2: four local calls, then the send to r0. */
  for (int k = 0; k < 4; k++)
    call(&s, 2, AUGUR_EV_COMM_DUP, 10, 5, 4);  /* LT 0..3 */
  p2p(&s, 2, AUGUR_EV_SEND, 10, 10, 5, 0, 32); /* LT 4 */
  /* Nonblocking: r1 posts an Irecv, r2 sends, r1's Wait completes it. */
  augur_event *ir = call(&s, 1, AUGUR_EV_IRECV, 10, 5, 6); /* LT 3 */
  ir->peer = 2;
  ir->tag = 7;
  ir->bytes_recv = 16;
  ir->req = 0xac01;
  p2p(&s, 2, AUGUR_EV_ISEND, 300, 5, 7, 1, 16); /* LT 5 */
  s.now[1] = s.now[2];
  call(&s, 1, AUGUR_EV_WAIT, 10, 20, 8)->aux = 1; /* max(4, 5 + 1) = 6 */
  augur_event *c = call(&s, 1, AUGUR_EV_COMPLETION, 0, 0, 0);
  c->t_start = c->t_end = 0;
  c->req = 0xac01;
  c->peer = 2;
  c->tag = 7;
  c->bytes_recv = 16;
  /* Allreduce: next ticks r0 6, r1 7, r2 6 -> all 7. */
  coll(&s, AUGUR_EV_ALLREDUCE, 50, 20, 9);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->messages, 4);
  assert_int_equal(lg->collectives, 1);
  assert_int_equal(lg->forced, 0);
  assert_int_equal(lt(lg, 0, 0), 0);
  assert_int_equal(lt(lg, 0, 1), 1);
  assert_int_equal(lt(lg, 0, 2), 5);
  assert_int_equal(lt(lg, 1, 0), 1);
  assert_int_equal(lt(lg, 1, 1), 2);
  assert_int_equal(lt(lg, 1, 2), 3);
  assert_int_equal(lt(lg, 1, 3), 6);
  for (int k = 0; k < 4; k++)
    assert_int_equal(lt(lg, 2, (uint64_t)k), (uint64_t)k);
  assert_int_equal(lt(lg, 2, 4), 4);
  assert_int_equal(lt(lg, 2, 5), 5);
  for (uint32_t r = 0; r < 3; r++)
    assert_int_equal(lt(lg, r, lg->rank[r].n - 1), 7);
  assert_int_equal(lg->nticks, 8);
  /* The Wait carries the completion's bytes; only parents are calls. */
  assert_int_equal(lg->rank[1].n, 5);
  assert_int_equal(lg->rank[1].ev[3].bytes, 16);
  assert_true(lg->rank[1].ev[3].flags & AUGUR_LT_MESSAGE);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* One repetition of phase A (ring exchange) or B (exchange + Allreduce).
 * BYTES and COMPUTE change what a repetition looks like. The compute sits
 * between calls of the repetition, as in a real loop body: the burst after a
 * repetition's last call belongs to it (docs/phases.md), so compute before
 * the first call would be charged to the previous repetition. */
static void phase_a(scene *s, uint64_t bytes, uint64_t compute) {
  uint32_t n = s->nranks;
  for (uint32_t r = 0; r < n; r++) {
    p2p(s, r, AUGUR_EV_ISEND, 5, 10, 20, (int32_t)((r + 1) % n), bytes);
    s->v[r][s->n[r] - 1].req = 0x6c00 + r;
  }
  for (uint32_t r = 0; r < n; r++)
    p2p(s, r, AUGUR_EV_RECV, compute, 100, 21, (int32_t)((r + n - 1) % n), bytes);
  for (uint32_t r = 0; r < n; r++) {
    call(s, r, AUGUR_EV_WAIT, 5, 10, 22)->aux = 1;
    augur_event *c = call(s, r, AUGUR_EV_COMPLETION, 0, 0, 0);
    c->t_start = c->t_end = 0;
    c->req = 0x6c00 + r;
    c->peer = (int32_t)((r + 1) % n);
    c->tag = 7;
    c->bytes = bytes;
  }
}

static void phase_b(scene *s) {
  uint32_t n = s->nranks;
  for (uint32_t r = 0; r < n; r++)
    p2p(s, r, AUGUR_EV_SEND, 5, 10, 30, (int32_t)((r + 1) % n), 4096);
  for (uint32_t r = 0; r < n; r++)
    p2p(s, r, AUGUR_EV_RECV, 2000, 100, 31, (int32_t)((r + n - 1) % n), 4096);
  coll(s, AUGUR_EV_ALLREDUCE, 300, 50, 32);
}

static void init_part(scene *s) {
  for (uint32_t r = 0; r < s->nranks; r++)
    call(s, r, AUGUR_EV_INIT, 0, 1000, 10);
  coll(s, AUGUR_EV_BCAST, 500, 40, 11);
  for (uint32_t r = 0; r < s->nranks; r++)
    call(s, r, AUGUR_EV_COMM_DUP, 100, 30, 12);
}

static void finalize_part(scene *s) {
  coll(s, AUGUR_EV_BARRIER, 100, 10, 13);
  for (uint32_t r = 0; r < s->nranks; r++)
    call(s, r, AUGUR_EV_FINALIZE, 100, 300, 14);
}

static void assert_phase(const augur_phase *p, uint64_t weight, uint64_t units, int repeats) {
  assert_int_equal(p->weight, weight);
  assert_int_equal(p->nunits, units);
  assert_int_equal(!p->irregular, repeats);
}

/* 10 x A, then 5 x B, framed by init and finalize: exactly four phases in
 * both modes, with the seed's weights. */
static void known_structure(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 3);
  init_part(&s);
  for (int k = 0; k < 10; k++)
    phase_a(&s, 1000, 1000);
  for (int k = 0; k < 5; k++)
    phase_b(&s);
  finalize_part(&s);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->forced, 0);
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, 4);
  assert_phase(&p->phase[0], 1, 3, 0);  /* Init, Bcast, Comm_dup */
  assert_phase(&p->phase[1], 10, 3, 1); /* Isend, Recv, Wait: one tick each */
  assert_phase(&p->phase[2], 5, 3, 1);  /* Send, Recv, Allreduce */
  assert_phase(&p->phase[3], 1, 2, 0);  /* Barrier, Finalize */
  assert_int_equal(p->phase[1].events, 9);
  /* Where the repetitions are: one run each, right after one another. */
  assert_int_equal(p->phase[1].nruns, 1);
  assert_int_equal(p->phase[1].runs[0].first_unit, 3);
  assert_int_equal(p->phase[1].runs[0].count, 10);
  assert_int_equal(p->phase[2].nruns, 1);
  assert_int_equal(p->phase[2].runs[0].first_unit, 33);
  assert_int_equal(p->phase[2].runs[0].count, 5);
  assert_int_equal(p->phase[1].first_type, AUGUR_EV_ISEND);
  assert_int_equal(p->phase[1].last_type, AUGUR_EV_WAIT);
  assert_int_equal(p->phase[1].nranks, 3);
  assert_int_equal(p->phase[2].first_callsite, 30);
  assert_int_equal(p->phase[2].last_type, AUGUR_EV_ALLREDUCE);
  /* Phase times partition the run: the shares add up to 1. */
  double sum = 0;
  for (uint32_t i = 0; i < p->nphases; i++)
    sum += p->phase[i].share;
  assert_true(sum > 0.999 && sum < 1.001);
  /* Phase B owns the bursts after its calls: 2000 + 300 + 5 ns per rank, but
   * the last repetition's Allreduce-to-Barrier burst is 100: mean 2324. */
  assert_true(p->phase[2].work > 2323.9 && p->phase[2].work < 2324.1);
  augur_phases_free(p);

  /* EPAS: the same structure on every rank; one call per unit. */
  p = detect(lg, AUGUR_PHASES_RANK, -1);
  assert_int_equal(p->nphases, 4);
  assert_phase(&p->phase[1], 10, 3, 1);
  assert_phase(&p->phase[2], 5, 3, 1);
  assert_non_null(p->rank_error);
  assert_true(p->rank < 3);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* 10 x A then 5 x A with every message PCT % bigger: > 5 % splits, < 5 %
 * does not. */
static void volume_case(int pct, uint32_t want_phases, uint64_t want_weight) {
  static scene s;
  scene_init(&s, 2);
  init_part(&s);
  for (int k = 0; k < 10; k++)
    phase_a(&s, 10000, 1000);
  for (int k = 0; k < 5; k++)
    phase_a(&s, 10000 + 100 * (uint64_t)pct, 1000);
  finalize_part(&s);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, want_phases);
  assert_int_equal(p->phase[1].weight, want_weight);
  if (want_phases == 4) assert_int_equal(p->phase[2].weight, 5);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

static void volume_6pct_splits(void **state) {
  (void)state;
  volume_case(6, 4, 10);
}

static void volume_4pct_joins(void **state) {
  (void)state;
  volume_case(4, 3, 15);
}

/* Work: 10 x A with 1000 ns of compute, then 5 x A with 2000. Compared (0.85)
 * they are two phases; by default time-based work is not compared. */
static void work_similarity(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  init_part(&s);
  for (int k = 0; k < 10; k++)
    phase_a(&s, 1000, 1000);
  for (int k = 0; k < 5; k++)
    phase_a(&s, 1000, 2000);
  finalize_part(&s);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->work_counter, -1);
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, 0.85);
  assert_int_equal(p->nphases, 4);
  assert_int_equal(p->phase[1].weight, 10);
  assert_int_equal(p->phase[2].weight, 5);
  augur_phases_free(p);
  p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, 3);
  assert_int_equal(p->phase[1].weight, 15);
  assert_true(p->opts.work_sim == 0);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* Relevance: a phase below min_share of the run is not relevant. */
static void relevance(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  for (uint32_t r = 0; r < 2; r++)
    call(&s, r, AUGUR_EV_INIT, 0, 1000000, 10); /* 1 ms */
  for (int k = 0; k < 10; k++)
    phase_a(&s, 100, 100); /* ~ 2.5 us in all */
  for (uint32_t r = 0; r < 2; r++)
    call(&s, r, AUGUR_EV_FINALIZE, 10, 1000, 14);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, 3);
  assert_true(p->phase[0].relevant);
  assert_false(p->phase[1].relevant);
  assert_int_equal(p->phase[1].weight, 10);
  assert_int_equal(p->nrelevant, 1);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* A receive that completes before its send was recorded (a clock far off):
 * a dependency cycle that must be broken, not hang. */
static void cycle_is_broken(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  /* r0 waits for r1's send, r1 waits for r0's send, each before sending. */
  p2p(&s, 0, AUGUR_EV_RECV, 10, 10, 1, 1, 8);
  p2p(&s, 0, AUGUR_EV_SEND, 10, 10, 2, 1, 8);
  p2p(&s, 1, AUGUR_EV_RECV, 10, 10, 1, 0, 8);
  p2p(&s, 1, AUGUR_EV_SEND, 10, 10, 2, 0, 8);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->messages, 2);
  assert_true(lg->forced >= 1);
  for (uint32_t r = 0; r < 2; r++)
    assert_true(lt(lg, r, 1) > lt(lg, r, 0));
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* A damaged rank file: augur_logical_build fails with a message that names
 * the file, rather than cutting phases out of a trace with a hole. */
static void damaged_trace(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  init_part(&s);
  for (int k = 0; k < 10; k++)
    phase_a(&s, 1000, 1000);
  finalize_part(&s);
  char *dir;
  augur_logical_free(build(&s, &dir));
  const char *f = tu_rank_file(dir, 1, 2);
  tu_flip_byte(f, tu_file_size(f) - 20);
  augur_trace *t;
  augur_error err = {0};
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_logical *lg = NULL;
  assert_true(augur_logical_build(t, &lg, &err) < 0);
  assert_null(lg);
  assert_non_null(strstr(err.msg, "rank-00001.evt"));
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A repetition that differs every 4th time (B instead of A). Its period,
 * AAAB, is within --max-period: one phase of weight 3. With a max period
 * below it, A has weight 9 in three runs and the B stretches recur as one
 * phase of weight 3 (as for a Bcast every 100th iteration by default). */
static void recurring_stretch(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  init_part(&s);
  for (int k = 0; k < 12; k++)
    if (k % 4 == 3)
      phase_b(&s);
    else
      phase_a(&s, 1000, 1000);
  finalize_part(&s);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, 3);
  assert_phase(&p->phase[1], 3, 12, 1);
  augur_phases_free(p);

  augur_phase_opts o;
  augur_phase_opts_default(&o);
  o.max_period = 6;
  augur_error err;
  assert_int_equal(augur_phases_detect(lg, &o, &p, &err), 0);
  assert_int_equal(p->nphases, 4);
  assert_phase(&p->phase[1], 9, 3, 1);
  assert_int_equal(p->phase[1].nruns, 3);
  assert_int_equal(p->phase[1].runs[1].first_unit, 3 + 4 * 3);
  assert_int_equal(p->phase[1].runs[1].count, 3);
  assert_phase(&p->phase[2], 3, 3, 1);
  assert_int_equal(p->phase[2].first_type, AUGUR_EV_SEND);
  assert_int_equal(p->phase[2].nruns, 3);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* No calls at all: an empty logical trace and no phases, not a crash. */
static void empty_trace(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->nevents, 0);
  assert_int_equal(lg->nticks, 0);
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, 0);
  augur_phases_free(p);
  p = detect(lg, AUGUR_PHASES_RANK, -1);
  assert_int_equal(p->nphases, 0);
  char *js = augur_phases_json(p, lg, NULL);
  assert_non_null(js);
  free(js);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(logical_times),      cmocka_unit_test(known_structure),
      cmocka_unit_test(volume_6pct_splits), cmocka_unit_test(volume_4pct_joins),
      cmocka_unit_test(work_similarity),    cmocka_unit_test(relevance),
      cmocka_unit_test(cycle_is_broken),    cmocka_unit_test(damaged_trace),
      cmocka_unit_test(empty_trace),        cmocka_unit_test(recurring_stretch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
