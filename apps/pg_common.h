/* Shared by the pg_* proving-ground apps (apps/README.md, "Performance
 * problems"): a calibrated busy loop, long-option parsing that every rank does
 * identically, and the "expected:" line the diagnosis benchmark compares with.
 * Header-only: each app is one source file built with the flavour's mpicc. */
#ifndef AUGUR_APPS_PG_COMMON_H
#define AUGUR_APPS_PG_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Computes until the calling thread has used ns nanoseconds of CPU
 * (CLOCK_THREAD_CPUTIME_ID): the same work whether the thread had a CPU to
 * itself or took turns with other processes, so its wall time then holds the
 * turns (sim_cpu, dx_chain --cpu). */
static inline void pg_cpu_work(long long ns) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  long long end = (long long)t.tv_sec * 1000000000LL + t.tv_nsec + ns, now;
  volatile double x = 1.0;
  do {
    for (int k = 0; k < 1000; k++)
      x = x * 1.0000001 + 1e-9;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    now = (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
  } while (now < end);
}

/* Computes for ns nanoseconds of CLOCK_MONOTONIC time, ending at an absolute
 * deadline, so the injected time is exact whatever the CPU speed and an app
 * can print the lost time it causes in seconds. A pure busy loop is not
 * enough when ranks outnumber cores (4 ranks on the 2-core test machine):
 * MPICH's waiting ranks poll and take the CPU, a spinning rank is descheduled
 * past its deadline, and the well-behaved runs show waits of a time slice per
 * call. So all but the last millisecond is slept to the deadline and only
 * that millisecond spins (the woken sleeper gets the CPU back at once).
 * PG_SPIN=1 in the environment makes it a pure busy loop (real CPU load). */
static inline void pg_spin(long long ns) {
  static int pure = -1;
  if (pure < 0) pure = getenv("PG_SPIN") && !strcmp(getenv("PG_SPIN"), "1");
  struct timespec t0, t, end;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long long e = (long long)t0.tv_sec * 1000000000LL + t0.tv_nsec + ns;
  if (!pure && ns > 2000000LL) {
    long long s = e - 1000000LL;
    struct timespec until = {(time_t)(s / 1000000000LL), (long)(s % 1000000000LL)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
    }
  }
  end.tv_sec = (time_t)(e / 1000000000LL);
  end.tv_nsec = (long)(e % 1000000000LL);
  do {
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while (t.tv_sec < end.tv_sec || (t.tv_sec == end.tv_sec && t.tv_nsec < end.tv_nsec));
}

/* CLOCK_MONOTONIC now, ns. */
static inline long long pg_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

enum { PG_INT, PG_FLAG, PG_CHOICE };

/* One option: "-n 5" / "--iter 5" (PG_INT), "--off" (PG_FLAG, sets *value to
 * 1), or "--data same" (PG_CHOICE: *value = index in choices, NULL-ended). */
typedef struct pg_opt {
  const char *name; /* long name without "--" */
  char letter;      /* short name or 0 */
  int kind;
  long min, max;
  long *value;
  const char *const *choices;
} pg_opt;

/* Parses argv[1..]. Returns 0, or -1 after one line on stderr when `talk`. */
static inline int pg_parse(int argc, char **argv, const pg_opt *opts, int nopts, int talk) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const pg_opt *o = NULL;
    for (int k = 0; k < nopts && !o; k++) {
      if (a[0] == '-' && a[1] == '-' && !strcmp(a + 2, opts[k].name)) o = &opts[k];
      if (opts[k].letter && a[0] == '-' && a[1] == opts[k].letter && a[2] == '\0') o = &opts[k];
    }
    if (!o) {
      if (talk) fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], a);
      return -1;
    }
    if (o->kind == PG_FLAG) {
      *o->value = 1;
      continue;
    }
    if (i + 1 >= argc) {
      if (talk) fprintf(stderr, "%s: %s needs a value\n", argv[0], a);
      return -1;
    }
    const char *s = argv[++i];
    if (o->kind == PG_CHOICE) {
      long k = 0;
      while (o->choices[k] && strcmp(o->choices[k], s))
        k++;
      if (!o->choices[k]) {
        if (talk) fprintf(stderr, "%s: %s %s: unknown value\n", argv[0], a, s);
        return -1;
      }
      *o->value = k;
      continue;
    }
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < o->min || v > o->max) {
      if (talk)
        fprintf(stderr, "%s: %s %s: expected an integer in [%ld, %ld]\n", argv[0], a, s, o->min,
                o->max);
      return -1;
    }
    *o->value = v;
  }
  return 0;
}

/* Prints "expected: pattern=P lost_seconds=X ranks=LIST[ extra]": ranks
 * first..last step `step` (empty list: "-"). */
static inline void pg_expected(const char *pattern, double lost_s, int first, int last, int step,
                               const char *extra) {
  printf("expected: pattern=%s lost_seconds=%.6f ranks=", pattern, lost_s);
  if (first > last) printf("-");
  for (int r = first; r <= last; r += step)
    printf("%s%d", r == first ? "" : ",", r);
  printf("%s%s\n", extra && *extra ? " " : "", extra ? extra : "");
  fflush(stdout);
}

/* The path of an I/O app's file: $TMPDIR (default /tmp)/STEM-<pid>SUFFIX, into name[n]
 * (rank 0 makes it, then broadcasts it: the pid is its own). */
static inline void pg_tmpname(char *name, size_t n, const char *stem, const char *suffix) {
  const char *dir = getenv("TMPDIR");
  snprintf(name, n, "%s/%s-%ld%s", dir && *dir ? dir : "/tmp", stem, (long)getpid(), suffix);
}

#define PG_US 1000LL /* ns per microsecond */

#endif
