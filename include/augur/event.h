/* augur — the one event model.
 *
 * The recorder fills augur_event records, the writer encodes them, the reader
 * decodes them back into the same struct. Field meaning per event type is
 * specified in docs/trace-format.md ("Event fields"). */
#ifndef AUGUR_EVENT_H
#define AUGUR_EVENT_H

#include <stdint.h>

#include "augur/api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AUGUR_MAX_COUNTERS 4

/* Special peer values (never valid ranks). */
#define AUGUR_PEER_NONE      (-1) /* call has no peer / root */
#define AUGUR_PEER_ANY       (-2) /* MPI_ANY_SOURCE not (yet) resolved */
#define AUGUR_PEER_PROC_NULL (-3) /* MPI_PROC_NULL */
#define AUGUR_TAG_ANY        (-1) /* MPI_ANY_TAG not (yet) resolved */
#define AUGUR_TAG_NONE       (-2) /* call has no tag */

/* Well-known communicator ids. Other ids are 64-bit hashes (see format doc). */
#define AUGUR_COMM_NONE  0u
#define AUGUR_COMM_WORLD 1u
#define AUGUR_COMM_SELF  2u

/* Event flags. */
#define AUGUR_F_ANY_SOURCE 0x0001u /* the call was posted with MPI_ANY_SOURCE */
#define AUGUR_F_ANY_TAG    0x0002u /* the call was posted with MPI_ANY_TAG */
#define AUGUR_F_IN_PLACE   0x0004u /* collective used MPI_IN_PLACE */
#define AUGUR_F_ROOT       0x0008u /* this rank is the root of the collective */
#define AUGUR_F_SENDREQ    0x0010u /* (reader) completion of a send request */
#define AUGUR_F_RECVREQ    0x0020u /* (reader) completion of a receive request */
#define AUGUR_F_COLLREQ    0x0040u /* (reader) completion of a nonblocking collective */
#define AUGUR_F_PERSISTENT 0x0080u /* (reader) the completed request is persistent */
#define AUGUR_F_CANCELLED  0x0100u /* completed request was cancelled */
#define AUGUR_F_INTER      0x0200u /* peer is a rank of the remote group (intercomm) */
#define AUGUR_F_FORTRAN    0x0400u /* called through a Fortran binding */
#define AUGUR_F_NOTDONE    0x0800u /* Test, Testall, ..., Iprobe returned flag=false */
#define AUGUR_F_UNMATCHED  0x1000u /* (reader) completion whose start was never seen */
#define AUGUR_F_FROM_RECV                                                                          \
  0x2000u /* send buffer overlaps the thread's last received buffer                                \
             (recorded with payload hashing only) */
/* Receives of >= 64 KiB (docs/simulate.md, "First receive into a buffer"): */
#define AUGUR_F_FRESH_BUF 0x4000u /* no earlier large receive of the thread used this buffer */
#define AUGUR_F_UNTOUCHED 0x8000u /* most of the buffer's pages were not yet in memory */

