/* augur summary's page (docs/summary.md): one self-contained HTML page,
 * made of the diagnosis page's parts (augur_dx_html_*: head and styles,
 * the tables of figures, the findings, the timeline with its marks and the
 * active-process curve) in the summary's order, plus the run, the phases and
 * the predictions. No script, no external resource; every section links to
 * the contents and names the command that gives its detail. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "augur/timeline.h"
#include "cli_summary.h"

#define SUMMARY_CSS                                                                                \
  "nav#contents{font-size:14px;margin:8px 0 4px}\n"                                                \
  "nav#contents a{margin-right:14px}\n"                                                            \
  "section.part{border-top:1px solid #ddd;margin-top:18px}\n"                                      \
  "p.detail{font-size:12px;color:#555}\n"                                                          \
  "p.unavailable{color:#b00020}\n"                                                                 \
  "h3{font-size:14px;margin:14px 0 6px}\n"

static const struct {
  const char *id, *title;
} parts[] = {{"s-run", "Run"},
             {"s-efficiencies", "Efficiencies"},
             {"s-findings", "Top findings"},
             {"s-timeline", "Timeline"},
             {"s-phases", "Phases"},
             {"s-predictions", "Predictions"}};

static void open_part(FILE *f, int k, int heading) {
  fprintf(f, "<section class=\"part\" id=\"%s\">\n", parts[k].id);
  if (heading) fprintf(f, "<h2>%s</h2>\n", parts[k].title);
}

/* The command that gives the detail (PATH escaped), and the way back. */
static void close_part(FILE *f, const char *command, const char *path, const char *more) {
  fputs("<p class=\"detail\">Detail: <code>", f);
  augur_dx_html_text(f, command);
  fputc(' ', f);
  augur_dx_html_text(f, path);
  if (more) augur_dx_html_text(f, more);
  fputs("</code> &middot; <a href=\"#contents\">contents</a></p>\n</section>\n", f);
}

static void unavailable(FILE *f, const char *msg) {
  fputs("<p class=\"unavailable\">Not available: ", f);
  augur_dx_html_text(f, msg && msg[0] ? msg : "not computed");
  fputs("</p>\n", f);
}

static void fact(FILE *f, const char *key, const char *name, const char *value) {
  fprintf(f, "<tr data-key=\"%s\"><th>%s</th><td>", key, name);
  augur_dx_html_text(f, value);
  fputs("</td></tr>\n", f);
}

