# export_io_rma (io_rma.sh): exp_io_rma.c built with MPICH's mpicc, recorded at
# 2 ranks, exported to Chrome, Paraver and OTF2 and checked by check_io_rma.py.
# Included by tests/export/CMakeLists.txt after its MPICH check (_export_env).
set(_exp_out ${CMAKE_CURRENT_BINARY_DIR}/mpich)
file(MAKE_DIRECTORY ${_exp_out})
add_custom_command(OUTPUT ${_exp_out}/exp_io_rma
  COMMAND ${AUGUR_MPI_mpich_MPICC} -std=c11 -D_POSIX_C_SOURCE=200809L -g -O2 -Wall -Wextra
          -o ${_exp_out}/exp_io_rma ${CMAKE_CURRENT_SOURCE_DIR}/exp_io_rma.c
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/exp_io_rma.c
  COMMENT "Building export test mpich/exp_io_rma" VERBATIM)
add_custom_target(export-tests-io-rma ALL DEPENDS ${_exp_out}/exp_io_rma)
add_test(NAME export_io_rma COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/io_rma.sh)
set_tests_properties(export_io_rma PROPERTIES
  ENVIRONMENT "${_export_env};NAME=io_rma;EXP_IO_RMA=${_exp_out}/exp_io_rma;COMPARE=$<$<TARGET_EXISTS:augur-test-compare-traces>:$<TARGET_FILE:augur-test-compare-traces>>"
  LABELS "export;otf2" SKIP_RETURN_CODE 77 TIMEOUT 90)
