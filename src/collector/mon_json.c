/* augur monitoring — a job record as JSON (the -o FILE output of `augur
 * profile`; fields in docs/monitoring.md). Integers stay integers: the
 * counters are 64-bit, json_integer is long long. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "augur/text.h"
#include "mon_store.h"

static json_t *u64(uint64_t v) {
  return json_integer((json_int_t)v);
}

static json_t *counters(const uint64_t *ctr, uint64_t mask) {
  json_t *o = json_object();
  for (int c = 0; c < AUGP_CTR_RESERVED; c++)
    json_object_set_new(o, augp_ctr_names[c], mask & (1u << c) ? u64(ctr[c]) : json_null());
  return o;
}

static json_t *flags(uint64_t f) {
  static const char *const names[] = {"exec",        "mpi",      "gathered",    "forked",
                                      "no_finalize", "bad_time", "omp_runtime", "omp"};
  json_t *a = json_array();
  for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
    if (f & (1u << i)) json_array_append_new(a, json_string(names[i]));
  return a;
}

static json_t *proc_json(const augp_proc *p) {
  json_t *o = json_object();
  json_object_set_new(o, "host", augur_json_text(p->host));
  json_object_set_new(o, "program", augur_json_text(p->program));
  json_object_set_new(o, "pid", u64(p->pid));
  json_object_set_new(o, "ppid", u64(p->ppid));
  json_object_set_new(o, "rank", json_integer(p->rank));
  json_object_set_new(o, "nranks", json_integer(p->nranks));
  json_object_set_new(o, "flags", flags(p->flags));
  json_object_set_new(o, "start_ns", u64(p->start_ns));
  json_object_set_new(o, "end_ns", u64(p->end_ns));
  json_object_set_new(o, "wall_s", json_real((double)(p->end_ns - p->start_ns) / 1e9));
  json_object_set_new(o, "utime_us", u64(p->utime_us));
  json_object_set_new(o, "stime_us", u64(p->stime_us));
  json_object_set_new(o, "maxrss_kb", u64(p->maxrss_kb));
  json_object_set_new(o, "minflt", u64(p->minflt));
  json_object_set_new(o, "majflt", u64(p->majflt));
  json_object_set_new(o, "nvcsw", u64(p->nvcsw));
  json_object_set_new(o, "nivcsw", u64(p->nivcsw));
  json_object_set_new(o, "inblock", u64(p->inblock));
  json_object_set_new(o, "oublock", u64(p->oublock));
  json_object_set_new(o, "counters", counters(p->ctr, p->ctr_mask));
  json_object_set_new(o, "counter_note", augur_json_text(p->counter_note));
  json_t *mpi = json_object();
  for (int c = 0; c < AUGP_NMPI; c++)
    json_object_set_new(mpi, augp_mpi_names[c],
                        json_pack("{s:I,s:I}", "ns", (json_int_t)p->mpi_ns[c], "calls",
                                  (json_int_t)p->mpi_calls[c]));
  json_object_set_new(o, "mpi", mpi);
  json_t *io = json_object();
  for (int c = 0; c < AUGP_NIO; c++)
    json_object_set_new(
        io, augp_io_names[c],
        json_pack("{s:I,s:I}", "ns", (json_int_t)p->io_ns[c], "calls", (json_int_t)p->io_calls[c]));
  json_object_set_new(io, "bytes_read", u64(p->io_bytes_read));
  json_object_set_new(io, "bytes_written", u64(p->io_bytes_written));
  json_object_set_new(o, "io", io);
  json_object_set_new(o, "nthreads", u64(p->nthreads));
  json_t *ths = json_array();
  uint64_t nt = p->nthreads < AUGP_MAX_THREADS ? p->nthreads : AUGP_MAX_THREADS;
  for (uint64_t t = 0; t < nt; t++) {
    const augp_thread *th = &p->threads[t];
    json_t *to = json_object();
    json_object_set_new(to, "tid", u64(th->tid));
    json_object_set_new(to, "start_ns", u64(th->start_ns));
    json_object_set_new(to, "end_ns", u64(th->end_ns));
    json_object_set_new(to, "cpu_ns", u64(th->cpu_ns));
    json_object_set_new(to, "mpi_ns", u64(th->mpi_ns));
    json_object_set_new(to, "io_ns", u64(th->io_ns));
    json_object_set_new(to, "folded", u64(th->nfolded));
    /* OpenMP threads: their user time (outside MPI and the runtime) */
    json_object_set_new(to, "omp_useful_ns",
                        th->flags & AUGP_TF_OMP ? u64(th->ctr[AUGP_CTR_RESERVED]) : json_null());
    json_object_set_new(to, "counters", counters(th->ctr, p->ctr_mask));
    json_array_append_new(ths, to);
  }
  json_object_set_new(o, "threads", ths);
  return o;
}

