/* libaugur-profile — counters by level, per thread.
 *
 * Each slot (mon_record.h) is tried with PAPI first, then with a
 * perf_event_open equivalent, else it is missing and the process record's
 * counter_note says why ("cycles,instructions: PAPI: component disabled;
 * perf: no hardware PMU"). VMs and containers usually expose no PMU: the
 * software task-clock still works there, and nothing fails. The plan is made
 * once per process; a PAPI that cannot measure anything is remembered in
 * AUGUR_PROFILE_PAPI_NOTE so child processes skip its ~4 ms initialisation.
 * Level 3 asks for more events than a PMU has registers: perf multiplexes
 * them and the values are scaled by time enabled / time running.
 * Its own reads and closes of perf fds are raw syscalls so the I/O wrappers
 * do not count them. _GNU_SOURCE for syscall(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef AUGUR_HAVE_PAPI
#include <papi.h>
#endif

#include "prof.h"

enum { SRC_NONE = 0, SRC_PAPI, SRC_PERF };

#define HWC(cache, op, res) ((uint64_t)(cache) | ((uint64_t)(op) << 8) | ((uint64_t)(res) << 16))

static const struct {
  const char *papi; /* NULL: no PAPI preset */
  uint32_t type;    /* PERF_TYPE_MAX: no perf equivalent */
  uint64_t config;
  int level;
} slot_def[AUGP_NCTR] = {
    [AUGP_CTR_TASK_CLOCK] = {NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1},
    [AUGP_CTR_CYCLES] = {"PAPI_TOT_CYC", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1},
    [AUGP_CTR_INSTRUCTIONS] = {"PAPI_TOT_INS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1},
    [AUGP_CTR_FP_OPS] = {"PAPI_FP_OPS", PERF_TYPE_MAX, 0, 2},
    [AUGP_CTR_LOADS] = {"PAPI_LD_INS", PERF_TYPE_HW_CACHE,
                        HWC(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
                            PERF_COUNT_HW_CACHE_RESULT_ACCESS),
                        2},
    [AUGP_CTR_STORES] = {"PAPI_SR_INS", PERF_TYPE_HW_CACHE,
                         HWC(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_WRITE,
                             PERF_COUNT_HW_CACHE_RESULT_ACCESS),
                         2},
    [AUGP_CTR_L1_DCM] = {"PAPI_L1_DCM", PERF_TYPE_HW_CACHE,
                         HWC(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
                             PERF_COUNT_HW_CACHE_RESULT_MISS),
                         3},
    [AUGP_CTR_L2_DCM] = {"PAPI_L2_DCM", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 3},
    [AUGP_CTR_TLB_DM] = {"PAPI_TLB_DM", PERF_TYPE_HW_CACHE,
                         HWC(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ,
                             PERF_COUNT_HW_CACHE_RESULT_MISS),
                         3},
    [AUGP_CTR_BRANCHES] = {"PAPI_BR_INS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 3},
    [AUGP_CTR_BRANCH_MISSES] = {"PAPI_BR_MSP", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 3},
    [AUGP_CTR_RESERVED] = {NULL, PERF_TYPE_MAX, 0, 99},
};

static const char *const short_names[AUGP_NCTR] = {
    "task_clock", "cycles", "instructions", "fp_ops",   "loads",         "stores",
    "l1_dcm",     "l2_dcm", "tlb_dm",       "branches", "branch_misses", "reserved"};

static int src[AUGP_NCTR];
static char why[AUGP_NCTR][96];
static char note[256];
static uint64_t mask;
static int multiplex;

static int perf_open(int slot) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = slot_def[slot].type;
  attr.config = slot_def[slot].config;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static const char *perf_reason(int err) {
  switch (err) {
  case ENOENT:
  case ENODEV:
    return "no hardware PMU";
  case EACCES:
  case EPERM:
    return "not permitted (perf_event_paranoid)";
  case EOPNOTSUPP:
    return "not supported";
  case EMFILE:
    return "out of file descriptors";
  default:
    return strerror(err);
  }
}

#ifdef AUGUR_HAVE_PAPI
/* PAPI is loaded with dlopen, and only by a process that will use it: its
 * libraries (libpapi, libpfm) cost ~3 ms of relocations per process image
 * when linked, and most processes of a job inherit "PAPI unusable" or
 * "PAPI not wanted" from their parent. The headers give the types. */
static struct {
  int (*library_init)(int);
  int (*thread_init)(unsigned long (*)(void));
  int (*multiplex_init)(void);
  int (*create_eventset)(int *);
  int (*add_named_event)(int, const char *);
  int (*cleanup_eventset)(int);
  int (*destroy_eventset)(int *);
  int (*read)(int, long long *);
  int (*register_thread)(void);
  int (*set_multiplex)(int);
  int (*start)(int);
  int (*stop)(int, long long *);
  char *(*strerror)(int);
  int (*unregister_thread)(void);
  int (*assign_eventset_component)(int, int);
} P;

static int papi_load(char *err, size_t n) {
  static const char *const names[] = {"libpapi.so.7.0", "libpapi.so.7", "libpapi.so.6.0",
                                      "libpapi.so"};
  void *h = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++)
    h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(err, n, "PAPI: cannot load libpapi");
    return -1;
  }
#define SYM(f)                                                                                     \
  do {                                                                                             \
    if (!(*(void **)(&P.f) = dlsym(h, "PAPI_" #f))) {                                              \
      snprintf(err, n, "PAPI: libpapi lacks PAPI_" #f);                                            \
      return -1;                                                                                   \
    }                                                                                              \
  } while (0)
  SYM(library_init);
  SYM(thread_init);
  SYM(multiplex_init);
  SYM(create_eventset);
  SYM(add_named_event);
  SYM(cleanup_eventset);
  SYM(destroy_eventset);
  SYM(read);
  SYM(register_thread);
  SYM(set_multiplex);
  SYM(start);
  SYM(stop);
  SYM(strerror);
  SYM(unregister_thread);
  SYM(assign_eventset_component);
#undef SYM
  return 0;
}

static int papi_ok;
static unsigned long papi_tid(void) {
  return (unsigned long)pthread_self();
}
#endif

/* Tries PAPI for every wanted slot with a preset; fills papi_err for the
 * note. Returns how many slots PAPI can measure. */
static int plan_papi(const int *want, char *papi_err, size_t n) {
  const char *inherited = getenv("AUGUR_PROFILE_PAPI_NOTE");
  if (inherited) {
    snprintf(papi_err, n, "%s", inherited);
    return 0;
  }
#ifdef AUGUR_HAVE_PAPI
  if (papi_load(papi_err, n) != 0) {
    setenv("AUGUR_PROFILE_PAPI_NOTE", papi_err, 1);
    return 0;
  }
  int rc = P.library_init(PAPI_VER_CURRENT);
  if (rc != PAPI_VER_CURRENT) {
    snprintf(papi_err, n, "PAPI: %s", rc > 0 ? "version mismatch" : P.strerror(rc));
    setenv("AUGUR_PROFILE_PAPI_NOTE", papi_err, 1);
    return 0;
  }
  P.thread_init(papi_tid);
  if (want[AUGP_CTR_L1_DCM]) multiplex = P.multiplex_init() == PAPI_OK;
  int got = 0;
  for (int s = 0; s < AUGP_NCTR; s++) {
    if (!want[s] || !slot_def[s].papi) continue;
    int set = PAPI_NULL;
    rc = P.create_eventset(&set);
    if (rc == PAPI_OK) {
      rc = P.add_named_event(set, slot_def[s].papi);
      P.cleanup_eventset(set);
      P.destroy_eventset(&set);
    }
    if (rc == PAPI_OK) {
      src[s] = SRC_PAPI;
      got++;
    } else if (!papi_err[0]) {
      snprintf(papi_err, n, "PAPI: %s", P.strerror(rc));
    }
  }
  papi_ok = got > 0;
  if (!got) setenv("AUGUR_PROFILE_PAPI_NOTE", papi_err[0] ? papi_err : "PAPI: no event", 1);
  return got;
#else
  (void)want;
  snprintf(papi_err, n, "PAPI: not built in");
  return 0;
#endif
}

/* "PAPI: <why>; <slots>: <perf why>; ..." -- one group per distinct reason. */
static void build_note(const char *papi_err, int papi_used) {
  size_t len = 0;
  note[0] = 0;
  int any = 0;
  for (int s = 0; s < AUGP_NCTR; s++)
    any |= why[s][0] != 0;
  if (!any) return;
  if (papi_err[0] && !papi_used) {
    int w = snprintf(note, sizeof note, "%s", papi_err);
    if (w < 0 || (size_t)w >= sizeof note) return;
    len = (size_t)w;
  }
  int used[AUGP_NCTR] = {0};
  for (int s = 0; s < AUGP_NCTR; s++) {
    if (!why[s][0] || used[s]) continue;
    int w = snprintf(note + len, sizeof note - len, "%s%s", len ? "; " : "", short_names[s]);
    if (w < 0 || (size_t)w >= sizeof note - len) return;
    len += (size_t)w;
    used[s] = 1;
    for (int o = s + 1; o < AUGP_NCTR; o++)
      if (!used[o] && !strcmp(why[o], why[s])) {
        used[o] = 1;
        w = snprintf(note + len, sizeof note - len, ",%s", short_names[o]);
        if (w < 0 || (size_t)w >= sizeof note - len) return;
        len += (size_t)w;
      }
    w = snprintf(note + len, sizeof note - len, ": %s", why[s]);
    if (w < 0 || (size_t)w >= sizeof note - len) return;
    len += (size_t)w;
  }
}

void prof_ctr_plan(int level) {
  int want[AUGP_NCTR] = {0};
  for (int s = 0; s < AUGP_NCTR; s++)
    want[s] = slot_def[s].level <= level;
  char papi_err[80] = "";
  int papi_used = plan_papi(want, papi_err, sizeof papi_err) > 0;
  for (int s = 0; s < AUGP_NCTR; s++) {
    if (!want[s] || src[s] == SRC_PAPI) continue;
    const char *perr;
    if (slot_def[s].type == PERF_TYPE_MAX) {
      perr = "no perf generic event";
    } else {
      int fd = perf_open(s);
      if (fd >= 0) {
        syscall(SYS_close, fd);
        src[s] = SRC_PERF;
        continue;
      }
      perr = perf_reason(errno);
    }
    snprintf(why[s], sizeof why[s], "perf: %s", perr);
  }
  mask = 0;
  for (int s = 0; s < AUGP_NCTR; s++)
    if (src[s] != SRC_NONE) mask |= 1u << s;
  build_note(papi_err, papi_used);
}

/* Is t->fd[s] still our event? Programs close every descriptor after fork
 * or dup2 over ours (hydra_pmi_proxy does): reading a pipe would block and
 * closing it would break the program. The kernel's event id tells. */
static int still_ours(prof_thread *t, int s) {
  uint64_t id = 0;
  return t->fd[s] >= 0 && ioctl(t->fd[s], PERF_EVENT_IOC_ID, &id) == 0 && id == t->fd_id[s];
}

void prof_ctr_open(prof_thread *t) {
  for (int s = 0; s < AUGP_NCTR; s++)
    if (src[s] == SRC_PERF) {
      t->fd[s] = perf_open(s);
      if (t->fd[s] >= 0 && ioctl(t->fd[s], PERF_EVENT_IOC_ID, &t->fd_id[s]) != 0) {
        syscall(SYS_close, t->fd[s]);
        t->fd[s] = -1;
      }
    }
#ifdef AUGUR_HAVE_PAPI
  if (papi_ok) {
    int set = PAPI_NULL;
    P.register_thread();
    if (P.create_eventset(&set) == PAPI_OK) {
      if (multiplex && P.assign_eventset_component(set, 0) == PAPI_OK) P.set_multiplex(set);
      for (int s = 0; s < AUGP_NCTR; s++)
        if (src[s] == SRC_PAPI) P.add_named_event(set, slot_def[s].papi);
      if (P.start(set) == PAPI_OK)
        t->papi_set = set;
      else
        P.destroy_eventset(&set);
    }
  }
#endif
}

void prof_ctr_read(prof_thread *t, uint64_t *out, int self) {
  for (int s = 0; s < AUGP_NCTR; s++) {
    if (!still_ours(t, s)) continue;
    uint64_t v[3];
    if (syscall(SYS_read, t->fd[s], v, sizeof v) != (long)sizeof v) continue;
    /* Multiplexed: scale to the whole time enabled. */
    if (v[2] && v[2] < v[1])
      out[s] = (uint64_t)((double)v[0] * (double)v[1] / (double)v[2]);
    else
      out[s] = v[0];
  }
#ifdef AUGUR_HAVE_PAPI
  if (self && t->papi_set >= 0) {
    long long vals[AUGP_NCTR];
    if (P.read(t->papi_set, vals) == PAPI_OK) {
      int k = 0;
      for (int s = 0; s < AUGP_NCTR; s++)
        if (src[s] == SRC_PAPI) out[s] = (uint64_t)vals[k++];
    }
  }
#else
  (void)self;
#endif
}

void prof_ctr_close(prof_thread *t) {
  for (int s = 0; s < AUGP_NCTR; s++)
    if (t->fd[s] >= 0) {
      if (still_ours(t, s)) syscall(SYS_close, t->fd[s]);
      t->fd[s] = -1;
    }
#ifdef AUGUR_HAVE_PAPI
  if (t->papi_set >= 0) {
    long long vals[AUGP_NCTR];
    P.stop(t->papi_set, vals);
    P.cleanup_eventset(t->papi_set);
    P.destroy_eventset(&t->papi_set);
    t->papi_set = -1;
    P.unregister_thread();
  }
#endif
}

uint64_t prof_ctr_mask(void) {
  return mask;
}

const char *prof_ctr_note(void) {
  return note;
}
