/* libaugur-profile — process lifecycle: start in the constructor, one
 * summary record at exit (or before exec, or gathered by MPI_Finalize),
 * reset in the child after fork.
 *
 * The library is inactive (every wrapper passes straight through) unless
 * AUGUR_PROFILE_DIR names the job's scratch directory and
 * AUGUR_PROFILE_LEVEL is 1..3; `augur profile` sets both. Records are
 * written there, never sent from here: the application never waits on the
 * network (the launcher sends, see docs/monitoring.md). _GNU_SOURCE for
 * syscall(SYS_gettid) and RUSAGE-free thread CPU clocks. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "prof.h"

int prof_level;
int prof_reported;

static char job_dir[PATH_MAX];
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static prof_thread *live; /* registry of running threads */
static augp_thread done[AUGP_MAX_THREADS];
static uint64_t ndone, nseen; /* finished slots used, threads seen */
static uint64_t done_flags;
static augp_proc ident;         /* host, program, pid, rank, start */
static prof_thread main_thread; /* static: the main thread never frees it */
static _Thread_local prof_thread *tls_self;
static uint64_t image_seq;             /* distinguishes records of one pid (exec, fork) */
static char last_path[PATH_MAX + 128]; /* last record written (a failed exec removes it) */
static uint64_t ident_mono;            /* CLOCK_MONOTONIC at ident.start_ns */

