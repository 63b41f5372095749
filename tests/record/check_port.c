/* augur-check-record port TRACE NRANKS (rec_port_f.f90, through `use mpi` or
 * `use mpi_f08`): MPI_COMM_WORLD split by rank parity, the even half accepts
 * and the odd half connects on one port. Every rank has exactly one
 * COMM_ACCEPT (even) or COMM_CONNECT (odd), none of the other, on its half's
 * communicator (one id per half, F_ROOT on each half's rank 0, aux = the
 * other half's size, the new intercommunicator's id in req, the same on
 * every rank), F_FORTRAN, and one COMM_DISCONNECT of that intercommunicator. */
#include <inttypes.h>
#include <string.h>

#include "augur/event.h"
#include "check.h"

/* The number of failed checks (this file's `failures`). */
int check_port(augur_trace *t, uint32_t n);

static long nth(const evlist *l, unsigned type, int k) {
  for (size_t i = 0; i < l->n; i++)
    if (l->ev[i].type == type && k-- == 0) return (long)i;
  return -1;
}

int check_port(augur_trace *t, uint32_t n) {
  uint64_t half[2] = {0, 0}, inter = 0;
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) {
      free(l.ev);
      continue;
    }
    unsigned mine = r % 2 ? AUGUR_EV_COMM_CONNECT : AUGUR_EV_COMM_ACCEPT;
    unsigned other = r % 2 ? AUGUR_EV_COMM_ACCEPT : AUGUR_EV_COMM_CONNECT;
    long c = nth(&l, mine, 0);
    CHECK(c >= 0 && nth(&l, mine, 1) < 0 && nth(&l, other, 0) < 0, "rank %u: one %s", r,
          augur_event_name(mine));
    if (c >= 0) {
      const augur_event *e = &l.ev[c];
      uint32_t remote = r % 2 ? (n + 1) / 2 : n / 2;
      if (!half[r % 2]) half[r % 2] = e->comm;
      if (!inter) inter = e->req;
      CHECK(e->comm == half[r % 2] && e->comm != AUGUR_COMM_WORLD && half[0] != half[1],
            "rank %u: %s comm %#" PRIx64, r, augur_event_name(mine), e->comm);
      CHECK(e->req == inter && inter != 0, "rank %u: intercommunicator %#" PRIx64 " (%#" PRIx64 ")",
            r, e->req, inter);
      CHECK(e->aux == remote, "rank %u: remote size %u, expected %u", r, e->aux, remote);
      CHECK(((e->flags & AUGUR_F_ROOT) != 0) == (r < 2) && (e->flags & AUGUR_F_FORTRAN),
            "rank %u: flags %#x", r, e->flags);
      long d = nth(&l, AUGUR_EV_COMM_DISCONNECT, 0);
      CHECK(d > c && nth(&l, AUGUR_EV_COMM_DISCONNECT, 1) < 0 && l.ev[d].comm == e->req,
            "rank %u: Comm_disconnect of the intercommunicator", r);
    }
    free(l.ev);
  }
  return failures;
}

/* augur-check-record procs TRACE 2 SPAWNED JOINED (rec_procs.c): on both ranks one
 * COMM_SPAWN_MULTIPLE (comm world, F_ROOT on rank 0, aux = the children's count SPAWNED,
 * req 0: the intercommunicator to them is foreign), after a success its disconnect
 * (comm 0) and on rank 0 the 8-byte receive from the child (comm 0, F_INTER); then one
 * COMM_JOIN (comm 0: it has no parent communicator, no F_ROOT, aux = the remote size
 * JOINED, req = the new intercommunicator's id, the same on both ranks, 0 after a
 * failure), and after a success rank 1's 8-byte send to rank 0 over it (tag 9), rank 0's
 * receive from world rank 1, and both ranks' disconnect of it. JOINED -1 (rec_procs_f.f90):
 * no Comm_join at all, and every record F_FORTRAN. */
int check_procs(augur_trace *t, uint32_t n, int spawned, int joined);

