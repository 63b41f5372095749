! stencil_f -- Fortran mirror of stencil.c (2-D Jacobi with halo exchange on
! a Cartesian process grid); apps/README.md is the specification both follow:
! same arguments (-n ITER -x NX -y NY), same MPI calls in the same order with
! the same counts, tags and communicators, same printed residual.
!
! Every halo goes through a send/receive buffer per direction (u(i, j) is
! column-major, so the x halos are strided anyway), which keeps each MPI call
! on one source line. Byte counts are those of stencil.c: 8*NY to/from x
! neighbours, 8*NX to/from y neighbours.
!
! Every recorded MPI call is on the line right after an "@augur:NAME" marker
! comment and sits in the main program (tests check their call sites).
program stencil_f
  use mpi
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: XM = 0, XP = 1, YM = 2, YP = 3
  ! ierr is an array so every call passes an element: gfortran 12 gives a call
  ! that passes a whole scalar to an INTENT(OUT) dummy of an explicit
  ! interface (Open MPI's `use mpi`, e.g. MPI_Init) the line of another
  ! statement in its debug info, and call sites would resolve to wrong lines.
  integer :: ierr(1)
  integer :: rank, nprocs, cart, crank, nreq, d, cur, nxt, i
  integer :: nx, ny
  integer :: niter, it
  integer :: dims(2), coords(2), nb(0:3), len(0:3)
  logical :: periods(2), ok
  integer :: req(8), sts(MPI_STATUS_SIZE, 8)
  ! MPI writes u and the buffers between Irecv and Waitall: tell the compiler.
  real(dp), allocatable :: u(:, :, :)
  real(dp), allocatable, asynchronous :: sb(:, :), rb(:, :)
  real(dp) :: local, residual
  character(len=16) :: rtext

  ! @augur:stencil.init
  call MPI_Init(ierr(1))
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr(1))
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr(1))

  call parse_args(rank == 0, niter, nx, ny, ok)
  if (.not. ok) then
    if (rank == 0) write (0, '(a)') 'usage: stencil_f [-n ITER] [-x NX] [-y NY]'
    call MPI_Finalize(ierr(1))
    stop 2, quiet=.true.
  end if

  dims = 0
  periods = .false.
  call MPI_Dims_create(nprocs, 2, dims, ierr(1))
  ! @augur:stencil.cart_create
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr(1))
  call MPI_Comm_rank(cart, crank, ierr(1))
  call MPI_Cart_coords(cart, crank, 2, coords, ierr(1))
  call MPI_Cart_shift(cart, 0, 1, nb(XM), nb(XP), ierr(1))
  call MPI_Cart_shift(cart, 1, 1, nb(YM), nb(YP), ierr(1))

  len = (/ny, ny, nx, nx/)
  allocate (u(0:nx + 1, 0:ny + 1, 2), sb(max(nx, ny), 0:3), rb(max(nx, ny), 0:3), stat=i)
  if (i /= 0) then
    write (0, '(a,i0,a,i0,a,i0,a)') 'stencil_f: rank ', rank, ': out of memory for a ', nx, &
      'x', ny, ' block'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr(1))
  end if
  call init_block(u(:, :, 1), nx, ny, nb)
  call init_block(u(:, :, 2), nx, ny, nb)

  residual = 0.0_dp
  cur = 1
  nxt = 2
  do it = 1, niter
    nreq = 0
    do d = 0, 3
      if (nb(d) == MPI_PROC_NULL) cycle
      nreq = nreq + 1
      ! @augur:stencil.irecv
      call MPI_Irecv(rb(1, d), len(d), MPI_DOUBLE_PRECISION, nb(d), ieor(d, 1), cart, req(nreq), ierr(1))
    end do
    if (nb(XM) /= MPI_PROC_NULL) sb(1:ny, XM) = u(1, 1:ny, cur)
    if (nb(XP) /= MPI_PROC_NULL) sb(1:ny, XP) = u(nx, 1:ny, cur)
    if (nb(YM) /= MPI_PROC_NULL) sb(1:nx, YM) = u(1:nx, 1, cur)
    if (nb(YP) /= MPI_PROC_NULL) sb(1:nx, YP) = u(1:nx, ny, cur)
    do d = 0, 3
      if (nb(d) == MPI_PROC_NULL) cycle
      nreq = nreq + 1
      ! @augur:stencil.isend
      call MPI_Isend(sb(1, d), len(d), MPI_DOUBLE_PRECISION, nb(d), d, cart, req(nreq), ierr(1))
    end do
    ! @augur:stencil.waitall
    call MPI_Waitall(nreq, req, sts, ierr(1))
    if (nb(XM) /= MPI_PROC_NULL) u(0, 1:ny, cur) = rb(1:ny, XM)
    if (nb(XP) /= MPI_PROC_NULL) u(nx + 1, 1:ny, cur) = rb(1:ny, XP)
    if (nb(YM) /= MPI_PROC_NULL) u(1:nx, 0, cur) = rb(1:nx, YM)
    if (nb(YP) /= MPI_PROC_NULL) u(1:nx, ny + 1, cur) = rb(1:nx, YP)

    local = sweep(u(:, :, cur), u(:, :, nxt), nx, ny)
    ! @augur:stencil.allreduce
    call MPI_Allreduce(local, residual, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr(1))
    cur = 3 - cur
    nxt = 3 - nxt
  end do

  ! @augur:stencil.comm_free
  call MPI_Comm_free(cart, ierr(1))
  if (rank == 0) then
    ! C's %.6e: lower-case exponent letter.
    write (rtext, '(es12.6e2)') sqrt(residual)
    i = index(rtext, 'E')
    if (i > 0) rtext(i:i) = 'e'
    write (*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0,a,a)') 'stencil_f: ranks=', nprocs, ' grid=', &
      dims(1), 'x', dims(2), ' block=', nx, 'x', ny, ' iter=', niter, ' residual=', trim(adjustl(rtext))
  end if
  deallocate (u, sb, rb)
  ! @augur:stencil.finalize
  call MPI_Finalize(ierr(1))

