# diagnose's one-sided wait states (rma.sh): pg_rma_latepost (late post, late
# complete, control) and pg_rma_fence (wait at fence, control), each MPI. The
# waits are injected compute times on 2-4 ranks of the 2-core machine: timing
# checks (label proving), run alone (RUN_SERIAL).
if(TARGET augur)
  set(_rma_augur $<TARGET_FILE:augur>)
else()
  set(_rma_augur ${CMAKE_BINARY_DIR}/bin/augur)
endif()
foreach(_mpi ${AUGUR_MPIS})
  foreach(_case latepost fence)
    add_test(NAME diagnose_rma_${_case}_${_mpi} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/rma.sh)
    set_tests_properties(diagnose_rma_${_case}_${_mpi} PROPERTIES
      ENVIRONMENT "WORK=${CMAKE_CURRENT_BINARY_DIR}/work;NAME=rma_${_case}_${_mpi};CASE=${_case};AUGUR=${_rma_augur};MPIEXEC=${AUGUR_MPI_${_mpi}_MPIEXEC};APPS=${CMAKE_BINARY_DIR}/apps/${_mpi};SRC=${CMAKE_SOURCE_DIR}/apps;PY=/usr/bin/python3"
      LABELS "diagnose;mpi;proving" TIMEOUT 120 RUN_SERIAL TRUE)
  endforeach()
endforeach()
