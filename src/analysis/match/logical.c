/* The PAS2P logical trace: Lamport logical time over matched events.
 *
 * Pass 1 reads the merged stream once. Every MPI call (parent record) of a
 * rank becomes one augur_lt_event; sub-records only add their bytes to their
 * parent. The shared matcher reports messages and collective instances; we
 * turn them into dependencies: per receiving rank an edge "my call i waits
 * for call j of rank s", per collective instance a member count.
 *
 * Pass 2 assigns ticks without reading the trace again. Each rank has a
 * cursor; a call can take its tick once every send it depends on has one
 * (tick = max(next tick of its rank, send tick + 1); an MPI_Sendrecv's send
 * tick is the one it has before its receives, the previous call's + 1, and a
 * Sendrecv receiving from one may take that tick itself: an exchange). A collective call waits
 * until every member reached the same instance; all members then take the
 * largest of their next ticks. Ranks are swept in order until nothing moves.
 * If calls remain, the trace has a dependency cycle (clock damage or a
 * matching the program did not do): the earliest blocked call drops what it
 * waits for, is counted in `forced` and flagged, and the sweep goes on. */
#include <stdlib.h>
#include <string.h>

#include "augur/match.h"
#include "augur/phases.h"
#include "hugealloc.h"
#include "prefetch.h"

typedef struct edge {
  uint32_t recv_idx; /* call of the receiving rank */
  uint32_t sender;
  uint32_t send_idx;
} edge;

typedef struct coll_inst {
  uint32_t nmembers, arrived;
  uint64_t tick;    /* max next tick of the members arrived so far */
  uint32_t waiting; /* head of the list of ranks waiting here (rank + 1) */
  uint32_t done;
} coll_inst;

typedef struct rank_state {
  uint64_t cap;
  edge *edges;
  uint64_t nedges, edges_cap;
  int edges_sorted;
  uint64_t edges_first; /* size of the first edge array: a receive every fourth record of
                           the block index (at most 1 M), so that it seldom has to grow */
  int edges_carved;     /* edges is a slice of the builder's edge arena */
  /* pass 2 */
  uint64_t cur;       /* first call without a tick */
  uint64_t next_tick; /* tick the next call takes at least */
  uint64_t ecur;      /* first edge not yet used */
  uint32_t at_coll;   /* instance + 1 the rank is waiting at */
  uint32_t next_wait; /* next rank (+1) in that instance's waiting list */
} rank_state;

/* The logical trace with what only this file knows: the ranks' arrays are
 * carved from one arena, so a trace of many small ranks gets huge pages too
 * (one 4 KiB page fault per 100 calls costs more than the analysis of
 * them). A rank that outgrows its share moves to its own allocation. */
typedef struct owned_logical {
  augur_logical pub; /* first: augur_logical_free gets &pub */
  void *arena;       /* the ranks' ev and work arrays, or NULL */
  uint8_t *own;      /* per rank: 1 if its arrays are its own allocations */
} owned_logical;

typedef struct builder {
  augur_logical *lg;
  rank_state *rs;
  coll_inst *inst;
  uint64_t ninst, inst_cap;
  augur_error *err;
  void *edge_arena;      /* first edge arrays of ranks whose own would be below a huge page */
  uint64_t last_comm_id; /* one-entry cache of comm_index: most calls repeat the last comm */
  uint8_t last_comm;
  /* Each communicator's first use: the least (t_start, rank, call index)
   * of the calls on it, whatever order the stream gives them in
   * (order_comms). */
  struct first_use {
    uint64_t t, call;
    uint32_t rank;
  } first[AUGUR_LT_MAX_COMMS];
} builder;

/* A large array that fills from the front: on huge pages (hugealloc.h),
 * since first touches (page faults) dominate the build otherwise. Pages
 * never touched stay free. Released with free(). */
static void *big_alloc(size_t size) {
  return size < AUG_HUGE_PAGE ? malloc(size) : aug_huge_alloc(size);
}

/* Room a rank's arrays of SIZE bytes take in the arena: shares of a huge
 * page or more are whole huge pages (a share that started inside a huge
 * page would fault in one more of them per rank), smaller ones start on a
 * cache line. */
