/* augur — trace reader. The only way analyses read traces.
 *
 * Memory is bounded by ranks x blocks (an index entry per block) plus, per
 * open stream, one decompressed block per rank being decoded (in a merged
 * stream, a batch of records per rank, and a decoder and raw buffer only for
 * the ranks whose blocks outgrow their batch), never by trace length. */
#ifndef AUGUR_READER_H
#define AUGUR_READER_H

#include <stddef.h>
#include <stdint.h>

#include "augur/api.h"
#include "augur/defs.h"
#include "augur/error.h"
#include "augur/event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct augur_trace augur_trace;
typedef struct augur_stream augur_stream;

/* What trace.json says. Strings owned by the trace. */
typedef struct augur_trace_info {
  uint32_t version_major, version_minor;
  uint32_t nranks;
  int argc;
  char **argv;
  const char *mpi_library;
  const char *mpi_version;
  const char *recorder;
  uint64_t start_unix_ns;
  int payload_hash;
  int complete;
  const char *counters_requested;
  /* trace.json "openmp"; mode "unknown" (other fields empty) when the trace
   * has none (recorders before format 1.4, other writers). Callback names
   * owned by the trace. */
  augur_omp_meta openmp;
} augur_trace_info;

/* Index entry of one block of a rank file. */
typedef struct augur_block_info {
  uint64_t offset; /* byte offset of the block header in the rank file */
  uint32_t kind;   /* 1 = MPI events, 3 = OpenMP events (format minor 4) */
  uint32_t thread;
  uint32_t nevents;
  uint64_t first_ns; /* local time of the first event (events blocks) */
  uint64_t last_ns;
  uint32_t nparents; /* parent records (MPI calls) among nevents; 0: not recorded (format
                        minor < 2) */
} augur_block_info;

/* Opens PATH (a NAME.augur directory): reads trace.json, every rank file's
 * header, block index and definitions. Fails if trace.json or a rank file is
 * missing or unreadable. A damaged block inside a rank file does not fail the
 * open: the rank's index stops before it and augur_trace_damage() says where. */
AUGUR_API int augur_trace_open(augur_trace **t, const char *path, augur_error *err);
AUGUR_API void augur_trace_close(augur_trace *t);

AUGUR_API const augur_trace_info *augur_trace_info_get(const augur_trace *t);
AUGUR_API uint32_t augur_trace_nranks(const augur_trace *t);
AUGUR_API const char *augur_trace_path(const augur_trace *t);

/* Number of ranks whose file has damage; for each, *msg says file, offset and
 * what was expected. Returns 0 if the trace is intact. */
AUGUR_API int augur_trace_damage(const augur_trace *t, uint32_t rank, const char **msg);

/* Number of events blocks of RANK's file the reader dropped at open because
 * they repeat an earlier block of the same thread, or start before that
 * thread's previous block ended (a thread's records are in time order). The
 * blocks kept are whole and in order, so this is not counted by
 * augur_trace_damage and streams do not fail; *msg (if non-NULL) gets the
 * first dropped block's description (file, rank, offset), NULL if none. */
AUGUR_API size_t augur_trace_dropped(const augur_trace *t, uint32_t rank, const char **msg);

/* A rank's recording is finished when the rank reached MPI_Finalize (its
 * definitions carry the Finalize time). Otherwise the program was interrupted
 * (killed, crashed, MPI_Abort, exit without MPI_Finalize): the rank's events
 * stop early and every analysis must say so. Returns 1 or 0. */
AUGUR_API int augur_trace_rank_finished(const augur_trace *t, uint32_t rank);
/* End of the rank's last recorded event on the global timeline (ns), from
 * the block index; 0 when the rank has no events. */
AUGUR_API uint64_t augur_trace_rank_end_ns(const augur_trace *t, uint32_t rank);
/* Number of unfinished ranks (0: the trace is complete). When there is one,
 * writes the statement every analysis prints (text and JSON) into buf:
 * "trace incomplete: rank 1 stops at 2.31 s (no MPI_Finalize); kept: rank 1
 * 2001 events to 2.31 s; results cover only what was recorded" (several
 * ranks: how many, and the first to stop). "kept" says how much of each
 * unfinished rank survived (events on disk, end of its last one), the first
 * AUGUR_INCOMPLETE_LIST of them by rank; the ranks not listed there ended
 * cleanly (or are counted as "N more"). A buffer of AUGUR_INCOMPLETE_MAX
 * bytes always holds it. */
