/* augur model fit|show|predict (docs/model.md, "MOB"): the master/worker
 * model, a MOB tree of linear models (partykit's lmtree) fitted on a data
 * set CSV, kept as a JSON model file. Each sub-command is one entry of
 * `subcommands` below (`augur model best` is added there). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "augur/model.h"
#include "augur/text.h"
#include "cli.h"

int cli_open_model(const char *path, augur_model **m) {
  augur_error err = {0};
  if (augur_model_read(m, path, &err)) return cli_fail("%s", err.msg);
  return CLI_OK;
}

static int print_model_json(const augur_model *m) {
  char *s = augur_model_to_json(m);
  if (!s) return cli_fail("out of memory writing JSON");
  int bad = puts(s) < 0 || fflush(stdout) != 0;
  free(s);
  return bad ? cli_fail("writing to stdout failed") : CLI_OK;
}

/* What --terms auto chose: the best set of each size, the chosen marked. */
static void print_terms(const augur_model_terms_result *r, FILE *out) {
  fprintf(out,
          "terms: leave-one-out error (PRESS) of the root linear model, %zu rows, %zu sets of "
          "terms (%zu not estimable)\n",
          r->nrows, r->nsets, r->nrejected);
  fprintf(out, "%5s %12s    %s\n", "terms", "PRESS", "best set of this size");
  for (size_t n = 0; n <= AUGUR_MODEL_MAX_TERMS && n < r->nsets; n++) {
    const augur_model_terms_set *s = &r->by_size[n];
    if (s->n != n || isinf(s->press)) continue;
    char buf[32];
    fprintf(out, "%5zu %12.6g %s  %s", n, s->press, n == r->chosen.n ? " *" : "  ",
            n ? "" : "(intercept alone)");
    for (size_t c = 0; c < s->n; c++)
      fprintf(out, "%s%s", c ? " + " : "",
              augur_model_term_name(augur_model_term_at(s->term[c]), buf, sizeof buf));
    fprintf(out, "\n");
  }
  fprintf(out,
          "chosen (*): the fewest terms within one standard error (%.4g) of the smallest PRESS\n",
          r->press_se);
  fprintf(out, "formula: %s\n\n", r->formula);
}

static int model_fit(int argc, char **argv) {
  const char *formula = NULL, *weights = NULL, *outpath = NULL, *prune = "none", *terms = NULL;
  int json = 0, party = 0;
  long long minsize = 0, maxdepth = 0, max_terms = 3;
  augur_model_options o;
  augur_model_options_default(&o);
  const cli_opt options[] = {
      CLI_STRING("--formula", "-f", "F", &formula, "a formula",
                 "'y ~ x1 + x2 | z1 + z2': response ~ regressors | partitioning variables"),
      CLI_STRING("--weights", NULL, "COL", &weights, "a column name",
                 "case weights from column COL (whole numbers with --party-compat);\n"
                 "seed, variance or relative (no such column): computed, as\n"
                 "'augur model weights' does"),
      CLI_REAL("--alpha", "A", &o.alpha, 1e-300, 1, "a number in (0, 1]",
               "significance level of the instability tests (default 0.05)"),
      CLI_INT("--minsize", "N", &minsize, 1, 1LL << 40,
              "minimum weight of a node (default ceil(10 k), k coefficients;\n"
              "20 with --party-compat)"),
      CLI_REAL("--trim", "T", &o.trim, 0, 1e12, "a fraction < 1 or a count",
               "trimming of the supLM test: fraction or count (default 0.1)"),
      CLI_INT("--maxdepth", "D", &maxdepth, 1, 1 << 20, "deepest node (root = 1; default none)"),
      CLI_CHOICE("--prune", "aic|bic", &prune, "aic|bic|none", "post-pruning (default none)"),
      CLI_FLAG("--party-compat", NULL, &party,
               "party::mob semantics: integer weights replicate rows,\n"
               "Bonferroni switch at 0.01, minsize 20"),
      CLI_STRING("--output", "-o", "MODEL", &outpath, "a file name", "write the model file (JSON)"),
      CLI_FLAG("--json", NULL, &json, "print the model as JSON (schema: docs/model.md)"),
      CLI_CHOICE("--terms", "auto", &terms, "auto",
                 "choose the regressors from the PMNF family W^i log2(W)^j times 1,\n"
                 "1/(workers threads) or 1/workers, and workers, W workers, by\n"
                 "leave-one-out error (formula 'y ~ 1 | ...')"),
      CLI_INT("--max-terms", "K", &max_terms, 1, AUGUR_MODEL_MAX_TERMS,
              "--terms auto: at most K terms besides the intercept (default 3)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur model fit DATA --formula F [options] [-o MODEL.json]\n"
               "\n"
               "Fits a model-based recursive partitioning tree of linear models (R partykit's\n"
               "lmtree) on the CSV data set DATA and prints it. Rows with a missing value in\n"
               "a column the formula uses are dropped (said). See docs/model.md.\n",
      .opts = options,
      .max_operands = 1,
      .operand = "data set",
      .required = "DATA"};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (!formula) return cli_usage("missing --formula (e.g. --formula 'y ~ x | z1 + z2')");
  o.weights = weights;
  o.minsize = (double)minsize;
  o.maxdepth = (int)maxdepth;
  o.party_compat = party;
  o.prune = !strcmp(prune, "aic")   ? AUGUR_MODEL_PRUNE_AIC
            : !strcmp(prune, "bic") ? AUGUR_MODEL_PRUNE_BIC
                                    : AUGUR_MODEL_PRUNE_NONE;
  augur_error err = {0};
  augur_model_table *t;
  if (augur_model_table_read(&t, args.operand[0], &err)) return cli_fail("%s", err.msg);
  if (cli_model_weights_keyword(t, args.operand[0], weights, formula) != CLI_OK) {
    augur_model_table_free(t);
    return CLI_FAIL;
  }
  augur_model_terms_result tr = {0};
  if (terms && augur_model_terms_choose(t, formula, weights, (size_t)max_terms, &tr, &err)) {
    augur_model_table_free(t);
    return cli_fail("%s", err.msg);
  }
  augur_model *m;
  int rc = augur_model_fit(&m, t, terms ? tr.formula : formula, &o, &err);
  augur_model_table_free(t);
  if (rc) {
    augur_model_terms_result_free(&tr);
    return cli_fail("%s", err.msg);
  }
  if (terms) print_terms(&tr, json ? stderr : stdout);
  augur_model_terms_result_free(&tr);
  if (m->nrows_dropped)
    cli_note("%zu of %zu rows dropped: a missing value in a column the formula uses",
             m->nrows_dropped, m->nrows_dropped + m->nrows_used);
  rc = CLI_OK;
  if (outpath && augur_model_write(m, outpath, &err))
    rc = cli_fail("%s", err.msg);
  else if (json)
    rc = print_model_json(m);
  else
    augur_model_print(m, stdout);
  augur_model_free(m);
  return rc;
}

static int model_show(int argc, char **argv) {
  int json = 0;
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &json, "print the model file's content (schema: docs/model.md)"),
      {0}};
  const cli_spec spec = {.usage = "usage: augur model show MODEL [--json]\n"
                                  "\n"
                                  "Prints a model file's tree as R's print(lmtree) does.\n",
                         .opts = options,
                         CLI_ONE_MODEL};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  augur_model *m;
  if (cli_open_model(args.operand[0], &m)) return CLI_FAIL;
  int rc = CLI_OK;
  if (json)
    rc = print_model_json(m);
  else
    augur_model_print(m, stdout);
  augur_model_free(m);
  return rc;
}

