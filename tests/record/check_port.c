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
