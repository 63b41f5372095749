/* The report's one-sided part: time, calls and bytes by epoch kind and by
 * rank (definitions in include/augur/report.h, "One-sided communication").
 *
 * The epoch a call belongs to is not in the trace: a rank's synchronisation
 * calls on a window are replayed here, per (rank, window), as the rank saw
 * them. Memory: the windows one rank has open at a time. */
#include <assert.h>
#include <jansson.h>
#include <stdlib.h>

#include "augur/event.h"
#include "grow.h"
#include "report_rma.h"
#include "u64map.h"

typedef struct win_state {
  uint64_t id;
  uint32_t locks;   /* targets locked with Win_lock and not yet unlocked */
  uint8_t lock_all; /* inside Win_lock_all */
  uint8_t access;   /* between Win_start and Win_complete */
  uint8_t fence;    /* after a Win_fence without MPI_MODE_NOSUCCEED */
} win_state;

/* r->rma points at the public part, the first member. */
typedef struct rma_acc {
  augur_report_rma pub;
  uint32_t rank; /* whose windows `win` holds */
  win_state *win;
  size_t nwin, capwin;
  aug_u64map created; /* window ids seen created */
} rma_acc;

const char *augur_rma_epoch_name(unsigned kind) {
  static const char *names[AUGUR_RMA_NEPOCHS] = {"fence",    "pscw",   "lock",
                                                 "lock_all", "window", "none"};
  return kind < AUGUR_RMA_NEPOCHS ? names[kind] : "?";
}

static win_state *win_of(rma_acc *a, uint64_t id) {
  for (size_t i = 0; i < a->nwin; i++)
    if (a->win[i].id == id) return &a->win[i];
  if (aug_grow((void **)&a->win, &a->capwin, a->nwin + 1, sizeof *a->win)) return NULL;
  a->win[a->nwin] = (win_state){.id = id};
  return &a->win[a->nwin++];
}

static int is_data(unsigned t) {
  return t >= AUGUR_EV_PUT && t <= AUGUR_EV_RGET_ACCUMULATE;
}

/* The epoch a data call, flush or Win_sync of this window belongs to. */
static unsigned open_epoch(const win_state *w) {
  if (w->locks) return AUGUR_RMA_EPOCH_LOCK;
  if (w->lock_all) return AUGUR_RMA_EPOCH_LOCK_ALL;
  if (w->access) return AUGUR_RMA_EPOCH_PSCW;
  if (w->fence) return AUGUR_RMA_EPOCH_FENCE;
  return AUGUR_RMA_EPOCH_NONE;
}

/* Applies the call to the window's state; returns its epoch kind. */
static unsigned replay(win_state *w, const augur_event *ev) {
  switch (ev->type) {
  case AUGUR_EV_WIN_FENCE:
    w->fence = !(ev->aux & AUGUR_RMA_MODE_NOSUCCEED);
    return AUGUR_RMA_EPOCH_FENCE;
  case AUGUR_EV_WIN_START:
    w->access = 1;
    return AUGUR_RMA_EPOCH_PSCW;
  case AUGUR_EV_WIN_COMPLETE:
    w->access = 0;
    return AUGUR_RMA_EPOCH_PSCW;
  case AUGUR_EV_WIN_POST:
  case AUGUR_EV_WIN_WAIT:
  case AUGUR_EV_WIN_TEST:
    return AUGUR_RMA_EPOCH_PSCW;
  case AUGUR_EV_WIN_LOCK:
    w->locks++;
    return AUGUR_RMA_EPOCH_LOCK;
  case AUGUR_EV_WIN_UNLOCK:
    if (w->locks) w->locks--;
    return AUGUR_RMA_EPOCH_LOCK;
  case AUGUR_EV_WIN_LOCK_ALL:
    w->lock_all = 1;
    return AUGUR_RMA_EPOCH_LOCK_ALL;
  case AUGUR_EV_WIN_UNLOCK_ALL:
    w->lock_all = 0;
    return AUGUR_RMA_EPOCH_LOCK_ALL;
  case AUGUR_EV_WIN_FREE:
    *w = (win_state){.id = w->id}; /* a later window may reuse nothing of it */
    return AUGUR_RMA_EPOCH_WINDOW;
  case AUGUR_EV_WIN_ATTACH:
  case AUGUR_EV_WIN_DETACH:
    return AUGUR_RMA_EPOCH_WINDOW;
  default: /* data calls, flushes, Win_sync */
    return open_epoch(w);
  }
}

static void add(augur_report_rma_kind *k, const augur_event *ev, uint64_t dur) {
  k->calls++;
  k->time_ns += dur;
  if (is_data(ev->type)) {
    k->ops++;
    k->bytes_put += ev->bytes;
    k->bytes_got += ev->bytes_recv;
  }
}

