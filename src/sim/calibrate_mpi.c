/* augur-calibrate-<flavour>: measures this machine for `augur calibrate`.
 * Run with 2 ranks. Rank 0 prints one "key value" line per figure on
 * stdout (seconds, bytes/s):
 *   overhead S          cost of one MPI call that does nothing (MPI_Iprobe)
 *   sendcost S          median MPI_Send of <= 64 bytes (eager: it does not wait)
 *   pingpong BYTES M B A  half round trip: median, best, mean of the repetitions
 *   latency M A         median of the sizes' medians and mean of their means, sizes <= 1 KiB
 *   bandwidth B         bytes/s between 1 and 4 MiB (best times: the slope)
 *                       (the ping-pongs go on to 16 and 64 MiB: messages
 *                       larger than the caches, docs/simulate.md "Large
 *                       messages")
 *   allreduce8 S        an 8-byte MPI_Allreduce, mean
 *   ringstep S          one step of a 1-byte ring exchange over all ranks, mean
 *   barrier S           MPI_Barrier, mean
 *   flops F             a dependent multiply-add loop, per second
 *   freshbuf S          s per MiB a receive into a new buffer costs more than
 *                       into a used one (pages already in memory)
 *   firsttouch S        s per MiB more when the new buffer's pages are not
 *                       in memory yet (docs/simulate.md "First receive into
 *                       a buffer")
 *   eager B             the largest MPI_Send (bytes, up to 4 MiB) that returns
 *                       before its receiver posts the receive; -1: none does
 *   quantum S           the scheduler's time slice: the half round trip of
 *                       a ping-pong with ranks 0 and 1 on one CPU, their
 *                       autogroups at nice -20 (a rank polls until the
 *                       kernel preempts it); without that privilege rank
 *                       0's CPU time per turn (schedstat); left out when
 *                       the ranks cannot be pinned
 *   turn S              that ping-pong's half round trip (other work's turns
 *                       included)
 * With more ranks than cores the medians include the operating system's
 * scheduling of polling processes: that is what such runs pay per message.
 * The ping-pongs run with ranks 0 and 1 pinned to two CPUs (pin_pair), so
 * that their best times are what a message costs while both run. */
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

void calib_iorma(int rank, int size, char *buf);

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Half round trips between ranks 0 and 1; the other ranks wait in the
 * barrier that follows, polling like the ranks of a real application do.
 * Returns the median and sets *best to the minimum and *mean to the mean
 * (what a run pays on average, scheduling included when ranks outnumber
 * cores: then a message costs either nothing extra or a time slice). */
static double send_cost[64 * 16]; /* rank 0's MPI_Send calls of small messages */
static int nsend_cost;

static double pingpong(int rank, char *buf, int bytes, int reps, double *best, double *mean) {
  double t[64];
  if (reps > 64) reps = 64;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int r = 0; r < reps; r++) {
    double t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      if (bytes <= 64 && nsend_cost < 64 * 16) send_cost[nsend_cost++] = MPI_Wtime() - t0;
      MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
    t[r] = (MPI_Wtime() - t0) / 2;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  *best = t[0];
  *mean = 0;
  for (int r = 0; r < reps; r++)
    *mean += t[r] / reps;
  return t[reps / 2];
}

/* The thread's CPU time (ns) and how many times it got a CPU, from
 * /proc/thread-self/schedstat ("cpu_ns run_delay_ns slices"); 0 when not
 * readable. */
static int schedstat(unsigned long long *cpu, unsigned long long *slices) {
  FILE *f = fopen("/proc/thread-self/schedstat", "r");
  unsigned long long delay;
  int ok = f && fscanf(f, "%llu %llu %llu", cpu, &delay, slices) == 3;
  if (f) fclose(f);
  return ok;
}

/* Rank 0 sends BYTES to rank 1, which receives them into a buffer: the
 * used one (WARM), a new one it wrote first, or a new one never touched
 * (mmap'd, unmapped after). Returns the median round trip (the reply is one
 * byte) on rank 0. */
