/* augur -> OTF2 archive (libotf2, serial writer). One location per rank and
 * recorder thread; an augur event becomes Enter / MPI records / Leave, its
 * sub-records nested Enter/Leave pairs at the parent's end. Every augur field
 * rides along as attributes of the Enter record so the import is exact.
 * OpenMP records (traces with kind-3 blocks) go to their thread's location
 * as OpenMP-paradigm regions (parallel, loop, sync, wait, mutex wait,
 * masked), ThreadFork/ThreadJoin and the lock records (docs/export.md). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "augur/export.h"
#include "grow.h"
#include "io.h"
#include "otf2_common.h"
#include "otf2_defs_json.h"
#include "otf2_iorma.h"

typedef struct xloc {
  uint32_t rank, thread;
  uint64_t nevents; /* OTF2 records written */
  OTF2_EvtWriter *w;
  int pending; /* parent written up to its start, its end still to come */
  augur_event parent;
  augur_event *subs;
  size_t nsubs, capsubs;
  uint16_t omp_open[32]; /* OpenMP regions entered (their begin type), innermost last */
  uint32_t nomp;
  uint64_t omp_ts; /* the location's latest OpenMP record time (OTF2 time) */
} xloc;

typedef struct xcomm {
  uint64_t id;
  uint32_t ref;
} xcomm;

typedef struct xp {
  augur_trace *t;
  OTF2_Archive *ar;
  OTF2_AttributeList *al;
  xloc *locs;
  size_t nlocs, caplocs;
  xcomm *comms; /* sorted by id */
  size_t ncomms;
  uint64_t offset; /* OTF2 time of global ns 0 */
  uint64_t tmax;
  uint32_t region[AUGUR_EV_MAX]; /* OTF2 region ref + 1 per augur type, 0 = unused */
  uint32_t nregions;
  uint16_t region_type[AUGUR_EV_MAX]; /* inverse: augur type per region ref */
  uint32_t nctr;
  uint32_t ctr_index[AUGUR_MAX_COUNTERS];
  int hybrid;          /* OpenMP records too */
  uint64_t unpaired;   /* OpenMP ends without their begin, regions closed at the end */
  uint32_t lock_order; /* ThreadAcquireLock's acquisition order */
  otf2_iorma *io;      /* MPI-IO, one-sided and neighbourhood records (otf2_iorma.c) */
  augur_error *err;
  int rc;
} xp;

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *cb, bool fin) {
  (void)u;
  (void)ft;
  (void)l;
  (void)cb;
  (void)fin;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l) {
  (void)u;
  (void)ft;
  (void)l;
  return 0;
}
static const OTF2_FlushCallbacks flush_cb = {pre_flush, post_flush};

static uint64_t loc_ref(uint32_t rank, uint32_t thread) {
  return ((uint64_t)thread << 32) | rank;
}

/* Remembers the first libotf2 failure with what was being done. */
static int ok(xp *x, OTF2_ErrorCode e, const char *what) {
  if (e == OTF2_SUCCESS) return 1;
  if (x->rc == AUGUR_OK)
    x->rc = augur_fail(x->err, AUGUR_E_IO, "otf2 export: %s: %s (%s)", what, OTF2_Error_GetName(e),
                       OTF2_Error_GetDescription(e));
  return 0;
}

/* OTF2's errors, which it prints and may not return (a truncated anchor file still closed
 * with success): the first one fails the export. */
static OTF2_ErrorCode on_otf2_error(void *ud, const char *file, uint64_t line, const char *fn,
                                    OTF2_ErrorCode code, const char *fmt, va_list va) {
  (void)file, (void)line, (void)fn;
  xp *x = ud;
  if (x->rc == AUGUR_OK) {
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt ? fmt : "", va);
    x->rc = augur_fail(x->err, AUGUR_E_IO, "otf2 export: %s (%s)", msg, OTF2_Error_GetName(code));
  }
  return code;
}

/* The definitions JSON next to the anchor file (OTF2_AUGUR_DEFS_FILE). */
static int write_defs_file(xp *x, const char *out, const char *json) {
  char p[4300];
  snprintf(p, sizeof p, "%s/%s", out, OTF2_AUGUR_DEFS_FILE);
  int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int bad = fd < 0 || aug_write_all(fd, json, strlen(json), 0, -1) < 0;
  if (fd >= 0 && close(fd)) bad = 1;
  if (bad && x->rc == AUGUR_OK)
    x->rc = augur_fail(x->err, AUGUR_E_IO, "otf2 export: %s: %s", p, strerror(errno));
  return !bad;
}

static int cmp_comm(const void *a, const void *b) {
  uint64_t x = ((const xcomm *)a)->id, y = ((const xcomm *)b)->id;
  return x < y ? -1 : x > y;
}
static uint32_t comm_ref(const xp *x, uint64_t id) {
  xcomm key = {id, 0};
  const xcomm *c = bsearch(&key, x->comms, x->ncomms, sizeof key, cmp_comm);
  return c ? c->ref : OTF2_UNDEFINED_COMM;
}

static uint32_t comm_ref_cb(const void *x, uint64_t id) {
  return comm_ref(x, id);
}

/* World rank -> rank in the communicator (remote group for intercomm peers),
 * as OTF2 wants; undefined for specials and unknown communicators. */
