/* MPI flavour detection from ELF dynamic dependencies.
 *
 * Launchers must not decide: mpiexec.hydra (MPICH) links hwloc/slurm only,
 * orterun (Open MPI) links libopen-rte/libopen-pal but not libmpi, so only
 * libmpich* (MPICH) and libmpi.so.* whose own dependencies are Open MPI's
 * runtime (or soname major 40) count. */
#include "mpi_flavour.h"

#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LIBS 512 /* bound on the dependency walk: real programs need < 100 */
#define MAX_DIRS 64

static const char *std_dirs[] = {
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu/openmpi/lib",
    "/usr/lib/x86_64-linux-gnu/mpich/lib",
    "/usr/local/lib",
    "/usr/local/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
};

const char *mpi_flavour_name(int f) {
  return f == MPI_FLAVOUR_MPICH ? "mpich" : f == MPI_FLAVOUR_OPENMPI ? "openmpi" : NULL;
}

const char *mpi_flavour_title(int f) {
  return f == MPI_FLAVOUR_MPICH ? "MPICH" : f == MPI_FLAVOUR_OPENMPI ? "Open MPI" : "no MPI";
}

int mpi_flavour_parse(const char *s) {
  if (!strcmp(s, "mpich")) return MPI_FLAVOUR_MPICH;
  if (!strcmp(s, "openmpi") || !strcmp(s, "ompi") || !strcmp(s, "open-mpi"))
    return MPI_FLAVOUR_OPENMPI;
  return -1;
}

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *mpi_flavour_which(const char *word) {
  if (!word || !*word) return NULL;
  if (strchr(word, '/')) return is_file(word) ? strdup(word) : NULL;
  const char *path = getenv("PATH");
  if (!path) path = "/usr/local/bin:/usr/bin:/bin";
  char buf[4096];
  for (const char *p = path; *p;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == 0)
      snprintf(buf, sizeof buf, "./%s", word); /* empty PATH entry = cwd */
    else
      snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, word);
    if (is_file(buf) && access(buf, X_OK) == 0) return strdup(buf);
    if (!e) break;
    p = e + 1;
  }
  return NULL;
}

/* What one ELF object tells us. */
typedef struct elf_facts {
  int is_exe; /* ET_EXEC, or ET_DYN with a PT_INTERP (PIE) */
  int needed_n;
  char *needed[128];
  int dirs_n;
  char *dirs[16]; /* DT_RPATH / DT_RUNPATH entries, $ORIGIN expanded */
} elf_facts;

static void facts_free(elf_facts *f) {
  for (int i = 0; i < f->needed_n; i++)
    free(f->needed[i]);
  for (int i = 0; i < f->dirs_n; i++)
    free(f->dirs[i]);
  memset(f, 0, sizeof *f);
}

static void add_search_path(elf_facts *f, const char *list, const char *origin) {
  char *copy = strdup(list), *save = NULL;
  if (!copy) return;
  for (char *d = strtok_r(copy, ":", &save); d && f->dirs_n < 16; d = strtok_r(NULL, ":", &save)) {
    char buf[4096];
    if (!strncmp(d, "$ORIGIN", 7))
      snprintf(buf, sizeof buf, "%s%s", origin, d + 7);
    else if (!strncmp(d, "${ORIGIN}", 9))
      snprintf(buf, sizeof buf, "%s%s", origin, d + 9);
    else
      snprintf(buf, sizeof buf, "%s", d);
    f->dirs[f->dirs_n++] = strdup(buf);
  }
  free(copy);
}

