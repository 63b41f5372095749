/* augur recorder — signature mode (AUGUR_SIGNATURE=FILE, docs/signature.md).
 *
 * No trace is written. Each rank matches its own calls against the calls
 * its fingerprint lists for every phase of the signature (one KMP automaton
 * per phase, so a repetition is found wherever it starts), times repetitions
 * start .. start+K-1 of each phase, and now and then, right after a
 * blocking collective on a communicator of all the ranks, all ranks vote
 * (PMPI_Allreduce of "I measured everything" over a private communicator).
 * Once the vote is unanimous, rank 0 writes the results, every rank calls
 * PMPI_Finalize and exits with 0: the rest of the program never runs.
 *
 * The vote points are chosen so that every rank votes after the same call
 * by construction: MPI has all ranks call the blocking collectives on
 * communicators spanning them in one order (a program that orders them
 * differently on two ranks is erroneous: it deadlocks when collectives
 * synchronise), so "the Nth such collective" is the same call on every
 * rank, and which N carry a vote depends only on N and on what earlier
 * votes returned (the same on every rank). A rank's own phase matches
 * (which differ between ranks when one's calls repeat at a shorter period
 * than another's) decide a vote only where the signature shows they cannot
 * differ: see sync_votes_safe. The time spent voting is left out of every
 * measured repetition.
 *
 * Heartbeat (AUGUR_SIGNATURE_HEARTBEAT=FILE, set by `augur predict`): each
 * rank keeps one line of FILE up to date (what it does, what it has
 * measured), rewritten at most every 100 ms while it makes MPI calls and
 * around every vote; `augur predict` ends a run whose file stops changing.
 *
 * Feeding: in signature mode each thread buffer holds one call, so
 * aug_rec_enter hands the previous call (parent + sub-records) to
 * aug_sig_feed at the entry of the next one. A repetition therefore ends
 * exactly when the next call is entered, the convention of `augur phases`
 * ("from entering its first call to entering the next phase's first call").
 * The feed runs outside aug_lock: it may call MPI and exit.
 *
 * Only the thread that called MPI_Init is followed; signature mode is for
 * programs that call MPI from one thread (documented). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/signature.h"
#include "rec_internal.h"
#include "u64map.h"

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
} sig_state;

/* Votes: VOTE_SHARE of the base run apart (a tenth of the 5 % measurement
 * budget, so a stop comes at most that late; a full run votes about 200
 * times, or once per VOTE_STRIDE_MAX vote points when they come faster),
 * and at most VOTE_STRIDE_MAX vote points apart, which bounds the overshoot
 * when vote points suddenly come much slower than before
 * (docs/signature.md, "The stop vote"). */
#define VOTE_SHARE      0.005
#define VOTE_STRIDE_MAX 64u

typedef struct site {
  uint16_t module;
  uint64_t offset;
} site;

static augur_signature *sig;
static sig_state *st;
static MPI_Comm vote_comm = MPI_COMM_NULL;
static int sync_idx = -1; /* the sync phase, when the ranks also vote at its ends */
/* The stop vote (see the top): blocking collectives on all-rank
 * communicators fed so far, the one the next vote follows, the stride
 * between votes, and the previous vote's collective and shared clock. */
static aug_u64map comm_size; /* comm id -> size + 1 */
static uint64_t ncoll, next_vote = 1, stride = 1, last_coll, nvotes;
static double last_t, vote_gap; /* seconds */
static uint64_t paused;         /* ns spent voting, left out of every measured time */
static int hb_fd = -1;          /* heartbeat file */
static uint64_t hb_last;        /* aug_now() of the last heartbeat line */
static uint64_t init_ns;
static uint64_t ncalls; /* calls fed so far */
static uint64_t *ring;  /* t_start of the last ring_cap calls */
static uint32_t ring_cap;
static aug_u64map site_map; /* raw return address -> sites index + 1 */
static site *sites;
static uint32_t nsites, sites_cap;
static int stopping;
static char out_path[AUG_PATH_MAX];
static double *red_loc, *red_sum; /* nphases + 1: per-phase means, then pre */
static unsigned *red_cnt, *red_min;
static double *red_seen, *red_maxseen;     /* nphases: repetitions completed (MAX over ranks) */
static unsigned *red_short, *red_anyshort; /* nphases: this rank measured fewer than it wanted */
/* Irregular signatures: the stretch the rank is in (-1 before its first
 * call) and the planned repetition being timed (-1: none). */
