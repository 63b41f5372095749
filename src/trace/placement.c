/* augur — where the ranks ran: hosts and their usable CPUs, from the rank
 * facts (format minor 3). _GNU_SOURCE for qsort_r. See include/augur/reader.h,
 * augur_trace_hosts. */
#define _GNU_SOURCE /* qsort_r */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/reader.h"

/* CPU lists are read up to this many CPUs; a larger machine's lists count
 * as unknown (then the affinity counts speak). */
#define MAX_CPUS 8192

static const char *host_of(const augur_rank_def *d) {
  return d && d->host ? d->host : "";
}

static int by_host(const void *a, const void *b, void *t) {
  const augur_rank_def *x = augur_trace_rank(t, *(const uint32_t *)a);
  const augur_rank_def *y = augur_trace_rank(t, *(const uint32_t *)b);
  return strcmp(host_of(x), host_of(y));
}

/* Adds the Linux CPU list S ("0-3,8") to the bit set; -1 if malformed. */
static int add_list(uint8_t *set, const char *s) {
  while (*s) {
    char *e;
    long a = strtol(s, &e, 10), b = a;
    if (e == s || a < 0 || a >= MAX_CPUS) return -1;
    if (*e == '-') {
      s = e + 1;
      b = strtol(s, &e, 10);
      if (e == s || b < a || b >= MAX_CPUS) return -1;
    }
    for (long c = a; c <= b; c++)
      set[c / 8] |= (uint8_t)(1u << (c % 8));
    s = *e == ',' ? e + 1 : e;
    if (*e && *e != ',') return -1;
  }
  return 0;
}

/* Usable CPUs of the host of ranks ix[0..n): the union of their affinity
 * masks (the largest count if a list is missing), capped by the smallest
 * cgroup quota; 0 if a rank did not say. */
static uint32_t host_cores(const augur_trace *t, const uint32_t *ix, uint32_t n, uint8_t *set) {
  uint32_t most = 0, quota = 0;
  int lists = 1;
  memset(set, 0, MAX_CPUS / 8);
  for (uint32_t i = 0; i < n; i++) {
    const augur_rank_def *d = augur_trace_rank(t, ix[i]);
    if (!d || !d->cores) return 0;
    if (d->cores > most) most = d->cores;
    if (d->cpu_quota && (!quota || d->cpu_quota < quota)) quota = d->cpu_quota;
    if (!d->cpus || add_list(set, d->cpus) != 0) lists = 0;
  }
  uint32_t c = 0;
  if (lists)
    for (size_t b = 0; b < MAX_CPUS / 8; b++)
      c += (uint32_t)__builtin_popcount(set[b]);
  else
    c = most;
  return quota && quota < c ? quota : c;
}

int augur_trace_hosts(const augur_trace *t, augur_hosts *p, augur_error *err) {
  assert(t && p);
  memset(p, 0, sizeof *p);
  uint32_t n = augur_trace_nranks(t);
  uint32_t *ix = malloc(sizeof *ix * (n ? n : 1));
  uint8_t *set = malloc(MAX_CPUS / 8);
  if (!ix || !set) {
    free(ix);
    free(set);
    return augur_fail(err, AUGUR_E_NOMEM, "placement: out of memory for %u ranks", n);
  }
  for (uint32_t r = 0; r < n; r++)
    ix[r] = r;
  qsort_r(ix, n, sizeof *ix, by_host, (void *)t);
  int known = 1;
  for (uint32_t i = 0, j; i < n; i = j) {
    const char *h = host_of(augur_trace_rank(t, ix[i]));
    for (j = i + 1; j < n && !strcmp(h, host_of(augur_trace_rank(t, ix[j]))); j++)
      ;
    uint32_t ranks = j - i, cores = host_cores(t, ix + i, ranks, set);
    p->nhosts++;
    if (ranks > p->max_ranks) p->max_ranks = ranks;
    if (!cores) {
      known = 0;
      continue;
    }
    if (ranks > cores) p->oversubscribed++;
    /* the most ranks per CPU: ranks / cores > p->ranks / p->cores */
    if (!p->cores || (uint64_t)ranks * p->cores > (uint64_t)p->ranks * cores) {
      p->host = h;
      p->ranks = ranks;
      p->cores = cores;
    }
  }
  p->known = known && n > 0;
  for (uint32_t r = 0; r < n; r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (!d || !d->cpu_ns || d->finalize_ns <= d->init_ns) continue;
    p->delay_ranks++;
    p->run_delay_ns += d->run_delay_ns;
    p->window_ns += d->finalize_ns - d->init_ns;
  }
  free(ix);
  free(set);
  return AUGUR_OK;
}
