# pair_rank.sh together|apart CMD...: runs an MPICH rank (PMI_RANK) on one
# CPU, rank r on CPU r / 2 (together: partners r and r ^ 1 share a CPU) or
# r % 2 (apart), through quiet_rank.sh (its session at autogroup nice -20).
c=$((PMI_RANK % 2))
[ "$1" = together ] && c=$((PMI_RANK / 2))
shift
exec taskset -c "$c" sh "$(dirname "$0")/quiet_rank.sh" "$@"
