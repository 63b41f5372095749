/* augur_model — growing the tree (partykit's mob with lmtree's fit). */
#include <assert.h>
#include <stdlib.h>

#include "model_int.h"

void augur_model_options_default(augur_model_options *o) {
  assert(o);
  *o = (augur_model_options){.alpha = 0.05, .bonferroni = 1, .trim = 0.1};
}

int augur_model_fit(augur_model **m, const augur_model_table *t, const char *formula,
                    const augur_model_options *o, augur_error *err) {
  (void)t, (void)formula, (void)o;
  *m = NULL;
  return augur_fail(err, AUGUR_E_STATE, "model fit: not implemented yet");
}

void augur_model_free(augur_model *m) {
  free(m);
}
