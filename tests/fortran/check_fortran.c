/* Checker for the Fortran recorder tests: opens a trace recorded from
 * apps/stencil_f.f90 or tests/fortran/calls_f.f90 and compares every record
 * of every rank, in order, with what the program must have done, computed
 * here from the command line and the number of ranks alone:
 *
 *   check_fortran stencil TRACE SRC NP ITER NX NY
 *   check_fortran calls   TRACE SRC NP
 *
 * Besides types, peers (world ranks), tags, bytes and request pairing it
 * asserts what is specific to the Fortran bindings: every record carries
 * AUGUR_F_FORTRAN, nothing is recorded twice (the library's Fortran layer
 * calling C MPI_* must not add records: the per-rank sequence is exact), and
 * call sites resolve to the line after the "@augur:NAME" marker in SRC.
 * Exit status 0 when everything matches, 1 otherwise. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* event.h first: defs.h (pulled in by reader.h) uses AUGUR_MAX_COUNTERS. */
#include "augur/event.h"

#include "augur/reader.h"

#define MAX_MARKERS 64

typedef struct marker {
  char name[64];
  int line; /* the call's line: marker line + 1 */
} marker;

typedef struct checker {
  augur_trace *t;
  const char *src;
  marker mk[MAX_MARKERS];
  int nmk;
  int np;
  uint32_t rank;
  augur_event *ev;
  size_t nev, cap, pos;
  const augur_event *cur;
  uint64_t parent_callsite;
  int failures;
} checker;

