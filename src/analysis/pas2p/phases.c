/* PAS2P phase detection over a logical trace (docs/phases.md).
 *
 * The trace is seen as a sequence of units: global ticks (every rank's call
 * at that tick, in rank order) or, per process, one rank's calls. Each unit
 * has a key: a hash of (rank, type, peer offset, call site) of its calls.
 * A scan from the first unit:
 *   - if a known phase (same first key, most recent first) repeats here with
 *     similar metrics, it gains weight and the scan jumps over it;
 *   - else if the keys from here on repeat with some period p (the one
 *     that covers most units, or a shorter one whose repeats cover half of
 *     it: PAS2P's phases are the smallest repeating units) that holds no
 *     known phase, a new phase of p units starts here;
 *   - else the unit joins a stretch that does not repeat here. A closed
 *     stretch with the same calls as an earlier one (every 100th iteration
 *     differs) adds weight to that phase; otherwise it is a new phase (init,
 *     teardown, irregular code), shown as not repeating if it never recurs.
 * Similar: every call's volume within volume_tol of the phase's first
 * occurrence and the occurrence's work within work_sim of the phase's mean.
 *
 * An occurrence owns each of its calls plus the compute after it, up to the
 * next call of the rank: a phase starts when its first call is entered, so
 * the set-up compute before a loop belongs to what precedes the loop. Its
 * time summed over ranks therefore partitions every rank's span.
 * (No libm here: augur_analysis does not link it.) */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "grow.h"
#include "hugealloc.h"
#include "mix.h"
#include "phases_int.h"
#include "u64map.h"

#define NONE UINT64_MAX
/* Known phases tried per position, most recent first. The seed compares a
 * position with every known phase; the bound only caps the cost of a
 * pathological trace. It was 8 until stop 41, and NPB MG class C (9 levels,
 * each level's exchange a phase with the same first call) then made a new
 * phase of every iteration's exchanges: 196 phases instead of 16. */
#define MAX_PROBES 1024

typedef augur_units units; /* phases_int.h */

typedef struct ph {
  augur_phase pub;
  uint64_t key0;
  uint32_t next_same; /* previous phase with the same first key, + 1 */
  double work_sum, bytes_sum, time_sum, events_sum;
  double time_sq; /* sum of the repetitions' squared times (their CV) */
  size_t runs_cap;
} ph;

typedef struct detector {
  const augur_logical *lg;
  const augur_phase_opts *o;
  const units *u;
  ph *ph;
  uint32_t nph;
  size_t cap;
  aug_u64map map;   /* first key -> newest phase + 1 */
  uint32_t divisor; /* ranks the per-occurrence time is averaged over */
  /* unit i's next unit with the same key, or UINT64_MAX: the periods worth trying from i (a
   * period p needs key[i + p] == key[i]), so that the search costs the repeats of a key
   * within max_period, not max_period, per position (a trace where nothing repeats) */
  uint64_t *next;
} detector;

static inline uint64_t call_key(uint32_t rank, const augur_lt_event *e) {
  uint64_t k = ((uint64_t)e->type << 48) ^ ((uint64_t)(uint32_t)e->peer << 16) ^ rank;
  return aug_mix64(k ^ aug_mix64(e->callsite + 0x9e3779b97f4a7c15ull));
}

uint64_t augur_call_key_(uint32_t rank, const augur_lt_event *e) {
  return call_key(rank, e);
}

int augur_logical_work_is_count(const augur_logical *lg) {
  return lg->work_counter >= 0 && !strstr(lg->work_name, "clock");
}

void augur_phase_opts_default(augur_phase_opts *o) {
  memset(o, 0, sizeof *o);
  o->mode = AUGUR_PHASES_GLOBAL;
  o->volume_tol = 0.05;
  o->work_sim = -1; /* auto: see augur_phase_opts */
  o->min_share = 0.01;
  o->max_period = 0; /* auto: AUTO_PERIOD, widened in global mode */
  o->rank = -1;
}

/* As in logical.c: first touches of fresh pages cost more than the work on
 * them, so large arrays ask for huge pages. Released with free(). */
static void *big_alloc(size_t size) {
  return size < 2 * AUG_HUGE_PAGE ? malloc(size ? size : 1) : aug_huge_alloc(size);
}

void augur_units_free_(units *u) {
  free(u->key);
  free(u->off);
  free(u->rrank);
  free(u->ridx);
  memset(u, 0, sizeof *u);
}

