/* augur model best MODEL --workload W [--data DATA] [--cores N] [--max-workers K]
 *                  [--threads LIST] [--oversubscribe] [--objective time|eindex]
 *                  [--tc-model MODEL2] [--level P] [--top N] [--json]
 * augur model weights DATA --scheme seed|variance|relative -o OUT [--response COL] [--name COL]
 *
 * The two sub-commands of `augur model` that choose (docs/model.md, "best
 * and weights"); cmd_model.c dispatches to them. */
#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/defs.h"
#include "augur/model.h"
#include "augur/model_best.h"
#include "augur/text.h"
#include "cli.h"

/* ---- augur model best --------------------------------------------------- */

#define ST_LEN 400 /* a note: skip_why (256) and its words */

int cli_opt_threads(const char *opt, const char *val, void *dst) {
  cli_thread_list *tl = dst;
  tl->n = 0;
  const char *p = val;
  for (;;) {
    char *end = NULL;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || errno || v < 1 || v > 1 << 20 || (*end && *end != ',') ||
        tl->n == CLI_MAX_THREAD_LIST) {
      cli_usage("%s: expected a list of thread counts >= 1 such as 1,2,4 (at most %d), got '%s'",
                opt, CLI_MAX_THREAD_LIST, val);
      return -1;
    }
    tl->v[tl->n++] = v;
    if (!*end) return 0;
    p = end + 1;
  }
}

static json_t *num(double x) {
  return isfinite(x) ? json_real(x) : json_null();
}

static const char *out_words(unsigned out, const char *var, char *b, size_t n) {
  snprintf(b, n, "%s%s%s%s", out & AUGUR_BEST_OUT_WORKLOAD ? " workload" : "",
           out & AUGUR_BEST_OUT_UNTRIED ? " untried" : "", out & AUGUR_BEST_OUT_RANGE ? " " : "",
           out & AUGUR_BEST_OUT_RANGE ? var : "");
  return b;
}

/* Statement N+1 of ST (at most MAX) when the cores are this machine's. */
static size_t st_cores(int cores_default, const augur_best_options *o, char st[][ST_LEN], size_t n,
                       size_t max) {
  if (cores_default && n < max)
    snprintf(st[n++], ST_LEN,
             "%ld cores: this machine's usable cores (--cores N for the machine the model is for)",
             o->cores);
  return n;
}

/* Statements on oversubscribed training runs and candidates. */
static size_t st_training(size_t nover, size_t ntrain, const augur_best_options *o,
                          char st[][ST_LEN], size_t n, size_t max) {
  if (nover && n < max)
    snprintf(st[n++], ST_LEN,
             "%zu of the %zu training runs were oversubscribed: their times include contention",
             nover, ntrain);
  if (o->oversubscribe && n < max)
    snprintf(st[n++], ST_LEN, "oversubscribed configurations (workers x threads > %ld) included",
             o->cores);
  return n;
}

/* A predicted configuration's common JSON members. */
static void prediction_json(json_t *e, const char *places, const char *bind, int over, int node,
                            double t, double lo, double hi) {
  json_object_set_new(e, "places", augur_json_text(places));
  json_object_set_new(e, "bind", augur_json_text(bind));
  json_object_set_new(e, "oversubscribed", json_boolean(over));
  json_object_set_new(e, "leaf", json_integer(node));
  json_object_set_new(e, "t_iter", num(t));
  json_object_set_new(e, "lo", num(lo));
  json_object_set_new(e, "hi", num(hi));
}

/* The statements about what the ranking rests on (text and JSON say them). */
static size_t statements(const augur_best_result *r, const augur_best_options *o, int cores_default,
                         char st[][ST_LEN], size_t max) {
  size_t n = st_cores(cores_default, o, st, 0, max);
  if (!r->range_checked && n < max)
    snprintf(st[n++], ST_LEN,
             "no training data (--data): the training range is not checked and intervals use the "
             "leaf's mean leverage");
  if (r->range_checked && !isnan(r->wmin) && (o->workload < r->wmin || o->workload > r->wmax) &&
      n < max)
    snprintf(st[n++], ST_LEN, "workload %g is outside the training workloads %g..%g: extrapolated",
             o->workload, r->wmin, r->wmax);
  if (r->nconfigs && r->configs[0].out && n < max)
    snprintf(st[n++], ST_LEN,
             "every configuration is outside the training range: the ranking is extrapolation");
  if (r->nskipped && n < max)
    snprintf(st[n++], ST_LEN, "%zu configuration%s not evaluated: %s", r->nskipped,
             r->nskipped == 1 ? "" : "s", r->skip_why);
  return st_training(r->ntrain_over, r->ntrain, o, st, n, max);
}

