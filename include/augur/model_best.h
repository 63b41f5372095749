/* augur — observation weights for `augur model fit` and the search for the
 * best configuration (`augur model best`), over the MOB model of
 * include/augur/model.h. docs/model.md "best and weights" states the
 * methods (seed 002, eq. 4.5-4.6 and Sec. 4.4.5) and where augur differs. */
#ifndef AUGUR_MODEL_BEST_H
#define AUGUR_MODEL_BEST_H

#include <stddef.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Weights ---------------------------------------------------------- */

/* The seed's integer weights (eq. 4.5-4.6): with M = max_j log2(y_j * 1e4),
 * w_i = M - log2(y_i * 1e4) + 1, rounded to the nearest integer (halves up),
 * so every weight is a whole number >= 1 and the shortest runs weigh most.
 * Y: N > 0 response values (T_iter, s); NaN (missing) gets weight NaN and
 * takes no part. Writes W[0..N). Fails with AUGUR_E_ARG ("row I: ...", I
 * counted from 1) when a value is not NaN nor a finite number > 0, or when
 * every value is NaN. */
AUGUR_API int augur_model_weights_seed(const double *y, size_t n, double *w, augur_error *err);

/* augur's relative weights, w_i proportional to 1 / y_i^2: the weighted
 * least squares then minimises the sum of squared relative errors
 * ((y_i - yhat_i) / y_i)^2, the measure bench/model's accuracy is judged by
 * (the seed's eq. 5.1), instead of squared seconds, in which the slowest runs
 * decide (least-squares percentage regression, Tofallis 2008). Scaled to sum
 * to the number of rows with a time (mean 1: minsize keeps its meaning).
 * y as for augur_model_weights_seed: NaN rows get NaN, a time <= 0 fails. */
AUGUR_API int augur_model_weights_relative(const double *y, size_t n, double *w, augur_error *err);

/* What augur_model_weights_variance did. */
typedef struct augur_weights_info {
  size_t from_reps; /* rows whose sigma came from their configuration's repetitions */
  size_t from_sd;   /* rows whose sigma came from t_iter_sd / sqrt(iterations) */
  size_t floored;   /* rows whose sigma was raised to the floor */
  double floor_rel; /* the floor, as a fraction of T_iter (0: no spread anywhere) */
  double max_ratio; /* largest weight / smallest weight */
} augur_weights_info;

/* augur's real-valued weights, w_i proportional to 1 / sigma_i^2 (the seed's
 * eq. 4.4, which it could not use: party wanted integers). sigma_i is the
 * uncertainty of row i's T_iter:
 *  - the sample standard deviation of Y over the rows with the same
 *    configuration (GROUP[i] equal) when there are at least two of them;
 *  - else SD[i] / sqrt(ITERS[i]) (the spread of the run's iterations, the
 *    data set's t_iter_sd and iterations) when both are finite, SD >= 0 and
 *    ITERS >= 2;
 *  - else the row cannot be weighted: AUGUR_E_ARG naming the row.
 * The floor: sigma_i >= r * (the mean Y of its configuration), r the median
 * over configurations of sigma / mean T_iter (the smallest positive one if that median is 0; no
 * floor and equal weights when no configuration shows any spread). A configuration measured with
 * less spread than the typical one keeps the typical weight, so one lucky pair of runs cannot
 * dominate the fit; a noisy one is weighted down. The weights are scaled so their mean is 1 (their
 * sum the number of rows weighted): minsize and the residual degrees of freedom keep their meaning.
 * Y: N > 0 values > 0, or NaN (missing: weight NaN, no part). GROUP: a configuration number per
 * row. SD, ITERS may be NULL (no such column) or hold NaN (missing cell). INFO may be NULL. */
AUGUR_API int augur_model_weights_variance(const double *y, const size_t *group, const double *sd,
                                           const double *iters, size_t n, double *w,
                                           augur_weights_info *info, augur_error *err);

/* ---- Student's t ------------------------------------------------------ */

