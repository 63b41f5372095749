/* Checks a trace recorded from one of the recorder test programs through the
 * reader and asserts exact facts. Usage:
 *
 *   augur-check-record basic TRACE NRANKS LINE [--counter NAME | --counter-or-note NAME]
 *                                              [--hash]
 *   augur-check-record threads TRACE NRANKS
 *   augur-check-record abort TRACE NRANKS
 *   augur-check-record noexit TRACE NRANKS
 *   augur-check-record fork TRACE NRANKS
 *   augur-check-record more TRACE NRANKS [--hash]   (even NRANKS)
 *   augur-check-record recvbuf TRACE 2
 *   augur-check-record io TRACE NRANKS [--fortran] (check_io.c)
 *
 * LINE is the source line of the AUGUR_MARK_EXSCAN call in rec_basic.c.
 * Prints every failed expectation; exit status 1 if any failed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/reader.h"
#include "check.h"

static size_t count(const evlist *l, unsigned type) {
  size_t c = 0;
  for (size_t i = 0; i < l->n; i++)
    c += l->ev[i].type == type;
  return c;
}

/* Index of the k-th (0-based) event of a type, or -1. */
static long nth(const evlist *l, unsigned type, int k) {
  for (size_t i = 0; i < l->n; i++)
    if (l->ev[i].type == type && k-- == 0) return (long)i;
  return -1;
}

static const augur_event *at(const evlist *l, long i) {
  static augur_event none;
  return i >= 0 && (size_t)i < l->n ? &l->ev[i] : &none;
}

static void expect_count(const evlist *l, uint32_t r, unsigned type, size_t want) {
  size_t got = count(l, type);
  CHECK(got == want, "rank %u: %s: %zu events, expected %zu", r, augur_event_name(type), got, want);
}

static int check_members(const augur_trace *t, uint64_t id, const int32_t *want, uint32_t n,
                         const char *what) {
  const augur_comm_def *c = augur_trace_comm(t, id);
  CHECK(c != NULL, "%s: communicator 0x%" PRIx64 " not defined", what, id);
  if (!c) return -1;
  CHECK(c->size == n, "%s: size %u, expected %u", what, c->size, n);
  for (uint32_t i = 0; i < n && i < c->size; i++)
    CHECK(c->members[i] == want[i], "%s: member %u is %d, expected %d", what, i, c->members[i],
          want[i]);
  return 0;
}

/* ---- basic ---- */

