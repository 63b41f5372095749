/* The SLURM-free parts of spank_augur.so: the site config, the level of a
 * step, the scratch directory (and what root refuses to read in it), the
 * records collected from it, and spooling when no collector answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mon.h"
#include "spank_int.h"

static char tmp[256];

static void path(char *out, size_t n, const char *name) {
  snprintf(out, n, "%s/%s", tmp, name);
}

static void write_file(const char *p, const char *text) {
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int setup(void **state) {
  (void)state;
  snprintf(tmp, sizeof tmp, "%s/augur-spank-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  return system(cmd) == 0 ? 0 : -1;
}

static void conf_valid(void **state) {
  (void)state;
  char p[300], why[600];
  path(p, sizeof p, "ok.conf");
  write_file(p, "# site\nlevel = 2\ncollector = a:1,b:2  # two\nkey=/etc/augur/key\n"
                "spool = /var/spool/x\nscratch = /scratch\nlibrary = /opt/lib/libaugur-profile.so\n"
                "cluster = marenostrum\ndeadline_ms = 500\n\n");
  augur_spank_conf c;
  assert_int_equal(augur_spank_conf_load(&c, p, 1, why, sizeof why), 0);
  assert_int_equal(c.level, 2);
  assert_string_equal(c.collector, "a:1,b:2");
  assert_string_equal(c.key, "/etc/augur/key");
  assert_string_equal(c.spool, "/var/spool/x");
  assert_string_equal(c.scratch, "/scratch");
  assert_string_equal(c.library, "/opt/lib/libaugur-profile.so");
  assert_string_equal(c.cluster, "marenostrum");
  assert_int_equal(c.deadline_ms, 500);
}

static void conf_defaults_and_errors(void **state) {
  (void)state;
  char p[300], why[600];
  augur_spank_conf c;
  path(p, sizeof p, "missing.conf");
  assert_int_equal(augur_spank_conf_load(&c, p, 0, why, sizeof why), 0);
  assert_int_equal(c.level, 0); /* off unless the site or the job asks */
  assert_int_equal(c.deadline_ms, 10000);
  assert_int_equal(augur_spank_conf_load(&c, p, 1, why, sizeof why), -1);
  static const char *const bad[] = {"level = 4\n",       "level = two\n",   "colour = red\n",
                                    "just words\n",      "scratch = rel\n", "deadline_ms = 0\n",
                                    "collector = h:1\n", "library = x.so\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    path(p, sizeof p, "bad.conf");
    write_file(p, bad[i]);
    why[0] = '\0';
    assert_int_equal(augur_spank_conf_load(&c, p, 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "bad.conf")); /* the message names the file */
  }
}

static void level_order(void **state) {
  (void)state;
  char why[200];
  assert_int_equal(augur_spank_level("3", "1", 2, why, sizeof why), 3);   /* option first */
  assert_int_equal(augur_spank_level(NULL, "1", 2, why, sizeof why), 1);  /* then the job's env */
  assert_int_equal(augur_spank_level(NULL, NULL, 2, why, sizeof why), 2); /* then the site */
  assert_int_equal(augur_spank_level(NULL, "", 0, why, sizeof why), 0);
  assert_int_equal(augur_spank_level("0", NULL, 3, why, sizeof why), 0); /* a job may opt out */
  assert_int_equal(augur_spank_level("4", NULL, 0, why, sizeof why), -1);
  assert_int_equal(augur_spank_level(NULL, "x", 0, why, sizeof why), -1);
  assert_non_null(strstr(why, "AUGUR_PROFILE_LEVEL"));
}

static augp_proc proc(int64_t rank, uint64_t start, uint64_t pid) {
  augp_proc p;
  memset(&p, 0, sizeof p);
  snprintf(p.host, sizeof p.host, "node1");
  snprintf(p.program, sizeof p.program, "/bin/app");
  p.rank = rank;
  p.nranks = rank >= 0 ? 2 : -1;
  p.start_ns = start;
  p.end_ns = start + 10;
  p.pid = pid;
  return p;
}

