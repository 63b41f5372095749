/* The shared matcher on hand-built traces (cmocka): each case writes rank
 * files with the writer, reads them back through augur_stream_merged (so the
 * reader's completion pairing and peer translation take part) and asserts
 * the exact ends of every matched message and collective instance. Every
 * call is fed with a tag (augur_match_feed_call); each end and member must
 * carry the tag of the call whose times it has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/match.h"
#include "util.h"

#define NR    4
#define SPLIT 0x5151ull /* world ranks 1 and 3 */

/* Tags run() feeds: rank * TAGS_PER_RANK + the rank's call index. */
#define TAGS_PER_RANK 32

/* Events per rank, written by build(). */
typedef struct scene {
  augur_event v[NR][32];
  size_t n[NR];
} scene;

typedef struct got {
  augur_message m[16];
  size_t n;
  augur_coll_instance c[8];
  augur_coll_member cm[8][NR];
  size_t nc;
  augur_match_counts cnt;
  uint64_t call_t[NR][TAGS_PER_RANK][2]; /* per rank and tag: the tagged call's start and end */
  size_t ncalls[NR];
} got;

static void assert_tagged(const got *g, uint32_t rank, uint64_t call, uint64_t t0, uint64_t t1) {
  assert_true(call != AUGUR_MATCH_NO_CALL);
  assert_int_equal(call / TAGS_PER_RANK, rank);
  assert_true(call % TAGS_PER_RANK < g->ncalls[rank]);
  assert_int_equal(g->call_t[rank][call % TAGS_PER_RANK][0], t0);
  assert_int_equal(g->call_t[rank][call % TAGS_PER_RANK][1], t1);
}

static augur_event *add(scene *s, uint32_t rank, unsigned type, uint64_t t0, uint64_t t1) {
  augur_event *e = &s->v[rank][s->n[rank]++];
  *e = tu_ev(type, t0, t1);
  e->comm = augur_event_is_sub(type) ? 0 : AUGUR_COMM_WORLD;
  return e;
}

static augur_event *p2p(scene *s, uint32_t rank, unsigned type, uint64_t t0, uint64_t t1,
                        int32_t peer, int32_t tag, uint64_t bytes) {
  augur_event *e = add(s, rank, type, t0, t1);
  e->peer = peer;
  e->tag = tag;
  if (augur_event_is_p2p_send(type))
    e->bytes = bytes;
  else
    e->bytes_recv = bytes;
  return e;
}

/* A Wait (or any completion call) with one COMPLETION of REQ. */
static augur_event *wait1(scene *s, uint32_t rank, unsigned type, uint64_t t0, uint64_t t1,
                          uint64_t req) {
  add(s, rank, type, t0, t1)->aux = 1;
  augur_event *c = add(s, rank, AUGUR_EV_COMPLETION, 0, 0);
  c->req = req;
  c->peer = 0;
  c->tag = 0;
  return c;
}

static int on_msg(void *ctx, const augur_message *m) {
  got *g = ctx;
  assert_true(g->n < 16);
  assert_tagged(g, m->send.rank, m->send.call, m->send.t_start, m->send.t_end);
  assert_tagged(g, m->recv.rank, m->recv.call, m->recv.t_start, m->recv.t_end);
  g->m[g->n++] = *m;
  return AUGUR_OK;
}

static int on_coll(void *ctx, const augur_coll_instance *c) {
  got *g = ctx;
  assert_true(g->nc < 8 && c->nmembers <= NR);
  for (uint32_t k = 0; k < c->nmembers; k++) {
    const augur_coll_member *mb = &c->members[k];
    assert_tagged(g, mb->rank, mb->call, mb->t_start, mb->t_end);
  }
  g->c[g->nc] = *c;
  memcpy(g->cm[g->nc], c->members, c->nmembers * sizeof *c->members);
  g->nc++;
  return AUGUR_OK;
}

