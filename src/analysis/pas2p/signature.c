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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "augur/signature.h"
#include "phases_int.h"
#include "stats.h"

/* Repetition j (0-based) of phase p: its first unit, or UINT64_MAX. */
static uint64_t occurrence_unit(const augur_phase *p, uint64_t j) {
  return augur_phase_rep_unit_(p, j);
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

/* Where repetition J of a phase starts (ticks), UINT64_MAX if unknown. */
typedef uint64_t (*rep_at_fn)(const void *ctx, uint64_t j);

static uint64_t global_rep(const void *ctx, uint64_t j) {
  return occurrence_unit(ctx, j);
}

static uint64_t irregular_rep(const void *ctx, uint64_t j) {
  const augur_irr_point *q = ctx;
  return j < q->nreps ? q->rep_tick[j] : UINT64_MAX;
}

/* Which of WEIGHT repetitions (each LEN ticks, starting where AT says) to
 * measure: up to K after a warm-up one, but only those that end by tick
 * BUDGET (a share of the run), so that a rare phase (a check every 100
 * iterations) does not turn the signature run into a full run. The first
 * repetition is always measured if it is the only one in the budget. When
 * the budget has room, the K start at tick SETTLE or as close to it as
 * still fits: the first moments of a run are not its regime (ranks sharing
 * cores are still being spread over them). */
static void plan(rep_at_fn at, const void *ctx, uint64_t weight, uint64_t len, uint32_t k,
                 uint64_t budget, uint64_t settle, uint32_t *start, uint32_t *measure) {
  uint64_t end1 = weight >= 2 ? at(ctx, 1) : UINT64_MAX;
  *start = end1 != UINT64_MAX && end1 + len <= budget ? 1 : 0;
  if (*start) {
    /* LAST: the last repetition that ends within the budget (as far as
     * needed); SETTLED: the first that starts at SETTLE or later. */
    uint64_t last = 1, settled = end1 >= settle ? 1 : 0;
    for (uint64_t j = 2; j < weight && !(settled && last >= settled + k - 1); j++) {
      uint64_t u = at(ctx, j);
      if (u == UINT64_MAX || u + len > budget) break;
      last = j;
      if (!settled && u >= settle) settled = j;
    }
    uint64_t s = settled ? settled : last; /* not settled within the budget: as late as fits */
    if (s + k - 1 > last) s = last + 1 > k ? last + 1 - k : 1;
    *start = (uint32_t)(s ? s : 1);
  }
  uint32_t m = 1;
  while (m < k && *start + m < weight) {
    uint64_t u = at(ctx, *start + m);
    if (u == UINT64_MAX || u + len > budget) break;
    m++;
  }
  *measure = m;
}

/* How many repetitions of a phase whose repetitions take REP_NS each (CV:
 * their coefficient of variation) the budget must leave room for: K, or as
 * many as make AUGUR_SIGNATURE_ENOUGH seconds of timed time when fewer do
 * (one descheduling is then at most 1 % of it) and the repetitions do not
 * vary (AUGUR_PHASE_CV_WARN): there K average their differences. */
static uint32_t floor_reps(double rep_ns, double cv, uint32_t k) {
  if (rep_ns <= 0 || cv > AUGUR_PHASE_CV_WARN) return k;
  double n = ceil(AUGUR_SIGNATURE_ENOUGH * 1e9 / rep_ns);
  return n < k ? (n >= 1 ? (uint32_t)n : 1) : k;
}

/* Where the warm-up and K measured repetitions of a phase end (ticks), or
 * as many as it has: the budget never ends before those of the earliest
 * repeating phase, however short the run (its SET/AET is then above the
 * budget's share, and a prediction is still made of K repetitions). K here
 * is floor_reps(): long repetitions need fewer (NPB FT B: 20 iterations of
 * about 0.5 s; K = 10 of them made SET/AET 68 %). */
static uint64_t first_k_end(rep_at_fn at, const void *ctx, uint64_t weight, uint64_t len,
                            uint32_t k) {
  uint64_t j = k < weight - 1 ? k : weight - 1, u;
  while ((u = at(ctx, j)) == UINT64_MAX && j)
    j--;
  return u == UINT64_MAX ? UINT64_MAX : u + len;
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

/* Rank R's calls in ticks [T0, T1] as fingerprint R of OUT. */
static int fingerprint_rank(augur_signature *s, const augur_logical *lg, uint32_t r, uint64_t t0,
                            uint64_t t1, augur_trace *t, augur_sig_phase *out, augur_error *err) {
  const augur_lt_rank *lr = &lg->rank[r];
  uint64_t a = first_at(lr, t0), b = first_at(lr, t1 + 1);
  if (b <= a) return AUGUR_OK;
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
    c->bytes = size_known(e->type) ? e->bytes : AUGUR_SIG_BYTES_ANY;
    int rc = module_of(s, t, e->callsite, &c->module, &c->offset, err);
    if (rc) return rc;
  }
  return AUGUR_OK;
}

static int alloc_ranks(const augur_signature *s, augur_sig_phase *out, augur_error *err) {
  return augur_sig_phase_alloc(s, out) ? augur_fail(err, AUGUR_E_NOMEM, "out of memory") : 0;
}

/* Mean over ranks of the time from a rank's first call to its first call at
 * or after tick FIRST (the base run's "pre"). */
static double pre_ns(const augur_logical *lg, uint64_t first) {
  double pre = 0;
  if (first == UINT64_MAX || !lg->nranks) return 0;
  for (uint32_t r = 0; r < lg->nranks; r++) {
    const augur_lt_rank *lr = &lg->rank[r];
    if (!lr->n) continue;
    uint64_t i = first_at(lr, first);
    if (i < lr->n && lr->ev[i].t_start > lr->ev[0].t_start)
      pre += (double)(lr->ev[i].t_start - lr->ev[0].t_start);
  }
  return pre / lg->nranks;
}

/* The tick by which the run has been going SECONDS (on the first rank that
 * has calls), UINT64_MAX if it never does. */
static uint64_t tick_at(const augur_logical *lg, double seconds) {
  for (uint32_t r = 0; r < lg->nranks; r++) {
    const augur_lt_rank *lr = &lg->rank[r];
    if (!lr->n) continue;
    uint64_t t = lr->ev[0].t_start + (uint64_t)(seconds * 1e9);
    for (uint64_t i = 0; i < lr->n; i++)
      if (lr->ev[i].t_start >= t) return lr->ev[i].lt;
    return UINT64_MAX;
  }
  return UINT64_MAX;
}

/* Seconds into the run (on the first rank with calls) at which tick TICK
 * starts: tick_at's inverse. */
static double seconds_at(const augur_logical *lg, uint64_t tick) {
  for (uint32_t r = 0; r < lg->nranks; r++) {
    const augur_lt_rank *lr = &lg->rank[r];
    if (!lr->n) continue;
    uint64_t i = first_at(lr, tick);
    if (i >= lr->n) i = lr->n - 1;
    return (double)(lr->ev[i].t_start - lr->ev[0].t_start) / 1e9;
  }
  return 0;
}

/* The tick by which the measured repetitions end (include/augur/signature.h):
 * AUGUR_SIGNATURE_BUDGET of the base run's time, counted from FIRST_REP, the
 * tick where the earliest repeating phase first starts (UINT64_MAX: none).
 * The set-up before it runs in every signature run whatever is measured;
 * counted in the budget, a set-up longer than the budget left every phase
 * but the earliest one repetition (NPB LU W, 2 ranks: set-up 6.7 % of the
 * run; its 9030-repetition pipeline phase was timed once). */
static uint64_t budget_tick(const augur_logical *lg, uint64_t first_rep) {
  double run = lg->run_end_ns > lg->run_start_ns ? (lg->run_end_ns - lg->run_start_ns) / 1e9 : 0;
  double from = first_rep == UINT64_MAX ? 0 : seconds_at(lg, first_rep);
  uint64_t t = tick_at(lg, from + AUGUR_SIGNATURE_BUDGET * run);
  return t == UINT64_MAX ? lg->nticks : t;
}

/* Base-run time of the global repetition at ticks [U, U + LEN): from each
 * rank's first call in it to its first call after it (the `augur phases`
 * convention), summed over ranks / ranks. */
static double rep_ns(const augur_logical *lg, uint64_t u, uint64_t len) {
  double t = 0;
  for (uint32_t r = 0; r < lg->nranks; r++) {
    const augur_lt_rank *lr = &lg->rank[r];
    uint64_t a = first_at(lr, u), b = first_at(lr, u + len);
    if (b <= a) continue;
    uint64_t end = b < lr->n ? lr->ev[b].t_start : lr->ev[b - 1].t_end;
    if (end > lr->ev[a].t_start) t += (double)(end - lr->ev[a].t_start);
  }
  return lg->nranks ? t / lg->nranks : 0;
}

/* The base run's times of PH's repetitions (ns) into T (WEIGHT slots), in
 * order, those with a known place only; returns how many. */
static uint64_t rep_times(const augur_logical *lg, const augur_phase *ph, double *t) {
  uint64_t n = 0;
  for (uint64_t j = 0; j < ph->weight; j++) {
    uint64_t u = occurrence_unit(ph, j);
    if (u != UINT64_MAX) t[n++] = rep_ns(lg, u, ph->nunits);
  }
  return n;
}

/* How the base run's repetitions of a phase are counted: a disturbed one
 * (above ABOVE ns; HUGE_VAL: none is) counts MED, and MEAN is the mean
 * they make (ns). */
typedef struct base_reps {
  double above, med, mean;
} base_reps;

/* A phase whose repetitions are alike (the upper quartile of their times at
 * most AUGUR_SIGNATURE_ALIKE x the lower one, weight 4 or more; not the CV,
 * which the disturbed ones themselves raise: on a busy machine a recording
 * of apps/ph_periodic had CV 0.94) has disturbed ones where a repetition took more than
 * AUGUR_SIGNATURE_DISTURBED x the median in the base run: another job took
 * the CPU or the memory for a while during the recording. Such a stretch
 * is not the program's: counted as it was, it would be in every prediction
 * made from this signature, since the repetitions to come count their base
 * time (the curve) x the speed, and the sample is compared with its own
 * base time (NPB CG B, 2 ranks, a recording at load 13: 90 repetitions of
 * the inner phase at 2-4 x the median made its mean 14.5 ms, 13.6 ms
 * without them). They count the median instead. */
static base_reps disturbed(const augur_logical *lg, const augur_phase *ph) {
  base_reps b = {HUGE_VAL, 0, ph->phase_ns};
  if (ph->weight < 4) return b;
  double *t = malloc(ph->weight * sizeof *t), *o = malloc(ph->weight * sizeof *o);
  uint64_t n = t && o ? rep_times(lg, ph, t) : 0;
  if (n >= 4) {
    memcpy(o, t, n * sizeof *t);
    double med = aug_median(o, n), sum = 0;
    double q1 = o[n / 4], q3 = o[n - 1 - n / 4]; /* quartiles: alike repetitions */
    if (med > 0 && q1 > 0 && q3 <= AUGUR_SIGNATURE_ALIKE * q1 &&
        o[n - 1] > AUGUR_SIGNATURE_DISTURBED * med) {
      b.above = AUGUR_SIGNATURE_DISTURBED * med;
      b.med = med;
      for (uint64_t j = 0; j < n; j++)
        sum += t[j] > b.above ? med : t[j];
      b.mean = sum / (double)ph->weight;
    }
  }
  free(t);
  free(o);
  return b;
}

/* Base-run time of the repetition of PH at tick U (ns), as B counts it. */
static double base_rep_ns(const augur_logical *lg, const augur_phase *ph, uint64_t u,
                          const base_reps *b) {
  double t = rep_ns(lg, u, ph->nunits);
  return t > b->above ? b->med : t;
}

/* Mean base-run time of repetitions START .. START + K - 1 of PH (seconds),
 * as B counts them: what the signature run's measured repetitions are
 * compared with. */
static double sample_base(const augur_logical *lg, const augur_phase *ph, uint32_t start,
                          uint32_t k, const base_reps *b) {
  double sum = 0;
  uint32_t n = 0;
  for (uint32_t j = start; j < start + k; j++) {
    uint64_t u = occurrence_unit(ph, j);
    if (u == UINT64_MAX) break;
    sum += base_rep_ns(lg, ph, u, b);
    n++;
  }
  return n ? sum / n / 1e9 : 0;
}

static double sample_seconds(const augur_logical *lg, const augur_phase *ph, uint32_t start,
                             uint32_t k) {
  const base_reps all = {HUGE_VAL, 0, ph->phase_ns};
  return sample_base(lg, ph, start, k, &all);
}

/* Where a sample of PH counts as typical of it (ns, [*LO, *HI]), and its
 * centre *MID. Repetitions that are alike (the same work every time: the
 * upper quartile of their times at most AUGUR_SIGNATURE_ALIKE x the lower
 * one, weight 4 or more, as disturbed() tells them): within their
 * quartiles, as a repetition of the middle half of the run is; their
 * differences in the base run are the machine's, not the program's: a
 * window of NPB CG B's iteration that a recording ran at 1.19 x the mean
 * (the VM slower for its first second) made every prediction from that
 * signature 13-27 % short, since the signature run's repetitions, at the
 * machine's usual speed, were compared with those slow ones (stop 42).
 * Repetitions that vary (CV above AUGUR_PHASE_CV_WARN: levels of a
 * multigrid in one phase, a set-up repetition cheaper than a loop one;
 * checked first, as before stop 42): within the factor
 * 1 + AUGUR_SIGNATURE_TYPICAL of the mean. *ALIKE says which. Returns 0 (no
 * band) for any other phase. */
static int typical_band(const augur_logical *lg, const augur_phase *ph, double *lo, double *hi,
                        double *mid, int *alike) {
  *alike = 0;
  if (ph->cv > AUGUR_PHASE_CV_WARN) {
    *mid = ph->phase_ns;
    *lo = *mid / (1 + AUGUR_SIGNATURE_TYPICAL);
    *hi = *mid * (1 + AUGUR_SIGNATURE_TYPICAL);
    return 1;
  }
  if (ph->weight < 4) return 0;
  double *t = malloc(ph->weight * sizeof *t);
  uint64_t n = t ? rep_times(lg, ph, t) : 0;
  if (n >= 4) {
    *mid = aug_median(t, n);
    *lo = t[n / 4];
    *hi = t[n - 1 - n / 4];
    *alike = *lo > 0 && *hi <= AUGUR_SIGNATURE_ALIKE * *lo;
  }
  free(t);
  return *alike;
}

/* The plan of a global phase: plan()'s window, unless the base run's
 * repetitions there are not typical of the phase (typical_band()); then
 * the first typical window of as many repetitions, else the one closest to
 * the centre. Repetitions that vary are searched from the first after the
 * warm-up to AUGUR_SIGNATURE_VARIETY of the run after the phase's first
 * repetition (a window of NPB MG's levels must hold the typical mix);
 * alike ones from plan()'s window on (not before AUGUR_SIGNATURE_SETTLE:
 * a window of the start-up transient, typical in the base run, ran 1.75 x
 * slower in a signature run of apps/ph_periodic) to the end of the budget
 * plan() kept them to (SET stays as it was). The K repetitions then stand
 * for the phase, and SAMPLE_SECONDS (what they took in the base run) lets
 * `augur predict` compare them with themselves. */
static void plan_global(const augur_logical *lg, const augur_phase *ph, uint32_t measure,
                        uint64_t budget, uint64_t settle, uint32_t *start, uint32_t *k) {
  plan(global_rep, ph, ph->weight, ph->nunits, measure, budget, settle, start, k);
  double lo, hi, mid;
  int alike;
  if (ph->weight < 3 || !typical_band(lg, ph, &lo, &hi, &mid, &alike)) return;
  double w0 = sample_seconds(lg, ph, *start, *k) * 1e9;
  if (w0 >= lo && w0 <= hi) return;
  if (alike && !*start) return; /* only the first repetition fits the budget */
  uint64_t limit = budget, from = alike ? *start : 1; /* the first window searched */
  if (!alike) {
    double run = lg->run_end_ns > lg->run_start_ns ? (lg->run_end_ns - lg->run_start_ns) / 1e9 : 0;
    limit = tick_at(lg, seconds_at(lg, ph->tick_first) + AUGUR_SIGNATURE_VARIETY * run);
  }
  uint32_t m = *k; /* as many as first planned (the budget allowed those) */
  double *rep = malloc(((size_t)ph->weight) * sizeof *rep);
  if (!rep) return; /* keep the first plan */
  double sum = 0, best = -1;
  uint32_t best_s = *start;
  for (uint64_t j = from; j < ph->weight; j++) {
    uint64_t u = occurrence_unit(ph, j);
    if (u == UINT64_MAX || u + ph->nunits > limit) break;
    rep[j] = rep_ns(lg, u, ph->nunits);
    sum += rep[j];
    if (j >= from + m) sum -= rep[j - m];
    if (j + 1 < from + m) continue;
    double w = sum / m, off = w > mid ? w / mid : mid / w;
    if (best < 0 || off < best) {
      best = off;
      best_s = (uint32_t)(j + 1 - m);
    }
    if (w >= lo && w <= hi) break;
  }
  free(rep);
  *start = best_s;
}

/* The base run's cumulative time over PH's repetitions (version 4): every
 * repetition's when the weight is below AUGUR_SIG_CURVE_MAX, else evenly
 * spaced points. At a stop, the repetitions still to come are known by
 * number, and this says what they took in the base run (NPB MG's levels
 * share one phase but not its time). 0 points for a single repetition. */
static int build_curve(const augur_logical *lg, const augur_phase *ph, const base_reps *b,
                       augur_sig_phase *sp, augur_error *err) {
  if (ph->weight < 2) return AUGUR_OK;
  uint64_t w = ph->weight;
  uint32_t n = w + 1 < AUGUR_SIG_CURVE_MAX ? (uint32_t)w + 1 : AUGUR_SIG_CURVE_MAX;
  sp->curve_rep = malloc(n * sizeof *sp->curve_rep);
  sp->curve_seconds = malloc(n * sizeof *sp->curve_seconds);
  sp->curve_start = malloc(n * sizeof *sp->curve_start);
  if (!sp->curve_rep || !sp->curve_seconds || !sp->curve_start)
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  double sum = 0;
  uint32_t k = 0;
  for (uint64_t j = 0; j <= w; j++) {
    uint64_t at = k * w / (n - 1); /* the next point's repetition */
    uint64_t u = j < w ? occurrence_unit(ph, j) : UINT64_MAX;
    if (j == at) {
      /* Where it starts (the last point: where the last one ends). */
      uint64_t tick = j < w ? u : occurrence_unit(ph, w - 1);
      if (j == w && tick != UINT64_MAX) tick += ph->nunits;
      double pos = tick != UINT64_MAX ? seconds_at(lg, tick) : 0;
      sp->curve_start[k] = k && pos < sp->curve_start[k - 1] ? sp->curve_start[k - 1] : pos;
      sp->curve_rep[k] = j;
      sp->curve_seconds[k++] = sum / 1e9;
    }
    if (u != UINT64_MAX) sum += base_rep_ns(lg, ph, u, b);
  }
  sp->ncurve = k;
  return AUGUR_OK;
}

/* Where repetition J of PH ends (ticks), UINT64_MAX if unknown. */
static uint64_t rep_end(const augur_phase *ph, uint64_t j) {
  uint64_t u = occurrence_unit(ph, j);
  return u == UINT64_MAX ? UINT64_MAX : u + ph->nunits;
}

/* Does fingerprint G (N calls) hold fingerprint P (M calls, 0 < M <= N)
 * as consecutive calls, each matching as the recorder matches a call? */
static int holds(const augur_sig_call *g, uint32_t n, const augur_sig_call *p, uint32_t m) {
  for (uint32_t a = 0; a + m <= n; a++) {
    uint32_t k = 0;
    while (k < m && augur_sig_call_same(&p[k], &g[a + k]))
      k++;
    if (k == m) return 1;
  }
  return 0;
}

/* Guards (version 5): the phases not in the signature whose calls, on some
 * rank, contain a signature phase's (or are the same calls). The recorder's
 * automata find a phase wherever its calls occur: without the other
 * phase's fingerprint, a repetition of it counted as one of the signature
 * phase. CoMD (2 ranks, stop 38): phase 8, one self-exchange of 43 KB
 * followed by the force computation, also matched phase 7's two
 * self-exchanges of 37 KB per time step (below 1 %): seen 24 times where
 * the base run had 12, and its timed repetitions were phase 7's (0.42 x
 * the base time). With phase 7 as a guard, the recorder gives such calls to
 * the phase nearest in volume, or takes back what lies inside a longer
 * guard's repetition. */
static int build_guards(const augur_logical *lg, const augur_phases *p, augur_trace *t,
                        augur_signature *s, augur_error *err) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->nphases; i++)
    n += !p->phase[i].relevant;
  s->guard = calloc(n ? n : 1, sizeof *s->guard);
  if (!s->guard) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    if (ph->relevant) continue;
    augur_sig_phase *g = &s->guard[s->nguards++];
    g->id = ph->id;
    g->weight = ph->weight;
    int rc = alloc_ranks(s, g, err);
    for (uint32_t r = 0; r < s->nranks && !rc; r++)
      rc = fingerprint_rank(s, lg, r, ph->tick_first, ph->tick_last, t, g, err);
    if (rc) return rc;
    int keep = 0;
    for (uint32_t j = 0; j < s->nphases && !keep; j++)
      for (uint32_t r = 0; r < s->nranks && !keep; r++) {
        uint32_t m = s->phase[j].ncalls[r], gn = g->ncalls[r];
        keep = m && m <= gn && holds(g->calls[r], gn, s->phase[j].calls[r], m);
      }
    if (keep) continue;
    for (uint32_t r = 0; r < s->nranks; r++) /* not one: dropped */
      free(g->calls[r]);
    free(g->calls);
    free(g->ncalls);
    memset(g, 0, sizeof *g);
    s->nguards--;
  }
  return AUGUR_OK;
}

