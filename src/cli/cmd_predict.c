/* augur predict --signature FILE [--measure K] [--json] [--mpi F] [--results FILE]
 *               [--force] [--stall SECONDS] -- COMMAND...
 *
 * Runs COMMAND with the recorder in signature mode (docs/signature.md): the
 * ranks recognise the signature's phases online, time K repetitions of each
 * and stop the program once every rank has measured every phase. Then
 *   PET = pre + sum(PhaseET_i x W_i) + rest x scale
 * where pre is the measured time before the first phase, PhaseET_i is
 * measured (phases not measured use the base time x scale), and scale is
 * how much faster or slower the measured phases ran than on the base run.
 * A run that went to its end measured itself: PET is then its time. */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "augur/signature.h"
#include "cli.h"
#include "mpi_flavour.h"

/* Shortest no-progress limit of the watchdog (seconds): covers the start-up
 * of mpiexec and MPI_Init on a loaded machine. */
#define STALL_MIN 30.0

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct phase_pred {
  double phase_s; /* PhaseET used: measured (compared with its sample), or base x scale */
  double timed_s; /* mean time of the repetitions timed here (0: none) */
  double total;   /* PhaseET x W */
  int status;     /* enum augur_sigres_status */
  uint32_t measured;
  long long seen; /* repetitions completed by the stop (-1: unknown) */
  int ahead;      /* its count ran ahead of the other phases' (count_check()) */
  double expect;  /* ... the repetitions the base run had at that point */
} phase_pred;

typedef struct prediction {
  double pet, set, pre, rest, scale;
  double slow, fast;  /* the slowest and fastest phase's speed in the pool (0: fewer than 2) */
  double pet_own;     /* PET with each phase to come at its own speed (own_speed()) */
  uint32_t pet_rank;  /* irregular: the rank whose sum is PET's phase part */
  double launch;      /* SET - stop - the ranks' own run: mpiexec start-up (and exit) */
  double stop;        /* an early stop: from its results seen to the job's end (not in PET) */
  int pre_measured;   /* some phase was seen, so pre is a measurement */
  double model;       /* PET from the phases (the seed's sum of PhaseET x W) */
  const char *source; /* how PET was had: "phases", "run + remaining" or "full run" */
  double remaining;   /* "run + remaining": the predicted time after the stop */
  uint32_t ahead;     /* phases whose count ran ahead (count_check()) */
  int checked;        /* the counts were set against each other (count_check()) */
  int from;           /* ... where it came from: enum remaining_from */
  phase_pred *ph;     /* per signature phase */
} prediction;

/* Where "run + remaining" took the time to come from: JSON token and text. */
enum remaining_from { FROM_NONE, FROM_PHASES, FROM_CURVES };
static const char *const from_token[] = {"none", "phases", "base run x scale"};
static const char *const from_text[] = {"", "PhaseET x the repetitions to come",
                                        "the base run's time of the repetitions to come x scale"};

/* Where repetition N of phase SP started in the base run (seconds; N =
 * WEIGHT: where the last one ended), from its curve (version 5), linear
 * between two points; -1 when the signature does not say. */
static double start_of(const augur_sig_phase *sp, double n) {
  if (!sp->curve_start || sp->ncurve < 2) return -1;
  uint32_t k = 1;
  while (k < sp->ncurve - 1 && (double)sp->curve_rep[k] < n)
    k++;
  double a = (double)sp->curve_rep[k - 1], b = (double)sp->curve_rep[k];
  double f = n <= a ? 0 : n >= b ? 1 : (n - a) / (b - a);
  return sp->curve_start[k - 1] + f * (sp->curve_start[k] - sp->curve_start[k - 1]);
}

/* How many repetitions of phase SP had started by AT seconds into the base
 * run (start_of()'s inverse, linear between two points). */
static double count_at(const augur_sig_phase *sp, double at) {
  uint32_t k = 1;
  while (k < sp->ncurve - 1 && sp->curve_start[k] < at)
    k++;
  double a = sp->curve_start[k - 1], b = sp->curve_start[k];
  double f = at <= a ? 0 : at >= b || b <= a ? 1 : (at - a) / (b - a);
  return (double)sp->curve_rep[k - 1] + f * (double)(sp->curve_rep[k] - sp->curve_rep[k - 1]);
}

/* A count that ran ahead: more repetitions than the base run had where the
 * other phases' counts put the stop, by more than this share (and
 * COUNT_AHEAD_MIN repetitions). The matcher's own slack is a repetition or
 * two (one in flight at the stop; NPB MG B's phase 12 counted inside phase
 * 4's two repetitions); calls of another phase counted as the phase's
 * double it or more (CoMD, stop 38: 24 where the base run had 12). */
#define COUNT_AHEAD_SHARE 0.25
#define COUNT_AHEAD_MIN   2.0

/* The safety net of docs/signature.md, "Calls of other phases": at an early
 * stop every phase's count says where in the base run the stop came (where
 * its next repetition started there: start_of()). The phases stopped at one
 * point, so those agree; a phase whose calls were also counted elsewhere
 * (a phase the signature does not hold, with the same calls) puts it later.
 * The stop is taken where the lower median of the repeating phases puts it
 * (a count runs ahead, seldom behind); a phase whose count is above what
 * the base run had there by more than COUNT_AHEAD_SHARE is marked (Q->ahead,
 * Q->expect): its timed repetitions may be another phase's, so they stay out
 * of the speed and its PhaseET is base x scale, and its repetitions to come
 * count from the expected number. Needs positions (version 5) and at least
 * two repeating phases. Returns how many were marked. */
