/* The discrete-event simulator.
 *
 * Each rank runs ahead on its own clock through operations that need no one
 * else (compute, local calls, posting sends and receives) and stops only
 * when it must wait for something not yet known. Everything that involves
 * two ranks is a message slot whose post, arrival and completion times are
 * filled in as they become known; all completion times are maxima over the
 * posts involved, so a rank posting "in the future" of the global clock gets
 * the same answer as if it had waited for it. Data movement goes through
 * the global event queue (a 4-ary heap ordered by time, then insertion), so
 * transfers that share a link (network resources: per-node injection, the
 * shared bus, fat-tree and torus links: topo.c) are simulated in time order
 * as fluid flows that split the link's bandwidth equally. When nothing is
 * shared (s->direct), an arrival's time is known when its transfer starts:
 * it is delivered then (deliver), and the ranks it lets go on are woken
 * through a queue of ranks, ahead of the event queue's clock.
 *
 * Compute is the one exception to running ahead when a node has more ranks
 * than cores (cpu.cores): then how fast a burst goes depends on how many
 * ranks of the node compute at each instant, so each burst starts and ends
 * through the queue, and the node's computing ranks share its cores like
 * flows share a link (processor sharing).
 *
 * With time slices (cpu.quantum, cpu.quota) a rank runs only inside its own
 * windows, fixed in advance: ranks sharing a core take turns of one quantum
 * (MPI ranks poll while they wait, so a waiting rank keeps its turn), and a
 * CPU quota runs all ranks of a node at the start of each period. Being
 * fixed per rank, the windows keep the run-ahead: CPU work stretches over
 * them, and a rank notices what it waited for when its next window opens.
 *
 * Streaming (augur_simulate_trace), the graph is read as the ranks need
 * it: a rank whose next operation is not read or not yet resolved reads
 * more of the trace then and there (have_op), which changes when the reader
 * works, not what the simulator does, so the result is the one of the whole
 * graph. Point-to-point slots are then recycled like collective ones, and
 * nonblocking ends wait for their WAIT in a per-rank request table. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "prefetch.h"
#include "sim_int.h"

#define NONE32 UINT32_MAX

/* ---- Event queue ------------------------------------------------------- */

enum { EV_XFER = 1, EV_ARRIVE = 2, EV_FLOWDONE = 3, EV_CSTART = 4, EV_CDONE = 5 };

/* An entry is 24 bytes and compares as integers: KEY is the time's bits
 * mapped so that unsigned order is the doubles' order (negatives too), SK
 * the push sequence (ties pop first in, first out) times 8 plus the kind.
 * IDX is the event's slot (EV_XFER, EV_ARRIVE), flow or rank; VER the
 * flow's or burst's version, or an arrival's receiver (for sim_loop's
 * prefetch).
 *
 * Entries for the time of the entry popped last ("now": a third of them at
 * 64 ranks) skip the heap: they queue in a ring, in push order, which is
 * their (key, sk) order. A pop takes the smaller of the heap's top and the
 * ring's head, so the order is the heap's alone would be. */
typedef struct hev {
  uint64_t key, sk;
  uint32_t idx, ver;
} hev;

/* Children per node: at thousands of ranks the heap holds an event or two
 * per rank (8,192 at 4,096 ranks), and a 4-ary heap is half as deep as a
 * binary one, with a node's children side by side in memory: fewer cache
 * misses per pop. Any arity pops the same (key, sk) order. */
#define HEAP_D 4

typedef struct heap {
  hev *h;
  size_t n, cap;
  uint64_t seq;
  uint64_t now;          /* key of the entry popped last */
  hev *ring;             /* entries of one key, oldest at head */
  size_t head, rn, rcap; /* rcap: 0 or a power of 2 */
} heap;

static uint64_t time_key(double t) {
  uint64_t b;
  memcpy(&b, &t, sizeof b);
  return b >> 63 ? ~b : b | (UINT64_C(1) << 63);
}

static double key_time(uint64_t k) {
  uint64_t b = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
  double t;
  memcpy(&t, &b, sizeof t);
  return t;
}

/* Without short-circuits: the compiler can select without a branch (the
 * queue is small, and its comparisons are coin tosses to the predictor). */
static int hless(const hev *a, const hev *b) {
  return (a->key < b->key) | ((a->key == b->key) & (a->sk < b->sk));
}

#if AUG_CHECKS
/* The queue holds: heap order (no entry before its parent); the ring
 * (rcap 0 or a power of two) holds entries of one key, in push order; and
 * each entry's kind is an event kind. */
static int heap_check(const heap *q) {
  if (q->n > q->cap || q->rn > q->rcap || (q->rcap && !AUG_POW2(q->rcap))) return 0;
  for (size_t i = 0; i < q->n; i++)
    if ((i > 0 && hless(&q->h[i], &q->h[(i - 1) / HEAP_D])) || !(q->h[i].sk & 7) ||
        (q->h[i].sk & 7) > EV_CDONE)
      return 0;
  for (size_t k = 1; k < q->rn; k++) {
    const hev *a = &q->ring[(q->head + k - 1) & (q->rcap - 1)];
    const hev *b = &q->ring[(q->head + k) & (q->rcap - 1)];
    if (a->key != b->key || !(a->sk < b->sk)) return 0;
  }
  return 1;
}
#endif

static int ring_push(heap *q, hev e) {
  assert(q->rn == 0 || q->ring[q->head].key == e.key);
  if (q->rn == q->rcap) { /* grow, unwrapping */
    size_t cap = q->rcap ? q->rcap * 2 : 64;
    hev *r = malloc(cap * sizeof *r);
    if (!r) return -1;
    for (size_t k = 0; k < q->rn; k++)
      r[k] = q->ring[(q->head + k) & (q->rcap - 1)];
    free(q->ring);
    q->ring = r;
    q->rcap = cap;
    q->head = 0;
  }
  q->ring[(q->head + q->rn++) & (q->rcap - 1)] = e;
  return 0;
}

static int heap_push(heap *q, double t, uint32_t kind, uint32_t idx, uint32_t ver) {
  assert(kind >= EV_XFER && kind <= EV_CDONE);
  hev e = {time_key(t), q->seq++ << 3 | kind, idx, ver};
  if (e.key == q->now && (q->rn == 0 || q->ring[q->head].key == e.key)) return ring_push(q, e);
  if (aug_grow((void **)&q->h, &q->cap, q->n + 1, sizeof *q->h)) return -1;
  size_t i = q->n++;
  while (i > 0) {
    size_t p = (i - 1) / HEAP_D;
    if (!hless(&e, &q->h[p])) break;
    q->h[i] = q->h[p];
    i = p;
  }
  q->h[i] = e;
  /* at pushes 1, 2, 4, 8...: O(n log pushes) in all (at each size that is
   * a power of two it would be O(n) per push while the size goes up and
   * down across it) */
  if (!(q->seq & (q->seq - 1))) AUG_CHECK(heap_check(q));
  return 0;
}

static int heap_empty(const heap *q) {
  return q->n == 0 && q->rn == 0;
}

/* The entry heap_pop would return now (NULL: none). */
static const hev *heap_peek(const heap *q) {
  if (q->rn && (q->n == 0 || hless(&q->ring[q->head], &q->h[0]))) return &q->ring[q->head];
  return q->n ? &q->h[0] : NULL;
}

/* The ring's head or the heap's top; in the heap the smallest child is
 * selected without a branch. */
static hev heap_pop(heap *q) {
  assert(!heap_empty(q));
  if (q->rn && (q->n == 0 || hless(&q->ring[q->head], &q->h[0]))) {
    hev e = q->ring[q->head];
    q->head = (q->head + 1) & (q->rcap - 1);
    q->rn--;
    q->now = e.key;
    return e;
  }
  hev top = q->h[0], last = q->h[--q->n];
  const size_t n = q->n;
  size_t i = 0, c;
  while ((c = HEAP_D * i + 1) < n) {
    size_t best = c, end = c + HEAP_D < n ? c + HEAP_D : n;
    for (size_t k = c + 1; k < end; k++)
      best = hless(&q->h[k], &q->h[best]) ? k : best;
    c = best;
    if (!hless(&q->h[c], &last)) break;
    q->h[i] = q->h[c];
    i = c;
  }
  if (n) q->h[i] = last;
  q->now = top.key;
  return top;
}

/* ---- Message slots ----------------------------------------------------- */

typedef struct mslot {
  double spost, rpost, arrive; /* < 0: not yet */
  double extra;                /* s the receiver's buffer adds to the transfer (recv_extra) */
  uint64_t bytes;
  uint64_t inst; /* collective messages: instance; p2p: UINT64_MAX */
  uint32_t src, dst;
  union {
    uint32_t tag;       /* a collective message's, while in use */
    uint32_t next_free; /* on the free list */
  };
  uint8_t rndv, started, refs;
  /* the arrival wakes no one on this side (SIDE_SEND: the sender, SIDE_RECV:
   * the receiver): it is a request of a WAIT blocked on an earlier one
   * (wait_quiet), which reads it when it gets there */
  uint8_t quiet;
} mslot;

/* One cache line a slot, the array line-aligned: at thousands of ranks each
 * slot touched is a miss (made, posted by each side, completed), and one
 * straddling two lines was two. */
_Static_assert(sizeof(mslot) == 64, "a message slot is one cache line");

/* When the send of M is done (< 0: not yet): eager, when posted; a
 * rendezvous, when the data arrived. */
static inline double slot_sdone(const mslot *m) {
  return m->rndv ? m->arrive : m->spost;
}

/* When the receive of M is done (< 0: not yet): both posted and arrived. */
static inline double slot_rdone(const mslot *m) {
  if (m->arrive < 0 || m->rpost < 0) return -1;
  return m->arrive > m->rpost ? m->arrive : m->rpost;
}

/* The side SEND (1) or receive (0) of M: when it is done. */
static inline double slot_done(const mslot *m, int send) {
  return send ? slot_sdone(m) : slot_rdone(m);
}

enum { SIDE_SEND = 1, SIDE_RECV = 2 };

typedef struct flow {
  uint32_t slot, ver;
  double rem, rate;
  uint32_t nres;
  int active;
  int32_t res[SIM_MAX_ROUTE];
} flow;

/* BLK_CLOSED: in a collective run all at once when its last member enters
 * (closed_enter); nothing but that wakes it. */
enum { BLK_NONE = 0, BLK_SEND, BLK_RECV, BLK_WAIT, BLK_COLL, BLK_COMPUTE, BLK_CLOSED };

/* Streaming: a nonblocking end that has run, until the WAIT that completes
 * it (the operation itself is gone by then). */
typedef struct sreq {
  uint64_t op; /* the rank's operation number */
  uint32_t slot;
  uint8_t send, live;
} sreq;

/* A request of the WAIT a rank is in: its slot, whether it is a send, and
 * (streaming) its entry in the rank's request table (rrun.req). */
typedef struct wreq {
  uint32_t slot, at;
  uint8_t send;
} wreq;

/* Requests of a WAIT kept inside the rank's rrun (a halo's Waitall has 4). */
#define WQ_IN 4

typedef struct rrun {
  /* What a rank's run and wake read (the first four cache lines: at
   * thousands of ranks each line is a miss, and the event loop asks for
   * them ahead, RRUN_HOT) */
  size_t pc, n; /* n: operations of the rank (in memory) */
  int ended;    /* ran its last operation */
  double t;
  int blocked;
  double t_block;
  uint32_t bslot; /* BLK_SEND, BLK_RECV: the slot waited for */
  /* BLK_WAIT: the requests before wait_i are done, the latest at wait_t
   * (a receive: wait_recv); wait_done */
  uint64_t wait_i;
  double wait_t;
  int wait_recv;
  /* the WAIT's requests with a partner, found once when it starts
   * (wait_open): in wq_in if they are WQ_IN or fewer, else in wq */
  uint32_t nwq;
  wreq wq_in[WQ_IN];
  augur_sim_rank acc;
  /* streaming: open requests, sorted by op (dead ones until compacted) */
  sreq *req;
  size_t nreq, req_cap, req_dead;
  /* time slices: the rank runs in [k T + off, k T + off + len); len = 0: always */
  double win_t, win_off, win_len;
  int shared; /* the rank's node has more ranks than cores */
  double t_coll;
  /* the rest: a long WAIT, collectives as messages, processor sharing, shuffled slices */
  wreq *wq;
  size_t wq_cap;
  /* collective in progress */
  uint64_t inst; /* its instance (the operation's a) */
  sim_step *steps;
  size_t nsteps, step, steps_cap;
  uint32_t cur_s, cur_r;
  int posted;
  uint32_t *grp; /* slots of the steps posted together (sim_step.together) */
  size_t ngrp, grp_cap, gend;
  /* compute burst under processor sharing */
  int computing;      /* between its EV_CSTART and EV_CDONE */
  uint32_t cver;      /* version of the pending EV_CDONE */
  double crem, crate; /* seconds of work left (at one full core), current speed */
  double cstart;      /* when the burst started */
  double cfloor;      /* it ends no earlier (its time off the CPU, see run_rank) */
  /* time slices shuffled (sh_n > 1): period k holds the rank's window at place
   * perm_k(sh_i) of sh_n places of sh_step each, perm_k drawn from sh_seed
   * and k, the same for the ranks of one core: with probability sh_p a
   * permutation drawn anew, else the identity */
  uint32_t sh_n, sh_i;
  uint64_t sh_seed;
  double sh_step, sh_p;
  uint64_t sh_k, sh_j; /* cache: the last period asked for, its order's draw */
  int sh_cached;
} rrun;

#define RRUN_HOT offsetof(rrun, wq)

/* Asks for the part of rank R's rrun its run and wake read. */
static void rrun_prefetch(const rrun *rr) {
  const char *p = (const char *)rr;
  for (size_t o = 0; o < RRUN_HOT; o += 64)
    AUG_PREFETCH(p + o);
  AUG_PREFETCH(p + RRUN_HOT - 1); /* the array is not aligned to lines */
}