static void check_basic_rank(augur_trace *t, uint32_t r, uint32_t n, const evlist *l, int line) {
  int right = (int)((r + 1) % n), left = (int)((r + n - 1) % n);
  /* parity split, key = -rank: members in descending world rank */
  int color = n >= 4 ? (int)(r % 2) : 0;
  int32_t group[64];
  uint32_t gsize = 0;
  for (int w = (int)n - 1; w >= 0; w--)
    if ((n >= 4 ? w % 2 : 0) == color) group[gsize++] = w;
  int srank = -1;
  for (uint32_t i = 0; i < gsize; i++)
    if (group[i] == (int)r) srank = (int)i;

  expect_count(l, r, AUGUR_EV_INIT, 1);
  expect_count(l, r, AUGUR_EV_FINALIZE, 1);
  expect_count(l, r, AUGUR_EV_ISEND, 5);
  expect_count(l, r, AUGUR_EV_IRECV, 3);
  expect_count(l, r, AUGUR_EV_RECV, 2 + (srank == 1));
  expect_count(l, r, AUGUR_EV_SEND, srank == 0 && gsize >= 2);
  expect_count(l, r, AUGUR_EV_WAIT, 4);
  expect_count(l, r, AUGUR_EV_WAITALL, 4);
  expect_count(l, r, AUGUR_EV_WAITANY, 2);
  expect_count(l, r, AUGUR_EV_SENDRECV, 2);
  expect_count(l, r, AUGUR_EV_PROBE, 1);
  expect_count(l, r, AUGUR_EV_TEST, 1);
  expect_count(l, r, AUGUR_EV_IPROBE, 1);
  expect_count(l, r, AUGUR_EV_BARRIER, 1);
  expect_count(l, r, AUGUR_EV_BCAST, 1);
  expect_count(l, r, AUGUR_EV_REDUCE, 1);
  expect_count(l, r, AUGUR_EV_ALLREDUCE, 1);
  expect_count(l, r, AUGUR_EV_GATHER, 1);
  expect_count(l, r, AUGUR_EV_ALLGATHER, 1);
  expect_count(l, r, AUGUR_EV_ALLTOALL, 1);
  expect_count(l, r, AUGUR_EV_SCATTERV, 1);
  expect_count(l, r, AUGUR_EV_REDUCE_SCATTER_BLOCK, 1);
  expect_count(l, r, AUGUR_EV_IBCAST, 1);
  expect_count(l, r, AUGUR_EV_IALLREDUCE, 1);
  expect_count(l, r, AUGUR_EV_COMM_SPLIT, 2);
  expect_count(l, r, AUGUR_EV_CART_CREATE, 1);
  expect_count(l, r, AUGUR_EV_COMM_DUP, 1);
  expect_count(l, r, AUGUR_EV_COMM_FREE, 4);
  expect_count(l, r, AUGUR_EV_SEND_INIT, 1);
  expect_count(l, r, AUGUR_EV_RECV_INIT, 1);
  expect_count(l, r, AUGUR_EV_STARTALL, 3);
  expect_count(l, r, AUGUR_EV_REQUEST_FREE, 2);
  expect_count(l, r, AUGUR_EV_EXSCAN, 1);
  expect_count(l, r, AUGUR_EV_SCAN, 1);
  expect_count(l, r, AUGUR_EV_COMPLETION, 16);
  expect_count(l, r, AUGUR_EV_SUB_RECV, 2);
  expect_count(l, r, AUGUR_EV_SUB_START, 6);
  CHECK(l->n == (size_t)(79 + (srank == 1) + (srank == 0 && gsize >= 2)),
        "rank %u: %zu records in all", r, l->n);

  for (size_t i = 1; i < l->n; i++)
    CHECK(l->ev[i].t_start >= l->ev[i - 1].t_start, "rank %u: record %zu goes back in time", r, i);
  for (size_t i = 0; i < l->n; i++) {
    CHECK(l->ev[i].rank == r, "rank %u: record %zu has rank %u", r, i, l->ev[i].rank);
    CHECK(l->ev[i].thread == 0, "rank %u: record %zu on thread %u", r, i, l->ev[i].thread);
    CHECK(l->ev[i].t_end >= l->ev[i].t_start, "rank %u: record %zu ends before it starts", r, i);
  }

  /* 1. ring: the wildcard receive resolved to the left neighbour */
  const augur_event *is = at(l, nth(l, AUGUR_EV_ISEND, 0));
  CHECK(is->peer == right && is->tag == 7 && is->bytes == 400 && is->comm == AUGUR_COMM_WORLD,
        "rank %u: ring Isend peer %d tag %d bytes %" PRIu64, r, is->peer, is->tag, is->bytes);
  const augur_event *rv = at(l, nth(l, AUGUR_EV_RECV, 0));
  CHECK(rv->peer == left && rv->tag == 7 && rv->bytes_recv == 400,
        "rank %u: ring Recv peer %d tag "
        "%d bytes_recv %" PRIu64,
        r, rv->peer, rv->tag, rv->bytes_recv);
  CHECK((rv->flags & (AUGUR_F_ANY_SOURCE | AUGUR_F_ANY_TAG)) == AUGUR_F_ANY_SOURCE,
        "rank %u: ring Recv flags 0x%x", r, rv->flags);
  long w = nth(l, AUGUR_EV_WAIT, 0);
  CHECK(at(l, w)->aux == 1 && at(l, w + 1)->type == AUGUR_EV_COMPLETION &&
            at(l, w + 1)->req == is->req && (at(l, w + 1)->flags & AUGUR_F_SENDREQ),
        "rank %u: ring Wait completion (aux %u, next type %u, flags 0x%x)", r, at(l, w)->aux,
        at(l, w + 1)->type, at(l, w + 1)->flags);
  CHECK(at(l, w + 1)->peer == right, "rank %u: send completion peer %d", r, at(l, w + 1)->peer);

  /* 2. halo Waitall: four completions, receives from left/right */
  long wa = nth(l, AUGUR_EV_WAITALL, 0);
  CHECK(at(l, wa)->aux == 4, "rank %u: Waitall aux %u", r, at(l, wa)->aux);
  for (int k = 0; k < 4; k++) {
    const augur_event *c = at(l, wa + 1 + k);
    CHECK(c->type == AUGUR_EV_COMPLETION, "rank %u: Waitall sub %d type %u", r, k, c->type);
    if (c->aux < 2) {
      CHECK((c->flags & AUGUR_F_RECVREQ) && c->peer == (c->aux == 0 ? left : right) &&
                c->bytes_recv == 80 && c->tag == (int)c->aux + 1,
            "rank %u: halo receive completion %u: flags 0x%x peer %d bytes %" PRIu64, r, c->aux,
            c->flags, c->peer, c->bytes_recv);
    } else {
      CHECK((c->flags & AUGUR_F_SENDREQ) && c->peer == (c->aux == 2 ? right : left) &&
                c->bytes == 80,
            "rank %u: halo send completion %u: flags 0x%x peer %d bytes %" PRIu64, r, c->aux,
            c->flags, c->peer, c->bytes);
    }
  }

  /* 3. Sendrecv: parent = send side, one SUB_RECV */
  long sr = nth(l, AUGUR_EV_SENDRECV, 0);
  CHECK(at(l, sr)->peer == right && at(l, sr)->bytes == 20 && at(l, sr)->bytes_recv == 20 &&
            at(l, sr)->aux == 1,
        "rank %u: Sendrecv peer %d bytes %" PRIu64 "/%" PRIu64, r, at(l, sr)->peer,
        at(l, sr)->bytes, at(l, sr)->bytes_recv);
  CHECK(at(l, sr + 1)->type == AUGUR_EV_SUB_RECV && at(l, sr + 1)->peer == left &&
            at(l, sr + 1)->bytes_recv == 20 && at(l, sr + 1)->tag == 3,
        "rank %u: Sendrecv SUB_RECV peer %d", r, at(l, sr + 1)->peer);

  /* 4. Probe */
  const augur_event *pr = at(l, nth(l, AUGUR_EV_PROBE, 0));
  CHECK(pr->peer == left && pr->tag == 11 && pr->bytes_recv == 24,
        "rank %u: Probe peer %d tag %d "
        "bytes %" PRIu64,
        r, pr->peer, pr->tag, pr->bytes_recv);

  /* 5. Waitany: aux = index, one completion each, indices {0,1} */
  unsigned seen = 0;
  for (int k = 0; k < 2; k++) {
    long wy = nth(l, AUGUR_EV_WAITANY, k);
    CHECK(at(l, wy)->aux < 2 && at(l, wy + 1)->type == AUGUR_EV_COMPLETION &&
              at(l, wy + 1)->aux == at(l, wy)->aux,
          "rank %u: Waitany %d aux %u", r, k, at(l, wy)->aux);
    seen |= 1u << (at(l, wy)->aux & 1);
  }
  CHECK(seen == 3, "rank %u: Waitany indices 0x%x", r, seen);

  /* 6. nothing found */
  long te = nth(l, AUGUR_EV_TEST, 0);
  CHECK(at(l, te)->aux == 0 && !(at(l, te)->flags & AUGUR_F_NOTDONE) &&
            at(l, te + 1)->type != AUGUR_EV_COMPLETION,
        "rank %u: Test on MPI_REQUEST_NULL (aux %u flags 0x%x)", r, at(l, te)->aux,
        at(l, te)->flags);
  CHECK(at(l, nth(l, AUGUR_EV_IPROBE, 0))->flags & AUGUR_F_NOTDONE, "rank %u: Iprobe not NOTDONE",
        r);

  /* 7. collectives */
  const augur_event *b = at(l, nth(l, AUGUR_EV_BCAST, 0));
  if (r == 0)
    CHECK(b->bytes == 1000 && b->bytes_recv == 0 && (b->flags & AUGUR_F_ROOT) && b->peer == 0,
          "rank %u: Bcast root bytes %" PRIu64 " flags 0x%x", r, b->bytes, b->flags);
  else
    CHECK(b->bytes == 0 && b->bytes_recv == 1000 && !(b->flags & AUGUR_F_ROOT) && b->peer == 0,
          "rank %u: Bcast bytes %" PRIu64 "/%" PRIu64 " flags 0x%x", r, b->bytes, b->bytes_recv,
          b->flags);
  const augur_event *rd = at(l, nth(l, AUGUR_EV_REDUCE, 0));
  CHECK(rd->bytes == 32 && rd->bytes_recv == (r == n - 1 ? 32u : 0u) && rd->peer == (int)n - 1 &&
            !!(rd->flags & AUGUR_F_ROOT) == (r == n - 1),
        "rank %u: Reduce bytes %" PRIu64 "/%" PRIu64 " peer %d", r, rd->bytes, rd->bytes_recv,
        rd->peer);
  const augur_event *ar = at(l, nth(l, AUGUR_EV_ALLREDUCE, 0));
  CHECK(ar->bytes == 8 && ar->bytes_recv == 8 && ar->peer == AUGUR_PEER_NONE,
        "rank %u: Allreduce %" PRIu64 "/%" PRIu64 " peer %d", r, ar->bytes, ar->bytes_recv,
        ar->peer);
  const augur_event *ga = at(l, nth(l, AUGUR_EV_GATHER, 0));
  CHECK(ga->bytes == 12 && ga->bytes_recv == (r == 0 ? 12u * n : 0u),
        "rank %u: Gather %" PRIu64 "/%" PRIu64, r, ga->bytes, ga->bytes_recv);
  const augur_event *ag = at(l, nth(l, AUGUR_EV_ALLGATHER, 0));
  CHECK(ag->bytes == 4 && ag->bytes_recv == 4u * n, "rank %u: Allgather", r);
  const augur_event *aa = at(l, nth(l, AUGUR_EV_ALLTOALL, 0));
  CHECK(aa->bytes == 8u * n && aa->bytes_recv == 8u * n, "rank %u: Alltoall", r);
  const augur_event *sv = at(l, nth(l, AUGUR_EV_SCATTERV, 0));
  CHECK(sv->bytes == (r == 1 ? 2u * n * (n + 1) : 0u) && sv->bytes_recv == 4u * (r + 1) &&
            sv->peer == 1,
        "rank %u: Scatterv %" PRIu64 "/%" PRIu64, r, sv->bytes, sv->bytes_recv);
  const augur_event *rsb = at(l, nth(l, AUGUR_EV_REDUCE_SCATTER_BLOCK, 0));
  CHECK(rsb->bytes == 4u * n && rsb->bytes_recv == 4, "rank %u: Reduce_scatter_block", r);
  const augur_event *ib = at(l, nth(l, AUGUR_EV_IBCAST, 0));
  long wib = nth(l, AUGUR_EV_WAIT, 2);
  CHECK(ib->req != 0 && at(l, wib + 1)->req == ib->req && (at(l, wib + 1)->flags & AUGUR_F_COLLREQ),
        "rank %u: Ibcast completion flags 0x%x", r, at(l, wib + 1)->flags);
  CHECK(at(l, nth(l, AUGUR_EV_IALLREDUCE, 0))->flags & AUGUR_F_IN_PLACE,
        "rank %u: Iallreduce not IN_PLACE", r);

  /* 8. communicators */
  const augur_event *s1 = at(l, nth(l, AUGUR_EV_COMM_SPLIT, 0));
  const augur_event *s2 = at(l, nth(l, AUGUR_EV_COMM_SPLIT, 1));
  const augur_event *cc = at(l, nth(l, AUGUR_EV_CART_CREATE, 0));
  const augur_event *du = at(l, nth(l, AUGUR_EV_COMM_DUP, 0));
  int32_t revm[64], world[64];
  for (uint32_t i = 0; i < n; i++) {
    revm[i] = (int32_t)(n - 1 - i);
    world[i] = (int32_t)i;
  }
  CHECK(s1->comm == AUGUR_COMM_WORLD && s1->req > AUGUR_COMM_SELF, "rank %u: split ids", r);
  check_members(t, s1->req, revm, n, "reversed split");
  check_members(t, s2->req, group, gsize, "parity split");
  check_members(t, cc->req, revm, n, "cartesian");
  check_members(t, du->req, world, n, "dup");
  const augur_comm_def *cd = augur_trace_comm(t, cc->req);
  if (cd)
    CHECK(cd->kind == AUGUR_COMM_KIND_CART && cd->ndims == 1 && cd->dims[0] == (int)n &&
              cd->periods[0] == 1 && cd->parent == s1->req,
          "rank %u: cartesian def kind %u ndims %u", r, cd->kind, cd->ndims);
  CHECK(cc->comm == s1->req, "rank %u: Cart_create parent", r);
  CHECK(s1->req != s2->req && s1->req != cc->req && s1->req != du->req && s2->req != cc->req,
        "rank %u: communicator ids collide", r);
  if (srank == 0 && gsize >= 2) {
    const augur_event *se = at(l, nth(l, AUGUR_EV_SEND, 0));
    CHECK(se->comm == s2->req && se->peer == group[1], "rank %u: split Send peer %d, expected %d",
          r, se->peer, group[1]);
  }
  if (srank == 1) {
    const augur_event *re = at(l, nth(l, AUGUR_EV_RECV, 2));
    CHECK(re->comm == s2->req && re->peer == group[0], "rank %u: split Recv peer %d, expected %d",
          r, re->peer, group[0]);
  }
  long csr = nth(l, AUGUR_EV_SENDRECV, 1);
  CHECK(at(l, csr)->comm == cc->req && at(l, csr)->peer == left && at(l, csr + 1)->peer == right,
        "rank %u: cartesian Sendrecv peers %d/%d, expected %d/%d", r, at(l, csr)->peer,
        at(l, csr + 1)->peer, left, right);
  uint64_t freed[4] = {du->req, cc->req, s2->req, s1->req};
  for (int k = 0; k < 4; k++)
    CHECK(at(l, nth(l, AUGUR_EV_COMM_FREE, k))->comm == freed[k], "rank %u: Comm_free %d", r, k);

  /* 9. persistent */
  const augur_event *si = at(l, nth(l, AUGUR_EV_SEND_INIT, 0));
  const augur_event *ri = at(l, nth(l, AUGUR_EV_RECV_INIT, 0));
  CHECK(si->peer == right && si->bytes == 16 && ri->peer == left && ri->bytes_recv == 16,
        "rank %u: *_init fields", r);
  for (int k = 0; k < 3; k++) {
    long sa = nth(l, AUGUR_EV_STARTALL, k);
    CHECK(at(l, sa)->aux == 2 && at(l, sa + 1)->type == AUGUR_EV_SUB_START &&
              at(l, sa + 1)->req == si->req && at(l, sa + 2)->req == ri->req,
          "rank %u: Startall %d", r, k);
    long wp = nth(l, AUGUR_EV_WAITALL, 1 + k);
    CHECK((at(l, wp + 1)->flags & AUGUR_F_PERSISTENT) &&
              (at(l, wp + 2)->flags & AUGUR_F_PERSISTENT) && at(l, wp + 2)->peer == left &&
              at(l, wp + 2)->bytes_recv == 16,
          "rank %u: persistent completions %d flags 0x%x", r, k, at(l, wp + 1)->flags);
  }
  CHECK(at(l, nth(l, AUGUR_EV_REQUEST_FREE, 0))->req == si->req &&
            at(l, nth(l, AUGUR_EV_REQUEST_FREE, 1))->req == ri->req,
        "rank %u: Request_free handles", r);

  /* 10. call site of the marked line */
  const augur_event *ex = at(l, nth(l, AUGUR_EV_EXSCAN, 0));
  augur_srcloc loc;
  memset(&loc, 0, sizeof loc);
  CHECK(ex->callsite != 0, "rank %u: Exscan has no call site", r);
  if (ex->callsite && augur_trace_resolve(t, (uint32_t)ex->callsite, &loc) == AUGUR_OK)
    CHECK(loc.line == line && loc.file && strstr(loc.file, "rec_basic.c") && loc.function &&
              strcmp(loc.function, "main") == 0,
          "rank %u: Exscan call site %s:%d in %s, expected rec_basic.c:%d in main", r,
          loc.file ? loc.file : "?", loc.line, loc.function ? loc.function : "?", line);
  else
    CHECK(0, "rank %u: Exscan call site does not resolve", r);
}

