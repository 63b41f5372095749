/* augur diagnose — from groups to findings: windows and totals,
 * master/worker recognition, the significance threshold and ranking, the
 * words (cause, recommendation, what could not be decided), the
 * inefficiency intervals of the active-process timeline and the critical
 * path. docs/diagnose.md, "Findings". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "augur/report.h" /* augur_fmt_callsite, augur_fmt_bytes */
#include "dx_int.h"

#define NS 1e-9

typedef struct fin {
  dx *d;
  augur_diagnosis *out;
  int master;          /* master rank of a master/worker star, or -1 */
  double master_busy;  /* fraction of the master's window not waiting */
  double workers_busy; /* same, over all workers */
  int32_t *fgroup;     /* group of each finding */
  int busy;            /* other processes' time on the ranks' CPUs (the busy-host warning) */
} fin;

/* ---- small text helpers ---- */

/* "main (app.c:42)" or "call site 7" or "an unknown call site". */
static void site_text(augur_trace *t, uint32_t cs, char *buf, size_t n) {
  if (cs)
    augur_fmt_callsite(buf, n, t, cs);
  else
    snprintf(buf, n, "an unknown call site");
}

/* Where a group loses its time: its call site, or for a problem found at
 * several, "N call sites (largest: X)" - the finding lists them all. */
static void group_site_text(augur_trace *t, const dx_group *g, char *buf, size_t n) {
  int k = 1;
  for (int i = 1; i < DX_GROUP_SITES; i++)
    k += g->site_ns[i] > 0;
  if (k == 1 || g->pattern == AUGUR_DX_SLOW_COMMUNICATION) {
    site_text(t, g->callsite, buf, n);
    return;
  }
  char one[200];
  site_text(t, g->callsite, one, sizeof one);
  snprintf(buf, n, "%d call sites (most at %s)", k, one);
}

/* "1-3,5" from a rank bitmap. */
static void ranks_text(const uint64_t *bits, uint32_t nranks, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = '\0';
  for (uint32_t r = 0; r < nranks && len + 24 < n;) {
    if (!(bits[r / 64] >> (r % 64) & 1)) {
      r++;
      continue;
    }
    uint32_t e = r;
    while (e + 1 < nranks && (bits[(e + 1) / 64] >> ((e + 1) % 64) & 1))
      e++;
    len += (size_t)snprintf(buf + len, n - len, len ? "," : "");
    len += (size_t)(e > r ? snprintf(buf + len, n - len, "%u-%u", r, e)
                          : snprintf(buf + len, n - len, "%u", r));
    r = e + 1;
  }
  if (len + 24 >= n) snprintf(buf + len, n - len, ",...");
}

static uint32_t count_bits(const uint64_t *bits, uint32_t nranks) {
  uint32_t c = 0;
  for (uint32_t r = 0; r < nranks; r++)
    c += (uint32_t)(bits[r / 64] >> (r % 64) & 1);
  return c;
}

static int has_rank(const uint64_t *bits, uint32_t r) {
  return (int)(bits[r / 64] >> (r % 64) & 1);
}

/* 1 if every rank of the group (waiting ones and partners) recorded the
 * same host: advice that moves ranks closer has nothing to move. */
static int one_host(const dx *d, const dx_group *g) {
  const char *h = NULL;
  for (uint32_t r = 0; r < d->nranks; r++) {
    if (!has_rank(g->rankbits, r) && !has_rank(g->partnerbits, r)) continue;
    const augur_rank_def *def = augur_trace_rank(d->trace, r);
    if (!def || !def->host) return 0;
    if (!h)
      h = def->host;
    else if (strcmp(h, def->host))
      return 0;
  }
  return h != NULL;
}

static int majority(const dx_group *g) {
  int best = DX_DATA_UNKNOWN;
  uint64_t n = 0;
  for (int k = DX_DATA_SAME; k < DX_DATA_N; k++)
    if (g->data[k] > n) {
      n = g->data[k];
      best = k;
    }
  return g->data[DX_DATA_UNKNOWN] > n ? DX_DATA_UNKNOWN : best;
}

/* ---- windows ---- */

static void windows(fin *F) {
  dx *d = F->d;
  augur_diagnosis *o = F->out;
  uint64_t b = UINT64_MAX, e = 0;
  double proc = 0;
  for (uint32_t i = 0; i < d->nranks; i++) {
    dx_rank *r = &d->ranks[i];
    if (!r->started) continue;
    if (!r->finalized) r->win_end = r->last_end;
    if (r->win_end < r->win_start) r->win_end = r->win_start;
    proc += (double)(r->win_end - r->win_start);
    if (r->win_start < b) b = r->win_start;
    if (r->win_end > e) e = r->win_end;
  }
  if (b == UINT64_MAX) b = e = 0;
  o->nranks = d->nranks;
  o->t_begin = b;
  o->t_end = e;
  o->total_seconds = (double)(e - b) * NS;
  o->process_seconds = proc * NS;
}

/* ---- master/worker: one rank talks to all others, the others only to it ---- */

static void master_worker(fin *F) {
  dx *d = F->d;
  F->master = -1;
  if (d->nranks < 3) return;
  int m = -1;
  for (uint32_t i = 0; i < d->nranks; i++)
    if (d->ranks[i].many_peers) {
      if (m >= 0) return; /* two hubs: not a star */
      m = (int)i;
    }
  if (m < 0) return;
  /* workers both receive work from the master and send results back (a
   * hand-made multicast is a star too, but one-way) */
  for (uint32_t i = 0; i < d->nranks; i++) {
    const dx_rank *r = &d->ranks[i];
    if ((int)i != m && (r->many_peers || r->peer != (uint32_t)m || !r->did_send || !r->did_recv))
      return;
  }
  F->master = m;
  double mw = 0, mwin = 0, ww = 0, wwin = 0;
  for (size_t k = 0; k < d->groups.n; k++) {
    dx_group *g = &d->groups.g[k];
    if (g->pattern != AUGUR_DX_LATE_SENDER && g->pattern != AUGUR_DX_SERIALIZATION &&
        g->pattern != AUGUR_DX_MULTIPLE_OUTPUT)
      continue;
    int on_master = has_rank(g->rankbits, (uint32_t)m);
    uint32_t n = count_bits(g->rankbits, d->nranks);
    if (on_master && n > 1) {
      /* the master and its workers wait at one call site (a receive routine both call):
       * the larger side is the finding. The master's waits: hub_ns (it alone talks to
       * several ranks) and those before it had a second peer. */
      const dx_rank *M = &d->ranks[m];
      if (M->pre_group1 == k + 1) g->hub_ns += M->pre_ns, g->hub_n += M->pre_n;
      int hub = g->hub_ns * 2 > g->ns;
      dx_group_keep_side(d, g, (uint32_t)m, hub);
      on_master = hub;
      n = hub ? 1 : n - 1;
    }
    if (on_master && n == 1) {
      g->pattern = AUGUR_DX_WORKERS_BOUND;
      mw += (double)g->ns;
    } else if (!on_master && g->partner == (uint32_t)m) {
      g->pattern = AUGUR_DX_MASTER_BOUND;
      ww += (double)g->ns;
    }
  }
  /* relabelled groups of one situation become one */
  for (size_t i = 0; i < d->groups.n; i++)
    for (size_t j = i + 1; j < d->groups.n; j++) {
      dx_group *a = &d->groups.g[i], *b = &d->groups.g[j];
      if (a->ns && b->ns && a->pattern == b->pattern && a->callsite == b->callsite &&
          a->upstream == b->upstream) {
        dx_group_merge(d, a, b);
        b->into = (int32_t)i;
      }
    }
  for (uint32_t i = 0; i < d->nranks; i++) {
    double w = (double)(d->ranks[i].win_end - d->ranks[i].win_start);
    if ((int)i == m)
      mwin += w;
    else
      wwin += w;
  }
  F->master_busy = mwin > 0 ? 1 - mw / mwin : 1;
  F->workers_busy = wwin > 0 ? 1 - ww / wwin : 1;
}

