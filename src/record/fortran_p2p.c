/* augur recorder — Fortran bindings of point-to-point and persistent calls.
 * See fortran_wrap.h for the scheme; field meanings as in the C wrappers. */
#include <string.h>

#include "fortran_wrap.h"

/* ---- blocking sends: Send Bsend Ssend Rsend ---- */

typedef void (*send_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
#define SEND_PARAMS                                                                                \
  (void *buf, F_INT *count, F_INT *dt, F_INT *dest, F_INT *tag, F_INT *comm, F_INT *ierr)

static void f_send(const void *caller, unsigned type, aug_f_slot *slot, void *buf, F_INT *count,
                   F_INT *dt, F_INT *dest, F_INT *tag, F_INT *comm, F_INT *ierr) {
  send_fn real = (send_fn)aug_f_real(slot);
  augur_event ev;
  if (!aug_rec_enter(&ev, type, caller)) {
    real(buf, count, dt, dest, tag, comm, ierr);
    return;
  }
  real(buf, count, dt, dest, tag, comm, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_fill_p2p_dir(&ev, *count, PMPI_Type_f2c(*dt), *dest, *tag, PMPI_Comm_f2c(*comm),
                   aug_f_cbuf(buf), 1);
  aug_rec_commit(&ev);
}

#define F_SEND(lower, UPPER, EV)                                                                   \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(lower, UPPER, SEND_PARAMS,                                                       \
                  f_send(AUG_CALLER(), EV, &s_##lower, buf, count, dt, dest, tag, comm, ierr))

F_SEND(mpi_send, MPI_SEND, AUGUR_EV_SEND)
F_SEND(mpi_bsend, MPI_BSEND, AUGUR_EV_BSEND)
F_SEND(mpi_ssend, MPI_SSEND, AUGUR_EV_SSEND)
F_SEND(mpi_rsend, MPI_RSEND, AUGUR_EV_RSEND)

/* ---- calls that create a request from (buf, count, type, peer, tag, comm):
 * Isend Ibsend Issend Irsend Irecv and the persistent *_init ---- */

typedef void (*ireq_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
#define IREQ_PARAMS                                                                                \
  (void *buf, F_INT *count, F_INT *dt, F_INT *peer, F_INT *tag, F_INT *comm, F_INT *req,           \
   F_INT *ierr)

static void f_ireq(const void *caller, unsigned type, int is_recv, aug_f_slot *slot, void *buf,
                   F_INT *count, F_INT *dt, F_INT *peer, F_INT *tag, F_INT *comm, F_INT *req,
                   F_INT *ierr) {
  ireq_fn real = (ireq_fn)aug_f_real(slot);
  augur_event ev;
  if (!aug_rec_enter(&ev, type, caller)) {
    real(buf, count, dt, peer, tag, comm, req, ierr);
    return;
  }
  MPI_Datatype cdt = PMPI_Type_f2c(*dt);
  const void *cbuf = aug_f_cbuf(buf);
  if (is_recv && type != AUGUR_EV_RECV_INIT) ev.flags |= aug_recv_buffer(cbuf, *count, cdt);
  real(buf, count, dt, peer, tag, comm, req, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  MPI_Request creq = PMPI_Request_f2c(*req);
  aug_fill_p2p_dir(&ev, *count, cdt, *peer, *tag, PMPI_Comm_f2c(*comm), cbuf, !is_recv);
  ev.req = aug_req_id(creq);
  if (is_recv && aug_hash_on())
    aug_recv_track(creq, (void *)cbuf, *count, cdt, type == AUGUR_EV_RECV_INIT);
  aug_rec_commit(&ev);
}

#define F_IREQ(lower, UPPER, EV, IS_RECV)                                                          \
  static aug_f_slot s_##lower = AUG_F_SLOT(lower);                                                 \
  AUG_F_SPELLINGS(                                                                                 \
      lower, UPPER, IREQ_PARAMS,                                                                   \
      f_ireq(AUG_CALLER(), EV, IS_RECV, &s_##lower, buf, count, dt, peer, tag, comm, req, ierr))

F_IREQ(mpi_isend, MPI_ISEND, AUGUR_EV_ISEND, 0)
F_IREQ(mpi_ibsend, MPI_IBSEND, AUGUR_EV_IBSEND, 0)
F_IREQ(mpi_issend, MPI_ISSEND, AUGUR_EV_ISSEND, 0)
F_IREQ(mpi_irsend, MPI_IRSEND, AUGUR_EV_IRSEND, 0)
F_IREQ(mpi_irecv, MPI_IRECV, AUGUR_EV_IRECV, 1)
F_IREQ(mpi_send_init, MPI_SEND_INIT, AUGUR_EV_SEND_INIT, 0)
F_IREQ(mpi_bsend_init, MPI_BSEND_INIT, AUGUR_EV_BSEND_INIT, 0)
F_IREQ(mpi_ssend_init, MPI_SSEND_INIT, AUGUR_EV_SSEND_INIT, 0)
F_IREQ(mpi_rsend_init, MPI_RSEND_INIT, AUGUR_EV_RSEND_INIT, 0)
F_IREQ(mpi_recv_init, MPI_RECV_INIT, AUGUR_EV_RECV_INIT, 1)

/* ---- Recv ---- */

typedef void (*recv_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_recv = AUG_F_SLOT(mpi_recv);

static void f_recv(const void *caller, void *buf, F_INT *count, F_INT *dt, F_INT *src, F_INT *tag,
                   F_INT *comm, F_INT *st, F_INT *ierr) {
  recv_fn real = (recv_fn)aug_f_real(&s_recv);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_RECV, caller)) {
    real(buf, count, dt, src, tag, comm, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  MPI_Datatype cdt = PMPI_Type_f2c(*dt);
  ev.flags |= aug_recv_buffer(aug_f_cbuf(buf), *count, cdt);
  real(buf, count, dt, src, tag, comm, fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_fill_p2p(&ev, *count, cdt, *src, *tag, PMPI_Comm_f2c(*comm), NULL);
  if (*ierr == MPI_SUCCESS) {
    MPI_Status cst;
    aug_f_status_c(fst, &cst);
    aug_fill_status(&ev, &cst, aug_f_cbuf(buf), cdt);
  }
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_recv, MPI_RECV,
                (void *buf, F_INT *count, F_INT *dt, F_INT *src, F_INT *tag, F_INT *comm, F_INT *st,
                 F_INT *ierr),
                f_recv(AUG_CALLER(), buf, count, dt, src, tag, comm, st, ierr))

/* ---- Sendrecv, Sendrecv_replace: parent = send side, one SUB_RECV ---- */

/* Commits the parent (send side, already filled) with its SUB_RECV built
 * from the receive arguments and the Fortran status, as wrap_p2p.c does. */
static void commit_sendrecv(augur_event *ev, int rcount, MPI_Datatype rdt, int src, int rtag,
                            MPI_Comm comm, const F_INT *fst, const void *rbuf, int ok) {
  augur_event sub;
  memset(&sub, 0, sizeof sub);
  sub.type = AUGUR_EV_SUB_RECV;
  sub.t_start = ev->t_start;
  sub.t_end = ev->t_end;
  sub.callsite = ev->callsite;
  sub.thread = ev->thread;
  sub.flags = AUGUR_F_FORTRAN;
  aug_fill_p2p(&sub, rcount, rdt, src, rtag, comm, NULL);
  if (ok) {
    MPI_Status cst;
    aug_f_status_c(fst, &cst);
    aug_fill_status(&sub, &cst, aug_f_cbuf(rbuf), rdt);
  }
  aug_move_recv_buffer_flags(ev, &sub);
  ev->flags |= AUGUR_F_FORTRAN;
  ev->bytes_recv = sub.bytes_recv;
  ev->aux = 1;
  aug_commit_pair(ev, &sub);
}

typedef void (*sendrecv_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, void *, F_INT *, F_INT *,
                            F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_sendrecv = AUG_F_SLOT(mpi_sendrecv);

static void f_sendrecv(const void *caller, void *sbuf, F_INT *scount, F_INT *sdt, F_INT *dest,
                       F_INT *stag, void *rbuf, F_INT *rcount, F_INT *rdt, F_INT *src, F_INT *rtag,
                       F_INT *comm, F_INT *st, F_INT *ierr) {
  sendrecv_fn real = (sendrecv_fn)aug_f_real(&s_sendrecv);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_SENDRECV, caller)) {
    real(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  ev.flags |= aug_recv_buffer(aug_f_cbuf(rbuf), *rcount, PMPI_Type_f2c(*rdt));
  real(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, fst, ierr);
  aug_rec_exit(&ev);
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  aug_fill_p2p_dir(&ev, *scount, PMPI_Type_f2c(*sdt), *dest, *stag, c, aug_f_cbuf(sbuf), 1);
  commit_sendrecv(&ev, *rcount, PMPI_Type_f2c(*rdt), *src, *rtag, c, fst, rbuf,
                  *ierr == MPI_SUCCESS);
}

AUG_F_SPELLINGS(mpi_sendrecv, MPI_SENDRECV,
                (void *sbuf, F_INT *scount, F_INT *sdt, F_INT *dest, F_INT *stag, void *rbuf,
                 F_INT *rcount, F_INT *rdt, F_INT *src, F_INT *rtag, F_INT *comm, F_INT *st,
                 F_INT *ierr),
                f_sendrecv(AUG_CALLER(), sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src,
                           rtag, comm, st, ierr))

typedef void (*sendrecv_replace_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *,
                                    F_INT *, F_INT *, F_INT *);
static aug_f_slot s_sendrecv_replace = AUG_F_SLOT(mpi_sendrecv_replace);

static void f_sendrecv_replace(const void *caller, void *buf, F_INT *count, F_INT *dt, F_INT *dest,
                               F_INT *stag, F_INT *src, F_INT *rtag, F_INT *comm, F_INT *st,
                               F_INT *ierr) {
  sendrecv_replace_fn real = (sendrecv_replace_fn)aug_f_real(&s_sendrecv_replace);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_SENDRECV_REPLACE, caller)) {
    real(buf, count, dt, dest, stag, src, rtag, comm, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  /* The call overwrites the sent payload: fill (and hash) it first. Filling
   * reads only handles and the buffer, never MPI state the call changes. */
  MPI_Comm c = PMPI_Comm_f2c(*comm);
  MPI_Datatype cdt = PMPI_Type_f2c(*dt);
  aug_fill_p2p_dir(&ev, *count, cdt, *dest, *stag, c, aug_f_cbuf(buf), 1);
  ev.flags |= aug_recv_buffer(aug_f_cbuf(buf), *count, cdt);
  real(buf, count, dt, dest, stag, src, rtag, comm, fst, ierr);
  aug_rec_exit(&ev);
  commit_sendrecv(&ev, *count, cdt, *src, *rtag, c, fst, buf, *ierr == MPI_SUCCESS);
}

AUG_F_SPELLINGS(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE,
                (void *buf, F_INT *count, F_INT *dt, F_INT *dest, F_INT *stag, F_INT *src,
                 F_INT *rtag, F_INT *comm, F_INT *st, F_INT *ierr),
                f_sendrecv_replace(AUG_CALLER(), buf, count, dt, dest, stag, src, rtag, comm, st,
                                   ierr))

/* ---- Probe family: peer/tag/bytes_recv from the status ---- */

/* Fills a probe-like event: posted source/tag, then the status when a
 * message was found (found = 0 marks Iprobe/Improbe that found nothing). */
static void fill_probe(augur_event *ev, int src, int tag, MPI_Comm comm, const F_INT *fst,
                       int found) {
  ev->flags |= AUGUR_F_FORTRAN;
  aug_fill_p2p(ev, 0, MPI_DATATYPE_NULL, src, tag, comm, NULL);
  if (!found) {
    ev->flags |= AUGUR_F_NOTDONE;
    return;
  }
  MPI_Status cst;
  aug_f_status_c(fst, &cst);
  aug_fill_status(ev, &cst, NULL, MPI_DATATYPE_NULL);
}

typedef void (*probe_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_probe = AUG_F_SLOT(mpi_probe);

static void f_probe(const void *caller, F_INT *src, F_INT *tag, F_INT *comm, F_INT *st,
                    F_INT *ierr) {
  probe_fn real = (probe_fn)aug_f_real(&s_probe);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_PROBE, caller)) {
    real(src, tag, comm, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  real(src, tag, comm, fst, ierr);
  aug_rec_exit(&ev);
  fill_probe(&ev, *src, *tag, PMPI_Comm_f2c(*comm), fst, *ierr == MPI_SUCCESS);
  ev.flags &= (uint16_t)~AUGUR_F_NOTDONE;
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_probe, MPI_PROBE,
                (F_INT * src, F_INT *tag, F_INT *comm, F_INT *st, F_INT *ierr),
                f_probe(AUG_CALLER(), src, tag, comm, st, ierr))

typedef void (*iprobe_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_iprobe = AUG_F_SLOT(mpi_iprobe);

static void f_iprobe(const void *caller, F_INT *src, F_INT *tag, F_INT *comm, F_INT *flag,
                     F_INT *st, F_INT *ierr) {
  iprobe_fn real = (iprobe_fn)aug_f_real(&s_iprobe);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_IPROBE, caller)) {
    real(src, tag, comm, flag, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  real(src, tag, comm, flag, fst, ierr);
  aug_rec_exit(&ev);
  /* Fortran LOGICAL: any nonzero value is .true. for the compilers we meet. */
  fill_probe(&ev, *src, *tag, PMPI_Comm_f2c(*comm), fst, *ierr == MPI_SUCCESS && *flag != 0);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_iprobe, MPI_IPROBE,
                (F_INT * src, F_INT *tag, F_INT *comm, F_INT *flag, F_INT *st, F_INT *ierr),
                f_iprobe(AUG_CALLER(), src, tag, comm, flag, st, ierr))

typedef void (*mprobe_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_mprobe = AUG_F_SLOT(mpi_mprobe);

static void f_mprobe(const void *caller, F_INT *src, F_INT *tag, F_INT *comm, F_INT *msg, F_INT *st,
                     F_INT *ierr) {
  mprobe_fn real = (mprobe_fn)aug_f_real(&s_mprobe);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_MPROBE, caller)) {
    real(src, tag, comm, msg, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  real(src, tag, comm, msg, fst, ierr);
  aug_rec_exit(&ev);
  fill_probe(&ev, *src, *tag, PMPI_Comm_f2c(*comm), fst, *ierr == MPI_SUCCESS);
  ev.flags &= (uint16_t)~AUGUR_F_NOTDONE;
  MPI_Message cmsg = PMPI_Message_f2c(*msg);
  ev.req = aug_message_id(cmsg);
  aug_message_probed(cmsg, &ev);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_mprobe, MPI_MPROBE,
                (F_INT * src, F_INT *tag, F_INT *comm, F_INT *msg, F_INT *st, F_INT *ierr),
                f_mprobe(AUG_CALLER(), src, tag, comm, msg, st, ierr))

typedef void (*improbe_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_improbe = AUG_F_SLOT(mpi_improbe);

static void f_improbe(const void *caller, F_INT *src, F_INT *tag, F_INT *comm, F_INT *flag,
                      F_INT *msg, F_INT *st, F_INT *ierr) {
  improbe_fn real = (improbe_fn)aug_f_real(&s_improbe);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_IMPROBE, caller)) {
    real(src, tag, comm, flag, msg, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  real(src, tag, comm, flag, msg, fst, ierr);
  aug_rec_exit(&ev);
  int found = *ierr == MPI_SUCCESS && *flag != 0;
  fill_probe(&ev, *src, *tag, PMPI_Comm_f2c(*comm), fst, found);
  if (found) {
    MPI_Message cmsg = PMPI_Message_f2c(*msg);
    ev.req = aug_message_id(cmsg);
    aug_message_probed(cmsg, &ev);
  }
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_improbe, MPI_IMPROBE,
                (F_INT * src, F_INT *tag, F_INT *comm, F_INT *flag, F_INT *msg, F_INT *st,
                 F_INT *ierr),
                f_improbe(AUG_CALLER(), src, tag, comm, flag, msg, st, ierr))

/* ---- Mrecv / Imrecv: no communicator argument; comm, source and tag come
 * from the probe that matched the message. The message handle is read before
 * the call, which sets it to MPI_MESSAGE_NULL. ---- */

typedef void (*mrecv_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_mrecv = AUG_F_SLOT(mpi_mrecv);

static void f_mrecv(const void *caller, void *buf, F_INT *count, F_INT *dt, F_INT *msg, F_INT *st,
                    F_INT *ierr) {
  mrecv_fn real = (mrecv_fn)aug_f_real(&s_mrecv);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_MRECV, caller)) {
    real(buf, count, dt, msg, st, ierr);
    return;
  }
  uint64_t m = aug_message_id(PMPI_Message_f2c(*msg));
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  real(buf, count, dt, msg, fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  ev.req = m;
  aug_message_received(&ev, m);
  if (*ierr == MPI_SUCCESS) {
    MPI_Status cst;
    aug_f_status_c(fst, &cst);
    aug_fill_status(&ev, &cst, aug_f_cbuf(buf), PMPI_Type_f2c(*dt));
  }
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_mrecv, MPI_MRECV,
                (void *buf, F_INT *count, F_INT *dt, F_INT *msg, F_INT *st, F_INT *ierr),
                f_mrecv(AUG_CALLER(), buf, count, dt, msg, st, ierr))

typedef void (*imrecv_fn)(void *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_imrecv = AUG_F_SLOT(mpi_imrecv);

static void f_imrecv(const void *caller, void *buf, F_INT *count, F_INT *dt, F_INT *msg, F_INT *req,
                     F_INT *ierr) {
  imrecv_fn real = (imrecv_fn)aug_f_real(&s_imrecv);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_IMRECV, caller)) {
    real(buf, count, dt, msg, req, ierr);
    return;
  }
  uint64_t m = aug_message_id(PMPI_Message_f2c(*msg));
  real(buf, count, dt, msg, req, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  aug_message_received(&ev, m);
  MPI_Datatype cdt = PMPI_Type_f2c(*dt);
  MPI_Request creq = PMPI_Request_f2c(*req);
  ev.bytes_recv = aug_bytes(*count, cdt);
  ev.req = aug_req_id(creq);
  if (aug_hash_on()) aug_recv_track(creq, (void *)aug_f_cbuf(buf), *count, cdt, 0);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_imrecv, MPI_IMRECV,
                (void *buf, F_INT *count, F_INT *dt, F_INT *msg, F_INT *req, F_INT *ierr),
                f_imrecv(AUG_CALLER(), buf, count, dt, msg, req, ierr))

/* ---- persistent requests: Start, Startall, Request_free ---- */

typedef void (*start_fn)(F_INT *, F_INT *);
static aug_f_slot s_start = AUG_F_SLOT(mpi_start);

static void f_start(const void *caller, F_INT *req, F_INT *ierr) {
  start_fn real = (start_fn)aug_f_real(&s_start);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_START, caller)) {
    real(req, ierr);
    return;
  }
  real(req, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  ev.req = aug_req_id(PMPI_Request_f2c(*req));
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_start, MPI_START, (F_INT * req, F_INT *ierr), f_start(AUG_CALLER(), req, ierr))

typedef void (*startall_fn)(F_INT *, F_INT *, F_INT *);
static aug_f_slot s_startall = AUG_F_SLOT(mpi_startall);

static void f_startall(const void *caller, F_INT *count, F_INT *reqs, F_INT *ierr) {
  startall_fn real = (startall_fn)aug_f_real(&s_startall);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_STARTALL, caller)) {
    real(count, reqs, ierr);
    return;
  }
  real(count, reqs, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  int n = *count > 0 ? *count : 0;
  /* The 64-bit request scratch has room for n C handles of either ABI. */
  MPI_Request *creqs = (MPI_Request *)aug_scratch_reqs(n);
  if (!creqs) n = 0; /* out of memory: the parent alone */
  for (int i = 0; i < n; i++)
    creqs[i] = PMPI_Request_f2c(reqs[i]);
  aug_commit_starts(&ev, n, creqs);
}

AUG_F_SPELLINGS(mpi_startall, MPI_STARTALL, (F_INT * count, F_INT *reqs, F_INT *ierr),
                f_startall(AUG_CALLER(), count, reqs, ierr))

typedef void (*request_free_fn)(F_INT *, F_INT *);
static aug_f_slot s_request_free = AUG_F_SLOT(mpi_request_free);

static void f_request_free(const void *caller, F_INT *req, F_INT *ierr) {
  request_free_fn real = (request_free_fn)aug_f_real(&s_request_free);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_REQUEST_FREE, caller)) {
    real(req, ierr);
    return;
  }
  uint64_t id = aug_req_id(PMPI_Request_f2c(*req));
  real(req, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  ev.req = id;
  aug_recv_untrack(id);
  aug_rec_commit(&ev);
}

AUG_F_SPELLINGS(mpi_request_free, MPI_REQUEST_FREE, (F_INT * req, F_INT *ierr),
                f_request_free(AUG_CALLER(), req, ierr))