static int check_basic(augur_trace *t, uint32_t n, int argc, char **argv) {
  if (argc < 5) return 2;
  int line = atoi(argv[4]);
  const char *counter = NULL;
  int or_note = 0, hash = 0;
  for (int i = 5; i < argc; i++) {
    if (strcmp(argv[i], "--counter") == 0 && i + 1 < argc)
      counter = argv[++i];
    else if (strcmp(argv[i], "--counter-or-note") == 0 && i + 1 < argc) {
      counter = argv[++i];
      or_note = 1;
    } else if (strcmp(argv[i], "--hash") == 0)
      hash = 1;
  }
  const augur_trace_info *info = augur_trace_info_get(t);
  CHECK(info->complete == 1, "trace not complete");
  CHECK(info->payload_hash == hash, "payload_hash %d", info->payload_hash);
  CHECK(info->mpi_library &&
            (strcmp(info->mpi_library, "MPICH") == 0 || strcmp(info->mpi_library, "Open MPI") == 0),
        "mpi_library %s", info->mpi_library ? info->mpi_library : "(null)");
  CHECK(info->argc >= 1 && strstr(info->argv[0], "rec_basic"), "argv[0] %s",
        info->argc ? info->argv[0] : "(none)");
  evlist *all = calloc(n, sizeof *all);
  for (uint32_t r = 0; r < n; r++) {
    if (load_rank(t, r, &all[r]) != 0) continue;
    check_basic_rank(t, r, n, &all[r], line);
    const augur_rank_def *rd = augur_trace_rank(t, r);
    CHECK(rd && rd->nsync == 2 && rd->finalize_ns > rd->init_ns && rd->thread_level == -1,
          "rank %u: rank def (nsync %u)", r, rd ? rd->nsync : 0);
    /* where it ran (format minor 3); on rank 0's host (every test runs on
     * one) its clock is rank 0's: no ping-pong, offset 0 */
    CHECK(rd && rd->cores > 0 && rd->cpus && rd->cpus[0], "rank %u: cores %u, cpus %s", r,
          rd ? rd->cores : 0, rd && rd->cpus ? rd->cpus : "(null)");
    const char *sync = getenv("AUGUR_CLOCK_SYNC"); /* all: every rank ping-pongs */
    int pinged = sync && !strcmp(sync, "all") && r > 0;
    for (uint32_t k = 0; rd && pinged && k < rd->nsync; k++)
      CHECK(rd->sync[k].rtt_ns > 0, "rank %u: clock sync %u not measured", r, k);
    for (uint32_t k = 0; rd && !pinged && k < rd->nsync; k++)
      CHECK(rd->sync[k].offset_ns == 0 && rd->sync[k].rtt_ns == 0,
            "rank %u: clock sync %u on rank 0's host: offset %lld ns, round trip %llu ns", r, k,
            (long long)rd->sync[k].offset_ns, (unsigned long long)rd->sync[k].rtt_ns);
  }
  /* counters */
  uint32_t nc = augur_trace_ncounters(t);
  const augur_rank_def *rd0 = augur_trace_rank(t, 0);
  if (counter) {
    int found = -1;
    for (uint32_t i = 0; i < nc; i++)
      if (strcmp(augur_trace_counter(t, i)->name, counter) == 0) found = (int)i;
    if (found < 0 && or_note) {
      CHECK(rd0 && rd0->counter_note && strstr(rd0->counter_note, counter),
            "counter %s neither recorded nor explained (note: %s)", counter,
            rd0 && rd0->counter_note ? rd0->counter_note : "(none)");
      printf("counter %s unavailable: %s\n", counter,
             rd0 && rd0->counter_note ? rd0->counter_note : "");
    } else {
      CHECK(found >= 0, "counter %s not defined (note: %s)", counter,
            rd0 && rd0->counter_note ? rd0->counter_note : "(none)");
      for (uint32_t r = 0; found >= 0 && r < n; r++) {
        const augur_event *sc = at(&all[r], nth(&all[r], AUGUR_EV_SCAN, 0));
        const augur_event *ex = at(&all[r], nth(&all[r], AUGUR_EV_EXSCAN, 0));
        CHECK(sc->ctr[found] > 0, "rank %u: %s over a 2 ms burst is 0", r, counter);
        if (strcmp(counter, "task-clock") == 0) /* ns of CPU time */
          CHECK(sc->ctr[found] >= 1000000 && sc->ctr[found] > ex->ctr[found],
                "rank %u: task-clock burst %" PRIu64 " ns", r, sc->ctr[found]);
      }
    }
  } else {
    CHECK(nc > 0 || (rd0 && rd0->counter_note && *rd0->counter_note),
          "no counters and no note saying why");
  }
  /* payload fingerprints: what the left neighbour sent is what arrived */
  if (hash)
    for (uint32_t r = 0; r < n; r++) {
      uint32_t lr = (r + n - 1) % n;
      const augur_event *snd = at(&all[lr], nth(&all[lr], AUGUR_EV_ISEND, 0));
      const augur_event *rcv = at(&all[r], nth(&all[r], AUGUR_EV_RECV, 0));
      CHECK(snd->hash != 0 && snd->hash == rcv->hash,
            "rank %u: ring hash %016" PRIx64 " received, %016" PRIx64 " sent", r, rcv->hash,
            snd->hash);
      long wa = nth(&all[r], AUGUR_EV_WAITALL, 0);
      const augur_event *c0 = at(&all[r], wa + 1); /* Irecv from left, index 0 */
      const augur_event *s1 = at(&all[lr], nth(&all[lr], AUGUR_EV_ISEND, 1));
      CHECK(c0->hash != 0 && c0->hash == s1->hash, "rank %u: Irecv completion hash", r);
    }
  for (uint32_t r = 0; r < n; r++)
    free(all[r].ev);
  free(all);
  return 0;
}

