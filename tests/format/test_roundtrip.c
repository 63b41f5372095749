/* augur format tests — events and definitions survive writer -> reader
 * exactly; threads, ranks, clocks and call sites are merged as specified. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "format.h"
#include "util.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static const unsigned all_types[] = {
#define X(n, v) v,
    AUGUR_EVENT_TYPES(X)
#undef X
};
#define NTYPES (sizeof all_types / sizeof all_types[0])

static int is_sub(unsigned t) {
  return augur_event_is_sub(t);
}

/* A value that is small, repeated or anything, so every encoding path runs. */
static uint64_t any64(void) {
  switch (rnd() % 4) {
  case 0:
    return 0;
  case 1:
    return rnd() % 100;
  case 2:
    return rnd();
  default:
    return 1000 + rnd() % 5;
  }
}

/* Random parents of every type, each followed by aux sub-records. */
static size_t gen(augur_event *v, size_t n, int full_range) {
  size_t k = 0;
  uint64_t t = 1000;
  while (k < n) {
    unsigned type = all_types[rnd() % NTYPES];
    if (is_sub(type)) continue;
    augur_event e = tu_ev(type, 0, 0);
    t += rnd() % 100000;
    e.t_start = t;
    t += rnd() % 5000;
    e.t_end = t;
    e.bytes = any64();
    e.bytes_recv = any64();
    e.req = full_range ? any64() : 2 * (rnd() % 1000) + 1; /* odd: never a completion's */
    e.comm = full_range ? any64() : AUGUR_COMM_WORLD;
    e.hash = rnd() % 3 ? 0 : rnd();
    e.callsite = full_range ? any64() : rnd() % 6;
    for (int c = 0; c < AUGUR_MAX_COUNTERS; c++)
      e.ctr[c] = c < 2 ? any64() : 0;
    e.peer = full_range ? (int32_t)rnd() : (int32_t)(rnd() % 5) - 3;
    e.tag = full_range ? (int32_t)rnd() : (int32_t)(rnd() % 50) - 2;
    e.flags = (uint16_t)(rnd() & 0x0fff);
    if (full_range) { /* any type value, escaped ones (>= 128) too */
      e.type = (uint16_t)(rnd() % (AUGUR_EV_MAX - 1));
      if (e.type == AUGUR_EV_ESCAPE) e.type = AUGUR_EV_MAX - 2;
    }
    unsigned nsub = rnd() % 3 == 0 ? (unsigned)(rnd() % 5) : 0;
    if (k + 1 + nsub > n) nsub = 0;
    e.aux = nsub ? nsub : (uint32_t)(rnd() % 3);
    v[k++] = e;
    for (unsigned s = 0; s < nsub; s++) {
      augur_event c = tu_ev(AUGUR_EV_COMPLETION + (unsigned)(rnd() % 3), e.t_start, e.t_end);
      c.req = full_range ? rnd() : (1ull << 63) | rnd(); /* never started */
      c.aux = s;
      c.peer = full_range ? (int32_t)rnd() : (int32_t)(rnd() % 4);
      c.tag = (int32_t)(rnd() % 7);
      c.bytes_recv = any64();
      c.comm = full_range ? any64() : AUGUR_COMM_WORLD;
      c.flags = (uint16_t)(rnd() & 0x0300);
      v[k++] = c;
    }
  }
  return k;
}

/* The encoder's shortcut for a record whose predicted fields all equal the
 * prediction (evcodec.c, same_fields): a change of any one byte of any
 * predicted field, or of flags, between records of one context slot must
 * still be written and read back. */
static void test_codec_one_byte(void **state) {
  (void)state;
  static const struct {
    size_t off, size;
  } fields[] = {
      {offsetof(augur_event, bytes), 8},
      {offsetof(augur_event, bytes_recv), 8},
      {offsetof(augur_event, req), 8},
      {offsetof(augur_event, comm), 8},
      {offsetof(augur_event, hash), 8},
      {offsetof(augur_event, callsite), 8},
      {offsetof(augur_event, ctr), 8 * AUGUR_MAX_COUNTERS},
      {offsetof(augur_event, peer), 4},
      {offsetof(augur_event, tag), 4},
      {offsetof(augur_event, aux), 4},
      {offsetof(augur_event, flags), 2},
  };
  aug_evenc *enc = calloc(1, sizeof *enc);
  aug_evdec *dec = malloc(sizeof *dec);
  aug_ev_decode_init(dec);
  aug_buf raw = {0};
  char why[256];
  int checked = 0;
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
    for (size_t k = 0; k < fields[f].size; k++) {
      augur_event v[4], out[4];
      v[0] = tu_ev(AUGUR_EV_IPROBE, 100, 130);
      v[0].peer = 1, v[0].tag = 7, v[0].comm = 1, v[0].callsite = 3, v[0].flags = 0x800;
      v[1] = v[0];
      ((unsigned char *)&v[1])[fields[f].off + k] ^= 0x5a;
      v[2] = v[0];
      v[3] = v[1];
      for (int i = 1; i < 4; i++)
        v[i].t_start = v[i - 1].t_end + 10, v[i].t_end = v[i].t_start + 30;
      raw.len = 0;
      assert_int_equal(aug_ev_encode(enc, v, 4, &raw), AUGUR_OK);
      assert_int_equal(
          aug_ev_decode_begin(dec, raw.p, raw.len, 4, v[0].t_start, v[0].thread, why, sizeof why),
          AUGUR_OK);
      uint32_t got = 0;
      assert_int_equal(aug_ev_decode_some(dec, out, 4, &got, why, sizeof why), AUGUR_OK);
      assert_int_equal(got, 4);
      for (size_t i = 0; i < 4; i++)
        tu_assert_event_eq(&v[i], &out[i], i);
      checked++;
    }
  assert_int_equal(checked, 8 * 6 + 8 * AUGUR_MAX_COUNTERS + 3 * 4 + 2);
  aug_buf_free(&raw);
  aug_ev_encoder_free(enc);
  free(enc);
  aug_ev_decode_fini(dec);
  free(dec);
}