static void write_run(FILE *f, const cli_summary *s, const char *path) {
  const augur_trace_info *in = augur_trace_info_get(s->t);
  char b[1024];
  open_part(f, 0, 1);
  fputs("<table id=\"run\" class=\"facts\">\n", f);
  cli_summary_program(b, sizeof b, s->t);
  fact(f, "program", "program", b);
  snprintf(b, sizeof b, "%u", augur_trace_nranks(s->t));
  fact(f, "nranks", "ranks", b);
  snprintf(b, sizeof b, "%u", s->hosts.nhosts);
  fact(f, "hosts", "hosts", b);
  fact(f, "mpi_library", "MPI", in && in->mpi_library ? in->mpi_library : "(not recorded)");
  if (s->report) {
    char wall[32];
    augur_fmt_ns(wall, sizeof wall, s->report->wall_ns);
    snprintf(b, sizeof b, "%s (first MPI_Init to %s)", wall,
             s->report->complete ? "last MPI_Finalize" : "the last event read");
    fprintf(f, "<tr data-key=\"wall_ns\" data-value=\"%llu\"><th>run time</th><td>",
            (unsigned long long)s->report->wall_ns);
    augur_dx_html_text(f, b);
    fputs("</td></tr>\n", f);
    fprintf(f, "<tr data-key=\"events\" data-value=\"%llu\"><th>events</th><td>%llu</td></tr>\n",
            (unsigned long long)s->report->events, (unsigned long long)s->report->events);
  }
  fputs("</table>\n", f);
  if (s->hosts.oversubscribed || s->report_err[0]) {
    fputs("<ul class=\"run-notes\">\n", f);
    if (s->hosts.oversubscribed) {
      snprintf(b, sizeof b, "oversubscribed: %u ranks on %u CPU%s (host %s)", s->hosts.ranks,
               s->hosts.cores, s->hosts.cores > 1 ? "s" : "", s->hosts.host ? s->hosts.host : "");
      fputs("<li class=\"warning\">warning: ", f);
      augur_dx_html_text(f, b);
      fputs("</li>\n", f);
    }
    if (s->report_err[0]) {
      fputs("<li class=\"warning damaged\" id=\"damaged\">damaged: ", f);
      augur_dx_html_text(f, s->report_err);
      fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
  }
  close_part(f, "augur report", path, NULL);
}

static void write_efficiencies(FILE *f, const cli_summary *s, const char *path) {
  open_part(f, 1, !s->have_pop);
  if (s->have_pop) {
    augur_pop_section sec[2];
    augur_dx_figure rows[2][AUGUR_POP_ROWS];
    augur_dx_figures figs[2];
    size_t n = cli_pop_figures(&s->pop, sec, rows, figs);
    augur_dx_html_figures(f, figs, n);
  } else {
    unavailable(f, s->pop_err);
  }
  close_part(f, "augur report", path, NULL);
}

static void write_findings(FILE *f, const cli_summary *s, const char *path) {
  open_part(f, 2, 1);
  if (s->dx) {
    const augur_diagnosis *d = s->dx;
    size_t n = d->nfindings < s->top ? d->nfindings : s->top;
    fprintf(f,
            "<p id=\"verdict\" class=\"%s\">%zu finding%s above %g %% of process-time, "
            "%zu shown (largest first); %zu below the threshold. Their worst instances are red on "
            "the <a href=\"#s-timeline\">timeline</a>.</p>\n",
            d->nfindings ? "found" : "clean", d->nfindings, d->nfindings == 1 ? "" : "s",
            100.0 * d->min_share, n, d->nbelow);
    augur_dx_html_findings(f, d, s->top);
  } else {
    unavailable(f, s->dx_err);
  }
  close_part(f, "augur diagnose", path, " --html FILE");
}

static void write_timeline(FILE *f, const cli_summary *s, const augur_timeline *tl,
                           const char *tl_err, const char *path, augur_error *err, int *rc) {
  open_part(f, 3, 1);
  if (tl) {
    if (augur_dx_html_timeline(f, s->dx, tl, path, err)) *rc = -1;
  } else {
    unavailable(f, tl_err);
  }
  close_part(f, "augur timeline", path, " --html FILE");
}

static void write_phases(FILE *f, const cli_summary *s, const char *path) {
  open_part(f, 4, 1);
  const augur_phases *p = s->ph;
  uint32_t *order = p ? malloc((p->nphases ? p->nphases : 1) * sizeof *order) : NULL;
  if (!p || !order) {
    unavailable(f, p ? "out of memory" : s->ph_err);
    free(order);
    close_part(f, "augur phases", path, NULL);
    return;
  }
  uint32_t n = cli_summary_phase_order(p, order);
  fprintf(f,
          "<p class=\"explain\">PAS2P phases: repeated stretches of the logical trace. %u of %u "
          "relevant (at least %g %% of the run, repeating in the loop of such a phase, or once), "
          "covering %.1f %% of it; largest first.</p>\n",
          p->nrelevant, p->nphases, 100.0 * p->opts.min_share, 100.0 * p->relevant_share);
  if (n) {
    fputs("<table id=\"phases\">\n<tr><th>phase</th><th>weight</th><th>per repetition</th>"
          "<th>total</th><th>share of the run</th><th>calls per repetition</th></tr>\n",
          f);
    for (uint32_t i = 0; i < n; i++) {
      const augur_phase *ph = &p->phase[order[i]];
      char per[32], tot[32];
      augur_fmt_ns(per, sizeof per, (uint64_t)ph->phase_ns);
      augur_fmt_ns(tot, sizeof tot, (uint64_t)ph->total_ns);
      fprintf(f,
              "<tr class=\"phase\" id=\"phase-%u\" data-id=\"%u\" data-weight=\"%llu\" "
              "data-total-ns=\"%.17g\"><td class=\"num\">%u</td><td class=\"num\">%llu</td>"
              "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%.1f %%</td>"
              "<td class=\"num\">%llu</td></tr>\n",
              ph->id, ph->id, (unsigned long long)ph->weight, ph->total_ns, ph->id,
              (unsigned long long)ph->weight, per, tot, 100.0 * ph->share,
              (unsigned long long)ph->events);
    }
    fputs("</table>\n", f);
  } else {
    fputs("<p id=\"no-phases\">No relevant phase.</p>\n", f);
  }
  free(order);
  close_part(f, "augur phases", path, NULL);
}

static void write_machine(FILE *f, const cli_summary *s) {
  fputs("<h3>On machine <code>", f);
  augur_dx_html_text(f, s->mach.name);
  fputs("</code> (<code>augur simulate --machine ", f);
  augur_dx_html_text(f, s->machine_path);
  fputs("</code>)</h3>\n", f);
  if (s->nsim_notes) {
    fputs("<ul class=\"sim-notes\">\n", f);
    for (size_t i = 0; i < s->nsim_notes; i++) {
      fputs("<li class=\"note\">", f);
      augur_dx_html_text(f, s->sim_note[i]);
      fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
  }
  if (!s->have_sim) {
    unavailable(f, s->sim_err);
    return;
  }
  double m = s->gs.measured_seconds, p = s->sim.predicted_seconds;
  fprintf(f,
          "<table id=\"prediction\" class=\"facts\">\n"
          "<tr data-key=\"predicted_seconds\" data-value=\"%.17g\"><th>predicted</th>"
          "<td class=\"num\">%.6f s</td></tr>\n"
          "<tr data-key=\"measured_seconds\" data-value=\"%.17g\"><th>measured</th>"
          "<td class=\"num\">%.6f s</td></tr>\n"
          "<tr><th>difference</th><td class=\"num\">%+.1f %%</td></tr>\n</table>\n",
          p, p, m, m, m > 0 ? 100.0 * (p / m - 1) : 0.0);
}

static void write_signature(FILE *f, const cli_summary *s) {
  fputs("<h3>Signature <code>", f);
  augur_dx_html_text(f, s->sig_path);
  fputs("</code></h3>\n", f);
  const augur_signature *g = s->sig;
  if (!g) {
    unavailable(f, s->sig_err);
    return;
  }
  fputs("<p class=\"explain\">Program <code>", f);
  augur_dx_html_text(f, g->program ? g->program : "(unknown)");
  fprintf(f,
          "</code>, %u ranks, %u phases%s. Base run %.6f s: %.6f s before the phases, %.6f s "
          "in phases not in the signature. A new run's prediction: <code>augur predict "
          "--signature ",
          g->nranks, g->nphases, g->irregular ? " (irregular)" : "", g->base_run_seconds,
          g->base_pre_seconds, g->base_rest_seconds);
  augur_dx_html_text(f, s->sig_path);
  fputs(" -- mpiexec &hellip;</code></p>\n<table id=\"signature-phases\">\n<tr><th>phase</th>"
        "<th>weight</th><th>PhaseET (base)</th><th>weight &times; PhaseET</th><th></th></tr>\n",
        f);
  for (uint32_t i = 0; i < g->nphases; i++) {
    const augur_sig_phase *p = &g->phase[i];
    fprintf(f,
            "<tr class=\"sig-phase\" data-id=\"%u\" data-weight=\"%llu\" data-value=\"%.17g\">"
            "<td class=\"num\">%u</td><td class=\"num\">%llu</td><td class=\"num\">%.6f s</td>"
            "<td class=\"num\">%.6f s</td><td>%s</td></tr>\n",
            p->id, (unsigned long long)p->weight, p->base_seconds, p->id,
            (unsigned long long)p->weight, p->base_seconds, (double)p->weight * p->base_seconds,
            p->late ? "late (estimated)" : "");
  }
  fputs("</table>\n", f);
}

static void write_predictions(FILE *f, const cli_summary *s, const char *path) {
  open_part(f, 5, 1);
  if (!s->machine_path && !s->sig_path)
    fputs("<p id=\"no-predictions\">None asked: <code>--machine MODEL</code> predicts the run on "
          "a machine model (<code>augur simulate</code>), <code>--signature SIG</code> shows a "
          "PAS2P signature's phases and weights (<code>augur signature</code>).</p>\n",
          f);
  if (s->machine_path) write_machine(f, s);
  if (s->sig_path) write_signature(f, s);
  char more[1100];
  snprintf(more, sizeof more, " --machine %s", s->machine_path ? s->machine_path : "MODEL");
  close_part(f, "augur simulate", path, more);
}

int cli_summary_write_html(const cli_summary *s, FILE *f, augur_error *err) {
  assert(s && s->t && f);
  const char *path = augur_trace_path(s->t);
  /* The trace is streamed for the timeline before anything is written. */
  augur_timeline *tl = NULL;
  char tl_err[AUGUR_ERROR_MSG_MAX] = "";
  augur_error terr = {0};
  if (!s->dx)
    snprintf(tl_err, sizeof tl_err, "%s", s->dx_err);
  else if (augur_dx_html_timeline_build(s->dx, s->t, &tl, &terr))
    snprintf(tl_err, sizeof tl_err, "%s", terr.msg);

  char title[1200];
  snprintf(title, sizeof title, "augur summary: %s", path);
  augur_dx_html_head(f, title, SUMMARY_CSS);
  if (s->inc) {
    fputs("<p id=\"incomplete\"><strong>", f);
    augur_dx_html_text(f, s->inc);
    fputs("</strong></p>\n", f);
  }
  fputs("<nav id=\"contents\">", f);
  for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
    fprintf(f, "<a href=\"#%s\">%s</a>", parts[k].id, parts[k].title);
  fputs("</nav>\n", f);
  int rc = 0;
  write_run(f, s, path);
  write_efficiencies(f, s, path);
  write_findings(f, s, path);
  write_timeline(f, s, tl, tl_err, path, err, &rc);
  augur_timeline_free(tl);
  write_phases(f, s, path);
  write_predictions(f, s, path);
  fputs("<p class=\"explain\">Written by <code>augur summary</code>. Times on the timeline are "
        "seconds after the trace start; shares are of the process-time (run length summed over "
        "ranks).</p>\n</body>\n</html>\n",
        f);
  if (rc) return -1;
  if (fflush(f) || ferror(f)) {
    augur_fail(err, AUGUR_E_IO, "summary: writing the HTML page failed: %s",
               errno ? strerror(errno) : "write error");
    return -1;
  }
  return 0;
}
