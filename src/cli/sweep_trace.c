/* augur sweep — one run measured (docs/model.md "sweep"): the iteration
 * time from the master's repeated send/receive cycle (PAS2P's logical
 * trace: every rank's calls, matched), the
 * computation, communication and waiting per process (the logical trace
 * and the diagnosis's wait states), the program's own time, and where its
 * threads ran (OpenMP 5 affinity display mapped onto hwloc's caches). */
#include <assert.h>
#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/diagnose.h"
#include "augur/phases.h" /* the logical trace */
#include "augur/report.h"
#include "cli.h"
#include "sweep.h"

/* ---- topology ---------------------------------------------------------- */

enum { LV_L2, LV_L3, LV_PKG, NLEVELS };
static const char *const level_name[NLEVELS] = {"l2", "l3", "s"};

struct sweep_topo {
  hwloc_topology_t h;
  unsigned n[NLEVELS]; /* instances per level */
};

static hwloc_obj_type_t level_type(int lv) {
  return lv == LV_L2 ? HWLOC_OBJ_L2CACHE : lv == LV_L3 ? HWLOC_OBJ_L3CACHE : HWLOC_OBJ_PACKAGE;
}

sweep_topo *sweep_topo_load(void) {
  sweep_topo *t = calloc(1, sizeof *t);
  if (!t) {
    cli_note("out of memory");
    return NULL;
  }
  if (hwloc_topology_init(&t->h) != 0 || hwloc_topology_load(t->h) != 0) {
    cli_note("hwloc cannot read this machine's topology");
    free(t);
    return NULL;
  }
  for (int lv = 0; lv < NLEVELS; lv++) {
    int n = hwloc_get_nbobjs_by_type(t->h, level_type(lv));
    t->n[lv] = n > 0 ? (unsigned)n : 0;
  }
  return t;
}

void sweep_topo_free(sweep_topo *t) {
  if (!t) return;
  hwloc_topology_destroy(t->h);
  free(t);
}

size_t sweep_topo_ncols(const sweep_topo *t) {
  size_t n = 0;
  for (int lv = 0; lv < NLEVELS; lv++)
    n += 2 * (size_t)t->n[lv];
  return n;
}

/* Column K: level, threads (0) or processes (1), instance. */
static void column(const sweep_topo *t, size_t k, int *lv, int *procs, unsigned *i) {
  *lv = *procs = 0;
  *i = 0;
  for (int l = 0; l < NLEVELS; l++) {
    if (k < 2 * (size_t)t->n[l]) {
      *lv = l;
      *procs = k >= t->n[l];
      *i = (unsigned)(k % t->n[l]);
      return;
    }
    k -= 2 * (size_t)t->n[l];
  }
  assert(0 && "column out of range");
}

void sweep_topo_colname(const sweep_topo *t, size_t k, char *buf, size_t n) {
  assert(k < sweep_topo_ncols(t));
  int lv, procs;
  unsigned i;
  column(t, k, &lv, &procs, &i);
  snprintf(buf, n, "%c%s_%u", procs ? 'p' : 't', level_name[lv], i);
}

/* ---- the run's output -------------------------------------------------- */

double sweep_app_time(const char *log) {
  FILE *f = fopen(log, "r");
  if (!f) return NAN;
  char line[4096];
  double v = NAN;
  while (isnan(v) && fgets(line, sizeof line, f)) {
    char *p = strstr(line, "t_iter_median");
    if (!p) continue;
    p += strlen("t_iter_median");
    while (*p == ' ' || *p == '\t' || *p == '=' || *p == ':')
      p++;
    char *end = NULL;
    double x = strtod(p, &end);
    if (end != p && isfinite(x) && x >= 0) v = x;
  }
  fclose(f);
  return v;
}

/* One OpenMP thread's affinity line, mapped to its rank. */
typedef struct thread_place {
  uint32_t rank;
  long tnum;
  hwloc_bitmap_t cpus;
} thread_place;

typedef struct places {
  thread_place *v;
  size_t n, cap;
} places;

static void places_free(places *p) {
  for (size_t i = 0; i < p->n; i++)
    hwloc_bitmap_free(p->v[i].cpus);
  free(p->v);
}

/* Adds (or, for a thread already seen, replaces: the runtime prints again
 * when a thread's affinity changes) RANK's thread TNUM on CPUS. */