/* Event types. Values are part of the on-disk format: append only. */
/* clang-format off */
#define AUGUR_EVENT_TYPES(X)                                                                        \
  X(NONE, 0) X(INIT, 1) X(INIT_THREAD, 2) X(FINALIZE, 3) X(ABORT, 4)                               \
  /* point-to-point */                                                                             \
  X(SEND, 10) X(BSEND, 11) X(SSEND, 12) X(RSEND, 13) X(ISEND, 14) X(IBSEND, 15) X(ISSEND, 16)      \
  X(IRSEND, 17) X(RECV, 18) X(IRECV, 19) X(SENDRECV, 20) X(SENDRECV_REPLACE, 21) X(PROBE, 22)      \
  X(IPROBE, 23) X(MPROBE, 24) X(IMPROBE, 25) X(MRECV, 26) X(IMRECV, 27)                            \
  /* persistent */                                                                                 \
  X(SEND_INIT, 30) X(BSEND_INIT, 31) X(SSEND_INIT, 32) X(RSEND_INIT, 33) X(RECV_INIT, 34)          \
  X(START, 35) X(STARTALL, 36) X(REQUEST_FREE, 37)                                                 \
  /* completion */                                                                                 \
  X(WAIT, 40) X(WAITALL, 41) X(WAITANY, 42) X(WAITSOME, 43) X(TEST, 44) X(TESTALL, 45)             \
  X(TESTANY, 46) X(TESTSOME, 47)                                                                   \
  /* blocking collectives */                                                                       \
  X(BARRIER, 50) X(BCAST, 51) X(REDUCE, 52) X(ALLREDUCE, 53) X(GATHER, 54) X(GATHERV, 55)          \
  X(SCATTER, 56) X(SCATTERV, 57) X(ALLGATHER, 58) X(ALLGATHERV, 59) X(ALLTOALL, 60)                \
  X(ALLTOALLV, 61) X(ALLTOALLW, 62) X(REDUCE_SCATTER, 63) X(REDUCE_SCATTER_BLOCK, 64) X(SCAN, 65)  \
  X(EXSCAN, 66)                                                                                    \
  /* nonblocking collectives */                                                                    \
  X(IBARRIER, 70) X(IBCAST, 71) X(IREDUCE, 72) X(IALLREDUCE, 73) X(IGATHER, 74) X(IGATHERV, 75)    \
  X(ISCATTER, 76) X(ISCATTERV, 77) X(IALLGATHER, 78) X(IALLGATHERV, 79) X(IALLTOALL, 80)           \
  X(IALLTOALLV, 81) X(IALLTOALLW, 82) X(IREDUCE_SCATTER, 83) X(IREDUCE_SCATTER_BLOCK, 84)          \
  X(ISCAN, 85) X(IEXSCAN, 86)                                                                      \
  /* communicators and topologies */                                                               \
  X(COMM_DUP, 90) X(COMM_SPLIT, 91) X(COMM_SPLIT_TYPE, 92) X(COMM_CREATE, 93) X(COMM_FREE, 94)     \
  X(CART_CREATE, 95) X(CART_SUB, 96) X(GRAPH_CREATE, 97) X(DIST_GRAPH_CREATE, 98)                  \
  X(DIST_GRAPH_CREATE_ADJACENT, 99) X(INTERCOMM_CREATE, 100) X(INTERCOMM_MERGE, 101)               \
  X(COMM_IDUP, 102)                                                                                \
  /* sub-records: follow their parent event (parent.aux = how many) */                             \
  X(COMPLETION, 120) X(SUB_RECV, 121) X(SUB_START, 122)
/* clang-format on */

/* OpenMP records (format minor 4; docs/openmp.md "Records"): point events
 * (t_start == t_end) from the OMPT callbacks, in a thread's OpenMP blocks
 * (block kind 3), never in its MPI blocks. They share the type space but not the MPI streams:
 * augur_stream_rank returns MPI records only; augur_stream_rank_kinds selects OpenMP records too.
 */
/* clang-format off */
#define AUGUR_OMP_EVENT_TYPES(X)                                                                    \
  X(OMP_FORK, 104) X(OMP_JOIN, 105) X(OMP_ITASK_BEGIN, 106) X(OMP_ITASK_END, 107)                  \
  X(OMP_WORK_BEGIN, 108) X(OMP_WORK_END, 109) X(OMP_SYNC_BEGIN, 110) X(OMP_SYNC_END, 111)          \
  X(OMP_WAIT_BEGIN, 112) X(OMP_WAIT_END, 113) X(OMP_MUTEX_ACQUIRE, 114)                            \
  X(OMP_MUTEX_ACQUIRED, 115) X(OMP_MUTEX_RELEASED, 116) X(OMP_TASK_CREATE, 117)                    \
  X(OMP_TASK_SCHEDULE, 118) X(OMP_DISPATCH, 119) X(OMP_MASKED_BEGIN, 123)                          \
  X(OMP_MASKED_END, 124) X(OMP_THREAD_BEGIN, 125) X(OMP_THREAD_END, 126)
/* clang-format on */

/* Types 128..254 (format minor 5): the op byte holds 127, the escape, and
 * the next byte the type (docs/trace-format.md, "Events blocks"). Ranges:
 * 128..175 MPI-IO, 176..215 one-sided (RMA), 216..239 neighbourhood
 * collectives and process management, 240..254 reserved. 127 and 255 are
 * never types. Each family's list follows; values are on-disk: append only. */
/* MPI-IO (128..175): docs/trace-format.md "MPI-IO records"; classes in
 * include/augur/io.h. 171..175 are free. */