int aug_report_rma_event(augur_report *r, const augur_event *ev, uint64_t dur) {
  assert(r && ev && augur_event_is_rma(ev->type));
  rma_acc *a = (rma_acc *)r->rma;
  if (!a) {
    a = calloc(1, sizeof *a);
    if (!a) return -1;
    a->pub.ranks = calloc(r->nranks ? r->nranks : 1, sizeof *a->pub.ranks);
    if (!a->pub.ranks) {
      free(a);
      return -1;
    }
    a->rank = ev->rank;
    r->rma = &a->pub;
  }
  if (ev->rank != a->rank) { /* the next rank: its windows start closed */
    a->rank = ev->rank;
    a->nwin = 0;
  }
  unsigned kind;
  if (ev->type >= AUGUR_EV_WIN_CREATE && ev->type <= AUGUR_EV_WIN_CREATE_DYNAMIC) {
    int fresh = 0;
    if (!aug_u64map_slot(&a->created, ev->req, &fresh)) return -1;
    a->pub.windows += (uint64_t)fresh;
    kind = AUGUR_RMA_EPOCH_WINDOW;
  } else {
    win_state *w = win_of(a, ev->comm);
    if (!w) return -1;
    kind = replay(w, ev);
  }
  add(&a->pub.kind[kind], ev, dur);
  add(&a->pub.call[ev->type - AUGUR_EV_WIN_CREATE], ev, dur);
  if (ev->rank < r->nranks) add(&a->pub.ranks[ev->rank], ev, dur);
  a->pub.time_ns += dur;
  return 0;
}

void aug_report_rma_free(augur_report_rma *rma) {
  rma_acc *a = (rma_acc *)rma;
  if (!a) return;
  free(a->pub.ranks);
  free(a->win);
  aug_u64map_free(&a->created);
  free(a);
}

/* ---- text ---- */

#define MAX_RANK_ROWS 16
#define MAX_CALL_ROWS 10

static const augur_report_rma *rma_of(const augur_report *r) {
  return r->rma;
}

static int cmp_kind_time(const void *x, const void *y, void *arg) {
  const augur_report_rma_kind *k = arg;
  unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
  if (k[a].time_ns != k[b].time_ns) return k[a].time_ns > k[b].time_ns ? -1 : 1;
  return (a > b) - (a < b);
}

/* Indices 0..n-1 of K ordered by time, descending, ties by index (insertion
 * sort: stable, and quick enough for the kinds and a few thousand ranks). */
static void order_by_time(unsigned *ix, unsigned n, const augur_report_rma_kind *k) {
  for (unsigned i = 0; i < n; i++)
    ix[i] = i;
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = i; j > 0 && cmp_kind_time(&ix[j - 1], &ix[j], (void *)k) > 0; j--) {
      unsigned t = ix[j];
      ix[j] = ix[j - 1];
      ix[j - 1] = t;
    }
}

static void row(FILE *f, const char *label, const augur_report_rma_kind *k, uint64_t total) {
  char tm[32], put[32], got[32];
  augur_fmt_ns(tm, sizeof tm, k->time_ns);
  augur_fmt_bytes(put, sizeof put, k->bytes_put);
  augur_fmt_bytes(got, sizeof got, k->bytes_got);
  fprintf(f, "  %-10s %10llu %11s %5.1f%% %10llu %11s %11s\n", label, (unsigned long long)k->calls,
          tm, total ? 100.0 * (double)k->time_ns / (double)total : 0.0, (unsigned long long)k->ops,
          put, got);
}

