/* augur recorder — per-thread buffers and the hot path.
 *
 * Each thread owns one aug_thread (found through a C11 _Thread_local pointer),
 * allocated on the thread's first recorded call. Events are appended to its
 * buffer; a full buffer becomes one events block, written by the thread that
 * filled it under aug_lock (once per block, never per event). All thread
 * states sit in a registry so MPI_Finalize / MPI_Abort / exit can flush them,
 * and a pthread key destructor flushes a thread's buffer when it exits.
 *
 * A thread's OpenMP records (rec_omp.c) go to a second buffer of the same
 * thread state, written as kind-3 blocks by the same flushes. The OpenMP
 * runtime's worker threads may still be leaving a barrier when the master
 * calls MPI_Finalize, so appending is bracketed by in_omp (Dekker with
 * aug_active): once recording is off and a thread's in_omp is 0, no record
 * will be added to its buffer and another thread may write it. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"
#include "rec_internal.h"

/* Records kept free above soft_cap, so that a parent committed through the
 * public one-record-at-a-time API (Fortran Sendrecv: parent, then SUB_RECV)
 * never straddles two blocks. */
#define AUG_SUB_ROOM 64

/* initial-exec: the recorder is preloaded at startup, so its TLS is static
 * and reaching it needs no __tls_get_addr call. Not static: the inline hot
 * path of rec_internal.h (aug_rec_enter_in ...) reads it in the wrappers. */
_Thread_local aug_thread *aug_tls_thread __attribute__((tls_model("initial-exec")));
static aug_thread *registry; /* guarded by aug_lock */
uint64_t aug_flush_age = UINT64_MAX;
static atomic_uint next_index;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void flush_locked(aug_thread *t);
atomic_ulong aug_omp_dropped;

static void thread_exit(void *arg) {
  aug_thread *t = arg;
  /* Flush and unlink under one lock hold, so Finalize's flush of all
   * buffers never sees a state being freed. */
  pthread_mutex_lock(&aug_lock);
  flush_locked(t);
  for (aug_thread **p = &registry; *p; p = &(*p)->next)
    if (*p == t) {
      *p = t->next;
      break;
    }
  pthread_mutex_unlock(&aug_lock);
  aug_counters_thread_close(t);
  aug_tls_thread = NULL;
  free(t->buf);
  free(t->s_reqs);
  free(t->s_status);
  free(t->s_ints);
  free(t->s_pack);
  free(t->obuf);
  free(t);
}

static void make_key(void) {
  pthread_key_create(&thread_key, thread_exit);
}

void aug_threads_setup(void) {
  pthread_once(&key_once, make_key);
}

aug_thread *aug_thread_self(void) {
  aug_thread *t = aug_tls_thread;
  if (t) return t;
  t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->soft_cap = t->limit = aug_cfg.buffer_events;
  t->cap = t->soft_cap + AUG_SUB_ROOM;
  t->flushed_at = aug_ticks();
  t->buf = malloc(t->cap * sizeof *t->buf);
  if (!t->buf) {
    free(t);
    return NULL;
  }
  t->index = atomic_fetch_add(&next_index, 1);
  t->papi_set = -1;
  for (int i = 0; i < AUGUR_MAX_COUNTERS; i++)
    t->ctr_fd[i] = -1;
  pthread_mutex_lock(&aug_lock);
  t->next = registry;
  registry = t;
  pthread_mutex_unlock(&aug_lock);
  aug_tls_thread = t;
  pthread_once(&key_once, make_key);
  pthread_setspecific(thread_key, t);
  if (aug_nctr) aug_counters_thread_open(t);
  return t;
}

/* Writes N records of T's buffer BUF as one block, of kind 1 (MPI) or 3
 * (OMP); caller holds aug_lock. */
