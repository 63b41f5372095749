/* Checks `augur report --json` of the gen_trace trace against numbers worked
 * out by hand (see gen_trace.c; global time = local - 1000).
 *
 * usage: check_report REPORT.json
 * Prints every failed expectation and exits 1 if any failed. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define EXPECT(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "check_report: line %d: ", __LINE__);                                        \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static long long num(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v)) {
    fprintf(stderr, "check_report: key '%s' missing or not an integer\n", key);
    failures++;
    return -1;
  }
  return json_integer_value(v);
}

static double real(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_number(v)) {
    fprintf(stderr, "check_report: key '%s' missing or not a number\n", key);
    failures++;
    return NAN;
  }
  return json_number_value(v);
}

static void expect_num(json_t *o, const char *key, long long want, const char *ctx) {
  long long got = num(o, key);
  EXPECT(got == want, "%s.%s = %lld, want %lld", ctx, key, got, want);
}

static json_t *find_call(json_t *calls, const char *name) {
  size_t i;
  json_t *c;
  json_array_foreach(calls, i, c) {
    const char *n = json_string_value(json_object_get(c, "call"));
    if (n && !strcmp(n, name)) return c;
  }
  return NULL;
}

static json_t *find_pair(json_t *pairs, long long from, long long to) {
  size_t i;
  json_t *p;
  json_array_foreach(pairs, i, p) {
    if (num(p, "from") == from && num(p, "to") == to) return p;
  }
  return NULL;
}

static json_t *find_bucket(json_t *buckets, long long lo) {
  size_t i;
  json_t *b;
  json_array_foreach(buckets, i, b) {
    if (num(b, "lo") == lo) return b;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: check_report REPORT.json\n");
    return 2;
  }
  json_error_t jerr;
  json_t *root = json_load_file(argv[1], 0, &jerr);
  if (!root) {
    fprintf(stderr, "check_report: %s: line %d: %s\n", argv[1], jerr.line, jerr.text);
    return 1;
  }
  const char *schema = json_string_value(json_object_get(root, "schema"));
  EXPECT(schema && !strcmp(schema, "augur-report"), "schema is not augur-report");
  expect_num(root, "version", 1, "report");
  expect_num(root, "nranks", 3, "report");
  EXPECT(json_is_true(json_object_get(root, "complete")), "report.complete is not true");
  EXPECT(json_is_null(json_object_get(root, "error")), "report.error is not null");
  /* 9 + 10 + 7 records */
  expect_num(root, "events", 26, "report");
  expect_num(root, "t_first_ns", 0, "report");
  expect_num(root, "t_last_ns", 8700, "report");
  expect_num(root, "wall_ns", 8700, "report");
  expect_num(root, "mpi_ns", 3300 + 2210 + 4760, "report");
  expect_num(root, "compute_ns", 3700 + 4290 + 2240, "report");

  /* Per rank. */
  static const long long compute[3] = {3700, 4290, 2240}, mpi[3] = {3300, 2210, 4760},
                         window[3] = {7000, 6500, 7000}, init[3] = {1000, 1500, 500},
                         fin[3] = {500, 200, 1200}, events[3] = {9, 10, 7};
  json_t *ranks = json_object_get(root, "ranks");
  EXPECT(json_array_size(ranks) == 3, "ranks has %zu entries, want 3", json_array_size(ranks));
  for (size_t r = 0; r < 3 && r < json_array_size(ranks); r++) {
    json_t *o = json_array_get(ranks, r);
    char ctx[32];
    snprintf(ctx, sizeof ctx, "ranks[%zu]", r);
    expect_num(o, "rank", (long long)r, ctx);
    expect_num(o, "compute_ns", compute[r], ctx);
    expect_num(o, "mpi_ns", mpi[r], ctx);
    expect_num(o, "window_ns", window[r], ctx);
    expect_num(o, "init_ns", init[r], ctx);
    expect_num(o, "finalize_ns", fin[r], ctx);
    expect_num(o, "events", events[r], ctx);
    double pct = real(o, "mpi_pct"), want = 100.0 * mpi[r] / (double)(mpi[r] + compute[r]);
    EXPECT(fabs(pct - want) < 1e-9, "%s.mpi_pct = %g, want %g", ctx, pct, want);
    EXPECT(json_is_true(json_object_get(o, "finalized")), "%s.finalized is not true", ctx);
  }

  /* Calls, by time: Recv 4250, Allreduce 3500, Waitall 2000, Send 220, Isend 150, Irecv 150. */
  json_t *calls = json_object_get(root, "calls");
  static const char *order[] = {"MPI_Recv", "MPI_Allreduce", "MPI_Waitall",
                                "MPI_Send", "MPI_Isend",     "MPI_Irecv"};
  static const long long ctime[] = {4250, 3500, 2000, 220, 150, 150}, ccount[] = {3, 3, 2, 4, 2, 2};
  expect_num(root, "calls_total", 6, "report");
  EXPECT(json_array_size(calls) == 6, "calls has %zu entries, want 6 (--top 10)",
         json_array_size(calls));
  for (size_t i = 0; i < 6 && i < json_array_size(calls); i++) {
    json_t *c = json_array_get(calls, i);
    const char *name = json_string_value(json_object_get(c, "call"));
    EXPECT(name && !strcmp(name, order[i]), "calls[%zu] is %s, want %s", i, name ? name : "?",
           order[i]);
    expect_num(c, "time_ns", ctime[i], order[i]);
    expect_num(c, "count", ccount[i], order[i]);
  }
  json_t *recv = find_call(calls, "MPI_Recv");
  if (recv) {
    expect_num(recv, "bytes_recv", 5001, "MPI_Recv");
    expect_num(recv, "bytes_sent", 0, "MPI_Recv");
    json_t *sites = json_object_get(recv, "sites");
    EXPECT(json_array_size(sites) == 2, "MPI_Recv has %zu sites, want 2", json_array_size(sites));
    json_t *s0 = json_array_get(sites, 0);
    const char *where = json_string_value(json_object_get(s0, "where"));
    EXPECT(where && !strcmp(where, "augur-test-app+0x100"), "MPI_Recv top site is %s",
           where ? where : "?");
    expect_num(s0, "count", 1, "MPI_Recv.sites[0]");
    expect_num(s0, "time_ns", 4100, "MPI_Recv.sites[0]");
    json_t *s1 = json_array_get(sites, 1);
    expect_num(s1, "count", 2, "MPI_Recv.sites[1]");
    expect_num(s1, "time_ns", 150, "MPI_Recv.sites[1]");
  }
  /* Received bytes are status counts, for the call that completed the receive:
   * not the 4096 bytes rank 0's MPI_Irecv posted. */
  json_t *irecv = find_call(calls, "MPI_Irecv");
  if (irecv) expect_num(irecv, "bytes_recv", 0, "MPI_Irecv");
  json_t *waitall = find_call(calls, "MPI_Waitall");
  if (waitall) expect_num(waitall, "bytes_recv", 100 + 100, "MPI_Waitall");
  json_t *send = find_call(calls, "MPI_Send");
  if (send) expect_num(send, "bytes_sent", 5000 + 1 + 0 + 64, "MPI_Send");

  /* Collectives. */
  json_t *coll = json_object_get(root, "collectives");
  EXPECT(json_array_size(coll) == 1, "collectives has %zu entries, want 1", json_array_size(coll));
  json_t *ar = find_call(coll, "MPI_Allreduce");
  EXPECT(ar != NULL, "no MPI_Allreduce in collectives");
  if (ar) {
    expect_num(ar, "count", 3, "collectives.MPI_Allreduce");
    expect_num(ar, "time_ns", 3500, "collectives.MPI_Allreduce");
    expect_num(ar, "bytes_sent", 24, "collectives.MPI_Allreduce");
    expect_num(ar, "bytes_recv", 24, "collectives.MPI_Allreduce");
  }

  /* Messages: 0->1 100 B, 1->0 100 B, 0->2 5000 B, 1->2 1 B and 0 B; PROC_NULL not counted. */
  json_t *sizes = json_object_get(root, "message_sizes");
  expect_num(sizes, "messages", 5, "message_sizes");
  expect_num(sizes, "bytes", 5201, "message_sizes");
  json_t *buckets = json_object_get(sizes, "buckets");
  EXPECT(json_array_size(buckets) == 4, "%zu buckets, want 4", json_array_size(buckets));
  static const long long blo[] = {0, 1, 64, 4096}, bhi[] = {0, 1, 127, 8191},
                         bcount[] = {1, 1, 2, 1}, bbytes[] = {0, 1, 200, 5000};
  for (int i = 0; i < 4; i++) {
    json_t *b = find_bucket(buckets, blo[i]);
    EXPECT(b != NULL, "no bucket starting at %lld", blo[i]);
    if (!b) continue;
    expect_num(b, "hi", bhi[i], "bucket");
    expect_num(b, "count", bcount[i], "bucket");
    expect_num(b, "bytes", bbytes[i], "bucket");
  }
  json_t *pairs = json_object_get(root, "matrix");
  EXPECT(json_array_size(pairs) == 4, "matrix has %zu pairs, want 4", json_array_size(pairs));
  static const long long pf[] = {0, 0, 1, 1}, pt[] = {1, 2, 0, 2}, pb[] = {100, 5000, 100, 1},
                         pm[] = {1, 1, 1, 2};
  for (int i = 0; i < 4; i++) {
    json_t *p = find_pair(pairs, pf[i], pt[i]);
    EXPECT(p != NULL, "no matrix entry %lld -> %lld", pf[i], pt[i]);
    if (!p) continue;
    expect_num(p, "bytes", pb[i], "matrix");
    expect_num(p, "messages", pm[i], "matrix");
  }

  /* Load balance of compute: min 2240 (rank 2), max 4290 (rank 1). */
  json_t *lb = json_object_get(root, "load_balance");
  expect_num(lb, "compute_min_ns", 2240, "load_balance");
  expect_num(lb, "min_rank", 2, "load_balance");
  expect_num(lb, "compute_max_ns", 4290, "load_balance");
  expect_num(lb, "max_rank", 1, "load_balance");
  double avg = real(lb, "compute_avg_ns"), ratio = real(lb, "avg_max_ratio");
  EXPECT(fabs(avg - 10230.0 / 3) < 1e-6, "compute_avg_ns = %f, want %f", avg, 10230.0 / 3);
  EXPECT(fabs(ratio - (10230.0 / 3) / 4290) < 1e-9, "avg_max_ratio = %f", ratio);

  json_decref(root);
  if (failures) fprintf(stderr, "check_report: %d expectation(s) failed\n", failures);
  return failures ? 1 : 0;
}