static size_t share_of(size_t size) {
  size_t align = size >= AUG_HUGE_PAGE ? AUG_HUGE_PAGE : 64;
  return (size + align - 1) & ~(align - 1);
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t size) {
  if (need <= *cap) return 0;
  uint64_t n = *cap ? *cap : 64;
  while (n < need)
    n *= 2;
  size_t bytes = (size_t)(n * size);
  void *q;
  if (bytes < AUG_HUGE_PAGE) {
    q = realloc(*p, bytes);
  } else { /* large: huge pages (fewer faults), at the cost of one copy */
    q = big_alloc(bytes);
    if (q && *cap) memcpy(q, *p, (size_t)(*cap * size));
    if (q) free(*p);
  }
  if (!q) return -1;
  *p = q;
  *cap = n;
  return 0;
}

/* Room for one more edge of RS. A slice of the edge arena moves out to an
 * array of its own (the arena's neighbouring slices are other ranks'). */
static int grow_edges(rank_state *rs) {
  uint64_t need = rs->edges_cap ? rs->nedges + 1 : rs->edges_first;
  if (!rs->edges_carved) return grow((void **)&rs->edges, &rs->edges_cap, need, sizeof(edge));
  edge *slice = rs->edges;
  rs->edges = NULL;
  rs->edges_cap = 0;
  rs->edges_carved = 0;
  if (grow((void **)&rs->edges, &rs->edges_cap, need, sizeof(edge))) return -1;
  memcpy(rs->edges, slice, (size_t)rs->nedges * sizeof(edge));
  return 0;
}

static int on_message(void *ctx, const augur_message *m) {
  builder *b = ctx;
  augur_logical *lg = b->lg;
  uint64_t si = m->send.call, ri = m->recv.call; /* read_pass tags the calls it keeps */
  if (m->sender >= lg->nranks || m->receiver >= lg->nranks || si >= lg->rank[m->sender].n ||
      ri >= lg->rank[m->receiver].n)
    return AUGUR_OK; /* an end of a call not kept (a poll that found nothing) */
  rank_state *rs = &b->rs[m->receiver];
  if (rs->nedges == rs->edges_cap && grow_edges(rs))
    return augur_fail(b->err, AUGUR_E_NOMEM, "out of memory for message dependencies");
  /* Edges in order of the receiving call: with the stream's slack, a message
   * can be matched after later ones of the same receiver. A short way back
   * is an insertion; a longer one leaves the sort to pass 2. */
  edge e = {(uint32_t)ri, m->sender, (uint32_t)si}, *es = rs->edges;
  uint64_t i = rs->nedges++;
  while (i > 0 && rs->nedges - i <= 64 && es[i - 1].recv_idx > e.recv_idx) {
    es[i] = es[i - 1];
    i--;
  }
  if (i > 0 && es[i - 1].recv_idx > e.recv_idx) rs->edges_sorted = 0;
  es[i] = e;
  lg->rank[m->receiver].ev[ri].flags |= AUGUR_LT_MESSAGE;
  lg->messages++;
  return AUGUR_OK;
}

static int on_coll(void *ctx, const augur_coll_instance *c) {
  builder *b = ctx;
  augur_logical *lg = b->lg;
  if (grow((void **)&b->inst, &b->inst_cap, b->ninst + 1, sizeof(coll_inst)))
    return augur_fail(b->err, AUGUR_E_NOMEM, "out of memory for collective instances");
  coll_inst *in = &b->inst[b->ninst];
  memset(in, 0, sizeof *in);
  for (uint32_t k = 0; k < c->nmembers; k++) {
    const augur_coll_member *mb = &c->members[k];
    if (mb->rank >= lg->nranks || mb->call >= lg->rank[mb->rank].n) continue;
    augur_lt_event *e = &lg->rank[mb->rank].ev[mb->call];
    if (e->lt) { /* two instances on one call: keep the first (which is the stream's order) */
      lg->order_hazards++;
      continue;
    }
    e->lt = (uint32_t)(b->ninst + 1); /* the tick pass replaces it */
    e->flags |= AUGUR_LT_COLL;
    in->nmembers++;
  }
  if (in->nmembers) {
    b->ninst++;
    lg->collectives++;
  }
  return AUGUR_OK;
}

