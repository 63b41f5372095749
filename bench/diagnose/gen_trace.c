/* augur-bench-dx-gen — a synthetic trace for timing `augur diagnose`.
 *
 *   augur-bench-dx-gen DIR [--ranks R] [--events N] [--seed S] [--cut]
 *                          [--pattern P] [--truth FILE]
 *
 * Writes DIR (a NAME.augur trace) with R ranks (default 4) and about N
 * records in all (default 1000000). --pattern picks another program than
 * the default below (gen_patterns.c: halo3d, master, alltoall, wavefront,
 * colls); --truth FILE writes what was put in and what augur must find
 * (JSON, checked by bench/scale/run.py). The default: a 1-D halo exchange on a ring, simulated
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

#include "gen.h"

#define HALO_BYTES  8192
#define PER_ITER    10    /* records per rank and iteration (barrier aside) */
#define BUF_RECORDS 4096  /* per rank */
#define GROUP       4096u /* ranks written in one pass */
#define MAX_RANKS   65536u
#define INIT_NS     1000ull /* every rank's MPI_Init starts here: one clock */
#define MAX_SUBS    16      /* a parent and its sub-records, at most */

static uint64_t rng = 0x2545f4914f6cdd1dull;
uint64_t gen_rnd(uint64_t mod) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng % mod;
}
uint64_t gen_jitter(uint64_t mean, uint64_t spread) {
  int64_t d = 0;
  for (int i = 0; i < 3; i++)
    d += (int64_t)gen_rnd(2 * spread + 1) - (int64_t)spread;
  int64_t v = (int64_t)mean + d / 3;
  return v < 1 ? 1 : (uint64_t)v;
}
static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}

static uint64_t gen_records; /* records put in this pass (all ranks') */

static void flush(rank_out *o) {
  if (o->w && !o->failed && augur_writer_events(o->w, 0, o->buf, o->n, o->err))
    o->failed = 1; /* not this pass's rank: dropped */
  o->n = 0;
}

augur_event *gen_put(rank_out *o, unsigned type, uint64_t t0, uint64_t t1, uint64_t cs) {
  if (type != AUGUR_EV_COMPLETION && o->n >= o->cap) flush(o); /* MAX_SUBS left past cap */
  augur_event *e = &o->buf[o->n++];
  gen_records++;
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

augur_event *gen_completion(rank_out *o, uint64_t req, uint32_t index) {
  augur_event *e = gen_put(o, AUGUR_EV_COMPLETION, 0, 0, 0);
  e->comm = AUGUR_COMM_NONE;
  e->req = req;
  e->aux = index;
  return e;
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
                     size_t cap, int write, uint32_t ncs, augur_error *err) {
  o->w = NULL;
  o->cap = cap;
  o->err = err;
  o->failed = 0;
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
  for (uint32_t c = CS_INIT; c < ncs; c++) {
    augur_callsite_def cs = {.id = c, .module = 1, .offset = 0x1000ull * c};
    if (augur_writer_def_callsite(o->w, &cs, err)) return -1;
  }
start:
  if (!o->buf) o->buf = malloc((cap + MAX_SUBS) * sizeof *o->buf);
  if (!o->buf) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return -1;
  }
  o->n = 0;
  uint64_t t = INIT_NS + gen_jitter(200000, 50000);
  gen_put(o, AUGUR_EV_INIT, INIT_NS, t, CS_INIT);
  o->now = t;
  return 0;
}

uint32_t gen_log2(uint32_t n) {
  uint32_t k = 0;
  while (k < 32 && (1ull << k) < n)
    k++;
  return k;
}

uint64_t gen_enter(rank_out *o, uint32_t nranks, uint64_t gap, uint32_t late, uint64_t extra) {
  uint64_t last = 0;
  for (uint32_t r = 0; r < nranks; r++) {
    o[r].wait_start = o[r].now + gen_jitter(gap, gap / 5) + (r == late ? extra : 0);
    last = max64(last, o[r].wait_start);
  }
  return last;
}

