/* dx_io_reqsize — MPI-IO write bandwidth against request size on this
 * machine: the measurement behind io_small_requests' threshold
 * (docs/diagnose.md, "io_small_requests"). Each rank writes T MiB to its own
 * part of one file with independent MPI_File_write_at calls of S bytes, for S
 * from 64 B to 16 MiB (doubling), R times each; rank 0 prints per size the
 * median over the repetitions of the slowest rank's time, the time per
 * request and the bandwidth per rank (what one rank sees in its write
 * calls: the file lands in the page cache, no sync, as in a program's own
 * write calls). A request of S bytes costs o + S/B: o, the per-request cost,
 * is the median time per request of the sizes up to 1 KiB (where moving the
 * data costs nothing in comparison), B the median bandwidth of the sizes from
 * 1 MiB; the half-plateau size, where a request's time is half overhead and
 * the bandwidth half of B, is o·B. (The first size reaching half of the
 * largest bandwidth is printed too: it follows the noisiest measurement.)
 *
 * usage: dx_io_reqsize [-t MIB] [-r REPS]
 * The file, $TMPDIR/dx_io_reqsize-<pid>.dat (TMPDIR default /tmp), is
 * deleted at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_common.h"

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long mib = 64, reps = 5;
  const pg_opt opts[] = {{"total", 't', PG_INT, 1, 4096, &mib, NULL},
                         {"reps", 'r', PG_INT, 1, 100, &reps, NULL}};
  if (pg_parse(argc, argv, opts, 2, rank == 0) != 0) {
    if (rank == 0) fprintf(stderr, "usage: dx_io_reqsize [-t MIB] [-r REPS]\n");
    MPI_Finalize();
    return 2;
  }
  const long total = mib << 20;
  char *buf = malloc((size_t)total);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(buf, rank + 1, (size_t)total);
  char name[512];
  const char *dir = getenv("TMPDIR");
  if (rank == 0)
    snprintf(name, sizeof name, "%s/dx_io_reqsize-%ld.dat", dir && *dir ? dir : "/tmp",
             (long)getpid());
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  double *t = malloc((size_t)reps * sizeof *t);
  if (!t) MPI_Abort(MPI_COMM_WORLD, 2);
  double best = 0, *bw = calloc(32, sizeof *bw);
  long sizes[32];
  int ns = 0;
  if (rank == 0) printf("%10s %10s %12s %12s\n", "bytes", "requests", "us/request", "MB/s/rank");
  for (long s = 64; s <= (16L << 20) && s <= total; s *= 2, ns++) {
    long n = total / s;
    for (long k = 0; k < reps; k++) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (long i = 0; i < n; i++)
        MPI_File_write_at(fh, (MPI_Offset)rank * total + (MPI_Offset)i * s, buf + i * s, (int)s,
                          MPI_BYTE, MPI_STATUS_IGNORE);
      double mine = MPI_Wtime() - t0;
      MPI_Allreduce(&mine, &t[k], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    qsort(t, (size_t)reps, sizeof *t, by_value);
    double med = t[reps / 2];
    sizes[ns] = s;
    bw[ns] = (double)(n * s) / med / 1e6;
    if (bw[ns] > best) best = bw[ns];
    if (rank == 0) printf("%10ld %10ld %12.3f %12.1f\n", s, n, med / (double)n * 1e6, bw[ns]);
  }
  if (rank == 0) {
    double small[32], large[32];
    int nsmall = 0, nlarge = 0;
    for (int i = 0; i < ns; i++) {
      if (sizes[i] <= 1024) small[nsmall++] = (double)sizes[i] / (bw[i] * 1e6); /* s/request */
      if (sizes[i] >= (1L << 20)) large[nlarge++] = bw[i];
    }
    if (nsmall && nlarge) {
      qsort(small, (size_t)nsmall, sizeof *small, by_value);
      qsort(large, (size_t)nlarge, sizeof *large, by_value);
      double o = small[nsmall / 2], B = large[nlarge / 2] * 1e6;
      printf("per-request cost %.2f us, plateau %.0f MB/s per rank: half-plateau size o*B = %.0f "
             "bytes\n",
             o * 1e6, B / 1e6, o * B);
    }
    for (int i = 0; i < ns; i++)
      if (bw[i] >= best / 2) {
        printf("half-plateau: %ld bytes (%.1f of %.1f MB/s per rank, %d ranks)\n", sizes[i], bw[i],
               best, size);
        break;
      }
  }
  MPI_File_close(&fh);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
  free(t);
  free(bw);
  free(buf);
  MPI_Finalize();
  return 0;
}
