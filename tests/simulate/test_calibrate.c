/* The calibration protocol and the model derived from it
 * (include/augur/calibrate.h): protocol text built here from chosen
 * figures, the expected model worked out from the same figures by the rule
 * the header states. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "augur/calibrate.h"

/* Figures of one run, as the program would print them. */
typedef struct run {
  double overhead, sendcost, lat, lat_mean, bw, ar, bar, ring, flops, quantum, freshbuf, firsttouch,
      eager;
  size_t nsizes;
  double size[14], median[14], best[14], mean[14];
} run;

/* A run of 12 sizes 1 B .. 4 MiB (powers of 4), best times out of order. */
static run sample(void) {
  run r = {.overhead = 2e-7,
           .sendcost = 3.5e-7,
           .lat = 1.25e-6,
           .lat_mean = 1.5e-6,
           .bw = 6.4e9,
           .ar = 4e-6,
           .bar = 3e-6,
           .ring = 2e-5,
           .flops = 1.5e9,
           .quantum = 4e-3,
           .freshbuf = 1e-4,
           .firsttouch = 2e-4,
           .eager = 65536};
  double s = 1;
  for (size_t i = 0; i < 12; i++, s *= 4) {
    r.size[i] = s;
    r.best[i] = 1e-6 * (double)((i * 7) % 12 + 1); /* a permutation of 1..12 us */
    r.median[i] = r.best[i] * 1.5;
    r.mean[i] = r.best[i] * 2 + s / 1e10; /* 10 GB/s on top: the means grow with the size */
  }
  r.nsizes = 12;
  return r;
}

/* The protocol text of R into BUF, in the order the program prints it;
 * SKIP leaves figures out. */
enum { NO_OVERHEAD = 1, NO_LATENCY = 2, NO_BANDWIDTH = 4, NO_QUANTUM = 8, NO_EAGER = 16 };
static void protocol(const run *r, unsigned skip, char *buf, size_t cap) {
  size_t n = 0;
#define OUT(...) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__)
  if (!(skip & NO_OVERHEAD)) OUT("overhead %.17g\n", r->overhead);
  OUT("sendcost %.17g\n", r->sendcost);
  if (!(skip & NO_LATENCY)) OUT("latency %.17g %.17g\n", r->lat, r->lat_mean);
  for (size_t i = 0; i < r->nsizes; i++)
    OUT("pingpong %.17g %.17g %.17g %.17g\n", r->size[i], r->median[i], r->best[i], r->mean[i]);
  if (!(skip & NO_BANDWIDTH)) OUT("bandwidth %.17g\n", r->bw);
  OUT("allreduce8 %.17g\nbarrier %.17g\nringstep %.17g\nflops %.17g\n", r->ar, r->bar, r->ring,
      r->flops);
  if (!(skip & NO_QUANTUM)) OUT("quantum %.17g\n", r->quantum);
  OUT("freshbuf %.17g\nfirsttouch %.17g\n", r->freshbuf, r->firsttouch);
  if (!(skip & NO_EAGER)) OUT("eager %.17g\n", r->eager);
#undef OUT
  assert_true(n < cap);
}

static void read_text(augur_calib_figures *f, const char *text) {
  augur_calib_init(f);
  FILE *in = fmemopen((void *)text, strlen(text), "r");
  assert_non_null(in);
  augur_calib_read(f, in);
  fclose(in);
}

static void figures_of(const run *r, unsigned skip, augur_calib_figures *f) {
  static char text[8192];
  protocol(r, skip, text, sizeof text);
  read_text(f, text);
}

static size_t count_lines(const char *s, const char *prefix) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, prefix)) != NULL; p++)
    n++;
  return n;
}

/* Every figure printed is read back; the small sizes' best times are kept
 * in order, the 1 and 4 MiB means picked out, one note line per size. */
