/* augur timeline — building the picture's data from one pass over a trace.
 *
 * Per rank: time per state in W pixel columns (always), exact intervals while
 * there are few (hover text wants call names), totals per state. Messages
 * come from the shared matcher (augur/match.h); an arrow runs from the send
 * call's start to the end of the call that completed the receive. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/match.h"
#include "augur/timeline.h"
#include "extent.h"
#include "grow.h"
#include "timeline_int.h"

#define DEFAULT_WIDTH      1600
#define DEFAULT_MAX_ARROWS 2000
/* Exact intervals per rank kept up to this many per pixel column: beyond,
 * they would be sub-pixel slivers and only the column fractions are drawn. */
#define EXACT_PER_COLUMN 2

int augur_tl_state_of(unsigned type) {
  if (type == AUGUR_EV_BARRIER || type == AUGUR_EV_IBARRIER) return AUGUR_TL_BARRIER;
  if (augur_event_is_collective(type)) return AUGUR_TL_COLL;
  if (augur_event_is_sendrecv(type)) return AUGUR_TL_RECV;
  if (type >= AUGUR_EV_SEND && type <= AUGUR_EV_IRSEND) return AUGUR_TL_SEND;
  if (augur_event_is_p2p_recv(type) && type != AUGUR_EV_RECV_INIT) return AUGUR_TL_RECV;
  if (type >= AUGUR_EV_PROBE && type <= AUGUR_EV_IMPROBE) return AUGUR_TL_RECV;
  if (augur_event_is_completion(type)) return AUGUR_TL_RECV;
  return AUGUR_TL_OTHER;
}

static const char *const state_names[AUGUR_TL_NSTATES] = {
    "compute", "p2p send", "p2p receive/wait", "collective", "barrier", "other MPI"};
/* Colour-blind friendly (Okabe-Ito based); compute is light so MPI stands out. */
static const char *const state_colors[AUGUR_TL_NSTATES] = {"#b8e0b0", "#0072b2", "#d55e00",
                                                           "#cc79a7", "#e69f00", "#8c8c8c"};

/* Thread states (enum augur_tstate): user code green as compute above,
 * the OpenMP runtime's waits warm, MPI blue, idle a grey darker than the
 * row background. */
static const char *const ts_labels[AUGUR_TS_COUNT] = {
    "MPI",    "OpenMP wait/barrier", "OpenMP sync", "OpenMP mutex wait", "fork", "join", "idle",
    "serial", "useful (parallel)"};
static const char *const ts_colors[AUGUR_TS_COUNT] = {"#0072b2", "#e69f00", "#f0e442",
                                                      "#cc79a7", "#56b4e9", "#009e73",
                                                      "#c8c8c8", "#6fa86a", "#b8e0b0"};

const char *augur_tl_tstate_label(int state) {
  return state >= 0 && state < AUGUR_TS_COUNT ? ts_labels[state] : "?";
}
const char *augur_tl_tstate_color(int state) {
  return state >= 0 && state < AUGUR_TS_COUNT ? ts_colors[state] : "#000000";
}

const char *augur_tl_state_name(int state) {
  return state >= 0 && state < AUGUR_TL_NSTATES ? state_names[state] : "?";
}
const char *augur_tl_state_color(int state) {
  return state >= 0 && state < AUGUR_TL_NSTATES ? state_colors[state] : "#000000";
}

/* ---- building ---------------------------------------------------------- */

static tl_rank *rank_of(augur_timeline *tl, uint32_t rank) {
  if (rank < tl->rank_lo || rank > tl->rank_hi) return NULL;
  return &tl->ranks[tl_row_of(tl, rank)];
}

/* Adds [t0, t1) in `state` (one of NSTATES) to the row's columns, totals and
 * exact list. */
