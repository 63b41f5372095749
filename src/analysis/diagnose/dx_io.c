/* augur diagnose — the file I/O findings (docs/diagnose.md, "File I/O"):
 * io_serialised and io_imbalance (a collective's last rank late from its
 * MPI-IO calls: alone, or more than the others) and io_small_requests
 * (independent requests below the half-plateau size, DX_IO_SMALL). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/mpiio.h"
#include "augur/report.h" /* augur_fmt_bytes */
#include "dx_int.h"
#include "grow.h"

#define NS 1e-9

static uint64_t excess(uint64_t late, uint64_t early) {
  return late > early ? late - early : 0;
}

static int shared_pointer(unsigned t) {
  switch (t) {
  case AUGUR_EV_FILE_READ_SHARED:
  case AUGUR_EV_FILE_WRITE_SHARED:
  case AUGUR_EV_FILE_IREAD_SHARED:
  case AUGUR_EV_FILE_IWRITE_SHARED:
  case AUGUR_EV_FILE_READ_ORDERED:
  case AUGUR_EV_FILE_WRITE_ORDERED:
  case AUGUR_EV_FILE_READ_ORDERED_BEGIN:
  case AUGUR_EV_FILE_READ_ORDERED_END:
  case AUGUR_EV_FILE_WRITE_ORDERED_BEGIN:
  case AUGUR_EV_FILE_WRITE_ORDERED_END:
  case AUGUR_EV_FILE_SEEK_SHARED:
    return 1;
  default:
    return 0;
  }
}

int dx_io_serial(const dx *d, const augur_event *ev) {
  if (!augur_event_is_io(ev->type)) return 0;
  if (shared_pointer(ev->type) || !augur_io_is_collective(ev->type)) return 1;
  if (ev->comm == AUGUR_COMM_SELF) return 1;
  const augur_comm_def *c = augur_trace_comm(d->trace, ev->comm);
  return c && c->size == 1;
}

/* The bytes a data call asks to move: what it moved (blocking calls, split
 * *_end) or requested (File_i*, *_begin). */
static uint64_t request_bytes(const augur_event *ev) {
  return ev->bytes + ev->bytes_recv;
}

/* io_small_requests: an independent read or write of S < DX_IO_SMALL bytes
 * that took T. With a request costing o + S/B (o per request, B the
 * bandwidth) and DX_IO_SMALL = o·B, the part of T that aggregation into
 * large requests saves is o/(o + S/B) = DX_IO_SMALL/(DX_IO_SMALL + S). */
static void small_request(dx *d, const augur_event *ev) {
  if (!augur_io_is_data(ev->type) || augur_io_is_collective(ev->type)) return;
  uint64_t s = request_bytes(ev);
  if (s >= DX_IO_SMALL || ev->t_end <= ev->t_start) return;
  uint64_t t = ev->t_end - ev->t_start;
  uint64_t lost = (uint64_t)((double)t * (double)DX_IO_SMALL / (double)(DX_IO_SMALL + s));
  int32_t g = dx_group_get(&d->groups, AUGUR_DX_IO_SMALL_REQUESTS, -1, (uint32_t)ev->callsite, -1);
  if (g < 0) return;
  dx_group *G = &d->groups.g[g];
  if (!G->instances)
    G->io_file = ev->hash;
  else if (G->io_file != ev->hash)
    G->io_file = UINT64_MAX;
  G->bytes += s;
  G->io_ns += t;
  G->call_type = G->instances && G->call_type != ev->type ? 0 : ev->type;
  dx_group_add(d, g, ev->rank, (uint32_t)ev->callsite, ev->t_end - lost, ev->t_end, ev->comm);
}

/* A collective MPI-IO data call: every rank of the file's communicator calls it, and
 * (two-phase I/O) none leaves before the others have brought their data. A split
 * collective's *_begin is where ROMIO (MPICH) does the whole access (its *_end returns the
 * status); Open MPI's ompio may return from either at once when no data is exchanged. */
