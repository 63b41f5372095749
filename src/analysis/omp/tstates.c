/* Thread states of a rank (include/augur/omp.h, docs/pop.md): a stack of
 * open OpenMP constructs per thread; the top of the stack says the state of
 * the time up to the thread's next record, an MPI record's own span is MPI.
 * Parallel-region instances are tracked from OMP_FORK to OMP_JOIN and the
 * end of every member's implicit task, then folded into their call site. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "augur/omp.h"
#include "grow.h"
#include "u64map.h"

const char *augur_tstate_name(unsigned state) {
  static const char *const names[AUGUR_TS_COUNT] = {"mpi",       "omp_wait", "omp_sync",
                                                    "omp_mutex", "omp_fork", "omp_join",
                                                    "idle",      "serial",   "useful"};
  return state < AUGUR_TS_COUNT ? names[state] : "?";
}

enum frame_kind { F_FORK, F_JOIN, F_ITASK, F_WORK, F_SYNC, F_WAIT, F_MUTEX, F_MASKED };

/* OUTSIDE: no construct open; serial or idle once the initial thread is known. */
#define OUTSIDE AUGUR_TS_COUNT

typedef struct frame {
  uint8_t kind;    /* enum frame_kind */
  uint32_t member; /* the thread's index in the team (F_FORK, F_JOIN: 0) */
  uint64_t inst;   /* instance serial (F_FORK, F_JOIN, F_ITASK), else 0 */
} frame;

typedef struct thr {
  uint32_t thread;
  uint64_t last;     /* time accounted for up to here */
  uint64_t last_rec; /* the end of its last record */
  uint64_t records, region_ns;
  uint64_t ns[AUGUR_TS_COUNT + 1]; /* + OUTSIDE */
  frame *st;
  size_t nst, cap;
  /* The interval not yet passed to the callback (pend_b > pend_a). */
  unsigned pend_state;
  uint64_t pend_a, pend_b;
  /* executed a single since its last barrier arrival (at single_cs) */
  int single;
  uint64_t single_cs;
  uint64_t mutex_t, mutex_cs; /* an OMP_MUTEX_ACQUIRE not yet acquired (mutex_t 0: none) */
  uint64_t born;              /* its OMP_THREAD_BEGIN (0: not seen) */
} thr;

/* One parallel region from its fork to its join and the end of every
 * member's implicit task. */
typedef struct inst {
  uint64_t serial, region, callsite;
  uint32_t enc; /* encountering thread (its slot) */
  uint64_t fork_t, join_t;
  int joined;
  uint32_t team, ended, requested;
  uint64_t *useful, *iters, *chunks; /* team entries, once known */
  /* the barrier being reached: each member's arrival (ARRIVED) and whether
   * it executed a single since its previous one (SINGLE, at scs) */
  uint64_t *arr, *scs;
  uint8_t *bflags;
  uint64_t *start; /* each member's OMP_ITASK_BEGIN */
  uint32_t narr;
  uint64_t lastmax; /* the last arrival at its latest complete barrier */
  uint64_t bwait, swait, swait_cs, fork_ns, skew;
  int creating; /* a member's thread began in its fork: the runtime created the team */
} inst;

enum { ARRIVED = 1, SINGLE = 2 };

typedef struct site_acc {
  uint64_t callsite, instances, elapsed;
  uint32_t team, requested;
  uint64_t *useful, *iters, *chunks;
  double lb, sched;
  uint64_t bwait, swait, swait_cs, fork_ns, join_ns, created;
} site_acc;

/* Times per call site (mutex waits, serial sections, MPI outside regions). */
typedef struct csites {
  aug_u64map ix; /* callsite -> slot */
  augur_omp_csite *v;
  size_t n, cap;
} csites;

struct augur_tstates {
  uint32_t rank;
  int started, finalized;
  uint64_t t0, t1, end_seen;
  uint32_t init_thread;
  int have_init;
  uint64_t omp_records, unbalanced, late_ends, next_serial;
  aug_u64map thr_ix; /* thread index -> slot */
  thr *thr;
  size_t nthr, cap_thr;
  inst *open;
  size_t nopen, cap_open;
  aug_u64map site_ix; /* callsite -> slot */
  site_acc *sites;
  size_t nsites, cap_sites;
  augur_tstates_interval_fn on_interval;
  void *on_interval_arg;
  csites mutexes, serial, mpi_serial;
  /* the initial thread since its last join (or the window's start): serial
   * time, MPI time per call site; the region it joined last; regions forked */
  uint64_t serial_acc, prev_region, forks;
  csites mpi_pending;
};

