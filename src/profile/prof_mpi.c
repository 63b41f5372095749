/* libaugur-profile — time in MPI per call class, and the gather to rank 0.
 *
 * A small set of PMPI wrappers of its own (not the trace recorder's): each
 * adds its duration to one of the classes of mon_record.h. Only the C
 * bindings are interposed; Fortran calls reach PMPI directly in MPICH and
 * are not counted (docs/monitoring.md). MPI_Finalize summarises the rank,
 * gathers every rank's fixed-size record to rank 0 with one PMPI_Gather and
 * rank 0 writes them as one file: no per-rank files on a shared file
 * system. Compiled once per MPI flavour (mpi.h differs). */
#include <mpi.h>
#include <stdlib.h>

#include "prof.h"

static void add(int cls, uint64_t t0) {
  prof_thread *t = prof_self();
  if (!t) return;
  PROF_ADD(t->mpi_ns[cls], prof_mono_ns() - t0);
  PROF_ADD(t->mpi_calls[cls], 1);
}

#define TIMED(cls, call)                                                                           \
  do {                                                                                             \
    if (!prof_level) return call;                                                                  \
    uint64_t t0_ = prof_mono_ns();                                                                 \
    int rc_ = call;                                                                                \
    add(cls, t0_);                                                                                 \
    return rc_;                                                                                    \
  } while (0)

static void after_init(void) {
  int rank = -1, size = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  prof_set_rank(rank, size);
}

AUGUR_API int MPI_Init(int *argc, char ***argv) {
  if (!prof_level) return PMPI_Init(argc, argv);
  uint64_t t0 = prof_mono_ns();
  int rc = PMPI_Init(argc, argv);
  add(AUGP_MPI_INIT_FINI, t0);
  if (rc == MPI_SUCCESS) after_init();
  return rc;
}

AUGUR_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  if (!prof_level) return PMPI_Init_thread(argc, argv, required, provided);
  uint64_t t0 = prof_mono_ns();
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  add(AUGP_MPI_INIT_FINI, t0);
  if (rc == MPI_SUCCESS) after_init();
  return rc;
}

AUGUR_API int MPI_Finalize(void) {
  if (!prof_level || prof_reported) return PMPI_Finalize();
  augp_proc me;
  prof_snapshot(&me, AUGP_PF_MPI | AUGP_PF_GATHERED);
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  augp_proc *all = NULL;
  if (rank == 0) all = malloc((size_t)size * sizeof *all);
  /* Every rank must take part in the gather, so a rank 0 without memory
   * still gathers (into its own record, count 1) and says so: the other
   * ranks then write their own records at exit instead. */
  int ok = rank != 0 || all != NULL;
  int all_ok = 0;
  PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all_ok) {
    PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank == 0) prof_write_records(all, (uint64_t)size, "mpi");
    prof_reported = 1;
  }
  free(all);
  uint64_t t0 = prof_mono_ns();
  int rc = PMPI_Finalize();
  add(AUGP_MPI_INIT_FINI, t0);
  return rc;
}

/* ---- point to point ---- */
AUGUR_API int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  TIMED(AUGP_MPI_P2P, PMPI_Send(b, n, t, d, tag, c));
}
AUGUR_API int MPI_Ssend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  TIMED(AUGP_MPI_P2P, PMPI_Ssend(b, n, t, d, tag, c));
}
AUGUR_API int MPI_Bsend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  TIMED(AUGP_MPI_P2P, PMPI_Bsend(b, n, t, d, tag, c));
}
AUGUR_API int MPI_Rsend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  TIMED(AUGP_MPI_P2P, PMPI_Rsend(b, n, t, d, tag, c));
}
AUGUR_API int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Status *st) {
  TIMED(AUGP_MPI_P2P, PMPI_Recv(b, n, t, s, tag, c, st));
}
AUGUR_API int MPI_Isend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c,
                        MPI_Request *r) {
  TIMED(AUGP_MPI_P2P, PMPI_Isend(b, n, t, d, tag, c, r));
}
AUGUR_API int MPI_Issend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c,
                         MPI_Request *r) {
  TIMED(AUGP_MPI_P2P, PMPI_Issend(b, n, t, d, tag, c, r));
}
AUGUR_API int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c,
                        MPI_Request *r) {
  TIMED(AUGP_MPI_P2P, PMPI_Irecv(b, n, t, s, tag, c, r));
}
AUGUR_API int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int d, int stag, void *rb,
                           int rn, MPI_Datatype rt, int s, int rtag, MPI_Comm c,
                           MPI_Status *status) {
  TIMED(AUGP_MPI_P2P, PMPI_Sendrecv(sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status));
}
AUGUR_API int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int d, int stag, int s, int rtag,
                                   MPI_Comm c, MPI_Status *status) {
  TIMED(AUGP_MPI_P2P, PMPI_Sendrecv_replace(b, n, t, d, stag, s, rtag, c, status));
}
AUGUR_API int MPI_Probe(int s, int tag, MPI_Comm c, MPI_Status *st) {
  TIMED(AUGP_MPI_P2P, PMPI_Probe(s, tag, c, st));
}
AUGUR_API int MPI_Iprobe(int s, int tag, MPI_Comm c, int *flag, MPI_Status *st) {
  TIMED(AUGP_MPI_P2P, PMPI_Iprobe(s, tag, c, flag, st));
}

