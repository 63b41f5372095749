/* augur recorder — signature mode (AUGUR_SIGNATURE=FILE, docs/signature.md).
 *
 * No trace is written. Each rank matches its own calls against the calls
 * its fingerprint lists for every phase of the signature (one KMP automaton
 * per phase, so a repetition is found wherever it starts) and times
 * repetitions start .. start+K-1 of each phase.
 *
 * The stop ("The stop" in docs/signature.md): the first time a rank has
 * measured all its phases, it packs its figures into one array and starts
 * one PMPI_Igather of it to rank 0 on a private duplicate of
 * MPI_COMM_WORLD; a rank that reaches MPI_Finalize first starts it there
 * with what it has. Every rank starts that one nonblocking collective
 * exactly once, whatever it is doing, so it is a correct MPI program at any
 * point and needs no call point common to the ranks (the blocking votes it
 * replaced deadlocked where ranks voted at different calls, or found no
 * point at all in point-to-point loops). The ranks test the request as
 * their calls come. When rank 0's completes before MPI_Finalize and every
 * rank was done, rank 0 writes the results (stopped) atomically and the run
 * is ended from outside: `augur predict` sees the file and terminates the
 * job. Without augur predict the program runs to its end; rank 0 does not
 * write again.
 *
 * Heartbeat (AUGUR_SIGNATURE_HEARTBEAT=FILE, set by `augur predict`): each
 * rank keeps one line of FILE up to date (what it does, what it has
 * measured), rewritten at most every 100 ms while it makes MPI calls and at
 * each step of the stop; `augur predict` ends a run whose file stops
 * changing.
 *
 * Feeding: in signature mode each thread buffer holds one call, so
 * aug_rec_enter hands the previous call (parent + sub-records) to
 * aug_sig_feed at the entry of the next one. A repetition therefore ends
 * exactly when the next call is entered, the convention of `augur phases`
 * ("from entering its first call to entering the next phase's first call").
 * The feed runs outside aug_lock: it may call MPI.
 *
 * Only the thread that called MPI_Init is followed; signature mode is for
 * programs that call MPI from one thread (documented). */
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/signature.h"
#include "rec_internal.h"
#include "u64map.h"

/* Repetitions of a phase that can be taken back (take_back()): a phase
 * whose calls occur more often than this inside one repetition of a longer
 * phase keeps the rest counted. */
#define RECENT 64u

typedef struct sig_state {
  const augur_sig_call *calls; /* this rank's fingerprint */
  uint32_t len;
  uint32_t start; /* first repetition measured on this rank */
  uint32_t next;  /* irregular: planned stretches passed */
  double base_s;  /* irregular: base-run seconds of the repetitions measured */
  uint32_t *fail; /* KMP failure function */
  uint32_t pos;   /* calls matched so far */
  uint32_t want;  /* repetitions to measure: min(K, weight - start) */
  uint64_t seen;  /* repetitions completed */
  uint32_t measured;
  double sum_ns;
  uint64_t first_start; /* start of the first repetition seen (0: none) */
  /* The last RECENT repetitions counted (repetition k at k % RECENT): the
   * number of the call each started at, whether it was timed and its time,
   * so that one found inside a repetition of a longer phase is taken back
   * (take_back()). NREC: how many of them are known. */
  uint64_t rec_call[RECENT];
  double rec_ns[RECENT];
  uint8_t rec_timed[RECENT];
  uint32_t nrec;
} sig_state;

/* The report to rank 0 (see the top): per phase PACK_PHASE doubles (the
 * rank's mean measured ns, measured count or -1 without calls in the phase,
 * repetitions seen or -1, 1 when it measured fewer than it wanted, the mean
 * base seconds of the measured ones (irregular)), then the time from
 * MPI_Init to its first repetition (ns), then 1 when the rank had measured
 * everything. */
#define PACK_PHASE  5
#define PACK_LEN(n) ((size_t)(n)*PACK_PHASE + 2)
/* Rank 0's request is tested at most this often (ns of aug_now()): the
 * stop is then at most that late, and the feed's cost per call stays a
 * clock comparison (docs/signature.md, "The stop"). */
