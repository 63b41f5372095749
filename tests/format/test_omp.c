/* augur format tests — OpenMP records (docs/openmp.md): kind-3 blocks next
 * to the MPI blocks of the same threads; MPI streams unchanged by them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "util.h"

/* A hybrid rank: per thread, MPI records every 1000 ns (a SEND, or a
 * WAITALL with two completions) and an OpenMP fork/implicit task/barrier
 * cycle of point records between them. */
enum { NTHREADS = 2, NMPI = 600, NOMP = 6 * NMPI };

typedef struct hybrid {
  augur_event mpi[NTHREADS][3 * NMPI];
  size_t nmpi[NTHREADS];
  augur_event omp[NTHREADS][NOMP];
  size_t nomp[NTHREADS];
} hybrid;

static void make_hybrid(hybrid *h) {
  static const unsigned cycle[6] = {AUGUR_EV_OMP_FORK,       AUGUR_EV_OMP_ITASK_BEGIN,
                                    AUGUR_EV_OMP_WAIT_BEGIN, AUGUR_EV_OMP_WAIT_END,
                                    AUGUR_EV_OMP_ITASK_END,  AUGUR_EV_OMP_JOIN};
  memset(h, 0, sizeof *h);
  for (uint32_t th = 0; th < NTHREADS; th++) {
    for (uint64_t i = 0; i < NMPI; i++) {
      uint64_t t0 = 10000 + 1000 * i + 7 * th;
      if (th == 0) {
        augur_event e = tu_ev(AUGUR_EV_SEND, t0, t0 + 100);
        e.comm = AUGUR_COMM_WORLD;
        e.peer = 0;
        e.tag = 5;
        e.bytes = 64;
        e.callsite = 7;
        e.thread = th;
        h->mpi[th][h->nmpi[th]++] = e;
      } else {
        augur_event p = tu_ev(AUGUR_EV_WAITALL, t0, t0 + 100);
        p.aux = 2;
        p.thread = th;
        h->mpi[th][h->nmpi[th]++] = p;
        for (uint32_t k = 0; k < 2; k++) {
          augur_event c = tu_ev(AUGUR_EV_COMPLETION, t0, t0 + 100);
          c.req = 77;
          c.aux = k;
          c.thread = th;
          c.flags = AUGUR_F_UNMATCHED;
          h->mpi[th][h->nmpi[th]++] = c;
        }
      }
      /* OpenMP between the MPI calls; the fork at the MPI call's end (a tie
       * with nothing: MPI records start on another time). */
      for (uint64_t k = 0; k < 6; k++) {
        augur_event o = tu_ev(cycle[k], t0 + 100 + 100 * k, t0 + 100 + 100 * k);
        o.peer = 0;
        o.tag = k == 2 || k == 3 ? AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL : 0;
        o.req = i + 1; /* region id */
        o.callsite = k == 0 || k == 5 ? 3 : 0;
        o.thread = th;
        h->omp[th][h->nomp[th]++] = o;
      }
    }
  }
}

/* Writes H into DIR, the same records for each of NRANKS ranks (rank r's
 * clock runs 1000 (r + 1) ns behind): definitions, then per thread its MPI
 * and OpenMP records in two calls each, the kinds interleaved in the file.
 * Local call-site ids 7 and 3 become global ids 1 and 2. */
static void write_hybrid(const char *dir, const hybrid *h, uint32_t nranks, int with_omp) {
  tu_meta(dir, nranks);
  for (uint32_t r = 0; r < nranks; r++) {
    augur_error err;
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, nranks, 0, &err), 0);
    augur_rank_def rd = {.rank = r, .nranks = nranks, .host = "h", .init_ns = 5000, .nsync = 1};
    rd.sync[0] = (augur_clock_sync){AUGUR_SYNC_INIT, 5000, 1000 * (int64_t)(r + 1), 10};
    rd.finalize_ns = 1u << 30;
    augur_module_def md = {1, "/nonexistent/app"};
    augur_callsite_def cs1 = {7, 1, 0x100}, cs2 = {3, 1, 0x200};
    assert_int_equal(augur_writer_def_rank(w, &rd, &err), 0);
    assert_int_equal(augur_writer_def_module(w, &md, &err), 0);
    assert_int_equal(augur_writer_def_callsite(w, &cs1, &err), 0);
    assert_int_equal(augur_writer_def_callsite(w, &cs2, &err), 0);
    for (int half = 0; half < 2; half++) {
      for (uint32_t th = 0; th < NTHREADS; th++) {
        size_t nm = h->nmpi[th], cut = nm / 2 - (nm / 2) % (th ? 3 : 1);
        size_t from = half ? cut : 0, to = half ? nm : cut;
        assert_int_equal(augur_writer_events(w, th, h->mpi[th] + from, to - from, &err), 0);
        size_t no = h->nomp[th];
        if (with_omp)
          assert_int_equal(augur_writer_omp_events(w, th, h->omp[th] + (half ? no / 2 : 0),
                                                   half ? no - no / 2 : no / 2, &err),
                           0);
      }
    }
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
}