/* Global mode: one signature phase per relevant phase, every rank's calls
 * in the ticks of its first repetition. */
static int build_global(const augur_logical *lg, const augur_phases *p, augur_trace *t,
                        uint32_t measure, augur_signature *s, augur_error *err) {
  s->phase = calloc(p->nrelevant ? p->nrelevant : 1, sizeof *s->phase);
  if (!s->phase) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  /* Where the measurement of the repeating phases ends (in ticks): a phase
   * of weight 1 that starts after it is "late" — waiting for it would turn
   * the signature run into a full run (teardown, a final checkpoint). */
  uint64_t first_rep = UINT64_MAX; /* where the earliest repeating phase starts */
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    uint64_t u = ph->relevant && ph->weight >= 2 ? occurrence_unit(ph, 0) : UINT64_MAX;
    if (u < first_rep) first_rep = u;
  }
  uint64_t budget = budget_tick(lg, first_rep), settle = tick_at(lg, AUGUR_SIGNATURE_SETTLE);
  uint64_t first_k = UINT64_MAX; /* the earliest first_k_end */
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    uint64_t e = ph->relevant && ph->weight >= 2
                     ? first_k_end(global_rep, ph, ph->weight, ph->nunits,
                                   floor_reps(ph->phase_ns, ph->cv, measure))
                     : UINT64_MAX;
    if (e < first_k) first_k = e;
  }
  if (first_k != UINT64_MAX && first_k > budget) budget = first_k;
  uint32_t *start = calloc(p->nphases ? p->nphases : 1, sizeof *start);
  uint32_t *k = calloc(p->nphases ? p->nphases : 1, sizeof *k);
  base_reps *b = calloc(p->nphases ? p->nphases : 1, sizeof *b);
  if (!start || !k || !b) {
    free(start);
    free(k);
    free(b);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }
  for (uint32_t i = 0; i < p->nphases; i++)
    if (p->phase[i].relevant) {
      plan_global(lg, &p->phase[i], measure, budget, settle, &start[i], &k[i]);
      b[i] = disturbed(lg, &p->phase[i]);
    }
  uint64_t window_end = 0;
  for (uint32_t i = 0; i < p->nphases; i++) {
    uint64_t e = p->phase[i].relevant && p->phase[i].weight >= 2
                     ? rep_end(&p->phase[i], start[i] + k[i] - 1) /* the last one measured */
                     : UINT64_MAX;
    if (e != UINT64_MAX && e > window_end) window_end = e;
  }
  int repeating = 0;
  uint64_t first_tick = UINT64_MAX;
  double relevant_ns = 0;
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    if (!ph->relevant) continue;
    relevant_ns += ph->total_ns;
    if (ph->tick_first < first_tick) first_tick = ph->tick_first;
    if (ph->weight >= 2) repeating = 1;
  }
  uint64_t best_weight = 0;
  int sync = -1, rc = AUGUR_OK;
  for (uint32_t i = 0; i < p->nphases && !rc; i++) {
    const augur_phase *ph = &p->phase[i];
    if (!ph->relevant) continue;
    augur_sig_phase *sp = &s->phase[s->nphases++];
    sp->id = ph->id;
    sp->weight = ph->weight;
    sp->start = start[i];
    sp->measure = k[i];
    sp->base_seconds = b[i].mean / 1e9; /* the disturbed repetitions at the median */
    sp->sample_seconds = sample_base(lg, ph, sp->start, sp->measure, &b[i]);
    sp->late = repeating && ph->weight == 1 && ph->tick_first >= window_end;
    rc = build_curve(lg, ph, &b[i], sp, err);
    if (!rc) rc = alloc_ranks(s, sp, err);
    for (uint32_t r = 0; r < s->nranks && !rc; r++)
      rc = fingerprint_rank(s, lg, r, ph->tick_first, ph->tick_last, t, sp, err);
    if (rc) break;
    int everyone = 1;
    for (uint32_t r = 0; r < s->nranks; r++)
      if (!sp->ncalls[r]) everyone = 0;
    if (!sp->late && ph->weight >= 2 && everyone && ph->weight > best_weight) {
      best_weight = ph->weight;
      sync = (int)(s->nphases - 1);
    }
  }
  free(start);
  free(k);
  free(b);
  if (rc) return rc;
  if (sync >= 0) s->phase[sync].sync = 1;
  if ((rc = build_guards(lg, p, t, s, err)) != AUGUR_OK) return rc;
  double pre = pre_ns(lg, first_tick), rest = p->run_ns - pre - relevant_ns;
  s->base_pre_seconds = pre / 1e9;
  s->base_rest_seconds = rest > 0 ? rest / 1e9 : 0;
  return AUGUR_OK;
}

