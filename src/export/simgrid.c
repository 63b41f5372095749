/* SimGrid time-independent (TI) trace export, for SMPI's replay
 * (smpirun -replay OUT/index.txt ...).
 *
 * One action file per rank, OUT/rank-N.txt, and OUT/index.txt listing them
 * in rank order. Each line is "<rank> <action> <args>", following SimGrid's
 * smpi_replay parsers: send/isend/recv/irecv <peer> <tag> <bytes>,
 * wait <src> <dst> <tag>, compute <flops>, bcast <bytes> <root>,
 * reduce <bytes> 0 <root>, allreduce <bytes> 0, barrier, init, finalize, ...
 * Sizes are bytes: "init" without a datatype makes MPI_BYTE the default.
 *
 * Ranks are written one after the other from rank streams, so memory holds
 * one rank's in-flight requests, not the trace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "augur/export.h"
#include "export_util.h"
#include "grow.h"

/* SimGrid's own wildcard values (smpi/smpi.h), written for unresolved
 * Irecv sources and tags so that the later "wait" names the same request. */
#define SG_ANY_SOURCE (-555)
#define SG_ANY_TAG    (-444)

/* A request the replay will know: its (src, dst, tag) key as written. For
 * persistent requests also what a Start re-issues. */
typedef struct sg_req {
  uint64_t handle;
  int32_t src, dst, tag;
  uint64_t bytes;
  int send; /* 1 = isend, 0 = irecv */
} sg_req;

typedef struct sg_reqs {
  sg_req *v;
  size_t n, cap;
} sg_reqs;

static sg_req *reqs_find(sg_reqs *r, uint64_t handle) {
  for (size_t i = r->n; i-- > 0;) /* newest first: handles are reused */
    if (r->v[i].handle == handle) return &r->v[i];
  return NULL;
}

static int reqs_add(sg_reqs *r, const sg_req *q) {
  if (aug_grow((void **)&r->v, &r->cap, r->n + 1, sizeof *r->v)) return AUGUR_E_NOMEM;
  r->v[r->n++] = *q;
  return AUGUR_OK;
}

static void reqs_del(sg_reqs *r, sg_req *q) {
  size_t i = (size_t)(q - r->v);
  memmove(&r->v[i], &r->v[i + 1], (r->n - i - 1) * sizeof *r->v);
  r->n--;
}

typedef struct sg_rank {
  augur_trace *t;
  exu_out out;
  uint32_t rank, nranks;
  double flops_per_ns;
  uint64_t prev_end; /* end of the previous call, 0 before the first */
  int started;
  sg_reqs active;       /* nonblocking requests issued, not yet completed */
  sg_reqs persistent;   /* *_INIT requests, re-issued by Start */
  augur_event sendrecv; /* Sendrecv waiting for its SUB_RECV */
  int have_sendrecv;
  uint64_t pending_ns; /* compute not written yet */
  uint64_t as_compute; /* calls written as compute (I/O, one-sided, neighbourhood, process) */
  uint64_t records;
  uint64_t skipped; /* collectives on communicators other than world */
} sg_rank;

/* One action line. A pending compute burst goes first: bursts around calls
 * that write nothing (probes, PROC_NULL sends) merge into one action. */
#define LINE(g, ...)                                                                               \
  do {                                                                                             \
    flush_compute(g);                                                                              \
    exu_out_printf(&(g)->out, "%u ", (g)->rank);                                                   \
    exu_out_printf(&(g)->out, __VA_ARGS__);                                                        \
    (g)->records++;                                                                                \
  } while (0)

static void flush_compute(sg_rank *g) {
  if (g->pending_ns == 0) return;
  exu_out_printf(&g->out, "%u compute %.0f\n", g->rank, (double)g->pending_ns * g->flops_per_ns);
  g->records++;
  g->pending_ns = 0;
}

