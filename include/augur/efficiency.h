/* augur — the POP efficiency formulas (docs/pop.md), pure arithmetic shared
 * by the trace analysis (src/pop: augur_pop_compute) and the monitoring job
 * record (src/mon: mon_job_pop), so a job in the database and a trace of the
 * same run are judged by one definition.
 *
 *   LB    = avg useful / max useful        (MPI load balance)
 *   CommE = max useful / run time          (communication efficiency)
 *   PE    = LB x CommE                     (parallel efficiency)
 *
 * A ratio whose denominator is not positive is 1 (nothing to lose). */
#ifndef AUGUR_EFFICIENCY_H
#define AUGUR_EFFICIENCY_H

#include "augur/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NUM / DEN, or 1 when DEN <= 0. */
AUGUR_API double augur_eff_ratio(double num, double den);

typedef struct augur_eff_mpi {
  double lb, comm, par; /* LB, CommE, PE */
} augur_eff_mpi;

/* The POP MPI form from the average and maximum useful time of the ranks
 * and the run time (any one unit). USEFUL_AVG <= USEFUL_MAX. */
AUGUR_API augur_eff_mpi augur_eff_mpi_form(double useful_avg, double useful_max, double run);

#ifdef __cplusplus
}
#endif
#endif
