/* augur — timeline: what each rank did over a window of the run, as a picture.
 *
 * augur_timeline_build() streams a trace once and keeps, per rank, the time
 * spent in each state (compute, MPI by class) in W pixel columns, the exact
 * state intervals while they are few, and the matched messages (send ->
 * receive) of the window, sampled above a cap. Memory and output size grow
 * with ranks x W, never with the number of events. The SVG and HTML writers
 * draw it; marked intervals (augur_timeline_mark) let other analyses (the
 * diagnosis) point at problem spots. See docs/timeline.md. */
#ifndef AUGUR_TIMELINE_H
#define AUGUR_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/event.h"
#include "augur/omp.h"
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* States a rank can be in. Values index arrays: keep them dense. */
enum augur_tl_state {
  AUGUR_TL_COMPUTE = 0, /* between MPI calls */
  AUGUR_TL_SEND = 1,    /* point-to-point send calls */
  AUGUR_TL_RECV = 2,    /* receives, waits, tests, probes, Sendrecv */
  AUGUR_TL_COLL = 3,    /* collectives other than barriers */
  AUGUR_TL_BARRIER = 4, /* MPI_Barrier, MPI_Ibarrier */
  AUGUR_TL_OTHER = 5,   /* Init, Finalize, communicator management, Start, ... */
  AUGUR_TL_NSTATES = 6
};

/* The state class of an MPI call type (never AUGUR_TL_COMPUTE). */
AUGUR_API int augur_tl_state_of(unsigned type);
AUGUR_API const char *augur_tl_state_name(int state);  /* "compute", "p2p send", ... */
AUGUR_API const char *augur_tl_state_color(int state); /* "#rrggbb" */

typedef struct augur_tl_options {
  /* Window on the global timeline, ns. to == 0: up to the end of the run.
   * from == 0 && to == 0: the whole run (from the first event). */
  uint64_t from, to;
  /* Ranks rank_lo .. rank_lo + rank_count - 1; rank_count 0: up to the last.
   * (A zeroed struct means: whole run, all ranks, defaults.) */
  uint32_t rank_lo, rank_count;
  uint32_t width;      /* pixel columns of the plot; 0 = 1600 */
  uint32_t max_arrows; /* messages drawn one by one; 0 = 2000; above, a sample */
  /* 1: a trace with OpenMP records gets a row per thread (the thread
   * states, docs/timeline.md "Threads"); 0: a row per rank, MPI records
   * only, as for an MPI-only trace (what the diagnosis page draws). */
  int threads;
  /* Called now and then while streaming (may be NULL): events read so far. */
  void (*progress)(void *arg, uint64_t events);
  void *progress_arg;
  /* Ranks a row: 0 or 1, a row per rank; G > 1, a row per block of G
   * consecutive ranks (the last may have fewer), each column's states the
   * mean over the block's ranks, no exact intervals and no thread rows
   * (docs/timeline.md "Aggregation"). The per-rank queries below then answer
   * for the rank's block: augur_timeline_rank_totals sums it. */
  uint32_t group;
} augur_tl_options;

/* The rows a picture has when its caller does not choose them: a row per
 * rank of thousands is neither drawn in reasonable size nor read (4,096 ranks
 * gave a 686 MB page). Beyond, a window of ranks (augur_tl_rank_window) or
 * rank groups (augur_tl_options.group, augur_tl_group_for). */
#define AUGUR_TL_RANKS 64

/* The smallest group (ranks a row) that draws NRANKS ranks in at most
 * AUGUR_TL_RANKS rows: 1 up to AUGUR_TL_RANKS ranks. */
AUGUR_API uint32_t augur_tl_group_for(uint32_t nranks);

/* The window of at most AUGUR_TL_RANKS ranks (of NRANKS) around CENTER, the
 * ranks the caller wants seen: *LO and *COUNT for augur_tl_options' rank_lo
 * and rank_count. All ranks (*COUNT = NRANKS) when there are no more. */
AUGUR_API void augur_tl_rank_window(uint32_t nranks, uint32_t center, uint32_t *lo,
                                    uint32_t *count);

/* One state interval of a rank (exact, kept while a rank has few). */
typedef struct augur_tl_interval {
  uint64_t t0, t1;
  uint16_t type; /* MPI call type, or AUGUR_EV_NONE for compute */
  uint8_t state; /* enum augur_tl_state */
} augur_tl_interval;

/* A matched message: the send call's start on the sender to the end of the
 * receive (or of the wait that completed it) on the receiver. */
typedef struct augur_tl_message {
  uint64_t t_send, t_recv;
  uint64_t bytes;
  uint64_t comm;
  uint32_t sender, receiver;
  int32_t tag;
  uint32_t send_thread, recv_thread; /* recorder threads of the two calls */
} augur_tl_message;

/* A marked interval, drawn over a rank's row with its label as hover text. */
typedef struct augur_tl_mark {
  uint32_t rank;
  uint64_t t0, t1;
  char *label;
} augur_tl_mark;

typedef struct augur_timeline augur_timeline;

