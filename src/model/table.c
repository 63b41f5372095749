/* augur_model — the data table: a CSV file as docs/model.md says (header of
 * names, one row per run, empty cell or NA = missing). Numeric columns hold
 * numbers, factor columns level indexes (levels sorted bytewise, as R's
 * factor() in the C locale). */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/model.h"
#include "augur/text.h"
#include "grow.h"
#include "model_int.h"

struct augur_model_table {
  size_t nrows, ncols;
  char **names;
  int *is_factor;
  size_t *nlevels;
  char ***levels;
  double **values; /* [col][row] */
};

void augur_model_table_free(augur_model_table *t) {
  if (!t) return;
  for (size_t c = 0; c < t->ncols; c++) {
    free(t->names[c]);
    if (t->levels && t->levels[c]) {
      for (size_t l = 0; l < t->nlevels[c]; l++)
        free(t->levels[c][l]);
      free(t->levels[c]);
    }
    if (t->values) free(t->values[c]);
  }
  free(t->names);
  free(t->is_factor);
  free(t->nlevels);
  free(t->levels);
  free(t->values);
  free(t);
}

/* A cell: [s, s+n) of the text, with its line number. */
typedef struct cell {
  const char *s;
  size_t n;
} cell;

static int is_missing(const cell *c) {
  return c->n == 0 || (c->n == 2 && !memcmp(c->s, "NA", 2));
}

/* 1 and *v when the cell is a whole number text strtod reads, 0 otherwise. */
static int cell_number(const cell *c, double *v) {
  char buf[128];
  if (c->n == 0 || c->n >= sizeof buf) return 0;
  memcpy(buf, c->s, c->n);
  buf[c->n] = 0;
  char *end;
  errno = 0;
  *v = strtod(buf, &end);
  return end != buf && *end == 0;
}