/* A collective instance run all at once (closed_enter): its members'
 * entry times by comm rank, who entered in which order, and what the first
 * member said it is. */
typedef struct cinst {
  uint64_t inst;
  uint32_t comm, p, arrived;
  unsigned type;
  int32_t root; /* comm rank, or -1 */
  int mixed;    /* a member's type, size or root differs from the first's */
  uint64_t bytes;
  double *t;     /* p entry times */
  uint32_t *who; /* world ranks, in entry order */
  /* On a network where messages take no time (instant_net): the messages it stands for,
   * and every member leaves at the last entry (closed_run); 0 otherwise */
  uint64_t instant_msgs;
} cinst;

/* A step of a collective run all at once: its partners (comm ranks, or
 * -1) and the size of its messages (the same both ways). */
typedef struct cstep {
  int32_t to, from;
  uint32_t tag, bytes;
} cstep;

/* An entry of the collective slot table: the slot (NONE32: empty) and
 * the low 32 bits of its key's hash (ckey). */
typedef struct ctab_ent {
  uint32_t v, h;
} ctab_ent;

typedef struct sim {
  const augur_sim_graph *g;
  sim_src *src; /* streaming: the trace read as the ranks need it (NULL: in memory) */
  int src_rc;   /* < 0: the stream failed (sim_src_error) */
  uint64_t nreq, peak;
  const augur_machine *m;
  rrun *r;
  uint32_t *node;
  mslot *slots;
  size_t nslots, slot_cap;
  uint32_t free_slot;
  /* collective slots waiting for their second end: open addressing over slot indices */
  ctab_ent *ctab;
  size_t ctab_cap, ctab_n;
  heap q;
  flow *flows;
  size_t nflows, flow_cap;
  uint32_t *active; /* indices of active flows */
  size_t nactive, active_cap;
  uint32_t free_flow;
  sim_topo topo;
  uint32_t *res_n; /* active flows per resource */
  /* processor sharing, per node: ranks (CSR), computing ranks, last update */
  uint32_t *node_off, *node_ranks, *cpu_n;
  double *cpu_t;
  double cpu_eff;    /* 1 - background load */
  uint32_t variants; /* replays the prediction is the mean of (quota phases, core deals) */
  double flows_t;    /* when the active flows' remaining bytes were last brought up to date */
  uint64_t ops, messages, events;
  int nomem;
  int direct;  /* arrivals scheduled at the transfer's start (xfer_start) */
  int deliver; /* ... or delivered then (deliver): direct, not AUGUR_SIM_ARRIVALS=queue */
  /* Collectives run all at once (closed_enter): allowed (direct, no time
   * slices); the open instances; ranks to run again (their collective
   * ended), first in first out; scratch of closed_run */
  int closed;
  cinst *ci;
  size_t nci, ci_cap;
  uint32_t *ready;
  size_t rhead, rn, ready_cap;
  /* Direct: ranks to wake (an arrival known at its transfer's start
   * completed one of their ends, deliver), first in first out, each once
   * (waking[r]); woken before the ready ranks run */
  uint32_t *wakeq;
  size_t whead, wn;
  uint8_t *waking;
  uint32_t *ident; /* 0..nranks-1: a communicator's steps in comm ranks */
  sim_step *ctmp;  /* one member's steps */
  size_t ctmp_cap;
  struct cstep *cst; /* all members' steps, compact */
  size_t cst_cap;
  uint32_t *coff, *cidx, *ccur;
  double *cpost;
  size_t cp_cap;
} sim;

static int slot_rndv(const sim *s, uint64_t bytes, int sync) {
  return sync || bytes > s->m->eager_limit;
}

/* What the receiver's buffer adds to a message (docs/simulate.md "First
 * receive into a buffer"): the model's cost per MiB of a fresh buffer, and
 * of first touching its pages. */
static double recv_extra(const sim *s, uint64_t bytes, unsigned flags) {
  double mib = (double)bytes / (1024.0 * 1024.0), x = 0;
  if (flags & AUGUR_SIM_MSG_FRESH) x += mib * s->m->fresh_buffer;
  if (flags & AUGUR_SIM_MSG_UNTOUCHED) x += mib * s->m->first_touch;
  return x;
}

static int same_node(const sim *s, uint32_t a, uint32_t b) {
  return s->node[a] == s->node[b];
}

static double lat(const sim *s, uint32_t a, uint32_t b) {
  return same_node(s, a, b) ? s->m->shm_latency
                            : sim_topo_latency(&s->topo, s->node[a], s->node[b]);
}

static void schedule(sim *s, double t, uint32_t kind, uint32_t idx, uint32_t ver) {
  if (heap_push(&s->q, t, kind, idx, ver)) s->nomem = 1;
}

/* ---- Collective slot table ---------------------------------------------- */

static size_t ckey(uint64_t inst, uint32_t src, uint32_t dst, uint32_t tag) {
  uint64_t h = inst * 0x9E3779B97F4A7C15ull ^ ((uint64_t)src << 32 | dst) * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)tag * 0x165667B19E3779F9ull;
  h ^= h >> 31;
  return (size_t)h;
}

static uint32_t new_slot(sim *s) {
  uint32_t i;
  if (s->free_slot != NONE32) {
    assert(s->free_slot < s->nslots);
    i = s->free_slot;
    s->free_slot = s->slots[i].next_free;
  } else {
    if (aug_grow_aligned((void **)&s->slots, &s->slot_cap, s->nslots + 1, sizeof *s->slots, 64)) {
      s->nomem = 1;
      return NONE32;
    }
    i = (uint32_t)s->nslots++;
  }
  mslot *m = &s->slots[i];
  memset(m, 0, sizeof *m);
  m->spost = m->rpost = m->arrive = -1;
  m->next_free = NONE32;
  return i;
}

/* A fresh slot for a message SRC -> DST that two ends will release. */
static uint32_t msg_slot(sim *s, uint64_t inst, uint32_t src, uint32_t dst, uint64_t bytes,
                         int sync) {
  uint32_t v = new_slot(s);
  if (v == NONE32) return v;
  mslot *m = &s->slots[v];
  m->inst = inst;
  m->src = src;
  m->dst = dst;
  m->bytes = bytes;
  m->rndv = (uint8_t)slot_rndv(s, bytes, sync);
  m->refs = 2;
  s->messages++;
  return v;
}

/* The table's entries keep their key's hash: a probe past another key,
 * and the backward shift of a deletion, read no slot (each a cache miss
 * at thousands of ranks); only the slot whose hash matches is read. */
static int ctab_grow(sim *s) {
  size_t ncap = s->ctab_cap ? s->ctab_cap * 2 : 256;
  ctab_ent *nt = malloc(ncap * sizeof *nt);
  if (!nt) return -1;
  for (size_t i = 0; i < ncap; i++)
    nt[i].v = NONE32;
  for (size_t i = 0; i < s->ctab_cap; i++) {
    ctab_ent e = s->ctab[i];
    if (e.v == NONE32) continue;
    size_t j = e.h & (ncap - 1);
    while (nt[j].v != NONE32)
      j = (j + 1) & (ncap - 1);
    nt[j] = e;
  }
  free(s->ctab);
  s->ctab = nt;
  s->ctab_cap = ncap;
  return 0;
}

static void ctab_del(sim *s, size_t i) {
  assert(i < s->ctab_cap && s->ctab[i].v != NONE32 && s->ctab_n > 0);
  size_t mask = s->ctab_cap - 1, j = i;
  s->ctab[i].v = NONE32;
  for (;;) {
    j = (j + 1) & mask;
    if (s->ctab[j].v == NONE32) break;
    size_t h = s->ctab[j].h & mask;
    if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
      s->ctab[i] = s->ctab[j];
      s->ctab[j].v = NONE32;
      i = j;
    }
  }
  s->ctab_n--;
}

/* The slot of collective message (INST, SRC -> DST, TAG): the second end to
 * ask takes it out of the table. */
static uint32_t coll_slot(sim *s, uint64_t inst, uint32_t src, uint32_t dst, uint32_t tag,
                          uint64_t bytes) {
  assert(s->ctab_cap ? AUG_POW2(s->ctab_cap) && s->ctab_n * 2 <= s->ctab_cap : !s->ctab_n);
  const uint32_t h = (uint32_t)ckey(inst, src, dst, tag);
  if (s->ctab_cap) {
    size_t mask = s->ctab_cap - 1;
    for (size_t j = h & mask; s->ctab[j].v != NONE32; j = (j + 1) & mask) {
      if (s->ctab[j].h != h) continue;
      uint32_t v = s->ctab[j].v;
      const mslot *m = &s->slots[v];
      if (m->inst == inst && m->src == src && m->dst == dst && m->tag == tag) {
        ctab_del(s, j);
        return v;
      }
    }
  }
  if ((s->ctab_n + 1) * 2 > s->ctab_cap && ctab_grow(s)) {
    s->nomem = 1;
    return NONE32;
  }
  uint32_t v = msg_slot(s, inst, src, dst, bytes, 0);
  if (v == NONE32) return v;
  s->slots[v].tag = tag;
  size_t mask = s->ctab_cap - 1, j = h & mask;
  while (s->ctab[j].v != NONE32)
    j = (j + 1) & mask;
  s->ctab[j] = (ctab_ent){v, h};
  s->ctab_n++;
  return v;
}

/* A slot's end is done with it; the last one frees it. Point-to-point
 * slots of a graph in memory (refs 0) are never reused. */
static void release(sim *s, uint32_t v) {
  mslot *m = &s->slots[v];
  if (!m->refs || --m->refs) return;
  m->next_free = s->free_slot;
  s->free_slot = v;
}

/* ---- Posting ------------------------------------------------------------ */

/* When a message of BYTES from SRC to DST (its receiver's buffer adding
 * EXTRA), started at NOW, arrives (*AT), if no flow is needed for it: 1; 0
 * if one is. */
static int arrival(const sim *s, uint32_t src, uint32_t dst, uint64_t bytes, double extra,
                   double now, double *at) {
  if (same_node(s, src, dst))
    *at = now + s->m->shm_latency + augur_machine_shm_copy(s->m, bytes) + extra;
  else if (bytes == 0)
    *at = now + lat(s, src, dst);
  else if (!sim_topo_shared(&s->topo)) /* nothing shared on the way */
    *at = now + (double)bytes / s->m->bandwidth + lat(s, src, dst) + extra;
  else
    return 0;
  return 1;
}

/* The same for the message of slot M. */
static int xfer_arrival(const sim *s, const mslot *m, double now, double *at) {
  return arrival(s, m->src, m->dst, m->bytes, m->extra, now, at);
}

/* Direct: rank R is woken (sim_loop) once what it may wait for is done. */
static void wake_push(sim *s, uint32_t r) {
  if (s->waking[r]) return;
  s->waking[r] = 1;
  s->wakeq[(s->whead + s->wn++) % s->g->nranks] = r;
}

/* Slot M arrives at AT: what that completes (a rendezvous send, a posted
 * receive). Returns the sides (SIDE_SEND, SIDE_RECV) whose rank it wakes:
 * those completed, less the ones marked quiet (wait_quiet). */
static unsigned arrived(mslot *m, double at) {
  unsigned w = 0;
  m->arrive = at;
  if (m->rndv) w |= SIDE_SEND;
  if (m->rpost >= 0) w |= SIDE_RECV;
  return w & ~(unsigned)m->quiet;
}

/* Direct: slot V arrives at AT, known now (at its transfer's start). What
 * its arrival completes is set at once and the ends it completes are woken
 * through the wake queue, as arrive() does at AT (the same times: every
 * completion is a maximum of known times, and with nothing shared nothing
 * depends on the order ranks run in). A rank waiting for it goes on
 * now, its state still in the cache, not after every rank ran up to AT;
 * and the queue holds no arrivals. */
static void deliver(sim *s, uint32_t v, double at) {
  mslot *m = &s->slots[v];
  const unsigned w = arrived(m, at);
  if (w & SIDE_SEND) wake_push(s, m->src);
  if (w & SIDE_RECV) wake_push(s, m->dst);
}

/* Slot V's transfer starts at T. Its EV_XFER would only schedule the
 * arrival (no flow); when nothing in the run depends on the order of
 * events (s->direct: no flows, no processor sharing), the arrival is
 * delivered at once (deliver), with the slot in the cache, instead of
 * two pops (and cache misses) later. Both still count as events. */
static void xfer_start(sim *s, uint32_t v, double t) {
  double at;
  if (s->deliver && xfer_arrival(s, &s->slots[v], t, &at)) {
    s->events += 2;
    deliver(s, v, at);
  } else if (s->direct && xfer_arrival(s, &s->slots[v], t, &at)) {
    s->events++;
    schedule(s, at, EV_ARRIVE, v, s->slots[v].dst);
  } else {
    schedule(s, t, EV_XFER, v, 0);
  }
}

static double own_next(rrun *rr, double t);

/* The handshake reaches the receiver one latency after both ends are
 * posted; the receiver answers it (and pulls the data, UCX's rendezvous)
 * when it runs: under time slices, at its next turn (docs/simulate.md
 * "Rendezvous under time slices"). */
static void start_rndv(sim *s, uint32_t v) {
  mslot *m = &s->slots[v];
  if (m->started) return;
  m->started = 1;
  double t = (m->spost > m->rpost ? m->spost : m->rpost) + lat(s, m->src, m->dst);
  xfer_start(s, v, own_next(&s->r[m->dst], t));
}

static void post_send(sim *s, uint32_t v, double t) {
  mslot *m = &s->slots[v];
  m->spost = t;
  if (!m->rndv) {
    m->started = 1;
    xfer_start(s, v, t);
  } else if (m->rpost >= 0) {
    start_rndv(s, v);
  }
}

static void post_recv(sim *s, uint32_t v, double t) {
  mslot *m = &s->slots[v];
  m->rpost = t;
  if (m->arrive < 0 && m->rndv && m->spost >= 0) start_rndv(s, v);
}