#define AUGUR_INCOMPLETE_MAX  1024
#define AUGUR_INCOMPLETE_LIST 8
AUGUR_API int augur_trace_incomplete(const augur_trace *t, char *buf, size_t n);

/* Definitions (merged over ranks). */
AUGUR_API const augur_rank_def *augur_trace_rank(const augur_trace *t, uint32_t rank);

/* Where the ranks ran, from the rank facts (docs/trace-format.md). A host's
 * usable CPUs: the union of its ranks' affinity masks, capped by their cgroup
 * CPU quota; unknown when one of its ranks did not record them (format
 * minor < 3, or no rank facts). */
typedef struct augur_hosts {
  uint32_t nhosts;         /* distinct host names */
  uint32_t max_ranks;      /* most ranks on one host */
  uint32_t known;          /* 1: every host's usable CPUs are known */
  uint32_t oversubscribed; /* hosts with more ranks than usable CPUs */
  /* the host with the most ranks per usable CPU (NULL/0 if none known): */
  const char *host; /* its name, valid while T is open ("" if not recorded) */
  uint32_t ranks;   /* ranks on it */
  uint32_t cores;   /* its usable CPUs */
  /* Time the ranks' Init threads were runnable but waiting for a CPU, summed
   * over the ranks that recorded it (augur_rank_def.cpu_ns > 0), and the
   * sum of those ranks' windows (MPI_Init to MPI_Finalize); 0 ranks: not
   * recorded. A share run_delay_ns / window_ns well above 0 on a host that
   * is not oversubscribed means other processes took the CPUs. */
  uint32_t delay_ranks;
  uint64_t run_delay_ns;
  uint64_t window_ns;
} augur_hosts;
/* A busy host: run_delay_ns at least this share of window_ns on hosts that
 * are not oversubscribed (diagnose's default threshold of findings: a loss
 * that large would be a finding; diagnose itself uses its --min-share). */
#define AUGUR_BUSY_HOST_SHARE 0.02
/* 1 if H's hosts are not oversubscribed and the ranks waited for a CPU at
 * least SHARE of their windows (a busy host), else 0. */
static inline int augur_hosts_busy(const augur_hosts *h, double share) {
  return !h->oversubscribed && h->window_ns &&
         (double)h->run_delay_ns >= share * (double)h->window_ns;
}
/* Fills *P. Fails only when out of memory (AUGUR_E_NOMEM). */
AUGUR_API int augur_trace_hosts(const augur_trace *t, augur_hosts *p, augur_error *err);

AUGUR_API size_t augur_trace_ncomms(const augur_trace *t);
AUGUR_API const augur_comm_def *augur_trace_comm_at(const augur_trace *t, size_t i);
AUGUR_API const augur_comm_def *augur_trace_comm(const augur_trace *t,
                                                 uint64_t id); /* NULL if unknown */
/* The rank of world rank WORLD in communicator ID (REMOTE 1: in an intercommunicator's remote
 * group), its first position if it is there twice; -1 when not a member or ID is unknown.
 * O(log size): the first call for a communicator sorts a copy of its members (8 bytes each,
 * kept until the trace is closed), where a scan of the members cost a whole communicator per
 * message at thousands of ranks. Not thread-safe (it fills that cache). */
AUGUR_API int64_t augur_trace_comm_rank(augur_trace *t, uint64_t id, int32_t world, int remote);
AUGUR_API size_t augur_trace_ncallsites(const augur_trace *t); /* global ids are 1..n */
AUGUR_API const augur_callsite_def *augur_trace_callsite(const augur_trace *t, uint32_t id);
AUGUR_API const augur_module_def *augur_trace_module(const augur_trace *t, uint32_t id);
/* The name of an MPI-IO file id (augur/mpiio.h), valid while T is open; NULL if the trace
 * does not define it (recorders before format minor 5 did not). */
AUGUR_API const char *augur_trace_file_name(const augur_trace *t, uint64_t id);
/* Resolves a call site to function, file and line with libdw (cached). Fields
 * are NULL/0 when the module has no debug info or no longer exists. */