#define TEST_EVERY_NS 1000000u

typedef struct site {
  uint16_t module;
  uint64_t offset;
} site;

static augur_signature *sig;
/* The signature's phases, then its guards (version 5: phases not in the
 * signature whose calls contain a phase's; matched, never timed or
 * reported): NST states, the first sig->nphases the phases'. */
static sig_state *st;
static uint32_t nst;
static MPI_Comm vote_comm = MPI_COMM_NULL; /* private: the report's gather */
static MPI_Request report = MPI_REQUEST_NULL;
static int reported;     /* the report was started (this rank's figures are packed) */
static int report_done;  /* its request completed */
static int results_done; /* rank 0 wrote the results */
static int finalizing;   /* MPI_Finalize was entered: a completion is no early stop */
static uint64_t tested;  /* aug_now() of the last test of the request */
static double *pack;     /* PACK_LEN(nphases): this rank's report */
static double *gathered; /* rank 0: nranks reports */
static int hb_fd = -1;   /* heartbeat file */
static uint64_t hb_last; /* aug_now() of the last heartbeat line */
static uint64_t init_ns;
static uint64_t ncalls;      /* calls fed to the matcher so far */
static uint64_t nfed;        /* calls handed to the feed (the heartbeat's count) */
static uint64_t *ring;       /* t_start of the last ring_cap calls */
static uint64_t *ring_bytes; /* ... and their bytes (sent + received) */
static uint32_t *done_idx;   /* nst: the states that completed at the call being fed */
static uint32_t ring_cap;
static aug_u64map site_map; /* raw return address -> sites index + 1 */
static site *sites;
static uint32_t nsites, sites_cap;
static char out_path[AUG_PATH_MAX];
/* Irregular signatures: the stretch the rank is in (-1 before its first
 * call) and the planned repetition being timed (-1: none). */
static int64_t unit = -1;
static int cur_phase = -1;
static uint64_t cur_start;
static double cur_base; /* the timed stretch's time in the base run (seconds) */

static void say(const char *what, const char *msg) {
  fprintf(stderr, "augur: rank %d: signature mode: %s: %s\n", aug_world_rank, what, msg);
}

/* ---- heartbeat ---- */

#define HB_LINE     160        /* bytes per rank in the heartbeat file */
#define HB_EVERY_NS 100000000u /* at most one line per 100 ms while calls run */

/* Rewrites this rank's line of the heartbeat file: what it is doing (WHAT)
 * and how far its measurements are. FORCE: now, not only every 100 ms. */
static void heartbeat(const char *what, int force) {
  if (hb_fd < 0) return;
  uint64_t t = aug_now();
  if (!force && t - hb_last < HB_EVERY_NS) return;
  hb_last = t;
  uint32_t want = 0, done = 0;
  for (uint32_t i = 0; sig && i < sig->nphases; i++) {
    if (sig->phase[i].late || !st[i].len) continue;
    want++;
    done += st[i].measured >= st[i].want;
  }
  char line[HB_LINE];
  int n = snprintf(line, sizeof line, "rank %d: %s; %u of %u phases measured%s", aug_world_rank,
                   what, done, want, reported ? ", reported to rank 0" : "");
  if (n < 0) return;
  if (n > HB_LINE - 1) n = HB_LINE - 1;
  memset(line + n, ' ', (size_t)(HB_LINE - 1 - n));
  line[HB_LINE - 1] = '\n';
  if (pwrite(hb_fd, line, HB_LINE, (off_t)aug_world_rank * HB_LINE) != HB_LINE) {
    close(hb_fd); /* a full disk must not stop the program: no more heartbeats */
    hb_fd = -1;
  }
}

/* ---- call sites: module base name + offset, as `augur signature` wrote them ---- */

