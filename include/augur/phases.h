/* augur — PAS2P analysis: the logical trace and its phases (docs/phases.md).
 *
 * Two steps, both callable from C:
 *
 *  1. augur_logical_build reads the merged stream once, pairs messages and
 *     collective instances with the shared matcher (augur/match.h) and keeps
 *     one compact record per MPI call and rank (augur_lt_event, 40 bytes, +8
 *     with counters),
 *     plus 12 bytes per matched message and 24 per collective instance until
 *     logical times are assigned. It then gives every call a Lamport logical
 *     time (tick): a call takes its rank's next tick; a receive (the call that
 *     completed it) at least the send's tick + 1; every member of a collective
 *     instance the maximum of the members' next ticks.
 *
 *  2. augur_phases_detect cuts the logical trace into phases: repeated runs of
 *     ticks with the same calls (type, peer offset, call site per rank),
 *     volumes within a tolerance and similar work (instructions if the trace
 *     has counters, else compute time), with a weight (repetition count), a
 *     time per repetition and a relevance flag. Global mode (all ranks in
 *     step, ticks of the global logical time) or per-process mode (EPAS: each
 *     rank's calls in order, one representative rank).
 *
 * The phase records keep the tick range of their first occurrence, so a
 * signature can be built from an augur_logical + augur_phases pair: each
 * rank's calls in that range are the phase's event fingerprint. */
#ifndef AUGUR_PHASES_H
#define AUGUR_PHASES_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/event.h" /* before reader.h: defs.h needs AUGUR_MAX_COUNTERS */
#include "augur/reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A phase whose repetitions' times have a coefficient of variation above
 * this is reported as varying (docs/phases.md "Repetitions that vary"):
 * its PhaseET is a mean over different behaviour, and a signature that
 * times a few repetitions times a sample of it. */
#define AUGUR_PHASE_CV_WARN 0.5

/* Relevance by loop (docs/phases.md "Relevance"): a repeating phase below
 * min_share is relevant all the same when its repetitions interleave with
 * those of a repeating phase relevant by its share (its first one begins
 * after that phase's first and within its first AUGUR_PHASE_LOOP_REPS
 * repetitions, its last one before that phase's last ends, and it has at
 * least 1 / AUGUR_PHASE_LOOP_REPS of that phase's weight). Whether a phase
 * near the threshold is kept then rests on the phase table, which is the
 * same in every recording of a run, not on its measured share. */
#define AUGUR_PHASE_LOOP_REPS 12

/* Version of the JSON document augur_phases_json produces. */
#define AUGUR_PHASES_SCHEMA 1

/* One MPI call of one rank in the logical trace. 40 bytes. */
typedef struct augur_lt_event {
  uint64_t t_start, t_end; /* global ns */
  uint64_t bytes;          /* bytes the call sent + received, sub-records included */
  uint32_t lt;             /* logical time (tick, from 0); while building: the
                              call's collective instance + 1, or 0 */
  uint32_t callsite;       /* global call-site id, 0 = unknown */
  int32_t peer;            /* peer - rank (world ranks); AUGUR_PEER_* value v: INT32_MIN - v */
  uint8_t type;            /* enum augur_event_type (all values < 255) */
  uint8_t size_class;      /* 0: no bytes; else 1 + floor(log2(bytes)) */
  uint8_t flags;           /* AUGUR_LT_* */
  uint8_t comm;            /* communicator: index into augur_logical.comm, 0 = none or
                              not tracked (a completion call, or past the 255th) */
} augur_lt_event;

#define AUGUR_LT_MESSAGE 0x01u /* the call completed at least one matched receive */
#define AUGUR_LT_COLL    0x02u /* the call is a member of a complete collective instance */
#define AUGUR_LT_FORCED  0x04u /* a dependency was dropped to break a cycle (bad trace) */

typedef struct augur_lt_rank {
  augur_lt_event *ev;
  uint64_t *work; /* per call: counter delta of the compute burst before it
                     (augur_logical.work_counter); NULL without counters */
  uint64_t n;
  uint64_t span_ns; /* first call's start to last call's end */
} augur_lt_rank;

