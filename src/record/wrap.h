/* augur recorder — macros shared by the C wrappers (wrap_*.c).
 *
 * AUG_WRAP(TYPE, CALL) declares `ev` (augur_event *) and `rc`: when the call
 * must not be recorded it returns CALL straight away; otherwise it runs CALL
 * between aug_rec_begin and aug_rec_exit_in (inline, rec_internal.h). ev is
 * the next slot of the thread's buffer: the wrapper fills it there and
 * commits it (aug_rec_commit_in, or a group: aug_commit_completions ...). */
#ifndef AUGUR_WRAP_H
#define AUGUR_WRAP_H

#include "rec_internal.h"

#define AUG_WRAP(TYPE, CALL)                                                                       \
  augur_event *ev = aug_rec_begin((TYPE), AUG_CALLER());                                           \
  if (!ev) return CALL;                                                                            \
  int rc = CALL;                                                                                   \
  aug_rec_exit_in(ev)

/* AUG_WRAP for a receive into BUF: the buffer's state (aug_recv_buffer) is
 * read before CALL, inside the call's recorded time, and lands in ev->flags. */
#define AUG_WRAP_RECV(TYPE, BUF, COUNT, DT, CALL)                                                  \
  augur_event *ev = aug_rec_begin((TYPE), AUG_CALLER());                                           \
  if (!ev) return CALL;                                                                            \
  uint16_t rbuf_flags = aug_recv_buffer((BUF), (COUNT), (DT));                                     \
  int rc = CALL;                                                                                   \
  aug_rec_exit_in(ev);                                                                             \
  ev->flags |= rbuf_flags

#define AUG_UNPAREN(...) __VA_ARGS__

/* A status the wrapper can read even when the application ignores it. */
#define AUG_STATUS(name, app_status)                                                               \
  MPI_Status name##_own;                                                                           \
  MPI_Status *name = (app_status) == MPI_STATUS_IGNORE ? &name##_own : (app_status)

/* Zeroes S and makes it a sub-record of PARENT of TYPE (its times, call
 * site, thread, F_FORTRAN); returns S. */
augur_event *aug_sub_record(augur_event *s, const augur_event *parent, unsigned type);
/* Parent + one sub-record, kept in one block. */
void aug_commit_pair(const augur_event *parent, const augur_event *sub);
/* Like aug_commit_completions; st_by_index: st is indexed by the request's
 * position (Waitall/Testall) instead of by completion order. */
void aug_commit_completions_ex(augur_event *parent, int ncompleted, const uint64_t *reqs,
                               const int *index, const MPI_Status *st, int st_by_index);
/* Mprobe/Improbe remember (message -> comm, source, tag) for Mrecv/Imrecv,
 * which get no communicator argument. */
void aug_message_probed(MPI_Message msg, const augur_event *probe);
void aug_message_received(augur_event *ev, uint64_t msg);
uint64_t aug_message_id(MPI_Message msg);

/* ---- collective byte accounting (coll_fill.c), shared with the Fortran bindings ---- */
void aug_coll_fill_barrier(augur_event *ev, MPI_Comm comm);
void aug_coll_fill_bcast(augur_event *ev, int count, MPI_Datatype dt, int root, MPI_Comm comm);
void aug_coll_fill_reduce(augur_event *ev, const void *sbuf, int count, MPI_Datatype dt, int root,
                          MPI_Comm comm);
void aug_coll_fill_allreduce(augur_event *ev, const void *sbuf, int count, MPI_Datatype dt,
                             MPI_Comm comm);
void aug_coll_fill_gather(augur_event *ev, const void *sbuf, int scount, MPI_Datatype sdt,
                          const int *rcounts, int rcount, MPI_Datatype rdt, int root,
                          MPI_Comm comm);
void aug_coll_fill_scatter(augur_event *ev, const int *scounts, int scount, MPI_Datatype sdt,
                           const void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm);
void aug_coll_fill_allgather(augur_event *ev, const void *sbuf, int scount, MPI_Datatype sdt,
                             const int *rcounts, int rcount, MPI_Datatype rdt, MPI_Comm comm);
/* Elements of the receive buffer an all-to-all writes, from its start: RCOUNT
 * per member (RCOUNTS NULL), or the furthest RDISPLS[i] + RCOUNTS[i]; 0 when
 * that does not fit an int (the buffer is then not checked). */
int aug_alltoall_recv_count(const int *rcounts, const int *rdispls, int rcount, MPI_Comm comm);
void aug_coll_fill_alltoall(augur_event *ev, const void *sbuf, const int *scounts, int scount,
                            MPI_Datatype sdt, const int *rcounts, int rcount, MPI_Datatype rdt,
                            MPI_Comm comm);
void aug_coll_fill_reduce_scatter(augur_event *ev, const void *sbuf, const int *rcounts, int rcount,
                                  MPI_Datatype dt, MPI_Comm comm);
/* Rootless collective whose sums the caller took (Alltoallw); in place: sent = recvd. */
void aug_coll_fill_sums(augur_event *ev, const void *sbuf, uint64_t sent, uint64_t recvd,
                        MPI_Comm comm);

#endif
