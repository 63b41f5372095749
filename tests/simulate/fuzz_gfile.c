/* libFuzzer target: bytes -> graph-file parser; what parses is expanded
 * (small limits) and simulated, written back with augur graph's writer, and
 * that text must parse and expand again. Errors must be one line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/simgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(const augur_error *err) {
  if (!err->msg[0] || strchr(err->msg, '\n')) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  augur_gfile *f = NULL;
  augur_error err = {0};
  if (augur_gfile_parse(&f, (const char *)data, size, "fuzz", &err) != AUGUR_OK) {
    one_line(&err);
    return 0;
  }
  /* Keep expansions small: at most 64 ranks a class, 20000 operations. */
  for (uint32_t i = 0; i < augur_gfile_nclasses(f); i++)
    if (augur_gfile_class_count(f, i) > 64)
      augur_gfile_set_count(f, augur_gfile_class_name(f, i), 64, &err);
  augur_sim_graph *g = NULL;
  if (augur_gfile_expand(f, 1, 20000, &g, &err) != AUGUR_OK) {
    one_line(&err);
    augur_gfile_free(f);
    return 0;
  }
  /* The simulator must finish (or report a stall) on whatever expands. */
  augur_machine mach;
  augur_machine_default(&mach);
  augur_sim_result res;
  if (augur_simulate(g, &mach, &res, &err) == AUGUR_OK)
    augur_sim_result_free(&res);
  else
    one_line(&err);
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  augur_gfile_write_opts o = {0};
  if (!m || augur_gfile_write(m, g, &o, &err) != AUGUR_OK) abort();
  fclose(m);
  augur_gfile *f2 = NULL;
  augur_sim_graph *g2 = NULL;
  if (augur_gfile_parse(&f2, buf, len, "written", &err) != AUGUR_OK) abort();
  if (augur_gfile_expand(f2, 1, 40000, &g2, &err) != AUGUR_OK) {
    fprintf(stderr, "written file does not expand: %s\n%s\n", err.msg, buf);
    abort();
  }
  augur_sim_graph_free(g2);
  augur_gfile_free(f2);
  free(buf);
  augur_sim_graph_free(g);
  augur_gfile_free(f);
  return 0;
}
