/* augur phases: the seed's Table 2.5 as text and JSON (docs/phases.md). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"
#include "augur/report.h" /* augur_fmt_callsite */
#include "augur/text.h"

/* What to say when no relevant phase repeats: a signature run of such a
 * program has nothing to time a few repetitions of, and runs to its end. */
#define NO_REPEAT "no repeating phase: PAS2P cannot shorten this run"

static int repeating(const augur_phases *p) {
  for (uint32_t i = 0; i < p->nphases; i++)
    if (p->phase[i].relevant && p->phase[i].weight > 1) return 1;
  return 0;
}

/* The call site's one name (augur_fmt_callsite). */
static void site_text(augur_trace *t, uint32_t cs, char *buf, size_t n) {
  if (t)
    augur_fmt_callsite(buf, n, t, cs);
  else
    snprintf(buf, n, cs ? "call site %u" : "?", cs);
}

static const char *work_unit(const augur_logical *lg) {
  if (lg->work_counter < 0) return "compute ns";
  if (strstr(lg->work_name, "clock")) return "CPU ns";
  return "count";
}

static const char *mode_name(int mode) {
  return mode == AUGUR_PHASES_RANK        ? "rank"
         : mode == AUGUR_PHASES_IRREGULAR ? "irregular"
                                          : "global";
}

static const char *comm_kind_name(uint32_t kind) {
  static const char *names[] = {"world",     "self",  "dup",      "split",  "split_type",
                                "create",    "cart",  "cart_sub", "graph",  "dist_graph",
                                "intercomm", "merge", "other",    "window", "group"};
  return kind < sizeof names / sizeof *names ? names[kind] : "other";
}

/* "MPI_COMM_WORLD" or "cart_sub 0x1234..." for communicator index C (1..). */
static void comm_text(const augur_logical *lg, uint32_t c, char *buf, size_t n) {
  if (!c || c > lg->ncomms) {
    snprintf(buf, n, "?");
    return;
  }
  const augur_lt_comm *lc = &lg->comm[c - 1];
  if (lc->id == AUGUR_COMM_WORLD)
    snprintf(buf, n, "MPI_COMM_WORLD");
  else
    snprintf(buf, n, "%s %#llx", comm_kind_name(lc->kind), (unsigned long long)lc->id);
}

/* The irregular-mode header and PHASE_TABLE (docs/phases.md "Irregular mode"). */
static void print_irregular_head(FILE *f, const augur_phases *p, const augur_logical *lg) {
  char name[96];
  if (!p->irr_comm) {
    fprintf(f, "characteristic communicator: none (no calls)\n");
    return;
  }
  comm_text(lg, p->irr_comm, name, sizeof name);
  fprintf(f, "characteristic communicator: %s", name);
  for (uint32_t i = 0; i < p->irr_ncomms; i++)
    if (p->irr_comms[i].comm == p->irr_comm)
      fprintf(f, " (level %u; groups %llu repetitions of %llu repeating rank phases)",
              p->irr_comms[i].level, (unsigned long long)p->irr_comms[i].score,
              (unsigned long long)p->irr_comms[i].phases);
  fprintf(f, "\n");
  for (uint32_t i = 0; i < p->irr_ncomms; i++) {
    if (p->irr_comms[i].comm == p->irr_comm) continue;
    comm_text(lg, p->irr_comms[i].comm, name, sizeof name);
    fprintf(f, "  other candidate: %s (level %u; groups %llu repetitions of %llu)\n", name,
            p->irr_comms[i].level, (unsigned long long)p->irr_comms[i].score,
            (unsigned long long)p->irr_comms[i].phases);
  }
  fprintf(f, "rank phases: %llu over %llu stretches, %u relevant",
          (unsigned long long)p->irr_rank_phases, (unsigned long long)p->nunits, p->irr_npoints);
  if (!p->irr_npoints) {
    fprintf(f, ": nothing to cluster\n");
    return;
  }
  fprintf(f, " clustered into %u global phases (K-means, elbow over K = 1..%u; SSE", p->nphases,
          p->irr_kmax);
  for (uint32_t k = 0; k < p->irr_kmax && k < 16; k++)
    fprintf(f, " %.3g", p->irr_sse[k]);
  fprintf(f, ")\n");
}

