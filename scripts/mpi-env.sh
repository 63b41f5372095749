# Sourced by scripts and tests: lets Open MPI run as root (CI runs as root) and
# oversubscribe the 2-core machines augur is tested on. Harmless for MPICH.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
