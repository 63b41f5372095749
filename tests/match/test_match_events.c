/* The shared matcher fed event by event (cmocka): FIFO per (sender,
 * receiver, comm, tag) whichever end comes first, sub-records taking their
 * parent's times, call sites and kinds, and a channel table that stays
 * correct when every message has its own tag (removal must keep the other
 * channels reachable). Formerly the exports' own matcher test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/match.h"

typedef struct got {
  augur_message m[4096];
  size_t n;
} got;

static int collect(void *ctx, const augur_message *msg) {
  got *g = ctx;
  assert_int_equal(msg->id, g->n);
  g->m[g->n++] = *msg;
  return AUGUR_OK;
}

static augur_event ev(unsigned type, uint32_t rank, int32_t peer, int32_t tag, uint64_t t) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = (uint16_t)type;
  e.rank = rank;
  e.peer = peer;
  e.tag = tag;
  e.comm = AUGUR_COMM_WORLD;
  e.t_start = t;
  e.t_end = t + 10;
  e.bytes = type == AUGUR_EV_SEND || type == AUGUR_EV_ISEND ? 100 + t : 0;
  e.bytes_recv = 7;
  e.callsite = 1000 + t;
  return e;
}

static void feed(augur_matcher *m, augur_event e) {
  augur_error err;
  assert_int_equal(augur_match_feed(m, &e, &err), AUGUR_OK);
}

static uint64_t waiting(const augur_matcher *m) {
  augur_match_counts c;
  augur_match_counts_get(m, &c);
  return c.unmatched_send + c.unmatched_recv;
}

static void fifo_either_order(void **state) {
  (void)state;
  got *g = calloc(1, sizeof *g);
  augur_matcher *m = augur_matcher_new(NULL, collect, NULL, g);
  /* Receive first, then two sends on the same channel, then one more
   * receive: matches are (send@2 -> recv@1), (send@3 -> recv@4). */
  feed(m, ev(AUGUR_EV_RECV, 1, 0, 5, 1));
  feed(m, ev(AUGUR_EV_SEND, 0, 1, 5, 2));
  feed(m, ev(AUGUR_EV_SSEND, 0, 1, 5, 3));
  assert_int_equal(waiting(m), 1);
  feed(m, ev(AUGUR_EV_RECV, 1, 0, 5, 4));
  assert_int_equal(g->n, 2);
  assert_int_equal(g->m[0].send.t_start, 2);
  assert_int_equal(g->m[0].recv.t_start, 1);
  assert_int_equal(g->m[1].send.t_start, 3);
  assert_int_equal(g->m[1].recv.t_start, 4);
  assert_int_equal(g->m[0].bytes, 102);
  assert_int_equal(g->m[0].send.callsite, 1002);
  assert_int_equal(g->m[0].recv.callsite, 1001);
  assert_int_equal(g->m[0].send.kind, AUGUR_MATCH_BLOCKING);
  assert_int_equal(g->m[0].send.sync, 0);
  assert_int_equal(g->m[1].send.sync, 1);
  assert_int_equal(g->m[1].send.type, AUGUR_EV_SSEND);
  /* Another tag or another communicator is another channel. */
  feed(m, ev(AUGUR_EV_SEND, 0, 1, 6, 5));
  augur_event other = ev(AUGUR_EV_RECV, 1, 0, 6, 6);
  other.comm = 77;
  feed(m, other);
  assert_int_equal(g->n, 2);
  assert_int_equal(waiting(m), 2);
  /* PROC_NULL and unresolved wildcards are no messages. */
  feed(m, ev(AUGUR_EV_SEND, 0, AUGUR_PEER_PROC_NULL, 5, 7));
  feed(m, ev(AUGUR_EV_RECV, 1, AUGUR_PEER_ANY, 5, 8));
  augur_match_counts c;
  augur_match_counts_get(m, &c);
  assert_int_equal(c.unmatched_send, 1);
  assert_int_equal(c.unmatched_recv, 1);
  assert_int_equal(c.messages, 2);
  augur_matcher_free(m);
  free(g);
}

