# `use mpi_f08` (issue 28 item 3): rec_io_f.f90, rec_rma_f.f90 and
# rec_neigh_f.f90 preprocessed with -DAUGUR_F08 make the same calls through
# the Fortran 2008 bindings; the same checkers as for `use mpi` (--fortran:
# AUGUR_F_FORTRAN on every record) plus --site (check_site.c: each record at
# the program's line of its call). 2 and 4 ranks. Included from
# CMakeLists.txt inside its per-flavour loop (flavour, _out, _run, _check,
# _lib set) when the flavour has a Fortran compiler and the recorder its
# Fortran bindings.
foreach(_f08_prog io rma neigh)
  set(_f08_bin ${_out}/rec_${_f08_prog}_f08)
  file(MAKE_DIRECTORY ${_out}/mod_${_f08_prog}_f08)
  add_custom_command(OUTPUT ${_f08_bin}
    COMMAND ${AUGUR_MPI_${flavour}_MPIFORT} -g -O0 -Wall -cpp -DAUGUR_F08
            -J ${_out}/mod_${_f08_prog}_f08 -o ${_f08_bin}
            ${CMAKE_CURRENT_SOURCE_DIR}/rec_${_f08_prog}_f.f90
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_${_f08_prog}_f.f90
    COMMENT "Building recorder test ${flavour}/rec_${_f08_prog}_f08" VERBATIM)
  add_custom_target(record-tests-${_f08_prog}-f08-${flavour} ALL DEPENDS ${_f08_bin})
  foreach(n 2 4)
    set(_f08_t ${_out}/trace-${n}-${_f08_prog}-f08.augur)
    add_test(NAME record.${flavour}.n${n}.${_f08_prog}_f08 COMMAND ${_run}
      ${AUGUR_MPI_${flavour}_MPIEXEC} ${n} ${_lib} ${_f08_bin} ${_f08_t} ok ${_check}
      ${_f08_prog} ${_f08_t} ${n} --fortran --site
      ${CMAKE_CURRENT_SOURCE_DIR}/rec_${_f08_prog}_f.f90)
    # OMPI_MCA_osc: Open MPI's one-sided components that work here (rma.cmake).
    set_tests_properties(record.${flavour}.n${n}.${_f08_prog}_f08 PROPERTIES TIMEOUT 120
      LABELS "mpi;record;fortran" ENVIRONMENT OMPI_MCA_osc=sm,pt2pt)
  endforeach()
endforeach()

# Comm_spawn through `use mpi` (rec_spawn_f) and `use mpi_f08` (rec_spawn_f08):
# check_neigh.c's check_spawn, as for rec_spawn.c (Open MPI spawns one
# untraced child here; MPICH cannot, so its run takes the failure path).
if(flavour STREQUAL "openmpi")
  set(_f08_spawn ok 1)
else()
  set(_f08_spawn fail 0)
endif()
list(GET _f08_spawn 0 _f08_mode)
list(GET _f08_spawn 1 _f08_spawned)
foreach(_f08_v f f08)
  set(_f08_bin ${_out}/rec_spawn_${_f08_v})
  set(_f08_def)
  if(_f08_v STREQUAL f08)
    set(_f08_def -DAUGUR_F08)
  endif()
  file(MAKE_DIRECTORY ${_out}/mod_spawn_${_f08_v})
  add_custom_command(OUTPUT ${_f08_bin}
    COMMAND ${AUGUR_MPI_${flavour}_MPIFORT} -g -O0 -Wall -cpp ${_f08_def}
            -J ${_out}/mod_spawn_${_f08_v} -o ${_f08_bin} ${CMAKE_CURRENT_SOURCE_DIR}/rec_spawn_f.f90
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_spawn_f.f90
    COMMENT "Building recorder test ${flavour}/rec_spawn_${_f08_v}" VERBATIM)
  add_custom_target(record-tests-spawn-${_f08_v}-${flavour} ALL DEPENDS ${_f08_bin})
  set(_f08_t ${_out}/trace-2-spawn-${_f08_v}.augur)
  add_test(NAME record.${flavour}.n2.spawn_${_f08_v} COMMAND ${_run}
    ${AUGUR_MPI_${flavour}_MPIEXEC} 2 ${_lib} ${_f08_bin} ${_f08_t} ok ${_check} spawn ${_f08_t} 2
    ${_f08_spawned} --site ${CMAKE_CURRENT_SOURCE_DIR}/rec_spawn_f.f90)
  set_tests_properties(record.${flavour}.n2.spawn_${_f08_v} PROPERTIES TIMEOUT 120
    LABELS "mpi;record;fortran" ENVIRONMENT REC_SPAWN=${_f08_mode})
