/* augur phases: the seed's Table 2.5 as text and JSON (docs/phases.md). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "augur/phases.h"

static const char *base_name(const char *p) {
  const char *s = p ? strrchr(p, '/') : NULL;
  return s ? s + 1 : p;
}

/* "stencil.c:125" / "main" / "site 7" / "?" for a call site. */
static void site_text(augur_trace *t, uint32_t cs, char *buf, size_t n) {
  augur_srcloc loc = {0};
  if (cs && t && augur_trace_resolve(t, cs, &loc) == AUGUR_OK && loc.file)
    snprintf(buf, n, "%s:%d", base_name(loc.file), loc.line);
  else if (cs && loc.function)
    snprintf(buf, n, "%s", loc.function);
  else if (cs)
    snprintf(buf, n, "site %u", cs);
  else
    snprintf(buf, n, "?");
}

static const char *work_unit(const augur_logical *lg) {
  if (lg->work_counter < 0) return "compute ns";
  if (strstr(lg->work_name, "clock")) return "CPU ns";
  return "count";
}

static const char *mode_name(int mode) {
  return mode == AUGUR_PHASES_RANK ? "rank" : "global";
}

void augur_phases_print_text(FILE *f, const augur_phases *p, const augur_logical *lg,
                             augur_trace *t) {
  const char *path = t ? augur_trace_path(t) : "";
  if (p->mode == AUGUR_PHASES_GLOBAL)
    fprintf(f, "%s: global logical trace, %u ranks, %llu calls, %llu ticks\n", path, lg->nranks,
            (unsigned long long)lg->nevents, (unsigned long long)lg->nticks);
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
  fprintf(f, "; relevant: >= %.1f%% of the run\n", p->opts.min_share * 100);
  fprintf(f, "run %.6f s; %u phases, %u relevant covering %.1f%% of the run; PET %.6f s\n\n",
          p->run_ns * 1e-9, p->nphases, p->nrelevant, p->relevant_share * 100, p->pet_ns * 1e-9);
  const char *wcol = lg->work_counter < 0              ? "comp ns/rank"
                     : augur_logical_work_is_count(lg) ? "instr/rank"
                                                       : "cpu ns/rank";
  fprintf(f, "%5s %7s %7s %14s %9s %12s %13s %6s  %s\n", "phase", "ticks", "events", wcol, "weight",
          "PhaseET(s)", "PhaseETxW(s)", "% run", "bounds (first .. last call)");
  uint32_t hidden = 0;
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    if (!ph->relevant) {
      hidden++;
      continue;
    }
    char a[128], b[128];
    site_text(t, ph->first_callsite, a, sizeof a);
    site_text(t, ph->last_callsite, b, sizeof b);
    fprintf(f, "%5u %7llu %7llu %14.0f %9llu %12.6f %13.6f %6.2f  %s@%s .. %s@%s, %u rank%s%s\n",
            ph->id, (unsigned long long)ph->nunits, (unsigned long long)ph->events, ph->work,
            (unsigned long long)ph->weight, ph->phase_ns * 1e-9, ph->total_ns * 1e-9,
            ph->share * 100, augur_event_name(ph->first_type), a, augur_event_name(ph->last_type),
            b, ph->nranks, ph->nranks == 1 ? "" : "s", ph->irregular ? " (no repeat)" : "");
  }
  if (hidden)
    fprintf(f, "\n%u phase%s below %.1f%% of the run not shown (--json lists all)\n", hidden,
            hidden == 1 ? "" : "s", p->opts.min_share * 100);
  fprintf(f, "%s: per repetition and rank (%s); PhaseET: time per repetition%s\n", wcol,
          lg->work_counter < 0 ? "the gaps between calls" : lg->work_name,
          p->mode == AUGUR_PHASES_GLOBAL ? ", mean over ranks" : " on that rank");
}

static json_t *bound_json(augur_trace *t, uint32_t rank, unsigned type, uint32_t cs) {
  char s[128];
  site_text(t, cs, s, sizeof s);
  return json_pack("{s:I, s:s, s:I, s:s}", "rank", (json_int_t)rank, "call", augur_event_name(type),
                   "callsite", (json_int_t)cs, "location", s);
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
  json_object_set_new(root, "trace", json_string(t ? augur_trace_path(t) : ""));
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
                      lg->work_counter >= 0 ? json_string(lg->work_name) : json_null());
  json_object_set_new(work, "unit", json_string(work_unit(lg)));
  json_object_set_new(root, "work", work);
  json_object_set_new(root, "options",
                      json_pack("{s:f, s:f, s:f, s:I}", "volume_tolerance", p->opts.volume_tol,
                                "work_similarity", p->opts.work_sim, "min_share", p->opts.min_share,
                                "max_period", (json_int_t)p->opts.max_period));
  json_object_set_new(root, "run_seconds", json_real(p->run_ns * 1e-9));
  json_object_set_new(root, "aet_seconds", json_real(p->aet_ns * 1e-9));
  json_object_set_new(root, "pet_seconds", json_real(p->pet_ns * 1e-9));
  json_object_set_new(root, "relevant_share", json_real(p->relevant_share));
  json_object_set_new(root, "nphases", json_integer(p->nphases));
  json_object_set_new(root, "nrelevant", json_integer(p->nrelevant));
  for (uint32_t i = 0; i < p->nphases; i++) {
    const augur_phase *ph = &p->phase[i];
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(ph->id));
    json_object_set_new(o, "relevant", json_boolean(ph->relevant));
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
    json_object_set_new(o, "nranks", json_integer(ph->nranks));
    json_t *runs = json_array();
    for (uint32_t k = 0; k < ph->nruns; k++)
      json_array_append_new(runs, json_pack("[I, I]", (json_int_t)ph->runs[k].first_unit,
                                            (json_int_t)ph->runs[k].count));
    json_object_set_new(o, "runs", runs);
    json_object_set_new(o, "first",
                        bound_json(t, ph->first_rank, ph->first_type, ph->first_callsite));
    json_object_set_new(o, "last", bound_json(t, ph->last_rank, ph->last_type, ph->last_callsite));
    json_array_append_new(arr, o);
  }
  json_object_set_new(root, "phases", arr);
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
