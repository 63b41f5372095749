/* libFuzzer target for augurd's input path: the first byte picks the entry.
 * Even: the bytes are a whole frame (header, MAC, record) under a fixed key.
 * Odd: the rest is a job payload as if its MAC had been right, so the
 * fuzzer reaches the record validation and the JSON writer without having
 * to forge HMACs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mon_store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const mon_key key = {.bytes = "fuzz key, fuzz key, fuzz key!!!", .len = 31};
  char why[512];
  if (size < 1) return 0;
  if (!(data[0] & 1)) {
    mon_frame_parse(&key, data + 1, size - 1, 1u << 20, why, sizeof why);
    uint16_t type;
    uint32_t len, auth;
    if (size - 1 >= MON_HDR)
      mon_header_check(data + 1, 1u << 20, &type, &len, &auth, why, sizeof why);
    return 0;
  }
  /* A private, exactly sized copy: reads past the end are caught. */
  size_t n = size - 1;
  uint8_t *p = malloc(n ? n : 1);
  if (!p) return 0;
  memcpy(p, data + 1, n);
  if (mon_job_validate(p, (uint32_t)n, why, sizeof why) == 0) free(mon_job_json(p, (uint32_t)n));
  free(p);
  return 0;
}
