/* augur — diagnose: where a run loses time, why, and what to change.
 *
 * augur_diagnose() streams the merged trace once (docs/diagnose.md):
 *  1. exact wait states at every blocking point, from the shared matcher
 *     (late sender, late receiver, wrong order, wait at N x N collective,
 *     wait at barrier, late broadcast, early reduce), each attributed to
 *     (pattern, call site, communicator, rank);
 *  2. KappaPi's active-process timeline (how many ranks compute at each
 *     moment, in fixed bins over the run) and its inefficiency intervals,
 *     ranked by lost process-time;
 *  3. causes on top of the wait states (blocked sender chains, multiple
 *     output, master/worker, load imbalance, late arrival, serialization,
 *     slow communication), grouped over the run by (pattern, call site);
 *  4. the critical path and each call site's share of it, and per finding an
 *     estimate of the time a fix would save.
 * Memory grows with ranks, call sites and what is in flight, never with the
 * number of events. */
#ifndef AUGUR_DIAGNOSE_H
#define AUGUR_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/event.h" /* before reader.h: defs.h needs AUGUR_MAX_COUNTERS */
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the JSON document augur_diagnosis_write_json produces. */
#define AUGUR_DIAGNOSE_SCHEMA 1

/* Pattern ids. The first seven are wait states (step 1), the rest causes.
 * Values index arrays: keep them dense; names in augur_dx_pattern_id(). */
enum augur_dx_pattern {
  AUGUR_DX_LATE_SENDER = 0,    /* "late_sender" */
  AUGUR_DX_LATE_RECEIVER,      /* "late_receiver" */
  AUGUR_DX_WRONG_ORDER,        /* "wrong_order" */
  AUGUR_DX_WAIT_AT_COLLECTIVE, /* "wait_at_collective" (N x N) */
  AUGUR_DX_WAIT_AT_BARRIER,    /* "wait_at_barrier" */
  AUGUR_DX_LATE_BROADCAST,     /* "late_broadcast" (1 -> N) */
  AUGUR_DX_EARLY_REDUCE,       /* "early_reduce" (N -> 1) */
  AUGUR_DX_BLOCKED_SENDER,     /* "blocked_sender" */
  AUGUR_DX_MULTIPLE_OUTPUT,    /* "multiple_output" */
  AUGUR_DX_MASTER_BOUND,       /* "master_bound" */
  AUGUR_DX_WORKERS_BOUND,      /* "workers_bound" */
  AUGUR_DX_LOAD_IMBALANCE,     /* "load_imbalance" */
  AUGUR_DX_LATE_ARRIVAL,       /* "late_arrival" */
  AUGUR_DX_SERIALIZATION,      /* "serialization" */
  AUGUR_DX_SLOW_COMMUNICATION, /* "slow_communication" */
  AUGUR_DX_COLLECTIVE_VOLUME,  /* "collective_volume" */
  AUGUR_DX_POLLING,            /* "polling" */
  AUGUR_DX_IO_SERIALISED,      /* "io_serialised": the last rank at a collective was late
                                  from MPI-IO (docs/diagnose.md) */
  AUGUR_DX_IO_SMALL_REQUESTS,  /* "io_small_requests": many small independent MPI-IO requests */
  AUGUR_DX_IO_IMBALANCE,       /* "io_imbalance": the last rank at a collective was late from
                                  more MPI-IO than the first (docs/diagnose.md) */
  AUGUR_DX_IO_COLLECTIVE,      /* "io_collective": time inside collective MPI-IO data calls
                                  after the last rank arrived (docs/diagnose.md) */
  /* one-sided (docs/diagnose.md "One-sided wait states") */
  AUGUR_DX_LATE_POST,       /* "late_post": an origin waits for the target's MPI_Win_post */
  AUGUR_DX_EARLY_WAIT,      /* "early_wait": MPI_Win_wait before the origins' Win_complete */
  AUGUR_DX_LATE_COMPLETE,   /* "late_complete": ... after the origin's last RMA operation */
  AUGUR_DX_WAIT_AT_FENCE,   /* "wait_at_fence" */
  AUGUR_DX_LOCK_CONTENTION, /* "lock_contention" */
  AUGUR_DX_RMA_VOLUME,      /* "rma_volume": completing large one-sided transfers */
  /* OpenMP (docs/diagnose.md "OpenMP patterns"): lost thread-time */
  AUGUR_DX_OMP_LOAD_IMBALANCE, /* "omp_load_imbalance" */
  AUGUR_DX_OMP_CRITICAL,       /* "omp_critical_contention" */
  AUGUR_DX_OMP_FORK_JOIN,      /* "omp_fork_join" */
  AUGUR_DX_MPI_SERIAL,         /* "mpi_in_serial_section" */
  AUGUR_DX_OMP_SERIAL,         /* "omp_serial_region" */
  AUGUR_DX_OMP_LIMITED,        /* "omp_limited_parallelism" */
  AUGUR_DX_NPATTERNS
};
#define AUGUR_DX_FIRST_OMP   AUGUR_DX_OMP_LOAD_IMBALANCE /* patterns from here on are OpenMP's */
#define AUGUR_DX_NWAITSTATES 7                           /* patterns 0..6 are wait states */

