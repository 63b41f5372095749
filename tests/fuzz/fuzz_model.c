/* augur fuzz target: bytes -> augur_model. First byte even: the rest is a
 * data set CSV (augur_model_table_parse), fitted with 'c1 ~ c2 | c3 + ...'
 * over its first columns when it reads; odd: the rest is a model file
 * (augur_model_parse), then printed, written back and evaluated. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fit_table(const augur_model_table *t) {
  size_t nc = augur_model_table_ncols(t);
  if (nc < 3) return;
  char f[4096];
  int n = snprintf(f, sizeof f, "%s ~ %s |", augur_model_table_name(t, 0),
                   augur_model_table_name(t, 1));
  for (size_t c = 2; c < nc && c < 6 && n > 0 && (size_t)n < sizeof f; c++)
    n += snprintf(f + n, sizeof f - (size_t)n, "%s%s", c > 2 ? " + " : " ",
                  augur_model_table_name(t, c));
  augur_model_options o;
  augur_model_options_default(&o);
  o.minsize = 2;
  augur_error err;
  augur_model *m;
  if (augur_model_fit(&m, t, f, &o, &err) == AUGUR_OK) {
    char *s = augur_model_to_json(m);
    free(s);
    augur_model_free(m);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 1 << 16) return 0;
  augur_error err;
  const char *text = (const char *)data + 1;
  if (data[0] % 2 == 0) {
    augur_model_table *t;
    if (augur_model_table_parse(&t, "fuzz.csv", text, size - 1, &err) == AUGUR_OK) {
      fit_table(t);
      augur_model_table_free(t);
    }
    return 0;
  }
  augur_model *m;
  if (augur_model_parse(&m, "fuzz.json", text, size - 1, &err) != AUGUR_OK) return 0;
  FILE *null = fopen("/dev/null", "w");
  if (null) {
    augur_model_print(m, null);
    fclose(null);
  }
  free(augur_model_to_json(m));
  double x[m->nvars ? m->nvars : 1];
  for (size_t i = 0; i < m->nvars; i++)
    x[i] = 0;
  int node;
  double v;
  augur_model_predict(m, x, &node, &v, &err);
  augur_model_free(m);
  return 0;
}
