/* augur fuzz targets — shared helpers. */
#include "fuzz_common.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "augur/diagnose.h"
#include "augur/phases.h"

static char dir[4096];

/* Removes the scratch trace directory (and its mkdtemp parent) at exit. */
static void cleanup(void) {
  static const char *names[] = {"trace.json", "rank-00000.evt"};
  char path[4200];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  rmdir(dir);
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = '\0';
    rmdir(dir);
  }
}

const char *fz_dir(void) {
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR");
    char base[3000];
    snprintf(base, sizeof base, "%s/augur-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base)) abort();
    snprintf(dir, sizeof dir, "%s/f.augur", base);
    if (mkdir(dir, 0777) != 0) abort();
    atexit(cleanup);
  }
  return dir;
}

void fz_write(const char *name, const uint8_t *data, size_t size) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", fz_dir(), name);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) abort();
  while (size > 0) {
    ssize_t k = write(fd, data, size);
    if (k <= 0) abort();
    data += k;
    size -= (size_t)k;
  }
  close(fd);
}

/* Every event field is read so the sanitizers see uninitialised or wild data. */
static volatile uint64_t sink;

/* merged: the merged stream goes on after a rank's error (each rank's error
 * comes once); a rank stream repeats its error, so stop there. */
static void drain(augur_stream *s, int merged) {
  augur_event e;
  augur_error err;
  int rc;
  for (;;) {
    rc = augur_stream_next(s, &e, &err);
    if (rc == 0) break;
    if (rc < 0) {
      sink += strlen(err.msg);
      if (err.code >= 0) abort(); /* an error must carry a negative code */
      if (!merged) break;
      continue;
    }
    sink += e.t_start ^ e.t_end ^ e.bytes ^ e.bytes_recv ^ e.req ^ e.comm ^ e.hash ^ e.callsite ^
            e.ctr[0] ^ e.ctr[3] ^ (uint64_t)e.peer ^ (uint64_t)e.tag ^ e.aux ^ e.type ^ e.flags ^
            e.rank ^ e.thread;
  }
}

void fz_workout(void) {
  augur_trace *t;
  augur_error err;
  if (augur_trace_open(&t, fz_dir(), &err) != AUGUR_OK) {
    if (err.code >= 0 || !err.msg[0]) abort();
    return;
  }
  const augur_trace_info *in = augur_trace_info_get(t);
  for (int i = 0; i < in->argc; i++)
    sink += strlen(in->argv[i]);
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const char *msg;
    augur_trace_damage(t, r, &msg);
    if (msg) sink += strlen(msg);
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (d && d->host) sink += strlen(d->host);
    for (size_t b = 0; b < augur_trace_nblocks(t, r); b++)
      sink += augur_trace_block(t, r, b)->nevents;
    sink += augur_trace_global_ns(t, r, 12345);
    for (size_t b = 0; b < augur_trace_omp_nblocks(t, r); b++)
      sink += augur_trace_omp_block(t, r, b)->nevents;
    sink += augur_trace_omp_nevents(t, r);
    augur_stream *s;
    if (augur_stream_rank(t, r, &s, &err) == AUGUR_OK) {
      drain(s, 0);
      augur_stream_close(s);
    }
    /* OpenMP records (kind-3 blocks), alone and merged with the MPI ones */
    for (unsigned kinds = AUGUR_KIND_OMP; kinds <= (AUGUR_KIND_MPI | AUGUR_KIND_OMP); kinds++)
      if (augur_stream_rank_kinds(t, r, kinds, &s, &err) == AUGUR_OK) {
        drain(s, 0);
        augur_stream_close(s);
      }
  }
  const augur_omp_meta *om = &in->openmp;
  sink += strlen(om->mode) + strlen(om->runtime) + strlen(om->note) + om->dropped_before_init;
  for (size_t i = 0; i < om->ncallbacks; i++)
    sink += strlen(om->callbacks[i].name) + (uint64_t)om->callbacks[i].result;
  for (size_t i = 0; i < augur_trace_ncomms(t); i++) {
    const augur_comm_def *c = augur_trace_comm_at(t, i);
    for (uint32_t k = 0; k < c->size; k++)
      sink += (uint64_t)c->members[k];
  }
  for (uint32_t i = 1; i <= augur_trace_ncallsites(t); i++) {
    const augur_callsite_def *c = augur_trace_callsite(t, i);
    const augur_module_def *m = augur_trace_module(t, c->module);
    if (m) sink += strlen(m->path);
  }
  for (uint32_t i = 0; i < augur_trace_ncounters(t); i++) {
    const augur_counter_def *c = augur_trace_counter(t, i);
    if (c && c->name) sink += strlen(c->name);
  }
  augur_stream *s;
  if (augur_stream_merged(t, &s, &err) == AUGUR_OK) {
    drain(s, 1);
    augur_stream_close(s);
  }
  if (augur_stream_merged_kinds(t, AUGUR_KIND_MPI | AUGUR_KIND_OMP, &s, &err) == AUGUR_OK) {
    drain(s, 1);
    augur_stream_close(s);
  }
  /* with slack: ranks hand out runs of records (the logical trace's read) */
  if (augur_stream_merged(t, &s, &err) == AUGUR_OK) {
    if (augur_stream_set_slack(s, 1000, &err) != AUGUR_OK) abort();
    drain(s, 1);
    augur_stream_close(s);
  }
  augur_logical *lg;
  if (augur_logical_build(t, &lg, &err) == AUGUR_OK) {
    augur_phases *p;
    if (augur_phases_detect(lg, NULL, &p, &err) == AUGUR_OK) {
      sink += p->nphases;
      augur_phases_free(p);
    }
    augur_logical_free(lg);
  } else if (err.code >= 0 || !err.msg[0]) {
    abort();
  }
  augur_diagnosis *d;
  augur_dx_options o = {.min_share = 1e-9, .bins = 64};
  if (augur_diagnose(t, &o, &d, &err) == AUGUR_OK) {
    FILE *f = fopen("/dev/null", "w");
    if (!f) abort();
    if (augur_diagnosis_write_text(d, f, &err) || augur_diagnosis_write_json(d, f, &err)) abort();
    fclose(f);
    augur_diagnosis_free(d);
  } else if (err.code >= 0 || !err.msg[0]) {
    abort();
  }
  augur_trace_close(t);
}
