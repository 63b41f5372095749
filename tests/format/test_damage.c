/* augur format tests — damaged traces: exact error codes, messages naming
 * file and offset, and every event before the damage still returned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "format.h"
#include "util.h"

#define NBLOCKS   6
#define PER_BLOCK 500

/* A 2-rank trace; rank 1 has a definitions block, then NBLOCKS events
 * blocks of PER_BLOCK events (one writer call each). */
static char *make_trace(void) {
  char *dir = tu_tracedir();
  tu_meta(dir, 2);
  augur_error err;
  for (uint32_t r = 0; r < 2; r++) {
    augur_writer *w;
    assert_int_equal(augur_writer_open(&w, dir, r, 2, 0, &err), 0);
    augur_module_def m = {1, "/bin/app"};
    augur_callsite_def c = {1, 1, 0x400};
    assert_int_equal(augur_writer_def_module(w, &m, &err), 0);
    assert_int_equal(augur_writer_def_callsite(w, &c, &err), 0);
    augur_event v[PER_BLOCK];
    uint64_t t = 1000;
    for (int b = 0; b < NBLOCKS; b++) {
      for (int i = 0; i < PER_BLOCK; i++) {
        v[i] = tu_ev(i % 2 ? AUGUR_EV_ISEND : AUGUR_EV_IRECV, t, t + 300 + (uint64_t)(i * 7 % 13));
        v[i].peer = 1 - (int32_t)r;
        v[i].tag = i % 5;
        v[i].comm = AUGUR_COMM_WORLD;
        v[i].req = 0x1000 + (uint64_t)i;
        v[i].bytes = 4096;
        v[i].callsite = 1;
        t += 1000 + (uint64_t)(i * 31 % 97);
      }
      assert_int_equal(augur_writer_events(w, 0, v, PER_BLOCK, &err), 0);
    }
    assert_int_equal(augur_writer_close(w, &err), 0);
  }
  return dir;
}

static augur_trace *open_ok(const char *dir) {
  augur_trace *t;
  augur_error err;
  int rc = augur_trace_open(&t, dir, &err);
  if (rc) fail_msg("open: %s", err.msg);
  return t;
}

static void expect_open_fails(const char *dir, int code, const char *needle1, const char *needle2) {
  augur_trace *t = (augur_trace *)1;
  augur_error err = {0};
  int rc = augur_trace_open(&t, dir, &err);
  if (rc != code)
    fail_msg("open: expected %s, got %s: %s", augur_status_name(code), augur_status_name(rc),
             err.msg);
  assert_int_equal(err.code, code);
  assert_null(t);
  if (needle1 && !strstr(err.msg, needle1)) fail_msg("'%s' not in '%s'", needle1, err.msg);
  if (needle2 && !strstr(err.msg, needle2)) fail_msg("'%s' not in '%s'", needle2, err.msg);
}

