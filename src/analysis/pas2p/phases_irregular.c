/* PAS2P irregular mode (seed Ch. 3; docs/phases.md "Irregular mode").
 *
 * 1. The characteristic communicator: among the communicators that contain
 *    every rank, the one that groups most phases — per rank, the phase scan
 *    over the stretches between that communicator's sends (step 2) is run,
 *    and the repetitions of repeating phases are added over ranks — and on a
 *    tie the one at the lowest level (closest to MPI_COMM_WORLD), then the
 *    first used.
 * 2. Per rank, units are the stretches from one send of the characteristic
 *    communicator to the next. A send is a point-to-point send or a
 *    collective on it (not a communicator creation: it moves no data).
 *    MPI_Init starts the first stretch; the teardown, MPI_Finalize included,
 *    belongs to the last one. A unit is compared on its send only (type,
 *    peer offset, call site, volume): receives, completions and every call
 *    on other communicators are not compared, but their time, work and
 *    bytes belong to the unit, hence to the enclosing phase. Every stretch
 *    is a phase candidate: a phase is the class of stretches with the same
 *    send and similar work (the scan of phases.c with first_only units).
 * 3. Each rank's relevant phases become points (x, y): x = 20 x tick of the
 *    phase's first call / ticks of the run (1 = 5 % of the logical run), y =
 *    log2(1 + work per repetition) (1 = a factor 2 of work). K-means with the
 *    elbow (kmeans.c) groups them into global phases, each with per-rank
 *    ticks, weights and times (the seed's PHASE_TABLE).
 * 4. PET = the largest, over ranks, of the rank's sum of PhaseET x W over the
 *    global phases: in a bulk-synchronous program every rank's time covers
 *    the whole run (waits included), and the rank whose relevant phases
 *    cover most of it is the best estimate of when the last rank ends. */
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "phases_int.h"

#define LN2 0.69314718055994530942

/* Does call E bound a stretch on communicator C (index)? */
static int is_bound(const augur_lt_event *e, uint8_t c) {
  unsigned t = e->type;
  if (t == AUGUR_EV_INIT || t == AUGUR_EV_INIT_THREAD) return 1;
  if (!c || e->comm != c) return 0;
  return augur_event_is_p2p_send(t) || augur_event_is_collective(t);
}

/* Rank R's stretches between the bounds on C. Calls before the first bound
 * (none when the trace starts at MPI_Init) are a stretch of their own. */
static int units_irregular(const augur_logical *lg, uint32_t r, uint8_t c, augur_units *u) {
  memset(u, 0, sizeof *u);
  const augur_lt_rank *lr = &lg->rank[r];
  uint64_t n = 0;
  for (uint64_t i = 0; i < lr->n; i++)
    if (i == 0 || is_bound(&lr->ev[i], c)) n++;
  u->n = n;
  u->first_only = 1;
  size_t cap = (size_t)(n ? n : 1), calls = (size_t)(lr->n ? lr->n : 1);
  u->key = malloc(cap * sizeof *u->key);
  u->off = malloc((cap + 1) * sizeof *u->off);
  u->rrank = malloc(calls * sizeof *u->rrank);
  u->ridx = malloc(calls * sizeof *u->ridx);
  if (!u->key || !u->off || !u->rrank || !u->ridx) return -1;
  uint64_t k = 0;
  for (uint64_t i = 0; i < lr->n; i++) {
    u->rrank[i] = r;
    u->ridx[i] = (uint32_t)i;
    int bound = is_bound(&lr->ev[i], c);
    if (i == 0 || bound) {
      u->off[k] = i;
      /* A leading stretch that does not start at a bound never equals a
       * bounded one. */
      u->key[k++] = augur_call_key_(0, &lr->ev[i]) ^ (bound ? 0 : 0x5a5a5a5aull);
    }
  }
  u->off[n] = lr->n;
  return 0;
}

/* Per-rank phases of rank R with C as the characteristic communicator. */
static int rank_phases(const augur_logical *lg, const augur_phase_opts *o, uint32_t r, uint8_t c,
                       augur_phases *out, uint64_t *nunits) {
  augur_units u;
  memset(out, 0, sizeof *out);
  int rc = units_irregular(lg, r, c, &u);
  if (!rc) rc = augur_detect_units_(lg, o, &u, 1, (double)lg->rank[r].span_ns, out);
  *nunits = u.n;
  augur_units_free_(&u);
  return rc;
}