augur_tstates *augur_tstates_new(uint32_t rank) {
  augur_tstates *b = calloc(1, sizeof *b);
  if (b) b->rank = rank;
  return b;
}

static void inst_free(inst *in) {
  free(in->useful);
  free(in->iters);
  free(in->chunks);
  free(in->arr);
  free(in->scs);
  free(in->bflags);
  free(in->start);
}

static void csites_free(csites *c) {
  aug_u64map_free(&c->ix);
  free(c->v);
  memset(c, 0, sizeof *c);
}

/* Adds NS, EDGE and COUNT to CALLSITE's entry; -1 when out of memory. */
static int csites_add(csites *c, uint64_t callsite, uint64_t callsite2, uint64_t ns, uint64_t edge,
                      uint64_t count) {
  int fresh;
  uint32_t *ix = aug_u64map_slot(&c->ix, callsite, &fresh);
  if (!ix) return -1;
  if (fresh) {
    if (aug_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v)) return -1;
    *ix = (uint32_t)c->n;
    c->v[c->n++] = (augur_omp_csite){.callsite = callsite, .callsite2 = callsite2};
  }
  c->v[*ix].ns += ns;
  c->v[*ix].edge_ns += edge;
  c->v[*ix].count += count;
  return 0;
}

/* Moves FROM's times into TO: as between regions, or as edges (EDGE). */
static int csites_move(csites *to, csites *from, int edge) {
  for (size_t i = 0; i < from->n; i++) {
    const augur_omp_csite *x = &from->v[i];
    if (csites_add(to, x->callsite, x->callsite2, edge ? 0 : x->ns, edge ? x->ns : 0, x->count))
      return -1;
  }
  csites_free(from);
  return 0;
}

void augur_tstates_free(augur_tstates *b) {
  if (!b) return;
  for (size_t i = 0; i < b->nthr; i++)
    free(b->thr[i].st);
  free(b->thr);
  for (size_t i = 0; i < b->nopen; i++)
    inst_free(&b->open[i]);
  free(b->open);
  for (size_t i = 0; i < b->nsites; i++) {
    free(b->sites[i].useful);
    free(b->sites[i].iters);
    free(b->sites[i].chunks);
  }
  free(b->sites);
  csites_free(&b->mutexes);
  csites_free(&b->serial);
  csites_free(&b->mpi_serial);
  csites_free(&b->mpi_pending);
  aug_u64map_free(&b->thr_ix);
  aug_u64map_free(&b->site_ix);
  free(b);
}

static thr *thread_of(augur_tstates *b, uint32_t thread) {
  int fresh;
  uint32_t *ix = aug_u64map_slot(&b->thr_ix, thread, &fresh);
  if (!ix) return NULL;
  if (fresh) {
    if (aug_grow((void **)&b->thr, &b->cap_thr, b->nthr + 1, sizeof *b->thr)) return NULL;
    *ix = (uint32_t)b->nthr;
    b->thr[b->nthr++] = (thr){.thread = thread, .last = b->t0};
  }
  return &b->thr[*ix];
}

static inst *inst_by_serial(augur_tstates *b, uint64_t serial) {
  for (size_t i = 0; serial && i < b->nopen; i++)
    if (b->open[i].serial == serial) return &b->open[i];
  return NULL;
}

/* A team member whose records end inside the closing barrier of a region
 * its encountering thread has joined: the barrier's and the implicit task's
 * ends were not reported yet, not lost (libomp reports a worker's end of a
 * region when it leaves the barrier, at the next fork; docs/openmp.md). The
 * frames from that implicit task up, or 0 when TH's open frames are
 * anything else. */
static size_t late_ends(augur_tstates *b, const thr *th) {
  if (!th->nst || th->st[0].kind != F_ITASK) return 0;
  const inst *in = inst_by_serial(b, th->st[0].inst);
  if (!in || !in->joined) return 0;
  for (size_t k = 1; k < th->nst; k++)
    if (th->st[k].kind != F_SYNC && th->st[k].kind != F_WAIT) return 0;
  return th->nst;
}

static inst *inst_by_region(augur_tstates *b, uint64_t region) {
  for (size_t i = b->nopen; i-- > 0;)
    if (b->open[i].region == region) return &b->open[i];
  return NULL;
}

