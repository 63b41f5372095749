/* augur — reading and writing signature and signature-result files
 * (docs/signature.md). Plain libc: the recorder compiles this file too, so a
 * signature is parsed by the same code in `augur predict` and in every rank.
 *
 * Both formats are one item per line, words separated by blanks; '#' starts
 * a comment line. Readers check every count and range and fail with the
 * file, the line and what was expected: a signature that does not describe
 * the program must never be half-applied. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "augur/event.h"
#include "augur/signature.h"

#define MAX_WORDS 10
#define MAX_FILE  (256u << 20)
#define MAX_RANKS (1u << 20)
#define MAX_CALLS (1u << 20)

typedef struct lines {
  const char *path;
  char *buf;
  char *next; /* start of the next line */
  unsigned lineno;
  char *w[MAX_WORDS];
  int nw;
  augur_error *err;
} lines;

static int load(lines *L, const char *path, augur_error *err) {
  memset(L, 0, sizeof *L);
  L->path = path;
  L->err = err;
  FILE *f = fopen(path, "rb");
  if (!f) return augur_fail(err, AUGUR_E_IO, "%s: %s", path, strerror(errno));
  size_t cap = 4096, len = 0;
  char *b = malloc(cap + 1);
  while (b) {
    size_t n = fread(b + len, 1, cap - len, f);
    len += n;
    if (len < cap) break;
    if (cap >= MAX_FILE) {
      free(b);
      fclose(f);
      return augur_fail(err, AUGUR_E_FORMAT, "%s: larger than %u MiB: not a signature file", path,
                        MAX_FILE >> 20);
    }
    char *nb = realloc(b, cap * 2 + 1);
    if (!nb) {
      free(b);
      b = NULL;
      break;
    }
    b = nb;
    cap *= 2;
  }
  int rerr = ferror(f);
  fclose(f);
  if (!b) return augur_fail(err, AUGUR_E_NOMEM, "%s: out of memory", path);
  if (rerr) {
    free(b);
    return augur_fail(err, AUGUR_E_IO, "%s: read error", path);
  }
  b[len] = '\0';
  if (memchr(b, '\0', len)) {
    free(b);
    return augur_fail(err, AUGUR_E_FORMAT, "%s: binary data: not a text file", path);
  }
  L->buf = L->next = b;
  return AUGUR_OK;
}

/* Next non-empty, non-comment line split into words. 0 at end of file. */
static int next_line(lines *L) {
  while (L->next && *L->next) {
    char *s = L->next;
    char *nl = strchr(s, '\n');
    if (nl) {
      *nl = '\0';
      L->next = nl + 1;
    } else {
      L->next = NULL;
    }
    L->lineno++;
    L->nw = 0;
    char *p = s;
    for (;;) {
      while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
      if (!*p || *p == '#') break;
      if (L->nw == MAX_WORDS) {
        L->nw = MAX_WORDS + 1; /* too many words: the caller's count check fails */
        break;
      }
      L->w[L->nw++] = p;
      while (*p && *p != ' ' && *p != '\t' && *p != '\r')
        p++;
      if (*p) *p++ = '\0';
    }
    if (L->nw) return 1;
  }
  return 0;
}

static int bad(lines *L, const char *what) {
  return augur_fail(L->err, AUGUR_E_FORMAT, "%s:%u: expected %s", L->path, L->lineno, what);
}

/* Next line must be KEY followed by NARGS words. */
static int expect(lines *L, const char *key, int nargs, const char *what) {
  if (!next_line(L)) {
    L->lineno++;
    return augur_fail(L->err, AUGUR_E_TRUNCATED, "%s:%u: file ends, expected %s", L->path,
                      L->lineno, what);
  }
  if (strcmp(L->w[0], key) != 0 || L->nw != nargs + 1) return bad(L, what);
  return AUGUR_OK;
}

static int get_u64(lines *L, int i, uint64_t max, uint64_t *out, const char *what) {
  const char *s = L->w[i];
  char *end = NULL;
  if (*s == '-' || *s == '+') return bad(L, what);
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || !end || *end || end == s || v > max) return bad(L, what);
  *out = v;
  return AUGUR_OK;
}

static int get_u32(lines *L, int i, uint32_t max, uint32_t *out, const char *what) {
  uint64_t v;
  int rc = get_u64(L, i, max, &v, what);
  if (rc == AUGUR_OK) *out = (uint32_t)v;
  return rc;
}

static int get_double(lines *L, int i, double *out, const char *what) {
  const char *s = L->w[i];
  char *end = NULL;
  double v = strtod(s, &end);
  if (!end || *end || end == s || !(v >= 0 && v < 1e12)) return bad(L, what);
  *out = v;
  return AUGUR_OK;
}

static int get_i32(lines *L, int i, int32_t *out, const char *what) {
  const char *s = L->w[i];
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || !end || *end || end == s || v < INT32_MIN || v > INT32_MAX) return bad(L, what);
  *out = (int32_t)v;
  return AUGUR_OK;
}

/* Version 2 of both files: "mode global|irregular"; *IRREGULAR set. */
static int read_mode(lines *L, int *irregular) {
  int rc = expect(L, "mode", 1, "'mode global|irregular'");
  if (rc != AUGUR_OK) return rc;
  if (strcmp(L->w[1], "global") && strcmp(L->w[1], "irregular"))
    return bad(L, "'mode global|irregular'");
  *irregular = !strcmp(L->w[1], "irregular");
  return AUGUR_OK;
}

