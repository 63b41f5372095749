/* The report analysis: one pass over each rank stream, aggregates only.
 * Definitions of every figure are in include/augur/report.h. */
#include "augur/report.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "grow.h"
#include "report_io.h"
#include "report_part.h"
#include "report_rma.h"
#include "u64map.h"

static int site_add(site_table *st, unsigned type, uint32_t callsite, uint64_t dur) {
  return aug_report_site_add(st, ((uint64_t)type << 32) | callsite, 1, dur);
}

int aug_report_site_add(site_table *st, uint64_t key, uint64_t count, uint64_t dur) {
  int fresh;
  uint32_t *ix = aug_u64map_slot(&st->index, key, &fresh);
  if (!ix) return -1;
  if (fresh) {
    if (st->used >= UINT32_MAX ||
        aug_grow((void **)&st->slots, &st->cap, st->used + 1, sizeof *st->slots)) {
      return -1;
    }
    *ix = (uint32_t)st->used;
    st->slots[st->used++] = (site_slot){key, 0, 0};
  }
  st->slots[*ix].count += count;
  st->slots[*ix].time_ns += dur;
  return 0;
}

static unsigned bucket_of(uint64_t bytes) {
  unsigned k = 0;
  while (bytes) {
    k++;
    bytes >>= 1;
  }
  return k; /* 0 for 0 bytes, else floor(log2)+1 */
}

/* 0, or -1 when out of memory. */
static int count_message(augur_report *r, site_table *pairs, const augur_event *ev) {
  if (ev->peer < 0 || (uint32_t)ev->peer >= r->nranks || ev->rank >= r->nranks) return 0;
  augur_report_bucket *b = &r->buckets[bucket_of(ev->bytes)];
  b->count++;
  b->bytes += ev->bytes;
  r->messages++;
  r->message_bytes += ev->bytes;
  return aug_report_site_add(pairs, (uint64_t)ev->rank * r->nranks + (uint64_t)ev->peer, 1,
                             ev->bytes);
}

static int is_message(unsigned type) {
  if (type >= AUGUR_EV_SEND_INIT && type <= AUGUR_EV_RSEND_INIT) return 0;
  return augur_event_is_p2p_send(type);
}

/* Bytes a parent call received: the status count where the call completes a
 * receive (MPI_Recv, MPI_Mrecv, the receive of MPI_Sendrecv) and a
 * collective's own figure. Calls that only post a receive (MPI_Irecv,
 * MPI_Imrecv, MPI_Recv_init) or look at one (the probes) received nothing
 * yet: their bytes_recv is the posted buffer size or the probed size, and the
 * completion that follows carries the real count (received_at_completion). */
static uint64_t received_by_call(const augur_event *ev) {
  switch (ev->type) {
  case AUGUR_EV_IRECV:
  case AUGUR_EV_IMRECV:
  case AUGUR_EV_RECV_INIT:
  case AUGUR_EV_PROBE:
  case AUGUR_EV_IPROBE:
  case AUGUR_EV_MPROBE:
  case AUGUR_EV_IMPROBE:
    return 0;
  default:
    return ev->bytes_recv;
  }
}

/* A completed (not cancelled) receive request: its status count, counted for
 * the MPI_Wait/Test call that completed it. */
static uint64_t received_at_completion(const augur_event *ev) {
  if (ev->type != AUGUR_EV_COMPLETION || !(ev->flags & AUGUR_F_RECVREQ) ||
      (ev->flags & AUGUR_F_CANCELLED))
    return 0;
  return ev->bytes_recv;
}

static int is_persistent_send_completion(const augur_event *ev) {
  return ev->type == AUGUR_EV_COMPLETION && (ev->flags & AUGUR_F_SENDREQ) &&
         (ev->flags & AUGUR_F_PERSISTENT) && !(ev->flags & AUGUR_F_CANCELLED);
}

/* Streams one rank. Returns 0, a negative status on a read error (after
 * accounting for everything before it), or AUGUR_E_NOMEM. */