/* 1 when S is valid UTF-8 (names and levels go into JSON model files). */
static int is_utf8(const char *s) {
  size_t n = strlen(s);
  char *b = malloc(3 * n + 4);
  int ok = b && augur_utf8_repair(s, b, 3 * n + 4) == 0;
  free(b);
  return ok;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *dup_cell(const cell *c) {
  char *s = malloc(c->n + 1);
  if (s) {
    memcpy(s, c->s, c->n);
    s[c->n] = 0;
  }
  return s;
}

/* Splits LINE [p, e) at commas into *cells (grown); *n = number of cells. */
static int split_line(const char *p, const char *e, cell **cells, size_t *cap, size_t *n) {
  *n = 0;
  for (;;) {
    const char *q = p;
    while (q < e && *q != ',')
      q++;
    if (aug_grow((void **)cells, cap, *n + 1, sizeof **cells)) return -1;
    const char *a = p, *b = q;
    while (a < b && (*a == ' ' || *a == '\t'))
      a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
      b--;
    (*cells)[(*n)++] = (cell){a, (size_t)(b - a)};
    if (q == e) return 0;
    p = q + 1;
  }
}

int augur_model_table_parse(augur_model_table **out, const char *name, const char *text, size_t len,
                            augur_error *err) {
  assert(out && name && (text || len == 0));
  *out = NULL;
  augur_model_table *t = calloc(1, sizeof *t);
  cell *cells = NULL, *all = NULL;
  size_t *lineno = NULL;
  size_t ccap = 0, acap = 0, lcap = 0, nall = 0;
  int rc = AUGUR_OK;
  if (!t) return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
  const char *p = text, *end = text + len;
  size_t line = 0;
  int header = 1;
  while (p < end) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    const char *next = e ? e + 1 : end;
    if (!e) e = end;
    line++;
    const char *le = e;
    if (le > p && le[-1] == '\r') le--;
    size_t ll = le > p ? (size_t)(le - p) : 0;
    if (ll && memchr(p, 0, ll)) {
      rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: a NUL byte: not a text file", name, line);
      goto out;
    }
    const char *s = p;
    while (s < le && (*s == ' ' || *s == '\t'))
      s++;
    if (s == le) { /* blank line */
      p = next;
      continue;
    }
    size_t n;
    if (split_line(p, le, &cells, &ccap, &n)) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
      goto out;
    }
    if (header) {
      header = 0;
      t->ncols = n;
      t->names = calloc(n, sizeof *t->names);
      if (!t->names) {
        rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
        goto out;
      }
      for (size_t c = 0; c < n; c++) {
        if (cells[c].n == 0) {
          rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: column %zu has no name", name, line, c + 1);
          goto out;
        }
        if (cells[c].s[0] == '"' || memchr(cells[c].s, '"', cells[c].n)) {
          rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: column %zu: quoted names are not read",
                          name, line, c + 1);
          goto out;
        }
        if (!(t->names[c] = dup_cell(&cells[c]))) {
          rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
          goto out;
        }
        if (!is_utf8(t->names[c])) {
          rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: column %zu: the name is not UTF-8 text",
                          name, line, c + 1);
          goto out;
        }
        for (size_t d = 0; d < c; d++)
          if (!strcmp(t->names[d], t->names[c])) {
            rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: column name '%s' given twice", name, line,
                            t->names[c]);
            goto out;
          }
      }
    } else {
      if (n != t->ncols) {
        rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: %zu cells, the header has %zu", name, line, n,
                        t->ncols);
        goto out;
      }
      if (aug_grow((void **)&all, &acap, nall + n, sizeof *all) ||
          aug_grow((void **)&lineno, &lcap, t->nrows + 1, sizeof *lineno)) {
        rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
        goto out;
      }
      memcpy(all + nall, cells, n * sizeof *cells);
      nall += n;
      lineno[t->nrows++] = line;
    }
    p = next;
  }
  if (header) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: empty: no header line", name);
    goto out;
  }
  if (t->nrows == 0) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: no data rows after the header", name);
    goto out;
  }
  size_t nc = t->ncols, nr = t->nrows;
  t->is_factor = calloc(nc, sizeof *t->is_factor);
  t->nlevels = calloc(nc, sizeof *t->nlevels);
  t->levels = calloc(nc, sizeof *t->levels);
  t->values = calloc(nc, sizeof *t->values);
  if (!t->is_factor || !t->nlevels || !t->levels || !t->values) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
    goto out;
  }
  for (size_t c = 0; c < nc; c++) {
    double *v = t->values[c] = malloc(nr * sizeof *v);
    if (!v) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
      goto out;
    }
    int numeric = 1;
    for (size_t r = 0; r < nr; r++) {
      const cell *x = &all[r * nc + c];
      if (is_missing(x)) {
        v[r] = NAN;
        continue;
      }
      double d;
      if (cell_number(x, &d)) {
        if (!isfinite(d)) {
          rc = augur_fail(err, AUGUR_E_FORMAT,
                          "%s:%zu: column '%s': '%.*s' is not a finite number (leave the cell "
                          "empty for a missing value)",
                          name, lineno[r], t->names[c], (int)x->n, x->s);
          goto out;
        }
        v[r] = d;
      } else
        numeric = 0;
    }
    if (numeric) continue;
    /* factor: distinct non-missing cells, sorted */
    t->is_factor[c] = 1;
    char **lv = NULL;
    size_t nl = 0, lvcap = 0;
    for (size_t r = 0; r < nr; r++) {
      const cell *x = &all[r * nc + c];
      if (is_missing(x)) continue;
      if (aug_grow((void **)&lv, &lvcap, nl + 1, sizeof *lv) || !(lv[nl] = dup_cell(x))) {
        for (size_t i = 0; i < nl; i++)
          free(lv[i]);
        free(lv);
        rc = augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", name);
        goto out;
      }
      nl++;
      if (!is_utf8(lv[nl - 1])) {
        for (size_t i = 0; i < nl; i++)
          free(lv[i]);
        free(lv);
        rc = augur_fail(err, AUGUR_E_FORMAT, "%s:%zu: column '%s': a cell is not UTF-8 text", name,
                        lineno[r], t->names[c]);
        goto out;
      }
    }
    qsort(lv, nl, sizeof *lv, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < nl; i++) {
      if (u && !strcmp(lv[u - 1], lv[i]))
        free(lv[i]);
      else
        lv[u++] = lv[i];
    }
    t->levels[c] = lv;
    t->nlevels[c] = u;
    for (size_t r = 0; r < nr; r++) {
      const cell *x = &all[r * nc + c];
      if (is_missing(x)) {
        v[r] = NAN;
        continue;
      }
      char key[x->n + 1];
      memcpy(key, x->s, x->n);
      key[x->n] = 0;
      const char *kp = key;
      char **hit = bsearch(&kp, lv, u, sizeof *lv, cmp_str);
      assert(hit);
      v[r] = (double)(hit - lv);
    }
  }
