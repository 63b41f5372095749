/* augur — call site -> function, file:line with elfutils libdw (dwfl in
 * offline mode: the module ELF is reported by path, no process needed). */
#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader_int.h"

typedef struct mod_ctx {
  int tried;
  Dwfl *dwfl;
  Dwfl_Module *mod;
  GElf_Addr bias;            /* where dwfl placed the module */
  uint64_t exec_base;        /* ET_EXEC: page-aligned vaddr of the first PT_LOAD */
  uint64_t exec_lo, exec_hi; /* ET_EXEC: vaddr span of the PT_LOAD segments */
} mod_ctx;

struct aug_resolver {
  mod_ctx *mods;     /* by global module id - 1 */
  augur_srcloc *loc; /* by global call-site id - 1 */
  uint8_t *done;
  size_t nmods, nsites;
};

static char *debuginfo_path = NULL;
static const Dwfl_Callbacks offline_callbacks = {
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

static void open_module(mod_ctx *m, const char *path) {
  m->tried = 1;
  m->dwfl = dwfl_begin(&offline_callbacks);
  if (!m->dwfl) return;
  dwfl_report_begin(m->dwfl);
  m->mod = dwfl_report_offline(m->dwfl, path, path, -1);
  dwfl_report_end(m->dwfl, NULL, NULL);
  if (!m->mod) return;
  Elf *elf = dwfl_module_getelf(m->mod, &m->bias);
  GElf_Ehdr eh;
  if (!elf || !gelf_getehdr(elf, &eh)) {
    m->mod = NULL;
    return;
  }
  /* For a PIE or shared object the stored offset (return address - load
   * bias) is the ELF address. A fixed-address executable has bias 0, so the
   * offset is either already its ELF address (dl_iterate_phdr's dlpi_addr
   * was used) or relative to the mapping start (dladdr's dli_fbase): then
   * the first PT_LOAD's page-aligned address must be added back. */
  if (eh.e_type == ET_EXEC) {
    size_t n = 0;
    if (elf_getphdrnum(elf, &n) == 0) {
      for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
        if (!m->exec_base) {
          m->exec_base = ph.p_vaddr & ~(uint64_t)4095;
          m->exec_lo = ph.p_vaddr;
        }
        if (ph.p_vaddr + ph.p_memsz > m->exec_hi) m->exec_hi = ph.p_vaddr + ph.p_memsz;
      }
    }
  }
}

/* The compile unit holding ADDR (*BIAS: its module's DWARF bias), or NULL.
 * libdw looks it up in .debug_aranges, which clang does not write by
 * default: without it, each CU's own address ranges are tried in turn. */
static Dwarf_Die *cu_of(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *bias) {
  Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);
  for (Dwarf_Die *c = NULL; !cu && (c = dwfl_module_nextcu(mod, c, bias));)
    if (dwarf_haspc(c, addr - *bias) > 0) cu = c;
  return cu;
}

/* Name of the innermost function of CU around PC (CU-relative), inlined
 * ones included, so the function matches the file:line the line table gives
 * (which is the inlined code's). NULL without one. */
static const char *innermost_function(Dwarf_Die *cu, Dwarf_Addr pc) {
  Dwarf_Die *scopes = NULL;
  int n = dwarf_getscopes(cu, pc, &scopes);
  const char *name = NULL;
  for (int i = 0; i < n && !name; i++) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
      name = dwarf_diename(&scopes[i]);
  }
  free(scopes);
  return name;
}

/* ---- Fortran statements spanning lines ----
 * gfortran gives a CALL continued over several lines one line-table row, at
 * its last line; the lines before it have no row at all, so the table alone
 * cannot say where the statement starts. People look for the CALL on its
 * first line: with the source at hand, step back over continuation lines. */

/* 1 free form (.f90 and later), 2 fixed form (.f, .for, .ftn, .f77), 0 not
 * Fortran; case-insensitive (.F90 is preprocessed free form). */