static void print_phase_table(FILE *f, const augur_phases *p, const augur_logical *lg) {
  if (lg->nranks > 32) {
    fprintf(f, "\nPHASE_TABLE: %u ranks, see --json (phases[].ranks)\n", lg->nranks);
    return;
  }
  fprintf(f, "\nPHASE_TABLE (per rank: ticks of the first repetition, weight, PhaseETxW)\n");
  fprintf(f, "%5s %5s %10s %10s %9s %13s\n", "phase", "rank", "tick_first", "tick_last", "weight",
          "PhaseETxW(s)");
  for (uint32_t i = 0; i < p->nphases; i++)
    for (uint32_t r = 0; r < lg->nranks; r++) {
      const augur_phase *ph = &p->phase[i];
      if (!ph->rank_weight[r]) continue;
      fprintf(f, "%5u %5u %10llu %10llu %9llu %13.6f\n", ph->id, r,
              (unsigned long long)ph->rank_tick_first[r], (unsigned long long)ph->rank_tick_last[r],
              (unsigned long long)ph->rank_weight[r], ph->rank_total_ns[r] * 1e-9);
    }
  fprintf(f, "PET: rank %u's sum of PhaseETxW (the largest over ranks)\n", p->pet_rank);
}

/* Relevant phases whose repetitions vary (AUGUR_PHASE_CV_WARN). */
static int varies(const augur_phase *ph) {
  return ph->relevant && ph->weight >= 2 && ph->cv > AUGUR_PHASE_CV_WARN;
}

static void print_varying(FILE *f, const augur_phases *p) {
  for (uint32_t i = 0; i < p->nphases; i++)
    if (varies(&p->phase[i]))
      fprintf(f,
              "warning: phase %u's repetitions vary (CV of their times %.2f > %.2f): its PhaseET "
              "is a mean over different behaviour, and a signature times only a sample of it\n",
              p->phase[i].id, p->phase[i].cv, AUGUR_PHASE_CV_WARN);
}

