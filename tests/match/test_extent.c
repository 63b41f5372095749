/* The run's extent (augur_run_extent) and the merged stream's first record
 * per rank (augur_stream_peek_rank), which diagnose's set-up reads instead of
 * a rank stream per rank (issue 27). Hand-built traces (cmocka): ranks with
 * several blocks, two threads, drifting clocks, a rank without events. The
 * extent must be what the rank streams say (the first record's t_start, the
 * largest t_end of the last block, on the global timeline), from the block
 * index alone: a damaged payload does not change it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/reader.h"
#include "extent.h"
#include "util.h"

#define NR 4

static augur_rank_def rank_def(uint32_t rank, uint64_t init, int64_t off0, int64_t off1) {
  augur_rank_def d;
  memset(&d, 0, sizeof d);
  d.rank = rank;
  d.nranks = NR;
  d.pid = 100 + rank;
  d.host = "node1";
  d.thread_level = -1;
  d.init_ns = init;
  d.finalize_ns = init + 900000;
  d.nsync = 2; /* a drifting clock: the offset goes from off0 to off1 */
  d.sync[0] = (augur_clock_sync){AUGUR_SYNC_INIT, init, off0, 800};
  d.sync[1] = (augur_clock_sync){AUGUR_SYNC_FINALIZE, init + 900000, off1, 800};
  return d;
}

/* Rank 0: three blocks of one thread, a Sendrecv (with its SUB_RECV) last.
 * Rank 1: thread 1's block first in the file but later in time, thread 0's
 * block starting earlier, then a last block of thread 1.
 * Rank 2: no events. Rank 3: one block, Init first. */
