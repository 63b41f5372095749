/* augur definitions <-> the JSON carried in the OTF2 archive property. */
#ifndef AUGUR_OTF2_DEFS_JSON_H
#define AUGUR_OTF2_DEFS_JSON_H

#include "augur/reader.h"

/* Malloc'd compact JSON of t's definitions and trace.json facts, or NULL. */
char *otf2_defs_to_json(augur_trace *t);

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
} otf2_defs;

/* Returns 0, or -1 if text is not a complete augur definitions document. */
int otf2_defs_parse(const char *text, otf2_defs *d);
void otf2_defs_free(otf2_defs *d);

#endif
