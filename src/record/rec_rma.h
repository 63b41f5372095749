/* augur recorder — one-sided (RMA) field helpers shared by the C wrappers
 * (wrap_rma.c) and the Fortran bindings (fortran_rma.c), so both record a
 * call identically. Field meaning: docs/trace-format.md "One-sided records".
 * Not a public API. */
#ifndef AUGUR_REC_RMA_H
#define AUGUR_REC_RMA_H

#include <mpi.h>

#include "rec.h"

/* The window's id (a definition of kind AUGUR_COMM_KIND_WINDOW); AUGUR_COMM_NONE
 * for MPI_WIN_NULL or a window whose creation was not recorded. */
uint64_t aug_win_id(MPI_Win win);
/* Win_create / Win_allocate(_shared) / Win_create_dynamic returned: comm = the
 * communicator's id, req = the new window's id (defined in the trace, members
 * = comm's), bytes = SIZE (this rank's window memory), tag = DISP_UNIT (or
 * AUGUR_TAG_NONE for a dynamic window). WIN is MPI_WIN_NULL if the call failed. */
void aug_rma_created(augur_event *ev, MPI_Comm comm, MPI_Win win, MPI_Aint size, int disp_unit,
                     int dynamic);
/* Before PMPI_Win_free: comm = the window's id; the handle is forgotten. */
void aug_rma_freed(augur_event *ev, MPI_Win win);
/* Synchronisation without a group: comm = window id, peer = TARGET (comm-local,
 * AUGUR_PEER_NONE when the call has none), tag = LOCK_TYPE (MPI_LOCK_* as
 * enum augur_rma_lock; AUGUR_TAG_NONE when 0), aux = ASSERT (MPI_MODE_* as
 * enum augur_rma_mode). */
void aug_rma_sync(augur_event *ev, MPI_Win win, int target, int lock_type, int assert_);
#define AUG_RMA_NO_TARGET (-1000000) /* TARGET of calls that have none */
/* Win_post / Win_start: comm = window id, req = the group's id (a definition of
 * kind AUGUR_COMM_KIND_GROUP, written once per rank), aux = ASSERT. */
void aug_rma_group(augur_event *ev, MPI_Win win, MPI_Group group, int assert_);
/* Data calls: comm = window id, peer = TARGET, bytes = OBYTES (origin data
 * that travels to the target), bytes_recv = RBYTES (data fetched into the
 * origin). */
void aug_rma_data(augur_event *ev, MPI_Win win, int target, uint64_t obytes, uint64_t rbytes);
/* Origin bytes of an accumulate: 0 for MPI_NO_OP, which ignores the origin buffer. */
uint64_t aug_rma_acc_bytes(int count, MPI_Datatype dt, MPI_Op op);

#endif
