#!/bin/sh
# augur report's one-sided section on the trace of rec_rma.c (record.*.rma):
# exact data calls and bytes per epoch kind and per rank, the window count,
# and the text section's rows.   rma_report.sh AUGUR TRACE NRANKS
set -eu
augur=$1 trace=$2 n=$3
"$augur" report --no-ideal --json "$trace" >"$trace.report.json"
python3 - "$trace.report.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); m = d["rma"]; bad = []
def want(what, got, exp):
    if got != exp: bad.append(f"{what}: {got}, expected {exp}")
want("windows", m["windows"], 4)
# per rank: (data calls, bytes put, bytes got) of rec_rma.c's epochs
exp = {"fence": (4, 36, 8), "pscw": (1, 4, 0), "lock": (3, 20, 16), "lock_all": (4, 48, 28),
       "window": (0, 0, 0), "none": (0, 0, 0)}
for k, (ops, put, got) in exp.items():
    e = m["epochs"][k]
    want(k, (e["data_calls"], e["bytes_put"], e["bytes_got"]), (ops * n, put * n, got * n))
# calls whose number does not depend on Win_test polling
for k, c in {"fence": 8, "lock": 7, "lock_all": 11, "window": 10}.items():
    want(k + " calls", m["epochs"][k]["calls"], c * n)
want("pscw calls", m["epochs"]["pscw"]["calls"] >= 8 * n, True)
want("ranks", [(r["rank"], r["data_calls"], r["bytes_put"], r["bytes_got"]) for r in m["ranks"]],
     [(r, 12, 108, 52) for r in range(n)])
want("time", sum(e["time_ns"] for e in m["epochs"].values()), m["time_ns"])
c = {x["call"]: x for x in m["calls"]}
want("MPI_Put", (c["MPI_Put"]["calls"], c["MPI_Put"]["bytes_put"]), (3 * n, 28 * n))
want("MPI_Rget", (c["MPI_Rget"]["calls"], c["MPI_Rget"]["bytes_got"]), (n, 24 * n))
if bad:
    print("FAIL:", *bad, sep="\n  "); sys.exit(1)
PY
"$augur" report --no-ideal "$trace" >"$trace.report.txt"
for row in "One-sided communication:" "  fence " "  lock_all " "  pscw " "  window "; do
  grep -q "^$row" "$trace.report.txt" || { echo "FAIL: no '$row' row"; cat "$trace.report.txt"; exit 1; }
done
echo "ok: rma report $trace"