/* The intact trace as the baseline. */
static void test_intact(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t = open_ok(dir);
  assert_int_equal(augur_trace_damage(t, 1, NULL), 0);
  assert_int_equal(augur_trace_nblocks(t, 1), NBLOCKS);
  size_t n;
  int rc;
  augur_error err;
  free(tu_read_rank(t, 1, &n, &rc, &err));
  assert_int_equal(rc, 0);
  assert_int_equal(n, NBLOCKS * PER_BLOCK);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A flipped payload byte in block 3: open succeeds (payloads are not read),
 * streaming returns blocks 0..2, then a checksum error naming the offset. */
static void test_payload_flip(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t = open_ok(dir);
  const augur_block_info *b = augur_trace_block(t, 1, 3);
  uint64_t off = b->offset;
  augur_trace_close(t);
  char file[4200];
  snprintf(file, sizeof file, "%s", tu_rank_file(dir, 1, 2));
  tu_flip_byte(file, off + 56 + 5);
  t = open_ok(dir);
  assert_int_equal(augur_trace_damage(t, 1, NULL), 0);
  size_t n;
  int rc;
  augur_error err;
  free(tu_read_rank(t, 1, &n, &rc, &err));
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  assert_int_equal(n, 3 * PER_BLOCK);
  char want[64];
  snprintf(want, sizeof want, "block at offset %llu", (unsigned long long)off);
  assert_non_null(strstr(err.msg, "rank-00001.evt: rank 1"));
  assert_non_null(strstr(err.msg, want));
  assert_non_null(strstr(err.msg, "expected 0x"));
  /* The error is sticky. */
  augur_stream *s;
  assert_int_equal(augur_stream_rank(t, 1, &s, &err), 0);
  augur_event e;
  while ((rc = augur_stream_next(s, &e, &err)) == 1) {
  }
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  assert_int_equal(augur_stream_next(s, &e, &err), AUGUR_E_CHECKSUM);
  augur_stream_close(s);
  /* Merged: all of rank 0, rank 1 up to the damage, the error once, then the rest. */
  assert_int_equal(augur_stream_merged(t, &s, &err), 0);
  size_t k = 0, errors = 0;
  while ((rc = augur_stream_next(s, &e, &err)) != 0) {
    if (rc < 0) {
      assert_int_equal(rc, AUGUR_E_CHECKSUM);
      assert_non_null(strstr(err.msg, want));
      errors++;
    } else {
      k++;
    }
  }
  assert_int_equal(errors, 1);
  assert_int_equal(k, NBLOCKS * PER_BLOCK + 3 * PER_BLOCK);
  augur_stream_close(s);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* augur_stream_read: the events of augur_stream_next, in chunks, with its
 * damage semantics (the events before the damage, the error, sticky on a
 * rank stream; a merged stream goes on after it). */
static void test_stream_read(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t = open_ok(dir);
  uint64_t off = augur_trace_block(t, 1, 3)->offset;
  augur_trace_close(t);
  tu_flip_byte(tu_rank_file(dir, 1, 2), off + 56 + 5);
  t = open_ok(dir);
  size_t n;
  int rc;
  augur_error err;
  augur_event *want = tu_read_rank(t, 1, &n, &rc, &err);
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  augur_stream *s;
  assert_int_equal(augur_stream_rank(t, 1, &s, &err), 0);
  augur_event buf[7];
  size_t got, k = 0;
  while ((rc = augur_stream_read(s, buf, 7, &got, &err)) == 1) {
    assert_int_equal(got, 7);
    for (size_t i = 0; i < got; i++, k++)
      tu_assert_event_eq(&want[k], &buf[i], k);
  }
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  assert_true(got < 7);
  for (size_t i = 0; i < got; i++, k++)
    tu_assert_event_eq(&want[k], &buf[i], k);
  assert_int_equal(k, n);
  assert_int_equal(augur_stream_read(s, buf, 7, &got, &err), AUGUR_E_CHECKSUM);
  assert_int_equal(got, 0);
  assert_int_equal(augur_stream_read(NULL, buf, 7, &got, &err), AUGUR_E_ARG);
  assert_int_equal(augur_stream_read(s, buf, 7, NULL, &err), AUGUR_E_ARG);
  augur_stream_close(s);
  free(want);
  /* Merged: everything but rank 1's damaged part, the error once. */
  assert_int_equal(augur_stream_merged(t, &s, &err), 0);
  size_t errors = 0;
  k = 0;
  while ((rc = augur_stream_read(s, buf, 7, &got, &err)) != 0) {
    k += got;
    if (rc < 0) {
      assert_int_equal(rc, AUGUR_E_CHECKSUM);
      errors++;
    }
  }
  k += got;
  assert_int_equal(errors, 1);
  assert_int_equal(k, NBLOCKS * PER_BLOCK + 3 * PER_BLOCK);
  augur_stream_close(s);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* A flipped byte in block 2's header: the index stops before it. */
static void test_header_flip(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t = open_ok(dir);
  uint64_t off = augur_trace_block(t, 1, 2)->offset;
  augur_trace_close(t);
  char file[4200];
  snprintf(file, sizeof file, "%s", tu_rank_file(dir, 1, 2));
  tu_flip_byte(file, off + 20); /* stored size */
  t = open_ok(dir);
  const char *msg;
  assert_int_equal(augur_trace_damage(t, 1, &msg), 1);
  assert_int_equal(augur_trace_damage(t, 0, &msg), 1);
  assert_null(msg);
  augur_trace_damage(t, 1, &msg);
  char want[64];
  snprintf(want, sizeof want, "block at offset %llu", (unsigned long long)off);
  assert_non_null(strstr(msg, want));
  assert_non_null(strstr(msg, "header checksum"));
  assert_int_equal(augur_trace_nblocks(t, 1), 2);
  assert_int_equal(augur_trace_nevents(t, 1), 2 * PER_BLOCK);
  size_t n;
  int rc;
  augur_error err;
  free(tu_read_rank(t, 1, &n, &rc, &err));
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  assert_int_equal(n, 2 * PER_BLOCK);
  assert_non_null(strstr(err.msg, want));
  augur_trace_close(t);
  /* Bad block magic */
  tu_flip_byte(file, off + 20);
  tu_flip_byte(file, off + 1);
  t = open_ok(dir);
  assert_int_equal(augur_trace_damage(t, 1, &msg), 1);
  assert_non_null(strstr(msg, "magic"));
  free(tu_read_rank(t, 1, &n, &rc, &err));
  assert_int_equal(rc, AUGUR_E_FORMAT);
  augur_trace_close(t);
  tu_cleanup(dir);
}

/* Truncation: inside the file header fails the open; inside a block header
 * or payload keeps everything before. */
static void test_truncated(void **state) {
  (void)state;
  char *dir = make_trace();
  char file[4200];
  snprintf(file, sizeof file, "%s", tu_rank_file(dir, 1, 2));
  augur_trace *t = open_ok(dir);
  uint64_t off[NBLOCKS];
  for (int i = 0; i < NBLOCKS; i++)
    off[i] = augur_trace_block(t, 1, (size_t)i)->offset;
  augur_trace_close(t);
  uint64_t size = tu_file_size(file);
  struct {
    uint64_t at;
    size_t blocks;
  } cuts[] = {{size - 1, NBLOCKS - 1}, {off[4] + 100, 4}, {off[3] + 56, 3},
              {off[2] + 30, 2},        {off[1], 1},       {off[0] + 1, 0}};
  for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
    tu_truncate(file, cuts[c].at);
    t = open_ok(dir);
    const char *msg;
    size_t n;
    int rc;
    augur_error err;
    assert_int_equal(augur_trace_nblocks(t, 1), cuts[c].blocks);
    int damaged = augur_trace_damage(t, 1, &msg);
    free(tu_read_rank(t, 1, &n, &rc, &err));
    assert_int_equal(n, cuts[c].blocks * PER_BLOCK);
    if (cuts[c].at == off[1]) { /* a clean cut between blocks is not damage */
      assert_int_equal(damaged, 0);
      assert_int_equal(rc, 0);
    } else {
      assert_int_equal(damaged, 1);
      assert_int_equal(rc, AUGUR_E_TRUNCATED);
      char want[64];
      snprintf(want, sizeof want, "block at offset %llu", (unsigned long long)off[cuts[c].blocks]);
      if (!strstr(err.msg, want)) fail_msg("'%s' not in '%s'", want, err.msg);
      assert_non_null(strstr(err.msg, "rank-00001.evt"));
    }
    augur_trace_close(t);
  }
  /* Inside the definitions block and inside the file header. */
  tu_truncate(file, 40);
  t = open_ok(dir);
  assert_int_equal(augur_trace_damage(t, 1, NULL), 1);
  assert_int_equal(augur_trace_ncallsites(t), 1); /* rank 0's */
  augur_trace_close(t);
  tu_truncate(file, 10);
  expect_open_fails(dir, AUGUR_E_TRUNCATED, "rank-00001.evt", "offset 0");
  tu_truncate(file, 0);
  expect_open_fails(dir, AUGUR_E_TRUNCATED, "rank-00001.evt", NULL);
  tu_cleanup(dir);
}

/* Damage in a definitions payload is found at open. */
static void test_defs_flip(void **state) {
  (void)state;
  char *dir = make_trace();
  char file[4200];
  snprintf(file, sizeof file, "%s", tu_rank_file(dir, 1, 2));
  tu_flip_byte(file, 32 + 56 + 2);
  augur_trace *t = open_ok(dir);
  const char *msg;
  assert_int_equal(augur_trace_damage(t, 1, &msg), 1);
  assert_non_null(strstr(msg, "definitions block at offset 32"));
  assert_int_equal(augur_trace_nblocks(t, 1), 0);
  size_t n;
  int rc;
  augur_error err;
  free(tu_read_rank(t, 1, &n, &rc, &err));
  assert_int_equal(n, 0);
  assert_int_equal(rc, AUGUR_E_CHECKSUM);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void test_file_header(void **state) {
  (void)state;
  char *dir = make_trace();
  char file[4200];
  snprintf(file, sizeof file, "%s", tu_rank_file(dir, 0, 2));
  tu_flip_byte(file, 13); /* rank field */
  expect_open_fails(dir, AUGUR_E_CHECKSUM, "rank-00000.evt", "offset 0");
  tu_flip_byte(file, 13);
  tu_flip_byte(file, 0);
  expect_open_fails(dir, AUGUR_E_FORMAT, "rank-00000.evt", "magic");
  tu_cleanup(dir);
}

static void test_missing_rank(void **state) {
  (void)state;
  char *dir = make_trace();
  char file[4200];
  snprintf(file, sizeof file, "%s", tu_rank_file(dir, 1, 2));
  assert_int_equal(unlink(file), 0);
  expect_open_fails(dir, AUGUR_E_MISSING, "rank-00001.evt", NULL);
  tu_cleanup(dir);
}

static void test_bad_json(void **state) {
  (void)state;
  char *dir = make_trace();
  char file[4200];
  snprintf(file, sizeof file, "%s/trace.json", dir);
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[2,0],\"nranks\":2}");
  expect_open_fails(dir, AUGUR_E_VERSION, "trace.json", "2.0");
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[1,7],\"nranks\":2,\"new\":1}");
  augur_trace *t = open_ok(dir); /* newer minor, unknown key: fine */
  assert_int_equal(augur_trace_info_get(t)->version_minor, 7);
  augur_trace_close(t);
  tu_write_file(file, "{\"format\": \"augur-trace\", \"vers");
  expect_open_fails(dir, AUGUR_E_FORMAT, "trace.json", "line 1");
  tu_write_file(file, "\x01\x02garbage");
  expect_open_fails(dir, AUGUR_E_FORMAT, "trace.json", NULL);
  tu_write_file(file, "[1,2,3]");
  expect_open_fails(dir, AUGUR_E_FORMAT, "trace.json", "format");
  tu_write_file(file, "{\"format\":\"otf2\",\"version\":[1,0],\"nranks\":2}");
  expect_open_fails(dir, AUGUR_E_FORMAT, "trace.json", "augur-trace");
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[1,0],\"nranks\":0}");
  expect_open_fails(dir, AUGUR_E_FORMAT, "nranks", NULL);
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[1,0],\"nranks\":2,\"argv\":3}");
  expect_open_fails(dir, AUGUR_E_FORMAT, "argv", NULL);
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[1,0],\"nranks\":3}");
  expect_open_fails(dir, AUGUR_E_MISSING, "rank-00002.evt", "trace has 3 ranks");
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[1,0],\"nranks\":1}");
  expect_open_fails(dir, AUGUR_E_FORMAT, "rank-00000.evt", "expected rank 0 of 1");
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":[1,0],\"nranks\":16000000}");
  expect_open_fails(dir, AUGUR_E_MISSING, "rank-15999999.evt", NULL);
  tu_write_file(file, "{\"format\":\"augur-trace\",\"version\":\"1.0\",\"nranks\":2}");
  expect_open_fails(dir, AUGUR_E_FORMAT, "version", NULL);
  assert_int_equal(unlink(file), 0);
  expect_open_fails(dir, AUGUR_E_MISSING, "trace.json", NULL);
  tu_cleanup(dir);
}

