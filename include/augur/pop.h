/* augur — the POP efficiencies of a run (docs/pop.md): MPI-only and hybrid
 * (multiplicative, POP), and OpenMP's additive form (DLB/TALP), from the
 * thread states of every rank (augur/omp.h) and the run time on an ideal
 * network (augur_simulate_trace on augur_pop_ideal_machine).
 *
 * Definitions (ns, global timeline):
 *   T          latest window end - earliest window start over the ranks
 *              (the window: end of MPI_Init .. start of MPI_Finalize)
 *   Useful_p   the initial thread of rank p: its window minus its MPI time
 *   T_ideal    the simulated run time on the ideal network
 *   LB = avg_p Useful_p / max_p Useful_p      CommE = max_p Useful_p / T
 *   SerE = max_p Useful_p / T_ideal           TE = T_ideal / T
 *   PE = LB x CommE  (= LB x SerE x TE)
 * Hybrid, per thread u = useful + serial (user code), over every thread of
 * the ranks with OpenMP records and the initial thread of the others:
 *   HPE = avg u / T = MPI_PE x OMP_PE; HLBE = avg u / max u;
 *   MPI_LBE = LB, MPI_CE = CommE, MPI_PE = PE; OMP_PE = HPE / MPI_PE;
 *   OMP_LBE = HLBE / MPI_LBE; OMP_CE = OMP_PE / OMP_LBE.
 * TALP (thread time TT = sum over those threads of their rank's window):
 *   I_ser = sum over ranks of (threads - 1) x (window - the initial
 *   thread's region_ns), I_lb and I_sch = the call sites' lb_ns, sched_ns;
 *   OMP serialisation = (TT - I_ser) / TT, load balance = (TT - I_ser -
 *   I_lb) / (TT - I_ser), scheduling = (TT - I_ser - I_lb - I_sch) /
 *   (TT - I_ser - I_lb). */
#ifndef AUGUR_POP_H
#define AUGUR_POP_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/omp.h"
#include "augur/reader.h"
#include "augur/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AUGUR_POP_NOTES    8
#define AUGUR_POP_NOTE_MAX AUGUR_INCOMPLETE_MAX

/* One parallel-region call site of one rank (augur/omp.h). */
typedef struct augur_pop_region {
  uint32_t rank;
  augur_omp_site site;
} augur_pop_region;

typedef struct augur_pop {
  uint32_t nranks;   /* ranks with a window */
  double t_ns;       /* T */
  double t_ideal_ns; /* T_ideal, -1 when unknown (then ser_eff, trans_eff = -1) */
  int ideal_skipped; /* augur_pop_trace was told not to replay (T_ideal unknown) */
  double useful_avg_ns, useful_max_ns;
  uint32_t useful_max_rank;
  double lb, comm_eff, ser_eff, trans_eff, par_eff;
  /* hybrid: 1 when a rank had OpenMP records (else the figures below
   * equal the MPI ones and TALP's are 1) */
  int hybrid;
  uint64_t nthreads; /* threads counted */
  double thread_useful_avg_ns, thread_useful_max_ns;
  double hpe, hlbe, omp_pe, omp_lbe, omp_ce;
  double thread_ns, ser_ns, lb_ns, sched_ns; /* TALP's TT, I_ser, I_lb, I_sch */
  double omp_ser_eff, omp_lb_eff, omp_sched_eff;
  /* OpenMP begin/end records that did not pair (augur/omp.h): the hybrid
   * figures are not to be trusted when not 0 (the text and JSON say so in
   * their hybrid part, so the MPI part reads as for an MPI-only trace). */
  uint64_t unbalanced;
  /* Threads other than a rank's initial one with MPI time: their MPI calls
   * are not in Useful_p (MPI_THREAD_MULTIPLE; augur_pop_trace notes it). */
  uint64_t mpi_threads;
  /* What the figures cannot be trusted for (oversubscribed, incomplete,
   * damaged, no ideal time); trusted = 0 when any. */
  int trusted;
  size_t nnotes;
  char notes[AUGUR_POP_NOTES][AUGUR_POP_NOTE_MAX];
  /* augur_pop_trace: every rank's parallel regions, by elapsed time
   * descending (augur_pop_compute leaves them NULL / 0). */
  size_t nregions;
  augur_pop_region *regions;
} augur_pop;