AUGUR_API const char *
augur_dx_pattern_id(int pattern); /* "late_sender", ...; "?" if out of range */
AUGUR_API const char *augur_dx_pattern_title(int pattern); /* "Late sender", ... for people */
AUGUR_API int augur_dx_pattern_from_id(const char *id);    /* -1 if unknown */

typedef struct augur_dx_options {
  double min_share;     /* findings below this share of process-time are not
                           reported; 0 = default 0.02 (2 %) */
  uint64_t eager_limit; /* bytes; 0 = infer from the trace */
  uint32_t bins;        /* active-process timeline bins; 0 = 1000 */
  /* Called now and then while streaming (may be NULL). */
  augur_progress_fn progress; /* events read of the trace's */
  void *progress_arg;
  /* Opens the merged stream the diagnosis reads (NULL: augur_stream_merged).
   * It must give that stream's records, in its order: `diagnose --parallel`
   * gives one whose blocks other analysis ranks decode
   * (augur_stream_merged_sources, docs/parallel.md). */
  int (*open_stream)(void *arg, augur_trace *t, augur_stream **s, augur_error *err);
  void *open_stream_arg;
  /* io_collective: bytes per second per rank that moving a collective MPI-IO
   * call's data takes at least (the file system's plateau); 0 = 256 MiB/s,
   * the lowest measured on the development machine (docs/diagnose.md) */
  double io_bandwidth;
} augur_dx_options;

typedef struct augur_dx_callsite {
  uint32_t id;          /* global call-site id (0 = unknown) */
  const char *function; /* NULL when it could not be resolved */
  const char *file;
  int line;
  const char *where;  /* its name for people (augur_fmt_callsite), never NULL */
  const char *module; /* module path, NULL when unknown */
  uint64_t offset;    /* in the module */
  double seconds;     /* this call site's part of the finding */
} augur_dx_callsite;

/* One instance worth pointing at (the worst few per finding): rank r lost
 * t1 - t0 ns there. For the HTML timeline marks. */
typedef struct augur_dx_mark {
  uint32_t rank;
  uint64_t t0, t1; /* global ns */
} augur_dx_mark;

typedef struct augur_dx_finding {
  int pattern;           /* enum augur_dx_pattern */
  int wait_state;        /* the wait state it was found in (0..6), or -1 (cause found
                            without one, e.g. slow_communication) */
  double seconds;        /* lost process-time, summed over ranks and instances */
  double share;          /* seconds / process_seconds */
  double saving_seconds; /* estimated shortening of the run if fixed */
  uint64_t instances;
  uint64_t comm; /* communicator, or 0 when several */
  uint32_t nranks;
  uint32_t *ranks; /* ranks that lose the time, ascending */
  size_t ncallsites;
  augur_dx_callsite *callsites; /* where the time is lost, by seconds descending */
  char *cause;                  /* one or two sentences: who, what, from where */
  char *recommendation;         /* what to change */
  char *undecided;              /* what could not be decided and why, or NULL */
  size_t nmarks;
  augur_dx_mark *marks; /* worst instances, by duration descending (at most 16) */
  /* OpenMP patterns (pattern >= AUGUR_DX_FIRST_OMP): the lost thread-time,
   * and the threads per rank it is shared by (the largest team; for
   * omp_limited_parallelism the threads the regions could have had).
   * seconds = the sum over ranks of thread_seconds / threads: lost
   * process-time, which ranks them with the MPI findings. 0 otherwise. */
  double thread_seconds;
  uint32_t threads;
  /* Point-to-point patterns (late sender and its causes, wrong order, late receiver): the
   * partner whose messages account for the largest part of the lost time (the sender; for
   * late_receiver the receiver) and that part, 0..1. -1 and 0 for the other patterns. */
  int32_t top_partner;
  double top_partner_share;
} augur_dx_finding;

