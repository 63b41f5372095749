/* augur recorder — MPI-IO file handles to file ids (rec_io.h).
 *
 * A file's id is the xxh3-64 hash of its name as the application gave it, so
 * every rank and every open of one name agree without messages, and
 * MPI_File_delete of that name gets the same id. Handles map to (id, comm id)
 * in one aug_u64map under a mutex: file calls cost microseconds at least, a
 * lock is noise there. MPI reuses handles after MPI_File_close: closing
 * clears the entry and the next open overwrites it. */
#include <pthread.h>
#include <string.h>
#include <xxhash.h>

#include "augur/mpiio.h"
#include "grow.h"
#include "rec_internal.h"
#include "rec_io.h"
#include "u64map.h"

typedef struct io_file {
  uint64_t id, comm;
} io_file;

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static aug_u64map io_handles; /* handle -> index + 1 in io_files (0: closed) */
static io_file *io_files;
static size_t io_nfiles, io_cap;
static aug_u64map io_named; /* ids whose name this rank defined */

static uint64_t handle_key(MPI_File fh) {
  uint64_t k = 0;
  memcpy(&k, &fh, sizeof fh < sizeof k ? sizeof fh : sizeof k);
  return k;
}

uint64_t aug_io_name_id(const char *name) {
  if (!name) return 0;
  uint64_t id = XXH3_64bits(name, strlen(name));
  return id ? id : 1;
}

/* Queues the definition of ID's name, once per rank (docs/trace-format.md: definition tag 5). */
static void define_name(uint64_t id, const char *name) {
  int fresh = 0;
  pthread_mutex_lock(&io_lock);
  uint32_t *v = aug_u64map_slot(&io_named, id, &fresh);
  pthread_mutex_unlock(&io_lock);
  if (!v || !fresh) return;
  augur_file_def def = {id, (char *)name};
  pthread_mutex_lock(&aug_lock);
  if (aug_writer) {
    augur_error err;
    if (augur_writer_def_file(aug_writer, &def, &err) != AUGUR_OK)
      aug_rec_fail("file definition", err.msg);
  }
  pthread_mutex_unlock(&aug_lock);
}

void aug_io_deleted(augur_event *ev, const char *name) {
  ev->hash = aug_io_name_id(name);
  ev->peer = AUGUR_PEER_NONE;
  if (ev->hash) define_name(ev->hash, name);
}

void aug_io_opened(augur_event *ev, const char *name, MPI_Comm comm, MPI_File fh) {
  aug_io_deleted(ev, name);
  ev->comm = aug_comm_id(comm);
  if (fh == MPI_FILE_NULL) return;
  pthread_mutex_lock(&io_lock);
  uint32_t *v = aug_u64map_slot(&io_handles, handle_key(fh), NULL);
  if (v) {
    /* a slot reused by its handle, or a new one (files closed keep theirs: bounded by the
     * number of distinct handles the library hands out) */
    if (*v == 0 && aug_grow((void **)&io_files, &io_cap, io_nfiles + 1, sizeof *io_files) == 0)
      *v = (uint32_t)++io_nfiles;
    if (*v) io_files[*v - 1] = (io_file){ev->hash, ev->comm};
  }
  pthread_mutex_unlock(&io_lock);
}

static void lookup(augur_event *ev, MPI_File fh, int forget) {
  uint32_t v = 0;
  ev->peer = AUGUR_PEER_NONE;
  pthread_mutex_lock(&io_lock);
  if (aug_u64map_get(&io_handles, handle_key(fh), &v) && v) {
    ev->hash = io_files[v - 1].id;
    ev->comm = io_files[v - 1].comm;
    if (forget) io_files[v - 1] = (io_file){0, 0};
  }
  pthread_mutex_unlock(&io_lock);
}

void aug_io_file(augur_event *ev, MPI_File fh) {
  lookup(ev, fh, 0);
}

void aug_io_closing(augur_event *ev, MPI_File fh) {
  lookup(ev, fh, 1);
}

void aug_io_data(augur_event *ev, MPI_File fh, int count, MPI_Datatype dt, const MPI_Status *st) {
  lookup(ev, fh, 0);
  uint64_t n = aug_bytes(count, dt);
  if (st) {
    int got = 0;
    /* ROMIO and OMPIO both set the status's byte count */
    if (PMPI_Get_count(st, MPI_BYTE, &got) == MPI_SUCCESS && got != MPI_UNDEFINED && got >= 0)
      n = (uint64_t)got;
  }
  if (augur_io_is_read(ev->type))
    ev->bytes_recv = n;
  else
    ev->bytes = n;
}

uint64_t aug_io_whence(int whence) {
  if (whence == MPI_SEEK_CUR) return AUGUR_IO_SEEK_CUR;
  if (whence == MPI_SEEK_END) return AUGUR_IO_SEEK_END;
  return AUGUR_IO_SEEK_SET;
}
