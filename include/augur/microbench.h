/* augur — the microbenchmarks of `augur calibrate --openmp` and the seed's
 * analytic model of a master/worker iteration built on them (`augur model
 * analytic`; docs/model.md "Analytic baseline", docs/simulate.md
 * "Microbenchmarks").
 *
 * The figures travel in the machine model file as one more section,
 * [microbench], which the simulator's reader skips:
 *
 *   [microbench]
 *   msg_BYTES = S        ping-pong half round trip of BYTES bytes (best)
 *   parallel_T = S       empty parallel region of T threads (fork/join)
 *   barrier_T = S        one barrier among T threads
 *   for_T = S            one empty for schedule(static) among T threads
 *   bandwidth_T = B      STREAM triad with T threads, bytes/s
 *   mem_latency = S      one dependent load from memory
 *
 * The measuring programs print them as text lines (the protocol):
 *   pingpong BYTES MEDIAN BEST MEAN          (augur-calibrate-<flavour>)
 *   omp T PARALLEL BARRIER FOR BANDWIDTH     (augur-calibrate-omp)
 *   memlatency S                             (augur-calibrate-omp) */
#ifndef AUGUR_MICROBENCH_H
#define AUGUR_MICROBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AUGUR_MB_MAX_THREADS 256
#define AUGUR_MB_MAX_SIZES   40

/* A figure not measured is -1. */
typedef struct augur_microbench {
  double parallel[AUGUR_MB_MAX_THREADS]; /* [T - 1]: s */
  double barrier[AUGUR_MB_MAX_THREADS];
  double forloop[AUGUR_MB_MAX_THREADS];
  double bandwidth[AUGUR_MB_MAX_THREADS]; /* bytes/s */
  double msg_bytes[AUGUR_MB_MAX_SIZES];   /* ascending, distinct */
  double msg_time[AUGUR_MB_MAX_SIZES];    /* s */
  size_t nsizes;
  double mem_latency; /* s */
} augur_microbench;

/* Sets every figure to "not measured". */
void augur_mb_init(augur_microbench *b);

/* Takes one protocol line into B (other lines are ignored, as are thread
 * counts outside 1..AUGUR_MB_MAX_THREADS, sizes past AUGUR_MB_MAX_SIZES and
 * figures that are not finite numbers >= 0). A message size's cost is its
 * BEST time: on a machine shared with other work the least sample is the
 * machine's own cost (the OpenMP figures are least samples too). A size or
 * thread count given twice keeps its last figures. */
void augur_mb_line(augur_microbench *b, const char *line);

/* Whether B has what augur_mb_write needs: fork/join and for figures for
 * some thread count. */
int augur_mb_has_openmp(const augur_microbench *b);

/* Writes B as the [microbench] section (keys above, with comments). */
int augur_mb_write(FILE *out, const augur_microbench *b);

/* Reads the [microbench] section of machine file PATH (other sections are
 * not looked at). Fails with one line naming the file:
 *  - AUGUR_E_MISSING / AUGUR_E_IO: the file cannot be read;
 *  - AUGUR_E_FORMAT: "PATH:LINE: KEY: ..." for a bad key or value in the
 *    section; "PATH: no [microbench] section (write one with `augur
 *    calibrate --openmp`)"; fewer than 2 message sizes; a thread count with
 *    a parallel figure and no for figure or the reverse. */
int augur_mb_load(augur_microbench *b, const char *path, augur_error *err);

/* Cost of one message of BYTES >= 0 bytes: linear between the two
 * measured sizes around it, and beyond the largest at the pace of the two
 * largest (their slope). B has >= 2 sizes (augur_mb_load checks it). */
double augur_mb_message(const augur_microbench *b, double bytes);

/* ---- The seed's approach A (docs/model.md "Analytic baseline") -------- */

/* A program's messages and work as functions of the workload W and the
 * workers K: bytes = a + b W + c W / K; per-thread work elements x =
 * W^e / (K T) (e = 1: w1, e = 2: w2). */
typedef struct augur_analytic_app {
  double send[3];     /* master -> each worker */
  double recv[3];     /* each worker -> master */
  int power;          /* e */
  double per_element; /* s per work element (augur_analytic_calibrate) */
  double master;      /* s: the master's own work per iteration (fitted) */
} augur_analytic_app;

/* One iteration's terms (eq. 3.1), seconds. */
typedef struct augur_analytic_terms {
  double master;  /* mu_m */
  double sends;   /* lambda_m-w: K sends, one after another */
  double compute; /* per_element x */
  double omp;     /* Theta(T): parallel_T + for_T */
  double reply;   /* lambda_w-m: the last worker's reply */
  double t_iter;  /* their sum */
} augur_analytic_terms;

/* Parses a byte count such as "32*W", "48*W/workers", "16*W + 8", "10080"
 * into A (a + b W + c W / workers). Terms: NUMBER, NUMBER*W, NUMBER*W/workers,
 * W, W/workers, joined by '+'. Fails (AUGUR_E_ARG) with "WHAT: expected ...
 * got 'TEXT'", A unchanged. */
int augur_analytic_bytes(const char *text, const char *what, double a[3], augur_error *err);

/* The OpenMP overhead Theta(T) of one parallel region holding one for
 * loop: parallel_T + for_T; -1 when B has no figures for T threads. */
double augur_analytic_omp(const augur_microbench *b, long threads);

/* Fits APP's per_element and master from one measured run at workload W, K
 * workers, T threads whose workers computed T_COMP_WORKER s per iteration
 * (OpenMP overhead included) and whose iteration took T_ITER s:
 * per_element = (T_COMP_WORKER - Theta(T)) / x; master = T_ITER - the
 * other terms at that run (>= 0), so the model reproduces the run. (The
 * trace's master computation is not taken: a master that sleeps while it
 * waits, the mw_* apps' -s, shows its sleep as computation.)
 * Fails (AUGUR_E_ARG) when B has no figures for T threads, when a time is
 * not a finite number >= 0, or when T_COMP_WORKER <= Theta(T) ("the
 * calibration run's worker computation ... is not more than the OpenMP
 * overhead ..."). */
int augur_analytic_calibrate(augur_analytic_app *app, const augur_microbench *b, double w, long k,
                             long t, double t_comp_worker, double t_iter, augur_error *err);

/* Evaluates eq. 3.1 at W > 0, K >= 1 workers, T >= 1 threads into OUT.
 * Fails (AUGUR_E_ARG) when B has no figures for T threads, or a message
 * size comes out negative ("send bytes at W=..: -8"). */
int augur_analytic_eval(const augur_analytic_app *app, const augur_microbench *b, double w, long k,
                        long t, augur_analytic_terms *out, augur_error *err);

#ifdef __cplusplus
}
#endif

#endif