static int fortran_form(const char *file) {
  const char *dot = strrchr(file, '.');
  if (!dot || strchr(dot, '/')) return 0;
  char ext[8];
  size_t n = strlen(dot + 1);
  if (n == 0 || n >= sizeof ext) return 0;
  for (size_t i = 0; i <= n; i++)
    ext[i] = (char)tolower((unsigned char)dot[1 + i]);
  if (!strcmp(ext, "f90") || !strcmp(ext, "f95") || !strcmp(ext, "f03") || !strcmp(ext, "f08"))
    return 1;
  if (!strcmp(ext, "f") || !strcmp(ext, "for") || !strcmp(ext, "ftn") || !strcmp(ext, "f77"))
    return 2;
  return 0;
}

/* Free form: the text of LINE before any '!' comment (quotes respected),
 * trailing blanks removed; its length. */
static size_t free_code(const char *line, size_t len) {
  char quote = 0;
  size_t end = len;
  for (size_t i = 0; i < len; i++) {
    char ch = line[i];
    if (quote) {
      if (ch == quote) quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '!') {
      end = i;
      break;
    }
  }
  while (end && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r' ||
                 line[end - 1] == '\n'))
    end--;
  return end;
}

static int fixed_comment(const char *l) {
  return l[0] == 'c' || l[0] == 'C' || l[0] == '*' || l[0] == '!';
}

/* Fixed form: a continuation line has a character other than blank or '0'
 * in column 6. */
static int fixed_continuation(const char *l, size_t len) {
  if (fixed_comment(l) || len < 6) return 0;
  for (int i = 0; i < 5; i++)
    if (l[i] == '\t') return 0;
  return l[5] != ' ' && l[5] != '0' && l[5] != '\n' && l[5] != '\r';
}

/* The first line of the statement that ends on LINE of the Fortran source
 * FILE, or LINE when FILE is not Fortran or cannot be read. */
static int statement_first_line(const char *file, int line) {
  int form = file && line > 1 ? fortran_form(file) : 0;
  if (!form) return line;
  FILE *f = fopen(file, "r");
  if (!f) return line;
  /* Lines 1..LINE, kept as offsets into one buffer. */
  size_t cap = 0, len = 0, *start = calloc((size_t)line + 1, sizeof *start);
  char *text = NULL, *buf = NULL;
  size_t bcap = 0;
  ssize_t k;
  int n = 0;
  while (start && n < line && (k = getline(&buf, &bcap, f)) >= 0) {
    if (len + (size_t)k + 1 > cap) {
      size_t nc = (len + (size_t)k + 1) * 2;
      char *nt = realloc(text, nc);
      if (!nt) break;
      text = nt;
      cap = nc;
    }
    start[n++] = len;
    memcpy(text + len, buf, (size_t)k);
    len += (size_t)k;
    text[len++] = '\0';
  }
  free(buf);
  fclose(f);
  int first = line;
  if (n == line) {
    if (form == 1) { /* step back while the previous code line ends in '&' */
      for (int i = line - 1; i >= 1; i--) {
        const char *l = text + start[i - 1];
        size_t c = free_code(l, strlen(l));
        size_t lead = 0;
        while (lead < c && (l[lead] == ' ' || l[lead] == '\t'))
          lead++;
        if (lead == c) continue; /* blank or comment-only line inside the statement */
        if (l[c - 1] != '&') break;
        first = i;
      }
    } else { /* step back while this line is a continuation */
      for (int i = line; i > 1;) {
        const char *l = text + start[i - 1];
        if (!fixed_continuation(l, strlen(l))) break;
        int j = i - 1;
        while (j >= 1 && fixed_comment(text + start[j - 1]))
          j--;
        if (j < 1) break;
        first = i = j;
      }
    }
  }
  free(text);
  free(start);
  return first;
}

