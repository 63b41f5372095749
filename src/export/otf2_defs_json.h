/* augur definitions <-> the JSON carried in the OTF2 archive property. */
#ifndef AUGUR_OTF2_DEFS_JSON_H
#define AUGUR_OTF2_DEFS_JSON_H

#include "augur/reader.h"

/* Malloc'd compact JSON of t's definitions and trace.json facts, or NULL.
 * FILES (NFILES ids): the MPI-IO files whose names go in "files" (a key only
 * present when NFILES > 0, so traces without MPI-IO give the same text). */
char *otf2_defs_to_json(augur_trace *t, const uint64_t *files, size_t nfiles);

/* The same definitions parsed back (everything owned by the struct). */
typedef struct otf2_defs {
  uint32_t nranks;
  int argc;
  char **argv;
  char *mpi_library, *mpi_version, *recorder, *counters_requested;
  uint64_t start_unix_ns;
  int payload_hash, complete;
  augur_rank_def *ranks; /* nranks entries; has_rank[r] says which are set */
  uint8_t *has_rank;
  augur_comm_def *comms;
  size_t ncomms;
  augur_module_def *modules; /* ids 1..nmodules */
  uint32_t nmodules;
  augur_callsite_def *callsites; /* ids 1..ncallsites */
  uint32_t ncallsites;
  augur_file_def *files; /* MPI-IO file names (optional key "files") */
  size_t nfiles;
} otf2_defs;

/* Returns 0, or -1 if text is not a complete augur definitions document. */
int otf2_defs_parse(const char *text, otf2_defs *d);
void otf2_defs_free(otf2_defs *d);

#endif