static int coll_data(unsigned t) {
  switch (t) {
  case AUGUR_EV_FILE_READ_ALL:
  case AUGUR_EV_FILE_WRITE_ALL:
  case AUGUR_EV_FILE_READ_AT_ALL:
  case AUGUR_EV_FILE_WRITE_AT_ALL:
  case AUGUR_EV_FILE_READ_ALL_BEGIN:
  case AUGUR_EV_FILE_WRITE_ALL_BEGIN:
  case AUGUR_EV_FILE_READ_AT_ALL_BEGIN:
  case AUGUR_EV_FILE_WRITE_AT_ALL_BEGIN:
    return 1;
  default:
    return 0;
  }
}

/* dx_int.h: the collective MPI-IO calls that synchronise their ranks: the data calls above and the
 * collective file management calls (open, close, set_view, sync, set_size, preallocate),
 * which both MPIs implement with a barrier or an agreement of all ranks: a rank that
 * arrives early waits there for the last. Not the shared-pointer ones (_ordered,
 * seek_shared: io_serialised's), the nonblocking ones (the wait is in the completion) nor
 * a split collective's *_end. */
int dx_io_sync_type(unsigned t) {
  switch (t) {
  case AUGUR_EV_FILE_OPEN:
  case AUGUR_EV_FILE_CLOSE:
  case AUGUR_EV_FILE_SET_VIEW:
  case AUGUR_EV_FILE_SYNC:
  case AUGUR_EV_FILE_SET_SIZE:
  case AUGUR_EV_FILE_PREALLOCATE:
    return 1;
  default:
    return coll_data(t);
  }
}

int dx_io_is_sync(const dx *d, const augur_event *ev) {
  if (!dx_io_sync_type(ev->type) || ev->comm == AUGUR_COMM_SELF) return 0;
  const augur_comm_def *c = augur_trace_comm(d->trace, ev->comm);
  return c && c->size >= 2;
}

/* Open instances of the collective data calls on one (communicator, file). MPI orders a
 * file handle's collective calls alike on every rank, so the k-th call of each rank is
 * one instance. Two handles on the same file name and communicator open at once share
 * the key (the file id is the name's hash): their calls are paired in the order of each
 * rank's calls, which is right when the program alternates the handles alike. */
typedef struct io_inst {
  uint64_t index;
  uint32_t n;
  augur_coll_member *m; /* size members, arrival order */
} io_inst;

typedef struct io_key {
  uint64_t comm, file;
  uint32_t size;
  uint64_t *next; /* per world rank: its next instance index */
  io_inst *open;
  size_t nopen, capopen;
} io_key;

struct dx_iocolls {
  io_key *k;
  size_t n, cap;
};

static io_key *key_get(dx *d, uint64_t comm, uint64_t file, uint32_t size) {
  if (!d->iocoll && !(d->iocoll = calloc(1, sizeof *d->iocoll))) return NULL;
  dx_iocolls *t = d->iocoll;
  for (size_t i = 0; i < t->n; i++)
    if (t->k[i].comm == comm && t->k[i].file == file) return &t->k[i];
  if (aug_grow((void **)&t->k, &t->cap, t->n + 1, sizeof *t->k)) return NULL;
  io_key *k = &t->k[t->n];
  memset(k, 0, sizeof *k);
  k->comm = comm;
  k->file = file;
  k->size = size;
  if (!(k->next = calloc(d->nranks ? d->nranks : 1, sizeof *k->next))) return NULL;
  t->n++;
  return k;
}

/* io_collective (docs/diagnose.md): the time a member of instance C on FILE spends in a collective
 * MPI-IO data call after the last member arrived — the collective's own work (exchanging the pieces
 * between aggregators and accessing the file), disjoint from the instance's wait, which
 * ends at that arrival. The part beyond moving its bytes at d->io_bw is what
 * reaching the plateau bandwidth would save; per instance the run shortens by the
 * largest member's part. */
