/* Writes small hand-built traces with known numbers.
 *
 * usage: gen_trace DIR            the 3-rank trace check_report.c knows
 *        gen_trace DIR threads    2 ranks: persistent sends, a second thread
 *                                 whose call overlaps thread 0's (report.sh)
 *
 * GEN_OMP=1 adds OpenMP records (kind-3 blocks, docs/openmp.md) on thread 0
 * and on a thread 7 without MPI calls, and trace.json "openmp": the MPI
 * analyses must print exactly what they print without them.
 *
 * Three ranks on one clock (no sync records, every init_ns = 1000, so the
 * global time is local - 1000). Times are chosen so every gap and duration
 * is distinct enough to catch off-by-one-event mistakes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "augur/writer.h"

#define NRANKS_MAX 3
static uint32_t NRANKS = 3;
#define WORLD AUGUR_COMM_WORLD

static augur_event ev(unsigned type, uint64_t t0, uint64_t t1, int32_t peer, uint64_t bytes,
                      uint64_t bytes_recv, uint64_t callsite) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = (uint16_t)type;
  e.t_start = t0;
  e.t_end = t1;
  e.peer = peer;
  e.tag = AUGUR_TAG_NONE;
  e.bytes = bytes;
  e.bytes_recv = bytes_recv;
  e.callsite = callsite;
  if (type != AUGUR_EV_INIT && type != AUGUR_EV_FINALIZE) e.comm = WORLD;
  return e;
}

static augur_event p2p(unsigned type, uint64_t t0, uint64_t t1, int32_t peer, uint64_t bytes,
                       uint64_t bytes_recv, uint64_t req, uint64_t callsite) {
  augur_event e = ev(type, t0, t1, peer, bytes, bytes_recv, callsite);
  e.tag = 5;
  e.req = req;
  return e;
}

static augur_event completion(uint64_t req, uint32_t index, int32_t peer, uint64_t bytes_recv) {
  augur_event e;
  memset(&e, 0, sizeof e);
  e.type = AUGUR_EV_COMPLETION;
  e.req = req;
  e.aux = index;
  e.peer = peer;
  e.tag = peer >= 0 ? 5 : AUGUR_TAG_NONE;
  e.bytes_recv = bytes_recv;
  return e;
}

static augur_event waitall(uint64_t t0, uint64_t t1, uint32_t n, uint64_t callsite) {
  augur_event e = ev(AUGUR_EV_WAITALL, t0, t1, AUGUR_PEER_NONE, 0, 0, callsite);
  e.comm = AUGUR_COMM_NONE;
  e.aux = n;
  return e;
}

static int die(const char *what, const augur_error *err) {
  fprintf(stderr, "gen_trace: %s: %s\n", what, err->msg);
  return 1;
}

/* GEN_OMP: after each MPI call of thread 0, a parallel region (fork,
 * implicit task, barrier wait, join) 1..6 ns after its end; thread 7 (a
 * worker with no MPI calls) has the team member's part of it. */
static int write_omp(augur_writer *w, const augur_event *evs, size_t n) {
  static const unsigned cycle[6] = {AUGUR_EV_OMP_FORK,       AUGUR_EV_OMP_ITASK_BEGIN,
                                    AUGUR_EV_OMP_WAIT_BEGIN, AUGUR_EV_OMP_WAIT_END,
                                    AUGUR_EV_OMP_ITASK_END,  AUGUR_EV_OMP_JOIN};
  augur_event m[64], wk[64];
  size_t nm = 0, nw = 0;
  augur_error err = {0};
  for (size_t i = 0; i + 1 < n && nm + 6 <= 64; i++) {
    if (augur_event_is_sub(evs[i].type)) continue;
    for (uint64_t k = 0; k < 6; k++) {
      augur_event e;
      memset(&e, 0, sizeof e);
      e.type = (uint16_t)cycle[k];
      e.t_start = e.t_end = evs[i].t_end + 1 + k;
      e.req = nm / 6 + 1; /* region id */
      e.tag = k == 2 || k == 3 ? AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL : 0;
      e.callsite = k == 0 || k == 5 ? 3 : 0;
      m[nm++] = e;
      if (k == 0 || k == 5) continue;
      e.thread = 7;
      e.callsite = 0;
      wk[nw++] = e;
    }
  }
  if (augur_writer_omp_events(w, 0, m, nm, &err) || augur_writer_omp_events(w, 7, wk, nw, &err))
    return die("openmp events", &err);
  return 0;
}

