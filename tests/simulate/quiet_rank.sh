# quiet_rank.sh CMD...: runs CMD (an MPI rank) with its session's autogroup
# at nice -20, when the rank leads its own session (MPICH's hydra starts
# each rank in one) and /proc/self/autogroup takes it (root): with
# autogrouping the kernel shares the CPUs between sessions first, so the
# other jobs' sessions (weight 1024 each against 88761) take a few percent
# of the CPUs from the ranks: the run is as on a quiet machine. Otherwise it
# runs CMD as it is (oversub.sh checks the recorded other work).
if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ]; then
  echo -20 >/proc/self/autogroup 2>/dev/null
fi
exec "$@"