static int issue(sg_rank *g, int send, int32_t peer, int32_t tag, uint64_t bytes, uint64_t handle) {
  if (peer == AUGUR_PEER_PROC_NULL || peer == AUGUR_PEER_NONE) return AUGUR_OK;
  if (peer == AUGUR_PEER_ANY) peer = SG_ANY_SOURCE;
  if (tag == AUGUR_TAG_ANY) tag = SG_ANY_TAG;
  LINE(g, "%s %d %d %llu\n", send ? "isend" : "irecv", peer, tag, (unsigned long long)bytes);
  sg_req q = {handle, send ? (int32_t)g->rank : peer, send ? peer : (int32_t)g->rank, tag, bytes,
              send};
  return reqs_add(&g->active, &q);
}

static void wait_line(sg_rank *g, int32_t src, int32_t dst, int32_t tag) {
  LINE(g, "wait %d %d %d\n", src, dst, tag);
}

static void flush_sendrecv(sg_rank *g, const augur_event *sub) {
  const augur_event *e = &g->sendrecv;
  g->have_sendrecv = 0;
  int send = e->peer >= 0;
  if (send) LINE(g, "isend %d %d %llu\n", e->peer, e->tag, (unsigned long long)e->bytes);
  if (sub && sub->peer >= 0)
    LINE(g, "recv %d %d %llu\n", sub->peer, sub->tag, (unsigned long long)sub->bytes_recv);
  if (send) wait_line(g, (int32_t)g->rank, e->peer, e->tag);
}

static void collective(sg_rank *g, const augur_event *e) {
  unsigned long long n = g->nranks ? g->nranks : 1, b = e->bytes, br = e->bytes_recv;
  if (e->comm != AUGUR_COMM_WORLD) {
    /* TI collectives always run on MPI_COMM_WORLD: one over every rank (a
     * Cartesian copy of world, a dup) replays the same; others cannot. */
    const augur_comm_def *c = augur_trace_comm(g->t, e->comm);
    if (!c || c->kind == AUGUR_COMM_KIND_INTERCOMM || c->size != g->nranks) {
      g->skipped++;
      return;
    }
  }
  switch (e->type) {
  case AUGUR_EV_BARRIER:
  case AUGUR_EV_IBARRIER:
    LINE(g, "barrier\n");
    break;
  case AUGUR_EV_BCAST:
  case AUGUR_EV_IBCAST:
    LINE(g, "bcast %llu %d\n", b ? b : br, e->peer);
    break;
  case AUGUR_EV_REDUCE:
  case AUGUR_EV_IREDUCE:
    LINE(g, "reduce %llu 0 %d\n", b, e->peer);
    break;
  case AUGUR_EV_GATHER:
  case AUGUR_EV_IGATHER:
  case AUGUR_EV_GATHERV:
  case AUGUR_EV_IGATHERV:
    LINE(g, "gather %llu %llu %d\n", b, b, e->peer);
    break;
  case AUGUR_EV_SCATTER:
  case AUGUR_EV_ISCATTER:
  case AUGUR_EV_SCATTERV:
  case AUGUR_EV_ISCATTERV:
    LINE(g, "scatter %llu %llu %d\n", br, br, e->peer);
    break;
  case AUGUR_EV_ALLGATHER:
  case AUGUR_EV_IALLGATHER:
  case AUGUR_EV_ALLGATHERV:
  case AUGUR_EV_IALLGATHERV:
    LINE(g, "allgather %llu %llu\n", b, br / n);
    break;
  case AUGUR_EV_ALLTOALL:
  case AUGUR_EV_IALLTOALL:
  case AUGUR_EV_ALLTOALLV:
  case AUGUR_EV_IALLTOALLV:
  case AUGUR_EV_ALLTOALLW:
  case AUGUR_EV_IALLTOALLW:
    LINE(g, "alltoall %llu %llu\n", b / n, br / n);
    break;
  default: /* allreduce, scan, exscan, reduce_scatter: an allreduce of what was sent */
    LINE(g, "allreduce %llu 0\n", b);
    break;
  }
}