/* 0 for no bytes, else 1 + floor(log2(bytes)): the bit length, by halving. */
static inline uint8_t size_class(uint64_t b) {
  uint8_t c = 0;
  if (b >> 32) c += 32, b >>= 32;
  if (b >> 16) c += 16, b >>= 16;
  if (b >> 8) c += 8, b >>= 8;
  if (b >> 4) c += 4, b >>= 4;
  if (b >> 2) c += 2, b >>= 2;
  if (b >> 1) c += 1, b >>= 1;
  return (uint8_t)(c + b);
}

/* Counter to use as work: instructions first (what PAS2P compares), then
 * CPU time of the burst (task-clock: immune to preemption, unlike wall
 * time), then any other counter but the kernel's accounting (run-delay is
 * time waiting for a CPU, not work). */
static void pick_counter(augur_trace *t, augur_logical *lg) {
  uint32_t n = augur_trace_ncounters(t);
  int best = -1, best_score = 0;
  for (uint32_t i = 0; i < n; i++) {
    const augur_counter_def *c = augur_trace_counter(t, i);
    if (!c || !c->name || c->index >= AUGUR_MAX_COUNTERS || c->source == AUGUR_CTR_OS) continue;
    int score = 1;
    if (strstr(c->name, "INS") || strstr(c->name, "instructions"))
      score = 3;
    else if (strstr(c->name, "task-clock") || strstr(c->name, "cpu-clock"))
      score = 2;
    if (score > best_score) {
      best_score = score;
      best = (int)i;
    }
  }
  lg->work_counter = -1;
  lg->work_name[0] = 0;
  if (best >= 0) {
    const augur_counter_def *c = augur_trace_counter(t, (uint32_t)best);
    lg->work_counter = (int)c->index;
    snprintf(lg->work_name, sizeof lg->work_name, "%s", c->name);
  }
}

/* Index (1..) of communicator ID in lg->comm, added on first use; 0 for no
 * communicator and past AUGUR_LT_MAX_COMMS (an index must fit the event's
 * byte; irregular mode only needs the communicators used all along). */
static uint8_t comm_index(builder *b, uint64_t id) {
  if (id == b->last_comm_id) return b->last_comm;
  augur_logical *lg = b->lg;
  uint8_t k = 0;
  if (id != AUGUR_COMM_NONE) {
    for (uint32_t i = 0; i < lg->ncomms && !k; i++)
      if (lg->comm[i].id == id) k = (uint8_t)(i + 1);
    if (!k && lg->ncomms < AUGUR_LT_MAX_COMMS) {
      lg->comm[lg->ncomms].id = id;
      b->first[lg->ncomms].t = UINT64_MAX;
      k = (uint8_t)++lg->ncomms;
    }
    if (!k) lg->order_hazards++; /* which ones got an index is the stream's order */
  }
  b->last_comm_id = id;
  b->last_comm = k;
  return k;
}

/* Size and creation depth of every communicator used, from the trace's
 * definitions (MPI_COMM_WORLD and SELF have none in some traces). */
static void describe_comms(augur_trace *t, augur_logical *lg) {
  for (uint32_t i = 0; i < lg->ncomms; i++) {
    augur_lt_comm *c = &lg->comm[i];
    const augur_comm_def *d = augur_trace_comm(t, c->id);
    c->kind = d ? d->kind : c->id == AUGUR_COMM_SELF ? AUGUR_COMM_KIND_SELF : AUGUR_COMM_KIND_WORLD;
    c->size = d ? d->size : c->id == AUGUR_COMM_WORLD ? lg->nranks : c->id == AUGUR_COMM_SELF;
    uint32_t level = 0;
    for (const augur_comm_def *p = d; p && p->id != AUGUR_COMM_WORLD && level < 64; level++) {
      if (p->kind == AUGUR_COMM_KIND_WORLD || !p->parent) break;
      p = augur_trace_comm(t, p->parent);
    }
    int world = c->id == AUGUR_COMM_WORLD || c->kind == AUGUR_COMM_KIND_WORLD;
    c->level = world ? 0 : level ? level : 1;
  }
}

