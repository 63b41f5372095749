/* augur graph / graph files in augur simulate (src/cli/cmd_graph.c). */
#ifndef AUGUR_CMD_GRAPH_H
#define AUGUR_CMD_GRAPH_H

#include <stdint.h>

#include "augur/sim.h"

typedef struct gfile_sim_opts {
  uint64_t seed;        /* --seed (default 1) */
  long long runs;       /* --runs (default 1) */
  const char **classes; /* --class NAME=COUNT */
  int nclasses;
  int json;
} gfile_sim_opts;

/* `augur simulate FILE` for a graph file: expands it (once per run) and
 * simulates on M. Returns a CLI_* status. */
int cmd_simulate_gfile(const char *path, const augur_machine *m, const gfile_sim_opts *o);

/* A graph file rather than a trace (a directory)? */
int gfile_is_graph_path(const char *path);

/* Checks a --class NAME=COUNT value (prints a usage error; returns -1). */
int gfile_check_class_opt(const char *val);

#endif