static uint32_t count_check(const augur_signature *s, const augur_sigresult *r, phase_pred *ph,
                            int *checked) {
  *checked = 0;
  if (!r->stopped || s->irregular) return 0;
  double pos[64];
  uint32_t n = 0, marked = 0;
  for (uint32_t i = 0; i < s->nphases && n < 64; i++) {
    const augur_sig_phase *sp = &s->phase[i];
    if (sp->late || sp->weight < 2 || ph[i].seen < 0) continue;
    double seen = (double)ph[i].seen, w = (double)sp->weight;
    double at = start_of(sp, seen < w ? seen : w);
    if (at >= 0) pos[n++] = at;
  }
  if (n < 2) return 0;
  *checked = 1;
  for (uint32_t a = 1; a < n; a++) /* insertion sort: a few phases */
    for (uint32_t b = a; b && pos[b] < pos[b - 1]; b--) {
      double t = pos[b];
      pos[b] = pos[b - 1];
      pos[b - 1] = t;
    }
  double stop = pos[(n - 1) / 2];
  for (uint32_t i = 0; i < s->nphases; i++) {
    const augur_sig_phase *sp = &s->phase[i];
    if (sp->late || sp->weight < 2 || ph[i].seen < 0 || start_of(sp, 0) < 0) continue;
    double e = count_at(sp, stop), slack = e * COUNT_AHEAD_SHARE;
    if ((double)ph[i].seen > e + (slack > COUNT_AHEAD_MIN ? slack : COUNT_AHEAD_MIN)) {
      ph[i].ahead = 1;
      ph[i].expect = e;
      marked++;
    }
  }
  return marked;
}

static int measured_here(int status) {
  return status == AUGUR_SIGRES_MEASURED || status == AUGUR_SIGRES_PARTIAL;
}

static int same_ids(const augur_signature *s, const augur_sigresult *r) {
  for (uint32_t i = 0; i < s->nphases; i++)
    if (r->phase[i].id != s->phase[i].id) return 0;
  return 1;
}

/* PET's terms besides the phases (TGT > 0: some phase was measured). */
static void finish(const augur_signature *s, const augur_sigresult *r, double set, double tgt,
                   prediction *p) {
  p->pre_measured = tgt > 0;
  p->pre = p->pre_measured ? r->pre_seconds : s->base_pre_seconds * p->scale;
  p->rest = s->base_rest_seconds * p->scale;
  /* The full run pays the same start-up (mpiexec, exec, MPI_Init entry):
   * what the signature run took beyond the ranks' own time, up to the stop.
   * Not the stop itself (our SIGTERM, the job's end: 0.1-0.2 s with MPICH),
   * which a full run does not pay; its own exit after MPI_Finalize is not
   * known here (issue 21: IS A, 1.8 s runs, PET +18 % with the stop in). */
  double upto = set - p->stop;
  p->launch = upto > r->run_seconds ? upto - r->run_seconds : 0;
  p->pet += p->pre + p->rest + p->launch;
  p->set = set;
  /* A run that went to its end is the full run: its time is the answer,
   * whatever the phases would predict (base x scale for the ones it did
   * not measure would only echo the base run). */
  p->model = p->pet;
  p->source = r->stopped ? "phases" : "full run";
  if (!r->stopped) p->pet = set;
}

static double own_speed(const augur_sig_phase *sp, const phase_pred *q, double pool);

/* A run that stopped early has already run everything before the stop: that
 * part is measured (the ranks' own time up to the stop), and only the
 * repetitions still to come are predicted. With a version 4 signature those
 * are known by number, and the base run says what they took there (the
 * curve): remaining = their base time x scale, the speed measured on every
 * repetition timed here (see speed()). A phase's repetitions may differ
 * (NPB MG's levels share one phase): its timed ones, or its mean, do not
 * stand for the ones to come, and one timed repetition's ratio is noise
 * (MG B: 0.70 x for phase 12's, 0.99 over all timed, PET -14 %). Older
 * signatures: PhaseET x (W - seen). The other phases' time (rest) is
 * charged in the share that remains. Needs every phase's seen count
 * (results version 3); global mode only. */
static void run_plus_remaining(const augur_signature *s, const augur_sigresult *r, prediction *p) {
  p->pet_own = p->pet;
  if (!r->stopped || (s->irregular && r->irregular)) return;
  double remain = 0, done = 0, all = 0, own = 0;
  int curves = 0;
  for (uint32_t i = 0; i < s->nphases; i++) {
    if (p->ph[i].seen < 0) return; /* predict() found no count for it */
    const augur_sig_phase *sp = &s->phase[i];
    uint64_t w = sp->weight, n = (uint64_t)p->ph[i].seen, seen = n < w ? n : w;
    if (p->ph[i].ahead) /* its count ran ahead: the base run's at the stop */
      seen = (uint64_t)(p->ph[i].expect + 0.5) < w ? (uint64_t)(p->ph[i].expect + 0.5) : w;
    double left, whole;
    if (sp->ncurve) {
      curves = 1;
      left = augur_sig_base_left(sp, seen) * p->scale;
      whole = augur_sig_base_left(sp, 0) * p->scale;
      own += left / p->scale * own_speed(sp, &p->ph[i], p->scale);
    } else {
      left = p->ph[i].phase_s * (double)(w - seen);
      whole = p->ph[i].phase_s * (double)w;
      own += left;
    }
    remain += left;
    done += whole - left;
    all += whole;
  }
  double rest = all > 0 ? p->rest * (1 - done / all) : p->rest;
  p->remaining = remain + rest;
  p->pet = r->run_seconds + p->remaining + p->launch;
  p->pet_own = r->run_seconds + own + rest + p->launch;
  p->source = "run + remaining";
  p->from = curves ? FROM_CURVES : FROM_PHASES;
}