/* Doubles rank R's arrays (moving them out of the arena). -1: out of memory. */
static int grow_rank(builder *b, uint32_t r) {
  owned_logical *o = (owned_logical *)b->lg;
  augur_lt_rank *lr = &b->lg->rank[r];
  rank_state *rs = &b->rs[r];
  uint64_t ncap = rs->cap ? rs->cap * 2 : 1024;
  int with_work = b->lg->work_counter >= 0;
  if (o->own[r]) {
    augur_lt_event *q = realloc(lr->ev, (size_t)ncap * sizeof *q);
    if (q) lr->ev = q;
    uint64_t *w = q && with_work ? realloc(lr->work, (size_t)ncap * sizeof *w) : NULL;
    if (w) lr->work = w;
    if (!q || (with_work && !w)) return -1;
  } else {
    augur_lt_event *q = malloc((size_t)ncap * sizeof *q);
    uint64_t *w = with_work ? malloc((size_t)ncap * sizeof *w) : NULL;
    if (!q || (with_work && !w)) {
      free(q);
      free(w);
      return -1;
    }
    if (lr->n) memcpy(q, lr->ev, (size_t)lr->n * sizeof *q);
    if (with_work && lr->n) memcpy(w, lr->work, (size_t)lr->n * sizeof *w);
    lr->ev = q;
    lr->work = w;
    o->own[r] = 1;
  }
  rs->cap = ncap;
  return 0;
}

static int add_call(builder *b, const augur_event *ev) {
  augur_logical *lg = b->lg;
  augur_lt_rank *r = &lg->rank[ev->rank];
  rank_state *rs = &b->rs[ev->rank];
  if (lg->nevents >= UINT32_MAX) /* ticks and call indexes are 32-bit */
    return augur_fail(b->err, AUGUR_E_ARG, "more than 2^32 calls: too long for augur phases");
  if (r->n == rs->cap && grow_rank(b, ev->rank))
    return augur_fail(b->err, AUGUR_E_NOMEM, "out of memory for the logical trace (%llu calls)",
                      (unsigned long long)lg->nevents);
  /* The rank's previous call has all its sub-records' bytes now (they
   * follow it at once): its size class is final. */
  if (r->n) r->ev[r->n - 1].size_class = size_class(r->ev[r->n - 1].bytes);
  augur_lt_event *e = &r->ev[r->n++];
  memset(e, 0, sizeof *e);
  e->t_start = ev->t_start;
  e->t_end = ev->t_end < ev->t_start ? ev->t_start : ev->t_end;
  e->bytes = ev->bytes + ev->bytes_recv;
  if (r->work) r->work[r->n - 1] = ev->ctr[lg->work_counter];
  e->callsite = (uint32_t)ev->callsite;
  /* A rank offset can be -1..-3 like the AUGUR_PEER_* values: those move to
   * the bottom of the range so a send to the left is never "no peer". */
  e->peer = ev->peer >= 0 ? ev->peer - (int32_t)ev->rank : INT32_MIN - ev->peer;
  e->type = (uint8_t)ev->type;
  e->comm = comm_index(b, ev->comm);
  if (e->comm) {
    struct first_use *f = &b->first[e->comm - 1];
    uint64_t call = r->n - 1;
    if (ev->t_start < f->t ||
        (ev->t_start == f->t && (ev->rank < f->rank || (ev->rank == f->rank && call < f->call))))
      *f = (struct first_use){ev->t_start, call, ev->rank};
  }
  lg->nevents++;
  return AUGUR_OK;
}

static int first_before(const struct first_use *x, const struct first_use *y) {
  if (x->t != y->t) return x->t < y->t;
  if (x->rank != y->rank) return x->rank < y->rank;
  return x->call < y->call;
}

/* The communicators in order of first use (t_start, rank, call), not in
 * the order the stream happened to show them: with its slack, or with the
 * blocks of `phases --parallel`, that order is not the time order, and the
 * logical trace must depend on each rank's order of calls only. The calls'
 * indexes are renumbered when the order changes. */
