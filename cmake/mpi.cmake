# Finds every MPI installed (MPICH, Open MPI) through pkg-config and the
# compiler wrappers Debian installs with an explicit suffix (mpicc.mpich,
# mpicc.openmpi). Never assumes which one plain `mpicc` points at.
#
# Sets AUGUR_MPIS (list of flavours: mpich, openmpi), and for each flavour F:
#   AUGUR_MPI_<F>_CFLAGS, AUGUR_MPI_<F>_LIBS (C), AUGUR_MPI_<F>_MPICC,
#   AUGUR_MPI_<F>_MPIFORT, AUGUR_MPI_<F>_MPIEXEC
# and AUGUR_MPI_DEFAULT: the flavour `mpicc` on PATH uses (decides which
# recorder build/lib/libaugur-mpi.so is).
set(AUGUR_MPIS "")
if(AUGUR_MPI)
  foreach(flavour mpich openmpi)
    if(flavour STREQUAL "mpich")
      set(pc mpich)
    else()
      set(pc ompi-c)
    endif()
    pkg_check_modules(AUGUR_PC_${flavour} QUIET ${pc})
    find_program(AUGUR_MPI_${flavour}_MPICC NAMES mpicc.${flavour})
    find_program(AUGUR_MPI_${flavour}_MPIFORT NAMES mpifort.${flavour})
    find_program(AUGUR_MPI_${flavour}_MPIEXEC NAMES mpiexec.${flavour})
    if(AUGUR_PC_${flavour}_FOUND AND AUGUR_MPI_${flavour}_MPICC AND AUGUR_MPI_${flavour}_MPIEXEC)
      list(APPEND AUGUR_MPIS ${flavour})
      set(AUGUR_MPI_${flavour}_INCLUDE_DIRS ${AUGUR_PC_${flavour}_INCLUDE_DIRS})
      set(AUGUR_MPI_${flavour}_LDFLAGS ${AUGUR_PC_${flavour}_LDFLAGS})
    endif()
  endforeach()
  if(NOT AUGUR_MPIS)
    message(FATAL_ERROR "No MPI found (need mpich or openmpi with pkg-config files); run scripts/install-deps.sh")
  endif()
  # Which flavour does plain mpicc use?
  set(AUGUR_MPI_DEFAULT "")
  find_program(AUGUR_PLAIN_MPICC NAMES mpicc)
  if(AUGUR_PLAIN_MPICC)
    execute_process(COMMAND ${AUGUR_PLAIN_MPICC} -show OUTPUT_VARIABLE _show ERROR_QUIET)
    if(_show MATCHES "mpich")
      set(AUGUR_MPI_DEFAULT mpich)
    elseif(_show MATCHES "openmpi|-lmpi")
      set(AUGUR_MPI_DEFAULT openmpi)
    endif()
  endif()
  if(NOT AUGUR_MPI_DEFAULT IN_LIST AUGUR_MPIS)
    list(GET AUGUR_MPIS 0 AUGUR_MPI_DEFAULT)
  endif()
  message(STATUS "augur: MPI flavours: ${AUGUR_MPIS} (default: ${AUGUR_MPI_DEFAULT})")
endif()