static int print_json(const augur_best_result *r, const augur_best_options *o, const char *model,
                      const char *data, const char *tc, size_t top, char st[][ST_LEN], size_t nst) {
  json_t *j = json_object(), *a = json_array(), *s = json_array();
  json_object_set_new(j, "model", augur_json_text(model));
  json_object_set_new(j, "data", augur_json_text(data));
  json_object_set_new(j, "tc_model", augur_json_text(tc));
  json_object_set_new(j, "workload", json_real(o->workload));
  json_object_set_new(j, "cores", json_integer(o->cores));
  json_object_set_new(j, "max_workers", json_integer(o->max_workers));
  json_object_set_new(j, "oversubscribe", json_boolean(o->oversubscribe));
  json_object_set_new(j, "objective",
                      json_string(o->objective == AUGUR_BEST_EINDEX ? "eindex" : "time"));
  json_object_set_new(j, "level", json_real(o->level));
  json_object_set_new(j, "range_checked", json_boolean(r->range_checked));
  json_object_set_new(j, "training_rows", json_integer((json_int_t)r->ntrain));
  json_object_set_new(j, "training_oversubscribed", json_integer((json_int_t)r->ntrain_over));
  json_object_set_new(j, "training_workload_min", num(r->wmin));
  json_object_set_new(j, "training_workload_max", num(r->wmax));
  json_object_set_new(j, "evaluated", json_integer((json_int_t)r->nconfigs));
  json_object_set_new(j, "skipped", json_integer((json_int_t)r->nskipped));
  json_object_set_new(j, "skipped_why", r->nskipped ? augur_json_text(r->skip_why) : json_null());
  for (size_t i = 0; i < nst; i++)
    json_array_append_new(s, augur_json_text(st[i]));
  json_object_set_new(j, "statements", s);
  json_t *best = json_null();
  for (size_t i = 0; i < r->nconfigs && i < top; i++) {
    const augur_best_config *c = &r->configs[i];
    json_t *e = json_object(), *out = json_array();
    json_object_set_new(e, "rank", json_integer((json_int_t)i + 1));
    json_object_set_new(e, "workers", json_integer(c->workers));
    json_object_set_new(e, "threads", json_integer(c->threads));
    json_object_set_new(e, "procs", json_integer(c->workers + 1));
    int pl = c->placement >= 0;
    prediction_json(e, pl ? r->places[c->placement] : NULL, pl ? r->bind[c->placement] : NULL,
                    c->oversubscribed, c->node, c->t_iter, c->lo, c->hi);
    json_object_set_new(e, "t_comp", num(c->t_comp));
    json_object_set_new(e, "eindex", num(c->eindex));
    json_object_set_new(e, "extrapolated", json_boolean(c->out != 0));
    if (c->out & AUGUR_BEST_OUT_WORKLOAD) json_array_append_new(out, json_string("workload"));
    if (c->out & AUGUR_BEST_OUT_UNTRIED) json_array_append_new(out, json_string("untried"));
    if (c->out & AUGUR_BEST_OUT_RANGE) json_array_append_new(out, augur_json_text(c->out_var));
    json_object_set_new(e, "outside", out);
    if (i == 0 && !c->out) best = json_incref(e);
    json_array_append_new(a, e);
  }
  json_object_set_new(j, "best", best);
  json_object_set_new(j, "configurations", a);
  char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
  json_decref(j);
  if (!text) return cli_fail("out of memory");
  int rc = cli_print_json(NULL, text, strlen(text), NULL);
  free(text);
  return rc;
}

