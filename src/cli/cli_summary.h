/* augur summary (docs/summary.md): what it computes, and what it takes from
 * the other commands so that every figure comes from the function the
 * command of its detail uses. */
#ifndef AUGUR_CLI_SUMMARY_H
#define AUGUR_CLI_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "augur/diagnose.h"
#include "augur/phases.h"
#include "augur/pop.h"
#include "augur/report.h"
#include "augur/signature.h"
#include "augur/sim.h"

/* diagnose_out.c: POP's sections (augur_pop_sections) as the page's tables
 * of figures; ROWS and SEC hold what FIGS points to. Returns how many. */
size_t cli_pop_figures(const augur_pop *pop, augur_pop_section sec[2],
                       augur_dx_figure rows[2][AUGUR_POP_ROWS], augur_dx_figures figs[2]);

/* cmd_simulate.c: the recorded CPUs against model M (docs/simulate.md
 * "Recorded placement"): M adjusted, up to 4 lines into NOTES/NOTE; M->rank_cpu,
 * when set, is the caller's to free. */
int cli_recorded_cores(augur_trace *t, augur_machine *m, int forced, char notes[4][320],
                       const char *note[4], size_t *n);

/* Everything the summary shows. A section that could not be computed has
 * its error message set ("" when it was) and its results NULL. */
typedef struct cli_summary {
  augur_trace *t;
  const char *inc; /* cli_incomplete's statement, or NULL */
  char incbuf[AUGUR_INCOMPLETE_MAX];
  augur_hosts hosts;
  size_t top; /* findings shown */

  augur_report *report; /* the run's facts (augur report) */
  char report_err[AUGUR_ERROR_MSG_MAX];
  augur_pop pop; /* the efficiencies (augur report) */
  int have_pop;
  char pop_err[AUGUR_ERROR_MSG_MAX];
  augur_diagnosis *dx; /* the findings (augur diagnose) */
  char dx_err[AUGUR_ERROR_MSG_MAX];
  augur_logical *lg; /* the phases (augur phases) */
  augur_phases *ph;
  char ph_err[AUGUR_ERROR_MSG_MAX];

  const char *machine_path; /* --machine: augur simulate on it */
  augur_machine mach;
  augur_sim_result sim;
  augur_sim_graph_stats gs;
  int have_sim;
  char sim_err[AUGUR_ERROR_MSG_MAX];
  char sim_notes[4][320];
  const char *sim_note[4];
  size_t nsim_notes;

  const char *sig_path; /* --signature: its phases and weights */
  augur_signature *sig;
  char sig_err[AUGUR_ERROR_MSG_MAX];
} cli_summary;

/* The relevant phases of P by total time, descending: their indices into
 * P->phase in ORDER (P->nphases entries); returns how many. */
uint32_t cli_summary_phase_order(const augur_phases *p, uint32_t *order);

/* The recorded command line (argv joined by spaces, cut to N - 1 bytes),
 * or "(not recorded)". */
void cli_summary_program(char *b, size_t n, const augur_trace *t);

/* summary_html.c: the page (docs/summary.md). 0, or -1 with ERR set. */
int cli_summary_write_html(const cli_summary *s, FILE *f, augur_error *err);

#endif
