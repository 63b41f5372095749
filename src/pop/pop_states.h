/* The second half of augur_pop_trace (pop_trace.c), for callers that have
 * the thread states of every rank already: `augur report --parallel`
 * (src/parallel) computes them block by block on its analysis ranks. */
#ifndef AUGUR_POP_STATES_H
#define AUGUR_POP_STATES_H

#include <stdint.h>

#include "augur/omp.h"
#include "augur/pop.h"

/* Everything augur_pop_trace does after reading the states: RS[0..N) (every
 * rank of T, in rank order; taken: freed here, RS too), DAMAGED the first
 * damaged rank's read error ("" for none). Same contract as
 * augur_pop_trace_progress. */
int aug_pop_from_states(augur_trace *t, augur_rank_states *rs, uint32_t n, const char *damaged,
                        int ideal_run, augur_progress_fn progress, void *ctx, augur_pop *out,
                        augur_error *err);

#endif
