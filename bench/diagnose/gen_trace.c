/* augur-bench-dx-gen — a synthetic trace for timing `augur diagnose`.
 *
 *   augur-bench-dx-gen DIR [--ranks R] [--events N] [--seed S] [--cut]
 *
 * Writes DIR (a NAME.augur trace) with R ranks (default 4) and about N
 * records in all (default 1000000): a 1-D halo exchange on a ring, simulated
 * on one global clock so that every wait follows from who was late. Per
 * iteration each rank computes (~40 us, jittered), posts Irecv from both
 * neighbours, Isend to both (8 KiB), MPI_Waitall on the four requests (four
 * COMPLETION sub-records), computes a little more (~20 us) and calls
 * MPI_Allreduce; every 50th iteration also an MPI_Barrier. In one iteration
 * of 20 one rank computes 300 us longer: its neighbours wait for its
 * messages in MPI_Waitall (late sender) and everybody waits for it in the
 * Allreduce. Deterministic for a given seed. --cut: the run is cut short
 * before MPI_Finalize (no Finalize record, no finalize time, the trace's
 * metadata not complete), as a killed run's trace.
 *
 * The ranks are written side by side, a few thousand records each at a time,
 * so memory stays small whatever N. Up to 4,096 ranks (GROUP) are written
 * at once (a writer holds a file and a compressor); more ranks (up to
 * 65,536) are written in passes of GROUP, each replaying the whole run from
 * the seed and keeping only its ranks' records: the same trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "augur/event.h"
#include "augur/writer.h"

#define HALO_BYTES  8192
#define PER_ITER    10    /* records per rank and iteration (barrier aside) */
#define BUF_RECORDS 4096  /* per rank, flushed at iteration boundaries */
#define GROUP       4096u /* ranks written in one pass */
#define MAX_RANKS   65536u
#define INIT_NS     1000ull /* every rank's MPI_Init starts here: one clock */

enum { CS_INIT = 1, CS_IRECV, CS_ISEND, CS_WAITALL, CS_ALLREDUCE, CS_BARRIER, CS_FINALIZE, CS_N };

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(uint64_t mod) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng % mod;
}
/* mean +- spread ns, roughly normal (sum of three uniforms) */
static uint64_t jitter(uint64_t mean, uint64_t spread) {
  int64_t d = 0;
  for (int i = 0; i < 3; i++)
    d += (int64_t)rnd(2 * spread + 1) - (int64_t)spread;
  int64_t v = (int64_t)mean + d / 3;
  return v < 1 ? 1 : (uint64_t)v;
}
static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}

typedef struct rank_out {
  augur_writer *w;
  augur_event *buf;
  size_t n;
  uint64_t now;       /* this rank's clock: end of its last call */
  uint64_t posted[2]; /* this iteration: start of the Isend to the left [0] / right [1] */
  uint64_t wait_start;
} rank_out;

static augur_event *put(rank_out *o, unsigned type, uint64_t t0, uint64_t t1, uint64_t cs) {
  augur_event *e = &o->buf[o->n++];
  memset(e, 0, sizeof *e);
  e->type = (uint16_t)type;
  e->t_start = t0;
  e->t_end = t1;
  e->peer = AUGUR_PEER_NONE;
  e->tag = AUGUR_TAG_NONE;
  e->callsite = cs;
  e->comm = type == AUGUR_EV_INIT || type == AUGUR_EV_FINALIZE || type == AUGUR_EV_WAITALL
                ? AUGUR_COMM_NONE
                : AUGUR_COMM_WORLD;
  return e;
}

static augur_event *completion(rank_out *o, uint64_t req, uint32_t index) {
  augur_event *e = put(o, AUGUR_EV_COMPLETION, 0, 0, 0);
  e->comm = AUGUR_COMM_NONE;
  e->req = req;
  e->aux = index;
  return e;
}