static uint32_t comm_rank(const xp *x, uint64_t comm, int32_t peer, uint16_t flags) {
  const augur_comm_def *c = augur_trace_comm(x->t, comm);
  if (peer < 0 || !c) return OTF2_UNDEFINED_UINT32;
  int64_t r = augur_trace_comm_rank(x->t, comm, peer, (flags & AUGUR_F_INTER) && c->remote);
  return r < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)r;
}

static xloc *get_loc(xp *x, uint32_t rank, uint32_t thread) {
  for (size_t i = x->nlocs; i-- > 0;) {
    if (x->locs[i].rank != rank) break; /* ranks are exported one after another */
    if (x->locs[i].thread == thread) return &x->locs[i];
  }
  if (aug_grow((void **)&x->locs, &x->caplocs, x->nlocs + 1, sizeof *x->locs)) return NULL;
  xloc *l = &x->locs[x->nlocs];
  memset(l, 0, sizeof *l);
  l->rank = rank;
  l->thread = thread;
  l->w = OTF2_Archive_GetEvtWriter(x->ar, loc_ref(rank, thread));
  if (!l->w) return NULL;
  x->nlocs++;
  return l;
}

static void put_attrs(xp *x, const augur_event *e) {
  OTF2_AttributeList_RemoveAllAttributes(x->al);
  uint64_t v[OTF2A_COUNT];
  otf2_attrs_of(e, v);
  for (uint32_t a = 0; a < OTF2A_COUNT; a++)
    if (v[a] || a == OTF2A_TYPE) OTF2_AttributeList_AddUint64(x->al, a, v[a]);
}

static int is_blocking_coll(unsigned type) {
  return type >= AUGUR_EV_BARRIER && type <= AUGUR_EV_EXSCAN;
}

static OTF2_CollectiveOp coll_op(unsigned type) {
  switch (type) {
  case AUGUR_EV_BARRIER:
    return OTF2_COLLECTIVE_OP_BARRIER;
  case AUGUR_EV_BCAST:
    return OTF2_COLLECTIVE_OP_BCAST;
  case AUGUR_EV_REDUCE:
    return OTF2_COLLECTIVE_OP_REDUCE;
  case AUGUR_EV_ALLREDUCE:
    return OTF2_COLLECTIVE_OP_ALLREDUCE;
  case AUGUR_EV_GATHER:
    return OTF2_COLLECTIVE_OP_GATHER;
  case AUGUR_EV_GATHERV:
    return OTF2_COLLECTIVE_OP_GATHERV;
  case AUGUR_EV_SCATTER:
    return OTF2_COLLECTIVE_OP_SCATTER;
  case AUGUR_EV_SCATTERV:
    return OTF2_COLLECTIVE_OP_SCATTERV;
  case AUGUR_EV_ALLGATHER:
    return OTF2_COLLECTIVE_OP_ALLGATHER;
  case AUGUR_EV_ALLGATHERV:
    return OTF2_COLLECTIVE_OP_ALLGATHERV;
  case AUGUR_EV_ALLTOALL:
    return OTF2_COLLECTIVE_OP_ALLTOALL;
  case AUGUR_EV_ALLTOALLV:
    return OTF2_COLLECTIVE_OP_ALLTOALLV;
  case AUGUR_EV_ALLTOALLW:
    return OTF2_COLLECTIVE_OP_ALLTOALLW;
  case AUGUR_EV_REDUCE_SCATTER:
    return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
  case AUGUR_EV_REDUCE_SCATTER_BLOCK:
    return OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
  case AUGUR_EV_SCAN:
    return OTF2_COLLECTIVE_OP_SCAN;
  default:
    return OTF2_COLLECTIVE_OP_EXSCAN;
  }
}

static int is_blocking_send(unsigned type) {
  return (type >= AUGUR_EV_SEND && type <= AUGUR_EV_RSEND) || type == AUGUR_EV_SENDRECV ||
         type == AUGUR_EV_SENDRECV_REPLACE;
}

