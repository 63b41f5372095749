/* Built instead of the OTF2 export/import when libotf2 was not found. */
#include <stdlib.h>

#include "augur/export.h"

int augur_export_otf2(augur_trace *t, const char *out, const augur_export_opts *o,
                      augur_export_stats *st, augur_error *err) {
  (void)t;
  (void)out;
  (void)o;
  (void)st;
  return augur_fail(err, AUGUR_E_STATE, "augur was built without OTF2 support");
}

int augur_import_otf2(const char *anchor, const char *out, const augur_export_opts *o,
                      augur_import_report *rep, augur_error *err) {
  (void)anchor;
  (void)out;
  (void)o;
  (void)rep;
  return augur_fail(err, AUGUR_E_STATE, "augur was built without OTF2 support");
}