/* Phase RP's timed repetitions over all ranks: their time here (*NUM) and
 * in the base run (*DEN). */
static void timed(const augur_sigres_phase *rp, uint32_t nranks, double *num, double *den) {
  *num = *den = 0;
  for (uint32_t k = 0; k < nranks; k++) {
    *num += rp->rank_seconds[k] * rp->rank_measured[k];
    *den += rp->rank_base_seconds[k] * rp->rank_measured[k];
  }
}

/* Irregular signatures: every rank has its own weights and times. The
 * phases' part of PET is that of the base run's critical rank (the largest
 * sum of PhaseET x W, as `augur phases --irregular` takes it), each phase's
 * base time scaled by how that phase ran here: the time of the repetitions
 * timed, on all ranks, over the time the same repetitions took in the base
 * run. An irregular program's repetitions differ (data-dependent work), so
 * comparing the measured ones with the phase's mean would carry their own
 * difference into PET (+15 to +19 % on pas2p_irregular, whose first
 * iterations do more work than the average); and taking the largest
 * *measured* sum would pick the rank whose few timed repetitions happened
 * to be slow. A phase no rank timed scales like all the measured ones. */
static double predict_irregular(const augur_signature *s, const augur_sigresult *r, prediction *p) {
  double tgt = 0, base = 0, best = -1, num, den;
  for (uint32_t i = 0; i < s->nphases; i++) {
    timed(&r->phase[i], s->nranks, &num, &den);
    tgt += num;
    base += den;
  }
  p->scale = base > 0 && tgt > 0 ? tgt / base : 1.0;
  for (uint32_t k = 0; k < s->nranks; k++) {
    double sum = 0;
    for (uint32_t i = 0; i < s->nphases; i++)
      sum += s->phase[i].rank_base[k] * (double)s->phase[i].rank_weight[k];
    if (sum > best) {
      best = sum;
      p->pet_rank = k;
    }
  }
  for (uint32_t i = 0; i < s->nphases; i++) {
    const augur_sig_phase *sp = &s->phase[i];
    const augur_sigres_phase *rp = &r->phase[i];
    phase_pred *q = &p->ph[i];
    uint32_t c = p->pet_rank;
    timed(rp, s->nranks, &num, &den);
    q->status = rp->status;
    q->measured = rp->rank_measured[c];
    q->phase_s = sp->rank_base[c] * (den > 0 && num > 0 ? num / den : p->scale);
    q->total = q->phase_s * (double)sp->rank_weight[c];
  }
  return tgt;
}

/* Is the planned sample of phase SP untypical of it (its base time off the
 * phase's mean by more than the factor 1 + AUGUR_SIGNATURE_TYPICAL: no
 * typical window was found early enough)? */
static int untypical(const augur_sig_phase *sp) {
  if (sp->sample_seconds <= 0 || sp->base_seconds <= 0) return 0;
  double q = sp->sample_seconds / sp->base_seconds;
  return q > 1 + AUGUR_SIGNATURE_TYPICAL || q < 1 / (1 + AUGUR_SIGNATURE_TYPICAL);
}

/* Whether phase SP's timed repetitions here can be set against the same
 * repetitions in the base run: measured, exactly the planned ones (not
 * partial, no other --measure), with a known and typical base time. */
static int sample_known(const augur_sig_phase *sp, const phase_pred *q) {
  return !q->ahead && measured_here(q->status) && q->timed_s > 0 && sp->sample_seconds > 0 &&
         q->measured == sp->measure && !untypical(sp);
}

/* A global phase's PhaseET from its timed repetitions. The signature says
 * what exactly those repetitions took in the base run (SAMPLE_SECONDS,
 * version 3): a phase's repetitions may differ (NPB MG's levels share calls
 * but not sizes and compute), so the timed ones stand for the phase through
 * their own base time: PhaseET = base PhaseET x timed here / the same
 * repetitions there. Only when exactly the planned repetitions were timed
 * (not partial, no other --measure) and they are typical of the phase (the
 * signature found such a window): the ratio of an untypical sample is
 * fragile — 9 repetitions that took 22 us each in NPB MG's base run took
 * 57 ms in its signature run, and PET became 1916 s for an 11 s run.
 * Otherwise their mean is the phase's, as before. */
static double sampled(const augur_sig_phase *sp, const phase_pred *q) {
  if (!sample_known(sp, q)) return q->phase_s;
  return sp->base_seconds * q->timed_s / sp->sample_seconds;
}

/* A phase's sample counts in the spread of the speed when its timed
 * repetitions took at least this long in the base run (seconds): below it, one
 * descheduling of a rank (a time slice of 1-4 ms on a busy host) moves the
 * ratio by more than the factor speed_varies() reports. */
#define SPREAD_MIN_SAMPLE_S 1e-3

