/* augur — event type names and classes. */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "augur/event.h"
#include "subrec.h"

/* Short upper-case names straight from the X-macro, for reverse lookup. */
static const struct {
  unsigned type;
  const char *upper; /* "ISEND" */
} names[] = {
#define AUGUR_X_NAME(n, v) {v, #n},
    AUGUR_ALL_EVENT_TYPES(AUGUR_X_NAME)
#undef AUGUR_X_NAME
};

/* Display names indexed by type value: MPI spelling for calls (the
 * preprocessor cannot change case, so they are spelled out), plain names for
 * augur's own sub-records. */
static const char *const display[AUGUR_EV_MAX] = {
    [AUGUR_EV_NONE] = "NONE",
    [AUGUR_EV_INIT] = "MPI_Init",
    [AUGUR_EV_INIT_THREAD] = "MPI_Init_thread",
    [AUGUR_EV_FINALIZE] = "MPI_Finalize",
    [AUGUR_EV_ABORT] = "MPI_Abort",
    [AUGUR_EV_SEND] = "MPI_Send",
    [AUGUR_EV_BSEND] = "MPI_Bsend",
    [AUGUR_EV_SSEND] = "MPI_Ssend",
    [AUGUR_EV_RSEND] = "MPI_Rsend",
    [AUGUR_EV_ISEND] = "MPI_Isend",
    [AUGUR_EV_IBSEND] = "MPI_Ibsend",
    [AUGUR_EV_ISSEND] = "MPI_Issend",
    [AUGUR_EV_IRSEND] = "MPI_Irsend",
    [AUGUR_EV_RECV] = "MPI_Recv",
    [AUGUR_EV_IRECV] = "MPI_Irecv",
    [AUGUR_EV_SENDRECV] = "MPI_Sendrecv",
    [AUGUR_EV_SENDRECV_REPLACE] = "MPI_Sendrecv_replace",
    [AUGUR_EV_PROBE] = "MPI_Probe",
    [AUGUR_EV_IPROBE] = "MPI_Iprobe",
    [AUGUR_EV_MPROBE] = "MPI_Mprobe",
    [AUGUR_EV_IMPROBE] = "MPI_Improbe",
    [AUGUR_EV_MRECV] = "MPI_Mrecv",
    [AUGUR_EV_IMRECV] = "MPI_Imrecv",
    [AUGUR_EV_SEND_INIT] = "MPI_Send_init",
    [AUGUR_EV_BSEND_INIT] = "MPI_Bsend_init",
    [AUGUR_EV_SSEND_INIT] = "MPI_Ssend_init",
    [AUGUR_EV_RSEND_INIT] = "MPI_Rsend_init",
    [AUGUR_EV_RECV_INIT] = "MPI_Recv_init",
    [AUGUR_EV_START] = "MPI_Start",
    [AUGUR_EV_STARTALL] = "MPI_Startall",
    [AUGUR_EV_REQUEST_FREE] = "MPI_Request_free",
    [AUGUR_EV_WAIT] = "MPI_Wait",
    [AUGUR_EV_WAITALL] = "MPI_Waitall",
    [AUGUR_EV_WAITANY] = "MPI_Waitany",
    [AUGUR_EV_WAITSOME] = "MPI_Waitsome",
    [AUGUR_EV_TEST] = "MPI_Test",
    [AUGUR_EV_TESTALL] = "MPI_Testall",
    [AUGUR_EV_TESTANY] = "MPI_Testany",
    [AUGUR_EV_TESTSOME] = "MPI_Testsome",
    [AUGUR_EV_BARRIER] = "MPI_Barrier",
    [AUGUR_EV_BCAST] = "MPI_Bcast",
    [AUGUR_EV_REDUCE] = "MPI_Reduce",
    [AUGUR_EV_ALLREDUCE] = "MPI_Allreduce",
    [AUGUR_EV_GATHER] = "MPI_Gather",
    [AUGUR_EV_GATHERV] = "MPI_Gatherv",
    [AUGUR_EV_SCATTER] = "MPI_Scatter",
    [AUGUR_EV_SCATTERV] = "MPI_Scatterv",
    [AUGUR_EV_ALLGATHER] = "MPI_Allgather",
    [AUGUR_EV_ALLGATHERV] = "MPI_Allgatherv",
    [AUGUR_EV_ALLTOALL] = "MPI_Alltoall",
    [AUGUR_EV_ALLTOALLV] = "MPI_Alltoallv",
    [AUGUR_EV_ALLTOALLW] = "MPI_Alltoallw",
    [AUGUR_EV_REDUCE_SCATTER] = "MPI_Reduce_scatter",
    [AUGUR_EV_REDUCE_SCATTER_BLOCK] = "MPI_Reduce_scatter_block",
    [AUGUR_EV_SCAN] = "MPI_Scan",
    [AUGUR_EV_EXSCAN] = "MPI_Exscan",
    [AUGUR_EV_IBARRIER] = "MPI_Ibarrier",
    [AUGUR_EV_IBCAST] = "MPI_Ibcast",
    [AUGUR_EV_IREDUCE] = "MPI_Ireduce",
    [AUGUR_EV_IALLREDUCE] = "MPI_Iallreduce",
    [AUGUR_EV_IGATHER] = "MPI_Igather",
    [AUGUR_EV_IGATHERV] = "MPI_Igatherv",
    [AUGUR_EV_ISCATTER] = "MPI_Iscatter",
    [AUGUR_EV_ISCATTERV] = "MPI_Iscatterv",
    [AUGUR_EV_IALLGATHER] = "MPI_Iallgather",
    [AUGUR_EV_IALLGATHERV] = "MPI_Iallgatherv",
    [AUGUR_EV_IALLTOALL] = "MPI_Ialltoall",
    [AUGUR_EV_IALLTOALLV] = "MPI_Ialltoallv",
    [AUGUR_EV_IALLTOALLW] = "MPI_Ialltoallw",
    [AUGUR_EV_IREDUCE_SCATTER] = "MPI_Ireduce_scatter",
    [AUGUR_EV_IREDUCE_SCATTER_BLOCK] = "MPI_Ireduce_scatter_block",
    [AUGUR_EV_ISCAN] = "MPI_Iscan",
    [AUGUR_EV_IEXSCAN] = "MPI_Iexscan",
    [AUGUR_EV_COMM_DUP] = "MPI_Comm_dup",
    [AUGUR_EV_COMM_SPLIT] = "MPI_Comm_split",
    [AUGUR_EV_COMM_SPLIT_TYPE] = "MPI_Comm_split_type",
    [AUGUR_EV_COMM_CREATE] = "MPI_Comm_create",
    [AUGUR_EV_COMM_FREE] = "MPI_Comm_free",
    [AUGUR_EV_CART_CREATE] = "MPI_Cart_create",
    [AUGUR_EV_CART_SUB] = "MPI_Cart_sub",
    [AUGUR_EV_GRAPH_CREATE] = "MPI_Graph_create",
    [AUGUR_EV_DIST_GRAPH_CREATE] = "MPI_Dist_graph_create",
    [AUGUR_EV_DIST_GRAPH_CREATE_ADJACENT] = "MPI_Dist_graph_create_adjacent",
    [AUGUR_EV_INTERCOMM_CREATE] = "MPI_Intercomm_create",
    [AUGUR_EV_INTERCOMM_MERGE] = "MPI_Intercomm_merge",
    [AUGUR_EV_COMM_IDUP] = "MPI_Comm_idup",
    [AUGUR_EV_COMPLETION] = "COMPLETION",
    [AUGUR_EV_SUB_RECV] = "SUB_RECV",
    [AUGUR_EV_SUB_START] = "SUB_START",
    [AUGUR_EV_OMP_FORK] = "omp_fork",
    [AUGUR_EV_OMP_JOIN] = "omp_join",
    [AUGUR_EV_OMP_ITASK_BEGIN] = "omp_implicit_task_begin",
    [AUGUR_EV_OMP_ITASK_END] = "omp_implicit_task_end",
    [AUGUR_EV_OMP_WORK_BEGIN] = "omp_work_begin",
    [AUGUR_EV_OMP_WORK_END] = "omp_work_end",
    [AUGUR_EV_OMP_SYNC_BEGIN] = "omp_sync_begin",
    [AUGUR_EV_OMP_SYNC_END] = "omp_sync_end",
    [AUGUR_EV_OMP_WAIT_BEGIN] = "omp_wait_begin",
    [AUGUR_EV_OMP_WAIT_END] = "omp_wait_end",
    [AUGUR_EV_OMP_MUTEX_ACQUIRE] = "omp_mutex_acquire",
    [AUGUR_EV_OMP_MUTEX_ACQUIRED] = "omp_mutex_acquired",
    [AUGUR_EV_OMP_MUTEX_RELEASED] = "omp_mutex_released",
    [AUGUR_EV_OMP_TASK_CREATE] = "omp_task_create",
    [AUGUR_EV_OMP_TASK_SCHEDULE] = "omp_task_schedule",
    [AUGUR_EV_OMP_DISPATCH] = "omp_dispatch",
    [AUGUR_EV_OMP_MASKED_BEGIN] = "omp_masked_begin",
    [AUGUR_EV_OMP_MASKED_END] = "omp_masked_end",
    [AUGUR_EV_OMP_THREAD_BEGIN] = "omp_thread_begin",
    [AUGUR_EV_OMP_THREAD_END] = "omp_thread_end",
    /* MPI-IO (128..175) */
    [AUGUR_EV_FILE_OPEN] = "MPI_File_open",
    [AUGUR_EV_FILE_CLOSE] = "MPI_File_close",
    [AUGUR_EV_FILE_DELETE] = "MPI_File_delete",
    [AUGUR_EV_FILE_SET_SIZE] = "MPI_File_set_size",
    [AUGUR_EV_FILE_PREALLOCATE] = "MPI_File_preallocate",
    [AUGUR_EV_FILE_SYNC] = "MPI_File_sync",
    [AUGUR_EV_FILE_SET_VIEW] = "MPI_File_set_view",
    [AUGUR_EV_FILE_SEEK] = "MPI_File_seek",
    [AUGUR_EV_FILE_SEEK_SHARED] = "MPI_File_seek_shared",
    [AUGUR_EV_FILE_READ] = "MPI_File_read",
    [AUGUR_EV_FILE_WRITE] = "MPI_File_write",
    [AUGUR_EV_FILE_READ_ALL] = "MPI_File_read_all",
    [AUGUR_EV_FILE_WRITE_ALL] = "MPI_File_write_all",
    [AUGUR_EV_FILE_READ_AT] = "MPI_File_read_at",
    [AUGUR_EV_FILE_WRITE_AT] = "MPI_File_write_at",
    [AUGUR_EV_FILE_READ_AT_ALL] = "MPI_File_read_at_all",
    [AUGUR_EV_FILE_WRITE_AT_ALL] = "MPI_File_write_at_all",
    [AUGUR_EV_FILE_READ_SHARED] = "MPI_File_read_shared",
    [AUGUR_EV_FILE_WRITE_SHARED] = "MPI_File_write_shared",
    [AUGUR_EV_FILE_READ_ORDERED] = "MPI_File_read_ordered",
    [AUGUR_EV_FILE_WRITE_ORDERED] = "MPI_File_write_ordered",
    [AUGUR_EV_FILE_IREAD] = "MPI_File_iread",
    [AUGUR_EV_FILE_IWRITE] = "MPI_File_iwrite",
    [AUGUR_EV_FILE_IREAD_AT] = "MPI_File_iread_at",
    [AUGUR_EV_FILE_IWRITE_AT] = "MPI_File_iwrite_at",
    [AUGUR_EV_FILE_IREAD_ALL] = "MPI_File_iread_all",
    [AUGUR_EV_FILE_IWRITE_ALL] = "MPI_File_iwrite_all",
    [AUGUR_EV_FILE_IREAD_AT_ALL] = "MPI_File_iread_at_all",
    [AUGUR_EV_FILE_IWRITE_AT_ALL] = "MPI_File_iwrite_at_all",
    [AUGUR_EV_FILE_IREAD_SHARED] = "MPI_File_iread_shared",
    [AUGUR_EV_FILE_IWRITE_SHARED] = "MPI_File_iwrite_shared",
    [AUGUR_EV_FILE_READ_ALL_BEGIN] = "MPI_File_read_all_begin",
    [AUGUR_EV_FILE_READ_ALL_END] = "MPI_File_read_all_end",
    [AUGUR_EV_FILE_WRITE_ALL_BEGIN] = "MPI_File_write_all_begin",
    [AUGUR_EV_FILE_WRITE_ALL_END] = "MPI_File_write_all_end",
    [AUGUR_EV_FILE_READ_AT_ALL_BEGIN] = "MPI_File_read_at_all_begin",
    [AUGUR_EV_FILE_READ_AT_ALL_END] = "MPI_File_read_at_all_end",
    [AUGUR_EV_FILE_WRITE_AT_ALL_BEGIN] = "MPI_File_write_at_all_begin",
    [AUGUR_EV_FILE_WRITE_AT_ALL_END] = "MPI_File_write_at_all_end",
    [AUGUR_EV_FILE_READ_ORDERED_BEGIN] = "MPI_File_read_ordered_begin",
    [AUGUR_EV_FILE_READ_ORDERED_END] = "MPI_File_read_ordered_end",
    [AUGUR_EV_FILE_WRITE_ORDERED_BEGIN] = "MPI_File_write_ordered_begin",
    [AUGUR_EV_FILE_WRITE_ORDERED_END] = "MPI_File_write_ordered_end",
    /* One-sided (176..215) */
    [AUGUR_EV_WIN_CREATE] = "MPI_Win_create",
    [AUGUR_EV_WIN_ALLOCATE] = "MPI_Win_allocate",
    [AUGUR_EV_WIN_ALLOCATE_SHARED] = "MPI_Win_allocate_shared",
    [AUGUR_EV_WIN_CREATE_DYNAMIC] = "MPI_Win_create_dynamic",
    [AUGUR_EV_WIN_ATTACH] = "MPI_Win_attach",
    [AUGUR_EV_WIN_DETACH] = "MPI_Win_detach",
    [AUGUR_EV_WIN_FREE] = "MPI_Win_free",
    [AUGUR_EV_WIN_FENCE] = "MPI_Win_fence",
    [AUGUR_EV_WIN_POST] = "MPI_Win_post",
    [AUGUR_EV_WIN_START] = "MPI_Win_start",
    [AUGUR_EV_WIN_COMPLETE] = "MPI_Win_complete",
    [AUGUR_EV_WIN_WAIT] = "MPI_Win_wait",
    [AUGUR_EV_WIN_TEST] = "MPI_Win_test",
    [AUGUR_EV_WIN_LOCK] = "MPI_Win_lock",
    [AUGUR_EV_WIN_UNLOCK] = "MPI_Win_unlock",
    [AUGUR_EV_WIN_LOCK_ALL] = "MPI_Win_lock_all",
    [AUGUR_EV_WIN_UNLOCK_ALL] = "MPI_Win_unlock_all",
    [AUGUR_EV_WIN_FLUSH] = "MPI_Win_flush",
    [AUGUR_EV_WIN_FLUSH_ALL] = "MPI_Win_flush_all",
    [AUGUR_EV_WIN_FLUSH_LOCAL] = "MPI_Win_flush_local",
    [AUGUR_EV_WIN_FLUSH_LOCAL_ALL] = "MPI_Win_flush_local_all",
    [AUGUR_EV_WIN_SYNC] = "MPI_Win_sync",
    [AUGUR_EV_PUT] = "MPI_Put",
    [AUGUR_EV_GET] = "MPI_Get",
    [AUGUR_EV_ACCUMULATE] = "MPI_Accumulate",
    [AUGUR_EV_GET_ACCUMULATE] = "MPI_Get_accumulate",
    [AUGUR_EV_FETCH_AND_OP] = "MPI_Fetch_and_op",
    [AUGUR_EV_COMPARE_AND_SWAP] = "MPI_Compare_and_swap",
    [AUGUR_EV_RPUT] = "MPI_Rput",
    [AUGUR_EV_RGET] = "MPI_Rget",
    [AUGUR_EV_RACCUMULATE] = "MPI_Raccumulate",
    [AUGUR_EV_RGET_ACCUMULATE] = "MPI_Rget_accumulate",
    /* Neighbourhood collectives, process management (216..239) */
    [AUGUR_EV_NEIGHBOR_ALLGATHER] = "MPI_Neighbor_allgather",
    [AUGUR_EV_NEIGHBOR_ALLGATHERV] = "MPI_Neighbor_allgatherv",
    [AUGUR_EV_NEIGHBOR_ALLTOALL] = "MPI_Neighbor_alltoall",
    [AUGUR_EV_NEIGHBOR_ALLTOALLV] = "MPI_Neighbor_alltoallv",
    [AUGUR_EV_NEIGHBOR_ALLTOALLW] = "MPI_Neighbor_alltoallw",
    [AUGUR_EV_INEIGHBOR_ALLGATHER] = "MPI_Ineighbor_allgather",
    [AUGUR_EV_INEIGHBOR_ALLGATHERV] = "MPI_Ineighbor_allgatherv",
    [AUGUR_EV_INEIGHBOR_ALLTOALL] = "MPI_Ineighbor_alltoall",
    [AUGUR_EV_INEIGHBOR_ALLTOALLV] = "MPI_Ineighbor_alltoallv",
    [AUGUR_EV_INEIGHBOR_ALLTOALLW] = "MPI_Ineighbor_alltoallw",
    [AUGUR_EV_COMM_CREATE_GROUP] = "MPI_Comm_create_group",
    [AUGUR_EV_COMM_SPAWN] = "MPI_Comm_spawn",
    [AUGUR_EV_COMM_SPAWN_MULTIPLE] = "MPI_Comm_spawn_multiple",
    [AUGUR_EV_COMM_CONNECT] = "MPI_Comm_connect",
    [AUGUR_EV_COMM_ACCEPT] = "MPI_Comm_accept",
    [AUGUR_EV_COMM_JOIN] = "MPI_Comm_join",
    [AUGUR_EV_COMM_DISCONNECT] = "MPI_Comm_disconnect",
    [AUGUR_EV_NEIGH_SEND] = "NEIGH_SEND",
    [AUGUR_EV_NEIGH_RECV] = "NEIGH_RECV",
};

