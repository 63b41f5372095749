/* pred_short_phases — many short phases whose calls look alike on some
 * ranks, with a collective (MPI_Barrier) closing each: the program on which
 * `augur predict` once deadlocked (issue 21, item 1).
 *
 *   for it in 0 .. ITER-1:
 *     for b in 0 .. BLOCKS-1:            (a short block: WORK us of compute)
 *       even rank r: MPI_Send to r+1     (one call site and tag per block)
 *       odd rank r:  MPI_Recv from r-1   (one call site for every block)
 *       MPI_Barrier on MPI_COMM_WORLD    (one call site, in sync())
 *
 * The even ranks' blocks differ (their sends have their own call sites; the
 * empty asm statements keep the compiler from merging the four calls), the
 * odd ranks' do not: an odd rank's part of a phase is [Recv, Barrier]
 * repeated, so a matcher that counts the phase on each rank's own calls
 * finds it BLOCKS times as often on the odd ranks (the repetitions overlap)
 * as on the even ones. Ranks that decide on their own counts when to take a
 * collective vote then disagree: one waits in the vote, the other in the
 * barrier. Needs an even number of ranks (2 is the case the issue met).
 *
 * -s SECONDS: rank 0 computes that long, without MPI calls, in iteration 5
 * (while the others wait for it): a run that makes no progress, for the
 * watchdog of `augur predict`.
 *
 * Usage: pred_short_phases [-n ITER] [-b BLOCKS] [-w WORK_US] [-s SECONDS]
 * (defaults 2000, 4, 50, 0; BLOCKS 1..4). Rank 0 prints one line at the end. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "common.h"

static double sink;

/* Not inlined: every barrier has this one call site. */
__attribute__((noinline)) static void sync_all(void) {
  /* @augur:pred_short_phases.barrier */
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  /* @augur:pred_short_phases.init */
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iter = 2000, blocks = 4, us = 50, stall = 0;
  const app_opt opts[] = {{'n', "ITER", 1, 100000000, &iter},
                          {'b', "BLOCKS", 1, 4, &blocks},
                          {'w', "WORK_US", 0, 1000000, &us},
                          {'s', "SECONDS", 0, 100000, &stall}};
  if (app_parse(argc, argv, opts, 4, rank == 0) != 0 || size % 2) {
    if (rank == 0 && size % 2) fprintf(stderr, "%s: needs an even number of ranks\n", argv[0]);
    if (rank == 0)
      fprintf(stderr, "usage: %s [-n ITER] [-b BLOCKS] [-w WORK_US] [-s SECONDS]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  double msg[16] = {0};
  int even = rank % 2 == 0, peer = even ? rank + 1 : rank - 1;
  for (long it = 0; it < iter; it++) {
    if (stall && rank == 0 && it == 5) sleep((unsigned)stall);
    for (long b = 0; b < blocks; b++) {
      sink += app_spin_us(us);
      msg[0] = (double)(it * blocks + b);
      if (!even) {
        /* @augur:pred_short_phases.recv */
        MPI_Recv(msg, 16, MPI_DOUBLE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (b == 0) {
        __asm__ volatile("# block 0" ::: "memory");
        /* @augur:pred_short_phases.send0 */
        MPI_Send(msg, 16, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
        __asm__ volatile("# block 0 sent" ::: "memory");
      } else if (b == 1) {
        __asm__ volatile("# block 1" ::: "memory");
        /* @augur:pred_short_phases.send1 */
        MPI_Send(msg, 16, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
        __asm__ volatile("# block 1 sent" ::: "memory");
      } else if (b == 2) {
        __asm__ volatile("# block 2" ::: "memory");
        /* @augur:pred_short_phases.send2 */
        MPI_Send(msg, 16, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD);
        __asm__ volatile("# block 2 sent" ::: "memory");
      } else {
        __asm__ volatile("# block 3" ::: "memory");
        /* @augur:pred_short_phases.send3 */
        MPI_Send(msg, 16, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD);
        __asm__ volatile("# block 3 sent" ::: "memory");
      }
      sync_all();
    }
  }
  if (rank == 0) printf("pred_short_phases: %ld iterations of %ld blocks done\n", iter, blocks);
  /* @augur:pred_short_phases.finalize */
  MPI_Finalize();
  return 0;
}
