/* The wire format and record validation (mon_wire.c): a valid frame
 * parses; each kind of damage is refused with the reason augurd logs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "augur/text.h"
#include "mon.h"

static mon_key key = {.bytes = "0123456789abcdef0123456789abcdef", .len = 32};

/* A job of n processes, all fields plausible. */
static uint8_t *make_job(uint64_t n, uint32_t *len) {
  *len = (uint32_t)(sizeof(augp_job) + n * sizeof(augp_proc));
  uint8_t *b = calloc(1, *len);
  augp_job j;
  memset(&j, 0, sizeof j);
  memset(j.uid, 7, sizeof j.uid);
  strcpy(j.job_id, "42");
  strcpy(j.step, "0");
  strcpy(j.cluster, "test");
  strcpy(j.user, "u");
  j.start_ns = 1;
  j.end_ns = 2;
  j.level = 1;
  j.nprocs = n;
  memcpy(b, &j, sizeof j);
  for (uint64_t i = 0; i < n; i++) {
    augp_proc p;
    memset(&p, 0, sizeof p);
    strcpy(p.host, "node1");
    p.rank = (int64_t)i;
    p.nranks = (int64_t)n;
    p.start_ns = 1;
    p.end_ns = 2;
    memcpy(b + sizeof j + i * sizeof p, &p, sizeof p);
  }
  return b;
}

static int parse(const uint8_t *f, size_t n, char *why) {
  return mon_frame_parse(&key, f, n, MON_MAX_DEFAULT, why, 256);
}

static void valid_frame(void **state) {
  (void)state;
  uint32_t len;
  uint8_t *job = make_job(3, &len), *f;
  size_t n;
  char why[256] = "";
  assert_int_equal(mon_frame_build(&key, MON_T_JOB, job, len, &f, &n, why, sizeof why), 0);
  assert_int_equal(n, MON_HDR + len + MON_MAC);
  assert_int_equal(parse(f, n, why), 0);
  free(f);
  free(job);
}

static void bad_signature(void **state) {
  (void)state;
  uint32_t len;
  uint8_t *job = make_job(1, &len), *f;
  size_t n;
  char why[256] = "";
  mon_key other = {.bytes = "another key, also 32 bytes long!", .len = 32};
  assert_int_equal(mon_frame_build(&other, MON_T_JOB, job, len, &f, &n, why, sizeof why), 0);
  assert_int_equal(parse(f, n, why), -1);
  assert_non_null(strstr(why, "unauthenticated"));
  free(f);
  /* One flipped payload bit under the right key: also refused. */
  assert_int_equal(mon_frame_build(&key, MON_T_JOB, job, len, &f, &n, why, sizeof why), 0);
  f[MON_HDR + 100] ^= 1;
  assert_int_equal(parse(f, n, why), -1);
  assert_non_null(strstr(why, "unauthenticated"));
  free(f);
  free(job);
}

static void malformed(void **state) {
  (void)state;
  char why[256] = "";
  uint8_t junk[64];
  memset(junk, 'x', sizeof junk);
  assert_int_equal(parse(junk, sizeof junk, why), -1);
  assert_non_null(strstr(why, "malformed"));
  assert_int_equal(parse(junk, 3, why), -1);

  uint32_t len;
  uint8_t *job = make_job(2, &len), *f;
  size_t n;
  /* Header says 2 processes, payload holds 1. */
  assert_int_equal(mon_frame_build(&key, MON_T_JOB, job, len - (uint32_t)sizeof(augp_proc), &f, &n,
                                   why, sizeof why),
                   0);
  assert_int_equal(parse(f, n, why), -1);
  assert_non_null(strstr(why, "malformed"));
  free(f);
  /* Unterminated host string. */
  memset(job + sizeof(augp_job), 'h', 64);
  assert_int_equal(mon_frame_build(&key, MON_T_JOB, job, len, &f, &n, why, sizeof why), 0);
  assert_int_equal(parse(f, n, why), -1);
  assert_non_null(strstr(why, "unterminated"));
  free(f);
  free(job);
  /* Rank beyond nranks. */
  job = make_job(2, &len);
  augp_proc p;
  memcpy(&p, job + sizeof(augp_job), sizeof p);
  p.rank = 5;
  memcpy(job + sizeof(augp_job), &p, sizeof p);
  assert_int_equal(mon_job_validate(job, len, why, sizeof why), -1);
  assert_non_null(strstr(why, "rank"));
  free(job);
}

