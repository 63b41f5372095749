/* augur diagnose — the OpenMP patterns (docs/diagnose.md, "OpenMP
 * patterns"): each rank's thread states (include/augur/omp.h, the one
 * reading of OpenMP records) turned into groups of lost thread-time at a
 * call site, with KappaPi's cause and recommendation (seed 004) and
 * Scalasca's definitions of the waits (../shared/notes/openmp.md).
 *
 * A group's lost time is thread-ns; it ranks with the MPI findings by the
 * process-time it stands for: a rank's thread-ns divided by its threads
 * (the largest team of the rank), summed over ranks. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/omp.h"
#include "augur/report.h" /* augur_fmt_callsite */
#include "dx_int.h"

#define NS 1e-9
/* add()'s CS2 for the serial work of a single construct */
#define OMP_SINGLE UINT64_MAX

/* Adds THREAD_NS lost by RANK (THREADS threads) at CALLSITE to the group
 * of PATTERN there; CS2: a second call site to name (the region before a
 * serial section), 0 for none. */
static int add(dx *d, int pattern, uint32_t rank, uint64_t callsite, uint64_t cs2,
               uint64_t thread_ns, uint32_t threads, uint64_t count) {
  assert(threads > 0);
  if (!thread_ns) return 0;
  /* a single's serial work is keyed apart from the sections between regions */
  int single = pattern == AUGUR_DX_OMP_SERIAL && cs2 == OMP_SINGLE;
  int32_t gi = dx_group_get(&d->groups, pattern, -1, (uint32_t)callsite, single ? -2 : -1);
  if (gi < 0) return -1;
  dx_group *g = &d->groups.g[gi];
  if (single) {
    g->call_type = 1;
    cs2 = 0;
  }
  free(g->hist); /* the active-process timeline counts ranks in MPI: not these */
  g->hist = NULL;
  uint64_t ns = thread_ns / threads;
  g->ns += ns;
  g->thread_ns += thread_ns;
  g->instances += count;
  dx_group_site(g, (uint32_t)callsite, ns);
  g->rankbits[rank / 64] |= 1ull << (rank % 64);
  if (threads > g->threads) g->threads = threads;
  if (cs2 && !g->partner_cs) g->partner_cs = (uint32_t)cs2;
  return 0;
}

/* The CPUs rank R may use alone: its affinity mask, and on a single host
 * whose CPUs are known, at most its share of them (0: unknown). */
static uint32_t rank_cpus(const dx *d, uint32_t r, const augur_hosts *h) {
  const augur_rank_def *def = augur_trace_rank(d->trace, r);
  uint32_t c = def ? def->cores : 0;
  if (h->known && h->nhosts == 1 && h->ranks) {
    uint32_t share = h->cores / h->ranks ? h->cores / h->ranks : 1;
    if (!c || share < c) c = share;
  }
  return c;
}