int check_procs(augur_trace *t, uint32_t n, int spawned, int joined) {
  CHECK(n == 2, "procs: %u ranks, expected 2", n);
  uint64_t inter = UINT64_MAX;
  for (uint32_t r = 0; r < n && r < 2; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) {
      free(l.ev);
      continue;
    }
    long s = nth(&l, AUGUR_EV_COMM_SPAWN_MULTIPLE, 0);
    CHECK(s >= 0 && nth(&l, AUGUR_EV_COMM_SPAWN_MULTIPLE, 1) < 0 &&
              nth(&l, AUGUR_EV_COMM_SPAWN, 0) < 0,
          "rank %u: one Comm_spawn_multiple", r);
    long j = nth(&l, AUGUR_EV_COMM_JOIN, 0);
    if (joined < 0) { /* Fortran: no join; the end of the trace stands for it */
      CHECK(j < 0, "rank %u: a Comm_join", r);
      CHECK(s < 0 || (l.ev[s].flags & AUGUR_F_FORTRAN),
            "rank %u: Comm_spawn_multiple not F_FORTRAN", r);
      j = (long)l.n;
    } else
      CHECK(j > s && nth(&l, AUGUR_EV_COMM_JOIN, 1) < 0, "rank %u: one Comm_join after it", r);
    if (s < 0 || j < 0) {
      free(l.ev);
      continue;
    }
    const augur_event *e = &l.ev[s];
    CHECK(e->comm == AUGUR_COMM_WORLD && e->req == 0 && e->aux == (uint32_t)spawned,
          "rank %u: Comm_spawn_multiple comm %#" PRIx64 " req %#" PRIx64 " aux %u", r, e->comm,
          e->req, e->aux);
    CHECK(((e->flags & AUGUR_F_ROOT) != 0) == (r == 0), "rank %u: Comm_spawn_multiple flags %#x", r,
          e->flags);
    long d = nth(&l, AUGUR_EV_COMM_DISCONNECT, 0);
    CHECK((spawned && d > s && d < j && l.ev[d].comm == 0) || (!spawned && (d < 0 || d > j)),
          "rank %u: Comm_disconnect of the children's intercommunicator", r);
    long rv = nth(&l, AUGUR_EV_RECV, 0);
    int child = spawned && r == 0; /* the first receive is the child's, else the port's */
    if (child)
      CHECK(rv > s && rv < j && l.ev[rv].comm == 0 && l.ev[rv].bytes_recv == 8 &&
                (l.ev[rv].flags & AUGUR_F_INTER),
            "rank 0: Recv from the child");
    if (joined < 0) {
      free(l.ev);
      continue;
    }
    const augur_event *J = &l.ev[j];
    CHECK(J->comm == 0 && !(J->flags & AUGUR_F_ROOT) && J->aux == (uint32_t)joined,
          "rank %u: Comm_join comm %#" PRIx64 " flags %#x aux %u", r, J->comm, J->flags, J->aux);
    CHECK(joined ? J->req != 0 : J->req == 0, "rank %u: Comm_join req %#" PRIx64, r, J->req);
    if (inter == UINT64_MAX) inter = J->req;
    CHECK(J->req == inter, "rank %u: Comm_join req %#" PRIx64 ", rank 0 %#" PRIx64, r, J->req,
          inter);
    long after = -1; /* the 8-byte message over the joined intercommunicator */
    for (size_t i = (size_t)j + 1; i < l.n; i++)
      if ((l.ev[i].type == AUGUR_EV_SEND || l.ev[i].type == AUGUR_EV_RECV) &&
          l.ev[i].comm == J->req)
        after = (long)i;
    if (joined) {
      CHECK(after > j, "rank %u: no message over the joined intercommunicator", r);
      if (after > j) {
        const augur_event *m = &l.ev[after];
        CHECK(m->type == (r ? AUGUR_EV_SEND : AUGUR_EV_RECV) && m->peer == (int32_t)(1 - r) &&
                  m->tag == 9 && m->bytes + m->bytes_recv == 8 && (m->flags & AUGUR_F_INTER),
              "rank %u: %s peer %d tag %d flags %#x", r, augur_event_name(m->type), m->peer, m->tag,
              m->flags);
      }
      long dj = nth(&l, AUGUR_EV_COMM_DISCONNECT, spawned ? 1 : 0);
      CHECK(dj > j && l.ev[dj].comm == J->req, "rank %u: Comm_disconnect of the joined comm", r);
    } else {
      CHECK(nth(&l, AUGUR_EV_COMM_DISCONNECT, spawned ? 1 : 0) < 0,
            "rank %u: Comm_disconnect after a failed join", r);
    }
    free(l.ev);
  }
  return failures;
}