static site resolve(uint64_t addr) {
  site none = {0, 0};
  if (!addr) return none;
  int fresh;
  uint32_t *slot = aug_u64map_slot(&site_map, addr, &fresh);
  if (!slot) return none;
  if (!fresh) return *slot ? sites[*slot - 1] : none;
  const char *name;
  uint64_t mbase;
  if (!aug_module_of(addr, &name, &mbase)) return none;
  char path[AUG_PATH_MAX];
  if (!name || !*name) { /* the main program */
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n < 0) return none;
    path[n] = '\0';
    name = path;
  }
  char base[AUG_PATH_MAX];
  augur_signature_module_name(name, base, sizeof base);
  site s = {augur_signature_module(sig, base), addr - mbase};
  if (nsites == sites_cap) {
    uint32_t nc = sites_cap ? sites_cap * 2 : 64;
    site *ns = realloc(sites, nc * sizeof *ns);
    if (!ns) return s;
    sites = ns;
    sites_cap = nc;
  }
  sites[nsites++] = s;
  *slot = nsites;
  return s;
}

/* ---- set-up ---- */

static int prepare(void) {
  augur_error err;
  if (augur_signature_read(aug_cfg.signature, &sig, &err) != AUGUR_OK) {
    say("reading the signature", err.msg);
    return -1;
  }
  const char *force = getenv("AUGUR_SIGNATURE_FORCE");
  if (sig->program &&
      !(force && *force == '1')) { /* another program: refuse (augur predict --force) */
    char exe[AUG_PATH_MAX], name[256], bid[160], msg[600];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    if (n > 0 && augur_program_id(exe, name, sizeof name, bid, sizeof bid) == 0 &&
        (strcmp(name, sig->program) ||
         (strcmp(bid, "-") && strcmp(sig->build_id, "-") && strcmp(bid, sig->build_id)))) {
      snprintf(msg, sizeof msg, "the signature is for '%s' (build id %.12s), this is '%s' (%.12s)",
               sig->program, sig->build_id, name, bid);
      say(aug_cfg.signature, msg);
      return -1;
    }
  }
  if (sig->nranks != (uint32_t)aug_world_size) {
    char msg[160];
    snprintf(msg, sizeof msg, "the signature is for %u ranks, this run has %d", sig->nranks,
             aug_world_size);
    say(aug_cfg.signature, msg);
    return -1;
  }
  nst = sig->nphases + sig->nguards;
  st = calloc(nst ? nst : 1, sizeof *st);
  if (!st) return -1;
  long k_over = aug_cfg.signature_measure;
  uint32_t maxlen = 1;
  for (uint32_t i = 0; i < sig->nphases; i++) {
    augur_sig_phase *p = &sig->phase[i];
    sig_state *s = &st[i];
    uint32_t me = (uint32_t)aug_world_rank;
    s->calls = p->calls[me];
    s->len = p->ncalls[me];
    /* Irregular signatures plan every rank on its own repetitions. */
    uint64_t weight = sig->irregular ? p->rank_weight[me] : p->weight;
    s->start = sig->irregular ? p->rank_start[me] : p->start;
    uint64_t avail = weight - s->start;
    uint64_t k = k_over > 0 ? (uint64_t)k_over : sig->irregular ? p->rank_measure[me] : p->measure;
    s->want = (uint32_t)(k < avail ? k : avail);
    /* Irregular plans list the stretches to time: no more than those. */
    if (sig->irregular && s->want > p->rank_measure[me]) s->want = p->rank_measure[me];
    if (s->len > maxlen) maxlen = s->len;
    if (!s->len) continue;
    s->fail = calloc(s->len, sizeof *s->fail);
    if (!s->fail) return -1;
  }
  for (uint32_t g = 0; g < sig->nguards; g++) { /* matched only: want 0 */
    sig_state *s = &st[sig->nphases + g];
    s->calls = sig->guard[g].calls[aug_world_rank];
    s->len = sig->guard[g].ncalls[aug_world_rank];
    if (s->len > maxlen) maxlen = s->len;
    if (s->len && !(s->fail = calloc(s->len, sizeof *s->fail))) return -1;
  }
  ring_cap = maxlen;
  ring = calloc(ring_cap, sizeof *ring);
  ring_bytes = calloc(ring_cap, sizeof *ring_bytes);
  done_idx = calloc(nst ? nst : 1, sizeof *done_idx);
  /* The report allocates nothing later: a rank out of memory then would
   * leave rank 0 waiting for it. */
  pack = calloc(PACK_LEN(sig->nphases), sizeof *pack);
  if (aug_world_rank == 0 &&
      !(gathered = calloc(sig->nranks * PACK_LEN(sig->nphases), sizeof *gathered)))
    return -1;
  return ring && ring_bytes && done_idx && pack ? 0 : -1;
}

