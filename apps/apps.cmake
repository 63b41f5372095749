# Included by apps/CMakeLists.txt once per MPI flavour, with ${flavour} set.
# Builds build/apps/<flavour>/<app> with that flavour's own compiler wrapper
# (mpicc.<flavour>, mpifort.<flavour>): the apps are compiled the way a user
# compiles an MPI program, so `augur record` sees a real-world binary.
#
# The list of apps built for a flavour is published in the global property
# AUGUR_APPS_<flavour> (tests/integration reads it to know, e.g., whether the
# Fortran stencil exists).

set(_apps_out ${CMAKE_BINARY_DIR}/apps/${flavour})
file(MAKE_DIRECTORY ${_apps_out})

# -g: call sites must resolve to source lines. Same warnings as the project.
set(_apps_cflags -std=c11 -D_POSIX_C_SOURCE=200809L -g -O2 -Wall -Wextra -Wshadow
    -Wstrict-prototypes -Wmissing-prototypes)
if(AUGUR_WERROR)
  list(APPEND _apps_cflags -Werror)
endif()

set(_apps_targets "")
# _augur_c_app(APP HEADER PROPERTY): builds APP.c (which includes HEADER)
# with this flavour's mpicc and lists APP in the global PROPERTY_<flavour>.
function(_augur_c_app app header property)
  add_custom_command(
    OUTPUT ${_apps_out}/${app}
    COMMAND ${AUGUR_MPI_${flavour}_MPICC} ${_apps_cflags} -o ${_apps_out}/${app}
            ${CMAKE_CURRENT_SOURCE_DIR}/${app}.c -lm
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${app}.c ${CMAKE_CURRENT_SOURCE_DIR}/${header}
    COMMENT "Building app ${flavour}/${app}"
    VERBATIM)
  set_property(GLOBAL APPEND PROPERTY ${property}_${flavour} ${app})
  set(_apps_targets ${_apps_targets} ${_apps_out}/${app} PARENT_SCOPE)
endfunction()

foreach(_app ring stencil)
  _augur_c_app(${_app} common.h AUGUR_APPS)
endforeach()

# Performance-problem apps (apps/README.md, "Performance problems"): one per
# problem the diagnosis must find. Listed in AUGUR_PG_APPS_<flavour>, not in
# AUGUR_APPS_<flavour>, because tests/integration checks every app listed there
# event by event; tests/proving checks these.
foreach(_app pg_late_barrier pg_imbalance pg_late_receiver pg_wrong_order pg_slow_comm
        pg_late_bcast pg_early_reduce pg_blocked_sender pg_multicast pg_master_worker
        pg_serialization
        pg_io_serial
        pg_rma_latepost pg_rma_fence pg_rma_bulk
        pg_io_small
        pg_io_imbal
        pg_io_coll)
  _augur_c_app(${_app} pg_common.h AUGUR_PG_APPS)
endforeach()

# Placement and call-site apps for the diagnosis (apps/README.md, "dp_*"):
# checked by tests/diagnose, tests/simulate and tests/record, not event by event.
foreach(_app dp_wait_site sim_cpu sim_halo2d sim_pairs)
  _augur_c_app(${_app} pg_common.h AUGUR_DP_APPS)
endforeach()
# POP efficiencies measured by the program's own timers (tests/pop).
_augur_c_app(pop_check pg_common.h AUGUR_DP_APPS)

# Diagnosis rule apps (apps/README.md, "Diagnosis rules"): each reproduces the
# mechanism one rule of `augur diagnose` must get right (tests/diagnose).
foreach(_app dx_chain dx_split dx_alltoall dx_poll dx_eager dx_mpilate dx_halo
        dx_io_reqsize)
  _augur_c_app(${_app} pg_common.h AUGUR_DX_APPS)
endforeach()

# PAS2P prediction apps (apps/README.md, "PAS2P solver"): iterative programs
# with known phases for `augur predict` (tests/predict, bench/predict). Listed
# in AUGUR_PREDICT_APPS_<flavour>, not in AUGUR_APPS_<flavour>.
foreach(_app pas2p_solver pas2p_irregular pred_short_phases pred_p2p_loop pred_guard ph_periodic
             ph_levels)
  _augur_c_app(${_app} common.h AUGUR_PREDICT_APPS)
endforeach()

