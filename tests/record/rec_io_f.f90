! Recorder test program ("io" scenario, Fortran `use mpi`): the calls of
! rec_io.c in the same order with the same sizes, so check_io.c checks both
! (with --fortran: every record carries AUGUR_F_FORTRAN). File names are
! blank-padded CHARACTER arguments here.
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
program rec_io_f
#ifdef AUGUR_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer, parameter :: K = 16, R = 14
  integer :: rank, nranks, ierr(1)
  integer :: buf(K)
#ifdef AUGUR_F08
  type(MPI_File) :: fh
  type(MPI_Request) :: q
  type(MPI_Status) :: st
#else
  integer :: fh, q
  integer :: st(MPI_STATUS_SIZE)
#endif
  character(len=256) :: name

  call MPI_Init(ierr(1))
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr(1))
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr(1))
  if (rank == 0) write (name, '(A,I0,A)') '/tmp/augur-rec-io-f-', getpid(), '.dat'
  call MPI_Bcast(name, 256, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr(1))
  call MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr(1))
  call MPI_File_set_size(fh, 0_MPI_OFFSET_KIND, ierr(1))
  call MPI_File_preallocate(fh, int(R * nranks * K * 4, MPI_OFFSET_KIND), ierr(1))
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr(1))

  ! writes: region g by call kind g
  call fill(0); call MPI_File_write_at(fh, at(0), buf, K, MPI_INTEGER, st, ierr(1))
  call fill(1); call MPI_File_write_at_all(fh, at(1), buf, K, MPI_INTEGER, MPI_STATUS_IGNORE, ierr(1))
  call fill(2); call MPI_File_seek(fh, at(2), MPI_SEEK_SET, ierr(1))
  call MPI_File_write(fh, buf, K, MPI_INTEGER, st, ierr(1))
  call fill(3); call MPI_File_seek(fh, at(3), MPI_SEEK_SET, ierr(1))
  call MPI_File_write_all(fh, buf, K, MPI_INTEGER, st, ierr(1))
  call fill(4); call MPI_File_iwrite_at(fh, at(4), buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  call fill(5); call MPI_File_seek(fh, at(5), MPI_SEEK_SET, ierr(1))
  call MPI_File_iwrite(fh, buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, MPI_STATUS_IGNORE, ierr(1))
  call fill(6); call MPI_File_iwrite_at_all(fh, at(6), buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  call fill(7); call MPI_File_seek(fh, at(7), MPI_SEEK_SET, ierr(1))
  call MPI_File_iwrite_all(fh, buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  call fill(8); call MPI_File_write_at_all_begin(fh, at(8), buf, K, MPI_INTEGER, ierr(1))
  call MPI_File_write_at_all_end(fh, buf, st, ierr(1))
  call fill(9); call MPI_File_seek(fh, at(9), MPI_SEEK_SET, ierr(1))
  call MPI_File_write_all_begin(fh, buf, K, MPI_INTEGER, ierr(1))
  call MPI_File_write_all_end(fh, buf, MPI_STATUS_IGNORE, ierr(1))
  call MPI_File_seek_shared(fh, int(10 * nranks * K, MPI_OFFSET_KIND), MPI_SEEK_SET, ierr(1))
  call fill(10); call MPI_File_write_ordered(fh, buf, K, MPI_INTEGER, st, ierr(1))
  call fill(11); call MPI_File_write_ordered_begin(fh, buf, K, MPI_INTEGER, ierr(1))
  call MPI_File_write_ordered_end(fh, buf, st, ierr(1))
  call fill(12); call MPI_File_write_shared(fh, buf, K, MPI_INTEGER, st OPT_IERR)
  call fill(13); call MPI_File_iwrite_shared(fh, buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  call MPI_File_sync(fh OPT_IERR)

  ! reads, in the same order
  call MPI_File_read_at(fh, at(0), buf, K, MPI_INTEGER, st, ierr(1)); call verify(0, rank)
  call MPI_File_read_at_all(fh, at(1), buf, K, MPI_INTEGER, st, ierr(1)); call verify(1, rank)
  call MPI_File_seek(fh, at(2), MPI_SEEK_SET, ierr(1))
  call MPI_File_read(fh, buf, K, MPI_INTEGER, st, ierr(1)); call verify(2, rank)
  call MPI_File_seek(fh, at(3), MPI_SEEK_SET, ierr(1))
  call MPI_File_read_all(fh, buf, K, MPI_INTEGER, MPI_STATUS_IGNORE OPT_IERR); call verify(3, rank)
  call MPI_File_iread_at(fh, at(4), buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, MPI_STATUS_IGNORE, ierr(1)); call verify(4, rank)
  call MPI_File_seek(fh, at(5), MPI_SEEK_SET, ierr(1))
  call MPI_File_iread(fh, buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1)); call verify(5, rank)
  call MPI_File_iread_at_all(fh, at(6), buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1)); call verify(6, rank)
  call MPI_File_seek(fh, at(7), MPI_SEEK_SET, ierr(1))
  call MPI_File_iread_all(fh, buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1)); call verify(7, rank)
  call MPI_File_read_at_all_begin(fh, at(8), buf, K, MPI_INTEGER, ierr(1))
  call MPI_File_read_at_all_end(fh, buf, st, ierr(1)); call verify(8, rank)
  call MPI_File_seek(fh, at(9), MPI_SEEK_SET, ierr(1))
  call MPI_File_read_all_begin(fh, buf, K, MPI_INTEGER, ierr(1))
  call MPI_File_read_all_end(fh, buf, st, ierr(1)); call verify(9, rank)
  call MPI_File_seek_shared(fh, int(10 * nranks * K, MPI_OFFSET_KIND), MPI_SEEK_SET, ierr(1))
  call MPI_File_read_ordered(fh, buf, K, MPI_INTEGER, st, ierr(1)); call verify(10, rank)
  call MPI_File_read_ordered_begin(fh, buf, K, MPI_INTEGER, ierr(1))
  call MPI_File_read_ordered_end(fh, buf, st, ierr(1)); call verify(11, rank)
  call MPI_File_read_shared(fh, buf, K, MPI_INTEGER, st, ierr(1)); call verify(12, -1)
  call MPI_File_iread_shared(fh, buf, K, MPI_INTEGER, q, ierr(1))
  call MPI_Wait(q, st, ierr(1)); call verify(12, -1)
  ! past the end of the file: the status says 0 bytes were read
  call MPI_File_read_at(fh, at(R), buf, K, MPI_INTEGER, st, ierr(1))
  call MPI_File_close(fh, ierr(1))

  call MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, fh OPT_IERR)
  call MPI_File_read_at(fh, at(0) * 4, buf, K, MPI_INTEGER, st, ierr(1)); call verify(0, rank)
  call MPI_File_close(fh, ierr(1))
  call MPI_Barrier(MPI_COMM_WORLD, ierr(1))
  if (rank == 0) call MPI_File_delete(name, MPI_INFO_NULL, ierr(1))
  call MPI_Finalize(ierr(1))

contains

  integer(kind=MPI_OFFSET_KIND) function at(g)
    integer, intent(in) :: g
    at = (int(g, MPI_OFFSET_KIND) * nranks + rank) * K
  end function at

  subroutine fill(g)
    integer, intent(in) :: g
    integer :: i
    do i = 1, K
      buf(i) = g * 100000 + rank * 1000 + (i - 1)
    end do
  end subroutine fill

  ! region g (or g + 1 when from < 0: shared-pointer reads interleave), from rank `from`
  subroutine verify(g, from)
    integer, intent(in) :: g, from
    integer :: i, got_g, who, idx
    do i = 1, K
      got_g = buf(i) / 100000
      who = mod(buf(i), 100000) / 1000
      idx = mod(buf(i), 1000)
      if ((got_g /= g .and. .not. (from < 0 .and. got_g == g + 1)) .or. idx /= i - 1 .or. &
          (from >= 0 .and. who /= from)) then
        print *, 'rank', rank, ': region', g, 'element', i, 'holds', buf(i)
        call MPI_Abort(MPI_COMM_WORLD, 3, ierr(1))
      end if
    end do
    buf = -1
  end subroutine verify
end program rec_io_f