static int add_interval(augur_timeline *tl, tl_row *r, uint64_t t0, uint64_t t1, int state,
                        unsigned type, int nstates) {
  if (t1 <= t0 || t1 <= tl->from || t0 >= tl->to) return 0;
  uint64_t a = t0 < tl->from ? tl->from : t0, b = t1 > tl->to ? tl->to : t1;
  r->totals[state] += b - a;
  double x0 = (double)(a - tl->from) / tl->col_ns, x1 = (double)(b - tl->from) / tl->col_ns;
  uint32_t c0 = (uint32_t)x0, c1 = (uint32_t)x1;
  if (c1 >= tl->width) c1 = tl->width - 1;
  if (c0 > c1) c0 = c1;
  for (uint32_t c = c0; c <= c1; c++) {
    double lo = x0 > c ? x0 : c, hi = x1 < c + 1.0 ? x1 : c + 1.0;
    if (hi > lo) r->cols[(size_t)c * nstates + state] += (float)(hi - lo);
  }
  if (r->overflow) return 0;
  if (r->niv == (size_t)tl->width * EXACT_PER_COLUMN) { /* too many: columns only */
    free(r->iv);
    r->iv = NULL;
    r->niv = r->cap = 0;
    r->overflow = 1;
    return 0;
  }
  if (aug_grow((void **)&r->iv, &r->cap, r->niv + 1, sizeof *r->iv)) return -1;
  r->iv[r->niv++] = (augur_tl_interval){a, b, (uint16_t)type, (uint8_t)state};
  return 0;
}

/* The row of THREAD of rank R, made on first use. */
static tl_thread *thread_row(augur_timeline *tl, tl_rank *r, uint32_t thread) {
  for (size_t i = 0; i < r->nthr; i++)
    if (r->thr[i].thread == thread) return &r->thr[i];
  if (aug_grow((void **)&r->thr, &r->capthr, r->nthr + 1, sizeof *r->thr)) return NULL;
  tl_thread *th = &r->thr[r->nthr];
  *th = (tl_thread){.thread = thread};
  th->row.cols = calloc((size_t)tl->width * AUGUR_TS_COUNT, sizeof(float));
  if (!th->row.cols) return NULL;
  r->nthr++;
  return th;
}

/* The thread states' intervals (src/analysis/omp) go to the thread rows. */
static void on_tstate(void *arg, uint32_t thread, unsigned state, uint64_t t0, uint64_t t1) {
  tl_rank *r = arg;
  augur_timeline *tl = r->tl;
  tl_thread *th = thread_row(tl, r, thread);
  if (!th || add_interval(tl, &th->row, t0, t1, (int)state, AUGUR_EV_NONE, AUGUR_TS_COUNT))
    tl->nomem = 1;
}

static int cmp_thread_row(const void *a, const void *b) {
  const tl_thread *x = a, *y = b;
  return x->thread < y->thread ? -1 : (x->thread > y->thread);
}

/* Closes the thread states of every rank: its last intervals, a row for
 * every thread that had records, the initial thread marked. */
static int finish_threads(augur_timeline *tl, augur_error *err) {
  for (uint32_t i = 0; i < tl->nrows; i++) {
    tl_rank *r = &tl->ranks[i];
    if (!r->ts) continue;
    augur_rank_states rs;
    int rc = augur_tstates_finish(r->ts, &rs, err);
    r->ts = NULL;
    if (rc < 0) return rc;
    tl->omp_unbalanced += rs.unbalanced;
    for (size_t k = 0; k < rs.nthreads && !tl->nomem; k++) {
      tl_thread *th = thread_row(tl, r, rs.threads[k].thread);
      if (th)
        th->initial = rs.threads[k].initial;
      else
        tl->nomem = 1;
    }
    augur_rank_states_free(&rs);
    if (tl->nomem) return augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
    qsort(r->thr, r->nthr, sizeof *r->thr, cmp_thread_row);
  }
  return 0;
}

/* Keeps a message of the window; above the cap keeps every stride-th one,
 * doubling the stride (and halving the kept set) whenever the array is full,
 * so the sample stays evenly spread and deterministic. */
