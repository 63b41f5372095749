/* The extent of a run on the global timeline, from the index. */
#include "extent.h"

/* Finds the whole run's extent from the first and last events blocks of
 * each rank: cheap (two blocks per rank) and exact. */
int augur_run_extent(augur_trace *t, uint64_t *first, uint64_t *last, augur_error *err) {
  *first = UINT64_MAX, *last = 0;
  uint32_t n = augur_trace_nranks(t);
  for (uint32_t r = 0; r < n; r++) {
    size_t nb = augur_trace_nblocks(t, r), lastb = nb;
    for (size_t i = nb; i-- > 0;)
      if (augur_trace_block(t, r, i)->kind == 1) {
        lastb = i;
        break;
      }
    if (lastb == nb) continue; /* no events */
    augur_stream *s;
    int rc = augur_stream_rank(t, r, &s, err);
    if (rc < 0) return rc;
    augur_event ev;
    if ((rc = augur_stream_next(s, &ev, err)) == 1 && ev.t_start < *first) *first = ev.t_start;
    if (rc >= 0) rc = augur_stream_seek_block(s, lastb, err);
    while (rc >= 0 && (rc = augur_stream_next(s, &ev, err)) == 1)
      if (ev.t_end > *last) *last = ev.t_end;
    augur_stream_close(s);
    if (rc < 0) return rc;
  }
  if (*first == UINT64_MAX) *first = 0;
  return 0;
}
