/* augur_model — the model file (JSON). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assert.h>
#include <math.h>

#include <jansson.h>

#include "model_int.h"

int model_read_file(const char *path, char **text, size_t *len, augur_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return augur_fail(err, AUGUR_E_IO, "%s: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  for (;;) {
    if (!b) {
      fclose(f);
      return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", path);
    }
    n += fread(b + n, 1, cap - n - 1, f);
    if (n < cap - 1) break;
    char *nb = realloc(b, cap * 2);
    if (!nb) free(b);
    b = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    return augur_fail(err, AUGUR_E_IO, "%s: read error", path);
  }
  b[n] = 0;
  *text = b;
  *len = n;
  return AUGUR_OK;
}

static json_t *jnum(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static const char *prune_name(int p) {
  return p == AUGUR_MODEL_PRUNE_AIC ? "aic" : p == AUGUR_MODEL_PRUNE_BIC ? "bic" : "none";
}

static json_t *model_json(const augur_model *m) {
  json_t *root = json_object(), *vars = json_array(), *coefs = json_array(), *part = json_array(),
         *nodes = json_array();
  json_object_set_new(root, "augur_model", json_integer(AUGUR_MODEL_FILE_VERSION));
  json_object_set_new(root, "method", json_string("mob-lmtree"));
  json_object_set_new(root, "formula", json_string(m->formula));
  json_object_set_new(root, "response", json_string(m->response));
  json_object_set_new(root, "weights", m->weights ? json_string(m->weights) : json_null());
  json_t *o = json_object();
  json_object_set_new(o, "alpha", json_real(m->options.alpha));
  json_object_set_new(o, "bonferroni", json_boolean(m->options.bonferroni));
  json_object_set_new(o, "minsize", json_real(m->options.minsize));
  json_object_set_new(o, "trim", json_real(m->options.trim));
  json_object_set_new(o, "maxdepth", json_integer(m->options.maxdepth));
  json_object_set_new(o, "prune", json_string(prune_name(m->options.prune)));
  json_object_set_new(o, "party_compat", json_boolean(m->options.party_compat));
  json_object_set_new(root, "options", o);
  json_t *rows = json_object();
  json_object_set_new(rows, "used", json_integer((json_int_t)m->nrows_used));
  json_object_set_new(rows, "dropped", json_integer((json_int_t)m->nrows_dropped));
  json_object_set_new(root, "rows", rows);
  for (size_t i = 0; i < m->nvars; i++) {
    json_t *v = json_object();
    json_object_set_new(v, "name", json_string(m->vars[i].name));
    json_object_set_new(v, "type", json_string(m->vars[i].is_factor ? "factor" : "numeric"));
    if (m->vars[i].is_factor) {
      json_t *lv = json_array();
      for (size_t l = 0; l < m->vars[i].nlevels; l++)
        json_array_append_new(lv, json_string(m->vars[i].levels[l]));
      json_object_set_new(v, "levels", lv);
    }
    json_array_append_new(vars, v);
  }
  json_object_set_new(root, "variables", vars);
  for (size_t j = 0; j < m->k; j++)
    json_array_append_new(coefs, json_string(m->coef_names[j]));
  json_object_set_new(root, "coefficients", coefs);
  for (size_t i = 0; i < m->npartition; i++)
    json_array_append_new(part, json_string(m->vars[m->partition[i]].name));
  json_object_set_new(root, "partition", part);
  for (size_t i = 0; i < m->nnodes; i++) {
    const augur_model_node *nd = &m->nodes[i];
    json_t *n = json_object(), *c = json_array();
    json_object_set_new(n, "id", json_integer(nd->id));
    json_object_set_new(n, "parent", json_integer(nd->parent));
    json_object_set_new(n, "depth", json_integer(nd->depth));
    json_object_set_new(n, "left", json_integer(nd->left));
    json_object_set_new(n, "right", json_integer(nd->right));
    if (nd->left) {
      const augur_model_var *v = &m->vars[nd->split_var];
      json_t *sp = json_object();
      json_object_set_new(sp, "variable", json_string(v->name));
      if (nd->split_levels) {
        json_t *lv = json_object();
        for (size_t l = 0; l < v->nlevels; l++)
          if (nd->split_levels[l])
            json_object_set_new(lv, v->levels[l], json_integer(nd->split_levels[l]));
        json_object_set_new(sp, "levels", lv);
      } else
        json_object_set_new(sp, "point", json_real(nd->split_point));
      json_object_set_new(n, "split", sp);
    }
    json_object_set_new(n, "nrows", json_integer((json_int_t)nd->nrows));
    json_object_set_new(n, "nobs", json_real(nd->nobs));
    json_object_set_new(n, "rank", json_integer(nd->rank));
    json_object_set_new(n, "objective", jnum(nd->objective));
    json_object_set_new(n, "sigma2", jnum(nd->sigma2));
    for (size_t j = 0; j < m->k; j++)
      json_array_append_new(c, jnum(nd->coef[j]));
    json_object_set_new(n, "coefficients", c);
    if (nd->tested) {
      json_t *ts = json_array();
      for (size_t v = 0; v < m->npartition; v++) {
        json_t *t = json_object();
        json_object_set_new(t, "variable", json_string(m->vars[m->partition[v]].name));
        json_object_set_new(t, "statistic", jnum(nd->tests[v].statistic));
        json_object_set_new(t, "p_value", jnum(nd->tests[v].p_value));
        json_object_set_new(t, "p_adjusted", jnum(nd->tests[v].p_adjusted));
        json_array_append_new(ts, t);
      }
      json_object_set_new(n, "tests", ts);
    } else
      json_object_set_new(n, "tests", json_null());
    json_array_append_new(nodes, n);
  }
  json_object_set_new(root, "nodes", nodes);
  return root;
}

char *augur_model_to_json(const augur_model *m) {
  assert(m);
  json_t *j = model_json(m);
  if (!j) return NULL;
  char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  json_decref(j);
  return s;
}

int augur_model_write(const augur_model *m, const char *path, augur_error *err) {
  assert(m && path);
  char *s = augur_model_to_json(m);
  if (!s) return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", path);
  FILE *f = fopen(path, "w");
  if (!f) {
    free(s);
    return augur_fail(err, AUGUR_E_IO, "%s: %s", path, strerror(errno));
  }
  int bad = fputs(s, f) < 0 || fputc('\n', f) < 0;
  bad |= fclose(f) != 0;
  free(s);
  return bad ? augur_fail(err, AUGUR_E_IO, "%s: write failed", path) : AUGUR_OK;
}

/* ---- reading --------------------------------------------------------- */

