/* augur model analytic MACHINE --data DATA [--calib POINT] --send BYTES --reply BYTES
 *                      --work w1|w2 (--at POINT | --workload W [--cores N] ...) [--json]
 *
 * The seed's analytic model (approach A, eq. 3.1) as a baseline for the
 * MOB tree (docs/model.md "Analytic baseline"): message costs and OpenMP
 * overheads from the machine model's [microbench] section (`augur
 * calibrate --openmp`), the work per element fitted from one configuration
 * of the data set. The formula is src/sim/analytic.c; this file reads the
 * inputs and prints as `augur model predict` (--at) and `augur model best`
 * (--workload) do. */
#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/defs.h"
#include "augur/microbench.h"
#include "augur/model.h"
#include "augur/text.h"
#include "cli.h"

#define ST_LEN 300
#define MAX_ST 6

/* The seed found approach A accurate within 10-15 % of the calibration
 * workload (Sec. 3.7, 6.1): further away, the output says so. */
#define SEED_RANGE 0.15

typedef struct point {
  double w;
  long k, t;
} point;

/* "workload=W,workers=K,threads=T" (any order, all three). */
static int parse_point(const char *opt, const char *text, point *p) {
  p->w = NAN;
  p->k = p->t = 0;
  const char *s = text;
  while (*s) {
    const char *eq = strchr(s, '=');
    if (!eq) break;
    char *end;
    errno = 0;
    double v = strtod(eq + 1, &end);
    if (end == eq + 1 || errno || !isfinite(v) || (*end && *end != ',')) break;
    size_t n = (size_t)(eq - s);
    if (n == 8 && !strncmp(s, "workload", n) && v > 0)
      p->w = v;
    else if (n == 7 && !strncmp(s, "workers", n) && v >= 1 && v <= 1 << 20 && v == floor(v))
      p->k = (long)v;
    else if (n == 7 && !strncmp(s, "threads", n) && v >= 1 && v <= 1 << 20 && v == floor(v))
      p->t = (long)v;
    else
      break;
    s = *end ? end + 1 : end;
  }
  if (!*s && !isnan(p->w) && p->k && p->t) return 0;
  return cli_usage("%s: expected 'workload=W,workers=K,threads=T' (W > 0, K and T whole numbers "
                   ">= 1), got '%s'",
                   opt, text);
}

/* The calibration configuration's median worker computation and T_iter from DATA. */
typedef struct calib {
  point at;
  size_t runs;
  double comp_worker, t_iter;
  int oversubscribed;
} calib;

