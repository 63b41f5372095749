# The oracle of test_best.c's interval_matches_r: R's lm on runs.csv (written
# by `python3 synth.py data runs.csv`) and its prediction intervals
# (predict.lm, interval = "prediction"), which `augur model best` must equal
# for a one-leaf tree with the same coefficients. Run by hand:
#   Rscript tests/model_best/interval.R tests/model_best/runs.csv
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
m <- lm(t_iter ~ w1 + workers + threads, data = d)
cat("coef", sprintf("%.17g", coef(m)), "\n")
cat("sigma2", sprintf("%.17g", summary(m)$sigma^2), "\n")
for (c in list(c(4, 2), c(3, 1), c(8, 1))) {
  nd <- data.frame(w1 = 3000 / (c[1] * c[2]), workers = c[1], threads = c[2])
  cat("W=3000", c, sprintf("%.15g", predict(m, nd, interval = "prediction", level = 0.95)), "\n")
}
# An aliased coefficient: `augur model fit runs.csv --formula 't_iter ~ w1 +
# threads | workers' --minsize 12` has a leaf workers > 4 (only 8 x 1: threads
# constant, its slope NA); best.sh checks best's interval at 8 x 1, W = 3000
# against this (predict.lm warns that the fit is rank-deficient).
m <- lm(t_iter ~ w1 + threads, data = d[d$workers > 4, ])
cat("aliased W=3000 8 1",
    sprintf("%.15g", suppressWarnings(predict(m, data.frame(w1 = 375, threads = 1),
                                              interval = "prediction"))), "\n")