/* A is a fingerprint call, B a call of this run (or another fingerprint
 * call, when the KMP table is built). */
static int same(const augur_sig_call *a, const augur_sig_call *b) {
  return augur_sig_call_same(a, b);
}

static void build_fail(sig_state *s) {
  s->fail[0] = 0;
  uint32_t k = 0;
  for (uint32_t i = 1; i < s->len; i++) {
    while (k && !same(&s->calls[i], &s->calls[k]))
      k = s->fail[k - 1];
    if (same(&s->calls[i], &s->calls[k])) k++;
    s->fail[i] = k;
  }
}

void aug_sig_init(uint64_t t_enter) {
  init_ns = t_enter;
  snprintf(out_path, sizeof out_path, "%s", aug_cfg.signature_out);
  const char *hb = getenv("AUGUR_SIGNATURE_HEARTBEAT");
  if (hb && *hb) hb_fd = open(hb, O_WRONLY | O_CLOEXEC); /* created by augur predict */
  /* All ranks or none: a rank that cannot follow the signature would never
   * report, and rank 0 would wait for it. */
  int ok = prepare() == 0, all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (ok) say(aug_cfg.signature, "another rank cannot follow the signature");
    aug_cfg.signature[0] = '\0'; /* off: the program runs to the end, unobserved */
    return;
  }
  for (uint32_t i = 0; i < nst; i++)
    if (st[i].len) build_fail(&st[i]);
  PMPI_Comm_dup(MPI_COMM_WORLD, &vote_comm);
  heartbeat("past MPI_Init", 1);
}

/* ---- the report and the results ---- */

static int check_done = 1; /* a measurement came: is the rank done now? */

static int locally_done(void) {
  for (uint32_t i = 0; i < sig->nphases; i++)
    if (!sig->phase[i].late && st[i].len && st[i].measured < st[i].want) return 0;
  return 1;
}

/* This rank's figures into pack (layout at PACK_PHASE); DONE: it has
 * measured everything. */
static void pack_figures(int done) {
  uint32_t n = sig->nphases;
  uint64_t first = 0;
  for (uint32_t i = 0; i < n; i++) {
    const sig_state *s = &st[i];
    double *q = pack + (size_t)i * PACK_PHASE;
    /* A rank without calls in the phase spends no time in it: it adds 0,
     * as in `augur phases` (time summed over ranks / ranks). */
    q[0] = s->measured ? s->sum_ns / s->measured : 0;
    q[1] = s->len ? (double)s->measured : -1;
    q[2] = s->len ? (double)s->seen : -1;
    q[3] = s->len && s->measured < s->want;
    q[4] = s->measured ? s->base_s / s->measured : 0;
    if (s->first_start && (!first || s->first_start < first)) first = s->first_start;
  }
  pack[(size_t)n * PACK_PHASE] = first > init_ns ? (double)(first - init_ns) : 0;
  pack[(size_t)n * PACK_PHASE + 1] = done;
}

/* Starts this rank's report, the one nonblocking collective every rank
 * starts exactly once (when it is done, or in MPI_Finalize). */
static void start_report(int done) {
  assert(!reported && vote_comm != MPI_COMM_NULL);
  pack_figures(done);
  reported = 1;
  int len = (int)PACK_LEN(sig->nphases);
  PMPI_Igather(pack, len, MPI_DOUBLE, gathered, len, MPI_DOUBLE, 0, vote_comm, &report);
  heartbeat(done ? "measured every phase, waiting for the other ranks" : "in MPI_Finalize", 1);
}