/* ---- problems: one situation over the call sites of one exchange ---- */

static int32_t resolved(const dx *d, int32_t g) {
  while (g >= 0 && d->groups.g[g].into >= 0)
    g = d->groups.g[g].into;
  return g;
}

/* The same problem (KappaPi step 3: the recurring situation, summed): same
 * pattern, same cause (upstream), the same ranks losing the time because of
 * the same ranks. Where in the code it happens does not split it. */
static int same_problem(const dx *d, const dx_group *a, const dx_group *b) {
  size_t w = (d->nranks + 63) / 64;
  /* Data movement in collectives of one communicator by one MPI call: every
   * member takes part in each instance, so ranks that reach it from their
   * own call sites (the root's MPI_IN_PLACE branch) share the problem. */
  if (a->pattern == b->pattern &&
      (a->pattern == AUGUR_DX_COLLECTIVE_VOLUME || a->pattern == AUGUR_DX_IO_COLLECTIVE))
    return a->comm == b->comm && a->comm != UINT64_MAX && a->call_type == b->call_type;
  /* OpenMP groups are per region or construct: each its own finding */
  return a->pattern < AUGUR_DX_FIRST_OMP && a->pattern == b->pattern &&
         a->wait_state == b->wait_state && a->upstream == b->upstream &&
         !memcmp(a->rankbits, b->rankbits, w * sizeof(uint64_t)) &&
         !memcmp(a->partnerbits, b->partnerbits, w * sizeof(uint64_t));
}

/* Merges each problem's groups into its largest; LATE: the late_arrival
 * groups (after their upstreams are merged), else all the others. */
static void merge_problems(dx *d, int late) {
  for (size_t i = 0; i < d->groups.n; i++) {
    dx_group *a = &d->groups.g[i];
    if (late) a->upstream = resolved(d, a->upstream);
    if (!a->ns || (a->pattern == AUGUR_DX_LATE_ARRIVAL) != late) continue;
    for (size_t j = i + 1; j < d->groups.n; j++) {
      dx_group *b = &d->groups.g[j];
      if (late) b->upstream = resolved(d, b->upstream);
      if (!b->ns || !same_problem(d, a, b)) continue;
      if (b->ns > a->ns) { /* the largest keeps it: its call site comes first */
        dx_group_merge(d, b, a);
        a->into = (int32_t)j;
        break;
      }
      dx_group_merge(d, a, b);
      b->into = (int32_t)i;
    }
  }
}

static void problems(fin *F) {
  merge_problems(F->d, 0);
  merge_problems(F->d, 1);
}

/* Workers that would keep master and workers equally busy: the task rate
 * the master sustains (busy fraction / its time per task) equals what n
 * workers sustain, so n_opt = n x workers_busy / master_busy. */
static long balanced_workers(const fin *F) {
  double n = (double)(F->d->nranks - 1);
  double mb = F->master_busy > 0.01 ? F->master_busy : 0.01;
  double v = n * F->workers_busy / mb;
  return v < 1 ? 1 : (long)(v + 0.5);
}

/* ---- words ---- */

/* The one placement fix for time spent waiting for a CPU (run-delay counters): with more
 * ranks than CPUs, run at most one rank per CPU; on a busy host, run on CPUs of your own. */
/* "N ranks share C CPUs on host H": the busiest host of an oversubscribed run. */
static void ranks_share(const augur_diagnosis *o, char *buf, size_t n) {
  snprintf(buf, n, "%u ranks share %u CPU%s on host %s", o->busiest_ranks, o->busiest_cores,
           o->busiest_cores == 1 ? "" : "s", o->busiest_host);
}

static void cpu_fix(const fin *F, char *buf, size_t n) {
  const augur_diagnosis *o = F->out;
  char share[160];
  ranks_share(o, share, sizeof share);
  if (o->oversubscribed)
    snprintf(buf, n, "run at most one rank per CPU (%s: fewer ranks per node, or more nodes)",
             share);
  else
    snprintf(buf, n,
             "run on CPUs of your own (other processes ran on them: an idle node, or pin the "
             "ranks away from the other work)");
}

/* Said in the cause of waits for late senders: how much of the wait the senders were waiting
 * for a CPU before their sends (run-delay counters); when it is most of the waits, the
 * placement comes first in the fix. */
static void sender_cpu(const fin *F, const dx_group *g, char **cause, char **rec) {
  double cpu = (double)g->excess_delay_ns * NS;
  /* none recorded: that rules the CPU out, said as such (not "up to 0.000 s") */
  char *c2 =
      !g->excess_delay_ns
          ? dx_strdup_printf("%s The senders did not wait for a CPU before these sends.", *cause)
          : dx_strdup_printf("%s Up to %.3f s of the %.3f s waited, the senders were "
                             "waiting for a CPU.",
                             *cause, cpu, (double)g->ns * NS);
  char fix[256];
  cpu_fix(F, fix, sizeof fix);
  char *r2 = cpu * 2 >= (double)g->ns * NS
                 ? dx_strdup_printf("Most of the wait is the senders waiting for a CPU: %s "
                                    "first. Then: %s",
                                    fix, *rec)
                 : NULL;
  if (c2) free(*cause), *cause = c2;
  if (r2) free(*rec), *rec = r2;
}

/* Uneven work (load_imbalance, io_imbalance) on a host where the late rank also waited at
 * least half the lateness for a CPU: both are true, the fix says both. */
static void also_cpu(const fin *F, const dx_group *g, char **rec) {
  double cpu = (double)g->excess_delay_ns * NS, late_s = (double)g->lateness_ns * NS;
  if (!dx_has_cpu_wait(F->d) || cpu * 2 < late_s) return;
  char fix[256];
  cpu_fix(F, fix, sizeof fix);
  char *r2 = dx_strdup_printf("%s The late rank also waited up to %.3f s of the %.3f s for a "
                              "CPU: %s too.",
                              *rec, cpu, late_s, fix);
  if (r2) free(*rec), *rec = r2;
}