/* Phase SP's own speed: its timed repetitions here over the same ones in the
 * base run, when its sample is known (sample_known()) and took
 * SPREAD_MIN_SAMPLE_S or more there; else the pooled speed POOL. */
static double own_speed(const augur_sig_phase *sp, const phase_pred *q, double pool) {
  if (!sample_known(sp, q) || sp->sample_seconds * q->measured < SPREAD_MIN_SAMPLE_S) return pool;
  return q->timed_s / sp->sample_seconds;
}

/* How fast this run goes against the base run, from every repetition timed
 * here of a global phase whose sample is known and typical (version 3:
 * exactly the planned repetitions timed, SAMPLE_SECONDS within the factor
 * AUGUR_SIGNATURE_TYPICAL of the phase's mean): their time here over the
 * time the same repetitions took there, pooled over the phases (weighted by
 * time, as the irregular mode's scale). More samples than one phase's
 * window, which may be a single repetition. Untypical windows stay out, as
 * in sampled(): a tiny base time magnifies a repetition counted differently
 * (NPB MG A: 22 us there, 57 ms here). Returns 0 when none is known.
 *
 * The same pass sets the spread: P->slow and P->fast, the slowest and
 * fastest of those phases' own speeds (own_speed(); 0 when fewer than two
 * phases have one). Whether one speed stands for the rest of the run is
 * speed_varies()'s question. */
static double speed(const augur_signature *s, prediction *p) {
  double here = 0, there = 0;
  int n = 0;
  p->slow = p->fast = 0;
  for (uint32_t i = 0; i < s->nphases; i++) {
    const augur_sig_phase *sp = &s->phase[i];
    const phase_pred *q = &p->ph[i];
    if (!sample_known(sp, q)) continue;
    here += q->timed_s * q->measured;
    there += sp->sample_seconds * q->measured;
    double v = own_speed(sp, q, 0);
    if (v <= 0) continue;
    if (!n++ || v > p->slow) p->slow = v;
    if (n == 1 || v < p->fast) p->fast = v;
  }
  if (n < 2) p->slow = p->fast = 0;
  return here > 0 && there > 0 ? here / there : 0;
}

/* How far PET with each phase at its own speed may be from the pooled PET
 * before predict warns. Each phase's own speed comes from a few timed
 * repetitions, often one: on a quiet machine the two PETs of NPB MG B, CG B
 * and LU A (2 ranks, 9 runs, stop 33) differ by 3-14 % while the pooled PET
 * was within 5 % of the run in 7 of them; plain runs of CG B differ by 14 %
 * among themselves, BT A's by 19 %. A difference within that spread is not
 * evidence that one speed is wrong; the cases that were (levels whose
 * compute scales 4 x: PET -32 %; a set-up slowed alone by a neighbour: PET
 * +53 %) move it by 58 % and, estimated from stop 31's figures, 20 %. */
#define OWN_SPEED_WARN 0.15

/* Does PET hinge on the pooled speed? The pool weighs the phases as the
 * timed sample weighs them (the set-up, timed once, may dominate it); the
 * time to come weighs them by the repetitions left. When each phase to come
 * at its own speed moves PET by more than OWN_SPEED_WARN, one speed does not
 * stand for the rest of the run (the load changed during the run, or the
 * phases scale differently here). Only "run + remaining" from the curves
 * uses the pooled speed for the phases to come; otherwise P->pet_own is
 * P->pet. */
static int speed_varies(const prediction *p) {
  return p->from == FROM_CURVES && p->fast > 0 &&
         fabs(p->pet_own - p->pet) > OWN_SPEED_WARN * p->pet;
}

static void predict(const augur_signature *s, const augur_sigresult *r, double set, prediction *p) {
  if (s->irregular && r->irregular) {
    double tgt = predict_irregular(s, r, p);
    p->pet = 0;
    for (uint32_t i = 0; i < s->nphases; i++)
      p->pet += p->ph[i].total;
    finish(s, r, set, tgt, p);
    return;
  }
  double tgt = 0, base = 0;
  for (uint32_t i = 0; i < s->nphases; i++) {
    phase_pred *q = &p->ph[i];
    *q = (phase_pred){.status = AUGUR_SIGRES_MISSING, .seen = -1};
    for (uint32_t j = 0; j < r->nphases; j++)
      if (r->phase[j].id == s->phase[i].id) {
        q->seen = r->phase[j].seen == UINT64_MAX ? -1 : (long long)r->phase[j].seen;
        q->status = r->phase[j].status;
        q->measured = r->phase[j].measured;
        q->phase_s = q->timed_s = r->phase[j].seconds;
      }
  }
  p->ahead = count_check(s, r, p->ph, &p->checked);
  for (uint32_t i = 0; i < s->nphases; i++) {
    phase_pred *q = &p->ph[i];
    q->phase_s = sampled(&s->phase[i], q);
    if (measured_here(q->status) && !q->ahead) {
      tgt += q->phase_s * (double)s->phase[i].weight;
      base += s->phase[i].base_seconds * (double)s->phase[i].weight;
    }
  }
  /* Phases not measured here ran on the base machine: scale them by how the
   * timed repetitions ran against the same ones there (version 3), else by
   * how the measured phases changed. */
  double v = speed(s, p);
  p->scale = v > 0 ? v : base > 0 && tgt > 0 ? tgt / base : 1.0;
  p->pet = 0;
  for (uint32_t i = 0; i < s->nphases; i++) {
    phase_pred *q = &p->ph[i];
    if (!measured_here(q->status) || q->ahead) q->phase_s = s->phase[i].base_seconds * p->scale;
    q->total = q->phase_s * (double)s->phase[i].weight;
    p->pet += q->total;
  }
  finish(s, r, set, tgt, p);
  run_plus_remaining(s, r, p);
  if (!r->stopped) p->slow = p->fast = 0; /* a full run: no spread to report */
}