/* Rank 0, the gather complete: did every rank report done? */
static int all_done(void) {
  size_t len = PACK_LEN(sig->nphases);
  for (uint32_t k = 0; k < sig->nranks; k++)
    if (gathered[k * len + len - 1] == 0) return 0;
  return 1;
}

/* Rank 0, the gather complete: the results file, written as OUT.tmp and
 * renamed, so `augur predict` never reads half a file. Phase I's figures
 * over the ranks: the sum of their means (/ ranks), the fewest measured by
 * a rank with calls in it, whether one measured fewer than it wanted; its
 * repetitions seen are rank 0's own now (the stop), or the most a rank
 * reported when rank 0 has no calls in it. */
static void write_results(int stopped) {
  assert(aug_world_rank == 0 && report_done);
  uint32_t n = sig->nphases, nr = sig->nranks;
  size_t len = PACK_LEN(n);
  augur_sigresult r = {.nranks = nr, .stopped = stopped, .irregular = sig->irregular};
  double pre = 0;
  for (uint32_t k = 0; k < nr; k++)
    pre += gathered[k * len + (size_t)n * PACK_PHASE];
  r.pre_seconds = pre / nr / 1e9;
  r.run_seconds = (double)(aug_now() - init_ns) / 1e9;
  r.nphases = n;
  r.phase = calloc(n ? n : 1, sizeof *r.phase);
  char tmp[AUG_PATH_MAX + 8];
  snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
  FILE *f = r.phase ? fopen(tmp, "w") : NULL;
  if (!f) {
    say(out_path, "cannot write the results");
  } else {
    for (uint32_t i = 0; i < n; i++) {
      augur_sigres_phase *p = &r.phase[i];
      double sum = 0, mincnt = -1, maxseen = 0;
      int anyshort = 0;
      for (uint32_t k = 0; k < nr; k++) {
        const double *q = gathered + k * len + (size_t)i * PACK_PHASE;
        sum += q[0];
        if (q[1] >= 0 && (mincnt < 0 || q[1] < mincnt)) mincnt = q[1];
        if (q[2] > maxseen) maxseen = q[2];
        anyshort |= q[3] != 0;
      }
      p->id = sig->phase[i].id;
      p->measured = mincnt < 0 ? 0 : (uint32_t)mincnt;
      p->seconds = sum / nr / 1e9;
      p->seen = st[i].len ? st[i].seen : (uint64_t)maxseen;
      if (sig->irregular) { /* every rank's own figures: PET takes the largest rank's sum */
        p->rank_measured = malloc(nr * sizeof *p->rank_measured);
        p->rank_seconds = malloc(nr * sizeof *p->rank_seconds);
        p->rank_base_seconds = malloc(nr * sizeof *p->rank_base_seconds);
        if (!p->rank_measured || !p->rank_seconds || !p->rank_base_seconds)
          r.irregular = 0; /* written as global */
        for (uint32_t k = 0; k < nr && r.irregular; k++) {
          const double *q = gathered + k * len + (size_t)i * PACK_PHASE;
          p->rank_measured[k] = q[1] < 0 ? 0 : (uint32_t)q[1];
          p->rank_seconds[k] = q[0] / 1e9;
          p->rank_base_seconds[k] = q[4];
        }
      }
      if (sig->phase[i].late)
        p->status = AUGUR_SIGRES_LATE;
      else if (!p->measured)
        p->status = AUGUR_SIGRES_MISSING;
      else if (anyshort)
        p->status = AUGUR_SIGRES_PARTIAL;
      else
        p->status = AUGUR_SIGRES_MEASURED;
    }
    augur_sigresult_write(f, &r);
    if (fclose(f) != 0 || rename(tmp, out_path) != 0) {
      say(out_path, "cannot write the results");
      unlink(tmp);
    }
  }
  for (uint32_t i = 0; r.phase && i < n; i++) {
    free(r.phase[i].rank_measured);
    free(r.phase[i].rank_seconds);
    free(r.phase[i].rank_base_seconds);
  }
  free(r.phase);
  results_done = 1;
}