static void test_paths(void **state) {
  (void)state;
  char *dir = tu_tracedir();
  expect_open_fails(dir, AUGUR_E_MISSING, dir, "no such");
  assert_int_equal(mkdir(dir, 0777), 0); /* empty directory */
  expect_open_fails(dir, AUGUR_E_MISSING, "trace.json", NULL);
  char file[4200];
  snprintf(file, sizeof file, "%s/plain", dir);
  tu_write_file(file, "x");
  expect_open_fails(file, AUGUR_E_FORMAT, "not a directory", NULL);
  augur_trace *t;
  augur_error err;
  assert_int_equal(augur_trace_open(&t, NULL, &err), AUGUR_E_ARG);
  tu_cleanup(dir);
}

/* Writer misuse. */
/* Rewrites the header of rank 1's block BLOCK with PARENTS parent records
 * (a valid checksum: the header is well formed, only its count changes). */
static void set_parents(const char *dir, size_t block, uint32_t parents) {
  augur_trace *t = open_ok(dir);
  uint64_t off = augur_trace_block(t, 1, block)->offset;
  augur_trace_close(t);
  FILE *f = fopen(tu_rank_file(dir, 1, 2), "r+b");
  assert_non_null(f);
  uint8_t raw[AUG_BLKHDR_SIZE];
  assert_int_equal(fseek(f, (long)off, SEEK_SET), 0);
  assert_int_equal(fread(raw, 1, sizeof raw, f), sizeof raw);
  aug_blkhdr h;
  char why[128];
  assert_int_equal(aug_blkhdr_unpack(raw, &h, why, sizeof why), AUGUR_OK);
  h.parents = parents;
  aug_blkhdr_pack(raw, &h);
  assert_int_equal(fseek(f, (long)off, SEEK_SET), 0);
  assert_int_equal(fwrite(raw, 1, sizeof raw, f), sizeof raw);
  assert_int_equal(fclose(f), 0);
}

