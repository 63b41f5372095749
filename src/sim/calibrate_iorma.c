/* The MPI-IO and one-sided figures of a calibration run (printed by
 * calibrate_iorma_mpi.c) and what they set in the machine model
 * (docs/simulate.md "I/O and one-sided operations"). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "augur/calibrate.h"
#include "sim_int.h"

void calib_iorma_init(augur_calib_figures *f) {
  for (int i = 0; i < 3; i++)
    f->io_write[i] = f->io_read[i] = f->rma_put[i] = f->rma_get[i] = -1;
  f->io_coll[0] = f->io_coll[1] = f->io_sync = f->io_sync_bytes = f->rma_fence = -1;
}

int calib_iorma_line(augur_calib_figures *f, const char *line) {
  double a, b, c;
  double *to3 = NULL;
  char key[32];
  int n = sscanf(line, "%31s %lf %lf %lf", key, &a, &b, &c);
  if (n < 2) return 0;
  if (!strcmp(key, "io_write")) to3 = f->io_write;
  if (!strcmp(key, "io_read")) to3 = f->io_read;
  if (!strcmp(key, "rma_put")) to3 = f->rma_put;
  if (!strcmp(key, "rma_get")) to3 = f->rma_get;
  if (to3 && n == 4) {
    to3[0] = a;
    to3[1] = b;
    to3[2] = c;
    return 1;
  }
  if (!strcmp(key, "io_coll") && n >= 3) {
    f->io_coll[0] = a;
    f->io_coll[1] = b;
    return 1;
  }
  if (!strcmp(key, "io_sync") && n >= 3) {
    f->io_sync = a;
    f->io_sync_bytes = b;
    return 1;
  }
  if (!strcmp(key, "rma_fence")) {
    f->rma_fence = a;
    return 1;
  }
  return 0;
}

/* Bandwidth from the slope between 1 and 4 MiB of T[1], T[2] (per-call
 * costs cancel), latency the 4 KiB (8 B) time T[0] less its bytes at that
 * bandwidth; 0 when the figures are missing or make no sense. */
static void slope(const double *t, double small, double mib, double *lat, double *bw) {
  *lat = *bw = 0;
  if (!(t[0] >= 0 && t[2] > t[1] && t[1] > 0)) return;
  *bw = 3 * mib / (t[2] - t[1]);
  *lat = t[0] - small / *bw > 0 ? t[0] - small / *bw : 0;
  if (!isfinite(*bw) || !isfinite(*lat)) *lat = *bw = 0;
}

void calib_iorma_derive(const augur_calib_figures *f, augur_machine *m) {
  assert(f && m);
  const double mib = 1048576.0;
  double lat, bw;
  slope(f->io_write, 4096, mib, &lat, &bw);
  if (bw > 0) {
    m->io_write_bandwidth = bw;
    m->io_latency = lat;
  }
  slope(f->io_read, 4096, mib, &lat, &bw);
  if (bw > 0) m->io_read_bandwidth = bw;
  if (f->io_coll[1] > f->io_coll[0] && f->io_coll[0] > 0 && f->io_sync_bytes > 0) {
    /* every rank's bytes: io_sync_bytes is ranks x 4 MiB */
    double ranks = f->io_sync_bytes / (4 * mib);
    m->io_coll_bandwidth = ranks * 3 * mib / (f->io_coll[1] - f->io_coll[0]);
  }
  if (f->io_sync > 0 && f->io_sync_bytes > 0) m->io_sync_bandwidth = f->io_sync_bytes / f->io_sync;
  slope(f->rma_put, 8, mib, &lat, &bw);
  if (bw > 0) {
    m->rma_bandwidth = bw;
    m->rma_latency = lat;
  }
}

void calib_iorma_write(FILE *out, const augur_calib_figures *f, const augur_machine *m) {
  (void)m;
  if (f->io_write[2] > 0)
    fprintf(out,
            "# MPI_File_write_at (rank 0): 4 KiB %.1f us, 1 MiB %.1f us, 4 MiB %.1f us; "
            "read_at %.1f / %.1f / %.1f us\n",
            f->io_write[0] * 1e6, f->io_write[1] * 1e6, f->io_write[2] * 1e6, f->io_read[0] * 1e6,
            f->io_read[1] * 1e6, f->io_read[2] * 1e6);
  if (f->io_coll[1] > 0)
    fprintf(out, "# MPI_File_write_at_all, every rank 1 MiB %.1f us, 4 MiB %.1f us\n",
            f->io_coll[0] * 1e6, f->io_coll[1] * 1e6);
  if (f->io_sync > 0)
    fprintf(out, "# MPI_File_sync after %.0f bytes written: %.3f ms\n", f->io_sync_bytes,
            f->io_sync * 1e3);
  if (f->rma_put[2] > 0)
    fprintf(out,
            "# lock/MPI_Put/unlock 8 B %.1f us, 1 MiB %.1f us, 4 MiB %.1f us; MPI_Get %.1f / "
            "%.1f / %.1f us; fence/Put 8 B/fence %.1f us\n",
            f->rma_put[0] * 1e6, f->rma_put[1] * 1e6, f->rma_put[2] * 1e6, f->rma_get[0] * 1e6,
            f->rma_get[1] * 1e6, f->rma_get[2] * 1e6, f->rma_fence * 1e6);
  if (f->io_write[2] > 0 || f->rma_put[2] > 0)
    fprintf(out, "# io and rma bandwidths = the slopes between 1 and 4 MiB, latencies = the "
                 "smallest size's time less its bytes at that bandwidth\n");
}
