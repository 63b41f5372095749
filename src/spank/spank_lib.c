/* augur SPANK plugin — which profile library a task gets. A site with one
 * MPI names the library file; a site with several names the directory that
 * holds them, and each task gets the variant for the MPI its executable
 * links (read from its ELF dynamic section, src/flavour/mpi_flavour.c, the
 * detection `augur profile` uses), or the plain library for a program
 * without MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi_flavour.h"
#include "spank_int.h"

int augur_spank_library_is_dir(const augur_spank_conf *c) {
  struct stat st;
  return stat(c->library, &st) == 0 && S_ISDIR(st.st_mode);
}

int augur_spank_library(const augur_spank_conf *c, char *const *argv, int argc, char *out, size_t n,
                        char *why, size_t whyn) {
  if (!augur_spank_library_is_dir(c)) {
    if (snprintf(out, n, "%s", c->library) >= (int)n) {
      snprintf(why, whyn, "library path too long");
      return -1;
    }
  } else {
    int app = -1;
    char how[512];
    int flavour = argc > 0 ? mpi_flavour_detect(argv, argc, &app, how, sizeof how) : 0;
    const char *name = flavour > 0 ? mpi_flavour_name(flavour) : NULL;
    int w = name ? snprintf(out, n, "%s/libaugur-profile-%s.so", c->library, name)
                 : snprintf(out, n, "%s/libaugur-profile.so", c->library);
    if (w < 0 || (size_t)w >= n) {
      snprintf(why, whyn, "library path too long");
      return -1;
    }
  }
  if (access(out, R_OK) != 0) {
    snprintf(why, whyn, "%.3000s is missing", out);
    return -1;
  }
  return 0;
}
