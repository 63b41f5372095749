/* augur format tests — communicator member lists as runs (format minor 6,
 * issue 27 item 4): the world, ranges and strided patterns are stored in a
 * few bytes, not one varint per member in every rank file; any list round
 * trips; damaged runs are malformed definitions; a trace of minor 5 (one
 * varint per member) is still read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "util.h"
#include "varint.h"

/* Encodes D, decodes it back and checks every field; returns the body size. */
static size_t roundtrip(const augur_comm_def *d) {
  aug_buf b = {0};
  assert_int_equal(aug_def_put_comm(&b, d), 0);
  const uint8_t *p = b.p, *body;
  unsigned tag;
  size_t len;
  assert_int_equal(aug_def_next(&p, b.p + b.len, &tag, &body, &len), 1);
  assert_int_equal(tag, AUG_DEF_COMM);
  augur_comm_def got;
  const char *why = NULL;
  if (aug_def_get_comm(body, len, &got, &why)) fail_msg("decode: %s", why);
  assert_int_equal(got.id, d->id);
  assert_int_equal(got.parent, d->parent);
  assert_int_equal(got.kind, d->kind);
  assert_int_equal(got.size, d->size);
  assert_int_equal(got.remote_size, d->remote_size);
  for (uint32_t i = 0; i < d->size; i++)
    if (got.members[i] != d->members[i])
      fail_msg("member %u: want %d, got %d", i, d->members[i], got.members[i]);
  for (uint32_t i = 0; i < d->remote_size; i++)
    if (got.remote[i] != d->remote[i])
      fail_msg("remote %u: want %d, got %d", i, d->remote[i], got.remote[i]);
  assert_int_equal(got.ndims, d->ndims);
  for (uint32_t i = 0; i < d->ndims; i++) {
    assert_int_equal(got.dims[i], d->dims[i]);
    assert_int_equal(got.periods[i], d->periods[i]);
  }
  aug_comm_def_free(&got);
  aug_buf_free(&b);
  return len;
}

static size_t roundtrip_list(const int32_t *m, uint32_t n) {
  augur_comm_def d = {.id = 77, .parent = 1, .kind = AUGUR_COMM_KIND_SPLIT, .size = n};
  d.members = (int32_t *)m;
  return roundtrip(&d);
}

static void test_patterns(void **state) {
  (void)state;
  enum { N = 65536 };
  int32_t *m = malloc(N * sizeof *m);
  assert_non_null(m);
  /* The world of 65,536 ranks: one run. Minor 5 wrote ~190 KB per rank file. */
  for (int32_t i = 0; i < N; i++)
    m[i] = i;
  augur_comm_def w = {.id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = N};
  w.members = m;
  size_t len = roundtrip(&w);
  if (len > 24) fail_msg("world of %d: %zu-byte definition", N, len);
  /* A contiguous range, a stride, a reversed order: one run each. */
  for (int32_t i = 0; i < 1000; i++)
    m[i] = 5000 + i;
  assert_true(roundtrip_list(m, 1000) <= 24);
  for (int32_t i = 0; i < 4096; i++)
    m[i] = 3 + 16 * i;
  assert_true(roundtrip_list(m, 4096) <= 24);
  for (int32_t i = 0; i < 4096; i++)
    m[i] = 4095 - i;
  assert_true(roundtrip_list(m, 4096) <= 24);
  /* The plane x = 5 of a 32 x 32 x 32 grid (rank x + 32 y + 1024 z), z
   * varying fastest: a run of stride 1024 per y. */
  uint32_t n = 0;
  for (int32_t y = 0; y < 32; y++)
    for (int32_t z = 0; z < 32; z++)
      m[n++] = 5 + 32 * y + 1024 * z;
  len = roundtrip_list(m, n);
  if (len > 32 * 8) fail_msg("plane: %zu bytes", len);
  /* Rows of a 2-D grid: a run per row. */
  n = 0;
  for (int32_t r = 0; r < 64; r++)
    for (int32_t c = 10; c < 74; c++)
      m[n++] = 128 * r + c;
  len = roundtrip_list(m, n);
  if (len > 64 * 8) fail_msg("rows: %zu bytes", len);
  /* No pattern: stored one by one (no longer than minor 5 wrote it). */
  uint64_t x = 88172645463325252ull;
  for (uint32_t i = 0; i < 5000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    m[i] = (int32_t)(x % 1000000);
  }
  roundtrip_list(m, 5000);
  /* Extremes, repeats (stride 0), negatives, one and two members. */
  int32_t ext[] = {INT32_MIN, INT32_MAX, 0, -1, -1, -1, -1, 7, INT32_MAX, INT32_MIN, INT32_MIN};
  for (uint32_t k = 0; k <= sizeof ext / sizeof *ext; k++)
    roundtrip_list(ext, k);
  int32_t strided[] = {INT32_MIN, INT32_MIN / 2, 0, INT32_MAX / 2 + 1};
  roundtrip_list(strided, 4);
  int32_t down[] = {INT32_MAX, 0, INT32_MIN + 1};
  roundtrip_list(down, 3);
  /* An intercommunicator: both groups as runs, with dims. */
  for (int32_t i = 0; i < 2048; i++)
    m[i] = i;
  augur_comm_def ic = {.id = 99,
                       .parent = 1,
                       .kind = AUGUR_COMM_KIND_CART,
                       .size = 1024,
                       .members = m,
                       .remote_size = 1024,
                       .remote = m + 1024,
                       .ndims = 2,
                       .dims = {32, 32},
                       .periods = {1, 0}};
  assert_true(roundtrip(&ic) <= 48);
  free(m);
}