const char *augur_event_name(unsigned type) {
  if (type < AUGUR_EV_MAX && display[type]) return display[type];
  return "?";
}

static int ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return 0;
  return *a == *b;
}

int augur_event_from_name(const char *name) {
  if (!name) return -1;
  if ((name[0] == 'M' || name[0] == 'm') && (name[1] == 'P' || name[1] == 'p') &&
      (name[2] == 'I' || name[2] == 'i') && name[3] == '_')
    name += 4;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (ieq(name, names[i].upper)) return (int)names[i].type;
  return -1;
}

int augur_event_is_p2p_send(unsigned t) {
  return (t >= AUGUR_EV_SEND && t <= AUGUR_EV_IRSEND) || t == AUGUR_EV_SENDRECV ||
         t == AUGUR_EV_SENDRECV_REPLACE || (t >= AUGUR_EV_SEND_INIT && t <= AUGUR_EV_RSEND_INIT);
}

int augur_event_is_sendrecv(unsigned t) {
  return t == AUGUR_EV_SENDRECV || t == AUGUR_EV_SENDRECV_REPLACE;
}

int augur_event_is_p2p_recv(unsigned t) {
  return t == AUGUR_EV_RECV || t == AUGUR_EV_IRECV || t == AUGUR_EV_MRECV || t == AUGUR_EV_IMRECV ||
         t == AUGUR_EV_RECV_INIT;
}