/* ---- signature ---- */

void augur_signature_free(augur_signature *s) {
  if (!s) return;
  for (uint32_t m = 0; m < s->nmodules; m++)
    free(s->module ? s->module[m] : NULL);
  free(s->module);
  for (uint32_t i = 0; i < s->nphases && s->phase; i++) {
    augur_sig_phase *p = &s->phase[i];
    for (uint32_t r = 0; r < s->nranks && p->calls; r++)
      free(p->calls[r]);
    free(p->calls);
    free(p->ncalls);
    free(p->rank_weight);
    free(p->rank_base);
    free(p->rank_start);
    free(p->rank_measure);
    for (uint32_t r = 0; r < s->nranks && p->rank_units; r++)
      free(p->rank_units[r]);
    for (uint32_t r = 0; r < s->nranks && p->rank_unit_base; r++)
      free(p->rank_unit_base[r]);
    free(p->rank_units);
    free(p->rank_unit_base);
    free(p->rank_first_unit);
    free(p->curve_rep);
    free(p->curve_seconds);
    free(p->curve_start);
  }
  free(s->phase);
  for (uint32_t i = 0; i < s->nguards && s->guard; i++) {
    for (uint32_t r = 0; r < s->nranks && s->guard[i].calls; r++)
      free(s->guard[i].calls[r]);
    free(s->guard[i].calls);
    free(s->guard[i].ncalls);
  }
  free(s->guard);
  free(s->program);
  free(s->build_id);
  free(s);
}

void augur_signature_module_name(const char *path, char *out, size_t n) {
  const char *b = strrchr(path, '/');
  snprintf(out, n, "%s", b ? b + 1 : path);
  for (char *c = out; *c; c++)
    if (*c == ' ' || *c == '\t' || *c == '#') *c = '_';
}

/* The GNU build id note of an ELF64 little-endian file (the only kind the
 * recorder runs on: x86-64 and aarch64 Linux), from its program headers. */
static int elf_build_id(FILE *f, char *hex, size_t n) {
  unsigned char eh[64];
  if (fread(eh, 1, sizeof eh, f) != sizeof eh || memcmp(eh, "\177ELF", 4) || eh[4] != 2 ||
      eh[5] != 1)
    return -1;
  uint64_t phoff;
  uint16_t phentsize, phnum;
  memcpy(&phoff, eh + 32, 8);
  memcpy(&phentsize, eh + 54, 2);
  memcpy(&phnum, eh + 56, 2);
  if (phentsize < 56 || phnum > 256) return -1;
  for (uint16_t i = 0; i < phnum; i++) {
    unsigned char ph[56];
    uint32_t type;
    uint64_t off, size;
    if (fseek(f, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET) ||
        fread(ph, 1, sizeof ph, f) != sizeof ph)
      return -1;
    memcpy(&type, ph, 4);
    memcpy(&off, ph + 8, 8);
    memcpy(&size, ph + 32, 8);
    if (type != 4 /* PT_NOTE */ || size > 65536) continue;
    unsigned char *note = malloc(size ? size : 1);
    if (!note || fseek(f, (long)off, SEEK_SET) || fread(note, 1, size, f) != size) {
      free(note);
      return -1;
    }
    int found = 0;
    for (uint64_t at = 0; at + 12 <= size && !found;) {
      uint32_t nsz, dsz, nt;
      memcpy(&nsz, note + at, 4);
      memcpy(&dsz, note + at + 4, 4);
      memcpy(&nt, note + at + 8, 4);
      uint64_t name = at + 12, desc = name + ((nsz + 3u) & ~3u);
      if (desc + dsz > size) break;
      if (nt == 3 /* NT_GNU_BUILD_ID */ && nsz == 4 && !memcmp(note + name, "GNU", 4) && dsz > 0 &&
          dsz * 2 < n) {
        for (uint32_t k = 0; k < dsz; k++)
          snprintf(hex + 2 * k, 3, "%02x", note[desc + k]);
        found = 1;
      }
      at = desc + ((dsz + 3u) & ~3u);
    }
    free(note);
    if (found) return 0;
  }
  return -1;
}

int augur_program_id(const char *path, char *name, size_t nname, char *build_id, size_t nbid) {
  augur_signature_module_name(path, name, nname);
  if (!*name || strlen(name) + 1 >= nname || nbid < 2) return -1;
  snprintf(build_id, nbid, "-");
  FILE *f = fopen(path, "rb");
  if (f) {
    if (elf_build_id(f, build_id, nbid) != 0) snprintf(build_id, nbid, "-");
    fclose(f);
  }
  return 0;
}

uint16_t augur_signature_module(const augur_signature *s, const char *basename) {
  for (uint32_t m = 0; m < s->nmodules; m++)
    if (!strcmp(s->module[m], basename)) return (uint16_t)(m + 1);
  return 0;
}