/* A communicator the calls used (irregular mode picks one of them). */
typedef struct augur_lt_comm {
  uint64_t id;    /* augur_event.comm */
  uint32_t size;  /* members, from the trace's definition (0: no definition) */
  uint32_t level; /* creation depth: MPI_COMM_WORLD 0, one made from it 1, ... */
  uint32_t kind;  /* enum augur_comm_kind */
} augur_lt_comm;

#define AUGUR_LT_MAX_COMMS 255

typedef struct augur_logical {
  uint32_t nranks;
  augur_lt_rank *rank;  /* nranks */
  uint64_t nevents;     /* calls kept (sum of rank[].n) */
  uint64_t records;     /* records read (parents + sub-records) */
  uint64_t skipped;     /* Test/Iprobe calls that returned flag=false: folded into compute */
  uint64_t nticks;      /* 1 + the largest tick */
  uint64_t messages;    /* matched messages used as dependencies */
  uint64_t collectives; /* complete collective instances used */
  uint64_t forced;      /* dependencies dropped to break cycles (0 on a sound trace) */
  int work_counter;     /* counter slot used for work, -1: none (compute time is used) */
  char work_name[32];   /* that counter's name, or "" */
  uint64_t run_start_ns, run_end_ns; /* first call start, last call end over ranks */
  /* Communicators in order of first use (the least t_start, then rank, then
   * call); augur_lt_event.comm k is comm[k - 1]. */
  uint32_t ncomms;
  augur_lt_comm *comm;
  /* 0 on a sound trace: then the logical trace is a function of each rank's
   * records in order, whatever the merged stream's interleaving of the
   * ranks. Else the cases where it is not: a call in two collective
   * instances (the first completed keeps it), communicators past the 255th
   * (the first met get an index), message ends dropped by the matcher
   * (AUGUR_MATCH_MAX_PENDING waiting). */
  uint64_t order_hazards;
} augur_logical;

/* Reads TRACE (merged stream) and builds its logical trace. A damaged trace
 * fails with the reader's message (file, rank, offset): a logical trace with
 * a hole would put phases where there are none. */
AUGUR_API int augur_logical_build(augur_trace *t, augur_logical **out, augur_error *err);
/* The slack the build sets on the merged stream it reads
 * (augur_stream_set_slack): the matcher needs each rank's calls in order,
 * not the ranks interleaved by time, and a rank then hands out its calls
 * in runs. 1 ms: 0.1 and 10 ms measured the same. */
#define AUGUR_LT_SLACK_NS 1000000u
/* How augur_logical_build_opts reads the trace. */
typedef struct augur_logical_opts {
  /* NULL: augur_stream_merged. Else the merged stream to read instead: all
   * of the trace's MPI records, each rank's in its order and a parent's
   * sub-records right behind it; the ranks may interleave otherwise (the
   * build sets its slack on it), which gives the same logical trace unless
   * augur_logical.order_hazards. The build stops at the stream's first
   * error: which one that is may depend on the interleaving when several
   * ranks are damaged. `phases --parallel` gives one whose blocks other
   * analysis ranks decode (augur_stream_merged_sources, docs/parallel.md). */
  int (*open_stream)(void *arg, augur_trace *t, augur_stream **s, augur_error *err);
  void *open_stream_arg;
  /* Called every 2^16 records of the pass over the trace (most of the build) with the
   * records read and the trace's records, or NULL. */
  augur_progress_fn progress;
  void *progress_arg;
} augur_logical_opts;
/* augur_logical_build with options O (NULL: the defaults). */
AUGUR_API int augur_logical_build_opts(augur_trace *t, const augur_logical_opts *o,
                                       augur_logical **out, augur_error *err);
AUGUR_API void augur_logical_free(augur_logical *lg);

enum augur_phase_mode {
  AUGUR_PHASES_GLOBAL = 0,   /* units are global ticks: all ranks in step */
  AUGUR_PHASES_RANK = 1,     /* EPAS: units are one rank's calls; representative rank */
  AUGUR_PHASES_IRREGULAR = 2 /* seed Ch. 3: per rank, units are the stretches between two
                                sends of the characteristic communicator; the ranks'
                                relevant phases are merged by K-means (docs/phases.md) */
};