/* Reads the dynamic section. Returns 0, or -1 if not a 64-bit ELF. */
static int read_facts(const char *path, elf_facts *f) {
  memset(f, 0, sizeof *f);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  int rc = -1;
  GElf_Ehdr eh;
  if (!e || elf_kind(e) != ELF_K_ELF || gelf_getclass(e) != ELFCLASS64 || !gelf_getehdr(e, &eh))
    goto out;
  rc = 0;
  size_t nph = 0;
  int interp = 0;
  if (elf_getphdrnum(e, &nph) == 0)
    for (size_t i = 0; i < nph; i++) {
      GElf_Phdr ph;
      if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP) interp = 1;
    }
  f->is_exe = eh.e_type == ET_EXEC || (eh.e_type == ET_DYN && interp);

  char origin[4096];
  snprintf(origin, sizeof origin, "%s", path);
  char *slash = strrchr(origin, '/');
  if (slash)
    *slash = 0;
  else
    snprintf(origin, sizeof origin, ".");

  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(e, scn)) != NULL) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC) continue;
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || !sh.sh_entsize) continue;
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; i++) {
      GElf_Dyn dyn;
      if (!gelf_getdyn(data, (int)i, &dyn)) break;
      if (dyn.d_tag == DT_NULL) break;
      if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH) continue;
      const char *s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
      if (!s) continue;
      if (dyn.d_tag == DT_NEEDED) {
        if (f->needed_n < 128) f->needed[f->needed_n++] = strdup(s);
      } else {
        add_search_path(f, s, origin);
      }
    }
  }
out:
  if (e) elf_end(e);
  close(fd);
  return rc;
}

typedef struct walk {
  int nlibs;
  char *seen[MAX_LIBS]; /* sonames already queued */
  int ndirs;
  char *dirs[MAX_DIRS]; /* rpaths met so far, then LD_LIBRARY_PATH */
} walk;

static int seen(walk *w, const char *name) {
  for (int i = 0; i < w->nlibs; i++)
    if (!strcmp(w->seen[i], name)) return 1;
  return 0;
}

static void add_dir(walk *w, const char *d) {
  for (int i = 0; i < w->ndirs; i++)
    if (!strcmp(w->dirs[i], d)) return;
  if (w->ndirs < MAX_DIRS) w->dirs[w->ndirs++] = strdup(d);
}

/* LD_LIBRARY_PATH's directories, after those W has. */
static void add_env_dirs(walk *w) {
  const char *llp = getenv("LD_LIBRARY_PATH");
  if (!llp) return;
  elf_facts tmp = {0};
  add_search_path(&tmp, llp, ".");
  for (int i = 0; i < tmp.dirs_n; i++)
    add_dir(w, tmp.dirs[i]);
  facts_free(&tmp);
}

static int find_lib(const walk *w, const char *name, char *out, size_t n) {
  if (strchr(name, '/')) {
    snprintf(out, n, "%s", name);
    return is_file(out);
  }
  for (int i = 0; i < w->ndirs; i++) {
    snprintf(out, n, "%s/%s", w->dirs[i], name);
    if (is_file(out)) return 1;
  }
  for (size_t i = 0; i < sizeof std_dirs / sizeof std_dirs[0]; i++) {
    snprintf(out, n, "%s/%s", std_dirs[i], name);
    if (is_file(out)) return 1;
  }
  return 0;
}

/* Flavour named by one DT_NEEDED entry, given the library's own facts (may
 * be NULL if it could not be found). */
static int flavour_of_lib(const char *name, const elf_facts *lib) {
  if (!strncmp(name, "libmpich", 8)) return MPI_FLAVOUR_MPICH;
  if (strncmp(name, "libmpi.so", 9)) return MPI_FLAVOUR_NONE;
  if (lib)
    for (int i = 0; i < lib->needed_n; i++)
      if (!strncmp(lib->needed[i], "libopen-pal", 11) ||
          !strncmp(lib->needed[i], "libopen-rte", 11))
        return MPI_FLAVOUR_OPENMPI;
  if (!strncmp(name, "libmpi.so.40", 12)) return MPI_FLAVOUR_OPENMPI;
  return MPI_FLAVOUR_NONE; /* e.g. another vendor's libmpi: its deps may still tell */
}

/* A library decides (returns nonzero) or not (0), by its DT_NEEDED name
 * and its own facts (NULL if it could not be found). */
typedef int (*lib_decide)(const char *name, const elf_facts *lib);

/* Walks the DT_NEEDED closure of the ELF executable at PATH breadth-first
 * until DECIDE says something. Returns that value (0 if no library decides),
 * or -1 if PATH is not a 64-bit ELF executable; LIB gets the deciding name. */