void gen_leave(rank_out *o, uint32_t nranks, unsigned type, uint64_t cs, const uint64_t *done,
               uint64_t all, uint64_t mean, uint64_t spread) {
  for (uint32_t r = 0; r < nranks; r++) {
    uint64_t end = (done ? done[r] : all) + gen_jitter(mean, spread);
    augur_event *e = gen_put(&o[r], type, o[r].wait_start, end, cs);
    if (type == AUGUR_EV_ALLREDUCE) e->bytes = e->bytes_recv = 8;
    if (type == AUGUR_EV_ALLTOALL) e->bytes = e->bytes_recv = 1024ull * nranks;
    o[r].now = end;
  }
}

/* The 1-D halo's collectives: everybody leaves together, the last one in plus 5 us. */
static void collective(rank_out *o, uint32_t nranks, unsigned type, uint64_t cs, uint64_t gap) {
  gen_leave(o, nranks, type, cs, NULL, gen_enter(o, nranks, gap, UINT32_MAX, 0), 5000, 1000);
}

static void halo(rank_out *o, uint32_t nranks, uint32_t late) {
  /* Message r -> neighbour: 2 us latency + 8 KiB at 4 GB/s. */
  const uint64_t transfer = GEN_TRANSFER(HALO_BYTES);
  for (uint32_t r = 0; r < nranks; r++) {
    rank_out *p = &o[r];
    int32_t left = (int32_t)((r + nranks - 1) % nranks), right = (int32_t)((r + 1) % nranks);
    uint64_t t = p->now + gen_jitter(40000, 8000) + (r == late ? 300000 : 0);
    /* Tag 0 travels right, tag 1 left: so a 2-rank ring (left = right) still
     * matches each receive to one send. */
    augur_event *e = gen_put(p, AUGUR_EV_IRECV, t, t + gen_jitter(300, 100), CS_IRECV);
    e->peer = left, e->tag = 0, e->bytes_recv = HALO_BYTES, e->req = 0xac000000ull;
    t = e->t_end + gen_jitter(150, 50);
    e = gen_put(p, AUGUR_EV_IRECV, t, t + gen_jitter(200, 60), CS_IRECV);
    e->peer = right, e->tag = 1, e->bytes_recv = HALO_BYTES, e->req = 0xac000001ull;
    t = e->t_end + gen_jitter(150, 50);
    p->posted[0] = t;
    e = gen_put(p, AUGUR_EV_ISEND, t, t + gen_jitter(800, 200), CS_ISEND);
    e->peer = left, e->tag = 1, e->bytes = HALO_BYTES, e->req = 0x6c000000ull;
    t = e->t_end + gen_jitter(150, 50);
    p->posted[1] = t;
    e = gen_put(p, AUGUR_EV_ISEND, t, t + gen_jitter(800, 200), CS_ISEND);
    e->peer = right, e->tag = 0, e->bytes = HALO_BYTES, e->req = 0x6c000001ull;
    p->wait_start = e->t_end + gen_jitter(150, 50);
  }
  for (uint32_t r = 0; r < nranks; r++) {
    rank_out *p = &o[r];
    uint32_t left = (r + nranks - 1) % nranks, right = (r + 1) % nranks;
    uint64_t from_left = o[left].posted[1] + transfer, from_right = o[right].posted[0] + transfer;
    uint64_t end = max64(p->wait_start, max64(from_left, from_right)) + gen_jitter(400, 100);
    augur_event *e = gen_put(p, AUGUR_EV_WAITALL, p->wait_start, end, CS_WAITALL);
    e->aux = 4;
    e = gen_completion(p, 0xac000000ull, 0);
    e->peer = (int32_t)left, e->tag = 0, e->bytes_recv = HALO_BYTES;
    e = gen_completion(p, 0xac000001ull, 1);
    e->peer = (int32_t)right, e->tag = 1, e->bytes_recv = HALO_BYTES;
    gen_completion(p, 0x6c000000ull, 2);
    gen_completion(p, 0x6c000001ull, 3);
    p->now = end;
  }
}

