/* augur graph TRACE -o FILE [--spread] [--smooth] [--no-classes]: a trace's execution
 * graph as an editable graph file (docs/graph-format.md); and the graph-file
 * side of augur simulate (--seed, --runs, --class). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "augur/simgraph.h"
#include "augur/text.h"
#include "cli.h"
#include "cmd_graph.h"

int cmd_graph(int argc, char **argv) {
  const char *out = NULL;
  augur_gfile_write_opts o = {0};
  const cli_opt options[] = {
      CLI_STRING("--output", "-o", "FILE", &out, NULL, "where to write ('-' for standard output)"),
      CLI_FLAG("--spread", NULL, &o.spread,
               "costs that vary inside a loop as normal(mean,sd), or\n"
               "lognormal(mean,sd) if sd > mean/3 (default: their mean)"),
      CLI_FLAG("--smooth", NULL, &o.smooth,
               "average outlier costs into their loops too (shorter\n"
               "file, more ranks alike; the prediction loses them)"),
      CLI_FLAG("--no-classes", NULL, &o.no_classes, "one class per rank"),
      CLI_FLAG("--exact", NULL, &o.exact,
               "every iteration's cost, one class per rank: predicts\n"
               "what the trace predicts (a longer file)"),
      {0}};
  const cli_spec spec = {
      .usage = "usage: augur graph TRACE -o FILE [--spread | --smooth | --exact] [--no-classes]\n"
               "\n"
               "Writes the trace's execution graph (what `augur simulate TRACE` replays) as\n"
               "an editable graph file: repetitions folded into loops, ranks with the same\n"
               "program grouped into classes, peers relative. Edit it (costs, counts,\n"
               "probabilities, more ranks in a class) and run `augur simulate FILE`.\n"
               "See docs/graph-format.md.\n",
      .opts = options,
      CLI_ONE_TRACE};
  cli_args args;
  if (!cli_parse_args(argc, argv, &spec, &args)) return args.status;
  const char *path = args.operand[0];
  if (o.exact && (o.spread || o.smooth))
    return cli_usage("--exact keeps every cost: it does not go with --spread or --smooth");
  if (!out) return cli_usage("missing -o FILE (usage: augur graph TRACE -o FILE)");

  augur_trace *t = NULL;
  int rc = cli_open_trace(path, &t);
  if (rc != CLI_OK) return rc;
  augur_error err = {0};
  augur_sim_graph *g = NULL;
  rc = augur_sim_graph_from_trace(&g, t, &err);
  augur_trace_close(t);
  if (rc != AUGUR_OK) return cli_fail("%s", err.msg);
  int to_stdout = !strcmp(out, "-");
  FILE *f = to_stdout ? stdout : fopen(out, "w");
  if (!f) {
    int e = errno;
    augur_sim_graph_free(g);
    return cli_fail("%s: %s", out, strerror(e));
  }
  o.source = path;
  rc = augur_gfile_write(f, g, &o, &err);
  augur_sim_graph_free(g);
  if (!to_stdout && fclose(f) && rc == AUGUR_OK) rc = augur_fail(&err, AUGUR_E_IO, "write failed");
  if (rc != AUGUR_OK) {
    if (!to_stdout) remove(out);
    return cli_fail("%s: %s", out, err.msg);
  }
  return CLI_OK;
}

/* ---- augur simulate FILE ------------------------------------------------- */

int gfile_is_graph_path(const char *path) {
  struct stat st;
  /* Traces are directories: any regular file is taken for a graph file, so
   * one without the magic line gets the parser's error naming it. */
  return augur_gfile_sniff(path) || (stat(path, &st) == 0 && S_ISREG(st.st_mode));
}

int gfile_check_class_opt(const char *val) {
  const char *eq = strchr(val, '=');
  long long n;
  if (!eq || eq == val) {
    cli_usage("--class: expected NAME=COUNT, got '%s'", val);
    return -1;
  }
  return cli_parse_int("--class", eq + 1, 0, 10000000, &n) < 0 ? -1 : 0;
}