/* The weight and base PhaseET the table shows for phase I: the phase's,
 * or with irregular phases the PET rank's. */
static uint64_t shown_weight(const augur_signature *s, const augur_sigresult *r,
                             const prediction *p, uint32_t i) {
  return s->irregular && r->irregular ? s->phase[i].rank_weight[p->pet_rank] : s->phase[i].weight;
}

static double shown_base(const augur_signature *s, const augur_sigresult *r, const prediction *p,
                         uint32_t i) {
  return s->irregular && r->irregular ? s->phase[i].rank_base[p->pet_rank]
                                      : s->phase[i].base_seconds;
}

static int repeats(const augur_signature *s) {
  for (uint32_t i = 0; i < s->nphases; i++)
    if (!s->phase[i].late && s->phase[i].weight > 1) return 1;
  return 0;
}

/* Does the signature say where its phases' repetitions started (version 5)? */
static int positions(const augur_signature *s) {
  for (uint32_t i = 0; i < s->nphases; i++)
    if (s->phase[i].curve_start) return 1;
  return 0;
}

static uint32_t not_measured(const augur_signature *s, const prediction *p) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < s->nphases; i++)
    n += p->ph[i].status == AUGUR_SIGRES_MISSING;
  return n;
}

static void print_text(const char *sigpath, const augur_signature *s, const augur_sigresult *r,
                       const prediction *p) {
  uint32_t missing = not_measured(s, p);
  if (r->stopped) {
    printf("%s: %u ranks, %u phases; the signature run stopped early once every phase was "
           "measured\n",
           sigpath, s->nranks, s->nphases);
    printf("PET %.6f s  SET %.6f s  (SET/PET %.1f %%)\n", p->pet, p->set,
           p->pet > 0 ? 100.0 * p->set / p->pet : 0.0);
    if (!strcmp(p->source, "run + remaining"))
      printf("PET = %.6f s run until the stop (measured) + %.6f s predicted for what remained "
             "(%s) + %.6f s start-up; the phases alone say %.6f s\n",
             r->run_seconds, p->remaining, from_text[p->from], p->launch, p->model);
    if (speed_varies(p))
      printf("warning: the phases ran at %.2f to %.2f x their base time, not at one speed (the "
             "load changed during the run, or the phases scale differently here): PET takes the "
             "pooled %.2f x for all that remains; with each phase at its own speed it would be "
             "%.6f s (%+.1f %%)\n",
             p->fast, p->slow, p->scale, p->pet_own, 100.0 * (p->pet_own - p->pet) / p->pet);
  } else {
    printf("%s: %u ranks, %u phases; the signature run went to the end of the program", sigpath,
           s->nranks, s->nphases);
    if (!repeats(s))
      printf(": the signature has no repeating phase, PAS2P cannot shorten this run\n");
    else if (missing)
      printf(" and never saw %u of the signature's phases%s\n", missing,
             missing == s->nphases ? " (none of them: is it the same program and input?)" : "");
    else
      printf(" (some rank had not measured every phase when it reached MPI_Finalize)\n");
    printf("PET %.6f s = the measured time of this full run (AET); the phases would have "
           "predicted %.6f s\n",
           p->pet, p->model);
  }
  if (s->irregular && r->irregular)
    printf("irregular phases: every rank has its own weights; the table is rank %u's (the base "
           "run's largest sum), each phase scaled as it ran on all ranks\n",
           p->pet_rank);
  printf("\nphase    weight  base PhaseET(s)  PhaseET(s)  measured  PhaseETxW(s)  status\n");
  for (uint32_t i = 0; i < s->nphases; i++)
    printf("%5u %9llu %16.6f %11.6f %9u %13.6f  %s%s\n", s->phase[i].id,
           (unsigned long long)shown_weight(s, r, p, i), shown_base(s, r, p, i), p->ph[i].phase_s,
           p->ph[i].measured, p->ph[i].total, augur_sigres_status_name(p->ph[i].status),
           p->ph[i].status >= AUGUR_SIGRES_MISSING ? " (base x scale)" : "");
  if (r->stopped && !s->irregular && repeats(s) && !positions(s))
    printf("note: %s is an older signature (before version 5): the phases' counts at the stop "
           "were not checked against each other; make it again with this augur for that\n",
           sigpath);
  for (uint32_t i = 0; i < s->nphases; i++)
    if (p->ph[i].ahead)
      printf("warning: phase %u was counted %lld times by the stop, where the base run had about "
             "%.0f at the point the other phases' counts give: calls of another phase were "
             "counted as its own (its timed repetitions may not be its own). PET leaves them out "
             "of the speed, takes its PhaseET as base x scale and its repetitions to come from "
             "the base run's %.0f\n",
             s->phase[i].id, p->ph[i].seen, p->ph[i].expect, p->ph[i].expect);
  for (uint32_t i = 0; i < s->nphases && !(s->irregular && r->irregular); i++)
    if (untypical(&s->phase[i]))
      printf("warning: phase %u's timed repetitions are not typical of it (they took %.6f s "
             "each in the base run, its mean is %.6f s): its PhaseET is their mean here, "
             "which may not stand for the phase\n",
             s->phase[i].id, s->phase[i].sample_seconds, s->phase[i].base_seconds);
  printf("before the first phase: %.6f s (%s); other phases: %.6f s (base %.6f x scale %.3f); "
         "start-up%s: %.6f s",
         p->pre, p->pre_measured ? "measured" : "base x scale", p->rest, s->base_rest_seconds,
         p->scale, p->stop > 0 ? "" : " and exit", p->launch);
  if (p->stop > 0) printf("; the stop (not in PET): %.6f s", p->stop);
  printf("\n");
}