/* Version 5 call lines end with BYTES (a count or '*'). */
static int read_call(lines *L, const augur_signature *s, augur_sig_call *c, uint32_t version) {
  int rc;
  uint32_t v;
  if ((rc = version >= 5 ? expect(L, "call", 6, "'call TYPE PEER SIZE MODULE OFFSET BYTES'")
                         : expect(L, "call", 5, "'call TYPE PEER SIZE MODULE OFFSET'")) != AUGUR_OK)
    return rc;
  if ((rc = get_u32(L, 1, AUGUR_EV_MAX - 2, &v, "a call type number below 255")) != AUGUR_OK)
    return rc;
  if (v == AUGUR_EV_NONE || augur_event_is_sub(v)) return bad(L, "a call type (not a sub-record)");
  c->type = (uint8_t)v;
  if (!strcmp(L->w[2], "*"))
    c->peer = AUGUR_SIG_PEER_ANY;
  else if ((rc = get_i32(L, 2, &c->peer, "a peer offset or '*'")) != AUGUR_OK)
    return rc;
  if (!strcmp(L->w[3], "*"))
    c->size_class = AUGUR_SIG_SIZE_ANY;
  else if ((rc = get_u32(L, 3, 65, &v, "a size class 0..65 or '*'")) != AUGUR_OK)
    return rc;
  else
    c->size_class = (uint8_t)v;
  if ((rc = get_u32(L, 4, s->nmodules, &v, "a module index declared above (0 = unknown)")) !=
      AUGUR_OK)
    return rc;
  c->module = (uint16_t)v;
  uint64_t off;
  if ((rc = get_u64(L, 5, UINT64_MAX, &off, "a call-site offset")) != AUGUR_OK) return rc;
  c->offset = off;
  c->bytes = AUGUR_SIG_BYTES_ANY;
  if (version >= 5 && strcmp(L->w[6], "*") &&
      (rc = get_u64(L, 6, UINT64_MAX - 1, &c->bytes, "a byte count or '*'")) != AUGUR_OK)
    return rc;
  return AUGUR_OK;
}

static int read_rank_plan(lines *L, augur_sig_phase *p, uint32_t r, uint32_t ncalls);

/* A phase's (or a guard's) fingerprint: "rank R NCALLS" for every rank in
 * order (irregular phases: "rank R NCALLS WEIGHT BASE_SECONDS START MEASURE
 * FIRST_UNIT" and its plan, read_rank_plan()), each followed by its NCALLS
 * call lines. */
static int read_fingerprint(lines *L, const augur_signature *s, augur_sig_phase *p,
                            uint32_t version, int irregular) {
  int rc;
  uint64_t total = 0;
  for (uint32_t r = 0; r < s->nranks; r++) {
    uint32_t rank, n;
    rc = irregular ? expect(L, "rank", 7,
                            "'rank R NCALLS WEIGHT BASE_SECONDS START MEASURE FIRST_UNIT' (one "
                            "per rank, in order)")
                   : expect(L, "rank", 2, "'rank R NCALLS' (one per rank, in order)");
    if (rc != AUGUR_OK ||
        (rc = get_u32(L, 1, s->nranks - 1, &rank, "the next rank number")) != AUGUR_OK ||
        (rc = get_u32(L, 2, MAX_CALLS, &n, "a call count")) != AUGUR_OK)
      return rc;
    if (rank != r) return bad(L, "the next rank number (ranks in order from 0)");
    if (irregular && (rc = read_rank_plan(L, p, r, n)) != AUGUR_OK) return rc;
    p->ncalls[r] = n;
    total += n;
    if (!n) continue;
    p->calls[r] = calloc(n, sizeof *p->calls[r]);
    if (!p->calls[r]) return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
    for (uint32_t k = 0; k < n; k++)
      if ((rc = read_call(L, s, &p->calls[r][k], version)) != AUGUR_OK) return rc;
  }
  return total ? AUGUR_OK : bad(L, "a phase with at least one call on some rank");
}

/* Version 5, global mode: "guards N", then per guard "guard ID WEIGHT" and
 * its fingerprint (read_fingerprint()). */
static int read_guards(lines *L, augur_signature *s, uint32_t version) {
  int rc;
  uint32_t n;
  if ((rc = expect(L, "guards", 1, "'guards N' (phases not in the signature, matched too)")) !=
          AUGUR_OK ||
      (rc = get_u32(L, 1, 1u << 20, &n, "a guard count")) != AUGUR_OK)
    return rc;
  s->guard = calloc(n ? n : 1, sizeof *s->guard);
  if (!s->guard) return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    augur_sig_phase *g = &s->guard[i];
    s->nguards = i + 1;
    if ((rc = expect(L, "guard", 2, "'guard ID WEIGHT'")) != AUGUR_OK ||
        (rc = get_u32(L, 1, UINT32_MAX, &g->id, "a phase id")) != AUGUR_OK ||
        (rc = get_u64(L, 2, UINT64_MAX, &g->weight, "a weight >= 1")) != AUGUR_OK)
      return rc;
    if (!g->weight) return bad(L, "a weight >= 1");
    for (uint32_t j = 0; j < s->nphases; j++)
      if (s->phase[j].id == g->id) return bad(L, "a guard id that is no phase's");
    g->ncalls = calloc(s->nranks, sizeof *g->ncalls);
    g->calls = calloc(s->nranks, sizeof *g->calls);
    if (!g->ncalls || !g->calls) return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
    if ((rc = read_fingerprint(L, s, g, version, 0)) != AUGUR_OK) return rc;
  }
  return AUGUR_OK;
}

/* Irregular signatures: the rest of a rank line, "WEIGHT BASE START
 * MEASURE FIRST_UNIT" (a rank without calls has weight 0 and measures
 * nothing), then MEASURE lines "unit U BASE_SECONDS", U ascending after FIRST_UNIT. */