/* Threads waiting at a region's barrier on a host where they may wait for a CPU (more threads
 * than CPUs, or a busy host): the trace cannot tell how much, OpenMP records carry no counters
 * (docs/openmp.md "Records"), so the cause says so and the placement comes before balancing. */
static void omp_cpu(const fin *F, char **cause, char **rec) {
  const dx *d = F->d;
  const augur_diagnosis *o = F->out;
  int threads = d->omp_host_cpus && d->omp_host_threads > d->omp_host_cpus;
  if (!threads && !o->oversubscribed && !F->busy) return;
  char why[200];
  if (threads)
    snprintf(why, sizeof why, "%u threads share %u CPU%s on host %s", d->omp_host_threads,
             d->omp_host_cpus, d->omp_host_cpus == 1 ? "" : "s", d->omp_host);
  else if (o->oversubscribed)
    ranks_share(o, why, sizeof why);
  else
    snprintf(why, sizeof why, "The ranks waited %.3f s for a CPU while other processes ran",
             o->run_delay_seconds);
  char *c2 = dx_strdup_printf("%s %s, so part of that time may be threads that were ready but not "
                              "running: the trace cannot tell how much (OpenMP records carry no "
                              "wait-for-a-CPU counter), the threads' work is compared in "
                              "wall-clock time.",
                              *cause, why);
  char *r2 =
      dx_strdup_printf("Part of the wait may be threads waiting for a CPU: %s, then diagnose "
                       "again. If the wait stays: %s",
                       threads || o->oversubscribed
                           ? "run at most one thread per CPU (threads per rank x ranks per node "
                             "no more than its CPUs: OMP_NUM_THREADS, fewer ranks per node)"
                           : "run on CPUs of your own (an idle node, or pin the ranks away from "
                             "the other work)",
                       *rec);
  if (c2) free(*cause), *cause = c2;
  if (r2) free(*rec), *rec = r2;
}