static void order_comms(builder *b) {
  augur_logical *lg = b->lg;
  uint32_t n = lg->ncomms, at[AUGUR_LT_MAX_COMMS];
  for (uint32_t i = 0; i < n; i++) { /* insertion sort: few communicators */
    uint32_t j = i;
    for (; j > 0 && first_before(&b->first[i], &b->first[at[j - 1]]); j--)
      at[j] = at[j - 1];
    at[j] = i;
  }
  uint8_t map[AUGUR_LT_MAX_COMMS + 1] = {0};
  int moved = 0;
  for (uint32_t j = 0; j < n; j++) {
    map[at[j] + 1] = (uint8_t)(j + 1);
    moved |= at[j] != j;
  }
  if (!moved) return;
  augur_lt_comm old[AUGUR_LT_MAX_COMMS];
  memcpy(old, lg->comm, n * sizeof *old);
  for (uint32_t j = 0; j < n; j++)
    lg->comm[j] = old[at[j]];
  for (uint32_t r = 0; r < lg->nranks; r++)
    for (uint64_t i = 0; i < lg->rank[r].n; i++)
      lg->rank[r].ev[i].comm = map[lg->rank[r].ev[i].comm];
}

/* The matcher and the arrays below need each rank's calls in order, not
 * the ranks interleaved by time: a slack lets a rank hand out its calls in
 * runs (augur_stream_set_slack), and the matcher holds at most what the
 * ranks did within it (AUGUR_LT_SLACK_NS). */
static int read_pass(builder *b, augur_trace *t, const augur_logical_opts *o, augur_error *err) {
  augur_logical *lg = b->lg;
  augur_matcher *m = augur_matcher_new(t, on_message, on_coll, b);
  if (!m) return augur_fail(err, AUGUR_E_NOMEM, "out of memory for the matcher");
  augur_stream *s = NULL;
  int rc = o && o->open_stream ? o->open_stream(o->open_stream_arg, t, &s, err)
                               : augur_stream_merged(t, &s, err);
  if (rc == AUGUR_OK) rc = augur_stream_set_slack(s, AUGUR_LT_SLACK_NS, err);
  if (rc) {
    augur_stream_close(s);
    augur_matcher_free(m);
    return rc;
  }
  augur_event ev;
  int parent_kept = 0; /* whether the last parent of ev.rank was kept */
  uint32_t parent_rank = UINT32_MAX;
  augur_progress_fn progress = o ? o->progress : NULL;
  const uint64_t total = augur_trace_total_events(t);
  while ((rc = augur_stream_next(s, &ev, err)) == 1) {
    uint64_t call = AUGUR_MATCH_NO_CALL; /* the matcher tags ends and members with it */
    if ((++lg->records & 0xffff) == 0 && progress) progress(o->progress_arg, lg->records, total);
    if (ev.rank >= lg->nranks) continue;
    if ((unsigned)ev.type - AUGUR_EV_COMPLETION <= AUGUR_EV_SUB_START - AUGUR_EV_COMPLETION) {
      /* A sub-record: a parent and its sub-records are adjacent in the
       * merged stream. */
      if (parent_kept && parent_rank == ev.rank) {
        augur_lt_event *e = &lg->rank[ev.rank].ev[lg->rank[ev.rank].n - 1];
        e->bytes += ev.bytes + ev.bytes_recv;
      }
    } else if (ev.flags & AUGUR_F_NOTDONE) {
      /* A poll that found nothing: its time is waiting, not a step of the
       * program's logic, and counting it would make phases depend on how
       * often the program happened to poll. */
      lg->skipped++;
      parent_kept = 0;
    } else {
      if ((rc = add_call(b, &ev)) != AUGUR_OK) break;
      parent_kept = 1;
      parent_rank = ev.rank;
      call = lg->rank[ev.rank].n - 1;
    }
    if ((rc = augur_match_feed_call(m, &ev, call, err)) != AUGUR_OK) break;
  }
  augur_stream_close(s);
  if (rc >= 0) {
    augur_match_counts c;
    augur_match_counts_get(m, &c);
    if (c.dropped) lg->order_hazards++; /* which ends were dropped is the stream's order */
    order_comms(b);
  }
  augur_matcher_free(m);
  return rc < 0 ? rc : AUGUR_OK;
}

static int edge_cmp(const void *a, const void *b) {
  const edge *x = a, *y = b;
  if (x->recv_idx != y->recv_idx) return x->recv_idx < y->recv_idx ? -1 : 1;
  return 0;
}

