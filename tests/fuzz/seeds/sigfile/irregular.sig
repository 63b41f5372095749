augur-signature 2
# docs/signature.md; written by augur signature
ranks 4
mode irregular
comm 0x1 11
base 8.834014885 0.000000000 0.000000000
modules 1
module 1 pas2p_irregular
phases 3
phase 1 1 1.300321562 0 1 0 0
rank 0 20 1 1.300321562 0 1 0
unit 0 1.300321562
call 1 * * 1 0x11b5 # MPI_Init
call 95 * * 1 0x146e # MPI_Cart_create
call 96 * * 1 0x14d7 # MPI_Cart_sub
call 96 * * 1 0x14fe # MPI_Cart_sub
call 14 1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
rank 1 20 1 1.304528278 0 1 0
unit 0 1.304528278
call 1 * * 1 0x11b5 # MPI_Init
call 95 * * 1 0x146e # MPI_Cart_create
call 96 * * 1 0x14d7 # MPI_Cart_sub
call 96 * * 1 0x14fe # MPI_Cart_sub
call 19 -1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
rank 2 20 1 1.280121087 0 1 0
unit 0 1.280121087
call 1 * * 1 0x11b5 # MPI_Init
call 95 * * 1 0x146e # MPI_Cart_create
call 96 * * 1 0x14d7 # MPI_Cart_sub
call 96 * * 1 0x14fe # MPI_Cart_sub
call 14 1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
rank 3 20 1 1.275957604 0 1 0
unit 0 1.275957604
call 1 * * 1 0x11b5 # MPI_Init
call 95 * * 1 0x146e # MPI_Cart_create
call 96 * * 1 0x14d7 # MPI_Cart_sub
call 96 * * 1 0x14fe # MPI_Cart_sub
call 19 -1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 -2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
phase 2 100 0.056665532 1 4 0 1
rank 0 9 100 0.056665532 1 4 1
unit 2 0.078718837
unit 3 0.061890919
unit 4 0.065881792
unit 5 0.072365591
call 53 * 5 1 0x1912 # MPI_Allreduce
call 14 1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
rank 1 9 100 0.057192755 1 4 1
unit 2 0.071747661
unit 3 0.071925232
unit 4 0.080234887
unit 5 0.060206993
call 53 * 5 1 0x1912 # MPI_Allreduce
call 19 -1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
rank 2 9 100 0.057448987 1 4 1
unit 2 0.072711995
unit 3 0.062621597
unit 4 0.065719606
unit 5 0.076346135
call 53 * 5 1 0x1912 # MPI_Allreduce
call 14 1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
rank 3 9 100 0.058082094 1 4 1
unit 2 0.070210861
unit 3 0.073295004
unit 4 0.074749495
unit 5 0.060410139
call 53 * 5 1 0x1912 # MPI_Allreduce
call 19 -1 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -1 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 -2 10 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -2 10 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
phase 3 10 0.188550544 0 1 0 0
rank 0 26 10 0.188550544 0 1 11
unit 11 0.204621393
call 52 * 9 1 0x1b94 # MPI_Reduce
call 51 * 5 1 0x1bbd # MPI_Bcast
call 14 1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
rank 1 26 10 0.179832503 0 1 11
unit 11 0.194141853
call 52 * 8 1 0x1b94 # MPI_Reduce
call 51 * 5 1 0x1bbd # MPI_Bcast
call 19 -1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
rank 2 26 10 0.180760149 0 1 11
unit 11 0.195612362
call 52 * 8 1 0x1b94 # MPI_Reduce
call 51 * 5 1 0x1bbd # MPI_Bcast
call 14 1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
rank 3 26 10 0.174476240 0 1 11
unit 11 0.183178819
call 52 * 8 1 0x1b94 # MPI_Reduce
call 51 * 5 1 0x1bbd # MPI_Bcast
call 19 -1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -1 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -1 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 19 -2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 19 -2 11 1 0x1a7e # MPI_Irecv
call 40 * * 1 0x1a8d # MPI_Wait
call 14 -2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
call 14 -2 11 1 0x19f4 # MPI_Isend
call 40 * * 1 0x1a03 # MPI_Wait
end
