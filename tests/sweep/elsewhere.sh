# A run on another host: the placement columns are left empty (hwloc reads
# the sweep's machine only) and the sweep says so, once. The other host is
# this one under another name (a UTS namespace: unshare -u, root only;
# skipped where it is not allowed).
. "$(dirname "$0")/lib.sh"
unshare -u true 2>/dev/null || { echo "skipped: unshare -u not allowed"; exit 77; }
cd "$D"
expect 0 - "$AUGUR" sweep --workload 200,300 --iterations 2 -o e.csv -- \
  unshare -u sh -c 'hostname augur-elsewhere && exec "$0" "$@"' \
  "$MPIEXEC" -n {procs} "$APP" -W {workload} -i {iterations}
for r in 1 2; do
  [ "$(col e.csv status $r)" = ok ] || fail "row $r: $(sed -n $((r + 1))p e.csv)"
  [ -n "$(col e.csv t_iter $r)" ] || fail "row $r: no t_iter"
  [ -z "$(col e.csv cores_used $r)$(col e.csv oversubscribed $r)$(col e.csv ts_0 $r)" ] ||
    fail "row $r: placement of another host filled in: $(sed -n $((r + 1))p e.csv)"
done
[ "$(grep -c 'ran on another host' "$D/err")" -eq 1 ] || fail "want one note: $(cat "$D/err")"
finish