/* Tests the report's request, at most every TEST_EVERY_NS. Rank 0, once it
 * completed before MPI_Finalize with every rank done: the results of the
 * early stop, which `augur predict` waits for to end the job. */
static void poll_report(uint64_t now) {
  if (!reported || report_done || now - tested < TEST_EVERY_NS) return;
  tested = now;
  int flag = 0;
  PMPI_Test(&report, &flag, MPI_STATUS_IGNORE);
  if (!flag) return;
  report_done = 1;
  if (aug_world_rank != 0 || finalizing || !all_done()) return; /* results at MPI_Finalize */
  write_results(1);
  heartbeat("stopped: every rank measured every phase", 1);
}

/* ---- matching ---- */

static void measured(uint32_t i, uint64_t start, uint64_t end) {
  sig_state *s = &st[i];
  s->sum_ns += end > start ? (double)(end - start) : 0;
  s->measured++;
  check_done = 1;
}

/* A repetition of phase I, from call number CALL (its first) at START to
 * END. */
static void on_repetition(uint32_t i, uint64_t call, uint64_t start, uint64_t end) {
  sig_state *s = &st[i];
  int late = i < sig->nphases && sig->phase[i].late; /* a guard's want is 0 */
  uint64_t k = s->seen++;
  uint32_t at = (uint32_t)(k % RECENT);
  if (!s->first_start) s->first_start = start;
  s->rec_call[at] = call;
  s->rec_timed[at] = !late && k >= s->start && s->measured < s->want;
  s->rec_ns[at] = end > start ? (double)(end - start) : 0;
  if (s->nrec < RECENT) s->nrec++;
  if (s->rec_timed[at]) measured(i, start, end);
}

/* Phase J's last counted repetition started at call number FROM or later. */
static int last_from(const sig_state *j, uint64_t from) {
  return j->nrec && j->rec_call[(j->seen - 1) % RECENT] >= from;
}

/* Phases are the pieces `augur phases` cut the run into: one repetition
 * never lies inside another's. The matcher runs one automaton per phase, so
 * a phase whose calls are part of a longer phase's (NPB MG B: phase 12's 18
 * calls are the first 18 of phase 4's; LU A: phase 4's one call is in phase
 * 6's five; SP W: the iteration's 31 calls are in the set-up's 40, which
 * runs one time step) also matches inside it: its count ran ahead (MG's
 * phase 4: seen 3 of weight 2) and a timed repetition could be one that
 * was not its own. When phase I completes a repetition whose first call is
 * call number FROM, every shorter phase's repetitions that began at FROM or
 * later are taken back (not seen, and not timed). */
static void pop_last(sig_state *j) {
  uint32_t at = (uint32_t)((j->seen - 1) % RECENT);
  if (j->rec_timed[at]) {
    j->measured--;
    j->sum_ns -= j->rec_ns[at];
  }
  j->seen--;
  j->nrec--;
  if (!j->seen) j->first_start = 0;
  check_done = 1;
}

static void take_back(uint32_t i, uint64_t from) {
  for (uint32_t n = 0; n < nst; n++) {
    sig_state *j = &st[n];
    if (n == i || !j->len || j->len >= st[i].len) continue;
    while (last_from(j, from))
      pop_last(j);
  }
}

/* How far the calls FROM .. FROM + len - 1 of this run are in volume from
 * phase S's fingerprint: the sum over its calls of |a - b| / max(a, b)
 * (calls whose volume the signature does not know add 0). */
static double volume_off(const sig_state *s, uint64_t from) {
  double d = 0;
  for (uint32_t k = 0; k < s->len; k++) {
    uint64_t a = s->calls[k].bytes, b = ring_bytes[(from + k) % ring_cap];
    if (a == AUGUR_SIG_BYTES_ANY || a == b) continue;
    d += (double)(a > b ? a - b : b - a) / (double)(a > b ? a : b);
  }
  return d;
}

