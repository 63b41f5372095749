/* augur recorder — hardware/software counters per thread.
 *
 * AUGUR_COUNTERS=auto tries PAPI (PAPI_TOT_INS, PAPI_TOT_CYC), then perf
 * (instructions, cycles), then none. Explicit names go to PAPI when they look
 * like PAPI names (PAPI_* or containing "::") and to perf_event_open when they
 * are perf generic names. A counter that cannot be opened is left out and the
 * rank definition's counter_note says why: VMs often have no PMU, and that
 * must show in the trace, not crash the run. Counters are opened per thread,
 * lazily on a thread's first event, user space only. syscall() needs
 * _GNU_SOURCE.
 *
 * "run-delay" is the kernel's scheduler accounting, not perf: the ns the
 * thread was runnable but waiting for a CPU (second field of
 * /proc/thread-self/schedstat, kept open per thread, one pread a read). On a
 * host with more ranks than CPUs the recorder adds it by default
 * (aug_counters_setup): a compute burst's wall time then holds the turns the
 * ranks took, and simulate removes them (docs/simulate.md "Oversubscribed
 * recordings"). On a busy host (no more ranks than CPUs, but the ranks waited
 * for one during MPI_Init: rec_lifecycle.c host_cpu_state) it adds run-delay
 * alone, and simulate takes the waits out the same way (docs/simulate.md "A
 * busy host"). A burst is short when the program polls (a rank leaves a
 * wait while it has a CPU and is rarely preempted before its next call), so
 * run-delay misses where polling ranks lose their CPU: inside the calls.
 * "run-delay-mpi", added with it, is the delay during the PREVIOUS MPI call:
 * a counter's delta runs from one call's exit to the next call's entry, so
 * the exit read reports the sum of the calls' delays before this call and
 * adds this call's, which the next entry's delta then carries. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef AUGUR_HAVE_PAPI
#include <papi.h>
#endif

#include "rec_internal.h"

typedef struct ctr_spec {
  uint32_t source; /* enum augur_counter_source */
  char name[64];
  uint32_t perf_type;
  uint64_t perf_config;
  int papi_index; /* position in the thread's PAPI event set */
  int mpi_delay;  /* run-delay-mpi */
} ctr_spec;

static ctr_spec specs[AUGUR_MAX_COUNTERS];
static augur_counter_def defs[AUGUR_MAX_COUNTERS];
static char note[1024];
static int npapi;

static const struct {
  const char *name;
  uint32_t type;
  uint64_t config;
} perf_names[] = {
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
};

/* Counters the kernel keeps per thread (source AUGUR_CTR_OS). */
static const char *const os_names[] = {"run-delay", "run-delay-mpi"};

