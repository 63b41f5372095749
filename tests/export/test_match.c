/* Message matching used by the Chrome and Paraver exports (cmocka): FIFO per
 * (sender, receiver, comm, tag), either end first, sub-records taking their
 * parent's times, and a table that stays small when every message has its
 * own tag (removal must keep the other channels reachable). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export_util.h"

typedef struct got {
  exu_end s[4096], r[4096];
  size_t n;
} got;

static int collect(void *ctx, const exu_end *s, const exu_end *r, uint64_t id) {
  got *g = ctx;
  assert_int_equal(id, g->n);
  g->s[g->n] = *s;
  g->r[g->n] = *r;
  g->n++;
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
  return e;
}

static void feed(exu_matcher *m, augur_event e) {
  augur_error err;
  assert_int_equal(exu_matcher_feed(m, &e, &err), AUGUR_OK);
}

static void fifo_either_order(void **state) {
  (void)state;
  got *g = calloc(1, sizeof *g);
  exu_matcher *m = exu_matcher_new(collect, g);
  /* Receive posted first, then two sends on the same channel, then one more
   * receive: matches are (send@2 -> recv@1), (send@3 -> recv@4). */
  feed(m, ev(AUGUR_EV_RECV, 1, 0, 5, 1));
  feed(m, ev(AUGUR_EV_SEND, 0, 1, 5, 2));
  feed(m, ev(AUGUR_EV_SEND, 0, 1, 5, 3));
  assert_int_equal(exu_matcher_unmatched(m), 1);
  feed(m, ev(AUGUR_EV_RECV, 1, 0, 5, 4));
  assert_int_equal(g->n, 2);
  assert_int_equal(g->s[0].t_start, 2);
  assert_int_equal(g->r[0].t_start, 1);
  assert_int_equal(g->s[1].t_start, 3);
  assert_int_equal(g->r[1].t_start, 4);
  assert_int_equal(g->s[0].bytes, 102);
  /* Another tag or another communicator is another channel. */
  feed(m, ev(AUGUR_EV_SEND, 0, 1, 6, 5));
  augur_event other = ev(AUGUR_EV_RECV, 1, 0, 6, 6);
  other.comm = 77;
  feed(m, other);
  assert_int_equal(g->n, 2);
  assert_int_equal(exu_matcher_unmatched(m), 2);
  /* PROC_NULL and unresolved wildcards are no messages. */
  feed(m, ev(AUGUR_EV_SEND, 0, AUGUR_PEER_PROC_NULL, 5, 7));
  feed(m, ev(AUGUR_EV_RECV, 1, AUGUR_PEER_ANY, 5, 8));
  assert_int_equal(exu_matcher_unmatched(m), 2);
  assert_int_equal(exu_matcher_matched(m), 2);
  exu_matcher_free(m);
  free(g);
}

static void completion_takes_parent_times(void **state) {
  (void)state;
  got *g = calloc(1, sizeof *g);
  exu_matcher *m = exu_matcher_new(collect, g);
  feed(m, ev(AUGUR_EV_IRECV, 1, AUGUR_PEER_ANY, AUGUR_TAG_ANY, 1)); /* not an end */
  feed(m, ev(AUGUR_EV_ISEND, 0, 1, 9, 2));
  augur_event w = ev(AUGUR_EV_WAIT, 1, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 50);
  w.t_end = 90;
  feed(m, w);
  augur_event c = ev(AUGUR_EV_COMPLETION, 1, 0, 9, 0); /* resolved source and tag */
  c.flags = AUGUR_F_RECVREQ;
  feed(m, c);
  assert_int_equal(g->n, 1);
  assert_int_equal(g->r[0].t_start, 50);
  assert_int_equal(g->r[0].t_end, 90);
  assert_int_equal(g->r[0].rank, 1);
  assert_int_equal(g->s[0].rank, 0);
  /* A send completion of a non-persistent request is not a second message. */
  augur_event sc = ev(AUGUR_EV_COMPLETION, 0, 1, 9, 0);
  sc.flags = AUGUR_F_SENDREQ;
  feed(m, sc);
  assert_int_equal(exu_matcher_unmatched(m), 0);
  exu_matcher_free(m);
  free(g);
}

/* 3000 channels in flight with interleaved removals: every message must
 * still find its partner (a broken backward shift would lose some). */
static void many_tags(void **state) {
  (void)state;
  got *g = calloc(1, sizeof *g);
  exu_matcher *m = exu_matcher_new(collect, g);
  enum { N = 3000 };
  for (int i = 0; i < N; i++)
    feed(m, ev(AUGUR_EV_SEND, (uint32_t)(i % 3), (i + 1) % 3, i, (uint64_t)i));
  assert_int_equal(exu_matcher_unmatched(m), N);
  /* Receives in a scrambled order. */
  for (int k = 0; k < N; k++) {
    int i = (int)(((long)k * 1237) % N);
    feed(m, ev(AUGUR_EV_RECV, (uint32_t)((i + 1) % 3), i % 3, i, (uint64_t)(N + k)));
  }
  assert_int_equal(g->n, N);
  assert_int_equal(exu_matcher_unmatched(m), 0);
  for (size_t k = 0; k < g->n; k++) {
    assert_int_equal(g->s[k].tag, g->r[k].tag);
    assert_int_equal((g->s[k].rank + 1) % 3, g->r[k].rank);
  }
  exu_matcher_free(m);
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
