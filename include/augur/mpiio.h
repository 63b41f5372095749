/* augur — classes and fields of MPI-IO records (AUGUR_IO_EVENT_TYPES,
 * types 128..170). Field meaning: docs/trace-format.md, "MPI-IO records":
 *
 *   hash      the file id: xxh3-64 of the name given to MPI_File_open /
 *             MPI_File_delete (never 0; never a payload fingerprint)
 *   comm      the communicator the file was opened on (0 for File_delete)
 *   req       I* calls: the request (its COMPLETION pairs with it, as for
 *             Isend); File_seek(_shared): whence (enum augur_io_whence); else 0
 *   tag, aux  the call's explicit offset or size (augur_io_offset)
 *   bytes     bytes written, bytes_recv bytes read (augur_io_bytes) */
#ifndef AUGUR_MPIIO_H
#define AUGUR_MPIIO_H

#include <stdint.h>
#include <stdio.h>

#include "augur/api.h"
#include "augur/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* File_seek / File_seek_shared whence, in `req` (augur's values, not the MPI library's). */
enum augur_io_whence { AUGUR_IO_SEEK_SET = 0, AUGUR_IO_SEEK_CUR = 1, AUGUR_IO_SEEK_END = 2 };

/* The explicit offset (*_at*, in etype units of the view, as passed), File_seek's offset,
 * File_set_size / File_preallocate's size or File_set_view's displacement (bytes): aux holds
 * the high 32 bits, tag the low 32 bits. */
static inline int64_t augur_io_offset(const augur_event *e) {
  return (int64_t)((uint64_t)e->aux << 32 | (uint32_t)e->tag);
}
static inline void augur_io_set_offset(augur_event *e, int64_t off) {
  e->tag = (int32_t)(uint32_t)((uint64_t)off & 0xffffffffu);
  e->aux = (uint32_t)((uint64_t)off >> 32);
}

AUGUR_API int augur_io_is_data(unsigned type);        /* reads and writes of every kind */
AUGUR_API int augur_io_is_read(unsigned type);        /* File_read*, File_iread* */
AUGUR_API int augur_io_is_write(unsigned type);       /* File_write*, File_iwrite* */
AUGUR_API int augur_io_is_nonblocking(unsigned type); /* File_iread*, File_iwrite* */
AUGUR_API int augur_io_is_collective(unsigned type);  /* _all, _ordered (and their split forms),
                                                         open, close, set_size, preallocate,
                                                         sync, set_view, seek_shared */
AUGUR_API int augur_io_is_begin(unsigned type);       /* split collective *_begin */
AUGUR_API int augur_io_is_end(unsigned type);         /* split collective *_end */
AUGUR_API int augur_io_has_offset(unsigned type);     /* augur_io_offset is meaningful */
/* A COMPLETION (from the reader) of an MPI-IO request: none of F_SENDREQ, F_RECVREQ,
 * F_COLLREQ, F_UNMATCHED. Its hash is the file id. */
AUGUR_API int augur_io_is_completion(const augur_event *e);
/* Bytes the record moved, written + read, counted once per transfer: blocking calls and
 * split *_end (their status), COMPLETIONs of File_i* requests (theirs); 0 for File_i* and
 * *_begin records (their sizes are the requested ones) and every other record. */
AUGUR_API uint64_t augur_io_bytes(const augur_event *e);
/* Prints "  file XXXXXXXX" (the id's high 32 bits in hex, as `augur dump` shows hashed
 * ids) and, where the type has one, " offset N" to f. */
AUGUR_API void augur_io_describe(FILE *f, const augur_event *e);

#ifdef __cplusplus
}
#endif
#endif
