/* augur diagnose — internal state shared by the streaming pass
 * (diagnose.c), the rules that turn matched messages and collective
 * instances into wait states and causes (dx_rules.c), the group table
 * (dx_groups.c) and the step that turns groups into findings (dx_finish.c).
 * The method is in docs/diagnose.md. */
#ifndef AUGUR_DX_INT_H
#define AUGUR_DX_INT_H

#include <stdint.h>

#include "augur/diagnose.h"
#include "augur/match.h"

/* Messages at least this large count towards slow_communication. */
#define DX_LARGE_MESSAGE (64u * 1024u)
/* Worst instances kept per group for the HTML marks. */
#define DX_MARKS 16
/* Call sites kept per group (the first is the group's own; a problem merged
 * over the call sites of one exchange lists them all, up to this many). */
#define DX_GROUP_SITES 8
/* Groups that get a per-bin histogram (the rest only count totals). */
#define DX_HIST_GROUPS 256
/* Recent sends kept per rank (multiple output, send sequences). */
#define DX_SEND_RING 8
/* Clock correction between ranks is good to tens of microseconds: events
 * of different ranks closer than this are not ordered. */
#define DX_CLOCK_SLACK 100000u /* ns */
/* Two unsuccessful tests (MPI_Test*, MPI_Iprobe) of a rank closer than this
 * are one polling loop, the gap included: the recorder and a loop that does
 * nothing else take about 1 us per test (dx_poll, 2 cores); useful work
 * between tests takes longer. */
#define DX_POLL_GAP 10000u /* ns */
/* serialization is only looked for up to this many ranks (O(ranks) test). */
#define DX_SERIAL_MAX_RANKS 256
/* io_small_requests: an independent MPI-IO request below this size spends
 * more time in per-request cost than in moving data (the half-plateau size
 * of write bandwidth against request size, measured: docs/diagnose.md). */
#define DX_IO_SMALL (16u * 1024u)
/* io_collective: the file bandwidth per rank that moving a collective call's
 * bytes takes at least, in bytes per second, unless the user gives theirs
 * (augur_dx_options.io_bandwidth, diagnose --io-bandwidth): the lowest plateau
 * measured with apps/dx_io_reqsize (327 MB/s per rank, 2 ranks on 2 loaded
 * cores; 755-902 otherwise, docs/diagnose.md) rounded down to a power of two.
 * Time in a call beyond bytes / this is not data movement. */
#define DX_IO_BANDWIDTH (256.0 * 1024 * 1024)

/* What a blocked-sender or multiple-output instance says about the data. */
enum dx_data {
  DX_DATA_UNKNOWN = 0,
  DX_DATA_SAME,
  DX_DATA_MODIFIED,
  DX_DATA_INDEPENDENT,
  DX_DATA_DIFFERENT,
  DX_DATA_N
};

#define DX_NONE_U32 UINT32_MAX

/* One (pattern, call site, upstream) group: recurring instances of the same
 * situation, summed over the run (KappaPi step 3). */