typedef struct rd {
  const char *name;
  augur_error *err;
} rd;

#define BAD(...) augur_fail(r->err, AUGUR_E_FORMAT, __VA_ARGS__)

static int get_num(rd *r, json_t *o, const char *key, const char *where, int nullable,
                   double *out) {
  json_t *v = json_object_get(o, key);
  if (nullable && json_is_null(v)) {
    *out = NAN;
    return 0;
  }
  if (!json_is_number(v)) return BAD("%s: %s: '%s' missing or not a number", r->name, where, key);
  *out = json_number_value(v);
  if (!isfinite(*out)) return BAD("%s: %s: '%s' not finite", r->name, where, key);
  return 0;
}

static int get_int(rd *r, json_t *o, const char *key, const char *where, long lo, long hi,
                   long *out) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
    return BAD("%s: %s: '%s' missing or not a whole number in [%ld, %ld]", r->name, where, key, lo,
               hi);
  *out = (long)json_integer_value(v);
  return 0;
}

static int get_str(rd *r, json_t *o, const char *key, const char *where, char **out) {
  json_t *v = json_object_get(o, key);
  if (!json_is_string(v)) return BAD("%s: %s: '%s' missing or not a string", r->name, where, key);
  if (!(*out = strdup(json_string_value(v))))
    return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
  return 0;
}

static int find_var(const augur_model *m, const char *name) {
  for (size_t i = 0; i < m->nvars; i++)
    if (!strcmp(m->vars[i].name, name)) return (int)i;
  return -1;
}