int augur_event_is_collective(unsigned t) {
  return (t >= AUGUR_EV_BARRIER && t <= AUGUR_EV_EXSCAN) ||
         (t >= AUGUR_EV_IBARRIER && t <= AUGUR_EV_IEXSCAN);
}

int augur_event_is_nxn(unsigned t) {
  switch (t) {
  case AUGUR_EV_ALLREDUCE:
  case AUGUR_EV_ALLGATHER:
  case AUGUR_EV_ALLGATHERV:
  case AUGUR_EV_ALLTOALL:
  case AUGUR_EV_ALLTOALLV:
  case AUGUR_EV_ALLTOALLW:
  case AUGUR_EV_REDUCE_SCATTER:
  case AUGUR_EV_REDUCE_SCATTER_BLOCK:
    return 1;
  default:
    return 0;
  }
}

int augur_event_is_nonblocking(unsigned t) {
  return (t >= AUGUR_EV_ISEND && t <= AUGUR_EV_IRSEND) || t == AUGUR_EV_IRECV ||
         t == AUGUR_EV_IPROBE || t == AUGUR_EV_IMPROBE || t == AUGUR_EV_IMRECV ||
         (t >= AUGUR_EV_IBARRIER && t <= AUGUR_EV_IEXSCAN) || t == AUGUR_EV_COMM_IDUP ||
         (t >= AUGUR_EV_INEIGHBOR_ALLGATHER && t <= AUGUR_EV_INEIGHBOR_ALLTOALLW);
}

