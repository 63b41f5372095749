/* augur — the MPI-IO section of `augur report` (src/analysis/report/report_io.c).
 *
 * I/O time is the time in MPI_File_* calls plus, once per call, the time of
 * an MPI_Wait/Test... call that completed at least one MPI-IO request (its
 * whole duration: augur cannot split a call that also completed other
 * requests). Bytes are what the calls moved (augur_io_bytes: statuses, a
 * nonblocking call's at its completion). Bandwidth = (written + read) / I/O
 * time, as the application saw it (waits included, overlap not). JSON schema:
 * docs/cli.md, "io". */
#ifndef AUGUR_REPORT_IO_H
#define AUGUR_REPORT_IO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct augur_report_io_row {
  uint64_t key; /* ranks: the rank; files: the file id; sites: type << 32 | call site */
  uint64_t calls, time_ns, written, read;
  uint32_t ranks;     /* files: ranks that used the file */
  uint32_t last_rank; /* (while computing) last rank counted + 1 */
} augur_report_io_row;

typedef struct augur_report_io {
  uint64_t calls, time_ns, wait_ns, written, read; /* totals; wait_ns: part of time_ns */
  uint32_t nranks;
  augur_report_io_row *ranks; /* nranks, by rank */
  size_t nfiles, nsites;
  augur_report_io_row *files; /* by time, descending */
  augur_report_io_row *sites; /* by time, descending */
} augur_report_io;

#ifdef __cplusplus
}
#endif
#endif
