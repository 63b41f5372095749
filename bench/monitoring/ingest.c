/* augur-bench-ingest: how many process records per second augurd stores.
 * Sends JOBS synthetic job records of PROCS processes each (one thread per
 * sender, SENDERS at once) and waits for every ack, i.e. every commit.
 * Usage: augur-bench-ingest HOST:PORT KEYFILE SPOOLDIR [JOBS PROCS SENDERS]
 * Prints one JSON line: jobs, processes, seconds, records_per_s, spooled. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mon.h"

static mon_sender sender;
static int njobs = 200, nprocs = 100, nsenders = 8;
static int next_job, spooled, failed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint8_t *make_job(int id, uint32_t *len) {
  *len = (uint32_t)(sizeof(augp_job) + (size_t)nprocs * sizeof(augp_proc));
  uint8_t *b = calloc(1, *len);
  if (!b) return NULL;
  augp_job j;
  memset(&j, 0, sizeof j);
  mon_random(j.uid, sizeof j.uid);
  snprintf(j.job_id, sizeof j.job_id, "bench-%d", id);
  strcpy(j.step, "0");
  strcpy(j.cluster, "bench");
  snprintf(j.user, sizeof j.user, "user%d", id % 10);
  strcpy(j.command, "mpiexec -n N ./app");
  j.start_ns = 1000000000;
  j.end_ns = 2000000000;
  j.level = 2;
  j.nprocs = (uint64_t)nprocs;
  memcpy(b, &j, sizeof j);
  for (int i = 0; i < nprocs; i++) {
    augp_proc p;
    memset(&p, 0, sizeof p);
    snprintf(p.host, sizeof p.host, "node%03d", (id * 7 + i / 48) % 500);
    strcpy(p.program, "/apps/bench/app");
    p.pid = (uint64_t)(1000 + i);
    p.rank = i;
    p.nranks = nprocs;
    p.start_ns = j.start_ns;
    p.end_ns = j.end_ns - (uint64_t)i;
    p.utime_us = 900000;
    p.ctr_mask = 1;
    p.ctr[0] = 900000000;
    p.mpi_ns[AUGP_MPI_COLL] = 50000000;
    p.nthreads = 1;
    p.threads[0].tid = p.pid;
    p.threads[0].start_ns = p.start_ns;
    p.threads[0].end_ns = p.end_ns;
    memcpy(b + sizeof j + (size_t)i * sizeof p, &p, sizeof p);
  }
  return b;
}

static void *run(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    int id = next_job < njobs ? next_job++ : -1;
    pthread_mutex_unlock(&lock);
    if (id < 0) break;
    uint32_t len;
    uint8_t *b = make_job(id, &len);
    char why[512];
    int rc = b ? mon_send_or_spool(&sender, b, len, why, sizeof why) : -1;
    free(b);
    pthread_mutex_lock(&lock);
    if (rc == 1) spooled++;
    if (rc < 0) failed++;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: augur-bench-ingest HOST:PORT KEYFILE SPOOLDIR [JOBS PROCS SENDERS]\n");
    return 2;
  }
  snprintf(sender.collectors, sizeof sender.collectors, "%s", argv[1]);
  snprintf(sender.spool, sizeof sender.spool, "%s", argv[3]);
  sender.deadline_ms = 60000;
  char why[4400];
  if (mon_key_load(&sender.key, argv[2], why, sizeof why)) {
    fprintf(stderr, "augur-bench-ingest: %s\n", why);
    return 1;
  }
  if (argc > 4) njobs = atoi(argv[4]);
  if (argc > 5) nprocs = atoi(argv[5]);
  if (argc > 6) nsenders = atoi(argv[6]);
  if (njobs < 1 || nprocs < 1 || nsenders < 1 || nsenders > 1024) {
    fprintf(stderr, "augur-bench-ingest: JOBS, PROCS, SENDERS must be positive\n");
    return 2;
  }
  pthread_t *th = calloc((size_t)nsenders, sizeof *th);
  if (!th) return 1;
  double t0 = now();
  for (int i = 0; i < nsenders; i++)
    pthread_create(&th[i], NULL, run, NULL);
  for (int i = 0; i < nsenders; i++)
    pthread_join(th[i], NULL);
  double dt = now() - t0;
  double recs = (double)njobs * nprocs;
  printf("{\"jobs\": %d, \"processes\": %.0f, \"senders\": %d, \"seconds\": %.3f, "
         "\"records_per_s\": %.0f, \"spooled\": %d, \"failed\": %d}\n",
         njobs, recs, nsenders, dt, recs / dt, spooled, failed);
  free(th);
  return spooled || failed ? 1 : 0;
}
