/* augur-parallel-<flavour>: the analyses of `augur CMD --parallel` as an
 * MPI job (docs/parallel.md). Built once per MPI flavour, like the
 * recorder; `augur CMD --parallel` (src/cli/parallel.c) execs it in every
 * process mpiexec started. Usage: augur-parallel-<flavour> report|diagnose|phases
 * ARGS, ARGS as `augur report`, `augur diagnose` or `augur phases` takes
 * them. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "par.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int rc;
  if (argc >= 2 && !strcmp(argv[1], "report")) {
    cli_prog = "augur report";
    rc = par_report(argc - 1, argv + 1);
  } else if (argc >= 2 && !strcmp(argv[1], "diagnose")) {
    cli_prog = "augur diagnose";
    rc = par_diagnose(argc - 1, argv + 1);
  } else if (argc >= 2 && !strcmp(argv[1], "phases")) {
    cli_prog = "augur phases";
    rc = par_phases(argc - 1, argv + 1);
  } else {
    if (!me)
      fprintf(stderr,
              "augur-parallel: run as `mpiexec -n M augur report|diagnose|phases --parallel TRACE` "
              "(docs/parallel.md)\n");
    rc = CLI_USAGE;
  }
  MPI_Finalize();
  return rc;
}