static void transfer(dx *d, const augur_coll_instance *c, uint64_t file) {
  const augur_coll_member *M = c->members;
  uint64_t last = 0, save = 0;
  int32_t g0 = -1;
  for (uint32_t i = 0; i < c->nmembers; i++)
    if (M[i].t_start > last) last = M[i].t_start;
  for (uint32_t i = 0; i < c->nmembers; i++) {
    uint64_t t0 = M[i].t_start > last ? M[i].t_start : last;
    if (M[i].t_end <= t0) continue;
    int32_t g = dx_group_get(&d->groups, AUGUR_DX_IO_COLLECTIVE, -1, (uint32_t)M[i].callsite, -1);
    if (g < 0) continue;
    dx_group *G = &d->groups.g[g];
    uint64_t s = M[i].bytes + M[i].bytes_recv, t = M[i].t_end - t0;
    uint64_t data = (uint64_t)((double)s / d->io_bw * 1e9);
    if (!G->instances)
      G->io_file = file;
    else if (G->io_file != file)
      G->io_file = UINT64_MAX;
    G->call_type = G->instances && G->call_type != M[i].type ? 0 : M[i].type;
    G->bytes += s;
    G->io_ns += t;
    G->io_data_ns += data < t ? data : t;
    if (t > data && t - data > save) save = t - data;
    if (g0 < 0) g0 = g;
    dx_group_add(d, g, M[i].rank, (uint32_t)M[i].callsite, t0, M[i].t_end, c->comm);
  }
  if (g0 >= 0) d->groups.g[g0].saving_ns += save;
}

int dx_io_pair(dx *d, const augur_event *ev) {
  if (ev->rank >= d->nranks || d->ranks[ev->rank].finalized || !dx_io_is_sync(d, ev)) return 0;
  const augur_comm_def *c = augur_trace_comm(d->trace, ev->comm);
  io_key *k = key_get(d, ev->comm, ev->hash, c->size);
  if (!k) return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
  uint64_t idx = k->next[ev->rank]++;
  io_inst *in = NULL;
  for (size_t i = 0; i < k->nopen && !in; i++)
    if (k->open[i].index == idx) in = &k->open[i];
  if (!in) {
    if (aug_grow((void **)&k->open, &k->capopen, k->nopen + 1, sizeof *k->open))
      return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
    in = &k->open[k->nopen];
    *in = (io_inst){.index = idx, .m = calloc(k->size, sizeof *in->m)};
    if (!in->m) return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
    k->nopen++;
  }
  if (in->n < k->size)
    in->m[in->n++] = (augur_coll_member){.rank = ev->rank,
                                         .thread = ev->thread,
                                         .t_start = ev->t_start,
                                         .t_end = ev->t_end,
                                         .bytes = ev->bytes,
                                         .bytes_recv = ev->bytes_recv,
                                         .callsite = ev->callsite,
                                         .root = AUGUR_PEER_NONE,
                                         .type = ev->type,
                                         .call = AUGUR_MATCH_NO_CALL};
  if (in->n < k->size) return 0;
  augur_coll_instance ci = {
      .comm = ev->comm, .index = idx, .type = in->m[0].type, .nmembers = in->n, .members = in->m};
  uint64_t last = 0;
  for (uint32_t i = 0; i < in->n; i++) {
    if (in->m[i].type != ci.type) ci.mixed = 1;
    if (in->m[i].t_start > last) last = in->m[i].t_start;
  }
  /* A member that left before the last arrived was not held: this instance synchronised
   * nothing (Open MPI's ompio writes contiguous per-rank pieces of a *_all call without
   * exchanging them), so no rank waited for the last nor was late to it. */
  int sync = 1;
  for (uint32_t i = 0; i < in->n; i++)
    if (in->m[i].t_end < last) sync = 0;
  int rc = 0;
  if (sync)
    rc = dx_on_coll(d, &ci); /* the waits for the last to arrive */
  else
    dx_unsnap(d, &ci);
  if (rc >= 0 && coll_data(ci.type)) transfer(d, &ci, ev->hash);
  free(in->m);
  *in = k->open[--k->nopen];
  return rc < 0 ? rc : 0;
}

void dx_io_free(dx *d) {
  dx_iocolls *t = d->iocoll;
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) {
    for (size_t j = 0; j < t->k[i].nopen; j++)
      free(t->k[i].open[j].m);
    free(t->k[i].open);
    free(t->k[i].next);
  }
  free(t->k);
  free(t);
  d->iocoll = NULL;
}

