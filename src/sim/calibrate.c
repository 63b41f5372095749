/* augur — a machine model from a calibration run's figures (see
 * include/augur/calibrate.h; the measuring program is calibrate_mpi.c).
 *
 * The ranks of the run share a node, so what it measures is the
 * shared-memory path; the network values are set equal to them so a model
 * of one node stays consistent when someone spreads ranks over several. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/calibrate.h"
#include "sim_int.h"

void augur_calib_init(augur_calib_figures *f) {
  assert(f);
  memset(f, 0, sizeof *f);
  f->overhead = f->sendcost = f->latency = f->lat_mean = f->bandwidth = -1;
  f->allreduce = f->barrier = f->ring = f->flops = f->quantum = -1;
  f->mean1m = f->mean4m = -1;
  f->best4m = f->best16m = f->best64m = -1;
  f->freshbuf = f->firsttouch = 0;
  f->eager = -2; /* -1 is a figure: every send waited */
  calib_iorma_init(f);
}

void augur_calib_line(augur_calib_figures *f, const char *line) {
  assert(f && line && f->nnotes < sizeof f->notes);
  /* The figures of one value, by the name the calibration program prints. */
  const struct {
    const char *key;
    double *to;
  } one[] = {
      {"overhead", &f->overhead},     {"bandwidth", &f->bandwidth}, {"allreduce8", &f->allreduce},
      {"barrier", &f->barrier},       {"ringstep", &f->ring},       {"sendcost", &f->sendcost},
      {"flops", &f->flops},           {"quantum", &f->quantum},     {"freshbuf", &f->freshbuf},
      {"firsttouch", &f->firsttouch}, {"eager", &f->eager}};
  const size_t none = sizeof one / sizeof one[0];
  double a, b, c, d;
  char key[32];
  size_t k = none;
  if (sscanf(line, "%31s %lf", key, &a) == 2)
    for (k = 0; k < none && strcmp(one[k].key, key); k++)
      ;
  if (k < none) {
    *one[k].to = a;
  } else if (calib_iorma_line(f, line)) {
  } else if (sscanf(line, "latency %lf %lf", &a, &b) == 2) {
    f->latency = a;
    f->lat_mean = b;
  } else if (sscanf(line, "turn %lf", &a) == 1 && f->nnotes < sizeof f->notes - 100) {
    f->nnotes += (size_t)snprintf(f->notes + f->nnotes, sizeof f->notes - f->nnotes,
                                  "#   0 bytes, both ranks on one CPU: %.3f ms (the time slice "
                                  "and other work's turns)\n",
                                  a * 1e3);
  } else if (sscanf(line, "pingpong %lf %lf %lf %lf", &a, &b, &c, &d) == 4 &&
             f->nnotes < sizeof f->notes - 100) {
    if (a <= 1024 && f->nbest < AUGUR_CALIB_MAX_BESTS) f->bests[f->nbest++] = c;
    if (a == 1048576) f->mean1m = d;
    if (a == 4194304) {
      f->mean4m = d;
      f->best4m = c;
    }
    if (a == 16777216) f->best16m = c;
    if (a == 67108864) f->best64m = c;
    f->nnotes +=
        (size_t)snprintf(f->notes + f->nnotes, sizeof f->notes - f->nnotes,
                         "#   %10.0f bytes: median %10.3f us, best %10.3f us, mean %10.3f us\n", a,
                         b * 1e6, c * 1e6, d * 1e6);
    /* a line cut short (absurd figures) fills the notes: no more lines */
    if (f->nnotes >= sizeof f->notes) f->nnotes = sizeof f->notes - 1;
  }
}

void augur_calib_read(augur_calib_figures *f, FILE *in) {
  char line[256];
  while (in && fgets(line, sizeof line, in))
    augur_calib_line(f, line);
}

/* Messages larger than the caches: the slope of the best times between 16
 * and 64 MiB, from where the line through 64 MiB meets the line through
 * 4 MiB at the bandwidth (docs/simulate.md "Large messages"). Not with
 * ranks taking turns in the measurement (their times are the scheduler's). */
