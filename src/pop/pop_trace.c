/* The POP efficiencies of a trace (include/augur/pop.h): the thread states
 * of every rank, the run time on the ideal network, and what the figures
 * cannot be trusted for. */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/pop.h"
#include "pop_states.h"

void augur_pop_ideal_machine(augur_machine *m) {
  assert(m);
  augur_machine_default(m);
  snprintf(m->name, sizeof m->name, "ideal network");
  m->overhead = 0;
  m->latency = m->shm_latency = m->hop_latency = 0;
  m->bandwidth = m->shm_bandwidth = INFINITY;
  m->injection_bandwidth = 0; /* unlimited */
  m->fattree_uplink_bandwidth = 0;
  m->topology = AUGUR_TOPO_CROSSBAR;
  m->eager_limit = UINT64_MAX;
  m->fresh_buffer = m->first_touch = 0;
  m->cpu_speed = 1;
  m->cpu_cores = 0; /* a core per rank: the bursts take what they took */
  m->cpu_background_load = 0;
  m->cpu_quantum = m->cpu_quota = 0;
}

static void note(augur_pop *p, const char *fmt, ...) {
  p->trusted = 0;
  if (p->nnotes >= AUGUR_POP_NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->notes[p->nnotes++], AUGUR_POP_NOTE_MAX, fmt, ap);
  va_end(ap);
}

static int cmp_region(const void *a, const void *b) {
  const augur_pop_region *x = a, *y = b;
  if (x->site.elapsed_ns != y->site.elapsed_ns)
    return x->site.elapsed_ns > y->site.elapsed_ns ? -1 : 1;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->site.callsite < y->site.callsite ? -1 : (x->site.callsite > y->site.callsite);
}

/* Moves every rank's regions into P, longest first. */
static int take_regions(augur_pop *p, augur_rank_states *rs, uint32_t n) {
  size_t k = 0;
  for (uint32_t r = 0; r < n; r++)
    k += rs[r].nsites;
  if (!k) return 0;
  if (!(p->regions = calloc(k, sizeof *p->regions))) return -1;
  for (uint32_t r = 0; r < n; r++) {
    for (size_t i = 0; i < rs[r].nsites; i++)
      p->regions[p->nregions++] = (augur_pop_region){rs[r].rank, rs[r].sites[i]};
    rs[r].nsites = 0; /* moved: their arrays are P's now */
  }
  qsort(p->regions, p->nregions, sizeof *p->regions, cmp_region);
  return 0;
}

void augur_pop_free(augur_pop *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nregions; i++) {
    free(p->regions[i].site.useful_ns);
    free(p->regions[i].site.iterations);
    free(p->regions[i].site.chunks);
  }
  free(p->regions);
  p->regions = NULL;
  p->nregions = 0;
}

int augur_pop_trace(augur_trace *t, int ideal_run, augur_pop *out, augur_error *err) {
  return augur_pop_trace_progress(t, ideal_run, NULL, NULL, out, err);
}

int augur_pop_trace_progress(augur_trace *t, int ideal_run, augur_progress_fn progress, void *ctx,
                             augur_pop *out, augur_error *err) {
  assert(t && out);
  uint32_t n = augur_trace_nranks(t);
  augur_rank_states *rs = calloc(n ? n : 1, sizeof *rs);
  if (!rs) return augur_fail(err, AUGUR_E_NOMEM, "efficiencies: out of memory");
  char damaged[AUGUR_ERROR_MSG_MAX] = "";
  for (uint32_t r = 0; r < n; r++) {
    augur_error rerr = {0};
    int rc = augur_rank_states_trace(t, r, &rs[r], &rerr);
    if (rc == AUGUR_E_NOMEM) {
      for (uint32_t k = 0; k <= r; k++)
        augur_rank_states_free(&rs[k]);
      free(rs);
      return augur_fail(err, rc, "%s", rerr.msg);
    }
    if (rc < 0 && !damaged[0]) snprintf(damaged, sizeof damaged, "%s", rerr.msg);
  }
  return aug_pop_from_states(t, rs, n, damaged, ideal_run, progress, ctx, out, err);
}

int aug_pop_from_states(augur_trace *t, augur_rank_states *rs, uint32_t n, const char *damaged,
                        int ideal_run, augur_progress_fn progress, void *ctx, augur_pop *out,
                        augur_error *err) {
  assert(t && rs && damaged && out);
  augur_machine m;
  augur_pop_ideal_machine(&m);
  augur_sim_result sr;
  augur_error serr = {0};
  double ideal = -1;
  augur_sim_trace_opts so = {.progress = progress, .progress_arg = ctx};
  int src = ideal_run ? augur_simulate_trace(t, &m, &so, &sr, NULL, &serr) : AUGUR_OK;
  if (src == AUGUR_OK && ideal_run) {
    ideal = sr.predicted_seconds * 1e9;
    augur_sim_result_free(&sr);
  }
  augur_pop_compute(rs, n, ideal, out);
  out->ideal_skipped = !ideal_run;
  int rc = take_regions(out, rs, n);
  for (uint32_t r = 0; r < n; r++)
    augur_rank_states_free(&rs[r]);
  free(rs);
  if (rc) return augur_fail(err, AUGUR_E_NOMEM, "efficiencies: out of memory (regions)");

  augur_hosts h;
  if (augur_trace_hosts(t, &h, err) != AUGUR_OK) {
    augur_pop_free(out);
    return AUGUR_E_NOMEM;
  }
  if (h.oversubscribed)
    note(out,
         "oversubscribed: %u ranks on %u CPU%s (host %s%s): ranks also wait for a CPU, so "
         "useful time and the run time include time a rank was ready but not running; run "
         "at most one rank per CPU to measure efficiencies",
         h.ranks, h.cores, h.cores > 1 ? "s" : "", h.host ? h.host : "",
         h.oversubscribed > 1 ? ", the busiest" : "");
  /* other processes on the ranks' CPUs (docs/diagnose.md "A busy host") */
  else if (augur_hosts_busy(&h, AUGUR_BUSY_HOST_SHARE))
    note(out,
         "busy host: the ranks waited %.3f s for a CPU (%.1f %% of their time from MPI_Init to "
         "MPI_Finalize) while other processes ran on their CPUs, so useful time and the run "
         "time include time a rank was ready but not running; measure on an idle host",
         (double)h.run_delay_ns * 1e-9, 100.0 * (double)h.run_delay_ns / (double)h.window_ns);
  char inc[AUGUR_INCOMPLETE_MAX];
  if (augur_trace_incomplete(t, inc, sizeof inc) > 0) note(out, "%s", inc);
  if (damaged[0]) note(out, "damaged trace: %s; the figures use what was read before", damaged);
  if (out->mpi_threads)
    note(out,
         "MPI calls on %llu thread%s besides the ranks' initial threads (MPI_THREAD_MULTIPLE): "
         "useful time is the initial threads' and counts those calls as useful",
         (unsigned long long)out->mpi_threads, out->mpi_threads > 1 ? "s" : "");
  if (out->nranks < n)
    note(out, "%u of %u ranks have no records between MPI_Init and MPI_Finalize: left out",
         n - out->nranks, n);
  if (src != AUGUR_OK) /* a damaged trace's message is said once, above */
    note(out, "no run time on the ideal network (%s): serialisation and transfer unknown",
         damaged[0] && strstr(serr.msg, damaged) ? "the trace is damaged" : serr.msg);
  return AUGUR_OK;
}