static int64_t unit = -1;
static int cur_phase = -1;
static uint64_t cur_start;
static double cur_base;   /* the timed stretch's time in the base run (seconds) */
static double *red_base;  /* irregular: per phase, the base seconds of the measured ones (mean) */
static double *all_base;  /* irregular, rank 0: every rank's red_base (nranks x nphases) */
static double *all_loc;   /* irregular, rank 0: every rank's red_loc (nranks x (nphases + 1)) */
static unsigned *all_cnt; /* irregular, rank 0: every rank's red_cnt (nranks x nphases) */

static void say(const char *what, const char *msg) {
  fprintf(stderr, "augur: rank %d: signature mode: %s: %s\n", aug_world_rank, what, msg);
}

/* ---- heartbeat ---- */

#define HB_LINE     160        /* bytes per rank in the heartbeat file */
#define HB_EVERY_NS 100000000u /* at most one line per 100 ms while calls run */

static int locally_done(void);
static int sync_votes_safe(void);

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
  int n = snprintf(line, sizeof line, "rank %d: %s; %u of %u phases measured, %llu votes",
                   aug_world_rank, what, done, want, (unsigned long long)nvotes);
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
  st = calloc(sig->nphases, sizeof *st);
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
  ring_cap = maxlen;
  ring = calloc(ring_cap, sizeof *ring);
  /* The reductions at the end allocate nothing: a rank out of memory then
   * would leave the others waiting in the reduction. */
  red_loc = calloc((size_t)sig->nphases + 1, sizeof *red_loc);
  red_sum = calloc((size_t)sig->nphases + 1, sizeof *red_sum);
  red_cnt = calloc((size_t)sig->nphases + 1, sizeof *red_cnt);
  red_min = calloc((size_t)sig->nphases + 1, sizeof *red_min);
  red_seen = calloc((size_t)sig->nphases + 1, sizeof *red_seen);
  red_maxseen = calloc((size_t)sig->nphases + 1, sizeof *red_maxseen);
  red_short = calloc((size_t)sig->nphases + 1, sizeof *red_short);
  red_anyshort = calloc((size_t)sig->nphases + 1, sizeof *red_anyshort);
  if (sig->irregular && aug_world_rank == 0) {
    all_loc = calloc((size_t)sig->nranks * (sig->nphases + 1), sizeof *all_loc);
    all_cnt = calloc((size_t)sig->nranks * (sig->nphases + 1), sizeof *all_cnt);
    all_base = calloc((size_t)sig->nranks * (sig->nphases + 1), sizeof *all_base);
    if (!all_loc || !all_cnt || !all_base) return -1;
  }
  if (sig->irregular && !(red_base = calloc((size_t)sig->nphases + 1, sizeof *red_base))) return -1;
  return ring && red_loc && red_sum && red_cnt && red_min && red_seen && red_maxseen && red_short &&
                 red_anyshort
             ? 0
             : -1;
}

/* A is a fingerprint call, B a call of this run (or another fingerprint
 * call, when the KMP table is built). A call site in a module the
 * signature does not know (module 0 here) never matches a known one. */