typedef struct augur_phase_opts {
  int mode;            /* enum augur_phase_mode */
  double volume_tol;   /* max relative volume difference per call (default 0.05) */
  double work_sim;     /* min work similarity min/max per occurrence. Default -1 = auto:
                          0.85 when work is an instruction-like count, 0 (off) when it
                          is time (compute time or a clock counter): on a shared
                          machine identical repetitions differ by 2x in time */
  double min_share;    /* relevance: weight x PhaseET >= min_share x run (default 0.01) */
  uint32_t max_period; /* longest phase searched, in units; not used in IRREGULAR mode,
                          where every stretch is a phase candidate. 0 (the default): 512,
                          and in GLOBAL mode, while no phase repeats, 4x that again up to
                          a quarter of the units (augur_phases.max_period_widened) */
  int rank;            /* RANK mode: -1 = representative rank, else this rank */
} augur_phase_opts;

AUGUR_API void augur_phase_opts_default(augur_phase_opts *o);
/* 1 if the logical trace's work is a count (instructions), 0 if it is time. */
AUGUR_API int augur_logical_work_is_count(const augur_logical *lg);

/* Consecutive repetitions of a phase: COUNT of them, the first at unit
 * FIRST_UNIT, each starting where the previous ended. */
typedef struct augur_phase_run {
  uint64_t first_unit;
  uint64_t count;
} augur_phase_run;

/* One phase. Per-occurrence figures are means over its occurrences. */
typedef struct augur_phase {
  uint32_t id;         /* 1, 2, ... in order of first occurrence */
  uint64_t weight;     /* occurrences */
  uint64_t first_unit; /* first occurrence: units [first_unit, first_unit + nunits) */
  uint64_t nunits;     /* ticks (global) or calls (per rank) per occurrence */
  uint64_t tick_first; /* first occurrence's ticks (global: = units) */
  uint64_t tick_last;
  uint64_t events; /* calls per occurrence, all ranks */
  double bytes;    /* bytes per occurrence */
  double work;     /* work per occurrence: counter units, or compute ns */
  double phase_ns; /* PhaseET: time per occurrence (mean over ranks in global mode) */
  double total_ns; /* PhaseET x weight */
  double share;    /* total_ns / run */
  double cv;       /* coefficient of variation of the repetitions' times (0: weight 1) */
  int relevant;    /* share >= min_share, or loop_of, or kept_free */
  /* Relevant by loop (AUGUR_PHASE_LOOP_REPS): the id of the phase whose loop
   * it repeats in; 0: relevant by its share, or not relevant. */
  uint32_t loop_of;
  /* Relevant whatever its share because timing it costs the signature run
   * nothing (docs/phases.md "Relevance"): weight 1. Before the signature's
   * stop it runs anyway and is timed once; after it, it is late and never
   * timed. */
  int kept_free;
  int irregular; /* a stretch that does not repeat (weight 1) */
  /* What bounds it: the first and last call of the first occurrence (lowest
   * rank that has one) and how many ranks take part. */
  uint32_t first_rank, last_rank;
  uint16_t first_type, last_type;
  uint32_t first_callsite, last_callsite;
  uint32_t nranks; /* ranks with calls in the phase */
  /* Where every repetition is (for a signature: which one to measure). */
  uint32_t nruns;
  augur_phase_run *runs; /* owned by the augur_phases */
  /* IRREGULAR mode (a phase is a cluster of the ranks' phases; NULL in the
   * other modes), nranks entries each, owned by the augur_phases: the
   * seed's PHASE_TABLE. Weight 0: the rank has no phase in this cluster
   * (then its ticks are 0). A rank with several phases in the cluster adds
   * their weights and times; its ticks span them. */
  uint64_t *rank_weight;
  uint64_t *rank_tick_first; /* tick of the first call of the rank's first repetition */
  uint64_t *rank_tick_last;  /* tick of the last call of that repetition */
  double *rank_total_ns;     /* the rank's PhaseET x W */
} augur_phase;

