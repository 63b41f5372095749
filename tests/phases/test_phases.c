/* PAS2P logical trace and phases on hand-built traces (cmocka): each case
 * writes rank files with the writer (exact times), builds the logical trace
 * through the reader and the matcher, and asserts exact ticks, phases and
 * weights. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/phases.h"
#include "phases_int.h"
#include "util.h"

#define MAXR   4
#define MAXEV  8704 /* widened_when_nothing_repeats: 14 iterations of 600 ticks */
#define NSITES 700

typedef struct scene {
  uint32_t nranks;
  augur_event v[MAXR][MAXEV];
  size_t n[MAXR];
  uint64_t now[MAXR]; /* each rank's clock: the next call starts after it */
  /* Communicators besides MPI_COMM_WORLD, defined on their member ranks. */
  uint32_t ncomms;
  augur_comm_def comm[4];
  int32_t members[4][MAXR];
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
    for (uint32_t c = 0; c < s->ncomms; c++)
      for (uint32_t k = 0; k < s->comm[c].size; k++)
        if (s->comm[c].members[k] == (int32_t)r)
          assert_int_equal(augur_writer_def_comm(w, &s->comm[c], &err), 0);
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

/* Relevance: a repeating phase below min_share of the run is not relevant;
 * a phase of weight 1 is, whatever its share (relevance by cost: the
 * teardown here, 1 us of a 1 ms run; kept_free). */
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
  assert_true(p->phase[0].relevant && !p->phase[0].kept_free);
  assert_true(p->phase[2].share < 0.01 && p->phase[2].weight == 1);
  assert_true(p->phase[2].relevant && p->phase[2].kept_free);
  assert_int_equal(p->nrelevant, 2);
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

/* Halo exchanges with MPI_Sendrecv (CoMD's): each rank sends to the other and receives
 * from it in one call, and once to itself (a periodic dimension of one rank). The send
 * leaves before the call's receive: no cycle (stop 37 broke every one, 820 of CoMD's 984
 * messages, and its phases were 97 instead of a handful), both ranks' exchange at one tick,
 * one tick after another: one phase of 4. */
static void sendrecv_exchange(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  for (int it = 0; it < 4; it++)
    for (uint32_t r = 0; r < 2; r++)
      for (int self = 0; self < 2; self++) {
        int32_t peer = self ? (int32_t)r : (int32_t)(1 - r);
        augur_event *e = call(&s, r, AUGUR_EV_SENDRECV, 100 + 50 * r, 20, 3 + (uint32_t)self);
        e->peer = peer;
        e->tag = 7;
        e->bytes = e->bytes_recv = 64;
        e->aux = 1;
        augur_event *sub = &s.v[r][s.n[r]++];
        *sub = tu_ev(AUGUR_EV_SUB_RECV, 0, 0);
        sub->comm = 0;
        sub->peer = peer;
        sub->tag = 7;
        sub->bytes_recv = 64;
      }
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->messages, 16);
  assert_int_equal(lg->forced, 0);
  for (uint64_t i = 0; i < lg->rank[0].n; i++) {
    assert_int_equal(lt(lg, 0, i), i);
    assert_int_equal(lt(lg, 1, i), i);
  }
  augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  assert_int_equal(p->nphases, 1);
  assert_int_equal(p->phase[0].weight, 4);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* Many ranks' edge arrays share one huge-page arena (logical.c); a rank
 * that receives more than its slice holds (a receive every fourth record)
 * moves its edges out. Ranks 1..7 each send FANIN_M messages to rank 0, which
 * receives them round robin: rank 0's call k waits for send k / 7 of rank
 * 1 + k % 7, so it takes tick k + 1 (its own order dominates). 840000
 * records: the slices add up to more than a huge page. */
#define FANIN_R 8
#define FANIN_M 60000

static void fan_in_edges(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, FANIN_R);
  augur_error err;
  int32_t world[FANIN_R];
  for (int32_t r = 0; r < FANIN_R; r++)
    world[r] = r;
  size_t n0 = (size_t)(FANIN_R - 1) * FANIN_M;
  augur_event *v = malloc(n0 * sizeof *v);
  assert_non_null(v);
  for (uint32_t r = 0; r < FANIN_R; r++) {
    size_t n = r ? FANIN_M : n0;
    for (size_t k = 0; k < n; k++) {
      uint64_t j = r ? k : k / (FANIN_R - 1), t = 1000 + 100 * j;
      if (r) {
        v[k] = tu_ev(AUGUR_EV_SEND, t, t + 10);
        v[k].peer = 0;
        v[k].bytes = 8;
      } else {
        t += 20 + 12 * (k % (FANIN_R - 1));
        v[k] = tu_ev(AUGUR_EV_RECV, t, t + 10);
        v[k].peer = (int32_t)(1 + k % (FANIN_R - 1));
        v[k].bytes_recv = 8;
      }
      v[k].comm = AUGUR_COMM_WORLD;
      v[k].tag = 7;
      v[k].callsite = r ? 1 : 2;
    }
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, FANIN_R, 0, &err), 0);
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = FANIN_R, .members = world};
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    assert_int_equal(augur_writer_events(w, 0, v, n, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  free(v);
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_logical *lg = NULL;
  if (augur_logical_build(t, &lg, &err)) fail_msg("%s", err.msg);
  augur_trace_close(t);
  assert_int_equal(lg->messages, n0);
  assert_int_equal(lg->forced, 0);
  assert_int_equal(lg->rank[0].n, n0);
  assert_int_equal(lg->nticks, n0 + 1);
  for (uint64_t k = 0; k < n0; k++)
    if (lt(lg, 0, k) != k + 1)
      fail_msg("rank 0 call %llu: tick %llu, want %llu", (unsigned long long)k,
               (unsigned long long)lt(lg, 0, k), (unsigned long long)k + 1);
  for (uint32_t r = 1; r < FANIN_R; r++)
    for (uint64_t j = 0; j < FANIN_M; j += 997)
      assert_int_equal(lt(lg, r, j), j);
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

/* A repetition that differs every 4th time (B instead of A). PAS2P's phases
 * are the smallest repeating units (issue 21, item 5): A has weight 9 in
 * three runs and the B stretches recur as one phase of weight 3, never the
 * super-period AAAB, whatever --max-period (within it or below it). */
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
  for (int pass = 0; pass < 2; pass++) {
    augur_phase_opts o;
    augur_phase_opts_default(&o);
    if (pass) o.max_period = 6;
    augur_phases *p;
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
  }
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* An iteration of 600 ticks (600 barriers at call sites of their own), 14 times: longer
 * than the 512 searched first. With max_period auto the search is widened (to 2048) and
 * finds it, weight 14, and says from what; with --max-period 512 given, nothing repeats
 * (as before the widening, what `augur phases` said of NPB LU-like sweeps on 4,096 ranks). */
static void widened_when_nothing_repeats(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 2);
  init_part(&s);
  for (int it = 0; it < 14; it++)
    for (uint32_t k = 0; k < 600; k++)
      coll(&s, AUGUR_EV_BARRIER, 50, 10, 100 + k);
  finalize_part(&s);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  for (int given = 0; given < 2; given++) {
    augur_phase_opts o;
    augur_phase_opts_default(&o);
    if (given) o.max_period = 512;
    augur_phases *p;
    augur_error err;
    assert_int_equal(augur_phases_detect(lg, &o, &p, &err), 0);
    const augur_phase *it = NULL;
    for (uint32_t i = 0; i < p->nphases; i++)
      if (p->phase[i].weight > 1) it = &p->phase[i];
    if (given) {
      assert_null(it);
      assert_int_equal(p->max_period_widened, 0);
      assert_int_equal(p->opts.max_period, 512);
    } else {
      assert_non_null(it);
      assert_int_equal(it->weight, 14);
      assert_int_equal(it->nunits, 600);
      assert_int_equal(p->max_period_widened, 512);
      assert_int_equal(p->opts.max_period, 2048);
      char *j = augur_phases_json(p, lg, NULL);
      assert_non_null(j);
      assert_non_null(strstr(j, "\"max_period_widened_from\": 512"));
      free(j);
    }
    augur_phases_free(p);
  }
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* Relevance by loop (issue 21, docs/phases.md "Relevance"): B every 4th
 * iteration of a loop of A's of 1 ms is 0.1 % of the run, below the 1 %
 * threshold, and relevant all the same (loop_of = A), whatever its time;
 * the same B first seen after A's 12th repetition, after the loop, or
 * less often than once per 12 A's (3 of 40) is left to its share (not
 * relevant). */
static void relevance_by_loop(void **state) {
  (void)state;
  for (int c = 0; c < 4; c++) {
    static scene s;
    scene_init(&s, 2);
    init_part(&s);
    int n = c == 1 ? 20 : c == 3 ? 40 : 12;
    for (int k = 0; k < n; k++)
      if (c == 0 ? k % 4 == 3 : c == 1 ? k >= 14 && k % 2 : c == 3 ? k % 13 == 9 : 0)
        phase_b(&s);
      else
        phase_a(&s, 1000, 1000000);
    if (c == 2)
      for (int k = 0; k < 3; k++)
        phase_b(&s);
    finalize_part(&s);
    char *dir;
    augur_logical *lg = build(&s, &dir);
    augur_phases *p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
    assert_int_equal(p->nphases, 4);
    const augur_phase *a = &p->phase[1], *b = &p->phase[2];
    assert_int_equal(b->weight, 3);
    assert_true(a->relevant && !a->loop_of);
    assert_true(b->share < 0.01);
    assert_int_equal(b->relevant, c == 0);
    assert_int_equal(b->loop_of, c == 0 ? a->id : 0);
    uint32_t by_share = 0, once = 0; /* once: weight 1 below the threshold, kept_free */
    for (uint32_t i = 0; i < p->nphases; i++) {
      by_share += p->phase[i].share >= 0.01;
      once += p->phase[i].share < 0.01 && p->phase[i].weight == 1;
      assert_int_equal(p->phase[i].kept_free, p->phase[i].share < 0.01 && p->phase[i].weight == 1);
    }
    assert_int_equal(p->nrelevant, by_share + (c == 0) + once);
    augur_phases_free(p);
    augur_logical_free(lg);
    tu_cleanup(dir);
  }
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
  p = detect(lg, AUGUR_PHASES_IRREGULAR, -1);
  assert_int_equal(p->nphases, 0);
  js = augur_phases_json(p, lg, NULL);
  assert_non_null(js);
  free(js);
  FILE *f = tmpfile();
  assert_non_null(f);
  augur_phases_print_text(f, p, lg, NULL);
  fclose(f);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* ---- Irregular mode (docs/phases.md "Irregular mode") ---- */

#define COMM_DUP_ID 0x100u
#define COMM_S0_ID  0x200u /* ranks 0, 1 */
#define COMM_S1_ID  0x201u /* ranks 2, 3 */

static void add_comm(scene *s, uint64_t id, uint64_t parent, uint32_t kind, const int32_t *members,
                     uint32_t size) {
  uint32_t c = s->ncomms++;
  memcpy(s->members[c], members, size * sizeof *members);
  s->comm[c] = (augur_comm_def){
      .id = id, .parent = parent, .kind = kind, .size = size, .members = s->members[c]};
}

/* The dup of world and two halves: the usual set for the irregular scenes. */
static void irr_comms(scene *s) {
  const int32_t all[4] = {0, 1, 2, 3}, lo[2] = {0, 1}, hi[2] = {2, 3};
  add_comm(s, COMM_DUP_ID, AUGUR_COMM_WORLD, AUGUR_COMM_KIND_DUP, all, 4);
  add_comm(s, COMM_S0_ID, COMM_DUP_ID, AUGUR_COMM_KIND_SPLIT, lo, 2);
  add_comm(s, COMM_S1_ID, COMM_DUP_ID, AUGUR_COMM_KIND_SPLIT, hi, 2);
}

static augur_event *on(augur_event *e, uint64_t comm) {
  e->comm = comm;
  return e;
}

/* A collective on COMM over all ranks of the scene. */
static void coll_on(scene *s, unsigned type, uint64_t comm, uint64_t compute, uint32_t site) {
  coll(s, type, compute, 20, site);
  for (uint32_t r = 0; r < s->nranks; r++)
    s->v[r][s->n[r] - 1].comm = comm;
}

/* Ranks A < B of one half exchange BYTES both ways on their split
 * communicator (peers are communicator ranks on disk: 0 and 1). */
static void half_exchange(scene *s, uint32_t a, uint32_t b, uint64_t bytes) {
  uint64_t comm = a < 2 ? COMM_S0_ID : COMM_S1_ID;
  uint64_t t = s->now[a] > s->now[b] ? s->now[a] : s->now[b];
  s->now[a] = s->now[b] = t;
  on(call(s, a, AUGUR_EV_SEND, 10, 10, 40), comm);
  s->v[a][s->n[a] - 1].peer = 1, s->v[a][s->n[a] - 1].tag = 9, s->v[a][s->n[a] - 1].bytes = bytes;
  on(call(s, b, AUGUR_EV_RECV, 15, 10, 41), comm);
  s->v[b][s->n[b] - 1].peer = 0, s->v[b][s->n[b] - 1].tag = 9;
  s->v[b][s->n[b] - 1].bytes_recv = bytes;
  t = s->now[a] > s->now[b] ? s->now[a] : s->now[b];
  s->now[a] = s->now[b] = t;
  on(call(s, b, AUGUR_EV_SEND, 10, 10, 42), comm);
  s->v[b][s->n[b] - 1].peer = 0, s->v[b][s->n[b] - 1].tag = 9, s->v[b][s->n[b] - 1].bytes = bytes;
  on(call(s, a, AUGUR_EV_RECV, 15, 10, 43), comm);
  s->v[a][s->n[a] - 1].peer = 1, s->v[a][s->n[a] - 1].tag = 9;
  s->v[a][s->n[a] - 1].bytes_recv = bytes;
}

/* One iteration I of the irregular scene: a ring Isend/Recv/Wait on the
 * dup (rank 1 receives from two call sites in turn), 1..3 exchanges of
 * growing size in the halves, compute, and a world barrier every 5th. */
static void irr_iteration(scene *s, int i) {
  uint32_t n = s->nranks;
  for (uint32_t r = 0; r < n; r++) {
    on(call(s, r, AUGUR_EV_ISEND, 5, 10, 20), COMM_DUP_ID);
    augur_event *e = &s->v[r][s->n[r] - 1];
    e->peer = (int32_t)((r + 1) % n), e->tag = 7, e->bytes = 1000, e->req = 0x7c00 + r;
  }
  for (uint32_t r = 0; r < n; r++) {
    uint32_t site = r == 1 && i % 2 ? 25 : 21; /* receives are not compared */
    on(call(s, r, AUGUR_EV_RECV, 5, 100, site), COMM_DUP_ID);
    augur_event *e = &s->v[r][s->n[r] - 1];
    e->peer = (int32_t)((r + n - 1) % n), e->tag = 7, e->bytes_recv = 1000;
  }
  for (uint32_t r = 0; r < n; r++) {
    call(s, r, AUGUR_EV_WAIT, 5, 10, 22)->aux = 1;
    augur_event *c = call(s, r, AUGUR_EV_COMPLETION, 0, 0, 0);
    c->t_start = c->t_end = 0;
    c->req = 0x7c00 + r;
    c->peer = (int32_t)((r + 1) % n);
    c->tag = 7;
    c->bytes = 1000;
  }
  int k = 1 + i % 3;
  for (int j = 0; j < k; j++) {
    half_exchange(s, 0, 1, 100 * (uint64_t)(j + 1));
    half_exchange(s, 2, 3, 100 * (uint64_t)(j + 1));
  }
  for (uint32_t r = 0; r < n; r++)
    s->now[r] += 20000; /* the iteration's compute: after the last call, before the next */
  if (i % 5 == 4) coll_on(s, AUGUR_EV_BARRIER, AUGUR_COMM_WORLD, 0, 30);
}

/* Communicators are numbered in order of first use (t_start, rank), not in
 * the order the merged stream shows them: with its slack (1 ms) rank 0,
 * first out of the barrier, hands out its next call on the lower half 400
 * us later before rank 2's on the upper half 10 us after the barrier. The
 * numbering must not depend on the interleaving (`phases --parallel`
 * interleaves the ranks otherwise: docs/parallel.md). */
static void comms_in_order_of_first_use(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 4);
  irr_comms(&s);
  coll_on(&s, AUGUR_EV_BARRIER, AUGUR_COMM_WORLD, 0, 30);
  s.now[0] += 400000;
  s.now[1] += 400000;
  half_exchange(&s, 2, 3, 100);
  half_exchange(&s, 0, 1, 100);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->order_hazards, 0);
  assert_int_equal(lg->ncomms, 3);
  assert_int_equal(lg->comm[0].id, AUGUR_COMM_WORLD);
  assert_int_equal(lg->comm[1].id, COMM_S1_ID);
  assert_int_equal(lg->comm[2].id, COMM_S0_ID);
  for (uint32_t r = 0; r < 4; r++) /* the calls' indexes follow */
    for (uint64_t i = 0; i < lg->rank[r].n; i++)
      assert_int_equal(lg->comm[lg->rank[r].ev[i].comm - 1].id,
                       i ? (r < 2 ? COMM_S0_ID : COMM_S1_ID) : AUGUR_COMM_WORLD);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* Past the 255th communicator the calls get no index, and which ones got
 * one is the stream's order: an order hazard (augur_logical.order_hazards,
 * after which `phases --parallel` builds again serially). 300 duplicates
 * of world, a barrier on each by both ranks. */
