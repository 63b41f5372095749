/* augur's MPI-IO, one-sided and neighbourhood records as OTF2 records
 * (docs/otf2.md, "MPI-IO, one-sided and neighbourhood calls"):
 *
 * - MPI-IO: one IoParadigm "MPI-IO"; an IoRegularFile per file id (its name
 *   from the trace's definitions); an IoHandle per (file, communicator it was
 *   opened on). File_open ends with IoCreateHandle, File_close with
 *   IoDestroyHandle, File_delete with IoDeleteFile; reads and writes are
 *   IoOperationBegin/Complete (File_i* and split *_begin: Begin + Issued,
 *   completed at their COMPLETION / *_end), File_sync a FLUSH operation.
 * - One-sided: an RmaWin per window (its Comm: the window's communicator);
 *   creation/free and fence as RmaCollectiveBegin/End (with RmaWinCreate /
 *   RmaWinDestroy inside), post/start/complete/wait/test as RmaGroupSync,
 *   lock/lock_all as RmaRequestLock and unlock(_all) as RmaReleaseLock, data
 *   calls as RmaPut/RmaGet/RmaAtomic, completed by RmaOpCompleteNonBlocking at
 *   the synchronisation that completes them (or the R* request's completion).
 * - Neighbourhood collectives: MpiCollectiveBegin/End with the all-gather /
 *   all-to-all operation of the same name over the communicator. */
#include <stdlib.h>
#include <string.h>

#include "augur/mpiio.h"
#include "grow.h"
#include "otf2_iorma.h"

typedef struct ifile {
  uint64_t id;
  uint32_t name; /* string ref */
} ifile;
typedef struct ihandle {
  uint64_t file, comm;
  uint32_t fref, name;
} ihandle;
typedef struct iwin {
  uint64_t id;
  uint32_t alloc; /* created by Win_allocate(_shared) */
  uint32_t name;
} iwin;
typedef struct iop { /* an RMA operation not completed yet */
  uint64_t loc, win, req, id;
  int32_t target; /* world rank */
} iop;
typedef struct ipscw { /* the groups of a location's latest post / start on a window */
  uint64_t loc, win;
  uint32_t post, start;
} ipscw;

struct otf2_iorma {
  augur_trace *t;
  uint32_t (*comm_ref)(const void *ctx, uint64_t id); /* the exporter's Comm references */
  const void *ctx;
  ifile *files;
  size_t nfiles, capfiles;
  uint64_t *file_ids;
  ihandle *handles;
  size_t nhandles, caphandles;
  iwin *wins;
  size_t nwins, capwins;
  iop *ops;
  size_t nops, capops;
  ipscw *pscw;
  size_t npscw, cappscw;
  uint64_t next_op;
  uint32_t s_paradigm_id, s_paradigm_name;
  int oom;
};

otf2_iorma *otf2_iorma_new(augur_trace *t, uint32_t (*comm_ref)(const void *ctx, uint64_t id),
                           const void *ctx) {
  otf2_iorma *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->t = t;
  x->comm_ref = comm_ref;
  x->ctx = ctx;
  return x;
}

void otf2_iorma_free(otf2_iorma *x) {
  if (!x) return;
  free(x->files);
  free(x->file_ids);
  free(x->handles);
  free(x->wins);
  free(x->ops);
  free(x->pscw);
  free(x);
}

static uint32_t comm_ref(const otf2_iorma *x, uint64_t id) {
  return x->comm_ref(x->ctx, id);
}

/* World rank -> rank in communicator (or window) ID; undefined if not a member. */
static uint32_t rank_in(const otf2_iorma *x, uint64_t id, int32_t world) {
  int64_t r = augur_trace_comm_rank(x->t, id, world, 0);
  return r < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)r;
}

static uint32_t file_ref(otf2_iorma *x, uint64_t id) {
  for (size_t i = 0; i < x->nfiles; i++)
    if (x->files[i].id == id) return (uint32_t)i;
  if (aug_grow((void **)&x->files, &x->capfiles, x->nfiles + 1, sizeof *x->files)) {
    x->oom = 1;
    return OTF2_UNDEFINED_IO_FILE;
  }
  x->files[x->nfiles] = (ifile){id, 0};
  return (uint32_t)x->nfiles++;
}

