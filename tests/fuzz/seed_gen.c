/* augur fuzz seeds: writes small valid traces with the writer, then copies
 * their rank files and trace.json into the two seed directories.
 *
 *   fuzz_seed_gen RANKFILE_SEED_DIR JSON_SEED_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/writer.h"

static void die(const char *what, const augur_error *err) {
  fprintf(stderr, "fuzz_seed_gen: %s: %s\n", what, err ? err->msg : "");
  exit(1);
}

static void copy(const char *from, const char *to) {
  FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
  if (!a || !b) die(from, NULL);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, a)) > 0)
    fwrite(buf, 1, n, b);
  fclose(a);
  fclose(b);
}

/* variant 0: a bit of everything; 1: two threads, with OpenMP records
 * (kind-3 blocks) and trace.json "openmp"; 2: definitions only */
static void trace(const char *dir, int variant) {
  augur_error err;
  augur_trace_meta m = {.nranks = 1, .recorder = "seed", .complete = variant != 2};
  static const augur_omp_callback cbs[] = {{"parallel_begin", 5}, {"work", 4}};
  if (variant == 1)
    m.openmp = (augur_omp_meta){.mode = "ompt",
                                .runtime = "LLVM OMP version: 5.0.20140926",
                                .ncallbacks = 2,
                                .callbacks = cbs,
                                .note = "seed",
                                .dropped_before_init = 3};
  if (augur_meta_write(dir, &m, &err)) die(dir, &err);
  augur_writer *w;
  if (augur_writer_open(&w, dir, 0, 1, 1, &err)) die(dir, &err);
  augur_rank_def rd = {.rank = 0,
                       .nranks = 1,
                       .host = "h",
                       .thread_level = 3,
                       .init_ns = 100,
                       .nsync = 2,
                       .ncounters = 1};
  rd.sync[0] = (augur_clock_sync){AUGUR_SYNC_INIT, 100, 0, 10};
  rd.sync[1] = (augur_clock_sync){AUGUR_SYNC_FINALIZE, 100000, 5, 10};
  rd.counters[0] = (augur_counter_def){0, AUGUR_CTR_PERF, "task-clock"};
  int32_t mem[1] = {0}, dims[1];
  (void)dims;
  augur_comm_def c = {.id = 0x1234,
                      .parent = 1,
                      .kind = AUGUR_COMM_KIND_CART,
                      .size = 1,
                      .members = mem,
                      .ndims = 1,
                      .dims = {1},
                      .periods = {1}};
  augur_module_def md = {1, "/nonexistent/app"};
  augur_callsite_def cs = {1, 1, 0x1234};
  if (augur_writer_def_rank(w, &rd, &err) || augur_writer_def_comm(w, &c, &err) ||
      augur_writer_def_module(w, &md, &err) || augur_writer_def_callsite(w, &cs, &err))
    die("defs", &err);
  if (variant != 2) {
    augur_event e[40];
    memset(e, 0, sizeof e);
    uint64_t t = 200;
    for (int i = 0; i < 40; i += 10) {
      unsigned types[10] = {AUGUR_EV_IRECV,      AUGUR_EV_IRECV,      AUGUR_EV_ISEND,
                            AUGUR_EV_ISEND,      AUGUR_EV_WAITALL,    AUGUR_EV_COMPLETION,
                            AUGUR_EV_COMPLETION, AUGUR_EV_COMPLETION, AUGUR_EV_COMPLETION,
                            AUGUR_EV_ALLREDUCE};
      for (int k = 0; k < 10; k++) {
        augur_event *x = &e[i + k];
        x->type = (uint16_t)types[k];
        x->t_start = t += 100 + (uint64_t)(k * 13);
        x->t_end = t += 50;
        x->comm = k < 4 || k == 9 ? 0x1234 : 0;
        x->peer = k < 4 ? 0 : -1;
        x->req = k < 4              ? 0xac000000u + (unsigned)k
                 : k >= 5 && k <= 8 ? 0xac000000u + (unsigned)(k - 5)
                                    : 0;
        x->aux = k == 4 ? 4 : k >= 5 && k <= 8 ? (uint32_t)(k - 5) : 0;
        x->bytes = k == 2 || k == 3 || k == 9 ? 64 : 0;
        x->callsite = 1;
        x->ctr[0] = (uint64_t)(i + k);
        x->hash = k == 2 ? 0xdeadbeefcafef00dull : 0;
      }
    }
    if (augur_writer_events(w, 0, e, 20, &err) || augur_writer_events(w, variant, e + 20, 20, &err))
      die("events", &err);
    if (variant == 1) { /* a fork/join cycle of point records per thread */
      static const unsigned omp[6] = {AUGUR_EV_OMP_FORK,       AUGUR_EV_OMP_ITASK_BEGIN,
                                      AUGUR_EV_OMP_WAIT_BEGIN, AUGUR_EV_OMP_WAIT_END,
                                      AUGUR_EV_OMP_ITASK_END,  AUGUR_EV_OMP_JOIN};
      augur_event o[12];
      memset(o, 0, sizeof o);
      for (int i = 0; i < 12; i++) {
        o[i].type = (uint16_t)omp[i % 6];
        o[i].t_start = o[i].t_end = 250 + 70 * (uint64_t)i;
        o[i].req = 1 + (uint64_t)i / 6;
        o[i].callsite = i % 6 == 0 ? 1 : 0;
        o[i].tag = i % 6 == 2 || i % 6 == 3 ? AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL : 0;
      }
      if (augur_writer_omp_events(w, 0, o, 12, &err) || augur_writer_omp_events(w, 1, o, 12, &err))
        die("openmp events", &err);
    }
  }
  if (augur_writer_close(w, &err)) die("close", &err);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: fuzz_seed_gen RANKFILE_SEED_DIR JSON_SEED_DIR\n");
    return 2;
  }
  for (int v = 0; v < 3; v++) {
    char dir[4096], from[4200], to[4200];
    snprintf(dir, sizeof dir, "%s/trace%d.augur", argv[1], v);
    trace(dir, v);
    snprintf(from, sizeof from, "%s/rank-00000.evt", dir);
    snprintf(to, sizeof to, "%s/gen-%d.evt", argv[1], v);
    copy(from, to);
    snprintf(from, sizeof from, "%s/trace.json", dir);
    snprintf(to, sizeof to, "%s/gen-%d.json", argv[2], v);
    copy(from, to);
    snprintf(from, sizeof from, "%s/rank-00000.evt", dir);
    remove(from);
    snprintf(from, sizeof from, "%s/trace.json", dir);
    remove(from);
    remove(dir);
  }
  return 0;
}