/* ---- Network flows ------------------------------------------------------ */

static void flows_advance(sim *s, double now) {
  double dt = now - s->flows_t;
  if (dt > 0)
    for (size_t i = 0; i < s->nactive; i++) {
      flow *f = &s->flows[s->active[i]];
      f->rem -= f->rate * dt;
      if (f->rem < 0) f->rem = 0;
    }
  s->flows_t = now;
}

/* Each flow gets the link bandwidth, or its equal share of the most
 * crowded resource it crosses; completions are rescheduled. */
static void flows_rate(sim *s, double now) {
  for (size_t i = 0; i < s->nactive; i++) {
    uint32_t fi = s->active[i];
    flow *f = &s->flows[fi];
    double rate = s->m->bandwidth;
    for (uint32_t k = 0; k < f->nres; k++) {
      double share = s->topo.bw[f->res[k]] / s->res_n[f->res[k]];
      if (share < rate) rate = share;
    }
    if (rate != f->rate) {
      f->rate = rate;
      f->ver++;
      schedule(s, now + f->rem / rate, EV_FLOWDONE, fi, f->ver);
    }
  }
}

static void flow_start(sim *s, uint32_t v, double now) {
  const mslot *m = &s->slots[v];
  uint32_t fi;
  if (s->free_flow != NONE32) {
    fi = s->free_flow;
    s->free_flow = s->flows[fi].slot;
  } else {
    if (aug_grow((void **)&s->flows, &s->flow_cap, s->nflows + 1, sizeof *s->flows)) {
      s->nomem = 1;
      return;
    }
    fi = (uint32_t)s->nflows++;
    s->flows[fi].ver = 0;
  }
  if (aug_grow((void **)&s->active, &s->active_cap, s->nactive + 1, sizeof *s->active)) {
    s->nomem = 1;
    return;
  }
  flows_advance(s, now);
  flow *f = &s->flows[fi];
  /* The version goes on counting from the index's previous flow: its
   * stale completions may still be queued. Rate 0: not scheduled yet. */
  f->rate = 0;
  f->slot = v;
  f->rem = (double)m->bytes;
  f->active = 1;
  f->nres = sim_topo_route(&s->topo, s->node[m->src], s->node[m->dst], f->res);
  for (uint32_t k = 0; k < f->nres; k++)
    s->res_n[f->res[k]]++;
  s->active[s->nactive++] = fi;
  flows_rate(s, now);
}

static void flow_done(sim *s, uint32_t fi, uint32_t ver, double now) {
  flow *f = &s->flows[fi];
  if (!f->active || f->ver != ver) return; /* rescheduled since */
  flows_advance(s, now);
  f->active = 0;
  for (uint32_t k = 0; k < f->nres; k++)
    s->res_n[f->res[k]]--;
  for (size_t i = 0; i < s->nactive; i++)
    if (s->active[i] == fi) {
      s->active[i] = s->active[--s->nactive];
      break;
    }
  uint32_t v = f->slot;
  f->slot = s->free_flow;
  s->free_flow = fi;
  schedule(s, now + lat(s, s->slots[v].src, s->slots[v].dst) + s->slots[v].extra, EV_ARRIVE, v,
           s->slots[v].dst);
  flows_rate(s, now);
}

static void xfer(sim *s, uint32_t v, double now) {
  double at;
  if (xfer_arrival(s, &s->slots[v], now, &at))
    schedule(s, at, EV_ARRIVE, v, s->slots[v].dst);
  else /* something shared on the way: a flow */
    flow_start(s, v, now);
}

/* ---- Time slices -------------------------------------------------------- */

/* Start of rank RR's period holding T: start <= T < start + win_t, also
 * where the division rounds the wrong way at a boundary. */