static uint32_t handle_ref(otf2_iorma *x, uint64_t file, uint64_t comm) {
  for (size_t i = 0; i < x->nhandles; i++)
    if (x->handles[i].file == file && x->handles[i].comm == comm) return (uint32_t)i;
  uint32_t f = file_ref(x, file);
  if (f == OTF2_UNDEFINED_IO_FILE ||
      aug_grow((void **)&x->handles, &x->caphandles, x->nhandles + 1, sizeof *x->handles)) {
    x->oom = 1;
    return OTF2_UNDEFINED_IO_HANDLE;
  }
  x->handles[x->nhandles] = (ihandle){file, comm, f, 0};
  return (uint32_t)x->nhandles++;
}

static uint32_t win_ref(otf2_iorma *x, uint64_t id, int alloc) {
  for (size_t i = 0; i < x->nwins; i++)
    if (x->wins[i].id == id) {
      if (alloc) x->wins[i].alloc = 1;
      return (uint32_t)i;
    }
  if (aug_grow((void **)&x->wins, &x->capwins, x->nwins + 1, sizeof *x->wins)) {
    x->oom = 1;
    return OTF2_UNDEFINED_RMA_WIN;
  }
  x->wins[x->nwins] = (iwin){id, (uint32_t)alloc, 0};
  return (uint32_t)x->nwins++;
}

static ipscw *pscw_of(otf2_iorma *x, uint64_t loc, uint64_t win) {
  for (size_t i = 0; i < x->npscw; i++)
    if (x->pscw[i].loc == loc && x->pscw[i].win == win) return &x->pscw[i];
  if (aug_grow((void **)&x->pscw, &x->cappscw, x->npscw + 1, sizeof *x->pscw)) {
    x->oom = 1;
    return NULL;
  }
  x->pscw[x->npscw] = (ipscw){loc, win, OTF2_UNDEFINED_GROUP, OTF2_UNDEFINED_GROUP};
  return &x->pscw[x->npscw++];
}

/* The OTF2 Group of augur definition ID (otf2_export.c writes definition i as group i + 1). */
static uint32_t group_ref(const otf2_iorma *x, uint64_t id) {
  uint32_t c = comm_ref(x, id);
  return c == OTF2_UNDEFINED_COMM ? OTF2_UNDEFINED_GROUP : c + 1;
}

static void keep(OTF2_ErrorCode *rc, OTF2_ErrorCode e) {
  if (e != OTF2_SUCCESS && *rc == OTF2_SUCCESS) *rc = e;
}

static int is_rma_data(unsigned t) {
  return t >= AUGUR_EV_PUT && t <= AUGUR_EV_RGET_ACCUMULATE;
}

/* RmaOpCompleteNonBlocking for the location's open operations on WIN (to
 * TARGET, or every target when TARGET < 0). */
static uint64_t complete_ops(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, uint64_t win,
                             int32_t target, uint64_t ts, OTF2_ErrorCode *rc) {
  uint64_t n = 0;
  uint32_t wr = win_ref(x, win, 0);
  size_t k = 0;
  for (size_t i = 0; i < x->nops; i++) {
    iop *o = &x->ops[i];
    if (o->loc == loc && o->win == win && !o->req && (target < 0 || o->target == target)) {
      keep(rc, OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, ts, wr, o->id));
      n++;
    } else {
      x->ops[k++] = *o;
    }
  }
  x->nops = k;
  return n;
}

static uint64_t io_start(otf2_iorma *x, OTF2_EvtWriter *w, const augur_event *e, uint64_t ts,
                         OTF2_ErrorCode *rc) {
  unsigned t = e->type;
  if (!augur_io_is_data(t) && t != AUGUR_EV_FILE_SYNC) return 0;
  if (augur_io_is_end(t)) return 0; /* its operation began at *_begin */
  uint32_t h = handle_ref(x, e->hash, e->comm);
  if (h == OTF2_UNDEFINED_IO_HANDLE) return 0;
  OTF2_IoOperationMode mode = t == AUGUR_EV_FILE_SYNC ? OTF2_IO_OPERATION_MODE_FLUSH
                              : augur_io_is_read(t)   ? OTF2_IO_OPERATION_MODE_READ
                                                      : OTF2_IO_OPERATION_MODE_WRITE;
  OTF2_IoOperationFlag fl = OTF2_IO_OPERATION_FLAG_NONE;
  if (augur_io_is_collective(t)) fl |= OTF2_IO_OPERATION_FLAG_COLLECTIVE;
  uint64_t id = OTF2_UNDEFINED_UINT64;
  if (augur_io_is_nonblocking(t)) id = e->req;
  if (augur_io_is_begin(t)) id = (1ull << 63) | h; /* one split collective per handle at a time */
  if (id != OTF2_UNDEFINED_UINT64) fl |= OTF2_IO_OPERATION_FLAG_NON_BLOCKING;
  keep(rc, OTF2_EvtWriter_IoOperationBegin(w, NULL, ts, h, mode, fl, e->bytes + e->bytes_recv, id));
  return 1;
}