void augur_phases_print_text(FILE *f, const augur_phases *p, const augur_logical *lg,
                             augur_trace *t) {
  const char *path = t ? augur_trace_path(t) : "";
  if (p->mode == AUGUR_PHASES_GLOBAL)
    fprintf(f, "%s: global logical trace, %u ranks, %llu calls, %llu ticks\n", path, lg->nranks,
            (unsigned long long)lg->nevents, (unsigned long long)lg->nticks);
  else if (p->mode == AUGUR_PHASES_IRREGULAR)
    fprintf(f,
            "%s: irregular mode over the global logical trace, %u ranks, %llu calls, %llu ticks\n",
            path, lg->nranks, (unsigned long long)lg->nevents, (unsigned long long)lg->nticks);
  else
    fprintf(f, "%s: per-process logical trace (EPAS) of rank %u%s, %llu calls\n", path, p->rank,
            p->rank_error ? " (representative)" : "", (unsigned long long)p->nunits);
  fprintf(f, "dependencies: %llu messages, %llu collective instances",
          (unsigned long long)lg->messages, (unsigned long long)lg->collectives);
  if (lg->forced) fprintf(f, ", %llu dropped to break cycles", (unsigned long long)lg->forced);
  fprintf(f, "\n");
  if (lg->work_counter >= 0)
    fprintf(f, "work: counter %s per burst\n", lg->work_name);
  else
    fprintf(f, "work: compute time (the trace has no counters)\n");
  fprintf(f, "similar: volume within %.0f%%, ", p->opts.volume_tol * 100);
  if (p->opts.work_sim > 0)
    fprintf(f, "work >= %.0f%%", p->opts.work_sim * 100);
  else
    fprintf(f, "work not compared (time-based work; --work-sim F to compare)");
  fprintf(f, "; relevant: >= %.1f%% of the run%s\n", p->opts.min_share * 100,
          p->mode == AUGUR_PHASES_IRREGULAR
              ? ""
              : ", or repeating in the loop of such a phase, or once");
  if (p->mode == AUGUR_PHASES_IRREGULAR) print_irregular_head(f, p, lg);
  fprintf(f, "run %.6f s; %u phases, %u relevant covering %.1f%% of the run; PET %.6f s\n",
          p->run_ns * 1e-9, p->nphases, p->nrelevant, p->relevant_share * 100, p->pet_ns * 1e-9);
  if (p->max_period_widened)
    fprintf(f, "no phase repeated within %u ticks: searched up to %u (--max-period N to set it)\n",
            p->max_period_widened, p->opts.max_period);
  if (!repeating(p)) fprintf(f, "%s\n", NO_REPEAT);
  fprintf(f, "\n");
  const char *wcol = lg->work_counter < 0              ? "comp ns/rank"
                     : augur_logical_work_is_count(lg) ? "instr/rank"
                                                       : "cpu ns/rank";
  fprintf(f, "%5s %7s %7s %14s %9s %12s %13s %6s  %s\n", "phase",
          p->mode == AUGUR_PHASES_IRREGULAR ? "stretch" : "ticks", "events", wcol, "weight",
          "PhaseET(s)", "PhaseETxW(s)", "% run", "bounds (first .. last call)");
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    if (!ph->relevant) {
      hidden++;
      continue;
    }
    char a[512], b[512];
    site_text(t, ph->first_callsite, a, sizeof a);
    site_text(t, ph->last_callsite, b, sizeof b);
    char loop[48] = "";
    if (ph->loop_of) snprintf(loop, sizeof loop, " (in phase %u's loop)", ph->loop_of);
    if (ph->kept_free) snprintf(loop, sizeof loop, " (once: kept at no cost)");
    fprintf(f, "%5u %7llu %7llu %14.0f %9llu %12.6f %13.6f %6.2f  %s@%s .. %s@%s, %u rank%s%s%s\n",
            ph->id, (unsigned long long)ph->nunits, (unsigned long long)ph->events, ph->work,
            (unsigned long long)ph->weight, ph->phase_ns * 1e-9, ph->total_ns * 1e-9,
            ph->share * 100, augur_event_name(ph->first_type), a, augur_event_name(ph->last_type),
            b, ph->nranks, ph->nranks == 1 ? "" : "s", ph->irregular ? " (no repeat)" : "", loop);
  }
  print_varying(f, p);
  if (hidden)
    fprintf(f, "\n%u phase%s below %.1f%% of the run not shown (--json lists all)\n", hidden,
            hidden == 1 ? "" : "s", p->opts.min_share * 100);
  fprintf(f, "%s: per repetition and rank (%s); PhaseET: time per repetition%s\n", wcol,
          lg->work_counter < 0 ? "the gaps between calls" : lg->work_name,
          p->mode == AUGUR_PHASES_GLOBAL      ? ", mean over ranks"
          : p->mode == AUGUR_PHASES_IRREGULAR ? ", mean over the ranks' repetitions"
                                              : " on that rank");
  if (p->mode == AUGUR_PHASES_IRREGULAR) print_phase_table(f, p, lg);
}

static json_t *bound_json(augur_trace *t, uint32_t rank, unsigned type, uint32_t cs) {
  char s[512];
  site_text(t, cs, s, sizeof s);
  const char *module = NULL;
  uint64_t offset = 0;
  if (t) augur_callsite_place(t, cs, &module, &offset);
  return json_pack("{s:I, s:s, s:I, s:o, s:o, s:I}", "rank", (json_int_t)rank, "call",
                   augur_event_name(type), "callsite", (json_int_t)cs, "location",
                   augur_json_text(s), "module", augur_json_text(module), "offset",
                   (json_int_t)offset);
}

