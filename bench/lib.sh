# Sourced by the bench/*/ scripts: small helpers for figures from one run.
# median: the median of the numbers on stdin, one per line.
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# now: wall-clock seconds with nanoseconds.
now() { date +%s.%N; }
# calc EXPR: awk arithmetic, e.g. calc "($b - $a) * 1000".
calc() { awk "BEGIN { print $1 }"; }