/* The efficiencies of N ranks' states and T_IDEAL_NS (< 0: unknown). No
 * notes are added. Ranks without a window are left out. */
AUGUR_API void augur_pop_compute(const augur_rank_states *ranks, uint32_t n, double t_ideal_ns,
                                 augur_pop *out);
/* The ideal network (docs/pop.md): M gets zero latency and per-call
 * overhead, infinite bandwidth, no contention, every message eager, and
 * one core per rank at the recorded speed. */
AUGUR_API void augur_pop_ideal_machine(augur_machine *m);
/* Everything for trace T: the thread states of every rank, T_ideal (when
 * IDEAL: the replay on the ideal network is one more streamed pass, the
 * largest part of the cost; without it T_ideal is unknown and
 * ideal_skipped set, not a note), and the notes. A damaged rank is used up
 * to its damage (and noted); a simulation failure leaves T_ideal unknown
 * (noted). Fails only when out of memory. */
AUGUR_API int augur_pop_trace(augur_trace *t, int ideal, augur_pop *out, augur_error *err);
/* augur_pop_trace, with PROGRESS(CTX, records, the trace's records) called as the replay on
 * the ideal network goes (augur_sim_trace_opts.progress); PROGRESS may be NULL. */
AUGUR_API int augur_pop_trace_progress(augur_trace *t, int ideal, augur_progress_fn progress,
                                       void *ctx, augur_pop *out, augur_error *err);
/* Frees what augur_pop_trace allocated (the regions). */
AUGUR_API void augur_pop_free(augur_pop *p);

/* One figure as the text block shows it: NAME, its DEPTH under the figure
 * it is a factor of (0: a top figure), VALUE (< 0: unknown), WHAT (its
 * formula or what it measures) and KEY (its JSON key in its section's
 * object: "load_balance", "talp.omp_scheduling"). */
typedef struct augur_pop_row {
  const char *key, *name, *what;
  int depth;
  double value;
} augur_pop_row;

#define AUGUR_POP_ROWS 8

/* One section of the block: its title, its warnings (notes, without the
 * "warning: " prefix), its figures and the line under them (detail, ""
 * when none). Notes point into the augur_pop or into the section. */
typedef struct augur_pop_section {
  char title[96];
  size_t nnotes;
  const char *notes[AUGUR_POP_NOTES];
  char note[AUGUR_POP_NOTE_MAX];
  size_t nrows;
  augur_pop_row rows[AUGUR_POP_ROWS];
  char detail[256];
} augur_pop_section;

/* The sections of P's block, as every output shows them (the text of
 * augur report, the page of augur diagnose --html): SEC[0] the MPI figures
 * (no rows when no rank has a window: its detail says so), SEC[1] the
 * hybrid ones when P has OpenMP records and a rank has a window. Returns
 * the number of sections (1 or 2); valid while P is. */
AUGUR_API size_t augur_pop_sections(const augur_pop *p, augur_pop_section sec[2]);

/* The "Efficiencies (POP)" block of augur report, and its JSON object
 * (docs/pop.md; malloc'd, NULL when out of memory). T (may be NULL) names
 * the regions' call sites; the text lists the TOP longest regions. */
AUGUR_API void augur_pop_print_text(FILE *f, const augur_pop *p, augur_trace *t, int top);
AUGUR_API char *augur_pop_json(const augur_pop *p, augur_trace *t);

#ifdef __cplusplus
}
#endif
#endif
