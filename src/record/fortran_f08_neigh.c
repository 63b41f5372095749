/* augur recorder — the Fortran 2008 bindings (`use mpi_f08`) of the
 * neighbourhood collectives, Comm_create_group and process management that
 * fortran_neigh.c records for `use mpi` (see fortran_f08.h for the scheme).
 *
 * Comm_spawn(_multiple)'s CHARACTER arguments keep their hidden lengths after
 * ierror, as in the `mpi` bindings. MPICH's mpi_f08 has its own
 * MPI_ARGV_NULL, MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE objects
 * (__mpi_f08_link_constants_MOD_*); its `mpi` bindings recognise theirs by
 * the addresses in MPI_F_ARGV_NULL, MPI_F_ARGVS_NULL, MPI_F_ERRCODES_IGNORE
 * (libmpichfort's pointers to mpif.h's common blocks), so the wrappers pass
 * those instead. Open MPI's f08 constants are its `mpi` ones. */

/* RTLD_DEFAULT is a GNU extension of dlsym. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "fortran_f08.h"

/* ---- neighbourhood collectives: each with its nonblocking twin ---- */

F08_ALL(neighbor_allgather)
F08_ALL(neighbor_alltoall)
F08_ALLGV(neighbor_allgatherv)
F08_ALLV(neighbor_alltoallv)

/* Alltoallw's displacements are INTEGER(KIND=MPI_ADDRESS_KIND). */
F08_COLL(neighbor_alltoallw,
         (void *sbuf, F_INT *scounts, MPI_Aint *sdispls, F_INT *sdts, void *rbuf, F_INT *rcounts,
          MPI_Aint *rdispls, F_INT *rdts, F_INT *comm),
         (sbuf), (rbuf), (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm),
         (F08_B(sbuf), scounts, sdispls, sdts, F08_B(rbuf), rcounts, rdispls, rdts, comm))

/* ---- Comm_create_group, process management ---- */

F08(comm_create_group, (F_INT * comm, F_INT *group, F_INT *tag, F_INT *newcomm, F_INT *ierr),
    (comm, group, tag, newcomm))
F08_DEF(comm_connect,
        (char *port, F_INT *info, F_INT *root, F_INT *comm, F_INT *newcomm, F_INT *ierr,
         size_t lport),
        (port, info, root, comm, newcomm, F08_IERRP, lport))
F08_DEF(comm_accept,
        (char *port, F_INT *info, F_INT *root, F_INT *comm, F_INT *newcomm, F_INT *ierr,
         size_t lport),
        (port, info, root, comm, newcomm, F08_IERRP, lport))
F08(comm_join, (F_INT * fd, F_INT *inter, F_INT *ierr), (fd, inter))
F08(comm_disconnect, (F_INT * comm, F_INT *ierr), (comm))

#if defined(MPICH)
/* One f08 constant and the `mpi` one that replaces it. */
typedef struct f08_const {
  const char *f08, *mpi; /* symbol names */
  const void *f08_addr;  /* the f08 object */
  void **mpi_ptr;        /* where libmpichfort keeps the `mpi` object's address */
} f08_const;
enum { ARGV_NULL, ARGVS_NULL, ERRCODES_IGNORE, NCONST };
static f08_const consts[NCONST] = {
    {"__mpi_f08_link_constants_MOD_mpi_argv_null", "MPI_F_ARGV_NULL", NULL, NULL},
    {"__mpi_f08_link_constants_MOD_mpi_argvs_null", "MPI_F_ARGVS_NULL", NULL, NULL},
    {"__mpi_f08_link_constants_MOD_mpi_errcodes_ignore", "MPI_F_ERRCODES_IGNORE", NULL, NULL},
};
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static void consts_lookup(void) {
  for (int i = 0; i < NCONST; i++) {
    consts[i].f08_addr = dlsym(RTLD_DEFAULT, consts[i].f08);
    consts[i].mpi_ptr = dlsym(RTLD_DEFAULT, consts[i].mpi);
  }
}

/* ARG, or the `mpi` binding's object when ARG is the f08 constant WHICH. */
static void *f08_const_arg(int which, void *arg) {
  pthread_once(&consts_once, consts_lookup);
  const f08_const *c = &consts[which];
  if (arg && arg == c->f08_addr && c->mpi_ptr) return *c->mpi_ptr;
  return arg;
}
#define F08_CONST(which, arg) f08_const_arg(which, arg)
#else
#define F08_CONST(which, arg) (arg)
#endif

F08_DEF(comm_spawn,
        (char *command, char *argv, F_INT *maxprocs, F_INT *info, F_INT *root, F_INT *comm,
         F_INT *inter, F_INT *errcodes, F_INT *ierr, size_t lcommand, size_t largv),
        (command, F08_CONST(ARGV_NULL, argv), maxprocs, info, root, comm, inter,
         F08_CONST(ERRCODES_IGNORE, errcodes), F08_IERRP, lcommand, largv))
F08_DEF(comm_spawn_multiple,
        (F_INT * count, char *commands, char *argvs, F_INT *maxprocs, F_INT *infos, F_INT *root,
         F_INT *comm, F_INT *inter, F_INT *errcodes, F_INT *ierr, size_t lcommands, size_t largvs),
        (count, commands, F08_CONST(ARGVS_NULL, argvs), maxprocs, infos, root, comm, inter,
         F08_CONST(ERRCODES_IGNORE, errcodes), F08_IERRP, lcommands, largvs))