static int keep_message(augur_timeline *tl, const augur_tl_message *m) {
  uint64_t k = tl->messages++;
  if (k % tl->stride) return 0;
  if (tl->nmsg == tl->max_arrows) {
    size_t j = 0;
    for (size_t i = 0; i < tl->nmsg; i += 2)
      tl->msg[j++] = tl->msg[i];
    tl->nmsg = j;
    tl->stride *= 2;
    if (k % tl->stride) return 0;
  }
  tl->msg[tl->nmsg++] = *m;
  return 0;
}

static int in_ranks(const augur_timeline *tl, uint32_t sender, uint32_t receiver) {
  return sender >= tl->rank_lo && sender <= tl->rank_hi && receiver >= tl->rank_lo &&
         receiver <= tl->rank_hi;
}

static int on_message(void *ctx, const augur_message *msg) {
  augur_timeline *tl = ctx;
  if (!in_ranks(tl, msg->sender, msg->receiver)) return 0;
  uint64_t t_send = msg->send.t_start, t_recv = msg->recv.t_end;
  uint64_t lo = t_send < t_recv ? t_send : t_recv, hi = t_send < t_recv ? t_recv : t_send;
  if (hi < tl->from || lo > tl->to) return 0;
  augur_tl_message m = {t_send,        t_recv,   msg->bytes,       msg->comm,       msg->sender,
                        msg->receiver, msg->tag, msg->send.thread, msg->recv.thread};
  keep_message(tl, &m);
  return 0;
}

/* Sends of the window still waiting at the end are unmatched. */
static void count_unmatched(void *ctx, uint32_t sender, uint32_t receiver, uint64_t comm,
                            int32_t tag, const augur_match_end *e, int is_send) {
  augur_timeline *tl = ctx;
  (void)comm, (void)tag;
  if (is_send && in_ranks(tl, sender, receiver) && e->t_start >= tl->from && e->t_start <= tl->to)
    tl->unmatched++;
}

static int stream_window(augur_timeline *tl, augur_trace *t, const augur_tl_options *opt,
                         augur_error *err) {
  augur_matcher *mt = augur_matcher_new(t, on_message, NULL, tl);
  if (!mt) return augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
  /* Reading stops past the window once no send of the window waits. */
  augur_matcher_set_horizon(mt, tl->to);
  augur_stream *s;
  int rc = tl->hybrid ? augur_stream_merged_kinds(t, AUGUR_KIND_MPI | AUGUR_KIND_OMP, &s, err)
                      : augur_stream_merged(t, &s, err);
  if (rc < 0) {
    augur_matcher_free(mt);
    return rc;
  }
  augur_event ev;
  uint32_t n = tl->nranks;
  /* Per world rank: end of its latest call (compute starts there). */
  uint64_t *last_end = calloc(n, sizeof *last_end);
  unsigned char *seen = calloc(n, 1);
  if (!last_end || !seen) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
    goto out;
  }
  while ((rc = augur_stream_next(s, &ev, err)) == 1) {
    tl->events++;
    if (opt && opt->progress && (tl->events & ((1u << 20) - 1)) == 0)
      opt->progress(opt->progress_arg, tl->events);
    uint32_t rk = ev.rank;
    if (rk >= n) continue;
    if (tl->hybrid) {
      /* Every record of a rank, in time order, makes its thread states. */
      tl_rank *r = rank_of(tl, rk);
      if (r && (rc = augur_tstates_add(r->ts, &ev, err)) < 0) goto out;
      if (tl->nomem) goto nomem;
      if (augur_event_is_omp(ev.type)) continue;
    }
    int sub = augur_event_is_sub(ev.type);
    if (!sub) {
      /* Past the window, and no send of it still waits for its receive.
       * (Thread states need every record: a thread's state at the window's
       * end is known only at its next record.) */
      if (!tl->hybrid && ev.t_start > tl->to && augur_match_sends_by_horizon(mt) == 0) break;
      tl_rank *r = rank_of(tl, rk);
      if (r) {
        if (seen[rk] && ev.t_start > last_end[rk] &&
            add_interval(tl, &r->row, last_end[rk], ev.t_start, AUGUR_TL_COMPUTE, AUGUR_EV_NONE,
                         AUGUR_TL_NSTATES))
          goto nomem;
        if (add_interval(tl, &r->row, ev.t_start, ev.t_end, augur_tl_state_of(ev.type), ev.type,
                         AUGUR_TL_NSTATES))
          goto nomem;
      }
      if (!seen[rk] || ev.t_end > last_end[rk]) last_end[rk] = ev.t_end;
      seen[rk] = 1;
      if (ev.type == AUGUR_EV_FINALIZE) last_end[rk] = UINT64_MAX; /* no compute after */
    }
    int rc2 = augur_match_feed(mt, &ev, err);
    if (rc2 < 0) {
      rc = rc2;
      goto out;
    }
  }
  if (rc > 0) rc = 0;
  if (rc == 0) {
    augur_match_each_waiting(mt, count_unmatched, tl);
    augur_match_counts mc;
    augur_match_counts_get(mt, &mc);
    tl->dropped = mc.dropped;
    rc = finish_threads(tl, err);
  }
  goto out;
