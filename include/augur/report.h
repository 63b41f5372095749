/* augur — the `report` analysis: where the time goes.
 *
 * augur_report_compute streams every rank once (one rank stream open at a
 * time) and keeps only aggregates: memory grows with ranks^2 (the
 * communication matrix) and with the number of distinct (call, call site)
 * pairs, never with trace length.
 *
 * Definitions (all times in ns on the trace's global timeline):
 *   rank window   from the end of the rank's MPI_Init(_thread) to the start
 *                 of its MPI_Finalize (to the end of its last call if it
 *                 never reached MPI_Finalize).
 *   MPI time      sum of the durations of the rank's MPI calls inside the
 *                 window (parent events only, never sub-records).
 *   compute time  sum of the gaps between consecutive MPI calls inside the
 *                 window (threads merged: a gap starts at the latest end of
 *                 any earlier call, so overlapping calls add no compute).
 *   wall time     first MPI_Init start to last MPI_Finalize end over ranks.
 *   messages      point-to-point sends with a real peer: every SEND..IRSEND,
 *                 SENDRECV(_REPLACE) event, and every completion of a
 *                 persistent send request (one per MPI_Start); not the
 *                 *_INIT calls themselves, not MPI_PROC_NULL.
 * The JSON schema of augur_report_json is documented in docs/cli.md. */
#ifndef AUGUR_REPORT_H
#define AUGUR_REPORT_H

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

/* Version of the JSON document augur_report_json produces. */
#define AUGUR_REPORT_SCHEMA 1

typedef struct augur_report_rank {
  uint32_t rank;
  uint64_t events;    /* records read (parents + sub-records) */
  uint64_t window_ns; /* see above */
  uint64_t compute_ns;
  uint64_t mpi_ns;
  uint64_t init_ns;     /* duration of MPI_Init(_thread), 0 if not seen */
  uint64_t finalize_ns; /* duration of MPI_Finalize, 0 if not seen */
  int finalized;        /* 1 if the rank's MPI_Finalize was read */
  int damaged;          /* 1 if reading the rank stopped at an error */
} augur_report_rank;

/* One call site of one call type. */
typedef struct augur_report_site {
  uint32_t callsite; /* global call-site id, 0 = unknown */
  uint64_t count;
  uint64_t time_ns;
} augur_report_site;

/* One MPI call type (MPI_Init and MPI_Finalize are not counted: their time
 * is outside every rank window). */
typedef struct augur_report_call {
  unsigned type; /* enum augur_event_type */
  uint64_t count;
  uint64_t time_ns;
  uint64_t bytes_sent; /* sum of augur_event.bytes */
  uint64_t bytes_recv; /* bytes received (status counts) by the calls that completed a
                          receive: MPI_Recv, MPI_Sendrecv, MPI_Wait.., collectives;
                          0 for MPI_Irecv and other calls that only post or probe */
  size_t nsites;
  augur_report_site *sites; /* by time, descending (ties: lower id first) */
} augur_report_call;

/* Message sizes in [lo, hi]; bucket 0 is exactly 0 bytes, bucket k >= 1 is
 * [2^(k-1), 2^k - 1]. */
typedef struct augur_report_bucket {
  uint64_t lo, hi;
  uint64_t count;
  uint64_t bytes;
} augur_report_bucket;

#define AUGUR_REPORT_NBUCKETS 65

/* One-sided communication (report_rma.c). Each one-sided call of a rank is
 * counted in the epoch kind its window was in on that rank: the kind named
 * by the call itself for synchronisation calls (Win_fence: fence; Win_post,
 * _start, _complete, _wait, _test: pscw; Win_lock, _unlock: lock; Win_lock_all,
 * _unlock_all: lock_all), the rank's open epoch on the window for data calls,
 * flushes and Win_sync (a lock of any target first, then lock_all, an access
 * epoch of start, an epoch between fences), "window" for Win_create...,
 * _free, _attach, _detach, "none" for a data call outside every epoch the
 * rank opened. Completion calls of R* requests are not counted here. */
enum augur_rma_epoch {
  AUGUR_RMA_EPOCH_FENCE = 0,
  AUGUR_RMA_EPOCH_PSCW = 1,
  AUGUR_RMA_EPOCH_LOCK = 2,
  AUGUR_RMA_EPOCH_LOCK_ALL = 3,
  AUGUR_RMA_EPOCH_WINDOW = 4,
  AUGUR_RMA_EPOCH_NONE = 5,
  AUGUR_RMA_NEPOCHS = 6
};

typedef struct augur_report_rma_kind {
  uint64_t calls, time_ns;
  uint64_t ops;       /* data calls (Put ... Rget_accumulate) */
  uint64_t bytes_put; /* origin bytes of the data calls (augur_event.bytes) */
  uint64_t bytes_got; /* bytes fetched into the origin (augur_event.bytes_recv) */
} augur_report_rma_kind;

