/* augur recorder — event timestamps.
 *
 * Two clock reads per call are most of the recorder's cost, and
 * clock_gettime(CLOCK_MONOTONIC) costs ~60 ns on a VM whose clocksource is
 * kvm-clock. So where the CPU has an invariant TSC (x86 with constant_tsc and
 * nonstop_tsc), the hot path stores raw TSC ticks and aug_clock_to_ns turns
 * them into CLOCK_MONOTONIC ns when a block is written, anchored at a fresh
 * (ticks, ns) pair and scaled by the rate measured since MPI_Init. Everything
 * on disk is CLOCK_MONOTONIC ns either way. AUGUR_CLOCK=monotonic forces
 * clock_gettime on the hot path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec_internal.h"

int aug_tsc;
static uint64_t tsc0, ns0;
static double rate0; /* ns per tick, measured during MPI_Init */

#if defined(__x86_64__) || defined(__i386__)
static int cpu_has_invariant_tsc(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return 0;
  char line[4096];
  int ok = 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "flags", 5) == 0) {
      ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
      break;
    }
  fclose(f);
  return ok;
}
#else
static int cpu_has_invariant_tsc(void) {
  return 0;
}
#endif

/* A (ticks, ns) pair read as close together as possible. A thread preempted
 * between the reads would anchor a whole block half a time slice (ms) off and
 * put it out of order with its neighbours, so keep the tightest of a few
 * tries: all of them being preempted is vanishingly rare. */
static void pair(uint64_t *ticks, uint64_t *ns) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 3; i++) {
    uint64_t a = aug_ticks();
    uint64_t n = aug_now();
    uint64_t b = aug_ticks();
    if (b - a < best) {
      best = b - a;
      *ticks = a + (b - a) / 2;
      *ns = n;
    }
  }
}

void aug_clock_setup(void) {
  const char *c = getenv("AUGUR_CLOCK");
  aug_tsc = (!c || strcmp(c, "monotonic") != 0) && cpu_has_invariant_tsc();
  if (aug_tsc) pair(&tsc0, &ns0);
}

void aug_clock_calibrate(void) {
  if (!aug_tsc) return;
  uint64_t t = 0, n = 0;
  pair(&t, &n);
  /* at least 2 ms of baseline so the first blocks convert precisely: slept,
   * not spun (ranks may share CPUs) */
  while (n - ns0 < 2000000) {
    struct timespec ts = {0, (long)(2000000 - (n - ns0))};
    nanosleep(&ts, NULL);
    pair(&t, &n);
  }
  rate0 = (double)(n - ns0) / (double)(t - tsc0);
}

void aug_clock_map_now(aug_tick_map *m) {
  m->tsc = aug_tsc;
  m->t = m->now = m->max_end = 0;
  m->rate = 1;
  if (!aug_tsc) return;
  pair(&m->t, &m->now);
  /* the longer the baseline, the better the rate */
  double rate = m->now - ns0 > 100000000 ? (double)(m->now - ns0) / (double)(m->t - tsc0) : rate0;
  m->rate = rate > 0 ? rate : 1;
}

uint64_t aug_clock_to_ns(augur_event *ev, size_t n) {
  aug_tick_map m;
  aug_clock_map_now(&m);
  for (size_t i = 0; i < n; i++)
    aug_clock_apply(&m, &ev[i]);
  return m.max_end;
}

void aug_clock_keep_order(uint64_t *last_ns, augur_event *ev, size_t n, uint64_t max_end) {
  if (!n) return;
  uint64_t d = ev[0].t_start < *last_ns ? *last_ns - ev[0].t_start : 0;
  for (size_t i = 0; d && i < n; i++) /* rare: the block moves whole */
    ev[i].t_start += d, ev[i].t_end += d;
  if (max_end + d > *last_ns) *last_ns = max_end + d;
}

uint64_t aug_clock_ticks_of_ns(uint64_t ns) {
  if (!aug_tsc || rate0 <= 0) return ns;
  return (uint64_t)((double)ns / rate0);
}