nomem:
  rc = augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
out:
  free(last_end);
  free(seen);
  augur_matcher_free(mt);
  augur_stream_close(s);
  return rc;
}

int augur_timeline_build(augur_timeline **out, augur_trace *t, const augur_tl_options *opt,
                         augur_error *err) {
  *out = NULL;
  augur_tl_options o = {0};
  if (opt) o = *opt;
  uint32_t n = augur_trace_nranks(t);
  if (n == 0) return augur_fail(err, AUGUR_E_ARG, "timeline: the trace has no ranks");
  if (o.rank_lo >= n || (o.rank_count && o.rank_count > n - o.rank_lo))
    return augur_fail(
        err, AUGUR_E_ARG, "timeline: ranks %u-%llu outside the trace's %u ranks (0-%u)", o.rank_lo,
        o.rank_count ? (unsigned long long)o.rank_lo + o.rank_count - 1 : n - 1ull, n, n - 1);
  uint32_t rank_hi = o.rank_count ? o.rank_lo + o.rank_count - 1 : n - 1;
  if (!o.width) o.width = DEFAULT_WIDTH;
  if (!o.max_arrows) o.max_arrows = DEFAULT_MAX_ARROWS;
  if (o.from == 0 || o.to == 0) {
    uint64_t first, last;
    int rc = augur_run_extent(t, &first, &last, err);
    if (rc < 0) return rc;
    if (o.from == 0 && o.to == 0) o.from = first;
    if (o.to == 0) o.to = last;
  }
  if (o.to <= o.from)
    return augur_fail(err, AUGUR_E_ARG,
                      "timeline: empty window (from %llu ns to %llu ns on the trace's timeline)",
                      (unsigned long long)o.from, (unsigned long long)o.to);

  augur_timeline *tl = calloc(1, sizeof *tl);
  if (!tl) return augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
  tl->trace = t;
  tl->nranks = n;
  tl->from = o.from, tl->to = o.to;
  tl->rank_lo = o.rank_lo, tl->rank_hi = rank_hi;
  tl->width = o.width;
  tl->col_ns = (double)(o.to - o.from) / o.width;
  tl->max_arrows = o.max_arrows;
  tl->stride = 1;
  tl->group = o.group > 1 ? o.group : 1;
  uint32_t nr = (rank_hi - o.rank_lo) / tl->group + 1;
  tl->nrows = nr;
  tl->ranks = calloc(nr, sizeof *tl->ranks);
  tl->msg = malloc(o.max_arrows * sizeof *tl->msg);
  if (!tl->ranks || !tl->msg) goto nomem;
  for (uint32_t r = 0; r < n && o.threads && tl->group == 1 && !tl->hybrid; r++)
    tl->hybrid = augur_trace_omp_nblocks(t, r) > 0;
  for (uint32_t i = 0; i < nr; i++) {
    tl_rank *r = &tl->ranks[i];
    r->tl = tl;
    r->row.cols = calloc((size_t)o.width * AUGUR_TL_NSTATES, sizeof(float));
    if (!r->row.cols) goto nomem;
    r->row.overflow = tl->group > 1; /* a block's calls are not drawn one by one */
    if (tl->hybrid) {
      if (!(r->ts = augur_tstates_new(o.rank_lo + i))) goto nomem;
      augur_tstates_on_interval(r->ts, on_tstate, r);
    }
  }
  int rc = stream_window(tl, t, &o, err);
  if (rc < 0) {
    augur_timeline_free(tl);
    return rc;
  }
  for (uint32_t i = 0; i < nr && tl->group > 1; i++) { /* a block's columns: the mean */
    float k = (float)(tl_row_last(tl, i) - tl_row_first(tl, i) + 1);
    for (size_t c = 0; c < (size_t)o.width * AUGUR_TL_NSTATES; c++)
      tl->ranks[i].row.cols[c] /= k;
  }
  *out = tl;
  return 0;
nomem:
  augur_timeline_free(tl);
  return augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
}

