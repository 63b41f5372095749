/* augur dump TRACE [--rank R] [--limit N] [--kinds K] — every event, one line each. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/mpiio.h"
#include "augur/report.h"
#include "cli.h"

static void fmt_comm(char *b, size_t n, uint64_t comm) {
  if (comm == AUGUR_COMM_WORLD)
    snprintf(b, n, "world");
  else if (comm == AUGUR_COMM_SELF)
    snprintf(b, n, "self");
  else if (comm == AUGUR_COMM_NONE)
    snprintf(b, n, "-");
  else /* hashed ids: 8 hex digits are plenty to tell them apart by eye */
    snprintf(b, n, "%08llx", (unsigned long long)(comm >> 32));
}

static void fmt_peer(char *b, size_t n, int32_t peer) {
  if (peer == AUGUR_PEER_NONE)
    snprintf(b, n, "-");
  else if (peer == AUGUR_PEER_ANY)
    snprintf(b, n, "any");
  else if (peer == AUGUR_PEER_PROC_NULL)
    snprintf(b, n, "null");
  else
    snprintf(b, n, "%d", peer);
}

static void fmt_tag(char *b, size_t n, int32_t tag) {
  if (tag == AUGUR_TAG_NONE)
    snprintf(b, n, "-");
  else if (tag == AUGUR_TAG_ANY)
    snprintf(b, n, "any");
  else
    snprintf(b, n, "%d", tag);
}

/* Types whose peer/tag fields mean something (others leave them 0). */
static int has_peer(unsigned type) {
  return augur_event_is_p2p_send(type) || augur_event_is_p2p_recv(type) ||
         augur_event_is_collective(type) || (type >= AUGUR_EV_PROBE && type <= AUGUR_EV_IMRECV) ||
         type == AUGUR_EV_SUB_RECV || type == AUGUR_EV_COMPLETION || type == AUGUR_EV_NEIGH_SEND ||
         type == AUGUR_EV_NEIGH_RECV ||
         augur_event_is_rma(type); /* target; tag: lock type, disp_unit */
}

static void print_event(augur_trace *t, const augur_event *ev, uint32_t nctr) {
  char name[48], comm[24], peer[16], tag[16], req[24], site[512], dur[32];
  int sub = augur_event_is_sub(ev->type);
  if (sub && ev->type == AUGUR_EV_COMPLETION)
    snprintf(name, sizeof name, "  %s[%u]", augur_event_name(ev->type), ev->aux);
  else
    snprintf(name, sizeof name, "%s%s", sub ? "  " : "", augur_event_name(ev->type));
  fmt_comm(comm, sizeof comm, ev->comm);
  fmt_peer(peer, sizeof peer, has_peer(ev->type) ? ev->peer : AUGUR_PEER_NONE);
  /* an OpenMP record's tag is its OMPT kind (docs/openmp.md) */
  fmt_tag(tag, sizeof tag,
          has_peer(ev->type) || augur_event_is_omp(ev->type) ? ev->tag : AUGUR_TAG_NONE);
  if (ev->req)
    snprintf(req, sizeof req, "%llx", (unsigned long long)ev->req);
  else
    snprintf(req, sizeof req, "-");
  if (sub)
    dur[0] = 0; /* sub-records share their parent's times */
  else
    augur_fmt_ns(dur, sizeof dur, ev->t_end > ev->t_start ? ev->t_end - ev->t_start : 0);
  augur_fmt_callsite(site, sizeof site, t, (uint32_t)ev->callsite);
  printf("%16.9f %10s %5u %3u  %-26s %-8s %5s %6s %10llu %10llu %12s  %s",
         (double)ev->t_start / 1e9, dur, ev->rank, ev->thread, name, comm, peer, tag,
         (unsigned long long)ev->bytes, (unsigned long long)ev->bytes_recv, req, sub ? "" : site);
  if (!sub && nctr) {
    printf("  [");
    for (uint32_t i = 0; i < nctr && i < AUGUR_MAX_COUNTERS; i++) {
      const augur_counter_def *c = augur_trace_counter(t, i);
      printf("%s%s=%llu", i ? " " : "", c && c->name ? c->name : "ctr",
             (unsigned long long)ev->ctr[i]);
    }
    printf("]");
  }
  if (augur_event_is_io(ev->type) || augur_io_is_completion(ev)) /* docs/trace-format.md */
    augur_io_describe(stdout, ev);
  putchar('\n');
}