enum { BUF_WARM, BUF_NEW, BUF_UNTOUCHED };
static double fresh_recv(int rank, char *warm, int bytes, int kind) {
  double t[7];
  int reps = 7, ok = 1;
  for (int r = 0; r < reps; r++) {
    char c = 0;
    if (rank == 0) {
      MPI_Recv(&c, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* rank 1 is ready */
      double t0 = MPI_Wtime();
      MPI_Send(warm, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&c, 1, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      t[r] = MPI_Wtime() - t0;
    } else if (rank == 1) {
      char *b = warm;
      if (kind != BUF_WARM) {
        b = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (b == MAP_FAILED) {
          b = warm;
          ok = 0;
        } else if (kind == BUF_NEW) {
          memset(b, 1, (size_t)bytes);
        }
      }
      MPI_Send(&c, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      MPI_Recv(b, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&c, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      if (b != warm) munmap(b, (size_t)bytes);
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 1, MPI_COMM_WORLD);
  if (!ok) return -1;
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  return t[reps / 2];
}

/* The extra costs per MiB of receiving into a new buffer, and into one whose
 * pages are not in memory yet (what the first touch of each page costs). */
static void fresh_costs(int rank, char *warm, int bytes) {
  double w = fresh_recv(rank, warm, bytes, BUF_WARM);
  double n = fresh_recv(rank, warm, bytes, BUF_NEW);
  double u = fresh_recv(rank, warm, bytes, BUF_UNTOUCHED);
  if (rank != 0 || w < 0 || n < 0 || u < 0) return;
  double mib = bytes / (1024.0 * 1024.0);
  printf("freshbuf %.9g\nfirsttouch %.9g\n", n > w ? (n - w) / mib : 0, u > n ? (u - n) / mib : 0);
}

/* The host's monotonic clock: the two ranks' readings compare. */
static double mono(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 1 if rank 0's MPI_Send of BYTES returns while rank 1, out of MPI, has not
 * posted its receive (eager), 0 if it waits for it (rendezvous): the send
 * returned before rank 1 posted, on the host's clock. The pair shares one
 * CPU here (pinned for the slice), so rank 1's HOLD passes partly while
 * rank 0 waits for the CPU: a send that returned within hold / 2 of its
 * start (the test before) had often found the receive posted, and the
 * limit read 10313 to 4194304 bytes for MPICH's 8192 at load 13 (issue
 * 21). A try where rank 0 started its send only after rank 1 had posted
 * tells nothing (at load 23 every try of 0 bytes did): it is tried again
 * with a longer hold, up to 8 tries. Both ranks return rank 0's verdict. */
static int send_is_eager(int rank, char *buf, int bytes) {
  int eager = -1; /* -1: no try told */
  for (int k = 0; k < 8 && eager < 0; k++) {
    const double hold = 0.01 * (1 << (k < 3 ? k : 3)); /* rank 1 posts its receive this late */
    char c = 0;
    double posted = 0;
    if (rank == 0) {
      MPI_Recv(&c, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* rank 1 is ready */
      double start = mono();
      MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      double ret = mono();
      MPI_Recv(&posted, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (start < posted)
        eager = ret < posted;
      else if (k == 7)
        eager = ret - start < hold / 2; /* as before: the send's duration */
    } else if (rank == 1) {
      MPI_Send(&c, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      for (double t0 = mono(); mono() - t0 < hold;)
        ;
      posted = mono();
      MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&posted, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
    }
    if (rank == 0) MPI_Send(&eager, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(&eager, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return eager > 0;
}

/* The eager limit: the largest message MPI_Send hands off without waiting
 * for its receiver, by bisection between 0 and MAXBYTES bytes (the other
 * ranks wait in the barrier that follows). */
static void eager_limit(int rank, char *buf, int maxbytes) {
  if (rank <= 1) {
    int lo = 0, hi = maxbytes + 1; /* eager up to lo (0: not even 0 bytes, if !eager(0)) */
    if (!send_is_eager(rank, buf, 0))
      hi = 0;
    else if (send_is_eager(rank, buf, maxbytes))
      lo = maxbytes;
    else
      hi = maxbytes;
    while (hi - lo > 1) {
      int mid = lo + (hi - lo) / 2;
      if (send_is_eager(rank, buf, mid))
        lo = mid;
      else
        hi = mid;
    }
    if (rank == 0) printf("eager %d\n", hi == 0 ? -1 : lo);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Pins ranks 0 and 1: both on rank 0's CPU (TOGETHER), or rank 1 on the
 * next CPU its mask allows. *SAVED gets the rank's mask before (empty when
 * not read) for restore(). Returns 1 when both were pinned (collective).
 *
 * Apart (the ping-pongs): with more ranks than cores the kernel may keep
 * both on one CPU for a whole measurement, and then even the best of its
 * repetitions is a time slice (calibrations of the same machine gave 0.6 us
 * or 2.3-3.9 ms). The model takes the turns itself (quantum), so the
 * latency is what a message costs while both ranks run. Together (the
 * quantum): every message waits for the other to be scheduled. */
static int pin_pair(int rank, int together, cpu_set_t *saved) {
  int cpu = sched_getcpu(), ok = 1, all = 0;
  MPI_Bcast(&cpu, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CPU_ZERO(saved);
  if (rank <= 1) {
    int target = rank == 0 || together ? cpu : -1;
    ok = cpu >= 0 && sched_getaffinity(0, sizeof *saved, saved) == 0;
    for (int k = 1; ok && target < 0 && k < CPU_SETSIZE; k++)
      if (CPU_ISSET((cpu + k) % CPU_SETSIZE, saved)) target = (cpu + k) % CPU_SETSIZE;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (target >= 0) CPU_SET(target, &set);
    ok = ok && target >= 0 && sched_setaffinity(0, sizeof set, &set) == 0;
  }
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all;
}

static void restore(const cpu_set_t *saved) {
  if (CPU_COUNT(saved) > 0) sched_setaffinity(0, sizeof *saved, saved);
}

/* The nice value of the calling process's autogroup (the scheduler's
 * group of its session) into *NICE: 0 when not readable. */
static int autogroup_nice(int *nice) {
  FILE *f = fopen("/proc/self/autogroup", "r");
  int ok = f && fscanf(f, "/autogroup-%*d nice %d", nice) == 1;
  if (f) fclose(f);
  return ok;
}

/* Sets it: 0 when the kernel refuses (no CAP_SYS_NICE for < 0). */
static int autogroup_set(int nice) {
  FILE *f = fopen("/proc/self/autogroup", "w");
  if (!f) return 0;
  int ok = fprintf(f, "%d", nice) > 0;
  return fclose(f) == 0 && ok;
}

/* The time slice: ranks 0 and 1 on one CPU; the others wait in the barrier.
 * Each rank polls until the kernel preempts it, so the half round trip is
 * the slice on an otherwise idle CPU: other work's turns come in between
 * (at load 15 on this VM it was 8 ms for a 4 ms slice), so the pair takes
 * priority over it (below) or, failing that, rank 0's CPU time per turn
 * (schedstat) stands for the slice. Simulate adds the other work of the
 * run it replays itself (docs/simulate.md "CPU"). */
static void quantum(int rank, char *buf) {
  cpu_set_t saved;
  if (!pin_pair(rank, 1, &saved)) return;
  /* Other jobs' wake-ups cut a turn short (at load 16 the CPU per turn
   * moved between 2.2 and 3.8 ms from one calibration to the next): the
   * slice is the kernel's without them. With autogrouping (hydra starts
   * each rank in a session of its own) the session's nice -20 gives the
   * pair the CPU against other sessions (root only; restored after). */
  int nice0 = 0, prio = autogroup_nice(&nice0) && autogroup_set(-20);
  double best, mean;
  pingpong(rank, buf, 0, 3, &best, &mean); /* both ranks settle on the CPU */
  unsigned long long c0 = 0, n0 = 0, c1 = 0, n1 = 0;
  int ok = schedstat(&c0, &n0);
  double q = pingpong(rank, buf, 0, 41, &best, &mean);
  ok = ok && schedstat(&c1, &n1) && n1 > n0 + 4;
  if (rank == 0) {
    printf("turn %.9g\n", q);
    /* with the CPU to themselves the half round trip is the slice; else
     * the CPU per turn, which other jobs' wake-ups shorten */
    printf("quantum %.9g\n", prio || !ok ? q : (double)(c1 - c0) * 1e-9 / (double)(n1 - n0));
  }
  if (prio) autogroup_set(nice0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "augur-calibrate: needs 2 ranks or more\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int maxbytes = 4 << 20, largest = 64 << 20;
  char *buf = malloc((size_t)largest);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(buf, 0, (size_t)largest); /* in memory before any ping-pong */

  /* Per-call overhead: an MPI call that finds nothing to do. */
  double best = 1e30;
  for (int k = 0; k < 20; k++) {
    int flag;
    double t0 = MPI_Wtime();
    for (int i = 0; i < 1000; i++)
      MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    double t = (MPI_Wtime() - t0) / 1000;
    if (t < best) best = t;
  }
  if (rank == 0) printf("overhead %.9g\n", best);

  double lat = 0, lat_mean = 0, t_big = 0, t_mid = 0, small[16];
  int nsmall = 0;
  double b0, m0;
  cpu_set_t saved;
  pin_pair(rank, 0, &saved);            /* unpinned, where pinning fails */
  pingpong(rank, buf, 0, 21, &b0, &m0); /* warm-up: first contact, connection set-up */
  for (int bytes = 0; bytes <= maxbytes; bytes = bytes ? bytes * 4 : 1) {
    int reps = bytes >= (1 << 20) ? 7 : 21;
    double b, mean;
    double t = pingpong(rank, buf, bytes, reps, &b, &mean);
    if (rank == 0) printf("pingpong %d %.9g %.9g %.9g\n", bytes, t, b, mean);
    if (bytes <= 1024 && nsmall < 16) {
      small[nsmall++] = t;
      lat_mean += mean;
    }
    if (bytes == 1 << 20) t_mid = b;
    if (bytes == maxbytes) t_big = b;
  }
  fresh_costs(rank, buf, maxbytes);
  eager_limit(rank, buf, maxbytes);
  /* Messages larger than the caches, last: nothing above runs after them. */
  for (int bytes = maxbytes * 4; bytes <= largest; bytes *= 4) {
    double b, mean;
    double t = pingpong(rank, buf, bytes, 5, &b, &mean);
    if (rank == 0) printf("pingpong %d %.9g %.9g %.9g\n", bytes, t, b, mean);
  }
  restore(&saved);
  /* Bandwidth from the slope between 1 MiB and 4 MiB: the per-message costs
   * (latency, rendezvous handshake) cancel out. */
  double bw = t_big > t_mid ? (double)(maxbytes - (1 << 20)) / (t_big - t_mid)
                            : (double)maxbytes / (t_big > lat ? t_big - lat : 1e-9);
  /* The median over the small sizes of their medians: one size hit by a
   * burst of other work must not move the latency. */
  qsort(small, (size_t)nsmall, sizeof small[0], cmp_double);
  lat = small[nsmall / 2];
  lat_mean /= nsmall;
  if (rank == 0) printf("latency %.9g %.9g\nbandwidth %.9g\n", lat, lat_mean, bw);
  if (rank == 0 && nsend_cost) {
    qsort(send_cost, (size_t)nsend_cost, sizeof send_cost[0], cmp_double);
    printf("sendcost %.9g\n", send_cost[nsend_cost / 2]);
  }

  double v = 1.0, out;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < 50; i++)
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t_ar = (MPI_Wtime() - t0) / 50;
  t0 = MPI_Wtime();
  for (int i = 0; i < 50; i++)
    MPI_Barrier(MPI_COMM_WORLD);
  double t_bar = (MPI_Wtime() - t0) / 50;
  if (rank == 0) printf("allreduce8 %.9g\nbarrier %.9g\n", t_ar, t_bar);

  /* Every rank at once: a ring step (send right, receive from the left).
   * When ranks share cores this is the latency a halo exchange or one
   * round of a collective really pays. */
  char c1 = 0, c2 = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < 100; i++)
    MPI_Sendrecv(&c1, 1, MPI_CHAR, (rank + 1) % size, 7, &c2, 1, MPI_CHAR, (rank - 1 + size) % size,
                 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double t_ring = (MPI_Wtime() - t0) / 100;
  if (rank == 0) printf("ringstep %.9g\n", t_ring);

  /* Compute rate: 2 flops per iteration of a dependent chain. */
  volatile double a = 1.0000001, x = 1.0;
  double xv = x;
  t0 = MPI_Wtime();
  for (long i = 0; i < 20000000L; i++)
    xv = xv * a + 1e-9;
  double t_fl = MPI_Wtime() - t0;
  x = xv;
  if (rank == 0) printf("flops %.6g\n", 2 * 20000000.0 / t_fl);
  calib_iorma(rank, size, buf); /* calibrate_iorma_mpi.c: file and one-sided figures */
  quantum(rank, buf);
  free(buf);
  MPI_Finalize();
  return 0;
}