static int words(fin *F, const dx_group *g, augur_dx_finding *f, int upstream_index) {
  dx *d = F->d;
  char site[256], psite[256], rk[128];
  group_site_text(d->trace, g, site, sizeof site);
  site_text(d->trace, g->partner_cs, psite, sizeof psite);
  ranks_text(g->rankbits, d->nranks, rk, sizeof rk);
  /* "Rank 2 waits" / "Ranks 2-3 wait", "rank 1 sends" / "ranks 1-2 send" */
  int many = count_bits(g->rankbits, d->nranks) > 1;
  int pmany = count_bits(g->partnerbits, d->nranks) > 1;
  char who[160];
  snprintf(who, sizeof who, "%s %s", many ? "Ranks" : "Rank", rk);
  const char *wait = many ? "wait" : "waits", *block = many ? "block" : "blocks";
  const char *sends = pmany ? "send" : "sends", *is = pmany ? "are" : "is";
  const char *computes = pmany ? "compute" : "computes", *fw = pmany ? "forward" : "forwards";
  char partner[176], pr[100];
  ranks_text(g->partnerbits, d->nranks, pr, sizeof pr);
  /* several partners, one of them behind at least two thirds of the time (twice all the
   * others together: a bar near half flips with noise between two even partners): say which */
  const int32_t top_rank = f->top_partner; /* fill_finding's */
  const double top_share = f->top_partner_share;
  char pfix[176];    /* whom the fix is for: that one rank, or all of them */
  int fmany = pmany; /* pfix is several ranks */
  if (pmany && top_rank >= 0 && top_share * 3 >= 2) {
    fmany = 0;
    snprintf(partner, sizeof partner, "ranks %s (rank %d for %.0f %% of the time)", pr, top_rank,
             100 * top_share);
    snprintf(pfix, sizeof pfix, "rank %d", top_rank);
  } else {
    snprintf(partner, sizeof partner, "%s %s", pmany ? "ranks" : "rank", pr);
    snprintf(pfix, sizeof pfix, "%s", partner);
  }
  const char *fsends = fmany ? "send" : "sends";
  int data = majority(g);
  const char *nohash = "the trace has no payload fingerprints (record with --payload-hash)";
  char *cause = NULL, *rec = NULL, *und = NULL;
  /* who arrives last at the group's collectives: one rank most of the time? */
  double late_share = g->syncs ? (double)g->late_votes / (double)g->syncs : 0;
  char late[64] = "a different rank each time";
  if (g->late_rank < d->nranks && late_share > 0.5)
    snprintf(late, sizeof late, "rank %u", g->late_rank);
  switch (g->pattern) {
  case AUGUR_DX_LATE_SENDER:
    if (g->post_cs) { /* the wait completes a receive posted elsewhere: name both */
      char post[256];
      site_text(d->trace, g->post_cs, post, sizeof post);
      cause = dx_strdup_printf("%s %s in %s for messages that %s %s late, from %s; the receives "
                               "are posted at %s.",
                               who, wait, site, partner, sends, psite, post);
      rec = dx_strdup_printf("Send earlier on %s (before the computation that precedes %s), or "
                             "compute more between posting the receive at %s and waiting at %s.",
                             pfix, psite, post, site);
    } else {
      cause = dx_strdup_printf("%s %s in %s for messages that %s %s late, from %s.", who, wait,
                               site, partner, sends, psite);
      rec = dx_strdup_printf("Send earlier on %s (before the computation that precedes %s), or "
                             "post the receive as MPI_Irecv and compute until the data is needed.",
                             pfix, psite);
    }
    break;
  case AUGUR_DX_LATE_RECEIVER: {
    /* The receives are MPI_Irecv already (most of them): posting them earlier means before
     * the computation that precedes them, for an iterative exchange the next iteration's
     * into a second buffer (PRK Stencil at 2 ranks: "MPI_Irecv before its computation" for
     * an MPI_Irecv). */
    char post_earlier[768];
    if (g->recv_nb * 2 > g->recv_n)
      snprintf(post_earlier, sizeof post_earlier,
               "Post the receive at %s earlier on %s: it is nonblocking already, so before the "
               "computation that precedes it (in a loop, the next iteration's MPI_Irecv into a "
               "second buffer before this iteration's computation)",
               psite, pfix);
    else
      snprintf(post_earlier, sizeof post_earlier,
               "Post the receive earlier on %s (MPI_Irecv before its computation)", pfix);
    if (g->post_cs) { /* the wait completes a nonblocking send posted elsewhere */
      char post[256];
      site_text(d->trace, g->post_cs, post, sizeof post);
      cause = dx_strdup_printf(
          "%s %s in %s until %s post%s the receive at %s: the nonblocking sends posted at %s "
          "are synchronous or rendezvous messages, which cannot complete before their receive "
          "exists.%s",
          who, wait, site, partner, pmany ? "" : "s", psite, post,
          d->rendezvous_min ? " Standard sends of this size wait for their receive here." : "");
      rec = dx_strdup_printf("%s, or compute more between posting the send at %s and waiting "
                             "at %s.",
                             post_earlier, post, site);
      break;
    }
    cause = dx_strdup_printf(
        "%s %s in the synchronous or rendezvous send at %s until %s post%s the "
        "receive at %s.%s",
        who, block, site, partner, pmany ? "" : "s", psite,
        d->rendezvous_min ? " Standard sends of this size wait for their receive here." : "");
    rec = dx_strdup_printf("%s, or send with MPI_Isend and complete it later.", post_earlier);
    break;
  }
  case AUGUR_DX_WRONG_ORDER:
    cause = dx_strdup_printf("%s %s in %s for a message from %s while messages sent "
                             "earlier are already waiting to be received.",
                             who, wait, site, partner);
    if (g->post_cs) { /* the receives are posted elsewhere already: the order is the waits' */
      char post[256];
      site_text(d->trace, g->post_cs, post, sizeof post);
      rec = dx_strdup_printf("The receives are already posted (at %s): complete them with "
                             "MPI_Waitany or MPI_Waitsome instead of one wait each in a fixed "
                             "order at %s, and work on each message as it arrives.",
                             post, site);
    } else
      rec = dx_strdup_printf("Receive in the order the messages are sent (or post MPI_Irecv for "
                             "all of them and complete them with MPI_Waitany), so that no rank "
                             "waits for the last message while the first ones are there.");
    break;
  case AUGUR_DX_WAIT_AT_BARRIER:
  case AUGUR_DX_WAIT_AT_COLLECTIVE:
  case AUGUR_DX_LOAD_IMBALANCE: {
    /* What the last to arrive did more than the first, since their previous
     * collective: the cause states it, the fix follows the largest part. */
    double comp = (double)g->excess_compute_ns * NS, wt = (double)g->excess_wait_ns * NS;
    double mpi = (double)g->excess_mpi_ns * NS, late_s = (double)g->lateness_ns * NS;
    const char *what = g->pattern == AUGUR_DX_WAIT_AT_BARRIER ? "the barrier" : "the collective";
    /* waiting for a CPU (the run-delay counters, recorded with more ranks than CPUs): part
     * of the computed time, or where no part was measured (descheduled in the previous
     * collective, it leaves that one late) */
    int has_delay = dx_has_cpu_wait(d);
    double cpu = (double)g->excess_delay_ns * NS;
    char cpu_txt[96] = "", net_txt[96] = "";
    if (has_delay) {
      snprintf(cpu_txt, sizeof cpu_txt, "; up to %.3f s of the lateness it waited for a CPU", cpu);
      /* the computation's wall-clock time holds the wait for a CPU in it: the work is the rest */
      comp = (double)g->excess_oncpu_ns * NS;
      snprintf(net_txt, sizeof net_txt, " (%.3f s on a CPU: the rest it waited for one)", comp);
    }
    cause = dx_strdup_printf(
        "%s %s in %s at %s for the last rank to arrive (%s). Summed over %llu instances it "
        "arrives %.3f s late, having computed %.3f s more%s, waited %.3f s more and spent "
        "%.3f s more in other MPI calls than the first to arrive%s.",
        who, wait, what, site, late, (unsigned long long)g->syncs, late_s,
        (double)g->excess_compute_ns * NS, net_txt, wt, mpi, cpu_txt);
    double top = comp > mpi ? (comp > wt ? comp : wt) : (mpi > wt ? mpi : wt);
    int balance = 0; /* the fix is to balance the computation */
    const char *from = g->late_rank < d->nranks && late_share > 0.5 ? late : "the late ranks";
    /* the CPU wait first when it explains half the lateness (the calls' time holds it too),
     * unless the extra computation on a CPU is the larger part: then the work is uneven */
    if (g->pattern != AUGUR_DX_LOAD_IMBALANCE && cpu * 2 >= late_s &&
        !(top == comp && comp >= cpu)) {
      char fix[256];
      cpu_fix(F, fix, sizeof fix);
      rec = dx_strdup_printf("The late rank was waiting for a CPU, so every collective waits "
                             "for the ranks that are not running: %s; the synchronisation at "
                             "%s is not the problem.",
                             fix, site);
    } else if (g->pattern == AUGUR_DX_LOAD_IMBALANCE || (top == comp && comp * 2 >= late_s)) {
      balance = 1;
      rec = dx_strdup_printf("Balance the computation before %s: move work from %s to the "
                             "ranks that wait, or drop the synchronisation if it is not needed.",
                             site, from);
    } else if (top == mpi && mpi * 2 >= late_s)
      rec = dx_strdup_printf("The late ranks spend more time in MPI calls that do not wait "
                             "(sends, copies, other collectives) before %s: spread that "
                             "communication evenly, overlap it (nonblocking calls), or drop "
                             "the synchronisation if it is not needed.",
                             site);
    else if (top == wt && wt * 2 >= late_s)
      rec = dx_strdup_printf("The late ranks wait more before %s: fix those waits (see the "
                             "point-to-point findings), then this one shrinks.",
                             site);
    else
      rec = dx_strdup_printf("No measured part explains most of the lateness (computation, "
                             "waits and MPI time since the previous collective): the late rank "
                             "changes or was not running (more ranks than cores, system noise). "
                             "Drop the synchronisation at %s if it is not needed.",
                             site);
    if (rec && g->pattern == AUGUR_DX_LOAD_IMBALANCE) also_cpu(F, g, &rec);
    /* a busy host without per-call CPU waits in the trace (not busy at MPI_Init, or
     * --counters none): the ranks' CPU wait over the run, when it could be half the
     * lateness, may be what looks like more computation (NPB EP B beside other jobs:
     * 0.55 s late, 0.77 s waited for a CPU, "Balance the computation" alone) */
    if (rec && balance && !dx_has_cpu_wait(d) && F->busy &&
        F->out->run_delay_seconds * 2 >= late_s) {
      char *r2 = dx_strdup_printf(
          "%s The host was busy (the ranks waited %.3f s for a CPU in all, and the trace has no "
          "per-call CPU waits): the late rank may have waited for a CPU rather than computed "
          "more; before moving work, diagnose a recording made on an idle host or with "
          "--counters run-delay.",
          rec, F->out->run_delay_seconds);
      if (r2) free(rec), rec = r2;
    }
    /* more work or slower execution: a question only where the fix is to balance the work
     * (not where the late rank computed nothing more on a CPU) */
    if (!F->out->has_counters && balance)
      und = dx_strdup_printf("whether the late ranks do more work or run slower: the trace has "
                             "no instruction counters");
    break;
  }
  case AUGUR_DX_IO_SERIALISED:
  case AUGUR_DX_IO_SMALL_REQUESTS:
  case AUGUR_DX_IO_IMBALANCE:
  case AUGUR_DX_IO_COLLECTIVE:
    if (dx_io_words(d, g, many, who, wait, site, late, &cause, &rec)) return -1;
    if (g->pattern == AUGUR_DX_IO_IMBALANCE && dx_has_cpu_wait(d) && cause && rec) {
      char *c2 = dx_strdup_printf("%s Up to %.3f s of the lateness it waited for a CPU.", cause,
                                  (double)g->excess_delay_ns * NS);
      if (c2) free(cause), cause = c2;
      also_cpu(F, g, &rec);
    }
    break;
  case AUGUR_DX_LATE_BROADCAST:
    cause = dx_strdup_printf("%s %s in %s because the root, %s, enters the broadcast "
                             "late (at %s).",
                             who, wait, site, partner, psite);
    rec = dx_strdup_printf("Let %s reach the broadcast earlier (move its extra work after the "
                           "broadcast or to the other ranks), or use MPI_Ibcast.",
                           pfix);
    break;
  case AUGUR_DX_EARLY_REDUCE:
    cause = dx_strdup_printf("The root, rank %s, waits in %s for the other ranks to reach the "
                             "reduction (last: %s).",
                             rk, site, partner);
    rec = dx_strdup_printf("Give the root work to do before the reduction, or use "
                           "MPI_Ireduce and complete it when the result is needed.");
    break;
  case AUGUR_DX_BLOCKED_SENDER: {
    /* the rest of the waits the forwarder processed the data: on a CPU, or (run-delay
     * counters) waiting for one */
    double chain = (double)g->chain_ns * NS, rest = (double)g->ns * NS - chain;
    char proc[128] = ", and computed the rest";
    if (dx_has_cpu_wait(d) && !g->excess_delay_ns) /* ruled out, not "up to 0.000 s" */
      snprintf(proc, sizeof proc, "; the rest it processed the data, without waiting for a CPU");
    else if (dx_has_cpu_wait(d))
      snprintf(proc, sizeof proc,
               "; the rest it processed the data, up to %.3f s of it waiting "
               "for a CPU",
               (double)g->excess_delay_ns * NS);
    cause = dx_strdup_printf(
        "%s %s in %s for %s, which %s blocked too, waiting for a message from a third rank, "
        "and %s at %s after it: a chain of blocked senders (the sender was blocked during "
        "%.3f s of the %.3f s waited%s).",
        who, wait, site, partner, is, fw, psite, chain, (double)g->ns * NS, proc);
    if (data == DX_DATA_SAME)
      rec = dx_strdup_printf("The forwarded data is the data received: let its origin send it "
                             "to every rank that needs it (MPI_Bcast or direct sends).");
    else if (data == DX_DATA_INDEPENDENT)
      rec = dx_strdup_printf("The data %s %s does not come from what it receives: swap the "
                             "receive and the send on %s so that %s first.",
                             pfix, fsends, pfix, fmany ? "they send" : "it sends");
    else if (data == DX_DATA_MODIFIED)
      rec = dx_strdup_printf("%s %s a modification of what it receives: send the data to "
                             "%s as early as possible, so the chain starts sooner.",
                             pfix, fsends, pfix);
    else {
      rec = dx_strdup_printf("Break the chain: send from the origin directly, or let %s send "
                             "before it receives if its data does not depend on it.",
                             pfix);
      und =
          dx_strdup_printf("whether the forwarded data is the same, modified or independent: "
                           "%s",
                           d->has_hashes ? "the fingerprints disagree between instances" : nohash);
    }
    /* its own CPU test: the forwarder's processing was mostly a wait for a CPU */
    double cpu = (double)g->excess_delay_ns * NS;
    if (rec && dx_has_cpu_wait(d) && rest > 0 && cpu * 2 >= rest) {
      char fix[256], *r2;
      cpu_fix(F, fix, sizeof fix);
      r2 = dx_strdup_printf("%s The forwarding %s waited for a CPU up to %.3f s of the %.3f s "
                            "it processed: %s too.",
                            rec, pmany ? "ranks" : "rank", cpu, rest, fix);
      if (r2) free(rec), rec = r2;
    }
    break;
  }
  case AUGUR_DX_MULTIPLE_OUTPUT:
    cause = dx_strdup_printf("%s %s in %s while %s %s to the other receivers one "
                             "after another with point-to-point messages.",
                             who, wait, site, partner, sends);
    if (data == DX_DATA_SAME)
      rec = dx_strdup_printf("Every receiver gets the same data: use MPI_Bcast from %s.", pfix);
    else if (data == DX_DATA_DIFFERENT)
      rec = dx_strdup_printf("Each receiver gets its own part: use MPI_Scatter(v) from %s.", pfix);
    else {
      rec = dx_strdup_printf("Use a collective from %s (MPI_Bcast for the same data, "
                             "MPI_Scatterv for different parts).",
                             pfix);
      und = dx_strdup_printf("whether the receivers get the same or different data: %s",
                             d->has_hashes ? "fingerprints missing for some messages" : nohash);
    }
    break;
  case AUGUR_DX_MASTER_BOUND:
    cause = dx_strdup_printf("Workers %s wait for tasks from the master, rank %d: the master "
                             "is busy %.0f %% of its time, the workers %.0f %%.",
                             rk, F->master, 100 * F->master_busy, 100 * F->workers_busy);
    rec = dx_strdup_printf("Use about %ld workers instead of %u, or make the master hand out "
                           "work faster (larger tasks, or several masters).",
                           balanced_workers(F), d->nranks - 1);
    break;
  case AUGUR_DX_WORKERS_BOUND:
    cause = dx_strdup_printf("The master, rank %d, waits in %s for results: the workers are "
                             "busy %.0f %% of their time, the master %.0f %%.",
                             F->master, site, 100 * F->workers_busy, 100 * F->master_busy);
    rec = dx_strdup_printf("Add workers: about %ld would keep the master busy (now %u).",
                           balanced_workers(F), d->nranks - 1);
    break;
  case AUGUR_DX_LATE_ARRIVAL: {
    const dx_group *u = g->upstream >= 0 ? &d->groups.g[g->upstream] : NULL;
    char usite[256] = "";
    if (u) site_text(d->trace, u->callsite, usite, sizeof usite);
    cause = dx_strdup_printf("%s %s at %s for %s, which arrives late because it waited "
                             "itself before (%s at %s)%s.",
                             who, wait, site, late, u ? augur_dx_pattern_id(u->pattern) : "?",
                             usite, upstream_index >= 0 ? "" : ", a finding below the threshold");
    if (upstream_index >= 0)
      rec = dx_strdup_printf("A consequence: fixing finding %d (%s) removes this wait too.",
                             upstream_index + 1, u ? augur_dx_pattern_id(u->pattern) : "?");
    else
      rec = dx_strdup_printf("A consequence of the waits at %s: fix those first.", usite);
    break;
  }
  case AUGUR_DX_SERIALIZATION:
    cause = dx_strdup_printf("%s %s in %s while %s %s and every other rank waits "
                             "too: the work is done one rank at a time.",
                             who, wait, site, partner, computes);
    rec = dx_strdup_printf("Let the ranks work at the same time: split the serial work, "
                           "pipeline it in smaller pieces, or start independent work before "
                           "waiting.");
    break;
  case AUGUR_DX_SLOW_COMMUNICATION:
    cause = dx_strdup_printf("%s spend%s the time moving large messages (at least %u KiB) "
                             "between %s and %s: the wait equals the transfer time.",
                             who, many ? "" : "s", DX_LARGE_MESSAGE / 1024, psite, site);
    if (!one_host(d, g))
      rec = dx_strdup_printf("Place the communicating ranks closer (same node or socket), send "
                             "less data, or overlap the transfer with computation "
                             "(MPI_Isend/MPI_Irecv).");
    else if (F->out->oversubscribed)
      rec = dx_strdup_printf("The ranks already share a node, with more ranks than CPUs (%u on "
                             "%u): run fewer ranks per node, send less data, or overlap the "
                             "transfer with computation (MPI_Isend/MPI_Irecv).",
                             F->out->busiest_ranks, F->out->busiest_cores);
    else
      rec = dx_strdup_printf("The ranks already share a node: send less data, or overlap the "
                             "transfer with computation (MPI_Isend/MPI_Irecv).");
    break;
  case AUGUR_DX_COLLECTIVE_VOLUME: {
    char vol[32];
    augur_fmt_bytes(vol, sizeof vol, g->bytes);
    const char *call = g->call_type ? augur_event_name(g->call_type) : "the collectives";
    int a2a = g->call_type == AUGUR_EV_ALLTOALL || g->call_type == AUGUR_EV_ALLTOALLV ||
              g->call_type == AUGUR_EV_ALLTOALLW;
    cause =
        dx_strdup_printf("%s spend%s the time in %s at %s moving data (%s over %llu calls), "
                         "after every rank has arrived: the transfer itself, not a wait.",
                         who, many ? "" : "s", call, site, vol, (unsigned long long)g->instances);
    if (a2a)
      rec = dx_strdup_printf("Move less data in the all-to-all: reduce or aggregate what each "
                             "rank sends, transpose less often or choose a decomposition that "
                             "needs fewer all-to-all exchanges, or overlap it with computation "
                             "(MPI_Ialltoall).");
    else
      rec = dx_strdup_printf("Move less data through %s (send only what each rank needs, in "
                             "fewer or smaller calls), or overlap it with computation (its "
                             "nonblocking form).",
                             call);
    break;
  }
  case AUGUR_DX_POLLING: {
    const char *call = g->call_type ? augur_event_name(g->call_type) : "MPI_Test";
    cause = dx_strdup_printf("%s spend%s the time in %llu calls of %s at %s that found nothing "
                             "done: polling in a loop.",
                             who, many ? "" : "s", (unsigned long long)g->instances, call, site);
    rec = dx_strdup_printf("Replace the polling loop by a blocking wait (MPI_Wait, MPI_Waitany, "
                           "MPI_Waitall) or do useful work between the tests and test less "
                           "often.");
    break;
  }
  default:
    if (g->pattern >= AUGUR_DX_FIRST_OMP && dx_omp_words(d, g, &cause, &rec)) return -1;
    if (g->pattern == AUGUR_DX_OMP_LOAD_IMBALANCE && cause && rec) omp_cpu(F, &cause, &rec);
    if (dx_rma_words(g, who, site, partner, many, &cause, &rec)) return -1;
    break;
  }
  /* the senders' wait for a CPU before their sends (run-delay counters): part of why they
   * send late, when the receiver waits for them, whatever the order (a chain's forwarders:
   * above) */
  if ((g->pattern == AUGUR_DX_LATE_SENDER || g->pattern == AUGUR_DX_WRONG_ORDER) &&
      dx_has_cpu_wait(d) && cause && rec)
    sender_cpu(F, g, &cause, &rec);
  f->cause = cause;
  f->recommendation = rec;
  f->undecided = und;
  return cause && rec ? 0 : -1;
}

