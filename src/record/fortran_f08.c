/* augur recorder — the Fortran 2008 bindings (`use mpi_f08`) of every call
 * the `mpi` bindings record (fortran_p2p.c, fortran_completion.c,
 * fortran_coll.c, fortran_comm.c, fortran_lifecycle.c). Each converts its
 * arguments to the `mpi` form and calls the recorder's own `mpi` spelling,
 * handing over the application's call site: one implementation records both
 * (see fortran_f08.h for the names and conventions of each library). */
#include "fortran_f08.h"

/* ---- point to point ---- */

#define F08_SEND(fn)                                                                               \
  F08TS_B(                                                                                         \
      fn, (void *buf, F_INT *count, F_INT *dt, F_INT *dest, F_INT *tag, F_INT *comm, F_INT *ierr), \
      (buf), (NULL), (buf, count, dt, dest, tag, comm), (F08_B(buf), count, dt, dest, tag, comm))
F08_SEND(send)
F08_SEND(bsend)
F08_SEND(ssend)
F08_SEND(rsend)

#define F08_IREQ(fn)                                                                               \
  F08TS(fn,                                                                                        \
        (void *buf, F_INT *count, F_INT *dt, F_INT *peer, F_INT *tag, F_INT *comm, F_INT *req,     \
         F_INT *ierr),                                                                             \
        (buf), (buf, count, dt, peer, tag, comm, req),                                             \
        (F08_B(buf), count, dt, peer, tag, comm, req))
F08_IREQ(isend)
F08_IREQ(ibsend)
F08_IREQ(issend)
F08_IREQ(irsend)
F08_IREQ(irecv)
F08_IREQ(send_init)
F08_IREQ(bsend_init)
F08_IREQ(ssend_init)
F08_IREQ(rsend_init)
F08_IREQ(recv_init)

F08TS_B(recv,
        (void *buf, F_INT *count, F_INT *dt, F_INT *src, F_INT *tag, F_INT *comm, F_INT *st,
         F_INT *ierr),
        (NULL), (buf), (buf, count, dt, src, tag, comm, st),
        (F08_B(buf), count, dt, src, tag, comm, F08_ST(st)))

F08TS_B(sendrecv,
        (void *sbuf, F_INT *scount, F_INT *sdt, F_INT *dest, F_INT *stag, void *rbuf, F_INT *rcount,
         F_INT *rdt, F_INT *src, F_INT *rtag, F_INT *comm, F_INT *st, F_INT *ierr),
        (sbuf), (rbuf), (sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st),
        (F08_B(sbuf), scount, sdt, dest, stag, F08_B(rbuf), rcount, rdt, src, rtag, comm,
         F08_ST(st)))

F08TS_B(sendrecv_replace,
        (void *buf, F_INT *count, F_INT *dt, F_INT *dest, F_INT *stag, F_INT *src, F_INT *rtag,
         F_INT *comm, F_INT *st, F_INT *ierr),
        (NULL), (buf), (buf, count, dt, dest, stag, src, rtag, comm, st),
        (F08_B(buf), count, dt, dest, stag, src, rtag, comm, F08_ST(st)))

F08(probe, (F_INT * src, F_INT *tag, F_INT *comm, F_INT *st, F_INT *ierr),
    (src, tag, comm, F08_ST(st)))
F08(iprobe, (F_INT * src, F_INT *tag, F_INT *comm, F_INT *flag, F_INT *st, F_INT *ierr),
    (src, tag, comm, flag, F08_ST(st)))
F08(mprobe, (F_INT * src, F_INT *tag, F_INT *comm, F_INT *msg, F_INT *st, F_INT *ierr),
    (src, tag, comm, msg, F08_ST(st)))
F08(improbe,
    (F_INT * src, F_INT *tag, F_INT *comm, F_INT *flag, F_INT *msg, F_INT *st, F_INT *ierr),
    (src, tag, comm, flag, msg, F08_ST(st)))
F08TS_B(mrecv, (void *buf, F_INT *count, F_INT *dt, F_INT *msg, F_INT *st, F_INT *ierr), (NULL),
        (buf), (buf, count, dt, msg, st), (F08_B(buf), count, dt, msg, F08_ST(st)))