/* Where the first repetitions of rank phase PH start (ticks and
 * stretches) and how long each took, for a signature to plan which to
 * measure and to compare them with the same ones of a new run; U: the
 * rank's stretches. A repetition runs from entering its first call to
 * entering the next stretch's (the last one: to the end of its last call). */
static void rep_ticks(const augur_lt_rank *lr, const augur_units *u, const augur_phase *ph,
                      augur_irr_point *q) {
  q->nreps = 0;
  for (uint32_t k = 0; k < ph->nruns && q->nreps < AUGUR_IRR_REP_TICKS; k++)
    for (uint64_t j = 0; j < ph->runs[k].count && q->nreps < AUGUR_IRR_REP_TICKS; j++) {
      uint64_t unit = ph->runs[k].first_unit + j * ph->nunits;
      if (unit >= u->n || u->off[unit] >= lr->n) return;
      uint64_t t0 = lr->ev[u->off[unit]].t_start, next = unit + ph->nunits;
      uint64_t t1 = next < u->n && u->off[next] < lr->n ? lr->ev[u->off[next]].t_start
                                                        : lr->ev[lr->n - 1].t_end;
      q->rep_ns[q->nreps] = t1 > t0 ? (double)(t1 - t0) : 0;
      q->rep_unit[q->nreps] = unit;
      q->rep_tick[q->nreps++] = lr->ev[u->off[unit]].lt;
    }
}

static int nomem(augur_error *err) {
  return augur_fail(err, AUGUR_E_NOMEM, "out of memory for irregular phase detection");
}

static void free_ranks(augur_phases *rp, uint32_t nr) {
  for (uint32_t r = 0; rp && r < nr; r++)
    augur_phase_array_free_(rp[r].phase, rp[r].nphases);
  free(rp);
}

/* Step 1: scores every communicator that contains all ranks; returns the
 * chosen one's index (1..), 0 if none, -1 when out of memory. The chosen
 * one's per-rank phases stay in *RP (nranks entries) and their stretches
 * in *NUNITS: step 2 needs exactly them, so they are not scanned again. */
static int choose_comm(const augur_logical *lg, const augur_phase_opts *o, augur_phases *p,
                       augur_phases **rp, uint64_t *nunits) {
  *rp = NULL;
  p->irr_comms = calloc(lg->ncomms ? lg->ncomms : 1, sizeof *p->irr_comms);
  if (!p->irr_comms) return -1;
  int best = -1;
  for (uint32_t i = 0; i < lg->ncomms; i++) {
    const augur_lt_comm *c = &lg->comm[i];
    if (c->size != lg->nranks || !lg->nranks) continue;
    augur_irr_comm *ic = &p->irr_comms[p->irr_ncomms];
    ic->comm = i + 1;
    ic->level = c->level;
    augur_phases *cur = calloc(lg->nranks, sizeof *cur);
    uint64_t units = 0;
    int rc = cur ? 0 : -1;
    for (uint32_t r = 0; r < lg->nranks && !rc; r++) {
      uint64_t nu = 0;
      rc = rank_phases(lg, o, r, (uint8_t)(i + 1), &cur[r], &nu);
      units += nu;
      for (uint32_t k = 0; k < cur[r].nphases; k++)
        if (cur[r].phase[k].weight >= 2) {
          ic->score += cur[r].phase[k].weight;
          ic->phases++;
        }
    }
    if (rc) {
      free_ranks(cur, lg->nranks);
      free_ranks(*rp, lg->nranks);
      *rp = NULL;
      return -1;
    }
    if (best < 0 || ic->score > p->irr_comms[best].score ||
        (ic->score == p->irr_comms[best].score && ic->level < p->irr_comms[best].level)) {
      best = (int)p->irr_ncomms;
      free_ranks(*rp, lg->nranks);
      *rp = cur;
      *nunits = units;
    } else {
      free_ranks(cur, lg->nranks);
    }
    p->irr_ncomms++;
  }
  return best < 0 ? 0 : (int)p->irr_comms[best].comm;
}

typedef struct corder {
  uint32_t label;
  uint64_t tick;
  double y;
} corder;

