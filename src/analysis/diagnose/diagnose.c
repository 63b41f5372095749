/* augur diagnose — the streaming pass: one read of the merged trace feeds
 * the per-rank state (compute gaps, segments between collectives, recent
 * sends), the active-process timeline, the critical path and the shared
 * matcher, whose callbacks (dx_rules.c) find the wait states and causes.
 * dx_finish.c then turns the groups into findings. docs/diagnose.md. */
#include <stdlib.h>
#include <string.h>

#include "dx_int.h"
#include "extent.h"
#include "grow.h"
#include "hugealloc.h"
#include "prefetch.h"

/* Critical-path counters are kept while ranks x call sites stay below this
 * (2 counters each): 16 M counters = 128 MiB at most. */
#define DX_CP_MAX_COUNTERS (16u << 20)

/* From this many ranks on, the pass loads the next record's rank state
 * while it works on the current one: the ranks' state (dx_rank, 832 bytes
 * each) is then larger than the caches and, with the ranks in step, every
 * record's is a miss. Below it the state stays in the caches and the hint
 * would only cost (issue 27; bench/scale/README.md, stop 41). */
#define DX_PREFETCH_RANKS 1024

static size_t cs_slot(const dx *d, uint64_t cs) {
  size_t i = (size_t)cs * 2;
  return cs && i + 1 < d->cpw ? i : 0;
}

/* The critical path of RANK advances to T: compute before call site CS
 * (is_mpi 0) or time inside it (1). */
static void cp_advance(dx *d, uint32_t rank, uint64_t cs, uint64_t t, int is_mpi) {
  dx_rank *r = &d->ranks[rank];
  if (t <= r->cp_t) return;
  if (d->cp) d->cp[(size_t)rank * d->cpw + cs_slot(d, cs) + (size_t)is_mpi] += t - r->cp_t;
  r->cp_t = t;
}

static int push_snap(dx_rank *r, const augur_event *ev) {
  if (aug_grow((void **)&r->snaps, &r->capsnaps, r->nsnaps + 1, sizeof *r->snaps)) return -1;
  r->snaps[r->nsnaps++] = (dx_snap){ev->comm, ev->t_start, r->seg};
  memset(&r->seg, 0, sizeof r->seg);
  r->seg.top_group = -1;
  return 0;
}

static int is_counted_send(unsigned type) {
  return (type >= AUGUR_EV_SEND && type <= AUGUR_EV_IRSEND) || type == AUGUR_EV_SENDRECV ||
         type == AUGUR_EV_SENDRECV_REPLACE;
}

/* One parent event of a rank, before the matcher sees it. */
static int before(dx *d, const augur_event *ev) {
  dx_rank *r = &d->ranks[ev->rank];
  if (ev->type == AUGUR_EV_INIT || ev->type == AUGUR_EV_INIT_THREAD) {
    r->started = 1;
    r->win_start = r->last_end = r->cp_t = ev->t_end > d->t_ready ? ev->t_end : d->t_ready;
    return 0;
  }
  if (r->finalized) return 0;
  if (augur_event_is_io(ev->type)) d->io_calls++, d->io_ns += ev->t_end - ev->t_start;
  if (!r->started) { /* no MPI_Init recorded: the window opens at the first call */
    r->started = 1;
    r->win_start = r->last_end = r->cp_t = ev->t_start > d->t_ready ? ev->t_start : d->t_ready;
  }
  int polled = dx_poll(d, ev);
  /* waiting for a CPU: in the burst before this call, and in the previous call (which may be
   * the collective that opened this segment: a rank descheduled there leaves it late) */
  uint64_t burst_delay = d->delay_ctr >= 0 ? ev->ctr[d->delay_ctr] : 0;
  uint64_t delay = burst_delay + (d->delay_mpi_ctr >= 0 ? ev->ctr[d->delay_mpi_ctr] : 0);
  r->seg.delay_ns += delay;
  if (r->prev_io_ns && ev->thread == r->prev_io_thread) {
    /* the thread's previous call was MPI-IO (io_imbalance compares that time net of this) */
    uint64_t io_delay = d->delay_mpi_ctr >= 0 ? ev->ctr[d->delay_mpi_ctr] : 0;
    r->seg.io_delay_ns += io_delay < r->prev_io_ns ? io_delay : r->prev_io_ns;
    r->prev_io_ns = 0;
  }
  if (ev->t_start > r->last_end && !polled) {
    uint64_t burst = ev->t_start - r->last_end;
    dx_spread(d, r->last_end, ev->t_start, d->busy, NULL);
    r->seg.compute_ns += burst;
    /* of the burst, the time the rank waited for a CPU (load_imbalance compares the rest) */
    r->seg.compute_delay_ns += burst_delay < burst ? burst_delay : burst;
  }
  cp_advance(d, ev->rank, ev->callsite, ev->t_start, 0);
  if (ev->type == AUGUR_EV_FINALIZE) {
    r->finalized = 1;
    r->win_end = ev->t_start;
    return 0;
  }
  if ((augur_event_is_collective(ev->type) || dx_io_is_sync(d, ev)) && push_snap(r, ev)) return -1;
  if (is_counted_send(ev->type) && ev->peer >= 0 && (uint32_t)ev->peer < d->nranks) {
    d->ranks[ev->peer].pending_in++;
    dx_sent *x = &r->sent[r->nsent++ % DX_SEND_RING];
    *x = (dx_sent){.t0 = ev->t_start,
                   .t1 = ev->t_end,
                   .hash = ev->hash,
                   .to = (uint32_t)ev->peer,
                   .exchange =
                       ev->type == AUGUR_EV_SENDRECV || ev->type == AUGUR_EV_SENDRECV_REPLACE,
                   .delay = delay,
                   .burst_delay = burst_delay};
    if (ev->hash) d->has_hashes = 1;
  }
  return 0;
}