/* The state of the time before the thread's next record. */
static unsigned top_state(const thr *th) {
  if (!th->nst) return OUTSIDE;
  switch (th->st[th->nst - 1].kind) {
  case F_FORK:
    return AUGUR_TS_OMP_FORK;
  case F_JOIN:
    return AUGUR_TS_OMP_JOIN;
  case F_SYNC:
    return AUGUR_TS_OMP_SYNC;
  case F_WAIT:
    return AUGUR_TS_OMP_WAIT;
  case F_MUTEX:
    return AUGUR_TS_OMP_MUTEX;
  default:
    return AUGUR_TS_USEFUL; /* implicit task, work, masked */
  }
}

/* The innermost frame that belongs to a region instance, or NULL. */
static const frame *inst_frame(const thr *th) {
  for (size_t i = th->nst; i-- > 0;)
    if (th->st[i].inst) return &th->st[i];
  return NULL;
}

void augur_tstates_on_interval(augur_tstates *b, augur_tstates_interval_fn fn, void *arg) {
  assert(b);
  b->on_interval = fn;
  b->on_interval_arg = arg;
}

/* The thread of MPI_Init (thread 0 without one), as fill() decides it. */
static int is_initial(const augur_tstates *b, const thr *th) {
  return th->thread == (b->have_init ? b->init_thread : 0);
}

static void flush_interval(augur_tstates *b, thr *th) {
  if (b->on_interval && th->pend_b > th->pend_a)
    b->on_interval(b->on_interval_arg, th->thread, th->pend_state, th->pend_a, th->pend_b);
  th->pend_a = th->pend_b = 0;
}

/* Passes [a, upto) in STATE on, merged with the pending interval when it
 * continues it in the same state. */
static void emit(augur_tstates *b, thr *th, uint64_t a, uint64_t upto, unsigned state) {
  if (!b->on_interval) return;
  if (state == OUTSIDE) state = is_initial(b, th) ? AUGUR_TS_SERIAL : AUGUR_TS_IDLE;
  if (th->pend_b > th->pend_a && th->pend_state == state && th->pend_b == a) {
    th->pend_b = upto;
    return;
  }
  flush_interval(b, th);
  th->pend_state = state;
  th->pend_a = a;
  th->pend_b = upto;
}

/* The thread is between a fork and the join of a region it forked. */
static int forked(const thr *th) {
  for (size_t i = 0; i < th->nst; i++)
    if (th->st[i].kind == F_FORK || th->st[i].kind == F_JOIN) return 1;
  return 0;
}

/* Counts [th->last, upto) in STATE (clipped to the window start). */
static void charge(augur_tstates *b, thr *th, uint64_t upto, unsigned state) {
  uint64_t a = th->last > b->t0 ? th->last : b->t0;
  if (b->started && upto > a) {
    th->ns[state] += upto - a;
    if (state == OUTSIDE && is_initial(b, th)) b->serial_acc += upto - a;
    emit(b, th, a, upto, state);
    if (forked(th)) th->region_ns += upto - a;
    if (state == AUGUR_TS_USEFUL) {
      const frame *f = inst_frame(th);
      inst *in = f ? inst_by_serial(b, f->inst) : NULL;
      if (in && in->useful && f->member < in->team) in->useful[f->member] += upto - a;
    }
  }
  if (upto > th->last) th->last = upto;
}

static int push(thr *th, uint8_t kind, uint32_t member, uint64_t serial) {
  if (aug_grow((void **)&th->st, &th->cap, th->nst + 1, sizeof *th->st)) return -1;
  th->st[th->nst++] = (frame){kind, member, serial};
  return 0;
}

/* Pops the innermost frame of KIND (and of instance SERIAL unless 0) with
 * the frames above it, each counted as unbalanced; an end without its
 * begin is counted too. Returns the popped frame's index or -1. */
static long pop(augur_tstates *b, thr *th, uint8_t kind, uint64_t serial) {
  for (size_t i = th->nst; i-- > 0;) {
    if (th->st[i].kind != kind || (serial && th->st[i].inst != serial)) continue;
    b->unbalanced += th->nst - 1 - i;
    th->nst = i;
    return (long)i;
  }
  b->unbalanced++;
  return -1;
}

static site_acc *site_of(augur_tstates *b, uint64_t callsite) {
  int fresh;
  uint32_t *ix = aug_u64map_slot(&b->site_ix, callsite, &fresh);
  if (!ix) return NULL;
  if (fresh) {
    if (aug_grow((void **)&b->sites, &b->cap_sites, b->nsites + 1, sizeof *b->sites)) return NULL;
    *ix = (uint32_t)b->nsites;
    b->sites[b->nsites++] = (site_acc){.callsite = callsite};
  }
  return &b->sites[*ix];
}