/* Global units: a counting sort of every call by tick. Ranks are visited in
 * order, so each tick lists its calls in rank order. */
static int units_global(const augur_logical *lg, units *u) {
  memset(u, 0, sizeof *u);
  u->n = lg->nticks;
  u->key = big_alloc(((size_t)u->n + 1) * sizeof *u->key);
  u->off = big_alloc(((size_t)u->n + 2) * sizeof *u->off);
  u->rrank = big_alloc((size_t)lg->nevents * sizeof *u->rrank);
  u->ridx = big_alloc((size_t)lg->nevents * sizeof *u->ridx);
  if (!u->key || !u->off || !u->rrank || !u->ridx) return -1;
  memset(u->key, 0, ((size_t)u->n + 1) * sizeof *u->key);
  memset(u->off, 0, ((size_t)u->n + 2) * sizeof *u->off);
  for (uint32_t r = 0; r < lg->nranks; r++)
    for (uint64_t i = 0; i < lg->rank[r].n; i++)
      u->off[lg->rank[r].ev[i].lt + 2]++;
  for (uint64_t t = 0; t < u->n; t++)
    u->off[t + 2] += u->off[t + 1];
  /* off[t + 1] is now where tick t starts; filling advances it to its end. */
  for (uint32_t r = 0; r < lg->nranks; r++)
    for (uint64_t i = 0; i < lg->rank[r].n; i++) {
      const augur_lt_event *e = &lg->rank[r].ev[i];
      uint64_t at = u->off[e->lt + 1]++;
      u->rrank[at] = r;
      u->ridx[at] = (uint32_t)i;
      u->key[e->lt] = aug_mix64(u->key[e->lt] * 31 + call_key(r, e));
    }
  return 0;
}

/* Per-process units: one rank's calls in order (EPAS ticks). */
static int units_rank(const augur_logical *lg, uint32_t r, units *u) {
  memset(u, 0, sizeof *u);
  const augur_lt_rank *lr = &lg->rank[r];
  u->n = lr->n;
  size_t n = (size_t)(u->n ? u->n : 1);
  u->key = malloc(n * sizeof *u->key);
  u->off = malloc((n + 1) * sizeof *u->off);
  u->rrank = malloc(n * sizeof *u->rrank);
  u->ridx = malloc(n * sizeof *u->ridx);
  if (!u->key || !u->off || !u->rrank || !u->ridx) return -1;
  for (uint64_t i = 0; i < lr->n; i++) {
    u->key[i] = call_key(0, &lr->ev[i]);
    u->off[i] = i;
    u->rrank[i] = r;
    u->ridx[i] = (uint32_t)i;
  }
  u->off[lr->n] = lr->n;
  return 0;
}

/* What a call owns: itself and the compute after it (see the top). */
static inline uint64_t call_time(const augur_lt_rank *lr, uint64_t i) {
  uint64_t end = i + 1 < lr->n ? lr->ev[i + 1].t_start : lr->ev[i].t_end;
  return end > lr->ev[i].t_start ? end - lr->ev[i].t_start : 0;
}
static inline uint64_t call_work(const augur_lt_rank *lr, uint64_t i) {
  if (i + 1 >= lr->n) return 0;
  if (lr->work) return lr->work[i + 1];
  return lr->ev[i + 1].t_start > lr->ev[i].t_end ? lr->ev[i + 1].t_start - lr->ev[i].t_end : 0;
}

typedef struct occ {
  double time, work, bytes;
  uint64_t events;
} occ;

static void occ_measure(const detector *d, uint64_t pos, uint64_t len, occ *o) {
  memset(o, 0, sizeof *o);
  const units *u = d->u;
  for (uint64_t k = u->off[pos]; k < u->off[pos + len]; k++) {
    const augur_lt_rank *lr = &d->lg->rank[u->rrank[k]];
    uint64_t i = u->ridx[k];
    o->time += (double)call_time(lr, i);
    o->work += (double)call_work(lr, i);
    o->bytes += (double)lr->ev[i].bytes;
  }
  o->events = u->off[pos + len] - u->off[pos];
}

static int similar_volume(uint64_t a, uint64_t b, double tol) {
  uint64_t hi = a > b ? a : b, lo = a > b ? b : a;
  return (double)(hi - lo) <= tol * (double)hi;
}