static double own_period(const rrun *rr, double t) {
  double start = rr->win_off + floor((t - rr->win_off) / rr->win_t) * rr->win_t;
  if (t - start >= rr->win_t) start += rr->win_t;
  if (t < start) start -= rr->win_t;
  return start;
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Periods looked back for the last change of a core's order: beyond it the
 * deal's order holds (p = 0.01: e^-41). */
#define SH_LOOKBACK 4096
/* The most periods that draw a new order: other work that takes ticks in
 * runs shifts the order by the run's length, not each tick. Measured:
 * sim_halo2d at b 0.34-0.65 (5 recordings, 4 ranks on 2 CPUs) mean
 * absolute error 8.9 % with 1/2, 14.4 % uncapped, 9.9 % with 1/4. */
#define SH_MOST 0.5

static int sh_redraws(const rrun *rr, uint64_t j) {
  uint64_t x = rr->sh_seed ^ (j * UINT64_C(0x9E3779B97F4A7C15));
  return (double)(sim_splitmix(&x) >> 11) * 0x1p-53 < rr->sh_p;
}

/* The period at or before K whose draw orders period K: the last redraw
 * within SH_LOOKBACK periods, or UINT64_MAX (the deal's order). Asked
 * mostly for later and later periods: the rank keeps the last answer. */
static uint64_t sh_draw_of(rrun *rr, uint64_t k) {
  uint64_t lo = k >= SH_LOOKBACK - 1 ? k - (SH_LOOKBACK - 1) : 0, j = k;
  uint64_t stop = rr->sh_cached && rr->sh_k <= k && rr->sh_k >= lo ? rr->sh_k + 1 : lo;
  uint64_t found = UINT64_MAX;
  for (;; j--) {
    if (j < stop) break;
    if (sh_redraws(rr, j)) {
      found = j;
      break;
    }
    if (j == 0) break;
  }
  if (found == UINT64_MAX && stop != lo && rr->sh_j != UINT64_MAX && rr->sh_j >= lo)
    found = rr->sh_j;
  if (!rr->sh_cached || k >= rr->sh_k) {
    rr->sh_cached = 1;
    rr->sh_k = k;
    rr->sh_j = found;
  }
  return found;
}

/* Where rank RR's window starts in the period starting at START: the
 * place of its turn in the core's order, which other work changes now and
 * then and which then stays (docs/simulate.md "Other work and the order of
 * turns"), after the other work's part of the place, drawn per period. */
static double own_start(rrun *rr, double start) {
  if (rr->sh_n <= 1) return start;
  uint64_t k = (uint64_t)(int64_t)llround((start - rr->win_off) / rr->win_t);
  uint32_t n = rr->sh_n, at = rr->sh_i;
  uint64_t d = sh_draw_of(rr, k);
  if (d == UINT64_MAX) {
    /* the deal's order */
  } else if (n <= 16) { /* Fisher-Yates: place[i] is turn i's */
    uint64_t x = rr->sh_seed ^ (d * UINT64_C(0x9E3779B97F4A7C15)) ^ UINT64_C(0x5851F42D4C957F2D);
    uint32_t place[16];
    for (uint32_t i = 0; i < n; i++)
      place[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
      uint32_t j = (uint32_t)(sim_splitmix(&x) % (i + 1)), v = place[i];
      place[i] = place[j];
      place[j] = v;
    }
    at = place[rr->sh_i];
  } else { /* many ranks on a core: an affine permutation, O(1) */
    uint64_t x = rr->sh_seed ^ (d * UINT64_C(0x9E3779B97F4A7C15)) ^ UINT64_C(0x5851F42D4C957F2D);
    uint64_t a = sim_splitmix(&x) % n, c = sim_splitmix(&x) % n;
    while (a < 1 || gcd64(a, n) != 1)
      a = (a + 1) % n;
    at = (uint32_t)((a * rr->sh_i + c) % n);
  }
  /* other work's share of the place (its part beyond the quantum) comes
   * before the rank's turn by a fraction drawn per period */
  uint64_t y = rr->sh_seed ^ (k * UINT64_C(0xBF58476D1CE4E5B9));
  double u = (double)(sim_splitmix(&y) >> 11) * 0x1p-53;
  return start + at * rr->sh_step + u * (rr->sh_step - rr->win_len);
}

/* The first instant at or after T when rank RR runs. */
static double own_next(rrun *rr, double t) {
  if (rr->win_len <= 0) return t;
  double start = own_period(rr, t);
  if (rr->sh_n > 1) {
    double w = own_start(rr, start);
    if (t < w) return w;
    if (t - w < rr->win_len) return t;
    return own_start(rr, start + rr->win_t);
  }
  if (t - start < rr->win_len) return t;
  return start + rr->win_t;
}

/* When D seconds of rank RR's CPU time started at T end. */
static double own_run(rrun *rr, double t, double d) {
  if (rr->win_len <= 0) return t + d;
  t = own_next(rr, t);
  if (rr->sh_n > 1) { /* window by window, counting the periods (a window
                       * start a rounding below its period's start would
                       * map back to the period before) */
    double start = own_period(rr, t);
    for (;;) {
      double w = own_start(rr, start), left = w + rr->win_len - (t > w ? t : w);
      if (left > 0 && d <= left) return (t > w ? t : w) + d;
      if (left > 0) d -= left;
      start += rr->win_t;
      t = own_start(rr, start);
    }
  }
  double start = own_period(rr, t), left = start + rr->win_len - t;
  if (left < 0) left = 0;
  if (d <= left) return t + d;
  d -= left;
  double full = ceil(d / rr->win_len) - 1; /* whole windows before the last one */
  return start + (full + 1) * rr->win_t + (d - full * rr->win_len);
}

/* D seconds of CPU work from the rank's clock on, the wall time in BUCKET. */
static void cpu_work(rrun *rr, double d, double *bucket) {
  double end = own_run(rr, rr->t, d);
  *bucket += end - rr->t;
  rr->t = end;
}

/* The same for a cost measured as wall time with a core per rank (the
 * calibration's overhead and copies, a local call's recorded duration):
 * it holds the other work of its moment, so under time slices, whose
 * cycle holds the other work (background load b), it is (1 - b) of CPU. */
static void wall_work(const sim *s, rrun *rr, double d, double *bucket) {
  int turns = rr->win_len > 0 && !(s->m->cpu_quota > 0);
  cpu_work(rr, turns ? d * s->cpu_eff : d, bucket);
}

/* The rank waited for something done at DONE: it goes on when it runs. */
static void wait_until(rrun *rr, double done, double *bucket) {
  done = own_next(rr, done);
  if (done > rr->t) {
    *bucket += done - rr->t;
    rr->t = done;
  }
}

/* Under a CPU quota the period's phase when the trace starts is unknown
 * (start-up has used some of the quota): the prediction is the mean over
 * QUOTA_PHASES phases spread over the period. */
#define QUOTA_PHASES 8
/* With time slices, which ranks share a core and in which order they take
 * turns is the kernel's choice: the prediction is the mean over the deals
 * of a node's ranks to its cores, all of them up to ALL_DEALS (4 ranks: the
 * kernel keeps a placement for most of a run, and a run's time depends on
 * which ranks share a core: NPB CG A, docs/simulate.md "Which ranks share
 * a core"), else CORE_DEALS pseudo-random ones. */
#define CORE_DEALS 8
#define ALL_DEALS  24
/* Background load from which an uneven recorded placement is taken as the
 * deals (recorded_deal): quiet recordings read 0.01-0.05, loaded 0.5-0.75. */
#define UNEVEN_LOAD 0.25

/* Deals of N ranks: N! up to ALL_DEALS, else CORE_DEALS. */
static uint32_t deals_of(uint32_t n) {
  uint32_t f = 1;
  for (uint32_t i = 2; i <= n && f <= ALL_DEALS; i++)
    f *= i;
  return f <= ALL_DEALS ? f : CORE_DEALS;
}

/* SLOT[i]: local rank I's place in deal D of N ranks (place p: core p mod
 * cores, turn p / cores). Deal 0 is rank order; with N! < CORE_DEALS deal
 * D is the D-th permutation (factorial number system), else a fixed
 * pseudo-random one (Fisher-Yates, seeded by D and the node). */
static void deal_slots(uint32_t *slot, uint32_t n, uint32_t d, uint32_t node) {
  for (uint32_t i = 0; i < n; i++)
    slot[i] = i;
  d %= deals_of(n);
  if (!d) return;
  if (deals_of(n) != CORE_DEALS) {         /* all N! of them */
    for (uint32_t i = 0; i + 1 < n; i++) { /* digit i in base n - i picks from the rest */
      uint32_t k = i + d % (n - i);
      d /= n - i;
      uint32_t v = slot[k];
      memmove(&slot[i + 1], &slot[i], (k - i) * sizeof *slot);
      slot[i] = v;
    }
    return;
  }
  uint64_t x = ((uint64_t)d << 32) ^ node;
  for (uint32_t i = n - 1; i > 0; i--) {
    uint32_t k = (uint32_t)(sim_splitmix(&x) % (i + 1)), v = slot[i];
    slot[i] = slot[k];
    slot[k] = v;
  }
}

/* Node ND's NR ranks (s->node_ranks[FIRST...]) on the CPUs they stayed on
 * during the recording (m->rank_cpu; docs/simulate.md "Recorded
 * placement"), if every one did, on CORES CPUs, as evenly as the deals
 * spread them: CORE[i] = the
 * core of local rank I (the CPUs in increasing order), ON[i] = that core's
 * ranks, TURN[i] = its turn among them in replay VARIANT. Which ranks share
 * a core is the recording's; the order of their turns is not recorded, so
 * the replays take every order inside each core (their product, up to
 * ALL_DEALS), else CORE_DEALS pseudo-random ones. Returns how many replays
 * (0: no recorded placement; then the deals). */
static uint32_t recorded_deal(const sim *s, uint32_t first, uint32_t nr, uint32_t cores,
                              uint32_t variant, uint32_t nd, uint32_t *core, uint32_t *on,
                              uint32_t *turn) {
  const augur_machine *m = s->m;
  if (!m->rank_cpu || !cores) return 0;
  uint32_t *cpu = on, ncpu = 0; /* ON holds the distinct CPUs, sorted, until the end */
  for (uint32_t i = 0; i < nr; i++) {
    uint32_t r = s->node_ranks[first + i], c = r < m->nrank_cpu ? m->rank_cpu[r] : UINT32_MAX;
    if (c == UINT32_MAX) return 0;
    uint32_t k = 0;
    while (k < ncpu && cpu[k] < c)
      k++;
    if (k == ncpu || cpu[k] != c) {
      if (ncpu == cores) return 0; /* more CPUs than the model's cores */
      memmove(&cpu[k + 1], &cpu[k], (ncpu - k) * sizeof *cpu);
      cpu[k] = c;
      ncpu++;
    }
  }
  uint32_t *cnt = calloc(ncpu, sizeof *cnt), *perm = malloc(nr * sizeof *perm);
  if (!cnt || !perm) {
    free(cnt);
    free(perm);
    return UINT32_MAX;
  }
  for (uint32_t i = 0; i < nr; i++) { /* core = the CPU's index; turn = the place among its ranks */
    uint32_t c = m->rank_cpu[s->node_ranks[first + i]], k = 0;
    while (cpu[k] != c)
      k++;
    core[i] = k;
    turn[i] = cnt[k]++;
  }
  /* Uneven (3 ranks on one CPU, 1 on the other) with much other work: the
   * kernel put them so because other work held a CPU, which the model's
   * even background load does not say (sim_halo2d at 72 % other work:
   * +15 % over the deals, +51 % so); the deals then. With little (quiet
   * runs: 1-5 %) the ranks were so (NPB MG A: -13 % over the deals for its
   * uneven 18 %, -4.5 % so). */
  int even = ncpu == cores || s->cpu_eff > 1 - UNEVEN_LOAD;
  for (uint32_t c = 0; c < ncpu && even && !(s->cpu_eff > 1 - UNEVEN_LOAD); c++)
    even = cnt[c] >= nr / cores && cnt[c] <= (nr + cores - 1) / cores;
  if (!even) {
    free(cnt);
    free(perm);
    return 0;
  }
  uint64_t all = 1;
  for (uint32_t c = 0; c < ncpu && all <= ALL_DEALS; c++)
    for (uint32_t f = 2; f <= cnt[c] && all <= ALL_DEALS; f++)
      all *= f;
  uint32_t replays = all <= ALL_DEALS ? (uint32_t)all : CORE_DEALS, v = variant % replays;
  for (uint32_t c = 0; c < ncpu; c++) {
    uint32_t d = v;
    if (all <= ALL_DEALS) { /* mixed radix: digit c in base cnt[c]! */
      uint32_t f = 1;
      for (uint32_t k = 2; k <= cnt[c]; k++)
        f *= k;
      d = v % f;
      v /= f;
    } else if (v) {
      uint64_t x = ((uint64_t)v << 32) ^ ((uint64_t)c << 16) ^ nd;
      d = (uint32_t)sim_splitmix(&x);
    }
    deal_slots(perm, cnt[c], d, nd ^ (c << 16));
    for (uint32_t i = 0; i < nr; i++)
      if (core[i] == c) turn[i] = perm[turn[i]];
  }
  for (uint32_t i = 0; i < nr; i++)
    on[i] = cnt[core[i]];
  free(cnt);
  free(perm);
  return replays;
}

/* Sets every rank's windows for replay VARIANT (docs/simulate.md "CPU"),
 * and how many replays the prediction averages. */
static int own_windows(sim *s, uint32_t nnodes, uint32_t variant) {
  const augur_machine *m = s->m;
  uint32_t most = 0;
  for (uint32_t nd = 0; nd < nnodes; nd++)
    if (s->node_off[nd + 1] - s->node_off[nd] > most) most = s->node_off[nd + 1] - s->node_off[nd];
  size_t sz = (most ? most : 1) * sizeof(uint32_t);
  uint32_t *slot = malloc(sz), *core_of = malloc(sz), *on_of = malloc(sz);
  if (!slot || !core_of || !on_of) {
    free(slot);
    free(core_of);
    free(on_of);
    return -1;
  }
  s->variants = m->cpu_quota > 0 ? QUOTA_PHASES : 1;
  for (uint32_t nd = 0; nd < nnodes; nd++) {
    uint32_t first = s->node_off[nd], nr = s->node_off[nd + 1] - first;
    uint32_t cores = m->cpu_cores && m->cpu_cores < nr ? m->cpu_cores : nr;
    int turns = !(m->cpu_quota > 0) && m->cpu_quantum > 0 && nr > cores;
    /* SLOT: the turn of each local rank; CORE_OF, ON_OF: its core and that core's ranks */
    uint32_t nv = turns ? recorded_deal(s, first, nr, cores, variant, nd, core_of, on_of, slot) : 0;
    if (nv == UINT32_MAX) {
      free(slot);
      free(core_of);
      free(on_of);
      return -1;
    }
    if (!nv) {
      if (turns) nv = deals_of(nr);
      deal_slots(slot, nr, turns ? variant : 0, nd);
      for (uint32_t i = 0; i < nr; i++) {
        core_of[i] = slot[i] % cores;
        on_of[i] = nr / cores + (core_of[i] < nr % cores);
        slot[i] /= cores;
      }
    }
    if (nv > s->variants) s->variants = nv;
    for (uint32_t i = 0; i < nr; i++) {
      rrun *rr = &s->r[s->node_ranks[first + i]];
      if (m->cpu_quota > 0) {
        /* Every rank busy (computing or polling): the node burns `cores`
         * CPUs, so the quota lasts quota x period / cores of each period. */
        double len = m->cpu_quota * m->cpu_quota_period / cores;
        if (len < m->cpu_quota_period) {
          rr->win_t = m->cpu_quota_period;
          rr->win_off = -(double)variant / QUOTA_PHASES * m->cpu_quota_period;
          rr->win_len = len;
        }
      } else if (turns) {
        /* A core's ranks take turns, and other work (background load b)
         * takes turns between theirs: a rank runs one quantum in every
         * cycle of on_core x quantum / (1 - b), its core's ranks' places
         * spread over it. Alone on a core the ranks keep one order (two
         * polling ranks alternate: 4.000 ms half round trips); a tick the
         * other work takes on a core shifts its order against the other
         * cores' for good (perf sched on 4 ranks on 2 CPUs: the order
         * stays until the next such tick). A cycle holds on_core x b /
         * (1 - b) of them, so a cycle draws a new order, which then stays,
         * with that probability over the chance that a drawn order
         * differs (docs/simulate.md "Other work and the order of turns").
         * The other work's part of a place comes before the rank's turn by
         * a fraction drawn per cycle, and in each deal a core's cycle
         * starts a pseudo-random part of that gap after core 0's. */
        uint32_t core = core_of[i], turn = slot[i], on_core = on_of[i];
        double cycle = on_core * m->cpu_quantum / s->cpu_eff, step = cycle / on_core;
        uint64_t x = ((uint64_t)(variant + 1) << 40) ^ ((uint64_t)nd << 20) ^ core;
        double drift = core ? (double)(sim_splitmix(&x) >> 11) * 0x1p-53 : 0;
        rr->win_t = cycle;
        rr->win_off = turn * step + drift * (step - m->cpu_quantum);
        rr->win_len = m->cpu_quantum;
        if (s->cpu_eff < 1) {
          double same = 1; /* a drawn order is the one before: 1 / on_core! */
          for (uint32_t f = 2; f <= on_core && same > 1e-9; f++)
            same /= f;
          rr->win_off -= turn * step;
          rr->sh_n = on_core;
          rr->sh_i = turn;
          rr->sh_step = step;
          rr->sh_seed = sim_splitmix(&x);
          rr->sh_p = on_core * (1 - s->cpu_eff) / s->cpu_eff / (1 - same);
          if (rr->sh_p > SH_MOST) rr->sh_p = SH_MOST;
          rr->sh_cached = 0;
        }
      }
    }
  }
  free(slot);
  free(core_of);
  free(on_of);
  return 0;
}

/* ---- Processor sharing -------------------------------------------------- */

/* Brings the work left of node N's computing ranks up to NOW. */
static void cpu_advance(sim *s, uint32_t n, double now) {
  double dt = now - s->cpu_t[n];
  if (dt > 0)
    for (uint32_t i = s->node_off[n]; i < s->node_off[n + 1]; i++) {
      rrun *q = &s->r[s->node_ranks[i]];
      if (!q->computing) continue;
      q->crem -= q->crate * dt;
      if (q->crem < 0) q->crem = 0;
    }
  s->cpu_t[n] = now;
}

/* Every computing rank of node N runs at min(1, cores / computing) of a
 * core, times what the background load leaves; completions are
 * rescheduled when the speed changes. */
static void cpu_rates(sim *s, uint32_t n, double now) {
  if (!s->cpu_n[n]) return;
  double share = (double)s->m->cpu_cores / s->cpu_n[n];
  double rate = (share < 1 ? share : 1) * s->cpu_eff;
  for (uint32_t i = s->node_off[n]; i < s->node_off[n + 1]; i++) {
    uint32_t r = s->node_ranks[i];
    rrun *q = &s->r[r];
    if (!q->computing || q->crate == rate) continue;
    q->crate = rate;
    q->cver++;
    schedule(s, now + q->crem / rate, EV_CDONE, r, q->cver);
  }
}

static void cpu_start(sim *s, uint32_t r, double now) {
  rrun *rr = &s->r[r];
  uint32_t n = s->node[r];
  cpu_advance(s, n, now);
  rr->computing = 1;
  rr->cstart = now;
  rr->crate = 0; /* not scheduled yet; cver goes on counting past the last burst's events */
  s->cpu_n[n]++;
  cpu_rates(s, n, now);
}

static void run_rank(sim *s, uint32_t r);

static void cpu_done(sim *s, uint32_t r, uint32_t ver, double now) {
  rrun *rr = &s->r[r];
  if (!rr->computing || rr->cver != ver) return; /* rescheduled since */
  uint32_t n = s->node[r];
  cpu_advance(s, n, now);
  rr->computing = 0;
  s->cpu_n[n]--;
  cpu_rates(s, n, now);
  rr->t = now > rr->cfloor ? now : rr->cfloor;
  rr->acc.compute += rr->t - rr->cstart;
  rr->blocked = BLK_NONE;
  rr->pc++;
  run_rank(s, r);
}

/* ---- Ranks -------------------------------------------------------------- */

static void wake(sim *s, uint32_t r);

static int stopped(const sim *s) {
  return s->nomem || s->src_rc < 0;
}

/* Rank R's operation at its pc (held: streaming keeps it until it ran).
 * At thousands of ranks this is a cache miss or two (the rank's entry in
 * the graph, its array): what a rank blocked on needs is kept in its rrun. */
static const augur_sim_op *op_at(const sim *s, uint32_t r) {
  const sim_rank_ops *ro = &s->g->ranks[r];
  return &ro->ops[s->r[r].pc - ro->base];
}

/* Has rank R an operation at its pc? Streaming reads the trace as far as
 * it takes to know (and resolve) it. */
static int have_op(sim *s, uint32_t r) {
  rrun *rr = &s->r[r];
  if (!s->src) return rr->pc < rr->n;
  int rc = sim_src_ready(s->src, r, rr->pc);
  if (rc < 0) {
    s->src_rc = rc;
    return 0;
  }
  uint64_t f = sim_src_held(s->src) + s->nslots + s->nreq;
  if (f > s->peak) s->peak = f;
  return rc;
}

/* A new message of the stream (sim_msg_fn): its slot, freed when both ends are done. */
static uint64_t stream_msg(void *ctx, uint32_t sender, uint32_t receiver, uint64_t bytes,
                           unsigned flags) {
  sim *s = ctx;
  uint32_t v = msg_slot(s, UINT64_MAX, sender, receiver, bytes, flags & AUGUR_SIM_MSG_SYNC);
  if (v == NONE32) return AUGUR_SIM_NONE;
  s->slots[v].extra = recv_extra(s, bytes, flags);
  return v;
}

/* Streaming: nonblocking end OP (rank R's pc) ran; its WAIT will look it up. */
static void req_open(sim *s, uint32_t r, const augur_sim_op *op) {
  rrun *rr = &s->r[r];
  if (rr->req_dead * 2 > rr->nreq) { /* compact: the live ones keep their order */
    size_t k = 0;
    for (size_t i = 0; i < rr->nreq; i++)
      if (rr->req[i].live) rr->req[k++] = rr->req[i];
    rr->nreq = k;
    rr->req_dead = 0;
  }
  if (aug_grow((void **)&rr->req, &rr->req_cap, rr->nreq + 1, sizeof *rr->req)) {
    s->nomem = 1;
    return;
  }
  rr->req[rr->nreq++] = (sreq){rr->pc, (uint32_t)op->a, op->kind == AUGUR_SIM_SEND, 1};
  s->nreq++;
}

/* Request I of WAIT OP of rank R: its slot and whether it is a send; 0 if
 * it has none (no partner in the trace). *AT: where streaming keeps it. */
static int wait_req(const sim *s, uint32_t r, const augur_sim_op *op, uint64_t i, uint32_t *slot,
                    int *send, size_t *at) {
  const sim_rank_ops *ro = &s->g->ranks[r];
  if (!s->src) {
    const augur_sim_op *o = &ro->ops[s->g->waits[op->a + i]];
    if (o->flags & AUGUR_SIM_F_UNMATCHED) return 0;
    *slot = (uint32_t)o->a;
    *send = o->kind == AUGUR_SIM_SEND;
    return 1;
  }
  uint64_t num = ro->wl[op->a - ro->wl_base + i];
  const rrun *rr = &s->r[r];
  size_t lo = 0, hi = rr->nreq;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (rr->req[mid].op < num)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == rr->nreq || rr->req[lo].op != num || !rr->req[lo].live) return 0;
  *slot = rr->req[lo].slot;
  *send = rr->req[lo].send;
  *at = lo;
  return 1;
}

/* The requests of the WAIT rank R is in (wait_open). */
static const wreq *wait_reqs(const rrun *rr) {
  return rr->nwq <= WQ_IN ? rr->wq_in : rr->wq;
}

