/* augur summary TRACE [-o PAGE.html] [--json] [--signature SIG] [--machine MODEL] [--top N]
 *
 * The first page a user opens (docs/summary.md): the run, its POP
 * efficiencies, the top findings, the timeline, the phases and, when asked,
 * the predictions; each section from the function its own command uses
 * (augur report, diagnose, phases, simulate), so its figures are the
 * command's. A section that cannot be computed (a damaged trace) says why
 * and the others are still shown. */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "augur/text.h"
#include "cli.h"
#include "cli_phases.h"
#include "cli_report.h"
#include "cli_summary.h"

uint32_t cli_summary_phase_order(const augur_phases *p, uint32_t *order) {
  assert(p && order);
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->nphases; i++)
    if (p->phase[i].relevant) order[n++] = i;
  for (uint32_t i = 1; i < n; i++) /* insertion sort: a handful of phases */
    for (uint32_t j = i; j > 0 && p->phase[order[j]].total_ns > p->phase[order[j - 1]].total_ns;
         j--) {
      uint32_t x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  return n;
}

/* ---- computing ----------------------------------------------------------- */

/* Each of the analyses the page gathers shows its progress line (on a terminal), as its own
 * command does. */
static void compute(cli_summary *s) {
  augur_trace *t = s->t;
  augur_error err = {0};
  cli_progress prog;
  cli_progress_init(&prog, "reading");
  if (augur_report_compute(t, &s->report, cli_progress_ranks, &prog, &err) != AUGUR_OK)
    snprintf(s->report_err, sizeof s->report_err, "%s", err.msg);
  cli_progress_done(&prog);
  memset(&err, 0, sizeof err);
  if (cli_pop_trace(t, 1, &s->pop, &err) == AUGUR_OK)
    s->have_pop = 1;
  else
    snprintf(s->pop_err, sizeof s->pop_err, "%s", err.msg);
  augur_dx_options o;
  memset(&o, 0, sizeof o);
  memset(&err, 0, sizeof err);
  cli_progress_init(&prog, "diagnosing");
  o.progress = cli_progress_events;
  o.progress_arg = &prog;
  if (augur_diagnose(t, &o, &s->dx, &err) < 0) {
    snprintf(s->dx_err, sizeof s->dx_err, "%s", err.msg);
    s->dx = NULL;
  }
  cli_progress_done(&prog);
  augur_phase_opts po;
  augur_phase_opts_default(&po);
  memset(&err, 0, sizeof err);
  int lrc = cli_logical_trace(t, "finding phases: reading", &s->lg, &err);
  if (lrc != AUGUR_OK || augur_phases_detect(s->lg, &po, &s->ph, &err) != AUGUR_OK) {
    snprintf(s->ph_err, sizeof s->ph_err, "%s", err.msg);
    augur_phases_free(s->ph);
    s->ph = NULL;
  }
  if (s->machine_path) {
    memset(&err, 0, sizeof err);
    if (cli_recorded_cores(t, &s->mach, 0, s->sim_notes, s->sim_note, &s->nsim_notes) != CLI_OK)
      snprintf(s->sim_err, sizeof s->sim_err, "the trace's hosts could not be read");
    else {
      cli_progress_init(&prog, "simulating");
      augur_sim_trace_opts so = {.progress = cli_progress_records, .progress_arg = &prog};
      int src = augur_simulate_trace(t, &s->mach, &so, &s->sim, &s->gs, &err);
      cli_progress_done(&prog);
      if (src != AUGUR_OK)
        snprintf(s->sim_err, sizeof s->sim_err, "%s", err.msg);
      else
        s->have_sim = 1;
    }
    free((void *)s->mach.rank_cpu); /* cli_recorded_cores */
    free((void *)s->mach.placement_share);
    s->mach.rank_cpu = NULL;
  }
}

static void release(cli_summary *s) {
  augur_report_free(s->report);
  if (s->have_pop) augur_pop_free(&s->pop);
  augur_diagnosis_free(s->dx);
  augur_phases_free(s->ph);
  augur_logical_free(s->lg);
  if (s->have_sim) augur_sim_result_free(&s->sim);
  augur_signature_free(s->sig);
}

/* ---- text ------------------------------------------------------------------ */

static void heading(const char *title) {
  printf("\n%s\n", title);
}