endforeach()

# Comm_spawn_multiple through `use mpi` (rec_procs_f) and `use mpi_f08` (rec_procs_f08):
# check_port.c's check_procs without a join (JOINED -1), as rec_procs.c (Open MPI spawns
# one untraced child here; MPICH cannot, so its run takes the failure path).
foreach(_f08_v f f08)
  set(_f08_bin ${_out}/rec_procs_${_f08_v})
  set(_f08_def)
  if(_f08_v STREQUAL f08)
    set(_f08_def -DAUGUR_F08)
  endif()
  file(MAKE_DIRECTORY ${_out}/mod_procs_${_f08_v})
  add_custom_command(OUTPUT ${_f08_bin}
    COMMAND ${AUGUR_MPI_${flavour}_MPIFORT} -g -O0 -Wall -cpp ${_f08_def}
            -J ${_out}/mod_procs_${_f08_v} -o ${_f08_bin} ${CMAKE_CURRENT_SOURCE_DIR}/rec_procs_f.f90
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_procs_f.f90
    COMMENT "Building recorder test ${flavour}/rec_procs_${_f08_v}" VERBATIM)
  add_custom_target(record-tests-procs-${_f08_v}-${flavour} ALL DEPENDS ${_f08_bin})
  set(_f08_t ${_out}/trace-2-procs-${_f08_v}.augur)
  add_test(NAME record.${flavour}.n2.procs_${_f08_v} COMMAND ${_run}
    ${AUGUR_MPI_${flavour}_MPIEXEC} 2 ${_lib} ${_f08_bin} ${_f08_t} ok ${_check} procs ${_f08_t} 2
    ${_f08_spawned} -1 --site ${CMAKE_CURRENT_SOURCE_DIR}/rec_procs_f.f90)
  set_tests_properties(record.${flavour}.n2.procs_${_f08_v} PROPERTIES TIMEOUT 120
    LABELS "mpi;record;fortran" ENVIRONMENT REC_SPAWN=${_f08_mode})
endforeach()

# Comm_connect / Comm_accept / Comm_disconnect through both bindings
# (rec_port_f.f90, check_port.c), Open MPI only: MPICH 4.0's MPI_Open_port
# fails here ("not supported with ucx netmod").
if(flavour STREQUAL "openmpi")
  foreach(_f08_v f f08)
    set(_f08_bin ${_out}/rec_port_${_f08_v})
    set(_f08_def)
    if(_f08_v STREQUAL f08)
      set(_f08_def -DAUGUR_F08)
    endif()
    file(MAKE_DIRECTORY ${_out}/mod_port_${_f08_v})
    add_custom_command(OUTPUT ${_f08_bin}
      COMMAND ${AUGUR_MPI_${flavour}_MPIFORT} -g -O0 -Wall -cpp ${_f08_def}
              -J ${_out}/mod_port_${_f08_v} -o ${_f08_bin} ${CMAKE_CURRENT_SOURCE_DIR}/rec_port_f.f90
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/rec_port_f.f90
      COMMENT "Building recorder test ${flavour}/rec_port_${_f08_v}" VERBATIM)
    add_custom_target(record-tests-port-${_f08_v}-${flavour} ALL DEPENDS ${_f08_bin})
    set(_f08_t ${_out}/trace-4-port-${_f08_v}.augur)
    add_test(NAME record.${flavour}.n4.port_${_f08_v} COMMAND ${_run}
      ${AUGUR_MPI_${flavour}_MPIEXEC} 4 ${_lib} ${_f08_bin} ${_f08_t} ok ${_check} port ${_f08_t} 4
      --site ${CMAKE_CURRENT_SOURCE_DIR}/rec_port_f.f90)
    set_tests_properties(record.${flavour}.n4.port_${_f08_v} PROPERTIES TIMEOUT 120
      LABELS "mpi;record;fortran")
  endforeach()
endif()