/* Are the calls of the LEN units at POS like those at REF: as many per unit,
 * each call's volume within the tolerance? Irregular units compare their
 * first call (the bounding send) only. Keys are already equal. */
static int same_calls(const detector *d, uint64_t pos, uint64_t ref, uint64_t len) {
  const units *u = d->u;
  if (u->first_only) {
    for (uint64_t k = 0; k < len; k++) {
      uint64_t a = u->off[pos + k], b = u->off[ref + k];
      if (a == u->off[pos + k + 1] || b == u->off[ref + k + 1]) continue;
      const augur_lt_event *x = &d->lg->rank[u->rrank[a]].ev[u->ridx[a]];
      const augur_lt_event *y = &d->lg->rank[u->rrank[b]].ev[u->ridx[b]];
      if (!similar_volume(x->bytes, y->bytes, d->o->volume_tol)) return 0;
    }
    return 1;
  }
  if (u->off[pos + len] - u->off[pos] != u->off[ref + len] - u->off[ref]) return 0;
  for (uint64_t k = 0; k < len; k++) {
    uint64_t a = u->off[pos + k], b = u->off[ref + k];
    if (u->off[pos + k + 1] - a != u->off[ref + k + 1] - b) return 0;
  }
  uint64_t a = u->off[pos], b = u->off[ref], n = u->off[pos + len] - a;
  for (uint64_t k = 0; k < n; k++) {
    const augur_lt_event *x = &d->lg->rank[u->rrank[a + k]].ev[u->ridx[a + k]];
    const augur_lt_event *y = &d->lg->rank[u->rrank[b + k]].ev[u->ridx[b + k]];
    if (!similar_volume(x->bytes, y->bytes, d->o->volume_tol)) return 0;
  }
  return 1;
}

/* same_calls and occ_measure in one pass over the calls (not for
 * first_only units): the figures are summed in occ_measure's order. */
static int same_calls_measure(const detector *d, uint64_t pos, uint64_t ref, uint64_t len, occ *o) {
  const units *u = d->u;
  const uint64_t *off = u->off;
  if (off[pos + len] - off[pos] != off[ref + len] - off[ref]) return 0;
  for (uint64_t k = 0; k < len; k++)
    if (off[pos + k + 1] - off[pos + k] != off[ref + k + 1] - off[ref + k]) return 0;
  memset(o, 0, sizeof *o);
  uint64_t a = off[pos], b = off[ref], n = off[pos + len] - a;
  double tol = d->o->volume_tol;
  for (uint64_t k = 0; k < n; k++) {
    const augur_lt_rank *lr = &d->lg->rank[u->rrank[a + k]];
    uint64_t i = u->ridx[a + k];
    const augur_lt_event *x = &lr->ev[i];
    const augur_lt_event *y = &d->lg->rank[u->rrank[b + k]].ev[u->ridx[b + k]];
    if (!similar_volume(x->bytes, y->bytes, tol)) return 0;
    o->time += (double)call_time(lr, i);
    o->work += (double)call_work(lr, i);
    o->bytes += (double)x->bytes;
  }
  o->events = n;
  return 1;
}

/* Does phase P occur at POS? Fills O with the occurrence's figures. */
static int occurs(const detector *d, const ph *p, uint64_t pos, occ *o) {
  const units *u = d->u;
  uint64_t len = p->pub.nunits, ref = p->pub.first_unit;
  if (pos + len > u->n) return 0;
  for (uint64_t k = 0; k < len; k++)
    if (u->key[pos + k] != u->key[ref + k]) return 0;
  if (u->first_only) {
    if (!same_calls(d, pos, ref, len)) return 0;
    occ_measure(d, pos, len, o);
  } else if (!same_calls_measure(d, pos, ref, len, o)) {
    return 0;
  }
  double mean = p->work_sum / (double)p->pub.weight;
  double hi = mean > o->work ? mean : o->work, lo = mean > o->work ? o->work : mean;
  if (hi > 0 && lo / hi < d->o->work_sim) return 0;
  return 1;
}

static uint32_t map_get(const detector *d, uint64_t key);

/* Do the keys of known phase P start at POS? (Keys only: whether a
 * candidate period holds a phase already known, whatever its volumes.) */