/* Irregular points grouped by (cluster, rank), in tick order within a
 * group: group g = cluster x nranks + rank holds idx[off[g] .. off[g + 1]). */
typedef struct irr_index {
  uint32_t *idx, *off;
} irr_index;

static int irr_index_build(const augur_phases *p, uint32_t nranks, irr_index *x) {
  size_t ng = (size_t)p->nphases * nranks;
  x->off = calloc(ng + 1, sizeof *x->off);
  x->idx = malloc((p->irr_npoints ? p->irr_npoints : 1) * sizeof *x->idx);
  if (!x->off || !x->idx) return -1;
  for (uint32_t i = 0; i < p->irr_npoints; i++)
    x->off[(size_t)p->irr_points[i].cluster * nranks + p->irr_points[i].rank + 1]++;
  for (size_t g = 0; g < ng; g++)
    x->off[g + 1] += x->off[g];
  /* Points come by rank, then by the rank's phase id (order of first
   * occurrence): a stable placement keeps each group in tick order. */
  uint32_t *fill = calloc(ng ? ng : 1, sizeof *fill);
  if (!fill) return -1;
  for (uint32_t i = 0; i < p->irr_npoints; i++) {
    size_t g = (size_t)p->irr_points[i].cluster * nranks + p->irr_points[i].rank;
    x->idx[x->off[g] + fill[g]++] = i;
  }
  free(fill);
  return 0;
}