void augur_timeline_free(augur_timeline *tl) {
  if (!tl) return;
  if (tl->ranks)
    for (uint32_t i = 0; i < tl->nrows; i++) {
      tl_rank *r = &tl->ranks[i];
      free(r->row.cols);
      free(r->row.iv);
      for (size_t k = 0; k < r->nthr; k++) {
        free(r->thr[k].row.cols);
        free(r->thr[k].row.iv);
      }
      free(r->thr);
      augur_tstates_free(r->ts);
    }
  free(tl->ranks);
  free(tl->msg);
  for (size_t i = 0; i < tl->nmarks; i++)
    free(tl->marks[i].label);
  free(tl->marks);
  for (size_t i = 0; i < tl->nbands; i++)
    free(tl->bands[i].label);
  free(tl->bands);
  free(tl);
}

/* Appends a copy of (rank, t0, t1, label) to a mark list. */
static int push_mark(augur_tl_mark **v, size_t *n, size_t *cap, uint32_t rank, uint64_t t0,
                     uint64_t t1, const char *label, augur_error *err) {
  if (aug_grow((void **)v, cap, *n + 1, sizeof **v))
    return augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
  char *l = strdup(label ? label : "");
  if (!l) return augur_fail(err, AUGUR_E_NOMEM, "timeline: out of memory");
  (*v)[(*n)++] = (augur_tl_mark){rank, t0, t1, l};
  return 0;
}

int augur_timeline_mark(augur_timeline *tl, uint32_t rank, uint64_t t0, uint64_t t1,
                        const char *label, augur_error *err) {
  if (rank >= tl->nranks)
    return augur_fail(err, AUGUR_E_ARG, "timeline: mark on rank %u outside the trace's %u ranks",
                      rank, tl->nranks);
  if (t1 < t0) return augur_fail(err, AUGUR_E_ARG, "timeline: mark ends before it starts");
  if (rank < tl->rank_lo || rank > tl->rank_hi) return 0; /* a rank not drawn */
  return push_mark(&tl->marks, &tl->nmarks, &tl->capmarks, rank, t0, t1, label, err);
}

int augur_timeline_band(augur_timeline *tl, uint64_t t0, uint64_t t1, const char *label,
                        augur_error *err) {
  if (t1 < t0) return augur_fail(err, AUGUR_E_ARG, "timeline: band ends before it starts");
  return push_mark(&tl->bands, &tl->nbands, &tl->capbands, 0, t0, t1, label, err);
}

uint32_t augur_tl_group_for(uint32_t nranks) {
  return nranks <= AUGUR_TL_RANKS ? 1 : (nranks - 1) / AUGUR_TL_RANKS + 1;
}