AUGUR_API int augur_trace_resolve(augur_trace *t, uint32_t callsite, augur_srcloc *out);
AUGUR_API uint32_t augur_trace_ncounters(const augur_trace *t);
AUGUR_API const augur_counter_def *augur_trace_counter(const augur_trace *t, uint32_t index);
/* The event slot (augur_event.ctr index, < AUGUR_MAX_COUNTERS) of the counter of SOURCE
 * (AUGUR_CTR_*) named NAME, e.g. (AUGUR_CTR_OS, "run-delay"); -1 if T does not record it. */
AUGUR_API int augur_trace_counter_slot(const augur_trace *t, uint32_t source, const char *name);

/* Block index of a rank: its MPI events blocks (kind 1). */
AUGUR_API size_t augur_trace_nblocks(const augur_trace *t, uint32_t rank);
AUGUR_API const augur_block_info *augur_trace_block(const augur_trace *t, uint32_t rank, size_t i);
AUGUR_API uint64_t augur_trace_nevents(const augur_trace *t, uint32_t rank); /* from the index */
/* The MPI records of all ranks (the sum of augur_trace_nevents). */
AUGUR_API uint64_t augur_trace_total_events(const augur_trace *t);
/* Parent records (MPI calls, sub-records not counted) of a rank, from the
 * index: a bound on its calls. The record count when a block does not say
 * (written before format minor 2). */
AUGUR_API uint64_t augur_trace_nparents(const augur_trace *t, uint32_t rank);

/* OpenMP events blocks (kind 3, format minor 4; docs/openmp.md) of a rank:
 * indexed at open like the MPI blocks, in file order, never decoded by MPI
 * streams. 0 / NULL for traces without OpenMP records. */
AUGUR_API size_t augur_trace_omp_nblocks(const augur_trace *t, uint32_t rank);
AUGUR_API const augur_block_info *augur_trace_omp_block(const augur_trace *t, uint32_t rank,
                                                        size_t i);
AUGUR_API uint64_t augur_trace_omp_nevents(const augur_trace *t, uint32_t rank);

/* Converts a rank's local clock value to the global timeline. */
AUGUR_API uint64_t augur_trace_global_ns(const augur_trace *t, uint32_t rank, uint64_t local_ns);

/* Streams. A rank stream yields the rank's events in time order (threads
 * merged), peers translated to world ranks, call sites as global ids,
 * completions paired with their starts (comm, peer, flags filled in). The
 * merged stream yields all ranks' events in global time order (k-way merge;
 * a parent and its sub-records are always adjacent). */
AUGUR_API int augur_stream_rank(augur_trace *t, uint32_t rank, augur_stream **s, augur_error *err);
AUGUR_API int augur_stream_merged(augur_trace *t, augur_stream **s, augur_error *err);
/* Streams of OpenMP records (docs/openmp.md), alone or with the MPI records.
 * KINDS: AUGUR_KIND_MPI, AUGUR_KIND_OMP or both (anything else:
 * AUGUR_E_ARG). The records of the selected kinds, merged in time order
 * over threads and kinds (at equal times MPI before OpenMP, a parent's
 * sub-records right behind it), on the global timeline, with global call
 * site ids (an OpenMP record's codeptr_ra resolves like an MPI call site);
 * MPI records are finished exactly as in augur_stream_rank. Damage in a
 * block of either kind comes in time order: every record of every thread
 * and kind before it is returned first. Same contract as augur_stream_rank
 * and augur_stream_merged otherwise; AUGUR_KIND_MPI alone is those. */
#define AUGUR_KIND_MPI 1u
#define AUGUR_KIND_OMP 2u
AUGUR_API int augur_stream_rank_kinds(augur_trace *t, uint32_t rank, unsigned kinds,
                                      augur_stream **s, augur_error *err);
AUGUR_API int augur_stream_merged_kinds(augur_trace *t, unsigned kinds, augur_stream **s,
                                        augur_error *err);
/* A merged stream over a block of ranks and records decoded elsewhere
 * (docs/parallel.md: `diagnose --parallel` gets the records of other
 * analysis ranks' blocks this way). A source yields the records of ranks
 * [lo, hi) in the order augur_stream_merged_sources(t, lo, hi, NULL, 0)
 * gives them: NEXT points *EV at its next N >= 1 records (valid until its
 * next call) and returns 1; returns 0 at its end; or returns a negative
 * status with its message in ERR: an error that belongs, after the records
 * already given, at merge key *AT (augur_stream_error_key of the stream that
 * met it); NEXT is called again after an error, the source goes on. */
