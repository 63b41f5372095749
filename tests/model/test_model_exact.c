/* Exactness against R: fits tests/model/fixtures/NAME.csv as the matching
 * NAME.expect says (written by make_fixtures.R from partykit::lmtree) and
 * compares the tree (structure, splits), the coefficients and test
 * statistics (1e-6 relative), the adjusted p-values (1e-4) and predictions.
 * Usage: test_model_exact FIXTURE_DIR NAME. Exit 0 when all agree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/model.h"

static int fails;

#define FAIL(...)                                                                                  \
  do {                                                                                             \
    fprintf(stderr, __VA_ARGS__);                                                                  \
    fputc('\n', stderr);                                                                           \
    fails++;                                                                                       \
  } while (0)

static double num(const char *s) {
  return strcmp(s, "NA") ? strtod(s, NULL) : NAN;
}

static void close_rel(const char *what, int id, double got, double want, double tol) {
  if (isnan(want) && isnan(got)) return;
  if (isnan(want) || isnan(got) || fabs(got - want) > tol * fabs(want) + 1e-10)
    FAIL("node %d %s: got %.12g, R %.12g", id, what, got, want);
}

static void close_abs(const char *what, int id, double got, double want, double tol) {
  if (isnan(want) && isnan(got)) return;
  if (isnan(want) || isnan(got) || fabs(got - want) > tol)
    FAIL("node %d %s: got %.12g, R %.12g", id, what, got, want);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_model_exact FIXTURE_DIR NAME\n");
    return 2;
  }
  char path[4096], line[8192], formula[8192] = "";
  snprintf(path, sizeof path, "%s/%s.csv", argv[1], argv[2]);
  augur_error err = {0};
  augur_model_table *t;
  if (augur_model_table_read(&t, path, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  snprintf(path, sizeof path, "%s/%s.expect", argv[1], argv[2]);
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return 1;
  }
  augur_model_options o;
  augur_model_options_default(&o);
  static char weights[256];
  /* first pass: formula and options */
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char a[256], b[256];
    if (!strncmp(line, "formula ", 8))
      snprintf(formula, sizeof formula, "%s", line + 8);
    else if (sscanf(line, "option %255s %255s", a, b) == 2) {
      if (!strcmp(a, "alpha"))
        o.alpha = atof(b);
      else if (!strcmp(a, "minsize"))
        o.minsize = atof(b);
      else if (!strcmp(a, "trim"))
        o.trim = atof(b);
      else if (!strcmp(a, "maxdepth"))
        o.maxdepth = atoi(b);
      else if (!strcmp(a, "prune"))
        o.prune = !strcmp(b, "AIC") ? AUGUR_MODEL_PRUNE_AIC : AUGUR_MODEL_PRUNE_BIC;
      else if (!strcmp(a, "party_compat"))
        o.party_compat = atoi(b);
      else if (!strcmp(a, "weights"))
        snprintf(weights, sizeof weights, "%s", b), o.weights = weights;
      else
        FAIL("unknown option %s", a);
    }
  }
  augur_model *m;
  if (augur_model_fit(&m, t, formula, &o, &err)) {
    fprintf(stderr, "fit: %s\n", err.msg);
    return 1;
  }
  rewind(f);
  size_t nodes = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *tok[64];
    int nt = 0;
    for (char *s = strtok(line, " "); s && nt < 64; s = strtok(NULL, " "))
      tok[nt++] = s;
    if (nt == 0) continue;
    int id = nt > 1 ? atoi(tok[1]) : 0;
    const augur_model_node *nd = id >= 1 && (size_t)id <= m->nnodes ? &m->nodes[id - 1] : NULL;
    if (!strcmp(tok[0], "rows")) {
      if (m->nrows_used != strtoul(tok[1], NULL, 10) ||
          m->nrows_dropped != strtoul(tok[2], NULL, 10))
        FAIL("rows used/dropped: got %zu/%zu, R %s/%s", m->nrows_used, m->nrows_dropped, tok[1],
             tok[2]);
    } else if (!strcmp(tok[0], "node")) {
      nodes++;
      if (!nd) {
        FAIL("node %d: missing (augur has %zu nodes)", id, m->nnodes);
        continue;
      }
      if (nd->left != atoi(tok[2]) || nd->right != atoi(tok[3]))
        FAIL("node %d: children %d %d, R %s %s", id, nd->left, nd->right, tok[2], tok[3]);
      close_rel("nobs", id, nd->nobs, num(tok[4]), 1e-9);
    } else if (!strcmp(tok[0], "split") && nd) {
      if (nd->split_var < 0 || strcmp(m->vars[nd->split_var].name, tok[2]))
        FAIL("node %d: split on %s, R on %s", id,
             nd->split_var < 0 ? "nothing" : m->vars[nd->split_var].name, tok[2]);
      else
        close_rel("split point", id, nd->split_point, num(tok[3]), 1e-9);
    } else if (!strcmp(tok[0], "splitvar") && nd) {
      if (nd->split_var < 0 || strcmp(m->vars[nd->split_var].name, tok[2]))
        FAIL("node %d: split on %s, R on %s", id,
             nd->split_var < 0 ? "nothing" : m->vars[nd->split_var].name, tok[2]);
    } else if (!strcmp(tok[0], "splitlev") && nd) {
      if (nd->split_var < 0 || strcmp(m->vars[nd->split_var].name, tok[2]) || !nd->split_levels)
        FAIL("node %d: factor split on %s expected", id, tok[2]);
      else
        for (int l = 3; l < nt; l++) {
          int want = strcmp(tok[l], "NA") ? atoi(tok[l]) : 0;
          if (nd->split_levels[l - 3] != want)
            FAIL("node %d: level %d goes to %d, R %d", id, l - 2, nd->split_levels[l - 3], want);
        }
    } else if (!strcmp(tok[0], "coef") && nd) {
      if ((size_t)(nt - 2) != m->k)
        FAIL("node %d: %zu coefficients, R %d", id, m->k, nt - 2);
      else
        for (size_t j = 0; j < m->k; j++)
          close_rel(m->coef_names[j], id, nd->coef[j], num(tok[2 + j]), 1e-6);
    } else if (!strcmp(tok[0], "test") && nd) {
      size_t v = 0;
      while (v < m->npartition && strcmp(m->vars[m->partition[v]].name, tok[2]))
        v++;
      if (!nd->tested || v == m->npartition) {
        FAIL("node %d: no test of %s", id, tok[2]);
        continue;
      }
      char what[300];
      snprintf(what, sizeof what, "statistic of %s", tok[2]);
      close_rel(what, id, nd->tests[v].statistic, num(tok[3]), 1e-6);
      snprintf(what, sizeof what, "adjusted p of %s", tok[2]);
      close_abs(what, id, nd->tests[v].p_adjusted, num(tok[4]), 1e-4);
    } else if (!strcmp(tok[0], "pred")) {
      size_t row = strtoul(tok[1], NULL, 10) - 1;
      double x[m->nvars];
      for (size_t v = 0; v < m->nvars; v++)
        x[v] =
            augur_model_table_value(t, (size_t)augur_model_table_column(t, m->vars[v].name), row);
      int node;
      double val;
      if (augur_model_predict(m, x, &node, &val, &err))
        FAIL("predict row %zu: %s", row + 1, err.msg);
      else {
        if (node != atoi(tok[2])) FAIL("predict row %zu: node %d, R %s", row + 1, node, tok[2]);
        close_rel("prediction", node, val, num(tok[3]), 1e-6);
      }
    }
  }
  if (nodes != m->nnodes) FAIL("augur has %zu nodes, R %zu", m->nnodes, nodes);
  fclose(f);
  augur_model_free(m);
  augur_model_table_free(t);
  if (fails)
    fprintf(stderr, "%s: %d differences from R\n", argv[2], fails);
  else
    printf("%s: agrees with R\n", argv[2]);
  return fails ? 1 : 0;
}
