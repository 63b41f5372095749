/* augur analyses — the whole run's extent on the global timeline. */
#ifndef AUGUR_ANALYSIS_EXTENT_H
#define AUGUR_ANALYSIS_EXTENT_H

#include <stdint.h>

#include "augur/event.h" /* before reader.h: defs.h needs AUGUR_MAX_COUNTERS */
#include "augur/reader.h"

/* First event start and last event end over all ranks (global ns), from
 * the block index (each rank's first and last events blocks' headers): no
 * payload is read. ERR is unused (kept for callers). */
int augur_run_extent(augur_trace *t, uint64_t *first, uint64_t *last, augur_error *err);

#endif