static int flush(rank_out *o, augur_error *err) {
  int rc = o->w ? augur_writer_events(o->w, 0, o->buf, o->n, err) : AUGUR_OK; /* not this pass's */
  o->n = 0;
  return rc;
}

/* Rank RANK's definition; FINALIZE_NS 0 until it finalizes (the reader
 * counts a rank without it as cut short: augur_trace_incomplete). */
static augur_rank_def rank_def(uint32_t rank, uint32_t nranks, uint64_t finalize_ns) {
  augur_rank_def rd;
  memset(&rd, 0, sizeof rd);
  rd.rank = rank;
  rd.nranks = nranks;
  rd.pid = 10000 + rank;
  rd.host = "bench";
  rd.thread_level = -1;
  rd.init_ns = INIT_NS;
  rd.finalize_ns = finalize_ns;
  rd.counter_note = "augur-bench-dx-gen: synthetic trace";
  return rd;
}

/* Rank RANK's state at MPI_Init, and its writer if WRITE (this pass's). */
static int open_rank(rank_out *o, const char *dir, uint32_t rank, uint32_t nranks, int32_t *members,
                     size_t cap, int write, augur_error *err) {
  o->w = NULL;
  if (!write) goto start;
  if (augur_writer_open(&o->w, dir, rank, nranks, 1, err)) return -1;
  augur_rank_def rd = rank_def(rank, nranks, 0);
  int32_t self[1] = {(int32_t)rank};
  augur_comm_def world = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = nranks, .members = members};
  augur_comm_def selfc = {
      .id = AUGUR_COMM_SELF, .kind = AUGUR_COMM_KIND_SELF, .size = 1, .members = self};
  augur_module_def mod = {.id = 1, .path = "/nonexistent/augur-bench-dx-app"};
  if (augur_writer_def_rank(o->w, &rd, err) || augur_writer_def_comm(o->w, &world, err) ||
      augur_writer_def_comm(o->w, &selfc, err) || augur_writer_def_module(o->w, &mod, err))
    return -1;
  /* One call site per call in the "source": ids 1.. at offsets 0x1000, ... */
  for (uint32_t c = CS_INIT; c < CS_N; c++) {
    augur_callsite_def cs = {.id = c, .module = 1, .offset = 0x1000ull * c};
    if (augur_writer_def_callsite(o->w, &cs, err)) return -1;
  }
start:
  if (!o->buf) o->buf = malloc(cap * sizeof *o->buf);
  if (!o->buf) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return -1;
  }
  o->n = 0;
  uint64_t t = INIT_NS + jitter(200000, 50000);
  put(o, AUGUR_EV_INIT, INIT_NS, t, CS_INIT);
  o->now = t;
  return 0;
}

/* A collective everybody leaves together: the last one in plus `cost`. */
static void collective(rank_out *o, uint32_t nranks, unsigned type, uint64_t cs, uint64_t gap) {
  uint64_t last = 0;
  for (uint32_t r = 0; r < nranks; r++) {
    o[r].wait_start = o[r].now + jitter(gap, gap / 5);
    last = max64(last, o[r].wait_start);
  }
  for (uint32_t r = 0; r < nranks; r++) {
    uint64_t end = last + jitter(5000, 1000);
    augur_event *e = put(&o[r], type, o[r].wait_start, end, cs);
    if (type == AUGUR_EV_ALLREDUCE) e->bytes = e->bytes_recv = 8;
    o[r].now = end;
  }
}