static void large_messages(const augur_calib_figures *f, int shared, augur_machine *m) {
  const double mib4 = 4194304.0, mib16 = 16777216.0, mib64 = 67108864.0;
  m->shm_large_bandwidth = 0;
  m->shm_large_from = 0;
  if (shared || !(f->best64m > f->best16m && f->best16m > 0 && f->best4m > 0)) return;
  double bwl = (mib64 - mib16) / (f->best64m - f->best16m), bw = m->shm_bandwidth;
  if (!(bwl < bw) || !isfinite(bwl)) return;
  /* f->best4m + (n - 4M) / bw = f->best64m + (n - 64M) / bwl */
  double from = (f->best64m - f->best4m - mib64 / bwl + mib4 / bw) / (1 / bw - 1 / bwl);
  if (!(from >= mib4)) from = mib4;
  if (from > mib16) from = mib16;
  m->shm_large_bandwidth = bwl;
  m->shm_large_from = (uint64_t)from;
}

int augur_calib_derive(const augur_calib_figures *f, long ncpu, long long nranks, const char *host,
                       const char *mpi, augur_machine *m, augur_calib_how *how, augur_error *err) {
  assert(f && host && mpi && m && how);
  /* written so that NaN fails too */
  if (!(f->overhead >= 0 && isfinite(f->overhead)) || !(f->latency >= 0 && isfinite(f->latency)) ||
      !(f->bandwidth > 0 && isfinite(f->bandwidth)))
    return augur_fail(err, AUGUR_E_ARG, "the calibration run printed no latency/bandwidth figures");
  /* the name is a label: a long host name is cut, not an error */
  snprintf(m->name, sizeof m->name, "%.32s (%.16s, calibrated)", host, mpi);
  /* One node of this machine's CPUs; with nodes = 1 block placement keeps
   * every rank on it, however many there are (more ranks than cores share
   * them: cpu.cores below). */
  m->nodes = 1;
  m->cores_per_node = ncpu > 0 ? (uint32_t)ncpu : 1;
  /* Per-call CPU: what an eager send costs, the typical call that does
   * not wait (an empty Iprobe is a lower bound). */
  m->overhead = f->sendcost > f->overhead ? f->sendcost : f->overhead;
  /* Ranks sharing cores pay the scheduler whenever a partner is not
   * running: what that costs per message is the ring step with every rank
   * taking part. Otherwise the ping-pong median (the machine may be shared
   * with other work; outliers are not the machine). */
  int shared = ncpu > 0 && nranks > ncpu && f->ring > 0;
  /* With the time slice measured, the simulator takes turns itself
   * (cpu.cores, cpu.quantum): the latency is then what a message costs
   * when both ranks run, the median of the small sizes' best times. */
  int slices = f->quantum > 0 && f->nbest > 0, turns = 0;
  double lat = f->latency, bw = f->bandwidth;
  m->cpu_quantum = slices ? f->quantum : 0;
  /* The node's cores, so a later run with more ranks than cores shares
   * them; unless the latency is the ring step of ranks already taking
   * turns (no time slice measured), which must not take turns again. */
  if (!shared && ncpu > 0) m->cpu_cores = (uint32_t)ncpu;
  if (shared && slices) {
    double bests[AUGUR_CALIB_MAX_BESTS];
    memcpy(bests, f->bests, f->nbest * sizeof bests[0]);
    qsort(bests, f->nbest, sizeof bests[0], aug_cmp_double);
    lat = bests[f->nbest / 2];
    m->cpu_cores = (uint32_t)ncpu;
    shared = 0;
    turns = 1;
  }
  m->shm_latency = m->latency = shared ? f->ring : lat;
  /* The same for large messages: copies that need both ranks running go at
   * the pace the scheduler allows, so the slope of the mean times. */
  if (shared && f->mean4m > f->mean1m && f->mean1m > 0)
    bw = (4194304.0 - 1048576.0) / (f->mean4m - f->mean1m);
  m->shm_bandwidth = m->bandwidth = bw;
  large_messages(f, shared, m);
  m->fresh_buffer = f->freshbuf;
  m->first_touch = f->firsttouch;
  if (f->eager >= -1) m->eager_limit = f->eager < 0 ? 0 : (uint64_t)f->eager;
  calib_iorma_derive(f, m);
  *how = (augur_calib_how){ncpu, nranks, shared, slices, turns, lat, mpi};
  return AUGUR_OK;
}