/* Enter (with the event's fields as attributes) and what happens at its start. */
static void write_start(xp *x, xloc *l, const augur_event *e, uint64_t ts) {
  if (!x->region[e->type]) {
    /* OTF2 wants dense references in definition order: number types as they appear. */
    x->region_type[x->nregions] = e->type;
    x->region[e->type] = ++x->nregions;
  }
  if (x->nctr && !augur_event_is_sub(e->type)) {
    OTF2_Type ty[AUGUR_MAX_COUNTERS];
    OTF2_MetricValue mv[AUGUR_MAX_COUNTERS];
    for (uint32_t i = 0; i < x->nctr; i++) {
      ty[i] = OTF2_TYPE_UINT64;
      mv[i].unsigned_int = e->ctr[x->ctr_index[i] % AUGUR_MAX_COUNTERS];
    }
    ok(x, OTF2_EvtWriter_Metric(l->w, NULL, ts, 0, (uint8_t)x->nctr, ty, mv), "metric");
    l->nevents++;
  }
  put_attrs(x, e);
  ok(x, OTF2_EvtWriter_Enter(l->w, x->al, ts, x->region[e->type] - 1), "enter");
  l->nevents++;
  OTF2_ErrorCode ioe = OTF2_SUCCESS;
  l->nevents += otf2_iorma_start(x->io, l->w, loc_ref(l->rank, l->thread), e, ts, &ioe);
  ok(x, ioe, "I/O, one-sided or neighbourhood record");
  uint32_t cr = comm_ref(x, e->comm);
  uint32_t peer = comm_rank(x, e->comm, e->peer, e->flags);
  if (cr == OTF2_UNDEFINED_COMM) {
    if (!is_blocking_coll(e->type)) return;
  }
  if (is_blocking_send(e->type) && peer != OTF2_UNDEFINED_UINT32) {
    ok(x, OTF2_EvtWriter_MpiSend(l->w, NULL, ts, peer, cr, (uint32_t)e->tag, e->bytes), "send");
    l->nevents++;
  } else if (e->type >= AUGUR_EV_ISEND && e->type <= AUGUR_EV_IRSEND &&
             peer != OTF2_UNDEFINED_UINT32) {
    ok(x, OTF2_EvtWriter_MpiIsend(l->w, NULL, ts, peer, cr, (uint32_t)e->tag, e->bytes, e->req),
       "isend");
    l->nevents++;
  } else if (e->type == AUGUR_EV_IRECV || e->type == AUGUR_EV_IMRECV) {
    ok(x, OTF2_EvtWriter_MpiIrecvRequest(l->w, NULL, ts, e->req), "irecv request");
    l->nevents++;
  } else if (is_blocking_coll(e->type)) {
    ok(x, OTF2_EvtWriter_MpiCollectiveBegin(l->w, NULL, ts), "collective begin");
    l->nevents++;
  }
}

/* What happens at the end of event e (a parent or one of its sub-records). */
static void write_end_records(xp *x, xloc *l, const augur_event *e, uint64_t ts) {
  OTF2_ErrorCode ioe = OTF2_SUCCESS;
  l->nevents += otf2_iorma_end(x->io, l->w, loc_ref(l->rank, l->thread), e, ts, &ioe);
  ok(x, ioe, "I/O, one-sided or neighbourhood record");
  uint32_t cr = comm_ref(x, e->comm);
  uint32_t peer = comm_rank(x, e->comm, e->peer, e->flags);
  if (is_blocking_coll(e->type)) {
    uint32_t root = OTF2_UNDEFINED_UINT32;
    if (e->type == AUGUR_EV_BCAST || e->type == AUGUR_EV_REDUCE || e->type == AUGUR_EV_GATHER ||
        e->type == AUGUR_EV_GATHERV || e->type == AUGUR_EV_SCATTER || e->type == AUGUR_EV_SCATTERV)
      root = peer;
    ok(x,
       OTF2_EvtWriter_MpiCollectiveEnd(l->w, NULL, ts, coll_op(e->type), cr, root, e->bytes,
                                       e->bytes_recv),
       "collective end");
    l->nevents++;
    return;
  }
  if (cr == OTF2_UNDEFINED_COMM) return;
  int recv = e->type == AUGUR_EV_RECV || e->type == AUGUR_EV_MRECV || e->type == AUGUR_EV_SUB_RECV;
  if (recv && peer != OTF2_UNDEFINED_UINT32) {
    ok(x, OTF2_EvtWriter_MpiRecv(l->w, NULL, ts, peer, cr, (uint32_t)e->tag, e->bytes_recv),
       "recv");
    l->nevents++;
  } else if (e->type == AUGUR_EV_COMPLETION && (e->flags & AUGUR_F_SENDREQ) &&
             !(e->flags & AUGUR_F_CANCELLED)) {
    ok(x, OTF2_EvtWriter_MpiIsendComplete(l->w, NULL, ts, e->req), "isend complete");
    l->nevents++;
  } else if (e->type == AUGUR_EV_COMPLETION && (e->flags & AUGUR_F_RECVREQ) &&
             !(e->flags & AUGUR_F_CANCELLED) && peer != OTF2_UNDEFINED_UINT32) {
    ok(x,
       OTF2_EvtWriter_MpiIrecv(l->w, NULL, ts, peer, cr, (uint32_t)e->tag, e->bytes_recv, e->req),
       "irecv");
    l->nevents++;
  }
}

static uint64_t ts_of(xp *x, uint64_t ns) {
  if (ns > x->tmax) x->tmax = ns;
  return x->offset + ns;
}

/* Ends the pending parent: sub-records as nested zero-length regions at its
 * end (OTF2 timestamps may not go back), then its end records and Leave. */
static void flush_loc(xp *x, xloc *l) {
  if (!l->pending) return;
  const augur_event *p = &l->parent;
  uint64_t te = ts_of(x, p->t_end < p->t_start ? p->t_start : p->t_end);
  for (size_t i = 0; i < l->nsubs; i++) {
    write_start(x, l, &l->subs[i], te);
    write_end_records(x, l, &l->subs[i], te);
    ok(x, OTF2_EvtWriter_Leave(l->w, NULL, te, x->region[l->subs[i].type] - 1), "leave");
    l->nevents++;
  }
  write_end_records(x, l, p, te);
  ok(x, OTF2_EvtWriter_Leave(l->w, NULL, te, x->region[p->type] - 1), "leave");
  l->nevents++;
  l->pending = 0;
  l->nsubs = 0;
}

/* ---- OpenMP records ---- */

/* The region that OpenMP record TYPE begins (its begin type) or ends
 * (*end = 1), or 0 for records that are no region. */
