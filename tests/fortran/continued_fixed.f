C     continued_fixed -- a CALL MPI_SEND continued over three lines in
C     fixed form (a character in column 6), as the NAS Parallel
C     Benchmarks write them. Its call site must resolve to the CALL's
C     first line: the line after the marker (tests/fortran/continued.sh).
      PROGRAM CONTFX
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, BUF(4), ST(MPI_STATUS_SIZE)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      BUF = RANK
      IF (RANK .EQ. 0) THEN
C @augur:send
         CALL MPI_SEND(BUF, 4, MPI_INTEGER,
     >                 1, 5,
     >                 MPI_COMM_WORLD, IERR)
      ELSE IF (RANK .EQ. 1) THEN
         CALL MPI_RECV(BUF, 4, MPI_INTEGER, 0, 5, MPI_COMM_WORLD,
     >                 ST, IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