typedef struct dx_group {
  int pattern;
  int wait_state;    /* wait state the instances were found in, or -1 */
  uint32_t callsite; /* where the time is lost */
  int32_t upstream;  /* late_arrival: the group whose waits made the rank late */
  int32_t into;      /* merged into this group (one problem over call sites), or -1 */
  uint64_t ns;       /* lost process-time */
  uint64_t saving_ns;
  uint64_t instances;
  uint64_t comm; /* the communicator, or UINT64_MAX when several */
  uint64_t *rankbits;
  uint64_t *partnerbits; /* ranks that cause it */
  uint64_t *partner_ns;  /* point-to-point: the lost ns by the rank that caused it (the
                            sender; late receiver: the receiver), or NULL (dx_group_blame) */
  uint32_t partner;      /* the rank that causes it (sender, late arriver, root), or
                            DX_NONE_U32 if several */
  uint32_t partner_cs;   /* that rank's call site (first seen) */
  uint32_t post_cs;      /* a nonblocking receive waited for at callsite: where it was
                            posted (first seen); 0: blocking */
  uint64_t data[DX_DATA_N];
  uint64_t excess_compute_ns; /* load imbalance / late arrival: late rank's extra compute */
  uint64_t excess_wait_ns;    /* ... its extra waiting */
  uint64_t excess_mpi_ns;     /* ... its extra time in MPI calls that are not waits */
  uint64_t excess_delay_ns;   /* ... its extra wait for a CPU (run-delay counters), 0: none;
                                 late_sender: the senders' wait for a CPU within the waits;
                                 blocked_sender: the forwarders' while they processed */
  uint64_t excess_oncpu_ns;   /* ... its extra computation on a CPU: net of run-delay */
  uint64_t excess_io_ns;      /* ... of which in MPI-IO calls */
  uint64_t lateness_ns;       /* ... summed lateness of the last arrivals */
  uint64_t chain_ns;          /* blocked sender: part of the waits the sender was blocked too */
  uint64_t recv_n, recv_nb;   /* late receiver: messages judged, of which the receive was
                                 posted by a nonblocking call (MPI_Irecv, persistent) */
  uint64_t bytes;             /* collective_volume: bytes moved (sent + received) */
  uint16_t call_type;         /* collective_volume, polling: the MPI call */
  uint64_t syncs;             /* collective instances with a wait in this group */
  uint32_t late_rank;         /* most frequent last arriver (majority vote) */
  uint64_t late_votes;
  /* The part of ns (and instances) whose waiting rank talked to several ranks by then: in a
   * master/worker run the master's own waits, told from its workers' in a group both share
   * (a receive routine they call alike; dx_group_keep_side) */
  uint64_t hub_ns, hub_n;
  uint32_t sites[DX_GROUP_SITES];
  uint64_t site_ns[DX_GROUP_SITES];
  augur_dx_mark marks[DX_MARKS]; /* min-heap on duration */
  uint32_t nmarks;
  float *hist; /* lost ns per bin, or NULL */
  /* OpenMP patterns: lost thread-ns (ns is thread-ns / threads, summed over
   * ranks), the largest threads per rank, the largest team asked for */
  uint64_t thread_ns;
  uint32_t threads, requested;
  uint32_t team, cpus; /* omp_limited_parallelism: the largest team run, the most CPUs */
  uint64_t io_file;    /* io_small_requests: the file id, UINT64_MAX when several (dx_io.c) */
  uint64_t io_ns;      /* io_small_requests: the calls' time; io_imbalance: the late rank's extra */
  uint64_t io_late_bytes, io_early_bytes; /* io_imbalance: bytes of the last and first arrivals */
  uint64_t io_data_ns; /* io_collective: bytes / dx.io_bw, summed over the members */
} dx_group;

typedef struct dx_groups {
  dx_group *g;
  size_t n, cap;
  int32_t *slots; /* open addressing: index into g, -1 empty */
  size_t nslots;
  uint32_t nranks;
  uint32_t nbins;
} dx_groups;

/* A rank's activity since its last collective call. */
typedef struct dx_seg {
  /* first the four every record adds to (diagnose.c, before and after) */
  uint64_t compute_ns;
  uint64_t mpi_ns;   /* time inside MPI calls other than the collectives themselves */
  uint64_t delay_ns; /* waiting for a CPU (run-delay, run-delay-mpi): in the compute bursts
                        and the calls since the previous collective, that one's included */
  /* the part of delay_ns in the compute bursts (run-delay, at most each burst):
   * compute_ns minus this is the time computing on a CPU */
  uint64_t compute_delay_ns;
  uint64_t wait_ns;
  uint64_t top_wait_ns;
  int32_t top_group;
  int io_shared;      /* a shared-file-pointer call (_shared, _ordered) */
  uint64_t io_ns;     /* part of mpi_ns in MPI-IO calls (io_serialised) */
  uint64_t io_any_ns; /* time in every MPI-IO call, collective ones too but those that
                         synchronise (dx_io_is_sync), for io_imbalance */
  uint64_t io_bytes;  /* bytes its MPI-IO data calls (but the synchronising ones) moved */
  /* the part of delay_ns in the MPI-IO calls of io_any_ns (run-delay-mpi, at most each
   * call): io_any_ns minus this is the time in them on a CPU or waiting for the file */
  uint64_t io_delay_ns;
} dx_seg;

typedef struct dx_snap {
  uint64_t comm, t_start;
  dx_seg seg;
} dx_snap;

typedef struct dx_sent {
  uint64_t t0, t1, hash;
  uint64_t blocked_until; /* the send waited for its receiver until then (0: did not) */
  uint32_t to;
  int exchange;         /* MPI_Sendrecv(_replace): the call also receives, it is no multicast */
  uint64_t delay;       /* the sender's wait for a CPU before the send (dx_seg.delay_ns's parts) */
  uint64_t burst_delay; /* ... of it in the compute burst just before the send (run-delay) */
} dx_sent;

/* A large message's transfer time, held until the sender's next large send
 * says whether it was one of a sequence (a multicast: not slow, inherent). */
