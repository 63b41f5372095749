/* augur info TRACE - what a trace holds, without reading its events. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "augur/report.h"
#include "augur/text.h"
#include "cli.h"

static const char *kind_name(uint32_t kind) {
  static const char *names[] = {"world",     "self",  "dup",      "split",  "split_type",
                                "create",    "cart",  "cart_sub", "graph",  "dist_graph",
                                "intercomm", "merge", "other",    "window", "group"};
  return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

static const char *source_name(uint32_t src) {
  return src == AUGUR_CTR_PAPI   ? "PAPI"
         : src == AUGUR_CTR_PERF ? "perf_event"
         : src == AUGUR_CTR_OS   ? "schedstat"
                                 : "none";
}

/* Rank files are rank-NNNNN.evt: 5 digits, wider when the rank count needs it. */
static uint64_t rank_file_bytes(const char *dir, uint32_t rank, uint32_t nranks) {
  int width = 5;
  for (uint32_t n = nranks ? nranks - 1 : 0; n >= 100000; n /= 10)
    width++;
  char path[4096];
  if (snprintf(path, sizeof path, "%s/rank-%0*u.evt", dir, width, rank) >= (int)sizeof path)
    return 0; /* no such path */
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void print_facts(augur_trace *t) {
  const augur_trace_info *in = augur_trace_info_get(t);
  printf("trace        %s\n", augur_trace_path(t));
  printf("format       augur-trace %u.%u\n", in->version_major, in->version_minor);
  /* The recorded command and hosts are anyone's text: escaped. */
  char safe[4 * 256 + 1], cut[257];
  printf("command     ");
  for (int i = 0; i < in->argc; i++) {
    snprintf(cut, sizeof cut, "%s", in->argv[i]);
    printf(" %s", augur_text_safe(cut, safe, sizeof safe));
  }
  printf("%s\n", in->argc ? "" : " ?");
  printf("MPI          %s%s%s\n", in->mpi_library ? in->mpi_library : "?",
         in->mpi_version ? " - " : "", in->mpi_version ? in->mpi_version : "");
  printf("recorder     %s\n", in->recorder ? in->recorder : "?");
  if (in->start_unix_ns) {
    time_t s = (time_t)(in->start_unix_ns / 1000000000u);
    struct tm tm;
    char buf[64];
    gmtime_r(&s, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    printf("started      %s\n", buf);
  }
  printf("ranks        %u (%s)\n", in->nranks,
         in->complete ? "complete" : "INCOMPLETE: rank 0 never reached MPI_Finalize");
  printf("payload hash %s\n", in->payload_hash ? "yes" : "no");
  printf("counters     requested: %s\n",
         in->counters_requested ? in->counters_requested : "default (auto)");
}

/* OpenMP records and blocks of the whole trace. */
static void omp_totals(augur_trace *t, uint64_t *records, size_t *blocks) {
  *records = 0;
  *blocks = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    *records += augur_trace_omp_nevents(t, r);
    *blocks += augur_trace_omp_nblocks(t, r);
  }
}

/* What the recorder saw of OpenMP (trace.json "openmp", docs/openmp.md):
 * the mode and what is recorded, then the note a user must read. */
static void print_openmp(augur_trace *t) {
  const augur_omp_meta *om = &augur_trace_info_get(t)->openmp;
  uint64_t records;
  size_t blocks;
  omp_totals(t, &records, &blocks);
  char safe[4 * 1024 + 1], cut[1025];
  snprintf(cut, sizeof cut, "%s", om->mode);
  printf("OpenMP       %s", augur_text_safe(cut, safe, sizeof safe));
  if (!strcmp(om->mode, "unknown"))
    printf(" (trace.json does not say; recorders before trace format 1.4 did not record OpenMP)");
  if (om->runtime[0]) {
    snprintf(cut, sizeof cut, "%s", om->runtime);
    printf(" - %s", augur_text_safe(cut, safe, sizeof safe));
  }
  if (records || strcmp(om->mode, "unknown"))
    printf("; %llu records in %zu blocks", (unsigned long long)records, blocks);
  if (om->dropped_before_init)
    printf(", %llu dropped before MPI_Init", (unsigned long long)om->dropped_before_init);
  printf("\n");
  if (om->note[0]) {
    snprintf(cut, sizeof cut, "%s", om->note);
    printf("             %s\n", augur_text_safe(cut, safe, sizeof safe));
  }
}

/* Where the ranks ran (augur_trace_hosts) and how their clocks were
 * joined: ranks on rank 0's host read its clock (offset 0, no ping-pong). */
static void print_placement(augur_trace *t) {
  augur_hosts h;
  augur_error err = {0};
  if (augur_trace_hosts(t, &h, &err) != AUGUR_OK) return;
  if (!h.known)
    printf("placement    %u host%s, CPUs not recorded (recorders before trace format 1.3 did "
           "not)\n",
           h.nhosts, h.nhosts > 1 ? "s" : "");
  else {
    char host[4 * 256 + 1], cut[257];
    snprintf(cut, sizeof cut, "%s", h.host ? h.host : "");
    printf("placement    %u host%s; busiest: %u ranks on %u CPU%s (%s)%s\n", h.nhosts,
           h.nhosts > 1 ? "s" : "", h.ranks, h.cores, h.cores > 1 ? "s" : "",
           augur_text_safe(cut, host, sizeof host), h.oversubscribed ? ": OVERSUBSCRIBED" : "");
  }
  if (h.delay_ranks && h.window_ns)
    printf("CPU wait     the ranks waited %.3f s for a CPU, %.1f %% of their time from MPI_Init "
           "to MPI_Finalize (%u rank%s)\n",
           (double)h.run_delay_ns * 1e-9, 100.0 * (double)h.run_delay_ns / (double)h.window_ns,
           h.delay_ranks, h.delay_ranks > 1 ? "s" : "");
  uint32_t n = augur_trace_nranks(t), pinged = 0;
  uint64_t rtt = 0;
  for (uint32_t r = 1; r < n; r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (!d || !d->nsync || !d->sync[0].rtt_ns) continue;
    pinged++;
    if (d->sync[0].rtt_ns > rtt) rtt = d->sync[0].rtt_ns;
  }
  if (n > 1 && pinged)
    printf("clocks       %u rank%s synchronised with rank 0 by ping-pong (largest round trip "
           "%.1f us), the others read its clock\n",
           pinged, pinged == 1 ? "" : "s", (double)rtt / 1e3);
  else if (n > 1)
    printf("clocks       every rank reads rank 0's clock (no ping-pong)\n");
}

/* Beyond this many ranks the table has a row only for the ranks that stand
 * out: those not complete (up to this many), the ones with the fewest and
 * the most events, and the one that ended last; the total row and the
 * statuses' counts cover every rank (--json lists them all). */
#define INFO_RANK_ROWS 16

enum { ST_COMPLETE, ST_DAMAGED, ST_NO_FACTS, ST_NO_FINALIZE, ST_N };
static const char *const st_name[ST_N] = {"complete", "DAMAGED", "no rank facts",
                                          "no MPI_Finalize"};

static int rank_status(augur_trace *t, uint32_t r) {
  const augur_rank_def *d = augur_trace_rank(t, r);
  const char *dmg = NULL;
  augur_trace_damage(t, r, &dmg);
  return dmg ? ST_DAMAGED : !d ? ST_NO_FACTS : d->finalize_ns ? ST_COMPLETE : ST_NO_FINALIZE;
}

/* How much survived of rank R: events kept, the end of the last one, ended cleanly. */
static void rank_row(augur_trace *t, uint32_t r, uint32_t n) {
  const augur_rank_def *d = augur_trace_rank(t, r);
  char sz[32], host[4 * 256 + 1], cut[257];
  augur_fmt_bytes(sz, sizeof sz, rank_file_bytes(augur_trace_path(t), r, n));
  snprintf(cut, sizeof cut, "%s", d && d->host ? d->host : "?");
  printf("  %6u  %-20s %8llu %12llu %10.3f %8zu %11s  %s\n", r,
         augur_text_safe(cut, host, sizeof host), d ? (unsigned long long)d->pid : 0ULL,
         (unsigned long long)augur_trace_nevents(t, r), (double)augur_trace_rank_end_ns(t, r) / 1e9,
         augur_trace_nblocks(t, r), sz, st_name[rank_status(t, r)]);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void print_ranks(augur_trace *t) {
  uint32_t n = augur_trace_nranks(t);
  printf("\nRanks\n  %6s  %-20s %8s %12s %10s %8s %11s  %s\n", "rank", "host", "pid", "events",
         "last (s)", "blocks", "on disk", "status");
  uint64_t tev = 0, tbytes = 0, count[ST_N] = {0};
  uint32_t row[INFO_RANK_ROWS + 3], nrow = 0, fewest = 0, most = 0, last = 0;
  for (uint32_t r = 0; r < n; r++) {
    uint64_t ev = augur_trace_nevents(t, r);
    tev += ev;
    tbytes += rank_file_bytes(augur_trace_path(t), r, n);
    int st = rank_status(t, r);
    count[st]++;
    if (n <= INFO_RANK_ROWS) {
      rank_row(t, r, n);
      continue;
    }
    if (ev < augur_trace_nevents(t, fewest)) fewest = r;
    if (ev > augur_trace_nevents(t, most)) most = r;
    if (augur_trace_rank_end_ns(t, r) > augur_trace_rank_end_ns(t, last)) last = r;
    if (st != ST_COMPLETE && nrow < INFO_RANK_ROWS) row[nrow++] = r;
  }
  if (n > INFO_RANK_ROWS) { /* the rows in rank order, each once */
    row[nrow++] = fewest;
    row[nrow++] = most;
    row[nrow++] = last;
    qsort(row, nrow, sizeof *row, cmp_u32);
    for (uint32_t i = 0; i < nrow; i++)
      if (i == 0 || row[i] != row[i - 1]) rank_row(t, row[i], n);
  }
  char sz[32];
  augur_fmt_bytes(sz, sizeof sz, tbytes);
  printf("  %6s  %-20s %8s %12llu %10s %8s %11s\n", "total", "", "", (unsigned long long)tev, "",
         "", sz);
  if (n <= INFO_RANK_ROWS) return;
  printf("  %u ranks:", n);
  for (int st = 0, first = 1; st < ST_N; st++)
    if (count[st]) {
      printf("%s %llu %s", first ? "" : ",", (unsigned long long)count[st], st_name[st]);
      first = 0;
    }
  uint64_t odd = n - count[ST_COMPLETE];
  printf("\n  (rows: ");
  if (odd > INFO_RANK_ROWS)
    printf("the first %d ranks not complete, ", INFO_RANK_ROWS);
  else if (odd)
    printf("the ranks not complete, ");
  printf("the ranks with the fewest and the most events and the last to end; --json has all)\n");
}

static void print_comms(augur_trace *t) {
  size_t n = augur_trace_ncomms(t);
  printf("\nCommunicators (%zu)\n  %-18s %-10s %6s  %-18s %s\n", n, "id", "kind", "size", "parent",
         "members (world ranks)");
  for (size_t i = 0; i < n; i++) {
    const augur_comm_def *c = augur_trace_comm_at(t, i);
    char members[128];
    size_t off = 0;
    members[0] = 0;
    for (uint32_t k = 0; k < c->size && off < sizeof members - 16; k++)
      off += (size_t)snprintf(members + off, sizeof members - off, "%s%d", k ? "," : "",
                              c->members[k]);
    if (off >= sizeof members - 16 && c->size)
      snprintf(members + off, sizeof members - off, ",...");
    printf("  %-18llx %-10s %6u  %-18llx %s", (unsigned long long)c->id, kind_name(c->kind),
           c->size, (unsigned long long)c->parent, members);
    if (c->remote_size) printf(" | remote %u ranks", c->remote_size);
    if (c->ndims) {
      printf(" | dims");
      for (uint32_t k = 0; k < c->ndims && k < AUGUR_MAX_DIMS; k++)
        printf("%s%d%s", k ? "x" : " ", c->dims[k], c->periods[k] ? "p" : "");
    }
    printf("\n");
  }
}

/* The recorder's word on its counters (the first rank's that has one): why
 * some are missing, why one was added (run-delay on a busy host); or NULL. */
static const char *counter_note(augur_trace *t) {
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (d && d->counter_note) return d->counter_note;
  }
  return NULL;
}

static void print_counters(augur_trace *t) {
  uint32_t n = augur_trace_ncounters(t);
  const char *why = counter_note(t);
  printf("\nCounters\n");
  if (n) {
    for (uint32_t i = 0; i < n; i++) {
      const augur_counter_def *c = augur_trace_counter(t, i);
      if (c)
        printf("  ctr[%u]  %-20s %s\n", c->index, c->name ? c->name : "?", source_name(c->source));
    }
    if (why) printf("  note: %s\n", why);
    return;
  }
  /* No counters: the rank facts carry the recorder's reason. */
  printf("  none%s%s\n", why ? ": " : "", why ? why : "");
}

/* Where each rank ran (its CPU changes, recorded at its MPI calls on
 * oversubscribed hosts; docs/simulate.md "Recorded placement"): the CPU
 * from MPI_Init on and each change (seconds after MPI_Init); nothing when
 * no rank says. */
static void print_cpus(augur_trace *t) {
  int head = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    if (!d || !d->nmoves || !d->moves) continue;
    if (!head) printf("\nCPUs (seconds after MPI_Init: CPU)\n");
    head = 1;
    printf("  rank %u:", r);
    for (uint32_t i = 0; i < d->nmoves && i < 12; i++)
      printf(" %.2f: %u", (double)(d->moves[i].ns - d->init_ns) * 1e-9, d->moves[i].cpu);
    if (d->nmoves > 12) printf(" (%u more)", d->nmoves - 12);
    if (d->moves_lost) printf(" (and %llu changes not kept)", (unsigned long long)d->moves_lost);
    if (d->migrations != UINT64_MAX) printf("; %llu migrations", (unsigned long long)d->migrations);
    printf("\n");
  }
}