/* Writes the scene as a 4-rank trace, matches its merged stream into G. */
static void run(const scene *s, got *g) {
  memset(g, 0, sizeof *g);
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w = tu_open_world(dir, r, NR);
    int32_t split[2] = {1, 3};
    augur_comm_def cs = {
        .id = SPLIT, .parent = 1, .kind = AUGUR_COMM_KIND_SPLIT, .size = 2, .members = split};
    if (r == 1 || r == 3) assert_int_equal(augur_writer_def_comm(w, &cs, &err), 0);
    if (s->n[r]) assert_int_equal(augur_writer_events(w, 0, s->v[r], s->n[r], &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_matcher *m = augur_matcher_new(t, on_msg, on_coll, g);
  augur_stream *st;
  assert_int_equal(augur_stream_merged(t, &st, &err), 0);
  augur_event ev;
  int rc;
  while ((rc = augur_stream_next(st, &ev, &err)) == 1) {
    uint64_t tag = 0xdead; /* a sub-record's tag is ignored: it takes its parent's */
    if (!augur_event_is_sub(ev.type)) {
      assert_true(ev.rank < NR && g->ncalls[ev.rank] < TAGS_PER_RANK);
      size_t i = g->ncalls[ev.rank]++;
      g->call_t[ev.rank][i][0] = ev.t_start;
      g->call_t[ev.rank][i][1] = ev.t_end;
      tag = ev.rank * TAGS_PER_RANK + i;
    }
    assert_int_equal(augur_match_feed_call(m, &ev, tag, &err), AUGUR_OK);
  }
  assert_int_equal(rc, 0);
  augur_match_counts_get(m, &g->cnt);
  augur_stream_close(st);
  augur_matcher_free(m);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void assert_end(const augur_match_end *e, uint32_t rank, uint64_t post, uint64_t t0,
                       uint64_t t1, int kind) {
  assert_int_equal(e->rank, rank);
  assert_int_equal(e->t_post, post);
  assert_int_equal(e->t_start, t0);
  assert_int_equal(e->t_end, t1);
  assert_int_equal(e->kind, kind);
}

static void assert_clean(const got *g) {
  assert_int_equal(g->cnt.unmatched_send, 0);
  assert_int_equal(g->cnt.unmatched_recv, 0);
  assert_int_equal(g->cnt.open_recv, 0);
}

static void blocking_pair(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 0, AUGUR_EV_SSEND, 100, 110, 1, 5, 64);
  p2p(&s, 1, AUGUR_EV_RECV, 105, 130, 0, 5, 64);
  run(&s, &g);
  assert_int_equal(g.n, 1);
  assert_int_equal(g.m[0].sender, 0);
  assert_int_equal(g.m[0].receiver, 1);
  assert_int_equal(g.m[0].tag, 5);
  assert_int_equal(g.m[0].comm, AUGUR_COMM_WORLD);
  assert_int_equal(g.m[0].bytes, 64);
  assert_end(&g.m[0].send, 0, 100, 100, 110, AUGUR_MATCH_BLOCKING);
  assert_end(&g.m[0].recv, 1, 105, 105, 130, AUGUR_MATCH_BLOCKING);
  assert_int_equal(g.m[0].send.sync, 1);
  assert_int_equal(g.m[0].recv.bytes, 64);
  assert_clean(&g);
}

/* The receive's end is the Waitall that completed it; its post the Irecv. */
static void isend_irecv_waitall(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 1, AUGUR_EV_IRECV, 90, 95, 0, 1, 32)->req = 0xB;
  p2p(&s, 0, AUGUR_EV_ISEND, 100, 105, 1, 1, 32)->req = 0xA;
  augur_event *c = wait1(&s, 1, AUGUR_EV_WAITALL, 150, 300, 0xB);
  c->tag = 1; /* the status */
  c->bytes_recv = 32;
  wait1(&s, 0, AUGUR_EV_WAIT, 200, 210, 0xA);
  run(&s, &g);
  assert_int_equal(g.n, 1);
  assert_end(&g.m[0].send, 0, 100, 100, 105, AUGUR_MATCH_NONBLOCKING);
  assert_end(&g.m[0].recv, 1, 90, 150, 300, AUGUR_MATCH_NONBLOCKING);
  assert_int_equal(g.m[0].recv.type, AUGUR_EV_IRECV);
  assert_int_equal(g.m[0].send.type, AUGUR_EV_ISEND);
  assert_clean(&g);
}

/* Wildcards take part under the recorded status: the Irecv(ANY, ANY) got
 * rank 1's tag-8 message, the blocking Recv(ANY) rank 0's. */
static void any_source(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  augur_event *ir = p2p(&s, 2, AUGUR_EV_IRECV, 50, 55, AUGUR_PEER_ANY, AUGUR_TAG_ANY, 8);
  ir->req = 0xC;
  ir->flags = AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG;
  p2p(&s, 0, AUGUR_EV_SEND, 100, 110, 2, 7, 4);
  p2p(&s, 1, AUGUR_EV_SEND, 120, 130, 2, 8, 8);
  augur_event *c = wait1(&s, 2, AUGUR_EV_WAIT, 140, 160, 0xC);
  c->peer = 1;
  c->tag = 8;
  c->bytes_recv = 8;
  p2p(&s, 2, AUGUR_EV_RECV, 170, 180, 0, 7, 4)->flags = AUGUR_F_ANY_SOURCE;
  run(&s, &g);
  assert_int_equal(g.n, 2);
  assert_int_equal(g.m[0].sender, 1);
  assert_int_equal(g.m[0].tag, 8);
  assert_end(&g.m[0].send, 1, 120, 120, 130, AUGUR_MATCH_BLOCKING);
  assert_end(&g.m[0].recv, 2, 50, 140, 160, AUGUR_MATCH_NONBLOCKING);
  assert_int_equal(g.m[1].sender, 0);
  assert_int_equal(g.m[1].tag, 7);
  assert_end(&g.m[1].recv, 2, 170, 170, 180, AUGUR_MATCH_BLOCKING);
  assert_clean(&g);
}

static void fifo_same_channel(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 0, AUGUR_EV_SEND, 100, 110, 1, 3, 1);
  p2p(&s, 0, AUGUR_EV_SEND, 200, 210, 1, 3, 2);
  p2p(&s, 1, AUGUR_EV_RECV, 150, 220, 0, 3, 1);
  p2p(&s, 1, AUGUR_EV_RECV, 250, 260, 0, 3, 2);
  run(&s, &g);
  assert_int_equal(g.n, 2);
  assert_int_equal(g.m[0].bytes, 1);
  assert_end(&g.m[0].send, 0, 100, 100, 110, AUGUR_MATCH_BLOCKING);
  assert_end(&g.m[0].recv, 1, 150, 150, 220, AUGUR_MATCH_BLOCKING);
  assert_int_equal(g.m[1].bytes, 2);
  assert_end(&g.m[1].send, 0, 200, 200, 210, AUGUR_MATCH_BLOCKING);
  assert_end(&g.m[1].recv, 1, 250, 250, 260, AUGUR_MATCH_BLOCKING);
  assert_int_equal(g.m[0].id, 0);
  assert_int_equal(g.m[1].id, 1);
  assert_clean(&g);
}