static int read_calib(const char *data, const char *spec, calib *c) {
  augur_error err = {0};
  augur_model_table *t;
  if (augur_model_table_read(&t, data, &err)) return cli_fail("%s", err.msg);
  static const char *const need[] = {"workload", "workers", "threads", "t_comp_worker", "t_iter"};
  int col[5];
  for (size_t i = 0; i < 5; i++)
    if ((col[i] = augur_model_table_column(t, need[i])) < 0 ||
        augur_model_table_is_factor(t, (size_t)col[i])) {
      augur_model_table_free(t);
      return cli_fail("%s: no numeric column '%s' (a data set of `augur sweep`)", data, need[i]);
    }
  int st = augur_model_table_column(t, "status"),
      ov = augur_model_table_column(t, "oversubscribed");
  size_t n = augur_model_table_nrows(t), nok = 0, nconf = 0;
  double *wv = malloc((n + 1) * sizeof *wv), *mv = malloc((n + 1) * sizeof *mv);
  point first = {NAN, 0, 0};
  int rc = CLI_OK;
  if (!wv || !mv) {
    rc = cli_fail("out of memory");
    goto out;
  }
  c->runs = 0;
  c->oversubscribed = 0;
  for (size_t r = 0; r < n; r++) {
    double v[5];
    for (size_t i = 0; i < 5; i++)
      v[i] = augur_model_table_value(t, (size_t)col[i], r);
    if (st >= 0 && augur_model_table_is_factor(t, (size_t)st)) {
      double lv = augur_model_table_value(t, (size_t)st, r);
      if (isnan(lv) || strcmp(augur_model_table_level(t, (size_t)st, (size_t)lv), "ok")) continue;
    }
    if (isnan(v[0]) || isnan(v[1]) || isnan(v[2]) || isnan(v[3]) || isnan(v[4])) continue;
    nok++;
    point p = {v[0], (long)v[1], (long)v[2]};
    if (!spec && isnan(first.w))
      first = p;
    else if (!spec && (p.w != first.w || p.k != first.k || p.t != first.t))
      nconf = 2;
    point want = spec ? c->at : first;
    if (p.w != want.w || p.k != want.k || p.t != want.t) continue;
    wv[c->runs] = v[3];
    mv[c->runs++] = v[4];
    if (ov >= 0 && augur_model_table_value(t, (size_t)ov, r) == 1) c->oversubscribed = 1;
  }
  if (nconf > 1) {
    rc = cli_usage("%s has runs of more than one configuration: choose the calibration run with "
                   "--calib 'workload=W,workers=K,threads=T'",
                   data);
    goto out;
  }
  if (!spec) c->at = first;
  if (!c->runs) {
    rc = nok ? cli_fail("%s: no complete run (status ok, computation times) at workload=%g, "
                        "workers=%ld, threads=%ld",
                        data, c->at.w, c->at.k, c->at.t)
             : cli_fail("%s: no complete run (status ok, with t_comp_worker and t_iter)", data);
    goto out;
  }
  c->comp_worker = aug_median(wv, c->runs);
  c->t_iter = aug_median(mv, c->runs);
out:
  free(wv);
  free(mv);
  augur_model_table_free(t);
  return rc;
}

static json_t *terms_json(const augur_analytic_terms *x) {
  json_t *j = json_object();
  json_object_set_new(j, "master", json_real(x->master));
  json_object_set_new(j, "sends", json_real(x->sends));
  json_object_set_new(j, "compute", json_real(x->compute));
  json_object_set_new(j, "openmp", json_real(x->omp));
  json_object_set_new(j, "reply", json_real(x->reply));
  return j;
}

typedef struct config {
  long k, t;
  int over;
  augur_analytic_terms x;
} config;

static int by_time(const void *a, const void *b) {
  const config *x = a, *y = b;
  if (x->x.t_iter != y->x.t_iter) return x->x.t_iter < y->x.t_iter ? -1 : 1;
  if (x->k != y->k) return x->k < y->k ? -1 : 1;
  return (x->t > y->t) - (x->t < y->t);
}

static int print_json(json_t *j) {
  char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
  json_decref(j);
  if (!text) return cli_fail("out of memory");
  int rc = cli_print_json(NULL, text, strlen(text), NULL);
  free(text);
  return rc;
}

