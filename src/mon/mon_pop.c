/* augur monitoring — the POP efficiencies of a job from its process
 * summaries (docs/monitoring.md, "Efficiencies"): the MPI form of
 * docs/pop.md (include/augur/efficiency.h), with each rank's useful time
 * and window taken from what profile mode already sums. Computed by the
 * collector side from the record as sent (the JSON record, both stores), so
 * the wire format carries nothing new and a record spooled by an older
 * augur gets its figures too. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/efficiency.h"
#include "mon.h"

/* Appends one reason to the note ("; " between), marking the figures as
 * not to be trusted. */
static void note(mon_pop *p, const char *fmt, ...) {
  p->trusted = 0;
  size_t at = strlen(p->note);
  if (at + 3 >= sizeof p->note) return;
  if (at) at += (size_t)snprintf(p->note + at, sizeof p->note - at, "; ");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->note + at, sizeof p->note - at, fmt, ap);
  va_end(ap);
}

/* The MPI time of the rank's initial thread (the one whose tid is the
 * pid: it called MPI_Init), or -1 when its slot holds other threads too. */
static int64_t initial_mpi_ns(const augp_proc *p) {
  uint64_t nt = p->nthreads < AUGP_MAX_THREADS ? p->nthreads : AUGP_MAX_THREADS;
  for (uint64_t t = 0; t < nt; t++) {
    const augp_thread *th = &p->threads[t];
    if (th->tid != p->pid) continue;
    if (th->nfolded || (th->flags & AUGP_TF_OVERFLOW)) return -1;
    return (int64_t)th->mpi_ns;
  }
  return -1;
}

