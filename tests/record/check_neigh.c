/* Recorder checker, "neigh" scenario (tests/record/rec_neigh.c): every
 * neighbourhood collective with its NEIGH_SEND / NEIGH_RECV sub-records
 * (peers as world ranks, bytes per neighbour, sums in the parent), the
 * nonblocking twins' completions, Comm_create_group and Comm_disconnect.
 * FORTRAN: the program is rec_neigh_f.f90 (the same calls through the
 * Fortran bindings): every record checked has AUGUR_F_FORTRAN. Returns the
 * number of failed checks (check_record.c's main adds them). */
#include <inttypes.h>
#include <stdlib.h>

#include "augur/reader.h"
#include "check.h"

int check_neigh(augur_trace *t, uint32_t n, int fortran);

/* rec_neigh_f.f90: every record of the calls checked here has F_FORTRAN. */
static int want_fortran;

/* Index of the k-th event of TYPE, or -1. */
static long find(const evlist *l, unsigned type, int k) {
  for (size_t i = 0; i < l->n; i++)
    if (l->ev[i].type == type && k-- == 0) return (long)i;
  return -1;
}

/* One expected neighbourhood call: its sends and receives, in order. */
typedef struct want {
  unsigned type;
  int k; /* k-th of its type */
  uint64_t comm;
  int nout, nin;
  int32_t out[2], in[2];
  uint64_t sb[2], rb[2];
} want;

static void expect_call(const evlist *l, uint32_t r, const want *w) {
  long i = find(l, w->type, w->k);
  CHECK(i >= 0, "rank %u: no %s #%d", r, augur_event_name(w->type), w->k);
  if (i < 0) return;
  const augur_event *p = &l->ev[i];
  uint64_t sb = 0, rb = 0;
  for (int j = 0; j < w->nout; j++)
    sb += w->sb[j];
  for (int j = 0; j < w->nin; j++)
    rb += w->rb[j];
  const char *nm = augur_event_name(w->type);
  CHECK(p->comm == w->comm && w->comm != 0, "rank %u: %s comm %#" PRIx64 ", expected %#" PRIx64, r,
        nm, p->comm, w->comm);
  CHECK(p->peer == AUGUR_PEER_NONE, "rank %u: %s peer %d", r, nm, p->peer);
  CHECK(p->bytes == sb && p->bytes_recv == rb,
        "rank %u: %s #%d bytes %" PRIu64 "/%" PRIu64 ", expected %" PRIu64 "/%" PRIu64, r, nm, w->k,
        p->bytes, p->bytes_recv, sb, rb);
  CHECK(p->aux == (uint32_t)(w->nout + w->nin), "rank %u: %s aux %u", r, nm, p->aux);
  CHECK(!want_fortran || (p->flags & AUGUR_F_FORTRAN), "rank %u: %s without F_FORTRAN", r, nm);
  CHECK((size_t)i + 1 + (size_t)(w->nout + w->nin) <= l->n, "rank %u: %s truncated", r, nm);
  if ((size_t)i + 1 + (size_t)(w->nout + w->nin) > l->n) return;
  for (int j = 0; j < w->nout + w->nin; j++) {
    const augur_event *s = &l->ev[i + 1 + j];
    int send = j < w->nout;
    int x = send ? j : j - w->nout;
    CHECK(s->type == (send ? AUGUR_EV_NEIGH_SEND : AUGUR_EV_NEIGH_RECV), "rank %u: %s sub %d is %s",
          r, nm, j, augur_event_name(s->type));
    int32_t peer = send ? w->out[x] : w->in[x];
    CHECK(s->peer == peer, "rank %u: %s sub %d peer %d, expected %d", r, nm, j, s->peer, peer);
    CHECK(s->comm == w->comm, "rank %u: %s sub %d comm", r, nm, j);
    CHECK(s->aux == (uint32_t)x, "rank %u: %s sub %d aux %u", r, nm, j, s->aux);
    CHECK(!want_fortran || (s->flags & AUGUR_F_FORTRAN), "rank %u: %s sub %d flags", r, nm, j);
    CHECK(s->t_start == p->t_start && s->t_end == p->t_end, "rank %u: %s sub %d times", r, nm, j);
    uint64_t b = send ? s->bytes : s->bytes_recv, wb = send ? w->sb[x] : w->rb[x];
    uint64_t other = send ? s->bytes_recv : s->bytes;
    CHECK(b == wb && other == 0, "rank %u: %s sub %d bytes %" PRIu64 ", expected %" PRIu64, r, nm,
          j, b, wb);
  }
  if (augur_event_is_nonblocking(w->type)) {
    CHECK(p->req != 0, "rank %u: %s without request", r, nm);
    int done = 0;
    for (size_t k = (size_t)i + 1; k < l->n && !done; k++) {
      const augur_event *c = &l->ev[k];
      if (c->type != AUGUR_EV_COMPLETION || c->req != p->req) continue;
      done = 1;
      CHECK((c->flags & AUGUR_F_COLLREQ) && c->comm == w->comm && c->bytes == sb &&
                c->bytes_recv == rb,
            "rank %u: %s completion flags %#x comm %#" PRIx64 " bytes %" PRIu64 "/%" PRIu64, r, nm,
            c->flags, c->comm, c->bytes, c->bytes_recv);
    }
    CHECK(done, "rank %u: %s never completed", r, nm);
  }
}

