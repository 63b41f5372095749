/* augur recorder — Fortran bindings (mpif.h, `use mpi`) of the MPI-IO calls.
 * Same records as wrap_io.c (see fortran_wrap.h for the scheme). Offsets are
 * INTEGER(KIND=MPI_OFFSET_KIND), i.e. MPI_Offset. File names and datarep are
 * CHARACTER arguments: their lengths come as hidden trailing size_t
 * arguments (gfortran's convention, also right for callees that read an
 * int there on x86-64), passed on unchanged; the name's id is taken over the
 * name without its trailing blanks, as the library opens it, so C and
 * Fortran opens of one file agree. */
#include <string.h>

#include "augur/mpiio.h"
#include "fortran_wrap.h"
#include "rec_io.h"

typedef MPI_Offset F_OFF;

/* NAME (LEN characters, blank padded) as a C string in out (truncated to fit). */
static const char *f_name(const char *name, size_t len, char *out, size_t cap) {
  while (len > 0 && name[len - 1] == ' ')
    len--;
  if (len >= cap) len = cap - 1;
  memcpy(out, name, len);
  out[len] = '\0';
  return out;
}

/* ---- File_open, File_close, File_delete ---- */

typedef void (*open_fn)(F_INT *, char *, F_INT *, F_INT *, F_INT *, F_INT *, size_t);
static aug_f_slot s_open = AUG_F_SLOT(mpi_file_open);

static void f_open(const void *caller, F_INT *comm, char *name, F_INT *amode, F_INT *info,
                   F_INT *fh, F_INT *ierr, size_t len) {
  open_fn real = (open_fn)aug_f_real(&s_open);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_FILE_OPEN, caller)) {
    real(comm, name, amode, info, fh, ierr, len);
    return;
  }
  real(comm, name, amode, info, fh, ierr, len);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  char cname[AUG_PATH_MAX];
  aug_io_opened(&ev, f_name(name, len, cname, sizeof cname), PMPI_Comm_f2c(*comm),
                *ierr == MPI_SUCCESS ? PMPI_File_f2c(*fh) : MPI_FILE_NULL);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_file_open, MPI_FILE_OPEN,
                (F_INT * comm, char *name, F_INT *amode, F_INT *info, F_INT *fh, F_INT *ierr,
                 size_t len),
                f_open(AUG_CALLER(), comm, name, amode, info, fh, ierr, len))

typedef void (*close_fn)(F_INT *, F_INT *);
static aug_f_slot s_close = AUG_F_SLOT(mpi_file_close);

static void f_close(const void *caller, F_INT *fh, F_INT *ierr) {
  close_fn real = (close_fn)aug_f_real(&s_close);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_FILE_CLOSE, caller)) {
    real(fh, ierr);
    return;
  }
  MPI_File h = PMPI_File_f2c(*fh);
  real(fh, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_io_closing(&ev, h);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_file_close, MPI_FILE_CLOSE, (F_INT * fh, F_INT *ierr),
                f_close(AUG_CALLER(), fh, ierr))

typedef void (*delete_fn)(char *, F_INT *, F_INT *, size_t);
static aug_f_slot s_delete = AUG_F_SLOT(mpi_file_delete);

static void f_delete(const void *caller, char *name, F_INT *info, F_INT *ierr, size_t len) {
  delete_fn real = (delete_fn)aug_f_real(&s_delete);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_FILE_DELETE, caller)) {
    real(name, info, ierr, len);
    return;
  }
  real(name, info, ierr, len);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  char cname[AUG_PATH_MAX];
  aug_io_deleted(&ev, f_name(name, len, cname, sizeof cname));
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_file_delete, MPI_FILE_DELETE,
                (char *name, F_INT *info, F_INT *ierr, size_t len),
                f_delete(AUG_CALLER(), name, info, ierr, len))

/* ---- File_sync, File_set_size, File_preallocate, File_seek(_shared), File_set_view ---- */

typedef void (*sync_fn)(F_INT *, F_INT *);
static aug_f_slot s_sync = AUG_F_SLOT(mpi_file_sync);

static void f_sync(const void *caller, F_INT *fh, F_INT *ierr) {
  sync_fn real = (sync_fn)aug_f_real(&s_sync);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_FILE_SYNC, caller)) {
    real(fh, ierr);
    return;
  }
  real(fh, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_io_file(&ev, PMPI_File_f2c(*fh));
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_file_sync, MPI_FILE_SYNC, (F_INT * fh, F_INT *ierr),
                f_sync(AUG_CALLER(), fh, ierr))