static int scan_rank(augur_trace *t, augur_report *r, uint32_t rank, call_acc *calls,
                     site_table *sites, site_table *pairs, augur_report_progress progress,
                     void *arg, augur_error *err) {
  augur_report_rank *rr = &r->ranks[rank];
  augur_stream *s = NULL;
  int rc = augur_stream_rank(t, rank, &s, err);
  if (rc < 0) return rc;

  int started = 0, finalized = 0;
  uint64_t win_start = 0, win_end = 0, last_end = 0, first = UINT64_MAX;
  call_acc *parent = NULL; /* the counted parent the sub-records belong to */
  augur_event ev;
  while ((rc = augur_stream_next(s, &ev, err)) == 1) {
    rr->events++;
    r->events++;
    if (progress && (r->events & ((1u << 20) - 1)) == 0) progress(arg, rank, r->nranks, r->events);
    if (aug_report_io_event(r, &ev, rank)) {
      augur_stream_close(s);
      return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory (MPI-IO)");
    }
    if (augur_event_is_sub(ev.type)) {
      if (is_persistent_send_completion(&ev) && count_message(r, pairs, &ev) < 0) {
        augur_stream_close(s);
        return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory (communication matrix)");
      }
      if (parent) parent->recv += received_at_completion(&ev);
      continue;
    }
    parent = NULL;
    uint64_t dur = ev.t_end > ev.t_start ? ev.t_end - ev.t_start : 0;
    if (ev.t_start < first) first = ev.t_start;
    if (ev.type == AUGUR_EV_INIT || ev.type == AUGUR_EV_INIT_THREAD) {
      rr->init_ns = dur;
      started = 1;
      win_start = last_end = ev.t_end;
      continue;
    }
    if (finalized) continue; /* nothing after MPI_Finalize belongs to the window */
    if (!started) {          /* no MPI_Init recorded: the window opens at the first call */
      started = 1;
      win_start = last_end = ev.t_start;
    }
    uint64_t gap = ev.t_start > last_end ? ev.t_start - last_end : 0;
    if (ev.type == AUGUR_EV_FINALIZE) {
      rr->compute_ns += gap;
      rr->finalize_ns = dur;
      rr->finalized = finalized = 1;
      win_end = ev.t_start;
      if (ev.t_end > r->t_last) r->t_last = ev.t_end;
      continue;
    }
    rr->compute_ns += gap;
    rr->mpi_ns += dur;
    if (ev.t_end > last_end) last_end = ev.t_end;
    if (ev.type < AUGUR_EV_MAX) {
      call_acc *c = &calls[ev.type];
      c->count++;
      c->time_ns += dur;
      c->sent += ev.bytes;
      c->recv += received_by_call(&ev);
      parent = c;
    }
    if (site_add(sites, ev.type, (uint32_t)ev.callsite, dur) < 0) {
      augur_stream_close(s);
      return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory (call sites)");
    }
    if (is_message(ev.type) && count_message(r, pairs, &ev) < 0) {
      augur_stream_close(s);
      return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory (communication matrix)");
    }
    if (augur_event_is_rma(ev.type) && aug_report_rma_event(r, &ev, dur) < 0) {
      augur_stream_close(s);
      return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory (one-sided)");
    }
  }
  augur_stream_close(s);
  if (!finalized) {
    win_end = last_end;
    if (last_end > r->t_last) r->t_last = last_end;
  }
  if (started && win_end > win_start) rr->window_ns = win_end - win_start;
  if (first != UINT64_MAX && first < r->t_first) r->t_first = first;
  if (progress) progress(arg, rank + 1, r->nranks, r->events);
  return rc < 0 ? rc : 0;
}

static int cmp_site(const void *a, const void *b) {
  const augur_report_site *x = a, *y = b;
  if (x->time_ns != y->time_ns) return x->time_ns > y->time_ns ? -1 : 1;
  if (x->callsite != y->callsite) return x->callsite < y->callsite ? -1 : 1;
  return 0;
}

static int cmp_call(const void *a, const void *b) {
  const augur_report_call *x = a, *y = b;
  if (x->time_ns != y->time_ns) return x->time_ns > y->time_ns ? -1 : 1;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return x->type < y->type ? -1 : (x->type > y->type);
}