/* The last line of a section: the command that gives its detail. */
static void detail(const char *command, const char *path, const char *more) {
  printf("  detail: %s %s%s\n", command, path, more ? more : "");
}

void cli_summary_program(char *b, size_t n, const augur_trace *t) {
  assert(b && n && t);
  const augur_trace_info *in = augur_trace_info_get(t);
  size_t len = 0;
  b[0] = '\0';
  for (int i = 0; in && i < in->argc && len + 1 < n; i++) {
    int k = snprintf(b + len, n - len, "%s%s", i ? " " : "", in->argv[i] ? in->argv[i] : "");
    if (k < 0) break;
    len += (size_t)k < n - len ? (size_t)k : n - len - 1;
  }
  if (!b[0]) snprintf(b, n, "(not recorded)");
}

static void text_run(const cli_summary *s) {
  const augur_trace_info *in = augur_trace_info_get(s->t);
  char prog[512], wall[32];
  cli_summary_program(prog, sizeof prog, s->t);
  heading("Run");
  printf("  %-12s %s\n", "program", prog);
  printf("  %-12s %u on %u host%s (%s)\n", "ranks", augur_trace_nranks(s->t), s->hosts.nhosts,
         s->hosts.nhosts == 1 ? "" : "s", in && in->mpi_library ? in->mpi_library : "MPI");
  if (s->report) {
    augur_fmt_ns(wall, sizeof wall, s->report->wall_ns);
    printf("  %-12s %s (first MPI_Init to %s)\n", "run time", wall,
           s->report->complete ? "last MPI_Finalize" : "the last event read");
    printf("  %-12s %llu\n", "events", (unsigned long long)s->report->events);
  }
  if (s->hosts.oversubscribed)
    printf("  warning: oversubscribed: %u ranks on %u CPU%s (host %s)\n", s->hosts.ranks,
           s->hosts.cores, s->hosts.cores > 1 ? "s" : "", s->hosts.host ? s->hosts.host : "");
  if (s->report_err[0]) printf("  damaged: %s\n", s->report_err);
}

static void text_findings(const cli_summary *s) {
  if (!s->dx) {
    heading("Top findings");
    printf("  not available: %s\n", s->dx_err);
    return;
  }
  const augur_diagnosis *d = s->dx;
  size_t n = d->nfindings < s->top ? d->nfindings : s->top;
  char title[96];
  snprintf(title, sizeof title, "Top findings (%zu of %zu, from %g %% of process-time)", n,
           d->nfindings, 100.0 * d->min_share);
  heading(title);
  if (!n) {
    printf("  nothing above the threshold (%zu below it)\n", d->nbelow);
    return;
  }
  printf("  %-2s %-23s %9s %6s %9s %5s  %s\n", "#", "pattern", "lost s", "share", "saving s",
         "ranks", "where");
  for (size_t i = 0; i < n; i++) {
    const augur_dx_finding *f = &d->findings[i];
    /* the call site as augur diagnose's text names it: "main (app.c:81)" */
    const char *where = f->ncallsites && f->callsites ? f->callsites[0].where : "unknown call site";
    const char *more = f->ncallsites > 1 ? " and others" : "";
    const char *id = augur_dx_pattern_id(f->pattern);
    printf("  %-2zu %-23s %9.3f %5.1f%% %9.3f %5u  %s%s\n", i + 1, id ? id : "?", f->seconds,
           100.0 * f->share, f->saving_seconds, f->nranks, where, more);
  }
}

static void text_phases(const cli_summary *s) {
  if (!s->ph) {
    heading("Phases");
    printf("  not available: %s\n", s->ph_err);
    return;
  }
  const augur_phases *p = s->ph;
  char title[96];
  snprintf(title, sizeof title, "Phases (%u relevant of %u, %.1f %% of the run)", p->nrelevant,
           p->nphases, 100.0 * p->relevant_share);
  heading(title);
  uint32_t *order = malloc((p->nphases ? p->nphases : 1) * sizeof *order);
  if (!order) return;
  uint32_t n = cli_summary_phase_order(p, order);
  if (!n) printf("  no relevant phase\n");
  if (n)
    printf("  %-6s %9s %14s %11s %6s\n", "phase", "weight", "per repetition", "total", "share");
  for (uint32_t i = 0; i < n; i++) {
    const augur_phase *ph = &p->phase[order[i]];
    char per[32], tot[32];
    augur_fmt_ns(per, sizeof per, (uint64_t)ph->phase_ns);
    augur_fmt_ns(tot, sizeof tot, (uint64_t)ph->total_ns);
    printf("  %-6u %9llu %14s %11s %5.1f%%\n", ph->id, (unsigned long long)ph->weight, per, tot,
           100.0 * ph->share);
  }
  free(order);
}

