/* Internal to the phase analysis (phases.c, phases_irregular.c, kmeans.c):
 * the unit sequence the phase scan runs over, and the K-means used to merge
 * per-rank phases in irregular mode. Not a public API. */
#ifndef AUGUR_PHASES_INT_H
#define AUGUR_PHASES_INT_H

#include <stdint.h>

#include "augur/phases.h"

/* What the scan compares, as a sequence of units: global ticks, one rank's
 * calls, or (irregular mode) one rank's stretches between two sends of the
 * characteristic communicator. Unit u holds the calls ref[off[u] ..
 * off[u + 1]) (rank rrank[k], call ridx[k]) and has key[u]. */
typedef struct augur_units {
  uint64_t n;
  uint64_t *key;   /* n */
  uint64_t *off;   /* n + 1 */
  uint32_t *rrank; /* per call */
  uint32_t *ridx;
  /* 1 (irregular mode): two occurrences are compared on the first call of
   * each unit only (its volume); the other calls of a unit are metrics, not
   * identity, and their number may differ. And every unit is a phase
   * candidate by itself: no period search, no open stretch. */
  int first_only;
} augur_units;

void augur_units_free_(augur_units *u);
/* Key of one call: (rank, type, peer offset, call site). */
uint64_t augur_call_key_(uint32_t rank, const augur_lt_event *e);
/* Runs the phase scan over U into OUT (phases, PET, relevance); per-occurrence
 * times are divided by DIVISOR ranks, shares are of RUN_NS. 0 or -1 (out of
 * memory). */
int augur_detect_units_(const augur_logical *lg, const augur_phase_opts *o, const augur_units *u,
                        uint32_t divisor, double run_ns, augur_phases *out);
void augur_phase_array_free_(augur_phase *v, uint32_t n);
/* The unit where repetition J (0-based) of P begins, UINT64_MAX if J >= its weight. */
uint64_t augur_phase_rep_unit_(const augur_phase *p, uint64_t j);
/* Mean over ranks of the rank's span (first call's start to last call's end). */
double augur_mean_span_(const augur_logical *lg);

/* Irregular mode (phases_irregular.c): fills P (mode, nranks, opts, aet set). */
int augur_phases_irregular_(const augur_logical *lg, const augur_phase_opts *o, augur_phases *p,
                            augur_error *err);

/* K-means on N 2-D points PTS (x0, y0, x1, y1, ...), deterministic
 * (farthest-point initialisation, Lloyd iterations). Writes LABEL (0..k-1,
 * numbered in order of each cluster's lowest point) and returns the sum of
 * squared distances to the centres, or -1 when out of memory. */
double augur_kmeans_(const double *pts, uint32_t n, uint32_t k, uint32_t *label);
/* K for PTS by the elbow rule (docs/phases.md "Irregular mode"): SSE(K) for K
 * = 1 .. min(KMAX, distinct points) into SSE (KMAX entries, unused ones 0),
 * then the kneedle point of that curve; 1 when the points are compact.
 * LABEL gets the clustering for that K. Returns K, 0 when out of memory. */
uint32_t augur_kmeans_elbow_(const double *pts, uint32_t n, uint32_t kmax, uint32_t *label,
                             double *sse);
/* Squared-distance radius below which all points are one cluster. */
#define AUGUR_KMEANS_COMPACT 0.25
#define AUGUR_KMEANS_KMAX    10

/* Natural logarithm without libm (augur_analysis does not link it). */
double augur_ln_(double x);

#endif