void augur_tl_rank_window(uint32_t nranks, uint32_t center, uint32_t *lo, uint32_t *count) {
  assert(lo && count);
  *lo = 0;
  *count = nranks;
  if (nranks <= AUGUR_TL_RANKS) return;
  uint32_t half = AUGUR_TL_RANKS / 2;
  *lo = center < half ? 0 : center - half;
  if (*lo > nranks - AUGUR_TL_RANKS) *lo = nranks - AUGUR_TL_RANKS;
  *count = AUGUR_TL_RANKS;
}

void augur_timeline_summary(const augur_timeline *tl, augur_tl_summary *s) {
  memset(s, 0, sizeof *s);
  s->from = tl->from, s->to = tl->to;
  s->rank_lo = tl->rank_lo, s->rank_hi = tl->rank_hi;
  s->width = tl->width;
  s->events = tl->events;
  s->messages = tl->messages;
  s->messages_drawn = tl->nmsg;
  s->unmatched_sends = tl->unmatched;
  s->exact = 1;
  s->omp_unbalanced = tl->omp_unbalanced;
  for (uint32_t i = 0; i < tl->nrows; i++) {
    if (tl->ranks[i].row.overflow) s->exact = 0;
    for (size_t k = 0; k < tl->ranks[i].nthr; k++)
      if (tl->ranks[i].thr[k].row.overflow) s->exact = 0;
  }
}

void augur_timeline_rank_totals(const augur_timeline *tl, uint32_t rank,
                                uint64_t out[AUGUR_TL_NSTATES]) {
  const tl_rank *r = rank_of((augur_timeline *)tl, rank);
  for (int k = 0; k < AUGUR_TL_NSTATES; k++)
    out[k] = r ? r->row.totals[k] : 0;
}

const augur_tl_interval *augur_timeline_intervals(const augur_timeline *tl, uint32_t rank,
                                                  size_t *n) {
  const tl_rank *r = rank_of((augur_timeline *)tl, rank);
  *n = r && !r->row.overflow ? r->row.niv : 0;
  return r && !r->row.overflow ? r->row.iv : NULL;
}

void augur_timeline_column(const augur_timeline *tl, uint32_t rank, uint32_t c,
                           float out[AUGUR_TL_NSTATES]) {
  const tl_rank *r = rank_of((augur_timeline *)tl, rank);
  for (int k = 0; k < AUGUR_TL_NSTATES; k++)
    out[k] = r && c < tl->width ? r->row.cols[(size_t)c * AUGUR_TL_NSTATES + k] : 0;
}

const augur_tl_message *augur_timeline_messages(const augur_timeline *tl, size_t *n) {
  *n = tl->nmsg;
  return tl->msg;
}

int augur_timeline_hybrid(const augur_timeline *tl) {
  return tl->hybrid;
}

size_t augur_timeline_nthreads(const augur_timeline *tl, uint32_t rank) {
  const tl_rank *r = rank_of((augur_timeline *)tl, rank);
  return r ? r->nthr : 0;
}

void augur_timeline_thread(const augur_timeline *tl, uint32_t rank, size_t i,
                           augur_tl_thread *out) {
  const tl_rank *r = rank_of((augur_timeline *)tl, rank);
  assert(r && i < r->nthr);
  const tl_thread *th = &r->thr[i];
  out->thread = th->thread;
  out->initial = th->initial;
  memcpy(out->totals, th->row.totals, sizeof out->totals);
}

const augur_tl_interval *augur_timeline_thread_intervals(const augur_timeline *tl, uint32_t rank,
                                                         size_t i, size_t *n) {
  const tl_rank *r = rank_of((augur_timeline *)tl, rank);
  assert(r && i < r->nthr);
  const tl_row *row = &r->thr[i].row;
  *n = row->overflow ? 0 : row->niv;
  return row->overflow ? NULL : row->iv;
}