/* The two-sided quantile of Student's t with DF >= 1 (whole) degrees of
 * freedom: the t with P(|T| <= t) = LEVEL, 0 < LEVEL < 1 (0.95 -> 12.706
 * for DF 1, 2.228 for DF 10). Exact to 1e-9 (bisection on the closed-form
 * CDF of an integer DF, Abramowitz & Stegun 26.7.3-4). */
AUGUR_API double augur_t_quantile(double level, long df);

/* ---- The best configuration ------------------------------------------- */

enum augur_best_objective {
  AUGUR_BEST_TIME = 0,  /* the smallest predicted T_iter */
  AUGUR_BEST_EINDEX = 1 /* the smallest E_index = Workers * T_iter^2 / T_c (seed eq. 4.9) */
};

typedef struct augur_best_options {
  double workload;     /* W > 0 */
  long cores;          /* >= 1: workers * threads <= cores unless oversubscribe */
  long max_workers;    /* >= 1: workers 1..max_workers */
  const long *threads; /* thread counts to try (each >= 1); NULL: 1..cores */
  size_t nthreads;
  int oversubscribe;     /* 1: also configurations with workers * threads > cores */
  int objective;         /* enum augur_best_objective */
  double level;          /* of the prediction interval, in (0, 1); 0.95 */
  const augur_model *tc; /* EINDEX: a model of t_comp_worker (the mean worker's
                          * computation per iteration); T_c = workers * its prediction */
} augur_best_options;

AUGUR_API void augur_best_options_default(augur_best_options *o);

/* At most this many configurations are evaluated (else AUGUR_E_ARG). */
#define AUGUR_BEST_MAX_CONFIGS 10000000

/* Why a configuration is outside what the training runs cover (bits). */
#define AUGUR_BEST_OUT_WORKLOAD 1u /* W outside the training workloads */
#define AUGUR_BEST_OUT_UNTRIED  2u /* no training run with these workers, threads, placement */
#define AUGUR_BEST_OUT_RANGE    4u /* a numeric variable of the model outside its training range */

typedef struct augur_best_config {
  long workers, threads;
  int placement;       /* index in augur_best_result's places/bind; -1: the data has no placement */
  int oversubscribed;  /* workers * threads > cores */
  int node;            /* the model's leaf */
  double t_iter;       /* predicted T_iter (s) */
  double lo, hi;       /* prediction interval (s); NaN when the leaf has no residual df */
  double t_comp;       /* EINDEX: predicted t_comp_worker (s); else NaN */
  double eindex;       /* EINDEX: T_iter^2 / t_comp_worker; else NaN */
  double score;        /* what is ranked: t_iter or eindex */
  unsigned out;        /* AUGUR_BEST_OUT_* bits; 0: inside the training range */
  const char *out_var; /* RANGE: the first variable outside (owned by the model) */
} augur_best_config;

typedef struct augur_best_result {
  size_t nconfigs;
  augur_best_config *configs; /* ranked: inside the training range first, then by score */
  size_t nplacements;         /* distinct (places, bind) of the training runs; 0: no columns */
  char **places, **bind;      /* level names (NULL: no such column), owned by DATA */
  size_t nskipped;            /* admissible configurations the model could not be evaluated at */
  char skip_why[256];         /* why, for the first of them */
  int range_checked;          /* 1: training data given, the OUT_* bits and intervals exact */
  size_t ntrain;              /* training rows used */
  size_t ntrain_over;         /* of which the data set says oversubscribed (column = 1) */
  double wmin, wmax;          /* training workloads; NaN: unknown */
} augur_best_result;

