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
  uint32_t group; /* ranks a row (augur_tl_options.group), >= 1 */
  uint32_t nrows; /* ceil((rank_hi - rank_lo + 1) / group): the entries of ranks */
  uint32_t width;
  double col_ns;  /* ns per pixel column */
  tl_rank *ranks; /* a row each: rank_lo..rank_hi, group ranks a row */
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

/* The row of RANK (rank_lo <= RANK <= rank_hi), and row I's first and last ranks. */
static inline uint32_t tl_row_of(const struct augur_timeline *tl, uint32_t rank) {
  return (rank - tl->rank_lo) / tl->group;
}
static inline uint32_t tl_row_first(const struct augur_timeline *tl, uint32_t i) {
  return tl->rank_lo + i * tl->group;
}
static inline uint32_t tl_row_last(const struct augur_timeline *tl, uint32_t i) {
  uint32_t last = tl->rank_lo + i * tl->group + (tl->group - 1);
  return last > tl->rank_hi || last < tl->rank_lo ? tl->rank_hi : last;
}

#endif
