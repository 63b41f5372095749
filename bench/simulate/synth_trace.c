/* The synthetic ring trace of synth_trace.h, written through the writer a
 * batch of iterations at a time (memory does not grow with ITERS). */
#include "synth_trace.h"

#include <stdlib.h>
#include <string.h>

#include "augur/writer.h"

#define BATCH  4096 /* iterations per writer call */
#define PER_IT 7    /* records per iteration */

/* The records of iteration IT of rank R into E (PER_IT of them). Every
 * iteration takes 20 us; ranks are skewed by a few ns. The Iprobe is a
 * local call (found nothing). */
static void ring_iteration(augur_event *e, uint32_t r, uint32_t nranks, uint64_t it) {
  int32_t left = (int32_t)((r + nranks - 1) % nranks), right = (int32_t)((r + 1) % nranks);
  uint64_t t = 100000 + it * 20000 + r * 5;
  memset(e, 0, PER_IT * sizeof *e);
  e[0].type = AUGUR_EV_IRECV, e[0].t_start = t + 10000, e[0].t_end = t + 10100;
  e[0].peer = left, e[0].bytes_recv = 4096, e[0].req = 0x100, e[0].callsite = 1;
  e[1].type = AUGUR_EV_ISEND, e[1].t_start = t + 10200, e[1].t_end = t + 10300;
  e[1].peer = right, e[1].bytes = 4096, e[1].req = 0x200, e[1].callsite = 2;
  e[2].type = AUGUR_EV_WAITALL, e[2].t_start = t + 10400, e[2].t_end = t + 14000, e[2].aux = 2;
  e[2].peer = AUGUR_PEER_NONE, e[2].tag = AUGUR_TAG_NONE, e[2].callsite = 3;
  e[3].type = AUGUR_EV_COMPLETION, e[3].req = 0x100, e[3].peer = left;
  e[3].flags = AUGUR_F_RECVREQ, e[3].bytes_recv = 4096;
  e[4].type = AUGUR_EV_COMPLETION, e[4].req = 0x200, e[4].aux = 1;
  e[4].flags = AUGUR_F_SENDREQ, e[4].peer = AUGUR_PEER_NONE, e[4].tag = AUGUR_TAG_NONE;
  for (int k = 3; k < 5; k++)
    e[k].t_start = e[2].t_start, e[k].t_end = e[2].t_end;
  e[5].type = AUGUR_EV_ALLREDUCE, e[5].t_start = t + 15000, e[5].t_end = t + 16000 - r * 5;
  e[5].peer = AUGUR_PEER_NONE, e[5].tag = AUGUR_TAG_NONE, e[5].bytes = e[5].bytes_recv = 8;
  e[5].callsite = 4;
  e[6].type = AUGUR_EV_IPROBE, e[6].t_start = t + 19000, e[6].t_end = t + 19100;
  e[6].peer = left, e[6].flags = AUGUR_F_NOTDONE, e[6].callsite = 5; /* a local call */
  for (int k = 0; k < PER_IT; k++) {
    e[k].rank = r;
    e[k].comm = AUGUR_COMM_WORLD;
  }
}

int synth_trace_write(const char *dir, uint32_t nranks, uint64_t iters, augur_error *err) {
  char *argv[] = {"synthetic-ring"};
  augur_trace_meta meta = {.nranks = nranks,
                           .argc = 1,
                           .argv = argv,
                           .mpi_library = "MPICH",
                           .mpi_version = "synthetic",
                           .recorder = "augur-bench-sim",
                           .complete = 1};
  int rc = augur_meta_write(dir, &meta, err);
  if (rc < 0) return rc;
  int32_t *world = malloc(nranks * sizeof *world);
  augur_event *buf = malloc((size_t)BATCH * PER_IT * sizeof *buf);
  if (!world || !buf) {
    free(world);
    free(buf);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }
  for (uint32_t r = 0; r < nranks; r++)
    world[r] = (int32_t)r;
  for (uint32_t r = 0; r < nranks && rc == AUGUR_OK; r++) {
    augur_writer *w;
    rc = augur_writer_open(&w, dir, r, nranks, 0, err);
    if (rc < 0) break;
    augur_comm_def cw = {.id = AUGUR_COMM_WORLD, .size = nranks, .members = world};
    rc = augur_writer_def_comm(w, &cw, err);
    augur_event edge = {0};
    edge.type = AUGUR_EV_INIT, edge.rank = r, edge.t_start = 0, edge.t_end = 90000 + r * 5;
    if (rc == AUGUR_OK) rc = augur_writer_events(w, 0, &edge, 1, err);
    for (uint64_t it = 0; it < iters && rc == AUGUR_OK; it += BATCH) {
      size_t n = 0;
      for (uint64_t k = it; k < iters && k < it + BATCH; k++, n += PER_IT)
        ring_iteration(buf + n, r, nranks, k);
      rc = augur_writer_events(w, 0, buf, n, err);
    }
    edge.type = AUGUR_EV_FINALIZE, edge.t_start = 100000 + iters * 20000;
    edge.t_end = edge.t_start + 1000;
    if (rc == AUGUR_OK) rc = augur_writer_events(w, 0, &edge, 1, err);
    int crc = augur_writer_close(w, err);
    if (rc == AUGUR_OK) rc = crc;
  }
  free(world);
  free(buf);
  return rc;
}