/* Evaluates model M at every admissible configuration of O for workload
 * O->workload: workers 1..max_workers x the thread counts x the placements
 * (the (places, bind) pairs of the training runs, when the model reads a
 * variable besides the computed ones: else they would only repeat each
 * other). The model's variables
 * are: workload, workers, threads, procs = workers + 1, w1 = W / (workers *
 * threads), w2 = W^2 / (workers * threads), local_workload = W / workers
 * (computed); places, bind (the placement); any other (affinity counts,
 * cores_used, app) from the training runs of the same workers, threads and
 * placement, or the one value every training run has.
 * DATA: the model's training data (NULL: ranges not checked, the interval's
 * leverage approximated by rank / nobs, placements none).
 * The interval: prediction +- t(level, nobs - rank) * sqrt(sigma2 * (1 + h)),
 * sigma2 the leaf's residual variance, h = x0' (X'WX)^-1 x0 over the leaf's
 * training rows.
 * Fails: AUGUR_E_ARG for a bad option (W <= 0, cores or workers < 1,
 * EINDEX without O->tc, more than AUGUR_BEST_MAX_CONFIGS configurations), training data that is not
 * the model's (a leaf's row count differs), a variable measured per run (it differs between
 * training runs of one configuration), no configuration that can be evaluated; AUGUR_E_NOMEM. On
 * success free R with augur_best_result_free. */
AUGUR_API int augur_best_search(const augur_model *m, const augur_model_table *data,
                                const augur_best_options *o, augur_best_result *r,
                                augur_error *err);
AUGUR_API void augur_best_result_free(augur_best_result *r);

/* "places/bind" of placement P ("-" for none) in BUF (N bytes); returns BUF. */
AUGUR_API const char *augur_best_placement(const augur_best_result *r, int p, char *buf, size_t n);

/* ---- Suggested runs (augur model suggest) ------------------------------ */

typedef struct augur_suggest_options {
  augur_best_options best; /* cores, max_workers, threads, oversubscribe, level (not workload) */
  size_t count;            /* suggestions wanted (>= 1) */
} augur_suggest_options;

typedef struct augur_suggestion {
  double workload;
  long workers, threads;
  int placement;      /* index in augur_suggest_result's places/bind; -1: none */
  int oversubscribed; /* workers * threads > cores */
  int node;           /* the model's leaf */
  double t_iter;      /* predicted (s) */
  double lo, hi;      /* prediction interval (s); NaN: the leaf has no residual df */
  double width;       /* hi - lo (s); INFINITY: no interval */
  double distance;    /* to the nearest training run or earlier suggestion (see docs) */
  double score;       /* width * (1 + distance): what is ranked */
} augur_suggestion;

typedef struct augur_suggest_result {
  size_t n; /* suggestions, best first */
  augur_suggestion *s;
  size_t ncandidates;    /* configurations inside the training range evaluated */
  size_t noutside;       /* left out: outside the training range */
  size_t nnointerval;    /* candidates whose leaf has no residual df */
  size_t nworkloads;     /* candidate workloads */
  size_t nplacements;    /* as augur_best_result */
  char **places, **bind; /* level names (NULL: no such column), owned by DATA */
  size_t ntrain, ntrain_over;
  double wmin, wmax; /* training workloads */
  long wkmin, wkmax, thrmin, thrmax;
} augur_suggest_result;

/* Which runs to add to DATA, model M's training data, where M is least
 * sure: every configuration augur_best_search admits under O->best for
 * each candidate workload (the training workloads and the midpoints
 * between neighbours, rounded when every training workload is a whole
 * number), inside the training range (workload, workers, threads and every
 * numeric model variable; untried configurations are the point), scored by
 * the width (s) of its prediction interval times (1 + its distance to
 * the nearest training run), chosen greedily: each suggestion counts as a
 * run for the distances of the next. The distance is Euclidean over
 * log2(workload), log2(workers), log2(threads), each divided by its
 * training range (0 when the range is 0), plus 1 for another placement.
 * Fails: as augur_best_search; AUGUR_E_ARG for count 0, data without a
 * workload column or rows, no candidate inside the training range;
 * AUGUR_E_NOMEM. On success free R with augur_suggest_result_free. */
AUGUR_API int augur_suggest(const augur_model *m, const augur_model_table *data,
                            const augur_suggest_options *o, augur_suggest_result *r,
                            augur_error *err);
AUGUR_API void augur_suggest_result_free(augur_suggest_result *r);

#ifdef __cplusplus
}
#endif
#endif
