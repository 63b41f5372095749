/* augur_model — evaluating the tree. */
#include "model_int.h"

int augur_model_var_index(const augur_model *m, const char *name) {
  (void)m, (void)name;
  return -1;
}
int augur_model_predict(const augur_model *m, const double *x, int *node, double *value,
                        augur_error *err) {
  (void)m, (void)x, (void)node, (void)value;
  return augur_fail(err, AUGUR_E_STATE, "model predict: not implemented yet");
}
int augur_model_predict_at(const augur_model *m, const char *at, int *node, double *value,
                           augur_error *err) {
  (void)m, (void)at, (void)node, (void)value;
  return augur_fail(err, AUGUR_E_STATE, "model predict: not implemented yet");
}
