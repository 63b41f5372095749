/* augur — thread states of a rank: where each thread's time goes between
 * MPI and the OpenMP runtime (docs/openmp.md "Thread states", docs/pop.md).
 *
 * A rank's records of both kinds (MPI calls, OpenMP point records), in time
 * order, go through a builder one at a time (augur_tstates_add), so a rank
 * of any length costs memory in its threads, its open constructs and its
 * parallel-region call sites, never in its length. The window is the one of
 * `augur report` and `augur simulate`: from the end of MPI_Init to the start
 * of MPI_Finalize (the first record / the last record's end when either is
 * missing). Every thread's time is counted over the whole window: before a
 * thread's first record and after its last it is idle (serial for the
 * initial thread). */
#ifndef AUGUR_OMP_H
#define AUGUR_OMP_H

#include <stddef.h>
#include <stdint.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/event.h"
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The states of docs/openmp.md, one at a time per thread. */
enum augur_tstate {
  AUGUR_TS_MPI = 0,   /* inside an MPI call */
  AUGUR_TS_OMP_WAIT,  /* OMP_WAIT_BEGIN .. END */
  AUGUR_TS_OMP_SYNC,  /* in a sync region, not waiting */
  AUGUR_TS_OMP_MUTEX, /* OMP_MUTEX_ACQUIRE .. ACQUIRED */
  AUGUR_TS_OMP_FORK,  /* the region's OMP_FORK .. this thread's OMP_ITASK_BEGIN */
  AUGUR_TS_OMP_JOIN,  /* encountering thread: its OMP_ITASK_END .. OMP_JOIN */
  AUGUR_TS_IDLE,      /* a non-initial thread outside any implicit task */
  AUGUR_TS_SERIAL,    /* the initial thread outside any parallel region, not in MPI */
  AUGUR_TS_USEFUL,    /* inside an implicit task, none of the above */
  AUGUR_TS_COUNT
};

/* "mpi", "omp_wait", ... (the JSON keys); "?" for other values. */
AUGUR_API const char *augur_tstate_name(unsigned state);

typedef struct augur_thread_time {
  uint32_t thread;             /* the recorder's thread index */
  int initial;                 /* the thread of MPI_Init (thread 0 without one) */
  uint64_t ns[AUGUR_TS_COUNT]; /* sums to the rank's window */
  uint64_t records;            /* records of this thread read */
  /* inside parallel regions this thread forked (its OMP_FORK .. OMP_JOIN,
   * whatever state): the initial thread's is the rank's parallel time */
  uint64_t region_ns;
} augur_thread_time;

/* One parallel region call site (OMP_FORK's callsite), over its instances.
 * Per team member (the thread's index in the team, OMP_ITASK_BEGIN's aux). */
typedef struct augur_omp_site {
  uint64_t callsite;
  uint64_t instances;   /* regions forked there */
  uint64_t elapsed_ns;  /* sum of fork .. join on the encountering thread */
  uint32_t team;        /* the largest team seen; the arrays have this many entries */
  uint64_t *useful_ns;  /* per member: useful time inside its implicit tasks */
  uint64_t *iterations; /* per member: OMP_WORK_BEGIN iterations */
  uint64_t *chunks;     /* per member: OMP_WORK_END chunks */
  double imbalance;     /* max / avg of useful_ns over the members (1 = balanced) */
  /* TALP, per instance and summed: with E the instance's elapsed time and
   * u_j member j's useful time in it, lb = team x (max u - avg u) and
   * sched = team x (E - max u), in thread-nanoseconds. */
  double lb_ns, sched_ns;
  uint32_t requested; /* the largest team size asked for at its forks (OMP_FORK aux) */
  /* Scalasca's wait at barrier, per barrier of an instance (its members'
   * OMP_SYNC_BEGIN of a barrier kind, matched in order): the sum over the
   * members of (the last arrival - their own arrival), in thread-ns. A
   * barrier whose last arrival executed a `single` since its previous
   * barrier (OMP_WORK_BEGIN single_executor) counts in single_wait_ns (the
   * others wait for that one thread: serial work), the rest in
   * barrier_wait_ns (load imbalance). */
  uint64_t barrier_wait_ns;
  uint64_t single_wait_ns;
  uint64_t single_callsite; /* the single's call site (the first seen), or 0 */
  /* Scalasca's thread management, in thread-ns: fork_ns = the sum over
   * instances and members of (the member's OMP_ITASK_BEGIN - OMP_FORK),
   * plus the part of the first barrier's waits that comes from members
   * starting late (a barrier's waits are split: each member's work since its
   * start, or since the previous barrier's release, against the longest -
   * the imbalance, in barrier_wait_ns or single_wait_ns - and the rest);
   * join_ns = the sum over instances of team x (OMP_JOIN - the last arrival
   * at the instance's last barrier): the barrier's release and the join,
   * when no member works (0 for an instance without a barrier). Instances
   * whose fork started a thread (its OMP_THREAD_BEGIN after the fork: the
   * runtime creating its pool) are left out of both, and counted in
   * created. */
  uint64_t fork_ns, join_ns;
  uint64_t created;
} augur_omp_site;