static unsigned omp_region(unsigned type, int *end) {
  static const uint16_t pairs[][2] = {{AUGUR_EV_OMP_ITASK_BEGIN, AUGUR_EV_OMP_ITASK_END},
                                      {AUGUR_EV_OMP_WORK_BEGIN, AUGUR_EV_OMP_WORK_END},
                                      {AUGUR_EV_OMP_SYNC_BEGIN, AUGUR_EV_OMP_SYNC_END},
                                      {AUGUR_EV_OMP_WAIT_BEGIN, AUGUR_EV_OMP_WAIT_END},
                                      {AUGUR_EV_OMP_MUTEX_ACQUIRE, AUGUR_EV_OMP_MUTEX_ACQUIRED},
                                      {AUGUR_EV_OMP_MASKED_BEGIN, AUGUR_EV_OMP_MASKED_END}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    *end = type == pairs[i][1];
    if (type == pairs[i][0] || *end) return pairs[i][0];
  }
  return 0;
}

static void omp_leave(xp *x, xloc *l, uint64_t ts) {
  unsigned ty = l->omp_open[--l->nomp];
  ok(x, OTF2_EvtWriter_Leave(l->w, NULL, ts, x->region[ty] - 1), "leave");
  l->nevents++;
}

/* Closes what is still open at the location's last OpenMP record. */
static void omp_close(xp *x, xloc *l) {
  uint64_t ts = l->omp_ts;
  if (l->nomp && l->parent.t_end && ts < ts_of(x, l->parent.t_end)) ts = ts_of(x, l->parent.t_end);
  x->unpaired += l->nomp;
  while (l->nomp)
    omp_leave(x, l, ts);
}

/* One OpenMP record on its thread's location. Regions nest per thread; an
 * end closes its begin and what is open inside it, an end without its begin
 * is left out, as are the initial task (no parallel region) and records
 * that are no region (tasks, dispatch, thread begin/end). */
static int omp_event(xp *x, xloc *l, const augur_event *e) {
  if (l->pending) flush_loc(x, l); /* the thread's MPI call ended before */
  uint64_t ts = ts_of(x, e->t_start);
  if (l->parent.t_end && ts < ts_of(x, l->parent.t_end)) ts = ts_of(x, l->parent.t_end);
  if (ts < l->omp_ts) ts = l->omp_ts;
  l->omp_ts = ts;
  switch (e->type) {
  case AUGUR_EV_OMP_FORK:
    ok(x, OTF2_EvtWriter_ThreadFork(l->w, NULL, ts, OTF2_PARADIGM_OPENMP, (uint32_t)e->aux),
       "thread fork");
    l->nevents++;
    return x->rc;
  case AUGUR_EV_OMP_JOIN:
    ok(x, OTF2_EvtWriter_ThreadJoin(l->w, NULL, ts, OTF2_PARADIGM_OPENMP), "thread join");
    l->nevents++;
    return x->rc;
  case AUGUR_EV_OMP_MUTEX_RELEASED:
    ok(x,
       OTF2_EvtWriter_ThreadReleaseLock(l->w, NULL, ts, OTF2_PARADIGM_OPENMP, (uint32_t)e->req,
                                        x->lock_order),
       "release lock");
    l->nevents++;
    return x->rc;
  default:
    break;
  }
  int end;
  unsigned ty = omp_region(e->type, &end);
  if (!ty || ((e->type == AUGUR_EV_OMP_ITASK_BEGIN || e->type == AUGUR_EV_OMP_ITASK_END) &&
              ((e->flags & 1) || !e->req)))
    return x->rc;
  if (!end) {
    if (l->nomp == sizeof l->omp_open / sizeof l->omp_open[0]) return x->rc; /* too deep */
    if (!x->region[ty]) {
      x->region_type[x->nregions] = (uint16_t)ty;
      x->region[ty] = ++x->nregions;
    }
    ok(x, OTF2_EvtWriter_Enter(l->w, NULL, ts, x->region[ty] - 1), "enter");
    l->nevents++;
    l->omp_open[l->nomp++] = (uint16_t)ty;
    return x->rc;
  }
  uint32_t k = l->nomp;
  while (k > 0 && l->omp_open[k - 1] != ty)
    k--;
  if (!k) { /* its begin was not seen */
    x->unpaired++;
    return x->rc;
  }
  x->unpaired += l->nomp - k; /* regions left open inside it */
  while (l->nomp >= k)
    omp_leave(x, l, ts);
  if (e->type == AUGUR_EV_OMP_MUTEX_ACQUIRED) {
    ok(x,
       OTF2_EvtWriter_ThreadAcquireLock(l->w, NULL, ts, OTF2_PARADIGM_OPENMP, (uint32_t)e->req,
                                        ++x->lock_order),
       "acquire lock");
    l->nevents++;
  }
  return x->rc;
}