/* Turns the accumulators into the sorted call list with their sites. */
static int build_calls(augur_report *r, const call_acc *calls, const site_table *sites) {
  size_t n = 0;
  for (unsigned i = 0; i < AUGUR_EV_MAX; i++)
    if (calls[i].count) n++;
  r->calls = calloc(n ? n : 1, sizeof *r->calls);
  if (!r->calls) return -1;
  int index[AUGUR_EV_MAX];
  for (unsigned i = 0; i < AUGUR_EV_MAX; i++) {
    index[i] = -1;
    if (!calls[i].count) continue;
    augur_report_call *c = &r->calls[r->ncalls];
    index[i] = (int)r->ncalls++;
    c->type = i;
    c->count = calls[i].count;
    c->time_ns = calls[i].time_ns;
    c->bytes_sent = calls[i].sent;
    c->bytes_recv = calls[i].recv;
  }
  /* Two passes over the site table: count, then fill. */
  for (size_t j = 0; j < sites->used; j++) {
    unsigned type = (unsigned)(sites->slots[j].key >> 32);
    if (type < AUGUR_EV_MAX && index[type] >= 0) r->calls[index[type]].nsites++;
  }
  for (size_t i = 0; i < r->ncalls; i++) {
    r->calls[i].sites =
        calloc(r->calls[i].nsites ? r->calls[i].nsites : 1, sizeof(augur_report_site));
    if (!r->calls[i].sites) return -1;
    r->calls[i].nsites = 0;
  }
  for (size_t j = 0; j < sites->used; j++) {
    const site_slot *sl = &sites->slots[j];
    unsigned type = (unsigned)(sl->key >> 32);
    if (type >= AUGUR_EV_MAX || index[type] < 0) continue;
    augur_report_call *c = &r->calls[index[type]];
    augur_report_site *site = &c->sites[c->nsites++];
    site->callsite = (uint32_t)(sl->key & 0xffffffffu);
    site->count = sl->count;
    site->time_ns = sl->time_ns;
  }
  for (size_t i = 0; i < r->ncalls; i++)
    qsort(r->calls[i].sites, r->calls[i].nsites, sizeof(augur_report_site), cmp_site);
  qsort(r->calls, r->ncalls, sizeof *r->calls, cmp_call);
  return 0;
}

static int cmp_key(const void *a, const void *b) {
  uint64_t x = ((const site_slot *)a)->key, y = ((const site_slot *)b)->key;
  return x < y ? -1 : x > y;
}

/* r->pairs from the matrix's cells, by (from, to). 0, or -1 when out of memory. */
static int build_pairs(augur_report *r, site_table *pairs) {
  if (!pairs->used) return 0;
  qsort(pairs->slots, pairs->used, sizeof *pairs->slots, cmp_key);
  if (!(r->pairs = malloc(pairs->used * sizeof *r->pairs))) return -1;
  for (size_t i = 0; i < pairs->used; i++) {
    const site_slot *c = &pairs->slots[i];
    r->pairs[i] = (augur_report_pair){.from = (uint32_t)(c->key / r->nranks),
                                      .to = (uint32_t)(c->key % r->nranks),
                                      .bytes = c->time_ns,
                                      .messages = c->count};
  }
  r->npairs = pairs->used;
  return 0;
}

static void load_balance(augur_report *r) {
  if (!r->nranks) return;
  double sum = 0;
  r->compute_min_ns = UINT64_MAX;
  for (uint32_t i = 0; i < r->nranks; i++) {
    uint64_t c = r->ranks[i].compute_ns;
    sum += (double)c;
    if (c < r->compute_min_ns) {
      r->compute_min_ns = c;
      r->compute_min_rank = i;
    }
    if (c > r->compute_max_ns || i == 0) {
      r->compute_max_ns = c;
      r->compute_max_rank = i;
    }
    r->compute_ns += c;
    r->mpi_ns += r->ranks[i].mpi_ns;
  }
  r->compute_avg_ns = sum / r->nranks;
  r->avg_max_ratio = r->compute_max_ns ? r->compute_avg_ns / (double)r->compute_max_ns : 1.0;
}

