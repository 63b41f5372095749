/* Internals of the simulator shared by the files of src/sim. */
#ifndef AUGUR_SIM_INT_H
#define AUGUR_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "augur/sim.h"
#include "grow.h"
#include "stats.h"

typedef struct sim_rank_ops {
  augur_sim_op *ops;
  size_t n, cap;
  double start; /* seconds: when the rank left MPI_Init, after the first rank did */
  /* Streaming (sim_src): ops[0] is the rank's operation number BASE (those
   * before it are run and gone; 0 in memory), and the wait lists live per
   * rank: WAIT.a counts from WL_BASE into wl[0..nwl) (absolute op numbers). */
  uint64_t base;
  uint64_t *wl;
  size_t nwl, wl_cap;
  uint64_t wl_base;
} sim_rank_ops;

/* Instance ids of communicator-creating calls (replayed as barriers over the
 * parent): this bit, the communicator index << 32, the call's number on it. */
#define SIM_INST_COMMGMT (1ull << 62)

typedef struct sim_comm {
  uint64_t id; /* trace communicator id (0 for hand-built) */
  uint32_t size;
  uint32_t *members; /* world ranks in comm rank order */
  uint64_t *byworld; /* world rank << 32 | comm rank, ascending: sim_comm_rank */
} sim_comm;

/* The comm rank of world rank WORLD in C (the last one if it is there
 * twice), or -1: O(log size), so a member of a collective over thousands
 * of ranks finds its place without reading all of them. */
int64_t sim_comm_rank(const sim_comm *c, uint32_t world);

struct augur_sim_graph {
  uint32_t nranks;
  sim_rank_ops *ranks;
  augur_sim_msg *msgs;
  size_t nmsgs, msg_cap;
  uint32_t *waits; /* op indices referenced by WAIT ops */
  size_t nwaits, wait_cap;
  sim_comm *comms;
  size_t ncomms, comm_cap;
  uint64_t ninstances;
  uint64_t trace_events;
  double measured;
  /* I/O and one-sided calls: charged from the model, replayed with their
   * recorded time (Win_test), approximated (docs/simulate.md); which
   * types were replayed (bit t - 128) */
  uint64_t iorma_modelled, iorma_recorded, iorma_approx;
  uint64_t iorma_replayed[2];
};

/* A machine file's number: optional k/M/G suffix, powers of SCALE (1024
 * for sizes, 1000 for rates and times); 0, or -1 when V is not one
 * (machine.c; microbench.c reads its section with it). */
int sim_parse_number(const char *v, double scale, double *out);
/* Reads the INI file PATH with libinih, calling H(CTX, section, key,
 * value) per key; MSG is the handler's message buffer (read after a
 * failure; empty: a malformed line). Fails: AUGUR_E_MISSING/AUGUR_E_IO
 * "PATH: errno text", AUGUR_E_FORMAT "PATH:LINE: MSG" (machine.c; the
 * machine model and its [microbench] section, microbench.c). */
int sim_ini_load(const char *path, int (*h)(void *, const char *, const char *, const char *),
                 void *ctx, const char *msg, augur_error *err);
/* splitmix64: the next value of the sequence whose state is *X. */
uint64_t sim_splitmix(uint64_t *x);
/* Makes compute op OP take 1/FACTOR of its time (wall and CPU alike). */
void sim_scale_compute(augur_sim_op *op, double factor);
int64_t sim_add_waitlist(augur_sim_graph *g, const uint32_t *ops, uint32_t n);

/* One step of a collective algorithm as one member sees it: send SBYTES to
 * world rank TO (if TO >= 0) and receive RBYTES from FROM (if FROM >= 0),
 * both at once; the step ends when both are done. TAG tells messages of the
 * same pair apart inside one instance; both sides compute the same tag. */
typedef struct sim_step {
  int32_t to, from;
  uint32_t tag;
  /* 1: posted with the next steps that have it, all at once (MPICH's
   * "scattered" all-to-all: every Isend/Irecv, then Waitall); followed
   * only under time slices, where it matters which partner runs */
  uint32_t together;
  uint64_t sbytes, rbytes;
} sim_step;