static int read_rank_plan(lines *L, augur_sig_phase *p, uint32_t r, uint32_t ncalls) {
  int rc;
  uint64_t w = 0;
  if ((rc = get_u64(L, 3, p->weight, &w, "a weight up to the phase's")) != AUGUR_OK ||
      (rc = get_double(L, 4, &p->rank_base[r], "a time in seconds")) != AUGUR_OK ||
      (rc = get_u32(L, 5, UINT32_MAX, &p->rank_start[r], "a start repetition")) != AUGUR_OK ||
      (rc = get_u32(L, 6, UINT32_MAX, &p->rank_measure[r], "a repetition count")) != AUGUR_OK ||
      (rc = get_u64(L, 7, UINT64_MAX - 1, &p->rank_first_unit[r], "a stretch number")) != AUGUR_OK)
    return rc;
  p->rank_weight[r] = w;
  if (!w != !ncalls) return bad(L, "WEIGHT 0 exactly when NCALLS is 0");
  if (!w) return p->rank_start[r] || p->rank_measure[r] ? bad(L, "START 0 MEASURE 0") : AUGUR_OK;
  if (p->rank_start[r] >= w) return bad(L, "START below WEIGHT");
  if (p->rank_measure[r] == 0 || p->rank_measure[r] > w - p->rank_start[r] ||
      p->rank_measure[r] > MAX_CALLS)
    return bad(L, "MEASURE from 1 to WEIGHT - START");
  p->rank_units[r] = calloc(p->rank_measure[r], sizeof *p->rank_units[r]);
  p->rank_unit_base[r] = calloc(p->rank_measure[r], sizeof *p->rank_unit_base[r]);
  if (!p->rank_units[r] || !p->rank_unit_base[r])
    return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
  uint64_t prev = p->rank_first_unit[r];
  for (uint32_t m = 0; m < p->rank_measure[r]; m++) {
    uint64_t *u = &p->rank_units[r][m];
    if ((rc = expect(L, "unit", 2, "'unit U BASE_SECONDS' (one per measured repetition)")) !=
            AUGUR_OK ||
        (rc = get_u64(L, 1, UINT64_MAX - 1, u, "a stretch number")) != AUGUR_OK ||
        (rc = get_double(L, 2, &p->rank_unit_base[r][m], "a time in seconds")) != AUGUR_OK)
      return rc;
    /* Repetition START + m comes after the first one (or is it, when START is 0). */
    if (*u < prev || (*u == prev && (m || p->rank_start[r])))
      return bad(L, "stretch numbers that grow from FIRST_UNIT");
    prev = *u;
  }
  return AUGUR_OK;
}

int augur_sig_phase_alloc(const augur_signature *s, augur_sig_phase *p) {
  size_t n = s->nranks;
  p->ncalls = calloc(n, sizeof *p->ncalls);
  p->calls = calloc(n, sizeof *p->calls);
  if (!p->ncalls || !p->calls) return -1;
  if (!s->irregular) return 0;
  p->rank_weight = calloc(n, sizeof *p->rank_weight);
  p->rank_base = calloc(n, sizeof *p->rank_base);
  p->rank_start = calloc(n, sizeof *p->rank_start);
  p->rank_measure = calloc(n, sizeof *p->rank_measure);
  p->rank_first_unit = calloc(n, sizeof *p->rank_first_unit);
  p->rank_units = calloc(n, sizeof *p->rank_units);
  p->rank_unit_base = calloc(n, sizeof *p->rank_unit_base);
  return p->rank_weight && p->rank_base && p->rank_start && p->rank_measure && p->rank_first_unit &&
                 p->rank_units && p->rank_unit_base
             ? 0
             : -1;
}

/* Version 4, global mode: after the phase line, "curve N" and N lines
 * "at REP SECONDS" (REP from 0, growing, the last WEIGHT; SECONDS not
 * decreasing, from 0); version 5: "at REP SECONDS START" (START not
 * decreasing). */
static int read_curve(lines *L, augur_sig_phase *p, uint32_t version) {
  int rc;
  uint32_t n;
  if ((rc = expect(L, "curve", 1, "'curve N' (points of the base run's time over repetitions)")) !=
          AUGUR_OK ||
      (rc = get_u32(L, 1, AUGUR_SIG_CURVE_MAX, &n, "a point count up to 65")) != AUGUR_OK)
    return rc;
  if (n == 1) return bad(L, "0 points, or from 2 (repetition 0 and WEIGHT)");
  if (!n) return AUGUR_OK;
  p->curve_rep = calloc(n, sizeof *p->curve_rep);
  p->curve_seconds = calloc(n, sizeof *p->curve_seconds);
  if (version >= 5) p->curve_start = calloc(n, sizeof *p->curve_start);
  if (!p->curve_rep || !p->curve_seconds || (version >= 5 && !p->curve_start))
    return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
  p->ncurve = n;
  for (uint32_t k = 0; k < n; k++) {
    if ((rc = version >= 5
                  ? expect(L, "at", 3, "'at REP SECONDS START' (one per curve point)")
                  : expect(L, "at", 2, "'at REP SECONDS' (one per curve point)")) != AUGUR_OK ||
        (rc = get_u64(L, 1, p->weight, &p->curve_rep[k], "a repetition up to WEIGHT")) !=
            AUGUR_OK ||
        (rc = get_double(L, 2, &p->curve_seconds[k], "a time in seconds")) != AUGUR_OK)
      return rc;
    if (version >= 5) {
      if ((rc = get_double(L, 3, &p->curve_start[k], "a time in seconds")) != AUGUR_OK) return rc;
      if (k && p->curve_start[k] < p->curve_start[k - 1]) return bad(L, "START not decreasing");
    }
    if (k ? p->curve_rep[k] <= p->curve_rep[k - 1] : p->curve_rep[k] != 0)
      return bad(L, "repetitions growing from 0");
    if (k ? p->curve_seconds[k] < p->curve_seconds[k - 1] : p->curve_seconds[k] != 0)
      return bad(L, "times not decreasing, from 0");
  }
  if (p->curve_rep[n - 1] != p->weight) return bad(L, "a last point at WEIGHT");
  return AUGUR_OK;
}