static int add_event(xp *x, const augur_event *e) {
  if (e->type >= AUGUR_EV_MAX)
    return augur_fail(x->err, AUGUR_E_FORMAT, "otf2 export: rank %u: event type %u out of range",
                      e->rank, e->type);
  xloc *l = get_loc(x, e->rank, e->thread);
  if (!l) return augur_fail(x->err, AUGUR_E_NOMEM, "otf2 export: out of memory for locations");
  if (augur_event_is_omp(e->type)) return omp_event(x, l, e);
  if (augur_event_is_sub(e->type) && l->pending) {
    if (l->nsubs == l->capsubs) {
      size_t cap = l->capsubs ? 2 * l->capsubs : 8;
      augur_event *n = realloc(l->subs, cap * sizeof *n);
      if (!n) return augur_fail(x->err, AUGUR_E_NOMEM, "otf2 export: out of memory");
      l->subs = n;
      l->capsubs = cap;
    }
    l->subs[l->nsubs++] = *e;
    return x->rc;
  }
  flush_loc(x, l);
  l->parent = *e;
  l->pending = 1;
  write_start(x, l, e, ts_of(x, e->t_start));
  if (augur_event_is_sub(e->type)) flush_loc(x, l); /* orphan sub-record: a region of its own */
  return x->rc;
}

/* ---- global definitions ---- */

typedef struct strtab {
  char **s;
  uint32_t n, cap;
} strtab;

static uint32_t str_ref(strtab *st, const char *s) {
  if (!s) s = "";
  for (uint32_t i = 0; i < st->n; i++)
    if (strcmp(st->s[i], s) == 0) return i;
  if (st->n == st->cap) {
    uint32_t cap = st->cap ? 2 * st->cap : 256;
    char **n = realloc(st->s, cap * sizeof *n);
    if (!n) return 0;
    st->s = n;
    st->cap = cap;
  }
  st->s[st->n] = strdup(s);
  return st->s[st->n] ? st->n++ : 0;
}

static uint32_t str_ref_cb(void *st, const char *s) {
  return str_ref(st, s);
}

static OTF2_RegionRole region_role(unsigned type) {
  switch (type) {
  case AUGUR_EV_OMP_ITASK_BEGIN:
    return OTF2_REGION_ROLE_PARALLEL;
  case AUGUR_EV_OMP_WORK_BEGIN:
    return OTF2_REGION_ROLE_LOOP;
  case AUGUR_EV_OMP_SYNC_BEGIN:
  case AUGUR_EV_OMP_WAIT_BEGIN:
    return OTF2_REGION_ROLE_BARRIER;
  case AUGUR_EV_OMP_MUTEX_ACQUIRE:
    return OTF2_REGION_ROLE_CRITICAL;
  case AUGUR_EV_OMP_MASKED_BEGIN:
    return OTF2_REGION_ROLE_MASTER;
  default:
    break;
  }
  if (type == AUGUR_EV_BARRIER || type == AUGUR_EV_IBARRIER) return OTF2_REGION_ROLE_BARRIER;
  if (augur_event_is_io(type)) return OTF2_REGION_ROLE_FILE_IO;
  if (augur_event_is_rma(type)) return OTF2_REGION_ROLE_RMA;
  if (augur_event_is_neighbor(type)) return OTF2_REGION_ROLE_COLL_OTHER;
  if (augur_event_is_collective(type)) return OTF2_REGION_ROLE_COLL_ALL2ALL;
  if (augur_event_is_p2p_send(type) || augur_event_is_p2p_recv(type))
    return OTF2_REGION_ROLE_POINT2POINT;
  return OTF2_REGION_ROLE_FUNCTION;
}

static void region_name(unsigned type, char *buf, size_t n) {
  if (augur_event_is_omp(type)) {
    const char *s = type == AUGUR_EV_OMP_ITASK_BEGIN     ? "!$omp parallel"
                    : type == AUGUR_EV_OMP_WORK_BEGIN    ? "!$omp worksharing"
                    : type == AUGUR_EV_OMP_SYNC_BEGIN    ? "!$omp sync region"
                    : type == AUGUR_EV_OMP_WAIT_BEGIN    ? "!$omp sync wait"
                    : type == AUGUR_EV_OMP_MUTEX_ACQUIRE ? "!$omp mutex wait"
                                                         : "!$omp masked";
    snprintf(buf, n, "%s", s);
  } else if (augur_event_is_sub(type)) {
    const char *s = type == AUGUR_EV_COMPLETION   ? "COMPLETION"
                    : type == AUGUR_EV_SUB_RECV   ? "SUB_RECV"
                    : type == AUGUR_EV_NEIGH_SEND ? "NEIGH_SEND"
                    : type == AUGUR_EV_NEIGH_RECV ? "NEIGH_RECV"
                                                  : "SUB_START";
    snprintf(buf, n, "%s%s", OTF2_SUB_PREFIX, s);
  } else {
    snprintf(buf, n, "%s", augur_event_name(type));
  }
}

