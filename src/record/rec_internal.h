/* augur recorder — state shared by the recorder's own C files (not by the
 * Fortran wrappers, which only see rec.h).
 *
 * Configuration comes from the environment, set by `augur record`:
 *   AUGUR_TRACE_DIR      output directory (default ./augur-trace.augur)
 *   AUGUR_COUNTERS       "auto" (default), "none", or a comma list of PAPI names
 *                        (PAPI_*, or containing "::") and perf generic names
 *                        (instructions, cycles, task-clock, ...)
 *   AUGUR_PAYLOAD_HASH   1 = fingerprint message payloads (xxh3-64)
 *   AUGUR_BUFFER_EVENTS  events per thread buffer before a block is written (8192)
 *   AUGUR_ZSTD_LEVEL     zstd level of event blocks (0 = writer default)
 *   AUGUR_FLUSH_SECONDS  a thread's buffer is written as a block at its first MPI call
 *                        once its records are older than this (default 1; 0 = only
 *                        when full): a SIGKILL loses at most that much recording
 *   AUGUR_SIGNATURE      signature mode (rec_signature.c): no trace, phases matched
 *                        and timed online; AUGUR_SIGNATURE_OUT results file
 *                        (default augur-sigresult.txt), AUGUR_SIGNATURE_MEASURE K
 *   AUGUR_OMP            0 = no OMPT tool (rec_omp.c; --omp off)
 *   AUGUR_OMP_MODE       what `augur record --omp` decided (ompt, ompt-preloaded,
 *                        unavailable, none, off): context for trace.json "openmp" */
#ifndef AUGUR_REC_INTERNAL_H
#define AUGUR_REC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "augur/writer.h"
#include "rec.h"

#define AUG_PATH_MAX 4096

typedef struct aug_config {
  char trace_dir[AUG_PATH_MAX];
  char counters[512]; /* as given ("auto" when unset) */
  int counters_set;   /* AUGUR_COUNTERS was in the environment */
  int payload_hash;
  size_t buffer_events;
  int zstd_level;
  char signature[AUG_PATH_MAX];     /* "" = normal recording */
  char signature_out[AUG_PATH_MAX]; /* results file (signature mode) */
  long signature_measure;           /* K override, 0 = the signature's */
  long flush_seconds;               /* AUGUR_FLUSH_SECONDS: age bound of buffered records */
} aug_config;

/* Per-thread recorder state. Only its own thread touches it on the hot path;
 * the global lock guards the registry links and flushing. */
typedef struct aug_thread {
  augur_event *buf;
  size_t n;            /* records in buf */
  size_t soft_cap;     /* aug_rec_enter flushes at this fill level... */
  size_t limit;        /* ...held in limit, which aug_rec_exit sets to 0 when the buffer's
                          records are older than aug_flush_age */
  uint64_t flushed_at; /* aug_ticks() at the last flush of this buffer */
  size_t cap;          /* allocated records (soft_cap + room for sub-records) */
  uint32_t index;
  int depth; /* 1 while inside a wrapper */
  /* counters */
  int ctr_open; /* counters opened for this thread */
  int ctr_fd[AUGUR_MAX_COUNTERS];
  int papi_set;
  uint64_t ctr_last[AUGUR_MAX_COUNTERS];
  uint64_t mpi_delay, mpi_delay_entry; /* run-delay-mpi: the sum so far, the delay at entry */
  int mpi_delay_in;                    /* 1 between a call's entry and exit reads */
  /* where the thread ran (rec_counters.c, with run-delay): its CPU changes */
  int pl_cpu; /* the CPU at the last read, -1 before the first */
  uint32_t pl_n;
  uint64_t pl_lost;
  augur_cpu_move pl_moves[AUGUR_MAX_MOVES];
  /* scratch: request values, statuses, ints, packed payloads */
  uint64_t *s_reqs;
  size_t s_reqs_cap;
  MPI_Status *s_status;
  size_t s_status_cap;
  int *s_ints;
  size_t s_ints_cap;
  unsigned char *s_pack;
  size_t s_pack_cap;
  /* OpenMP records (rec_omp.c): a second buffer, written as kind-3 blocks by
   * the same flushes as buf; allocated at the thread's first OpenMP record. */
  augur_event *obuf;
  size_t on;            /* records in obuf (capacity: soft_cap) */
  uint64_t oflushed_at; /* aug_ticks() at the last flush of obuf */
  atomic_int in_omp;    /* 1 while the owner appends to obuf (see aug_omp_append) */
  uint32_t dispatched;  /* OMP_DISPATCH records since the thread's last OMP_WORK_BEGIN */
  uint64_t last_ns[2];  /* the largest t_end written of buf's and obuf's (aug_clock_keep_order) */
  struct aug_thread *next;
} aug_thread;