/* The groups of one rank's states. */
static int rank_groups(dx *d, uint32_t r, const augur_rank_states *s, uint32_t cpus) {
  uint32_t T = s->team ? s->team : 1;
  for (size_t i = 0; i < s->nsites; i++) {
    const augur_omp_site *x = &s->sites[i];
    if (add(d, AUGUR_DX_OMP_LOAD_IMBALANCE, r, x->callsite, 0, x->barrier_wait_ns, T,
            x->instances) ||
        add(d, AUGUR_DX_OMP_SERIAL, r, x->single_callsite ? x->single_callsite : x->callsite,
            OMP_SINGLE, x->single_wait_ns, T, x->instances) ||
        add(d, AUGUR_DX_OMP_FORK_JOIN, r, x->callsite, 0, x->fork_ns + x->join_ns, T, x->instances))
      return -1;
    /* Limited parallelism: fewer threads than asked for, or than the CPUs
     * the rank has. N - team threads could have worked during the regions:
     * lost (N - team) x elapsed thread-ns, shared by N threads. */
    uint32_t want = x->requested > cpus ? x->requested : cpus;
    if (x->team && want > x->team) {
      int32_t gi = dx_group_get(&d->groups, AUGUR_DX_OMP_LIMITED, -1, (uint32_t)x->callsite, -1);
      if (gi < 0) return -1;
      dx_group *g = &d->groups.g[gi];
      if (x->requested > g->requested) g->requested = x->requested;
      if (x->team > g->team) g->team = x->team;
      if (cpus > g->cpus) g->cpus = cpus;
      if (add(d, AUGUR_DX_OMP_LIMITED, r, x->callsite, 0, (want - x->team) * x->elapsed_ns, want,
              x->instances))
        return -1;
    }
  }
  if (T < 2) return 0; /* no other thread to idle */
  for (size_t i = 0; i < s->nmutexes; i++)
    if (add(d, AUGUR_DX_OMP_CRITICAL, r, s->mutexes[i].callsite, 0, s->mutexes[i].ns, T,
            s->mutexes[i].count))
      return -1;
  for (size_t i = 0; i < s->nserial; i++) {
    const augur_omp_csite *x = &s->serial[i];
    /* named at the region that follows, else (the rank's end) the one before */
    uint64_t at = x->callsite ? x->callsite : x->callsite2;
    if (add(d, AUGUR_DX_OMP_SERIAL, r, at, x->callsite ? x->callsite2 : 0, (T - 1) * x->ns, T,
            x->count))
      return -1;
  }
  /* MPI outside regions: between the first fork and the last join, and
   * before or after them at a call site that is also called in between
   * (a loop whose first exchange precedes its first region, as in
   * pg_omp_masteronly); a call site met only there is set-up or
   * teardown. An MPI record is the call's own span: no runtime start-up
   * in it, unlike the serial sections' edges, which stay out. */
  for (size_t i = 0; i < s->nmpi_serial; i++) {
    const augur_omp_csite *x = &s->mpi_serial[i];
    uint64_t ns = x->ns ? x->ns + x->edge_ns : 0;
    if (add(d, AUGUR_DX_MPI_SERIAL, r, x->callsite, 0, (T - 1) * ns, T, x->count)) return -1;
  }
  return 0;
}

int dx_omp(dx *d, augur_error *err) {
  augur_hosts h;
  memset(&h, 0, sizeof h);
  uint64_t threads = 0;
  for (uint32_t r = 0; r < d->nranks; r++) {
    if (!augur_trace_omp_nevents(d->trace, r)) continue;
    if (!d->omp_ranks && augur_trace_hosts(d->trace, &h, err) != AUGUR_OK) return -1;
    augur_rank_states s;
    int rc = augur_rank_states_trace(d->trace, r, &s, err);
    if (rc < 0) {
      augur_rank_states_free(&s);
      return rc;
    }
    d->omp_ranks++;
    d->omp_unbalanced += s.unbalanced;
    if (s.team > d->omp_threads) d->omp_threads = s.team;
    threads += s.team;
    rc = rank_groups(d, r, &s, rank_cpus(d, r, &h));
    augur_rank_states_free(&s);
    if (rc) return augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory (OpenMP)");
  }
  /* threads of ranks without OpenMP records: one each */
  threads += d->nranks - d->omp_ranks;
  if (d->omp_ranks && h.known && h.nhosts == 1) {
    d->omp_host_threads = (uint32_t)threads;
    d->omp_host_cpus = h.cores;
    snprintf(d->omp_host, sizeof d->omp_host, "%s", h.host ? h.host : "");
  }
  return 0;
}

static void where(const dx *d, uint32_t cs, char *buf, size_t n) {
  if (cs)
    augur_fmt_callsite(buf, n, d->trace, cs);
  else
    snprintf(buf, n, "an unknown call site");
}