static int read_nodes(rd *r, augur_model *m, json_t *nodes) {
  size_t nn = json_array_size(nodes);
  if (!json_is_array(nodes) || nn == 0 || nn > 1000000)
    return BAD("%s: 'nodes' missing or empty", r->name);
  if (!(m->nodes = calloc(nn, sizeof *m->nodes)))
    return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
  m->nnodes = nn;
  int *seen = calloc(nn + 1, sizeof *seen);
  if (!seen) return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
  int rc = 0;
  for (size_t i = 0; i < nn && !rc; i++) {
    augur_model_node *nd = &m->nodes[i];
    nd->split_var = -1;
    nd->split_point = NAN;
    json_t *n = json_array_get(nodes, i);
    char where[64];
    snprintf(where, sizeof where, "node %zu", i + 1);
    long id, parent, depth, left, right, nrows, rank;
    if (!json_is_object(n)) {
      rc = BAD("%s: %s: not an object", r->name, where);
      break;
    }
    if ((rc = get_int(r, n, "id", where, 1, (long)nn, &id)) ||
        (rc = get_int(r, n, "parent", where, 0, (long)nn, &parent)) ||
        (rc = get_int(r, n, "depth", where, 1, (long)nn, &depth)) ||
        (rc = get_int(r, n, "left", where, 0, (long)nn, &left)) ||
        (rc = get_int(r, n, "right", where, 0, (long)nn, &right)) ||
        (rc = get_int(r, n, "nrows", where, 0, LONG_MAX, &nrows)) ||
        (rc = get_int(r, n, "rank", where, 0, (long)m->k, &rank)) ||
        (rc = get_num(r, n, "nobs", where, 0, &nd->nobs)) ||
        (rc = get_num(r, n, "objective", where, 1, &nd->objective)) ||
        (rc = get_num(r, n, "sigma2", where, 1, &nd->sigma2)))
      break;
    if ((size_t)id != i + 1) {
      rc = BAD("%s: %s: id %ld (ids must be 1, 2, ... in order)", r->name, where, id);
      break;
    }
    if ((i == 0) != (parent == 0) || (parent && parent >= id)) {
      rc = BAD("%s: %s: parent %ld is not a node before it", r->name, where, parent);
      break;
    }
    if ((left == 0) != (right == 0) || (left && (left <= id || right <= id || left == right))) {
      rc = BAD("%s: %s: children %ld, %ld are not two later nodes", r->name, where, left, right);
      break;
    }
    if (left && (seen[left]++ || seen[right]++)) {
      rc = BAD("%s: %s: a child is claimed by two nodes", r->name, where);
      break;
    }
    nd->id = (int)id, nd->parent = (int)parent, nd->depth = (int)depth;
    nd->left = (int)left, nd->right = (int)right;
    nd->nrows = (size_t)nrows, nd->rank = (int)rank;
    json_t *c = json_object_get(n, "coefficients");
    if (!json_is_array(c) || json_array_size(c) != m->k) {
      rc = BAD("%s: %s: 'coefficients' is not an array of %zu", r->name, where, m->k);
      break;
    }
    if (!(nd->coef = calloc(m->k, sizeof *nd->coef))) {
      rc = augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
      break;
    }
    for (size_t j = 0; j < m->k && !rc; j++) {
      json_t *v = json_array_get(c, j);
      if (json_is_null(v))
        nd->coef[j] = NAN;
      else if (json_is_number(v) && isfinite(json_number_value(v)))
        nd->coef[j] = json_number_value(v);
      else
        rc = BAD("%s: %s: coefficient %zu is not a number or null", r->name, where, j + 1);
    }
    json_t *ts = json_object_get(n, "tests");
    if (!rc && json_is_array(ts)) {
      if (json_array_size(ts) != m->npartition) {
        rc = BAD("%s: %s: 'tests' is not an array of %zu", r->name, where, m->npartition);
        break;
      }
      if (!(nd->tests = calloc(m->npartition ? m->npartition : 1, sizeof *nd->tests))) {
        rc = augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
        break;
      }
      nd->tested = 1;
      for (size_t v = 0; v < m->npartition && !rc; v++) {
        json_t *t = json_array_get(ts, v);
        if (!json_is_object(t))
          rc = BAD("%s: %s: test %zu is not an object", r->name, where, v + 1);
        else if (!(rc = get_num(r, t, "statistic", where, 1, &nd->tests[v].statistic)) &&
                 !(rc = get_num(r, t, "p_value", where, 1, &nd->tests[v].p_value)))
          rc = get_num(r, t, "p_adjusted", where, 1, &nd->tests[v].p_adjusted);
      }
    } else if (!rc && !json_is_null(ts))
      rc = BAD("%s: %s: 'tests' is not an array or null", r->name, where);
    if (rc || !left) continue;
    json_t *sp = json_object_get(n, "split");
    json_t *sv = json_object_get(sp, "variable");
    int v = json_is_string(sv) ? find_var(m, json_string_value(sv)) : -1;
    int ispart = 0;
    for (size_t q = 0; q < m->npartition; q++)
      ispart |= m->partition[q] == v;
    if (!json_is_object(sp) || v < 0 || !ispart) {
      rc = BAD("%s: %s: 'split' missing or its variable is not a partitioning variable", r->name,
               where);
      break;
    }
    nd->split_var = v;
    const augur_model_var *mv = &m->vars[v];
    if (mv->is_factor) {
      json_t *lv = json_object_get(sp, "levels");
      if (!json_is_object(lv)) {
        rc = BAD("%s: %s: factor split without 'levels'", r->name, where);
        break;
      }
      if (!(nd->split_levels = calloc(mv->nlevels ? mv->nlevels : 1, 1))) {
        rc = augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
        break;
      }
      const char *key;
      json_t *val;
      json_object_foreach(lv, key, val) {
        size_t l = 0;
        while (l < mv->nlevels && strcmp(mv->levels[l], key))
          l++;
        if (l == mv->nlevels || !json_is_integer(val) || json_integer_value(val) < 1 ||
            json_integer_value(val) > 2) {
          rc = BAD("%s: %s: split level '%s' unknown or not sent to 1 or 2", r->name, where, key);
          break;
        }
        nd->split_levels[l] = (signed char)json_integer_value(val);
      }
    } else
      rc = get_num(r, sp, "point", where, 0, &nd->split_point);
  }
  for (size_t i = 1; i < nn && !rc; i++)
    if (seen[i + 1] != 1 || (m->nodes[m->nodes[i].parent - 1].left != (int)i + 1 &&
                             m->nodes[m->nodes[i].parent - 1].right != (int)i + 1))
      rc = BAD("%s: node %zu: not the child of its parent", r->name, i + 1);
  free(seen);
  return rc;
}

