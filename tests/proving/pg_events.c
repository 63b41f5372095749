/* pg-events TRACE — one tab-separated line per event, for the proving-ground
 * checker (check.py): rank, call, peer, tag, bytes, bytes_recv, payload hash
 * (16 hex digits, 0 when none), start and end ns, call-site line. `augur dump`
 * is for people and shows no payload hash, which the blocked-sender and
 * multicast checks need. */
#include <inttypes.h>
#include <stdio.h>

#include "augur/reader.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pg-events TRACE\n");
    return 2;
  }
  augur_trace *t = NULL;
  augur_stream *s = NULL;
  augur_error err = {0};
  if (augur_trace_open(&t, argv[1], &err) < 0 || augur_stream_merged(t, &s, &err) < 0) {
    fprintf(stderr, "pg-events: %s\n", err.msg);
    augur_trace_close(t);
    return 1;
  }
  augur_event ev;
  int rc;
  while ((rc = augur_stream_next(s, &ev, &err)) == 1) {
    augur_srcloc loc = {0};
    int line = 0;
    if (ev.callsite && augur_trace_resolve(t, (uint32_t)ev.callsite, &loc) >= 0) line = loc.line;
    printf("%u\t%s\t%d\t%d\t%" PRIu64 "\t%" PRIu64 "\t%016" PRIx64 "\t%" PRIu64 "\t%" PRIu64
           "\t%d\n",
           ev.rank, augur_event_name(ev.type), ev.peer, ev.tag, ev.bytes, ev.bytes_recv, ev.hash,
           ev.t_start, ev.t_end, line);
  }
  augur_stream_close(s);
  augur_trace_close(t);
  if (rc < 0) {
    fprintf(stderr, "pg-events: %s\n", err.msg);
    return 1;
  }
  return 0;
}