double augur_sig_base_left(const augur_sig_phase *p, uint64_t n) {
  if (n >= p->weight) return 0;
  if (p->ncurve < 2) return p->base_seconds * (double)(p->weight - n);
  uint32_t k = 1;
  while (p->curve_rep[k] < n)
    k++;
  /* n lies in [rep[k-1], rep[k]]: the time before it, interpolated. */
  uint64_t a = p->curve_rep[k - 1], b = p->curve_rep[k];
  double ta = p->curve_seconds[k - 1], tb = p->curve_seconds[k];
  double before = ta + (tb - ta) * (double)(n - a) / (double)(b - a);
  double left = p->curve_seconds[p->ncurve - 1] - before;
  return left > 0 ? left : 0;
}

/* VERSION 3 global-mode phase lines end with SAMPLE_SECONDS; version 4
 * adds the curve after them. */
static int read_phase(lines *L, augur_signature *s, augur_sig_phase *p, uint32_t version) {
  int rc;
  uint32_t v;
  int sample = version >= 3 && !s->irregular;
  const char *form = sample
                         ? "'phase ID WEIGHT BASE_SECONDS START MEASURE LATE SYNC SAMPLE_SECONDS'"
                         : "'phase ID WEIGHT BASE_SECONDS START MEASURE LATE SYNC'";
  if ((rc = expect(L, "phase", sample ? 8 : 7, form)) != AUGUR_OK) return rc;
  if ((rc = get_u32(L, 1, UINT32_MAX, &p->id, "a phase id")) != AUGUR_OK ||
      (rc = get_u64(L, 2, UINT64_MAX, &p->weight, "a weight >= 1")) != AUGUR_OK ||
      (rc = get_double(L, 3, &p->base_seconds, "a time in seconds")) != AUGUR_OK ||
      (rc = get_u32(L, 4, UINT32_MAX, &p->start, "a start repetition")) != AUGUR_OK ||
      (rc = get_u32(L, 5, UINT32_MAX, &p->measure, "a repetition count")) != AUGUR_OK)
    return rc;
  if (p->weight == 0) return bad(L, "a weight >= 1");
  if (p->start >= p->weight) return bad(L, "START below WEIGHT");
  if (p->measure == 0 || p->measure > p->weight - p->start)
    return bad(L, "MEASURE from 1 to WEIGHT - START");
  if ((rc = get_u32(L, 6, 1, &v, "LATE 0 or 1")) != AUGUR_OK) return rc;
  p->late = (int)v;
  if ((rc = get_u32(L, 7, 1, &v, "SYNC 0 or 1")) != AUGUR_OK) return rc;
  p->sync = (int)v;
  if (sample && (rc = get_double(L, 8, &p->sample_seconds, "a time in seconds")) != AUGUR_OK)
    return rc;
  if (version >= 4 && !s->irregular && (rc = read_curve(L, p, version)) != AUGUR_OK) return rc;
  if (augur_sig_phase_alloc(s, p)) return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
  return read_fingerprint(L, s, p, version, s->irregular);
}

