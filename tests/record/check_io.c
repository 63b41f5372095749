/* Checks a trace of tests/record/rec_io.c (augur-check-record io TRACE
 * NRANKS) or of its Fortran twin rec_io_f.f90 (... io TRACE NRANKS
 * --fortran: every MPI-IO record and completion has AUGUR_F_FORTRAN): on every rank the exact
 * sequence of records, and each MPI-IO record's fields (docs/trace-format.md "MPI-IO records"): one
 * file id for every call on the file (both opens and the delete), the file's communicator, offsets,
 * whence, bytes from the statuses (0 at the end of the file), requests completed by Wait as
 * COMPLETION sub-records paired by the reader. Nothing the MPI library's I/O layer calls internally
 * may show up: the sequence admits no other record. */
#include <stdlib.h>
#include <string.h>

#include "augur/mpiio.h"
#include "augur/reader.h"
#include "check.h"

#define K   16 /* as in rec_io.c */
#define R   14
#define BLK ((uint64_t)K * sizeof(int))

enum { C_WORLD, C_SELF, C_NONE };

typedef struct want {
  unsigned type;
  int has_off;
  int64_t off;
  uint64_t bytes; /* written (writes) or read (reads) */
  int comm;       /* C_* */
} want;

typedef struct wlist {
  want w[160];
  int n;
} wlist;

static void add(wlist *l, unsigned type, int has_off, int64_t off, uint64_t bytes, int comm) {
  if (l->n < (int)(sizeof l->w / sizeof l->w[0]))
    l->w[l->n++] = (want){type, has_off, off, bytes, comm};
}

#define IO(T, ...) add(l, AUGUR_EV_FILE_##T, __VA_ARGS__)
#define OTHER(T)   add(l, AUGUR_EV_##T, 0, 0, 0, C_NONE)

/* The records rec_io.c makes on rank r of n, in order (sub-records left out). */
static void expected(wlist *l, uint32_t r, uint32_t n) {
#define AT(g) (((int64_t)(g)*n + r) * K)
  l->n = 0;
  OTHER(INIT);
  OTHER(BCAST);
  IO(OPEN, 0, 0, 0, C_WORLD);
  IO(SET_SIZE, 1, 0, 0, C_WORLD);
  IO(PREALLOCATE, 1, (int64_t)R * n * BLK, 0, C_WORLD);
  IO(SET_VIEW, 1, 0, 0, C_WORLD);
  for (int pass = 0; pass < 2; pass++) {
    int rd = pass == 1;
#define X(W, RD) (rd ? AUGUR_EV_FILE_##RD : AUGUR_EV_FILE_##W)
    add(l, X(WRITE_AT, READ_AT), 1, AT(0), BLK, C_WORLD);
    add(l, X(WRITE_AT_ALL, READ_AT_ALL), 1, AT(1), BLK, C_WORLD);
    IO(SEEK, 1, AT(2), 0, C_WORLD);
    add(l, X(WRITE, READ), 0, 0, BLK, C_WORLD);
    IO(SEEK, 1, AT(3), 0, C_WORLD);
    add(l, X(WRITE_ALL, READ_ALL), 0, 0, BLK, C_WORLD);
    add(l, X(IWRITE_AT, IREAD_AT), 1, AT(4), BLK, C_WORLD);
    OTHER(WAIT);
    IO(SEEK, 1, AT(5), 0, C_WORLD);
    add(l, X(IWRITE, IREAD), 0, 0, BLK, C_WORLD);
    OTHER(WAIT);
    add(l, X(IWRITE_AT_ALL, IREAD_AT_ALL), 1, AT(6), BLK, C_WORLD);
    OTHER(WAIT);
    IO(SEEK, 1, AT(7), 0, C_WORLD);
    add(l, X(IWRITE_ALL, IREAD_ALL), 0, 0, BLK, C_WORLD);
    OTHER(WAIT);
    add(l, X(WRITE_AT_ALL_BEGIN, READ_AT_ALL_BEGIN), 1, AT(8), BLK, C_WORLD);
    add(l, X(WRITE_AT_ALL_END, READ_AT_ALL_END), 0, 0, BLK, C_WORLD);
    IO(SEEK, 1, AT(9), 0, C_WORLD);
    add(l, X(WRITE_ALL_BEGIN, READ_ALL_BEGIN), 0, 0, BLK, C_WORLD);
    add(l, X(WRITE_ALL_END, READ_ALL_END), 0, 0, BLK, C_WORLD);
    IO(SEEK_SHARED, 1, (int64_t)10 * n * K, 0, C_WORLD);
    add(l, X(WRITE_ORDERED, READ_ORDERED), 0, 0, BLK, C_WORLD);
    add(l, X(WRITE_ORDERED_BEGIN, READ_ORDERED_BEGIN), 0, 0, BLK, C_WORLD);
    add(l, X(WRITE_ORDERED_END, READ_ORDERED_END), 0, 0, BLK, C_WORLD);
    add(l, X(WRITE_SHARED, READ_SHARED), 0, 0, BLK, C_WORLD);
    add(l, X(IWRITE_SHARED, IREAD_SHARED), 0, 0, BLK, C_WORLD);
    OTHER(WAIT);
    if (!rd) IO(SYNC, 0, 0, 0, C_WORLD);
#undef X
  }
  IO(READ_AT, 1, AT(R), 0, C_WORLD); /* past the end: 0 bytes */
  IO(CLOSE, 0, 0, 0, C_WORLD);
  IO(OPEN, 0, 0, 0, C_SELF);
  IO(READ_AT, 1, AT(0) * (int64_t)sizeof(int), BLK, C_SELF);
  IO(CLOSE, 0, 0, 0, C_SELF);
  OTHER(BARRIER);
  if (r == 0) IO(DELETE, 0, 0, 0, C_NONE);
  OTHER(FINALIZE);
#undef AT
}

