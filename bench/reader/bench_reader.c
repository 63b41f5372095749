/* augur-bench-reader — size and speed of the trace format.
 *
 *   augur-bench-reader [--events N] [--runs R] [--json] [--keep DIR] [--omp] [TRACE.augur]
 *
 * Builds a synthetic halo-exchange trace (one rank, N records: Irecv, Irecv,
 * Isend, Isend, Waitall + 4 completions, Allreduce per iteration, jittery ns
 * timestamps) in a temp directory with the writer, and reports bytes/event on
 * disk, writer throughput and rank-stream reader throughput (median of R
 * runs), both in events per CPU second of one thread. --keep DIR writes the
 * synthetic trace to DIR (a NAME.augur path) and leaves it there. With a TRACE argument it also
 * reports that trace's figures. --omp writes as many OpenMP point records (kind-3 blocks, a
 * fork/join cycle after each call) as MPI records, on the same thread: the reader figure is
 * still the MPI rank stream's, to show what the OpenMP blocks cost an MPI analysis (bytes
 * then count both kinds). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "augur/reader.h"
#include "augur/writer.h"

/* CPU time of this thread: the figures are per core, and the machine may be
 * busy with other work (wall time would measure the neighbours). */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
/* mean +- spread ns, roughly normal (sum of three uniforms) */
static uint64_t jitter(uint64_t mean, uint64_t spread) {
  int64_t d = 0;
  for (int i = 0; i < 3; i++)
    d += (int64_t)(rnd() % (2 * spread + 1)) - (int64_t)spread;
  int64_t v = (int64_t)mean + d / 3;
  return v < 1 ? 1 : (uint64_t)v;
}

#define MPICH_REQ(slot) (0xac000000ull + (slot))

/* Fills buf with the next n records of the stencil pattern; state carries over. */
typedef struct gen {
  uint64_t t;
  uint64_t iter;
  int phase; /* record index within the 10-record iteration */
} gen;