/* set_size, preallocate (whence NULL) and seek, seek_shared. */
typedef void (*size_fn)(F_INT *, F_OFF *, F_INT *);
typedef void (*seek_fn)(F_INT *, F_OFF *, F_INT *, F_INT *);

static void f_size(const void *caller, unsigned type, aug_f_slot *slot, F_INT *fh, F_OFF *off,
                   F_INT *whence, F_INT *ierr) {
  aug_f_fn real = aug_f_real(slot);
  augur_event ev;
  int rec = aug_rec_enter(&ev, type, caller);
  if (whence)
    AUG_F_CALL(seek_fn, real, fh, off, whence, ierr);
  else
    AUG_F_CALL(size_fn, real, fh, off, ierr);
  if (!rec) return;
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_io_file(&ev, PMPI_File_f2c(*fh));
  augur_io_set_offset(&ev, *off);
  if (whence) ev.req = aug_io_whence(*whence);
  aug_rec_commit(&ev);
}

#define F_SIZE(lower, UPPER, EV)                                                                   \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(lower, UPPER, (F_INT * fh, F_OFF * off, F_INT * ierr),                           \
                  f_size(AUG_CALLER(), EV, &s_##lower, fh, off, NULL, ierr))
#define F_SEEK(lower, UPPER, EV)                                                                   \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(lower, UPPER, (F_INT * fh, F_OFF * off, F_INT * whence, F_INT * ierr),           \
                  f_size(AUG_CALLER(), EV, &s_##lower, fh, off, whence, ierr))

F_SIZE(mpi_file_set_size, MPI_FILE_SET_SIZE, AUGUR_EV_FILE_SET_SIZE)
F_SIZE(mpi_file_preallocate, MPI_FILE_PREALLOCATE, AUGUR_EV_FILE_PREALLOCATE)
F_SEEK(mpi_file_seek, MPI_FILE_SEEK, AUGUR_EV_FILE_SEEK)
F_SEEK(mpi_file_seek_shared, MPI_FILE_SEEK_SHARED, AUGUR_EV_FILE_SEEK_SHARED)

typedef void (*view_fn)(F_INT *, F_OFF *, F_INT *, F_INT *, char *, F_INT *, F_INT *, size_t);
static aug_f_slot s_view = AUG_F_SLOT(mpi_file_set_view);

static void f_view(const void *caller, F_INT *fh, F_OFF *disp, F_INT *etype, F_INT *ftype,
                   char *rep, F_INT *info, F_INT *ierr, size_t len) {
  view_fn real = (view_fn)aug_f_real(&s_view);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_FILE_SET_VIEW, caller)) {
    real(fh, disp, etype, ftype, rep, info, ierr, len);
    return;
  }
  real(fh, disp, etype, ftype, rep, info, ierr, len);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_io_file(&ev, PMPI_File_f2c(*fh));
  augur_io_set_offset(&ev, *disp);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_file_set_view, MPI_FILE_SET_VIEW,
                (F_INT * fh, F_OFF *disp, F_INT *etype, F_INT *ftype, char *rep, F_INT *info,
                 F_INT *ierr, size_t len),
                f_view(AUG_CALLER(), fh, disp, etype, ftype, rep, info, ierr, len))

/* ---- data access ----
 * One implementation for every shape: OFF (NULL: no explicit offset), COUNT and DT (NULL: a
 * split *_end), ST (a status: blocking, *_end), REQ (I*). */
typedef void (*rw_fn)(F_INT *, void *, F_INT *, F_INT *, F_INT *, F_INT *);
typedef void (*rw_at_fn)(F_INT *, F_OFF *, void *, F_INT *, F_INT *, F_INT *, F_INT *);
typedef void (*begin_fn)(F_INT *, void *, F_INT *, F_INT *, F_INT *);
typedef void (*begin_at_fn)(F_INT *, F_OFF *, void *, F_INT *, F_INT *, F_INT *);
typedef void (*end_fn)(F_INT *, void *, F_INT *, F_INT *);

enum { SHAPE_STATUS, SHAPE_REQ, SHAPE_BEGIN, SHAPE_END };