# OpenMP apps (apps/README.md, "Hybrid MPI+OpenMP"): each built twice,
# build/apps/<flavour>/<app>.gcc with the wrapper's GCC and -fopenmp (libgomp)
# and <app>.clang with clang -fopenmp (LLVM libomp) through the same wrapper
# (MPICH_CC / OMPI_CC pick the compiler; the wrapper still adds MPI's flags).
# The base names go in the global property AUGUR_OMP_APPS_<flavour> and the
# compilers built in AUGUR_OMP_COMPILERS (gcc, and clang when
# apps/CMakeLists.txt found clang with libomp).
set(_omp_compilers gcc)
if(AUGUR_OMP_CLANG)
  list(APPEND _omp_compilers clang)
endif()
set_property(GLOBAL PROPERTY AUGUR_OMP_COMPILERS ${_omp_compilers})
# _augur_omp_app(APP [HEADER...]): APP.c includes the HEADERs (default
# pg_omp.h and pg_common.h).
function(_augur_omp_app app)
  set(_headers ${ARGN})
  if(NOT _headers)
    set(_headers pg_omp.h pg_common.h)
  endif()
  list(TRANSFORM _headers PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  foreach(_cc ${_omp_compilers})
    set(_env "")
    if(_cc STREQUAL "clang")
      set(_env ${CMAKE_COMMAND} -E env MPICH_CC=${AUGUR_OMP_CLANG} OMPI_CC=${AUGUR_OMP_CLANG})
    endif()
    add_custom_command(
      OUTPUT ${_apps_out}/${app}.${_cc}
      COMMAND ${_env} ${AUGUR_MPI_${flavour}_MPICC} ${_apps_cflags} -fopenmp
              -o ${_apps_out}/${app}.${_cc} ${CMAKE_CURRENT_SOURCE_DIR}/${app}.c -lm
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${app}.c ${_headers}
      COMMENT "Building app ${flavour}/${app}.${_cc}"
      VERBATIM)
    list(APPEND _apps_targets ${_apps_out}/${app}.${_cc})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY AUGUR_OMP_APPS_${flavour} ${app})
  set(_apps_targets ${_apps_targets} PARENT_SCOPE)
endfunction()
foreach(_app
        omp_stencil
        pg_omp_imbalance
        pg_omp_serial
        pg_omp_forkjoin
        pg_omp_critical
        pg_omp_masteronly
        pop_check_omp
        omp_sites)
  _augur_omp_app(${_app})
endforeach()
# The OpenMP recording checker (apps/README.md "omp_check"; tests/openmp).
_augur_omp_app(omp_check common.h)
# Hybrid master/worker apps (apps/README.md, "Master/worker (issue 25)"):
# the seed's Nbody, 2-D heat and K-means for `augur sweep` and `augur model`
# (docs/model.md, "apps"; tests/mwapps).
foreach(_app mw_nbody mw_heat mw_kmeans)
  _augur_omp_app(${_app} mw_common.h pg_omp.h pg_common.h)
endforeach()

# Crash-salvage app (apps/README.md, "cr_crash"): a run that crashes or is
# killed, for tests/record/crash.sh (issue 22 item 10).
_augur_c_app(cr_crash common.h AUGUR_CR_APPS)

# Fortran stencil (written separately, mirrors stencil.c): only when the
# source and this flavour's mpifort both exist. Built by a custom command so
# the project stays a C-only project.
# CONFIGURE_DEPENDS: the build re-runs CMake when the file appears later.
file(GLOB _apps_f90 CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/stencil_f.f90)
if(_apps_f90 AND AUGUR_MPI_${flavour}_MPIFORT)
  # Module files (none expected, but gfortran may write some) go to a
  # per-flavour directory so the two flavours never share them.
  set(_apps_mod ${CMAKE_CURRENT_BINARY_DIR}/mod-${flavour})
  file(MAKE_DIRECTORY ${_apps_mod})
  add_custom_command(
    OUTPUT ${_apps_out}/stencil_f
    COMMAND ${AUGUR_MPI_${flavour}_MPIFORT} -g -O2 -Wall -J ${_apps_mod} -o ${_apps_out}/stencil_f
            ${CMAKE_CURRENT_SOURCE_DIR}/stencil_f.f90
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/stencil_f.f90
    COMMENT "Building app ${flavour}/stencil_f"
    VERBATIM)
  list(APPEND _apps_targets ${_apps_out}/stencil_f)
  set_property(GLOBAL APPEND PROPERTY AUGUR_APPS_${flavour} stencil_f)
endif()

add_custom_target(apps_${flavour} ALL DEPENDS ${_apps_targets})
