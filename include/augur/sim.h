/* augur — execution-graph simulation (`augur simulate`, `augur calibrate`).
 *
 * A trace becomes an execution graph: per rank a sequence of operations
 * (compute bursts, sends, receives, waits, collectives, local MPI calls) in
 * program order; matched messages and collective instances are the edges
 * between ranks. A discrete-event simulator replays the graph on a machine
 * model (nodes, placement, CPU speed, latency, bandwidth, contention,
 * eager/rendezvous, collective algorithms). See docs/simulate.md. */
#ifndef AUGUR_SIM_H
#define AUGUR_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/event.h"
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Execution graph ---------------------------------------------------- */

enum augur_sim_kind {
  AUGUR_SIM_COMPUTE = 0, /* a: ns of computation (wall); b: ns of it on a CPU when
                            AUGUR_SIM_F_CPU is set, else 0 (docs/simulate.md "CPU time") */
  AUGUR_SIM_LOCAL = 1,   /* an MPI call replayed with its recorded cost; a: ns */
  AUGUR_SIM_SEND = 2,    /* a: message id; b: bytes */
  AUGUR_SIM_RECV = 3,    /* a: message id; b: bytes */
  AUGUR_SIM_WAIT = 4,    /* a: first index in the wait list, b: how many (op indices of
                            nonblocking SEND/RECV of the same rank) */
  AUGUR_SIM_COLL = 5     /* a: instance id, b: bytes (per the algorithm, see docs);
                            comm: communicator index; peer: root world rank or -1 */
};

#define AUGUR_SIM_F_NONBLOCKING 0x01u /* Isend/Irecv: completes at a later WAIT */
#define AUGUR_SIM_F_SYNC        0x02u /* synchronous send: always rendezvous */
#define AUGUR_SIM_F_UNMATCHED   0x04u /* no partner in the trace: replayed as a no-op */
/* COMPUTE: b holds its CPU time (task-clock); the rest of a is off the CPU
 * (sleep, I/O, preempted while recorded). */
#define AUGUR_SIM_F_CPU 0x08u
/* COLL (all-to-all): the rank received into a buffer no earlier large
 * receive used, and its pages were not in memory yet (docs/simulate.md
 * "First receive into a buffer"). */
#define AUGUR_SIM_F_FRESH     0x10u
#define AUGUR_SIM_F_UNTOUCHED 0x20u
/* LOCAL: an MPI-IO or one-sided transfer whose time the machine model gives
 * (its [io] and [rma] keys, docs/simulate.md "I/O and one-sided
 * operations"): a = bytes, b = SIM_XFER_* bits, peer = one-sided target. */
#define AUGUR_SIM_F_MODEL 0x40u

#define AUGUR_SIM_NONE UINT64_MAX /* message/instance id not (yet) known */

/* One operation: 32 bytes. */
typedef struct augur_sim_op {
  uint64_t a, b;     /* see enum augur_sim_kind */
  uint32_t callsite; /* global call-site id (0 = unknown) */
  uint32_t comm;     /* COLL: communicator index in the graph */
  int32_t peer;      /* SEND/RECV: partner world rank; COLL: root or -1 */
  uint16_t type;     /* MPI event type (AUGUR_EV_*), 0 for COMPUTE */
  uint8_t kind;      /* enum augur_sim_kind */
  uint8_t flags;     /* AUGUR_SIM_F_* */
} augur_sim_op;

/* A matched point-to-point message. */
typedef struct augur_sim_msg {
  uint64_t bytes;
  uint32_t sender, receiver; /* world ranks */
  uint32_t flags;            /* AUGUR_SIM_MSG_* */
} augur_sim_msg;

#define AUGUR_SIM_MSG_SYNC      0x1u /* synchronous send: always rendezvous */
#define AUGUR_SIM_MSG_FRESH     0x2u /* received into a buffer no earlier large receive used */
#define AUGUR_SIM_MSG_UNTOUCHED 0x4u /* ... whose pages were not in memory yet */

typedef struct augur_sim_graph augur_sim_graph;

/* What a graph holds. */
typedef struct augur_sim_graph_stats {
  uint32_t nranks;
  uint64_t ops, compute_ops, messages, collectives, waits;
  uint64_t unmatched;      /* SEND/RECV/COLL ops without a partner */
  uint64_t trace_events;   /* events read from the trace (0 for hand-built graphs) */
  uint64_t bytes;          /* memory held by the graph */
  double measured_seconds; /* trace: last MPI_Finalize entry - first MPI_Init exit
                              (-1 for hand-built graphs) */
  /* MPI-IO and one-sided calls (docs/simulate.md "I/O and one-sided
   * operations"): charged from the machine model; replayed with their
   * recorded time (not modelled); charged with a simplification the
   * output names (nonblocking I/O at its call, exclusive locks without
   * contention, shared file pointers without serialisation). */
  uint64_t iorma_modelled, iorma_recorded, iorma_approx;
  uint64_t iorma_replayed[2]; /* bit t - 128: type t was replayed */
} augur_sim_graph_stats;