int augur_signature_read(const char *path, augur_signature **out, augur_error *err) {
  *out = NULL;
  lines L;
  int rc = load(&L, path, err);
  if (rc) return rc;
  augur_signature *s = calloc(1, sizeof *s);
  if (!s) {
    free(L.buf);
    return augur_fail(err, AUGUR_E_NOMEM, "out of memory");
  }
  uint32_t v, n;
  if (!next_line(&L) || strcmp(L.w[0], "augur-signature") != 0 || L.nw != 2) {
    rc = augur_fail(err, AUGUR_E_FORMAT,
                    "%s: not an augur signature (first line must be "
                    "'augur-signature %d')",
                    path, AUGUR_SIGNATURE_VERSION);
    goto done;
  }
  if ((rc = get_u32(&L, 1, UINT32_MAX, &v, "a version number")) != AUGUR_OK) goto done;
  if (v < 1 || v > AUGUR_SIGNATURE_VERSION) {
    rc = augur_fail(err, AUGUR_E_VERSION,
                    "%s: signature version %u, this augur reads versions 1 to %d", path, v,
                    AUGUR_SIGNATURE_VERSION);
    goto done;
  }
  if ((rc = expect(&L, "ranks", 1, "'ranks N'")) != AUGUR_OK ||
      (rc = get_u32(&L, 1, MAX_RANKS, &s->nranks, "a rank count from 1")) != AUGUR_OK)
    goto done;
  if (!s->nranks) {
    rc = bad(&L, "a rank count from 1");
    goto done;
  }
  uint32_t version = v;
  if (v >= 2) { /* version 2: the phases' mode */
    if ((rc = read_mode(&L, &s->irregular)) != AUGUR_OK) goto done;
    if (s->irregular &&
        ((rc = expect(&L, "comm", 2, "'comm ID VOTE_FROM' (the characteristic communicator)")) !=
             AUGUR_OK ||
         (rc = get_u64(&L, 1, UINT64_MAX, &s->comm, "a communicator id")) != AUGUR_OK ||
         (rc = get_u64(&L, 2, UINT64_MAX, &s->vote_from, "a count")) != AUGUR_OK))
      goto done;
  }
  if (v >= 3) { /* version 3: the program */
    if ((rc = expect(&L, "program", 2, "'program NAME BUILD_ID' (BUILD_ID hex or '-')")) !=
        AUGUR_OK)
      goto done;
    const char *b = L.w[2];
    size_t nb = strspn(b, "0123456789abcdef");
    if (strcmp(b, "-") && (nb != strlen(b) || nb < 2 || nb > 128)) {
      rc = bad(&L, "a BUILD_ID of 2 to 128 hex digits, or '-'");
      goto done;
    }
    if ((strcmp(L.w[1], "-") && !(s->program = strdup(L.w[1]))) || !(s->build_id = strdup(b))) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
      goto done;
    }
  }
  if ((rc = expect(&L, "base", 3, "'base RUN_SECONDS PRE_SECONDS REST_SECONDS'")) != AUGUR_OK ||
      (rc = get_double(&L, 1, &s->base_run_seconds, "a time in seconds")) != AUGUR_OK ||
      (rc = get_double(&L, 2, &s->base_pre_seconds, "a time in seconds")) != AUGUR_OK ||
      (rc = get_double(&L, 3, &s->base_rest_seconds, "a time in seconds")) != AUGUR_OK)
    goto done;
  if ((rc = expect(&L, "modules", 1, "'modules N'")) != AUGUR_OK ||
      (rc = get_u32(&L, 1, 65535, &n, "a module count up to 65535")) != AUGUR_OK)
    goto done;
  s->module = calloc(n ? n : 1, sizeof *s->module);
  if (!s->module) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    goto done;
  }
  for (uint32_t m = 0; m < n; m++) {
    if ((rc = expect(&L, "module", 2, "'module INDEX NAME'")) != AUGUR_OK ||
        (rc = get_u32(&L, 1, n, &v, "the next module index")) != AUGUR_OK)
      goto done;
    if (v != m + 1) {
      rc = bad(&L, "the next module index (from 1, in order)");
      goto done;
    }
    if (!(s->module[m] = strdup(L.w[2]))) {
      rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
      goto done;
    }
    s->nmodules = m + 1;
  }
  if ((rc = expect(&L, "phases", 1, "'phases N'")) != AUGUR_OK ||
      (rc = get_u32(&L, 1, 1u << 20, &n, "a phase count")) != AUGUR_OK)
    goto done;
  s->phase = calloc(n ? n : 1, sizeof *s->phase);
  if (!s->phase) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    goto done;
  }
  int nsync = 0;
  for (uint32_t i = 0; i < n; i++) {
    s->nphases = i + 1;
    if ((rc = read_phase(&L, s, &s->phase[i], version)) != AUGUR_OK) goto done;
    nsync += s->phase[i].sync;
    if (s->phase[i].sync && s->phase[i].late) {
      rc = bad(&L, "a sync phase that is not late");
      goto done;
    }
    for (uint32_t j = 0; j < i; j++)
      if (s->phase[j].id == s->phase[i].id) {
        rc = bad(&L, "distinct phase ids");
        goto done;
      }
  }
  if (nsync > 1) {
    rc = augur_fail(err, AUGUR_E_FORMAT, "%s: %d sync phases, expected at most one", path, nsync);
    goto done;
  }
  if (version >= 5 && !s->irregular && (rc = read_guards(&L, s, version)) != AUGUR_OK) goto done;
  if (!next_line(&L) || strcmp(L.w[0], "end") != 0 || L.nw != 1) {
    rc = augur_fail(err, AUGUR_E_TRUNCATED, "%s:%u: expected 'end' after %u phases", path, L.lineno,
                    s->nphases);
    goto done;
  }
  if (next_line(&L)) {
    rc = bad(&L, "nothing after 'end'");
    goto done;
  }
  rc = AUGUR_OK;
done:
  free(L.buf);
  if (rc) {
    augur_signature_free(s);
    return rc;
  }
  *out = s;
  return AUGUR_OK;
}

/* Rank R's call lines of phase (or guard) P. */
static void write_calls(FILE *f, const augur_sig_phase *p, uint32_t r) {
  for (uint32_t k = 0; k < p->ncalls[r]; k++) {
    const augur_sig_call *c = &p->calls[r][k];
    char peer[16], size[8], bytes[24];
    if (c->peer == AUGUR_SIG_PEER_ANY)
      snprintf(peer, sizeof peer, "*");
    else
      snprintf(peer, sizeof peer, "%d", c->peer);
    if (c->size_class == AUGUR_SIG_SIZE_ANY)
      snprintf(size, sizeof size, "*");
    else
      snprintf(size, sizeof size, "%u", c->size_class);
    if (c->bytes == AUGUR_SIG_BYTES_ANY)
      snprintf(bytes, sizeof bytes, "*");
    else
      snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)c->bytes);
    fprintf(f, "call %u %s %s %u 0x%llx %s # %s\n", c->type, peer, size, c->module,
            (unsigned long long)c->offset, bytes, augur_event_name(c->type));
  }
}