/* Rank R starts WAIT OP: its requests are looked up once, here, not at
 * every wake (at thousands of ranks each lookup is a miss or two: the
 * graph's wait list, the request table). 0, or -1 out of memory. */
static int wait_open(sim *s, uint32_t r, const augur_sim_op *op) {
  rrun *rr = &s->r[r];
  rr->wait_i = 0;
  rr->wait_t = -1;
  rr->wait_recv = 0;
  if (op->b > WQ_IN && aug_grow((void **)&rr->wq, &rr->wq_cap, op->b, sizeof *rr->wq)) {
    s->nomem = 1;
    return -1;
  }
  wreq *w = op->b > WQ_IN ? rr->wq : rr->wq_in;
  uint32_t n = 0;
  for (uint64_t i = 0; i < op->b; i++) {
    uint32_t v;
    int send;
    size_t at = 0;
    if (!wait_req(s, r, op, i, &v, &send, &at)) continue;
    assert(at <= UINT32_MAX);
    w[n++] = (wreq){v, (uint32_t)at, (uint8_t)send};
  }
  if (n <= WQ_IN && w != rr->wq_in) memcpy(rr->wq_in, w, n * sizeof *w);
  rr->nwq = n;
  return 0;
}

/* Streaming: the WAIT of rank R completed: its requests close (one listed
 * twice, once). */
static void wait_finish(sim *s, uint32_t r) {
  if (!s->src) return;
  rrun *rr = &s->r[r];
  const wreq *w = wait_reqs(rr);
  for (uint32_t i = 0; i < rr->nwq; i++) {
    sreq *q = &rr->req[w[i].at];
    if (!q->live) continue;
    q->live = 0;
    rr->req_dead++;
    s->nreq--;
    release(s, w[i].slot);
  }
}

static void arrive(sim *s, uint32_t v, double now) {
  mslot *m = &s->slots[v];
  /* read before a wake: running a rank may grow (move) the slots */
  const uint32_t src = m->src, dst = m->dst;
  const unsigned w = arrived(m, now);
  if (w & SIDE_SEND) wake(s, src);
  if (w & SIDE_RECV) wake(s, dst);
}

/* Wait accounting: blocked from T_BLOCK until DONE. */
static void resume(sim *s, uint32_t r, double done, double *bucket) {
  rrun *rr = &s->r[r];
  wait_until(rr, done, bucket);
  rr->blocked = BLK_NONE;
  rr->pc++;
  run_rank(s, r);
}

/* Are all requests of the WAIT rank R is in done? Sets *t to the last
 * completion and *recv to whether that one was a receive (the first in
 * the list of that time). A request's completion time, once known, stays:
 * the rank keeps how far it got (wait_i: the requests before it are done,
 * the latest of them wait_t, wait_recv) and a wake goes on from there, not
 * over the whole list again (a Waitall of k requests woken k times).
 * wait_open starts it. */
static int wait_done(sim *s, uint32_t r, double *t, int *recv) {
  rrun *rr = &s->r[r];
  const wreq *w = wait_reqs(rr);
  for (uint64_t i = rr->wait_i; i < rr->nwq; i++) {
    mslot *m = &s->slots[w[i].slot];
    double d = slot_done(m, w[i].send);
    if (d < 0) {
      rr->wait_i = i;
      m->quiet &= (uint8_t) ~(w[i].send ? SIDE_SEND : SIDE_RECV); /* its arrival wakes R */
      return 0;
    }
    if (d > rr->wait_t) {
      rr->wait_t = d;
      rr->wait_recv = !w[i].send;
    }
  }
  rr->wait_i = rr->nwq;
  *t = rr->wait_t;
  *recv = rr->wait_recv;
  return 1;
}

/* Rank R blocked in its WAIT at request wait_i: the arrivals of the
 * requests after it need not wake it (half of a halo's first arrivals
 * did, for nothing: a wake at thousands of ranks is a few cache misses);
 * wait_done reads them when it gets there, and clears the mark of the
 * request it blocks on. Called when the WAIT first blocks, while its
 * slots are in the cache (posted in the same run). */
static void wait_quiet(sim *s, uint32_t r) {
  const rrun *rr = &s->r[r];
  const wreq *w = wait_reqs(rr);
  for (uint64_t k = rr->wait_i + 1; k < rr->nwq; k++)
    s->slots[w[k].slot].quiet |= w[k].send ? SIDE_SEND : SIDE_RECV;
  const wreq *b = &w[rr->wait_i]; /* it may be listed again after */
  s->slots[b->slot].quiet &= (uint8_t) ~(b->send ? SIDE_SEND : SIDE_RECV);
}

/* Under time slices, the run of steps marked together from rank R's
 * current one: all posted at once, done when all are (an all-to-all's
 * Isends and Irecvs, then its Waitall: a partner that runs exchanges
 * whatever the order). 0 while one is not done. */
static int coll_together(sim *s, uint32_t r) {
  rrun *rr = &s->r[r];
  if (!rr->posted) {
    rr->posted = 1;
    rr->ngrp = 0;
    size_t end = rr->step;
    while (end < rr->nsteps && rr->steps[end].together)
      end++;
    rr->gend = end;
    if (2 * (end - rr->step) > rr->grp_cap) {
      size_t cap = rr->grp_cap;
      if (aug_grow((void **)&rr->grp, &cap, 2 * (end - rr->step), sizeof *rr->grp)) {
        s->nomem = 1;
        return 0;
      }
      rr->grp_cap = cap;
    }
    for (size_t k = rr->step; k < end; k++) {
      const sim_step *st = &rr->steps[k];
      if (st->to >= 0) {
        uint32_t v = coll_slot(s, rr->inst, r, (uint32_t)st->to, st->tag, st->sbytes);
        if (v == NONE32) return 0;
        post_send(s, v, rr->t);
        rr->grp[rr->ngrp++] = v;
      }
      if (st->from >= 0) {
        uint32_t v = coll_slot(s, rr->inst, (uint32_t)st->from, r, st->tag, st->rbytes);
        if (v == NONE32) return 0;
        post_recv(s, v, rr->t);
        rr->grp[rr->ngrp++] = v | 0x80000000u; /* a receive */
      }
    }
  }
  double done = rr->t;
  for (size_t k = 0; k < rr->ngrp; k++) {
    uint32_t v = rr->grp[k] & 0x7fffffffu;
    double d = slot_done(&s->slots[v], !(rr->grp[k] & 0x80000000u));
    if (d < 0) return 0;
    if (d > done) done = d;
  }
  for (size_t k = 0; k < rr->ngrp; k++)
    release(s, rr->grp[k] & 0x7fffffffu);
  rr->ngrp = 0;
  rr->t = own_next(rr, done);
  rr->posted = 0;
  rr->step = rr->gend;
  return 1;
}

/* Runs the collective's steps until one must wait; 1 when all are done. */
static int coll_advance(sim *s, uint32_t r) {
  rrun *rr = &s->r[r];
  while (rr->step < rr->nsteps) {
    const sim_step *st = &rr->steps[rr->step];
    if (st->together && rr->win_len > 0 && s->m->cpu_quantum > 0) {
      if (coll_together(s, r) == 0) return 0;
      continue;
    }
    if (!rr->posted) {
      rr->posted = 1;
      rr->cur_s = rr->cur_r = NONE32;
      if (st->to >= 0) {
        rr->cur_s = coll_slot(s, rr->inst, r, (uint32_t)st->to, st->tag, st->sbytes);
        if (rr->cur_s == NONE32) return 0;
        post_send(s, rr->cur_s, rr->t);
      }
      if (st->from >= 0) {
        rr->cur_r = coll_slot(s, rr->inst, (uint32_t)st->from, r, st->tag, st->rbytes);
        if (rr->cur_r == NONE32) return 0;
        post_recv(s, rr->cur_r, rr->t);
      }
    }
    double done = rr->t;
    if (rr->cur_s != NONE32) {
      double d = slot_sdone(&s->slots[rr->cur_s]);
      if (d < 0) return 0;
      if (d > done) done = d;
    }
    if (rr->cur_r != NONE32) {
      double d = slot_rdone(&s->slots[rr->cur_r]);
      if (d < 0) return 0;
      if (d > done) done = d;
    }
    if (rr->cur_s != NONE32) release(s, rr->cur_s);
    if (rr->cur_r != NONE32) release(s, rr->cur_r);
    rr->t = own_next(rr, done);
    rr->posted = 0;
    rr->step++;
  }
  rr->acc.sync_wait += rr->t - rr->t_coll;
  return 1;
}

static int coll_begin(sim *s, uint32_t r, const augur_sim_op *op) {
  rrun *rr = &s->r[r];
  const sim_comm *c = &s->g->comms[op->comm];
  int64_t mine = sim_comm_rank(c, r);
  uint32_t me = mine < 0 ? NONE32 : (uint32_t)mine;
  int32_t root = op->peer >= 0 ? (int32_t)sim_comm_rank(c, (uint32_t)op->peer) : -1;
  rr->nsteps = rr->step = 0;
  rr->posted = 0;
  rr->inst = op->a;
  rr->t_coll = rr->t;
  if (me == NONE32) return 0;
  size_t n = sim_coll_steps(s->m, op->type, c, me, root, op->b, rr->steps, rr->steps_cap);
  if (n > rr->steps_cap) {
    size_t cap = rr->steps_cap;
    if (aug_grow((void **)&rr->steps, &cap, n, sizeof *rr->steps)) {
      s->nomem = 1;
      return 0;
    }
    rr->steps_cap = cap;
    n = sim_coll_steps(s->m, op->type, c, me, root, op->b, rr->steps, rr->steps_cap);
  }
  rr->nsteps = n;
  return 0;
}

/* ---- Collectives all at once -------------------------------------------
 * When every member of a collective's algorithm waits for every other to
 * enter (sim_coll_waits_all), no member leaves before the last one has
 * entered; and without flows, processor sharing or time slices (s->closed)
 * a message's times are a function of its two ends' posts alone. Then the
 * instance's steps run when the last member enters, round by round (a
 * round: the steps of one tag, which both ends of a message share), over
 * arrays in comm rank order: the arithmetic of the message path
 * (xfer_arrival, start_rndv, coll_advance), so the same times to the bit,
 * without a slot, a table probe and a queue event per message. The counts
 * go on as if the messages had run: one message and two events each (the
 * transfer, counted by xfer_start, and the arrival). docs/simulate.md
 * "Simulator". */

/* Members' steps closed_run holds. Rings, pairwise exchanges and dissemination keep none
 * (closed_rotating: every member's steps are member 0's turned, p - 1 each for rings and
 * pairwise exchanges, p^2 in all); the others (recursive doubling: 18 a member at 65,536
 * members) keep every member's, an instance of more than CLOSED_MAX_STEPS a member and
 * CLOSED_MAX_TOTAL in all (16 bytes each: 256 MiB) running as messages (none of MPICH's
 * algorithms modelled here is one). On an instant network those over CLOSED_MAX_STEPS run
 * all at once without steps. An MPI_Alltoall of 1,024 members as messages: 45 ns a
 * message (a million an instance); round by round: 6. */
#define CLOSED_MAX_STEPS 64
#define CLOSED_MAX_TOTAL (1u << 24)

/* AUGUR_SIM_COLL_MESSAGES=1: every collective as messages (what the
 * tests compare the closed runs with; docs/simulate.md). */
static int closed_off(void) {
  const char *e = getenv("AUGUR_SIM_COLL_MESSAGES");
  return e && strcmp(e, "1") == 0;
}

/* AUGUR_SIM_ARRIVALS=queue: direct arrivals go through the event queue
 * (the way before deliver; tests compare the two). */
static int deliver_off(void) {
  const char *e = getenv("AUGUR_SIM_ARRIVALS");
  return e && strcmp(e, "queue") == 0;
}

/* The open instance INST, or NULL. Open at once: one per communicator
 * whose members are in a collective (a handful). */
static cinst *closed_find(sim *s, uint64_t inst) {
  for (size_t i = 0; i < s->nci; i++)
    if (s->ci[i].inst == inst) return &s->ci[i];
  return NULL;
}

/* Rank R's collective ended: it goes on (sim_loop runs it). */
static void ready_push(sim *s, uint32_t r) {
  assert(s->rn < s->g->nranks);
  s->ready[(s->rhead + s->rn++) % s->g->nranks] = r;
}

/* A message of BYTES from SRC to DST (world ranks) whose ends were posted at PS and PR: when
 * the sender's step is done with it (SIDE 0) or the receiver's (SIDE 1). The message path's
 * arithmetic (xfer_arrival, start_rndv, coll_advance) without a slot. */
static double closed_done(const sim *s, uint32_t src, uint32_t dst, uint64_t bytes, double ps,
                          double pr, int side) {
  double at = 0;
  if (slot_rndv(s, bytes, 0)) { /* start_rndv: own_next is the identity here */
    double go = ps > pr ? ps : pr;
    arrival(s, src, dst, bytes, 0, go + lat(s, src, dst), &at);
    return side ? (at > pr ? at : pr) : at;
  }
  if (!side) return ps;
  arrival(s, src, dst, bytes, 0, ps, &at);
  return at > pr ? at : pr;
}

/* Instance CI's steps when every member's are member 0's turned by its comm rank
 * (sim_coll_steps_rot: dissemination, rings, pairwise exchange) and each step sends to
 * me + d and receives from me - d: round k is member 0's step k for all, no member's steps
 * kept (p - 1 steps of p members were p^2 in memory). 1 if that is not the case (the
 * general way then), 0 when run, -1 out of memory. */