/* ---- findings ---- */

typedef struct cand {
  int32_t g;
  double seconds;
} cand;

static int by_seconds(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->seconds != y->seconds) return x->seconds < y->seconds ? 1 : -1;
  return (x->g > y->g) - (x->g < y->g);
}

static int mark_longer(const void *a, const void *b) {
  const augur_dx_mark *x = a, *y = b;
  uint64_t dx_ = x->t1 - x->t0, dy = y->t1 - y->t0;
  return (dx_ < dy) - (dx_ > dy);
}

static int site_more(const void *a, const void *b) {
  const augur_dx_callsite *x = a, *y = b;
  return (x->seconds < y->seconds) - (x->seconds > y->seconds);
}

static char *dup_or_null(const char *s) {
  return s ? strdup(s) : NULL;
}

/* A call site's name for people and its module and offset, copied (the
 * diagnosis may outlive the trace). */
static void name_site(dx *d, uint32_t id, const char **where, const char **module,
                      uint64_t *offset) {
  char buf[512];
  const char *mod = NULL;
  augur_fmt_callsite(buf, sizeof buf, d->trace, id);
  augur_callsite_place(d->trace, id, &mod, offset);
  *where = strdup(buf);
  *module = dup_or_null(mod);
}

static int fill_finding(fin *F, const dx_group *g, augur_dx_finding *f) {
  dx *d = F->d;
  double proc = F->out->process_seconds;
  f->pattern = g->pattern;
  f->wait_state = g->wait_state;
  f->seconds = (double)g->ns * NS;
  f->share = proc > 0 ? f->seconds / proc : 0;
  f->instances = g->instances;
  f->thread_seconds = (double)g->thread_ns * NS;
  f->threads = g->threads;
  f->top_partner = dx_group_top_partner(&d->groups, g, &f->top_partner_share);
  f->comm = g->comm == UINT64_MAX ? 0 : g->comm;
  f->nranks = count_bits(g->rankbits, d->nranks);
  f->ranks = malloc((f->nranks ? f->nranks : 1) * sizeof *f->ranks);
  f->callsites = calloc(DX_GROUP_SITES, sizeof *f->callsites);
  f->marks = malloc((g->nmarks ? g->nmarks : 1) * sizeof *f->marks);
  if (!f->ranks || !f->callsites || !f->marks) return -1;
  for (uint32_t r = 0, k = 0; r < d->nranks; r++)
    if (has_rank(g->rankbits, r)) f->ranks[k++] = r;
  for (int i = 0; i < DX_GROUP_SITES; i++) {
    if (i > 0 && !g->site_ns[i]) continue;
    augur_dx_callsite *c = &f->callsites[f->ncallsites++];
    augur_srcloc loc;
    memset(&loc, 0, sizeof loc);
    c->id = g->sites[i];
    if (c->id && augur_trace_resolve(d->trace, c->id, &loc) == 0) {
      c->function = dup_or_null(loc.function);
      c->file = dup_or_null(loc.file);
      c->line = loc.line;
    }
    name_site(d, c->id, &c->where, &c->module, &c->offset);
    c->seconds = (double)g->site_ns[i] * NS;
  }
  /* the finding's own call site first, then the others by time */
  if (f->ncallsites > 2)
    qsort(f->callsites + 1, f->ncallsites - 1, sizeof *f->callsites, site_more);
  memcpy(f->marks, g->marks, g->nmarks * sizeof *f->marks);
  f->nmarks = g->nmarks;
  qsort(f->marks, f->nmarks, sizeof *f->marks, mark_longer);
  /* Saving: collectives - the longest wait of each instance (the run
   * shortens by that much if the late rank were on time); imbalance - the
   * lost time spread over all ranks (perfect balance); point-to-point - the
   * mean per waiting rank. Never more than the run. */
  double save;
  if (g->pattern == AUGUR_DX_LOAD_IMBALANCE)
    save = f->seconds / (d->nranks ? d->nranks : 1);
  else if (g->saving_ns)
    save = (double)g->saving_ns * NS;
  else
    save = f->seconds / (f->nranks ? f->nranks : 1);
  f->saving_seconds = save < F->out->total_seconds ? save : F->out->total_seconds;
  return 0;
}

