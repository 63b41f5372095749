/* The matcher's tables per rank (cmocka): many channels into one receiver,
 * so that its table grows several times while ends wait in it; the same
 * (sender, tag) channels into a second receiver; the same request handles
 * on two ranks at once; wildcard receives (MPI_ANY_SOURCE, MPI_ANY_TAG)
 * that take part under their status, from every sender; completions in an
 * order other than the posts'. The trace is written with the writer and
 * read back through augur_stream_merged. The expected pairing comes from
 * MPI's rule alone (the n-th receive completed on a channel takes its n-th
 * send): each receive's status carries the bytes of the send it must get,
 * and every send's bytes are unique. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/match.h"
#include "util.h"

#define NR     6
#define NTAG   12 /* tags per sender into rank 0 */
#define NK     2  /* messages per channel */
#define MAXEV  512
#define BATCH  24    /* receives per Waitall */
#define BATCH3 9     /* rank 3's */
#define HANDLE 0x100 /* request handles: HANDLE + index in the batch, on ranks 0 and 3 */

typedef struct scene {
  augur_event v[NR][MAXEV];
  size_t n[NR];
  uint32_t got_recv[NR][NR][NTAG + 1]; /* receives completed per (receiver, sender, tag) */
} scene;

/* Per send id (below): the start of the Irecv of the receive it must meet. */
static uint64_t post_t[NR * 10000 + 1];

typedef struct got {
  size_t n;
  augur_match_counts cnt;
  size_t waiting;
} got;

static augur_event *add(scene *s, uint32_t rank, unsigned type, uint64_t t0, uint64_t t1) {
  assert_true(s->n[rank] < MAXEV);
  augur_event *e = &s->v[rank][s->n[rank]++];
  *e = tu_ev(type, t0, t1);
  e->comm = augur_event_is_sub(type) ? 0 : AUGUR_COMM_WORLD;
  return e;
}

/* The bytes of the K-th send on channel (sender, receiver, tag): unique. */
static uint64_t send_id(uint32_t sender, uint32_t receiver, int32_t tag, uint32_t k) {
  return 1 + (uint64_t)receiver * 10000 + (uint64_t)sender * 1000 + (uint64_t)tag * NK + k;
}

static void send(scene *s, uint32_t from, uint32_t to, int32_t tag, uint32_t k, uint64_t t) {
  augur_event *e = add(s, from, AUGUR_EV_SEND, t, t + 5);
  e->peer = (int32_t)to;
  e->tag = tag;
  e->bytes = send_id(from, to, tag, k);
}

typedef struct recvspec {
  uint32_t from;
  int32_t tag;
  int wild; /* 0: explicit; 1: ANY_SOURCE; 2: ANY_TAG */
} recvspec;

/* Rank R posts an Irecv per spec (handles HANDLE + i) at T, then one
 * Waitall whose completions come in the order i -> (i * 7 + 3) % n; each
 * completion's status is what MPI would report: its channel's next send. */
static uint64_t recv_batch(scene *s, uint32_t r, const recvspec *sp, size_t n, uint64_t t) {
  for (size_t i = 0; i < n; i++, t += 10) {
    augur_event *e = add(s, r, AUGUR_EV_IRECV, t, t + 2);
    e->req = HANDLE + i;
    e->peer = sp[i].wild == 1 ? AUGUR_PEER_ANY : (int32_t)sp[i].from;
    e->tag = sp[i].wild == 2 ? AUGUR_TAG_ANY : sp[i].tag;
    e->flags = sp[i].wild == 1 ? AUGUR_F_ANY_SOURCE : sp[i].wild == 2 ? AUGUR_F_ANY_TAG : 0;
  }
  add(s, r, AUGUR_EV_WAITALL, t, t + 100)->aux = (uint32_t)n;
  for (size_t j = 0; j < n; j++) {
    size_t i = (j * 7 + 3) % n; /* n is not a multiple of 7 */
    augur_event *c = add(s, r, AUGUR_EV_COMPLETION, 0, 0);
    c->req = HANDLE + i;
    c->peer = (int32_t)sp[i].from;
    c->tag = sp[i].tag;
    c->bytes_recv = send_id(sp[i].from, r, sp[i].tag, s->got_recv[r][sp[i].from][sp[i].tag]++);
    post_t[c->bytes_recv] = t - (n - i) * 10;
  }
  return t + 200;
}

static int on_msg(void *ctx, const augur_message *m) {
  got *g = ctx;
  /* the receive's status names the send it must have been paired with */
  assert_int_equal(m->send.bytes, m->recv.bytes);
  assert_int_equal(m->bytes, m->send.bytes);
  assert_int_equal(m->send.rank, m->sender);
  assert_int_equal(m->recv.rank, m->receiver);
  assert_int_equal(m->id, g->n);
  assert_true(m->send.bytes >= 1 && m->send.bytes <= NR * 10000);
  uint64_t id = m->send.bytes;
  assert_int_equal((id - 1) / 10000, m->receiver);
  assert_int_equal((id - 1) % 10000 / 1000, m->sender);
  assert_int_equal((id - 1) % 1000 / NK, (uint64_t)m->tag);
  assert_int_equal(m->recv.t_post, post_t[id]); /* its own rank's Irecv */
  assert_int_equal(m->recv.kind, AUGUR_MATCH_NONBLOCKING);
  assert_int_equal(m->recv.type, AUGUR_EV_IRECV);
  g->n++;
  return AUGUR_OK;
}