static void check_rank(augur_trace *t, uint32_t r, uint32_t n, const evlist *l) {
  /* the communicators, from their constructors, in program order */
  long c0 = find(l, AUGUR_EV_CART_CREATE, 0), c1 = find(l, AUGUR_EV_CART_CREATE, 1);
  long g = find(l, AUGUR_EV_DIST_GRAPH_CREATE_ADJACENT, 0);
  CHECK(c0 >= 0 && c1 >= 0 && g >= 0, "rank %u: topology constructors missing", r);
  if (c0 < 0 || c1 < 0 || g < 0) return;
  uint64_t cart = l->ev[c0].req, line = l->ev[c1].req, ring = l->ev[g].req;
  int32_t left = (int32_t)((r + n - 1) % n), right = (int32_t)((r + 1) % n);
  int32_t lnull = r == 0 ? AUGUR_PEER_PROC_NULL : left;
  int32_t rnull = r == n - 1 ? AUGUR_PEER_PROC_NULL : right;
  for (int nb = 0; nb < 2; nb++) {
    unsigned off = nb ? AUGUR_EV_INEIGHBOR_ALLGATHER - AUGUR_EV_NEIGHBOR_ALLGATHER : 0;
    uint64_t big = n > 2 ? 8 : 4; /* rec_neigh.c: v / w sizes with 2 ranks */
    want w[5] = {
        {AUGUR_EV_NEIGHBOR_ALLGATHER, 0, cart, 2, 2, {left, right}, {left, right}, {4, 4}, {4, 4}},
        {AUGUR_EV_NEIGHBOR_ALLGATHERV, 0, cart, 2, 2, {left, right}, {left, right}, {8, 8}, {8, 8}},
        {AUGUR_EV_NEIGHBOR_ALLTOALL,
         0,
         cart,
         2,
         2,
         {left, right},
         {left, right},
         {24, 24},
         {24, 24}},
        {AUGUR_EV_NEIGHBOR_ALLTOALLV,
         0,
         cart,
         2,
         2,
         {left, right},
         {left, right},
         {4, big},
         {big, 4}},
        {AUGUR_EV_NEIGHBOR_ALLTOALLW,
         0,
         cart,
         2,
         2,
         {left, right},
         {left, right},
         {4, big},
         {big, 4}},
    };
    for (int k = 0; k < 5; k++) {
      w[k].type += off;
      expect_call(l, r, &w[k]);
    }
  }
  want w_line = {AUGUR_EV_NEIGHBOR_ALLGATHER,
                 1,
                 line,
                 2,
                 2,
                 {lnull, rnull},
                 {lnull, rnull},
                 {r == 0 ? 0u : 4u, r == n - 1 ? 0u : 4u},
                 {r == 0 ? 0u : 4u, r == n - 1 ? 0u : 4u}};
  expect_call(l, r, &w_line);
  want w_ring = {AUGUR_EV_NEIGHBOR_ALLTOALL, 1, ring, 1, 1, {right}, {left}, {20}, {20}};
  expect_call(l, r, &w_ring);
  want w_iring = {AUGUR_EV_INEIGHBOR_ALLTOALL, 1, ring, 1, 1, {right}, {left}, {20}, {20}};
  expect_call(l, r, &w_iring);

  /* Comm_create_group: even ranks only, parent world, tag 7, a definition
   * listing the even ranks */
  long cg = find(l, AUGUR_EV_COMM_CREATE_GROUP, 0);
  CHECK((cg >= 0) == (r % 2 == 0), "rank %u: Comm_create_group at %ld", r, cg);
  if (cg >= 0) {
    const augur_event *e = &l->ev[cg];
    CHECK(!want_fortran || (e->flags & AUGUR_F_FORTRAN), "rank %u: Comm_create_group flags", r);
    CHECK(e->comm == AUGUR_COMM_WORLD && e->tag == 7 && e->req > AUGUR_COMM_SELF,
          "rank %u: Comm_create_group comm %#" PRIx64 " tag %d req %#" PRIx64, r, e->comm, e->tag,
          e->req);
    const augur_comm_def *d = augur_trace_comm(t, e->req);
    CHECK(d && d->size == (n + 1) / 2, "rank %u: Comm_create_group: definition size %u", r,
          d ? d->size : 0);
    for (uint32_t i = 0; d && i < d->size; i++)
      CHECK(d->members[i] == (int32_t)(2 * i), "rank %u: evens member %u = %d", r, i,
            d->members[i]);
    long b = find(l, AUGUR_EV_BARRIER, 0);
    CHECK(b > cg && l->ev[b].comm == e->req, "rank %u: Barrier on the new communicator", r);
  }
  /* Comm_disconnect of the Comm_dup'ed world */
  long dup = find(l, AUGUR_EV_COMM_DUP, 0), dis = find(l, AUGUR_EV_COMM_DISCONNECT, 0);
  CHECK(dup >= 0 && dis > dup && l->ev[dis].comm == l->ev[dup].req && l->ev[dup].req != 0,
        "rank %u: Comm_disconnect of the duplicate (at %ld, dup at %ld)", r, dis, dup);
  CHECK(!want_fortran || dis < 0 || (l->ev[dis].flags & AUGUR_F_FORTRAN),
        "rank %u: Comm_disconnect flags", r);
}

