/* The MPI-IO and one-sided part of augur-calibrate-<flavour> (calibrate_mpi.c
 * calls it; docs/simulate.md "I/O and one-sided operations"). Rank 0 prints:
 *   io_write T4K T1M T4M     median MPI_File_write_at of 4 KiB, 1 and 4 MiB by rank 0
 *   io_read T4K T1M T4M      ... MPI_File_read_at of what it wrote (page cache)
 *   io_coll T1M T4M          median MPI_File_write_at_all, every rank 1 and 4 MiB
 *   io_sync T BYTES          MPI_File_sync after every rank wrote BYTES in new blocks
 *   rma_put T8 T1M T4M       median lock / MPI_Put / unlock epoch, rank 0 -> 1
 *   rma_get T8 T1M T4M       ... with MPI_Get
 *   rma_fence T8             median fence / Put of 8 bytes / fence, every rank
 * The file is a temporary one in $TMPDIR (or the working directory), deleted
 * on close. A call that fails (no MPI-IO, no one-sided component) leaves its
 * lines out: the model keeps its values. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void calib_iorma(int rank, int size, char *buf);

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_d);
  return t[n / 2];
}

#define REPS 7

/* Median of REPS independent writes (WRITE) or reads of BYTES by rank 0;
 * the other ranks wait at the barrier. Writes go to new blocks from *OFF on
 * (a file that grows, as checkpoints and output do: the page cache takes
 * new pages, not the same ones again); reads read them back from *OFF. */
static double indep(MPI_File fh, int rank, char *buf, int bytes, MPI_Offset *off, int write) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0) {
      if (write)
        MPI_File_write_at(fh, *off, buf, bytes, MPI_BYTE, MPI_STATUS_IGNORE);
      else
        MPI_File_read_at(fh, *off, buf, bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    t[r] = MPI_Wtime() - t0;
    *off += bytes;
  }
  return median(t, REPS);
}

/* Median of REPS collective writes of BYTES per rank (all ranks' blocks,
 * new ones from *OFF on). */
static double coll(MPI_File fh, int rank, int size, char *buf, int bytes, MPI_Offset *off) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_write_at_all(fh, *off + (MPI_Offset)rank * bytes, buf, bytes, MPI_BYTE,
                          MPI_STATUS_IGNORE);
    t[r] = MPI_Wtime() - t0;
    *off += (MPI_Offset)size * bytes;
  }
  return median(t, REPS);
}

static void calib_io(int rank, int size, char *buf) {
  char name[512];
  if (rank == 0) {
    const char *dir = getenv("TMPDIR");
    snprintf(name, sizeof name, "%s/augur-calibrate-%ld.tmp", dir && *dir ? dir : ".",
             (long)getpid());
  }
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  int rc =
      MPI_File_open(MPI_COMM_WORLD, name,
                    MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) return;
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  const int k4 = 4096, m1 = 1 << 20, m4 = 4 << 20;
  MPI_Offset at = 0, w0;
  indep(fh, rank, buf, k4, &at, 1); /* warm-up: the file's first blocks */
  w0 = at;
  double w4k = indep(fh, rank, buf, k4, &at, 1);
  MPI_Offset w1 = at;
  double w1m = indep(fh, rank, buf, m1, &at, 1);
  MPI_Offset w4 = at;
  double w4m = indep(fh, rank, buf, m4, &at, 1);
  double r4k = indep(fh, rank, buf, k4, &w0, 0), r1m = indep(fh, rank, buf, m1, &w1, 0),
         r4m = indep(fh, rank, buf, m4, &w4, 0);
  double c1m = coll(fh, rank, size, buf, m1, &at), c4m = coll(fh, rank, size, buf, m4, &at);
  /* Sync: after every rank wrote new blocks, so the bytes are dirty. */
  double ts[3];
  for (int r = 0; r < 3; r++) {
    MPI_File_write_at_all(fh, at + (MPI_Offset)rank * m4, buf, m4, MPI_BYTE, MPI_STATUS_IGNORE);
    at += (MPI_Offset)size * m4;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_sync(fh);
    ts[r] = MPI_Wtime() - t0;
  }
  double sync = median(ts, 3);
  MPI_File_close(&fh);
  if (rank == 0)
    printf(
        "io_write %.9g %.9g %.9g\nio_read %.9g %.9g %.9g\nio_coll %.9g %.9g\nio_sync %.9g %.0f\n",
        w4k, w1m, w4m, r4k, r1m, r4m, c1m, c4m, sync, (double)size * m4);
}

/* Median of REPS passive-target epochs of rank 0 on rank 1 moving BYTES. */
static double epoch(MPI_Win w, int rank, char *buf, int bytes, int put) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
      if (put)
        MPI_Put(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, w);
      else
        MPI_Get(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, w);
      MPI_Win_unlock(1, w);
    }
    t[r] = MPI_Wtime() - t0;
  }
  return median(t, REPS);
}

static void calib_rma(int rank, int size, char *buf) {
  const int m1 = 1 << 20, m4 = 4 << 20;
  void *mem;
  MPI_Win w;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rc = MPI_Win_allocate(m4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int ok = rc == MPI_SUCCESS, all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (!all) {
    if (ok) MPI_Win_free(&w);
    return;
  }
  epoch(w, rank, buf, m1, 1); /* warm-up */
  double p8 = epoch(w, rank, buf, 8, 1), p1m = epoch(w, rank, buf, m1, 1),
         p4m = epoch(w, rank, buf, m4, 1);
  double g8 = epoch(w, rank, buf, 8, 0), g1m = epoch(w, rank, buf, m1, 0),
         g4m = epoch(w, rank, buf, m4, 0);
  double t[REPS];
  MPI_Win_fence(0, w);
  for (int r = 0; r < REPS; r++) {
    double t0 = MPI_Wtime();
    MPI_Put(buf, 8, MPI_BYTE, (rank + 1) % size, 0, 8, MPI_BYTE, w);
    MPI_Win_fence(0, w);
    t[r] = MPI_Wtime() - t0;
  }
  double f8 = median(t, REPS);
  MPI_Win_free(&w);
  if (rank == 0)
    printf("rma_put %.9g %.9g %.9g\nrma_get %.9g %.9g %.9g\nrma_fence %.9g\n", p8, p1m, p4m, g8,
           g1m, g4m, f8);
}

void calib_iorma(int rank, int size, char *buf) {
  calib_io(rank, size, buf);
  calib_rma(rank, size, buf);
}
