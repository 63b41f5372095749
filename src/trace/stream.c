/* augur — rank streams (threads merged, peers translated, completions
 * paired, global times) and the merged stream (k-way merge over ranks). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "augur/mpiio.h"
#include "check.h"
#include "grow.h"
#include "hugealloc.h"
#include "idletab.h"
#include "prefetch.h"
#include "reader_int.h"
#include "subrec.h"

#define BATCH 256 /* events decoded at a time per thread cursor (at most) */
/* A merged stream of many ranks holds one batch per rank: from 64 ranks on
 * the batch shrinks so the batches take no more than 64 full ones (16 events
 * at least; issue 27: 30 KB per rank was a third of the memory at 4096). */
static uint32_t batch_for(uint32_t nranks) {
  uint32_t b = nranks > 64 ? BATCH * 64 / nranks : BATCH;
  return b < 16 ? 16 : b;
}

/* Per-type work the rank stream does (bit set per event type). */
enum {
  C_PEER = 1 << 0,       /* peer is comm-local: translate to world */
  C_PARENT = 1 << 1,     /* SENDRECV: its SUB_RECV inherits the comm */
  C_SUBRECV = 1 << 2,    /* SUB_RECV */
  C_ISEND = 1 << 3,      /* starts a send request */
  C_IRECV = 1 << 4,      /* starts a receive request */
  C_ICOLL = 1 << 5,      /* starts a collective request */
  C_PERSIST = 1 << 6,    /* *_INIT: the request is persistent */
  C_FREE = 1 << 7,       /* REQUEST_FREE */
  C_COMPLETION = 1 << 8, /* COMPLETION sub-record */
  C_IIO = 1 << 9,        /* starts an MPI-IO request (File_iread*, File_iwrite*) */
  C_IRMA = 1 << 10,      /* RPUT, RGET, RACCUMULATE, RGET_ACCUMULATE: starts an RMA request */
};

static unsigned classify(unsigned t) {
  unsigned k = 0;
  if ((t >= AUGUR_EV_SEND && t <= AUGUR_EV_IMRECV) ||
      (t >= AUGUR_EV_SEND_INIT && t <= AUGUR_EV_RECV_INIT) || augur_event_is_collective(t))
    k |= C_PEER;
  if (t == AUGUR_EV_NEIGH_SEND || t == AUGUR_EV_NEIGH_RECV) k |= C_PEER; /* comm set by recorder */
  if (augur_event_is_sendrecv(t)) k |= C_PARENT;
  if (t == AUGUR_EV_SUB_RECV) k |= C_SUBRECV;
  if (t >= AUGUR_EV_ISEND && t <= AUGUR_EV_IRSEND) k |= C_ISEND;
  if (t == AUGUR_EV_IRECV || t == AUGUR_EV_IMRECV) k |= C_IRECV;
  if (t >= AUGUR_EV_IBARRIER && t <= AUGUR_EV_IEXSCAN) k |= C_ICOLL;
  if (t >= AUGUR_EV_INEIGHBOR_ALLGATHER && t <= AUGUR_EV_INEIGHBOR_ALLTOALLW) k |= C_ICOLL;
  if (t >= AUGUR_EV_SEND_INIT && t <= AUGUR_EV_RSEND_INIT) k |= C_ISEND | C_PERSIST;
  if (t == AUGUR_EV_RECV_INIT) k |= C_IRECV | C_PERSIST;
  if (t == AUGUR_EV_REQUEST_FREE) k |= C_FREE;
  if (t == AUGUR_EV_COMPLETION) k |= C_COMPLETION;
  if (augur_io_is_nonblocking(t)) k |= C_IIO;
  if (augur_event_is_rma(t)) k |= C_PEER; /* target rank in the window's group */
  if (t >= AUGUR_EV_RPUT && t <= AUGUR_EV_RGET_ACCUMULATE) k |= C_IRMA;
  return k;
}

/* classify() of every type: the same for all streams, one table shared by
 * all of them (a copy per stream was 512 bytes per rank, and at 65,536
 * ranks a cache miss per record), filled when the library is loaded. */
static uint16_t cls_of[AUGUR_EV_MAX];

__attribute__((constructor)) static void cls_init(void) {
  for (unsigned i = 0; i < AUGUR_EV_MAX; i++)
    cls_of[i] = (uint16_t)classify(i);
}

/* ---- in-flight requests: handle -> what started it ---- */

typedef struct req_ent {
  uint64_t handle;
  uint64_t comm;
  uint64_t bytes, bytes_recv;
  int32_t peer, tag; /* peer already a world rank */
  uint16_t flags;    /* AUGUR_F_SENDREQ/RECVREQ/COLLREQ | PERSISTENT | INTER */
  uint16_t start;    /* type of the call that started it */
  uint16_t used;
  uint32_t qhead, qtail; /* later starts with the same handle (pool index + 1) */
} req_ent;

/* MPICH hands out one shared handle for every send that completed at once
 * (a "lightweight" request), so several in-flight requests can carry the same
 * handle value. Later starts of a handle already in flight queue behind it
 * (in the pool, linked through qhead) and completions take them in start
 * order. */
typedef struct reqtab {
  req_ent *e;
  size_t cap, n;
  req_ent *pool;
  uint32_t npool, freelist;
  size_t cappool;
} reqtab;

static int req_queue_push(reqtab *q, req_ent *x, const req_ent *info) {
  assert(x->used == 1 /* REQ_LIVE */ && info && !x->qhead == !x->qtail);
  uint32_t i = q->freelist;
  if (i) {
    q->freelist = q->pool[i - 1].qhead;
  } else {
    if (aug_grow((void **)&q->pool, &q->cappool, (size_t)q->npool + 1, sizeof *q->pool)) return -1;
    i = ++q->npool;
  }
  q->pool[i - 1] = *info;
  q->pool[i - 1].qhead = 0;
  if (x->qtail)
    q->pool[x->qtail - 1].qhead = i;
  else
    x->qhead = i;
  x->qtail = i;
  return 0;
}

static void req_queue_clear(reqtab *q, req_ent *x) {
  assert(x->used == 1 /* REQ_LIVE */ && !x->qhead == !x->qtail);
  while (x->qhead) {
    uint32_t i = x->qhead;
    x->qhead = q->pool[i - 1].qhead;
    q->pool[i - 1].qhead = q->freelist;
    q->freelist = i;
  }
  x->qtail = 0;
}

/* The one table that does not index with aug_mix64 (mix.h): it runs for
 * every request event, and a single multiply spreads request handles (an
 * MPICH handle's index in its low bits, an Open MPI pointer) well enough.
 * With aug_mix64 here bench/reader read 9 % fewer events/s (medians of 5
 * alternating runs, on a machine whose load made single runs vary by 40 %;
 * cachegrind: +0.5 % instructions), so the cheaper one stays. */
static size_t req_home(uint64_t h, size_t cap) {
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  return (size_t)h & (cap - 1);
}

/* Slots are empty (used 0), hold a request (1) or are idle (2): a handle
 * whose requests all completed keeps its slot; an idle slot counts as
 * absent. Sizing: idletab.h. */
enum { REQ_EMPTY = 0, REQ_LIVE = 1, REQ_IDLE = 2 };

#if AUG_CHECKS
/* The table holds: N counts the slots in use (live or idle) and stays
 * under half of CAP; each sits on its handle's probe chain (no empty slot
 * between its home and it); an idle slot queues nothing; a live slot's
 * queue runs from qhead to qtail through the pool; and every pool entry is
 * in exactly one queue or on the free list. */
