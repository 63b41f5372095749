! calls_f -- exercises a wide set of MPI calls once each through the Fortran
! bindings, so tests/fortran/check_fortran.c can compare every recorded
! event with what this program did: types, peers (world ranks), tags, bytes,
! flags, request pairing and call-site lines (each recorded call is on the
! line after its "@augur:calls.NAME" marker). Any number of ranks >= 2; the
! ranks form a ring (left = r-1, right = r+1 modulo n).
!
! The same source is the `use mpi_f08` test when preprocessed with
! -DAUGUR_F08 (gfortran -cpp): the handles are then derived types, and the
! calls written with OPT_IERR or ONLY_IERR leave out the optional ierror (the bindings get
! a NULL pointer). The in-place Allreduce checks its result (the recorder
! passes each binding's MPI_IN_PLACE on to the library), and so do a Send
! from and a Recv into non-contiguous array sections (copied for `use mpi`
! by the compiler, for mpi_f08 with MPICH by the recorder).
!
! INTENT(OUT) arguments are array elements (ierr(1), flag(1)), not whole
! scalars: gfortran 12 gives a call that passes a whole scalar to an
! INTENT(OUT) dummy of an explicit interface (Open MPI's `use mpi`) the source
! line of another statement, and call sites would resolve to wrong lines.
#ifdef AUGUR_F08
#define OPT_IERR
#define ONLY_IERR
#else
#define OPT_IERR , ierr(1)
#define ONLY_IERR ierr(1)
#endif
program calls_f
#ifdef AUGUR_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: ierr(1), provided, rank, n, left, right, i, tests, idx, outcount, idxs(3)
#ifdef AUGUR_F08
  type(MPI_Comm) :: sub
  type(MPI_Status) :: st
  type(MPI_Request) :: req, reqs(3), preqs(2), sreq
#else
  integer :: sub, st(MPI_STATUS_SIZE), req, reqs(3), preqs(2), sreq
#endif
  integer :: ibuf(10), ibuf2(10), gcounts(64), gdispls(64), a2a_s(128), a2a_r(128)
  integer :: v1(1), w1(1), two(2)
  double precision :: dbuf(5), pbuf, pres, ired
  integer, allocatable :: big_s(:), big_r(:)
  logical :: flag(1)

  ! @augur:calls.init_thread
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr(1))
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr(1))
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr(1))
  if (n < 2 .or. n > 64) then
    if (rank == 0) write (0, '(a)') 'calls_f: needs 2 to 64 ranks'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr(1))
  end if
  left = mod(rank + n - 1, n)
  right = mod(rank + 1, n)

  ! Sendrecv around the ring: 10 integers right, tag 7.
  ibuf = rank
  ! @augur:calls.sendrecv
  call MPI_Sendrecv(ibuf, 10, MPI_INTEGER, right, 7, ibuf2, 10, MPI_INTEGER, left, 7, MPI_COMM_WORLD, st, ierr(1))
  ! Sendrecv_replace the other way: 4 doubles left, tag 8, status ignored.
  dbuf = rank
  ! @augur:calls.sendrecv_replace
  call MPI_Sendrecv_replace(dbuf, 4, MPI_DOUBLE_PRECISION, left, 8, right, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr(1))

  ! @augur:calls.bcast
  call MPI_Bcast(dbuf, 5, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr(1))
  ! @augur:calls.reduce
  call MPI_Reduce(ibuf, ibuf2, 3, MPI_INTEGER, MPI_SUM, 1, MPI_COMM_WORLD, ierr(1))
  two = rank
  ! @augur:calls.allreduce_in_place
  call MPI_Allreduce(MPI_IN_PLACE, two, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD OPT_IERR)
  if (two(1) /= n*(n - 1)/2 .or. two(2) /= n*(n - 1)/2) then
    write (0, '(a,2i6)') 'calls_f: in-place Allreduce gave ', two
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr(1))
  end if
  do i = 1, n
    gcounts(i) = i
    gdispls(i) = i*(i - 1)/2
  end do
  ! @augur:calls.gatherv
  call MPI_Gatherv(ibuf, rank + 1, MPI_INTEGER, a2a_r, gcounts, gdispls, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr(1))
  a2a_s = rank
  ! @augur:calls.alltoall
  call MPI_Alltoall(a2a_s, 2, MPI_INTEGER, a2a_r, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr(1))
  ! A large receive buffer (128 KiB per rank) just allocated: the first
  ! all-to-all into it is recorded as a fresh, untouched buffer, the second not.
  allocate (big_s(32768*n), big_r(32768*n))
  big_s = rank
  ! @augur:calls.alltoall_fresh
  call MPI_Alltoall(big_s, 32768, MPI_INTEGER, big_r, 32768, MPI_INTEGER, MPI_COMM_WORLD, ierr(1))
  ! @augur:calls.alltoall_again
  call MPI_Alltoall(big_s, 32768, MPI_INTEGER, big_r, 32768, MPI_INTEGER, MPI_COMM_WORLD, ierr(1))
  deallocate (big_s, big_r)

  ! Even and odd world ranks, ordered by world rank.
  ! @augur:calls.comm_split
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr(1))
  v1 = 1
  ! @augur:calls.sub_allreduce
  call MPI_Allreduce(v1(1), w1, 1, MPI_INTEGER, MPI_SUM, sub, ierr(1))
  ! @augur:calls.comm_free
  call MPI_Comm_free(sub OPT_IERR)

  ! Test with MPI_STATUS_IGNORE until the receive is done; Ssend + Barrier
  ! make the first Test find it done in practice (the checker accepts
  ! earlier not-done Tests).
  ! @augur:calls.irecv_test
  call MPI_Irecv(v1, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, req, ierr(1))
  ! @augur:calls.ssend
  call MPI_Ssend(rank, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, ierr(1))
  ! @augur:calls.barrier
  call MPI_Barrier(MPI_COMM_WORLD OPT_IERR)
  tests = 0
  do
    tests = tests + 1
    ! @augur:calls.test
    call MPI_Test(req, flag(1), MPI_STATUS_IGNORE, ierr(1))
    if (flag(1)) exit
  end do

  ! Waitany over (null, receive): the Fortran index is 2, the trace's 1.
  reqs(1) = MPI_REQUEST_NULL
  ! @augur:calls.irecv_any
  call MPI_Irecv(two, 2, MPI_INTEGER, left, 10, MPI_COMM_WORLD, reqs(2), ierr(1))
  ! @augur:calls.isend_any
  call MPI_Isend(ibuf, 2, MPI_INTEGER, right, 10, MPI_COMM_WORLD, sreq, ierr(1))
  ! @augur:calls.waitany
  call MPI_Waitany(2, reqs, idx, st, ierr(1))
  ! @augur:calls.wait_send
  call MPI_Wait(sreq, MPI_STATUS_IGNORE OPT_IERR)

  ! Waitsome over (null, receive, null) with MPI_STATUSES_IGNORE.
  reqs(1) = MPI_REQUEST_NULL
  reqs(3) = MPI_REQUEST_NULL
  ! @augur:calls.irecv_some
  call MPI_Irecv(ibuf2, 3, MPI_INTEGER, right, 12, MPI_COMM_WORLD, reqs(2), ierr(1))
  ! Three lines: the call site is the statement's first line, not its last.
  ! The buffer is a non-contiguous section (every other element).
  ! @augur:calls.send
  call MPI_Send(ibuf(1:5:2), 3, MPI_INTEGER, &
                left, 12, &
                MPI_COMM_WORLD, ierr(1))
  ! @augur:calls.waitsome
  call MPI_Waitsome(3, reqs, outcount, idxs, MPI_STATUSES_IGNORE, ierr(1))
  if (any(ibuf2(1:3) /= right)) then
    write (0, '(a,3i6)') 'calls_f: Send of a section gave ', ibuf2(1:3)
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr(1))
  end if

  ! Persistent pair, started together.
  pbuf = rank
  ! @augur:calls.send_init
  call MPI_Send_init(pbuf, 1, MPI_DOUBLE_PRECISION, right, 13, MPI_COMM_WORLD, preqs(1), ierr(1))
  ! @augur:calls.recv_init
  call MPI_Recv_init(pres, 1, MPI_DOUBLE_PRECISION, left, 13, MPI_COMM_WORLD, preqs(2), ierr(1))
  ! @augur:calls.startall
  call MPI_Startall(2, preqs OPT_IERR)
  ! @augur:calls.waitall
  call MPI_Waitall(2, preqs, MPI_STATUSES_IGNORE, ierr(1))
  ! @augur:calls.request_free
  call MPI_Request_free(preqs(1), ierr(1))
  ! @augur:calls.request_free
  call MPI_Request_free(preqs(2), ierr(1))

  ! Probe, then a wildcard receive that must resolve to the left neighbour,
  ! into a non-contiguous section (the elements between keep their values).
  ibuf(1:3) = 10*rank + [1, 2, 3]
  ibuf2 = -1
  ! @augur:calls.isend_probe
  call MPI_Isend(ibuf, 3, MPI_INTEGER, right, 14, MPI_COMM_WORLD, sreq, ierr(1))
  ! @augur:calls.probe
  call MPI_Probe(left, 14, MPI_COMM_WORLD, st, ierr(1))
  ! @augur:calls.recv_any_source
  call MPI_Recv(ibuf2(1:5:2), 3, MPI_INTEGER, MPI_ANY_SOURCE, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr(1))
  if (any(ibuf2(1:6) /= [10*left + 1, -1, 10*left + 2, -1, 10*left + 3, -1])) then
    write (0, '(a,6i6)') 'calls_f: Recv into a section gave ', ibuf2(1:6)
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr(1))
  end if
  ! @augur:calls.wait_probe
  call MPI_Wait(sreq, st, ierr(1))

  pbuf = 1.0d0
  ! @augur:calls.iallreduce
  call MPI_Iallreduce(pbuf, ired, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr(1))
  ! @augur:calls.wait_coll
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr(1))

  if (rank == 0) write (*, '(a,i0,a,i0,a,i0)') 'calls_f: ranks=', n, ' tests=', tests, ' provided=', provided
  ! @augur:calls.finalize
  call MPI_Finalize(ONLY_IERR)
end program calls_f