/* ---- global state (rec_state.c) ---- */
extern aug_config aug_cfg;
extern atomic_int aug_active;    /* recording on */
extern pthread_mutex_t aug_lock; /* writer, call-site map, thread registry */
extern augur_writer *aug_writer; /* NULL when closed */
extern int aug_world_rank, aug_world_size;
extern int aug_nctr; /* counters in use (0 = off) */

uint64_t aug_now(void);

/* ---- timestamps (rec_clock.c) ---- */
/* Hot-path timestamps: TSC ticks when the CPU has an invariant TSC, else
 * CLOCK_MONOTONIC ns; aug_clock_to_ns converts a buffer before it is written.
 * Records whose times are already ns (INIT, FINALIZE) carry AUG_TIME_IS_NS in
 * `rank`, which the recorder otherwise leaves 0 (the reader fills it). */
#define AUG_TIME_IS_NS 0x4e534e53u
extern int aug_tsc;
static inline uint64_t aug_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
  if (aug_tsc) return __builtin_ia32_rdtsc();
#endif
  return aug_now();
}
/* memset(ev, 0, sizeof *ev) written as 16-byte stores (the hot path's records): GCC -O2 makes that
 * memset a `rep stos`, whose start-up (~30 cycles on AMD Zen) is more than
 * the whole event fill. */
typedef unsigned char aug_v16 __attribute__((vector_size(16), aligned(1), may_alias));
static inline void aug_zero_event(augur_event *ev) {
  unsigned char *p = (unsigned char *)ev;
  const aug_v16 z = {0};
  _Static_assert(sizeof *ev == 120, "aug_zero_event stores 7 x 16 + 8 bytes");
  *(aug_v16 *)(p + 0) = z;
  *(aug_v16 *)(p + 16) = z;
  *(aug_v16 *)(p + 32) = z;
  *(aug_v16 *)(p + 48) = z;
  *(aug_v16 *)(p + 64) = z;
  *(aug_v16 *)(p + 80) = z;
  *(aug_v16 *)(p + 96) = z;
  ev->thread = 0;
  ev->rank = 0;
}

void aug_clock_setup(void);     /* Init, first */
void aug_clock_calibrate(void); /* Init, last */
/* Returns the largest t_end of the records converted (aug_clock_keep_order). */
uint64_t aug_clock_to_ns(augur_event *ev, size_t n);
/* aug_clock_to_ns in parts, for a pass over the records that does more
 * (aug_callsites_convert): the map taken now, then applied record by record. */