static int req_check(const reqtab *q) {
  size_t used = 0, queued = 0, nfree = 0;
  if (q->cap ? !AUG_POW2(q->cap) || q->n * 2 > q->cap : q->n != 0) return 0;
  if (q->npool > q->cappool) return 0;
  for (size_t i = 0; i < q->cap; i++) {
    const req_ent *x = &q->e[i];
    if (x->used == REQ_EMPTY) continue;
    used++;
    if (x->used != REQ_LIVE && (x->used != REQ_IDLE || x->qhead || x->qtail)) return 0;
    for (size_t j = req_home(x->handle, q->cap); j != i; j = (j + 1) & (q->cap - 1))
      if (q->e[j].used == REQ_EMPTY) return 0;
    uint32_t last = 0;
    for (uint32_t k = x->qhead; k; k = q->pool[k - 1].qhead) {
      if (k > q->npool || ++queued > q->npool) return 0;
      last = k;
    }
    if (last != x->qtail) return 0;
  }
  for (uint32_t k = q->freelist; k; k = q->pool[k - 1].qhead)
    if (k > q->npool || ++nfree > q->npool) return 0;
  return used == q->n && queued + nfree == q->npool;
}
#endif

static req_ent *req_find(reqtab *q, uint64_t h) {
  if (!q->cap) return NULL;
  assert(AUG_POW2(q->cap) && q->n * 2 <= q->cap);
  for (size_t i = req_home(h, q->cap);; i = (i + 1) & (q->cap - 1)) {
    if (!q->e[i].used) return NULL;
    if (q->e[i].handle == h) return q->e[i].used == REQ_LIVE ? &q->e[i] : NULL;
  }
}

/* The slot for handle h, inserted if new (NULL if out of memory). Callers
 * fill the fields in place: no struct temporaries on the hot path. */
static req_ent *req_slot(reqtab *q, uint64_t h, int *fresh) {
  assert(q->cap ? AUG_POW2(q->cap) && q->n * 2 <= q->cap : q->n == 0);
  if (aug_idletab_full(q->n, q->cap)) {
    size_t live = 0;
    for (size_t i = 0; i < q->cap; i++)
      live += q->e[i].used == REQ_LIVE;
    size_t cap = !q->cap ? 16 : aug_idletab_cap(q->cap, live);
    req_ent *e = calloc(cap, sizeof *e);
    if (!e) return NULL;
    for (size_t i = 0; i < q->cap; i++) {
      if (q->e[i].used != REQ_LIVE) continue;
      size_t j = req_home(q->e[i].handle, cap);
      while (e[j].used)
        j = (j + 1) & (cap - 1);
      e[j] = q->e[i];
    }
    free(q->e);
    q->e = e;
    q->cap = cap;
    q->n = live;
    AUG_CHECK(req_check(q));
  }
  size_t i = req_home(h, q->cap);
  while (q->e[i].used && q->e[i].handle != h)
    i = (i + 1) & (q->cap - 1);
  *fresh = q->e[i].used != REQ_LIVE;
  if (*fresh) {
    if (!q->e[i].used) q->n++;
    q->e[i].used = REQ_LIVE;
    q->e[i].handle = h;
    q->e[i].qhead = q->e[i].qtail = 0;
  }
  return &q->e[i];
}

/* The handle has no request left: its slot goes idle. */
static void req_del(reqtab *q, req_ent *x) {
  assert(x->used == REQ_LIVE);
  req_queue_clear(q, x);
  x->used = REQ_IDLE;
}

/* A completion took x's oldest start: the next queued start (if any) takes
 * its place, else the handle leaves the table. */
static void req_pop(reqtab *q, req_ent *x) {
  assert(x->used == REQ_LIVE && !x->qhead == !x->qtail);
  uint32_t i = x->qhead;
  if (!i) {
    req_del(q, x);
    return;
  }
  req_ent *n = &q->pool[i - 1];
  x->comm = n->comm;
  x->bytes = n->bytes;
  x->bytes_recv = n->bytes_recv;
  x->peer = n->peer;
  x->tag = n->tag;
  x->flags = n->flags;
  x->start = n->start;
  x->qhead = n->qhead;
  if (!x->qhead) x->qtail = 0;
  n->qhead = q->freelist;
  q->freelist = i;
}

/* ---- streams ---- */

typedef struct cursor {
  uint32_t thread;
  const aug_block *blocks; /* the block list of the cursor's kind (MPI or OpenMP) */
  size_t nblocks;
  size_t next_block; /* next index in that list to consider */
  uint64_t block_off;
  int in_block, done;
  int pending;      /* error held back until the events before it are out */
  uint64_t fail_ns; /* with pending: local time it belongs at (threads merge by time) */
  char *errmsg;     /* with pending: the message (put_msg) */
  uint8_t *stored, *raw;
  size_t stored_cap, raw_cap;
  aug_evdec *dec;
  int carved; /* the cursor, its decoder and buffers live in the merged stream's arena */
  int whole;  /* carved, every block fits the batch: dec and raw are the merged stream's (wdec) */
  uint32_t n, pos, cap; /* ev[pos..n) to hand out; room for cap */
  augur_event ev[];     /* the batch */
} cursor;
#define CURSOR_SIZE(batch) (offsetof(cursor, ev) + (size_t)(batch) * sizeof(augur_event))

struct augur_stream {
  augur_trace *t;
  int merged;
  unsigned kinds; /* AUGUR_KIND_MPI | AUGUR_KIND_OMP */
  /* rank stream */
  uint32_t rank;
  aug_rank *r;
  int fd;
  ZSTD_DCtx *dctx;
  int own_dctx; /* rank streams of a merged stream share the merged stream's */
  cursor **cur;
  uint32_t ncur;
  int group;  /* cursor whose sub-records must come next, or -1 */
  int peeked; /* threaded ranks: cursor of the record rank_peek finished, or -1 */
  int err;
  char *errmsg; /* with err: the message (put_msg) */
  reqtab rq;
  /* clock of this rank, copied here so the hot path does not chase pointers */
  int64_t clk_base; /* off0 - shift */
  double clk_slope;
  uint64_t clk_l0;
  int comm_cached;
  uint64_t comm_id;
  const augur_comm_def *comm;
  /* Intercommunicator seen from this rank: the group its peers live in. The
   * definition is the same on both sides (members = the group holding the
   * smallest world rank), so ranks of `remote` find their peers in `members`. */
  const int32_t *comm_far;
  uint32_t comm_far_size;
  uint64_t parent_comm;
  uint16_t parent_inter;
  const uint32_t *cs_dense; /* the rank's (aug_rank), copied: no pointer chase per record */
  uint32_t cs_n;
  /* merged stream */
  uint32_t n;
  augur_stream **rs;
  struct mleaf *lf;   /* per leaf (k of them): its lookahead, order key and state */
  uint32_t k;         /* leaves of the tournament tree: n rounded up to a power of two */
  struct mnode *tree; /* tree[0].r the winner, tree[1 .. k-1] each match's loser */
  uint64_t slack;     /* augur_stream_set_slack; 0: strict time order */
  uint64_t until;     /* slack > 0: the winner keeps winning while its key is at most this */
  void *arena;        /* single-threaded ranks' cursors (see cursor_arena), or NULL */
  uint8_t *stored;    /* with arena: the compressed-block buffer their cursors share */
  aug_evdec *wdec;    /* with arena: the decoder and raw buffer of the ranks whose */
  uint8_t *wraw;      /* blocks each fit their batch (cursor_arena's WHOLE) */
  /* augur_stream_merged_sources: leaves [0, nlocal) are rank streams (rs),
   * leaves [nlocal, n) the sources src[leaf - nlocal]. */
  uint32_t nlocal;
  uint32_t lo; /* the rank of leaf 0 */
  struct src_leaf *src;
  uint64_t err_at; /* the key of the last error merged_next returned */
};