static void f_data(const void *caller, unsigned type, int shape, aug_f_slot *slot, F_INT *fh,
                   F_OFF *off, void *buf, F_INT *count, F_INT *dt, F_INT *st_or_req, F_INT *ierr) {
  aug_f_fn real = aug_f_real(slot);
  augur_event ev;
  int rec = aug_rec_enter(&ev, type, caller);
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *x = st_or_req;
  if (rec && (shape == SHAPE_STATUS || shape == SHAPE_END)) x = aug_f_status_or(x, scratch);
  if (shape == SHAPE_END)
    AUG_F_CALL(end_fn, real, fh, buf, x, ierr);
  else if (shape == SHAPE_BEGIN && off)
    AUG_F_CALL(begin_at_fn, real, fh, off, buf, count, dt, ierr);
  else if (shape == SHAPE_BEGIN)
    AUG_F_CALL(begin_fn, real, fh, buf, count, dt, ierr);
  else if (off)
    AUG_F_CALL(rw_at_fn, real, fh, off, buf, count, dt, x, ierr);
  else
    AUG_F_CALL(rw_fn, real, fh, buf, count, dt, x, ierr);
  if (!rec) return;
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  MPI_Status cst;
  int has_st = (shape == SHAPE_STATUS || shape == SHAPE_END) && *ierr == MPI_SUCCESS;
  if (has_st) aug_f_status_c(x, &cst);
  aug_io_data(&ev, PMPI_File_f2c(*fh), count ? *count : 0,
              dt ? PMPI_Type_f2c(*dt) : MPI_DATATYPE_NULL, has_st ? &cst : NULL);
  if (off) augur_io_set_offset(&ev, *off);
  if (shape == SHAPE_REQ) ev.req = aug_req_id(PMPI_Request_f2c(*x));
  aug_rec_commit(&ev);
}