static const uint64_t comm_ids[] = {AUGUR_COMM_WORLD, AUGUR_COMM_SELF, AUGUR_COMM_NONE};

/* One IO record against its expectation; *file: the file id seen first. */
static int fortran; /* --fortran */

static void check_record(uint32_t r, int i, const augur_event *e, const want *w, uint64_t *file) {
  const char *nm = augur_event_name(e->type);
  CHECK(e->peer == AUGUR_PEER_NONE, "rank %u #%d %s: peer %d", r, i, nm, e->peer);
  CHECK(!(e->flags & AUGUR_F_FORTRAN) == !fortran, "rank %u #%d %s: Fortran flag %s", r, i, nm,
        fortran ? "missing" : "set");
  CHECK(e->callsite != 0, "rank %u #%d %s: no call site", r, i, nm);
  CHECK(e->comm == comm_ids[w->comm], "rank %u #%d %s: comm %#llx, expected %#llx", r, i, nm,
        (unsigned long long)e->comm, (unsigned long long)comm_ids[w->comm]);
  if (!*file) *file = e->hash;
  CHECK(e->hash != 0 && e->hash == *file, "rank %u #%d %s: file id %#llx, expected %#llx", r, i, nm,
        (unsigned long long)e->hash, (unsigned long long)*file);
  if (w->has_off)
    CHECK(augur_io_offset(e) == w->off, "rank %u #%d %s: offset %lld, expected %lld", r, i, nm,
          (long long)augur_io_offset(e), (long long)w->off);
  else
    CHECK(augur_io_offset(e) == 0, "rank %u #%d %s: offset %lld", r, i, nm,
          (long long)augur_io_offset(e));
  if (e->type == AUGUR_EV_FILE_SEEK || e->type == AUGUR_EV_FILE_SEEK_SHARED)
    CHECK(e->req == AUGUR_IO_SEEK_SET, "rank %u #%d %s: whence %llu", r, i, nm,
          (unsigned long long)e->req);
  else if (augur_io_is_nonblocking(e->type))
    CHECK(e->req != 0, "rank %u #%d %s: no request", r, i, nm);
  else
    CHECK(e->req == 0, "rank %u #%d %s: req %llu", r, i, nm, (unsigned long long)e->req);
  uint64_t wb = augur_io_is_write(e->type) ? w->bytes : 0;
  uint64_t rb = augur_io_is_read(e->type) ? w->bytes : 0;
  CHECK(e->bytes == wb && e->bytes_recv == rb,
        "rank %u #%d %s: bytes %llu/%llu, expected %llu written, %llu read", r, i, nm,
        (unsigned long long)e->bytes, (unsigned long long)e->bytes_recv, (unsigned long long)wb,
        (unsigned long long)rb);
  int later = augur_io_is_begin(e->type) || augur_io_is_nonblocking(e->type);
  CHECK(augur_io_bytes(e) == (later ? 0 : wb + rb), "rank %u #%d %s: augur_io_bytes %llu", r, i, nm,
        (unsigned long long)augur_io_bytes(e));
}