static int write_rank(const char *dir, uint32_t rank, const augur_event *evs, size_t n,
                      uint64_t finalize_end, const augur_event *t1, size_t n1) {
  augur_error err = {0};
  augur_writer *w = NULL;
  if (augur_writer_open(&w, dir, rank, NRANKS, 0, &err) != AUGUR_OK) return die("open", &err);
  augur_rank_def rd;
  memset(&rd, 0, sizeof rd);
  rd.rank = rank;
  rd.nranks = NRANKS;
  rd.pid = 4000 + rank;
  /* GEN_HOSTILE: text with control characters, as any user can put in a
   * command line or a host name; what prints it must escape them. */
  rd.host = getenv("GEN_HOSTILE") ? "test\033]0;x\007host" : "testhost";
  rd.thread_level = -1;
  rd.init_ns = 1000;
  rd.finalize_ns = finalize_end;
  rd.counter_note = "gen_trace: no counters";
  int32_t members[NRANKS_MAX] = {0, 1, 2}, self[1] = {(int32_t)rank};
  augur_comm_def world = {
      .id = AUGUR_COMM_WORLD, .kind = AUGUR_COMM_KIND_WORLD, .size = NRANKS, .members = members};
  augur_comm_def selfc = {
      .id = AUGUR_COMM_SELF, .kind = AUGUR_COMM_KIND_SELF, .size = 1, .members = self};
  augur_module_def mod = {.id = 1, .path = "/nonexistent/augur-test-app"};
  /* Per-rank call-site ids 1..3 at offsets 0x100, 0x200, 0x300 of one module:
   * the reader makes them global in order of first appearance (rank 0 first). */
  augur_callsite_def cs[3] = {{1, 1, 0x100}, {2, 1, 0x200}, {3, 1, 0x300}};
  if (augur_writer_def_rank(w, &rd, &err) || augur_writer_def_comm(w, &world, &err) ||
      augur_writer_def_comm(w, &selfc, &err) || augur_writer_def_module(w, &mod, &err))
    return die("defs", &err);
  for (int i = 0; i < 3; i++)
    if (augur_writer_def_callsite(w, &cs[i], &err)) return die("callsite", &err);
  /* Two blocks, to exercise the block boundary in the middle of the rank. */
  size_t half = n / 2;
  while (half < n && augur_event_is_sub(evs[half].type))
    half++;
  if (augur_writer_events(w, 0, evs, half, &err) ||
      augur_writer_events(w, 0, evs + half, n - half, &err))
    return die("events", &err);
  if (n1 && augur_writer_events(w, 1, t1, n1, &err)) return die("thread 1 events", &err);
  if (getenv("GEN_OMP") && write_omp(w, evs, n)) return 1;
  if (augur_writer_close(w, &err)) return die("close", &err);
  return 0;
}

static augur_event start(uint64_t t0, uint64_t t1, uint64_t req) {
  augur_event e = ev(AUGUR_EV_START, t0, t1, AUGUR_PEER_NONE, 0, 0, 2);
  e.comm = AUGUR_COMM_NONE;
  e.req = req;
  return e;
}

/* Rank 0: SEND_INIT + 2 x (START, WAIT) on thread 0 while thread 1 sends 8
 * bytes across them; rank 1 receives. Expected (report.sh): rank 0 compute
 * 1100 / MPI 1300 ns, rank 1 compute 600 / MPI 1400 ns; messages 0->1: 3,
 * 520 bytes (two persistent completions of 256 B, one 8 B send). */
