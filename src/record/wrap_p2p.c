/* augur recorder — point-to-point wrappers (blocking, nonblocking, probes,
 * matched probes). Field meaning: docs/trace-format.md, "Event fields". */
#include <string.h>

#include "wrap.h"

#define SEND_WRAPPER(NAME, TYPE)                                                                   \
  AUGUR_API int MPI_##NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag,         \
                           MPI_Comm comm) {                                                        \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(buf, count, dt, dest, tag, comm));                       \
    aug_fill_p2p_dir(ev, count, dt, dest, tag, comm, buf, 1);                                      \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
SEND_WRAPPER(Send, SEND)
SEND_WRAPPER(Bsend, BSEND)
SEND_WRAPPER(Ssend, SSEND)
SEND_WRAPPER(Rsend, RSEND)

/* Nonblocking sends and the persistent send inits share one shape. A
 * persistent send's buffer is read at each MPI_Start, not at the init call,
 * so *_init records carry no payload hash. */
#define ISEND_WRAPPER(NAME, TYPE, PERSISTENT)                                                      \
  AUGUR_API int MPI_##NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag,         \
                           MPI_Comm comm, MPI_Request *req) {                                      \
    AUG_WRAP(AUGUR_EV_##TYPE, PMPI_##NAME(buf, count, dt, dest, tag, comm, req));                  \
    aug_fill_p2p_dir(ev, count, dt, dest, tag, comm, buf, 1);                                      \
    if (PERSISTENT) ev->hash = 0;                                                                  \
    ev->req = aug_req_id(*req);                                                                    \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
ISEND_WRAPPER(Isend, ISEND, 0)
ISEND_WRAPPER(Ibsend, IBSEND, 0)
ISEND_WRAPPER(Issend, ISSEND, 0)
ISEND_WRAPPER(Irsend, IRSEND, 0)
ISEND_WRAPPER(Send_init, SEND_INIT, 1)
ISEND_WRAPPER(Bsend_init, BSEND_INIT, 1)
ISEND_WRAPPER(Ssend_init, SSEND_INIT, 1)
ISEND_WRAPPER(Rsend_init, RSEND_INIT, 1)

#define IRECV_WRAPPER(NAME, TYPE, PERSISTENT)                                                      \
  AUGUR_API int MPI_##NAME(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, \
                           MPI_Request *req) {                                                     \
    AUG_WRAP_RECV(AUGUR_EV_##TYPE, PERSISTENT ? NULL : buf, count, dt,                             \
                  PMPI_##NAME(buf, count, dt, src, tag, comm, req));                               \
    aug_fill_p2p_dir(ev, count, dt, src, tag, comm, buf, 0);                                       \
    ev->req = aug_req_id(*req);                                                                    \
    if (aug_cfg.payload_hash) aug_recv_track(*req, buf, count, dt, PERSISTENT);                    \
    aug_rec_commit_in(ev);                                                                         \
    return rc;                                                                                     \
  }
IRECV_WRAPPER(Irecv, IRECV, 0)
IRECV_WRAPPER(Recv_init, RECV_INIT, 1)

AUGUR_API int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                       MPI_Status *status) {
  AUG_STATUS(st, status);
  AUG_WRAP_RECV(AUGUR_EV_RECV, buf, count, dt, PMPI_Recv(buf, count, dt, src, tag, comm, st));
  aug_fill_p2p_dir(ev, count, dt, src, tag, comm, buf, 0);
  aug_fill_status(ev, st, buf, dt);
  aug_rec_commit_in(ev);
  return rc;
}

/* Sendrecv: the parent is the send side; one SUB_RECV sub-record carries the
 * receive (source/tag/bytes from the status). */
static void commit_sendrecv(augur_event *ev, int scount, MPI_Datatype sdt, int dest, int stag,
                            const void *sbuf, int rcount, MPI_Datatype rdt, int src, int rtag,
                            void *rbuf, MPI_Comm comm, const MPI_Status *st,
                            const uint64_t *send_hash) {
  if (send_hash) { /* Sendrecv_replace: sent payload hashed before the call */
    aug_fill_p2p_dir(ev, scount, sdt, dest, stag, comm, NULL, 0);
    ev->bytes = ev->bytes_recv;
    ev->hash = *send_hash;
  } else {
    aug_fill_p2p_dir(ev, scount, sdt, dest, stag, comm, sbuf, 1);
  }
  augur_event sub;
  memset(&sub, 0, sizeof sub);
  sub.type = AUGUR_EV_SUB_RECV;
  sub.t_start = ev->t_start;
  sub.t_end = ev->t_end;
  sub.callsite = ev->callsite;
  sub.thread = ev->thread;
  aug_fill_p2p_dir(&sub, rcount, rdt, src, rtag, comm, rbuf, 0);
  aug_fill_status(&sub, st, rbuf, rdt);
  aug_move_recv_buffer_flags(ev, &sub);
  ev->bytes_recv = sub.bytes_recv;
  ev->aux = 1;
  aug_commit_pair(ev, &sub);
}

AUGUR_API int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag,
                           void *rbuf, int rcount, MPI_Datatype rdt, int src, int rtag,
                           MPI_Comm comm, MPI_Status *status) {
  AUG_STATUS(st, status);
  AUG_WRAP_RECV(
      AUGUR_EV_SENDRECV, rbuf, rcount, rdt,
      PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st));
  commit_sendrecv(ev, scount, sdt, dest, stag, sbuf, rcount, rdt, src, rtag, rbuf, comm, st, NULL);
  return rc;
}

