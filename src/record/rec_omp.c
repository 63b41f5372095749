/* augur recorder — OpenMP through OMPT (docs/openmp.md "Records",
 * "Recording").
 *
 * An OpenMP runtime that implements OMPT (LLVM's libomp, and a libgomp
 * program run on libomp preloaded by `augur record`) calls ompt_start_tool,
 * which the recorder exports, when it starts. initialize registers the
 * callbacks of the contract and keeps what each registration returned (for
 * trace.json "openmp"). Each callback appends one point record to its
 * thread's OpenMP buffer (aug_omp_append, rec_thread.c) while recording is
 * active; the buffer is written as kind-3 blocks by the MPI buffers' flushes.
 *
 * Region ids and explicit task ids come from per-rank counters and are kept
 * in the runtime's parallel_data / task_data. An implicit task's task_data
 * holds its region id and its thread index (the end callback may get no
 * parallel_data), marked with AUG_IMPLICIT so a task switch back to an
 * implicit task reads as task 0.
 *
 * AUGUR_OMP=0 (augur record --omp off) and signature mode: ompt_start_tool
 * declines, nothing is registered, the runtime runs without a tool. */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_internal.h"

#ifdef AUGUR_HAVE_OMPT
#include <omp-tools.h>

#define AUG_IMPLICIT    (1ull << 63)
#define AUG_REGION_BITS 40
#define AUG_REGION_MASK ((1ull << AUG_REGION_BITS) - 1)

static atomic_ulong next_region, next_task;
static char runtime[128];
static atomic_int started;     /* ompt_start_tool accepted */
static atomic_int initialized; /* initialize ran: callbacks registered */

static uint64_t implicit_of(uint64_t region, unsigned index) {
  return AUG_IMPLICIT | ((uint64_t)(index & 0x7fffffu) << AUG_REGION_BITS) |
         (region & AUG_REGION_MASK);
}

/* An explicit task's id, or 0 for an implicit task (or no task). */
static uint64_t task_id(const ompt_data_t *d) {
  return !d || (d->value & AUG_IMPLICIT) ? 0 : d->value;
}

static uint64_t ra(const void *codeptr) {
  return (uint64_t)(uintptr_t)codeptr;
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  thread_data->value = (uint64_t)type;
  aug_omp_append(AUGUR_EV_OMP_THREAD_BEGIN, 0, 0, 0, 0, (int32_t)type, 0, 0);
}

static void on_thread_end(ompt_data_t *thread_data) {
  aug_omp_append(AUGUR_EV_OMP_THREAD_END, 0, 0, 0, 0, (int32_t)thread_data->value, 0, 0);
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
                              unsigned requested, int flags, const void *codeptr) {
  (void)task;
  (void)frame;
  uint64_t id = atomic_fetch_add_explicit(&next_region, 1, memory_order_relaxed) + 1;
  parallel->value = id;
  aug_omp_append(AUGUR_EV_OMP_FORK, ra(codeptr), id, requested, 0, 0, 0,
                 (uint16_t)(flags & 0xffff));
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task, int flags,
                            const void *codeptr) {
  (void)task;
  (void)flags;
  aug_omp_append(AUGUR_EV_OMP_JOIN, ra(codeptr), parallel->value, 0, 0, 0, 0, 0);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                             ompt_data_t *task, unsigned actual, unsigned index, int flags) {
  int initial = (flags & ompt_task_initial) != 0;
  if (endpoint == ompt_scope_begin) {
    uint64_t region = initial || !parallel ? 0 : parallel->value;
    task->value = implicit_of(region, index);
    aug_omp_append(AUGUR_EV_OMP_ITASK_BEGIN, 0, region, index, (int32_t)actual, 0, 0,
                   (uint16_t)initial);
  } else {
    uint64_t v = task->value;
    aug_omp_append(AUGUR_EV_OMP_ITASK_END, 0, v & AUG_REGION_MASK,
                   (uint32_t)((v & ~AUG_IMPLICIT) >> AUG_REGION_BITS), 0, 0, 0, 0);
  }
}