/* ---- completion ---- */
AUGUR_API int MPI_Wait(MPI_Request *r, MPI_Status *st) {
  TIMED(AUGP_MPI_WAIT, PMPI_Wait(r, st));
}
AUGUR_API int MPI_Waitall(int n, MPI_Request r[], MPI_Status st[]) {
  TIMED(AUGP_MPI_WAIT, PMPI_Waitall(n, r, st));
}
AUGUR_API int MPI_Waitany(int n, MPI_Request r[], int *idx, MPI_Status *st) {
  TIMED(AUGP_MPI_WAIT, PMPI_Waitany(n, r, idx, st));
}
AUGUR_API int MPI_Waitsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[]) {
  TIMED(AUGP_MPI_WAIT, PMPI_Waitsome(n, r, out, idx, st));
}
AUGUR_API int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st) {
  TIMED(AUGP_MPI_WAIT, PMPI_Test(r, flag, st));
}
AUGUR_API int MPI_Testall(int n, MPI_Request r[], int *flag, MPI_Status st[]) {
  TIMED(AUGP_MPI_WAIT, PMPI_Testall(n, r, flag, st));
}
AUGUR_API int MPI_Testany(int n, MPI_Request r[], int *idx, int *flag, MPI_Status *st) {
  TIMED(AUGP_MPI_WAIT, PMPI_Testany(n, r, idx, flag, st));
}
AUGUR_API int MPI_Testsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[]) {
  TIMED(AUGP_MPI_WAIT, PMPI_Testsome(n, r, out, idx, st));
}

/* ---- collectives ---- */
AUGUR_API int MPI_Barrier(MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Barrier(c));
}
AUGUR_API int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Bcast(b, n, t, root, c));
}
AUGUR_API int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root,
                         MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Reduce(s, r, n, t, op, root, c));
}
AUGUR_API int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Allreduce(s, r, n, t, op, c));
}
AUGUR_API int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                         int root, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Gather(s, sn, st, r, rn, rt, root, c));
}
AUGUR_API int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[],
                          const int displs[], MPI_Datatype rt, int root, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Gatherv(s, sn, st, r, rn, displs, rt, root, c));
}
AUGUR_API int MPI_Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                          int root, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Scatter(s, sn, st, r, rn, rt, root, c));
}
AUGUR_API int MPI_Scatterv(const void *s, const int sn[], const int displs[], MPI_Datatype st,
                           void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Scatterv(s, sn, displs, st, r, rn, rt, root, c));
}
AUGUR_API int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn,
                            MPI_Datatype rt, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Allgather(s, sn, st, r, rn, rt, c));
}
AUGUR_API int MPI_Allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[],
                             const int displs[], MPI_Datatype rt, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Allgatherv(s, sn, st, r, rn, displs, rt, c));
}
AUGUR_API int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                           MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Alltoall(s, sn, st, r, rn, rt, c));
}
AUGUR_API int MPI_Alltoallv(const void *s, const int sn[], const int sd[], MPI_Datatype st, void *r,
                            const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c));
}
AUGUR_API int MPI_Reduce_scatter(const void *s, void *r, const int rn[], MPI_Datatype t, MPI_Op op,
                                 MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Reduce_scatter(s, r, rn, t, op, c));
}
AUGUR_API int MPI_Reduce_scatter_block(const void *s, void *r, int rn, MPI_Datatype t, MPI_Op op,
                                       MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Reduce_scatter_block(s, r, rn, t, op, c));
}
AUGUR_API int MPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Scan(s, r, n, t, op, c));
}
AUGUR_API int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  TIMED(AUGP_MPI_COLL, PMPI_Exscan(s, r, n, t, op, c));
}
AUGUR_API int MPI_Ibarrier(MPI_Comm c, MPI_Request *r) {
  TIMED(AUGP_MPI_COLL, PMPI_Ibarrier(c, r));
}
AUGUR_API int MPI_Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r) {
  TIMED(AUGP_MPI_COLL, PMPI_Ibcast(b, n, t, root, c, r));
}
AUGUR_API int MPI_Iallreduce(const void *s, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                             MPI_Request *r) {
  TIMED(AUGP_MPI_COLL, PMPI_Iallreduce(s, rb, n, t, op, c, r));
}
AUGUR_API int MPI_Ireduce(const void *s, void *rb, int n, MPI_Datatype t, MPI_Op op, int root,
                          MPI_Comm c, MPI_Request *r) {
  TIMED(AUGP_MPI_COLL, PMPI_Ireduce(s, rb, n, t, op, root, c, r));
}

/* ---- other ---- */
AUGUR_API int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out) {
  TIMED(AUGP_MPI_OTHER, PMPI_Comm_split(c, color, key, out));
}
AUGUR_API int MPI_Comm_dup(MPI_Comm c, MPI_Comm *out) {
  TIMED(AUGP_MPI_OTHER, PMPI_Comm_dup(c, out));
}
AUGUR_API int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *out) {
  TIMED(AUGP_MPI_OTHER, PMPI_Comm_create(c, g, out));
}
AUGUR_API int MPI_Comm_free(MPI_Comm *c) {
  TIMED(AUGP_MPI_OTHER, PMPI_Comm_free(c));
}
