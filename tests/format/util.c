/* augur format tests — shared helpers. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "util.h"

#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

char *tu_tracedir(void) {
  const char *tmp = getenv("TMPDIR");
  char tmpl[4096];
  snprintf(tmpl, sizeof tmpl, "%s/augur-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  assert_non_null(mkdtemp(tmpl));
  char *dir = malloc(strlen(tmpl) + 16);
  assert_non_null(dir);
  sprintf(dir, "%s/t.augur", tmpl);
  return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

void tu_cleanup(char *dir) {
  if (!dir) return;
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0'; /* the mkdtemp parent */
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  free(dir);
}

void tu_meta(const char *dir, uint32_t nranks) {
  char *argv[] = {"./app", "-n", "3"};
  augur_trace_meta m = {.nranks = nranks,
                        .argc = 3,
                        .argv = argv,
                        .mpi_library = "MPICH",
                        .mpi_version = "MPICH Version: 4.0.2",
                        .recorder = "augur 0.1.0",
                        .start_unix_ns = 1763800000123456789ull,
                        .payload_hash = 1,
                        .complete = 1,
                        .counters_requested = NULL};
  augur_error err = {0};
  int rc = augur_meta_write(dir, &m, &err);
  if (rc) fail_msg("augur_meta_write: %s", err.msg);
}

const char *tu_rank_file(const char *dir, uint32_t rank, uint32_t nranks) {
  static char buf[4200];
  int width = 5;
  for (uint32_t m = nranks - 1, d = 1; m >= 10; m /= 10)
    if ((int)++d > width) width = (int)d;
  snprintf(buf, sizeof buf, "%s/rank-%0*u.evt", dir, width, rank);
  return buf;
}

augur_writer *tu_open_world(const char *dir, uint32_t rank, uint32_t nranks) {
  augur_error err;
  augur_writer *w;
  int32_t world[64];
  assert_true(nranks <= 64);
  for (uint32_t i = 0; i < nranks; i++)
    world[i] = (int32_t)i;
  if (augur_writer_open(&w, dir, rank, nranks, 0, &err)) fail_msg("%s", err.msg);
  augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = nranks, .members = world};
  if (augur_writer_def_comm(w, &cw, &err)) fail_msg("%s", err.msg);
  return w;
}

augur_event tu_ev(unsigned type, uint64_t t_start, uint64_t t_end) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = (uint16_t)type;
  e.t_start = t_start;
  e.t_end = t_end;
  e.peer = AUGUR_PEER_NONE;
  e.tag = AUGUR_TAG_NONE;
  return e;
}

augur_event tu_omp(unsigned type, uint32_t thread, uint64_t t) {
  augur_event e = tu_ev(type, t, t);
  e.thread = thread;
  return e;
}

augur_event *tu_read_rank(augur_trace *t, uint32_t rank, size_t *n, int *rc, augur_error *err) {
  augur_stream *s = NULL;
  *n = 0;
  *rc = augur_stream_rank(t, rank, &s, err);
  if (*rc) return NULL;
  return tu_read_stream(s, n, rc, err);
}

augur_event *tu_read_stream(augur_stream *s, size_t *n, int *rc, augur_error *err) {
  *n = 0;
  size_t cap = 1024;
  augur_event *v = malloc(cap * sizeof *v);
  assert_non_null(v);
  for (;;) {
    if (*n == cap) {
      cap *= 2;
      v = realloc(v, cap * sizeof *v);
      assert_non_null(v);
    }
    int k = augur_stream_next(s, &v[*n], err);
    if (k == 1) {
      (*n)++;
      continue;
    }
    *rc = k;
    break;
  }
  augur_stream_close(s);
  return v;
}

void tu_flip_byte(const char *file, uint64_t offset) {
  int fd = open(file, O_RDWR);
  assert_true(fd >= 0);
  unsigned char c;
  assert_int_equal(pread(fd, &c, 1, (off_t)offset), 1);
  c ^= 0x5a;
  assert_int_equal(pwrite(fd, &c, 1, (off_t)offset), 1);
  close(fd);
}

void tu_truncate(const char *file, uint64_t size) {
  assert_int_equal(truncate(file, (off_t)size), 0);
}

uint64_t tu_file_size(const char *file) {
  struct stat st;
  assert_int_equal(stat(file, &st), 0);
  return (uint64_t)st.st_size;
}

void tu_write_file(const char *file, const char *text) {
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

#define EQ(field)                                                                                  \
  do {                                                                                             \
    if (want->field != got->field)                                                                 \
      fail_msg("event %zu (%s): " #field " expected %llu, got %llu", index,                        \
               augur_event_name(want->type), (unsigned long long)want->field,                      \
               (unsigned long long)got->field);                                                    \
  } while (0)

void tu_assert_event_eq(const augur_event *want, const augur_event *got, size_t index) {
  EQ(type);
  EQ(t_start);
  EQ(t_end);
  EQ(bytes);
  EQ(bytes_recv);
  EQ(req);
  EQ(comm);
  EQ(hash);
  EQ(callsite);
  EQ(ctr[0]);
  EQ(ctr[1]);
  EQ(ctr[2]);
  EQ(ctr[3]);
  EQ(peer);
  EQ(tag);
  EQ(aux);
  EQ(flags);
  EQ(rank);
  EQ(thread);
}