typedef struct aug_tick_map {
  uint64_t t, now;  /* a (ticks, ns) pair read now */
  double rate;      /* ns per tick */
  int tsc;          /* 0: the records' times are ns already */
  uint64_t max_end; /* the largest t_end applied so far (aug_clock_keep_order) */
} aug_tick_map;
void aug_clock_map_now(aug_tick_map *m);
static inline void aug_clock_apply(aug_tick_map *m, augur_event *e) {
  if (e->rank == AUG_TIME_IS_NS) {
    e->rank = 0;
  } else if (m->tsc) {
    /* through int64_t: one cvttsd2si, where a double to uint64_t conversion
     * tests and branches for values >= 2^63 (none here: ns since the record) */
    e->t_start = m->now - (uint64_t)(int64_t)((double)(int64_t)(m->t - e->t_start) * m->rate);
    e->t_end = m->now - (uint64_t)(int64_t)((double)(int64_t)(m->t - e->t_end) * m->rate);
  }
  if (e->t_end > m->max_end) m->max_end = e->t_end;
}
/* Keeps a thread's blocks of one kind in time order, EV[0..N) being the next
 * block converted to ns, MAX_END its largest t_end (the conversion's
 * aug_tick_map.max_end) and *LAST_NS the largest t_end written before it
 * (updated). Each block is converted at an anchor of its own, whose error
 * (the pair's read, the rate's update: tens of ns) can exceed the gap
 * between one call and the next (a Waitall's group flushes the buffer
 * between the call before it and its own start): a block that would start
 * before the previous one ended, which the reader drops as damage, moves by
 * the difference. */
void aug_clock_keep_order(uint64_t *last_ns, augur_event *ev, size_t n, uint64_t max_end);
/* ns as a duration in aug_ticks() units (after aug_clock_calibrate). */
uint64_t aug_clock_ticks_of_ns(uint64_t ns);
void aug_config_load(void);
/* Prints "augur: rank N: msg" once per distinct call site of failure and
 * stops recording (a broken writer must not break the application). */
void aug_rec_fail(const char *what, const char *msg);

/* ---- signature mode (rec_signature.c) ---- */
void aug_sig_init(uint64_t t_enter);          /* from MPI_Init, instead of opening a writer */
void aug_sig_feed(augur_event *ev, size_t n); /* one call's records (ns); may report to rank 0 */
void aug_sig_finalizing(void);                /* MPI_Finalize entered: no early stop from now */
void aug_sig_finalize(void); /* from MPI_Finalize: the report completed, results of a full run */

/* ---- threads (rec_thread.c) ---- */
aug_thread *aug_thread_self(void); /* creates lazily; NULL if out of memory */
void aug_thread_flush(aug_thread *t);
void aug_threads_flush_all(void);
void aug_threads_setup(void); /* once, from Init */
/* The age bound of buffered records in aug_ticks() units (AUGUR_FLUSH_SECONDS,
 * set at Init); UINT64_MAX = none. */
extern uint64_t aug_flush_age;
/* From a signal handler: writes every thread's buffered records with
 * augur_writer_events_in_signal (waits at most ~0.1 s for a flush in
 * progress). Returns the records written, or -1 if the lock stayed busy. */
long aug_threads_flush_in_signal(void);
/* Room for n contiguous records in this thread's buffer (one parent with its
 * sub-records must land in one block); commit them with aug_rec_advance. */
augur_event *aug_rec_reserve(aug_thread *t, size_t n);
void aug_rec_advance(aug_thread *t, size_t n);
unsigned char *aug_scratch_pack(size_t n);
/* The OpenMP hot path (rec_omp.c's callbacks): appends one point record
 * (t_start = t_end = now) to this thread's OpenMP buffer while recording is
 * active, and returns the thread (NULL when nothing was recorded: before
 * MPI_Init it counts the record in aug_omp_dropped). No malloc, no lock, no
 * syscall but the clock, except at a thread's first record and when the
 * buffer is full or older than aug_flush_age (then it is written first). */
aug_thread *aug_omp_append(uint16_t type, uint64_t callsite, uint64_t req, uint32_t aux,
                           int32_t peer, int32_t tag, uint64_t bytes, uint16_t flags);
extern atomic_ulong aug_omp_dropped; /* OpenMP records before MPI_Init */
/* This thread's state, or NULL if it has none yet (never allocates). */
aug_thread *aug_thread_here(void);

