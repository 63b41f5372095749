/* A run that is killed in the middle (tests/record/killed.sh): a ring of
 * MPI_Sendrecv with ~0.5 ms of work per step, for at most 60 s. After 200
 * steps each rank writes its pid to $AUGUR_TEST_PIDDIR/pid.RANK, so the test
 * knows whom to signal and that records are buffered. Without a kill it
 * ends normally. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../../apps/common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *dir = getenv("AUGUR_TEST_PIDDIR");
  double t0 = app_now(), out[64] = {0}, in[64];
  for (long step = 0; app_now() - t0 < 60; step++) {
    app_spin(0.0005);
    MPI_Sendrecv(out, 64, MPI_DOUBLE, (rank + 1) % size, 1, in, 64, MPI_DOUBLE,
                 (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (step == 200 && dir) {
      char path[4000], tmp[4100];
      snprintf(path, sizeof path, "%s/pid.%d", dir, rank);
      snprintf(tmp, sizeof tmp, "%s.tmp", path);
      FILE *f = fopen(tmp, "w");
      if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
        rename(tmp, path);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