static int same(const augur_sig_call *a, const augur_sig_call *b) {
  if (a->type != b->type) return 0;
  if (a->module && (a->module != b->module || a->offset != b->offset)) return 0;
  if (a->peer != AUGUR_SIG_PEER_ANY && b->peer != AUGUR_SIG_PEER_ANY && a->peer != b->peer)
    return 0;
  if (a->size_class != AUGUR_SIG_SIZE_ANY && b->size_class != AUGUR_SIG_SIZE_ANY) {
    int d = (int)a->size_class - (int)b->size_class;
    if (d < -1 || d > 1) return 0; /* volumes within 5 % may straddle a power of two */
  }
  return 1;
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
   * vote, and the others would wait for it forever. */
  int ok = prepare() == 0, all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (ok) say(aug_cfg.signature, "another rank cannot follow the signature");
    aug_cfg.signature[0] = '\0'; /* off: the program runs to the end, unobserved */
    return;
  }
  for (uint32_t i = 0; i < sig->nphases; i++)
    if (st[i].len) build_fail(&st[i]);
  PMPI_Comm_dup(MPI_COMM_WORLD, &vote_comm);
  vote_gap = VOTE_SHARE * sig->base_run_seconds;
  sync_idx = sync_votes_safe();
  heartbeat("past MPI_Init", 1);
}

/* ---- results ---- */

static int locally_done(void) {
  for (uint32_t i = 0; i < sig->nphases; i++)
    if (!sig->phase[i].late && st[i].len && st[i].measured < st[i].want) return 0;
  return 1;
}

/* Collective over vote_comm: rank 0 writes the results file. */
static void write_results(int stopped) {
  uint32_t n = sig->nphases;
  double *loc = red_loc, *sum = red_sum;
  unsigned *cnt = red_cnt, *mincnt = red_min;
  uint64_t first = 0;
  for (uint32_t i = 0; i < n; i++) {
    /* A rank without calls in the phase spends no time in it: it adds 0,
     * as in `augur phases` (time summed over ranks / ranks). */
    loc[i] = st[i].measured ? st[i].sum_ns / st[i].measured : 0;
    cnt[i] = st[i].len ? st[i].measured : UINT32_MAX;
    if (st[i].first_start && (!first || st[i].first_start < first)) first = st[i].first_start;
  }
  loc[n] = first > init_ns ? (double)(first - init_ns) : 0;
  PMPI_Reduce(loc, sum, (int)n + 1, MPI_DOUBLE, MPI_SUM, 0, vote_comm);
  PMPI_Reduce(cnt, mincnt, (int)n, MPI_UNSIGNED, MPI_MIN, 0, vote_comm);
  /* Partial: some rank measured fewer than its own plan asked (ranks of an
   * irregular signature each have their own). */
  for (uint32_t i = 0; i < n; i++)
    red_short[i] = st[i].len && st[i].measured < st[i].want;
  PMPI_Reduce(red_short, red_anyshort, (int)n, MPI_UNSIGNED, MPI_MAX, 0, vote_comm);
  for (uint32_t i = 0; i < n; i++)
    red_seen[i] = st[i].len ? (double)st[i].seen : 0;
  PMPI_Reduce(red_seen, red_maxseen, (int)n, MPI_DOUBLE, MPI_MAX, 0, vote_comm);
  if (sig->irregular) { /* every rank's own figures: PET takes the largest rank's sum */
    PMPI_Gather(loc, (int)n + 1, MPI_DOUBLE, all_loc, (int)n + 1, MPI_DOUBLE, 0, vote_comm);
    PMPI_Gather(cnt, (int)n + 1, MPI_UNSIGNED, all_cnt, (int)n + 1, MPI_UNSIGNED, 0, vote_comm);
    for (uint32_t i = 0; i < n; i++)
      red_base[i] = st[i].measured ? st[i].base_s / st[i].measured : 0;
    PMPI_Gather(red_base, (int)n + 1, MPI_DOUBLE, all_base, (int)n + 1, MPI_DOUBLE, 0, vote_comm);
  }
  if (aug_world_rank == 0) {
    augur_sigresult r = {.nranks = sig->nranks, .stopped = stopped, .irregular = sig->irregular};
    r.pre_seconds = sum[n] / aug_world_size / 1e9;
    r.run_seconds = (double)(aug_now() - init_ns) / 1e9;
    r.nphases = n;
    r.phase = calloc(n ? n : 1, sizeof *r.phase);
    FILE *f = r.phase ? fopen(out_path, "w") : NULL;
    if (!f) {
      say(out_path, "cannot write the results");
    } else {
      for (uint32_t i = 0; i < n; i++) {
        augur_sigres_phase *p = &r.phase[i];
        p->id = sig->phase[i].id;
        p->measured = mincnt[i] == UINT32_MAX ? 0 : mincnt[i];
        p->seconds = sum[i] / aug_world_size / 1e9;
        p->seen = (uint64_t)red_maxseen[i];
        if (sig->irregular) {
          p->rank_measured = malloc(sig->nranks * sizeof *p->rank_measured);
          p->rank_seconds = malloc(sig->nranks * sizeof *p->rank_seconds);
          p->rank_base_seconds = malloc(sig->nranks * sizeof *p->rank_base_seconds);
          if (!p->rank_measured || !p->rank_seconds || !p->rank_base_seconds)
            r.irregular = 0; /* written as global */
          for (uint32_t k = 0; k < sig->nranks && r.irregular; k++) {
            unsigned c = all_cnt[(size_t)k * (n + 1) + i];
            p->rank_measured[k] = c == UINT32_MAX ? 0 : c;
            p->rank_seconds[k] = all_loc[(size_t)k * (n + 1) + i] / 1e9;
            p->rank_base_seconds[k] = all_base[(size_t)k * (n + 1) + i];
          }
        }
        if (sig->phase[i].late)
          p->status = AUGUR_SIGRES_LATE;
        else if (!p->measured)
          p->status = AUGUR_SIGRES_MISSING;
        else if (red_anyshort[i])
          p->status = AUGUR_SIGRES_PARTIAL;
        else
          p->status = AUGUR_SIGRES_MEASURED;
      }
      augur_sigresult_write(f, &r);
      if (fclose(f) != 0) say(out_path, "cannot write the results");
    }
    for (uint32_t i = 0; r.phase && i < n; i++) {
      free(r.phase[i].rank_measured);
      free(r.phase[i].rank_seconds);
      free(r.phase[i].rank_base_seconds);
    }
    free(r.phase);
  }
}

