/* The POP efficiencies from thread states (include/augur/pop.h, docs/pop.md):
 * pure arithmetic, no trace, no simulation. */
#include <assert.h>
#include <string.h>

#include "augur/efficiency.h"
#include "augur/pop.h"

static double ratio(double num, double den) {
  return augur_eff_ratio(num, den);
}

/* User code of a thread: useful + serial. */
static double user_ns(const augur_thread_time *th) {
  return (double)th->ns[AUGUR_TS_USEFUL] + (double)th->ns[AUGUR_TS_SERIAL];
}

void augur_pop_compute(const augur_rank_states *ranks, uint32_t n, double t_ideal_ns,
                       augur_pop *out) {
  assert(out && (ranks || !n));
  memset(out, 0, sizeof *out);
  out->t_ideal_ns = t_ideal_ns >= 0 ? t_ideal_ns : -1;
  out->trusted = 1;
  uint64_t t0 = UINT64_MAX, t1 = 0;
  double sum = 0, tsum = 0;
  for (uint32_t r = 0; r < n; r++) {
    const augur_rank_states *s = &ranks[r];
    const augur_thread_time *init = augur_rank_states_initial(s);
    if (!s->started || !init) continue;
    if (s->t0 < t0) t0 = s->t0;
    if (s->t1 > t1) t1 = s->t1;
    double window = (double)(s->t1 - s->t0);
    double useful = window - (double)init->ns[AUGUR_TS_MPI];
    out->nranks++;
    sum += useful;
    if (useful > out->useful_max_ns || out->nranks == 1) {
      out->useful_max_ns = useful;
      out->useful_max_rank = s->rank;
    }
    out->unbalanced += s->unbalanced;
    uint64_t threads = 0;
    if (s->omp_records) out->hybrid = 1;
    /* Threads: all of a rank with OpenMP records, else its initial thread
     * (other threads of an MPI-only rank are the program's own). */
    for (size_t i = 0; i < s->nthreads; i++) {
      const augur_thread_time *th = &s->threads[i];
      if (!th->initial && th->ns[AUGUR_TS_MPI]) out->mpi_threads++;
      if (!s->omp_records && !th->initial) continue;
      double u = user_ns(th);
      out->nthreads++;
      tsum += u;
      if (u > out->thread_useful_max_ns) out->thread_useful_max_ns = u;
      out->thread_ns += window;
      threads++;
    }
    /* The other threads had nothing to do while the initial one ran
     * outside its parallel regions (measured on the initial thread: a
     * worker's end of region can be reported late, at the next fork). */
    if (threads > 1) out->ser_ns += (double)(threads - 1) * (window - (double)init->region_ns);
    for (size_t i = 0; i < s->nsites; i++) {
      out->lb_ns += s->sites[i].lb_ns;
      out->sched_ns += s->sites[i].sched_ns;
    }
  }
  if (!out->nranks) {
    out->lb = out->comm_eff = out->par_eff = out->hpe = out->hlbe = 1;
    out->omp_pe = out->omp_lbe = out->omp_ce = 1;
    out->omp_ser_eff = out->omp_lb_eff = out->omp_sched_eff = 1;
    out->ser_eff = out->trans_eff = out->t_ideal_ns >= 0 ? 1 : -1;
    return;
  }
  out->t_ns = (double)(t1 - t0);
  out->useful_avg_ns = sum / out->nranks;
  augur_eff_mpi e = augur_eff_mpi_form(out->useful_avg_ns, out->useful_max_ns, out->t_ns);
  out->lb = e.lb;
  out->comm_eff = e.comm;
  out->par_eff = e.par;
  if (out->t_ideal_ns >= 0) {
    out->ser_eff = ratio(out->useful_max_ns, out->t_ideal_ns);
    out->trans_eff = ratio(out->t_ideal_ns, out->t_ns);
  } else {
    out->ser_eff = out->trans_eff = -1;
  }
  out->thread_useful_avg_ns = out->nthreads ? tsum / (double)out->nthreads : 0;
  out->hpe = ratio(out->thread_useful_avg_ns, out->t_ns);
  out->hlbe = ratio(out->thread_useful_avg_ns, out->thread_useful_max_ns);
  out->omp_pe = ratio(out->hpe, out->par_eff);
  out->omp_lbe = ratio(out->hlbe, out->lb);
  out->omp_ce = ratio(out->omp_pe, out->omp_lbe);
  double tt = out->thread_ns, a = tt - out->ser_ns, b = a - out->lb_ns, c = b - out->sched_ns;
  /* Nested regions count their team's time again: never below 0. */
  out->omp_ser_eff = ratio(a, tt);
  out->omp_lb_eff = b > 0 ? ratio(b, a) : 0;
  out->omp_sched_eff = c > 0 ? ratio(c, b) : 0;
}
