! Recorder test program ("rma" scenario, Fortran `use mpi`): the same calls in
! the same order as rec_rma.c, so check_rma.c checks both (with --fortran it
! also wants AUGUR_F_FORTRAN on every one-sided record).
program rec_rma_f
  use mpi
  implicit none
  integer :: ierr, r, n, right, left, tr, tl, rev, world_g, from_g, to_g
  integer :: a, b, c, d, q, i
  logical :: flag
  integer :: mem(256), src(16), res(16)
  integer(kind=MPI_ADDRESS_KIND) :: sz, disp, bptr
  integer :: st(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  right = mod(r + 1, n)
  left = mod(r + n - 1, n)
  call MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, rev, ierr)
  tr = n - 1 - right
  tl = n - 1 - left
  mem = 0
  do i = 1, 16
    src(i) = r * 100 + i
  end do

  ! A. fence epoch
  sz = 64 * 4
  call MPI_Win_create(mem, sz, 4, MPI_INFO_NULL, rev, a, ierr)
  call MPI_Win_fence(0, a, ierr)
  disp = 0
  call MPI_Put(src, 4, MPI_INTEGER, tr, disp, 4, MPI_INTEGER, a, ierr)
  disp = 8
  call MPI_Get(res, 2, MPI_INTEGER, tl, disp, 2, MPI_INTEGER, a, ierr)
  disp = 16
  call MPI_Accumulate(src, 3, MPI_INTEGER, tr, disp, 3, MPI_INTEGER, MPI_SUM, a, ierr)
  call MPI_Win_fence(MPI_MODE_NOSUCCEED, a, ierr)

  ! B. PSCW, then again polled with Win_test
  call MPI_Comm_group(MPI_COMM_WORLD, world_g, ierr)
  call MPI_Group_incl(world_g, 1, [left], from_g, ierr)
  call MPI_Group_incl(world_g, 1, [right], to_g, ierr)
  call MPI_Win_post(from_g, 0, a, ierr)
  call MPI_Win_start(to_g, 0, a, ierr)
  disp = 24
  call MPI_Put(src, 1, MPI_INTEGER, tr, disp, 1, MPI_INTEGER, a, ierr)
  call MPI_Win_complete(a, ierr)
  call MPI_Win_wait(a, ierr)
  call MPI_Win_post(from_g, MPI_MODE_NOCHECK, a, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_start(to_g, MPI_MODE_NOCHECK, a, ierr)
  call MPI_Win_complete(a, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Win_test(a, flag, ierr)
  end do

  ! C. passive target
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tr, 0, a, ierr)
  disp = 32
  call MPI_Get_accumulate(src, 2, MPI_INTEGER, res, 2, MPI_INTEGER, tr, disp, 2, MPI_INTEGER, &
                          MPI_SUM, a, ierr)
  call MPI_Win_unlock(tr, a, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, tl, MPI_MODE_NOCHECK, a, ierr)
  disp = 40
  call MPI_Fetch_and_op(src, res, MPI_INTEGER, tl, disp, MPI_SUM, a, ierr)
  disp = 41
  call MPI_Compare_and_swap(src, src(2), res, MPI_INTEGER, tl, disp, a, ierr)
  call MPI_Win_unlock(tl, a, ierr)

  ! D. lock_all with request-based calls and flushes
  call MPI_Win_lock_all(0, a, ierr)
  disp = 48
  call MPI_Rput(src, 5, MPI_INTEGER, tr, disp, 5, MPI_INTEGER, a, q, ierr)
  call MPI_Wait(q, st, ierr)
  call MPI_Rget(res, 6, MPI_INTEGER, tl, disp, 6, MPI_INTEGER, a, q, ierr)
  call MPI_Wait(q, st, ierr)
  disp = 56
  call MPI_Raccumulate(src, 7, MPI_INTEGER, tr, disp, 7, MPI_INTEGER, MPI_SUM, a, q, ierr)
  call MPI_Wait(q, st, ierr)
  disp = 0
  call MPI_Rget_accumulate(src, 0, MPI_INTEGER, res, 1, MPI_INTEGER, tl, disp, 1, MPI_INTEGER, &
                           MPI_NO_OP, a, q, ierr)
  call MPI_Wait(q, st, ierr)
  call MPI_Win_flush(tr, a, ierr)
  call MPI_Win_flush_local(tl, a, ierr)
  call MPI_Win_flush_all(a, ierr)
  call MPI_Win_flush_local_all(a, ierr)
  call MPI_Win_sync(a, ierr)
  call MPI_Win_unlock_all(a, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_free(a, ierr)

  ! E. Win_allocate
  sz = 128
  call MPI_Win_allocate(sz, 1, MPI_INFO_NULL, MPI_COMM_WORLD, bptr, b, ierr)
  call MPI_Win_fence(MPI_MODE_NOPRECEDE, b, ierr)
  disp = 0
  call MPI_Put(src, 8, MPI_BYTE, right, disp, 8, MPI_BYTE, b, ierr)
  call MPI_Win_fence(ior(MPI_MODE_NOSTORE, ior(MPI_MODE_NOPUT, MPI_MODE_NOSUCCEED)), b, ierr)
  call MPI_Win_free(b, ierr)

  ! F. Win_allocate_shared
  sz = 32
  call MPI_Win_allocate_shared(sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, bptr, c, ierr)
  call MPI_Win_free(c, ierr)

  ! G. dynamic window
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, d, ierr)
  sz = 256
  call MPI_Win_attach(d, mem(129), sz, ierr)
  call MPI_Win_detach(d, mem(129), ierr)
  call MPI_Win_free(d, ierr)

  call MPI_Group_free(from_g, ierr)
  call MPI_Group_free(to_g, ierr)
  call MPI_Group_free(world_g, ierr)
  call MPI_Comm_free(rev, ierr)
  call MPI_Finalize(ierr)
end program rec_rma_f
