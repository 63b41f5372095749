augur-signature 1
# docs/signature.md; written by augur signature
ranks 4
base 3.208889657 0.000000000 0.017984537
modules 1
module 1 pas2p_solver
phases 2
phase 1 1 0.329319122 0 1 0 0
rank 0 2
call 1 * * 1 0x1215 # MPI_Init
call 95 * * 1 0x15cb # MPI_Cart_create
rank 1 2
call 1 * * 1 0x1215 # MPI_Init
call 95 * * 1 0x15cb # MPI_Cart_create
rank 2 2
call 1 * * 1 0x1215 # MPI_Init
call 95 * * 1 0x15cb # MPI_Cart_create
rank 3 2
call 1 * * 1 0x1215 # MPI_Init
call 95 * * 1 0x15cb # MPI_Cart_create
phase 2 100 0.028615860 1 3 0 1
rank 0 16
call 14 2 14 1 0x195b # MPI_Isend
call 14 2 14 1 0x1984 # MPI_Isend
call 18 2 14 1 0x19ad # MPI_Recv
call 18 2 14 1 0x19db # MPI_Recv
call 41 * * 1 0x19ed # MPI_Waitall
call 19 1 15 1 0x1a65 # MPI_Irecv
call 19 1 15 1 0x1a90 # MPI_Irecv
call 14 1 15 1 0x1ae6 # MPI_Isend
call 14 1 15 1 0x1b12 # MPI_Isend
call 41 * * 1 0x1b24 # MPI_Waitall
call 19 3 15 1 0x1bcc # MPI_Irecv
call 19 3 15 1 0x1bf8 # MPI_Irecv
call 10 3 15 1 0x1c1e # MPI_Send
call 10 3 15 1 0x1c44 # MPI_Send
call 41 * * 1 0x1c56 # MPI_Waitall
call 53 * 5 1 0x1caa # MPI_Allreduce
rank 1 16
call 14 2 14 1 0x195b # MPI_Isend
call 14 2 14 1 0x1984 # MPI_Isend
call 18 2 14 1 0x19ad # MPI_Recv
call 18 2 14 1 0x19db # MPI_Recv
call 41 * * 1 0x19ed # MPI_Waitall
call 19 -1 15 1 0x1a65 # MPI_Irecv
call 19 -1 15 1 0x1a90 # MPI_Irecv
call 14 -1 15 1 0x1ae6 # MPI_Isend
call 14 -1 15 1 0x1b12 # MPI_Isend
call 41 * * 1 0x1b24 # MPI_Waitall
call 19 1 15 1 0x1bcc # MPI_Irecv
call 19 1 15 1 0x1bf8 # MPI_Irecv
call 10 1 15 1 0x1c1e # MPI_Send
call 10 1 15 1 0x1c44 # MPI_Send
call 41 * * 1 0x1c56 # MPI_Waitall
call 53 * 5 1 0x1caa # MPI_Allreduce
rank 2 16
call 14 -2 14 1 0x195b # MPI_Isend
call 14 -2 14 1 0x1984 # MPI_Isend
call 18 -2 14 1 0x19ad # MPI_Recv
call 18 -2 14 1 0x19db # MPI_Recv
call 41 * * 1 0x19ed # MPI_Waitall
call 19 1 15 1 0x1a65 # MPI_Irecv
call 19 1 15 1 0x1a90 # MPI_Irecv
call 14 1 15 1 0x1ae6 # MPI_Isend
call 14 1 15 1 0x1b12 # MPI_Isend
call 41 * * 1 0x1b24 # MPI_Waitall
call 19 -1 15 1 0x1bcc # MPI_Irecv
call 19 -1 15 1 0x1bf8 # MPI_Irecv
call 10 -1 15 1 0x1c1e # MPI_Send
call 10 -1 15 1 0x1c44 # MPI_Send
call 41 * * 1 0x1c56 # MPI_Waitall
call 53 * 5 1 0x1caa # MPI_Allreduce
rank 3 16
call 14 -2 14 1 0x195b # MPI_Isend
call 14 -2 14 1 0x1984 # MPI_Isend
call 18 -2 14 1 0x19ad # MPI_Recv
call 18 -2 14 1 0x19db # MPI_Recv
call 41 * * 1 0x19ed # MPI_Waitall
call 19 -1 15 1 0x1a65 # MPI_Irecv
call 19 -1 15 1 0x1a90 # MPI_Irecv
call 14 -1 15 1 0x1ae6 # MPI_Isend
call 14 -1 15 1 0x1b12 # MPI_Isend
call 41 * * 1 0x1b24 # MPI_Waitall
call 19 -3 15 1 0x1bcc # MPI_Irecv
call 19 -3 15 1 0x1bf8 # MPI_Irecv
call 10 -3 15 1 0x1c1e # MPI_Send
call 10 -3 15 1 0x1c44 # MPI_Send
call 41 * * 1 0x1c56 # MPI_Waitall
call 53 * 5 1 0x1caa # MPI_Allreduce
end