static int keys_at(const detector *d, const ph *p, uint64_t pos) {
  const uint64_t *key = d->u->key;
  uint64_t len = p->pub.nunits, ref = p->pub.first_unit;
  if (pos + len > d->u->n) return 0;
  for (uint64_t k = 0; k < len; k++)
    if (key[pos + k] != key[ref + k]) return 0;
  return 1;
}

/* Does a known repeating phase start inside the candidate period
 * [POS + 1, POS + P)? (A stretch seen once, such as the set-up, does not
 * count: it is no unit of the loop.) */
static int holds_known(const detector *d, uint64_t pos, uint64_t p) {
  for (uint64_t j = 1; j < p; j++) {
    uint32_t id = map_get(d, d->u->key[pos + j]);
    for (int probes = 0; id && probes < MAX_PROBES; probes++, id = d->ph[id - 1].next_same) {
      const ph *q = &d->ph[id - 1];
      if ((!q->pub.irregular || q->pub.weight >= 2) && keys_at(d, q, pos + j)) return 1;
    }
  }
  return 0;
}

/* Units from POS that repeat with period P, up to LIMIT (0: P does not
 * repeat back to back). */
static uint64_t repeat_len(const units *u, uint64_t pos, uint64_t p, uint64_t limit) {
  const uint64_t *key = u->key;
  if (pos + 2 * p > u->n || key[pos + p] != key[pos]) return 0;
  uint64_t l = 0;
  while (l < limit && pos + l + p < u->n && key[pos + l] == key[pos + l + p])
    l++;
  return l < p ? 0 : l;
}

/* d->next (see detector), from the end with a map of each key's latest unit; none for
 * units of one call each (first_only: best_period is not asked). */
static int next_same_key(detector *d) {
  const units *u = d->u;
  if (u->first_only) return 0;
  assert(u->n <= UINT32_MAX); /* the map holds unit indices as 32 bits */
  aug_u64map last = {0};
  if (!(d->next = malloc((u->n ? u->n : 1) * sizeof *d->next))) return -1;
  for (uint64_t i = u->n; i-- > 0;) {
    int fresh;
    uint32_t *slot = aug_u64map_slot(&last, u->key[i], &fresh);
    if (!slot) {
      aug_u64map_free(&last);
      return -1;
    }
    d->next[i] = fresh ? UINT64_MAX : *slot;
    *slot = (uint32_t)i;
  }
  aug_u64map_free(&last);
  return 0;
}

/* The repeating unit at POS, 0 if the keys from POS do not repeat. First
 * the period that covers most units of a window of 2 x max-period
 * (shortest on a tie): a whole iteration rather than a call repeated
 * inside it (MG's comm3 sends twice to one neighbour: period 1 covers 2
 * ticks of 18). Then PAS2P's phases are the smallest repeating units: a
 * shorter period whose back-to-back repeats cover at least half of that
 * one is the unit (keys AAAB AAAB ...: A, not the K-iteration
 * super-period, whose start would depend on where the scan first met it).
 * A unit that holds a known repeating phase is no new unit either (at B,
 * the next repeat of B is a super-period that holds A's): the position
 * then joins the open stretch, which closes at the next known phase and
 * recurs. */
static uint64_t best_period(const detector *d, uint64_t pos) {
  const units *u = d->u;
  uint64_t maxp = d->o->max_period, window = 2 * maxp, best = 0, best_cov = 0;
  for (uint64_t at = d->next[pos]; at != UINT64_MAX; at = d->next[at]) {
    uint64_t p = at - pos;
    if (p > maxp || pos + 2 * p > u->n) break;
    uint64_t l = repeat_len(u, pos, p, window);
    if (!l) continue;
    uint64_t cov = (1 + l / p) * p;
    if (cov > window) cov = window;
    if (cov > best_cov) {
      best_cov = cov;
      best = p;
    }
    if (cov >= window) break; /* a longer period can only tie */
  }
  for (uint64_t at = d->next[pos]; at != UINT64_MAX && at - pos < best; at = d->next[at]) {
    uint64_t q = at - pos, l = repeat_len(u, pos, q, best);
    if (l && 2 * (1 + l / q) * q >= best) {
      best = q;
      break;
    }
  }
  return best && holds_known(d, pos, best) ? 0 : best;
}

static int map_put(detector *d, uint64_t key, uint32_t val) {
  return aug_u64map_put(&d->map, key, val);
}