/* Gives the call at the cursor of rank R its tick and moves on. */
static void assign(builder *b, uint32_t r, uint64_t tick) {
  augur_lt_event *e = &b->lg->rank[r].ev[b->rs[r].cur];
  e->lt = (uint32_t)tick;
  b->rs[r].next_tick = tick + 1;
  b->rs[r].cur++;
  if (tick + 1 > b->lg->nticks) b->lg->nticks = tick + 1;
}

/* Advances rank R as far as its dependencies allow. FORCE: drop whatever the
 * first call waits for. Returns the number of calls that got a tick. The
 * rank's cursor lives in locals (stores to the calls would otherwise force
 * reloads of it) and goes back to RS around the collective path, which moves
 * other ranks too. */
static uint64_t advance(builder *b, uint32_t r, int force) {
  augur_logical *lg = b->lg;
  rank_state *rs = &b->rs[r];
  augur_lt_rank *lr = &lg->rank[r];
  augur_lt_event *ev = lr->ev;
  const edge *edges = rs->edges;
  const uint64_t n = lr->n, nedges = rs->nedges;
  uint64_t cur = rs->cur, next_tick = rs->next_tick, ecur = rs->ecur, nticks = lg->nticks;
  uint64_t moved = 0;
  while (cur < n) {
    if (rs->at_coll && !force) break; /* waiting for the other members */
    augur_lt_event *e = &ev[cur];
    uint64_t tick = next_tick;
    /* Messages this call completed: every send needs its tick first. */
    uint64_t k = ecur;
    int blocked = 0;
    while (k < nedges && edges[k].recv_idx < cur)
      k++; /* edges of calls already forced past */
    uint64_t kend = k;
    for (; kend < nedges && edges[kend].recv_idx == cur; kend++) {
      const edge *ed = &edges[kend];
      if (ed->sender == r && ed->send_idx == cur) continue; /* to itself in this call */
      uint64_t sender_cur = ed->sender == r ? cur : b->rs[ed->sender].cur;
      const augur_lt_event *se = &lg->rank[ed->sender].ev[ed->send_idx];
      /* An MPI_Sendrecv sends before it receives: its message leaves at the tick the call
       * has before its own receives count (its rank's next tick then, = the previous call's
       * + 1), and a receiving Sendrecv may take that same tick, as the members of a
       * collective do: an exchange of Sendrecvs is one tick, no cycle (every one of CoMD's
       * was) */
      int exchange = augur_event_is_sendrecv(se->type);
      if (ed->send_idx > sender_cur || (ed->send_idx == sender_cur && !exchange)) {
        blocked = 1;
        continue;
      }
      uint64_t st = exchange
                        ? (ed->send_idx ? lg->rank[ed->sender].ev[ed->send_idx - 1].lt + 1 : 0) +
                              !augur_event_is_sendrecv(e->type)
                        : se->lt + 1;
      if (st > tick) tick = st;
    }
    if (blocked) {
      if (!force) break;
      e->flags |= AUGUR_LT_FORCED;
      lg->forced++;
    }
    ecur = kend;
    uint32_t coll = e->lt; /* instance + 1 until the call has its tick */
    if (coll && !b->inst[coll - 1].done) {
      rs->cur = cur, rs->next_tick = next_tick, rs->ecur = ecur, lg->nticks = nticks;
      coll_inst *in = &b->inst[coll - 1];
      if (rs->at_coll) { /* forced while waiting: complete the instance as it stands */
        in->nmembers = in->arrived;
        lg->forced++;
        e->flags |= AUGUR_LT_FORCED;
      } else {
        in->arrived++;
        if (tick > in->tick) in->tick = tick;
        if (in->arrived < in->nmembers) {
          rs->at_coll = coll;
          rs->next_wait = in->waiting;
          in->waiting = r + 1;
          break;
        }
      }
      /* Last member (or forced): everyone waiting takes the instance's tick. */
      in->done = 1;
      uint64_t it = in->tick > tick ? in->tick : tick;
      for (uint32_t w = in->waiting; w;) {
        uint32_t wr = w - 1;
        w = b->rs[wr].next_wait;
        if (wr == r) continue;
        b->rs[wr].at_coll = 0;
        b->rs[wr].next_wait = 0;
        assign(b, wr, it);
        moved++;
      }
      in->waiting = 0;
      rs->at_coll = 0;
      rs->next_wait = 0;
      assign(b, r, it);
      moved++;
      force = 0;
      cur = rs->cur, next_tick = rs->next_tick, nticks = lg->nticks;
      continue;
    }
    e->lt = (uint32_t)tick;
    next_tick = tick + 1;
    cur++;
    if (tick + 1 > nticks) nticks = tick + 1;
    moved++;
    force = 0;
  }
  rs->cur = cur, rs->next_tick = next_tick, rs->ecur = ecur, lg->nticks = nticks;
  /* The sweep comes back to this rank after every other: time to load
   * where it will go on (with many ranks in step, most of the pass was
   * spent waiting for these lines). */
  if (cur < n) {
    AUG_PREFETCH(&ev[cur]);
    AUG_PREFETCH(&ev[cur] + 2);
    AUG_PREFETCH(&ev[cur] + 4);
    AUG_PREFETCH(&ev[cur] + 6);
  }
  if (ecur < nedges) AUG_PREFETCH(&edges[ecur]);
  return moved;
}