/* Returns the number of damaged rank files; *first gets the first message. */
static int print_damage(augur_trace *t, const char **first) {
  int damaged = 0;
  printf("\nDamage\n");
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const char *msg = NULL;
    augur_trace_damage(t, r, &msg);
    if (!msg) continue;
    printf("  %s\n", msg);
    if (!damaged++) *first = msg;
  }
  /* Blocks the reader dropped (repeated or back in time): what is kept is
   * whole, but the file is damaged all the same. */
  for (uint32_t r = 0; r < augur_trace_nranks(t); r++) {
    const char *msg = NULL;
    size_t n = augur_trace_dropped(t, r, &msg);
    if (!n) continue;
    printf("  %s", msg);
    if (n > 1) printf(" (and %zu more blocks of rank %u)", n - 1, r);
    printf("\n");
    if (!damaged++) *first = msg;
  }
  if (!damaged) printf("  none\n");
  return damaged;
}

/* The trace's facts as JSON (docs/cli.md "augur info"): what the text
 * says but the communicators and counters. Returns the number of damage
 * messages (as print_damage), *first the first one. */
static int print_json(augur_trace *t, const char **first) {
  const augur_trace_info *in = augur_trace_info_get(t);
  const augur_omp_meta *om = &in->openmp;
  json_t *o = json_object(), *argv = json_array(), *cbs = json_object(), *ranks = json_array(),
         *damage = json_array();
  for (int i = 0; i < in->argc; i++)
    json_array_append_new(argv, augur_json_text(in->argv[i]));
  for (size_t i = 0; i < om->ncallbacks; i++)
    json_object_set_new(cbs, om->callbacks[i].name, json_integer(om->callbacks[i].result));
  uint64_t records;
  size_t blocks;
  omp_totals(t, &records, &blocks);
  int damaged = 0;
  uint32_t n = augur_trace_nranks(t);
  for (uint32_t r = 0; r < n; r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    const char *dmg = NULL, *drop = NULL;
    augur_trace_damage(t, r, &dmg);
    size_t ndrop = augur_trace_dropped(t, r, &drop);
    json_array_append_new(
        ranks,
        json_pack("{s:I,s:o,s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:s}", "rank", (json_int_t)r, "host",
                  augur_json_text(d && d->host ? d->host : ""), "pid", (json_int_t)(d ? d->pid : 0),
                  "events", (json_int_t)augur_trace_nevents(t, r), "omp_records",
                  (json_int_t)augur_trace_omp_nevents(t, r), "last_s",
                  (double)augur_trace_rank_end_ns(t, r) / 1e9, "blocks",
                  (json_int_t)augur_trace_nblocks(t, r), "omp_blocks",
                  (json_int_t)augur_trace_omp_nblocks(t, r), "bytes",
                  (json_int_t)rank_file_bytes(augur_trace_path(t), r, n), "status",
                  dmg              ? "damaged"
                  : !d             ? "no rank facts"
                  : d->finalize_ns ? "complete"
                                   : "no MPI_Finalize"));
    if (dmg && !damaged++) *first = dmg;
    if (dmg) json_array_append_new(damage, augur_json_text(dmg));
    if (ndrop && !damaged++) *first = drop;
    if (ndrop) json_array_append_new(damage, augur_json_text(drop));
  }
  json_object_set_new(o, "schema", json_integer(1));
  json_object_set_new(o, "trace", augur_json_text(augur_trace_path(t)));
  json_object_set_new(
      o, "format",
      json_pack("[I,I]", (json_int_t)in->version_major, (json_int_t)in->version_minor));
  json_object_set_new(o, "argv", argv);
  json_object_set_new(o, "mpi_library", augur_json_text(in->mpi_library));
  json_object_set_new(o, "mpi_version", augur_json_text(in->mpi_version));
  json_object_set_new(o, "recorder", augur_json_text(in->recorder));
  json_object_set_new(o, "start_unix_ns", json_integer((json_int_t)in->start_unix_ns));
  json_object_set_new(o, "nranks", json_integer(n));
  json_object_set_new(o, "complete", json_boolean(in->complete));
  json_object_set_new(o, "payload_hash", json_boolean(in->payload_hash));
  json_object_set_new(o, "counters_requested", augur_json_text(in->counters_requested));
  json_t *ctrs = json_array();
  for (uint32_t i = 0; i < augur_trace_ncounters(t); i++) {
    const augur_counter_def *c = augur_trace_counter(t, i);
    if (c) json_array_append_new(ctrs, augur_json_text(c->name ? c->name : "?"));
  }
  json_object_set_new(o, "counters", ctrs);
  json_object_set_new(o, "counter_note", augur_json_text(counter_note(t)));
  json_object_set_new(o, "openmp",
                      json_pack("{s:o,s:o,s:o,s:I,s:I,s:I,s:o}", "mode", augur_json_text(om->mode),
                                "runtime", augur_json_text(om->runtime), "note",
                                augur_json_text(om->note), "records", (json_int_t)records, "blocks",
                                (json_int_t)blocks, "dropped_before_init",
                                (json_int_t)om->dropped_before_init, "callbacks", cbs));
  json_object_set_new(o, "ranks", ranks);
  json_object_set_new(o, "damage", damage);
  char *js = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  if (js) puts(js);
  free(js);
  json_decref(o);
  return damaged;
}

int cmd_info(int argc, char **argv) {
  int json = 0;
  const cli_opt options[] = {
      CLI_FLAG("--json", NULL, &json, "print the facts as JSON (schema: docs/cli.md)"), {0}};
  const cli_spec spec = {
      .usage = "usage: augur info TRACE [--json]\n"
               "\n"
               "What a trace holds: the recorded command, MPI library, OpenMP, ranks (host,\n"
               "pid, events, blocks, bytes on disk, complete or not), communicators,\n"
               "counters and any damage. Exits 1 if the trace is damaged.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  const char *first = NULL;
  int damaged;
  if (json) {
    damaged = print_json(t, &first);
  } else {
    print_facts(t);
    print_openmp(t);
    print_placement(t);
    print_ranks(t);
    print_comms(t);
    print_counters(t);
    print_cpus(t);
    damaged = print_damage(t, &first);
  }
  fflush(stdout);
  rc = CLI_OK;
  if (damaged)
    rc = damaged == 1 ? cli_fail("%s", first)
                      : cli_fail("%s (and %d more damaged rank files)", first, damaged - 1);
  augur_trace_close(t);
  return rc;
}