/* clang-format off */
#define AUGUR_IO_EVENT_TYPES(X)                                                                     \
  X(FILE_OPEN, 128) X(FILE_CLOSE, 129) X(FILE_DELETE, 130) X(FILE_SET_SIZE, 131)                   \
  X(FILE_PREALLOCATE, 132) X(FILE_SYNC, 133) X(FILE_SET_VIEW, 134) X(FILE_SEEK, 135)               \
  X(FILE_SEEK_SHARED, 136)                                                                         \
  /* blocking data access: read, write alternate */                                                \
  X(FILE_READ, 137) X(FILE_WRITE, 138) X(FILE_READ_ALL, 139) X(FILE_WRITE_ALL, 140)                \
  X(FILE_READ_AT, 141) X(FILE_WRITE_AT, 142) X(FILE_READ_AT_ALL, 143) X(FILE_WRITE_AT_ALL, 144)    \
  X(FILE_READ_SHARED, 145) X(FILE_WRITE_SHARED, 146) X(FILE_READ_ORDERED, 147)                     \
  X(FILE_WRITE_ORDERED, 148)                                                                       \
  /* nonblocking */                                                                                \
  X(FILE_IREAD, 149) X(FILE_IWRITE, 150) X(FILE_IREAD_AT, 151) X(FILE_IWRITE_AT, 152)              \
  X(FILE_IREAD_ALL, 153) X(FILE_IWRITE_ALL, 154) X(FILE_IREAD_AT_ALL, 155)                         \
  X(FILE_IWRITE_AT_ALL, 156) X(FILE_IREAD_SHARED, 157) X(FILE_IWRITE_SHARED, 158)                  \
  /* split collectives */                                                                          \
  X(FILE_READ_ALL_BEGIN, 159) X(FILE_READ_ALL_END, 160) X(FILE_WRITE_ALL_BEGIN, 161)               \
  X(FILE_WRITE_ALL_END, 162) X(FILE_READ_AT_ALL_BEGIN, 163) X(FILE_READ_AT_ALL_END, 164)           \
  X(FILE_WRITE_AT_ALL_BEGIN, 165) X(FILE_WRITE_AT_ALL_END, 166) X(FILE_READ_ORDERED_BEGIN, 167)    \
  X(FILE_READ_ORDERED_END, 168) X(FILE_WRITE_ORDERED_BEGIN, 169) X(FILE_WRITE_ORDERED_END, 170)
/* clang-format on */
/* One-sided (176..215): docs/trace-format.md "One-sided records". */
/* clang-format off */
#define AUGUR_RMA_EVENT_TYPES(X)                                                                    \
  X(WIN_CREATE, 176) X(WIN_ALLOCATE, 177) X(WIN_ALLOCATE_SHARED, 178)                              \
  X(WIN_CREATE_DYNAMIC, 179) X(WIN_ATTACH, 180) X(WIN_DETACH, 181) X(WIN_FREE, 182)                \
  X(WIN_FENCE, 183) X(WIN_POST, 184) X(WIN_START, 185) X(WIN_COMPLETE, 186) X(WIN_WAIT, 187)       \
  X(WIN_TEST, 188) X(WIN_LOCK, 189) X(WIN_UNLOCK, 190) X(WIN_LOCK_ALL, 191)                        \
  X(WIN_UNLOCK_ALL, 192) X(WIN_FLUSH, 193) X(WIN_FLUSH_ALL, 194) X(WIN_FLUSH_LOCAL, 195)           \
  X(WIN_FLUSH_LOCAL_ALL, 196) X(WIN_SYNC, 197) X(PUT, 198) X(GET, 199) X(ACCUMULATE, 200)          \
  X(GET_ACCUMULATE, 201) X(FETCH_AND_OP, 202) X(COMPARE_AND_SWAP, 203) X(RPUT, 204) X(RGET, 205)   \
  X(RACCUMULATE, 206) X(RGET_ACCUMULATE, 207)
/* clang-format on */
/* Neighbourhood collectives, process management (216..239):
 * docs/trace-format.md "Neighbourhood and process records". NEIGH_SEND and
 * NEIGH_RECV are sub-records (one per out- / in-neighbour) of a
 * neighbourhood collective. */
/* clang-format off */
#define AUGUR_NEIGH_EVENT_TYPES(X)                                                                  \
  X(NEIGHBOR_ALLGATHER, 216) X(NEIGHBOR_ALLGATHERV, 217) X(NEIGHBOR_ALLTOALL, 218)                 \
  X(NEIGHBOR_ALLTOALLV, 219) X(NEIGHBOR_ALLTOALLW, 220) X(INEIGHBOR_ALLGATHER, 221)                \
  X(INEIGHBOR_ALLGATHERV, 222) X(INEIGHBOR_ALLTOALL, 223) X(INEIGHBOR_ALLTOALLV, 224)              \
  X(INEIGHBOR_ALLTOALLW, 225) X(COMM_CREATE_GROUP, 226) X(COMM_SPAWN, 227)                         \
  X(COMM_SPAWN_MULTIPLE, 228) X(COMM_CONNECT, 229) X(COMM_ACCEPT, 230) X(COMM_JOIN, 231)           \
  X(COMM_DISCONNECT, 232) X(NEIGH_SEND, 233) X(NEIGH_RECV, 234)
