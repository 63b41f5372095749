/* augur — the CPUs this process may use: its affinity mask and its cgroup's
 * CPU quota. One mechanism for the recorder (augur_rank_def's cores, cpus,
 * cpu_quota) and `augur calibrate`. _GNU_SOURCE for sched_getaffinity and
 * the dynamic CPU set macros. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/defs.h"

/* The cgroup v2 quota of this process in CPUs (rounded up), 0 = none or
 * unknown. Reads /proc/self/cgroup ("0::/path") and that group's cpu.max
 * ("max 100000" or "QUOTA PERIOD"); cgroup v1 (cpu.cfs_quota_us) is not read. */
static uint32_t cgroup_quota(void) {
  char line[512], path[700];
  const char *group = "";
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (f) {
    while (fgets(line, sizeof line, f))
      if (!strncmp(line, "0::", 3)) {
        line[strcspn(line, "\n")] = '\0';
        group = line + 3;
        break;
      }
    fclose(f);
  }
  snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", strcmp(group, "/") ? group : "");
  f = fopen(path, "r");
  if (!f) return 0;
  char quota[32] = "";
  unsigned long long period = 0;
  int n = fscanf(f, "%31s %llu", quota, &period);
  fclose(f);
  if (n != 2 || !period || !strcmp(quota, "max")) return 0;
  unsigned long long q = strtoull(quota, NULL, 10);
  return q ? (uint32_t)((q + period - 1) / period) : 0;
}

/* Appends "a" or "a-b" (after a comma unless first) to LIST; 0 if it fit. */
static int put_range(char *list, size_t n, size_t *len, int a, int b) {
  int w = a == b ? snprintf(list + *len, n - *len, "%s%d", *len ? "," : "", a)
                 : snprintf(list + *len, n - *len, "%s%d-%d", *len ? "," : "", a, b);
  if (w < 0 || (size_t)w >= n - *len) return -1;
  *len += (size_t)w;
  return 0;
}

uint32_t augur_cpu_info(uint32_t *quota, char *list, size_t n) {
  uint32_t count = 0;
  if (list && n) list[0] = '\0';
  for (int size = 1024; size <= (1 << 20) && !count; size *= 4) { /* CPUs the mask can hold */
    cpu_set_t *set = CPU_ALLOC((size_t)size);
    if (!set) break;
    size_t bytes = CPU_ALLOC_SIZE((size_t)size);
    if (sched_getaffinity(0, bytes, set) == 0) {
      count = (uint32_t)CPU_COUNT_S(bytes, set);
      size_t len = 0;
      for (int c = 0; list && n && c < size; c++) {
        if (!CPU_ISSET_S((size_t)c, bytes, set)) continue;
        int e = c;
        while (e + 1 < size && CPU_ISSET_S((size_t)(e + 1), bytes, set))
          e++;
        if (put_range(list, n, &len, c, e) != 0) { /* too long to say: unknown */
          list[0] = '\0';
          break;
        }
        c = e;
      }
    }
    CPU_FREE(set);
  }
  if (!count) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    count = c > 0 ? (uint32_t)c : 0;
  }
  if (quota) *quota = cgroup_quota();
  return count;
}

int augur_cpu_mask(uint64_t *words, size_t nwords) {
  memset(words, 0, nwords * sizeof *words);
  int size = (int)(nwords * 64);
  cpu_set_t *set = CPU_ALLOC((size_t)size);
  if (!set) return -1;
  size_t bytes = CPU_ALLOC_SIZE((size_t)size);
  int rc = sched_getaffinity(0, bytes, set) == 0 ? 0 : -1;
  for (int c = 0; rc == 0 && c < size; c++)
    if (CPU_ISSET_S((size_t)c, bytes, set)) words[c / 64] |= 1ull << (c % 64);
  CPU_FREE(set);
  return rc;
}

uint32_t augur_usable_cores(void) {
  uint32_t quota = 0, n = augur_cpu_info(&quota, NULL, 0);
  return quota && quota < n ? quota : n;
}