AUGUR_API int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag,
                                   int src, int rtag, MPI_Comm comm, MPI_Status *status) {
  AUG_STATUS(st, status);
  augur_event *ev = aug_rec_begin(AUGUR_EV_SENDRECV_REPLACE, AUG_CALLER());
  if (!ev) return PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, st);
  /* the buffer is overwritten by the call: fingerprint what is sent first */
  uint64_t sent_hash = aug_hash(buf, count, dt);
  uint16_t rbuf_flags = aug_recv_buffer(buf, count, dt);
  int rc = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, st);
  aug_rec_exit_in(ev);
  ev->flags |= rbuf_flags;
  commit_sendrecv(ev, count, dt, dest, stag, NULL, count, dt, src, rtag, buf, comm, st, &sent_hash);
  return rc;
}

/* Probe / Iprobe: what would be received, from the status. */
AUGUR_API int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *status) {
  AUG_STATUS(st, status);
  AUG_WRAP(AUGUR_EV_PROBE, PMPI_Probe(src, tag, comm, st));
  aug_fill_p2p_dir(ev, 0, MPI_DATATYPE_NULL, src, tag, comm, NULL, 0);
  aug_fill_status(ev, st, NULL, MPI_DATATYPE_NULL);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  AUG_STATUS(st, status);
  AUG_WRAP(AUGUR_EV_IPROBE, PMPI_Iprobe(src, tag, comm, flag, st));
  aug_fill_p2p_dir(ev, 0, MPI_DATATYPE_NULL, src, tag, comm, NULL, 0);
  if (*flag)
    aug_fill_status(ev, st, NULL, MPI_DATATYPE_NULL);
  else
    ev->flags |= AUGUR_F_NOTDONE;
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status) {
  AUG_STATUS(st, status);
  AUG_WRAP(AUGUR_EV_MPROBE, PMPI_Mprobe(src, tag, comm, msg, st));
  aug_fill_p2p_dir(ev, 0, MPI_DATATYPE_NULL, src, tag, comm, NULL, 0);
  aug_fill_status(ev, st, NULL, MPI_DATATYPE_NULL);
  ev->req = aug_message_id(*msg);
  aug_message_probed(*msg, ev);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
                          MPI_Status *status) {
  AUG_STATUS(st, status);
  AUG_WRAP(AUGUR_EV_IMPROBE, PMPI_Improbe(src, tag, comm, flag, msg, st));
  aug_fill_p2p_dir(ev, 0, MPI_DATATYPE_NULL, src, tag, comm, NULL, 0);
  if (*flag) {
    aug_fill_status(ev, st, NULL, MPI_DATATYPE_NULL);
    ev->req = aug_message_id(*msg);
    aug_message_probed(*msg, ev);
  } else {
    ev->flags |= AUGUR_F_NOTDONE;
  }
  aug_rec_commit_in(ev);
  return rc;
}

/* Mrecv / Imrecv have no communicator argument: comm, source and tag come
 * from the probe that matched the message. */
AUGUR_API int MPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg,
                        MPI_Status *status) {
  AUG_STATUS(st, status);
  uint64_t m = aug_message_id(*msg);
  AUG_WRAP_RECV(AUGUR_EV_MRECV, buf, count, dt, PMPI_Mrecv(buf, count, dt, msg, st));
  ev->req = m;
  aug_message_received(ev, m);
  aug_fill_status(ev, st, buf, dt);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg,
                         MPI_Request *req) {
  uint64_t m = aug_message_id(*msg);
  AUG_WRAP_RECV(AUGUR_EV_IMRECV, buf, count, dt, PMPI_Imrecv(buf, count, dt, msg, req));
  aug_message_received(ev, m);
  ev->bytes_recv = aug_bytes(count, dt);
  ev->req = aug_req_id(*req);
  if (aug_cfg.payload_hash) aug_recv_track(*req, buf, count, dt, 0);
  aug_rec_commit_in(ev);
  return rc;
}