static int findings(fin *F, double min_share) {
  dx *d = F->d;
  augur_diagnosis *o = F->out;
  cand *c = malloc((d->groups.n ? d->groups.n : 1) * sizeof *c);
  if (!c) return -1;
  size_t n = 0;
  for (size_t i = 0; i < d->groups.n; i++) {
    double s = (double)d->groups.g[i].ns * NS;
    if (s <= 0) continue;
    if (o->process_seconds > 0 && s / o->process_seconds < min_share) {
      o->nbelow++;
      o->omp_below += d->groups.g[i].pattern >= AUGUR_DX_FIRST_OMP;
      continue;
    }
    c[n++] = (cand){(int32_t)i, s};
  }
  qsort(c, n, sizeof *c, by_seconds);
  /* A consequence never ranks above its cause: move each late_arrival
   * right after its upstream finding. */
  for (size_t i = 0; i < n; i++) {
    const dx_group *g = &d->groups.g[c[i].g];
    if (g->pattern != AUGUR_DX_LATE_ARRIVAL || g->upstream < 0) continue;
    size_t j = i + 1;
    while (j < n && c[j].g != g->upstream)
      j++;
    if (j == n) continue;
    cand keep = c[i];
    memmove(&c[i], &c[i + 1], (j - i) * sizeof *c);
    c[j] = keep;
    i--; /* look at what moved into slot i */
  }
  o->findings = calloc(n ? n : 1, sizeof *o->findings);
  if (!o->findings) {
    free(c);
    return -1;
  }
  o->nfindings = n;
  F->fgroup = malloc((n ? n : 1) * sizeof *F->fgroup);
  if (!F->fgroup) {
    free(c);
    return -1;
  }
  for (size_t i = 0; i < n; i++)
    F->fgroup[i] = c[i].g;
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    const dx_group *g = &d->groups.g[c[i].g];
    int up = -1;
    for (size_t j = 0; g->upstream >= 0 && j < n; j++)
      if (c[j].g == g->upstream) up = (int)j;
    rc = fill_finding(F, g, &o->findings[i]);
    if (rc == 0) rc = words(F, g, &o->findings[i], up);
  }
  free(c);
  return rc;
}

