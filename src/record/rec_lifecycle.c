/* augur recorder — MPI_Init / MPI_Finalize / MPI_Abort: opening and closing
 * the rank's trace file, clock synchronisation against rank 0, trace.json. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "augur/api.h"
#include "rec_internal.h"

#define SYNC_ROUNDS 10

static atomic_int inited, finished;
static atomic_int flushed; /* the signal handler's flush is over */
static MPI_Comm sync_comm = MPI_COMM_NULL;
static const void *pending_caller;
static augur_rank_def rank_def;
static char host[256];
static char cpus[4096];
static augur_trace_meta meta;
static char mpi_version[MPI_MAX_LIBRARY_VERSION_STRING + 1];
static char **argv_copy;
static char *argv_buf;

static int in_fortran; /* inside a Fortran Init/Finalize wrapper */

void aug_lifecycle_caller(const void *callsite) {
  if (!in_fortran) pending_caller = callsite;
}

/* MPICH's Fortran MPI_Init calls the C MPI_Init, whose wrapper would record
 * a call site inside libmpichfort: the Fortran caller wins while set. */
void aug_lifecycle_fortran(const void *callsite) {
  in_fortran = callsite != NULL;
  if (callsite) pending_caller = callsite;
}

static int mkdir_p(const char *path) {
  char tmp[AUG_PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
  return 0;
}

/* From sync_setup, when some rank is on another host than rank 0 (then
 * sync_comm exists): on rank 0, per world rank 1 if elsewhere (its clock must
 * be synchronised), or NULL: all are; on the others, LOCAL = 1 if on rank
 * 0's host (skips the ping-pongs). */
static unsigned char *remote;
static int local;

/* Which ranks share rank 0's host: one Bcast of its name and kernel boot id
 * and one Allgather
 * on MPI_COMM_WORLD (inside MPI_Init: no application traffic yet). Ranks on
 * rank 0's host read the same CLOCK_MONOTONIC (one kernel), so their offset
 * is 0 exactly and they skip the ping-pongs, which cost a time slice per
 * message when ranks outnumber the CPUs (issue 21: 8 ranks on 2 CPUs spent
 * ~0.7 s of MPI_Init and ~0.2 s of MPI_Finalize in them). Only when some rank
 * is elsewhere is the private communicator for the ping-pongs made. */
static void sync_setup(void) {
  if (aug_world_size < 2) return;
  /* the kernel's boot id names the clock (same host name, other machine:
   * other clock); the host name when it cannot be read */
  char key[sizeof host + 64], key0[sizeof key];
  int n = snprintf(key, sizeof key, "%s/", host);
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (f) {
    if (n > 0 && (size_t)n < sizeof key && !fgets(key + n, (int)(sizeof key - (size_t)n), f))
      key[n] = '\0';
    fclose(f);
  }
  memcpy(key0, key, sizeof key0);
  PMPI_Bcast(key0, (int)sizeof key0, MPI_CHAR, 0, MPI_COMM_WORLD);
  const char *all_env = getenv("AUGUR_CLOCK_SYNC"); /* all: measure every rank's clock */
  unsigned char mine = strcmp(key0, key) != 0 || (all_env && !strcmp(all_env, "all")), any = 0;
  PMPI_Allreduce(&mine, &any, 1, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD);
  if (!any) return; /* one host: no ping-pong, no communicator */
  PMPI_Comm_dup(MPI_COMM_WORLD, &sync_comm);
  /* rank 0 learns who is elsewhere; without memory for that, every rank
   * ping-pongs (all must agree: rank 0 says) */
  unsigned char *all = aug_world_rank == 0 ? malloc((size_t)aug_world_size) : NULL;
  int ok = aug_world_rank != 0 || all != NULL;
  PMPI_Bcast(&ok, 1, MPI_INT, 0, sync_comm);
  if (!ok) return;
  PMPI_Gather(&mine, 1, MPI_UNSIGNED_CHAR, all, 1, MPI_UNSIGNED_CHAR, 0, sync_comm);
  remote = all;
  local = !mine;
}

/* Ping-pong with rank 0 over a private duplicate of MPI_COMM_WORLD (so no
 * application message can match ours); keeps the round with the smallest
 * round trip: offset = rank0_mid - local_mid. Ranks on rank 0's host (see
 * sync_setup): offset 0, round trip 0. */
static void clock_sync(augur_clock_sync *out, uint32_t kind) {
  memset(out, 0, sizeof *out);
  out->kind = kind;
  out->local_ns = aug_now();
  if (sync_comm == MPI_COMM_NULL || aug_world_size < 2) return;
  if (aug_world_rank != 0 && local) return;
  uint64_t v = 0;
  if (aug_world_rank == 0) {
    for (int r = 1; r < aug_world_size; r++)
      for (int k = 0; (!remote || remote[r]) && k < SYNC_ROUNDS; k++) {
        PMPI_Recv(&v, 1, MPI_UINT64_T, r, 0, sync_comm, MPI_STATUS_IGNORE);
        v = aug_now();
        PMPI_Send(&v, 1, MPI_UINT64_T, r, 0, sync_comm);
      }
    return;
  }
  uint64_t best = UINT64_MAX;
  for (int k = 0; k < SYNC_ROUNDS; k++) {
    uint64_t t1 = aug_now();
    PMPI_Send(&v, 1, MPI_UINT64_T, 0, 0, sync_comm);
    PMPI_Recv(&v, 1, MPI_UINT64_T, 0, 0, sync_comm, MPI_STATUS_IGNORE);
    uint64_t t2 = aug_now();
    if (t2 - t1 < best) {
      best = t2 - t1;
      uint64_t mid = t1 + (t2 - t1) / 2;
      out->local_ns = mid;
      out->offset_ns = (int64_t)(v - mid);
      out->rtt_ns = best;
    }
  }
}

/* argv from /proc/self/cmdline: works for Fortran programs too, which never
 * pass argc/argv to MPI_Init. */
static void read_argv(void) {
  FILE *f = fopen("/proc/self/cmdline", "rb");
  if (!f) return;
  size_t cap = 4096, len = 0;
  argv_buf = malloc(cap + 1);
  while (argv_buf) {
    size_t n = fread(argv_buf + len, 1, cap - len, f);
    len += n;
    if (len < cap) break;
    char *nb = realloc(argv_buf, cap * 2 + 1);
    if (!nb) break;
    argv_buf = nb;
    cap *= 2;
  }
  fclose(f);
  if (!argv_buf) return;
  argv_buf[len] = '\0';
  int argc = 0;
  for (size_t i = 0; i < len; i++)
    if (argv_buf[i] == '\0') argc++;
  argv_copy = calloc((size_t)argc + 1, sizeof *argv_copy);
  if (!argv_copy) return;
  size_t pos = 0;
  for (int i = 0; i < argc; i++) {
    argv_copy[i] = argv_buf + pos;
    pos += strlen(argv_buf + pos) + 1;
  }
  meta.argc = argc;
  meta.argv = argv_copy;
}

/* OpenMP records dropped before MPI_Init on all ranks (rank 0; from Init) */
static uint64_t omp_dropped;

static void write_meta(void) {
  augur_error err;
  aug_omp_describe(&meta.openmp); /* at Init the runtime may not have started yet */
  meta.openmp.dropped_before_init = omp_dropped;
  if (augur_meta_write(aug_cfg.trace_dir, &meta, &err) != AUGUR_OK)
    aug_rec_fail("writing trace.json", err.msg);
}

static void prepare_meta(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  meta.nranks = (uint32_t)aug_world_size;
  meta.start_unix_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  meta.recorder = "augur " AUGUR_VERSION_STRING;
  meta.payload_hash = aug_cfg.payload_hash;
  meta.counters_requested = aug_cfg.counters_set ? aug_cfg.counters : NULL;
  int len = 0;
  PMPI_Get_library_version(mpi_version, &len);
  mpi_version[len > 0 && len <= MPI_MAX_LIBRARY_VERSION_STRING ? len : 0] = '\0';
  char *nl = strchr(mpi_version, '\n');
  if (nl) *nl = '\0';
  for (char *c = mpi_version; *c; c++) /* "MPICH Version:\t4.0.2": keep it one plain line */
    if (*c == '\t') *c = ' ';
  for (size_t n = strlen(mpi_version);
       n && (mpi_version[n - 1] == ' ' || mpi_version[n - 1] == '\r');)
    mpi_version[--n] = '\0';
  meta.mpi_version = mpi_version;
  meta.mpi_library = strstr(mpi_version, "Open MPI") ? "Open MPI"
                     : strstr(mpi_version, "MPICH")  ? "MPICH"
                                                     : "unknown";
  read_argv();
}

/* INIT / FINALIZE / ABORT events are built here, not in the wrappers: they
 * happen while recording is off. */
static void record_lifecycle_event(unsigned type, uint64_t t_start, int32_t tag) {
  aug_thread *t = aug_thread_self();
  if (!t) return;
  augur_event *ev = aug_rec_reserve(t, 1);
  if (!ev) return;
  memset(ev, 0, sizeof *ev);
  ev->type = (uint16_t)type;
  ev->tag = tag;
  ev->thread = t->index;
  ev->callsite = (uint64_t)(uintptr_t)pending_caller;
  if (in_fortran) ev->flags |= AUGUR_F_FORTRAN;
  pending_caller = NULL;
  if (aug_nctr) {
    uint64_t v[AUGUR_MAX_COUNTERS];
    aug_counters_read(t, v);
    for (int i = 0; i < aug_nctr; i++)
      ev->ctr[i] = v[i] - t->ctr_last[i];
  }
  ev->t_start = t_start;
  ev->t_end = aug_now();
  ev->rank = AUG_TIME_IS_NS;
  if (aug_nctr) aug_counters_read(t, t->ctr_last);
  aug_rec_advance(t, 1);
}

static void close_writer(void) {
  aug_threads_flush_all();
  pthread_mutex_lock(&aug_lock);
  if (aug_writer) {
    augur_error err;
    if (augur_writer_close(aug_writer, &err) != AUGUR_OK)
      fprintf(stderr, "augur: rank %d: closing the trace: %s\n", aug_world_rank, err.msg);
    aug_writer = NULL;
  }
  pthread_mutex_unlock(&aug_lock);
  atomic_store(&flushed, 1);
}

/* ---- a signal that ends the program: keep what was recorded ---- */

static const int fatal_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV,
                                    SIGBUS,  SIGFPE, SIGILL, SIGABRT};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous[NFATAL];

