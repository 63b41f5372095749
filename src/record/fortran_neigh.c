/* augur recorder — Fortran bindings (mpif.h, `use mpi`) of the
 * neighbourhood collectives, Comm_create_group and process management.
 * Recorded as wrap_neigh.c records the C calls (rec_neigh.c's accounting,
 * handles through *_f2c). CHARACTER arguments (Comm_spawn's command and
 * argv, connect/accept's port name) come with hidden length arguments after
 * the others (size_t, gfortran ≥ 8), passed on unchanged. */
#include <stddef.h>

#include "fortran_wrap.h"
#include "neigh.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran counts arrays are read as int");

#define CT(h) PMPI_Type_f2c(*(h))
#define CC(h) PMPI_Comm_f2c(*(h))

/* A neighbourhood collective and its nonblocking twin (request before ierr)
 * from one implementation; `req` is NULL for the blocking call. */
#define F_NEIGH(lower, UPPER, ilower, IUPPER, TYPE, PARAMS, ARGS, SEND, RECV)                      \
  typedef void (*lower##_fn)(AUG_F_UNPAREN PARAMS, F_INT * ierr);                                  \
  typedef void (*ilower##_fn)(AUG_F_UNPAREN PARAMS, F_INT * req, F_INT * ierr);                    \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower), s_##ilower = AUG_F_SLOT(ilower);                \
  static void f_##lower(const void *caller, AUG_F_UNPAREN PARAMS, F_INT *req, F_INT *ierr) {       \
    aug_f_fn real = aug_f_real(req ? &s_##ilower : &s_##lower);                                    \
    augur_event ev;                                                                                \
    int rec =                                                                                      \
        aug_rec_enter(&ev, req ? AUGUR_EV_INEIGHBOR_##TYPE : AUGUR_EV_NEIGHBOR_##TYPE, caller);    \
    if (req)                                                                                       \
      ((ilower##_fn)real)(AUG_F_UNPAREN ARGS, req, ierr);                                          \
    else                                                                                           \
      ((lower##_fn)real)(AUG_F_UNPAREN ARGS, ierr);                                                \
    if (!rec) return;                                                                              \
    aug_rec_exit(&ev);                                                                             \
    ev.flags |= AUGUR_F_FORTRAN;                                                                   \
    if (req) ev.req = aug_req_id(PMPI_Request_f2c(*req));                                          \
    aug_neigh_side s = AUG_F_UNPAREN SEND, r = AUG_F_UNPAREN RECV;                                 \
    aug_neigh_commit(&ev, CC(comm), &s, &r);                                                       \
  }                                                                                                \
  AUG_F_SPELLINGS(lower, UPPER, (AUG_F_UNPAREN PARAMS, F_INT * ierr),                              \
                  f_##lower(AUG_CALLER(), AUG_F_UNPAREN ARGS, NULL, ierr))                         \
  AUG_F_SPELLINGS(ilower, IUPPER, (AUG_F_UNPAREN PARAMS, F_INT * req, F_INT * ierr),               \
                  f_##lower(AUG_CALLER(), AUG_F_UNPAREN ARGS, req, ierr))

F_NEIGH(mpi_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER, mpi_ineighbor_allgather,
        MPI_INEIGHBOR_ALLGATHER, ALLGATHER,
        (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *comm),
        (sbuf, scount, sdt, rbuf, rcount, rdt, comm), ({.count = *scount, .dt = CT(sdt)}),
        ({.count = *rcount, .dt = CT(rdt)}))

F_NEIGH(mpi_neighbor_allgatherv, MPI_NEIGHBOR_ALLGATHERV, mpi_ineighbor_allgatherv,
        MPI_INEIGHBOR_ALLGATHERV, ALLGATHERV,
        (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcounts, F_INT *displs,
         F_INT *rdt, F_INT *comm),
        (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm), ({.count = *scount, .dt = CT(sdt)}),
        ({.counts = rcounts, .dt = CT(rdt)}))

F_NEIGH(mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL, mpi_ineighbor_alltoall,
        MPI_INEIGHBOR_ALLTOALL, ALLTOALL,
        (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *comm),
        (sbuf, scount, sdt, rbuf, rcount, rdt, comm), ({.count = *scount, .dt = CT(sdt)}),
        ({.count = *rcount, .dt = CT(rdt)}))

F_NEIGH(mpi_neighbor_alltoallv, MPI_NEIGHBOR_ALLTOALLV, mpi_ineighbor_alltoallv,
        MPI_INEIGHBOR_ALLTOALLV, ALLTOALLV,
        (void *sbuf, F_INT *scounts, F_INT *sdispls, F_INT *sdt, void *rbuf, F_INT *rcounts,
         F_INT *rdispls, F_INT *rdt, F_INT *comm),
        (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm),
        ({.counts = scounts, .dt = CT(sdt)}), ({.counts = rcounts, .dt = CT(rdt)}))

/* Alltoallw's displacements are INTEGER(KIND=MPI_ADDRESS_KIND). */
F_NEIGH(mpi_neighbor_alltoallw, MPI_NEIGHBOR_ALLTOALLW, mpi_ineighbor_alltoallw,
        MPI_INEIGHBOR_ALLTOALLW, ALLTOALLW,
        (void *sbuf, F_INT *scounts, MPI_Aint *sdispls, F_INT *sdts, void *rbuf, F_INT *rcounts,
         MPI_Aint *rdispls, F_INT *rdts, F_INT *comm),
        (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm),
        ({.counts = scounts, .fdts = sdts}), ({.counts = rcounts, .fdts = rdts}))

typedef void (*create_group_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_create_group = AUG_F_SLOT(mpi_comm_create_group);

static void f_create_group(const void *caller, F_INT *comm, F_INT *group, F_INT *tag,
                           F_INT *newcomm, F_INT *ierr) {
  create_group_fn real = (create_group_fn)aug_f_real(&s_create_group);
  augur_event ev;
  int rec = aug_rec_enter(&ev, AUGUR_EV_COMM_CREATE_GROUP, caller);
  real(comm, group, tag, newcomm, ierr);
  if (!rec) return;
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_comm_created_as(&ev, CC(comm), *ierr == MPI_SUCCESS ? CC(newcomm) : MPI_COMM_NULL,
                      AUGUR_COMM_KIND_CREATE, AUGUR_COMM_KIND_CREATE + 100);
  ev.tag = *tag;
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_comm_create_group, MPI_COMM_CREATE_GROUP,
                (F_INT * comm, F_INT *group, F_INT *tag, F_INT *newcomm, F_INT *ierr),
                f_create_group(AUG_CALLER(), comm, group, tag, newcomm, ierr))

/* Process management. COMM and ROOT NULL: Comm_join (no parent). */
static void proc_commit(augur_event *ev, F_INT *comm, F_INT *root, F_INT *ierr, F_INT *inter) {
  aug_rec_exit(ev);
  ev->flags |= AUGUR_F_FORTRAN;
  aug_process_fill(ev, comm ? CC(comm) : MPI_COMM_NULL, root ? *root : -1, *ierr, CC(inter));
  aug_rec_commit(ev);
}

typedef void (*spawn_fn)(char *, char *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *,
                         F_INT *, size_t, size_t);
static aug_f_slot s_spawn = AUG_F_SLOT(mpi_comm_spawn);

static void f_spawn(const void *caller, char *command, char *argv, F_INT *maxprocs, F_INT *info,
                    F_INT *root, F_INT *comm, F_INT *inter, F_INT *errcodes, F_INT *ierr,
                    size_t lcommand, size_t largv) {
  spawn_fn real = (spawn_fn)aug_f_real(&s_spawn);
  augur_event ev;
  int rec = aug_rec_enter(&ev, AUGUR_EV_COMM_SPAWN, caller);
  real(command, argv, maxprocs, info, root, comm, inter, errcodes, ierr, lcommand, largv);
  if (rec) proc_commit(&ev, comm, root, ierr, inter);
}

AUG_F_SPELLINGS(mpi_comm_spawn, MPI_COMM_SPAWN,
                (char *command, char *argv, F_INT *maxprocs, F_INT *info, F_INT *root, F_INT *comm,
                 F_INT *inter, F_INT *errcodes, F_INT *ierr, size_t lcommand, size_t largv),
                f_spawn(AUG_CALLER(), command, argv, maxprocs, info, root, comm, inter, errcodes,
                        ierr, lcommand, largv))

typedef void (*spawn_multiple_fn)(F_INT *, char *, char *, F_INT *, F_INT *, F_INT *, F_INT *,
                                  F_INT *, F_INT *, F_INT *, size_t, size_t);
static aug_f_slot s_spawn_multiple = AUG_F_SLOT(mpi_comm_spawn_multiple);

static void f_spawn_multiple(const void *caller, F_INT *count, char *commands, char *argvs,
                             F_INT *maxprocs, F_INT *infos, F_INT *root, F_INT *comm, F_INT *inter,
                             F_INT *errcodes, F_INT *ierr, size_t lcommands, size_t largvs) {
  spawn_multiple_fn real = (spawn_multiple_fn)aug_f_real(&s_spawn_multiple);
  augur_event ev;
  int rec = aug_rec_enter(&ev, AUGUR_EV_COMM_SPAWN_MULTIPLE, caller);
  real(count, commands, argvs, maxprocs, infos, root, comm, inter, errcodes, ierr, lcommands,
       largvs);
  if (rec) proc_commit(&ev, comm, root, ierr, inter);
}

AUG_F_SPELLINGS(mpi_comm_spawn_multiple, MPI_COMM_SPAWN_MULTIPLE,
                (F_INT * count, char *commands, char *argvs, F_INT *maxprocs, F_INT *infos,
                 F_INT *root, F_INT *comm, F_INT *inter, F_INT *errcodes, F_INT *ierr,
                 size_t lcommands, size_t largvs),
                f_spawn_multiple(AUG_CALLER(), count, commands, argvs, maxprocs, infos, root, comm,
                                 inter, errcodes, ierr, lcommands, largvs))

/* Connect and accept share their parameters. */
typedef void (*port_fn)(char *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, size_t);
static aug_f_slot s_connect = AUG_F_SLOT(mpi_comm_connect), s_accept = AUG_F_SLOT(mpi_comm_accept);

static void f_port(const void *caller, unsigned type, char *port, F_INT *info, F_INT *root,
                   F_INT *comm, F_INT *newcomm, F_INT *ierr, size_t lport) {
  port_fn real = (port_fn)aug_f_real(type == AUGUR_EV_COMM_CONNECT ? &s_connect : &s_accept);
  augur_event ev;
  int rec = aug_rec_enter(&ev, type, caller);
  real(port, info, root, comm, newcomm, ierr, lport);
  if (rec) proc_commit(&ev, comm, root, ierr, newcomm);
}

AUG_F_SPELLINGS(mpi_comm_connect, MPI_COMM_CONNECT,
                (char *port, F_INT *info, F_INT *root, F_INT *comm, F_INT *newcomm, F_INT *ierr,
                 size_t lport),
                f_port(AUG_CALLER(), AUGUR_EV_COMM_CONNECT, port, info, root, comm, newcomm, ierr,
                       lport))
AUG_F_SPELLINGS(mpi_comm_accept, MPI_COMM_ACCEPT,
                (char *port, F_INT *info, F_INT *root, F_INT *comm, F_INT *newcomm, F_INT *ierr,
                 size_t lport),
                f_port(AUG_CALLER(), AUGUR_EV_COMM_ACCEPT, port, info, root, comm, newcomm, ierr,
                       lport))

typedef void (*join_fn)(F_INT *, F_INT *, F_INT *);
static aug_f_slot s_join = AUG_F_SLOT(mpi_comm_join);

static void f_join(const void *caller, F_INT *fd, F_INT *inter, F_INT *ierr) {
  join_fn real = (join_fn)aug_f_real(&s_join);
  augur_event ev;
  int rec = aug_rec_enter(&ev, AUGUR_EV_COMM_JOIN, caller);
  real(fd, inter, ierr);
  if (rec) proc_commit(&ev, NULL, NULL, ierr, inter);
}

AUG_F_SPELLINGS(mpi_comm_join, MPI_COMM_JOIN, (F_INT * fd, F_INT *inter, F_INT *ierr),
                f_join(AUG_CALLER(), fd, inter, ierr))

static aug_f_slot s_disconnect = AUG_F_SLOT(mpi_comm_disconnect);

static void f_disconnect(const void *caller, F_INT *comm, F_INT *ierr) {
  aug_f_comm_release(caller, AUGUR_EV_COMM_DISCONNECT, &s_disconnect, comm, ierr);
}

AUG_F_SPELLINGS(mpi_comm_disconnect, MPI_COMM_DISCONNECT, (F_INT * comm, F_INT *ierr),
                f_disconnect(AUG_CALLER(), comm, ierr))
