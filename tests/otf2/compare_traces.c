/* compare_traces A B: exits 0 if the two augur traces have the same
 * trace.json facts, definitions and events (every field of every event of
 * every rank, in each rank's order); otherwise prints the first difference
 * and exits 1. Used to check that OTF2 export -> import is exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "augur/reader.h"

static int fails;

static void diff(const char *what, unsigned long long a, unsigned long long b) {
  if (a == b) return;
  if (fails++ < 20) fprintf(stderr, "compare_traces: %s differs: %llu vs %llu\n", what, a, b);
}
static void sdiff(const char *what, const char *a, const char *b) {
  if ((!a && !b) || (a && b && strcmp(a, b) == 0)) return;
  if (fails++ < 20)
    fprintf(stderr, "compare_traces: %s differs: '%s' vs '%s'\n", what, a ? a : "(null)",
            b ? b : "(null)");
}

static void cmp_info(augur_trace *a, augur_trace *b) {
  const augur_trace_info *x = augur_trace_info_get(a), *y = augur_trace_info_get(b);
  diff("nranks", x->nranks, y->nranks);
  diff("argc", (unsigned)x->argc, (unsigned)y->argc);
  for (int i = 0; i < x->argc && i < y->argc; i++)
    sdiff("argv", x->argv[i], y->argv[i]);
  sdiff("mpi_library", x->mpi_library, y->mpi_library);
  sdiff("mpi_version", x->mpi_version, y->mpi_version);
  sdiff("recorder", x->recorder, y->recorder);
  diff("start_unix_ns", x->start_unix_ns, y->start_unix_ns);
  diff("payload_hash", (unsigned)x->payload_hash, (unsigned)y->payload_hash);
  diff("complete", (unsigned)x->complete, (unsigned)y->complete);
  sdiff("counters_requested", x->counters_requested, y->counters_requested);
}

static void cmp_ranks(augur_trace *a, augur_trace *b) {
  for (uint32_t r = 0; r < augur_trace_nranks(a) && r < augur_trace_nranks(b); r++) {
    const augur_rank_def *x = augur_trace_rank(a, r), *y = augur_trace_rank(b, r);
    diff("rank def present", x != NULL, y != NULL);
    if (!x || !y) continue;
    diff("rank.rank", x->rank, y->rank);
    diff("rank.nranks", x->nranks, y->nranks);
    diff("rank.pid", x->pid, y->pid);
    sdiff("rank.host", x->host, y->host);
    diff("rank.thread_level", (unsigned)x->thread_level, (unsigned)y->thread_level);
    diff("rank.init_ns", x->init_ns, y->init_ns);
    diff("rank.finalize_ns", x->finalize_ns, y->finalize_ns);
    diff("rank.nsync", x->nsync, y->nsync);
    for (uint32_t i = 0; i < x->nsync && i < y->nsync && i < 2; i++) {
      diff("sync.kind", x->sync[i].kind, y->sync[i].kind);
      diff("sync.local_ns", x->sync[i].local_ns, y->sync[i].local_ns);
      diff("sync.offset_ns", (unsigned long long)x->sync[i].offset_ns,
           (unsigned long long)y->sync[i].offset_ns);
      diff("sync.rtt_ns", x->sync[i].rtt_ns, y->sync[i].rtt_ns);
    }
    diff("rank.ncounters", x->ncounters, y->ncounters);
    for (uint32_t i = 0; i < x->ncounters && i < y->ncounters && i < AUGUR_MAX_COUNTERS; i++) {
      diff("counter.index", x->counters[i].index, y->counters[i].index);
      diff("counter.source", x->counters[i].source, y->counters[i].source);
      sdiff("counter.name", x->counters[i].name, y->counters[i].name);
    }
    sdiff("rank.counter_note", x->counter_note, y->counter_note);
  }
}

static void cmp_defs(augur_trace *a, augur_trace *b) {
  diff("ncomms", augur_trace_ncomms(a), augur_trace_ncomms(b));
  for (size_t i = 0; i < augur_trace_ncomms(a) && i < augur_trace_ncomms(b); i++) {
    const augur_comm_def *x = augur_trace_comm_at(a, i), *y = augur_trace_comm_at(b, i);
    diff("comm.id", x->id, y->id);
    diff("comm.parent", x->parent, y->parent);
    diff("comm.kind", x->kind, y->kind);
    diff("comm.size", x->size, y->size);
    for (uint32_t k = 0; k < x->size && k < y->size && x->members && y->members; k++)
      diff("comm.members", (unsigned)x->members[k], (unsigned)y->members[k]);
    diff("comm.remote_size", x->remote_size, y->remote_size);
    for (uint32_t k = 0; k < x->remote_size && k < y->remote_size && x->remote && y->remote; k++)
      diff("comm.remote", (unsigned)x->remote[k], (unsigned)y->remote[k]);
    diff("comm.ndims", x->ndims, y->ndims);
    for (uint32_t k = 0; k < x->ndims && k < y->ndims && k < AUGUR_MAX_DIMS; k++) {
      diff("comm.dims", (unsigned)x->dims[k], (unsigned)y->dims[k]);
      diff("comm.periods", (unsigned)x->periods[k], (unsigned)y->periods[k]);
    }
  }
  diff("ncallsites", augur_trace_ncallsites(a), augur_trace_ncallsites(b));
  for (uint32_t id = 1; id <= augur_trace_ncallsites(a) && id <= augur_trace_ncallsites(b); id++) {
    const augur_callsite_def *x = augur_trace_callsite(a, id), *y = augur_trace_callsite(b, id);
    diff("callsite.offset", x->offset, y->offset);
    const augur_module_def *mx = augur_trace_module(a, x->module),
                           *my = augur_trace_module(b, y->module);
    sdiff("callsite.module", mx ? mx->path : NULL, my ? my->path : NULL);
  }
  diff("ncounters", augur_trace_ncounters(a), augur_trace_ncounters(b));
}

static void cmp_events(augur_trace *a, augur_trace *b) {
  for (uint32_t r = 0; r < augur_trace_nranks(a) && r < augur_trace_nranks(b); r++) {
    augur_stream *sa = NULL, *sb = NULL;
    augur_error err;
    if (augur_stream_rank(a, r, &sa, &err) != AUGUR_OK ||
        augur_stream_rank(b, r, &sb, &err) != AUGUR_OK) {
      fprintf(stderr, "compare_traces: %s\n", err.msg);
      fails++;
      augur_stream_close(sa);
      return;
    }
    augur_event x, y;
    for (uint64_t n = 0;; n++) {
      int ra = augur_stream_next(sa, &x, &err), rb = augur_stream_next(sb, &y, &err);
      char what[64];
      snprintf(what, sizeof what, "rank %u event %llu: more events", r, (unsigned long long)n);
      diff(what, ra, rb);
      if (ra != 1 || rb != 1) break;
#define F(f)                                                                                       \
  snprintf(what, sizeof what, "rank %u event %llu (%s) %s", r, (unsigned long long)n,              \
           augur_event_name(x.type), #f);                                                          \
  diff(what, (unsigned long long)x.f, (unsigned long long)y.f)
      F(t_start);
      F(t_end);
      F(type);
      F(flags);
      F(peer);
      F(tag);
      F(bytes);
      F(bytes_recv);
      F(req);
      F(comm);
      F(hash);
      F(callsite);
      F(aux);
      F(rank);
      F(thread);
      F(ctr[0]);
      F(ctr[1]);
      F(ctr[2]);
      F(ctr[3]);
#undef F
    }
    augur_stream_close(sa);
    augur_stream_close(sb);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: compare_traces A.augur B.augur\n");
    return 2;
  }
  augur_trace *a = NULL, *b = NULL;
  augur_error err;
  if (augur_trace_open(&a, argv[1], &err) != AUGUR_OK ||
      augur_trace_open(&b, argv[2], &err) != AUGUR_OK) {
    fprintf(stderr, "compare_traces: %s\n", err.msg);
    augur_trace_close(a);
    return 1;
  }
  cmp_info(a, b);
  cmp_ranks(a, b);
  cmp_defs(a, b);
  cmp_events(a, b);
  uint64_t n = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(a); r++)
    n += augur_trace_nevents(a, r);
  augur_trace_close(a);
  augur_trace_close(b);
  if (fails) {
    fprintf(stderr, "compare_traces: %d difference(s)\n", fails);
    return 1;
  }
  printf("compare_traces: identical (%llu events)\n", (unsigned long long)n);
  return 0;
}