static uint64_t io_end(otf2_iorma *x, OTF2_EvtWriter *w, const augur_event *e, uint64_t ts,
                       OTF2_ErrorCode *rc) {
  unsigned t = e->type;
  if (t == AUGUR_EV_FILE_DELETE) {
    uint32_t f = file_ref(x, e->hash);
    if (f == OTF2_UNDEFINED_IO_FILE) return 0;
    keep(rc, OTF2_EvtWriter_IoDeleteFile(w, NULL, ts, 0, f));
    return 1;
  }
  if (t == AUGUR_EV_COMPLETION && !augur_io_is_completion(e)) return 0;
  if (t != AUGUR_EV_COMPLETION && !augur_io_is_data(t) && t != AUGUR_EV_FILE_SYNC &&
      t != AUGUR_EV_FILE_OPEN && t != AUGUR_EV_FILE_CLOSE)
    return 0;
  uint32_t h = handle_ref(x, e->hash, e->comm);
  if (h == OTF2_UNDEFINED_IO_HANDLE) return 0;
  if (t == AUGUR_EV_FILE_OPEN) {
    keep(rc, OTF2_EvtWriter_IoCreateHandle(w, NULL, ts, h, OTF2_IO_ACCESS_MODE_READ_WRITE,
                                           OTF2_IO_CREATION_FLAG_NONE, OTF2_IO_STATUS_FLAG_NONE));
    return 1;
  }
  if (t == AUGUR_EV_FILE_CLOSE) {
    keep(rc, OTF2_EvtWriter_IoDestroyHandle(w, NULL, ts, h));
    return 1;
  }
  if (t == AUGUR_EV_COMPLETION) {
    keep(rc, OTF2_EvtWriter_IoOperationComplete(w, NULL, ts, h, e->bytes + e->bytes_recv, e->req));
    return 1;
  }
  if (augur_io_is_nonblocking(t)) {
    keep(rc, OTF2_EvtWriter_IoOperationIssued(w, NULL, ts, h, e->req));
    return 1;
  }
  if (augur_io_is_begin(t)) {
    keep(rc, OTF2_EvtWriter_IoOperationIssued(w, NULL, ts, h, (1ull << 63) | h));
    return 1;
  }
  uint64_t id = augur_io_is_end(t) ? (1ull << 63) | h : OTF2_UNDEFINED_UINT64;
  keep(rc, OTF2_EvtWriter_IoOperationComplete(w, NULL, ts, h, e->bytes + e->bytes_recv, id));
  return 1;
}

static int is_win_create(unsigned t) {
  return t >= AUGUR_EV_WIN_CREATE && t <= AUGUR_EV_WIN_CREATE_DYNAMIC;
}

