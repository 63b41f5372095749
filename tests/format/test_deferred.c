/* augur format tests — compression deferred to close
 * (augur_writer_defer_compression, the recorder's mode): the closed file is
 * byte for byte the file of a writer that compressed each block as it went;
 * a process that dies first leaves raw blocks the reader reads; a failed
 * compression at close is said, and leaves the raw file whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "format.h"
#include "util.h"

enum { NPOLL = 40000, NBARRIER = 40, NREC = NPOLL + NBARRIER, CHUNK = 8192 };

/* A polling loop (only the times move, as in the recorder's fast path) and a
 * few barriers after it. */
static augur_event *make_events(void) {
  augur_event *v = malloc(NREC * sizeof *v);
  assert_non_null(v);
  uint64_t t = 5000, s = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < NPOLL; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    t += 30 + (s >> 33) % 40;
    v[i] = tu_ev(AUGUR_EV_IPROBE, t, t + 20 + (s >> 45) % 60);
    t = v[i].t_end;
    v[i].comm = AUGUR_COMM_WORLD;
    v[i].peer = AUGUR_PEER_ANY;
    v[i].tag = 4242;
    v[i].callsite = 1 + i / 10000;
    v[i].flags = AUGUR_F_ANY_SOURCE | AUGUR_F_NOTDONE;
  }
  for (size_t i = NPOLL; i < NREC; i++) {
    v[i] = tu_ev(AUGUR_EV_BARRIER, t + 100 * i, t + 100 * i + 50);
    v[i].comm = AUGUR_COMM_WORLD;
  }
  return v;
}

/* Opens rank 0 of 1 in DIR (deferred or not) and writes V in the recorder's
 * buffer-sized calls, with definitions between them; returns the writer,
 * open. */
static augur_writer *write_events(const char *dir, const augur_event *v, int defer) {
  augur_writer *w = tu_open_world(dir, 0, 1);
  if (defer) augur_writer_defer_compression(w);
  augur_error err;
  augur_module_def m = {1, "/usr/bin/app"};
  assert_int_equal(augur_writer_def_module(w, &m, &err), 0);
  for (size_t i = 0; i < NREC; i += CHUNK) {
    if (i / 10000 < 5) {
      augur_callsite_def c = {(uint32_t)(1 + i / 10000), 1, 0x1000 + 16 * (i / 10000)};
      assert_int_equal(augur_writer_def_callsite(w, &c, &err), 0);
    }
    size_t n = NREC - i < CHUNK ? NREC - i : CHUNK;
    if (augur_writer_events(w, 0, v + i, n, &err)) fail_msg("events: %s", err.msg);
  }
  return w;
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long len = ftell(f);
  assert_true(len > 0);
  rewind(f);
  unsigned char *p = malloc((size_t)len);
  assert_non_null(p);
  assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  *n = (size_t)len;
  return p;
}

/* Events blocks of a rank file with codec zstd and raw, by their headers. */
static void count_codecs(const char *path, size_t *zstd, size_t *raw) {
  size_t n;
  unsigned char *p = slurp(path, &n);
  *zstd = *raw = 0;
  size_t at = AUG_FILEHDR_SIZE;
  while (at + AUG_BLKHDR_SIZE <= n) {
    aug_blkhdr h;
    char why[128];
    if (aug_blkhdr_unpack(p + at, &h, why, sizeof why)) fail_msg("block at %zu: %s", at, why);
    if (h.kind == AUG_BLK_EVENTS) ++*(h.codec == AUG_CODEC_ZSTD ? zstd : raw);
    at += AUG_BLKHDR_SIZE + h.stored_size;
  }
  assert_int_equal(at, n);
  free(p);
}

/* The trace in DIR holds exactly V. */
static void assert_reads_back(const char *dir, const augur_event *v) {
  augur_trace *tr;
  augur_error err;
  if (augur_trace_open(&tr, dir, &err)) fail_msg("open: %s", err.msg);
  int rc;
  size_t got;
  augur_event *out = tu_read_rank(tr, 0, &got, &rc, &err);
  if (rc) fail_msg("read: %s", err.msg);
  assert_int_equal(got, NREC);
  for (size_t i = 0; i < NREC; i++) {
    augur_event want = v[i];
    want.rank = 0;
    tu_assert_event_eq(&want, &out[i], i);
  }
  free(out);
  augur_trace_close(tr);
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void test_same_file(void **state) {
  (void)state;
  augur_event *v = make_events();
  char *now = tu_tracedir(), *later = tu_tracedir();
  tu_meta(now, 1);
  tu_meta(later, 1);
  augur_writer *a = write_events(now, v, 0), *b = write_events(later, v, 1);
  uint64_t zbytes = augur_writer_bytes(a), rawbytes = augur_writer_bytes(b);
  /* While the program runs the deferred file is raw, so larger: about 3 bytes
   * a record against about 1.3. */
  assert_true(rawbytes > zbytes + zbytes / 2);
  augur_error err;
  assert_int_equal(augur_writer_close(a, &err), 0);
  if (augur_writer_close(b, &err)) fail_msg("close: %s", err.msg);
  char pa[4096], pb[4096];
  snprintf(pa, sizeof pa, "%s", tu_rank_file(now, 0, 1));
  snprintf(pb, sizeof pb, "%s", tu_rank_file(later, 0, 1));
  size_t na, nb;
  unsigned char *fa = slurp(pa, &na), *fb = slurp(pb, &nb);
  assert_int_equal(na, zbytes);
  assert_int_equal(nb, na);
  assert_memory_equal(fa, fb, na);
  size_t z, r;
  count_codecs(pb, &z, &r);
  assert_true(z >= NPOLL / CHUNK);
  char part[4200];
  snprintf(part, sizeof part, "%s" AUGUR_WRITER_PART, pb);
  assert_false(exists(part));
  assert_reads_back(later, v);
  free(fa);
  free(fb);
  free(v);
  tu_cleanup(now);
  tu_cleanup(later);
}

/* The process ends without closing: its blocks are raw, all readable. */
static void test_died_before_close(void **state) {
  (void)state;
  augur_event *v = make_events();
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    augur_writer *w = write_events(dir, v, 1);
    augur_error err;
    _exit(augur_writer_flush(w, &err) == AUGUR_OK ? 0 : 1);
  }
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  size_t z, r;
  count_codecs(tu_rank_file(dir, 0, 1), &z, &r);
  assert_int_equal(z, 0);
  assert_true(r >= NPOLL / CHUNK);
  assert_reads_back(dir, v);
  free(v);
  tu_cleanup(dir);
}

/* The compressed copy cannot be made (its name is taken by a directory):
 * close says so, and the raw file stays whole. */
static void test_compress_fails(void **state) {
  (void)state;
  augur_event *v = make_events();
  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_writer *w = write_events(dir, v, 1);
  char part[4200];
  snprintf(part, sizeof part, "%s" AUGUR_WRITER_PART, tu_rank_file(dir, 0, 1));
  assert_int_equal(mkdir(part, 0755), 0);
  augur_error err;
  assert_int_not_equal(augur_writer_close(w, &err), 0);
  if (!strstr(err.msg, "compressing at close") || !strstr(err.msg, "uncompressed"))
    fail_msg("close said: %s", err.msg);
  assert_int_equal(rmdir(part), 0);
  size_t z, r;
  count_codecs(tu_rank_file(dir, 0, 1), &z, &r);
  assert_int_equal(z, 0);
  assert_reads_back(dir, v);
  free(v);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_file),
      cmocka_unit_test(test_died_before_close),
      cmocka_unit_test(test_compress_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
