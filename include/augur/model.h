/* augur — model-based recursive partitioning (MOB) of linear models, as R
 * partykit's lmtree computes it, and the data tables it is fitted on.
 *
 * A table is a CSV file (docs/model.md, "The data set"); a formula
 * `y ~ x1 + x2 | z1 + z2` names the response, the regressors of the linear
 * model in every node and the partitioning variables the tree may split on.
 * augur_model_fit grows the tree (weighted least squares per node,
 * parameter-instability tests, split search, optional AIC/BIC pruning);
 * augur_model_predict evaluates it; augur_model_write/read keep it as JSON.
 *
 * Every fallible function returns AUGUR_OK or a negative AUGUR_E_* and fills
 * err with one line (file:line where a file is involved). Nothing here
 * aborts on bad input. */
#ifndef AUGUR_MODEL_H
#define AUGUR_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- data table ------------------------------------------------------- */

typedef struct augur_model_table augur_model_table;

/* Reads the CSV at PATH (docs/model.md): a header of distinct, non-empty
 * names, then rows with as many cells as names. A column is numeric when
 * every non-empty cell parses as a finite number; otherwise it is a factor
 * whose levels are its distinct non-empty cells sorted bytewise (R's factor()
 * in the C locale). An empty cell (or "NA") is missing.
 * Fails: AUGUR_E_IO (cannot read), AUGUR_E_FORMAT with "PATH:LINE: ..." for
 * a ragged row, an empty/duplicate name, a "NaN"/"Inf" cell, text that is
 * not UTF-8, a NUL byte, no data rows. */
AUGUR_API int augur_model_table_read(augur_model_table **t, const char *path, augur_error *err);

/* As augur_model_table_read on LEN bytes of TEXT (need not be
 * NUL-terminated); NAME is used in messages. */
AUGUR_API int augur_model_table_parse(augur_model_table **t, const char *name, const char *text,
                                      size_t len, augur_error *err);
AUGUR_API void augur_model_table_free(augur_model_table *t);

AUGUR_API size_t augur_model_table_nrows(const augur_model_table *t);
AUGUR_API size_t augur_model_table_ncols(const augur_model_table *t);
AUGUR_API const char *augur_model_table_name(const augur_model_table *t, size_t col);
/* Index of the column called NAME, or -1. */
AUGUR_API int augur_model_table_column(const augur_model_table *t, const char *name);
AUGUR_API int augur_model_table_is_factor(const augur_model_table *t, size_t col);
/* Factor levels (0 for a numeric column); level names owned by the table. */
AUGUR_API size_t augur_model_table_nlevels(const augur_model_table *t, size_t col);
AUGUR_API const char *augur_model_table_level(const augur_model_table *t, size_t col, size_t level);
/* Cell value: the number for a numeric column, the level index for a factor;
 * NaN when the cell is missing. */
AUGUR_API double augur_model_table_value(const augur_model_table *t, size_t col, size_t row);

/* Appends a numeric column NAME with VALUES (nrows values; NaN = missing),
 * e.g. computed case weights to name in augur_model_options.weights.
 * Fails: AUGUR_E_ARG (NAME empty or already a column), AUGUR_E_NOMEM. */
AUGUR_API int augur_model_table_add_column(augur_model_table *t, const char *name,
                                           const double *values, augur_error *err);

/* ---- formula ---------------------------------------------------------- */

/* `y ~ x1 + x2 | z1 + z2`; `y ~ 1 | z1` (intercept only); `- 1` (or `+ 0`)
 * drops the intercept. Names are column names (letters, digits, '_', '.'). */
typedef struct augur_model_formula {
  char *response;
  int intercept; /* 1 unless "- 1" / "+ 0" */
  size_t nregressors;
  char **regressors;
  size_t npartition;
  char **partition;
} augur_model_formula;

/* Fails: AUGUR_E_ARG with what is wrong and where (no '~', no '|', empty
 * part, bad name, a name twice in one part). */