static void write_defs(xp *x) {
  OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(x->ar);
  if (!d) {
    ok(x, OTF2_ERROR_MEM_FAULT, "global definition writer");
    return;
  }
  augur_trace *t = x->t;
  uint32_t nranks = augur_trace_nranks(t);
  strtab st = {0};
  /* Strings first: collect every name, then write the table. */
  uint32_t s_empty = str_ref(&st, "");
  uint32_t s_machine = str_ref(&st, "augur trace"), s_cls_m = str_ref(&st, "machine"),
           s_cls_n = str_ref(&st, "node");
  uint32_t s_attr[OTF2A_COUNT];
  for (uint32_t a = 0; a < OTF2A_COUNT; a++)
    s_attr[a] = str_ref(&st, otf2_attr_names[a]);
  uint32_t *s_host = calloc(nranks ? nranks : 1, sizeof *s_host);
  uint32_t *s_rank = calloc(nranks ? nranks : 1, sizeof *s_rank);
  uint32_t *s_loc = calloc(x->nlocs ? x->nlocs : 1, sizeof *s_loc);
  uint32_t s_region[AUGUR_EV_MAX] = {0};
  size_t ncomm = augur_trace_ncomms(t);
  uint32_t *s_comm = calloc(ncomm ? ncomm : 1, sizeof *s_comm);
  uint32_t s_world = str_ref(&st, "MPI_COMM_WORLD locations");
  uint32_t s_ctr[AUGUR_MAX_COUNTERS] = {0}, s_ctr_desc = str_ref(&st, "augur counter delta");
  uint32_t s_unit = str_ref(&st, "#");
  otf2_iorma_strings(x->io, str_ref_cb, &st);
  if (!s_host || !s_rank || !s_loc || !s_comm) {
    ok(x, OTF2_ERROR_MEM_ALLOC_FAILED, "definitions");
    goto out;
  }
  char buf[256];
  for (uint32_t r = 0; r < nranks; r++) {
    const augur_rank_def *rd = augur_trace_rank(t, r);
    s_host[r] = str_ref(&st, rd && rd->host ? rd->host : "unknown host");
    snprintf(buf, sizeof buf, "MPI Rank %u", r);
    s_rank[r] = str_ref(&st, buf);
  }
  for (size_t i = 0; i < x->nlocs; i++) {
    snprintf(buf, sizeof buf, "Rank %u Thread %u", x->locs[i].rank, x->locs[i].thread);
    s_loc[i] = str_ref(&st, buf);
  }
  for (uint32_t i = 0; i < x->nregions; i++) {
    region_name(x->region_type[i], buf, sizeof buf);
    s_region[i] = str_ref(&st, buf);
  }
  for (size_t i = 0; i < ncomm; i++) {
    const augur_comm_def *c = augur_trace_comm_at(t, i);
    if (c->id == AUGUR_COMM_WORLD)
      snprintf(buf, sizeof buf, "MPI_COMM_WORLD");
    else if (c->id == AUGUR_COMM_SELF)
      snprintf(buf, sizeof buf, "MPI_COMM_SELF");
    else
      snprintf(buf, sizeof buf, "%s %016llx",
               c->kind == AUGUR_COMM_KIND_WINDOW  ? "window"
               : c->kind == AUGUR_COMM_KIND_GROUP ? "group"
                                                  : "comm",
               (unsigned long long)c->id);
    s_comm[i] = str_ref(&st, buf);
  }
  for (uint32_t i = 0; i < x->nctr; i++) {
    const augur_counter_def *c = augur_trace_counter(t, x->ctr_index[i]);
    s_ctr[i] = str_ref(&st, c && c->name ? c->name : "counter");
  }

  ok(x,
     OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000u, x->offset, x->tmax + 1,
                                               augur_trace_info_get(t)->start_unix_ns
                                                   ? augur_trace_info_get(t)->start_unix_ns
                                                   : OTF2_UNDEFINED_TIMESTAMP),
     "clock properties");
  for (uint32_t i = 0; i < st.n; i++)
    ok(x, OTF2_GlobalDefWriter_WriteString(d, i, st.s[i]), "string");
  for (uint32_t a = 0; a < OTF2A_COUNT; a++)
    ok(x, OTF2_GlobalDefWriter_WriteAttribute(d, a, s_attr[a], s_empty, OTF2_TYPE_UINT64),
       "attribute");
  /* System tree: the machine, one node per distinct host. */
  ok(x,
     OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, s_machine, s_cls_m,
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE),
     "system tree");
  for (uint32_t r = 0; r < nranks; r++) {
    uint32_t first = r;
    for (uint32_t q = 0; q < r; q++)
      if (s_host[q] == s_host[r]) {
        first = q;
        break;
      }
    if (first == r)
      ok(x, OTF2_GlobalDefWriter_WriteSystemTreeNode(d, r + 1, s_host[r], s_cls_n, 0),
         "system tree node");
    ok(x,
       OTF2_GlobalDefWriter_WriteLocationGroup(d, r, s_rank[r], OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                               first + 1, OTF2_UNDEFINED_LOCATION_GROUP),
       "location group");
  }
  for (size_t i = 0; i < x->nlocs; i++)
    ok(x,
       OTF2_GlobalDefWriter_WriteLocation(d, loc_ref(x->locs[i].rank, x->locs[i].thread), s_loc[i],
                                          OTF2_LOCATION_TYPE_CPU_THREAD, x->locs[i].nevents,
                                          x->locs[i].rank),
       "location");
  for (uint32_t i = 0; i < x->nregions; i++)
    ok(x,
       OTF2_GlobalDefWriter_WriteRegion(
           d, i, s_region[i], s_region[i], s_empty, region_role(x->region_type[i]),
           augur_event_is_omp(x->region_type[i]) ? OTF2_PARADIGM_OPENMP : OTF2_PARADIGM_MPI,
           OTF2_REGION_FLAG_NONE, s_empty, 0, 0),
       "region");
  /* Communicators: the world list of rank locations, then a group of world
   * ranks per communicator (indices into that list). */
  uint64_t *mem = malloc((nranks ? nranks : 1) * sizeof *mem);
  if (!mem) {
    ok(x, OTF2_ERROR_MEM_ALLOC_FAILED, "definitions");
    goto out;
  }
  for (uint32_t r = 0; r < nranks; r++)
    mem[r] = loc_ref(r, 0);
  ok(x,
     OTF2_GlobalDefWriter_WriteGroup(d, 0, s_world, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, nranks, mem),
     "world group");
  for (size_t i = 0; i < ncomm; i++) {
    const augur_comm_def *c = augur_trace_comm_at(t, i);
    uint32_t n = 0;
    uint64_t *m = malloc(((size_t)c->size + 1) * sizeof *m);
    if (!m) break;
    for (uint32_t k = 0; c->members && k < c->size; k++)
      m[n++] = (uint64_t)c->members[k];
    ok(x,
       OTF2_GlobalDefWriter_WriteGroup(
           d, (uint32_t)i + 1, s_comm[i],
           c->id == AUGUR_COMM_SELF ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP,
           OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, c->id == AUGUR_COMM_SELF ? 0 : n, m),
       "comm group");
    free(m);
  }
  free(mem);
  for (size_t i = 0; i < ncomm; i++) {
    const augur_comm_def *c = augur_trace_comm_at(t, i);
    uint32_t parent = c->parent ? comm_ref(x, c->parent) : OTF2_UNDEFINED_COMM;
    ok(x,
       OTF2_GlobalDefWriter_WriteComm(d, (uint32_t)i, s_comm[i], (uint32_t)i + 1, parent,
                                      OTF2_COMM_FLAG_NONE),
       "comm");
  }
  ok(x, otf2_iorma_defs(x->io, d), "I/O and one-sided definitions");
  if (x->nctr) {
    OTF2_MetricMemberRef mm[AUGUR_MAX_COUNTERS];
    for (uint32_t i = 0; i < x->nctr; i++) {
      const augur_counter_def *c = augur_trace_counter(t, x->ctr_index[i]);
      mm[i] = i;
      ok(x,
         OTF2_GlobalDefWriter_WriteMetricMember(
             d, i, s_ctr[i], s_ctr_desc,
             c && c->source == AUGUR_CTR_PAPI ? OTF2_METRIC_TYPE_PAPI : OTF2_METRIC_TYPE_OTHER,
             OTF2_METRIC_RELATIVE_LAST, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, s_unit),
         "metric member");
    }
    ok(x,
       OTF2_GlobalDefWriter_WriteMetricClass(
           d, 0, (uint8_t)x->nctr, mm, OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU),
       "metric class");
  }