/* What was put in and what augur must find (bench/scale/run.py). */
static int write_truth(const char *path, const gen_pattern *pat, uint32_t nranks, uint64_t iters,
                       uint64_t records, uint64_t run_ns, augur_error *err) {
  /* the 1-D halo's collectives cost a flat 5 us (its traces as they were): not a network
   * model simulate can be held to */
  char expect[1024] = "\"late\":\"a random rank in one iteration of 20\",\"sim_model\":false,"
                      "\"expect\":["
                      "{\"patterns\":[\"late_arrival\"],\"callsite\":5},"
                      "{\"patterns\":[\"late_sender\"],\"callsite\":4}]";
  if (pat && pat->truth(expect, sizeof expect, nranks) >= (int)sizeof expect) {
    snprintf(err->msg, sizeof err->msg, "truth: too long");
    return -1;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err->msg, sizeof err->msg, "%s: cannot write", path);
    return -1;
  }
  fprintf(f,
          "{\"pattern\":\"%s\",\"ranks\":%u,\"iterations\":%llu,\"records\":%llu,"
          "\"run_seconds\":%.9f,%s}\n",
          pat ? pat->name : "halo", nranks, (unsigned long long)iters, (unsigned long long)records,
          (double)run_ns / 1e9, expect);
  if (fclose(f)) {
    snprintf(err->msg, sizeof err->msg, "%s: cannot write", path);
    return -1;
  }
  return 0;
}

static int usage(void) {
  fprintf(stderr,
          "usage: augur-bench-dx-gen DIR [--ranks R (2..%u)] [--events N] [--seed S] [--cut]\n"
          "                          [--pattern P] [--truth FILE]\n"
          "patterns: %s\n",
          MAX_RANKS, gen_pattern_names());
  return 2;
}

int main(int argc, char **argv) {
  const char *dir = NULL;
  unsigned long long events = 1000000, seed = 1;
  unsigned long nranks = 4;
  int cut = 0;
  const gen_pattern *pat = NULL; /* NULL: the 1-D halo */
  const char *truth = NULL;
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
    } else if (!strcmp(argv[i], "--pattern") && i + 1 < argc) {
      ++i;
      if (strcmp(argv[i], "halo") && !(pat = gen_pattern_named(argv[i]))) return usage();
    } else if (!strcmp(argv[i], "--truth") && i + 1 < argc) {
      truth = argv[++i];
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

  uint64_t iters = events / nranks / (pat ? pat->records_per_iter : PER_ITER);
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
  const uint32_t ncs = pat ? CS_N : CS_HALO_N;
  uint64_t run_end = 0;
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
    gen_records = 0;
    if (pat && pat->start((uint32_t)nranks)) {
      snprintf(err.msg, sizeof err.msg, "out of memory");
      goto fail;
    }
    for (uint32_t r = 0; r < nranks; r++)
      if (open_rank(&o[r], dir, r, (uint32_t)nranks, members, cap, r >= g0 && r < g1, ncs, &err))
        goto fail;
    for (uint64_t it = 0; it < iters; it++) {
      if (pat) {
        pat->iterate(o, (uint32_t)nranks, it, iters);
      } else {
        uint32_t late = gen_rnd(20) == 0 ? (uint32_t)gen_rnd(nranks) : UINT32_MAX;
        halo(o, (uint32_t)nranks, late);
        collective(o, (uint32_t)nranks, AUGUR_EV_ALLREDUCE, CS_ALLREDUCE, 20000);
        if (it % 50 == 49) collective(o, (uint32_t)nranks, AUGUR_EV_BARRIER, CS_BARRIER, 2000);
      }
      if (!pat && o[0].n + 2 * PER_ITER + 2 > cap) /* the 1-D halo's blocks as they were */
        for (uint32_t r = 0; r < nranks; r++)
          flush(&o[r]);
      for (uint32_t r = g0; r < g1; r++)
        if (o[r].failed) goto fail;
    }
    /* Finalize together, then close with the rank's finalize time, as the
     * recorder does (one clock, no sync records); cut short: neither. */
    for (uint32_t r = 0; r < nranks; r++) {
      uint64_t t = o[r].now + gen_jitter(10000, 2000), t1 = t + gen_jitter(50000, 10000);
      if (!cut) gen_put(&o[r], AUGUR_EV_FINALIZE, t, t1, CS_FINALIZE);
      run_end = max64(run_end, cut ? o[r].now : t1);
      augur_rank_def rd = rank_def(r, (uint32_t)nranks, t1);
      flush(&o[r]);
      if (o[r].failed || (o[r].w && ((!cut && augur_writer_def_rank(o[r].w, &rd, &err)) ||
                                     augur_writer_close(o[r].w, &err))))
        goto fail;
    }
    if (pat) pat->stop();
  }
  records = gen_records;
  if (truth && write_truth(truth, pat, (uint32_t)nranks, iters, records, run_end - INIT_NS, &err))
    goto fail;
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