static void print_text(const augur_best_result *r, const augur_best_options *o, size_t top,
                       char st[][ST_LEN], size_t nst) {
  int ei = o->objective == AUGUR_BEST_EINDEX;
  for (size_t i = 0; i < nst; i++)
    printf("note: %s\n", st[i]);
  printf("workload %g, %ld cores, %s", o->workload, o->cores,
         ei ? "objective E_index = T_iter^2 / t_comp_worker" : "objective T_iter");
  if (r->range_checked)
    printf("; training: %zu runs, workloads %g..%g\n", r->ntrain, r->wmin, r->wmax);
  else
    printf("\n");
  const augur_best_config *best = r->nconfigs && !r->configs[0].out ? &r->configs[0] : NULL;
  char pb[128], ob[128];
  if (best) {
    printf("best: %ld worker%s x %ld thread%s%s%s: ", best->workers, best->workers == 1 ? "" : "s",
           best->threads, best->threads == 1 ? "" : "s", best->placement >= 0 ? ", " : "",
           best->placement >= 0 ? augur_best_placement(r, best->placement, pb, sizeof pb) : "");
    if (ei) printf("E_index %.4g, ", best->eindex);
    printf("T_iter %.4g s", best->t_iter);
    if (!isnan(best->lo)) printf(" (%g%% interval %.4g..%.4g)", o->level * 100, best->lo, best->hi);
    printf("\n");
  } else {
    printf("best: none inside the training range\n");
  }
  int placed = 0; /* the placement column only when there are placements */
  for (size_t i = 0; i < r->nconfigs && i < top; i++)
    placed |= r->configs[i].placement >= 0;
  char lv[48];
  snprintf(lv, sizeof lv, "%g%% interval (s)", o->level * 100);
  printf("\n%4s %7s %7s", "rank", "workers", "threads");
  if (placed) printf(" %-16s", "placement");
  printf(" %11s", ei ? "E_index" : "T_iter (s)");
  if (ei) printf(" %11s", "T_iter (s)");
  printf(" %23s %5s  %s\n", lv, "leaf", "note");
  for (size_t i = 0; i < r->nconfigs && i < top; i++) {
    const augur_best_config *c = &r->configs[i];
    char iv[64], note[160];
    if (isnan(c->lo))
      snprintf(iv, sizeof iv, "(no residual df)");
    else
      snprintf(iv, sizeof iv, "%.4g..%.4g", c->lo, c->hi);
    snprintf(note, sizeof note, "%s%s%s", c->out ? "extrapolated:" : "",
             c->out ? out_words(c->out, c->out_var, ob, sizeof ob) : "",
             c->oversubscribed ? (c->out ? ", oversubscribed" : "oversubscribed") : "");
    printf("%4zu %7ld %7ld", i + 1, c->workers, c->threads);
    if (placed) printf(" %-16s", augur_best_placement(r, c->placement, pb, sizeof pb));
    printf(" %11.4g", c->score);
    if (ei) printf(" %11.4g", c->t_iter);
    printf(" %23s %5d%s%s\n", iv, c->node, note[0] ? "  " : "", note);
  }
}

/* --cores N (0: this machine's usable cores, at least 1) and --max-workers K
 * (0: N), as best and suggest take them. */
static void set_cores(augur_best_options *o, long long cores, long long max_workers) {
  o->cores = cores ? (long)cores : (long)augur_usable_cores();
  if (o->cores < 1) o->cores = 1;
  o->max_workers = max_workers ? (long)max_workers : o->cores;
}