static int widen(uint64_t **a, uint32_t from, uint32_t to) {
  uint64_t *p = realloc(*a, (to ? to : 1) * sizeof *p);
  if (!p) return -1;
  memset(p + from, 0, (size_t)(to - from) * sizeof *p);
  *a = p;
  return 0;
}

/* Closes the barrier IN's members are reaching (those that arrived): each
 * waited from its arrival to the last one (Scalasca's wait at barrier). */
static void close_barrier(inst *in) {
  if (!in->narr) return;
  uint64_t max = 0, sum = 0, maxw = 0, imb = 0;
  uint32_t last = 0;
  /* Each member's work since the segment began: its implicit task's start
   * (the first barrier), or the last arrival at the previous barrier (when
   * the team was released). A member that started late arrives late: the
   * waits that makes are the fork's, not the work's. */
  for (uint32_t j = 0; j < in->team; j++) {
    if (!(in->bflags[j] & ARRIVED)) continue;
    if (in->arr[j] >= max) {
      max = in->arr[j];
      last = j;
    }
    uint64_t s0 = in->lastmax ? in->lastmax : in->start[j];
    in->start[j] = in->arr[j] > s0 ? in->arr[j] - s0 : 0; /* reused: the work */
    if (in->start[j] > maxw) maxw = in->start[j];
  }
  for (uint32_t j = 0; j < in->team; j++)
    if (in->bflags[j] & ARRIVED) {
      sum += max - in->arr[j];
      imb += maxw - in->start[j];
    }
  if (imb > sum) imb = sum;
  in->skew += sum - imb;
  sum = imb;
  if (in->bflags[last] & SINGLE) { /* the others waited for a single's one thread */
    in->swait += sum;
    if (!in->swait_cs) in->swait_cs = in->scs[last];
  } else {
    in->bwait += sum;
  }
  in->lastmax = max;
  memset(in->bflags, 0, in->team);
  in->narr = 0;
}

/* Member J of IN (thread TH) reaches a barrier at T. */
static void arrive(inst *in, uint32_t j, thr *th, uint64_t t) {
  if (in->bflags[j] & ARRIVED) close_barrier(in); /* J is past it: its records say so */
  in->arr[j] = t;
  in->bflags[j] = (uint8_t)(ARRIVED | (th->single ? SINGLE : 0));
  in->scs[j] = th->single_cs;
  th->single = 0;
  if (++in->narr == in->team) close_barrier(in);
}

/* Adds instance I (joined at END) to its call site and drops it. */
static int fold(augur_tstates *b, size_t i, uint64_t end) {
  inst *in = &b->open[i];
  site_acc *s = site_of(b, in->callsite);
  if (!s) return -1;
  if (in->team) close_barrier(in);
  s->bwait += in->bwait;
  s->swait += in->swait;
  if (!s->swait_cs) s->swait_cs = in->swait_cs;
  if (in->creating) {
    s->created++; /* creating threads is no fork overhead a merge of regions removes */
  } else {
    s->fork_ns += in->fork_ns + in->skew;
    if (in->lastmax && end > in->lastmax) s->join_ns += (uint64_t)in->team * (end - in->lastmax);
  }
  if (in->requested > s->requested) s->requested = in->requested;
  if (in->team > s->team) {
    if (widen(&s->useful, s->team, in->team) || widen(&s->iters, s->team, in->team) ||
        widen(&s->chunks, s->team, in->team))
      return -1;
    s->team = in->team;
  }
  uint64_t e = end > in->fork_t ? end - in->fork_t : 0, max = 0, sum = 0;
  for (uint32_t j = 0; j < in->team; j++) {
    s->useful[j] += in->useful[j];
    s->iters[j] += in->iters[j];
    s->chunks[j] += in->chunks[j];
    if (in->useful[j] > max) max = in->useful[j];
    sum += in->useful[j];
  }
  s->instances++;
  s->elapsed += e;
  if (in->team) {
    s->lb += (double)in->team * (double)max - (double)sum;
    s->sched += (double)in->team * (double)(e > max ? e - max : 0);
  }
  inst_free(in);
  b->open[i] = b->open[--b->nopen];
  return 0;
}

static int maybe_fold(augur_tstates *b, inst *in) {
  if (!in->joined || in->ended < in->team) return 0;
  return fold(b, (size_t)(in - b->open), in->join_t);
}