static void say(const char *s) {
  ssize_t k = write(2, s, strlen(s));
  (void)k;
}

/* Writes the buffered records (write(2), no allocation), then hands the
 * signal to what was there before us: the default action (the program ends
 * as it would have) or the MPI library's own handler. */
static void on_fatal_signal(int sig) {
  int saved = errno;
  if (!atomic_exchange(&finished, 1)) {
    atomic_store(&aug_active, 0);
    if (aug_threads_flush_in_signal() < 0)
      say("augur: a block was being written when the program was stopped: the records still "
          "buffered are lost\n");
    atomic_store(&flushed, 1);
  } else {
    /* A second signal in another thread (launchers send SIGTERM more than
     * once) must not end the process while the first handler is writing:
     * a block cut short loses all its records. Waits at most 1 s. */
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 1000 && !atomic_load(&flushed); i++)
      nanosleep(&ms, NULL);
  }
  for (size_t i = 0; i < NFATAL; i++)
    if (fatal_signals[i] == sig) sigaction(sig, &previous[i], NULL);
  raise(sig); /* blocked until we return, then delivered to the restored action */
  errno = saved;
}

/* Crash signals are taken even over a handler the MPI library installed (it
 * runs next); the others only where the program kept the default action,
 * so a program that handles SIGTERM or SIGINT itself keeps doing so. */