int cmd_dump(int argc, char **argv) {
  long long rank = -1, limit = -1;
  const char *kinds_opt = "all";
  const cli_opt options[] = {
      CLI_INT("--rank", "R", &rank, 0, UINT32_MAX, "only rank R"),
      CLI_INT("--limit", "N", &limit, 0, LLONG_MAX, "stop after N events"),
      CLI_CHOICE("--kinds", "K", &kinds_opt, "all|mpi|omp",
                 "records to print: all (default), mpi (MPI calls) or omp (OpenMP)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur dump TRACE [--rank R] [--limit N] [--kinds all|mpi|omp]\n"
               "\n"
               "One line per event, in global time order (or one rank's order with --rank):\n"
               "time and duration on the global timeline, rank, thread, call, communicator,\n"
               "peer (world rank), tag, bytes sent and received, request, call site, counters.\n"
               "Sub-records (completions, Sendrecv's receive, Startall's starts) are indented\n"
               "under their call. OpenMP records (docs/openmp.md) are points in time: their\n"
               "tag is the OMPT kind, req the region or task id, bytes the iterations.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  uint32_t n = augur_trace_nranks(t);
  if (rank >= (long long)n) {
    augur_trace_close(t);
    return cli_usage("--rank %lld: the trace has ranks 0..%u", rank, n ? n - 1 : 0);
  }

  unsigned kinds = !strcmp(kinds_opt, "mpi")   ? AUGUR_KIND_MPI
                   : !strcmp(kinds_opt, "omp") ? AUGUR_KIND_OMP
                                               : AUGUR_KIND_MPI | AUGUR_KIND_OMP;
  augur_stream *s = NULL;
  augur_error err = {0};
  rc = rank >= 0 ? augur_stream_rank_kinds(t, (uint32_t)rank, kinds, &s, &err)
                 : augur_stream_merged_kinds(t, kinds, &s, &err);
  if (rc != AUGUR_OK) {
    augur_trace_close(t);
    return cli_fail("%s", err.msg);
  }
  uint64_t total = 0;
  for (uint32_t r = rank >= 0 ? (uint32_t)rank : 0; r < (rank >= 0 ? (uint32_t)rank + 1 : n); r++)
    total += (kinds & AUGUR_KIND_MPI ? augur_trace_nevents(t, r) : 0) +
             (kinds & AUGUR_KIND_OMP ? augur_trace_omp_nevents(t, r) : 0);

  /* Event lines are the bulk of the output: a big buffer keeps printf cheap. */
  static char obuf[1 << 16];
  setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
  cli_progress prog;
  cli_progress_init(&prog, "dumping");
  if (isatty(STDOUT_FILENO)) prog.on = 0; /* it would tear the event lines apart */
  uint32_t nctr = augur_trace_ncounters(t);
  printf("%16s %10s %5s %3s  %-26s %-8s %5s %6s %10s %10s %12s  %s\n", "time(s)", "duration",
         "rank", "thr", "call", "comm", "peer", "tag", "bytes", "bytes_recv", "req", "call site");
  augur_event ev;
  long long done = 0;
  augur_error first = {0};
  int failed = 0;
  while (limit < 0 || done < limit) {
    rc = augur_stream_next(s, &ev, &err);
    if (rc == 0) break;
    if (rc < 0) {
      /* The merged stream drops a damaged rank and goes on with the others;
       * a rank stream repeats its error forever, so stop there. */
      if (!failed++) first = err;
      if (rank >= 0) break;
      continue;
    }
    print_event(t, &ev, nctr);
    done++;
    if ((done & 0xffff) == 0)
      cli_progress_update(&prog, "%lld/%llu events", done, (unsigned long long)total);
  }
  cli_progress_done(&prog);
  fflush(stdout);
  augur_stream_close(s);
  augur_trace_close(t);
  if (failed) return cli_fail("%s", first.msg);
  return CLI_OK;
}