static inst *inst_open(augur_tstates *b, uint64_t region, uint64_t callsite, uint32_t enc,
                       uint64_t t) {
  if (aug_grow((void **)&b->open, &b->cap_open, b->nopen + 1, sizeof *b->open)) return NULL;
  inst *in = &b->open[b->nopen++];
  *in = (inst){
      .serial = ++b->next_serial, .region = region, .callsite = callsite, .enc = enc, .fork_t = t};
  return in;
}

static int inst_team(inst *in, uint32_t team) {
  if (in->useful || !team) return 0;
  in->useful = calloc(team, sizeof *in->useful);
  in->iters = calloc(team, sizeof *in->iters);
  in->chunks = calloc(team, sizeof *in->chunks);
  in->arr = calloc(team, sizeof *in->arr);
  in->scs = calloc(team, sizeof *in->scs);
  in->bflags = calloc(team, 1);
  in->start = calloc(team, sizeof *in->start);
  if (!in->useful || !in->iters || !in->chunks || !in->arr || !in->scs || !in->bflags || !in->start)
    return -1;
  in->team = team;
  return 0;
}

static int is_barrier(int32_t tag) {
  return tag == AUGUR_OMP_SYNC_BARRIER || tag == AUGUR_OMP_SYNC_BARRIER_IMPLICIT ||
         tag == AUGUR_OMP_SYNC_BARRIER_EXPLICIT || tag == AUGUR_OMP_SYNC_BARRIER_IMPLEMENTATION ||
         tag == AUGUR_OMP_SYNC_BARRIER_IMPLICIT_WORKSHARE ||
         tag == AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL || tag == AUGUR_OMP_SYNC_BARRIER_TEAMS;
}

/* The constructs whose records only open and close a frame. */
static const struct {
  uint16_t begin, end;
  uint8_t kind;
} pairs[] = {{AUGUR_EV_OMP_WORK_BEGIN, AUGUR_EV_OMP_WORK_END, F_WORK},
             {AUGUR_EV_OMP_SYNC_BEGIN, AUGUR_EV_OMP_SYNC_END, F_SYNC},
             {AUGUR_EV_OMP_WAIT_BEGIN, AUGUR_EV_OMP_WAIT_END, F_WAIT},
             {AUGUR_EV_OMP_MUTEX_ACQUIRE, AUGUR_EV_OMP_MUTEX_ACQUIRED, F_MUTEX},
             {AUGUR_EV_OMP_MASKED_BEGIN, AUGUR_EV_OMP_MASKED_END, F_MASKED}};

