/* augur — PAS2P signature and signature-run results (docs/signature.md).
 *
 * A signature is what a new run of the same program needs to recognise each
 * relevant phase online and to predict the whole run from a few measured
 * repetitions: per phase its weight, its time on the base machine, which
 * repetition to start measuring at and how many to measure, and per rank the
 * calls of one repetition (call type, peer offset, size class, call site as
 * module + offset). Both files are line-oriented text.
 *
 * The file code (augur_signature_read/write, augur_sigresult_read/write)
 * needs only libc and the error helpers, so the recorder compiles it in
 * (src/format/sigfile.c). augur_signature_build needs the analysis. */
#ifndef AUGUR_SIGNATURE_H
#define AUGUR_SIGNATURE_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Newest version read. Version 5 adds each call's volume (BYTES: the
 * bytes of the fingerprint's call, sent + received) and GUARDS: the
 * fingerprints of phases not in the signature whose calls contain a
 * signature phase's (docs/signature.md, "Calls of other phases"): the
 * recorder recognises them too, so a repetition of a relevant phase found
 * inside one is taken back. Version 4 adds, to each repeating global-mode phase,
 * the base run's cumulative time over its repetitions (a curve of at most
 * AUGUR_SIG_CURVE_MAX points): what the repetitions still to come took there.
 * Version 3 (written by this augur) names the mode
 * (global or irregular), the program (its name and build id, '-' when
 * unknown) and, in global mode, each phase's SAMPLE_SECONDS; version 2
 * (irregular-mode signatures, per-rank weights and plans) and 1 (global mode)
 * stay readable and name no program. */
#define AUGUR_SIGNATURE_VERSION 5
#define AUGUR_SIGRESULT_VERSION 3

/* Share of the base run's time within which `augur signature` plans the
 * measured repetitions (more of them if they fit, at least one each). It
 * never ends before the warm-up and K repetitions of the earliest repeating
 * phase (a short run's SET/AET is then above the share). */
#define AUGUR_SIGNATURE_BUDGET 0.05
/* ... but not before K repetitions of the earliest repeating phase, or as
 * many of them as take this long in the base run (seconds) when fewer do and
 * its repetitions do not vary: one descheduling of a rank (a 1-4 ms time
 * slice) is then at most 1 % of the timed time, well within PAS2P's 5 %. */
#define AUGUR_SIGNATURE_ENOUGH 0.4
/* Seconds into the base run before which the measured repetitions do not
 * start when the budget leaves room: the start-up transient (ranks sharing
 * cores still being spread over them) is not the run's regime. 0.75 s:
 * as accurate as 1 s on bench/predict and 0.25 s less SET (docs/signature.md). */
#define AUGUR_SIGNATURE_SETTLE 0.75

/* A phase whose repetitions vary (augur/phases.h AUGUR_PHASE_CV_WARN) is
 * timed on K consecutive repetitions whose base-run mean is within this
 * factor (1 + TYPICAL) of the phase's mean, searched within the first
 * VARIETY share of the base run (docs/signature.md "Phases whose
 * repetitions vary"). */
#define AUGUR_SIGNATURE_TYPICAL 0.25
#define AUGUR_SIGNATURE_VARIETY 0.2

/* A repetition of a phase whose repetitions are alike (below) that took more than
 * this many times their median in the base run was disturbed (another job):
 * the signature counts it at the median (docs/signature.md, "Disturbed
 * repetitions of the base run"). */
#define AUGUR_SIGNATURE_DISTURBED 2.0
/* ... in a phase whose repetitions are alike: the upper quartile of their
 * times at most this many times the lower one (NPB MG's levels, which share
 * one phase, are not). */
#define AUGUR_SIGNATURE_ALIKE 1.5

/* Most points of a phase's curve (version 4): every repetition's when the
 * weight is below it, else evenly spaced ones (interpolated between). */
#define AUGUR_SIG_CURVE_MAX 65

/* Peer offset value meaning "not compared" (wildcard receive, other
 * communicator, completion calls). */
#define AUGUR_SIG_PEER_ANY INT32_MAX
/* Size class value meaning "not compared". */
#define AUGUR_SIG_SIZE_ANY 255
/* Volume value meaning "not known" (signatures before version 5, calls
 * whose size is not compared). */
#define AUGUR_SIG_BYTES_ANY UINT64_MAX

/* One call of a phase repetition on one rank. */
typedef struct augur_sig_call {
  uint8_t type;       /* enum augur_event_type */
  uint8_t size_class; /* 0: no bytes; else 1 + floor(log2(bytes)); AUGUR_SIG_SIZE_ANY */
  uint16_t module;    /* index into augur_signature.module (1-based), 0 = unknown */
  int32_t peer;       /* peer - rank (world ranks), or AUGUR_SIG_PEER_ANY */
  uint64_t offset;    /* call site: return address - module load address */
  uint64_t bytes;     /* version 5: the call's bytes (sent + received) in the phase's
                         first repetition, AUGUR_SIG_BYTES_ANY unknown. Not compared
                         call by call (size_class is); among phases whose fingerprints
                         match the same calls, the nearest in volume keeps them */
} augur_sig_call;

