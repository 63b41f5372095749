/* Which mpiexec started this process (mpi_flavour.h): read from the
 * environment each launcher gives the processes it starts. */
#include "mpi_flavour.h"

#include <stdio.h>
#include <stdlib.h>

int mpi_flavour_of_launcher(char *why, size_t whyn) {
  /* Open MPI's mpirun/mpiexec (ORTE and PRRTE) sets OMPI_COMM_WORLD_*;
   * MPICH's Hydra (and srun --mpi=pmi2) sets PMI_RANK and PMI_SIZE. Open MPI
   * is asked first: a PMIx launcher may set PMI_* for compatibility too. */
  const char *ompi = getenv("OMPI_COMM_WORLD_SIZE");
  if (ompi && *ompi) {
    if (why) snprintf(why, whyn, "OMPI_COMM_WORLD_SIZE=%s: Open MPI's mpiexec", ompi);
    return MPI_FLAVOUR_OPENMPI;
  }
  const char *rank = getenv("PMI_RANK"), *size = getenv("PMI_SIZE");
  if (rank && *rank && size && *size) {
    if (why) snprintf(why, whyn, "PMI_RANK=%s, PMI_SIZE=%s: MPICH's mpiexec (Hydra)", rank, size);
    return MPI_FLAVOUR_MPICH;
  }
  if (why) snprintf(why, whyn, "neither OMPI_COMM_WORLD_SIZE nor PMI_RANK/PMI_SIZE is set");
  return MPI_FLAVOUR_NONE;
}

int mpi_launcher_rank(void) {
  int flavour = mpi_flavour_of_launcher(NULL, 0);
  if (flavour == MPI_FLAVOUR_NONE) return -1;
  const char *r = getenv(flavour == MPI_FLAVOUR_OPENMPI ? "OMPI_COMM_WORLD_RANK" : "PMI_RANK");
  char *end;
  long v = r ? strtol(r, &end, 10) : -1;
  return r && *r && !*end && v >= 0 && v <= 0x7fffffff ? (int)v : -1;
}