/* An inefficiency interval of the active-process timeline: a maximal run of
 * bins where fewer than all ranks compute. */
typedef struct augur_dx_interval {
  uint64_t t0, t1;     /* global ns */
  double lost_seconds; /* integral of (ranks - active) over the interval */
  double min_active;   /* fewest ranks computing (bin mean) */
  int finding;         /* index in findings of what most of it is, or -1 */
} augur_dx_interval;

/* One call site on the critical path. */
typedef struct augur_dx_path_site {
  uint32_t callsite;    /* the MPI call (0 = unknown / program start) */
  const char *function; /* resolved, or NULL */
  const char *file;
  int line;
  const char *where;      /* its name for people (augur_fmt_callsite), never NULL */
  const char *module;     /* module path, NULL when unknown */
  uint64_t offset;        /* in the module */
  double compute_seconds; /* compute on the path that ends at this call */
  double mpi_seconds;     /* time inside this call on the path */
  double share;           /* (compute + mpi) / path length */
} augur_dx_path_site;

typedef struct augur_diagnosis {
  uint32_t nranks;
  uint64_t t_begin, t_end; /* analysed window, global ns (first Init end .. last Finalize start) */
  double total_seconds;    /* t_end - t_begin */
  double process_seconds;  /* sum over ranks of their windows */
  uint64_t events;
  int has_counters, has_hashes;

  double wait_seconds[AUGUR_DX_NWAITSTATES]; /* exact wait-state totals */
  uint64_t wait_instances[AUGUR_DX_NWAITSTATES];

  size_t nfindings;
  augur_dx_finding *findings; /* at or above the threshold, by seconds descending */
  size_t nbelow;              /* findings found but below the threshold */
  double min_share;

  size_t nintervals;
  augur_dx_interval *intervals; /* by lost_seconds descending (at most 20) */
  uint32_t nbins;
  uint64_t bin_ns; /* bin k covers t_begin + k*bin_ns .. + bin_ns */
  float *active;   /* mean number of ranks computing per bin */

  double path_seconds; /* critical path length (= total_seconds) */
  size_t npath;
  augur_dx_path_site *path; /* by share descending (at most 20) */

  uint64_t eager_max;      /* largest standard send seen completing before its receive was posted */
  uint64_t rendezvous_min; /* smallest standard send seen waiting for its receive (0 = none) */
  uint64_t eager_limit;    /* the limit used: given, or inferred (0 = none inferred) */
  int eager_given;         /* 1: eager_limit comes from the options (--eager-limit) */

  /* Where the ranks ran (augur_trace_hosts). With more ranks than CPUs
   * on a host, ranks wait for a CPU too: said first, before the findings. */
  uint32_t hosts;          /* distinct hosts */
  int placement_known;     /* 1: every host's usable CPUs were recorded */
  uint32_t oversubscribed; /* hosts with more ranks than usable CPUs */
  uint32_t busiest_ranks;  /* the host with the most ranks per CPU: its ranks, */
  uint32_t busiest_cores;  /* its CPUs (0 = unknown) */
  char busiest_host[64];   /* and its name (cut) */
  char *oversubscription;  /* what it means, when oversubscribed or busy (else NULL) */
  /* The ranks' time runnable but waiting for a CPU (augur_hosts.run_delay_ns,
   * seconds; -1 = not recorded) and its share of their MPI_Init–MPI_Finalize
   * windows. A share at least min_share on a host that is not oversubscribed
   * is a busy host: other processes took the CPUs, and the warning says so. */
  double run_delay_seconds;
  double run_delay_share;

  size_t nnotes;
  char **notes; /* what the diagnosis could not decide for the whole trace */

  /* OpenMP (docs/diagnose.md "OpenMP patterns"): ranks with OpenMP records
   * (0: none, no OpenMP pattern looked for), the largest team, and the
   * OpenMP findings among nbelow */
  uint32_t omp_ranks, omp_threads;
  size_t omp_below;

  double io_bandwidth;    /* io_collective's reference, bytes/s per rank: given or 256 MiB/s */
  int io_bandwidth_given; /* 1: from the options (io_bandwidth, --io-bandwidth) */
} augur_diagnosis;