static int places_put(places *p, uint32_t rank, long tnum, const char *cpus) {
  hwloc_bitmap_t b = hwloc_bitmap_alloc();
  if (!b || hwloc_bitmap_list_sscanf(b, cpus) != 0 || hwloc_bitmap_iszero(b)) {
    hwloc_bitmap_free(b);
    return -1;
  }
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].rank == rank && p->v[i].tnum == tnum) {
      hwloc_bitmap_free(p->v[i].cpus);
      p->v[i].cpus = b;
      return 0;
    }
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 16;
    thread_place *v = realloc(p->v, cap * sizeof *v);
    if (!v) {
      hwloc_bitmap_free(b);
      return -1;
    }
    p->v = v;
    p->cap = cap;
  }
  p->v[p->n++] = (thread_place){rank, tnum, b};
  return 0;
}

static int rank_of_pid(const augur_trace *tr, unsigned long long pid, uint32_t *rank) {
  for (uint32_t r = 0; r < augur_trace_nranks(tr); r++) {
    const augur_rank_def *d = augur_trace_rank(tr, r);
    if (d && d->pid == pid) {
      *rank = r;
      return 1;
    }
  }
  return 0;
}

static int has_rank(const places *p, uint32_t r) {
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].rank == r) return 1;
  return 0;
}

/* The threads of every rank, from what LOG says, best first: the CPUs the
 * program says its threads ran on ("cpus rank R: C0,C1,..."), else the
 * CPUs the OpenMP runtime let them run on (the affinity lines); a rank
 * with neither (no parallel region, no OpenMP) is one thread on the
 * affinity mask the recorder saw at MPI_Init, or on the whole machine when
 * the trace has none. */
static void read_places(const augur_trace *tr, const char *log, const sweep_topo *topo, places *p) {
  places ran = {0}, may = {0};
  FILE *f = fopen(log, "r");
  char line[4096];
  uint32_t nranks = augur_trace_nranks(tr);
  while (f && fgets(line, sizeof line, f)) {
    char *s = strstr(line, SWEEP_AFFINITY_TAG " ");
    unsigned long long pid;
    long tnum;
    char cpus[2048];
    uint32_t rank;
    unsigned r;
    int at = 0;
    if (s && sscanf(s + strlen(SWEEP_AFFINITY_TAG), "%llu %ld %2047s", &pid, &tnum, cpus) == 3 &&
        rank_of_pid(tr, pid, &rank))
      places_put(&may, rank, tnum, cpus);
    else if (sscanf(line, "cpus rank %u: %n", &r, &at) == 1 && at > 0 && r < nranks)
      for (char *save = NULL, *c = strtok_r(line + at, ", \n", &save); c;
           c = strtok_r(NULL, ", \n", &save))
        places_put(&ran, r, (long)ran.n, c);
  }
  if (f) fclose(f);
  char all[2048];
  hwloc_bitmap_list_snprintf(all, sizeof all, hwloc_topology_get_topology_cpuset(topo->h));
  for (uint32_t r = 0; r < nranks; r++) {
    const places *from = has_rank(&ran, r) ? &ran : has_rank(&may, r) ? &may : NULL;
    for (size_t i = 0; from && i < from->n; i++)
      if (from->v[i].rank == r) {
        char cpus[2048];
        hwloc_bitmap_list_snprintf(cpus, sizeof cpus, from->v[i].cpus);
        places_put(p, r, from->v[i].tnum, cpus);
      }
    if (from) continue;
    const augur_rank_def *d = augur_trace_rank(tr, r);
    if (!d || !d->cpus || !*d->cpus || places_put(p, r, 0, d->cpus) != 0) places_put(p, r, 0, all);
  }
  places_free(&ran);
  places_free(&may);
}

/* Cores (hwloc) that SET touches. */
static unsigned cores_in(const sweep_topo *topo, hwloc_const_bitmap_t set) {
  unsigned n = 0;
  int ncores = hwloc_get_nbobjs_by_type(topo->h, HWLOC_OBJ_CORE);
  for (int i = 0; i < ncores; i++) {
    hwloc_obj_t c = hwloc_get_obj_by_type(topo->h, HWLOC_OBJ_CORE, (unsigned)i);
    if (c && hwloc_bitmap_intersects(c->cpuset, set)) n++;
  }
  return n;
}

/* cores_used, oversubscribed and the affinity counts (docs/model.md): a
 * thread is on a cache or package when the CPUs it may run on all belong
 * to it; a worker process is on it when one of its threads is. Rank 0 is
 * the master: it counts for oversubscription only. */
