/* The efficiencies as aligned text (the "Efficiencies (POP)" block of
 * `augur report`) and as the JSON object "efficiencies" (docs/pop.md). */
#include <assert.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "augur/pop.h"
#include "augur/report.h"
#include "augur/text.h"

static void row(FILE *f, int depth, const char *name, double v, const char *what) {
  char label[64];
  snprintf(label, sizeof label, "%*s%s", 2 * depth, "", name);
  if (v < 0)
    fprintf(f, "  %-30s %6s  %s\n", label, "?", what);
  else
    fprintf(f, "  %-30s %6.3f  %s\n", label, v, what);
}

/* The TOP longest parallel regions: where, rank, instances, elapsed,
 * imbalance (max / avg useful over the team), team. */
static void print_regions(FILE *f, const augur_pop *p, augur_trace *t, int top) {
  if (!p->nregions) return;
  fprintf(f, "  %-34s %5s %9s %11s %9s %5s\n", "parallel region", "rank", "instances", "elapsed",
          "imbalance", "team");
  size_t n = p->nregions < (size_t)top ? p->nregions : (size_t)top;
  for (size_t i = 0; i < n; i++) {
    const augur_pop_region *r = &p->regions[i];
    char where[512], el[32];
    augur_fmt_callsite(where, sizeof where, t, (uint32_t)r->site.callsite);
    augur_fmt_ns(el, sizeof el, r->site.elapsed_ns);
    fprintf(f, "  %-34s %5u %9llu %11s %9.3f %5u\n", where, r->rank,
            (unsigned long long)r->site.instances, el, r->site.imbalance, r->site.team);
  }
  if (p->nregions > n) fprintf(f, "  (%zu more; --json has all)\n", p->nregions - n);
}

static void add(augur_pop_section *s, const char *key, int depth, const char *name, double v,
                const char *what) {
  assert(s->nrows < AUGUR_POP_ROWS);
  s->rows[s->nrows++] = (augur_pop_row){key, name, what, depth, v};
}

size_t augur_pop_sections(const augur_pop *p, augur_pop_section sec[2]) {
  memset(sec, 0, 2 * sizeof *sec);
  augur_pop_section *m = &sec[0], *h = &sec[1];
  snprintf(m->title, sizeof m->title, "Efficiencies (POP)");
  for (size_t i = 0; i < p->nnotes && i < AUGUR_POP_NOTES; i++)
    m->notes[m->nnotes++] = p->notes[i];
  if (!p->nranks) {
    snprintf(m->detail, sizeof m->detail,
             "no rank has a window (MPI_Init .. MPI_Finalize) to measure");
    return 1;
  }
  add(m, "parallel", 0, "parallel efficiency", p->par_eff, "= load balance x communication");
  add(m, "load_balance", 1, "load balance", p->lb, "avg / max useful");
  add(m, "communication", 1, "communication", p->comm_eff, "max useful / run time");
  add(m, "serialisation", 2, "serialisation", p->ser_eff, "max useful / ideal-network run time");
  add(m, "transfer", 2, "transfer", p->trans_eff, "ideal-network / measured run time");
  char avg[32], mx[32], run[32], ideal[48] = "?";
  augur_fmt_ns(avg, sizeof avg, (uint64_t)p->useful_avg_ns);
  augur_fmt_ns(mx, sizeof mx, (uint64_t)p->useful_max_ns);
  augur_fmt_ns(run, sizeof run, (uint64_t)p->t_ns);
  if (p->t_ideal_ns >= 0)
    augur_fmt_ns(ideal, sizeof ideal, (uint64_t)p->t_ideal_ns);
  else if (p->ideal_skipped)
    snprintf(ideal, sizeof ideal, "not computed (--no-ideal)");
  snprintf(m->detail, sizeof m->detail,
           "useful avg %s, max %s (rank %u); run time %s, on an ideal network %s", avg, mx,
           p->useful_max_rank, run, ideal);
  if (!p->hybrid) return 1;
  /* Its own section: the one above is what an MPI-only trace shows. */
  snprintf(h->title, sizeof h->title, "Efficiencies (POP, hybrid MPI+OpenMP: %llu threads)",
           (unsigned long long)p->nthreads);
  if (p->unbalanced) {
    snprintf(h->note, sizeof h->note,
             "%llu OpenMP begin/end records did not pair (a thread's records cut short): "
             "closed at the thread's last record",
             (unsigned long long)p->unbalanced);
    h->notes[h->nnotes++] = h->note;
  }
  add(h, "parallel", 0, "hybrid parallel efficiency", p->hpe, "= MPI x OpenMP parallel efficiency");
  add(h, "mpi_parallel", 1, "MPI parallel efficiency", p->par_eff, "as above");
  add(h, "omp_parallel", 1, "OpenMP parallel efficiency", p->omp_pe,
      "= OpenMP load balance x other");
  add(h, "omp_load_balance", 2, "OpenMP load balance", p->omp_lbe,
      "thread load balance / MPI load balance");
  add(h, "omp_other", 2, "OpenMP other", p->omp_ce, "fork, join, sync, idle threads");
  add(h, "talp.omp_serialisation", 0, "OpenMP serialisation (TALP)", p->omp_ser_eff,
      "other threads outside regions");
  add(h, "talp.omp_load_balance", 0, "OpenMP load balance (TALP)", p->omp_lb_eff, "inside regions");
  add(h, "talp.omp_scheduling", 0, "OpenMP scheduling (TALP)", p->omp_sched_eff, "inside regions");
  return 2;
}