static int completion(sg_rank *g, const augur_event *e) {
  sg_req *q = reqs_find(&g->active, e->req);
  if (!q) return AUGUR_OK; /* collective request, PROC_NULL, or never issued */
  wait_line(g, q->src, q->dst, q->tag);
  reqs_del(&g->active, q);
  return AUGUR_OK;
}

static int start(sg_rank *g, uint64_t handle) {
  sg_req *p = reqs_find(&g->persistent, handle);
  if (!p) return AUGUR_OK;
  int32_t peer = p->send ? p->dst : p->src;
  return issue(g, p->send, peer, p->tag, p->bytes, handle);
}

static int event(sg_rank *g, const augur_event *e) {
  unsigned ty = e->type;
  if (augur_event_is_sub(ty)) {
    if (ty == AUGUR_EV_SUB_RECV && g->have_sendrecv) flush_sendrecv(g, e);
    if (ty == AUGUR_EV_COMPLETION) return completion(g, e);
    if (ty == AUGUR_EV_SUB_START) return start(g, e->req);
    return AUGUR_OK;
  }
  if (g->have_sendrecv) flush_sendrecv(g, NULL);
  if (g->started && (augur_event_is_io(ty) || augur_event_is_rma(ty) ||
                     augur_event_is_neighbor(ty) || augur_event_is_process(ty))) {
    /* No action for them: prev_end stays, so their time and the gaps around
     * them go into the next compute action (counted, and said by the CLI). */
    g->as_compute++;
    return AUGUR_OK;
  }
  if (g->started && e->t_start > g->prev_end) g->pending_ns += e->t_start - g->prev_end;
  if (e->t_end > g->prev_end || !g->started) g->prev_end = e->t_end;
  g->started = 1;

  switch (ty) {
  case AUGUR_EV_INIT:
  case AUGUR_EV_INIT_THREAD:
    LINE(g, "init\n");
    return AUGUR_OK;
  case AUGUR_EV_FINALIZE:
    LINE(g, "finalize\n");
    return AUGUR_OK;
  case AUGUR_EV_SEND:
  case AUGUR_EV_BSEND:
  case AUGUR_EV_SSEND:
  case AUGUR_EV_RSEND:
    if (e->peer >= 0) LINE(g, "send %d %d %llu\n", e->peer, e->tag, (unsigned long long)e->bytes);
    return AUGUR_OK;
  case AUGUR_EV_RECV:
  case AUGUR_EV_MRECV:
    if (e->peer >= 0)
      LINE(g, "recv %d %d %llu\n", e->peer, e->tag, (unsigned long long)e->bytes_recv);
    return AUGUR_OK;
  case AUGUR_EV_ISEND:
  case AUGUR_EV_IBSEND:
  case AUGUR_EV_ISSEND:
  case AUGUR_EV_IRSEND:
    return issue(g, 1, e->peer, e->tag, e->bytes, e->req);
  case AUGUR_EV_IRECV:
  case AUGUR_EV_IMRECV:
    return issue(g, 0, e->peer, e->tag, e->bytes_recv, e->req);
  case AUGUR_EV_SENDRECV:
  case AUGUR_EV_SENDRECV_REPLACE:
    g->sendrecv = *e;
    g->have_sendrecv = 1;
    return AUGUR_OK;
  case AUGUR_EV_SEND_INIT:
  case AUGUR_EV_BSEND_INIT:
  case AUGUR_EV_SSEND_INIT:
  case AUGUR_EV_RSEND_INIT:
  case AUGUR_EV_RECV_INIT: {
    int send = ty != AUGUR_EV_RECV_INIT;
    sg_req q = {e->req, send ? (int32_t)g->rank : e->peer, send ? e->peer : (int32_t)g->rank,
                e->tag, send ? e->bytes : e->bytes_recv,   send};
    return reqs_add(&g->persistent, &q);
  }
  case AUGUR_EV_START:
    return start(g, e->req);
  case AUGUR_EV_REQUEST_FREE: {
    sg_req *p = reqs_find(&g->persistent, e->req);
    if (p) reqs_del(&g->persistent, p);
    return AUGUR_OK;
  }
  default:
    if (augur_event_is_collective(ty)) collective(g, e);
    return AUGUR_OK;
  }
}

