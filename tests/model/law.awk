# Data by a known law: t = A + B * W^2 / (workers * threads) + C * W * log2(W)
# + D * workers + E * W^2 / workers,
# times (1 + NOISE * u), u ~ uniform sum (mean 0, sd ~1) from a Park-Miller
# generator (exact in awk's doubles: the same data everywhere).
function u01() { X = (X * 16807) % 2147483647; return X / 2147483647 }
BEGIN {
  X = SEED ? SEED : 12345
  if (A == "") A = 2e-3
  if (B == "") B = 5e-9
  if (C == "") C = 0
  if (D == "") D = 0
  if (E == "") E = 0
  print "workload,workers,threads,places,bind,rep,t_iter"
  nw = split(WL ? WL : "1000,2000,3000,4000,6000,8000", W, ",")
  nk = split(WK ? WK : "1,2,3,4", K, ",")
  nt = split(THR ? THR : "1,2,4", T, ",")
  for (a = 1; a <= nw; a++) for (b = 1; b <= nk; b++) for (c = 1; c <= nt; c++) for (rep = 1; rep <= 2; rep++) {
    if (SKIP != "" && (W[a] "," K[b] "," T[c]) ~ SKIP) continue
    t = A + B * W[a] * W[a] / (K[b] * T[c]) + C * W[a] * log(W[a]) / log(2) + D * K[b] + E * W[a] * W[a] / K[b]
    u = (u01() + u01() + u01() - 1.5) * 2
    printf "%s,%s,%s,none,none,%d,%.9g\n", W[a], K[b], T[c], rep, t * (1 + NOISE * u)
  }
}