int augur_signature_write(FILE *f, const augur_signature *s) {
  fprintf(f, "augur-signature %d\n", AUGUR_SIGNATURE_VERSION);
  fprintf(f, "# docs/signature.md; written by augur signature\n");
  fprintf(f, "ranks %u\n", s->nranks);
  if (!s->irregular) fprintf(f, "mode global\n");
  if (s->irregular)
    fprintf(f, "mode irregular\ncomm 0x%llx %llu\n", (unsigned long long)s->comm,
            (unsigned long long)s->vote_from);
  fprintf(f, "program %s %s\n", s->program ? s->program : "-", s->build_id ? s->build_id : "-");
  fprintf(f, "base %.9f %.9f %.9f\n", s->base_run_seconds, s->base_pre_seconds,
          s->base_rest_seconds);
  fprintf(f, "modules %u\n", s->nmodules);
  for (uint32_t m = 0; m < s->nmodules; m++)
    fprintf(f, "module %u %s\n", m + 1, s->module[m]);
  fprintf(f, "phases %u\n", s->nphases);
  for (uint32_t i = 0; i < s->nphases; i++) {
    const augur_sig_phase *p = &s->phase[i];
    fprintf(f, "phase %u %llu %.9f %u %u %d %d", p->id, (unsigned long long)p->weight,
            p->base_seconds, p->start, p->measure, p->late, p->sync);
    if (!s->irregular) fprintf(f, " %.9f", p->sample_seconds);
    fprintf(f, "\n");
    if (!s->irregular) fprintf(f, "curve %u\n", p->ncurve);
    for (uint32_t k = 0; k < p->ncurve && !s->irregular; k++)
      fprintf(f, "at %llu %.9f %.9f\n", (unsigned long long)p->curve_rep[k], p->curve_seconds[k],
              p->curve_start ? p->curve_start[k] : 0.0);
    for (uint32_t r = 0; r < s->nranks; r++) {
      if (s->irregular) {
        fprintf(f, "rank %u %u %llu %.9f %u %u %llu\n", r, p->ncalls[r],
                (unsigned long long)p->rank_weight[r], p->rank_base[r], p->rank_start[r],
                p->rank_measure[r], (unsigned long long)p->rank_first_unit[r]);
        for (uint32_t m = 0; m < p->rank_measure[r]; m++)
          fprintf(f, "unit %llu %.9f\n", (unsigned long long)p->rank_units[r][m],
                  p->rank_unit_base[r][m]);
      } else
        fprintf(f, "rank %u %u\n", r, p->ncalls[r]);
      write_calls(f, p, r);
    }
  }
  if (!s->irregular) fprintf(f, "guards %u\n", s->nguards);
  for (uint32_t i = 0; i < s->nguards && !s->irregular; i++) {
    const augur_sig_phase *g = &s->guard[i];
    fprintf(f, "guard %u %llu\n", g->id, (unsigned long long)g->weight);
    for (uint32_t r = 0; r < s->nranks; r++) {
      fprintf(f, "rank %u %u\n", r, g->ncalls[r]);
      write_calls(f, g, r);
    }
  }
  fprintf(f, "end\n");
  return ferror(f) ? AUGUR_E_IO : AUGUR_OK;
}

/* ---- results ---- */

static const char *const status_word[] = {"measured", "partial", "missing", "late"};

const char *augur_sigres_status_name(int status) {
  return status_word[status >= 0 && status <= 3 ? status : AUGUR_SIGRES_MISSING];
}

void augur_sigresult_free(augur_sigresult *r) {
  if (!r) return;
  for (uint32_t i = 0; i < r->nphases && r->phase; i++) {
    free(r->phase[i].rank_measured);
    free(r->phase[i].rank_seconds);
    free(r->phase[i].rank_base_seconds);
  }
  free(r->phase);
  free(r);
}

int augur_sigresult_write(FILE *f, const augur_sigresult *r) {
  fprintf(f, "augur-sigresult %d\n", AUGUR_SIGRESULT_VERSION);
  fprintf(f, "ranks %u\n", r->nranks);
  fprintf(f, "mode %s\n", r->irregular ? "irregular" : "global");
  fprintf(f, "stopped %d\n", r->stopped);
  fprintf(f, "pre %.9f\n", r->pre_seconds);
  fprintf(f, "run %.9f\n", r->run_seconds);
  fprintf(f, "phases %u\n", r->nphases);
  for (uint32_t i = 0; i < r->nphases; i++) {
    const augur_sigres_phase *p = &r->phase[i];
    fprintf(f, "phase %u %s %u %.9f %llu\n", p->id, augur_sigres_status_name(p->status),
            p->measured, p->seconds, (unsigned long long)(p->seen == UINT64_MAX ? 0 : p->seen));
    for (uint32_t k = 0; r->irregular && k < r->nranks; k++)
      fprintf(f, "rank %u %u %.9f %.9f\n", k, p->rank_measured[k], p->rank_seconds[k],
              p->rank_base_seconds[k]);
  }
  fprintf(f, "end\n");
  return ferror(f) ? AUGUR_E_IO : AUGUR_OK;
}

