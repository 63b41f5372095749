/* A program outside augur reading a trace through libaugur.so only (the
 * installed headers and `-laugur`, nothing of src/): what a user's tool does.
 *
 *   count_events TRACE    prints "rank R N" per rank (events of its stream:
 *                         parents and sub-records), then "total N"
 *
 * Exit 1 with the library's message when the trace cannot be read, 2 when the
 * library linked is not the version of the headers compiled against. */
#include <inttypes.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/error.h"
#include "augur/event.h"
#include "augur/reader.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: count_events TRACE\n");
    return 2;
  }
  if (augur_version_number() != AUGUR_VERSION_NUMBER) {
    fprintf(stderr, "count_events: headers %s, library %s\n", AUGUR_VERSION_STRING,
            augur_version_string());
    return 2;
  }
  augur_error err = {0};
  augur_trace *t = NULL;
  if (augur_trace_open(&t, argv[1], &err) != AUGUR_OK) {
    fprintf(stderr, "count_events: %s\n", err.msg);
    return 1;
  }
  uint64_t total = 0;
  int rc = 0;
  for (uint32_t r = 0; r < augur_trace_nranks(t) && rc == 0; r++) {
    augur_stream *s = NULL;
    if (augur_stream_rank(t, r, &s, &err) != AUGUR_OK) {
      rc = 1;
      break;
    }
    augur_event ev;
    uint64_t n = 0;
    int got;
    while ((got = augur_stream_next(s, &ev, &err)) == 1)
      n++;
    if (got < 0) rc = 1;
    augur_stream_close(s);
    printf("rank %" PRIu32 " %" PRIu64 "\n", r, n);
    total += n;
  }
  if (rc != 0)
    fprintf(stderr, "count_events: %s\n", err.msg);
  else
    printf("total %" PRIu64 "\n", total);
  augur_trace_close(t);
  return rc;
}