static void text_predictions(const cli_summary *s, const char *path) {
  if (!s->machine_path && !s->sig_path) {
    heading("Predictions");
    printf("  none asked: --machine MODEL (augur simulate), --signature SIG (augur signature)\n");
    detail("augur simulate", path, " --machine MODEL");
    return;
  }
  if (s->machine_path) {
    char title[96], more[1100];
    snprintf(title, sizeof title, "Prediction on machine %s", s->mach.name);
    snprintf(more, sizeof more, " --machine %s", s->machine_path);
    heading(title);
    for (size_t i = 0; i < s->nsim_notes; i++)
      printf("  %s\n", s->sim_note[i]);
    if (!s->have_sim)
      printf("  not available: %s\n", s->sim_err);
    else
      printf("  predicted %.6f s, measured %.6f s (%+.1f %%)\n", s->sim.predicted_seconds,
             s->gs.measured_seconds,
             s->gs.measured_seconds > 0
                 ? 100.0 * (s->sim.predicted_seconds / s->gs.measured_seconds - 1)
                 : 0.0);
    detail("augur simulate", path, more);
  }
  if (s->sig_path) {
    printf("\nSignature %s\n", s->sig_path);
    const augur_signature *g = s->sig;
    if (g) {
      printf("  program %s, %u ranks, %u phases%s; base run %.6f s (before the phases %.6f s, "
             "other phases %.6f s)\n",
             g->program ? g->program : "(unknown)", g->nranks, g->nphases,
             g->irregular ? " (irregular)" : "", g->base_run_seconds, g->base_pre_seconds,
             g->base_rest_seconds);
      printf("  %-6s %9s %16s %16s\n", "phase", "weight", "PhaseET (base) s", "W x PhaseET s");
      for (uint32_t i = 0; i < g->nphases; i++) {
        const augur_sig_phase *p = &g->phase[i];
        printf("  %-6u %9llu %16.6f %16.6f%s\n", p->id, (unsigned long long)p->weight,
               p->base_seconds, (double)p->weight * p->base_seconds,
               p->late ? "  late (estimated)" : "");
      }
    } else {
      printf("  not available: %s\n", s->sig_err);
    }
    printf("  detail: augur predict --signature %s -- mpiexec ...   (runs the program)\n",
           s->sig_path);
  }
}

static void write_text(const cli_summary *s) {
  const char *path = augur_trace_path(s->t);
  printf("augur summary: %s\n", path);
  if (s->inc) printf("%s\n", s->inc);
  text_run(s);
  detail("augur report", path, NULL);
  if (s->have_pop) {
    augur_pop_print_text(stdout, &s->pop, s->t, 3);
  } else {
    heading("Efficiencies (POP)");
    printf("  not available: %s\n", s->pop_err);
  }
  detail("augur report", path, NULL);
  text_findings(s);
  detail("augur diagnose", path, " --html FILE");
  heading("Timeline");
  printf("  drawn on the page: augur summary %s -o PAGE.html\n", path);
  detail("augur timeline", path, " -o FILE.html");
  text_phases(s);
  detail("augur phases", path, NULL);
  text_predictions(s, path);
}

/* ---- JSON ------------------------------------------------------------------ */

/* "{"error": MSG}": a section that could not be computed. */
static json_t *unavailable(const char *msg) {
  return json_pack("{s:s}", "error", msg && msg[0] ? msg : "not computed");
}

/* A document a writer printed into a memory stream, parsed back. */
static json_t *parsed(char *buf, size_t len) {
  json_t *j = buf ? json_loadb(buf, len, 0, NULL) : NULL;
  free(buf);
  return j;
}