static void install_signal_handlers(void) {
  for (size_t i = 0; i < NFATAL; i++) {
    int sig = fatal_signals[i];
    if (sigaction(sig, NULL, &previous[i]) != 0) continue;
    int crash = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
    if (previous[i].sa_handler == SIG_IGN || (!crash && previous[i].sa_handler != SIG_DFL))
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(sig, &sa, NULL);
  }
}

int aug_lifecycle_started(void) {
  return atomic_load(&inited);
}

/* The program exited without MPI_Finalize: keep what was recorded. */
static void at_exit(void) {
  if (atomic_exchange(&finished, 1)) return;
  atomic_store(&aug_active, 0);
  close_writer();
}

/* A child of fork(2) (without exec: a helper process, a daemon's first fork) holds a copy of
 * the recorder and the rank file's descriptor. It records nothing and leaves the file alone:
 * its exit (atexit), a signal or MPI_Finalize find the recording finished. Before, its exit
 * wrote its copy of the buffered records into the parent's file and closed the trace under
 * the parent (tests/record/rec_fork.c). */
static void in_forked_child(void) {
  atomic_store(&aug_active, 0);
  atomic_store(&finished, 1);
  atomic_store(&flushed, 1);
}

/* How the process may end: exit without MPI_Finalize, or a fork's child. */
static void watch_end(void) {
  atexit(at_exit);
  pthread_atfork(NULL, NULL, in_forked_child);
}

