# The measurement in docs/model.md "Weights" (run by hand, not by make check):
# 30 synthetic data sets whose 2 x 4 runs are 20x noisier than the others,
# weighted by `augur model weights --scheme variance`, fitted by R's lmtree
# (the reference of `augur model fit`) unweighted and weighted; median |error|
# of T_iter over the trained admissible configurations and whether the true
# best is chosen, W = 1500, 3000, 6000 on 8 and 4 cores.
#   D=$(mktemp -d); for s in $(seq 1 30); do
#     python3 tests/model_best/synth.py data $D/d$s.csv --noisy-config 2,4,20 --seed $s
#     build/bin/augur model weights $D/d$s.csv --scheme variance -o $D/v$s.csv; done
#   Rscript tests/model_best/variance_gain.R $D
suppressMessages(library(partykit))
dir <- commandArgs(trailingOnly = TRUE)[1]
g <- expand.grid(workers = 1:8, threads = 1:8)
tried <- paste(c(1, 1, 1, 1, 2, 2, 2, 4, 4, 8), c(1, 2, 4, 8, 1, 2, 4, 1, 2, 1))
g <- g[paste(g$workers, g$threads) %in% tried, ]
truth <- function(w, wk, thr) 0.002 + 1e-5 * w / (wk * thr) + 1e-3 * wk + 1.5e-3 * thr
f <- t_iter ~ w1 + workers + threads | workload + workers + threads
res <- NULL
for (s in 1:30) for (kind in c("d", "v")) {
  d <- read.csv(sprintf("%s/%s%d.csv", dir, kind, s))
  t <- if (kind == "v") lmtree(f, data = d, weights = weight) else lmtree(f, data = d)
  for (W in c(1500, 3000, 6000)) for (cores in c(8, 4)) {
    nd <- data.frame(workload = W, workers = g$workers, threads = g$threads,
                     w1 = W / (g$workers * g$threads))
    ok <- g$workers * g$threads <= cores
    p <- predict(t, nd)
    tt <- truth(W, g$workers, g$threads)
    pick <- which(ok)[which.min(p[ok])]
    best <- which(ok)[which.min(tt[ok])]
    res <- rbind(res, data.frame(weights = ifelse(kind == "v", "variance", "none"),
                                 hit = pick == best, median_err = median((abs(p - tt) / tt)[ok])))
  }
}
print(aggregate(cbind(hit, median_err) ~ weights, res, mean))