/* Values no real sender produces (issue 22, item 9): each refused, the
 * reason naming the field. */
static void check_absurd(void (*spoil)(augp_job *, augp_proc *), const char *reason) {
  uint32_t len;
  uint8_t *job = make_job(2, &len);
  augp_job j;
  augp_proc p;
  memcpy(&j, job, sizeof j);
  memcpy(&p, job + sizeof j + sizeof p, sizeof p); /* process 1 */
  spoil(&j, &p);
  memcpy(job, &j, sizeof j);
  memcpy(job + sizeof j + sizeof p, &p, sizeof p);
  char why[256] = "";
  assert_int_equal(mon_job_validate(job, len, why, sizeof why), -1);
  if (!strstr(why, reason)) fail_msg("want '%s' in '%s'", reason, why);
  free(job);
}
static void big_job_end(augp_job *j, augp_proc *p) {
  (void)p;
  j->end_ns = (1ULL << 63) + 5;
}
static void big_nranks(augp_job *j, augp_proc *p) {
  (void)j;
  p->nranks = INT64_MAX;
}
static void counter_minus_one(augp_job *j, augp_proc *p) {
  (void)j;
  p->ctr_mask = 1u << AUGP_CTR_CYCLES;
  p->ctr[AUGP_CTR_CYCLES] = UINT64_MAX;
}
static void proc_end(augp_job *j, augp_proc *p) {
  (void)j;
  p->end_ns = UINT64_MAX;
}
static void mpi_over_wall(augp_job *j, augp_proc *p) {
  (void)j;
  p->start_ns = 1000000000;
  p->end_ns = 3000000000; /* 2 s */
  p->nthreads = 1;
  p->mpi_ns[AUGP_MPI_WAIT] = 4000000000; /* 4 s */
}
static void thread_cpu(augp_job *j, augp_proc *p) {
  (void)j;
  p->threads[3].cpu_ns = 1ULL << 63;
}
static void io_calls(augp_job *j, augp_proc *p) {
  (void)j;
  p->io_calls[AUGP_IO_SYNC] = UINT64_MAX - 1;
}
static void huge_pid(augp_job *j, augp_proc *p) {
  (void)j;
  p->pid = 1ULL << 40;
}
static void huge_uid(augp_job *j, augp_proc *p) {
  (void)p;
  j->uid_num = UINT64_MAX;
}

static void absurd_values(void **state) {
  (void)state;
  check_absurd(big_job_end, "job start_ns 1, end_ns 9223372036854775813");
  check_absurd(big_nranks, "process 1 has nranks 9223372036854775807");
  check_absurd(counter_minus_one, "process 1 counter cycles = 18446744073709551615");
  check_absurd(proc_end, "process 1 end_ns = 18446744073709551615");
  check_absurd(mpi_over_wall, "process 1 spent 4.000 s in MPI");
  check_absurd(thread_cpu, "process 1 thread 3 cpu_ns = 9223372036854775808");
  check_absurd(io_calls, "process 1 io sync calls");
  check_absurd(huge_pid, "pid 1099511627776");
  check_absurd(huge_uid, "uid 18446744073709551615");
  /* Within the bounds: MPI time of two threads, each below the wall time. */
  uint32_t len;
  uint8_t *job = make_job(1, &len);
  augp_proc p;
  memcpy(&p, job + sizeof(augp_job), sizeof p);
  p.start_ns = 1000000000;
  p.end_ns = 3000000000;
  p.nthreads = 2;
  p.mpi_ns[AUGP_MPI_WAIT] = 3500000000;
  p.ctr[AUGP_CTR_CYCLES] = INT64_MAX;
  memcpy(job + sizeof(augp_job), &p, sizeof p);
  char why[256] = "";
  assert_int_equal(mon_job_validate(job, len, why, sizeof why), 0);
  free(job);
}

static void oversized(void **state) {
  (void)state;
  uint8_t hdr[MON_HDR] = {'A', 'U', 'G', 'R', 1, 0, MON_T_JOB, 0, 0, 0, 0, 0x10, 0, 0, 0, 0};
  uint16_t type;
  uint32_t len, auth;
  char why[256] = "";
  assert_int_equal(mon_header_check(hdr, 1 << 20, &type, &len, &auth, why, sizeof why), -1);
  assert_non_null(strstr(why, "oversized"));
  hdr[11] = 0;
  assert_int_equal(mon_header_check(hdr, 1 << 20, &type, &len, &auth, why, sizeof why), 0);
  hdr[13] = 0x20; /* a credential of 8 KiB: beyond MON_CRED_MAX */
  assert_int_equal(mon_header_check(hdr, 1 << 20, &type, &len, &auth, why, sizeof why), -1);
  assert_non_null(strstr(why, "credential"));
  hdr[13] = 0;
  hdr[4] = 9; /* a future version */
  assert_int_equal(mon_header_check(hdr, 1 << 20, &type, &len, &auth, why, sizeof why), -1);
  assert_non_null(strstr(why, "version"));
}