/* Irregular results: "rank R MEASURED SECONDS BASE_SECONDS" for every rank, in order. */
static int read_rank_results(lines *L, uint32_t nranks, augur_sigres_phase *p) {
  p->rank_measured = calloc(nranks, sizeof *p->rank_measured);
  p->rank_seconds = calloc(nranks, sizeof *p->rank_seconds);
  p->rank_base_seconds = calloc(nranks, sizeof *p->rank_base_seconds);
  if (!p->rank_measured || !p->rank_seconds || !p->rank_base_seconds)
    return augur_fail(L->err, AUGUR_E_NOMEM, "out of memory");
  for (uint32_t k = 0; k < nranks; k++) {
    uint32_t rank;
    int rc;
    if ((rc = expect(L, "rank", 4,
                     "'rank R MEASURED SECONDS BASE_SECONDS' (one per rank, in order)")) !=
            AUGUR_OK ||
        (rc = get_u32(L, 1, nranks - 1, &rank, "the next rank number")) != AUGUR_OK ||
        (rc = get_u32(L, 2, UINT32_MAX, &p->rank_measured[k], "a repetition count")) != AUGUR_OK ||
        (rc = get_double(L, 3, &p->rank_seconds[k], "a time in seconds")) != AUGUR_OK ||
        (rc = get_double(L, 4, &p->rank_base_seconds[k], "a time in seconds")) != AUGUR_OK)
      return rc;
    if (rank != k) return bad(L, "the next rank number (ranks in order from 0)");
  }
  return AUGUR_OK;
}

int augur_sigresult_read(const char *path, augur_sigresult **out, augur_error *err) {
  *out = NULL;
  lines L;
  int rc = load(&L, path, err);
  if (rc) return rc;
  augur_sigresult *r = calloc(1, sizeof *r);
  uint32_t v, n, version = 0;
  if (!r) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    goto done;
  }
  if (!next_line(&L) || strcmp(L.w[0], "augur-sigresult") != 0 || L.nw != 2 ||
      get_u32(&L, 1, UINT32_MAX, &v, "a version") != AUGUR_OK || v < 1 ||
      v > AUGUR_SIGRESULT_VERSION) {
    rc = augur_fail(err, AUGUR_E_FORMAT,
                    "%s: not an augur signature result (first line must be "
                    "'augur-sigresult %d')",
                    path, AUGUR_SIGRESULT_VERSION);
    goto done;
  }
  version = v;
  if ((rc = expect(&L, "ranks", 1, "'ranks N'")) != AUGUR_OK ||
      (rc = get_u32(&L, 1, MAX_RANKS, &r->nranks, "a rank count")) != AUGUR_OK)
    goto done;
  if (v >= 2 && (rc = read_mode(&L, &r->irregular)) != AUGUR_OK) goto done;
  if ((rc = expect(&L, "stopped", 1, "'stopped 0|1'")) != AUGUR_OK ||
      (rc = get_u32(&L, 1, 1, &v, "0 or 1")) != AUGUR_OK)
    goto done;
  r->stopped = (int)v;
  if ((rc = expect(&L, "pre", 1, "'pre SECONDS'")) != AUGUR_OK ||
      (rc = get_double(&L, 1, &r->pre_seconds, "a time in seconds")) != AUGUR_OK ||
      (rc = expect(&L, "run", 1, "'run SECONDS'")) != AUGUR_OK ||
      (rc = get_double(&L, 1, &r->run_seconds, "a time in seconds")) != AUGUR_OK ||
      (rc = expect(&L, "phases", 1, "'phases N'")) != AUGUR_OK ||
      (rc = get_u32(&L, 1, 1u << 20, &n, "a phase count")) != AUGUR_OK)
    goto done;
  r->phase = calloc(n ? n : 1, sizeof *r->phase);
  if (!r->phase) {
    rc = augur_fail(err, AUGUR_E_NOMEM, "out of memory");
    goto done;
  }
  for (uint32_t i = 0; i < n; i++) {
    augur_sigres_phase *p = &r->phase[i];
    /* Version 3: SEEN, the repetitions completed by the stop. */
    if ((rc = expect(&L, "phase", version >= 3 ? 5 : 4,
                     version >= 3 ? "'phase ID STATUS MEASURED SECONDS SEEN'"
                                  : "'phase ID STATUS MEASURED SECONDS'")) != AUGUR_OK ||
        (rc = get_u32(&L, 1, UINT32_MAX, &p->id, "a phase id")) != AUGUR_OK)
      goto done;
    p->status = -1;
    for (int k = 0; k < 4; k++)
      if (!strcmp(L.w[2], status_word[k])) p->status = k;
    if (p->status < 0) {
      rc = bad(&L, "a status: measured, partial, missing or late");
      goto done;
    }
    r->nphases = i + 1;
    if ((rc = get_u32(&L, 3, UINT32_MAX, &p->measured, "a repetition count")) != AUGUR_OK ||
        (rc = get_double(&L, 4, &p->seconds, "a time in seconds")) != AUGUR_OK)
      goto done;
    p->seen = UINT64_MAX;
    if (version >= 3 &&
        (rc = get_u64(&L, 5, UINT64_MAX - 1, &p->seen, "a repetition count")) != AUGUR_OK)
      goto done;
    if (r->irregular && (rc = read_rank_results(&L, r->nranks, p)) != AUGUR_OK) goto done;
  }
  if (!next_line(&L) || strcmp(L.w[0], "end") != 0) {
    rc = augur_fail(err, AUGUR_E_TRUNCATED,
                    "%s: no 'end' line: the signature run did not finish "
                    "writing its results",
                    path);
    goto done;
  }
  rc = AUGUR_OK;
done:
  free(L.buf);
  if (rc) {
    augur_sigresult_free(r);
    return rc;
  }
  *out = r;
  return AUGUR_OK;
}