/* ---- intervals of the active-process timeline ---- */

static int intervals(fin *F) {
  dx *d = F->d;
  augur_diagnosis *o = F->out;
  o->nbins = d->nbins;
  o->bin_ns = d->bin_ns;
  o->active = malloc(d->nbins * sizeof *o->active);
  o->intervals = calloc(20, sizeof *o->intervals);
  if (!o->active || !o->intervals) return -1;
  double P = d->nranks;
  for (uint32_t b = 0; b < d->nbins; b++)
    o->active[b] = (float)(d->busy[b] / (double)d->bin_ns);
  /* bins inside the analysed window only */
  uint64_t b0 = o->t_begin > d->t0 ? (o->t_begin - d->t0) / d->bin_ns : 0;
  uint64_t b1 = o->t_end > d->t0 ? (o->t_end - d->t0) / d->bin_ns : 0;
  if (b1 >= d->nbins) b1 = d->nbins - 1;
  for (uint64_t b = b0; b <= b1 && o->t_end > o->t_begin;) {
    if (o->active[b] > P - 0.5) {
      b++;
      continue;
    }
    uint64_t e = b;
    double lost = 0, mn = P;
    while (e <= b1 && o->active[e] <= P - 0.5) {
      lost += (P - o->active[e]) * (double)d->bin_ns;
      if (o->active[e] < mn) mn = o->active[e];
      e++;
    }
    augur_dx_interval iv = {d->t0 + b * d->bin_ns, d->t0 + e * d->bin_ns, lost * NS, mn, -1};
    /* keep the 20 largest, sorted descending (insertion) */
    size_t k = o->nintervals < 20 ? o->nintervals++ : 19;
    if (k == 19 && o->nintervals == 20 && o->intervals[19].lost_seconds >= iv.lost_seconds) {
      b = e;
      continue;
    }
    while (k > 0 && o->intervals[k - 1].lost_seconds < iv.lost_seconds) {
      o->intervals[k] = o->intervals[k - 1];
      k--;
    }
    o->intervals[k] = iv;
    b = e;
  }
  /* what each interval mostly is: the finding with most lost time in it */
  for (size_t i = 0; i < o->nintervals; i++) {
    augur_dx_interval *iv = &o->intervals[i];
    uint64_t lo = (iv->t0 - d->t0) / d->bin_ns, hi = (iv->t1 - d->t0) / d->bin_ns;
    double best = 0;
    for (size_t f = 0; f < o->nfindings; f++) {
      const dx_group *g = &d->groups.g[F->fgroup[f]];
      if (!g->hist) continue;
      double s = 0;
      for (uint64_t b = lo; b < hi && b < d->nbins; b++)
        s += g->hist[b];
      if (s > best) {
        best = s;
        iv->finding = (int)f;
      }
    }
  }
  return 0;
}

/* ---- critical path ---- */

static int path_more(const void *a, const void *b) {
  const augur_dx_path_site *x = a, *y = b;
  double sx = x->compute_seconds + x->mpi_seconds, sy = y->compute_seconds + y->mpi_seconds;
  return (sx < sy) - (sx > sy);
}

static int critical_path(fin *F) {
  dx *d = F->d;
  augur_diagnosis *o = F->out;
  if (!d->cp || !d->nranks) return 0;
  uint32_t last = 0;
  for (uint32_t i = 1; i < d->nranks; i++)
    if (d->ranks[i].win_end > d->ranks[last].win_end) last = i;
  const uint64_t *v = d->cp + (size_t)last * d->cpw;
  size_t nsites = d->cpw / 2, n = 0;
  double total = 0;
  for (size_t s = 0; s < nsites; s++)
    if (v[2 * s] || v[2 * s + 1]) {
      n++;
      total += (double)(v[2 * s] + v[2 * s + 1]);
    }
  augur_dx_path_site *p = calloc(n ? n : 1, sizeof *p);
  if (!p) return -1;
  size_t k = 0;
  for (size_t s = 0; s < nsites; s++) {
    if (!v[2 * s] && !v[2 * s + 1]) continue;
    p[k].callsite = (uint32_t)s;
    p[k].compute_seconds = (double)v[2 * s] * NS;
    p[k].mpi_seconds = (double)v[2 * s + 1] * NS;
    p[k].share = total > 0 ? (double)(v[2 * s] + v[2 * s + 1]) / total : 0;
    k++;
  }
  qsort(p, n, sizeof *p, path_more);
  if (n > 20) n = 20;
  for (size_t i = 0; i < n; i++) {
    augur_srcloc loc;
    memset(&loc, 0, sizeof loc);
    if (p[i].callsite && augur_trace_resolve(d->trace, p[i].callsite, &loc) == 0) {
      p[i].function = dup_or_null(loc.function);
      p[i].file = dup_or_null(loc.file);
      p[i].line = loc.line;
    }
    name_site(d, p[i].callsite, &p[i].where, &p[i].module, &p[i].offset);
  }
  o->path = p;
  o->npath = n;
  o->path_seconds = total * NS;
  return 0;
}