/* JSON expected_seen: the base run's count at the stop for a phase whose
 * count ran ahead, else null. */
static const char *expect_json(const phase_pred *q, char *buf, size_t n) {
  if (!q->ahead) return "null";
  snprintf(buf, n, "%.1f", q->expect);
  return buf;
}

static void print_json(const augur_signature *s, const augur_sigresult *r, const prediction *p) {
  int irr = s->irregular && r->irregular;
  char ex[32];
  printf("{\"pet_seconds\": %.9f, \"set_seconds\": %.9f, \"stopped_early\": %s, "
         "\"pet_source\": \"%s\", \"model_pet_seconds\": %.9f, \"phases_not_seen\": %u, "
         "\"repeating_phase\": %s, "
         "\"ranks\": %u, \"mode\": \"%s\", \"scale\": %.9f, \"pre_seconds\": %.9f, "
         "\"rest_seconds\": %.9f, \"launch_seconds\": %.9f, \"stop_seconds\": %.9f, "
         "\"base_run_seconds\": %.9f, \"run_seconds\": %.9f, \"remaining_seconds\": %.9f, "
         "\"remaining_from\": \"%s\", \"counts_checked\": %s, \"counts_ahead\": %u, ",
         p->pet, p->set, r->stopped ? "true" : "false", p->source, p->model, not_measured(s, p),
         repeats(s) ? "true" : "false", s->nranks, irr ? "irregular" : "global", p->scale, p->pre,
         p->rest, p->launch, p->stop, s->base_run_seconds, r->run_seconds, p->remaining,
         from_token[p->from], p->checked ? "true" : "false", p->ahead);
  if (p->fast > 0)
    printf("\"speed_range\": [%.9f, %.9f], \"speed_varies\": %s, "
           "\"pet_own_speeds_seconds\": %.9f, \"pet_range_seconds\": [%.9f, %.9f], ",
           p->fast, p->slow, speed_varies(p) ? "true" : "false", p->pet_own,
           fmin(p->pet, p->pet_own), fmax(p->pet, p->pet_own));
  else
    printf("\"speed_range\": null, \"speed_varies\": false, \"pet_own_speeds_seconds\": null, "
           "\"pet_range_seconds\": null, ");
  if (irr) printf("\"pet_rank\": %u, ", p->pet_rank);
  printf("\"phases\": [");
  for (uint32_t i = 0; i < s->nphases; i++)
    printf("%s{\"id\": %u, \"weight\": %llu, \"phase_seconds\": %.9f, "
           "\"base_phase_seconds\": %.9f, \"total_seconds\": %.9f, \"measured\": %u, "
           "\"timed_seconds\": %.9f, \"sample_base_seconds\": %.9f, \"untypical_sample\": %s, "
           "\"seen\": %lld, \"count_ahead\": %s, \"expected_seen\": %s, \"status\": \"%s\"}",
           i ? ", " : "", s->phase[i].id, (unsigned long long)shown_weight(s, r, p, i),
           p->ph[i].phase_s, shown_base(s, r, p, i), p->ph[i].total, p->ph[i].measured,
           p->ph[i].timed_s, irr ? 0.0 : s->phase[i].sample_seconds,
           !irr && untypical(&s->phase[i]) ? "true" : "false", irr ? -1LL : p->ph[i].seen,
           p->ph[i].ahead ? "true" : "false", expect_json(&p->ph[i], ex, sizeof ex),
           augur_sigres_status_name(p->ph[i].status));
  printf("]}\n");
}

/* ---- which program (docs/signature.md, "Which program") ---- */

/* 0 when the program the command runs (APP, the word mpi_flavour_detect
 * found; NULL: none) is the signature's, or FORCE; else says why and
 * returns CLI_FAIL. */
static int check_program(const char *sigpath, const augur_signature *s, const char *app,
                         int force) {
  if (!s->program) {
    cli_note("note: %s names no program (an older signature): not checked", sigpath);
    return CLI_OK;
  }
  char *path = app ? mpi_flavour_which(app) : NULL;
  char name[256], bid[160];
  int known = path && augur_program_id(path, name, sizeof name, bid, sizeof bid) == 0;
  free(path);
  if (!known) { /* the ranks check it too (rec_signature.c) */
    cli_note("note: cannot tell which program the command runs; the ranks check it");
    return CLI_OK;
  }
  char why[768];
  if (strcmp(name, s->program) != 0)
    snprintf(why, sizeof why, "%s is the signature of '%s', the command runs '%s'", sigpath,
             s->program, name);
  else if (strcmp(s->build_id, "-") != 0 && strcmp(bid, "-") != 0 && strcmp(bid, s->build_id))
    snprintf(why, sizeof why,
             "%s is the signature of another build of '%s' (build id %.12s, this one %.12s): "
             "its call sites do not fit (make it with 'augur signature --portable')",
             sigpath, name, s->build_id, bid);
  else
    return CLI_OK;
  if (!force) return cli_fail("%s; --force runs it anyway", why);
  cli_note("warning: %s; run anyway (--force): the prediction is not for this program", why);
  return CLI_OK;
}