static void build(const char *dir) {
  tu_meta(dir, NR);
  augur_error err;
  augur_writer *w;
  int64_t offs[NR][2] = {{0, 0}, {-3000, -2500}, {700, 900}, {12000, 11000}};
  for (uint32_t r = 0; r < NR; r++) {
    uint64_t base = 10000 + 1000 * r;
    assert_int_equal(augur_writer_open(&w, dir, r, NR, 1, &err), 0);
    augur_rank_def d = rank_def(r, base, offs[r][0], offs[r][1]);
    assert_int_equal(augur_writer_def_rank(w, &d, &err), 0);
    if (r == 0) {
      augur_event a[2] = {tu_ev(AUGUR_EV_INIT, base, base + 500),
                          tu_ev(AUGUR_EV_BARRIER, base + 600, base + 700)};
      augur_event b[1] = {tu_ev(AUGUR_EV_BARRIER, base + 800, base + 5000)};
      augur_event c[3] = {tu_ev(AUGUR_EV_BARRIER, base + 6000, base + 6100),
                          tu_ev(AUGUR_EV_SENDRECV, base + 6200, base + 9000),
                          tu_ev(AUGUR_EV_SUB_RECV, base + 6200, base + 9000)};
      c[1].peer = 1, c[1].aux = 1, c[2].peer = 1;
      assert_int_equal(augur_writer_events(w, 0, a, 2, &err), 0);
      assert_int_equal(augur_writer_events(w, 0, b, 1, &err), 0);
      assert_int_equal(augur_writer_events(w, 0, c, 3, &err), 0);
    } else if (r == 1) {
      augur_event t1a[1] = {tu_ev(AUGUR_EV_SEND, base + 400, base + 450)};
      augur_event t0[2] = {tu_ev(AUGUR_EV_INIT_THREAD, base - 200, base + 300),
                           tu_ev(AUGUR_EV_BARRIER, base + 500, base + 20000)};
      augur_event t1b[1] = {tu_ev(AUGUR_EV_SEND, base + 900, base + 1200)};
      assert_int_equal(augur_writer_events(w, 1, t1a, 1, &err), 0);
      assert_int_equal(augur_writer_events(w, 0, t0, 2, &err), 0);
      assert_int_equal(augur_writer_events(w, 1, t1b, 1, &err), 0);
    } else if (r == 3) {
      augur_event a[3] = {tu_ev(AUGUR_EV_INIT, base + 50, base + 900),
                          tu_ev(AUGUR_EV_BARRIER, base + 1000, base + 1100),
                          tu_ev(AUGUR_EV_FINALIZE, base + 1200, base + 1300)};
      assert_int_equal(augur_writer_events(w, 0, a, 3, &err), 0);
    }
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
}

/* A fresh trace of build() in *DIR, opened; done() removes it. */
static augur_trace *open_built(char **dir) {
  *dir = tu_tracedir();
  build(*dir);
  augur_trace *t;
  augur_error err;
  assert_int_equal(augur_trace_open(&t, *dir, &err), 0);
  return t;
}

static void done(augur_trace *t, char *dir) {
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* The extent as rank streams give it: each rank's first record's t_start,
 * and the largest t_end of its last events block's records. */
static void extent_by_streams(augur_trace *t, uint64_t *first, uint64_t *last) {
  *first = UINT64_MAX, *last = 0;
  augur_error err;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    size_t nb = augur_trace_nblocks(t, r);
    if (!nb) continue;
    augur_stream *s;
    assert_int_equal(augur_stream_rank(t, r, &s, &err), 0);
    augur_event ev;
    assert_int_equal(augur_stream_next(s, &ev, &err), 1);
    if (ev.t_start < *first) *first = ev.t_start;
    assert_int_equal(augur_stream_seek_block(s, nb - 1, &err), 0);
    int rc;
    while ((rc = augur_stream_next(s, &ev, &err)) == 1)
      if (ev.t_end > *last) *last = ev.t_end;
    assert_int_equal(rc, 0);
    augur_stream_close(s);
  }
  if (*first == UINT64_MAX) *first = 0;
}

static void test_extent_as_streams(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = open_built(&dir);
  augur_error err;
  assert_int_equal(augur_trace_nblocks(t, 0), 3);
  assert_int_equal(augur_trace_nblocks(t, 1), 3);
  assert_int_equal(augur_trace_nblocks(t, 2), 0);
  uint64_t f0, l0, f1, l1;
  extent_by_streams(t, &f0, &l0);
  assert_int_equal(augur_run_extent(t, &f1, &l1, &err), 0);
  assert_int_equal(f1, f0);
  assert_int_equal(l1, l0);
  /* rank 1's first record is thread 0's Init_thread (its block is second in
   * the file); the last block is thread 1's, not the Barrier that ends later */
  assert_int_equal(f1, augur_trace_global_ns(t, 1, 11000 - 200));
  assert_int_equal(l1, augur_trace_global_ns(t, 3, 13000 + 1300));
  done(t, dir);
}

/* The index is enough: a payload that no longer matches its checksum is
 * not read (a rank stream per rank read every rank's first and last block,
 * and failed here). */
static void test_extent_reads_no_payload(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = open_built(&dir);
  augur_error err;
  uint64_t f0, l0, f1, l1;
  assert_int_equal(augur_run_extent(t, &f0, &l0, &err), 0);
  uint64_t at[NR];
  for (uint32_t r = 0; r < NR; r++)
    at[r] = augur_trace_nblocks(t, r) ? augur_trace_block(t, r, 0)->offset : 0;
  augur_trace_close(t);
  for (uint32_t r = 0; r < NR; r++)
    if (at[r]) tu_flip_byte(tu_rank_file(dir, r, NR), at[r] + 56 + 1); /* the payload */
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  augur_stream *s;
  assert_int_equal(augur_stream_rank(t, 0, &s, &err), 0);
  augur_event ev;
  assert_true(augur_stream_next(s, &ev, &err) < 0); /* the damage is there */
  augur_stream_close(s);
  assert_int_equal(augur_run_extent(t, &f1, &l1, &err), 0);
  assert_int_equal(f1, f0);
  assert_int_equal(l1, l0);
  done(t, dir);
}

/* Each rank's next record in merged stream M after TAKEN[r] of its records
 * went: the rank stream's record TAKEN[r], or 0 past its last. */
static void check_peeks(augur_stream *m, augur_trace *t, const size_t *taken) {
  augur_error err;
  for (uint32_t r = 0; r < NR; r++) {
    size_t n;
    int rc;
    augur_event ev, *v = tu_read_rank(t, r, &n, &rc, &err);
    assert_int_equal(rc, 0);
    if (taken[r] == n) {
      assert_int_equal(augur_stream_peek_rank(m, r, &ev, &err), 0);
    } else {
      assert_int_equal(augur_stream_peek_rank(m, r, &ev, &err), 1);
      tu_assert_event_eq(&v[taken[r]], &ev, r);
    }
    free(v);
  }
}

/* Before the first augur_stream_next, each rank's first record as its rank
 * stream has it; later, the rank's next record; 0 for a rank without
 * records, and AUGUR_E_ARG for a rank outside the stream or a rank stream. */
static void test_peek_rank(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = open_built(&dir);
  augur_error err;
  augur_stream *m;
  assert_int_equal(augur_stream_merged(t, &m, &err), 0);
  size_t taken[NR] = {0};
  check_peeks(m, t, taken);
  augur_event ev;
  assert_int_equal(augur_stream_peek_rank(m, NR, &ev, &err), AUGUR_E_ARG);
  while (taken[1] < 2) { /* rank 1: between its threads' records */
    assert_int_equal(augur_stream_next(m, &ev, &err), 1);
    taken[ev.rank]++;
  }
  check_peeks(m, t, taken);
  augur_stream_close(m);
  augur_stream *s;
  assert_int_equal(augur_stream_rank(t, 0, &s, &err), 0);
  assert_int_equal(augur_stream_peek_rank(s, 0, &ev, &err), AUGUR_E_ARG);
  augur_stream_close(s);
  done(t, dir);
}

/* augur_stream_next_rank names the rank of the record augur_stream_next
 * returns next, UINT32_MAX at the end; a rank stream names its rank. */
static void test_next_rank(void **state) {
  (void)state;
  char *dir;
  augur_trace *t = open_built(&dir);
  augur_error err;
  augur_stream *m;
  assert_int_equal(augur_stream_merged(t, &m, &err), 0);
  augur_event ev;
  size_t n = 0;
  uint32_t next;
  while ((next = augur_stream_next_rank(m)) != UINT32_MAX) {
    assert_int_equal(augur_stream_next(m, &ev, &err), 1);
    assert_int_equal(ev.rank, next);
    n++;
  }
  assert_int_equal(augur_stream_next(m, &ev, &err), 0);
  assert_int_equal(n, 6 + 4 + 3);
  augur_stream_close(m);
  assert_int_equal(augur_stream_rank(t, 3, &m, &err), 0);
  assert_int_equal(augur_stream_next_rank(m), 3);
  augur_stream_close(m);
  done(t, dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_extent_as_streams),
      cmocka_unit_test(test_extent_reads_no_payload),
      cmocka_unit_test(test_peek_rank),
      cmocka_unit_test(test_next_rank),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
