/* augur-bench-phases — speed and memory of the PAS2P analysis.
 *
 *   augur-bench-phases [--ranks R] [--iters N] [--json] [--keep DIR]
 *
 * Writes a synthetic trace with the writer: R ranks on a ring, N iterations
 * of a halo exchange (Irecv x2, Isend x2, Waitall + 4 completions, Allreduce:
 * 10 records, 6 calls per rank), with a Bcast every 100 iterations so the
 * detector has two phases to find. Then, on one thread, it times (CPU time):
 *   read     the merged stream alone (the reader's share),
 *   match    the merged stream through the shared matcher (reader + matcher),
 *   build    augur_logical_build (read + match + logical time),
 *   detect   augur_phases_detect (global mode),
 *   irregular augur_phases_detect in irregular mode (characteristic
 *            communicator, per-rank stretches, K-means), after the rest,
 * and reports records and calls per CPU second and the process's peak RSS.
 * It also reports the kernel's share of build + detect (system CPU time,
 * nearly all of it first touches of fresh pages: on a VM each can cost far
 * more than the work done on the page) and the page faults taken. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "augur/match.h"
#include "augur/phases.h"
#include "augur/writer.h"

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* System CPU seconds and minor page faults of the process so far. */
static double sys_now(long *minflt) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  *minflt = ru.ru_minflt;
  return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static long peak_rss_kib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

#define RECV_REQ(k) (0xac000000ull + (k))
#define SEND_REQ(k) (0x6c000000ull + (k))

/* The records of one iteration of rank R into E (returns how many). */
static size_t iteration(augur_event *e, uint32_t r, uint32_t nranks, uint64_t it) {
  int32_t left = (int32_t)((r + nranks - 1) % nranks), right = (int32_t)((r + 1) % nranks);
  uint64_t t = 1000 + it * 20000 + r * 7; /* a few ns of skew between ranks */
  size_t n = 0;
  memset(e, 0, 12 * sizeof *e);
  for (int k = 0; k < 2; k++) { /* Irecv from left (tag 0), right (tag 1) */
    augur_event *x = &e[n++];
    x->type = AUGUR_EV_IRECV, x->t_start = t + 100 + 50 * (uint64_t)k, x->t_end = x->t_start + 20;
    x->comm = AUGUR_COMM_WORLD, x->peer = k ? right : left, x->tag = k;
    x->bytes_recv = 8192, x->req = RECV_REQ(k), x->callsite = 1 + (uint64_t)k;
  }
  for (int k = 0; k < 2; k++) { /* Isend to right (tag 0), left (tag 1) */
    augur_event *x = &e[n++];
    x->type = AUGUR_EV_ISEND, x->t_start = t + 300 + 50 * (uint64_t)k, x->t_end = x->t_start + 20;
    x->comm = AUGUR_COMM_WORLD, x->peer = k ? left : right, x->tag = k;
    x->bytes = 8192, x->req = SEND_REQ(k), x->callsite = 3 + (uint64_t)k;
  }
  augur_event *w = &e[n++];
  w->type = AUGUR_EV_WAITALL, w->t_start = t + 500, w->t_end = t + 2000, w->aux = 4;
  w->peer = AUGUR_PEER_NONE, w->tag = AUGUR_TAG_NONE, w->callsite = 5;
  for (int k = 0; k < 4; k++) {
    augur_event *c = &e[n++];
    c->type = AUGUR_EV_COMPLETION, c->aux = (uint32_t)k;
    c->req = k < 2 ? RECV_REQ(k) : SEND_REQ(k - 2);
    c->peer = k == 0 ? left : k == 1 ? right : AUGUR_PEER_NONE;
    c->tag = k < 2 ? k : AUGUR_TAG_NONE;
    c->bytes_recv = k < 2 ? 8192 : 0;
  }
  augur_event *a = &e[n++];
  a->type = it % 100 == 99 ? AUGUR_EV_BCAST : AUGUR_EV_ALLREDUCE;
  a->t_start = t - r * 7 + 15000, a->t_end = a->t_start + 1000;
  a->comm = AUGUR_COMM_WORLD, a->peer = AUGUR_PEER_NONE, a->tag = AUGUR_TAG_NONE;
  a->bytes = a->bytes_recv = 8, a->callsite = a->type == AUGUR_EV_BCAST ? 7 : 6;
  return n;
}

