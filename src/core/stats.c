/* augur — order statistics of samples (stats.h). */
#include "stats.h"

#include <assert.h>
#include <stdlib.h>

int aug_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double aug_median(double *v, size_t n) {
  assert(v && n > 0);
  qsort(v, n, sizeof *v, aug_cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