void dx_io_after(dx *d, const augur_event *ev) {
  assert(d && ev && ev->rank < d->nranks);
  dx_rank *r = &d->ranks[ev->rank];
  if (r->finalized || !augur_event_is_io(ev->type) || ev->t_end < ev->t_start) return;
  /* a synchronising collective data call's time belongs to its instance (waits and
   * io_collective), not to the segment before the next collective */
  if (dx_io_is_sync(d, ev)) return;
  uint64_t t = ev->t_end - ev->t_start;
  if (dx_io_serial(d, ev)) r->seg.io_ns += t;
  r->seg.io_any_ns += t;
  r->prev_io_ns = t; /* its wait for a CPU comes with the thread's next call (run-delay-mpi) */
  r->prev_io_thread = ev->thread;
  if (augur_io_is_data(ev->type)) r->seg.io_bytes += request_bytes(ev);
  if (shared_pointer(ev->type)) r->seg.io_shared = 1;
  small_request(d, ev);
}

int dx_io_late(const dx_seg *late, const dx_seg *early, uint64_t lateness) {
  assert(late && early);
  /* one rank moves the data alone (the first to arrive moved none: opening
   * or syncing a file of its own is no funnel), or through the shared file
   * pointer */
  if (excess(late->io_ns, early->io_ns) * 2 >= lateness &&
      ((late->io_bytes && !early->io_bytes) || late->io_shared || early->io_shared))
    return AUGUR_DX_IO_SERIALISED;
  /* every rank does I/O, the late one more of it (all MPI-IO calls): at least twice the bytes
   * (it moves most of the data), or more bytes and more time in the calls on a CPU or waiting
   * for the file: a rank descheduled in its I/O calls (run-delay-mpi recorded) that moves
   * about as much as the others is late from the CPU, not from more I/O */
  uint64_t net = excess(excess(late->io_any_ns, late->io_delay_ns),
                        excess(early->io_any_ns, early->io_delay_ns));
  if (excess(late->io_any_ns, early->io_any_ns) * 2 >= lateness &&
      late->io_bytes > early->io_bytes &&
      (late->io_bytes / 2 >= early->io_bytes || net * 2 >= lateness))
    return AUGUR_DX_IO_IMBALANCE;
  return -1;
}

void dx_io_coll(dx_group *g, const dx_seg *late, const dx_seg *early) {
  assert(g && late && early);
  if (g->pattern != AUGUR_DX_IO_IMBALANCE) return;
  g->io_ns += excess(late->io_any_ns, early->io_any_ns);
  g->io_late_bytes += late->io_bytes;
  g->io_early_bytes += early->io_bytes;
}

/* "file NAME", "N files" (several) or "an unnamed file". */
static void file_text(const dx *d, uint64_t id, char *buf, size_t n) {
  const char *name = id && id != UINT64_MAX ? augur_trace_file_name(d->trace, id) : NULL;
  if (id == UINT64_MAX)
    snprintf(buf, n, "several files");
  else if (name)
    snprintf(buf, n, "file %s", name);
  else
    snprintf(buf, n, "a file opened before recording started");
}

