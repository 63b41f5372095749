/* Which MPI library does a command's application link against? Read from
 * the ELF dynamic sections with libelf (no ldd: ldd may run the program). */
#ifndef AUGUR_MPI_FLAVOUR_H
#define AUGUR_MPI_FLAVOUR_H

#include <stddef.h>

enum mpi_flavour { MPI_FLAVOUR_NONE = 0, MPI_FLAVOUR_MPICH = 1, MPI_FLAVOUR_OPENMPI = 2 };

/* "mpich", "openmpi" (the recorder library suffix), or NULL for NONE. */
const char *mpi_flavour_name(int flavour);
/* "MPICH", "Open MPI" for messages. */
const char *mpi_flavour_title(int flavour);
/* Parses "mpich" / "openmpi" (also "ompi", "open-mpi"); -1 if unknown. */
int mpi_flavour_parse(const char *s);

/* Resolves a command word like execvp: PATH lookup when it has no '/'.
 * Returns a malloc'd path of an existing regular file, or NULL. */
char *mpi_flavour_which(const char *word);

/* Flavour of the ELF executable at path, following DT_NEEDED transitively.
 * Returns MPI_FLAVOUR_* (NONE: an executable without MPI), or -1 if path is
 * not a 64-bit ELF executable. lib (if non-NULL) gets the MPI library name
 * that decided it. */
int mpi_flavour_of_exe(const char *path, char *lib, size_t libn);

/* Walks argv[0..argc): the first word that resolves to an ELF executable
 * linking an MPI library decides. Returns the flavour (NONE if no word
 * does); *app gets that word's index (or -1); why gets a one-line
 * explanation for messages. */
int mpi_flavour_detect(char *const *argv, int argc, int *app, char *why, size_t whyn);

/* The MPI whose mpiexec started this process, from its environment
 * (mpi_launcher.c): MPI_FLAVOUR_OPENMPI, MPI_FLAVOUR_MPICH, or
 * MPI_FLAVOUR_NONE when no launcher started it. WHY (may be NULL) gets a
 * one-line explanation for messages. */
int mpi_flavour_of_launcher(char *why, size_t whyn);
/* This process's rank in the job the launcher started (OMPI_COMM_WORLD_RANK, PMI_RANK), or
 * -1 when no launcher started it. */
int mpi_launcher_rank(void);

/* The OpenMP runtime the executable at PATH needs (DT_NEEDED closure, as
 * for MPI): LLVM's libomp (or libiomp5), GCC's libgomp, or none. Returns
 * OMP_RUNTIME_*, or -1 if PATH is not a 64-bit ELF executable; LIB gets the
 * runtime's soname. */
enum omp_runtime { OMP_RUNTIME_NONE = 0, OMP_RUNTIME_LLVM = 1, OMP_RUNTIME_GNU = 2 };
int omp_runtime_of_exe(const char *path, char *lib, size_t libn);

/* Path of LLVM's libomp.so.5 (which also implements libgomp's GOMP_* entry
 * points), searched like a DT_NEEDED library (LD_LIBRARY_PATH, the standard
 * directories), then in /usr/lib/llvm-N/lib, newest N first. 0, or -1 if
 * there is none. */
int omp_find_libomp(char *out, size_t n);

#endif