/* ---- the hot path, inline (the C wrappers: wrap.h; the groups of rec_fields.c, rec_neigh.c) ----
 * aug_rec_enter / exit / commit and aug_rec_reserve for the common case,
 * compiled into each wrapper: one TLS read per step, no call, no saved
 * registers. Anything else (no thread state yet, nested call, buffer at its
 * flush level or full, counters on) goes to an out-of-line function doing
 * what aug_rec_enter etc. do, so the records are the same field for field.
 * The Fortran bindings keep calling aug_rec_enter etc. (rec.h) with records
 * of their own, which aug_rec_commit copies into the buffer. */
extern _Thread_local aug_thread *aug_tls_thread __attribute__((tls_model("initial-exec")));

/* Called from the wrappers while they run (wrap.h AUG_WRAP): the record to
 * fill is the next slot of the thread's buffer, so committing it is t->n++
 * (no staging copy of 120 bytes, whose 16-byte reloads of just-written
 * scalar fields also stalled on store forwarding). NULL: not recorded. */
augur_event *aug_rec_begin_slow(unsigned type, const void *callsite);
static inline augur_event *aug_rec_begin(unsigned type, const void *callsite) {
  if (!atomic_load_explicit(&aug_active, memory_order_relaxed)) return NULL;
  aug_thread *t = aug_tls_thread;
  if (__builtin_expect(!t || t->depth || t->n >= t->limit || aug_nctr, 0))
    return aug_rec_begin_slow(type, callsite);
  t->depth = 1;
  augur_event *ev = t->buf + t->n;
  aug_zero_event(ev);
  ev->type = (uint16_t)type;
  ev->callsite = (uint64_t)(uintptr_t)callsite;
  ev->thread = t->index;
  ev->t_start = aug_ticks();
  return ev;
}

static inline void aug_rec_exit_in(augur_event *ev) {
  if (__builtin_expect(aug_nctr, 0)) {
    aug_rec_exit(ev);
    return;
  }
  ev->t_end = aug_ticks();
  aug_thread *t = aug_tls_thread;
  t->depth = 0;
  if (__builtin_expect(ev->t_end - t->flushed_at > aug_flush_age, 0)) t->limit = 0;
}

/* EV from aug_rec_begin (in its slot: t->n++) or any other record (copied,
 * by aug_rec_commit). */
static inline void aug_rec_commit_in(const augur_event *ev) {
  aug_thread *t = aug_tls_thread;
  if (__builtin_expect(t && ev == t->buf + t->n, 1)) {
    t->n++;
    return;
  }
  aug_rec_commit(ev);
}

/* Room for a group of N records (a parent and its sub-records) whose first
 * is *PARENT, which may be a wrapper's record in its slot: returns the
 * group's first record, holding the parent (use it, not PARENT, from then
 * on), and the thread in *TP; the caller fills the rest and commits them with
 * aug_rec_advance(*TP, N). NULL when out of memory. */
augur_event *aug_rec_group_slow(aug_thread *t, const augur_event *parent, size_t n);
static inline augur_event *aug_rec_group(aug_thread **tp, const augur_event *parent, size_t n) {
  aug_thread *t = aug_tls_thread;
  if (__builtin_expect(!t, 0) && !(t = aug_thread_self())) return NULL;
  *tp = t;
  augur_event *out = t->buf + t->n;
  if (__builtin_expect(t->n + n > t->cap, 0)) return aug_rec_group_slow(t, parent, n);
  if (parent != out) *out = *parent;
  return out;
}

/* ---- OpenMP (rec_omp.c) ---- */
/* trace.json "openmp" (docs/openmp.md) but dropped_before_init: found out
 * from what the runtime did (tool started, callbacks registered), which
 * runtimes are loaded, and AUGUR_OMP / AUGUR_OMP_MODE from `augur record`.
 * Strings and the callbacks array are static. */
void aug_omp_describe(augur_omp_meta *m);

