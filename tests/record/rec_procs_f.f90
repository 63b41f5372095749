! Recorder test program ("procs" scenario, Fortran, 2 ranks): rec_procs.c's
! MPI_Comm_spawn_multiple through `use mpi`, or through `use mpi_f08` when
! preprocessed with -DAUGUR_F08 (gfortran -cpp), with MPI_ARGVS_NULL and
! MPI_ERRCODES_IGNORE. REC_SPAWN=ok: one command, one process, the child is this
! program, which sends 8 bytes to the parents' rank 0 and disconnects; otherwise a
! program that does not exist, with MPI_ERRORS_RETURN. No MPI_Comm_join (it needs a
! socket, which Fortran has not): the checker is told so (JOINED -1). The child is not
! recorded. INTENT(OUT) arguments are array elements (rec_io_f.f90).
program rec_procs_f
#ifdef AUGUR_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer :: ierr(1), rc(1), r, procs(1)
  double precision :: x
  character(len=4096) :: cmds(1), mode
  logical :: ok
#ifdef AUGUR_F08
  type(MPI_Comm) :: parent, inter
  type(MPI_Info) :: infos(1)
#else
  integer :: parent, inter, infos(1)
#endif

  x = 1.0d0
  call MPI_Init(ierr(1))
  call MPI_Comm_get_parent(parent, ierr(1))
  if (parent /= MPI_COMM_NULL) then
    call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, 0, 5, parent, ierr(1))
    call MPI_Comm_disconnect(parent, ierr(1))
    call MPI_Finalize(ierr(1))
    stop
  end if
  call get_environment_variable('REC_SPAWN', mode)
  ok = mode == 'ok'
  cmds(1) = '/nonexistent/augur-rec-spawn'
  if (ok) call get_command_argument(0, cmds(1))
  procs(1) = 1
  infos(1) = MPI_INFO_NULL
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr(1))
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr(1))
  call MPI_Comm_spawn_multiple(1, cmds, MPI_ARGVS_NULL, procs, infos, 0, MPI_COMM_WORLD, inter, &
                               MPI_ERRCODES_IGNORE, rc(1))
  if (ok .neqv. (rc(1) == MPI_SUCCESS)) call MPI_Abort(MPI_COMM_WORLD, 3, ierr(1))
  if (ok) then
    if (r == 0) call MPI_Recv(x, 1, MPI_DOUBLE_PRECISION, 0, 5, inter, MPI_STATUS_IGNORE, ierr(1))
    call MPI_Comm_disconnect(inter, ierr(1))
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr(1))
  call MPI_Finalize(ierr(1))
end program rec_procs_f