static void on_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                    ompt_data_t *task, uint64_t count, const void *codeptr) {
  (void)parallel;
  (void)task;
  if (endpoint == ompt_scope_begin) {
    aug_thread *t =
        aug_omp_append(AUGUR_EV_OMP_WORK_BEGIN, ra(codeptr), 0, 0, 0, (int32_t)wstype, count, 0);
    if (t) t->dispatched = 0;
  } else {
    aug_thread *t = aug_thread_here();
    aug_omp_append(AUGUR_EV_OMP_WORK_END, 0, 0, t ? t->dispatched : 0, 0, (int32_t)wstype, 0, 0);
  }
}

/* OMPT 5.1: INSTANCE is the chunk's first logical iteration (the section for
 * sections); the chunk's size is not given. */
static void on_dispatch(ompt_data_t *parallel, ompt_data_t *task, ompt_dispatch_t kind,
                        ompt_data_t instance) {
  (void)parallel;
  (void)task;
  aug_thread *t =
      aug_omp_append(AUGUR_EV_OMP_DISPATCH, 0, instance.value, 0, 0, (int32_t)kind, 0, 0);
  if (t) t->dispatched++;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel, ompt_data_t *task, const void *codeptr) {
  (void)parallel;
  (void)task;
  int begin = endpoint == ompt_scope_begin;
  aug_omp_append(begin ? AUGUR_EV_OMP_SYNC_BEGIN : AUGUR_EV_OMP_SYNC_END, begin ? ra(codeptr) : 0,
                 0, 0, 0, (int32_t)kind, 0, 0);
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel, ompt_data_t *task, const void *codeptr) {
  (void)parallel;
  (void)task;
  (void)codeptr;
  aug_omp_append(endpoint == ompt_scope_begin ? AUGUR_EV_OMP_WAIT_BEGIN : AUGUR_EV_OMP_WAIT_END, 0,
                 0, 0, 0, (int32_t)kind, 0, 0);
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                             ompt_wait_id_t wait_id, const void *codeptr) {
  (void)hint;
  (void)impl;
  aug_omp_append(AUGUR_EV_OMP_MUTEX_ACQUIRE, ra(codeptr), wait_id, 0, 0, (int32_t)kind, 0, 0);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  (void)codeptr;
  aug_omp_append(AUGUR_EV_OMP_MUTEX_ACQUIRED, 0, wait_id, 0, 0, (int32_t)kind, 0, 0);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  (void)codeptr;
  aug_omp_append(AUGUR_EV_OMP_MUTEX_RELEASED, 0, wait_id, 0, 0, (int32_t)kind, 0, 0);
}

static void on_task_create(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *new_task,
                           int flags, int has_dependences, const void *codeptr) {
  (void)task;
  (void)frame;
  (void)has_dependences;
  uint64_t id = atomic_fetch_add_explicit(&next_task, 1, memory_order_relaxed) + 1;
  if (new_task) new_task->value = id;
  aug_omp_append(AUGUR_EV_OMP_TASK_CREATE, ra(codeptr), id, 0, 0, (int32_t)(flags & 0xffff), 0, 0);
}

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next) {
  aug_omp_append(AUGUR_EV_OMP_TASK_SCHEDULE, 0, task_id(next), (uint32_t)task_id(prior), 0,
                 (int32_t)status, 0, 0);
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                      const void *codeptr) {
  (void)parallel;
  (void)task;
  int begin = endpoint == ompt_scope_begin;
  aug_omp_append(begin ? AUGUR_EV_OMP_MASKED_BEGIN : AUGUR_EV_OMP_MASKED_END,
                 begin ? ra(codeptr) : 0, 0, 0, 0, 0, 0, 0);
}