/* ---- threads ---- */

static int check_threads(augur_trace *t, uint32_t n) {
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) continue;
    size_t sends[3] = {0}, recvs[3] = {0};
    uint64_t comm_of[3] = {0};
    for (size_t i = 0; i < l.n; i++) {
      const augur_event *e = &l.ev[i];
      CHECK(e->thread < 3, "rank %u: thread index %u", r, e->thread);
      if (e->thread >= 3) continue;
      if (e->type == AUGUR_EV_SEND || e->type == AUGUR_EV_RECV) {
        CHECK(e->thread != 0, "rank %u: p2p on the main thread", r);
        CHECK(e->peer == (int)(r ^ 1), "rank %u: peer %d", r, e->peer);
        if (!comm_of[e->thread]) comm_of[e->thread] = e->comm;
        CHECK(e->comm == comm_of[e->thread] && e->comm > AUGUR_COMM_SELF,
              "rank %u thread %u: mixed communicators", r, e->thread);
        (e->type == AUGUR_EV_SEND ? sends : recvs)[e->thread]++;
      }
    }
    for (int th = 1; th <= 2; th++)
      CHECK(sends[th] == 50 && recvs[th] == 50, "rank %u thread %d: %zu sends %zu recvs", r, th,
            sends[th], recvs[th]);
    CHECK(comm_of[1] != comm_of[2], "rank %u: both threads on one communicator", r);
    expect_count(&l, r, AUGUR_EV_INIT_THREAD, 1);
    expect_count(&l, r, AUGUR_EV_COMM_DUP, 2);
    expect_count(&l, r, AUGUR_EV_BARRIER, 1);
    expect_count(&l, r, AUGUR_EV_COMM_FREE, 2);
    expect_count(&l, r, AUGUR_EV_FINALIZE, 1);
    long it = nth(&l, AUGUR_EV_INIT_THREAD, 0);
    CHECK(at(&l, it)->tag == 3, "rank %u: INIT_THREAD provided level %d", r, at(&l, it)->tag);
    const augur_rank_def *rd = augur_trace_rank(t, r);
    CHECK(rd && rd->thread_level == 3, "rank %u: thread level", r);
    free(l.ev);
  }
  return 0;
}

/* ---- abort ---- */

static int check_abort(augur_trace *t, uint32_t n) {
  (void)n;
  CHECK(augur_trace_info_get(t)->complete == 0, "an aborted trace says complete");
  evlist l;
  if (load_rank(t, 0, &l) != 0) return 0;
  expect_count(&l, 0, AUGUR_EV_INIT, 1);
  expect_count(&l, 0, AUGUR_EV_ALLREDUCE, 20);
  expect_count(&l, 0, AUGUR_EV_ABORT, 1);
  expect_count(&l, 0, AUGUR_EV_FINALIZE, 0);
  CHECK(l.n == 22 && at(&l, 21)->type == AUGUR_EV_ABORT, "rank 0: %zu records", l.n);
  free(l.ev);
  return 0;
}

/* ---- noexit: no MPI_Finalize, the atexit hook flushed ---- */

static int check_noexit(augur_trace *t, uint32_t n) {
  CHECK(augur_trace_info_get(t)->complete == 0, "a trace without MPI_Finalize says complete");
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) continue;
    expect_count(&l, r, AUGUR_EV_INIT, 1);
    expect_count(&l, r, AUGUR_EV_ALLREDUCE, 5);
    CHECK(l.n == 6, "rank %u: %zu records", r, l.n);
    const augur_rank_def *rd = augur_trace_rank(t, r);
    CHECK(rd && rd->finalize_ns == 0 && rd->nsync == 1, "rank %u: rank def after exit", r);
    free(l.ev);
  }
  return 0;
}

/* ---- fork: rec_fork.c, a child of fork() that exits leaves the trace alone ---- */

static int check_fork(augur_trace *t, uint32_t n) {
  CHECK(augur_trace_info_get(t)->complete == 1, "the parent's MPI_Finalize is not in the trace");
  for (uint32_t r = 0; r < n; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) continue;
    expect_count(&l, r, AUGUR_EV_INIT, 1);
    expect_count(&l, r, AUGUR_EV_ALLREDUCE, 10);
    expect_count(&l, r, AUGUR_EV_FINALIZE, 1);
    CHECK(l.n == 12, "rank %u: %zu records, want 12 (each once)", r, l.n);
    free(l.ev);
  }
  return 0;
}

/* ---- more: rec_more.c (send modes, matched probes, Test*, intercomms, constructors) ---- */

/* Expects the COMPLETION at index i of the parent at p to be a receive from
 * world rank peer with tag and bytes_recv, or a send to peer with bytes. */
static void expect_completion(const evlist *l, uint32_t r, long c, uint32_t aux, int recv, int peer,
                              int tag, uint64_t bytes, const char *what) {
  const augur_event *e = at(l, c);
  CHECK(e->type == AUGUR_EV_COMPLETION && e->aux == aux &&
            (e->flags & (recv ? AUGUR_F_RECVREQ : AUGUR_F_SENDREQ)) && e->peer == peer &&
            e->tag == tag && (recv ? e->bytes_recv : e->bytes) == bytes &&
            (recv || e->bytes_recv == 0) && !(e->flags & AUGUR_F_UNMATCHED),
        "rank %u: %s completion: type %u aux %u flags 0x%x peer %d tag %d bytes %" PRIu64
        "/%" PRIu64 ", expected aux %u peer %d tag %d bytes %" PRIu64,
        r, what, e->type, e->aux, e->flags, e->peer, e->tag, e->bytes, e->bytes_recv, aux, peer,
        tag, bytes);
}

/* A Test* loop: the first call of the k-th run of `type` is NOTDONE with no
 * completion; every call up to the last is NOTDONE; returns the index of the
 * last (the one that completed) and how many calls the run took. */
static long test_run(const evlist *l, uint32_t r, unsigned type, long from, long to,
                     const char *what) {
  long last = -1;
  int calls = 0;
  for (long i = from; i < to; i++) {
    if (l->ev[i].type != type) continue;
    if (last >= 0)
      CHECK((at(l, last)->flags & AUGUR_F_NOTDONE) && at(l, last + 1)->type != AUGUR_EV_COMPLETION,
            "rank %u: %s call %d before the last is not NOTDONE (flags 0x%x)", r, what, calls,
            at(l, last)->flags);
    last = i;
    calls++;
  }
  CHECK(calls >= 2, "rank %u: %s: %d calls, expected one before the barrier and >= 1 after", r,
        what, calls);
  return last;
}