typedef struct augur_stream_source {
  uint32_t lo, hi;
  int (*next)(void *arg, const augur_event **ev, size_t *n, uint64_t *at, augur_error *err);
  void *arg;
} augur_stream_source;
/* The merged stream of the MPI records of rank streams [LO, HI) (decoded
 * here) and of SRC[0..NSRC), whose rank ranges follow HI in ascending order
 * without overlapping (else AUGUR_E_ARG). Its order is the one
 * augur_stream_merged gives over the union of their ranks: the merge key
 * (t_start, rank), a parent's sub-records right behind it, and a leaf's
 * error at its key; LO = 0, HI = nranks and no source is augur_stream_merged.
 * A rank's error ends its records; a source's error is said once and the
 * source goes on. The sources are the caller's: close the stream first. */
AUGUR_API int augur_stream_merged_sources(augur_trace *t, uint32_t lo, uint32_t hi,
                                          const augur_stream_source *src, size_t nsrc,
                                          augur_stream **s, augur_error *err);
/* Merged streams: *NS gets the merge key (t_start) at which the last error
 * augur_stream_next returned belongs (the t_start of that rank's last record,
 * 0 if none), for a source that forwards it. AUGUR_E_ARG on a rank stream. */
AUGUR_API int augur_stream_error_key(const augur_stream *s, uint64_t *ns);
/* Returns 1 with *ev filled, 0 at the end, or a negative status: a damaged
 * block (message: file, rank, offset, expectation). Events before the damage
 * have all been returned. */
AUGUR_API int augur_stream_next(augur_stream *s, augur_event *ev, augur_error *err);
/* Up to MAX events at once into EV[0..MAX): *N gets how many were read.
 * The same events, in the same order, as MAX calls of augur_stream_next,
 * for callers that pay per call (the Python package, python/augur). Returns
 * 1 when *N == MAX (more may follow), 0 at the end of the stream, or
 * augur_stream_next's negative status at a damaged block: the *N events
 * before it are valid, and a merged stream goes on with the other ranks at
 * the next call. AUGUR_E_ARG when S, EV or N is NULL. */
AUGUR_API int augur_stream_read(augur_stream *s, augur_event *ev, size_t max, size_t *n,
                                augur_error *err);
/* Merged streams only, before the first augur_stream_next: let records come
 * up to NS nanoseconds out of global time order (by t_start); each rank's
 * order, and a parent's sub-records right behind it, stay as they are. A
 * rank then hands out runs of records instead of one at a time, several
 * times faster with many ranks in step (cache). For consumers that only
 * need each rank's order and a bounded window, such as message matching.
 * 0 (the default): strict order. */
AUGUR_API int augur_stream_set_slack(augur_stream *s, uint64_t ns, augur_error *err);
/* A merged stream of ranks (augur_stream_merged, augur_stream_merged_kinds;
 * with augur_stream_merged_sources, its local ranks only): rank RANK's next
 * record, without taking it. Before the first augur_stream_next, each rank's
 * first record: what a rank stream of the rank would return first, without
 * opening one per rank (the merge has decoded it already; issue 27).
 * Returns 1 with *ev filled, 0 when the rank has no more records, or the
 * rank's error (the one augur_stream_next would return in its turn). */
AUGUR_API int augur_stream_peek_rank(augur_stream *s, uint32_t rank, augur_event *ev,
                                     augur_error *err);
/* The rank whose record augur_stream_next returns next (known as soon as
 * the previous one is returned), or UINT32_MAX at the end or when a
 * source of augur_stream_merged_sources holds it: for consumers that keep
 * state per rank and can load it while they work on the current record
 * (with thousands of ranks in step, each record's state is a cache miss
 * otherwise). A hint: the record itself may be an error. */
AUGUR_API uint32_t augur_stream_next_rank(const augur_stream *s);
/* Rank streams of MPI records only: continue from block index `block` of
 * the rank (augur_trace_block). AUGUR_E_ARG on a stream with OpenMP kinds. */
AUGUR_API int augur_stream_seek_block(augur_stream *s, size_t block, augur_error *err);
AUGUR_API void augur_stream_close(augur_stream *s);

#ifdef __cplusplus
}
#endif
#endif
