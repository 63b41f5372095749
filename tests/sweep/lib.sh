# tests/sweep: the shared helpers, and col FILE NAME ROW: the cell of
# column NAME in data row ROW (1 = first row after the header).
. "$(dirname "$0")/../lib.sh"
col() {
  awk -F, -v name="$2" -v row="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
    NR == row + 1 { print $c }' "$1"
}