static void check_more_rank(augur_trace *t, uint32_t r, uint32_t n, const evlist *l) {
  int right = (int)((r + 1) % n), left = (int)((r + n - 1) % n);
  int even = r % 2 == 0, partner = even ? (int)r + 1 : (int)r - 1;

  expect_count(l, r, AUGUR_EV_INIT, 1);
  expect_count(l, r, AUGUR_EV_FINALIZE, 1);
  expect_count(l, r, AUGUR_EV_BARRIER, 8);
  expect_count(l, r, AUGUR_EV_SSEND, 1);
  expect_count(l, r, AUGUR_EV_BSEND, 1);
  expect_count(l, r, AUGUR_EV_RSEND, 1);
  expect_count(l, r, AUGUR_EV_ISSEND, 1);
  expect_count(l, r, AUGUR_EV_IBSEND, 1);
  expect_count(l, r, AUGUR_EV_IRSEND, 1);
  expect_count(l, r, AUGUR_EV_SEND, 8);
  expect_count(l, r, AUGUR_EV_RECV, 1);
  expect_count(l, r, AUGUR_EV_ISEND, 1);
  expect_count(l, r, AUGUR_EV_IRECV, 12);
  expect_count(l, r, AUGUR_EV_WAITALL, 3);
  expect_count(l, r, AUGUR_EV_WAIT, 2);
  expect_count(l, r, AUGUR_EV_MPROBE, 1);
  expect_count(l, r, AUGUR_EV_MRECV, 1);
  expect_count(l, r, AUGUR_EV_IMRECV, 1);
  expect_count(l, r, AUGUR_EV_SENDRECV_REPLACE, 1);
  expect_count(l, r, AUGUR_EV_SUB_RECV, 1);
  expect_count(l, r, AUGUR_EV_RECV_INIT, 3);
  expect_count(l, r, AUGUR_EV_BSEND_INIT, 1);
  expect_count(l, r, AUGUR_EV_SSEND_INIT, 1);
  expect_count(l, r, AUGUR_EV_RSEND_INIT, 1);
  expect_count(l, r, AUGUR_EV_STARTALL, 2);
  expect_count(l, r, AUGUR_EV_SUB_START, 6);
  expect_count(l, r, AUGUR_EV_REQUEST_FREE, 6);
  expect_count(l, r, AUGUR_EV_COMM_SPLIT, 1);
  expect_count(l, r, AUGUR_EV_INTERCOMM_CREATE, 1);
  expect_count(l, r, AUGUR_EV_INTERCOMM_MERGE, 1);
  expect_count(l, r, AUGUR_EV_BCAST, 1);
  expect_count(l, r, AUGUR_EV_COMM_IDUP, 1);
  expect_count(l, r, AUGUR_EV_COMM_SPLIT_TYPE, 1);
  expect_count(l, r, AUGUR_EV_COMM_CREATE, 1);
  expect_count(l, r, AUGUR_EV_GRAPH_CREATE, 1);
  expect_count(l, r, AUGUR_EV_DIST_GRAPH_CREATE, 1);
  expect_count(l, r, AUGUR_EV_DIST_GRAPH_CREATE_ADJACENT, 1);
  expect_count(l, r, AUGUR_EV_CART_CREATE, 1);
  expect_count(l, r, AUGUR_EV_CART_SUB, 1);
  expect_count(l, r, AUGUR_EV_ALLTOALLW, 1);
  expect_count(l, r, AUGUR_EV_REDUCE_SCATTER, 1);
  expect_count(l, r, AUGUR_EV_REDUCE_SCATTER_BLOCK, 1);
  expect_count(l, r, AUGUR_EV_SCAN, 1);
  expect_count(l, r, AUGUR_EV_COMM_FREE, 10 + (size_t)even);
  CHECK(count(l, AUGUR_EV_WAITSOME) >= 1 && count(l, AUGUR_EV_WAITSOME) <= 3,
        "rank %u: %zu Waitsome calls", r, count(l, AUGUR_EV_WAITSOME));
  /* 1 per completed request + Test* loops: the sum is fixed, the calls are not */
  expect_count(l, r, AUGUR_EV_COMPLETION, 3 + 6 + 2 + 1 + 2 + 1 + 6 + 2 + 1);
  for (size_t i = 1; i < l->n; i++)
    CHECK(l->ev[i].t_start >= l->ev[i - 1].t_start, "rank %u: record %zu goes back in time", r, i);

  /* A. send modes; the three receives complete over 1..3 Waitsome calls */
  const augur_event *ss = at(l, nth(l, AUGUR_EV_SSEND, 0)), *bs = at(l, nth(l, AUGUR_EV_BSEND, 0)),
                    *rs = at(l, nth(l, AUGUR_EV_RSEND, 0));
  CHECK(ss->peer == right && ss->tag == 20 && ss->bytes == 12 && bs->peer == right &&
            bs->tag == 21 && bs->bytes == 16 && rs->peer == right && rs->tag == 22 &&
            rs->bytes == 20 && ss->comm == AUGUR_COMM_WORLD,
        "rank %u: Ssend/Bsend/Rsend fields", r);
  unsigned seen = 0;
  uint32_t total = 0;
  for (int k = 0; k < 3; k++) {
    long w = nth(l, AUGUR_EV_WAITSOME, k);
    if (w < 0) break;
    CHECK(at(l, w)->aux >= 1, "rank %u: Waitsome %d completed nothing", r, k);
    total += at(l, w)->aux;
    for (uint32_t j = 0; j < at(l, w)->aux; j++) {
      uint32_t i = at(l, w + 1 + j)->aux;
      seen |= 1u << (i & 7);
      expect_completion(l, r, w + 1 + j, i, 1, left, 20 + (int)i, 12 + 4 * (uint64_t)i, "Waitsome");
      CHECK(at(l, w + 1 + j)->req == at(l, nth(l, AUGUR_EV_IRECV, (int)(i & 7)))->req,
            "rank %u: Waitsome completion %u request", r, i);
    }
  }
  CHECK(total == 3 && seen == 7, "rank %u: Waitsome completed %u (indices 0x%x)", r, total, seen);

  /* B. nonblocking send modes, one Waitall over 3 receives and 3 sends */
  const augur_event *iss = at(l, nth(l, AUGUR_EV_ISSEND, 0)),
                    *ibs = at(l, nth(l, AUGUR_EV_IBSEND, 0)),
                    *irs = at(l, nth(l, AUGUR_EV_IRSEND, 0));
  CHECK(iss->peer == left && iss->bytes == 16 && iss->tag == 30 && ibs->peer == left &&
            ibs->bytes == 24 && ibs->tag == 31 && irs->peer == left && irs->bytes == 8 &&
            irs->tag == 32,
        "rank %u: Issend/Ibsend/Irsend fields", r);
  long wb = nth(l, AUGUR_EV_WAITALL, 0);
  static const uint64_t bbytes[3] = {16, 24, 8};
  CHECK(at(l, wb)->aux == 6, "rank %u: Waitall B aux %u", r, at(l, wb)->aux);
  for (uint32_t k = 0; k < 3; k++) {
    expect_completion(l, r, wb + 1 + k, k, 1, right, 30 + (int)k, bbytes[k], "Waitall B recv");
    expect_completion(l, r, wb + 4 + k, k + 3, 0, left, 30 + (int)k, bbytes[k], "Waitall B send");
  }

  /* C. Testall: NOTDONE before the barrier, then both complete at once */
  long c0 = nth(l, AUGUR_EV_TESTALL, 0);
  long ta = test_run(l, r, AUGUR_EV_TESTALL, c0, (long)l->n, "Testall");
  CHECK(at(l, ta)->aux == 2 && !(at(l, ta)->flags & AUGUR_F_NOTDONE), "rank %u: last Testall", r);
  expect_completion(l, r, ta + 1, 0, 1, left, 40, 16, "Testall");
  expect_completion(l, r, ta + 2, 1, 1, right, 41, 16, "Testall");

  /* D. Testany: aux = index 1 (index 0 was MPI_REQUEST_NULL) */
  long d0 = nth(l, AUGUR_EV_TESTANY, 0);
  long tn = test_run(l, r, AUGUR_EV_TESTANY, d0, (long)l->n, "Testany");
  CHECK(at(l, tn)->aux == 1 && !(at(l, tn)->flags & AUGUR_F_NOTDONE),
        "rank %u: last Testany aux %u", r, at(l, tn)->aux);
  expect_completion(l, r, tn + 1, 1, 1, left, 50, 8, "Testany");

  /* E. Testsome: the two receives over one or more calls */
  long e0 = nth(l, AUGUR_EV_TESTSOME, 0);
  CHECK((at(l, e0)->flags & AUGUR_F_NOTDONE) && at(l, e0)->aux == 0 &&
            at(l, e0 + 1)->type != AUGUR_EV_COMPLETION,
        "rank %u: first Testsome flags 0x%x aux %u", r, at(l, e0)->flags, at(l, e0)->aux);
  seen = 0;
  total = 0;
  for (long i = e0; i < (long)l->n && total < 2; i++) {
    if (l->ev[i].type != AUGUR_EV_TESTSOME) continue;
    CHECK(!!(l->ev[i].flags & AUGUR_F_NOTDONE) == (l->ev[i].aux == 0),
          "rank %u: Testsome NOTDONE flag disagrees with aux %u", r, l->ev[i].aux);
    for (uint32_t j = 0; j < l->ev[i].aux; j++) {
      uint32_t x = at(l, i + 1 + j)->aux;
      seen |= 1u << (x & 7);
      expect_completion(l, r, i + 1 + j, x, 1, x ? right : left, 60 + (int)x, 12, "Testsome");
    }
    total += l->ev[i].aux;
  }
  CHECK(total == 2 && seen == 3, "rank %u: Testsome completed %u (0x%x)", r, total, seen);

  /* F. matched probes */
  long f0 = nth(l, AUGUR_EV_IMPROBE, 0);
  CHECK((at(l, f0)->flags & AUGUR_F_NOTDONE) && at(l, f0)->req == 0,
        "rank %u: first Improbe flags 0x%x", r, at(l, f0)->flags);
  const augur_event *mp = at(l, nth(l, AUGUR_EV_MPROBE, 0)), *mr = at(l, nth(l, AUGUR_EV_MRECV, 0));
  CHECK(mp->peer == left && mp->tag == 70 && mp->bytes_recv == 24 && mp->req != 0 &&
            (mp->flags & AUGUR_F_ANY_SOURCE) && mp->comm == AUGUR_COMM_WORLD,
        "rank %u: Mprobe peer %d tag %d bytes %" PRIu64 " flags 0x%x", r, mp->peer, mp->tag,
        mp->bytes_recv, mp->flags);
  CHECK(mr->peer == left && mr->tag == 70 && mr->bytes_recv == 24 && mr->req == mp->req &&
            mr->comm == AUGUR_COMM_WORLD,
        "rank %u: Mrecv peer %d tag %d bytes %" PRIu64 " comm %" PRIx64, r, mr->peer, mr->tag,
        mr->bytes_recv, mr->comm);
  long im = nth(l, AUGUR_EV_IMRECV, 0);
  long lastprobe = test_run(l, r, AUGUR_EV_IMPROBE, f0, im, "Improbe");
  const augur_event *ip = at(l, lastprobe), *ir = at(l, im);
  CHECK(ip->peer == left && ip->tag == 71 && ip->bytes_recv == 28 && ip->req != 0 &&
            !(ip->flags & AUGUR_F_NOTDONE),
        "rank %u: Improbe found peer %d tag %d bytes %" PRIu64, r, ip->peer, ip->tag,
        ip->bytes_recv);
  CHECK(ir->peer == left && ir->tag == 71 && ir->bytes_recv == 28 && ir->comm == AUGUR_COMM_WORLD &&
            ir->req != 0,
        "rank %u: Imrecv peer %d tag %d bytes %" PRIu64, r, ir->peer, ir->tag, ir->bytes_recv);
  long fw = nth(l, AUGUR_EV_WAIT, 0);
  CHECK(at(l, fw + 1)->req == ir->req, "rank %u: Imrecv completion request", r);
  expect_completion(l, r, fw + 1, 0, 1, left, 71, 28, "Imrecv");

  /* G. Sendrecv_replace */
  long g = nth(l, AUGUR_EV_SENDRECV_REPLACE, 0);
  CHECK(at(l, g)->peer == right && at(l, g)->tag == 80 && at(l, g)->bytes == 20 &&
            at(l, g)->bytes_recv == 20 && at(l, g)->aux == 1 &&
            at(l, g + 1)->type == AUGUR_EV_SUB_RECV && at(l, g + 1)->peer == left &&
            at(l, g + 1)->tag == 80 && at(l, g + 1)->bytes_recv == 20,
        "rank %u: Sendrecv_replace peer %d/%d", r, at(l, g)->peer, at(l, g + 1)->peer);

  /* H. persistent send modes */
  uint64_t preq[6];
  for (int k = 0; k < 3; k++) {
    const augur_event *ri = at(l, nth(l, AUGUR_EV_RECV_INIT, k));
    CHECK(ri->peer == left && ri->tag == 90 + k && ri->bytes_recv == 8, "rank %u: Recv_init %d", r,
          k);
    preq[k] = ri->req;
  }
  static const unsigned inits[3] = {AUGUR_EV_BSEND_INIT, AUGUR_EV_SSEND_INIT, AUGUR_EV_RSEND_INIT};
  for (int k = 0; k < 3; k++) {
    const augur_event *si = at(l, nth(l, inits[k], 0));
    CHECK(si->peer == right && si->tag == 90 + k && si->bytes == 8 && si->hash == 0,
          "rank %u: %s fields", r, augur_event_name(inits[k]));
    preq[3 + k] = si->req;
  }
  for (int k = 0; k < 2; k++) {
    long sa = nth(l, AUGUR_EV_STARTALL, k);
    CHECK(at(l, sa)->aux == 3, "rank %u: Startall %d aux %u", r, k, at(l, sa)->aux);
    for (int j = 0; j < 3; j++)
      CHECK(at(l, sa + 1 + j)->type == AUGUR_EV_SUB_START &&
                at(l, sa + 1 + j)->req == preq[3 * k + j],
            "rank %u: Startall %d start %d", r, k, j);
  }
  long wh = nth(l, AUGUR_EV_WAITALL, 1);
  for (uint32_t k = 0; k < 6; k++) {
    expect_completion(l, r, wh + 1 + k, k, k < 3, k < 3 ? left : right, 90 + (int)(k % 3), 8,
                      "persistent");
    CHECK((at(l, wh + 1 + k)->flags & AUGUR_F_PERSISTENT) && at(l, wh + 1 + k)->req == preq[k],
          "rank %u: persistent completion %u flags 0x%x", r, k, at(l, wh + 1 + k)->flags);
  }
  for (int k = 0; k < 6; k++)
    CHECK(at(l, nth(l, AUGUR_EV_REQUEST_FREE, k))->req == preq[k], "rank %u: Request_free %d", r,
          k);

  /* I. intercommunicator: evens | odds, peers come back as world ranks */
  int32_t evens[64], odds[64], mergedm[64], world[64];
  uint32_t nh = n / 2;
  for (uint32_t i = 0; i < nh; i++) {
    evens[i] = (int32_t)(2 * i);
    odds[i] = (int32_t)(2 * i + 1);
    mergedm[i] = evens[i];
    mergedm[nh + i] = odds[i];
  }
  for (uint32_t i = 0; i < n; i++)
    world[i] = (int32_t)i;
  const augur_event *sp = at(l, nth(l, AUGUR_EV_COMM_SPLIT, 0));
  const augur_event *ic = at(l, nth(l, AUGUR_EV_INTERCOMM_CREATE, 0));
  const augur_event *mg = at(l, nth(l, AUGUR_EV_INTERCOMM_MERGE, 0));
  check_members(t, sp->req, even ? evens : odds, nh, "parity half");
  CHECK(ic->comm == sp->req && mg->comm == ic->req, "rank %u: Intercomm parents", r);
  const augur_comm_def *icd = augur_trace_comm(t, ic->req);
  if (check_members(t, ic->req, evens, nh, "intercomm members") == 0) {
    CHECK(icd->kind == AUGUR_COMM_KIND_INTERCOMM && icd->remote_size == nh,
          "rank %u: intercomm kind %u remote_size %u", r, icd->kind, icd->remote_size);
    for (uint32_t i = 0; i < nh && i < icd->remote_size; i++)
      CHECK(icd->remote[i] == odds[i], "rank %u: intercomm remote %u is %d", r, i, icd->remote[i]);
  }
  const augur_event *xs = at(l, nth(l, AUGUR_EV_SEND, 7)), *xr = at(l, nth(l, AUGUR_EV_RECV, 0));
  CHECK(xs->comm == ic->req && xs->peer == partner && (xs->flags & AUGUR_F_INTER) &&
            xs->bytes == 16 && xs->tag == 100,
        "rank %u: intercomm Send peer %d (expected world %d) flags 0x%x", r, xs->peer, partner,
        xs->flags);
  CHECK(xr->comm == ic->req && xr->peer == partner && (xr->flags & AUGUR_F_INTER) &&
            xr->bytes_recv == 16 && xr->tag == 100,
        "rank %u: intercomm Recv peer %d (expected world %d) flags 0x%x", r, xr->peer, partner,
        xr->flags);
  const augur_event *xir = at(l, nth(l, AUGUR_EV_IRECV, 11)),
                    *xis = at(l, nth(l, AUGUR_EV_ISEND, 0));
  CHECK(xir->peer == partner && xis->peer == partner && xis->comm == ic->req,
        "rank %u: intercomm Irecv/Isend peers %d/%d (expected %d)", r, xir->peer, xis->peer,
        partner);
  long wi = nth(l, AUGUR_EV_WAITALL, 2);
  expect_completion(l, r, wi + 1, 0, 1, partner, 101, 12, "intercomm Irecv");
  expect_completion(l, r, wi + 2, 1, 0, partner, 101, 12, "intercomm Isend");
  check_members(t, mg->req, mergedm, n, "merged");
  const augur_comm_def *mgd = augur_trace_comm(t, mg->req);
  if (mgd)
    CHECK(mgd->kind == AUGUR_COMM_KIND_MERGE && mgd->parent == ic->req && mgd->remote_size == 0,
          "rank %u: merged kind %u parent %" PRIx64, r, mgd->kind, mgd->parent);
  const augur_event *bc = at(l, nth(l, AUGUR_EV_BCAST, 0));
  CHECK(bc->comm == mg->req && bc->peer == 0 && bc->bytes == (r == 0 ? 40u : 0u) &&
            bc->bytes_recv == (r == 0 ? 0u : 40u) && !!(bc->flags & AUGUR_F_ROOT) == (r == 0),
        "rank %u: merged Bcast peer %d bytes %" PRIu64 "/%" PRIu64, r, bc->peer, bc->bytes,
        bc->bytes_recv);

  /* J. constructors: kind, parent, members, topology */
  const augur_event *idup = at(l, nth(l, AUGUR_EV_COMM_IDUP, 0));
  const augur_event *ib = at(l, nth(l, AUGUR_EV_BARRIER, 7));
  CHECK(idup->comm == AUGUR_COMM_WORLD && idup->req > AUGUR_COMM_SELF && ib->comm == idup->req,
        "rank %u: Comm_idup id %" PRIx64 ", Barrier on %" PRIx64, r, idup->req, ib->comm);
  long wd = nth(l, AUGUR_EV_WAIT, 1);
  CHECK(at(l, wd)->aux == 1 && at(l, wd + 1)->type == AUGUR_EV_COMPLETION &&
            (at(l, wd + 1)->flags & AUGUR_F_UNMATCHED),
        "rank %u: Comm_idup completion flags 0x%x", r, at(l, wd + 1)->flags);
  struct {
    unsigned type, kind;
    const char *what;
  } ctor[] = {{AUGUR_EV_COMM_IDUP, AUGUR_COMM_KIND_DUP, "idup"},
              {AUGUR_EV_COMM_SPLIT_TYPE, AUGUR_COMM_KIND_SPLIT_TYPE, "split_type"},
              {AUGUR_EV_GRAPH_CREATE, AUGUR_COMM_KIND_GRAPH, "graph"},
              {AUGUR_EV_DIST_GRAPH_CREATE, AUGUR_COMM_KIND_DIST_GRAPH, "dist graph"},
              {AUGUR_EV_DIST_GRAPH_CREATE_ADJACENT, AUGUR_COMM_KIND_DIST_GRAPH, "adjacent"},
              {AUGUR_EV_CART_CREATE, AUGUR_COMM_KIND_CART, "cart"}};
  uint64_t ids[8];
  for (size_t k = 0; k < sizeof ctor / sizeof ctor[0]; k++) {
    const augur_event *e = at(l, nth(l, ctor[k].type, 0));
    ids[k] = e->req;
    CHECK(e->comm == AUGUR_COMM_WORLD, "rank %u: %s parent event comm", r, ctor[k].what);
    if (check_members(t, e->req, world, n, ctor[k].what) == 0) {
      const augur_comm_def *d = augur_trace_comm(t, e->req);
      CHECK(d->kind == ctor[k].kind && d->parent == AUGUR_COMM_WORLD && d->remote_size == 0,
            "rank %u: %s def kind %u parent %" PRIx64, r, ctor[k].what, d->kind, d->parent);
    }
    for (size_t j = 0; j < k; j++)
      CHECK(ids[j] != ids[k], "rank %u: %s and %s share id", r, ctor[j].what, ctor[k].what);
  }
  const augur_comm_def *cd = augur_trace_comm(t, ids[5]);
  if (cd)
    CHECK(cd->ndims == 2 && cd->dims[0] == (int)nh && cd->dims[1] == 2 && cd->periods[0] == 1 &&
              cd->periods[1] == 0,
          "rank %u: cart dims %u: %dx%d", r, cd->ndims, cd->dims[0], cd->dims[1]);
  const augur_event *cs = at(l, nth(l, AUGUR_EV_CART_SUB, 0));
  int32_t row[2] = {(int32_t)(r & ~1u), (int32_t)(r | 1u)};
  CHECK(cs->comm == ids[5], "rank %u: Cart_sub parent", r);
  if (check_members(t, cs->req, row, 2, "cart row") == 0) {
    const augur_comm_def *d = augur_trace_comm(t, cs->req);
    CHECK(d->kind == AUGUR_COMM_KIND_CART_SUB && d->parent == ids[5] && d->ndims == 1 &&
              d->dims[0] == 2 && d->periods[0] == 0,
          "rank %u: cart row kind %u ndims %u", r, d->kind, d->ndims);
  }
  const augur_event *cr = at(l, nth(l, AUGUR_EV_COMM_CREATE, 0));
  CHECK(cr->comm == AUGUR_COMM_WORLD, "rank %u: Comm_create parent", r);
  if (!even)
    CHECK(cr->req == AUGUR_COMM_NONE, "rank %u: Comm_create outside the group has id %" PRIx64, r,
          cr->req);
  else if (check_members(t, cr->req, evens, nh, "created") == 0)
    CHECK(augur_trace_comm(t, cr->req)->kind == AUGUR_COMM_KIND_CREATE &&
              augur_trace_comm(t, cr->req)->parent == AUGUR_COMM_WORLD,
          "rank %u: created def", r);

  /* K. irregular collectives */
  const augur_event *aw = at(l, nth(l, AUGUR_EV_ALLTOALLW, 0));
  CHECK(aw->bytes == 6u * n && aw->bytes_recv == (even ? 4u : 8u) * n &&
            aw->peer == AUGUR_PEER_NONE,
        "rank %u: Alltoallw %" PRIu64 "/%" PRIu64, r, aw->bytes, aw->bytes_recv);
  const augur_event *rsc = at(l, nth(l, AUGUR_EV_REDUCE_SCATTER, 0));
  CHECK(rsc->bytes == 2u * n * (n + 1) && rsc->bytes_recv == 4u * (r + 1) &&
            rsc->peer == AUGUR_PEER_NONE,
        "rank %u: Reduce_scatter %" PRIu64 "/%" PRIu64, r, rsc->bytes, rsc->bytes_recv);
  const augur_event *rsb = at(l, nth(l, AUGUR_EV_REDUCE_SCATTER_BLOCK, 0));
  CHECK(rsb->bytes == 8u * n && rsb->bytes_recv == 8,
        "rank %u: Reduce_scatter_block %" PRIu64 "/%" PRIu64, r, rsb->bytes, rsb->bytes_recv);
  const augur_event *scn = at(l, nth(l, AUGUR_EV_SCAN, 0));
  CHECK(scn->bytes == 24 && scn->bytes_recv == 24 && scn->peer == AUGUR_PEER_NONE,
        "rank %u: Scan %" PRIu64 "/%" PRIu64, r, scn->bytes, scn->bytes_recv);

  /* L. frees in program order */
  uint64_t freed[11] = {cs->req, ids[5], ids[4],  ids[3],  ids[2], cr->req,
                        ids[1],  ids[0], mg->req, ic->req, sp->req};
  for (int k = 0, j = 0; k < 11; k++) {
    if (k == 5 && !even) continue;
    CHECK(at(l, nth(l, AUGUR_EV_COMM_FREE, j))->comm == freed[k], "rank %u: Comm_free %d", r, j);
    j++;
  }
}