/* Streams the trace (merged stream) and builds the timeline of the window.
 * Fails on a damaged trace (message from the reader) or a window/rank range
 * that is empty or outside the trace. */
AUGUR_API int augur_timeline_build(augur_timeline **tl, augur_trace *t, const augur_tl_options *opt,
                                   augur_error *err);
AUGUR_API void augur_timeline_free(augur_timeline *tl);

/* Adds a marked interval; label is copied. A rank of the trace the timeline
 * does not draw (outside rank_lo..rank_hi) gets none, and that is no error.
 * Fails if the trace has no such rank or t1 < t0. */
AUGUR_API int augur_timeline_mark(augur_timeline *tl, uint32_t rank, uint64_t t0, uint64_t t1,
                                  const char *label, augur_error *err);

/* Adds a band over all rows from t0 to t1 (e.g. an inefficiency interval of
 * the diagnosis); label is copied and shown as hover text on the band's strip
 * above the rows. Fails if t1 < t0. */
AUGUR_API int augur_timeline_band(augur_timeline *tl, uint64_t t0, uint64_t t1, const char *label,
                                  augur_error *err);

/* What was built. */
typedef struct augur_tl_summary {
  uint64_t from, to;         /* window, global ns */
  uint32_t rank_lo, rank_hi; /* inclusive */
  uint32_t width;
  uint64_t events;          /* events read */
  uint64_t messages;        /* matched messages touching the window (both ranks in range) */
  uint64_t messages_drawn;  /* individually kept (== messages unless sampled) */
  uint64_t unmatched_sends; /* sends in range never matched by a receive */
  int exact;                /* 1: every rank's exact intervals were kept */
  /* Thread rows: OpenMP begin/end records that did not pair (closed as the
   * thread states close them, docs/pop.md): the rows are approximate. */
  uint64_t omp_unbalanced;
} augur_tl_summary;
AUGUR_API void augur_timeline_summary(const augur_timeline *tl, augur_tl_summary *s);

/* Time of rank r in the window per state, ns (r in rank_lo..rank_hi). */
AUGUR_API void augur_timeline_rank_totals(const augur_timeline *tl, uint32_t rank,
                                          uint64_t out[AUGUR_TL_NSTATES]);
/* Exact intervals of rank r, or NULL (with *n = 0) when there were too many
 * and only the per-column fractions were kept. */
AUGUR_API const augur_tl_interval *augur_timeline_intervals(const augur_timeline *tl, uint32_t rank,
                                                            size_t *n);
/* Fraction of column c of rank r spent in each state (sums to <= 1). */
AUGUR_API void augur_timeline_column(const augur_timeline *tl, uint32_t rank, uint32_t c,
                                     float out[AUGUR_TL_NSTATES]);
AUGUR_API const augur_tl_message *augur_timeline_messages(const augur_timeline *tl, size_t *n);

/* Thread rows. With options.threads, a trace with OpenMP records
 * (augur_trace_omp_nblocks) gets one row per thread, grouped by rank, in the thread states of
 * include/augur/omp.h (enum augur_tstate) over each rank's window; the rank
 * rows above are still built. 0 for an MPI-only trace. */
AUGUR_API int augur_timeline_hybrid(const augur_timeline *tl);
typedef struct augur_tl_thread {
  uint32_t thread;                 /* the recorder's thread index */
  int initial;                     /* the thread of MPI_Init */
  uint64_t totals[AUGUR_TS_COUNT]; /* ns per state inside the window */
} augur_tl_thread;
/* The threads of rank r with a row (ascending thread index); 0 for an
 * MPI-only trace. */
AUGUR_API size_t augur_timeline_nthreads(const augur_timeline *tl, uint32_t rank);
/* The i-th thread row of rank r (i < augur_timeline_nthreads). */
AUGUR_API void augur_timeline_thread(const augur_timeline *tl, uint32_t rank, size_t i,
                                     augur_tl_thread *out);
/* Its exact intervals (state: enum augur_tstate, type AUGUR_EV_NONE), or
 * NULL (*n = 0) once there were too many and only the columns were kept. */
AUGUR_API const augur_tl_interval *
augur_timeline_thread_intervals(const augur_timeline *tl, uint32_t rank, size_t i, size_t *n);
/* The thread states' labels and colours in the picture. */
AUGUR_API const char *augur_tl_tstate_label(int state); /* "useful (parallel)", ... */
AUGUR_API const char *augur_tl_tstate_color(int state); /* "#rrggbb" */

/* Writers. title: shown at the top (e.g. the trace name); may be NULL.
 * Return 0, or -1 with err set when writing fails. */
AUGUR_API int augur_timeline_write_svg(const augur_timeline *tl, FILE *f, const char *title,
                                       augur_error *err);
AUGUR_API int augur_timeline_write_html(const augur_timeline *tl, FILE *f, const char *title,
                                        augur_error *err);
/* The bare <svg> element of augur_timeline_write_svg, without the XML
 * declaration, for embedding in an HTML page (the diagnosis page). */
AUGUR_API int augur_timeline_write_svg_element(const augur_timeline *tl, FILE *f, const char *title,
                                               augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