/* Parent counts (format minor 2): the writer records them per block; a
 * block without one (an older writer) makes the rank's count fall back to
 * its records; a count above the block's records is a damaged header. */
static void test_parent_counts(void **state) {
  (void)state;
  char *dir = make_trace();
  augur_trace *t = open_ok(dir);
  assert_true(augur_trace_info_get(t)->version_minor >= 2);
  for (size_t b = 0; b < NBLOCKS; b++)
    assert_int_equal(augur_trace_block(t, 1, b)->nparents, PER_BLOCK);
  assert_int_equal(augur_trace_nparents(t, 1), NBLOCKS * PER_BLOCK);
  assert_int_equal(augur_trace_nparents(t, 7), 0);
  augur_trace_close(t);
  set_parents(dir, 2, 0);
  t = open_ok(dir);
  assert_int_equal(augur_trace_damage(t, 1, NULL), 0);
  assert_int_equal(augur_trace_block(t, 1, 2)->nparents, 0);
  assert_int_equal(augur_trace_nparents(t, 1), augur_trace_nevents(t, 1));
  augur_trace_close(t);
  set_parents(dir, 2, PER_BLOCK + 1);
  t = open_ok(dir);
  const char *msg;
  assert_int_equal(augur_trace_damage(t, 1, &msg), 1);
  assert_non_null(strstr(msg, "parent records in a block of"));
  assert_int_equal(augur_trace_nblocks(t, 1), 2);
  assert_int_equal(augur_trace_nparents(t, 1), 2 * PER_BLOCK);
  augur_trace_close(t);
  tu_cleanup(dir);
}

