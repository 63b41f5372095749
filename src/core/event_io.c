/* augur — classes of MPI-IO records (include/augur/mpiio.h). */
#include "augur/mpiio.h"

#define IN(t, a, b) ((t) >= AUGUR_EV_##a && (t) <= AUGUR_EV_##b)

int augur_io_is_data(unsigned t) {
  return IN(t, FILE_READ, FILE_WRITE_ORDERED_END);
}

/* Data types alternate read, write (event.h): blocking 137.., nonblocking 149..,
 * split collectives in begin/end pairs from 159. */
int augur_io_is_read(unsigned t) {
  if (IN(t, FILE_READ, FILE_IWRITE_SHARED)) return (t - AUGUR_EV_FILE_READ) % 2 == 0;
  if (IN(t, FILE_READ_ALL_BEGIN, FILE_WRITE_ORDERED_END))
    return (t - AUGUR_EV_FILE_READ_ALL_BEGIN) % 4 < 2;
  return 0;
}

int augur_io_is_write(unsigned t) {
  return augur_io_is_data(t) && !augur_io_is_read(t);
}

int augur_io_is_nonblocking(unsigned t) {
  return IN(t, FILE_IREAD, FILE_IWRITE_SHARED);
}

int augur_io_is_begin(unsigned t) {
  return IN(t, FILE_READ_ALL_BEGIN, FILE_WRITE_ORDERED_END) &&
         (t - AUGUR_EV_FILE_READ_ALL_BEGIN) % 2 == 0;
}

int augur_io_is_end(unsigned t) {
  return IN(t, FILE_READ_ALL_BEGIN, FILE_WRITE_ORDERED_END) && !augur_io_is_begin(t);
}

int augur_io_is_collective(unsigned t) {
  switch (t) {
  case AUGUR_EV_FILE_OPEN:
  case AUGUR_EV_FILE_CLOSE:
  case AUGUR_EV_FILE_SET_SIZE:
  case AUGUR_EV_FILE_PREALLOCATE:
  case AUGUR_EV_FILE_SYNC:
  case AUGUR_EV_FILE_SET_VIEW:
  case AUGUR_EV_FILE_SEEK_SHARED:
  case AUGUR_EV_FILE_READ_ALL:
  case AUGUR_EV_FILE_WRITE_ALL:
  case AUGUR_EV_FILE_READ_AT_ALL:
  case AUGUR_EV_FILE_WRITE_AT_ALL:
  case AUGUR_EV_FILE_READ_ORDERED:
  case AUGUR_EV_FILE_WRITE_ORDERED:
  case AUGUR_EV_FILE_IREAD_ALL:
  case AUGUR_EV_FILE_IWRITE_ALL:
  case AUGUR_EV_FILE_IREAD_AT_ALL:
  case AUGUR_EV_FILE_IWRITE_AT_ALL:
    return 1;
  default:
    return IN(t, FILE_READ_ALL_BEGIN, FILE_WRITE_ORDERED_END);
  }
}

int augur_io_has_offset(unsigned t) {
  switch (t) {
  case AUGUR_EV_FILE_SET_SIZE:
  case AUGUR_EV_FILE_PREALLOCATE:
  case AUGUR_EV_FILE_SET_VIEW:
  case AUGUR_EV_FILE_SEEK:
  case AUGUR_EV_FILE_SEEK_SHARED:
  case AUGUR_EV_FILE_READ_AT:
  case AUGUR_EV_FILE_WRITE_AT:
  case AUGUR_EV_FILE_READ_AT_ALL:
  case AUGUR_EV_FILE_WRITE_AT_ALL:
  case AUGUR_EV_FILE_IREAD_AT:
  case AUGUR_EV_FILE_IWRITE_AT:
  case AUGUR_EV_FILE_IREAD_AT_ALL:
  case AUGUR_EV_FILE_IWRITE_AT_ALL:
  case AUGUR_EV_FILE_READ_AT_ALL_BEGIN:
  case AUGUR_EV_FILE_WRITE_AT_ALL_BEGIN:
    return 1;
  default:
    return 0;
  }
}

int augur_io_is_completion(const augur_event *e) {
  /* the reader gives it the starting File_i* call's type in tag */
  return e->type == AUGUR_EV_COMPLETION && e->tag >= 0 &&
         augur_io_is_nonblocking((unsigned)e->tag) &&
         !(e->flags & (AUGUR_F_SENDREQ | AUGUR_F_RECVREQ | AUGUR_F_COLLREQ | AUGUR_F_UNMATCHED));
}

uint64_t augur_io_bytes(const augur_event *e) {
  if (augur_io_is_completion(e)) return e->bytes + e->bytes_recv;
  if (!augur_io_is_data(e->type) || augur_io_is_begin(e->type) || augur_io_is_nonblocking(e->type))
    return 0;
  return e->bytes + e->bytes_recv;
}

void augur_io_describe(FILE *f, const augur_event *e) {
  fprintf(f, "  file %08llx", (unsigned long long)(e->hash >> 32));
  if (augur_io_has_offset(e->type)) fprintf(f, " offset %lld", (long long)augur_io_offset(e));
}