static int closed_rotating(sim *s, cinst *ci, const sim_comm *id) {
  const sim_comm *c = &s->g->comms[ci->comm];
  const uint32_t p = ci->p;
  int rot = 0;
  size_t n;
  while ((n = sim_coll_steps_rot(s->m, ci->type, id, 0, ci->root, ci->bytes, s->ctmp, s->ctmp_cap,
                                 &rot)) > s->ctmp_cap)
    if (aug_grow((void **)&s->ctmp, &s->ctmp_cap, n, sizeof *s->ctmp)) {
      s->nomem = 1;
      return -1;
    }
  if (!rot) return 1;
  for (size_t k = 0; k < n; k++) {
    const sim_step *a = &s->ctmp[k];
    if ((k && a->tag <= s->ctmp[k - 1].tag) || a->to <= 0 || a->from <= 0 || (uint32_t)a->to >= p ||
        (uint32_t)a->from >= p || (uint32_t)(a->to + a->from) != p || a->sbytes != a->rbytes)
      return 1;
  }
  double *t = ci->t, *post = s->cpost;
  const uint32_t *w = c->members;
  for (size_t k = 0; k < n; k++) {
    const uint32_t d = (uint32_t)s->ctmp[k].to, e = p - d; /* to me + d, from me + e */
    const uint64_t bytes = s->ctmp[k].sbytes;
    memcpy(post, t, p * sizeof *t);
    for (uint32_t i = 0; i < p; i++) {
      const uint32_t to = i + d < p ? i + d : i + d - p, from = i + e < p ? i + e : i + e - p;
      double done = post[i];
      double x = closed_done(s, w[i], w[to], bytes, post[i], post[to], 0);
      if (x > done) done = x;
      x = closed_done(s, w[from], w[i], bytes, post[from], post[i], 1);
      if (x > done) done = x;
      t[i] = done;
    }
  }
  s->messages += (uint64_t)n * p;
  s->events += 2 * (uint64_t)n * p;
  return 0;
}

/* Runs instance CI's steps (all members entered, at CI->t): CI->t becomes
 * when each member leaves. -1 (nothing counted) if the steps are not
 * rounds whose messages pair up (then the messages run them), or out of
 * memory. */
static int closed_run(sim *s, cinst *ci) {
  const sim_comm *c = &s->g->comms[ci->comm];
  const uint32_t p = ci->p;
  if (ci->instant_msgs) { /* each round's done is the max of two dones: all are the last */
    double last = ci->t[0];
    for (uint32_t i = 1; i < p; i++)
      if (ci->t[i] > last) last = ci->t[i];
    for (uint32_t i = 0; i < p; i++)
      ci->t[i] = last;
    s->messages += ci->instant_msgs;
    s->events += 2 * ci->instant_msgs;
    return 0;
  }
  const sim_comm id = {0, p, s->ident, NULL}; /* steps in comm ranks */
  if (aug_grow((void **)&s->ctmp, &s->ctmp_cap, CLOSED_MAX_STEPS, sizeof *s->ctmp)) {
    s->nomem = 1;
    return -1;
  }
  if (p + 1 > s->cp_cap) {
    size_t a = s->cp_cap, b = s->cp_cap, d = s->cp_cap, e = s->cp_cap;
    if (aug_grow((void **)&s->coff, &a, p + 1, sizeof *s->coff) ||
        aug_grow((void **)&s->cidx, &b, p + 1, sizeof *s->cidx) ||
        aug_grow((void **)&s->cpost, &d, p + 1, sizeof *s->cpost) ||
        aug_grow((void **)&s->ccur, &e, p + 1, sizeof *s->ccur)) {
      s->nomem = 1;
      return -1;
    }
    a = a < b ? a : b;
    d = d < e ? d : e;
    s->cp_cap = a < d ? a : d;
  }
  int rc = closed_rotating(s, ci, &id);
  if (rc <= 0) return rc;
  size_t total = 0;
  for (uint32_t i = 0; i < p; i++) {
    size_t n;
    while ((n = sim_coll_steps(s->m, ci->type, &id, i, ci->root, ci->bytes, s->ctmp, s->ctmp_cap)) >
           s->ctmp_cap)
      if (aug_grow((void **)&s->ctmp, &s->ctmp_cap, n, sizeof *s->ctmp)) {
        s->nomem = 1;
        return -1;
      }
    if (aug_grow((void **)&s->cst, &s->cst_cap, total + n, sizeof *s->cst)) {
      s->nomem = 1;
      return -1;
    }
    for (size_t k = 0; k < n; k++) {
      const sim_step *a = &s->ctmp[k];
      uint64_t b = a->to >= 0 ? a->sbytes : a->rbytes;
      if ((k && a->tag <= s->ctmp[k - 1].tag) /* a tag is one round */
          || (a->to >= 0 && a->from >= 0 && a->sbytes != a->rbytes) || b > UINT32_MAX)
        return -1;
      s->cst[total + k] = (cstep){a->to, a->from, a->tag, (uint32_t)b};
    }
    s->coff[i] = (uint32_t)total;
    s->cidx[i] = (uint32_t)total;
    total += n;
  }
  s->coff[p] = (uint32_t)total;
  const uint32_t *off = s->coff;
  uint32_t *idx = s->cidx;
  const cstep *st = s->cst;
  double *t = ci->t, *post = s->cpost;
  uint64_t msgs = 0;
  /* A round: the members whose next step has the least tag, TAG; cur[i], member i's next
   * step's tag (UINT32_MAX: none left), is what the passes read rather than the step, a
   * line p - 1 steps from the next member's; post[i] is t[i] when a round starts (the
   * rounds before left it there, or i was in none) */
  uint32_t *cur = s->ccur, tag = UINT32_MAX;
  for (uint32_t i = 0; i < p; i++) {
    cur[i] = idx[i] < off[i + 1] ? st[idx[i]].tag : UINT32_MAX;
    if (cur[i] < tag) tag = cur[i];
    post[i] = t[i];
  }
  while (tag != UINT32_MAX) {
#define IN_ROUND(i) (cur[i] == tag)
    for (uint32_t i = 0; i < p; i++) {
      if (!IN_ROUND(i)) continue;
      const cstep *a = &st[idx[i]];
      double done = post[i];
      for (int side = 0; side < 2; side++) {
        int32_t j = side ? a->from : a->to;
        if (j < 0) continue;
        const cstep *b = IN_ROUND((uint32_t)j) ? &st[idx[j]] : NULL;
        uint64_t bytes = a->bytes;
        if (!b || (side ? b->to : b->from) != (int32_t)i || b->bytes != a->bytes)
          return -1; /* the messages pair what they can (coll_slot) */
        /* the message's sender and receiver (no slot: an 88-byte slot zeroed per message
         * was 2 % of the run at 4,096 ranks) */
        uint32_t snd = side ? (uint32_t)j : i, rcv = side ? i : (uint32_t)j;
        double d =
            closed_done(s, c->members[snd], c->members[rcv], bytes, post[snd], post[rcv], side);
        if (d > done) done = d;
        msgs += !side;
      }
      t[i] = done;
    }
    uint32_t next = UINT32_MAX;
    for (uint32_t i = 0; i < p; i++) {
      if (IN_ROUND(i)) {
        idx[i]++;
        cur[i] = idx[i] < off[i + 1] ? st[idx[i]].tag : UINT32_MAX;
        post[i] = t[i];
      }
      if (cur[i] < next) next = cur[i];
    }
    tag = next;
#undef IN_ROUND
  }
  s->messages += msgs;
  s->events += 2 * msgs;
  return 0;
}

/* Messages take no time and calls none (POP's ideal network, augur_pop_ideal_machine):
 * in a collective where every member waits for every other, a member's round ends at the
 * latest of its own and its partners' previous rounds, so after the last round every member
 * leaves when the last entered. */
static int instant_net(const augur_machine *m) {
  return m->overhead == 0 && m->latency == 0 && m->shm_latency == 0 && m->hop_latency == 0 &&
         isinf(m->bandwidth) && isinf(m->shm_bandwidth);
}

/* Rank R (at its clock, after the call's overhead) enters collective OP:
 * 1 if it left it (it was the last member: all left), 0 if it waits for
 * the last one (BLK_CLOSED), -1 if this instance runs as messages. */
static int closed_enter(sim *s, uint32_t r, const augur_sim_op *op) {
  if (!s->closed || !sim_coll_waits_all(op->type)) return -1;
  const sim_comm *c = &s->g->comms[op->comm];
  int64_t me = sim_comm_rank(c, r);
  if (c->size <= 1 || me < 0) return -1;
  rrun *rr = &s->r[r];
  int32_t root = op->peer >= 0 ? (int32_t)sim_comm_rank(c, (uint32_t)op->peer) : -1;
  cinst *ci = closed_find(s, op->a);
  if (!ci) {
    /* As messages (no record) when a member's steps are too many, or a
     * world rank is twice in the communicator (the count of entries
     * would not say "all"); the members decide alike. */
    int rot = 0;
    size_t nsteps = sim_coll_steps_rot(s->m, op->type, c, 0, root, op->b, NULL, 0, &rot);
    /* Over CLOSED_MAX_STEPS (rings and pairwise exchanges of more than 32 members: p - 1
     * steps each): on an instant network all at once without steps, every member sending
     * once a step, p x the steps (report's ideal-network replay of 200 MPI_Alltoall of
     * 1,024 members took 9.6 s as messages); otherwise round by round, rings and pairwise
     * exchanges without keeping steps (closed_rotating), others with up to
     * CLOSED_MAX_TOTAL */
    uint64_t instant = 0;
    if (nsteps > CLOSED_MAX_STEPS) {
      if (instant_net(s->m))
        instant = (uint64_t)c->size * nsteps;
      else if (!rot && (uint64_t)c->size * nsteps > CLOSED_MAX_TOTAL)
        return -1;
    }
    for (uint32_t i = 1; i < c->size; i++)
      if (c->byworld[i] >> 32 == c->byworld[i - 1] >> 32) return -1;
    if (aug_grow((void **)&s->ci, &s->ci_cap, s->nci + 1, sizeof *s->ci)) {
      s->nomem = 1;
      return 0;
    }
    ci = &s->ci[s->nci];
    *ci = (cinst){op->a, op->comm, c->size, 0, op->type, root, 0, op->b, NULL, NULL, instant};
    ci->t = malloc(c->size * sizeof *ci->t);
    ci->who = malloc(c->size * sizeof *ci->who);
    if (!ci->t || !ci->who) {
      free(ci->t);
      free(ci->who);
      s->nomem = 1;
      return 0;
    }
    s->nci++;
  } else if (ci->type != op->type || ci->bytes != op->b || ci->root != root) {
    ci->mixed = 1;
  }
  rr->t_coll = rr->t;
  ci->t[me] = rr->t;
  ci->who[ci->arrived++] = r;
  if (ci->arrived < ci->p) {
    rr->blocked = BLK_CLOSED;
    return 0;
  }
  int rc = ci->mixed ? -1 : closed_run(s, ci);
  if (rc == 0) {
    for (uint32_t i = 0; i < ci->p; i++) {
      uint32_t w = c->members[i];
      rrun *q = &s->r[w];
      q->t = ci->t[i];
      q->acc.sync_wait += q->t - q->t_coll;
      if (w == r) continue;
      q->blocked = BLK_NONE;
      q->pc++;
      ready_push(s, w);
    }
  } else if (!stopped(s)) {
    /* As messages after all: the members that wait post their steps in
     * the order they entered, then R (its caller). */
    for (uint32_t k = 0; k + 1 < ci->arrived; k++) {
      uint32_t w = ci->who[k];
      rrun *q = &s->r[w];
      q->blocked = BLK_COLL;
      coll_begin(s, w, op_at(s, w));
      if (coll_advance(s, w)) {
        q->blocked = BLK_NONE;
        q->pc++;
        ready_push(s, w);
      }
    }
  }
  free(ci->t);
  free(ci->who);
  *ci = s->ci[--s->nci];
  return rc == 0 ? 1 : -1;
}

static int is_alltoall(unsigned type) {
  return type == AUGUR_EV_ALLTOALL || type == AUGUR_EV_ALLTOALLV || type == AUGUR_EV_ALLTOALLW ||
         type == AUGUR_EV_IALLTOALL || type == AUGUR_EV_IALLTOALLV || type == AUGUR_EV_IALLTOALLW;
}

/* sim_src_progress's period, in operations, less one */
#define PROGRESS_EVERY ((1u << 14) - 1)