F08TS(imrecv, (void *buf, F_INT *count, F_INT *dt, F_INT *msg, F_INT *req, F_INT *ierr), (buf),
      (buf, count, dt, msg, req), (F08_B(buf), count, dt, msg, req))

F08(start, (F_INT * req, F_INT *ierr), (req))
F08(startall, (F_INT * count, F_INT *reqs, F_INT *ierr), (count, reqs))
F08(request_free, (F_INT * req, F_INT *ierr), (req))

/* ---- completion ---- */

F08(wait, (F_INT * req, F_INT *st, F_INT *ierr), (req, F08_ST(st)))
F08(test, (F_INT * req, F_INT *flag, F_INT *st, F_INT *ierr), (req, flag, F08_ST(st)))
F08(waitall, (F_INT * count, F_INT *reqs, F_INT *sts, F_INT *ierr), (count, reqs, F08_STS(sts)))
F08(testall, (F_INT * count, F_INT *reqs, F_INT *flag, F_INT *sts, F_INT *ierr),
    (count, reqs, flag, F08_STS(sts)))
F08(waitany, (F_INT * count, F_INT *reqs, F_INT *index, F_INT *st, F_INT *ierr),
    (count, reqs, index, F08_ST(st)))
F08(testany, (F_INT * count, F_INT *reqs, F_INT *index, F_INT *flag, F_INT *st, F_INT *ierr),
    (count, reqs, index, flag, F08_ST(st)))
F08(waitsome,
    (F_INT * count, F_INT *reqs, F_INT *outcount, F_INT *indices, F_INT *sts, F_INT *ierr),
    (count, reqs, outcount, indices, F08_STS(sts)))
F08(testsome,
    (F_INT * count, F_INT *reqs, F_INT *outcount, F_INT *indices, F_INT *sts, F_INT *ierr),
    (count, reqs, outcount, indices, F08_STS(sts)))

/* ---- collectives: each with its nonblocking twin (F08_COLL) ---- */

F08(barrier, (F_INT * comm, F_INT *ierr), (comm))
F08(ibarrier, (F_INT * comm, F_INT *req, F_INT *ierr), (comm, req))

F08_COLL(bcast, (void *buf, F_INT *count, F_INT *dt, F_INT *root, F_INT *comm), (NULL), (buf),
         (buf, count, dt, root, comm), (F08_B(buf), count, dt, root, comm))
F08_COLL(reduce,
         (void *sbuf, void *rbuf, F_INT *count, F_INT *dt, F_INT *op, F_INT *root, F_INT *comm),
         (sbuf), (rbuf), (sbuf, rbuf, count, dt, op, root, comm),
         (F08_B(sbuf), F08_B(rbuf), count, dt, op, root, comm))

#define F08_REDUCE_ALL(fn)                                                                         \
  F08_COLL(fn, (void *sbuf, void *rbuf, F_INT *count, F_INT *dt, F_INT *op, F_INT *comm), (sbuf),  \
           (rbuf), (sbuf, rbuf, count, dt, op, comm),                                              \
           (F08_B(sbuf), F08_B(rbuf), count, dt, op, comm))
F08_REDUCE_ALL(allreduce)
F08_REDUCE_ALL(scan)
F08_REDUCE_ALL(exscan)

#define F08_ROOTED(fn)                                                                             \
  F08_COLL(fn,                                                                                     \
           (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcount, F_INT *rdt,          \
            F_INT *root, F_INT *comm),                                                             \
           (sbuf), (rbuf), (sbuf, scount, sdt, rbuf, rcount, rdt, root, comm),                     \
           (F08_B(sbuf), scount, sdt, F08_B(rbuf), rcount, rdt, root, comm))
F08_ROOTED(gather)
F08_ROOTED(scatter)

F08_COLL(gatherv,
         (void *sbuf, F_INT *scount, F_INT *sdt, void *rbuf, F_INT *rcounts, F_INT *displs,
          F_INT *rdt, F_INT *root, F_INT *comm),
         (sbuf), (rbuf), (sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm),
         (F08_B(sbuf), scount, sdt, F08_B(rbuf), rcounts, displs, rdt, root, comm))