static void test_read_figures(void **state) {
  (void)state;
  run r = sample();
  augur_calib_figures f;
  figures_of(&r, 0, &f);
  assert_true(f.overhead == r.overhead && f.sendcost == r.sendcost);
  assert_true(f.latency == r.lat && f.lat_mean == r.lat_mean && f.bandwidth == r.bw);
  assert_true(f.allreduce == r.ar && f.barrier == r.bar && f.ring == r.ring);
  assert_true(f.flops == r.flops && f.quantum == r.quantum && f.eager == r.eager);
  assert_true(f.freshbuf == r.freshbuf && f.firsttouch == r.firsttouch);
  size_t small = 0;
  for (size_t i = 0; i < r.nsizes; i++) {
    if (r.size[i] <= 1024) assert_true(f.bests[small++] == r.best[i]);
    if (r.size[i] == 1048576) assert_true(f.mean1m == r.mean[i]);
    if (r.size[i] == 4194304) assert_true(f.mean4m == r.mean[i]);
  }
  assert_int_equal(f.nbest, small);
  assert_int_equal(count_lines(f.notes, " bytes: median "), r.nsizes);
  assert_int_equal(strlen(f.notes), f.nnotes);
}

/* What is not the protocol is skipped; a figure printed twice keeps the
 * last; nothing read leaves everything "not measured". */
static void test_read_noise(void **state) {
  (void)state;
  augur_calib_figures f, none;
  augur_calib_init(&none);
  read_text(&f, "");
  assert_memory_equal(&f, &none, sizeof f);
  augur_calib_read(&f, NULL); /* no stream: nothing */
  assert_memory_equal(&f, &none, sizeof f);
  read_text(&f, "[mpiexec] warning: something\n"
                "overhead\n"             /* no value */
                "latency 1e-6\n"         /* one of two values */
                "pingpong 8 1e-6 1e-6\n" /* three of four */
                "nosuchkey 5\n"
                "bandwidth 1e9\n"
                "bandwidth 2e9\n");
  assert_true(f.bandwidth == 2e9);
  assert_true(f.overhead == none.overhead && f.latency == none.latency);
  assert_int_equal(f.nbest, 0);
  assert_int_equal(f.nnotes, 0);
  /* far more sizes than the notes hold: they stop, nothing overflows */
  char text[65536];
  size_t n = 0;
  for (int i = 0; i < 400; i++)
    n += (size_t)snprintf(text + n, sizeof text - n, "pingpong %d 1e-6 1e-6 1e-6\n", 1 << (i % 20));
  read_text(&f, text);
  assert_true(f.nnotes < sizeof f.notes && strlen(f.notes) == f.nnotes);
  assert_int_equal(f.nbest, AUGUR_CALIB_MAX_BESTS);
}

/* R with the sizes of 16 and 64 MiB: best times on a line of bandwidth BWL
 * that meets the line through 4 MiB at R's bandwidth at FROM bytes. */
static void add_large(run *r, double bwl, double from) {
  double at4 = 0;
  for (size_t i = 0; i < r->nsizes; i++)
    if (r->size[i] == 4194304) at4 = r->best[i];
  double at_from = at4 + (from - 4194304.0) / r->bw;
  for (double s = 16777216.0; s <= 67108864.0; s *= 4) {
    size_t i = r->nsizes++;
    r->size[i] = s;
    r->best[i] = at_from + (s - from) / bwl;
    r->median[i] = r->best[i] * 1.5;
    r->mean[i] = r->best[i] * 2;
  }
}

static int derive(const augur_calib_figures *f, long ncpu, long long nranks, augur_machine *m,
                  augur_calib_how *how, augur_error *err) {
  augur_machine_default(m);
  return augur_calib_derive(f, ncpu, nranks, "node7", "mpich", m, how, err);
}

/* Fewer ranks than CPUs: the ping-pong median, the best times' slope, the
 * node's cores; one node; overhead the larger per-call cost. */
