/* Who writes the recorder's full buffers (AUGUR_FLUSH, src/record/rec_thread.c): each rank
 * makes CALLS MPI_Iprobe calls (argv[1], default 20000) between two barriers, then prints how
 * many CPUs it may run on and whether its process has the recorder's writer thread
 * ("augur-writer" in /proc/self/task/N/comm) before and after MPI_Finalize. (Before: after
 * the loop, by when a writer thread has written blocks, so it has named itself.)
 *
 *   rank R cpus C writer W after W2 */
#define _GNU_SOURCE
#include <dirent.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_writer(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  int found = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[300], comm[64] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    if (fgets(comm, sizeof comm, f) && !strncmp(comm, "augur-writer", 12)) found = 1;
    fclose(f);
  }
  closedir(d);
  return found;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, flag;
  long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  cpu_set_t set;
  int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
  MPI_Status st;
  MPI_Barrier(MPI_COMM_WORLD);
  for (long i = 0; i < calls; i++)
    MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st);
  MPI_Barrier(MPI_COMM_WORLD);
  int writer = has_writer();
  MPI_Finalize();
  printf("rank %d cpus %d writer %d after %d\n", rank, cpus, writer, has_writer());
  return 0;
}
