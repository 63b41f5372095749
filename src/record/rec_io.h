/* augur recorder — MPI-IO record fields, shared by the C (wrap_io.c) and
 * Fortran (fortran_io.c) wrappers. Field meaning: include/augur/mpiio.h and
 * docs/trace-format.md "MPI-IO records". Not a public API. */
#ifndef AUGUR_REC_IO_H
#define AUGUR_REC_IO_H

#include <mpi.h>
#include <stdint.h>

#include "augur/event.h"

/* The id of a file name: xxh3-64 of NAME as given (never 0). */
uint64_t aug_io_name_id(const char *name);
/* Every MPI-IO record has peer AUGUR_PEER_NONE: the helpers below set it. */
/* MPI_File_delete: ev->hash = the name's id. */
void aug_io_deleted(augur_event *ev, const char *name);
/* After a successful MPI_File_open: maps FH to the name's id and COMM's id;
 * fills ev->hash and ev->comm. */
void aug_io_opened(augur_event *ev, const char *name, MPI_Comm comm, MPI_File fh);
/* Any other call on FH: ev->hash = file id, ev->comm = its communicator's id (0, 0 when FH
 * was opened before recording started or is unknown). */
void aug_io_file(augur_event *ev, MPI_File fh);
/* MPI_File_close: as aug_io_file, then forgets FH (call before PMPI_File_close, which sets
 * the handle to MPI_FILE_NULL). */
void aug_io_closing(augur_event *ev, MPI_File fh);
/* A data access of COUNT elements of DT on FH: file fields, and the size in bytes (write:
 * bytes, read: bytes_recv). ST (or NULL: the call returns no status, or it failed) gives the
 * bytes actually moved; without it, COUNT x the type's size. */
void aug_io_data(augur_event *ev, MPI_File fh, int count, MPI_Datatype dt, const MPI_Status *st);
/* MPI_SEEK_SET / CUR / END as enum augur_io_whence. */
uint64_t aug_io_whence(int whence);

#endif
