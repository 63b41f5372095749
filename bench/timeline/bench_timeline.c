/* augur-bench-timeline — how fast and how big `augur timeline` is on a large,
 * many-rank trace with many messages.
 *
 *   augur-bench-timeline [--events N] [--ranks R] [--width PX] [--keep DIR]
 *
 * Writes a synthetic trace (R ranks, N events in all: per iteration each rank
 * posts Irecv from its left neighbour, Isend to its right one, Waitall with
 * two completions, Allreduce), then builds the timeline of the whole run and
 * writes the HTML page, and prints events/s of the build and the page size.
 * Deterministic (fixed seed). --keep DIR keeps the trace there. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "augur/timeline.h"
#include "augur/writer.h"

/* CPU seconds of the process: the machine may be busy with other work, and
 * wall time would measure the neighbours. Wall time is printed too. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(uint64_t mod) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng % mod;
}

static augur_event call(unsigned type, uint64_t t0, uint64_t t1, int32_t peer, int32_t tag,
                        uint64_t req) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = (uint16_t)type;
  e.t_start = t0;
  e.t_end = t1;
  e.peer = peer;
  e.tag = tag;
  e.req = req;
  e.comm = type == AUGUR_EV_WAITALL ? AUGUR_COMM_NONE : AUGUR_COMM_WORLD;
  return e;
}

static int write_rank(const char *dir, uint32_t rank, uint32_t nranks, uint64_t iters,
                      int32_t *members, augur_error *err) {
  augur_writer *w;
  if (augur_writer_open(&w, dir, rank, nranks, 0, err)) return -1;
  augur_rank_def rd = {
      .rank = rank, .nranks = nranks, .host = "bench", .thread_level = -1, .init_ns = 1000};
  augur_comm_def world = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = nranks, .members = members};
  if (augur_writer_def_rank(w, &rd, err) || augur_writer_def_comm(w, &world, err)) return -1;
  enum { PER = 6, BUF = 8190 };
  augur_event *buf = malloc(BUF * sizeof *buf);
  if (!buf) return -1;
  int32_t left = (int32_t)((rank + nranks - 1) % nranks), right = (int32_t)((rank + 1) % nranks);
  size_t k = 0;
  for (uint64_t i = 0; i < iters; i++) {
    uint64_t t = 1000 + i * 50000 + rnd(3000); /* 50 us iterations, jittery start */
    uint64_t wend = t + 4000 + rnd(8000);
    buf[k++] = call(AUGUR_EV_IRECV, t, t + 300, left, 0, 0xA1);
    buf[k++] = call(AUGUR_EV_ISEND, t + 500, t + 900, right, 0, 0xA2);
    augur_event wa = call(AUGUR_EV_WAITALL, t + 1200, wend, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0);
    wa.aux = 2;
    buf[k++] = wa;
    augur_event c0 = call(AUGUR_EV_COMPLETION, 0, 0, left, 0, 0xA1);
    c0.comm = 0, c0.bytes_recv = 4096;
    augur_event c1 = call(AUGUR_EV_COMPLETION, 0, 0, AUGUR_PEER_NONE, AUGUR_TAG_NONE, 0xA2);
    c1.comm = 0, c1.aux = 1;
    buf[k++] = c0;
    buf[k++] = c1;
    buf[k++] = call(AUGUR_EV_ALLREDUCE, t + 30000, t + 38000 + rnd(4000), AUGUR_PEER_NONE,
                    AUGUR_TAG_NONE, 0);
    if (k + PER > BUF || i + 1 == iters) {
      if (augur_writer_events(w, 0, buf, k, err)) return -1;
      k = 0;
    }
  }
  free(buf);
  return augur_writer_close(w, err);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

int main(int argc, char **argv) {
  uint64_t n = 10000000;
  uint32_t nranks = 16, width = 1600;
  const char *keep = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--events") && i + 1 < argc)
      n = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--ranks") && i + 1 < argc)
      nranks = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--width") && i + 1 < argc)
      width = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
      keep = argv[++i];
    else {
      printf("usage: augur-bench-timeline [--events N] [--ranks R] [--width PX] [--keep DIR]\n");
      return strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  if (nranks < 2) nranks = 2;
  uint64_t iters = n / nranks / 6;
  if (iters < 1) iters = 1;
  char base[4096] = "", dir[4200];
  if (keep)
    snprintf(dir, sizeof dir, "%s", keep);
  else {
    const char *tmp = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/augur-bench-tl-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base)) return perror("mkdtemp"), 1;
    snprintf(dir, sizeof dir, "%s/ring.augur", base);
  }
  augur_error err = {0};
  augur_trace_meta meta = {.nranks = nranks, .recorder = "augur-bench-timeline", .complete = 1};
  int32_t *members = malloc(nranks * sizeof *members);
  for (uint32_t r = 0; r < nranks; r++)
    members[r] = (int32_t)r;
  double t0 = now();
  if (augur_meta_write(dir, &meta, &err)) goto fail;
  for (uint32_t r = 0; r < nranks; r++)
    if (write_rank(dir, r, nranks, iters, members, &err)) goto fail;
  double t_write = now() - t0;

  augur_trace *t;
  if (augur_trace_open(&t, dir, &err)) goto fail;
  augur_timeline *tl;
  augur_tl_options o = {.width = width};
  t0 = now();
  double w0 = wall();
  if (augur_timeline_build(&tl, t, &o, &err)) goto fail;
  double t_build = now() - t0, w_build = wall() - w0;
  char *page = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&page, &len);
  t0 = now();
  if (!f || augur_timeline_write_html(tl, f, "bench", &err)) goto fail;
  fclose(f);
  double t_html = now() - t0;
  augur_tl_summary s;
  augur_timeline_summary(tl, &s);
  printf("ranks %u, events %llu (written in %.2f s)\n", nranks, (unsigned long long)s.events,
         t_write);
  printf("timeline build    %.3f s CPU (%.3f s wall), %.1f M events/CPU s\n", t_build, w_build,
         s.events / t_build / 1e6);
  printf("html write        %.3f s, %zu bytes (%s states, %llu of %llu messages drawn)\n", t_html,
         len, s.exact ? "exact" : "aggregated", (unsigned long long)s.messages_drawn,
         (unsigned long long)s.messages);
  free(page);
  augur_timeline_free(tl);
  augur_trace_close(t);
  free(members);
  if (!keep) nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  return 0;
fail:
  fprintf(stderr, "augur-bench-timeline: %s\n", err.msg);
  return 1;
}