int augur_export_simgrid(augur_trace *t, const char *out, const augur_export_opts *o,
                         augur_export_stats *st, augur_error *err) {
  uint32_t n = augur_trace_nranks(t);
  double rate = o && o->simgrid_flops_per_s > 0 ? o->simgrid_flops_per_s : 1e9;
  uint64_t events = 0, total = augur_trace_total_events(t), records = 0, bytes = 0, skipped = 0;
  uint64_t as_compute = 0;
  int drc = exu_check_damage(t, "simgrid", err);
  if (drc != AUGUR_OK) return drc;
  size_t plen = strlen(out) + 32;
  char *path = malloc(plen);
  if (!path) return augur_fail(err, AUGUR_E_NOMEM, "simgrid export: out of memory");
  if (mkdir(out, 0777) != 0 && errno != EEXIST) {
    int e = errno;
    free(path);
    return augur_fail(err, AUGUR_E_IO, "%s: cannot create directory: %s", out, strerror(e));
  }
  int rc = AUGUR_OK;
  for (uint32_t r = 0; r < n && rc == AUGUR_OK; r++) {
    sg_rank g;
    memset(&g, 0, sizeof g);
    g.t = t;
    g.rank = r;
    g.nranks = n;
    g.flops_per_ns = rate * 1e-9;
    augur_stream *s = NULL;
    snprintf(path, plen, "%s/rank-%u.txt", out, r);
    if ((rc = augur_stream_rank(t, r, &s, err)) != AUGUR_OK) break;
    if ((rc = exu_out_open(&g.out, path, err)) != AUGUR_OK) {
      augur_stream_close(s);
      break;
    }
    augur_event ev;
    while ((rc = augur_stream_next(s, &ev, err)) == 1) {
      events++;
      exu_progress(o, events, total);
      if (event(&g, &ev) != AUGUR_OK) {
        rc = augur_fail(err, AUGUR_E_NOMEM, "simgrid export: out of memory");
        break;
      }
    }
    if (rc == 0 && g.have_sendrecv) flush_sendrecv(&g, NULL);
    augur_stream_close(s);
    int crc = exu_out_close(&g.out, rc < 0 ? NULL : err);
    if (rc == 0) rc = crc;
    records += g.records;
    bytes += g.out.bytes;
    skipped += g.skipped;
    as_compute += g.as_compute;
    free(g.active.v);
    free(g.persistent.v);
  }
  if (rc == AUGUR_OK) {
    exu_out idx;
    snprintf(path, plen, "%s/index.txt", out);
    if ((rc = exu_out_open(&idx, path, err)) == AUGUR_OK) {
      for (uint32_t r = 0; r < n; r++)
        exu_out_printf(&idx, "rank-%u.txt\n", r);
      bytes += idx.bytes;
      rc = exu_out_close(&idx, err);
    }
  }
  if (rc != AUGUR_OK) { /* no partial export left behind */
    for (uint32_t r = 0; r < n; r++) {
      snprintf(path, plen, "%s/rank-%u.txt", out, r);
      exu_remove_output(path);
    }
    snprintf(path, plen, "%s/index.txt", out);
    exu_remove_output(path);
    rmdir(out);
  }
  free(path);
  if (rc == AUGUR_OK && st) {
    st->events = events;
    st->records = records;
    st->bytes = bytes;
    st->as_compute = as_compute;
  }
  (void)skipped;
  return rc;
}
