# Shared by the tests/cli/*.sh tests. Environment from CTest: AUGUR (the CLI),
# GEN (gen_trace), CHECK (check_report), WORK (scratch root), NAME (test name).
. "$(dirname "$0")/../lib.sh"