/* What this process's host and the others were at MPI_Init (AUG_HOST_*),
 * the same on every rank (the worst over MPI_COMM_WORLD: the counters are
 * the trace's, the reader takes one rank's set for all). Oversubscribed: more
 * ranks than CPUs they may use: the ranks of MPI_COMM_TYPE_SHARED, against
 * the union of their affinity masks (the first 1024 CPUs: augur_cpu_mask)
 * capped by the smallest cgroup quota, as the reader's augur_trace_hosts
 * counts them from the rank facts. Busy: the host's ranks waited for a CPU at
 * least AUG_BUSY_INIT_SHARE of their MPI_Init (waiting plus on a CPU:
 * schedstat from the wrapper's entry; docs/cli.md "A busy host"); *SHARE
 * gets the busiest host's share. Collective over MPI_COMM_WORLD (at
 * MPI_Init, where every rank is). */
static int host_cpu_state(uint32_t cores, uint32_t quota, double *share) {
  MPI_Comm node;
  *share = 0;
  if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
      MPI_SUCCESS)
    return AUG_HOST_FREE;
  int n = 0;
  PMPI_Comm_size(node, &n);
  enum { WORDS = 1024 / 64 };
  uint64_t mine[WORDS], all[WORDS];
  int have = augur_cpu_mask(mine, WORDS) == 0;
  int rc = PMPI_Allreduce(mine, all, WORDS, MPI_UINT64_T, MPI_BOR, node);
  unsigned q = quota ? quota : ~0u, qmin = q;
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&q, &qmin, 1, MPI_UNSIGNED, MPI_MIN, node);
  uint64_t init[2] = {0, 0}, on_host[2] = {0, 0}; /* ns waiting, ns waiting or on a CPU */
  if (aug_counters_init_window(&init[1], &init[0])) init[1] += init[0];
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(init, on_host, 2, MPI_UINT64_T, MPI_SUM, node);
  PMPI_Comm_free(&node);
  int state = AUG_HOST_FREE;
  double mine_share = 0;
  if (rc == MPI_SUCCESS) {
    uint32_t usable = 0;
    for (int w = 0; have && w < WORDS; w++)
      usable += (uint32_t)__builtin_popcountll(all[w]);
    if (!have || !usable) usable = cores;
    if (qmin && qmin < usable) usable = qmin;
    mine_share = on_host[1] ? (double)on_host[0] / (double)on_host[1] : 0;
    if (usable && (uint32_t)n > usable)
      state = AUG_HOST_OVERSUBSCRIBED;
    else if (mine_share >= AUG_BUSY_INIT_SHARE)
      state = AUG_HOST_BUSY;
  }
  double v[2] = {state, mine_share}, worst[2];
  if (PMPI_Allreduce(v, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    memcpy(worst, v, sizeof v);
  *share = worst[1];
  return (int)worst[0];
}

void aug_lifecycle_init(int thread_level_provided, uint64_t t_enter) {
  if (atomic_exchange(&inited, 1)) return;
  aug_config_load();
  aug_clock_setup();
  PMPI_Comm_rank(MPI_COMM_WORLD, &aug_world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &aug_world_size);
  if (aug_spawned()) return; /* not recorded (rec_neigh.c) */
  aug_threads_setup();
  aug_thread *t = aug_thread_self(); /* the Init thread is thread 0 */
  augur_error err;
  if (aug_cfg.signature[0]) { /* signature mode: no trace, no writer */
    if (!t) return;
    aug_comm_setup();
    aug_sig_init(t_enter);
    if (!aug_cfg.signature[0]) return; /* bad signature: said why, the program runs on */
    record_lifecycle_event(thread_level_provided < 0 ? AUGUR_EV_INIT : AUGUR_EV_INIT_THREAD,
                           t_enter, 0);
    watch_end();
    aug_clock_calibrate();
    atomic_store(&aug_active, 1);
    return;
  }
  if (!t || mkdir_p(aug_cfg.trace_dir) != 0) {
    fprintf(stderr, "augur: rank %d: cannot create %s: %s (not recording)\n", aug_world_rank,
            aug_cfg.trace_dir, strerror(errno));
    return;
  }
  if (augur_writer_open(&aug_writer, aug_cfg.trace_dir, (uint32_t)aug_world_rank,
                        (uint32_t)aug_world_size, aug_cfg.zstd_level, &err) != AUGUR_OK) {
    fprintf(stderr, "augur: rank %d: %s (not recording)\n", aug_world_rank, err.msg);
    aug_writer = NULL;
    return;
  }
  /* zstd at close, not on the flushes the program's MPI calls pay for
   * (bench/recorder/README.md "Sixth round") */
  augur_writer_defer_compression(aug_writer);
  rank_def.cores = augur_cpu_info(&rank_def.cpu_quota, cpus, sizeof cpus);
  double busy_share;
  int state = host_cpu_state(rank_def.cores, rank_def.cpu_quota, &busy_share);
  aug_counters_setup(state, busy_share);
  aug_counters_sched_start();
  if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "?");
  sync_setup();
  uint64_t dropped = atomic_load(&aug_omp_dropped);
  omp_dropped = dropped;
  if (aug_world_size > 1)
    PMPI_Reduce(&dropped, &omp_dropped, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  prepare_meta(); /* every rank: the version string is cheap, rank 0 writes it */

  rank_def.rank = (uint32_t)aug_world_rank;
  rank_def.nranks = (uint32_t)aug_world_size;
  rank_def.pid = (uint64_t)getpid();
  rank_def.host = host;
  rank_def.cpus = cpus[0] ? cpus : NULL;
  rank_def.thread_level = thread_level_provided;
  rank_def.init_ns = t_enter;
  clock_sync(&rank_def.sync[0], AUGUR_SYNC_INIT);
  rank_def.nsync = 1;
  aug_counters_describe(&rank_def);
  if (augur_writer_def_rank(aug_writer, &rank_def, &err) != AUGUR_OK)
    aug_rec_fail("rank definition", err.msg);
  aug_comm_setup();
  if (aug_world_rank == 0) write_meta();

  record_lifecycle_event(thread_level_provided < 0 ? AUGUR_EV_INIT : AUGUR_EV_INIT_THREAD, t_enter,
                         thread_level_provided < 0 ? 0 : thread_level_provided);
  /* Definitions on disk now, so a rank that is killed early still has them. */
  if (augur_writer_flush(aug_writer, &err) != AUGUR_OK) aug_rec_fail("flush", err.msg);
  /* A killed rank keeps its buffered records: room for a signal handler to
   * write a full buffer, and a bound on how old unwritten records get. */
  if (augur_writer_reserve(aug_writer, t->cap, &err) != AUGUR_OK) aug_rec_fail("reserve", err.msg);
  watch_end();
  aug_clock_calibrate();
  if (aug_cfg.flush_seconds > 0)
    aug_flush_age = aug_clock_ticks_of_ns((uint64_t)aug_cfg.flush_seconds * 1000000000u);
  install_signal_handlers();
  atomic_store(&aug_active, 1);
}

void aug_lifecycle_finalize(void) {
  if (!atomic_load(&inited) || atomic_exchange(&finished, 1)) return;
  uint64_t t0 = aug_now();
  int was_active = atomic_exchange(&aug_active, 0);
  if (aug_cfg.signature[0]) { /* the program ran to its end (nobody ended it) */
    aug_sig_finalizing();
    aug_thread *t = aug_thread_self();
    if (t && was_active) {
      aug_thread_flush(t); /* the last call */
      /* MPI_Finalize too: it may be the last call of a phase (of the only
       * one, in a program that does not repeat), which it then completes. */
      record_lifecycle_event(AUGUR_EV_FINALIZE, t0, 0);
      aug_thread_flush(t);
    }
    aug_sig_finalize();
    atomic_store(&flushed, 1);
    return;
  }
  if (!aug_writer) {
    atomic_store(&flushed, 1);
    return;
  }
  clock_sync(&rank_def.sync[1], AUGUR_SYNC_FINALIZE);
  rank_def.nsync = 2;
  if (sync_comm != MPI_COMM_NULL) PMPI_Comm_free(&sync_comm);
  free(remote);
  remote = NULL;
  local = 0;
  if (was_active) record_lifecycle_event(AUGUR_EV_FINALIZE, t0, 0);
  rank_def.finalize_ns = aug_now();
  aug_counters_placement(aug_thread_self(), &rank_def);
  aug_counters_sched_end(&rank_def);
  augur_error err;
  pthread_mutex_lock(&aug_lock);
  if (aug_writer && augur_writer_def_rank(aug_writer, &rank_def, &err) != AUGUR_OK)
    fprintf(stderr, "augur: rank %d: rank definition: %s\n", aug_world_rank, err.msg);
  pthread_mutex_unlock(&aug_lock);
  close_writer();
  if (aug_world_rank == 0) {
    meta.complete = 1;
    write_meta();
  }
}

void aug_lifecycle_abort(void) {
  if (!atomic_load(&inited) || atomic_exchange(&finished, 1)) return;
  atomic_store(&aug_active, 0);
  close_writer();
}
