/* augur monitoring — the fixed-size summary records of profile mode.
 *
 * One augp_proc per process (image: an exec starts a new one), holding up to
 * AUGP_MAX_THREADS thread summaries. The same bytes are used everywhere:
 * written by libaugur-profile into the job's scratch directory, gathered with
 * one PMPI_Gather of fixed-size records to rank 0, carried in the wire
 * payload to augurd (docs/monitoring.md, "Wire format"). Every field is a
 * 64-bit integer or a char array whose size is a multiple of 8, so the layout
 * has no padding; the sizes are checked below. Byte order on the wire is
 * little-endian (the only order augur runs on today; a big-endian host
 * refuses to send, see mon_wire.c). */
#ifndef AUGUR_MON_RECORD_H
#define AUGUR_MON_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define AUGP_MAX_THREADS 8 /* beyond: folded into the last slot (flag) */

/* Counter slots, fixed so the database has one column per slot. */
enum augp_ctr {
  AUGP_CTR_TASK_CLOCK = 0, /* level 1: ns on CPU (software event) */
  AUGP_CTR_CYCLES,         /* level 1 */
  AUGP_CTR_INSTRUCTIONS,   /* level 1 */
  AUGP_CTR_FP_OPS,         /* level 2 */
  AUGP_CTR_LOADS,          /* level 2 */
  AUGP_CTR_STORES,         /* level 2 */
  AUGP_CTR_L1_DCM,         /* level 3 */
  AUGP_CTR_L2_DCM,         /* level 3 (perf fallback: generic cache-misses) */
  AUGP_CTR_TLB_DM,         /* level 3 */
  AUGP_CTR_BRANCHES,       /* level 3 */
  AUGP_CTR_BRANCH_MISSES,  /* level 3 */
  AUGP_CTR_RESERVED,
  AUGP_NCTR
};

/* MPI call classes (time and calls per class). */
enum augp_mpi {
  AUGP_MPI_P2P = 0,   /* blocking and non-blocking sends/receives, probes */
  AUGP_MPI_WAIT,      /* Wait/Test families */
  AUGP_MPI_COLL,      /* collectives, blocking and non-blocking */
  AUGP_MPI_INIT_FINI, /* Init, Init_thread, Finalize */
  AUGP_MPI_OTHER,     /* communicator management, MPI-IO, ... */
  AUGP_NMPI
};

/* I/O call classes. */
enum augp_io {
  AUGP_IO_READ = 0, /* read, pread, readv, fread */
  AUGP_IO_WRITE,    /* write, pwrite, writev, fwrite */
  AUGP_IO_META,     /* open, openat, creat, close, fopen, fclose, lseek */
  AUGP_IO_SYNC,     /* fsync, fdatasync, fflush */
  AUGP_NIO
};

#define AUGP_TF_OVERFLOW 1u /* more threads than slots: the last slot sums the rest */
/* An OpenMP thread (it ran an implicit task, or the initial thread of a
 * process whose runtime started profile mode's OMPT tool): its slot's
 * ctr[AUGP_CTR_RESERVED] holds its user time for the POP hybrid figures
 * (docs/monitoring.md, "Efficiencies"). */
#define AUGP_TF_OMP 2u

typedef struct augp_thread {
  uint64_t tid;
  uint64_t start_ns, end_ns; /* CLOCK_REALTIME */
  uint64_t cpu_ns;           /* CLOCK_THREAD_CPUTIME_ID */
  uint64_t mpi_ns, io_ns;
  uint64_t ctr[AUGP_NCTR];
  uint64_t flags;
  uint64_t nfolded; /* threads folded into this slot (overflow) */
} augp_thread;

#define AUGP_PF_EXEC     1u  /* ended by a successful exec (a new record follows) */
#define AUGP_PF_MPI      2u  /* called MPI_Init */
#define AUGP_PF_GATHERED 4u  /* reached rank 0 by the MPI_Finalize gather */
#define AUGP_PF_FORKED   8u  /* started by fork (no exec yet) */
#define AUGP_PF_NOFINISH 16u /* rank that never reached MPI_Finalize */
#define AUGP_PF_BADTIME  32u /* ended before it started (clock step): end set to start */
/* An OpenMP runtime (libgomp, libomp, libiomp5) was loaded: profile mode
 * does not measure it, so a rank's POP figures are its MPI ones. */
#define AUGP_PF_OMPRT 64u
/* The OpenMP runtime started profile mode's OMPT tool: the threads flagged
 * AUGP_TF_OMP carry their user time. */
#define AUGP_PF_OMP 128u

typedef struct augp_proc {
  char host[64];
  char program[128];      /* /proc/self/exe, truncated from the left if long */
  char counter_note[256]; /* which slots are missing and why */
  uint64_t pid, ppid;
  int64_t rank, nranks; /* -1 without MPI */
  uint64_t start_ns, end_ns;
  uint64_t utime_us, stime_us;
  uint64_t maxrss_kb, minflt, majflt, nvcsw, nivcsw, inblock, oublock;
  uint64_t level;
  uint64_t ctr_mask; /* bit i: slot i was measured */
  uint64_t ctr[AUGP_NCTR];
  uint64_t mpi_ns[AUGP_NMPI], mpi_calls[AUGP_NMPI];
  uint64_t io_ns[AUGP_NIO], io_calls[AUGP_NIO];
  uint64_t io_bytes_read, io_bytes_written;
  uint64_t flags;
  uint64_t nthreads; /* threads seen (may exceed AUGP_MAX_THREADS) */
  augp_thread threads[AUGP_MAX_THREADS];
} augp_proc;

/* The job record header. A job record = header + nprocs augp_proc. */
typedef struct augp_job {
  uint8_t uid[16];  /* random; the idempotency key (duplicates are ignored) */
  char job_id[64];  /* SLURM_JOB_ID or host-pid-time */
  char step[32];    /* SLURM_STEP_ID or "0" */
  char cluster[64]; /* AUGUR_CLUSTER or "local" */
  char user[32];
  char command[256]; /* the command line, truncated */
  uint64_t uid_num;
  uint64_t start_ns, end_ns;
  uint64_t level;
  uint64_t nprocs;
  int64_t exit_status;
} augp_job;

_Static_assert(sizeof(augp_thread) == 8 * (6 + AUGP_NCTR + 2), "augp_thread has padding");
_Static_assert(sizeof(augp_proc) % 8 == 0, "augp_proc size");
_Static_assert(offsetof(augp_proc, threads) ==
                   64 + 128 + 256 + 8 * (17 + AUGP_NCTR + 2 * AUGP_NMPI + 2 * AUGP_NIO + 4),
               "augp_proc has padding");
_Static_assert(sizeof(augp_job) == 16 + 64 + 32 + 64 + 32 + 256 + 8 * 6, "augp_job has padding");

/* Names for docs, JSON and the database (same order as the enums). */
extern const char *const augp_ctr_names[AUGP_NCTR];
extern const char *const augp_mpi_names[AUGP_NMPI];
extern const char *const augp_io_names[AUGP_NIO];

#endif