static int omp_record(augur_tstates *b, thr *th, const augur_event *ev) {
  uint64_t t = ev->t_start;
  uint32_t slot = (uint32_t)(th - b->thr);
  b->omp_records++;
  switch (ev->type) {
  case AUGUR_EV_OMP_FORK: {
    charge(b, th, t, top_state(th));
    if (is_initial(b, th) && !forked(th)) { /* the section outside regions before it ends */
      int edge = b->forks++ == 0;
      if (b->serial_acc && csites_add(&b->serial, ev->callsite, b->prev_region,
                                      edge ? 0 : b->serial_acc, edge ? b->serial_acc : 0, 1))
        return -1;
      b->serial_acc = 0;
      if (csites_move(&b->mpi_serial, &b->mpi_pending, edge)) return -1;
    }
    inst *in = inst_open(b, ev->req, ev->callsite, slot, t);
    if (in) in->requested = ev->aux;
    return in ? push(th, F_FORK, 0, in->serial) : -1;
  }
  case AUGUR_EV_OMP_ITASK_BEGIN: {
    if ((ev->flags & 1) || !ev->req) { /* the initial task: not a parallel region */
      charge(b, th, t, top_state(th));
      return 0;
    }
    inst *in = inst_by_region(b, ev->req);
    if (!in) { /* its fork was not read: the region starts here */
      charge(b, th, t, top_state(th));
      b->unbalanced++;
      if (!(in = inst_open(b, ev->req, 0, slot, t))) return -1;
    }
    if (inst_team(in, (uint32_t)ev->peer > ev->aux ? (uint32_t)ev->peer : ev->aux + 1)) return -1;
    /* Before the fork this thread was wherever it was; from the fork to
     * now it waited for the team to start. */
    if (in->fork_t < t) charge(b, th, in->fork_t, top_state(th));
    charge(b, th, t, AUGUR_TS_OMP_FORK);
    if (t > in->fork_t) in->fork_ns += t - in->fork_t;
    if (ev->aux < in->team) in->start[ev->aux] = t;
    if (th->born >= in->fork_t) in->creating = 1;
    return push(th, F_ITASK, ev->aux, in->serial);
  }
  case AUGUR_EV_OMP_ITASK_END: {
    charge(b, th, t, top_state(th));
    if (!ev->req) return 0; /* the initial task */
    inst *in = inst_by_region(b, ev->req);
    if (!in) {
      b->unbalanced++;
      return 0;
    }
    if (pop(b, th, F_ITASK, in->serial) < 0) return 0; /* counted */
    in->ended++;
    if (th->nst && th->st[th->nst - 1].kind == F_FORK && th->st[th->nst - 1].inst == in->serial)
      th->st[th->nst - 1].kind = F_JOIN;
    return maybe_fold(b, in);
  }
  case AUGUR_EV_OMP_JOIN: {
    charge(b, th, t, top_state(th));
    inst *in = inst_by_region(b, ev->req);
    if (!in) {
      b->unbalanced++;
      return 0;
    }
    long k = -1;
    for (size_t i = th->nst; i-- > 0;)
      if ((th->st[i].kind == F_FORK || th->st[i].kind == F_JOIN) && th->st[i].inst == in->serial) {
        k = (long)i;
        break;
      }
    if (k >= 0) {
      b->unbalanced += th->nst - 1 - (size_t)k;
      th->nst = (size_t)k;
    } else {
      b->unbalanced++;
    }
    in->joined = 1;
    in->join_t = t;
    if (is_initial(b, th) && !forked(th)) b->prev_region = in->callsite;
    return maybe_fold(b, in);
  }
  default:
    break;
  }
  charge(b, th, t, top_state(th));
  const frame *f = inst_frame(th);
  inst *in = f ? inst_by_serial(b, f->inst) : NULL;
  int member = in && in->useful && f->member < in->team;
  if (member && ev->type == AUGUR_EV_OMP_WORK_BEGIN) in->iters[f->member] += ev->bytes;
  if (member && ev->type == AUGUR_EV_OMP_WORK_END) in->chunks[f->member] += ev->aux;
  if (ev->type == AUGUR_EV_OMP_WORK_BEGIN && ev->tag == AUGUR_OMP_WORK_SINGLE_EXECUTOR) {
    th->single = 1;
    th->single_cs = ev->callsite;
  }
  if (member && ev->type == AUGUR_EV_OMP_SYNC_BEGIN && is_barrier(ev->tag))
    arrive(in, f->member, th, t);
  if (ev->type == AUGUR_EV_OMP_THREAD_BEGIN) th->born = t;
  if (ev->type == AUGUR_EV_OMP_MUTEX_ACQUIRE) {
    th->mutex_t = t;
    th->mutex_cs = ev->callsite;
  }
  if (ev->type == AUGUR_EV_OMP_MUTEX_ACQUIRED && th->mutex_t) {
    if (csites_add(&b->mutexes, th->mutex_cs, 0, t - th->mutex_t, 0, 1)) return -1;
    th->mutex_t = 0;
  }
  for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
    if (ev->type == pairs[k].begin) return push(th, pairs[k].kind, 0, 0);
    if (ev->type == pairs[k].end) {
      pop(b, th, pairs[k].kind, 0);
      return 0;
    }
  }
  return 0; /* thread begin/end, tasks, dispatch, mutex released: no state */
}

int augur_tstates_add(augur_tstates *b, const augur_event *ev, augur_error *err) {
  assert(b && ev);
  if (b->finalized || augur_event_is_sub(ev->type)) return AUGUR_OK;
  int omp = augur_event_is_omp(ev->type);
  if (!b->started) {
    /* The window opens at MPI_Init's end, or at the first record. */
    b->started = 1;
    b->t0 = ev->type == AUGUR_EV_INIT || ev->type == AUGUR_EV_INIT_THREAD ? ev->t_end : ev->t_start;
  }
  if (ev->type == AUGUR_EV_INIT || ev->type == AUGUR_EV_INIT_THREAD) {
    b->init_thread = ev->thread;
    b->have_init = 1;
  }
  thr *th = thread_of(b, ev->thread);
  if (!th) return augur_fail(err, AUGUR_E_NOMEM, "thread states: out of memory (threads)");
  th->records++;
  uint64_t end = ev->t_end > ev->t_start ? ev->t_end : ev->t_start;
  if (end > th->last_rec) th->last_rec = end;
  if (end > b->end_seen) b->end_seen = end;
  if (omp) {
    if (omp_record(b, th, ev) < 0)
      return augur_fail(err, AUGUR_E_NOMEM, "thread states: out of memory (regions)");
    return AUGUR_OK;
  }
  charge(b, th, ev->t_start, top_state(th));
  if (ev->type == AUGUR_EV_FINALIZE) {
    b->finalized = 1;
    b->t1 = ev->t_start;
    return AUGUR_OK;
  }
  uint64_t a = th->last > b->t0 ? th->last : b->t0;
  if (end > a && is_initial(b, th) && !forked(th) &&
      csites_add(&b->mpi_pending, ev->callsite, 0, end - a, 0, 1))
    return augur_fail(err, AUGUR_E_NOMEM, "thread states: out of memory (call sites)");
  charge(b, th, end, AUGUR_TS_MPI);
  return AUGUR_OK;
}