/* A leaf of the merged stream: what merged_next reads of the winner, in one
 * 32-byte piece of a line (as four arrays, three cache misses per winner at
 * 65,536 ranks; bench/scale/README.md, stop 45). */
typedef struct mleaf {
  const augur_event *la; /* lookahead: the leaf's next record, in its batch */
  /* Single-threaded ranks: past the last finished record of the batch la
   * points into (NULL for threaded ranks). The fast path walks la up to it
   * and leaves the cursor's pos behind until the batch is used up. */
  const augur_event *end;
  uint64_t key; /* la's t_start; UINT64_MAX at the end; an error's key */
  int state;    /* 1 lookahead valid, 0 exhausted, < 0 error pending */
} mleaf;

/* A match of the tournament: its loser r with the key, lookahead and ended
 * flag it had when it lost (a loser does not move until it wins), so a
 * replay compares along its path without reading the losers' leaves, and the
 * new winner's record can be asked for without waiting for its leaf.
 * tree[0] is the winner as of its last replay: while it goes on winning
 * without one (its sub-records, records within the slack) its leaf moves on
 * and tree[0]'s key and la do not; its r and ended stay right. */
typedef struct mnode {
  uint64_t key;
  const augur_event *la;
  uint32_t r;
  uint32_t ended;
} mnode;

/* A leaf of records from elsewhere (augur_stream_source). */
typedef struct src_leaf {
  augur_stream_source s;
  char errmsg[AUGUR_ERROR_MSG_MAX];
} src_leaf;

/* Error messages of rank streams and their cursors are allocated at their
 * first error: a 512-byte array in each was 1 KB per rank that only errors
 * use. put_msg formats into *m (allocated if NULL); msg_of reads one, and
 * says "out of memory" where even the message could not be allocated. */
static void put_msg(char **m, const char *fmt, ...) {
  if (!*m && !(*m = malloc(AUGUR_ERROR_MSG_MAX))) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(*m, AUGUR_ERROR_MSG_MAX, fmt, ap);
  va_end(ap);
}

static const char *msg_of(const char *m) {
  return m ? m : "out of memory (and for its error message)";
}

static int stream_fail(augur_stream *s, int code, augur_error *err) {
  s->err = code;
  return augur_fail(err, code, "%s", msg_of(s->errmsg));
}

static void finish_batch(augur_stream *s, cursor *c);

/* Fails the stream with the error cursor c held back. */
static int cursor_fail(augur_stream *s, cursor *c, augur_error *err) {
  assert(c->pending && c->pos == c->n);
  put_msg(&s->errmsg, "%s", msg_of(c->errmsg));
  return stream_fail(s, c->pending, err);
}

/* C's error: what went wrong in the block at c->block_off, belonging at
 * local time AT (after the records of every thread and kind before it). */
static void cursor_error(augur_stream *s, cursor *c, int code, uint64_t at, const char *why) {
  put_msg(&c->errmsg, "%s: rank %u: block at offset %llu: %s", s->r->file, s->rank,
          (unsigned long long)c->block_off, why);
  c->in_block = 0;
  c->done = 1;
  c->pending = code;
  c->fail_ns = at;
}

/* Makes c->ev[c->pos] valid, or sets c->done; c->pending when an error
 * comes after the records it leaves (cursor_fail). */
static void cursor_fill(augur_stream *s, cursor *c) {
  char why[256];
  while (c->pos == c->n && !c->done) {
    if (c->in_block) {
      uint32_t got;
      int rc = aug_ev_decode_some(c->dec, c->ev, c->cap, &got, why, sizeof why);
      c->n = got;
      c->pos = 0;
      if (c->dec->done == c->dec->count) c->in_block = 0;
      /* Hand out what decoded cleanly first: the error comes after them. */
      if (rc != AUGUR_OK) cursor_error(s, c, rc, c->dec->prev_end, why);
      if (s->ncur == 1) finish_batch(s, c); /* a failing record there comes first */
      if (c->pending) return;
      continue;
    }
    size_t i = c->next_block;
    while (i < c->nblocks && c->blocks[i].info.thread != c->thread)
      i++;
    if (i >= c->nblocks) {
      c->done = 1;
      break;
    }
    const aug_block *b = &c->blocks[i];
    aug_blkhdr h = {.kind = (uint8_t)b->info.kind,
                    .codec = b->codec,
                    .thread = b->info.thread,
                    .count = b->info.nevents,
                    .raw_size = b->raw_size,
                    .stored_size = b->stored_size,
                    .first_ns = b->info.first_ns,
                    .last_ns = b->info.last_ns,
                    .payload_hash = b->payload_hash};
    c->next_block = i + 1;
    c->block_off = b->info.offset;
    /* Rank streams of a merged stream open their file per block: a trace of
     * thousands of ranks must not need thousands of descriptors. */
    int fd = s->fd >= 0 ? s->fd : open(s->r->file, O_RDONLY | O_CLOEXEC);
    int rc;
    if (fd < 0) {
      snprintf(why, sizeof why, "cannot open: %s", strerror(errno));
      rc = AUGUR_E_IO;
    } else {
      rc = aug_read_payload(fd, b->info.offset, &h, &c->stored, &c->stored_cap, &c->raw,
                            &c->raw_cap, s->dctx, why, sizeof why);
      if (fd != s->fd) close(fd);
    }
    if (rc == AUGUR_OK)
      rc = aug_ev_decode_begin(c->dec, c->raw, h.raw_size, h.count, h.first_ns, h.thread, why,
                               sizeof why);
    if (rc != AUGUR_OK) {
      cursor_error(s, c, rc, h.first_ns, why);
      return;
    }
    c->in_block = 1;
  }
}

static inline int32_t to_world(augur_stream *s, uint64_t comm, int32_t peer, int inter) {
  if (peer < 0) return peer;
  if (comm == AUGUR_COMM_SELF && !inter) return peer == 0 ? (int32_t)s->rank : peer;
  if (comm == AUGUR_COMM_WORLD && !inter) return peer;
  if (!s->comm_cached || s->comm_id != comm) {
    s->comm = augur_trace_comm(s->t, comm);
    s->comm_id = comm;
    s->comm_cached = 1;
    s->comm_far = NULL;
    s->comm_far_size = 0;
    const augur_comm_def *d = s->comm;
    if (d && d->remote_size) {
      int in_members = 0;
      for (uint32_t i = 0; i < d->size && !in_members; i++)
        in_members = d->members[i] == (int32_t)s->rank;
      s->comm_far = in_members ? d->remote : d->members;
      s->comm_far_size = in_members ? d->remote_size : d->size;
    }
  }
  const augur_comm_def *c = s->comm;
  if (!c) return peer;
  if (inter) return s->comm_far && (uint32_t)peer < s->comm_far_size ? s->comm_far[peer] : peer;
  return c->members && (uint32_t)peer < c->size ? c->members[peer] : peer;
}

/* aug_global_ns with the rank's clock cached in the stream. */
static inline uint64_t to_global(const augur_stream *s, uint64_t local) {
  return aug_clock_global(s->clk_base, s->clk_slope, s->clk_l0, local);
}

/* Turns a decoded record of the cursor's batch, in place, into what the
 * reader API promises. Every field is read before it is rewritten. Returns
 * AUGUR_OK or AUGUR_E_NOMEM with s->errmsg set (the caller decides whether
 * the error waits behind the records before it). */
