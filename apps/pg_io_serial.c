/* pg_io_serial — every rank's output written by one rank (issue 28,
 * io_serialised): each iteration every rank computes BASE, then rank 0 writes
 * the N blocks of S KiB of the program's state to its own file (opened on
 * MPI_COMM_SELF) with MPI_File_write_at, one after another, and syncs it (a
 * checkpoint), and everybody meets at MPI_Barrier, where the other ranks wait
 * for rank 0's I/O. (A program that first gathers the blocks on rank 0 also
 * shows the gather's own cost; it is left out so that the I/O is the one
 * cause here.) With --shared the ranks write their own blocks to a shared
 * file through the shared file pointer in rank order (MPI_File_write_ordered),
 * which serialises them the same way.
 *
 * usage: pg_io_serial [-n ITER] [-s KIB] [-b US] [--shared] [--off]
 * --off: every rank writes its own block with collective I/O
 * (MPI_File_write_at_all) and the file is synced collectively: nothing goes
 * through one rank. The file, /tmp/pg_io_serial-<pid>.dat, is deleted at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_io_serial.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 10, kib = 4096, base_us = 2000, off = 0, shared = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"size", 's', PG_INT, 1, 1 << 20, &kib, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"shared", 0, PG_FLAG, 0, 1, &shared, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || size < 2) {
    if (rank == 0) {
      if (size < 2) fprintf(stderr, "pg_io_serial: needs at least 2 ranks\n");
      fprintf(stderr, "usage: pg_io_serial [-n ITER] [-s KIB] [-b US] [--shared] [--off]\n");
    }
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    pg_expected(off ? "none" : "io_serialised", 0.0, shared ? 0 : 1,
                off      ? -1
                : shared ? size - 2
                         : size - 1,
                1, shared ? "site=pg_io_serial.barrier (ordered)" : "site=pg_io_serial.barrier");
  int n = (int)(kib * 1024 / (long)sizeof(double));
  double *block = malloc((size_t)n * sizeof *block);
  if (!block) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < n; i++)
    block[i] = rank + i * 1e-6;
  char name[256];
  if (rank == 0) snprintf(name, sizeof name, "/tmp/pg_io_serial-%ld.dat", (long)getpid());
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh = MPI_FILE_NULL;
  int funnel = !off && !shared;
  if (!funnel || rank == 0)
    MPI_File_open(funnel ? MPI_COMM_SELF : MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                  MPI_INFO_NULL, &fh);
  MPI_Offset blk = (MPI_Offset)n * (MPI_Offset)sizeof(double);

  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US);
    MPI_Offset at = (MPI_Offset)it * size * blk;
    if (off) { /* collective I/O: every rank writes its own block */
      /* @augur:pg_io_serial.write_all */
      MPI_File_write_at_all(fh, at + rank * blk, block, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
    } else if (shared) { /* the shared pointer, in rank order */
      /* @augur:pg_io_serial.ordered */
      MPI_File_write_ordered(fh, block, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
    } else if (rank == 0) { /* funnelled: rank 0 writes everybody's block */
      for (int r = 0; r < size; r++)
        /* @augur:pg_io_serial.write */
        MPI_File_write_at(fh, at + r * blk, block, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    /* the checkpoint's sync: rank 0's own file, or collective with --off. With
     * --shared none: a collective sync would meet the ranks inside it, where
     * the ordered write's serialisation is waited for in MPI-IO calls, not at
     * the barrier that io_serialised reads (docs/diagnose.md, its limits). */
    if (fh != MPI_FILE_NULL && !shared) MPI_File_sync(fh);
    /* @augur:pg_io_serial.barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (fh != MPI_FILE_NULL) MPI_File_close(&fh);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
  free(block);
  /* @augur:pg_io_serial.finalize */
  MPI_Finalize();
  return 0;
}
