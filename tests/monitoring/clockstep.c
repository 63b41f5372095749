/* A wall-clock step for tests, preloaded: in each process, CLOCK_REALTIME
 * read more than 100 ms after that process (or its parent, before a fork)
 * first read it is one hour behind, as after an NTP or `date -s` step back
 * while a job runs. Other clocks are untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

#include "augur/api.h" /* hidden by default: the interposer is exported */

AUGUR_API int clock_gettime(clockid_t id, struct timespec *ts) {
  static int (*real)(clockid_t, struct timespec *);
  static long long first = -1;
  if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  int rc = real(id, ts);
  if (rc != 0 || id != CLOCK_REALTIME) return rc;
  struct timespec m;
  real(CLOCK_MONOTONIC, &m);
  long long now = (long long)m.tv_sec * 1000000000LL + m.tv_nsec;
  if (first < 0)
    first = now;
  else if (now - first > 100000000LL)
    ts->tv_sec -= 3600;
  return rc;
}
