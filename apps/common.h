/* Shared by the proving-ground apps: option parsing that every rank does
 * identically, so a bad argument makes all ranks stop the same way (no rank
 * is left waiting in a collective). Header-only: each app is one source file
 * compiled with the flavour's mpicc. */
#ifndef AUGUR_APPS_COMMON_H
#define AUGUR_APPS_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One integer option "-c VALUE" with its accepted range. */
typedef struct app_opt {
  char letter;
  const char *name; /* for the usage line, e.g. "ITER" */
  long min, max;
  long *value;
} app_opt;

/* Parses argv[1..] against opts. Returns 0, or -1 after printing one line to
 * stderr (only when `talk` is set, i.e. on rank 0). */
static inline int app_parse(int argc, char **argv, const app_opt *opts, int nopts, int talk) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const app_opt *o = NULL;
    if (a[0] == '-' && a[1] != '\0' && a[2] == '\0')
      for (int k = 0; k < nopts; k++)
        if (opts[k].letter == a[1]) o = &opts[k];
    if (!o) {
      if (talk) fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], a);
      return -1;
    }
    if (i + 1 >= argc) {
      if (talk) fprintf(stderr, "%s: -%c needs a value (%s)\n", argv[0], o->letter, o->name);
      return -1;
    }
    const char *s = argv[++i];
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < o->min || v > o->max) {
      if (talk)
        fprintf(stderr, "%s: -%c %s: expected an integer in [%ld, %ld]\n", argv[0], o->letter, s,
                o->min, o->max);
      return -1;
    }
    *o->value = v;
  }
  return 0;
}

/* CLOCK_MONOTONIC in seconds. */
static inline double app_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Computes for SECONDS of wall time (cr_crash, tests/record/rec_killed). */
static inline void app_spin(double seconds) {
  volatile double x = 1.0; /* volatile: the compute stays */
  double end = app_now() + seconds;
  while (app_now() < end)
    for (int i = 0; i < 100; i++)
      x = x * 1.0000001 + 1e-9;
}

/* WORK passes of a forward recurrence over A (N doubles): compute that
 * scales with WORK and N, for the apps that set a compute share by option
 * (ph_periodic, ph_levels). The result keeps it live. */
static inline double app_relax(double *a, long n, long work) {
  double s = 0;
  for (long w = 0; w < work; w++)
    for (long i = 1; i < n; i++) {
      a[i] = 0.5 * a[i] + 0.25 * a[i - 1] + 0.125;
      s += a[i];
    }
  return s;
}

/* Computes for US microseconds of wall time (pred_short_phases,
 * pred_p2p_loop); returns a value that keeps the loop live. */
static inline double app_spin_us(long us) {
  struct timespec t0, t;
  double sink = 0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    for (int i = 0; i < 64; i++)
      sink += i * 1e-9;
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
  return sink;
}

#endif