int augur_calib_write(FILE *out, const augur_calib_figures *f, const augur_calib_how *how,
                      const augur_machine *m) {
  assert(out && f && how && m && how->mpi);
  const long long nranks = how->nranks;
  fprintf(out, "# augur machine model written by `augur calibrate --ranks %lld` (%s, %ld cores)\n",
          nranks, how->mpi, how->ncpu);
  fprintf(out, "# ping-pong between ranks 0 and 1, half round trip:\n%s", f->notes);
  if (f->allreduce >= 0)
    fprintf(out, "# MPI_Allreduce 8 bytes, %lld ranks: %.3f us\n", nranks, f->allreduce * 1e6);
  if (f->barrier >= 0)
    fprintf(out, "# MPI_Barrier, %lld ranks: %.3f us\n", nranks, f->barrier * 1e6);
  fprintf(out, "# overhead: MPI_Send of <= 64 bytes %.3f us, empty MPI_Iprobe %.3f us\n",
          f->sendcost * 1e6, f->overhead * 1e6);
  fprintf(out, "# ping-pong up to 1 KiB: median %.3f us, mean %.3f us\n", how->latency * 1e6,
          f->lat_mean * 1e6);
  if (f->ring > 0) fprintf(out, "# ring step over %lld ranks: %.3f us\n", nranks, f->ring * 1e6);
  fprintf(out,
          "# 4 MiB received into a new buffer: +%.3f ms per MiB; its pages not yet in "
          "memory: +%.3f ms per MiB more\n",
          f->freshbuf * 1e3, f->firsttouch * 1e3);
  if (f->eager >= 0)
    fprintf(out,
            "# eager limit: the largest MPI_Send that returned before its receiver posted: "
            "%.0f bytes%s\n",
            f->eager, f->eager >= 4194304 ? " (the largest size tried)" : "");
  else if (f->eager == -1)
    fprintf(out, "# eager limit: every MPI_Send waited for its receiver\n");
  if (how->slices)
    fprintf(out, "# time slice: ranks 0 and 1 polling on one CPU: %.3f ms\n", f->quantum * 1e3);
  fprintf(out, "# latency = %s\n",
          how->shared  ? "the ring step (more ranks than cores: scheduling)"
          : how->turns ? "the median best ping-pong (more ranks than cores: "
                         "the model takes turns of the time slice)"
                       : "the ping-pong median");
  fprintf(out, "# bandwidth = the slope between 1 and 4 MiB of the %s times\n",
          how->shared ? "mean" : "best");
  if (m->shm_large_bandwidth > 0)
    fprintf(out, "# large_bandwidth = the slope between 16 and 64 MiB of the best times, from "
                 "large_from (where the two lines cross)\n");
  if (f->flops > 0)
    fprintf(out, "# compute rate: %.1f Mflop/s (dependent multiply-add chain)\n", f->flops / 1e6);
  calib_iorma_write(out, f, m);
  fprintf(out, "\n");
  return augur_machine_write(m, out);
}

int augur_calib_trace_turns(const augur_machine *m, uint32_t nranks) {
  assert(m);
  uint32_t busiest = 0;
  uint32_t *per_node = calloc(nranks ? nranks : 1, sizeof *per_node);
  for (uint32_t r = 0; per_node && r < nranks; r++) {
    uint32_t nd = augur_machine_node(m, r);
    if (nd < nranks && ++per_node[nd] > busiest) busiest = per_node[nd];
  }
  free(per_node);
  return m->cpu_cores > 0 && m->cpu_quantum > 0 && busiest > m->cpu_cores;
}
