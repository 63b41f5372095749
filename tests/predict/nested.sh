# One phase's calls inside another's (issue 21, the online matcher's
# overlap): `augur phases` cuts the run into pieces, so a repetition never
# lies inside another; the signature run's matcher has one automaton per
# phase, and a phase whose calls are part of a longer phase's matched inside
# it too (NPB MG B: phase 12's 18 calls are the first 18 of phase 4's; its
# phase 4 was seen 3 times for a weight of 2). nested_sig.py rewrites
# ph_periodic's signature so that every K-th iteration is one phase (the
# iteration's calls, then the extra exchange) beside the plain iteration
# (weight N - N/K), whose fingerprint lies inside it.
#  - Run to its end (--measure beyond the weights): the plain iteration is
#    seen N - N/K times, the K-th N/K times (before the fix: N and N/K).
#  - Stopped early: 4 plain iterations for each K-th one (K = 5), give or
#    take the one in flight.
# usage: nested.sh MPIEXEC APPDIR
. "$(dirname "$0")/../lib.sh"
mpiexec=$1
app=$2/ph_periodic
[ -x "$app" ] || { echo "skipped: ph_periodic not built"; exit 77; }

T="$D/p.augur"
expect 0 - "$AUGUR" record -o "$T" -- "$mpiexec" -n 2 "$app" -n 200 -k 5 -w 50
expect 0 0 "$AUGUR" signature "$T" -o "$D/p.sig"
"$PY" "$(dirname "$0")/nested_sig.py" "$D/p.sig" "$D/c.sig" 200 5 || fail "nested_sig.py"

seen() { # JSON: print "id seen" per phase
  "$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["stopped_early"], " ".join("%d:%d" % (p["id"], p["seen"]) for p in d["phases"]))' "$1"
}
expect 0 - "$AUGUR" predict --json --measure 1000 --signature "$D/c.sig" -- "$mpiexec" -n 2 "$app" -n 200 -k 5 -w 50
grep '^{' "$D/out" >"$D/full.json"
got=$(seen "$D/full.json")
[ "$got" = "False 1:1 2:160 9:40" ] || fail "run to its end: seen $got, want False 1:1 2:160 9:40"

expect 0 - "$AUGUR" predict --json --signature "$D/c.sig" -- "$mpiexec" -n 2 "$app" -n 2000 -k 5 -w 50
grep '^{' "$D/out" >"$D/stop.json"
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = {p["id"]: p["seen"] for p in d["phases"]}
assert d["stopped_early"], d
assert 4 * s[9] - 1 <= s[2] <= 4 * s[9] + 4, s' "$D/stop.json" || fail "stopped: $(seen "$D/stop.json")"
finish