/* The codec alone: any field values, all 128 type values. */
static void test_codec_exact(void **state) {
  (void)state;
  enum { N = 20000 };
  augur_event *v = malloc(N * sizeof *v), *out = malloc(N * sizeof *out);
  aug_evenc *enc = calloc(1, sizeof *enc);
  aug_evdec *dec = malloc(sizeof *dec);
  aug_ev_decode_init(dec);
  aug_buf raw = {0};
  size_t n = gen(v, N, 1);
  /* Sub-records take the preceding parent's times on disk. */
  uint64_t ps = v[0].t_start, pe = v[0].t_start;
  for (size_t i = 0; i < n; i++) {
    if (is_sub(v[i].type))
      v[i].t_start = ps, v[i].t_end = pe;
    else
      ps = v[i].t_start, pe = v[i].t_end;
    v[i].thread = 3;
    v[i].rank = 0;
  }
  assert_int_equal(aug_ev_encode(enc, v, n, &raw), AUGUR_OK);
  char why[256];
  assert_int_equal(
      aug_ev_decode_begin(dec, raw.p, raw.len, (uint32_t)n, v[0].t_start, 3, why, sizeof why),
      AUGUR_OK);
  uint32_t got = 0, total = 0;
  while (total < n) {
    assert_int_equal(aug_ev_decode_some(dec, out + total, 1000, &got, why, sizeof why), AUGUR_OK);
    assert_true(got > 0);
    total += got;
  }
  for (size_t i = 0; i < n; i++)
    tu_assert_event_eq(&v[i], &out[i], i);
  /* The block used more context slots than the decoder's inline pool holds:
   * the pool grew onto the heap on the way. */
  assert_true(dec->used > AUG_DEC_SMALL && dec->pool != dec->small);
  /* A record count larger than what was encoded is caught. */
  assert_int_equal(
      aug_ev_decode_begin(dec, raw.p, raw.len, (uint32_t)n + 1, v[0].t_start, 3, why, sizeof why),
      AUGUR_OK);
  int rc = AUGUR_OK;
  for (total = 0; rc == AUGUR_OK && total <= n; total += got)
    rc = aug_ev_decode_some(dec, out, 4096, &got, why, sizeof why);
  assert_int_equal(rc, AUGUR_E_FORMAT);
  /* The escape value and 255 are not types: they cannot be encoded. */
  v[5].type = AUGUR_EV_ESCAPE;
  raw.len = 0;
  assert_int_equal(aug_ev_encode(enc, v, n, &raw), AUGUR_E_ARG);
  v[5].type = AUGUR_EV_MAX - 1;
  raw.len = 0;
  assert_int_equal(aug_ev_encode(enc, v, n, &raw), AUGUR_E_ARG);
  /* An escaped type byte below 128 is a damaged block, not a record. */
  augur_event one = tu_ev(200, 10, 20);
  raw.len = 0;
  assert_int_equal(aug_ev_encode(enc, &one, 1, &raw), AUGUR_OK);
  assert_true(raw.len > 4 && (raw.p[2] & 0x7f) == AUGUR_EV_ESCAPE && raw.p[3] == 200);
  assert_int_equal(aug_ev_decode_begin(dec, raw.p, raw.len, 1, 10, 0, why, sizeof why), AUGUR_OK);
  assert_int_equal(aug_ev_decode_some(dec, out, 1, &got, why, sizeof why), AUGUR_OK);
  assert_int_equal(out[0].type, 200);
  raw.p[3] = AUGUR_EV_SEND;
  assert_int_equal(aug_ev_decode_begin(dec, raw.p, raw.len, 1, 10, 0, why, sizeof why), AUGUR_OK);
  assert_int_equal(aug_ev_decode_some(dec, out, 1, &got, why, sizeof why), AUGUR_E_FORMAT);
  assert_non_null(strstr(why, "escaped event type"));
  aug_buf_free(&raw);
  aug_ev_encoder_free(enc);
  free(enc);
  aug_ev_decode_fini(dec);
  free(dec);
  free(v);
  free(out);
}

static void def_callsites(augur_writer *w) {
  augur_error err;
  augur_module_def m = {1, "/usr/bin/app"};
  assert_int_equal(augur_writer_def_module(w, &m, &err), 0);
  for (uint32_t i = 1; i <= 5; i++) {
    augur_callsite_def c = {i, 1, 0x1000 + 16 * i};
    assert_int_equal(augur_writer_def_callsite(w, &c, &err), 0);
  }
}

/* Every event type through the writer and reader, several writer calls. */
/* Record i of v (written for rank r) as the reader returns it: the rank
 * filled, a completion without its start unmatched, sub-records with their
 * parent's times. */
static augur_event read_back(const augur_event *v, size_t i, uint32_t r) {
  augur_event want = v[i];
  want.rank = r;
  if (want.type == AUGUR_EV_COMPLETION) want.flags |= AUGUR_F_UNMATCHED;
  if (is_sub(want.type)) {
    size_t p = i;
    while (is_sub(v[p].type))
      p--;
    want.t_start = v[p].t_start;
    want.t_end = v[p].t_end;
  }
  return want;
}

static void test_every_type(void **state) {
  (void)state;
  enum { N = 60000 };
  char *dir = tu_tracedir();
  tu_meta(dir, 5);
  augur_event *v = malloc(N * sizeof *v);
  size_t n = gen(v, N, 0);
  augur_error err;
  for (uint32_t r = 0; r < 5; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 5, r + 1, &err), 0);
    def_callsites(w);
    if (r == 2) { /* split the events over several calls, at parent boundaries */
      size_t cut = n / 3;
      while (is_sub(v[cut].type))
        cut++;
      assert_int_equal(augur_writer_events(w, 0, v, cut, &err), 0);
      assert_int_equal(augur_writer_events(w, 0, v + cut, 0, &err), 0);
      assert_int_equal(augur_writer_events(w, 0, v + cut, n - cut, &err), 0);
    } else if (r != 4) { /* rank 4 has no events at all */
      assert_int_equal(augur_writer_events(w, 0, v, n, &err), 0);
    }
    if (r != 4) assert_true(augur_writer_bytes(w) > 32);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  int rc = augur_trace_open(&t, dir, &err);
  if (rc) fail_msg("open: %s", err.msg);
  const augur_trace_info *in = augur_trace_info_get(t);
  assert_int_equal(in->version_major, 1);
  assert_int_equal(in->nranks, 5);
  assert_int_equal(in->argc, 3);
  assert_string_equal(in->argv[2], "3");
  assert_string_equal(in->mpi_library, "MPICH");
  assert_true(in->start_unix_ns == 1763800000123456789ull);
  assert_int_equal(in->complete, 1);
  assert_int_equal(in->payload_hash, 1);
  assert_null(in->counters_requested);
  assert_int_equal(augur_trace_nevents(t, 0), n);
  assert_int_equal(augur_trace_nevents(t, 4), 0);
  /* Parent records, per block and per rank (sub-records not counted). */
  size_t parents = 0;
  for (size_t i = 0; i < n; i++)
    parents += !is_sub(v[i].type);
  assert_true(parents < n);
  for (uint32_t r = 0; r < 5; r++) {
    uint64_t sum = 0;
    for (size_t b = 0; b < augur_trace_nblocks(t, r); b++)
      sum += augur_trace_block(t, r, b)->nparents;
    assert_int_equal(sum, r == 4 ? 0 : parents);
    assert_int_equal(augur_trace_nparents(t, r), r == 4 ? 0 : parents);
  }
  assert_true(augur_trace_nblocks(t, 0) >= n / AUG_BLOCK_TARGET);
  assert_int_equal(augur_trace_ncallsites(t), 5);
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  for (uint32_t r = 0; r < 4; r++) {
    size_t got;
    augur_event *out = tu_read_rank(t, r, &got, &rc, &err);
    if (rc) fail_msg("rank %u: %s", r, err.msg);
    assert_int_equal(got, n);
    for (size_t i = 0; i < n; i++) {
      augur_event want = read_back(v, i, r);
      tu_assert_event_eq(&want, &out[i], i);
    }
    free(out);
  }
  size_t got;
  free(tu_read_rank(t, 4, &got, &rc, &err));
  assert_int_equal(rc, 0);
  assert_int_equal(got, 0);
  /* Seeking to a block resumes there. */
  augur_stream *s;
  assert_int_equal(augur_stream_rank(t, 0, &s, &err), 0);
  const augur_block_info *b1 = augur_trace_block(t, 0, 1);
  assert_non_null(b1);
  assert_int_equal(augur_stream_seek_block(s, 1, &err), 0);
  augur_event e;
  assert_int_equal(augur_stream_next(s, &e, &err), 1);
  assert_true(e.t_start == b1->first_ns);
  assert_int_equal(augur_stream_seek_block(s, 999999, &err), AUGUR_E_ARG);
  augur_stream_close(s);
  assert_int_equal(augur_stream_rank(t, 5, &s, &err), AUGUR_E_ARG);
  augur_trace_close(t);
  free(v);
  tu_cleanup(dir);
}