AUGUR_API augur_sim_graph *augur_sim_graph_new(uint32_t nranks);
AUGUR_API void augur_sim_graph_free(augur_sim_graph *g);
AUGUR_API uint32_t augur_sim_graph_nranks(const augur_sim_graph *g);
AUGUR_API void augur_sim_graph_stats_get(const augur_sim_graph *g, augur_sim_graph_stats *s);
AUGUR_API size_t augur_sim_graph_nops(const augur_sim_graph *g, uint32_t rank);
AUGUR_API const augur_sim_op *augur_sim_graph_ops(const augur_sim_graph *g, uint32_t rank);

/* Building by hand (tests, generators). Each returns the new index, or -1
 * when out of memory / an argument is out of range. Ops are appended to a
 * rank in program order. */
AUGUR_API int64_t augur_sim_add_op(augur_sim_graph *g, uint32_t rank, const augur_sim_op *op);
AUGUR_API int64_t augur_sim_add_compute(augur_sim_graph *g, uint32_t rank, double seconds);
/* A message from SENDER to RECEIVER; its ends are added with add_send/add_recv. */
AUGUR_API int64_t augur_sim_add_message(augur_sim_graph *g, uint32_t sender, uint32_t receiver,
                                        uint64_t bytes, unsigned flags);
AUGUR_API int64_t augur_sim_add_send(augur_sim_graph *g, uint32_t rank, uint64_t msg,
                                     unsigned flags);
AUGUR_API int64_t augur_sim_add_recv(augur_sim_graph *g, uint32_t rank, uint64_t msg,
                                     unsigned flags);
/* Waits for the nonblocking ops OPS[0..n) of the rank (indices returned by add_send/add_recv). */
AUGUR_API int64_t augur_sim_add_wait(augur_sim_graph *g, uint32_t rank, const uint32_t *ops,
                                     uint32_t n);
/* A communicator of world ranks MEMBERS[0..n) (comm rank order); returns its index. */
AUGUR_API int64_t augur_sim_add_comm(augur_sim_graph *g, const uint32_t *members, uint32_t n);
/* One member's call of collective instance INSTANCE (the same number on every member). */
AUGUR_API int64_t augur_sim_add_coll(augur_sim_graph *g, uint32_t rank, unsigned type,
                                     uint32_t comm, int32_t root, uint64_t bytes,
                                     uint64_t instance);

/* Builds the graph of a trace (one pass over the merged stream, with the
 * shared matcher). Fails on a damaged trace with the reader's message. */
AUGUR_API int augur_sim_graph_from_trace(augur_sim_graph **g, augur_trace *t, augur_error *err);

/* What-if on a phase (as `augur phases` numbers them, global mode): the
 * compute inside every repetition of PHASE runs FACTOR times faster. */
typedef struct augur_sim_phase_scale {
  uint32_t phase;
  double factor; /* > 0 */
} augur_sim_phase_scale;

/* augur_sim_graph_from_trace with the compute bursts of the N listed phases
 * scaled: a burst belongs to a repetition when it starts between entering
 * the repetition's first call on that rank and entering the next
 * repetition's (the `augur phases` convention). Costs one more pass over
 * the trace (the phase detection). A phase id the trace does not have fails
 * with the ids it has. */
AUGUR_API int augur_sim_graph_from_trace_phases(augur_sim_graph **g, augur_trace *t,
                                                const augur_sim_phase_scale *sc, size_t n,
                                                augur_error *err);

/* What-if transform: the compute that leads to each call of call site SITE
 * (the COMPUTE operation right before an operation of that site, in the
 * same rank) takes 1/FACTOR of its time. Returns how many bursts changed,
 * or -1 if FACTOR is not a positive finite number. */
AUGUR_API int64_t augur_sim_graph_scale_site(augur_sim_graph *g, uint32_t site, double factor);
/* The call sites of trace T that SPEC names: a global id ("12"), the text
 * `augur report` prints ("exchange (stencil.c:40)", "stencil+0x1a2f",
 * "site 12"), "file.c:LINE", or a function name (all of its sites). Writes
 * up to MAX ids to IDS; returns how many match (0: none). */