/* clang-format on */

/* Every type list, for tables indexed by type. */
/* clang-format off */
#define AUGUR_ALL_EVENT_TYPES(X)                                                                    \
  AUGUR_EVENT_TYPES(X) AUGUR_OMP_EVENT_TYPES(X) AUGUR_IO_EVENT_TYPES(X) AUGUR_RMA_EVENT_TYPES(X)    \
  AUGUR_NEIGH_EVENT_TYPES(X)
/* clang-format on */
#define AUGUR_ALL_EVENT_TYPES(X)                                                                   \
  AUGUR_EVENT_TYPES(X)                                                                             \
  AUGUR_OMP_EVENT_TYPES(X)                                                                         \
  AUGUR_IO_EVENT_TYPES(X) AUGUR_RMA_EVENT_TYPES(X) AUGUR_NEIGH_EVENT_TYPES(X)

enum augur_event_type {
#define AUGUR_X_ENUM(name, val) AUGUR_EV_##name = val,
  AUGUR_ALL_EVENT_TYPES(AUGUR_X_ENUM)
#undef AUGUR_X_ENUM
      AUGUR_EV_ESCAPE = 127, /* on disk only: the op byte of a type >= 128 */
  AUGUR_EV_MAX = 256
};

/* One-sided records: `tag` of WIN_LOCK; assertions (MPI_MODE_*) in `aux` of
 * WIN_FENCE, WIN_POST, WIN_START, WIN_LOCK, WIN_LOCK_ALL as augur's own bits
 * (the MPIs' values differ). docs/trace-format.md "One-sided records". */
enum augur_rma_lock { AUGUR_RMA_LOCK_EXCLUSIVE = 1, AUGUR_RMA_LOCK_SHARED = 2 };
enum augur_rma_mode {
  AUGUR_RMA_MODE_NOCHECK = 0x1,
  AUGUR_RMA_MODE_NOSTORE = 0x2,
  AUGUR_RMA_MODE_NOPUT = 0x4,
  AUGUR_RMA_MODE_NOPRECEDE = 0x8,
  AUGUR_RMA_MODE_NOSUCCEED = 0x10
};

/* Kinds carried in `tag` by OpenMP records, the OMPT enumerations' values
 * (OpenMP 5.1, omp-tools.h), so a reader needs no OMPT header. */
/* OMP_WORK_BEGIN/END: ompt_work_t */
enum augur_omp_work {
  AUGUR_OMP_WORK_LOOP = 1,
  AUGUR_OMP_WORK_SECTIONS = 2,
  AUGUR_OMP_WORK_SINGLE_EXECUTOR = 3,
  AUGUR_OMP_WORK_SINGLE_OTHER = 4,
  AUGUR_OMP_WORK_WORKSHARE = 5,
  AUGUR_OMP_WORK_DISTRIBUTE = 6,
  AUGUR_OMP_WORK_TASKLOOP = 7,
  AUGUR_OMP_WORK_SCOPE = 8
};
/* OMP_SYNC_*, OMP_WAIT_*: ompt_sync_region_t */
enum augur_omp_sync {
  AUGUR_OMP_SYNC_BARRIER = 1, /* deprecated: generic barrier */
  AUGUR_OMP_SYNC_BARRIER_IMPLICIT = 2,
  AUGUR_OMP_SYNC_BARRIER_EXPLICIT = 3,
  AUGUR_OMP_SYNC_BARRIER_IMPLEMENTATION = 4,
  AUGUR_OMP_SYNC_TASKWAIT = 5,
  AUGUR_OMP_SYNC_TASKGROUP = 6,
  AUGUR_OMP_SYNC_REDUCTION = 7,
  AUGUR_OMP_SYNC_BARRIER_IMPLICIT_WORKSHARE = 8,
  AUGUR_OMP_SYNC_BARRIER_IMPLICIT_PARALLEL = 9,
  AUGUR_OMP_SYNC_BARRIER_TEAMS = 10
};
/* OMP_MUTEX_*: ompt_mutex_t */
enum augur_omp_mutex {
  AUGUR_OMP_MUTEX_LOCK = 1,
  AUGUR_OMP_MUTEX_TEST_LOCK = 2,
  AUGUR_OMP_MUTEX_NEST_LOCK = 3,
  AUGUR_OMP_MUTEX_TEST_NEST_LOCK = 4,
  AUGUR_OMP_MUTEX_CRITICAL = 5,
  AUGUR_OMP_MUTEX_ATOMIC = 6,
  AUGUR_OMP_MUTEX_ORDERED = 7
};