static uint64_t rma_start(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, const augur_event *e,
                          uint64_t ts, OTF2_ErrorCode *rc) {
  unsigned t = e->type;
  if (is_win_create(t) || t == AUGUR_EV_WIN_FREE || t == AUGUR_EV_WIN_FENCE) {
    keep(rc, OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, ts));
    return 1;
  }
  if (t == AUGUR_EV_WIN_LOCK || t == AUGUR_EV_WIN_LOCK_ALL) {
    uint32_t wr = win_ref(x, e->comm, 0);
    OTF2_LockType lt = t == AUGUR_EV_WIN_LOCK && e->tag == AUGUR_RMA_LOCK_EXCLUSIVE
                           ? OTF2_LOCK_EXCLUSIVE
                           : OTF2_LOCK_SHARED;
    if (t == AUGUR_EV_WIN_LOCK) {
      uint32_t r = rank_in(x, e->comm, e->peer);
      if (r == OTF2_UNDEFINED_UINT32) return 0;
      keep(rc, OTF2_EvtWriter_RmaRequestLock(w, NULL, ts, wr, r, r, lt));
      return 1;
    }
    const augur_comm_def *c = augur_trace_comm(x->t, e->comm);
    uint64_t n = 0;
    for (uint32_t r = 0; c && r < c->size; r++, n++)
      keep(rc, OTF2_EvtWriter_RmaRequestLock(w, NULL, ts, wr, r, r, lt));
    return n;
  }
  if (!is_rma_data(t)) return 0;
  uint32_t r = rank_in(x, e->comm, e->peer);
  if (r == OTF2_UNDEFINED_UINT32) return 0; /* MPI_PROC_NULL */
  if (aug_grow((void **)&x->ops, &x->capops, x->nops + 1, sizeof *x->ops)) {
    x->oom = 1;
    return 0;
  }
  uint64_t id = ++x->next_op;
  int reqop = t >= AUGUR_EV_RPUT;
  x->ops[x->nops++] = (iop){loc, e->comm, reqop ? e->req : 0, id, e->peer};
  uint32_t wr = win_ref(x, e->comm, 0);
  switch (t) {
  case AUGUR_EV_PUT:
  case AUGUR_EV_RPUT:
    keep(rc, OTF2_EvtWriter_RmaPut(w, NULL, ts, wr, r, e->bytes, id));
    break;
  case AUGUR_EV_GET:
  case AUGUR_EV_RGET:
    keep(rc, OTF2_EvtWriter_RmaGet(w, NULL, ts, wr, r, e->bytes_recv, id));
    break;
  default: {
    OTF2_RmaAtomicType at = t == AUGUR_EV_COMPARE_AND_SWAP ? OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP
                            : t == AUGUR_EV_ACCUMULATE || t == AUGUR_EV_RACCUMULATE
                                ? OTF2_RMA_ATOMIC_TYPE_ACCUMULATE
                                : OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE;
    keep(rc, OTF2_EvtWriter_RmaAtomic(w, NULL, ts, wr, r, at, e->bytes, e->bytes_recv, id));
  }
  }
  return 1;
}