AUGUR_API int augur_model_formula_parse(augur_model_formula *f, const char *text, augur_error *err);
AUGUR_API void augur_model_formula_free(augur_model_formula *f);

/* ---- options ---------------------------------------------------------- */

enum augur_model_prune { AUGUR_MODEL_PRUNE_NONE = 0, AUGUR_MODEL_PRUNE_AIC, AUGUR_MODEL_PRUNE_BIC };

typedef struct augur_model_options {
  double alpha;        /* significance level of the instability tests (0.05) */
  int bonferroni;      /* adjust p-values for the number of tested variables (1) */
  double minsize;      /* minimum weight of a node; 0 = ceil(10 * k) as lmtree */
  double trim;         /* fraction (< 1) or count (>= 1) trimmed at each end (0.1) */
  int maxdepth;        /* 0 = unlimited; the root has depth 1 */
  int prune;           /* enum augur_model_prune */
  int party_compat;    /* party::mob semantics (docs/model.md) */
  const char *weights; /* name of a case-weight column, or NULL */
} augur_model_options;

AUGUR_API void augur_model_options_default(augur_model_options *o);

/* ---- fitted tree ------------------------------------------------------ */

/* A variable the model reads (every regressor and partitioning variable;
 * not the response). Factors keep the levels of the table they came from. */
typedef struct augur_model_var {
  char *name;
  int is_factor;
  size_t nlevels;
  char **levels;
} augur_model_var;

/* Parameter-instability test of one partitioning variable at one node. */
typedef struct augur_model_test {
  double statistic;  /* supLM (numeric) or chi^2 (factor); 0 when not testable */
  double p_value;    /* unadjusted; NaN: not testable (fewer than 2 distinct values) */
  double p_adjusted; /* Bonferroni adjusted (as sctest(m) shows); NaN: not testable */
} augur_model_test;

typedef struct augur_model_node {
  int id;             /* 1-based, depth first (left subtree first), as partykit */
  int parent;         /* parent's id, 0 for the root */
  int depth;          /* 1 for the root */
  int left, right;    /* children's ids, 0 for a leaf */
  int split_var;      /* index in augur_model.vars, -1 for a leaf */
  double split_point; /* numeric split: left when value <= split_point */
  /* factor split: per level of the variable, 1 = left, 2 = right, 0 = level
   * absent at this node (predict sends it nowhere: error) */
  signed char *split_levels;
  size_t nrows;            /* data rows in the node (after NA removal) */
  double nobs;             /* sum of case weights */
  double *coef;            /* k coefficients; NaN for an aliased one (R's NA) */
  int rank;                /* coefficients estimated (k minus aliased) */
  double objective;        /* weighted residual sum of squares */
  double sigma2;           /* objective / (nobs - rank); NaN when nobs <= rank */
  int tested;              /* 1 when the instability tests ran at this node */
  augur_model_test *tests; /* npartition entries when tested, else NULL */
} augur_model_node;

typedef struct augur_model {
  char *formula; /* as given */
  char *response;
  size_t nvars;
  augur_model_var *vars;
  size_t k;          /* coefficients per node */
  char **coef_names; /* "(Intercept)", then regressor names */
  int *coef_var;     /* var index per coefficient, -1 for the intercept */
  size_t npartition;
  int *partition;                   /* var index per partitioning variable */
  char *weights;                    /* weight column name, NULL if none */
  augur_model_options options;      /* as used (minsize resolved); options.weights == weights */
  size_t nrows_used, nrows_dropped; /* rows fitted / dropped for a missing value */
  size_t nnodes;
  augur_model_node *nodes; /* nodes[i].id == i + 1; nodes[0] is the root */
} augur_model;

/* Fits FORMULA on T with O (NULL = defaults). Rows with a missing value in a
 * used column are dropped (m->nrows_dropped); rows of weight 0 take no part.
 * Fails: AUGUR_E_ARG for a bad formula, a column not in the table, a factor
 * response or regressor, a negative/non-finite weight (party_compat: a
 * non-integer weight), no rows left, fewer rows than coefficients, a
 * response or regressor column that makes the root fit singular in every
 * coefficient. AUGUR_E_NOMEM. */