static void tick_pass(builder *b) {
  augur_logical *lg = b->lg;
  for (uint32_t r = 0; r < lg->nranks; r++) {
    rank_state *rs = &b->rs[r];
    if (!rs->edges_sorted) qsort(rs->edges, (size_t)rs->nedges, sizeof(edge), edge_cmp);
  }
  uint64_t left = lg->nevents;
  /* Passes go up the ranks and down in turn: a dependency on a higher rank waits for the
   * next pass, so a chain running down the ranks (the backward sweep of a wavefront, NPB
   * LU) took one pass per rank of its length going up only: 27 iterations on 256 x 256
   * ranks, 50 s, 80 % in advance. The ticks do not depend on the order (a call's is a
   * maximum over its own rank's and its senders'; stuck is a fixpoint). */
  for (int down = 0; left; down = !down) {
    uint64_t moved = 0;
    for (uint32_t i = 0; i < lg->nranks; i++)
      moved += advance(b, down ? lg->nranks - 1 - i : i, 0);
    left -= moved;
    if (moved || !left) continue;
    /* Stuck: unblock the earliest waiting call. */
    uint32_t best = UINT32_MAX;
    for (uint32_t r = 0; r < lg->nranks; r++) {
      if (b->rs[r].cur >= lg->rank[r].n) continue;
      if (best == UINT32_MAX ||
          lg->rank[r].ev[b->rs[r].cur].t_start < lg->rank[best].ev[b->rs[best].cur].t_start)
        best = r;
    }
    left -= advance(b, best, 1);
  }
}

void augur_logical_free(augur_logical *lg) {
  if (!lg) return;
  owned_logical *o = (owned_logical *)lg;
  if (lg->rank && o->own)
    for (uint32_t r = 0; r < lg->nranks; r++)
      if (o->own[r]) free(lg->rank[r].ev), free(lg->rank[r].work);
  free(o->arena);
  free(o->own);
  free(lg->rank);
  free(lg->comm);
  free(lg);
}

int augur_logical_build(augur_trace *t, augur_logical **out, augur_error *err) {
  return augur_logical_build_opts(t, NULL, out, err);
}

