/* Parents with more sub-records than the thread buffer holds (issue 28 item 4,
 * third round; tests/record/groups.sh). The C wrappers fill their record in
 * the next slot of the thread's buffer; a Waitall whose completions do not
 * fit behind it flushes the buffer first (and grows it when the group is
 * larger than the buffer), so the parent must be kept aside, not read back
 * from a slot the flush reuses or the growth frees.
 *
 * Round i (0..ROUNDS-1): i % 5 Iprobes (so the parent lands at different
 * slots), then 30 + 20 i receives from self with tag i and as many sends,
 * completed by one Waitall of 2 (30 + 20 i) requests. */
#include <mpi.h>
#include <stdlib.h>

#define ROUNDS 12

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int flag;
  MPI_Status st;
  for (int i = 0; i < ROUNDS; i++) {
    for (int j = 0; j < i % 5; j++)
      MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_SELF, &flag, &st);
    int k = 30 + 20 * i;
    int *rb = malloc((size_t)k * sizeof *rb), *sb = malloc((size_t)k * sizeof *sb);
    MPI_Request *q = malloc(2 * (size_t)k * sizeof *q);
    MPI_Status *sts = malloc(2 * (size_t)k * sizeof *sts);
    if (!rb || !sb || !q || !sts) MPI_Abort(MPI_COMM_WORLD, 2);
    for (int j = 0; j < k; j++) {
      sb[j] = j;
      MPI_Irecv(&rb[j], 1, MPI_INT, 0, i, MPI_COMM_SELF, &q[j]);
    }
    for (int j = 0; j < k; j++)
      MPI_Isend(&sb[j], 1, MPI_INT, 0, i, MPI_COMM_SELF, &q[k + j]);
    MPI_Waitall(2 * k, q, sts);
    free(rb);
    free(sb);
    free(q);
    free(sts);
  }
  MPI_Finalize();
  return 0;
}