/* Two threads of one rank: merged by t_start, sub-records stay with their parent. */
static void test_threads(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  /* thread 0: events at 100, 300, 500, ...; thread 1 at 200, 400, ... with
   * a WAITALL + 2 completions every time; both have something at 10000. */
  enum { N = 3000 };
  augur_event *a = calloc(N, sizeof *a), *b = calloc(3 * N, sizeof *b);
  size_t na = 0, nb = 0;
  for (int i = 0; i < N; i++) {
    a[na] = tu_ev(AUGUR_EV_SEND, 100 + 200 * (uint64_t)i, 150 + 200 * (uint64_t)i);
    a[na++].thread = 0;
    augur_event p = tu_ev(AUGUR_EV_WAITALL, 200 + 200 * (uint64_t)i, 250 + 200 * (uint64_t)i);
    p.aux = 2;
    p.thread = 1;
    b[nb++] = p;
    for (uint32_t k = 0; k < 2; k++) {
      augur_event c = tu_ev(AUGUR_EV_COMPLETION, p.t_start, p.t_end);
      c.req = 77;
      c.aux = k;
      c.thread = 1;
      b[nb++] = c;
    }
  }
  /* Interleave blocks of both threads in the file, thread 1 first. */
  assert_int_equal(augur_writer_events(w, 1, b, nb / 2 - (nb / 2) % 3, &err), 0);
  assert_int_equal(augur_writer_events(w, 0, a, na / 2, &err), 0);
  assert_int_equal(augur_writer_events(w, 0, a + na / 2, na - na / 2, &err), 0);
  assert_int_equal(
      augur_writer_events(w, 1, b + nb / 2 - (nb / 2) % 3, nb - nb / 2 + (nb / 2) % 3, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  size_t n;
  int rc;
  augur_event *out = tu_read_rank(t, 0, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, na + nb);
  size_t seen_a = 0, seen_b = 0;
  for (size_t i = 0; i < n; i++) {
    if (i) assert_true(out[i].t_start >= out[i - 1].t_start);
    if (out[i].type == AUGUR_EV_WAITALL) {
      assert_int_equal(out[i].thread, 1);
      assert_true(i + 2 < n);
      for (int k = 1; k <= 2; k++) {
        assert_int_equal(out[i + k].type, AUGUR_EV_COMPLETION);
        assert_int_equal(out[i + k].thread, 1);
        assert_int_equal(out[i + k].aux, k - 1);
        assert_true(out[i + k].t_start == out[i].t_start);
      }
      seen_b++;
    } else if (out[i].type == AUGUR_EV_SEND) {
      assert_int_equal(out[i].thread, 0);
      seen_a++;
    }
  }
  assert_int_equal(seen_a, N);
  assert_int_equal(seen_b, N);
  free(out);
  free(a);
  free(b);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static augur_rank_def rank_def(uint32_t rank, uint32_t nranks, uint64_t init, int64_t off) {
  augur_rank_def d;
  memset(&d, 0, sizeof d);
  d.rank = rank;
  d.nranks = nranks;
  d.pid = 4000 + rank;
  d.host = "node1";
  d.thread_level = -1;
  d.init_ns = init;
  d.nsync = 1;
  d.sync[0] = (augur_clock_sync){AUGUR_SYNC_INIT, init, off, 800};
  return d;
}

/* Call sites become global, modules are deduplicated by path, comms by id,
 * and a later rank definition replaces the earlier one. */
static void test_definitions(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  augur_writer *w;
  /* rank 0: module 1 = /a.out, call sites 1 -> (a.out, 0x10), 2 -> (a.out, 0x20) */
  assert_int_equal(augur_writer_open(&w, dir, 0, 2, 3, &err), 0);
  augur_rank_def d0 = rank_def(0, 2, 1000, 0);
  assert_int_equal(augur_writer_def_rank(w, &d0, &err), 0);
  int32_t world[2] = {0, 1}, sub[2] = {1, 0};
  augur_comm_def cw = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = 2, .members = world};
  augur_comm_def cs = {.id = 0xfeedull,
                       .parent = 1,
                       .kind = AUGUR_COMM_KIND_CART,
                       .size = 2,
                       .members = sub,
                       .ndims = 2,
                       .dims = {2, 1},
                       .periods = {1, 0}};
  assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
  assert_int_equal(augur_writer_def_comm(w, &cs, &err), 0);
  augur_module_def m1 = {1, "/a.out"};
  assert_int_equal(augur_writer_def_module(w, &m1, &err), 0);
  augur_callsite_def c1 = {1, 1, 0x10}, c2 = {2, 1, 0x20};
  assert_int_equal(augur_writer_def_callsite(w, &c1, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c2, &err), 0);
  augur_event e0[2] = {tu_ev(AUGUR_EV_BARRIER, 2000, 2100), tu_ev(AUGUR_EV_BARRIER, 3000, 3100)};
  e0[0].callsite = 1;
  e0[1].callsite = 2;
  assert_int_equal(augur_writer_events(w, 0, e0, 2, &err), 0);
  /* finalize: rank facts re-written with the second sync and counters */
  d0.finalize_ns = 9000;
  d0.nsync = 2;
  d0.sync[1] = (augur_clock_sync){AUGUR_SYNC_FINALIZE, 9000, 0, 700};
  d0.ncounters = 1;
  d0.counters[0] = (augur_counter_def){0, AUGUR_CTR_PERF, "task-clock"};
  d0.counter_note = "instructions: not supported";
  assert_int_equal(augur_writer_def_rank(w, &d0, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);

  /* rank 1: module ids differ; call site 5 = (a.out, 0x20) = global 2 */
  assert_int_equal(augur_writer_open(&w, dir, 1, 2, 3, &err), 0);
  augur_rank_def d1 = rank_def(1, 2, 5000, -3000);
  d1.host = NULL;
  assert_int_equal(augur_writer_def_rank(w, &d1, &err), 0);
  assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
  assert_int_equal(augur_writer_def_comm(w, &cs, &err), 0);
  augur_callsite_def c5 = {5, 3, 0x20}, c6 = {6, 7, 0x10}, c7 = {7, 3, 0x30};
  /* a call site may precede its module within a block */
  assert_int_equal(augur_writer_def_callsite(w, &c5, &err), 0);
  augur_module_def m7 = {7, "/lib/libx.so"}, m3 = {3, "/a.out"};
  assert_int_equal(augur_writer_def_module(w, &m7, &err), 0);
  assert_int_equal(augur_writer_def_module(w, &m3, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c6, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c7, &err), 0);
  augur_event e1[4] = {tu_ev(AUGUR_EV_BARRIER, 6000, 6100), tu_ev(AUGUR_EV_BARRIER, 6200, 6300),
                       tu_ev(AUGUR_EV_BARRIER, 6400, 6500), tu_ev(AUGUR_EV_BARRIER, 6600, 6700)};
  e1[0].callsite = 5;
  e1[1].callsite = 6;
  e1[2].callsite = 7;
  e1[3].callsite = 99; /* never defined */
  assert_int_equal(augur_writer_events(w, 0, e1, 4, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);

  augur_trace *t;
  int rc = augur_trace_open(&t, dir, &err);
  if (rc) fail_msg("%s", err.msg);
  assert_int_equal(augur_trace_ncallsites(t), 4);
  const augur_callsite_def *g;
  g = augur_trace_callsite(t, 2);
  assert_int_equal(g->module, 1);
  assert_int_equal(g->offset, 0x20);
  g = augur_trace_callsite(t, 3);
  assert_string_equal(augur_trace_module(t, g->module)->path, "/lib/libx.so");
  assert_int_equal(g->offset, 0x10);
  g = augur_trace_callsite(t, 4);
  assert_string_equal(augur_trace_module(t, g->module)->path, "/a.out");
  assert_int_equal(g->offset, 0x30);
  assert_null(augur_trace_callsite(t, 0));
  assert_null(augur_trace_callsite(t, 5));
  assert_null(augur_trace_module(t, 3));
  size_t n;
  augur_event *out = tu_read_rank(t, 1, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, 4);
  assert_int_equal(out[0].callsite, 2);
  assert_int_equal(out[1].callsite, 3);
  assert_int_equal(out[2].callsite, 4);
  assert_int_equal(out[3].callsite, 0);
  free(out);
  /* comms */
  assert_int_equal(augur_trace_ncomms(t), 2);
  const augur_comm_def *c = augur_trace_comm(t, 0xfeed);
  assert_non_null(c);
  assert_int_equal(c->size, 2);
  assert_int_equal(c->members[0], 1);
  assert_int_equal(c->ndims, 2);
  assert_int_equal(c->dims[0], 2);
  assert_int_equal(c->periods[0], 1);
  assert_null(augur_trace_comm(t, 0xbad));
  /* rank facts: the finalize version replaced the first */
  const augur_rank_def *r0 = augur_trace_rank(t, 0);
  assert_non_null(r0);
  assert_int_equal(r0->finalize_ns, 9000);
  assert_int_equal(r0->nsync, 2);
  assert_int_equal(r0->sync[1].kind, AUGUR_SYNC_FINALIZE);
  assert_int_equal(r0->sync[1].rtt_ns, 700);
  assert_string_equal(r0->host, "node1");
  assert_int_equal(r0->pid, 4000);
  assert_int_equal(r0->thread_level, -1);
  assert_string_equal(r0->counter_note, "instructions: not supported");
  const augur_rank_def *r1 = augur_trace_rank(t, 1);
  assert_null(r1->host);
  assert_int_equal(r1->sync[0].offset_ns, -3000);
  assert_int_equal(augur_trace_ncounters(t), 1);
  assert_string_equal(augur_trace_counter(t, 0)->name, "task-clock");
  assert_null(augur_trace_counter(t, 1));
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Writes a trace of N ranks whose facts say host H[i], affinity count C[i],
 * CPU list L[i] and quota Q[i]; returns its hosts summary. */
static augur_hosts hosts_of(uint32_t n, const char *const *h, const uint32_t *c,
                            const char *const *l, const uint32_t *q) {
  char *dir = tu_tracedir();
  tu_meta(dir, n);
  augur_error err;
  for (uint32_t r = 0; r < n; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, n, 0, &err), 0);
    augur_rank_def d = rank_def(r, n, 1000, 0);
    d.host = (char *)h[r];
    d.cores = c[r];
    d.cpus = (char *)l[r];
    d.cpu_quota = q[r];
    d.finalize_ns = 5000;    /* a window of 4000 ns */
    d.cpu_ns = r ? 3000 : 0; /* rank 0 did not record it */
    d.run_delay_ns = 100 * (r + 1);
    assert_int_equal(augur_writer_def_rank(w, &d, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  int rc = augur_trace_open(&t, dir, &err);
  if (rc) fail_msg("%s", err.msg);
  const augur_rank_def *d = augur_trace_rank(t, 0);
  assert_int_equal(d->cores, c[0]);
  assert_int_equal(d->cpu_quota, q[0]);
  if (l[0]) assert_string_equal(d->cpus, l[0]);
  assert_int_equal(d->cpu_ns, 0);
  assert_int_equal(d->run_delay_ns, 0); /* written as 0 when cpu_ns is unknown */
  d = augur_trace_rank(t, 1);
  assert_int_equal(d->cpu_ns, 3000);
  assert_int_equal(d->run_delay_ns, 200);
  augur_hosts p;
  assert_int_equal(augur_trace_hosts(t, &p, &err), AUGUR_OK);
  static char name[64]; /* p.host dies with the trace */
  snprintf(name, sizeof name, "%s", p.host ? p.host : "");
  p.host = name;
  augur_trace_close(t);
  tu_cleanup(dir);
  return p;
}

/* Where the ranks ran (format minor 3): a host's CPUs are the union of its
 * ranks' affinity masks (ranks bound one per core are not oversubscribed),
 * capped by the cgroup quota; a rank that did not record them makes the
 * placement unknown. */
static void test_hosts(void **state) {
  (void)state;
  const char *a2[] = {"a", "a"}, *bound[] = {"0", "1"}, *both[] = {"0-1", "0-1"};
  const uint32_t one[] = {1, 1}, two[] = {2, 2}, none[] = {0, 0}, quota1[] = {1, 1};
  augur_hosts p = hosts_of(2, a2, one, bound, none);
  assert_int_equal(p.delay_ranks, 1); /* rank 1's CPU wait, over its window */
  assert_int_equal(p.run_delay_ns, 200);
  assert_int_equal(p.window_ns, 4000);
  assert_int_equal(p.nhosts, 1);
  assert_int_equal(p.known, 1);
  assert_int_equal(p.cores, 2);
  assert_int_equal(p.oversubscribed, 0);
  p = hosts_of(2, a2, two, both, quota1); /* 2 CPUs, a quota of 1 */
  assert_int_equal(p.cores, 1);
  assert_int_equal(p.ranks, 2);
  assert_int_equal(p.oversubscribed, 1);
  assert_string_equal(p.host, "a");
  /* 3 ranks on host b's CPU 0, 1 rank on host c's 0-3: b is the busiest */
  const char *h4[] = {"b", "c", "b", "b"}, *l4[] = {"0", "0-3", "0", "0"};
  const uint32_t c4[] = {1, 4, 1, 1}, q4[] = {0, 0, 0, 0};
  p = hosts_of(4, h4, c4, l4, q4);
  assert_int_equal(p.nhosts, 2);
  assert_int_equal(p.max_ranks, 3);
  assert_int_equal(p.oversubscribed, 1);
  assert_string_equal(p.host, "b");
  assert_int_equal(p.ranks, 3);
  assert_int_equal(p.cores, 1);
  /* no list: the largest affinity count speaks; no count: unknown */
  const char *nol[] = {NULL, NULL};
  p = hosts_of(2, a2, two, nol, none);
  assert_int_equal(p.cores, 2);
  assert_int_equal(p.known, 1);
  p = hosts_of(2, a2, none, nol, none);
  assert_int_equal(p.known, 0);
  assert_int_equal(p.oversubscribed, 0);
}

/* Clock correction with known numbers; merged order, ties by rank, and
 * sub-records adjacent to their parent. */
static void test_clock_merged(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  augur_writer *w;
  /* rank 0: init at local 1000, offset 0 -> global = local - 1000 */
  assert_int_equal(augur_writer_open(&w, dir, 0, 2, 0, &err), 0);
  augur_rank_def d0 = rank_def(0, 2, 1000, 0);
  assert_int_equal(augur_writer_def_rank(w, &d0, &err), 0);
  augur_event a[5] = {tu_ev(AUGUR_EV_INIT, 1000, 1500), tu_ev(AUGUR_EV_WAITALL, 3000, 3050),
                      tu_ev(AUGUR_EV_COMPLETION, 0, 0), tu_ev(AUGUR_EV_COMPLETION, 0, 0),
                      tu_ev(AUGUR_EV_BARRIER, 51000, 51010)};
  a[1].aux = 2;
  assert_int_equal(augur_writer_events(w, 0, a, 5, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  /* rank 1: offset -3000 at local 5000, -2000 at local 105000 (drift 1%) */
  assert_int_equal(augur_writer_open(&w, dir, 1, 2, 0, &err), 0);
  augur_rank_def d1 = rank_def(1, 2, 5000, -3000);
  d1.nsync = 2;
  d1.sync[1] = (augur_clock_sync){AUGUR_SYNC_FINALIZE, 105000, -2000, 900};
  assert_int_equal(augur_writer_def_rank(w, &d1, &err), 0);
  /* global = local + offset(local) - 1000, offset(L) = -3000 + 0.01 (L - 5000)
   * rounded: L = 5990 -> offset -2990 (9.9 rounds to 10) -> global 2000, a tie
   * with rank 0's WAITALL. */
  augur_event b[4] = {tu_ev(AUGUR_EV_INIT, 5000, 5400), tu_ev(AUGUR_EV_SEND, 5990, 6000),
                      tu_ev(AUGUR_EV_BARRIER, 55000, 55100),
                      tu_ev(AUGUR_EV_FINALIZE, 105000, 105000)};
  assert_int_equal(augur_writer_events(w, 0, b, 4, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);

  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  assert_int_equal(augur_trace_global_ns(t, 0, 1000), 0);
  assert_int_equal(augur_trace_global_ns(t, 0, 500), 0); /* before rank 0's init: clamped */
  assert_int_equal(augur_trace_global_ns(t, 1, 5000), 1000);
  assert_int_equal(augur_trace_global_ns(t, 1, 5990), 2000);
  assert_int_equal(augur_trace_global_ns(t, 1, 55000), 55000 - 2500 - 1000);
  assert_int_equal(augur_trace_global_ns(t, 1, 105000), 105000 - 2000 - 1000);
  augur_stream *s;
  assert_int_equal(augur_stream_merged(t, &s, &err), 0);
  struct {
    unsigned type, rank;
    uint64_t t;
  } want[] = {
      {AUGUR_EV_INIT, 0, 0},          {AUGUR_EV_INIT, 1, 1000},
      {AUGUR_EV_WAITALL, 0, 2000},    {AUGUR_EV_COMPLETION, 0, 2000},
      {AUGUR_EV_COMPLETION, 0, 2000}, {AUGUR_EV_SEND, 1, 2000},
      {AUGUR_EV_BARRIER, 0, 50000},   {AUGUR_EV_BARRIER, 1, 51500},
      {AUGUR_EV_FINALIZE, 1, 102000},
  };
  augur_event e;
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    int rc = augur_stream_next(s, &e, &err);
    assert_int_equal(rc, 1);
    if (e.type != want[i].type || e.rank != want[i].rank || e.t_start != want[i].t)
      fail_msg("merged event %zu: got %s rank %u t %llu, want %s rank %u t %llu", i,
               augur_event_name(e.type), e.rank, (unsigned long long)e.t_start,
               augur_event_name(want[i].type), want[i].rank, (unsigned long long)want[i].t);
  }
  assert_int_equal(augur_stream_next(s, &e, &err), 0);
  assert_int_equal(augur_stream_seek_block(s, 0, &err), AUGUR_E_ARG);
  augur_stream_close(s);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Several threads share one writer (blocks are the unit of locking). */
enum { WT_THREADS = 4, WT_BLOCKS = 25, WT_PER_BLOCK = 700 };

typedef struct wt_arg {
  augur_writer *w;
  uint32_t thread;
  int rc;
} wt_arg;

static void *wt_main(void *p) {
  wt_arg *a = p;
  augur_event v[WT_PER_BLOCK];
  augur_error err;
  uint64_t seq = 0;
  for (int b = 0; b < WT_BLOCKS && a->rc == 0; b++) {
    for (int i = 0; i < WT_PER_BLOCK; i++, seq++) {
      v[i] = tu_ev(AUGUR_EV_SEND, 1000 + seq * 100 + a->thread, 1050 + seq * 100 + a->thread);
      v[i].bytes = seq; /* per-thread sequence number */
      v[i].thread = a->thread;
      v[i].comm = AUGUR_COMM_WORLD;
      v[i].peer = (int32_t)a->thread;
    }
    augur_callsite_def cs = {a->thread * 1000 + (uint32_t)b + 1, 1, 0x100 + (uint64_t)b};
    a->rc = augur_writer_def_callsite(a->w, &cs, &err);
    if (a->rc == 0) a->rc = augur_writer_events(a->w, a->thread, v, WT_PER_BLOCK, &err);
  }
  return NULL;
}

static void test_writer_threads(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 4);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 4, 0, &err), 0);
  augur_module_def m = {1, "/bin/app"};
  assert_int_equal(augur_writer_def_module(w, &m, &err), 0);
  pthread_t th[WT_THREADS];
  wt_arg args[WT_THREADS];
  for (uint32_t i = 0; i < WT_THREADS; i++) {
    args[i] = (wt_arg){w, i, 0};
    assert_int_equal(pthread_create(&th[i], NULL, wt_main, &args[i]), 0);
  }
  for (int i = 0; i < WT_THREADS; i++) {
    pthread_join(th[i], NULL);
    assert_int_equal(args[i].rc, 0);
  }
  assert_int_equal(augur_writer_close(w, &err), 0);
  for (uint32_t r = 1; r < 4; r++) { /* the other ranks: empty files */
    assert_int_equal(augur_writer_open(&w, dir, r, 4, 0, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  assert_int_equal(augur_trace_nblocks(t, 0), WT_THREADS * WT_BLOCKS);
  assert_int_equal(augur_trace_ncallsites(t), WT_BLOCKS); /* same (module, offset) per thread */
  size_t n;
  int rc;
  augur_event *out = tu_read_rank(t, 0, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, WT_THREADS * WT_BLOCKS * WT_PER_BLOCK);
  uint64_t next[WT_THREADS] = {0};
  for (size_t i = 0; i < n; i++) {
    assert_true(out[i].thread < WT_THREADS);
    assert_int_equal(out[i].bytes, next[out[i].thread]++);
    assert_int_equal(out[i].peer, (int32_t)out[i].thread);
    if (i) assert_true(out[i].t_start > out[i - 1].t_start);
  }
  free(out);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A merged stream over more ranks than the process may open files. */
/* Call-site ids of a rank file are the rank's own: below 256 the reader
 * turns them into global ids through an array per rank, from 256 on through
 * a map (reader_int.h AUG_CS_DENSE). Ids on both sides of the edge, one far
 * above it, one used but never defined on each side: each record's global
 * call site is the (module, offset) its local id was defined as. */
static void test_callsite_ids(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 3, &err), 0);
  augur_rank_def d0 = rank_def(0, 1, 1000, 0);
  assert_int_equal(augur_writer_def_rank(w, &d0, &err), 0);
  augur_module_def m1 = {1, "/a.out"};
  assert_int_equal(augur_writer_def_module(w, &m1, &err), 0);
  const uint32_t ids[] = {1, 255, 256, 300, 70000};
  enum { NDEF = sizeof ids / sizeof ids[0], NEV = NDEF + 2 };
  for (size_t i = 0; i < NDEF; i++) {
    augur_callsite_def c = {ids[i], 1, 0x100 * (i + 1)};
    assert_int_equal(augur_writer_def_callsite(w, &c, &err), 0);
  }
  augur_event e[NEV];
  for (size_t i = 0; i < NEV; i++) {
    e[i] = tu_ev(AUGUR_EV_BARRIER, 2000 + 100 * i, 2050 + 100 * i);
    e[i].callsite = i < NDEF ? ids[i] : i == NDEF ? 254 : 257; /* the last two: undefined */
  }
  assert_int_equal(augur_writer_events(w, 0, e, NEV, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  augur_trace *t;
  int rc = augur_trace_open(&t, dir, &err);
  if (rc) fail_msg("%s", err.msg);
  size_t n;
  augur_event *out = tu_read_rank(t, 0, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, NEV);
  for (size_t i = 0; i < NDEF; i++) {
    const augur_callsite_def *g = augur_trace_callsite(t, out[i].callsite);
    assert_non_null(g);
    assert_int_equal(g->offset, 0x100 * (i + 1));
  }
  assert_int_equal(out[NDEF].callsite, 0);
  assert_int_equal(out[NDEF + 1].callsite, 0);
  free(out);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void test_many_ranks(void **state) {
  (void)state;
  enum { NR = 300, PER = 50 };
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  augur_event v[PER];
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, NR, 0, &err), 0);
    for (int i = 0; i < PER; i++) {
      v[i] = tu_ev(AUGUR_EV_BARRIER, (uint64_t)i * 1000 + (NR - r), (uint64_t)i * 1000 + 500);
      v[i].comm = AUGUR_COMM_WORLD;
    }
    assert_int_equal(augur_writer_events(w, 0, v, PER, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  struct rlimit old, low;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
  low = old;
  low.rlim_cur = 64;
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
  augur_trace *t;
  int rc = augur_trace_open(&t, dir, &err);
  augur_stream *s = NULL;
  if (rc == 0) rc = augur_stream_merged(t, &s, &err);
  size_t k = 0;
  uint64_t last = 0;
  augur_event e;
  while (rc == 0 && (rc = augur_stream_next(s, &e, &err)) == 1) {
    assert_true(e.t_start >= last);
    last = e.t_start;
    k++;
    rc = 0;
  }
  setrlimit(RLIMIT_NOFILE, &old);
  if (rc) fail_msg("%s", err.msg);
  assert_int_equal(k, NR * PER);
  augur_stream_close(s);
  /* Rank streams one after the other (each takes the context the previous
   * one left, stream.c dctx_take) and two at once (the second makes its
   * own; closing both keeps one and frees the other: LeakSanitizer in the
   * ASan build), read in turns: every record of its own rank, in order. */
  for (uint32_t r = 0; r + 1 < NR; r += 2) {
    augur_stream *a, *b;
    assert_int_equal(augur_stream_rank(t, r, &a, &err), 0);
    if (r % 4 == 0) augur_stream_close(a), assert_int_equal(augur_stream_rank(t, r, &a, &err), 0);
    assert_int_equal(augur_stream_rank(t, r + 1, &b, &err), 0);
    uint64_t a0 = 0, b0 = 0;
    for (int i = 0; i < PER; i++) { /* rank q's record i: 500 - (NR - q) ns, 1000 ns apart */
      assert_int_equal(augur_stream_next(a, &e, &err), 1);
      assert_int_equal(e.t_end - e.t_start, 500 - (NR - r));
      if (i) assert_int_equal(e.t_start - a0, 1000);
      a0 = e.t_start;
      assert_int_equal(augur_stream_next(b, &e, &err), 1);
      assert_int_equal(e.t_end - e.t_start, 500 - (NR - r - 1));
      if (i) assert_int_equal(e.t_start - b0, 1000);
      b0 = e.t_start;
    }
    assert_int_equal(augur_stream_next(a, &e, &err), 0);
    assert_int_equal(augur_stream_next(b, &e, &err), 0);
    augur_stream_close(r % 8 == 0 ? b : a);
    augur_stream_close(r % 8 == 0 ? a : b);
  }
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A merged stream of many ranks carves their cursors from one arena, and a
 * rank whose every block fits its batch decodes each block at once with the
 * stream's one decoder and raw buffer (stream.c cursor_arena, issue 27's
 * memory per idle rank). Ranks of four layouts side by side: one block of 10
 * records, blocks of 16 and 3 (the batch is 16 from 1,024 ranks on), one
 * block of 60 (its own decoder, decoding in turns with the shared one), and
 * no block. Types cycle through five, so a block takes more context slots
 * than the decoder's small pool. Every record comes once, in time order,
 * each rank's in its own order with its own values. */
static void test_whole_blocks(void **state) {
  (void)state;
  enum { NR = 1600, GAP = 10000 };
  static const unsigned types[] = {AUGUR_EV_SEND, AUGUR_EV_RECV, AUGUR_EV_BARRIER,
                                   AUGUR_EV_ALLREDUCE, AUGUR_EV_BCAST};
  static const int layout[4][3] = {{10, 0, 0}, {16, 3, 0}, {60, 0, 0}, {0, 0, 0}};
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  augur_event v[60];
  size_t total = 0;
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, NR, 0, &err), 0);
    int i = 0;
    for (int b = 0; b < 3 && layout[r % 4][b]; b++) {
      int n = layout[r % 4][b];
      for (int j = 0; j < n; j++, i++) {
        v[j] = tu_ev(types[(i + r) % 5], (uint64_t)i * GAP + r, (uint64_t)i * GAP + r + 1 + i);
        v[j].comm = AUGUR_COMM_WORLD;
        v[j].peer = (int32_t)((r + 1) % NR);
        v[j].bytes = (uint64_t)r * 8 + (uint64_t)i;
      }
      assert_int_equal(augur_writer_events(w, 0, v, (size_t)n, &err), 0);
      total += (size_t)n;
    }
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  augur_stream *s;
  if (augur_stream_merged(t, &s, &err)) fail_msg("%s", err.msg);
  int *seen = calloc(NR, sizeof *seen);
  assert_non_null(seen);
  size_t k = 0;
  uint64_t last = 0;
  augur_event e;
  int rc;
  while ((rc = augur_stream_next(s, &e, &err)) == 1) {
    assert_true(e.t_start >= last);
    last = e.t_start;
    uint32_t r = (uint32_t)(e.t_start % GAP);
    int i = seen[r]++;
    assert_true(r < NR && e.rank == r);
    assert_int_equal(e.t_start, (uint64_t)i * GAP + r);
    assert_int_equal(e.t_end - e.t_start, 1 + i);
    assert_int_equal(e.type, types[(i + r) % 5]);
    assert_int_equal(e.bytes, (uint64_t)r * 8 + (uint64_t)i);
    assert_int_equal(e.peer, (int32_t)((r + 1) % NR));
    k++;
  }
  if (rc) fail_msg("%s", err.msg);
  assert_int_equal(k, total);
  for (uint32_t r = 0; r < NR; r++)
    assert_int_equal(seen[r], layout[r % 4][0] + layout[r % 4][1] + layout[r % 4][2]);
  free(seen);
  augur_stream_close(s);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* The merged stream with slack S: every record still comes once, each
 * rank's records (a parent with its sub-records right behind) in their own
 * order, and no record comes more than S before one already returned. With
 * S = 0 the order is strict; ranks in step interleave, so a slack of
 * several records' spacing must reorder some. */
static augur_event *read_merged(augur_trace *t, uint64_t slack, size_t *n) {
  augur_error err;
  augur_stream *s;
  assert_int_equal(augur_stream_merged(t, &s, &err), 0);
  assert_int_equal(augur_stream_set_slack(s, slack, &err), 0);
  size_t cap = 1024, k = 0;
  augur_event *v = malloc(cap * sizeof *v);
  int rc;
  while ((rc = augur_stream_next(s, &v[k], &err)) == 1)
    if (++k == cap) v = realloc(v, (cap *= 2) * sizeof *v);
  assert_int_equal(rc, 0);
  augur_stream_close(s);
  *n = k;
  return v;
}

/* The merged stream's order among equal times: the lower rank first (the
 * key (t_start, rank) that diagnose --parallel merges by). At step k every
 * rank has a record at 10 k; rank k % NR also one at 10 k - 5 before it, so
 * right after that one its own next record ties with the others' and must
 * wait for the lower ranks' (a winner that kept winning at a tie would come
 * first). Strict order (no slack), several batches per rank. */
static void test_ties(void **state) {
  (void)state;
  enum { NR = 4, STEPS = 600 };
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  augur_event *v = malloc(2 * STEPS * sizeof *v);
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, NR, 0, &err), 0);
    size_t n = 0;
    for (uint64_t k = 1; k <= STEPS; k++) {
      if (k % NR == r) v[n++] = tu_ev(AUGUR_EV_BARRIER, 10 * k - 5, 10 * k - 4);
      v[n++] = tu_ev(AUGUR_EV_BARRIER, 10 * k, 10 * k + 1);
    }
    assert_int_equal(augur_writer_events(w, 0, v, n, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  free(v);
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  size_t n;
  augur_event *m = read_merged(t, 0, &n);
  assert_int_equal(n, NR * STEPS + STEPS);
  for (size_t i = 1; i < n; i++) {
    assert_true(m[i].t_start >= m[i - 1].t_start);
    if (m[i].t_start == m[i - 1].t_start) assert_true(m[i].rank > m[i - 1].rank);
  }
  free(m);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void test_slack(void **state) {
  (void)state;
  enum { NR = 5, PER = 2000 }; /* several decoding batches per rank */
  char *dir = tu_tracedir();
  tu_meta(dir, NR);
  augur_error err;
  augur_event *v = malloc(PER * sizeof *v);
  for (uint32_t r = 0; r < NR; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, NR, 0, &err), 0);
    uint64_t t = 100 * r, x = 12345 + r;
    for (int i = 0; i < PER; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      t += (x >> 33) % 1000;            /* 0 .. 999 ns apart */
      if (i % 10 == 9 && i + 2 < PER) { /* a Waitall and its two completions */
        v[i] = tu_ev(AUGUR_EV_WAITALL, t, t + 50);
        v[i].aux = 2;
        for (int k = 1; k <= 2; k++) {
          v[i + k] = tu_ev(AUGUR_EV_COMPLETION, 0, 0);
          v[i + k].aux = (uint32_t)(k - 1);
        }
        i += 2;
      } else {
        v[i] = tu_ev(AUGUR_EV_ISEND, t, t + 10);
        v[i].comm = AUGUR_COMM_WORLD;
        v[i].peer = (int32_t)((r + 1) % NR);
        v[i].tag = i;
      }
    }
    assert_int_equal(augur_writer_events(w, 0, v, PER, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  free(v);
  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  size_t ns, nl;
  augur_event *strict = read_merged(t, 0, &ns);
  assert_int_equal(ns, NR * PER);
  for (size_t i = 1; i < ns; i++)
    assert_true(strict[i].t_start >= strict[i - 1].t_start);
  const uint64_t slack = 3000;
  augur_event *loose = read_merged(t, slack, &nl);
  assert_int_equal(nl, ns);
  size_t at[NR] = {0}, inversions = 0;
  uint64_t latest = 0;
  for (size_t i = 0; i < nl; i++) {
    const augur_event *e = &loose[i];
    assert_true(e->rank < NR);
    /* the rank's next record in strict order */
    size_t j = at[e->rank];
    while (j < ns && strict[j].rank != e->rank)
      j++;
    assert_true(j < ns);
    tu_assert_event_eq(&strict[j], e, i);
    at[e->rank] = j + 1;
    if (e->type == AUGUR_EV_COMPLETION) { /* right behind its parent */
      assert_int_equal(loose[i - 1].rank, e->rank);
      assert_true(loose[i - 1].type == AUGUR_EV_WAITALL ||
                  loose[i - 1].type == AUGUR_EV_COMPLETION);
    } else {
      assert_true(e->t_start + slack >= latest);
      inversions += e->t_start < latest;
      if (e->t_start > latest) latest = e->t_start;
    }
  }
  assert_true(inversions > 0);
  /* a slack beyond the trace's span: each rank comes in one run, across its decoding
   * batches (a refill within the slack keeps the run going) */
  augur_event *whole = read_merged(t, UINT64_MAX, &nl);
  assert_int_equal(nl, ns);
  size_t changes = 0;
  for (size_t i = 1; i < nl; i++)
    changes += whole[i].rank != whole[i - 1].rank;
  assert_int_equal(changes, NR - 1);
  free(whole);
  free(strict);
  free(loose);
  /* rank streams have no slack */
  augur_stream *rs;
  assert_int_equal(augur_stream_rank(t, 0, &rs, &err), 0);
  assert_int_equal(augur_stream_set_slack(rs, 10, &err), AUGUR_E_ARG);
  augur_stream_close(rs);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Names and classes of event types. */
static void test_event_names(void **state) {
  (void)state;
  assert_string_equal(augur_event_name(AUGUR_EV_ISEND), "MPI_Isend");
  assert_string_equal(augur_event_name(AUGUR_EV_COMPLETION), "COMPLETION");
  assert_string_equal(augur_event_name(127), "?");
  assert_string_equal(augur_event_name(5000), "?");
  assert_int_equal(augur_event_from_name("isend"), AUGUR_EV_ISEND);
  assert_int_equal(augur_event_from_name("MPI_Allreduce"), AUGUR_EV_ALLREDUCE);
  assert_int_equal(augur_event_from_name("mpi_waitall"), AUGUR_EV_WAITALL);
  assert_int_equal(augur_event_from_name("nonsense"), -1);
  assert_int_equal(augur_event_from_name(NULL), -1);
  for (size_t i = 0; i < NTYPES; i++) {
    unsigned t = all_types[i];
    assert_string_not_equal(augur_event_name(t), "?");
    const char *nm = augur_event_name(t);
    if (t != AUGUR_EV_NONE) assert_int_equal(augur_event_from_name(nm), (int)t);
  }
  assert_true(augur_event_is_p2p_send(AUGUR_EV_SENDRECV));
  assert_true(augur_event_is_p2p_send(AUGUR_EV_RSEND_INIT));
  assert_false(augur_event_is_p2p_send(AUGUR_EV_RECV_INIT));
  assert_true(augur_event_is_p2p_recv(AUGUR_EV_IMRECV));
  assert_true(augur_event_is_collective(AUGUR_EV_IEXSCAN));
  assert_false(augur_event_is_collective(AUGUR_EV_COMM_DUP));
  assert_true(augur_event_is_nonblocking(AUGUR_EV_IALLREDUCE));
  assert_false(augur_event_is_nonblocking(AUGUR_EV_ALLREDUCE));
  assert_true(augur_event_is_completion(AUGUR_EV_TESTSOME));
  assert_true(augur_event_is_comm_mgmt(AUGUR_EV_INTERCOMM_MERGE));
  assert_true(augur_event_is_sub(AUGUR_EV_SUB_START));
  assert_false(augur_event_is_sub(AUGUR_EV_WAIT));
  assert_string_equal(augur_status_name(AUGUR_E_CHECKSUM), "checksum");
  augur_error err;
  assert_int_equal(augur_fail(&err, AUGUR_E_IO, "x %d", 42), AUGUR_E_IO);
  assert_string_equal(err.msg, "x 42");
  assert_int_equal(err.code, AUGUR_E_IO);
}

/* The writer's default compression (no level given): blocks of a full
 * recorder buffer (>= 16 KiB raw) take zstd's fast parameters, smaller ones
 * level 1 (writer.c, AUG_ZSTD_FAST_MIN). Both kinds, a polling loop's and
 * random records with sub-records, read back exactly, are stored compressed,
 * and carry the parents and last_ns the encoder counted in its one pass. */
static void test_default_level_blocks(void **state) {
  (void)state;
  enum { NPOLL = 40000, NGEN = 30000, NSMALL = 40 };
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  size_t cap = NPOLL + NGEN + NSMALL;
  augur_event *v = malloc(cap * sizeof *v);
  assert_non_null(v);
  uint64_t t = 5000;
  for (size_t i = 0; i < NPOLL; i++) { /* MPI_Iprobe, nothing pending: only the times move */
    t += 30 + rnd() % 40;
    v[i] = tu_ev(AUGUR_EV_IPROBE, t, t + 20 + rnd() % 60);
    t = v[i].t_end;
    v[i].comm = AUGUR_COMM_WORLD;
    v[i].peer = AUGUR_PEER_ANY;
    v[i].tag = 4242;
    v[i].callsite = 3;
    v[i].flags = AUGUR_F_ANY_SOURCE | AUGUR_F_NOTDONE;
  }
  size_t ngen = gen(v + NPOLL, NGEN, 0);
  for (size_t i = NPOLL; i < NPOLL + ngen; i++) { /* after the polling loop */
    v[i].t_start += t;
    v[i].t_end += t;
  }
  size_t n = NPOLL + ngen;
  t = v[n - 1].t_end;
  for (size_t i = 0; i < NSMALL; i++, n++) { /* a small block: level 1 */
    v[n] = tu_ev(AUGUR_EV_BARRIER, t + 100 * i, t + 100 * i + 50);
    v[n].comm = AUGUR_COMM_WORLD;
  }
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  def_callsites(w);
  assert_int_equal(augur_writer_events(w, 0, v, NPOLL, &err), 0);
  assert_int_equal(augur_writer_events(w, 0, v + NPOLL, ngen, &err), 0);
  assert_int_equal(augur_writer_events(w, 0, v + NPOLL + ngen, NSMALL, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);

  augur_trace *tr;
  if (augur_trace_open(&tr, dir, &err)) fail_msg("open: %s", err.msg);
  assert_int_equal(augur_trace_nevents(tr, 0), n);
  /* per block: first_ns, last_ns, parents as the records say; codec zstd */
  char path[4096];
  snprintf(path, sizeof path, "%s/rank-00000.evt", dir);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t at = 0;
  for (size_t b = 0; b < augur_trace_nblocks(tr, 0); b++) {
    const augur_block_info *bi = augur_trace_block(tr, 0, b);
    uint64_t last = 0;
    uint32_t parents = 0;
    for (size_t k = at; k < at + bi->nevents; k++) {
      if (v[k].t_end > last) last = v[k].t_end;
      parents += !is_sub(v[k].type);
    }
    assert_true(bi->first_ns == v[at].t_start);
    assert_true(bi->last_ns == last);
    assert_int_equal(bi->nparents, parents);
    unsigned char hdr[8];
    assert_int_equal(fseek(f, (long)bi->offset, SEEK_SET), 0);
    assert_int_equal(fread(hdr, 1, sizeof hdr, f), sizeof hdr);
    assert_int_equal(hdr[5], AUG_CODEC_ZSTD);
    at += bi->nevents;
  }
  fclose(f);
  assert_int_equal(at, n);
  assert_true(augur_trace_nblocks(tr, 0) >= 5); /* 3 + 2 large, 1 small */
  int rc;
  size_t got;
  augur_event *out = tu_read_rank(tr, 0, &got, &rc, &err);
  if (rc) fail_msg("read: %s", err.msg);
  assert_int_equal(got, n);
  for (size_t i = 0; i < n; i++) {
    augur_event want = read_back(v, i, 0);
    tu_assert_event_eq(&want, &out[i], i);
  }
  free(out);
  augur_trace_close(tr);
  free(v);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_event_names),    cmocka_unit_test(test_codec_exact),
      cmocka_unit_test(test_every_type),     cmocka_unit_test(test_threads),
      cmocka_unit_test(test_definitions),    cmocka_unit_test(test_clock_merged),
      cmocka_unit_test(test_writer_threads), cmocka_unit_test(test_many_ranks),
      cmocka_unit_test(test_slack),          cmocka_unit_test(test_hosts),
      cmocka_unit_test(test_codec_one_byte), cmocka_unit_test(test_default_level_blocks),
      cmocka_unit_test(test_callsite_ids),   cmocka_unit_test(test_ties),
      cmocka_unit_test(test_whole_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
