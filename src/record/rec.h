/* augur recorder — internal protocol shared by the C wrappers (wrap_*.c) and
 * the Fortran wrappers (fortran_*.c). Not a public API.
 *
 * Every wrapper follows the same shape:
 *
 *   augur_event ev;
 *   if (!aug_rec_enter(&ev, AUGUR_EV_SEND, AUG_CALLER()))
 *     return PMPI_Send(...);              // not recording, or nested call
 *   int rc = PMPI_Send(...);
 *   aug_rec_exit(&ev);                    // end time + counters, clears nesting
 *   aug_fill_p2p(&ev, count, dt, dest, tag, comm, buf);
 *   aug_rec_commit(&ev);                  // append to this thread's buffer
 *   return rc;
 *
 * (The C wrappers run the same protocol through wrap.h's AUG_WRAP, inline, with
 * the record filled in the thread buffer's next slot: rec_internal.h
 * aug_rec_begin.)
 *
 * Nesting: between enter and exit the thread is "inside a wrapper"; any MPI_*
 * call reaching a wrapper then (e.g. a Fortran binding that calls the C
 * MPI_Send) is passed straight through, so nothing is recorded twice.
 *
 * Hot path rules: no malloc, no lock, no syscall other than the clock (and
 * counter reads when counters are on). Blocks are encoded and written by
 * aug_rec_commit when a thread buffer fills. */
#ifndef AUGUR_REC_H
#define AUGUR_REC_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "augur/event.h"

/* Return address of the wrapper = the application's call site. */
#define AUG_CALLER() __builtin_return_address(0)

/* ---- recording protocol ---- */

/* Returns 1 and fills ev->type, t_start, callsite, ctr (burst deltas),
 * thread; zeroes every other field. Returns 0 when the call must not be
 * recorded (MPI not initialised by us, after finalize, recording disabled,
 * or nested inside another wrapper); ev is then undefined. */
int aug_rec_enter(augur_event *ev, unsigned type, const void *callsite);
/* Takes t_end and the counter values at exit; leaves the nesting. */
void aug_rec_exit(augur_event *ev);
/* Appends one record (a parent or a sub-record) to the thread's buffer. */
void aug_rec_commit(const augur_event *ev);
/* 1 while recording is active (between our MPI_Init and MPI_Finalize). */
int aug_rec_active(void);

/* ---- field helpers (comm-local ranks are stored; the reader translates) ---- */

uint64_t aug_comm_id(MPI_Comm comm); /* stable id; AUGUR_COMM_NONE if unknown */
int aug_comm_is_inter(MPI_Comm comm);
/* maps MPI_ANY_SOURCE / MPI_PROC_NULL (inline: every point-to-point wrapper calls it) */
static inline int32_t aug_peer(int mpi_rank) {
  if (mpi_rank == MPI_ANY_SOURCE) return AUGUR_PEER_ANY;
  if (mpi_rank == MPI_PROC_NULL) return AUGUR_PEER_PROC_NULL;
  return mpi_rank;
}
static inline int32_t aug_tag(int mpi_tag) { /* maps MPI_ANY_TAG */
  return mpi_tag == MPI_ANY_TAG ? AUGUR_TAG_ANY : mpi_tag;
}
static inline uint64_t aug_bytes(int count, MPI_Datatype dt) { /* count * type size */
  if (count <= 0 || dt == MPI_DATATYPE_NULL) return 0;
  int size = 0;
  PMPI_Type_size(dt, &size);
  return size > 0 ? (uint64_t)count * (uint64_t)size : 0;
}
uint64_t aug_bytes_v(const int *counts, MPI_Datatype dt, int n);
uint64_t aug_bytes_w(const int *counts, const MPI_Datatype *dts, int n);
static inline uint64_t aug_req_id(MPI_Request req) { /* handle value as uint64 */
  uint64_t v = 0;
  memcpy(&v, &req, sizeof req < sizeof v ? sizeof req : sizeof v);
  return v;
}
/* xxh3-64 of the message (packed if non-contiguous); 0 unless payload hashing is on. */
uint64_t aug_hash(const void *buf, int count, MPI_Datatype dt);
int aug_hash_on(void);