/* One event. 128 bytes. The recorder fills it on the hot path and the reader
 * returns it; see docs/trace-format.md for each field's meaning per type.
 *
 * Times: from the recorder, the rank's CLOCK_MONOTONIC in ns. From the reader,
 * ns on the trace's global timeline (rank 0's clock, 0 = rank 0's MPI_Init
 * start), corrected with the recorded clock offsets. */
typedef struct augur_event {
  uint64_t t_start;
  uint64_t t_end;
  uint64_t bytes;      /* bytes this rank sent (or contributed) */
  uint64_t bytes_recv; /* bytes this rank received */
  uint64_t req;        /* MPI_Request handle value (nonblocking, persistent, completion,
                          Start) or the created communicator's id (comm calls) */
  uint64_t comm;       /* communicator id */
  uint64_t hash;       /* payload fingerprint (xxh3-64) or 0 */
  uint64_t callsite;   /* recorder: raw return address; on disk and from the reader:
                          call-site id (0 = unknown) */
  uint64_t ctr[AUGUR_MAX_COUNTERS]; /* counter deltas over the compute burst that ends at
                                       t_start (since the previous event's t_end) */
  int32_t peer;                     /* on disk: rank in comm (remote group if AUGUR_F_INTER);
                                       from the reader: world rank. Or AUGUR_PEER_* */
  int32_t tag;                      /* tag or AUGUR_TAG_* */
  uint32_t aux;    /* parent: number of sub-records that follow; COMPLETION: index in
                      the request array; WAITANY/TESTANY: index; others: 0 */
  uint16_t type;   /* enum augur_event_type */
  uint16_t flags;  /* AUGUR_F_* */
  uint32_t rank;   /* world rank (set by the reader) */
  uint32_t thread; /* recorder thread index within the rank (0 = first thread) */
} augur_event;

/* "MPI_Isend" etc. for a type; "?" for unknown values. */
AUGUR_API const char *augur_event_name(unsigned type);
/* Reverse lookup by the short name ("ISEND", case-insensitive, with or without
 * the MPI_ prefix); returns -1 if unknown. */
AUGUR_API int augur_event_from_name(const char *name);

/* Classes of event types, for analyses. */
AUGUR_API int
augur_event_is_p2p_send(unsigned type); /* SEND..IRSEND, SENDRECV(_REPLACE), *_INIT sends */
AUGUR_API int augur_event_is_p2p_recv(unsigned type);   /* RECV, IRECV, MRECV, IMRECV, RECV_INIT */
AUGUR_API int augur_event_is_sendrecv(unsigned type);   /* SENDRECV, SENDRECV_REPLACE */
AUGUR_API int augur_event_is_collective(unsigned type); /* blocking or nonblocking collectives */
/* Blocking collectives where every member's data reaches every other (Scalasca's N x N:
 * Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter(_block)); not Barrier. */
AUGUR_API int augur_event_is_nxn(unsigned type);
AUGUR_API int augur_event_is_nonblocking(unsigned type);
AUGUR_API int augur_event_is_completion(unsigned type); /* WAIT..TESTSOME */
AUGUR_API int augur_event_is_comm_mgmt(unsigned type);  /* COMM_* / CART_* / GRAPH / INTERCOMM */
AUGUR_API int augur_event_is_sub(unsigned type);        /* COMPLETION..SUB_START, NEIGH_* */
AUGUR_API int augur_event_is_omp(unsigned type);        /* OMP_* (docs/openmp.md) */
AUGUR_API int augur_event_is_io(unsigned type);         /* MPI_File_* (128..175) */
AUGUR_API int augur_event_is_rma(unsigned type);        /* MPI_Win_*, Put, Get, ... (176..215) */
AUGUR_API int augur_event_is_neighbor(unsigned type);   /* (I)Neighbor_* (216..225) */
AUGUR_API int augur_event_is_process(unsigned type);    /* Comm_spawn..Comm_disconnect */

#ifdef __cplusplus
}
#endif
#endif