static void after(dx *d, const augur_event *ev) {
  dx_rank *r = &d->ranks[ev->rank];
  /* a collective's own time belongs to no segment (its waits are found
   * when its last member arrives) */
  if (!r->finalized && !augur_event_is_collective(ev->type) && !dx_io_is_sync(d, ev) &&
      ev->t_end > ev->t_start)
    r->seg.mpi_ns += ev->t_end - ev->t_start;
  dx_io_after(d, ev);
  if (!r->finalized && ev->t_end > r->last_end) r->last_end = ev->t_end;
  r->in_call_until = ev->t_end;
  if (!r->finalized) cp_advance(d, ev->rank, ev->callsite, ev->t_end, 1);
}

/* Rank R's first record: from M, a merged stream of the trace not read yet
 * (augur_stream_peek_rank: the merge has decoded it when it opened), or
 * with M NULL from a rank stream of its own, one rank at a time. */
static int first_record(augur_trace *t, augur_stream *m, uint32_t r, augur_event *ev,
                        augur_error *err) {
  if (m) return augur_stream_peek_rank(m, r, ev, err);
  augur_stream *s;
  int rc = augur_stream_rank(t, r, &s, err);
  if (rc < 0) return rc;
  rc = augur_stream_next(s, ev, err);
  augur_stream_close(s);
  return rc;
}

/* When the last rank leaves MPI_Init: the program starts there. Before it,
 * ranks wait for the launcher and each other, which no change to the
 * program fixes (docs/diagnose.md, "Window"). M: the merged stream the pass
 * will read, or NULL when the records come from elsewhere (opt->open_stream,
 * diagnose --parallel: a merged stream of every rank would hold each rank's
 * batch and buffers at once on the analysis rank that keeps none). A rank
 * stream per rank cost a file read, a decompression and a decoded block
 * each (issue 27). */
static int ready_time(augur_trace *t, augur_stream *m, uint64_t *out, augur_error *err) {
  *out = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    augur_event ev;
    int rc = first_record(t, m, r, &ev, err);
    if (rc < 0) return rc;
    if (rc == 1 && (ev.type == AUGUR_EV_INIT || ev.type == AUGUR_EV_INIT_THREAD) && ev.t_end > *out)
      *out = ev.t_end;
  }
  return 0;
}

/* S: the merged stream of the trace, not read yet, or NULL when the
 * records come from opt->open_stream. */
static int setup(dx *d, augur_trace *t, augur_stream *s, const augur_dx_options *opt,
                 augur_error *err) {
  d->trace = t;
  d->err = err;
  d->nranks = augur_trace_nranks(t);
  d->eager_limit_opt = opt->eager_limit;
  d->io_bw = opt->io_bandwidth > 0 ? opt->io_bandwidth : DX_IO_BANDWIDTH;
  d->delay_ctr = augur_trace_counter_slot(t, AUGUR_CTR_OS, "run-delay");
  d->delay_mpi_ctr = augur_trace_counter_slot(t, AUGUR_CTR_OS, "run-delay-mpi");
  d->nbins = opt->bins ? opt->bins : 1000;
  uint64_t first, last;
  int rc = augur_run_extent(t, &first, &last, err);
  if (rc < 0) return rc;
  if ((rc = ready_time(t, s, &d->t_ready, err)) < 0) return rc;
  /* bins cover the analysed window, which opens when the last rank leaves
   * MPI_Init (t_begin of the diagnosis) */
  d->t0 = d->t_ready > first ? d->t_ready : first;
  d->t1 = last > d->t0 ? last : d->t0 + 1;
  d->bin_ns = (d->t1 - d->t0 + d->nbins - 1) / d->nbins;
  if (!d->bin_ns) d->bin_ns = 1;
  d->ranks = aug_huge_zalloc((size_t)d->nranks * sizeof *d->ranks); /* line-aligned */
  d->busy = calloc(d->nbins, sizeof *d->busy);
  if (!d->ranks || !d->busy || dx_groups_init(&d->groups, d->nranks, d->nbins))
    return augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory for %u ranks", d->nranks);
  for (uint32_t i = 0; i < d->nranks; i++) {
    d->ranks[i].peer = DX_NONE_U32;
    d->ranks[i].seg.top_group = -1;
  }
  d->cpw = 2 * (augur_trace_ncallsites(t) + 1);
  if ((uint64_t)d->cpw * d->nranks <= DX_CP_MAX_COUNTERS) {
    d->cp = calloc((size_t)d->cpw * d->nranks, sizeof *d->cp);
    if (!d->cp && d->nranks) return augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
  }
  d->matcher = augur_matcher_new(t, dx_on_message, dx_on_coll, d);
  d->isends = dx_isends_new();
  if (!d->matcher || !d->isends) return augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
  return 0;
}

