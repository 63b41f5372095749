! Recorder test program ("neigh" scenario, Fortran `use mpi`): the calls of
! rec_neigh.c in the same order with the same byte counts, so check_neigh.c
! checks both (and AUGUR_F_FORTRAN on every record of these calls here).
!
! Preprocessed with -DAUGUR_F08 (gfortran -cpp) it makes the same calls
! through `use mpi_f08` (derived-type handles; the calls written with
! OPT_IERR leave out the optional ierror there).
! INTENT(OUT) arguments that were whole scalars (ierr, Win_test's flag) are
! array elements (ierr(1)): gfortran 12 emits no line-table row for some calls
! that pass a whole scalar to an INTENT(OUT) dummy of an explicit interface
! (every mpi_f08 procedure, Open MPI's `use mpi`), so their call sites resolve
! to another statement's line (the PROGRAM line, a DO WHILE) and --site
! (check_site.c) could not check them (calls_f.f90 does the same).
#ifdef AUGUR_F08
#define OPT_IERR
#else
#define OPT_IERR , ierr(1)
#endif
program rec_neigh_f
#ifdef AUGUR_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: r, n, ierr(1), left, right
#ifdef AUGUR_F08
  type(MPI_Comm) :: cart, line, ring, evens, dup
  type(MPI_Group) :: world_g, even_g
  type(MPI_Request) :: q(5), q1
  type(MPI_Datatype) :: tid(2), tdi(2)
#else
  integer :: cart, line, ring, evens, dup
  integer :: world_g, even_g, q(5), q1
  integer :: tid(2), tdi(2)
#endif
  integer :: dims(1), ranges(3, 1), src(1), dst(1)
  logical :: periodic(1), open_(1)
  integer :: is(8), ir(8), is2(8), ir2(8, 5)
  double precision :: ds(8), dr(8), ds2(8), dr2(8)
  character :: wsbuf(16), wrbuf(16), wsbuf2(16), wrbuf2(16)
  integer :: c12(2), c21(2), c22(2), c11(2), d0(2), d2(2)
  integer(kind=MPI_ADDRESS_KIND) :: aw(2)

  call MPI_Init(ierr(1))
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr(1))
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr(1))
  left = mod(r + n - 1, n)
  right = mod(r + 1, n)
  is = 0; is2 = 0; ds = 0; ds2 = 0; wsbuf = ' '; wsbuf2 = ' '
  c12 = (/1, 2/); c21 = (/2, 1/); c22 = (/2, 2/); c11 = (/1, 1/)
  if (n == 2) then  ! rec_neigh.c: the v / w calls send the same size both ways
    c12 = (/1, 1/); c21 = (/1, 1/)
  end if
  d0 = (/0, 1/); d2 = (/0, 2/); aw = (/0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND/)
  tid = (/MPI_INTEGER, MPI_DOUBLE_PRECISION/)
  tdi = (/MPI_DOUBLE_PRECISION, MPI_INTEGER/)
  if (n == 2) then
    tid(2) = MPI_INTEGER; tdi(1) = MPI_INTEGER
  end if
  dims(1) = n
  periodic(1) = .true.
  open_(1) = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periodic, .false., cart, ierr(1))

  call MPI_Neighbor_allgather(is, 1, MPI_INTEGER, ir, 1, MPI_INTEGER, cart, ierr(1))
  call MPI_Neighbor_allgatherv(is, 2, MPI_INTEGER, ir, c22, d2, MPI_INTEGER, cart, ierr(1))
  call MPI_Neighbor_alltoall(ds, 3, MPI_DOUBLE_PRECISION, dr, 3, MPI_DOUBLE_PRECISION, cart OPT_IERR)
  call MPI_Neighbor_alltoallv(is, c12, d0, MPI_INTEGER, ir, c21, d2, MPI_INTEGER, cart, ierr(1))
  call MPI_Neighbor_alltoallw(wsbuf, c11, aw, tid, wrbuf, c11, aw, tdi, cart, ierr(1))

  call MPI_Ineighbor_allgather(is2, 1, MPI_INTEGER, ir2(1, 1), 1, MPI_INTEGER, cart, q(1), ierr(1))
  call MPI_Ineighbor_allgatherv(is2, 2, MPI_INTEGER, ir2(1, 2), c22, d2, MPI_INTEGER, cart, &
                                q(2), ierr(1))
  call MPI_Ineighbor_alltoall(ds2, 3, MPI_DOUBLE_PRECISION, dr2, 3, MPI_DOUBLE_PRECISION, cart, &
                              q(3), ierr(1))
  call MPI_Ineighbor_alltoallv(is2, c12, d0, MPI_INTEGER, ir2(1, 4), c21, d2, MPI_INTEGER, cart, &
                               q(4), ierr(1))
  call MPI_Ineighbor_alltoallw(wsbuf2, c11, aw, tid, wrbuf2, c11, aw, tdi, cart, q(5), ierr(1))
  call MPI_Waitall(5, q, MPI_STATUSES_IGNORE, ierr(1))

  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, open_, .false., line, ierr(1))
  call MPI_Neighbor_allgather(is, 1, MPI_INTEGER, ir, 1, MPI_INTEGER, line, ierr(1))

  src(1) = left
  dst(1) = right
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., ring, ierr(1))
  call MPI_Neighbor_alltoall(is, 5, MPI_INTEGER, ir, 5, MPI_INTEGER, ring, ierr(1))
  call MPI_Ineighbor_alltoall(is2, 5, MPI_INTEGER, ir2(1, 1), 5, MPI_INTEGER, ring, q1, ierr(1))
  call MPI_Wait(q1, MPI_STATUS_IGNORE, ierr(1))

  if (mod(r, 2) == 0) then
    call MPI_Comm_group(MPI_COMM_WORLD, world_g, ierr(1))
    ranges(:, 1) = (/0, n - 1, 2/)
    call MPI_Group_range_incl(world_g, 1, ranges, even_g, ierr(1))
    call MPI_Comm_create_group(MPI_COMM_WORLD, even_g, 7, evens OPT_IERR)
    call MPI_Barrier(evens, ierr(1))
    call MPI_Comm_free(evens, ierr(1))
    call MPI_Group_free(even_g, ierr(1))
    call MPI_Group_free(world_g, ierr(1))
  end if

  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr(1))
  call MPI_Comm_disconnect(dup OPT_IERR)

  call MPI_Comm_free(ring, ierr(1))
  call MPI_Comm_free(line, ierr(1))
  call MPI_Comm_free(cart, ierr(1))
  call MPI_Finalize(ierr(1))
end program rec_neigh_f