static void placement(const augur_trace *tr, const char *log, const sweep_topo *topo,
                      sweep_measure *m) {
  char here[256] = "";
  if (gethostname(here, sizeof here - 1) != 0) here[0] = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(tr); r++) {
    const augur_rank_def *d = augur_trace_rank(tr, r);
    if (d && d->host && strcmp(d->host, here)) m->elsewhere = 1;
  }
  if (m->elsewhere) return;
  places p = {0};
  read_places(tr, log, topo, &p);
  hwloc_bitmap_t workers = hwloc_bitmap_alloc(), all = hwloc_bitmap_alloc();
  if (!workers || !all) goto out;
  for (size_t i = 0; i < p.n; i++) {
    hwloc_bitmap_or(all, all, p.v[i].cpus);
    if (p.v[i].rank != 0) hwloc_bitmap_or(workers, workers, p.v[i].cpus);
  }
  m->cores_used = cores_in(topo, workers);
  m->oversubscribed = (double)p.n > (double)cores_in(topo, all);
  uint32_t nranks = augur_trace_nranks(tr);
  char *seen = calloc(nranks ? nranks : 1, 1);
  if (!seen) goto out;
  for (size_t k = 0; k < sweep_topo_ncols(topo); k++) {
    int lv, procs;
    unsigned inst;
    column(topo, k, &lv, &procs, &inst);
    hwloc_obj_t o = hwloc_get_obj_by_type(topo->h, level_type(lv), inst);
    memset(seen, 0, nranks);
    double count = 0;
    for (size_t i = 0; o && i < p.n; i++) {
      if (p.v[i].rank == 0 || p.v[i].rank >= nranks) continue;
      if (!hwloc_bitmap_isincluded(p.v[i].cpus, o->cpuset)) continue;
      if (!procs)
        count++;
      else if (!seen[p.v[i].rank]++)
        count++;
    }
    m->affinity[k] = count;
  }
  free(seen);
out:
  hwloc_bitmap_free(workers);
  hwloc_bitmap_free(all);
  places_free(&p);
}

/* ---- the iteration cycle ----------------------------------------------- */

/* A master's call that hands work out (a point-to-point send) or takes
 * results in (a call that completed a matched receive). */
enum { CALL_OTHER, CALL_OUT, CALL_IN };

static int call_kind(const augur_lt_event *e) {
  if (e->flags & AUGUR_LT_MESSAGE) return CALL_IN;
  return augur_event_is_p2p_send(e->type) ? CALL_OUT : CALL_OTHER;
}

/* Iterations on the master (rank 0): a cycle starts at a send that follows
 * a receive (or at the first send) and runs to the next such send; it is an
 * iteration when it receives something. Its time runs from the start of its
 * first send to the start of the next cycle (the end of its last receive
 * when none follows). Fills M's iterations, t_iter (median), t_iter_sd
 * (sample sd), and the computation (the window minus the calls in it) and
 * MPI time per iteration of every rank over [first start, last end).
 * Returns 0, or -1 when fewer than 2 iterations are found. */