static int cmp_site(const void *a, const void *b) {
  const augur_omp_site *x = a, *y = b;
  if (x->elapsed_ns != y->elapsed_ns) return x->elapsed_ns > y->elapsed_ns ? -1 : 1;
  return x->callsite < y->callsite ? -1 : (x->callsite > y->callsite);
}

static int cmp_thread(const void *a, const void *b) {
  const augur_thread_time *x = a, *y = b;
  return x->thread < y->thread ? -1 : (x->thread > y->thread);
}

static int cmp_csite(const void *a, const void *b) {
  const augur_omp_csite *x = a, *y = b;
  if (x->ns != y->ns) return x->ns > y->ns ? -1 : 1;
  if (x->edge_ns != y->edge_ns) return x->edge_ns > y->edge_ns ? -1 : 1;
  return x->callsite < y->callsite ? -1 : (x->callsite > y->callsite);
}

/* Moves C's entries to *V (by ns, descending). */
static int take(csites *c, augur_omp_csite **v, size_t *n) {
  *v = c->n ? c->v : calloc(1, sizeof **v);
  if (!*v) return -1;
  *n = c->n;
  qsort(*v, *n, sizeof **v, cmp_csite);
  c->v = NULL;
  c->n = c->cap = 0;
  return 0;
}

static int fill(augur_tstates *b, augur_rank_states *out) {
  out->threads = calloc(b->nthr ? b->nthr : 1, sizeof *out->threads);
  out->sites = calloc(b->nsites ? b->nsites : 1, sizeof *out->sites);
  if (!out->threads || !out->sites) return -1;
  uint32_t initial = b->have_init ? b->init_thread : 0;
  for (size_t i = 0; i < b->nthr; i++) {
    const thr *th = &b->thr[i];
    augur_thread_time *o = &out->threads[out->nthreads++];
    o->thread = th->thread;
    o->initial = th->thread == initial;
    o->records = th->records;
    o->region_ns = th->region_ns;
    memcpy(o->ns, th->ns, sizeof o->ns);
    o->ns[o->initial ? AUGUR_TS_SERIAL : AUGUR_TS_IDLE] += th->ns[OUTSIDE];
  }
  qsort(out->threads, out->nthreads, sizeof *out->threads, cmp_thread);
  for (size_t i = 0; i < b->nsites; i++) {
    site_acc *s = &b->sites[i];
    augur_omp_site *o = &out->sites[out->nsites++];
    *o = (augur_omp_site){.callsite = s->callsite,
                          .instances = s->instances,
                          .elapsed_ns = s->elapsed,
                          .team = s->team,
                          .useful_ns = s->useful,
                          .iterations = s->iters,
                          .chunks = s->chunks,
                          .lb_ns = s->lb,
                          .sched_ns = s->sched,
                          .imbalance = 1,
                          .requested = s->requested,
                          .barrier_wait_ns = s->bwait,
                          .single_wait_ns = s->swait,
                          .single_callsite = s->swait_cs,
                          .fork_ns = s->fork_ns,
                          .join_ns = s->join_ns,
                          .created = s->created};
    if (o->team > out->team) out->team = o->team;
    s->useful = s->iters = s->chunks = NULL; /* moved */
    uint64_t max = 0, sum = 0;
    for (uint32_t j = 0; j < o->team; j++) {
      if (o->useful_ns[j] > max) max = o->useful_ns[j];
      sum += o->useful_ns[j];
    }
    if (sum) o->imbalance = (double)max * o->team / (double)sum;
  }
  qsort(out->sites, out->nsites, sizeof *out->sites, cmp_site);
  if (!out->team) out->team = 1;
  if (take(&b->mutexes, &out->mutexes, &out->nmutexes) ||
      take(&b->serial, &out->serial, &out->nserial) ||
      take(&b->mpi_serial, &out->mpi_serial, &out->nmpi_serial))
    return -1;
  return 0;
}