/* Non-overtaking holds per tag only: tag 2 is received first. */
static void tags_overtake(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 0, AUGUR_EV_BSEND, 100, 110, 1, 1, 10);
  p2p(&s, 0, AUGUR_EV_BSEND, 200, 210, 1, 2, 20);
  p2p(&s, 1, AUGUR_EV_RECV, 300, 310, 0, 2, 20);
  p2p(&s, 1, AUGUR_EV_RECV, 400, 410, 0, 1, 10);
  run(&s, &g);
  assert_int_equal(g.n, 2);
  assert_int_equal(g.m[0].tag, 2);
  assert_int_equal(g.m[0].send.t_start, 200);
  assert_int_equal(g.m[0].recv.t_start, 300);
  assert_int_equal(g.m[1].tag, 1);
  assert_int_equal(g.m[1].send.t_start, 100);
  assert_int_equal(g.m[1].recv.t_start, 400);
  assert_clean(&g);
}

static void sendrecv(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  augur_event *a = p2p(&s, 0, AUGUR_EV_SENDRECV, 100, 150, 1, 4, 16);
  a->aux = 1;
  a->bytes_recv = 24;
  p2p(&s, 0, AUGUR_EV_SUB_RECV, 0, 0, 1, 5, 24);
  augur_event *b = p2p(&s, 1, AUGUR_EV_SENDRECV_REPLACE, 120, 160, 0, 5, 24);
  b->aux = 1;
  b->bytes_recv = 16;
  p2p(&s, 1, AUGUR_EV_SUB_RECV, 0, 0, 0, 4, 16);
  run(&s, &g);
  assert_int_equal(g.n, 2);
  /* Rank 0's SUB_RECV waits from 100; rank 1's send at 120 completes it
   * first, then rank 1's SUB_RECV meets rank 0's waiting send. */
  assert_int_equal(g.m[0].sender, 1);
  assert_int_equal(g.m[0].tag, 5);
  assert_int_equal(g.m[0].bytes, 24);
  assert_end(&g.m[0].send, 1, 120, 120, 160, AUGUR_MATCH_BLOCKING);
  assert_end(&g.m[0].recv, 0, 100, 100, 150, AUGUR_MATCH_BLOCKING);
  assert_int_equal(g.m[0].recv.type, AUGUR_EV_SUB_RECV);
  assert_int_equal(g.m[0].send.type, AUGUR_EV_SENDRECV_REPLACE);
  assert_int_equal(g.m[1].sender, 0);
  assert_int_equal(g.m[1].tag, 4);
  assert_int_equal(g.m[1].bytes, 16);
  assert_int_equal(g.m[1].recv.bytes, 16);
  assert_end(&g.m[1].send, 0, 100, 100, 150, AUGUR_MATCH_BLOCKING);
  assert_end(&g.m[1].recv, 1, 120, 120, 160, AUGUR_MATCH_BLOCKING);
  assert_clean(&g);
}

