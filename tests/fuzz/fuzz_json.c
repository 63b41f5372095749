/* augur fuzz target 2: bytes -> trace.json next to a valid one-rank file ->
 * open + stream everything. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/writer.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void make_rank_file(void) {
  augur_writer *w;
  augur_error err;
  if (augur_writer_open(&w, fz_dir(), 0, 1, 0, &err)) abort();
  augur_event e[3];
  memset(e, 0, sizeof e);
  e[0].type = AUGUR_EV_ISEND;
  e[0].t_start = 10, e[0].t_end = 20, e[0].req = 5, e[0].comm = AUGUR_COMM_WORLD;
  e[1].type = AUGUR_EV_WAIT;
  e[1].t_start = 30, e[1].t_end = 40, e[1].aux = 1;
  e[2].type = AUGUR_EV_COMPLETION;
  e[2].req = 5;
  if (augur_writer_events(w, 0, e, 3, &err) || augur_writer_close(w, &err)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  if (!ready) {
    make_rank_file();
    ready = 1;
  }
  fz_write("trace.json", data, size);
  fz_workout();
  return 0;
}