contains

  ! Global boundary condition: halo cells on an edge of the whole domain hold
  ! 1.0, everything else 0.0.
  subroutine init_block(v, nx, ny, nb)
    integer, intent(in) :: nx, ny, nb(0:3)
    real(dp), intent(out) :: v(0:nx + 1, 0:ny + 1)
    integer :: i, j
    logical :: edge
    do j = 0, ny + 1
      do i = 0, nx + 1
        edge = (i == 0 .and. nb(XM) == MPI_PROC_NULL) .or. (i == nx + 1 .and. nb(XP) == MPI_PROC_NULL) &
               .or. (j == 0 .and. nb(YM) == MPI_PROC_NULL) .or. (j == ny + 1 .and. nb(YP) == MPI_PROC_NULL)
        v(i, j) = merge(1.0_dp, 0.0_dp, edge)
      end do
    end do
  end subroutine init_block

  ! Jacobi sweep; returns the sum of squared changes. Loops run i outer, j
  ! inner like stencil.c so the residual is summed in the same order.
  function sweep(v, vn, nx, ny) result(res)
    integer, intent(in) :: nx, ny
    real(dp), intent(in) :: v(0:nx + 1, 0:ny + 1)
    real(dp), intent(inout) :: vn(0:nx + 1, 0:ny + 1)
    real(dp) :: res, w, dv
    integer :: i, j
    res = 0.0_dp
    do i = 1, nx
      do j = 1, ny
        w = 0.25_dp*(v(i - 1, j) + v(i + 1, j) + v(i, j - 1) + v(i, j + 1))
        dv = w - v(i, j)
        vn(i, j) = w
        res = res + dv*dv
      end do
    end do
  end function sweep

  ! Same rules as apps/common.h: "-c VALUE" options, integer in range; on
  ! error one line on stderr (rank 0 only) and ok = .false. on every rank.
  subroutine parse_args(talk, niter, nx, ny, ok)
    logical, intent(in) :: talk
    integer, intent(out) :: niter, nx, ny
    logical, intent(out) :: ok
    character(len=256) :: prog, a, v
    integer :: i, n, stat
    integer(8) :: val, lo, hi

    niter = 100
    nx = 64
    ny = 64
    ok = .false.
    call get_command_argument(0, prog)
    n = command_argument_count()
    i = 1
    do while (i <= n)
      call get_command_argument(i, a)
      if (a /= '-n' .and. a /= '-x' .and. a /= '-y') then
        if (talk) write (0, '(4a)') trim(prog), ": unknown argument '", trim(a), "'"
        return
      end if
      if (i + 1 > n) then
        if (talk) write (0, '(4a)') trim(prog), ': ', trim(a), ' needs a value'
        return
      end if
      call get_command_argument(i + 1, v)
      lo = 1
      hi = 1048576
      if (a == '-n') hi = 1000000000
      read (v, *, iostat=stat) val
      if (stat /= 0 .or. verify(trim(v), '0123456789') /= 0 .or. val < lo .or. val > hi) then
        if (talk) write (0, '(6a,i0,a,i0,a)') trim(prog), ': ', trim(a), ' ', trim(v), &
          ': expected an integer in [', lo, ', ', hi, ']'
        return
      end if
      select case (a(2:2))
      case ('n')
        niter = int(val)
      case ('x')
        nx = int(val)
      case ('y')
        ny = int(val)
      end select
      i = i + 2
    end do
    ok = .true.
  end subroutine parse_args

end program stencil_f