/* Phases of the same length whose repetitions ended at this call began at
 * the same call: they matched the same calls, which `augur phases` gave to
 * one of them (CoMD, 2 ranks: phases 7 and 8 are each one self-exchange
 * from one call site, in one size class, 37 and 43 KB; the first is below
 * the threshold, a guard). The size class lets both match; the one whose
 * fingerprint is nearest in volume keeps the repetition, the others' are
 * taken back (a tie keeps all). DONE: the NDONE states that completed. */
static void nearest(const uint32_t *done, uint32_t ndone, uint64_t at_call) {
  for (uint32_t a = 0; a < ndone; a++) {
    sig_state *s = &st[done[a]];
    uint64_t from = at_call + 1 - s->len;
    double off = -1;
    for (uint32_t b = 0; b < ndone; b++) {
      const sig_state *o = &st[done[b]];
      if (b == a || o->len != s->len) continue;
      if (off < 0) off = volume_off(s, from);
      if (volume_off(o, from) < off) { /* another is nearer: not this one's */
        if (last_from(s, from)) pop_last(s);
        break;
      }
    }
  }
}

/* Could a repetition counted last be taken back yet: does a longer phase's
 * partial match (its calls so far) cover it? The report then waits for the
 * match to complete or fail: at most that phase's length in calls. */
static int may_take_back(void) {
  for (uint32_t i = 0; i < nst; i++) {
    if (!st[i].pos) continue;
    uint64_t from = ncalls - st[i].pos; /* ncalls: calls fed so far */
    for (uint32_t n = 0; n < sig->nphases; n++)
      if (n != i && st[n].len && st[n].len < st[i].len && last_from(&st[n], from)) return 1;
  }
  return 0;
}

/* Irregular signatures: a repetition is a stretch, from one bound to the
 * next (as phases_irregular.c cuts them: MPI_Init, then every send or
 * collective on the characteristic communicator), and the signature names
 * the stretches to time on this rank. One whose first call is not the
 * fingerprint's (the program took another path) is not timed, and the rank
 * waits for one fewer. */
static void feed_irregular(const augur_sig_call *c, const augur_event *ev) {
  uint64_t t = ev->t_start;
  unsigned ty = ev->type;
  int bound =
      ty == AUGUR_EV_INIT || ty == AUGUR_EV_INIT_THREAD ||
      (ev->comm == sig->comm && (augur_event_is_p2p_send(ty) || augur_event_is_collective(ty)));
  if (unit >= 0 && !bound) return;
  if (cur_phase >= 0) {
    measured((uint32_t)cur_phase, cur_start, t);
    st[cur_phase].base_s += cur_base;
  }
  cur_phase = -1;
  unit++;
  uint32_t me = (uint32_t)aug_world_rank;
  for (uint32_t i = 0; i < sig->nphases; i++) {
    const augur_sig_phase *p = &sig->phase[i];
    sig_state *s = &st[i];
    if (!s->len) continue;
    int match = same(&s->calls[0], c);
    if (match && (uint64_t)unit == p->rank_first_unit[me] && !s->first_start) s->first_start = t;
    if (p->late || s->next >= p->rank_measure[me] || (uint64_t)unit != p->rank_units[me][s->next])
      continue;
    s->next++;
    if (match && cur_phase < 0 && s->measured < s->want) {
      cur_phase = (int)i;
      cur_start = t;
      cur_base = p->rank_unit_base[me][s->next - 1];
    } else if (s->want > s->measured) {
      s->want--;
      check_done = 1;
    }
  }
}

