! Recorder test program ("port" scenario, Fortran): MPI_COMM_WORLD split by
! rank parity; rank 0 opens a port, the even half accepts on it and the odd
! half connects, then both disconnect (check_port.c). Through `use mpi`, or
! `use mpi_f08` when preprocessed with -DAUGUR_F08 (gfortran -cpp): the port
! name is a CHARACTER argument (its hidden length after ierror). INTENT(OUT)
! arguments are array elements (rec_io_f.f90). Needs 2 ranks or more.
program rec_port_f
#ifdef AUGUR_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: ierr(1), r
  character(len=MPI_MAX_PORT_NAME) :: pname
#ifdef AUGUR_F08
  type(MPI_Comm) :: half(1), inter(1)
#else
  integer :: half(1), inter(1)
#endif

  call MPI_Init(ierr(1))
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr(1))
  call MPI_Comm_split(MPI_COMM_WORLD, mod(r, 2), r, half(1), ierr(1))
  if (r == 0) call MPI_Open_port(MPI_INFO_NULL, pname, ierr(1))
  call MPI_Bcast(pname, MPI_MAX_PORT_NAME, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr(1))
  if (mod(r, 2) == 0) then
    call MPI_Comm_accept(pname, MPI_INFO_NULL, 0, half(1), inter(1), ierr(1))
  else
    call MPI_Comm_connect(pname, MPI_INFO_NULL, 0, half(1), inter(1), ierr(1))
  end if
  call MPI_Comm_disconnect(inter(1), ierr(1))
  if (r == 0) call MPI_Close_port(pname, ierr(1))
  call MPI_Comm_free(half(1), ierr(1))
  call MPI_Finalize(ierr(1))
end program rec_port_f