static uint64_t sum(const uint64_t *v, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

void mon_job_pop(const uint8_t *payload, uint32_t len, mon_pop *out) {
  memset(out, 0, sizeof *out);
  out->lb = out->comm = out->pe = out->omp_pe = -1;
  out->trusted = 1;
  augp_job j;
  if (len < sizeof j) {
    note(out, "no job record");
    return;
  }
  memcpy(&j, payload, sizeof j);
  if (len < sizeof j + j.nprocs * sizeof(augp_proc)) {
    note(out, "job record cut short");
    return;
  }
  /* The ranks, to find one seen twice (memory in processes, whatever
   * nranks claims). */
  int64_t *ranks = malloc((j.nprocs ? j.nprocs : 1) * sizeof *ranks);
  if (!ranks) {
    note(out, "out of memory");
    return;
  }
  /* A job without MPI ranks whose one OpenMP process started the tool is
   * one rank of one (its MPI figures 1, its OpenMP one measured). */
  int64_t mpiranks = 0, ompprocs = 0, omprt_procs = 0;
  for (uint64_t i = 0; i < j.nprocs; i++) {
    augp_proc p;
    memcpy(&p, payload + sizeof j + i * sizeof p, sizeof p);
    mpiranks += p.rank >= 0 && (p.flags & AUGP_PF_MPI);
    ompprocs += (p.flags & AUGP_PF_OMP) != 0;
    omprt_procs += (p.flags & AUGP_PF_OMPRT) != 0;
  }
  int omp_alone = !mpiranks && ompprocs == 1;
  if (!mpiranks && ompprocs > 1) {
    free(ranks);
    note(out, "%lld OpenMP processes and no MPI ranks: no efficiencies (one process is a job)",
         (long long)ompprocs);
    return;
  }
  int64_t nranks = -1;
  uint64_t seen = 0;
  double usum = 0, umax = 0, run = 0;
  int64_t umax_rank = 0;
  uint64_t nofinish = 0, folded = 0, threaded = 0, badtime = 0, omprt = 0, omp = 0;
  double tusum = 0, tcount = 0; /* threads' user time, threads */
  int64_t nofinish_rank = -1, folded_rank = -1;
  for (uint64_t i = 0; i < j.nprocs; i++) {
    augp_proc p;
    memcpy(&p, payload + sizeof j + i * sizeof p, sizeof p);
    if (omp_alone && (p.flags & AUGP_PF_OMP)) {
      p.rank = 0;
      p.nranks = 1;
    } else if (p.rank < 0 || !(p.flags & AUGP_PF_MPI)) {
      continue;
    }
    if (nranks < 0) nranks = p.nranks;
    if (p.nranks != nranks) {
      /* Two runs (sh -c 'mpiexec ...; mpiexec ...'): their ranks cannot be
       * put on one time line from summaries. */
      free(ranks);
      note(out, "ranks of more than one MPI run (sizes %lld and %lld): no efficiencies",
           (long long)nranks, (long long)p.nranks);
      return;
    }
    ranks[seen] = p.rank;
    seen++;
    double wall = (double)(p.end_ns - p.start_ns);
    /* The window of docs/pop.md: from the end of MPI_Init to the start of
     * MPI_Finalize. Only their durations are known: the window is the
     * process's life less them (what precedes MPI_Init counts as useful). */
    double init = (double)p.mpi_ns[AUGP_MPI_INIT_FINI];
    double window = wall > init ? wall - init : 0;
    int64_t mpi = initial_mpi_ns(&p);
    uint64_t all = sum(p.mpi_ns, AUGP_NMPI);
    if (mpi < 0) {
      folded++;
      if (folded_rank < 0) folded_rank = p.rank;
      mpi = (int64_t)all;
    } else if (all > (uint64_t)mpi) {
      threaded++;
    }
    double useful = wall - (double)mpi;
    if (useful > window) useful = window;
    if (useful < 0) useful = 0;
    if (p.flags & AUGP_PF_NOFINISH) {
      nofinish++;
      if (nofinish_rank < 0) nofinish_rank = p.rank;
    }
    if (p.flags & AUGP_PF_BADTIME) badtime++;
    if ((p.flags & AUGP_PF_OMPRT) && !(p.flags & AUGP_PF_OMP)) omprt++;
    /* The hybrid figure (docs/pop.md): per thread its user time u; the
     * OpenMP threads of a rank whose runtime started the tool, else the
     * initial thread alone with u = Useful_p. */
    if (p.flags & AUGP_PF_OMP) {
      omp++;
      uint64_t nt = p.nthreads < AUGP_MAX_THREADS ? p.nthreads : AUGP_MAX_THREADS;
      for (uint64_t t = 0; t < nt; t++) {
        const augp_thread *th = &p.threads[t];
        if (!(th->flags & AUGP_TF_OMP)) continue;
        double u = (double)th->ctr[AUGP_CTR_RESERVED];
        /* the initial thread's life holds MPI_Init: the window does not */
        if (th->tid == p.pid && u > useful) u = useful;
        tusum += u;
        tcount += 1 + th->nfolded;
      }
    } else {
      tusum += useful;
      tcount++;
    }
    usum += useful;
    if (useful > umax || seen == 1) {
      umax = useful;
      umax_rank = p.rank;
    }
    if (window > run) run = window;
  }
  qsort(ranks, seen, sizeof *ranks, cmp_i64);
  for (uint64_t i = 1; i < seen; i++)
    if (ranks[i] == ranks[i - 1]) {
      long long twice = (long long)ranks[i];
      free(ranks);
      *out = (mon_pop){.lb = -1, .comm = -1, .pe = -1, .omp_pe = -1};
      note(out, "ranks of more than one MPI run (rank %lld twice): no efficiencies", twice);
      return;
    }
  free(ranks);
  if (!seen) {
    if (omprt_procs)
      note(out,
           "no MPI ranks, and OpenMP not seen: %lld process%s ran an OpenMP runtime that "
           "started no tool (libgomp without LLVM's libomp, or AUGUR_OMP=0)",
           (long long)omprt_procs, omprt_procs == 1 ? "" : "es");
    else
      note(out, "no MPI ranks: not an MPI job");
    return;
  }
  out->ranks = (uint32_t)seen;
  out->useful_avg_ns = usum / (double)seen;
  out->useful_max_ns = umax;
  out->useful_max_rank = umax_rank;
  out->run_ns = run;
  augur_eff_mpi e = augur_eff_mpi_form(out->useful_avg_ns, umax, run);
  out->lb = e.lb;
  out->comm = e.comm;
  out->pe = e.par;
  if (omp && tcount > 0) {
    /* HPE = avg u / T = MPI PE x OMP PE */
    double hpe = augur_eff_ratio(tusum / tcount, run);
    out->omp_pe = augur_eff_ratio(hpe, e.par);
    out->pe = hpe;
  }
  if ((int64_t)seen < nranks)
    note(out, "%lld of %lld ranks have no record: figures over the others",
         (long long)(nranks - (int64_t)seen), (long long)nranks);
  if (nofinish)
    note(out, "%llu rank%s never reached MPI_Finalize (rank %lld): window up to its exit",
         (unsigned long long)nofinish, nofinish == 1 ? "" : "s", (long long)nofinish_rank);
  if (badtime)
    note(out, "%llu rank%s with no duration (bad_time)", (unsigned long long)badtime,
         badtime == 1 ? "" : "s");
  if (folded)
    note(out,
         "the initial thread of %llu rank%s (rank %lld) shares its slot with other threads: "
         "their MPI time is counted as the rank's",
         (unsigned long long)folded, folded == 1 ? "" : "s", (long long)folded_rank);
  if (omprt)
    note(out,
         "OpenMP not seen: %llu rank%s ran an OpenMP runtime that started no tool (libgomp "
         "without LLVM's libomp, or AUGUR_OMP=0): MPI figures only",
         (unsigned long long)omprt, omprt == 1 ? "" : "s");
  if (threaded)
    note(out, "MPI calls on threads besides the initial one in %llu rank%s: counted as useful",
         (unsigned long long)threaded, threaded == 1 ? "" : "s");
}

const char *mon_pop_limiter(double pe, double lb, double comm, double omp_pe, double threshold) {
  if (pe < 0 || pe >= threshold) return NULL;
  const char *f = "load balance";
  double v = lb;
  if (comm >= 0 && comm < v) f = "communication", v = comm;
  if (omp_pe >= 0 && omp_pe < v) f = "OpenMP";
  return f;
}

int mon_pop_threshold(const char *text, double *out) {
  if (!text || !*text) return -1;
  char *end;
  double v = strtod(text, &end);
  if (*end == '%') end++;
  if (end == text || *end || !(v >= 0 && v <= 100)) return -1;
  *out = v / 100;
  return 0;
}