static int os_open(void) {
  return open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

/* The thread's schedstat ("cpu_ns run_delay_ns slices") from FD: *DELAY and, if CPU is
 * not NULL, *CPU; 0 on failure. */
static int sched_read(int fd, uint64_t *cpu, uint64_t *delay) {
  char buf[96];
  ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
  if (n <= 0) return 0;
  buf[n] = '\0';
  char *sp = strchr(buf, ' ');
  if (!sp) return 0;
  if (cpu) *cpu = strtoull(buf, NULL, 10);
  *delay = strtoull(sp + 1, NULL, 10);
  return 1;
}

/* run-delay (ns) from the thread's schedstat fd; 0 on failure. */
static uint64_t os_read(int fd) {
  uint64_t d;
  return sched_read(fd, NULL, &d) ? d : 0;
}

/* Where the thread runs (docs/simulate.md "Recorded placement"): at each
 * run-delay read (a call's entry and exit) the CPU it is on (sched_getcpu,
 * a vDSO call), noted with the time when it differs from the last read's.
 * Only with run-delay, which the recorder adds on oversubscribed hosts
 * (not when it adds it for a busy host: nothing uses the placement there):
 * elsewhere a call costs what it did. */
static int place_on = 1; /* 0: run-delay added for a busy host only */

static void place_sample(aug_thread *t) {
  if (!place_on) return;
  int c = sched_getcpu();
  if (c < 0 || (t->pl_n && c == t->pl_cpu)) return;
  t->pl_cpu = c;
  if (t->pl_n == AUGUR_MAX_MOVES) {
    t->pl_lost++;
    return;
  }
  t->pl_moves[t->pl_n].ns = aug_now();
  t->pl_moves[t->pl_n++].cpu = (uint32_t)c;
}

static void add_note(const char *fmt, const char *a, const char *b) {
  size_t len = strlen(note);
  if (len >= sizeof note - 2) return;
  if (len) {
    snprintf(note + len, sizeof note - len, "; ");
    len += 2;
  }
  snprintf(note + len, sizeof note - len, fmt, a, b);
}

static int perf_open(uint32_t type, uint64_t config) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = type;
  attr.config = config;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

#ifdef AUGUR_HAVE_PAPI
static int papi_ready = -1; /* -1 unknown, 0 failed, 1 ok */

static unsigned long papi_thread_id(void) {
  return (unsigned long)pthread_self();
}

static int papi_init(void) {
  if (papi_ready >= 0) return papi_ready;
  int rc = PAPI_library_init(PAPI_VER_CURRENT);
  if (rc != PAPI_VER_CURRENT) {
    add_note("PAPI_library_init: %s%s", rc > 0 ? "version mismatch" : PAPI_strerror(rc), "");
    return papi_ready = 0;
  }
  PAPI_thread_init(papi_thread_id);
  return papi_ready = 1;
}

/* Creates and starts the calling thread's event set with every PAPI spec. */
static int papi_thread_set(void) {
  int set = PAPI_NULL;
  if (PAPI_create_eventset(&set) != PAPI_OK) return -1;
  for (int i = 0; i < aug_nctr; i++)
    if (specs[i].source == AUGUR_CTR_PAPI && PAPI_add_named_event(set, specs[i].name) != PAPI_OK) {
      PAPI_destroy_eventset(&set);
      return -1;
    }
  if (PAPI_start(set) != PAPI_OK) {
    PAPI_cleanup_eventset(set);
    PAPI_destroy_eventset(&set);
    return -1;
  }
  return set;
}
#endif

static int looks_papi(const char *name) {
  return strncmp(name, "PAPI_", 5) == 0 || strstr(name, "::") != NULL;
}

/* Adds one counter if it can be opened on this thread; t gets the fd. */
static int try_add(aug_thread *t, const char *name) {
  if (aug_nctr >= AUGUR_MAX_COUNTERS) {
    add_note("%s: more than the maximum of counters%s", name, "");
    return 0;
  }
  ctr_spec *s = &specs[aug_nctr];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  if (looks_papi(name)) {
#ifdef AUGUR_HAVE_PAPI
    if (!papi_init()) return 0;
    int set = PAPI_NULL, rc;
    if ((rc = PAPI_create_eventset(&set)) == PAPI_OK) {
      rc = PAPI_add_named_event(set, name);
      PAPI_cleanup_eventset(set);
      PAPI_destroy_eventset(&set);
    }
    if (rc != PAPI_OK) {
      add_note("PAPI %s: %s", name, PAPI_strerror(rc));
      return 0;
    }
    s->source = AUGUR_CTR_PAPI;
    s->papi_index = npapi++;
    aug_nctr++;
    return 1;
#else
    add_note("%s: augur was built without PAPI%s", name, "");
    return 0;
#endif
  }
  for (size_t k = 0; k < sizeof os_names / sizeof os_names[0]; k++) {
    if (strcmp(os_names[k], name) != 0) continue;
    int fd = os_open();
    if (fd < 0) {
      add_note("%s: /proc/thread-self/schedstat: %s", name, strerror(errno));
      return 0;
    }
    s->source = AUGUR_CTR_OS;
    s->mpi_delay = k == 1;
    t->ctr_fd[aug_nctr] = fd;
    aug_nctr++;
    return 1;
  }
  for (size_t k = 0; k < sizeof perf_names / sizeof perf_names[0]; k++) {
    if (strcmp(perf_names[k].name, name) != 0) continue;
    int fd = perf_open(perf_names[k].type, perf_names[k].config);
    if (fd < 0) {
      add_note("perf_event_open(%s): %s", name, strerror(errno));
      return 0;
    }
    s->source = AUGUR_CTR_PERF;
    s->perf_type = perf_names[k].type;
    s->perf_config = perf_names[k].config;
    t->ctr_fd[aug_nctr] = fd;
    aug_nctr++;
    return 1;
  }
  add_note("%s: unknown counter name%s", name, "");
  return 0;
}

/* Whether counter NAME is already in use. */
static int in_use(const char *name) {
  for (int i = 0; i < aug_nctr; i++)
    if (!strcmp(specs[i].name, name)) return 1;
  return 0;
}

void aug_counters_setup(int host_state, double init_share) {
  aug_thread *t = aug_thread_self();
  if (!t || strcmp(aug_cfg.counters, "none") == 0) return;
  if (strcmp(aug_cfg.counters, "auto") == 0) {
    try_add(t, "PAPI_TOT_INS");
    try_add(t, "PAPI_TOT_CYC");
    if (aug_nctr == 0) {
      try_add(t, "instructions");
      try_add(t, "cycles");
    }
  } else {
    char list[sizeof aug_cfg.counters];
    snprintf(list, sizeof list, "%s", aug_cfg.counters);
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
      if (*tok) try_add(t, tok);
  }
  /* More ranks than CPUs on this host: every burst's wait for a CPU, and the
   * calls' (the other work's share, docs/simulate.md). A busy host (other
   * processes took the ranks' CPUs during MPI_Init): the bursts' waits, which
   * simulate takes out; not the calls', which nothing uses there. */
  if (host_state >= AUG_HOST_BUSY && !in_use("run-delay") && try_add(t, "run-delay") &&
      host_state == AUG_HOST_BUSY) {
    char why[160];
    snprintf(why, sizeof why,
             "busy host at MPI_Init (its ranks waited %.0f %% of their time there for a CPU)",
             100 * init_share);
    add_note("run-delay added: %s%s", why, "");
    place_on = 0; /* where the ranks ran matters with turns only */
  }
  if (host_state == AUG_HOST_OVERSUBSCRIBED && !in_use("run-delay-mpi"))
    try_add(t, "run-delay-mpi");
#ifdef AUGUR_HAVE_PAPI
  if (npapi) t->papi_set = papi_thread_set();
#endif
  for (int i = 0; i < aug_nctr; i++) {
    defs[i].index = (uint32_t)i;
    defs[i].source = specs[i].source;
    defs[i].name = specs[i].name;
  }
  t->ctr_open = 1;
  aug_counters_read(t, t->ctr_last);
}

void aug_counters_thread_open(aug_thread *t) {
  if (t->ctr_open) return;
  t->ctr_open = 1;
  for (int i = 0; i < aug_nctr; i++)
    if (specs[i].source == AUGUR_CTR_PERF)
      t->ctr_fd[i] = perf_open(specs[i].perf_type, specs[i].perf_config);
    else if (specs[i].source == AUGUR_CTR_OS)
      t->ctr_fd[i] = os_open();
#ifdef AUGUR_HAVE_PAPI
  if (npapi) {
    PAPI_register_thread();
    t->papi_set = papi_thread_set();
  }
#endif
  aug_counters_read(t, t->ctr_last);
}

void aug_counters_thread_close(aug_thread *t) {
  for (int i = 0; i < AUGUR_MAX_COUNTERS; i++)
    if (t->ctr_fd[i] >= 0) {
      close(t->ctr_fd[i]);
      t->ctr_fd[i] = -1;
    }
#ifdef AUGUR_HAVE_PAPI
  if (t->papi_set >= 0) {
    long long v[AUGUR_MAX_COUNTERS];
    PAPI_stop(t->papi_set, v);
    PAPI_cleanup_eventset(t->papi_set);
    PAPI_destroy_eventset(&t->papi_set);
    t->papi_set = -1;
  }
#endif
}

void aug_counters_read(aug_thread *t, uint64_t *out) {
#ifdef AUGUR_HAVE_PAPI
  long long pv[AUGUR_MAX_COUNTERS] = {0};
  if (t->papi_set >= 0) PAPI_read(t->papi_set, pv);
#endif
  for (int i = 0; i < aug_nctr; i++) {
    uint64_t v = 0;
    if (specs[i].source == AUGUR_CTR_PERF) {
      if (t->ctr_fd[i] >= 0 && read(t->ctr_fd[i], &v, sizeof v) != (ssize_t)sizeof v) v = 0;
    } else if (specs[i].mpi_delay) {
      v = os_read(t->ctr_fd[i]);
      if (out != t->ctr_last) { /* a call's entry */
        t->mpi_delay_entry = v;
        t->mpi_delay_in = 1;
        v = t->mpi_delay;
      } else { /* its exit (or the thread's first read) */
        uint64_t before = t->mpi_delay;
        if (t->mpi_delay_in && v > t->mpi_delay_entry) t->mpi_delay += v - t->mpi_delay_entry;
        t->mpi_delay_in = 0;
        v = before;
      }
    } else if (specs[i].source == AUGUR_CTR_OS) {
      v = os_read(t->ctr_fd[i]);
      place_sample(t);
    }
#ifdef AUGUR_HAVE_PAPI
    else
      v = (uint64_t)pv[specs[i].papi_index];
#endif
    out[i] = v;
  }
}

void aug_counters_describe(augur_rank_def *def) {
  def->ncounters = (uint32_t)aug_nctr;
  for (int i = 0; i < aug_nctr; i++)
    def->counters[i] = defs[i];
  if (note[0])
    def->counter_note = note;
  else if (aug_nctr == 0)
    def->counter_note =
        strcmp(aug_cfg.counters, "none") == 0 ? "counters off (none requested)" : "no counters";
  else
    def->counter_note = NULL;
}

/* se.nr_migrations of the calling thread, UINT64_MAX if unreadable. */
static uint64_t migrations(void) {
  FILE *f = fopen("/proc/thread-self/sched", "re");
  char line[256];
  uint64_t m = UINT64_MAX;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "se.nr_migrations", 16)) {
      char *colon = strchr(line, ':');
      if (colon) m = strtoull(colon + 1, NULL, 10);
      break;
    }
  if (f) fclose(f);
  return m;
}