int dx_note(augur_diagnosis *o, char *s) {
  if (!s) return -1;
  char **nn = realloc(o->notes, (o->nnotes + 1) * sizeof *nn);
  if (!nn) {
    free(s);
    return -1;
  }
  o->notes = nn;
  o->notes[o->nnotes++] = s;
  return 0;
}

/* Where the ranks ran: filled before the findings' words (their advice
 * checks it). */
static int placement(fin *F) {
  augur_diagnosis *o = F->out;
  augur_hosts p;
  if (augur_trace_hosts(F->d->trace, &p, F->d->err) != AUGUR_OK) return -1;
  o->hosts = p.nhosts;
  o->placement_known = (int)p.known;
  o->oversubscribed = p.oversubscribed;
  o->busiest_ranks = p.ranks;
  o->busiest_cores = p.cores;
  snprintf(o->busiest_host, sizeof o->busiest_host, "%s", p.host ? p.host : "");
  o->run_delay_seconds = p.delay_ranks ? (double)p.run_delay_ns * NS : -1;
  o->run_delay_share = p.window_ns ? (double)p.run_delay_ns / (double)p.window_ns : 0;
  /* Other processes on the ranks' CPUs: the ranks waited for a CPU as long as
   * a finding the threshold lets through. */
  F->busy = augur_hosts_busy(&p, o->min_share);
  if (F->busy &&
      !(o->oversubscription = dx_strdup_printf(
            "busy host: the ranks waited %.3f s for a CPU (%.1f %% of their time from MPI_Init "
            "to MPI_Finalize) while other processes ran on their CPUs, so the waits below "
            "include time a rank was ready but not running; diagnose on an idle host",
            o->run_delay_seconds, 100.0 * o->run_delay_share)))
    return -1;
  if (o->oversubscribed &&
      !(o->oversubscription = dx_strdup_printf(
            "oversubscribed: %u ranks on %u CPU%s (host %s%s): ranks also wait for a CPU, so the "
            "waits below include time a rank was ready but not running; run at most one rank "
            "per CPU to diagnose the program",
            o->busiest_ranks, o->busiest_cores, o->busiest_cores > 1 ? "s" : "", o->busiest_host,
            o->oversubscribed > 1 ? ", the busiest" : "")))
    return -1;
  return 0;
}

static int notes(fin *F) {
  dx *d = F->d;
  augur_diagnosis *o = F->out;
  int rc = 0;
  if (!o->placement_known)
    rc |= dx_note(o, dx_strdup_printf("the trace does not say how many CPUs its ranks had "
                                      "(recorders before trace format 1.3 did not record them): "
                                      "oversubscription cannot be detected"));
  if (!d->has_hashes)
    rc |= dx_note(o, dx_strdup_printf("no payload fingerprints: for blocked senders and multiple "
                                      "output the data cases (same, modified, independent, "
                                      "different) cannot be decided; record with --payload-hash"));
  if (d->io_calls)
    rc |= dx_note(o, dx_strdup_printf("%llu MPI-IO calls, %.6f s (%.1f %% of process-time): "
                                      "diagnosed as io_serialised, io_imbalance (waits at "
                                      "collectives), io_small_requests, the waits in "
                                      "synchronising collective calls (open, close, set_view, "
                                      "sync, the data calls) and io_collective; the rest of "
                                      "their time counts as time in MPI (augur report shows it "
                                      "per rank, file and call site)",
                                      (unsigned long long)d->io_calls, (double)d->io_ns * NS,
                                      o->process_seconds > 0
                                          ? 100.0 * (double)d->io_ns * NS / o->process_seconds
                                          : 0.0));
  if (!o->has_counters)
    rc |= dx_note(o, dx_strdup_printf("no hardware counters: imbalance is measured in time, so "
                                      "more work cannot be told from slower execution"));
  if (!d->cp)
    rc |= dx_note(o, dx_strdup_printf("critical path not computed: %u ranks x %zu call sites is "
                                      "too many",
                                      d->nranks, d->cpw / 2));
  augur_match_counts mc;
  augur_match_counts_get(d->matcher, &mc);
  if (mc.unmatched_send || mc.unmatched_recv)
    rc |= dx_note(o, dx_strdup_printf("%llu sends and %llu receives were never matched (a run cut "
                                      "short, or messages outside the trace): their waits are not "
                                      "counted",
                                      (unsigned long long)mc.unmatched_send,
                                      (unsigned long long)mc.unmatched_recv));
  if (d->nranks > DX_SERIAL_MAX_RANKS)
    rc |= dx_note(o, dx_strdup_printf("serialization is only looked for up to %d ranks",
                                      DX_SERIAL_MAX_RANKS));
  rc |= dx_omp_notes(d, o);
  rc |= dx_rma_notes(d, o);
  return rc ? -1 : 0;
}

int dx_finish(dx *d, const augur_dx_options *opt, augur_diagnosis *out) {
  for (uint32_t i = 0; i < d->nranks; i++)
    dx_flush_transfer(d, &d->ranks[i]);
  fin F;
  memset(&F, 0, sizeof F);
  F.d = d;
  F.out = out;
  windows(&F);
  master_worker(&F);
  problems(&F);
  for (int w = 0; w < AUGUR_DX_NWAITSTATES; w++) {
    out->wait_seconds[w] = d->wait_ns[w] * NS;
    out->wait_instances[w] = d->wait_n[w];
  }
  out->has_hashes = d->has_hashes;
  out->omp_ranks = d->omp_ranks;
  out->omp_threads = d->omp_threads;
  out->min_share = opt->min_share > 0 ? opt->min_share : 0.02;
  out->eager_max = d->eager_max;
  out->rendezvous_min = d->rendezvous_min;
  out->eager_given = d->eager_limit_opt != 0;
  out->io_bandwidth = d->io_bw;
  out->io_bandwidth_given = opt->io_bandwidth > 0;
  const char *src = augur_dx_eager_source(out);
  out->eager_limit = out->eager_given                                       ? d->eager_limit_opt
                     : !strcmp(src, "inferred") || !strcmp(src, "at_least") ? d->eager_max
                                                                            : 0;
  int rc = placement(&F) || findings(&F, out->min_share) || intervals(&F) || critical_path(&F) ||
           notes(&F);
  free(F.fgroup);
  if (rc) return augur_fail(d->err, AUGUR_E_NOMEM, "diagnose: out of memory");
  return 0;
}