/* IRREGULAR mode: a candidate for the characteristic communicator. */
typedef struct augur_irr_comm {
  uint32_t comm;   /* index into augur_logical.comm (1..) */
  uint32_t level;  /* creation depth (lower wins a tie) */
  uint64_t score;  /* repetitions of repeating phases, all ranks ("groups most phases") */
  uint64_t phases; /* repeating phases, all ranks */
} augur_irr_comm;

/* Repetitions of an irregular point whose start ticks are kept (a signature
 * plans its measurement on the first ones). */
#define AUGUR_IRR_REP_TICKS 64

/* IRREGULAR mode: one rank's relevant phase, a K-means point. */
typedef struct augur_irr_point {
  uint32_t rank, phase; /* the rank's phase id (its own scan) */
  uint32_t cluster;     /* global phase index (0-based) */
  uint64_t weight, tick_first, tick_last;
  uint32_t nreps; /* entries of rep_tick and rep_unit: min(weight, AUGUR_IRR_REP_TICKS) */
  uint64_t rep_tick[AUGUR_IRR_REP_TICKS]; /* tick of the first call of repetitions 0, 1, ... */
  uint64_t rep_unit[AUGUR_IRR_REP_TICKS]; /* their stretches (bounds before them on the rank) */
  double rep_ns[AUGUR_IRR_REP_TICKS];     /* their times (a signature's base for each) */
  double work;                            /* per repetition */
  double total_ns;                        /* PhaseET x W */
  double x, y;                            /* scaled features */
} augur_irr_point;

typedef struct augur_phases {
  int mode;
  uint32_t rank; /* RANK mode: the rank analysed (representative or chosen) */
  uint32_t nranks;
  uint64_t nunits; /* units analysed */
  uint32_t nphases;
  augur_phase *phase; /* nphases */
  uint32_t nrelevant;
  double run_ns;         /* global: mean rank span; rank: that rank's span */
  double aet_ns;         /* run_end - run_start */
  double pet_ns;         /* sum of relevant phases' PhaseET x W */
  double relevant_share; /* share of run covered by relevant phases */
  /* RANK mode with representative choice: per-rank prediction errors. */
  double *rank_error; /* nranks, |PET_r - AET| / AET, or NULL */
  uint32_t *rank_nphases;
  augur_phase_opts opts;
  /* IRREGULAR mode. */
  uint32_t irr_comm;           /* characteristic communicator: index into augur_logical.comm */
  uint32_t irr_ncomms;         /* candidates (communicators with every rank) */
  augur_irr_comm *irr_comms;   /* in order of augur_logical.comm */
  uint32_t irr_npoints;        /* the ranks' relevant phases, clustered */
  augur_irr_point *irr_points; /* by rank, then phase */
  uint64_t irr_rank_phases;    /* all phases of all ranks (relevant or not) */
  uint32_t irr_kmax;           /* largest K tried */
  double irr_sse[16];          /* K-means SSE for K = 1 .. irr_kmax (scaled units) */
  uint32_t pet_rank;           /* the rank whose sum of PhaseET x W is PET (the largest) */
  /* max_period 0 (auto) in GLOBAL mode: the period nothing repeated within (512), when the
   * search was widened to opts.max_period; 0 when it was not */
  uint32_t max_period_widened;
} augur_phases;

AUGUR_API int augur_phases_detect(const augur_logical *lg, const augur_phase_opts *o,
                                  augur_phases **out, augur_error *err);
AUGUR_API void augur_phases_free(augur_phases *p);

/* Seed Table 2.5 view (docs/phases.md). TRACE resolves call sites (may be NULL). */
AUGUR_API void augur_phases_print_text(FILE *f, const augur_phases *p, const augur_logical *lg,
                                       augur_trace *t);
/* JSON document (schema in docs/phases.md); malloc'ed, NULL if out of memory. */
AUGUR_API char *augur_phases_json(const augur_phases *p, const augur_logical *lg, augur_trace *t);

#ifdef __cplusplus
}
#endif
#endif