#define F_RW(lower, UPPER, EV, SHAPE)                                                              \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(lower, UPPER,                                                                    \
                  (F_INT * fh, void *buf, F_INT *count, F_INT *dt, F_INT *x, F_INT *ierr),         \
                  f_data(AUG_CALLER(), EV, SHAPE, &s_##lower, fh, NULL, buf, count, dt, x, ierr))
#define F_RW_AT(lower, UPPER, EV, SHAPE)                                                           \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(                                                                                 \
      lower, UPPER,                                                                                \
      (F_INT * fh, F_OFF * off, void *buf, F_INT *count, F_INT *dt, F_INT *x, F_INT *ierr),        \
      f_data(AUG_CALLER(), EV, SHAPE, &s_##lower, fh, off, buf, count, dt, x, ierr))
#define F_BEGIN(lower, UPPER, EV)                                                                  \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(                                                                                 \
      lower, UPPER, (F_INT * fh, void *buf, F_INT *count, F_INT *dt, F_INT *ierr),                 \
      f_data(AUG_CALLER(), EV, SHAPE_BEGIN, &s_##lower, fh, NULL, buf, count, dt, NULL, ierr))
#define F_BEGIN_AT(lower, UPPER, EV)                                                               \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(                                                                                 \
      lower, UPPER, (F_INT * fh, F_OFF * off, void *buf, F_INT *count, F_INT *dt, F_INT *ierr),    \
      f_data(AUG_CALLER(), EV, SHAPE_BEGIN, &s_##lower, fh, off, buf, count, dt, NULL, ierr))
#define F_END(lower, UPPER, EV)                                                                    \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(                                                                                 \
      lower, UPPER, (F_INT * fh, void *buf, F_INT *st, F_INT *ierr),                               \
      f_data(AUG_CALLER(), EV, SHAPE_END, &s_##lower, fh, NULL, buf, NULL, NULL, st, ierr))

F_RW(mpi_file_read, MPI_FILE_READ, AUGUR_EV_FILE_READ, SHAPE_STATUS)
F_RW(mpi_file_write, MPI_FILE_WRITE, AUGUR_EV_FILE_WRITE, SHAPE_STATUS)
F_RW(mpi_file_read_all, MPI_FILE_READ_ALL, AUGUR_EV_FILE_READ_ALL, SHAPE_STATUS)
F_RW(mpi_file_write_all, MPI_FILE_WRITE_ALL, AUGUR_EV_FILE_WRITE_ALL, SHAPE_STATUS)
F_RW_AT(mpi_file_read_at, MPI_FILE_READ_AT, AUGUR_EV_FILE_READ_AT, SHAPE_STATUS)
F_RW_AT(mpi_file_write_at, MPI_FILE_WRITE_AT, AUGUR_EV_FILE_WRITE_AT, SHAPE_STATUS)
F_RW_AT(mpi_file_read_at_all, MPI_FILE_READ_AT_ALL, AUGUR_EV_FILE_READ_AT_ALL, SHAPE_STATUS)
F_RW_AT(mpi_file_write_at_all, MPI_FILE_WRITE_AT_ALL, AUGUR_EV_FILE_WRITE_AT_ALL, SHAPE_STATUS)
F_RW(mpi_file_read_shared, MPI_FILE_READ_SHARED, AUGUR_EV_FILE_READ_SHARED, SHAPE_STATUS)
F_RW(mpi_file_write_shared, MPI_FILE_WRITE_SHARED, AUGUR_EV_FILE_WRITE_SHARED, SHAPE_STATUS)
F_RW(mpi_file_read_ordered, MPI_FILE_READ_ORDERED, AUGUR_EV_FILE_READ_ORDERED, SHAPE_STATUS)
F_RW(mpi_file_write_ordered, MPI_FILE_WRITE_ORDERED, AUGUR_EV_FILE_WRITE_ORDERED, SHAPE_STATUS)
F_RW(mpi_file_iread, MPI_FILE_IREAD, AUGUR_EV_FILE_IREAD, SHAPE_REQ)
F_RW(mpi_file_iwrite, MPI_FILE_IWRITE, AUGUR_EV_FILE_IWRITE, SHAPE_REQ)
F_RW_AT(mpi_file_iread_at, MPI_FILE_IREAD_AT, AUGUR_EV_FILE_IREAD_AT, SHAPE_REQ)
F_RW_AT(mpi_file_iwrite_at, MPI_FILE_IWRITE_AT, AUGUR_EV_FILE_IWRITE_AT, SHAPE_REQ)
F_RW(mpi_file_iread_all, MPI_FILE_IREAD_ALL, AUGUR_EV_FILE_IREAD_ALL, SHAPE_REQ)
F_RW(mpi_file_iwrite_all, MPI_FILE_IWRITE_ALL, AUGUR_EV_FILE_IWRITE_ALL, SHAPE_REQ)
F_RW_AT(mpi_file_iread_at_all, MPI_FILE_IREAD_AT_ALL, AUGUR_EV_FILE_IREAD_AT_ALL, SHAPE_REQ)
F_RW_AT(mpi_file_iwrite_at_all, MPI_FILE_IWRITE_AT_ALL, AUGUR_EV_FILE_IWRITE_AT_ALL, SHAPE_REQ)
F_RW(mpi_file_iread_shared, MPI_FILE_IREAD_SHARED, AUGUR_EV_FILE_IREAD_SHARED, SHAPE_REQ)
F_RW(mpi_file_iwrite_shared, MPI_FILE_IWRITE_SHARED, AUGUR_EV_FILE_IWRITE_SHARED, SHAPE_REQ)
F_BEGIN(mpi_file_read_all_begin, MPI_FILE_READ_ALL_BEGIN, AUGUR_EV_FILE_READ_ALL_BEGIN)
F_END(mpi_file_read_all_end, MPI_FILE_READ_ALL_END, AUGUR_EV_FILE_READ_ALL_END)
F_BEGIN(mpi_file_write_all_begin, MPI_FILE_WRITE_ALL_BEGIN, AUGUR_EV_FILE_WRITE_ALL_BEGIN)
F_END(mpi_file_write_all_end, MPI_FILE_WRITE_ALL_END, AUGUR_EV_FILE_WRITE_ALL_END)
F_BEGIN_AT(mpi_file_read_at_all_begin, MPI_FILE_READ_AT_ALL_BEGIN, AUGUR_EV_FILE_READ_AT_ALL_BEGIN)
F_END(mpi_file_read_at_all_end, MPI_FILE_READ_AT_ALL_END, AUGUR_EV_FILE_READ_AT_ALL_END)
F_BEGIN_AT(mpi_file_write_at_all_begin, MPI_FILE_WRITE_AT_ALL_BEGIN,
           AUGUR_EV_FILE_WRITE_AT_ALL_BEGIN)
F_END(mpi_file_write_at_all_end, MPI_FILE_WRITE_AT_ALL_END, AUGUR_EV_FILE_WRITE_AT_ALL_END)
F_BEGIN(mpi_file_read_ordered_begin, MPI_FILE_READ_ORDERED_BEGIN, AUGUR_EV_FILE_READ_ORDERED_BEGIN)
F_END(mpi_file_read_ordered_end, MPI_FILE_READ_ORDERED_END, AUGUR_EV_FILE_READ_ORDERED_END)
F_BEGIN(mpi_file_write_ordered_begin, MPI_FILE_WRITE_ORDERED_BEGIN,
        AUGUR_EV_FILE_WRITE_ORDERED_BEGIN)
F_END(mpi_file_write_ordered_end, MPI_FILE_WRITE_ORDERED_END, AUGUR_EV_FILE_WRITE_ORDERED_END)
