/* augur diagnose — pattern names, string helpers, freeing a diagnosis. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dx_int.h"

static const char *const ids[AUGUR_DX_NPATTERNS] = {"late_sender",
                                                    "late_receiver",
                                                    "wrong_order",
                                                    "wait_at_collective",
                                                    "wait_at_barrier",
                                                    "late_broadcast",
                                                    "early_reduce",
                                                    "blocked_sender",
                                                    "multiple_output",
                                                    "master_bound",
                                                    "workers_bound",
                                                    "load_imbalance",
                                                    "late_arrival",
                                                    "serialization",
                                                    "slow_communication",
                                                    "collective_volume",
                                                    "polling",
                                                    "io_serialised",
                                                    "io_small_requests",
                                                    "io_imbalance",
                                                    "io_collective",
                                                    "late_post",
                                                    "early_wait",
                                                    "late_complete",
                                                    "wait_at_fence",
                                                    "lock_contention",
                                                    "rma_volume",
                                                    "omp_load_imbalance",
                                                    "omp_critical_contention",
                                                    "omp_fork_join",
                                                    "mpi_in_serial_section",
                                                    "omp_serial_region",
                                                    "omp_limited_parallelism"};

static const char *const titles[AUGUR_DX_NPATTERNS] = {"Late sender",
                                                       "Late receiver",
                                                       "Messages in wrong order",
                                                       "Wait at collective (N x N)",
                                                       "Wait at barrier",
                                                       "Late broadcast",
                                                       "Early reduce",
                                                       "Blocked sender chain",
                                                       "Multiple output",
                                                       "Master-bound master/worker",
                                                       "Workers-bound master/worker",
                                                       "Load imbalance",
                                                       "Late arrival (consequence)",
                                                       "Serialization",
                                                       "Slow communication",
                                                       "Collective data movement",
                                                       "Polling",
                                                       "Serialised file I/O",
                                                       "Small file I/O requests",
                                                       "File I/O imbalance",
                                                       "Collective file I/O",
                                                       "Late post (one-sided)",
                                                       "Early wait (one-sided)",
                                                       "Late complete (one-sided)",
                                                       "Wait at fence (one-sided)",
                                                       "Lock contention (one-sided)",
                                                       "One-sided data movement",
                                                       "OpenMP load imbalance",
                                                       "Critical section or lock contention",
                                                       "Fork/join of short regions",
                                                       "MPI in a serial section (masteronly)",
                                                       "Serial section (Amdahl)",
                                                       "Limited parallelism"};

const char *augur_dx_pattern_id(int p) {
  return p >= 0 && p < AUGUR_DX_NPATTERNS ? ids[p] : "?";
}

const char *augur_dx_pattern_title(int p) {
  return p >= 0 && p < AUGUR_DX_NPATTERNS ? titles[p] : "?";
}

int augur_dx_pattern_from_id(const char *id) {
  for (int p = 0; id && p < AUGUR_DX_NPATTERNS; p++)
    if (!strcmp(ids[p], id)) return p;
  return -1;
}

const char *augur_dx_eager_source(const augur_diagnosis *d) {
  if (d->eager_given) return "given";
  if (d->eager_max && d->rendezvous_min)
    return d->eager_max < d->rendezvous_min ? "inferred" : "unclear";
  if (d->eager_max) return "at_least";
  return d->rendezvous_min ? "below" : "none";
}

char *dx_strdup_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

void augur_diagnosis_free(augur_diagnosis *d) {
  if (!d) return;
  for (size_t i = 0; i < d->nfindings; i++) {
    augur_dx_finding *f = &d->findings[i];
    free(f->ranks);
    for (size_t k = 0; k < f->ncallsites; k++) {
      free((char *)f->callsites[k].function);
      free((char *)f->callsites[k].file);
      free((char *)f->callsites[k].where);
      free((char *)f->callsites[k].module);
    }
    free(f->callsites);
    free(f->cause);
    free(f->recommendation);
    free(f->undecided);
    free(f->marks);
  }
  free(d->findings);
  free(d->intervals);
  free(d->active);
  for (size_t i = 0; i < d->npath; i++) {
    free((char *)d->path[i].function);
    free((char *)d->path[i].file);
    free((char *)d->path[i].where);
    free((char *)d->path[i].module);
  }
  free(d->path);
  for (size_t i = 0; i < d->nnotes; i++)
    free(d->notes[i]);
  free(d->notes);
  free(d->oversubscription);
  free(d);
}