out:
  for (uint32_t i = 0; i < st.n; i++)
    free(st.s[i]);
  free(st.s);
  free(s_host);
  free(s_rank);
  free(s_loc);
  free(s_comm);
}

static int mkdir_p(const char *path, augur_error *err) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    return augur_fail(err, AUGUR_E_ARG, "%s: path too long", path);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == 0) {
      char c = *p;
      *p = 0;
      if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return augur_fail(err, AUGUR_E_IO, "%s: cannot create directory: %s", buf, strerror(errno));
      *p = c;
      if (!c) break;
    }
  }
  return AUGUR_OK;
}

int augur_export_otf2(augur_trace *t, const char *out, const augur_export_opts *o,
                      augur_export_stats *st, augur_error *err) {
  if (st) memset(st, 0, sizeof *st);
  if (!t || !out) return augur_fail(err, AUGUR_E_ARG, "otf2 export: no trace or no output");
  char anchor[4200];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", out);
  struct stat sb;
  if (stat(anchor, &sb) == 0)
    return augur_fail(err, AUGUR_E_IO, "%s: an OTF2 archive already exists there", anchor);
  int rc = mkdir_p(out, err);
  if (rc != AUGUR_OK) return rc;

  xp x;
  memset(&x, 0, sizeof x);
  x.t = t;
  x.err = err;
  OTF2_ErrorCallback prev_cb = OTF2_Error_RegisterCallback(on_otf2_error, &x);
  x.offset = augur_trace_info_get(t)->start_unix_ns;
  x.nctr = augur_trace_ncounters(t);
  for (uint32_t r = 0; r < augur_trace_nranks(t) && !x.hybrid; r++)
    x.hybrid = augur_trace_omp_nblocks(t, r) > 0;
  for (uint32_t i = 0; i < x.nctr && i < AUGUR_MAX_COUNTERS; i++) {
    const augur_rank_def *rd = NULL;
    for (uint32_t r = 0; r < augur_trace_nranks(t) && !rd; r++)
      rd = augur_trace_rank(t, r);
    x.ctr_index[i] = rd ? rd->counters[i].index : i;
  }
  if (x.nctr > AUGUR_MAX_COUNTERS) x.nctr = AUGUR_MAX_COUNTERS;
  x.ncomms = augur_trace_ncomms(t);
  x.comms = calloc(x.ncomms ? x.ncomms : 1, sizeof *x.comms);
  x.al = OTF2_AttributeList_New();
  x.io = otf2_iorma_new(t, comm_ref_cb, &x);
  x.ar = OTF2_Archive_Open(out, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                           OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!x.comms || !x.al || !x.ar || !x.io) {
    rc = augur_fail(err, x.ar ? AUGUR_E_NOMEM : AUGUR_E_IO, "%s: cannot create the OTF2 archive",
                    out);
    goto done;
  }
  for (size_t i = 0; i < x.ncomms; i++) {
    x.comms[i].id = augur_trace_comm_at(t, i)->id;
    x.comms[i].ref = (uint32_t)i;
  }
  qsort(x.comms, x.ncomms, sizeof *x.comms, cmp_comm);
  x.rc = AUGUR_OK;
  ok(&x, OTF2_Archive_SetFlushCallbacks(x.ar, &flush_cb, NULL), "flush callbacks");
  ok(&x, OTF2_Archive_SetSerialCollectiveCallbacks(x.ar), "collective callbacks");
  ok(&x, OTF2_Archive_SetCreator(x.ar, "augur export --format otf2"), "creator");
  ok(&x, OTF2_Archive_OpenEvtFiles(x.ar), "open event files");

  uint64_t total = 0, done = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++)
    total += augur_trace_nevents(t, r) + augur_trace_omp_nevents(t, r);
  augur_event ev;
  for (uint32_t r = 0; r < augur_trace_nranks(t) && x.rc == AUGUR_OK; r++) {
    augur_stream *s = NULL;
    rc = x.hybrid ? augur_stream_rank_kinds(t, r, AUGUR_KIND_MPI | AUGUR_KIND_OMP, &s, err)
                  : augur_stream_rank(t, r, &s, err);
    if (rc != AUGUR_OK) {
      x.rc = rc;
      break;
    }
    size_t first = x.nlocs;
    while ((rc = augur_stream_next(s, &ev, err)) == 1) {
      if (add_event(&x, &ev) != AUGUR_OK) break;
      done++;
      if (o && o->progress && (done & 0xffffu) == 0) o->progress(o->progress_ctx, done, total);
    }
    augur_stream_close(s);
    if (rc < 0 && x.rc == AUGUR_OK) x.rc = rc;
    for (size_t i = first; i < x.nlocs; i++) {
      flush_loc(&x, &x.locs[i]);
      omp_close(&x, &x.locs[i]);
    }
  }
  if (st) st->events = done;
  if (st) st->omp_unpaired = x.unpaired;
  for (size_t i = 0; i < x.nlocs; i++) {
    if (st) st->records += x.locs[i].nevents;
    ok(&x, OTF2_Archive_CloseEvtWriter(x.ar, x.locs[i].w), "close event writer");
  }
  ok(&x, OTF2_Archive_CloseEvtFiles(x.ar), "close event files");
  /* Empty local definition files: readers expect one per location. */
  ok(&x, OTF2_Archive_OpenDefFiles(x.ar), "open definition files");
  for (size_t i = 0; i < x.nlocs; i++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(x.ar, loc_ref(x.locs[i].rank, x.locs[i].thread));
    if (dw) ok(&x, OTF2_Archive_CloseDefWriter(x.ar, dw), "close definition writer");
  }
  ok(&x, OTF2_Archive_CloseDefFiles(x.ar), "close definition files");
  if (x.rc == AUGUR_OK) write_defs(&x);
  size_t nfiles;
  const uint64_t *files = otf2_iorma_files(x.io, &nfiles);
  char *json = otf2_defs_to_json(t, files, nfiles);
  if (!json)
    ok(&x, OTF2_ERROR_MEM_ALLOC_FAILED, "definitions as JSON");
  else if (strlen(json) <= OTF2_AUGUR_PROPERTY_MAX)
    ok(&x, OTF2_Archive_SetProperty(x.ar, OTF2_AUGUR_PROPERTY, json, true), "property");
  else if (write_defs_file(&x, out, json))
    ok(&x, OTF2_Archive_SetProperty(x.ar, OTF2_AUGUR_PROPERTY_FILE, OTF2_AUGUR_DEFS_FILE, true),
       "property");
  free(json);
  rc = x.rc;
