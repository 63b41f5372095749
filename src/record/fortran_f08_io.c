/* augur recorder — the Fortran 2008 bindings (`use mpi_f08`) of the MPI-IO
 * calls that fortran_io.c records for `use mpi`. Each converts its arguments
 * to the `mpi` form and calls the recorder's `mpi` spelling after handing
 * over the application's call site (fortran_f08.h), so both record the same.
 *
 * CHARACTER arguments (File_open's and File_delete's name, File_set_view's
 * datarep) keep their hidden length after ierror in the f08 procedures too
 * (they are Fortran procedures in both libraries, and the optional ierror is
 * still passed, as NULL when absent). The buffer of a split collective's
 * *_begin stays in use until its *_end, like a nonblocking call's: with
 * MPICH a non-contiguous section there goes to MPICH's own entry
 * (fortran_f08.h). */
#include "fortran_f08.h"

typedef MPI_Offset F_OFF;

/* ---- File_open, File_close, File_delete, and the calls without a buffer ---- */

F08_DEF(file_open,
        (F_INT * comm, char *name, F_INT *amode, F_INT *info, F_INT *fh, F_INT *ierr, size_t len),
        (comm, name, amode, info, fh, F08_IERRP, len))
F08(file_close, (F_INT * fh, F_INT *ierr), (fh))
F08_DEF(file_delete, (char *name, F_INT *info, F_INT *ierr, size_t len),
        (name, info, F08_IERRP, len))
F08(file_sync, (F_INT * fh, F_INT *ierr), (fh))
F08(file_set_size, (F_INT * fh, F_OFF *off, F_INT *ierr), (fh, off))
F08(file_preallocate, (F_INT * fh, F_OFF *off, F_INT *ierr), (fh, off))
F08(file_seek, (F_INT * fh, F_OFF *off, F_INT *whence, F_INT *ierr), (fh, off, whence))
F08(file_seek_shared, (F_INT * fh, F_OFF *off, F_INT *whence, F_INT *ierr), (fh, off, whence))
F08_DEF(file_set_view,
        (F_INT * fh, F_OFF *disp, F_INT *etype, F_INT *ftype, char *rep, F_INT *info, F_INT *ierr,
         size_t len),
        (fh, disp, etype, ftype, rep, info, F08_IERRP, len))

/* ---- data access: blocking (a status), nonblocking (a request) ---- */

#define F08_READ(fn)                                                                               \
  F08TS_B(fn, (F_INT * fh, void *buf, F_INT *count, F_INT *dt, F_INT *st, F_INT *ierr), (NULL),    \
          (buf), (fh, buf, count, dt, st), (fh, F08_B(buf), count, dt, F08_ST(st)))
#define F08_WRITE(fn)                                                                              \
  F08TS_B(fn, (F_INT * fh, void *buf, F_INT *count, F_INT *dt, F_INT *st, F_INT *ierr), (buf),     \
          (NULL), (fh, buf, count, dt, st), (fh, F08_B(buf), count, dt, F08_ST(st)))
#define F08_READ_AT(fn)                                                                            \
  F08TS_B(                                                                                         \
      fn, (F_INT * fh, F_OFF * off, void *buf, F_INT *count, F_INT *dt, F_INT *st, F_INT *ierr),   \
      (NULL), (buf), (fh, off, buf, count, dt, st), (fh, off, F08_B(buf), count, dt, F08_ST(st)))
#define F08_WRITE_AT(fn)                                                                           \
  F08TS_B(                                                                                         \
      fn, (F_INT * fh, F_OFF * off, void *buf, F_INT *count, F_INT *dt, F_INT *st, F_INT *ierr),   \
      (buf), (NULL), (fh, off, buf, count, dt, st), (fh, off, F08_B(buf), count, dt, F08_ST(st)))
#define F08_IRW(fn)                                                                                \
  F08TS(fn, (F_INT * fh, void *buf, F_INT *count, F_INT *dt, F_INT *req, F_INT *ierr), (buf),      \
        (fh, buf, count, dt, req), (fh, F08_B(buf), count, dt, req))
#define F08_IRW_AT(fn)                                                                             \
  F08TS(fn,                                                                                        \
        (F_INT * fh, F_OFF * off, void *buf, F_INT *count, F_INT *dt, F_INT *req, F_INT *ierr),    \
        (buf), (fh, off, buf, count, dt, req), (fh, off, F08_B(buf), count, dt, req))

F08_READ(file_read)
F08_WRITE(file_write)
F08_READ(file_read_all)
F08_WRITE(file_write_all)
F08_READ_AT(file_read_at)
F08_WRITE_AT(file_write_at)
F08_READ_AT(file_read_at_all)
F08_WRITE_AT(file_write_at_all)
F08_READ(file_read_shared)
F08_WRITE(file_write_shared)
F08_READ(file_read_ordered)
F08_WRITE(file_write_ordered)
F08_IRW(file_iread)
F08_IRW(file_iwrite)
F08_IRW_AT(file_iread_at)
F08_IRW_AT(file_iwrite_at)
F08_IRW(file_iread_all)
F08_IRW(file_iwrite_all)
F08_IRW_AT(file_iread_at_all)
F08_IRW_AT(file_iwrite_at_all)
F08_IRW(file_iread_shared)
F08_IRW(file_iwrite_shared)

/* ---- split collectives ---- */

#define F08_BEGIN(fn)                                                                              \
  F08TS(fn, (F_INT * fh, void *buf, F_INT *count, F_INT *dt, F_INT *ierr), (buf),                  \
        (fh, buf, count, dt), (fh, F08_B(buf), count, dt))
#define F08_BEGIN_AT(fn)                                                                           \
  F08TS(fn, (F_INT * fh, F_OFF * off, void *buf, F_INT *count, F_INT *dt, F_INT *ierr), (buf),     \
        (fh, off, buf, count, dt), (fh, off, F08_B(buf), count, dt))
#define F08_END(fn)                                                                                \
  F08TS(fn, (F_INT * fh, void *buf, F_INT *st, F_INT *ierr), (buf), (fh, buf, st),                 \
        (fh, F08_B(buf), F08_ST(st)))

F08_BEGIN(file_read_all_begin)
F08_END(file_read_all_end)
F08_BEGIN(file_write_all_begin)
F08_END(file_write_all_end)
F08_BEGIN_AT(file_read_at_all_begin)
F08_END(file_read_at_all_end)
F08_BEGIN_AT(file_write_at_all_begin)
F08_END(file_write_at_all_end)
F08_BEGIN(file_read_ordered_begin)
F08_END(file_read_ordered_end)
F08_BEGIN(file_write_ordered_begin)
F08_END(file_write_ordered_end)