/* ---- call sites (rec_callsite.c); caller holds aug_lock ---- */
/* Return addresses to call-site ids and, when TICKS is not NULL, times to
 * ns (aug_clock_apply) in the same pass: the two passes over a full 1 MB
 * buffer cost more in memory traffic than in work. */
int aug_callsites_convert(augur_event *ev, size_t n, aug_tick_map *ticks);
/* From a signal handler: only addresses that already have an id are
 * converted (a lookup, no allocation); the others become 0 (unknown). */
void aug_callsites_convert_known(augur_event *ev, size_t n);
/* The loaded module holding ADDR: its path ("" for the main program) and its
 * load base. Returns 0 when no module holds it. */
int aug_module_of(uint64_t addr, const char **name, uint64_t *base);

/* ---- counters (rec_counters.c) ---- */
/* What the ranks' hosts were at MPI_Init (rec_lifecycle.c host_cpu_state,
 * agreed over MPI_COMM_WORLD: the counters are the same on every rank). */
enum { AUG_HOST_FREE = 0, AUG_HOST_BUSY = 1, AUG_HOST_OVERSUBSCRIBED = 2 };
/* A busy host: the ranks of one host waited at least this share of their
 * MPI_Init (time on a CPU plus time waiting for one) for a CPU
 * (docs/cli.md "A busy host"). */
#define AUG_BUSY_INIT_SHARE 0.6
/* Process level, on the Init thread. HOST_STATE (AUG_HOST_*): OVERSUBSCRIBED
 * (a host has more ranks than usable CPUs) adds "run-delay" and
 * "run-delay-mpi", BUSY (other processes took the CPUs, INIT_SHARE of the
 * Init window) "run-delay" with a counter note; unless counters are "none". */
void aug_counters_setup(int host_state, double init_share);
/* Marks the thread's scheduler times at MPI_Init's entry (the wrappers);
 * aug_counters_init_window gives the thread's time on a CPU and waiting for
 * one since (ns), 1 if read, 0 if not (another thread, no schedstat). */
void aug_counters_init_mark(void);
int aug_counters_init_window(uint64_t *cpu, uint64_t *delay);
void aug_counters_thread_open(aug_thread *t);
void aug_counters_thread_close(aug_thread *t);
void aug_counters_read(aug_thread *t, uint64_t *out);
/* Fills ncounters/counters/counter_note of a rank def (strings static). */
void aug_counters_describe(augur_rank_def *def);
/* Fills nmoves/moves/moves_lost/migrations of a rank def from thread T's
 * CPU changes (sampled at its run-delay reads; nmoves 0 without). */
void aug_counters_placement(aug_thread *t, augur_rank_def *def);
/* The Init thread's time on a CPU and waiting for one from MPI_Init
 * (sched_start, there) to MPI_Finalize (sched_end: fills cpu_ns and
 * run_delay_ns of DEF, 0 if unreadable or called from another thread). */
void aug_counters_sched_start(void);
void aug_counters_sched_end(augur_rank_def *def);

/* ---- communicators (comm.c) ---- */
void aug_comm_setup(void);           /* registers world and self */
int aug_comm_rank_in(MPI_Comm comm); /* this process's rank in comm (cached) */
/* A Comm_idup request completed: map its new handle to the id chosen at the call. */
void aug_comm_idup_started(augur_event *ev, MPI_Comm parent, MPI_Comm *newcomm, MPI_Request req);
void aug_comm_idup_completed(uint64_t req);
/* 1 in a process started by MPI_Comm_spawn(_multiple) (it has a parent):
 * it is not recorded, since its ranks would overwrite the parent job's rank
 * files; its rank 0 says so on stderr (rec_neigh.c). After PMPI_Init. */
int aug_spawned(void);
/* aug_comm_created with its own creation counter ID_KIND (Comm_create_group:
 * collective over the group only, so it must not share Comm_create's). */
void aug_comm_created_as(augur_event *ev, MPI_Comm parent, MPI_Comm newcomm, unsigned kind,
                         unsigned id_kind);
