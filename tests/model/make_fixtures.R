# Exactness fixtures for augur's MOB (src/model) from R's partykit::lmtree.
# Run by hand (not by make check) from the repository root:
#   Rscript tests/model/make_fixtures.R
# Writes tests/model/fixtures/NAME.csv (the data, as augur model fit reads
# it) and NAME.expect (what R computed), for each case below. The .expect
# lines (read by tests/model/test_model_exact.c):
#   formula F
#   option NAME VALUE            alpha, minsize, trim, maxdepth, prune, weights, party_compat
#   rows USED DROPPED            rows fitted / dropped for NA
#   node ID LEFT RIGHT NOBS      LEFT = RIGHT = 0 for a leaf
#   split ID VAR POINT           numeric split: left when VAR <= POINT
#   splitlev ID VAR L1 L2 ...    factor split: kid per level (1, 2, NA)
#   splitvar ID VAR              (party) a factor split on VAR
#   coef ID B1 B2 ...            coefficients (NA: aliased)
#   test ID VAR STAT PADJ        sctest(m): statistic and adjusted p (NA: untestable)
#   pred ROW NODE VALUE          predict() on data row ROW (1-based)
# and NAME.print, R's print(m) (trailing blanks removed), which
# test_model_cli.sh compares with `augur model show`.
suppressMessages(library(partykit))
out <- "tests/model/fixtures"
dir.create(out, showWarnings = FALSE, recursive = TRUE)

num <- function(x) ifelse(is.na(x), "NA", sprintf("%.17g", x))

write_case <- function(name, data, formula, weights = NULL, ...) {
  write.csv(data, file.path(out, paste0(name, ".csv")), row.names = FALSE, quote = FALSE, na = "")
  args <- list(...)
  m <- if (is.null(weights)) lmtree(as.formula(formula), data = data, ...)
       else do.call(lmtree, c(list(as.formula(formula), data = data, weights = data[[weights]]), args))
  con <- file(file.path(out, paste0(name, ".expect")), "w")
  on.exit(close(con))
  w <- function(...) writeLines(paste(...), con)
  w("formula", formula)
  for (a in names(args)) w("option", a, args[[a]])
  if (!is.null(weights)) w("option weights", weights)
  used <- nrow(model.frame(m))
  w("rows", used, nrow(data) - used)
  ids <- nodeids(m)
  tests <- strucchange::sctest(m)
  if (is.matrix(tests)) tests <- list(`1` = tests)
  for (id in ids) {
    nd <- nodeapply(m, ids = id, FUN = function(n) n)[[1]]
    kids <- kids_node(nd)
    l <- if (length(kids)) id_node(kids[[1]]) else 0
    r <- if (length(kids)) id_node(kids[[2]]) else 0
    w("node", id, l, r, num(nd$info$nobs))
    sp <- split_node(nd)
    if (!is.null(sp)) {
      var <- names(m$data)[varid_split(sp)]
      if (!is.null(breaks_split(sp))) w("split", id, var, num(breaks_split(sp)))
      else w("splitlev", id, var, paste(ifelse(is.na(index_split(sp)), "NA", index_split(sp)), collapse = " "))
    }
    w("coef", id, paste(num(nd$info$coefficients), collapse = " "))
    tt <- tests[[as.character(id)]]
    if (!is.null(tt)) for (v in colnames(tt)) w("test", id, v, num(tt["statistic", v]), num(tt["p.value", v]))
  }
  mf <- model.frame(m)
  rows <- unique(round(seq(1, nrow(data), length.out = 7)))
  rows <- rows[complete.cases(data[rows, all.vars(as.formula(formula))])]
  pn <- predict(m, newdata = data[rows, ], type = "node")
  pv <- predict(m, newdata = data[rows, ])
  for (i in seq_along(rows)) w("pred", rows[i], pn[i], num(pv[i]))
  writeLines(sub(" +$", "", capture.output(print(m))), file.path(out, paste0(name, ".print")))
  cat(name, ": ", length(ids), " nodes\n", sep = "")
}

# 1. cars: one numeric variable, small n
write_case("cars", cars, "dist ~ speed | speed", minsize = 10)
# 2. mtcars with a factor partitioning variable (cylinders as text)
mt <- mtcars
mt$cyl <- factor(paste0("c", mt$cyl))
write_case("mtcars", mt[, c("mpg", "wt", "hp", "cyl", "disp", "qsec")], "mpg ~ wt | hp + cyl + disp + qsec", minsize = 8)
# 3. trees: two regressors
write_case("trees", trees, "Volume ~ Girth + Height | Girth + Height", minsize = 9, trim = 0.2)
# 4. airquality: missing values (rows dropped)
write_case("airquality", airquality, "Ozone ~ Temp | Wind + Solar.R + Month + Day")
# 5. iris: a factor split (3 levels) and numeric splits
write_case("iris", iris, "Sepal.Length ~ Sepal.Width | Species + Petal.Length + Petal.Width")
# 6. synthetic, known tree: z1 at 0.5 and level b of g
set.seed(1)
n <- 200
d <- data.frame(x = round(runif(n), 6), z1 = round(runif(n), 6), z2 = round(runif(n) * 10),
                g = factor(sample(c("a", "b", "c"), n, TRUE)))