static int corder_cmp(const void *a, const void *b) {
  const corder *x = a, *y = b;
  if (x->tick != y->tick) return x->tick < y->tick ? -1 : 1;
  if (x->y != y->y) return x->y < y->y ? -1 : 1;
  return x->label < y->label ? -1 : x->label > y->label;
}

/* Steps 3 and 4: clusters the points into P's global phases. */
static int merge(const augur_logical *lg, const augur_phases *rp, augur_phases *p) {
  augur_irr_point *pt = p->irr_points;
  uint32_t n = p->irr_npoints, nr = lg->nranks;
  double *xy = malloc(2 * (size_t)(n ? n : 1) * sizeof *xy);
  uint32_t *label = malloc((size_t)(n ? n : 1) * sizeof *label);
  if (!xy || !label) {
    free(xy);
    free(label);
    return -1;
  }
  for (uint32_t i = 0; i < n; i++) {
    xy[2 * i] = pt[i].x;
    xy[2 * i + 1] = pt[i].y;
  }
  p->irr_kmax = n < AUGUR_KMEANS_KMAX ? n : AUGUR_KMEANS_KMAX;
  uint32_t k = n ? augur_kmeans_elbow_(xy, n, p->irr_kmax, label, p->irr_sse) : 0;
  free(xy);
  if (n && !k) {
    free(label);
    return -1;
  }
  /* Clusters in order of their first tick (then work): ids follow the run. */
  corder *ord = calloc(k ? k : 1, sizeof *ord);
  uint32_t *rank_of = malloc((k ? k : 1) * sizeof *rank_of);
  p->phase = calloc(k ? k : 1, sizeof *p->phase);
  if (!ord || !rank_of || !p->phase) {
    free(ord);
    free(rank_of);
    free(label);
    return -1;
  }
  for (uint32_t j = 0; j < k; j++) {
    ord[j].label = j;
    ord[j].tick = UINT64_MAX;
  }
  for (uint32_t i = 0; i < n; i++) {
    corder *c = &ord[label[i]];
    if (pt[i].tick_first < c->tick) {
      c->tick = pt[i].tick_first;
      c->y = pt[i].y;
    }
  }
  qsort(ord, k, sizeof *ord, corder_cmp);
  for (uint32_t j = 0; j < k; j++)
    rank_of[ord[j].label] = j;
  free(ord);
  p->nphases = k;
  for (uint32_t j = 0; j < k; j++) {
    augur_phase *ph = &p->phase[j];
    ph->id = j + 1;
    ph->rank_weight = calloc(nr, sizeof *ph->rank_weight);
    ph->rank_tick_first = calloc(nr, sizeof *ph->rank_tick_first);
    ph->rank_tick_last = calloc(nr, sizeof *ph->rank_tick_last);
    ph->rank_total_ns = calloc(nr, sizeof *ph->rank_total_ns);
    if (!ph->rank_weight || !ph->rank_tick_first || !ph->rank_tick_last || !ph->rank_total_ns) {
      free(rank_of);
      free(label);
      return -1;
    }
    ph->tick_first = UINT64_MAX;
    ph->relevant = 1;
    ph->irregular = 1;
  }
  uint32_t *members = calloc(k ? k : 1, sizeof *members);
  if (!members) {
    free(rank_of);
    free(label);
    return -1;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t j = rank_of[label[i]];
    pt[i].cluster = j;
    augur_phase *ph = &p->phase[j];
    const augur_phase *src = &rp[pt[i].rank].phase[pt[i].phase - 1];
    uint32_t r = pt[i].rank;
    if (!ph->rank_weight[r] || pt[i].tick_first < ph->rank_tick_first[r])
      ph->rank_tick_first[r] = pt[i].tick_first;
    if (pt[i].tick_last > ph->rank_tick_last[r]) ph->rank_tick_last[r] = pt[i].tick_last;
    if (!ph->rank_weight[r]) ph->nranks++;
    ph->rank_weight[r] += pt[i].weight;
    ph->rank_total_ns[r] += pt[i].total_ns;
    if (!members[j]) { /* points come by rank: the lowest rank's phase bounds it */
      ph->first_rank = src->first_rank;
      ph->first_type = src->first_type;
      ph->first_callsite = src->first_callsite;
      ph->last_rank = src->last_rank;
      ph->last_type = src->last_type;
      ph->last_callsite = src->last_callsite;
    }
    members[j]++;
    if (pt[i].tick_first < ph->tick_first) ph->tick_first = pt[i].tick_first;
    if (pt[i].tick_last > ph->tick_last) ph->tick_last = pt[i].tick_last;
    if (src->nunits > ph->nunits) ph->nunits = src->nunits;
    ph->events += src->events;
    ph->bytes += src->bytes;
    ph->work += pt[i].work;
    ph->irregular = ph->irregular && src->irregular;
  }
  free(rank_of);
  free(label);
  double run = augur_mean_span_(lg);
  p->run_ns = run;
  p->nrelevant = k;
  p->relevant_share = 0;
  for (uint32_t j = 0; j < k; j++) {
    augur_phase *ph = &p->phase[j];
    double tot = 0, w = 0;
    for (uint32_t r = 0; r < nr; r++) {
      tot += ph->rank_total_ns[r];
      w += (double)ph->rank_weight[r];
      if (ph->rank_weight[r] > ph->weight) ph->weight = ph->rank_weight[r];
    }
    ph->work = members[j] ? ph->work / members[j] : 0;
    ph->first_unit = ph->tick_first;
    ph->total_ns = nr ? tot / nr : 0;
    ph->phase_ns = w > 0 ? tot / w : 0;
    ph->share = run > 0 ? ph->total_ns / run : 0;
    p->relevant_share += ph->share;
  }
  free(members);
  p->pet_ns = 0;
  for (uint32_t r = 0; r < nr; r++) {
    double s = 0;
    for (uint32_t j = 0; j < k; j++)
      s += p->phase[j].rank_total_ns[r];
    if (s > p->pet_ns) {
      p->pet_ns = s;
      p->pet_rank = r;
    }
  }
  return 0;
}