AUGUR_API size_t augur_sim_find_sites(augur_trace *t, const char *spec, uint32_t *ids, size_t max);

/* ---- Machine model ------------------------------------------------------ */

enum augur_placement { AUGUR_PLACE_BLOCK = 0, AUGUR_PLACE_CYCLIC = 1, AUGUR_PLACE_EXPLICIT = 2 };
enum augur_topology {
  AUGUR_TOPO_CROSSBAR = 0,
  AUGUR_TOPO_BUS = 1,
  AUGUR_TOPO_FATTREE = 2, /* two levels: leaf switches and spine switches */
  AUGUR_TOPO_TORUS = 3    /* 1-D (ring), 2-D or 3-D, dimension-order routing */
};

#define AUGUR_TORUS_MAX_DIMS 3

#define AUGUR_MACHINE_MAX_EXPLICIT 4096

typedef struct augur_machine {
  char name[64];
  uint32_t nodes;          /* 0: as many as the placement needs */
  uint32_t cores_per_node; /* ranks per node for block/cyclic placement */
  uint32_t placement;      /* enum augur_placement */
  uint32_t nexplicit;      /* explicit: node of rank i = explicit_nodes[i % nexplicit] */
  uint32_t explicit_nodes[AUGUR_MACHINE_MAX_EXPLICIT];
  double cpu_speed;                  /* compute bursts take recorded / cpu_speed */
  double overhead;                   /* seconds of CPU per MPI call (LogP's o) */
  double latency, bandwidth;         /* network between nodes: s, bytes/s */
  double injection_bandwidth;        /* per node in and out, bytes/s; 0 = unlimited */
  double shm_latency, shm_bandwidth; /* inside a node */
  /* Messages inside a node larger than the caches: the bytes beyond
   * SHM_LARGE_FROM move at SHM_LARGE_BANDWIDTH (docs/simulate.md "Large
   * messages"); 0 = shm_bandwidth for every size. */
  double shm_large_bandwidth;
  uint64_t shm_large_from;
  uint64_t eager_limit; /* bytes; larger messages use rendezvous */
  /* A receive's extra cost on the receiver (docs/simulate.md "First receive
   * into a buffer"): s per MiB received into a buffer no earlier large
   * receive used (AUGUR_F_FRESH_BUF), and more when its pages were not in
   * memory yet (AUGUR_F_UNTOUCHED). 0 unless calibrated or set. */
  double fresh_buffer, first_touch;
  uint32_t topology; /* enum augur_topology */
  /* Collective algorithm switch points (bytes), as MPICH chooses them. */
  uint64_t bcast_short;     /* binomial tree below, scatter + ring allgather above */
  uint64_t allreduce_short; /* recursive doubling below, ring reduce-scatter+allgather above */
  uint64_t allgather_long;  /* recursive doubling (total bytes) below, ring above */
  /* Fat-tree and torus (docs/simulate.md "Topologies"): every link is a
   * resource the flows crossing it share; latency grows per link crossed. */
  double hop_latency;              /* s per link crossed, on top of latency */
  uint32_t fattree_leaf_nodes;     /* nodes per leaf switch (required for fattree) */
  uint32_t fattree_uplinks;        /* links from each leaf, one to each spine; 0 = leaf_nodes */
  double fattree_uplink_bandwidth; /* bytes/s of a leaf-spine link; 0 = bandwidth */
  uint32_t torus_ndims;            /* 1..3 (required for torus) */
  uint32_t torus_dims[AUGUR_TORUS_MAX_DIMS];
  /* Processor sharing (docs/simulate.md "CPU"). */
  uint32_t cpu_cores;         /* physical cores per node; 0 = one per rank (no sharing) */
  double cpu_background_load; /* fraction of every core other work takes, [0, 1) */
  /* Time slices (docs/simulate.md "CPU"): MPI ranks poll while they wait,
   * so ranks sharing a core take turns of one scheduler quantum each
   * instead of sharing it finely; a CPU quota runs a node's ranks for
   * quota x period of CPU time per period, then stops them all. */
  double cpu_quantum;      /* seconds; 0 = processor sharing */
  double cpu_quota;        /* CPUs' worth per period for a node's ranks; 0 = none */
  double cpu_quota_period; /* seconds (the cgroup default: 0.1) */
  /* MPI-IO (docs/simulate.md "I/O and one-sided operations"): a call costs
   * io_latency + bytes / its bandwidth; a collective one moves all
   * members' bytes at io_coll_bandwidth; File_sync the bytes written since
   * the last one at io_sync_bandwidth (0: latency only). */
  double io_latency, io_write_bandwidth, io_read_bandwidth, io_coll_bandwidth;
  double io_sync_bandwidth;
  /* One-sided data transfers: rma_latency + bytes / rma_bandwidth; 0: the
   * point-to-point path's latency / bandwidth between the two ranks. */
  double rma_latency, rma_bandwidth;
  /* The recorded placement (docs/simulate.md "Recorded placement"):
   * NPLACEMENTS vectors of NRANK_CPU entries, RANK_CPU[k * nrank_cpu + r] =
   * the CPU world rank r was on in placement k (augur_sim_placements), and
   * PLACEMENT_SHARE[k] the part of the run it held. Under time slices the
   * ranks of a node that were on one CPU share a core (when every rank of
   * the node says, on at most cpu.cores CPUs), instead of the mean over the
   * deals of ranks to cores; the prediction combines the placements by
   * their shares of the run. NULL / 0 = none; not part of the machine file,
   * the caller owns the arrays. */
  const uint32_t *rank_cpu;
  const double *placement_share;
  uint32_t nrank_cpu, nplacements;
} augur_machine;