static int write_trace(const char *dir, uint32_t nranks, uint64_t iters) {
  char *argv[] = {"synthetic"};
  augur_trace_meta meta = {.nranks = nranks,
                           .argc = 1,
                           .argv = argv,
                           .mpi_library = "MPICH",
                           .mpi_version = "synthetic",
                           .recorder = "augur-bench-phases",
                           .complete = 1};
  augur_error err;
  if (augur_meta_write(dir, &meta, &err)) goto fail;
  int32_t *world = malloc(nranks * sizeof *world);
  size_t cap = 4096 * 10;
  augur_event *buf = malloc((cap + 12) * sizeof *buf);
  if (!world || !buf) {
    fprintf(stderr, "augur-bench-phases: out of memory\n");
    return -1;
  }
  for (uint32_t r = 0; r < nranks; r++)
    world[r] = (int32_t)r;
  for (uint32_t r = 0; r < nranks; r++) {
    augur_writer *w;
    if (augur_writer_open(&w, dir, r, nranks, 1, &err)) goto fail;
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = nranks, .members = world};
    augur_module_def md = {.id = 1, .path = "/synthetic/app"};
    if (augur_writer_def_comm(w, &cw, &err) || augur_writer_def_module(w, &md, &err)) goto fail;
    for (uint32_t k = 1; k <= 7; k++) {
      augur_callsite_def cd = {.id = k, .module = 1, .offset = 0x1000 + 16 * k};
      if (augur_writer_def_callsite(w, &cd, &err)) goto fail;
    }
    size_t n = 0;
    for (uint64_t it = 0; it < iters; it++) {
      n += iteration(buf + n, r, nranks, it);
      if (n >= cap || it + 1 == iters) {
        if (augur_writer_events(w, 0, buf, n, &err)) goto fail;
        n = 0;
      }
    }
    if (augur_writer_close(w, &err)) goto fail;
  }
  free(world);
  free(buf);
  return 0;
fail:
  fprintf(stderr, "augur-bench-phases: %s\n", err.msg);
  return -1;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static int count_msg(void *ctx, const augur_message *msg) {
  (void)msg;
  ++*(uint64_t *)ctx;
  return AUGUR_OK;
}
static int count_coll(void *ctx, const augur_coll_instance *c) {
  (void)c;
  ++*(uint64_t *)ctx;
  return AUGUR_OK;
}

