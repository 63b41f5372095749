/* sim_rma — one-sided epochs for `augur simulate` (issue 28; tests/simulate/
 * iorma.sh). Each of ITER iterations:
 *   PSCW with a late post: rank 0 (the target) computes LATE us in
 *   late_work() before MPI_Win_post to every other rank, then MPI_Win_wait;
 *   the others compute COMP us, MPI_Win_start on rank 0, MPI_Put BYTES to
 *   it, MPI_Win_complete: they wait for the post.
 *   A fence loop: every rank computes COMP x (rank + 1) us, puts BYTES to
 *   the next rank, MPI_Win_fence: all wait for the slowest.
 * usage: sim_rma [-n ITER] [-l LATE_US] [-c COMP_US] [-s BYTES] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void spin(double us) { /* busy: the time is compute, whatever the load */
  double end = MPI_Wtime() + us * 1e-6;
  while (MPI_Wtime() < end) {
  }
}

/* A function of its own: `augur simulate --scale late_work=x2` names it. */
__attribute__((noinline)) static void late_work(double us) {
  spin(us);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 20, late = 2000, comp = 500, bytes = 65536;
  for (int i = 1; i + 1 < argc; i += 2) {
    long v = atol(argv[i + 1]);
    if (!strcmp(argv[i], "-n")) iter = v;
    if (!strcmp(argv[i], "-l")) late = v;
    if (!strcmp(argv[i], "-c")) comp = v;
    if (!strcmp(argv[i], "-s")) bytes = v;
  }
  if (size < 2 || iter < 1 || bytes < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: sim_rma [-n ITER] [-l US] [-c US] [-s BYTES], 2+ ranks\n");
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)bytes, 1), *mem;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  MPI_Group world, target, origins;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int zero = 0;
  MPI_Group_incl(world, 1, &zero, &target);
  MPI_Group_excl(world, 1, &zero, &origins);
  MPI_Barrier(MPI_COMM_WORLD);
  for (long it = 0; it < iter; it++) {
    if (rank == 0) {
      late_work((double)late);
      MPI_Win_post(origins, 0, win);
      MPI_Win_wait(win);
    } else {
      spin((double)comp);
      MPI_Win_start(target, 0, win);
      MPI_Put(buf, (int)bytes, MPI_BYTE, 0, 0, (int)bytes, MPI_BYTE, win);
      MPI_Win_complete(win);
    }
  }
  MPI_Win_fence(0, win);
  for (long it = 0; it < iter; it++) {
    spin((double)comp * (rank + 1));
    MPI_Put(buf, (int)bytes, MPI_BYTE, (rank + 1) % size, 0, (int)bytes, MPI_BYTE, win);
    MPI_Win_fence(0, win);
  }
  MPI_Group_free(&target);
  MPI_Group_free(&origins);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(buf);
  MPI_Finalize();
  return 0;
}
