/* Paraver export: OUT.prv (records), OUT.pcf (names), OUT.row (rows).
 *
 * One node, one application, one task per rank, one thread per task (the
 * recorder's threads of a rank share the row). Times are ns on the trace's
 * global timeline. Records (sorted by time, see below):
 *   1:cpu:1:task:1:begin:end:state          Running between calls, an MPI
 *                                           state for each call
 *   2:cpu:1:task:1:time:50000001:call       call entry (augur event type id),
 *   2:cpu:1:task:1:time:50000001:0          and exit
 *   2:cpu:1:task:1:time:50000002:site       call-site id at entry, if known
 *   3:cpu:1:task:1:lsend:psend:cpu:1:task:1:lrecv:precv:bytes:tag
 *                                           one per matched message
 * Paraver wants records sorted by time, but a Running state or a message is
 * complete only after later calls have started. So records are sorted
 * externally: runs of PRV_RUN records are sorted in memory (by begin time,
 * then by production order) and appended to OUT.prv.tmp; at the end the
 * header (which needs the end time, known only then) and a merge of the runs
 * make OUT.prv. Memory stays bounded by one run.
 *
 * A trace with OpenMP records has a Paraver thread per recorder thread
 * (thread = index + 1): its MPI calls as above, and between them the thread
 * states of src/analysis/omp as Paraver states (instead of Running) plus an
 * event 50000003 with the exact state (docs/export.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "augur/export.h"
#include "augur/mpiio.h"
#include "export_util.h"
#include "grow.h"

#define PRV_RUN     (1u << 19) /* records per sorted run: about 32 MiB */
#define PRV_EV_CALL 50000001
#define PRV_EV_SITE 50000002
#define PRV_EV_OMP  50000003 /* thread state: enum augur_tstate + 1, 0 = none */
/* MPI-IO and one-sided calls (only in traces that have them): at call entry. */
#define PRV_EV_IO_BYTES                                                                            \
  50000004 /* bytes read + written: requested (File_i*, *_begin), else moved */
#define PRV_EV_IO_FILE   50000005 /* the file: index (names in the .pcf) */
#define PRV_EV_RMA_BYTES 50000006 /* bytes the data call moves, origin + result */
#define PRV_EV_RMA_PEER  50000007 /* target world rank + 1 */

/* Paraver's conventional MPI states (the numbering Extrae uses). */
enum {
  ST_IDLE = 0,
  ST_RUNNING = 1,
  ST_NOT_CREATED = 2,
  ST_WAIT_MSG = 3,
  ST_BLOCK_SEND = 4,
  ST_SYNC = 5,
  ST_TEST = 6,
  ST_FORK_JOIN = 7,
  ST_WAIT = 8,
  ST_BLOCKED = 9,
  ST_ISEND = 10,
  ST_IRECV = 11,
  ST_GROUP = 13,
  ST_OTHERS = 15,
  ST_SENDRECV = 16,
  ST_IO = 12,        /* Extrae's numbers for these four */
  ST_RMA = 20,       /* Remote memory access */
  ST_ATOMIC = 21,    /* Atomic memory operation */
  ST_RMA_ORDER = 22, /* Memory ordering operation */
  ST_RMA_LOCK = 23   /* Distributed locking */
};

static const struct {
  int id;
  const char *name;
  const char *color;
} states[] = {
    {ST_IDLE, "Idle", "{117,195,255}"},
    {ST_RUNNING, "Running", "{0,0,255}"},
    {ST_NOT_CREATED, "Not created", "{255,255,255}"},
    {ST_WAIT_MSG, "Waiting a message", "{255,0,0}"},
    {ST_BLOCK_SEND, "Blocking Send", "{255,0,174}"},
    {ST_SYNC, "Synchronization", "{179,0,0}"},
    {ST_TEST, "Test/Probe", "{0,255,0}"},
    {ST_WAIT, "Wait/WaitAll", "{235,0,0}"},
    {ST_ISEND, "Immediate Send", "{255,144,26}"},
    {ST_IRECV, "Immediate Receive", "{2,255,177}"},
    {ST_GROUP, "Group Communication", "{255,215,0}"},
    {ST_OTHERS, "Others", "{192,224,0}"},
    {ST_SENDRECV, "Send Receive", "{192,112,0}"},
};
/* Written to the .pcf only for traces with OpenMP records. */
static const struct {
  int id;
  const char *name;
  const char *color;
} omp_states[] = {
    {ST_FORK_JOIN, "Scheduling and Fork/Join", "{255,0,0}"},
    {ST_BLOCKED, "Blocked", "{255,255,0}"},
};

