/* The POP efficiency formulas (include/augur/efficiency.h). */
#include "augur/efficiency.h"

#include <assert.h>

double augur_eff_ratio(double num, double den) {
  return den > 0 ? num / den : 1.0;
}

augur_eff_mpi augur_eff_mpi_form(double useful_avg, double useful_max, double run) {
  assert(useful_avg <= useful_max || useful_max <= 0);
  augur_eff_mpi e;
  e.lb = augur_eff_ratio(useful_avg, useful_max);
  e.comm = augur_eff_ratio(useful_max, run);
  e.par = e.lb * e.comm;
  return e;
}