d$y <- round(ifelse(d$z1 > 0.5, 1 + 2 * d$x, 3 - d$x) + ifelse(d$g == "b", 1.5 * d$x, 0) + rnorm(n, sd = 0.3), 6)
d$w <- sample(1:4, n, TRUE)
write_case("synth", d, "y ~ x | z1 + z2 + g")
# 7. the same with integer case weights
write_case("synth_weights", d, "y ~ x | z1 + z2 + g", weights = "w")
# 8. a tree that AIC pruning cuts back (alpha large lets noise split)
set.seed(2)
e <- data.frame(x = round(runif(150), 6), z = round(runif(150), 6), u = round(runif(150), 6))
e$y <- round(1 + e$x + ifelse(e$z > 0.6, 0.8, 0) + rnorm(150, sd = 0.5), 6)
write_case("prune_none", e, "y ~ x | z + u", alpha = 0.9, minsize = 15)
write_case("prune_aic", e, "y ~ x | z + u", alpha = 0.9, minsize = 15, prune = "AIC")
write_case("prune_bic", e, "y ~ x | z + u", alpha = 0.9, minsize = 15, prune = "BIC")
# 9. maxdepth
write_case("synth_depth", d, "y ~ x | z1 + z2 + g", maxdepth = 2)

# 10. party::mob (the seed's version): --party-compat, integer weights
# replicate rows, Bonferroni switch at 0.01, minsplit 20. Written in the same
# .expect format (leaf coefficients only; factor splits by variable only,
# "splitvar ID VAR"; party numbers the nodes in the same preorder).
write_party <- function(name, data, formula, weights) {
  suppressMessages(library(party))
  write.csv(data, file.path(out, paste0(name, ".csv")), row.names = FALSE, quote = FALSE, na = "")
  m <- party::mob(as.formula(formula), data = data, weights = data[[weights]],
                  model = linearModel, control = mob_control(minsplit = 20))
  con <- file(file.path(out, paste0(name, ".expect")), "w")
  on.exit(close(con))
  w <- function(...) writeLines(paste(...), con)
  w("formula", formula)
  w("option weights", weights)
  w("option party_compat 1")
  cf <- coef(m)
  walk <- function(nd) {
    l <- if (nd$terminal) 0 else nd$left$nodeID
    r <- if (nd$terminal) 0 else nd$right$nodeID
    w("node", nd$nodeID, l, r, num(nd$sumweights))
    if (!nd$terminal) {
      sp <- nd$psplit
      if (inherits(sp, "orderedSplit")) w("split", nd$nodeID, sp$variableName, num(sp$splitpoint))
      else w("splitvar", nd$nodeID, sp$variableName)
    } else w("coef", nd$nodeID, paste(num(cf[as.character(nd$nodeID), ]), collapse = " "))
    st <- nd$criterion$statistic
    if (length(st) > 1 || !is.na(st[1]))
      if (!(nd$terminal && sum(nd$weights) < 40))
        for (v in names(st)) w("test", nd$nodeID, v, num(st[[v]]), num(1 - nd$criterion$criterion[[v]]))
    if (!nd$terminal) { walk(nd$left); walk(nd$right) }
  }
  walk(m@tree)
  cat(name, ": party::mob\n", sep = "")
}
write_party("party_weights", d, "y ~ x | z1 + z2 + g", "w")

# 11. a singular leaf (x constant where z <= 0.52: its slope is aliased, NA).
# (Not with zero weights: partykit 1.2-16 recycles the unfiltered weights
# against the scores of the positive-weight rows there, R warns "longer
# object length", docs/model.md.)
set.seed(3)
s <- data.frame(z = round(runif(160), 6), x = round(runif(160), 6))
s$x[s$z <= 0.52] <- 1
s$y <- round(ifelse(s$z > 0.5, 2 + 3 * s$x, 1) + rnorm(160, sd = 0.2), 6)
write_case("singular_leaf", s, "y ~ x | z", minsize = 20)

# 12. no intercept ("- 1") on a tree that splits
write_case("nointercept", d, "y ~ x - 1 | z1 + z2 + g")

# 13. fractional case weights (n = sum of weights, not rows)
fw <- d
fw$fw <- 0.5 + (seq_len(nrow(fw)) + 1) %% 4 * 0.37
write_case("synth_fracweights", fw, "y ~ x | z1 + z2 + g", weights = "fw")
