/* augur_model_table_add_column: a computed weight column fits exactly as the
 * same weights read from the CSV; a name already there is refused.
 * Usage: test_model_table FIXTURE_DIR. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/model.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/synth.csv", argv[1]);
  augur_error err = {0};
  augur_model_table *t;
  if (augur_model_table_read(&t, path, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  size_t n = augur_model_table_nrows(t);
  int wc = augur_model_table_column(t, "w");
  double *w = malloc(n * sizeof *w);
  for (size_t r = 0; r < n; r++)
    w[r] = augur_model_table_value(t, (size_t)wc, r);
  int fails = 0;
  if (augur_model_table_add_column(t, "w", w, &err) != AUGUR_E_ARG) {
    fprintf(stderr, "a second column 'w' was accepted\n");
    fails++;
  }
  if (augur_model_table_add_column(t, "wcopy", w, &err) ||
      augur_model_table_column(t, "wcopy") != (int)augur_model_table_ncols(t) - 1) {
    fprintf(stderr, "add_column: %s\n", err.msg);
    return 1;
  }
  augur_model_options o;
  augur_model_options_default(&o);
  augur_model *a, *b;
  o.weights = "w";
  if (augur_model_fit(&a, t, "y ~ x | z1 + z2 + g", &o, &err))
    return fprintf(stderr, "%s\n", err.msg), 1;
  o.weights = "wcopy";
  if (augur_model_fit(&b, t, "y ~ x | z1 + z2 + g", &o, &err))
    return fprintf(stderr, "%s\n", err.msg), 1;
  if (a->nnodes != b->nnodes || a->nnodes < 3) {
    fprintf(stderr, "%zu nodes with 'w', %zu with 'wcopy'\n", a->nnodes, b->nnodes);
    fails++;
  } else
    for (size_t i = 0; i < a->nnodes; i++)
      for (size_t j = 0; j < a->k; j++)
        if (a->nodes[i].coef[j] != b->nodes[i].coef[j]) {
          fprintf(stderr, "node %zu coefficient %zu differs\n", i + 1, j + 1);
          fails++;
        }
  augur_model_free(a);
  augur_model_free(b);
  augur_model_table_free(t);
  free(w);
  if (!fails) printf("model_table: ok\n");
  return fails ? 1 : 0;
}