static void emit(gen *g, augur_event *e) {
  static const int32_t tags[2] = {0, 1};
  memset(e, 0, sizeof *e);
  e->comm = AUGUR_COMM_WORLD;
  e->peer = AUGUR_PEER_NONE;
  e->tag = AUGUR_TAG_NONE;
  int32_t left = 3, right = 5;
  int p = g->phase;
  if (p <= 4 || p == 9) { /* a call: compute burst, then the call */
    uint64_t burst = p == 0 ? jitter(50000, 4000) : p == 9 ? jitter(2000, 400) : jitter(150, 60);
    g->t += burst;
    e->t_start = g->t;
  }
  switch (p) {
  case 0:
  case 1: /* Irecv left / right */
    e->type = AUGUR_EV_IRECV;
    e->peer = p == 0 ? left : right;
    e->tag = tags[p];
    e->bytes_recv = 8192;
    e->req = MPICH_REQ(p + (g->iter % 97 == 0 ? 8 : 0));
    e->callsite = 1 + (uint64_t)p;
    g->t += jitter(400, 150);
    break;
  case 2:
  case 3: /* Isend left / right */
    e->type = AUGUR_EV_ISEND;
    e->peer = p == 2 ? left : right;
    e->tag = tags[p - 2];
    e->bytes = 8192;
    e->req = MPICH_REQ(p);
    e->callsite = 1 + (uint64_t)p;
    g->t += jitter(900, 400);
    break;
  case 4: /* Waitall + 4 completions */
    e->type = AUGUR_EV_WAITALL;
    e->aux = 4;
    e->comm = 0;
    e->callsite = 5;
    g->t += jitter(6000, 5000);
    break;
  case 5:
  case 6:
  case 7:
  case 8: {
    int k = p - 5;
    e->type = AUGUR_EV_COMPLETION;
    e->comm = 0;
    e->aux = (uint32_t)k;
    e->req = MPICH_REQ(k + (k < 2 && g->iter % 97 == 0 ? 8 : 0));
    if (k < 2) {
      e->peer = k == 0 ? left : right;
      e->tag = tags[k];
      e->bytes_recv = 8192;
    }
    break;
  }
  case 9: /* Allreduce of one double */
    e->type = AUGUR_EV_ALLREDUCE;
    e->bytes = e->bytes_recv = 8;
    e->callsite = 6;
    g->t += jitter(15000, 10000);
    break;
  }
  if (p >= 5 && p <= 8)
    e->t_start = e->t_end = 0; /* sub-records: parent's times */
  else
    e->t_end = g->t;
  if (++g->phase == 10) g->phase = 0, g->iter++;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

/* Total size of the rank files (*.evt) of a trace directory. */
static uint64_t dir_bytes_evt(const char *dir) {
  uint64_t sum = 0;
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *de;
  char path[8192];
  while ((de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name);
    if (len < 4 || strcmp(de->d_name + len - 4, ".evt") != 0) continue;
    snprintf(path, sizeof path, "%.4000s/%.4000s", dir, de->d_name);
    struct stat st;
    if (stat(path, &st) == 0) sum += (uint64_t)st.st_size;
  }
  closedir(d);
  return sum;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Reads every rank stream of a trace once; returns seconds, *events counted. */
static int read_all(const char *path, double *secs, uint64_t *events, uint64_t *bytes) {
  augur_trace *t;
  augur_error err;
  double t0 = now();
  if (augur_trace_open(&t, path, &err)) {
    fprintf(stderr, "augur-bench-reader: %s\n", err.msg);
    return -1;
  }
  uint64_t n = 0, check = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    augur_stream *s;
    if (augur_stream_rank(t, r, &s, &err)) {
      fprintf(stderr, "augur-bench-reader: %s\n", err.msg);
      augur_trace_close(t);
      return -1;
    }
    augur_event e;
    int rc;
    while ((rc = augur_stream_next(s, &e, &err)) == 1) {
      n++;
      check += e.t_end; /* keep the loop honest */
    }
    augur_stream_close(s);
    if (rc < 0) fprintf(stderr, "augur-bench-reader: %s (continuing)\n", err.msg);
  }
  *secs = now() - t0;
  *events = n;
  *bytes = dir_bytes_evt(path);
  augur_trace_close(t);
  return check == 1 ? 1 : 0; /* practically never 1; forces the sum to be computed */
}

static int median_read(const char *path, int runs, double *rate, uint64_t *events,
                       uint64_t *bytes) {
  double v[64];
  if (runs > 64) runs = 64;
  for (int i = 0; i < runs; i++) {
    double s;
    if (read_all(path, &s, events, bytes) < 0) return -1;
    v[i] = (double)*events / s;
  }
  qsort(v, (size_t)runs, sizeof v[0], cmp_double);
  *rate = v[runs / 2];
  return 0;
}

int main(int argc, char **argv) {
  uint64_t n = 10000000;
  int runs = 5, json = 0, omp = 0;
  const char *trace = NULL, *keep = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--events") && i + 1 < argc)
      n = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (!strcmp(argv[i], "--omp"))
      omp = 1;
    else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
      keep = argv[++i];
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: augur-bench-reader [--events N] [--runs R] [--json] [--keep DIR] [--omp] "
             "[TRACE.augur]\n");
      return 0;
    } else if (argv[i][0] != '-' && !trace)
      trace = argv[i];
    else {
      fprintf(stderr, "augur-bench-reader: unknown argument '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  if (runs < 1) runs = 1;
  if (n < 10) n = 10;
  const char *tmp = getenv("TMPDIR");
  char base[4096], dir[4200];
  snprintf(base, sizeof base, "%s/augur-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(base)) {
    perror("augur-bench-reader: mkdtemp");
    return 1;
  }
  if (keep)
    snprintf(dir, sizeof dir, "%s", keep);
  else
    snprintf(dir, sizeof dir, "%s/stencil.augur", base);

  /* Write: buffers of 8192 records, as the recorder does. */
  augur_error err;
  augur_trace_meta meta = {.nranks = 1, .recorder = "augur-bench-reader", .complete = 1};
  augur_writer *w;
  if (augur_meta_write(dir, &meta, &err) || augur_writer_open(&w, dir, 0, 1, 0, &err)) {
    fprintf(stderr, "augur-bench-reader: %s\n", err.msg);
    return 1;
  }
  enum { BUF = 8192 };
  augur_event *buf = malloc(BUF * sizeof *buf), *obuf = omp ? malloc(BUF * sizeof *obuf) : NULL;
  gen g = {.t = 1000000000ull};
  augur_module_def mod = {1, "/usr/bin/stencil"};
  augur_writer_def_module(w, &mod, &err);
  for (uint32_t i = 1; i <= 6; i++) {
    augur_callsite_def cs = {i, 1, 0x1100 + 0x40 * i};
    augur_writer_def_callsite(w, &cs, &err);
  }
  double wsecs = 0;
  for (uint64_t done = 0; done < n;) {
    size_t k = 0;
    /* whole iterations only, so completions stay with their Waitall */
    while (k + 10 <= BUF && done + k < n) {
      do
        emit(&g, &buf[k++]);
      while (g.phase != 0 && done + k < n);
    }
    double t0 = now();
    if (augur_writer_events(w, 0, buf, k, &err)) {
      fprintf(stderr, "augur-bench-reader: %s\n", err.msg);
      return 1;
    }
    for (size_t i = 0; omp && i < k; i++) { /* one point record per MPI record, after it */
      static const unsigned cycle[4] = {AUGUR_EV_OMP_FORK, AUGUR_EV_OMP_ITASK_BEGIN,
                                        AUGUR_EV_OMP_ITASK_END, AUGUR_EV_OMP_JOIN};
      memset(&obuf[i], 0, sizeof obuf[i]);
      obuf[i].type = (uint16_t)cycle[i % 4];
      obuf[i].t_start = obuf[i].t_end = (buf[k - 1].t_end ? buf[k - 1].t_end : g.t) + 1 + i;
      obuf[i].req = g.iter;
    }
    if (omp && augur_writer_omp_events(w, 0, obuf, k, &err)) {
      fprintf(stderr, "augur-bench-reader: %s\n", err.msg);
      return 1;
    }
    wsecs += now() - t0;
    done += k;
  }
  double t0 = now();
  if (augur_writer_close(w, &err)) {
    fprintf(stderr, "augur-bench-reader: %s\n", err.msg);
    return 1;
  }
  wsecs += now() - t0;
  free(buf);
  free(obuf);

  double rate;
  uint64_t events, bytes;
  if (median_read(dir, runs, &rate, &events, &bytes)) return 1;
  double bpe = (double)bytes / (double)events;
  double wrate = (double)n / wsecs;

  double trate = 0, tbpe = 0;
  uint64_t tevents = 0, tbytes = 0;
  if (trace) {
    if (median_read(trace, runs, &trate, &tevents, &tbytes)) return 1;
    tbpe = tevents ? (double)tbytes / (double)tevents : 0;
  }
  nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);

  if (json) {
    printf("{\"synthetic\": {\"events\": %llu, \"bytes\": %llu, \"bytes_per_event\": %.3f, "
           "\"writer_events_per_s\": %.0f, \"reader_events_per_s\": %.0f, \"runs\": %d}",
           (unsigned long long)events, (unsigned long long)bytes, bpe, wrate, rate, runs);
    if (trace)
      printf(", \"trace\": {\"path\": \"%s\", \"events\": %llu, \"bytes\": %llu, "
             "\"bytes_per_event\": %.3f, \"reader_events_per_s\": %.0f}",
             trace, (unsigned long long)tevents, (unsigned long long)tbytes, tbpe, trate);
    printf("}\n");
    return 0;
  }
  printf("%-34s %12llu\n", "synthetic stencil events", (unsigned long long)events);
  printf("%-34s %12.3f\n", "bytes/event on disk", bpe);
  printf("%-34s %12.2f M events/s\n", "writer throughput", wrate / 1e6);
  printf("%-34s %12.2f M events/s (median of %d)\n", "reader throughput (rank stream)", rate / 1e6,
         runs);
  if (trace) {
    printf("%-34s %12llu\n", "trace events", (unsigned long long)tevents);
    printf("%-34s %12.3f\n", "trace bytes/event on disk", tbpe);
    printf("%-34s %12.2f M events/s (median of %d)\n", "trace reader throughput", trate / 1e6,
           runs);
  }
  return 0;
}
