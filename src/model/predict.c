/* augur_model — evaluating the tree at a point. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

int augur_model_predict(const augur_model *m, const double *x, int *node, double *value,
                        augur_error *err) {
  assert(m && x && node && value && m->nnodes >= 1);
  const augur_model_node *nd = &m->nodes[0];
  while (nd->left) {
    const augur_model_var *v = &m->vars[nd->split_var];
    double z = x[nd->split_var];
    if (isnan(z))
      return augur_fail(err, AUGUR_E_ARG, "model predict: no value for '%s' (node %d splits on it)",
                        v->name, nd->id);
    int kid;
    if (nd->split_levels) {
      if (z < 0 || z >= (double)v->nlevels || z != floor(z))
        return augur_fail(err, AUGUR_E_ARG, "model predict: '%s': level %g out of range", v->name,
                          z);
      kid = nd->split_levels[(size_t)z];
      if (kid == 0)
        return augur_fail(err, AUGUR_E_ARG,
                          "model predict: '%s' = '%s' did not occur at node %d: no branch for it",
                          v->name, v->levels[(size_t)z], nd->id);
    } else
      kid = z <= nd->split_point ? 1 : 2;
    nd = &m->nodes[(kid == 1 ? nd->left : nd->right) - 1];
  }
  double f = 0;
  for (size_t j = 0; j < m->k; j++) {
    if (isnan(nd->coef[j])) continue;
    double xv = m->coef_var[j] < 0 ? 1 : x[m->coef_var[j]];
    if (isnan(xv))
      return augur_fail(err, AUGUR_E_ARG, "model predict: no value for '%s' (a regressor)",
                        m->vars[m->coef_var[j]].name);
    f += nd->coef[j] * xv;
  }
  *node = nd->id;
  *value = f;
  return AUGUR_OK;
}

/* What a PMNF term (fit --terms auto) is computed from. */
static const char *const base_names[] = {"workload", "workers", "threads"};

/* Index of NAME in base_names when M has a PMNF term that is not NAME, else -1. */
static int base_index(const augur_model *m, const char *name) {
  int b = -1;
  for (int i = 0; i < 3; i++)
    if (!strcmp(name, base_names[i])) b = i;
  for (size_t v = 0; b >= 0 && v < m->nvars; v++)
    if (!m->vars[v].is_factor && strcmp(m->vars[v].name, name) &&
        augur_model_term_parse(m->vars[v].name, NULL))
      return b;
  return -1;
}

int augur_model_predict_at(const augur_model *m, const char *at, int *node, double *value,
                           augur_error *err) {
  assert(m && at);
  double base[3] = {NAN, NAN, NAN};
  double *x = malloc((m->nvars ? m->nvars : 1) * sizeof *x);
  if (!x) return augur_fail(err, AUGUR_E_NOMEM, "model predict: out of memory");
  for (size_t i = 0; i < m->nvars; i++)
    x[i] = NAN;
  int rc = AUGUR_OK;
  const char *p = at;
  while (*p && rc == AUGUR_OK) {
    const char *e = strchr(p, ',');
    if (!e) e = p + strlen(p);
    const char *eq = memchr(p, '=', (size_t)(e - p));
    if (!eq) {
      rc = augur_fail(err, AUGUR_E_ARG, "model predict: '%.*s': expected name=value", (int)(e - p),
                      p);
      break;
    }
    char name[256], val[256];
    const char *vs = eq + 1, *ve = e, *ne = eq;
    while (p < ne && *p == ' ')
      p++;
    while (ne > p && ne[-1] == ' ')
      ne--;
    while (vs < ve && *vs == ' ')
      vs++;
    while (ve > vs && ve[-1] == ' ')
      ve--;
    size_t nl = (size_t)(ne - p), vl = (size_t)(ve - vs);
    if (nl == 0 || nl >= sizeof name || vl == 0 || vl >= sizeof val) {
      rc = augur_fail(err, AUGUR_E_ARG, "model predict: '%.*s': expected name=value", (int)(e - p),
                      p);
      break;
    }
    memcpy(name, p, nl), name[nl] = 0;
    memcpy(val, vs, vl), val[vl] = 0;
    int v = augur_model_var_index(m, name), b = base_index(m, name);
    /* a model variable, or a PMNF term's base the model does not read itself */
    double *dst = v >= 0 ? &x[v] : b >= 0 ? &base[b] : NULL;
    if (!dst) {
      rc = augur_fail(err, AUGUR_E_ARG, "model predict: the model has no variable '%s'", name);
      break;
    }
    if (!isnan(*dst)) {
      rc = augur_fail(err, AUGUR_E_ARG, "model predict: '%s' given twice", name);
      break;
    }
    const augur_model_var *mv = v >= 0 ? &m->vars[v] : NULL;
    if (mv && mv->is_factor) {
      size_t l = 0;
      while (l < mv->nlevels && strcmp(mv->levels[l], val))
        l++;
      if (l == mv->nlevels)
        rc = augur_fail(err, AUGUR_E_ARG, "model predict: '%s' is not a level of '%s'", val, name);
      *dst = (double)l;
    } else {
      char *end;
      *dst = strtod(val, &end);
      if (*end || !isfinite(*dst))
        rc = augur_fail(err, AUGUR_E_ARG, "model predict: '%s=%s' is not a finite number", name,
                        val);
    }
    p = *e ? e + 1 : e;
  }
  for (size_t i = 0; i < 3; i++) /* the base from the model's own variables */
    if (isnan(base[i]) && augur_model_var_index(m, base_names[i]) >= 0)
      base[i] = x[augur_model_var_index(m, base_names[i])];
  augur_model_term tm;
  for (size_t i = 0; i < m->nvars && rc == AUGUR_OK; i++) /* PMNF terms not given */
    if (isnan(x[i]) && !m->vars[i].is_factor && augur_model_term_parse(m->vars[i].name, &tm))
      x[i] = augur_model_term_value(tm, base[0], base[1], base[2]);
  if (rc == AUGUR_OK)
    for (size_t i = 0; i < m->nvars; i++)
      if (isnan(x[i])) {
        rc = augur_fail(err, AUGUR_E_ARG,
                        "model predict: no value for '%s' (the model uses it; pass it with "
                        "--at%s)",
                        m->vars[i].name,
                        augur_model_term_parse(m->vars[i].name, NULL) &&
                                strcmp(m->vars[i].name, "workers") /* a term, but also a base */
                            ? ", or workload, workers and threads to compute it"
                            : "");
        break;
      }
  if (rc == AUGUR_OK) rc = augur_model_predict(m, x, node, value, err);
  free(x);
  return rc;
}
