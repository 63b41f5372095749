/* augur-bench-dx-gen's parts (gen_trace.c: the command, the 1-D halo and
 * the writing; gen_patterns.c: the other patterns of issue 27's bench/scale).
 * A run is simulated on one global clock, every rank in every pass, so that
 * each wait follows from who was late; a pass writes only its ranks. */
#ifndef AUGUR_BENCH_GEN_H
#define AUGUR_BENCH_GEN_H

#include <stdint.h>

#include "augur/event.h"
#include "augur/writer.h"

/* Call sites of the synthetic "source": id c at offset 0x1000 * c. The 1-D
 * halo defines the first seven only (its traces as before). */
enum {
  CS_INIT = 1,
  CS_IRECV,
  CS_ISEND,
  CS_WAITALL,
  CS_ALLREDUCE,
  CS_BARRIER,
  CS_FINALIZE,
  CS_HALO_N, /* the 1-D halo's call sites end here */
  CS_SEND = CS_HALO_N,
  CS_RECV,
  CS_ALLTOALL,
  CS_BCAST,
  CS_REDUCE,
  CS_SEND_BACK, /* wavefront: the backward sweep's sends and receives */
  CS_RECV_BACK,
  CS_N
};

/* 2 us latency + bytes at 4 GB/s: the generator's network. */
#define GEN_TRANSFER(bytes) (2000u + (uint64_t)(bytes) / 4u)

typedef struct rank_out {
  augur_writer *w; /* NULL: not this pass's rank */
  augur_event *buf;
  size_t n, cap;      /* buf holds cap + MAX_SUBS: a parent at n >= cap flushes first */
  uint64_t now;       /* this rank's clock: end of its last call */
  uint64_t posted[6]; /* halo: this iteration's send posts, by direction */
  uint64_t wait_start;
  int failed; /* a flush failed: err holds why */
  augur_error *err;
} rank_out;

uint64_t gen_rnd(uint64_t mod);
/* mean +- spread ns, roughly normal (sum of three uniforms) */
uint64_t gen_jitter(uint64_t mean, uint64_t spread);
/* A record of O's at [t0, t1) at call site CS; a parent record flushes the
 * buffer first when its sub-records might not fit (failure: o->failed). */
augur_event *gen_put(rank_out *o, unsigned type, uint64_t t0, uint64_t t1, uint64_t cs);
/* A COMPLETION sub-record of request REQ at INDEX in the parent's array. */
augur_event *gen_completion(rank_out *o, uint64_t req, uint32_t index);
/* Every rank enters a collective (wait_start) GAP (jittered) after its clock, rank LATE
 * EXTRA later; returns the last entry. */
uint64_t gen_enter(rank_out *o, uint32_t nranks, uint64_t gap, uint32_t late, uint64_t extra);
/* Every rank leaves collective TYPE (at call site CS) at its DONE[r], or at ALL when DONE is
 * NULL, plus MEAN +- SPREAD (jittered): its record and its clock. */
void gen_leave(rank_out *o, uint32_t nranks, unsigned type, uint64_t cs, const uint64_t *done,
               uint64_t all, uint64_t mean, uint64_t spread);
/* ceil(log2(n)): the rounds of a tree or of recursive doubling. */
uint32_t gen_log2(uint32_t n);

/* What a pattern is and what augur must find in it (bench/scale/run.py
 * checks it): written with --truth. */
typedef struct gen_pattern {
  const char *name;
  unsigned records_per_iter; /* per rank, for the iteration count */
  /* One iteration of every rank; IT counts from 0. */
  void (*iterate)(rank_out *o, uint32_t nranks, uint64_t it, uint64_t iters);
  /* Pattern state for NRANKS (before every pass) and its release. */
  int (*start)(uint32_t nranks);
  void (*stop)(void);
  /* The expectations as JSON members (without braces) for NRANKS. */
  int (*truth)(char *buf, size_t n, uint32_t nranks);
} gen_pattern;

/* The patterns other than the 1-D halo, by name; NULL if none. */
const gen_pattern *gen_pattern_named(const char *name);
/* Their names, comma-separated, for the usage line. */
const char *gen_pattern_names(void);

#endif