/* Payload fingerprints across ranks: what was received is what the sender
 * sent, for the receive paths rec_basic does not take. */
static void expect_same_hash(uint32_t r, const augur_event *recv, const augur_event *send,
                             const char *what) {
  CHECK(send->hash != 0 && recv->hash == send->hash,
        "rank %u: %s hash %016" PRIx64 " received, %016" PRIx64 " sent", r, what, recv->hash,
        send->hash);
}

static void check_more_hashes(uint32_t r, uint32_t n, const evlist *all) {
  uint32_t lr = (r + n - 1) % n, pr = r % 2 ? r - 1 : r + 1;
  const evlist *l = &all[r], *ll = &all[lr], *pl = &all[pr];
  for (int k = 0; k < 3; k++) { /* Waitsome completions, any order */
    long w = nth(l, AUGUR_EV_WAITSOME, k);
    static const unsigned modes[3] = {AUGUR_EV_SSEND, AUGUR_EV_BSEND, AUGUR_EV_RSEND};
    for (uint32_t j = 0; w >= 0 && j < at(l, w)->aux; j++) {
      const augur_event *c = at(l, w + 1 + j);
      expect_same_hash(r, c, at(ll, nth(ll, modes[c->aux % 3], 0)), "Waitsome");
    }
  }
  expect_same_hash(r, at(l, nth(l, AUGUR_EV_MRECV, 0)), at(ll, nth(ll, AUGUR_EV_SEND, 5)), "Mrecv");
  expect_same_hash(r, at(l, nth(l, AUGUR_EV_WAIT, 0) + 1), at(ll, nth(ll, AUGUR_EV_SEND, 6)),
                   "Imrecv completion");
  long g = nth(l, AUGUR_EV_SENDRECV_REPLACE, 0);
  expect_same_hash(r, at(l, g + 1), at(ll, nth(ll, AUGUR_EV_SENDRECV_REPLACE, 0)),
                   "Sendrecv_replace");
  expect_same_hash(r, at(l, nth(l, AUGUR_EV_RECV, 0)), at(pl, nth(pl, AUGUR_EV_SEND, 7)),
                   "intercomm Recv");
  expect_same_hash(r, at(l, nth(l, AUGUR_EV_WAITALL, 2) + 1), at(pl, nth(pl, AUGUR_EV_ISEND, 0)),
                   "intercomm Irecv completion");
}