static uint32_t map_get(const detector *d, uint64_t key) {
  uint32_t v;
  return aug_u64map_get(&d->map, key, &v) ? v : 0;
}

/* Describes a new phase's first occurrence: bounds and ranks. */
static void describe(detector *d, ph *p, uint8_t *seen) {
  const units *u = d->u;
  uint64_t a = u->off[p->pub.first_unit], b = u->off[p->pub.first_unit + p->pub.nunits];
  p->pub.first_rank = p->pub.last_rank = 0;
  if (a < b) {
    const augur_lt_event *f = &d->lg->rank[u->rrank[a]].ev[u->ridx[a]];
    p->pub.first_rank = u->rrank[a];
    p->pub.first_type = f->type;
    p->pub.first_callsite = f->callsite;
    p->pub.tick_first = f->lt;
    const augur_lt_event *l = &d->lg->rank[u->rrank[b - 1]].ev[u->ridx[b - 1]];
    p->pub.last_rank = u->rrank[b - 1];
    p->pub.last_type = l->type;
    p->pub.last_callsite = l->callsite;
    p->pub.tick_last = l->lt;
  }
  uint32_t nr = 0;
  for (uint64_t k = a; k < b; k++)
    if (!seen[u->rrank[k]]) {
      seen[u->rrank[k]] = 1;
      nr++;
    }
  for (uint64_t k = a; k < b; k++)
    seen[u->rrank[k]] = 0;
  p->pub.nranks = nr;
}

static ph *new_phase(detector *d, uint64_t pos, uint64_t len, int irregular, uint8_t *seen) {
  if (aug_grow((void **)&d->ph, &d->cap, (size_t)d->nph + 1, sizeof *d->ph)) return NULL;
  ph *p = &d->ph[d->nph++];
  memset(p, 0, sizeof *p);
  p->pub.id = d->nph;
  p->pub.first_unit = pos;
  p->pub.nunits = len;
  p->pub.irregular = irregular;
  p->key0 = d->u->key[pos];
  describe(d, p, seen);
  p->next_same = map_get(d, p->key0);
  if (map_put(d, p->key0, d->nph)) return NULL;
  return p;
}

/* Counts a repetition at POS; false if out of memory. */
static int add_occ(ph *p, uint64_t pos, const occ *o) {
  augur_phase *pb = &p->pub;
  augur_phase_run *last = pb->nruns ? &pb->runs[pb->nruns - 1] : NULL;
  if (last && last->first_unit + last->count * pb->nunits == pos) {
    last->count++;
  } else {
    if (aug_grow((void **)&pb->runs, &p->runs_cap, (size_t)pb->nruns + 1, sizeof *pb->runs))
      return 0;
    pb->runs[pb->nruns++] = (augur_phase_run){pos, 1};
  }
  p->pub.weight++;
  p->work_sum += o->work;
  p->bytes_sum += o->bytes;
  p->time_sum += o->time;
  p->time_sq += o->time * o->time;
  p->events_sum += (double)o->events;
  p->pub.events = o->events;
  return 1;
}

/* Closes the open stretch [*START, END): a stretch that recurs (same calls as
 * an earlier one, e.g. every 100th iteration) adds weight to that phase;
 * otherwise it becomes a new phase, which later stretches can match. */
static int close_stretch(detector *d, uint64_t *start, uint64_t end, uint8_t *seen) {
  if (*start == NONE) return 0;
  uint64_t pos = *start, len = end - *start;
  *start = NONE;
  occ o;
  uint32_t id = map_get(d, d->u->key[pos]);
  for (int probes = 0; id && probes < MAX_PROBES; probes++, id = d->ph[id - 1].next_same)
    if (d->ph[id - 1].pub.nunits == len && occurs(d, &d->ph[id - 1], pos, &o)) {
      return add_occ(&d->ph[id - 1], pos, &o) ? 0 : -1;
    }
  ph *p = new_phase(d, pos, len, 1, seen);
  if (!p) return -1;
  occ_measure(d, pos, len, &o);
  return add_occ(p, pos, &o) ? 0 : -1;
}

