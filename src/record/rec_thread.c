/* augur recorder — per-thread buffers and the hot path.
 *
 * Each thread owns one aug_thread (found through a C11 _Thread_local pointer),
 * allocated on the thread's first recorded call. Events are appended to its
 * buffer; a full buffer becomes one events block, written by the thread that
 * filled it under aug_lock (once per block, never per event). All thread
 * states sit in a registry so MPI_Finalize / MPI_Abort / exit can flush them,
 * and a pthread key destructor flushes a thread's buffer when it exits. */
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
 * and reaching it needs no __tls_get_addr call. */
static _Thread_local aug_thread *tls_thread __attribute__((tls_model("initial-exec")));
static aug_thread *registry; /* guarded by aug_lock */
uint64_t aug_flush_age = UINT64_MAX;
static atomic_uint next_index;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void flush_locked(aug_thread *t);

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
  tls_thread = NULL;
  free(t->buf);
  free(t->s_reqs);
  free(t->s_status);
  free(t->s_ints);
  free(t->s_pack);
  free(t);
}

static void make_key(void) {
  pthread_key_create(&thread_key, thread_exit);
}

void aug_threads_setup(void) {
  pthread_once(&key_once, make_key);
}

aug_thread *aug_thread_self(void) {
  aug_thread *t = tls_thread;
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
  tls_thread = t;
  pthread_once(&key_once, make_key);
  pthread_setspecific(thread_key, t);
  if (aug_nctr) aug_counters_thread_open(t);
  return t;
}

/* Writes t's records as one block; caller holds aug_lock. Any thread may
 * flush any buffer (Finalize flushes all), which is safe once the owner makes
 * no more MPI calls; MPI forbids calls from other threads during
 * MPI_Finalize anyway. */
static void flush_locked(aug_thread *t) {
  t->limit = t->soft_cap;
  t->flushed_at = aug_ticks();
  if (aug_cfg.signature[0]) { /* signature mode: fed by aug_thread_flush only */
    t->n = 0;
    return;
  }
  if (aug_writer && t->n) {
    augur_error err;
    aug_clock_to_ns(t->buf, t->n);
    if (aug_callsites_convert(t->buf, t->n) != 0)
      aug_rec_fail("call sites", "out of memory");
    else if (augur_writer_events(aug_writer, t->index, t->buf, t->n, &err) != AUGUR_OK)
      aug_rec_fail("writing events", err.msg);
  }
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
    aug_clock_to_ns(t->buf, t->n);
    aug_callsites_convert_known(t->buf, t->n);
    if (augur_writer_events_in_signal(aug_writer, t->index, t->buf, t->n) == 0)
      written += (long)t->n;
    t->n = 0;
  }
  pthread_mutex_unlock(&aug_lock);
  return written;
}

void aug_threads_flush_all(void) {
  pthread_mutex_lock(&aug_lock);
  for (aug_thread *t = registry; t; t = t->next)
    flush_locked(t);
  pthread_mutex_unlock(&aug_lock);
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

int aug_rec_enter(augur_event *ev, unsigned type, const void *callsite) {
  if (!atomic_load_explicit(&aug_active, memory_order_relaxed)) return 0;
  aug_thread *t = tls_thread;
  if (__builtin_expect(t == NULL, 0)) {
    t = aug_thread_self();
    if (!t) return 0;
  }
  if (t->depth) return 0;
  t->depth = 1;
  /* Flushing here, outside any parent/sub-record group, keeps groups whole;
   * its cost lands in the compute burst, not in the MPI call. */
  if (__builtin_expect(t->n >= t->limit, 0)) aug_thread_flush(t);
  memset(ev, 0, sizeof *ev);
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
  return 1;
}

void aug_rec_exit(augur_event *ev) {
  ev->t_end = aug_ticks();
  aug_thread *t = tls_thread;
  if (aug_nctr) aug_counters_read(t, t->ctr_last);
  t->depth = 0;
  /* Bounds what a SIGKILL can take: records older than aug_flush_age are
   * written at the next call's entry. The clock value is the one just read. */
  if (__builtin_expect(ev->t_end - t->flushed_at > aug_flush_age, 0)) t->limit = 0;
}

void aug_rec_commit(const augur_event *ev) {
  aug_thread *t = tls_thread;
  if (!t) return;
  if (t->n == t->cap) aug_thread_flush(t);
  t->buf[t->n++] = *ev;
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