int dx_io_words(const dx *d, const dx_group *g, int many, const char *who, const char *wait,
                const char *site, const char *late, char **cause, char **rec) {
  assert(d && g && who && wait && site && late && cause && rec);
  const char *what = g->wait_state == AUGUR_DX_WAIT_AT_BARRIER ? "the barrier" : "the collective";
  char a[32], b[32], f[300];
  switch (g->pattern) {
  case AUGUR_DX_IO_SERIALISED: /* the last to arrive was late from MPI-IO: the I/O goes through it
                                */
    *cause = dx_strdup_printf(
        "%s %s in %s at %s for the last rank to arrive (%s), late from file I/O: summed over "
        "%llu instances it arrives %.3f s late, having spent %.3f s more in MPI-IO calls than "
        "the first to arrive. The ranks' I/O goes through that rank (or is ordered through a "
        "shared file pointer), so the others wait for it.",
        who, wait, what, site, late, (unsigned long long)g->syncs, (double)g->lateness_ns * NS,
        (double)g->excess_io_ns * NS);
    *rec = dx_strdup_printf("Let every rank read or write its own part of the file with "
                            "collective I/O (a file view per rank and MPI_File_write_all / "
                            "MPI_File_read_all, or the _at_all calls) instead of funnelling the "
                            "data through one rank or a shared file pointer before %s.",
                            site);
    return 0;
  case AUGUR_DX_IO_IMBALANCE:
    augur_fmt_bytes(a, sizeof a, g->io_late_bytes);
    augur_fmt_bytes(b, sizeof b, g->io_early_bytes);
    *cause = dx_strdup_printf(
        "%s %s in %s at %s for the last rank to arrive (%s), late from file I/O: summed over "
        "%llu instances it arrives %.3f s late, having spent %.3f s more in MPI-IO calls and "
        "read or written %s against %s of the first to arrive. The ranks' I/O is unequal: one "
        "rank moves most of the data while the others wait.",
        who, wait, what, site, late, (unsigned long long)g->syncs, (double)g->lateness_ns * NS,
        (double)g->io_ns * NS, a, b);
    *rec = dx_strdup_printf("Give every rank an equal share of the file I/O before %s (split "
                            "the data evenly over the ranks, each writing its part, e.g. with "
                            "collective MPI_File_write_all), or overlap the I/O with "
                            "computation (MPI_File_iwrite) instead of waiting for it.",
                            site);
    return 0;
  case AUGUR_DX_IO_COLLECTIVE: {
    augur_fmt_bytes(a, sizeof a, g->bytes);
    file_text(d, g->io_file, f, sizeof f);
    const char *call =
        g->call_type ? augur_event_name(g->call_type) : "collective reads and writes";
    double t = (double)g->io_ns * NS, data = (double)g->io_data_ns * NS;
    double bw = t > 0 ? (double)g->bytes / t / 1e6 : 0;
    int overhead = g->io_data_ns * 2 < g->io_ns; /* below half the plateau bandwidth */
    *cause = dx_strdup_printf(
        "%s spend%s %.3f s in %llu calls of %s at %s (%s) after the last rank had arrived "
        "(waits for it are counted apart): %s moved, %.1f MB/s per rank. At %.0f MB/s per rank "
        "moving it takes %.3f s, so %.0f %% of the time is %s.",
        who, many ? "" : "s", t, (unsigned long long)g->instances, call, site, f, a, bw,
        d->io_bw / 1e6, data, t > 0 ? 100.0 * (t - data) / t : 0.0,
        overhead ? "not data movement at that rate: the collective's own overhead (exchanging "
                   "the pieces between the ranks, many small file accesses, synchronisation) or "
                   "a file system slower than that"
                 : "beyond moving the data at that rate: the calls are mostly data movement");
    if (overhead)
      *rec = dx_strdup_printf(
          "Make each collective call move more per piece: fewer, larger collective calls "
          "(gather several steps or variables into one call), larger contiguous blocks per rank "
          "in the file view, hints cb_nodes (fewer aggregators) or romio_cb_write / "
          "romio_cb_read = disable when each rank's part is already large and contiguous; and "
          "overlap what remains with computation (MPI_File_iwrite_all, or the split collectives "
          "MPI_File_write_all_begin / _end).");
    else
      *rec = dx_strdup_printf("Write less or less often (every k steps, fewer variables), or "
                              "overlap the I/O with computation (MPI_File_iwrite_all / "
                              "iread_all, or the split collectives MPI_File_write_all_begin / "
                              "_end).");
    return 0;
  }
  case AUGUR_DX_IO_SMALL_REQUESTS: {
    augur_fmt_bytes(a, sizeof a, g->instances ? g->bytes / g->instances : 0);
    augur_fmt_bytes(b, sizeof b, DX_IO_SMALL);
    file_text(d, g->io_file, f, sizeof f);
    const char *call = g->call_type ? augur_event_name(g->call_type) : "reads and writes";
    *cause = dx_strdup_printf(
        "%s make%s %llu small independent requests (%s) at %s to %s, %s on average, taking "
        "%.3f s: below %s a request costs more in per-call overhead than in moving its data, "
        "and about %.3f s of that time is that overhead.",
        who, many ? "" : "s", (unsigned long long)g->instances, call, site, f, a,
        (double)g->io_ns * NS, b, (double)g->ns * NS);
    *rec = dx_strdup_printf("Aggregate the data into larger requests (one contiguous buffer or a "
                            "derived datatype and a file view per call), or use collective I/O "
                            "with collective buffering (MPI_File_write_all / read_all; hints "
                            "romio_cb_write / romio_cb_read, cb_buffer_size) so that MPI "
                            "aggregates the small pieces into large file accesses.");
    return 0;
  }
  default:
    return -1;
  }
}
