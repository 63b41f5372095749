/* augur-test-store DB: stores crafted job records through the store API
 * (mon_db_open / mon_db_insert), the same bytes whichever backend DB names,
 * then the same batch again, which must come back all duplicates. The
 * records hold what a store may get wrong: text with a tab, a newline, a
 * backslash, a quote and a byte that is not UTF-8; a process with 11
 * threads (8 slots, the last folding the rest); counters not measured
 * (NULL) next to measured ones; rank -1; the largest value (2^63-1); a job without
 * processes. postgres.sh compares what SQLite and PostgreSQL then hold.
 * Prints "stored S duplicate D"; exit 0, or 1 with the store's reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_store.h"

#define NJOBS 3

static uint8_t *job(int k, uint32_t *len) {
  int nprocs = k == 2 ? 0 : 2 + k;
  *len = (uint32_t)(sizeof(augp_job) + (size_t)nprocs * sizeof(augp_proc));
  uint8_t *b = calloc(1, *len);
  if (!b) return NULL;
  augp_job j;
  memset(&j, 0, sizeof j);
  memset(j.uid, 0xa0 + k, sizeof j.uid); /* fixed: the second batch repeats them */
  snprintf(j.job_id, sizeof j.job_id, "store-%d\tx", k);
  snprintf(j.step, sizeof j.step, "%d", k);
  snprintf(j.cluster, sizeof j.cluster, "c'%d", k % 2);
  snprintf(j.user, sizeof j.user, "u\\%d", k);
  snprintf(j.command, sizeof j.command, "prog --opt \"a b\"\n caf\xe9 %d", k);
  j.uid_num = 1000;
  j.start_ns = 1700000000000000000ull;
  j.end_ns = j.start_ns + 2000000000ull * (uint64_t)(k + 1);
  j.level = (uint64_t)k;
  j.nprocs = (uint64_t)nprocs;
  j.exit_status = -k;
  memcpy(b, &j, sizeof j);
  for (int i = 0; i < nprocs; i++) {
    augp_proc p;
    memset(&p, 0, sizeof p);
    snprintf(p.host, sizeof p.host, "node%d", i % 2);
    snprintf(p.program, sizeof p.program, "/apps/x\xe9y/prog%d", i);
    if (i == 0) snprintf(p.counter_note, sizeof p.counter_note, "cycles: no PMU\tTLB: \\none");
    p.pid = (uint64_t)(100 * k + i);
    p.ppid = 1;
    p.rank = i == 1 ? -1 : i;
    p.nranks = nprocs;
    p.start_ns = j.start_ns + (uint64_t)i;
    p.end_ns = j.end_ns - (uint64_t)i;
    p.utime_us = 12345 + (uint64_t)i;
    p.maxrss_kb = INT64_MAX; /* the largest a record may hold (docs: Bounds) */
    p.ctr_mask = 1u << AUGP_CTR_TASK_CLOCK | 1u << AUGP_CTR_INSTRUCTIONS;
    p.ctr[AUGP_CTR_TASK_CLOCK] = 999;
    p.ctr[AUGP_CTR_CYCLES] = 555; /* not in the mask: NULL */
    p.ctr[AUGP_CTR_INSTRUCTIONS] = 777;
    p.mpi_ns[AUGP_MPI_COLL] = 42;
    p.mpi_calls[AUGP_MPI_COLL] = 3;
    p.io_ns[AUGP_IO_WRITE] = 24;
    p.io_bytes_written = 4096;
    p.nthreads = i == 0 ? 11 : 1;
    for (int t = 0; t < AUGP_MAX_THREADS && t < (int)p.nthreads; t++) {
      p.threads[t].tid = p.pid * 100 + (uint64_t)t;
      p.threads[t].start_ns = p.start_ns;
      p.threads[t].end_ns = p.end_ns;
      p.threads[t].cpu_ns = (uint64_t)(t + 1) * 1000;
      p.threads[t].ctr[AUGP_CTR_TASK_CLOCK] = (uint64_t)t;
    }
    if (p.nthreads > AUGP_MAX_THREADS) {
      p.threads[AUGP_MAX_THREADS - 1].flags = AUGP_TF_OVERFLOW;
      p.threads[AUGP_MAX_THREADS - 1].nfolded = p.nthreads - AUGP_MAX_THREADS + 1;
    }
    memcpy(b + sizeof j + (size_t)i * sizeof p, &p, sizeof p);
  }
  return b;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: augur-test-store DB\n");
    return 2;
  }
  const uint8_t *pl[NJOBS];
  uint32_t lens[NJOBS];
  int st[NJOBS], rc = 0, stored = 0, dup = 0;
  char why[1024];
  for (int k = 0; k < NJOBS; k++) {
    uint8_t *b = job(k, &lens[k]);
    if (!b || mon_job_validate(b, lens[k], why, sizeof why)) {
      fprintf(stderr, "augur-test-store: record %d: %s\n", k, b ? why : "out of memory");
      return 1;
    }
    pl[k] = b;
  }
  mon_db *db;
  if (mon_db_open(&db, argv[1], why, sizeof why)) {
    fprintf(stderr, "augur-test-store: %s\n", why);
    return 1;
  }
  for (int round = 0; round < 2 && !rc; round++) {
    rc = mon_db_insert(db, pl, lens, NJOBS, st, why, sizeof why);
    for (int k = 0; k < NJOBS && !rc; k++) {
      stored += st[k] == MON_ACK_STORED;
      dup += st[k] == MON_ACK_DUPLICATE;
    }
  }
  if (rc) fprintf(stderr, "augur-test-store: %s\n", why);
  mon_db_close(db);
  for (int k = 0; k < NJOBS; k++)
    free((void *)pl[k]);
  printf("stored %d duplicate %d\n", stored, dup);
  return rc ? 1 : 0;
}