/* The callbacks of the contract, in trace.json "callbacks" order. */
static const struct {
  const char *name;
  ompt_callbacks_t event;
  ompt_callback_t fn;
} callbacks[] = {
    {"thread_begin", ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin},
    {"thread_end", ompt_callback_thread_end, (ompt_callback_t)on_thread_end},
    {"parallel_begin", ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin},
    {"parallel_end", ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end},
    {"implicit_task", ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task},
    {"work", ompt_callback_work, (ompt_callback_t)on_work},
    {"dispatch", ompt_callback_dispatch, (ompt_callback_t)on_dispatch},
    {"sync_region", ompt_callback_sync_region, (ompt_callback_t)on_sync_region},
    {"sync_region_wait", ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_region_wait},
    {"mutex_acquire", ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire},
    {"mutex_acquired", ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex_acquired},
    {"mutex_released", ompt_callback_mutex_released, (ompt_callback_t)on_mutex_released},
    {"task_create", ompt_callback_task_create, (ompt_callback_t)on_task_create},
    {"task_schedule", ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule},
    {"masked", ompt_callback_masked, (ompt_callback_t)on_masked},
};
#define NCALLBACKS (sizeof callbacks / sizeof callbacks[0])
/* ompt_set_callback's answers (ompt_set_result_t), for trace.json */
static augur_omp_callback registered[NCALLBACKS];

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *tool_data) {
  (void)device;
  (void)tool_data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) return 0; /* a runtime without it cannot call us: stay out */
  for (size_t i = 0; i < NCALLBACKS; i++)
    registered[i] =
        (augur_omp_callback){callbacks[i].name, (int)set(callbacks[i].event, callbacks[i].fn)};
  atomic_store(&initialized, 1);
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
  const char *off = getenv("AUGUR_OMP"), *sig = getenv("AUGUR_SIGNATURE");
  if ((off && !strcmp(off, "0")) || (sig && *sig)) return NULL;
  snprintf(runtime, sizeof runtime, "%s", runtime_version ? runtime_version : "");
  atomic_store(&started, 1);
  return &tool;
}
#endif /* AUGUR_HAVE_OMPT */

/* ---- what trace.json says ---- */

/* Whether a loaded object's file name starts with one of the OpenMP
 * runtimes' sonames. */
static int has_module(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  const char *want = data, *slash = strrchr(info->dlpi_name, '/');
  const char *base = slash ? slash + 1 : info->dlpi_name;
  return !strncmp(base, want, strlen(want));
}

static int loaded(const char *soname) {
  return dl_iterate_phdr(has_module, (void *)soname);
}

void aug_omp_describe(augur_omp_meta *m) {
  memset(m, 0, sizeof *m);
  const char *off = getenv("AUGUR_OMP"), *asked = getenv("AUGUR_OMP_MODE");
  int gomp = loaded("libgomp.so"), llvm = loaded("libomp.so") || loaded("libiomp5.so");
  m->mode = "none";
  m->runtime = m->note = "";
  if (off && !strcmp(off, "0")) {
    m->mode = "off";
    m->note = "OpenMP not recorded (--omp off)";
    return;
  }
#ifdef AUGUR_HAVE_OMPT
  if (atomic_load(&initialized)) {
    m->runtime = runtime;
    m->ncallbacks = NCALLBACKS;
    m->callbacks = registered;
    m->mode = gomp ? "ompt-preloaded" : "ompt";
    if (gomp)
      m->note = "a libgomp program run on LLVM's libomp: GCC's schedule(static) loops are "
                "computed inline and give no work records";
    return;
  }
#endif
  if (gomp || (asked && !strcmp(asked, "unavailable"))) {
    m->mode = "unavailable";
    m->note = llvm ? "the OpenMP runtime started no tool (OMP_TOOL=disabled?): MPI only"
                   : "libgomp has no OMPT and LLVM's libomp was not preloaded: MPI only";
  } else if (llvm) {
    m->note = "the OpenMP runtime did not start before MPI_Finalize";
  }
}