#define AUGUR_RMA_NTYPES (AUGUR_EV_RGET_ACCUMULATE - AUGUR_EV_WIN_CREATE + 1)

typedef struct augur_report_rma {
  augur_report_rma_kind kind[AUGUR_RMA_NEPOCHS]; /* sums over ranks */
  augur_report_rma_kind call[AUGUR_RMA_NTYPES];  /* by call: type - AUGUR_EV_WIN_CREATE */
  augur_report_rma_kind *ranks;                  /* nranks entries, every kind summed */
  uint64_t windows;                              /* distinct windows created */
  uint64_t time_ns;                              /* every one-sided call, sum over ranks */
} augur_report_rma;

/* "fence", "pscw", "lock", "lock_all", "window", "none". */
AUGUR_API const char *augur_rma_epoch_name(unsigned kind);

/* Point-to-point messages from one world rank to another. */
typedef struct augur_report_pair {
  uint32_t from, to; /* sender, receiver */
  uint64_t bytes, messages;
} augur_report_pair;

typedef struct augur_report {
  uint32_t nranks;
  uint64_t events;  /* over all ranks */
  uint64_t t_first; /* earliest MPI_Init start (or first event) */
  uint64_t t_last;  /* latest MPI_Finalize end (or last event end) */
  uint64_t wall_ns; /* t_last - t_first */
  uint64_t mpi_ns;  /* sum over ranks */
  uint64_t compute_ns;
  int complete; /* every rank reached MPI_Finalize and nothing was damaged */

  augur_report_rank *ranks; /* nranks entries */

  size_t ncalls;
  augur_report_call *calls; /* every call type seen, by time descending */

  augur_report_bucket buckets[AUGUR_REPORT_NBUCKETS];
  uint64_t messages, message_bytes;

  /* The communication matrix: its non-zero cells, by from then to (memory grows with the
   * pairs of ranks that exchanged messages, not with ranks squared). */
  size_t npairs;
  augur_report_pair *pairs;

  /* Load balance of compute time over ranks. */
  uint64_t compute_min_ns, compute_max_ns;
  double compute_avg_ns;
  uint32_t compute_min_rank, compute_max_rank;
  double avg_max_ratio; /* avg / max, 1.0 = perfect (1.0 when max is 0) */

  /* First error met while streaming (a damaged block), or "" */
  char error[AUGUR_ERROR_MSG_MAX];
  struct augur_report_io *io; /* MPI-IO (augur/report_io.h); NULL: the trace has none */

  augur_report_rma *rma; /* NULL when the trace has no one-sided record */
} augur_report;

/* Called after each rank (and every ~1M events) so a CLI can show progress. */
typedef void (*augur_report_progress)(void *arg, uint32_t rank, uint32_t nranks, uint64_t events);

/* Computes the report. Returns AUGUR_OK, or a negative status: with
 * AUGUR_E_NOMEM / AUGUR_E_ARG *out is NULL; with a read error (damaged
 * block) *out still holds everything that could be read (the damaged rank up
 * to the damage, all other ranks) and err / (*out)->error say where. */
AUGUR_API int augur_report_compute(augur_trace *t, augur_report **out,
                                   augur_report_progress progress, void *progress_arg,
                                   augur_error *err);
AUGUR_API void augur_report_free(augur_report *r);

/* Aligned text, sections ranked by importance; top = how many calls (>= 1). */
AUGUR_API int augur_report_print_text(FILE *f, const augur_report *r, augur_trace *t, int top);
/* The JSON document (schema in docs/cli.md), malloc'd, NUL-terminated; NULL
 * when out of memory. top limits calls and call sites per call. */
AUGUR_API char *augur_report_json(const augur_report *r, augur_trace *t, int top);

/* Formatting helpers shared with the CLI: "12.3 ms", "1.50 MiB". */
AUGUR_API void augur_fmt_ns(char *buf, size_t n, uint64_t ns);
AUGUR_API void augur_fmt_bytes(char *buf, size_t n, uint64_t bytes);
/* The one name of a call site for people, used by every analysis:
 * "function (file:line)" when resolved, else "module+0xOFFSET", else
 * "call site N" (no module), "?" for id 0. */
AUGUR_API void augur_fmt_callsite(char *buf, size_t n, augur_trace *t, uint32_t callsite);
/* The call site's module path (owned by the trace) and offset in it, for
 * JSON: 1, or 0 with *module NULL and *offset 0 when unknown. */
AUGUR_API int augur_callsite_place(augur_trace *t, uint32_t callsite, const char **module,
                                   uint64_t *offset);

#ifdef __cplusplus
}
#endif
#endif