static int walk_needed(const char *path, lib_decide decide, char *lib, size_t libn) {
  if (elf_version(EV_CURRENT) == EV_NONE) return -1;
  elf_facts f;
  if (read_facts(path, &f) < 0) return -1;
  if (!f.is_exe) {
    facts_free(&f);
    return -1;
  }
  walk w = {0};
  for (int i = 0; i < f.dirs_n; i++)
    add_dir(&w, f.dirs[i]);
  add_env_dirs(&w);
  /* Breadth-first over sonames: queue = w.seen, head walks it. */
  for (int i = 0; i < f.needed_n; i++)
    if (!seen(&w, f.needed[i]) && w.nlibs < MAX_LIBS) w.seen[w.nlibs++] = strdup(f.needed[i]);
  facts_free(&f);
  int result = 0;
  for (int head = 0; head < w.nlibs && result == 0; head++) {
    const char *name = w.seen[head];
    char p[4096];
    elf_facts lf;
    int have = find_lib(&w, name, p, sizeof p) && read_facts(p, &lf) == 0;
    result = decide(name, have ? &lf : NULL);
    if (result != 0) {
      if (lib) snprintf(lib, libn, "%s", name);
    } else if (have) {
      for (int i = 0; i < lf.dirs_n; i++)
        add_dir(&w, lf.dirs[i]);
      for (int i = 0; i < lf.needed_n; i++)
        if (!seen(&w, lf.needed[i]) && w.nlibs < MAX_LIBS) w.seen[w.nlibs++] = strdup(lf.needed[i]);
    }
    if (have) facts_free(&lf);
  }
  for (int i = 0; i < w.nlibs; i++)
    free(w.seen[i]);
  for (int i = 0; i < w.ndirs; i++)
    free(w.dirs[i]);
  return result;
}

int mpi_flavour_of_exe(const char *path, char *lib, size_t libn) {
  return walk_needed(path, flavour_of_lib, lib, libn);
}

/* libomp (LLVM; Intel's libiomp5 is the same runtime) or libgomp (GCC). */
static int omp_of_lib(const char *name, const elf_facts *lib) {
  (void)lib;
  if (!strncmp(name, "libomp.so", 9) || !strncmp(name, "libiomp5.so", 11)) return OMP_RUNTIME_LLVM;
  if (!strncmp(name, "libgomp.so", 10)) return OMP_RUNTIME_GNU;
  return OMP_RUNTIME_NONE;
}

int omp_runtime_of_exe(const char *path, char *lib, size_t libn) {
  return walk_needed(path, omp_of_lib, lib, libn);
}

int omp_find_libomp(char *out, size_t n) {
  walk w = {0};
  add_env_dirs(&w);
  int found = find_lib(&w, "libomp.so.5", out, n);
  for (int i = 0; i < w.ndirs; i++)
    free(w.dirs[i]);
  if (found) return 0;
  /* LLVM's own directories, the newest version first */
  glob_t g;
  int rc = -1;
  if (glob("/usr/lib/llvm-*/lib/libomp.so.5", 0, NULL, &g) == 0) {
    long best = -1;
    for (size_t i = 0; i < g.gl_pathc; i++) {
      long v = strtol(g.gl_pathv[i] + strlen("/usr/lib/llvm-"), NULL, 10);
      if (v > best && is_file(g.gl_pathv[i]) && (size_t)snprintf(out, n, "%s", g.gl_pathv[i]) < n) {
        best = v;
        rc = 0;
      }
    }
    globfree(&g);
  }
  return rc;
}

int mpi_flavour_detect(char *const *argv, int argc, int *app, char *why, size_t whyn) {
  *app = -1;
  int first_exe = -1;
  for (int i = 0; i < argc; i++) {
    char *p = mpi_flavour_which(argv[i]);
    if (!p) continue;
    char lib[256] = "";
    int fl = mpi_flavour_of_exe(p, lib, sizeof lib);
    if (fl > MPI_FLAVOUR_NONE) {
      *app = i;
      snprintf(why, whyn, "%s links %s (%s)", p, lib, mpi_flavour_title(fl));
      free(p);
      return fl;
    }
    if (fl == MPI_FLAVOUR_NONE && first_exe < 0) first_exe = i;
    free(p);
  }
  if (first_exe >= 0)
    snprintf(why, whyn, "no program in the command links an MPI library (%s does not)",
             argv[first_exe]);
  else
    snprintf(why, whyn, "no ELF executable found in the command (script or missing file?)");
  return MPI_FLAVOUR_NONE;
}