static int read_model(rd *r, augur_model *m, json_t *root) {
  if (!json_is_object(root)) return BAD("%s: not a JSON object", r->name);
  json_t *ver = json_object_get(root, "augur_model");
  if (!json_is_integer(ver))
    return BAD("%s: no 'augur_model' version field: not an augur model file", r->name);
  if (json_integer_value(ver) != AUGUR_MODEL_FILE_VERSION)
    return augur_fail(r->err, AUGUR_E_VERSION, "%s: model file version %lld, this augur reads %d",
                      r->name, (long long)json_integer_value(ver), AUGUR_MODEL_FILE_VERSION);
  int rc;
  if ((rc = get_str(r, root, "formula", "model", &m->formula)) ||
      (rc = get_str(r, root, "response", "model", &m->response)))
    return rc;
  json_t *w = json_object_get(root, "weights");
  if (json_is_string(w)) {
    if ((rc = get_str(r, root, "weights", "model", &m->weights))) return rc;
  } else if (!json_is_null(w))
    return BAD("%s: 'weights' is not a string or null", r->name);
  json_t *o = json_object_get(root, "options");
  if (!json_is_object(o)) return BAD("%s: 'options' missing", r->name);
  augur_model_options_default(&m->options);
  long md;
  const char *pr = json_string_value(json_object_get(o, "prune"));
  if ((rc = get_num(r, o, "alpha", "options", 0, &m->options.alpha)) ||
      (rc = get_num(r, o, "minsize", "options", 0, &m->options.minsize)) ||
      (rc = get_num(r, o, "trim", "options", 0, &m->options.trim)) ||
      (rc = get_int(r, o, "maxdepth", "options", 0, INT_MAX, &md)))
    return rc;
  m->options.maxdepth = (int)md;
  m->options.bonferroni = json_is_true(json_object_get(o, "bonferroni"));
  m->options.party_compat = json_is_true(json_object_get(o, "party_compat"));
  if (!pr || (strcmp(pr, "none") && strcmp(pr, "aic") && strcmp(pr, "bic")))
    return BAD("%s: options: 'prune' is not none, aic or bic", r->name);
  m->options.prune = !strcmp(pr, "aic")   ? AUGUR_MODEL_PRUNE_AIC
                     : !strcmp(pr, "bic") ? AUGUR_MODEL_PRUNE_BIC
                                          : AUGUR_MODEL_PRUNE_NONE;
  m->options.weights = m->weights;
  json_t *rows = json_object_get(root, "rows");
  long used, dropped;
  if ((rc = get_int(r, rows, "used", "rows", 0, LONG_MAX, &used)) ||
      (rc = get_int(r, rows, "dropped", "rows", 0, LONG_MAX, &dropped)))
    return rc;
  m->nrows_used = (size_t)used, m->nrows_dropped = (size_t)dropped;
  json_t *vars = json_object_get(root, "variables");
  if (!json_is_array(vars)) return BAD("%s: 'variables' missing", r->name);
  size_t nv = json_array_size(vars);
  if (!(m->vars = calloc(nv ? nv : 1, sizeof *m->vars)))
    return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
  for (size_t i = 0; i < nv; i++) {
    json_t *v = json_array_get(vars, i);
    augur_model_var *mv = &m->vars[i];
    char where[64];
    snprintf(where, sizeof where, "variable %zu", i + 1);
    if (!json_is_object(v)) return BAD("%s: %s is not an object", r->name, where);
    if ((rc = get_str(r, v, "name", where, &mv->name))) return rc;
    m->nvars++;
    if (find_var(m, mv->name) != (int)i) return BAD("%s: variable '%s' twice", r->name, mv->name);
    const char *ty = json_string_value(json_object_get(v, "type"));
    if (!ty || (strcmp(ty, "numeric") && strcmp(ty, "factor")))
      return BAD("%s: %s: 'type' is not numeric or factor", r->name, where);
    mv->is_factor = !strcmp(ty, "factor");
    if (!mv->is_factor) continue;
    json_t *lv = json_object_get(v, "levels");
    if (!json_is_array(lv) || json_array_size(lv) == 0)
      return BAD("%s: %s: factor without 'levels'", r->name, where);
    if (!(mv->levels = calloc(json_array_size(lv), sizeof *mv->levels)))
      return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
    mv->nlevels = json_array_size(lv);
    for (size_t l = 0; l < mv->nlevels; l++) {
      json_t *s = json_array_get(lv, l);
      if (!json_is_string(s))
        return BAD("%s: %s: level %zu is not a string", r->name, where, l + 1);
      if (!(mv->levels[l] = strdup(json_string_value(s))))
        return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
    }
  }
  json_t *co = json_object_get(root, "coefficients");
  size_t k = json_array_size(co);
  if (!json_is_array(co) || k == 0) return BAD("%s: 'coefficients' missing or empty", r->name);
  if (!(m->coef_names = calloc(k, sizeof *m->coef_names)) ||
      !(m->coef_var = calloc(k, sizeof *m->coef_var)))
    return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
  m->k = k;
  for (size_t j = 0; j < k; j++) {
    json_t *s = json_array_get(co, j);
    if (!json_is_string(s)) return BAD("%s: coefficient name %zu is not a string", r->name, j + 1);
    if (!(m->coef_names[j] = strdup(json_string_value(s))))
      return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
    if (!strcmp(m->coef_names[j], "(Intercept)") && j == 0)
      m->coef_var[j] = -1;
    else if ((m->coef_var[j] = find_var(m, m->coef_names[j])) < 0 ||
             m->vars[m->coef_var[j]].is_factor)
      return BAD("%s: coefficient '%s' is not a numeric variable", r->name, m->coef_names[j]);
  }
  json_t *pa = json_object_get(root, "partition");
  if (!json_is_array(pa)) return BAD("%s: 'partition' missing", r->name);
  m->npartition = json_array_size(pa);
  if (!(m->partition = calloc(m->npartition ? m->npartition : 1, sizeof *m->partition)))
    return augur_fail(r->err, AUGUR_E_NOMEM, "%s: out of memory", r->name);
  for (size_t i = 0; i < m->npartition; i++) {
    json_t *s = json_array_get(pa, i);
    if (!json_is_string(s) || (m->partition[i] = find_var(m, json_string_value(s))) < 0)
      return BAD("%s: partitioning variable %zu is not a variable", r->name, i + 1);
  }
  return read_nodes(r, m, json_object_get(root, "nodes"));
}

int augur_model_parse(augur_model **out, const char *name, const char *text, size_t len,
                      augur_error *err) {
  assert(out && name && (text || !len));
  *out = NULL;
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) return augur_fail(err, AUGUR_E_FORMAT, "%s:%d: not JSON: %s", name, je.line, je.text);
  augur_model *m = calloc(1, sizeof *m);
  if (!m) {
    json_decref(root);
    return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
  }
  rd r = {name, err};
  int rc = read_model(&r, m, root);
  json_decref(root);
  if (rc) {
    augur_model_free(m);
    return rc;
  }
  *out = m;
  return AUGUR_OK;
}

int augur_model_read(augur_model **m, const char *path, augur_error *err) {
  assert(m && path);
  *m = NULL;
  char *text;
  size_t len;
  int rc = model_read_file(path, &text, &len, err);
  if (rc) return rc;
  rc = augur_model_parse(m, path, text, len, err);
  free(text);
  return rc;
}