/* Written to the .pcf only for traces with MPI-IO or one-sided records. */
static const struct {
  int id;
  const char *name;
  const char *color;
} iorma_states[] = {
    {ST_IO, "I/O", "{172,174,41}"},
    {ST_RMA, "Remote memory access", "{255,46,0}"},
    {ST_ATOMIC, "Atomic memory operation", "{100,100,177}"},
    {ST_RMA_ORDER, "Memory ordering operation", "{172,101,0}"},
    {ST_RMA_LOCK, "Distributed locking", "{182,45,151}"},
};

/* A thread state as a Paraver state (Extrae's numbering for OpenMP). */
static int omp_state_of(unsigned s) {
  switch (s) {
  case AUGUR_TS_OMP_WAIT:
  case AUGUR_TS_OMP_SYNC:
    return ST_SYNC;
  case AUGUR_TS_OMP_MUTEX:
    return ST_BLOCKED;
  case AUGUR_TS_OMP_FORK:
  case AUGUR_TS_OMP_JOIN:
    return ST_FORK_JOIN;
  case AUGUR_TS_IDLE:
    return ST_IDLE;
  default: /* useful, serial */
    return ST_RUNNING;
  }
}

static int state_of(unsigned type) {
  if (augur_event_is_io(type)) return ST_IO;
  if (augur_event_is_rma(type)) {
    if (type >= AUGUR_EV_WIN_CREATE && type <= AUGUR_EV_WIN_FREE) return ST_OTHERS;
    if (type == AUGUR_EV_WIN_LOCK || type == AUGUR_EV_WIN_UNLOCK || type == AUGUR_EV_WIN_LOCK_ALL ||
        type == AUGUR_EV_WIN_UNLOCK_ALL)
      return ST_RMA_LOCK;
    if (type == AUGUR_EV_PUT || type == AUGUR_EV_GET || type == AUGUR_EV_RPUT ||
        type == AUGUR_EV_RGET)
      return ST_RMA;
    if (type >= AUGUR_EV_ACCUMULATE) return ST_ATOMIC;
    return ST_RMA_ORDER; /* fence, post/start/complete/wait/test, flush, sync */
  }
  switch (type) {
  case AUGUR_EV_RECV:
  case AUGUR_EV_MRECV:
  case AUGUR_EV_PROBE:
  case AUGUR_EV_MPROBE:
    return ST_WAIT_MSG;
  case AUGUR_EV_SEND:
  case AUGUR_EV_BSEND:
  case AUGUR_EV_SSEND:
  case AUGUR_EV_RSEND:
    return ST_BLOCK_SEND;
  case AUGUR_EV_BARRIER:
    return ST_SYNC;
  case AUGUR_EV_IPROBE:
  case AUGUR_EV_IMPROBE:
  case AUGUR_EV_TEST:
  case AUGUR_EV_TESTALL:
  case AUGUR_EV_TESTANY:
  case AUGUR_EV_TESTSOME:
    return ST_TEST;
  case AUGUR_EV_WAIT:
  case AUGUR_EV_WAITALL:
  case AUGUR_EV_WAITANY:
  case AUGUR_EV_WAITSOME:
    return ST_WAIT;
  case AUGUR_EV_ISEND:
  case AUGUR_EV_IBSEND:
  case AUGUR_EV_ISSEND:
  case AUGUR_EV_IRSEND:
  case AUGUR_EV_START:
  case AUGUR_EV_STARTALL:
    return ST_ISEND;
  case AUGUR_EV_IRECV:
  case AUGUR_EV_IMRECV:
    return ST_IRECV;
  case AUGUR_EV_SENDRECV:
  case AUGUR_EV_SENDRECV_REPLACE:
    return ST_SENDRECV;
  default:
    return augur_event_is_collective(type) ? ST_GROUP : ST_OTHERS;
  }
}