static void test_derive_dedicated(void **state) {
  (void)state;
  run r = sample();
  augur_calib_figures f;
  figures_of(&r, 0, &f);
  augur_machine m;
  augur_calib_how how;
  augur_error err = {0};
  assert_int_equal(derive(&f, 8, 4, &m, &how, &err), AUGUR_OK);
  assert_true(m.latency == r.lat && m.shm_latency == r.lat);
  assert_true(m.bandwidth == r.bw && m.shm_bandwidth == r.bw);
  assert_true(m.overhead == (r.sendcost > r.overhead ? r.sendcost : r.overhead));
  assert_int_equal(m.nodes, 1);
  assert_int_equal(m.cores_per_node, 8);
  assert_int_equal(m.cpu_cores, 8);
  assert_true(m.cpu_quantum == r.quantum);
  assert_int_equal(m.eager_limit, (uint64_t)r.eager);
  assert_true(m.fresh_buffer == r.freshbuf && m.first_touch == r.firsttouch);
  assert_false(how.shared);
  assert_true(how.slices);
  assert_non_null(strstr(m.name, "node7") && strstr(m.name, "mpich"));
  /* the other way round: the Iprobe dearer than a send */
  r.overhead = 2 * r.sendcost;
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 4, &m, &how, &err), AUGUR_OK);
  assert_true(m.overhead == r.overhead);
}

/* More ranks than CPUs, no time slice: the ring step and the slope of the
 * mean times; cpu.cores stays as it was (the latency already has the
 * turns). */
static void test_derive_shared(void **state) {
  (void)state;
  run r = sample();
  augur_calib_figures f;
  figures_of(&r, NO_QUANTUM, &f);
  augur_machine m, def;
  augur_machine_default(&def);
  augur_calib_how how;
  augur_error err = {0};
  assert_int_equal(derive(&f, 2, 4, &m, &how, &err), AUGUR_OK);
  assert_true(how.shared && !how.slices);
  assert_true(m.latency == r.ring && m.shm_latency == r.ring);
  double m1 = 0, m4 = 0;
  for (size_t i = 0; i < r.nsizes; i++) {
    if (r.size[i] == 1048576) m1 = r.mean[i];
    if (r.size[i] == 4194304) m4 = r.mean[i];
  }
  assert_true(m4 > m1);
  assert_true(m.bandwidth == 3.0 * 1048576 / (m4 - m1));
  assert_int_equal(m.cpu_cores, def.cpu_cores);
  assert_true(m.cpu_quantum == 0);
  /* means that do not grow: the bandwidth figure is kept */
  for (size_t i = 0; i < r.nsizes; i++)
    r.mean[i] = 1e-3;
  figures_of(&r, NO_QUANTUM, &f);
  assert_int_equal(derive(&f, 2, 4, &m, &how, &err), AUGUR_OK);
  assert_true(m.bandwidth == r.bw);
  /* no ring step measured: not shared, the ping-pong median */
  r.ring = -1;
  figures_of(&r, NO_QUANTUM, &f);
  assert_int_equal(derive(&f, 2, 4, &m, &how, &err), AUGUR_OK);
  assert_false(how.shared);
  assert_true(m.latency == r.lat);
  /* CPUs unknown: one core per node, never shared */
  r = sample();
  figures_of(&r, NO_QUANTUM, &f);
  assert_int_equal(derive(&f, 0, 4, &m, &how, &err), AUGUR_OK);
  assert_false(how.shared);
  assert_int_equal(m.cores_per_node, 1);
  assert_int_equal(m.cpu_cores, def.cpu_cores);
}

/* More ranks than CPUs with the time slice: the median of the small
 * sizes' best times (whatever order they came in), cpu.cores the CPUs,
 * the slice as cpu.quantum. */
static void test_derive_slices(void **state) {
  (void)state;
  run r = sample();
  augur_calib_figures f;
  figures_of(&r, 0, &f);
  augur_machine m;
  augur_calib_how how;
  augur_error err = {0};
  assert_int_equal(derive(&f, 2, 4, &m, &how, &err), AUGUR_OK);
  assert_true(!how.shared && how.slices);
  /* the expected median: the best time with nbest/2 smaller ones */
  double want = -1;
  for (size_t i = 0; i < f.nbest; i++) {
    size_t below = 0;
    for (size_t j = 0; j < f.nbest; j++)
      below += f.bests[j] < f.bests[i];
    if (below == f.nbest / 2) want = f.bests[i];
  }
  assert_true(want > 0);
  assert_true(m.latency == want && how.latency == want);
  assert_int_equal(m.cpu_cores, 2);
  assert_true(m.cpu_quantum == r.quantum);
  /* the figures are left as read */
  augur_calib_figures again;
  figures_of(&r, 0, &again);
  assert_memory_equal(&f, &again, sizeof f);
}