static inline int finish(augur_stream *s, augur_event *ev) {
  const augur_event *src = ev;
  ev->rank = s->rank;
  uint64_t l = src->callsite;
  if (l) {
    uint32_t g;
    if (l < AUG_CS_DENSE)
      g = l < s->cs_n ? s->cs_dense[l] : 0;
    else if (!aug_u64map_get(&s->r->cs, l, &g))
      g = 0;
    ev->callsite = g;
  }
  ev->t_start = to_global(s, src->t_start);
  ev->t_end = to_global(s, src->t_end);
  unsigned k = cls_of[src->type & (AUGUR_EV_MAX - 1)];
  if (!k) return AUGUR_OK;
  uint64_t comm = src->comm;
  int32_t peer = src->peer;
  int inter = (src->flags & AUGUR_F_INTER) != 0;
  if (k & C_PEER) ev->peer = peer = to_world(s, comm, peer, inter);
  if (k & C_PARENT) {
    s->parent_comm = comm;
    s->parent_inter = (uint16_t)inter;
  }
  if (k & C_SUBRECV) {
    if (!comm) ev->comm = comm = s->parent_comm;
    ev->peer = peer = to_world(s, comm, peer, inter || s->parent_inter);
  }
  if ((k & (C_ISEND | C_IRECV | C_ICOLL | C_IIO | C_IRMA)) && src->req) {
    int fresh;
    req_ent *x = req_slot(&s->rq, src->req, &fresh);
    if (!x) goto oom;
    /* an MPI-IO request keeps its file id in bytes; MPI-IO and one-sided
     * requests have none of the three request flags */
    req_ent info = {.comm = comm,
                    .bytes = k & C_IIO ? src->hash : src->bytes,
                    .bytes_recv = src->bytes_recv,
                    .peer = peer,
                    .tag = src->tag,
                    .start = src->type,
                    .flags = (uint16_t)((k & C_ISEND   ? AUGUR_F_SENDREQ
                                         : k & C_IRECV ? AUGUR_F_RECVREQ
                                         : k & C_ICOLL ? AUGUR_F_COLLREQ
                                                       : 0) |
                                        (k & C_PERSIST ? AUGUR_F_PERSISTENT : 0) |
                                        (inter ? AUGUR_F_INTER : 0))};
    if (!fresh && !(k & C_PERSIST) && !(x->flags & AUGUR_F_PERSISTENT)) {
      if (req_queue_push(&s->rq, x, &info)) goto oom;
    } else {
      if (!fresh) req_queue_clear(&s->rq, x); /* a persistent request replaces all */
      x->comm = info.comm;
      x->bytes = info.bytes;
      x->bytes_recv = info.bytes_recv;
      x->peer = info.peer;
      x->tag = info.tag;
      x->flags = info.flags;
      x->start = info.start;
    }
  }
  if (k & C_FREE) {
    req_ent *x = req_find(&s->rq, src->req);
    if (x) req_del(&s->rq, x);
  }
  if (k & C_COMPLETION) {
    req_ent *x = req_find(&s->rq, src->req);
    if (!x) {
      ev->flags = (uint16_t)(src->flags | AUGUR_F_UNMATCHED);
      return AUGUR_OK;
    }
    ev->comm = x->comm;
    ev->flags = (uint16_t)(src->flags | x->flags);
    if (x->flags & AUGUR_F_RECVREQ) {
      ev->peer = to_world(s, x->comm, peer, (x->flags & AUGUR_F_INTER) != 0);
    } else if (augur_io_is_nonblocking(x->start)) {
      /* MPI-IO (docs/trace-format.md "MPI-IO records"): the starting call's
       * type, the file id, and the status's count as the bytes read (iread*)
       * or written (iwrite*) */
      int rd = augur_io_is_read(x->start);
      ev->peer = AUGUR_PEER_NONE;
      ev->tag = x->start;
      ev->hash = x->bytes;
      ev->bytes = rd ? 0 : src->bytes_recv;
      ev->bytes_recv = rd ? src->bytes_recv : 0;
    } else {
      ev->peer = x->peer;
      /* one-sided requests' completions carry their starting call's type */
      ev->tag = x->flags & (AUGUR_F_SENDREQ | AUGUR_F_COLLREQ) ? x->tag : (int32_t)x->start;
      ev->bytes = x->bytes;
      /* a send's status count is undefined (MPICH leaves stale values); an
       * RMA request's completion keeps what its start fetched */
      ev->bytes_recv = x->flags & AUGUR_F_SENDREQ ? 0 : x->bytes_recv;
    }
    if (!(x->flags & AUGUR_F_PERSISTENT)) req_pop(&s->rq, x);
  }
  return AUGUR_OK;
oom:
  put_msg(&s->errmsg, "rank %u: out of memory for the request table", s->rank);
  return AUGUR_E_NOMEM;
}

/* Single-threaded ranks finish a whole batch as soon as it is decoded: one
 * tight loop instead of a call per record, and the merged stream can hand
 * records out of the batch without a lookahead copy. Records before a
 * failing one stay; the error waits behind them (c->pending). */
static void finish_batch(augur_stream *s, cursor *c) {
  for (uint32_t i = 0; i < c->n; i++) {
    int rc = finish(s, &c->ev[i]);
    if (rc != AUGUR_OK) {
      c->n = i;
      put_msg(&c->errmsg, "%s", msg_of(s->errmsg));
      c->pending = rc;
      c->in_block = 0;
      c->done = 1;
      return;
    }
  }
}

static int end_of_rank(augur_stream *s, augur_error *err) {
  if (s->r->damage) {
    put_msg(&s->errmsg, "%s", s->r->damage);
    return stream_fail(s, s->r->damage_code, err);
  }
  return 0;
}

/* The rank's next record, finished, left in its cursor's batch: *ev points
 * at it until rank_take. Returns 1, 0 at the end, or an error. */
static int rank_peek(augur_stream *s, const augur_event **ev, augur_error *err) {
  if (s->err) return augur_fail(err, s->err, "%s", msg_of(s->errmsg));
  cursor *c;
  if (s->ncur == 1) { /* the common single-threaded rank: batches come finished */
    c = s->cur[0];
    if (c->pos == c->n) {
      cursor_fill(s, c);
      if (c->pos == c->n) return c->pending ? cursor_fail(s, c, err) : end_of_rank(s, err);
    }
    *ev = &c->ev[c->pos];
    return 1;
  }
  if (s->peeked >= 0) {
    c = s->cur[s->peeked];
    *ev = &c->ev[c->pos];
    return 1;
  }
  c = NULL;
  if (s->group >= 0) {
    cursor *g = s->cur[s->group];
    cursor_fill(s, g);
    if (g->pos < g->n && aug_type_is_sub(g->ev[g->pos].type)) c = g;
  }
  if (!c) {
    /* The earliest record over the cursors (MPI cursors come first, so they
     * win ties); a cursor's held-back error takes its place in that order,
     * so damage in one thread or kind hides nothing recorded before it. */
    s->group = -1;
    uint64_t best = 0;
    for (uint32_t i = 0; i < s->ncur; i++) {
      cursor *k = s->cur[i];
      cursor_fill(s, k);
      if (k->pos == k->n && !k->pending) continue;
      uint64_t key = k->pos < k->n ? k->ev[k->pos].t_start : k->fail_ns;
      if (!c || key < best) {
        c = k;
        best = key;
        s->group = (int)i;
      }
    }
    if (!c) return end_of_rank(s, err);
    if (c->pos == c->n) return cursor_fail(s, c, err);
  }
  /* Threads interleave by time, so a record is finished once it is chosen:
   * the request table sees the rank's calls in the order they are returned. */
  int rc = finish(s, &c->ev[c->pos]);
  if (rc != AUGUR_OK) return stream_fail(s, rc, err);
  s->peeked = s->group;
  *ev = &c->ev[c->pos];
  return 1;
}