/* Steps of member ME (comm rank) of a collective of type TYPE over comm C
 * (members = world ranks) with root comm rank ROOT (or -1) and BYTES (see
 * docs/simulate.md). Writes at most MAX steps; returns how many (or the
 * number needed if more than MAX). */
size_t sim_coll_steps(const augur_machine *m, unsigned type, const sim_comm *c, uint32_t me,
                      int32_t root, uint64_t bytes, sim_step *out, size_t max);
/* The same, and *ROTATES = 1 when the algorithm's steps of every member ME are member 0's
 * turned by ME (to and from + ME mod p: dissemination, rings, pairwise exchange), else 0. */
size_t sim_coll_steps_rot(const augur_machine *m, unsigned type, const sim_comm *c, uint32_t me,
                          int32_t root, uint64_t bytes, sim_step *out, size_t max, int *rotates);

/* Does every member of TYPE's algorithm (above) wait, through its steps'
 * messages, for every other member to enter? (Dissemination, recursive
 * doubling, rings, pairwise exchange: yes; trees and scans: no.) Then no
 * member leaves before the last one entered, and the simulator may run an
 * instance's steps all at once when it has (sim.c "closed"). */
int sim_coll_waits_all(unsigned type);

/* Stretches of one rank's run whose compute bursts are scaled while the
 * graph is built (a what-if on a phase): [t0, t1) in trace ns, sorted,
 * disjoint; a burst that starts inside one takes 1 / factor of its time. */
typedef struct sim_window {
  uint64_t t0, t1;
  double factor;
} sim_window;

typedef struct sim_windows {
  sim_window **w; /* per rank */
  size_t *n;      /* per rank */
} sim_windows;

/* augur_sim_graph_from_trace with compute windows (NULL: none). */
int sim_graph_build(augur_sim_graph **out, augur_trace *t, const sim_windows *win,
                    augur_error *err);
/* The windows of the phases SC[0..n) of T (phase_scale.c); NRANKS set to
 * how many ranks W covers. Free with sim_windows_free. */
int sim_windows_build(augur_trace *t, const augur_sim_phase_scale *sc, size_t n, sim_windows *w,
                      uint32_t *nranks, augur_error *err);
void sim_windows_free(sim_windows *w, uint32_t nranks);

/* ---- The graph of a trace as a stream (graph_trace.c) -------------------
 * The builder of sim_graph_build made resumable: it reads the trace only as
 * far as the simulator needs (sim_src_ready), keeps per rank the operations
 * from the rank's program counter to the reader's position, and forgets the
 * ones run. Messages get their simulator slot when the matcher pairs their
 * ends (NEW_MSG: the slot index, or AUGUR_SIM_NONE when out of memory); a
 * SEND/RECV's a is that slot. docs/simulate.md "Memory". */
typedef struct builder sim_src;
typedef uint64_t (*sim_msg_fn)(void *ctx, uint32_t sender, uint32_t receiver, uint64_t bytes,
                               unsigned flags); /* AUGUR_SIM_MSG_* */

int sim_src_open(sim_src **out, augur_trace *t, const sim_windows *win,
                 const augur_sim_site_scale *sites, size_t nsites, augur_error *err);
/* Where new messages go; set before the first sim_src_ready. */
void sim_src_set_msg(sim_src *b, sim_msg_fn fn, void *ctx);
/* Where the simulation's progress goes (augur_sim_trace_opts.progress; FN may be NULL). */
void sim_src_set_progress(sim_src *b, augur_progress_fn fn, void *arg);
/* The simulator ran RAN operations: FN(ARG, the records they stand for, the trace's). */
void sim_src_progress(sim_src *b, uint64_t ran);
/* Reads until every rank left MPI_Init (or the trace ended) and sets the
 * ranks' start times. */