/* Everyone agreed: results first, then a clean MPI exit. Called from inside
 * a wrapper (before the application's next call runs). */
static void stop_run(void) {
  stopping = 1;
  heartbeat("stopping: the vote was unanimous", 1);
  atomic_store(&aug_active, 0);
  write_results(1);
  aug_lifecycle_stopped();
  PMPI_Comm_free(&vote_comm);
  fflush(NULL);
  PMPI_Finalize();
  exit(0);
}

/* ---- matching ---- */

static void measured(uint32_t i, uint64_t start, uint64_t end) {
  sig_state *s = &st[i];
  s->sum_ns += end > start ? (double)(end - start) : 0;
  s->measured++;
}

static void on_repetition(uint32_t i, uint64_t start, uint64_t end) {
  sig_state *s = &st[i];
  const augur_sig_phase *p = &sig->phase[i];
  uint64_t k = s->seen++;
  if (!s->first_start) s->first_start = start;
  if (!p->late && k >= s->start && s->measured < s->want) measured(i, start, end);
}

/* Irregular signatures: a repetition is a stretch, from one bound to the
 * next (as phases_irregular.c cuts them: MPI_Init, then every send or
 * collective on the characteristic communicator), and the signature names
 * the stretches to time on this rank. One whose first call is not the
 * fingerprint's (the program took another path) is not timed, and the rank
 * waits for one fewer. */
static void feed_irregular(const augur_sig_call *c, const augur_event *ev) {
  uint64_t t = ev->t_start - paused;
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
    }
  }
}

/* ---- the stop vote ---- */

/* Is EV a vote point: a blocking collective on an intracommunicator of all
 * the ranks? (The size of a communicator id is looked up once.) */
static int all_rank_collective(const augur_event *ev) {
  if (!augur_event_is_collective(ev->type) || augur_event_is_nonblocking(ev->type)) return 0;
  if (ev->comm == AUGUR_COMM_WORLD) return 1;
  if (ev->comm == AUGUR_COMM_NONE) return 0; /* not known on every rank alike */
  int fresh;
  uint32_t *v = aug_u64map_slot(&comm_size, ev->comm, &fresh);
  if (!v) return 0; /* out of memory: the same answer on no rank is safe only as "no" */
  if (fresh) *v = aug_comm_size_of(ev->comm) + 1;
  return *v - 1 == (uint32_t)aug_world_size;
}