/* Persistent send and receive started twice: two messages, each send at
 * its Start, each receive posted at its Start and ended by its Wait. */
static void persistent_twice(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 0, AUGUR_EV_SEND_INIT, 10, 20, 1, 6, 8)->req = 0xD;
  p2p(&s, 1, AUGUR_EV_RECV_INIT, 15, 25, 0, 6, 8)->req = 0xE;
  add(&s, 0, AUGUR_EV_START, 200, 205)->req = 0xD;
  add(&s, 1, AUGUR_EV_START, 210, 215)->req = 0xE;
  wait1(&s, 0, AUGUR_EV_WAIT, 300, 305, 0xD);
  augur_event *c = wait1(&s, 1, AUGUR_EV_WAIT, 310, 350, 0xE);
  c->tag = 6;
  c->bytes_recv = 8;
  add(&s, 0, AUGUR_EV_STARTALL, 400, 405)->aux = 1;
  add(&s, 0, AUGUR_EV_SUB_START, 0, 0)->req = 0xD;
  add(&s, 1, AUGUR_EV_START, 410, 415)->req = 0xE;
  wait1(&s, 0, AUGUR_EV_WAIT, 500, 505, 0xD);
  c = wait1(&s, 1, AUGUR_EV_TEST, 510, 550, 0xE);
  c->tag = 6;
  c->bytes_recv = 8;
  add(&s, 0, AUGUR_EV_REQUEST_FREE, 600, 601)->req = 0xD;
  add(&s, 1, AUGUR_EV_REQUEST_FREE, 600, 601)->req = 0xE;
  run(&s, &g);
  assert_int_equal(g.n, 2);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(g.m[i].tag, 6);
    assert_int_equal(g.m[i].bytes, 8);
    assert_int_equal(g.m[i].send.type, AUGUR_EV_SEND_INIT);
    assert_int_equal(g.m[i].recv.type, AUGUR_EV_RECV_INIT);
  }
  assert_end(&g.m[0].send, 0, 200, 200, 205, AUGUR_MATCH_PERSISTENT);
  assert_end(&g.m[0].recv, 1, 210, 310, 350, AUGUR_MATCH_PERSISTENT);
  assert_end(&g.m[1].send, 0, 400, 400, 405, AUGUR_MATCH_PERSISTENT);
  assert_end(&g.m[1].recv, 1, 410, 510, 550, AUGUR_MATCH_PERSISTENT);
  assert_clean(&g);
}

static void mprobe_mrecv(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 0, AUGUR_EV_SEND, 100, 110, 1, 9, 12);
  p2p(&s, 1, AUGUR_EV_MPROBE, 120, 130, 0, 9, 12)->req = 0x5;
  p2p(&s, 1, AUGUR_EV_MRECV, 140, 150, 0, 9, 12)->req = 0x5;
  run(&s, &g);
  assert_int_equal(g.n, 1);
  assert_end(&g.m[0].recv, 1, 140, 140, 150, AUGUR_MATCH_BLOCKING);
  assert_int_equal(g.m[0].recv.type, AUGUR_EV_MRECV);
  assert_clean(&g);
}

/* A trace cut short: a send nobody received, a receive whose send is
 * missing, an Irecv never completed. */
static void leftovers(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  p2p(&s, 0, AUGUR_EV_SEND, 100, 110, 1, 11, 1);
  p2p(&s, 1, AUGUR_EV_IRECV, 100, 110, 0, 12, 1)->req = 0x9;
  p2p(&s, 1, AUGUR_EV_RECV, 200, 210, 2, 13, 1);
  p2p(&s, 3, AUGUR_EV_SEND, 300, 310, AUGUR_PEER_PROC_NULL, 1, 1);
  run(&s, &g);
  assert_int_equal(g.n, 0);
  assert_int_equal(g.cnt.messages, 0);
  assert_int_equal(g.cnt.unmatched_send, 1);
  assert_int_equal(g.cnt.unmatched_recv, 1);
  assert_int_equal(g.cnt.open_recv, 1);
}