/* The WAIT after an I* call: one COMPLETION of its request, paired by the reader. */
static void check_wait(uint32_t r, int i, const augur_event *wait, const augur_event *c,
                       const augur_event *start, int have_sub) {
  CHECK(wait->aux == 1 && have_sub && c->type == AUGUR_EV_COMPLETION,
        "rank %u #%d: MPI_Wait without its COMPLETION", r, i);
  if (!have_sub || c->type != AUGUR_EV_COMPLETION) return;
  CHECK(c->req == start->req, "rank %u #%d: completes %#llx, started %#llx", r, i,
        (unsigned long long)c->req, (unsigned long long)start->req);
  CHECK(!(c->flags & (AUGUR_F_UNMATCHED | AUGUR_F_SENDREQ | AUGUR_F_RECVREQ | AUGUR_F_COLLREQ)),
        "rank %u #%d: completion flags %#x", r, i, c->flags);
  CHECK(!(c->flags & AUGUR_F_FORTRAN) == !fortran, "rank %u #%d: completion's Fortran flag", r, i);
  CHECK(c->comm == start->comm && c->hash == start->hash,
        "rank %u #%d: completion comm %#llx, file %#llx", r, i, (unsigned long long)c->comm,
        (unsigned long long)c->hash);
  CHECK(augur_io_is_completion(c) && augur_io_bytes(c) == BLK,
        "rank %u #%d: not an I/O completion of %llu bytes", r, i, (unsigned long long)BLK);
  int rd = augur_io_is_read(start->type);
  CHECK(c->bytes == (rd ? 0 : BLK) && c->bytes_recv == (rd ? BLK : 0),
        "rank %u #%d: completion of %s: bytes %llu/%llu", r, i, augur_event_name(start->type),
        (unsigned long long)c->bytes, (unsigned long long)c->bytes_recv);
}

int check_io(augur_trace *t, uint32_t n, int argc, char **argv);
int check_io(augur_trace *t, uint32_t n, int argc, char **argv) {
  fortran = argc > 4 && strcmp(argv[4], "--fortran") == 0;
  uint64_t file = 0; /* the same on every rank */
  wlist *l = malloc(sizeof *l);
  augur_event *ev = malloc(1024 * sizeof *ev);
  if (!l || !ev) return 2;
  for (uint32_t r = 0; r < n; r++) {
    expected(l, r, n);
    augur_stream *s;
    augur_error err;
    size_t m = 0;
    int rc = -1;
    if (augur_stream_rank(t, r, &s, &err) == AUGUR_OK) {
      while (m < 1024 && (rc = augur_stream_next(s, &ev[m], &err)) == 1)
        m++;
      augur_stream_close(s);
    }
    CHECK(rc == 0, "rank %u: stream: %s", r, rc < 0 ? err.msg : "too many records");
    int k = 0;
    const augur_event *last_start = NULL;
    for (size_t i = 0; i < m; i++) {
      const augur_event *e = &ev[i];
      if (augur_event_is_sub(e->type)) continue;
      if (k >= l->n) {
        CHECK(0, "rank %u: unexpected %s after the last expected record", r,
              augur_event_name(e->type));
        break;
      }
      const want *w = &l->w[k];
      if (e->type != w->type) {
        CHECK(0, "rank %u: record %d is %s, expected %s", r, k, augur_event_name(e->type),
              augur_event_name(w->type));
        break;
      }
      if (augur_event_is_io(e->type)) check_record(r, k, e, w, &file);
      if (augur_io_is_nonblocking(e->type)) last_start = e;
      if (e->type == AUGUR_EV_WAIT && last_start)
        check_wait(r, k, e, &ev[i + 1], last_start, i + 1 < m);
      k++;
    }
    CHECK(k == l->n, "rank %u: %d records matched of %d expected", r, k, l->n);
  }
  /* the name, defined by the ranks that opened or deleted it */
  const char *name = augur_trace_file_name(t, file);
  const char *prefix = fortran ? "/tmp/augur-rec-io-f-" : "/tmp/augur-rec-io-";
  size_t len = name ? strlen(name) : 0;
  CHECK(name && !strncmp(name, prefix, strlen(prefix)) && len > 4 &&
            !strcmp(name + len - 4, ".dat"),
        "file %#llx is named %s, expected %s<pid>.dat", (unsigned long long)file,
        name ? name : "(undefined)", prefix);
  free(l);
  free(ev);
  return failures ? 1 : 0; /* check.h's counter is this file's own */
}
