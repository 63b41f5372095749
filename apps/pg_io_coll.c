/* pg_io_coll — time inside collective MPI-IO (issue 28, io_collective): each
 * iteration every rank computes BASE, then all write their K KiB of output to
 * one shared file with one collective MPI_File_write_at_all, through a file
 * view that interleaves the ranks' data in pieces of S bytes (rank r owns
 * pieces r, r + N, r + 2N, ...: a cyclic distribution, as NPB BT-IO's cells
 * are). Collective buffering (two-phase I/O) then exchanges every piece
 * between the ranks and its aggregator before writing: the call costs far more
 * than moving the bytes. With -r R -l US, rank R computes US more before the
 * write, and the others wait for it inside the collective call; with -r R -c US,
 * rank R computes US more before MPI_File_close (collective: the others wait
 * there). --split writes with the split collective MPI_File_write_at_all_begin
 * and _end instead (ROMIO does the access, and the wait, in _begin).
 *
 * usage: pg_io_coll [-n ITER] [-k KIB] [-s BYTES] [-b US] [-r RANK] [-l US] [-c US]
 *                   [--split] [--off]
 * --off: the same K KiB per rank and the same calls, each rank's part of the
 * file one contiguous block at an explicit offset in the default view (nothing
 * to exchange: ROMIO writes each part directly). The file, $TMPDIR/pg_io_coll-<pid>.dat (TMPDIR
 * default /tmp), is deleted at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_common.h"

int main(int argc, char **argv) {
  /* @augur:pg_io_coll.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long iter = 6, kib = 512, piece = 64, base_us = 20000, who = 0, late_us = 0, off = 0;
  long close_us = 0, split = 0;
  const pg_opt opts[] = {{"iter", 'n', PG_INT, 1, 1000000, &iter, NULL},
                         {"kib", 'k', PG_INT, 1, 1 << 20, &kib, NULL},
                         {"size", 's', PG_INT, 1, 1 << 30, &piece, NULL},
                         {"base", 'b', PG_INT, 0, 100000000, &base_us, NULL},
                         {"rank", 'r', PG_INT, 0, 1 << 20, &who, NULL},
                         {"late", 'l', PG_INT, 0, 100000000, &late_us, NULL},
                         {"close", 'c', PG_INT, 0, 100000000, &close_us, NULL},
                         {"split", 0, PG_FLAG, 0, 1, &split, NULL},
                         {"off", 0, PG_FLAG, 0, 1, &off, NULL}};
  if (pg_parse(argc, argv, opts, 9, rank == 0) != 0 || size < 2 || who >= size ||
      (kib * 1024) % piece != 0) {
    if (rank == 0)
      fprintf(
          stderr,
          "usage: pg_io_coll [-n ITER] [-k KIB] [-s BYTES] [-b US] [-r RANK] "
          "[-l US] [-c US] [--split] [--off] (2 ranks or more, RANK < ranks, BYTES dividing KIB "
          "KiB)\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) {
    char extra[96];
    snprintf(extra, sizeof extra, "site=pg_io_coll.write late=%ld", late_us ? who : -1);
    /* a late rank makes the others wait in the call (load_imbalance, ranks all but R);
     * else the interleaved write's own time (io_collective, every rank) */
    if (late_us)
      printf("expected: pattern=load_imbalance (and io_collective unless --off) %s\n", extra);
    else
      pg_expected(off ? "none" : "io_collective", 0.0, off ? 1 : 0, off ? 0 : size - 1, 1, extra);
  }
  const MPI_Offset part = (MPI_Offset)kib * 1024;
  char *buf = malloc((size_t)part);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(buf, 'a' + rank % 26, (size_t)part);
  char name[512];
  if (rank == 0) pg_tmpname(name, sizeof name, "pg_io_coll", ".dat");
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  /* One iteration's output is N parts of K KiB. ON: the view's tile covers it, so the
   * offset of iteration i in the view is i * K KiB; --off: the default view (bytes),
   * this rank's part at i * N * K KiB + rank * K KiB. */
  MPI_Datatype tile = MPI_DATATYPE_NULL, filetype = MPI_DATATYPE_NULL;
  if (!off) { /* cyclic: pieces of S bytes, every N-th one this rank's */
    MPI_Type_vector((int)(part / piece), (int)piece, (int)(piece * size), MPI_BYTE, &tile);
    MPI_Type_create_resized(tile, 0, part * size, &filetype);
    MPI_Type_commit(&filetype);
    /* @augur:pg_io_coll.view */
    MPI_File_set_view(fh, rank * piece, MPI_BYTE, filetype, "native", MPI_INFO_NULL);
  }

  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    pg_spin((base_us + (rank == who ? late_us : 0)) * PG_US);
    MPI_Offset at = off ? (it * size + rank) * part : it * part;
    if (split) {
      /* @augur:pg_io_coll.begin */
      MPI_File_write_at_all_begin(fh, at, buf, (int)part, MPI_BYTE);
      MPI_File_write_at_all_end(fh, buf, MPI_STATUS_IGNORE);
    } else {
      /* @augur:pg_io_coll.write */
      MPI_File_write_at_all(fh, at, buf, (int)part, MPI_BYTE, MPI_STATUS_IGNORE);
    }
  }
  if (rank == who) pg_spin(close_us * PG_US);
  /* @augur:pg_io_coll.close */
  MPI_File_close(&fh);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
  if (!off) {
    MPI_Type_free(&filetype);
    MPI_Type_free(&tile);
  }
  free(buf);
  /* @augur:pg_io_coll.finalize */
  MPI_Finalize();
  return 0;
}