static int model_predict(int argc, char **argv) {
  int json = 0;
  const char *at = NULL;
  const cli_opt options[] = {CLI_STRING("--at", NULL, "NAME=V,...", &at, "name=value pairs",
                                        "the value of every variable the model uses"),
                             CLI_FLAG("--json", NULL, &json, "print JSON (schema: docs/model.md)"),
                             {0}};
  const cli_spec spec = {
      .usage = "usage: augur model predict MODEL --at 'name=v,name=v...' [--json]\n"
               "\n"
               "The model's prediction at one point and the leaf it falls in. Derived columns\n"
               "(w1, w2, local_workload) are not computed: pass each column the model uses.\n",
      .opts = options,
      CLI_ONE_MODEL};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  if (!at) return cli_usage("missing --at 'name=value,...'");
  augur_error err = {0};
  augur_model *m;
  if (cli_open_model(args.operand[0], &m)) return CLI_FAIL;
  int node;
  double v;
  int rc = augur_model_predict_at(m, at, &node, &v, &err);
  if (rc) {
    augur_model_free(m);
    return cli_fail("%s", err.msg);
  }
  if (json) {
    json_t *j = json_object();
    json_object_set_new(j, "response", augur_json_text(m->response));
    json_object_set_new(j, "prediction", json_real(v));
    json_object_set_new(j, "node", json_integer(node));
    char *s = json_dumps(j, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(j);
    if (!s || puts(s) < 0) rc = cli_fail("writing JSON failed");
    free(s);
  } else
    printf("%s = %.9g  (node %d)\n", m->response, v, node);
  augur_model_free(m);
  return rc;
}

typedef struct subcommand {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"fit", model_fit, "fit a MOB tree of linear models on a data set CSV"},
    {"show", model_show, "print a model file's tree"},
    {"predict", model_predict, "predict at one point"},
    {"best", cmd_model_best, "the best workers x threads (x placement) for a workload"},
    {"weights", cmd_model_weights,
     "add observation weights (seed, variance or relative) to a data set"},
    {"suggest", cmd_model_suggest, "which runs to add where the model is least sure"},
    {"analytic", cmd_model_analytic, "the seed's analytic model (approach A) from microbenchmarks"},
};
#define NSUB (sizeof subcommands / sizeof subcommands[0])

int cmd_model(int argc, char **argv) {
  if (argc < 2)
    return cli_usage("missing SUBCOMMAND (usage: augur model SUBCOMMAND [options]; fit, show, "
                     "predict: augur model --help)");
  if (cli_is_help(argv[1])) {
    printf("usage: augur model SUBCOMMAND [options]\n\n"
           "The master/worker performance model (docs/model.md).\n\nsubcommands:\n");
    for (size_t i = 0; i < NSUB; i++)
      printf("  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
    printf("\noptions:\n  -h, --help  show this help (augur model SUBCOMMAND --help for its "
           "options)\n");
    return CLI_OK;
  }
  if (argv[1][0] == '-')
    return cli_usage("unknown option '%s' (see 'augur model --help')", argv[1]);
  for (size_t i = 0; i < NSUB; i++)
    if (!strcmp(argv[1], subcommands[i].name)) {
      static char name[64];
      snprintf(name, sizeof name, "augur model %s", subcommands[i].name);
      cli_prog = name;
      return subcommands[i].run(argc - 1, argv + 1);
    }
  return cli_usage("unknown subcommand '%s' (fit, show, predict, ...: see 'augur model --help')",
                   argv[1]);
}
