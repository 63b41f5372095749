/* augur timeline — internal state shared by the builder and the writers. */
#ifndef AUGUR_TIMELINE_INT_H
#define AUGUR_TIMELINE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/omp.h"
#include "augur/timeline.h"
#include "timeline_svg.h"

/* A row of the picture: a rank (states enum augur_tl_state) or one of its
 * threads (states enum augur_tstate). */
typedef struct tl_row {
  float *cols; /* width x nstates: fraction of each column per state */
  uint64_t totals[AUGUR_TS_COUNT];
  augur_tl_interval *iv; /* exact intervals, NULL once overflow */
  size_t niv, cap;
  int overflow;
} tl_row;

/* A thread row (traces with OpenMP records): the thread states of
 * src/analysis/omp over the rank's window. */
typedef struct tl_thread {
  tl_row row;
  uint32_t thread;
  int initial;
} tl_thread;

typedef struct tl_rank {
  tl_row row;
  tl_thread *thr; /* by thread index, ascending once built */
  size_t nthr, capthr;
  augur_tstates *ts; /* while building (hybrid) */
  struct augur_timeline *tl;
} tl_rank;

struct augur_timeline {
  augur_trace *trace;
  uint32_t nranks;
  uint64_t from, to;
  uint32_t rank_lo, rank_hi;
  uint32_t width;
  double col_ns;  /* ns per pixel column */
  tl_rank *ranks; /* rank_lo..rank_hi */
  uint64_t events;
  /* messages of the window: the kept sample, every stride-th */
  augur_tl_message *msg;
  size_t nmsg, max_arrows;
  uint64_t stride, messages;
  uint64_t unmatched, dropped;
  augur_tl_mark *marks;
  size_t nmarks, capmarks;
  augur_tl_mark *bands; /* over all rows; rank unused */
  size_t nbands, capbands;
  /* The trace has OpenMP records: one row per thread, grouped by rank. */
  int hybrid;
  int nomem;               /* a thread row could not grow (the tstates callback) */
  uint64_t omp_unbalanced; /* unpaired OpenMP records over the ranks */
};

#endif