/* A small list is written one by one (readers of minor <= 5 read it): the
 * runs are not shorter for it. */
static void test_small_stays_explicit(void **state) {
  (void)state;
  int32_t m[4] = {0, 1, 2, 3};
  augur_comm_def d = {.id = 1, .kind = AUGUR_COMM_KIND_WORLD, .size = 4, .members = m};
  aug_buf b = {0};
  assert_int_equal(aug_def_put_comm(&b, &d), 0);
  const uint8_t *p = b.p, *body;
  unsigned tag;
  size_t len;
  assert_int_equal(aug_def_next(&p, b.p + b.len, &tag, &body, &len), 1);
  const uint8_t *q = body + 3, *end = body + len; /* id 1, parent 0, kind: one byte each */
  uint64_t v;
  assert_int_equal(aug_get_varint(&q, end, &v), 0);
  assert_int_equal(v, 4);
  assert_int_equal(aug_get_varint(&q, end, &v), 0);
  assert_int_equal(v, 0); /* zigzag(0): the first member, not the runs marker */
  aug_buf_free(&b);
}

/* Hand-made bodies: id 5, parent 0, kind 0, size n, then the list. */
static int decode_runs(uint32_t n, const uint64_t *v, size_t nv, const char **why) {
  aug_buf b = {0};
  assert_int_equal(aug_buf_varint(&b, 5) || aug_buf_varint(&b, 0) || aug_buf_varint(&b, 0) ||
                       aug_buf_varint(&b, n),
                   0);
  for (size_t i = 0; i < nv; i++)
    assert_int_equal(aug_buf_varint(&b, v[i]), 0);
  assert_int_equal(aug_buf_varint(&b, 0) || aug_buf_varint(&b, 0), 0); /* no remote, no dims */
  augur_comm_def d;
  *why = NULL;
  int rc = aug_def_get_comm(b.p, b.len, &d, why);
  if (rc == 0) aug_comm_def_free(&d);
  aug_buf_free(&b);
  return rc;
}