/* A figure, or null when unknown (< 0). */
static json_t *fig(double v) {
  return v < 0 ? json_null() : json_real(v);
}

/* The job's "efficiencies" (mon_job_pop; docs/monitoring.md). */
static json_t *pop_json(const uint8_t *payload, uint32_t len) {
  mon_pop p;
  mon_job_pop(payload, len, &p);
  json_t *o = json_object();
  json_object_set_new(o, "ranks", json_integer(p.ranks));
  json_object_set_new(o, "run_ns", p.ranks ? json_real(p.run_ns) : json_null());
  json_object_set_new(o, "useful_avg_ns", p.ranks ? json_real(p.useful_avg_ns) : json_null());
  json_object_set_new(o, "useful_max_ns", p.ranks ? json_real(p.useful_max_ns) : json_null());
  json_object_set_new(o, "useful_max_rank",
                      p.ranks ? json_integer(p.useful_max_rank) : json_null());
  json_object_set_new(o, "parallel", fig(p.pe));
  json_object_set_new(o, "load_balance", fig(p.lb));
  json_object_set_new(o, "communication", fig(p.comm));
  /* No trace, no replay on an ideal network: no split of CommE. */
  json_object_set_new(o, "serialisation", json_null());
  json_object_set_new(o, "transfer", json_null());
  json_object_set_new(o, "omp_parallel", fig(p.omp_pe));
  json_object_set_new(o, "trusted", json_boolean(p.trusted));
  json_t *notes = json_array();
  for (const char *at = p.note; *at;) {
    size_t n = strcspn(at, ";");
    json_array_append_new(notes, json_stringn(at, n));
    at += n;
    while (*at == ';' || *at == ' ')
      at++;
  }
  json_object_set_new(o, "notes", notes);
  return o;
}

char *mon_job_json(const uint8_t *payload, uint32_t len) {
  char why[256];
  if (mon_job_validate(payload, len, why, sizeof why) != 0) return NULL;
  augp_job j;
  memcpy(&j, payload, sizeof j);
  char hex[33];
  mon_uid_hex(j.uid, hex);
  json_t *o = json_object();
  json_object_set_new(o, "format", json_string("augur-job-record"));
  json_object_set_new(o, "version", json_integer(1));
  json_object_set_new(o, "record_uid", json_string(hex));
  json_object_set_new(o, "job_id", augur_json_text(j.job_id));
  json_object_set_new(o, "step", augur_json_text(j.step));
  json_object_set_new(o, "cluster", augur_json_text(j.cluster));
  json_object_set_new(o, "user", augur_json_text(j.user));
  json_object_set_new(o, "uid", u64(j.uid_num));
  json_object_set_new(o, "command", augur_json_text(j.command));
  json_object_set_new(o, "level", u64(j.level));
  json_object_set_new(o, "start_ns", u64(j.start_ns));
  json_object_set_new(o, "end_ns", u64(j.end_ns));
  json_object_set_new(o, "exit_status", json_integer(j.exit_status));
  json_t *procs = json_array();
  for (uint64_t i = 0; i < j.nprocs; i++) {
    augp_proc p;
    memcpy(&p, payload + sizeof j + i * sizeof p, sizeof p);
    json_array_append_new(procs, proc_json(&p));
  }
  json_object_set_new(o, "processes", procs);
  json_object_set_new(o, "efficiencies", pop_json(payload, len));
  char *s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(o);
  return s;
}
