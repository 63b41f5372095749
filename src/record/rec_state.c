/* augur recorder — process-wide state and configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec_internal.h"

aug_config aug_cfg;
atomic_int aug_active;
pthread_mutex_t aug_lock = PTHREAD_MUTEX_INITIALIZER;
augur_writer *aug_writer;
int aug_world_rank, aug_world_size = 1;
int aug_nctr;

uint64_t aug_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long env_long(const char *name, long dflt, long min, long max) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || v < min || v > max) {
    fprintf(stderr, "augur: %s=%s: expected an integer in [%ld, %ld], using %ld\n", name, s, min,
            max, dflt);
    return dflt;
  }
  return v;
}

void aug_config_load(void) {
  const char *dir = getenv("AUGUR_TRACE_DIR");
  if (!dir || !*dir) dir = "./augur-trace.augur";
  snprintf(aug_cfg.trace_dir, sizeof aug_cfg.trace_dir, "%s", dir);
  const char *ctr = getenv("AUGUR_COUNTERS");
  aug_cfg.counters_set = ctr && *ctr;
  snprintf(aug_cfg.counters, sizeof aug_cfg.counters, "%s", aug_cfg.counters_set ? ctr : "auto");
  aug_cfg.payload_hash = env_long("AUGUR_PAYLOAD_HASH", 0, 0, 1) == 1;
  /* Small buffers are allowed so tests can force many blocks. */
  aug_cfg.buffer_events = (size_t)env_long("AUGUR_BUFFER_EVENTS", 8192, 16, 1L << 24);
  aug_cfg.zstd_level = (int)env_long("AUGUR_ZSTD_LEVEL", 0, 0, 22);
  aug_cfg.flush_seconds = env_long("AUGUR_FLUSH_SECONDS", 1, 0, 86400);
  const char *sig = getenv("AUGUR_SIGNATURE");
  snprintf(aug_cfg.signature, sizeof aug_cfg.signature, "%s", sig ? sig : "");
  const char *out = getenv("AUGUR_SIGNATURE_OUT");
  snprintf(aug_cfg.signature_out, sizeof aug_cfg.signature_out, "%s",
           out && *out ? out : "augur-sigresult.txt");
  aug_cfg.signature_measure = env_long("AUGUR_SIGNATURE_MEASURE", 0, 0, 1000000);
  /* Signature mode hands each call to the matcher at the next call's entry:
   * a buffer of one call. */
  if (aug_cfg.signature[0]) aug_cfg.buffer_events = 1;
}

void aug_rec_fail(const char *what, const char *msg) {
  /* Only the first failure is printed: after it recording is off. */
  static atomic_int said;
  atomic_store(&aug_active, 0);
  if (atomic_exchange(&said, 1) == 0)
    fprintf(stderr, "augur: rank %d: %s: %s (recording stopped)\n", aug_world_rank, what, msg);
}

int aug_rec_active(void) {
  return atomic_load_explicit(&aug_active, memory_order_relaxed);
}