static augur_trace *open_ok(const char *dir) {
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("open: %s", err.msg);
  return t;
}

/* Item 1: the writer puts OpenMP records in kind-3 blocks of their thread,
 * MPI records in kind-1 blocks; the index keeps the two apart. */
static void test_block_kinds(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  char *dir = tu_tracedir();
  write_hybrid(dir, h, 1, 1);
  augur_trace *t;
  augur_error err;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  assert_true(augur_trace_info_get(t)->version_minor >= 4); /* OpenMP blocks came with 4 */
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  assert_int_equal(augur_trace_nblocks(t, 0), 2 * NTHREADS);
  assert_int_equal(augur_trace_omp_nblocks(t, 0), 2 * NTHREADS);
  uint64_t mpi = 0, omp = 0;
  unsigned threads_mpi = 0, threads_omp = 0;
  for (size_t i = 0; i < augur_trace_nblocks(t, 0); i++) {
    const augur_block_info *b = augur_trace_block(t, 0, i);
    assert_int_equal(b->kind, 1);
    mpi += b->nevents;
    threads_mpi |= 1u << b->thread;
  }
  for (size_t i = 0; i < augur_trace_omp_nblocks(t, 0); i++) {
    const augur_block_info *b = augur_trace_omp_block(t, 0, i);
    assert_int_equal(b->kind, 3);
    assert_int_equal(b->nparents, b->nevents); /* no sub-records */
    if (i) assert_true(b->offset > augur_trace_omp_block(t, 0, i - 1)->offset);
    omp += b->nevents;
    threads_omp |= 1u << b->thread;
  }
  assert_null(augur_trace_omp_block(t, 0, augur_trace_omp_nblocks(t, 0)));
  assert_int_equal(threads_mpi, 3);
  assert_int_equal(threads_omp, 3);
  assert_int_equal(mpi, h->nmpi[0] + h->nmpi[1]);
  assert_int_equal(augur_trace_nevents(t, 0), mpi);
  assert_int_equal(omp, h->nomp[0] + h->nomp[1]);
  assert_int_equal(augur_trace_omp_nevents(t, 0), omp);
  assert_int_equal(augur_trace_nparents(t, 0), 2 * NMPI);
  augur_trace_close(t);
  tu_cleanup(dir);
  free(h);
}

/* The MPI rank stream of a hybrid trace is the MPI-only trace's stream,
 * record for record. */
static void test_mpi_stream_unchanged(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  char *a = tu_tracedir(), *b = tu_tracedir();
  write_hybrid(a, h, 1, 0);
  write_hybrid(b, h, 1, 1);
  augur_trace *ta, *tb;
  augur_error err;
  assert_int_equal(augur_trace_open(&ta, a, &err), 0);
  assert_int_equal(augur_trace_open(&tb, b, &err), 0);
  size_t na, nb;
  int rca, rcb;
  augur_event *ea = tu_read_rank(ta, 0, &na, &rca, &err);
  augur_event *eb = tu_read_rank(tb, 0, &nb, &rcb, &err);
  assert_int_equal(rca, 0);
  assert_int_equal(rcb, 0);
  assert_int_equal(na, h->nmpi[0] + h->nmpi[1]);
  assert_int_equal(na, nb);
  for (size_t i = 0; i < na; i++)
    tu_assert_event_eq(&ea[i], &eb[i], i);
  free(ea);
  free(eb);
  augur_trace_close(ta);
  augur_trace_close(tb);
  tu_cleanup(a);
  tu_cleanup(b);
  free(h);
}

/* The signal handler's writer: OpenMP records go to a kind-3 block too,
 * uncompressed, from the reserved buffers. */