/* Does call B (of this run, or another fingerprint's) match fingerprint
 * call A? Type equal; call site equal when A's module is known (a call in
 * a module the signature does not know, module 0, never matches a known
 * one); peer offset equal when both are known; size class within +-1 when
 * both are known (the phase detector tolerates 5 % volume differences,
 * which may straddle a power of two). The recorder's matcher and `augur
 * signature` (which phases' calls contain another's) share this test. */
static inline int augur_sig_call_same(const augur_sig_call *a, const augur_sig_call *b) {
  if (a->type != b->type) return 0;
  if (a->module && (a->module != b->module || a->offset != b->offset)) return 0;
  if (a->peer != AUGUR_SIG_PEER_ANY && b->peer != AUGUR_SIG_PEER_ANY && a->peer != b->peer)
    return 0;
  if (a->size_class != AUGUR_SIG_SIZE_ANY && b->size_class != AUGUR_SIG_SIZE_ANY) {
    int d = (int)a->size_class - (int)b->size_class;
    if (d < -1 || d > 1) return 0;
  }
  return 1;
}

typedef struct augur_sig_phase {
  uint32_t id;            /* phase id of `augur phases` */
  uint64_t weight;        /* repetitions in the base run */
  double base_seconds;    /* PhaseET on the base machine */
  uint32_t start;         /* repetition (0-based) where measuring starts: 1 skips a warm-up */
  uint32_t measure;       /* K: repetitions measured from `start` */
  double sample_seconds;  /* global mode, version 3: the base run's mean time of the
                             repetitions planned (start .. start + measure - 1), 0 =
                             unknown. A phase's repetitions may differ (NPB MG's levels
                             share calls): the measured ones are compared with these, not
                             with the phase's mean */
  int late;               /* not measured: first seen after the others are done (estimated) */
  int sync;               /* the ranks agree to stop at the end of this phase's repetitions */
  uint32_t *ncalls;       /* per rank: calls per repetition (0: the rank has no call in it) */
  augur_sig_call **calls; /* per rank */
  /* Global mode, version 4: the base run's time of repetitions 0 .. rep - 1
   * (summed over ranks / ranks, as BASE_SECONDS) at NCURVE points, rep
   * strictly growing from 0 to WEIGHT, seconds not decreasing (0 points:
   * unknown; repetitions then count BASE_SECONDS each). A phase's
   * repetitions may differ (NPB MG's levels): the ones still to come at a
   * stop are known by number, and this says what they took in the base run. */
  uint32_t ncurve;
  uint64_t *curve_rep;
  double *curve_seconds;
  /* Version 5: where each curve point's repetition started in the base run
   * (seconds from its start on the first rank with calls; at WEIGHT: where
   * the last one ended), not decreasing; NULL: unknown. The phases' counts
   * at a stop are set against each other with it (`augur predict`: a count
   * that runs ahead of the others'). */
  double *curve_start;
  /* Irregular-mode signatures (NULL otherwise): per rank its own weight (0:
   * the rank has no repetition), PhaseET on the base machine (seconds per
   * repetition), first repetition measured and how many. The phase's
   * WEIGHT, BASE_SECONDS, START and MEASURE are then the heaviest rank's.
   * A repetition is a stretch (docs/phases.md "Irregular mode"), known by
   * its number on the rank: RANK_FIRST_UNIT is the first repetition's,
   * RANK_UNITS[r] the MEASURE stretches to time, ascending, and
   * RANK_UNIT_BASE[r] their times in the base run (seconds): an irregular
   * program's repetitions differ, so the measured ones are compared with
   * themselves. */
  uint64_t *rank_weight;
  double *rank_base;
  uint32_t *rank_start, *rank_measure;
  uint64_t *rank_first_unit;
  uint64_t **rank_units;
  double **rank_unit_base;
} augur_sig_phase;

typedef struct augur_signature {
  uint32_t nranks;
  double base_run_seconds;  /* mean rank span of the base run */
  double base_pre_seconds;  /* mean time before the first relevant phase starts */
  double base_rest_seconds; /* mean time in phases not in the signature (after pre) */
  uint32_t nmodules;
  char **module; /* base names of the modules (nmodules) */
  uint32_t nphases;
  augur_sig_phase *phase;
  /* Version 5, global mode: guards, phases of the base run that are not in
   * the signature but whose calls contain (or equal) a signature phase's on
   * some rank: only ID, WEIGHT, NCALLS and CALLS are set. The recorder
   * matches them like the phases and takes back what a phase's automaton
   * found inside one; they are not timed and not reported. */
  uint32_t nguards;
  augur_sig_phase *guard;
  int irregular; /* phases of `augur phases --irregular`: PET is the largest rank's sum */
  uint64_t comm; /* irregular: the characteristic communicator (augur_event.comm id) */
  /* Irregular: the sync phase's start (1-based) from which the ranks voted
   * until issue 21. Read and written for compatibility; the recorder now
   * votes after collectives on all-rank communicators, and in global mode
   * at the sync phase when the signature allows it (docs/signature.md). */
  uint64_t vote_from;
  /* Version 3: the program the signature was made from: its executable's
   * base name (as augur_signature_module_name makes it) and the hex GNU
   * build id of that executable ("-": unknown, or a --portable signature,
   * which fits other builds). NULL in older files: not known. */
  char *program;
  char *build_id;
} augur_signature;

