/* `augur CMD --parallel`: hand the command to the MPI executable of the
 * launcher's flavour (cli_report.h, docs/parallel.md). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_report.h"
#include "mpi_flavour.h"

/* --parallel among ARGV's options (before a "--"). */
static int parallel_in_args(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--parallel")) return 1;
  return 0;
}

int cli_parallel_asked(int argc, char **argv) {
  char why[256];
  if (mpi_flavour_of_launcher(why, sizeof why) == MPI_FLAVOUR_NONE) return 0;
  return parallel_in_args(argc, argv);
}

int cli_parallel_none(const char *cmd, int argc, char **argv) {
  if (!parallel_in_args(argc, argv)) return -1;
  if (mpi_launcher_rank() > 0) return CLI_USAGE; /* said by rank 0 */
  return cli_usage("--parallel: %s has no parallel version yet (report, diagnose and phases do: "
                   "docs/parallel.md); run 'augur %s TRACE' alone, not under mpiexec",
                   cmd, cmd);
}

int cli_parallel_exec(const char *cmd, int argc, char **argv) {
  char why[256];
  int flavour = mpi_flavour_of_launcher(why, sizeof why);
  if (flavour == MPI_FLAVOUR_NONE)
    return cli_usage("--parallel runs as an MPI job, started by mpiexec (%s): "
                     "mpiexec -n M augur %s --parallel TRACE",
                     why, cmd);
  char name[64], exe[PATH_MAX];
  snprintf(name, sizeof name, "augur-parallel-%s", mpi_flavour_name(flavour));
  if (cli_lib_path(exe, sizeof exe, name) || access(exe, X_OK))
    return cli_fail("--parallel: %s was started by %s's mpiexec (%s), but augur was built "
                    "without %s for it (%s)",
                    cmd, mpi_flavour_title(flavour), why, name,
                    errno ? strerror(errno) : "path too long");
  char **args = calloc((size_t)argc + 2, sizeof *args);
  if (!args) return cli_fail("out of memory");
  int n = 0;
  args[n++] = exe;
  args[n++] = (char *)cmd;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--parallel")) args[n++] = argv[i];
  args[n] = NULL;
  execv(exe, args);
  int e = errno;
  free(args);
  return cli_fail("--parallel: cannot run %s: %s", exe, strerror(e));
}
