/* libaugur-profile — OpenMP through OMPT, as sums (docs/monitoring.md,
 * "Efficiencies"): per thread, the time in implicit tasks of parallel
 * regions and in synchronisation waits (barriers, taskwait, ...). No
 * record per event: two clock reads and an add per callback, so a hybrid
 * job's record carries its OpenMP parallel efficiency at the cost of
 * profile mode's other sums.
 *
 * An OpenMP runtime with OMPT (LLVM's libomp; a libgomp program on libomp
 * preloaded by `augur profile`) calls ompt_start_tool, exported here. LLVM
 * reports a worker's end of implicit task, and of the wait in the region's
 * closing barrier, only when the worker is released for the next region:
 * both run late by the same amount, so task less wait is the worker's work
 * (docs/pop.md "Hybrid efficiencies" says the same of the trace). */
#include <stdlib.h>
#include <string.h>

#include "prof.h"

#ifdef AUGUR_HAVE_OMPT
#include <omp-tools.h>

static atomic_int active;

int prof_omp_active(void) {
  return atomic_load_explicit(&active, memory_order_relaxed);
}

/* One scope of the calling thread: its begin time in *T0 (0: not open),
 * its length added to *SUM at its end (its owner thread only writes both). */
static void span(_Atomic uint64_t *t0, _Atomic uint64_t *sum, ompt_scope_endpoint_t endpoint) {
  uint64_t now = prof_mono_ns();
  if (endpoint == ompt_scope_begin) {
    atomic_store_explicit(t0, now, memory_order_relaxed);
    return;
  }
  uint64_t begin = PROF_GET(*t0);
  if (begin) PROF_ADD(*sum, now - begin);
  atomic_store_explicit(t0, 0, memory_order_relaxed);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned int team, unsigned int index, int flags) {
  (void)parallel;
  (void)task;
  (void)team;
  (void)index;
  if (flags & ompt_task_initial) return; /* the initial task is no region */
  prof_thread *t = prof_self();
  if (!t) return;
  if (endpoint == ompt_scope_begin) atomic_store_explicit(&t->omp, 1, memory_order_relaxed);
  span(&t->omp_task_t0, &t->omp_task_ns, endpoint);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel, ompt_data_t *task, const void *codeptr) {
  (void)kind;
  (void)parallel;
  (void)task;
  (void)codeptr;
  prof_thread *t = prof_self();
  if (t) span(&t->omp_wait_t0, &t->omp_wait_ns, endpoint);
}

/* The encountering thread: a region's time outside its own implicit task
 * is the runtime's (fork, join): not user time. Nested regions are left
 * to the outermost. */
static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
                              unsigned int team, int flags, const void *codeptr) {
  (void)task;
  (void)frame;
  (void)parallel;
  (void)team;
  (void)flags;
  (void)codeptr;
  prof_thread *t = prof_self();
  if (!t || PROF_GET(t->omp_par_t0)) return;
  atomic_store_explicit(&t->omp_par_task0, PROF_GET(t->omp_task_ns), memory_order_relaxed);
  atomic_store_explicit(&t->omp_par_t0, prof_mono_ns(), memory_order_relaxed);
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task, int flags,
                            const void *codeptr) {
  (void)parallel;
  (void)task;
  (void)flags;
  (void)codeptr;
  prof_thread *t = prof_self();
  if (!t) return;
  uint64_t t0 = PROF_GET(t->omp_par_t0), now = prof_mono_ns();
  if (!t0) return;
  uint64_t region = now - t0, in_task = PROF_GET(t->omp_task_ns) - PROF_GET(t->omp_par_task0);
  if (region > in_task) PROF_ADD(t->omp_fork_ns, region - in_task);
  atomic_store_explicit(&t->omp_par_t0, 0, memory_order_relaxed);
}

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *tool_data) {
  (void)device;
  (void)tool_data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) return 0;
  /* All needed: a runtime that offers fewer gives no figure. */
  if (set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task) != ompt_set_always ||
      set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait) !=
          ompt_set_always ||
      set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin) != ompt_set_always ||
      set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end) != ompt_set_always)
    return 0;
  atomic_store(&active, 1);
  return 1;
}

static void tool_finalize(ompt_data_t *tool_data) {
  (void)tool_data;
}

static ompt_start_tool_result_t tool = {tool_initialize, tool_finalize, {0}};

AUGUR_API ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                    const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  /* The runtime may start before this library's constructor: the
   * environment decides, as it does there. */
  const char *dir = getenv("AUGUR_PROFILE_DIR"), *lvl = getenv("AUGUR_PROFILE_LEVEL");
  const char *off = getenv("AUGUR_OMP");
  if (!dir || !*dir || (lvl && atoi(lvl) <= 0) || (off && !strcmp(off, "0"))) return NULL;
  return &tool;
}

uint64_t prof_omp_useful(prof_thread *t, int initial, uint64_t life, uint64_t mpi, uint64_t now) {
  if (!prof_omp_active()) return 0;
  uint64_t task = PROF_GET(t->omp_task_ns), wait = PROF_GET(t->omp_wait_ns);
  uint64_t t0 = PROF_GET(t->omp_task_t0), w0 = PROF_GET(t->omp_wait_t0);
  if (t0 && now > t0) task += now - t0; /* still open: counted to now */
  if (w0 && now > w0) wait += now - w0;
  uint64_t busy = initial ? life : task, lost = wait + mpi + PROF_GET(t->omp_fork_ns);
  if (!initial && !atomic_load_explicit(&t->omp, memory_order_relaxed)) return 0;
  return busy > lost ? busy - lost : 0;
}

#else

int prof_omp_active(void) {
  return 0;
}

uint64_t prof_omp_useful(prof_thread *t, int initial, uint64_t life, uint64_t mpi, uint64_t now) {
  (void)t;
  (void)initial;
  (void)life;
  (void)mpi;
  (void)now;
  return 0;
}

#endif