/* Moves past the record rank_peek returned. */
static inline void rank_take(augur_stream *s) {
  if (s->ncur == 1) {
    s->cur[0]->pos++;
  } else {
    s->cur[s->peeked]->pos++;
    s->peeked = -1;
  }
}

static int rank_next(augur_stream *s, augur_event *ev, augur_error *err) {
  const augur_event *p = NULL;
  int rc = rank_peek(s, &p, err);
  if (rc != 1) return rc;
  *ev = *p;
  rank_take(s);
  return 1;
}

static void reset_cursors(augur_stream *s, size_t block) {
  for (uint32_t i = 0; i < s->ncur; i++) {
    cursor *c = s->cur[i];
    c->next_block = block;
    c->in_block = c->done = c->pending = 0;
    c->n = c->pos = 0;
  }
  s->group = s->peeked = -1;
  s->err = 0;
  for (size_t i = 0; i < s->rq.cap; i++)
    s->rq.e[i].used = 0;
  s->rq.n = 0;
  s->rq.npool = s->rq.freelist = 0;
}

/* What a merged stream gives its rank streams: its decompression context,
 * its arena (NULL: none) to carve single-threaded ranks' cursors from, the
 * one compressed-block buffer they share (decompression is one block at a
 * time), and the batch size. */
typedef struct carving {
  ZSTD_DCtx *dctx;
  uint8_t *at; /* the next free byte of the arena, or NULL */
  uint8_t *stored;
  size_t stored_cap;
  uint32_t batch;
  aug_evdec *wdec; /* the decoder and raw buffer shared by whole-block ranks */
  uint8_t *wraw;
  size_t wraw_cap;
} carving;

static int open_rank_stream(augur_trace *t, uint32_t rank, unsigned kinds, carving *m,
                            augur_stream **sp, augur_error *err);

/* A rank stream's own decompression context: the trace's spare if no other
 * stream holds it (decompression is one-shot, so a context carries nothing
 * from one stream to the next), else a new one. dctx_give keeps one spare
 * and frees the others. Atomic: streams of one trace may be opened and
 * closed on several threads. */
static ZSTD_DCtx *dctx_take(augur_trace *t) {
  ZSTD_DCtx *d = atomic_exchange(&t->spare_dctx, NULL);
  return d ? d : ZSTD_createDCtx();
}

static void dctx_give(augur_trace *t, ZSTD_DCtx *d) {
  void *none = NULL;
  if (d && !atomic_compare_exchange_strong(&t->spare_dctx, &none, d)) ZSTD_freeDCtx(d);
}

int augur_stream_rank(augur_trace *t, uint32_t rank, augur_stream **sp, augur_error *err) {
  return open_rank_stream(t, rank, AUGUR_KIND_MPI, NULL, sp, err);
}

static int bad_kinds(unsigned kinds, const char *who, augur_error *err) {
  if (kinds && !(kinds & ~(AUGUR_KIND_MPI | AUGUR_KIND_OMP))) return 0;
  return augur_fail(err, AUGUR_E_ARG,
                    "%s: kinds 0x%x (expected AUGUR_KIND_MPI, AUGUR_KIND_OMP or both)", who, kinds);
}

int augur_stream_rank_kinds(augur_trace *t, uint32_t rank, unsigned kinds, augur_stream **sp,
                            augur_error *err) {
  *sp = NULL;
  if (bad_kinds(kinds, "augur_stream_rank_kinds", err)) return AUGUR_E_ARG;
  return open_rank_stream(t, rank, kinds, NULL, sp, err);
}

/* A merged stream's first pass touches every rank's cursor, decoder
 * and block buffer: with 64 ranks, 13 MB in 4 KiB pages, about 3200 page
 * faults (before the decoder's table became compact). Single-threaded ranks
 * (the common case) get them from one huge-page arena instead, sized from the
 * block index: the largest raw payload of the rank, so the buffer never
 * grows; their compressed payloads go through one buffer of the merged
 * stream, the largest of all. Bytes rank R takes in the arena (0: a rank
 * with several threads or no blocks, or OpenMP blocks among KINDS, which
 * allocates its own); *RAW and *STORED get its largest payloads.
 *
 * A rank whose every block holds at most BATCH records (a nearly idle rank
 * of a large run: issue 27's 8 KB per idle rank) decodes each block at once,
 * in the cursor_fill that read it, so it needs no decoder or raw buffer
 * between blocks: it takes the merged stream's one decoder and raw buffer,
 * its batch is its largest block, and *WHOLE gets that size (0: the rank
 * keeps a decoder and a raw buffer of its own; then *RAW is its size). */
#define LINE(n) (((n) + 63) & ~(size_t)63) /* whole cache lines */
/* A carved cursor's layout in the arena: the cursor with its batch, the
 * decoder, then the raw buffer. */
#define DEC_AT(batch)     LINE(CURSOR_SIZE(batch))
#define BUFFERS_AT(batch) (DEC_AT(batch) + LINE(sizeof(aug_evdec)))

static size_t cursor_arena(const aug_rank *r, unsigned kinds, uint32_t batch, size_t *raw,
                           size_t *stored, uint32_t *whole) {
  *raw = *stored = 0;
  *whole = 0;
  if (!r->nblocks || !(kinds & AUGUR_KIND_MPI) || ((kinds & AUGUR_KIND_OMP) && r->omp.n)) return 0;
  uint64_t most = 1;
  for (size_t i = 0; i < r->nblocks; i++) {
    const aug_block *b = &r->blocks[i];
    if (b->info.thread != r->blocks[0].info.thread) return 0;
    size_t rs = b->raw_size ? b->raw_size : 1, ss = b->stored_size ? b->stored_size : 1;
    if (rs > *raw) *raw = rs;
    if (b->codec != AUG_CODEC_RAW && ss > *stored) *stored = ss;
    if (b->info.nevents > most) most = b->info.nevents;
  }
  *raw = LINE(*raw);
  *stored = LINE(*stored);
  if (most <= batch) {
    *whole = (uint32_t)most;
    return LINE(CURSOR_SIZE(most));
  }
  return BUFFERS_AT(batch) + *raw;
}

/* One cursor's share of a rank file: a thread's blocks of one kind. */
typedef struct lane {
  uint32_t thread;
  const aug_block *blocks; /* the kind's block list */
  size_t nblocks;
} lane;

/* Appends to L (room for one lane per block) a lane for each thread of
 * BLOCKS[0..NBLOCKS). */
static void add_lanes(lane *l, uint32_t *n, const aug_block *blocks, size_t nblocks) {
  uint32_t from = *n;
  for (size_t i = 0; i < nblocks; i++) {
    uint32_t id = blocks[i].info.thread, j = from;
    while (j < *n && l[j].thread != id)
      j++;
    if (j == *n) l[(*n)++] = (lane){id, blocks, nblocks};
  }
}