static int scan(detector *d, uint8_t *seen) {
  const units *u = d->u;
  uint64_t pos = 0, stretch = NONE;
  occ o;
  while (pos < u->n) {
    if (u->off[pos + 1] == u->off[pos]) { /* an empty tick: part of whatever is open */
      if (stretch == NONE) stretch = pos;
      pos++;
      continue;
    }
    /* Phases are found by index: closing a stretch may move d->ph. */
    uint32_t hit = 0;
    uint32_t id = map_get(d, u->key[pos]);
    for (int probes = 0; id && probes < MAX_PROBES; probes++, id = d->ph[id - 1].next_same)
      if (occurs(d, &d->ph[id - 1], pos, &o)) {
        hit = id;
        break;
      }
    if (!hit) {
      /* Irregular units: every stretch is a phase candidate by itself (seed
       * §1.6, "the smallest possible phases"); no period search. */
      uint64_t p = u->first_only ? 1 : best_period(d, pos);
      if (p) {
        if (close_stretch(d, &stretch, pos, seen)) return -1;
        ph *np = new_phase(d, pos, p, u->first_only, seen);
        if (!np) return -1;
        hit = np->pub.id;
        occ_measure(d, pos, p, &o);
      }
    } else if (close_stretch(d, &stretch, pos, seen)) {
      return -1;
    }
    if (hit) {
      if (!add_occ(&d->ph[hit - 1], pos, &o)) return -1;
      pos += d->ph[hit - 1].pub.nunits;
    } else {
      if (stretch == NONE) stretch = pos;
      pos++;
    }
  }
  return close_stretch(d, &stretch, u->n, seen);
}

/* Square root by Newton's method (no libm here, see the top). */
static double sqrt_(double x) {
  if (!(x > 0)) return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 200; i++) {
    double n = 0.5 * (r + x / r);
    if (n >= r) break;
    r = n;
  }
  return r;
}

/* Coefficient of variation of N values with sum S and sum of squares SQ. */
static double cv_of(double s, double sq, double n) {
  if (n < 2 || s <= 0) return 0;
  double mean = s / n, var = sq / n - mean * mean;
  return var > 0 ? sqrt_(var) / mean : 0;
}

static void free_ph(ph *v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    free(v[i].pub.runs);
  free(v);
}

void augur_phase_array_free_(augur_phase *v, uint32_t n) {
  for (uint32_t i = 0; v && i < n; i++) {
    free(v[i].runs);
    free(v[i].rank_weight);
    free(v[i].rank_tick_first);
    free(v[i].rank_tick_last);
    free(v[i].rank_total_ns);
  }
  free(v);
}

uint64_t augur_phase_rep_unit_(const augur_phase *p, uint64_t j) {
  for (uint32_t k = 0; k < p->nruns; k++) {
    if (j < p->runs[k].count) return p->runs[k].first_unit + j * p->nunits;
    j -= p->runs[k].count;
  }
  return UINT64_MAX;
}

/* Relevance by loop (AUGUR_PHASE_LOOP_REPS, docs/phases.md "Relevance"):
 * every repeating phase below the threshold whose repetitions interleave
 * with those of a repeating phase relevant by its share, at least once per
 * AUGUR_PHASE_LOOP_REPS of them (by weight), becomes relevant,
 * with loop_of = the first such phase (by id). Exact quantities only: the
 * units where repetitions begin, which two recordings with the same phase
 * table share. */
static void relevant_by_loop(augur_phases *out, double *covered) {
  for (uint32_t i = 0; i < out->nphases; i++) {
    augur_phase *b = &out->phase[i];
    if (b->relevant || b->weight < 2 || !b->nruns) continue;
    uint64_t b0 = augur_phase_rep_unit_(b, 0), bl = augur_phase_rep_unit_(b, b->weight - 1);
    for (uint32_t j = 0; j < out->nphases && !b->loop_of; j++) {
      const augur_phase *a = &out->phase[j];
      if (!a->relevant || a->loop_of || a->weight < 2 || !a->nruns) continue;
      uint64_t a0 = augur_phase_rep_unit_(a, 0);
      uint64_t a_end = augur_phase_rep_unit_(a, a->weight - 1) + a->nunits;
      uint64_t a_n = a->weight > AUGUR_PHASE_LOOP_REPS
                         ? augur_phase_rep_unit_(a, AUGUR_PHASE_LOOP_REPS)
                         : a_end;
      if (b0 > a0 && b0 < a_n && bl <= a_end && b->weight * AUGUR_PHASE_LOOP_REPS >= a->weight)
        b->loop_of = a->id;
    }
    if (!b->loop_of) continue;
    b->relevant = 1;
    out->nrelevant++;
    out->pet_ns += b->total_ns;
    *covered += b->share;
  }
}

