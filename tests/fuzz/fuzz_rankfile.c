/* augur fuzz target 1: bytes -> rank-00000.evt of a one-rank trace with a
 * valid trace.json -> open + stream everything. */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  if (!ready) {
    static const char json[] =
        "{\"format\":\"augur-trace\",\"version\":[1,0],\"nranks\":1,\"argv\":[\"a\"]}";
    fz_write("trace.json", (const uint8_t *)json, strlen(json));
    ready = 1;
  }
  fz_write("rank-00000.evt", data, size);
  fz_workout();
  return 0;
}
