# One-sided communication (issue 28): rec_rma.c records every one-sided call
# of each epoch kind; check_rma.c (through augur-check-record rma) checks each
# record's fields, the window and group definitions. 2 and 4 ranks, each MPI;
# rec_rma_f.f90 makes the same calls through the Fortran bindings (`use mpi`).
foreach(flavour ${AUGUR_MPIS})
  set(_out ${CMAKE_BINARY_DIR}/tests/record/${flavour})
  add_custom_command(OUTPUT ${_out}/rec_rma
    COMMAND ${AUGUR_MPI_${flavour}_MPICC} -std=c11 -g -O0 -Wall -o ${_out}/rec_rma
            ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma.c
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma.c
    COMMENT "Building recorder test ${flavour}/rec_rma" VERBATIM)
  set(_rma_progs ${_out}/rec_rma)
  if(AUGUR_RECORD_FORTRAN AND AUGUR_MPI_${flavour}_MPIFORT)
    file(MAKE_DIRECTORY ${_out}/rma_mod)
    add_custom_command(OUTPUT ${_out}/rec_rma_f
      COMMAND ${AUGUR_MPI_${flavour}_MPIFORT} -g -O0 -Wall -cpp -J ${_out}/rma_mod -o ${_out}/rec_rma_f
              ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma_f.f90
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma_f.f90
      COMMENT "Building recorder test ${flavour}/rec_rma_f" VERBATIM)
    list(APPEND _rma_progs ${_out}/rec_rma_f)
  endif()
  add_custom_target(record-rma-${flavour} ALL DEPENDS ${_rma_progs})
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
    set_tests_properties(record.${flavour}.n${n}.rma PROPERTIES FIXTURES_SETUP rma_${flavour}_${n})
    # augur report's one-sided section on that trace
    add_test(NAME record.${flavour}.n${n}.rma_report COMMAND sh
      ${CMAKE_CURRENT_SOURCE_DIR}/rma_report.sh $<TARGET_FILE:augur> ${_t} ${n})
    set_tests_properties(record.${flavour}.n${n}.rma_report PROPERTIES TIMEOUT 60
      LABELS "record" FIXTURES_REQUIRED rma_${flavour}_${n})
    if(AUGUR_RECORD_FORTRAN AND AUGUR_MPI_${flavour}_MPIFORT)
      set(_t ${_out}/trace-${n}-rma-f.augur)
      add_test(NAME record.${flavour}.n${n}.rma_fortran COMMAND ${_run}
        ${AUGUR_MPI_${flavour}_MPIEXEC} ${n} $<TARGET_FILE:augur-mpi-${flavour}> ${_out}/rec_rma_f
        ${_t} ok ${_check} rma ${_t} ${n} --fortran --site ${CMAKE_CURRENT_SOURCE_DIR}/rec_rma_f.f90)
      set_tests_properties(record.${flavour}.n${n}.rma_fortran PROPERTIES TIMEOUT 120
        LABELS "mpi;record;fortran" ENVIRONMENT OMPI_MCA_osc=sm,pt2pt)
    endif()
  endforeach()
endforeach()