int augur_tstates_finish(augur_tstates *b, augur_rank_states *out, augur_error *err) {
  assert(b && out);
  memset(out, 0, sizeof *out);
  out->rank = b->rank;
  if (!b->finalized) b->t1 = b->end_seen;
  if (b->t1 < b->t0) b->t1 = b->t0;
  int rc = 0;
  /* What is still open closes at its thread's last record; regions never
   * joined close at their encountering thread's last record. */
  for (size_t i = 0; i < b->nthr; i++) {
    thr *th = &b->thr[i];
    uint64_t stop = th->last_rec < b->t1 ? th->last_rec : b->t1;
    charge(b, th, stop, top_state(th));
    size_t late = late_ends(b, th);
    b->late_ends += late;
    b->unbalanced += th->nst - late;
    th->nst = 0;
  }
  while (!rc && b->nopen) {
    inst *in = &b->open[b->nopen - 1];
    uint64_t end = in->joined ? in->join_t : b->thr[in->enc].last_rec;
    rc = fold(b, b->nopen - 1, end);
  }
  for (size_t i = 0; i < b->nthr; i++) {
    charge(b, &b->thr[i], b->t1, OUTSIDE);
    flush_interval(b, &b->thr[i]);
  }
  /* the serial section after the last region */
  if (!rc && b->serial_acc && csites_add(&b->serial, 0, b->prev_region, 0, b->serial_acc, 1))
    rc = -1;
  if (!rc && csites_move(&b->mpi_serial, &b->mpi_pending, 1)) rc = -1;
  out->t0 = b->t0;
  out->t1 = b->t1;
  out->started = b->started;
  out->finalized = b->finalized;
  out->omp_records = b->omp_records;
  out->unbalanced = b->unbalanced;
  out->late_ends = b->late_ends;
  if (!rc) rc = fill(b, out);
  augur_tstates_free(b);
  if (rc) {
    augur_rank_states_free(out);
    return augur_fail(err, AUGUR_E_NOMEM, "thread states: out of memory");
  }
  return AUGUR_OK;
}

void augur_rank_states_free(augur_rank_states *s) {
  if (!s) return;
  for (size_t i = 0; s->sites && i < s->nsites; i++) {
    free(s->sites[i].useful_ns);
    free(s->sites[i].iterations);
    free(s->sites[i].chunks);
  }
  free(s->sites);
  free(s->threads);
  free(s->mutexes);
  free(s->serial);
  free(s->mpi_serial);
  memset(s, 0, sizeof *s);
}

const augur_thread_time *augur_rank_states_initial(const augur_rank_states *s) {
  for (size_t i = 0; i < s->nthreads; i++)
    if (s->threads[i].initial) return &s->threads[i];
  return NULL;
}

int augur_rank_states_events(const augur_event *ev, size_t n, uint32_t rank, augur_rank_states *out,
                             augur_error *err) {
  assert(out && (ev || !n));
  augur_tstates *b = augur_tstates_new(rank);
  if (!b) return augur_fail(err, AUGUR_E_NOMEM, "thread states: out of memory");
  for (size_t i = 0; i < n; i++) {
    int rc = augur_tstates_add(b, &ev[i], err);
    if (rc < 0) {
      augur_tstates_free(b);
      memset(out, 0, sizeof *out);
      return rc;
    }
  }
  return augur_tstates_finish(b, out, err);
}

int augur_rank_states_trace(augur_trace *t, uint32_t rank, augur_rank_states *out,
                            augur_error *err) {
  assert(t && out);
  memset(out, 0, sizeof *out);
  augur_tstates *b = augur_tstates_new(rank);
  if (!b) return augur_fail(err, AUGUR_E_NOMEM, "thread states: out of memory");
  augur_stream *s = NULL;
  int rc = augur_stream_rank_kinds(t, rank, AUGUR_KIND_MPI | AUGUR_KIND_OMP, &s, err);
  if (rc < 0) {
    augur_tstates_free(b);
    return rc;
  }
  augur_event ev;
  while ((rc = augur_stream_next(s, &ev, err)) == 1)
    if ((rc = augur_tstates_add(b, &ev, err)) < 0) break;
  augur_stream_close(s);
  augur_error ferr = {0};
  int frc = augur_tstates_finish(b, out, &ferr);
  if (frc < 0) {
    if (err) *err = ferr;
    return frc;
  }
  return rc < 0 ? rc : AUGUR_OK;
}
