/* libaugur-profile — internal protocol between its files.
 *
 * State lives in three places: the process (prof_core.c: identity, finished
 * thread summaries, the record written at exit), one prof_thread per live
 * thread (its accumulators, written only by that thread and read by the
 * exiting thread at process end, hence relaxed atomics), and the counter
 * plan (prof_counters.c: which slot is measured by what, and why not). */
#ifndef AUGUR_PROF_H
#define AUGUR_PROF_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "augur/api.h"
#include "mon_record.h"

typedef struct prof_thread {
  struct prof_thread *next; /* live-thread registry, under prof_lock */
  pthread_t self;
  uint64_t tid;
  uint64_t start_ns;   /* CLOCK_REALTIME */
  uint64_t start_mono; /* CLOCK_MONOTONIC: end = start + the monotonic duration */
  _Atomic uint64_t mpi_ns[AUGP_NMPI], mpi_calls[AUGP_NMPI];
  _Atomic uint64_t io_ns[AUGP_NIO], io_calls[AUGP_NIO];
  _Atomic uint64_t io_rd, io_wr;
  int fd[AUGP_NCTR];         /* perf_event fds, -1 if none */
  uint64_t fd_id[AUGP_NCTR]; /* their kernel event ids (the program may reuse the fd) */
  int papi_set;              /* PAPI event set, -1 if none */
  int in_lib;                /* >0: inside augur's own I/O, not counted */
  /* OpenMP (prof_omp.c, OMPT): time in implicit tasks and in
   * synchronisation waits, and the start of the open one (0: none). */
  _Atomic uint64_t omp_task_ns, omp_wait_ns, omp_task_t0, omp_wait_t0;
  /* On the thread that forks: the runtime's time in its regions outside
   * its own implicit task (fork, join), and the open region's start and
   * implicit-task time at its fork. */
  _Atomic uint64_t omp_fork_ns, omp_par_t0, omp_par_task0;
  _Atomic int omp; /* ran an implicit task of a parallel region */
} prof_thread;

/* Relaxed add on a counter only its own thread writes: two plain moves on
 * x86, not a locked instruction. */
#define PROF_ADD(a, d)                                                                             \
  atomic_store_explicit(&(a), atomic_load_explicit(&(a), memory_order_relaxed) + (d),              \
                        memory_order_relaxed)
#define PROF_GET(a) atomic_load_explicit(&(a), memory_order_relaxed)

/* ---- prof_core.c ---- */
extern int prof_level;        /* 0: inactive (no AUGUR_PROFILE_DIR or level 0) */
extern int prof_reported;     /* this image's record is written (gather or exit) */
prof_thread *prof_self(void); /* NULL when inactive */
uint64_t prof_mono_ns(void);
uint64_t prof_real_ns(void);
/* The end of an interval that started at START_REAL (CLOCK_REALTIME) and
 * START_MONO: START_REAL plus the monotonic time since, so a step of the
 * wall clock meanwhile cannot make it end before it starts. */
uint64_t prof_end_ns(uint64_t start_real, uint64_t start_mono);
/* Fills rec with this process's summary so far (threads still running are
 * read in place); flags are OR-ed in. */
void prof_snapshot(augp_proc *rec, uint64_t flags);
/* Writes n records as one file in the job directory; 0 or -1. */
int prof_write_records(const augp_proc *recs, uint64_t n, const char *kind);
void prof_set_rank(int64_t rank, int64_t nranks);
/* Thread lifecycle (prof_thread.c calls these). */
prof_thread *prof_thread_begin(void);
void prof_thread_end(prof_thread *t);
/* Before exec: write this image's record. After a failed exec: start over. */
void prof_before_exec(void);
void prof_after_failed_exec(void);
/* Before _exit: write this image's record (not in a vfork child). */
void prof_before_exit(void);

/* ---- prof_counters.c ---- */
void prof_ctr_plan(int level); /* once per process, main thread */
void prof_ctr_open(prof_thread *t);
/* Reads t's counters into out (slots not measured stay 0); self: t is the
 * calling thread (PAPI can only be read there). */
void prof_ctr_read(prof_thread *t, uint64_t *out, int self);
void prof_ctr_close(prof_thread *t);
uint64_t prof_ctr_mask(void);
const char *prof_ctr_note(void);

/* ---- prof_omp.c ---- */
/* 1 once an OpenMP runtime started the tool (ompt_start_tool). */
int prof_omp_active(void);
/* The user time of thread T for the POP hybrid figures (docs/monitoring.md,
 * "Efficiencies"), at monotonic time NOW: the initial thread (INITIAL) its
 * life less its MPI time, OpenMP waits and fork/join time; another OpenMP
 * thread its time
 * in implicit tasks less its waits and MPI time; 0 for other threads. */
uint64_t prof_omp_useful(prof_thread *t, int initial, uint64_t life, uint64_t mpi, uint64_t now);

/* ---- prof_io.c ---- */
void prof_io_resolve(void);

#endif