static uint64_t rma_end(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, const augur_event *e,
                        uint64_t ts, OTF2_ErrorCode *rc) {
  unsigned t = e->type;
  const OTF2_RmaSyncLevel all = OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY;
  if (t == AUGUR_EV_COMPLETION) { /* of an R* request: the reader gave it the start's type */
    if (e->tag < AUGUR_EV_RPUT || e->tag > AUGUR_EV_RGET_ACCUMULATE ||
        (e->flags & (AUGUR_F_SENDREQ | AUGUR_F_RECVREQ | AUGUR_F_COLLREQ | AUGUR_F_UNMATCHED)))
      return 0;
    for (size_t i = 0; i < x->nops; i++)
      if (x->ops[i].loc == loc && x->ops[i].req == e->req && x->ops[i].req) {
        keep(rc, OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, ts, win_ref(x, x->ops[i].win, 0),
                                                         x->ops[i].id));
        x->ops[i] = x->ops[--x->nops];
        return 1;
      }
    return 0;
  }
  if (is_win_create(t)) {
    int alloc = t == AUGUR_EV_WIN_ALLOCATE || t == AUGUR_EV_WIN_ALLOCATE_SHARED;
    uint32_t wr = win_ref(x, e->req, alloc);
    keep(rc, OTF2_EvtWriter_RmaWinCreate(w, NULL, ts, wr));
    keep(rc, OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, ts,
                                             alloc ? OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE
                                                   : OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                             OTF2_RMA_SYNC_LEVEL_NONE, wr, OTF2_UNDEFINED_UINT32, 0,
                                             0));
    return 2;
  }
  if (!augur_event_is_rma(t)) return 0;
  uint32_t wr = win_ref(x, e->comm, 0);
  if (wr == OTF2_UNDEFINED_RMA_WIN) return 0; /* out of memory: otf2_iorma_defs reports it */
  if (t == AUGUR_EV_WIN_FREE) {
    int alloc = x->wins[wr].alloc;
    keep(rc, OTF2_EvtWriter_RmaWinDestroy(w, NULL, ts, wr));
    keep(rc, OTF2_EvtWriter_RmaCollectiveEnd(
                 w, NULL, ts,
                 alloc ? OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                       : OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                 OTF2_RMA_SYNC_LEVEL_NONE, wr, OTF2_UNDEFINED_UINT32, 0, 0));
    return 2;
  }
  uint64_t n = 0;
  int32_t target = -1;
  switch (t) {
  case AUGUR_EV_WIN_FENCE:
    n = complete_ops(x, w, loc, e->comm, -1, ts, rc);
    keep(rc, OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, ts, OTF2_COLLECTIVE_OP_BARRIER, all, wr,
                                             OTF2_UNDEFINED_UINT32, 0, 0));
    return n + 1;
  case AUGUR_EV_WIN_POST:
  case AUGUR_EV_WIN_START: {
    ipscw *p = pscw_of(x, loc, e->comm);
    uint32_t g = group_ref(x, e->req);
    if (!p || g == OTF2_UNDEFINED_GROUP) return 0;
    if (t == AUGUR_EV_WIN_POST)
      p->post = g;
    else
      p->start = g;
    keep(rc, OTF2_EvtWriter_RmaGroupSync(w, NULL, ts, OTF2_RMA_SYNC_LEVEL_PROCESS, wr, g));
    return 1;
  }
  case AUGUR_EV_WIN_COMPLETE:
  case AUGUR_EV_WIN_WAIT:
  case AUGUR_EV_WIN_TEST: {
    if (t == AUGUR_EV_WIN_TEST && (e->flags & AUGUR_F_NOTDONE)) return 0;
    ipscw *p = pscw_of(x, loc, e->comm);
    uint32_t g = !p ? OTF2_UNDEFINED_GROUP : t == AUGUR_EV_WIN_COMPLETE ? p->start : p->post;
    if (t == AUGUR_EV_WIN_COMPLETE) n = complete_ops(x, w, loc, e->comm, -1, ts, rc);
    if (g == OTF2_UNDEFINED_GROUP) return n;
    keep(rc, OTF2_EvtWriter_RmaGroupSync(w, NULL, ts, all, wr, g));
    return n + 1;
  }
  case AUGUR_EV_WIN_UNLOCK:
  case AUGUR_EV_WIN_UNLOCK_ALL: {
    const augur_comm_def *c = augur_trace_comm(x->t, e->comm);
    if (t == AUGUR_EV_WIN_UNLOCK) target = e->peer;
    n = complete_ops(x, w, loc, e->comm, target, ts, rc);
    for (uint32_t r = 0; c && c->members && r < c->size; r++)
      if (target < 0 || c->members[r] == target) {
        keep(rc, OTF2_EvtWriter_RmaReleaseLock(w, NULL, ts, wr, r, r));
        n++;
      }
    return n;
  }
  case AUGUR_EV_WIN_FLUSH:
  case AUGUR_EV_WIN_FLUSH_LOCAL:
    return complete_ops(x, w, loc, e->comm, e->peer, ts, rc);
  case AUGUR_EV_WIN_FLUSH_ALL:
  case AUGUR_EV_WIN_FLUSH_LOCAL_ALL:
    return complete_ops(x, w, loc, e->comm, -1, ts, rc);
  default:
    return 0;
  }
}

static OTF2_CollectiveOp neigh_op(unsigned t) {
  switch (t) {
  case AUGUR_EV_NEIGHBOR_ALLGATHER:
    return OTF2_COLLECTIVE_OP_ALLGATHER;
  case AUGUR_EV_NEIGHBOR_ALLGATHERV:
    return OTF2_COLLECTIVE_OP_ALLGATHERV;
  case AUGUR_EV_NEIGHBOR_ALLTOALL:
    return OTF2_COLLECTIVE_OP_ALLTOALL;
  case AUGUR_EV_NEIGHBOR_ALLTOALLV:
    return OTF2_COLLECTIVE_OP_ALLTOALLV;
  default:
    return OTF2_COLLECTIVE_OP_ALLTOALLW;
  }
}

static int is_blocking_neigh(const otf2_iorma *x, const augur_event *e) {
  return e->type >= AUGUR_EV_NEIGHBOR_ALLGATHER && e->type <= AUGUR_EV_NEIGHBOR_ALLTOALLW &&
         comm_ref(x, e->comm) != OTF2_UNDEFINED_COMM;
}

uint64_t otf2_iorma_start(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, const augur_event *e,
                          uint64_t ts, OTF2_ErrorCode *rc) {
  if (augur_event_is_io(e->type)) return io_start(x, w, e, ts, rc);
  if (augur_event_is_rma(e->type)) return rma_start(x, w, loc, e, ts, rc);
  if (is_blocking_neigh(x, e)) {
    keep(rc, OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts));
    return 1;
  }
  return 0;
}