out:
  free(cells);
  free(all);
  free(lineno);
  if (rc != AUGUR_OK) {
    augur_model_table_free(t);
    return rc;
  }
  *out = t;
  return AUGUR_OK;
}

int augur_model_table_read(augur_model_table **t, const char *path, augur_error *err) {
  assert(t && path);
  *t = NULL;
  char *text;
  size_t len;
  int rc = model_read_file(path, &text, &len, err);
  if (rc != AUGUR_OK) return rc;
  rc = augur_model_table_parse(t, path, text, len, err);
  free(text);
  return rc;
}

size_t augur_model_table_nrows(const augur_model_table *t) {
  return t->nrows;
}
size_t augur_model_table_ncols(const augur_model_table *t) {
  return t->ncols;
}
const char *augur_model_table_name(const augur_model_table *t, size_t col) {
  assert(col < t->ncols);
  return t->names[col];
}
int augur_model_table_column(const augur_model_table *t, const char *name) {
  for (size_t c = 0; c < t->ncols; c++)
    if (!strcmp(t->names[c], name)) return (int)c;
  return -1;
}
int augur_model_table_is_factor(const augur_model_table *t, size_t col) {
  assert(col < t->ncols);
  return t->is_factor[col];
}
size_t augur_model_table_nlevels(const augur_model_table *t, size_t col) {
  assert(col < t->ncols);
  return t->nlevels[col];
}
const char *augur_model_table_level(const augur_model_table *t, size_t col, size_t level) {
  assert(col < t->ncols && level < t->nlevels[col]);
  return t->levels[col][level];
}
double augur_model_table_value(const augur_model_table *t, size_t col, size_t row) {
  assert(col < t->ncols && row < t->nrows);
  return t->values[col][row];
}

int augur_model_table_add_column(augur_model_table *t, const char *name, const double *values,
                                 augur_error *err) {
  assert(t && name && values);
  if (!*name || augur_model_table_column(t, name) >= 0)
    return augur_fail(err, AUGUR_E_ARG, "data table: column '%s' %s", name,
                      *name ? "already exists" : "needs a name");
  size_t c = t->ncols, nr = t->nrows;
  char **names = realloc(t->names, (c + 1) * sizeof *names);
  if (names) t->names = names;
  int *isf = names ? realloc(t->is_factor, (c + 1) * sizeof *isf) : NULL;
  if (isf) t->is_factor = isf;
  size_t *nl = isf ? realloc(t->nlevels, (c + 1) * sizeof *nl) : NULL;
  if (nl) t->nlevels = nl;
  char ***lv = nl ? realloc(t->levels, (c + 1) * sizeof *lv) : NULL;
  if (lv) t->levels = lv;
  double **vals = lv ? realloc(t->values, (c + 1) * sizeof *vals) : NULL;
  if (vals) t->values = vals;
  double *v = vals ? malloc((nr ? nr : 1) * sizeof *v) : NULL;
  char *nm = v ? strdup(name) : NULL;
  if (!nm) {
    free(v);
    return augur_fail(err, AUGUR_E_NOMEM, "data table: out of memory");
  }
  for (size_t r = 0; r < nr; r++)
    v[r] = isfinite(values[r]) ? values[r] : NAN;
  t->names[c] = nm;
  t->is_factor[c] = 0;
  t->nlevels[c] = 0;
  t->levels[c] = NULL;
  t->values[c] = v;
  t->ncols = c + 1;
  return AUGUR_OK;
}