static void on_waiting(void *ctx, uint32_t sender, uint32_t receiver, uint64_t comm, int32_t tag,
                       const augur_match_end *e, int is_send) {
  got *g = ctx;
  assert_true(is_send);
  assert_int_equal(sender, 4);
  assert_int_equal(receiver, 3);
  assert_int_equal(tag, 99);
  assert_int_equal(comm, AUGUR_COMM_WORLD);
  assert_int_equal(e->rank, 4);
  g->waiting++;
}

static void run(const scene *s, got *g) {
  memset(g, 0, sizeof *g);
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w = tu_open_world(dir, r, NR);
    if (s->n[r]) assert_int_equal(augur_writer_events(w, 0, s->v[r], s->n[r], &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  augur_matcher *m = augur_matcher_new(t, on_msg, NULL, g);
  assert_non_null(m);
  augur_stream *st;
  assert_int_equal(augur_stream_merged(t, &st, &err), 0);
  augur_event ev;
  int rc;
  while ((rc = augur_stream_next(st, &ev, &err)) == 1)
    assert_int_equal(augur_match_feed(m, &ev, &err), AUGUR_OK);
  assert_int_equal(rc, 0);
  augur_match_counts_get(m, &g->cnt);
  augur_match_each_waiting(m, on_waiting, g);
  augur_stream_close(st);
  augur_matcher_free(m);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void per_rank_tables(void **state) {
  (void)state;
  static scene s;
  static got g;
  memset(&s, 0, sizeof s);
  memset(post_t, 0, sizeof post_t);
  /* Every send first: ranks 1..5 send NK messages on each of NTAG tags to
   * rank 0 (60 channels, 120 ends waiting in rank 0's table), ranks 1, 2
   * and 5 one on each tag to rank 3 (the same channels but the receiver),
   * rank 4 three on tag 99 to rank 3 that no one receives. */
  uint64_t t = 1000;
  for (uint32_t k = 0; k < NK; k++)
    for (int32_t tag = 0; tag < NTAG; tag++, t += 100)
      for (uint32_t from = 1; from < NR; from++)
        send(&s, from, 0, tag, k, t + from * 10);
  for (int32_t tag = 0; tag < NTAG; tag++, t += 100) {
    send(&s, 1, 3, tag, 0, t + 10);
    send(&s, 2, 3, tag, 0, t + 20);
    send(&s, 5, 3, tag, 0, t + 30);
  }
  for (uint32_t k = 0; k < 3; k++)
    send(&s, 4, 3, 99, k, t + 40 + k * 10);
  /* Rank 0 receives them in batches of BATCH, a third ANY_SOURCE, a third
   * ANY_TAG, channel by channel in an order that puts both messages of a
   * channel into one batch (completed out of post order). */
  static recvspec sp[NR * NTAG * NK];
  size_t n = 0;
  for (int32_t tag = 0; tag < NTAG; tag++)
    for (uint32_t from = 1; from < NR; from++)
      for (uint32_t k = 0; k < NK; k++, n++)
        sp[n] = (recvspec){from, tag, (int)(n % 3)};
  uint64_t t0 = 20000;
  for (size_t i = 0; i < n; i += BATCH)
    t0 = recv_batch(&s, 0, sp + i, n - i < BATCH ? n - i : BATCH, t0);
  /* Rank 3: the same handles as rank 0, posted 3 ns later, completed
   * before rank 0's (smaller batches). */
  size_t n3 = 0;
  for (int32_t tag = NTAG - 1; tag >= 0; tag--) {
    sp[n3++] = (recvspec){1, tag, 1};
    sp[n3++] = (recvspec){2, tag, 0};
    sp[n3++] = (recvspec){5, tag, 2};
  }
  uint64_t t3 = 20003;
  for (size_t i = 0; i < n3; i += BATCH3)
    t3 = recv_batch(&s, 3, sp + i, n3 - i < BATCH3 ? n3 - i : BATCH3, t3);
  /* ... and an Irecv of its never completed. */
  augur_event *e = add(&s, 3, AUGUR_EV_IRECV, t3, t3 + 2);
  e->req = HANDLE;
  e->peer = 2;
  e->tag = 77;
  run(&s, &g);
  assert_int_equal(g.n, n + n3);
  assert_int_equal(g.cnt.messages, n + n3);
  assert_int_equal(g.cnt.unmatched_send, 3);
  assert_int_equal(g.cnt.unmatched_recv, 0);
  assert_int_equal(g.cnt.open_recv, 1);
  assert_int_equal(g.cnt.dropped, 0);
  assert_int_equal(g.waiting, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(per_rank_tables),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