/* ---- the watchdog ---- */

/* Progress is a change of the heartbeat file, which every rank rewrites at
 * least every 100 ms while it makes MPI calls (rec_signature.c). Done is
 * the results file of an early stop, which rank 0 writes (renamed into
 * place, so it is whole) once every rank has measured every phase. */
typedef struct watch {
  const char *hb;      /* heartbeat file */
  const char *results; /* results file */
  double limit;        /* seconds without progress */
  double last;         /* now_s() of the last change seen */
  struct timespec m;   /* its mtime then */
  double quiet;        /* seconds without progress when stopped */
  int full;            /* the results are those of a run that went to its end */
  double stop_at;      /* now_s() when the results of an early stop were seen (0: not) */
} watch;

/* cli_run_child_watched's contract: 0 go on, 1 stalled, 2 done (the
 * results of an early stop are there: end the job as planned). */
static int watch_run(void *ctx) {
  watch *w = ctx;
  struct stat sb;
  double t = now_s();
  if (!w->full && stat(w->results, &sb) == 0) {
    augur_sigresult *r = NULL;
    augur_error err;
    if (augur_sigresult_read(w->results, &r, &err) == AUGUR_OK) {
      int stopped = r->stopped;
      augur_sigresult_free(r);
      if (stopped) {
        if (w->stop_at == 0) w->stop_at = t; /* the first time it was seen */
        return 2;
      }
    }
    w->full = 1; /* written in MPI_Finalize: the program ends by itself */
  }
  if (stat(w->hb, &sb) == 0 &&
      (sb.st_mtim.tv_sec != w->m.tv_sec || sb.st_mtim.tv_nsec != w->m.tv_nsec)) {
    w->m = sb.st_mtim;
    w->last = t;
  }
  w->quiet = t - w->last;
  return w->quiet > w->limit;
}

/* After a stop for no progress: what happened, and each rank's last line. */
static void say_stalled(const watch *w, const augur_signature *s) {
  cli_note("the signature run made no progress for %.1f s (no rank entered an MPI call; limit "
           "%.0f s, --stall): ended it. What the ranks were doing:",
           w->quiet, w->limit);
  FILE *f = fopen(w->hb, "r");
  char line[512];
  int n = 0;
  while (f && fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == ' ' || line[len - 1] == '\0'))
      line[--len] = '\0';
    if (!len) continue;
    fprintf(stderr, "  %s\n", line);
    n++;
  }
  if (f) fclose(f);
  if (!n)
    fprintf(stderr, "  no rank reported (none reached MPI_Init, or they cannot write %s)\n", w->hb);
  else if ((uint32_t)n < s->nranks)
    fprintf(stderr, "  (%u of %u ranks never reported)\n", s->nranks - (uint32_t)n, s->nranks);
}

