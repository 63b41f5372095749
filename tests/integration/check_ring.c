/* Expected trace of apps/ring.c, one rank at a time (see apps/README.md). */
#include "check.h"

/* Collectives with one 8-byte element: every rank contributes 8 bytes; for
 * Reduce only the root receives. Barrier moves no data. */
#define CHECKSUM_BYTES 8

static void expect_p2p(check *c, const augur_event *e, int peer, int tag, uint64_t sent,
                       uint64_t recvd) {
  if (!e) return;
  check_i64(c, "peer", e->peer, peer);
  check_i64(c, "tag", e->tag, tag);
  check_u64(c, "bytes", e->bytes, sent);
  check_u64(c, "bytes_recv", e->bytes_recv, recvd);
  check_u64(c, "comm", e->comm, AUGUR_COMM_WORLD);
}

int check_ring_rank(check *c) {
  const int r = (int)c->rank, n = c->np;
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  const uint64_t b = (uint64_t)c->bytes;
  const augur_event *e;

  uint64_t want[AUGUR_EV_MAX] = {0};
  want[AUGUR_EV_INIT] = 1;
  want[AUGUR_EV_SEND] = (uint64_t)c->iter;
  want[AUGUR_EV_RECV] = (uint64_t)c->iter;
  want[AUGUR_EV_REDUCE] = 1;
  want[AUGUR_EV_BARRIER] = 1;
  want[AUGUR_EV_FINALIZE] = 1;
  check_counts(c, want);

  if (!check_next(c, AUGUR_EV_INIT, "ring.init")) return -1;
  for (long it = 0; it < c->iter; it++) {
    const int tag = (int)(it % 32768);
    if (r == 0) {
      e = check_next(c, AUGUR_EV_SEND, "ring.send0");
      if (!e) return -1;
      expect_p2p(c, e, right, tag, b, 0);
      if (it == c->iter - 1) {
        /* The wildcard: only rank n-1 sends to rank 0, so it must resolve to
         * n-1, and the flag must say it was posted as ANY_SOURCE. */
        e = check_next(c, AUGUR_EV_RECV, "ring.recv_any");
        if (!e) return -1;
        expect_p2p(c, e, n - 1, tag, 0, b);
        check_flags(c, e->flags, AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG, AUGUR_F_ANY_SOURCE);
      } else {
        e = check_next(c, AUGUR_EV_RECV, "ring.recv0");
        if (!e) return -1;
        expect_p2p(c, e, left, tag, 0, b);
        check_flags(c, e->flags, AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG, 0);
      }
    } else {
      e = check_next(c, AUGUR_EV_RECV, "ring.recv");
      if (!e) return -1;
      expect_p2p(c, e, left, tag, 0, b);
      check_flags(c, e->flags, AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG, 0);
      e = check_next(c, AUGUR_EV_SEND, "ring.send");
      if (!e) return -1;
      expect_p2p(c, e, right, tag, b, 0);
    }
  }

  e = check_next(c, AUGUR_EV_REDUCE, "ring.reduce");
  if (!e) return -1;
  check_i64(c, "peer (root)", e->peer, 0);
  check_flags(c, e->flags, AUGUR_F_ROOT | AUGUR_F_IN_PLACE, r == 0 ? AUGUR_F_ROOT : 0);
  check_u64(c, "bytes", e->bytes, CHECKSUM_BYTES);
  check_u64(c, "bytes_recv", e->bytes_recv, r == 0 ? CHECKSUM_BYTES : 0);
  check_u64(c, "comm", e->comm, AUGUR_COMM_WORLD);

  e = check_next(c, AUGUR_EV_BARRIER, "ring.barrier");
  if (!e) return -1;
  check_i64(c, "peer", e->peer, AUGUR_PEER_NONE);
  check_i64(c, "tag", e->tag, AUGUR_TAG_NONE);
  check_u64(c, "bytes", e->bytes, 0);
  check_u64(c, "bytes_recv", e->bytes_recv, 0);
  check_u64(c, "comm", e->comm, AUGUR_COMM_WORLD);

  if (!check_next(c, AUGUR_EV_FINALIZE, "ring.finalize")) return -1;
  check_end(c);
  return 0;
}
