/* The phase what-if of `augur simulate --scale phase:ID=xF`: which stretches
 * of each rank's run belong to a phase, found with the PAS2P phase detector
 * (include/augur/phases.h, global mode), turned into time windows that the
 * graph builder applies to the compute bursts (graph_trace.c). */
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "sim_int.h"

/* A repetition in global ticks [u0, u1) and the factor of its phase. */
typedef struct tick_range {
  uint64_t u0, u1;
  double factor;
} tick_range;

static int range_cmp(const void *a, const void *b) {
  const tick_range *x = a, *y = b;
  return x->u0 < y->u0 ? -1 : x->u0 > y->u0;
}

/* Every repetition of the requested phases, sorted by first tick. */
static int ranges_of(const augur_phases *p, const augur_sim_phase_scale *sc, size_t n,
                     tick_range **out, size_t *nout, augur_error *err) {
  size_t cap = 0, k = 0;
  tick_range *r = NULL;
  for (size_t i = 0; i < n; i++) {
    const augur_phase *ph = NULL;
    for (uint32_t j = 0; j < p->nphases; j++)
      if (p->phase[j].id == sc[i].phase) ph = &p->phase[j];
    if (!ph) {
      free(r);
      return augur_fail(err, AUGUR_E_ARG,
                        "--scale: the trace has no phase %u (augur phases lists 1..%u)",
                        sc[i].phase, p->nphases);
    }
    for (uint32_t q = 0; q < ph->nruns; q++)
      for (uint64_t j = 0; j < ph->runs[q].count; j++) {
        if (aug_grow((void **)&r, &cap, k + 1, sizeof *r)) {
          free(r);
          return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
        }
        uint64_t u0 = ph->runs[q].first_unit + j * ph->nunits;
        r[k++] = (tick_range){u0, u0 + ph->nunits, sc[i].factor};
      }
  }
  if (k) qsort(r, k, sizeof *r, range_cmp);
  *out = r;
  *nout = k;
  return AUGUR_OK;
}

/* Rank R's windows: a repetition runs from entering its first call on R to
 * entering R's first call of a later tick (or R's end). */
static int windows_of(const augur_lt_rank *lr, const tick_range *r, size_t nr, sim_window **out,
                      size_t *nout) {
  sim_window *w = nr ? malloc(nr * sizeof *w) : NULL;
  if (nr && !w) return -1;
  size_t k = 0, e = 0;
  uint64_t end_ns = lr->n ? lr->ev[lr->n - 1].t_end : 0;
  for (size_t i = 0; i < nr; i++) {
    while (e < lr->n && lr->ev[e].lt < r[i].u0)
      e++;
    if (e == lr->n || lr->ev[e].lt >= r[i].u1) continue; /* no call of this rank in it */
    uint64_t t0 = lr->ev[e].t_start;
    size_t f = e;
    while (f < lr->n && lr->ev[f].lt < r[i].u1)
      f++;
    uint64_t t1 = f < lr->n ? lr->ev[f].t_start : end_ns + 1;
    w[k++] = (sim_window){t0, t1, r[i].factor};
    e = f;
  }
  *out = w;
  *nout = k;
  return 0;
}

int sim_windows_build(augur_trace *t, const augur_sim_phase_scale *sc, size_t n, sim_windows *win,
                      uint32_t *nranks, augur_error *err) {
  win->w = NULL;
  win->n = NULL;
  *nranks = 0;
  for (size_t i = 0; i < n; i++)
    if (!(sc[i].factor > 0))
      return augur_fail(err, AUGUR_E_ARG, "--scale: the factor of phase %u must be > 0",
                        sc[i].phase);
  augur_logical *lg = NULL;
  augur_phases *p = NULL;
  augur_phase_opts o;
  augur_phase_opts_default(&o);
  int rc = augur_logical_build(t, &lg, err);
  if (rc == AUGUR_OK) rc = augur_phases_detect(lg, &o, &p, err);
  tick_range *r = NULL;
  size_t nr = 0;
  if (rc == AUGUR_OK) rc = ranges_of(p, sc, n, &r, &nr, err);
  if (rc == AUGUR_OK) {
    *nranks = lg->nranks;
    win->w = calloc(lg->nranks ? lg->nranks : 1, sizeof *win->w);
    win->n = calloc(lg->nranks ? lg->nranks : 1, sizeof *win->n);
    if (!win->w || !win->n) rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    for (uint32_t k = 0; rc == AUGUR_OK && k < lg->nranks; k++)
      if (windows_of(&lg->rank[k], r, nr, &win->w[k], &win->n[k]) != 0)
        rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }
  /* The logical trace is large: gone before the graph is built. */
  augur_phases_free(p);
  augur_logical_free(lg);
  free(r);
  if (rc != AUGUR_OK) sim_windows_free(win, *nranks);
  return rc;
}

void sim_windows_free(sim_windows *win, uint32_t nranks) {
  for (uint32_t k = 0; win->w && k < nranks; k++)
    free(win->w[k]);
  free(win->w);
  free(win->n);
  win->w = NULL;
  win->n = NULL;
}

int augur_sim_graph_from_trace_phases(augur_sim_graph **g, augur_trace *t,
                                      const augur_sim_phase_scale *sc, size_t n, augur_error *err) {
  if (!n) return augur_sim_graph_from_trace(g, t, err);
  *g = NULL;
  sim_windows win;
  uint32_t nranks;
  int rc = sim_windows_build(t, sc, n, &win, &nranks, err);
  if (rc == AUGUR_OK) rc = sim_graph_build(g, t, &win, err);
  sim_windows_free(&win, nranks);
  return rc;
}