int cmd_model_best(int argc, char **argv) {
  augur_best_options o;
  augur_best_options_default(&o);
  double workload = NAN;
  long long cores = 0, max_workers = 0, top = 5;
  const char *data = NULL, *objective = "time", *tc = NULL;
  int json = 0;
  cli_thread_list tl = {.n = 0};
  const cli_opt options[] = {
      CLI_REAL("--workload", "W", &workload, DBL_MIN, DBL_MAX, "a workload > 0",
               "the workload W to choose a configuration for (required)"),
      CLI_STRING("--data", NULL, "DATA", &data, "a file name",
                 "the model's training data (CSV): the training range, the\n"
                 "placements, affinity columns and exact intervals come from it"),
      CLI_INT("--cores", "N", &cores, 1, 1 << 20,
              "cores for the workers: workers x threads <= N (default: this\n"
              "machine's usable cores)"),
      CLI_INT("--max-workers", "K", &max_workers, 1, 1 << 20, "workers 1..K (default: N)"),
      CLI_CALL("--threads", NULL, "LIST", cli_opt_threads, &tl,
               "thread counts per worker to try, e.g. 1,2,4 (default 1..N)"),
      CLI_FLAG("--oversubscribe", NULL, &o.oversubscribe,
               "also configurations with workers x threads > N"),
      CLI_CHOICE("--objective", "time|eindex", &objective, "time|eindex",
                 "rank by predicted T_iter (default) or by the seed's E_index\n"
                 "(needs --tc-model)"),
      CLI_STRING("--tc-model", NULL, "MODEL2", &tc, "a file name",
                 "a model of t_comp_worker, for E_index = T_iter^2 / t_comp_worker"),
      CLI_REAL("--level", "P", &o.level, 0.5, 0.999, "a level from 0.5 to 0.999",
               "prediction interval level (default 0.95)"),
      CLI_INT("--top", "N", &top, 1, 1 << 20, "configurations shown (default 5)"),
      CLI_FLAG("--json", NULL, &json, "JSON output (docs/model.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur model best MODEL --workload W [--data DATA] [--cores N]\n"
               "                        [--objective time|eindex] [--top N] [--json]\n"
               "\n"
               "The best configuration for workload W: every admissible workers x threads\n"
               "(x placement of the training runs), predicted by MODEL with a prediction\n"
               "interval from its leaf, ranked. Configurations outside the training range are\n"
               "flagged 'extrapolated' and ranked after the others. See docs/model.md.\n",
      .opts = options,
      .max_operands = 1,
      .operand = "model",
      .required = "MODEL"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (isnan(workload)) return cli_usage("missing --workload W (usage: augur model best MODEL ...)");
  int ei = !strcmp(objective, "eindex");
  if (ei && !tc)
    return cli_usage("--objective eindex needs --tc-model MODEL2 (a model of t_comp_worker)");
  o.workload = workload;
  set_cores(&o, cores, max_workers);
  o.objective = ei ? AUGUR_BEST_EINDEX : AUGUR_BEST_TIME;
  o.threads = tl.n ? tl.v : NULL;
  o.nthreads = tl.n;

  augur_error err = {0};
  augur_model *m = NULL, *mt = NULL;
  augur_model_table *t = NULL;
  augur_best_result r;
  int rc = CLI_FAIL;
  if (augur_model_read(&m, args.operand[0], &err) != AUGUR_OK) {
    cli_fail("%s", err.msg);
    goto out;
  }
  if (tc && augur_model_read(&mt, tc, &err) != AUGUR_OK) {
    cli_fail("%s", err.msg);
    goto out;
  }
  if (data && augur_model_table_read(&t, data, &err) != AUGUR_OK) {
    cli_fail("%s", err.msg);
    goto out;
  }
  /* A model fitted with --weights seed|variance|relative: the same weights again. */
  if (t && cli_model_weights_keyword(t, data, m->weights, m->formula) != CLI_OK) goto out;
  o.tc = mt;
  if (augur_best_search(m, t, &o, &r, &err) != AUGUR_OK) {
    cli_fail("%s", err.msg);
    goto out;
  }
  char st[8][ST_LEN];
  size_t nst = statements(&r, &o, cores == 0, st, 8);
  if (json)
    rc = print_json(&r, &o, args.operand[0], data, tc, (size_t)top, st, nst);
  else {
    print_text(&r, &o, (size_t)top, st, nst);
    rc = ferror(stdout) ? CLI_FAIL : CLI_OK;
  }
  augur_best_result_free(&r);
out:
  augur_model_table_free(t);
  augur_model_free(m);
  augur_model_free(mt);
  return rc;
}

/* ---- augur model weights ------------------------------------------------ */

/* The columns that say which configuration a run is (docs/model.md): runs
 * equal in all of those present are repetitions of one configuration. */
static const char *const config_cols[] = {"app",     "workload", "workers",
                                          "threads", "places",   "bind"};
#define NCONFIG (sizeof config_cols / sizeof config_cols[0])

/* GROUP[i]: the first row with row I's configuration. */
static int config_groups(const augur_model_table *t, size_t *group) {
  int col[NCONFIG];
  size_t ncol = 0, n = augur_model_table_nrows(t);
  for (size_t c = 0; c < NCONFIG; c++) {
    int k = augur_model_table_column(t, config_cols[c]);
    if (k >= 0) col[ncol++] = k;
  }
  if (!ncol) return -1;
  for (size_t i = 0; i < n; i++) {
    group[i] = i;
    for (size_t j = 0; j < i && group[i] == i; j++) {
      if (group[j] != j) continue;
      size_t c = 0;
      for (; c < ncol; c++) {
        double a = augur_model_table_value(t, (size_t)col[c], i),
               b = augur_model_table_value(t, (size_t)col[c], j);
        if (!(a == b || (isnan(a) && isnan(b)))) break;
      }
      if (c == ncol) group[i] = j;
    }
  }
  return 0;
}

/* DATA with the column NAME = W appended, as docs/model.md's CSV. */
static int write_csv(const augur_model_table *t, const char *name, const double *w,
                     const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return cli_fail("cannot write %s: %s", path, strerror(errno));
  size_t nc = augur_model_table_ncols(t), n = augur_model_table_nrows(t);
  for (size_t c = 0; c < nc; c++)
    fprintf(f, "%s,", augur_model_table_name(t, c));
  fprintf(f, "%s\n", name);
  for (size_t i = 0; i < n; i++) {
    for (size_t c = 0; c < nc; c++) {
      double v = augur_model_table_value(t, c, i);
      if (isnan(v))
        fputc(',', f);
      else if (augur_model_table_is_factor(t, c))
        fprintf(f, "%s,", augur_model_table_level(t, c, (size_t)v));
      else
        fprintf(f, "%.9g,", v);
    }
    if (isnan(w[i]))
      fputc('\n', f);
    else
      fprintf(f, "%.9g\n", w[i]);
  }
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) return cli_fail("cannot write %s: %s", path, strerror(errno));
  return CLI_OK;
}

/* The numeric column NAME of T as an array (NaN when missing); NULL when T
 * has no such numeric column. */
static double *column(const augur_model_table *t, const char *name) {
  int c = augur_model_table_column(t, name);
  if (c < 0 || augur_model_table_is_factor(t, (size_t)c)) return NULL;
  size_t n = augur_model_table_nrows(t);
  double *v = malloc((n ? n : 1) * sizeof *v);
  for (size_t i = 0; v && i < n; i++)
    v[i] = augur_model_table_value(t, (size_t)c, i);
  return v;
}

/* W (NaN for a row without a response) by SCHEME ("seed", "variance" or "relative")
 * for the response RESP of table T read from DATA (for messages). CLI_OK, or
 * CLI_FAIL after one line. INFO (variance) may be NULL. */
static int compute_weights(const augur_model_table *t, const char *data, const char *scheme,
                           const char *resp, double *w, augur_weights_info *info) {
  size_t n = augur_model_table_nrows(t);
  double *y = column(t, resp), *sd = column(t, "t_iter_sd"), *it = column(t, "iterations");
  size_t *g = calloc(n ? n : 1, sizeof *g);
  int variance = !strcmp(scheme, "variance"), rc = CLI_FAIL;
  augur_error err = {0};
  if (!y)
    cli_fail("%s has no numeric column '%s' (the response the weights are for)", data, resp);
  else if (!g)
    cli_fail("out of memory");
  else if (variance && config_groups(t, g) != 0)
    cli_fail("%s has none of the columns app, workload, workers, threads, places, bind: "
             "repetitions of a configuration cannot be found",
             data);
  else if ((variance ? augur_model_weights_variance(y, g, sd, it, n, w, info, &err)
            : !strcmp(scheme, "relative") ? augur_model_weights_relative(y, n, w, &err)
                                          : augur_model_weights_seed(y, n, w, &err)) != AUGUR_OK)
    cli_fail("%s: %s", data, err.msg);
  else
    rc = CLI_OK;
  free(y);
  free(sd);
  free(it);
  free(g);
  return rc;
}

int cli_model_weights_keyword(augur_model_table *t, const char *data, const char *weights,
                              const char *formula) {
  if (!weights ||
      (strcmp(weights, "seed") && strcmp(weights, "variance") && strcmp(weights, "relative")) ||
      augur_model_table_column(t, weights) >= 0)
    return CLI_OK;
  augur_model_formula f;
  augur_error err = {0};
  if (augur_model_formula_parse(&f, formula, &err) != AUGUR_OK) return CLI_OK; /* fit says it */
  size_t n = augur_model_table_nrows(t);
  double *w = malloc((n ? n : 1) * sizeof *w);
  int rc = w ? compute_weights(t, data, weights, f.response, w, NULL) : cli_fail("out of memory");
  if (rc == CLI_OK && augur_model_table_add_column(t, weights, w, &err) != AUGUR_OK)
    rc = cli_fail("%s", err.msg);
  augur_model_formula_free(&f);
  free(w);
  return rc;
}

int cmd_model_weights(int argc, char **argv) {
  const char *scheme = NULL, *outp = NULL, *resp = "t_iter", *name = "weight";
  const cli_opt options[] = {
      CLI_CHOICE("--scheme", "seed|variance|relative", &scheme, "seed|variance|relative",
                 "seed: the seed's integer weights (eq. 4.5-4.6), short runs weigh\n"
                 "more; variance: 1 / sigma^2 of T_iter from repetitions or t_iter_sd;\n"
                 "relative: 1 / T_iter^2, least squares of relative errors (required)"),
      CLI_STRING("--output", "-o", "OUT", &outp, "a file name",
                 "where to write DATA with the weight column (required)"),
      CLI_STRING("--response", NULL, "COL", &resp, "a column name",
                 "the time the weights are for (default t_iter)"),
      CLI_STRING("--name", NULL, "COL", &name, "a column name",
                 "the new column's name (default weight)"),
      {0}};
  const cli_spec spec = {.usage =
                             "usage: augur model weights DATA --scheme seed|variance|relative "
                             "-o OUT\n"
                             "\n"
                             "Writes DATA with one more column, the observation weights, for\n"
                             "'augur model fit OUT --weights weight' (or fit DATA with\n"
                             "--weights seed|variance|relative directly). See docs/model.md.\n",
                         .opts = options,
                         .max_operands = 1,
                         .operand = "data set",
                         .required = "DATA"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (!scheme) return cli_usage("missing --scheme seed|variance|relative");
  if (!outp) return cli_usage("missing -o OUT");
  augur_error err = {0};
  augur_model_table *t = NULL;
  if (augur_model_table_read(&t, args.operand[0], &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  int rc = CLI_FAIL;
  size_t n = augur_model_table_nrows(t), m = 0;
  double *w = malloc((n ? n : 1) * sizeof *w);
  augur_weights_info info = {0};
  if (augur_model_table_column(t, name) >= 0)
    cli_fail("%s already has a column '%s' (--name to choose another)", args.operand[0], name);
  else if (!w)
    cli_fail("out of memory");
  else if (compute_weights(t, args.operand[0], scheme, resp, w, &info) == CLI_OK)
    rc = write_csv(t, name, w, outp);
  if (rc != CLI_OK) goto out;
  double lo = HUGE_VAL, hi = 0;
  for (size_t i = 0; i < n; i++) {
    if (isnan(w[i])) continue;
    m++;
    if (w[i] < lo) lo = w[i];
    if (w[i] > hi) hi = w[i];
  }
  printf("%s: %zu rows weighted (%s), weights %.4g..%.4g", outp, m, scheme, lo, hi);
  if (m < n) printf(", %zu rows without %s left unweighted", n - m, resp);
  printf("\n");
  if (!strcmp(scheme, "variance"))
    printf("sigma from repetitions: %zu rows, from t_iter_sd: %zu rows; floor %.3g %% of T_iter "
           "(%zu rows raised to it)\n",
           info.from_reps, info.from_sd, info.floor_rel * 100, info.floored);
out:
  free(w);
  augur_model_table_free(t);
  return rc;
}

/* ---- augur model suggest ------------------------------------------------- */

/* The `augur sweep` arguments of suggestion S into BUF. */
static const char *sweep_args(const augur_suggest_result *r, const augur_suggestion *s, char *buf,
                              size_t n) {
  int o = snprintf(buf, n, "--workers %ld --threads %ld --workload %.9g", s->workers, s->threads,
                   s->workload);
  int p = s->placement >= 0 ? s->placement : r->nplacements == 1 ? 0 : -1;
  if (p >= 0 && r->places[p] && o > 0 && (size_t)o < n)
    o += snprintf(buf + o, n - (size_t)o, " --places %s", r->places[p]);
  if (p >= 0 && r->bind[p] && o > 0 && (size_t)o < n)
    snprintf(buf + o, n - (size_t)o, " --bind %s", r->bind[p]);
  return buf;
}

/* What the suggestions rest on (text and JSON say them). */
static size_t suggest_statements(const augur_suggest_result *r, const augur_best_options *o,
                                 int cores_default, char st[][ST_LEN], size_t max) {
  size_t n = st_cores(cores_default, o, st, 0, max);
  if (r->noutside && n < max)
    snprintf(st[n++], ST_LEN,
             "%zu configurations outside the training range (workload, workers, threads, a "
             "variable of the model) not considered",
             r->noutside);
  if (r->nnointerval && n < max)
    snprintf(st[n++], ST_LEN,
             "%zu candidates fall in a leaf without residual degrees of freedom: no interval, "
             "ranked first (width inf)",
             r->nnointerval);
  return st_training(r->ntrain_over, r->ntrain, o, st, n, max);
}

static int suggest_json(const augur_suggest_result *r, const augur_best_options *o,
                        const char *model, const char *data, size_t count, char st[][ST_LEN],
                        size_t nst) {
  json_t *j = json_object(), *a = json_array(), *s = json_array();
  json_object_set_new(j, "model", augur_json_text(model));
  json_object_set_new(j, "data", augur_json_text(data));
  json_object_set_new(j, "cores", json_integer(o->cores));
  json_object_set_new(j, "max_workers", json_integer(o->max_workers));
  json_object_set_new(j, "oversubscribe", json_boolean(o->oversubscribe));
  json_object_set_new(j, "level", json_real(o->level));
  json_object_set_new(j, "count", json_integer((json_int_t)count));
  json_object_set_new(j, "training_rows", json_integer((json_int_t)r->ntrain));
  json_object_set_new(j, "training_oversubscribed", json_integer((json_int_t)r->ntrain_over));
  json_object_set_new(j, "training_workload_min", num(r->wmin));
  json_object_set_new(j, "training_workload_max", num(r->wmax));
  json_object_set_new(j, "workloads", json_integer((json_int_t)r->nworkloads));
  json_object_set_new(j, "candidates", json_integer((json_int_t)r->ncandidates));
  json_object_set_new(j, "outside", json_integer((json_int_t)r->noutside));
  for (size_t i = 0; i < nst; i++)
    json_array_append_new(s, augur_json_text(st[i]));
  json_object_set_new(j, "statements", s);
  for (size_t i = 0; i < r->n; i++) {
    const augur_suggestion *c = &r->s[i];
    json_t *e = json_object();
    char args[512];
    int pl = c->placement >= 0;
    json_object_set_new(e, "rank", json_integer((json_int_t)i + 1));
    json_object_set_new(e, "workload", json_real(c->workload));
    json_object_set_new(e, "workers", json_integer(c->workers));
    json_object_set_new(e, "threads", json_integer(c->threads));
    prediction_json(e, pl ? r->places[c->placement] : NULL, pl ? r->bind[c->placement] : NULL,
                    c->oversubscribed, c->node, c->t_iter, c->lo, c->hi);
    json_object_set_new(e, "width", num(c->width));
    json_object_set_new(e, "distance", num(c->distance));
    json_object_set_new(e, "score", num(c->score));
    json_object_set_new(e, "sweep_args", augur_json_text(sweep_args(r, c, args, sizeof args)));
    json_array_append_new(a, e);
  }
  json_object_set_new(j, "suggestions", a);
  char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
  json_decref(j);
  if (!text) return cli_fail("out of memory");
  int rc = cli_print_json(NULL, text, strlen(text), NULL);
  free(text);
  return rc;
}

static void suggest_text(const augur_suggest_result *r, const augur_best_options *o,
                         char st[][ST_LEN], size_t nst) {
  for (size_t i = 0; i < nst; i++)
    printf("note: %s\n", st[i]);
  printf("runs to add where the model is least sure: %zu of %zu candidates (%zu workloads "
         "%g..%g, workers %ld..%ld, threads %ld..%ld, workers x threads <= %ld%s)\n",
         r->n, r->ncandidates, r->nworkloads, r->wmin, r->wmax, r->wkmin, r->wkmax, r->thrmin,
         r->thrmax, o->cores, o->oversubscribe ? " or over" : "");
  printf("score = interval width (s) x (1 + distance to the nearest run)\n\n");
  char lv[48], pb[128], args[512];
  snprintf(lv, sizeof lv, "%g%% interval (s)", o->level * 100);
  int placed = 0;
  for (size_t i = 0; i < r->n; i++)
    placed |= r->s[i].placement >= 0;
  printf("%4s %10s %7s %7s", "rank", "workload", "workers", "threads");
  if (placed) printf(" %-16s", "placement");
  printf(" %11s %23s %9s %8s %5s  %s\n", "T_iter (s)", lv, "width (s)", "distance", "leaf",
         "augur sweep arguments");
  for (size_t i = 0; i < r->n; i++) {
    const augur_suggestion *c = &r->s[i];
    char iv[64], wd[16];
    if (isnan(c->lo))
      snprintf(iv, sizeof iv, "(no residual df)");
    else
      snprintf(iv, sizeof iv, "%.4g..%.4g", c->lo, c->hi);
    if (isinf(c->width))
      snprintf(wd, sizeof wd, "inf");
    else
      snprintf(wd, sizeof wd, "%.3g", c->width);
    printf("%4zu %10.6g %7ld %7ld", i + 1, c->workload, c->workers, c->threads);
    if (placed) {
      augur_best_result br = {.nplacements = r->nplacements, .places = r->places, .bind = r->bind};
      printf(" %-16s", augur_best_placement(&br, c->placement, pb, sizeof pb));
    }
    printf(" %11.4g %23s %9s %8.3f %5d  %s\n", c->t_iter, iv, wd, c->distance, c->node,
           sweep_args(r, c, args, sizeof args));
  }
}

int cmd_model_suggest(int argc, char **argv) {
  augur_suggest_options so = {.count = 5};
  augur_best_options *o = &so.best;
  augur_best_options_default(o);
  long long cores = 0, max_workers = 0, count = 5;
  const char *data = NULL;
  int json = 0;
  cli_thread_list tl = {.n = 0};
  const cli_opt options[] = {
      CLI_STRING("--data", NULL, "DATA", &data, "a file name",
                 "the model's training data (CSV; required)"),
      CLI_INT("--cores", "N", &cores, 1, 1 << 20,
              "cores for the workers: workers x threads <= N (default: this\n"
              "machine's usable cores)"),
      CLI_INT("--max-workers", "K", &max_workers, 1, 1 << 20, "workers 1..K (default: N)"),
      CLI_FLAG("--oversubscribe", NULL, &o->oversubscribe,
               "also configurations with workers x threads > N"),
      CLI_CALL("--threads", NULL, "LIST", cli_opt_threads, &tl,
               "thread counts per worker to consider, e.g. 1,2,4 (default 1..N)"),
      CLI_INT("--count", "K", &count, 1, 1000, "runs to suggest (default 5)"),
      CLI_REAL("--level", "P", &o->level, 0.5, 0.999, "a level from 0.5 to 0.999",
               "prediction interval level (default 0.95)"),
      CLI_FLAG("--json", NULL, &json, "JSON output (docs/model.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur model suggest MODEL --data DATA [--cores N] [--threads LIST]\n"
               "                           [--count K] [--json]\n"
               "\n"
               "Which runs to add to the training data DATA where MODEL is least sure: the\n"
               "configurations inside the training range (workloads at and between the\n"
               "training ones), ranked by their prediction interval's width in seconds and\n"
               "their distance from the runs made, as augur sweep arguments. See\n"
               "docs/model.md.\n",
      .opts = options,
      .max_operands = 1,
      .operand = "model",
      .required = "MODEL"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (!data) return cli_usage("missing --data DATA (the model's training data)");
  set_cores(o, cores, max_workers);
  so.count = (size_t)count;
  o->threads = tl.n ? tl.v : NULL;
  o->nthreads = tl.n;
  augur_error err = {0};
  augur_model *m = NULL;
  augur_model_table *t = NULL;
  augur_suggest_result r;
  int rc = CLI_FAIL;
  if (augur_model_read(&m, args.operand[0], &err) != AUGUR_OK ||
      augur_model_table_read(&t, data, &err) != AUGUR_OK) {
    cli_fail("%s", err.msg);
    goto out;
  }
  if (cli_model_weights_keyword(t, data, m->weights, m->formula) != CLI_OK) goto out;
  if (augur_suggest(m, t, &so, &r, &err) != AUGUR_OK) {
    cli_fail("%s", err.msg);
    goto out;
  }
  char st[8][ST_LEN];
  size_t nst = suggest_statements(&r, o, cores == 0, st, 8);
  if (json)
    rc = suggest_json(&r, o, args.operand[0], data, so.count, st, nst);
  else {
    suggest_text(&r, o, st, nst);
    rc = ferror(stdout) ? CLI_FAIL : CLI_OK;
  }
  augur_suggest_result_free(&r);
out:
  augur_model_table_free(t);
  augur_model_free(m);
  return rc;
}