/* The calling thread's time on a CPU and runnable without one (ns); 0 if unreadable. */
static int sched_times(uint64_t *cpu, uint64_t *delay) {
  int fd = os_open();
  int ok = sched_read(fd, cpu, delay);
  if (fd >= 0) close(fd);
  return ok;
}

/* A thread's scheduler times at a moment (sched_mark_set), to take the
 * time on a CPU and waiting for one since (sched_since) on the same thread. */
typedef struct sched_mark {
  uint64_t cpu, delay;
  pid_t tid; /* the thread read, 0 if unreadable */
} sched_mark;

static void sched_mark_set(sched_mark *m) {
  m->tid = sched_times(&m->cpu, &m->delay) ? (pid_t)syscall(SYS_gettid) : 0;
}

/* 1 and the ns since M on a CPU (*CPU) and waiting for one (*DELAY), or 0
 * (both 0): M unread, another thread, no schedstat, a clock gone back. */
static int sched_since(const sched_mark *m, uint64_t *cpu, uint64_t *delay) {
  uint64_t c, d;
  *cpu = *delay = 0;
  if (!m->tid || (pid_t)syscall(SYS_gettid) != m->tid || !sched_times(&c, &d) || c < m->cpu ||
      d < m->delay)
    return 0;
  *cpu = c - m->cpu;
  *delay = d - m->delay;
  return 1;
}

static sched_mark init_entry; /* MPI_Init's entry (the wrappers) */
static sched_mark init_done;  /* MPI_Init's end, for the totals at MPI_Finalize */

void aug_counters_init_mark(void) {
  sched_mark_set(&init_entry);
}

int aug_counters_init_window(uint64_t *cpu, uint64_t *delay) {
  return sched_since(&init_entry, cpu, delay);
}

void aug_counters_sched_start(void) {
  sched_mark_set(&init_done);
}

void aug_counters_sched_end(augur_rank_def *def) {
  uint64_t cpu, delay;
  def->cpu_ns = def->run_delay_ns = 0;
  if (!sched_since(&init_done, &cpu, &delay) || !cpu) return;
  def->cpu_ns = cpu;
  def->run_delay_ns = delay;
}

void aug_counters_placement(aug_thread *t, augur_rank_def *def) {
  def->nmoves = t ? t->pl_n : 0;
  def->moves = t && t->pl_n ? t->pl_moves : NULL;
  def->moves_lost = t ? t->pl_lost : 0;
  def->migrations = def->nmoves ? migrations() : UINT64_MAX;
}