int main(int argc, char **argv) {
  uint32_t nranks = 4;
  uint64_t iters = 100000;
  int json = 0;
  const char *keep = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--ranks") && i + 1 < argc)
      nranks = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
      iters = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
      keep = argv[++i];
    else if (!strcmp(argv[i], "--json"))
      json = 1;
    else {
      fprintf(stderr, "usage: augur-bench-phases [--ranks R] [--iters N] [--json] [--keep DIR]\n");
      return 2;
    }
  }
  if (nranks < 2 || iters < 1) {
    fprintf(stderr, "augur-bench-phases: need --ranks >= 2 and --iters >= 1\n");
    return 2;
  }
  char tmp[4096], dir[4200];
  if (keep) {
    snprintf(dir, sizeof dir, "%s", keep);
  } else {
    const char *td = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/augur-bench-phases-XXXXXX", td && *td ? td : "/tmp");
    if (!mkdtemp(tmp)) {
      perror("mkdtemp");
      return 1;
    }
    snprintf(dir, sizeof dir, "%s/t.augur", tmp);
  }
  if (write_trace(dir, nranks, iters)) return 1;
  long rss_written = peak_rss_kib();

  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, dir, &err)) {
    fprintf(stderr, "augur-bench-phases: %s\n", err.msg);
    return 1;
  }
  /* The reader's share: the merged stream alone. */
  double t0 = cpu_now();
  augur_stream *s;
  uint64_t records = 0;
  augur_event ev;
  if (augur_stream_merged(t, &s, &err)) {
    fprintf(stderr, "augur-bench-phases: %s\n", err.msg);
    return 1;
  }
  while (augur_stream_next(s, &ev, &err) == 1)
    records++;
  augur_stream_close(s);
  double t_read = cpu_now() - t0;

  t0 = cpu_now();
  uint64_t cb = 0;
  augur_matcher *m = augur_matcher_new(t, count_msg, count_coll, &cb);
  if (!m || augur_stream_merged(t, &s, &err)) {
    fprintf(stderr, "augur-bench-phases: cannot match\n");
    return 1;
  }
  while (augur_stream_next(s, &ev, &err) == 1)
    augur_match_feed(m, &ev, &err);
  augur_stream_close(s);
  augur_matcher_free(m);
  double t_match = cpu_now() - t0;

  long flt0, flt1;
  double sys0 = sys_now(&flt0);
  t0 = cpu_now();
  augur_logical *lg;
  if (augur_logical_build(t, &lg, &err)) {
    fprintf(stderr, "augur-bench-phases: %s\n", err.msg);
    return 1;
  }
  double t_build = cpu_now() - t0;
  long rss_built = peak_rss_kib();
  t0 = cpu_now();
  augur_phases *p;
  if (augur_phases_detect(lg, NULL, &p, &err)) {
    fprintf(stderr, "augur-bench-phases: %s\n", err.msg);
    return 1;
  }
  double t_detect = cpu_now() - t0;
  double t_sys = sys_now(&flt1) - sys0; /* build + detect */
  long rss_peak = peak_rss_kib();
  augur_phase_opts io;
  augur_phase_opts_default(&io);
  io.mode = AUGUR_PHASES_IRREGULAR;
  t0 = cpu_now();
  augur_phases *ip;
  if (augur_phases_detect(lg, &io, &ip, &err)) {
    fprintf(stderr, "augur-bench-phases: irregular mode: %s\n", err.msg);
    return 1;
  }
  double t_irr = cpu_now() - t0;
  uint32_t irr_phases = ip->nphases;
  augur_phases_free(ip);
  uint64_t w_main = 0;
  for (uint32_t i = 0; i < p->nphases; i++)
    if (p->phase[i].weight > w_main) w_main = p->phase[i].weight;
  double calls = (double)lg->nevents;
  double own = t_build - t_match + t_detect; /* the analysis' own work */
  if (own < 1e-6) own = 1e-6;
  double user = t_build + t_detect - t_sys; /* end to end without the kernel's page faults */
  if (user < 1e-6) user = 1e-6;
  double rss_per_call = (double)(rss_peak - rss_written) * 1024 / calls;
  if (json)
    printf("{\"ranks\": %u, \"iterations\": %llu, \"records\": %llu, \"calls\": %llu, "
           "\"read_s\": %.4f, \"match_s\": %.4f, \"build_s\": %.4f, \"detect_s\": %.4f, "
           "\"records_per_s\": %.0f, \"own_records_per_s\": %.0f, \"peak_rss_kib\": %ld, "
           "\"rss_after_write_kib\": %ld, \"rss_after_build_kib\": %ld, "
           "\"rss_bytes_per_call\": %.1f, \"phases\": %u, \"main_weight\": %llu, "
           "\"forced\": %llu, \"irregular_s\": %.4f, \"irregular_phases\": %u, "
           "\"sys_s\": %.4f, \"page_faults\": %ld, \"user_records_per_s\": %.0f}\n",
           nranks, (unsigned long long)iters, (unsigned long long)records,
           (unsigned long long)lg->nevents, t_read, t_match, t_build, t_detect,
           (double)records / (t_build + t_detect), (double)records / own, rss_peak, rss_written,
           rss_built, rss_per_call, p->nphases, (unsigned long long)w_main,
           (unsigned long long)lg->forced, t_irr, irr_phases, t_sys, flt1 - flt0,
           (double)records / user);
  else
    printf("%u ranks x %llu iterations: %llu records (%llu calls)\n"
           "  CPU s: read %.3f, read+match %.3f, build %.3f, detect %.3f\n"
           "  end to end %.1f M records/s; the analysis' own work (build - match + detect) "
           "%.1f M records/s\n"
           "  peak RSS %ld KiB, %.1f bytes/call over the writer's; %u phases, main weight %llu\n"
           "  irregular mode: %.3f CPU s, %u global phases\n"
           "  build + detect: %.3f s in the kernel, %ld page faults; without them %.1f M "
           "records/s\n",
           nranks, (unsigned long long)iters, (unsigned long long)records,
           (unsigned long long)lg->nevents, t_read, t_match, t_build, t_detect,
           (double)records / (t_build + t_detect) * 1e-6, (double)records / own * 1e-6, rss_peak,
           rss_per_call, p->nphases, (unsigned long long)w_main, t_irr, irr_phases, t_sys,
           flt1 - flt0, (double)records / user * 1e-6);
  augur_phases_free(p);
  augur_logical_free(lg);
  augur_trace_close(t);
  if (!keep) nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  return 0;
}