extern atomic_int aug_idup_pending;
/* An object made collectively over COMM's members (a window): defined like a
 * communicator of KIND whose parent is COMM and whose members are COMM's, its
 * id mapped under KEY, the object's handle bytes (the MPIs keep them apart
 * from live communicator handles). Returns the id, or AUGUR_COMM_NONE. */
uint64_t aug_comm_define_object(MPI_Comm comm, uint64_t key, unsigned kind);
uint64_t aug_comm_object_id(uint64_t key); /* AUGUR_COMM_NONE when unknown */
void aug_comm_object_freed(uint64_t key);
/* World ranks of G's N members in group order (malloc'd; NULL if out of memory). */
int32_t *aug_group_world(MPI_Group g, int n);
void aug_comm_queue_def(const augur_comm_def *def); /* to the writer, under aug_lock */

/* ---- payload hashing of nonblocking receives (rec_fields.c) ---- */
void aug_recv_track(MPI_Request req, void *buf, int count, MPI_Datatype dt, int persistent);
void aug_recv_untrack(uint64_t req);
uint64_t aug_recv_hash(uint64_t req, const MPI_Status *st);

/* [*lo, *hi): the bytes BUF, COUNT, DT span (true extent); empty for
 * NULL, MPI_IN_PLACE, no data (rec_fields.c). */
void aug_buffer_span(const void *buf, int count, MPI_Datatype dt, uintptr_t *lo, uintptr_t *hi);

/* ---- large receive buffers (rec_recvbuf.c) ---- */
/* Before a receive: AUGUR_F_FRESH_BUF / AUGUR_F_UNTOUCHED for its buffer
 * (0 below 64 KiB); the buffer then counts as used. */
uint16_t aug_recv_buffer(const void *buf, int count, MPI_Datatype dt);
/* Sendrecv: those flags belong to the SUB_RECV, not to the (send) parent. */
void aug_move_recv_buffer_flags(augur_event *parent, augur_event *sub);

/* aug_fill_p2p_dir's out-of-line parts (rec_fields.c): ev->comm and
 * AUGUR_F_INTER from the communicator table; the payload hash of a send and
 * AUGUR_F_FROM_RECV (payload hashing on). */
void aug_fill_comm(augur_event *ev, MPI_Comm comm);
void aug_fill_send_hash(augur_event *ev, const void *buf, int count, MPI_Datatype dt);
/* Internal p2p fill with an explicit direction (MPI_BOTTOM is NULL). Inline:
 * MPI_COMM_WORLD (an intracommunicator, id AUGUR_COMM_WORLD: what
 * aug_comm_id and aug_comm_is_inter answer first) needs no table lookup. */
static inline void aug_fill_p2p_dir(augur_event *ev, int count, MPI_Datatype dt, int peer, int tag,
                                    MPI_Comm comm, const void *buf, int is_send) {
  if (__builtin_expect(comm == MPI_COMM_WORLD, 1)) /* the layout: any other is a call anyway */
    ev->comm = AUGUR_COMM_WORLD;
  else
    aug_fill_comm(ev, comm);
  ev->peer = aug_peer(peer);
  ev->tag = aug_tag(tag);
  if (peer == MPI_ANY_SOURCE) ev->flags |= AUGUR_F_ANY_SOURCE;
  if (tag == MPI_ANY_TAG) ev->flags |= AUGUR_F_ANY_TAG;
  if (is_send) {
    ev->bytes = aug_bytes(count, dt);
    /* without payload hashing ev->hash stays the 0 every record starts with
     * (aug_rec_begin, aug_rec_enter, aug_sub_record zero it) */
    if (aug_cfg.payload_hash) aug_fill_send_hash(ev, buf, count, dt);
  } else {
    ev->bytes_recv = aug_bytes(count, dt);
  }
}
uint64_t aug_status_bytes(const MPI_Status *st);

#endif