static void fail(checker *c, const char *fmt, ...) {
  va_list ap;
  c->failures++;
  if (c->failures > 40) return;
  if (c->cur)
    fprintf(stderr, "FAIL rank %u record %zu (%s): ", c->rank, (size_t)(c->cur - c->ev),
            augur_event_name(c->cur->type));
  else
    fprintf(stderr, "FAIL rank %u: ", c->rank);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static void eq(checker *c, const char *field, int64_t got, int64_t want) {
  if (got != want) fail(c, "%s is %" PRId64 ", expected %" PRId64, field, got, want);
}

static int load_markers(checker *c) {
  FILE *f = fopen(c->src, "r");
  if (!f) {
    fprintf(stderr, "FAIL: cannot read %s\n", c->src);
    return -1;
  }
  char buf[512];
  for (int line = 1; fgets(buf, sizeof buf, f); line++) {
    const char *m = strstr(buf, "! @augur:");
    if (!m || c->nmk == MAX_MARKERS) continue;
    m += strlen("! @augur:");
    size_t n = strcspn(m, " \t\r\n");
    if (n == 0 || n >= sizeof c->mk[0].name) continue;
    memcpy(c->mk[c->nmk].name, m, n);
    c->mk[c->nmk].name[n] = '\0';
    c->mk[c->nmk++].line = line + 1;
  }
  fclose(f);
  return 0;
}

/* The call site of c->cur resolves to SRC at one of the lines marked NAME. */
static void check_site(checker *c, const char *name) {
  augur_srcloc loc;
  memset(&loc, 0, sizeof loc);
  if (augur_trace_resolve(c->t, (uint32_t)c->cur->callsite, &loc) != 0 || !loc.file) {
    fail(c, "call site %" PRIu64 " does not resolve (expected @augur:%s)", c->cur->callsite, name);
    return;
  }
  const char *base = strrchr(c->src, '/');
  base = base ? base + 1 : c->src;
  size_t lf = strlen(loc.file), lb = strlen(base);
  if (lf < lb || strcmp(loc.file + lf - lb, base) != 0)
    fail(c, "call site in %s, expected %s", loc.file, base);
  int found = 0;
  for (int i = 0; i < c->nmk; i++)
    if (strcmp(c->mk[i].name, name) == 0) {
      found = 1;
      if (c->mk[i].line == loc.line) return;
    }
  if (!found)
    fail(c, "no marker @augur:%s in %s", name, c->src);
  else
    fail(c, "call site at %s:%d, not at a line marked @augur:%s", loc.file, loc.line, name);
}

/* Next record, which must be of `type`: parents at the call marked `name`,
 * sub-records at their parent's call site. NULL when the rank's records end
 * early or the type differs (the rest of the rank is then not comparable). */
static const augur_event *next(checker *c, unsigned type, const char *name) {
  if (c->pos >= c->nev) {
    c->cur = NULL;
    fail(c, "records end, expected %s", augur_event_name(type));
    return NULL;
  }
  c->cur = &c->ev[c->pos++];
  if (c->cur->type != type) {
    fail(c, "expected %s", augur_event_name(type));
    return NULL;
  }
  if (augur_event_is_sub(type)) {
    if (c->cur->callsite != c->parent_callsite)
      fail(c, "sub-record call site %" PRIu64 " differs from its parent's %" PRIu64,
           c->cur->callsite, c->parent_callsite);
  } else {
    c->parent_callsite = c->cur->callsite;
    if (name) check_site(c, name);
  }
  return c->cur;
}

static void flags_has(checker *c, uint32_t bits, int want) {
  if (!!(c->cur->flags & bits) != !!want)
    fail(c, "flags 0x%x: bit 0x%x should be %s", c->cur->flags, bits, want ? "set" : "clear");
}

static int load_rank(checker *c, uint32_t rank) {
  augur_error err;
  augur_stream *s = NULL;
  c->rank = rank;
  c->nev = c->pos = 0;
  c->cur = NULL;
  if (augur_stream_rank(c->t, rank, &s, &err) != AUGUR_OK) {
    fail(c, "%s", err.msg);
    return -1;
  }
  for (;;) {
    if (c->nev == c->cap) {
      size_t nc = c->cap ? c->cap * 2 : 256;
      augur_event *ne = realloc(c->ev, nc * sizeof *ne);
      if (!ne) {
        augur_stream_close(s);
        fail(c, "out of memory");
        return -1;
      }
      c->ev = ne;
      c->cap = nc;
    }
    int rc = augur_stream_next(s, &c->ev[c->nev], &err);
    if (rc == 0) break;
    if (rc < 0) {
      augur_stream_close(s);
      fail(c, "%s", err.msg);
      return -1;
    }
    c->nev++;
  }
  augur_stream_close(s);
  /* Every record, parents and sub-records alike, came through a Fortran
   * binding; anything else was recorded by a C wrapper the library's
   * Fortran layer reached. */
  for (size_t i = 0; i < c->nev; i++) {
    c->cur = &c->ev[i];
    if (!(c->cur->flags & AUGUR_F_FORTRAN)) fail(c, "AUGUR_F_FORTRAN not set");
    if (c->cur->rank != rank) fail(c, "rank field is %u", c->cur->rank);
  }
  c->cur = NULL;
  return 0;
}

static void end_of_rank(checker *c) {
  if (c->pos < c->nev) {
    c->cur = &c->ev[c->pos];
    fail(c, "%zu unexpected records left", c->nev - c->pos);
  }
  c->cur = NULL;
}

/* Completion of a receive: req, position, source, tag and size. */
static void completion_recv(checker *c, uint64_t req, uint32_t index, int32_t src, int32_t tag,
                            uint64_t bytes) {
  if (!next(c, AUGUR_EV_COMPLETION, NULL)) return;
  eq(c, "completion req", (int64_t)c->cur->req, (int64_t)req);
  eq(c, "completion index", c->cur->aux, index);
  eq(c, "completion peer", c->cur->peer, src);
  eq(c, "completion tag", c->cur->tag, tag);
  eq(c, "completion bytes_recv", (int64_t)c->cur->bytes_recv, (int64_t)bytes);
  flags_has(c, AUGUR_F_RECVREQ, 1);
}

/* Completion of a send (Open MPI may hand out one shared handle for sends
 * completed at once, so only the handle and position are compared). */
static void completion_send(checker *c, uint64_t req, uint32_t index) {
  if (!next(c, AUGUR_EV_COMPLETION, NULL)) return;
  eq(c, "completion req", (int64_t)c->cur->req, (int64_t)req);
  eq(c, "completion index", c->cur->aux, index);
}

static void p2p(checker *c, int32_t peer, int32_t tag, uint64_t bytes, uint64_t bytes_recv) {
  eq(c, "comm", (int64_t)c->cur->comm, AUGUR_COMM_WORLD);
  eq(c, "peer", c->cur->peer, peer);
  eq(c, "tag", c->cur->tag, tag);
  eq(c, "bytes", (int64_t)c->cur->bytes, (int64_t)bytes);
  eq(c, "bytes_recv", (int64_t)c->cur->bytes_recv, (int64_t)bytes_recv);
}

static void coll(checker *c, uint64_t comm, int32_t root, uint64_t bytes, uint64_t bytes_recv) {
  eq(c, "comm", (int64_t)c->cur->comm, (int64_t)comm);
  eq(c, "peer", c->cur->peer, root);
  eq(c, "tag", c->cur->tag, AUGUR_TAG_NONE);
  eq(c, "bytes", (int64_t)c->cur->bytes, (int64_t)bytes);
  eq(c, "bytes_recv", (int64_t)c->cur->bytes_recv, (int64_t)bytes_recv);
  flags_has(c, AUGUR_F_ROOT, root >= 0 && (uint32_t)root == c->rank);
}

/* ---- stencil_f (apps/README.md) ---- */

static void check_stencil(checker *c, long iter, long nx, long ny) {
  int n = c->np, d1 = 1;
  for (int k = 1; k * k <= n; k++) /* MPI_Dims_create(n, 2): most balanced, d0 >= d1 */
    if (n % k == 0) d1 = k;
  int d0 = n / d1;
  uint64_t cart = 0;
  for (uint32_t r = 0; r < (uint32_t)n; r++) {
    if (load_rank(c, r) != 0) continue;
    int x = (int)r / d1, y = (int)r % d1;
    int nb[4] = {x > 0 ? (int)r - d1 : -1, x + 1 < d0 ? (int)r + d1 : -1, y > 0 ? (int)r - 1 : -1,
                 y + 1 < d1 ? (int)r + 1 : -1};
    uint64_t len[4] = {(uint64_t)ny * 8, (uint64_t)ny * 8, (uint64_t)nx * 8, (uint64_t)nx * 8};
    if (!next(c, AUGUR_EV_INIT, "stencil.init")) continue;
    if (!next(c, AUGUR_EV_CART_CREATE, "stencil.cart_create")) continue;
    eq(c, "comm", (int64_t)c->cur->comm, AUGUR_COMM_WORLD);
    if (r == 0) cart = c->cur->req;
    eq(c, "cart id (same on every rank)", (int64_t)c->cur->req, (int64_t)cart);
    int ok = 1;
    for (long it = 0; it < iter && ok; it++) {
      uint64_t reqs[8];
      int dir[8], k = 0;
      for (int d = 0; d < 4 && ok; d++) {
        if (nb[d] < 0) continue;
        if (!(ok = next(c, AUGUR_EV_IRECV, "stencil.irecv") != NULL)) break;
        eq(c, "comm", (int64_t)c->cur->comm, (int64_t)cart);
        eq(c, "peer", c->cur->peer, nb[d]);
        eq(c, "tag", c->cur->tag, d ^ 1);
        eq(c, "bytes_recv", (int64_t)c->cur->bytes_recv, (int64_t)len[d]);
        dir[k] = d;
        reqs[k++] = c->cur->req;
      }
      int nrecv = k;
      for (int d = 0; d < 4 && ok; d++) {
        if (nb[d] < 0) continue;
        if (!(ok = next(c, AUGUR_EV_ISEND, "stencil.isend") != NULL)) break;
        eq(c, "comm", (int64_t)c->cur->comm, (int64_t)cart);
        eq(c, "peer", c->cur->peer, nb[d]);
        eq(c, "tag", c->cur->tag, d);
        eq(c, "bytes", (int64_t)c->cur->bytes, (int64_t)len[d]);
        dir[k] = d;
        reqs[k++] = c->cur->req;
      }
      if (!ok || !(ok = next(c, AUGUR_EV_WAITALL, "stencil.waitall") != NULL)) break;
      eq(c, "waitall aux", c->cur->aux, (uint32_t)k);
      for (int i = 0; i < k; i++) {
        if (i < nrecv)
          completion_recv(c, reqs[i], (uint32_t)i, nb[dir[i]], dir[i] ^ 1, len[dir[i]]);
        else
          completion_send(c, reqs[i], (uint32_t)i);
      }
      if (!(ok = next(c, AUGUR_EV_ALLREDUCE, "stencil.allreduce") != NULL)) break;
      coll(c, cart, AUGUR_PEER_NONE, 8, 8);
    }
    if (!ok) continue;
    if (next(c, AUGUR_EV_COMM_FREE, "stencil.comm_free"))
      eq(c, "comm", (int64_t)c->cur->comm, (int64_t)cart);
    next(c, AUGUR_EV_FINALIZE, "stencil.finalize");
    end_of_rank(c);
  }
  c->cur = NULL;
  const augur_comm_def *def = augur_trace_comm(c->t, cart);
  if (!def) {
    fail(c, "no definition of the Cartesian communicator %" PRIx64, cart);
    return;
  }
  eq(c, "cart kind", def->kind, AUGUR_COMM_KIND_CART);
  eq(c, "cart parent", (int64_t)def->parent, AUGUR_COMM_WORLD);
  eq(c, "cart size", def->size, (uint32_t)n);
  for (uint32_t i = 0; i < def->size && i < (uint32_t)n; i++)
    eq(c, "cart member", def->members[i], (int32_t)i);
  eq(c, "cart ndims", def->ndims, 2);
  eq(c, "cart dims[0]", def->dims[0], d0);
  eq(c, "cart dims[1]", def->dims[1], d1);
  eq(c, "cart periods[0]", def->periods[0], 0);
  eq(c, "cart periods[1]", def->periods[1], 0);
}

/* ---- calls_f (tests/fortran/calls_f.f90) ---- */

static void check_calls_rank(checker *c) {
  int n = c->np, r = (int)c->rank;
  int32_t L = (r + n - 1) % n, R = (r + 1) % n;
  const augur_rank_def *rd = augur_trace_rank(c->t, c->rank);

  if (!next(c, AUGUR_EV_INIT_THREAD, "calls.init_thread")) return;
  if (rd) eq(c, "provided thread level", c->cur->tag, rd->thread_level);
  if (c->cur->tag < 0) fail(c, "thread level %d", c->cur->tag);

  if (!next(c, AUGUR_EV_SENDRECV, "calls.sendrecv")) return;
  p2p(c, R, 7, 40, 40);
  eq(c, "aux", c->cur->aux, 1);
  if (!next(c, AUGUR_EV_SUB_RECV, NULL)) return;
  eq(c, "peer", c->cur->peer, L);
  eq(c, "tag", c->cur->tag, 7);
  eq(c, "bytes_recv", (int64_t)c->cur->bytes_recv, 40);

  if (!next(c, AUGUR_EV_SENDRECV_REPLACE, "calls.sendrecv_replace")) return;
  p2p(c, L, 8, 32, 32);
  if (!next(c, AUGUR_EV_SUB_RECV, NULL)) /* status was MPI_STATUS_IGNORE */
    return;
  eq(c, "peer", c->cur->peer, R);
  eq(c, "tag", c->cur->tag, 8);
  eq(c, "bytes_recv", (int64_t)c->cur->bytes_recv, 32);

  if (!next(c, AUGUR_EV_BCAST, "calls.bcast")) return;
  coll(c, AUGUR_COMM_WORLD, 0, r == 0 ? 40 : 0, r == 0 ? 0 : 40);
  if (!next(c, AUGUR_EV_REDUCE, "calls.reduce")) return;
  coll(c, AUGUR_COMM_WORLD, 1, 12, r == 1 ? 12 : 0);
  if (!next(c, AUGUR_EV_ALLREDUCE, "calls.allreduce_in_place")) return;
  coll(c, AUGUR_COMM_WORLD, AUGUR_PEER_NONE, 8, 8);
  flags_has(c, AUGUR_F_IN_PLACE, 1); /* the library's Fortran MPI_IN_PLACE was recognised */
  if (!next(c, AUGUR_EV_GATHERV, "calls.gatherv")) return;
  coll(c, AUGUR_COMM_WORLD, 0, 4 * (uint64_t)(r + 1), r == 0 ? 4 * (uint64_t)(n * (n + 1) / 2) : 0);
  flags_has(c, AUGUR_F_IN_PLACE, 0);
  if (!next(c, AUGUR_EV_ALLTOALL, "calls.alltoall")) return;
  coll(c, AUGUR_COMM_WORLD, AUGUR_PEER_NONE, 8 * (uint64_t)n, 8 * (uint64_t)n);
  flags_has(c, AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED, 0); /* 8n bytes: below 64 KiB */
  if (!next(c, AUGUR_EV_ALLTOALL, "calls.alltoall_fresh")) return;
  coll(c, AUGUR_COMM_WORLD, AUGUR_PEER_NONE, 131072 * (uint64_t)n, 131072 * (uint64_t)n);
  flags_has(c, AUGUR_F_FRESH_BUF, 1);
  flags_has(c, AUGUR_F_UNTOUCHED, 1);
  if (!next(c, AUGUR_EV_ALLTOALL, "calls.alltoall_again")) return;
  flags_has(c, AUGUR_F_FRESH_BUF | AUGUR_F_UNTOUCHED, 0);

  if (!next(c, AUGUR_EV_COMM_SPLIT, "calls.comm_split")) return;
  eq(c, "comm", (int64_t)c->cur->comm, AUGUR_COMM_WORLD);
  uint64_t sub = c->cur->req;
  const augur_comm_def *def = augur_trace_comm(c->t, sub);
  if (!def) {
    fail(c, "no definition of the split communicator %" PRIx64, sub);
  } else {
    eq(c, "split kind", def->kind, AUGUR_COMM_KIND_SPLIT);
    eq(c, "split parent", (int64_t)def->parent, AUGUR_COMM_WORLD);
    eq(c, "split size", def->size, (uint32_t)((n - r % 2 + 1) / 2));
    for (uint32_t i = 0; i < def->size; i++)
      eq(c, "split member", def->members[i], (int32_t)(2 * i + (uint32_t)(r % 2)));
  }
  if (!next(c, AUGUR_EV_ALLREDUCE, "calls.sub_allreduce")) return;
  coll(c, sub, AUGUR_PEER_NONE, 4, 4);
  if (!next(c, AUGUR_EV_COMM_FREE, "calls.comm_free")) return;
  eq(c, "comm", (int64_t)c->cur->comm, (int64_t)sub);

  if (!next(c, AUGUR_EV_IRECV, "calls.irecv_test")) return;
  p2p(c, L, 9, 0, 4);
  uint64_t rq = c->cur->req;
  if (!next(c, AUGUR_EV_SSEND, "calls.ssend")) return;
  p2p(c, R, 9, 4, 0);
  if (!next(c, AUGUR_EV_BARRIER, "calls.barrier")) return;
  coll(c, AUGUR_COMM_WORLD, AUGUR_PEER_NONE, 0, 0);
  /* Test until done: earlier Tests found nothing (NOTDONE, no sub-record). */
  for (;;) {
    if (!next(c, AUGUR_EV_TEST, "calls.test")) return;
    if (!(c->cur->flags & AUGUR_F_NOTDONE)) break;
    eq(c, "aux of a Test that found nothing", c->cur->aux, 0);
  }
  eq(c, "aux", c->cur->aux, 1);
  completion_recv(c, rq, 0, L, 9, 4);

  if (!next(c, AUGUR_EV_IRECV, "calls.irecv_any")) return;
  p2p(c, L, 10, 0, 8);
  rq = c->cur->req;
  if (!next(c, AUGUR_EV_ISEND, "calls.isend_any")) return;
  p2p(c, R, 10, 8, 0);
  uint64_t sq = c->cur->req;
  if (!next(c, AUGUR_EV_WAITANY, "calls.waitany")) return;
  eq(c, "waitany index (0-based)", c->cur->aux, 1);
  completion_recv(c, rq, 1, L, 10, 8);
  if (!next(c, AUGUR_EV_WAIT, "calls.wait_send")) return;
  eq(c, "aux", c->cur->aux, 1);
  completion_send(c, sq, 0);

  if (!next(c, AUGUR_EV_IRECV, "calls.irecv_some")) return;
  p2p(c, R, 12, 0, 12);
  rq = c->cur->req;
  if (!next(c, AUGUR_EV_SEND, "calls.send")) return;
  p2p(c, L, 12, 12, 0);
  if (!next(c, AUGUR_EV_WAITSOME, "calls.waitsome")) return;
  eq(c, "aux", c->cur->aux, 1);
  completion_recv(c, rq, 1, R, 12, 12); /* statuses were MPI_STATUSES_IGNORE */

  if (!next(c, AUGUR_EV_SEND_INIT, "calls.send_init")) return;
  p2p(c, R, 13, 8, 0);
  uint64_t p1 = c->cur->req;
  if (!next(c, AUGUR_EV_RECV_INIT, "calls.recv_init")) return;
  p2p(c, L, 13, 0, 8);
  uint64_t p2 = c->cur->req;
  if (!next(c, AUGUR_EV_STARTALL, "calls.startall")) return;
  eq(c, "aux", c->cur->aux, 2);
  if (!next(c, AUGUR_EV_SUB_START, NULL)) return;
  eq(c, "start req", (int64_t)c->cur->req, (int64_t)p1);
  if (!next(c, AUGUR_EV_SUB_START, NULL)) return;
  eq(c, "start req", (int64_t)c->cur->req, (int64_t)p2);
  if (!next(c, AUGUR_EV_WAITALL, "calls.waitall")) return;
  eq(c, "aux", c->cur->aux, 2);
  completion_send(c, p1, 0);
  completion_recv(c, p2, 1, L, 13, 8);
  if (!next(c, AUGUR_EV_REQUEST_FREE, "calls.request_free")) return;
  eq(c, "req", (int64_t)c->cur->req, (int64_t)p1);
  if (!next(c, AUGUR_EV_REQUEST_FREE, "calls.request_free")) return;
  eq(c, "req", (int64_t)c->cur->req, (int64_t)p2);

  if (!next(c, AUGUR_EV_ISEND, "calls.isend_probe")) return;
  p2p(c, R, 14, 12, 0);
  sq = c->cur->req;
  if (!next(c, AUGUR_EV_PROBE, "calls.probe")) return;
  p2p(c, L, 14, 0, 12);
  if (!next(c, AUGUR_EV_RECV, "calls.recv_any_source")) return;
  p2p(c, L, 14, 0, 12); /* MPI_ANY_SOURCE resolved from the (ignored) status */
  flags_has(c, AUGUR_F_ANY_SOURCE, 1);
  if (!next(c, AUGUR_EV_WAIT, "calls.wait_probe")) return;
  eq(c, "aux", c->cur->aux, 1);
  completion_send(c, sq, 0);

  if (!next(c, AUGUR_EV_IALLREDUCE, "calls.iallreduce")) return;
  coll(c, AUGUR_COMM_WORLD, AUGUR_PEER_NONE, 8, 8);
  uint64_t cq = c->cur->req;
  if (!next(c, AUGUR_EV_WAIT, "calls.wait_coll")) return;
  eq(c, "aux", c->cur->aux, 1);
  if (next(c, AUGUR_EV_COMPLETION, NULL)) {
    eq(c, "completion req", (int64_t)c->cur->req, (int64_t)cq);
    flags_has(c, AUGUR_F_COLLREQ, 1);
  }

  next(c, AUGUR_EV_FINALIZE, "calls.finalize");
}

static void check_calls(checker *c) {
  for (uint32_t r = 0; r < (uint32_t)c->np; r++) {
    if (load_rank(c, r) != 0) continue;
    check_calls_rank(c);
    end_of_rank(c);
  }
}

static long arg_long(const char *s, const char *what) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v <= 0) {
    fprintf(stderr, "check_fortran: %s: expected a positive integer, got '%s'\n", what, s);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  int stencil = argc == 8 && strcmp(argv[1], "stencil") == 0;
  int calls = argc == 5 && strcmp(argv[1], "calls") == 0;
  if (!stencil && !calls) {
    fprintf(stderr, "usage: check_fortran stencil TRACE SRC NP ITER NX NY\n"
                    "       check_fortran calls TRACE SRC NP\n");
    return 2;
  }
  checker c;
  memset(&c, 0, sizeof c);
  c.src = argv[3];
  c.np = (int)arg_long(argv[4], "NP");
  augur_error err;
  if (augur_trace_open(&c.t, argv[2], &err) != AUGUR_OK) {
    fprintf(stderr, "FAIL: %s\n", err.msg);
    return 1;
  }
  if (load_markers(&c) != 0) {
    augur_trace_close(c.t);
    return 1;
  }
  const augur_trace_info *info = augur_trace_info_get(c.t);
  eq(&c, "ranks in trace", augur_trace_nranks(c.t), c.np);
  if (!info->complete) fail(&c, "trace is not complete");
  for (uint32_t r = 0; r < augur_trace_nranks(c.t); r++) {
    const char *msg = NULL;
    if (augur_trace_damage(c.t, r, &msg)) fail(&c, "damage: %s", msg ? msg : "?");
  }
  if (augur_trace_nranks(c.t) == (uint32_t)c.np) {
    if (stencil)
      check_stencil(&c, arg_long(argv[5], "ITER"), arg_long(argv[6], "NX"),
                    arg_long(argv[7], "NY"));
    else
      check_calls(&c);
  }
  augur_trace_close(c.t);
  free(c.ev);
  if (c.failures) {
    fprintf(stderr, "check_fortran %s: %d failure(s)\n", argv[1], c.failures);
    return 1;
  }
  printf("check_fortran %s: %d ranks OK\n", argv[1], c.np);
  return 0;
}