static int check_more(augur_trace *t, uint32_t n, int argc, char **argv) {
  int hash = argc > 4 && strcmp(argv[4], "--hash") == 0;
  CHECK(augur_trace_info_get(t)->complete == 1, "trace not complete");
  CHECK(augur_trace_info_get(t)->payload_hash == hash, "payload_hash %d",
        augur_trace_info_get(t)->payload_hash);
  evlist *all = calloc(n, sizeof *all);
  int loaded = 1;
  for (uint32_t r = 0; r < n; r++) {
    if (load_rank(t, r, &all[r]) != 0) {
      loaded = 0;
      continue;
    }
    check_more_rank(t, r, n, &all[r]);
  }
  for (uint32_t r = 0; hash && loaded && r < n; r++)
    check_more_hashes(r, n, all);
  for (uint32_t r = 0; r < n; r++)
    free(all[r].ev);
  free(all);
  return 0;
}

/* rec_recvbuf.c: the receive-buffer flags of every receive, in order. */
static int check_recvbuf(augur_trace *t, uint32_t n) {
  if (n != 2) return 2;
  const uint16_t fu = AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED;
  /* rank 1: Recv A, Recv A, Recv B, Irecv C, Recv small, SUB_RECV D; rank 0: SUB_RECV D */
  static const uint16_t want1[] = {
      AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED, 0, AUGUR_F_FRESH_BUF,
      AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED, 0, AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED};
  for (uint32_t r = 0; r < 2; r++) {
    evlist l;
    if (load_rank(t, r, &l) != 0) continue;
    size_t k = 0, want_n = r ? 6 : 1;
    for (size_t i = 0; i < l.n; i++) {
      const augur_event *e = &l.ev[i];
      if (e->type == AUGUR_EV_SENDRECV)
        CHECK((e->flags & fu) == 0, "rank %u: Sendrecv parent flags %#x", r, e->flags);
      if (!augur_event_is_p2p_recv(e->type) && e->type != AUGUR_EV_SUB_RECV) continue;
      uint16_t want = r ? (k < 6 ? want1[k] : 0xffff) : (k == 0 ? fu : 0xffff);
      CHECK((e->flags & fu) == want,
            "rank %u: receive %zu (%s, %" PRIu64 " bytes): flags %#x, "
            "expected %#x",
            r, k, augur_event_name(e->type), e->bytes_recv, e->flags & fu, want);
      k++;
    }
    CHECK(k == want_n, "rank %u: %zu receives, expected %zu", r, k, want_n);
    free(l.ev);
  }
  return 0;
}

