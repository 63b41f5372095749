/* augur recorder — MPI-IO wrappers (MPI_File_*). Field meaning:
 * include/augur/mpiio.h and docs/trace-format.md "MPI-IO records".
 *
 * The MPI library's I/O layer (ROMIO in MPICH, OMPIO in Open MPI) communicates
 * inside these calls through internal or PMPI_ entries, not our MPI_ symbols
 * (measured: docs/trace-format.md "MPI-IO records"); were it to call an MPI_
 * function, the nesting rule of rec.h would pass it through unrecorded. */
#include "augur/mpiio.h"
#include "rec_io.h"
#include "wrap.h"

AUGUR_API int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info,
                            MPI_File *fh) {
  AUG_WRAP(AUGUR_EV_FILE_OPEN, PMPI_File_open(comm, name, amode, info, fh));
  aug_io_opened(ev, name, comm, rc == MPI_SUCCESS ? *fh : MPI_FILE_NULL);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_File_close(MPI_File *fh) {
  MPI_File h = *fh;
  AUG_WRAP(AUGUR_EV_FILE_CLOSE, PMPI_File_close(fh));
  aug_io_closing(ev, h);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_File_delete(const char *name, MPI_Info info) {
  AUG_WRAP(AUGUR_EV_FILE_DELETE, PMPI_File_delete(name, info));
  aug_io_deleted(ev, name);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_File_sync(MPI_File fh) {
  AUG_WRAP(AUGUR_EV_FILE_SYNC, PMPI_File_sync(fh));
  aug_io_file(ev, fh);
  aug_rec_commit_in(ev);
  return rc;
}

/* Calls with a size or displacement: it goes where an offset goes. */
#define IO_SIZE_WRAPPER(NAME, TYPE)                                                                \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, MPI_Offset size) {                                    \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, size));                                         \
    aug_io_file(ev, fh);                                                                           \
    augur_io_set_offset(ev, size);                                                                 \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_SIZE_WRAPPER(set_size, FILE_SET_SIZE)
IO_SIZE_WRAPPER(preallocate, FILE_PREALLOCATE)

AUGUR_API int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                                MPI_Datatype filetype, const char *datarep, MPI_Info info) {
  AUG_WRAP(AUGUR_EV_FILE_SET_VIEW, PMPI_File_set_view(fh, disp, etype, filetype, datarep, info));
  aug_io_file(ev, fh);
  augur_io_set_offset(ev, disp);
  aug_rec_commit_in(ev);
  return rc;
}

#define IO_SEEK_WRAPPER(NAME, TYPE)                                                                \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, MPI_Offset off, int whence) {                         \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, off, whence));                                  \
    aug_io_file(ev, fh);                                                                           \
    augur_io_set_offset(ev, off);                                                                  \
    ev->req = aug_io_whence(whence);                                                               \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_SEEK_WRAPPER(seek, FILE_SEEK)
IO_SEEK_WRAPPER(seek_shared, FILE_SEEK_SHARED)

/* Blocking data access through the file pointers: bytes from the status. */
#define IO_RW_WRAPPER(NAME, TYPE, CONST)                                                           \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype dt,          \
                                MPI_Status *status) {                                              \
    AUG_STATUS(st, status);                                                                        \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, buf, count, dt, st));                           \
    aug_io_data(ev, fh, count, dt, rc == MPI_SUCCESS ? st : NULL);                                 \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_RW_WRAPPER(read, FILE_READ, )
IO_RW_WRAPPER(write, FILE_WRITE, const)
IO_RW_WRAPPER(read_all, FILE_READ_ALL, )
IO_RW_WRAPPER(write_all, FILE_WRITE_ALL, const)
IO_RW_WRAPPER(read_shared, FILE_READ_SHARED, )
IO_RW_WRAPPER(write_shared, FILE_WRITE_SHARED, const)
IO_RW_WRAPPER(read_ordered, FILE_READ_ORDERED, )
IO_RW_WRAPPER(write_ordered, FILE_WRITE_ORDERED, const)

/* Blocking data access at an explicit offset. */
#define IO_RW_AT_WRAPPER(NAME, TYPE, CONST)                                                        \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, MPI_Offset off, CONST void *buf, int count,           \
                                MPI_Datatype dt, MPI_Status *status) {                             \
    AUG_STATUS(st, status);                                                                        \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, off, buf, count, dt, st));                      \
    aug_io_data(ev, fh, count, dt, rc == MPI_SUCCESS ? st : NULL);                                 \
    augur_io_set_offset(ev, off);                                                                  \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_RW_AT_WRAPPER(read_at, FILE_READ_AT, )
