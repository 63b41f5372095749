# Shared by the shell tests here that run their own mpiexec: fail, and the
# Open MPI settings for root, oversubscription and containers without CMA.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