/* This machine's defaults (docs/simulate.md lists them). */
AUGUR_API void augur_machine_default(augur_machine *m);
/* Loads an INI file over M's current values. Errors name the file and line. */
AUGUR_API int augur_machine_load(augur_machine *m, const char *path, augur_error *err);
/* Writes M as an INI file that augur_machine_load reads back. */
AUGUR_API int augur_machine_write(const augur_machine *m, FILE *f);
/* Seconds BYTES take to move inside a node at its bandwidths (no latency):
 * bytes / shm.bandwidth, plus the part beyond shm.large_from at
 * shm.large_bandwidth instead when that is set. */
AUGUR_API double augur_machine_shm_copy(const augur_machine *m, uint64_t bytes);
/* Node of a world rank. */
AUGUR_API uint32_t augur_machine_node(const augur_machine *m, uint32_t rank);
/* The model as a SimGrid platform (a cluster of its nodes, loopback = the
 * shared-memory path, a shared backbone for the bus topology; host speed
 * 1 Gflop/s x cpu_speed, matching `augur export --flops 1e9`) and an SMPI
 * hostfile placing NRANKS ranks like the model does. Fat-tree and torus
 * become SimGrid's FAT_TREE and TORUS clusters; hosts get cpu.cores cores
 * (or the most ranks on a node) and the speed background load leaves
 * (docs/simulate.md "SimGrid"). */
AUGUR_API int augur_machine_write_simgrid(const augur_machine *m, uint32_t nranks, FILE *platform,
                                          FILE *hosts);

/* Calibration from a recorded run (augur calibrate --from TRACE): sets M's
 * latencies to the mean time from the end of a send call to the end of the
 * receive that was already waiting for it (messages up to the eager limit),
 * the bandwidths from such larger messages (bytes over time minus two
 * latencies; kept if there are none) and the overhead to the median
 * Isend/Irecv/eager-sized Send call. */
typedef struct augur_sim_calib {
  double latency, overhead, bandwidth;
  uint64_t latency_samples, overhead_samples, bandwidth_samples;
} augur_sim_calib;
AUGUR_API int augur_machine_calibrate_trace(augur_machine *m, augur_trace *t, augur_sim_calib *out,
                                            augur_error *err);

/* ---- Simulator ---------------------------------------------------------- */

typedef struct augur_sim_rank {
  double compute;   /* compute bursts, scaled by the CPU speed */
  double send_wait; /* blocked in a send (or a wait whose last request was a send) */
  double recv_wait; /* blocked in a receive (or a wait whose last request was a receive) */
  double sync_wait; /* blocked in collectives */
  double mpi;       /* per-call overhead and local MPI calls */
  double finish;    /* when the rank reached its end (MPI_Finalize) */
} augur_sim_rank;

typedef struct augur_sim_result {
  double predicted_seconds; /* the last rank's finish */
  uint32_t nranks;
  augur_sim_rank *ranks; /* nranks entries; free with augur_sim_result_free */
  uint64_t ops;          /* operations replayed */
  uint64_t messages;     /* point-to-point and collective-internal messages */
  uint64_t heap_events;  /* discrete events processed */
  double wall_seconds;   /* time the simulation took */
  /* augur_simulate_trace: the most that was in flight at once: operations
   * held in the per-rank queues + message slots + open requests (0 for
   * augur_simulate, which holds the whole graph). */
  uint64_t peak_inflight;
} augur_sim_result;

AUGUR_API int augur_simulate(const augur_sim_graph *g, const augur_machine *m, augur_sim_result *r,
                             augur_error *err);