static void run_rank(sim *s, uint32_t r) {
  rrun *rr = &s->r[r];
  const double o = s->m->overhead, speed = s->m->cpu_speed;
  while (!stopped(s) && have_op(s, r)) {
    const augur_sim_op *op = op_at(s, r);
    if ((++s->ops & PROGRESS_EVERY) == 0 && s->src) sim_src_progress(s->src, s->ops);
    switch (op->kind) {
    case AUGUR_SIM_COMPUTE: {
      /* CPU work at the model's speed; with a recorded CPU time the rest
       * of the burst is off the CPU (sleep, I/O, or preempted when it was
       * recorded): the burst lasts at least that plus its CPU work. */
      double wall = (double)op->a * 1e-9;
      double cpu = op->flags & AUGUR_SIM_F_CPU ? (double)op->b * 1e-9 : wall;
      /* Under time slices the other work is in the turns' cycle. */
      double eff = rr->win_len > 0 && !(s->m->cpu_quota > 0) ? 1 : s->cpu_eff;
      double dt = cpu / speed, alone = wall - cpu + dt / eff;
      if (rr->shared && dt > 0) {
        /* Its speed depends on the node's other ranks from now on: the
         * queue orders it with them. */
        rr->crem = dt;
        rr->cfloor = rr->t + alone;
        rr->blocked = BLK_COMPUTE;
        schedule(s, rr->t, EV_CSTART, r, 0);
        return;
      }
      double t0 = rr->t;
      cpu_work(rr, dt / eff, &rr->acc.compute);
      if (rr->t < t0 + alone) {
        rr->acc.compute += t0 + alone - rr->t;
        rr->t = t0 + alone;
      }
      break;
    }
    case AUGUR_SIM_LOCAL: {
      if (op->flags & AUGUR_SIM_F_MODEL) { /* I/O, one-sided (graph_iorma.c) */
        int near = op->peer < 0 || (uint32_t)op->peer >= s->g->nranks ||
                   same_node(s, r, (uint32_t)op->peer);
        /* calibrated with a core per rank, as the overhead and copies */
        wall_work(s, rr, o + sim_iorma_cost(s->m, op, near), &rr->acc.mpi);
        break;
      }
      wall_work(s, rr, (double)op->a * 1e-9, &rr->acc.mpi);
      break;
    }
    case AUGUR_SIM_SEND:
    case AUGUR_SIM_RECV: {
      wall_work(s, rr, o, &rr->acc.mpi);
      if (op->flags & AUGUR_SIM_F_UNMATCHED) break;
      int send = op->kind == AUGUR_SIM_SEND;
      uint32_t v = (uint32_t)op->a;
      if (send)
        post_send(s, v, rr->t);
      else
        post_recv(s, v, rr->t);
      if (op->flags & AUGUR_SIM_F_NONBLOCKING) {
        if (s->src) req_open(s, r, op);
        break;
      }
      double d = slot_done(&s->slots[v], send);
      if (d >= 0) {
        wait_until(rr, d, send ? &rr->acc.send_wait : &rr->acc.recv_wait);
        release(s, v);
        break;
      }
      rr->blocked = send ? BLK_SEND : BLK_RECV;
      rr->bslot = v;
      rr->t_block = rr->t;
      return;
    }
    case AUGUR_SIM_WAIT: {
      wall_work(s, rr, o, &rr->acc.mpi);
      double d;
      int recv;
      if (wait_open(s, r, op)) return;
      if (wait_done(s, r, &d, &recv)) {
        wait_until(rr, d, recv ? &rr->acc.recv_wait : &rr->acc.send_wait);
        wait_finish(s, r);
        break;
      }
      wait_quiet(s, r);
      rr->blocked = BLK_WAIT;
      rr->t_block = rr->t;
      return;
    }
    case AUGUR_SIM_COLL:
      wall_work(s, rr, o, &rr->acc.mpi);
      if (op->flags & AUGUR_SIM_F_UNMATCHED) break;
      /* All-to-all: the rank copies its own block too (MPICH's and Open
       * MPI's algorithms start with it), a memory copy. */
      if (is_alltoall(op->type)) {
        wall_work(s, rr, augur_machine_shm_copy(s->m, op->b), &rr->acc.mpi);
        /* Its receive buffer new (the recorder's flags): what the first
         * receive into it costs, for all it receives (a block per member). */
        unsigned fl = (op->flags & AUGUR_SIM_F_FRESH ? AUGUR_SIM_MSG_FRESH : 0) |
                      (op->flags & AUGUR_SIM_F_UNTOUCHED ? AUGUR_SIM_MSG_UNTOUCHED : 0);
        if (fl)
          wall_work(s, rr, recv_extra(s, op->b * s->g->comms[op->comm].size, fl), &rr->acc.mpi);
      }
      int cl = closed_enter(s, r, op);
      if (cl == 0) return;
      if (cl > 0) break;
      coll_begin(s, r, op);
      if (!coll_advance(s, r)) {
        rr->blocked = BLK_COLL;
        rr->t_block = rr->t;
        return;
      }
      break;
    default:
      break;
    }
    rr->pc++;
  }
  if (stopped(s)) return;
  rr->ended = 1;
  rr->acc.finish = rr->t;
}

static void wake(sim *s, uint32_t r) {
  rrun *rr = &s->r[r];
  if (rr->blocked == BLK_NONE) return;
  const uint32_t v = rr->bslot;
  switch (rr->blocked) {
  case BLK_SEND:
  case BLK_RECV: {
    const int send = rr->blocked == BLK_SEND;
    const double done = slot_done(&s->slots[v], send);
    if (done >= 0) {
      release(s, v);
      resume(s, r, done, send ? &rr->acc.send_wait : &rr->acc.recv_wait);
    }
    return;
  }
  case BLK_WAIT: {
    double d;
    int recv;
    if (wait_done(s, r, &d, &recv)) {
      wait_finish(s, r);
      resume(s, r, d, recv ? &rr->acc.recv_wait : &rr->acc.send_wait);
    }
    return;
  }
  case BLK_COLL:
    if (coll_advance(s, r)) {
      rr->blocked = BLK_NONE;
      rr->pc++;
      run_rank(s, r);
    }
    return;
  default:
    return;
  }
}

static const char *kind_name(unsigned k) {
  switch (k) {
  case AUGUR_SIM_SEND:
    return "send";
  case AUGUR_SIM_RECV:
    return "receive";
  case AUGUR_SIM_WAIT:
    return "wait";
  case AUGUR_SIM_COLL:
    return "collective";
  default:
    return "operation";
  }
}

static int check_graph(const augur_sim_graph *g, augur_error *err) {
  for (uint32_t r = 0; r < g->nranks; r++) {
    const sim_rank_ops *ro = &g->ranks[r];
    for (size_t i = 0; i < ro->n; i++) {
      const augur_sim_op *op = &ro->ops[i];
      if (op->flags & AUGUR_SIM_F_UNMATCHED) continue;
      int bad = 0;
      if (op->kind == AUGUR_SIM_SEND || op->kind == AUGUR_SIM_RECV) {
        bad = op->a >= g->nmsgs ||
              (op->kind == AUGUR_SIM_SEND ? g->msgs[op->a].sender : g->msgs[op->a].receiver) != r;
      } else if (op->kind == AUGUR_SIM_WAIT) {
        bad = op->a + op->b > g->nwaits;
        for (uint64_t k = 0; !bad && k < op->b; k++) {
          uint32_t w = g->waits[op->a + k];
          bad = w >= ro->n ||
                (ro->ops[w].kind != AUGUR_SIM_SEND && ro->ops[w].kind != AUGUR_SIM_RECV) ||
                !(ro->ops[w].flags & (AUGUR_SIM_F_NONBLOCKING | AUGUR_SIM_F_UNMATCHED));
        }
      } else if (op->kind == AUGUR_SIM_COLL) {
        bad = op->comm >= g->ncomms;
      } else if (op->kind > AUGUR_SIM_COLL) {
        bad = 1;
      }
      if (bad)
        return augur_fail(err, AUGUR_E_ARG, "execution graph: rank %u op %zu (%s) is inconsistent",
                          r, i, kind_name(op->kind));
    }
  }
  return AUGUR_OK;
}

/* What one replay runs: a graph in memory (G), or trace T streamed with
 * the what-ifs WIN and O (GS: where the stream's counts go). */
typedef struct sim_input {
  const augur_sim_graph *g;
  augur_trace *t;
  const sim_windows *win;
  const augur_sim_trace_opts *o;
  augur_sim_graph_stats *gs;
} sim_input;

/* The machine model's values the simulator divides by or adds up. */
static int machine_check(const augur_machine *m, augur_error *err) {
  if (!(m->cpu_speed > 0) || !(m->bandwidth > 0) || !(m->shm_bandwidth > 0) || m->latency < 0 ||
      m->shm_latency < 0 || m->overhead < 0 || !(m->hop_latency >= 0) ||
      m->fattree_uplink_bandwidth < 0 || !(m->shm_large_bandwidth >= 0))
    return augur_fail(err, AUGUR_E_ARG,
                      "machine model: speeds and bandwidths must be > 0, latencies >= 0");
  if (!(m->cpu_background_load >= 0 && m->cpu_background_load < 1))
    return augur_fail(err, AUGUR_E_ARG, "machine model: background load must be in [0, 1), got %g",
                      m->cpu_background_load);
  return AUGUR_OK;
}

static int sim_nomem(augur_error *err) {
  return augur_fail(err, AUGUR_E_NOMEM, "out of memory while simulating");
}

/* S, empty, on IN's graph: checked if in memory, else the stream opened
 * and started (s->src_rc says if it failed). On failure nothing is held. */
static int sim_open(sim *s, const sim_input *in, const augur_machine *m, augur_error *err) {
  memset(s, 0, sizeof *s);
  s->m = m;
  s->free_slot = s->free_flow = NONE32;
  const augur_sim_graph *g = in->g;
  int rc;
  if (g) {
    rc = check_graph(g, err);
    if (rc < 0) return rc;
  } else {
    /* Streaming: the builder makes operations consistent by construction. */
    rc = sim_src_open(&s->src, in->t, in->win, in->o->sites, in->o->nsites, err);
    if (rc < 0) return rc;
    sim_src_set_msg(s->src, stream_msg, s);
    sim_src_set_progress(s->src, in->o->progress, in->o->progress_arg);
    s->src_rc = sim_src_start(s->src);
    g = sim_src_graph(s->src);
  }
  s->g = g;
  return AUGUR_OK;
}

/* The ranks, nodes, network resources, processor sharing and time slices
 * of replay VARIANT (*VARIANTS, if not NULL: how many there are), and the
 * graph's message slots; RES->ranks allocated. A failure (or the stream's,
 * s->src_rc < 0) leaves what was made for sim_close. */
static int sim_setup(sim *s, uint32_t variant, uint32_t *variants, augur_sim_result *res,
                     augur_error *err) {
  const augur_sim_graph *g = s->g;
  const augur_machine *m = s->m;
  s->cpu_eff = 1 - m->cpu_background_load;
  uint32_t n = g->nranks, maxnode = 0;
  s->r = calloc(n, sizeof *s->r);
  s->node = calloc(n, sizeof *s->node);
  res->ranks = calloc(n, sizeof *res->ranks);
  if (!s->r || !s->node || !res->ranks) return sim_nomem(err);
  for (uint32_t r = 0; r < n; r++) {
    s->node[r] = augur_machine_node(m, r);
    if (s->node[r] > maxnode) maxnode = s->node[r];
    s->r[r].t = g->ranks[r].start;
    s->r[r].n = g->ranks[r].n;
  }
  uint32_t nnodes = maxnode + 1;
  int rc = sim_topo_init(&s->topo, m, nnodes, err);
  if (rc < 0) return rc;
  s->res_n = calloc(s->topo.nres, sizeof *s->res_n);
  /* Ranks per node (counting sort by node) for processor sharing. */
  s->node_off = calloc((size_t)nnodes + 1, sizeof *s->node_off);
  s->node_ranks = calloc(n, sizeof *s->node_ranks);
  s->cpu_n = calloc(nnodes, sizeof *s->cpu_n);
  s->cpu_t = calloc(nnodes, sizeof *s->cpu_t);
  if (!s->res_n || !s->node_off || !s->node_ranks || !s->cpu_n || !s->cpu_t) return sim_nomem(err);
  for (uint32_t r = 0; r < n; r++)
    s->node_off[s->node[r] + 1]++;
  for (uint32_t i = 0; i < nnodes; i++)
    s->node_off[i + 1] += s->node_off[i];
  for (uint32_t r = 0; r < n; r++)
    s->node_ranks[s->node_off[s->node[r]] + s->cpu_n[s->node[r]]++] = r;
  memset(s->cpu_n, 0, nnodes * sizeof *s->cpu_n);
  if (own_windows(s, nnodes, variant)) return sim_nomem(err);
  if (variants) *variants = s->variants;
  for (uint32_t r = 0; r < n; r++) {
    /* A rank with windows takes turns instead of sharing finely. */
    uint32_t nd = s->node[r];
    s->r[r].shared = m->cpu_cores > 0 && s->node_off[nd + 1] - s->node_off[nd] > m->cpu_cores &&
                     s->r[r].win_len <= 0;
    s->r[r].t = own_next(&s->r[r], s->r[r].t);
  }
  /* Without flows and processor sharing the order of one time's events
   * changes nothing: arrivals can be scheduled at the transfer's start. */
  s->direct = !sim_topo_shared(&s->topo);
  for (uint32_t r = 0; r < n && s->direct; r++)
    s->direct = !s->r[r].shared;
  /* ...and without time slices a collective's messages can run all at
   * once (closed_enter). */
  s->deliver = s->direct && !deliver_off();
  s->closed = s->direct && !closed_off();
  for (uint32_t r = 0; r < n && s->closed; r++)
    s->closed = !(s->r[r].win_len > 0);
  s->ready = malloc(n * sizeof *s->ready);
  s->ident = malloc(n * sizeof *s->ident);
  s->wakeq = malloc(n * sizeof *s->wakeq);
  s->waking = calloc(n, 1);
  if (!s->ready || !s->ident || !s->wakeq || !s->waking) return sim_nomem(err);
  for (uint32_t r = 0; r < n; r++)
    s->ident[r] = r;
  /* Point-to-point messages of a graph occupy slots 0..nmsgs-1. */
  if (aug_grow_aligned((void **)&s->slots, &s->slot_cap, g->nmsgs ? g->nmsgs : 1, sizeof *s->slots,
                       64))
    return sim_nomem(err);
  if (s->src_rc < 0) return AUGUR_OK;
  if (!s->src) s->nslots = g->nmsgs; /* streaming: the messages read so far have theirs */
  for (size_t i = 0; i < g->nmsgs; i++) {
    mslot *ms = &s->slots[i];
    memset(ms, 0, sizeof *ms);
    ms->spost = ms->rpost = ms->arrive = -1;
    ms->bytes = g->msgs[i].bytes;
    ms->src = g->msgs[i].sender;
    ms->dst = g->msgs[i].receiver;
    ms->inst = UINT64_MAX;
    ms->rndv = (uint8_t)slot_rndv(s, ms->bytes, (int)(g->msgs[i].flags & AUGUR_SIM_MSG_SYNC));
    ms->extra = recv_extra(s, ms->bytes, g->msgs[i].flags);
    ms->next_free = NONE32;
  }
  s->messages += g->nmsgs;
  return AUGUR_OK;
}

/* The ranks a queue runs next, N1 then N2 (NONE32: none): at thousands of ranks each is
 * a cache miss or three (its rrun, its entry in the graph, its operation, the slot it is
 * blocked on), asked for while the rank before runs. N2's rrun and graph entry first; N1's
 * operation and slot, from the lines asked for one pop earlier. */
