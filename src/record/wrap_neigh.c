/* augur recorder — neighbourhood collectives, Comm_create_group and process
 * management (Comm_spawn, spawn_multiple, connect, accept, join, disconnect).
 *
 * A neighbourhood collective and its nonblocking twin share parameters and
 * byte accounting (rec_neigh.c), like wrap_coll.c's AUG_COLL. Process
 * management is recorded, not followed: spawned or connected processes
 * outside our MPI_COMM_WORLD are not traced, and the intercommunicator to
 * them gets no definition (comm.c marks it foreign; its id is 0). */
#include "neigh.h"

#define AUG_NEIGH(NAME, TYPE, PARAMS, ARGS, SEND, RECV)                                            \
  AUGUR_API int MPI_Neighbor_##NAME(AUG_UNPAREN PARAMS) {                                          \
    AUG_WRAP(AUGUR_EV_NEIGHBOR_##TYPE, PMPI_Neighbor_##NAME(AUG_UNPAREN ARGS));                    \
    aug_neigh_side s = AUG_UNPAREN SEND, r = AUG_UNPAREN RECV;                                     \
    aug_neigh_commit(ev, comm, &s, &r);                                                            \
    return rc;                                                                                     \
  }                                                                                                \
  AUGUR_API int MPI_Ineighbor_##NAME(AUG_UNPAREN PARAMS, MPI_Request *request) {                   \
    AUG_WRAP(AUGUR_EV_INEIGHBOR_##TYPE, PMPI_Ineighbor_##NAME(AUG_UNPAREN ARGS, request));         \
    aug_neigh_side s = AUG_UNPAREN SEND, r = AUG_UNPAREN RECV;                                     \
    ev->req = aug_req_id(*request);                                                                \
    aug_neigh_commit(ev, comm, &s, &r);                                                            \
    return rc;                                                                                     \
  }

AUG_NEIGH(allgather, ALLGATHER,
          (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
           MPI_Comm comm),
          (sbuf, scount, sdt, rbuf, rcount, rdt, comm), ({.count = scount, .dt = sdt}),
          ({.count = rcount, .dt = rdt}))

AUG_NEIGH(allgatherv, ALLGATHERV,
          (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
           const int displs[], MPI_Datatype rdt, MPI_Comm comm),
          (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm), ({.count = scount, .dt = sdt}),
          ({.counts = rcounts, .dt = rdt}))

AUG_NEIGH(alltoall, ALLTOALL,
          (const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
           MPI_Comm comm),
          (sbuf, scount, sdt, rbuf, rcount, rdt, comm), ({.count = scount, .dt = sdt}),
          ({.count = rcount, .dt = rdt}))

AUG_NEIGH(alltoallv, ALLTOALLV,
          (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
           const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm),
          (sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm),
          ({.counts = scounts, .dt = sdt}), ({.counts = rcounts, .dt = rdt}))

AUG_NEIGH(alltoallw, ALLTOALLW,
          (const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
           const MPI_Datatype sdts[], void *rbuf, const int rcounts[], const MPI_Aint rdispls[],
           const MPI_Datatype rdts[], MPI_Comm comm),
          (sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, comm),
          ({.counts = scounts, .dts = sdts}), ({.counts = rcounts, .dts = rdts}))

/* Collective over GROUP only: its own creation counter (comm.c's ids). */
AUGUR_API int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
  AUG_WRAP(AUGUR_EV_COMM_CREATE_GROUP, PMPI_Comm_create_group(comm, group, tag, newcomm));
  aug_comm_created_as(ev, comm, rc == MPI_SUCCESS ? *newcomm : MPI_COMM_NULL,
                      AUGUR_COMM_KIND_CREATE, AUGUR_COMM_KIND_CREATE + 100);
  ev->tag = tag;
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info,
                             int root, MPI_Comm comm, MPI_Comm *intercomm, int errcodes[]) {
  AUG_WRAP(AUGUR_EV_COMM_SPAWN,
           PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, errcodes));
  aug_process_fill(ev, comm, root, rc, *intercomm);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Comm_spawn_multiple(int count, char *commands[], char **argvs[],
                                      const int maxprocs[], const MPI_Info infos[], int root,
                                      MPI_Comm comm, MPI_Comm *intercomm, int errcodes[]) {
  AUG_WRAP(AUGUR_EV_COMM_SPAWN_MULTIPLE,
           PMPI_Comm_spawn_multiple(count, commands, argvs, maxprocs, infos, root, comm, intercomm,
                                    errcodes));
  aug_process_fill(ev, comm, root, rc, *intercomm);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Comm_connect(const char *port, MPI_Info info, int root, MPI_Comm comm,
                               MPI_Comm *newcomm) {
  AUG_WRAP(AUGUR_EV_COMM_CONNECT, PMPI_Comm_connect(port, info, root, comm, newcomm));
  aug_process_fill(ev, comm, root, rc, *newcomm);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Comm_accept(const char *port, MPI_Info info, int root, MPI_Comm comm,
                              MPI_Comm *newcomm) {
  AUG_WRAP(AUGUR_EV_COMM_ACCEPT, PMPI_Comm_accept(port, info, root, comm, newcomm));
  aug_process_fill(ev, comm, root, rc, *newcomm);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Comm_join(int fd, MPI_Comm *intercomm) {
  AUG_WRAP(AUGUR_EV_COMM_JOIN, PMPI_Comm_join(fd, intercomm));
  aug_process_fill(ev, MPI_COMM_NULL, -1, rc, *intercomm);
  aug_rec_commit_in(ev);
  return rc;
}

/* Like Comm_free: the id is read before the handle becomes MPI_COMM_NULL. */
AUGUR_API int MPI_Comm_disconnect(MPI_Comm *comm) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_COMM_DISCONNECT, AUG_CALLER());
  if (!ev) return PMPI_Comm_disconnect(comm);
  aug_comm_freed(ev, *comm);
  int rc = PMPI_Comm_disconnect(comm);
  aug_rec_exit_in(ev);
  aug_rec_commit_in(ev);
  return rc;
}