static int open_rank_stream(augur_trace *t, uint32_t rank, unsigned kinds, carving *m,
                            augur_stream **sp, augur_error *err) {
  *sp = NULL;
  if (!t || rank >= t->nranks)
    return augur_fail(err, AUGUR_E_ARG, "augur_stream_rank: rank %u out of range (trace has %u)",
                      rank, t ? t->nranks : 0);
  assert(kinds && !(kinds & ~(AUGUR_KIND_MPI | AUGUR_KIND_OMP)));
  augur_stream *s = calloc(1, sizeof *s);
  if (!s) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  s->t = t;
  s->kinds = kinds;
  s->rank = rank;
  s->r = &t->ranks[rank];
  s->fd = -1;
  s->group = s->peeked = -1;
  s->clk_base = aug_clock_base(&s->r->clk, t->shift);
  s->clk_slope = s->r->clk.slope;
  s->clk_l0 = s->r->clk.l0;
  s->cs_dense = s->r->cs_dense;
  s->cs_n = s->r->cs_n;
  /* One cursor per thread and kind seen in the index, the MPI ones first. */
  lane lanes[64], *th = lanes;
  uint32_t nthreads = 0;
  size_t most =
      (kinds & AUGUR_KIND_MPI ? s->r->nblocks : 0) + (kinds & AUGUR_KIND_OMP ? s->r->omp.n : 0);
  if (most > 64 && !(th = malloc(sizeof *th * most))) goto oom;
  if (kinds & AUGUR_KIND_MPI) add_lanes(th, &nthreads, s->r->blocks, s->r->nblocks);
  if (kinds & AUGUR_KIND_OMP) add_lanes(th, &nthreads, s->r->omp.b, s->r->omp.n);
  if (nthreads == 0) th[nthreads++] = (lane){0, NULL, 0}; /* empty rank: one idle cursor */
  s->cur = calloc(nthreads, sizeof *s->cur);
  if (!s->cur) goto oom_th;
  s->ncur = nthreads;
  uint32_t batch = m ? m->batch : BATCH, whole = 0;
  size_t raw, stored,
      bytes = m && m->at ? cursor_arena(s->r, kinds, batch, &raw, &stored, &whole) : 0;
  int carved = bytes && nthreads == 1; /* cursor_arena is 0 for several threads */
  if (carved) {                        /* from the arena: zeroed there when first touched */
    assert(stored <= m->stored_cap);
    uint8_t *at = m->at;
    m->at += bytes;
    cursor *c = s->cur[0] = (cursor *)(void *)at;
    memset(c, 0, offsetof(cursor, ev)); /* the batch need not be zeroed */
    if (whole) {
      assert(m->wdec && raw <= m->wraw_cap);
      batch = whole;
      c->whole = 1;
      c->dec = m->wdec;
      c->raw = m->wraw;
      c->raw_cap = m->wraw_cap;
    } else {
      c->dec = (aug_evdec *)(void *)(at + DEC_AT(batch));
      aug_ev_decode_init(c->dec);
      c->raw = at + BUFFERS_AT(batch);
      c->raw_cap = raw;
    }
    c->stored = stored ? m->stored : NULL;
    c->stored_cap = stored ? m->stored_cap : 0;
    c->carved = 1;
  }
  for (uint32_t i = 0; i < nthreads && !carved; i++) {
    s->cur[i] = calloc(1, CURSOR_SIZE(batch));
    if (!s->cur[i] || !(s->cur[i]->dec = malloc(sizeof(aug_evdec)))) goto oom_th;
    aug_ev_decode_init(s->cur[i]->dec);
  }
  for (uint32_t i = 0; i < nthreads; i++) {
    s->cur[i]->cap = batch;
    s->cur[i]->thread = th[i].thread;
    s->cur[i]->blocks = th[i].blocks;
    s->cur[i]->nblocks = th[i].nblocks;
  }
  if (th != lanes) free(th);
  th = lanes;
  s->dctx = m ? m->dctx : dctx_take(t);
  s->own_dctx = !m;
  if (!s->dctx) goto oom;
  if (!m) s->fd = open(s->r->file, O_RDONLY | O_CLOEXEC);
  if (!m && s->fd < 0) {
    int rc = augur_fail(err, AUGUR_E_IO, "%s: rank %u: cannot open: %s", s->r->file, rank,
                        strerror(errno));
    augur_stream_close(s);
    return rc;
  }
  *sp = s;
  return AUGUR_OK;
oom_th:
  if (th != lanes) free(th);
oom:
  augur_stream_close(s);
  return augur_fail(err, AUGUR_E_NOMEM, "rank %u: out of memory opening a stream", rank);
}

/* ---- merged stream: a tournament (loser) tree of ranks ----
 *
 * Ranks are ordered by (lookahead t_start, rank); ranks at their end order
 * after every other. The tree has k leaves (k = nranks rounded up to a power
 * of two; leaves past the last rank are ended) and keeps at every inner node
 * the loser of the match played there, the overall winner in tree[0]: after
 * the winner moves on, one match per level (log2 k comparisons, half of a
 * binary heap's) puts the new winner on top. */

/* Ended ranks (and leaves past the last rank) have the largest key, so one
 * comparison decides nearly every match; on a tie an ended rank loses. */
static inline int kless(uint64_t ka, uint32_t ea, uint32_t a, uint64_t kb, uint32_t eb,
                        uint32_t b) {
  if (ka != kb) return ka < kb;
  return ea != eb ? eb : a < b;
}

static inline int tless(const augur_stream *m, uint32_t a, uint32_t b) {
  return kless(m->lf[a].key, m->lf[a].state == 0, a, m->lf[b].key, m->lf[b].state == 0, b);
}

/* Node NODE holds loser R as it stands now. */
static inline void set_node(augur_stream *m, uint32_t node, uint32_t r) {
  m->tree[node] = (mnode){m->lf[r].key, m->lf[r].la, r, m->lf[r].state == 0};
}

#if AUG_CHECKS
/* The tournament as built: tree[0] beats every rank (and leaf past the
 * last), and each rank appears once among the winner and the losers. (Once
 * running, a winner may keep its place while its key moves on: its
 * sub-records, and records within the slack, see merged_next.) */
static int tree_check(const augur_stream *m) {
  uint32_t w = m->tree[0].r, seen = 0;
  uint8_t *once = calloc(m->k, 1);
  if (!once) return 1; /* cannot check */
  for (uint32_t r = 0; r < m->k; r++)
    if (r != w && tless(m, r, w)) seen = m->k + 1;
  for (uint32_t node = 0; node < m->k; node++)
    if (m->tree[node].r < m->k && !once[m->tree[node].r]++) seen++;
  for (uint32_t node = 1; node < m->k; node++) { /* the losers' keys as their leaves say */
    const mnode *x = &m->tree[node];
    const mleaf *f = &m->lf[x->r];
    if (x->key != f->key || x->la != f->la || x->ended != (f->state == 0)) seen = m->k + 1;
  }
  free(once);
  return seen == m->k;
}
#endif

/* Plays rank r's way up after its key changed. */
static inline void replay(augur_stream *m, uint32_t r) {
  assert(m->merged && r < m->k);
  mnode w = {m->lf[r].key, m->lf[r].la, r, m->lf[r].state == 0};
  for (uint32_t node = (r + m->k) >> 1; node; node >>= 1) {
    mnode x = m->tree[node];
    if (kless(x.key, x.ended, x.r, w.key, w.ended, w.r)) {
      m->tree[node] = w;
      w = x;
    }
  }
  m->tree[0] = w;
}

/* Points source leaf r's lookahead at its next batch: state 1 with la and
 * end around it, 0 at its end, or its error at the key it gave. */
static void src_refill(augur_stream *m, uint32_t r) {
  src_leaf *l = &m->src[r - m->nlocal];
  const augur_event *ev = NULL;
  size_t n = 0;
  uint64_t at = 0;
  augur_error e = {0};
  int rc = l->s.next(l->s.arg, &ev, &n, &at, &e);
  mleaf *f = &m->lf[r];
  if (rc == 1 && n && ev) {
    *f = (mleaf){.la = ev, .end = ev + n, .key = ev->t_start, .state = 1};
    return;
  }
  f->end = NULL;
  f->state = rc < 0 ? rc : 0;
  f->key = rc < 0 ? at : UINT64_MAX;
  if (rc < 0) snprintf(l->errmsg, sizeof l->errmsg, "%s", e.msg);
}