int cmd_simulate_gfile(const char *path, const augur_machine *m, const gfile_sim_opts *o) {
  augur_error err = {0};
  augur_gfile *f = NULL;
  if (augur_gfile_load(&f, path, &err) != AUGUR_OK) return cli_fail("%s", err.msg);
  for (int i = 0; i < o->nclasses; i++) {
    const char *eq = strchr(o->classes[i], '=');
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(eq - o->classes[i]), o->classes[i]);
    if (augur_gfile_set_count(f, name, (uint32_t)strtoul(eq + 1, NULL, 10), &err) != AUGUR_OK) {
      augur_gfile_free(f);
      return cli_usage("--class: %s", err.msg);
    }
  }
  long long runs = o->runs > 0 ? o->runs : 1;
  double *pred = malloc((size_t)runs * sizeof *pred);
  if (!pred) {
    augur_gfile_free(f);
    return cli_fail("out of memory");
  }
  int rc = CLI_OK;
  for (long long k = 0; k < runs && rc == CLI_OK; k++) {
    augur_sim_graph *g = NULL;
    if (augur_gfile_expand(f, o->seed + (uint64_t)k, 0, &g, &err) != AUGUR_OK) {
      rc = cli_fail("%s", err.msg);
      break;
    }
    augur_sim_result res;
    if (augur_simulate(g, m, &res, &err) != AUGUR_OK) {
      augur_sim_graph_free(g);
      rc = cli_fail("%s: %s", path, err.msg);
      break;
    }
    pred[k] = res.predicted_seconds;
    if (runs == 1) {
      augur_sim_graph_stats gs;
      augur_sim_graph_stats_get(g, &gs);
      if (o->json) {
        augur_sim_write_json(stdout, &res, &gs, -1, NULL, 0);
      } else {
        printf("machine: %s\n", m->name);
        printf("graph file: %s (%u ranks, seed %llu)\n", path, gs.nranks,
               (unsigned long long)o->seed);
        augur_sim_write_text(stdout, &res, -1);
      }
    }
    augur_sim_result_free(&res);
    augur_sim_graph_free(g);
  }
  augur_gfile_free(f);
  if (rc != CLI_OK || runs == 1) {
    free(pred);
    fflush(stdout);
    return rc;
  }
  /* Mean, standard deviation (n - 1), 10 %-trimmed mean, as the seed's
   * simulator reported them over runs. */
  double sum = 0, ss = 0;
  for (long long k = 0; k < runs; k++)
    sum += pred[k];
  double mean = sum / (double)runs;
  for (long long k = 0; k < runs; k++)
    ss += (pred[k] - mean) * (pred[k] - mean);
  double sd = sqrt(ss / (double)(runs - 1));
  double *sorted = malloc((size_t)runs * sizeof *sorted);
  if (!sorted) {
    free(pred);
    return cli_fail("out of memory");
  }
  memcpy(sorted, pred, (size_t)runs * sizeof *sorted);
  qsort(sorted, (size_t)runs, sizeof *sorted, aug_cmp_double);
  long long cut = runs / 10;
  double tsum = 0;
  for (long long k = cut; k < runs - cut; k++)
    tsum += sorted[k];
  double trimmed = tsum / (double)(runs - 2 * cut);
  if (o->json) {
    /* jansson escapes the path; keys in the documented order (seeds <= 2^62). */
    json_t *js = json_object(), *samples = json_array();
    json_object_set_new(js, "schema", json_integer(1));
    json_object_set_new(js, "file", augur_json_text(path));
    json_object_set_new(js, "runs", json_integer(runs));
    json_object_set_new(js, "seed", json_integer((json_int_t)o->seed));
    json_object_set_new(js, "mean", json_real(mean));
    json_object_set_new(js, "sd", json_real(sd));
    json_object_set_new(js, "trimmed_mean", json_real(trimmed));
    json_object_set_new(js, "min", json_real(sorted[0]));
    json_object_set_new(js, "max", json_real(sorted[runs - 1]));
    for (long long k = 0; k < runs; k++)
      json_array_append_new(samples, json_real(pred[k]));
    json_object_set_new(js, "samples", samples);
    int bad = json_dumpf(js, stdout, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) < 0;
    json_decref(js);
    putchar('\n');
    if (bad) {
      free(sorted);
      free(pred);
      return cli_fail("out of memory");
    }
  } else {
    printf("machine: %s\n", m->name);
    printf("graph file: %s, %lld runs, seeds %llu ... %llu\n", path, runs,
           (unsigned long long)o->seed, (unsigned long long)(o->seed + (uint64_t)runs - 1));
    printf("predicted time: mean %.6f s, sd %.6f s, 10%%-trimmed mean %.6f s\n", mean, sd, trimmed);
    printf("                min %.6f s, max %.6f s\n", sorted[0], sorted[runs - 1]);
  }
  fflush(stdout);
  free(sorted);
  free(pred);
  return CLI_OK;
}