void aug_report_rma_text(FILE *f, const augur_report *r) {
  const augur_report_rma *m = rma_of(r);
  if (!m) return;
  char tm[32];
  augur_fmt_ns(tm, sizeof tm, m->time_ns);
  fprintf(f,
          "\nOne-sided communication: %s in one-sided calls (%.1f%% of MPI time), %llu window%s\n",
          tm, r->mpi_ns ? 100.0 * (double)m->time_ns / (double)r->mpi_ns : 0.0,
          (unsigned long long)m->windows, m->windows == 1 ? "" : "s");
  fprintf(f, "  %-10s %10s %11s %6s %10s %11s %11s\n", "epoch", "calls", "time", "%RMA",
          "data calls", "put", "got");
  unsigned ix[AUGUR_RMA_NEPOCHS];
  order_by_time(ix, AUGUR_RMA_NEPOCHS, m->kind);
  for (unsigned i = 0; i < AUGUR_RMA_NEPOCHS; i++)
    if (m->kind[ix[i]].calls) row(f, augur_rma_epoch_name(ix[i]), &m->kind[ix[i]], m->time_ns);
  if (m->kind[AUGUR_RMA_EPOCH_NONE].ops)
    fprintf(f,
            "  (%llu data calls outside every epoch their rank opened: an epoch augur "
            "does not see, or an erroneous program)\n",
            (unsigned long long)m->kind[AUGUR_RMA_EPOCH_NONE].ops);
  unsigned cix[AUGUR_RMA_NTYPES];
  order_by_time(cix, AUGUR_RMA_NTYPES, m->call);
  fprintf(f, "  %-24s %10s %11s %6s %11s %11s\n", "call", "count", "time", "%RMA", "put", "got");
  unsigned ncalls = 0;
  for (unsigned i = 0; i < AUGUR_RMA_NTYPES; i++)
    ncalls += m->call[i].calls != 0;
  for (unsigned i = 0; i < AUGUR_RMA_NTYPES && i < MAX_CALL_ROWS; i++) {
    const augur_report_rma_kind *k = &m->call[cix[i]];
    if (!k->calls) continue;
    char ct[32], put[32], got[32];
    augur_fmt_ns(ct, sizeof ct, k->time_ns);
    augur_fmt_bytes(put, sizeof put, k->bytes_put);
    augur_fmt_bytes(got, sizeof got, k->bytes_got);
    fprintf(f, "  %-24s %10llu %11s %5.1f%% %11s %11s\n",
            augur_event_name(AUGUR_EV_WIN_CREATE + cix[i]), (unsigned long long)k->calls, ct,
            m->time_ns ? 100.0 * (double)k->time_ns / (double)m->time_ns : 0.0, put, got);
  }
  if (ncalls > MAX_CALL_ROWS)
    fprintf(f, "  (%u more one-sided calls; --json has all)\n", ncalls - MAX_CALL_ROWS);
  fprintf(f, "  %-10s %10s %11s %6s %10s %11s %11s\n", "rank", "calls", "time", "%RMA",
          "data calls", "put", "got");
  unsigned n = r->nranks, shown = n < MAX_RANK_ROWS ? n : MAX_RANK_ROWS;
  unsigned *order = malloc((n ? n : 1) * sizeof *order);
  if (!order) return;
  order_by_time(order, n, m->ranks);
  for (unsigned i = 0; i < shown; i++) {
    char label[16];
    snprintf(label, sizeof label, "%u", order[i]);
    row(f, label, &m->ranks[order[i]], m->time_ns);
  }
  if (n > shown) fprintf(f, "  (%u more ranks, fewer one-sided time; --json has all)\n", n - shown);
  free(order);
}

/* ---- JSON ---- */

static json_t *kind_json(const augur_report_rma_kind *k) {
  json_t *o = json_object();
  json_object_set_new(o, "calls", json_integer((json_int_t)k->calls));
  json_object_set_new(o, "time_ns", json_integer((json_int_t)k->time_ns));
  json_object_set_new(o, "data_calls", json_integer((json_int_t)k->ops));
  json_object_set_new(o, "bytes_put", json_integer((json_int_t)k->bytes_put));
  json_object_set_new(o, "bytes_got", json_integer((json_int_t)k->bytes_got));
  return o;
}

json_t *aug_report_rma_json(const augur_report *r) {
  const augur_report_rma *m = rma_of(r);
  if (!m) return NULL;
  json_t *o = json_object();
  json_object_set_new(o, "time_ns", json_integer((json_int_t)m->time_ns));
  json_object_set_new(o, "windows", json_integer((json_int_t)m->windows));
  json_t *ep = json_object();
  for (unsigned i = 0; i < AUGUR_RMA_NEPOCHS; i++)
    json_object_set_new(ep, augur_rma_epoch_name(i), kind_json(&m->kind[i]));
  json_object_set_new(o, "epochs", ep);
  json_t *calls = json_array();
  for (unsigned i = 0; i < AUGUR_RMA_NTYPES; i++) {
    if (!m->call[i].calls) continue;
    json_t *k = kind_json(&m->call[i]);
    json_object_set_new(k, "call", json_string(augur_event_name(AUGUR_EV_WIN_CREATE + i)));
    json_array_append_new(calls, k);
  }
  json_object_set_new(o, "calls", calls);
  json_t *ranks = json_array();
  for (uint32_t i = 0; i < r->nranks; i++) {
    json_t *k = kind_json(&m->ranks[i]);
    json_object_set_new(k, "rank", json_integer(i));
    json_array_append_new(ranks, k);
  }
  json_object_set_new(o, "ranks", ranks);
  return o;
}