/* Relevance by cost (docs/phases.md "Relevance"): a phase of weight 1 below
 * the threshold is relevant all the same (kept_free): timing it costs the
 * signature run nothing. Before the signature's stop it runs in every
 * signature run anyway and is timed once; after the stop it is late (never
 * timed: base x scale, what `rest` would count). Its weight is exact, the
 * same in two recordings with the same phase table; its share is not. */
static void relevant_by_cost(augur_phases *out, double *covered) {
  for (uint32_t i = 0; i < out->nphases; i++) {
    augur_phase *b = &out->phase[i];
    if (b->relevant || b->weight != 1 || !b->nruns) continue;
    b->kept_free = 1;
    b->relevant = 1;
    out->nrelevant++;
    out->pet_ns += b->total_ns;
    *covered += b->share;
  }
}

int augur_detect_units_(const augur_logical *lg, const augur_phase_opts *o, const units *u,
                        uint32_t divisor, double run_ns, augur_phases *out) {
  detector d = {.lg = lg, .o = o, .u = u, .divisor = divisor ? divisor : 1};
  uint8_t *seen = calloc(lg->nranks ? lg->nranks : 1, 1);
  int rc = seen ? next_same_key(&d) : -1;
  if (!rc) rc = scan(&d, seen);
  free(seen);
  free(d.next);
  aug_u64map_free(&d.map);
  if (rc) {
    free_ph(d.ph, d.nph);
    return -1;
  }
  out->nphases = d.nph;
  out->phase = calloc(d.nph ? d.nph : 1, sizeof *out->phase);
  if (!out->phase) {
    free_ph(d.ph, d.nph);
    return -1;
  }
  out->run_ns = run_ns;
  out->nrelevant = 0;
  out->pet_ns = 0;
  double covered = 0;
  for (uint32_t i = 0; i < d.nph; i++) {
    augur_phase *p = &out->phase[i];
    *p = d.ph[i].pub;
    p->irregular = p->irregular && p->weight == 1; /* a stretch that recurred repeats */
    double w = (double)p->weight;
    p->bytes = d.ph[i].bytes_sum / w;
    if (u->first_only) /* irregular stretches differ in calls: the mean, rounded */
      p->events = (uint64_t)(d.ph[i].events_sum / w + 0.5);
    p->work = d.ph[i].work_sum / w / d.divisor;
    p->total_ns = d.ph[i].time_sum / d.divisor;
    p->phase_ns = p->total_ns / w;
    p->cv = cv_of(d.ph[i].time_sum, d.ph[i].time_sq, w);
    p->share = run_ns > 0 ? p->total_ns / run_ns : 0;
    p->relevant = p->share >= o->min_share;
    if (p->relevant) {
      out->nrelevant++;
      out->pet_ns += p->total_ns;
      covered += p->share;
    }
  }
  if (!u->first_only && o->mode != AUGUR_PHASES_IRREGULAR) {
    relevant_by_loop(out, &covered);
    relevant_by_cost(out, &covered);
  }
  out->relevant_share = covered;
  free(d.ph); /* the runs now belong to out->phase */
  return 0;
}

double augur_mean_span_(const augur_logical *lg) {
  double run = 0;
  for (uint32_t r = 0; r < lg->nranks; r++)
    run += (double)lg->rank[r].span_ns;
  return lg->nranks ? run / lg->nranks : 0;
}

void augur_phases_free(augur_phases *p) {
  if (!p) return;
  augur_phase_array_free_(p->phase, p->nphases);
  free(p->rank_error);
  free(p->rank_nphases);
  free(p->irr_comms);
  free(p->irr_points);
  free(p);
}

static int nomem(augur_phases *p, units *u, augur_error *err) {
  augur_units_free_(u);
  augur_phases_free(p);
  return augur_fail(err, AUGUR_E_NOMEM, "out of memory for phase detection");
}

/* max_period 0: the first period searched, widened 4x while nothing repeats (an iteration
 * longer than that: a wavefront's grows with its grid, NPB LU-like sweeps on 64 x 64 ranks
 * take 757 ticks), up to a quarter of the units. */
#define AUTO_PERIOD 512