typedef struct dx_transfer {
  int valid;
  uint64_t t_send_start, t_send_end;
  uint32_t receiver;
  uint32_t recv_cs, send_cs;
  uint64_t recv_ns, send_ns;
  uint64_t recv_t0, recv_t1, send_t0; /* for marks */
  int in_sequence;
} dx_transfer;

/* A rank's state, in the order the pass touches it: with thousands of ranks
 * in step each record's rank is a cache miss, so what every record reads
 * and writes (diagnose.c, before and after) fills the first line and the
 * segment's head the second; what a matched message touches follows, then
 * the rest. Aligned to a line (diagnose.c's setup allocates them with
 * aug_huge_zalloc). */
typedef struct dx_rank {
  /* line 0: every record */
  _Alignas(64) int started;
  int finalized;
  uint64_t last_end;      /* latest end of an MPI call (threads merged) */
  uint64_t in_call_until; /* end of the latest call (for "who is in MPI now") */
  uint64_t cp_t;          /* critical path: the time its composition (dx.cp) runs to */
  uint64_t poll_end;      /* end of the latest unsuccessful test, 0 = not polling */
  /* the previous MPI-IO call of a thread that counts in seg.io_any_ns: its time (0: none) and
   * thread; that thread's next call's run-delay-mpi is its wait for a CPU */
  uint64_t prev_io_ns;
  uint32_t prev_io_thread;
  uint32_t poll_cs; /* poll_end's call site */
  unsigned nsent;   /* sends so far: the newest is sent[(nsent - 1) % DX_SEND_RING] */
  /* line 1 on: the segment since the previous collective, its head every record's too */
  dx_seg seg;
  /* what a matched message touches */
  uint64_t pending_in;    /* sends to this rank not matched yet (wrong order) */
  uint64_t recv_end;      /* end of the latest call that completed a receive here */
  uint32_t peer;          /* first peer, DX_NONE_U32 = none yet (master/worker recognition) */
  int many_peers;         /* talked to more than one peer */
  int did_send, did_recv; /* sent / received at least one message */
  /* the call whose waits are being accounted (its start + 1) and the end of what it counted:
   * one call completing several late messages (Waitall), or receiving and sending
   * (Sendrecv, a Waitall of Irecvs and Isends), counts each moment once, for the first wait
   * the analysis meets (late_sender, late_receiver) */
  uint64_t acct_call, acct_until;
  /* the latest late-sender wait of this rank (blocked-sender chains) */
  int lw_valid;
  uint32_t lw_from;
  uint64_t lw_t0, lw_t1, lw_hash;
  dx_sent sent[DX_SEND_RING];
  dx_transfer pending;
  dx_snap *snaps;
  size_t nsnaps, capsnaps;
  uint64_t win_start, win_end; /* Init end .. Finalize start */
  /* its waits while it had talked to one rank (not counted in a group's hub_ns): those of
   * the first group they went to (index + 1, 0: none), for the master of a master/worker run */
  uint32_t pre_group1, pre_n;
  uint64_t pre_ns;
} dx_rank;

typedef struct dx_isends dx_isends;   /* dx_isend.c */
typedef struct dx_rmas dx_rmas;       /* dx_rma.c */
typedef struct dx_iocolls dx_iocolls; /* dx_io.c */

typedef struct dx {
  augur_trace *trace;
  uint32_t nranks;
  dx_rank *ranks;
  dx_groups groups;
  augur_matcher *matcher;
  dx_isends *isends;
  dx_rmas *rma;       /* one-sided calls (dx_rma.c), NULL when none */
  dx_iocolls *iocoll; /* collective MPI-IO data calls being paired (dx_io.c), NULL when none */
  augur_error *err;
  int has_hashes;
  uint64_t io_calls, io_ns; /* MPI-IO calls (not analysed: a note says so) and their time */
  uint64_t eager_limit_opt;
  double io_bw; /* io_collective's reference, bytes/s per rank (augur_dx_options.io_bandwidth) */
  uint64_t eager_max, rendezvous_min;
  int delay_ctr, delay_mpi_ctr; /* event slots of run-delay and run-delay-mpi, -1: none
                                   (dx_has_cpu_wait) */
  /* active-process timeline */
  uint64_t t0, t1, bin_ns;
  uint64_t t_ready; /* every rank has left MPI_Init: nothing before counts */
  uint32_t nbins;
  double *busy; /* compute ns per bin, summed over ranks */
  /* critical path: per rank 2*(ncs+1) counters, or NULL when too large */
  uint64_t *cp;
  size_t cpw; /* counters per rank */
  double wait_ns[AUGUR_DX_NWAITSTATES];
  uint64_t wait_n[AUGUR_DX_NWAITSTATES];
  /* OpenMP (dx_omp.c) */
  uint32_t omp_ranks;                       /* ranks with OpenMP records */
  uint32_t omp_threads;                     /* the largest team */
  uint64_t omp_unbalanced;                  /* begin/end records that did not pair, all ranks */
  uint32_t omp_host_threads, omp_host_cpus; /* the most threads per CPU on a host */
  char omp_host[64];
} dx;