uint64_t otf2_iorma_end(otf2_iorma *x, OTF2_EvtWriter *w, uint64_t loc, const augur_event *e,
                        uint64_t ts, OTF2_ErrorCode *rc) {
  if (augur_event_is_io(e->type) || augur_io_is_completion(e)) return io_end(x, w, e, ts, rc);
  if (augur_event_is_rma(e->type) || e->type == AUGUR_EV_COMPLETION)
    return rma_end(x, w, loc, e, ts, rc);
  if (is_blocking_neigh(x, e)) {
    keep(rc, OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, neigh_op(e->type), comm_ref(x, e->comm),
                                             OTF2_UNDEFINED_UINT32, e->bytes, e->bytes_recv));
    return 1;
  }
  return 0;
}

static void hex_name(char *buf, size_t n, const char *what, uint64_t id) {
  snprintf(buf, n, "%s %016llx", what, (unsigned long long)id);
}

void otf2_iorma_strings(otf2_iorma *x, uint32_t (*str)(void *ctx, const char *s), void *ctx) {
  char buf[64];
  if (x->nfiles) {
    x->s_paradigm_id = str(ctx, "MPI-IO");
    x->s_paradigm_name = str(ctx, "MPI I/O");
  }
  for (size_t i = 0; i < x->nfiles; i++) {
    const char *nm = augur_trace_file_name(x->t, x->files[i].id);
    if (!nm) hex_name(buf, sizeof buf, "file", x->files[i].id);
    x->files[i].name = str(ctx, nm ? nm : buf);
  }
  for (size_t i = 0; i < x->nhandles; i++) {
    const char *nm = augur_trace_file_name(x->t, x->handles[i].file);
    if (!nm) hex_name(buf, sizeof buf, "file", x->handles[i].file);
    x->handles[i].name = str(ctx, nm ? nm : buf);
  }
  for (size_t i = 0; i < x->nwins; i++) {
    hex_name(buf, sizeof buf, "window", x->wins[i].id);
    x->wins[i].name = str(ctx, buf);
  }
}

OTF2_ErrorCode otf2_iorma_defs(otf2_iorma *x, OTF2_GlobalDefWriter *d) {
  OTF2_ErrorCode rc = x->oom ? OTF2_ERROR_MEM_ALLOC_FAILED : OTF2_SUCCESS;
  if (x->nfiles)
    keep(&rc, OTF2_GlobalDefWriter_WriteIoParadigm(
                  d, 0, x->s_paradigm_id, x->s_paradigm_name, OTF2_IO_PARADIGM_CLASS_PARALLEL,
                  OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL));
  for (size_t i = 0; i < x->nfiles; i++)
    keep(&rc, OTF2_GlobalDefWriter_WriteIoRegularFile(d, (uint32_t)i, x->files[i].name,
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  for (size_t i = 0; i < x->nhandles; i++)
    keep(&rc, OTF2_GlobalDefWriter_WriteIoHandle(d, (uint32_t)i, x->handles[i].name,
                                                 x->handles[i].fref, 0, OTF2_IO_HANDLE_FLAG_NONE,
                                                 comm_ref(x, x->handles[i].comm),
                                                 OTF2_UNDEFINED_IO_HANDLE));
  for (size_t i = 0; i < x->nwins; i++) {
    const augur_comm_def *c = augur_trace_comm(x->t, x->wins[i].id);
    keep(&rc, OTF2_GlobalDefWriter_WriteRmaWin(d, (uint32_t)i, x->wins[i].name,
                                               c ? comm_ref(x, c->parent) : OTF2_UNDEFINED_COMM,
                                               OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS));
  }
  return rc;
}

const uint64_t *otf2_iorma_files(const otf2_iorma *x, size_t *n) {
  *n = 0;
  if (!x || !x->nfiles) return NULL;
  uint64_t *ids = realloc(((otf2_iorma *)x)->file_ids, x->nfiles * sizeof *ids);
  if (!ids) return NULL;
  ((otf2_iorma *)x)->file_ids = ids;
  for (size_t i = 0; i < x->nfiles; i++)
    ids[i] = x->files[i].id;
  *n = x->nfiles;
  return ids;
}