/* Allocates P's per-rank arrays for S's ranks (the irregular ones too when
 * S is irregular): 0, or -1 out of memory (augur_signature_free frees what
 * was allocated once P is among S's phases). */
AUGUR_API int augur_sig_phase_alloc(const augur_signature *s, augur_sig_phase *p);

/* Reads and validates a signature: a bad file fails with the file name, the
 * line number and what was expected. */
AUGUR_API int augur_signature_read(const char *path, augur_signature **out, augur_error *err);
AUGUR_API int augur_signature_write(FILE *f, const augur_signature *s);
AUGUR_API void augur_signature_free(augur_signature *s);
/* The name a module has in a signature: the base name of PATH with blanks
 * and '#' made '_' (words are blank-separated in the file). Both `augur
 * signature` and the recorder's signature mode name modules this way. */
AUGUR_API void augur_signature_module_name(const char *path, char *out, size_t n);
/* The identity of the executable at PATH: its base name (as above) in NAME
 * and the hex GNU build id of its ELF file in BUILD_ID ("-" when the file has
 * none or cannot be read). Returns 0, or -1 when the name does not fit. */
AUGUR_API int augur_program_id(const char *path, char *name, size_t nname, char *build_id,
                               size_t nbid);
/* Base-run seconds of phase P's repetitions N .. WEIGHT - 1 (none when N >=
 * WEIGHT): from its curve, linear between two points, or BASE_SECONDS per
 * repetition when it has none. */
AUGUR_API double augur_sig_base_left(const augur_sig_phase *p, uint64_t n);
/* Index (1-based) of a module base name, 0 if it is not in the signature. */
AUGUR_API uint16_t augur_signature_module(const augur_signature *s, const char *basename);

/* ---- results of a signature run (written by rank 0 of the recorder) ---- */

enum augur_sigres_status {
  AUGUR_SIGRES_MEASURED = 0, /* K repetitions measured on every rank */
  AUGUR_SIGRES_PARTIAL = 1,  /* fewer than K (the run ended first), at least one */
  AUGUR_SIGRES_MISSING = 2,  /* never seen (or not all ranks saw it) */
  AUGUR_SIGRES_LATE = 3      /* not measured by design: estimated */
};

typedef struct augur_sigres_phase {
  uint32_t id;
  int status;        /* enum augur_sigres_status */
  uint32_t measured; /* repetitions measured (minimum over the ranks that take part) */
  double seconds;    /* PhaseET measured: per-rank mean time, summed over ranks / nranks */
  /* Repetitions completed when the run stopped (the largest count of a rank
   * that has calls in the phase); UINT64_MAX: unknown (results version < 3). */
  uint64_t seen;
  /* Irregular-mode results (NULL otherwise): per rank, repetitions measured,
   * their mean time in seconds, and the mean time the same repetitions took
   * in the base run (the signature's). */
  uint32_t *rank_measured;
  double *rank_seconds;
  double *rank_base_seconds;
} augur_sigres_phase;

typedef struct augur_sigresult {
  uint32_t nranks;
  int stopped;        /* 1: stopped early once everything was measured; 0: ran to the end */
  double pre_seconds; /* mean over ranks: MPI_Init entry to the first relevant phase */
  double run_seconds; /* rank 0: MPI_Init entry to the stop (or MPI_Finalize) */
  uint32_t nphases;
  augur_sigres_phase *phase;
  int irregular; /* per-rank figures in every phase (version 2 file) */
} augur_sigresult;

/* "measured", "partial", "missing" or "late" (any other value: "missing"). */
AUGUR_API const char *augur_sigres_status_name(int status);
AUGUR_API int augur_sigresult_read(const char *path, augur_sigresult **out, augur_error *err);
AUGUR_API int augur_sigresult_write(FILE *f, const augur_sigresult *r);
AUGUR_API void augur_sigresult_free(augur_sigresult *r);

/* ---- building (src/analysis/pas2p/signature.c) ---- */

struct augur_logical;
struct augur_phases;
struct augur_trace;
/* Signature of the relevant phases of a global-mode or irregular-mode phase
 * detection. MEASURE is the default K. */
AUGUR_API int augur_signature_build(const struct augur_logical *lg, const struct augur_phases *p,
                                    struct augur_trace *t, uint32_t measure, augur_signature **out,
                                    augur_error *err);

#ifdef __cplusplus
}
#endif
#endif