static void write_locked(aug_thread *t, augur_event *buf, size_t n, int omp) {
  if (!aug_writer || !n) return;
  augur_error err;
  aug_tick_map ticks;
  aug_clock_map_now(&ticks);
  if (aug_callsites_convert(buf, n, &ticks) != 0) {
    aug_rec_fail("call sites", "out of memory");
    return;
  }
  aug_clock_keep_order(&t->last_ns[omp], buf, n, ticks.max_end);
  if ((omp ? augur_writer_omp_events : augur_writer_events)(aug_writer, t->index, buf, n, &err) !=
      AUGUR_OK)
    aug_rec_fail(omp ? "writing OpenMP events" : "writing events", err.msg);
}

/* Writes t's OpenMP records as one kind-3 block; caller holds aug_lock. */
static void flush_omp_locked(aug_thread *t) {
  t->oflushed_at = aug_ticks();
  write_locked(t, t->obuf, t->on, 1);
  t->on = 0;
}

/* Writes t's records as one block (and its OpenMP records as another);
 * caller holds aug_lock. Any thread may flush any buffer (Finalize flushes
 * all), which is safe once the owner makes no more MPI calls (MPI forbids
 * calls from other threads during MPI_Finalize anyway) and, for the OpenMP
 * buffer, once recording is off and the owner is out of aug_omp_append
 * (aug_threads_flush_all waits for that). */
static void flush_locked(aug_thread *t) {
  flush_omp_locked(t);
  t->limit = t->soft_cap;
  t->flushed_at = aug_ticks();
  if (!aug_cfg.signature[0]) /* signature mode: fed by aug_thread_flush only */
    write_locked(t, t->buf, t->n, 0);
  t->n = 0;
}

void aug_thread_flush(aug_thread *t) {
  if (aug_cfg.signature[0]) { /* signature mode: no lock, the feed may call MPI and exit */
    size_t n = t->n;
    t->n = 0;
    aug_clock_to_ns(t->buf, n);
    aug_sig_feed(t->buf, n);
    return;
  }
  pthread_mutex_lock(&aug_lock);
  flush_locked(t);
  pthread_mutex_unlock(&aug_lock);
}

/* Async-signal-safe as far as the process allows: no allocation, no stdio,
 * no zstd (augur_writer_events_in_signal); the locks are only tried. A
 * thread still filling its buffer when the signal came keeps its last,
 * unfinished record out (t->n counts finished groups only). */
long aug_threads_flush_in_signal(void) {
  int locked = 0;
  for (int i = 0; i < 100 && !locked; i++) { /* another thread may be writing a block */
    locked = pthread_mutex_trylock(&aug_lock) == 0;
    if (!locked) {
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
    }
  }
  if (!locked) return -1;
  long written = 0;
  for (aug_thread *t = registry; aug_writer && t; t = t->next) {
    if (!t->n) continue;
    aug_clock_keep_order(&t->last_ns[0], t->buf, t->n, aug_clock_to_ns(t->buf, t->n));
    aug_callsites_convert_known(t->buf, t->n);
    if (augur_writer_events_in_signal(aug_writer, t->index, t->buf, t->n) == 0)
      written += (long)t->n;
    t->n = 0;
  }
  for (aug_thread *t = registry; aug_writer && t; t = t->next) {
    size_t n = t->on; /* finished records only: on grows after a record is complete */
    if (!n) continue;
    aug_clock_keep_order(&t->last_ns[1], t->obuf, n, aug_clock_to_ns(t->obuf, n));
    aug_callsites_convert_known(t->obuf, n);
    if (augur_writer_omp_events_in_signal(aug_writer, t->index, t->obuf, n) == 0)
      written += (long)n;
    t->on = 0;
  }
  pthread_mutex_unlock(&aug_lock);
  return written;
}

/* Recording is off (the callers cleared aug_active): waits until T's owner
 * is out of aug_omp_append (a few ns, or a time slice if it was preempted
 * there; at most ~1 s). Returns 0 if it stayed inside. */
static int omp_quiet(aug_thread *t) {
  for (int i = 0; i < 20000; i++) {
    if (!atomic_load(&t->in_omp)) return 1;
    struct timespec us = {0, 50000};
    if (i >= 100) nanosleep(&us, NULL);
  }
  return 0;
}

