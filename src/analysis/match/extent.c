/* The extent of a run on the global timeline, from the index. */
#include "extent.h"

/* Finds the whole run's extent from the block index alone: an events
 * block's header holds the t_start of its first record (first_ns) and the
 * largest t_end of its records (last_ns), local times of the rank
 * (docs/trace-format.md). A rank's first record is the earliest of its
 * threads' first ones (a rank stream merges its threads by local t_start),
 * its last events block the one a rank stream read last before; neither
 * is decoded: a stream per rank cost a file read, a decompression and a
 * decoded block for every rank (issue 27). */
int augur_run_extent(augur_trace *t, uint64_t *first, uint64_t *last, augur_error *err) {
  (void)err;
  *first = UINT64_MAX, *last = 0;
  uint32_t n = augur_trace_nranks(t);
  for (uint32_t r = 0; r < n; r++) {
    size_t nb = augur_trace_nblocks(t, r);
    /* the earliest block start: a thread's first block holds its first record, and each
     * later block of the thread starts after it, so no block needs to be told apart */
    int any = 0;
    uint64_t lfirst = 0;
    for (size_t i = 0; i < nb; i++) {
      const augur_block_info *b = augur_trace_block(t, r, i);
      if (!b->nevents) continue;
      if (!any || b->first_ns < lfirst) lfirst = b->first_ns;
      any = 1;
    }
    if (!any) continue; /* no events */
    uint64_t g = augur_trace_global_ns(t, r, lfirst);
    if (g < *first) *first = g;
    const augur_block_info *lb = augur_trace_block(t, r, nb - 1);
    if (lb->nevents && (g = augur_trace_global_ns(t, r, lb->last_ns)) > *last) *last = g;
  }
  if (*first == UINT64_MAX) *first = 0;
  return 0;
}