static void scratch_and_collect(void **state) {
  (void)state;
  char dir[4200], why[600], p[4300];
  assert_int_equal(augur_spank_scratch(tmp, 42, "0", dir, sizeof dir, why, sizeof why), 0);
  assert_non_null(strstr(dir, "augur-42.0"));
  struct stat st;
  assert_int_equal(stat(dir, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0700);
  /* Again (a second user_init on the node): accepted. */
  assert_int_equal(augur_spank_scratch(tmp, 42, "0", dir, sizeof dir, why, sizeof why), 0);

  /* Rank 1 and rank 0 gathered in one file, a non-MPI process in another. */
  augp_proc two[2] = {proc(1, 5, 11), proc(0, 6, 10)};
  snprintf(p, sizeof p, "%s/ranks.rec", dir);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  fwrite(two, sizeof two[0], 2, f);
  fclose(f);
  augp_proc one = proc(-1, 1, 9);
  memset(one.program, 'x', sizeof one.program); /* unterminated: must be cut */
  snprintf(p, sizeof p, "%s/other.rec", dir);
  f = fopen(p, "wb");
  fwrite(&one, sizeof one, 1, f);
  fclose(f);
  /* Not records: a torn write, a link to a record file elsewhere, a .tmp. */
  snprintf(p, sizeof p, "%s/torn.rec", dir);
  write_file(p, "short");
  char outside[300];
  path(outside, sizeof outside, "outside.rec");
  f = fopen(outside, "wb");
  fwrite(&one, sizeof one, 1, f);
  fclose(f);
  snprintf(p, sizeof p, "%s/link.rec", dir);
  assert_int_equal(symlink(outside, p), 0);
  snprintf(p, sizeof p, "%s/x.tmp", dir);
  write_file(p, "partial");

  augp_proc *procs = NULL;
  uint64_t n = 0;
  assert_int_equal(mon_records_collect(dir, getuid(), &procs, &n, why, sizeof why), 0);
  assert_int_equal(n, 3);
  assert_int_equal(procs[0].rank, 0); /* ranks first, in rank order */
  assert_int_equal(procs[1].rank, 1);
  assert_int_equal(procs[2].rank, -1);
  assert_int_equal(procs[2].program[sizeof procs[2].program - 1], 0);
  free(procs);
  /* Owned by someone else: refused. */
  assert_int_equal(mon_records_collect(dir, getuid() + 1, &procs, &n, why, sizeof why), -1);
  mon_dir_remove(dir);
  assert_int_equal(lstat(dir, &st), -1);
  assert_int_equal(stat(outside, &st), 0); /* the link's target is untouched */

  /* A link where the directory should be: refused, not followed. */
  snprintf(p, sizeof p, "%s/augur-43.0", tmp);
  assert_int_equal(symlink("/", p), 0);
  assert_int_equal(augur_spank_scratch(tmp, 43, "0", dir, sizeof dir, why, sizeof why), -1);
  assert_int_equal(mon_records_collect(p, getuid(), &procs, &n, why, sizeof why), -1);
}

static void spool_without_collector(void **state) {
  (void)state;
  augur_spank_conf c;
  char why[600];
  path(why, sizeof why, "none.conf");
  assert_int_equal(augur_spank_conf_load(&c, why, 0, why, sizeof why), 0);
  path(c.spool, sizeof c.spool, "spool");
  c.deadline_ms = 200;
  augp_job j;
  memset(&j, 0, sizeof j);
  j.uid[0] = 7;
  snprintf(j.job_id, sizeof j.job_id, "42");
  snprintf(j.step, sizeof j.step, "0");
  snprintf(j.cluster, sizeof j.cluster, "test");
  j.level = 1;
  j.nprocs = 1;
  j.start_ns = 1;
  j.end_ns = 2;
  augp_proc p = proc(-1, 1, 9);
  assert_int_equal(augur_spank_send(&c, &j, &p, 1, why, sizeof why), 1);
  char f[4300];
  snprintf(f, sizeof f, "%s/07000000000000000000000000000000.rec", c.spool);
  struct stat st;
  assert_int_equal(stat(f, &st), 0);
  /* A frame signed with the spool's own key. */
  assert_int_equal((size_t)st.st_size, MON_HDR + sizeof j + sizeof p + MON_MAC);

  /* An invalid record (here: no job id) is not spooled to be sent again and
   * again: it is set aside as .rejected (docs/monitoring.md). */
  j.uid[0] = 8;
  j.job_id[0] = 0;
  assert_int_equal(augur_spank_send(&c, &j, &p, 1, why, sizeof why), 2);
  assert_non_null(strstr(why, "empty job id"));
  snprintf(f, sizeof f, "%s/08000000000000000000000000000000.rec", c.spool);
  assert_int_equal(stat(f, &st), -1);
  snprintf(f, sizeof f, "%s/08000000000000000000000000000000.rec.rejected", c.spool);
  assert_int_equal(stat(f, &st), 0);
}

/* The library per task: the configured file as it is; from a directory of
 * variants the plain one for a program without MPI; a missing file is
 * refused (the task then runs unprofiled). The MPI variant chosen for an
 * MPICH program is checked in the real SLURM (slurm.sh). */
static void library_choice(void **state) {
  (void)state;
  augur_spank_conf c;
  char why[600], lib[4400], dir[300];
  memset(&c, 0, sizeof c);
  path(dir, sizeof dir, "libs");
  assert_int_equal(mkdir(dir, 0755), 0);
  snprintf(c.library, sizeof c.library, "%s", dir);
  char *argv[] = {"/bin/true", "x"};
  assert_int_equal(augur_spank_library_is_dir(&c), 1);
  assert_int_equal(augur_spank_library(&c, argv, 2, lib, sizeof lib, why, sizeof why), -1);
  assert_non_null(strstr(why, "libaugur-profile.so is missing"));
  char f[400];
  snprintf(f, sizeof f, "%s/libaugur-profile.so", dir);
  write_file(f, "");
  assert_int_equal(augur_spank_library(&c, argv, 2, lib, sizeof lib, why, sizeof why), 0);
  assert_string_equal(lib, f);
  snprintf(c.library, sizeof c.library, "%s", f);
  assert_int_equal(augur_spank_library_is_dir(&c), 0);
  assert_int_equal(augur_spank_library(&c, argv, 2, lib, sizeof lib, why, sizeof why), 0);
  assert_string_equal(lib, f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(conf_valid),
      cmocka_unit_test(conf_defaults_and_errors),
      cmocka_unit_test(level_order),
      cmocka_unit_test(scratch_and_collect),
      cmocka_unit_test(spool_without_collector),
      cmocka_unit_test(library_choice),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
