/* augur timeline — internal state shared by the builder and the writers. */
#ifndef AUGUR_TIMELINE_INT_H
#define AUGUR_TIMELINE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/timeline.h"
#include "timeline_svg.h"

typedef struct tl_rank {
  float *cols; /* width x AUGUR_TL_NSTATES: fraction of each column per state */
  uint64_t totals[AUGUR_TL_NSTATES];
  augur_tl_interval *iv; /* exact intervals, NULL once overflow */
  size_t niv, cap;
  int overflow;
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
};

#endif