/* After EV, the NCOLL-th vote point: vote when the schedule says so. The
 * schedule depends on NCOLL and on the votes' results only, so every rank
 * votes after the same call. Each vote also reduces the ranks' largest
 * clock (the time since MPI_Init, votes left out); from how fast the vote
 * points came since the previous vote, the next vote is placed VOTE_SHARE
 * of the base run later, at most twice the previous stride and at most
 * VOTE_STRIDE_MAX vote points on. Returns after a vote that is not unanimous;
 * a unanimous one stops the run. */
/* One vote (WHERE says where, for the heartbeat): stops the run when every
 * rank has measured everything; else returns the ranks' largest clock. */
static double vote(const char *where) {
  char what[128];
  snprintf(what, sizeof what, "in stop vote %llu (%s)", (unsigned long long)nvotes + 1, where);
  heartbeat(what, 1);
  uint64_t t0 = aug_now();
  double mine[2] = {locally_done() ? 0.0 : 1.0, (double)(t0 - paused - init_ns) / 1e9}, all[2];
  PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, vote_comm);
  paused += aug_now() - t0;
  nvotes++;
  if (all[0] == 0.0) stop_run();
  snprintf(what, sizeof what, "running (vote %llu: some rank still measuring)",
           (unsigned long long)nvotes);
  heartbeat(what, 1);
  return all[1];
}

static void maybe_vote(const augur_event *ev) {
  if (++ncoll < next_vote) return;
  char where[96];
  snprintf(where, sizeof where, "after %s, vote point %llu", augur_event_name(ev->type),
           (unsigned long long)ncoll);
  double all[2] = {0, vote(where)};
  /* Vote points per second since the last vote, on the shared clock. */
  double dt = all[1] - last_t, want = dt > 0 ? vote_gap * (double)(ncoll - last_coll) / dt : 1;
  uint64_t cap = stride * 2 < VOTE_STRIDE_MAX ? stride * 2 : VOTE_STRIDE_MAX;
  stride = want < 1 ? 1 : want > (double)cap ? cap : (uint64_t)want;
  last_coll = ncoll;
  last_t = all[1];
  next_vote = ncoll + stride;
}

/* ---- whether the ranks may also vote at the sync phase ---- */

/* KMP failure table of CALLS (N of them) into FAIL. */
static void fail_of(const augur_sig_call *calls, uint32_t n, uint32_t *fail) {
  fail[0] = 0;
  for (uint32_t i = 1, k = 0; i < n; i++) {
    while (k && !same(&calls[i], &calls[k]))
      k = fail[k - 1];
    if (same(&calls[i], &calls[k])) k++;
    fail[i] = k;
  }
}

/* Does TEXT (M calls) hold PAT (N calls, FAIL its table)? */
static int holds(const augur_sig_call *text, uint32_t m, const augur_sig_call *pat, uint32_t n,
                 const uint32_t *fail) {
  for (uint32_t i = 0, k = 0; i < m; i++) {
    while (k && !same(&pat[k], &text[i]))
      k = fail[k - 1];
    if (same(&pat[k], &text[i]) && ++k == n) return 1;
  }
  return 0;
}

/* A program whose sync phase has no blocking collective on some rank may
 * have no vote point in its loop (NPB LU, CG: point-to-point only), and
 * would run to the end. Its ranks then also vote where their own matcher
 * ends a repetition of the sync phase, as before issue 21, but only when
 * the signature gives no rank a way to count those ends differently from
 * another: on every rank the phase's calls must not overlap themselves (a
 * prefix that is also a suffix: the matcher then finds overlapping
 * repetitions, the deadlock of apps/pred_short_phases) and must not occur
 * inside another phase of the signature. The answer depends on the
 * signature alone, so it is the same on every rank. The remaining risk (the
 * phase's calls also occur outside the signature's phases) is documented;
 * the watchdog of `augur predict` ends such a run. */