static void teardown(dx *d) {
  if (d->ranks)
    for (uint32_t i = 0; i < d->nranks; i++)
      free(d->ranks[i].snaps);
  free(d->ranks);
  free(d->busy);
  free(d->cp);
  dx_groups_free(&d->groups);
  if (d->matcher) augur_matcher_free(d->matcher);
  dx_isends_free(d->isends);
  dx_rma_free(d);
  dx_io_free(d);
}

/* A damaged rank file stops the index before the damage; diagnosing what
 * is left would blame the ranks whose events are missing. */
static int check_damage(augur_trace *t, augur_error *err) {
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const char *msg = NULL;
    if (augur_trace_damage(t, r, &msg) && msg)
      return augur_fail(err, AUGUR_E_FORMAT, "damaged trace: %s", msg);
  }
  return 0;
}

int augur_diagnose(augur_trace *t, const augur_dx_options *opt_in, augur_diagnosis **out,
                   augur_error *err) {
  augur_dx_options opt;
  memset(&opt, 0, sizeof opt);
  if (opt_in) opt = *opt_in;
  if (!(opt.min_share >= 0 && opt.min_share < 1))
    return augur_fail(err, AUGUR_E_ARG, "diagnose: minimum share %g is not in [0, 1)",
                      opt.min_share);
  if (!(opt.io_bandwidth >= 0 && opt.io_bandwidth <= 1e15))
    return augur_fail(err, AUGUR_E_ARG,
                      "diagnose: file bandwidth %g B/s per rank is not in (0, 1e15] (0: default)",
                      opt.io_bandwidth);
  *out = NULL;
  int rc = check_damage(t, err);
  if (rc < 0) return rc;
  dx d;
  memset(&d, 0, sizeof d);
  augur_stream *s = NULL;
  rc = opt.open_stream ? opt.open_stream(opt.open_stream_arg, t, &s, err)
                       : augur_stream_merged(t, &s, err);
  if (rc == 0) rc = setup(&d, t, opt.open_stream ? NULL : s, &opt, err);
  uint64_t events = 0, total = augur_trace_total_events(t);
  augur_event ev, call; /* call: the latest parent event (sub-records follow theirs) */
  memset(&call, 0, sizeof call);
  while (rc == 0 && (rc = augur_stream_next(s, &ev, err)) == 1) {
    rc = 0;
    events++;
    if (opt.progress && (events & ((1u << 16) - 1)) == 0)
      opt.progress(opt.progress_arg, events, total);
    if (ev.rank >= d.nranks) continue;
    if (d.nranks >= DX_PREFETCH_RANKS) {
      uint32_t next = augur_stream_next_rank(s);
      if (next < d.nranks) { /* the lines before() and after() touch (dx_rank) */
        AUG_PREFETCH(&d.ranks[next]);
        AUG_PREFETCH(&d.ranks[next].seg);
      }
    }
    int sub = augur_event_is_sub(ev.type);
    if (!sub && augur_event_is_rma(ev.type) && dx_rma_event(&d, &ev)) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
      break;
    }
    if (!sub && before(&d, &ev)) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
      break;
    }
    rc = augur_match_feed(d.matcher, &ev, err);
    if (rc < 0) break;
    if (!sub) {
      after(&d, &ev);
      if ((rc = dx_io_pair(&d, &ev)) < 0) break;
      call = ev;
    } else if (ev.type == AUGUR_EV_COMPLETION && dx_isend_done(&d, &ev, &call)) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
      break;
    }
  }
  if (s) augur_stream_close(s);
  if (rc == 0) rc = dx_omp(&d, err);
  if (rc == 0 && dx_rma(&d)) rc = augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
  augur_diagnosis *res = NULL;
  if (rc == 0) {
    res = calloc(1, sizeof *res);
    if (!res) rc = augur_fail(err, AUGUR_E_NOMEM, "diagnose: out of memory");
  }
  if (rc == 0) {
    res->events = events;
    /* work counters: run-delay (waiting for a CPU) tells nothing about work */
    for (uint32_t i = 0; i < augur_trace_ncounters(t); i++) {
      const augur_counter_def *c = augur_trace_counter(t, i);
      if (c && c->source != AUGUR_CTR_OS) res->has_counters = 1;
    }
    rc = dx_finish(&d, &opt, res);
  }
  teardown(&d);
  if (rc < 0) {
    augur_diagnosis_free(res);
    return rc;
  }
  *out = res;
  return AUGUR_OK;
}