int cmd_predict(int argc, char **argv) {
  const char *sigpath = NULL, *mpi = NULL, *keep = NULL;
  long long measure = 0;
  double stall = 0;
  int json = 0, force = 0;
  const cli_opt options[] = {
      CLI_STRING("--signature", "-s", "FILE", &sigpath, NULL,
                 "signature from 'augur signature' (required)"),
      CLI_INT("--measure", "K", &measure, 1, 1000000,
              "repetitions measured per phase (default: the\n"
              "signature's, set by 'augur signature --measure')"),
      CLI_FLAG("--json", NULL, &json, "print JSON"),
      CLI_CALL("--mpi", NULL, "mpich|openmpi", cli_opt_mpi, &mpi,
               "use this recorder instead of detecting it"),
      CLI_STRING("--results", NULL, "FILE", &keep, NULL,
                 "keep the raw results of the signature run there"),
      CLI_FLAG("--force", NULL, &force, "run a signature made from another program (warns)"),
      CLI_REAL("--stall", "SECONDS", &stall, 0.5, 1e7, "seconds from 0.5",
               "end the run after SECONDS with no progress (default:\n"
               "the larger of 30 s and 4 x the base run)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur predict --signature FILE [--measure K] [--json] -- COMMAND...\n"
               "\n"
               "PAS2P prediction: runs COMMAND (mpiexec ... ./app ...) with the recorder in\n"
               "signature mode. The ranks recognise the signature's phases, time K\n"
               "repetitions of each after a warm-up one, and stop the program once all\n"
               "are measured. Prints PET (predicted time of the full run), SET (wall time\n"
               "of the signature run) and the per-phase table. See docs/signature.md.\n",
      .opts = options,
      .dashdash = 1};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  int dashdash = args.dashdash;
  if (!sigpath) return cli_usage("missing --signature FILE");
  if (dashdash < 0 || dashdash + 1 >= argc)
    return cli_usage("missing '-- COMMAND' (usage: augur predict --signature FILE -- COMMAND...)");
  char **cmd = argv + dashdash + 1;
  int ncmd = argc - dashdash - 1;

  /* The signature is checked here, once, before any rank starts. */
  augur_signature *s = NULL;
  augur_error err = {0};
  if (augur_signature_read(sigpath, &s, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  char sigabs[PATH_MAX];
  if (!realpath(sigpath, sigabs)) {
    augur_signature_free(s);
    return cli_fail("%s: %s", sigpath, strerror(errno));
  }

  if (cli_command_found(cmd)) {
    augur_signature_free(s);
    return 127;
  }
  char why[PATH_MAX + 128], lib[PATH_MAX], libname[64];
  int app = -1;
  int flavour = mpi_flavour_detect(cmd, ncmd, &app, why, sizeof why);
  if (mpi) flavour = mpi_flavour_parse(mpi);
  if (check_program(sigpath, s, app >= 0 ? cmd[app] : NULL, force) != CLI_OK) {
    augur_signature_free(s);
    return CLI_FAIL;
  }
  cli_flavour_lib(libname, sizeof libname, "libaugur-mpi", flavour);
  if (cli_lib_path(lib, sizeof lib, libname) < 0 || access(lib, R_OK) != 0) {
    augur_signature_free(s);
    return cli_fail("the recorder %s is not installed next to augur", libname);
  }

  char results[PATH_MAX];
  if (keep) {
    snprintf(results, sizeof results, "%s", keep);
    unlink(results);
  } else {
    const char *tmp = getenv("TMPDIR");
    snprintf(results, sizeof results, "%s/augur-predict-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(results);
    if (fd < 0) {
      augur_signature_free(s);
      return cli_fail("cannot create a results file: %s", strerror(errno));
    }
    close(fd);
    unlink(results); /* rank 0 creates it: its absence means no results */
  }
  /* The heartbeat file: one line per rank, rewritten by the ranks. */
  char hb[PATH_MAX + 8];
  snprintf(hb, sizeof hb, "%s.hb", results);
  int hfd = open(hb, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (hfd < 0) {
    augur_signature_free(s);
    return cli_fail("cannot create %s: %s", hb, strerror(errno));
  }
  close(hfd);
  char kbuf[32];
  snprintf(kbuf, sizeof kbuf, "%lld", measure);
  int ok = cli_preload(lib) == 0 && setenv("AUGUR_SIGNATURE", sigabs, 1) == 0 &&
           setenv("AUGUR_SIGNATURE_OUT", results, 1) == 0 &&
           setenv("AUGUR_SIGNATURE_MEASURE", kbuf, 1) == 0 &&
           setenv("AUGUR_SIGNATURE_HEARTBEAT", hb, 1) == 0 &&
           (!force || setenv("AUGUR_SIGNATURE_FORCE", "1", 1) == 0) &&
           setenv("AUGUR_COUNTERS", "none", 1) == 0 &&
           /* Open MPI's mpirun waits 1 s between passing on our SIGTERM and
            * SIGKILL, even with every rank gone: 1.2 s of SET at each stop
            * (0.15 s without). Unless the user set it. */
           setenv("OMPI_MCA_odls_base_sigkill_timeout", "0", 0) == 0;
  if (!ok) {
    augur_signature_free(s);
    return cli_fail("cannot set the environment: %s", strerror(errno));
  }

  double t0 = now_s();
  watch w = {.hb = hb, .results = results, .limit = stall, .last = t0};
  if (w.limit <= 0) /* a gap between two MPI calls lasts at most the run (x4: a slower machine) */
    w.limit = 4 * s->base_run_seconds > STALL_MIN ? 4 * s->base_run_seconds : STALL_MIN;
  int ended = 0;
  int code = cli_run_child_watched(cmd, watch_run, &w, &ended);
  double set = now_s() - t0;
  augur_sigresult *r = NULL;
  int rc = CLI_OK;
  if (ended == 1) {
    say_stalled(&w, s);
    rc = CLI_FAIL;
  } else if (access(results, F_OK) != 0) {
    rc = cli_fail("the signature run wrote no results (%s%s)",
                  code ? "the program failed"
                       : "the program never reached MPI_Init or the "
                         "signature does not fit it",
                  code ? "" : "; see the messages above");
  } else if (augur_sigresult_read(results, &r, &err) != AUGUR_OK) {
    rc = cli_fail("%s", err.msg);
  } else if (r->nphases != s->nphases) {
    rc = cli_fail("%s: results for %u phases, the signature has %u", results, r->nphases,
                  s->nphases);
  } else if (r->irregular && (r->nranks != s->nranks || !same_ids(s, r))) {
    rc = cli_fail("%s: per-rank results that do not fit the signature's ranks and phases", results);
  }
  if (!keep) unlink(results);
  unlink(hb);
  if (rc == CLI_OK) {
    prediction p = {0};
    p.ph = calloc(s->nphases, sizeof *p.ph);
    if (!p.ph) {
      rc = cli_fail("out of memory");
    } else {
      /* The stop's own time: from the results seen to the job's end. */
      p.stop = w.stop_at > 0 && r->stopped ? t0 + set - w.stop_at : 0;
      predict(s, r, set, &p);
      if (json)
        print_json(s, r, &p);
      else
        print_text(sigpath, s, r, &p);
      fflush(stdout);
      if (code) cli_note("note: the program exited with status %d", code);
    }
    free(p.ph);
  }
  augur_sigresult_free(r);
  augur_signature_free(s);
  if (rc == CLI_OK && code) return code;
  return rc;
}