static void halo(rank_out *o, uint32_t nranks, uint32_t late) {
  /* Message r -> neighbour: 2 us latency + 8 KiB at 4 GB/s. */
  const uint64_t transfer = 2000 + HALO_BYTES / 4;
  for (uint32_t r = 0; r < nranks; r++) {
    rank_out *p = &o[r];
    int32_t left = (int32_t)((r + nranks - 1) % nranks), right = (int32_t)((r + 1) % nranks);
    uint64_t t = p->now + jitter(40000, 8000) + (r == late ? 300000 : 0);
    /* Tag 0 travels right, tag 1 left: so a 2-rank ring (left = right) still
     * matches each receive to one send. */
    augur_event *e = put(p, AUGUR_EV_IRECV, t, t + jitter(300, 100), CS_IRECV);
    e->peer = left, e->tag = 0, e->bytes_recv = HALO_BYTES, e->req = 0xac000000ull;
    t = e->t_end + jitter(150, 50);
    e = put(p, AUGUR_EV_IRECV, t, t + jitter(200, 60), CS_IRECV);
    e->peer = right, e->tag = 1, e->bytes_recv = HALO_BYTES, e->req = 0xac000001ull;
    t = e->t_end + jitter(150, 50);
    p->posted[0] = t;
    e = put(p, AUGUR_EV_ISEND, t, t + jitter(800, 200), CS_ISEND);
    e->peer = left, e->tag = 1, e->bytes = HALO_BYTES, e->req = 0x6c000000ull;
    t = e->t_end + jitter(150, 50);
    p->posted[1] = t;
    e = put(p, AUGUR_EV_ISEND, t, t + jitter(800, 200), CS_ISEND);
    e->peer = right, e->tag = 0, e->bytes = HALO_BYTES, e->req = 0x6c000001ull;
    p->wait_start = e->t_end + jitter(150, 50);
  }
  for (uint32_t r = 0; r < nranks; r++) {
    rank_out *p = &o[r];
    uint32_t left = (r + nranks - 1) % nranks, right = (r + 1) % nranks;
    uint64_t from_left = o[left].posted[1] + transfer, from_right = o[right].posted[0] + transfer;
    uint64_t end = max64(p->wait_start, max64(from_left, from_right)) + jitter(400, 100);
    augur_event *e = put(p, AUGUR_EV_WAITALL, p->wait_start, end, CS_WAITALL);
    e->aux = 4;
    e = completion(p, 0xac000000ull, 0);
    e->peer = (int32_t)left, e->tag = 0, e->bytes_recv = HALO_BYTES;
    e = completion(p, 0xac000001ull, 1);
    e->peer = (int32_t)right, e->tag = 1, e->bytes_recv = HALO_BYTES;
    completion(p, 0x6c000000ull, 2);
    completion(p, 0x6c000001ull, 3);
    p->now = end;
  }
}

static int usage(void) {
  fprintf(stderr,
          "usage: augur-bench-dx-gen DIR [--ranks R (2..%u)] [--events N] [--seed S] [--cut]\n",
          MAX_RANKS);
  return 2;
}

