/* augur_model — the tree as R's print(lmtree) shows it: formula, the fitted
 * party with split rules and node numbers, each leaf's n and coefficients,
 * and the summary lines. Numbers follow R's defaults: split points with 5
 * significant digits, coefficient vectors with 7 and a common number of
 * decimals, names and values right-aligned in one common width. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

/* X with SIG significant digits, fixed notation, trailing zeros dropped. */
static void fmt_sig(char *b, size_t n, double x, int sig) {
  if (!isfinite(x)) {
    snprintf(b, n, "NA");
    return;
  }
  double ax = fabs(x);
  if (x != 0 && (ax < 1e-4 || ax >= 1e15)) {
    snprintf(b, n, "%.*g", sig, x);
    return;
  }
  int dec = x == 0 ? 0 : sig - 1 - (int)floor(log10(ax));
  if (dec < 0) dec = 0;
  snprintf(b, n, "%.*f", dec, x);
  if (strchr(b, '.')) {
    char *e = b + strlen(b) - 1;
    while (*e == '0')
      *e-- = 0;
    if (*e == '.') *e = 0;
  }
}

/* Decimals R's formatReal uses for X with 7 significant digits: the fewest
 * that show X as precisely as 7 significant digits do. */
static int decimals7(double x) {
  if (!isfinite(x) || x == 0) return 0;
  int e = (int)floor(log10(fabs(x)));
  char ref[64], b[64];
  snprintf(ref, sizeof ref, "%.6e", x);
  double r7 = strtod(ref, NULL);
  for (int sig = 1; sig <= 7; sig++) {
    snprintf(b, sizeof b, "%.*e", sig - 1, x);
    if (strtod(b, NULL) == r7) {
      int d = sig - 1 - e;
      return d > 0 ? d : 0;
    }
  }
  return 6 - e > 0 ? 6 - e : 0;
}

static void print_coef(const augur_model *m, const augur_model_node *nd, const char *prefix,
                       FILE *out) {
  int dec = 0;
  for (size_t j = 0; j < m->k; j++)
    if (decimals7(nd->coef[j]) > dec) dec = decimals7(nd->coef[j]);
  char val[m->k][64];
  size_t w = 0;
  for (size_t j = 0; j < m->k; j++) {
    if (isnan(nd->coef[j]))
      snprintf(val[j], sizeof val[j], "NA");
    else
      snprintf(val[j], sizeof val[j], "%.*f", dec, nd->coef[j]);
    if (strlen(val[j]) > w) w = strlen(val[j]);
    if (strlen(m->coef_names[j]) > w) w = strlen(m->coef_names[j]);
  }
  fprintf(out, "%s    ", prefix);
  for (size_t j = 0; j < m->k; j++)
    fprintf(out, "%*s ", (int)w, m->coef_names[j]);
  fprintf(out, "\n%s    ", prefix);
  for (size_t j = 0; j < m->k; j++)
    fprintf(out, "%*s ", (int)w, val[j]);
  fputc('\n', out);
}

/* The rule that leads from ND's parent to ND. */
static void rule(const augur_model *m, const augur_model_node *nd, char *b, size_t n) {
  const augur_model_node *p = &m->nodes[nd->parent - 1];
  const augur_model_var *v = &m->vars[p->split_var];
  int kid = p->left == nd->id ? 1 : 2;
  if (!p->split_levels) {
    char num[64];
    fmt_sig(num, sizeof num, p->split_point, 5);
    snprintf(b, n, "%s %s %s", v->name, kid == 1 ? "<=" : ">", num);
    return;
  }
  size_t len = (size_t)snprintf(b, n, "%s in ", v->name);
  int first = 1;
  for (size_t l = 0; l < v->nlevels && len < n; l++)
    if (p->split_levels[l] == kid) {
      len += (size_t)snprintf(b + len, n - len, "%s%s", first ? "" : ", ", v->levels[l]);
      first = 0;
    }
}

static void print_node(const augur_model *m, int id, int level, FILE *out) {
  const augur_model_node *nd = &m->nodes[id - 1];
  char prefix[4 * level + 1], label[1024];
  prefix[0] = 0;
  for (int i = 0; i < level; i++)
    strcat(prefix, "|   ");
  if (nd->parent)
    rule(m, nd, label, sizeof label);
  else
    snprintf(label, sizeof label, "root");
  if (nd->left) {
    fprintf(out, "%s[%d] %s\n", level ? prefix : "", nd->id, label);
    print_node(m, nd->left, level + 1, out);
    print_node(m, nd->right, level + 1, out);
    return;
  }
  char nobs[64];
  fmt_sig(nobs, sizeof nobs, nd->nobs, 7);
  fprintf(out, "%s[%d] %s: n = %s\n", level ? prefix : "", nd->id, label, nobs);
  print_coef(m, nd, level ? prefix : "", out);
}

void augur_model_print(const augur_model *m, FILE *out) {
  assert(m && out && m->nnodes >= 1);
  size_t inner = 0;
  double obj = 0;
  for (size_t i = 0; i < m->nnodes; i++) {
    if (m->nodes[i].left)
      inner++;
    else
      obj += m->nodes[i].objective;
  }
  fprintf(out, "Linear model tree\n\nModel formula:\n%s\n\nFitted party:\n", m->formula);
  print_node(m, 1, 0, out);
  char o[64];
  fmt_sig(o, sizeof o, obj, 7);
  fprintf(out,
          "\nNumber of inner nodes:    %zu\nNumber of terminal nodes: %zu\n"
          "Number of parameters per node: %zu\n"
          "Objective function (residual sum of squares): %s\n",
          inner, m->nnodes - inner, m->k, o);
  if (m->nrows_dropped) fprintf(out, "(%zu rows with a missing value dropped)\n", m->nrows_dropped);
  if (!m->nodes[0].tested) {
    char n[64], ms[64];
    fmt_sig(n, sizeof n, m->nodes[0].nobs, 7);
    fmt_sig(ms, sizeof ms, m->options.minsize, 7);
    fprintf(out,
            "(no instability tests: the data weigh %s, fewer than 2 x minsize = 2 x %s, or "
            "the scores are singular)\n",
            n, ms);
  }
}