static void print_section(FILE *f, const augur_pop_section *s) {
  fprintf(f, "\n%s\n", s->title);
  for (size_t i = 0; i < s->nnotes; i++)
    fprintf(f, "  warning: %s\n", s->notes[i]);
  for (size_t i = 0; i < s->nrows; i++)
    row(f, s->rows[i].depth, s->rows[i].name, s->rows[i].value, s->rows[i].what);
  if (s->detail[0]) fprintf(f, "  %s\n", s->detail);
}

void augur_pop_print_text(FILE *f, const augur_pop *p, augur_trace *t, int top) {
  augur_pop_section sec[2];
  size_t n = augur_pop_sections(p, sec);
  for (size_t i = 0; i < n; i++)
    print_section(f, &sec[i]);
  if (n > 1) print_regions(f, p, t, top < 1 ? 1 : top);
}

/* A figure: null when unknown (negative). */
typedef struct field {
  const char *key;
  double v;
} field;

static json_t *object(const field *f, size_t n) {
  json_t *o = json_object();
  for (size_t i = 0; o && i < n; i++)
    json_object_set_new(o, f[i].key, f[i].v < 0 ? json_null() : json_real(f[i].v));
  return o;
}

#define OBJECT(...)                                                                                \
  object((const field[]){__VA_ARGS__}, sizeof((const field[]){__VA_ARGS__}) / sizeof(field))

static json_t *u64s(const uint64_t *v, uint32_t n) {
  json_t *a = json_array();
  for (uint32_t i = 0; a && i < n; i++)
    json_array_append_new(a, json_integer((json_int_t)v[i]));
  return a;
}

/* Every rank's parallel regions (docs/pop.md). */
static json_t *regions_json(const augur_pop *p, augur_trace *t) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < p->nregions; i++) {
    const augur_pop_region *r = &p->regions[i];
    const augur_omp_site *s = &r->site;
    char where[512];
    augur_fmt_callsite(where, sizeof where, t, (uint32_t)s->callsite);
    json_t *o = OBJECT({"elapsed_ns", (double)s->elapsed_ns}, {"imbalance", s->imbalance},
                       {"load_imbalance_ns", s->lb_ns}, {"scheduling_ns", s->sched_ns});
    json_object_set_new(o, "rank", json_integer(r->rank));
    json_object_set_new(o, "callsite", json_integer((json_int_t)s->callsite));
    json_object_set_new(o, "where", augur_json_text(where));
    json_object_set_new(o, "instances", json_integer((json_int_t)s->instances));
    json_object_set_new(o, "team", json_integer(s->team));
    json_object_set_new(o, "useful_ns", u64s(s->useful_ns, s->team));
    json_object_set_new(o, "iterations", u64s(s->iterations, s->team));
    json_object_set_new(o, "chunks", u64s(s->chunks, s->team));
    json_array_append_new(a, o);
  }
  return a;
}

char *augur_pop_json(const augur_pop *p, augur_trace *t) {
  json_t *o = OBJECT(
      {"run_ns", p->t_ns}, {"ideal_run_ns", p->t_ideal_ns}, {"useful_avg_ns", p->useful_avg_ns},
      {"useful_max_ns", p->useful_max_ns}, {"parallel", p->par_eff}, {"load_balance", p->lb},
      {"communication", p->comm_eff}, {"serialisation", p->ser_eff}, {"transfer", p->trans_eff});
  json_t *h =
      OBJECT({"thread_useful_avg_ns", p->thread_useful_avg_ns},
             {"thread_useful_max_ns", p->thread_useful_max_ns}, {"parallel", p->hpe},
             {"load_balance", p->hlbe}, {"mpi_parallel", p->par_eff}, {"mpi_load_balance", p->lb},
             {"mpi_communication", p->comm_eff}, {"omp_parallel", p->omp_pe},
             {"omp_load_balance", p->omp_lbe}, {"omp_other", p->omp_ce});
  json_t *talp = OBJECT({"thread_ns", p->thread_ns}, {"outside_regions_ns", p->ser_ns},
                        {"load_imbalance_ns", p->lb_ns}, {"scheduling_ns", p->sched_ns},
                        {"omp_serialisation", p->omp_ser_eff}, {"omp_load_balance", p->omp_lb_eff},
                        {"omp_scheduling", p->omp_sched_eff});
  json_t *notes = json_array();
  for (size_t i = 0; notes && i < p->nnotes; i++)
    json_array_append_new(notes, json_string(p->notes[i]));
  char *s = NULL;
  if (o && h && talp && notes) {
    json_object_set_new(o, "trusted", json_boolean(p->trusted));
    json_object_set_new(o, "notes", notes);
    json_object_set_new(o, "ranks", json_integer(p->nranks));
    json_object_set_new(o, "useful_max_rank", json_integer(p->useful_max_rank));
    json_object_set_new(o, "ideal_computed", json_boolean(!p->ideal_skipped));
    json_object_set_new(h, "openmp", json_boolean(p->hybrid));
    json_object_set_new(h, "trusted", json_boolean(p->trusted && !p->unbalanced));
    json_object_set_new(h, "threads", json_integer((json_int_t)p->nthreads));
    json_object_set_new(h, "unbalanced_records", json_integer((json_int_t)p->unbalanced));
    json_object_set_new(h, "talp", talp);
    json_object_set_new(h, "regions", regions_json(p, t));
    json_object_set_new(o, "hybrid", h);
    s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  } else {
    json_decref(notes);
    json_decref(talp);
    json_decref(h);
  }
  json_decref(o);
  return s;
}
