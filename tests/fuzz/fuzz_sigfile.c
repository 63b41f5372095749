/* augur fuzz target 3: bytes -> a signature file and a signature-result
 * file (docs/signature.md), both read by every rank of a signature run:
 * they must be refused with a message, never crash. */
#include <stdint.h>
#include <stdio.h>

#include "augur/signature.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_write("f.sig", data, size);
  char path[4200];
  snprintf(path, sizeof path, "%s/f.sig", fz_dir());
  augur_error err;
  augur_signature *s = NULL;
  if (augur_signature_read(path, &s, &err) == AUGUR_OK) {
    FILE *f = fopen("/dev/null", "w"); /* what was read writes back */
    if (f) {
      augur_signature_write(f, s);
      fclose(f);
    }
    augur_signature_free(s);
  }
  augur_sigresult *r = NULL;
  if (augur_sigresult_read(path, &r, &err) == AUGUR_OK) augur_sigresult_free(r);
  return 0;
}