static json_t *run_json(const cli_summary *s) {
  const augur_trace_info *in = augur_trace_info_get(s->t);
  json_t *o = json_object(), *argv = json_array();
  for (int i = 0; in && argv && i < in->argc; i++)
    json_array_append_new(argv, augur_json_text(in->argv[i]));
  json_object_set_new(o, "program", argv);
  json_object_set_new(o, "mpi_library", augur_json_text(in ? in->mpi_library : NULL));
  json_object_set_new(o, "nranks", json_integer(augur_trace_nranks(s->t)));
  json_object_set_new(o, "hosts", json_integer(s->hosts.nhosts));
  json_object_set_new(o, "oversubscribed_hosts", json_integer(s->hosts.oversubscribed));
  if (s->report) {
    json_object_set_new(o, "events", json_integer((json_int_t)s->report->events));
    json_object_set_new(o, "wall_ns", json_integer((json_int_t)s->report->wall_ns));
    json_object_set_new(o, "complete", json_boolean(s->report->complete));
  }
  json_object_set_new(o, "error", augur_json_text(s->report_err[0] ? s->report_err : NULL));
  return o;
}

static json_t *findings_json(const cli_summary *s, json_t *root) {
  if (!s->dx) return unavailable(s->dx_err);
  char *buf = NULL;
  size_t len = 0;
  augur_error err = {0};
  FILE *m = open_memstream(&buf, &len);
  if (!m) return NULL;
  int rc = augur_diagnosis_write_json(s->dx, m, &err);
  if (fclose(m) || rc < 0) {
    free(buf);
    return NULL;
  }
  json_t *d = parsed(buf, len);
  json_t *all = d ? json_object_get(d, "findings") : NULL;
  json_t *top = json_array();
  for (size_t i = 0; all && top && i < json_array_size(all) && i < s->top; i++)
    json_array_append(top, json_array_get(all, i));
  json_object_set_new(root, "findings_total", json_integer((json_int_t)s->dx->nfindings));
  json_object_set_new(root, "findings_below_threshold", json_integer((json_int_t)s->dx->nbelow));
  json_object_set_new(root, "min_share", json_real(s->dx->min_share));
  json_decref(d);
  return top;
}

static json_t *simulate_json(const cli_summary *s) {
  if (!s->have_sim) return unavailable(s->sim_err);
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) return NULL;
  augur_sim_write_json(m, &s->sim, &s->gs, s->gs.measured_seconds, s->sim_note, s->nsim_notes);
  if (fclose(m)) {
    free(buf);
    return NULL;
  }
  return parsed(buf, len);
}

static json_t *signature_json(const cli_summary *s) {
  const augur_signature *g = s->sig;
  if (!g) return unavailable(s->sig_err);
  json_t *o = json_object(), *a = json_array();
  json_object_set_new(o, "file", augur_json_text(s->sig_path));
  json_object_set_new(o, "program", augur_json_text(g->program));
  json_object_set_new(o, "nranks", json_integer(g->nranks));
  json_object_set_new(o, "irregular", json_boolean(g->irregular));
  json_object_set_new(o, "base_run_seconds", json_real(g->base_run_seconds));
  json_object_set_new(o, "base_pre_seconds", json_real(g->base_pre_seconds));
  json_object_set_new(o, "base_rest_seconds", json_real(g->base_rest_seconds));
  for (uint32_t i = 0; a && i < g->nphases; i++) {
    const augur_sig_phase *p = &g->phase[i];
    json_array_append_new(a, json_pack("{s:I,s:I,s:f,s:b}", "id", (json_int_t)p->id, "weight",
                                       (json_int_t)p->weight, "base_seconds", p->base_seconds,
                                       "late", p->late != 0));
  }
  json_object_set_new(o, "phases", a);
  return o;
}