/* Where D's eager limit comes from: "given" (options), "inferred" (standard
 * sends up to eager_max finished before their receive, from rendezvous_min
 * they waited for it, eager_max < rendezvous_min), "at_least" (only the
 * former seen), "below" (only the latter), "unclear" (both seen, and they
 * overlap), "none" (neither). */
AUGUR_API const char *augur_dx_eager_source(const augur_diagnosis *d);

/* Diagnoses TRACE. Fails on a damaged trace (the reader's message: file, rank,
 * offset, expectation) or when memory runs out. */
AUGUR_API int augur_diagnose(augur_trace *t, const augur_dx_options *opt, augur_diagnosis **out,
                             augur_error *err);
AUGUR_API void augur_diagnosis_free(augur_diagnosis *d);

/* Writers; return 0, or -1 with err set when writing fails. */
AUGUR_API int augur_diagnosis_write_text(const augur_diagnosis *d, FILE *f, augur_error *err);
AUGUR_API int augur_diagnosis_write_json(const augur_diagnosis *d, FILE *f, augur_error *err);

/* A table of figures computed outside the diagnosis, for its page (the CLI
 * fills one per section of the POP efficiencies: the diagnosis does not
 * depend on them). Every string is the caller's, and is escaped. */
typedef struct augur_dx_figure {
  const char *key;  /* the row's data-key */
  const char *name; /* the figure */
  const char *what; /* its formula, or what it measures (may be NULL) */
  int depth;        /* 0: a top figure; k: a factor of the row above at k - 1 */
  double value;     /* < 0 or NaN: unknown, and shown so */
} augur_dx_figure;

typedef struct augur_dx_figures {
  const char *id;           /* the table's element id */
  const char *title;        /* its heading */
  const char *const *notes; /* why the figures cannot be trusted, first */
  size_t nnotes;
  const augur_dx_figure *rows;
  size_t nrows;
  const char *detail; /* a line under the table (may be NULL) */
} augur_dx_figures;

/* One self-contained page: the timeline of the whole run (include/augur/
 * timeline.h) with the findings' worst instances marked, the active-process
 * curve, the findings and the critical path; the NFIGS tables of FIGS (may
 * be NULL, 0) under the run's facts. Streams the trace again. */
AUGUR_API int augur_diagnosis_write_html(const augur_diagnosis *d, augur_trace *t, FILE *f,
                                         const char *title, const augur_dx_figures *figs,
                                         size_t nfigs, augur_error *err);

/* The parts augur_diagnosis_write_html is made of, for a page that puts
 * them in its own order (augur summary, docs/summary.md). Strings are
 * escaped; nothing here fails but the timeline's two. */
struct augur_timeline;
/* <!DOCTYPE html> to <h1>TITLE</h1>: the page's head with its styles and
 * CSS (extra rules, may be NULL) after them. */
AUGUR_API void augur_dx_html_head(FILE *f, const char *title, const char *css);
/* TEXT (may be NULL) escaped for HTML text and attribute values. */
AUGUR_API void augur_dx_html_text(FILE *f, const char *text);
/* The NFIGS tables of FIGS (may be NULL, 0), each under its <h2> title:
 * its warnings first, an unknown figure said, never a number. */
AUGUR_API void augur_dx_html_figures(FILE *f, const augur_dx_figures *figs, size_t nfigs);
/* The first MAX findings of D (MAX 0: all) as <table id="findings">, a row
 * <tr class="finding" id="finding-N"> each; none: <p id="no-findings">. */
AUGUR_API void augur_dx_html_findings(FILE *f, const augur_diagnosis *d, size_t max);
/* The timeline of D's analysed window of T, the worst instances of the
 * findings marked and the inefficiency intervals as bands: 0 and *TL, or
 * -1 with ERR set (a damaged trace). Free it with augur_timeline_free. */
AUGUR_API int augur_dx_html_timeline_build(const augur_diagnosis *d, augur_trace *t,
                                           struct augur_timeline **tl, augur_error *err);
/* TL (NULL: says there is none) as <div id="timeline">, then the
 * active-process curve of D on its time axis under <h2>Active
 * processes</h2>; 0, or -1 with ERR set. */
AUGUR_API int augur_dx_html_timeline(FILE *f, const augur_diagnosis *d,
                                     const struct augur_timeline *tl, const char *title,
                                     augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
