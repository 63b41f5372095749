/* A synthetic trace of any length for the simulator's benchmark and its
 * memory test (bench/simulate, tests/simulate/test_stream.c). */
#ifndef AUGUR_SYNTH_TRACE_H
#define AUGUR_SYNTH_TRACE_H

#include <stdint.h>

#include "augur/error.h"

/* Writes trace DIR: NRANKS ranks on a ring, ITERS iterations of 10 us of
 * compute, Irecv from the left, Isend to the right (4 KiB), Waitall (2
 * completions), an Allreduce of 8 bytes and an Iprobe: 5 calls, 7 records
 * per rank and iteration, between MPI_Init and MPI_Finalize. */
int synth_trace_write(const char *dir, uint32_t nranks, uint64_t iters, augur_error *err);

#endif
