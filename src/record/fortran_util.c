/* augur recorder — Fortran wrapper support: resolving the library's pmpi_*_
 * entries, status conversion, and the Fortran MPI_IN_PLACE sentinel. */

/* RTLD_NEXT / RTLD_DEFAULT are GNU extensions of dlsym; they are what lets a
 * preloaded library find the MPI library's own Fortran entries. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "fortran_wrap.h"
#include "grow.h"

aug_f_fn aug_f_resolve(aug_f_slot *slot) {
  void *p = dlsym(RTLD_NEXT, slot->name);
  if (!p) p = dlsym(RTLD_DEFAULT, slot->name);
  if (!p) {
    /* A Fortran program always links the library's Fortran layer, so this
     * means an MPI we do not know: say so instead of calling NULL. */
    fprintf(stderr,
            "augur: the MPI library has no Fortran entry %s; this recorder was built for "
            "another MPI (use the libaugur-mpi-<flavour>.so matching the program)\n",
            slot->name);
    exit(1);
  }
  aug_f_fn fn;
  /* dlsym returns functions as void *; POSIX guarantees the conversion. */
  *(void **)&fn = p;
  /* Two threads may race here; both store the same value. */
  atomic_store_explicit(&slot->fn, fn, memory_order_release);
  return fn;
}

MPI_Fint *aug_f_status_or(MPI_Fint *st, MPI_Fint *scratch) {
  return st == MPI_F_STATUS_IGNORE ? scratch : st;
}

MPI_Fint *aug_f_statuses_or(MPI_Fint *st, MPI_Fint *scratch) {
  return st == MPI_F_STATUSES_IGNORE ? scratch : st;
}

void aug_f_status_c(const MPI_Fint *fst, MPI_Status *cst) {
  PMPI_Status_f2c(fst, cst);
}

/* The library's Fortran MPI_IN_PLACE and MPI_BOTTOM: Open MPI exports the
 * common blocks mpi_fortran_in_place_ / mpi_fortran_bottom_ (the
 * executable's copy, if it has one, wins symbol lookup, as it does for the
 * library itself); MPICH keeps their addresses in MPIR_F_MPI_IN_PLACE /
 * MPIR_F_MPI_BOTTOM, filled by its Fortran init, which may run after a C
 * MPI_Init: those variables are read at every check, not copied. */
static const void *ompi_in_place, *ompi_bottom;
static void *const *mpich_in_place, *const *mpich_bottom;
static pthread_once_t sentinels_once = PTHREAD_ONCE_INIT;

static void sentinels_lookup(void) {
  ompi_in_place = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
  ompi_bottom = dlsym(RTLD_DEFAULT, "mpi_fortran_bottom_");
  mpich_in_place = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
  mpich_bottom = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_BOTTOM");
}

static int is_sentinel(const void *buf, const void *ompi, void *const *mpich) {
  return buf && (buf == ompi || (mpich && buf == *mpich));
}

void aug_f_after_init(void) {
  pthread_once(&sentinels_once, sentinels_lookup);
}

int aug_f_in_place(const void *buf) {
  /* Also here: a program that called the C MPI_Init never ran the above. */
  pthread_once(&sentinels_once, sentinels_lookup);
  return is_sentinel(buf, ompi_in_place, mpich_in_place);
}

const void *aug_f_cbuf(const void *buf) {
  pthread_once(&sentinels_once, sentinels_lookup);
  if (is_sentinel(buf, ompi_in_place, mpich_in_place)) return MPI_IN_PLACE;
  if (is_sentinel(buf, ompi_bottom, mpich_bottom)) return MPI_BOTTOM;
  return buf;
}

/* Per-thread MPI_Fint scratch for Fortran status arrays and 0-based indices.
 * Kept apart from rec.h's scratch so a rec.h helper that uses its own
 * scratch can never move ours under us. Grows, never shrinks; freed by a
 * thread-exit destructor. */
static _Thread_local MPI_Fint *f_scratch;
static _Thread_local size_t f_scratch_cap;
static pthread_key_t f_scratch_key;
static pthread_once_t f_scratch_once = PTHREAD_ONCE_INIT;

static void f_scratch_key_init(void) {
  pthread_key_create(&f_scratch_key, free);
}

MPI_Fint *aug_f_scratch(int n) {
  size_t need = n > 0 ? (size_t)n : 1;
  if (need <= f_scratch_cap) return f_scratch;
  MPI_Fint *p = f_scratch;
  if (aug_grow((void **)&p, &f_scratch_cap, need, sizeof *p)) return NULL;
  pthread_once(&f_scratch_once, f_scratch_key_init);
  pthread_setspecific(f_scratch_key, p);
  f_scratch = p;
  return p;
}
