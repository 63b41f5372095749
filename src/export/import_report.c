/* augur — the OTF2 import's report, freed the same way whether or not
 * libotf2 was found (otf2_import.c or otf2_missing.c fills it). */
#include <stdlib.h>

#include "augur/export.h"

void augur_import_report_free(augur_import_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nnotes; i++)
    free(r->notes[i]);
  free(r->notes);
  r->notes = NULL;
  r->nnotes = 0;
}