static int cycle_times(const augur_logical *lg, double *mpi_per_iter, sweep_measure *m) {
  const augur_lt_rank *r0 = &lg->rank[0];
  uint64_t *start = malloc((r0->n + 1) * sizeof *start); /* cycle starts, ns */
  int *recv = calloc(r0->n + 1, sizeof *recv);           /* cycle k received */
  uint64_t *last_in = calloc(r0->n + 1, sizeof *last_in);
  size_t nc = 0;
  int prev = CALL_OTHER;
  for (uint64_t i = 0; start && recv && last_in && i < r0->n; i++) {
    int k = call_kind(&r0->ev[i]);
    if (k == CALL_OUT && (prev == CALL_IN || nc == 0)) start[nc++] = r0->ev[i].t_start;
    if (k == CALL_IN && nc) {
      recv[nc - 1] = 1;
      last_in[nc - 1] = r0->ev[i].t_end;
    }
    if (k != CALL_OTHER) prev = k;
  }
  double *t = malloc((nc + 1) * sizeof *t);
  size_t n = 0;
  uint64_t t0 = 0, t1 = 0;
  for (size_t c = 0; t && c < nc; c++) {
    if (!recv[c]) continue;
    uint64_t end = c + 1 < nc ? start[c + 1] : last_in[c];
    if (!n) t0 = start[c];
    t1 = end;
    t[n++] = (double)(end - start[c]) / 1e9;
  }
  free(start);
  free(recv);
  free(last_in);
  if (n < 2) {
    free(t);
    return -1;
  }
  m->t_iter = aug_median(t, n); /* sorts t: the sums below run in that order */
  double mean = 0, ss = 0;
  for (size_t i = 0; i < n; i++)
    mean += t[i] / (double)n;
  for (size_t i = 0; i < n; i++)
    ss += (t[i] - mean) * (t[i] - mean);
  m->iterations = (double)n;
  m->t_iter_sd = sqrt(ss / (double)(n - 1));
  free(t);
  /* Computation: the window minus the rank's calls in it (the report's
   * definition, over the iterations only). */
  double worker_comp = 0, mpi = 0;
  for (uint32_t rk = 0; rk < lg->nranks; rk++) {
    const augur_lt_rank *r = &lg->rank[rk];
    double in_mpi = 0;
    for (uint64_t i = 0; i < r->n; i++) {
      uint64_t a = r->ev[i].t_start > t0 ? r->ev[i].t_start : t0;
      uint64_t b = r->ev[i].t_end < t1 ? r->ev[i].t_end : t1;
      if (b > a) in_mpi += (double)(b - a);
    }
    double comp = ((double)(t1 - t0) - in_mpi) / (1e9 * (double)n);
    mpi += in_mpi;
    if (rk == 0)
      m->t_comp_master = comp;
    else
      worker_comp += comp / (double)(lg->nranks - 1);
  }
  m->t_comp_worker = worker_comp;
  *mpi_per_iter = mpi / (1e9 * (double)n * (double)lg->nranks);
  return 0;
}

/* Waiting per process per iteration: the diagnosis's exact wait states
 * (late sender, late receiver, ...), whole run. */
static double wait_per_iter(augur_trace *tr, double iterations) {
  augur_dx_options o = {0};
  augur_diagnosis *d = NULL;
  augur_error err = {0};
  if (augur_diagnose(tr, &o, &d, &err) != AUGUR_OK) return NAN;
  double w = 0;
  for (int k = 0; k < AUGUR_DX_NWAITSTATES; k++)
    w += d->wait_seconds[k];
  double v = w / ((double)d->nranks * iterations);
  augur_diagnosis_free(d);
  return v;
}

void sweep_measure_run(const char *dir, const char *log, const sweep_topo *topo, sweep_measure *m) {
  assert(dir && log && topo && m && m->affinity);
  double *aff = m->affinity;
  *m = (sweep_measure){.status = "ok", .affinity = aff};
  m->iterations = m->t_iter = m->t_iter_sd = m->t_comp_master = m->t_comp_worker = m->t_comm =
      m->t_wait = m->cores_used = m->oversubscribed = NAN;
  for (size_t k = 0; k < sweep_topo_ncols(topo); k++)
    aff[k] = NAN;
  m->t_app = sweep_app_time(log);

  augur_trace *tr = NULL;
  augur_error err = {0};
  if (augur_trace_open(&tr, dir, &err) != AUGUR_OK) {
    m->status = "unreadable";
    snprintf(m->note, sizeof m->note, "no trace: %s", err.msg);
    return;
  }
  placement(tr, log, topo, m);
  char why[AUGUR_INCOMPLETE_MAX];
  if (augur_trace_incomplete(tr, why, sizeof why)) {
    m->status = "incomplete";
    snprintf(m->note, sizeof m->note, "%s", why);
    augur_trace_close(tr);
    return;
  }
  augur_logical *lg = NULL;
  double mpi = NAN;
  if (augur_logical_build(tr, &lg, &err) != AUGUR_OK) {
    m->status = "unreadable";
    snprintf(m->note, sizeof m->note, "%s", err.msg);
  } else if (lg->nranks < 2 || cycle_times(lg, &mpi, m) != 0) {
    m->status = "no_cycle";
    snprintf(m->note, sizeof m->note,
             "fewer than 2 master->workers->master cycles in the trace (rank 0 is the master: "
             "its sends, then its receives, make one iteration)");
  } else {
    m->t_wait = wait_per_iter(tr, m->iterations);
    m->t_comm = isnan(m->t_wait) ? NAN : fmax(0, mpi - m->t_wait);
  }
  augur_logical_free(lg);
  augur_trace_close(tr);
}