static int threads_trace(const char *dir) {
  augur_error err = {0};
  char *targv[] = {"./threads"};
  augur_trace_meta meta = {.nranks = 2, .argc = 1, .argv = targv, .complete = 1};
  NRANKS = 2;
  if (augur_meta_write(dir, &meta, &err) != AUGUR_OK) return die("meta", &err);
  augur_event r0[] = {
      ev(AUGUR_EV_INIT, 1000, 2000, AUGUR_PEER_NONE, 0, 0, 0),
      p2p(AUGUR_EV_SEND_INIT, 2100, 2200, 1, 256, 0, 0xC1, 1),
      start(2300, 2400, 0xC1),
      waitall(2500, 2600, 1, 3),
      completion(0xC1, 0, AUGUR_PEER_NONE, 0),
      start(2700, 2800, 0xC1),
      waitall(2900, 3000, 1, 3),
      completion(0xC1, 0, AUGUR_PEER_NONE, 0),
      ev(AUGUR_EV_FINALIZE, 4000, 4100, AUGUR_PEER_NONE, 0, 0, 0),
  };
  augur_event r0t1[] = {p2p(AUGUR_EV_SEND, 2150, 2950, 1, 8, 0, 0, 1)};
  r0t1[0].thread = 1;
  for (size_t i = 0; i < sizeof r0 / sizeof r0[0]; i++)
    if (r0[i].type == AUGUR_EV_WAITALL) r0[i].type = AUGUR_EV_WAIT;
  augur_event r1[] = {
      ev(AUGUR_EV_INIT, 1000, 1500, AUGUR_PEER_NONE, 0, 0, 0),
      p2p(AUGUR_EV_RECV, 1600, 2600, 0, 0, 256, 0, 1),
      p2p(AUGUR_EV_RECV, 2650, 2950, 0, 0, 256, 0, 1),
      p2p(AUGUR_EV_RECV, 3000, 3100, 0, 0, 8, 0, 1),
      ev(AUGUR_EV_FINALIZE, 3500, 3600, AUGUR_PEER_NONE, 0, 0, 0),
  };
  if (write_rank(dir, 0, r0, sizeof r0 / sizeof r0[0], 4100, r0t1, 1) ||
      write_rank(dir, 1, r1, sizeof r1 / sizeof r1[0], 3600, NULL, 0))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 3 && !strcmp(argv[2], "threads"))) {
    fprintf(stderr, "usage: gen_trace DIR [threads]\n");
    return 2;
  }
  const char *dir = argv[1];
  if (argc == 3) return threads_trace(dir);
  augur_error err = {0};
  char *targv[] = {"./augur-test-app", getenv("GEN_HOSTILE") ? "42\033[2J\n" : "42"};
  augur_trace_meta meta = {.nranks = NRANKS,
                           .argc = 2,
                           .argv = targv,
                           .mpi_library = "TestMPI",
                           .mpi_version = "TestMPI 1.0",
                           .recorder = "gen_trace",
                           .start_unix_ns = 1763800000000000000ULL,
                           .complete = 1};
  if (getenv("GEN_OMP"))
    meta.openmp = (augur_omp_meta){.mode = "ompt",
                                   .runtime = "gen_trace OpenMP",
                                   .note = "gen_trace: hand-built OpenMP records"};
  if (augur_meta_write(dir, &meta, &err) != AUGUR_OK) return die("meta", &err);

  /* rank 0: compute 3700 ns, MPI 3300 ns */
  augur_event r0[] = {
      ev(AUGUR_EV_INIT, 1000, 2000, AUGUR_PEER_NONE, 0, 0, 0),
      p2p(AUGUR_EV_ISEND, 3000, 3100, 1, 100, 0, 0xA1, 1),
      /* posts 4096 bytes, 100 arrive: received counts the status's 100 */
      p2p(AUGUR_EV_IRECV, 3200, 3300, 1, 0, 4096, 0xA2, 1),
      waitall(3500, 4500, 2, 2),
      completion(0xA1, 0, AUGUR_PEER_NONE, 0),
      completion(0xA2, 1, 1, 100),
      p2p(AUGUR_EV_SEND, 5500, 5600, 2, 5000, 0, 0, 3),
      ev(AUGUR_EV_ALLREDUCE, 6000, 8000, AUGUR_PEER_NONE, 8, 8, 2),
      ev(AUGUR_EV_FINALIZE, 9000, 9500, AUGUR_PEER_NONE, 0, 0, 0),
  };
  /* rank 1: compute 4290 ns, MPI 2210 ns */
  augur_event r1[] = {
      ev(AUGUR_EV_INIT, 1000, 2500, AUGUR_PEER_NONE, 0, 0, 0),
      p2p(AUGUR_EV_IRECV, 3000, 3050, 0, 0, 100, 0xB1, 1),
      p2p(AUGUR_EV_ISEND, 3100, 3150, 0, 100, 0, 0xB2, 1),
      waitall(3200, 4200, 2, 2),
      completion(0xB1, 0, 0, 100),
      completion(0xB2, 1, AUGUR_PEER_NONE, 0),
      p2p(AUGUR_EV_SEND, 4300, 4400, 2, 1, 0, 0, 3),
      p2p(AUGUR_EV_SEND, 4500, 4510, 2, 0, 0, 0, 3),
      ev(AUGUR_EV_ALLREDUCE, 7000, 8000, AUGUR_PEER_NONE, 8, 8, 2),
      ev(AUGUR_EV_FINALIZE, 9000, 9200, AUGUR_PEER_NONE, 0, 0, 0),
  };
  /* rank 2: compute 2240 ns, MPI 4760 ns */
  augur_event r2[] = {
      ev(AUGUR_EV_INIT, 1000, 1500, AUGUR_PEER_NONE, 0, 0, 0),
      p2p(AUGUR_EV_RECV, 1600, 5700, 0, 0, 5000, 0, 1),
      p2p(AUGUR_EV_RECV, 5800, 5900, 1, 0, 1, 0, 2),
      p2p(AUGUR_EV_RECV, 5950, 6000, 1, 0, 0, 0, 2),
      p2p(AUGUR_EV_SEND, 6100, 6110, AUGUR_PEER_PROC_NULL, 64, 0, 0, 3),
      ev(AUGUR_EV_ALLREDUCE, 7500, 8000, AUGUR_PEER_NONE, 8, 8, 3),
      ev(AUGUR_EV_FINALIZE, 8500, 9700, AUGUR_PEER_NONE, 0, 0, 0),
  };
  if (write_rank(dir, 0, r0, sizeof r0 / sizeof r0[0], 9500, NULL, 0) ||
      write_rank(dir, 1, r1, sizeof r1 / sizeof r1[0], 9200, NULL, 0) ||
      write_rank(dir, 2, r2, sizeof r2 / sizeof r2[0], 9700, NULL, 0))
    return 1;
  return 0;
}