static void comms_past_255_are_a_hazard(void **state) {
  (void)state;
  enum { NC = 300 };
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  int32_t both[2] = {0, 1};
  static augur_event ev[NC];
  for (uint32_t r = 0; r < 2; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = 2, .members = both};
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    for (uint32_t c = 0; c < NC; c++) {
      augur_comm_def d = {.id = 0x1000 + c,
                          .parent = AUGUR_COMM_WORLD,
                          .kind = AUGUR_COMM_KIND_DUP,
                          .size = 2,
                          .members = both};
      assert_int_equal(augur_writer_def_comm(w, &d, &err), 0);
      ev[c] = tu_ev(AUGUR_EV_BARRIER, 1000 + 100 * (uint64_t)c, 1050 + 100 * (uint64_t)c);
      ev[c].comm = 0x1000 + c;
      ev[c].peer = AUGUR_PEER_NONE;
      ev[c].tag = AUGUR_TAG_NONE;
    }
    assert_int_equal(augur_writer_events(w, 0, ev, NC, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_logical *lg = NULL;
  if (augur_logical_build(t, &lg, &err)) fail_msg("%s", err.msg);
  assert_int_equal(lg->ncomms, AUGUR_LT_MAX_COMMS);
  assert_true(lg->order_hazards > 0);
  assert_int_equal(lg->collectives, NC);
  augur_logical_free(lg);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static augur_phases *detect_irregular(const augur_logical *lg) {
  return detect(lg, AUGUR_PHASES_IRREGULAR, -1);
}

/* The dup groups 10 repetitions per rank, world 2 (a barrier every 5th
 * iteration), the halves do not contain every rank: the dup is
 * characteristic. Receives and the halves' calls are not compared (rank 1
 * alternates receive sites; the halves exchange 1..3 times), so every rank
 * has one iteration phase of weight 10 whose bytes include the halves'
 * traffic; one global phase. Global mode, comparing every call, finds no
 * phase of weight 10. */
static void irregular_structure(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 4);
  irr_comms(&s);
  for (uint32_t r = 0; r < 4; r++)
    call(&s, r, AUGUR_EV_INIT, 0, 1000, 10);
  for (int i = 0; i < 10; i++)
    irr_iteration(&s, i);
  for (uint32_t r = 0; r < 4; r++)
    call(&s, r, AUGUR_EV_FINALIZE, 0, 300, 14);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  assert_int_equal(lg->forced, 0);
  augur_phases *p = detect_irregular(lg);
  assert_int_equal(p->mode, AUGUR_PHASES_IRREGULAR);
  assert_int_equal(p->irr_ncomms, 2); /* world and the dup */
  assert_true(p->irr_comm >= 1 && p->irr_comm <= lg->ncomms);
  assert_int_equal(lg->comm[p->irr_comm - 1].id, COMM_DUP_ID);
  for (uint32_t i = 0; i < p->irr_ncomms; i++) {
    const augur_irr_comm *c = &p->irr_comms[i];
    uint64_t id = lg->comm[c->comm - 1].id;
    assert_int_equal(c->score, id == COMM_DUP_ID ? 40 : 8);
    assert_int_equal(c->level, id == COMM_DUP_ID ? 1 : 0);
  }
  assert_int_equal(p->nphases, 1);
  const augur_phase *ph = &p->phase[0];
  for (uint32_t r = 0; r < 4; r++) {
    assert_int_equal(ph->rank_weight[r], 10);
    assert_true(ph->rank_tick_first[r] >= 1);
  }
  assert_int_equal(ph->weight, 10);
  assert_int_equal(ph->first_type, AUGUR_EV_ISEND);
  /* Bytes per repetition, all ranks: the dup's Isend, Recv and Wait (3000
   * per rank) plus the halves' 100 k (k + 1) per rank for k = 1,2,3,1,...
   * (6200 over 10) plus two 16-byte barriers: 4 x (3000 + 620 + 3.2). */
  assert_true(ph->bytes > 14492.8 - 1e-6 && ph->bytes < 14492.8 + 1e-6);
  /* PET: one rank's relevant phases, the largest. */
  double best = 0;
  for (uint32_t r = 0; r < 4; r++)
    if (ph->rank_total_ns[r] > best) best = ph->rank_total_ns[r];
  assert_true(p->pet_ns == best);
  /* Both views name the characteristic communicator and list every rank. */
  char *js = augur_phases_json(p, lg, NULL);
  assert_non_null(js);
  assert_non_null(strstr(js, "\"mode\": \"irregular\""));
  assert_non_null(strstr(js, "\"candidates\""));
  free(js);
  FILE *f = tmpfile();
  assert_non_null(f);
  augur_phases_print_text(f, p, lg, NULL);
  char text[8192];
  rewind(f);
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = 0;
  fclose(f);
  assert_non_null(strstr(text, "characteristic communicator: dup 0x100"));
  assert_non_null(strstr(text, "PHASE_TABLE"));
  augur_phases_free(p);

  p = detect(lg, AUGUR_PHASES_GLOBAL, -1);
  for (uint32_t i = 0; i < p->nphases; i++)
    assert_true(p->phase[i].weight < 10);
  augur_phases_free(p);
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* A tie in phases grouped: the communicator at the lower level wins, even
 * when the other one was used first. Then world loses when it groups fewer. */
static void irregular_tie_lowest_level(void **state) {
  (void)state;
  for (int variant = 0; variant < 2; variant++) {
    static scene s;
    scene_init(&s, 4);
    irr_comms(&s);
    for (uint32_t r = 0; r < 4; r++)
      on(call(&s, r, AUGUR_EV_INIT, 0, 1000, 10), AUGUR_COMM_NONE);
    for (int i = 0; i < 6; i++) {
      coll_on(&s, AUGUR_EV_BARRIER, COMM_DUP_ID, 5000, 31); /* the dup is used first */
      if (variant == 0 || i % 2) coll_on(&s, AUGUR_EV_BARRIER, AUGUR_COMM_WORLD, 5000, 32);
    }
    char *dir;
    augur_logical *lg = build(&s, &dir);
    assert_int_equal(lg->comm[0].id, COMM_DUP_ID);
    augur_phases *p = detect_irregular(lg);
    assert_int_equal(p->irr_ncomms, 2);
    assert_int_equal(lg->comm[p->irr_comm - 1].id, variant == 0 ? AUGUR_COMM_WORLD : COMM_DUP_ID);
    augur_phases_free(p);
    augur_logical_free(lg);
    tu_cleanup(dir);
  }
}

/* No communicator holds every rank: a clear error, not a crash. */
static void irregular_no_candidate(void **state) {
  (void)state;
  static scene s;
  scene_init(&s, 4);
  irr_comms(&s);
  for (uint32_t r = 0; r < 4; r++)
    on(call(&s, r, AUGUR_EV_INIT, 0, 1000, 10), AUGUR_COMM_NONE);
  half_exchange(&s, 0, 1, 64);
  half_exchange(&s, 2, 3, 64);
  char *dir;
  augur_logical *lg = build(&s, &dir);
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  o.mode = AUGUR_PHASES_IRREGULAR;
  augur_phases *p = NULL;
  augur_error err;
  assert_int_equal(augur_phases_detect(lg, &o, &p, &err), AUGUR_E_ARG);
  assert_null(p);
  assert_non_null(strstr(err.msg, "no communicator contains every rank"));
  augur_logical_free(lg);
  tu_cleanup(dir);
}

/* Blobs of 6 points around known centres (jitter < 0.3 units). */
static uint32_t blobs(double *pts, const double (*centre)[2], uint32_t k, uint32_t *truth) {
  uint64_t x = 12345;
  uint32_t n = 0;
  for (uint32_t i = 0; i < 6; i++)
    for (uint32_t c = 0; c < k; c++) {
      double j[2];
      for (int d = 0; d < 2; d++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        j[d] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * 0.6;
      }
      pts[2 * n] = centre[c][0] + j[0];
      pts[2 * n + 1] = centre[c][1] + j[1];
      truth[n++] = c;
    }
  return n;
}

/* Same partition: two points share a label iff they share a truth. */
static void assert_partition(const uint32_t *label, const uint32_t *truth, uint32_t n) {
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = 0; b < n; b++)
      assert_int_equal(label[a] == label[b], truth[a] == truth[b]);
}

static void kmeans_elbow_known_k(void **state) {
  (void)state;
  static const double c1[][2] = {{3, 24}};
  static const double c2[][2] = {{0, 24}, {0, 28}};
  static const double c3[][2] = {{0, 30}, {1, 25}, {6, 27}};
  static const double c4[][2] = {{0, 20}, {5, 20}, {0, 25}, {5, 25}};
  static const double cn[][2] = {{0, 0}, {0, 3}, {0, 40}}; /* one gap dwarfs the other */
  const double(*sets[])[2] = {c1, c2, c3, c4, cn};
  uint32_t ks[] = {1, 2, 3, 4, 3};
  for (int t = 0; t < 5; t++) {
    double pts[2 * 64], sse[16], rev[2 * 64];
    uint32_t truth[64], label[64], label2[64];
    uint32_t n = blobs(pts, sets[t], ks[t], truth);
    uint32_t k = augur_kmeans_elbow_(pts, n, AUGUR_KMEANS_KMAX, label, sse);
    assert_int_equal(k, ks[t]);
    assert_partition(label, truth, n);
    for (uint32_t i = 1; i < AUGUR_KMEANS_KMAX; i++)
      assert_true(sse[i] <= sse[i - 1] + 1e-9); /* SSE falls with K */
    /* Deterministic: the same labels again, and the same partition (the
     * same K) when the points come in the opposite order. */
    assert_int_equal(augur_kmeans_elbow_(pts, n, AUGUR_KMEANS_KMAX, label2, sse), ks[t]);
    assert_memory_equal(label, label2, n * sizeof *label);
    uint32_t rtruth[64];
    for (uint32_t i = 0; i < n; i++) {
      rev[2 * i] = pts[2 * (n - 1 - i)];
      rev[2 * i + 1] = pts[2 * (n - 1 - i) + 1];
      rtruth[i] = truth[n - 1 - i];
    }
    assert_int_equal(augur_kmeans_elbow_(rev, n, AUGUR_KMEANS_KMAX, label2, sse), ks[t]);
    assert_partition(label2, rtruth, n);
    /* Labels are numbered in order of each cluster's first point. */
    assert_int_equal(label[0], 0);
  }
  /* Degenerate inputs. */
  double one[2] = {1, 1}, same[8] = {2, 2, 2, 2, 2, 2, 2, 2}, sse[16];
  uint32_t lab[4];
  assert_int_equal(augur_kmeans_elbow_(one, 1, AUGUR_KMEANS_KMAX, lab, sse), 1);
  assert_int_equal(augur_kmeans_elbow_(same, 4, AUGUR_KMEANS_KMAX, lab, sse), 1);
  assert_int_equal(augur_kmeans_(same, 4, 3, lab), 0); /* fewer distinct points than K */
  assert_int_equal(lab[3], 0);
}

static void ln_without_libm(void **state) {
  (void)state;
  assert_true(augur_ln_(1) == 0);
  assert_true(augur_ln_(2) > 0.6931471805599 && augur_ln_(2) < 0.6931471805600);
  assert_true(augur_ln_(1e9) > 20.7232658369 && augur_ln_(1e9) < 20.7232658370);
  assert_true(augur_ln_(0.125) > -2.0794415417 && augur_ln_(0.125) < -2.0794415416);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(logical_times),
      cmocka_unit_test(known_structure),
      cmocka_unit_test(volume_6pct_splits),
      cmocka_unit_test(volume_4pct_joins),
      cmocka_unit_test(work_similarity),
      cmocka_unit_test(relevance),
      cmocka_unit_test(cycle_is_broken),
      cmocka_unit_test(sendrecv_exchange),
      cmocka_unit_test(fan_in_edges),
      cmocka_unit_test(damaged_trace),
      cmocka_unit_test(empty_trace),
      cmocka_unit_test(recurring_stretch),
      cmocka_unit_test(widened_when_nothing_repeats),
      cmocka_unit_test(irregular_structure),
      cmocka_unit_test(irregular_tie_lowest_level),
      cmocka_unit_test(irregular_no_candidate),
      cmocka_unit_test(comms_in_order_of_first_use),
      cmocka_unit_test(comms_past_255_are_a_hazard),
      cmocka_unit_test(kmeans_elbow_known_k),
      cmocka_unit_test(ln_without_libm),
  };
  const struct CMUnitTest issue21[] = {cmocka_unit_test(relevance_by_loop)};
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  return failed + cmocka_run_group_tests(issue21, NULL, NULL);
}