/* check_io.c: 0, 1 when a check failed (its own `failures`), 2 on bad arguments */
int check_io(augur_trace *t, uint32_t n, int argc, char **argv);
#include "check_rma.c"
int check_neigh(augur_trace *t, uint32_t n, int fortran); /* check_neigh.c */
int check_spawn(augur_trace *t, uint32_t n, int spawned); /* check_neigh.c */

/* check_site.c: --site SRC (any kind), its failed checks */
int check_sites(augur_trace *t, uint32_t n, const char *src);
int check_port(augur_trace *t, uint32_t n);                           /* check_port.c */
int check_procs(augur_trace *t, uint32_t n, int spawned, int joined); /* check_port.c */

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(
        stderr,
        "usage: %s basic|threads|abort|noexit|fork|more|recvbuf TRACE NRANKS [LINE] [options]\n",
        argv[0]);
    return 2;
  }
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, argv[2], &err) != AUGUR_OK) {
    fprintf(stderr, "FAIL: open %s: %s\n", argv[2], err.msg);
    return 1;
  }
  uint32_t n = (uint32_t)atoi(argv[3]);
  CHECK(augur_trace_nranks(t) == n, "trace has %u ranks, expected %u", augur_trace_nranks(t), n);
  if (n > 64) n = 64;
  int rc;
  if (strcmp(argv[1], "basic") == 0)
    rc = check_basic(t, n, argc, argv);
  else if (strcmp(argv[1], "threads") == 0)
    rc = check_threads(t, n);
  else if (strcmp(argv[1], "abort") == 0)
    rc = check_abort(t, n);
  else if (strcmp(argv[1], "noexit") == 0)
    rc = check_noexit(t, n);
  else if (strcmp(argv[1], "fork") == 0)
    rc = check_fork(t, n);
  else if (strcmp(argv[1], "more") == 0)
    rc = check_more(t, n, argc, argv);
  else if (strcmp(argv[1], "recvbuf") == 0)
    rc = check_recvbuf(t, n);
  else if (strcmp(argv[1], "io") == 0)
    failures += rc = check_io(t, n, argc, argv); /* 1: its checks failed */
  else if (strcmp(argv[1], "rma") == 0)
    rc = check_rma(t, n, argc, argv);
  else if (strcmp(argv[1], "spawn") == 0 && argc > 4)
    rc = 0, failures += check_spawn(t, n, atoi(argv[4]));
  else if (strcmp(argv[1], "neigh") == 0)
    rc = 0, failures += check_neigh(t, n, argc > 4 && strcmp(argv[4], "--fortran") == 0);
  else if (strcmp(argv[1], "port") == 0)
    rc = 0, failures += check_port(t, n);
  else if (strcmp(argv[1], "procs") == 0 && argc > 5)
    rc = 0, failures += check_procs(t, n, atoi(argv[4]), atoi(argv[5]));
  else
    rc = 2;
  for (int i = 4; rc != 2 && i + 1 < argc; i++)
    if (strcmp(argv[i], "--site") == 0) failures += check_sites(t, n, argv[i + 1]);
  augur_trace_close(t);
  if (rc == 2) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok: %s %s\n", argv[1], argv[2]);
  return 0;
}