/* ---- OpenMP regions compiled by GCC ----
 * A parallel region's call site is the return address of its GOMP_parallel
 * call, and GCC gives that call the line of another statement when the
 * pragma opens a block (miniAMR's stencil.c: line 151, the function's
 * closing brace, for the pragma at 84). The region's code is the outlined
 * function passed as the first argument (`F._omp_fn.N`), whose entry is the
 * pragma's line. On x86-64 GCC sets %rdi shortly before the `call` with
 * `lea disp32(%rip), %rdi`, or, when the region sits in a loop (a function
 * inlined into it), with `mov %reg, %rdi` from a register it loaded once
 * with `lea disp32(%rip), %reg` earlier in the function. The last of those
 * within OUTLINED_SCAN bytes before the call is followed, when no byte of
 * another `call rel32` (0xe8) lies between it and the call: an MPI call
 * made just after a region is not the region's (a stray 0xe8 in another
 * instruction only loses the line). Only an outlined function's name
 * (`*._omp_fn.*`) changes the site. */
#define OUTLINED_SCAN 64

/* The code bytes of M at file addresses [LO, HI) (executable section), or
 * NULL. */
static const uint8_t *code_at(mod_ctx *m, uint64_t lo, uint64_t hi) {
  GElf_Addr bias;
  Elf *elf = dwfl_module_getelf(m->mod, &bias);
  GElf_Ehdr eh;
  if (!elf || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 || hi <= lo) return NULL;
  for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
      continue;
    if (lo < sh.sh_addr || hi > sh.sh_addr + sh.sh_size) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || !d->d_buf || d->d_size < hi - sh.sh_addr) return NULL;
    return (const uint8_t *)d->d_buf + (lo - sh.sh_addr);
  }
  return NULL;
}

static int outlined_name(const char *name) {
  return name && strstr(name, "._omp_fn.") != NULL;
}

/* Is B[0..2] `lea disp32(%rip), %REG` (REG 0-15)? */
static int lea_rip(const uint8_t *b, int reg) {
  return b[0] == (reg < 8 ? 0x48 : 0x4c) && b[1] == 0x8d && b[2] == (0x05 | (reg & 7) << 3);
}

/* The register moved into %rdi by B[0..2] (`mov %reg, %rdi`), or -1. */
static int mov_to_rdi(const uint8_t *b) {
  if ((b[0] != 0x48 && b[0] != 0x4c) || b[1] != 0x89 || (b[2] & 0xc7) != 0xc7) return -1;
  int reg = (b[2] >> 3 & 7) | (b[0] == 0x4c ? 8 : 0);
  return reg == 7 ? -1 : reg;
}

/* The file address `lea disp32(%rip), %reg` at B (file address AT) loads. */
static uint64_t lea_target(const uint8_t *b, uint64_t at) {
  int32_t disp;
  memcpy(&disp, b + 3, 4);
  return at + 7 + (uint64_t)(int64_t)disp;
}

/* What the `lea disp32(%rip), %REG` last before file address END in the
 * function around it loads, or 0. */
static uint64_t loaded_before(mod_ctx *m, uint64_t end, int reg) {
  GElf_Sym sym;
  GElf_Off off;
  Dwarf_Addr addr = end + m->bias;
  if (!dwfl_module_addrinfo(m->mod, addr, &off, &sym, NULL, NULL, NULL) || off > end) return 0;
  uint64_t start = end - off;
  const uint8_t *b = code_at(m, start, end);
  if (!b) return 0;
  for (uint64_t i = end - start; i-- > 0;)
    if (i + 7 <= end - start && lea_rip(b + i, reg)) return lea_target(b + i, start + i);
  return 0;
}

/* When the call ending at file address VADDR of M starts an OpenMP region
 * (GCC), the file and line of its pragma into LOC; else LOC is unchanged. */