void aug_threads_flush_all(void) {
  pthread_mutex_lock(&aug_lock);
  for (aug_thread *t = registry; t; t = t->next) {
    if (t->on && t != aug_tls_thread && !omp_quiet(t)) t->on = 0; /* never racing its owner */
    flush_locked(t);
  }
  pthread_mutex_unlock(&aug_lock);
}

aug_thread *aug_thread_here(void) {
  return aug_tls_thread;
}

augur_event *aug_rec_reserve(aug_thread *t, size_t n) {
  if (t->n + n > t->cap) aug_thread_flush(t);
  if (n > t->cap) { /* a huge Waitall: grow once, the group must stay whole */
    augur_event *nb = realloc(t->buf, n * sizeof *nb);
    if (!nb) return NULL;
    t->buf = nb;
    t->cap = n;
  }
  return t->buf + t->n;
}

void aug_rec_advance(aug_thread *t, size_t n) {
  t->n += n;
}

/* ---- the hot path ---- */

/* aug_rec_enter's checks: the thread, inside a wrapper from now on (its
 * buffer written first if at its flush level), or NULL when the call is not
 * recorded. */
static aug_thread *enter_thread(void) {
  if (!atomic_load_explicit(&aug_active, memory_order_relaxed)) return NULL;
  aug_thread *t = aug_tls_thread;
  if (__builtin_expect(t == NULL, 0)) {
    t = aug_thread_self();
    if (!t) return NULL;
  }
  if (t->depth) return NULL;
  t->depth = 1;
  /* Flushing here, outside any parent/sub-record group, keeps groups whole;
   * its cost lands in the compute burst, not in the MPI call. */
  if (__builtin_expect(t->n >= t->limit, 0)) aug_thread_flush(t);
  return t;
}

static void enter_fill(aug_thread *t, augur_event *ev, unsigned type, const void *callsite) {
  aug_zero_event(ev);
  ev->type = (uint16_t)type;
  ev->callsite = (uint64_t)(uintptr_t)callsite;
  ev->thread = t->index;
  if (aug_nctr) {
    uint64_t v[AUGUR_MAX_COUNTERS];
    aug_counters_read(t, v);
    for (int i = 0; i < aug_nctr; i++)
      ev->ctr[i] = v[i] - t->ctr_last[i];
  }
  ev->t_start = aug_ticks();
}

int aug_rec_enter(augur_event *ev, unsigned type, const void *callsite) {
  aug_thread *t = enter_thread();
  if (!t) return 0;
  enter_fill(t, ev, type, callsite);
  return 1;
}

augur_event *aug_rec_begin_slow(unsigned type, const void *callsite) {
  aug_thread *t = enter_thread();
  if (!t) return NULL;
  /* below the flush level now, so the slot is inside the buffer (n < soft_cap < cap) */
  augur_event *ev = t->buf + t->n;
  enter_fill(t, ev, type, callsite);
  return ev;
}

void aug_rec_exit(augur_event *ev) {
  ev->t_end = aug_ticks();
  aug_thread *t = aug_tls_thread;
  if (aug_nctr) aug_counters_read(t, t->ctr_last);
  t->depth = 0;
  /* Bounds what a SIGKILL can take: records older than aug_flush_age are
   * written at the next call's entry. The clock value is the one just read. */
  if (__builtin_expect(ev->t_end - t->flushed_at > aug_flush_age, 0)) t->limit = 0;
}

void aug_rec_commit(const augur_event *ev) {
  aug_thread *t = aug_tls_thread;
  if (!t) return;
  if (ev == t->buf + t->n) { /* filled in its slot (aug_rec_begin) */
    t->n++;
    return;
  }
  if (t->n == t->cap) aug_thread_flush(t);
  t->buf[t->n++] = *ev;
}