static void queue_prefetch(const sim *s, uint32_t n1, uint32_t n2) {
  if (n2 != NONE32) {
    rrun_prefetch(&s->r[n2]);
    AUG_PREFETCH(&s->g->ranks[n2]);
  }
  if (n1 == NONE32) return;
  const sim_rank_ops *ro = &s->g->ranks[n1];
  const rrun *rr = &s->r[n1];
  if (rr->pc >= ro->base && rr->pc - ro->base < ro->n) AUG_PREFETCH(&ro->ops[rr->pc - ro->base]);
  if (rr->blocked != BLK_NONE && rr->bslot < s->slot_cap) AUG_PREFETCH(&s->slots[rr->bslot]);
}

/* Every rank runs ahead as far as it can, then the queue's events in time
 * order, until the queue is empty or the run stopped (out of memory, the
 * stream failed). */
static void sim_loop(sim *s) {
  const uint32_t n = s->g->nranks;
  for (uint32_t r = 0; r < n && !stopped(s); r++)
    run_rank(s, r);
  while (!stopped(s)) {
    if (s->wn) { /* direct: ranks an arrival may have let go on */
      uint32_t r = s->wakeq[s->whead];
      s->whead = (s->whead + 1) % n;
      s->wn--;
      s->waking[r] = 0;
      if (s->wn)
        queue_prefetch(s, s->wakeq[s->whead], s->wn > 1 ? s->wakeq[(s->whead + 1) % n] : NONE32);
      wake(s, r);
      continue;
    }
    if (s->rn) { /* ranks whose collective ran all at once */
      uint32_t r = s->ready[s->rhead];
      s->rhead = (s->rhead + 1) % n;
      s->rn--;
      if (s->rn)
        queue_prefetch(s, s->ready[s->rhead], s->rn > 1 ? s->ready[(s->rhead + 1) % n] : NONE32);
      run_rank(s, r);
      continue;
    }
    if (heap_empty(&s->q)) break;
    hev e = heap_pop(&s->q);
    const double et = key_time(e.key);
    s->events++;
    /* At thousands of ranks the next event's slot and rank are cache
     * misses: ask for them while this one runs (an arrival's VER is the
     * receiver; the next event may yet change, the hint is then wasted). */
    const hev *nx = heap_peek(&s->q);
    if (nx && (nx->sk & 7) <= EV_ARRIVE) {
      AUG_PREFETCH(&s->slots[nx->idx]);
      if ((nx->sk & 7) == EV_ARRIVE) rrun_prefetch(&s->r[nx->ver]);
    }
    switch (e.sk & 7) {
    case EV_XFER:
      xfer(s, e.idx, et);
      break;
    case EV_ARRIVE:
      arrive(s, e.idx, et);
      break;
    case EV_FLOWDONE:
      flow_done(s, e.idx, e.ver, et);
      break;
    case EV_CSTART:
      cpu_start(s, e.idx, et);
      break;
    case EV_CDONE:
      cpu_done(s, e.idx, e.ver, et);
      break;
    default:
      break;
    }
  }
  AUG_CHECK(heap_check(&s->q));
}

/* After the loop: the run's result into RES, or why there is none (out of
 * memory, the stream's error, a rank that never ended). */
static int sim_results(sim *s, augur_sim_result *res, augur_error *err) {
  const augur_sim_graph *g = s->g;
  const uint32_t n = g->nranks;
  if (s->nomem) return sim_nomem(err);
  /* Streaming: the ranks may end before the trace does (what follows their
   * MPI_Finalize); the rest is read for the measured time and the counts,
   * and a damaged end fails as it does in memory. */
  if (s->src && s->src_rc == 0) s->src_rc = sim_src_drain(s->src);
  if (s->src_rc < 0) return s->src_rc;
  for (uint32_t r = 0; r < n; r++) {
    const rrun *rr = &s->r[r];
    if (!rr->ended) {
      const augur_sim_op *op = op_at(s, r);
      size_t total = (size_t)(g->ranks[r].base + g->ranks[r].n);
      return augur_fail(
          err, AUGUR_E_STATE,
          "simulation stalled: rank %u waits forever in %s %s (operation %zu of %zu); "
          "the graph's messages do not pair up",
          r, kind_name(op->kind), augur_event_name(op->type), rr->pc, total);
    }
  }
  res->nranks = n;
  for (uint32_t r = 0; r < n; r++) {
    res->ranks[r] = s->r[r].acc;
    if (s->r[r].acc.finish > res->predicted_seconds) res->predicted_seconds = s->r[r].acc.finish;
  }
  res->ops = s->ops;
  res->messages = s->messages;
  res->heap_events = s->events;
  res->peak_inflight = s->peak;
  return AUGUR_OK;
}

/* Ends replay S whose outcome so far is RC: the stream's error wins, the
 * stream's counts go to IN->gs, RES->ranks goes on failure, and everything
 * S holds is freed. Returns the outcome. */
static int sim_close(sim *s, const sim_input *in, int rc, augur_sim_result *res, augur_error *err) {
  const uint32_t n = s->g->nranks;
  if (s->src_rc < 0 && !s->nomem) {
    rc = s->src_rc;
    *err = *sim_src_error(s->src);
  }
  if (s->src && rc == AUGUR_OK && in->gs) {
    /* What the stream held at most, with the simulator's slots and requests. */
    sim_src_stats(s->src, in->gs);
    in->gs->bytes += s->slot_cap * sizeof *s->slots;
    /* collectives run all at once: their steps and round arrays */
    in->gs->bytes +=
        s->cst_cap * sizeof *s->cst + s->ctmp_cap * sizeof *s->ctmp +
        s->cp_cap * (sizeof *s->coff + sizeof *s->cidx + sizeof *s->cpost + sizeof *s->ccur);
    for (uint32_t r = 0; r < n; r++)
      in->gs->bytes += s->r[r].req_cap * sizeof *s->r[r].req + s->r[r].wq_cap * sizeof *s->r[r].wq;
  }
  if (rc < 0) {
    free(res->ranks);
    res->ranks = NULL;
  }
  if (s->r)
    for (uint32_t r = 0; r < n; r++) {
      free(s->r[r].steps);
      free(s->r[r].grp);
      free(s->r[r].req);
      free(s->r[r].wq);
    }
  sim_src_close(s->src);
  free(s->r);
  free(s->node);
  free(s->slots);
  free(s->ctab);
  for (size_t i = 0; i < s->nci; i++) {
    free(s->ci[i].t);
    free(s->ci[i].who);
  }
  free(s->ci);
  free(s->ready);
  free(s->wakeq);
  free(s->waking);
  free(s->ident);
  free(s->cst);
  free(s->ctmp);
  free(s->coff);
  free(s->cidx);
  free(s->ccur);
  free(s->cpost);
  free(s->q.h);
  free(s->q.ring);
  free(s->flows);
  free(s->active);
  sim_topo_free(&s->topo);
  free(s->res_n);
  free(s->node_off);
  free(s->node_ranks);
  free(s->cpu_n);
  free(s->cpu_t);
  return rc;
}

/* One replay, VARIANT of the ones the prediction averages (own_windows);
 * *VARIANTS (if not NULL) says how many there are. */
static int sim_run(const sim_input *in, const augur_machine *m, uint32_t variant,
                   uint32_t *variants, augur_sim_result *res, augur_error *err) {
  memset(res, 0, sizeof *res);
  int rc = machine_check(m, err);
  if (rc < 0) return rc;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  sim s;
  rc = sim_open(&s, in, m, err);
  if (rc < 0) return rc;
  rc = sim_setup(&s, variant, variants, res, err);
  if (rc == AUGUR_OK && s.src_rc >= 0) {
    sim_loop(&s);
    rc = sim_results(&s, res, err);
    if (rc == AUGUR_OK) {
      clock_gettime(CLOCK_MONOTONIC, &t1);
      res->wall_seconds =
          (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    }
  }
  return sim_close(&s, in, rc, res, err);
}

/* A = WA x A + WB x B, field by field. */
static void rank_mix(augur_sim_rank *a, double wa, const augur_sim_rank *b, double wb) {
  a->compute = wa * a->compute + wb * b->compute;
  a->send_wait = wa * a->send_wait + wb * b->send_wait;
  a->recv_wait = wa * a->recv_wait + wb * b->recv_wait;
  a->sync_wait = wa * a->sync_wait + wb * b->sync_wait;
  a->mpi = wa * a->mpi + wb * b->mpi;
  a->finish = wa * a->finish + wb * b->finish;
}

/* The mean of the replays (own_windows): times are means; the counts
 * (operations, messages) add up, the work the simulator did. */
static int sim_phases(const sim_input *in, const augur_machine *m, augur_sim_result *res,
                      augur_error *err) {
  uint32_t nv = 1;
  int rc = sim_run(in, m, 0, &nv, res, err);
  if (nv < 2 || rc != AUGUR_OK) return rc;
  const double w = 1.0 / nv;
  res->predicted_seconds *= w;
  for (uint32_t r = 0; r < res->nranks; r++)
    rank_mix(&res->ranks[r], w, &res->ranks[r], 0);
  for (uint32_t k = 1; k < nv; k++) {
    augur_sim_result one;
    sim_input again = *in;
    again.gs = NULL; /* the first run's counts */
    rc = sim_run(&again, m, k, NULL, &one, err);
    if (rc != AUGUR_OK) {
      augur_sim_result_free(res);
      return rc;
    }
    res->predicted_seconds += w * one.predicted_seconds;
    for (uint32_t r = 0; r < res->nranks; r++)
      rank_mix(&res->ranks[r], 1, &one.ranks[r], w);
    res->ops += one.ops;
    res->messages += one.messages;
    res->heap_events += one.heap_events;
    res->wall_seconds += one.wall_seconds;
    if (one.peak_inflight > res->peak_inflight) res->peak_inflight = one.peak_inflight;
    augur_sim_result_free(&one);
  }
  return AUGUR_OK;
}

/* With recorded placements (m->nplacements, docs/simulate.md "Recorded
 * placement"): the replays of each, combined by the part of the run it
 * held. A run spending shares w_k of its time T in placements whose
 * replays take T_k does a part a_k = w_k T / T_k of its work in each, so
 * T = 1 / sum(w_k / T_k), and a rank's times are sum(a_k x its times in
 * placement k). Otherwise sim_phases. */
static int sim_placed(const sim_input *in, const augur_machine *m, augur_sim_result *res,
                      augur_error *err) {
  if (!m->rank_cpu || m->nplacements < 2) return sim_phases(in, m, res, err);
  uint32_t np = m->nplacements;
  augur_sim_result *one = calloc(np, sizeof *one);
  if (!one) return augur_fail(err, AUGUR_E_NOMEM, "simulate: out of memory");
  int rc = AUGUR_OK;
  double inv = 0, wsum = 0;
  for (uint32_t k = 0; k < np && rc == AUGUR_OK; k++) {
    augur_machine mk = *m;
    mk.rank_cpu = m->rank_cpu + (size_t)k * m->nrank_cpu;
    mk.placement_share = NULL;
    mk.nplacements = 1;
    sim_input again = *in;
    if (k) again.gs = NULL; /* the first run's counts */
    rc = sim_phases(&again, &mk, &one[k], err);
    if (rc == AUGUR_OK && one[k].predicted_seconds > 0) {
      inv += m->placement_share[k] / one[k].predicted_seconds;
      wsum += m->placement_share[k];
    }
  }
  if (rc == AUGUR_OK) {
    double T = inv > 0 ? wsum / inv : 0; /* shares renormalized over the placements */
    *res = one[0];
    res->predicted_seconds = T;
    res->ops = res->messages = res->heap_events = 0;
    res->wall_seconds = 0;
    res->ranks = calloc(res->nranks ? res->nranks : 1, sizeof *res->ranks);
    if (!res->ranks) rc = augur_fail(err, AUGUR_E_NOMEM, "simulate: out of memory");
    for (uint32_t k = 0; k < np && rc == AUGUR_OK; k++) {
      const augur_sim_result *o = &one[k];
      double a = o->predicted_seconds > 0 && wsum > 0
                     ? m->placement_share[k] / wsum * T / o->predicted_seconds
                     : 0;
      for (uint32_t r = 0; r < res->nranks && r < o->nranks; r++)
        rank_mix(&res->ranks[r], 1, &o->ranks[r], a);
      res->ops += o->ops;
      res->messages += o->messages;
      res->heap_events += o->heap_events;
      res->wall_seconds += o->wall_seconds;
      if (o->peak_inflight > res->peak_inflight) res->peak_inflight = o->peak_inflight;
    }
  }
  for (uint32_t k = 0; k < np; k++)
    augur_sim_result_free(&one[k]);
  free(one);
  return rc;
}

int augur_simulate(const augur_sim_graph *g, const augur_machine *m, augur_sim_result *res,
                   augur_error *err) {
  sim_input in = {g, NULL, NULL, NULL, NULL};
  return sim_placed(&in, m, res, err);
}

int augur_simulate_trace(augur_trace *t, const augur_machine *m, const augur_sim_trace_opts *o,
                         augur_sim_result *res, augur_sim_graph_stats *gs, augur_error *err) {
  static const augur_sim_trace_opts none;
  if (!o) o = &none;
  memset(res, 0, sizeof *res);
  for (size_t i = 0; i < o->nsites; i++)
    if (!(o->sites[i].factor > 0) || o->sites[i].factor > 1e300)
      return augur_fail(err, AUGUR_E_ARG, "--scale: the factor of call site %u must be > 0",
                        o->sites[i].site);
  sim_windows win = {NULL, NULL};
  uint32_t nwin = 0;
  if (o->nphases) {
    int rc = sim_windows_build(t, o->phases, o->nphases, &win, &nwin, err);
    if (rc != AUGUR_OK) return rc;
  }
  sim_input in = {NULL, t, o->nphases ? &win : NULL, o, gs};
  int rc = sim_placed(&in, m, res, err);
  sim_windows_free(&win, nwin);
  return rc;
}

void augur_sim_result_free(augur_sim_result *r) {
  free(r->ranks);
  r->ranks = NULL;
}