int sim_src_start(sim_src *b);
/* Is RANK's operation PC (absolute number; all before it have run) known
 * and resolved (its message, instance or member count is in, or the trace
 * ended)? 1: yes, 0: the rank has no operation PC, < 0: error
 * (sim_src_error). Operations before PC may be released. */
int sim_src_ready(sim_src *b, uint32_t rank, uint64_t pc);
/* Reads the rest of the trace (after the ranks ended: measured time, counts). */
int sim_src_drain(sim_src *b);
augur_sim_graph *sim_src_graph(sim_src *b);
const augur_error *sim_src_error(const sim_src *b);
/* Operations held now (sum over ranks); what the graph had in total, with
 * BYTES = the most memory the stream held. */
uint64_t sim_src_held(const sim_src *b);
void sim_src_stats(const sim_src *b, augur_sim_graph_stats *s);
void sim_src_close(sim_src *b);
/* ---- I/O and one-sided calls (graph_iorma.c, docs/simulate.md "I/O and
 * one-sided operations") -------------------------------------------------
 * The builder turns an MPI-IO or one-sided call into operations the
 * simulator already runs: synchronisations as barrier-like COLL instances
 * of the file's or window's communicator (sim_b_sync), ordering between
 * ranks (rank-order token of _ordered calls, post -> start and complete ->
 * wait of PSCW) as zero-byte messages (sim_b_token), and the transfer as a
 * LOCAL operation with AUGUR_SIM_F_MODEL whose time the machine model gives
 * (sim_iorma_cost). */

/* Spaces of sim_b_sync's instances, besides communicator creations (0). */
enum { SIM_SYNC_FILE = 1, SIM_SYNC_WIN = 2, SIM_SYNC_WINCREATE = 3 };
/* A modelled transfer's b: the bytes are all members' of a collective. */
#define SIM_XFER_COLLECTIVE 1u
/* ... nothing moves: the call costs its overhead only (lock, unlock, flush,
 * seek, split *_end, the completion of a request charged at its call). */
#define SIM_XFER_NONE 2u
/* ... a one-sided operation of an active-target epoch (fence, PSCW): its
 * latency is the synchronisation's (barrier, tokens), only bytes cost. */
#define SIM_XFER_ACTIVE 4u

typedef struct sim_iorma_pend sim_iorma_pend;
typedef struct sim_iorma_epoch sim_iorma_epoch;
typedef struct sim_iorma {
  sim_iorma_pend *pend; /* collective transfers waiting for all members */
  size_t npend, pend_cap;
  sim_iorma_epoch *ep; /* (rank, window or file) -> post/start group, bytes written */
  size_t nep, ep_cap;
  uint32_t *head; /* per rank: 1 + its newest entry of ep (0: none), chained by next */
  size_t head_cap;
  int req; /* the pending Wait/Test completed an I/O or one-sided request */
} sim_iorma;

/* Builds the operations of I/O or one-sided call EV (graph_trace.c calls it
 * after the compute burst before EV). */
void sim_iorma_event(sim_src *b, sim_iorma *st, const augur_event *ev);
void sim_iorma_free(sim_iorma *st);
/* Seconds modelled operation OP (AUGUR_SIM_F_MODEL) takes on M; SAME_NODE:
 * its one-sided target is on the caller's node. */
double sim_iorma_cost(const augur_machine *m, const augur_sim_op *op, int same_node);
/* ... on the default machine, both ranks on one node: what a graph file
 * (gfile_write.c) states for it. */
double sim_iorma_default_cost(const augur_sim_op *op);
/* G's counts of such calls into S (augur_sim_graph_stats_get, sim_src_stats),
 * and to S's bytes (which leave them out) the memory their bookkeeping
 * holds, if the trace has any: G's counters, the builder's ST (may be NULL)
 * of ST_SIZE bytes and what it allocated. A trace without them shows the
 * size it showed before they existed. */
void sim_graph_iorma_stats(const augur_sim_graph *g, const sim_iorma *st, size_t st_size,
                           augur_sim_graph_stats *s);