static void test_writer_errors(void **state) {
  (void)state;
  augur_writer *w;
  augur_error err;
  assert_int_equal(augur_writer_open(&w, "/tmp", 3, 2, 0, &err), AUGUR_E_ARG);
  char *dir = tu_tracedir();
  char bad[4200];
  snprintf(bad, sizeof bad, "%s.file", dir);
  tu_write_file(bad, "x");
  strcat(bad, "/x"); /* under a regular file: cannot be created */
  assert_int_equal(augur_writer_open(&w, bad, 0, 1, 0, &err), AUGUR_E_IO);
  assert_non_null(strstr(err.msg, "rank-00000.evt"));
  /* the writer creates a missing directory (and its parents) itself */
  char sub[4200];
  snprintf(sub, sizeof sub, "%s/a/b", dir);
  assert_int_equal(augur_writer_open(&w, sub, 0, 1, 0, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  augur_event e = tu_ev(300, 1, 2);
  assert_int_equal(augur_writer_events(w, 0, &e, 1, &err), AUGUR_E_ARG);
  assert_int_equal(augur_writer_events(w, 0, NULL, 1, &err), AUGUR_E_ARG);
  assert_int_equal(augur_writer_close(w, &err), 0);
  assert_int_equal(augur_writer_close(NULL, &err), 0);
  augur_trace_meta m = {.nranks = 1};
  char file[4200];
  snprintf(file, sizeof file, "%s/rank-00000.evt/sub", dir);
  assert_int_equal(augur_meta_write(file, &m, &err), AUGUR_E_IO);
  /* 100001 ranks: six-digit file names */
  char name[4200];
  snprintf(name, sizeof name, "%s", tu_rank_file(dir, 7, 100001));
  assert_non_null(strstr(name, "rank-000007.evt"));
  assert_int_equal(augur_writer_open(&w, dir, 7, 100001, 0, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);
  assert_int_equal(access(name, F_OK), 0);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_intact),        cmocka_unit_test(test_payload_flip),
      cmocka_unit_test(test_header_flip),   cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_defs_flip),     cmocka_unit_test(test_file_header),
      cmocka_unit_test(test_missing_rank),  cmocka_unit_test(test_bad_json),
      cmocka_unit_test(test_paths),         cmocka_unit_test(test_writer_errors),
      cmocka_unit_test(test_parent_counts), cmocka_unit_test(test_stream_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