int augur_phases_irregular_(const augur_logical *lg, const augur_phase_opts *o, augur_phases *p,
                            augur_error *err) {
  if (!lg->nevents) return AUGUR_OK; /* an empty trace has no phases, as in the other modes */
  augur_phases *rp = NULL;
  uint64_t nunits = 0;
  int c = choose_comm(lg, o, p, &rp, &nunits);
  if (c < 0) return nomem(err);
  if (c == 0)
    return augur_fail(err, AUGUR_E_ARG,
                      "irregular mode: no communicator contains every rank (%u communicators "
                      "used, none of size %u)",
                      lg->ncomms, lg->nranks);
  p->irr_comm = (uint32_t)c;
  p->nunits = nunits;
  uint32_t nr = lg->nranks;
  int rc = 0;
  uint32_t npts = 0;
  for (uint32_t r = 0; r < nr; r++) {
    p->irr_rank_phases += rp[r].nphases;
    npts += rp[r].nrelevant;
  }
  p->irr_points = calloc(npts ? npts : 1, sizeof *p->irr_points);
  if (!p->irr_points) rc = -1;
  double ticks = lg->nticks ? (double)lg->nticks : 1;
  for (uint32_t r = 0; r < nr && !rc; r++) {
    augur_units u;
    rc = rp[r].nrelevant ? units_irregular(lg, r, (uint8_t)c, &u) : 0;
    for (uint32_t k = 0; k < rp[r].nphases && !rc; k++) {
      const augur_phase *ph = &rp[r].phase[k];
      if (!ph->relevant) continue;
      augur_irr_point *q = &p->irr_points[p->irr_npoints++];
      rep_ticks(&lg->rank[r], &u, ph, q);
      q->rank = r;
      q->phase = ph->id;
      q->weight = ph->weight;
      q->tick_first = ph->tick_first;
      q->tick_last = ph->tick_last;
      q->work = ph->work;
      q->total_ns = ph->total_ns;
      q->x = 20.0 * (double)ph->tick_first / ticks;
      q->y = augur_ln_(1.0 + (ph->work > 0 ? ph->work : 0)) / LN2;
    }
    if (rp[r].nrelevant) augur_units_free_(&u);
  }
  if (!rc) rc = merge(lg, rp, p);
  free_ranks(rp, nr);
  return rc ? nomem(err) : AUGUR_OK;
}