static int any_repeats(const augur_phases *p) {
  for (uint32_t i = 0; i < p->nphases; i++)
    if (p->phase[i].relevant && p->phase[i].weight > 1) return 1;
  return 0;
}

/* Global mode: the phases of U, with the search widened when O asks for it (auto). */
static int detect_global(const augur_logical *lg, augur_phase_opts *o, int widen, const units *u,
                         augur_phases *p) {
  const augur_phases base = *p;
  double run = augur_mean_span_(lg);
  for (;;) {
    if (augur_detect_units_(lg, o, u, lg->nranks, run, p)) return -1;
    if (!widen || any_repeats(p) || (uint64_t)o->max_period * 4 > u->n / 4) return 0;
    uint32_t first = p->max_period_widened ? p->max_period_widened : o->max_period;
    augur_phase_array_free_(p->phase, p->nphases);
    *p = base;
    p->max_period_widened = first;
    o->max_period *= 4;
    p->opts.max_period = o->max_period;
  }
}

int augur_phases_detect(const augur_logical *lg, const augur_phase_opts *opts, augur_phases **out,
                        augur_error *err) {
  *out = NULL;
  augur_phase_opts o;
  if (opts)
    o = *opts;
  else
    augur_phase_opts_default(&o);
  int widen = o.max_period == 0;
  if (widen) o.max_period = AUTO_PERIOD;
  if (o.work_sim < 0) o.work_sim = augur_logical_work_is_count(lg) ? 0.85 : 0;
  if (o.mode == AUGUR_PHASES_RANK && o.rank >= (int)lg->nranks)
    return augur_fail(err, AUGUR_E_ARG, "rank %d: the trace has %u ranks", o.rank, lg->nranks);
  augur_phases *p = calloc(1, sizeof *p);
  if (!p) return augur_fail(err, AUGUR_E_NOMEM, "out of memory for phase detection");
  p->mode = o.mode;
  p->nranks = lg->nranks;
  p->opts = o;
  p->aet_ns = (double)(lg->run_end_ns - lg->run_start_ns);
  units u = {0};
  if (o.mode == AUGUR_PHASES_IRREGULAR) {
    int rc = augur_phases_irregular_(lg, &o, p, err);
    if (rc != AUGUR_OK) {
      augur_phases_free(p);
      return rc;
    }
    *out = p;
    return AUGUR_OK;
  }
  if (o.mode == AUGUR_PHASES_GLOBAL) {
    if (units_global(lg, &u) || detect_global(lg, &o, widen, &u, p)) return nomem(p, &u, err);
    p->nunits = u.n;
    augur_units_free_(&u);
    *out = p;
    return AUGUR_OK;
  }
  /* EPAS: every rank on its own; the representative is the rank whose
   * relevant phases predict the run best (seed Fig. 2.19). */
  uint32_t chosen = o.rank >= 0 ? (uint32_t)o.rank : 0;
  if (o.rank < 0) {
    p->rank_error = calloc(lg->nranks ? lg->nranks : 1, sizeof *p->rank_error);
    p->rank_nphases = calloc(lg->nranks ? lg->nranks : 1, sizeof *p->rank_nphases);
    if (!p->rank_error || !p->rank_nphases) return nomem(p, &u, err);
    double best = -1;
    for (uint32_t r = 0; r < lg->nranks; r++) {
      augur_phases tmp = {0};
      if (units_rank(lg, r, &u) ||
          augur_detect_units_(lg, &o, &u, 1, (double)lg->rank[r].span_ns, &tmp))
        return nomem(p, &u, err);
      augur_units_free_(&u);
      augur_phase_array_free_(tmp.phase, tmp.nphases);
      double diff = tmp.pet_ns > p->aet_ns ? tmp.pet_ns - p->aet_ns : p->aet_ns - tmp.pet_ns;
      double e = p->aet_ns > 0 ? diff / p->aet_ns : 0;
      p->rank_error[r] = e;
      p->rank_nphases[r] = tmp.nphases;
      if (best < 0 || e < best) {
        best = e;
        chosen = r;
      }
    }
  }
  p->rank = chosen;
  if (lg->nranks && (units_rank(lg, chosen, &u) ||
                     augur_detect_units_(lg, &o, &u, 1, (double)lg->rank[chosen].span_ns, p)))
    return nomem(p, &u, err);
  p->nunits = u.n;
  augur_units_free_(&u);
  *out = p;
  return AUGUR_OK;
}