augur_event *aug_rec_group_slow(aug_thread *t, const augur_event *parent, size_t n) {
  /* The flush in aug_rec_reserve reuses the buffer (a huge group moves it),
   * and PARENT may be this buffer's next slot: keep it aside first. */
  augur_event keep = *parent;
  augur_event *out = aug_rec_reserve(t, n);
  if (out) out[0] = keep;
  return out;
}

/* ---- the OpenMP hot path ---- */

/* The calling thread's state with its OpenMP buffer (first record of a
 * thread: allocates, takes aug_lock once). */
static aug_thread *omp_thread(void) {
  aug_thread *t = aug_tls_thread ? aug_tls_thread : aug_thread_self();
  if (!t || t->obuf) return t;
  augur_event *b = malloc(t->soft_cap * sizeof *b);
  if (!b) return NULL;
  t->oflushed_at = aug_ticks();
  t->obuf = b;
  return t;
}

static void omp_flush(aug_thread *t) {
  pthread_mutex_lock(&aug_lock);
  flush_omp_locked(t);
  pthread_mutex_unlock(&aug_lock);
}

static void omp_drop(void) {
  if (!aug_lifecycle_started())
    atomic_fetch_add_explicit(&aug_omp_dropped, 1, memory_order_relaxed);
}

aug_thread *aug_omp_append(uint16_t type, uint64_t callsite, uint64_t req, uint32_t aux,
                           int32_t peer, int32_t tag, uint64_t bytes, uint16_t flags) {
  aug_thread *t = aug_tls_thread;
  if (__builtin_expect(!t || !t->obuf, 0)) {
    if (!atomic_load_explicit(&aug_active, memory_order_relaxed)) {
      omp_drop();
      return NULL;
    }
    if (!(t = omp_thread())) return NULL;
  }
  uint64_t now;
  for (;;) {
    /* seq_cst store then load: pairs with aug_active = 0 then in_omp load
     * in aug_threads_flush_all, so one of the two sees the other. */
    atomic_store(&t->in_omp, 1);
    if (!atomic_load(&aug_active)) {
      atomic_store_explicit(&t->in_omp, 0, memory_order_release);
      omp_drop();
      return NULL;
    }
    now = aug_ticks();
    if (__builtin_expect(t->on < t->soft_cap && now - t->oflushed_at <= aug_flush_age, 1)) break;
    /* full or too old: written first, outside in_omp (the lock may be held
     * by a Finalize that waits for in_omp to clear) */
    atomic_store_explicit(&t->in_omp, 0, memory_order_release);
    omp_flush(t);
  }
  augur_event *ev = &t->obuf[t->on];
  aug_zero_event(ev);
  ev->type = type;
  ev->callsite = callsite;
  ev->req = req;
  ev->aux = aux;
  ev->peer = peer;
  ev->tag = tag;
  ev->bytes = bytes;
  ev->flags = flags;
  ev->thread = t->index;
  ev->t_start = ev->t_end = now;
  t->on++;
  atomic_store_explicit(&t->in_omp, 0, memory_order_release);
  return t;
}

/* ---- scratch ---- */

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
  return aug_grow(&p, cap, need, elem) ? NULL : p;
}

#define SCRATCH(fn, type, field)                                                                   \
  type *fn(int n) {                                                                                \
    aug_thread *t = aug_thread_self();                                                             \
    if (!t) return NULL;                                                                           \
    type *p = grow(t->field, &t->field##_cap, n > 0 ? (size_t)n : 1, sizeof(type));                \
    if (p) t->field = p;                                                                           \
    return p;                                                                                      \
  }
SCRATCH(aug_scratch_reqs, uint64_t, s_reqs)
SCRATCH(aug_scratch_status, MPI_Status, s_status)
SCRATCH(aug_scratch_ints, int, s_ints)
#undef SCRATCH

unsigned char *aug_scratch_pack(size_t n) {
  aug_thread *t = aug_thread_self();
  if (!t) return NULL;
  unsigned char *p = grow(t->s_pack, &t->s_pack_cap, n ? n : 1, 1);
  if (p) t->s_pack = p;
  return p;
}