/* The trace records the ranks' waits for a CPU (run-delay counters). */
static inline int dx_has_cpu_wait(const dx *d) {
  return d->delay_ctr >= 0 || d->delay_mpi_ctr >= 0;
}

/* dx_groups.c */
int dx_groups_init(dx_groups *gs, uint32_t nranks, uint32_t nbins);
void dx_groups_free(dx_groups *gs);
/* The group of (pattern, callsite, upstream); -1 when memory ran out. */
int32_t dx_group_get(dx_groups *gs, int pattern, int wait_state, uint32_t callsite,
                     int32_t upstream);
/* Adds one instance's lost time of RANK over [t0, t1] (a mark candidate). */
void dx_group_add(dx *d, int32_t g, uint32_t rank, uint32_t callsite, uint64_t t0, uint64_t t1,
                  uint64_t comm);
void dx_group_site(dx_group *g, uint32_t callsite, uint64_t ns);
/* Adds the part of [t0, t1) in each bin of the active-process timeline to
 * DV[bin] and/or FV[bin] (either may be NULL). */
void dx_spread(const dx *d, uint64_t t0, uint64_t t1, double *dv, float *fv);
/* Moves FROM's instances into INTO (same situation after relabelling). */
void dx_group_merge(const dx *d, dx_group *into, dx_group *from);
/* Puts NS of group G's lost time on RANK, the partner that caused it (partner_ns, allocated
 * at the first). -1: out of memory. */
int dx_group_blame(dx_groups *gs, dx_group *g, uint32_t rank, uint64_t ns);
/* The rank with the most of G's partner_ns and its part of them (*share), or -1. */
int32_t dx_group_top_partner(const dx_groups *gs, const dx_group *g, double *share);
/* Keeps one side of G's waits: with HUB 1 those of RANK alone (hub_ns of them), with HUB 0
 * everyone else's, caused by RANK. The other side's time leaves the group (not the
 * wait-state totals); its timeline histogram is kept whole. */
void dx_group_keep_side(const dx *d, dx_group *g, uint32_t rank, int hub);
void dx_group_partner(dx_groups *gs, dx_group *g, uint32_t rank, uint32_t callsite);

/* dx_rules.c: the matcher's callbacks */
int dx_on_message(void *ctx, const augur_message *m);
int dx_on_coll(void *ctx, const augur_coll_instance *c);
/* C, an instance that synchronised nothing (a member left before the last arrived): each
 * member's segment cut at its call joins the segment that follows (the call's own time
 * counted there as time in MPI-IO calls), as if the call had been no collective. */
void dx_unsnap(dx *d, const augur_coll_instance *c);
/* EV, a parent event of a rank: an unsuccessful MPI_Test, Testany, Testall,
 * Testsome or Iprobe is polling, and so is the gap since the previous one
 * (DX_POLL_GAP). Returns 1 when the gap before EV was charged as polling
 * (it is then no computation). */
int dx_poll(dx *d, const augur_event *ev);
/* dx_io.c. io_serialised (docs/diagnose.md): an MPI-IO call whose time counts as one rank doing the
 * program's I/O alone: independent calls (not collective, or on a one-rank communicator:
 * a file of the rank's own) and the shared-pointer calls (_shared, _ordered), which MPI
 * serialises. Collective I/O (every rank takes part) does not count. */
int dx_io_serial(const dx *d, const augur_event *ev);
/* One more synchronisation of group G whose last arrival was RANK (the
 * majority vote for the rank most often late). */
void dx_vote(dx_group *g, uint32_t rank);
/* A rank's MPI-IO call EV, after the matcher: its segment's I/O time and bytes, and
 * io_small_requests. */
void dx_io_after(dx *d, const augur_event *ev);
/* The I/O pattern that explains a collective's lateness from its last arrival's segment LATE
 * against the first's EARLY (io_serialised, io_imbalance), or -1. */