AUGUR_API int augur_model_fit(augur_model **m, const augur_model_table *t, const char *formula,
                              const augur_model_options *o, augur_error *err);
AUGUR_API void augur_model_free(augur_model *m);

/* Index of the model variable called NAME, or -1. */
AUGUR_API int augur_model_var_index(const augur_model *m, const char *name);

/* Evaluates the tree at X (m->nvars values, indexed as m->vars: the number
 * for a numeric variable, the level index for a factor). Variables the
 * model does not use on the path may be NaN. *node = leaf id, *value =
 * prediction (aliased coefficients count as 0, as R's predict.lm).
 * Fails: AUGUR_E_ARG naming the variable when a value needed is NaN, or a
 * factor level is out of range or absent at the split. */
AUGUR_API int augur_model_predict(const augur_model *m, const double *x, int *node, double *value,
                                  augur_error *err);

/* As augur_model_predict with X given as text "name=v,name=v": factor
 * values by level name. Fails: AUGUR_E_ARG naming the variable missing,
 * unknown, given twice, or not a number / not a level. */
AUGUR_API int augur_model_predict_at(const augur_model *m, const char *at, int *node, double *value,
                                     augur_error *err);

/* Prints the tree as R's print(lmtree) does (model formula, fitted party
 * with split rules, node numbers, leaf coefficients). */
AUGUR_API void augur_model_print(const augur_model *m, FILE *out);

/* ---- model file (JSON, schema in docs/model.md) ------------------------ */

#define AUGUR_MODEL_FILE_VERSION 1

/* Fails: AUGUR_E_IO, AUGUR_E_NOMEM. */
AUGUR_API int augur_model_write(const augur_model *m, const char *path, augur_error *err);
/* Malloc'd JSON text of the model (the file's content); NULL on no memory. */
AUGUR_API char *augur_model_to_json(const augur_model *m);
/* Fails: AUGUR_E_IO (cannot read), AUGUR_E_VERSION (unknown version),
 * AUGUR_E_FORMAT naming the first field that is missing, of the wrong type
 * or inconsistent (node ids, children, sizes, levels). */
AUGUR_API int augur_model_read(augur_model **m, const char *path, augur_error *err);
AUGUR_API int augur_model_parse(augur_model **m, const char *name, const char *text, size_t len,
                                augur_error *err);

/* ---- PMNF leaf terms (augur model fit --terms auto) -------------------- */

/* A term of the performance model normal form (Calotoiu et al., SC'13) in
 * the workload W, workers Wk and threads Thr:
 * W^i * log2(W)^j * d_k, i in {0, 1/2, 1, 3/2, 2}, j in {0, 1, 2}, d_0 = 1,
 * d_1 = 1 / (Wk * Thr) (work shared by every thread), d_2 = 1 / Wk (work
 * shared by the workers, not by their threads), not all of i, j, k 0 (the
 * intercept is always in the model); and the master's serial cost per
 * worker, d_3 = Wk with i in {0, 1}, j = 0 (Wk, W * Wk). */
typedef struct augur_model_term {
  double i;
  int j, k;
} augur_model_term;

/* The family's size (5 * 3 * 3 - 1 + 2) and the most terms one choice may hold. */
#define AUGUR_MODEL_NTERMS    46
#define AUGUR_MODEL_MAX_TERMS 4
#define AUGUR_MODEL_TERMS_TOP 5

/* Term number IDX (0 .. AUGUR_MODEL_NTERMS - 1) in the family's order: k,
 * then i, then j ascending (so W, the simplest, comes before W^2 / (Wk*Thr)). */
AUGUR_API augur_model_term augur_model_term_at(size_t idx);