static void test_damaged_runs(void **state) {
  (void)state;
  const char *why;
  const uint64_t M = AUG_MEMBERS_RUNS;
  /* well formed: 2 runs, (0, +1) x 3 and (10, 0) x 1 */
  uint64_t ok[] = {M, 2, 0, 2, 3, 20, 0, 1};
  assert_int_equal(decode_runs(4, ok, 8, &why), 0);
  struct {
    uint32_t n;
    uint64_t v[8];
    size_t nv;
    const char *what;
  } bad[] = {
      {4, {M, 1, 0, 2, 3}, 5, "counts add up to less than the size"},
      {2, {M, 1, 0, 2, 3}, 5, "counts add up to more than the size"},
      {4, {M, 2, 0, 2, 0, 0, 2, 4}, 8, "a run of 0 members"},
      {2, {M, 1, 0xfffffffeull, 2, 2}, 5, "the last member past INT32_MAX"},
      {2, {M, 1, 0, 1ull << 40, 2}, 5, "a stride no two int32 have"},
      {3, {M, 1, 1ull << 33, 0, 3}, 5, "a first member outside int32"},
      {4, {M, 1000000, 0, 2, 4}, 5, "more runs than members"},
      {4, {M, 2, 0, 2, 3}, 5, "the body ends inside the runs"},
      {1u << 25, {M, 1, 0, 2, 1u << 25}, 5, "more members than a communicator may have"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (decode_runs(bad[i].n, bad[i].v, bad[i].nv, &why) == 0)
      fail_msg("accepted a damaged list: %s", bad[i].what);
    assert_string_equal(why, "malformed communicator definition");
  }
}

/* A trace of NR ranks: the world and the even ranks (a stride-2 Cartesian
 * communicator) in every rank file (the evens only in theirs). DISAGREE: one
 * rank writes a world that differs in one member. */
static char *write_trace(uint32_t nr, int32_t *world, int32_t *evens, uint32_t disagree) {
  char *dir = tu_tracedir();
  tu_meta(dir, nr);
  augur_error err;
  for (uint32_t r = 0; r < nr; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, nr, 1, &err), 0);
    augur_comm_def cw = {
        .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = nr, .members = world};
    augur_comm_def ce = {.id = 0xe0e0ull,
                         .parent = AUGUR_COMM_WORLD,
                         .kind = AUGUR_COMM_KIND_CART,
                         .size = nr / 2,
                         .members = evens,
                         .ndims = 1,
                         .dims = {(int32_t)nr / 2},
                         .periods = {1}};
    if (r == disagree) world[nr - 1] = 0;
    assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
    world[nr - 1] = (int32_t)nr - 1;
    if (r % 2 == 0) assert_int_equal(augur_writer_def_comm(w, &ce, &err), 0);
    augur_event e = tu_ev(AUGUR_EV_BARRIER, 1000 + r, 2000 + r);
    e.comm = AUGUR_COMM_WORLD;
    assert_int_equal(augur_writer_events(w, 0, &e, 1, &err), 0);
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  return dir;
}

