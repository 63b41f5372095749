/* augur recorder — argument conversion for the Fortran 2008 bindings
 * (fortran_f08.h), per MPI library, and the handed-over call site. */

/* RTLD_DEFAULT is a GNU extension of dlsym. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "fortran_f08.h"

_Thread_local const void *aug_f08_caller __attribute__((tls_model("initial-exec")));

#if defined(MPICH)

/* gfortran's array descriptor (GCC 8 and later: libgfortran.h), what
 * gfortran passes for an assumed-rank TYPE(*), DIMENSION(..) dummy of a
 * procedure without BIND(C), such as MPICH's mpi_send_f08ts_. */
typedef struct gfc_dim {
  ptrdiff_t stride; /* in elements */
  ptrdiff_t lbound, ubound;
} gfc_dim;
typedef struct gfc_desc {
  void *base_addr;
  size_t offset;
  struct {
    size_t elem_len;
    int version;
    signed char rank;
    signed char type;
    signed short attribute;
  } dtype;
  ptrdiff_t span; /* bytes between elements */
  gfc_dim dim[];
} gfc_desc;

/* The f08 module's constants. An executable that uses one holds its own
 * copy, which dlsym(RTLD_DEFAULT) finds first, as the library's code does. */
static const void *f08_in_place, *f08_bottom, *f08_status_ignore, *f08_statuses_ignore;
static const void *f08_unweighted, *f08_weights_empty;
static pthread_once_t f08_once = PTHREAD_ONCE_INIT;

static void f08_lookup(void) {
  f08_in_place = dlsym(RTLD_DEFAULT, "MPIR_F08_MPI_IN_PLACE");
  f08_bottom = dlsym(RTLD_DEFAULT, "MPIR_F08_MPI_BOTTOM");
  f08_status_ignore = dlsym(RTLD_DEFAULT, "MPIR_F08_MPI_STATUS_IGNORE_OBJ");
  f08_statuses_ignore = dlsym(RTLD_DEFAULT, "MPIR_F08_MPI_STATUSES_IGNORE_OBJ");
  f08_unweighted = dlsym(RTLD_DEFAULT, "__mpi_f08_link_constants_MOD_mpi_unweighted");
  f08_weights_empty = dlsym(RTLD_DEFAULT, "__mpi_f08_link_constants_MOD_mpi_weights_empty");
}

static int contiguous(const gfc_desc *d) {
  int rank = d->dtype.rank;
  if (rank == 0) return 1;
  if (rank < 0 || rank > 15 || d->span != (ptrdiff_t)d->dtype.elem_len) return 0;
  ptrdiff_t want = 1;
  for (int i = 0; i < rank; i++) {
    ptrdiff_t extent = d->dim[i].ubound - d->dim[i].lbound + 1;
    /* An empty array, or the last (assumed-size) dimension: nothing after. */
    if (extent <= 0) return 1;
    if (extent > 1 && d->dim[i].stride != want) return 0;
    want *= extent;
  }
  return 1;
}

int aug_f08_fit(void *const *bufs, int n) {
  for (int i = 0; i < n; i++)
    if (!contiguous(bufs[i])) return 0;
  return 1;
}

void *aug_f08_buf(void *buf) {
  pthread_once(&f08_once, f08_lookup);
  void *base = ((gfc_desc *)buf)->base_addr;
  if (base && base == f08_in_place) return MPI_IN_PLACE;
  if (base && base == f08_bottom) return MPI_BOTTOM;
  return base;
}

F_INT *aug_f08_status(F_INT *st) {
  pthread_once(&f08_once, f08_lookup);
  return st && (const void *)st == f08_status_ignore ? MPI_F_STATUS_IGNORE : st;
}

F_INT *aug_f08_statuses(F_INT *sts) {
  pthread_once(&f08_once, f08_lookup);
  return sts && (const void *)sts == f08_statuses_ignore ? MPI_F_STATUSES_IGNORE : sts;
}

F_INT *aug_f08_weights(F_INT *w) {
  pthread_once(&f08_once, f08_lookup);
  if (w && (const void *)w == f08_unweighted) return MPI_UNWEIGHTED;
  if (w && (const void *)w == f08_weights_empty) return MPI_WEIGHTS_EMPTY;
  return w;
}

#else /* Open MPI: the f08 arguments are those of the `mpi` bindings. */

int aug_f08_fit(void *const *bufs, int n) {
  (void)bufs;
  (void)n;
  return 1;
}

void *aug_f08_buf(void *buf) {
  return buf;
}

F_INT *aug_f08_status(F_INT *st) {
  return st;
}

F_INT *aug_f08_statuses(F_INT *sts) {
  return sts;
}

F_INT *aug_f08_weights(F_INT *w) {
  return w;
}

#endif