uint64_t prof_mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t prof_real_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(pthread_t th) {
  clockid_t cid;
  struct timespec ts;
  if (pthread_getcpuclockid(th, &cid) != 0 || clock_gettime(cid, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t prof_end_ns(uint64_t start_real, uint64_t start_mono) {
  return start_real + (prof_mono_ns() - start_mono);
}

static void thread_init(prof_thread *t) {
  memset(t, 0, sizeof *t);
  t->self = pthread_self();
  t->tid = (uint64_t)syscall(SYS_gettid);
  t->start_ns = prof_real_ns();
  t->start_mono = prof_mono_ns();
  for (int i = 0; i < AUGP_NCTR; i++)
    t->fd[i] = -1;
  t->papi_set = -1;
}

static void identity(void) {
  memset(&ident, 0, sizeof ident);
  gethostname(ident.host, sizeof ident.host - 1);
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n < 0) n = 0;
  exe[n] = 0;
  /* Keep the end of a long path: the program name is what matters. */
  size_t len = (size_t)n, keep = sizeof ident.program - 1;
  memcpy(ident.program, len > keep ? exe + len - keep : exe, len > keep ? keep : len);
  ident.pid = (uint64_t)getpid();
  ident.ppid = (uint64_t)getppid();
  ident.rank = -1;
  ident.nranks = -1;
  ident.start_ns = prof_real_ns();
  ident_mono = prof_mono_ns();
  ident.level = (uint64_t)prof_level;
  image_seq++;
}

prof_thread *prof_self(void) {
  if (!prof_level) return NULL;
  if (tls_self) return tls_self;
  /* A thread not started through pthread_create (a library's raw clone):
   * it still gets a summary, registered on first use. */
  return prof_thread_begin();
}

prof_thread *prof_thread_begin(void) {
  if (!prof_level) return NULL;
  prof_thread *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  thread_init(t);
  prof_ctr_open(t);
  pthread_mutex_lock(&prof_lock);
  t->next = live;
  live = t;
  nseen++;
  pthread_mutex_unlock(&prof_lock);
  tls_self = t;
  return t;
}

/* Summary of t; self: t is the calling thread. */
static void summarise(prof_thread *t, augp_thread *out, int self) {
  memset(out, 0, sizeof *out);
  out->tid = t->tid;
  out->start_ns = t->start_ns;
  out->end_ns = prof_end_ns(t->start_ns, t->start_mono);
  out->cpu_ns = thread_cpu_ns(self ? pthread_self() : t->self);
  for (int c = 0; c < AUGP_NMPI; c++)
    out->mpi_ns += PROF_GET(t->mpi_ns[c]);
  for (int c = 0; c < AUGP_NIO; c++)
    out->io_ns += PROF_GET(t->io_ns[c]);
  prof_ctr_read(t, out->ctr, self);
  /* The slot no counter uses carries the thread's OpenMP user time. */
  int initial = t == &main_thread;
  out->ctr[AUGP_CTR_RESERVED] =
      prof_omp_useful(t, initial, out->end_ns - out->start_ns, out->mpi_ns, prof_mono_ns());
  if (prof_omp_active() && (initial || atomic_load_explicit(&t->omp, memory_order_relaxed)))
    out->flags |= AUGP_TF_OMP;
}

static void fold(augp_thread *slot, const augp_thread *t) {
  slot->flags |= AUGP_TF_OVERFLOW | t->flags;
  slot->nfolded += 1 + t->nfolded; /* t may hold folded threads itself */
  slot->cpu_ns += t->cpu_ns;
  slot->mpi_ns += t->mpi_ns;
  slot->io_ns += t->io_ns;
  if (t->end_ns > slot->end_ns) slot->end_ns = t->end_ns;
  for (int i = 0; i < AUGP_NCTR; i++)
    slot->ctr[i] += t->ctr[i];
}

/* Process totals that outlive a thread: added at its end. */
static uint64_t tot_mpi_ns[AUGP_NMPI], tot_mpi_calls[AUGP_NMPI];
static uint64_t tot_io_ns[AUGP_NIO], tot_io_calls[AUGP_NIO], tot_rd, tot_wr;

static void add_totals(prof_thread *t) {
  for (int c = 0; c < AUGP_NMPI; c++) {
    tot_mpi_ns[c] += PROF_GET(t->mpi_ns[c]);
    tot_mpi_calls[c] += PROF_GET(t->mpi_calls[c]);
  }
  for (int c = 0; c < AUGP_NIO; c++) {
    tot_io_ns[c] += PROF_GET(t->io_ns[c]);
    tot_io_calls[c] += PROF_GET(t->io_calls[c]);
  }
  tot_rd += PROF_GET(t->io_rd);
  tot_wr += PROF_GET(t->io_wr);
}

static void store_done(const augp_thread *s) {
  if (ndone < AUGP_MAX_THREADS)
    done[ndone++] = *s;
  else
    fold(&done[AUGP_MAX_THREADS - 1], s);
}

void prof_thread_end(prof_thread *t) {
  if (!t) return;
  augp_thread s;
  summarise(t, &s, 1);
  prof_ctr_close(t);
  pthread_mutex_lock(&prof_lock);
  for (prof_thread **p = &live; *p; p = &(*p)->next)
    if (*p == t) {
      *p = t->next;
      break;
    }
  store_done(&s);
  add_totals(t);
  pthread_mutex_unlock(&prof_lock);
  tls_self = NULL;
  if (t != &main_thread) free(t);
}

static uint64_t tv_us(struct timeval tv) {
  return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* Whether a loaded object's file name starts with one of the OpenMP
 * runtimes' sonames (DATA: the list, NULL-terminated). */
static int omp_module(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  const char *slash = strrchr(info->dlpi_name, '/');
  const char *base = slash ? slash + 1 : info->dlpi_name;
  for (const char *const *n = data; *n; n++)
    if (!strncmp(base, *n, strlen(*n))) return 1;
  return 0;
}

static int omp_runtime_loaded(void) {
  static const char *const sonames[] = {"libgomp.so", "libomp.so", "libiomp5.so", NULL};
  return dl_iterate_phdr(omp_module, (void *)sonames);
}

void prof_snapshot(augp_proc *rec, uint64_t flags) {
  memset(rec, 0, sizeof *rec);
  pthread_mutex_lock(&prof_lock);
  *rec = ident;
  rec->end_ns = prof_end_ns(ident.start_ns, ident_mono);
  rec->flags |= flags | done_flags;
  if (omp_runtime_loaded()) rec->flags |= AUGP_PF_OMPRT;
  if (prof_omp_active()) rec->flags |= AUGP_PF_OMP;
  rec->nthreads = nseen;
  /* The initial thread first (it is never folded with others: the POP
   * figures of a rank need its own MPI time), then the finished threads,
   * then the other running ones, read in place. */
  augp_thread slots[AUGP_MAX_THREADS];
  memset(slots, 0, sizeof slots);
  uint64_t nslots = 0;
  int main_live = 0;
  for (prof_thread *t = live; t; t = t->next)
    main_live |= t == &main_thread;
  if (main_live) summarise(&main_thread, &slots[nslots++], &main_thread == tls_self);
  for (uint64_t i = 0; i < ndone; i++)
    if (nslots < AUGP_MAX_THREADS)
      slots[nslots++] = done[i];
    else
      fold(&slots[AUGP_MAX_THREADS - 1], &done[i]);
  for (int c = 0; c < AUGP_NMPI; c++) {
    rec->mpi_ns[c] = tot_mpi_ns[c];
    rec->mpi_calls[c] = tot_mpi_calls[c];
  }
  for (int c = 0; c < AUGP_NIO; c++) {
    rec->io_ns[c] = tot_io_ns[c];
    rec->io_calls[c] = tot_io_calls[c];
  }
  rec->io_bytes_read = tot_rd;
  rec->io_bytes_written = tot_wr;
  for (prof_thread *t = live; t; t = t->next) {
    if (t != &main_thread) {
      augp_thread s;
      summarise(t, &s, t == tls_self);
      if (nslots < AUGP_MAX_THREADS)
        slots[nslots++] = s;
      else
        fold(&slots[AUGP_MAX_THREADS - 1], &s);
    }
    for (int c = 0; c < AUGP_NMPI; c++) {
      rec->mpi_ns[c] += PROF_GET(t->mpi_ns[c]);
      rec->mpi_calls[c] += PROF_GET(t->mpi_calls[c]);
    }
    for (int c = 0; c < AUGP_NIO; c++) {
      rec->io_ns[c] += PROF_GET(t->io_ns[c]);
      rec->io_calls[c] += PROF_GET(t->io_calls[c]);
    }
    rec->io_bytes_read += PROF_GET(t->io_rd);
    rec->io_bytes_written += PROF_GET(t->io_wr);
  }
  pthread_mutex_unlock(&prof_lock);
  memcpy(rec->threads, slots, sizeof slots);
  for (uint64_t i = 0; i < nslots; i++)
    for (int c = 0; c < AUGP_NCTR; c++)
      rec->ctr[c] += slots[i].ctr[c];
  rec->ctr_mask = prof_ctr_mask();
  snprintf(rec->counter_note, sizeof rec->counter_note, "%s", prof_ctr_note());

  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    rec->utime_us = tv_us(ru.ru_utime);
    rec->stime_us = tv_us(ru.ru_stime);
    rec->maxrss_kb = (uint64_t)ru.ru_maxrss;
    rec->minflt = (uint64_t)ru.ru_minflt;
    rec->majflt = (uint64_t)ru.ru_majflt;
    rec->nvcsw = (uint64_t)ru.ru_nvcsw;
    rec->nivcsw = (uint64_t)ru.ru_nivcsw;
    rec->inblock = (uint64_t)ru.ru_inblock;
    rec->oublock = (uint64_t)ru.ru_oublock;
  }
}

int prof_write_records(const augp_proc *recs, uint64_t n, const char *kind) {
  if (!job_dir[0]) return -1;
  prof_thread *t = tls_self;
  if (t) t->in_lib++;
  char path[PATH_MAX + 128], tmp[PATH_MAX + 136];
  snprintf(path, sizeof path, "%s/%s-%s-%llu-%llu-%llu.rec", job_dir, kind, recs[0].host,
           (unsigned long long)recs[0].pid, (unsigned long long)recs[0].start_ns,
           (unsigned long long)image_seq);
  /* Written under a temporary name and renamed: the launcher never reads
   * half a record. */
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int rc = -1;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    const char *p = (const char *)recs;
    size_t left = (size_t)n * sizeof *recs;
    while (left) {
      ssize_t w = write(fd, p, left);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      p += w;
      left -= (size_t)w;
    }
    if (close(fd) == 0 && left == 0 && rename(tmp, path) == 0) rc = 0;
    if (rc)
      unlink(tmp);
    else
      snprintf(last_path, sizeof last_path, "%s", path);
  }
  if (t) t->in_lib--;
  return rc;
}

void prof_set_rank(int64_t rank, int64_t nranks) {
  pthread_mutex_lock(&prof_lock);
  ident.rank = rank;
  ident.nranks = nranks;
  done_flags |= AUGP_PF_MPI;
  pthread_mutex_unlock(&prof_lock);
}

static void write_own(uint64_t flags) {
  if (!prof_level || prof_reported) return;
  augp_proc rec;
  prof_snapshot(&rec, flags);
  if ((rec.flags & AUGP_PF_MPI) && rec.rank >= 0) rec.flags |= AUGP_PF_NOFINISH;
  prof_reported = 1;
  prof_write_records(&rec, 1, "p");
}

/* In the child of a fork: everything starts over as a new process whose
 * only thread is the caller (the other threads do not exist here). */
static void restart(uint64_t flags) {
  pthread_mutex_lock(&prof_lock);
  for (prof_thread *t = live; t;) {
    prof_thread *next = t->next;
    if (t != &main_thread && t != tls_self) free(t);
    t = next;
  }
  live = NULL;
  ndone = nseen = 0;
  done_flags = flags;
  memset(done, 0, sizeof done);
  memset(tot_mpi_ns, 0, sizeof tot_mpi_ns);
  memset(tot_mpi_calls, 0, sizeof tot_mpi_calls);
  memset(tot_io_ns, 0, sizeof tot_io_ns);
  memset(tot_io_calls, 0, sizeof tot_io_calls);
  tot_rd = tot_wr = 0;
  pthread_mutex_unlock(&prof_lock);
  identity();
  prof_reported = 0;
  /* The calling thread is the only one now: it becomes the main record. */
  prof_thread *self = tls_self;
  if (self && self != &main_thread) free(self);
  tls_self = NULL;
  thread_init(&main_thread);
  prof_ctr_open(&main_thread);
  pthread_mutex_lock(&prof_lock);
  main_thread.next = NULL;
  live = &main_thread;
  nseen = 1;
  pthread_mutex_unlock(&prof_lock);
  tls_self = &main_thread;
}

/* After fork the child's perf fds still count the parent's thread: close
 * them (without reading) and start a fresh record. */
static void atfork_child(void) {
  if (!prof_level) return;
  prof_thread *self = tls_self;
  if (self)
    for (int i = 0; i < AUGP_NCTR; i++)
      if (self->fd[i] >= 0) {
        close(self->fd[i]);
        self->fd[i] = -1;
      }
  for (prof_thread *t = live; t; t = t->next)
    if (t != self)
      for (int i = 0; i < AUGP_NCTR; i++)
        if (t->fd[i] >= 0) close(t->fd[i]);
  pthread_mutex_init(&prof_lock, NULL);
  restart(AUGP_PF_FORKED);
}

/* A vfork child shares the parent's memory and ran no atfork handler: it
 * must not write (it would report the parent's identity and mark the
 * parent's record as written). getpid() tells: glibc no longer caches it. */
static int vfork_child(void) {
  return (uint64_t)getpid() != ident.pid;
}

void prof_before_exec(void) {
  if (!prof_level || vfork_child()) return;
  write_own(AUGP_PF_EXEC);
}

void prof_before_exit(void) {
  if (!prof_level || vfork_child()) return;
  write_own(0);
}

/* The exec failed and this image goes on: its record is not final yet. */
void prof_after_failed_exec(void) {
  if (!prof_level || vfork_child() || !last_path[0]) return;
  unlink(last_path);
  last_path[0] = 0;
  prof_reported = 0;
}

__attribute__((constructor)) static void prof_init(void) {
  const char *dir = getenv("AUGUR_PROFILE_DIR");
  const char *lvl = getenv("AUGUR_PROFILE_LEVEL");
  if (!dir || !*dir || strlen(dir) >= sizeof job_dir) return;
  int level = lvl ? atoi(lvl) : 1;
  if (level <= 0) return;
  if (level > 3) level = 3;
  snprintf(job_dir, sizeof job_dir, "%s", dir);
  prof_io_resolve();
  prof_level = level;
  identity();
  prof_ctr_plan(level);
  thread_init(&main_thread);
  prof_ctr_open(&main_thread);
  live = &main_thread;
  nseen = 1;
  tls_self = &main_thread;
  pthread_atfork(NULL, NULL, atfork_child);
}

__attribute__((destructor)) static void prof_fini(void) {
  write_own(0);
}