int dx_io_late(const dx_seg *late, const dx_seg *early, uint64_t lateness);
/* A synchronising collective MPI-IO call on a file opened by two ranks or more: the data
 * calls MPI_File_read/write(_at)_all and their split *_begin, and open, close, set_view,
 * sync, set_size, preallocate. Paired into instances like a collective (dx_io_pair), its
 * time no part of the rank's segment. */
int dx_io_is_sync(const dx *d, const augur_event *ev);
/* The call types dx_io_is_sync takes (whatever the communicator). */
int dx_io_sync_type(unsigned t);
/* EV, a parent event after dx_io_after: a dx_io_is_sync call joins its instance (the k-th
 * such call of each rank on the file and communicator); a complete instance goes to
 * dx_on_coll (its waits), then its time after the last arrival to io_collective. 0, or a
 * negative error (out of memory). */
int dx_io_pair(dx *d, const augur_event *ev);
void dx_io_free(dx *d);
/* Adds an instance's I/O excess to G (an io_imbalance group; others unchanged). */
void dx_io_coll(dx_group *g, const dx_seg *late, const dx_seg *early);
/* Cause and recommendation of an I/O group (who: "Ranks 1-3", many: more than one rank;
 * wait: "wait(s)"; site: where; late: the last arrival); 0, or -1 for another pattern. */
int dx_io_words(const dx *d, const dx_group *g, int many, const char *who, const char *wait,
                const char *site, const char *late, char **cause, char **rec);
/* Flushes a rank's held large transfer into slow_communication if alone. */
void dx_flush_transfer(dx *d, dx_rank *r);
/* Charges a wait state of RANK: counts the exact total, puts it in group G,
 * adds it to the rank's segment. Returns the ns charged (t0 clipped to the ready time). */
uint64_t dx_charge(dx *d, int wait_state, int32_t g, uint32_t rank, uint32_t callsite, uint64_t t0,
                   uint64_t t1, uint64_t comm);
/* Critical path: the path to RANK's time T now goes through FROM's path at
 * its current time, then T - from_t inside call site CS. */
void dx_cp_join(dx *d, uint32_t rank, uint32_t from, uint32_t cs, uint64_t t);

/* dx_isend.c: late receivers behind nonblocking sends. Both return 0, or
 * -1 when memory ran out. */
dx_isends *dx_isends_new(void);
void dx_isends_free(dx_isends *t);
int dx_isend_message(dx *d, const augur_message *m);
/* C: a COMPLETION sub-record; CALL: the call it belongs to. */
int dx_isend_done(dx *d, const augur_event *c, const augur_event *call);

/* dx_finish.c: groups -> findings, intervals, path */
int dx_finish(dx *d, const augur_dx_options *opt, augur_diagnosis *out);
/* Appends note S (taken; NULL: out of memory) to O's notes; 0 or -1. */
int dx_note(augur_diagnosis *o, char *s);

/* dx_omp.c: the OpenMP patterns, from each rank's thread states
 * (include/augur/omp.h) into groups; 0 or a negative error (the reader's on
 * damage, or out of memory). */
int dx_omp(dx *d, augur_error *err);
/* The cause and recommendation of an OpenMP group; -1 when out of memory. */
int dx_omp_words(const dx *d, const dx_group *g, char **cause, char **rec);
/* Notes on the OpenMP side of the trace (threads oversubscribed, records
 * that did not pair, OpenMP not seen); -1 when out of memory. */
int dx_omp_notes(const dx *d, augur_diagnosis *o);

/* dx_rma.c: the one-sided wait states (docs/diagnose.md "One-sided wait
 * states"). dx_rma_event keeps EV, a parent one-sided event (0, or -1 when out
 * of memory); dx_rma, after the streaming pass, charges the waits to groups
 * (0 or -1); dx_rma_free frees what they kept. */
int dx_rma_event(dx *d, const augur_event *ev);
int dx_rma(dx *d);
void dx_rma_free(dx *d);
/* The cause and recommendation of a one-sided group (0 for other patterns);
 * -1 when out of memory. WHO: "Rank 1" / "Ranks 1-3"; PARTNER: the ranks that
 * cause it; MANY: WHO is several ranks. */
int dx_rma_words(const dx_group *g, const char *who, const char *site, const char *partner,
                 int many, char **cause, char **rec);
/* The one-sided notes (time in one-sided calls, epochs without partners);
 * nothing for a trace without one-sided calls; -1 when out of memory. */
int dx_rma_notes(const dx *d, augur_diagnosis *o);

/* dx_names.c */
char *dx_strdup_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