static int write_json(const cli_summary *s) {
  json_t *root = json_object();
  if (!root) return cli_fail("out of memory writing JSON");
  json_object_set_new(root, "schema", json_string("augur-summary"));
  json_object_set_new(root, "version", json_integer(1));
  json_object_set_new(root, "trace", augur_json_text(augur_trace_path(s->t)));
  json_object_set_new(root, "run", run_json(s));
  char *eff = s->have_pop ? augur_pop_json(&s->pop, s->t) : NULL;
  json_object_set_new(root, "efficiencies",
                      s->have_pop ? parsed(eff, eff ? strlen(eff) : 0) : unavailable(s->pop_err));
  json_object_set_new(root, "findings", findings_json(s, root));
  char *ph = s->ph ? augur_phases_json(s->ph, s->lg, s->t) : NULL;
  json_object_set_new(root, "phases",
                      s->ph ? parsed(ph, ph ? strlen(ph) : 0) : unavailable(s->ph_err));
  json_t *pred = json_object();
  if (s->machine_path) {
    json_t *m = json_object();
    json_object_set_new(m, "file", augur_json_text(s->machine_path));
    json_object_set_new(m, "name", augur_json_text(s->mach.name));
    json_object_set_new(m, "simulate", simulate_json(s));
    json_object_set_new(pred, "machine", m);
  }
  if (s->sig_path) json_object_set_new(pred, "signature", signature_json(s));
  json_object_set_new(root, "predictions", pred);
  char *out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  if (!out) return cli_fail("out of memory writing JSON");
  int rc = cli_print_json(s->t, out, strlen(out), s->inc);
  free(out);
  return rc;
}

/* ---- the command -------------------------------------------------------- */

static int write_page(const cli_summary *s, const char *file) {
  FILE *f = fopen(file, "w");
  if (!f) return cli_fail("cannot write %s: %s", file, strerror(errno));
  augur_error err = {0};
  int rc = cli_summary_write_html(s, f, &err);
  if (fclose(f) && rc == 0) return cli_fail("writing %s failed: %s", file, strerror(errno));
  if (rc < 0) return cli_fail("%s: %s", file, err.msg);
  return CLI_OK;
}

int cmd_summary(int argc, char **argv) {
  const char *page = NULL, *sig = NULL, *machine = NULL;
  int json = 0;
  long long top = 5;
  const cli_opt options[] = {
      CLI_STRING("--output", "-o", "FILE", &page, "a file name",
                 "write the summary as one self-contained HTML page"),
      CLI_FLAG("--json", NULL, &json, "print JSON (schema: docs/summary.md)"),
      CLI_STRING("--signature", NULL, "SIG", &sig, "a signature file",
                 "also show this signature's phases and weights\n"
                 "(augur signature)"),
      CLI_STRING("--machine", NULL, "MODEL", &machine, "a machine model file",
                 "also predict the run on this machine model\n"
                 "(augur simulate --machine MODEL)"),
      CLI_INT("--top", "N", &top, 1, 1000, "show the N largest findings (default 5)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur summary TRACE [-o PAGE.html] [--json] [--signature SIG]\n"
               "                     [--machine MODEL] [--top N]\n"
               "\n"
               "The run at a glance: what ran, its POP efficiencies, the top findings, the\n"
               "timeline (on the page), the phases and, with --machine or --signature, the\n"
               "predictions. Every figure is the one its own command gives (report,\n"
               "diagnose, phases, simulate); each section names that command. Text on the\n"
               "terminal; -o also writes the page. See docs/summary.md.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];

  static cli_summary s; /* large: not on the stack */
  memset(&s, 0, sizeof s);
  s.top = (size_t)top;
  s.machine_path = machine;
  s.sig_path = sig;
  augur_error err = {0};
  augur_machine_default(&s.mach);
  if (machine && augur_machine_load(&s.mach, machine, &err) != AUGUR_OK)
    return cli_fail("%s", err.msg);
  if (sig && augur_signature_read(sig, &s.sig, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  int rc = cli_open_trace(path, &s.t);
  if (rc != CLI_OK) {
    augur_signature_free(s.sig);
    return rc;
  }
  if (augur_trace_hosts(s.t, &s.hosts, &err) != AUGUR_OK) {
    augur_signature_free(s.sig);
    augur_trace_close(s.t);
    return cli_fail("%s", err.msg);
  }
  s.inc = cli_incomplete(s.t, s.incbuf, sizeof s.incbuf);
  compute(&s);
  if (json)
    rc = write_json(&s);
  else
    write_text(&s);
  fflush(stdout);
  if (rc == CLI_OK && page) rc = write_page(&s, page);
  /* As augur report: what could be read is shown, and the status says the
   * trace is damaged. */
  if (rc == CLI_OK && s.report_err[0])
    rc = cli_fail("%s (the summary shows what could be read)", s.report_err);
  release(&s);
  augur_trace_close(s.t);
  return rc;
}