/* Collectives: instances of the split communicator {1, 3} form from those
 * two ranks alone; the world barrier waits for all four. */
static void collectives_split(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  augur_event *e = add(&s, 1, AUGUR_EV_ALLREDUCE, 100, 200);
  e->comm = SPLIT, e->bytes = e->bytes_recv = 8;
  e = add(&s, 3, AUGUR_EV_ALLREDUCE, 150, 210);
  e->comm = SPLIT, e->bytes = e->bytes_recv = 8;
  e = add(&s, 3, AUGUR_EV_BCAST, 220, 230); /* root: split rank 1 = world 3 */
  e->comm = SPLIT, e->peer = 1, e->bytes = 64, e->flags = AUGUR_F_ROOT;
  for (uint32_t r = 0; r < NR; r++)
    add(&s, r, AUGUR_EV_BARRIER, 300 + 10 * r, 400)->peer = AUGUR_PEER_NONE;
  e = add(&s, 1, AUGUR_EV_BCAST, 500, 510);
  e->comm = SPLIT, e->peer = 1, e->bytes_recv = 64;
  run(&s, &g);
  assert_int_equal(g.nc, 3);
  assert_int_equal(g.cnt.collectives, 3);
  assert_int_equal(g.cnt.open_coll, 0);
  /* split #0: Allreduce, members in comm rank order (world 1, world 3) */
  assert_int_equal(g.c[0].comm, SPLIT);
  assert_int_equal(g.c[0].index, 0);
  assert_int_equal(g.c[0].type, AUGUR_EV_ALLREDUCE);
  assert_int_equal(g.c[0].nmembers, 2);
  assert_int_equal(g.c[0].mixed, 0);
  assert_int_equal(g.cm[0][0].rank, 1);
  assert_int_equal(g.cm[0][0].t_start, 100);
  assert_int_equal(g.cm[0][0].t_end, 200);
  assert_int_equal(g.cm[0][1].rank, 3);
  assert_int_equal(g.cm[0][1].t_start, 150);
  assert_int_equal(g.cm[0][1].t_end, 210);
  assert_int_equal(g.cm[0][1].bytes, 8);
  /* world #0: the barrier, complete at rank 3's arrival */
  assert_int_equal(g.c[1].comm, AUGUR_COMM_WORLD);
  assert_int_equal(g.c[1].index, 0);
  assert_int_equal(g.c[1].nmembers, 4);
  for (uint32_t r = 0; r < NR; r++) {
    assert_int_equal(g.cm[1][r].rank, r);
    assert_int_equal(g.cm[1][r].t_start, 300 + 10 * r);
  }
  /* split #1: the Bcast rooted at world rank 3, complete at rank 1's call */
  assert_int_equal(g.c[2].comm, SPLIT);
  assert_int_equal(g.c[2].index, 1);
  assert_int_equal(g.c[2].type, AUGUR_EV_BCAST);
  assert_int_equal(g.cm[2][0].root, 3);
  assert_int_equal(g.cm[2][1].root, 3);
  assert_int_equal(g.cm[2][0].t_start, 500);
  assert_int_equal(g.cm[2][0].bytes_recv, 64);
  assert_int_equal(g.cm[2][1].bytes, 64);
}

/* A member that never arrives leaves its instance open. */
static void collective_open(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  for (uint32_t r = 0; r < NR - 1; r++)
    add(&s, r, AUGUR_EV_BARRIER, 100, 200);
  run(&s, &g);
  assert_int_equal(g.nc, 0);
  assert_int_equal(g.cnt.open_coll, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(blocking_pair),    cmocka_unit_test(isend_irecv_waitall),
      cmocka_unit_test(any_source),       cmocka_unit_test(fifo_same_channel),
      cmocka_unit_test(tags_overtake),    cmocka_unit_test(sendrecv),
      cmocka_unit_test(persistent_twice), cmocka_unit_test(mprobe_mrecv),
      cmocka_unit_test(leftovers),        cmocka_unit_test(collectives_split),
      cmocka_unit_test(collective_open),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