/* Time of a rank at one call site (or pair of call sites), over the run. */
typedef struct augur_omp_csite {
  uint64_t callsite;
  uint64_t callsite2; /* serial sections: the region before them (0: none) */
  uint64_t ns;        /* between the rank's first fork and its last join */
  uint64_t edge_ns;   /* before the first fork or after the last join */
  uint64_t count;
} augur_omp_csite;

typedef struct augur_rank_states {
  uint32_t rank;
  uint64_t t0, t1; /* the window (global ns) */
  int started;     /* a record fell inside a window (else everything is 0) */
  int finalized;   /* MPI_Finalize was read */
  uint64_t omp_records;
  /* Begin/end pairs that did not match: an end without its begin, a begin
   * still open at the thread's last record (closed there), a region never
   * joined (closed at the encountering thread's last record). */
  uint64_t unbalanced;
  /* Not counted there: the open frames of team members whose records end in
   * the closing barrier of a joined region (its ends not yet reported: libomp
   * reports them at the next fork, so a run's last region has none). */
  uint64_t late_ends;
  size_t nthreads;
  augur_thread_time *threads; /* by thread index, ascending */
  size_t nsites;
  augur_omp_site *sites; /* by elapsed time, descending */
  uint32_t team;         /* the largest team of its regions (1 without any) */
  /* Mutex waits (OMP_MUTEX_ACQUIRE .. ACQUIRED: critical, lock, ordered) per
   * acquire call site; count = acquisitions. By ns, descending. */
  size_t nmutexes;
  augur_omp_csite *mutexes;
  /* The initial thread outside any parallel region and not in MPI (serial),
   * per section between two regions: callsite = the fork site of the region
   * that follows (0: none, the rank's end), callsite2 = the region before
   * (0: none, the window's start; the first seen when several); count =
   * sections. By ns, descending. The sections before the first region and
   * after the last count in edge_ns (the team was not started yet, or is
   * done). */
  size_t nserial;
  augur_omp_csite *serial;
  /* The initial thread inside MPI and outside any region it forked, per MPI
   * call site (clipped to the window); count = calls; calls before the first
   * region or after the last count in edge_ns. By ns, descending. */
  size_t nmpi_serial;
  augur_omp_csite *mpi_serial;
} augur_rank_states;

/* The initial thread's entry (NULL when no record fell in the window). */
AUGUR_API const augur_thread_time *augur_rank_states_initial(const augur_rank_states *s);

typedef struct augur_tstates augur_tstates;

/* A builder for RANK; NULL when out of memory. */
AUGUR_API augur_tstates *augur_tstates_new(uint32_t rank);
/* One record of the rank, in time order (MPI sub-records are skipped).
 * Fails only when out of memory. Records after MPI_Finalize are ignored. */
AUGUR_API int augur_tstates_add(augur_tstates *b, const augur_event *ev, augur_error *err);
/* Closes what is open and fills *OUT (free with augur_rank_states_free).
 * Frees B in every case. Fails only when out of memory. */
AUGUR_API int augur_tstates_finish(augur_tstates *b, augur_rank_states *out, augur_error *err);
AUGUR_API void augur_tstates_free(augur_tstates *b);

/* Each state interval [t0, t1) of a thread, for a picture or an export:
 * per thread in time order, inside the window, adjacent intervals of the
 * same state merged, time outside any construct as AUGUR_TS_SERIAL (the
 * initial thread) or AUGUR_TS_IDLE. An interval is passed on once the
 * thread's next state is known (the last ones by augur_tstates_finish);
 * the intervals of one thread tile what its ns[] count. */
typedef void (*augur_tstates_interval_fn)(void *arg, uint32_t thread, unsigned state, uint64_t t0,
                                          uint64_t t1);
/* Sets the callback (NULL: none) before the first record is added. */
AUGUR_API void augur_tstates_on_interval(augur_tstates *b, augur_tstates_interval_fn fn, void *arg);
AUGUR_API void augur_rank_states_free(augur_rank_states *s);

/* The states of EV[0..n), one rank's records in time order. */
AUGUR_API int augur_rank_states_events(const augur_event *ev, size_t n, uint32_t rank,
                                       augur_rank_states *out, augur_error *err);
/* The states of RANK of T, from its records of both kinds. On a read
 * error *OUT still holds what was read before it (closed as a truncated
 * stream) and the error is returned. */
AUGUR_API int augur_rank_states_trace(augur_trace *t, uint32_t rank, augur_rank_states *out,
                                      augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
