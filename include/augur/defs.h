/* augur — trace definitions: everything that is not an event.
 * Written per rank into definition blocks of the rank file (so a crashed run
 * keeps them) and merged by the reader. See docs/trace-format.md. */
#ifndef AUGUR_DEFS_H
#define AUGUR_DEFS_H

#include <stddef.h>
#include <stdint.h>

#include "augur/api.h"
#include "augur/event.h" /* AUGUR_MAX_COUNTERS */

#ifdef __cplusplus
extern "C" {
#endif

enum augur_comm_kind {
  AUGUR_COMM_KIND_WORLD = 0,
  AUGUR_COMM_KIND_SELF = 1,
  AUGUR_COMM_KIND_DUP = 2,
  AUGUR_COMM_KIND_SPLIT = 3,
  AUGUR_COMM_KIND_SPLIT_TYPE = 4,
  AUGUR_COMM_KIND_CREATE = 5,
  AUGUR_COMM_KIND_CART = 6,
  AUGUR_COMM_KIND_CART_SUB = 7,
  AUGUR_COMM_KIND_GRAPH = 8,
  AUGUR_COMM_KIND_DIST_GRAPH = 9,
  AUGUR_COMM_KIND_INTERCOMM = 10,
  AUGUR_COMM_KIND_MERGE = 11,
  AUGUR_COMM_KIND_OTHER = 12,
  /* minor 5, one-sided (docs/trace-format.md "One-sided records"): a window
   * (parent = its communicator, members = the communicator's), and a group
   * named by MPI_Win_post / MPI_Win_start (parent 0, members sorted) */
  AUGUR_COMM_KIND_WINDOW = 13,
  AUGUR_COMM_KIND_GROUP = 14
};

#define AUGUR_MAX_DIMS 8

/* A communicator. Members are world ranks in the order of their rank in the
 * communicator (local group); for an intercommunicator `remote` holds the
 * remote group. Topology: Cartesian dims/periods (coords of comm rank r are
 * row-major over dims), or graph neighbour counts. */
typedef struct augur_comm_def {
  uint64_t id;
  uint64_t parent; /* id of the communicator it was created from (0 for world) */
  uint32_t kind;   /* enum augur_comm_kind */
  uint32_t size;
  int32_t *members; /* size entries */
  uint32_t remote_size;
  int32_t *remote; /* remote_size entries (intercomm) */
  uint32_t ndims;  /* Cartesian */
  int32_t dims[AUGUR_MAX_DIMS];
  int32_t periods[AUGUR_MAX_DIMS];
} augur_comm_def;

/* A file of MPI-IO records (format minor 5; docs/trace-format.md "MPI-IO
 * records"): its id (the records' `hash`) and the name as the application
 * gave it to MPI_File_open / MPI_File_delete. */
typedef struct augur_file_def {
  uint64_t id;
  char *name;
} augur_file_def;

/* A code module (executable or shared object) seen at a call site. */
typedef struct augur_module_def {
  uint32_t id;
  char *path;
} augur_module_def;

/* A call site: module + offset of the return address (PIE/ASLR safe). */
typedef struct augur_callsite_def {
  uint32_t id; /* global id in the reader; per-rank id in a rank file */
  uint32_t module;
  uint64_t offset;
} augur_callsite_def;

/* Source location of a call site, resolved with elfutils libdw. Strings are
 * owned by the trace; NULL when unknown. */
typedef struct augur_srcloc {
  const char *function;
  const char *file;
  int line;
  const char *module;
} augur_srcloc;

/* OS: the kernel's per-thread scheduler accounting (/proc/thread-self/schedstat):
 * "run-delay", the ns the thread was runnable but waited for a CPU. */
enum augur_counter_source {
  AUGUR_CTR_NONE = 0,
  AUGUR_CTR_PAPI = 1,
  AUGUR_CTR_PERF = 2,
  AUGUR_CTR_OS = 3
};

typedef struct augur_counter_def {
  uint32_t index;  /* slot in augur_event.ctr */
  uint32_t source; /* enum augur_counter_source */
  char *name;      /* as measured, e.g. "PAPI_TOT_INS", "instructions", "task-clock" */
} augur_counter_def;

enum augur_sync_kind { AUGUR_SYNC_INIT = 0, AUGUR_SYNC_FINALIZE = 1 };

/* Clock offset of this rank against rank 0, measured by ping-pong:
 * rank0_time ~= local_ns + offset_ns at local time local_ns. */
typedef struct augur_clock_sync {
  uint32_t kind; /* enum augur_sync_kind */
  uint64_t local_ns;
  int64_t offset_ns;
  uint64_t rtt_ns; /* best round trip seen; the offset's uncertainty is rtt/2 */
} augur_clock_sync;

/* A rank's CPU from local time NS on (augur_rank_def.moves). */
typedef struct augur_cpu_move {
  uint64_t ns;
  uint32_t cpu;
} augur_cpu_move;
#define AUGUR_MAX_MOVES 64

/* Per-rank facts. */
typedef struct augur_rank_def {
  uint32_t rank;
  uint32_t nranks;
  uint64_t pid;
  char *host;
  int32_t thread_level; /* MPI_THREAD_* provided, -1 if MPI_Init */
  uint64_t init_ns;     /* local time at MPI_Init entry */
  uint64_t finalize_ns; /* local time at MPI_Finalize exit, 0 if never reached */
  uint32_t nsync;
  augur_clock_sync sync[2];
  uint32_t ncounters;
  augur_counter_def counters[AUGUR_MAX_COUNTERS];
  char *counter_note; /* why counters are missing (or run-delay added), or NULL */
  /* Where the rank could run, at MPI_Init (augur_cpu_info); 0 / NULL =
   * unknown (traces before format minor 3). */
  uint32_t cores;     /* CPUs in its affinity mask */
  uint32_t cpu_quota; /* its cgroup's CPU quota in CPUs (rounded up), 0 = none */
  char *cpus;         /* the mask as a CPU list ("0-3,8"), NULL if unknown */
  /* Where the rank ran (written at MPI_Finalize on a host with more ranks
   * than CPUs, sampled at the run-delay counter's reads, i.e. at its MPI
   * calls: docs/trace-format.md, docs/simulate.md "Recorded placement"):
   * its Init thread's CPU from MPI_Init on, as the times (local ns) it was
   * first seen on a CPU; moves[0] is its CPU at MPI_Init. nmoves 0 =
   * unknown. moves_lost: changes after the first AUGUR_MAX_MOVES (then the
   * CPU after the last listed one is unknown). migrations: the kernel's
   * count of the thread's moves between CPUs at MPI_Finalize
   * (se.nr_migrations, with those between two calls), UINT64_MAX if
   * unknown. */
  uint32_t nmoves;
  augur_cpu_move *moves;
  uint64_t moves_lost;
  uint64_t migrations;
  /* The thread that called MPI_Init, from MPI_Init to MPI_Finalize (the
   * kernel's schedstat, written at MPI_Finalize on every host): its time on
   * a CPU and its time runnable but waiting for one (other processes or
   * ranks had the CPU: a busy or oversubscribed host). cpu_ns 0 = unknown
   * (recorders before stop 39, a rank that did not finalize, or MPI_Finalize
   * called by another thread). */
  uint64_t cpu_ns;
  uint64_t run_delay_ns;
} augur_rank_def;

/* The CPUs this process may run on. Returns the count of its affinity mask
 * (sysconf's online CPUs if the mask cannot be read, 0 if nothing can be);
 * *QUOTA (if not NULL) = its cgroup v2 CPU quota in CPUs, rounded up, 0 if
 * none; LIST (if not NULL, N bytes) = the mask as a Linux CPU list
 * ("0-3,8"), "" if unknown or longer than N. A few small file reads. */
AUGUR_API uint32_t augur_cpu_info(uint32_t *quota, char *list, size_t n);
/* The affinity mask as bits: CPU c is bit c % 64 of WORDS[c / 64], for the
 * first NWORDS x 64 CPUs (the rest are left out). 0, or -1 (WORDS all 0)
 * when it cannot be read. */
AUGUR_API int augur_cpu_mask(uint64_t *words, size_t nwords);
/* min(affinity count, quota): what one process of this host can use. */
AUGUR_API uint32_t augur_usable_cores(void);

/* OpenMP as the recorder saw it (trace.json "openmp", docs/openmp.md). */
typedef struct augur_omp_callback {
  const char *name; /* "parallel_begin", ... */
  int result;       /* ompt_set_callback's: 5 always ... 1 never, 0 error */
} augur_omp_callback;
typedef struct augur_omp_meta {
  /* "ompt", "ompt-preloaded", "off", "none", "unavailable"; NULL: no
   * "openmp" object (a reader then says "unknown") */
  const char *mode;
  const char *runtime; /* OMPT's runtime_version, or NULL/"" */
  size_t ncallbacks;
  const augur_omp_callback *callbacks;
  const char *note;             /* what this mode cannot see, one line, or NULL/"" */
  uint64_t dropped_before_init; /* OpenMP records dropped before MPI_Init */
} augur_omp_meta;

#ifdef __cplusplus
}
#endif
#endif