static void feed_call(const augur_event *ev, size_t nsub, uint64_t now) {
  augur_sig_call c;
  memset(&c, 0, sizeof c);
  c.type = (uint8_t)ev->type;
  site w = resolve(ev->callsite);
  c.module = w.module;
  c.offset = w.offset;
  c.peer = AUGUR_SIG_PEER_ANY;
  /* Comm-local ranks equal world ranks on the world communicator only. */
  if (ev->comm == AUGUR_COMM_WORLD && ev->peer >= 0 && !(ev->flags & AUGUR_F_ANY_SOURCE))
    c.peer = ev->peer - aug_world_rank;
  uint64_t bytes = 0;
  for (size_t k = 0; k <= nsub; k++)
    bytes += ev[k].bytes + ev[k].bytes_recv;
  uint64_t bytes_at = bytes;
  uint8_t cls = 0;
  while (bytes) {
    cls++;
    bytes >>= 1;
  }
  c.size_class = cls;

  ring[ncalls % ring_cap] = ev->t_start;
  ring_bytes[ncalls % ring_cap] = c.bytes = bytes_at;
  uint32_t ndone = 0;
  for (uint32_t i = 0; i < nst && !sig->irregular; i++) {
    sig_state *s = &st[i];
    if (!s->len) continue;
    while (s->pos && !same(&s->calls[s->pos], &c))
      s->pos = s->fail[s->pos - 1];
    if (same(&s->calls[s->pos], &c)) s->pos++;
    if (s->pos == s->len) {
      uint64_t from = ncalls + 1 - s->len;
      on_repetition(i, from, ring[from % ring_cap], now);
      s->pos = s->fail[s->len - 1];
      done_idx[ndone++] = i;
    }
  }
  /* After every automaton has seen the call: phases of one length that
   * completed here matched the same calls (nearest() keeps the nearest in
   * volume), and a phase may complete inside a longer one that completes
   * at the same call. */
  if (ndone > 1) nearest(done_idx, ndone, ncalls);
  for (uint32_t i = 0; ndone && i < nst; i++)
    if (st[i].len && st[i].nrec &&
        st[i].rec_call[(st[i].seen - 1) % RECENT] + st[i].len == ncalls + 1)
      take_back(i, ncalls + 1 - st[i].len);
  if (sig->irregular) feed_irregular(&c, ev);
  ncalls++;
}

void aug_sig_feed(augur_event *ev, size_t n) {
  if (!sig || !aug_cfg.signature[0] || results_done) return;
  if (n && ev[0].thread != 0) return; /* only the MPI_Init thread is followed */
  uint64_t now = aug_now();
  /* Matching goes on until the rank has reported, and on rank 0 until the
   * results are written (its seen counts are those at the stop). */
  for (size_t i = 0; i < n && (!reported || aug_world_rank == 0);) {
    size_t nsub = 0;
    while (i + 1 + nsub < n && augur_event_is_sub(ev[i + 1 + nsub].type))
      nsub++;
    /* A poll that found nothing is not a step of the program (as in the
     * logical trace); neither is a stray sub-record. */
    if (!augur_event_is_sub(ev[i].type) && !(ev[i].flags & AUGUR_F_NOTDONE))
      feed_call(&ev[i], nsub, now);
    i += 1 + nsub;
  }
  if (!reported && check_done) {
    check_done = 0;
    if (locally_done()) {
      if (may_take_back())
        check_done = 1; /* ask again at the next call */
      else
        start_report(1);
    }
  }
  nfed += n != 0;
  if (hb_fd >= 0 && n && now - hb_last >= HB_EVERY_NS) {
    char what[64];
    snprintf(what, sizeof what, "running (%llu calls, the last %s)", (unsigned long long)nfed,
             augur_event_name(ev[0].type));
    heartbeat(what, 0);
  }
  poll_report(now);
}

void aug_sig_finalizing(void) {
  finalizing = 1;
}

/* Every rank: its report started (with what it has, when it was not done)
 * and complete, so the collective is finished on every rank. Rank 0 writes
 * the results of a run that went to its end, unless it wrote those of an
 * early stop already (the program ran on: nobody ended it). */
void aug_sig_finalize(void) {
  if (!sig || !aug_cfg.signature[0] || vote_comm == MPI_COMM_NULL) return;
  finalizing = 1;
  if (!reported) start_report(locally_done());
  heartbeat("in MPI_Finalize: the program ran to its end", 1);
  if (!report_done) PMPI_Wait(&report, MPI_STATUS_IGNORE);
  report_done = 1;
  if (aug_world_rank == 0 && !results_done) write_results(0);
  PMPI_Comm_free(&vote_comm);
}
