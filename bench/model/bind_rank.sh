# shellcheck shell=sh
# bind_rank.sh CMD...: runs CMD, one MPI rank of a master/worker app, on CPUs
# of its own (bench/model/README.md, "Noise"): rank 0, the master (which
# sleeps while it waits with the apps' -s), may run on every online CPU;
# worker rank r >= 1 gets OMP_NUM_THREADS CPUs, (r-1)*T ... r*T-1 modulo the
# online CPUs, so that with workers x threads <= cores no two worker threads
# share a core. Its OpenMP threads are pinned one per CPU through
# KMP_AFFINITY (LLVM's libomp, which `augur record` runs GCC-built apps on;
# not OMP_PROC_BIND/OMP_PLACES: GCC's libgomp, still loaded, would then pin
# the whole process to the first place before libomp starts its threads, so
# every thread ran on one CPU). The rank comes from PMI_RANK (MPICH's hydra)
# or OMPI_COMM_WORLD_RANK (Open MPI); without either (or without taskset) CMD
# runs as it is.
rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-}}
if [ -n "$rank" ] && [ "$rank" -ge 0 ] 2>/dev/null && command -v taskset >/dev/null; then
  # the online CPUs, in order (/sys/devices/system/cpu/online: "0-3,6")
  cpus=$(tr ',' '\n' </sys/devices/system/cpu/online |
    awk -F- '{ if (NF == 2) { for (c = $1; c <= $2; c++) print c } else print $1 }')
  if [ "$rank" -eq 0 ]; then
    list=$(echo "$cpus" | paste -sd, -)
  else
    n=$(echo "$cpus" | wc -l)
    t=${OMP_NUM_THREADS:-1}
    list=
    i=0
    while [ $i -lt "$t" ]; do
      k=$((((rank - 1) * t + i) % n + 1))
      list=$list${list:+,}$(echo "$cpus" | sed -n "${k}p")
      i=$((i + 1))
    done
    export KMP_AFFINITY=granularity=fine,compact
  fi
  exec taskset -c "$list" "$@"
fi
exec "$@"