/* Points rank r's lookahead at its next record. */
static void refill(augur_stream *m, uint32_t r, uint64_t last_key) {
  if (r >= m->nlocal) {
    src_refill(m, r);
    return;
  }
  augur_error e;
  augur_stream *s = m->rs[r];
  mleaf *f = &m->lf[r];
  int rc = rank_peek(s, &f->la, &e);
  if (rc == 1) {
    f->state = 1;
    f->key = f->la->t_start;
    f->end = s->ncur == 1 ? s->cur[0]->ev + s->cur[0]->n : NULL;
  } else {
    f->end = NULL;
    f->state = rc;
    /* an error surfaces right after the rank's last event */
    f->key = rc == 0 ? UINT64_MAX : last_key;
  }
}

/* The merged stream of rank streams [LO, HI) (leaves 0 .. HI - LO - 1) and
 * NSRC sources after them. */
static int open_merged(augur_trace *t, unsigned kinds, uint32_t lo, uint32_t hi,
                       const augur_stream_source *src, size_t nsrc, augur_stream **sp,
                       augur_error *err) {
  *sp = NULL;
  if (!t) return augur_fail(err, AUGUR_E_ARG, "augur_stream_merged: NULL trace");
  augur_stream *m = calloc(1, sizeof *m);
  if (!m) return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  m->t = t;
  m->kinds = kinds;
  m->merged = 1;
  m->fd = -1;
  m->nlocal = hi - lo;
  m->lo = lo;
  m->n = m->nlocal + (uint32_t)nsrc;
  if (nsrc && !(m->src = calloc(nsrc, sizeof *m->src))) {
    free(m);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < nsrc; i++)
    m->src[i].s = src[i];
  for (m->k = 1; m->k < m->n; m->k *= 2)
    ;
  m->rs = calloc(m->n ? m->n : 1, sizeof *m->rs);
  /* k leaves (the winner may be a leaf past n), two to a line */
  _Static_assert(sizeof(mleaf) == 32, "a leaf is half a line");
  m->lf = aligned_alloc(64, (m->k > 1 ? m->k : 2) * sizeof *m->lf);
  if (m->lf) memset(m->lf, 0, m->k * sizeof *m->lf); /* leaves past n: ended (0) */
  m->tree = calloc(m->k, sizeof *m->tree);
  m->dctx = dctx_take(t); /* decompression is one-shot: one context serves all ranks */
  if (!m->rs || !m->lf || !m->tree || !m->dctx) {
    augur_stream_close(m);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory for a merged stream of %u ranks", m->n);
  }
  for (uint32_t r = m->n; r < m->k; r++)
    m->lf[r].key = UINT64_MAX;
  carving cv = {.dctx = m->dctx, .batch = batch_for(m->n)};
  size_t arena = 0, raw, stored;
  uint32_t whole;
  for (uint32_t r = 0; r < m->nlocal; r++) {
    arena += cursor_arena(&t->ranks[lo + r], kinds, cv.batch, &raw, &stored, &whole);
    if (stored > cv.stored_cap) cv.stored_cap = stored;
    if (whole && raw > cv.wraw_cap) cv.wraw_cap = raw;
  }
  /* Below a huge page the arena would only add a copy of what malloc does. */
  cv.at = arena >= AUG_HUGE_PAGE ? aug_huge_alloc(arena) : NULL;
  m->arena = cv.at;
  int oom = 0;
  if (cv.at && cv.stored_cap) oom |= !(m->stored = cv.stored = malloc(cv.stored_cap));
  if (cv.at && cv.wraw_cap) {
    /* initialised at once: closing after a failure below finishes it */
    if ((m->wdec = cv.wdec = malloc(sizeof *m->wdec))) aug_ev_decode_init(m->wdec);
    oom |= !m->wdec || !(m->wraw = cv.wraw = malloc(cv.wraw_cap));
  }
  if (oom) {
    augur_stream_close(m);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory for a merged stream of %u ranks", m->n);
  }
  for (uint32_t r = 0; r < m->n; r++) {
    int rc = r < m->nlocal ? open_rank_stream(t, lo + r, kinds, &cv, &m->rs[r], err) : AUGUR_OK;
    if (rc != AUGUR_OK) {
      augur_stream_close(m);
      return rc;
    }
    refill(m, r, 0);
  }
  /* The first tournament, bottom up: win[node] is the winner of the match
   * at node (leaves k .. 2k-1 are the ranks), the tree keeps its loser. */
  uint32_t *win = malloc(2 * (size_t)m->k * sizeof *win);
  if (!win) {
    augur_stream_close(m);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory for a merged stream of %u ranks", m->n);
  }
  for (uint32_t i = 0; i < m->k; i++)
    win[m->k + i] = i;
  for (uint32_t node = m->k - 1; node >= 1; node--) {
    uint32_t a = win[2 * node], b = win[2 * node + 1];
    int a_wins = tless(m, a, b);
    win[node] = a_wins ? a : b;
    set_node(m, node, a_wins ? b : a);
  }
  set_node(m, 0, win[1]);
  free(win);
  AUG_CHECK(tree_check(m));
  *sp = m;
  return AUGUR_OK;
}

int augur_stream_merged(augur_trace *t, augur_stream **sp, augur_error *err) {
  return open_merged(t, AUGUR_KIND_MPI, 0, t ? t->nranks : 0, NULL, 0, sp, err);
}

int augur_stream_merged_kinds(augur_trace *t, unsigned kinds, augur_stream **sp, augur_error *err) {
  *sp = NULL;
  if (bad_kinds(kinds, "augur_stream_merged_kinds", err)) return AUGUR_E_ARG;
  return open_merged(t, kinds, 0, t ? t->nranks : 0, NULL, 0, sp, err);
}

int augur_stream_merged_sources(augur_trace *t, uint32_t lo, uint32_t hi,
                                const augur_stream_source *src, size_t nsrc, augur_stream **sp,
                                augur_error *err) {
  if (!sp) return augur_fail(err, AUGUR_E_ARG, "augur_stream_merged_sources: NULL argument");
  *sp = NULL;
  if (!t || (nsrc && !src))
    return augur_fail(err, AUGUR_E_ARG, "augur_stream_merged_sources: NULL argument");
  if (lo > hi || hi > t->nranks)
    return augur_fail(err, AUGUR_E_ARG,
                      "augur_stream_merged_sources: ranks [%u, %u) out of range (trace has %u)", lo,
                      hi, t->nranks);
  /* Ties between leaves are decided by leaf order: it must be rank order. */
  uint32_t after = hi;
  for (size_t i = 0; i < nsrc; i++) {
    if (!src[i].next || src[i].lo >= src[i].hi || src[i].lo < after || src[i].hi > t->nranks)
      return augur_fail(err, AUGUR_E_ARG,
                        "augur_stream_merged_sources: source %zu: ranks [%u, %u) not after "
                        "rank %u, empty or out of range, or no next function",
                        i, src[i].lo, src[i].hi, after);
    after = src[i].hi;
  }
  if ((uint64_t)(hi - lo) + nsrc > UINT32_MAX / 2)
    return augur_fail(err, AUGUR_E_ARG, "augur_stream_merged_sources: too many sources");
  return open_merged(t, AUGUR_KIND_MPI, lo, hi, src, nsrc, sp, err);
}

int augur_stream_error_key(const augur_stream *s, uint64_t *ns) {
  if (!s || !ns || !s->merged) return AUGUR_E_ARG;
  *ns = s->err_at;
  return AUGUR_OK;
}

/* The caller works on the record just returned before it asks for the
 * next: time enough to bring the next winner's record into the cache. With
 * many ranks in step every record comes from another rank's batch, and the
 * hardware cannot guess which (measured: most of the merge's time went to
 * those cache misses at 64 ranks). */
