/* Unit test of the MPI flavour detection used by `augur record`.
 *
 * usage: test_flavour [mpich=PROG] [openmpi=PROG] ...
 * PROG is an MPI program built with that flavour's mpicc. Without arguments
 * only the non-MPI cases run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_flavour.h"

static int failures;

static void expect_exe(const char *path, int want) {
  char lib[256] = "";
  int got = mpi_flavour_of_exe(path, lib, sizeof lib);
  if (got != want) {
    fprintf(stderr, "test_flavour: %s: got %d (%s), want %d\n", path, got, lib, want);
    failures++;
  } else {
    printf("ok  %-60s %s%s%s\n", path, got < 0 ? "not an executable" : mpi_flavour_title(got),
           *lib ? " via " : "", lib);
  }
}

static void expect_cmd(char **argv, int argc, int want, int want_app) {
  char why[512];
  int app = -2;
  int got = mpi_flavour_detect(argv, argc, &app, why, sizeof why);
  if (got != want || app != want_app) {
    fprintf(stderr, "test_flavour: command '%s ...': got %d app %d, want %d app %d (%s)\n", argv[0],
            got, app, want, want_app, why);
    failures++;
  } else {
    printf("ok  command %s ... -> %s (%s)\n", argv[0], mpi_flavour_title(got), why);
  }
}

int main(int argc, char **argv) {
  /* Launchers are ELF executables without MPI: they must not decide. */
  char *launch_mpich = mpi_flavour_which("mpiexec.mpich");
  char *launch_ompi = mpi_flavour_which("mpiexec.openmpi");
  if (launch_mpich) expect_exe(launch_mpich, MPI_FLAVOUR_NONE);
  if (launch_ompi) expect_exe(launch_ompi, MPI_FLAVOUR_NONE);
  expect_exe("/bin/true", MPI_FLAVOUR_NONE);
  expect_exe("/etc/passwd", -1);          /* not ELF */
  expect_exe("/nonexistent/program", -1); /* missing */
  char *sh_words[] = {"/bin/true", "-n", "2", "no-such-program"};
  expect_cmd(sh_words, 4, MPI_FLAVOUR_NONE, -1);

  for (int i = 1; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq) {
      fprintf(stderr, "usage: test_flavour [mpich=PROG] [openmpi=PROG]\n");
      return 2;
    }
    *eq = 0;
    int want = mpi_flavour_parse(argv[i]);
    const char *prog = eq + 1;
    expect_exe(prog, want);
    /* As it appears in a real command: launcher, options, then the app. */
    char *launcher = want == MPI_FLAVOUR_MPICH ? launch_mpich : launch_ompi;
    char *cmd[] = {launcher ? launcher : "mpiexec", "-n", "4", (char *)prog, "--size", "16"};
    expect_cmd(cmd, 6, want, 3);
  }
  free(launch_mpich);
  free(launch_ompi);
  if (failures) fprintf(stderr, "test_flavour: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
