/* augur — calibration of a machine model from a measuring run (`augur
 * calibrate`, docs/simulate.md "Calibration").
 *
 * The calibration program (src/sim/calibrate_mpi.c, run by the CLI under
 * mpiexec on this node) prints its figures as text, one per line:
 *
 *   KEY VALUE          overhead, sendcost, bandwidth, allreduce8, barrier,
 *                      ringstep, flops, quantum, freshbuf, firsttouch, eager
 *   latency MEDIAN MEAN                   ping-pong up to 1 KiB
 *   pingpong BYTES MEDIAN BEST MEAN       one line per message size
 *
 * in seconds, bytes and bytes/s. This file reads that protocol into
 * augur_calib_figures, derives the machine model from the figures and
 * writes the model with comments saying where each value came from. The
 * CLI keeps the options and running the program. */
#ifndef AUGUR_CALIBRATE_H
#define AUGUR_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>

#include "augur/error.h"
#include "augur/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AUGUR_CALIB_MAX_BESTS 16 /* small sizes whose best time is kept */

/* What one calibration run printed. A figure not printed keeps its
 * "not measured" value: -1 (freshbuf, firsttouch: 0; eager: -2, as -1 is
 * the program's "every send waited"). */
typedef struct augur_calib_figures {
  double overhead;             /* empty MPI_Iprobe, s */
  double sendcost;             /* MPI_Send of <= 64 bytes, s */
  double latency;              /* ping-pong up to 1 KiB: median of the half round trips, s */
  double lat_mean;             /* ... their mean, s */
  double bandwidth;            /* slope between 1 and 4 MiB of the best times, bytes/s */
  double allreduce;            /* MPI_Allreduce of 8 bytes, s */
  double barrier;              /* MPI_Barrier, s */
  double ring;                 /* ring step over all ranks, s */
  double flops;                /* dependent multiply-add chain, flop/s */
  double quantum;              /* time slice: ping-pong of two ranks on one CPU, s */
  double freshbuf, firsttouch; /* extra s per byte: new buffer, pages not in memory */
  double eager;                /* largest MPI_Send that returned before its receive */
  double mean1m, mean4m;       /* mean ping-pong of 1 and 4 MiB, s */
  double best4m;               /* best ping-pong of 4 MiB, s */
  double best16m, best64m;     /* ... of 16 and 64 MiB (large messages), s */
  double bests[AUGUR_CALIB_MAX_BESTS]; /* best time of each size up to 1 KiB, in order */
  size_t nbest;
  /* MPI-IO and one-sided (calibrate_iorma_mpi.c), s; < 0: not measured */
  double io_write[3], io_read[3]; /* rank 0's File_write_at / read_at of 4 KiB, 1, 4 MiB */
  double io_coll[2];              /* File_write_at_all, 1 and 4 MiB per rank */
  double io_sync, io_sync_bytes;  /* File_sync after writing that many bytes */
  double rma_put[3], rma_get[3];  /* lock / Put or Get / unlock of 8 bytes, 1, 4 MiB */
  double rma_fence;               /* fence / Put 8 bytes / fence */
  char notes[4096];               /* the ping-pong table as comment lines for the model file */
  size_t nnotes;                  /* bytes used in notes */
} augur_calib_figures;

/* Sets every figure to "not measured". */
void augur_calib_init(augur_calib_figures *f);

/* Takes one line of the protocol into F. Lines that are not part of it
 * (unknown keys, missing values, text) are ignored, as are ping-pong lines
 * past the notes' room; a key printed twice keeps its last value. */
void augur_calib_line(augur_calib_figures *f, const char *line);

/* Reads the protocol from IN to its end (augur_calib_line per line; lines
 * longer than 255 bytes are read in pieces). IN may be NULL: nothing read. */
void augur_calib_read(augur_calib_figures *f, FILE *in);

/* How the model was derived, for the comments (augur_calib_write). */
typedef struct augur_calib_how {
  long ncpu;        /* usable CPUs of the node (<= 0: unknown) */
  long long nranks; /* ranks of the run */
  int shared;       /* the latency is the ring step: ranks took turns */
  int slices;       /* the time slice was measured: the model takes turns */
  int turns;        /* more ranks than CPUs and slices: the latency is the median best time */
  double latency;   /* the ping-pong latency reported (median or best) */
  const char *mpi;  /* flavour measured */
} augur_calib_how;

/* Derives machine model M (started from augur_machine_default's values by
 * the caller) from figures F of a run of NRANKS ranks with the MPI flavour
 * MPI on a node with NCPU usable CPUs, named HOST:
 *  - one node of NCPU cores (1 if unknown); per-call overhead the larger
 *    of sendcost and overhead;
 *  - more ranks than CPUs and a ring step measured ("shared"): latency the
 *    ring step, bandwidth the slope of the mean times between 1 and 4 MiB
 *    (the pace the scheduler allows), cpu.cores left as in M;
 *  - unless the time slice was measured too: then latency the median of
 *    the small sizes' best times, cpu.cores NCPU, cpu.quantum the slice
 *    (the simulator takes the turns itself);
 *  - otherwise latency the ping-pong median, cpu.cores NCPU;
 *  - fresh_buffer, first_touch, and the eager limit when measured;
 *  - large messages (docs/simulate.md "Large messages"): when the slope of
 *    the best times between 16 and 64 MiB is a lower bandwidth than the
 *    bandwidth above, shm.large_bandwidth = that slope and shm.large_from =
 *    where the two lines (through 4 MiB and through 64 MiB) cross, kept
 *    within [4, 16] MiB; none with ranks taking turns (ring step).
 * HOW (not NULL) receives the choices for augur_calib_write.
 * Fails (AUGUR_E_ARG) if F has no overhead, latency or bandwidth figure:
 * "the calibration run printed no latency/bandwidth figures" (also when
 * a figure is not a finite number). */
int augur_calib_derive(const augur_calib_figures *f, long ncpu, long long nranks, const char *host,
                       const char *mpi, augur_machine *m, augur_calib_how *how, augur_error *err);

/* Writes model M to OUT behind comment lines giving the figures F and
 * HOW it was derived. Returns AUGUR_OK or augur_machine_write's code. */
int augur_calib_write(FILE *out, const augur_calib_figures *f, const augur_calib_how *how,
                      const augur_machine *m);

/* Calibration from a recorded run (`augur calibrate --from`): whether the
 * run's NRANKS ranks took turns on model M's cores, i.e. more of them were
 * placed on M's busiest node than it has cpu.cores and M takes turns
 * (cpu.quantum > 0). Their messages' times then hold the turns, so the
 * model derived from them must not take turns again (cpu.cores = 0). */
int augur_calib_trace_turns(const augur_machine *m, uint32_t nranks);

#ifdef __cplusplus
}
#endif

#endif
