/* pg_io_imbal — unequal file I/O (issue 28, io_imbalance): each iteration
 * every rank computes BASE and writes its blocks of S KiB to its own file
 * (opened on MPI_COMM_SELF, as NPB BT-IO's epio subtype does), each block
 * with one MPI_File_write_at (large requests) and written through to the disk
 * with MPI_File_sync (on this machine a write lands in the page cache at GB/s
 * and a sync costs tens of ms whatever its size, so a sync per block makes the
 * I/O time follow the amount, as on a machine whose cache the data outgrows),
 * rank R writing F blocks and the others one each; then everybody meets at
 * MPI_Barrier, where the others wait for rank R's extra I/O.
 *
 * usage: pg_io_imbal [-n ITER] [-s KIB] [-f BLOCKS] [-r RANK] [-b US] [-x KIB] [--nosync]
 *        [--off]
 * --off: the same F + N - 1 blocks spread evenly (each rank (F + N - 1) / N
 * blocks, rounded up, so nobody writes less than before). -x: rank R also
 * writes a header of KIB KiB after its blocks (a little more than the others
 * with -f 1). --nosync: no MPI_File_sync, the writes land in the page cache
 * (with TMPDIR on a tmpfs: CPU-bound copies, so a rank that shares its CPU
 * takes longer in them; tests/diagnose/iocpu.sh). The files,
 * $TMPDIR/pg_io_imbal-<pid>.<rank> (TMPDIR default /tmp), are deleted at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_io_imbal.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 8, kib = 1024, heavy = 6, who = 0, base_us = 2000, off = 0, header_kib = 0,
       nosync = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"size", 's', PG_INT, 1, 1 << 20, &kib, NULL},
                         {"blocks", 'f', PG_INT, 1, 1000, &heavy, NULL},
                         {"rank", 'r', PG_INT, 0, 1 << 20, &who, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"header", 'x', PG_INT, 0, 1 << 20, &header_kib, NULL},
                         {"nosync", 0, PG_FLAG, 0, 1, &nosync, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 8, rank == 0) != 0 || size < 2 || who >= size) {
    if (rank == 0)
      fprintf(stderr, "usage: pg_io_imbal [-n ITER] [-s KIB] [-f BLOCKS] [-r RANK] [-b US] "
                      "[-x KIB] [--nosync] [--off] (2 ranks or more, RANK < ranks)\n");
    MPI_Finalize();
    return 2;
  }
  char extra[64];
  snprintf(extra, sizeof extra, "site=pg_io_imbal.barrier late=%ld", who);
  if (rank == 0) pg_expected(off ? "none" : "io_imbalance", 0.0, 0, off ? -1 : size - 1, 1, extra);
  const long even = (heavy + size - 1 + size - 1) / size;
  const long mine = off ? even : rank == who ? heavy : 1;
  const MPI_Offset block = (MPI_Offset)kib * 1024;
  const MPI_Offset header = rank == who ? (MPI_Offset)header_kib * 1024 : 0;
  const size_t cap = (size_t)(block > header ? block : header);
  char *buf = malloc(cap);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(buf, 'a' + rank % 26, cap);
  char name[512];
  if (rank == 0) pg_tmpname(name, sizeof name, "pg_io_imbal", "");
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  char mine_name[600];
  snprintf(mine_name, sizeof mine_name, "%s.%d", name, rank);
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, mine_name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);

  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    pg_spin(base_us * PG_US);
    for (long b = 0; b < mine; b++) {
      /* @augur:pg_io_imbal.write */
      MPI_File_write_at(fh, (MPI_Offset)b * block, buf, (int)block, MPI_BYTE, MPI_STATUS_IGNORE);
      if (!nosync) MPI_File_sync(fh);
    }
    if (header) {
      /* @augur:pg_io_imbal.header */
      MPI_File_write_at(fh, (MPI_Offset)mine * block, buf, (int)header, MPI_BYTE,
                        MPI_STATUS_IGNORE);
      if (!nosync) MPI_File_sync(fh);
    }
    /* @augur:pg_io_imbal.barrier */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_File_close(&fh);
  MPI_File_delete(mine_name, MPI_INFO_NULL);
  free(buf);
  /* @augur:pg_io_imbal.finalize */
  MPI_Finalize();
  return 0;
}
