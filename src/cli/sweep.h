/* augur sweep — what one run of the grid measures from its trace and its
 * output (sweep_trace.c), for cmd_sweep.c. docs/model.md "sweep". */
#ifndef AUGUR_CLI_SWEEP_H
#define AUGUR_CLI_SWEEP_H

#include <stddef.h>
#include <stdint.h>

/* The OMP_AFFINITY_FORMAT every run gets (with OMP_DISPLAY_AFFINITY=TRUE):
 * each OpenMP thread prints its process id, thread number and the CPUs it
 * may run on, once, when its first parallel region starts. */
#define SWEEP_AFFINITY_TAG    "augur-affinity"
#define SWEEP_AFFINITY_FORMAT SWEEP_AFFINITY_TAG " %P %n %A"

/* The machine's caches and packages (hwloc), in the order of the affinity
 * columns: every L2, every L3, every package. */
typedef struct sweep_topo sweep_topo;

/* Loads this machine's topology. NULL (after one line on stderr) when
 * hwloc cannot. */
sweep_topo *sweep_topo_load(void);
void sweep_topo_free(sweep_topo *t);
/* Affinity columns: tl2_0.. pl2_0.. tl3_0.. pl3_0.. ts_0.. ps_0.. */
size_t sweep_topo_ncols(const sweep_topo *t);
/* Column K's name into BUF (N bytes). */
void sweep_topo_colname(const sweep_topo *t, size_t k, char *buf, size_t n);

/* What one run measured. A value that could not be measured is NaN (an
 * empty CSV cell); status says why. */
typedef struct sweep_measure {
  const char *status; /* "ok", "incomplete", "no_cycle", "unreadable" */
  char note[1100];    /* what went wrong, for stderr ("" when ok) */
  double iterations;
  double t_iter, t_iter_sd;
  double t_app;
  double t_comp_master, t_comp_worker, t_comm, t_wait;
  double cores_used, oversubscribed;
  int elsewhere;    /* 1: a rank ran on another host than this one: placement
                       columns left empty (NaN), the topology is this machine's */
  double *affinity; /* sweep_topo_ncols values, owned by the caller */
} sweep_measure;

/* Measures the trace in DIR and the run's output in LOG (its stdout and
 * stderr, for the affinity lines and the app's "t_iter_median" line) into
 * M (M->affinity must hold sweep_topo_ncols(TOPO) values). Never fails: what
 * it could not measure is NaN with M->status and M->note saying why. */
void sweep_measure_run(const char *dir, const char *log, const sweep_topo *topo, sweep_measure *m);

/* The program's own per-iteration time from its output: the number after
 * the first word "t_iter_median" (separated by blanks, '=' or ':'); NaN if
 * none. */
double sweep_app_time(const char *log);

#endif