AUGUR_API void augur_sim_result_free(augur_sim_result *r);

/* --scale SITE=xF as augur_sim_graph_scale_site does it, applied in order. */
typedef struct augur_sim_site_scale {
  uint32_t site;
  double factor; /* > 0 */
} augur_sim_site_scale;

typedef struct augur_sim_trace_opts {
  const augur_sim_phase_scale *phases; /* augur_sim_graph_from_trace_phases */
  size_t nphases;
  const augur_sim_site_scale *sites;
  size_t nsites;
  /* Called every 2^14 operations simulated with the records they stand for (at the
   * operations per record read so far) and the trace's records, or NULL (with a CPU quota
   * the trace is simulated once per phase of its period, each from 0). */
  augur_progress_fn progress;
  void *progress_arg;
} augur_sim_trace_opts;

/* Simulates trace T without building its whole graph: the trace is read
 * as the simulation needs it, and memory is bounded by what is in flight
 * (operations between a rank's position and the reader's, unmatched
 * messages, open requests), not by the trace's length. The result is the
 * same as augur_sim_graph_from_trace(_phases) + scale_site + augur_simulate.
 * GS (may be NULL) gets what the graph would have held (bytes: the most
 * the stream held). O may be NULL. A CPU quota reads the trace once per
 * simulated phase of its period. docs/simulate.md "Memory". */
AUGUR_API int augur_simulate_trace(augur_trace *t, const augur_machine *m,
                                   const augur_sim_trace_opts *o, augur_sim_result *r,
                                   augur_sim_graph_stats *gs, augur_error *err);

/* The fraction of HOST's CPUs that other work took while T was recorded
 * (docs/simulate.md "Oversubscribed recordings"), from its ranks' compute
 * bursts and their run-delay (the counter the recorder adds on a host with
 * more ranks than CPUs) and, when recorded, its MPI calls and their
 * run-delay-mpi: MPI ranks are runnable all along (computing, or polling
 * in MPI), so the N ranks of a host with CORES CPUs and no other work get
 * CORES / N of their wall time on a CPU; they got
 * S = sum(wall - run-delay) / sum(wall), and *LOAD = 1 - S * N / CORES,
 * within [0, 0.95]. *LOAD = -1 when the trace has no run-delay or HOST no
 * bursts. Reads the ranks of HOST once. Fails on a damaged trace. */
AUGUR_API int augur_sim_recorded_load(augur_trace *t, const char *host, uint32_t cores,
                                      double *load, augur_error *err);

/* Where T's ranks ran over time (the rank facts' CPU changes, recorded at
 * the MPI calls on hosts with more ranks than CPUs): the distinct
 * placements (the CPU of every rank, CPUs numbered in the order ranks
 * first use them) from the last rank's MPI_Init to the first one's
 * MPI_Finalize, most held first, at most AUGUR_SIM_MAX_PLACEMENTS. */
#define AUGUR_SIM_MAX_PLACEMENTS 16
typedef struct augur_sim_placements {
  uint32_t n, nranks;
  uint32_t *cpu;  /* n x nranks: cpu[k * nranks + r] */
  double *share;  /* n: the part of the span placement k held */
  double dropped; /* the part held by placements beyond the first n */
  double seconds; /* the span */
  uint32_t moves; /* CPU changes in the span, over all ranks */
  /* n = 0: why ("rank 3 did not record its CPU", ...) */
  char why[160];
} augur_sim_placements;
AUGUR_API int augur_sim_recorded_placements(const augur_trace *t, augur_sim_placements *p,
                                            augur_error *err);
AUGUR_API void augur_sim_placements_free(augur_sim_placements *p);

/* What the output must say about the trace's MPI-IO and one-sided calls
 * (GS of augur_simulate_trace): lines of those replayed with their
 * recorded time and those simplified; returns how many (0..2). */
AUGUR_API size_t augur_sim_iorma_notes(const augur_sim_graph_stats *gs, char lines[2][320]);

/* Writers: aligned text, and JSON {"predicted_seconds", "ranks":[...], ...}.
 * MEASURED < 0 leaves the measured time out. NOTES (NNOTES lines, may be
 * NULL): what the caller must say about the input or the model (the JSON's
 * "notes"; the text writer's caller prints them itself, first). */
AUGUR_API void augur_sim_write_text(FILE *f, const augur_sim_result *r, double measured);
AUGUR_API void augur_sim_write_json(FILE *f, const augur_sim_result *r,
                                    const augur_sim_graph_stats *gs, double measured,
                                    const char *const *notes, size_t nnotes);

#ifdef __cplusplus
}
#endif
#endif
