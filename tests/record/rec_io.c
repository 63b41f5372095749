/* Recorder test program ("io" scenario): every MPI-IO call family on one
 * shared file, then a second open of it on MPI_COMM_SELF. Region g of the
 * file (R regions of n blocks of K ints) is written by one call kind, rank r
 * writing block r (shared-pointer regions: in any order but the _ordered
 * ones), and read back by the matching read kind; every value read is
 * checked (a mismatch aborts). check_io.c knows every call here and each
 * record's offset and byte count, so the order below is part of the test. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define K 16 /* ints per block */
#define R 14 /* regions written */

static int rank, nranks;
static int buf[K];

static void fill(int g) {
  for (int i = 0; i < K; i++)
    buf[i] = g * 100000 + rank * 1000 + i;
}

/* A block of region g read by this rank: from rank `from` (-1: any rank, and
 * region g or g + 1: shared-pointer reads of the ranks interleave). */
static void verify(int g, int from) {
  for (int i = 0; i < K; i++) {
    int got_g = buf[i] / 100000, who = buf[i] % 100000 / 1000, idx = buf[i] % 1000;
    int region_ok = got_g == g || (from < 0 && got_g == g + 1);
    if (!region_ok || idx != i || (from >= 0 && who != from)) {
      fprintf(stderr, "rank %d: region %d element %d holds %d\n", rank, g, i, buf[i]);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  memset(buf, 0xff, sizeof buf);
}

static MPI_Offset at(int g) { /* this rank's block of region g, in ints */
  return ((MPI_Offset)g * nranks + rank) * K;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  char name[256];
  if (rank == 0) snprintf(name, sizeof name, "/tmp/augur-rec-io-%ld.dat", (long)getpid());
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  MPI_Request q;
  MPI_Status st;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_size(fh, 0);
  MPI_File_preallocate(fh, (MPI_Offset)R * nranks * K * sizeof(int));
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);

  /* writes: region g by call kind g */
  fill(0), MPI_File_write_at(fh, at(0), buf, K, MPI_INT, &st);
  fill(1), MPI_File_write_at_all(fh, at(1), buf, K, MPI_INT, MPI_STATUS_IGNORE);
  fill(2), MPI_File_seek(fh, at(2), MPI_SEEK_SET), MPI_File_write(fh, buf, K, MPI_INT, &st);
  fill(3), MPI_File_seek(fh, at(3), MPI_SEEK_SET), MPI_File_write_all(fh, buf, K, MPI_INT, &st);
  fill(4), MPI_File_iwrite_at(fh, at(4), buf, K, MPI_INT, &q), MPI_Wait(&q, &st);
  fill(5), MPI_File_seek(fh, at(5), MPI_SEEK_SET), MPI_File_iwrite(fh, buf, K, MPI_INT, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  fill(6), MPI_File_iwrite_at_all(fh, at(6), buf, K, MPI_INT, &q), MPI_Wait(&q, &st);
  fill(7), MPI_File_seek(fh, at(7), MPI_SEEK_SET), MPI_File_iwrite_all(fh, buf, K, MPI_INT, &q);
  MPI_Wait(&q, &st);
  fill(8), MPI_File_write_at_all_begin(fh, at(8), buf, K, MPI_INT);
  MPI_File_write_at_all_end(fh, buf, &st);
  fill(9), MPI_File_seek(fh, at(9), MPI_SEEK_SET), MPI_File_write_all_begin(fh, buf, K, MPI_INT);
  MPI_File_write_all_end(fh, buf, MPI_STATUS_IGNORE);
  MPI_File_seek_shared(fh, (MPI_Offset)10 * nranks * K, MPI_SEEK_SET);
  fill(10), MPI_File_write_ordered(fh, buf, K, MPI_INT, &st);
  fill(11), MPI_File_write_ordered_begin(fh, buf, K, MPI_INT);
  MPI_File_write_ordered_end(fh, buf, &st);
  fill(12), MPI_File_write_shared(fh, buf, K, MPI_INT, &st);
  fill(13), MPI_File_iwrite_shared(fh, buf, K, MPI_INT, &q), MPI_Wait(&q, &st);
  MPI_File_sync(fh);

  /* reads, in the same order */
  MPI_File_read_at(fh, at(0), buf, K, MPI_INT, &st), verify(0, rank);
  MPI_File_read_at_all(fh, at(1), buf, K, MPI_INT, &st), verify(1, rank);
  MPI_File_seek(fh, at(2), MPI_SEEK_SET), MPI_File_read(fh, buf, K, MPI_INT, &st), verify(2, rank);
  MPI_File_seek(fh, at(3), MPI_SEEK_SET), MPI_File_read_all(fh, buf, K, MPI_INT, MPI_STATUS_IGNORE);
  verify(3, rank);
  MPI_File_iread_at(fh, at(4), buf, K, MPI_INT, &q), MPI_Wait(&q, MPI_STATUS_IGNORE);
  verify(4, rank);
  MPI_File_seek(fh, at(5), MPI_SEEK_SET), MPI_File_iread(fh, buf, K, MPI_INT, &q);
  MPI_Wait(&q, &st), verify(5, rank);
  MPI_File_iread_at_all(fh, at(6), buf, K, MPI_INT, &q), MPI_Wait(&q, &st), verify(6, rank);
  MPI_File_seek(fh, at(7), MPI_SEEK_SET), MPI_File_iread_all(fh, buf, K, MPI_INT, &q);
  MPI_Wait(&q, &st), verify(7, rank);
  MPI_File_read_at_all_begin(fh, at(8), buf, K, MPI_INT);
  MPI_File_read_at_all_end(fh, buf, &st), verify(8, rank);
  MPI_File_seek(fh, at(9), MPI_SEEK_SET), MPI_File_read_all_begin(fh, buf, K, MPI_INT);
  MPI_File_read_all_end(fh, buf, &st), verify(9, rank);
  MPI_File_seek_shared(fh, (MPI_Offset)10 * nranks * K, MPI_SEEK_SET);
  MPI_File_read_ordered(fh, buf, K, MPI_INT, &st), verify(10, rank);
  MPI_File_read_ordered_begin(fh, buf, K, MPI_INT);
  MPI_File_read_ordered_end(fh, buf, &st), verify(11, rank);
  MPI_File_read_shared(fh, buf, K, MPI_INT, &st), verify(12, -1);
  MPI_File_iread_shared(fh, buf, K, MPI_INT, &q), MPI_Wait(&q, &st), verify(12, -1);
  /* past the end of the file: the status says 0 bytes were read */
  MPI_File_read_at(fh, at(R), buf, K, MPI_INT, &st);
  MPI_File_close(&fh);

  /* the same name on MPI_COMM_SELF: one file id, the default (byte) view */
  MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  MPI_File_read_at(fh, at(0) * (MPI_Offset)sizeof(int), buf, K, MPI_INT, &st), verify(0, rank);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
  MPI_Finalize();
  return 0;
}