IO_RW_AT_WRAPPER(write_at, FILE_WRITE_AT, const)
IO_RW_AT_WRAPPER(read_at_all, FILE_READ_AT_ALL, )
IO_RW_AT_WRAPPER(write_at_all, FILE_WRITE_AT_ALL, const)

/* Nonblocking: the requested size; req = the request, completed by Wait/Test
 * like any other (a COMPLETION sub-record). */
#define IO_I_WRAPPER(NAME, TYPE, CONST)                                                            \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype dt,          \
                                MPI_Request *req) {                                                \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, buf, count, dt, req));                          \
    aug_io_data(ev, fh, count, dt, NULL);                                                          \
    ev->req = aug_req_id(*req);                                                                    \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_I_WRAPPER(iread, FILE_IREAD, )
IO_I_WRAPPER(iwrite, FILE_IWRITE, const)
IO_I_WRAPPER(iread_all, FILE_IREAD_ALL, )
IO_I_WRAPPER(iwrite_all, FILE_IWRITE_ALL, const)
IO_I_WRAPPER(iread_shared, FILE_IREAD_SHARED, )
IO_I_WRAPPER(iwrite_shared, FILE_IWRITE_SHARED, const)

#define IO_I_AT_WRAPPER(NAME, TYPE, CONST)                                                         \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, MPI_Offset off, CONST void *buf, int count,           \
                                MPI_Datatype dt, MPI_Request *req) {                               \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, off, buf, count, dt, req));                     \
    aug_io_data(ev, fh, count, dt, NULL);                                                          \
    augur_io_set_offset(ev, off);                                                                  \
    ev->req = aug_req_id(*req);                                                                    \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_I_AT_WRAPPER(iread_at, FILE_IREAD_AT, )
IO_I_AT_WRAPPER(iwrite_at, FILE_IWRITE_AT, const)
IO_I_AT_WRAPPER(iread_at_all, FILE_IREAD_AT_ALL, )
IO_I_AT_WRAPPER(iwrite_at_all, FILE_IWRITE_AT_ALL, const)

/* Split collectives: *_begin carries the requested size, *_end the bytes its
 * status says were moved. */
#define IO_BEGIN_WRAPPER(NAME, TYPE, CONST)                                                        \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype dt) {        \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, buf, count, dt));                               \
    aug_io_data(ev, fh, count, dt, NULL);                                                          \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_BEGIN_WRAPPER(read_all_begin, FILE_READ_ALL_BEGIN, )
IO_BEGIN_WRAPPER(write_all_begin, FILE_WRITE_ALL_BEGIN, const)
IO_BEGIN_WRAPPER(read_ordered_begin, FILE_READ_ORDERED_BEGIN, )
IO_BEGIN_WRAPPER(write_ordered_begin, FILE_WRITE_ORDERED_BEGIN, const)

#define IO_BEGIN_AT_WRAPPER(NAME, TYPE, CONST)                                                     \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, MPI_Offset off, CONST void *buf, int count,           \
                                MPI_Datatype dt) {                                                 \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, off, buf, count, dt));                          \
    aug_io_data(ev, fh, count, dt, NULL);                                                          \
    augur_io_set_offset(ev, off);                                                                  \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_BEGIN_AT_WRAPPER(read_at_all_begin, FILE_READ_AT_ALL_BEGIN, )
IO_BEGIN_AT_WRAPPER(write_at_all_begin, FILE_WRITE_AT_ALL_BEGIN, const)

#define IO_END_WRAPPER(NAME, TYPE, CONST)                                                          \
  AUGUR_API int MPI_File_##NAME(MPI_File fh, CONST void *buf, MPI_Status *status) {                \
    AUG_STATUS(st, status);                                                                        \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_File_##NAME(fh, buf, st));                                      \
    aug_io_data(ev, fh, 0, MPI_DATATYPE_NULL, rc == MPI_SUCCESS ? st : NULL);                      \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IO_END_WRAPPER(read_all_end, FILE_READ_ALL_END, )
IO_END_WRAPPER(write_all_end, FILE_WRITE_ALL_END, const)
IO_END_WRAPPER(read_at_all_end, FILE_READ_AT_ALL_END, )
IO_END_WRAPPER(write_at_all_end, FILE_WRITE_AT_ALL_END, const)
IO_END_WRAPPER(read_ordered_end, FILE_READ_ORDERED_END, )
IO_END_WRAPPER(write_ordered_end, FILE_WRITE_ORDERED_END, const)
