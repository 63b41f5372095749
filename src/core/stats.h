/* augur — order statistics of samples: the one comparison of doubles for
 * qsort and the one median. Callers that take the upper middle value
 * (v[n / 2] of a sorted odd or even count: a sample that was measured) sort
 * with aug_cmp_double and index; aug_median is the textbook median. */
#ifndef AUGUR_STATS_H
#define AUGUR_STATS_H

#include <stddef.h>

/* qsort comparison of two doubles, ascending (NaN compares equal to all). */
int aug_cmp_double(const void *a, const void *b);

/* Sorts V[0..N) ascending and returns its median: the middle value, or the
 * mean of the two middle values when N is even. N > 0. */
double aug_median(double *v, size_t n);

#endif
