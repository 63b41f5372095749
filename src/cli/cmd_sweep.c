/* augur sweep [options] -- COMMAND TEMPLATE...
 *
 * Seed 002's training runs (docs/model.md "sweep"): runs the template once
 * per grid point (workload x workers x threads x places x bind) and
 * repetition under `augur record` (this binary, exec'd: each run gets a
 * fresh environment and its own recorder process), measures each run from
 * its trace (sweep_trace.c) and appends one row to the CSV data set (and
 * rewrites the JSON twin). Rows already in the CSV are skipped, so an
 * interrupted sweep rerun with the same -o continues where it stopped. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "format.h" /* aug_mkdir_p */
#include "mpi_flavour.h"
#include "sweep.h"

/* ---- lists ------------------------------------------------------------- */

typedef struct strlist {
  char **v;
  size_t n;
} strlist;

static void strlist_free(strlist *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

static int strlist_add(strlist *l, const char *s, size_t len) {
  char **v = realloc(l->v, (l->n + 1) * sizeof *v);
  if (!v) return -1;
  l->v = v;
  if (!(v[l->n] = strndup(s, len))) return -1;
  l->n++;
  return 0;
}

/* Whole number in [MIN, 10^12] (ranks, threads, workloads), or -1. */
static long long whole(const char *s, size_t len, long long min) {
  if (!len || len > 15) return -1;
  long long v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v >= min && v <= 1000000000000LL ? v : -1;
}

/* LIST: comma-separated items; KIND 'i' (whole numbers >= MIN, ranges
 * A-B), 'n' (positive numbers, ranges of whole numbers) or 's' (words of
 * letters, digits, '_', '.', '-'). Numbers are stored as written (a range
 * as its members). 0, or -1 after one usage line. */
static int parse_list(const char *opt, const char *val, int kind, long long min, strlist *out) {
  strlist_free(out);
  if (!*val) return cli_usage("%s: empty list", opt), -1;
  for (const char *p = val;;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    const char *dash = kind != 's' ? memchr(p, '-', len) : NULL;
    int ok = len > 0;
    if (ok && dash && dash > p) {
      long long a = whole(p, (size_t)(dash - p), min),
                b = whole(dash + 1, len - (size_t)(dash - p) - 1, min);
      ok = a >= 0 && b >= a && b - a < 10000;
      for (long long x = a; ok && x <= b; x++) {
        char buf[32];
        ok = strlist_add(out, buf, (size_t)snprintf(buf, sizeof buf, "%lld", x)) == 0;
      }
    } else if (ok && kind == 'i') {
      ok = whole(p, len, min) >= 0 && strlist_add(out, p, len) == 0;
    } else if (ok && kind == 'n') {
      char buf[64], *end = NULL;
      ok = len < sizeof buf;
      if (ok) {
        memcpy(buf, p, len);
        buf[len] = 0;
        double x = strtod(buf, &end);
        ok = end == buf + len && isfinite(x) && x > 0 && strlist_add(out, p, len) == 0;
      }
    } else {
      for (size_t i = 0; ok && i < len; i++)
        ok = (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
             (p[i] >= '0' && p[i] <= '9') || p[i] == '_' || p[i] == '.' || p[i] == '-';
      ok = ok && strlist_add(out, p, len) == 0;
    }
    if (!ok) {
      strlist_free(out);
      const char *want = kind == 'i'   ? "whole numbers"
                         : kind == 'n' ? "positive numbers"
                                       : "words (letters, digits, _ . -)";
      if (kind == 'i' && min > 0)
        cli_usage("%s: bad item '%.*s' in '%s' (want %s >= %lld, or ranges A-B)", opt, (int)len, p,
                  val, want, min);
      else
        cli_usage("%s: bad item '%.*s' in '%s' (want %s, comma-separated)", opt, (int)len, p, val,
                  want);
      return -1;
    }
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

typedef struct lists {
  strlist workers, threads, workload, places, bind;
} lists;

static int opt_workers(const char *o, const char *v, void *d) {
  return parse_list(o, v, 'i', 1, &((lists *)d)->workers);
}
static int opt_threads(const char *o, const char *v, void *d) {
  return parse_list(o, v, 'i', 1, &((lists *)d)->threads);
}
static int opt_workload(const char *o, const char *v, void *d) {
  return parse_list(o, v, 'n', 1, &((lists *)d)->workload);
}
static int opt_places(const char *o, const char *v, void *d) {
  return parse_list(o, v, 's', 0, &((lists *)d)->places);
}
static int opt_bind(const char *o, const char *v, void *d) {
  return parse_list(o, v, 's', 0, &((lists *)d)->bind);
}

/* ---- the template ------------------------------------------------------ */

static const char *const placeholders[] = {"procs", "workers", "threads", "workload", "iterations"};
#define NPLACEHOLDERS (sizeof placeholders / sizeof placeholders[0])

/* 0, or -1 after one usage line naming the first unknown placeholder. */
static int check_template(char **cmd, int n) {
  for (int i = 0; i < n; i++)
    for (const char *p = strchr(cmd[i], '{'); p; p = strchr(p + 1, '{')) {
      const char *e = strchr(p, '}');
      int known = 0;
      for (size_t k = 0; e && k < NPLACEHOLDERS && !known; k++)
        known = (size_t)(e - p - 1) == strlen(placeholders[k]) &&
                !strncmp(p + 1, placeholders[k], (size_t)(e - p - 1));
      if (!known) {
        cli_usage("unknown placeholder '%.*s' in '%s' (known: {procs} {workers} {threads} "
                  "{workload} {iterations})",
                  e ? (int)(e - p + 1) : (int)strlen(p), p, cmd[i]);
        return -1;
      }
    }
  return 0;
}

/* WORD with every placeholder replaced by VALUES[k]; malloc'd. */
static char *expand(const char *word, const char *const values[NPLACEHOLDERS]) {
  size_t cap = strlen(word) + 1;
  for (size_t k = 0; k < NPLACEHOLDERS; k++)
    cap += strlen(values[k]) * 8;
  char *out = malloc(cap), *o = out;
  if (!out) return NULL;
  for (const char *p = word; *p;) {
    size_t k = 0;
    if (*p == '{')
      for (; k < NPLACEHOLDERS; k++) {
        size_t len = strlen(placeholders[k]);
        if (!strncmp(p + 1, placeholders[k], len) && p[len + 1] == '}') break;
      }
    if (*p == '{' && k < NPLACEHOLDERS && (size_t)(o - out) + strlen(values[k]) < cap) {
      o += sprintf(o, "%s", values[k]);
      p += strlen(placeholders[k]) + 2;
    } else {
      *o++ = *p++;
    }
  }
  *o = 0;
  return out;
}

/* ---- the data set ------------------------------------------------------ */

/* Columns before the affinity counts, and after them (docs/model.md). */
static const char *const head_cols[] = {"app",
                                        "workload",
                                        "workers",
                                        "threads",
                                        "procs",
                                        "places",
                                        "bind",
                                        "rep",
                                        "iterations",
                                        "t_iter",
                                        "t_iter_sd",
                                        "t_app",
                                        "t_comp_master",
                                        "t_comp_worker",
                                        "t_comm",
                                        "t_wait",
                                        "w1",
                                        "w2",
                                        "local_workload",
                                        "cores_used",
                                        "oversubscribed"};
#define NHEAD (sizeof head_cols / sizeof head_cols[0])
static const char *const tail_cols[] = {"trace", "status"};
#define NTAIL (sizeof tail_cols / sizeof tail_cols[0])
/* Factor (string) columns: quoted in the JSON. */
static int is_factor(const char *col) {
  return !strcmp(col, "app") || !strcmp(col, "places") || !strcmp(col, "bind") ||
         !strcmp(col, "trace") || !strcmp(col, "status");
}
/* The columns that identify a run (resume). */
static const char *const key_cols[] = {"app",    "workload", "workers", "threads",
                                       "places", "bind",     "rep"};
#define NKEY (sizeof key_cols / sizeof key_cols[0])

typedef struct table {
  strlist cols;
  size_t nrows;
  char ***rows; /* nrows x cols.n cells */
  size_t key[NKEY];
} table;

static void table_free(table *t) {
  for (size_t r = 0; r < t->nrows; r++) {
    for (size_t c = 0; c < t->cols.n; c++)
      free(t->rows[r][c]);
    free(t->rows[r]);
  }
  free(t->rows);
  strlist_free(&t->cols);
}

static int table_add(table *t, char **cells) {
  char ***rows = realloc(t->rows, (t->nrows + 1) * sizeof *rows);
  if (!rows) return -1;
  t->rows = rows;
  rows[t->nrows++] = cells;
  return 0;
}

/* Splits LINE (no newline) at commas into N cells; NULL when the count is
 * not N. */
static char **split_row(const char *line, size_t n) {
  char **cells = calloc(n, sizeof *cells);
  size_t k = 0;
  for (const char *p = line; cells; k++) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (k >= n || !(cells[k] = strndup(p, len))) break;
    if (!e) {
      k++;
      break;
    }
    p = e + 1;
  }
  if (cells && k != n) {
    for (size_t i = 0; i < n; i++)
      free(cells[i]);
    free(cells);
    return NULL;
  }
  return cells;
}

/* Reads the rows an earlier sweep wrote to PATH (resume). A last line
 * without its newline (the sweep was killed while writing it) is cut off
 * the file. The header must be T's. CLI_OK (nothing there is fine), or
 * CLI_FAIL after one line. */
static int table_load(table *t, const char *path, char *header) {
  FILE *f = fopen(path, "r");
  if (!f) return errno == ENOENT ? CLI_OK : cli_fail("cannot read %s: %s", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long good = 0;
  int rc = CLI_OK, first = 1;
  while ((len = getline(&line, &cap, f)) > 0) {
    if (line[len - 1] != '\n') break; /* a row cut short: redone */
    line[len - 1] = 0;
    if (first) {
      first = 0;
      if (strcmp(line, header)) {
        rc = cli_fail("%s holds other columns than this sweep writes (another machine's caches, "
                      "or not a sweep's data set); use another -o",
                      path);
        break;
      }
    } else {
      char **cells = split_row(line, t->cols.n);
      if (!cells) {
        rc = cli_fail("%s: row %zu does not have %zu cells; use another -o", path, t->nrows + 2,
                      t->cols.n);
        break;
      }
      if (table_add(t, cells) != 0) {
        rc = cli_fail("out of memory");
        break;
      }
    }
    good = ftell(f);
  }
  free(line);
  fclose(f);
  if (rc == CLI_OK && truncate(path, good) != 0)
    rc = cli_fail("cannot truncate %s: %s", path, strerror(errno));
  return rc;
}

static int table_has(const table *t, char **cells) {
  for (size_t r = 0; r < t->nrows; r++) {
    size_t k = 0;
    while (k < NKEY && !strcmp(t->rows[r][t->key[k]], cells[t->key[k]]))
      k++;
    if (k == NKEY) return 1;
  }
  return 0;
}

/* The JSON twin: {"schema": 1, "columns": [...], "runs": [{column: value}]}
 * with numbers as numbers, factors as strings, missing as null. Rewritten
 * whole (through a temporary file) after every run. */
static int write_json(const table *t, const char *path) {
  json_t *doc = json_object(), *cols = json_array(), *runs = json_array();
  if (!doc || !cols || !runs) return -1;
  json_object_set_new(doc, "schema", json_integer(1));
  for (size_t c = 0; c < t->cols.n; c++)
    json_array_append_new(cols, json_string(t->cols.v[c]));
  json_object_set_new(doc, "columns", cols);
  for (size_t r = 0; r < t->nrows; r++) {
    json_t *o = json_object();
    for (size_t c = 0; o && c < t->cols.n; c++) {
      const char *v = t->rows[r][c];
      json_t *j = !*v                       ? json_null()
                  : is_factor(t->cols.v[c]) ? json_string(v)
                                            : json_real(strtod(v, NULL));
      json_object_set_new(o, t->cols.v[c], j);
    }
    json_array_append_new(runs, o);
  }
  json_object_set_new(doc, "runs", runs);
  char tmp[PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int rc = json_dump_file(doc, tmp, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(doc);
  if (rc == 0) rc = rename(tmp, path);
  return rc;
}

/* ---- one run ----------------------------------------------------------- */

typedef struct deadline {
  uint64_t at_ns;
} deadline;

static int past(void *ctx) {
  return cli_mono_ns() >= ((deadline *)ctx)->at_ns ? 1 : 0;
}

/* Runs ARGV with its stdout and stderr in LOG, killed after TIMEOUT
 * seconds. Returns its exit status; *TIMED_OUT set when it was killed. */
static int run_logged(char **argv, const char *log, double timeout, int *timed_out) {
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return cli_fail("cannot write %s: %s", log, strerror(errno));
  fflush(NULL);
  int out = dup(1), err = dup(2);
  dup2(fd, 1);
  dup2(fd, 2);
  close(fd);
  deadline d = {cli_mono_ns() + (uint64_t)(timeout * 1e9)};
  int ended = 0;
  int code = cli_run_child_watched(argv, past, &d, &ended);
  fflush(NULL);
  dup2(out, 1);
  dup2(err, 2);
  close(out);
  close(err);
  *timed_out = ended == 1;
  return code;
}

static char *fmt_num(double v) {
  char buf[64];
  if (isnan(v))
    buf[0] = 0;
  else
    snprintf(buf, sizeof buf, "%.9g", v);
  return strdup(buf);
}

static void sanitize(char *s) {
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '.' || *s == '-'))
      *s = '_';
}

/* SIGINT or SIGTERM while augur sweep itself runs (measuring, writing):
 * the row being written is finished and the sweep stops. During a run,
 * cli_run_child_watched passes the signal on (cli_child_signal). */
static volatile sig_atomic_t stop_sig = 0;
static void on_stop(int sig) {
  stop_sig = sig;
}

static int stopped(void) {
  return stop_sig ? stop_sig : cli_child_signal();
}

static int set_omp_env(const char *name, const char *val) {
  return !strcmp(val, "none") ? unsetenv(name) : setenv(name, val, 1);
}

int cmd_sweep(int argc, char **argv) {
  lists L = {0};
  long long reps = 1, iterations = 10;
  double timeout = 3600;
  const char *csv = "runs.csv", *jsonpath = NULL, *dir = NULL;
  const cli_opt options[] = {
      CLI_CALL("--workers", NULL, "LIST", opt_workers, &L,
               "worker processes (MPI ranks besides the master):\n"
               "1,2,4 or ranges 1-4 (default 1)"),
      CLI_CALL("--threads", NULL, "LIST", opt_threads, &L,
               "OpenMP threads per process, OMP_NUM_THREADS (default 1)"),
      CLI_CALL("--workload", NULL, "LIST", opt_workload, &L,
               "workloads W, positive numbers as the program takes them\n"
               "(required)"),
      CLI_CALL("--places", NULL, "LIST", opt_places, &L,
               "OMP_PLACES values: cores, threads, sockets, ...; none\n"
               "leaves it unset (default none)"),
      CLI_CALL("--bind", NULL, "LIST", opt_bind, &L,
               "OMP_PROC_BIND values: close, spread, master, true, ...;\n"
               "none leaves it unset (default none)"),
      CLI_INT("--reps", "N", &reps, 1, 1000, "runs of each configuration (default 1)"),
      CLI_INT("--iterations", "N", &iterations, 1, 1000000000,
              "the value of {iterations} (default 10, as the seed)"),
      CLI_REAL("--timeout", "S", &timeout, 1, 1e7, "seconds from 1",
               "a run still going after S seconds is killed and its\n"
               "row says timeout (default 3600)"),
      CLI_STRING("--output", "-o", "FILE", &csv, "a file name",
                 "the data set, CSV (default runs.csv); rerun with the\n"
                 "same FILE to resume an interrupted sweep"),
      CLI_STRING("--json", NULL, "FILE", &jsonpath, "a file name",
                 "also write the data set as JSON"),
      CLI_STRING("--dir", NULL, "DIR", &dir, "a directory name",
                 "where the traces and run logs go (default FILE's name\n"
                 "without .csv, plus .traces)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur sweep [options] -- COMMAND TEMPLATE...\n"
               "\n"
               "Training runs for the master/worker model (docs/model.md): runs the\n"
               "template for every workload x workers x threads x places x bind and\n"
               "repetition under `augur record`, measures each run from its trace\n"
               "(iterations and T_iter from the repeated master->workers->master cycle,\n"
               "computation, communication and waiting per process, where its threads\n"
               "ran) and writes one CSV row per run. Placeholders in the template:\n"
               "{procs} (workers + 1), {workers}, {threads}, {workload}, {iterations}.\n",
      .opts = options,
      .trailer = "\n"
                 "example:\n"
                 "  augur sweep --workers 1-2 --threads 1,2 --workload 1000,2000 -o runs.csv \\\n"
                 "    -- mpiexec.mpich -n {procs} ./mw_heat -W {workload} -i {iterations}\n",
      .dashdash = 1};
  cli_args args;
  int rc = CLI_OK;
  if (!cli_parse_args(argc, argv, &spec, &args)) {
    rc = args.status;
    goto out;
  }
  if (args.dashdash < 0) {
    rc = cli_usage("missing '-- COMMAND TEMPLATE' (usage: augur sweep [options] -- COMMAND...)");
    goto out;
  }
  char **tmpl = argv + args.dashdash + 1;
  int ntmpl = argc - args.dashdash - 1;
  if (ntmpl <= 0) {
    rc = cli_usage("missing COMMAND TEMPLATE after '--'");
    goto out;
  }
  if (!L.workload.n) {
    rc = cli_usage("missing --workload LIST");
    goto out;
  }
  if (check_template(tmpl, ntmpl) != 0) {
    rc = CLI_USAGE;
    goto out;
  }
  if ((!L.workers.n && parse_list("--workers", "1", 'i', 1, &L.workers)) ||
      (!L.threads.n && parse_list("--threads", "1", 'i', 1, &L.threads)) ||
      (!L.places.n && parse_list("--places", "none", 's', 0, &L.places)) ||
      (!L.bind.n && parse_list("--bind", "none", 's', 0, &L.bind))) {
    rc = CLI_FAIL;
    goto out;
  }
  if (cli_command_found(tmpl)) {
    rc = 127;
    goto out;
  }
  char self[PATH_MAX];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) {
    rc = cli_fail("cannot find my own executable (/proc/self/exe)");
    goto out;
  }
  self[sl] = 0;
  char dirbuf[PATH_MAX];
  if (!dir) {
    size_t n = strlen(csv);
    if (n > 4 && !strcmp(csv + n - 4, ".csv")) n -= 4;
    snprintf(dirbuf, sizeof dirbuf, "%.*s.traces", (int)n, csv);
    dir = dirbuf;
  }
  if (strpbrk(dir, ",\"\n")) {
    /* its cells (trace) must need no quoting (docs/model.md) */
    rc = cli_usage("--dir: '%s' has a comma, quote or newline, which a CSV cell cannot hold", dir);
    goto out;
  }
  if (aug_mkdir_p(dir) != 0) {
    rc = cli_fail("cannot create %s: %s", dir, strerror(errno));
    goto out;
  }

  sweep_topo *topo = sweep_topo_load();
  if (!topo) {
    rc = CLI_FAIL;
    goto out;
  }
  table T = {0};
  size_t naff = sweep_topo_ncols(topo);
  double *aff = calloc(naff ? naff : 1, sizeof *aff);
  char header[8192] = "";
  size_t hl = 0;
  for (size_t c = 0; c < NHEAD + naff + NTAIL; c++) {
    char name[64];
    if (c < NHEAD)
      snprintf(name, sizeof name, "%s", head_cols[c]);
    else if (c < NHEAD + naff)
      sweep_topo_colname(topo, c - NHEAD, name, sizeof name);
    else
      snprintf(name, sizeof name, "%s", tail_cols[c - NHEAD - naff]);
    strlist_add(&T.cols, name, strlen(name));
    hl += (size_t)snprintf(header + hl, sizeof header - hl, "%s%s", c ? "," : "", name);
  }
  for (size_t k = 0; k < NKEY; k++)
    for (size_t c = 0; c < T.cols.n; c++)
      if (!strcmp(T.cols.v[c], key_cols[k])) T.key[k] = c;
  if (!aff || T.cols.n != NHEAD + naff + NTAIL) {
    rc = cli_fail("out of memory");
    goto done;
  }
  if ((rc = table_load(&T, csv, header)) != CLI_OK) goto done;
  size_t resumed = T.nrows;
  FILE *f = fopen(csv, "a");
  if (!f) {
    rc = cli_fail("cannot write %s: %s", csv, strerror(errno));
    goto done;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && st.st_size == 0) fprintf(f, "%s\n", header);
  fflush(f);

  /* The program: the word that links MPI, else the first. */
  char why[PATH_MAX + 128];
  int appw = -1;
  mpi_flavour_detect(tmpl, ntmpl, &appw, why, sizeof why);
  const char *base = strrchr(tmpl[appw >= 0 ? appw : 0], '/');
  char app[256];
  snprintf(app, sizeof app, "%s", base ? base + 1 : tmpl[appw >= 0 ? appw : 0]);
  sanitize(app); /* a factor level: no comma or quote */

  struct sigaction sa, old_int, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  size_t total = L.workload.n * L.workers.n * L.threads.n * L.places.n * L.bind.n * (size_t)reps,
         k = 0, failed = 0, skipped = 0;
  int said_over = 0, said_elsewhere = 0, on_tty = isatty(2);
  char its[32];
  snprintf(its, sizeof its, "%lld", iterations);
  for (size_t iw = 0; iw < L.workload.n && rc == CLI_OK; iw++)
    for (size_t ik = 0; ik < L.workers.n && rc == CLI_OK; ik++)
      for (size_t it = 0; it < L.threads.n && rc == CLI_OK; it++)
        for (size_t ip = 0; ip < L.places.n && rc == CLI_OK; ip++)
          for (size_t ib = 0; ib < L.bind.n && rc == CLI_OK; ib++)
            for (long long rep = 1; rep <= reps && rc == CLI_OK && !stopped(); rep++) {
              k++;
              const char *wl = L.workload.v[iw], *wk = L.workers.v[ik], *th = L.threads.v[it];
              double W = strtod(wl, NULL), nw = strtod(wk, NULL), nt = strtod(th, NULL);
              char procs[32];
              snprintf(procs, sizeof procs, "%.0f", nw + 1);
              char **cells = calloc(T.cols.n, sizeof *cells);
              if (!cells) {
                rc = cli_fail("out of memory");
                break;
              }
              size_t c = 0;
              cells[c++] = strdup(app);
              cells[c++] = fmt_num(W);
              cells[c++] = fmt_num(nw);
              cells[c++] = fmt_num(nt);
              cells[c++] = fmt_num(nw + 1);
              cells[c++] = strdup(L.places.v[ip]);
              cells[c++] = strdup(L.bind.v[ib]);
              cells[c++] = fmt_num((double)rep);
              if (table_has(&T, cells)) {
                for (size_t i = 0; i < c; i++)
                  free(cells[i]);
                free(cells);
                skipped++;
                continue;
              }
              /* The run: its trace directory and log. */
              char name[512], trace[PATH_MAX], log[PATH_MAX];
              snprintf(name, sizeof name, "%s-W%s-w%s-t%s-%s-%s-r%lld", app, wl, wk, th,
                       L.places.v[ip], L.bind.v[ib], rep);
              sanitize(name);
              snprintf(trace, sizeof trace, "%s/%s.augur", dir, name);
              snprintf(log, sizeof log, "%s/%s.log", dir, name);
              const char *values[NPLACEHOLDERS] = {procs, wk, th, wl, its};
              char **rargv = calloc((size_t)ntmpl + 6, sizeof *rargv);
              int ok = rargv != NULL;
              if (ok) {
                rargv[0] = self;
                rargv[1] = "record";
                rargv[2] = "-o";
                rargv[3] = trace;
                rargv[4] = "--";
                for (int i = 0; i < ntmpl && ok; i++)
                  ok = (rargv[5 + i] = expand(tmpl[i], values)) != NULL;
              }
              ok = ok && setenv("OMP_NUM_THREADS", th, 1) == 0 &&
                   set_omp_env("OMP_PLACES", L.places.v[ip]) == 0 &&
                   set_omp_env("OMP_PROC_BIND", L.bind.v[ib]) == 0 &&
                   setenv("OMP_DISPLAY_AFFINITY", "TRUE", 1) == 0 &&
                   setenv("OMP_AFFINITY_FORMAT", SWEEP_AFFINITY_FORMAT, 1) == 0;
              if (on_tty)
                fprintf(stderr, "\r\033[K[%zu/%zu] workers=%s threads=%s workload=%s running", k,
                        total, wk, th, wl);
              int timed_out = 0, code = ok ? run_logged(rargv, log, timeout, &timed_out) : -1;
              for (int i = 0; rargv && i < ntmpl; i++)
                free(rargv[5 + i]);
              free(rargv);
              if (!ok) {
                rc = cli_fail("out of memory");
                for (size_t i = 0; i < c; i++)
                  free(cells[i]);
                free(cells);
                break;
              }
              if (stopped()) {
                /* Ctrl-C or kill: this run's row is not written (a rerun
                 * redoes it) and the sweep stops. */
                for (size_t i = 0; i < c; i++)
                  free(cells[i]);
                free(cells);
                fprintf(stderr, "\n");
                cli_note("interrupted at run %zu/%zu; rerun with the same -o to resume", k, total);
                rc = 128 + stopped();
                break;
              }
              sweep_measure m = {.affinity = aff};
              sweep_measure_run(trace, log, topo, &m);
              const char *status = m.status;
              if (timed_out)
                status = "timeout";
              else if (code != 0)
                status = "failed";
              if (strcmp(status, "ok")) {
                /* A run that did not end well measures nothing. */
                m.iterations = m.t_iter = m.t_iter_sd = NAN;
                m.t_comp_master = m.t_comp_worker = m.t_comm = m.t_wait = NAN;
              }
              cells[c++] = fmt_num(m.iterations);
              cells[c++] = fmt_num(m.t_iter);
              cells[c++] = fmt_num(m.t_iter_sd);
              cells[c++] = fmt_num(m.t_app);
              cells[c++] = fmt_num(m.t_comp_master);
              cells[c++] = fmt_num(m.t_comp_worker);
              cells[c++] = fmt_num(m.t_comm);
              cells[c++] = fmt_num(m.t_wait);
              cells[c++] = fmt_num(W / (nw * nt));
              cells[c++] = fmt_num(W * W / (nw * nt));
              cells[c++] = fmt_num(W / nw);
              cells[c++] = fmt_num(m.cores_used);
              cells[c++] = fmt_num(m.oversubscribed);
              for (size_t a = 0; a < naff; a++)
                cells[c++] = fmt_num(m.affinity[a]);
              cells[c++] = strdup(trace);
              cells[c++] = strdup(status);
              int bad = 0;
              for (size_t i = 0; i < c; i++)
                bad |= !cells[i];
              if (bad || table_add(&T, cells) != 0) {
                rc = cli_fail("out of memory");
                break;
              }
              for (size_t i = 0; i < c; i++)
                fprintf(f, "%s%s", i ? "," : "", cells[i]);
              fputc('\n', f);
              if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
                rc = cli_fail("cannot write %s: %s", csv, strerror(errno));
                break;
              }
              if (jsonpath && write_json(&T, jsonpath) != 0) {
                rc = cli_fail("cannot write %s", jsonpath);
                break;
              }
              if (on_tty)
                fprintf(stderr, "\r\033[K[%zu/%zu] workers=%s threads=%s workload=%s t_iter=%s%s",
                        k, total, wk, th, wl, *cells[9] ? cells[9] : "-", k == total ? "\n" : "");
              if (strcmp(status, "ok")) {
                failed++;
                if (on_tty) fprintf(stderr, "\n");
                cli_note("run %zu/%zu (workers=%s threads=%s workload=%s) %s%s%s; log: %s", k,
                         total, wk, th, wl,
                         timed_out ? "timed out"
                         : code    ? "failed"
                                   : status,
                         timed_out || code ? "" : ": ", timed_out || code ? "" : m.note, log);
              }
              if (m.elsewhere && !said_elsewhere) {
                said_elsewhere = 1;
                if (on_tty && k != total) fprintf(stderr, "\n");
                cli_note(
                    "note: run %zu/%zu ran on another host than this one: its cores_used, "
                    "oversubscribed and affinity columns are empty (hwloc reads this machine only)",
                    k, total);
              }
              if (m.oversubscribed == 1 && !said_over) {
                said_over = 1;
                if (on_tty && k != total) fprintf(stderr, "\n");
                cli_note("note: run %zu/%zu is oversubscribed (its processes' threads outnumber "
                         "the cores they ran on); its row says so (oversubscribed = 1)",
                         k, total);
              }
            }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (rc == CLI_OK && stopped()) {
    cli_note("interrupted after run %zu/%zu; rerun with the same -o to resume", k, total);
    rc = 128 + stopped();
  }
  if (fclose(f) != 0 && rc == CLI_OK) rc = cli_fail("cannot write %s: %s", csv, strerror(errno));
  if (rc == CLI_OK && jsonpath && write_json(&T, jsonpath) != 0)
    rc = cli_fail("cannot write %s", jsonpath);
  if (rc == CLI_OK) {
    cli_note("%zu run%s written to %s (%zu already there)%s", T.nrows - resumed,
             T.nrows - resumed == 1 ? "" : "s", csv, skipped,
             failed ? "; some runs failed, see above" : "");
    if (failed) rc = CLI_FAIL;
  }
done:
  free(aff);
  table_free(&T);
  sweep_topo_free(topo);
out:
  strlist_free(&L.workers);
  strlist_free(&L.threads);
  strlist_free(&L.workload);
  strlist_free(&L.places);
  strlist_free(&L.bind);
  return rc;
}