int augur_event_is_completion(unsigned t) {
  return t >= AUGUR_EV_WAIT && t <= AUGUR_EV_TESTSOME;
}

int augur_event_is_comm_mgmt(unsigned t) {
  return t >= AUGUR_EV_COMM_DUP && t <= AUGUR_EV_COMM_IDUP;
}

int augur_event_is_sub(unsigned t) {
  return aug_type_is_sub(t);
}

int augur_event_is_omp(unsigned t) {
  return (t >= AUGUR_EV_OMP_FORK && t <= AUGUR_EV_OMP_DISPATCH) ||
         (t >= AUGUR_EV_OMP_MASKED_BEGIN && t <= AUGUR_EV_OMP_THREAD_END);
}

int augur_event_is_io(unsigned t) {
  return t >= 128 && t <= 175 && display[t];
}

int augur_event_is_rma(unsigned t) {
  return t >= 176 && t <= 215 && display[t];
}

int augur_event_is_neighbor(unsigned t) {
  return t >= AUGUR_EV_NEIGHBOR_ALLGATHER && t <= AUGUR_EV_INEIGHBOR_ALLTOALLW;
}

int augur_event_is_process(unsigned t) {
  return t >= AUGUR_EV_COMM_SPAWN && t <= AUGUR_EV_COMM_DISCONNECT;
}