/* Irregular mode: a cluster's points on one rank are the rank's own
 * phases, each with its weight and its calls. Signature phase (cluster C,
 * slot J) holds every rank's J-th point of C, so each rank's repetitions
 * are recognised by their own calls and measured on their own plan. */
static int build_irregular(const augur_logical *lg, const augur_phases *p, augur_trace *t,
                           uint32_t measure, augur_signature *s, augur_error *err) {
  uint32_t nr = s->nranks, n = 0;
  irr_index x = {0};
  if (irr_index_build(p, nr, &x)) {
    free(x.idx);
    free(x.off);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }
  for (uint32_t c = 0; c < p->nphases; c++) { /* slots: the most points a rank has in C */
    uint32_t most = 0;
    for (uint32_t r = 0; r < nr; r++) {
      size_t g = (size_t)c * nr + r;
      if (x.off[g + 1] - x.off[g] > most) most = x.off[g + 1] - x.off[g];
    }
    n += most;
  }
  s->phase = calloc(n ? n : 1, sizeof *s->phase);
  int rc = s->phase ? AUGUR_OK : augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  uint64_t first_rep = UINT64_MAX; /* where the earliest repeating point starts */
  for (uint32_t i = 0; i < p->irr_npoints; i++)
    if (p->irr_points[i].weight >= 2 && p->irr_points[i].nreps &&
        p->irr_points[i].rep_tick[0] < first_rep)
      first_rep = p->irr_points[i].rep_tick[0];
  uint64_t budget = budget_tick(lg, first_rep), settle = tick_at(lg, AUGUR_SIGNATURE_SETTLE);
  uint64_t first_k = UINT64_MAX; /* the earliest first_k_end */
  for (uint32_t i = 0; i < p->irr_npoints; i++) {
    const augur_irr_point *q = &p->irr_points[i];
    uint64_t e = q->weight >= 2 ? first_k_end(irregular_rep, q, q->weight,
                                              q->tick_last - q->tick_first + 1, measure)
                                : UINT64_MAX;
    if (e < first_k) first_k = e;
  }
  if (first_k != UINT64_MAX && first_k > budget) budget = first_k;
  uint64_t window_end = 0, first_tick = UINT64_MAX;
  int repeating = 0;
  for (uint32_t i = 0; i < p->irr_npoints; i++) {
    const augur_irr_point *q = &p->irr_points[i];
    if (q->tick_first < first_tick) first_tick = q->tick_first;
    if (q->weight < 2) continue;
    repeating = 1;
    uint32_t start, k;
    uint64_t len = q->tick_last - q->tick_first + 1;
    plan(irregular_rep, q, q->weight, len, measure, budget, settle, &start, &k);
    uint64_t u = irregular_rep(q, start + k - 1);
    if (u != UINT64_MAX && u + len > window_end) window_end = u + len;
  }
  uint64_t best_weight = 0;
  int sync = -1;
  uint32_t sync_c = 0, sync_j = 0;
  for (uint32_t c = 0; c < p->nphases && !rc; c++)
    for (uint32_t j = 0; !rc && s->nphases < n; j++) {
      int any = 0, late = 1, same = 1;
      uint64_t w0 = 0;
      for (uint32_t r = 0; r < nr && !any; r++)
        any = x.off[(size_t)c * nr + r] + j < x.off[(size_t)c * nr + r + 1];
      if (!any) break;
      augur_sig_phase *sp = &s->phase[s->nphases++];
      sp->id = s->nphases;
      rc = alloc_ranks(s, sp, err);
      for (uint32_t r = 0; r < nr && !rc; r++) {
        size_t g = (size_t)c * nr + r;
        if (x.off[g] + j >= x.off[g + 1]) {
          same = 0;
          continue;
        }
        const augur_irr_point *q = &p->irr_points[x.idx[x.off[g] + j]];
        uint64_t len = q->tick_last - q->tick_first + 1;
        sp->rank_weight[r] = q->weight;
        sp->rank_base[r] = q->total_ns / (double)q->weight / 1e9;
        plan(irregular_rep, q, q->weight, len, measure, budget, settle, &sp->rank_start[r],
             &sp->rank_measure[r]);
        sp->rank_first_unit[r] = q->rep_unit[0];
        sp->rank_units[r] = malloc(sp->rank_measure[r] * sizeof *sp->rank_units[r]);
        sp->rank_unit_base[r] = malloc(sp->rank_measure[r] * sizeof *sp->rank_unit_base[r]);
        if (!sp->rank_units[r] || !sp->rank_unit_base[r]) {
          rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
          break;
        }
        for (uint32_t m = 0; m < sp->rank_measure[r]; m++) { /* planned within rep_unit */
          sp->rank_units[r][m] = q->rep_unit[sp->rank_start[r] + m];
          sp->rank_unit_base[r][m] = q->rep_ns[sp->rank_start[r] + m] / 1e9;
        }
        late = late && q->weight == 1 && q->tick_first >= window_end;
        if (!w0) w0 = q->weight;
        if (q->weight != w0) same = 0;
        if (q->weight > sp->weight) { /* the heaviest rank stands for the phase */
          sp->weight = q->weight;
          sp->base_seconds = sp->rank_base[r];
          sp->start = sp->rank_start[r];
          sp->measure = sp->rank_measure[r];
        }
        rc = fingerprint_rank(s, lg, r, q->tick_first, q->tick_last, t, sp, err);
        /* The ranks vote where a repetition starts: at a collective, every
         * rank gets there as often as the others. */
        if (!rc && (!sp->ncalls[r] || !augur_event_is_collective(sp->calls[r][0].type))) same = 0;
      }
      sp->late = repeating && late;
      if (!sp->late && same && sp->weight >= 2 && sp->weight > best_weight) {
        best_weight = sp->weight;
        sync = (int)(s->nphases - 1);
        sync_c = c;
        sync_j = j;
      }
    }
  /* The first vote: at the sync phase's first start after every rank's
   * last planned stretch (counted on the rank whose last one comes latest;
   * past the repetitions whose stretch is known, as late as those). */
  for (uint32_t r = 0; r < nr && !rc && sync >= 0; r++) {
    uint64_t last = 0, count = 0;
    for (uint32_t i = 0; i < s->nphases; i++) {
      const augur_sig_phase *sp = &s->phase[i];
      if (!sp->late && sp->rank_measure[r] && sp->rank_units[r][sp->rank_measure[r] - 1] > last)
        last = sp->rank_units[r][sp->rank_measure[r] - 1];
    }
    size_t g = (size_t)sync_c * nr + r;
    const augur_irr_point *q = &p->irr_points[x.idx[x.off[g] + sync_j]];
    while (count < q->nreps && q->rep_unit[count] <= last)
      count++;
    if (count + 1 > s->vote_from) s->vote_from = count + 1;
  }
  free(x.idx);
  free(x.off);
  if (rc) return rc;
  if (sync >= 0) s->phase[sync].sync = 1;
  s->comm = p->irr_comm ? lg->comm[p->irr_comm - 1].id : 0;
  double pre = pre_ns(lg, first_tick), rest = p->run_ns - pre - p->pet_ns;
  s->base_pre_seconds = pre / 1e9;
  s->base_rest_seconds = rest > 0 ? rest / 1e9 : 0;
  return AUGUR_OK;
}

int augur_signature_build(const augur_logical *lg, const augur_phases *p, augur_trace *t,
                          uint32_t measure, augur_signature **out, augur_error *err) {
  *out = NULL;
  if (p->mode != AUGUR_PHASES_GLOBAL && p->mode != AUGUR_PHASES_IRREGULAR)
    return augur_fail(err, AUGUR_E_ARG,
                      "a signature is built from global-mode or irregular-mode phases");
  if (!measure) measure = 1;
  augur_signature *s = calloc(1, sizeof *s);
  if (!s) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  s->nranks = lg->nranks;
  s->irregular = p->mode == AUGUR_PHASES_IRREGULAR;
  s->base_run_seconds = p->run_ns / 1e9;
  int rc = s->irregular ? build_irregular(lg, p, t, measure, s, err)
                        : build_global(lg, p, t, measure, s, err);
  if (rc) {
    augur_signature_free(s);
    return rc;
  }
  *out = s;
  return AUGUR_OK;
}
