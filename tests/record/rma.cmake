# One-sided communication (issue 28): rec_rma.c records every one-sided call
# of each epoch kind; check_rma.c (through augur-check-record rma) checks each
# record's fields, the window and group definitions. 2 and 4 ranks, each MPI.
foreach(flavour ${AUGUR_MPIS})
  set(_out ${CMAKE_BINARY_DIR}/tests/record/${flavour})
  add_custom_command(OUTPUT ${_out}/rec_rma
    COMMAND ${AUGUR_MPI_${flavour}_MPICC} -std=c11 -g -O0 -Wall -o ${_out}/rec_rma
            ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma.c
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma.c
    COMMENT "Building recorder test ${flavour}/rec_rma" VERBATIM)
  add_custom_target(record-rma-${flavour} ALL DEPENDS ${_out}/rec_rma)
  foreach(n 2 4)
    set(_t ${_out}/trace-${n}-rma.augur)
    add_test(NAME record.${flavour}.n${n}.rma COMMAND ${_run} ${AUGUR_MPI_${flavour}_MPIEXEC} ${n}
      $<TARGET_FILE:augur-mpi-${flavour}> ${_out}/rec_rma ${_t} ok ${_check} rma ${_t} ${n})
    # Open MPI 4.1: its default one-sided component (osc rdma) needs a single-copy
    # transport, which run_record_test.sh turns off (containers without CMA):
    # Win_create then fails with MPI_ERR_WIN. osc pt2pt works over any BTL but
    # cannot make shared windows; sm makes those. MPICH ignores the variable.
    set_tests_properties(record.${flavour}.n${n}.rma PROPERTIES TIMEOUT 120 LABELS "mpi;record"
      ENVIRONMENT OMPI_MCA_osc=sm,pt2pt)
  endforeach()
endforeach()
