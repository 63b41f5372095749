/* augur recorder — argument conversion for the Fortran 2008 bindings
 * (fortran_f08.h), per MPI library, and the handed-over call site. */

/* RTLD_DEFAULT is a GNU extension of dlsym. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/* Elements of a section (0 if empty); -1 for a descriptor we do not read
 * (a rank outside 0..15). */
static ptrdiff_t elements(const gfc_desc *d) {
  int rank = d->dtype.rank;
  if (rank < 0 || rank > 15) return -1;
  ptrdiff_t n = 1;
  for (int i = 0; i < rank; i++) {
    ptrdiff_t extent = d->dim[i].ubound - d->dim[i].lbound + 1;
    if (extent <= 0) return 0;
    n *= extent;
  }
  return n;
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

/* Copies the n elements of section d to (to_tmp) or from the packed tmp,
 * first dimension fastest, as Fortran orders them. */
static void section_copy(const gfc_desc *d, char *tmp, ptrdiff_t n, int to_tmp) {
  int rank = d->dtype.rank;
  size_t len = d->dtype.elem_len;
  ptrdiff_t idx[15] = {0};
  for (ptrdiff_t k = 0; k < n; k++) {
    ptrdiff_t off = 0;
    for (int i = 0; i < rank; i++)
      off += idx[i] * d->dim[i].stride;
    char *elem = (char *)d->base_addr + off * d->span;
    if (to_tmp)
      memcpy(tmp + (size_t)k * len, elem, len);
    else
      memcpy(elem, tmp + (size_t)k * len, len);
    for (int i = 0; i < rank; i++) { /* next index, first dimension fastest */
      if (++idx[i] <= d->dim[i].ubound - d->dim[i].lbound) break;
      idx[i] = 0;
    }
  }
}

/* Adds one buffer to b; 0 when the call must go to MPICH's own entry. */
static int prepare_one(aug_f08_bufs *b, void *arg, int out, int copy) {
  if (!arg) return 1;
  if (b->n == AUG_F08_MAXBUFS) return 0;
  const gfc_desc *d = arg;
  int i = b->n++;
  b->desc[i] = arg;
  b->tmp[i] = NULL;
  b->out[i] = out;
  if (contiguous(d)) {
    void *base = d->base_addr;
    b->addr[i] = base && base == f08_in_place ? MPI_IN_PLACE
                 : base && base == f08_bottom ? MPI_BOTTOM
                                              : base;
    return 1;
  }
  ptrdiff_t n = elements(d);
  if (!copy || n < 0 || d->dtype.elem_len == 0) return 0;
  b->tmp[i] = malloc(n > 0 ? (size_t)n * d->dtype.elem_len : 1);
  if (!b->tmp[i]) return 0;
  section_copy(d, b->tmp[i], n, 1);
  b->addr[i] = b->tmp[i];
  return 1;
}

int aug_f08_prepare(aug_f08_bufs *b, void *const *ins, int nin, void *const *outs, int nout,
                    int copy) {
  pthread_once(&f08_once, f08_lookup);
  b->n = 0;
  int ok = 1;
  for (int i = 0; ok && i < nin; i++)
    ok = prepare_one(b, ins[i], 0, copy);
  for (int i = 0; ok && i < nout; i++)
    ok = prepare_one(b, outs[i], 1, copy);
  if (!ok) {
    for (int i = 0; i < b->n; i++)
      free(b->tmp[i]);
    b->n = 0;
  }
  return ok;
}

void *aug_f08_addr(const aug_f08_bufs *b, void *desc) {
  for (int i = 0; i < b->n; i++)
    if (b->desc[i] == desc) return b->addr[i];
  return NULL; /* not reached: every buffer argument was prepared */
}

void aug_f08_finish(aug_f08_bufs *b) {
  for (int i = 0; i < b->n; i++) {
    if (!b->tmp[i]) continue;
    const gfc_desc *d = b->desc[i];
    if (b->out[i]) section_copy(d, b->tmp[i], elements(d), 0);
    free(b->tmp[i]);
  }
  b->n = 0;
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