/* The eager limit: a size, "every send waited" (0), or not measured
 * (the model's own). */
static void test_derive_eager(void **state) {
  (void)state;
  run r = sample();
  augur_calib_figures f;
  augur_machine m, def;
  augur_machine_default(&def);
  augur_calib_how how;
  augur_error err = {0};
  r.eager = -1;
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_int_equal(m.eager_limit, 0);
  figures_of(&r, NO_EAGER, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_int_equal(m.eager_limit, def.eager_limit);
}

/* A run that printed no latency, bandwidth or overhead is an error that
 * says so, whichever is missing. */
static void test_derive_missing(void **state) {
  (void)state;
  run r = sample();
  const unsigned miss[] = {NO_OVERHEAD, NO_LATENCY, NO_BANDWIDTH,
                           NO_OVERHEAD | NO_LATENCY | NO_BANDWIDTH};
  for (size_t i = 0; i < sizeof miss / sizeof miss[0]; i++) {
    augur_calib_figures f;
    figures_of(&r, miss[i], &f);
    augur_machine m;
    augur_calib_how how;
    augur_error err = {0};
    assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_E_ARG);
    assert_non_null(strstr(err.msg, "no latency/bandwidth figures"));
  }
  r.bw = 0; /* printed, but no bandwidth */
  augur_calib_figures f;
  figures_of(&r, 0, &f);
  augur_machine m;
  augur_calib_how how;
  augur_error err = {0};
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_E_ARG);
  /* figures that are not numbers (a run that divided by zero) */
  r = sample();
  double *fig[] = {&f.latency, &f.overhead, &f.bandwidth};
  for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) {
    figures_of(&r, 0, &f);
    assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
    *fig[i] = NAN;
    assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_E_ARG);
    *fig[i] = INFINITY;
    assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_E_ARG);
  }
}

/* A and B agree to the 6 digits the model file keeps (%.6g). */
static int near6(double a, double b) {
  double d = a > b ? a - b : b - a, m = b < 0 ? -b : b;
  return d <= 1e-5 * m;
}

/* Large messages: the slope of the best times between 16 and 64 MiB, from
 * where its line meets the line through 4 MiB at the bandwidth (here 8
 * MiB); kept within [4, 16] MiB; none when large messages are no slower,
 * when the 64 MiB figure is missing, or when the ranks took turns (ring
 * step). The model file carries both keys. */
static void test_derive_large(void **state) {
  (void)state;
  augur_calib_figures f;
  augur_machine m;
  augur_calib_how how;
  augur_error err = {0};
  run r = sample();
  add_large(&r, 2.5e9, 8388608.0);
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_true(fabs(m.shm_large_bandwidth - 2.5e9) < 1);
  assert_true(m.shm_large_from > 8388608 - 64 && m.shm_large_from < 8388608 + 64);
  assert_true(m.shm_bandwidth == r.bw);
  char text[16384];
  FILE *out = fmemopen(text, sizeof text, "w");
  assert_int_equal(augur_calib_write(out, &f, &how, &m), AUGUR_OK);
  fclose(out);
  assert_non_null(strstr(text, "\nlarge_bandwidth = 2.5e+09\n"));
  assert_non_null(strstr(text, "\nlarge_from = "));
  /* the lines would meet below 4 MiB or above 16 MiB: the range's ends */
  r = sample();
  add_large(&r, 2.5e9, 1048576.0);
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_int_equal(m.shm_large_from, 4194304);
  r = sample();
  add_large(&r, 5e9, 20971520.0);
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_int_equal(m.shm_large_from, 16777216);
  /* large messages faster than the bandwidth: none */
  r = sample();
  add_large(&r, 2 * r.bw, 8388608.0);
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_true(m.shm_large_bandwidth == 0);
  /* no 64 MiB ping-pong (an older calibration program): none */
  r = sample();
  add_large(&r, 2.5e9, 8388608.0);
  r.nsizes--;
  figures_of(&r, 0, &f);
  assert_int_equal(derive(&f, 8, 2, &m, &how, &err), AUGUR_OK);
  assert_true(m.shm_large_bandwidth == 0);
  out = fmemopen(text, sizeof text, "w");
  assert_int_equal(augur_calib_write(out, &f, &how, &m), AUGUR_OK);
  fclose(out);
  assert_null(strstr(text, "large_"));
  /* more ranks than CPUs, no slice: the times are the scheduler's */
  r = sample();
  add_large(&r, 2.5e9, 8388608.0);
  figures_of(&r, NO_QUANTUM, &f);
  assert_int_equal(derive(&f, 2, 4, &m, &how, &err), AUGUR_OK);
  assert_true(how.shared);
  assert_true(m.shm_large_bandwidth == 0);
}

