/* Expected trace of apps/stencil.c (and its Fortran mirror), one rank at a
 * time (see apps/README.md). The process grid, neighbours and message sizes
 * are computed here from the rank count alone. */
#include "check.h"

#include <inttypes.h>

enum { XM = 0, XP = 1, YM = 2, YP = 3 };
#define NONE (-1)

/* What MPI_Dims_create(n, 2) must give: the most balanced factorisation,
 * in non-increasing order (MPI standard, section "Cartesian convenience"). */
static void grid_dims(int n, int dims[2]) {
  int d1 = 1;
  for (int k = 1; k * k <= n; k++)
    if (n % k == 0) d1 = k;
  dims[0] = n / d1;
  dims[1] = d1;
}

/* Neighbours of world rank r (= cart rank: no reordering), row-major coords. */
static void neighbours(int r, const int dims[2], int nb[4]) {
  int x = r / dims[1], y = r % dims[1];
  nb[XM] = x > 0 ? r - dims[1] : NONE;
  nb[XP] = x < dims[0] - 1 ? r + dims[1] : NONE;
  nb[YM] = y > 0 ? r - 1 : NONE;
  nb[YP] = y < dims[1] - 1 ? r + 1 : NONE;
}

static void check_cart_def(check *c, const int dims[2]) {
  const augur_comm_def *d = augur_trace_comm(c->t, c->cart_id);
  if (!d) {
    check_fail(c, "no definition for the Cartesian communicator 0x%" PRIx64, c->cart_id);
    return;
  }
  check_u64(c, "cart kind", d->kind, AUGUR_COMM_KIND_CART);
  check_u64(c, "cart parent", d->parent, AUGUR_COMM_WORLD);
  check_u64(c, "cart size", d->size, (uint64_t)c->np);
  for (uint32_t i = 0; i < d->size && i < (uint32_t)c->np; i++)
    check_i64(c, "cart member (reorder=0: identity)", d->members[i], (int64_t)i);
  check_u64(c, "cart ndims", d->ndims, 2);
  check_i64(c, "cart dims[0]", d->dims[0], dims[0]);
  check_i64(c, "cart dims[1]", d->dims[1], dims[1]);
  check_i64(c, "cart periods[0]", d->periods[0], 0);
  check_i64(c, "cart periods[1]", d->periods[1], 0);
}