int dx_omp_words(const dx *d, const dx_group *g, char **cause, char **rec) {
  char site[256], other[256];
  where(d, g->callsite, site, sizeof site);
  where(d, g->partner_cs, other, sizeof other);
  double ts = (double)g->thread_ns * NS;
  unsigned T = g->threads;
  unsigned long long n = (unsigned long long)g->instances;
  *cause = *rec = NULL;
  switch (g->pattern) {
  case AUGUR_DX_OMP_LOAD_IMBALANCE:
    *cause = dx_strdup_printf("Threads wait at the barriers of the parallel region at %s for the "
                              "last thread to arrive: %.3f thread-seconds over %llu regions "
                              "(teams of up to %u threads).",
                              site, ts, n, T);
    *rec = dx_strdup_printf("Balance the work of the region's threads: schedule(dynamic) or "
                            "schedule(guided) for loops whose iterations cost different "
                            "times, with smaller chunks; or give the waiting threads other "
                            "work (nowait, tasks).");
    break;
  case AUGUR_DX_OMP_CRITICAL:
    *cause = dx_strdup_printf("Threads wait to enter the critical section or lock at %s: %.3f "
                              "thread-seconds over %llu acquisitions, while the thread inside "
                              "holds it.",
                              site, ts, n);
    *rec = dx_strdup_printf("Take the work out of the critical section: accumulate into "
                            "private copies and combine once (a reduction clause), update "
                            "single values with atomics, or lock finer-grained data.");
    break;
  case AUGUR_DX_OMP_FORK_JOIN:
    *cause = dx_strdup_printf("Forking and joining the team of the parallel region at %s costs "
                              "%.3f thread-seconds over %llu regions (%.1f us each): threads "
                              "wait for the team to start and for the join.",
                              site, ts, n, n ? 1e6 * ts / (double)n : 0.0);
    *rec = dx_strdup_printf("Fork fewer, longer regions: hoist the parallel region out of the "
                            "loop around it (an omp for inside one region), or merge adjacent "
                            "regions.");
    break;
  case AUGUR_DX_MPI_SERIAL:
    *cause = dx_strdup_printf("The master thread is in MPI at %s outside any parallel region "
                              "while the other %u threads of its rank idle (masteronly): %.3f "
                              "thread-seconds over %llu calls.",
                              site, T > 0 ? T - 1 : 0, ts, n);
    *rec = dx_strdup_printf("Overlap the communication with computation: call MPI from inside "
                            "the region (omp master, with the others working on independent "
                            "items), use nonblocking calls and compute until the data is "
                            "needed, or MPI_THREAD_MULTIPLE / tasks so that threads "
                            "communicate while others work.");
    break;
  case AUGUR_DX_OMP_SERIAL:
    if (g->call_type == 1)
      *cause = dx_strdup_printf("One thread computes alone in the single construct at %s while "
                                "the others wait at its barrier: %.3f thread-seconds (Amdahl).",
                                site, ts);
    else if (g->partner_cs)
      *cause = dx_strdup_printf("One thread computes alone while the other threads idle, between "
                                "the end of the region at %s and the fork of the region at %s: "
                                "%.3f thread-seconds (Amdahl).",
                                other, site, ts);
    else
      *cause = dx_strdup_printf("One thread computes alone while the other threads idle, outside "
                                "parallel regions, next to the region at %s: %.3f "
                                "thread-seconds (Amdahl).",
                                site, ts);
    *rec = dx_strdup_printf("Parallelise the serial work (an omp for or tasks inside the "
                            "region), or let the other threads do independent work meanwhile "
                            "(single nowait, tasks).");
    break;
  case AUGUR_DX_OMP_LIMITED:
    *cause =
        dx_strdup_printf("The region at %s runs teams of %u thread%s where %u could work "
                         "(asked for %u; the rank's share of CPUs: %u): the missing "
                         "threads stand for %.3f thread-seconds over %llu regions.",
                         site, g->team, g->team == 1 ? "" : "s", T, g->requested, g->cpus, ts, n);
    *rec = dx_strdup_printf("Give the region the threads it asks for (OMP_NUM_THREADS, "
                            "num_threads, OMP_THREAD_LIMIT, OMP_DYNAMIC=false) or run fewer "
                            "threads per rank and more ranks.");
    break;
  default:
    return -1;
  }
  return *cause && *rec ? 0 : -1;
}

int dx_omp_notes(const dx *d, augur_diagnosis *o) {
  const augur_trace_info *info = augur_trace_info_get(d->trace);
  const char *mode = info && info->openmp.mode ? info->openmp.mode : "unknown";
  int rc = 0;
  if (!d->omp_ranks && !strcmp(mode, "unavailable"))
    rc |= dx_note(o, dx_strdup_printf("the program's OpenMP runtime had no tools interface (OMPT): "
                                      "its threads were not recorded and the OpenMP patterns "
                                      "were not looked for"));
  if (!d->omp_ranks) return rc;
  if (d->omp_host_cpus && d->omp_host_threads > d->omp_host_cpus)
    rc |= dx_note(o, dx_strdup_printf("threads oversubscribed: %u threads on %u CPUs (host %s): "
                                      "OpenMP waits include time a thread was ready but not "
                                      "running",
                                      d->omp_host_threads, d->omp_host_cpus, d->omp_host));
  if (d->omp_unbalanced)
    rc |= dx_note(o, dx_strdup_printf("%llu OpenMP begin/end records did not pair (a thread cut "
                                      "short, or records lost): their constructs were closed at "
                                      "the thread's last record",
                                      (unsigned long long)d->omp_unbalanced));
  return rc;
}