static void region_line(mod_ctx *m, uint64_t vaddr, augur_srcloc *loc) {
  if (vaddr < OUTLINED_SCAN) return;
  uint64_t lo = vaddr - OUTLINED_SCAN;
  const uint8_t *b = code_at(m, lo, vaddr);
  size_t call = OUTLINED_SCAN - 5;
  if (!b || b[call] != 0xe8) return; /* call rel32 */
  uint64_t target = 0;
  for (size_t i = call; i-- > 0;) {
    int reg = -1;
    size_t len = i + 7 <= call && lea_rip(b + i, 7)                ? 7
                 : i + 3 <= call && (reg = mov_to_rdi(b + i)) >= 0 ? 3
                                                                   : 0;
    if (!len) continue;
    for (size_t j = i + len; j < call; j++)
      if (b[j] == 0xe8) return; /* a call in between (or a stray byte): not followed */
    target = len == 7 ? lea_target(b + i, lo + i) : loaded_before(m, lo + i, reg);
    break;
  }
  Dwarf_Addr addr = target + m->bias, bias;
  if (!target || !outlined_name(dwfl_module_addrname(m->mod, addr))) return;
  Dwarf_Die *cu = cu_of(m->mod, addr, &bias);
  Dwarf_Line *line = cu ? dwarf_getsrc_die(cu, addr - bias) : NULL;
  int lineno = 0;
  if (line && dwarf_lineno(line, &lineno) == 0 && lineno > 0) {
    loc->file = dwarf_linesrc(line, NULL, NULL);
    loc->line = lineno;
  }
}

int augur_trace_resolve(augur_trace *t, uint32_t callsite, augur_srcloc *out) {
  memset(out, 0, sizeof *out);
  const augur_callsite_def *cs = augur_trace_callsite(t, callsite);
  if (!cs) return AUGUR_E_ARG;
  aug_resolver *r = t->res;
  if (!r) {
    r = calloc(1, sizeof *r);
    if (!r) return AUGUR_E_NOMEM;
    r->nmods = t->nmodules;
    r->nsites = t->ncallsites;
    r->mods = calloc(r->nmods ? r->nmods : 1, sizeof *r->mods);
    r->loc = calloc(r->nsites, sizeof *r->loc);
    r->done = calloc(r->nsites, 1);
    t->res = r;
    if (!r->mods || !r->loc || !r->done) {
      aug_resolver_free(r);
      t->res = NULL;
      return AUGUR_E_NOMEM;
    }
  }
  size_t i = callsite - 1;
  if (r->done[i]) {
    *out = r->loc[i];
    return AUGUR_OK;
  }
  augur_srcloc *loc = &r->loc[i];
  const augur_module_def *md = augur_trace_module(t, cs->module);
  if (md) {
    loc->module = md->path;
    mod_ctx *m = &r->mods[cs->module - 1];
    if (!m->tried) open_module(m, md->path);
    if (m->mod && cs->offset > 0) {
      /* A return address points after the call; step back into it. */
      uint64_t vaddr = cs->offset;
      if (m->exec_base && !(vaddr > m->exec_lo && vaddr <= m->exec_hi)) vaddr += m->exec_base;
      Dwarf_Addr addr = vaddr + m->bias - 1;
      Dwarf_Addr bias;
      Dwarf_Die *cu = cu_of(m->mod, addr, &bias);
      if (cu) loc->function = innermost_function(cu, addr - bias);
      if (!loc->function) loc->function = dwfl_module_addrname(m->mod, addr);
      Dwarf_Line *line = cu ? dwarf_getsrc_die(cu, addr - bias) : NULL;
      int lineno = 0;
      if (line && dwarf_lineno(line, &lineno) == 0) {
        loc->file = dwarf_linesrc(line, NULL, NULL);
        loc->line = statement_first_line(loc->file, lineno);
      }
      region_line(m, vaddr, loc);
    }
  }
  r->done[i] = 1;
  *out = *loc;
  return AUGUR_OK;
}

void aug_resolver_free(aug_resolver *r) {
  if (!r) return;
  for (size_t i = 0; r->mods && i < r->nmods; i++)
    if (r->mods[i].dwfl) dwfl_end(r->mods[i].dwfl);
  free(r->mods);
  free(r->loc);
  free(r->done);
  free(r);
}