int main(int argc, char **argv) {
  const char *dir = NULL;
  unsigned long long events = 1000000, seed = 1;
  unsigned long nranks = 4;
  int cut = 0;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    if (!strcmp(argv[i], "--ranks") && i + 1 < argc) {
      nranks = strtoul(argv[++i], &end, 10);
      if (*end || nranks < 2 || nranks > MAX_RANKS) return usage();
    } else if (!strcmp(argv[i], "--events") && i + 1 < argc) {
      events = strtoull(argv[++i], &end, 10);
      if (*end || events < 100) return usage();
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = strtoull(argv[++i], &end, 10);
      if (*end) return usage();
    } else if (!strcmp(argv[i], "--cut")) {
      cut = 1;
    } else if (argv[i][0] != '-' && !dir) {
      dir = argv[i];
    } else {
      return usage();
    }
  }
  if (!dir) return usage();
  uint64_t rng0 = rng ^ seed * 0x9e3779b97f4a7c15ull; /* every pass starts from it */
  if (!rng0) rng0 = 1;

  uint64_t iters = events / nranks / PER_ITER;
  if (iters < 1) iters = 1;
  augur_error err = {0};
  char *targv[] = {"augur-bench-dx-app"};
  augur_trace_meta meta = {.nranks = (uint32_t)nranks,
                           .argc = 1,
                           .argv = targv,
                           .mpi_library = "synthetic",
                           .recorder = "augur-bench-dx-gen",
                           .complete = !cut};
  /* Records a rank buffers: past GROUP ranks fewer (a rank then has fewer
   * records in all), so the buffers stay in the process's address space. */
  size_t cap = nranks > GROUP ? BUF_RECORDS * GROUP / nranks : BUF_RECORDS;
  if (cap < 4 * PER_ITER) cap = 4 * PER_ITER;
  int32_t *members = malloc(nranks * sizeof *members);
  rank_out *o = calloc(nranks, sizeof *o);
  if (!members || !o) {
    fprintf(stderr, "augur-bench-dx-gen: out of memory\n");
    return 1;
  }
  for (uint32_t r = 0; r < nranks; r++)
    members[r] = (int32_t)r;
  /* A pass holds a file per rank: the soft limit of open files is raised to
   * the hard one, and a pass has fewer ranks than that allows (under
   * `ulimit -Hn 1024`, about 960: more passes, the same trace). */
  uint32_t group = GROUP;
  struct rlimit nofile;
  if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
    if (nofile.rlim_cur < nofile.rlim_max) {
      nofile.rlim_cur = nofile.rlim_max;
      setrlimit(RLIMIT_NOFILE, &nofile);
      getrlimit(RLIMIT_NOFILE, &nofile);
    }
    if (nofile.rlim_cur != RLIM_INFINITY && nofile.rlim_cur < GROUP + 64)
      group = nofile.rlim_cur > 128 ? (uint32_t)nofile.rlim_cur - 64 : 64;
  }
  if (augur_meta_write(dir, &meta, &err)) goto fail;

  uint64_t records = 0;
  for (uint32_t g0 = 0; g0 < nranks; g0 += group) { /* one pass: ranks [g0, g1) written */
    const uint32_t g1 = nranks - g0 > group ? g0 + group : (uint32_t)nranks;
    rng = rng0;
    records = nranks;
    for (uint32_t r = 0; r < nranks; r++)
      if (open_rank(&o[r], dir, r, (uint32_t)nranks, members, cap, r >= g0 && r < g1, &err))
        goto fail;
    for (uint64_t it = 0; it < iters; it++) {
      uint32_t late = rnd(20) == 0 ? (uint32_t)rnd(nranks) : UINT32_MAX;
      halo(o, (uint32_t)nranks, late);
      collective(o, (uint32_t)nranks, AUGUR_EV_ALLREDUCE, CS_ALLREDUCE, 20000);
      records += nranks * PER_ITER;
      if (it % 50 == 49) {
        collective(o, (uint32_t)nranks, AUGUR_EV_BARRIER, CS_BARRIER, 2000);
        records += nranks;
      }
      if (o[0].n + 2 * PER_ITER + 2 > cap)
        for (uint32_t r = 0; r < nranks; r++)
          if (flush(&o[r], &err)) goto fail;
    }
    /* Finalize together, then close with the rank's finalize time, as the
     * recorder does (one clock, no sync records); cut short: neither. */
    for (uint32_t r = 0; r < nranks; r++) {
      uint64_t t = o[r].now + jitter(10000, 2000), t1 = t + jitter(50000, 10000);
      if (!cut) put(&o[r], AUGUR_EV_FINALIZE, t, t1, CS_FINALIZE);
      augur_rank_def rd = rank_def(r, (uint32_t)nranks, t1);
      if (flush(&o[r], &err) || (o[r].w && ((!cut && augur_writer_def_rank(o[r].w, &rd, &err)) ||
                                            augur_writer_close(o[r].w, &err))))
        goto fail;
    }
    records += cut ? 0 : nranks;
  }
  for (uint32_t r = 0; r < nranks; r++)
    free(o[r].buf);
  printf("%s: %lu ranks, %llu iterations, %llu records\n", dir, nranks, (unsigned long long)iters,
         (unsigned long long)records);
  free(o);
  free(members);
  return 0;
fail:
  fprintf(stderr, "augur-bench-dx-gen: %s: %s\n", dir, err.msg);
  return 1;
}