static int sync_votes_safe(void) {
  int si = -1;
  for (uint32_t i = 0; i < sig->nphases; i++)
    if (sig->phase[i].sync) si = (int)i;
  if (si < 0 || sig->irregular) return -1;
  const augur_sig_phase *p = &sig->phase[si];
  int coll_everywhere = 1, ok = 1;
  uint32_t *fail = NULL;
  for (uint32_t r = 0; r < sig->nranks && ok; r++) {
    uint32_t n = p->ncalls[r];
    uint32_t *grown = n ? realloc(fail, n * sizeof *fail) : NULL;
    if (!grown) {
      ok = 0;
      break;
    }
    fail = grown;
    int coll = 0;
    for (uint32_t k = 0; k < n; k++)
      coll |= augur_event_is_collective(p->calls[r][k].type) &&
              !augur_event_is_nonblocking(p->calls[r][k].type);
    coll_everywhere &= coll;
    fail_of(p->calls[r], n, fail);
    if (fail[n - 1]) ok = 0;
    for (uint32_t j = 0; j < sig->nphases && ok; j++)
      if ((int)j != si &&
          holds(sig->phase[j].calls[r], sig->phase[j].ncalls[r], p->calls[r], n, fail))
        ok = 0;
  }
  free(fail);
  return ok && !coll_everywhere ? si : -1;
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
  uint8_t cls = 0;
  while (bytes) {
    cls++;
    bytes >>= 1;
  }
  c.size_class = cls;

  ring[ncalls % ring_cap] = ev->t_start - paused;
  int sync_end = 0;
  for (uint32_t i = 0; i < sig->nphases && !sig->irregular; i++) {
    sig_state *s = &st[i];
    if (!s->len) continue;
    while (s->pos && !same(&s->calls[s->pos], &c))
      s->pos = s->fail[s->pos - 1];
    if (same(&s->calls[s->pos], &c)) s->pos++;
    if (s->pos == s->len) {
      uint64_t start = ring[(ncalls + 1 - s->len) % ring_cap];
      on_repetition(i, start, now - paused);
      s->pos = s->fail[s->len - 1];
      /* From the last repetition the plan measures on: a vote before it
       * cannot succeed. */
      if ((int)i == sync_idx && s->seen >= s->start + s->want) sync_end = 1;
    }
  }
  if (sig->irregular) feed_irregular(&c, ev);
  ncalls++;
  if (hb_fd >= 0 && now - hb_last >= HB_EVERY_NS) {
    char what[64];
    snprintf(what, sizeof what, "running (%llu calls, the last %s)", (unsigned long long)ncalls,
             augur_event_name(ev->type));
    heartbeat(what, 0);
  }
  if (!stopping && sync_end) vote("at the end of a repetition of the sync phase");
  if (!stopping && all_rank_collective(ev)) maybe_vote(ev);
}

void aug_sig_feed(augur_event *ev, size_t n) {
  if (!sig || !aug_cfg.signature[0] || stopping) return;
  if (n && ev[0].thread != 0) return; /* only the MPI_Init thread is followed */
  uint64_t now = aug_now();
  for (size_t i = 0; i < n;) {
    size_t nsub = 0;
    while (i + 1 + nsub < n && augur_event_is_sub(ev[i + 1 + nsub].type))
      nsub++;
    /* A poll that found nothing is not a step of the program (as in the
     * logical trace); neither is a stray sub-record. */
    if (!augur_event_is_sub(ev[i].type) && !(ev[i].flags & AUGUR_F_NOTDONE))
      feed_call(&ev[i], nsub, now);
    i += 1 + nsub;
  }
}

void aug_sig_finalize(void) {
  if (!sig || !aug_cfg.signature[0] || stopping) return;
  stopping = 1;
  heartbeat("in MPI_Finalize: the program ran to its end", 1);
  write_results(0);
  PMPI_Comm_free(&vote_comm);
}