static inline void prefetch_winner(const augur_stream *m) {
  AUG_PREFETCH(&m->lf[m->tree[0].r]); /* 32 bytes at a multiple of 32: one line */
  const augur_event *la = m->tree[0].la;
  if (la) {
    AUG_PREFETCH(la);
    AUG_PREFETCH((const char *)la + sizeof *la - 1);
  }
}

/* After a replay: how long the new winner may go on without another (its
 * records up to the runner-up's key + slack). The runner-up is the best of
 * the losers on the winner's path. */
static inline void set_until(augur_stream *m) {
  uint32_t w = m->tree[0].r;
  uint64_t best = UINT64_MAX;
  for (uint32_t node = (w + m->k) >> 1; node; node >>= 1) {
    uint64_t kx = m->tree[node].key;
    if (kx < best) best = kx;
  }
  m->until = best > UINT64_MAX - m->slack ? UINT64_MAX : best + m->slack;
}

/* After the winner may have changed: its run's bound, and its record. */
static inline void winner_changed(augur_stream *m) {
  if (m->slack) set_until(m);
  prefetch_winner(m);
}

/* Whether the winner's next record P comes next without a replay:
 * sub-records stay with their parent; with slack, so does a record within
 * it (until). */
static inline int keeps_lead(const augur_stream *m, const augur_event *p) {
  return aug_type_is_sub(p->type) || (m->slack && p->t_start <= m->until);
}

static int merged_next(augur_stream *m, augur_event *ev, augur_error *err) {
  assert(m->merged && m->tree[0].r < m->k);
  uint32_t r = m->tree[0].r;
  mleaf *f = &m->lf[r];
  const augur_event *end = f->end;
  if (end) {
    /* Fast path: the winner is a single-threaded rank; its next record is
     * usually right behind in the same batch. */
    const augur_event *p = f->la;
    *ev = *p++;
    if (p < end) {
      f->la = p;
      f->key = p->t_start;
      if (keeps_lead(m, p)) return 1;
      replay(m, r);
      winner_changed(m);
      return 1;
    }
    if (r < m->nlocal) {
      cursor *c = m->rs[r]->cur[0];
      c->pos = c->n; /* the batch is used up: the cursor catches up */
    }
    refill(m, r, ev->t_start);
    if (f->state == 1 && keeps_lead(m, f->la)) { /* the losers and until did not change */
      prefetch_winner(m);
      return 1;
    }
    replay(m, r);
    winner_changed(m);
    return 1;
  }
  if (f->state == 0) return 0; /* the best is ended: all are */
  if (f->state < 0) {          /* report the rank's error once, then go on without it */
    int code = f->state;
    augur_fail(err, code, "%s",
               r < m->nlocal ? msg_of(m->rs[r]->errmsg) : m->src[r - m->nlocal].errmsg);
    m->err_at = f->key;
    if (r < m->nlocal) {
      f->state = 0;
      f->key = UINT64_MAX;
    } else {
      src_refill(m, r); /* a source goes on after its error */
    }
    replay(m, r);
    return code;
  }
  *ev = *f->la;
  rank_take(m->rs[r]);
  refill(m, r, ev->t_start);
  /* A parent's sub-records follow it: r stays the winner (no replay) while
   * the lookahead is a sub-record; they share the parent's t_start anyway. */
  if (f->state != 1 || !aug_type_is_sub(f->la->type)) replay(m, r);
  winner_changed(m);
  return 1;
}

int augur_stream_peek_rank(augur_stream *s, uint32_t rank, augur_event *ev, augur_error *err) {
  if (!s || !ev || !s->merged || rank < s->lo || rank - s->lo >= s->nlocal)
    return augur_fail(err, AUGUR_E_ARG,
                      "augur_stream_peek_rank: needs a merged stream and one of its ranks");
  uint32_t r = rank - s->lo;
  const mleaf *f = &s->lf[r];
  if (f->state < 0) return augur_fail(err, f->state, "%s", msg_of(s->rs[r]->errmsg));
  if (f->state == 0) return 0;
  *ev = *f->la;
  return 1;
}

uint32_t augur_stream_next_rank(const augur_stream *s) {
  if (!s) return UINT32_MAX;
  if (!s->merged) return s->rank;
  uint32_t r = s->tree[0].r;
  return r < s->nlocal && !s->tree[0].ended ? s->lo + r : UINT32_MAX;
}

int augur_stream_set_slack(augur_stream *s, uint64_t ns, augur_error *err) {
  if (!s || !s->merged)
    return augur_fail(err, AUGUR_E_ARG, "augur_stream_set_slack: only merged streams have slack");
  s->slack = ns;
  if (ns) set_until(s);
  return AUGUR_OK;
}

int augur_stream_next(augur_stream *s, augur_event *ev, augur_error *err) {
  if (!s || !ev) return augur_fail(err, AUGUR_E_ARG, "augur_stream_next: NULL argument");
  if (s->merged) return merged_next(s, ev, err);
  /* Fast path: a single-threaded rank with finished events at hand. */
  if (!s->merged && s->ncur == 1 && !s->err) {
    cursor *c = s->cur[0];
    if (c->pos < c->n) {
      *ev = c->ev[c->pos++];
      return 1;
    }
  }
  return rank_next(s, ev, err);
}

int augur_stream_read(augur_stream *s, augur_event *ev, size_t max, size_t *n, augur_error *err) {
  if (!s || !ev || !n) return augur_fail(err, AUGUR_E_ARG, "augur_stream_read: NULL argument");
  *n = 0;
  while (*n < max) {
    int rc = augur_stream_next(s, ev + *n, err);
    if (rc <= 0) return rc;
    (*n)++;
  }
  return 1;
}

int augur_stream_seek_block(augur_stream *s, size_t block, augur_error *err) {
  if (!s || s->merged)
    return augur_fail(err, AUGUR_E_ARG, "augur_stream_seek_block: only rank streams can seek");
  if (s->kinds != AUGUR_KIND_MPI)
    return augur_fail(err, AUGUR_E_ARG,
                      "augur_stream_seek_block: only MPI-only streams can seek (block indices "
                      "count MPI blocks)");
  if (block > s->r->nblocks)
    return augur_fail(err, AUGUR_E_ARG, "%s: rank %u: block %zu out of range (%zu blocks)",
                      s->r->file, s->rank, block, s->r->nblocks);
  reset_cursors(s, block);
  return AUGUR_OK;
}

void augur_stream_close(augur_stream *s) {
  if (!s) return;
  if (s->merged) {
    for (uint32_t r = 0; s->rs && r < s->n; r++)
      augur_stream_close(s->rs[r]);
    free(s->rs);
    free(s->lf);
    free(s->tree);
    free(s->arena); /* after the rank streams: their carved cursors live here */
    free(s->stored);
    if (s->wdec) aug_ev_decode_fini(s->wdec);
    free(s->wdec);
    free(s->wraw);
    free(s->src);
  }
  for (uint32_t i = 0; s->cur && i < s->ncur; i++) {
    if (s->cur[i] && s->cur[i]->dec && !s->cur[i]->whole) aug_ev_decode_fini(s->cur[i]->dec);
    if (s->cur[i]) free(s->cur[i]->errmsg);
    if (!s->cur[i] || s->cur[i]->carved) continue;
    free(s->cur[i]->dec);
    free(s->cur[i]->stored);
    free(s->cur[i]->raw);
    free(s->cur[i]);
  }
  free(s->cur);
  AUG_CHECK(req_check(&s->rq));
  free(s->rq.e);
  free(s->rq.pool);
  if (s->own_dctx || s->merged) dctx_give(s->t, s->dctx);
  if (s->fd >= 0) close(s->fd);
  free(s->errmsg);
  free(s);
}