F08_COLL(scatterv,
         (void *sbuf, F_INT *scounts, F_INT *displs, F_INT *sdt, void *rbuf, F_INT *rcount,
          F_INT *rdt, F_INT *root, F_INT *comm),
         (sbuf), (rbuf), (sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm),
         (F08_B(sbuf), scounts, displs, sdt, F08_B(rbuf), rcount, rdt, root, comm))

F08_ALL(allgather)
F08_ALL(alltoall)

F08_ALLGV(allgatherv)

/* Alltoallv (sdt, rdt one handle each) and Alltoallw (arrays of handles). */
F08_ALLV(alltoallv)
F08_ALLV(alltoallw)

F08_COLL(reduce_scatter,
         (void *sbuf, void *rbuf, F_INT *rcounts, F_INT *dt, F_INT *op, F_INT *comm), (sbuf),
         (rbuf), (sbuf, rbuf, rcounts, dt, op, comm),
         (F08_B(sbuf), F08_B(rbuf), rcounts, dt, op, comm))
F08_COLL(reduce_scatter_block,
         (void *sbuf, void *rbuf, F_INT *rcount, F_INT *dt, F_INT *op, F_INT *comm), (sbuf), (rbuf),
         (sbuf, rbuf, rcount, dt, op, comm), (F08_B(sbuf), F08_B(rbuf), rcount, dt, op, comm))

/* ---- communicators ---- */

F08(comm_dup, (F_INT * comm, F_INT *newcomm, F_INT *ierr), (comm, newcomm))
F08(comm_split, (F_INT * comm, F_INT *color, F_INT *key, F_INT *newcomm, F_INT *ierr),
    (comm, color, key, newcomm))
F08(comm_split_type,
    (F_INT * comm, F_INT *type, F_INT *key, F_INT *info, F_INT *newcomm, F_INT *ierr),
    (comm, type, key, info, newcomm))
F08(comm_create, (F_INT * comm, F_INT *group, F_INT *newcomm, F_INT *ierr), (comm, group, newcomm))
F08(cart_create,
    (F_INT * old, F_INT *ndims, F_INT *dims, F_INT *periods, F_INT *reorder, F_INT *newcomm,
     F_INT *ierr),
    (old, ndims, dims, periods, reorder, newcomm))
F08(cart_sub, (F_INT * comm, F_INT *remain_dims, F_INT *newcomm, F_INT *ierr),
    (comm, remain_dims, newcomm))
F08(graph_create,
    (F_INT * old, F_INT *nnodes, F_INT *index, F_INT *edges, F_INT *reorder, F_INT *newcomm,
     F_INT *ierr),
    (old, nnodes, index, edges, reorder, newcomm))
F08(dist_graph_create,
    (F_INT * old, F_INT *n, F_INT *sources, F_INT *degrees, F_INT *dests, F_INT *weights,
     F_INT *info, F_INT *reorder, F_INT *newcomm, F_INT *ierr),
    (old, n, sources, degrees, dests, aug_f08_weights(weights), info, reorder, newcomm))
F08(dist_graph_create_adjacent,
    (F_INT * old, F_INT *indegree, F_INT *sources, F_INT *sourceweights, F_INT *outdegree,
     F_INT *dests, F_INT *destweights, F_INT *info, F_INT *reorder, F_INT *newcomm, F_INT *ierr),
    (old, indegree, sources, aug_f08_weights(sourceweights), outdegree, dests,
     aug_f08_weights(destweights), info, reorder, newcomm))
F08(intercomm_create,
    (F_INT * local, F_INT *local_leader, F_INT *peer_comm, F_INT *remote_leader, F_INT *tag,
     F_INT *newcomm, F_INT *ierr),
    (local, local_leader, peer_comm, remote_leader, tag, newcomm))
F08(intercomm_merge, (F_INT * inter, F_INT *high, F_INT *newcomm, F_INT *ierr),
    (inter, high, newcomm))
F08(comm_idup, (F_INT * comm, F_INT *newcomm, F_INT *req, F_INT *ierr), (comm, newcomm, req))
F08(comm_free, (F_INT * comm, F_INT *ierr), (comm))

/* ---- start and end of the run ---- */

F08_IERR(init)
F08(init_thread, (F_INT * required, F_INT *provided, F_INT *ierr), (required, provided))

F08_IERR(finalize)

F08(abort, (F_INT * comm, F_INT *code, F_INT *ierr), (comm, code))
