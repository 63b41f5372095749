# augur-bench-dx-gen under a low limit of open files (issue 27 item 4: traces
# of 65,536 rank files made and read under `ulimit -n 1024`): it writes in
# passes a file per rank of the pass, so with the hard limit at 512 it takes
# more passes and writes the same trace, byte for byte, as without a limit.
# Usage: gen_nofile.sh GEN WORKDIR
set -u
GEN=$1 W=$2
rm -rf "$W" && mkdir -p "$W" || exit 1
"$GEN" "$W/free.augur" --ranks 1500 --events 30000 >/dev/null || { echo "FAIL: no limit"; exit 1; }
sh -c 'ulimit -n 512 && ulimit -Hn 512 && exec "$0" "$1" --ranks 1500 --events 30000' \
  "$GEN" "$W/low.augur" >"$W/low.out" 2>&1 ||
  { echo "FAIL: under ulimit -Hn 512: $(cat "$W/low.out")"; exit 1; }
diff -r "$W/free.augur" "$W/low.augur" >/dev/null || { echo "FAIL: the traces differ"; exit 1; }
echo "same trace under ulimit -Hn 512"
