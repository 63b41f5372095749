/* Checks a trace recorded from one of the recorder test programs through the
 * reader and asserts exact facts. Usage:
 *
 *   augur-check-record basic TRACE NRANKS LINE [--counter NAME | --counter-or-note NAME]
 *                                              [--hash]
 *   augur-check-record threads TRACE NRANKS
 *   augur-check-record abort TRACE NRANKS
 *   augur-check-record noexit TRACE NRANKS
 *
 * LINE is the source line of the AUGUR_MARK_EXSCAN call in rec_basic.c.
 * Prints every failed expectation; exit status 1 if any failed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/reader.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      failures++;                                                                                  \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                              \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

typedef struct evlist {
  augur_event *ev;
  size_t n;
} evlist;

static int load_rank(augur_trace *t, uint32_t r, evlist *out) {
  augur_stream *s;
  augur_error err;
  size_t cap = 256;
  out->n = 0;
  out->ev = malloc(cap * sizeof *out->ev);
  if (augur_stream_rank(t, r, &s, &err) != AUGUR_OK) {
    fprintf(stderr, "FAIL: stream rank %u: %s\n", r, err.msg);
    failures++;
    return -1;
  }
  int rc;
  augur_event e;
  while ((rc = augur_stream_next(s, &e, &err)) == 1) {
    if (out->n == cap) {
      cap *= 2;
      out->ev = realloc(out->ev, cap * sizeof *out->ev);
    }
    out->ev[out->n++] = e;
  }
  augur_stream_close(s);
  if (rc < 0) {
    fprintf(stderr, "FAIL: rank %u: %s\n", r, err.msg);
    failures++;
    return -1;
  }
  return 0;
}

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

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s basic|threads|abort|noexit TRACE NRANKS [LINE] [options]\n",
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
  else
    rc = 2;
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