/* The model file reads back as the model derived, and its comments say
 * which rule gave the latency. */
static void test_write_round_trip(void **state) {
  (void)state;
  const struct {
    long ncpu;
    unsigned skip;
    const char *rule;
  } cases[] = {{8, NO_QUANTUM, "# latency = the ping-pong median\n"},
               {2, NO_QUANTUM, "# latency = the ring step"},
               {2, 0, "# latency = the median best ping-pong"},
               /* the slice measured, no more ranks than CPUs: the median */
               {8, 0, "# latency = the ping-pong median\n"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    run r = sample();
    add_large(&r, 2.5e9, 8388608.0);
    augur_calib_figures f;
    figures_of(&r, cases[c].skip, &f);
    augur_machine m, back;
    augur_calib_how how;
    augur_error err = {0};
    assert_int_equal(derive(&f, cases[c].ncpu, 4, &m, &how, &err), AUGUR_OK);
    char path[] = "/tmp/augur-calib-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w+");
    assert_int_equal(augur_calib_write(out, &f, &how, &m), AUGUR_OK);
    fflush(out);
    rewind(out);
    char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, out);
    text[n] = 0;
    fclose(out);
    assert_non_null(strstr(text, cases[c].rule));
    assert_int_equal(count_lines(text, " bytes: median "), r.nsizes);
    augur_machine_default(&back);
    int rc = augur_machine_load(&back, path, &err);
    unlink(path);
    assert_int_equal(rc, AUGUR_OK);
    assert_true(near6(back.latency, m.latency) && near6(back.bandwidth, m.bandwidth));
    assert_true(near6(back.overhead, m.overhead) && near6(back.cpu_quantum, m.cpu_quantum));
    assert_true(near6(back.shm_large_bandwidth, m.shm_large_bandwidth));
    assert_int_equal(back.shm_large_from, m.shm_large_from);
    assert_int_equal(back.cpu_cores, m.cpu_cores);
    assert_int_equal(back.eager_limit, m.eager_limit);
    assert_string_equal(back.name, m.name);
  }
}

/* --from: the recorded ranks took turns when the model's busiest node had
 * more of them than cores, and only if the model takes turns at all. */
static void test_trace_turns(void **state) {
  (void)state;
  augur_machine m;
  augur_machine_default(&m);
  m.nodes = 2;
  m.cores_per_node = 4; /* block placement: ranks 0-3 on node 0, 4-7 on node 1 */
  m.cpu_quantum = 0.004;
  for (uint32_t cores = 1; cores <= 5; cores++)
    for (uint32_t nranks = 1; nranks <= 8; nranks++) {
      m.cpu_cores = cores;
      uint32_t busiest = nranks < m.cores_per_node ? nranks : m.cores_per_node;
      assert_int_equal(augur_calib_trace_turns(&m, nranks), busiest > cores);
    }
  m.cpu_quantum = 0; /* processor sharing: the model takes no turns */
  m.cpu_cores = 1;
  assert_false(augur_calib_trace_turns(&m, 8));
  m.cpu_quantum = 0.004;
  m.cpu_cores = 0; /* a core per rank */
  assert_false(augur_calib_trace_turns(&m, 8));
  m.cpu_cores = 1;
  assert_false(augur_calib_trace_turns(&m, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_figures),     cmocka_unit_test(test_read_noise),
      cmocka_unit_test(test_derive_dedicated), cmocka_unit_test(test_derive_shared),
      cmocka_unit_test(test_derive_slices),    cmocka_unit_test(test_derive_eager),
      cmocka_unit_test(test_derive_missing),   cmocka_unit_test(test_write_round_trip),
      cmocka_unit_test(test_trace_turns),      cmocka_unit_test(test_derive_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
