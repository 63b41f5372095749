/* augur — building a PAS2P signature from a logical trace and its phases
 * (docs/signature.md).
 *
 * Per relevant phase and rank, the fingerprint is that rank's calls in the
 * ticks of the phase's first repetition. What is kept of each call is what a
 * running program can see at the call without the reader's help: the call
 * type, the call site as module base name + offset (stable under ASLR and
 * when the binary moves), the peer offset of point-to-point calls, and the
 * size class of calls whose bytes the recorder knows at the call itself
 * (completion calls get their bytes from the reader's request tracking, so
 * their size is not compared). */
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "augur/signature.h"

/* Repetition j (0-based) of phase p: its first unit, or UINT64_MAX. */
static uint64_t occurrence_unit(const augur_phase *p, uint64_t j) {
  for (uint32_t k = 0; k < p->nruns; k++) {
    if (j < p->runs[k].count) return p->runs[k].first_unit + j * p->nunits;
    j -= p->runs[k].count;
  }
  return UINT64_MAX;
}

/* First call of rank r at tick >= tick (ticks grow along a rank's calls). */
static uint64_t first_at(const augur_lt_rank *lr, uint64_t tick) {
  uint64_t lo = 0, hi = lr->n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (lr->ev[mid].lt < tick)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Which repetitions to measure: up to K after a warm-up one, but only those
 * that end by tick BUDGET (a share of the run), so that a rare phase (a
 * check every 100 iterations) does not turn the signature run into a full
 * run. The first repetition is always measured if it is the only one in
 * the budget. */
static void plan(const augur_phase *ph, uint32_t k, uint64_t budget, uint32_t *start,
                 uint32_t *measure) {
  uint64_t end1 = ph->weight >= 2 ? occurrence_unit(ph, 1) : UINT64_MAX;
  *start = end1 != UINT64_MAX && end1 + ph->nunits <= budget ? 1 : 0;
  uint32_t m = 1;
  while (m < k && *start + m < ph->weight) {
    uint64_t u = occurrence_unit(ph, *start + m);
    if (u == UINT64_MAX || u + ph->nunits > budget) break;
    m++;
  }
  *measure = m;
}

static int is_p2p(unsigned type) {
  return type >= AUGUR_EV_SEND && type <= AUGUR_EV_IMRECV && type != AUGUR_EV_IPROBE &&
         type != AUGUR_EV_IMPROBE;
}

/* Bytes known at the call (not filled in later from request tracking). */
static int size_known(unsigned type) {
  return is_p2p(type) || (type >= AUGUR_EV_BARRIER && type <= AUGUR_EV_IEXSCAN);
}

/* Module index of a trace call site, adding its base name to s. */
static int module_of(augur_signature *s, augur_trace *t, uint32_t callsite, uint16_t *mod,
                     uint64_t *off, augur_error *err) {
  *mod = 0;
  *off = 0;
  const augur_callsite_def *cs = t && callsite ? augur_trace_callsite(t, callsite) : NULL;
  const augur_module_def *md = cs ? augur_trace_module(t, cs->module) : NULL;
  if (!md || !md->path) return AUGUR_OK;
  *off = cs->offset;
  char name[256];
  augur_signature_module_name(md->path, name, sizeof name);
  uint16_t m = augur_signature_module(s, name);
  if (!m) {
    if (s->nmodules >= 65535) return AUGUR_OK;
    char **nm = realloc(s->module, (s->nmodules + 1) * sizeof *nm);
    if (!nm) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    s->module = nm;
    if (!(nm[s->nmodules] = strdup(name))) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    m = (uint16_t)++s->nmodules;
  }
  *mod = m;
  return AUGUR_OK;
}

static int fingerprint(augur_signature *s, const augur_logical *lg, const augur_phase *ph,
                       augur_trace *t, augur_sig_phase *out, augur_error *err) {
  out->ncalls = calloc(s->nranks, sizeof *out->ncalls);
  out->calls = calloc(s->nranks, sizeof *out->calls);
  if (!out->ncalls || !out->calls) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  for (uint32_t r = 0; r < s->nranks; r++) {
    const augur_lt_rank *lr = &lg->rank[r];
    uint64_t a = first_at(lr, ph->tick_first), b = first_at(lr, ph->tick_last + 1);
    if (b <= a) continue;
    out->ncalls[r] = (uint32_t)(b - a);
    out->calls[r] = calloc(b - a, sizeof *out->calls[r]);
    if (!out->calls[r]) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    for (uint64_t i = a; i < b; i++) {
      const augur_lt_event *e = &lr->ev[i];
      augur_sig_call *c = &out->calls[r][i - a];
      c->type = e->type;
      /* Real offsets only: the AUGUR_PEER_* values sit at INT32_MIN - v. */
      c->peer = is_p2p(e->type) && e->peer > INT32_MIN + 64 ? e->peer : AUGUR_SIG_PEER_ANY;
      c->size_class = size_known(e->type) ? e->size_class : AUGUR_SIG_SIZE_ANY;
      int rc = module_of(s, t, e->callsite, &c->module, &c->offset, err);
      if (rc) return rc;
    }
  }
  return AUGUR_OK;
}

int augur_signature_build(const augur_logical *lg, const augur_phases *p, augur_trace *t,
                          uint32_t measure, augur_signature **out, augur_error *err) {
  *out = NULL;
  if (p->mode != AUGUR_PHASES_GLOBAL)
    return augur_fail(err, AUGUR_E_ARG, "a signature is built from global-mode phases");
  if (!measure) measure = 1;
  augur_signature *s = calloc(1, sizeof *s);
  if (!s) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  s->nranks = lg->nranks;
  s->phase = calloc(p->nrelevant ? p->nrelevant : 1, sizeof *s->phase);
  if (!s->phase) {
    augur_signature_free(s);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }

  /* Where the measurement of the repeating phases ends (in ticks): a phase
   * of weight 1 that starts after it is "late" — waiting for it would turn
   * the signature run into a full run (teardown, a final checkpoint). */
  uint64_t budget = (uint64_t)((double)lg->nticks * AUGUR_SIGNATURE_BUDGET);
  uint64_t window_end = 0;
  int repeating = 0;
  uint64_t first_tick = UINT64_MAX;
  double relevant_ns = 0;
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    if (!ph->relevant) continue;
    relevant_ns += ph->total_ns;
    if (ph->tick_first < first_tick) first_tick = ph->tick_first;
    if (ph->weight < 2) continue;
    repeating = 1;
    uint32_t start, k;
    plan(ph, measure, budget, &start, &k);
    uint64_t u = occurrence_unit(ph, start + k - 1); /* the last one measured */
    if (u != UINT64_MAX && u + ph->nunits > window_end) window_end = u + ph->nunits;
  }

  int rc = AUGUR_OK;
  uint64_t best_weight = 0;
  int sync = -1;
  for (uint32_t i = 0; i < p->nphases && rc == AUGUR_OK; i++) {
    const augur_phase *ph = &p->phase[i];
    if (!ph->relevant) continue;
    augur_sig_phase *sp = &s->phase[s->nphases++];
    sp->id = ph->id;
    sp->weight = ph->weight;
    sp->base_seconds = ph->phase_ns / 1e9;
    plan(ph, measure, budget, &sp->start, &sp->measure);
    sp->late = repeating && ph->weight == 1 && ph->tick_first >= window_end;
    rc = fingerprint(s, lg, ph, t, sp, err);
    if (rc) break;
    int everyone = 1;
    for (uint32_t r = 0; r < s->nranks; r++)
      if (!sp->ncalls[r]) everyone = 0;
    if (!sp->late && ph->weight >= 2 && everyone && ph->weight > best_weight) {
      best_weight = ph->weight;
      sync = (int)(s->nphases - 1);
    }
  }
  if (rc) {
    augur_signature_free(s);
    return rc;
  }
  if (sync >= 0) s->phase[sync].sync = 1;

  double run = p->run_ns, pre = 0;
  if (first_tick != UINT64_MAX && lg->nranks) {
    for (uint32_t r = 0; r < lg->nranks; r++) {
      const augur_lt_rank *lr = &lg->rank[r];
      if (!lr->n) continue;
      uint64_t i = first_at(lr, first_tick);
      if (i < lr->n && lr->ev[i].t_start > lr->ev[0].t_start)
        pre += (double)(lr->ev[i].t_start - lr->ev[0].t_start);
    }
    pre /= lg->nranks;
  }
  double rest = run - pre - relevant_ns;
  s->base_run_seconds = run / 1e9;
  s->base_pre_seconds = pre / 1e9;
  s->base_rest_seconds = rest > 0 ? rest / 1e9 : 0;
  *out = s;
  return AUGUR_OK;
}
