/* augur — the version of the library linked in (include/augur/api.h). */
#include "augur/api.h"

unsigned augur_version_number(void) {
  return AUGUR_VERSION_NUMBER;
}

const char *augur_version_string(void) {
  return AUGUR_VERSION_STRING;
}