int check_stencil_rank(check *c) {
  const int r = (int)c->rank;
  int dims[2], nb[4];
  grid_dims(c->np, dims);
  neighbours(r, dims, nb);
  const uint64_t len[4] = {8 * (uint64_t)c->ny, 8 * (uint64_t)c->ny, 8 * (uint64_t)c->nx,
                           8 * (uint64_t)c->nx};
  uint64_t nn = 0;
  for (int d = 0; d < 4; d++)
    nn += nb[d] != NONE;
  const uint64_t iter = (uint64_t)c->iter;
  const augur_event *e;

  uint64_t want[AUGUR_EV_MAX] = {0};
  want[AUGUR_EV_INIT] = 1;
  want[AUGUR_EV_CART_CREATE] = 1;
  want[AUGUR_EV_IRECV] = iter * nn;
  want[AUGUR_EV_ISEND] = iter * nn;
  want[AUGUR_EV_WAITALL] = iter;
  want[AUGUR_EV_COMPLETION] = iter * 2 * nn;
  want[AUGUR_EV_ALLREDUCE] = iter;
  want[AUGUR_EV_COMM_FREE] = 1;
  want[AUGUR_EV_FINALIZE] = 1;
  check_counts(c, want);

  if (!check_next(c, AUGUR_EV_INIT, "stencil.init")) return -1;
  e = check_next(c, AUGUR_EV_CART_CREATE, "stencil.cart_create");
  if (!e) return -1;
  check_u64(c, "comm (parent)", e->comm, AUGUR_COMM_WORLD);
  if (e->req <= AUGUR_COMM_SELF) check_fail(c, "created communicator id %" PRIu64, e->req);
  if (r == 0) {
    c->cart_id = e->req;
    check_cart_def(c, dims);
  } else if (e->req != c->cart_id) {
    check_fail(c, "Cartesian comm id 0x%" PRIx64 " differs from rank 0's 0x%" PRIx64, e->req,
               c->cart_id);
  }
  const uint64_t cart = c->cart_id;

  for (uint64_t it = 0; it < iter; it++) {
    uint64_t req[8];
    int dir[8], k = 0;
    for (int d = 0; d < 4; d++) {
      if (nb[d] == NONE) continue;
      e = check_next(c, AUGUR_EV_IRECV, "stencil.irecv");
      if (!e) return -1;
      check_i64(c, "peer", e->peer, nb[d]);
      check_i64(c, "tag", e->tag, d ^ 1);
      check_u64(c, "bytes", e->bytes, 0);
      check_u64(c, "bytes_recv", e->bytes_recv, len[d]);
      check_u64(c, "comm", e->comm, cart);
      req[k] = e->req;
      dir[k++] = d;
    }
    for (int d = 0; d < 4; d++) {
      if (nb[d] == NONE) continue;
      e = check_next(c, AUGUR_EV_ISEND, "stencil.isend");
      if (!e) return -1;
      check_i64(c, "peer", e->peer, nb[d]);
      check_i64(c, "tag", e->tag, d);
      check_u64(c, "bytes", e->bytes, len[d]);
      check_u64(c, "bytes_recv", e->bytes_recv, 0);
      check_u64(c, "comm", e->comm, cart);
      req[k] = e->req;
      dir[k++] = d;
    }
    /* Handles of outstanding requests are NOT always distinct: MPICH and
     * Open MPI hand out one shared built-in handle for small sends that
     * completed inside MPI_Isend. The completions below must still come out
     * right (each with its own index, peer, tag and size). */

    e = check_next(c, AUGUR_EV_WAITALL, "stencil.waitall");
    if (!e) return -1;
    check_u64(c, "aux (completions)", e->aux, (uint64_t)k);
    /* Completions may come in any order; each request exactly once. */
    int seen[8] = {0};
    for (int i = 0; i < k; i++) {
      e = check_next(c, AUGUR_EV_COMPLETION, NULL);
      if (!e) return -1;
      if (e->aux >= (uint32_t)k || seen[e->aux]++) {
        check_fail(c, "completion index %u: out of range or repeated (k=%d)", e->aux, k);
        continue;
      }
      const int j = (int)e->aux, d = dir[j], is_recv = j < k / 2;
      check_u64(c, "completion req (the request at its index)", e->req, req[j]);
      check_flags(c, e->flags,
                  AUGUR_F_RECVREQ | AUGUR_F_SENDREQ | AUGUR_F_COLLREQ | AUGUR_F_UNMATCHED |
                      AUGUR_F_PERSISTENT | AUGUR_F_CANCELLED,
                  is_recv ? AUGUR_F_RECVREQ : AUGUR_F_SENDREQ);
      check_u64(c, "completion comm", e->comm, cart);
      check_i64(c, "completion peer", e->peer, nb[d]);
      check_i64(c, "completion tag", e->tag, is_recv ? (d ^ 1) : d);
      if (is_recv)
        check_u64(c, "completion bytes_recv", e->bytes_recv, len[d]);
      else
        check_u64(c, "completion bytes", e->bytes, len[d]);
    }

    e = check_next(c, AUGUR_EV_ALLREDUCE, "stencil.allreduce");
    if (!e) return -1;
    check_i64(c, "peer", e->peer, AUGUR_PEER_NONE);
    check_u64(c, "bytes", e->bytes, 8);
    check_u64(c, "bytes_recv", e->bytes_recv, 8);
    check_u64(c, "comm", e->comm, cart);
    check_flags(c, e->flags, AUGUR_F_ROOT | AUGUR_F_IN_PLACE, 0);
  }

  e = check_next(c, AUGUR_EV_COMM_FREE, "stencil.comm_free");
  if (!e) return -1;
  check_u64(c, "comm (the freed one)", e->comm, cart);
  if (!check_next(c, AUGUR_EV_FINALIZE, "stencil.finalize")) return -1;
  check_end(c);
  return 0;
}