static void test_in_signal(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  assert_int_equal(augur_writer_reserve(w, 64, &err), 0);
  augur_event o[40], m = tu_ev(AUGUR_EV_BARRIER, 100, 200);
  for (uint64_t i = 0; i < 40; i++) {
    o[i] = tu_ev(i % 2 ? AUGUR_EV_OMP_WAIT_END : AUGUR_EV_OMP_WAIT_BEGIN, 150 + i, 150 + i);
    o[i].thread = 3;
  }
  assert_int_equal(augur_writer_events_in_signal(w, 3, &m, 1), 0);
  assert_int_equal(augur_writer_omp_events_in_signal(w, 3, o, 40), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t = open_ok(dir);
  assert_int_equal(augur_trace_nblocks(t, 0), 1);
  assert_int_equal(augur_trace_omp_nblocks(t, 0), 1);
  const augur_block_info *b = augur_trace_omp_block(t, 0, 0);
  assert_int_equal(b->kind, 3);
  assert_int_equal(b->thread, 3);
  assert_int_equal(b->nevents, 40);
  augur_stream *s;
  assert_int_equal(augur_stream_rank_kinds(t, 0, AUGUR_KIND_OMP, &s, &err), 0);
  size_t n;
  int rc;
  augur_event *v = tu_read_stream(s, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, 40);
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(v[i].type, o[i].type);
    assert_int_equal(v[i].thread, 3);
  }
  free(v);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* 0 for an MPI record, 1 for an OpenMP record. */
static int kind_of(const augur_event *e) {
  return augur_event_is_omp(e->type);
}

/* Item 2: a rank stream of both kinds holds every record once, in time
 * order, each thread's records of each kind in written order, with global
 * times and call sites; the MPI records are those of the MPI stream. */
static void test_kinds_stream(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  char *dir = tu_tracedir();
  write_hybrid(dir, h, 2, 1);
  augur_trace *t = open_ok(dir);
  augur_error err;
  for (uint32_t r = 0; r < 2; r++) {
    size_t nmpi, n, nomp;
    int rc;
    augur_event *mpi = tu_read_rank(t, r, &nmpi, &rc, &err);
    assert_int_equal(rc, 0);
    augur_stream *s;
    assert_int_equal(augur_stream_rank_kinds(t, r, AUGUR_KIND_MPI | AUGUR_KIND_OMP, &s, &err), 0);
    augur_event *all = tu_read_stream(s, &n, &rc, &err);
    assert_int_equal(rc, 0);
    assert_int_equal(n, nmpi + h->nomp[0] + h->nomp[1]);
    size_t next[2][NTHREADS] = {{0}}, im = 0;
    for (size_t i = 0; i < n; i++) {
      const augur_event *e = &all[i];
      if (i) assert_true(e->t_start >= all[i - 1].t_start);
      assert_int_equal(e->rank, r);
      int k = kind_of(e);
      assert_true(e->thread < NTHREADS);
      const augur_event *w =
          k ? &h->omp[e->thread][next[k][e->thread]++] : &h->mpi[e->thread][next[k][e->thread]++];
      assert_int_equal(e->type, w->type);
      assert_int_equal(e->t_start, augur_trace_global_ns(t, r, w->t_start));
      assert_int_equal(e->t_end, augur_trace_global_ns(t, r, w->t_end));
      if (k) {
        assert_int_equal(e->req, w->req);
        assert_int_equal(e->tag, w->tag);
        if (w->callsite) {
          assert_int_equal(e->callsite, 2); /* local 3: (module, 0x200) */
          assert_int_equal(augur_trace_callsite(t, e->callsite)->offset, 0x200);
        } else {
          assert_int_equal(e->callsite, 0);
        }
      } else {
        tu_assert_event_eq(&mpi[im], e, im); /* finished as in the MPI stream */
        im++;
      }
    }
    assert_int_equal(im, nmpi);
    /* OpenMP alone */
    assert_int_equal(augur_stream_rank_kinds(t, r, AUGUR_KIND_OMP, &s, &err), 0);
    augur_event *omp = tu_read_stream(s, &nomp, &rc, &err);
    assert_int_equal(rc, 0);
    assert_int_equal(nomp, h->nomp[0] + h->nomp[1]);
    for (size_t i = 0, j = 0; i < n; i++)
      if (kind_of(&all[i])) tu_assert_event_eq(&all[i], &omp[j++], i);
    /* MPI alone is the MPI stream */
    assert_int_equal(augur_stream_rank_kinds(t, r, AUGUR_KIND_MPI, &s, &err), 0);
    augur_event *m2 = tu_read_stream(s, &n, &rc, &err);
    assert_int_equal(n, nmpi);
    for (size_t i = 0; i < n; i++)
      tu_assert_event_eq(&mpi[i], &m2[i], i);
    free(m2);
    free(omp);
    free(all);
    free(mpi);
  }
  /* merged: both ranks, both kinds, global time order */
  augur_stream *m;
  assert_int_equal(augur_stream_merged_kinds(t, AUGUR_KIND_MPI | AUGUR_KIND_OMP, &m, &err), 0);
  size_t n;
  int rc;
  augur_event *all = tu_read_stream(m, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, augur_trace_nevents(t, 0) + augur_trace_nevents(t, 1) +
                          augur_trace_omp_nevents(t, 0) + augur_trace_omp_nevents(t, 1));
  for (size_t i = 1; i < n; i++)
    assert_true(all[i].t_start >= all[i - 1].t_start);
  free(all);
  /* bad kinds */
  augur_stream *s = (augur_stream *)&err;
  assert_int_equal(augur_stream_rank_kinds(t, 0, 0, &s, &err), AUGUR_E_ARG);
  assert_null(s);
  assert_int_equal(augur_stream_merged_kinds(t, 4, &s, &err), AUGUR_E_ARG);
  assert_non_null(strstr(err.msg, "kinds"));
  /* seeking counts MPI blocks: not on a stream of OpenMP records */
  assert_int_equal(augur_stream_rank_kinds(t, 0, AUGUR_KIND_OMP | AUGUR_KIND_MPI, &s, &err), 0);
  assert_int_equal(augur_stream_seek_block(s, 1, &err), AUGUR_E_ARG);
  augur_stream_close(s);
  augur_trace_close(t);
  tu_cleanup(dir);
  free(h);
}

/* At equal times an MPI record comes before an OpenMP record, whatever the
 * threads; a repeated OpenMP block is dropped, also one of a single point
 * record (it starts where the previous block ended). */
static void test_ties(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  augur_event o[2] = {tu_ev(AUGUR_EV_OMP_FORK, 500, 500), tu_ev(AUGUR_EV_OMP_JOIN, 510, 510)};
  augur_event b = tu_ev(AUGUR_EV_BARRIER, 500, 600);
  assert_int_equal(augur_writer_omp_events(w, 0, o, 2, &err), 0);
  assert_int_equal(augur_writer_events(w, 1, &b, 1, &err), 0);
  /* thread 0's OpenMP block written twice: the repeat is dropped like a
   * repeated MPI block (the order rule holds per thread and kind); so is
   * the repeat of a block of one point record, and a different block at
   * that same time is kept */
  assert_int_equal(augur_writer_omp_events(w, 0, o, 2, &err), 0);
  assert_int_equal(augur_writer_omp_events(w, 0, o + 1, 1, &err), 0);
  assert_int_equal(augur_writer_omp_events(w, 0, o + 1, 1, &err), 0);
  augur_event masked = tu_ev(AUGUR_EV_OMP_MASKED_BEGIN, 510, 510);
  assert_int_equal(augur_writer_omp_events(w, 0, &masked, 1, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t = open_ok(dir);
  const char *why;
  assert_int_equal(augur_trace_dropped(t, 0, &why), 2);
  assert_non_null(strstr(why, "repeats the events block"));
  assert_int_equal(augur_trace_omp_nblocks(t, 0), 3);
  augur_stream *s;
  assert_int_equal(augur_stream_rank_kinds(t, 0, AUGUR_KIND_OMP | AUGUR_KIND_MPI, &s, &err), 0);
  size_t n;
  int rc;
  augur_event *v = tu_read_stream(s, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, 5);
  assert_int_equal(v[0].type, AUGUR_EV_BARRIER);
  assert_int_equal(v[1].type, AUGUR_EV_OMP_FORK);
  assert_int_equal(v[2].type, AUGUR_EV_OMP_JOIN);
  assert_int_equal(v[3].type, AUGUR_EV_OMP_JOIN);
  assert_int_equal(v[4].type, AUGUR_EV_OMP_MASKED_BEGIN);
  free(v);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Reads rank 0 of DIR with KINDS after the payload of block B (at OFF,
 * starting at local time FIRST) was damaged: every written record of the
 * selected kinds that starts before FIRST comes first, then the checksum
 * error naming the block. */
static void expect_damage_in_order(const char *dir, const hybrid *h, unsigned kinds, uint64_t off,
                                   uint64_t first) {
  augur_trace *t = open_ok(dir);
  augur_error err;
  augur_stream *s;
  assert_int_equal(augur_stream_rank_kinds(t, 0, kinds, &s, &err), 0);
  size_t n, want = 0;
  int rc;
  augur_event *v = tu_read_stream(s, &n, &rc, &err);
  for (uint32_t th = 0; th < NTHREADS; th++) {
    for (size_t i = 0; (kinds & AUGUR_KIND_MPI) && i < h->nmpi[th]; i++)
      want += h->mpi[th][i].t_start < first;
    for (size_t i = 0; (kinds & AUGUR_KIND_OMP) && i < h->nomp[th]; i++)
      want += h->omp[th][i].t_start < first;
  }
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  char at[64];
  snprintf(at, sizeof at, "rank 0: block at offset %llu: payload", (unsigned long long)off);
  if (!strstr(err.msg, at)) fail_msg("%s: no \"%s\"", err.msg, at);
  assert_int_equal(n, want);
  free(v);
  augur_trace_close(t);
}

/* Writes H into a new trace (one rank; OpenMP records if WITH_OMP) and
 * flips a payload byte of its events block I (of the OpenMP index if OMP,
 * else of the MPI one), which holds THREAD's records. Returns the trace
 * directory; *OFF and *FIRST get the block's offset and first_ns. */
static char *damaged_hybrid(const hybrid *h, int with_omp, int omp, size_t i, uint32_t thread,
                            uint64_t *off, uint64_t *first) {
  char *dir = tu_tracedir();
  write_hybrid(dir, h, 1, with_omp);
  augur_trace *t = open_ok(dir);
  const augur_block_info *b = omp ? augur_trace_omp_block(t, 0, i) : augur_trace_block(t, 0, i);
  assert_int_equal(b->thread, thread);
  *off = b->offset;
  *first = b->first_ns;
  augur_trace_close(t);
  tu_flip_byte(tu_rank_file(dir, 0, 1), *off + AUG_BLKHDR_SIZE + 3);
  return dir;
}

/* Item 2, damage: a corrupted kind-3 payload is reported like one of kind
 * 1, in time order (the MPI records before it all come first), and MPI
 * streams do not see it. */
static void test_omp_damage(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  uint64_t off, first;
  char *dir = damaged_hybrid(h, 1, 1, 2, 0, &off, &first);
  expect_damage_in_order(dir, h, AUGUR_KIND_MPI | AUGUR_KIND_OMP, off, first);
  expect_damage_in_order(dir, h, AUGUR_KIND_OMP, off, first);
  augur_trace *t = open_ok(dir);
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  size_t n;
  int rc;
  augur_error err;
  free(tu_read_rank(t, 0, &n, &rc, &err));
  assert_int_equal(rc, 0);
  assert_int_equal(n, h->nmpi[0] + h->nmpi[1]);
  augur_trace_close(t);
  tu_cleanup(dir);
  free(h);
}

/* The same for a damaged MPI block of a second thread: the other thread's
 * records before it are not lost (before, the error came as soon as the
 * damaged thread needed its next block). */
static void test_thread_damage_in_order(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  uint64_t off, first;
  char *dir = damaged_hybrid(h, 0, 0, 3, 1, &off, &first);
  expect_damage_in_order(dir, h, AUGUR_KIND_MPI, off, first);
  tu_cleanup(dir);
  free(h);
}

/* Item 5: a kind-3 block cut short or with a damaged header stops the
 * rank's index exactly as a kind-1 block does (same message), and the MPI
 * records of the blocks before it all come before the error. */
static void test_omp_truncated_and_header(void **state) {
  (void)state;
  hybrid *h = malloc(sizeof *h);
  make_hybrid(h);
  for (int how = 0; how < 2; how++) {
    char *dir = tu_tracedir();
    write_hybrid(dir, h, 1, 1);
    augur_trace *t = open_ok(dir);
    /* how 0: cut the last block (thread 1's second OpenMP block) short;
     * 1: damage the header of thread 1's first OpenMP block */
    const augur_block_info *b = augur_trace_omp_block(t, 0, how ? 1 : 3);
    assert_int_equal(b->thread, 1);
    uint64_t off = b->offset, mpi_before = 0;
    for (size_t i = 0; i < augur_trace_nblocks(t, 0); i++)
      if (augur_trace_block(t, 0, i)->offset < off)
        mpi_before += augur_trace_block(t, 0, i)->nevents;
    augur_trace_close(t);
    const char *file = tu_rank_file(dir, 0, 1);
    if (how)
      tu_flip_byte(file, off + 13); /* the record count */
    else
      tu_truncate(file, off + AUG_BLKHDR_SIZE + 10);
    t = open_ok(dir);
    const char *msg;
    assert_int_equal(augur_trace_damage(t, 0, &msg), 1);
    char want[160];
    snprintf(want, sizeof want, "rank-00000.evt: rank 0: block at offset %llu: %s",
             (unsigned long long)off,
             how ? "block header checksum mismatch" : "file ends inside the payload");
    if (!strstr(msg, want)) fail_msg("damage \"%s\": no \"%s\"", msg, want);
    assert_int_equal(augur_trace_omp_nblocks(t, 0), how ? 1 : 3);
    size_t n;
    int rc;
    augur_error err;
    free(tu_read_rank(t, 0, &n, &rc, &err));
    assert_int_equal(rc, how ? AUGUR_E_CHECKSUM : AUGUR_E_TRUNCATED);
    assert_string_equal(err.msg, msg);
    assert_int_equal(n, mpi_before);
    augur_trace_close(t);
    tu_cleanup(dir);
  }
  free(h);
}

/* Item 3: trace.json "openmp" round trip; absent = "unknown"; wrong types
 * are format errors naming the member. */
static void test_meta_openmp(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  static const augur_omp_callback cbs[] = {{"parallel_begin", 5}, {"dispatch", 1}};
  augur_trace_meta m = {.nranks = 1,
                        .openmp = {.mode = "ompt-preloaded",
                                   .runtime = "LLVM OMP version: 5.0.20140926",
                                   .ncallbacks = 2,
                                   .callbacks = cbs,
                                   .note = "no work records for schedule(static)",
                                   .dropped_before_init = 12}};
  augur_error err;
  assert_int_equal(augur_meta_write(dir, &m, &err), 0);
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t = open_ok(dir);
  const augur_omp_meta *om = &augur_trace_info_get(t)->openmp;
  assert_string_equal(om->mode, "ompt-preloaded");
  assert_string_equal(om->runtime, "LLVM OMP version: 5.0.20140926");
  assert_string_equal(om->note, "no work records for schedule(static)");
  assert_int_equal(om->dropped_before_init, 12);
  assert_int_equal(om->ncallbacks, 2);
  int seen = 0;
  for (size_t i = 0; i < om->ncallbacks; i++) {
    if (!strcmp(om->callbacks[i].name, "parallel_begin") && om->callbacks[i].result == 5) seen |= 1;
    if (!strcmp(om->callbacks[i].name, "dispatch") && om->callbacks[i].result == 1) seen |= 2;
  }
  assert_int_equal(seen, 3);
  augur_trace_close(t);
  /* no object: unknown */
  tu_meta(dir, 1);
  t = open_ok(dir);
  om = &augur_trace_info_get(t)->openmp;
  assert_string_equal(om->mode, "unknown");
  assert_string_equal(om->runtime, "");
  assert_string_equal(om->note, "");
  assert_int_equal(om->ncallbacks, 0);
  augur_trace_close(t);
  static const char *bad[][2] = {
      {"\"openmp\": 3", "\"openmp\""},
      {"\"openmp\": {\"runtime\": \"x\"}", "\"mode\""},
      {"\"openmp\": {\"mode\": 1}", "\"mode\""},
      {"\"openmp\": {\"mode\": \"ompt\", \"callbacks\": {\"work\": \"x\"}}", "\"callbacks\""},
      {"\"openmp\": {\"mode\": \"ompt\", \"dropped_before_init\": -1}", "\"dropped_before_init\""},
  };
  char file[4200], text[512];
  snprintf(file, sizeof file, "%s/trace.json", dir);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    snprintf(text, sizeof text,
             "{\"format\": \"augur-trace\", \"version\": [1, 4], \"nranks\": 1, %s}", bad[i][0]);
    tu_write_file(file, text);
    assert_int_equal(augur_trace_open(&t, dir, &err), AUGUR_E_FORMAT);
    if (!strstr(err.msg, bad[i][1])) fail_msg("%s: no %s", err.msg, bad[i][1]);
  }
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_block_kinds),
      cmocka_unit_test(test_mpi_stream_unchanged),
      cmocka_unit_test(test_kinds_stream),
      cmocka_unit_test(test_ties),
      cmocka_unit_test(test_omp_damage),
      cmocka_unit_test(test_thread_damage_in_order),
      cmocka_unit_test(test_omp_truncated_and_header),
      cmocka_unit_test(test_meta_openmp),
      cmocka_unit_test(test_in_signal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