typedef struct prv_item {
  uint64_t t, seq;
  size_t off;
  uint32_t len;
} prv_item;

typedef struct paraver {
  exu_out body;
  char *text; /* the current run's lines */
  size_t tlen, tcap;
  prv_item *items;
  size_t n;
  uint64_t seq;
  uint64_t *runs; /* byte offset of each run in the body file, plus its end */
  size_t nruns, runcap;
  int oom;
  uint64_t records;
  uint64_t *last_end; /* per rank: end of the previous call, UINT64_MAX before the first */
  uint64_t ftime;
  int hybrid;                            /* OpenMP records: a Paraver thread per recorder thread */
  uint8_t seen_high[AUGUR_EV_MAX - 128]; /* types >= 128 (MPI-IO, RMA, ...) in the trace */
  augur_trace *t;
  uint64_t *files; /* MPI-IO file ids, index + 1 = event PRV_EV_IO_FILE's value */
  size_t nfiles, capfiles;
} paraver;

static int item_cmp(const void *a, const void *b) {
  const prv_item *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void run_flush(paraver *p) {
  if (p->n == 0) return;
  if (p->nruns + 2 > p->runcap) {
    size_t ncap = p->runcap ? p->runcap * 2 : 16;
    uint64_t *nr = realloc(p->runs, ncap * sizeof *nr);
    if (!nr) {
      p->oom = 1;
      return;
    }
    p->runs = nr;
    p->runcap = ncap;
  }
  qsort(p->items, p->n, sizeof *p->items, item_cmp);
  p->runs[p->nruns++] = p->body.bytes;
  for (size_t i = 0; i < p->n; i++)
    exu_out_write(&p->body, p->text + p->items[i].off, p->items[i].len);
  p->runs[p->nruns] = p->body.bytes;
  p->n = 0;
  p->tlen = 0;
}

static void run_add(paraver *p, uint64_t t, const char *line, size_t len) {
  if (p->oom) return;
  if (p->tlen + len > p->tcap) {
    size_t ncap = p->tcap ? p->tcap * 2 : (size_t)PRV_RUN * 40;
    char *nt = realloc(p->text, ncap);
    if (!nt) {
      p->oom = 1;
      return;
    }
    p->text = nt;
    p->tcap = ncap;
  }
  memcpy(p->text + p->tlen, line, len);
  p->items[p->n++] = (prv_item){t, p->seq++, p->tlen, (uint32_t)len};
  p->tlen += len;
  p->records++;
  if (p->n == PRV_RUN) run_flush(p);
}

/* Field 5 is the begin time in every record type. */
#define REC(p, ...)                                                                                \
  do {                                                                                             \
    const uint64_t v_[] = {__VA_ARGS__};                                                           \
    char l_[24 * 24];                                                                              \
    run_add((p), v_[5], l_, exu_fmt_ints(l_, v_, sizeof v_ / sizeof v_[0]));                       \
  } while (0)

static int on_match(void *ctx, const augur_message *msg) {
  paraver *p = ctx;
  const augur_match_end *s = &msg->send, *r = &msg->recv;
  uint64_t ths = p->hybrid ? s->thread + 1u : 1, thr = p->hybrid ? r->thread + 1u : 1;
  REC(p, 3, s->rank + 1, 1, s->rank + 1, ths, s->t_start, s->t_end, r->rank + 1, 1, r->rank + 1,
      thr, r->t_start, r->t_end, s->bytes, (uint64_t)(msg->tag < 0 ? 0 : msg->tag));
  return AUGUR_OK;
}

/* File and bytes of an MPI-IO call, target and bytes of a one-sided data call, at its entry. */
static void iorma_events(paraver *p, const augur_event *ev, uint64_t th) {
  uint64_t cpu = ev->rank + 1u;
  if (augur_event_is_io(ev->type)) {
    size_t i = 0;
    while (i < p->nfiles && p->files[i] != ev->hash)
      i++;
    if (i == p->nfiles) {
      if (aug_grow((void **)&p->files, &p->capfiles, p->nfiles + 1, sizeof *p->files)) {
        p->oom = 1;
        return;
      }
      p->files[p->nfiles++] = ev->hash;
    }
    REC(p, 2, cpu, 1, cpu, th, ev->t_start, PRV_EV_IO_FILE, i + 1);
    if (augur_io_is_data(ev->type) && !augur_io_is_end(ev->type)) /* *_end: at its *_begin */
      REC(p, 2, cpu, 1, cpu, th, ev->t_start, PRV_EV_IO_BYTES, ev->bytes + ev->bytes_recv);
    return;
  }
  if (ev->type < AUGUR_EV_PUT || ev->peer < 0) return;
  REC(p, 2, cpu, 1, cpu, th, ev->t_start, PRV_EV_RMA_PEER, (uint64_t)ev->peer + 1);
  REC(p, 2, cpu, 1, cpu, th, ev->t_start, PRV_EV_RMA_BYTES, ev->bytes + ev->bytes_recv);
}

static void call(paraver *p, const augur_event *ev) {
  uint64_t cpu = ev->rank + 1u, task = ev->rank + 1u, th = p->hybrid ? ev->thread + 1u : 1;
  uint64_t end = ev->t_end > ev->t_start ? ev->t_end : ev->t_start;
  uint64_t *last = &p->last_end[ev->rank];
  if (!p->hybrid && *last != UINT64_MAX && ev->t_start > *last) /* hybrid: thread states */
    REC(p, 1, cpu, 1, task, 1, *last, ev->t_start, ST_RUNNING);
  REC(p, 1, cpu, 1, task, th, ev->t_start, end, (uint64_t)state_of(ev->type));
  REC(p, 2, cpu, 1, task, th, ev->t_start, PRV_EV_CALL, ev->type);
  if (ev->callsite) REC(p, 2, cpu, 1, task, th, ev->t_start, PRV_EV_SITE, ev->callsite);
  if (augur_event_is_io(ev->type) || augur_event_is_rma(ev->type)) iorma_events(p, ev, th);
  REC(p, 2, cpu, 1, task, th, end, PRV_EV_CALL, 0);
  if (end > *last || *last == UINT64_MAX) *last = end;
  if (end > p->ftime) p->ftime = end;
}

/* A thread state between MPI calls (those have their MPI state): the
 * Paraver state and the exact one as an event, 0 at its end. */
static void thread_state(void *arg, uint32_t rank, uint32_t thread, unsigned state, uint64_t t0,
                         uint64_t t1) {
  paraver *p = arg;
  if (state == AUGUR_TS_MPI) return;
  uint64_t cpu = rank + 1u, th = thread + 1u;
  REC(p, 1, cpu, 1, cpu, th, t0, t1, (uint64_t)omp_state_of(state));
  REC(p, 2, cpu, 1, cpu, th, t0, PRV_EV_OMP, state + 1u);
  REC(p, 2, cpu, 1, cpu, th, t1, PRV_EV_OMP, 0);
  if (t1 > p->ftime) p->ftime = t1;
}

/* seen_high: which types >= 128 the trace holds; only those are named, so a trace
 * without them gets the .pcf it got before those types existed. */
static int write_pcf(augur_trace *t, int hybrid, const paraver *p, const char *path,
                     uint64_t *bytes, augur_error *err) {
  const uint8_t *seen_high = p->seen_high;
  int iorma = 0;
  for (unsigned ty = 128; ty < AUGUR_EV_MAX; ty++)
    if (seen_high[ty - 128] && (augur_event_is_io(ty) || augur_event_is_rma(ty))) iorma = 1;
  exu_out o;
  int rc = exu_out_open(&o, path, err);
  if (rc != AUGUR_OK) return rc;
  exu_out_printf(&o, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
                     "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
                     "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\n"
                     "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n\n\nSTATES\n");
  size_t n = sizeof states / sizeof states[0];
  size_t no = hybrid ? sizeof omp_states / sizeof omp_states[0] : 0;
  for (size_t i = 0; i < n; i++)
    exu_out_printf(&o, "%-4d %s\n", states[i].id, states[i].name);
  for (size_t i = 0; i < no; i++)
    exu_out_printf(&o, "%-4d %s\n", omp_states[i].id, omp_states[i].name);
  size_t ni = iorma ? sizeof iorma_states / sizeof iorma_states[0] : 0;
  for (size_t i = 0; i < ni; i++)
    exu_out_printf(&o, "%-4d %s\n", iorma_states[i].id, iorma_states[i].name);
  exu_out_printf(&o, "\n\nSTATES_COLOR\n");
  for (size_t i = 0; i < n; i++)
    exu_out_printf(&o, "%-4d %s\n", states[i].id, states[i].color);
  for (size_t i = 0; i < no; i++)
    exu_out_printf(&o, "%-4d %s\n", omp_states[i].id, omp_states[i].color);
  for (size_t i = 0; i < ni; i++)
    exu_out_printf(&o, "%-4d %s\n", iorma_states[i].id, iorma_states[i].color);
  exu_out_printf(&o, "\n\nEVENT_TYPE\n0    %d    MPI call\nVALUES\n0   End\n", PRV_EV_CALL);
  for (unsigned ty = 1; ty < AUGUR_EV_MAX; ty++) {
    const char *name = augur_event_name(ty);
    if (strcmp(name, "?") != 0 && !augur_event_is_sub(ty) && !augur_event_is_omp(ty) &&
        (ty < 128 || seen_high[ty - 128]))
      exu_out_printf(&o, "%u   %s\n", ty, name);
  }
  exu_out_printf(&o, "\n\nEVENT_TYPE\n0    %d    MPI call site\nVALUES\n0   Unknown\n",
                 PRV_EV_SITE);
  size_t ns = augur_trace_ncallsites(t);
  for (size_t id = 1; id <= ns; id++) {
    char name[512];
    exu_callsite_name(t, (uint32_t)id, name, sizeof name);
    exu_out_printf(&o, "%zu   %s\n", id, name);
  }
  if (hybrid) {
    exu_out_printf(&o, "\n\nEVENT_TYPE\n0    %d    OpenMP thread state\nVALUES\n0   None\n",
                   PRV_EV_OMP);
    for (unsigned k = 0; k < AUGUR_TS_COUNT; k++)
      if (k != AUGUR_TS_MPI) exu_out_printf(&o, "%u   %s\n", k + 1, augur_tstate_name(k));
  }
  if (p->nfiles) {
    exu_out_printf(&o, "\n\nEVENT_TYPE\n0    %d    MPI-IO file\nVALUES\n", PRV_EV_IO_FILE);
    for (size_t i = 0; i < p->nfiles; i++) {
      const char *name = augur_trace_file_name(t, p->files[i]);
      if (name)
        exu_out_printf(&o, "%zu   %s\n", i + 1, name);
      else
        exu_out_printf(&o, "%zu   file %016llx\n", i + 1, (unsigned long long)p->files[i]);
    }
    exu_out_printf(&o, "\n\nEVENT_TYPE\n0    %d    MPI-IO bytes\n", PRV_EV_IO_BYTES);
  }
  if (iorma && !p->nfiles) exu_out_printf(&o, "\n");
  if (iorma)
    exu_out_printf(&o, "\nEVENT_TYPE\n0    %d    RMA target (rank + 1)\n0    %d    RMA bytes\n",
                   PRV_EV_RMA_PEER, PRV_EV_RMA_BYTES);
  exu_out_printf(&o, "\n");
  *bytes += o.bytes;
  return exu_out_close(&o, err);
}

static int write_row(augur_trace *t, int hybrid, const char *path, uint64_t *bytes,
                     augur_error *err) {
  exu_out o;
  uint32_t n = augur_trace_nranks(t);
  int rc = exu_out_open(&o, path, err);
  if (rc != AUGUR_OK) return rc;
  exu_out_printf(&o, "LEVEL CPU SIZE %u\n", n);
  for (uint32_t r = 0; r < n; r++) {
    const augur_rank_def *d = augur_trace_rank(t, r);
    exu_out_printf(&o, "%u.%s\n", r + 1, d && d->host ? d->host : "node");
  }
  uint32_t nth = 0;
  for (uint32_t r = 0; r < n; r++)
    nth += hybrid ? exu_nthreads(t, r) : 1;
  exu_out_printf(&o, "\nLEVEL NODE SIZE 1\nnode\n\nLEVEL THREAD SIZE %u\n", nth);
  for (uint32_t r = 0; r < n; r++) {
    if (!hybrid) {
      exu_out_printf(&o, "rank %u\n", r);
      continue;
    }
    for (uint32_t th = 0; th < exu_nthreads(t, r); th++)
      exu_out_printf(&o, "rank %u thread %u\n", r, th);
  }
  *bytes += o.bytes;
  return exu_out_close(&o, err);
}

static uint64_t line_time(const char *line) {
  for (int colons = 0; *line && colons < 5; line++)
    if (*line == ':') colons++;
  return strtoull(line, NULL, 10);
}

/* One sorted run being read back for the merge. */
typedef struct prv_src {
  FILE *f;
  uint64_t left; /* bytes of the run not read yet */
  char *line;
  size_t cap;
  ssize_t len; /* of the current line, -1 when the run is done */
  uint64_t t;
} prv_src;

static void src_next(prv_src *s) {
  if (s->left == 0 || (s->len = getline(&s->line, &s->cap, s->f)) <= 0) {
    s->len = -1;
    return;
  }
  s->left -= (uint64_t)s->len < s->left ? (uint64_t)s->len : s->left;
  s->t = line_time(s->line);
}

/* Header, then the runs merged by time (ties: the earlier run, which holds
 * the earlier records) into OUT.prv. */
static int write_prv(augur_trace *t, int hybrid, const char *path, const char *tmp,
                     const paraver *p, uint64_t *bytes, augur_error *err) {
  uint32_t n = augur_trace_nranks(t);
  const augur_trace_info *info = augur_trace_info_get(t);
  time_t when = info && info->start_unix_ns ? (time_t)(info->start_unix_ns / 1000000000u) : 0;
  struct tm tm;
  gmtime_r(&when, &tm);
  exu_out o;
  int rc = exu_out_open(&o, path, err);
  if (rc != AUGUR_OK) return rc;
  exu_out_printf(&o, "#Paraver (%02d/%02d/%02d at %02d:%02d):%llu_ns:1(%u):1:%u(", tm.tm_mday,
                 tm.tm_mon + 1, tm.tm_year % 100, tm.tm_hour, tm.tm_min,
                 (unsigned long long)p->ftime, n, n);
  for (uint32_t r = 0; r < n; r++)
    exu_out_printf(&o, "%s%u:1", r ? "," : "", hybrid ? exu_nthreads(t, r) : 1);
  exu_out_printf(&o, ")\n");
  size_t k = p->nruns;
  prv_src *src = calloc(k ? k : 1, sizeof *src);
  int bad = 0;
  if (!src) {
    exu_out_close(&o, NULL);
    return augur_fail(err, AUGUR_E_NOMEM, "paraver export: out of memory merging runs");
  }
  for (size_t i = 0; i < k && !bad; i++) {
    src[i].f = fopen(tmp, "r");
    if (!src[i].f || fseeko(src[i].f, (off_t)p->runs[i], SEEK_SET) != 0) {
      bad = errno ? errno : EIO;
      break;
    }
    src[i].left = p->runs[i + 1] - p->runs[i];
    src_next(&src[i]);
  }
  while (!bad) {
    size_t best = k;
    for (size_t i = 0; i < k; i++)
      if (src[i].len > 0 && (best == k || src[i].t < src[best].t)) best = i;
    if (best == k) break;
    exu_out_write(&o, src[best].line, (size_t)src[best].len);
    src_next(&src[best]);
  }
  for (size_t i = 0; i < k; i++) {
    if (src[i].f && ferror(src[i].f)) bad = EIO;
    if (src[i].f) fclose(src[i].f);
    free(src[i].line);
  }
  free(src);
  *bytes += o.bytes;
  rc = exu_out_close(&o, err);
  if (rc == AUGUR_OK && bad)
    rc = augur_fail(err, AUGUR_E_IO, "%s: cannot read back the sorted records: %s", tmp,
                    strerror(bad));
  return rc;
}

int augur_export_paraver(augur_trace *t, const char *out, const augur_export_opts *o,
                         augur_export_stats *st, augur_error *err) {
  size_t len = strlen(out);
  char *prv = malloc(len + 16), *tmp = malloc(len + 16), *pcf = malloc(len + 16),
       *row = malloc(len + 16);
  paraver p;
  memset(&p, 0, sizeof p);
  uint32_t n = augur_trace_nranks(t);
  p.last_end = malloc((n ? n : 1) * sizeof *p.last_end);
  p.items = malloc(PRV_RUN * sizeof *p.items);
  augur_matcher *m = augur_matcher_new(t, on_match, NULL, &p);
  augur_stream *s = NULL;
  exu_threads th = {0};
  uint64_t events = 0, total = augur_trace_total_events(t), bytes = 0;
  int rc, tmp_made = 0;
  p.hybrid = exu_hybrid(t);
  if (!prv || !tmp || !pcf || !row || !p.last_end || !p.items || !m) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "paraver export: out of memory");
    goto done;
  }
  for (uint32_t r = 0; r < n; r++)
    p.last_end[r] = UINT64_MAX;
  snprintf(prv, len + 16, "%s.prv", out);
  snprintf(tmp, len + 16, "%s.prv.tmp", out);
  snprintf(pcf, len + 16, "%s.pcf", out);
  snprintf(row, len + 16, "%s.row", out);
  if ((rc = exu_check_damage(t, "paraver", err)) != AUGUR_OK) goto done;
  if (p.hybrid && (rc = exu_threads_open(&th, t, thread_state, &p, err)) != AUGUR_OK) goto done;
  if ((rc = exu_stream(t, p.hybrid, &s, err)) != AUGUR_OK) goto done;
  if ((rc = exu_out_open(&p.body, tmp, err)) != AUGUR_OK) goto done;
  tmp_made = 1;
  augur_event ev;
  while ((rc = augur_stream_next(s, &ev, err)) == 1) {
    events++;
    exu_progress(o, events, total);
    if (p.hybrid && (rc = exu_threads_add(&th, &ev, err)) != AUGUR_OK) break;
    if (augur_event_is_omp(ev.type)) continue;
    if (ev.type >= 128 && ev.type < AUGUR_EV_MAX) p.seen_high[ev.type - 128] = 1;
    if (!augur_event_is_sub(ev.type) && ev.rank < n) call(&p, &ev);
    if ((rc = augur_match_feed(m, &ev, err)) != AUGUR_OK) break;
  }
  if (rc < 0) goto done;
  if (p.hybrid && (rc = exu_threads_finish(&th, err)) != AUGUR_OK) goto done;
  run_flush(&p);
  if (p.oom) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "paraver export: out of memory sorting records");
    goto done;
  }
  if ((rc = exu_out_close(&p.body, err)) != AUGUR_OK) goto done;
  if ((rc = write_prv(t, p.hybrid, prv, tmp, &p, &bytes, err)) != AUGUR_OK) goto done;
  if ((rc = write_pcf(t, p.hybrid, &p, pcf, &bytes, err)) != AUGUR_OK) goto done;
  rc = write_row(t, p.hybrid, row, &bytes, err);
done:
  if (p.body.f) exu_out_close(&p.body, NULL);
  if (tmp_made) exu_remove_output(tmp);
  if (rc != AUGUR_OK && prv && pcf && row) { /* no partial export left behind */
    exu_remove_output(prv);
    exu_remove_output(pcf);
    exu_remove_output(row);
  }
  if (rc == AUGUR_OK && st) {
    st->events = events;
    st->records = p.records;
    st->bytes = bytes;
    st->omp_unpaired = th.unpaired;
  }
  augur_stream_close(s);
  exu_threads_free(&th);
  augur_matcher_free(m);
  free(p.last_end);
  free(p.items);
  free(p.text);
  free(p.runs);
  free(p.files);
  free(prv);
  free(tmp);
  free(pcf);
  free(row);
  return rc;
}
