! Recorder test program ("rma" scenario, Fortran `use mpi`): the same calls in
! the same order as rec_rma.c, so check_rma.c checks both (with --fortran it
! also wants AUGUR_F_FORTRAN on every one-sided record).
!
! Preprocessed with -DAUGUR_F08 (gfortran -cpp) it makes the same calls
! through `use mpi_f08` (derived-type handles, Win_allocate's TYPE(C_PTR);
! the calls written with OPT_IERR leave out the optional ierror there).
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
program rec_rma_f
#ifdef AUGUR_F08
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr
#else
  use mpi
#endif
  implicit none
  integer :: ierr(1), r, n, right, left, tr, tl, i
  logical :: flag(1)
  integer :: mem(256), src(16), res(16)
  integer(kind=MPI_ADDRESS_KIND) :: sz, disp
#ifdef AUGUR_F08
  type(MPI_Comm) :: rev
  type(MPI_Group) :: world_g, from_g, to_g
  type(MPI_Win) :: a, b, c, d
  type(MPI_Request) :: q
  type(c_ptr) :: bptr
  type(MPI_Status) :: st
#else
  integer :: rev, world_g, from_g, to_g
  integer :: a, b, c, d, q
  integer(kind=MPI_ADDRESS_KIND) :: bptr
  integer :: st(MPI_STATUS_SIZE)
#endif

  call MPI_Init(ierr(1))
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr(1))
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr(1))
  right = mod(r + 1, n)
  left = mod(r + n - 1, n)
  call MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, rev, ierr(1))
  tr = n - 1 - right
  tl = n - 1 - left
  mem = 0
  do i = 1, 16
    src(i) = r * 100 + i
  end do

  ! A. fence epoch
  sz = 64 * 4
  call MPI_Win_create(mem, sz, 4, MPI_INFO_NULL, rev, a, ierr(1))
  call MPI_Win_fence(0, a OPT_IERR)
  disp = 0
  call MPI_Put(src, 4, MPI_INTEGER, tr, disp, 4, MPI_INTEGER, a, ierr(1))
  disp = 8
  call MPI_Get(res, 2, MPI_INTEGER, tl, disp, 2, MPI_INTEGER, a, ierr(1))
  disp = 16
  call MPI_Accumulate(src, 3, MPI_INTEGER, tr, disp, 3, MPI_INTEGER, MPI_SUM, a, ierr(1))
  call MPI_Win_fence(MPI_MODE_NOSUCCEED, a, ierr(1))

  ! B. PSCW, then again polled with Win_test
  call MPI_Comm_group(MPI_COMM_WORLD, world_g, ierr(1))
  call MPI_Group_incl(world_g, 1, [left], from_g, ierr(1))
  call MPI_Group_incl(world_g, 1, [right], to_g, ierr(1))
  call MPI_Win_post(from_g, 0, a, ierr(1))
  call MPI_Win_start(to_g, 0, a, ierr(1))
  disp = 24
  call MPI_Put(src, 1, MPI_INTEGER, tr, disp, 1, MPI_INTEGER, a OPT_IERR)
  call MPI_Win_complete(a, ierr(1))
  call MPI_Win_wait(a OPT_IERR)
  call MPI_Win_post(from_g, MPI_MODE_NOCHECK, a, ierr(1))
  call MPI_Barrier(MPI_COMM_WORLD, ierr(1))
  call MPI_Win_start(to_g, MPI_MODE_NOCHECK, a, ierr(1))
  call MPI_Win_complete(a, ierr(1))
  flag(1) = .false.
  do while (.not. flag(1))
    call MPI_Win_test(a, flag(1), ierr(1))
  end do

  ! C. passive target
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tr, 0, a, ierr(1))
  disp = 32
  call MPI_Get_accumulate(src, 2, MPI_INTEGER, res, 2, MPI_INTEGER, tr, disp, 2, MPI_INTEGER, &
                          MPI_SUM, a, ierr(1))
  call MPI_Win_unlock(tr, a, ierr(1))
  call MPI_Win_lock(MPI_LOCK_SHARED, tl, MPI_MODE_NOCHECK, a, ierr(1))
  disp = 40
  call MPI_Fetch_and_op(src, res, MPI_INTEGER, tl, disp, MPI_SUM, a, ierr(1))
  disp = 41
  call MPI_Compare_and_swap(src, src(2), res, MPI_INTEGER, tl, disp, a, ierr(1))
  call MPI_Win_unlock(tl, a, ierr(1))

  ! D. lock_all with request-based calls and flushes
  call MPI_Win_lock_all(0, a, ierr(1))
  disp = 48
  call MPI_Rput(src, 5, MPI_INTEGER, tr, disp, 5, MPI_INTEGER, a, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  call MPI_Rget(res, 6, MPI_INTEGER, tl, disp, 6, MPI_INTEGER, a, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  disp = 56
  call MPI_Raccumulate(src, 7, MPI_INTEGER, tr, disp, 7, MPI_INTEGER, MPI_SUM, a, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  disp = 0
  call MPI_Rget_accumulate(src, 0, MPI_INTEGER, res, 1, MPI_INTEGER, tl, disp, 1, MPI_INTEGER, &
                           MPI_NO_OP, a, q, ierr(1))
  call MPI_Wait(q, st, ierr(1))
  call MPI_Win_flush(tr, a, ierr(1))
  call MPI_Win_flush_local(tl, a, ierr(1))
  call MPI_Win_flush_all(a OPT_IERR)
  call MPI_Win_flush_local_all(a, ierr(1))
  call MPI_Win_sync(a, ierr(1))
  call MPI_Win_unlock_all(a, ierr(1))
  call MPI_Barrier(MPI_COMM_WORLD, ierr(1))
  call MPI_Win_free(a, ierr(1))

  ! E. Win_allocate
  sz = 128
  call MPI_Win_allocate(sz, 1, MPI_INFO_NULL, MPI_COMM_WORLD, bptr, b, ierr(1))
  call MPI_Win_fence(MPI_MODE_NOPRECEDE, b, ierr(1))
  disp = 0
  call MPI_Put(src, 8, MPI_BYTE, right, disp, 8, MPI_BYTE, b, ierr(1))
  call MPI_Win_fence(ior(MPI_MODE_NOSTORE, ior(MPI_MODE_NOPUT, MPI_MODE_NOSUCCEED)), b, ierr(1))
  call MPI_Win_free(b, ierr(1))

  ! F. Win_allocate_shared
  sz = 32
  call MPI_Win_allocate_shared(sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, bptr, c, ierr(1))
  call MPI_Win_free(c, ierr(1))

  ! G. dynamic window
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, d OPT_IERR)
  sz = 256
  call MPI_Win_attach(d, mem(129), sz, ierr(1))
  call MPI_Win_detach(d, mem(129), ierr(1))
  call MPI_Win_free(d, ierr(1))

  call MPI_Group_free(from_g, ierr(1))
  call MPI_Group_free(to_g, ierr(1))
  call MPI_Group_free(world_g, ierr(1))
  call MPI_Comm_free(rev, ierr(1))
  call MPI_Finalize(ierr(1))
end program rec_rma_f
