/* What the commands of augur-parallel-<flavour> share (par.h). */
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "par.h"

void par_quiet(int on) {
  static int saved[2] = {-1, -1};
  fflush(stdout);
  fflush(stderr);
  for (int fd = 1; fd <= 2; fd++) {
    if (on && saved[fd - 1] < 0) {
      int null = open("/dev/null", O_WRONLY);
      if (null < 0) continue; /* then this rank says it too: noisy, not wrong */
      saved[fd - 1] = dup(fd);
      dup2(null, fd);
      close(null);
    } else if (!on && saved[fd - 1] >= 0) {
      dup2(saved[fd - 1], fd);
      close(saved[fd - 1]);
      saved[fd - 1] = -1;
    }
  }
}

int par_max(int v) {
  int out = v;
  MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

int par_open(const char *path, augur_trace **t) {
  int me = 0, m = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  *t = NULL;
  par_time(NULL);
  if (me) par_quiet(1);
  int rc = cli_open_trace(path, t);
  if (rc == CLI_OK && (uint64_t)m > augur_trace_nranks(*t))
    rc = cli_usage("--parallel: %d analysis ranks for a trace of %u rank%s: each analysis "
                   "rank reads a block of at least one rank (mpiexec -n M with M <= %u)",
                   m, augur_trace_nranks(*t), augur_trace_nranks(*t) == 1 ? "" : "s",
                   augur_trace_nranks(*t));
  if (me) par_quiet(0);
  rc = par_max(rc); /* the same trace on every analysis rank: one answer */
  par_time("open");
  if (rc != CLI_OK && *t) {
    augur_trace_close(*t);
    *t = NULL;
  }
  return rc;
}

void par_block(const augur_trace *t, int me, int m, uint32_t *lo, uint32_t *hi) {
  uint32_t n = augur_trace_nranks(t);
  uint64_t total = augur_trace_total_events(t);
  /* Cut k (1..m-1) is the first rank before which at least k/m of the
   * records lie, moved so that every block keeps a rank: after cut k-1,
   * and leaving one rank for each block after it. */
  uint64_t before = 0;
  uint32_t r = 0, prev = 0;
  *lo = 0;
  *hi = n;
  for (int k = 1; k < m && k <= me + 1; k++) {
    while (r < n && before * (uint64_t)m < (uint64_t)k * total)
      before += augur_trace_nevents(t, r++);
    uint32_t c = r < n - (uint32_t)(m - k) ? r : n - (uint32_t)(m - k);
    if (c <= prev) c = prev + 1;
    if (k == me) *lo = c;
    if (k == me + 1) *hi = c;
    prev = c;
  }
}

void par_nap(long *ns) {
  nanosleep(&(struct timespec){0, *ns}, NULL);
  if (*ns < 10000000) *ns *= 2; /* 100 us doubling to 10 ms: few wake-ups in a long wait */
}

void par_wait(MPI_Request *req) {
  int done = 0;
  long ns = 100000;
  MPI_Test(req, &done, MPI_STATUS_IGNORE);
  while (!done) {
    par_nap(&ns);
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
  }
}

static double seconds(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int par_times_on(void) {
  const char *e = getenv("AUGUR_PARALLEL_TIMES");
  return e && *e == '1';
}

void par_time(const char *step) {
  static int on = -1;
  static double wall0, cpu0;
  if (on < 0) {
    on = par_times_on();
    wall0 = seconds(CLOCK_MONOTONIC);
    cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
  }
  if (!on || !step) return;
  double wall = seconds(CLOCK_MONOTONIC), cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  fprintf(stderr, "augur-parallel: rank %d %-8s wall %.3f cpu %.3f\n", me, step, wall - wall0,
          cpu - cpu0);
  wall0 = wall;
  cpu0 = cpu;
}

void par_send_blob(unsigned char *buf, size_t n, int to, int tag) {
  if (!buf || n > INT_MAX) n = 0;
  MPI_Request req;
  MPI_Isend(buf, (int)n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req);
  par_wait(&req);
  free(buf);
}

int par_recv_blob(int from, int tag, unsigned char **buf, int *n) {
  MPI_Status st;
  int there = 0;
  long ns = 100000;
  for (;;) { /* MPI_Probe would spin a CPU */
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &there, &st);
    if (there) break;
    par_nap(&ns);
  }
  MPI_Get_count(&st, MPI_BYTE, n);
  *buf = malloc(*n > 0 ? (size_t)*n : 1);
  MPI_Recv(*buf ? *buf : (unsigned char *)&there, *buf ? *n : 0, MPI_BYTE, from, tag,
           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (!*buf) return cli_fail("--parallel: out of memory receiving from analysis rank %d", from);
  if (*n <= 0) {
    free(*buf);
    *buf = NULL; /* it failed, and said why */
    return cli_fail("--parallel: analysis rank %d sent no report (see its message above)", from);
  }
  return CLI_OK;
}

int par_tree(int base, int rc, int (*take)(void *ctx, int from),
             void (*give)(void *ctx, int ok, int to), void *ctx) {
  int me = 0, m = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &m);
  /* At step s, ranks whose index (from BASE) is a multiple of 2s take
   * what rank + s holds; the others hand theirs over and are done. A rank
   * that failed still takes part (its empty message fails the merge), so
   * nobody waits forever. */
  for (int s = 1; s < m - base; s *= 2) {
    if ((me - base) % (2 * s)) {
      give(ctx, rc == CLI_OK, me - s);
      break;
    }
    if (me + s < m) {
      int r2 = take(ctx, me + s);
      if (rc == CLI_OK) rc = r2;
    }
  }
  return rc;
}

int par_done(int rc) {
  MPI_Request req;
  MPI_Ibcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  par_wait(&req);
  par_time("done");
  return rc;
}