done:
  if (x.ar && OTF2_Archive_Close(x.ar) != OTF2_SUCCESS && rc == AUGUR_OK)
    rc = augur_fail(err, AUGUR_E_IO, "%s: closing the OTF2 archive failed", out);
  if (rc == AUGUR_OK) rc = x.rc; /* an error OTF2 printed while closing */
  OTF2_Error_RegisterCallback(prev_cb, NULL);
  if (x.al) OTF2_AttributeList_Delete(x.al);
  otf2_iorma_free(x.io);
  for (size_t i = 0; i < x.nlocs; i++)
    free(x.locs[i].subs);
  free(x.locs);
  free(x.comms);
  if (rc == AUGUR_OK && st) {
    /* Bytes: the anchor plus the event and definition files. */
    char p[4300];
    snprintf(p, sizeof p, "%s/traces.otf2", out);
    if (stat(p, &sb) == 0) st->bytes += (uint64_t)sb.st_size;
    snprintf(p, sizeof p, "%s/traces.def", out);
    if (stat(p, &sb) == 0) st->bytes += (uint64_t)sb.st_size;
    snprintf(p, sizeof p, "%s/%s", out, OTF2_AUGUR_DEFS_FILE);
    if (stat(p, &sb) == 0) st->bytes += (uint64_t)sb.st_size;
    for (size_t r = 0; r < augur_trace_nranks(t); r++) {
      snprintf(p, sizeof p, "%s/traces/%zu.evt", out, r);
      if (stat(p, &sb) == 0) st->bytes += (uint64_t)sb.st_size;
    }
  }
  return rc;
}
