/* augur_model — the formula `y ~ x1 + x2 | z1 + z2`. */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "augur/model.h"

void augur_model_formula_free(augur_model_formula *f) {
  if (!f) return;
  free(f->response);
  for (size_t i = 0; i < f->nregressors; i++)
    free(f->regressors[i]);
  free(f->regressors);
  for (size_t i = 0; i < f->npartition; i++)
    free(f->partition[i]);
  free(f->partition);
  memset(f, 0, sizeof *f);
}

static int name_char(int c) {
  return isalnum(c) || c == '_' || c == '.';
}

/* [a, b) trimmed. */
static void trim(const char **a, const char **b) {
  while (*a < *b && isspace((unsigned char)**a))
    (*a)++;
  while (*b > *a && isspace((unsigned char)(*b)[-1]))
    (*b)--;
}

static char *dup_range(const char *a, const char *b) {
  char *s = malloc((size_t)(b - a) + 1);
  if (s) {
    memcpy(s, a, (size_t)(b - a));
    s[b - a] = 0;
  }
  return s;
}

static int check_name(const char *a, const char *b) {
  if (a == b || isdigit((unsigned char)*a)) return 0;
  for (const char *p = a; p < b; p++)
    if (!name_char((unsigned char)*p)) return 0;
  return 1;
}

/* Terms of [a, b) separated by '+' (and one "- 1"); names into *names. */
static int parse_terms(const char *a, const char *b, const char *what, int allow_intercept,
                       int *intercept, char ***names, size_t *n, augur_error *err) {
  trim(&a, &b);
  if (a == b) return augur_fail(err, AUGUR_E_ARG, "formula: the %s part is empty", what);
  size_t cap = 1;
  for (const char *p = a; p < b; p++)
    cap += *p == '+' || *p == '-';
  *names = calloc(cap, sizeof **names);
  if (!*names) return augur_fail(err, AUGUR_E_NOMEM, "formula: out of memory");
  int sign = 1;
  const char *p = a;
  for (;;) {
    const char *q = p;
    while (q < b && *q != '+' && *q != '-')
      q++;
    const char *s = p, *e = q;
    trim(&s, &e);
    if (s == e) return augur_fail(err, AUGUR_E_ARG, "formula: an empty term in the %s part", what);
    if ((e - s == 1 && (*s == '1' || *s == '0'))) {
      if (!allow_intercept)
        return augur_fail(err, AUGUR_E_ARG, "formula: '%c' in the %s part", *s, what);
      int keep = (*s == '1') == (sign > 0);
      *intercept = keep;
    } else if (!check_name(s, e)) {
      return augur_fail(err, AUGUR_E_ARG, "formula: '%.*s' in the %s part is not a column name",
                        (int)(e - s), s, what);
    } else if (sign < 0) {
      return augur_fail(err, AUGUR_E_ARG, "formula: '- %.*s': only '- 1' may be subtracted",
                        (int)(e - s), s);
    } else {
      for (size_t i = 0; i < *n; i++)
        if (strlen((*names)[i]) == (size_t)(e - s) && !memcmp((*names)[i], s, (size_t)(e - s)))
          return augur_fail(err, AUGUR_E_ARG, "formula: '%.*s' twice in the %s part", (int)(e - s),
                            s, what);
      if (!((*names)[(*n)++] = dup_range(s, e)))
        return augur_fail(err, AUGUR_E_NOMEM, "formula: out of memory");
    }
    if (q == b) break;
    sign = *q == '+' ? 1 : -1;
    p = q + 1;
  }
  return AUGUR_OK;
}

int augur_model_formula_parse(augur_model_formula *f, const char *text, augur_error *err) {
  assert(f && text);
  memset(f, 0, sizeof *f);
  f->intercept = 1;
  const char *tilde = strchr(text, '~');
  if (!tilde)
    return augur_fail(err, AUGUR_E_ARG, "formula '%s': no '~' (expected 'y ~ x1 + x2 | z1 + z2')",
                      text);
  const char *bar = strchr(tilde, '|');
  if (!bar)
    return augur_fail(err, AUGUR_E_ARG,
                      "formula '%s': no '|' before the partitioning variables "
                      "(expected 'y ~ x1 + x2 | z1 + z2')",
                      text);
  if (strchr(bar + 1, '|') || strchr(tilde + 1, '~'))
    return augur_fail(err, AUGUR_E_ARG, "formula '%s': one '~' and one '|' expected", text);
  const char *a = text, *b = tilde;
  trim(&a, &b);
  if (!check_name(a, b))
    return augur_fail(err, AUGUR_E_ARG, "formula '%s': the response '%.*s' is not a column name",
                      text, (int)(b - a), a);
  int rc;
  if (!(f->response = dup_range(a, b)))
    rc = augur_fail(err, AUGUR_E_NOMEM, "formula: out of memory");
  else if ((rc = parse_terms(tilde + 1, bar, "regressor", 1, &f->intercept, &f->regressors,
                             &f->nregressors, err)) == AUGUR_OK) {
    int dummy = 1;
    rc = parse_terms(bar + 1, text + strlen(text), "partitioning", 0, &dummy, &f->partition,
                     &f->npartition, err);
  }
  if (rc == AUGUR_OK && !f->intercept && f->nregressors == 0)
    rc = augur_fail(err, AUGUR_E_ARG, "formula '%s': no intercept and no regressor", text);
  if (rc != AUGUR_OK) augur_model_formula_free(f);
  return rc;
}
