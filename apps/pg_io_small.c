/* pg_io_small — many small independent MPI-IO requests (issue 28,
 * io_small_requests): each iteration every rank computes BASE, then writes
 * its K KiB of output to its own part of one shared file as K KiB / S
 * requests of S bytes each with MPI_File_write_at (a row at a time, as NPB
 * BT-IO's "simple" subtype does), and everybody meets at MPI_Barrier.
 *
 * usage: pg_io_small [-n ITER] [-s BYTES] [-k KIB] [-b US] [--off]
 * --off: the same K KiB in one MPI_File_write_at per iteration (aggregated).
 * The file, $TMPDIR/pg_io_small-<pid>.dat (TMPDIR default /tmp), is deleted
 * at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_io_small.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 10, req = 512, kib = 1024, base_us = 2000, off = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"size", 's', PG_INT, 1, 1 << 30, &req, NULL},
                         {"kib", 'k', PG_INT, 1, 1 << 20, &kib, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 5, rank == 0) != 0 || kib * 1024 < req) {
    if (rank == 0)
      fprintf(stderr, "usage: pg_io_small [-n ITER] [-s BYTES] [-k KIB] [-b US] [--off]"
                      " (S <= K KiB)\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 0)
    pg_expected(off ? "none" : "io_small_requests", 0.0, off ? 1 : 0, off ? 0 : size - 1, 1,
                "site=pg_io_small.write");
  const long block = kib * 1024, nreq = block / req;
  char *buf = malloc((size_t)block);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(buf, 'a' + rank % 26, (size_t)block);
  char name[512];
  if (rank == 0) pg_tmpname(name, sizeof name, "pg_io_small", ".dat");
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);

  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US);
    /* the same region every iteration: the file stays the size of one output */
    MPI_Offset at = (MPI_Offset)rank * block;
    if (off) {
      /* @augur:pg_io_small.write_once */
      MPI_File_write_at(fh, at, buf, (int)block, MPI_BYTE, MPI_STATUS_IGNORE);
    } else {
      for (long i = 0; i < nreq; i++)
        /* @augur:pg_io_small.write */
        MPI_File_write_at(fh, at + i * req, buf + i * req, (int)req, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    /* @augur:pg_io_small.barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_File_close(&fh);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
  free(buf);
  /* @augur:pg_io_small.finalize */
  MPI_Finalize();
  return 0;
}