/* calibrate.c's MPI-IO and one-sided figures (calibrate_iorma.c): set to
 * "not measured", read a protocol line (1 if it was one of them), set
 * the model's [io] and [rma] keys from those measured, comment lines. */
struct augur_calib_figures;
void calib_iorma_init(struct augur_calib_figures *f);
int calib_iorma_line(struct augur_calib_figures *f, const char *line);
void calib_iorma_derive(const struct augur_calib_figures *f, augur_machine *m);
void calib_iorma_write(FILE *out, const struct augur_calib_figures *f, const augur_machine *m);

/* The builder's parts graph_iorma.c uses (graph_trace.c). */
int64_t sim_b_add(sim_src *b, uint32_t rank, augur_sim_op *op);
augur_sim_op *sim_b_op(sim_src *b, uint32_t rank, uint64_t i);
/* Index of communicator (or window) ID in the graph and its *SIZE, or -1. */
int64_t sim_b_comm(sim_src *b, uint64_t id, uint32_t *size);
augur_trace *sim_b_trace(sim_src *b);
augur_sim_graph *sim_b_graph(sim_src *b);
void sim_b_local(sim_src *b, const augur_event *ev);
void sim_b_nomem(sim_src *b);
/* EV's barrier-like instance over communicator CI in SPACE (SIM_SYNC_*):
 * the K-th such call of every member is one; *MEMBERS (may be NULL) how
 * many reached it so far. Returns the COLL operation's number (or -1). */
int64_t sim_b_sync(sim_src *b, const augur_event *ev, uint32_t ci, unsigned space,
                   uint64_t *members);
/* Pairs end OP (a SEND if SEND, else a RECV) of RANK with the oldest
 * opposite end of PEER under KEY into a zero-byte message, or keeps it
 * until that end comes. */
void sim_b_token(sim_src *b, int send, uint32_t rank, uint32_t peer, uint64_t key, uint64_t op);
/* A WAIT of call P over P's rank's operations OPS[0..n). */
int64_t sim_b_wait(sim_src *b, const augur_event *p, const uint64_t *ops, uint32_t n);

/* ---- Network topology (topo.c) ------------------------------------------
 * The links between nodes as resources with a bandwidth; a route is the
 * list of resources a transfer from one node to another crosses. Layout:
 * node out (2i) and in (2i+1) links, then the bus, then the topology's own
 * links (fat-tree leaf-spine links, torus links). */

#define SIM_MAX_ROUTE       64 /* resources on one route */
#define SIM_TORUS_MAX_HOPS  60 /* sum of dims/2: the longest torus route */
#define SIM_TORUS_MAX_NODES (1u << 20)

typedef struct sim_topo {
  const augur_machine *m;
  uint32_t nnodes;  /* nodes the placement uses (node ids 0..nnodes-1) */
  uint32_t bus;     /* resource id of the bus */
  uint32_t base;    /* first resource of the topology's links */
  uint32_t uplinks; /* fat-tree: links per leaf */
  int node_links;   /* routes include the node out/in links */
  size_t nres;
  double *bw; /* nres bandwidths */
} sim_topo;

/* Checks M's topology against the NNODES nodes the placement uses and sets
 * up the resources. */
int sim_topo_init(sim_topo *t, const augur_machine *m, uint32_t nnodes, augur_error *err);
void sim_topo_free(sim_topo *t);
/* Does any transfer between nodes share a resource with another? (If not,
 * transfers need no flow: crossbar without injection limits.) */
int sim_topo_shared(const sim_topo *t);
/* Resources from node A to node B (A != B) into RES[SIM_MAX_ROUTE]; returns how many. */
uint32_t sim_topo_route(const sim_topo *t, uint32_t a, uint32_t b, int32_t *res);
/* Network latency from node A to node B (A != B): latency + links crossed x hop_latency. */
double sim_topo_latency(const sim_topo *t, uint32_t a, uint32_t b);

#endif