int aug_report_part_begin(augur_trace *t, aug_report_part *p, augur_error *err) {
  assert(t && p);
  memset(p, 0, sizeof *p);
  uint32_t n = augur_trace_nranks(t);
  augur_report *r = p->r = calloc(1, sizeof *r);
  p->calls = calloc(AUGUR_EV_MAX, sizeof *p->calls);
  if (!r || !p->calls) goto nomem;
  r->nranks = n;
  r->t_first = UINT64_MAX;
  r->ranks = calloc(n ? n : 1, sizeof *r->ranks);
  if (!r->ranks) goto nomem;
  for (unsigned k = 0; k < AUGUR_REPORT_NBUCKETS; k++) {
    r->buckets[k].lo = k == 0 ? 0 : (uint64_t)1 << (k - 1);
    r->buckets[k].hi = k == 0 ? 0 : k >= 64 ? UINT64_MAX : ((uint64_t)1 << k) - 1;
  }
  for (uint32_t rank = 0; rank < n; rank++)
    r->ranks[rank].rank = rank;
  p->status = AUGUR_OK;
  r->complete = 1;
  return AUGUR_OK;
nomem:
  aug_report_part_free(p);
  return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory");
}

int aug_report_part_scan(augur_trace *t, aug_report_part *p, uint32_t lo, uint32_t hi,
                         augur_report_progress progress, void *arg, augur_error *err) {
  assert(t && p && p->r && (lo == p->hi || p->lo == p->hi) && lo <= hi && hi <= p->r->nranks);
  augur_report *r = p->r;
  if (p->lo == p->hi) p->lo = lo; /* an empty part starts where it is told */
  for (uint32_t rank = lo; rank < hi; rank++) {
    augur_error e = {0};
    int rc = scan_rank(t, r, rank, p->calls, &p->sites, &p->pairs, progress, arg, &e);
    if (rc == AUGUR_E_NOMEM) {
      if (err) *err = e;
      return rc;
    }
    const char *dmg = NULL;
    augur_trace_damage(t, rank, &dmg);
    if (rc == 0 && dmg) { /* the stream ended at the damage without saying so */
      rc = AUGUR_E_FORMAT;
      e.code = rc;
      snprintf(e.msg, sizeof e.msg, "%s", dmg);
    }
    if (rc < 0) {
      /* Keep going: the other ranks are still worth reporting. */
      r->ranks[rank].damaged = 1;
      if (p->status == AUGUR_OK) {
        p->status = rc;
        snprintf(r->error, sizeof r->error, "%s", e.msg);
        p->err = e;
      }
    }
    if (!r->ranks[rank].finalized || r->ranks[rank].damaged) r->complete = 0;
  }
  p->hi = hi;
  return AUGUR_OK;
}

int aug_report_part_finish(aug_report_part *p, augur_report **out, augur_error *err) {
  assert(p && p->r && out);
  augur_report *r = p->r;
  *out = NULL;
  if (r->t_first == UINT64_MAX) r->t_first = 0;
  if (r->t_last < r->t_first) r->t_last = r->t_first;
  r->wall_ns = r->t_last - r->t_first;
  load_balance(r);
  if (build_calls(r, p->calls, &p->sites) < 0 || build_pairs(r, &p->pairs) < 0 ||
      aug_report_io_finish(r) < 0) {
    aug_report_part_free(p);
    return augur_fail(err, AUGUR_E_NOMEM, "report: out of memory");
  }
  int status = p->status;
  if (status != AUGUR_OK && err) *err = p->err;
  p->r = NULL;
  aug_report_part_free(p);
  *out = r;
  return status;
}

void aug_report_part_free(aug_report_part *p) {
  if (!p) return;
  free(p->calls);
  free(p->sites.slots);
  aug_u64map_free(&p->sites.index);
  free(p->pairs.slots);
  aug_u64map_free(&p->pairs.index);
  augur_report_free(p->r);
  memset(p, 0, sizeof *p);
}

int augur_report_compute(augur_trace *t, augur_report **out, augur_report_progress progress,
                         void *progress_arg, augur_error *err) {
  *out = NULL;
  if (!t) return augur_fail(err, AUGUR_E_ARG, "report: no trace");
  aug_report_part p;
  int rc = aug_report_part_begin(t, &p, err);
  if (rc == AUGUR_OK)
    rc = aug_report_part_scan(t, &p, 0, augur_trace_nranks(t), progress, progress_arg, err);
  if (rc != AUGUR_OK) {
    aug_report_part_free(&p);
    return rc;
  }
  return aug_report_part_finish(&p, out, err);
}

void augur_report_free(augur_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->ncalls; i++)
    free(r->calls[i].sites);
  free(r->calls);
  free(r->ranks);
  free(r->pairs);
  aug_report_io_free(r);
  aug_report_rma_free(r->rma);
  free(r);
}
