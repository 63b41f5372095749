/* augur SPANK plugin — the parts that need no SLURM (config, level, the
 * scratch directory, the job record), so they are unit-tested without a
 * cluster (tests/spank). spank_augur.c is only the glue to SPANK. */
#ifndef AUGUR_SPANK_INT_H
#define AUGUR_SPANK_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mon_record.h"

typedef struct augur_spank_conf {
  int level;            /* site default, 0..3 (0: off unless the job asks) */
  char collector[1024]; /* host:port[,host:port...]; empty: spool only */
  char key[4096];       /* HMAC key file (root only) */
  char spool[4096];     /* undelivered records */
  char scratch[4096];   /* node-local root of the per-step directories */
  char library[4096];   /* libaugur-profile*.so to preload, or the directory holding the
                           variants: chosen per task by the MPI it links */
  char cluster[64];     /* empty: SLURM_CLUSTER_NAME of the job, else "local" */
  int deadline_ms;      /* longest send at step end */
} augur_spank_conf;

/* Defaults, then the file's `name = value` lines (# comments). A missing
 * file is an error only when must_exist. 0, or -1 with why. */
int augur_spank_conf_load(augur_spank_conf *c, const char *path, int must_exist, char *why,
                          size_t whyn);

/* The level of a step: the --augur-level option (NULL: not given), else the
 * AUGUR_PROFILE_LEVEL the user exported (NULL: none), else the site's.
 * -1 when a given value is not 0..3 (why says). */
int augur_spank_level(const char *option, const char *env, int site, char *why, size_t whyn);

/* The library to preload into a task running ARGV (spank_lib.c): the
 * configured file, or in the configured directory the variant for the MPI
 * the executable links (a bare command name is looked up in the calling
 * process's PATH), libaugur-profile.so without MPI. 0, or -1 with why. */
int augur_spank_library(const augur_spank_conf *c, char *const *argv, int argc, char *out, size_t n,
                        char *why, size_t whyn);
/* 1 if the configured library is a directory (chosen per task). */
int augur_spank_library_is_dir(const augur_spank_conf *c);

/* Creates ROOT/augur-JOB.STEP (mode 700) or accepts it if it is already a
 * directory of this user (not a link). 0, or -1 with why. */
int augur_spank_scratch(const char *root, uint32_t job, const char *step, char *out, size_t n,
                        char *why, size_t whyn);

/* Sends the record header + procs to the collectors or spools it, then
 * drains the spool if a collector answered. 0 sent, 1 spooled, 2 invalid
 * (set aside in the spool), -1 lost. */
int augur_spank_send(const augur_spank_conf *c, const augp_job *job, const augp_proc *procs,
                     uint64_t n, char *why, size_t whyn);

#endif