/* A frame that claims a MUNGE credential, sent to a side with an HMAC key
 * (and the reverse): refused as unauthenticated, whatever the trailer holds. */
static void wrong_scheme(void **state) {
  (void)state;
  uint32_t len;
  uint8_t *job = make_job(1, &len), *f;
  size_t n;
  char why[256] = "";
  assert_int_equal(mon_frame_build(&key, MON_T_JOB, job, len, &f, &n, why, sizeof why), 0);
  f[12] = MON_MAC; /* "auth = 32": the HMAC bytes now pose as a credential */
  assert_int_equal(parse(f, n, why), -1);
  assert_non_null(strstr(why, "MUNGE credential, this side uses a shared key"));
  f[12] = 0;
  mon_key munge = {.munge = 1};
  assert_int_equal(mon_frame_parse(&munge, f, n, MON_MAX_DEFAULT, why, sizeof why), -1);
  assert_non_null(strstr(why, "HMAC-signed frame, this side uses MUNGE"));
  free(f);
  free(job);
}

/* Key specs: "munge" needs no file; a key file must be private. */
static void key_specs(void **state) {
  (void)state;
  mon_key k;
  char why[256] = "";
  int rc = mon_key_load(&k, "munge:/nonexistent/socket", why, sizeof why);
  if (mon_munge_available()) {
    assert_int_equal(rc, 0);
    assert_int_equal(k.munge, 1);
    assert_string_equal(k.munge_socket, "/nonexistent/socket");
    /* No munged there: building a frame fails with munge's reason. */
    uint8_t *f;
    size_t n;
    assert_int_equal(mon_frame_build(&k, MON_T_ACK, "x", 1, &f, &n, why, sizeof why), -1);
    assert_non_null(strstr(why, "munge"));
  } else {
    assert_int_equal(rc, -1);
    assert_non_null(strstr(why, "without MUNGE"));
  }
  assert_int_equal(mon_key_load(&k, "/nonexistent/key", why, sizeof why), -1);
  assert_non_null(strstr(why, "cannot open key file"));
}

/* augur_text_safe: controls, DEL, C1, invalid UTF-8 and the backslash
 * escaped; valid UTF-8 kept; cut only between whole characters. */
static void text_safe(void **state) {
  (void)state;
  char out[64];
  assert_string_equal(augur_text_safe("a\nb\x1b[2J\x7f\\", out, sizeof out),
                      "a\\x0ab\\x1b[2J\\x7f\\\\");
  /* é and € kept; C1 CSI (U+009B), a lone continuation byte, an overlong
   * '/', a surrogate and a truncated sequence escaped byte by byte. */
  assert_string_equal(augur_text_safe("\xc3\xa9\xe2\x82\xac", out, sizeof out),
                      "\xc3\xa9\xe2\x82\xac");
  assert_string_equal(augur_text_safe("\xc2\x9b", out, sizeof out), "\\xc2\\x9b");
  assert_string_equal(augur_text_safe("\x80\xc0\xaf", out, sizeof out), "\\x80\\xc0\\xaf");
  assert_string_equal(augur_text_safe("\xed\xa0\x80", out, sizeof out), "\\xed\\xa0\\x80");
  assert_string_equal(augur_text_safe("\xe2\x82", out, sizeof out), "\\xe2\\x82");
  /* Cut: never half an escape or half a character. */
  assert_string_equal(augur_text_safe("ab\x01", out, 6), "ab");
  assert_string_equal(augur_text_safe("a\xe2\x82\xac", out, 4), "a");
  assert_string_equal(augur_text_safe("abc", out, 1), "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(wrong_scheme),  cmocka_unit_test(key_specs), cmocka_unit_test(valid_frame),
      cmocka_unit_test(bad_signature), cmocka_unit_test(malformed), cmocka_unit_test(oversized),
      cmocka_unit_test(absurd_values), cmocka_unit_test(text_safe),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