static void completion_takes_parent_times(void **state) {
  (void)state;
  got *g = calloc(1, sizeof *g);
  augur_matcher *m = augur_matcher_new(NULL, collect, NULL, g);
  feed(m, ev(AUGUR_EV_IRECV, 1, AUGUR_PEER_ANY, AUGUR_TAG_ANY, 1)); /* not an end yet */
  feed(m, ev(AUGUR_EV_ISEND, 0, 1, 9, 2));
  augur_event w = ev(AUGUR_EV_WAIT, 1, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 50);
  w.t_end = 90;
  feed(m, w);
  augur_event c = ev(AUGUR_EV_COMPLETION, 1, 0, 9, 0); /* resolved source and tag */
  c.flags = AUGUR_F_RECVREQ;
  feed(m, c);
  assert_int_equal(g->n, 1);
  assert_int_equal(g->m[0].recv.t_post, 1);
  assert_int_equal(g->m[0].recv.t_start, 50);
  assert_int_equal(g->m[0].recv.t_end, 90);
  assert_int_equal(g->m[0].recv.callsite, 1001);      /* the Irecv's */
  assert_int_equal(g->m[0].recv.wait_callsite, 1050); /* the Wait's: where the time went */
  assert_int_equal(g->m[0].send.wait_callsite, g->m[0].send.callsite);
  assert_int_equal(g->m[0].recv.type, AUGUR_EV_IRECV);
  assert_int_equal(g->m[0].recv.kind, AUGUR_MATCH_NONBLOCKING);
  assert_int_equal(g->m[0].recv.rank, 1);
  assert_int_equal(g->m[0].send.rank, 0);
  assert_int_equal(g->m[0].send.kind, AUGUR_MATCH_NONBLOCKING);
  /* A send completion of a non-persistent request is not a second message. */
  augur_event sc = ev(AUGUR_EV_COMPLETION, 0, 1, 9, 0);
  sc.flags = AUGUR_F_SENDREQ;
  feed(m, sc);
  assert_int_equal(waiting(m), 0);
  augur_match_counts cnt;
  augur_match_counts_get(m, &cnt);
  assert_int_equal(cnt.open_recv, 0);
  augur_matcher_free(m);
  free(g);
}

/* 3000 channels in flight with interleaved removals: every message must
 * still find its partner (a broken backward shift would lose some). */
static void many_tags(void **state) {
  (void)state;
  got *g = calloc(1, sizeof *g);
  augur_matcher *m = augur_matcher_new(NULL, collect, NULL, g);
  enum { N = 3000 };
  augur_matcher_set_horizon(m, N / 2);
  for (int i = 0; i < N; i++)
    feed(m, ev(AUGUR_EV_SEND, (uint32_t)(i % 3), (i + 1) % 3, i, (uint64_t)i));
  assert_int_equal(waiting(m), N);
  assert_int_equal(augur_match_sends_by_horizon(m), N / 2 + 1);
  for (int k = 0; k < N; k++) { /* receives in a scrambled order */
    int i = (int)(((long)k * 1237) % N);
    feed(m, ev(AUGUR_EV_RECV, (uint32_t)((i + 1) % 3), i % 3, i, (uint64_t)(N + k)));
  }
  assert_int_equal(g->n, N);
  assert_int_equal(waiting(m), 0);
  assert_int_equal(augur_match_sends_by_horizon(m), 0);
  for (size_t k = 0; k < g->n; k++) {
    assert_int_equal(g->m[k].send.t_start, (uint64_t)g->m[k].tag);
    assert_int_equal((g->m[k].sender + 1) % 3, g->m[k].receiver);
    assert_int_equal(g->m[k].recv.rank, g->m[k].receiver);
  }
  augur_matcher_free(m);
  free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fifo_either_order),
      cmocka_unit_test(completion_takes_parent_times),
      cmocka_unit_test(many_tags),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
