# diagnose's one-sided wait states (rma.sh): pg_rma_latepost (late post, late
# complete, control), pg_rma_fence (wait at fence, control) and pg_rma_bulk
# (rma_volume, control), each MPI. The
# waits are injected compute times on 2-4 ranks of the 2-core machine: timing
# checks (label proving), run alone (RUN_SERIAL). The fence and bulk cases run
# on MPICH only: a fence's wait lands in MPI_Win_fence on both MPIs (measured 0.200 and
# 0.212 s of 0.200 s injected), while where a late post lands differs
# (Win_start, or the first Put under Open MPI's osc pt2pt), so latepost runs on
# both. Suite time: each case is 14-22 s of the serial proving stage.
if(TARGET augur)
  set(_rma_augur $<TARGET_FILE:augur>)
else()
  set(_rma_augur ${CMAKE_BINARY_DIR}/bin/augur)
endif()
foreach(_mpi ${AUGUR_MPIS})
  set(_rma_cases latepost)
  if(_mpi STREQUAL "mpich")
    list(APPEND _rma_cases fence bulk)
  endif()
  foreach(_case ${_rma_cases})
    add_test(NAME diagnose_rma_${_case}_${_mpi} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/rma.sh)
    set_tests_properties(diagnose_rma_${_case}_${_mpi} PROPERTIES
      ENVIRONMENT "WORK=${CMAKE_CURRENT_BINARY_DIR}/work;NAME=rma_${_case}_${_mpi};CASE=${_case};AUGUR=${_rma_augur};MPIEXEC=${AUGUR_MPI_${_mpi}_MPIEXEC};APPS=${CMAKE_BINARY_DIR}/apps/${_mpi};SRC=${CMAKE_SOURCE_DIR}/apps;PY=/usr/bin/python3"
      LABELS "diagnose;mpi;proving" TIMEOUT 120 RUN_SERIAL TRUE)
  endforeach()
endforeach()