int check_neigh(augur_trace *t, uint32_t n, int fortran) {
  want_fortran = fortran;
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) == 0) check_rank(t, r, n, &l);
    free(l.ev);
  }
  return failures;
}

int check_spawn(augur_trace *t, uint32_t n, int spawned);

/* rec_spawn.c: SPAWNED 1 = the spawn succeeded (one child, not traced),
 * 0 = it failed. Every rank has the COMM_SPAWN (comm world, F_ROOT on rank
 * 0, aux = remote size, req 0: the intercommunicator is foreign), the
 * trace holds the parent job's ranks only, and after a success the
 * receive from the child and the disconnect use communicator id 0. */
int check_spawn(augur_trace *t, uint32_t n, int spawned) {
  CHECK(augur_trace_nranks(t) == n, "%u ranks in the trace", augur_trace_nranks(t));
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) {
      free(l.ev);
      continue;
    }
    long s = find(&l, AUGUR_EV_COMM_SPAWN, 0);
    CHECK(s >= 0 && find(&l, AUGUR_EV_COMM_SPAWN, 1) < 0, "rank %u: one Comm_spawn", r);
    if (s >= 0) {
      const augur_event *e = &l.ev[s];
      CHECK(e->comm == AUGUR_COMM_WORLD && e->req == 0 && e->aux == (uint32_t)spawned,
            "rank %u: Comm_spawn comm %#" PRIx64 " req %#" PRIx64 " aux %u", r, e->comm, e->req,
            e->aux);
      CHECK(((e->flags & AUGUR_F_ROOT) != 0) == (r == 0), "rank %u: Comm_spawn flags %#x", r,
            e->flags);
    }
    long d = find(&l, AUGUR_EV_COMM_DISCONNECT, 0);
    CHECK((d >= 0) == spawned && (d < 0 || l.ev[d].comm == 0), "rank %u: Comm_disconnect", r);
    long rv = find(&l, AUGUR_EV_RECV, 0);
    CHECK((rv >= 0) == (spawned && r == 0), "rank %u: Recv from the child", r);
    if (rv >= 0)
      CHECK(l.ev[rv].comm == 0 && l.ev[rv].bytes_recv == 8 && (l.ev[rv].flags & AUGUR_F_INTER),
            "rank %u: Recv comm %#" PRIx64 " bytes %" PRIu64 " flags %#x", r, l.ev[rv].comm,
            l.ev[rv].bytes_recv, l.ev[rv].flags);
    free(l.ev);
  }
  return failures;
}