int cmd_model_analytic(int argc, char **argv) {
  const char *data = NULL, *calib_s = NULL, *send_s = NULL, *reply_s = NULL, *work = NULL,
             *at_s = NULL;
  double workload = NAN;
  long long cores = 0, max_workers = 0, top = 5;
  int json = 0, over = 0;
  cli_thread_list tl = {.n = 0};
  const cli_opt options[] = {
      CLI_STRING("--data", NULL, "DATA", &data, "a file name",
                 "data set (CSV of `augur sweep`) holding the calibration run"),
      CLI_STRING("--calib", NULL, "POINT", &calib_s, "workload=W,workers=K,threads=T",
                 "the calibration configuration in DATA (the median of its\n"
                 "runs; default: DATA's only configuration)"),
      CLI_STRING("--send", NULL, "BYTES", &send_s, "bytes",
                 "bytes the master sends each worker, e.g. 32*W or 16*W+8 or\n"
                 "48*W/workers (W: the workload)"),
      CLI_STRING("--reply", NULL, "BYTES", &reply_s, "bytes",
                 "bytes each worker sends back, as --send"),
      CLI_CHOICE("--work", "w1|w2", &work, "w1|w2",
                 "a thread's work grows as W/(workers threads) (w1) or\n"
                 "W^2/(workers threads) (w2)"),
      CLI_STRING("--at", NULL, "POINT", &at_s, "workload=W,workers=K,threads=T",
                 "predict T_iter at this configuration"),
      CLI_REAL("--workload", "W", &workload, DBL_MIN, DBL_MAX, "a workload > 0",
               "rank every admissible configuration for workload W"),
      CLI_INT("--cores", "N", &cores, 1, 1 << 20,
              "cores of the machine (default: this one's usable cores):\n"
              "with --workload workers x threads <= N; configurations that\n"
              "share cores with the master are said"),
      CLI_INT("--max-workers", "K", &max_workers, 1, 1 << 20, "workers 1..K (default: N)"),
      CLI_CALL("--threads", NULL, "LIST", cli_opt_threads, &tl,
               "thread counts per worker to try, e.g. 1,2 (default 1..N)"),
      CLI_FLAG("--oversubscribe", NULL, &over, "also configurations with workers x threads > N"),
      CLI_INT("--top", "N", &top, 1, 1 << 20, "configurations shown (default 5)"),
      CLI_FLAG("--json", NULL, &json, "JSON output (docs/model.md)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur model analytic MACHINE --data DATA [--calib POINT] --send BYTES\n"
               "                            --reply BYTES --work w1|w2\n"
               "                            (--at POINT | --workload W [--cores N]) [--json]\n"
               "\n"
               "The seed's analytic model (approach A): T_iter = master's work + the sends of\n"
               "the shares + the last worker's computation and OpenMP overhead + its reply,\n"
               "with message costs and OpenMP overheads from MACHINE's [microbench] section\n"
               "(augur calibrate --openmp) and the work per element fitted from one\n"
               "configuration of DATA. See docs/model.md, \"Analytic baseline\".\n",
      .opts = options,
      .max_operands = 1,
      .operand = "machine model",
      .required = "MACHINE"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (!data) return cli_usage("missing --data DATA (the data set with the calibration run)");
  if (!send_s || !reply_s || !work)
    return cli_usage("missing --send, --reply or --work (the program's messages and work)");
  if (!at_s == isnan(workload))
    return cli_usage("give one of --at 'workload=W,workers=K,threads=T' or --workload W");
  point at = {NAN, 0, 0};
  calib c = {.at = {NAN, 0, 0}};
  if (at_s && parse_point("--at", at_s, &at)) return CLI_USAGE;
  if (calib_s && parse_point("--calib", calib_s, &c.at)) return CLI_USAGE;
  augur_error err = {0};
  augur_analytic_app app = {.power = !strcmp(work, "w2") ? 2 : 1};
  if (augur_analytic_bytes(send_s, "--send", app.send, &err) ||
      augur_analytic_bytes(reply_s, "--reply", app.recv, &err))
    return cli_usage("%s", err.msg);
  augur_microbench *mb = malloc(sizeof *mb);
  if (!mb) return cli_fail("out of memory");
  int rc = CLI_FAIL;
  config *cf = NULL;
  if (augur_mb_load(mb, args.operand[0], &err)) {
    rc = cli_fail("%s", err.msg);
    goto out;
  }
  if ((rc = read_calib(data, calib_s, &c)) != CLI_OK) goto out;
  rc = CLI_FAIL;
  if (augur_analytic_calibrate(&app, mb, c.at.w, c.at.k, c.at.t, c.comp_worker, c.t_iter, &err)) {
    rc = cli_fail("%s", err.msg);
    goto out;
  }
  double w = at_s ? at.w : workload;
  char st[MAX_ST][ST_LEN];
  size_t nst = 0;
  double dist = fabs(w - c.at.w) / c.at.w;
  if (dist > SEED_RANGE)
    snprintf(st[nst++], ST_LEN,
             "workload %g is %.0f %% from the calibration run's %g: the seed found approach A "
             "accurate only within 10-15 %% of it",
             w, 100 * dist, c.at.w);
  if (c.oversubscribed)
    snprintf(st[nst++], ST_LEN,
             "the calibration run was oversubscribed: its computation includes contention");
  long ncores = cores ? (long)cores : (long)augur_usable_cores();
  if (ncores < 1) ncores = 1;
  size_t ncf = 0, skipped = 0;
  if (at_s) {
    cf = calloc(1, sizeof *cf);
    if (!cf) goto out;
    if (augur_analytic_eval(&app, mb, at.w, at.k, at.t, &cf->x, &err)) {
      rc = cli_fail("%s", err.msg);
      goto out;
    }
    cf->k = at.k, cf->t = at.t;
    ncf = 1;
  } else {
    long kmax = max_workers ? (long)max_workers : ncores;
    long tmax = ncores;
    if (tl.n == 0)
      for (long t = 1; t <= tmax && tl.n < CLI_MAX_THREAD_LIST; t++)
        tl.v[tl.n++] = t;
    if ((double)kmax * (double)tl.n > 1e7) {
      rc = cli_fail("more than 10^7 configurations: lower --cores or --max-workers");
      goto out;
    }
    cf = calloc((size_t)kmax * tl.n, sizeof *cf);
    if (!cf) goto out;
    for (long k = 1; k <= kmax; k++)
      for (size_t i = 0; i < tl.n; i++) {
        long t = tl.v[i];
        int o = (double)k * (double)t > (double)ncores;
        if (o && !over) continue;
        if (augur_analytic_omp(mb, t) < 0) {
          skipped++;
          continue;
        }
        config *x = &cf[ncf];
        if (augur_analytic_eval(&app, mb, w, k, t, &x->x, &err)) {
          rc = cli_fail("%s", err.msg);
          goto out;
        }
        x->k = k, x->t = t, x->over = o;
        ncf++;
      }
    qsort(cf, ncf, sizeof *cf, by_time);
    if (skipped && nst < MAX_ST)
      snprintf(st[nst++], ST_LEN,
               "%zu configuration%s not evaluated: no OpenMP figures for their thread count in "
               "[microbench]",
               skipped, skipped == 1 ? "" : "s");
    if (over && nst < MAX_ST)
      snprintf(st[nst++], ST_LEN,
               "oversubscribed configurations (workers x threads > %ld) included: the model "
               "ignores contention",
               ncores);
    if (!ncf) {
      rc = cli_fail("no configuration could be evaluated (thread counts without OpenMP figures)");
      goto out;
    }
  }
  /* The formula gives every thread a core. A master whose receive polls
   * (MPICH's blocking MPI_Recv; the mw_* apps without -s) is one more busy
   * thread: K x T + 1 threads on N cores share them. */
  size_t shared = 0;
  for (size_t i = 0; i < ncf; i++)
    shared += (double)cf[i].k * (double)cf[i].t + 1 > (double)ncores;
  if (shared && nst < MAX_ST)
    snprintf(st[nst++], ST_LEN,
             "%zu configuration%s with workers x threads + 1 > %ld cores: if the master's receive "
             "polls (MPICH's blocking MPI_Recv) %s the cores with it, which the formula ignores",
             shared, shared == 1 ? "" : "s", ncores, shared == 1 ? "it shares" : "they share");
  if (json) {
    json_t *j = json_object(), *s = json_array(), *cal = json_object();
    json_object_set_new(j, "model", json_string("analytic"));
    json_object_set_new(j, "machine", augur_json_text(args.operand[0]));
    json_object_set_new(j, "data", augur_json_text(data));
    json_object_set_new(cal, "workload", json_real(c.at.w));
    json_object_set_new(cal, "workers", json_integer(c.at.k));
    json_object_set_new(cal, "threads", json_integer(c.at.t));
    json_object_set_new(cal, "runs", json_integer((json_int_t)c.runs));
    json_object_set_new(cal, "t_comp_worker", json_real(c.comp_worker));
    json_object_set_new(cal, "t_iter", json_real(c.t_iter));
    json_object_set_new(cal, "master", json_real(app.master));
    json_object_set_new(cal, "per_element", json_real(app.per_element));
    json_object_set_new(cal, "oversubscribed", json_boolean(c.oversubscribed));
    json_object_set_new(j, "calibration", cal);
    for (size_t i = 0; i < nst; i++)
      json_array_append_new(s, augur_json_text(st[i]));
    json_object_set_new(j, "statements", s);
    if (at_s) {
      json_object_set_new(j, "response", json_string("t_iter"));
      json_object_set_new(j, "prediction", json_real(cf->x.t_iter));
      json_object_set_new(j, "node", json_null());
      json_object_set_new(j, "terms", terms_json(&cf->x));
    } else {
      json_t *a = json_array();
      json_object_set_new(j, "workload", json_real(w));
      json_object_set_new(j, "cores", json_integer(ncores));
      json_object_set_new(j, "oversubscribe", json_boolean(over));
      json_object_set_new(j, "evaluated", json_integer((json_int_t)ncf));
      json_object_set_new(j, "skipped", json_integer((json_int_t)skipped));
      for (size_t i = 0; i < ncf && i < (size_t)top; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "rank", json_integer((json_int_t)i + 1));
        json_object_set_new(e, "workers", json_integer(cf[i].k));
        json_object_set_new(e, "threads", json_integer(cf[i].t));
        json_object_set_new(e, "procs", json_integer(cf[i].k + 1));
        json_object_set_new(e, "oversubscribed", json_boolean(cf[i].over));
        json_object_set_new(e, "t_iter", json_real(cf[i].x.t_iter));
        json_object_set_new(e, "t_comp", json_real(cf[i].x.compute + cf[i].x.omp));
        json_object_set_new(e, "terms", terms_json(&cf[i].x));
        if (i == 0) json_object_set_new(j, "best", json_incref(e));
        json_array_append_new(a, e);
      }
      json_object_set_new(j, "configurations", a);
    }
    rc = print_json(j);
    goto out;
  }
  for (size_t i = 0; i < nst; i++)
    printf("note: %s\n", st[i]);
  printf("analytic model: calibrated at workload %g, %ld worker%s x %ld thread%s (%zu run%s): "
         "%.4g s per work element\n",
         c.at.w, c.at.k, c.at.k == 1 ? "" : "s", c.at.t, c.at.t == 1 ? "" : "s", c.runs,
         c.runs == 1 ? "" : "s", app.per_element);
  if (at_s) {
    const augur_analytic_terms *x = &cf->x;
    printf("t_iter = %.9g  (analytic)\n", x->t_iter);
    printf("  %-8s %11s\n", "term", "s");
    const char *name[] = {"compute", "sends", "master", "reply", "openmp"};
    double val[] = {x->compute, x->sends, x->master, x->reply, x->omp};
    for (size_t i = 0; i < 5; i++)
      printf("  %-8s %11.4g\n", name[i], val[i]);
  } else {
    printf("workload %g, %ld cores, objective T_iter\n", w, ncores);
    printf("best: %ld worker%s x %ld thread%s: T_iter %.4g s\n\n", cf[0].k, cf[0].k == 1 ? "" : "s",
           cf[0].t, cf[0].t == 1 ? "" : "s", cf[0].x.t_iter);
    printf("%4s %7s %7s %11s %11s %11s %11s %11s %11s  %s\n", "rank", "workers", "threads",
           "T_iter (s)", "compute", "sends", "master", "reply", "openmp", "note");
    for (size_t i = 0; i < ncf && i < (size_t)top; i++) {
      const augur_analytic_terms *x = &cf[i].x;
      printf("%4zu %7ld %7ld %11.4g %11.4g %11.4g %11.4g %11.4g %11.4g%s\n", i + 1, cf[i].k,
             cf[i].t, x->t_iter, x->compute, x->sends, x->master, x->reply, x->omp,
             cf[i].over ? "  oversubscribed" : "");
    }
  }
  rc = ferror(stdout) ? CLI_FAIL : CLI_OK;
out:
  free(cf);
  free(mb);
  return rc;
}