char *augur_phases_json(const augur_phases *p, const augur_logical *lg, augur_trace *t) {
  json_t *root = json_object();
  json_t *arr = json_array();
  if (!root || !arr) {
    json_decref(root);
    json_decref(arr);
    return NULL;
  }
  json_object_set_new(root, "schema", json_integer(AUGUR_PHASES_SCHEMA));
  json_object_set_new(root, "trace", augur_json_text(t ? augur_trace_path(t) : ""));
  json_object_set_new(root, "mode", json_string(mode_name(p->mode)));
  if (p->mode == AUGUR_PHASES_RANK) {
    json_object_set_new(root, "rank", json_integer(p->rank));
    json_object_set_new(root, "representative", json_boolean(p->rank_error != NULL));
  }
  json_object_set_new(root, "ranks", json_integer(lg->nranks));
  json_object_set_new(root, "calls", json_integer((json_int_t)lg->nevents));
  json_object_set_new(root, "ticks", json_integer((json_int_t)lg->nticks));
  json_object_set_new(root, "units", json_integer((json_int_t)p->nunits));
  json_object_set_new(root, "logical",
                      json_pack("{s:I, s:I, s:I, s:I}", "messages", (json_int_t)lg->messages,
                                "collectives", (json_int_t)lg->collectives, "forced",
                                (json_int_t)lg->forced, "skipped_polls", (json_int_t)lg->skipped));
  json_t *work = json_object();
  json_object_set_new(work, "source",
                      json_string(lg->work_counter >= 0 ? "counter" : "compute_time"));
  json_object_set_new(work, "counter",
                      augur_json_text(lg->work_counter >= 0 ? lg->work_name : NULL));
  json_object_set_new(work, "unit", json_string(work_unit(lg)));
  json_object_set_new(root, "work", work);
  json_object_set_new(root, "options",
                      json_pack("{s:f, s:f, s:f, s:I}", "volume_tolerance", p->opts.volume_tol,
                                "work_similarity", p->opts.work_sim, "min_share", p->opts.min_share,
                                "max_period", (json_int_t)p->opts.max_period));
  if (p->max_period_widened) /* the search went past the first period (max_period auto) */
    json_object_set_new(json_object_get(root, "options"), "max_period_widened_from",
                        json_integer(p->max_period_widened));
  json_object_set_new(root, "run_seconds", json_real(p->run_ns * 1e-9));
  json_object_set_new(root, "aet_seconds", json_real(p->aet_ns * 1e-9));
  json_object_set_new(root, "pet_seconds", json_real(p->pet_ns * 1e-9));
  json_object_set_new(root, "relevant_share", json_real(p->relevant_share));
  json_object_set_new(root, "nphases", json_integer(p->nphases));
  json_object_set_new(root, "nrelevant", json_integer(p->nrelevant));
  json_t *vary = json_array();
  for (uint32_t i = 0; i < p->nphases; i++)
    if (varies(&p->phase[i])) json_array_append_new(vary, json_integer(p->phase[i].id));
  json_object_set_new(root, "quality",
                      json_pack("{s:f, s:o}", "cv_bound", AUGUR_PHASE_CV_WARN, "varying", vary));
  json_object_set_new(root, "repeating_phase", json_boolean(repeating(p)));
  if (!repeating(p)) json_object_set_new(root, "note", json_string(NO_REPEAT));
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(ph->id));
    json_object_set_new(o, "relevant", json_boolean(ph->relevant));
    json_object_set_new(o, "loop_of", ph->loop_of ? json_integer(ph->loop_of) : json_null());
    json_object_set_new(o, "kept_free", json_boolean(ph->kept_free));
    json_object_set_new(o, "repeats", json_boolean(!ph->irregular));
    json_object_set_new(o, "weight", json_integer((json_int_t)ph->weight));
    json_object_set_new(o, "units", json_integer((json_int_t)ph->nunits));
    json_object_set_new(o, "first_unit", json_integer((json_int_t)ph->first_unit));
    json_object_set_new(o, "tick_first", json_integer((json_int_t)ph->tick_first));
    json_object_set_new(o, "tick_last", json_integer((json_int_t)ph->tick_last));
    json_object_set_new(o, "events", json_integer((json_int_t)ph->events));
    json_object_set_new(o, "bytes", json_real(ph->bytes));
    json_object_set_new(o, "work_per_rank", json_real(ph->work));
    json_object_set_new(o, "phase_seconds", json_real(ph->phase_ns * 1e-9));
    json_object_set_new(o, "total_seconds", json_real(ph->total_ns * 1e-9));
    json_object_set_new(o, "share", json_real(ph->share));
    json_object_set_new(o, "cv", json_real(ph->cv));
    json_object_set_new(o, "varies", json_boolean(varies(ph)));
    json_object_set_new(o, "nranks", json_integer(ph->nranks));
    json_t *runs = json_array();
    for (uint32_t k = 0; k < ph->nruns; k++)
      json_array_append_new(runs, json_pack("[I, I]", (json_int_t)ph->runs[k].first_unit,
                                            (json_int_t)ph->runs[k].count));
    json_object_set_new(o, "runs", runs);
    if (ph->rank_weight) {
      json_t *ranks = json_array();
      for (uint32_t r = 0; r < p->nranks; r++)
        if (ph->rank_weight[r])
          json_array_append_new(ranks, json_pack("{s:I, s:I, s:I, s:I, s:f}", "rank", (json_int_t)r,
                                                 "tick_first", (json_int_t)ph->rank_tick_first[r],
                                                 "tick_last", (json_int_t)ph->rank_tick_last[r],
                                                 "weight", (json_int_t)ph->rank_weight[r],
                                                 "total_seconds", ph->rank_total_ns[r] * 1e-9));
      json_object_set_new(o, "ranks", ranks);
    }
    json_object_set_new(o, "first",
                        bound_json(t, ph->first_rank, ph->first_type, ph->first_callsite));
    json_object_set_new(o, "last", bound_json(t, ph->last_rank, ph->last_type, ph->last_callsite));
    json_array_append_new(arr, o);
  }
  json_object_set_new(root, "phases", arr);
  if (p->mode == AUGUR_PHASES_IRREGULAR) {
    json_t *ir = json_object(), *cands = json_array(), *pts = json_array(), *sse = json_array();
    for (uint32_t i = 0; i < p->irr_ncomms; i++) {
      const augur_irr_comm *ic = &p->irr_comms[i];
      const augur_lt_comm *lc = &lg->comm[ic->comm - 1];
      json_array_append_new(cands,
                            json_pack("{s:I, s:s, s:I, s:I, s:I, s:I, s:b}", "id",
                                      (json_int_t)lc->id, "kind", comm_kind_name(lc->kind), "size",
                                      (json_int_t)lc->size, "level", (json_int_t)ic->level, "score",
                                      (json_int_t)ic->score, "repeating_phases",
                                      (json_int_t)ic->phases, "chosen", ic->comm == p->irr_comm));
    }
    for (uint32_t i = 0; i < p->irr_npoints; i++) {
      const augur_irr_point *q = &p->irr_points[i];
      json_array_append_new(
          pts,
          json_pack("{s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}", "rank", (json_int_t)q->rank,
                    "phase", (json_int_t)q->phase, "global_phase", (json_int_t)q->cluster + 1,
                    "weight", (json_int_t)q->weight, "tick_first", (json_int_t)q->tick_first,
                    "work", q->work, "total_seconds", q->total_ns * 1e-9, "x", q->x, "y", q->y));
    }
    for (uint32_t k = 0; k < p->irr_kmax && k < 16; k++)
      json_array_append_new(sse, json_real(p->irr_sse[k]));
    const augur_lt_comm *cc = p->irr_comm ? &lg->comm[p->irr_comm - 1] : NULL;
    json_object_set_new(ir, "comm", cc ? json_integer((json_int_t)cc->id) : json_null());
    json_object_set_new(ir, "candidates", cands);
    json_object_set_new(ir, "rank_phases", json_integer((json_int_t)p->irr_rank_phases));
    json_object_set_new(ir, "k", json_integer(p->nphases));
    json_object_set_new(ir, "sse", sse);
    json_object_set_new(ir, "pet_rank", json_integer(p->pet_rank));
    json_object_set_new(ir, "points", pts);
    json_object_set_new(root, "irregular", ir);
  }
  if (p->rank_error) {
    json_t *rs = json_array();
    for (uint32_t r = 0; r < p->nranks; r++)
      json_array_append_new(rs,
                            json_pack("{s:I, s:I, s:f}", "rank", (json_int_t)r, "nphases",
                                      (json_int_t)p->rank_nphases[r], "error", p->rank_error[r]));
    json_object_set_new(root, "rank_errors", rs);
  }
  char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
  json_decref(root);
  return s;
}