/* Point-to-point: peer/tag/comm/flags, bytes (sendbuf != NULL: bytes = sent,
 * hash of sendbuf) or bytes_recv (sendbuf == NULL: posted receive size). */
void aug_fill_p2p(augur_event *ev, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                  const void *sendbuf);
/* Blocking receive completed: peer/tag/bytes_recv from the status (wildcards
 * resolved); hashes recvbuf if hashing is on (recvbuf may be NULL). */
void aug_fill_status(augur_event *ev, const MPI_Status *st, const void *recvbuf, MPI_Datatype dt);
/* Collective: comm, peer = root (AUGUR_PEER_NONE if rootless), bytes sent /
 * received by this rank, AUGUR_F_ROOT when this rank is root. */
void aug_fill_coll(augur_event *ev, MPI_Comm comm, int root, uint64_t sent, uint64_t recvd);
/* Size used for v/w collective counts arrays: comm size, or remote size for an
 * intercommunicator. */
int aug_comm_nprocs_for_counts(MPI_Comm comm);
/* 1 if buf is MPI_IN_PLACE (C side). */
int aug_in_place(const void *buf);

/* Completion calls: commits the parent (aux = ncompleted) followed by one
 * AUGUR_EV_COMPLETION sub-record per completed request:
 *   req = reqs[index[i]] (the handle values before the call), aux = index[i],
 *   peer/tag/bytes_recv from st[i] (raw: the reader decides if it was a
 *   receive). st may be NULL (then only req/aux are set).
 * Handles values captured before the PMPI call (PMPI nulls completed ones). */
void aug_commit_completions(augur_event *parent, int ncompleted, const uint64_t *reqs,
                            const int *index, const MPI_Status *st);
/* Startall: commits the parent (aux = n) and n AUGUR_EV_SUB_START records. */
void aug_commit_starts(augur_event *parent, int n, const MPI_Request *reqs);

/* Per-thread scratch (grows, never shrinks; freed at thread exit). Used to keep
 * request handles / statuses when the application passes *_IGNORE. */
uint64_t *aug_scratch_reqs(int n);
MPI_Status *aug_scratch_status(int n);
int *aug_scratch_ints(int n);

/* ---- communicators ---- */

/* Registers newcomm (if not MPI_COMM_NULL) created from parent: computes its
 * stable id, members (world ranks), topology; queues the definition; sets
 * ev->comm = id(parent), ev->req = id(newcomm). kind: enum augur_comm_kind. */
void aug_comm_created(augur_event *ev, MPI_Comm parent, MPI_Comm newcomm, unsigned kind);
void aug_comm_freed(augur_event *ev, MPI_Comm comm); /* before PMPI_Comm_free */

/* ---- lifecycle (called by the Init/Finalize/Abort wrappers of both languages) ---- */

void aug_lifecycle_init(int thread_level_provided, uint64_t t_enter); /* after PMPI_Init* */
void aug_lifecycle_finalize(void);                                    /* before PMPI_Finalize */
void aug_lifecycle_abort(void); /* flush everything before PMPI_Abort */
/* 1 once MPI_Init ran in this process (it is a rank), 0 in a launcher. */
int aug_lifecycle_started(void);
/* Optional, before aug_lifecycle_init / _finalize: the application's call
 * site (AUG_CALLER()) recorded for the INIT / FINALIZE event (else 0). */
void aug_lifecycle_caller(const void *callsite);
/* Fortran Init / Init_thread / Finalize wrappers: called with the
 * application's call site before the library's pmpi_*_ entry and with NULL
 * once it has returned. In between, the INIT / INIT_THREAD / FINALIZE event
 * gets that call site and AUGUR_F_FORTRAN, and aug_lifecycle_caller() calls
 * are ignored: MPICH's Fortran layer calls the C MPI_Init / MPI_Finalize,
 * whose wrappers would otherwise record a call site inside libmpichfort. */
void aug_lifecycle_fortran(const void *callsite);

#endif