int augur_logical_build_opts(augur_trace *t, const augur_logical_opts *opts, augur_logical **out,
                             augur_error *err) {
  *out = NULL;
  uint32_t n = augur_trace_nranks(t);
  /* augur_trace_damage counts damaged ranks; the message is per rank. */
  for (uint32_t r = 0; r < n; r++) {
    const char *msg = NULL;
    if (augur_trace_damage(t, r, &msg) && msg)
      return augur_fail(err, AUGUR_E_FORMAT, "damaged trace: %s", msg);
  }
  owned_logical *o = calloc(1, sizeof *o);
  augur_logical *lg = o ? &o->pub : NULL;
  builder b = {.lg = lg, .err = err, .last_comm_id = AUGUR_COMM_NONE};
  if (lg) {
    lg->nranks = n;
    lg->rank = calloc(n ? n : 1, sizeof *lg->rank);
    lg->comm = calloc(AUGUR_LT_MAX_COMMS, sizeof *lg->comm);
    o->own = calloc(n ? n : 1, 1);
    b.rs = calloc(n ? n : 1, sizeof *b.rs);
  }
  if (!lg || !lg->rank || !lg->comm || !o->own || !b.rs) {
    free(b.rs);
    augur_logical_free(lg);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory for %u ranks", n);
  }
  pick_counter(t, lg);
  /* The block index knows each rank's parent records: an upper bound on its
   * calls, so the arrays never move while they fill (pages that stay
   * untouched cost nothing, and there is no trim at the end). A tight bound
   * matters with many ranks: their shares are packed on huge pages, which
   * are zeroed whole. */
  size_t per_call = sizeof(augur_lt_event) + (lg->work_counter >= 0 ? sizeof(uint64_t) : 0);
  size_t total = 0;
  for (uint32_t r = 0; r < n; r++) {
    b.rs[r].edges_sorted = 1;
    uint64_t records = augur_trace_nevents(t, r), want = augur_trace_nparents(t, r);
    b.rs[r].edges_first = (records < (1u << 22) ? records : 1u << 22) / 4 + 1;
    if (!want || want >= UINT32_MAX || want > (SIZE_MAX / 2 - total) / per_call) {
      o->own[r] = 1; /* empty, or too large for an index: grows on its own */
      continue;
    }
    b.rs[r].cap = want;
    total += share_of((size_t)want * per_call);
  }
  if (total && !(o->arena = big_alloc(total))) {
    free(b.rs);
    augur_logical_free(lg);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory for the logical trace (%zu bytes)", total);
  }
  /* Ranks whose first edge array is below a huge page share one arena of
   * them (with many ranks, 4 KiB faults on each rank's array cost more
   * than the edges' work); larger ones get huge pages of their own. */
  size_t edge_total = 0;
  for (uint32_t r = 0; r < n; r++)
    if (b.rs[r].edges_first * sizeof(edge) < AUG_HUGE_PAGE)
      edge_total += share_of((size_t)b.rs[r].edges_first * sizeof(edge));
  char *edge_at = b.edge_arena = edge_total >= AUG_HUGE_PAGE ? aug_huge_alloc(edge_total) : NULL;
  for (uint32_t r = 0; edge_at && r < n; r++) {
    size_t bytes = (size_t)b.rs[r].edges_first * sizeof(edge);
    if (bytes >= AUG_HUGE_PAGE) continue;
    b.rs[r].edges = (edge *)(void *)edge_at;
    b.rs[r].edges_cap = b.rs[r].edges_first;
    b.rs[r].edges_carved = 1;
    edge_at += share_of(bytes);
  }
  char *at = o->arena;
  for (uint32_t r = 0; r < n; r++) {
    if (o->own[r]) continue;
    size_t want = (size_t)b.rs[r].cap;
    lg->rank[r].ev = (augur_lt_event *)(void *)at;
    if (lg->work_counter >= 0)
      lg->rank[r].work = (uint64_t *)(void *)(at + want * sizeof(augur_lt_event));
    at += share_of(want * per_call);
  }
  int rc = read_pass(&b, t, opts, err);
  if (rc == AUGUR_OK) {
    describe_comms(t, lg);
    tick_pass(&b);
    lg->run_start_ns = UINT64_MAX;
    for (uint32_t r = 0; r < n; r++) {
      augur_lt_rank *lr = &lg->rank[r];
      if (!lr->n) continue;
      lr->ev[lr->n - 1].size_class = size_class(lr->ev[lr->n - 1].bytes); /* see add_call */
      uint64_t s = lr->ev[0].t_start, e = lr->ev[lr->n - 1].t_end;
      lr->span_ns = e > s ? e - s : 0;
      if (s < lg->run_start_ns) lg->run_start_ns = s;
      if (e > lg->run_end_ns) lg->run_end_ns = e;
      /* No shrink to fit: the tail past n was never touched, so it holds no
       * memory, and realloc would copy the whole array. */
    }
    if (lg->run_start_ns == UINT64_MAX) lg->run_start_ns = 0;
  }
  for (uint32_t r = 0; r < n; r++)
    if (!b.rs[r].edges_carved) free(b.rs[r].edges);
  free(b.edge_arena);
  free(b.rs);
  free(b.inst);
  if (rc != AUGUR_OK) {
    augur_logical_free(lg);
    return rc;
  }
  *out = lg;
  return AUGUR_OK;
}