/* The term's column name into BUF (N bytes), returned: "workload" (W),
 * "w1" (W / (Wk Thr)), "w2" (W^2 / (Wk Thr)), "local_workload" (W / Wk),
 * "workers" (Wk) as the data set names them, else '_'-joined parts
 * "W0.5".."W2", "log2W" or "log2Wsq", "perWT", "perWk" or "xWk" (e.g.
 * "W1.5_log2W_perWT", "W2_perWk", "W1_xWk"). */
AUGUR_API const char *augur_model_term_name(augur_model_term t, char *buf, size_t n);

/* 1 and *T when NAME is a term's name (as augur_model_term_name writes it),
 * else 0. T may be NULL. */
AUGUR_API int augur_model_term_parse(const char *name, augur_model_term *t);

/* The term at workload W > 0, WK workers, THR threads (NaN when W <= 0 or
 * WK * THR <= 0). */
AUGUR_API double augur_model_term_value(augur_model_term t, double w, double wk, double thr);

/* One candidate set of terms and its leave-one-out error. */
typedef struct augur_model_terms_set {
  size_t n;                           /* terms (0: the intercept alone) */
  size_t term[AUGUR_MODEL_MAX_TERMS]; /* family indices, ascending */
  double press;                       /* sum of w_i (e_i / (1 - h_ii))^2 */
} augur_model_terms_set;

typedef struct augur_model_terms_result {
  char *formula;    /* malloc'd: "RESPONSE ~ t1 + t2 | partitioning part as given" */
  size_t nrows;     /* rows the choice used (no missing value, weight > 0) */
  size_t nsets;     /* candidate sets evaluated (the intercept alone included) */
  size_t nrejected; /* of which not estimable (an aliased term, a row of leverage 1) */
  size_t ntop;
  augur_model_terms_set top[AUGUR_MODEL_TERMS_TOP];         /* the best sets, best first */
  augur_model_terms_set by_size[AUGUR_MODEL_MAX_TERMS + 1]; /* the best set of each size
                                                             * (press INFINITY: none) */
  double press_se;                                          /* standard error of top[0].press */
  augur_model_terms_set chosen; /* the fewest terms within press_se of top[0] */
} augur_model_terms_result;

/* Chooses the leaf regressors of FORMULA ("y ~ 1 | z1 + z2": the
 * regressors part must be the intercept alone) from the PMNF family: every
 * set of at most MAX_TERMS (1 .. AUGUR_MODEL_MAX_TERMS) terms is fitted as
 * the root linear model (weighted least squares, weights from column
 * WEIGHTS or 1) and scored by its PRESS (leave-one-out squared error); the
 * choice is the set with the fewest terms whose PRESS is within one
 * standard error of the smallest (the one-standard-error rule), the
 * smallest PRESS among those (docs/model.md). Equal PRESS: the earlier set
 * in the family's order. W, Wk, Thr are the columns workload, workers,
 * threads. Rows used: those the fit would use (no missing value in the
 * response, the partitioning variables, the weights, W, Wk, Thr). Adds the
 * chosen terms' columns to T (a column already named so must hold the
 * term's values). Fails: AUGUR_E_ARG with one line for a bad formula,
 * regressors given, a column missing, W <= 0 or Wk, Thr < 1, a constant
 * workload or response, fewer rows than any candidate needs, no estimable
 * set; AUGUR_E_NOMEM. On success free R with augur_model_terms_result_free. */
AUGUR_API int augur_model_terms_choose(augur_model_table *t, const char *formula,
                                       const char *weights, size_t max_terms,
                                       augur_model_terms_result *r, augur_error *err);
AUGUR_API void augur_model_terms_result_free(augur_model_terms_result *r);

/* Adds to T the column of each of the N NAMES that is a term's name and not
 * yet a column, computed from T's workload, workers, threads (NaN where one
 * is missing). Fails: AUGUR_E_ARG (one of those columns missing or a
 * factor), AUGUR_E_NOMEM. */
AUGUR_API int augur_model_table_add_terms(augur_model_table *t, const char *const *names, size_t n,
                                          augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