static void test_trace_linear(void **state) {
  (void)state;
  enum { NR = 2048 };
  static int32_t world[NR], evens[NR / 2];
  for (int32_t i = 0; i < NR; i++)
    world[i] = i;
  for (int32_t i = 0; i < NR / 2; i++)
    evens[i] = 2 * i;
  char *dir = write_trace(NR, world, evens, UINT32_MAX);
  /* Every rank file holds both lists in a few bytes (minor 5: ~3.6 KB for
   * the world alone at 2,048 ranks, zstd-compressed). */
  for (uint32_t r = 0; r < NR; r += 511) {
    uint64_t size = tu_file_size(tu_rank_file(dir, r, NR));
    if (size > 400) fail_msg("rank %u: file of %llu bytes", r, (unsigned long long)size);
  }
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  assert_int_equal(augur_trace_info_get(t)->version_minor, AUG_FORMAT_MINOR);
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  assert_int_equal(augur_trace_ncomms(t), 2);
  const augur_comm_def *c = augur_trace_comm(t, AUGUR_COMM_WORLD);
  assert_non_null(c);
  assert_int_equal(c->size, NR);
  assert_memory_equal(c->members, world, sizeof world);
  c = augur_trace_comm(t, 0xe0e0ull);
  assert_non_null(c);
  assert_int_equal(c->size, NR / 2);
  assert_memory_equal(c->members, evens, sizeof evens);
  assert_int_equal(c->ndims, 1);
  assert_int_equal(c->dims[0], NR / 2);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A rank whose world differs from the others' is damage, also when the
 * others' definitions are compared by their bytes. */
static void test_trace_disagree(void **state) {
  (void)state;
  enum { NR = 64 };
  static int32_t world[NR], evens[NR / 2];
  for (int32_t i = 0; i < NR; i++)
    world[i] = i;
  for (int32_t i = 0; i < NR / 2; i++)
    evens[i] = 2 * i;
  char *dir = write_trace(NR, world, evens, 37);
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  const char *msg = NULL;
  assert_int_equal(augur_trace_damage(t, 37, &msg), 1);
  assert_non_null(msg);
  assert_non_null(strstr(msg, "communicator members disagree"));
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A trace written by the minor-5 writer (augur-bench-dx-gen --ranks 16
 * --events 2000 at da46cc3: one varint per member) reads as before. */
static void test_old_version(void **state) {
  (void)state;
  augur_trace *t;
  augur_error err;
  const char *dir = AUGUR_TEST_FIXTURES "/v1.5-dxgen16.augur";
  if (augur_trace_open(&t, dir, &err)) fail_msg("%s", err.msg);
  const augur_trace_info *in = augur_trace_info_get(t);
  assert_int_equal(in->version_major, 1);
  assert_int_equal(in->version_minor, 5);
  assert_int_equal(augur_trace_nranks(t), 16);
  assert_int_equal(augur_trace_damage(t, 0, NULL), 0);
  const augur_comm_def *c = augur_trace_comm(t, AUGUR_COMM_WORLD);
  assert_non_null(c);
  assert_int_equal(c->size, 16);
  for (int32_t i = 0; i < 16; i++)
    assert_int_equal(c->members[i], i);
  uint64_t total = 0;
  for (uint32_t r = 0; r < 16; r++) {
    size_t n;
    int rc;
    augur_event *ev = tu_read_rank(t, r, &n, &rc, &err);
    assert_int_equal(rc, 0);
    total += augur_trace_nparents(t, r);
    free(ev);
  }
  assert_int_equal(total, 2 * 16 + 16 * 12 * 6); /* init, finalize; 12 iterations of 6 calls */
  augur_trace_close(t);
}

/* The reader takes a rank file's first 64 KiB in one read: definitions and
 * block headers past it are read from the file. */
static void test_defs_past_first_read(void **state) {
  (void)state;
  enum { NEV = 12000 };
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 1, &err), 0);
  static augur_event ev[NEV];
  uint64_t x = 0x9e3779b97f4a7c15ull, t = 1000;
  for (size_t i = 0; i < NEV; i++) { /* random sizes and tags: blocks zstd cannot shrink much */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ev[i] = tu_ev(AUGUR_EV_SEND, t, t + 10 + x % 1000);
    t = ev[i].t_end + x % 977;
    ev[i].comm = AUGUR_COMM_WORLD;
    ev[i].bytes = x >> 20;
    ev[i].tag = (int32_t)(x % 100000);
  }
  uint64_t total = 0;
  for (size_t done = 0; done < NEV; done += NEV / 4) {
    assert_int_equal(augur_writer_events(w, 0, ev + done, NEV / 4, &err), 0);
    total += NEV / 4;
  }
  int32_t one[1] = {0};
  augur_comm_def cw = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = 1, .members = one};
  assert_int_equal(augur_writer_def_comm(w, &cw, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  uint64_t size = tu_file_size(tu_rank_file(dir, 0, 1));
  if (size < 3 * 65536 / 2) fail_msg("rank file of %llu bytes only", (unsigned long long)size);
  augur_trace *tr;
  if (augur_trace_open(&tr, dir, &err)) fail_msg("%s", err.msg);
  assert_int_equal(augur_trace_damage(tr, 0, NULL), 0);
  assert_int_equal(augur_trace_nblocks(tr, 0), 4);
  assert_int_equal(augur_trace_nevents(tr, 0), total);
  assert_non_null(augur_trace_comm(tr, AUGUR_COMM_WORLD)); /* defined past the first 64 KiB */
  size_t n;
  int rc;
  augur_event *got = tu_read_rank(tr, 0, &n, &rc, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(n, total);
  for (size_t i = 0; i < n; i += 997)
    tu_assert_event_eq(&ev[i], &got[i], i);
  free(got);
  augur_trace_close(tr);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_patterns),
      cmocka_unit_test(test_small_stays_explicit),
      cmocka_unit_test(test_damaged_runs),
      cmocka_unit_test(test_trace_linear),
      cmocka_unit_test(test_trace_disagree),
      cmocka_unit_test(test_old_version),
      cmocka_unit_test(test_defs_past_first_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
